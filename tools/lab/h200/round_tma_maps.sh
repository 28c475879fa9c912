#!/bin/bash
# round_tma_maps.sh (H200, 2026-12-05, issue 18): tensor maps made on the device from nothing
# (tensormap.replace of every field of a zeroed map, by the warp that drives the TMA) against the
# CUDA driver's, and the library's TMA-fed wgmma kernel (matmul_wgmma_tma) that rests on them:
#  1. the wgmma lab's TMA variants with device-made maps (producer 3) beside the driver's (2) and
#     every-thread cp.async (0), checked on random data, their map bytes side by side (WG_DUMP),
#     cuBLAS beside (lab.txt, lab/);
#  2. the library on random data, C in the inputs' type, wgmma.tma=0 (cp.async) against the
#     built-in plans (wgmma.tma=1), the first run verbose for the probes' log (lib.txt);
#  3. test_matmul_wgmma on the GPU with the built-in tuning (every direct plan on the TMA form:
#     the H200 row sets wgmma.tma=1 since this round; on 2026-12-05 the round added it to its copy).
#   source .gpu/env.sh && OUT=$OUT bash tools/lab/h200/round_tma_maps.sh
set -u
out=${OUT:?OUT}
start=$SECONDS
(cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release >/tmp/b.cfg.log 2>&1 &&
  cmake --build /tmp/b -j12 >/tmp/b.build.log 2>&1 &&
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L/tmp/b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,/tmp/b -o /tmp/lgt) &
builder=$!
WG_DUMP=1 timeout -k 5 240 tools/lab/wgmma/run.sh "$out/lab" "${LAB_BUDGET:-100}" \
  "${LAB_ONLY:-dev_bf16_256x4_nn,dev_bf16_256x4_nt,dev_f16_256x4_nn,dev_tf32_256x4_nt,tma_bf16_256x4_nn,tma_tf32_256x4_nt,bf16_256x4_nn}" >"$out/lab.txt" 2>&1
echo "lab done at $((SECONDS - start)) s" >>"$out/lab.txt"
wait $builder || { tail -20 /tmp/b.build.log >"$out/lib.txt"; exit 0; }
{
  OCLFUSE_VERBOSE=1 timeout 60 /tmp/lgt bf16 0 4096 4096 4096 "wgmma.on=1" 2>&1 | grep -i -E "probe|TFLOP|error|fail" | head -20
  while read -r dt tb m n k t; do
    [ $((SECONDS - start)) -gt "${LIB_DEADLINE:-400}" ] && break
    timeout 30 /tmp/lgt "$dt" "$tb" "$m" "$n" "$k" "$t"
  done <<'LIST'
bf16 0 4096 4096 4096 wgmma.tma=0
bf16 0 4096 4096 4096 wgmma.tma=1
f16 0 4096 4096 4096 wgmma.tma=0
f16 0 4096 4096 4096 wgmma.tma=1
bf16 1 4096 4096 4096 wgmma.tma=0
bf16 1 4096 4096 4096 wgmma.tma=1
tf32 1 4096 4096 4096 wgmma.tma=0
tf32 1 4096 4096 4096 wgmma.tma=1
bf16 0 8192 8192 8192 wgmma.tma=0
bf16 0 8192 8192 8192 wgmma.tma=1
bf16 0 3000 3000 3000 wgmma.tma=0
bf16 0 3000 3000 3000 wgmma.tma=1 wgmma.align_rows=0
bf16 0 2048 2048 2048 wgmma.tma=0
bf16 0 2048 2048 2048 wgmma.tma=1
bf16 0 6144 6144 6144 wgmma.tma=0
bf16 0 6144 6144 6144 wgmma.tma=1
bf16 0 4097 4095 1023 wgmma.tma=0
bf16 0 4097 4095 1023 wgmma.tma=1 wgmma.align_rows=0
bf16 0 128 8192 8192 wgmma.tma=1
bf16 0 128 8192 8192 wgmma.tma=1 wgmma.split_min=0
bf16 1 128 8192 8192 wgmma.tma=1 wgmma.split_min=0
bf16 0 64 8192 8192 wgmma.tma=1
bf16 0 64 8192 8192 wgmma.tma=1 wgmma.split_min=0
bf16 0 256 4096 4096 wgmma.tma=1
bf16 0 256 4096 4096 wgmma.tma=1 wgmma.split_min=0
LIST
} >"$out/lib.txt" 2>&1
echo "lib done at $((SECONDS - start)) s" >>"$out/lib.txt"
printf '%s\n' "bf16 0 3000 3000 3000" "bf16 0 2048 2048 2048" "bf16 0 6144 6144 6144" \
  "bf16 0 4097 4095 1023" "bf16 0 128 8192 8192" "bf16 1 128 8192 8192" "bf16 0 64 8192 8192" \
  "bf16 0 256 4096 4096" >/tmp/tma_shapes.txt
timeout 60 python3 tools/lab/h200/gemm_peers.py /tmp/tma_shapes.txt >"$out/peers.txt" 2>&1
left=$((${DEADLINE:-560} - (SECONDS - start)))
[ $left -gt 20 ] && (cd /tmp/b && timeout $left ctest -R "test_matmul_wgmma|test_matmul_pad" --output-on-failure >"$out/ctest.txt" 2>&1)
echo "ctest done at $((SECONDS - start)) s" >>"$out/lib.txt"
# 4. where time is left: the bench and its PyTorch peers on the issue's GEMM shapes
left=$((${DEADLINE:-560} - (SECONDS - start)))
if [ $left -gt 150 ]; then
  timeout $((left - 100)) /tmp/b/bench/oclfuse bench --quiet --format json --sizes \
    "matmul:4096x4096x4096:bf16;matmul:4096x4096x4096:f16;matmul:8192x8192x8192:bf16;matmul:4096x4096x4096:tf32;matmul:3000x3000x3000:bf16;matmul:128x8192x8192:bf16" \
    >"$out/bench.json" 2>"$out/bench.err"
  left=$((${DEADLINE:-560} - (SECONDS - start)))
  [ $left -gt 30 ] && timeout $((left - 10)) python3 bench/peers.py --bench "$out/bench.json" \
    --budget $((left - 20)) --out "$out/bench.tsv" >"$out/bench.txt" 2>&1
fi
echo "all done at $((SECONDS - start)) s" >>"$out/lib.txt"
