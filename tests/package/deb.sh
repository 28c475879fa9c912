#!/usr/bin/env bash
# Builds the .deb packages (scripts/package.sh) and checks them as a user's machine would see
# them, without installing anything on this one:
#   - the three packages exist, each with the files of its part and none of another's;
#   - every dependency they declare has an alternative installed here, or is one of them
#     (this machine has what scripts/install-deps.sh installs: a Debian system with OpenCL);
#   - unpacked into an empty root (dpkg -x), the tool runs and its man page renders, and
#     tests/package/consume.sh builds and runs the consumer against that root, through
#     find_package and pkg-config, in C and C++.
#   Usage: tests/package/deb.sh SOURCE WORK        (WORK is emptied first)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source=$(cd "$1" && pwd)
work=$2
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

"$source/scripts/package.sh" "$work/build" >/dev/null 2>&1 ||
  { echo "deb.sh: scripts/package.sh failed" >&2; exit 1; }
version=$(sed -n 's/^#define OCF_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9][0-9]*\).*/\2/p' \
  "$source/include/oclfuse.h" | paste -sd.)
abi=${version%.*}
lib=$work/build/liboclfuse${abi}_${version}-1_$(dpkg --print-architecture).deb
dev=$work/build/liboclfuse-dev_${version}-1_$(dpkg --print-architecture).deb
tool=$work/build/oclfuse_${version}-1_$(dpkg --print-architecture).deb

fail() {
  echo "deb.sh: $*" >&2
  exit 1
}
# has PACKAGE PATTERN / lacks PACKAGE PATTERN: a path matching the extended regex is (not) in it
has() { grep -Eq "$2" <<<"$(dpkg-deb -c "$1")" || fail "$(basename "$1") lacks $2"; }
lacks() { ! grep -Eq "$2" <<<"$(dpkg-deb -c "$1")" || fail "$(basename "$1") has $2"; }

for deb in "$lib" "$dev" "$tool"; do
  [ -f "$deb" ] || fail "no $(basename "$deb") (built: $(ls "$work/build"/*.deb))"
  echo "-- $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version):" \
    "Depends: $(dpkg-deb -f "$deb" Depends)"
done
has "$lib" "/usr/lib/[^ ]*/liboclfuse\.so\.${abi//./\\.}\.[0-9]+$"
lacks "$lib" "oclfuse\.h|liboclfuse\.a|\.pc$|cmake|bin/"
has "$dev" '/usr/include/oclfuse\.h$'
has "$dev" '/liboclfuse\.a$'
has "$dev" '/liboclfuse\.so -> '
has "$dev" '/cmake/oclfuse/oclfuseConfig\.cmake$'
has "$dev" '/cmake/oclfuse/oclfuseConfigVersion\.cmake$'
has "$dev" '/pkgconfig/oclfuse\.pc$'
lacks "$dev" '/liboclfuse\.so\.[0-9]|bin/'
has "$tool" '/usr/bin/oclfuse$'
has "$tool" '/usr/share/man/man1/oclfuse\.1'
has "$tool" '/usr/share/doc/oclfuse/JSON\.md$'
lacks "$tool" 'liboclfuse|oclfuse\.h'

# Each declared dependency: one of its alternatives is installed here, or is one of ours.
ours=" $(for deb in "$lib" "$dev" "$tool"; do dpkg-deb -f "$deb" Package; done | paste -sd' ') "
for deb in "$lib" "$dev" "$tool"; do
  while IFS= read -r dependency; do
    met=0
    for alternative in $(tr '|' '\n' <<<"$dependency" | sed 's/(.*)//'); do
      if [[ "$ours" == *" $alternative "* ]] ||
        dpkg-query -W -f='${Status}\n' "$alternative" 2>/dev/null | grep -q 'ok installed'; then
        met=1
      fi
    done
    [ $met = 1 ] || fail "$(basename "$deb"): nothing here provides '$dependency'"
  done < <(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//')
done

# Unpacked into an empty root, as `dpkg -i` would lay the files out.
root=$work/root
for deb in "$lib" "$dev" "$tool"; do dpkg -x "$deb" "$root"; done
libdir=$(dirname "$(find "$root" -name "liboclfuse.so.$abi" -print -quit)")
got=$(LD_LIBRARY_PATH=$libdir "$root/usr/bin/oclfuse" --version)
[ "$got" = "oclfuse $version" ] || fail "oclfuse --version printed '$got'"
LD_LIBRARY_PATH=$libdir "$root/usr/bin/oclfuse" devices >/dev/null || fail "oclfuse devices failed"
man_page=$(find "$root/usr/share/man/man1" -name 'oclfuse.1*' -print -quit)
groff -man -Tutf8 "$man_page" 2>/dev/null | grep -q 'oclfuse bench' || fail "man page does not render"
echo "-- unpacked into $root: oclfuse --version, devices and its man page work"
"$here/consume.sh" "$root/usr" "$work/consume"
