#!/usr/bin/env bash
# Installs, from Debian/Ubuntu packages, whatever the build, the tests and the benchmark need and
# this machine lacks. Installs nothing when everything is present. Uses sudo when not root.
set -euo pipefail

packages=(
  cmake make gcc g++ pkg-config  # g++: the package test builds a C++ consumer of the header
  dpkg-dev         # dpkg-shlibdeps, for the .deb packages' dependencies (scripts/package.sh)
  doxygen          # the API reference, checked with warnings as errors (ctest -L docs)
  groff-base       # the man page's check
  ocl-icd-opencl-dev opencl-headers clinfo
  pocl-opencl-icd  # an OpenCL CPU device, so that everything runs without a GPU
  mesa-opencl-icd  # a second one: rusticl's llvmpipe (RUSTICL_ENABLE=llvmpipe, ctest -L rusticl)
  libclblast-dev   # the tests' and the benchmark's cross-check, never a library dependency
  libcmocka-dev
  oclgrind         # kernel checks: out-of-bounds, uninitialized reads, data races
  valgrind         # the host code's checks (ctest -L valgrind)
  gnuplot-nox      # `oclfuse bench --plot`
  clang libclang-rt-dev  # scripts/test.sh's short fuzzing run (libFuzzer)
  python3-numpy python3-pytest python3-pyopencl  # the Python package's tests (ctest -L python)
  python3-pip      # its `pip install` test (python3-setuptools comes with it)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
