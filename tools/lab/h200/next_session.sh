#!/bin/bash
# What the session after 2026-12-02's GPU-less one runs on the H200, in three device calls of at
# most 10 minutes each (every call: `source .gpu/env.sh && bash tools/lab/h200/next_session.sh N`,
# carry .gpu). Each call builds once (Release, the lab on, /tmp/b; the round scripts' own build
# folders are links to it, so their builds find it done), then:
#   1  the suites on the GPU: `ctest -L nvidia` with OCFT_STAGED=1 (test_matmul_staged after the
#      binder fix, the f16_cvt PTX path, attention_mma's PTX path), `ctest -L unit`, the host
#      cost against a raw launch (round_bufreg.sh: whether the buffer registry's probe passes on
#      NVIDIA, test_buffer_registry there, issue 17's 1.5 us goal), and the f16_cvt
#      round (round_f16cvt.sh: norm and softmax fp16, each conversion path, torch beside);
#   2  attention_mma's round (round_attention_mma.sh: the suite, prefill and decode beside FA2 and
#      cuDNN, the PTX);
#   3  the ragged fp32 GEMM round (round_ragged.sh: tiled.pad_min's decision, cuBLAS beside) and
#      `oclfuse bench` (the default GPU sweep, now with the L2 flushed before each call).
# Everything lands in $OUT/call<N>.tgz and a summary in $OUT/call<N>.txt (the device tool
# returns only a few files). What to decide from each: docs/GEMM.md (staged and ragged gates),
# docs/NORM.md and SOFTMAX.md (f16_cvt), docs/ATTENTION.md (mma.on).
set -u
call=${1:?which call: 1, 2 or 3}
out=${OUT:-/tmp/next}
mkdir -p "$out/call$call"
work=$out/call$call
summary=$out/call$call.txt
start=$SECONDS
exec > >(tee "$summary") 2>&1

b=/tmp/b
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON -DOCLFUSE_BUILD_LAB=ON \
  >"$work/build.txt" 2>&1 && cmake --build $b -j16 >>"$work/build.txt" 2>&1 ||
  { tail -40 "$work/build.txt"; exit 1; }
for name in b_f16cvt b_attnmma b_ragged b_bufreg; do [ -e /tmp/$name ] || ln -s $b /tmp/$name; done
echo "built at $((SECONDS - start)) s"

case $call in
1)
  (cd $b && OCFT_STAGED=1 timeout 200 ctest -L nvidia -j4 --output-on-failure >"$work/nvidia.txt" 2>&1)
  echo "nvidia suites rc $? at $((SECONDS - start)) s"
  grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/nvidia.txt" | head -20
  (cd $b && timeout 180 ctest -L unit -j8 --timeout 170 --output-on-failure >"$work/unit.txt" 2>&1)
  echo "unit suites rc $? at $((SECONDS - start)) s"
  grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/unit.txt" | head -20
  OUT=$work/bufreg timeout 120 bash tools/lab/h200/round_bufreg.sh >"$work/bufreg.txt" 2>&1
  tail -40 "$work/bufreg.txt"
  OUT=$work/f16cvt timeout 200 bash tools/lab/h200/round_f16cvt.sh >/dev/null 2>&1
  tail -40 "$work/f16cvt/f16cvt.txt" 2>/dev/null
  ;;
2)
  OUT=$work/attnmma timeout 520 bash tools/lab/h200/round_attention_mma.sh >"$work/attnmma.txt" 2>&1
  tail -60 "$work/attnmma.txt"
  ;;
3)
  OUT=$work/ragged timeout 330 bash tools/lab/h200/round_ragged.sh >"$work/ragged.txt" 2>&1
  tail -50 "$work/ragged.txt"
  timeout 150 $b/bench/oclfuse bench --format json >"$work/bench.json" 2>"$work/bench.err"
  echo "bench rc $?"
  ;;
esac
echo "done at $((SECONDS - start)) s"
tar czf "$out/call$call.tgz" -C "$out" "call$call"
