#!/bin/bash
# Long norm rows streamed (issue 20, norm_stream), one device round from the tree's root:
#   source .gpu/env.sh && OUT=$OUT/ns bash tools/lab/h200/round_normstream.sh
# and its smoke run on PoCL, tiny shapes, the tree's own build, no peers (under a minute warm):
#   SMOKE=1 B=build bash tools/lab/h200/round_normstream.sh
# Why: on the H200 norm_rows holds a whole long row in registers (rows.wide_wg 512) and stays
# below torch.compile on long rows (docs/NORM.md, "Wide workgroups": RMSNorm fp32 1024 x 16384
# 3182 GB/s vs 3531, bf16 2380 vs 2941, bf16 4096 x 8192 3324 vs 3556). norm_stream does what
# softmax_resident's streamed plan did for softmax (docs/SOFTMAX.md, "16-bit rows streamed"):
# one row a workgroup holding stream.items vectors a work-item of the row's head, the rest read
# twice (the second pass backwards, into what the first left in L2), stream.groups_per_unit
# workgroups a compute unit looping over the rows. Off by default (stream.min_cols=0); here it is
# forced on (stream.min_cols=1) with a small grid of its tunables, against the context's own
# plan ("auto": built-in and shipped values) and torch beside in the same call:
# 1. builds (Release, $B, default /tmp/b_round_normstream: the library);
# 2. library_norm_time.c: RMSNorm (weight) and LayerNorm (weight, bias), fp32 and bf16, on
#    1024x16384, 4096x8192, 8192x4096, 256x65536, 2048x12288, each config in one process (the
#    programs cached on disk across processes), each line with its plan and its error against a
#    double reference (every eighth row and the last 64);
# 3. norm_peers.py: F.layer_norm, F.rms_norm and their torch.compile versions on the same shapes;
# 4. a table on stdout: GB/s (one read and one write of x) of each config, the best of torch;
# 5. (if time is left) test_norm's streamed cases on the GPU: norm_stream with warp shuffles
#    (segments of one warp; the wide and 256-item ones with shuffles run in step 2's checks).
# About 3.5 minutes after the build. Writes $OUT/normstream.txt (the table), $OUT/raw.txt (every
# line, plans included).
set -u
out=${OUT:-/tmp/normstream}
mkdir -p "$out"
smoke=${SMOKE:-0}
b=${B:-/tmp/b_round_normstream}
jobs=16
[ "$smoke" = 1 ] && jobs=2
start=$SECONDS
raw=$out/raw.txt
: >"$raw"
rm -f /tmp/normstream_time # a failed build below leaves none (its exit ends only the pipe)

# The grid: a label and its tuning text (fp32; bf16's on the next line where it differs).
S="stream.min_cols=1"
labels=(auto s256 unroll4 items4 gpu2 s512 s512g2 vw2x)
f32_cfg=("" "$S" "$S stream.unroll=4" "$S stream.items=4" "$S stream.groups_per_unit=2"
  "$S stream.wg=512" "$S stream.wg=512 stream.groups_per_unit=2" "$S vw=8")
bf16_cfg=("${f32_cfg[@]}")
bf16_cfg[7]="$S vw=16"
shapes=("1024 16384" "4096 8192" "8192 4096" "256 65536" "2048 12288")
if [ "$smoke" = 1 ]; then
  shapes=("64 4096" "16 16385")
  export NORM_TIME_FLUSH_MB=16
fi
dtypes=(f32 bf16)
kinds=(rms layer)
# CONFIGS "label=tuning;..." (every dtype), SHAPES "rows cols;...", DTYPES and KINDS (words)
# replace the grid above: another question asked of the same machinery.
if [ -n "${CONFIGS:-}" ]; then
  IFS=';' read -r -a pairs <<<"$CONFIGS"
  labels=() f32_cfg=()
  for pair in "${pairs[@]}"; do
    labels+=("${pair%%=*}")
    f32_cfg+=("${pair#*=}")
  done
  bf16_cfg=("${f32_cfg[@]}")
fi
[ -n "${SHAPES:-}" ] && IFS=';' read -r -a shapes <<<"$SHAPES"
[ -n "${DTYPES:-}" ] && read -r -a dtypes <<<"$DTYPES"
[ -n "${KINDS:-}" ] && read -r -a kinds <<<"$KINDS"

{
  echo "== round_normstream $(git log --oneline -1 2>/dev/null) (smoke $smoke)"
  if [ "$smoke" != 1 ] || [ ! -e "$b/liboclfuse.so" ]; then
    if ! cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >"$out/build.txt" 2>&1 ||
      ! cmake --build "$b" -j$jobs --target oclfuse >>"$out/build.txt" 2>&1; then
      tail -40 "$out/build.txt"
      exit 1
    fi
    # step 5's suite (needs CMocka: .gpu/env.sh); the round runs without it
    [ "$smoke" = 1 ] || cmake --build "$b" -j$jobs --target test_norm >>"$out/build.txt" 2>&1 ||
      echo "(no test_norm: step 5 skipped)"
  fi
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L"$b" -loclfuse -lOpenCL -lm \
    -Wl,-rpath,"$(cd "$b" && pwd)" -o /tmp/normstream_time || exit 1
  echo "built at $((SECONDS - start)) s"
} 2>&1 | tee -a "$raw"
[ -x /tmp/normstream_time ] || exit 1

export OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_normstream
rm -rf /tmp/occ_normstream
# config index of each (dtype, tuning text), for the table
map=$out/configs.txt
: >"$map"
for i in "${!labels[@]}"; do
  for dt in "${dtypes[@]}"; do
    if [ $dt = bf16 ]; then c=${bf16_cfg[$i]}; else c=${f32_cfg[$i]}; fi
    printf '%s\t%s\t%s\n' "$dt" "$c" "${labels[$i]}" >>"$map"
  done
done
{
  echo "== norm (library_norm_time; GB/s: one read and one write of x)"
  for dt in "${dtypes[@]}"; do
    if [ $dt = bf16 ]; then cfg=("${bf16_cfg[@]}"); else cfg=("${f32_cfg[@]}"); fi
    for s in "${shapes[@]}"; do
      for kind in "${kinds[@]}"; do
        # shellcheck disable=SC2086
        timeout 25 /tmp/normstream_time $kind $dt $s "${cfg[@]}"
      done
    done
  done
  echo "   lib at $((SECONDS - start)) s"
  if [ "$smoke" != 1 ]; then
    peers=()
    for dt in "${dtypes[@]}"; do
      for s in "${shapes[@]}"; do peers+=("${s% *}x${s#* }:$dt"); done
    done
    timeout 170 python3 tools/lab/h200/norm_peers.py "${peers[@]}" 2>&1 | grep "^norm"
    echo "   peers at $((SECONDS - start)) s"
  fi
} >>"$raw" 2>&1

# The table: a row per op, type and shape, a column per config, the best peer of its op.
awk -F'\t' -v labels="${labels[*]}" '
  FNR == NR { cfg[$1 "\t" $2] = $3; next }
  /^norm (rms|layer) / {
    op = $0; sub(/^norm +/, "", op); split(op, f, / +/)
    tuning = $0; sub(/.*\[/, "", tuning); sub(/\].*/, "", tuning)
    gbs = $0; sub(/ GB\/s.*/, "", gbs); sub(/.* /, "", gbs)
    err = $0; sub(/.* err /, "", err); sub(/ .*/, "", err)
    key = f[1] " " f[2] " " f[3]
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    label = cfg[f[2] "\t" tuning]
    v[key, label] = gbs
    if (err + 0 > 1e-2 || err ~ /nan/) v[key, label] = gbs "!"
    next
  }
  /^copy / { split($0, f, / +/); gbs = $0; sub(/ GB\/s.*/, "", gbs); sub(/.* /, "", gbs)
             copy[f[2] " " f[3]] = gbs; next }
  /^norm [0-9]+x[0-9]+ [a-z0-9]+ GB\/s:/ {
    ng = split($0, g, / +/); shape = g[2]; dt = g[3]
    for (i = 5; i < ng; i += 2) {
      name = g[i]; val = g[i + 1] + 0
      op = name ~ /^layer/ ? "layer" : "rms"
      if (val > peer[op " " dt " " shape]) peer[op " " dt " " shape] = val
    }
  }
  END {
    nl = split(labels, L, " ")
    printf "%-24s", "op dtype shape"
    for (i = 1; i <= nl; i++) printf " %8s", L[i]
    printf " %8s %8s\n", "torch", "copy"
    for (r = 1; r <= n; r++) {
      key = order[r]
      printf "%-24s", key
      for (i = 1; i <= nl; i++) printf " %8s", ((key, L[i]) in v) ? v[key, L[i]] : "-"
      split(key, k, " ")
      printf " %8s %8s\n", (key in peer) ? peer[key] : "-", ((k[2] " " k[3]) in copy) ? copy[k[2] " " k[3]] : "-"
    }
  }' FS='\t' "$map" FS=' ' "$raw" >"$out/normstream.txt"

problems=$(grep -iE "error|fail|refused" "$raw" | grep -v " err " | head -10)
{
  cat "$out/normstream.txt"
  echo "(GB/s; \"!\": error above 1e-2 of the row's largest |y|; plans in raw.txt)"
  if [ -n "${CONFIGS:-}" ]; then
    for i in "${!labels[@]}"; do echo " ${labels[$i]}: ${f32_cfg[$i]:-(the resolved values)}"; done
  else
    echo " auto: the context's own plan; s256: wg 256, items 2, unroll 2, 4 groups a unit; unroll4,"
    echo " items4, gpu2: s256 with that one change; s512: wg 512 (wide, after the probe);"
    echo " s512g2: and 2 groups a unit; vw2x: s256 in vectors of 8 (fp32) or 16 (bf16); plans in raw.txt)"
  fi
  [ -z "$problems" ] || echo "$problems"
} | tee -a "$raw"

# The streamed cases of test_norm on the GPU (norm_stream with warp shuffles), if built.
if [ "$smoke" != 1 ] && [ -x "$b/tests/test_norm" ] && [ $((SECONDS - start)) -lt 260 ]; then
  OCFT_ONLY=test_norm_streamed OCLFUSE_TEST_DEVICE=NVIDIA timeout 50 \
    "$b/tests/test_norm" 2>&1 | tail -4 | tee -a "$raw"
fi
echo "done at $((SECONDS - start)) s" | tee -a "$raw"
