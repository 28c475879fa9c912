#!/bin/bash
# lanes_offline.sh: attention_lanes (cl/attention_lanes.cl) checked without the GPU, from the repo
# root:   tools/lanes_offline.sh [WORKDIR]
# Assembles the program from the files CMakeLists.txt lists for it, as the library does, and
# builds the kernel attention_lanes for each configuration below (every define the planner
# passes, src/plan/plan_attention_lanes.c): the ring of bulk copies (BULK 1: bf16 with both refill
# orders, joined in the kernel with PTX fences, JOIN 2, grouped heads in row groups, f16, fp32,
# d 64, the masks and lse on) and the register form (BULK 0, with AHEAD and in row groups). Each
# goes through clang-14 for NVPTX (OpenCL C 1.2, by tools/offline_lib.sh; the builtins clang has
# no library for are replaced by tools/lab/mma/offline/stubs.h, tools/offline_builtins.h's exp2,
# fma, vload_half2 and the join's atomics as PTX's own, and the vector stand-ins below), down to
# the kernel, to PTX, and through ptxas for sm_90: every inline-PTX statement (cp.async.bulk, the
# mbarriers, the shuffles, the fences) and its operands go through NVIDIA's assembler, and the
# registers, spills and stack show (a stack without spills is printed, not failed). They are
# clang's, not NVIDIA's OpenCL compiler's: a hint (the GPU run prints NVIDIA's own with
# -cl-nv-verbose). What it cannot check: the numbers (PoCL runs the register form with SHUFFLE 0;
# test_attention_lanes_bulk the ring on an H100 or H200), nor NVIDIA's own compiler's register
# allocation. ptxas refuses static local memory above 48 KiB, which NVIDIA's OpenCL runs: a
# larger ring is declared what is left of 48 KiB for ptxas (the instructions are the same text),
# and the line gives the kernel's whole local memory.
# Prints one line per configuration; exit status 0 when every one assembled without spills.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/lanes_offline}
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
rm -rf "$work" && mkdir -p "$work"
# The program's files, in the library's order (CMakeLists.txt, OCLFUSE_PROGRAMS).
files=$(sed -n 's/^ *"attention_lanes: \([^"]*\)".*/\1/p' "$root/CMakeLists.txt")
if [ -z "$files" ]; then
  echo "lanes_offline: no attention_lanes program in $root/CMakeLists.txt"
  exit 1
fi
for f in $files; do cat "$root/cl/$f" || exit 1; done >"$work/attention_lanes.cl"
cat >"$work/vectors.h" <<'STUBS'
/* What attention_lanes calls beyond tools/lab/mma/offline/stubs.h and tools/offline_builtins.h:
   stand-ins with the right types, element by element. */
static inline float8 __attribute__((overloadable, always_inline))
ocf_x_vl8(size_t i, const __private float *p) {
  p += 8 * i;
  return (float8)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
}
static inline float4 __attribute__((overloadable, always_inline))
ocf_x_vl4(size_t i, const __private float *p) {
  p += 4 * i;
  return (float4)(p[0], p[1], p[2], p[3]);
}
static inline float4 __attribute__((overloadable, always_inline))
ocf_x_vl4(size_t i, __global const float *p) {
  p += 4 * i;
  return (float4)(p[0], p[1], p[2], p[3]);
}
static inline void __attribute__((overloadable, always_inline))
ocf_x_vs8(float8 x, size_t i, __local float *p) {
  p += 8 * i;
  p[0] = x.s0, p[1] = x.s1, p[2] = x.s2, p[3] = x.s3;
  p[4] = x.s4, p[5] = x.s5, p[6] = x.s6, p[7] = x.s7;
}
static inline void __attribute__((overloadable, always_inline))
ocf_x_vs4(float4 x, size_t i, __local float *p) {
  p += 4 * i;
  p[0] = x.s0, p[1] = x.s1, p[2] = x.s2, p[3] = x.s3;
}
static inline float __attribute__((always_inline)) ocf_x_dot4(float4 a, float4 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
#define vload8(i, p) ocf_x_vl8(i, p)
#define vload4(i, p) ocf_x_vl4(i, p)
#define vstore8(x, i, p) ocf_x_vs8(x, i, p)
#define vstore4(x, i, p) ocf_x_vs4(x, i, p)
#define dot(a, b) ocf_x_dot4(a, b)
STUBS
failed=0
check() { # label, -D values
  local label=$1 base=$work/$1
  shift
  if ! offline_ptx "$base" "$work/attention_lanes.cl" attention_lanes 8.0 -DOCF_OFFLINE_EXP2_FMA \
    -DOCF_OFFLINE_VLOAD_HALF2 -DOCF_OFFLINE_ATOMICS -include "$work/vectors.h" \
    -DOCF_KERNEL_attention_lanes "$@"; then
    printf '%-24s %s: %s\n' "$label" "$offline_stage" "$(offline_error "$base")"
    failed=1
    return
  fi
  # The ring's declared size, and what the other local arrays leave of ptxas's 48 KiB.
  local ring others shrunk=0
  ring=$(sed -n 's/^[[:space:]]*[.]shared .*_ring_chunks[[]\([0-9]*\)[]];/\1/p' "$base.ptx")
  others=$(sed -n '/_ring_chunks[[]/!s/^[[:space:]]*[.]shared .*[[]\([0-9]*\)[]];/\1/p' \
    "$base.ptx" | awk '{t += $1} END {print t + 0}')
  if [ -n "$ring" ] && [ $((ring + others)) -gt 49152 ]; then
    shrunk=$(((49152 - others - 64) / 16 * 16)) # 64: the arrays' alignment padding
    sed -i -E "s/^([[:space:]]*[.]shared .*_ring_chunks)[[][0-9]+[]];/\1[$shrunk];/" "$base.ptx"
  fi
  if ! offline_ptxas "$base" sm_90; then
    printf '%-24s ptxas: %s\n' "$label" "$(offline_error "$base")"
    failed=1
    return
  fi
  # ptxas -v: the kernel's registers, stack frame and shared memory; the spills of every
  # function (a join's helper may stay a call).
  local regs spill stack smem note=""
  regs=$(grep -o 'Used [0-9]* registers' "$base.ptxas.log" | grep -o '[0-9]*')
  spill=$(grep -o '[0-9]* bytes spill stores' "$base.ptxas.log" | awk '{t += $1} END {print t}')
  stack=$(grep -A1 'Function properties for attention_lanes$' "$base.ptxas.log" |
    grep -o '[0-9]* bytes stack frame' | grep -o '^[0-9]*')
  smem=$(grep -o '[0-9]* bytes smem' "$base.ptxas.log" | grep -o '^[0-9]*')
  if [ "$shrunk" != 0 ]; then
    note=" (ring $ring, declared $shrunk for ptxas)"
    smem=$((smem - shrunk + ring))
  fi
  printf '%-24s ok  %3s registers, %s bytes spill stores, %s bytes stack (%s local accesses), %s bytes smem%s; %s bulk, %s try_wait, %s shfl, %s fence.acq_rel, %s atom\n' \
    "$label" "$regs" "$spill" "$stack" "$(grep -c '\(ld\|st\)\.local' "$base.ptx")" "$smem" "$note" \
    "$(grep -c 'cp\.async\.bulk\.shared' "$base.ptx")" "$(grep -c 'mbarrier\.try_wait' "$base.ptx")" \
    "$(grep -c 'shfl\.sync' "$base.ptx")" "$(grep -c 'fence\.acq_rel' "$base.ptx")" \
    "$(grep -c 'atom\.global' "$base.ptx")"
  if [ "${spill:-1}" != 0 ]; then failed=1; fi
}
# A configuration's defines: every one of lanes_defines (src/kernels/attention.c). Arguments:
# dtype (q, k, v, out: 0 f32, 1 f16, 2 bf16) d wg seg rowg rb vec unroll ahead join bulk stages
# bulk_keys refill_before [masks: HAS_LENGTHS, CAUSAL and HAS_LSE].
cfg() {
  echo "-DQ_DTYPE=$1 -DK_DTYPE=$1 -DV_DTYPE=$1 -DOUT_DTYPE=$1 -DD=$2 -DWG=$3 -DSEG=$4 -DROWG=$5" \
    "-DRB=$6 -DVEC=$7 -DUNROLL=$8 -DAHEAD=$9 -DSHUFFLE=1 -DJOIN=${10} -DBULK=${11}" \
    "-DSTAGES=${12} -DBULK_KEYS=${13} -DREFILL_BEFORE=${14} -DHAS_LENGTHS=${15:-0}" \
    "-DCAUSAL=${15:-0} -DHAS_LSE=${15:-0}"
}
# The ring: whole steps a tile (BULK_KEYS a multiple of WG / ROWG / SEG x UNROLL), 16-byte chunks
# (VEC 8 of 16-bit, 4 of fp32), warp shuffles, no AHEAD. The register form: no ring.
# shellcheck disable=SC2046
{
  check bulk_bf16_refill0 $(cfg 2 128 128 8 1 1 8 2 0 0 1 4 64 0)
  check bulk_bf16_refill1 $(cfg 2 128 128 8 1 1 8 2 0 0 1 4 64 1)
  check bulk_bf16_join2_refill0 $(cfg 2 128 128 8 1 1 8 2 0 2 1 4 64 0)
  check bulk_bf16_join2_refill1 $(cfg 2 128 128 8 1 1 8 2 0 2 1 4 64 1)
  check bulk_bf16_rowg4_wg512 $(cfg 2 128 512 8 4 4 8 2 0 0 1 4 64 0)
  check bulk_bf16_rowg4_wg256 $(cfg 2 128 256 8 4 4 8 2 0 0 1 4 64 0)
  check bulk_f16 $(cfg 1 128 128 8 1 1 8 2 0 0 1 4 64 0)
  check bulk_f32_unroll4 $(cfg 0 128 128 16 1 1 4 4 0 0 1 3 64 0)
  check bulk_f32_unroll1 $(cfg 0 128 128 16 1 1 4 1 0 0 1 3 32 0)
  check bulk_bf16_d64 $(cfg 2 64 128 4 1 1 8 2 0 0 1 4 64 0)
  check bulk_bf16_masks_join2 $(cfg 2 128 128 8 1 1 8 2 0 2 1 4 64 0 1)
  check regs_bf16_ahead $(cfg 2 128 128 8 1 1 8 2 1 0 0 0 0 0)
  check regs_bf16_rowg2_rb4 $(cfg 2 128 128 8 2 4 8 2 0 0 0 0 0 0)
}
exit $failed
