#!/bin/bash
# GPU call 6: softmax tuning candidates for the wide/long/huge classes as user databases, timed by
# oclfuse bench on the same shapes; then the NVIDIA matmul suites that failed in call 5.
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build /tmp/b -j16 >> /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
S=2048x16384,4096x12000,1024x65536,512x50257,3000x30000,128x262144,64x262147,16x1000003,8x4000000
for v in none A B C D; do
  dir=/tmp/db-$v; mkdir -p $dir
  [ $v != none ] && cp .gpu-run/db/$v.tuning $dir/nvidia-corporation-nvidia-h200-989df4e1.tuning
  OCLFUSE_VERBOSE=1 OCLFUSE_TUNING_DIR=$dir timeout 70 /tmp/b/bench/oclfuse bench --op softmax --sizes $S --format csv > $OUT/sm-$v.csv 2> /tmp/sm-$v.err
  echo "$v exit $? at $((SECONDS - t0)) s; $(grep -ci 'ignor' /tmp/sm-$v.err) ignore lines"
  grep -i "ignor\|tuning" /tmp/sm-$v.err | head -3
done
cd /tmp/b && OCLFUSE_TEST_DEVICE=NVIDIA timeout 200 ctest -j2 --output-on-failure --timeout 190 \
  -R '^(test_matmul|test_matmul_skinny)$' > $OUT/unit.txt 2>&1
echo "unit exit $? at $((SECONDS - t0)) s"
grep -E "Test +#|tests passed|Failure" $OUT/unit.txt | head
cd $OUT && python3 - <<'PY'
import csv, glob
rows = {}
for f in sorted(glob.glob("sm-*.csv")):
    v = f[3:-4]
    for r in csv.DictReader(open(f)):
        if r["variant"] == "oclfuse" and r["sweep"] in ("0", "false") and r["op"] == "softmax":
            rows.setdefault(r["shape"], {})[v] = (r["rate"], r["status"], (r.get("plan") or "")[:40])
for shape, d in rows.items():
    print(shape, "  ".join("%s=%s%s" % (v, x[0], "" if x[1] == "ok" else "(" + x[1] + ")") for v, x in d.items()))
    print("    ", " | ".join("%s:%s" % (v, x[2]) for v, x in d.items()))
PY
