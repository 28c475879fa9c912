#!/bin/bash
# offline_check.sh: what can be checked of the lab's programs without the GPU, from the repo root:
#   tools/lab/mma/offline_check.sh [WORKDIR]
# 1. builds the lab and has it write every program it will build on the GPU (full source and
#    -D options) with `mma_lab --dump`;
# 2. compiles each with clang-14 for NVPTX (OpenCL C 1.2, by tools/offline_lib.sh; offline/stubs.h
#    here stands in for the OpenCL builtins clang has no library for), links away what the kernel
#    does not use, lowers it to PTX and assembles that with ptxas for sm_90: so every inline-PTX
#    statement and operand form is checked by NVIDIA's assembler, and the register and spill
#    counts show (they are clang's, not NVIDIA's OpenCL compiler's: a hint, not the figure);
# 3. builds and runs the CPU emulation (tools/lab/mma/emulate.c) of every GEMM configuration.
# Exit status 0 when everything expected to pass passed.
set -u -o pipefail
root=$(pwd)
work=${1:-/tmp/mma_offline}
rm -rf "$work" && mkdir -p "$work/dump"
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
cflags="-O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow -Werror"
lab=tools/lab/mma
cc $cflags $lab/main.c $lab/driver.c $lab/child.c $lab/cl_env.c $lab/numerics.c $lab/report.c \
  $lab/probes.c $lab/gemm.c $lab/ptx_model.c -lOpenCL -lpthread -lm -o "$work/mma_lab" || exit 1
"$work/mma_lab" --root "$root" --dump "$work/dump" || exit 1

failed=0
ptx_check() { # file.cl, options, kernels (comma list), label
  local src=$1 opts=$2 kernels=$3 label=$4 base=$work/$(basename "${1%.cl}")
  # shellcheck disable=SC2086
  if ! offline_ptx "$base" "$src" "$kernels" 8.0 $opts; then
    printf '%-44s %s: %s\n' "$label" "$offline_stage" "$(offline_error "$base")"
    return 1
  fi
  if ! offline_ptxas "$base" sm_90; then
    printf '%-44s ptxas: %s\n' "$label" "$(offline_error "$base")"
    # ptxas limits static local memory to 48 KiB; whether NVIDIA's OpenCL does (it built
    # 49184 bytes in the first GPU run) is for the GPU run's probes to say
    if grep -q 'too much shared data' "$base.ptxas.log"; then
      echo "  (expected: more than 48 KiB of static local memory; the GPU run answers this)"
      return 0
    fi
    return 1
  fi
  local regs spill
  regs=$(grep -o 'Used [0-9]* registers' "$base.ptxas.log" | head -n1)
  spill=$(grep -o '[0-9]* bytes spill stores' "$base.ptxas.log" | head -n1)
  printf '%-44s ok  %s, %s, %s mma, %s ldmatrix, %s cp.async\n' "$label" "$regs" "$spill" \
    "$(grep -c 'mma.sync' "$base.ptx")" "$(grep -c 'ldmatrix' "$base.ptx")" \
    "$(grep -c 'cp.async.c[ag]' "$base.ptx")"
}

echo "== probes (clang -> PTX -> ptxas sm_90) =="
for o in "$work"/dump/probe_*.opts; do
  src=${o%.opts}.cl
  opts=$(sed -n 1p "$o")
  kernels=$(sed -n 2p "$o")
  label=$(sed -n 3p "$o")
  if ! ptx_check "$src" "$opts" "$kernels" "$label"; then
    # clang takes only __asm__: the `asm` spelling is for NVIDIA's compiler to answer
    case $opts in
    *KW=asm*) echo "  (expected here: clang's OpenCL mode has no 'asm' keyword)" ;;
    *) failed=1 ;;
    esac
  fi
done

echo "== GEMM configurations (clang -> PTX -> ptxas sm_90; CPU emulation) =="
for o in "$work"/dump/gemm_*.opts; do
  src=${o%.opts}.cl
  opts=$(sed -n 1p "$o")
  label=$(sed -n 3p "$o")
  ptx_check "$src" "$opts" matmul_mma "$label" || failed=1
  defines=${opts//-cl-std=CL1.2/} # the -D options alone, for the C compiler
  # shellcheck disable=SC2086
  cc -O2 -std=c11 -Wall -Wextra $defines -I"$root/$lab" $lab/emulate.c $lab/ptx_model.c \
    $lab/numerics.c -lm -o "$work/emulate" && "$work/emulate" | sed 's/^/  /' || failed=1
done
[ $failed = 0 ] && echo "offline check: all passed" || echo "offline check: FAILURES above"
exit $failed
