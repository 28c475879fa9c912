#!/bin/bash
# The softmax lab in one call on the GPU machine, from the project's root:
#
#     source .gpu/env.sh && tools/lab/softmax/run.sh
#
# 1. builds the lab (Release, in $LAB_BUILD, default /tmp/b: the same tree as the usual
#    `cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/b -j16`);
# 2. times liboclfuse's softmax under its built-in tuning and under tuning overrides on the
#    cases of shapes.txt (softmax_lab, at most $LAB_SECONDS before it stops starting configs);
# 3. times the peers on the same cases (peers.py: torch, torch.compile, Triton; at most
#    $PEERS_SECONDS);
# 4. prints one table (report.py).
# Raw results go to $OUT (the device tool's folder) or /tmp/softmax_lab: lab.tsv, lab.log,
# peers.tsv, peers.log, report.txt. Each step runs under a hard time limit, so the whole stays
# near 2.5 minutes and never hangs.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1
build=${LAB_BUILD:-/tmp/b}
out=${OUT:-/tmp/softmax_lab}
lab_seconds=${LAB_SECONDS:-65}
peers_seconds=${PEERS_SECONDS:-55}
mkdir -p "$out"

started=$(date +%s)
if ! timeout -k 5 150 bash -c "cmake -S . -B '$build' -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_BUILD_LAB=ON >'$out/build.log' 2>&1 &&
     cmake --build '$build' -j16 --target softmax_lab >>'$out/build.log' 2>&1"; then
  echo "run.sh: the build failed; the end of $out/build.log:"
  tail -20 "$out/build.log"
  exit 1
fi
echo "built in $(($(date +%s) - started)) s"

lab=tools/lab/softmax
timeout -k 5 $((lab_seconds + 30)) "$build/$lab/softmax_lab" --shapes $lab/shapes.txt \
  --budget "$lab_seconds" >"$out/lab.tsv" 2>"$out/lab.log"
echo "lab: exit $?, $(grep -c $'\tok\t' "$out/lab.tsv") configs timed, $(($(date +%s) - started)) s"

timeout -k 5 $((peers_seconds + 40)) python3 $lab/peers.py --shapes $lab/shapes.txt \
  --budget "$peers_seconds" >"$out/peers.tsv" 2>"$out/peers.log"
echo "peers: exit $?, $(($(date +%s) - started)) s"

python3 $lab/report.py "$out/lab.tsv" "$out/peers.tsv" | tee "$out/report.txt"
