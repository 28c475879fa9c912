#!/bin/bash
# Registers, barriers and shared memory of every kernel in the library's program cache, read on
# a machine without the GPU: the cache files (OCLFUSE_CACHE=always, OCLFUSE_TUNING_DIR=DIR on the
# H200 writes DIR/programs/*.bin) hold the PTX that NVIDIA's OpenCL compiler wrote, behind the
# library's one-line header; ptxas (CUDA 12 or 13, sm_90) assembles it again and reports what each
# kernel uses. ptxas is not the driver's JIT, so its counts are close, not the same.
#   tools/lab/h200/ptx_registers.sh DIR/programs [PTXAS]
# Prints, per program, its -D options (the kernels it holds) and ptxas's lines for each entry.
# What it is for: occupancy. 256 work-items of 75 registers fit 3 workgroups a compute unit on the
# H200 (65536 registers), 46 fit 5: a grid of 512 workgroups is one wave at 5 and 1.3 at 3
# (docs/SOFTMAX.md, "The split's stats kernel: one wave and a third").
set -u -o pipefail
dir=${1:?usage: ptx_registers.sh DIR/programs [PTXAS]}
ptxas=${2:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$ptxas" ] || { echo "no ptxas at $ptxas" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for bin in "$dir"/*.bin; do
  [ -e "$bin" ] || continue
  echo "== $(basename "$bin"): $(head -c 2000 "$bin" | tr -d '\0' | grep -a -o 'options [^|]*' | head -1)"
  # The PTX starts at its first comment line; the metadata section NVIDIA appends (and the NULs
  # after it) are not PTX that ptxas takes.
  ptx=$work/$(basename "$bin" .bin).ptx
  tr -d '\0' <"$bin" | awk 'f || /^\/\/$/ {f = 1} f' | awk '/^\.metadata_section/ {exit} {print}' >"$ptx"
  if ! "$ptxas" -arch=sm_90 -v "$ptx" -o /dev/null 2>"$work/log"; then
    status=1
    head -5 "$work/log"
    continue
  fi
  grep -E "Compiling entry|Used [0-9]+ registers" "$work/log" | sed 's/^ptxas info *: //'
done
exit $status
