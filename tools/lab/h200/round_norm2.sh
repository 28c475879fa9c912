#!/bin/bash
# LayerNorm / RMSNorm on the H200 (issue 20), one GPU round of under a minute after the build:
#   source .gpu/env.sh && OUT=/tmp/r bash tools/lab/h200/round_norm2.sh
# Builds (Release, /tmp/b_norm2), then runs library_norm_time.c on the shapes, some with
# the norm tuning variants named below (plans and errors printed), keeping the built programs'
# PTX (OCLFUSE_CACHE=always) for ptxas. (Round 1 also ran test_norm on the GPU.)
# Writes $OUT/norm2.txt and $OUT/norm2_ptx.tgz.
set -u
out=${OUT:-/tmp/norm2}
mkdir -p "$out"
log=$out/norm2.txt
b=/tmp/b_norm2
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >$b.build.txt 2>&1 &&
    cmake --build $b -j16 --target oclfuse >>$b.build.txt 2>&1 ||
    { tail -40 $b.build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/norm2_time || exit 1
  echo "built at $((SECONDS - start)) s"
  git log --oneline -1
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_norm2
  rm -rf /tmp/occ_norm2
  t=/tmp/norm2_time
  # Round 2: the defaults on the shapes; beside them on six, register caps and no prefetch.
  N='rows.groups_per_unit=0 rows.prefetch=0'
  v=("" "rows.max_regs=64" "rows.max_regs=48" "rows.max_regs=32" "$N" "$N rows.max_regs=64"
    "$N rows.max_regs=40" "rows.groups_per_unit=8 rows.max_regs=64")
  timeout 8 $t layer f32 8192 4096 "${v[@]}"
  timeout 8 $t layer f32 32768 1024 "${v[@]}"
  timeout 8 $t rms f32 8192 4096 "${v[@]}"
  timeout 6 $t layer bf16 8192 4096 "${v[@]}"
  timeout 6 $t rms bf16 8192 4096 "${v[@]}"
  timeout 6 $t layer bf16 32768 1024 "${v[@]}"
  timeout 4 $t rms f16 8192 4096 "" "$N"
  timeout 4 $t layer f32 1024 16384 "" "rows.max_regs=96"
  timeout 4 $t rms f32 1024 16384 "" "rows.max_regs=96"
  timeout 3 $t layer f32 4096 4097 ""
  timeout 3 $t layer f32 65536 128 ""
  timeout 3 $t layer f32 256 262144 ""
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
tar czf "$out/norm2_ptx.tgz" -C /tmp occ_norm2 2>/dev/null
tail -3 "$log"
