#!/bin/bash
# Why the fp32 tiled kernels lose a wave's worth on a rim (issue 22; docs/GEMM.md, "Ragged shapes
# in few waves"): 2000 x 2048 x 2048 runs matmul_tiled_mixed at 32.5 TFLOP/s and, copied,
# matmul_tiled_pad at 38.2, where 2048^3 runs matmul_tiled_fast at 45.1 with the same 256 tiles.
# Times those plans (ragged_gemm_time.c, the disk cache on), then assembles each program's PTX
# with ptxas -v for sm_90 (Triton's copy on the GPU machine) and prints its registers and spills
# per kernel. About a minute after the build.
#   source .gpu/env.sh && OUT=$OUT/ptxas bash tools/lab/h200/round_tiled_ptxas.sh
# B names a built tree (default /tmp/b, built here when missing).
set -u
out=${OUT:-/tmp/tiled_ptxas}
mkdir -p "$out"
b=${B:-/tmp/b}
. tools/lab/h200/ragged_time_build.sh
ragged_time_build /tmp/rg_ptxas
cache=/tmp/occ_tiled_ptxas
rm -rf "$cache"
run() { OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=$cache timeout 30 /tmp/rg_ptxas "$@" | cut -c1-160; }
{
  run fast 0 0 2048 2048 2048 0 0 0 0
  run mixed 0 0 2000 2048 2048 0 0 0 0 "tiled.pad_waves=0"
  run mixed_rim0 0 0 2000 2048 2048 0 0 0 0 "tiled.pad_waves=0 tiled.rim=0"
  run pad 0 0 2000 2048 2048 0 0 0 0 "tiled.pad_waves=2"
  run pad_rim0 0 0 2000 2048 2048 0 0 0 0 "tiled.pad_waves=2 tiled.rim=0"
} | tee "$out/times.txt"
ptxas=$(python3 -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin/ptxas'))")
for f in "$cache"/programs/*.bin; do
  echo "== $(sed -n 2p "$f" | grep -o 'OCF_KERNEL_[a-z_]*\|RIM=[0-9]\|A_PAD=[0-9]\|B_PAD=[0-9]\|MWI=[0-9]*' | tr '\n' ' ')"
  tail -n +3 "$f" | tr -d "\000" | sed "s/^.version 9.0/.version 8.4/" >/tmp/tiled_ptxas.ptx
  "$ptxas" -arch=sm_90 -v /tmp/tiled_ptxas.ptx -o /tmp/tiled_ptxas.cubin 2>&1 |
    grep -E "Compiling|registers|spill"
done | tee "$out/ptxas.txt"
