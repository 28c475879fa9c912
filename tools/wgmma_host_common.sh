# wgmma_host_common.sh: sourced (not run) by the host checks of cl/matmul_wgmma_nv.cl,
# tools/wgmma_copy_check.sh and tools/wgmma_lastwave_check.sh, from the repo root, after they set
# `work` (their work folder). Sets root, cc ($CC or cc), f (the kernel file) and failed=0, and
# defines host_run SOURCE OPTS: compiles tests/SOURCE with OPTS against $work/part.cl (the pieces
# of the kernel the check cut out) and runs it, its output in `out` and printed after "[OPTS]";
# a compile error prints its first lines, sets failed=1 and returns 1.
# (root, cc, f and failed are for the sourcing script, which sets work:)
# shellcheck shell=bash disable=SC2034,SC2154
set -u -o pipefail
root=$(pwd)
mkdir -p "$work"
cc=${CC:-cc}
f=$root/cl/matmul_wgmma_nv.cl
failed=0
host_run() {
  local source=$1 opts=$2
  # shellcheck disable=SC2086
  if ! $cc -std=c11 -O1 -Wno-unknown-pragmas -Wno-attributes $opts -I "$work" \
    "$root/tests/$source" -o "$work/check" 2>"$work/cc.log"; then
    echo "[$opts] compile: $(head -n5 "$work/cc.log")"
    failed=1
    return 1
  fi
  out=$("$work/check")
  echo "[$opts] $out"
}
