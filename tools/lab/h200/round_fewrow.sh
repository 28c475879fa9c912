#!/bin/bash
# Few rows and one row (issues 18 and 22): 16-bit GEMMs with m from 1 to 64 on the H200, the
# few-row matrix-unit kernels (cl/matmul_few_mma.cl, few.on, 0 until this round) on and off, and
# the skinny kernels' 16-bit loads (8-byte words since this branch), cuBLAS beside, one GPU round
# from the tree's root, under 4 minutes after the build:
#   source .gpu/env.sh && OUT=/some/dir bash tools/lab/h200/round_fewrow.sh
# 1. builds (Release, /tmp/b_fewrow: the library, test_matmul_few, test_matmul_skinny);
# 2. the suites on the GPU first: test_matmul_few (few.on=2 forces the PTX path after the mma
#    probe: every short side 1..64, layout, alignment, split, epilogue) and test_matmul_skinny's
#    test_skinny_16bit (the word loads; OCFT_ONLY);
# 3. library_gemm_time.c, bf16 and f16, m in {1, 4, 16, 32, 64} x 8192 x 8192, B stored n x k
#    (B^T, the inference layout) and k x n: "off" (few.on=0: today's plan, skinny for m <= 16,
#    mma.sync / wgmma above) and "on" (few.on=1; k x n with few.x_rows=1, element loads of B);
#    then the skinny kernels' skinny.unroll 4 and 8 on bf16 m 1 (both layouts) and 4, and a
#    sweep of the few-row workgroup (warps, kw, nt, unroll) on bf16 B^T m 1, 16 and 64; each line
#    names its plan;
# 4. cuBLAS (torch.matmul, triton's do_bench) on the same shapes (gemm_peers.py).
# The PTX of every program built is kept (OCLFUSE_CACHE=always) and tarred: fewrow_ptx.tgz, for
# `ptxas -arch=sm_90 -v` off the GPU (registers, local memory, ld.global.v4 / .u64 counts).
# Writes $OUT/fewrow.txt, $OUT/ctest.txt and $OUT/fewrow_ptx.tgz.
# What decides: few.on=1 in the NVIDIA matmul f16 and bf16 rows of src/tuning/builtin.tuning when
# "on" beats "off" at every m of B^T (goal: >= 3.5 TB/s of B, 16 x 8192 x 8192 at ~56 TFLOP/s,
# at or above cuBLAS); few.x_rows=1 only if k x n "on" beats "off" too; the sweep's best
# warps/kw/nt/unroll into the same rows. The skinny change needs no switch: m 1 and 4 "off"
# against 2026-12-01's 1.2 TFLOP/s (bf16 1 x 8192 x 8192; 3.0 is 3 TB/s); skinny.unroll=4 or 8
# into the NVIDIA bf16 and f16 rows where it beats 2 at m 1 and 4.
set -u
out=${OUT:-/tmp/fewrow}
mkdir -p "$out"
log=$out/fewrow.txt
b=/tmp/b_fewrow
cache=/tmp/occ_fewrow
here=tools/lab/h200
rm -rf "$cache"
mkdir -p "$cache"
start=$SECONDS
{
  echo "== round_fewrow $(git log --oneline -1 2>/dev/null)"
  if ! cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >$b.build.txt 2>&1 ||
    ! cmake --build $b -j16 --target oclfuse test_matmul_few test_matmul_skinny \
      >>$b.build.txt 2>&1; then
    tail -40 $b.build.txt
    exit 1
  fi
  cc -std=c11 -O2 -Iinclude $here/library_gemm_time.c -L$b -loclfuse -lOpenCL \
    -Wl,-rpath,$b -o /tmp/fewrow_time || exit 1
  echo "built at $((SECONDS - start)) s"
  (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA OCFT_ONLY=test_skinny_16bit timeout 150 \
    ctest -R '^test_matmul_(few|skinny)$' --output-on-failure >"$out/ctest.txt" 2>&1
    echo "ctest rc $?")
  grep -E "tests passed|FAILED|Passed|Failed" "$out/ctest.txt" | head -8
  echo "suites at $((SECONDS - start)) s"
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=$cache
  t=/tmp/fewrow_time
  : >"$out/shapes.txt"
  echo "== library, 16-bit m x 8192 x 8192 (off: few.on=0; on: few.on=1)"
  for dt in bf16 f16; do
    for tb in 1 0; do
      on="few.on=1"
      [ "$tb" = 0 ] && on="few.on=1 few.x_rows=1"
      for m in 1 4 16 32 64; do
        echo "$dt $tb $m 8192 8192" >>"$out/shapes.txt"
        timeout 20 $t $dt $tb $m 8192 8192 "few.on=0" 2>&1
        timeout 20 $t $dt $tb $m 8192 8192 "$on" 2>&1
      done
    done
  done
  echo "   at $((SECONDS - start)) s"
  echo "== the skinny kernels' 16-bit words: more loads in flight (skinny.unroll, H200 default 2)"
  for tb in 1 0; do
    for u in 4 8; do
      timeout 20 $t bf16 $tb 1 8192 8192 "few.on=0 skinny.unroll=$u" 2>&1
    done
  done
  timeout 20 $t bf16 1 4 8192 8192 "few.on=0 skinny.unroll=4" 2>&1
  echo "== sweep: bf16 B^T, the few-row workgroup"
  for m in 1 16 64; do
    for w in "few.warps=4 few.kw=1 few.nt=1 few.unroll=4" "few.warps=8 few.kw=2 few.nt=2 few.unroll=2" \
      "few.warps=8 few.kw=4 few.nt=1 few.unroll=2" "few.warps=4 few.kw=1 few.nt=4 few.unroll=2"; do
      timeout 20 $t bf16 1 $m 8192 8192 "few.on=1 $w" 2>&1
    done
  done
  echo "   at $((SECONDS - start)) s"
  echo "== cuBLAS (torch.matmul)"
  timeout 150 python3 $here/gemm_peers.py "$out/shapes.txt" 2>&1
  echo "   at $((SECONDS - start)) s"
  tar czf "$out/fewrow_ptx.tgz" -C "$cache" . 2>/dev/null
  echo "done at $((SECONDS - start)) s"
} 2>&1 | tee "$log"
