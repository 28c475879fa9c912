#!/bin/bash
# The GEMM measurements of issue 9 in one call on the GPU machine (about 2.5 minutes, never
# hangs: every step runs under `timeout`). From the project's root, after ../shared/gpu/prepare.sh:
#
#     source .gpu/env.sh && lab/gemm/run.sh            (carry .gpu; results in $OUT)
#
# Builds gemm_lab (lab/gemm/gemm_lab.c), runs it (the library's kernels and tunable settings
# beside CLBlast untuned and H200-tuned; first the shapes that check the last run's findings,
# with their own overrides, then the rest of the issue's shapes), then lab/gemm/peers.py
# (PyTorch's cuBLAS on the same shapes). Prints the ptxas lines and the merged table last; the
# lab's full table is $OUT/lab.txt. Seven files in $OUT: build.log, lab.txt, lab.csv, lab.err,
# peers.txt, peers.err, torch.csv. Extra arguments go to gemm_lab (e.g. --groups square,skinny).
# LAB_SECONDS and PEERS_SECONDS cap the two runs.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/gemm-lab-out}
build=${LAB_BUILD:-/tmp/gemm-lab-build}
lab_seconds=${LAB_SECONDS:-90}
peers_seconds=${PEERS_SECONDS:-30}
mkdir -p "$out"
started=$SECONDS

if ! { timeout -k 5 120 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
         -DOCLFUSE_BUILD_LAB=ON -DOCLFUSE_BUILD_TESTS=OFF &&
       timeout -k 5 120 cmake --build "$build" -j "$(nproc)" --target gemm_lab; } \
       > "$out/build.log" 2>&1; then
  echo "gemm_lab: build failed"; tail -40 "$out/build.log"; exit 1
fi
echo "# gemm_lab built in $((SECONDS - started)) s" >> "$out/build.log"

# The lab stops starting measurements 10 s before its cap, so it usually ends on its own and
# prints its table; killed anyway, its CSV (written row by row) still feeds the merged table.
timeout -k 5 "$lab_seconds" "$build/lab/gemm/gemm_lab" --budget $((lab_seconds - 10)) \
  --csv "$out/lab.csv" --ptxas "$@" > "$out/lab.txt" 2> "$out/lab.err"
echo "gemm_lab exit status $? (124: cut by timeout)" >> "$out/lab.txt"

timeout -k 5 "$peers_seconds" python3 "$root/lab/gemm/peers.py" --lab "$out/lab.csv" \
  --budget $((peers_seconds - 10)) --out "$out/torch.csv" > "$out/peers.txt" 2> "$out/peers.err"
echo "peers.py exit status $? (124: cut by timeout)" >> "$out/peers.txt"

grep '^ptxas ' "$out/lab.txt"
grep -E '^# gemm_lab on|s in all|exit status' "$out/lab.txt"
echo "# $((SECONDS - started)) s in all; the lab's full table: lab.txt"
cat "$out/peers.txt"
