#!/bin/bash
# LayerNorm / RMSNorm on the H200 (issue 20), one GPU round of about 2 minutes after the build:
#   source .gpu/env.sh && OUT=/tmp/r bash tools/lab/h200/round_norm2.sh
# Builds (Release, /tmp/b_norm2), runs test_norm on the GPU (the NVIDIA paths: warp shuffles),
# then library_norm_time.c on the shapes, each with the norm tuning variants named below
# (plans printed), keeping the built programs' PTX (OCLFUSE_CACHE=always) for ptxas.
# Writes $OUT/norm2.txt and $OUT/norm2_ptx.tgz.
set -u
out=${OUT:-/tmp/norm2}
mkdir -p "$out"
log=$out/norm2.txt
b=/tmp/b_norm2
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >$b.build.txt 2>&1 &&
    cmake --build $b -j16 --target oclfuse test_norm >>$b.build.txt 2>&1 ||
    { tail -40 $b.build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/norm2_time || exit 1
  echo "built at $((SECONDS - start)) s"
  git log --oneline -1
  (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout 30 tests/test_norm 2>&1 | tail -15)
  echo "test_norm done at $((SECONDS - start)) s"
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_norm2
  rm -rf /tmp/occ_norm2
  t=/tmp/norm2_time
  P='rows.groups_per_unit'
  f32=("" "rows.merge=0" "rows.shuffle=0" "$P=8 rows.prefetch=1 rows.merge=0" "$P=4 rows.prefetch=1" "$P=8 rows.prefetch=1" "$P=16 rows.prefetch=1"
    "$P=8 rows.prefetch=0" "rows.seg_items=8" "rows.seg_items=8 $P=8 rows.prefetch=1"
    "rows.seg_items=16 $P=8 rows.prefetch=1" "rows.seg_items=16" "rows.wg=128")
  h16=("" "rows.merge=0" "rows.shuffle=0" "$P=4 rows.prefetch=1" "$P=8 rows.prefetch=1" "$P=16 rows.prefetch=1"
    "rows.seg_items=4" "rows.seg_items=4 $P=8 rows.prefetch=1" "rows.seg_items=8"
    "rows.seg_items=8 $P=8 rows.prefetch=1" "rows.wg=128")
  short=("" "rows.merge=0" "rows.shuffle=0" "$P=8 rows.prefetch=1")
  timeout 20 $t layer f32 8192 4096 "${f32[@]}"
  timeout 20 $t layer f32 32768 1024 "${f32[@]}"
  timeout 20 $t rms f32 8192 4096 "${f32[@]}"
  timeout 20 $t layer bf16 8192 4096 "${h16[@]}"
  timeout 12 $t layer bf16 32768 1024 "${h16[@]}"
  timeout 8 $t rms bf16 8192 4096 "${short[@]}"
  timeout 8 $t rms f16 8192 4096 "${short[@]}"
  timeout 8 $t layer f32 1024 16384 "${short[@]}"
  timeout 8 $t rms f32 1024 16384 "${short[@]}"
  timeout 8 $t layer f32 4096 4097 "${short[@]}"
  timeout 8 $t layer f32 65536 128 "${short[@]}"
  timeout 8 $t layer f32 256 262144 ""
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
tar czf "$out/norm2_ptx.tgz" -C /tmp occ_norm2 2>/dev/null
tail -3 "$log"
