#!/bin/bash
# GPU call 10: per-plan programs. First calls by cache state; then, with call 9's tuned database,
# oclfuse bench on the default sweep and on 21 shapes that are not powers of two; the softmax
# options suite (its coop_items rule changed).
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build /tmp/b -j16 >> /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
O=/tmp/b/bench/oclfuse
export OCLFUSE_TUNING_DIR=/tmp/ocf-first
{
  echo "== cold: no disk cache, CUDA cache off"
  CUDA_CACHE_DISABLE=1 timeout 120 $O warmup --first-calls --quiet
  echo "== populate the disk cache (oclfuse warmup)"
  /usr/bin/time -f "warmup %e s" timeout 240 $O warmup
  echo "== warm disk cache, CUDA cache on"
  timeout 60 $O warmup --first-calls --quiet
  timeout 60 $O warmup --first-calls --quiet
  echo "== warm disk cache, CUDA cache off (PTX compiled again)"
  CUDA_CACHE_DISABLE=1 timeout 60 $O warmup --first-calls --quiet
  CUDA_CACHE_DISABLE=1 timeout 60 $O warmup --first-calls --quiet
} > $OUT/first.txt 2>&1
echo "first calls at $((SECONDS - t0)) s"; tail -22 $OUT/first.txt
export OCLFUSE_TUNING_DIR=/tmp/ocf-tuned
mkdir -p $OCLFUSE_TUNING_DIR && cp .gpu-run/db-tuned/*.tuning $OCLFUSE_TUNING_DIR/
timeout 200 $O bench --quiet --format json > $OUT/bench.json 2> $OUT/bench.err
echo "bench at $((SECONDS - t0)) s (exit $?)"
SM=1823x781,512x50257,4096x1000,8192x3000,2048x12345,32768x200,1000x4097,128x100000,64x262147,16384x257,3000x30000
MM=4097x4095x4104,3000x3000x3000,1000x1000x1000,5000x1234x777,8192x8192x1024,1024x1024x16384,4096x8x4096,16384x1x8192,100x100x100,6144x6144x6144
AD=1000003,33554431,100000007
timeout 150 $O bench --quiet --op softmax,matmul --sizes $SM,$MM --format json > $OUT/odd.json 2> $OUT/odd.err
timeout 30 $O bench --quiet --op add --sizes $AD --format json > $OUT/oddadd.json 2>> $OUT/odd.err
echo "odd at $((SECONDS - t0)) s (exit $?)"
unset OCLFUSE_TUNING_DIR
left=$((570 - (SECONDS - t0)))
[ $left -gt 30 ] && (cd /tmp/b && OCLFUSE_TEST_DEVICE=NVIDIA timeout $left ctest -R '^test_softmax_options$' --output-on-failure > $OUT/unit.txt 2>&1; echo "softmax_options exit $?"; tail -3 $OUT/unit.txt)
python3 - <<'PY'
import json, os
for f in ("bench", "odd", "oddadd"):
    p = os.path.join(os.environ["OUT"], f + ".json")
    try:
        run = json.load(open(p))
    except Exception as e:
        print(f, "unreadable", e); continue
    print("==", f, run.get("ceiling"))
    for r in run["results"]:
        if r["sweep"]: continue
        print("%-8s %-18s %-14s %-8s %10s %-7s %6s  %s" % (r["op"], r["shape"], r["variant"], r["status"],
              "%.1f" % r["rate"] if r["rate"] else "-", r["unit"] or "", "%.1f" % r["percent_of_ceiling"] if r["percent_of_ceiling"] else "-",
              (r["plan"] or r["note"] or "")[:70]))
PY
