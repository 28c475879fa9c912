/*
 * The plan suites' fixture (plan_fixture.h, whose header comment explains the method): the
 * described devices, reading plans, the calls of each op, and the kernels' assumptions that more
 * than one suite checks.
 */

#include "plan_fixture.h"

/* ---- the devices ---- */

/* One device two lines, read as a table: name, vendor; platform, type, compute units, maximum
   workgroup, work-item sizes, local memory. */
/* clang-format off */
const fake_device devices[DEVICE_COUNT] = {
    [H200]         = {"NVIDIA H200", "NVIDIA Corporation",
        "NVIDIA CUDA", GPU, 132, 1024, {1024, 1024, 64}, 48 * KIB},
    [POCL]         = {"pthread-haswell-AMD EPYC", "AuthenticAMD",
        "Portable Computing Language", CPU, 2, 4096, {4096, 4096, 4096}, 512 * KIB},
    [AMD_GPU]      = {"gfx1030", "Advanced Micro Devices, Inc.",
        "AMD Accelerated Parallel Processing", GPU, 60, 256, {1024, 1024, 1024}, 64 * KIB},
    [AMD_GPU_1024] = {"gfx1030", "Advanced Micro Devices, Inc.",
        "AMD Accelerated Parallel Processing", GPU, 60, 1024, {1024, 1024, 1024}, 64 * KIB},
    [INTEL_GPU]    = {"Intel(R) Iris(R) Xe Graphics", "Intel(R) Corporation",
        "Intel(R) OpenCL Graphics", GPU, 96, 512, {512, 512, 512}, 64 * KIB},
    [LLVMPIPE]     = {"llvmpipe (LLVM 15.0.6, 256 bits)", "Mesa/X.org",
        "rusticl", CPU, 8, 1024, {1024, 1024, 1024}, 32 * KIB},
    [APPLE_CPU]    = {"Intel(R) Core(TM) i7-8850H CPU @ 2.60GHz", "Intel",
        "Apple", CPU, 12, 1024, {1024, 1, 1}, 32 * KIB},
    [MALI]         = {"Mali-G76", "ARM",
        "ARM Platform", GPU, 12, 384, {384, 384, 384}, 16 * KIB},
    [ADRENO]       = {"QUALCOMM Adreno(TM) 640", "QUALCOMM",
        "QUALCOMM Snapdragon(TM)", GPU, 2, 1024, {1024, 1024, 1024}, 32 * KIB},
    [OCLGRIND]     = {"Oclgrind Simulator", "Oclgrind",
        "Oclgrind", 15, 1, 1024, {1024, 1024, 1024}, 32 * KIB},
};
/* clang-format on */

ocf_device_info info_of(device_id id) {
  const fake_device *d = &devices[id];
  ocf_device_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  snprintf(info.device_name, sizeof info.device_name, "%s", d->name);
  snprintf(info.vendor, sizeof info.vendor, "%s", d->vendor);
  snprintf(info.platform_name, sizeof info.platform_name, "%s", d->platform);
  info.type = d->type;
  info.compute_units = d->compute_units;
  info.max_workgroup_size = d->max_workgroup;
  for (int i = 0; i < 3; i++)
    info.max_work_item_sizes[i] = d->items[i];
  info.local_mem_bytes = d->local_bytes;
  if (id == H200) info.nv_compute_capability_major = 9; /* 9.0, cl_nv_device_attribute_query */
  return info;
}

ocf_device_facts facts_of(device_id id, size_t learnt) {
  ocf_device_info info = info_of(id);
  ocf_device_facts facts;
  ocf_device_facts_init(&facts, &info);
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = learnt;
  /* NVIDIA's driver lists cl_nv_compiler_options (the context reads it from the device) */
  facts.nv_compiler_options = id == H200;
  return facts;
}

ocf_tuning_values tuning_of(const ocf_device_facts *facts, device_id id, ocf_op op) {
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  ocf_tuning_values values;
  ocf_status status =
      ocf_tuning_resolve(rows, count, op, OCF_F32, facts, devices[id].name, &values);
  if (status != OCF_SUCCESS) {
    print_error("resolving %s for %s: %s\n", ocf_op_schema_get(op)->name, devices[id].name,
                ocf_last_error());
    fail();
  }
  return values;
}

ocf_tuning_values matmul_tuning(const ocf_device_facts *facts, device_id id, ocf_dtype dtype) {
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  ocf_tuning_values values;
  ocf_status status =
      ocf_tuning_resolve(rows, count, OCF_OP_MATMUL, dtype, facts, devices[id].name, &values);
  if (status != OCF_SUCCESS) {
    print_error("resolving matmul %s for %s: %s\n", ocf_dtype_name(dtype), devices[id].name,
                ocf_last_error());
    fail();
  }
  return values;
}

void resolve_h200(ocf_device_facts *facts, ocf_tuning_table *table) {
  *facts = facts_of(H200, 0);
  const ocf_device_info info = info_of(H200);
  char origin[256];
  assert_int_equal(ocf_tuning_resolve_library(facts, info.vendor, info.platform_name,
                                              info.device_name, table, origin, sizeof origin, NULL,
                                              NULL),
                   OCF_SUCCESS);
  assert_non_null(strstr(origin, "nvidia-h200.tuning"));
}

ocf_device_facts h200_probed(unsigned long long bytes) {
  ocf_device_facts facts = facts_of(H200, 0);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  if (bytes) {
    facts.learnt.mma = OCF_PROBE_PASSED;
    facts.learnt.mma_local_ok = bytes;
    facts.learnt.mma_local_ok_reported = bytes + 16; /* NVIDIA's own 16 bytes */
  }
  return facts;
}

ocf_device_facts with_h200_memory(ocf_device_facts facts) {
  facts.global_mem_bytes = 141ull << 30;
  facts.max_alloc_bytes = 35ull << 30;
  return facts;
}

/* ---- reading plans ---- */

const char *kernel_name(ocf_kernel_id id) {
  const ocf_kernel_desc *desc = ocf_kernel_desc_get(id);
  return desc ? desc->name : "?";
}

/* "name wg=W groups=G" for each step ("wg=NxM groups=NxM" for 2-D ones), " + " between steps. */
static void plan_shape(const ocf_plan *plan, char *out, size_t capacity) {
  size_t used = 0;
  out[0] = '\0';
  for (unsigned s = 0; s < plan->step_count && s < OCF_PLAN_MAX_STEPS; s++) {
    const ocf_plan_step *st = &plan->steps[s];
    int n;
    if (st->dims == 2)
      n = snprintf(out + used, capacity - used, "%s%s wg=%zux%zu groups=%zux%zu", s ? " + " : "",
                   kernel_name(st->kernel), st->local[0], st->local[1],
                   st->global[0] / st->local[0], st->global[1] / st->local[1]);
    else
      n = snprintf(out + used, capacity - used, "%s%s wg=%zu groups=%zu", s ? " + " : "",
                   kernel_name(st->kernel), st->local[0], st->global[0] / st->local[0]);
    if (n < 0 || (size_t)n >= capacity - used) return;
    used += (size_t)n;
  }
}

long long plan_value(const ocf_plan *plan, const char *name) {
  if (strcmp(name, "parts") == 0) return (long long)plan->parts;
  if (strcmp(name, "part_vecs") == 0) return (long long)plan->part_vecs;
  if (strcmp(name, "scratch") == 0) return (long long)plan->scratch_bytes;
  if (strcmp(name, "local_mem") == 0) return (long long)plan->local_mem_bytes;
  if (strcmp(name, "fixed") == 0) return plan->fixed_workgroup;
  if (strcmp(name, "splits") == 0) return (long long)plan->splits;
  if (strcmp(name, "k_split") == 0) return (long long)plan->k_split;
  if (strcmp(name, "swapped") == 0) return plan->swapped;
  if (strcmp(name, "max_regs") == 0) return plan->max_registers;
  if (strcmp(name, "wide") == 0) return plan->wide_workgroup;
  if (strcmp(name, "staged_k") == 0) return (long long)plan->staged_k;
  if (strcmp(name, "staged_ld") == 0) return (long long)plan->staged_ld;
  if (strcmp(name, "staged_a") == 0) return plan->staged_a;
  if (strcmp(name, "scratch_written") == 0) return plan->scratch_written;
  if (strcmp(name, "pad_lda") == 0) return (long long)plan->pad_lda;
  if (strcmp(name, "pad_rows_a") == 0) return (long long)plan->pad_rows_a;
  if (strcmp(name, "pad_ldb") == 0) return (long long)plan->pad_ldb;
  if (strcmp(name, "pad_rows_b") == 0) return (long long)plan->pad_rows_b;
  if (strcmp(name, "lw_first") == 0) return (long long)plan->lw_first;
  if (strcmp(name, "maps_at") == 0) return (long long)plan->maps_at;
  if (strcmp(name, "arrivals") == 0) return (long long)plan->arrivals;
  return ocf_plan_define_value(plan, name, -1);
}

void expect_plan(const char *what, ocf_status status, const ocf_plan *plan, const char *shape,
                 const char *values) {
  char got[512], text[256];
  if (status != OCF_SUCCESS) {
    print_error("%s: the planner failed: %s: %s\n", what, ocf_status_name(status),
                ocf_last_error());
    fail();
  }
  plan_shape(plan, got, sizeof got);
  if (strcmp(got, shape) != 0) {
    print_error("%s:\n  planned  %s\n  expected %s\n", what, got, shape);
    fail();
  }
  snprintf(text, sizeof text, "%s", values ? values : "");
  for (char *save = NULL, *pair = strtok_r(text, " ", &save); pair;
       pair = strtok_r(NULL, " ", &save)) {
    char *eq = strchr(pair, '=');
    assert_non_null(eq);
    *eq = '\0';
    long long want = strtoll(eq + 1, NULL, 10), have = plan_value(plan, pair);
    if (have != want) {
      ocf_plan_describe(plan, got, sizeof got);
      print_error("%s: %s is %lld, expected %lld\n  plan: %s\n", what, pair, have, want, got);
      fail();
    }
  }
}

void expect_success(const char *what, ocf_status status) {
  if (status != OCF_SUCCESS) {
    print_error("%s: the planner failed: %s: %s\n", what, ocf_status_name(status),
                ocf_last_error());
    fail();
  }
}

void expect_refused(const char *what, ocf_status status, const char *message) {
  if (status != OCF_ERR_INVALID_WORKGROUP || !strstr(ocf_last_error(), message)) {
    print_error("%s: %s, \"%s\"; expected OCF_ERR_INVALID_WORKGROUP and \"%s\"\n", what,
                ocf_status_name(status), ocf_last_error(), message);
    fail();
  }
}

long long define_of(const ocf_plan *plan, const char *name) {
  return ocf_plan_define_value(plan, name, -1);
}

/* ---- the calls ---- */

const layout ALIGNED = {0, 0, 16, 0, 16, 0}; /* every row start a multiple of 16 floats */
const layout TIGHT = {0, 0, 0, 0, 1, 0};     /* ld = cols: aligned when cols is */
const layout IN_OFF_1 = {1, 0, 0, 0, 16, 0}; /* in's rows one float past out's */
const layout LD_PLUS_2 = {0, 2, 0, 0, 16, 0};
const layout BOTH_OFF_1 = {1, 0, 1, 0, 16, 0}; /* in and out one float in, alike */
const layout IN_PLACE = {0, 0, 0, 0, 1, 1};

ocf_softmax_call softmax_call(size_t rows, size_t cols, const layout *l, int variant,
                              size_t workgroup) {
  size_t ld = (cols + l->round - 1) / l->round * l->round;
  const ocf_softmax_call call = {.rows = rows,
                                 .cols = cols,
                                 .in_off = l->in_off,
                                 .in_ld = ld + l->in_pad,
                                 .out_off = l->out_off,
                                 .out_ld = ld + l->out_pad,
                                 .in_dtype = OCF_F32,
                                 .out_dtype = OCF_F32,
                                 .variant = variant,
                                 .workgroup = workgroup,
                                 .in_place = l->in_place,
                                 .spans_meet = l->in_place};
  return call;
}

ocf_matmul_call matmul_call(int trans_a, int trans_b, size_t m, size_t n, size_t k, size_t ld,
                            size_t a_off, int variant, size_t workgroup) {
  ocf_matmul_call call;
  memset(&call, 0, sizeof call);
  call.trans_a = trans_a;
  call.trans_b = trans_b;
  call.m = m;
  call.n = n;
  call.k = k;
  call.a_off = a_off;
  call.lda = ld ? ld : trans_a ? m : k;
  call.ldb = ld ? ld : trans_b ? k : n;
  call.ldc = ld ? ld : n;
  call.a_dtype = call.b_dtype = call.c_dtype = OCF_F32;
  call.variant = variant;
  call.workgroup = workgroup;
  return call;
}

ocf_matmul_call typed_call(size_t m, size_t n, size_t k, ocf_dtype dtype, ocf_precision precision) {
  ocf_matmul_call call = matmul_call(0, 0, m, n, k, 0, 0, AUTO, 0);
  call.a_dtype = call.b_dtype = dtype;
  call.precision = precision;
  return call;
}

ocf_norm_call norm_call_of(int rms, size_t rows, size_t cols, size_t off, size_t ld_extra,
                           int variant, size_t workgroup) {
  ocf_norm_call c;
  memset(&c, 0, sizeof c);
  c.rms = rms, c.rows = rows, c.cols = cols;
  c.in_off = c.out_off = off, c.in_ld = c.out_ld = cols + ld_extra;
  c.variant = variant, c.workgroup = workgroup;
  c.has_weight = 1, c.has_bias = !rms, c.has_res = c.has_res_out = 1;
  c.res_off = c.res_out_off = off, c.res_ld = c.res_out_ld = cols + ld_extra;
  return c;
}

void plan_mma_case(const char *what, const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                   const ocf_matmul_call *call, const char *shape, const char *values, int probe,
                   size_t probe_bytes) {
  ocf_plan plan;
  expect_plan(what, ocf_plan_matmul(facts, tuning, call, &plan), &plan, shape, values);
  if (plan.probe != probe || (probe && plan.probe_bytes != probe_bytes)) {
    print_error("%s: probe %d of %zu bytes, expected %d of %zu\n", what, plan.probe,
                plan.probe_bytes, probe, probe_bytes);
    fail();
  }
}

/* ---- the kernels' assumptions ---- */

void check_fits(const char *what, const ocf_plan *plan, const ocf_device_facts *facts) {
  ocf_status status = ocf_plan_verify(plan, facts);
  expect_success(what, status);
  ASSUME(plan->step_count >= 1 && plan->step_count <= OCF_PLAN_MAX_STEPS, "\n");
  for (unsigned s = 0; s < plan->step_count; s++) {
    const ocf_plan_step *st = &plan->steps[s];
    size_t items = st->local[0] * st->local[1] * st->local[2];
    ASSUME(items <= ocf_facts_workgroup_limit(facts, st->kernel), "  step %u\n", s);
    for (int d = 0; d < 3; d++)
      ASSUME(st->local[d] <= facts->max_item_sizes[d] && st->global[d] % st->local[d] == 0,
             "  step %u, dimension %d\n", s, d);
  }
  ASSUME(plan->local_mem_bytes <= facts->local_mem_bytes, "\n");
}

/* The most vectors of VW any row of the call touches (cl/softmax_vector.clh's nv): ceil((head +
   cols) / VW), row r's head being (in_off + r * in_ld) % VW; the heads repeat every VW rows. */
static size_t softmax_row_vectors(const ocf_softmax_call *c, size_t vw) {
  size_t most = 0;
  for (size_t r = 0; r == 0 || (r < c->rows && r < vw); r++) {
    size_t nv = ((c->in_off + r * c->in_ld) % vw + c->cols + vw - 1) / vw;
    if (nv > most) most = nv;
  }
  return most;
}

void check_softmax_assumptions(const char *what, const ocf_plan *plan, const ocf_softmax_call *c) {
  const ocf_plan_step *st = &plan->steps[0];
  const size_t wg = (size_t)define_of(plan, "WG"), vw = (size_t)define_of(plan, "VW"),
               items = (size_t)define_of(plan, "ITEMS"),
               local_items = (size_t)define_of(plan, "LOCAL_ITEMS"),
               seg = (size_t)define_of(plan, "SEG");
  const int holds =
      st->kernel == OCF_KERNEL_SOFTMAX_RESIDENT || st->kernel == OCF_KERNEL_SOFTMAX_COOP;
  ASSUME(vw >= 1 && vw <= 16 && (vw & (vw - 1)) == 0 && vw * items <= 256, "\n");
  if (vw > 1) ASSUME(c->in_off % vw == c->out_off % vw && c->in_ld % vw == c->out_ld % vw, "\n");
  ASSUME(local_items == 0 || (holds && wg >= 4), "\n");
  ASSUME(!(holds && wg <= 2 && vw == 1), "\n");
  const size_t nv = softmax_row_vectors(c, vw);
  if (st->kernel == OCF_KERNEL_SOFTMAX_ROWS) {
    ASSUME(plan->step_count == 1 && st->dims == 2 && st->local[0] == seg &&
               st->local[0] * st->local[1] == wg && wg % seg == 0,
           "\n");
    ASSUME(nv <= seg * items, "  a row of %zu vectors\n", nv);
    ASSUME(plan->local_mem_bytes >= 4 * wg * sizeof(float), "\n");
    return;
  }
  for (unsigned s = 0; s < plan->step_count; s++)
    ASSUME(plan->steps[s].dims == 1 && plan->steps[s].local[0] == wg, "  step %u\n", s);
  ASSUME(plan->local_mem_bytes >= 2 * wg * sizeof(float) + (holds ? wg * local_items * vw * 4 : 0),
         "\n");
  const size_t rows = c->rows ? c->rows : 1;
  switch (st->kernel) {
  case OCF_KERNEL_SOFTMAX_COOP:
    ASSUME(plan->step_count == 1 && st->global[0] == rows * plan->parts * wg, "\n");
    ASSUME(!c->in_place && define_of(plan, "SPIN") > 0, "\n");
    ASSUME(plan->parts >= 2 && plan->part_vecs <= wg * (items + local_items), "\n");
    ASSUME(plan->parts * plan->part_vecs >= nv && (plan->parts - 1) * plan->part_vecs < nv, "\n");
    ASSUME(plan->scratch_bytes >= 2 * rows * plan->parts * sizeof(cl_uint), "\n");
    break;
  case OCF_KERNEL_SOFTMAX_SPLIT_STATS:
    ASSUME(plan->step_count == 2 && plan->steps[1].kernel == OCF_KERNEL_SOFTMAX_SPLIT_WRITE, "\n");
    ASSUME(plan->parts >= 2 && plan->parts * plan->part_vecs >= nv &&
               (plan->parts - 1) * plan->part_vecs < nv,
           "\n");
    ASSUME(plan->scratch_bytes >= 2 * rows * plan->parts * sizeof(float), "\n");
    break;
  case OCF_KERNEL_SOFTMAX_BASE_MAX:
    ASSUME(plan->step_count == 3 && plan->scratch_bytes >= 2 * rows * sizeof(float), "\n");
    break;
  default:
    ASSUME(plan->step_count == 1, "\n");
    break;
  }
}

/* Whether an fp32 operand's offset, leading dimension and batch stride allow aligned 4-wide
   vector accesses (the X_VEC = 1 of cl/matmul.cl and cl/matmul_skinny.cl). */
static int vec_aligned(size_t off, size_t ld, size_t stride, size_t batch) {
  return off % 4 == 0 && ld % 4 == 0 && (batch <= 1 || stride % 4 == 0);
}

/* cl/matmul_skinny.cl: C's short side (at most 16) as N_SMALL, the operands swapped when it is
   m; WG work-items in every step, RL row lanes dividing it, 4 RL rows a workgroup; the grid is
   row blocks x splits x batch; K ranges of a multiple of 4 covering K, each split's sums in
   scratch; aligned vector loads only where the operand allows them; the wide path's k lanes
   dividing its chunk of KC, its two staging buffers in the local memory planned. */
static void check_skinny_assumptions(const char *what, const ocf_plan *plan,
                                     const ocf_matmul_call *c, size_t batch) {
  const int swapped = c->m < c->n;
  const size_t rows = swapped ? c->n : c->m, small = swapped ? c->m : c->n;
  long long wg = define_of(plan, "WG"), rl = define_of(plan, "RL"), kc = define_of(plan, "KC");
  ASSUME(plan->swapped == swapped && define_of(plan, "N_SMALL") == (long long)small && small <= 16,
         "\n");
  ASSUME(wg >= 1 && rl >= 1 && wg % rl == 0 && (rl & (rl - 1)) == 0, "\n");
  for (unsigned s = 0; s < plan->step_count; s++)
    ASSUME(plan->steps[s].dims == 1 && plan->steps[s].local[0] == (size_t)wg, "  step %u\n", s);
  const size_t blocks = (rows + 4 * (size_t)rl - 1) / (4 * (size_t)rl);
  ASSUME(plan->steps[0].global[0] == (blocks ? blocks : 1) * plan->splits * batch * (size_t)wg,
         "\n");
  ASSUME(define_of(plan, "SPLIT") == (plan->splits > 1), "\n");
  const long long join = define_of(plan, "JOIN");
  if (plan->splits > 1 && join) {
    /* the split and its reduce in one launch: a counter a row block of each product */
    ASSUME(plan->step_count == 1 && plan->steps[0].kernel == OCF_KERNEL_MATMUL_SKINNY_JOIN &&
               plan->arrivals == (blocks ? blocks : 1) * batch,
           "\n");
  } else if (plan->splits > 1) {
    ASSUME(plan->step_count == 2 && plan->steps[0].kernel == OCF_KERNEL_MATMUL_SKINNY_SPLIT &&
               plan->steps[1].kernel == OCF_KERNEL_MATMUL_SKINNY_REDUCE && plan->arrivals == 0,
           "\n");
  }
  if (plan->splits > 1) {
    ASSUME(plan->k_split % 4 == 0 && (plan->splits - 1) * plan->k_split < c->k &&
               plan->splits * plan->k_split >= c->k,
           "\n");
    ASSUME(plan->scratch_bytes >= plan->splits * rows * small * batch * sizeof(float), "\n");
    if (!join) ASSUME(plan->steps[1].global[0] >= rows * small * batch, "\n");
  } else {
    ASSUME(plan->step_count == 1 && plan->steps[0].kernel == OCF_KERNEL_MATMUL_SKINNY && !join,
           "\n");
  }
  /* X is B's buffer when swapped, else A's; V the other */
  const size_t x_off = swapped ? c->b_off : c->a_off, x_ld = swapped ? c->ldb : c->lda;
  const size_t x_stride = swapped ? c->stride_b : c->stride_a;
  if (define_of(plan, "X_VEC")) ASSUME(vec_aligned(x_off, x_ld, x_stride, batch), "\n");
  ASSUME(define_of(plan, "X_KCONT") == (swapped ? c->trans_b != 0 : c->trans_a == 0), "\n");
  ASSUME(plan->local_mem_bytes >= (size_t)wg * 16 * sizeof(float), "\n");
  if (define_of(plan, "WIDE") == 1) {
    const size_t xs = define_of(plan, "X_KCONT") ? 4 * (size_t)rl * ((size_t)kc + 1)
                                                 : (size_t)kc * (4 * (size_t)rl + 4);
    ASSUME(kc % 4 == 0 && kc % (wg / rl) == 0, "\n");
    ASSUME(plan->local_mem_bytes >= 2 * (xs + (size_t)kc * ((small + 3) / 4 * 4)) * sizeof(float),
           "\n");
  }
}

/* Rule 5 of plan_matmul.c: matmul_pad copies every fp32 operand that cannot take aligned vector
   loads, and otherwise only an fp32 operand across a rim (tiled.pad_waves: its rows, columns or
   K off whole tiles), into rows of a multiple of 4 floats, the copies' floats the plan's scratch
   (written whole); a grid of whole workgroups of PAD_WG; the automatic variant only, never
   split. */
static void check_pad_assumptions(const char *what, const ocf_plan *plan, const ocf_matmul_call *c,
                                  size_t batch) {
  const ocf_plan_step *st = &plan->steps[0];
  ASSUME(c->variant == AUTO && c->workgroup == 0 && !c->no_staging && c->m && c->n && c->k, "\n");
  ASSUME(st->dims == 1 && st->local[0] == (size_t)define_of(plan, "PAD_WG"), "\n");
  const int pad_a = plan->pad_lda != 0, pad_b = plan->pad_ldb != 0;
  ASSUME(define_of(plan, "A_PAD") == pad_a && define_of(plan, "B_PAD") == pad_b && (pad_a || pad_b),
         "\n");
  const size_t mwg = (size_t)(define_of(plan, "MDIMC") * define_of(plan, "MWI"));
  const size_t nwg = (size_t)(define_of(plan, "NDIMC") * define_of(plan, "NWI"));
  const size_t kwg = (size_t)define_of(plan, "KWG");
  const int misaligned_a = !vec_aligned(c->a_off, c->lda, c->stride_a, batch);
  const int misaligned_b = !vec_aligned(c->b_off, c->ldb, c->stride_b, batch);
  const int rim_a = c->m % mwg != 0 || c->k % kwg != 0, rim_b = c->n % nwg != 0 || c->k % kwg != 0;
  ASSUME((!pad_a || c->a_dtype == OCF_F32) && (!pad_b || c->b_dtype == OCF_F32), "\n");
  ASSUME(pad_a >= (c->a_dtype == OCF_F32 && misaligned_a) &&
             pad_b >= (c->b_dtype == OCF_F32 && misaligned_b),
         "\n");
  ASSUME((!pad_a || misaligned_a || rim_a) && (!pad_b || misaligned_b || rim_b), "\n");
  ASSUME(plan->pad_lda % 4 == 0 && plan->pad_ldb % 4 == 0, "\n");
  ASSUME(plan->scratch_written &&
             plan->scratch_bytes ==
                 batch * (plan->pad_rows_a * plan->pad_lda + plan->pad_rows_b * plan->pad_ldb) *
                     sizeof(float),
         "\n");
}

void check_matmul_assumptions(const char *what, const ocf_plan *plan, const ocf_matmul_call *c,
                              const ocf_device_facts *facts) {
  const size_t batch = c->batch ? c->batch : 1;
  ASSUME(plan->max_registers == 0 || facts->nv_compiler_options, "\n");
  if (plan->program == OCF_PROGRAM_MATMUL_SKINNY) {
    ASSUME(c->variant == AUTO && (c->m <= 16 || c->n <= 16) && c->m > 0 && c->n > 0, "\n");
    check_skinny_assumptions(what, plan, c, batch);
    return;
  }
  const ocf_plan_step *st = &plan->steps[0];
  const int padded = st->kernel == OCF_KERNEL_MATMUL_PAD;
  if (padded) { /* rule 5: the copies, then matmul_tiled_pad (checked below with the others) */
    check_pad_assumptions(what, plan, c, batch);
    st = &plan->steps[1];
  } else {
    ASSUME(define_of(plan, "A_PAD") == 0 && define_of(plan, "B_PAD") == 0 && plan->pad_lda == 0 &&
               plan->pad_ldb == 0,
           "\n");
  }
  /* The baseline is a program of its own (cl/baselines/matmul_naive.cl). */
  ASSUME(plan->program == (st->kernel == OCF_KERNEL_MATMUL_NAIVE ? OCF_PROGRAM_MATMUL_BASELINE
                                                                 : OCF_PROGRAM_MATMUL),
         "\n");
  long long mdimc = define_of(plan, "MDIMC"), ndimc = define_of(plan, "NDIMC");
  ASSUME(st->dims == 2, "\n");
  ASSUME((size_t)ndimc == st->local[0] && (size_t)mdimc == st->local[1], "\n");
  ASSUME(define_of(plan, "TRANS_A") == (c->trans_a != 0) &&
             define_of(plan, "TRANS_B") == (c->trans_b != 0),
         "\n");
  if (st->kernel == OCF_KERNEL_MATMUL_NAIVE) {
    ASSUME(plan->step_count == 1 && st->global[0] >= c->n * batch && st->global[1] >= c->m, "\n");
    return;
  }
  long long mwi = define_of(plan, "MWI"), nwi = define_of(plan, "NWI"),
            kwg = define_of(plan, "KWG"), vwm = define_of(plan, "VWM"),
            vwn = define_of(plan, "VWN"), pada = define_of(plan, "PADA"),
            padb = define_of(plan, "PADB");
  long long mwg = mdimc * mwi, nwg = ndimc * nwi;
  const size_t parts = c->precision == OCF_PRECISION_3XTF32 ? 2 : 1;
  ASSUME(mwg % 4 == 0 && nwg % 4 == 0 && kwg % 4 == 0 && pada % 4 == 0 && padb % 4 == 0, "\n");
  ASSUME(mwi % vwm == 0 && nwi % vwn == 0 && mwi <= 16 && nwi <= 16 && mwi * nwi <= 256, "\n");
  ASSUME(plan->local_mem_bytes ==
             parts * (size_t)(2 * kwg * (mwg + pada + nwg + padb)) * sizeof(float),
         "\n");
  const size_t n_tiles = (c->n ? c->n + (size_t)nwg - 1 : (size_t)nwg) / (size_t)nwg;
  const size_t m_tiles = (c->m ? c->m + (size_t)mwg - 1 : (size_t)mwg) / (size_t)mwg;
  const int stream = st->kernel == OCF_KERNEL_MATMUL_TILED_STREAM;
  if (stream) {
    /* One row of workgroups, each one range of the tiles' K slices, none empty; two partial
       tiles a workgroup and a counter a tile; the joins' fences (cl/join.clh). */
    const size_t groups = st->global[0] / st->local[0];
    const size_t slices = (c->k + (size_t)kwg - 1) / (size_t)kwg;
    ASSUME(c->variant == AUTO && c->workgroup == 0 && plan->step_count == 1 && plan->splits == 1,
           "\n");
    ASSUME(st->global[1] == st->local[1] && groups >= 2 &&
               groups <= m_tiles * n_tiles * batch * slices,
           "\n");
    ASSUME(plan->scratch_written &&
               plan->scratch_bytes == groups * 2 * (size_t)(mwg * nwg) * sizeof(float) &&
               plan->arrivals == m_tiles * n_tiles * batch,
           "\n");
    ASSUME(define_of(plan, "JOIN") == ocf_plan_join_fences(facts, 1) &&
               define_of(plan, "JOIN") != 0,
           "\n");
  } else {
    ASSUME(st->global[0] / st->local[0] == n_tiles * plan->splits * batch &&
               st->global[1] / st->local[1] == m_tiles,
           "\n");
    ASSUME(define_of(plan, "JOIN") == 0 && plan->arrivals == 0, "\n");
  }
  /* (16-bit operands always: their vloads need no alignment; copies are aligned) */
  if (define_of(plan, "A_VEC") && !padded && c->a_dtype == OCF_F32)
    ASSUME(vec_aligned(c->a_off, c->lda, c->stride_a, batch), "\n");
  if (define_of(plan, "B_VEC") && !padded && c->b_dtype == OCF_F32)
    ASSUME(vec_aligned(c->b_off, c->ldb, c->stride_b, batch), "\n");
  if (define_of(plan, "C_VEC")) ASSUME(vec_aligned(c->c_off, c->ldc, c->stride_c, batch), "\n");
  if (st->kernel == OCF_KERNEL_MATMUL_TILED_FAST)
    ASSUME(c->m % mwg == 0 && c->n % nwg == 0 && c->k % kwg == 0, "\n");
  ASSUME(define_of(plan, "SPLIT_K") == (stream                                        ? 2
                                        : st->kernel == OCF_KERNEL_MATMUL_TILED_SPLIT ? 1
                                                                                      : 0),
         "\n");
  if (st->kernel == OCF_KERNEL_MATMUL_TILED_SPLIT) {
    ASSUME(c->variant == AUTO && plan->splits >= 2 && plan->k_split % (size_t)kwg == 0, "\n");
    ASSUME((plan->splits - 1) * plan->k_split < c->k && plan->splits * plan->k_split >= c->k, "\n");
    ASSUME(plan->scratch_bytes >=
               plan->splits * c->m * ((c->n + 3) / 4 * 4) * batch * sizeof(float),
           "\n");
    ASSUME(plan->step_count == 2 && plan->steps[1].kernel == OCF_KERNEL_MATMUL_REDUCE &&
               plan->steps[1].local[0] == (size_t)define_of(plan, "REDUCE_WG") &&
               plan->steps[1].global[0] >= c->m * c->n * batch,
           "\n");
  } else if (stream) {
    /* (checked with the grid above) */
  } else if (padded) {
    ASSUME(plan->step_count == 2 && plan->splits == 1 && st->kernel == OCF_KERNEL_MATMUL_TILED_PAD,
           "\n");
    /* The copies hold whole tiles and K slices along every dimension. */
    const size_t rows_a = c->trans_a ? c->k : c->m, cols_a = c->trans_a ? c->m : c->k;
    const size_t rows_b = c->trans_b ? c->n : c->k, cols_b = c->trans_b ? c->k : c->n;
    const size_t ra = c->trans_a ? (size_t)kwg : (size_t)mwg,
                 ca = c->trans_a ? (size_t)mwg : (size_t)kwg;
    const size_t rb = c->trans_b ? (size_t)nwg : (size_t)kwg,
                 cb = c->trans_b ? (size_t)kwg : (size_t)nwg;
    if (plan->pad_lda)
      ASSUME(plan->pad_rows_a >= rows_a && plan->pad_rows_a % ra == 0 && plan->pad_lda >= cols_a &&
                 plan->pad_lda % ca == 0 && define_of(plan, "A_VEC") == 1,
             "\n");
    if (plan->pad_ldb)
      ASSUME(plan->pad_rows_b >= rows_b && plan->pad_rows_b % rb == 0 && plan->pad_ldb >= cols_b &&
                 plan->pad_ldb % cb == 0 && define_of(plan, "B_VEC") == 1,
             "\n");
  } else {
    ASSUME(plan->step_count == 1 && plan->splits == 1, "\n");
  }
}
