#!/bin/bash
# offline.sh: without the GPU, from the repo root: tools/lab/wgmma/offline.sh [WORKDIR] [-D...]
# Compiles matmul_wgmma_nv.cl with clang-14 for NVPTX (tools/offline_lib.sh; the lab/mma stubs
# stand in for the OpenCL builtins), checks that the `// SM90A ` lines came out with their
# operands substituted, assembles the PTX as it is (sm_90: the wgmma lines are comments) and
# retargeted (prefix stripped, .target sm_90a, .version 9.0) with ptxas -v: syntax, registers,
# spills.
set -u -o pipefail
root=$(pwd)
work=${1:-/tmp/wgmma_offline}
shift || true
mkdir -p "$work"
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
opts="$*"
base=$work/k
# shellcheck disable=SC2086
offline_ptx "$base" "$root/tools/lab/wgmma/matmul_wgmma_nv.cl" matmul_wgmma 9.0 \
  -I "$root/tools/lab/wgmma" $opts || { cat "$base.$offline_stage.log" >&2; exit 1; }
"$offline_ptxas" -arch=sm_90 -v "$base.ptx" -o "$base.sm90.cubin" 2>&1 |
  grep -i 'error\|registers' | sed 's/^/sm_90 : /'
offline_sm90a "$base"
echo "wgmma lines: $(grep -c 'wgmma.mma_async' "$base.a.ptx"), unsubstituted %N: $(grep 'wgmma' "$base.a.ptx" | grep -c '%[0-9]')"
"$offline_ptxas" -arch=sm_90a -v "$base.a.ptx" -o "$base.a.cubin" 2>&1 | grep -v '^$' |
  sed 's/^/sm_90a: /'
