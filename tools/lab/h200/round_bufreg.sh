#!/bin/bash
# The buffer registry's GPU round (issue 17's goal: every op within 1.5 us of a raw enqueue):
# builds (Release, /tmp/b_bufreg), says whether the context's probe turned the registry on
# (OCLFUSE_VERBOSE: "buffer registry: on" or "off"), runs its suite on the GPU (a released
# handle taken by a new buffer of another size: if NVIDIA gave a handle back before the old
# buffer's callback ran while the probe passed, test_registry_reused_handle_* fails), then
# tools/host_cost three times (held and set floors, counts: 1 OpenCL call a repeated op where
# the registry is on, 13 / 9 / 13 where it is off).
#   source .gpu/env.sh && OUT=$OUT/bufreg bash tools/lab/h200/round_bufreg.sh
set -u
out=${OUT:-/tmp/bufreg}
mkdir -p "$out"
b=/tmp/b_bufreg
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/bufreg_build.txt 2>&1 &&
    cmake --build $b -j16 --target oclfuse_host_cost test_buffer_registry \
      >>/tmp/bufreg_build.txt 2>&1 || { tail -40 /tmp/bufreg_build.txt; exit 1; }
  OCLFUSE_VERBOSE=1 $b/tools/host_cost/oclfuse_host_cost --calls 10 --op add 2>&1 |
    grep -m1 "buffer registry"
  (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA ctest -R '^test_buffer_registry$' --output-on-failure) |
    tail -30
  for i in 1 2 3; do $b/tools/host_cost/oclfuse_host_cost --calls 20000; done
} >"$out/round.txt" 2>&1
tail -60 "$out/round.txt"
