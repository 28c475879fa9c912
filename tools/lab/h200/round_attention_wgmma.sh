#!/bin/bash
# attention_wgmma (issue 21: Hopper's warpgroup units for Q K^T and P V) against today's
# attention_mma plans, in one device call of about 5 minutes:
#   1. builds (Release, /tmp/b_awg) and tools/lab/h200/library_attention_time.c;
#   2. the suites SUITES (a ctest -R regex; default test_attention, whose test_attention_wgmma
#      forces wgmma.on=1 on every case there and checks it against the double reference, and
#      test_matmul_few) on the GPU;
#   3. times each configuration on issue 21's prefill shapes and more (the plan and a check of
#      sampled rows printed with each: "ok" under 1);
#   4. FA2 and cuDNN through torch SDPA on the same shapes (attention_peers.py; PEERS=0 skips).
#   source .gpu/env.sh && OUT=$OUT/awg bash tools/lab/h200/round_attention_wgmma.sh
# What decides: TFLOP/s of wg128 / wg64 against mma (the shipped plan) and FA2 on every shape;
# a configuration whose "ok" fails, or a failing test_attention_wgmma, is out whatever its speed.
set -u
out=${OUT:-/tmp/awg}
mkdir -p "$out"
b=/tmp/b_awg
start=$SECONDS
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/awg_build.txt 2>&1 &&
  cmake --build $b -j16 >>/tmp/awg_build.txt 2>&1 || { tail -40 /tmp/awg_build.txt; exit 1; }
cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL -lm \
  -Wl,-rpath,$b -o /tmp/awg_time || exit 1
echo "built at $((SECONDS - start)) s"
suites=${SUITES-'^test_attention$|^test_matmul_few$'}
if [ -n "$suites" ]; then
  (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout ${SUITE_S:-150} ctest -R "$suites" -j2 \
    --output-on-failure >"$out/ctest.txt" 2>&1; echo "ctest rc $?")
  grep -E "tests passed|Failed|FAILED|ERROR|error|Timeout|Passed|\*\*\*" "$out/ctest.txt" | head -30
  echo "ctest done at $((SECONDS - start)) s"
fi
t0=$SECONDS
export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_awg
rm -rf /tmp/occ_awg
IFS=';' read -r -a configs <<<"${CONFIGS:-mma=wgmma.on=0;wg128=wgmma.on=1 wgmma.bk=128;wg64=wgmma.on=1 wgmma.bk=64}"
budget=${BUDGET:-200}
while read -r shape; do
  [ -z "$shape" ] && continue
  for c in "${configs[@]}"; do
    [ $((SECONDS - t0)) -gt "$budget" ] && { echo "out of time before: $shape ${c%%=*}"; continue; }
    eval "set -- $shape"
    printf '%-6s ' "${c%%=*}"
    timeout 40 /tmp/awg_time "$@" "tune=${c#*=}" 2>&1 || echo "rc $? for $shape ${c%%=*}"
  done
done <<<"${SHAPES:-bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 causal
f16 4 32 32 4096 4096 128
bf16 1 32 32 1024 1024 128
bf16 8 16 16 1024 1024 64 causal
bf16 4 32 32 4096 4096 64
bf16 2 16 4 2000 3000 128}"
echo "timed in $((SECONDS - t0)) s"
[ "${PEERS:-1}" = 1 ] && timeout 100 python3 tools/lab/h200/attention_peers.py 4x32x4096x4096x128:bf16 \
  4x32x4096x4096x128:bf16:causal 4x32x4096x4096x128:f16 1x32x1024x1024x128:bf16 \
  8x16x1024x1024x64:bf16:causal 4x32x4096x4096x64:bf16 2>&1
echo "peers done at $((SECONDS - start)) s"
