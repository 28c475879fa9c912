#!/bin/bash
# offline.sh: the decode lab's PTX path checked without the GPU, from the repo root:
#   tools/lab/decode/offline.sh [WORKDIR]
# Builds decode_bulk_nv.cl (BULK_EMULATE 0) for each configuration below with clang-14 for NVPTX
# (OpenCL C 1.2, by tools/offline_lib.sh; tools/lab/mma/offline/stubs.h and the exp2, fma and
# vload_half2 of tools/offline_builtins.h replace the builtins clang has no library for), links it
# down to the two kernels, lowers it to PTX and assembles that with ptxas for sm_90: every
# inline-PTX statement (cp.async.bulk, the mbarriers, the shuffles) and its operands go through
# NVIDIA's assembler, and the registers and spills show (clang's, not NVIDIA's OpenCL compiler's:
# a hint; the GPU run prints NVIDIA's own with -cl-nv-verbose). ptxas refuses static local memory
# above 48 KiB, which NVIDIA's OpenCL runs: such a ring is declared 48 KiB for ptxas (the
# instructions are the same text).
# Prints one line per configuration; exit status 0 when every one assembled without spills.
set -u -o pipefail
root=$(pwd)
src=$root/tools/lab/decode/decode_bulk_nv.cl
work=${1:-/tmp/decode_offline}
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
failed=0
check() { # label, -D values
  local label=$1 base=$work/$1
  shift
  if ! offline_ptx "$base" "$src" decode_bulk_split,decode_bulk_merge 8.0 -DOCF_OFFLINE_EXP2_FMA \
    -DOCF_OFFLINE_VLOAD_HALF2 -DBULK_EMULATE=0 -DMERGE_WG=128 -DMAX_RANGES=256 "$@"; then
    printf '%-36s %s: %s\n' "$label" "$offline_stage" "$(offline_error "$base")"
    failed=1
    return
  fi
  if ! offline_ptxas_48k "$base" sm_90 decode_bulk_split; then
    printf '%-36s ptxas: %s\n' "$label" "$(offline_error "$base")"
    failed=1
    return
  fi
  local note=""
  if [ "$offline_fitted" = 1 ]; then note=" (ring declared 48 KiB)"; fi
  # ptxas -v: "Compiling entry function 'X'", then its registers, spills and shared memory.
  local split merge
  split=$(awk '/entry function .decode_bulk_split/{f=1} /entry function .decode_bulk_merge/{f=0} f' \
    "$base.ptxas.log")
  merge=$(awk '/entry function .decode_bulk_merge/{f=1} /entry function .decode_bulk_split/{f=0} f' \
    "$base.ptxas.log")
  local regs spill smem mregs
  regs=$(grep -o 'Used [0-9]* registers' <<<"$split" | grep -o '[0-9]*')
  spill=$(grep -o '[0-9]* bytes spill stores' <<<"$split" | grep -o '^[0-9]*')
  smem=$(grep -o '[0-9]* bytes smem' <<<"$split" | grep -o '^[0-9]*')
  mregs=$(grep -o 'Used [0-9]* registers' <<<"$merge" | grep -o '[0-9]*')
  printf '%-36s ok  split: %3s registers, %s bytes spill stores, %s bytes smem%s; merge: %s registers; %s bulk, %s try_wait, %s shfl, %s ld.shared.v4\n' \
    "$label" "$regs" "$spill" "$smem" "$note" "$mregs" \
    "$(grep -c 'cp.async.bulk.shared' "$base.ptx")" "$(grep -c 'mbarrier.try_wait' "$base.ptx")" \
    "$(grep -c 'shfl.sync' "$base.ptx")" "$(grep -c 'ld.shared.v4' "$base.ptx")"
  if [ "${spill:-1}" != 0 ]; then failed=1; fi
}
cfg() { # dtype d group wg lpk bk stages [issue] [arrive] [join] [wait_limit] [proxy_fence]
  echo "-DDTYPE=$1 -DD=$2 -DGROUP=$3 -DWG=$4 -DLPK=$5 -DBK=$6 -DSTAGES=$7 -DISSUE=${8:-0}" \
    "-DARRIVE=${9:-0} -DJOIN=${10:-0} -DINIT_FENCE=1 -DPROXY_FENCE=${12:-0} -DWAIT_LIMIT=${11:-0}"
}
# The default sweep's configurations at d 128 (one query head a key head), LPK as decode_lab.c
# takes it (d / 16, raised to WG / BK where a tile has fewer keys than key groups).
for wg in 128 256; do
  for bk in 16 32 64; do
    lpk=8
    if [ $((wg / lpk)) -gt "$bk" ]; then lpk=$((wg / bk)); fi
    for st in 3 4 6; do
      # shellcheck disable=SC2046
      check "bf16_d128_wg${wg}_bk${bk}_st${st}" $(cfg 2 128 1 "$wg" "$lpk" "$bk" "$st")
    done
  done
done
# The other issuers, one arrival a warp, the trap on a lost phase, the join in the kernel, the
# proxy fence, f16, d 64, grouped heads.
# shellcheck disable=SC2046
{
  check "bf16_d128_wg128_bk32_st4_iss1" $(cfg 2 128 1 128 8 32 4 1)
  check "bf16_d128_wg128_bk32_st4_iss2" $(cfg 2 128 1 128 8 32 4 2)
  check "bf16_d128_wg256_bk64_st4_iss2" $(cfg 2 128 1 256 8 64 4 2)
  check "bf16_d128_wg128_bk32_st4_arr1" $(cfg 2 128 1 128 8 32 4 0 1)
  check "bf16_d128_wg128_bk32_st4_trap" $(cfg 2 128 1 128 8 32 4 0 0 0 4194304)
  check "bf16_d128_wg128_bk32_st4_join" $(cfg 2 128 1 128 8 32 4 0 0 1)
  check "bf16_d128_wg128_bk32_st4_pfence" $(cfg 2 128 1 128 8 32 4 0 0 0 0 1)
  check "bf16_d128_wg128_bk32_st4_iss2_join" $(cfg 2 128 1 128 8 32 4 2 0 1)
  check "bf16_d128_g4_wg128_bk32_st4_join" $(cfg 2 128 4 128 8 32 4 0 0 1)
  check "bf16_d128_wg128_bk32_st4_lpk4" $(cfg 2 128 1 128 4 32 4)
  check "bf16_d128_wg128_bk32_st4_lpk16" $(cfg 2 128 1 128 16 32 4)
  check "f16_d128_wg128_bk32_st4" $(cfg 1 128 1 128 8 32 4)
  check "bf16_d64_wg128_bk32_st4" $(cfg 2 64 1 128 4 32 4)
  check "bf16_d64_wg128_bk16_st4" $(cfg 2 64 1 128 8 16 4)
  check "bf16_d128_g4_wg128_bk32_st4" $(cfg 2 128 4 128 8 32 4)
  check "bf16_d128_g4_wg256_bk64_st4" $(cfg 2 128 4 256 8 64 4)
}
exit $failed
