/*
 * The planner on described devices: matmul on Hopper's warpgroup units
 * (src/plan/plan_matmul_wgmma.c, cl/matmul_wgmma_nv.cl): every gate of the wgmma kernel, the
 * tile width by waves, the staged 16-bit plans, the last-wave split and the staged plans. The
 * method, the devices and the helpers: tests/plan_fixture.h.
 */

#include "plan_fixture.h"

/* ---- matmul on Hopper's warpgroup units (src/plan/plan_matmul_wgmma.c) ---- */

/* The H200 once the wgmma probe ran right with the larger of the built-in rings (128 x 192 in 5
   stages, wgmma.wave_bn: 5 (128 + 192) 128 + 1024 = 205824 bytes; 128 x 256 in 4 takes 197632),
   and the mma.sync probe of 48 KiB too; its TMA-fed form failed its probe (the cp.async kernel's
   rules; test_plan_matmul_wgmma_tma has the TMA form's). */
static ocf_device_facts h200_wgmma(ocf_probe_state wgmma) {
  ocf_device_facts facts = h200_probed(49152);
  facts.learnt.wgmma = wgmma;
  facts.learnt.wgmma_tma = OCF_PROBE_FAILED;
  if (wgmma == OCF_PROBE_PASSED) {
    facts.learnt.wgmma_local_ok = 205824;
    facts.learnt.wgmma_local_ok_reported = 205824 + 16;
  }
  return facts;
}

/* `tuning` with the last-wave split on (rule 6 of src/plan/plan_matmul_wgmma.c, off in the
   built-in values): a last wave of at most half the units, K ranges of at least 512. */
static ocf_tuning_values lastwave_on(ocf_tuning_values tuning) {
  tuning.matmul.wgmma.lastwave = 50;
  tuning.matmul.wgmma.lastwave_min = 512;
  return tuning;
}

static void plan_wgmma_case(const char *what, const ocf_device_facts *facts,
                            const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                            const char *shape, const char *values, int probe) {
  plan_mma_case(what, facts, tuning, call, shape, values, probe, 0);
}

/*
 * Every gate of the wgmma kernel, from the rules of src/plan/plan_matmul_wgmma.c and the H200
 * rows of src/tuning/builtin.tuning (wgmma.on=1: 128 x 256 tiles of 2 warpgroups = 256 work-items,
 * 4 stages; 4096^3 is 32 x 16 = 512 tiles): compute capability 9.0 with the probe passed takes it;
 * before the probe the next plan with the wgmma probe due; a failed probe, 8.x, another vendor, an
 * unsupported layout, a misaligned operand take the mma.sync (or SIMT) plan.
 */
static void test_plan_matmul_wgmma(void **state) {
  (void)state;
  const ocf_device_facts passed = h200_wgmma(OCF_PROBE_PASSED);
  const ocf_tuning_values f32 = matmul_tuning(&passed, H200, OCF_F32);
  const ocf_tuning_values bf16 = matmul_tuning(&passed, H200, OCF_BF16);
  const ocf_tuning_values f16 = matmul_tuning(&passed, H200, OCF_F16);
  const char *const wg_4096 = "matmul_wgmma wg=256 groups=512";
  const char *const mma_4096 = "matmul_mma wg=128 groups=1024";
  const char *const simt_4096 = "matmul_tiled_fast wg=16x16 groups=32x32";
  const int none = OCF_PLAN_PROBE_NONE;

  /* cc 9.0, probe passed: bf16 and f16 with B stored either way, TF32 with B stored n x k. */
  ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 NN", &passed, &bf16, &call, wg_4096,
                  "AB_DTYPE=2 TRANS_B=0 BN=256 CONSUMERS=2 STAGES=4 GROUP_M=8 local_mem=197632 "
                  "splits=1 k_split=4096",
                  none);
  call.trans_b = 1;
  plan_wgmma_case("bf16 NT", &passed, &bf16, &call, wg_4096, "AB_DTYPE=2 TRANS_B=1", none);
  call = typed_call(4096, 4096, 4096, OCF_F16, OCF_PRECISION_FP32);
  plan_wgmma_case("f16 NN", &passed, &f16, &call, wg_4096, "AB_DTYPE=1 TRANS_B=0", none);
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.trans_b = 1;
  plan_wgmma_case("TF32 NT", &passed, &f32, &call, wg_4096, "AB_DTYPE=0 TRANS_B=1", none);
  /* TF32 with B stored k x n (the transpose bit is 16-bit only), 3XTF32 and strict FP32 */
  call.trans_b = 0;
  plan_wgmma_case("TF32 NN", &passed, &f32, &call, mma_4096, "PRECISION=1", none);
  call.trans_b = 1;
  call.precision = OCF_PRECISION_3XTF32;
  plan_wgmma_case("3XTF32", &passed, &f32, &call, mma_4096, "PRECISION=2", none);
  call.precision = OCF_PRECISION_FP32;
  plan_wgmma_case("FP32", &passed, &f32, &call, simt_4096, NULL, none);

  /* Ragged shapes and batches stay on it; the grid counts tiles x batch (4095 x 4104 takes
     the built-in 192-column tiles by rule 2's waves: 6 waves of 192 against 5 of 256). */
  call = typed_call(4095, 4104, 4000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 4095 x 4104 x 4000", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=704", "BN=192 k_split=4000", none);
  call = typed_call(1000, 1000, 1001, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 1008, call.ldb = 1000, call.ldc = 1001;
  call.batch = 3, call.stride_a = 1000 * 1008, call.stride_b = 1001 * 1000;
  call.stride_c = 1000 * 1001;
  plan_wgmma_case("bf16 3 x 1000 x 1000 x 1001 (ragged k, odd ldc)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=96", NULL, none);
  /* One wave: 128 columns where the grid stays within one workgroup per compute unit (132),
     one tile row or more; the batch above (192 narrow tiles) keeps 256. */
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  plan_wgmma_case("bf16 128 x 8192 x 8192 NT (one tile row)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=128 CONSUMERS=2 STAGES=4 local_mem=132096",
                  none);
  call = typed_call(100, 16896, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 100 x 16896 x 1000 (132 narrow tiles)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=132", "BN=128", none);
  call = typed_call(100, 16904, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 100 x 16904 x 1000 (133 narrow tiles: 256 columns)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=67", "BN=256", none);
  call = typed_call(129, 8192, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 129 x 8192 x 1000 (two tile rows, 128 narrow tiles)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=128", "BN=128 CONSUMERS=2", none);
  call = typed_call(1024, 1024, 1024, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 1024^3 (8 x 8 narrow tiles)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=128 CONSUMERS=2 STAGES=4", none);
  /* wgmma.one_wave 0: the rule's first form, one tile row only */
  ocf_tuning_values first_form = bf16;
  first_form.matmul.wgmma.one_wave = 0;
  plan_wgmma_case("bf16 1024^3, one_wave 0", &passed, &first_form, &call,
                  "matmul_wgmma wg=256 groups=32", "BN=256", none);
  call = typed_call(128, 8192, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 128 x 8192 x 1000, one_wave 0 (one tile row)", &passed, &first_form, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=128", none);
  call.m = 129;
  plan_wgmma_case("bf16 129 x 8192 x 1000, one_wave 0", &passed, &first_form, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=256", none);
  call = typed_call(256, 8448, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 256 x 8448 x 1000 (2 x 66 narrow tiles)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=132", "BN=128", none);
  call.n = 8449;
  plan_wgmma_case("bf16 256 x 8449 x 1000 (2 x 67 narrow tiles: 256 columns)", &passed, &bf16,
                  &call, "matmul_wgmma wg=256 groups=68", "BN=256", none);
  call.n = 4096, call.batch = 2, call.stride_a = 256 * 1000, call.stride_b = 1000 * 4096;
  call.stride_c = 256 * 4096;
  plan_wgmma_case("bf16 2 x 256 x 4096 x 1000 (2 x 2 x 32 narrow tiles)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=128", "BN=128", none);
  call.batch = 3;
  plan_wgmma_case("bf16 3 x 256 x 4096 x 1000 (192 narrow tiles: 256 columns)", &passed, &bf16,
                  &call, "matmul_wgmma wg=256 groups=96", "BN=256", none);
  /* Split K (wgmma.split_min): 128 x 8192 x 8192 NT is 32 tiles of 256 columns on 132 units
     (a split plan keeps the tuning's width; one range takes 64 of 128 by rule 2), so
     min(132 / 32, 8192 / 1024) = 4 ranges of 2048, the raw sums in 4 x 128 x 8192 floats, then
     one reduce work-item an element of C. */
  ocf_tuning_values split = bf16;
  split.matmul.wgmma.split_min = 0;
  const ocf_device_facts mem = with_h200_memory(passed);
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  plan_wgmma_case("bf16 128 x 8192 x 8192 NT, split_min 0", &mem, &split, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=128 splits=1 k_split=8192 scratch=0", none);
  split.matmul.wgmma.split_min = 1024;
  plan_wgmma_case("split_min 1024, no memory sizes known", &passed, &split, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=128 splits=1", none);
  const char *const split_128 =
      "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096";
  plan_wgmma_case("bf16 128 x 8192 x 8192 NT, split_min 1024", &mem, &split, &call, split_128,
                  "BN=256 splits=4 k_split=2048 scratch=16777216 scratch_written=1", none);
  /* k 2048 makes two ranges of split_min, 2047 one (no split: rule 2's narrow tiles); 1000
     rounds each range up to whole K slices of 64: two of 512 for split_min 500. */
  const char *const split_64 =
      "matmul_wgmma_split wg=256 groups=64 + matmul_wgmma_reduce wg=256 groups=4096";
  call.k = 2048;
  plan_wgmma_case("k 2048, split_min 1024", &mem, &split, &call, split_64, "splits=2 k_split=1024",
                  none);
  call.k = 2047;
  plan_wgmma_case("k 2047, split_min 1024", &mem, &split, &call, "matmul_wgmma wg=256 groups=64",
                  "BN=128 splits=1", none);
  call.k = 1000;
  split.matmul.wgmma.split_min = 500;
  plan_wgmma_case("k 1000, split_min 500", &mem, &split, &call, split_64, "splits=2 k_split=512",
                  none);
  /* A caller's workspace bounds the scratch: one float short keeps one range. */
  call.k = 8192;
  split.matmul.wgmma.split_min = 1024;
  call.scratch_bound.set = 1;
  call.scratch_bound.bytes = 16777216;
  plan_wgmma_case("a workspace of the scratch", &mem, &split, &call, split_128, "splits=4", none);
  call.scratch_bound.bytes = 16777212;
  plan_wgmma_case("a workspace one float short", &mem, &split, &call,
                  "matmul_wgmma wg=256 groups=64", "splits=1 scratch=0", none);
  call.scratch_bound.set = 0;
  /* A batch of 2 is 64 wide tiles: two ranges; 4096^3 (512 tiles) fills the units. */
  call.batch = 2, call.stride_a = 128 * 8192, call.stride_b = 8192 * 8192;
  call.stride_c = 128 * 8192;
  plan_wgmma_case("a batch of 2", &mem, &split, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=8192",
                  "splits=2 k_split=4096 scratch=16777216", none);
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("4096^3, split_min 1024", &mem, &split, &call, "matmul_wgmma wg=256 groups=512",
                  "splits=1", none);
  /* Three ranges: 2048 x 256 x 6144 is 16 x 1 tiles of 128 x 256, 132 / 16 = 8 ranges wanted, k
     6144 / 2048 = 3 allowed; 131 tiles would take 1 (no split), 66 two. */
  call = typed_call(2048, 256, 6144, OCF_BF16, OCF_PRECISION_FP32);
  split.matmul.wgmma.split_min = 2048;
  plan_wgmma_case("2048 x 256 x 6144, split_min 2048", &mem, &split, &call,
                  "matmul_wgmma_split wg=256 groups=48 + matmul_wgmma_reduce wg=256 groups=2048",
                  "BN=256 splits=3 k_split=2048 scratch=6291456", none);
  /* (66 tiles fill every unit in 128 columns: whole K there, by the gate below) */
  ocf_tuning_values ungated = split;
  ungated.matmul.wgmma.whole_k_fill = 0;
  call = typed_call(128 * 66, 256, 6144, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("66 tiles, whole_k_fill 0", &mem, &ungated, &call,
                  "matmul_wgmma_split wg=256 groups=132 + matmul_wgmma_reduce wg=256 groups=8448",
                  "splits=2", none);
  call = typed_call(128 * 67, 256, 6144, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("67 tiles", &mem, &ungated, &call, "matmul_wgmma wg=256 groups=67", "splits=1",
                  none);
  /* The gate (wgmma.whole_k_fill, 40 in the schema): K stays whole where the whole-K plan fills
     that percent of the 132 units; at 50, 66 workgroups: 256 x 4224 is 34 tiles of 256 columns
     (3 ranges) and 66 of 128, 640 x 1664 35 (3 ranges) and 65; 256 x 4096^2 32 and 64 at
     40 (the H100's 4 ranges, 206.2 TFLOP/s, against 233.8 whole); 8448 x 256 132 in 128
     columns. One tile row (128 x 8192^2 above) or one tile column splits whatever its fill. */
  ocf_tuning_values half = split;
  half.matmul.wgmma.whole_k_fill = 50;
  call = typed_call(256, 4224, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("66 workgroups whole", &mem, &half, &call, "matmul_wgmma wg=256 groups=66",
                  "BN=128 splits=1 scratch=0", none);
  plan_wgmma_case("66, whole_k_fill 0", &mem, &ungated, &call,
                  "matmul_wgmma_split wg=256 groups=102 + matmul_wgmma_reduce wg=256 groups=4224",
                  "BN=256 splits=3", none);
  call = typed_call(640, 1664, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("65 workgroups whole: split", &mem, &half, &call,
                  "matmul_wgmma_split wg=256 groups=105 + matmul_wgmma_reduce wg=256 groups=4160",
                  "BN=256 splits=3", none);
  call = typed_call(6784, 128, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("one tile column", &mem, &split, &call,
                  "matmul_wgmma_split wg=256 groups=106 + matmul_wgmma_reduce wg=256 groups=3392",
                  "BN=256 splits=2", none);
  call = typed_call(256, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("256 x 4096^2", &mem, &split, &call, "matmul_wgmma wg=256 groups=64",
                  "BN=128 splits=1", none);
  call = typed_call(128 * 66, 256, 6144, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("66 tiles", &mem, &split, &call, "matmul_wgmma wg=256 groups=132",
                  "BN=128 splits=1", none);
  /* 16-bit few-row products go to wgmma before the few-row and skinny kernels (the built-in
     values: few.on 1 up to 16 rows, skinny.max 16); TF32 keeps the skinny kernels; before the
     wgmma probe its plan asks for it; a failed probe leaves them the few-row kernel. */
  call = typed_call(16, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  plan_wgmma_case("bf16 16 x 8192 x 8192 NT", &mem, &bf16, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=512",
                  "BN=256 splits=4", none);
  call.m = 1;
  plan_wgmma_case("bf16 1 x 8192 x 8192 NT", &passed, &bf16, &call, "matmul_wgmma wg=256 groups=64",
                  "BN=128", none);
  /* Few columns too: 8192 x 16 x 8192 is 64 x 1 tiles, two ranges of K. */
  ocf_matmul_call cols = typed_call(8192, 16, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 8192 x 16 x 8192", &mem, &bf16, &cols,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=512",
                  "BN=256 splits=2 k_split=4096", none);
  ocf_matmul_call tf32_few = typed_call(16, 8192, 8192, OCF_F32, OCF_PRECISION_TF32);
  tf32_few.trans_b = 1;
  ocf_plan skinny_plan;
  assert_int_equal(ocf_plan_matmul(&mem, &f32, &tf32_few, &skinny_plan), OCF_SUCCESS);
  assert_int_equal(skinny_plan.program, OCF_PROGRAM_MATMUL_SKINNY);
  call.m = 16;
  const ocf_device_facts unknown16 = h200_wgmma(OCF_PROBE_UNKNOWN);
  ocf_plan due;
  assert_int_equal(ocf_plan_matmul(&unknown16, &bf16, &call, &due), OCF_SUCCESS);
  assert_int_equal(due.probe, OCF_PLAN_PROBE_WGMMA);
  assert_int_not_equal(due.program, OCF_PROGRAM_MATMUL_SKINNY);
  const ocf_device_facts failed16 = h200_wgmma(OCF_PROBE_FAILED);
  assert_int_equal(ocf_plan_matmul(&failed16, &bf16, &call, &due), OCF_SUCCESS);
  assert_int_equal(due.program, OCF_PROGRAM_MATMUL_FEW_MMA);

  /* Before the probe: the mma.sync plan (or SIMT before its own probe), the wgmma probe due
     first. */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  const ocf_device_facts unknown = h200_wgmma(OCF_PROBE_UNKNOWN);
  plan_wgmma_case("before the wgmma probe", &unknown, &bf16, &call, mma_4096, "AB_DTYPE=2",
                  OCF_PLAN_PROBE_WGMMA);
  ocf_device_facts fresh = facts_of(H200, 0);
  plan_wgmma_case("before any probe", &fresh, &bf16, &call, simt_4096, NULL, OCF_PLAN_PROBE_WGMMA);
  fresh.learnt.wgmma = OCF_PROBE_PASSED;
  fresh.learnt.wgmma_local_ok = 197632;
  plan_wgmma_case("wgmma passed, mma.sync not probed", &fresh, &bf16, &call, wg_4096, NULL, none);
  /* A failed probe costs nothing more: mma.sync, no probe asked for. */
  const ocf_device_facts failed = h200_wgmma(OCF_PROBE_FAILED);
  plan_wgmma_case("a failed wgmma probe", &failed, &bf16, &call, mma_4096, NULL, none);
  /* 8.x, 8.9 and another 9.x or 10.0 take mma.sync, with no wgmma probe, whatever the facts. */
  const unsigned others_cc[] = {80, 86, 89, 91, 100};
  for (size_t i = 0; i < ARRAY_LEN(others_cc); i++) {
    ocf_device_facts other = passed;
    other.nv_compute_capability = others_cc[i];
    plan_wgmma_case("another compute capability", &other, &bf16, &call, mma_4096, NULL, none);
  }
  /* Other vendors never plan it, whatever their tuning and facts say. */
  const device_id others[] = {POCL, AMD_GPU, INTEL_GPU, LLVMPIPE, MALI};
  for (size_t i = 0; i < ARRAY_LEN(others); i++) {
    ocf_device_facts facts = facts_of(others[i], 0);
    facts.learnt.wgmma = OCF_PROBE_PASSED;
    facts.learnt.wgmma_local_ok = 1u << 20;
    facts.nv_compute_capability = 90;
    ocf_tuning_values forced = matmul_tuning(&facts, others[i], OCF_BF16);
    forced.matmul.mma.on = forced.matmul.wgmma.on = 1;
    ocf_plan plan;
    assert_int_equal(ocf_plan_matmul(&facts, &forced, &call, &plan), OCF_SUCCESS);
    if (plan.program == OCF_PROGRAM_MATMUL_WGMMA_NV || plan.probe != OCF_PLAN_PROBE_NONE) {
      print_error("%s planned the wgmma kernel or a probe\n", devices[others[i]].name);
      fail();
    }
  }
  /* The tunables: wg=0, or mma=0 (both matrix-unit kernels off). */
  ocf_tuning_values off = bf16;
  off.matmul.wgmma.on = 0;
  plan_wgmma_case("wg=0", &passed, &off, &call, mma_4096, NULL, none);
  off = bf16;
  off.matmul.mma.on = 0;
  plan_wgmma_case("mma=0", &passed, &off, &call, simt_4096, NULL, none);

  /* The epilogue and C types: its own (cl/common.cl's ocf_matmul_finish). */
  ocf_matmul_call c2 = call;
  c2.bias_axis = OCF_BIAS_M;
  c2.bias_dtype = OCF_F16;
  c2.activation = OCF_ACTIVATION_GELU_ERF;
  c2.c_dtype = OCF_BF16;
  plan_wgmma_case("a bias along m, gelu, bf16 C", &passed, &bf16, &c2, wg_4096,
                  "BIAS=2 BIAS_DTYPE=1 ACTIVATION=2 C_DTYPE=2", none);
  plan_wgmma_case("plain", &passed, &bf16, &call, wg_4096,
                  "BIAS=0 BIAS_DTYPE=0 ACTIVATION=0 C_DTYPE=0", none);
  /* Layouts it does not take: mma.sync. */
  c2 = call;
  c2.trans_a = 1;
  plan_wgmma_case("A stored k x m", &passed, &bf16, &c2, mma_4096, "TRANS_A=1", none);
  c2 = call;
  c2.b_dtype = OCF_F16;
  plan_wgmma_case("bf16 times f16", &passed, &bf16, &c2, simt_4096, NULL, none);
  c2 = call;
  c2.variant = GENERAL;
  plan_wgmma_case("the general variant", &passed, &bf16, &c2, "matmul_tiled wg=16x16 groups=32x32",
                  NULL, none);

  /* Alignment: 16 bytes = 8 elements at 16 bits, 4 at fp32. */
  const struct {
    const char *what;
    ocf_dtype dtype;
    size_t a_off, lda, b_off, ldb, stride_b;
    int wgmma;
  } aligned[] = {
      {"bf16 aligned offsets", OCF_BF16, 8, 4104, 16, 4096, 0, 1},
      {"bf16 a_off 4", OCF_BF16, 4, 4096, 0, 4096, 0, 0},
      {"bf16 lda 4100", OCF_BF16, 0, 4100, 0, 4096, 0, 0},
      {"bf16 b_off 2", OCF_BF16, 0, 4096, 2, 4096, 0, 0},
      {"bf16 ldb 4097", OCF_BF16, 0, 4096, 0, 4097, 0, 0},
      {"bf16 batch stride_b 4096 x 4096 + 4", OCF_BF16, 0, 4096, 0, 4096, 4096 * 4096 + 4, 0},
      {"bf16 batch stride_b 4096 x 4096 + 8", OCF_BF16, 0, 4096, 0, 4096, 4096 * 4096 + 8, 1},
      {"TF32 lda 4100", OCF_F32, 4, 4100, 0, 4096, 0, 1},
      {"TF32 lda 4098", OCF_F32, 0, 4098, 0, 4096, 0, 0},
      {"TF32 b_off 2", OCF_F32, 0, 4096, 2, 4096, 0, 0},
  };
  for (size_t i = 0; i < ARRAY_LEN(aligned); i++) {
    const int tf32 = aligned[i].dtype == OCF_F32;
    c2 = typed_call(4096, 4096, 4096, aligned[i].dtype,
                    tf32 ? OCF_PRECISION_TF32 : OCF_PRECISION_FP32);
    c2.trans_b = tf32;
    c2.a_off = aligned[i].a_off, c2.lda = aligned[i].lda;
    c2.b_off = aligned[i].b_off, c2.ldb = aligned[i].ldb;
    if (aligned[i].stride_b) {
      c2.batch = 2;
      c2.stride_a = 4096 * c2.lda, c2.stride_b = aligned[i].stride_b, c2.stride_c = 4096 * 4096;
    }
    const ocf_tuning_values *t = tf32 ? &f32 : &bf16;
    ocf_plan plan;
    assert_int_equal(ocf_plan_matmul(&passed, t, &c2, &plan), OCF_SUCCESS);
    if ((plan.program == OCF_PROGRAM_MATMUL_WGMMA_NV) != aligned[i].wgmma ||
        (!aligned[i].wgmma && plan.program != OCF_PROGRAM_MATMUL_MMA_NV)) {
      print_error("%s: planned program %d\n", aligned[i].what, (int)plan.program);
      fail();
    }
  }

  /* Less local memory than the probe ran with: fewer stages, down to 3; then mma.sync. */
  ocf_device_facts small = passed;
  small.learnt.wgmma_local_ok = 150000; /* 3 stages: 3 x 384 x 128 + 1024 = 148480 */
  plan_wgmma_case("3 stages fit", &small, &bf16, &call, wg_4096, "STAGES=3 local_mem=148480", none);
  small.learnt.wgmma_local_ok = 100000;
  plan_wgmma_case("no ring fits", &small, &bf16, &call, mma_4096, NULL, none);
  /* A kernel limit below 256 work-items (learnt): mma.sync. */
  ocf_device_facts narrow = passed;
  narrow.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_WGMMA] = 128;
  plan_wgmma_case("a 128 work-item limit", &narrow, &bf16, &call, mma_4096, NULL, none);
  /* One warpgroup (64 x 256 tiles) fits it. */
  ocf_tuning_values one = bf16;
  one.matmul.wgmma.consumers = 1;
  plan_wgmma_case("one warpgroup", &narrow, &one, &call, "matmul_wgmma wg=128 groups=1024",
                  "CONSUMERS=1 local_mem=164864", none);

  /* The probe's own plan: bf16, B stored k x n, the larger of the tuning's rings (the built-in
     wave_bn's 192 x 5), 160 x 264 (2 x 2 tiles). */
  ocf_plan plan;
  expect_plan("the wgmma probe", ocf_plan_matmul_wgmma_probe(&fresh, &bf16, 160, 264, &plan), &plan,
              "matmul_wgmma wg=256 groups=4",
              "AB_DTYPE=2 TRANS_B=0 BN=192 STAGES=5 local_mem=205824");
  assert_int_equal(plan.is_probe, 1);
  /* The tuning's rule: at most 227 KiB (5 stages of 128 x 256 are 241 KiB). */
  ocf_tuning_values big = bf16;
  assert_int_equal(ocf_tuning_parse(OCF_OP_MATMUL, "wg.stages=5", &big, "test"), OCF_SUCCESS);
  assert_int_not_equal(ocf_tuning_check(OCF_OP_MATMUL, &big, "test"), OCF_SUCCESS);
  big = bf16;
  assert_int_equal(ocf_tuning_parse(OCF_OP_MATMUL, "wg.bn=160", &big, "test"), OCF_SUCCESS);
  assert_int_not_equal(ocf_tuning_check(OCF_OP_MATMUL, &big, "test"), OCF_SUCCESS);
}

/*
 * Rule 2's waves (src/plan/plan_matmul_wgmma.c): with wgmma.wave_bn=192 in 5 stages (205824
 * bytes, what the probe then runs), a whole-K call of more tiles than the H200's 132 compute
 * units takes 192-column tiles where ceil(G192 / 132) 192 is below 0.95 ceil(G256 / 132) 256:
 * 3072^3 is 288 tiles (3 waves, 768) or 384 (3 waves, 576); 4095 x 4104 is 5 waves or 6 (1280
 * or 1152); 4096 x 3072 is 3 or 4 (768 either way: no); 4096^3 4 or 6; 8192^3 16 or 21 (4096
 * or 4032: within 5 %); 2048^3 one wave (128 tiles); a batch of two 2048^3 2 or 3. A ring the
 * probe did not run loses stages; one tile row keeps rule 2's 128 columns; split plans keep the
 * tuning's width; wave_bn 0 never.
 */
static void test_plan_wgmma_waves(void **state) {
  (void)state;
  ocf_device_facts facts = h200_wgmma(OCF_PROBE_PASSED);
  facts.learnt.wgmma_local_ok = 205824;
  ocf_tuning_values waves = matmul_tuning(&facts, H200, OCF_BF16);
  assert_int_equal(
      ocf_tuning_parse(OCF_OP_MATMUL, "wgmma.wave_bn=192 wgmma.wave_stages=5", &waves, "test"),
      OCF_SUCCESS);
  assert_int_equal(ocf_tuning_check(OCF_OP_MATMUL, &waves, "test"), OCF_SUCCESS);
  const int none = OCF_PLAN_PROBE_NONE;
  const char *const narrow = "BN=192 CONSUMERS=2 STAGES=5 GROUP_M=8 local_mem=205824";
  const char *const wide = "BN=256 CONSUMERS=2 STAGES=4 GROUP_M=8 local_mem=197632";

  ocf_matmul_call call = typed_call(3072, 3072, 3072, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("3072^3 NN", &facts, &waves, &call, "matmul_wgmma wg=256 groups=384", narrow,
                  none);
  call.trans_b = 1;
  plan_wgmma_case("3072^3 NT", &facts, &waves, &call, "matmul_wgmma wg=256 groups=384", narrow,
                  none);
  call = typed_call(4095, 4104, 4000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("4095 x 4104 x 4000", &facts, &waves, &call, "matmul_wgmma wg=256 groups=704",
                  narrow, none);
  call = typed_call(4096, 3072, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("4096 x 3072 (equal costs)", &facts, &waves, &call,
                  "matmul_wgmma wg=256 groups=384", wide, none);
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("4096^3", &facts, &waves, &call, "matmul_wgmma wg=256 groups=512", wide, none);
  call = typed_call(8192, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("8192^3 (within 5 %)", &facts, &waves, &call, "matmul_wgmma wg=256 groups=2048",
                  wide, none);
  call = typed_call(2048, 2048, 2048, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("2048^3 (one wave)", &facts, &waves, &call, "matmul_wgmma wg=256 groups=128",
                  wide, none);
  call.batch = 2, call.stride_a = call.stride_b = call.stride_c = 2048 * 2048;
  plan_wgmma_case("2 x 2048^3", &facts, &waves, &call, "matmul_wgmma wg=256 groups=256", wide,
                  none);
  /* A probe of the built-in ring only (197632 bytes): 192 columns in 4 stages. */
  ocf_device_facts small = facts;
  small.learnt.wgmma_local_ok = 197632;
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("3000^3, the probe's 197632 bytes", &small, &waves, &call,
                  "matmul_wgmma wg=256 groups=384", "BN=192 STAGES=4 local_mem=164864", none);
  /* One tile row stays 128 columns; a split plan keeps 256. */
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  plan_wgmma_case("128 x 8192 x 8192 NT", &facts, &waves, &call, "matmul_wgmma wg=256 groups=64",
                  "BN=128", none);
  const ocf_device_facts mem = with_h200_memory(facts);
  plan_wgmma_case("128 x 8192 x 8192 NT, split", &mem, &waves, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "BN=256", none);
  /* wave_bn 0: never. */
  ocf_tuning_values off = waves;
  off.matmul.wgmma.wave_bn = 0;
  call = typed_call(3072, 3072, 3072, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("3072^3, wave_bn 0", &facts, &off, &call, "matmul_wgmma wg=256 groups=288", wide,
                  none);

  /* The probe runs the larger ring (205824 of 192 x 5 against 197632), else the tuning's. */
  const ocf_device_facts fresh = h200_wgmma(OCF_PROBE_UNKNOWN);
  ocf_plan plan;
  expect_plan("the wgmma probe, waves",
              ocf_plan_matmul_wgmma_probe(&fresh, &waves, 160, 264, &plan), &plan,
              "matmul_wgmma wg=256 groups=4", narrow);
  ocf_tuning_values small_ring = waves;
  small_ring.matmul.wgmma.wave_stages = 4;
  expect_plan("the wgmma probe, waves in 4 stages",
              ocf_plan_matmul_wgmma_probe(&fresh, &small_ring, 160, 264, &plan), &plan,
              "matmul_wgmma wg=256 groups=4", wide);
  /* The tuning's rules: 128, 192 or 256 (or 0); the ring at most 227 KiB. */
  const char *const bad[] = {"wgmma.wave_bn=64", "wgmma.wave_bn=160",
                             "wgmma.wave_bn=256 wgmma.wave_stages=5"};
  for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
    ocf_tuning_values t = waves;
    assert_int_equal(ocf_tuning_parse(OCF_OP_MATMUL, bad[i], &t, "test"), OCF_SUCCESS);
    if (ocf_tuning_check(OCF_OP_MATMUL, &t, "test") == OCF_SUCCESS) {
      print_error("%s passed the tuning's rules\n", bad[i]);
      fail();
    }
  }
  ocf_tuning_values edge = waves;
  assert_int_equal(
      ocf_tuning_parse(OCF_OP_MATMUL, "wgmma.wave_bn=128 wgmma.wave_stages=6", &edge, "test"),
      OCF_SUCCESS);
  assert_int_equal(ocf_tuning_check(OCF_OP_MATMUL, &edge, "test"), OCF_SUCCESS);
}

/*
 * Rule 4's 16-bit copies (src/plan/plan_matmul_wgmma.c) on the H200 with wgmma.align_rows=2048:
 * 16-bit calls of m >= 2048 and 2048^3 products or more whose B rows lie off 64-byte steps of
 * 128-byte lines, or that rule 1 cannot read (A or B off 16-byte chunks, A transposed), copy B
 * as stored into rows of its length rounded up to 64 values (A too where it is off chunks:
 * matmul_pad, 256 work-items a row at a time), then run matmul_wgmma_pb or _pab in the call's
 * layout; A transposed goes through matmul_stage (B' and A' K-major) and matmul_wgmma_sab.
 * Aligned calls, fewer rows or products, align_rows 0 stay as they were.
 */
static void test_plan_wgmma_staged16(void **state) {
  (void)state;
  const ocf_device_facts passed = with_h200_memory(h200_wgmma(OCF_PROBE_PASSED));
  ocf_tuning_values bf16 = matmul_tuning(&passed, H200, OCF_BF16);
  bf16.matmul.wgmma.align_rows = 2048;
  bf16.matmul.wgmma.unread_rows = 0; /* align_rows' gate for every call; 512 at the end */
  ocf_tuning_values f16 = matmul_tuning(&passed, H200, OCF_F16);
  f16.matmul.wgmma.align_rows = 2048;
  f16.matmul.wgmma.unread_rows = 0;
  const int none = OCF_PLAN_PROBE_NONE;
  const char *const pb_4096 = "matmul_pad wg=256 groups=4096 + matmul_wgmma_pb wg=256 groups=512";

  /* B k x n with ldb 4104: 4096 rows of 4096 values (32 MiB), multiplied as stored. */
  ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.ldb = 4104;
  plan_wgmma_case("bf16 NN, ldb 4104", &passed, &bf16, &call, pb_4096,
                  "AB_DTYPE=2 TRANS_B=0 BN=256 TRANS_A=0 A_PAD=0 B_PAD=1 PAD_WG=256 PAD_DTYPE=2 "
                  "pad_lda=0 pad_rows_a=0 pad_ldb=4096 pad_rows_b=4096 staged_k=0 "
                  "scratch=33554432 scratch_written=1",
                  none);
  /* On 64-byte steps (ldb 4128: 8256 bytes), and on lines: the direct plan. */
  call.ldb = 4128;
  plan_wgmma_case("bf16 NN, ldb 4128", &passed, &bf16, &call, "matmul_wgmma wg=256 groups=512",
                  "TRANS_B=0 scratch=0", none);
  call.ldb = 4160;
  plan_wgmma_case("bf16 NN, ldb 4160", &passed, &bf16, &call, "matmul_wgmma wg=256 groups=512",
                  "scratch=0", none);
  /* B n x k with k 4040 (rows of 8080 bytes): 4096 rows of 4096; k 4000 (8000 bytes, on 64-byte
     steps): direct. */
  call = typed_call(4096, 4096, 4040, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1, call.lda = 4040, call.ldb = 4040;
  plan_wgmma_case("bf16 NT, k 4040", &passed, &bf16, &call, pb_4096,
                  "TRANS_B=1 PAD_DTYPE=2 pad_ldb=4096 pad_rows_b=4096 scratch=33554432", none);
  call.k = call.lda = call.ldb = 4000;
  plan_wgmma_case("bf16 NT, k 4000", &passed, &bf16, &call, "matmul_wgmma wg=256 groups=512",
                  "scratch=0", none);
  /* f16 3000^3: 3000 rows of 3008; the wgmma step takes rule 2's 192-column tiles. */
  call = typed_call(3000, 3000, 3000, OCF_F16, OCF_PRECISION_FP32);
  plan_wgmma_case("f16 3000^3", &passed, &f16, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_pb wg=256 groups=384",
                  "AB_DTYPE=1 BN=192 PAD_DTYPE=1 pad_ldb=3008 pad_rows_b=3000 scratch=18048000",
                  none);
  /* B's offset or batch stride off 64-byte steps (on chunks). */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.b_off = 8;
  plan_wgmma_case("bf16 NN, b_off 8", &passed, &bf16, &call, pb_4096, "A_PAD=0", none);
  call = typed_call(2048, 2048, 2048, OCF_BF16, OCF_PRECISION_FP32);
  call.batch = 2, call.stride_a = 2048 * 2048, call.stride_b = 2048 * 2048 + 8;
  call.stride_c = 2048 * 2048;
  plan_wgmma_case("bf16 2 x 2048^3, stride_b off lines", &passed, &bf16, &call,
                  "matmul_pad wg=256 groups=4096 + matmul_wgmma_pb wg=256 groups=256",
                  "scratch=16777216", none);
  /* A off chunks: A copied too (4096 rows of k rounded up to 64: 4096). */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 4097;
  plan_wgmma_case("bf16 NN, lda 4097", &passed, &bf16, &call,
                  "matmul_pad wg=256 groups=8192 + matmul_wgmma_pab wg=256 groups=512",
                  "A_PAD=1 B_PAD=1 pad_lda=4096 pad_rows_a=4096 pad_ldb=4096 scratch=67108864",
                  none);
  /* A transposed: matmul_stage's K-major A' and B' (rows of K rounded up to 64). */
  call.lda = 4096, call.trans_a = 1;
  plan_wgmma_case("bf16 TN", &passed, &bf16, &call,
                  "matmul_stage wg=32x8 groups=128x256 + matmul_wgmma_sab wg=256 groups=512",
                  "TRANS_B=1 STAGE_TRANS_A=1 STAGE_TRANS_B=0 STAGE_A=1 PARTS=1 STAGE_DTYPE=2 "
                  "staged_k=4096 staged_ld=4096 staged_a=1 scratch=67108864",
                  none);
  call.k = 4000;
  plan_wgmma_case("bf16 TN, k 4000", &passed, &bf16, &call,
                  "matmul_stage wg=32x8 groups=125x256 + matmul_wgmma_sab wg=256 groups=512",
                  "staged_k=4000 staged_ld=4032 scratch=66060288", none);
  /* The gates: m 2047 (rows), 2048 x 2048 x 2047 (products), align_rows 0; off chunks below
     them: mma.sync as before. */
  call = typed_call(2047, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.ldb = 4104;
  plan_wgmma_case("bf16 2047 x 4096 x 4096, ldb 4104", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=256", "scratch=0", none);
  call = typed_call(2048, 2048, 2047, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 2048, call.ldb = 2056;
  plan_wgmma_case("bf16 2048 x 2048 x 2047, ldb 2056", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=128", "scratch=0", none);
  call.k = 2048;
  plan_wgmma_case("bf16 2048^3, ldb 2056", &passed, &bf16, &call,
                  "matmul_pad wg=256 groups=2048 + matmul_wgmma_pb wg=256 groups=128",
                  "pad_ldb=2048", none);
  ocf_tuning_values off = bf16;
  off.matmul.wgmma.align_rows = 0;
  plan_wgmma_case("bf16 2048^3, ldb 2056, align_rows 0", &passed, &off, &call,
                  "matmul_wgmma wg=256 groups=128", "scratch=0", none);
  call = typed_call(1000, 1000, 1000, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 1001;
  plan_wgmma_case("bf16 1000^3, lda 1001", &passed, &bf16, &call, "matmul_mma wg=128 groups=256",
                  NULL, none);
  /* No memory sizes known, or a workspace one byte short: no scratch, the direct plan. */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.ldb = 4104;
  const ocf_device_facts unknown = h200_wgmma(OCF_PROBE_PASSED);
  plan_wgmma_case("bf16 NN, ldb 4104, no memory sizes", &unknown, &bf16, &call,
                  "matmul_wgmma wg=256 groups=512", "scratch=0", none);
  call.scratch_bound.set = 1;
  call.scratch_bound.bytes = 33554432;
  plan_wgmma_case("bf16 NN, ldb 4104, a workspace of the copy", &passed, &bf16, &call, pb_4096,
                  NULL, none);
  call.scratch_bound.bytes = 33554431;
  plan_wgmma_case("bf16 NN, ldb 4104, a workspace a byte short", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=512", "scratch=0", none);
  /* The copy kernel's learnt limit below 32 work-items: no copies. */
  ocf_device_facts tiny = passed;
  tiny.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_PAD] = 16;
  call.scratch_bound.set = 0;
  plan_wgmma_case("bf16 NN, ldb 4104, a copy limit of 16", &tiny, &bf16, &call,
                  "matmul_wgmma wg=256 groups=512", "scratch=0", none);

  /* wgmma.unread_rows 512: the calls rule 1 cannot read take that gate instead of align_rows'
     (2048): 1000^3 with lda 1001 is copied (A and B into rows of 1024; the product in one wave
     of 8 x 8 tiles of 128 columns, rule 2); 511 rows, or 512 x 512 x 511 products, stay on
     mma.sync; B off chunks (ldb 1001) is copied; a call rule 1 reads, off lines (ldb 1032),
     keeps align_rows' gate; A transposed goes through matmul_stage. */
  ocf_tuning_values unread = bf16;
  unread.matmul.wgmma.unread_rows = 512;
  call = typed_call(1000, 1000, 1000, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 1001;
  plan_wgmma_case("bf16 1000^3, lda 1001, unread_rows 512 (one wave of 128 columns)", &passed,
                  &unread, &call,
                  "matmul_pad wg=256 groups=2000 + matmul_wgmma_pab wg=256 groups=64",
                  "A_PAD=1 B_PAD=1 pad_lda=1024 pad_rows_a=1000 pad_ldb=1024 pad_rows_b=1000 "
                  "scratch=4096000",
                  none);
  call = typed_call(511, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 4097;
  plan_wgmma_case("bf16 511 x 4096 x 4096, lda 4097, unread_rows 512", &passed, &unread, &call,
                  "matmul_mma wg=128 groups=512", "scratch=0", none);
  call = typed_call(512, 512, 511, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 513;
  plan_wgmma_case("bf16 512 x 512 x 511, lda 513, unread_rows 512", &passed, &unread, &call,
                  "matmul_mma wg=128 groups=64", "scratch=0", none);
  call.k = 512;
  plan_wgmma_case("bf16 512^3, lda 513, unread_rows 512", &passed, &unread, &call,
                  "matmul_pad wg=256 groups=1024 + matmul_wgmma_pab wg=256 groups=16",
                  "A_PAD=1 BN=128", none);
  call = typed_call(1000, 1000, 1000, OCF_BF16, OCF_PRECISION_FP32);
  call.ldb = 1001;
  plan_wgmma_case("bf16 1000^3, ldb 1001, unread_rows 512", &passed, &unread, &call,
                  "matmul_pad wg=256 groups=1000 + matmul_wgmma_pb wg=256 groups=64",
                  "A_PAD=0 B_PAD=1 pad_ldb=1024", none);
  call.ldb = 1032;
  plan_wgmma_case("bf16 1000^3, ldb 1032, unread_rows 512", &passed, &unread, &call,
                  "matmul_wgmma wg=256 groups=64", "scratch=0", none);
  call.ldb = 1000, call.trans_a = 1;
  plan_wgmma_case("bf16 TN 1000^3, unread_rows 512", &passed, &unread, &call,
                  "matmul_stage wg=32x8 groups=32x63 + matmul_wgmma_sab wg=256 groups=64",
                  "STAGE_TRANS_A=1 STAGE_DTYPE=2", none);
}

/*
 * Rule 6 of src/plan/plan_matmul_wgmma.c, the last-wave split (wgmma.lastwave, 0 in the built-in
 * values), on the H200's 132 units with 128 x 256 tiles: G = tiles x batch workgroups, W = G / 132
 * full waves and R = G % 132 left; where 0 < R <= 132 lastwave / 100, the R tiles over
 * s = min(132 / R, k / lastwave_min) ranges of K (whole slices: 64 at 16 bits, 32 at TF32, every
 * range non-empty), matmul_wgmma_lw_split (R s workgroups, s R 128 x 256 floats of scratch)
 * then matmul_wgmma_lw (W 132 + R s workgroups), lw_first = W 132.
 */
static void test_plan_matmul_wgmma_lastwave(void **state) {
  (void)state;
  const ocf_device_facts passed = h200_wgmma(OCF_PROBE_PASSED);
  const ocf_device_facts mem = with_h200_memory(passed);
  ocf_tuning_values bf16 = matmul_tuning(&passed, H200, OCF_BF16);
  /* the plain plans below: 256 columns, the operands as they lie (rule 2's waves and rule 4's
     copies aside) */
  bf16.matmul.wgmma.wave_bn = 0;
  bf16.matmul.wgmma.align_rows = 0;
  const int none = OCF_PLAN_PROBE_NONE;
  assert_int_equal(bf16.matmul.wgmma.lastwave, 0); /* off until the H200 round */
  ocf_tuning_values lw = lastwave_on(bf16);

  /* 3000^3: 24 x 12 = 288 tiles, W 2, R 24: min(132 / 24, 3000 / 512) = 5 ranges of
     ceil(600 / 64) 64 = 640 (the last 440), 5 x 24 x 32768 floats. */
  ocf_matmul_call call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 3000^3, lastwave 0", &mem, &bf16, &call, "matmul_wgmma wg=256 groups=288",
                  "splits=1 lw_first=0 scratch=0", none);
  const char *const lw_3000 =
      "matmul_wgmma_lw_split wg=256 groups=120 + matmul_wgmma_lw wg=256 groups=384";
  plan_wgmma_case("bf16 3000^3, lastwave 50", &mem, &lw, &call, lw_3000,
                  "BN=256 splits=5 k_split=640 lw_first=264 scratch=15728640 scratch_written=1",
                  none);
  /* lastwave_min 1024: 3000 / 1024 = 2 ranges of 1536; 3000 (one range) none. */
  lw.matmul.wgmma.lastwave_min = 1024;
  plan_wgmma_case("bf16 3000^3, lastwave_min 1024", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=48 + matmul_wgmma_lw wg=256 groups=312",
                  "splits=2 k_split=1536 lw_first=264 scratch=6291456", none);
  lw.matmul.wgmma.lastwave_min = 3000;
  plan_wgmma_case("bf16 3000^3, lastwave_min 3000", &mem, &lw, &call,
                  "matmul_wgmma wg=256 groups=288", "splits=1 lw_first=0", none);
  lw.matmul.wgmma.lastwave_min = 512;
  /* The scratch: no memory sizes known, the caller's workspace exactly, one float short. */
  plan_wgmma_case("no memory sizes known", &passed, &lw, &call, "matmul_wgmma wg=256 groups=288",
                  "splits=1 lw_first=0 scratch=0", none);
  call.scratch_bound.set = 1;
  call.scratch_bound.bytes = 15728640;
  plan_wgmma_case("a workspace of the scratch", &mem, &lw, &call, lw_3000, "splits=5", none);
  call.scratch_bound.bytes = 15728636;
  plan_wgmma_case("a workspace one float short", &mem, &lw, &call, "matmul_wgmma wg=256 groups=288",
                  "splits=1 lw_first=0 scratch=0", none);
  call.scratch_bound.set = 0;

  /* A workgroup limit learnt below 256 for either kernel keeps the one launch of matmul_wgmma. */
  for (int which = 0; which < 2; which++) {
    ocf_device_facts limited = mem;
    limited.learnt.kernel_max_workgroup[which ? OCF_KERNEL_MATMUL_WGMMA_LW
                                              : OCF_KERNEL_MATMUL_WGMMA_LW_SPLIT] = 128;
    plan_wgmma_case("a learnt limit of 128", &limited, &lw, &call, "matmul_wgmma wg=256 groups=288",
                    "splits=1 lw_first=0", none);
  }

  /* The threshold: at lastwave 20, 158 tiles leave 26 <= 26.4 (5 ranges of 832), 159 leave 27
     (none; at 21, 27 <= 27.72: 4 ranges of 1024). At 50, 198 tiles leave 66 = 132 / 2: two
     ranges; at 51, 199 leave 67 <= 67.32, but 132 / 67 is one range: none. */
  lw.matmul.wgmma.lastwave = 20;
  call = typed_call(128 * 158, 256, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("158 tiles, lastwave 20", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=130 + matmul_wgmma_lw wg=256 groups=262",
                  "splits=5 k_split=832 lw_first=132", none);
  call.m = 128 * 159;
  plan_wgmma_case("159 tiles, lastwave 20", &mem, &lw, &call, "matmul_wgmma wg=256 groups=159",
                  "splits=1 lw_first=0", none);
  lw.matmul.wgmma.lastwave = 21;
  plan_wgmma_case("159 tiles, lastwave 21", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=108 + matmul_wgmma_lw wg=256 groups=240",
                  "splits=4 k_split=1024 lw_first=132", none);
  lw.matmul.wgmma.lastwave = 50;
  call.m = 128 * 198;
  plan_wgmma_case("198 tiles, lastwave 50", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=132 + matmul_wgmma_lw wg=256 groups=264",
                  "splits=2 k_split=2048 lw_first=132", none);
  call.m = 128 * 199;
  plan_wgmma_case("199 tiles, lastwave 50", &mem, &lw, &call, "matmul_wgmma wg=256 groups=199",
                  "splits=1 lw_first=0", none);
  lw.matmul.wgmma.lastwave = 51;
  plan_wgmma_case("199 tiles, lastwave 51", &mem, &lw, &call, "matmul_wgmma wg=256 groups=199",
                  "splits=1 lw_first=0", none);
  lw.matmul.wgmma.lastwave = 50;
  /* Whole waves (264 tiles), one wave or fewer (132: rule 5's ground, 131 too), and a last wave
     of more than half the units (4096^3: 512 tiles, R 116) keep one launch; at lastwave 100, 116
     tiles would take 132 / 116 = 1 range: none either. */
  call.m = 128 * 264;
  plan_wgmma_case("264 tiles (two whole waves)", &mem, &lw, &call, "matmul_wgmma wg=256 groups=264",
                  "lw_first=0", none);
  call.m = 128 * 132;
  plan_wgmma_case("132 tiles (one whole wave)", &mem, &lw, &call, "matmul_wgmma wg=256 groups=132",
                  "lw_first=0", none);
  call.m = 128 * 133;
  plan_wgmma_case("133 tiles (R 1)", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=8 + matmul_wgmma_lw wg=256 groups=140",
                  "splits=8 k_split=512 lw_first=132 scratch=1048576", none);
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("4096^3 (R 116)", &mem, &lw, &call, "matmul_wgmma wg=256 groups=512",
                  "lw_first=0", none);
  lw.matmul.wgmma.lastwave = 100;
  plan_wgmma_case("4096^3 (R 116), lastwave 100", &mem, &lw, &call,
                  "matmul_wgmma wg=256 groups=512", "lw_first=0", none);
  lw.matmul.wgmma.lastwave = 50;
  /* Short k: 1000 / 512 = 1 range. */
  call = typed_call(3000, 3000, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 3000 x 3000 x 1000", &mem, &lw, &call, "matmul_wgmma wg=256 groups=288",
                  "lw_first=0", none);
  /* A batch: 5 x 1024^2 x 4096 is 5 x 32 = 160 tiles, R 28 (slots 132 to 159: product 4's
     tiles 4 to 31), 4 ranges of 1024. */
  call = typed_call(1024, 1024, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.batch = 5, call.stride_a = 1024 * 4096, call.stride_b = 4096 * 1024;
  call.stride_c = 1024 * 1024;
  plan_wgmma_case("a batch of 5", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=112 + matmul_wgmma_lw wg=256 groups=244",
                  "splits=4 k_split=1024 lw_first=132 scratch=14680064", none);
  /* Few tiles stay rule 5's (split_min 1024 in the built-in values). */
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  plan_wgmma_case("bf16 128 x 8192 x 8192 NT", &mem, &lw, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "splits=4 lw_first=0", none);
  /* The measured shapes (tools/lab/h200/round_wgmma_lastwave.sh): 4095 x 4104 x 4000 is 32 x 17
     = 544 tiles, R 16: min(8, 7) ranges of 576; 8191 x 1032 x 8200 NT 64 x 5 = 320, R 56: 2 of
     4160 (4100 rounded up to 64 x 65); 5000^3 40 x 20 = 800, R 8: 9 of 576 (5000 / 9 = 556 rounds
     up, 9 x 576 = 5184). */
  call = typed_call(4095, 4104, 4000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 4095 x 4104 x 4000", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=112 + matmul_wgmma_lw wg=256 groups=640",
                  "splits=7 k_split=576 lw_first=528", none);
  call = typed_call(8191, 1032, 8200, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = 1;
  plan_wgmma_case("bf16 8191 x 1032 x 8200 NT", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=112 + matmul_wgmma_lw wg=256 groups=376",
                  "splits=2 k_split=4160 lw_first=264", none);
  call = typed_call(5000, 5000, 5000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 5000^3", &mem, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=72 + matmul_wgmma_lw wg=256 groups=864",
                  "splits=9 k_split=576 lw_first=792", none);
  /* TF32 (K slices of 32): 3000^3 NT, 5 ranges of 608. */
  const ocf_tuning_values f32 = lastwave_on(matmul_tuning(&passed, H200, OCF_F32));
  call = typed_call(3000, 3000, 3000, OCF_F32, OCF_PRECISION_TF32);
  call.trans_b = 1;
  plan_wgmma_case("TF32 3000^3 NT", &mem, &f32, &call, lw_3000,
                  "AB_DTYPE=0 splits=5 k_split=608 lw_first=264", none);
}

/*
 * The staged wgmma plans (rule 4 of src/plan/plan_matmul_wgmma.c) on the H200 (141 GiB, 35 GiB
 * a buffer: a scratch cap of 141 / 8 GiB): 3XTF32 in every layout and TF32 where rule 1 leaves
 * it (B k x n, A transposed or off chunks) stage their operands with matmul_stage (32 x 8
 * work-items a 32 x 32 tile of (row, k)) and multiply on the wgmma kernel over K' (3k or k);
 * the gates fall back to mma.sync: a probe due or failed, 8.x, few products, no memory facts,
 * a scratch past the cap or the caller's workspace, staging refused, the wg tunable off.
 */
static void test_plan_matmul_wgmma_staged(void **state) {
  (void)state;
  const ocf_device_facts passed = with_h200_memory(h200_wgmma(OCF_PROBE_PASSED));
  ocf_tuning_values f32 = matmul_tuning(&passed, H200, OCF_F32);
  const char *const mma_4096 = "matmul_mma wg=128 groups=1024";
  const int none = OCF_PLAN_PROBE_NONE;
  /* The H200's gates (src/tuning/builtin.tuning): 3XTF32 from 1500^3 products, TF32 (B k x n)
     from 768^3; below them mma.sync. */
  assert_int_equal(f32.matmul.wgmma.stage_min, 1500);
  assert_int_equal(f32.matmul.wgmma.tf32_stage_min, 768);
  static const struct {
    size_t side;
    ocf_precision precision;
    int staged;
  } gates[] = {{1500, OCF_PRECISION_3XTF32, 1},
               {1499, OCF_PRECISION_3XTF32, 0},
               {768, OCF_PRECISION_TF32, 1},
               {767, OCF_PRECISION_TF32, 0},
               {1499, OCF_PRECISION_TF32, 1}};
  for (size_t g = 0; g < sizeof gates / sizeof gates[0]; g++) {
    ocf_matmul_call at_gate =
        typed_call(gates[g].side, gates[g].side, gates[g].side, OCF_F32, gates[g].precision);
    ocf_plan plan;
    assert_int_equal(ocf_plan_matmul(&passed, &f32, &at_gate, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel == OCF_KERNEL_MATMUL_STAGE, gates[g].staged);
  }
  f32.matmul.wgmma.stage_min = 256;
  f32.matmul.wgmma.tf32_stage_min = 256;

  /* 3XTF32, 4096^3: A' and B' (8192 rows of 3 x 4096), then matmul_wgmma_sab over K' = 12288. */
  ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_3XTF32);
  call.trans_b = 1;
  const char *const sab_4096 =
      "matmul_stage wg=32x8 groups=128x256 + matmul_wgmma_sab wg=256 groups=512";
  plan_wgmma_case("3XTF32 NT", &passed, &f32, &call, sab_4096,
                  "AB_DTYPE=0 TRANS_B=1 BN=256 STAGES=4 STAGE_TRANS_A=0 STAGE_TRANS_B=1 STAGE_A=1 "
                  "PARTS=3 staged_k=12288 staged_ld=12288 staged_a=1 scratch=402653184 "
                  "scratch_written=1 local_mem=197632",
                  none);
  call.trans_b = 0;
  plan_wgmma_case("3XTF32 NN", &passed, &f32, &call, sab_4096, "TRANS_B=1 STAGE_TRANS_B=0 PARTS=3",
                  none);
  call.trans_a = 1;
  plan_wgmma_case("3XTF32 TN", &passed, &f32, &call, sab_4096, "STAGE_TRANS_A=1 STAGE_A=1", none);
  /* TF32 with B k x n: B' only (A read as it lies), K' = k. */
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  plan_wgmma_case("TF32 NN", &passed, &f32, &call,
                  "matmul_stage wg=32x8 groups=128x128 + matmul_wgmma_sb wg=256 groups=512",
                  "STAGE_A=0 PARTS=1 STAGE_TRANS_B=0 TRANS_B=1 staged_k=4096 staged_ld=4096 "
                  "staged_a=0 scratch=67108864",
                  none);
  /* TF32 with A stored k x m, or off 16-byte chunks: A' too. */
  call.trans_a = 1, call.trans_b = 1;
  plan_wgmma_case(
      "TF32 TT", &passed, &f32, &call, sab_4096 /* groups 128 x 256 */,
      "STAGE_A=1 PARTS=1 STAGE_TRANS_A=1 STAGE_TRANS_B=1 staged_k=4096 scratch=134217728", none);
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.trans_b = 1, call.lda = 4098;
  plan_wgmma_case("TF32 NT, lda 4098", &passed, &f32, &call, sab_4096, "STAGE_A=1 PARTS=1", none);
  /* TF32 NT on chunks: rule 1, no staging. */
  call.lda = 4096;
  plan_wgmma_case("TF32 NT", &passed, &f32, &call, "matmul_wgmma wg=256 groups=512",
                  "scratch=0 staged_k=0", none);

  /* Ragged, a batch: K' = 3003 in rows of 3004 (the last float zero), 3 x 2030 rows. */
  call = typed_call(1000, 1030, 1001, OCF_F32, OCF_PRECISION_3XTF32);
  call.batch = 3, call.stride_a = 1000 * 1001, call.stride_b = 1001 * 1030;
  call.stride_c = 1000 * 1030;
  plan_wgmma_case("3XTF32 3 x 1000 x 1030 x 1001", &passed, &f32, &call,
                  "matmul_stage wg=32x8 groups=32x191 + matmul_wgmma_sab wg=256 groups=120",
                  "staged_k=3003 staged_ld=3004 scratch=73177440", none);
  /* The epilogue is the wgmma kernel's. */
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_3XTF32);
  call.bias_axis = OCF_BIAS_N, call.bias_dtype = OCF_BF16;
  call.activation = OCF_ACTIVATION_RELU, call.c_dtype = OCF_F16;
  plan_wgmma_case("3XTF32 with an epilogue", &passed, &f32, &call, sab_4096,
                  "BIAS=1 BIAS_DTYPE=2 ACTIVATION=1 C_DTYPE=1", none);

  /* The gates: mma.sync (its own plan), or the wgmma probe first. */
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_3XTF32);
  ocf_device_facts facts = h200_wgmma(OCF_PROBE_UNKNOWN);
  facts.global_mem_bytes = passed.global_mem_bytes, facts.max_alloc_bytes = passed.max_alloc_bytes;
  plan_wgmma_case("before the wgmma probe", &facts, &f32, &call, mma_4096, "PRECISION=2",
                  OCF_PLAN_PROBE_WGMMA);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  plan_wgmma_case("a failed wgmma probe", &facts, &f32, &call, mma_4096, "PRECISION=2", none);
  facts = passed;
  facts.nv_compute_capability = 89;
  plan_wgmma_case("8.9", &facts, &f32, &call, mma_4096, "PRECISION=2", none);
  facts = passed;
  facts.global_mem_bytes = facts.max_alloc_bytes = 0;
  plan_wgmma_case("no memory facts", &facts, &f32, &call, mma_4096, NULL, none);
  facts.global_mem_bytes = 2ull << 30; /* a cap of 256 MiB: 384 MiB do not fit */
  plan_wgmma_case("past an eighth of the memory", &facts, &f32, &call, mma_4096, NULL, none);
  facts = passed;
  facts.max_alloc_bytes = (384ull << 20) - 1;
  plan_wgmma_case("past one allocation", &facts, &f32, &call, mma_4096, NULL, none);
  facts.max_alloc_bytes = 384ull << 20;
  plan_wgmma_case("one allocation exactly", &facts, &f32, &call, sab_4096, NULL, none);
  ocf_matmul_call c2 = call;
  c2.scratch_bound.set = 1, c2.scratch_bound.bytes = (384u << 20) - 4;
  plan_wgmma_case("a workspace too small", &passed, &f32, &c2, mma_4096, NULL, none);
  c2.scratch_bound.bytes = 384u << 20;
  plan_wgmma_case("a workspace that fits", &passed, &f32, &c2, sab_4096, NULL, none);
  c2 = call;
  c2.no_staging = 1;
  plan_wgmma_case("staging refused (its scratch failed)", &passed, &f32, &c2, mma_4096, NULL, none);
  ocf_tuning_values off = f32;
  off.matmul.wgmma.on = 0;
  plan_wgmma_case("wg=0", &passed, &off, &call, mma_4096, NULL, none);
  facts = passed;
  facts.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_STAGE] = 128;
  plan_wgmma_case("a staging limit of 128 work-items", &facts, &f32, &call, mma_4096, NULL, none);
  off = f32;
  off.matmul.wgmma.stage_min = 0;
  plan_wgmma_case("wgmma.stage_min=0", &passed, &off, &call, mma_4096, NULL, none);
  off.matmul.wgmma.stage_min = 4097;
  plan_wgmma_case("wgmma.stage_min=4097", &passed, &off, &call, mma_4096, NULL, none);
  off.matmul.wgmma.stage_min = 4096;
  plan_wgmma_case("wgmma.stage_min=4096", &passed, &off, &call, sab_4096, NULL, none);
  /* A gate per mode: 3XTF32 by stage_min alone, TF32 (B k x n) by tf32_stage_min alone. */
  off = f32;
  off.matmul.wgmma.stage_min = 0;
  plan_wgmma_case("3XTF32, stage_min 0, tf32_stage_min 256", &passed, &off, &call, mma_4096, NULL,
                  none);
  ocf_matmul_call tf32 = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  const char *const sb_4096 =
      "matmul_stage wg=32x8 groups=128x128 + matmul_wgmma_sb wg=256 groups=512";
  plan_wgmma_case("TF32, stage_min 0, tf32_stage_min 256", &passed, &off, &tf32, sb_4096, NULL,
                  none);
  off = f32;
  off.matmul.wgmma.tf32_stage_min = 0;
  plan_wgmma_case("TF32, tf32_stage_min 0", &passed, &off, &tf32, mma_4096, NULL, none);
  plan_wgmma_case("3XTF32, tf32_stage_min 0", &passed, &off, &call, sab_4096, NULL, none);
  off.matmul.wgmma.tf32_stage_min = 4097;
  plan_wgmma_case("TF32, tf32_stage_min 4097", &passed, &off, &tf32, mma_4096, NULL, none);
  off.matmul.wgmma.tf32_stage_min = 4096;
  plan_wgmma_case("TF32, tf32_stage_min 4096", &passed, &off, &tf32, sb_4096, NULL, none);
  /* Few products (stage_min 256): 255^3 stays on mma.sync, 256^3 is staged. */
  call = typed_call(255, 256, 256, OCF_F32, OCF_PRECISION_3XTF32);
  ocf_plan plan;
  assert_int_equal(ocf_plan_matmul(&passed, &f32, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.program, OCF_PROGRAM_MATMUL_MMA_NV);
  call.m = 256;
  assert_int_equal(ocf_plan_matmul(&passed, &f32, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_MATMUL_STAGE);
  /* Strict FP32 and 16-bit inputs are never staged. */
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_FP32);
  plan_wgmma_case("FP32", &passed, &f32, &call, "matmul_tiled_fast wg=16x16 groups=32x32", NULL,
                  none);
}

/*
 * Rule 7, the TMA-fed form (matmul_wgmma_tma): the whole-K direct plans take it where wgmma.tma
 * is set (the H200's built-in values), the wide and the TMA probes passed and the maps' scratch
 * (256 bytes a workgroup) fits; before either probe the cp.async kernel runs with that probe due
 * (the wide one first); a failed probe, a refused wide launch, a compiler without register caps,
 * m, n or k of 2^31, a workspace short of the maps, or wgmma.tma=0 keep the cp.async kernel;
 * split, last-wave and copied plans keep theirs. Its workgroup: 2 warpgroups and a warp, 288
 * work-items (a wide plan, registers capped at 65536 / 288 rounded down to 8: 224); its local
 * memory: the ring, 2 x 4 mbarriers and the two maps on 128 bytes, and 1 KiB of alignment:
 * round_up(4 (128 + 256) 128 + 64, 128) + 256 + 1024 = 198016 bytes (5 (128 + 192) 128 for the
 * 192-column ring: 206208, what the probe ran).
 */
/* Rule 7 for split plans (wgmma.tma_split): the TMA-fed split takes rule 5's ranges where the
   whole-K form's gates hold, its maps after the sums rounded up to 256 bytes. 128 x 8192 x 8192
   (B n x k): 32 tiles x 4 ranges = 128 workgroups; sums 4 x 128 x 8192 floats = 16777216 bytes,
   the maps 128 x 256 more. 97 x 8188: sums 4 x 97 x 8188 x 4 = 12707776 bytes, maps from
   12707840. */
static void test_tma_split(const ocf_device_facts *tma, const ocf_tuning_values *bf16) {
  ocf_tuning_values on = *bf16;
  on.matmul.wgmma.tma_split = 1;
  const char *const tma_split =
      "matmul_wgmma_tma_split wg=288 groups=128 + matmul_wgmma_reduce wg=256 groups=4096";
  const char *const cp_split =
      "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096";
  const int none = OCF_PLAN_PROBE_NONE;
  ocf_matmul_call call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = OCF_TRANS;
  plan_wgmma_case("split K, tma_split 0", tma, bf16, &call, cp_split, "wide=0 maps_at=0", none);
  plan_wgmma_case("split K, tma_split 1", tma, &on, &call, tma_split,
                  "splits=4 k_split=2048 maps_at=16777216 scratch=16809984 scratch_written=1 "
                  "wide=1 max_regs=224 local_mem=198016 BN=256 STAGES=4 TMA_WAIT_LIMIT=0",
                  none);
  call.trans_b = OCF_NO_TRANS; /* B k x n: the same plan, its maps of 64-column boxes */
  plan_wgmma_case("split K, B k x n", tma, &on, &call, tma_split, "TRANS_B=0 maps_at=16777216",
                  none);
  call = typed_call(97, 8188, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = OCF_TRANS, call.ldb = 8192; /* B n x k: rows on the lines (k x n of 8188 copied) */
  plan_wgmma_case("split K, sums off 256 bytes", tma, &on, &call,
                  "matmul_wgmma_tma_split wg=288 groups=128 + matmul_wgmma_reduce wg=256 "
                  "groups=3103",
                  "maps_at=12707840 scratch=12740608", none);

  /* the probes not yet run: the cp.async split asks for them, the wide one first */
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  ocf_device_facts before = *tma;
  before.learnt.wide = OCF_PROBE_UNKNOWN;
  before.learnt.wgmma_tma = OCF_PROBE_UNKNOWN;
  plan_wgmma_case("split K before the wide probe", &before, &on, &call, cp_split, "wide=0",
                  OCF_PLAN_PROBE_WIDE);
  before.learnt.wide = OCF_PROBE_PASSED;
  plan_wgmma_case("split K before the TMA probe", &before, &on, &call, cp_split, "wide=0",
                  OCF_PLAN_PROBE_WGMMA_TMA);
  /* its own refused wide launch, a failed probe: the cp.async split */
  ocf_device_facts off = *tma;
  off.learnt.wide_refused[OCF_KERNEL_MATMUL_WGMMA_TMA_SPLIT] = 1;
  plan_wgmma_case("split K, wide launch refused", &off, &on, &call, cp_split, "wide=0", none);
  off = *tma, off.learnt.wgmma_tma = OCF_PROBE_FAILED;
  plan_wgmma_case("split K, TMA probe failed", &off, &on, &call, cp_split, "wide=0", none);
  /* the workspace: the sums and the maps, or the sums alone for the cp.async split */
  call.scratch_bound.set = 1, call.scratch_bound.bytes = 16809984;
  plan_wgmma_case("split K, a workspace of sums and maps", tma, &on, &call, tma_split,
                  "scratch=16809984", none);
  call.scratch_bound.bytes = 16809983;
  plan_wgmma_case("split K, a workspace 1 byte short", tma, &on, &call, cp_split,
                  "wide=0 scratch=16777216 maps_at=0", none);
}

/* Rule 5's join (wgmma.split_join): the cp.async split alone, a counter a tile of each product,
   the same scratch; the TMA-fed split keeps its reduce; a workgroup limit learnt for the join
   below the tile keeps the two kernels. 128 x 8192 x 8192: 32 tiles x 4 ranges; batch 3 of
   128 x 4096 x 8192: 16 tiles, 2 ranges each (132 / 48), 48 counters. */
static void test_split_join(const ocf_device_facts *tma, const ocf_tuning_values *bf16) {
  ocf_tuning_values join = *bf16;
  join.matmul.wgmma.split_join = 1;
  const int none = OCF_PLAN_PROBE_NONE;
  ocf_matmul_call call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("split join", tma, &join, &call, "matmul_wgmma_split_join wg=256 groups=128",
                  "splits=4 k_split=2048 arrivals=32 scratch=16777216 scratch_written=1 wide=0",
                  none);
  plan_wgmma_case("split, no join", tma, bf16, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "arrivals=0", none);
  call.batch = 3, call.stride_a = 128 * 8192, call.stride_b = 0, call.stride_c = 128 * 4096;
  call.n = 4096, call.ldc = 4096, call.ldb = 4096;
  plan_wgmma_case("split join, batch 3", tma, &join, &call,
                  "matmul_wgmma_split_join wg=256 groups=96", "splits=2 arrivals=48", none);
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  ocf_tuning_values both = join;
  both.matmul.wgmma.tma_split = 1;
  plan_wgmma_case("split join and tma_split: the TMA split, its reduce", tma, &both, &call,
                  "matmul_wgmma_tma_split wg=288 groups=128 + matmul_wgmma_reduce wg=256 "
                  "groups=4096",
                  "arrivals=0", none);
  ocf_device_facts small = *tma;
  small.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_WGMMA_SPLIT_JOIN] = 255;
  plan_wgmma_case("split join limited to 255 work-items", &small, &join, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "arrivals=0", none);
  small.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_WGMMA_SPLIT_JOIN] = 256;
  plan_wgmma_case("split join limited to 256 work-items", &small, &join, &call,
                  "matmul_wgmma_split_join wg=256 groups=128", "arrivals=32", none);
}

/* Rule 2's one consumer and rule 5's fewest ranges, under the H100's few_rows values (128
   columns in 6 stages, wgmma.one_consumer=1, wgmma.split_ranges=3) on the 132 units: 64-row
   tiles where they make one wave of two thirds of the units at least (88 workgroups) or m <=
   64; a split only into 3 ranges or more. */
static void test_few_rows_tiles(const ocf_device_facts *tma, const ocf_tuning_values *bf16) {
  ocf_tuning_values few = *bf16;
  few.matmul.wgmma.bn = 128, few.matmul.wgmma.stages = 6;
  few.matmul.wgmma.one_consumer = 1, few.matmul.wgmma.split_ranges = 3;
  const int none = OCF_PLAN_PROBE_NONE;
  ocf_matmul_call call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("128 x 8192^2: 128 tiles of one consumer", tma, &few, &call,
                  "matmul_wgmma_tma wg=160 groups=128", "CONSUMERS=1 BN=128 STAGES=6 splits=1",
                  none);
  ocf_tuning_values two = few;
  two.matmul.wgmma.one_consumer = 0; /* 64 tiles: 2 ranges, fewer than 3: whole K */
  plan_wgmma_case("two consumers, 2 ranges wanted", tma, &two, &call,
                  "matmul_wgmma_tma wg=288 groups=64", "CONSUMERS=2 splits=1", none);
  two.matmul.wgmma.split_ranges = 2;
  plan_wgmma_case("two consumers, split_ranges 2", tma, &two, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "CONSUMERS=2 splits=2 k_split=4096", none);
  two.matmul.wgmma.split_ranges = 0; /* below the schema's least: still 2 */
  plan_wgmma_case("two consumers, split_ranges 0", tma, &two, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "splits=2", none);
  /* two thirds of 132 units: 88 tiles of one consumer take it, 86 keep two (43 tiles: 3
     ranges of 2752) */
  call.n = call.ldb = call.ldc = 44 * 128;
  plan_wgmma_case("88 tiles of one consumer", tma, &few, &call, "matmul_wgmma_tma wg=160 groups=88",
                  "CONSUMERS=1", none);
  call.n = call.ldb = call.ldc = 43 * 128;
  plan_wgmma_case("86 tiles of one consumer: two, split in 3", tma, &few, &call,
                  "matmul_wgmma_split wg=256 groups=129 + matmul_wgmma_reduce wg=256 groups=2752",
                  "CONSUMERS=2 splits=3 k_split=2752", none);
  /* one wave: 132 tiles of one consumer take it, 134 keep two (67 tiles, whole K) */
  call.n = call.ldb = call.ldc = 66 * 128;
  plan_wgmma_case("132 tiles of one consumer", tma, &few, &call,
                  "matmul_wgmma_tma wg=160 groups=132", "CONSUMERS=1", none);
  call.n = 66 * 128 + 1, call.ldb = call.ldc = 67 * 128; /* B's rows on the lines */
  plan_wgmma_case("134 tiles of one consumer: two", tma, &few, &call,
                  "matmul_wgmma_tma wg=288 groups=67", "CONSUMERS=2 splits=1", none);
  /* m <= 64: one consumer whatever the fill, then rule 5 (32 tiles: 4 ranges of 3584) */
  call = typed_call(64, 4096, 14336, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("64 x 4096 x 14336", tma, &few, &call,
                  "matmul_wgmma_split wg=128 groups=128 + matmul_wgmma_reduce wg=256 groups=1024",
                  "CONSUMERS=1 splits=4 k_split=3584", none);
  /* 129 rows: more than two consumers' 128, the tuning's two */
  call = typed_call(129, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("129 rows", tma, &few, &call, "matmul_wgmma_tma wg=288 groups=128", "CONSUMERS=2",
                  none);
  /* a batch counts: 2 x 2 x 32 = 128 workgroups of one consumer */
  call = typed_call(128, 4096, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.batch = 2, call.stride_a = 128 * 8192, call.stride_b = 8192 * 4096;
  call.stride_c = 128 * 4096;
  plan_wgmma_case("batch 2 of 128 x 4096", tma, &few, &call, "matmul_wgmma_tma wg=160 groups=128",
                  "CONSUMERS=1", none);
  /* the staged plans take it too (test_matmul_staged's test_staged_one_consumer on the GPU):
     TF32 with B k x n, 3XTF32, both gates from 256^3 products */
  ocf_tuning_values staged = few;
  staged.matmul.wgmma.stage_min = staged.matmul.wgmma.tf32_stage_min = 256;
  staged.matmul.wgmma.tma_copies = 0;
  call = typed_call(37, 2000, 333, OCF_F32, OCF_PRECISION_TF32); /* A off chunks: A' too */
  plan_wgmma_case("staged TF32 37 x 2000 x 333", tma, &staged, &call,
                  "matmul_stage wg=32x8 groups=11x64 + matmul_wgmma_sab wg=128 groups=16",
                  "CONSUMERS=1", none);
  call = typed_call(100, 6400, 300, OCF_F32, OCF_PRECISION_TF32); /* 100 tiles of 64 x 128 */
  plan_wgmma_case("staged TF32 100 x 6400 x 300", tma, &staged, &call,
                  "matmul_stage wg=32x8 groups=10x200 + matmul_wgmma_sb wg=128 groups=100",
                  "CONSUMERS=1", none);
  call = typed_call(64, 1000, 300, OCF_F32, OCF_PRECISION_3XTF32);
  call.trans_b = OCF_TRANS;
  plan_wgmma_case("staged 3XTF32 64 x 1000 x 300", tma, &staged, &call,
                  "matmul_stage wg=32x8 groups=10x34 + matmul_wgmma_sab wg=128 groups=8",
                  "CONSUMERS=1", none);
}

/* Rule 7 for the staged and copied plans (wgmma.tma_copies): their wgmma step on its TMA-fed
   twin, the maps after the operands (maps_at their bytes rounded up to 256), the same geometry;
   before the probes the cp.async step with the probe due; the tunable off (1 in NVIDIA's row),
   the cp.async step.
   bf16 3000^3: B copied to rows of 3008 (18048000 bytes), 384 tiles of 192 columns. TF32 4096^3
   B k x n: B' of 4096 rows of 4096 floats (67108864 bytes), 512 tiles. 3XTF32 4096^3: A' and B'
   of 8192 rows of 12288 floats (402653184 bytes). */
static void test_tma_copies(const ocf_device_facts *tma, const ocf_tuning_values *bf16,
                            const ocf_tuning_values *f32) {
  assert_int_equal(bf16->matmul.wgmma.tma_copies, 1); /* NVIDIA's built-in values */
  assert_int_equal(f32->matmul.wgmma.tma_copies, 1);
  ocf_tuning_values on16 = *bf16, on32 = *f32, off16 = *bf16;
  off16.matmul.wgmma.tma_copies = 0;
  on32.matmul.wgmma.stage_min = on32.matmul.wgmma.tf32_stage_min = 256;
  const int none = OCF_PLAN_PROBE_NONE;
  ocf_matmul_call call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  const char *const pb = "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_pb wg=288 groups=384";
  plan_wgmma_case("copied B on the TMA", tma, &on16, &call, pb,
                  "B_PAD=1 A_PAD=0 BN=192 STAGES=5 pad_ldb=3008 maps_at=18048000 "
                  "scratch=18146304 scratch_written=1 wide=1 max_regs=224 local_mem=206208",
                  none);
  plan_wgmma_case("copied B, tma_copies 0", tma, &off16, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_pb wg=256 groups=384",
                  "wide=0 maps_at=0 scratch=18048000", none);
  call.lda = 3001; /* A off 16-byte chunks: copied too */
  plan_wgmma_case("copied A and B on the TMA", tma, &on16, &call,
                  "matmul_pad wg=256 groups=6000 + matmul_wgmma_tma_pab wg=288 groups=384",
                  "A_PAD=1 pad_lda=3008 maps_at=36096000 scratch=36194304 wide=1", none);
  ocf_device_facts before = *tma;
  before.learnt.wgmma_tma = OCF_PROBE_UNKNOWN;
  call.lda = 3000;
  plan_wgmma_case("copied B before the TMA probe", &before, &on16, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_pb wg=256 groups=384",
                  "wide=0 maps_at=0", OCF_PLAN_PROBE_WGMMA_TMA);
  call.scratch_bound.set = 1, call.scratch_bound.bytes = 18146303; /* a byte short of the maps */
  plan_wgmma_case("copied B, a workspace short of the maps", tma, &on16, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_pb wg=256 groups=384",
                  "wide=0 scratch=18048000", none);

  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  plan_wgmma_case("TF32 B k x n staged, on the TMA", tma, &on32, &call,
                  "matmul_stage wg=32x8 groups=128x128 + matmul_wgmma_tma_sb wg=288 groups=512",
                  "STAGE_A=0 staged_k=4096 maps_at=67108864 scratch=67239936 wide=1", none);
  call.precision = OCF_PRECISION_3XTF32;
  plan_wgmma_case("3XTF32 staged, on the TMA", tma, &on32, &call,
                  "matmul_stage wg=32x8 groups=128x256 + matmul_wgmma_tma_sab wg=288 groups=512",
                  "PARTS=3 staged_k=12288 maps_at=402653184 scratch=402784256 wide=1", none);
}

/* wgmma.consumers 3 (192-row tiles): where their waves cost at most 5 % more than two
   consumers' (rule 2, take_consumers: each count in its planned width, 132 units) and more than 128
   rows, only where every wgmma step of the plan is TMA-fed (their first work-item drives the TMA:
   384 work-items, no producer warp), in the ring the TMA probe ran right with (fewer stages, down
   to 3, while it is more; fp32 C staged only where its rows fit the ring); every other plan is the
   two consumers' (the cp.async kernel, its probe, the splits: under one wave two always cost
   less). The waves' ring of three (192 x 192) in wave_stages 5 passes 227 KiB: 4 stages. */
static void test_three_consumers(const ocf_device_facts *tma, const ocf_tuning_values *bf16) {
  ocf_tuning_values three = *bf16;
  three.matmul.wgmma.consumers = 3; /* the waves' ring (192 x 192) in 5 stages: past 227 KiB */
  assert_int_equal(ocf_wgmma_tma_local_bytes(256, 3, 4, 0), 230784);
  assert_int_equal(ocf_wgmma_tma_local_bytes(256, 3, 3, 0), 173440);
  ocf_tuning_values cp_async = three; /* three asked for where no step is TMA-fed */
  cp_async.matmul.wgmma.tma = 0;
  ocf_device_facts big = *tma; /* its probe ran the 192 x 256 ring in 4 stages */
  big.learnt.wgmma_tma_local_ok = 230784;
  const int none = OCF_PLAN_PROBE_NONE;
  /* 8192^3: 43 x 32 = 1376 tiles of 192 x 256, 11 waves (8448) against two's 64 x 32 of 128 x
     256, 16 waves (8192; their 64 x 43 of 128 x 192 in 21 waves, 8064, do not win by 5 %, so the
     plan would not take them): 3.1 % more */
  ocf_matmul_call call = typed_call(8192, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 8192^3", &big, &three, &call, "matmul_wgmma_tma wg=384 groups=1376",
                  "CONSUMERS=3 BN=256 STAGES=4 C_STAGE=1 wide=1 max_regs=168 scratch=352256 "
                  "local_mem=230784",
                  none);
  /* the probe's ring is the two consumers' 206208 bytes: 3 stages, fp32 C's rows then past the
     ring (192 x 1040 > 3 x 57344 bytes): stored as pairs */
  plan_wgmma_case("three, 3 stages", tma, &three, &call, "matmul_wgmma_tma wg=384 groups=1376",
                  "CONSUMERS=3 STAGES=3 C_STAGE=0 local_mem=173440", none);
  call.c_dtype = OCF_BF16; /* 192 x 528 bytes fit */
  plan_wgmma_case("three, 3 stages, bf16 C", tma, &three, &call,
                  "matmul_wgmma_tma wg=384 groups=1376", "STAGES=3 C_STAGE=1", none);
  call.c_dtype = OCF_F32;
  ocf_device_facts small = *tma;
  small.learnt.wgmma_tma_local_ok = 173439; /* a byte short of 3 stages: two consumers, whose
                                                ring is past it too (the cp.async kernel) */
  plan_wgmma_case("three, a ring past the probe's", &small, &three, &call,
                  "matmul_wgmma wg=256 groups=2048", "CONSUMERS=2 STAGES=4 wide=0", none);
  /* 3072^3: 2 waves of 16 x 16 tiles of 192 x 192 (1152), as two's 3 of 24 x 16 */
  call = typed_call(3072, 3072, 3072, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 3072^3", &big, &three, &call, "matmul_wgmma_tma wg=384 groups=256",
                  "CONSUMERS=3 BN=192 STAGES=4 local_mem=198016", none);
  /* 4096^3: 3 waves of 22 x 16 (2304) against two's 4 of 32 x 16 (2048): two */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 4096^3: two", &big, &three, &call, "matmul_wgmma_tma wg=288 groups=512",
                  "CONSUMERS=2 BN=256", none);
  /* 4096 x 14336: 10 waves of 22 x 56 tiles of 192 x 256 (7680) against two's 14 of 32 x 56
     (7168), 7 % more: two (three's 192-column tiles, 7488, would be within 5 %, but their waves
     do not win over 256 columns by 5 %, so three would run 256) */
  call = typed_call(4096, 14336, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 4096 x 14336: two", &big, &three, &call,
                  "matmul_wgmma_tma wg=288 groups=1792", "CONSUMERS=2 BN=256", none);
  call = typed_call(128, 65536, 256, OCF_BF16, OCF_PRECISION_FP32); /* 2 waves of 128 x 256 */
  plan_wgmma_case("three, 128 rows: two", &big, &three, &call, "matmul_wgmma_tma wg=288 groups=256",
                  "CONSUMERS=2 BN=256", none);
  call.m = 129; /* 2 waves of 256 tiles of 192 x 256 (1536) against 4 of 512 (2048) */
  plan_wgmma_case("three, 129 rows: three", &big, &three, &call,
                  "matmul_wgmma_tma wg=384 groups=256", "CONSUMERS=3", none);
  /* one wave: 1536^3 is two consumers' 12 x 6 tiles of 128 x 256 (one wave, 512); in 128
     columns two's 12 x 12 pass the 132 units, three's 8 x 12 of 192 x 128 do not (384): three;
     1024^3 keeps two (8 x 8 of 128 x 128); 128 rows never take three */
  call = typed_call(1536, 1536, 1536, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 1536^3: one wave of three", &big, &three, &call,
                  "matmul_wgmma_tma wg=384 groups=96", "CONSUMERS=3 BN=128 wide=1", none);
  ocf_tuning_values three_first_form = three;
  three_first_form.matmul.wgmma.one_wave = 0;
  plan_wgmma_case("three, 1536^3, one_wave 0: 256 columns", &big, &three_first_form, &call,
                  "matmul_wgmma_tma wg=288 groups=72", "CONSUMERS=2 BN=256", none);
  plan_wgmma_case("two, 1536^3: 256 columns", &big, bf16, &call,
                  "matmul_wgmma_tma wg=288 groups=72", "CONSUMERS=2 BN=256", none);
  plan_wgmma_case("three, 1536^3, wgmma.tma 0: two in 256 columns", &big, &cp_async, &call,
                  "matmul_wgmma wg=256 groups=72", "CONSUMERS=2 BN=256", none);
  call = typed_call(1024, 1024, 1024, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 1024^3: two", &big, &three, &call, "matmul_wgmma_tma wg=288 groups=64",
                  "CONSUMERS=2 BN=128", none);
  call = typed_call(128, 16384, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 128 x 16384 (128 narrow tiles of two)", &big, &three, &call,
                  "matmul_wgmma_tma wg=288 groups=128", "CONSUMERS=2 BN=128", none);
  /* the copied 3000^3: 16 x 16 tiles of 192 x 192 (2 waves of 192 against 16 x 12 of 256) */
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("three, 3000^3 copied", &big, &three, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_pb wg=384 groups=256",
                  "CONSUMERS=3 BN=192 STAGES=4 wide=1 max_regs=168", none);
  /* two consumers wherever a step would be the cp.async kernel's */
  call = typed_call(8192, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  const char *const cp_async_8192 = "matmul_wgmma wg=256 groups=2048";
  ocf_device_facts before = big;
  before.learnt.wgmma_tma = OCF_PROBE_UNKNOWN;
  plan_wgmma_case("three, before the TMA probe", &before, &three, &call, cp_async_8192,
                  "CONSUMERS=2 wide=0", OCF_PLAN_PROBE_WGMMA_TMA);
  ocf_device_facts refused = big;
  refused.learnt.wide_refused[OCF_KERNEL_MATMUL_WGMMA_TMA] = 1;
  plan_wgmma_case("three, wide launch refused", &refused, &three, &call, cp_async_8192,
                  "CONSUMERS=2 wide=0", none);
  plan_wgmma_case("three, wgmma.tma 0", &big, &cp_async, &call, cp_async_8192, "CONSUMERS=2 wide=0",
                  none);
  /* splits (fewer tiles than units): two, the TMA-fed split's too */
  call = typed_call(256, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = OCF_TRANS;
  ocf_tuning_values tma_split = three;
  tma_split.matmul.wgmma.tma_split = 1;
  tma_split.matmul.wgmma.whole_k_fill = 0; /* 128 narrow tiles would keep K whole */
  plan_wgmma_case("three, the TMA-fed split", &big, &tma_split, &call,
                  "matmul_wgmma_tma_split wg=288 groups=128 + matmul_wgmma_reduce wg=256 "
                  "groups=8192",
                  "CONSUMERS=2 wide=1", none);
  /* the probes: the cp.async kernel's runs two consumers, the TMA form's the tuning's three */
  ocf_plan plan;
  expect_plan("three, the wgmma probe",
              ocf_plan_matmul_wgmma_probe(&before, &three, 160, 264, &plan), &plan,
              "matmul_wgmma wg=256 groups=4", "CONSUMERS=2 BN=192 STAGES=5");
  expect_plan("three, the TMA probe",
              ocf_plan_matmul_wgmma_tma_probe(&before, &three, 160, 264, &plan), &plan,
              "matmul_wgmma_tma wg=384 groups=2",
              "CONSUMERS=3 BN=256 STAGES=4 C_STAGE=1 max_regs=168 local_mem=230784");
}

/* Persistent tiles (wgmma.persist, rule 7): a whole-K call of one product whose tiles pass the
   units (132) runs matmul_wgmma_tma with PERSIST, a workgroup a unit, where the TMA form's gates
   hold for its ring and areas of C (2 consumers x 64 x 144 bytes; three consumers' ring then
   takes 3 stages to stay within 227 KiB) and a workgroup's slices stay below 2^31; else, and
   for batches, calls of at most a wave of tiles and wgmma.tma 0, a workgroup a tile. The TMA
   probe runs the largest ring the tuning's plans may take, persistent ones included. */
static void test_persistent_tiles(const ocf_device_facts *tma, const ocf_tuning_values *bf16) {
  ocf_tuning_values persist = *bf16;
  persist.matmul.wgmma.persist = 1;
  assert_int_equal(ocf_wgmma_tma_local_bytes(256, 2, 4, 1), 216448);
  assert_int_equal(ocf_wgmma_tma_local_bytes(192, 2, 5, 1), 224640);
  assert_int_equal(ocf_wgmma_tma_local_bytes(256, 3, 3, 1), 201088);
  ocf_device_facts big = *tma;
  big.learnt.wgmma_tma_local_ok = 224640; /* the persistent probe's ring, below */
  const int none = OCF_PLAN_PROBE_NONE;
  ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("persist, 4096^3", &big, &persist, &call, "matmul_wgmma_tma wg=288 groups=132",
                  "PERSIST=1 BN=256 STAGES=4 C_STAGE=1 scratch=33792 local_mem=216448", none);
  call.c_dtype = OCF_F32;
  call.trans_b = OCF_TRANS;
  plan_wgmma_case("persist, fp32 C, B n x k", &big, &persist, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1 TRANS_B=1 C_STAGE=1", none);
  plan_wgmma_case("persist, a probe's ring short of the areas", tma, &persist, &call,
                  "matmul_wgmma_tma wg=288 groups=512", "PERSIST=0 local_mem=198016", none);
  ocf_tuning_values plain_tma = persist;
  plain_tma.matmul.wgmma.tma = 0;
  plan_wgmma_case("persist, wgmma.tma 0", &big, &plain_tma, &call, "matmul_wgmma wg=256 groups=512",
                  "PERSIST=0 wide=0", none);
  call.batch = 2, call.stride_a = 4096 * 4096, call.stride_b = 4096 * 4096;
  call.stride_c = 4096 * 4096;
  plan_wgmma_case("persist, a batch of 2", &big, &persist, &call,
                  "matmul_wgmma_tma wg=288 groups=1024", "PERSIST=0", none);
  /* 132 tiles of 128 x 256 are one wave: a tile a workgroup; 133 persist */
  call = typed_call(128 * 132, 256, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("persist, one wave", &big, &persist, &call, "matmul_wgmma_tma wg=288 groups=132",
                  "PERSIST=0", none);
  call.m++;
  plan_wgmma_case("persist, a tile past a wave", &big, &persist, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1", none);
  /* 127 tiles a workgroup of 2^24 slices each stay below 2^31 slices; 128 do not */
  call = typed_call(128 * 132 * 127, 256, (size_t)1 << 30, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("persist, 127 x 2^24 slices a workgroup", &big, &persist, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1", none);
  call.m = 128 * 132 * 128;
  plan_wgmma_case("persist, 2^31 slices a workgroup", &big, &persist, &call,
                  "matmul_wgmma_tma wg=288 groups=16896", "PERSIST=0", none);
  /* three consumers are never persistent (measured to lose): 8192^3's 43 x 32 tiles of 192 x
     256 a workgroup each, and so a copied plan's TMA-fed step (rule 4: 3000^3's B rows off the
     lines, 16 x 16 tiles of 192 x 192 by the waves) in the H100's probe's 230784 bytes; its
     two-consumer twin (wgmma.wave_bn 0: 24 x 12 tiles of 128 x 256) persists */
  ocf_tuning_values three = persist;
  three.matmul.wgmma.consumers = 3;
  call = typed_call(8192, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("persist, three consumers", &big, &three, &call,
                  "matmul_wgmma_tma wg=384 groups=1376", "PERSIST=0 CONSUMERS=3", none);
  /* three allowed, as the H100's large class: 4096^3's waves of two cost less (rule 2), and
     those persist */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("persist, three allowed, 4096^3 takes two", &big, &three, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1 CONSUMERS=2", none);
  ocf_device_facts h100 = *tma;
  h100.learnt.wgmma_tma_local_ok = 230784;
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("persist, 3000^3 copied, three consumers", &h100, &three, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_pb wg=384 groups=256",
                  "PERSIST=0 CONSUMERS=3 BN=192 STAGES=4", none);
  ocf_tuning_values two = persist;
  two.matmul.wgmma.wave_bn = 0;
  plan_wgmma_case("persist, 3000^3 copied, two consumers", &h100, &two, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_pb wg=288 groups=132",
                  "PERSIST=1 CONSUMERS=2 BN=256", none);
  call.batch = 2, call.stride_a = 3000 * 3000, call.stride_b = 3000 * 3000;
  call.stride_c = 3000 * 3000;
  plan_wgmma_case("persist, 3000^3 copied, a batch of 2", &h100, &two, &call,
                  "matmul_pad wg=256 groups=6000 + matmul_wgmma_tma_pb wg=288 groups=576",
                  "PERSIST=0", none);
  /* the probes: the waves' persistent ring (192 x 192 in 5 stages and the areas) is the
     largest of two consumers'; three consumers' 4 stages a tile a workgroup pass their
     persistent 3 */
  ocf_plan plan;
  ocf_device_facts before = *tma;
  before.learnt.wgmma_tma = OCF_PROBE_UNKNOWN;
  expect_plan("persist, the TMA probe",
              ocf_plan_matmul_wgmma_tma_probe(&before, &persist, 160, 264, &plan), &plan,
              "matmul_wgmma_tma wg=288 groups=2", "BN=192 STAGES=5 PERSIST=1 local_mem=224640");
  expect_plan("persist, three consumers' TMA probe",
              ocf_plan_matmul_wgmma_tma_probe(&before, &three, 160, 264, &plan), &plan,
              "matmul_wgmma_tma wg=384 groups=2", "BN=256 STAGES=4 PERSIST=0 local_mem=230784");
  /* in 3 stages three consumers' persistent ring (its areas of C: 201088 bytes) would be the
     largest, but no plan takes it: the probe runs the ring their plans do run */
  ocf_tuning_values three_short = three;
  three_short.matmul.wgmma.stages = 3;
  three_short.matmul.wgmma.wave_stages = 3;
  expect_plan("persist, three consumers' TMA probe, rings of 3 stages",
              ocf_plan_matmul_wgmma_tma_probe(&before, &three_short, 160, 264, &plan), &plan,
              "matmul_wgmma_tma wg=384 groups=2", "BN=256 STAGES=3 PERSIST=0 local_mem=173440");
}

/* Rule 7's stream-K (wgmma.persist 2): a persistent plan whose last partial wave of R tiles cuts
   them into P = min(units / R, slices, 4) >= 2 pieces runs the stream-K twin, the pieces' sums
   after the maps (R P tiles of floats) and a counter for each warpgroup of the R tiles; whole
   waves, a last wave of one piece a tile (R past half the units, or one slice), three consumers,
   a refused wide launch or a short workspace keep the persistent kernel. */
static void test_stream_k(const ocf_device_facts *tma, const ocf_tuning_values *bf16,
                          const ocf_tuning_values *f32) {
  ocf_tuning_values stream = *bf16;
  stream.matmul.wgmma.persist = 2;
  ocf_device_facts big = *tma;
  big.learnt.wgmma_tma_local_ok = 224640;
  const int none = OCF_PLAN_PROBE_NONE;
  /* 270 tiles of 128 x 256 on 132 units: two waves and R = 6, k 1000 (16 slices): P = 4; the
     maps (132 x 256 bytes), then 6 x 4 tiles of 128 x 256 floats */
  ocf_matmul_call call = typed_call(128 * 270, 256, 1000, OCF_BF16, OCF_PRECISION_FP32);
  const size_t sums = 6u * 4u * 128u * 256u * 4u;
  char values[160];
  snprintf(values, sizeof values,
           "PERSIST=1 BN=256 STAGES=4 C_STAGE=1 maps_at=0 scratch=%zu arrivals=12 "
           "scratch_written=1 local_mem=216448",
           33792 + sums);
  plan_wgmma_case("stream-K, 6 tiles past two waves", &big, &stream, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", values, none);
  call.c_dtype = OCF_F32, call.trans_b = OCF_TRANS;
  plan_wgmma_case("stream-K, fp32 C, B n x k", &big, &stream, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", "TRANS_B=1 C_DTYPE=0 arrivals=12", none);
  /* a workspace of the maps and the sums, and one byte short of them */
  call.scratch_bound.set = 1;
  call.scratch_bound.bytes = 33792 + sums;
  plan_wgmma_case("stream-K, a workspace of its scratch", &big, &stream, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", "arrivals=12", none);
  call.scratch_bound.bytes--;
  plan_wgmma_case("stream-K, a workspace a byte short", &big, &stream, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1 scratch=33792 arrivals=0", none);
  call.scratch_bound.set = 0;
  ocf_device_facts refused = big;
  refused.learnt.wide_refused[OCF_KERNEL_MATMUL_WGMMA_TMA_SK] = 1;
  plan_wgmma_case("stream-K, its wide launch refused", &refused, &stream, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1 arrivals=0", none);
  /* k 128, two slices: two pieces; k 64, one slice: one piece a tile, persistent */
  call.k = 128;
  snprintf(values, sizeof values, "PERSIST=1 scratch=%zu arrivals=12", 33792 + sums / 2);
  plan_wgmma_case("stream-K, two slices", &big, &stream, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", values, none);
  call.k = 64;
  plan_wgmma_case("stream-K, one slice", &big, &stream, &call, "matmul_wgmma_tma wg=288 groups=132",
                  "PERSIST=1 arrivals=0", none);
  /* 264 tiles are two whole waves: persistent; 265 (R 1) take four pieces; 330 (R 66, two
     pieces) stream-K, 331 (R 67: 132 / 67 is one piece) persistent */
  call = typed_call(128 * 132 * 2, 256, 1000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("stream-K, whole waves", &big, &stream, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1 arrivals=0", none);
  call.m++;
  plan_wgmma_case("stream-K, a tile past whole waves", &big, &stream, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", "PERSIST=1 arrivals=2", none);
  call.m = 128 * 330;
  plan_wgmma_case("stream-K, 66 tiles past", &big, &stream, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", "PERSIST=1 arrivals=132", none);
  call.m = 128 * 331;
  plan_wgmma_case("stream-K, 67 tiles past", &big, &stream, &call,
                  "matmul_wgmma_tma wg=288 groups=132", "PERSIST=1 arrivals=0", none);
  /* 4096^3: 512 tiles, R 116 of 132: one piece a tile, persistent */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("stream-K, 4096^3", &big, &stream, &call, "matmul_wgmma_tma wg=288 groups=132",
                  "PERSIST=1 arrivals=0", none);
  /* three consumers, which take neither stream-K (their registers) nor persistent tiles (their
     measured loss), where their waves cost at most 5 % more
     than two's with a last wave of pieces: f16 6144^3, 768 tiles of 192 x 256 (6 waves of 132:
     4608 rows x columns a unit) against 1152 of 128 x 256 (R 96: one piece, 9 waves, 4608);
     3000^3 with 256-column tiles (wave_bn 0), 192 tiles of 192 (2 waves: 1536) against 288 of
     128 (two waves and R 24 in four pieces of 47 slices' 12: 1155), which takes two and
     stream-K */
  ocf_tuning_values three = stream;
  three.matmul.wgmma.consumers = 3;
  call = typed_call(6144, 6144, 6144, OCF_F16, OCF_PRECISION_FP32);
  plan_wgmma_case("stream-K, three consumers", &big, &three, &call,
                  "matmul_wgmma_tma wg=384 groups=768", "PERSIST=0 CONSUMERS=3 arrivals=0", none);
  three.matmul.wgmma.wave_bn = 0;
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = OCF_TRANS, call.ldb = 3008; /* B's rows on 16-byte chunks: direct */
  call.lda = 3008;
  plan_wgmma_case("stream-K, two consumers for three", &big, &three, &call,
                  "matmul_wgmma_tma_sk wg=288 groups=132", "PERSIST=1 CONSUMERS=2 arrivals=48",
                  none);
  /* without stream-K: 3 waves of two cost 1536, three kept, their 192 tiles a workgroup each */
  three.matmul.wgmma.persist = 1;
  plan_wgmma_case("persistent, three consumers", &big, &three, &call,
                  "matmul_wgmma_tma wg=384 groups=192", "PERSIST=0 CONSUMERS=3 arrivals=0", none);
  /* a copied plan's step takes its stream-K twin, the sums after the copies and the maps
     (3000^3, B k x n copied onto the lines, 256-column tiles: 288, R 24 in four pieces) */
  ocf_device_facts h100 = *tma;
  h100.learnt.wgmma_tma_local_ok = 230784;
  stream.matmul.wgmma.wave_bn = 0;
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("stream-K, 3000^3 copied", &h100, &stream, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_sk_pb wg=288 groups=132",
                  "PERSIST=1 BN=256 maps_at=18048000 scratch=30664704 arrivals=48", none);
  /* (B's copy: 3000 rows of 3008 values; the maps; 24 x 4 tiles of 128 x 256 floats) */
  call.scratch_bound.set = 1, call.scratch_bound.bytes = 30664704 - 1; /* a byte short */
  plan_wgmma_case("stream-K, 3000^3 copied, a workspace a byte short", &h100, &stream, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_pb wg=288 groups=132",
                  "PERSIST=1 scratch=18081792 arrivals=0", none);
  call.scratch_bound.set = 0;
  call.lda = 3001; /* A off 16-byte chunks: both copied */
  plan_wgmma_case("stream-K, A and B copied", &h100, &stream, &call,
                  "matmul_pad wg=256 groups=6000 + matmul_wgmma_tma_sk_pab wg=288 groups=132",
                  "PERSIST=1 arrivals=48", none);
  /* staged: TF32 with A transposed (A and B staged), B n x k off 16-byte chunks (B alone); m
     4000 x n 4096: 32 x 16 tiles, R 116 would be one piece, so m 3000: 24 x 16 = 384, R 120 is
     one piece too; m 2200: 18 x 16 = 288, R 24 in four; A's 2200 rows and B's 4096 staged
     in blocks of 32: 197) */
  ocf_tuning_values tf32 = *f32;
  tf32.matmul.wgmma.persist = 2;
  tf32.matmul.wgmma.wave_bn = 0;
  call = typed_call(2200, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.trans_a = OCF_TRANS;
  plan_wgmma_case("stream-K, TF32 staged A and B", &h100, &tf32, &call,
                  "matmul_stage wg=32x8 groups=128x197 + matmul_wgmma_tma_sk_sab wg=288 groups=132",
                  "PERSIST=1 arrivals=48", none);
  call.trans_a = OCF_NO_TRANS, call.trans_b = OCF_TRANS, call.ldb = 4097;
  plan_wgmma_case("stream-K, TF32 staged B", &h100, &tf32, &call,
                  "matmul_stage wg=32x8 groups=128x128 + matmul_wgmma_tma_sk_sb wg=288 groups=132",
                  "PERSIST=1 arrivals=48", none);
}

static void test_plan_matmul_wgmma_tma(void **state) {
  (void)state;
  ocf_device_facts tma = with_h200_memory(h200_wgmma(OCF_PROBE_PASSED));
  tma.learnt.wide = OCF_PROBE_PASSED;
  tma.learnt.wgmma_tma = OCF_PROBE_PASSED;
  tma.learnt.wgmma_tma_local_ok = 206208;
  tma.learnt.wgmma_tma_local_ok_reported = 206208 + 16;
  ocf_tuning_values bf16 = matmul_tuning(&tma, H200, OCF_BF16);
  ocf_tuning_values f32 = matmul_tuning(&tma, H200, OCF_F32);
  assert_int_equal(bf16.matmul.wgmma.tma, 1); /* the H200's built-in values */
  assert_int_equal(f32.matmul.wgmma.tma, 1);
  assert_int_equal(bf16.matmul.wgmma.c_stage, 1);
  assert_int_equal(ocf_wgmma_tma_local_bytes(256, 2, 4, 0), 198016);
  assert_int_equal(ocf_wgmma_tma_local_bytes(192, 2, 5, 0), 206208);
  const char *const tma_4096 = "matmul_wgmma_tma wg=288 groups=512";
  const char *const wg_4096 = "matmul_wgmma wg=256 groups=512";
  const char *const tma_values =
      "BN=256 STAGES=4 TMA_WAIT_LIMIT=0 C_STAGE=1 wide=1 max_regs=224 scratch=131072 "
      "scratch_written=1 local_mem=198016";
  const char *const plain = "TMA_WAIT_LIMIT=0 wide=0 scratch=0 local_mem=197632";
  const int none = OCF_PLAN_PROBE_NONE;

  ocf_matmul_call call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 NN", &tma, &bf16, &call, tma_4096, tma_values, none);
  ocf_tuning_values pairs = bf16; /* the staged epilogue off: a define, the same ring */
  pairs.matmul.wgmma.c_stage = 0;
  plan_wgmma_case("bf16 NN, c_stage 0", &tma, &pairs, &call, tma_4096, "C_STAGE=0 local_mem=198016",
                  none);
  call.trans_b = OCF_TRANS;
  plan_wgmma_case("bf16 NT", &tma, &bf16, &call, tma_4096, "TRANS_B=1 wide=1", none);
  call = typed_call(4096, 4096, 4096, OCF_F32, OCF_PRECISION_TF32);
  call.trans_b = OCF_TRANS;
  plan_wgmma_case("TF32 NT", &tma, &f32, &call, tma_4096, "AB_DTYPE=0 TRANS_B=1 wide=1", none);
  /* the waves' 192-column tiles in 5 stages: 3072^3 is 24 x 16 = 384 tiles */
  call = typed_call(3072, 3072, 3072, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("bf16 3072^3", &tma, &bf16, &call, "matmul_wgmma_tma wg=288 groups=384",
                  "BN=192 STAGES=5 scratch=98304 local_mem=206208", none);
  /* a batch of 3: 1536 workgroups, one pair of maps each */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  call.batch = 3, call.stride_a = 4096 * 4096, call.stride_b = 4096 * 4096;
  call.stride_c = 4096 * 4096;
  plan_wgmma_case("bf16 batch 3", &tma, &bf16, &call, "matmul_wgmma_tma wg=288 groups=1536",
                  "scratch=393216", none);

  /* before the probes: the cp.async kernel, the wide probe first, then the TMA probe */
  call = typed_call(4096, 4096, 4096, OCF_BF16, OCF_PRECISION_FP32);
  ocf_device_facts before = tma;
  before.learnt.wide = OCF_PROBE_UNKNOWN;
  before.learnt.wgmma_tma = OCF_PROBE_UNKNOWN;
  plan_wgmma_case("before the wide probe", &before, &bf16, &call, wg_4096, plain,
                  OCF_PLAN_PROBE_WIDE);
  before.learnt.wide = OCF_PROBE_PASSED;
  plan_wgmma_case("before the TMA probe", &before, &bf16, &call, wg_4096, plain,
                  OCF_PLAN_PROBE_WGMMA_TMA);
  /* either failed, a refused wide launch, no register caps: the cp.async kernel for good */
  ocf_device_facts off = tma;
  off.learnt.wgmma_tma = OCF_PROBE_FAILED;
  plan_wgmma_case("TMA probe failed", &off, &bf16, &call, wg_4096, plain, none);
  off = tma, off.learnt.wide = OCF_PROBE_FAILED, off.learnt.wgmma_tma = OCF_PROBE_UNKNOWN;
  plan_wgmma_case("wide probe failed", &off, &bf16, &call, wg_4096, plain, none);
  off = tma, off.learnt.wide_refused[OCF_KERNEL_MATMUL_WGMMA_TMA] = 1;
  plan_wgmma_case("wide launch refused", &off, &bf16, &call, wg_4096, plain, none);
  off = tma, off.nv_compiler_options = 0;
  plan_wgmma_case("no register caps", &off, &bf16, &call, wg_4096, plain, none);
  off = tma, off.learnt.wgmma_tma_local_ok = 198015;
  plan_wgmma_case("a ring past the probe's", &off, &bf16, &call, wg_4096, plain, none);
  ocf_tuning_values tma_off = bf16;
  tma_off.matmul.wgmma.tma = 0;
  plan_wgmma_case("wgmma.tma=0", &tma, &tma_off, &call, wg_4096, plain, none);

  /* the workspace: the maps' 131072 bytes fit or the cp.async kernel (no scratch) runs */
  call.scratch_bound.set = 1, call.scratch_bound.bytes = 131072;
  plan_wgmma_case("a workspace of the maps", &tma, &bf16, &call, tma_4096, "scratch=131072", none);
  call.scratch_bound.bytes = 131071;
  plan_wgmma_case("a workspace 1 byte short", &tma, &bf16, &call, wg_4096, plain, none);

  /* 2^31 rows: box coordinates are signed 32-bit (2^31 - 128 rows take the TMA) */
  call = typed_call((size_t)1 << 31, 256, 64, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("m 2^31", &tma, &bf16, &call, "matmul_wgmma wg=256 groups=16777216", "wide=0",
                  none);
  call.m = ((size_t)1 << 31) - 128;
  plan_wgmma_case("m 2^31 - 128", &tma, &bf16, &call, "matmul_wgmma_tma wg=288 groups=16777215",
                  "wide=1", none);

  /* split and last-wave plans keep their kernels (copied ones take the TMA-fed step:
     test_tma_copies) */
  call = typed_call(128, 8192, 8192, OCF_BF16, OCF_PRECISION_FP32);
  call.trans_b = OCF_TRANS;
  plan_wgmma_case("split K", &tma, &bf16, &call,
                  "matmul_wgmma_split wg=256 groups=128 + matmul_wgmma_reduce wg=256 groups=4096",
                  "wide=0", none);
  test_tma_split(&tma, &bf16);
  test_split_join(&tma, &bf16);
  test_few_rows_tiles(&tma, &bf16);
  test_tma_copies(&tma, &bf16, &f32);
  test_three_consumers(&tma, &bf16);
  test_persistent_tiles(&tma, &bf16);
  test_stream_k(&tma, &bf16, &f32);
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("3000^3 copied", &tma, &bf16, &call,
                  "matmul_pad wg=256 groups=3000 + matmul_wgmma_tma_pb wg=288 groups=384", "wide=1",
                  none);
  ocf_tuning_values lw = lastwave_on(bf16);
  lw.matmul.wgmma.wave_bn = 0, lw.matmul.wgmma.align_rows = 0;
  plan_wgmma_case("3000^3 last wave", &tma, &lw, &call,
                  "matmul_wgmma_lw_split wg=256 groups=120 + matmul_wgmma_lw wg=256 groups=384",
                  "wide=0", none);
  lw.matmul.wgmma.lastwave = 0; /* the direct plan: on the TMA */
  plan_wgmma_case("3000^3 direct", &tma, &lw, &call, "matmul_wgmma_tma wg=288 groups=288", "wide=1",
                  none);

  /* wgmma.tma 2: a readable 16-bit call off the lines goes direct (the TMA reads it), once the
     probes passed; before, it is copied with the due probe asked for; unreadable calls are
     copied as before */
  ocf_tuning_values lines = bf16;
  lines.matmul.wgmma.tma = 2;
  call = typed_call(3000, 3000, 3000, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("tma 2, 3000^3", &tma, &lines, &call, "matmul_wgmma_tma wg=288 groups=384",
                  "BN=192 wide=1 scratch=98304", none);
  const char *const padded = "matmul_pad wg=256 groups=3000 + matmul_wgmma_pb wg=256 groups=384";
  before.learnt.wide = OCF_PROBE_UNKNOWN;
  plan_wgmma_case("tma 2, 3000^3, before the wide probe", &before, &lines, &call, padded, "wide=0",
                  OCF_PLAN_PROBE_WIDE);
  before.learnt.wide = OCF_PROBE_PASSED;
  plan_wgmma_case("tma 2, 3000^3, before the TMA probe", &before, &lines, &call, padded, "wide=0",
                  OCF_PLAN_PROBE_WGMMA_TMA);
  off = tma, off.learnt.wgmma_tma = OCF_PROBE_FAILED;
  plan_wgmma_case("tma 2, 3000^3, TMA probe failed", &off, &lines, &call, padded, "wide=0", none);
  call.lda = 3001; /* A off 16-byte chunks: copied whatever the TMA */
  plan_wgmma_case("tma 2, lda 3001", &tma, &lines, &call,
                  "matmul_pad wg=256 groups=6000 + matmul_wgmma_tma_pab wg=288 groups=384",
                  "wide=1", none);

  /* wgmma.sector_rows with the TMA form (tma 1): B rows on 32-byte steps but off 64-byte ones
     (ldb 3088) go direct once the probes passed, copied before with the TMA probe asked for;
     rows 16 bytes off (ldb 3080), an offset or a batch stride off the steps stay copied; so do
     the same rows without the TMA form or without sector_rows */
  ocf_tuning_values sectors = bf16;
  sectors.matmul.wgmma.sector_rows = 1;
  const char *const copied_tma = "matmul_pad wg=256 groups=3072 + matmul_wgmma_tma_pb wg=288 "
                                 "groups=384";
  call = typed_call(3072, 3072, 3072, OCF_BF16, OCF_PRECISION_FP32);
  call.ldb = 3088;
  plan_wgmma_case("sector rows, ldb 3088", &tma, &sectors, &call,
                  "matmul_wgmma_tma wg=288 groups=384", "BN=192 wide=1", none);
  plan_wgmma_case("sector rows, ldb 3088, before the TMA probe", &before, &sectors, &call,
                  "matmul_pad wg=256 groups=3072 + matmul_wgmma_pb wg=256 groups=384", "wide=0",
                  OCF_PLAN_PROBE_WGMMA_TMA);
  plan_wgmma_case("sector rows off, ldb 3088", &tma, &bf16, &call, copied_tma, "wide=1", none);
  ocf_tuning_values cp_async = sectors;
  cp_async.matmul.wgmma.tma = 0;
  plan_wgmma_case("sector rows without the TMA form, ldb 3088", &tma, &cp_async, &call, copied_tma,
                  "wide=1", none); /* the copy's step on the TMA: wgmma.tma_copies */
  call.ldb = 3080;
  plan_wgmma_case("sector rows, ldb 3080", &tma, &sectors, &call, copied_tma, "wide=1", none);
  call.ldb = 3088, call.b_off = 8;
  plan_wgmma_case("sector rows, ldb 3088, b_off 8", &tma, &sectors, &call, copied_tma, "wide=1",
                  none);
  call.b_off = 16, call.batch = 2, call.stride_a = 3072 * 3072, call.stride_c = 3072 * 3072;
  call.stride_b = 3072 * 3088 + 16;
  plan_wgmma_case("sector rows, ldb 3088, b_off 16, a batch", &tma, &sectors, &call,
                  "matmul_wgmma_tma wg=288 groups=768", "BN=192 wide=1", none);
  call.stride_b = 3072 * 3088 + 8;
  plan_wgmma_case("sector rows, a batch stride off the steps", &tma, &sectors, &call,
                  "matmul_pad wg=256 groups=6144 + matmul_wgmma_tma_pb wg=288 groups=768", "wide=1",
                  none);

  /* the probe's plan: the larger ring (192 columns, 5 stages), bounded waits, the maps' scratch */
  ocf_plan plan;
  expect_plan("TMA probe", ocf_plan_matmul_wgmma_tma_probe(&before, &bf16, 160, 264, &plan), &plan,
              "matmul_wgmma_tma wg=288 groups=4",
              "BN=192 STAGES=5 TMA_WAIT_LIMIT=4194304 wide=1 max_regs=224 scratch=1024 "
              "local_mem=206208");
  assert_true(plan.is_probe);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_matmul_wgmma),
      cmocka_unit_test(test_plan_wgmma_waves),
      cmocka_unit_test(test_plan_wgmma_staged16),
      cmocka_unit_test(test_plan_matmul_wgmma_lastwave),
      cmocka_unit_test(test_plan_matmul_wgmma_staged),
      cmocka_unit_test(test_plan_matmul_wgmma_tma),
  };
  return cmocka_run_group_tests_name("plan_matmul_wgmma", tests, NULL, NULL);
}
