#!/bin/bash
# wgmma_sk_check.sh: the persistent TMA-fed form (matmul_wgmma_tma with PERSIST) and stream-K on
# it (matmul_wgmma_tma_sk) run on the host for their tiles, ranges, ring order and meetings, from
# the repo root:
#   tools/wgmma_sk_check.sh [WORKDIR]
# Cuts from the wgmma program (cl/matmul_wgmma_nv.cl and its fragments) the accumulator fragment's
# macros, the operands, tile_of, operands_of, the epilogue's element, slices_of and the ring's plan
# (part.cl), then the whole-K entry, the pieces' count, the meeting and the stream-K kernel
# (part2.cl), leaving out the TMA ring itself and the meeting's device steps (arrival, barriers,
# reset, reads past L1), which tests/wgmma_sk_check.c stands in for; compiles them for every tile
# width and one or two warpgroups and checks every element of C, the ring slices each warpgroup
# multiplied, what the meetings read and the counters.
# (f, out and failed come from wgmma_host_common.sh)
# shellcheck disable=SC2154
work=${1:-/tmp/wgmma_sk_check}
# shellcheck source=tools/wgmma_host_common.sh
source "$(dirname "$0")/wgmma_host_common.sh"
{
  cut_split_common
  awk '/^\/\* The epilogue.s arguments/{on=1} /^\/\* C\[i\] and, when two/{on=0} on' "$f"
  awk '/^\/\* The K slices of the operands. product/{on=1} /^\/\* The issuing work-item.s hold/{on=0} on' "$f"
  awk '/^\/\* The tiles a workgroup multiplies/{on=1} /^\/\* Ring slice c \(slice kt of the tile/{on=0} on' "$f"
  awk '/^\/\* The one tile of operands o as a ring/{on=1} on{print} on && /^}/{on=0}' "$f"
} | as_c >"$work/part.cl"
{
  awk '/^#define SK_PIECES_MAX/' "$f"
  awk '/^\/\* maps: the scratch, whose bytes from maps_at/{on=1}
       /^\/\* The pieces each of the last wave/{on=1}
       /^\/\* The warpgroup.s piece .piece. of .pieces./{on=1} /^__kernel .* SK_ENTRY\(/{on=1}
       on{print} on && /^}/{on=0}' "$f"
} | sed -e 's/(float4)(/FLOAT4(/g' -e 's/__global float4 \*/float4 */g' >"$work/part2.cl"
run_tile_configs wgmma_sk_check.c
exit "$failed"
