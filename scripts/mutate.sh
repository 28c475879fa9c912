#!/usr/bin/env bash
# Mutation testing: applies small deliberate bugs to the kernels and the host checks, one at a
# time, to a copy of the working tree, rebuilds, runs the suites that should notice, and reports
# which bugs the tests catch (and with which test) and which survive. Not a CI gate (a run takes
# tens of minutes on a CPU device); run it before resolving a change to kernels or checks, and
# add a mutation to the list below with every kernel or check you add.
#
#   Usage: scripts/mutate.sh [ID ...]       every mutation, or the ones named
#          scripts/mutate.sh --list         the list
# Environment: MUTATE_DIR (default /tmp/oclfuse-mutate: the copy and its build), JOBS; the suites
# inherit the rest (OCLFUSE_TEST_SMALL=1 runs their small shapes: fewer kernels to compile for
# each mutant, but fewer shapes to catch it with, so the default runs them whole).
#
# The copy keeps the files' modification times (tar), and $MUTATE_DIR/build is reused: a file
# edited after an earlier run's copy but dated before that run's build is not rebuilt; remove
# $MUTATE_DIR/build when in doubt.
#
# A mutation replaces one exact piece of text, which must occur exactly once in its file; if it
# does not (the code moved on), the mutation is reported STALE and the script fails, so that the
# list is kept up to date. A mutation the compiler refuses is reported as such (not a survivor).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=${MUTATE_DIR:-/tmp/oclfuse-mutate}
jobs=${JOBS:-$(nproc)}

# The 28 mutations from struct-size-edge on (issue 24: refusal edges, the cache key, the host
# forms' signs, the batched reductions in every layout, out-of-order queues, bounded work) were
# run once with the selections below (2026-12-01, PoCL on the 2-core CI machine): all 28 killed,
# each by a test written for it (test_context_validation_edges, test_add's refusal table,
# test_tuning_db_every_range_edge, test_tuning_cache_keys_name_every_input,
# test_tuning_fifo_in_cache, test_matmul_host, test_batched_multi_kernel_every_layout and
# test_batched_split_k, test_faults_out_of_order_queue, test_plan's edges and bounds, now in
# test_plan_softmax).
# The four attn-mma mutations were run on 2026-12-02 (PoCL, 2 cores): all killed, the kernel's by
# test_attention_mma_shapes, the planner's by test_plan_attention_mma_local_memory.
# softmax-whole-seg was run on 2026-12-06 (this machine, 2 cores): killed by
# test_plan_softmax_whole16.
# The two lw- mutations were run on 2026-12-02 against tools/wgmma_lastwave_check.sh alone (no
# GPU here; test_matmul_wgmma's test_wgmma_lastwave would catch them on the H200): both killed.
# The two norm-stream- mutations were applied by hand on 2026-12-02 (PoCL, test_norm's
# test_norm_streamed alone): both killed.
# The three norm-split-shifted- mutations were run on 2026-12-04, twenty-second session (PoCL, 2
# cores, OCLFUSE_TEST_SMALL=1): see its closing note.
# The four lanes- mutations and decode-join-scale were run on 2026-12-04, twenty-third session
# (PoCL, 2 cores, OCLFUSE_TEST_SMALL=1): all killed, by test_attention_lanes and
# test_attention_split. (A fifth,
# keys past the range's end weighted, survived rightly: ranges are whole steps, so a kept key is
# always below the range's end, and that check left the kernel.)
# The three lanes-join- mutations and mma-join-rows were run on 2026-12-04, twenty-fourth session
# (PoCL): see its closing note.
# The four norm-shifted- mutations were run on 2026-12-04 (PoCL, 2 cores): all killed, by
# test_norm (test_norm_widths: rows of odd stride are SHIFTED on PoCL) and test_plan (now
# test_plan_norm and test_plan's test_plan_bf16_cvt). A fifth,
# a row's first vector loaded from its row's start rather than from its lead, survived and was
# dropped: the lanes before the lead are zeroed again before the sums and never stored.
# baseline-group-rows, baseline-causal-offset and the three wide- mutations were run on
# 2026-12-04 (twenty-fifth session, PoCL, OCLFUSE_TEST_SMALL=1): all killed, the first two by
# test_attention_baseline, the wide- ones by test_attention_special_rows and _shapes.
# direct-key-row and direct-key-tail were run on 2026-12-05 (twenty-eighth session, PoCL, the
# whole test_attention): both killed by test_attention_shapes (the second once it had decoding
# rows of 48 and 80 columns; it survived the suite before them).
# attn-ws-baseline and attn-ws-zero were run on 2026-12-05 (twenty-eighth session, PoCL,
# OCFT_ONLY=test_attention_workspace): both killed by test_attention_workspace.
# The six bound- mutations (a caller's workspace bounds the plan) were run on 2026-12-05
# (twenty-ninth session, PoCL, 2 cores): all killed, by test_plan_scratch_bounds and each op's
# workspace test (test_workspace_softmax and _matmul, test_norm_workspace,
# test_attention_workspace).
# The four heads- mutations (grouped query heads decoded together on CPUs) were run on
# 2026-12-05 (twenty-ninth session, PoCL, 2 cores): all killed, by test_attention_gqa_decode,
# test_attention_masks and test_plan_attention_heads.
# The three stream-join- and two skinny-join- mutations were applied by hand on 2026-12-05
# (thirty-second session, PoCL, 2 cores): all killed by test_matmul_joins (test_stream_shapes
# and test_stream_batch_epilogue each; skinny-join-block by test_skinny_join_batch_epilogue,
# skinny-join-last by both skinny tests).
# Ten mutations the code had left stale (matmul-swap-alpha-beta, matmul-batch-stride-c,
# host-read-wait, attn-mma-second-row-group, lanes-rescale, mma-join-rows, attn-ws-baseline,
# bound-matmul-tiled, direct-key-row, wide-rescale) were moved to the code as it stands, and
# baseline-pool-own and baseline-pool-held added; the twelve were run on 2026-12-07
# (forty-eighth session, PoCL, 2 cores, OCLFUSE_TEST_SMALL=1): all killed, the matmul ones by
# test_matmul_small_and_prime_shapes and test_batched_shapes, host-read-wait by
# test_faults_out_of_order_queue, the attn-mma, lanes and mma-join ones by
# test_attention_mma_shapes, test_attention_lanes and test_attention_mma_split, attn-ws-baseline
# and both baseline-pool- ones by test_attention_baseline_memory, bound-matmul-tiled by
# test_plan_scratch_bounds and test_workspace_matmul, direct-key-row by test_attention_shapes,
# wide-rescale by test_attention_gqa_decode. Their texts now occur twice in cl/attention.cl; the
# list keeps score_keys_direct's and accumulate_wide's, and the same bugs applied by hand to the
# other copies (score_heads_direct, accumulate_direct) were killed by test_attention_masks and
# test_attention_shapes; they are in the list since as heads-key-row and direct-rescale, run the
# same day through the script with chain-eventless-stop: all three killed (test_attention_masks,
# test_attention_shapes, test_faults_resources_warm's test_faults_every_call).
# attn-tma-stages, attn-tma-probe and bound-attention-tma were run on 2026-12-07 (forty-ninth
# session, PoCL, OCFT_ONLY=test_attention_plans; the third applied by hand): all killed by
# test_attention_plans (test_wgmma_tma_plans). The four attn-tma-split ones (fiftieth session,
# the same way): killed by test_attention_plans (test_wgmma_tma_split_plans).
# wave-one-edge, -three, -batch and -first (fifty-first session, PoCL): killed by
# test_plan_matmul_wgmma; block-local-ask, -failed, -off and -launch (the same session): killed
# by test_plan_attention; block-partial-row, -mask, -one and block-pl-stride (the same session,
# PoCL, OCFT_ONLY=test_attention_block): killed by test_attention. split-gate-edge, -row,
# -column and -off (fifty-second session): killed by test_plan_matmul_wgmma.
# id ~ file ~ text ~ replacement ~ ctest -R regex of the suites to run ~ what the bug is
# In text and replacement, \n is a newline. Keep each text unique in its file (and free of '~').
mutations=$(
  cat <<'EOF'
add-tail-guard~cl/add.cl~  if (tail < n) OCF_STORE~  if (tail <= n) OCF_STORE~^test_add$~add_vector: an off-by-one in the ragged tail's guard
add-out-offset~cl/add.cl~  __global real *outs = out + out_off;~  __global real *outs = out;~^test_add$~add_vector: the output offset dropped
add-vector-out-alignment~src/plan/plan_add.c~             call->out_off % vw == 0) {~             1) {~^test_add$~the vector path ignores the output offset's alignment (x and y aligned, out not)
add-alias-check~src/ops/add.c~    return ocf_fail(OCF_ERR_ALIASING, "ocf_add: out partly overlaps x (only out == x is allowed)");~    (void)0;~^test_add$~add: a partial overlap of out and x is no longer refused
softmax-load-mask~cl/softmax_vector.clh~  if (first >= lo && first + VW <= hi) return LOADA(IN_DTYPE, src, k);~  if (first >= lo) return LOADA(IN_DTYPE, src, k);~^test_softmax$~a row's last partial vector read whole (the mask of lanes past the row's end dropped)
softmax-store-mask~cl/softmax_vector.clh~  if (first >= lo && first + VW <= min(mid, hi)) {~  if (first >= lo) {~^test_softmax$~a row's last partial vector stored whole (writes past cols)
softmax-dead-rows~cl/softmax_rows.cl~    if (live && k < w.nv) store_vec(dst, k, w.lo, w.mid, w.hi, y);~    if (k < w.nv) store_vec(dst, k, w.lo, w.mid, w.hi, y);~^test_softmax$~softmax_rows: the rows past the last of a ragged batch store too (over row 0)
softmax-baseline-max~cl/baselines/softmax_unfused.cl~exp(scale * (OCF_LOAD(IN_DTYPE, src, c) - m))~exp(scale * OCF_LOAD(IN_DTYPE, src, c))~^test_softmax$|^test_softmax_options$~the baseline's exp without the row max subtracted
softmax-vector-out-ld~src/plan/plan_softmax.c~(c->in_ld + b.vw - c->out_ld % b.vw) % b.vw != 0)~0)~^test_plan$|^test_plan_softmax$|^test_softmax$~vector access ignores whether out's stride puts its rows' heads where in's are
softmax-alias-check~src/ops/softmax.c~  if (overlap && !in_place)~  if (overlap && !in_place && 0)~^test_softmax$~softmax: out sharing elements with in is no longer refused
softmax-coop-partner~cl/softmax_coop.cl~  for (ulong q = lid; q < parts; q += WG)~  for (ulong q = lid; q + 1 < parts; q += WG)~^test_softmax_options$~softmax_coop: the last slice's published (m, s) left out of the row's statistics
softmax-coop-slice-bound~cl/softmax_coop.cl~min(w->mid, (first + part_vecs) * VW)~min(w->mid, (first + part_vecs + 1) * VW)~^test_softmax_options$~softmax_coop: a slice's statistics read one vector of the next slice
softmax-lengths-padding~cl/softmax_vector.clh~    STOREA(OUT_DTYPE, dst, k, (floatV)(PAD));\n~~^test_softmax_options$~lengths: whole vectors of padding are not written
softmax-lengths-read~cl/softmax_resident.cl~    held_load(src, 0, w.lo, w.mid, v, held);~    held_load(src, 0, w.lo, w.hi, v, held);~^test_softmax_options$~softmax_resident: the columns past a row's length are read into its statistics
softmax-log-sum~cl/softmax_common.clh~  return isfinite(m) ? log(s) : NAN;~  return isfinite(m) ? 0.0f : NAN;~^test_softmax_options$~log-softmax without the log(sum) (t instead of t - log(sum))
overlap-exact~src/arith.c~  return d < a_cols + s * ld;~  return d + 1 < a_cols + s * ld;~^test_overlap$|^test_softmax$~the exact overlap test misses a shared element at a row's end
matmul-swap-alpha-beta~cl/matmul.cl~    store_c_whole(c_tile, ldc, p, tm, tn, alpha, beta, bias, bias_off, acc);~    store_c_whole(c_tile, ldc, p, tm, tn, beta, alpha, bias, bias_off, acc);~^test_matmul$~the tiled kernels' whole tiles: alpha and beta swapped
matmul-ignore-transpose~cl/baselines/matmul_naive.cl~OCF_LOAD(A_DTYPE, ab, TRANS_A ? q * lda + i : i * lda + q)~OCF_LOAD(A_DTYPE, ab, i * lda + q)~^test_matmul$~matmul_naive: A's transpose ignored
matmul-k-remainder~cl/matmul.cl~  const ulong slices = (k + KWG - 1) / KWG;~  const ulong slices = k / KWG;~^test_matmul$~the tiled kernels drop the remainder of K / KWG
matmul-edge-guard~cl/matmul.cl~        if (col < p->nlim) {~        if (col <= p->nlim) {~^test_matmul$~the guarded store writes one column past the edge
skinny-read-c-beta-sign~cl/skinny_epilogue.clh~  const float old = beta != 0.0f ? OCF_LOAD(C_DTYPE, out, 0) : 0.0f;~  const float old = beta == 0.0f ? OCF_LOAD(C_DTYPE, out, 0) : 0.0f;~^test_matmul_skinny$~the skinny kernels read C only when beta = 0 (beta * C is lost). (The read and ocf_matmul_finish both guard beta = 0, so dropping one guard is equivalent.)
matmul-read-ab-alpha-zero~src/ops/matmul.c~  /* alpha == 0 or k == 0: C = act(beta * C + bias); A and B are not read (no K loop). */\n  if (alpha == 0.0f) p.call.k = 0;~  if (0) p.call.k = 0;~^test_matmul$~A and B read when alpha = 0 (NaN in A gives NaN instead of beta * C)
matmul-aligned-ldc~src/plan/plan_matmul.c~vector_ok(call->c_dtype, call->c_off, call->ldc, call->stride_c, batch)~vector_ok(call->c_dtype, call->c_off, 4, call->stride_c, batch)~^test_plan$|^test_plan_matmul$|^test_matmul$~the tiled kernels' aligned C accesses ignore ldc % 4
matmul-3xtf32-cross~cl/matmul.cl~fma(a[i], b_sum[j], fma(a_small[i], b[j], acc[i * NWI + j]))~fma(a[i], b_sum[j], acc[i * NWI + j])~^test_matmul_precision$~3XTF32 in the tiled kernels: the small_a * big_b product dropped
matmul-tf32-trunc-mask~cl/common.cl~  return as_float((isnan(x) ? u | 0x00400000u : u) & 0xffffe000u);~  return as_float(isnan(x) ? u | 0x00400000u : u);~^test_matmul_precision$~TF32: the truncation mask dropped (the SIMT kernels multiply the fp32 inputs)
matmul-split-reduce~cl/matmul.cl~  for (ulong s = 0; s < splits; s++)~  for (ulong s = 1; s < splits; s++)~^test_matmul_batched$|^test_matmul_epilogue$~matmul_reduce: the first split's partial sums dropped
matmul-bias-offset~cl/matmul_common.clh~  return OCF_LOAD(BIAS_DTYPE, bias, bias_off + col);~  return OCF_LOAD(BIAS_DTYPE, bias, col);~^test_matmul_epilogue$~the epilogue's per-column bias ignores its offset
matmul-activation~cl/common.cl~  return ocf_activate(v, activation);~  return v;~^test_matmul_epilogue$~the shared epilogue applies no activation
matmul-batch-stride-c~cl/matmul.cl~c + c_off + p->batch * stride_c + p->m0 * ldc + p->n0;~c + c_off + p->m0 * ldc + p->n0;~^test_matmul_batched$~the tiled kernels write every product of a batch to the first C (stride_c ignored)
skinny-row-guard~cl/matmul_skinny.cl~      if (s < N_SMALL && r < rows) {~      if (s < N_SMALL) {~^test_matmul_skinny$~the skinny kernels store rows past the last one
lw-reduce-part~cl/matmul_wgmma_split.clh~hi = min(lo + per, (uint)(BM * BN));~hi = min(lo + per - 1, (uint)(BM * BN));~^wgmma_lastwave_check$~matmul_wgmma_lw: each reduce part drops its last element of the tile
lw-split-slot~cl/matmul_wgmma_split.clh~const uint slot = (uint)lw_first + j, product = slot / tiles;~const uint slot = (uint)lw_first + j / 2, product = slot / tiles;~^wgmma_lastwave_check$~matmul_wgmma_lw_split: the last wave's tiles multiplied for the wrong slots
skinny-split-reduce~cl/skinny_epilogue.clh~  for (ulong sp = 0; sp < splits; sp++)~  for (ulong sp = 0; sp + 1 < splits; sp++)~^test_matmul_skinny$~matmul_skinny_reduce: the last split's partial sums dropped
check-buffer-off-by-one~src/runtime/validate.c~  if (offset > capacity || extent > capacity - offset)~  if (offset > capacity || extent > capacity - offset + 1)~^test_add$|^test_softmax$|^test_matmul$~a buffer one element short is accepted
check-stride~src/runtime/validate.c~  if (ld < cols)~  if (ld + 1 < cols)~^test_softmax$|^test_matmul$~a row stride one shorter than its row is accepted
check-first-event~src/runtime/validate.c~  if (launch->first_event && !launch->event)~  if (0)~^test_add$|^test_softmax$|^test_matmul$|^fuzz_replay_args$~first_event without event is accepted
launch-all-or-nothing~src/runtime/launch.c~  for (unsigned s = 0; s < plan->step_count && status == OCF_SUCCESS; s++) {~  for (unsigned s = 0; s < plan->step_count; s++) {~^test_faults_resources_cold$~a kernel that failed to build or check is forgotten once a later kernel of the plan builds (its steps enqueued anyway)
dispatch-wait-list~src/runtime/dispatch.c~    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 1;~    const cl_uint wait_count = s == 0 ? 0 : 1;~^test_add$|^test_softmax$|^test_matmul$~the launch's wait list dropped
dispatch-chain~src/runtime/dispatch.c~    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 1;~    const cl_uint wait_count = s == 0 ? launch->num_wait_events : 0;~^test_softmax$|^test_threads$~the kernels of one call no longer wait for each other (out-of-order queues)
device-spec-sign~src/api/devices.c~  if (!isdigit((unsigned char)*c)) return -1; /* a sign ("-1:0") or nothing (":0") */~  if (*c == '-' || *c == '+') c++;\n  if (!isdigit((unsigned char)*c)) return -1;~^test_context$|^fuzz_replay_device_spec$~a signed index ("-1:0") is read as an index
tuning-db-header~src/tuning/db.c~    /* A file of no entries still names its device, driver and library. */\n    if (*seen != SEEN_ALL)~    if (0)~^test_tuning_db$|^fuzz_replay_tuning_db$~a database whose header is incomplete is accepted
softmax-causal-diagonal~cl/softmax_common.clh~  len = min(len, r % causal_period + causal_offset + 1);~  len = min(len, r % causal_period + causal_offset);~^test_softmax_options$~the causal band without its diagonal (row r keeps one column too few)
softmax-causal-period~cl/softmax_common.clh~  len = min(len, r % causal_period + causal_offset + 1);~  len = min(len, r + causal_offset + 1);~^test_softmax_options$~the causal band ignores its period (batched heads run as one tall head)
softmax-lengths-clamp~cl/softmax_common.clh~  len = min(len, (ulong)lengths[lengths_off + r]);~  len = (ulong)lengths[lengths_off + r];~^test_softmax_options$~a length above cols taken as it is (the kernels read and write past the row)
softmax-causal-off~src/ops/softmax.c~  call.causal = opt->causal != 0;~  call.causal = 0;~^test_softmax_options$~the causal option is dropped on its way to the planner (no band)
softmax-causal-offset~src/ops/softmax.c~                             opt.causal ? opt.causal_offset : 0,~                             0,~^test_softmax_options$~the band's offset is not passed to the kernels (every query block starts at key 0)
softmax-causal-period-zero~src/ops/softmax.c~  if (opt->causal && opt->causal_period == 0)~  if (0)~^test_softmax_options$~causal with period 0 is accepted (the kernels divide by it)
softmax-causal-overflow~src/ops/softmax.c~  if (opt->causal && opt->causal_offset > SIZE_MAX - opt->causal_period)~  if (0)~^test_softmax_options$~a band whose period + offset overflows is accepted
struct-size-edge~src/runtime/validate.c~  if (size < first_version_size)~  if (size <= first_version_size)~^test_context$~a struct of exactly its first version's size is refused
launch-first-size~src/runtime/validate.c~#define LAUNCH_FIRST_SIZE (offsetof(ocf_launch, first_event) + sizeof(cl_event *))~#define LAUNCH_FIRST_SIZE (offsetof(ocf_launch, first_event) + sizeof(cl_event *) + 1)~^test_context$~ocf_launch's first version taken one byte longer (its exact size refused)
softmax-options-first-size~src/ops/softmax.c~(offsetof(ocf_softmax_options, lengths_offset) + sizeof(size_t))~(offsetof(ocf_softmax_options, lengths_offset) + sizeof(size_t) + 1)~^test_context$~ocf_softmax_options of its first version's size refused
matmul-options-first-size~src/ops/matmul.c~(offsetof(ocf_matmul_options, bias_dtype) + sizeof(ocf_dtype))~(offsetof(ocf_matmul_options, bias_dtype) + sizeof(ocf_dtype) - 1)~^test_context$~ocf_matmul_options one byte short of its first version accepted
extent-cols-edge~src/runtime/validate.c~  if (cols > limit ||~  if (cols >= limit ||~^test_context$~a row of exactly the addressable size refused as an overflow
extent-rows-edge~src/runtime/validate.c~rows - 1 > (limit - cols) / ld~rows - 1 >= (limit - cols) / ld~^test_context$~a matrix whose extent is exactly the addressable size refused as an overflow
buffer-offset-edge~src/runtime/validate.c~  if (offset > capacity ||~  if (offset >= capacity ||~^test_context$~an offset at a buffer's end (empty work) refused
matmul-batch-span-edge~src/ops/matmul.c~(batch - 1 > (limit - x->extent) / x->stride)~(batch - 1 >= (limit - x->extent) / x->stride)~^test_context$~a batch spanning exactly the addressable size called an overflow
wait-event-context~src/runtime/validate.c~    if (event_context != ctx->cl_ctx)~    if (0)~^test_add$~a wait event of another OpenCL context accepted
wait-event-null~src/runtime/validate.c~    if (!launch->wait_events[i])~    if (0)~^test_add$~a NULL wait event passed on to OpenCL (not OCF_ERR_NULL_ARGUMENT)
tuning-range-max~src/tuning/schema.c~v > t->max ||~v > t->max + 1 ||~^test_tuning_db$~a tunable one above its maximum accepted
tuning-range-min~src/tuning/schema.c~if (v < t->min ||~if (v < t->min - 1 ||~^test_tuning_db$~a tunable one below its minimum accepted
disk-key-driver~src/runtime/disk_cache.c~           info->driver_version, ocf_version_string());~           info->vendor, ocf_version_string());~^test_tuning_api$~the program cache's key leaves out the driver version
disk-key-digest~src/runtime/disk_cache.c~           digest, options,~           0ull, options,~^test_tuning_api$~the program cache's key leaves out the source digest
disk-key-device~src/runtime/disk_cache.c~info->platform_name, info->device_name, info->vendor,~info->platform_name, info->platform_name, info->vendor,~^test_tuning_api$~the program cache's key leaves out the device name
user-db-path-driver~src/runtime/tuning_context.c~  hash = ocf_fnv1a(hash, info->driver_version, strlen(info->driver_version) + 1);~  (void)0;~^test_tuning_api$~the user tuning database's file is shared by every driver version
read-file-nonblock~src/runtime/files.c~O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY~O_RDONLY | O_CLOEXEC | O_NOCTTY~^test_tuning_api$~files opened blocking: a FIFO in the cache folder hangs context creation (the suite's alarm ends it)
matmul-host-beta-sign~src/ops/matmul.c~  if (status == OCF_SUCCESS && beta != 0.0f) {~  if (status == OCF_SUCCESS && beta > 0.0f) {~^test_matmul$~matmul_host copies C in only for a positive beta (a negative one reads garbage)
matmul-alpha-sign~src/ops/matmul.c~  /* alpha == 0 or k == 0: C = act(beta * C + bias); A and B are not read (no K loop). */\n  if (alpha == 0.0f) p.call.k = 0;~  if (alpha <= 0.0f) p.call.k = 0;~^test_matmul$~a negative alpha treated as alpha = 0 (A and B skipped)
reduce-batch-partial~cl/matmul.cl~partial + (bi * splits * m + i) * ldp + j;~partial + (bi * m + i) * ldp + j;~^test_matmul_batched$~matmul_reduce: a batch's partial sums looked up without the splits of the products before it
skinny-reduce-batch-partial~cl/skinny_epilogue.clh~partial + (bi * splits * rows + r) * N_SMALL + s;~partial + (bi * rows + r) * N_SMALL + s;~^test_matmul_batched$~matmul_skinny_reduce: the same, for the skinny split
skinny-reduce-layout~cl/skinny_epilogue.clh~    sum += part[sp * rows * N_SMALL];\n  __global OCF_STORAGE(C_DTYPE) *out = c + c_off + bi * stride_c + r * c_rs + s * c_ss;~    sum += part[sp * rows * N_SMALL];\n  __global OCF_STORAGE(C_DTYPE) *out = c + c_off + bi * stride_c + r * c_ss + s * c_rs;~^test_matmul_batched$~matmul_skinny_reduce: C's row and column strides swapped (right only where they agree)
host-read-wait~src/runtime/host_buffers.c~data, after ? 1 : 0,\n                                   after ? &after : NULL, NULL);~data, after ? 0 : 0,\n                                   NULL, NULL);~^test_faults_order$~the host forms' read-back does not wait for the call's kernels (out-of-order queues)
matmul-host-read-wait~src/ops/matmul.c~c, 1, &done, NULL);~c, 0, NULL, NULL);~^test_faults_order$~matmul_host's read-back does not wait for the call's kernels (out-of-order queues)
softmax-fixed-wg-edge~src/plan/plan_softmax.c~  if (call->workgroup > facts->max_workgroup_size)~  if (call->workgroup >= facts->max_workgroup_size)~^test_plan_softmax$~softmax refuses a fixed workgroup of exactly the device's maximum
softmax-coop-poll-budget~src/plan/plan_softmax.c~COOP_WAIT_POLLS / slices~COOP_WAIT_POLLS~^test_plan_softmax$~softmax_coop's polls bounded per slot, not per workgroup (slices x coop_spin polls)
softmax-coop-max-parts~src/plan/plan_softmax.c~        parts > 1 && parts <= max_parts\n            ? coop_spin_within_limit(~        parts > 1\n            ? coop_spin_within_limit(~^test_plan_softmax$~softmax_coop with any number of slices a row (a missing partner's slices recomputed: up to the whole row per workgroup)
attn-mma-q-tile-chunk~cl/attention_mma_nv.cl~(2 * ks + (lane >> 4)) * 8);~(2 * ks) * 8);~^test_attention$~attention_mma with mma.q_local: Q's A fragments a2, a3 read from the k step's first 8 columns
attn-mma-second-row-group~cl/attention_mma_nv.cl~    const ulong p = r0 + 16 * (r >> 1) + (lane >> 2) + 8 * (r & 1);~    const ulong p = r0 + (lane >> 2) + 8 * (r & 1);~^test_attention$~attention_mma with mma.rows=32: the second row group's rows keep the first's keys (masks)
attn-mma-local-gate~src/plan/plan_attention.c~  const int beyond = nvidia && t->mma.local;~  const int beyond = nvidia;~^test_plan_attention$~attention_mma beyond the reported local memory without mma.local
attn-mma-probe-failed~src/plan/plan_attention.c~(failed && want >= failed)~(failed && want > failed)~^test_plan_attention$~attention_mma asks the probe again for a size that failed
launch-fill-wait~src/runtime/launch.c~      steps.wait_events = &filled;~      steps.wait_events = launch->wait_events;~^test_faults_order$~the first kernel waits for the caller's events, not for the device fill of its scratch (out-of-order queues)
skinny-bf16-word-halves~cl/matmul_skinny.cl~  return (float4)(as_float(lo << 16), as_float(lo & 0xffff0000u), as_float(hi << 16),~  return (float4)(as_float(lo & 0xffff0000u), as_float(lo << 16), as_float(hi << 16),~^test_matmul_skinny$~matmul_skinny: a bf16 8-byte word's first two elements swapped (X_VEC, V_VEC 1)
few-k-tail-guard~cl/matmul_few_mma.cl~    e[i] = inside && p + i < k1 ? row[(p + i) * ps] : (ushort)0;~    e[i] = inside && p + i <= k1 ? row[(p + i) * ps] : (ushort)0;~^test_matmul_few$~matmul_few_mma: one element past K read into the sums
few-row-guard~cl/matmul_few_mma.cl~      if (s < N_SMALL && r < rows) {~      if (s < N_SMALL) {~^test_matmul_few$~matmul_few_mma: rows of Y past the last one stored
few-k-warps-sum~cl/matmul_few_mma.cl~        for (uint l = 0; l < KW; l++)~        for (uint l = 0; l + 1 < KW || l == 0; l++)~^test_matmul_few$~matmul_few_mma: the last k warp's sums dropped (few.kw > 1)
scratch-norm-split~cl/norm.cl~      scratch[3 * g + 2] = q;~      if (g != 1) scratch[3 * g + 2] = q;~^test_norm$~norm_split_stats: a slice's M2 not written (the split's scratch is not zeroed: read as the workspace's NaN)
norm-stream-reread~cl/norm.cl~#if HAS_RES && HAS_RES_OUT\n  return load_res(p->res_out, k, cols);~#if 0\n  return load_res(p->res_out, k, cols);~^test_norm$~norm_stream: the second pass adds in and res again instead of reading x' back (in place, res is x' by then)
norm-stream-count~cl/norm.cl~        count += (float)min((ulong)VW, cols - k * VW);~        count += (float)VW;~^test_norm$~norm_stream: a step's count takes the row's partial last vector as whole (its mean and the merge's weights off)
norm-shifted-rotate~cl/norm_vector.clh~#define ROTATE_1(v) ((float8)(v.s7, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6))~#define ROTATE_1(v) ((float8)(v.s6, v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6))~^test_norm$~norm_rows SHIFTED: vectors of 8 rotated by one lane take a wrong lane (weights of rows an odd number of lanes in)
norm-shifted-join~cl/norm_vector.clh~  return select(cur, prev, LANE_IDS < (intV)((int)lead));~  return select(cur, prev, LANE_IDS <= (intV)((int)lead));~^test_norm$~norm_rows SHIFTED: the realigned weight takes one lane too many from the previous vector
norm-shifted-first~cl/norm.cl~      store_out_span(p.out, k, lo, hi,~      store_out_span(p.out, k, 0, hi,~^test_norm$~norm_rows SHIFTED: a row's first vector stores over the previous row's last elements (its reads are zeroed twice over: load and span_zero, each alone enough)
norm-shifted-gate~src/plan/plan_norm.c~      fits &= pairs[i][0] % vw == c->in_off % vw && pairs[i][1] % vw == c->in_ld % vw;~      fits &= pairs[i][1] % vw == c->in_ld % vw;~^test_norm$|^test_plan_norm$|^test_plan$~widest_shifted: SHIFTED for an operand whose rows start elsewhere in their vectors than x's
norm-split-shifted-store~cl/norm.cl~      store_out_from(p.out, k, lo, hi, output_of(z, m, rs, k, p.lead, cols, W_PTR, B_PTR));~      store_out_from(p.out, k, 0, hi, output_of(z, m, rs, k, p.lead, cols, W_PTR, B_PTR));~^test_norm$~the split SHIFTED: a row's first vector stores over the previous row's last elements
norm-split-shifted-count~cl/norm.cl~          const float count = (float)(min(hi, k * VW + VW) - max(lo, k * VW));~          const float count = (float)min((ulong)VW, hi - k * VW);~^test_norm$~the split SHIFTED: a row's first vector counts the lanes before its lead
norm-split-shifted-limit~cl/norm.cl~    const ulong limit = min((hi + VW - 1) / VW, first + part_vecs);\n    for (ulong k = first~    const ulong limit = min((cols + VW - 1) / VW, first + part_vecs);\n    for (ulong k = first~^test_norm$~the split SHIFTED: a row's last vector (past ceil(cols / VW)) never read or written
lanes-causal~cl/attention_lanes.cl~      kept[r] = row ? kept_keys(i, len, causal_offset) : 0;~      kept[r] = row ? len : 0;~^test_attention$~attention_lanes: the causal mask ignored (every row keeps the batch's keys)
lanes-rescale~cl/attention_lanes.cl~    if (nm > m[r]) {~    if (nm > m[r] + 1.0f) {~^test_attention$~attention_lanes: a row's sums not rescaled when its max grows by less than 1
decode-join-scale~cl/attention_common.clh~      gs += part[1] * f;~      gs += part[1];~^test_attention$~attention_decode's and attention_lanes's partials joined without their max's factor
lanes-ahead-copy~cl/attention_lanes.cl~          kx[u][t] = kn[u][t], vx[u][t] = vn[u][t];~          vx[u][t] = vn[u][t];~^test_attention$~attention_lanes with decode.ahead: each step scores the first step's keys (the look-ahead's K not kept)
lanes-local-sum~cl/attention_lanes.cl~      for (uint l = 1; l < SEG; l++)~      for (uint l = 1; l < SEG / 2; l++)~^test_attention$~attention_lanes without shuffles: a key's dot product misses its upper lanes' parts
lanes-join-reset~cl/join.clh~      atomic_xchg(arrivals + block, 0u);~      atomic_xchg(arrivals + block, 1u);~^test_attention$~the in-kernel join (decode.join, mma.join): a block's counter not set back to zero (the next call on the queue never joins)
lanes-join-column~cl/attention_common.clh~        pa[u] = acc[(p0 + u < splits ? p0 + u : 0) * stride];~        pa[u] = acc[(p0 + u < splits ? p0 + u : 0) * stride - (c > 0)];~^test_attention$~the in-kernel join (decode.join, mma.join): each element joins its left neighbour's acc
lanes-join-sum~cl/attention_common.clh~          s += st[2 * (p0 + u) + 1] * f;~          s += st[2 * (p0 + u) + 1];~^test_attention$~the in-kernel join (decode.join, mma.join): the ranges' sums joined without their max's factor
mma-join-rows~cl/attention_mma_nv.cl~    const ulong first_row = bh * rows + row0;~    const ulong first_row = bh * rows;~^test_attention$~attention_mma_split with mma.join: every block of rows joins the head's first block's rows
baseline-group-rows~src/ops/attention_unfused.c~f->q_off + bi * f->q_sb + g * f->q_sh~f->q_off + bi * f->q_sb~^test_attention$~attention's unfused baseline: every query head of a key head scores the first one's queries
baseline-causal-offset~src/ops/attention_unfused.c~so.causal_offset = so.causal ? f->causal_offset : 0;~so.causal_offset = 0;~^test_attention$~attention's unfused baseline: the causal band from key 0 whatever the offset
attn-ws-baseline~src/ops/attention.c~  if (settings.variant == OCF_VARIANT_BASELINE) {\n    const cl_mem none[4]~  if (0) {\n    const cl_mem none[4]~^test_attention$~ocf_attention_workspace_size: the unfused baseline sized as the fused plan
attn-ws-zero~src/ops/attention.c~  return ocf_run_prepare(ctx, &run, bytes);\n}\n\n/* ---- the host form ---- */~  return OCF_SUCCESS;\n}\n\n/* ---- the host form ---- */~^test_attention$~ocf_attention_workspace_size: 0 whatever the plan needs
baseline-pool-own~src/ops/attention_unfused.c~  const int borrowed = own && ctx->pool.usable && queue == ctx->queue;~  const int borrowed = own && ctx->pool.usable && queue == ctx->queue && 0;~^test_attention$~attention's unfused baseline: its chain never borrows the context's pool (every call makes a buffer of its own)
baseline-pool-held~src/ops/attention_unfused.c~    ocf_pool_give_back(ctx, m.buffer, held, last);~    ocf_pool_give_back(ctx, m.buffer, bytes, last);~^test_attention$~attention's unfused baseline: a larger pool buffer it borrowed given back as the chain's size (the pool loses its size)
chain-eventless-stop~src/ops/attention_unfused.c~                       &first_given);\n        if (status == OCF_ERR_ENQUEUED_WITHOUT_EVENT)\n          status = go_on_without_event(queue, &previous, eventless, sizeof eventless);~                       &first_given);~^test_faults_resources_warm$~attention's baseline stops at a Q K^T call that gave no event, returning a status that promises an out it never writes
bound-replan~src/runtime/run.c~      p->plan.scratch_bytes <= launch->workspace_size)~      1)~^test_workspace$~a caller's workspace short of the plan's scratch refused instead of bounding the plan
bound-ranges~src/plan/plan.c~  return per_range ? (bound->bytes - fixed) / per_range : SIZE_MAX;~  return per_range ? (bound->bytes - fixed) / per_range + 1 : SIZE_MAX;~^test_plan$~a split's ranges within a scratch bound counted one too many
bound-softmax-split~src/plan/plan_softmax.c~                     ocf_scratch_ranges(&c->scratch_bound, 2 * rows * sizeof(float), 0));~                     SIZE_MAX);~^test_plan$|^test_workspace$~softmax's split ignores a caller's workspace
bound-norm-stream~src/plan/plan_norm.c~      if (split_fit > 0)~      if (1)~^test_plan$|^test_norm$~norm's split of one slice a row past a caller's workspace that holds none
bound-attention-fit~src/plan/plan_attention.c~  return ocf_min_size(MAX_SPLITS, ocf_scratch_ranges(&call->scratch_bound,~  return ocf_min_size(MAX_SPLITS, ocf_scratch_ranges(&(ocf_scratch_bound){0, 0},~^test_plan$|^test_attention$~attention's key ranges (decode, lanes, mma, wgmma and the tiled split) ignore a caller's workspace
bound-matmul-tiled~src/plan/plan_matmul.c~  splits = ocf_min_size(splits, ocf_scratch_ranges(&call->scratch_bound, per_split * 4, 0));\n  if (streams) {~  if (streams) {~^test_plan$|^test_workspace$~matmul_tiled_split ignores a caller's workspace
heads-kv-head~cl/attention.cl~    const ulong head0 = hg * HG, kv_head = head0 / group;~    const ulong head0 = hg * HG, kv_head = hg;~^test_attention$~attention_heads: a group of query heads reads the key head of its own index (right only where HG is the whole group)
heads-value-weight~cl/attention.cl~        a[g] += pl[g * BK + j] * x;~        a[g] += pl[j] * x;~^test_attention$~attention_heads: every head's outputs weighted by the first head's scores
heads-score-tail~cl/attention.cl~      if (c < D) {\n        const float16 k0 = LOAD16(K_DTYPE, kr + c);~      if (0) {\n        const float16 k0 = LOAD16(K_DTYPE, kr + c);~^test_attention$~attention_heads: a head dim of an odd number of 16-float vectors scored without its last vector
heads-units~src/plan/plan_attention.c~  const size_t base_units = (call->b ? call->b : 1) * (call->h ? call->h : 1) / hg * blocks;~  const size_t base_units = (call->b ? call->b : 1) * (call->h ? call->h : 1) * blocks;~^test_attention$|^test_plan_attention$~attention_tiled with HG launched a workgroup a query head (units past the last group's)
direct-key-row~cl/attention.cl~      __global const k_real *kr = k + k_base + (j0 + j) * k_sr;\n      float16 s0 = (float16)(0.0f), s1 = s0;~      __global const k_real *kr = k + k_base + j0 * k_sr;\n      float16 s0 = (float16)(0.0f), s1 = s0;~^test_attention$~attention_tiled's decoding tile: every key of the tile scored as its first
direct-key-tail~cl/attention.cl~      if (c < D) s0 += vload16(0, ql_row + c) * LOAD16(K_DTYPE, kr + c);~      (void)c;~^test_attention$~attention_tiled's decoding tile: a head dim of an odd number of 16s loses its last 16 products
wide-mask~cl/attention.cl~    p = select(p, (float16)(0.0f), lanes + (int)j0 >= (int)n);~    p = select(p, (float16)(0.0f), lanes + (int)j0 > (int)n);~^test_attention$~attention_tiled's wide rows: the first key past a row's kept ones weighed in
wide-column~cl/attention.cl~      s1 += ql_row[c + 1] * vload16(0, kl + (c + 1) * BK + j0);~      s1 += ql_row[c] * vload16(0, kl + (c + 1) * BK + j0);~^test_attention$~attention_tiled's wide rows: every second column of four scored with the first's query element
wide-rescale~cl/attention.cl~  float16 a[D / 16]; /* the row's outputs, in registers across the keys */\n  for (uint t = 0; t < D / 16; t++)\n    a[t] = vload16(t, acc) * f;~  float16 a[D / 16]; /* the row's outputs, in registers across the keys */\n  for (uint t = 0; t < D / 16; t++)\n    a[t] = vload16(t, acc);~^test_attention$~attention_tiled's wide rows: the outputs not rescaled to a tile's new max
heads-key-row~cl/attention.cl~      __global const k_real *kr = k + k_base + (j0 + j) * k_sr;\n      uint c = 0;~      __global const k_real *kr = k + k_base + j0 * k_sr;\n      uint c = 0;~^test_attention$~attention_tiled's decoding tile of grouped heads: every key of the tile scored as its first
direct-rescale~cl/attention.cl~  const float f = weigh_wide(m, s, pl_row, n);\n  float16 a[D / 16];\n  for (uint t = 0; t < D / 16; t++)\n    a[t] = vload16(t, acc) * f;~  const float f = weigh_wide(m, s, pl_row, n);\n  float16 a[D / 16];\n  for (uint t = 0; t < D / 16; t++)\n    a[t] = vload16(t, acc) + 0.0f * f;~^test_attention$~attention_tiled's decoding tile: the outputs not rescaled to a tile's new max
block-mask~cl/attention_block.cl~          pl[(tr * RM + a) * BK + j] = j0 + j < kept[a] ? exp_shift(sc[a][u], m[a]) : 0.0f;~          pl[(tr * RM + a) * BK + j] = j0 + j <= kept[a] ? exp_shift(sc[a][u], m[a]) : 0.0f;~^test_attention$~attention_block: the first key past a row's kept ones weighed in
block-lengths~cl/attention_block.cl~    const ulong len = batch_length(lk, lengths, lengths_off, batch);~    const ulong len = lk;~^test_attention$~attention_block: the per-batch lengths ignored (every batch keeps lk keys)
scratch-attention-split~cl/attention.cl~      if (lane == 0) scratch[slot] = m, scratch[slot + 1] = s;~      if (lane == 0 && split != 1) scratch[slot] = m, scratch[slot + 1] = s;~^test_attention$~attention_split: a range's (m, s) not written (its scratch is not zeroed)
attn-tma-stages~src/plan/plan_attention_wgmma.c~  while (stages > 2 &&~  while (stages > 3 &&~^test_attention$~rule 6: a ring that does not fit in three stages never tried in two (the TMA-fed form dropped)
bound-attention-tma~src/plan/plan_attention_wgmma.c~  if (ocf_scratch_ranges(&call->scratch_bound, TMA_MAP_BYTES, ranges_bytes) < workgroups) return 0;~  if (0 && ocf_scratch_ranges(&call->scratch_bound, TMA_MAP_BYTES, ranges_bytes) < workgroups) return 0;~^test_attention$~rule 6: the TMA-fed form's maps ignore a caller's workspace (a plan the launch then refuses)
attn-tma-split-maps~src/plan/plan_attention_wgmma.c~    plan->scratch_bytes = maps_at + workgroups * TMA_MAP_BYTES;~    plan->scratch_bytes = ranges_bytes + workgroups * TMA_MAP_BYTES;~^test_attention$~rule 6 with key ranges: the maps' scratch not from the next multiple of 128 bytes after the ranges, where the kernel puts them (maps written past the buffer)
attn-tma-split-bound~src/plan/plan_attention_wgmma.c~tma_stages(facts, t, call, bk, d_wgmma, workgroups, maps_at, &probe);~tma_stages(facts, t, call, bk, d_wgmma, workgroups, 0, &probe);~^test_attention$~rule 6 with key ranges: a caller's workspace checked for the maps alone, not the ranges before them
attn-tma-split-join~src/plan/plan_attention_wgmma.c~    if (splits > 1)\n      ocf_attention_add_merge~    if (0)\n      ocf_attention_add_merge~^test_attention$~rule 6 with key ranges: the join after the TMA-fed ranges left out (out never written)
attn-tma-split-gate~src/plan/plan_attention_wgmma.c~(ranges_bytes && !t->wgmma.tma_split)~(0 && ranges_bytes && !t->wgmma.tma_split)~^test_attention$~rule 6: key ranges on the TMA-fed form without wgmma.tma_split (the untimed form on wherever wgmma.tma is)
wave-one-edge~src/plan/plan_matmul_wgmma.c~  if (tiles_of(call, g->consumers, 128u) > most) {~  if (tiles_of(call, g->consumers, 128u) >= most) {~^test_plan_matmul_wgmma$~matmul wgmma plans: a call whose narrow tiles make exactly one wave keeps the wide ones
wave-one-three~src/plan/plan_matmul_wgmma.c~    g->consumers = 3;\n  }\n  g->bn = 128;~    g->consumers = 2;\n  }\n  g->bn = 128;~^test_plan_matmul_wgmma$~matmul wgmma plans: the one wave of 128 columns in two consumers' tiles where only three's fit
wave-one-batch~src/plan/plan_matmul_wgmma.c~  const size_t most = units / batch;~  const size_t most = units;~^test_plan_matmul_wgmma$~matmul wgmma plans: the one-wave rule counts one product's tiles, not the batch's
wave-one-first~src/plan/plan_matmul_wgmma.c~  if (!t->one_wave && call->m > 64u * g->consumers) return 0;~~^test_plan_matmul_wgmma$~matmul wgmma plans: wgmma.one_wave 0 narrows calls of several tile rows too
split-gate-edge~src/plan/plan_matmul_wgmma.c~         groups * 100 >= facts->compute_units * percent;~         groups * 100 > facts->compute_units * percent;~^test_plan_matmul_wgmma$~matmul wgmma plans: a whole-K plan filling exactly whole_k_fill percent of the units is split
split-gate-row~src/plan/plan_matmul_wgmma.c~  return call->m > 64u * whole->consumers && call->n > 128 &&~  return call->n > 128 &&~^test_plan_matmul_wgmma$~matmul wgmma plans: calls of one tile row keep K whole where their split reads B faster
split-gate-column~src/plan/plan_matmul_wgmma.c~  return call->m > 64u * whole->consumers && call->n > 128 &&~  return call->m > 64u * whole->consumers &&~^test_plan_matmul_wgmma$~matmul wgmma plans: calls of one tile column keep K whole where their split reads A faster
split-gate-off~src/plan/plan_matmul_wgmma.c~  if (percent == 0 || whole == NULL) return 0;~  return 0;~^test_plan_matmul_wgmma$~matmul wgmma plans: the split wherever units idle, whole_k_fill ignored
block-local-ask~src/plan/plan_attention.c~  if (want > *probe_bytes) *probe_bytes = want;~  (void)want;~^test_plan_attention$~attention_block with block.local never asks for the probe of its tiles (planned within 48 KiB for good)
block-local-failed~src/plan/plan_attention.c~facts->nv_compute_capability >= 80 &&\n                     facts->learnt.mma != OCF_PROBE_FAILED;~facts->nv_compute_capability >= 80;~^test_plan_attention$~attention_block with block.local asks again for a probe that failed
block-local-off~src/plan/plan_attention.c~      probed_local(facts, OCF_PROGRAM_ATTENTION_BLOCK, beyond,~      probed_local(facts, OCF_PROGRAM_ATTENTION_BLOCK, 1,~^test_plan_attention$~attention_block takes the probe's local memory without block.local
block-local-launch~src/device_facts.c~  return program == OCF_PROGRAM_ATTENTION_MMA_NV || program == OCF_PROGRAM_ATTENTION_BLOCK;~  return program == OCF_PROGRAM_ATTENTION_MMA_NV;~^test_plan_attention$~attention_block's built kernel held to the reported 48 KiB at launch though its plan may take more
block-partial-row~cl/attention_block.cl~          tm = fmax(tm, pl[(tr * RM + a) * B_PM_S + c]);~          tm = fmax(tm, pl[(tr * RM) * B_PM_S + c]);~^test_attention$~attention_block: every row of a work-item takes its first row's max
block-partial-mask~cl/attention_block.cl~          if (j0 + tc + TC * u < kept[a]) pm = fmax(pm, sc[a][u]);~          pm = fmax(pm, sc[a][u]);~^test_attention$~attention_block: a row's max counts its masked scores too
block-partial-one~cl/attention_block.cl~        for (uint c = 0; c < TC; c++)\n          tm = fmax~        for (uint c = 1; c < TC; c++)\n          tm = fmax~^test_attention$~attention_block: a row's max misses its first work-item's partial
block-pl-stride~cl/attention_block.cl~          w[a] = pl[(tr * RM + a) * B_PL_S + j];~          w[a] = pl[(tr * RM + a) * BK + j];~^test_attention$~attention_block: P V reads its weights at a row stride other than the one they were written at
attn-tma-probe~src/plan/plan_attention_wgmma.c~    *probe = ocf_wgmma_tma_probe_due(facts);~    (void)ocf_wgmma_tma_probe_due(facts);~^test_attention$~rule 6: the probes the TMA-fed form waits for never asked for (it never runs)
stream-join-parts~cl/matmul.cl~        for (uint w = owner; w < owner + parts; w++)~        for (uint w = owner; w + 1 < owner + parts; w++)~^test_matmul_joins$~matmul_tiled_stream: a tile's join leaves out its last part
stream-join-slot~cl/matmul.cl~stream_first(w, work, groups) >= tile * slices)~stream_first(w, work, groups) > tile * slices)~^test_matmul_joins$~matmul_tiled_stream: a join reads the part that begins a range at the tile's first slice from the other slot
skinny-join-block~cl/matmul_skinny.cl~  if (arrive_last(arrivals, bi * ROW_BLOCKS(rows) + block, splits, &last))~  if (arrive_last(arrivals, block, splits, &last))~^test_matmul_joins$~matmul_skinny_join: one counter a row block for every product of a batch (the products' ranges counted together)
skinny-join-last~cl/matmul_skinny.cl~    for (uint o = get_local_id(0); o < RB * N_SMALL; o += WG) {~    for (uint o = get_local_id(0); o < RB * N_SMALL - 1; o += WG) {~^test_matmul_joins$~matmul_skinny_join: a block's last element of Y never joined
stream-join-reset~cl/join.clh~      atomic_xchg(arrivals + block, 0u);~      atomic_xchg(arrivals + block, 1u);~^test_matmul_joins$~matmul_tiled_stream: a tile's counter not set back to zero (the next call's tile never joins)
softmax-whole-seg~src/plan/plan_softmax.c~on_whole || !t->rows.aligned_vw ? t->rows.aligned_seg_items~on_whole || 1 ? t->rows.aligned_seg_items~^test_plan_softmax$~softmax plans: rows on whole vectors of vw only take rows.aligned_seg_items, not rows.whole_seg_items (the H200's narrow 16-bit rows of 200 columns one vector of 8 a lane)
EOF
)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "$mutations" | awk -F'~' '{ printf "%-26s %-24s %s\n", $1, $2, $6 }'
  exit 0
fi
wanted=" $* "

echo "copying the working tree to $work/src"
mkdir -p "$work"
rm -rf "$work/src"
mkdir -p "$work/src"
tar -C "$root" --exclude='./build*' --exclude=./.git --exclude=./.gpu -cf - . | tar -C "$work/src" -xf -
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "building the unmutated tree"
cmake --build "$work/build" -j"$jobs" >/dev/null

# Replaces $2 by $3 in file $1 (\n as newline); fails unless the text occurs exactly once.
apply() {
  OLD=$(printf '%b' "$2") NEW=$(printf '%b' "$3") perl -0777 -i -pe '
    BEGIN { $o = $ENV{OLD}; $n = $ENV{NEW}; }
    $count = () = /\Q$o\E/g;
    die "found $count times\n" unless $count == 1;
    s/\Q$o\E/$n/;' "$1"
}

results=()
stale=0
survivors=0
while IFS='~' read -r id file text replacement tests what; do
  [ -n "$id" ] || continue
  if [ "$wanted" != "  " ] && [[ "$wanted" != *" $id "* ]]; then continue; fi
  target="$work/src/$file"
  cp "$target" "$work/original"
  printf '%-26s ' "$id"
  if ! apply "$target" "$text" "$replacement" 2>"$work/apply.log"; then
    outcome="STALE: the text to mutate $(cat "$work/apply.log")"
    stale=$((stale + 1))
  elif ! cmake --build "$work/build" -j"$jobs" >"$work/build.log" 2>&1; then
    outcome="refused by the compiler"
  else
    start=$(date +%s)
    if CMOCKA_TEST_ABORT=1 ctest --test-dir "$work/build" -R "$tests" --output-on-failure \
      --timeout 600 >"$work/test.log" 2>&1; then
      outcome="SURVIVED ($tests)"
      survivors=$((survivors + 1))
    else
      # Each failed suite, with the CMocka test that was running when it failed (the suites run
      # with CMOCKA_TEST_ABORT=1, so that is the one that failed), and a crash if it was one.
      killers=$(awk '
        / Test +#[0-9]+: / {
          if (suite != "") print suite (last != "" ? ": " last : "")
          suite = ""; last = ""
          if ($0 !~ /Passed/) suite = $4
          next
        }
        suite != "" && /^\[ RUN      \] / { last = $4 }
        END { if (suite != "") print suite (last != "" ? ": " last : "") }' "$work/test.log" |
        paste -sd ',' - || true)
      crash=$(grep -m1 -oE 'Test failed with exception: [A-Za-z ]+|Timeout' "$work/test.log" || true)
      outcome="killed by ${killers:-?}${crash:+ ($crash)}"
    fi
    outcome="$outcome [$(($(date +%s) - start)) s]"
  fi
  cp "$work/original" "$target"
  echo "$outcome"
  results+=("$(printf '| %s | %s | %s | %s |' "$id" "$file" "$what" "$outcome")")
done <<<"$mutations"

# Back to the unmutated build, so that a next run starts from it.
cmake --build "$work/build" -j"$jobs" >/dev/null

echo
echo "| mutation | file | bug | outcome |"
echo "| --- | --- | --- | --- |"
printf '%s\n' "${results[@]}"
echo
echo "${#results[@]} mutations: $survivors survived, $stale stale"
[ "$stale" -eq 0 ]
