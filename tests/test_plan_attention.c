/*
 * The planner on described devices: attention on the H200 (src/plan/plan_attention.c): which
 * kernel takes a decoding step (attention_decode, attention_lanes, attention_mma and its split),
 * the joined kernels (decode.join, mma.join), and attention_mma's local memory and probes. The
 * method, the devices and the helpers: tests/plan_fixture.h.
 */

#include "plan_fixture.h"

/* The H200's built-in attention values for bf16 (the tuning a bf16 call resolves there). */
static void h200_bf16_attention(const ocf_device_facts *facts, ocf_tuning_values *t) {
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  assert_int_equal(
      ocf_tuning_resolve(rows, count, OCF_OP_ATTENTION, OCF_BF16, facts, "NVIDIA H200", t),
      OCF_SUCCESS);
}

/* The matrix-unit probe a plan asks for: probe_bytes of local memory, or none (0). */
static void expect_mma_probe(const char *what, const ocf_plan *plan, size_t probe_bytes) {
  if (plan->probe != (probe_bytes ? OCF_PLAN_PROBE_MMA : OCF_PLAN_PROBE_NONE) ||
      (probe_bytes && plan->probe_bytes != probe_bytes)) {
    print_error("%s: probe %d of %zu bytes, expected %zu bytes\n", what, (int)plan->probe,
                plan->probe_bytes, probe_bytes);
    fail();
  }
}

/* attention_mma's plan of bf16 4 x 32 x 4096 x 4096 x 128 on the H200 with the built-in
   tuning and `settings`; the probe it asks for checked (0 bytes: none). */
static void plan_attention_mma_case(const char *what, const ocf_device_facts *facts,
                                    const char *settings, const char *values, size_t probe_bytes) {
  ocf_tuning_values t;
  h200_bf16_attention(facts, &t);
  if (settings)
    assert_int_equal(ocf_tuning_parse(OCF_OP_ATTENTION, settings, &t, "test"), OCF_SUCCESS);
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 4, call.h = call.h_kv = 32, call.lq = call.lk = 4096, call.d = 128;
  call.kv_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
  ocf_plan plan;
  const ocf_status status = ocf_plan_attention(facts, &t, &call, &plan);
  const size_t warps = (size_t)plan_value(&plan, "WARPS");
  const size_t rows_a_warp = (size_t)plan_value(&plan, "ROWS");
  char shape[96];
  snprintf(shape, sizeof shape, "attention_mma wg=%zu groups=%zu", 32 * warps,
           4 * 32 * 4096 / (warps * rows_a_warp));
  expect_plan(what, status, &plan, shape, values);
  expect_mma_probe(what, &plan, probe_bytes);
  assert_int_equal(ocf_plan_verify(&plan, facts), OCF_SUCCESS);
}

/* The first kernel of attention's plan of a bf16 decoding step b x 32 heads x lq x lk x d on
   the H200 with the built-in tuning, mma.split_fill = split_fill and decode.lanes = lanes. */
static ocf_kernel_id decode_kernel_of(const ocf_device_facts *facts, size_t b, size_t lq, size_t lk,
                                      size_t d, int split_fill, int lanes) {
  ocf_tuning_values t;
  h200_bf16_attention(facts, &t);
  t.attention.mma.split_fill = split_fill;
  t.attention.decode.lanes = lanes;
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = b, call.h = call.h_kv = 32, call.lq = lq, call.lk = lk, call.d = d;
  call.kv_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(facts, &t, &call, &plan), OCF_SUCCESS);
  return plan.steps[0].kernel;
}

/* decode_kernel_of for one query row of head dim 128, attention_lanes off. */
static ocf_kernel_id decode_kernel(const ocf_device_facts *facts, size_t b, size_t lk,
                                   int split_fill) {
  return decode_kernel_of(facts, b, 1, lk, 128, split_fill, 0);
}

/* A decoding step goes to attention_mma before attention_decode where its workgroups (one a
   batch and head) reach mma.decode_fill (3) a compute unit, or where they are fewer than
   mma.split_fill a compute unit and the keys hold two ranges of split.min (256): there it splits
   them. Between the two, and for short keys, attention_decode. */
static void test_plan_attention_decode_routes(void **state) {
  (void)state;
  const ocf_device_facts facts = h200_probed(49152);
  /* without split_fill: attention_decode below 3 x 132 workgroups, attention_mma from it */
  assert_int_equal(decode_kernel(&facts, 1, 8192, 0), OCF_KERNEL_ATTENTION_DECODE);
  assert_int_equal(decode_kernel(&facts, 12, 8192, 0), OCF_KERNEL_ATTENTION_DECODE); /* 384 */
  assert_int_equal(decode_kernel(&facts, 13, 8192, 0), OCF_KERNEL_ATTENTION_MMA);    /* 416 */
  /* split_fill 2: 32 and 256 workgroups split (below 264), 288 and 384 do not */
  assert_int_equal(decode_kernel(&facts, 1, 8192, 2), OCF_KERNEL_ATTENTION_MMA_SPLIT);
  assert_int_equal(decode_kernel(&facts, 8, 8192, 2), OCF_KERNEL_ATTENTION_MMA_SPLIT);
  assert_int_equal(decode_kernel(&facts, 9, 8192, 2), OCF_KERNEL_ATTENTION_DECODE);
  assert_int_equal(decode_kernel(&facts, 13, 8192, 2), OCF_KERNEL_ATTENTION_MMA);
  /* keys for one range of 256 only (511): attention_decode; two (512): split */
  assert_int_equal(decode_kernel(&facts, 1, 511, 2), OCF_KERNEL_ATTENTION_DECODE);
  assert_int_equal(decode_kernel(&facts, 1, 512, 2), OCF_KERNEL_ATTENTION_MMA_SPLIT);
}

/* With decode.lanes (the H200's built-in 16), attention_lanes takes one query row a head of
   more than 64 columns before the matrix units, whatever their fill (it reads K and V once a
   key head); 4 query rows a head and heads of 64 go to the matrix units' routes first, and
   attention_lanes takes what they leave (short keys, heads past 128) before attention_decode. */
static void test_plan_attention_lanes_routes(void **state) {
  (void)state;
  const ocf_device_facts facts = h200_probed(49152);
  ocf_tuning_values t;
  h200_bf16_attention(&facts, &t);
  /* (mma.split_fill 2 as the H200's shipped database sets it for decoding) */
  const int lanes = t.attention.decode.lanes, split = 2;
  assert_int_equal(lanes, 16);
  static const size_t batches[] = {1, 9, 13, 64};
  for (size_t i = 0; i < ARRAY_LEN(batches); i++) {
    assert_int_equal(decode_kernel_of(&facts, batches[i], 1, 8192, 128, split, lanes),
                     OCF_KERNEL_ATTENTION_LANES);
    assert_int_equal(decode_kernel_of(&facts, batches[i], 1, 8192, 80, split, lanes),
                     OCF_KERNEL_ATTENTION_LANES);
  }
  /* heads of 64 and 4 rows a head: the matrix units (split below 264 workgroups, whole from
     396), attention_lanes between them, where attention_decode ran */
  assert_int_equal(decode_kernel_of(&facts, 1, 1, 8192, 64, split, lanes),
                   OCF_KERNEL_ATTENTION_MMA_SPLIT);
  assert_int_equal(decode_kernel_of(&facts, 13, 1, 8192, 64, split, lanes),
                   OCF_KERNEL_ATTENTION_MMA);
  assert_int_equal(decode_kernel_of(&facts, 9, 1, 8192, 64, split, lanes),
                   OCF_KERNEL_ATTENTION_LANES);
  assert_int_equal(decode_kernel_of(&facts, 1, 4, 8192, 128, split, lanes),
                   OCF_KERNEL_ATTENTION_MMA_SPLIT);
  assert_int_equal(decode_kernel_of(&facts, 1, 4, 511, 128, split, lanes),
                   OCF_KERNEL_ATTENTION_LANES);
  /* heads past attention_mma's 128 */
  assert_int_equal(decode_kernel_of(&facts, 1, 4, 8192, 256, split, lanes),
                   OCF_KERNEL_ATTENTION_LANES);
  /* off: attention_decode where it ran */
  assert_int_equal(decode_kernel_of(&facts, 1, 1, 8192, 256, split, 0),
                   OCF_KERNEL_ATTENTION_DECODE);
}

/* A bf16 decoding step b x 32 heads (h_kv key heads) x 1 x lk x 128, K and V read 16 bytes at a
   time. */
static ocf_attention_call bf16_decode_call(size_t b, size_t h_kv, size_t lk) {
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = b, call.h = 32, call.h_kv = h_kv, call.lq = 1, call.lk = lk, call.d = 128;
  call.kv_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
  return call;
}

/* The plan of `call` on `facts` with tuning t, which must be attention_lanes's and verify. */
static ocf_plan lanes_plan_of(const ocf_device_facts *facts, const ocf_tuning_values *t,
                              const ocf_attention_call *call) {
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(facts, t, call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  assert_int_equal(ocf_plan_verify(&plan, facts), OCF_SUCCESS);
  return plan;
}

/* The fallback attention values with `base` and then `settings` over them. */
static ocf_tuning_values attention_values(const char *base, const char *settings) {
  ocf_tuning_values t;
  ocf_tuning_fallbacks(OCF_OP_ATTENTION, &t);
  assert_int_equal(ocf_tuning_parse(OCF_OP_ATTENTION, base, &t, "test"), OCF_SUCCESS);
  assert_int_equal(ocf_tuning_parse(OCF_OP_ATTENTION, settings, &t, "test"), OCF_SUCCESS);
  return t;
}

/* attention_lanes's plan of a decoding step 2 x 32 heads (h_kv key heads) x 1 x 8192 x 128 on
   `facts` with decode.join = join, attention_lanes on (64 work-items, 8 lanes a key). */
static ocf_plan lanes_join_plan(const ocf_device_facts *facts, int join, size_t h_kv) {
  ocf_tuning_values t = attention_values("decode.wg=64 decode.lanes=8", "");
  t.attention.decode.join = join;
  const ocf_attention_call call = bf16_decode_call(2, h_kv, 8192);
  return lanes_plan_of(facts, &t, &call);
}

/* decode.join makes attention_lanes one kernel, a counter a row block (2 batches x 32 heads,
   one query row a block; with 8 key heads and decode.join 2, the 4 query rows of a key head in
   one block), where the device orders workgroups: PTX fences on NVIDIA (JOIN 2), mem_fence on a
   CPU (1); other GPUs, join 0 and blocks of several rows under join 1 keep attention_lanes_join
   after it, and no counters. */
static void test_plan_attention_lanes_join(void **state) {
  (void)state;
  const struct {
    ocf_device_facts facts;
    int join;
    size_t h_kv;
    int define;
  } cases[] = {{h200_probed(49152), 1, 32, 2},   {facts_of(POCL, 0), 1, 32, 1},
               {facts_of(AMD_GPU, 0), 1, 32, 0}, {facts_of(INTEL_GPU, 0), 1, 32, 0},
               {h200_probed(49152), 0, 32, 0},   {facts_of(POCL, 0), 0, 32, 0},
               {h200_probed(49152), 1, 8, 0},    {facts_of(POCL, 0), 1, 8, 0},
               {h200_probed(49152), 2, 8, 2},    {facts_of(POCL, 0), 2, 8, 1}};
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_plan plan = lanes_join_plan(&cases[i].facts, cases[i].join, cases[i].h_kv);
    assert_int_equal(plan_value(&plan, "JOIN"), cases[i].define);
    assert_int_equal(plan.step_count, cases[i].define ? 1 : 2);
    assert_int_equal(plan.arrivals, cases[i].define ? (cases[i].h_kv == 8 ? 16 : 64) : 0);
    if (!cases[i].define) assert_int_equal(plan.steps[1].kernel, OCF_KERNEL_ATTENTION_LANES_JOIN);
    assert_int_equal(ocf_plan_verify(&plan, &cases[i].facts), OCF_SUCCESS);
  }
}

/* The H200 once its wgmma probe ran right with `local_ok` bytes of local memory (0: the probe
   not run yet). */
static ocf_device_facts h200_wgmma(unsigned long long local_ok) {
  ocf_device_facts facts = facts_of(H200, 0);
  if (local_ok) {
    facts.learnt.wgmma = OCF_PROBE_PASSED;
    facts.learnt.wgmma_local_ok = local_ok;
    facts.learnt.wgmma_local_ok_reported = local_ok + 16;
  }
  return facts;
}

/* attention_lanes's plan of a decoding step 1 x 32 x 1 x 8192 x 128 with K and V of k_dtype
   and v_dtype (kv_vector elements dividing their offsets and strides) on `facts`, 128
   work-items, 8 lanes a key, 2 keys a lane a step (32 keys), joined, and `settings` (the ring's
   decode.bulk and the rest) over them. */
static ocf_plan lanes_bulk_plan(const ocf_device_facts *facts, ocf_dtype k_dtype, ocf_dtype v_dtype,
                                size_t kv_vector, const char *settings) {
  const ocf_tuning_values t =
      attention_values("decode.wg=128 decode.lanes=8 decode.unroll=2 decode.join=2", settings);
  ocf_attention_call call = bf16_decode_call(1, 32, 8192);
  call.kv_vector = kv_vector;
  call.k_dtype = k_dtype, call.v_dtype = v_dtype;
  return lanes_plan_of(facts, &t, &call);
}

/* decode.bulk: attention_lanes's ring on an NVIDIA GPU of compute capability 9.0 whose wgmma
   probe passed, its stages cut (down to 2) to the local memory that probe ran right with beside
   the join's (16 slots x 130 floats), its stages of whole steps, its key ranges at decode.bulk_fill
   workgroups a compute unit; none where 16-byte chunks of K and V do not hold (8-byte ones, fp32
   K beside 16-bit V), where the row blocks alone pass a wave of rings, with AHEAD, on other
   devices, where the probe failed or the BULK program failed to build; the probe asked for where it
   has not run. */
static void test_plan_attention_lanes_bulk(void **state) {
  (void)state;
  const char *ring6 = "decode.bulk=1 decode.stages=6 decode.bulk_keys=64";
  const size_t join = 16 * 130 * 4, stage16 = 64 * 128 * 4 + 16, stage32 = 64 * 128 * 8 + 16;
  const ocf_device_facts h200 = h200_wgmma(205824);
  ocf_plan plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "BULK"), 1);
  assert_int_equal(plan_value(&plan, "STAGES"), 6);
  assert_int_equal(plan_value(&plan, "BULK_KEYS"), 64);
  assert_int_equal(plan.local_mem_bytes, join + 6 * stage16); /* 205024 */
  assert_int_equal(plan_value(&plan, "REFILL_BEFORE"), 0);
  plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, "decode.bulk=1 decode.bulk_refill=1");
  assert_int_equal(plan_value(&plan, "REFILL_BEFORE"), 1);
  plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, "decode.bulk=0 decode.bulk_refill=1");
  assert_int_equal(plan_value(&plan, "REFILL_BEFORE"), 0);
  plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  assert_int_equal(plan.split_keys % 64, 0);
  /* one workgroup a compute unit: 32 heads in 4 ranges of 2048 keys on 132 units */
  assert_int_equal(plan.kv_splits, 4);
  plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, "decode.bulk=1 decode.bulk_fill=2");
  assert_int_equal(plan.kv_splits, 8);
  /* ranges of 2048 keys: none where decode.bulk_min asks for more (then the lanes' own ranges) */
  plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, "decode.bulk=1 decode.bulk_min=2049");
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  assert_int_equal(plan.kv_splits, 18); /* decode.fill 4: 17 wanted, 8192 / 17 down to 480 */
  /* fewer stages where the probe ran less: 4 fit 140000 bytes, 2 do not fit 60000 */
  const ocf_device_facts less = h200_wgmma(140000), least = h200_wgmma(60000);
  plan = lanes_bulk_plan(&less, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "STAGES"), 4);
  assert_int_equal(plan.local_mem_bytes, join + 4 * stage16);
  plan = lanes_bulk_plan(&least, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  assert_int_equal(plan.local_mem_bytes, join);
  /* fp32 in chunks of 4: 3 stages of 64 KiB; mixed 16-bit types alike; keys rounded to a step */
  plan = lanes_bulk_plan(&h200, OCF_F32, OCF_F32, 4, ring6);
  assert_int_equal(plan_value(&plan, "STAGES"), 3);
  assert_int_equal(plan.local_mem_bytes, join + 3 * stage32);
  plan = lanes_bulk_plan(&h200, OCF_F16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "BULK"), 1);
  plan = lanes_bulk_plan(&h200, OCF_BF16, OCF_BF16, 8, "decode.bulk=1 decode.bulk_keys=16");
  assert_int_equal(plan_value(&plan, "BULK_KEYS"), 32);
  /* no ring */
  const struct {
    ocf_device_facts facts;
    ocf_dtype k_dtype;
    size_t kv_vector;
    const char *settings;
    ocf_plan_probe probe;
  } none[] = {
      {h200_wgmma(205824), OCF_BF16, 4, "decode.bulk=1", OCF_PLAN_PROBE_NONE},
      {h200_wgmma(205824), OCF_F32, 4, "decode.bulk=1", OCF_PLAN_PROBE_NONE}, /* V bf16 */
      {h200_wgmma(205824), OCF_BF16, 8, "decode.bulk=0", OCF_PLAN_PROBE_NONE},
      {h200_wgmma(205824), OCF_BF16, 8, "decode.bulk=1 decode.ahead=1", OCF_PLAN_PROBE_NONE},
      {h200_wgmma(0), OCF_BF16, 8, "decode.bulk=1", OCF_PLAN_PROBE_WGMMA},
      {h200_probed(49152), OCF_BF16, 8, "decode.bulk=1", OCF_PLAN_PROBE_NONE},
      {facts_of(POCL, 0), OCF_BF16, 8, "decode.bulk=1", OCF_PLAN_PROBE_NONE},
      {facts_of(AMD_GPU, 0), OCF_BF16, 8, "decode.bulk=1", OCF_PLAN_PROBE_NONE},
  };
  for (size_t i = 0; i < ARRAY_LEN(none); i++) {
    plan = lanes_bulk_plan(&none[i].facts, none[i].k_dtype, OCF_BF16, none[i].kv_vector,
                           none[i].settings);
    assert_int_equal(plan_value(&plan, "BULK"), 0);
    assert_int_equal(plan.probe, none[i].probe);
  }
  ocf_device_facts failed = h200_wgmma(205824), older = h200_wgmma(205824);
  ocf_device_facts few_units = h200_wgmma(205824);
  failed.learnt.lanes_bulk_failed = 1;
  older.nv_compute_capability = 80;
  few_units.compute_units = 16; /* 32 key heads: more than one wave of rings before a split */
  plan = lanes_bulk_plan(&few_units, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  assert_int_equal(plan_value(&plan, "STAGES"), 0);
  assert_int_equal(plan.local_mem_bytes, join);
  few_units.learnt.wgmma = OCF_PROBE_UNKNOWN; /* nor is the probe asked for there */
  plan = lanes_bulk_plan(&few_units, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  /* NVIDIA's built-in bf16 values take the ring for 1 x 32 x 1 x 8192 x 128 (32 row blocks,
     ranges of 2048 keys; stages of 128 keys, 3 of them within the probe's 205824 bytes beside
     the join) once the probe passed; before it, registers and the probe asked for */
  const ocf_device_facts unprobed = h200_wgmma(0);
  ocf_tuning_values builtin;
  h200_bf16_attention(&h200, &builtin);
  ocf_attention_call call = bf16_decode_call(1, 32, 8192);
  assert_int_equal(ocf_plan_attention(&h200, &builtin, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan_value(&plan, "BULK"), 1);
  assert_int_equal(plan_value(&plan, "STAGES"), 3);
  assert_int_equal(plan_value(&plan, "BULK_KEYS"), 128);
  assert_int_equal(ocf_plan_attention(&unprobed, &builtin, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_WGMMA);
  /* 8000 keys in 4 ranges: 8000 / 4 rounded down to whole stages (1920) would make 5, a second
     wave of rings; rounded up (2048) they stay 4 */
  call.lk = 8000;
  assert_int_equal(ocf_plan_attention(&h200, &builtin, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan_value(&plan, "BULK"), 1);
  assert_int_equal(plan.kv_splits, 4);
  assert_int_equal(plan.split_keys, 2048);
  plan = lanes_bulk_plan(&failed, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  plan = lanes_bulk_plan(&older, OCF_BF16, OCF_BF16, 8, ring6);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
}

/* attention_lanes's plan of a decoding step 1 x 32 x 1 x 8192 x 128 bf16 with h_kv key heads on
   `facts`, 8 lanes a key and 2 keys a lane a step, and `settings` over them. */
static ocf_plan lanes_rows_plan(const ocf_device_facts *facts, size_t h_kv, const char *settings) {
  const ocf_tuning_values t = attention_values("decode.lanes=8 decode.unroll=2", settings);
  const ocf_attention_call call = bf16_decode_call(1, h_kv, 8192);
  return lanes_plan_of(facts, &t, &call);
}

/* decode.row_groups: the 4 query rows of a key head (32 heads on 8) shared by 4 groups of
   decode.wg work-items, a row each (the rows' queries and sums, 32 floats a work-item where one
   work-item held all four); as many groups as the key head has rows (2 with 16 key heads, 1
   with 32); past the 256 work-items NVIDIA's driver reports for the kernel only once the wide
   probe passed (the probe asked for first; registers capped so that 512 fit a compute unit),
   within it where the probe failed or the launch was refused (smaller groups); the join's local
   memory a group's slots, its steps a group's keys; NVIDIA's built-in 16-bit plan of grouped
   heads, and none past a wave of row blocks. */
static void test_plan_attention_lanes_row_groups(void **state) {
  (void)state;
  ocf_device_facts h200 = facts_of(H200, 256); /* the kernel's reported limit learnt */
  ocf_plan plan = lanes_rows_plan(&h200, 8, "decode.wg=128 decode.row_groups=1");
  assert_int_equal(plan_value(&plan, "ROWG"), 1);
  assert_int_equal(plan_value(&plan, "RB"), 4);
  assert_int_equal(plan.steps[0].local[0], 128);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  const size_t slots16 = 16 * 4 * 130 * 4; /* the join: 16 slots x 4 rows x (128 + 2) floats */
  assert_int_equal(plan.local_mem_bytes, slots16);
  /* before the wide probe: 4 groups of 64 in the reported 256, and the probe asked for */
  plan = lanes_rows_plan(&h200, 8, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan_value(&plan, "ROWG"), 4);
  assert_int_equal(plan_value(&plan, "RB"), 4);
  assert_int_equal(plan.steps[0].local[0], 256);
  assert_int_equal(plan.wide_workgroup, 0);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_WIDE);
  assert_int_equal(plan.local_mem_bytes, 256 / 4 / 8 * 4 * 130 * 4);
  assert_int_equal(plan.split_keys % (256 / 4 / 8 * 2), 0);
  /* after it: 512 work-items, at most 128 registers each */
  h200.learnt.wide = OCF_PROBE_PASSED;
  plan = lanes_rows_plan(&h200, 8, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan.steps[0].local[0], 512);
  assert_int_equal(plan_value(&plan, "ROWG"), 4);
  assert_int_equal(plan.wide_workgroup, 1);
  assert_int_equal(plan.max_registers, 128);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  assert_int_equal(plan.local_mem_bytes, slots16);
  assert_int_equal(plan.split_keys % 32, 0);
  /* within what is reported: groups of 64, no wide plan */
  plan = lanes_rows_plan(&h200, 8, "decode.wg=64 decode.row_groups=4");
  assert_int_equal(plan.steps[0].local[0], 256);
  assert_int_equal(plan.wide_workgroup, 0);
  assert_int_equal(plan.max_registers, 0);
  /* as many groups as rows: 2 with 16 key heads, 1 with 32; 8 asked of 4 rows */
  plan = lanes_rows_plan(&h200, 16, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan_value(&plan, "ROWG"), 2);
  assert_int_equal(plan_value(&plan, "RB"), 2);
  assert_int_equal(plan.steps[0].local[0], 256);
  plan = lanes_rows_plan(&h200, 32, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan_value(&plan, "ROWG"), 1);
  assert_int_equal(plan.steps[0].local[0], 128);
  plan = lanes_rows_plan(&h200, 8, "decode.wg=64 decode.row_groups=8");
  assert_int_equal(plan_value(&plan, "ROWG"), 4);
  assert_int_equal(plan.steps[0].local[0], 256);
  /* the probe failed, or the wide launch refused: within the reported 256 */
  h200.learnt.wide = OCF_PROBE_FAILED;
  plan = lanes_rows_plan(&h200, 8, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan.steps[0].local[0], 256);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  h200.learnt.wide = OCF_PROBE_PASSED;
  h200.learnt.wide_refused[OCF_KERNEL_ATTENTION_LANES] = 1;
  plan = lanes_rows_plan(&h200, 8, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan.steps[0].local[0], 256);
  assert_int_equal(plan.wide_workgroup, 0);
  /* groups below a key's lanes: fewer groups (32 work-items in 4 groups of 8 lanes a key) */
  plan = lanes_rows_plan(&h200, 8, "decode.wg=8 decode.row_groups=8");
  assert_int_equal(plan_value(&plan, "ROWG"), 4);
  assert_int_equal(plan.steps[0].local[0], 32);
  /* PoCL (2 compute units): no reported limit below the request where the row blocks make a
     wave (32 heads on 2 key heads: 2 blocks of 16 rows, 4 a work-item); 8 key heads pass it */
  const ocf_device_facts pocl = facts_of(POCL, 0);
  plan = lanes_rows_plan(&pocl, 2, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan.steps[0].local[0], 512);
  assert_int_equal(plan_value(&plan, "RB"), 16);
  assert_int_equal(plan.wide_workgroup, 0);
  plan = lanes_rows_plan(&pocl, 8, "decode.wg=128 decode.row_groups=4");
  assert_int_equal(plan_value(&plan, "ROWG"), 1);
  assert_int_equal(plan.steps[0].local[0], 128);
  /* NVIDIA's built-in bf16 values once both probes passed: 4 groups of 128 in the ring, whose
     ranges of 512 keys hold 2048 key-rows (decode.bulk_min 1024); 1 x 8 heads of one row each
     in the same ranges stream through registers */
  ocf_device_facts probed = h200_wgmma(205824);
  probed.learnt.kernel_max_workgroup[OCF_KERNEL_ATTENTION_LANES] = 256;
  probed.learnt.wide = OCF_PROBE_PASSED;
  ocf_tuning_values builtin;
  h200_bf16_attention(&probed, &builtin);
  ocf_attention_call call = bf16_decode_call(1, 8, 8192);
  plan = lanes_plan_of(&probed, &builtin, &call);
  assert_int_equal(plan_value(&plan, "BULK"), 1);
  assert_int_equal(plan_value(&plan, "ROWG"), 4);
  assert_int_equal(plan.steps[0].local[0], 512);
  assert_int_equal(plan.split_keys, 512);
  /* decode.bulk_min's edge in key-rows: 512 keys x 4 rows = 2048 take the ring, 2049 do not */
  ocf_tuning_values edge = builtin;
  edge.attention.decode.bulk_min = 2048;
  plan = lanes_plan_of(&probed, &edge, &call);
  assert_int_equal(plan_value(&plan, "BULK"), 1);
  edge.attention.decode.bulk_min = 2049;
  plan = lanes_plan_of(&probed, &edge, &call);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  call.h = call.h_kv = 8;
  assert_int_equal(ocf_plan_attention(&probed, &builtin, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  assert_int_equal(plan_value(&plan, "ROWG"), 1);
  /* row blocks past a wave (64 batches x 8 key heads on 132 units): neither the ring nor groups,
     one work-item all of a block's rows as before (without mma.pack: with it the matrix units
     take them, test_plan_attention_mma_pack) */
  call.b = 64, call.h = 32, call.lk = 2048;
  builtin.attention.mma.pack = 0;
  assert_int_equal(ocf_plan_attention(&probed, &builtin, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan_value(&plan, "BULK"), 0);
  assert_int_equal(plan_value(&plan, "ROWG"), 1);
  assert_int_equal(plan_value(&plan, "RB"), 4);
  assert_int_equal(plan.steps[0].local[0], 128);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
}

/* Grouped heads packed (mma.pack, NVIDIA's built-in 5): attention_mma's units are a key head's
   query heads (PACK 1) where one head's rows are fewer than a workgroup's, split for
   mma.pack_fill (2) workgroups a compute unit; the packed plan comes before attention_lanes from
   5 rows a key head and where attention_lanes would hold a key head's rows in one work-item (its
   row groups stop at a wave), and waits for the matrix units' probe behind attention_lanes. Key
   warps (mma.key_warps) where one block holds the unit's rows, within 8 warps, each a multiple of
   16 of a tile's keys and their states within the stages. */
static ocf_plan packed_plan(const ocf_device_facts *facts, const ocf_tuning_values *t, size_t b,
                            size_t h, size_t h_kv, size_t lq, size_t lk, size_t d) {
  ocf_attention_call call = bf16_decode_call(b, h_kv, lk);
  call.h = h, call.lq = lq, call.d = d;
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(facts, t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(ocf_plan_verify(&plan, facts), OCF_SUCCESS);
  return plan;
}

static void test_plan_attention_mma_pack(void **state) {
  (void)state;
  ocf_device_facts probed = h200_wgmma(205824);
  probed.learnt.kernel_max_workgroup[OCF_KERNEL_ATTENTION_LANES] = 256;
  probed.learnt.wide = OCF_PROBE_PASSED;
  probed.learnt.mma = OCF_PROBE_PASSED;
  ocf_tuning_values builtin;
  h200_bf16_attention(&probed, &builtin);
  assert_int_equal(builtin.attention.mma.pack, 5);
  assert_int_equal(builtin.attention.mma.pack_fill, 2);
  /* 8 rows a key head (64 heads on 8): packed, 8 units split into 32 ranges of 256 keys */
  ocf_plan plan = packed_plan(&probed, &builtin, 1, 64, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA_SPLIT);
  assert_int_equal(plan.steps[1].kernel, OCF_KERNEL_ATTENTION_MMA_JOIN);
  assert_int_equal(plan_value(&plan, "PACK"), 1);
  assert_int_equal(plan_value(&plan, "KW"), 1);
  assert_int_equal(plan_value(&plan, "WARPS"), 1);
  assert_int_equal(plan.kv_splits, 32);
  assert_int_equal(plan.steps[0].global[0] / plan.steps[0].local[0], 8 * 32);
  assert_int_equal(plan.scratch_bytes, 64 * 32 * 130 * sizeof(float));
  /* 4 query rows of 4 heads (16 a key head): packed in one warp's 16 rows */
  plan = packed_plan(&probed, &builtin, 1, 32, 8, 4, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA_SPLIT);
  assert_int_equal(plan_value(&plan, "PACK"), 1);
  /* 5 rows a key head (40 heads on 8): packed; 4 (32 on 8): below 5, attention_lanes's row
     groups */
  plan = packed_plan(&probed, &builtin, 1, 40, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA_SPLIT);
  plan = packed_plan(&probed, &builtin, 1, 32, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  assert_true(plan_value(&plan, "ROWG") > 1);
  /* 4 rows a key head within a wave: attention_lanes; past it (64 x 8 row blocks on 132 units):
     packed attention_mma, 512 workgroups unsplit */
  plan = packed_plan(&probed, &builtin, 4, 32, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  plan = packed_plan(&probed, &builtin, 64, 32, 8, 1, 2048, 128);
  assert_int_equal(plan.step_count, 1);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA);
  assert_int_equal(plan_value(&plan, "PACK"), 1);
  assert_int_equal(plan.steps[0].global[0] / plan.steps[0].local[0], 64 * 8);
  /* ... and before the matrix units' probe: attention_lanes, the probe asked for */
  ocf_device_facts unprobed = probed;
  unprobed.learnt.mma = OCF_PROBE_UNKNOWN;
  plan = packed_plan(&unprobed, &builtin, 64, 32, 8, 1, 2048, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_MMA);
  plan = packed_plan(&unprobed, &builtin, 1, 64, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_MMA);
  /* one head a key head, and query rows that fill a workgroup: not packed */
  plan = packed_plan(&probed, &builtin, 1, 32, 32, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  ocf_tuning_values t = builtin;
  t.attention.wgmma.on = 0;
  plan = packed_plan(&probed, &t, 1, 32, 8, 64, 4096, 128);
  assert_int_equal(plan_value(&plan, "PACK"), 0);
  /* mma.pack 0: never packed (8 rows a key head: attention_lanes) */
  t = builtin;
  t.attention.mma.pack = 0;
  plan = packed_plan(&probed, &t, 1, 64, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  /* mma.pack_fill 0: 8 packed units neither split nor fill the device (mma.decode_fill 3 a
     compute unit): attention_lanes */
  t = builtin;
  t.attention.mma.pack_fill = 0;
  plan = packed_plan(&probed, &t, 1, 64, 8, 1, 8192, 128);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  /* key warps: 4 with 64-key tiles (beyond the reported local memory, mma.local), 16 keys each;
     with 32-key tiles (the reported 48 KiB) 2; 8 asked of 2 row warps (lq 2 x 16 heads a key
     head: 32 rows) 4; none where the unit's rows take several blocks (lq 40 x 2 heads) */
  t = builtin;
  t.attention.mma.key_warps = 4;
  t.attention.mma.local = 1;
  probed.learnt.mma_local_ok = 227 << 10;
  plan = packed_plan(&probed, &t, 1, 64, 8, 1, 8192, 128);
  assert_int_equal(plan_value(&plan, "KW"), 4);
  assert_int_equal(plan_value(&plan, "WARPS"), 4);
  assert_int_equal(plan_value(&plan, "BK"), 64);
  assert_int_equal(plan.steps[0].local[0], 128);
  t.attention.mma.local = 0;
  plan = packed_plan(&probed, &t, 1, 64, 8, 1, 8192, 128);
  assert_int_equal(plan_value(&plan, "BK"), 32);
  assert_int_equal(plan_value(&plan, "KW"), 2);
  t.attention.mma.key_warps = 8;
  t.attention.mma.warps = 2;
  t.attention.mma.bk = 128;
  t.attention.mma.local = 1;
  plan = packed_plan(&probed, &t, 1, 32, 2, 2, 8192, 128);
  assert_int_equal(plan_value(&plan, "PACK"), 1);
  assert_int_equal(plan_value(&plan, "KW"), 4);
  assert_int_equal(plan_value(&plan, "WARPS"), 8);
  t.attention.wgmma.on = 0;
  plan = packed_plan(&probed, &t, 1, 4, 2, 40, 4096, 128);
  assert_int_equal(plan_value(&plan, "PACK"), 0);
  assert_int_equal(plan_value(&plan, "KW"), 1);
}

/* mma.join makes attention_mma_split one kernel on NVIDIA (JOIN 2, a counter a (batch, head,
   block of rows): 32 for one decoding row a head of 32), two kernels without it; mma.join 1
   joins blocks of one query row only (4 rows a head: two kernels), 2 every block (a counter a
   head's block of 4 rows). */
static void test_plan_attention_mma_join(void **state) {
  (void)state;
  const ocf_device_facts facts = h200_probed(49152);
  for (size_t lq = 1; lq <= 4; lq += 3)
    for (int join = 0; join <= 2; join++) {
      ocf_tuning_values t;
      h200_bf16_attention(&facts, &t);
      t.attention.mma.split_fill = 2, t.attention.mma.join = join;
      ocf_attention_call call;
      memset(&call, 0, sizeof call);
      call.b = 1, call.h = call.h_kv = 32, call.lq = lq, call.lk = 8192, call.d = 64;
      call.kv_vector = 8;
      call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
      ocf_plan plan;
      assert_int_equal(ocf_plan_attention(&facts, &t, &call, &plan), OCF_SUCCESS);
      assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA_SPLIT);
      const int joined = join == 2 || (join == 1 && lq == 1);
      assert_int_equal(plan_value(&plan, "JOIN"), joined ? 2 : 0);
      assert_int_equal(plan.step_count, joined ? 1 : 2);
      assert_int_equal(plan.arrivals, joined ? 32 : 0);
      assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_SUCCESS);
    }
}

/* attention_mma's local memory: the device's reported 48 KiB (bk 32 at d 128) whatever the probe
   showed, unless mma.local=1; then what the matrix-unit probe ran right (bk 64, three stages, a
   Q tile), asking it for the tuning's size while that may still pass (at most its 128 KiB,
   below a size that failed), fewer stages then smaller tiles meanwhile; never on the emulation
   (no probe there); the verifier holds a plan to what ran. */
static void test_plan_attention_mma_local_memory(void **state) {
  (void)state;
  ocf_device_facts facts = h200_probed(98304);
  /* mma.local off (the default): 48 KiB even with 96 KiB shown, and no probe asked */
  plan_attention_mma_case("local 0, 96 KiB shown", &facts, NULL,
                          "BK=32 STAGES=2 ROWS=16 Q_LOCAL=0 REMAT=0 local_mem=32768", 0);
  /* (fewer stages before smaller tiles) */
  plan_attention_mma_case("local 0, stages 3", &facts, "mma.stages=3",
                          "BK=32 STAGES=2 local_mem=32768", 0);
  /* mma.local on: the tuning's bk 64 (64 KiB) once shown; asked for while it is not */
  facts = h200_probed(32768);
  plan_attention_mma_case("local 1, 32 KiB shown", &facts, "mma.local=1",
                          "BK=32 STAGES=2 local_mem=32768", 65536);
  facts.learnt.mma_local_ok = 65536;
  plan_attention_mma_case("local 1, 64 KiB shown", &facts, "mma.local=1",
                          "BK=64 STAGES=2 local_mem=65536", 0);
  /* three stages (96 KiB): two meanwhile, then three once shown */
  plan_attention_mma_case("stages 3, 64 KiB shown", &facts, "mma.local=1 mma.stages=3",
                          "BK=64 STAGES=2 local_mem=65536", 98304);
  facts.learnt.mma_local_ok = 98304;
  plan_attention_mma_case("stages 3, 96 KiB shown", &facts, "mma.local=1 mma.stages=3",
                          "BK=64 STAGES=3 local_mem=98304", 0);
  /* 32 rows a warp with the Q tile: 64 + 32 KiB, 128 rows a workgroup of 4 warps */
  plan_attention_mma_case("rows 32, Q tile", &facts, "mma.local=1 mma.rows=32 mma.q_local=1",
                          "BK=64 STAGES=2 ROWS=32 Q_LOCAL=1 WARPS=4 local_mem=98304", 0);
  /* the 96 KiB probe failed: no more asking, two stages */
  facts.learnt.mma_local_ok = 65536;
  facts.learnt.mma_local_failed = 98304;
  plan_attention_mma_case("96 KiB failed", &facts, "mma.local=1 mma.stages=3",
                          "BK=64 STAGES=2 local_mem=65536", 0);
  /* 64 KiB failed: the reported 48 KiB, bk 32, nothing asked */
  facts = h200_probed(49152);
  facts.learnt.mma_local_failed = 65536;
  plan_attention_mma_case("64 KiB failed", &facts, "mma.local=1", "BK=32 STAGES=2 local_mem=32768",
                          0);
  /* three stages of 128-key tiles (192 KiB) are past what the probe shows: none asked */
  facts = h200_probed(131072);
  plan_attention_mma_case("192 KiB", &facts, "mma.local=1 mma.stages=3 mma.bk=128",
                          "BK=128 STAGES=2 local_mem=131072", 0);
  /* before any probe: the first (32 KiB) probe, another kernel's plan meanwhile */
  facts = h200_probed(0);
  ocf_tuning_values t;
  h200_bf16_attention(&facts, &t);
  t.attention.mma.local = 1;
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 4, call.h = call.h_kv = 32, call.lq = call.lk = 4096, call.d = 128;
  call.kv_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(&facts, &t, &call, &plan), OCF_SUCCESS);
  assert_int_not_equal(plan.program, OCF_PROGRAM_ATTENTION_MMA_NV);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_MMA);
  assert_int_equal(plan.probe_bytes, 32768);
  /* the verifier: 64 KiB planned, then facts that show only 48 */
  facts = h200_probed(65536);
  assert_int_equal(ocf_plan_attention(&facts, &t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.local_mem_bytes, 65536);
  facts.learnt.mma_local_ok = 49152;
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_WORKGROUP);
  /* the built kernel may report what the probe's kernel reported for its bytes */
  facts.learnt.mma_local_ok = 65536;
  facts.learnt.mma_local_ok_reported = 65536 + 16;
  assert_int_equal(ocf_facts_kernel_local_limit(&facts, OCF_PROGRAM_ATTENTION_MMA_NV), 65552);
  assert_int_equal(ocf_facts_reported_local_limit(&facts, OCF_PROGRAM_ATTENTION_MMA_NV), 49152);
  /* the emulation (PoCL, mma.on=2): the reported size, no probe */
  ocf_device_facts cpu = facts_of(POCL, 0);
  t.attention.mma.on = 2, t.attention.mma.stages = 3;
  assert_int_equal(ocf_plan_attention(&cpu, &t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.program, OCF_PROGRAM_ATTENTION_MMA_NV);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  assert_true(plan.local_mem_bytes <= cpu.local_mem_bytes);
}

/* attention_block's plan of an fp32 (exact products) 4 x 32 x 4096 x 4096 x 128 call on the H200
   with the built-in tuning and `settings`: its tiles (values) and the probe it asks for (0: none),
   the plan held to what the facts show. */
static void plan_block_case(const char *what, const ocf_device_facts *facts, const char *settings,
                            const char *values, size_t probe_bytes) {
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  ocf_tuning_values t;
  assert_int_equal(
      ocf_tuning_resolve(rows, count, OCF_OP_ATTENTION, OCF_F32, facts, "NVIDIA H200", &t),
      OCF_SUCCESS);
  assert_int_equal(ocf_tuning_parse(OCF_OP_ATTENTION, settings, &t, "test"), OCF_SUCCESS);
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 4, call.h = call.h_kv = 32, call.lq = call.lk = 4096, call.d = 128;
  call.kv_vector = call.q_vector = 4;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_F32;
  ocf_plan plan;
  const ocf_status status = ocf_plan_attention(facts, &t, &call, &plan);
  const size_t bq = (size_t)plan_value(&plan, "BQ"), rm = (size_t)plan_value(&plan, "RM");
  char shape[96];
  snprintf(shape, sizeof shape, "attention_block wg=%zu groups=%zu",
           bq && rm ? bq / rm * (size_t)plan_value(&plan, "TC") : 0, bq ? 4 * 32 * 4096 / bq : 0);
  expect_plan(what, status, &plan, shape, values);
  expect_mma_probe(what, &plan, probe_bytes);
  assert_int_equal(ocf_plan_verify(&plan, facts), OCF_SUCCESS);
}

/* attention_block's local memory (block.local): the reported 48 KiB unless it is set; then what
   the matrix-unit probe ran right with, asking for a probe of the tuning's tiles (64 x 64 at d
   128: 64 x 128 + 64 x 132 + 64 x 65 floats, 83200 bytes, a probe of 96 KiB) while one may still
   pass, bk halved then bq meanwhile; nothing asked where the probe failed, above a size that
   failed, past the probe's 128 KiB, below compute capability 8.0 or off NVIDIA. */
static void test_plan_attention_block_local_memory(void **state) {
  (void)state;
  const char *const big = "block.local=1 block.bq=64 block.rm=8 block.bk=64";
  ocf_device_facts facts = h200_probed(98304);
  plan_block_case("local 0, 96 KiB shown", &facts, "block.bq=64 block.rm=8 block.bk=64",
                  "BQ=64 BK=16 RM=8 local_mem=45568", 0);
  plan_block_case("local 1, 96 KiB shown", &facts, big, "BQ=64 BK=64 RM=8 TC=16 local_mem=83200",
                  0);
  facts = h200_probed(65536);
  plan_block_case("local 1, 64 KiB shown", &facts, big, "BQ=64 BK=32 local_mem=58112", 98304);
  facts.learnt.mma_local_failed = 98304;
  plan_block_case("local 1, 96 KiB failed", &facts, big, "BQ=64 BK=32 local_mem=58112", 0);
  /* tiles past the reported size failed to build (run.c): held to it, no probe asked again */
  facts = h200_probed(98304);
  facts.learnt.program_local_budget[OCF_PROGRAM_ATTENTION_BLOCK] = facts.local_mem_bytes;
  plan_block_case("local 1, a build beyond failed", &facts, big, "BQ=64 BK=16 local_mem=45568", 0);
  facts = h200_probed(0); /* no probe yet: the reported size meanwhile, the probe asked */
  plan_block_case("local 1, before the probe", &facts, big, "BQ=64 BK=16 local_mem=45568", 98304);
  facts.learnt.mma = OCF_PROBE_FAILED;
  plan_block_case("local 1, the probe failed", &facts, big, "BQ=64 BK=16 local_mem=45568", 0);
  facts = h200_probed(0);
  facts.nv_compute_capability = 75;
  plan_block_case("local 1, compute capability 7.5", &facts, big, "BQ=64 BK=16", 0);
  /* 128 x 128 tiles (194 KiB) are past the probe's 128 KiB: none asked, bk 32 in what it showed */
  facts = h200_probed(131072);
  plan_block_case("local 1, 194 KiB", &facts, "block.local=1 block.bq=128 block.rm=8 block.bk=128",
                  "BQ=128 BK=32 local_mem=99328", 0);
  /* the verifier holds the plan to what ran; the built kernel may take what the probe's did */
  facts = h200_probed(98304);
  assert_int_equal(ocf_facts_kernel_local_limit(&facts, OCF_PROGRAM_ATTENTION_BLOCK), 98320);
  assert_int_equal(ocf_facts_reported_local_limit(&facts, OCF_PROGRAM_ATTENTION_BLOCK), 49152);
  /* off NVIDIA (PoCL): the reported size, no probe */
  ocf_device_facts cpu = facts_of(POCL, 0);
  ocf_tuning_values t = tuning_of(&cpu, POCL, OCF_OP_ATTENTION);
  assert_int_equal(ocf_tuning_parse(OCF_OP_ATTENTION, big, &t, "test"), OCF_SUCCESS);
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 1, call.h = call.h_kv = 2, call.lq = call.lk = 300, call.d = 128;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_F32;
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(&cpu, &t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_BLOCK);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  assert_true(plan.local_mem_bytes <= cpu.local_mem_bytes);
}

/* The query heads attention_tiled decodes together on a CPU (built-in tiled.heads 8), one
   query row of fp32 heads of dim `d`: its plan's first kernel and workgroups, and HG. */
static void expect_heads(const char *what, device_id id, size_t b, size_t h, size_t h_kv, size_t lq,
                         size_t d, const char *shape, long long hg) {
  ocf_device_facts facts = facts_of(id, 0);
  if (id == LLVMPIPE) facts = facts_of(id, 32);
  ocf_tuning_values t = tuning_of(&facts, id, OCF_OP_ATTENTION);
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = b, call.h = h, call.h_kv = h_kv, call.lq = lq, call.lk = 4096, call.d = d;
  call.kv_vector = call.q_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_F32;
  ocf_plan plan;
  char values[32];
  snprintf(values, sizeof values, "HG=%lld", hg);
  expect_plan(what, ocf_plan_attention(&facts, &t, &call, &plan), &plan, shape, values);
}

/* PoCL (2 compute units): 32 query heads over 8 key heads, 4 a work-item (8 workgroups); 8
   heads over one key head (MQA) 4 a work-item, leaving a workgroup for each unit (two, which
   the key split then makes four: split.fill 2); 6 over 2, all 3; head dims of part of a vector,
   several query rows, and llvmpipe's loop limit: one head a workgroup. */
static void test_plan_attention_heads(void **state) {
  (void)state;
  expect_heads("gqa 4", POCL, 1, 32, 8, 1, 128, "attention_tiled wg=1 groups=8", 4);
  expect_heads("mqa", POCL, 1, 8, 1, 1, 64,
               "attention_split wg=1 groups=4 + attention_merge wg=64 groups=8", 4);
  expect_heads("gqa 3", POCL, 2, 6, 2, 1, 64, "attention_tiled wg=1 groups=4", 3);
  expect_heads("no gqa", POCL, 1, 32, 32, 1, 128, "attention_tiled wg=1 groups=32", 1);
  expect_heads("d 40", POCL, 1, 32, 8, 1, 40, "attention_tiled wg=1 groups=32", 1);
  expect_heads("lq 2", POCL, 1, 32, 8, 2, 128, "attention_tiled wg=2 groups=32", 1);
  expect_heads("llvmpipe", LLVMPIPE, 1, 32, 8, 1, 128,
               "attention_split wg=1 groups=768 + attention_merge wg=32 groups=128", 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_attention_mma_local_memory),
      cmocka_unit_test(test_plan_attention_block_local_memory),
      cmocka_unit_test(test_plan_attention_decode_routes),
      cmocka_unit_test(test_plan_attention_lanes_routes),
      cmocka_unit_test(test_plan_attention_lanes_join),
      cmocka_unit_test(test_plan_attention_lanes_bulk),
      cmocka_unit_test(test_plan_attention_lanes_row_groups),
      cmocka_unit_test(test_plan_attention_mma_join),
      cmocka_unit_test(test_plan_attention_mma_pack),
      cmocka_unit_test(test_plan_attention_heads),
  };
  return cmocka_run_group_tests_name("plan_attention", tests, NULL, NULL);
}
