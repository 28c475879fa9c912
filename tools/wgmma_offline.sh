#!/bin/bash
# wgmma_offline.sh: the library's wgmma program checked without the GPU, from the repo root:
#   tools/wgmma_offline.sh [WORKDIR] [-DNAME=value ...]     (default: the built-in H200 plans)
# Assembles the program as the library does (cl/common.cl, cl/wgmma_asm.clh, then
# cl/matmul_wgmma_nv.cl), compiles it with clang-14 for NVPTX (tools/offline_lib.sh;
# tools/lab/mma/offline/stubs.h stands in for the OpenCL builtins), checks that the `// SM90A `
# lines came out with their operands substituted, assembles the PTX as it is for sm_90 (the wgmma
# lines are comments) and, retargeted as src/ptx_retarget.c does (prefix stripped, .target
# sm_90a), for sm_90a with ptxas -v: syntax, registers, spills. The register counts are clang's,
# not NVIDIA's OpenCL compiler's.
# Exit status 0 when every configuration assembled for sm_90a without spills.
set -u -o pipefail
root=$(pwd)
work=${1:-/tmp/wgmma_offline}
shift || true
mkdir -p "$work"
# shellcheck source=tools/offline_lib.sh
. "$root/tools/offline_lib.sh"
if [ $# -gt 0 ]; then
  configs=("$*")
elif [ "${OFFLINE_SET:-}" = persistent ]; then
  # the persistent forms (PERSIST 1: matmul_wgmma_tma's and stream-K's, two consumers, as the
  # plans run them under OFFLINE_REGISTERS=224) and three consumers' (KERNELS=matmul_wgmma_tma,
  # CONSUMERS=3, OFFLINE_REGISTERS=168: on 2026-12-07 the first configuration spilled 20 bytes
  # there, the others none; clang's PTX, not NVIDIA's; no plan takes that form since the
  # forty-seventh session: three consumers lost persistent), every mode, both epilogues, 16-bit
  # C, a bias
  p="-DGROUP_M=8 -DTMA_WAIT_LIMIT=0 -DPERSIST=1 -DCONSUMERS=${CONSUMERS:-2}"
  deep=4 # the ring a plan of 128 x 256 tiles keeps beside the areas; three consumers' 3
  [ "${CONSUMERS:-2}" = 3 ] && deep=3
  configs=("-DAB_DTYPE=2 -DTRANS_B=0 -DBN=256 -DSTAGES=$deep -DC_STAGE=1 -DC_DTYPE=2 -DACTIVATION=0 -DBIAS=0 -DBIAS_DTYPE=0 $p"
    "-DAB_DTYPE=0 -DTRANS_B=1 -DBN=256 -DSTAGES=$deep -DC_STAGE=0 -DC_DTYPE=0 -DACTIVATION=0 -DBIAS=0 -DBIAS_DTYPE=0 $p"
    "-DAB_DTYPE=1 -DTRANS_B=1 -DBN=192 -DSTAGES=4 -DC_STAGE=1 -DC_DTYPE=1 -DACTIVATION=2 -DBIAS=1 -DBIAS_DTYPE=2 $p"
    "-DAB_DTYPE=2 -DTRANS_B=1 -DBN=256 -DSTAGES=3 -DC_STAGE=0 -DC_DTYPE=0 -DACTIVATION=3 -DBIAS=2 -DBIAS_DTYPE=1 $p")
else # the built-in plans: 128 x 256 tiles in 4 stages, every mode and B layout, two epilogues,
  # and the other tiles
  plain="-DC_DTYPE=0 -DACTIVATION=0 -DBIAS=0 -DBIAS_DTYPE=0 -DTMA_WAIT_LIMIT=0 -DC_STAGE=0 -DPERSIST=0"
  h200="-DBN=256 -DCONSUMERS=2 -DSTAGES=4 -DGROUP_M=8 $plain"
  configs=("-DAB_DTYPE=2 -DTRANS_B=0 $h200" "-DAB_DTYPE=2 -DTRANS_B=1 $h200"
    "-DAB_DTYPE=1 -DTRANS_B=0 $h200" "-DAB_DTYPE=1 -DTRANS_B=1 $h200"
    "-DAB_DTYPE=0 -DTRANS_B=1 $h200"
    "-DAB_DTYPE=2 -DTRANS_B=0 -DBN=256 -DCONSUMERS=2 -DSTAGES=4 -DGROUP_M=8 -DC_DTYPE=2 -DACTIVATION=3 -DBIAS=1 -DBIAS_DTYPE=1 -DTMA_WAIT_LIMIT=0 -DC_STAGE=0 -DPERSIST=0"
    "-DAB_DTYPE=0 -DTRANS_B=1 -DBN=256 -DCONSUMERS=2 -DSTAGES=4 -DGROUP_M=8 -DC_DTYPE=1 -DACTIVATION=2 -DBIAS=2 -DBIAS_DTYPE=2 -DTMA_WAIT_LIMIT=0 -DC_STAGE=0 -DPERSIST=0"
    "-DAB_DTYPE=2 -DTRANS_B=0 -DBN=128 -DCONSUMERS=2 -DSTAGES=6 -DGROUP_M=8 $plain"
    "-DAB_DTYPE=2 -DTRANS_B=0 -DBN=192 -DCONSUMERS=2 -DSTAGES=5 -DGROUP_M=8 $plain"
    "-DAB_DTYPE=2 -DTRANS_B=1 -DBN=256 -DCONSUMERS=1 -DSTAGES=4 -DGROUP_M=8 $plain"
    "-DAB_DTYPE=2 -DTRANS_B=0 $h200 -UC_STAGE -DC_STAGE=1 -UC_DTYPE -DC_DTYPE=2"
    "-DAB_DTYPE=1 -DTRANS_B=0 -DBN=192 -DCONSUMERS=2 -DSTAGES=5 -DGROUP_M=8 -DC_DTYPE=1 -DACTIVATION=3 -DBIAS=2 -DBIAS_DTYPE=1 -DTMA_WAIT_LIMIT=0 -DC_STAGE=1 -DPERSIST=0"
    "-DAB_DTYPE=0 -DTRANS_B=1 $h200 -UC_STAGE -DC_STAGE=1"
    "-DAB_DTYPE=2 -DTRANS_B=0 $h200 -UC_STAGE -DC_STAGE=1 -UC_DTYPE -DC_DTYPE=2 -UPERSIST -DPERSIST=1"
    "-DAB_DTYPE=0 -DTRANS_B=1 $h200 -UPERSIST -DPERSIST=1"
    "-DAB_DTYPE=1 -DTRANS_B=1 $h200 -UC_STAGE -DC_STAGE=1 -UPERSIST -DPERSIST=1 -UBIAS -DBIAS=1")
fi
# The program's files (SOURCES, from cl/; default the GEMM's, as CMakeLists.txt lists them): the
# attention program is
#   SOURCES="common.cl attention_common.clh attention_mma_prims.clh attention_wgmma_asm.clh
#   mbarrier.clh attention_wgmma_nv.cl attention_wgmma_tma.clh" KERNELS=attention_wgmma
#   tools/wgmma_offline.sh /tmp/awg -DBK=128 ...
gemm_sources=$(sed -n 's/^ *"matmul_wgmma_nv: \(.*\)"$/\1/p' "$root/CMakeLists.txt")
sources=${SOURCES:-$gemm_sources}
[ -n "$sources" ] ||
  { echo "no matmul_wgmma_nv program in CMakeLists.txt's OCLFUSE_PROGRAMS"; exit 1; }
for f in $sources; do cat "$root/cl/$f"; done >"$work/program.cl"
# The kernels of the program: KERNELS (default matmul_wgmma and its TMA-fed form
# matmul_wgmma_tma; "matmul_wgmma_split matmul_wgmma_reduce" is the split-K plan's program, with
# matmul_wgmma_tma_split for its TMA-fed form; "matmul_wgmma_lw_split matmul_wgmma_lw" the last-wave split's;
# "matmul_wgmma_tma_sk" stream-K's, with -DPERSIST=1 and one or two consumers). Registers and spills are printed
# for each entry.
kernels=${KERNELS:-matmul_wgmma matmul_wgmma_tma}
kernel_defines=$(for k in $kernels; do printf -- '-DOCF_KERNEL_%s ' "$k"; done)
kernel_list=$(echo $kernels | tr ' ' ',')
failed=0
i=0
for opts in "${configs[@]}"; do
  i=$((i + 1))
  base=$work/k$i
  # shellcheck disable=SC2086
  if ! offline_ptx "$base" "$work/program.cl" "$kernel_list" 9.0 $kernel_defines $opts; then
    echo "[$opts] $offline_stage: $(offline_error "$base")"
    failed=1
    continue
  fi
  # for sm_90 the wgmma lines are comments; ptxas there caps static local memory at 48 KiB,
  # which NVIDIA's OpenCL does not (the lab ran 193 KiB): that refusal is expected
  sm90=$("$offline_ptxas" -arch=sm_90 "$base.ptx" -o "$base.sm90.cubin" 2>&1 | grep -i error |
    grep -vc 'too much shared data')
  offline_sm90a "$base"
  lines=$(grep -c 'wgmma.mma_async' "$base.a.ptx")
  unsub=$(grep 'wgmma' "$base.a.ptx" | grep -c '%[0-9]')
  if ! offline_ptxas "$base" sm_90a "$base.a.ptx"; then
    echo "[$opts] ptxas sm_90a: $(offline_error "$base")"
    failed=1
    continue
  fi
  regs=$(awk '/Compiling entry function/ { name = $7; gsub("\047", "", name) }
    /Used [0-9]+ registers/ { printf "%s%s %s registers", sep, name, $5; sep = ", " }' \
    "$base.ptxas.log")
  spill="$(grep -o '[0-9]* bytes spill stores' "$base.ptxas.log" |
    awk '{ s += $1 } END { print s + 0 }') bytes spill stores"
  smem=$(grep -o '[0-9]* bytes smem' "$base.ptxas.log" | head -n1)
  warn=$(grep -c -i 'warning' "$base.ptxas.log")
  echo "[$opts] sm_90: $sm90 errors (shared-memory cap aside); sm_90a: $regs, $spill, $smem, $lines wgmma, $unsub unsubstituted, $warn warnings"
  if [ "$unsub" != 0 ] || [ "$lines" = 0 ] || [ "${spill%% *}" != 0 ] || [ "$warn" != 0 ]; then
    failed=1
  fi
done
exit $failed
