#!/usr/bin/env bash
# oclfuse.pc when the install folders are given as absolute paths: it must name them as they
# are (the folders of a relative layout are found from the file's own place instead). Only
# configures liboclfuse, with the given folders, and reads the file it would install.
#   Usage: tests/package/pc_paths.sh SOURCE WORK        (WORK is emptied first)
set -euo pipefail
source=$1
work=$2
rm -rf "$work"
cmake -S "$source" -B "$work" -DOCLFUSE_BUILD_TESTS=OFF -DOCLFUSE_BUILD_BENCH=OFF \
  -DOCLFUSE_INSTALL=ON -DCMAKE_INSTALL_PREFIX=/usr/local -DCMAKE_INSTALL_LIBDIR=/opt/ocf/lib64 \
  -DCMAKE_INSTALL_INCLUDEDIR=/opt/ocf/include/ocf >/dev/null
export PKG_CONFIG_PATH=$work
status=0
expect() { # expect WHAT GOT WANTED
  if [ "$2" = "$3" ]; then echo "-- $1: $2"; else
    echo "oclfuse.pc: $1 is '$2', not '$3'" >&2
    status=1
  fi
}
expect libdir "$(pkg-config --variable=libdir oclfuse)" /opt/ocf/lib64
expect includedir "$(pkg-config --variable=includedir oclfuse)" /opt/ocf/include/ocf
expect "--cflags" "$(pkg-config --cflags oclfuse | xargs)" "-I/opt/ocf/include/ocf"
exit $status
