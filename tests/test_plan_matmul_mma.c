/*
 * The planner on described devices: matmul on the H200's matrix units through mma.sync
 * (src/plan/plan_matmul_mma.c, cl/matmul_mma_nv.cl) and the few-row kernels
 * (src/plan/plan_matmul_few.c, cl/matmul_few_mma.cl): which calls take them, before and after
 * the probe; their shapes and loads; local memory past what the device reports; the probe's own
 * plan. The method, the devices and the helpers: tests/plan_fixture.h.
 */

#include "plan_fixture.h"

/* ---- matmul on the matrix units (src/plan/plan_matmul_mma.c) ---- */

/*
 * Expected plans, from the rules of src/plan/plan_matmul_mma.c and the H200 rows of
 * src/tuning/builtin.tuning (mma.on=1; set 0 128 x 128 tiles of 4 warps of 64 x 64 = 128
 * work-items, K slices of 16 for fp32 inputs and 32 for 16-bit ones, 3 stages: 3 x 256 x 16 x 4 =
 * 3 x 256 x 32 x 2 = 49152 bytes; set 1 64 x 64 tiles of 4 warps of 32 x 32 when set 0 gives
 * fewer than 132 workgroups). 4096^3 is 32 x 32 = 1024 tiles of set 0.
 */
static void test_plan_matmul_mma_choice(void **state) {
  (void)state;
  const ocf_device_facts before = h200_probed(0), probed = h200_probed(49152);
  const ocf_tuning_values f32 = matmul_tuning(&probed, H200, OCF_F32);
  const ocf_tuning_values bf16 = matmul_tuning(&probed, H200, OCF_BF16);
  const ocf_tuning_values f16 = matmul_tuning(&probed, H200, OCF_F16);
  const char *const mma_4096 = "matmul_mma wg=128 groups=1024";
  const char *const simt_4096 = "matmul_tiled_fast wg=16x16 groups=32x32";
  ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);

  /* Before the probe: the SIMT plan, and the probe of the plan's 48 KiB is due. */
  plan_mma_case("TF32 before the probe", &before, &f32, &call, simt_4096, "PRECISION=1",
                OCF_PLAN_PROBE_MMA, 49152);
  /* After it: every mode with matrix-unit products. */
  plan_mma_case("TF32 after the probe", &probed, &f32, &call, mma_4096,
                "AB_DTYPE=0 PRECISION=1 BM=128 BN=128 BK=16 WM=64 WN=64 STAGES=3 A_LOAD=16 "
                "B_LOAD=16 local_mem=49152",
                OCF_PLAN_PROBE_NONE, 0);
  call.precision = OCF_PRECISION_3XTF32;
  plan_mma_case("3XTF32", &probed, &f32, &call, mma_4096, "AB_DTYPE=0 PRECISION=2 BK=16",
                OCF_PLAN_PROBE_NONE, 0);
  ocf_matmul_call half = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_mma_case("bf16", &probed, &bf16, &half, mma_4096,
                "AB_DTYPE=2 PRECISION=0 BK=32 STAGES=3 local_mem=49152", OCF_PLAN_PROBE_NONE, 0);
  /* the mode is no matter for 16-bit inputs: the same program */
  half.precision = OCF_PRECISION_3XTF32;
  plan_mma_case("bf16 in 3XTF32", &probed, &bf16, &half, mma_4096, "PRECISION=0",
                OCF_PLAN_PROBE_NONE, 0);
  half.a_dtype = half.b_dtype = OCF_F16;
  half.c_dtype = OCF_F16;
  half.trans_a = half.trans_b = 1;
  plan_mma_case("f16 to f16, TT", &probed, &f16, &half, mma_4096,
                "AB_DTYPE=1 C_DTYPE=1 TRANS_A=1 TRANS_B=1 BK=32", OCF_PLAN_PROBE_NONE, 0);

  /* What stays on the SIMT kernels, with no probe asked for. */
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_FP32);
  plan_mma_case("fp32 strict", &probed, &f32, &call, simt_4096, NULL, OCF_PLAN_PROBE_NONE, 0);
  plan_mma_case("fp32 strict, before any probe", &before, &f32, &call, simt_4096, NULL,
                OCF_PLAN_PROBE_NONE, 0);
  half = typed_call(4096, 4096, 4096, OCF_F16, OCF_PRECISION_FP32);
  half.b_dtype = OCF_BF16;
  plan_mma_case("f16 times bf16 (one type a program)", &probed, &f16, &half, simt_4096, NULL,
                OCF_PLAN_PROBE_NONE, 0);
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.variant = GENERAL;
  plan_mma_case("the general variant", &probed, &f32, &call, "matmul_tiled wg=16x16 groups=32x32",
                NULL, OCF_PLAN_PROBE_NONE, 0);
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.workgroup = 256;
  plan_mma_case("a fixed workgroup (the SIMT kernels' size)", &probed, &f32, &call, simt_4096,
                "fixed=1", OCF_PLAN_PROBE_NONE, 0);
  ocf_device_facts failed = probed;
  failed.learnt.mma = OCF_PROBE_FAILED;
  call.workgroup = 0;
  plan_mma_case("a failed probe", &failed, &f32, &call, simt_4096, "PRECISION=1",
                OCF_PLAN_PROBE_NONE, 0);
  ocf_device_facts turing = before;
  turing.nv_compute_capability = 75;
  plan_mma_case("compute capability 7.5", &turing, &f32, &call, simt_4096, NULL,
                OCF_PLAN_PROBE_NONE, 0);
  ocf_tuning_values off = f32;
  off.matmul.mma.on = 0;
  plan_mma_case("mma=0", &probed, &off, &call, simt_4096, NULL, OCF_PLAN_PROBE_NONE, 0);
  /* Other devices never plan the matrix units, whatever their tuning says. */
  const device_id others[] = {POCL, AMD_GPU, INTEL_GPU, LLVMPIPE, MALI};
  for (size_t i = 0; i < ARRAY_LEN(others); i++) {
    ocf_device_facts facts = facts_of(others[i], 0);
    facts.learnt.mma =
        OCF_PROBE_PASSED; /* even a (nonsensical) probe result does not make it one */
    facts.learnt.mma_local_ok = 1u << 20;
    ocf_tuning_values forced = matmul_tuning(&facts, others[i], OCF_F32);
    forced.matmul.mma.on = 1;
    ocf_plan plan;
    assert_int_equal(ocf_plan_matmul(&facts, &forced, &call, &plan), OCF_SUCCESS);
    if (plan.program == OCF_PROGRAM_MATMUL_MMA_NV || plan.probe != OCF_PLAN_PROBE_NONE) {
      print_error("%s planned the matrix units or a probe\n", devices[others[i]].name);
      fail();
    }
  }
  /* A skinny C of 16-bit inputs takes the few-row kernels on NVIDIA (few.on 1 up to 16: wgmma
     failed on these facts); with few.on 0, the skinny kernels (they stream the large operand at
     bandwidth). */
  half = typed_call(4096, 8, 4096, OCF_BF16, OCF_PRECISION_FP32);
  ocf_plan plan;
  assert_int_equal(ocf_plan_matmul(&probed, &bf16, &half, &plan), OCF_SUCCESS);
  assert_int_equal(plan.program, OCF_PROGRAM_MATMUL_FEW_MMA);
  ocf_tuning_values few_off = bf16;
  few_off.matmul.few.on = 0;
  assert_int_equal(ocf_plan_matmul(&probed, &few_off, &half, &plan), OCF_SUCCESS);
  assert_int_equal(plan.program, OCF_PROGRAM_MATMUL_SKINNY);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
}

/* Set 1 below a workgroup per compute unit, batches, the copy paths by alignment. */
static void test_plan_matmul_mma_shapes(void **state) {
  (void)state;
  const ocf_device_facts probed = h200_probed(49152);
  const ocf_tuning_values f32 = matmul_tuning(&probed, H200, OCF_F32);
  const ocf_tuning_values bf16 = matmul_tuning(&probed, H200, OCF_BF16);
  /* 1000^2: 8 x 8 = 64 tiles of set 0 < 132, so set 1: 16 x 16 = 256 tiles of 64 x 64 */
  ocf_matmul_call call = typed_call(1000, 1000, 1000, OCF_F32, OCF_PRECISION_TF32);
  plan_mma_case("TF32 1000^3", &probed, &f32, &call, "matmul_mma wg=128 groups=256",
                "BM=64 BN=64 WM=32 WN=32 BK=16 STAGES=3 local_mem=24576", OCF_PLAN_PROBE_NONE, 0);
  /* a batch of 3 of 1000^2: 192 tiles of set 0 >= 132 */
  call.batch = 3;
  plan_mma_case("TF32 3 x 1000^3", &probed, &f32, &call, "matmul_mma wg=128 groups=192", "BM=128",
                OCF_PLAN_PROBE_NONE, 0);
  /* ragged 4097 x 4095: 33 x 32 tiles */
  call = typed_call(4097, 4095, 4104, OCF_F32, OCF_PRECISION_TF32);
  plan_mma_case("TF32 4097 x 4095 x 4104", &probed, &f32, &call, "matmul_mma wg=128 groups=1056",
                "A_LOAD=16 B_LOAD=4", OCF_PLAN_PROBE_NONE, 0);
  /* fp32 operands: 16 bytes are 4 elements, else 4-byte copies */
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_3XTF32);
  call.a_off = 2;
  call.ldb = 4098;
  plan_mma_case("3XTF32, A offset 2, ldb 4098", &probed, &f32, &call,
                "matmul_mma wg=128 groups=1024", "A_LOAD=4 B_LOAD=4", OCF_PLAN_PROBE_NONE, 0);
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.batch = 2;
  call.stride_a = 4096 * 4096 + 4;
  call.stride_b = 4096 * 4096 + 2;
  plan_mma_case("TF32 batch, strides +4 and +2", &probed, &f32, &call,
                "matmul_mma wg=128 groups=2048", "A_LOAD=16 B_LOAD=4", OCF_PLAN_PROBE_NONE, 0);
  /* 16-bit operands: 16 bytes are 8 elements; 4-byte copies need even places; else elements */
  ocf_matmul_call half = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  half.a_off = 8;
  half.b_off = 6;
  half.ldc = 4097;
  plan_mma_case("bf16, offsets 8 and 6", &probed, &bf16, &half, "matmul_mma wg=128 groups=1024",
                "A_LOAD=16 B_LOAD=4", OCF_PLAN_PROBE_NONE, 0);
  half.a_off = 3;
  half.ldb = 4097;
  plan_mma_case("bf16, offset 3, ldb 4097", &probed, &bf16, &half, "matmul_mma wg=128 groups=1024",
                "A_LOAD=0 B_LOAD=0", OCF_PLAN_PROBE_NONE, 0);
  /* the epilogue is the call's */
  half = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  half.activation = OCF_ACTIVATION_GELU_TANH;
  half.bias_axis = OCF_BIAS_M;
  half.bias_dtype = OCF_F16;
  half.c_dtype = OCF_BF16;
  plan_mma_case("bf16 with gelu and a bias along m", &probed, &bf16, &half,
                "matmul_mma wg=128 groups=1024", "ACTIVATION=3 BIAS=2 BIAS_DTYPE=1 C_DTYPE=2",
                OCF_PLAN_PROBE_NONE, 0);
  /* an empty call or k = 0 (alpha = 0) needs no matrix units */
  call = typed_call(4096, 4096, 0, OCF_F32, OCF_PRECISION_TF32);
  ocf_plan plan;
  assert_int_equal(ocf_plan_matmul(&probed, &f32, &call, &plan), OCF_SUCCESS);
  assert_int_not_equal(plan.program, OCF_PROGRAM_MATMUL_MMA_NV);
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
}

/* Local memory beyond the device's 48 KiB only where a probe ran it (rule 3). */
static void test_plan_matmul_mma_local_memory(void **state) {
  (void)state;
  ocf_device_facts facts = h200_probed(49152);
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.mma.set[0].bk = 32; /* 3 x 256 x 32 x 4 = 96 KiB */
  const ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  const char *const simt = "matmul_tiled_fast wg=16x16 groups=32x32";
  plan_mma_case("96 KiB, 48 shown", &facts, &t, &call, simt, NULL, OCF_PLAN_PROBE_MMA, 98304);
  facts.learnt.mma_local_ok = 98304;
  plan_mma_case("96 KiB, shown", &facts, &t, &call, "matmul_mma wg=128 groups=1024",
                "BK=32 STAGES=3 local_mem=98304", OCF_PLAN_PROBE_NONE, 0);
  /* The 96 KiB probe failed: 2 stages (64 KiB) are asked about next, then run. */
  facts.learnt.mma_local_ok = 49152;
  facts.learnt.mma_local_failed = 98304;
  plan_mma_case("96 KiB failed", &facts, &t, &call, simt, NULL, OCF_PLAN_PROBE_MMA, 65536);
  facts.learnt.mma_local_ok = 65536;
  plan_mma_case("64 KiB shown", &facts, &t, &call, "matmul_mma wg=128 groups=1024",
                "BK=32 STAGES=2 local_mem=65536", OCF_PLAN_PROBE_NONE, 0);
  /* 64 KiB failed too: 2 stages of K slices of 16 (32 KiB), inside the 48 KiB shown */
  facts.learnt.mma_local_ok = 49152;
  facts.learnt.mma_local_failed = 65536;
  plan_mma_case("64 KiB failed", &facts, &t, &call, "matmul_mma wg=128 groups=1024",
                "BK=16 STAGES=2 local_mem=32768", OCF_PLAN_PROBE_NONE, 0);
  /* 8 stages of 96 KiB would be 256 KiB, past what the probe can show (128 KiB): shrunk to 4 */
  facts = h200_probed(49152);
  t.matmul.mma.set[0].stages = 8;
  plan_mma_case("256 KiB asked", &facts, &t, &call, simt, NULL, OCF_PLAN_PROBE_MMA, 131072);
  /* the verifier holds a plan to what was shown */
  ocf_plan plan;
  t.matmul.mma.set[0].stages = 3;
  facts.learnt.mma_local_ok = 98304;
  assert_int_equal(ocf_plan_matmul(&facts, &t, &call, &plan), OCF_SUCCESS);
  facts.learnt.mma_local_ok = 49152;
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_WORKGROUP);
}

/* The probe's own plan: bf16, 128 x 128 x 32, bytes / 16 KiB stages, one launch of the probe's
   C; bytes outside 32 .. 128 KiB or not whole stages are refused (a library bug). */
static void test_plan_matmul_mma_probe_plan(void **state) {
  (void)state;
  const ocf_device_facts facts = h200_probed(0);
  const ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_BF16);
  ocf_plan plan;
  expect_plan("probe of 48 KiB", ocf_plan_matmul_mma_probe(&facts, &t, 49152, 200, 136, &plan),
              &plan, "matmul_mma wg=128 groups=4",
              "AB_DTYPE=2 C_DTYPE=0 BM=128 BN=128 BK=32 WM=64 WN=64 STAGES=3 A_LOAD=16 "
              "B_LOAD=16 local_mem=49152");
  assert_int_equal(plan.is_probe, 1);
  expect_plan("probe of 96 KiB", ocf_plan_matmul_mma_probe(&facts, &t, 98304, 200, 136, &plan),
              &plan, "matmul_mma wg=128 groups=4", "STAGES=6");
  assert_int_equal(ocf_plan_matmul_mma_probe(&facts, &t, 16384, 200, 136, &plan),
                   OCF_ERR_INVALID_VALUE);
  assert_int_equal(ocf_plan_matmul_mma_probe(&facts, &t, 50000, 200, 136, &plan),
                   OCF_ERR_INVALID_VALUE);
  assert_int_equal(ocf_plan_matmul_mma_probe(&facts, &t, 147456, 200, 136, &plan),
                   OCF_ERR_INVALID_VALUE);
}

/* ---- matmul's few-row matrix-unit kernels (src/plan/plan_matmul_few.c) ---- */

/* Whether a plan is the few-row one. */
static int is_few(const ocf_plan *plan) {
  return plan->program == OCF_PROGRAM_MATMUL_FEW_MMA;
}

/* A case that must not take the few-row kernels: the planner succeeds, plans another program,
   and asks for `probe` (OCF_PLAN_PROBE_NONE or _MMA, then of the few-row bytes) or, with probe
   -1, whatever the other rules ask. */
static void plan_not_few(const char *what, const ocf_device_facts *facts,
                         const ocf_tuning_values *tuning, const ocf_matmul_call *call, int probe) {
  ocf_plan plan;
  assert_int_equal(ocf_plan_matmul(facts, tuning, call, &plan), OCF_SUCCESS);
  if (is_few(&plan) ||
      (probe >= 0 && (plan.probe != probe || (probe == OCF_PLAN_PROBE_MMA &&
                                              plan.probe_bytes != OCF_MATMUL_FEW_PROBE_BYTES)))) {
    char got[512];
    ocf_plan_describe(&plan, got, sizeof got);
    print_error("%s: planned %s (probe %d), expected another program and probe %d\n", what, got,
                plan.probe, probe);
    fail();
  }
}

/*
 * Every gate of the few-row kernels, from the rules of src/plan/plan_matmul_few.c and the H200
 * rows of src/tuning/builtin.tuning (few.on 0 there until measured; forced to 1 here), the
 * schema's few.* fallbacks (4 warps, kw 1, nt 2, unroll 2, fill 4: 4 x 2 x 8 = 64 rows a
 * workgroup, K split in ranges of a multiple of 32 x 2 = 64 while the row blocks give fewer than
 * 4 x 132 workgroups) and skinny.long_min 256 / split_min 512:
 * 16 x 8192 x 8192 bf16 with B n x k: 128 row blocks, so ceil(528 / 128) = 5 ranges of
 * round_up(8192 / 5, 64) = 1664; the reduce 8192 x 16 elements in workgroups of 128.
 */
static void test_plan_matmul_few(void **state) {
  (void)state;
  const ocf_device_facts before = h200_probed(0), probed = h200_probed(49152);
  const ocf_tuning_values bf16_default = matmul_tuning(&probed, H200, OCF_BF16);
  ocf_tuning_values bf16 = bf16_default;
  bf16.matmul.few.on = 1;
  bf16.matmul.few.max = 64;
  ocf_tuning_values f16 = matmul_tuning(&probed, H200, OCF_F16);
  f16.matmul.few.on = 1;
  f16.matmul.few.max = 64;
  ocf_matmul_call call = typed_call(16, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  call.ldb = 8192;

  /* NVIDIA's built-in values: on for a short side up to 16 (measured on the H200 against the
     skinny kernels; from 17 the mma.sync or wgmma plans). */
  assert_int_equal(bf16_default.matmul.few.on, 1);
  assert_int_equal(bf16_default.matmul.few.max, 16);
  ocf_matmul_call c17 = call;
  c17.m = 17;
  plan_not_few("17 rows, the built-in few.max 16", &probed, &bf16_default, &c17,
               OCF_PLAN_PROBE_NONE);
  const char *const few_16 =
      "matmul_few_mma_split wg=128 groups=640 + matmul_few_mma_reduce wg=128 groups=1024";
  plan_mma_case("bf16 16 x 8192 x 8192, B n x k", &probed, &bf16, &call, few_16,
                "N_SMALL=16 WARPS=4 KW=1 NT=2 UNROLL=2 X_KCONT=1 V_KCONT=1 X_VEC=1 V_VEC=1 "
                "MMA_EMULATE=0 MMA_DTYPE=2 SPLIT=1 BIAS=0 swapped=1 splits=5 k_split=1664 "
                "scratch=2621440 local_mem=4100",
                OCF_PLAN_PROBE_NONE, 0);
  /* Before the mma probe: the skinny plan, the probe asked for; after it failed, never. */
  plan_not_few("before the probe", &before, &bf16, &call, OCF_PLAN_PROBE_MMA);
  ocf_device_facts failed = probed;
  failed.learnt.mma = OCF_PROBE_FAILED;
  plan_not_few("a failed probe", &failed, &bf16, &call, OCF_PLAN_PROBE_NONE);
  ocf_device_facts ampere_less = probed;
  ampere_less.nv_compute_capability = 75;
  plan_not_few("compute capability 7.5", &ampere_less, &bf16, &call, OCF_PLAN_PROBE_NONE);

  /* One row, fp16, one workgroup of rows a 64: the bias along n is Y's rows (BIAS 2). */
  ocf_matmul_call one = call;
  one.m = 1;
  one.a_dtype = one.b_dtype = OCF_F16;
  one.bias_axis = OCF_BIAS_N;
  plan_mma_case("f16 1 x 8192 x 8192", &probed, &f16, &one,
                "matmul_few_mma_split wg=128 groups=640 + matmul_few_mma_reduce wg=128 groups=64",
                "N_SMALL=1 MMA_DTYPE=1 BIAS=2", OCF_PLAN_PROBE_NONE, 0);
  /* 64 rows: still few (the same 128 row blocks and ranges; the reduce 8192 x 64 elements). */
  ocf_matmul_call rows64 = call;
  rows64.m = 64;
  rows64.bias_axis = OCF_BIAS_M;
  plan_mma_case("bf16 64 x 8192 x 8192", &probed, &bf16, &rows64,
                "matmul_few_mma_split wg=128 groups=640 + matmul_few_mma_reduce wg=128 groups=4096",
                "N_SMALL=64 BIAS=1", OCF_PLAN_PROBE_NONE, 0);
  rows64.m = 65;
  plan_not_few("65 rows", &probed, &bf16, &rows64, -1);
  ocf_tuning_values narrow = bf16;
  narrow.matmul.few.max = 32;
  rows64.m = 33;
  plan_not_few("33 rows over few.max 32", &probed, &narrow, &rows64, -1);
  rows64.m = 32;
  plan_mma_case("32 rows within few.max 32", &probed, &narrow, &rows64,
                "matmul_few_mma_split wg=128 groups=640 + matmul_few_mma_reduce wg=128 groups=2048",
                "N_SMALL=32", OCF_PLAN_PROBE_NONE, 0);

  /* Alignment: B's offset or leading dimension off 8 elements takes element loads of X; A's
     (V's) likewise. */
  ocf_matmul_call off = call;
  off.b_off = 4;
  plan_mma_case("B off 4 elements", &probed, &bf16, &off, few_16, "X_VEC=0 V_VEC=1",
                OCF_PLAN_PROBE_NONE, 0);
  off = call;
  off.lda = 8196;
  plan_mma_case("lda off 8", &probed, &bf16, &off, few_16, "X_VEC=1 V_VEC=0", OCF_PLAN_PROBE_NONE,
                0);
  off = call;
  off.batch = 2;
  off.stride_a = 16 * 8192;
  off.stride_b = 8192 * 8192 + 4;
  plan_mma_case("a batch, B's stride off 8", &probed, &bf16, &off,
                "matmul_few_mma_split wg=128 groups=768 + matmul_few_mma_reduce wg=128 groups=2048",
                "X_VEC=0 V_VEC=1 splits=3", OCF_PLAN_PROBE_NONE, 0);

  /* B k x n (X row-contiguous): only with few.x_rows 1, element loads. */
  ocf_matmul_call kn = call;
  kn.trans_b = 0;
  plan_not_few("B k x n, x_rows 0", &probed, &bf16, &kn, OCF_PLAN_PROBE_NONE);
  ocf_tuning_values rows_too = bf16;
  rows_too.matmul.few.x_rows = 1;
  plan_mma_case("B k x n, x_rows 1", &probed, &rows_too, &kn, few_16, "X_KCONT=0 X_VEC=0 V_VEC=1",
                OCF_PLAN_PROBE_NONE, 0);
  /* n few (not swapped): X = A (k-contiguous), V = B k x n (V_KCONT 0). */
  ocf_matmul_call tall = typed_call(8192, 16, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_mma_case("bf16 8192 x 16 x 8192", &probed, &bf16, &tall, few_16,
                "N_SMALL=16 swapped=0 X_KCONT=1 V_KCONT=0 X_VEC=1 V_VEC=0", OCF_PLAN_PROBE_NONE, 0);

  /* The workgroup: k warps dividing the warps, rows a workgroup 8 nt (warps / kw), the K
     ranges' quantum 32 kw unroll; the device's limit halves the warps. */
  ocf_tuning_values shape = bf16;
  shape.matmul.few.warps = 8, shape.matmul.few.kw = 2, shape.matmul.few.nt = 4;
  shape.matmul.few.unroll = 4;
  /* 8 x 4 x 4 = 128 rows: 64 row blocks, ceil(528 / 64) = 9 ranges of round_up(911, 256) =
     1024, so 8 */
  plan_mma_case("8 warps, kw 2, nt 4, unroll 4", &probed, &shape, &call,
                "matmul_few_mma_split wg=256 groups=512 + matmul_few_mma_reduce wg=256 groups=512",
                "WARPS=8 KW=2 NT=4 UNROLL=4 splits=8 k_split=1024 local_mem=16388",
                OCF_PLAN_PROBE_NONE, 0);
  ocf_device_facts small_wg = probed;
  small_wg.max_workgroup_size = 64;
  /* 2 warps, both along K: 32 rows a workgroup, 256 row blocks, ceil(528 / 256) = 3 ranges of
     round_up(2731, 256) = 2816 */
  plan_mma_case("a device of 64 work-items", &small_wg, &shape, &call,
                "matmul_few_mma_split wg=64 groups=768 + matmul_few_mma_reduce wg=64 groups=2048",
                "WARPS=2 KW=2 NT=4 splits=3 k_split=2816", OCF_PLAN_PROBE_NONE, 0);

  /* What never takes it: fp32 (any mode), mixed 16-bit types, the other variants, a fixed
     workgroup, a short long side, k = 0. */
  ocf_matmul_call other = call;
  other.a_dtype = other.b_dtype = OCF_F32;
  ocf_tuning_values f32 = matmul_tuning(&probed, H200, OCF_F32);
  f32.matmul.few.on = 1;
  plan_not_few("fp32", &probed, &f32, &other, -1);
  other.precision = OCF_PRECISION_TF32;
  plan_not_few("TF32", &probed, &f32, &other, -1);
  other = call;
  other.a_dtype = OCF_F16;
  plan_not_few("f16 times bf16", &probed, &bf16, &other, -1);
  other = call;
  other.variant = GENERAL;
  plan_not_few("the general variant", &probed, &bf16, &other, -1);
  other = call;
  other.workgroup = 128;
  plan_not_few("a fixed workgroup", &probed, &bf16, &other, -1);
  other = call;
  other.n = 255;
  plan_not_few("a long side below skinny.long_min", &probed, &bf16, &other, -1);
  other = call;
  other.k = 0;
  plan_not_few("k 0", &probed, &bf16, &other, -1);

  /* Other devices: never with few.on 1, nor a probe; emulated with few.on 2. */
  const device_id others[] = {POCL, AMD_GPU, INTEL_GPU, LLVMPIPE};
  for (size_t i = 0; i < ARRAY_LEN(others); i++) {
    ocf_device_facts facts = facts_of(others[i], 0);
    ocf_tuning_values t = matmul_tuning(&facts, others[i], OCF_BF16);
    t.matmul.few.on = 1;
    t.matmul.skinny.long_min = 256;
    plan_not_few(devices[others[i]].name, &facts, &t, &call, OCF_PLAN_PROBE_NONE);
    t.matmul.few.on = 2;
    ocf_plan plan;
    assert_int_equal(ocf_plan_matmul(&facts, &t, &call, &plan), OCF_SUCCESS);
    if (!is_few(&plan) || ocf_plan_define_value(&plan, "MMA_EMULATE", -1) != 1 ||
        plan.probe != OCF_PLAN_PROBE_NONE) {
      print_error("%s: few.on 2 did not plan the emulated few-row kernels\n",
                  devices[others[i]].name);
      fail();
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_matmul_mma_choice),
      cmocka_unit_test(test_plan_matmul_few),
      cmocka_unit_test(test_plan_matmul_mma_shapes),
      cmocka_unit_test(test_plan_matmul_mma_local_memory),
      cmocka_unit_test(test_plan_matmul_mma_probe_plan),
  };
  return cmocka_run_group_tests_name("plan_matmul_mma", tests, NULL, NULL);
}
