#!/bin/bash
# run.sh: the lab's one run on the GPU machine, from the repo root:
#   source .gpu/env.sh && lab/mma/run.sh "$OUT"
# Builds mma_lab, runs it (soft budget 165 s, watchdog at 195 s, killed at 205 s), then cuBLAS
# through PyTorch on the same shapes (at most 40 s). Leaves in the output folder: mma_table.txt
# (the table), mma_lab.log (everything: device, build logs with ptxas register and spill counts,
# every result), ptx.tgz (the PTX NVIDIA's compiler made of each GEMM configuration),
# torch_ref.txt (cuBLAS rates and errors) and gpu.txt (nvidia-smi).
set -u
out=${1:?usage: lab/mma/run.sh OUTPUT_FOLDER}
work=/tmp/mma_run
rm -rf "$work" && mkdir -p "$work" "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv >"$out/gpu.txt" 2>&1
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L lab/mma/main.c lab/mma/cl_env.c lab/mma/numerics.c \
  lab/mma/report.c lab/mma/probes.c lab/mma/gemm.c lab/mma/ptx_model.c -lOpenCL -lpthread -lm \
  -o "$work/mma_lab" || exit 1
timeout -k 5 205 "$work/mma_lab" --root . --out "$work" --budget 165 --threads 16
status=$?
[ $status -ne 0 ] && echo "mma_lab exit status $status (3: watchdog, 124/137: killed)" &&
  tail -n 20 "$work/mma_lab.log"
cp "$work/mma_lab.log" "$work/mma_table.txt" "$out/" 2>/dev/null
tar czf "$out/ptx.tgz" -C "$work" ptx 2>/dev/null
PYTHONUNBUFFERED=1 timeout -k 5 40 python3 lab/mma/torch_ref.py >"$out/torch_ref.txt" 2>&1
echo "== cuBLAS through PyTorch (torch_ref.py exit $?) =="
cat "$out/torch_ref.txt"
exit $status
