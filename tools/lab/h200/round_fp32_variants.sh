#!/bin/bash
# fp32 attention (3XTF32) kernel variants as patches on the tree (issue 21: d 128 is at parity
# with efficient, Q's two TF32 parts hold 128 registers a lane): each variant is the tree with
# its patches applied, built in a tree of its own (all builds in parallel), then its
# test_attention_mma_fp32 on the H200 (the PTX) and round_attention_fp32.sh's timing of the
# shipped 3XTF32 plan on SHAPES. Variants (VARIANTS, "name=patch+patch ..."; "base=" the tree):
#   raw_small.patch  3XTF32's small part not masked (the matrix unit ignores the 13 low bits;
#                    the emulation masks what it multiplies)
#   q_raw.patch      Q's fp32 fragments raw in registers (64 at d 128, not 128), split at use
#   source .gpu/env.sh && OUT=$OUT/var bash tools/lab/h200/round_fp32_variants.sh
set -u
out=${OUT:-/tmp/var}
mkdir -p "$out"
here=$(pwd)
read -r -a variants <<<"${VARIANTS:-base= raw=raw_small q_raw=q_raw both=raw_small+q_raw}"
for v in "${variants[@]}"; do
  name=${v%%=*} patches=${v#*=}
  src=/tmp/var_src_$name
  rm -rf "$src" && mkdir -p "$src"
  tar --exclude=./.gpu -cf - . | tar -C "$src" -xf -
  for p in ${patches//+/ }; do
    (cd "$src" && patch -s -p1 <"$here/tools/lab/h200/$p.patch") || { echo "$name: $p failed"; exit 1; }
  done
  (cmake -S "$src" -B /tmp/var_b_$name -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON \
    >"$out/build_$name.txt" 2>&1 && cmake --build /tmp/var_b_$name -j8 >>"$out/build_$name.txt" 2>&1 ||
    echo "$name: build failed") &
done
wait
for v in "${variants[@]}"; do
  name=${v%%=*}
  echo "=== $name"
  (cd /tmp/var_src_$name && OUT=$out/$name B=/tmp/var_b_$name ONLY=test_attention_mma_fp32 \
    SUITE_S=90 BUDGET=${BUDGET:-60} PEERS=0 PTXAS=${PTXAS:-1} CONFIGS='x3=prec=2 tune=' \
    SHAPES="${SHAPES:-f32 4 32 32 4096 4096 128
f32 4 32 32 4096 4096 64
f32 8 16 16 1024 1024 64 causal}" bash tools/lab/h200/round_attention_fp32.sh 2>&1 |
    grep -v "^built at")
done
