#!/bin/bash
# round_join.sh (H200 or H100, issue 18; prepared 2026-12-05, thirty-first session): the split-K
# plan that joins its ranges in the same launch (wgmma.split_join=1, matmul_wgmma_split_join;
# built without a GPU) beside the two-kernel split and the TMA-fed split. On the H100 the split
# step of 128 x 8192 x 8192 took 0.064 ms of the call's 0.078 (cuBLAS: 0.059 in all), so the
# reduce and the gap before it are a sixth of the call. In one call: the library built,
# library_gemm_time on few-row shapes with and without the join and on staged and copied plans
# with and without their TMA-fed step (wgmma.tma_copies=1, also built without a GPU),
# test_wgmma_split_k alone (every type, layout and epilogue in the three forms), test_staged_tma
# alone (the staged and copied plans on the TMA-fed step), the square shapes of the issue, each
# mode's error beside cuBLAS's (gemm_errors.c, .py), then the bench of the shapes with
# bench/peers.py (cuBLAS) in the same call.
#   source .gpu/env.sh && OUT=$OUT bash tools/lab/h200/round_join.sh      (carry .gpu)
# (each shape is words for library_gemm_time's arguments: unquoted on purpose)
# shellcheck disable=SC2086
set -u
out=${OUT:?OUT}
b=/tmp/join_build
{ cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
  cmake --build $b -j16 --target oclfuse oclfuse_tool test_matmul_wgmma test_matmul_staged \
    >/dev/null 2>&1 &&
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o $b/lgt; } || { echo "build failed" >"$out/join.txt"; exit 0; }
nvidia-smi --query-gpu=name --format=csv,noheader >"$out/join.txt" 2>&1
{
  echo "== few rows: split + reduce, then split_join=1"
  for shape in "1 128 8192 8192" "0 128 8192 8192" "1 64 8192 8192" "1 256 4096 4096" \
    "1 128 4096 14336" "1 32 8192 8192"; do
    $b/lgt bf16 $shape | cut -c1-110
    $b/lgt bf16 $shape "wgmma.split_join=1" | cut -c1-110
  done
} >>"$out/join.txt" 2>&1
{
  echo "== staged and copied plans: cp.async step, then wgmma.tma_copies=1"
  for shape in "bf16 0 3000 3000 3000" "bf16 0 4095 4104 4000" "tf32 0 4096 4096 4096" \
    "3x 1 4096 4096 4096" "3x 1 8192 8192 8192"; do
    $b/lgt $shape | cut -c1-110
    $b/lgt $shape "wgmma.tma_copies=1" | cut -c1-110
  done
} >>"$out/join.txt" 2>&1
(cd $b && OCFT_ONLY=test_wgmma_split_k timeout 240 tests/test_matmul_wgmma >"$out/split_test.txt" 2>&1
  echo "exit $?" >>"$out/split_test.txt")
(cd $b && OCFT_ONLY=test_staged_tma timeout 240 tests/test_matmul_staged >"$out/staged_test.txt" 2>&1
  echo "exit $?" >>"$out/staged_test.txt")
{
  echo "== square, the shipped plans"
  for shape in "bf16 0 4096 4096 4096" "f16 0 4096 4096 4096" "bf16 0 8192 8192 8192" \
    "tf32 1 4096 4096 4096"; do
    $b/lgt $shape | cut -c1-110
  done
} >>"$out/join.txt" 2>&1
# each mode's error against fp64, the library's beside cuBLAS's on the same inputs (issue 18's
# table of modes and errors)
cc -std=c11 -O2 -Iinclude tools/lab/h200/gemm_errors.c -L$b -loclfuse -lOpenCL \
  -Wl,-rpath,$b -o $b/gemm_errors && mkdir -p /tmp/gemm_errors &&
  $b/gemm_errors /tmp/gemm_errors 4096 4096 4096 >"$out/errors_plans.txt" 2>&1 &&
  python3 tools/lab/h200/gemm_errors.py /tmp/gemm_errors 4096 4096 4096 >"$out/errors.md" 2>&1
# the issue's GEMM shapes against cuBLAS in the same call (the H200's first figures with the
# staged 16-bit C epilogue)
$b/bench/oclfuse bench --quiet --format json --sizes "matmul:4096x4096x4096:bf16;\
matmul:4096x4096x4096:f16;matmul:8192x8192x8192:bf16;matmul:8192x8192x8192:f16;\
matmul:3000x3000x3000:bf16;matmul:4097x4095x1023:bf16;matmul:128x8192x8192:bf16" \
  >"$out/bench.json" 2>"$out/bench.err" &&
  timeout 150 python3 bench/peers.py --bench "$out/bench.json" --budget 120 --out "$out/peers.tsv" \
    >"$out/peers.txt" 2>&1

