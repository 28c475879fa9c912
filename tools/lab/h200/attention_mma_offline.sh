#!/bin/bash
# What can be checked of cl/attention_mma_nv.cl's PTX path without the GPU, from the repo root:
#   tools/lab/h200/attention_mma_offline.sh [WORKDIR]
# Each configuration below (-D values as src/plan/plan_attention.c passes them, MMA_EMULATE 0) is
# built from the program's files (CMakeLists.txt's attention_mma_nv entry) with clang-14 for
# NVPTX (OpenCL C 1.2, by tools/offline_lib.sh; tools/lab/mma/offline/stubs.h and the few
# stand-ins below replace the builtins clang has no library for), linked down to the kernel,
# lowered to PTX and assembled by ptxas for sm_90: so every inline-PTX statement and operand is
# checked by NVIDIA's assembler, and the registers and spills show (clang's, not NVIDIA's OpenCL
# compiler's: a hint). Then tools/lab/h200/attention_mma_prims_check.c runs the emulated
# primitives (MMA_EMULATE 1, what ctest's test_attention runs the kernel with on PoCL and
# Oclgrind) on the default OpenCL device against the matrix-unit lab's transcription of the PTX
# ISA (tools/lab/mma/ptx_model.c).
# Exit status 0 when every configuration assembles and every emulated register matches.
set -u -o pipefail
root=$(pwd)
work=${1:-/tmp/attention_mma_offline}
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
cat cl/common.cl cl/join.clh cl/attention_common.clh cl/attention_mma_prims.clh cl/attention_mma_nv.cl \
  >"$work/attention_mma_nv.cl"
cat >"$work/stubs2.h" <<'STUBS'
#define get_num_groups(d) ((size_t)__nvvm_read_ptx_sreg_nctaid_x())
#define isfinite(x) ((x) - (x) == 0.0f)
#define log(x) (__nvvm_lg2_approx_f(x) * 0.69314718f)
#define log2(x) __nvvm_lg2_approx_f(x)
#define fmax(a, b) __nvvm_fmax_f(a, b)
STUBS
failed=0
check() { # label, -D values
  local label=$1 base=$work/$1
  shift
  if ! offline_ptx "$base" "$work/attention_mma_nv.cl" attention_mma 8.0 -include "$work/stubs2.h" \
    -DOCF_KERNEL_attention_mma -DMMA_EMULATE=0 "$@"; then
    printf '%-34s %s: %s\n' "$label" "$offline_stage" "$(offline_error "$base")"
    failed=1
    return
  fi
  # ptxas holds static local memory to 48 KiB, where NVIDIA's OpenCL driver runs more (the
  # planner declares more only with mma.local=1, after the matrix-unit probe ran that much):
  # the array is declared 48 KiB for ptxas (the instructions are the same text).
  if ! offline_ptxas_48k "$base" sm_90 ""; then
    printf '%-34s ptxas: %s\n' "$label" "$(offline_error "$base")"
    failed=1
    return
  fi
  local note=""
  if [ "$offline_fitted" = 1 ]; then note=" (smem declared 48 KiB for ptxas)"; fi
  printf '%-34s ok  %s, %s, %s%s; %s mma, %s ldmatrix, %s cp.async, %s shfl\n' "$label" \
    "$(grep -o 'Used [0-9]* registers' "$base.ptxas.log" | head -n1)" \
    "$(grep -o '[0-9]* bytes spill stores' "$base.ptxas.log" | head -n1)" \
    "$(grep -o '[0-9]* bytes smem' "$base.ptxas.log" | head -n1)" "$note" \
    "$(grep -c 'mma.sync' "$base.ptx")" \
    "$(grep -c 'ldmatrix' "$base.ptx")" "$(grep -c 'cp.async.cg' "$base.ptx")" \
    "$(grep -c 'shfl.sync' "$base.ptx")"
}
call() { # dtype out_dtype causal lengths lse [pack]
  echo "-DMMA_DTYPE=$1 -DQ_DTYPE=$1 -DK_DTYPE=$1 -DV_DTYPE=$1 -DOUT_DTYPE=$2 -DCAUSAL=$3" \
    "-DHAS_LENGTHS=$4 -DHAS_LSE=$5 -DPRECISION=0 -DJOIN=0 -DPACK=${6:-0}"
}
shape() { # warps rows q_local stages bk [remat] [key warps]
  echo "-DWARPS=$1 -DROWS=$2 -DQ_LOCAL=$3 -DSTAGES=$4 -DBK=$5 -DREMAT=${6:-1} -DKW=${7:-1}"
}
# The H200's defaults (48 KiB: bk 32 at d 128, 64 at d 64), then masks and out types, the
# element-load path, 8 warps, d 16 and 112 (a padded 100); then the shapes beyond 48 KiB that
# mma.local, mma.stages, mma.rows and mma.q_local give, with mma.remat=1 (name: w warps, r rows
# a warp, bk, s3 three stages, ql Q from local memory, remat: the default's shape with it), and
# grouped heads packed (pack), key warps (kw).
# shellcheck disable=SC2046
{
  check bf16_d128_w4_bk32 -DD=128 $(shape 4 16 0 2 32 0) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_bk32_causal_lse -DD=128 $(shape 4 16 0 2 32 0) -DKV_LOAD=16 $(call 2 0 1 1 1)
  check f16_d128_w4_bk32 -DD=128 $(shape 4 16 0 2 32 0) -DKV_LOAD=16 $(call 1 1 0 0 0)
  check bf16_d64_w4_bk64 -DD=64 $(shape 4 16 0 2 64 0) -DKV_LOAD=16 $(call 2 2 1 0 0)
  check f16_d64_w4_bk64_load0 -DD=64 $(shape 4 16 0 2 64 0) -DKV_LOAD=0 $(call 1 0 0 1 1)
  check bf16_d128_w8_bk32 -DD=128 $(shape 8 16 0 2 32 0) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d16_w1_bk64 -DD=16 $(shape 1 16 0 2 64 0) -DKV_LOAD=16 $(call 2 0 0 0 0)
  check f16_d112_w4_bk32 -DD=112 $(shape 4 16 0 2 32 0) -DKV_LOAD=0 $(call 1 1 1 0 1)
  check bf16_d128_w4_bk32_remat -DD=128 $(shape 4 16 0 2 32) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_bk64 -DD=128 $(shape 4 16 0 2 64) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_bk64_causal_lse -DD=128 $(shape 4 16 0 2 64) -DKV_LOAD=16 $(call 2 0 1 1 1)
  check bf16_d128_w4_bk64_s3 -DD=128 $(shape 4 16 0 3 64) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_r32_bk32 -DD=128 $(shape 4 32 0 2 32) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_r32_bk32_ql -DD=128 $(shape 4 32 1 2 32) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_r32_bk64 -DD=128 $(shape 4 32 0 2 64) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_r32_bk64_ql -DD=128 $(shape 4 32 1 2 64) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d128_w4_r32_bk64_ql_causal_lse -DD=128 $(shape 4 32 1 2 64) -DKV_LOAD=16 \
    $(call 2 0 1 1 1)
  check f16_d128_w4_r32_bk64_ql -DD=128 $(shape 4 32 1 2 64) -DKV_LOAD=16 $(call 1 1 0 0 0)
  check bf16_d128_w4_r32_bk64_ql_s3 -DD=128 $(shape 4 32 1 3 64) -DKV_LOAD=16 $(call 2 2 0 0 0)
  check bf16_d64_w4_r32_bk64 -DD=64 $(shape 4 32 0 2 64) -DKV_LOAD=16 $(call 2 2 1 0 0)
  check bf16_d64_w4_r32_bk64_s3 -DD=64 $(shape 4 32 0 3 64) -DKV_LOAD=16 $(call 2 2 1 0 0)
  # grouped heads packed (mma.pack: a key head's query heads share the blocks of rows)
  check bf16_d128_w1_bk64_pack -DD=128 $(shape 1 16 0 2 64 0) -DKV_LOAD=16 $(call 2 2 0 0 0 1)
  check f16_d128_w2_bk64_pack_causal_lse -DD=128 $(shape 2 16 0 2 64 0) -DKV_LOAD=16 \
    $(call 1 0 1 1 1 1)
  # key warps (mma.key_warps: warps that split each tile's keys for the same rows)
  check bf16_d128_w4_kw4_bk64_pack -DD=128 $(shape 4 16 0 2 64 0 4) -DKV_LOAD=16 $(call 2 2 0 0 0 1)
  check bf16_d128_w2_kw2_bk32 -DD=128 $(shape 2 16 0 2 32 0 2) -DKV_LOAD=16 $(call 2 0 1 1 1 0)
  check bf16_d64_w4_kw4_bk64_pack -DD=64 $(shape 4 16 0 2 64 0 4) -DKV_LOAD=16 $(call 2 2 0 0 0 1)
}
echo "== the emulation against the PTX ISA's fragments (default OpenCL device) =="
cc -std=c11 -O2 -Wall -Wextra -Werror -Itools/lab/mma tools/lab/h200/attention_mma_prims_check.c \
  tools/lab/mma/ptx_model.c -lOpenCL -lm -o "$work/prims_check" && "$work/prims_check" || failed=1
exit $failed
