#!/bin/bash
# wgmma_copy_check.sh: the wgmma kernel's interior copy (load_slice_fast, copy_slice) against its
# bounded one (load_slice) on the host, from the repo root:
#   tools/wgmma_copy_check.sh [WORKDIR]
# Cuts the copy functions out of cl/matmul_wgmma_nv.cl (from "---- tiles ----" to slice_descs, and
# copy_slice), compiles them with tests/wgmma_copy_check.c (cp.async recorded as destination,
# source and size) for every operand type, B layout, tile width and warpgroup count, and checks
# that both place the same bytes at the same shared offsets, slice by slice.
work=${1:-/tmp/wgmma_copy_check}
# shellcheck source=tools/wgmma_host_common.sh
source "$(dirname "$0")/wgmma_host_common.sh"
{
  awk '/---- tiles ----/{on=1} /descriptors of a stage for warpgroup/{on=0} on' "$f"
  awk '/^\/\* Slice kt into stage:/{on=1} /^\/\* Every work-item copies/{on=0} on' "$f"
} >"$work/part.cl"
for cfg in "0 1 128" "0 1 192" "0 1 256" "1 0 256" "1 1 256" "2 0 128" "2 0 192" "2 0 256" \
  "2 1 128" "2 1 192" "2 1 256"; do
  for consumers in 1 2; do
    set -- $cfg
    host_run wgmma_copy_check.c "-DAB_DTYPE=$1 -DTRANS_B=$2 -DBN=$3 -DCONSUMERS=$consumers" ||
      continue
    [ "$out" = "ok" ] || failed=1
  done
done
exit $failed
