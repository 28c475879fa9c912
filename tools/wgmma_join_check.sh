#!/bin/bash
# wgmma_join_check.sh: the split that joins its ranges (matmul_wgmma_split_join) run on the host
# for its indexing and its counters, from the repo root:
#   tools/wgmma_join_check.sh [WORKDIR]
# Cuts from the wgmma program (cl/matmul_wgmma_nv.cl and its fragments) the accumulator fragment's
# macros, the operands, the epilogue and its pair store (float2 stores written for C), tile_of,
# operands_of and the split section up to the TMA-fed split, leaving out the two NVIDIA-only pieces
# (the arrival's fences and atomics, the read past L1), which tests/wgmma_join_check.c stands in for
# with main_loop; compiles them for every tile width and warpgroup count and checks every element of
# C, what the joins read, the counters and the fragment's pairs.
# (f, out and failed come from wgmma_host_common.sh)
# shellcheck disable=SC2154
work=${1:-/tmp/wgmma_join_check}
# shellcheck source=tools/wgmma_host_common.sh
source "$(dirname "$0")/wgmma_host_common.sh"
{
  cut_split_common
  awk '/^\/\* The epilogue.s arguments/{on=1} /^\/\* Writes the warpgroup.s 64 x BN block/{on=0} on' "$f"
  awk '/^#if defined\(OCF_KERNEL_matmul_wgmma_split\) \|\| defined\(OCF_KERNEL_matmul_wgmma_tma_split/{on=1}
       /^\/\* Counts this workgroup in at/{on=0} /^\/\* The last range.s work-item/{on=1}
       /^\/\* The TMA-fed split \(rules/{on=0} on' "$f"
} | as_c >"$work/part.cl"
run_tile_configs wgmma_join_check.c
exit "$failed"
