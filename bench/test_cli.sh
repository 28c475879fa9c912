#!/usr/bin/env bash
# The oclfuse tool's command-line contract, as `oclfuse --help` states it: every command takes
# --help, --version and --quiet; one exit status table (0 all good, 1 a failure or nothing
# measured, 2 bad usage, a device named by --device or $OCLFUSE_DEVICE alike); messages on stderr
# start with "oclfuse <command>:". Quick cases only: `oclfuse_tool_check` runs check --quiet.
#   Usage: bench/test_cli.sh TOOL
set -uo pipefail
tool=$1
failures=0
version=$("$tool" --version)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$scratch/out
err=$scratch/err

# show_stderr: the last command's stderr without its progress lines ("oclfuse tune: [3/69] ..."),
# which run to hundreds and pushed the error itself out of CI's shortened log, then its last lines.
show_stderr() {
  grep -Ev '^oclfuse [a-z]+: \[[0-9]+/[0-9]+\]' "$err" | head -60 >&2
  echo "(its last 10 lines:)" >&2
  tail -10 "$err" >&2
}

# expect STATUS DESCRIPTION -- COMMAND...: runs it, compares its exit status, keeps its stderr.
expect() {
  local want=$1 what=$2
  shift 3
  "$@" >"$out" 2>"$err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit status $got, not $want; stderr:" >&2
    show_stderr
    failures=$((failures + 1))
  else
    echo "ok: $what (exit status $got)"
  fi
}
stderr_has() { # stderr_has DESCRIPTION PATTERN: the last command's stderr matches
  if ! grep -Eq "$2" "$err"; then
    echo "FAIL: $1: stderr lacks /$2/:" >&2
    show_stderr
    failures=$((failures + 1))
  fi
}

for command in devices check bench tune warmup; do
  expect 0 "$command --help" -- "$tool" "$command" --help
  grep -q "Exit status: 0 all good, 1 a failure or nothing measured, 2 bad usage" \
    "$out" || { echo "FAIL: $command --help has no exit status line" >&2; failures=$((failures + 1)); }
  expect 0 "$command --version" -- "$tool" "$command" --version
  [ "$(cat "$out")" = "$version" ] ||
    { echo "FAIL: $command --version printed '$(cat "$out")'" >&2; failures=$((failures + 1)); }
  expect 2 "$command with an unknown option" -- "$tool" "$command" --no-such-option
  stderr_has "$command's unknown option" "^oclfuse $command: unknown option '--no-such-option'"
done
expect 0 "--help" -- "$tool" --help
grep -q "exit status, the same for every command" "$out" ||
  { echo "FAIL: --help has no exit status table" >&2; failures=$((failures + 1)); }
expect 2 "no command" -- "$tool"
expect 2 "an unknown command" -- "$tool" bogus
expect 2 "a bad value" -- "$tool" bench --op add --repeat x
stderr_has "a bad value" "^oclfuse bench: --repeat wants"

# A device that is malformed or matches nothing: the same status by --device or the environment.
for command in check bench tune warmup; do
  expect 2 "$command --device 99:99" -- "$tool" "$command" --device 99:99
  stderr_has "$command --device 99:99" "^oclfuse $command: ocf_context_create: .*\(OCF_ERR_NO_DEVICE\)"
  expect 2 "$command with OCLFUSE_DEVICE=99:99" -- env OCLFUSE_DEVICE=99:99 "$tool" "$command"
  expect 2 "$command --device 1:2:3" -- "$tool" "$command" --device 1:2:3
  stderr_has "$command --device 1:2:3" "OCF_ERR_INVALID_SPEC"
done
expect 2 "devices with OCLFUSE_DEVICE=no-such-device" -- env OCLFUSE_DEVICE=no-such-device "$tool" devices

# Nothing measured is a failure, with a message; --quiet leaves out progress, not errors.
expect 1 "bench of a size no device holds" -- "$tool" bench --op add --sizes 99999999999 --quiet
stderr_has "nothing measured" "^oclfuse bench: nothing was measured"
if grep -q '\[1/' "$err"; then
  echo "FAIL: bench --quiet printed progress" >&2
  failures=$((failures + 1))
fi
expect 0 "bench progress" -- "$tool" bench --op add --sizes 1000 --repeat 3
stderr_has "bench progress" "^oclfuse bench: \[[0-9]+/6\] add n=1000 oclfuse, about [0-9]+m[0-9]{2}s left"

# The --sizes language (bench/spec.c; its unit test is oclfuse_spec_test): a call with options
# reaches the library and its row names it; a bad spec is a usage error naming its token.
expect 0 "bench of calls with options" -- "$tool" bench --repeat 3 --quiet --format json --sizes \
  'matmul:24x20x16:tn:bf16:batch=2:bias=n:act=gelu:pad=1:offset=3; softmax:12x40:f16:log:lengths:scale=0.5; add:100:offset=1;'\
' softmax:12x40:causal; softmax:12x40:causal=4,36:lengths=50'
for shape in '24x20x16:tn:bf16:batch=2:bias=n:act=gelu:pad=1:offset=3' '12x40:f16:log:scale=0.5:lengths' 'n=100:offset=1' \
  '12x40:causal' '12x40:lengths=50:causal=4,36'; do
  grep -q "\"shape\": \"$shape\"" "$out" ||
    { echo "FAIL: no row for $shape" >&2; failures=$((failures + 1)); }
done
for bad in 'matmul:64x64x64:bogus' 'matmul:64x64x64:tn:nt' 'softmax:64x64:tn' 'add:100:bf16' \
  'matmul:64x64x64:bias=row' 'softmax:64x64:scale=0' 'conv:3x3' '64x64x64x64' \
  'softmax:64x64:causal=0' 'softmax:64x64:causal=4,x' 'matmul:64x64x64:causal' 'add:100:causal'; do
  expect 2 "bench --sizes '$bad'" -- "$tool" bench --sizes "$bad"
  token=${bad##*:}
  case $bad in conv:*) token=conv ;; softmax:64x64:scale=0) token='scale=0' ;; esac
  stderr_has "bench --sizes '$bad'" "^oclfuse bench: --sizes: .*'$token'"
done
expect 2 "check --sizes 'matmul:64:bogus'" -- "$tool" check --sizes 'matmul:64:bogus'
stderr_has "check --sizes 'matmul:64:bogus'" "^oclfuse check: --sizes: .*'bogus'"
expect 0 "check --sizes of calls with options" -- "$tool" check --quiet --sizes 'matmul:20x12x8:tn:f16:bias=m:act=silu; softmax:6x50:bf16:log:lengths; softmax:6x50:causal=3,47'
[ "$(grep -c ' pass$' "$out")" = 6 ] || { echo "FAIL: check --sizes did not pass 6 cases:" >&2; cat "$out" >&2; failures=$((failures + 1)); }
expect 2 "tune --sizes 'matmul:64:bogus'" -- "$tool" tune --sizes 'matmul:64:bogus'
stderr_has "tune --sizes 'matmul:64:bogus'" "^oclfuse tune: --sizes: .*'bogus'"

# warmup --op takes a list as bench and tune do; --plot draws matmul calls that are not square.
expect 2 "warmup --op add,bogus" -- "$tool" warmup --op add,bogus
stderr_has "warmup --op add,bogus" "^oclfuse warmup: --op .*'bogus'"
expect 0 "warmup --op add,matmul --first-calls" -- "$tool" warmup --op add,matmul --first-calls
grep -q "first call  add" "$out" && grep -q "first call  matmul" "$out" && ! grep -q softmax "$out" ||
  { echo "FAIL: warmup --op add,matmul --first-calls:" >&2; cat "$out" >&2; failures=$((failures + 1)); }
"$tool" bench --op matmul --sizes '48x32x16; matmul:32x32x32:tn' --repeat 3 --quiet \
  --plot "$scratch/plots" >/dev/null 2>"$err"
grep -q '48x32x16' "$scratch/plots/matmul.dat" 2>/dev/null && grep -q '32x32x32:tn' "$scratch/plots/matmul.dat" ||
  { echo "FAIL: --plot left calls that are not square out of matmul.dat" >&2; cat "$err" >&2; failures=$((failures + 1)); }

# The cache flush: none by default on a CPU device (512 MiB on a GPU), --flush-mib N before
# each timed call, the settings saying which; a bad value is refused.
"$tool" bench --op add --sizes 1000 --repeat 3 --quiet --format json >"$scratch/noflush.json"
default_flush=0
grep -q '"type": "CPU"' "$scratch/noflush.json" || default_flush=512
grep -q "\"flush_mib\": $default_flush}" "$scratch/noflush.json" ||
  { echo "FAIL: the run's settings do not say flush_mib $default_flush (the device's default)" >&2; failures=$((failures + 1)); }
"$tool" bench --op add --sizes 1000 --repeat 3 --quiet --flush-mib 4 --format json >"$scratch/flush.json"
grep -q '"flush_mib": 4}' "$scratch/flush.json" && grep -q '"status": "ok"' "$scratch/flush.json" ||
  { echo "FAIL: --flush-mib 4 is not in the settings, or its rows are not ok" >&2; failures=$((failures + 1)); }
expect 2 "a bad --flush-mib" -- "$tool" bench --op add --flush-mib -1
stderr_has "a bad --flush-mib" "^oclfuse bench: --flush-mib wants"

# --compare: two saved runs row by row (no device), or a new run against a saved one; the JSON
# carries each row's p10/p50/p90.
"$tool" bench --op add --sizes 1000,4099 --repeat 5 --quiet --format json >"$scratch/a.json"
grep -q '"p10_ms": [0-9.e-]*, "p50_ms": [0-9.e-]*, "p90_ms": [0-9.e-]*' "$scratch/a.json" ||
  { echo "FAIL: the JSON has no p10/p50/p90" >&2; failures=$((failures + 1)); }
"$tool" bench --op add --sizes 1000,300 --repeat 5 --quiet --format json >"$scratch/b.json"
expect 0 "bench --compare A B" -- "$tool" bench --compare "$scratch/a.json" "$scratch/b.json"
grep -Eq '^add +n=1000 +oclfuse +auto +[0-9.e-]+ +[0-9.e-]+ +[0-9.]+x' "$out" && grep -q 'n=300 .*only in B' "$out" &&
  grep -q 'n=4099 .*only in A' "$out" || { echo "FAIL: bench --compare A B:" >&2; cat "$out" >&2; failures=$((failures + 1)); }
expect 0 "bench --compare A with a new run" -- "$tool" bench --op add --sizes 4099 --repeat 3 --quiet --compare "$scratch/a.json"
grep -Eq '^add +n=4099 +baseline +auto +[0-9.e-]+ +[0-9.e-]+ +[0-9.]+x' "$out" ||
  { echo "FAIL: bench --compare A with a new run:" >&2; cat "$out" >&2; failures=$((failures + 1)); }
echo '{"tool": "something else"}' >"$scratch/bad.json"
expect 2 "bench --compare of a file that is not a run" -- "$tool" bench --compare "$scratch/bad.json" "$scratch/a.json"
stderr_has "bench --compare of a bad file" "^oclfuse bench: --compare: .*bad.json.*not the JSON"
expect 2 "bench --compare of a missing file" -- "$tool" bench --compare "$scratch/none.json" "$scratch/a.json"

# tune with the build pool on a tiny budget: a user's call, its own key, a database written.
expect 0 "tune --sizes with a build pool" -- env OCLFUSE_TUNING_DIR="$scratch/tune" \
  "$tool" tune --sizes 'add:5000' --budget 4 --build-threads 1
stderr_has "tune --build-threads 1" "^oclfuse tune: building candidates on 1 threads"
stderr_has "tune's pool summary" "^oclfuse tune: the build pool prepared [0-9]+ candidates"
grep -Eq "^add +small " "$out" || { echo "FAIL: tune --sizes 'add:5000' did not tune add small:" >&2; cat "$out" >&2; failures=$((failures + 1)); }
# A call with its op case's options (harness/op_cases.h): bench times it after checking it, the
# options in its shape text; tune keys it by the library's rule (ocf_op_tuning_key: the bf16
# key and the row's shape class, where the tool once wrote norm and attention under fp32).
expect 0 "bench of a bf16 layernorm with a residual and a causal bf16 attention" -- "$tool" bench \
  --sizes 'layernorm:64x3000:bf16:residual; attention:1x2x40x40x32:bf16:causal' --repeat 2 --quiet
grep -Eq '^norm +64x3000:bf16:residual +oclfuse +auto +[^ ]+ +ok ' "$out" &&
  grep -Eq '^attention +1x2x40x40x32:bf16:causal +oclfuse +auto +[^ ]+ +ok ' "$out" ||
  { echo "FAIL: bench of calls with options:" >&2; cat "$out" >&2; failures=$((failures + 1)); }
expect 0 "tune --sizes of a bf16 rmsnorm and a bf16 attention" -- env OCLFUSE_TUNING_DIR="$scratch/tune2" \
  "$tool" tune --sizes 'rmsnorm:64x3000:bf16:weight; attention:1x2x40x40x32:bf16:causal' \
  --budget 4 --build-threads 0
grep -Eq "^norm +wide/bf16 " "$out" && grep -Eq "^attention +prefill_d64/bf16 " "$out" ||
  { echo "FAIL: tune --sizes did not key norm wide/bf16 and attention prefill_d64/bf16 (d 32):" >&2; cat "$out" >&2; failures=$((failures + 1)); }
expect 2 "tune --build-threads x" -- "$tool" tune --build-threads x
stderr_has "tune --build-threads x" "^oclfuse tune: --build-threads wants"

# A bench stopped by SIGTERM (a scheduler's or `timeout`'s) reports the rows measured before it
# (bench/stop.c): the whole JSON object, "interrupted": true, fewer rows than planned, status 1.
# Thirty softmax calls, so that the signal comes long before the last.
sizes=$(seq -s, 2048 2077 | sed 's/\([0-9][0-9]*\)/\1x1024/g')
"$tool" bench --op softmax --sizes "$sizes" --repeat 3 --format json >"$out" 2>"$err" &
bench=$!
for _ in $(seq 600); do grep -q '\[6/' "$err" && break; sleep 0.1; done
kill -TERM "$bench"
wait "$bench"
status=$?
rows=$(grep -c '"op": ' "$out")
if [ "$status" != 1 ] || ! grep -q '"interrupted": true' "$out" || [ "$(tail -n 1 "$out")" != "}" ] ||
  [ "$rows" -lt 5 ] || [ "$rows" -ge 64 ]; then
  echo "FAIL: bench after SIGTERM: exit status $status, $rows rows; its JSON's end and stderr:" >&2
  tail -n 5 "$out" >&2
  show_stderr
  failures=$((failures + 1))
else
  echo "ok: bench after SIGTERM ($rows rows, exit status 1)"
fi
stderr_has "bench after SIGTERM" "^oclfuse bench: SIGTERM: stopped after the call it was measuring"

echo "$failures failed"
[ "$failures" = 0 ]
