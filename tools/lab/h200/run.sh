#!/bin/bash
# The library's GEMM and softmax calls beside PyTorch on one NVIDIA GPU, then the unit and
# nvidia suites, in one device call of about 4 minutes (docs/PERFORMANCE.md's 2026-12-01 tables):
#   source .gpu/env.sh && tools/lab/h200/run.sh        (results in $OUT, default /tmp/h200)
# 1. builds (Release, /tmp/b); 2. library_gemm_time: each line of gemm_shapes.txt through
# ocf_matmul_ex on a profiling queue (first kernel start to last kernel end, median of 15 after 3
# warm-ups, a 512 MiB fill before each), the plan it ran; 3. cuBLAS on the same shapes
# (gemm_peers.py, triton.testing.do_bench); 4. oclfuse bench on softmax shapes and torch.softmax /
# torch.compile beside them (softmax_peers.py); 5. ctest -L 'unit|nvidia' in what time is left.
set -u
OUT=${OUT:-/tmp/h200}
mkdir -p "$OUT"
start=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON > $OUT/build.txt 2>&1 &&
  cmake --build /tmp/b -j16 >> $OUT/build.txt 2>&1 || { tail -40 $OUT/build.txt; exit 1; }
echo "built at $((SECONDS - start)) s"
cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L/tmp/b -loclfuse -lOpenCL -Wl,-rpath,/tmp/b -o /tmp/gemm_time || exit 1
while read -r dt tb m n k; do timeout 60 /tmp/gemm_time $dt $tb $m $n $k 2>&1; done < tools/lab/h200/gemm_shapes.txt | tee $OUT/lib.txt
echo "lib timed at $((SECONDS - start)) s"
timeout 90 python3 tools/lab/h200/gemm_peers.py tools/lab/h200/gemm_shapes.txt > $OUT/peers.txt 2>&1
echo "peers at $((SECONDS - start)) s"
S='softmax:4096x4096:bf16;softmax:4096x4096:f16;softmax:8192x1024:bf16;softmax:512x50257:bf16;softmax:1024x65536:bf16;softmax:128x152064:bf16;softmax:4096x4096;softmax:4096x16384;softmax:1823x781'
timeout 90 /tmp/b/bench/oclfuse bench --op softmax --sizes "$S" > $OUT/softmax.txt 2>&1; echo "softmax bench rc $?"
cat $OUT/softmax.txt | tail -20
timeout 90 python3 tools/lab/h200/softmax_peers.py 4096x4096:bf16 4096x4096:f16 8192x1024:bf16 512x50257:bf16 1024x65536:bf16 128x152064:bf16 4096x4096:f32 4096x16384:f32 1823x781:f32 > $OUT/peers_sm.txt 2>&1
cat $OUT/peers_sm.txt
echo "softmax done at $((SECONDS - start)) s"
left=$((500 - (SECONDS - start)))
(cd /tmp/b && OCLFUSE_TEST_DEVICE=NVIDIA timeout $left ctest -L 'unit|nvidia' -j6 --output-on-failure > $OUT/ctest.txt 2>&1; echo "ctest rc $?")
grep -E "tests passed|Failed|FAILED|Timeout|Not Run|\*\*\*" $OUT/ctest.txt | head -30
echo "done at $((SECONDS - start)) s"
