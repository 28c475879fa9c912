#!/usr/bin/env bash
# Mutation testing: applies small deliberate bugs to the kernels and the host checks, one at a
# time, to a copy of the working tree, rebuilds, runs the suites that should notice, and reports
# which bugs the tests catch (and with which test) and which survive. Not a CI gate (a run takes
# tens of minutes on a CPU device); run it before resolving a change to kernels or checks, and
# add a mutation to the list below with every kernel or check you add.
#
#   Usage: scripts/mutate.sh [ID ...]       every mutation, or the ones named
#          scripts/mutate.sh --list         the list
# Environment: MUTATE_DIR (default /tmp/oclfuse-mutate: the copy and its build), JOBS.
#
# A mutation replaces one exact piece of text, which must occur exactly once in its file; if it
# does not (the code moved on), the mutation is reported STALE and the script fails, so that the
# list is kept up to date. A mutation the compiler refuses is reported as such (not a survivor).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=${MUTATE_DIR:-/tmp/oclfuse-mutate}
jobs=${JOBS:-$(nproc)}

# id ~ file ~ text ~ replacement ~ ctest -R regex of the suites to run ~ what the bug is
# In text and replacement, \n is a newline. Keep each text unique in its file (and free of '~').
mutations=$(
  cat <<'EOF'
add-tail-guard~cl/add.cl~  if (tail < n) OCF_STORE~  if (tail <= n) OCF_STORE~^test_add$~add_vector: an off-by-one in the ragged tail's guard
add-out-offset~cl/add.cl~  __global real *outs = out + out_off;~  __global real *outs = out;~^test_add$~add_vector: the output offset dropped
add-vector-out-alignment~src/plan/plan_add.c~             call->out_off % vw == 0) {~             1) {~^test_add$~the vector path ignores the output offset's alignment (x and y aligned, out not)
add-alias-check~src/ops/add.c~    return ocf_fail(OCF_ERR_ALIASING, "ocf_add: out partly overlaps x (only out == x is allowed)");~    (void)0;~^test_add$~add: a partial overlap of out and x is no longer refused
softmax-load-mask~cl/softmax.cl~  if (k < limit && first + VW <= cols) return OCF_LOADV(IN_DTYPE, VW, row, k);~  if (k < limit) return OCF_LOADV(IN_DTYPE, VW, row, k);~^test_softmax$~a row's last partial vector read whole (the mask of lanes past cols dropped)
softmax-store-mask~cl/softmax.cl~  if (first + j < cols) OCF_STORE(OUT_DTYPE, row, first + j, v.s);~  OCF_STORE(OUT_DTYPE, row, first + j, v.s);~^test_softmax$~a row's last partial vector stored whole (writes past cols)
softmax-dead-rows~cl/softmax.cl~      if (live && vec < nv) store_vec(dst, vec, cols, v[i] * inv);~      if (vec < nv) store_vec(dst, vec, cols, v[i] * inv);~^test_softmax$~softmax_rows: the rows past the last of a ragged batch store too
softmax-baseline-max~cl/softmax.cl~      const float e = exp(OCF_LOAD(IN_DTYPE, src, c) - m);~      const float e = exp(OCF_LOAD(IN_DTYPE, src, c));~^test_softmax$~the baseline's exp without the row max subtracted
softmax-vector-out-ld~src/plan/plan_softmax.c~    if (c->in_off % vw || c->in_ld % vw || c->out_off % vw || c->out_ld % vw) vw = 1;~    if (c->in_off % vw || c->in_ld % vw || c->out_off % vw) vw = 1;~^test_softmax$~vector access ignores out's stride alignment
softmax-alias-check~src/ops/softmax.c~  if (overlap && !in_place)~  if (overlap && !in_place && 0)~^test_softmax$~softmax: out sharing elements with in is no longer refused
overlap-exact~src/arith.c~  return d < a_cols + s * ld;~  return d + 1 < a_cols + s * ld;~^test_overlap$|^test_softmax$~the exact overlap test misses a shared element at a row's end
matmul-swap-alpha-beta~cl/matmul.cl~  gemm_tiled(m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta, c, c_off, ldc, 1, 1,~  gemm_tiled(m, n, k, beta, a, a_off, lda, b, b_off, ldb, alpha, c, c_off, ldc, 1, 1,~^test_matmul$~matmul_tiled: alpha and beta swapped
matmul-ignore-transpose~cl/matmul.cl~    const float av = a[a_off + p * lda + i];~    const float av = a[a_off + i * lda + p];~^test_matmul$~matmul_naive: A's transpose ignored
matmul-k-remainder~cl/matmul.cl~  const ulong slices = (k + KWG - 1) / KWG;~  const ulong slices = k / KWG;~^test_matmul$~the tiled kernels drop the remainder of K / KWG
matmul-edge-guard~cl/matmul.cl~        if (col < nlim) {~        if (col <= nlim) {~^test_matmul$~the guarded store writes one column past the edge
matmul-read-c-beta-zero~cl/matmul.cl~      *out = beta != 0.0f ? beta * *out + value : value;~      *out = beta * *out + value;~^test_matmul$~whole tiles read C when beta = 0 (NaN in C propagates)
matmul-read-ab-alpha-zero~src/ops/matmul.c~  size_t k_run = alpha == 0.0f ? 0 : k;~  size_t k_run = k;~^test_matmul$~A and B read when alpha = 0 (NaN in A gives NaN instead of beta * C)
matmul-aligned-ldc~src/plan/plan_matmul.c~call->ldb % 4 == 0 && call->ldc % 4 == 0;~call->ldb % 4 == 0;~^test_matmul$~the aligned kernels ignore ldc % 4
check-buffer-off-by-one~src/runtime/validate.c~  if (offset > capacity || extent > capacity - offset)~  if (offset > capacity || extent > capacity - offset + 1)~^test_add$|^test_softmax$|^test_matmul$~a buffer one element short is accepted
check-stride~src/runtime/validate.c~  if (ld < cols)~  if (ld + 1 < cols)~^test_softmax$|^test_matmul$~a row stride one shorter than its row is accepted
check-first-event~src/runtime/validate.c~  if (launch->first_event && !launch->event)~  if (0)~^test_add$|^test_softmax$|^test_matmul$|^fuzz_replay_args$~first_event without event is accepted
dispatch-wait-list~src/runtime/dispatch.c~    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 1;~    const cl_uint wait_count = s == 0 ? 0 : 1;~^test_add$|^test_softmax$|^test_matmul$~the launch's wait list dropped
dispatch-chain~src/runtime/dispatch.c~    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 1;~    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 0;~^test_softmax$|^test_threads$~the kernels of one call no longer wait for each other (out-of-order queues)
device-spec-sign~src/api/devices.c~  if (!isdigit((unsigned char)*c)) return -1; /* a sign ("-1:0") or nothing (":0") */~  if (*c == '-' || *c == '+') c++;\n  if (!isdigit((unsigned char)*c)) return -1;~^test_context$|^fuzz_replay_device_spec$~a signed index ("-1:0") is read as an index
tuning-db-header~src/tuning/db.c~    /* A file of no entries still names its device, driver and library. */\n    if (*seen != SEEN_ALL)~    if (0)~^test_tuning_db$|^fuzz_replay_tuning_db$~a database whose header is incomplete is accepted
EOF
)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "$mutations" | awk -F'~' '{ printf "%-26s %-24s %s\n", $1, $2, $6 }'
  exit 0
fi
wanted=" $* "

echo "copying the working tree to $work/src"
mkdir -p "$work"
rm -rf "$work/src"
mkdir -p "$work/src"
tar -C "$root" --exclude='./build*' --exclude=./.git --exclude=./.gpu -cf - . | tar -C "$work/src" -xf -
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "building the unmutated tree"
cmake --build "$work/build" -j"$jobs" >/dev/null

# Replaces $2 by $3 in file $1 (\n as newline); fails unless the text occurs exactly once.
apply() {
  OLD=$(printf '%b' "$2") NEW=$(printf '%b' "$3") perl -0777 -i -pe '
    BEGIN { $o = $ENV{OLD}; $n = $ENV{NEW}; }
    $count = () = /\Q$o\E/g;
    die "found $count times\n" unless $count == 1;
    s/\Q$o\E/$n/;' "$1"
}

results=()
stale=0
survivors=0
while IFS='~' read -r id file text replacement tests what; do
  [ -n "$id" ] || continue
  if [ "$wanted" != "  " ] && [[ "$wanted" != *" $id "* ]]; then continue; fi
  target="$work/src/$file"
  cp "$target" "$work/original"
  printf '%-26s ' "$id"
  if ! apply "$target" "$text" "$replacement" 2>"$work/apply.log"; then
    outcome="STALE: the text to mutate $(cat "$work/apply.log")"
    stale=$((stale + 1))
  elif ! cmake --build "$work/build" -j"$jobs" >"$work/build.log" 2>&1; then
    outcome="refused by the compiler"
  else
    start=$(date +%s)
    if CMOCKA_TEST_ABORT=1 ctest --test-dir "$work/build" -R "$tests" --output-on-failure \
      --timeout 600 >"$work/test.log" 2>&1; then
      outcome="SURVIVED ($tests)"
      survivors=$((survivors + 1))
    else
      # Each failed suite, with the CMocka test that was running when it failed (the suites run
      # with CMOCKA_TEST_ABORT=1, so that is the one that failed), and a crash if it was one.
      killers=$(awk '
        / Test +#[0-9]+: / {
          if (suite != "") print suite (last != "" ? ": " last : "")
          suite = ""; last = ""
          if ($0 !~ /Passed/) suite = $4
          next
        }
        suite != "" && /^\[ RUN      \] / { last = $4 }
        END { if (suite != "") print suite (last != "" ? ": " last : "") }' "$work/test.log" |
        paste -sd ',' - || true)
      crash=$(grep -m1 -oE 'Test failed with exception: [A-Za-z ]+|Timeout' "$work/test.log" || true)
      outcome="killed by ${killers:-?}${crash:+ ($crash)}"
    fi
    outcome="$outcome [$(($(date +%s) - start)) s]"
  fi
  cp "$work/original" "$target"
  echo "$outcome"
  results+=("$(printf '| %s | %s | %s | %s |' "$id" "$file" "$what" "$outcome")")
done <<<"$mutations"

# Back to the unmutated build, so that a next run starts from it.
cmake --build "$work/build" -j"$jobs" >/dev/null

echo
echo "| mutation | file | bug | outcome |"
echo "| --- | --- | --- | --- |"
printf '%s\n' "${results[@]}"
echo
echo "${#results[@]} mutations: $survivors survived, $stale stale"
[ "$stale" -eq 0 ]
