#!/bin/bash
# run.sh: the decode lab in one call on the GPU machine, from the repo root:
#
#     source .gpu/env.sh && bash tools/lab/decode/run.sh
#
# 1. builds decode_lab (Release, labs on, -j16, in $B, default /tmp/b: the usual tree);
# 2. runs it (README.md): every shape and config of DECODE_SHAPES / DECODE_CONFIGS (default: the
#    lab's own lists), each config checked against a double reference, then timed beside
#    ocf_attention; no config starts after its share of the time;
# 3. with time left, the PyTorch peers (cuDNN, FA2, memory-efficient) on the shapes the lab ran;
# 4. prints the RESULT lines sorted by shape, the best config of each shape, the library and
#    the peers.
# Everything goes to ${OUT:-/tmp/decode}: build.log, lab.txt (every line the lab printed: builds,
# NVIDIA's ptxas counts, checks, results), results.txt (the table printed at the end), peers.txt,
# gpu.txt (nvidia-smi at the start), ptx.tgz (the PTX NVIDIA's compiler made of every program).
# The whole stays within DECODE_TOTAL seconds (235), each step under `timeout`.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1
build=${B:-/tmp/b}
out=${OUT:-/tmp/decode}
total=${DECODE_TOTAL:-235}
start=$SECONDS
left() { echo $((total - (SECONDS - start))); }
mkdir -p "$out" && rm -rf "$out/ptx" && mkdir -p "$out/ptx"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv >"$out/gpu.txt" 2>&1

# A fresh JIT cache: the first build of each program prints its ptxas counts (-cl-nv-verbose; a
# cached build prints none), and the children of later shapes reuse the binaries.
export CUDA_CACHE_PATH=/tmp/decode_nvcache CUDA_CACHE_MAXSIZE=1073741824
unset CUDA_CACHE_DISABLE
# The lab's own cache of program binaries (PTX), for the same reason: a shape's child builds from
# source what no child before it built, and loads the rest.
export DECODE_BIN_CACHE=/tmp/decode_bincache
rm -rf "$CUDA_CACHE_PATH" "$DECODE_BIN_CACHE" && mkdir -p "$DECODE_BIN_CACHE"

if ! timeout -k 5 $(($(left) - 60)) bash -c \
  "cmake -S . -B '$build' -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_BUILD_LAB=ON >'$out/build.log' 2>&1 &&
   cmake --build '$build' -j16 --target decode_lab >>'$out/build.log' 2>&1"; then
  echo "run.sh: the build failed or ran out of time; the end of $out/build.log:"
  tail -20 "$out/build.log"
  exit 1
fi
echo "run.sh: built in $((SECONDS - start)) s"

# The lab: no config starts after lab_s seconds, and its last one may take DECODE_CONFIG_LIMIT
# more; what is left after it (about 50 s) goes to the peers.
lab_s=$(($(left) - 80))
export DECODE_CONFIG_LIMIT=${DECODE_CONFIG_LIMIT:-25} DECODE_PTX_DIR="$out/ptx"
timeout -k 5 $((lab_s + 30)) "$build/tools/lab/decode/decode_lab" -t "$lab_s" >"$out/lab.txt" 2>&1
echo "run.sh: decode_lab exit $? at $((SECONDS - start)) s"
tar czf "$out/ptx.tgz" -C "$out" ptx && rm -rf "$out/ptx"

shapes=$(sed -n 's/^SHAPE \([^:]*:[^:]*\):.*/\1/p' "$out/lab.txt" | awk '!seen[$0]++')
peers_s=$(($(left) - 8))
if [ -n "$shapes" ] && [ "$peers_s" -ge 25 ]; then
  # shellcheck disable=SC2086
  PYTHONUNBUFFERED=1 timeout -k 5 "$peers_s" python3 tools/lab/decode/peers.py \
    --budget $((peers_s - 15)) $shapes >"$out/peers.txt" 2>&1
  echo "run.sh: peers exit $? at $((SECONDS - start)) s"
else
  echo "run.sh: no time left for the peers ($peers_s s)" | tee "$out/peers.txt"
fi

{
  echo "== every result, by shape (us: first kernel start to last kernel end; split_*: the first kernel)"
  grep '^RESULT' "$out/lab.txt" | sort -s -k2,2 | sed 's/ plan=.*//'
  echo "== the best config of each shape (GB/s of K and V), the library, the peers"
  grep '^RESULT' "$out/lab.txt" | grep -v 'cfg=lib' |
    awk '{g = 0; for (i = 3; i <= NF; i++) if ($i ~ /^GBps=/) g = substr($i, 6) + 0
          if (!($2 in best) || g > best[$2]) {best[$2] = g; line[$2] = $0}}
         END {for (s in line) print line[s]}' | sort -s -k2,2
  grep '^RESULT' "$out/lab.txt" | grep 'cfg=lib' | sort -s -k2,2 | sed 's/ plan=.*//'
  grep '^PEER' "$out/peers.txt" 2>/dev/null
  echo "== failures and skips"
  grep -E '^(FAIL|SKIP|NOTE)' "$out/lab.txt" | cut -c1-300
  grep '^LAB done' "$out/lab.txt"
} | tee "$out/results.txt"
echo "run.sh: $((SECONDS - start)) s"
