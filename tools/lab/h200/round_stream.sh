#!/bin/bash
# The fp32 plans that join their K ranges in one launch (built 2026-12-05 with no GPU, off
# everywhere): stream-K for the tiled kernels (issue 22, item 4: mid sizes at 0.69-0.82 of
# cuBLAS; docs/GEMM.md, "Mid sizes: stream-K") and the skinny split without its reduce kernel
# (item 3: the matrix-vector product at 0.69; "The skinny split in one launch"). The hypothesis:
# where rule 4 splits K to fill the waves (1500^3, 2500^3, 1024 x 1024 x 2048, ...), one launch of
# matmul_tiled_stream with as many workgroups as run at once (set 0's 128 x 128 tiles: two a
# compute unit, tiled.stream=2) beats the split and its reduce: every workgroup does the same
# work, no partial C goes through memory but the few split tiles' parts, and there is no second
# launch. stream1 is the control (half the units' slots);
# the w99 configs let stream-K take every call whose tiles fill less than 99 % of their waves
# (3000^3's 87 % too); stream2r0 lifts the NVIDIA row's 128-register cap (clang 15 + ptxas put
# the stream kernel at 181 registers where the split takes 64, both with their sums on the stack:
# not NVIDIA's compiler, so the call reads the real counts from its program cache, below); skjoin
# (skinny.join=1) takes the skinny shapes (m or n of 16 or fewer)
# whose K is split, a launch and its gap fewer. round_waves.sh times every config on every shape
# (ragged_gemm_time.c checks C) with cuBLAS fp32 beside; then test_matmul_joins runs on the GPU
# (PTX fences, JOIN 2). About five minutes after the build.
#   source .gpu/env.sh && OUT=$OUT/stream bash tools/lab/h200/round_stream.sh
# B names a built tree (default /tmp/b, built when missing); CONFIGS and SHAPES as round_waves.sh.
set -u
out=${OUT:-/tmp/stream}
b=${B:-/tmp/b}
CONFIGS=${CONFIGS:-"shipped=;stream1=tiled.stream=1;stream2=tiled.stream=2;stream2r0=tiled.stream=2 max_regs=0;stream2w99=tiled.stream=2 tiled.wave_min=99 tiled.few_wave_min=99;stream2w99k64=tiled.stream=2 tiled.wave_min=99 tiled.few_wave_min=99 tiled.wave_k_min=64;skjoin=skinny.join=1"}
SHAPES=${SHAPES:-"768 768 768
1000 1000 1000
1024 1024 1024
1024 1024 2048
1280 1280 1280
1500 1500 1500
1536 1536 1536
1800 1800 1800
2000 2000 2000
2500 2500 2500
2800 2800 2800
3000 3000 3000
3001 3003 3005
4096 4096 4096
256 256 4096
768 2048 4096
128 4096 4096
64 11008 4096
1 4096 4096
1 11008 4096
1 4096 11008
16 4096 4096
4096 1 4096"}
B=$b OUT=$out CONFIGS=$CONFIGS SHAPES=$SHAPES bash tools/lab/h200/round_waves.sh
if ! cmake --build "$b" -j16 --target test_matmul_joins >>"$out/build.txt" 2>&1; then
  echo "test_matmul_joins: build failed" | tee -a "$out/times.txt"
elif ! timeout 120 "$b/tests/test_matmul_joins" >"$out/test_matmul_joins.txt" 2>&1; then
  echo "test_matmul_joins: failed (the GPU is the default device)" | tee -a "$out/times.txt"
fi
tail -3 "$out/test_matmul_joins.txt"
# Registers and spills of the tiled kernels NVIDIA's compiler wrote (round_waves.sh's program
# cache; ptxas is Triton's, so PTX 9.0 is read as 8.4, as round_tiled_ptxas.sh does).
ptxas=$(python3 -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin/ptxas'))")
for f in /tmp/occ_waves/programs/*.bin; do
  grep -aq 'OCF_KERNEL_matmul_tiled_\(stream\|split\|fast\)' "$f" || continue
  echo "== $(sed -n 2p "$f" | grep -o 'OCF_KERNEL_[a-z_]*\|JOIN=[0-9]\|MWI=[0-9]*\|NWI=[0-9]*' | tr '\n' ' ')"
  tail -n +3 "$f" | tr -d "\000" | sed "s/^.version 9.0/.version 8.4/" >/tmp/stream_ptxas.ptx
  "$ptxas" -arch=sm_90 -v /tmp/stream_ptxas.ptx -o /tmp/stream_ptxas.cubin 2>&1 |
    grep -E "Compiling|registers|spill"
done >"$out/registers.txt" 2>&1
