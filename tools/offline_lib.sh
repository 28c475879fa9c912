# shellcheck shell=bash
# offline_lib.sh: the pipeline the offline PTX checks share, sourced by them (tools/few_offline.sh,
# lanes_offline.sh, wgmma_offline.sh and through it attention_wgmma_offline.sh;
# tools/lab/decode/offline.sh, h200/attention_mma_offline.sh, mma/offline_check.sh,
# wgmma/offline.sh). One configuration of an OpenCL C program goes through clang-14 for NVPTX
# (OpenCL C 1.2 with clang's default header, then tools/lab/mma/offline/stubs.h and
# tools/offline_builtins.h for the builtins clang has no library for), opt-14 (internalised down to
# the kernels asked for, the rest dropped, -O3) and llc-14 (sm_80, PTX 7.5), is retargeted to sm_90
# and assembled by ptxas -v. Every step leaves its file next to a base path: BASE.bc, BASE.opt.bc,
# BASE.ptx, BASE.cubin, and its messages in BASE.clang.log, BASE.llvm.log, BASE.ptxas.log. What to
# count and what fails a check stays with each script.
#
# ptxas: $PTXAS, else the one on PATH, else CUDA's.
offline_ptxas=${PTXAS:-ptxas}
command -v "$offline_ptxas" >/dev/null || offline_ptxas=/usr/local/cuda/bin/ptxas
offline_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The step that failed last (clang, llvm or ptxas), for offline_error.
offline_stage=

# offline_ptx BASE SOURCE KERNELS VERSION [clang options...]: BASE.ptx from SOURCE, keeping the
# entries KERNELS (comma-separated), with .target sm_90 and .version VERSION. The options follow
# the two headers (-include of a script's own stand-ins, -D, -U, -I; -D and -U in their order).
# Returns 1 with offline_stage set where clang or opt/llc failed.
offline_ptx() {
  local base=$1 src=$2 kernels=$3 version=$4
  shift 4
  offline_stage=clang
  clang-14 -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -target-feature -Xclang +ptx75 \
    -Xclang -finclude-default-header -include "$offline_root/tools/lab/mma/offline/stubs.h" \
    -include "$offline_root/tools/offline_builtins.h" "$@" -O2 -Xclang -disable-llvm-passes \
    -emit-llvm -c "$src" -o "$base.bc" 2>"$base.clang.log" || return 1
  offline_stage=llvm
  { opt-14 -internalize -internalize-public-api-list="$kernels" -globaldce -O3 "$base.bc" \
    -o "$base.opt.bc" &&
    llc-14 -O3 -march=nvptx64 -mcpu=sm_80 -mattr=+ptx75 "$base.opt.bc" -o "$base.ptx"; } \
    2>"$base.llvm.log" || return 1
  sed -i -e 's/^\.target .*/.target sm_90/' -e "s/^\\.version .*/.version $version/" "$base.ptx"
}

# offline_ptxas BASE ARCH [PTX]: PTX (default BASE.ptx) assembled for ARCH (sm_90, sm_90a) with
# ptxas -v into BASE.cubin, its report in BASE.ptxas.log. Returns ptxas's status.
# OFFLINE_REGISTERS: a register cap, as a plan's -cl-nv-maxrregcount sets one (spills show there).
offline_ptxas() {
  offline_stage=ptxas
  "$offline_ptxas" -arch="$2" -v ${OFFLINE_REGISTERS:+--maxrregcount "$OFFLINE_REGISTERS"} \
    "${3:-$1.ptx}" -o "$1.cubin" 2>"$1.ptxas.log"
}

# offline_ptxas_48k BASE ARCH NAME: offline_ptxas; where ptxas refuses static shared memory above
# 48 KiB (which NVIDIA's OpenCL runs), the 16-byte aligned .shared arrays whose names contain NAME
# (any, if empty) are declared 48 KiB in BASE.ptx and assembled again (the instructions are the
# same text). offline_fitted is 1 when they were.
# shellcheck disable=SC2034 # offline_fitted: for the caller
offline_ptxas_48k() {
  offline_fitted=0
  offline_ptxas "$1" "$2" && return 0
  grep -q 'too much shared data' "$1.ptxas.log" || return 1
  sed -i -E "s/^([[:space:]]*[.]shared [.]align 16 [.]b8 [^[]*$3[^[]*)[[][0-9]+[]];/\\1[49152];/" \
    "$1.ptx"
  offline_fitted=1
  offline_ptxas "$1" "$2"
}

# offline_sm90a BASE: BASE.a.ptx, BASE.ptx as src/ptx_retarget.c retargets it for the wgmma
# instructions: the `// SM90A ` prefix stripped, .target sm_90a.
offline_sm90a() {
  sed -e 's#^\(\s*\)// SM90A #\1#' -e 's/^\.target sm_90$/.target sm_90a/' "$1.ptx" >"$1.a.ptx"
}

# offline_error BASE: the first error line of the step that failed (offline_stage).
offline_error() {
  if [ "$offline_stage" = clang ]; then
    grep -m1 error "$1.clang.log"
  else
    grep -m1 -i error "$1.$offline_stage.log"
  fi
}
