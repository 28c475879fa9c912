#!/bin/bash
# stage3x's GPU round (issue 18: 3XTF32 and TF32 with B k x n on wgmma through staged operands):
# builds (Release, /tmp/b_stage3x), times ocf_matmul_ex through tools/lab/h200/library_gemm_time.c
# for 3XTF32 and TF32 (B k x n and n x k) on the issue's shapes, each with its plan, then the
# nvidia-labelled matmul tests (the staged path's error test among them) in what time is left.
#   source .gpu/env.sh && OUT=$OUT/stage3x bash tools/lab/h200/round_stage3x.sh
set -u
out=${OUT:-/tmp/stage3x}
mkdir -p "$out"
log=$out/round.txt
b=/tmp/b_stage3x
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/s3x_build.txt 2>&1 &&
    cmake --build $b -j16 >>/tmp/s3x_build.txt 2>&1 || { tail -40 /tmp/s3x_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse -lOpenCL \
    -Wl,-rpath,$b -o /tmp/s3x_gemm_time || exit 1
  echo "built at $((SECONDS - start)) s"
  t0=$SECONDS
  git log --oneline -1 2>/dev/null
  # dtype transB m n k
  while read -r shape; do
    [ -z "$shape" ] && continue
    echo "== $shape"
    timeout 20 /tmp/s3x_gemm_time $shape 2>&1 || echo "rc $? for $shape"
  done <<'SHAPES'
3x 0 4096 4096 4096
3x 1 4096 4096 4096
tf32 0 4096 4096 4096
tf32 1 4096 4096 4096
3x 0 8192 8192 8192
tf32 0 8192 8192 8192
tf32 1 8192 8192 8192
3x 0 3000 3000 3000
tf32 0 3000 3000 3000
tf32 1 3000 3000 3000
3x 0 8191 1032 8200
tf32 0 8191 1032 8200
tf32 1 8191 1032 8200
tf32 0 1024 1024 1024
tf32 0 512 512 512
3x 0 1024 1024 1024
SHAPES
  echo "timed in $((SECONDS - t0)) s"
  left=$((145 - (SECONDS - t0)))
  if [ $left -gt 15 ]; then
    (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout $left ctest -L nvidia -R 'matmul|stage' -j4 \
      --output-on-failure >/tmp/s3x_ctest.txt 2>&1; echo "ctest rc $?")
    grep -E "tests passed|Failed|FAILED|Timeout|Not Run|\*\*\*|Passed|err|stage3x" \
      /tmp/s3x_ctest.txt | head -80
  fi
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
