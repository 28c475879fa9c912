#!/bin/bash
# attention_mma's shapes beyond the default (issue 21: FlashAttention-2's tiles on the H200), in
# one device call of about 7 to 9 minutes (SUITES= skips step 2 where the unit suite ran):
#   1. builds (Release, /tmp/b_attn32) and tools/lab/h200/library_attention_time.c;
#   2. test_attention on the GPU (SUITES, a ctest -R regex; empty: none): its
#      test_attention_mma_shapes forces mma.rows=32, mma.q_local, mma.stages=3, mma.bk=64 with
#      mma.local=1 through the inline PTX (mma.on=2 is the PTX on NVIDIA), each case checked
#      against the reference; a failure there means the PTX path of that shape is wrong;
#   3. times each configuration below on the prefill shapes of issue 21, today's default
#      (mma.on=1) first, each with its plan (bk, stages, rows, the probe's local memory) and a
#      check of sampled rows ("ok");
#   4. FA2 and cuDNN through torch SDPA on the same shapes (attention_peers.py);
#   5. the PTX of every program built in $OUT/ptx.tgz (ptxas -v: registers and spills as
#      NVIDIA's compiler made them; tools/lab/h200/attention_mma_offline.sh has clang's).
#   source .gpu/env.sh && OUT=$OUT/attn32 bash tools/lab/h200/round_attention_mma32.sh
# The configurations (tune= strings, each on top of the H200's built-in row):
#   base      mma.on=1                                          today: 16 rows a warp, bk 32 at d 128
#   bk64      + mma.local=1                                     bk 64 (64 KiB, the probe asked for it)
#   bk64r     + mma.local=1 mma.remat=1                         the same, addresses per tile
#   s3        + mma.local=1 mma.remat=1 mma.stages=3            bk 64 in three stages (96 KiB)
#   r32q      + mma.local=1 mma.remat=1 mma.rows=32 mma.q_local=1   FA2's 128 x 64 (96 KiB)
#   r32q32    + the same with mma.bk=32                          fewer registers (64 KiB)
#   r32qs3    + r32q with mma.stages=3                           (128 KiB, the most the probe shows)
#   r32       + mma.local=1 mma.remat=1 mma.rows=32             Q in registers (spills offline)
# What decides: TFLOP/s against base and FA2 in the same call, on every shape; a configuration
# whose "ok" fails, or whose ctest case fails, is out whatever its speed.
set -u
out=${OUT:-/tmp/attn32}
mkdir -p "$out"
log=$out/round.txt
b=/tmp/b_attn32
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/attn32_build.txt 2>&1 &&
    cmake --build $b -j16 >>/tmp/attn32_build.txt 2>&1 || { tail -40 /tmp/attn32_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/attn32_time || exit 1
  echo "built at $((SECONDS - start)) s"
  suites=${SUITES-'^test_attention$'}
  if [ -n "$suites" ]; then
    (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout 120 ctest -R "$suites" \
      --output-on-failure >"$out/ctest.txt" 2>&1; echo "ctest rc $?")
    grep -E "tests passed|Failed|FAILED|Timeout|Passed|\*\*\*|attention_mma" "$out/ctest.txt" | head -30
    echo "ctest done at $((SECONDS - start)) s"
  fi
  t0=$SECONDS
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_attn32
  rm -rf /tmp/occ_attn32
  configs=(
    "base=mma.on=1"
    "bk64=mma.on=1 mma.local=1"
    "bk64r=mma.on=1 mma.local=1 mma.remat=1"
    "s3=mma.on=1 mma.local=1 mma.remat=1 mma.stages=3"
    "r32q=mma.on=1 mma.local=1 mma.remat=1 mma.rows=32 mma.q_local=1"
    "r32q32=mma.on=1 mma.local=1 mma.remat=1 mma.rows=32 mma.q_local=1 mma.bk=32"
    "r32qs3=mma.on=1 mma.local=1 mma.remat=1 mma.rows=32 mma.q_local=1 mma.stages=3"
    "r32=mma.on=1 mma.local=1 mma.remat=1 mma.rows=32"
  )
  # dtype b h h_kv lq lk d [causal]: the largest first (the budget may end the list)
  while read -r shape; do
    [ -z "$shape" ] && continue
    for c in "${configs[@]}"; do
      [ $((SECONDS - t0)) -gt 270 ] && { echo "out of time before: $shape ${c%%=*}"; continue; }
      eval "set -- $shape"
      printf '%-7s ' "${c%%=*}"
      timeout 30 /tmp/attn32_time "$@" "tune=${c#*=}" 2>&1 || echo "rc $? for $shape ${c%%=*}"
    done
  done <<'SHAPES'
bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 causal
f16 4 32 32 4096 4096 128
bf16 1 32 32 1024 1024 128
bf16 8 16 16 1024 1024 64 causal
SHAPES
  echo "timed in $((SECONDS - t0)) s"
  timeout 100 python3 tools/lab/h200/attention_peers.py 4x32x4096x4096x128:bf16 \
    4x32x4096x4096x128:bf16:causal 4x32x4096x4096x128:f16 1x32x1024x1024x128:bf16 \
    8x16x1024x1024x64:bf16:causal 2>&1
  echo "peers done at $((SECONDS - start)) s"
  (cd /tmp/occ_attn32 && find . -name '*.bin' | head -80 | tar czf "$out/ptx.tgz" -T -) 2>/dev/null
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
cat "$log"
