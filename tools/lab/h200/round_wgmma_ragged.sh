#!/bin/bash
# Where a ragged 16-bit GEMM loses its speed on wgmma (issue 18, item 3: bf16 3000^3 runs at
# half of cuBLAS, 4096^3 at 0.96): each ragged side alone against the aligned 3072^3 of the same
# tile count (288 tiles of 128 x 256), K's row alignment (128, 64, 32, 16 bytes) apart from a
# partial last slice, and B's two layouts; the plan printed with each, cuBLAS beside.
#   source .gpu/env.sh && OUT=$OUT/rag bash tools/lab/h200/round_wgmma_ragged.sh
# SHAPES (one "dtype transB m n k [pad_a pad_b]" a line: the pads, in elements, widen A's and
# B's leading dimensions; cuBLAS runs the tight shape) and TUNINGS (';'-separated matmul tuning strings)
# replace the defaults; B names a built tree (default /tmp/b, built here when missing).
set -u
out=${OUT:-/tmp/wgmma_ragged}
mkdir -p "$out"
b=${B:-/tmp/b}
start=$SECONDS
if [ ! -f $b/liboclfuse.so ] && [ ! -f $b/src/liboclfuse.so ]; then
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >$out/build.txt 2>&1 &&
    cmake --build $b -j16 --target oclfuse >>$out/build.txt 2>&1 || { tail -40 $out/build.txt; exit 1; }
fi
lib=$(dirname "$(find $b -name 'liboclfuse.so' | head -1)")
cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L"$lib" -loclfuse -lOpenCL -lm \
  -Wl,-rpath,"$lib" -o /tmp/wgmma_ragged_time || exit 1
echo "built at $((SECONDS - start)) s"
: >$out/shapes.txt
while read -r s; do
  [ -z "$s" ] && continue
  echo "$s" >>$out/shapes.txt
done <<<"${SHAPES:-bf16 0 3072 3072 3072
bf16 0 3000 3000 3000
bf16 0 3072 3072 3000
bf16 0 3000 3000 3072
bf16 0 3000 3072 3072
bf16 0 3072 3000 3072
bf16 0 3072 3072 3008
bf16 0 3072 3072 3040
bf16 0 3072 3072 3064
bf16 1 3072 3072 3072
bf16 1 3000 3000 3000
bf16 1 3072 3072 3000
bf16 0 2048 2048 2048
bf16 0 4096 4096 4096
bf16 0 4095 4104 4000
bf16 0 4096 4096 4000}"
IFS=';' read -r -a tunings <<<"${TUNINGS:-wgmma.on=1}"
while read -r dt tb m n k pa pb; do
  for t in "${tunings[@]}"; do
    PAD_A=${pa:-0} PAD_B=${pb:-0} timeout 30 /tmp/wgmma_ragged_time "$dt" "$tb" "$m" "$n" "$k" "$t" 2>&1
  done
done <$out/shapes.txt
echo "timed at $((SECONDS - start)) s"
[ "${PEERS:-1}" = 1 ] && timeout 150 python3 tools/lab/h200/gemm_peers.py $out/shapes.txt 2>&1
echo "done at $((SECONDS - start)) s"
