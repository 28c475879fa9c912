#!/bin/bash
# fp16 conversions (issues 19 and 20): each f16_cvt of the norm and softmax schemas on the H200,
# the torch peers in the same call, one GPU round from the tree's root:
#   OUT=/some/dir bash tools/lab/h200/round_f16cvt.sh
# f16_cvt (cl/f16_words.clh): 0 the shipped default (norm: vload_halfN / vstore_halfN_rte of the
# global pointer; softmax: whole words converted in integer arithmetic), 1 whole 32-bit words
# converted by vload_halfN / vstore_halfN_rte on a private copy, 2 whole words converted by PTX
# cvt.f32.f16 / cvt.rn.f16x2.f32. Every other value is the context's (built-in and shipped).
# 1. builds (Release, /tmp/b_f16cvt: the library, softmax_lab, the f16 tests);
# 2. library_norm_time.c: RMSNorm and LayerNorm fp16 (weight, and bias for LayerNorm) 8192 x 4096
#    and 1024 x 16384 under f16_cvt 0, 1, 2, each line with its plan (its -D values) and error;
# 3. softmax_lab: softmax fp16 512 x 50257 and 4096 x 4096 under auto (f16_cvt 0), 1 and 2 (a
#    config that plans as one already timed is skipped), every plan printed;
# 4. the peers: norm_peers.py (F.layer_norm, F.rms_norm, compiled) and softmax_peers.py
#    (torch.softmax, compiled) on the same shapes, in fp16;
# 5. ctest -L nvidia -R f16: the PTX path bit for bit (test_f16_vectors_ptx) and through the ops.
# The PTX of every program built is kept (OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=$cache: each
# under $cache/programs/*.bin) and tarred, for `ptxas -arch=sm_90 -v` and the instruction counts
# of the three paths off the GPU. About 2 minutes after the build.
# Writes $OUT/f16cvt.txt and $OUT/f16cvt_ptx.tgz.
set -u
out=${OUT:-/tmp/f16cvt}
mkdir -p "$out"
log=$out/f16cvt.txt
b=/tmp/b_f16cvt
cache=/tmp/occ_f16cvt
rm -rf "$cache"
mkdir -p "$cache"
start=$SECONDS
{
  echo "== round_f16cvt $(git log --oneline -1 2>/dev/null)"
  if ! cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON -DOCLFUSE_BUILD_LAB=ON \
    >$b.build.txt 2>&1 ||
    ! cmake --build $b -j16 --target oclfuse softmax_lab test_f16_vectors test_norm \
      test_softmax_options >>$b.build.txt 2>&1; then
    tail -40 $b.build.txt
    exit 1
  fi
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/f16cvt_norm_time || exit 1
  echo "built at $((SECONDS - start)) s"
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=$cache
  t=/tmp/f16cvt_norm_time
  cvt=("f16_cvt=0" "f16_cvt=1" "f16_cvt=2")
  echo "== norm fp16 (GB/s: one read and one write of x)"
  timeout 10 $t rms f16 8192 4096 "${cvt[@]}"
  timeout 10 $t layer f16 8192 4096 "${cvt[@]}"
  timeout 10 $t rms f16 1024 16384 "${cvt[@]}"
  timeout 10 $t layer f16 1024 16384 "${cvt[@]}"
  echo "   at $((SECONDS - start)) s"
  echo "== softmax fp16 (softmax_lab; auto is f16_cvt=0)"
  printf '%s\n' "512 50257 f16 f16 softmax" "4096 4096 f16 f16 softmax" >/tmp/f16cvt_shapes.txt
  LAB_CONFIGS="auto;f16_cvt=1;f16_cvt=2" timeout 40 $b/tools/lab/softmax/softmax_lab \
    --shapes /tmp/f16cvt_shapes.txt --budget 30 2>/tmp/f16cvt_lab.err | cut -f2-4,8-17
  grep -v "^softmax_lab: \[" /tmp/f16cvt_lab.err | tail -5
  echo "   at $((SECONDS - start)) s"
  echo "== peers (torch, same call)"
  timeout 120 python3 tools/lab/h200/norm_peers.py 8192x4096:f16 1024x16384:f16 2>&1 | tail -4
  timeout 60 python3 tools/lab/h200/softmax_peers.py 512x50257:f16 4096x4096:f16 2>&1 | tail -4
  echo "   at $((SECONDS - start)) s"
  echo "== ctest -L nvidia -R f16 (the PTX path, bit for bit and through the ops)"
  (cd $b && env -u OCLFUSE_CACHE -u OCLFUSE_TUNING_DIR OCLFUSE_TEST_DEVICE=NVIDIA timeout 240 ctest -L nvidia -R f16 --output-on-failure \
      2>&1 | grep -E "Test +#|tests passed|FAILED|fail|Skipped" | head -20)
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
tar -czf "$out/f16cvt_ptx.tgz" -C "$cache" programs 2>/dev/null
cat "$log"
