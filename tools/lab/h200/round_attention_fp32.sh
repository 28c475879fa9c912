#!/bin/bash
# fp32 attention on the matrix units (issue 21: "fp32 at or above efficient"): attention_mma with
# fp32 Q, K and V in TF32 parts (ocf_attention_options.precision 3XTF32 / TF32) against the
# shipped FP32 plan (attention_block) and SDPA's efficient kernel (3XTF32 itself on sm_80+), in
# one device call of about 5 minutes:
#   1. builds (Release, /tmp/b_af) and tools/lab/h200/library_attention_time.c;
#   2. test_attention's matrix-unit suites (OCFT_ONLY, default test_attention_mma*: the fp32
#      cases force mma.on=2, which on NVIDIA is the PTX) against the double reference;
#   3. times each configuration (prec= and tune=, CONFIGS) on the fp32 shapes (SHAPES), with the
#      plan and a check of sampled rows ("ok" under 1);
#   4. efficient and math through torch SDPA on the same shapes (PEERS=0 skips);
#   5. each attention_mma program the timings built, assembled by ptxas -v for sm_90 (Triton's
#      copy): registers and spills a kernel (PTXAS=0 skips).
#   source .gpu/env.sh && OUT=$OUT/af bash tools/lab/h200/round_attention_fp32.sh
# B names the build tree (default /tmp/b_af; a second source tree needs a tree of its own).
# What decides: TFLOP/s of each 3XTF32 configuration against efficient on every shape; one whose
# check fails, or a failing suite, is out whatever its speed.
set -u
out=${OUT:-/tmp/af}
mkdir -p "$out"
b=${B:-/tmp/b_af}
start=$SECONDS
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/af_build.txt 2>&1 &&
  cmake --build $b -j16 >>/tmp/af_build.txt 2>&1 || { tail -40 /tmp/af_build.txt; exit 1; }
cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL -lm \
  -Wl,-rpath,$b -o /tmp/af_time || exit 1
echo "built at $((SECONDS - start)) s"
only=${ONLY-'test_attention_mma*'}
if [ -n "$only" ]; then
  (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA OCFT_ONLY="$only" timeout ${SUITE_S:-120} \
    ./tests/test_attention >"$out/suite.txt" 2>&1; echo "suite rc $?")
  grep -E "OK|FAILED|PASSED|ERROR|error" "$out/suite.txt" | head -20
  echo "suite done at $((SECONDS - start)) s"
fi
t0=$SECONDS
export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_af
rm -rf /tmp/occ_af
base="mma.on=1 mma.local=1 mma.remat=1"
IFS=';' read -r -a configs <<<"${CONFIGS:-fp32=prec=0 tune=;x3_bk32=prec=2 tune=$base mma.bk=32 mma.q_local=1;x3_bk64=prec=2 tune=$base mma.bk=64 mma.q_local=1;x3_qreg=prec=2 tune=$base mma.bk=32 mma.q_local=0;x3_w8=prec=2 tune=$base mma.bk=32 mma.q_local=1 mma.warps=8;tf32=prec=1 tune=$base mma.bk=32 mma.q_local=1}"
budget=${BUDGET:-180}
while read -r shape; do
  [ -z "$shape" ] && continue
  for c in "${configs[@]}"; do
    [ $((SECONDS - t0)) -gt "$budget" ] && { echo "out of time before: $shape ${c%%=*}"; continue; }
    eval "set -- $shape"
    args=${c#*=}
    prec=${args%% tune=*}
    tune=${args#*tune=}
    printf '%-8s ' "${c%%=*}"
    timeout 40 /tmp/af_time "$@" "$prec" "tune=$tune" 2>&1 || echo "rc $? for $shape ${c%%=*}"
  done
done <<<"${SHAPES:-f32 4 32 32 4096 4096 128
f32 1 32 32 1024 1024 128
f32 4 32 32 4096 4096 128 causal
f32 8 16 16 1024 1024 64 causal
f32 4 32 32 4096 4096 64
f32 2 16 4 2000 3000 128}"
echo "timed in $((SECONDS - t0)) s"
[ "${PEERS:-1}" = 1 ] && timeout 120 python3 tools/lab/h200/attention_peers.py \
  ${PEER_SHAPES:-4x32x4096x4096x128:f32 1x32x1024x1024x128:f32 4x32x4096x4096x128:f32:causal \
  8x16x1024x1024x64:f32:causal 4x32x4096x4096x64:f32} 2>&1
echo "peers done at $((SECONDS - start)) s"
[ "${PTXAS:-1}" = 1 ] || exit 0
ptxas=$(python3 -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin/ptxas'))")
for f in /tmp/occ_af/programs/*.bin; do
  grep -q "OCF_KERNEL_attention_mma " <(sed -n 2p "$f") || continue
  echo "== $(sed -n 2p "$f" | grep -o 'WARPS=[0-9]*\|Q_LOCAL=[0-9]\|BK=[0-9]*\|PRECISION=[0-9]\|-DD=[0-9]*' | tr '\n' ' ')"
  tail -n +3 "$f" | tr -d "\000" | sed "s/^.version 9.0/.version 8.4/" >/tmp/af_ptxas.ptx
  "$ptxas" -arch=sm_90 -v /tmp/af_ptxas.ptx -o /tmp/af_ptxas.cubin 2>&1 | grep -E "registers|spill" | head -4
done | tee "$out/ptxas.txt"
