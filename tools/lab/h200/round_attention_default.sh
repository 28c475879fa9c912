#!/bin/bash
# attention as shipped on the H200 (the tuning database's prefill entry: FlashAttention-2's
# tiles) on issue 21's shapes, prefill and decode, with FA2 and cuDNN beside; and, on head dim 64
# and the few-head shape, the tiles that may serve them better (tune= over the shipped values).
#   source .gpu/env.sh && OUT=$OUT/attn bash tools/lab/h200/round_attention_default.sh
# About 2 minutes after the build (Release, /tmp/b_attn32, shared with round_attention_mma32.sh).
set -u
out=${OUT:-/tmp/attn_default}
mkdir -p "$out"
b=/tmp/b_attn32
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/attnd_build.txt 2>&1 &&
    cmake --build $b -j16 >>/tmp/attnd_build.txt 2>&1 || { tail -40 /tmp/attnd_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/attnd_time || exit 1
  echo "built at $((SECONDS - start)) s"
  export OCLFUSE_TUNING_DIR=/tmp/occ_attnd
  rm -rf /tmp/occ_attnd
  # dtype b h h_kv lq lk d [causal] ["tune=..."], a case a line; CASES (the same lines) and PEERS
  # (attention_peers.py's arguments) replace the lists.
  cases=$(cat <<'SHAPES'
bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 causal
f16 4 32 32 4096 4096 128
bf16 1 32 32 1024 1024 128
bf16 8 16 16 1024 1024 64 causal
bf16 8 16 16 1024 1024 64 causal "tune=mma.rows=16 mma.q_local=0 mma.stages=3"
bf16 8 16 16 1024 1024 64 causal "tune=mma.rows=32 mma.q_local=1 mma.bk=64 mma.warps=4"
bf16 8 16 16 1024 1024 64 causal "tune=mma.rows=32 mma.q_local=0"
bf16 4 32 32 4096 4096 64
bf16 4 32 32 4096 4096 64 "tune=mma.rows=16 mma.q_local=0 mma.stages=3"
bf16 1 32 32 1024 1024 128 "tune=mma.split_fill=2"
bf16 2 32 8 2048 2048 128 causal
bf16 1 32 32 1 8192 128
bf16 16 32 32 1 4096 128
bf16 1 32 32 300 300 64 causal
SHAPES
  )
  while read -r line; do
    [ -z "$line" ] && continue
    eval "set -- $line"
    timeout 30 /tmp/attnd_time "$@" 2>&1 | cut -c1-220 || echo "rc $? for $line"
  done <<<"${CASES:-$cases}"
  echo "timed at $((SECONDS - start)) s"
  peers="4x32x4096x4096x128:bf16 4x32x4096x4096x128:bf16:causal 4x32x4096x4096x128:f16"
  peers+=" 1x32x1024x1024x128:bf16 8x16x1024x1024x64:bf16:causal 4x32x4096x4096x64:bf16"
  peers+=" 1x32x1x8192x128:bf16 16x32x1x4096x128:bf16 1x32x300x300x64:bf16:causal"
  # shellcheck disable=SC2086
  timeout 100 python3 tools/lab/h200/attention_peers.py ${PEERS-$peers} 2>&1
  echo "done at $((SECONDS - start)) s"
} >"$out/round.txt" 2>&1
cat "$out/round.txt"
