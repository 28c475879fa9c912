#!/bin/bash
# attention_wgmma_tma in a workgroup a block against a workgroup a compute unit
# (wgmma.tma_persist), and the form at heads of 64, on the tree built in /tmp/b (after
# next_session.sh), no peers:   source .gpu/env.sh && bash tools/lab/h200/tma_persist_round.sh
set -u
b=${B:-/tmp/b}
cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L"$b" -loclfuse -lOpenCL -lm \
  -Wl,-rpath,"$b" -o /tmp/tp_time || exit 1
export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_tp
t0=$SECONDS
while read -r shape; do
  for c in "db=wgmma.on=1" "persist=wgmma.tma=1 wgmma.tma_persist=1" "cpasync=wgmma.tma=0"; do
    [ $((SECONDS - t0)) -gt "${BUDGET:-120}" ] && { echo "out of time: $shape ${c%%=*}"; continue; }
    # shellcheck disable=SC2086
    set -- $shape
    printf '%-8s ' "${c%%=*}"
    timeout 40 /tmp/tp_time "$@" "tune=${c#*=}" 2>&1 | cut -c1-150 || echo "rc $? for $shape"
  done
done <<<"${SHAPES:-bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 causal
bf16 1 32 32 1024 1024 128
bf16 8 16 16 1024 1024 64 causal
bf16 2 16 4 2000 3000 128}"
