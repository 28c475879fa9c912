# wgmma_host_common.sh: sourced (not run) by the host checks of the wgmma program,
# tools/wgmma_copy_check.sh and tools/wgmma_lastwave_check.sh, from the repo root, after they set
# `work` (their work folder). Sets root, cc ($CC or cc), f (the GEMM program's kernel files
# concatenated in build order, cl/matmul_wgmma_nv.cl and its fragments) and failed=0, and
# defines host_run SOURCE OPTS: compiles tests/SOURCE with OPTS against $work/part.cl (the pieces
# of the kernel the check cut out) and runs it, its output in `out` and printed after "[OPTS]";
# a compile error prints its first lines, sets failed=1 and returns 1. For the split checks
# (last wave, join): cut_split_common prints the kernel's pieces they both need, as_c turns
# OpenCL's float2 expressions into the checks' C, and run_tile_configs SOURCE runs host_run for
# every tile width and warpgroup count, setting failed=1 on any answer but "ok".
# (root, cc, f and failed are for the sourcing script, which sets work:)
# shellcheck shell=bash disable=SC2034,SC2154
set -u -o pipefail
root=$(pwd)
mkdir -p "$work"
cc=${CC:-cc}
# the program's own files as OCLFUSE_PROGRAMS lists them (CMakeLists.txt), without the shared
# common.cl and the generated asm fragment
f=$work/matmul_wgmma_program.cl
for part in $(sed -n 's/^ *"matmul_wgmma_nv: \(.*\)"$/\1/p' "$root/CMakeLists.txt"); do
  case $part in matmul_wgmma_*) cat "$root/cl/$part" ;; esac
done >"$f"
[ -s "$f" ] || { echo "no matmul_wgmma_nv program in CMakeLists.txt's OCLFUSE_PROGRAMS"; exit 1; }
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

# The accumulator fragment's macros, the operands, tile_of and operands_of of the kernel file
# (every split check's part.cl has them).
cut_split_common() {
  awk '/---- the accumulator fragment ----/{on=1} /---- PTX helpers ----/{on=0} on' "$f"
  awk '/^typedef struct operands/{on=1} on{print} /^} operands;/{on=0}' "$f"
  awk '/^\/\* The tile of launch group g/{on=1} /^\/\* Slice kt into stage/{on=0} on' "$f"
  awk '/^\/\* The operands of workgroup tile/{on=1} /---- the kernels ----/{on=0} on' "$f"
}

# stdin to stdout: (float2)(...) as FLOAT2(...), __global float2 pointers as plain ones.
as_c() {
  sed -e 's/(float2)(/FLOAT2(/g' -e 's/__global float2 \*/float2 */g'
}

# host_run SOURCE for tiles of 128, 192 and 256 columns, one warpgroup (tile groups of 3 rows)
# and two (groups of 8).
run_tile_configs() {
  local bn consumers
  for bn in 128 192 256; do
    for consumers in 1 2; do
      host_run "$1" "-DBN=$bn -DCONSUMERS=$consumers -DGROUP_M=$((consumers == 1 ? 3 : 8))" ||
        continue
      [ "${out%% *}" = "ok" ] || failed=1
    done
  done
}
