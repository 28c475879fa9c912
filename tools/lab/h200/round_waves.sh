#!/bin/bash
# Mid-size fp32 GEMM and the waves (issue 22: 1000^3 at 0.67 of cuBLAS, 1500^3 at 0.58, 2000^3
# at 0.72). Set 0's 128 x 128 tiles, two workgroups a compute unit (max_regs 128), give 1500^3
# 144 workgroups on 132 compute units: 12 of them run two and the rest one, so the call lasts two
# tiles' time for 1.09 tiles of work. The hypothesis: K split so that the workgroups make nearly
# whole waves beats both the unsplit set 0 and set 1's smaller tiles there. The tunables force
# it without a code change (ragged_gemm_time.c's tuning argument, every config on every shape),
# and tiled.wave_min is the rule that does it; tiled.min_eff 75 moves few-row products of 64
# rows off 128-row tiles that are half empty. cuBLAS fp32 in the same call (gemm_peers.py).
# About four minutes after the build.
#   source .gpu/env.sh && OUT=$OUT/waves bash tools/lab/h200/round_waves.sh
# B names a built tree (default /tmp/b, built here when missing); CONFIGS "name=tuning;..." and
# SHAPES (lines of "m n k") replace the defaults.
set -u
out=${OUT:-/tmp/waves}
mkdir -p "$out"
b=${B:-/tmp/b}
. tools/lab/h200/ragged_time_build.sh
ragged_time_build /tmp/rg_waves
IFS=';' read -r -a configs <<<"${CONFIGS:-shipped=;set1=tiled.fill=4 tiled.split_k_min=0;s2=tiled.fill=2 tiled.split_fill=2 tiled.split_k_min=128;s4=tiled.fill=4 tiled.split_fill=4 tiled.split_k_min=128;wave85=tiled.wave_min=85 tiled.wave_k_min=128;wave75=tiled.wave_min=75 tiled.wave_k_min=256;eff75=tiled.min_eff=75 tiled.wave_min=85 tiled.wave_k_min=128}"
shapes=${SHAPES:-"768 768 768
1000 1000 1000
1024 1024 1024
1280 1280 1280
1500 1500 1500
1536 1536 1536
2000 2000 2000
2048 2048 2048
2500 2500 2500
3000 3000 3000
1024 4096 1024
4096 1024 1024
1024 1024 4096
32 4096 4096
64 4096 4096
96 4096 4096
128 4096 4096
64 11008 4096"}
: >"$out/peers_in.txt"
while read -r m n k; do
  [ -z "$m" ] && continue
  echo "f32 0 $m $n $k" >>"$out/peers_in.txt"
  for c in "${configs[@]}"; do
    tune=${c#*=}
    OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_waves timeout 40 /tmp/rg_waves "${c%%=*}" 0 0 "$m" "$n" "$k" 0 0 0 0 ${tune:+"$tune"} |
      cut -c1-600 || echo "rc $? $c $m $n $k"
  done
done <<<"$shapes" | tee "$out/times.txt"
timeout 120 python3 tools/lab/h200/gemm_peers.py "$out/peers_in.txt" 2>&1 | tee "$out/peers.txt"
