#!/bin/bash
# attention_mma's first GPU round (issue 21, cl/attention_mma_nv.cl): in one device call of about
# 8 minutes on the H200,
#   1. builds (Release, /tmp/b_attnmma) and tools/lab/h200/library_attention_time.c;
#   2. the attention suite on the GPU (ctest test_attention: its test_attention_mma forces the
#      kernel with mma.on=2, which on NVIDIA is the inline PTX, never the emulation), and the
#      matmul mma.sync suite whose probe the attention plan waits for;
#   3. times bf16 (and f16) prefill 1x32x1024^2x128 and 4x32x4096^2x128 (causal and not) on
#      attention_mma (mma.on=1; warps 4 and 8) beside the default plan (attention_block), and the
#      decode-like 16x32x1x4096x128 and 1x32x1x8192x128 (attention_decode by default, and with
#      decode.prefetch=1; attention_mma with decode.wg=0),
#      each with its plan and a check of sampled rows against a double reference;
#   4. FA2 and cuDNN (and efficient) through torch SDPA on the same shapes (attention_peers.py);
#   5. the PTX of every program built (OCLFUSE_CACHE=always keeps it under the tuning folder)
#      in $OUT/ptx.tgz, for ptxas -v / nvdisasm on the host (registers, spills).
#   source .gpu/env.sh && OUT=$OUT/attnmma bash tools/lab/h200/round_attention_mma.sh
# SUITES (a ctest -R regex; empty: none) replaces step 2's suites: next_session.sh leaves out
# test_matmul_mma after its `nvidia` step, both after its `unit` step, which ran them. What to read: round.txt (everything), ctest.txt. If test_attention_mma fails on the GPU, the
# PTX path differs from the emulation (the fragments' layout): mma.on must stay 0.
set -u
out=${OUT:-/tmp/attnmma}
mkdir -p "$out"
log=$out/round.txt
b=/tmp/b_attnmma
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/attnmma_build.txt 2>&1 &&
    cmake --build $b -j16 >>/tmp/attnmma_build.txt 2>&1 || { tail -40 /tmp/attnmma_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/attnmma_time || exit 1
  echo "built at $((SECONDS - start)) s"
  suites=${SUITES-'^(test_attention|test_matmul_mma)$'}
  if [ -n "$suites" ]; then
    (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout 240 ctest -R "$suites" \
      --output-on-failure >"$out/ctest.txt" 2>&1; echo "ctest rc $?")
    grep -E "tests passed|Failed|FAILED|Timeout|Passed|\*\*\*|attention_mma" "$out/ctest.txt" | head -30
    echo "ctest done at $((SECONDS - start)) s"
  fi
  t0=$SECONDS
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_attnmma
  rm -rf /tmp/occ_attnmma
  # dtype b h h_kv lq lk d [causal] ["tune=..."]
  while read -r line; do
    [ -z "$line" ] && continue
    [ $((SECONDS - t0)) -gt 150 ] && { echo "out of time before: $line"; continue; }
    eval "set -- $line"
    timeout 30 /tmp/attnmma_time "$@" 2>&1 || echo "rc $? for $line"
  done <<'SHAPES'
bf16 1 32 32 1024 1024 128
bf16 1 32 32 1024 1024 128 "tune=mma.on=1"
bf16 1 32 32 1024 1024 128 "tune=mma.on=1 mma.warps=8"
bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 "tune=mma.on=1"
bf16 4 32 32 4096 4096 128 "tune=mma.on=1 mma.warps=8"
bf16 4 32 32 4096 4096 128 causal
bf16 4 32 32 4096 4096 128 causal "tune=mma.on=1"
bf16 4 32 32 4096 4096 128 causal "tune=mma.on=1 mma.warps=8"
f16 4 32 32 4096 4096 128 "tune=mma.on=1"
bf16 8 16 16 1024 1024 64 causal "tune=mma.on=1"
bf16 16 32 32 1 4096 128
bf16 16 32 32 1 4096 128 "tune=decode.prefetch=1"
bf16 16 32 32 1 4096 128 "tune=decode.prefetch=1 decode.wg=256"
bf16 1 32 32 1 8192 128
bf16 1 32 32 1 8192 128 "tune=decode.prefetch=1"
bf16 1 32 32 1 8192 128 "tune=decode.prefetch=1 decode.fill=8"
bf16 16 32 32 1 4096 128 "tune=mma.on=1 decode.wg=0"
bf16 1 32 32 1 8192 128 "tune=mma.on=1 decode.wg=0 mma.split_fill=4"
bf16 1 32 32 1 8192 128 "tune=mma.on=1 decode.wg=0 mma.split_fill=8"
bf16 1 32 8 1 8192 128 "tune=mma.on=1 decode.wg=0 mma.split_fill=4"
SHAPES
  echo "timed in $((SECONDS - t0)) s"
  timeout 120 python3 tools/lab/h200/attention_peers.py 1x32x1024x1024x128:bf16 \
    4x32x4096x4096x128:bf16 4x32x4096x4096x128:bf16:causal 4x32x4096x4096x128:f16 \
    8x16x1024x1024x64:bf16:causal 16x32x1x4096x128:bf16 1x32x1x8192x128:bf16 2>&1
  echo "peers done at $((SECONDS - start)) s"
  (cd /tmp/occ_attnmma && find . -name '*.bin' | head -60 | tar czf "$out/ptx.tgz" -T -) 2>/dev/null
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
cat "$log"
