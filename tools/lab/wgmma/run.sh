#!/bin/bash
# run.sh: the wgmma lab on the GPU machine, from the repo root:
#   source .gpu/env.sh && tools/lab/wgmma/run.sh "$OUT" [BUDGET_S] [VARIANT_SUBSTRING]
# Builds wgmma_lab (cc), runs it (every variant: all builds at once in child processes, then one
# run child per variant, each checked on random data and timed), then cuBLAS via peers.py.
# $OUT gets four files (the device returns few): rows.txt (every result row), peers.txt (cuBLAS),
# gpu.txt (nvidia-smi at the start) and logs.tgz (each variant's PTX for sm_90 and sm_90a and
# its build logs). About 110 s for the whole list; WG_RAGGED=1 for the big ragged shapes.
set -u
out=${1:?usage: tools/lab/wgmma/run.sh OUT [BUDGET_S] [VARIANT]}
budget=${2:-200}
work=/tmp/wg_run
start=$SECONDS
rm -rf "$work" && mkdir -p "$out" "$work" /tmp/wg_nvcache
export CUDA_CACHE_PATH=/tmp/wg_nvcache CUDA_CACHE_MAXSIZE=2147483648
unset CUDA_CACHE_DISABLE
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv >"$out/gpu.txt" 2>&1
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra \
  tools/lab/wgmma/wgmma_lab.c -lOpenCL -lm -ldl -o /tmp/wgmma_lab || exit 1
timeout -k 5 $((budget + 30)) /tmp/wgmma_lab "$work" "$budget" ${3:-}
echo "wgmma_lab exit $? at $((SECONDS - start)) s"
cp "$work/rows.txt" "$out/" 2>/dev/null
tar czf "$out/logs.tgz" -C "$work" .
PYTHONUNBUFFERED=1 timeout -k 5 60 python3 tools/lab/wgmma/peers.py 2>&1 | tee "$out/peers.txt"
echo "run.sh: $((SECONDS - start)) s"
