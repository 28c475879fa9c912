#!/bin/bash
# 16-bit softmax's registers (issue 19, item 1) on the H200, one device round from the tree's root:
#   OUT=/some/dir bash tools/lab/h200/round_softmax16.sh
# Builds softmax_lab (Release, /tmp/b_softmax16), then times, through it, liboclfuse's softmax
# under the context's tuning ("auto": built-in values and the shipped database) and under forced
# tuning values (LAB_CONFIGS, over the shipped class values) on the long and wide 16-bit shapes,
# and fp32 auto beside them; every plan printed with its -D options. The PTX of every program
# built is kept (OCLFUSE_CACHE=always) and tarred, for `ptxas -arch=sm_90 -v` off the GPU.
# Writes $OUT/round_softmax16.log and $OUT/ptx_softmax16.tgz; at most 60 s after the build.
set -u
out=${OUT:-/tmp/round_softmax16}
mkdir -p "$out"
log=$out/round_softmax16.log
build=/tmp/b_softmax16
cache=/tmp/occ_softmax16
rm -rf "$cache"
mkdir -p "$cache"
start=$SECONDS
{
  echo "== round_softmax16 $(git log --oneline -1 2>/dev/null)"
  if ! cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_BUILD_LAB=ON >/tmp/b_softmax16.txt 2>&1 ||
    ! cmake --build $build -j16 --target softmax_lab >>/tmp/b_softmax16.txt 2>&1; then
    tail -30 /tmp/b_softmax16.txt
    exit 1
  fi
  echo "built at $((SECONDS - start)) s"
  lab=$build/tools/lab/softmax/softmax_lab
  # run NAME BUDGET CONFIGS SHAPES...: one softmax_lab call (shapes "rows cols dtype").
  run() {
    local name=$1 budget=$2 configs=$3
    shift 3
    printf '%s\n' "$@" | awk '{print $1, $2, $3, $3, "softmax"}' >/tmp/shapes_softmax16.txt
    echo "== $name (configs: $configs)"
    LAB_CONFIGS=$configs OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=$cache \
      timeout -k 2 $((budget + 6)) $lab --shapes /tmp/shapes_softmax16.txt --budget "$budget" \
      2>/tmp/lab_softmax16.err | cut -f2-4,8-17
    grep -v "^softmax_lab: \[" /tmp/lab_softmax16.err | tail -5
    echo "   at $((SECONDS - start)) s"
  }
  # Round 2 (at most 60 s after the build): the shipped entries (auto) against round 1's best
  # and the packed candidates now that the unpacked floats are no longer kept live (salt).
  long="auto;vw=16 items=4 local_items=0 coop_items=0 packed=0;items=16 local_items=0 coop_items=0"
  long+=";items=12 local_items=0 coop_items=8"
  run long16 28 "$long" "512 50257 bf16" "1024 65536 bf16" "512 50257 f16" "128 152064 bf16" \
    "256 32000 bf16"
  wide="auto;vw=8 items=32 seg_items=2;items=16 rows_wg=64 max_seg=64;packed=0"
  run wide16 16 "$wide" "4096 16384 bf16" "32768 4096 bf16" "4096 4096 f16" "4096 4096 bf16"
  run fp32 2 "auto" "1024 65536 f32" "4096 4096 f32"
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
tar -czf "$out/ptx_softmax16.tgz" -C "$cache" programs 2>/dev/null
cat "$log"
