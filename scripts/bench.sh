#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the benchmark on the default OpenCL
# device (OCLFUSE_DEVICE or --device picks another). Extra arguments go to `oclfuse bench`.
#   Usage: scripts/bench.sh [oclfuse bench options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target oclfuse_tool
build/bench/oclfuse bench "$@"
