#!/bin/bash
# Long 16-bit softmax rows streamed (issue 19, item 1), one device round from the tree's root:
#   source .gpu/env.sh && OUT=$OUT/s16 bash tools/lab/h200/round_softmax16_stream.sh
# Why: the held plans (softmax_coop, softmax_resident holding whole rows) keep 16-bit long rows
# at 0.5-0.85 of torch.softmax for want of registers (docs/SOFTMAX.md). torch reads such a row
# more than once and finds it in cache. Here softmax_resident holds a little of each row
# (items) and streams the rest twice, the second pass backwards into what the first left in
# L2, with groups_per_unit workgroups a compute unit (fewer rows in flight: the second read
# hits), or the two-kernel split (coop_spin=0 with rows too few to fill the device), against
# the shipped plan ("auto") and torch beside. Builds softmax_lab (Release, /tmp/b_softmax16);
# about 2 minutes after the build. Writes $OUT/round.txt. PEERS=0 leaves torch out. A shape
# "rows cols in out" times a call of two types (no peer).
set -u
out=${OUT:-/tmp/s16}
mkdir -p "$out"
build=${BUILD:-/tmp/b_softmax16} # BUILD: another folder (a second tree timed beside this one)
start=$SECONDS
{
  echo "== round_softmax16_stream $(git log --oneline -1 2>/dev/null)"
  if ! cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_BUILD_LAB=ON >/tmp/b_s16.txt 2>&1 ||
    ! cmake --build $build -j16 --target softmax_lab >>/tmp/b_s16.txt 2>&1; then
    tail -30 /tmp/b_s16.txt
    exit 1
  fi
  echo "built at $((SECONDS - start)) s"
  # Round 1's lists (CONFIGS and SHAPES, ';'-separated, replace them: round 2 below).
  s="packed=0 local_items=0 coop_spin=0"
  configs="auto;$s items=2 groups_per_unit=2 unroll=4;$s items=2 groups_per_unit=2 unroll=8"
  configs+=";$s items=2 groups_per_unit=3 unroll=8;$s items=4 groups_per_unit=1 unroll=8"
  configs+=";$s items=4 groups_per_unit=4 unroll=4;packed=0 items=8 coop_items=2"
  configs+=";$s items=1 groups_per_unit=4 unroll=8;$s items=2 groups_per_unit=2 unroll=8 wg=256;$s items=2 groups_per_unit=4 unroll=4 wg=256"
  shapes="512 50257 bf16;1024 65536 bf16;512 50257 f16;128 152064 bf16;256 32000 bf16"
  shapes+=";1024 65536 f16;4096 16384 bf16"
  configs=${CONFIGS:-$configs}
  shapes=${SHAPES:-$shapes}
  echo "$shapes" | tr ';' '\n' | awk 'NF {print $1, $2, $3, (NF > 3 ? $4 : $3), "softmax"}' >/tmp/shapes_s16.txt
  peers=$(echo "$shapes" | tr ';' '\n' | awk 'NF == 3 {printf "%sx%s:%s ", $1, $2, $3}')
  LAB_CONFIGS=$configs OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_s16 \
    timeout -k 2 110 $build/tools/lab/softmax/softmax_lab --shapes /tmp/shapes_s16.txt \
    --budget ${BUDGET:-100} 2>/tmp/lab_s16.err | cut -f2-4,8-
  grep -v "^softmax_lab: \[" /tmp/lab_s16.err | tail -5
  echo "lab done at $((SECONDS - start)) s"
  # shellcheck disable=SC2086
  [ "${PEERS:-1}" = 0 ] || timeout 60 python3 tools/lab/h200/softmax_peers.py $peers 2>&1 | grep "^softmax"
  echo "done at $((SECONDS - start)) s"
} >"$out/round.txt" 2>&1
cat "$out/round.txt"
