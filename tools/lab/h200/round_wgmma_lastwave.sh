#!/bin/bash
# The wgmma last-wave split (issue 18; src/plan/plan_matmul_wgmma.c, rule 6, wgmma.lastwave, off
# in the built-in values): ragged and square shapes whose tiles leave a small last wave, the
# built-in plan against the split with ranges of at least 1024, 512 and 256, cuBLAS beside in the
# same call, from the tree's root:
#   source .gpu/env.sh && OUT=/some/dir bash tools/lab/h200/round_wgmma_lastwave.sh
# 1. builds (Release, /tmp/b unless B is set: the library, test_matmul_wgmma; incremental);
# 2. test_matmul_wgmma on the GPU (its test_wgmma_lastwave forces the split on ragged shapes,
#    every type, epilogue and C type, batches, a NaN-filled workspace);
# 3. library_gemm_time.c on each shape under each tuning string below (the plan printed: the
#    split runs as "matmul_wgmma_lw_split ... + matmul_wgmma_lw ...");
# 4. gemm_peers.py (cuBLAS through PyTorch) on the same shapes.
# About 3 minutes after the build. Writes $OUT/wgmma_lastwave.txt.
# Tiles of 128 x 256 on 132 units (G tiles, R = G mod 132 in the last wave, s ranges at 512):
#   bf16 3000^3              288 tiles, R 24: 5 ranges (2 at 1024, 5 at 256)
#   bf16 4095 x 4104 x 4000  544 tiles, R 16: 7 ranges (3 at 1024, 8 at 256)
#   bf16 8191 x 1032 x 8200  320 tiles, R 56: 2 ranges
#   bf16 2304 x 2048 x 8192  144 tiles, R 12: 11 ranges (8 at 1024)
#   bf16 2048 x 2048 x 8192  128 tiles (one partial wave: rule 5's ground, unchanged; a control)
#   bf16 5000^3              800 tiles, R 8: 9 ranges (4 at 1024, 16 at 256)
#   f16 3000^3, TF32 3000^3 (B^T) as bf16 3000^3
#   bf16 4096^3              512 tiles, R 116 > 66: unchanged (a control)
set -u
out=${OUT:-/tmp/wgmma_lastwave}
mkdir -p "$out"
log=$out/wgmma_lastwave.txt
b=${B:-/tmp/b}
start=$SECONDS
{
  echo "== round_wgmma_lastwave $(git log --oneline -1 2>/dev/null)"
  # always (incremental): a build of an older tree in $b would time the older code
  if ! { cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >"$out"/build.txt 2>&1 &&
    cmake --build "$b" -j16 --target oclfuse test_matmul_wgmma >>"$out"/build.txt 2>&1; }; then
    tail -40 "$out"/build.txt
    exit 1
  fi
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L"$b" -loclfuse -lOpenCL -lm \
    -Wl,-rpath,"$b" -o /tmp/wgmma_lastwave_time || exit 1
  echo "built at $((SECONDS - start)) s"
  (cd "$b" && timeout 400 ctest -R '^test_matmul_wgmma$' --output-on-failure >"$out"/test.txt 2>&1)
  echo "test_matmul_wgmma rc $? at $((SECONDS - start)) s"
  grep -E "tests passed|Failed|\[  FAILED|\*\*\*|ran |expected" "$out"/test.txt | head -10
  shapes=(
    "bf16 0 3000 3000 3000" "bf16 0 4095 4104 4000" "bf16 1 8191 1032 8200" "bf16 0 2304 2048 8192"
    "bf16 0 2048 2048 8192" "bf16 0 5000 5000 5000" "f16 0 3000 3000 3000" "tf32 1 3000 3000 3000"
    "bf16 0 4096 4096 4096")
  tunings=("wgmma.on=1" "wgmma.lastwave=50 wgmma.lastwave_min=1024"
    "wgmma.lastwave=50 wgmma.lastwave_min=512" "wgmma.lastwave=50 wgmma.lastwave_min=256")
  : >"$out"/shapes.txt
  for s in "${shapes[@]}"; do
    echo "$s" >>"$out"/shapes.txt
    for t in "${tunings[@]}"; do
      # shellcheck disable=SC2086
      timeout 30 /tmp/wgmma_lastwave_time $s "$t" 2>&1
    done
  done
  echo "timed at $((SECONDS - start)) s"
  timeout 120 python3 tools/lab/h200/gemm_peers.py "$out"/shapes.txt 2>&1
  echo "done at $((SECONDS - start)) s"
} 2>&1 | tee "$log"
