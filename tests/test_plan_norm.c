/*
 * The planner on described devices: LayerNorm and RMSNorm (src/plan/plan_norm.c, cl/norm.cl): the
 * plans of every described device against the kernels' assumptions, the wide plans, the H200's
 * plans by class and type and for long rows, and the streamed plans. The method, the devices and
 * the helpers: tests/plan_fixture.h.
 */

#include "plan_fixture.h"

/* ---- norm (LayerNorm, RMSNorm; issue 20) ---- */

/* Plans c under t on facts and checks its vector width and SHIFTED (-1: either), the plan left
   in *plan for further checks. */
static void expect_norm_vectors(const char *what, const ocf_device_facts *facts,
                                const ocf_tuning_values *t, const ocf_norm_call *c, long long vw,
                                long long shifted, ocf_plan *plan) {
  expect_success(what, ocf_plan_norm(facts, t, c, plan));
  assert_int_equal(define_of(plan, "VW"), vw);
  if (shifted >= 0) assert_int_equal(define_of(plan, "SHIFTED"), shifted);
}

/* cl/norm.cl's assumptions: norm_rows holds every vector of a row (ceil(cols / VW) <= SEG *
   ITEMS) in a SEG x (WG / SEG) workgroup; VW > 1 only with every row start and vector offset a
   multiple of VW, or SHIFTED (norm_rows or the split) with every operand's rows as far inside
   their vectors as in's, a row touching one vector more; the split covers the row with its
   slices and has scratch for their statistics and the rows' shifts; the baseline runs three
   kernels (RMSNorm two). */
static void check_norm_assumptions(const char *what, const ocf_plan *plan, const ocf_norm_call *c) {
  const ocf_plan_step *st = &plan->steps[0];
  const long long wg = define_of(plan, "WG"), vw = define_of(plan, "VW");
  const long long items = define_of(plan, "ITEMS"), seg = define_of(plan, "SEG");
  const size_t vecs = (c->cols + (size_t)vw - 1) / (size_t)vw;
  ASSUME(plan->program == OCF_PROGRAM_NORM, "\n");
  const long long shifted = define_of(plan, "SHIFTED");
  if (shifted) {
    /* Every operand's rows as far inside a vector as in's; weight and bias on one. */
    const size_t o = c->in_off % (size_t)vw, l = c->in_ld % (size_t)vw;
    ASSUME(vw > 1 && define_of(plan, "EVEN") == 0, "\n");
    ASSUME(st->kernel == OCF_KERNEL_NORM_ROWS || st->kernel == OCF_KERNEL_NORM_SPLIT_STATS, "\n");
    ASSUME(c->cols < ((size_t)1 << 31), "\n"); /* the weights' realignment: 32-bit indices */
    ASSUME(c->out_off % vw == o && c->out_ld % vw == l, "  vw %lld\n", vw);
    ASSUME(!c->has_res || (c->res_off % vw == o && c->res_ld % vw == l), "  vw %lld\n", vw);
    ASSUME(!c->has_res_out || (c->res_out_off % vw == o && c->res_out_ld % vw == l), "  vw %lld\n",
           vw);
    ASSUME(c->weight_off % vw == 0 && c->bias_off % vw == 0, "  vw %lld\n", vw);
  } else if (vw > 1) {
    ASSUME(c->in_off % vw == 0 && c->in_ld % vw == 0 && c->out_off % vw == 0 &&
               c->out_ld % vw == 0 && c->res_off % vw == 0 && c->res_ld % vw == 0,
           "  vw %lld\n", vw);
  }
  if (st->kernel == OCF_KERNEL_NORM_ROWS) {
    /* SHIFTED: a row may touch one vector more. */
    const size_t held = shifted ? (c->cols + 2 * (size_t)vw - 2) / (size_t)vw : vecs;
    ASSUME(held <= (size_t)(seg * items), "  vecs %zu seg %lld items %lld\n", held, seg, items);
    ASSUME(st->local[0] == (size_t)seg && st->local[0] * st->local[1] == (size_t)wg, "\n");
  } else if (st->kernel == OCF_KERNEL_NORM_STREAM) {
    /* One row a 1-D workgroup of SEG = WG work-items, one step; any row length. */
    ASSUME(plan->step_count == 1 && seg == wg && st->local[0] == (size_t)wg && st->local[1] == 1,
           "  seg %lld wg %lld\n", seg, wg);
    ASSUME(items >= 1 && define_of(plan, "UNROLL") >= 1, "\n");
    ASSUME(plan->local_mem_bytes >= 16 * (size_t)wg, "\n");
    ASSUME(c->variant == AUTO, "\n");
  } else if (st->kernel == OCF_KERNEL_NORM_SPLIT_STATS) {
    ASSUME(plan->step_count == 2 && plan->steps[1].kernel == OCF_KERNEL_NORM_SPLIT_APPLY, "\n");
    /* SHIFTED: a row may touch one vector more. */
    const size_t touched = shifted ? (c->cols + 2 * (size_t)vw - 2) / (size_t)vw : vecs;
    ASSUME(plan->parts * plan->part_vecs >= touched, "  vecs %zu\n", touched);
    ASSUME(plan->scratch_bytes >= (3 * c->rows * plan->parts + c->rows) * sizeof(float), "\n");
  } else if (st->kernel == OCF_KERNEL_NORM_BASE_MEAN) {
    ASSUME(plan->step_count == (c->rms ? 2u : 3u), "\n");
    ASSUME(plan->scratch_bytes >= 3 * c->rows * sizeof(float), "\n");
  } else {
    ASSUME(st->kernel == OCF_KERNEL_NORM_GENERAL, "\n");
  }
  if (c->variant == GENERAL) ASSUME(st->kernel == OCF_KERNEL_NORM_GENERAL, "\n");
  if (c->variant == BASELINE) ASSUME(st->kernel == OCF_KERNEL_NORM_BASE_MEAN, "\n");
}

/* norm's wide plans (rows.wide_wg, src/plan/plan_norm.c plan_wide) on the H200's built-in fp32
   values: 1024 x 16384 is norm_rows of one row a workgroup of 256, 16 float4 each; with the
   wide probe passed it takes 512 work-items of 8 at 128 registers, or 1024 of 4 at 64; a lower
   rows.max_regs is kept; two rows a group (8192 x 1024: 64 x 4) and the split keep their
   plans. */
static void expect_norm_wide(const char *what, const ocf_device_facts *facts,
                             const ocf_tuning_values *tuning, size_t rows, size_t cols, size_t wg,
                             long long items, int probe, int wide, unsigned regs) {
  const ocf_norm_call call = norm_call_of(0, rows, cols, 0, 0, AUTO, 0);
  ocf_plan plan;
  expect_success(what, ocf_plan_norm(facts, tuning, &call, &plan));
  char text[512];
  ocf_plan_describe(&plan, text, sizeof text);
  const size_t got = plan.steps[0].local[0] * plan.steps[0].local[1];
  if (got != wg || plan.probe != probe || plan.wide_workgroup != wide ||
      (wide && plan.max_registers != regs) || (items && plan_value(&plan, "ITEMS") != items))
    fail_msg("%s: %s: %zu work-items, probe %d, wide %d, %u registers; expected %zu (ITEMS "
             "%lld), %d, %d, %u",
             what, text, got, plan.probe, plan.wide_workgroup, plan.max_registers, wg, items, probe,
             wide, regs);
}

static void test_plan_norm_wide(void **state) {
  (void)state;
  ocf_device_facts facts = facts_of(H200, 0);
  ocf_tuning_values t = tuning_of(&facts, H200, OCF_OP_NORM);
  assert_int_equal(t.norm.rows.wide_wg, 512); /* NVIDIA's built-in value */
  t.norm.rows.wide_wg = 0;
  expect_norm_wide("off", &facts, &t, 1024, 16384, 256, 16, OCF_PLAN_PROBE_NONE, 0, 0);
  t.norm.rows.wide_wg = 512;
  expect_norm_wide("probe unknown", &facts, &t, 1024, 16384, 256, 16, OCF_PLAN_PROBE_WIDE, 0, 0);
  expect_norm_wide("two rows a group", &facts, &t, 8192, 1024, 256, 0, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide = OCF_PROBE_FAILED;
  expect_norm_wide("probe failed", &facts, &t, 1024, 16384, 256, 16, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide = OCF_PROBE_PASSED;
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = 256;
  expect_norm_wide("512", &facts, &t, 1024, 16384, 512, 8, OCF_PLAN_PROBE_NONE, 1, 128);
  {
    /* RMSNorm's rows one float into their vectors: SHIFTED where 256 work-items hold the row
       (16380 columns, 4095 vectors), which keeps them; where they do not (16384, 4097
       vectors), the wide plan, not SHIFTED. */
    ocf_norm_call shifted = norm_call_of(1, 1024, 16380, 1, 0, AUTO, 0);
    ocf_plan plan;
    expect_success("512, shifted", ocf_plan_norm(&facts, &t, &shifted, &plan));
    assert_int_equal(define_of(&plan, "SHIFTED"), 1);
    assert_int_equal(plan.steps[0].local[0], 256);
    assert_int_equal(plan.wide_workgroup, 0);
    shifted = norm_call_of(1, 1024, 16384, 1, 0, AUTO, 0);
    expect_success("512, too long to shift", ocf_plan_norm(&facts, &t, &shifted, &plan));
    assert_int_equal(define_of(&plan, "SHIFTED"), 0);
    assert_int_equal(plan.steps[0].local[0], 512);
  }
  /* Two vectors of 4 a work-item at least: 1024 of them take 512 work-items, 1023 keep the
     plan of 256. */
  expect_norm_wide("512, 8192 x 4096", &facts, &t, 8192, 4096, 512, 2, OCF_PLAN_PROBE_NONE, 1, 128);
  expect_norm_wide("512, 8192 x 4092", &facts, &t, 8192, 4092, 256, 4, OCF_PLAN_PROBE_NONE, 0, 0);
  t.norm.rows.wide_wg = 1024;
  expect_norm_wide("1024", &facts, &t, 1024, 16384, 1024, 4, OCF_PLAN_PROBE_NONE, 1, 64);
  t.norm.rows.max_regs = 48;
  expect_norm_wide("max_regs 48", &facts, &t, 1024, 16384, 1024, 4, OCF_PLAN_PROBE_NONE, 1, 48);
  t.norm.rows.max_regs = 0;
  /* 1024 vectors, one a work-item of 1024, and a row shorter than the workgroup keep their
     plans. */
  expect_norm_wide("8192 x 4096", &facts, &t, 8192, 4096, 256, 4, OCF_PLAN_PROBE_NONE, 0, 0);
  expect_norm_wide("short row", &facts, &t, 8192, 2048, 256, 0, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide_refused[OCF_KERNEL_NORM_ROWS] = 1;
  expect_norm_wide("refused", &facts, &t, 1024, 16384, 256, 16, OCF_PLAN_PROBE_NONE, 0, 0);
  ocf_device_facts amd = facts_of(AMD_GPU_1024, 0);
  ocf_tuning_values amd_t = tuning_of(&amd, AMD_GPU_1024, OCF_OP_NORM);
  amd_t.norm.rows.wide_wg = 1024;
  const ocf_norm_call call = norm_call_of(0, 1024, 16384, 0, 0, AUTO, 0);
  ocf_plan plan;
  expect_success("amd", ocf_plan_norm(&amd, &amd_t, &call, &plan));
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  amd.learnt.wide = OCF_PROBE_PASSED;
  expect_success("amd passed", ocf_plan_norm(&amd, &amd_t, &call, &plan));
  assert_int_equal(plan.wide_workgroup, 0);
}

/* The H200's norm plans by class and type (src/tuning/shipped/nvidia-h200.tuning). Narrow rows
   (cols <= 256) in vectors of 4, two a work-item, 16 rows a workgroup of 256, in every type:
   the fp32 entry applies to the 16-bit types too, and its earlier scalar accesses had left them
   at half their speed (65536 x 128 bf16 RMSNorm 1337 -> 2615 GB/s, fp32 2658 -> 3231,
   2026-12-03). Rows of 8193 .. 16384 (the wider class): fp32 loops four workgroups a compute
   unit over the rows, each loading its next row early (RMSNorm 1024 x 16384 3182 -> 3374 GB/s,
   LayerNorm 2838 -> 3170), the 16-bit types a workgroup a row (bf16 1024 x 16384 ran 2672
   GB/s looping and 3062 not); bf16's wide class (2049 .. 8192) loops (4096 x 8192 LayerNorm
   3331 looping, 3011 not), fp32's does not. Without the wide probe's result (these facts), the
   wide and wider rows take workgroups of 256, as NVIDIA reports. */
static void test_plan_norm_h200_classes(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const struct {
    ocf_dtype dtype;
    size_t rows, cols;
    const char *class_name;
    long long vw, seg, prefetch;
    size_t groups;
  } cases[] = {
      {OCF_BF16, 4096, 8192, "wide", 8, 256, 1, 4 * 132},
      {OCF_BF16, 1024, 8192, "wide", 8, 256, 1, 4 * 132},
      {OCF_BF16, 1024, 8193, "wider", 1, 256, 0, 1024}, /* 16-bit: rows.shifted=0 */
      {OCF_BF16, 1024, 16384, "wider", 8, 256, 0, 1024},
      {OCF_BF16, 2048, 16384, "wider", 8, 256, 0, 2048},
      {OCF_F16, 1024, 16384, "wider", 8, 256, 0, 1024},
      {OCF_F32, 1024, 16384, "wider", 4, 256, 1, 4 * 132},
      {OCF_F32, 2048, 16384, "wider", 4, 256, 1, 4 * 132},
      {OCF_F32, 4096, 8192, "wide", 4, 256, 0, 4096},
      {OCF_F32, 65536, 128, "narrow", 4, 16, 0, 4096},
      {OCF_BF16, 65536, 128, "narrow", 4, 16, 0, 4096},
      {OCF_F16, 65536, 128, "narrow", 4, 16, 0, 4096},
      {OCF_BF16, 16384, 256, "narrow", 4, 32, 0, 2048},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].rows, cases[i].cols, 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_NORM, &shape);
    assert_string_equal(ocf_shape_class_name(OCF_OP_NORM, c), cases[i].class_name);
    ocf_norm_call call = norm_call_of(1, cases[i].rows, cases[i].cols, 0, 0, AUTO, 0);
    call.has_res = call.has_res_out = 0;
    call.in_dtype = call.out_dtype = call.weight_dtype = cases[i].dtype;
    ocf_plan plan;
    char what[64];
    snprintf(what, sizeof what, "%s RMSNorm %zu x %zu", ocf_dtype_name(cases[i].dtype),
             cases[i].rows, cases[i].cols);
    expect_success(what,
                   ocf_plan_norm(&facts, &table[OCF_OP_NORM][cases[i].dtype][c], &call, &plan));
    const size_t groups = plan.steps[0].global[1] / plan.steps[0].local[1];
    if (plan.steps[0].kernel != OCF_KERNEL_NORM_ROWS || plan_value(&plan, "VW") != cases[i].vw ||
        plan_value(&plan, "SEG") != cases[i].seg ||
        plan_value(&plan, "PREFETCH") != cases[i].prefetch || groups != cases[i].groups) {
      char text[512];
      ocf_plan_describe(&plan, text, sizeof text);
      fail_msg("%s: %s; expected norm_rows, VW %lld, SEG %lld, PREFETCH %lld, %zu workgroups", what,
               text, cases[i].vw, cases[i].seg, cases[i].prefetch, cases[i].groups);
    }
  }
}

/* The H200's long norm rows (shipped database, the wide probe passed): fp32 rows of up to 32768
   floats are held by norm_rows in 512 work-items (stream.min_cols 32769: held ran 1.1-1.4x the
   stream), longer ones streamed; rows in vectors of 1 (odd widths) take the split, never the
   stream (split 1.2-2x the scalar stream); bf16 rows, which norm_rows does not hold, stream. */
static void test_plan_norm_h200_long(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = 256;
  facts.learnt.wide = OCF_PROBE_PASSED;
  static const struct {
    ocf_dtype dtype;
    size_t rows, cols;
    ocf_kernel_id kernel;
    size_t wg;
  } cases[] = {
      {OCF_F32, 1024, 20000, OCF_KERNEL_NORM_ROWS, 512},
      {OCF_F32, 1024, 32768, OCF_KERNEL_NORM_ROWS, 512},
      {OCF_F32, 1024, 32776, OCF_KERNEL_NORM_STREAM, 256},
      {OCF_F32, 256, 65536, OCF_KERNEL_NORM_STREAM, 256},
      {OCF_F32, 512, 50257, OCF_KERNEL_NORM_SPLIT_STATS, 256},
      {OCF_BF16, 512, 50257, OCF_KERNEL_NORM_SPLIT_STATS, 256},
      {OCF_BF16, 1024, 20000, OCF_KERNEL_NORM_STREAM, 512},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].rows, cases[i].cols, 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_NORM, &shape);
    ocf_norm_call call = norm_call_of(1, cases[i].rows, cases[i].cols, 0, 0, AUTO, 0);
    call.has_res = call.has_res_out = 0;
    call.in_dtype = call.out_dtype = call.weight_dtype = cases[i].dtype;
    ocf_plan plan;
    char what[64], text[512];
    snprintf(what, sizeof what, "%s RMSNorm %zu x %zu", ocf_dtype_name(cases[i].dtype),
             cases[i].rows, cases[i].cols);
    expect_success(what,
                   ocf_plan_norm(&facts, &table[OCF_OP_NORM][cases[i].dtype][c], &call, &plan));
    ocf_plan_describe(&plan, text, sizeof text);
    const ocf_plan_step *st = &plan.steps[0];
    if (st->kernel != cases[i].kernel || st->local[0] * st->local[1] != cases[i].wg)
      fail_msg("%s: %s; expected %s in workgroups of %zu", what, text, kernel_name(cases[i].kernel),
               cases[i].wg);
  }
}

/* norm_stream's gate (stream.min_cols, src/plan/plan_norm.c): off by default; on from exactly
   stream.min_cols columns, the default variant only; its shape (items and unroll scaled to
   vectors of 1 where the call is not aligned, groups_per_unit workgroups a compute unit or one
   a row, a fixed size kept); stream.wg beyond the kernel's reported limit asks the wide probe,
   then runs wide with registers capped, and keeps 256 when the probe failed or the wide launch
   was refused. */
static void expect_norm_stream(const char *what, const ocf_device_facts *facts,
                               const ocf_tuning_values *t, const ocf_norm_call *c, int stream,
                               size_t wg, long long vw, long long items, long long unroll,
                               size_t groups, int probe, int wide, unsigned regs) {
  ocf_plan plan;
  expect_success(what, ocf_plan_norm(facts, t, c, &plan));
  char text[512];
  ocf_plan_describe(&plan, text, sizeof text);
  const ocf_plan_step *st = &plan.steps[0];
  if ((st->kernel == OCF_KERNEL_NORM_STREAM) != stream || plan.probe != probe ||
      plan.wide_workgroup != wide || (wide && plan.max_registers != regs))
    fail_msg("%s: %s: probe %d, wide %d, %u registers", what, text, plan.probe, plan.wide_workgroup,
             plan.max_registers);
  if (!stream) return;
  check_norm_assumptions(what, &plan, c);
  if (st->local[0] != wg || define_of(&plan, "VW") != vw || define_of(&plan, "ITEMS") != items ||
      define_of(&plan, "UNROLL") != unroll || st->global[0] != groups * wg ||
      define_of(&plan, "SHUFFLE") != (facts->vendor == OCF_VENDOR_NVIDIA && wg % 32 == 0))
    fail_msg("%s: %s: expected wg %zu, VW %lld, ITEMS %lld, UNROLL %lld, %zu groups", what, text,
             wg, vw, items, unroll, groups);
}

static void test_plan_norm_stream(void **state) {
  (void)state;
  ocf_device_facts facts = facts_of(H200, 0);
  ocf_tuning_values t = tuning_of(&facts, H200, OCF_OP_NORM);
  const size_t units = facts.compute_units;
  assert_int_equal(t.norm.stream.min_cols, 0); /* off: the schema's default, no built-in value */
  ocf_norm_call c = norm_call_of(0, 1024, 16384, 0, 0, AUTO, 0);
  expect_norm_stream("off", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_WIDE, 0, 0);
  t.norm.stream.min_cols = 16384;
  expect_norm_stream("at min_cols", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE,
                     0, 0);
  c.cols = 16383;
  expect_norm_stream("one below", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_WIDE, 0, 0);
  c.cols = 16385;
  expect_norm_stream("one above", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE,
                     0, 0);
  c.rms = 1;
  expect_norm_stream("rms", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE, 0, 0);
  /* Not aligned: rows in vectors of 1 are never streamed (norm_rows or the split instead). */
  c = norm_call_of(0, 1024, 16384, 1, 0, AUTO, 0);
  expect_norm_stream("misaligned", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_WIDE, 0, 0);
  c = norm_call_of(0, 1024, 50257, 0, 0, AUTO, 0);
  expect_norm_stream("odd width", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_NONE, 0, 0);
  c = norm_call_of(0, 1024, 50256, 0, 0, AUTO, 0);
  expect_norm_stream("even width", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE,
                     0, 0);
  /* Fewer rows than workgroups asked for: one workgroup a row, down to a row a compute unit;
     one row fewer takes the split, whose slices fill the units. */
  c = norm_call_of(0, units, 65536, 0, 0, AUTO, 0);
  expect_norm_stream("a row a unit", &facts, &t, &c, 1, 256, 4, 2, 2, units, OCF_PLAN_PROBE_NONE, 0,
                     0);
  c.rows = units - 1;
  expect_norm_stream("a unit without a row", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_NONE,
                     0, 0);
  t.norm.stream.unit_rows = 0; /* no such rule: a workgroup a row however few */
  c.rows = 3;
  expect_norm_stream("3 rows, unit_rows 0", &facts, &t, &c, 1, 256, 4, 2, 2, 3, OCF_PLAN_PROBE_NONE,
                     0, 0);
  t.norm.stream.unit_rows = 2;
  c.rows = 2 * units;
  expect_norm_stream("two rows a unit", &facts, &t, &c, 1, 256, 4, 2, 2, 2 * units,
                     OCF_PLAN_PROBE_NONE, 0, 0);
  c.rows = 2 * units - 1;
  expect_norm_stream("one row short of two a unit", &facts, &t, &c, 0, 0, 0, 0, 0, 0,
                     OCF_PLAN_PROBE_NONE, 0, 0);
  t.norm.stream.unit_rows = 1;
  t.norm.stream.groups_per_unit = 0;
  c.rows = 1024;
  expect_norm_stream("a workgroup a row", &facts, &t, &c, 1, 256, 4, 2, 2, 1024,
                     OCF_PLAN_PROBE_NONE, 0, 0);
  t.norm.stream.groups_per_unit = 4;
  /* The other variants never stream; a fixed workgroup size is the stream's. */
  c = norm_call_of(0, 1024, 16384, 0, 0, GENERAL, 0);
  expect_norm_stream("general", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_NONE, 0, 0);
  c.variant = BASELINE;
  expect_norm_stream("baseline", &facts, &t, &c, 0, 0, 0, 0, 0, 0, OCF_PLAN_PROBE_NONE, 0, 0);
  c = norm_call_of(0, 1024, 16384, 0, 0, AUTO, 96);
  expect_norm_stream("fixed 96", &facts, &t, &c, 1, 96, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE, 0,
                     0);
  /* stream.wg 512 where the kernel reports 256: the probe, then wide at 128 registers. */
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = 256;
  t.norm.stream.wg = 512;
  c = norm_call_of(0, 1024, 16384, 0, 0, AUTO, 0);
  expect_norm_stream("512, probe unknown", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units,
                     OCF_PLAN_PROBE_WIDE, 0, 0);
  facts.learnt.wide = OCF_PROBE_PASSED;
  expect_norm_stream("512", &facts, &t, &c, 1, 512, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE, 1,
                     128);
  t.norm.stream.wg = 1024;
  expect_norm_stream("1024", &facts, &t, &c, 1, 1024, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE, 1,
                     64);
  t.norm.stream.wg = 256;
  expect_norm_stream("256 with the probe passed", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units,
                     OCF_PLAN_PROBE_NONE, 0, 0);
  t.norm.stream.wg = 512;
  facts.learnt.wide_refused[OCF_KERNEL_NORM_STREAM] = 1;
  expect_norm_stream("512 refused", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units, OCF_PLAN_PROBE_NONE,
                     0, 0);
  facts.learnt.wide_refused[OCF_KERNEL_NORM_STREAM] = 0;
  facts.learnt.wide = OCF_PROBE_FAILED;
  expect_norm_stream("512, probe failed", &facts, &t, &c, 1, 256, 4, 2, 2, 4 * units,
                     OCF_PLAN_PROBE_NONE, 0, 0);
  /* A device without a register cap: never wide, no probe. */
  ocf_device_facts amd = facts_of(AMD_GPU_1024, 256);
  ocf_tuning_values amd_t = tuning_of(&amd, AMD_GPU_1024, OCF_OP_NORM);
  amd_t.norm.stream.min_cols = 1, amd_t.norm.stream.wg = 1024;
  expect_norm_stream("amd", &amd, &amd_t, &c, 1, 256, 4, 2, 2, 4 * amd.compute_units,
                     OCF_PLAN_PROBE_NONE, 0, 0);
}

/* Every device, shape, layout, variant and workgroup size: a plan that fits and keeps its
   kernels' assumptions; and the kernels the built-in tuning gives the shapes. */
static void test_plan_norm(void **state) {
  (void)state;
  static const size_t widths[] = {1, 7, 64, 65, 1000, 4096, 4097, 16384, 16385, 50257, 1 << 20};
  static const size_t row_counts[] = {1, 3, 1024, 32768};
  static const size_t groups[] = {0, 1, 3, 32, 64, 256};
  for (int d = 0; d < DEVICE_COUNT; d++)
    for (size_t learnt = 0; learnt <= 32; learnt += 32)
      for (int stream = 0; stream < 2; stream++) {
        ocf_device_facts facts = facts_of((device_id)d, learnt);
        ocf_tuning_values t = tuning_of(&facts, (device_id)d, OCF_OP_NORM);
        /* With norm_stream from 4097 columns, 512 work-items asked for. */
        if (stream) t.norm.stream.min_cols = 4097, t.norm.stream.wg = 512;
        for (size_t w = 0; w < ARRAY_LEN(widths); w++)
          for (size_t r = 0; r < ARRAY_LEN(row_counts); r++)
            for (int variant = AUTO; variant <= BASELINE; variant++)
              for (size_t g = 0; g < ARRAY_LEN(groups); g++)
                for (size_t lay = 0; lay < 3; lay++) {
                  const ocf_norm_call c =
                      norm_call_of((int)(w + r) % 2, row_counts[r], widths[w], lay == 1 ? 1 : 0,
                                   lay == 2 ? 3 : 0, variant, groups[g]);
                  char what[160];
                  snprintf(what, sizeof what, "%s: norm %zu x %zu, layout %zu, variant %d, wg %zu",
                           devices[d].name, c.rows, c.cols, lay, variant, c.workgroup);
                  ocf_plan plan;
                  const ocf_status status = ocf_plan_norm(&facts, &t, &c, &plan);
                  if (c.workgroup > facts.max_workgroup_size) {
                    assert_int_equal(status, OCF_ERR_INVALID_WORKGROUP);
                    continue;
                  }
                  expect_success(what, status);
                  if (!c.workgroup) check_fits(what, &plan, &facts);
                  check_norm_assumptions(what, &plan, &c);
                }
      }
  /* The built-in tuning on the H200: rows of the table held in registers, in vectors of
     4; an odd offset takes vectors of 1, one of 2 vectors of 2; 65536 columns split. */
  ocf_device_facts h200 = facts_of(H200, 0);
  const ocf_tuning_values t = tuning_of(&h200, H200, OCF_OP_NORM);
  static const size_t held[][2] = {{8192, 4096}, {32768, 1024}, {1024, 16384}};
  for (size_t i = 0; i < ARRAY_LEN(held); i++) {
    const ocf_norm_call c = norm_call_of(0, held[i][0], held[i][1], 0, 0, AUTO, 0);
    ocf_plan plan;
    expect_success("h200", ocf_plan_norm(&h200, &t, &c, &plan));
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_NORM_ROWS);
    assert_int_equal(define_of(&plan, "VW"), 4);
  }
  /* RMSNorm's rows one float in (an offset of 1): SHIFTED (rows.shifted=2), in vectors of 4,
     one vector more a row; with y's rows elsewhere in theirs, or rows.shifted 0, vectors of 1;
     LayerNorm's in vectors of 1 unless rows.shifted is 1. */
  ocf_norm_call c = norm_call_of(1, 8192, 4096, 1, 0, AUTO, 0);
  ocf_plan plan;
  expect_norm_vectors("h200 misaligned", &h200, &t, &c, 4, 1, &plan);
  assert_true(define_of(&plan, "SEG") * define_of(&plan, "ITEMS") >= 1025);
  c.out_off = 2;
  expect_norm_vectors("h200 misaligned, out apart", &h200, &t, &c, 1, 0, &plan);
  c.out_off = 5, c.res_out_ld = c.in_ld + 4, c.weight_off = 8; /* each as far in as x's */
  expect_norm_vectors("h200 misaligned, congruent", &h200, &t, &c, 4, -1, &plan);
  c.weight_off = 2; /* the weight off its vectors of 4: SHIFTED in vectors of 2 */
  expect_norm_vectors("h200 misaligned, weight off", &h200, &t, &c, 2, 1, &plan);
  ocf_tuning_values off = t;
  off.norm.rows.shifted = 0;
  c = norm_call_of(1, 8192, 4096, 1, 0, AUTO, 0);
  expect_norm_vectors("h200 misaligned, shifted=0", &h200, &off, &c, 1, -1, &plan);
  c = norm_call_of(0, 8192, 4096, 1, 0, AUTO, 0);
  expect_norm_vectors("h200 misaligned LayerNorm", &h200, &t, &c, 1, -1, &plan);
  ocf_tuning_values both = t;
  both.norm.rows.shifted = 1;
  expect_norm_vectors("h200 misaligned LayerNorm, shifted=1", &h200, &both, &c, 4, 1, &plan);
  /* RMSNorm's rows of an odd stride (4097): SHIFTED; 13 columns take vectors of 2 at most (a
     row spans at least four), 7 of 1. */
  c = norm_call_of(1, 8192, 4097, 0, 0, AUTO, 0);
  expect_norm_vectors("h200 4097", &h200, &t, &c, 4, 1, &plan);
  c = norm_call_of(1, 8192, 13, 0, 0, AUTO, 0);
  expect_norm_vectors("h200 13", &h200, &t, &c, 2, -1, &plan);
  c = norm_call_of(1, 8192, 7, 0, 0, AUTO, 0);
  expect_norm_vectors("h200 7", &h200, &t, &c, 1, 0, &plan);
  /* Rows two floats off (a stride of 4098): vectors of 2, the same elements a work-item, not
     SHIFTED (only rows that would go element by element are), both ops. */
  c = norm_call_of(1, 8192, 4096, 2, 2, AUTO, 0);
  expect_norm_vectors("h200 two off", &h200, &t, &c, 2, 0, &plan);
  c = norm_call_of(0, 8192, 4096, 2, 2, AUTO, 0);
  expect_norm_vectors("h200 two off LayerNorm", &h200, &both, &c, 2, -1, &plan);
  assert_int_equal(define_of(&plan, "VW") * define_of(&plan, "ITEMS") * define_of(&plan, "SEG"),
                   4 * 16 * 64);
  c = norm_call_of(0, 1024, 65536, 0, 0, AUTO, 0);
  expect_success("h200 long", ocf_plan_norm(&h200, &t, &c, &plan));
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_NORM_SPLIT_STATS);
}

/* The CPU row: rows of 32768 floats and more in norm_stream (512 work-items of 8 vectors of 16:
   65536 floats held), shorter ones and bfloat16 in the split; the workgroup a row. */
static void test_plan_norm_cpu_stream(void **state) {
  (void)state;
  ocf_device_facts facts = facts_of(POCL, 0);
  ocf_tuning_values t = tuning_of(&facts, POCL, OCF_OP_NORM);
  ocf_norm_call c = norm_call_of(0, 16, 65536, 0, 0, AUTO, 0);
  expect_norm_stream("pocl 16 x 65536", &facts, &t, &c, 1, 512, 16, 8, 2, 16, 0, 0, 0);
  c = norm_call_of(1, 64, 32768, 0, 0, AUTO, 0);
  expect_norm_stream("pocl 64 x 32768 rms", &facts, &t, &c, 1, 512, 16, 8, 2, 64, 0, 0, 0);
  c = norm_call_of(0, 64, 32752, 0, 0, AUTO, 0);
  expect_norm_stream("pocl 64 x 32752", &facts, &t, &c, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  ocf_tuning_values bf16;
  assert_int_equal(
      ocf_tuning_resolve(rows, count, OCF_OP_NORM, OCF_BF16, &facts, devices[POCL].name, &bf16),
      OCF_SUCCESS);
  c = norm_call_of(0, 16, 65536, 0, 0, AUTO, 0);
  c.in_dtype = c.out_dtype = c.res_dtype = c.weight_dtype = OCF_BF16;
  expect_norm_stream("pocl 16 x 65536 bf16", &facts, &bf16, &c, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_norm),
      cmocka_unit_test(test_plan_norm_wide),
      cmocka_unit_test(test_plan_norm_h200_classes),
      cmocka_unit_test(test_plan_norm_h200_long),
      cmocka_unit_test(test_plan_norm_stream),
      cmocka_unit_test(test_plan_norm_cpu_stream),
  };
  return cmocka_run_group_tests_name("plan_norm", tests, NULL, NULL);
}
