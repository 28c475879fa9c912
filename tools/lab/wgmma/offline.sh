#!/bin/bash
# offline.sh: without the GPU, from the repo root: tools/lab/wgmma/offline.sh [WORKDIR] [-D...]
# Compiles matmul_wgmma_nv.cl with clang-14 for NVPTX (the lab/mma stubs stand in for the
# OpenCL builtins), checks that the `// SM90A ` lines came out with their operands substituted,
# assembles the PTX as it is (sm_90: the wgmma lines are comments) and retargeted (prefix
# stripped, .target sm_90a, .version 8.0) with ptxas -v: syntax, registers, spills.
set -u -o pipefail
root=$(pwd)
work=${1:-/tmp/wgmma_offline}
shift || true
mkdir -p "$work"
opts="$*"
base=$work/k
# shellcheck disable=SC2086
clang-14 -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -target-feature -Xclang +ptx75 \
  -Xclang -finclude-default-header -include "$root/tools/lab/mma/offline/stubs.h" \
  -I "$root/tools/lab/wgmma" $opts -O2 -Xclang -disable-llvm-passes -emit-llvm -c \
  "$root/tools/lab/wgmma/matmul_wgmma_nv.cl" -o "$base.bc" || exit 1
opt-14 -internalize -internalize-public-api-list=matmul_wgmma -globaldce -O3 "$base.bc" \
  -o "$base.opt.bc" && llc-14 -O3 -march=nvptx64 -mcpu=sm_80 -mattr=+ptx75 "$base.opt.bc" \
  -o "$base.ptx" || exit 1
sed -i -e 's/^\.target .*/.target sm_90/' -e 's/^\.version .*/.version 9.0/' "$base.ptx"
ptxas -arch=sm_90 -v "$base.ptx" -o "$base.sm90.cubin" 2>&1 | grep -i 'error\|registers' | sed 's/^/sm_90 : /'
sed -e 's#^\(\s*\)// SM90A #\1#' -e 's/^\.target sm_90$/.target sm_90a/' "$base.ptx" >"$base.a.ptx"
echo "wgmma lines: $(grep -c 'wgmma.mma_async' "$base.a.ptx"), unsubstituted %N: $(grep 'wgmma' "$base.a.ptx" | grep -c '%[0-9]')"
ptxas -arch=sm_90a -v "$base.a.ptx" -o "$base.a.cubin" 2>&1 | grep -v '^$' | sed 's/^/sm_90a: /'
