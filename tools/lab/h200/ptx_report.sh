#!/bin/bash
# What NVIDIA's compiler made of the programs in a disk cache (OCLFUSE_CACHE=always): for each
# cached binary whose key names KERNEL (default norm_rows), its -D options, then ptxas's
# registers, spills and stack for sm_90 (the ptxas that Triton ships), and the PTX itself under
# $OUT/ptx. Usage, on the GPU machine after a round that cached its programs in DIR:
#   OUT=$OUT/ptx KERNEL=norm_rows bash tools/lab/h200/ptx_report.sh DIR
set -u
dir=${1:?usage: ptx_report.sh CACHE_DIR}
kernel=${KERNEL:-norm_rows}
out=${OUT:-/tmp/ptx_report}
mkdir -p "$out"
ptxas=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))' 2>/dev/null)
[ -x "$ptxas" ] || ptxas=$(command -v ptxas)
n=0
for f in "$dir"/programs/*.bin; do
  [ -e "$f" ] || continue
  key=$(sed -n 2p "$f")
  case $key in *"$kernel"*) ;; *) continue ;; esac
  n=$((n + 1))
  # The binary is the PTX text and its terminating NUL.
  tail -n +3 "$f" | tr -d '\000' >"$out/p$n.ptx"
  echo "== p$n: $(echo "$key" | grep -o -- '-D[A-Z_0-9]*=[^ ]*' | tr '\n' ' ')"
  if [ -n "$ptxas" ]; then
    report=$("$ptxas" -v --gpu-name sm_90 "$out/p$n.ptx" -o /dev/null 2>&1)
    if echo "$report" | grep -qE "registers"; then
      echo "$report" | grep -E "registers|spill|stack" | sed 's/^ptxas info *: //' | head -6
    else
      echo "ptxas ($ptxas) gave no figures: $(echo "$report" | head -2)"
    fi
  else
    echo "no ptxas found (Triton's or on PATH)"
  fi
  grep -c "ld.local\|st.local" "$out/p$n.ptx" | sed 's/^/local accesses in PTX: /'
done
echo "$n programs of $kernel"
