#!/bin/bash
# The wgmma kernel's ragged and few-row shapes (issue 18, item 3): edge tiles on the planned copy
# (cl/matmul_wgmma_nv.cl, load_slice_fast with EDGE 1) and the tile width against the device's
# waves (wgmma.bn 256 / 128, 3 stages at 128: two workgroups a compute unit), cuBLAS beside in
# the same call, from the tree's root:
#   source .gpu/env.sh && OUT=/some/dir bash tools/lab/h200/round_wgmma_tiles.sh
# Then split K on few-row and mid-size shapes: the built-in values (split_min 1024, 256-column
# tiles), no split, 128-column tiles split, ranges of 2048.
# 1. builds (Release, /tmp/b unless B is set: the library, test_matmul_wgmma);
# 2. test_matmul_wgmma on the GPU (every edge tile now takes the planned copy);
# 3. library_gemm_time.c on each shape under each tuning string below (the plan printed);
# 4. gemm_peers.py (cuBLAS through PyTorch) on the same shapes.
# About 3 minutes after the build. Writes $OUT/wgmma_tiles.txt.
set -u
out=${OUT:-/tmp/wgmma_tiles}
mkdir -p "$out"
log=$out/wgmma_tiles.txt
b=${B:-/tmp/b}
start=$SECONDS
{
  echo "== round_wgmma_tiles $(git log --oneline -1 2>/dev/null)"
  if [ ! -x $b/tests/test_matmul_wgmma ]; then
    cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >$out/build.txt 2>&1 &&
      cmake --build $b -j16 --target oclfuse test_matmul_wgmma >>$out/build.txt 2>&1 ||
      { tail -40 $out/build.txt; exit 1; }
  fi
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/wgmma_tiles_time || exit 1
  echo "built at $((SECONDS - start)) s"
  (cd $b && timeout 150 ctest -R '^test_matmul_wgmma$' --output-on-failure >$out/test.txt 2>&1)
  echo "test_matmul_wgmma rc $? at $((SECONDS - start)) s"
  grep -E "tests passed|Failed|\[  FAILED|\*\*\*" $out/test.txt | head -10
  shapes=(
    "bf16 0 3000 3000 3000" "bf16 0 4095 4104 4000" "bf16 1 8191 1032 8200" "bf16 0 2048 2048 2048"
    "bf16 1 128 8192 8192" "bf16 1 64 8192 8192" "bf16 1 4096 50257 4096" "bf16 0 5000 1234 777"
    "f16 0 3001 2999 3003" "tf32 1 3000 3000 3000" "bf16 0 4096 4096 4096" "bf16 0 8192 8192 8192")
  tunings=("wgmma.on=1") # 2026-12-02: bn=128 (and 3 stages) lost on every shape (GEMM.md)
  : >$out/shapes.txt
  for s in "${shapes[@]}"; do
    echo "$s" >>$out/shapes.txt
    for t in "${tunings[@]}"; do
      # shellcheck disable=SC2086
      timeout 30 /tmp/wgmma_tiles_time $s "$t" 2>&1
    done
  done
  # split K (wgmma.split_min, off by default): few-row and mid-size calls whose tiles leave
  # compute units idle, test_matmul_wgmma's test_wgmma_split_k above checks the results
  split_shapes=(
    "bf16 1 128 8192 8192" "bf16 1 64 8192 8192" "bf16 1 32 8192 8192" "f16 1 128 8192 8192"
    "bf16 0 128 8192 8192" "tf32 1 128 8192 8192" "bf16 1 128 4096 14336" "bf16 0 1024 1024 1024"
    "bf16 0 1536 1536 1536" "bf16 1 256 4096 4096")
  for s in "${split_shapes[@]}"; do
    echo "$s" >>$out/shapes.txt
    for t in "wgmma.on=1" "wgmma.split_min=0" "wgmma.bn=128" "wgmma.split_min=2048"; do
      # shellcheck disable=SC2086
      timeout 30 /tmp/wgmma_tiles_time $s "$t" 2>&1
    done
  done
  echo "timed at $((SECONDS - start)) s"
  timeout 150 python3 tools/lab/h200/gemm_peers.py $out/shapes.txt 2>&1
  echo "done at $((SECONDS - start)) s"
} 2>&1 | tee "$log"
