#!/bin/bash
# Wide softmax and norm workgroups (issue 19, item 2): rows.wide_wg 0 (the shipped default, off),
# 512 and 1024 on the H200, torch beside in the same call, one GPU round from the tree's root:
#   OUT=/some/dir bash tools/lab/h200/round_widewg.sh
# NVIDIA's driver reports CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, yet runs 1024
# work-items where the registers fit; rows.wide_wg gives plans of one workgroup a row
# (softmax_rows with one row a group, softmax_resident) that many work-items once the wide probe
# passed (src/runtime/wide_probe.c), with
# -cl-nv-maxrregcount=65536/wg (128 at 512, 64 at 1024) and at most half of those registers
# holding the row (docs/SOFTMAX.md, "Wide workgroups"). Every other value is the context's
# (built-in and shipped).
# 1. builds (Release, /tmp/b_round_widewg: the library, softmax_lab, test_plan_softmax,
#    test_plan_norm, test_wide_workgroup);
# 2. softmax_lab: fp32 and bf16 on 4096x4096, 8192x1024, 4096x16384, 1823x781, 512x50257 under
#    auto, rows.wide_wg=512 and rows.wide_wg=1024 (a config that plans as one already timed is
#    skipped: 8192x1024, 1823x781, bf16 4096x4096 and bf16 512x50257 keep their plans and time
#    auto only; docs/SOFTMAX.md lists the plans), each plan printed, each
#    config checked against the CPU reference before it is timed;
# 3. library_norm_time.c: RMSNorm and LayerNorm fp32 and bf16 on 8192x4096, 1024x16384 and
#    4096x8192 (norm_rows of one row a workgroup of 256 today) under norm's rows.wide_wg 0, 512,
#    1024, each line with its plan and error;
# 4. the peers: softmax_peers.py (torch.softmax, compiled) and norm_peers.py (F.layer_norm,
#    F.rms_norm, compiled) on the same shapes and types;
# 5. ctest test_plan_softmax, test_plan_norm and test_wide_workgroup on the GPU (the probe, a
#    wide launch, a refused one, on NVIDIA's own driver).
# About 3 minutes after the build. Writes $OUT/widewg.txt.
set -u
out=${OUT:-/tmp/widewg}
mkdir -p "$out"
log=$out/widewg.txt
b=/tmp/b_round_widewg
start=$SECONDS
{
  echo "== round_widewg $(git log --oneline -1 2>/dev/null)"
  if ! cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON -DOCLFUSE_BUILD_LAB=ON \
    >$b.build.txt 2>&1 ||
    ! cmake --build $b -j16 --target oclfuse softmax_lab test_plan_softmax test_plan_norm \
      test_wide_workgroup \
      >>$b.build.txt 2>&1; then
    tail -40 $b.build.txt
    exit 1
  fi
  cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L$b -loclfuse -lOpenCL -lm \
    -Wl,-rpath,$b -o /tmp/widewg_norm_time || exit 1
  echo "built at $((SECONDS - start)) s"
  shapes=(4096x4096 8192x1024 4096x16384 1823x781 512x50257)
  : >/tmp/widewg_shapes.txt
  for dt in f32 bf16; do
    for s in "${shapes[@]}"; do
      echo "${s%x*} ${s#*x} $dt $dt softmax" >>/tmp/widewg_shapes.txt
    done
  done
  echo "== softmax_lab (auto: rows.wide_wg=0)"
  LAB_CONFIGS="auto;rows.wide_wg=512;rows.wide_wg=1024" timeout 120 $b/tools/lab/softmax/softmax_lab \
    --shapes /tmp/widewg_shapes.txt --budget 100 2>/tmp/widewg_lab.err | cut -f2-4,8-17
  grep -v "^softmax_lab: \[" /tmp/widewg_lab.err | tail -5
  echo "   at $((SECONDS - start)) s"
  echo "== norm (GB/s: one read and one write of x; \"\" is rows.wide_wg=0)"
  for dt in f32 bf16; do
    for s in "8192 4096" "1024 16384" "4096 8192"; do
      for kind in rms layer; do
        # shellcheck disable=SC2086
        timeout 15 /tmp/widewg_norm_time $kind $dt $s "" "rows.wide_wg=512" "rows.wide_wg=1024"
      done
    done
  done
  echo "   at $((SECONDS - start)) s"
  echo "== peers (torch, same call)"
  timeout 180 python3 tools/lab/h200/norm_peers.py 8192x4096:f32 1024x16384:f32 4096x8192:f32 \
    8192x4096:bf16 1024x16384:bf16 4096x8192:bf16 2>&1 | tail -8
  peers=()
  for dt in f32 bf16; do
    for s in "${shapes[@]}"; do peers+=("$s:$dt"); done
  done
  timeout 180 python3 tools/lab/h200/softmax_peers.py "${peers[@]}" 2>&1 | tail -10
  echo "   at $((SECONDS - start)) s"
  echo "== ctest test_plan_softmax, test_plan_norm, test_wide_workgroup (NVIDIA)"
  (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout 120 \
    ctest -R '^test_plan_softmax$|^test_plan_norm$|^test_wide_workgroup$' \
      --output-on-failure 2>&1 | grep -E "Test +#|tests passed|FAILED|fail|Skipped|SKIPPED" | head -20)
  echo "done at $((SECONDS - start)) s"
} >"$log" 2>&1
cat "$log"
