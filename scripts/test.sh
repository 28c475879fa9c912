#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, and runs every
# test suite on the default OpenCL device (PoCL on a machine without a GPU), under Oclgrind on
# small sizes, and under valgrind, with fault injection and threads; then builds again with
# AddressSanitizer and UBSan and runs the plain suites and the fault injection there, with
# ThreadSanitizer for the threads suite, and with clang's libFuzzer for a short fuzzing run of
# each target (FUZZ_SECONDS, default 30; 0 skips it).   Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=$(nproc)
fuzz_seconds=${FUZZ_SECONDS:-30}
scripts/install-deps.sh
start=$(date +%s)
step() { echo "== $1 ($(($(date +%s) - start)) s)"; }

step "build and every label"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs"

# The sanitizer runs load PoCL's ICD alone: Mesa's Clover leaks 128 bytes when the loader
# initialises it, from code whose frames LeakSanitizer's fast unwinder cannot name (a full unwind
# on every malloc makes these runs ten times slower).
sanitizer_env=()
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
  sanitizer_env+=(OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd)
fi

step "AddressSanitizer and UBSan: unit and faults"
cmake -S . -B "$build-sanitize" -DCMAKE_BUILD_TYPE=Debug -DOCLFUSE_WERROR=ON -DOCLFUSE_SANITIZE=ON
cmake --build "$build-sanitize" -j"$jobs"
env "${sanitizer_env[@]}" LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
  ctest --test-dir "$build-sanitize" --output-on-failure -j"$jobs" -L 'unit|faults'

step "ThreadSanitizer: threads"
cmake -S . -B "$build-tsan" -DCMAKE_BUILD_TYPE=Debug -DOCLFUSE_WERROR=ON \
  -DOCLFUSE_SANITIZE_THREAD=ON -DOCLFUSE_BUILD_BENCH=OFF
cmake --build "$build-tsan" -j"$jobs" --target test_threads
env "${sanitizer_env[@]}" TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp" \
  ctest --test-dir "$build-tsan" --output-on-failure -L threads

if [ "$fuzz_seconds" -gt 0 ] && command -v clang >/dev/null; then
  step "libFuzzer: each target for $fuzz_seconds s"
  cmake -S . -B "$build-fuzz" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOCLFUSE_WERROR=ON -DOCLFUSE_FUZZ=ON -DOCLFUSE_BUILD_BENCH=OFF \
    -DOCLFUSE_FUZZ_SECONDS="$fuzz_seconds"
  cmake --build "$build-fuzz" -j"$jobs" --target fuzz_args fuzz_device_spec fuzz_tuning_db
  log="$build-fuzz/fuzz.log"
  if ! env "${sanitizer_env[@]}" ctest --test-dir "$build-fuzz" --output-on-failure -V -L fuzz \
    >"$log" 2>&1; then
    tail -n 80 "$log"
    exit 1
  fi
  # Executions per target (and how many of fuzz_args' calls were refused before any kernel).
  grep -E '^[0-9]+: (stat::number_of_executed_units|stat::average_exec_per_sec|fuzz_args:)|Test +#' \
    "$log" || true
fi
step "done"
