#!/bin/bash
# run.sh: the lab's one run on the GPU machine, from the repo root:
#   source .gpu/env.sh && tools/lab/mma/run.sh "$OUT"
# Builds mma_lab and runs it: budget 150 s (no child process starts after that; each child is
# killed at its own time limit; `timeout` ends the lab at 185 s). Then, if at least 25 s of a
# 205 s allowance are left, cuBLAS through PyTorch on the same shapes (at most 40 s). The
# summary is printed last. Leaves in the output folder (6 files): mma_summary.txt, mma_table.txt
# (every row), mma_lab.log (everything: device, every build log with ptxas's registers, spills
# and stack, every result), ptx.tgz (bin/: the PTX NVIDIA's compiler made of every program and
# the builder's facts of each), torch_ref.txt and gpu.txt (nvidia-smi at the start).
set -u
out=${1:?usage: tools/lab/mma/run.sh OUTPUT_FOLDER}
work=/tmp/mma_run
start=$SECONDS
rm -rf "$work" && mkdir -p "$work/nvcache" "$out"
# the driver's compile cache (PTX to machine code), so that a child loading the builder's PTX
# need not compile it again; a fresh folder that is surely writable
export CUDA_CACHE_PATH=$work/nvcache CUDA_CACHE_MAXSIZE=2147483648
unset CUDA_CACHE_DISABLE
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv >"$out/gpu.txt" 2>&1
lab=tools/lab/mma
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L $lab/main.c $lab/driver.c $lab/child.c $lab/cl_env.c \
  $lab/numerics.c $lab/report.c $lab/probes.c $lab/gemm.c $lab/ptx_model.c -lOpenCL -lpthread -lm \
  -o "$work/mma_lab" || exit 1
timeout -k 5 185 "$work/mma_lab" --root . --out "$work" --budget 150 --threads 16 --no-summary
status=$?
[ $status -ne 0 ] && echo "mma_lab exit status $status (124/137: stopped at 185 s)"
cp "$work/mma_lab.log" "$work/mma_table.txt" "$work/mma_summary.txt" "$out/" 2>/dev/null
tar czf "$out/ptx.tgz" -C "$work" bin 2>/dev/null
left=$((205 - (SECONDS - start)))
if [ $left -ge 25 ]; then
  limit=$((left - 3 < 40 ? left - 3 : 40))
  PYTHONUNBUFFERED=1 timeout -k 5 $limit python3 $lab/torch_ref.py >"$out/torch_ref.txt" 2>&1
  echo "== cuBLAS through PyTorch (torch_ref.py exit $?, limit $limit s) =="
  cat "$out/torch_ref.txt"
else
  echo "== cuBLAS through PyTorch skipped: $left s left of the allowance ==" |
    tee "$out/torch_ref.txt"
fi
if [ -f "$work/mma_summary.txt" ]; then
  cat "$work/mma_summary.txt"
else
  echo "no summary (the lab did not finish); the end of its log:"
  tail -n 40 "$work/mma_lab.log"
fi
echo "run.sh: $((SECONDS - start)) s"
exit $status
