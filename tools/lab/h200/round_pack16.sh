#!/bin/bash
# Ran 2026-12-05 (thirty-first session) on an H100 80GB HBM3, the H200 being unavailable: its
# figures are in docs/GEMM.md ("The 16-bit C stores"). The patch went into main after it
# (3ee7c61); to repeat the comparison, run this at 65d09ff, where it still applies.
# round_pack16.sh (H200, issue 18; prepared 2026-12-05 for the next session): with 16-bit C the
# wgmma kernels ran bf16 4096^3 at 596 TFLOP/s where fp32 C (twice the bytes) ran 705, their
# column pairs stored through vstore2 / vstore_half2 (which promise only 2-byte alignment).
# tools/lab/h200/pack16_store.patch packs each pair
# into one 32-bit store (bf16: the library's rounding; f16: cvt.rn.f16x2.f32, round to nearest
# even as vstore_half_rte). In this copy of the tree: the library without and with the patch on
# random operands (16-bit C and fp32 C), then test_matmul_wgmma with it (its 16-bit C cases check
# every element). wgmma.c_stage=1 (the TMA form's staged epilogue: each warpgroup's finished
# block through local memory, stored in rows of 16-byte chunks; built without a GPU) is timed
# beside both. Then, where time is left, the suite with c_stage on; wgmma.tma=2 (16-bit B rows
# off the 128-byte lines read in place) goes through the suite in a call of its own.
#   source .gpu/env.sh && OUT=$OUT bash tools/lab/h200/round_pack16.sh
set -u
out=${OUT:?OUT}
start=$SECONDS
build() { # $1: build folder
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
    cmake --build "$1" -j16 --target oclfuse test_matmul_wgmma >/dev/null 2>&1 &&
    cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L"$1" -loclfuse -lOpenCL -lm \
      -Wl,-rpath,"$1" -o "$1/lgt"
}
times() { # $1: build folder
  while read -r dt tb m n k; do
    "$1/lgt" "$dt" "$tb" "$m" "$n" "$k" | cut -c1-100
    "$1/lgt" "$dt" "$tb" "$m" "$n" "$k" "wgmma.c_stage=1" | cut -c1-100
    C32=1 "$1/lgt" "$dt" "$tb" "$m" "$n" "$k" | cut -c1-100
  done <<'LIST'
bf16 0 4096 4096 4096
f16 0 4096 4096 4096
bf16 0 8192 8192 8192
bf16 1 4096 4096 4096
bf16 0 3000 3000 3000
LIST
}
build /tmp/before || { echo "build failed" >"$out/pack16.txt"; exit 0; }
git apply tools/lab/h200/pack16_store.patch || { echo "patch failed" >"$out/pack16.txt"; exit 0; }
build /tmp/after || { echo "patched build failed" >"$out/pack16.txt"; exit 0; }
{
  echo "== before"; times /tmp/before
  echo "== split K: cp.async, then the TMA-fed split (wgmma.tma_split=1)"
  for shape in "1 128 8192 8192" "0 128 8192 8192" "1 64 8192 8192" "1 256 4096 4096" \
    "1 128 4096 14336"; do
    /tmp/before/lgt bf16 $shape | cut -c1-100
    /tmp/before/lgt bf16 $shape "wgmma.tma_split=1" | cut -c1-100
  done
  echo "== after (pack16)"; times /tmp/after
} >"$out/pack16.txt" 2>&1
# the stores NVIDIA's compiler wrote in each cached TMA-form program (the disk cache holds its PTX)
for f in $(grep -l -a "OCF_KERNEL_matmul_wgmma_tma" "${XDG_CACHE_HOME:-$HOME/.cache}"/oclfuse/*.bin \
  2>/dev/null); do
  echo "$(grep -a -o -m1 'source [0-9a-f]*' "$f") $(grep -a -o -m1 'C_DTYPE=[0-9]' "$f") \
$(grep -a -o -m1 'C_STAGE=[0-9]' "$f") $(grep -a -o 'st\.global[.a-z0-9]*' "$f" | sort | uniq -c |
    tr '\n' ' ')"
done >"$out/stores.txt" 2>&1
(cd /tmp/after && timeout 260 ctest -R test_matmul_wgmma --output-on-failure >"$out/ctest_pack16.txt" 2>&1)
echo "suite done at $((SECONDS - start)) s" >>"$out/pack16.txt"
left=$((${DEADLINE:-560} - (SECONDS - start)))
if [ $left -gt 230 ]; then # the staged epilogue through the suite (the patch stays applied)
  sed -i '/^entry matmul f32 \* wgmma.on=1/s/$/ wgmma.c_stage=1/' src/tuning/builtin.tuning
  build /tmp/cstage && (cd /tmp/cstage && timeout $((left - 40)) ctest -R test_matmul_wgmma \
    --output-on-failure >"$out/ctest_cstage.txt" 2>&1)
fi
echo "all done at $((SECONDS - start)) s" >>"$out/pack16.txt"
