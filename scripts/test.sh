#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, and runs every
# test suite on the default OpenCL device (PoCL on a machine without a GPU), under Oclgrind on
# small sizes, and under valgrind; then builds again with AddressSanitizer and UBSan and runs the
# plain suites there.   Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=$(nproc)
scripts/install-deps.sh

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs"

cmake -S . -B "$build-sanitize" -DCMAKE_BUILD_TYPE=Debug -DOCLFUSE_WERROR=ON -DOCLFUSE_SANITIZE=ON
cmake --build "$build-sanitize" -j"$jobs"
LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
  ctest --test-dir "$build-sanitize" --output-on-failure -j"$jobs" -L unit
