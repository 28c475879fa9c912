#!/bin/bash
# The copy step of the padded GEMM plans (cl/matmul_pad.cl) read its sources value by value, 2
# bytes a load for the 16-bit operands that wgmma.align_rows copies onto 128-byte lines (bf16
# 3000^3 ran at 430 TFLOP/s copied where the aligned 3072^3, the same tiles, runs at 674). Since
# 2026-12-03 (sixteenth session) rows that start on 16 bytes are read a vector at a time. This
# round builds the tree and the tree with the old copy (pad_elements.patch) side by side, runs
# test_matmul_pad on the GPU, and times the copied plans in both with the copy's own time
# (library_gemm_time.c's "first step"), cuBLAS beside.
#   source .gpu/env.sh && OUT=$OUT/pad bash tools/lab/h200/round_pad_copy.sh
# SHAPES: "dtype transB m n k [pad_a pad_b]" lines as round_wgmma_ragged.sh's.
set -u
out=${OUT:-/tmp/pad_copy}
mkdir -p "$out"
here=$(pwd)
start=$SECONDS
old=/tmp/pad_old_src
rm -rf "$old" && mkdir -p "$old"
tar --exclude=./.gpu --exclude=./build -cf - . | tar -C "$old" -xf -
(cd "$old" && patch -s -p1 <"$here/tools/lab/h200/pad_elements.patch") || exit 1
for v in new old; do
  src=$here
  [ $v = old ] && src=$old
  (cmake -S "$src" -B /tmp/pad_b_$v -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >"$out/build_$v.txt" 2>&1 &&
    cmake --build /tmp/pad_b_$v -j8 >>"$out/build_$v.txt" 2>&1 || echo "$v: build failed") &
done
wait
for v in new old; do
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L/tmp/pad_b_$v -loclfuse -lOpenCL \
    -lm -Wl,-rpath,/tmp/pad_b_$v -o /tmp/pad_time_$v || exit 1
done
echo "built at $((SECONDS - start)) s"
(cd /tmp/pad_b_new && OCLFUSE_TEST_DEVICE=NVIDIA timeout 120 ./tests/test_matmul_pad 2>&1 |
  grep -E 'PASSED|FAILED|OK|rror' | tail -20)
echo "suite at $((SECONDS - start)) s"
shapes=${SHAPES:-"bf16 0 3000 3000 3000
bf16 1 3000 3000 3000
f16 0 3000 3000 3000
bf16 0 4095 4104 4000
bf16 0 5000 5000 5000
bf16 1 8191 1032 8200
bf16 0 4096 4096 4096 0 8
bf16 0 8192 8192 8192 0 8
bf16 0 4096 4096 4096 1 0
bf16 0 2048 2048 2048 1 0
bf16 0 1024 4096 4096 1 0
f16 0 1000 1000 1000 1 0
f32 0 2000 2048 2048
f32 0 4097 4095 4093
f32 0 3001 3003 3005"}
: >"$out/shapes.txt"
while read -r dt tb m n k pa pb; do
  [ -z "$dt" ] && continue
  echo "$dt $tb $m $n $k" >>"$out/shapes.txt"
  for v in new old; do
    echo -n "$v "
    PAD_A=${pa:-0} PAD_B=${pb:-0} OCLFUSE_TUNING_DIR=/tmp/pad_occ_$v timeout 30 /tmp/pad_time_$v \
      "$dt" "$tb" "$m" "$n" "$k" 2>&1 | cut -c1-400
  done
done <<<"$shapes" | tee "$out/times.txt"
echo "timed at $((SECONDS - start)) s"
[ "${PEERS:-1}" = 1 ] && timeout 150 python3 tools/lab/h200/gemm_peers.py "$out/shapes.txt" 2>&1 | tee "$out/peers.txt"
echo "done at $((SECONDS - start)) s"
