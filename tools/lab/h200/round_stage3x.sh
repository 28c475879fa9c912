#!/bin/bash
# stage3x's GPU round (issue 18: 3XTF32 and TF32 with B k x n on wgmma through staged operands):
# builds (Release, /tmp/b_stage3x), times ocf_matmul_ex through tools/lab/h200/library_gemm_time.c
# for 3XTF32 and TF32 (B k x n and n x k) on the issue's shapes, each with its plan; the error of
# FP32, TF32 and 3XTF32 against fp64 on the same inputs (tools/lab/h200/stage3x_error.c, every
# transpose, ragged, a batch); then the nvidia-labelled matmul tests in what time is left. The
# programs' PTX (OCLFUSE_CACHE=always, from stage3x_error's contexts) in ptx.tgz.
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
  cc -std=c11 -O2 -Iinclude tools/lab/h200/stage3x_error.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/s3x_error || exit 1
  echo "built at $((SECONDS - start)) s"
  t0=$SECONDS
  git log --oneline -1 2>/dev/null
  rm -rf /tmp/occ_stage3x
  # m n k ta tb [batch]
  while read -r shape; do
    [ -z "$shape" ] && continue
    OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_stage3x timeout 30 /tmp/s3x_error $shape 2>&1 ||
      echo "rc $? for error $shape"
  done <<'SHAPES'
1024 1024 1024 0 0
1024 1024 1024 0 1
1024 1024 1024 1 0
1024 1024 1024 1 1
1000 1030 1001 1 0
600 700 500 0 0 3
4096 4096 4096 0 0
SHAPES
  tar czf "$out/ptx.tgz" -C /tmp/occ_stage3x programs 2>/dev/null
  echo "errors in $((SECONDS - t0)) s"
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
    (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout $left ctest -L nvidia -R 'matmul_(staged|wgmma|mma)$' -j3 \
      --output-on-failure >/tmp/s3x_ctest.txt 2>&1; echo "ctest rc $?")
    grep -E "tests passed|Failed|FAILED|Timeout|Not Run|\*\*\*|Passed|err|stage3x" \
      /tmp/s3x_ctest.txt | head -80
    grep -h "worst |error|" $b/Testing/Temporary/LastTest*.log 2>/dev/null | head -8
  fi
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
