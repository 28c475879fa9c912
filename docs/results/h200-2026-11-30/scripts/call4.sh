#!/bin/bash
# GPU call 4: the merged tree: first calls (cache states), bench default sweep + odd shapes, peers.
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > $OUT/build.log 2>&1 &&
  cmake --build /tmp/b -j16 >> $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
O=/tmp/b/bench/oclfuse
export OCLFUSE_TUNING_DIR=/tmp/ocf-first
{
  echo "== cold: no disk cache, CUDA cache off"
  CUDA_CACHE_DISABLE=1 timeout 120 $O warmup --first-calls --quiet
  echo "== populate the disk cache (oclfuse warmup)"
  /usr/bin/time -f "warmup %e s" timeout 200 $O warmup --quiet
  echo "== warm disk cache, CUDA cache on"
  timeout 60 $O warmup --first-calls --quiet
  echo "== warm disk cache, CUDA cache off (PTX compiled again)"
  CUDA_CACHE_DISABLE=1 timeout 60 $O warmup --first-calls --quiet
} > $OUT/first.txt 2>&1
echo "first calls at $((SECONDS - t0)) s"; cat $OUT/first.txt | tail -30
export OCLFUSE_TUNING_DIR=/tmp/ocf-bench
timeout 230 $O bench --quiet --format json > $OUT/bench.json 2> $OUT/bench.err
echo "bench at $((SECONDS - t0)) s (exit $?)"
SM=1823x781,512x50257,4096x1000,8192x3000,2048x12345,32768x200,1000x4097,128x100000,64x262147,16384x257,3000x30000
MM=4097x4095x4104,3000x3000x3000,1000x1000x1000,5000x1234x777,8192x8192x1024,1024x1024x16384,4096x8x4096,16384x1x8192,100x100x100,6144x6144x6144
timeout 150 $O bench --quiet --op softmax,matmul --sizes $SM,$MM --format json > $OUT/odd.json 2> $OUT/odd.err
echo "odd at $((SECONDS - t0)) s (exit $?)"
left=$((560 - (SECONDS - t0)))
[ $left -gt 100 ] && left=100
for f in bench odd; do
  [ -s $OUT/$f.json ] && timeout $((left / 2 + 10)) python3 bench/peers.py --bench $OUT/$f.json --repeat 15 --budget $((left / 2)) --out $OUT/peers-$f.tsv > /dev/null 2> $OUT/peers-$f.err
done
echo "peers at $((SECONDS - t0)) s"
python3 - <<'PY'
import json, os
for f in ("bench", "odd"):
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
