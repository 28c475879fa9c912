#!/usr/bin/env bash
# Builds the Debian packages: liboclfuse0.MINOR (the shared library), liboclfuse-dev (header, static
# library, CMake package, pkg-config file) and oclfuse (the tool and its man page), into the
# build folder (default build-deb), configured for /usr as a Debian package installs there.
#   Usage: scripts/package.sh [build-dir]      then: sudo apt install ./build-deb/*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-deb}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DOCLFUSE_BUILD_TESTS=OFF -DOCLFUSE_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/*.deb
