#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, and runs every
# test suite on the default OpenCL device (PoCL on a machine without a GPU), then again under
# Oclgrind on small sizes.   Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
