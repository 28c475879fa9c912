#!/usr/bin/env bash
# The test command (CI runs it from .ci/run): installs what is missing, builds with warnings as
# errors, and runs every suite:
#   - the planner suite, which needs no OpenCL at all (label plan);
#   - the unit suites and `oclfuse check` on the default device, PoCL on a machine without a GPU
#     (unit), again under Oclgrind on small sizes (oclgrind) and under valgrind (valgrind);
#   - the unit suites and `oclfuse check` again on a second implementation, Mesa's rusticl on
#     llvmpipe (rusticl);
# then builds again with AddressSanitizer and UBSan and runs the plain suites there.
#   Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=$(nproc)
scripts/install-deps.sh

# rusticl lists its llvmpipe device only when RUSTICL_ENABLE asks for it, and the rusticl tests
# set it themselves. Unset here, the default device is PoCL's: with both enabled, the two CPU
# platforms tie in the ICD loader's order, which follows the vendors directory.
unset RUSTICL_ENABLE

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON
cmake --build "$build" -j"$jobs"
"$build"/bench/oclfuse devices
# The rusticl tests exist where rusticl is installed, which install-deps.sh sees to: a CI run
# without them would pass on PoCL alone.
rusticl_tests=$(ctest --test-dir "$build" -N -L rusticl)
if [[ "$rusticl_tests" != *"Total Tests: "[1-9]* ]]; then
  echo "no rusticl tests: is mesa-opencl-icd installed (/etc/OpenCL/vendors/rusticl.icd)?" >&2
  exit 1
fi
ctest --test-dir "$build" --output-on-failure -j"$jobs"

# The sanitizers check liboclfuse's own host code, with PoCL as the device. The ICD loader loads
# PoCL alone there: Clover (packaged with rusticl) loads a gallium driver, leaks 128 bytes in it
# and unloads it, and LeakSanitizer reports that from a module no suppression can name.
cmake -S . -B "$build-sanitize" -DCMAKE_BUILD_TYPE=Debug -DOCLFUSE_WERROR=ON -DOCLFUSE_SANITIZE=ON
cmake --build "$build-sanitize" -j"$jobs"
OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd \
  LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0" \
  ctest --test-dir "$build-sanitize" --output-on-failure -j"$jobs" -L 'unit|plan'
