#!/bin/bash
# GPU call 13: the shipped H200 database before (softmax entries only) and as shipped now (add
# large, matmul small_k, large_k, small added), A/B in one call: oclfuse bench on the default sweep's shapes and 24
# that are not powers of two, alternating A B A B; no user database.
set -u
OUT=${OUT:?}
source .gpu/env.sh
t0=$SECONDS
rm -rf /tmp/old && mkdir -p /tmp/old && tar --exclude=./.gpu --exclude=./.gpu-run --exclude=./build -cf - . | tar -xf - -C /tmp/old
cp .gpu-run/old-h200.tuning /tmp/old/src/tuning/shipped/nvidia-h200.tuning
for t in new old; do
  src=.; [ $t = old ] && src=/tmp/old
  (cmake -S $src -B /tmp/$t -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/$t -j16 --target oclfuse_tool) > /tmp/build-$t.log 2>&1 || { tail -30 /tmp/build-$t.log; exit 1; }
done
echo "built at $((SECONDS - t0)) s"
export OCLFUSE_TUNING_DIR=/tmp/ocf-empty; mkdir -p $OCLFUSE_TUNING_DIR
SM=65536x128,16384x1024,4096x4096,2048x16384,1024x65536,1823x781,512x50257,128x262144,4096x1000,8192x3000,2048x12345,32768x200,1000x4097,128x100000,64x262147,16384x257,3000x30000
MM=256x256x256,1500x2500x3500,2999x3001x2048,2000x3000x1500,64x64x64,4096x4096x64,4097x4095x33,1000x1000x48,512x512x16384,515x513x8195,512x512x512,1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,1000x1000x1000,4097x4095x1023,4097x4095x4104,3000x3000x3000,5000x1234x777,8192x8192x1024,1024x1024x16384,4096x8x4096,16384x1x8192,100x100x100,6144x6144x6144,777x777x777
AD=2^16,2^18,2^20,2^22,2^24,2^26,2^28,1000003,33554431,100000007
mkdir -p /tmp/raw
for rep in 1 2; do
  for t in old new; do
    O=/tmp/$t/bench/oclfuse
    timeout 100 $O bench --quiet --op softmax,matmul --sizes $SM,$MM --format json > /tmp/raw/$t-$rep-sm.json 2>> /tmp/raw/err.txt
    timeout 40 $O bench --quiet --op add --sizes $AD --format json > /tmp/raw/$t-$rep-add.json 2>> /tmp/raw/err.txt
    echo "$t rep $rep at $((SECONDS - t0)) s"
  done
done
tar czf $OUT/ab-raw.tar.gz -C /tmp raw
python3 - <<'PY' | tee $OUT/ab.txt
import json, glob, statistics, os
rates = {}
for f in sorted(glob.glob("/tmp/raw/*.json")):
    t = os.path.basename(f).split("-")[0]
    try: run = json.load(open(f))
    except Exception as e: print("unreadable", f, e); continue
    for r in run["results"]:
        if r["sweep"] or r["variant"] != "oclfuse" or not r["rate"]: continue
        rates.setdefault((r["op"], r["shape"]), {}).setdefault(t, []).append((r["rate"], r["plan"]))
print("%-8s %-18s %10s %10s %7s  %s" % ("op", "shape", "old", "new", "new/old", "plan (new)"))
for (op, shape), d in rates.items():
    if "old" not in d or "new" not in d: continue
    o = statistics.median(x[0] for x in d["old"]); n = statistics.median(x[0] for x in d["new"])
    same = d["old"][0][1] == d["new"][0][1]
    print("%-8s %-18s %10.1f %10.1f %7.3f  %s%s" % (op, shape, o, n, n / o, "" if not same else "(same plan) ", d["new"][0][1][:70]))
PY
echo "done at $((SECONDS - t0)) s"
