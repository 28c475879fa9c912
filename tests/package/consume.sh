#!/usr/bin/env bash
# Builds tests/package/consumer.c the ways another project would, and runs each program:
#   find_package(oclfuse) and pkg-config against the installed tree PREFIX, as C11 and C++11,
#   against the shared library and (CMake) the static one; then, when SOURCE is given,
#   add_subdirectory(SOURCE) as C and C++. Every build uses -Wall -Wextra -Werror.
#   Usage: tests/package/consume.sh PREFIX WORK [SOURCE]
# WORK is emptied first. Exits non-zero at the first build or program that fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(cd "$1" && pwd)
work=$2
source=${3:-}
rm -rf "$work"
mkdir -p "$work"
cmake_quiet=(-DCMAKE_BUILD_TYPE= -Wno-dev)

run() { # run NAME PROGRAM: runs a built consumer and says which way it was built
  echo "-- $1: $("$2")"
}

# ---- find_package ----
cmake -S "$here" -B "$work/find" "${cmake_quiet[@]}" -DOCLFUSE_CONSUME=package \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/find.log"
cmake --build "$work/find" -j2 >>"$work/find.log"
run "find_package, C, shared" "$work/find/consumer_c"
run "find_package, C++, shared" "$work/find/consumer_cxx"
run "find_package, C, static" "$work/find/consumer_c_static"

# ---- pkg-config ----
pc=$(find "$prefix" -name oclfuse.pc -print -quit)
[ -n "$pc" ] || { echo "no oclfuse.pc under $prefix" >&2; exit 1; }
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
libdir=$(pkg-config --variable=libdir oclfuse)
read -r -a flags <<<"$(pkg-config --cflags --libs oclfuse)"
cc -std=c11 -Wall -Wextra -Werror "$here/consumer.c" "${flags[@]}" -o "$work/pc_c"
c++ -x c++ -std=c++11 -Wall -Wextra -Werror "$here/consumer.c" -x none "${flags[@]}" \
  -o "$work/pc_cxx"
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} run "pkg-config, C" "$work/pc_c"
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} run "pkg-config, C++" "$work/pc_cxx"

# ---- add_subdirectory ----
if [ -n "$source" ]; then
  cmake -S "$here" -B "$work/sub" "${cmake_quiet[@]}" -DOCLFUSE_CONSUME=subdirectory \
    -DOCLFUSE_SOURCE_DIR="$(cd "$source" && pwd)" >"$work/sub.log"
  # The consumers alone: they must pull in the library they link and nothing else.
  cmake --build "$work/sub" -j2 --target consumer_c consumer_cxx consumer_c_static >>"$work/sub.log"
  if grep -q '^OCLFUSE_BUILD_\(TESTS\|BENCH\):BOOL=ON' "$work/sub/CMakeCache.txt"; then
    echo "as a subproject liboclfuse turned its tests or tool on" >&2
    exit 1
  fi
  run "add_subdirectory, C, shared" "$work/sub/consumer_c"
  run "add_subdirectory, C++, shared" "$work/sub/consumer_cxx"
  run "add_subdirectory, C, static" "$work/sub/consumer_c_static"
fi
