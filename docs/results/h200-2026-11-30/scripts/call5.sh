#!/bin/bash
# GPU call 5: oclfuse tune (softmax) on the H200, then the unit suites on NVIDIA.
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build /tmp/b -j16 >> /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
export OCLFUSE_TUNING_DIR=/tmp/ocf-tune
mkdir -p $OCLFUSE_TUNING_DIR
timeout 260 /tmp/b/bench/oclfuse tune --op softmax --budget 230 > $OUT/tune.txt 2> $OUT/tune.err
echo "tune exit $? at $((SECONDS - t0)) s"
cp $OCLFUSE_TUNING_DIR/*.tuning $OUT/ 2>/dev/null
tail -40 $OUT/tune.txt
unset OCLFUSE_TUNING_DIR
left=$((570 - (SECONDS - t0)))
cd /tmp/b && OCLFUSE_TEST_DEVICE=NVIDIA timeout $left ctest -j3 --output-on-failure --timeout $left \
  -R '^(test_softmax|test_softmax_options|test_matmul_mma|test_matmul|test_matmul_skinny|test_matmul_precision|test_add|test_matmul_batched|test_matmul_epilogue)$' > $OUT/unit.txt 2>&1
echo "unit exit $? at $((SECONDS - t0)) s"
grep -E "Test +#|tests passed|FAILED|Failure|error" $OUT/unit.txt | head -40
