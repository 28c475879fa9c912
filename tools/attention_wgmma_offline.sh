#!/bin/bash
# attention_wgmma_offline.sh: attention_wgmma's program (cl/attention_wgmma_nv.cl) checked without
# the GPU, as tools/wgmma_offline.sh checks the GEMM's: assembled as the library assembles it,
# compiled by clang-14 for NVPTX, its `// SM90A ` lines substituted, ptxas for sm_90a without
# spills (attention_wgmma, its split and join), in each tile (BK 64, 128), head dim (D 64, 128)
# and type (f16, bf16), with the masks
# and lse on in half of them:   tools/attention_wgmma_offline.sh [WORKDIR]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/attention_wgmma_offline}
# the program's files as CMakeLists.txt lists them (as wgmma_offline.sh finds the GEMM's)
sources=$(sed -n 's/^ *"attention_wgmma_nv: \(.*\)"$/\1/p' "$root/CMakeLists.txt")
[ -n "$sources" ] ||
  { echo "attention_wgmma_offline.sh: no attention_wgmma_nv program in CMakeLists.txt"; exit 1; }
failed=0
for bk in 64 128; do
  for d in 64 128; do
    for dt in 1 2; do
      masks="-DHAS_LENGTHS=$((bk == 64)) -DCAUSAL=$((dt == 2)) -DHAS_LSE=$((d == 128))"
      types="-DBK=$bk -DD=$d -DMMA_DTYPE=$dt -DMMA_EMULATE=0 -DQ_DTYPE=$dt -DK_DTYPE=$dt
        -DV_DTYPE=$dt -DOUT_DTYPE=$((3 - dt)) -DTMA_WAIT_LIMIT=0 -DTMA_STAGES=$((2 + (bk == 64)))"
      SOURCES="$sources" KERNELS="attention_wgmma attention_wgmma_split attention_wgmma_join" \
        bash "$root/tools/wgmma_offline.sh" "$work/bk$bk-d$d-t$dt" $types -DTMA=0 -DPINGPONG=0 \
        -DPIPE=$((bk + d < 256)) $masks || failed=1
      # the TMA-fed program, as is, with the P V overlap and the warpgroups' turns, and with key
      # ranges: the producer warp's 288 work-items leave a consumer 224 registers (the plan's cap)
      for pp in "-DPIPE=0 -DPINGPONG=0 -DTMA_SPLIT=0" "-DPIPE=1 -DPINGPONG=1 -DTMA_SPLIT=0" \
        "-DPIPE=0 -DPINGPONG=0 -DTMA_SPLIT=1"; do
        # shellcheck disable=SC2086
        OFFLINE_REGISTERS=224 SOURCES="$sources" KERNELS="attention_wgmma_tma" \
          bash "$root/tools/wgmma_offline.sh" \
          "$work/tma-bk$bk-d$d-t$dt" $types -DTMA=1 $pp $masks ||
          failed=1
      done
    done
  done
done
exit $failed
