#!/bin/bash
# The newer ops beside PyTorch on one NVIDIA GPU, in one device call of about 4 minutes
# (docs/PERFORMANCE.md's 2026-12-02 tables):
#   source .gpu/env.sh && tools/lab/h200/ops.sh        (results in $OUT, default /tmp/ops)
# 1. builds (Release, /tmp/b); 2. host cost (tools/host_cost); 3. LayerNorm / RMSNorm through
# library_norm_time.c and norm_peers.py, then `oclfuse bench --op norm` (with its baseline);
# 4. 16-bit softmax (`oclfuse bench --op softmax --sizes`) and softmax_peers.py; 5. TF32 and
# friends through library_gemm_time.c and gemm_peers.py; 6. attention (`oclfuse bench --op
# attention`) and attention_peers.py. The refactor's before/after of the same day built the
# older tree beside this one and compared `oclfuse bench --format json` runs with
# `oclfuse bench --compare A.json B.json`.
set -u
out=${OUT:-/tmp/ops}
mkdir -p "$out"
start=$SECONDS
lab=tools/lab/h200
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >"$out/build.txt" 2>&1 &&
  cmake --build /tmp/b -j16 >>"$out/build.txt" 2>&1 || { tail -30 "$out/build.txt"; exit 1; }
echo "built at $((SECONDS - start)) s"
/tmp/b/tools/host_cost/oclfuse_host_cost --calls 20000 | tee "$out/host_cost.txt"
for tool in norm gemm; do
  cc -std=c11 -O2 -Iinclude $lab/library_${tool}_time.c -L/tmp/b -loclfuse -lOpenCL \
    -Wl,-rpath,/tmp/b -o /tmp/${tool}_time || exit 1
done
norm_shapes="f32:8192:4096 f32:32768:1024 f32:1024:16384 bf16:8192:4096 bf16:1024:16384 \
f16:8192:4096 f32:4096:4097 bf16:32768:1024 f32:65536:128 f32:256:262144 bf16:256:262144"
for kind in layer rms; do
  for s in $norm_shapes; do
    IFS=: read -r dt r c <<<"$s"
    timeout 30 /tmp/norm_time $kind "$dt" "$r" "$c"
  done
done | tee "$out/norm.txt"
peers=""
for s in $norm_shapes; do IFS=: read -r dt r c <<<"$s"; peers="$peers ${r}x${c}:$dt"; done
timeout 120 python3 $lab/norm_peers.py $peers 2>/dev/null | tee "$out/norm_peers.txt"
timeout 60 /tmp/b/bench/oclfuse bench --op norm >"$out/bench_norm.txt" 2>&1
S='softmax:4096x4096:bf16;softmax:4096x4096:f16;softmax:8192x1024:bf16;softmax:8192x1024:f16;'
S+='softmax:512x50257:bf16;softmax:512x50257:f16;softmax:1024x65536:bf16;softmax:128x152064:bf16;'
S+='softmax:4096x16384:bf16;softmax:4096x4096;softmax:4096x16384;softmax:1823x781'
timeout 90 /tmp/b/bench/oclfuse bench --op softmax --sizes "$S" >"$out/softmax.txt" 2>&1
grep -E "oclfuse " "$out/softmax.txt"
timeout 90 python3 $lab/softmax_peers.py 4096x4096:bf16 4096x4096:f16 8192x1024:bf16 \
  8192x1024:f16 512x50257:bf16 512x50257:f16 1024x65536:bf16 128x152064:bf16 4096x16384:bf16 \
  4096x4096:f32 4096x16384:f32 1823x781:f32 2>/dev/null | tee "$out/softmax_peers.txt"
printf '%s\n' "tf32 1 4096 4096 4096" "tf32 1 8192 8192 8192" "tf32 0 4096 4096 4096" \
  "bf16 0 8192 8192 8192" "3x 0 4096 4096 4096" >/tmp/gemm_shapes.txt
while read -r dt tb m n k; do timeout 60 /tmp/gemm_time $dt $tb $m $n $k; done \
  </tmp/gemm_shapes.txt | tee "$out/gemm.txt"
timeout 60 python3 $lab/gemm_peers.py /tmp/gemm_shapes.txt | tee "$out/gemm_peers.txt"
timeout 120 /tmp/b/bench/oclfuse bench --op attention \
  --sizes 'attention:1x32x1024x1024x128;attention:1x32x1x8192x128;attention:4x8x1x4096x128' \
  >"$out/attention.txt" 2>&1
grep -E "^attention" "$out/attention.txt"
timeout 60 python3 $lab/attention_peers.py 1x32x1024x1024x128:f32 1x32x1024x1024x128:bf16 \
  1x32x1x8192x128:f32 1x32x1x8192x128:bf16 4x32x4096x4096x128:bf16 2>/dev/null |
  tee "$out/attention_peers.txt"
echo "done at $((SECONDS - start)) s"
