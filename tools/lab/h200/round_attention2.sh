#!/bin/bash
# attention2's GPU round (issue 21): builds (Release, /tmp/b_attention2), then times ocf_attention
# through tools/lab/h200/library_attention_time.c on the task's shapes (fp32, bf16, f16; GQA,
# causal), each with its plan and a check of sampled rows against a double reference, then the
# attention suite on the GPU in what time is left; the programs' PTX (OCLFUSE_CACHE=always) in
# a .tgz for ptxas -v on the host.
#   source .gpu/env.sh && OUT=$OUT/attention2 bash tools/lab/h200/round_attention2.sh
set -u
out=${OUT:-/tmp/attention2}
mkdir -p "$out"
log=$out/round.txt
b=/tmp/b_attention2
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/att2_build.txt 2>&1 &&
    cmake --build $b -j16 >>/tmp/att2_build.txt 2>&1 || { tail -40 /tmp/att2_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/att2_time || exit 1
  echo "built at $((SECONDS - start)) s"
  t0=$SECONDS
  export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_attention2
  rm -rf /tmp/occ_attention2
  # dtype b h h_kv lq lk d [causal] ["tune=..."]: the decisive comparisons only (round 2: at
  # most 60 s of GPU work): decode at the new defaults (wg=128 fill=8) and one step past them,
  # GQA decode, then prefill on attention_tiled (tpr=16 on NVIDIA) against attention_block
  # (off by default until measured) at a few shapes of its tiles.
  while read -r line; do
    [ -z "$line" ] && continue
    [ $((SECONDS - t0)) -gt 55 ] && { echo "out of time before: $line"; continue; }
    eval "set -- $line"
    timeout 12 /tmp/att2_time "$@" 2>&1 || echo "rc $? for $line"
  done <<'SHAPES'
bf16 1 32 32 1 8192 128
bf16 1 32 32 1 8192 128 "tune=decode.fill=16"
f32 1 32 32 1 8192 128
bf16 16 32 32 1 4096 128
bf16 1 32 8 1 8192 128
bf16 4 32 8 4 8192 128
f32 1 32 32 1024 1024 128
f32 1 32 32 1024 1024 128 "tune=block.bq=32"
f32 1 32 32 1024 1024 128 "tune=block.bq=64 block.rm=8"
f32 1 32 32 1024 1024 128 "tune=block.bq=64 block.rm=4"
f32 1 32 32 1024 1024 128 "tune=block.bq=32 block.bk=16"
bf16 1 32 32 1024 1024 128 "tune=block.bq=32"
bf16 8 16 16 1024 1024 64 causal
bf16 8 16 16 1024 1024 64 causal "tune=block.bq=32"
bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 "tune=block.bq=32"
SHAPES
  echo "timed in $((SECONDS - t0)) s"
  (cd /tmp/occ_attention2 && find . -name '*.bin' | head -40 | tar czf "$out/ptx.tgz" -T -) 2>/dev/null
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
