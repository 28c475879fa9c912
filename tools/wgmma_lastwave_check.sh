#!/bin/bash
# wgmma_lastwave_check.sh: the last-wave split's kernels (matmul_wgmma_lw_split, matmul_wgmma_lw)
# run on the host for their indexing, from the repo root:
#   tools/wgmma_lastwave_check.sh [WORKDIR]
# Cuts from the wgmma program (cl/matmul_wgmma_nv.cl and its fragments) the accumulator fragment's
# macros, the operands, the epilogue's element, tile_of, operands_of and the last-wave section
# (float2 stores written for C), compiles them with tests/wgmma_lastwave_check.c (main_loop and
# whole_tile stand in for the matrix units) for every tile width and warpgroup count (tile groups of
# 3 and 8 rows), and checks every element of C, what the reduce read and the fragment's pairs.
work=${1:-/tmp/wgmma_lastwave_check}
# shellcheck source=tools/wgmma_host_common.sh
source "$(dirname "$0")/wgmma_host_common.sh"
{
  cut_split_common
  awk '/^\/\* The epilogue.s arguments/{on=1} /^\/\* C\[i\] and, when two/{on=0} on' "$f"
  awk '/^\/\* The last-wave split \(src/{on=1} on' "$f"
} | as_c >"$work/part.cl"
run_tile_configs wgmma_lastwave_check.c
exit "$failed"
