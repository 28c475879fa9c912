#!/bin/bash
# stage3x's GPU round (issue 18: 3XTF32 and TF32 with B k x n on wgmma through staged operands),
# at most a minute of GPU work after the build: builds (Release, /tmp/b_stage3x); the error of
# FP32, TF32 and 3XTF32 against fp64 on the same inputs (tools/lab/h200/stage3x_error.c, with the
# plans); then library_gemm_time for 3XTF32 and TF32 with B k x n on the issue's shapes (4096^3,
# 8192^3, 3000^3, 8191 x 1032 x 8200), each with its plan, and the small shapes both staged and
# with the wgmma kernel off (wg=0: mma.sync), which decides the planner's size gate. The
# nvidia suites (test_matmul_staged among them) run in the lead's own ctest.
#   source .gpu/env.sh && OUT=$OUT/stage3x bash tools/lab/h200/round_stage3x.sh
set -u
out=${OUT:-/tmp/stage3x}
mkdir -p "$out"
log=$out/round.txt
b=/tmp/b_stage3x
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/s3x_build.txt 2>&1 &&
    cmake --build $b -j16 --target oclfuse >>/tmp/s3x_build.txt 2>&1 ||
    { tail -40 /tmp/s3x_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse -lOpenCL \
    -Wl,-rpath,$b -o /tmp/s3x_gemm_time || exit 1
  cc -std=c11 -O2 -Iinclude tools/lab/h200/stage3x_error.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/s3x_error || exit 1
  echo "built at $((SECONDS - start)) s"
  t0=$SECONDS
  # m n k ta tb [batch]: FP32, TF32, 3XTF32 on the same inputs
  while read -r shape; do
    [ -z "$shape" ] && continue
    timeout 20 /tmp/s3x_error $shape 2>&1 || echo "rc $? for error $shape"
  done <<'SHAPES'
2048 2048 2048 0 0
1000 1030 1001 1 0 2
SHAPES
  echo "errors in $((SECONDS - t0)) s"
  # dtype transB m n k [tuning]
  while read -r shape; do
    [ -z "$shape" ] && continue
    [ $((SECONDS - t0)) -gt 55 ] && { echo "out of time before $shape"; break; }
    timeout 8 /tmp/s3x_gemm_time $shape 2>&1 || echo "rc $? for $shape"
  done <<'SHAPES'
3x 0 4096 4096 4096
3x 1 4096 4096 4096
tf32 0 4096 4096 4096
3x 0 8192 8192 8192
tf32 0 8192 8192 8192
3x 0 3000 3000 3000
tf32 0 3000 3000 3000
3x 0 8191 1032 8200
tf32 0 8191 1032 8200
tf32 0 512 512 512
tf32 0 512 512 512 wg=0
tf32 0 1024 1024 1024
tf32 0 1024 1024 1024 wg=0
tf32 0 2048 2048 2048
tf32 0 2048 2048 2048 wg=0
3x 0 512 512 512
3x 0 512 512 512 wg=0
3x 0 1024 1024 1024
3x 0 1024 1024 1024 wg=0
SHAPES
  echo "done at $((SECONDS - start)) s ($((SECONDS - t0)) s after the build)"
} >"$log" 2>&1
