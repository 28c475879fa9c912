#!/bin/bash
# GPU call 14: oclfuse tune --op add,matmul with the per-shape guard (a winner may be no more than
# 2 % slower than the choice in force on any of its class's shapes), from the final shipped
# database; reported, not shipped.
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build /tmp/b -j16 --target oclfuse_tool >> /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
export OCLFUSE_TUNING_DIR=/tmp/ocf-tune; mkdir -p $OCLFUSE_TUNING_DIR
/tmp/b/bench/oclfuse tune --show > $OUT/show.txt 2>&1
/usr/bin/time -f "tune wall %e s" timeout 280 /tmp/b/bench/oclfuse tune --op add,matmul --budget ${TUNE_BUDGET:-230} > $OUT/tune.txt 2> $OUT/tune.err
echo "tune exit $? at $((SECONDS - t0)) s"; cut -c1-140 $OUT/tune.txt; grep -o "([0-9]* faster.*" $OUT/tune.txt; tail -1 $OUT/tune.err
cp /tmp/ocf-tune/*.tuning $OUT/ 2>/dev/null
