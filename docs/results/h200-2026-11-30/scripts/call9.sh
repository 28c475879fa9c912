#!/bin/bash
# GPU call 9: per-plan programs. oclfuse tune (every op) on the H200, then the unit suites on NVIDIA.
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build /tmp/b -j16 >> /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
export OCLFUSE_TUNING_DIR=/tmp/ocf-tune
mkdir -p $OCLFUSE_TUNING_DIR
/usr/bin/time -f "tune wall %e s" timeout 330 /tmp/b/bench/oclfuse tune --budget ${TUNE_BUDGET:-300} > $OUT/tune1.txt 2> $OUT/tune1.err
echo "tune exit $? at $((SECONDS - t0)) s"
mkdir -p $OUT/db && cp $OCLFUSE_TUNING_DIR/* $OUT/db/ 2>/dev/null
cat $OUT/tune1.txt; tail -3 $OUT/tune1.err
unset OCLFUSE_TUNING_DIR
left=$((575 - (SECONDS - t0)))
cd /tmp/b && OCLFUSE_TEST_DEVICE=NVIDIA timeout $left ctest -j4 -L unit --output-on-failure --timeout $left > $OUT/unit.txt 2>&1
echo "unit exit $? at $((SECONDS - t0)) s"
grep -E "Test +#|tests passed|FAILED|Failure|error" $OUT/unit.txt | head -40
