#!/bin/bash
# few_offline.sh: the 16-bit few-row programs checked without the GPU, from the repo root:
#   tools/few_offline.sh [WORKDIR]
# Assembles cl/matmul_few_mma.cl (after cl/common.cl, cl/attention_mma_prims.clh, the PTX
# primitives: MMA_EMULATE 0, and cl/skinny_epilogue.clh) and cl/matmul_skinny.cl (after
# cl/common.cl, cl/join.clh and cl/skinny_epilogue.clh; its split and its joining split with
# PTX fences, JOIN 2) as the library does,
# compiles them with clang-14 for NVPTX (tools/offline_lib.sh; tools/lab/mma/offline/stubs.h
# stands in for the OpenCL builtins, tools/offline_builtins.h for the join's atomics, and
# vload_half4 here), assembles the PTX with ptxas for sm_90, and prints per plan: registers,
# spills, local-memory accesses, mma.sync count and the global loads by width. The register
# counts are clang's, not NVIDIA's OpenCL compiler's.
# What to see: matmul_few_mma's ld.global.v4 (16-byte loads of both operands) and no ld.local;
# matmul_skinny's 16-bit plans with X_VEC 1 load ld.global.u64 (8-byte words), not u16.
# Exit status 0 when every plan assembled without spills, and matmul_few_mma's without
# local-memory accesses (the fp16 skinny plan has 4, its reduction's, before this branch too).
set -u -o pipefail
root=$(pwd)
work=${1:-/tmp/few_offline}
mkdir -p "$work"
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
cat >"$work/vload_half4.h" <<'EOF'
/* vload_half4 of a private or global pointer, element by element through PTX cvt.f32.f16. */
static inline float4 __attribute__((overloadable, always_inline))
ocf_x_vlh4(size_t i, const __private half *p) {
  const __private ushort *u = (const __private ushort *)p;
  float a, b, c, d;
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(a) : "h"(u[4 * i]));
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(b) : "h"(u[4 * i + 1]));
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(c) : "h"(u[4 * i + 2]));
  __asm__("cvt.f32.f16 %0, %1;" : "=f"(d) : "h"(u[4 * i + 3]));
  return (float4)(a, b, c, d);
}
static inline float4 __attribute__((overloadable, always_inline))
ocf_x_vlh4(size_t i, __global const half *p) {
  return (float4)(vload_half(4 * i, p), vload_half(4 * i + 1, p), vload_half(4 * i + 2, p),
                  vload_half(4 * i + 3, p));
}
#define vload_half4(i, p) ocf_x_vlh4(i, p)
EOF
cat "$root/cl/common.cl" "$root/cl/attention_mma_prims.clh" "$root/cl/skinny_epilogue.clh" "$root/cl/matmul_few_mma.cl" \
  >"$work/few.cl"
cat "$root/cl/common.cl" "$root/cl/join.clh" "$root/cl/skinny_epilogue.clh" "$root/cl/matmul_skinny.cl" \
  >"$work/skinny.cl"
epi="-DC_DTYPE=0 -DBIAS_DTYPE=0 -DACTIVATION=0 -DBIAS=0"
few="-DWARPS=4 -DKW=1 -DNT=2 -DUNROLL=2 -DX_KCONT=1 -DV_KCONT=1 -DX_VEC=1 -DV_VEC=1 -DSPLIT=1 \
-DMMA_EMULATE=0 $epi"
sk="-DN_SMALL=1 -DWG=256 -DRL=8 -DUNROLL=2 -DX_KCONT=1 -DV_SCONT=1 -DPRECISION=0 -DWIDE=0 -DKC=32 \
-DSPLIT=1 -DJOIN=0 $epi"
plans=("few.cl matmul_few_mma_split -DN_SMALL=1 -DMMA_DTYPE=2 $few"
  "few.cl matmul_few_mma_split -DN_SMALL=16 -DMMA_DTYPE=2 $few"
  "few.cl matmul_few_mma_split -DN_SMALL=64 -DMMA_DTYPE=1 $few"
  "few.cl matmul_few_mma_split -DN_SMALL=16 -DMMA_DTYPE=2 ${few/-DKW=1/-DKW=2} -DNT=4"
  "skinny.cl matmul_skinny_split -DX_DTYPE=2 -DV_DTYPE=2 -DX_VEC=1 -DV_VEC=1 $sk"
  "skinny.cl matmul_skinny_split -DX_DTYPE=1 -DV_DTYPE=1 -DX_VEC=1 -DV_VEC=1 $sk"
  "skinny.cl matmul_skinny_join -DX_DTYPE=0 -DV_DTYPE=0 -DX_VEC=1 -DV_VEC=1 ${sk/-DJOIN=0/-DJOIN=2}")
failed=0
i=0
for plan in "${plans[@]}"; do
  i=$((i + 1))
  read -r file kernel opts <<<"$plan"
  base=$work/p$i
  # shellcheck disable=SC2086
  if ! offline_ptx "$base" "$work/$file" "$kernel" 8.0 -DOCF_OFFLINE_ATOMICS \
    -include "$work/vload_half4.h" -DOCF_KERNEL_$kernel $opts; then
    echo "[$kernel $opts] $offline_stage: $(offline_error "$base")"
    failed=1
    continue
  fi
  if ! offline_ptxas "$base" sm_90; then
    echo "[$kernel $opts] ptxas: $(offline_error "$base")"
    failed=1
    continue
  fi
  regs=$(grep -o 'Used [0-9]* registers' "$base.ptxas.log" | head -n1)
  spill=$(grep -o '[0-9]* bytes spill stores' "$base.ptxas.log" | head -n1)
  local=$(grep -c 'ld\.local\|st\.local' "$base.ptx")
  loads=$(grep -o 'ld\.global\.[a-z0-9.]*' "$base.ptx" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')
  echo "[$kernel$(echo " $opts" | grep -o ' -D\(N_SMALL\|MMA_DTYPE\|X_DTYPE\|KW\|NT\)=[0-9]*' | tr -d '\n')]" \
    "$regs, $spill, $local local accesses, $(grep -c 'mma.sync' "$base.ptx") mma.sync; ${loads%, }"
  if [ "${spill%% *}" != 0 ] || { [ "$file" = few.cl ] && [ "$local" != 0 ]; }; then failed=1; fi
done
exit $failed
