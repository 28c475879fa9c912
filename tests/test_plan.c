/*
 * The planner and the tuning rows, for devices that are not here. This suite links only the
 * device-free objects (oclfuse_plan: tuning, planning, kernel descriptors) and no OpenCL library,
 * so it runs where no OpenCL platform is installed, and a planner that called OpenCL would not
 * even link. No test creates a context.
 *
 * Each device is described as a context would see it (an ocf_device_info made into
 * ocf_device_facts, the kernel limits learnt from built kernels set by hand), its built-in tuning
 * resolved, and then:
 *   - the plan of each op is asserted for a table of shapes, the edges between plans included;
 *   - every default plan, under kernel limits of 1 to 256 work-items and 16 KiB of local memory,
 *     fits and meets the assumptions its kernels write down;
 *   - a workgroup size the caller fixed is kept as given, or refused when the device cannot run
 *     it.
 * The expected values are derived in the comments beside them from the rules the planner and the
 * tunables document (src/plan/, src/tuning/schema_<op>.c, the notes in src/tuning/builtin.tuning)
 * and from the kernels' own headers (cl/<op>.cl), not read off the planner's code.
 */
#include "plan/plan.h"
#include "tuning/db.h"
#include "tuning/shape_class.h"
#include "tuning/tuning.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define KIB 1024ull

enum { AUTO = OCF_VARIANT_AUTO, GENERAL = OCF_VARIANT_GENERAL, BASELINE = OCF_VARIANT_BASELINE };

/* ---- the devices ---- */

typedef enum device_id {
  H200,         /* NVIDIA's OpenCL; its compiler reports 256 work-items for these kernels */
  POCL,         /* PoCL 3.1 on the 2-core CI machine, as clinfo reports it there */
  AMD_GPU,      /* wavefront 64; ROCm reports 256 work-items a workgroup by default */
  AMD_GPU_1024, /* the same GPU where the runtime reports 1024 */
  INTEL_GPU,    /* Xe graphics: 512 work-items, 64 KiB local memory */
  LLVMPIPE,     /* Mesa 22.3 rusticl on llvmpipe, as on the CI machine: kernels report 32 */
  APPLE_CPU,    /* Apple's CPU device: work-items along dimension 0 only, kernels report 1 */
  MALI,         /* ARM Mali (Bifrost): a device maximum of 384, small local memory; kernels
                   report what their registers allow (8 to 32 here) */
  ADRENO,       /* Qualcomm Adreno: two compute units, 32 KiB local memory, register-limited */
  OCLGRIND,     /* Oclgrind 21.10's simulator: every device type at once (15), one compute unit */
  DEVICE_COUNT
} device_id;

typedef struct fake_device {
  const char *name, *vendor, *platform;
  cl_device_type type;
  unsigned compute_units;
  size_t max_workgroup, items[3];
  unsigned long long local_bytes;
} fake_device;

#define GPU CL_DEVICE_TYPE_GPU
#define CPU CL_DEVICE_TYPE_CPU

/* One device two lines, read as a table: name, vendor; platform, type, compute units, maximum
   workgroup, work-item sizes, local memory. */
/* clang-format off */
static const fake_device devices[DEVICE_COUNT] = {
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

/* The description a context would read from the device. */
static ocf_device_info info_of(device_id id) {
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

/* The device's facts once every kernel has reported a limit of `learnt` work-items (0: none
   reported yet, before the first build). */
static ocf_device_facts facts_of(device_id id, size_t learnt) {
  ocf_device_info info = info_of(id);
  ocf_device_facts facts;
  ocf_device_facts_init(&facts, &info);
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = learnt;
  /* NVIDIA's driver lists cl_nv_compiler_options (the context reads it from the device) */
  facts.nv_compiler_options = id == H200;
  return facts;
}

/* The built-in tuning of `op` for a device; resolving it must succeed. */
static ocf_tuning_values tuning_of(const ocf_device_facts *facts, device_id id, ocf_op op) {
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

/* ---- reading plans ---- */

static const char *kernel_name(ocf_kernel_id id) {
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

/* A value of the plan by name: an upper-case name is a -D value, parts / part_vecs / scratch /
   local_mem / fixed / splits / k_split / swapped / max_regs / staged_k / staged_ld / staged_a /
   scratch_written / pad_lda / pad_rows_a / pad_ldb / pad_rows_b / lw_first the plan's fields. -1
   when the plan has no such value. */
static long long plan_value(const ocf_plan *plan, const char *name) {
  if (strcmp(name, "parts") == 0) return (long long)plan->parts;
  if (strcmp(name, "part_vecs") == 0) return (long long)plan->part_vecs;
  if (strcmp(name, "scratch") == 0) return (long long)plan->scratch_bytes;
  if (strcmp(name, "local_mem") == 0) return (long long)plan->local_mem_bytes;
  if (strcmp(name, "fixed") == 0) return plan->fixed_workgroup;
  if (strcmp(name, "splits") == 0) return (long long)plan->splits;
  if (strcmp(name, "k_split") == 0) return (long long)plan->k_split;
  if (strcmp(name, "swapped") == 0) return plan->swapped;
  if (strcmp(name, "max_regs") == 0) return plan->max_registers;
  if (strcmp(name, "staged_k") == 0) return (long long)plan->staged_k;
  if (strcmp(name, "staged_ld") == 0) return (long long)plan->staged_ld;
  if (strcmp(name, "staged_a") == 0) return plan->staged_a;
  if (strcmp(name, "scratch_written") == 0) return plan->scratch_written;
  if (strcmp(name, "pad_lda") == 0) return (long long)plan->pad_lda;
  if (strcmp(name, "pad_rows_a") == 0) return (long long)plan->pad_rows_a;
  if (strcmp(name, "pad_ldb") == 0) return (long long)plan->pad_ldb;
  if (strcmp(name, "pad_rows_b") == 0) return (long long)plan->pad_rows_b;
  if (strcmp(name, "lw_first") == 0) return (long long)plan->lw_first;
  return ocf_plan_define_value(plan, name, -1);
}

/* Asserts that the planner succeeded, that the plan's steps read `shape` and that every
   "NAME=value" of `values` holds. */
static void expect_plan(const char *what, ocf_status status, const ocf_plan *plan,
                        const char *shape, const char *values) {
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

/* ---- device facts and vendors ---- */

/* A CPU device gets the CPU rows whoever made the chip; a GPU's vendor comes from its vendor
   string or its platform's name; zero limits read as 1. */
static void test_plan_device_facts(void **state) {
  (void)state;
  static const struct {
    device_id device;
    ocf_vendor vendor;
  } expected[] = {
      {H200, OCF_VENDOR_NVIDIA},     {POCL, OCF_VENDOR_OTHER},      {AMD_GPU, OCF_VENDOR_AMD},
      {INTEL_GPU, OCF_VENDOR_INTEL}, {LLVMPIPE, OCF_VENDOR_OTHER},  {APPLE_CPU, OCF_VENDOR_OTHER},
      {MALI, OCF_VENDOR_ARM},        {ADRENO, OCF_VENDOR_QUALCOMM},
  };
  for (size_t i = 0; i < ARRAY_LEN(expected); i++) {
    ocf_device_facts facts = facts_of(expected[i].device, 0);
    assert_int_equal(facts.vendor, expected[i].vendor);
    assert_int_equal(facts.compute_units, devices[expected[i].device].compute_units);
    assert_int_equal(facts.local_mem_bytes, devices[expected[i].device].local_bytes);
  }
  assert_int_equal(ocf_vendor_classify("Apple", "Apple"), OCF_VENDOR_APPLE);
  assert_int_equal(ocf_vendor_classify(NULL, "AMD Accelerated Parallel Processing"),
                   OCF_VENDOR_AMD);
  assert_int_equal(ocf_vendor_classify("Mesa/X.org", "rusticl"), OCF_VENDOR_OTHER);

  ocf_device_info info = info_of(H200);
  info.compute_units = 0;
  info.max_workgroup_size = 0;
  info.max_work_item_sizes[2] = 0;
  ocf_device_facts facts;
  ocf_device_facts_init(&facts, &info);
  assert_int_equal(facts.compute_units, 1);
  assert_int_equal(facts.max_workgroup_size, 1);
  assert_int_equal(facts.max_item_sizes[2], 1);

  /* The limit a plan stays within: the device's, or a kernel's learnt one below it. */
  facts = facts_of(H200, 0);
  assert_int_equal(ocf_facts_workgroup_limit(&facts, OCF_KERNEL_ADD_VECTOR), 1024);
  facts.learnt.kernel_max_workgroup[OCF_KERNEL_ADD_VECTOR] = 256;
  assert_int_equal(ocf_facts_workgroup_limit(&facts, OCF_KERNEL_ADD_VECTOR), 256);
  assert_int_equal(ocf_facts_workgroup_limit(&facts, OCF_KERNEL_ADD_GENERAL), 1024);
  facts.learnt.kernel_max_workgroup[OCF_KERNEL_ADD_VECTOR] = 4096; /* above the device's: ignored */
  assert_int_equal(ocf_facts_workgroup_limit(&facts, OCF_KERNEL_ADD_VECTOR), 1024);
}

/* ---- tuning rows ---- */

/* Every built-in row parses on its own, is used by at least one of the devices here, and the
   values every device resolves pass the validator; what a device resolves reads back the same
   through the formatter and the parser. */
static void test_plan_builtin_rows(void **state) {
  (void)state;
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  assert_true(count > 0);
  int used[64] = {0};
  assert_true(count <= ARRAY_LEN(used));
  for (size_t r = 0; r < count; r++) {
    ocf_tuning_values values;
    ocf_tuning_fallbacks(rows[r].key.op, &values);
    char origin[48];
    snprintf(origin, sizeof origin, "built-in row %zu", r);
    if (ocf_tuning_parse(rows[r].key.op, rows[r].values, &values, origin) != OCF_SUCCESS) {
      print_error("%s\n", ocf_last_error());
      fail();
    }
    assert_non_null(rows[r].note);
  }
  for (int d = 0; d < DEVICE_COUNT; d++) {
    ocf_device_facts facts = facts_of((device_id)d, 0);
    for (size_t r = 0; r < count; r++)
      used[r] |= ocf_tuning_key_matches(&rows[r].key, &facts, devices[d].name);
    for (int op = 0; op < OCF_OP_COUNT; op++) {
      ocf_tuning_values values = tuning_of(&facts, (device_id)d, (ocf_op)op), again;
      char text[OCF_TUNING_TEXT_MAX];
      ocf_tuning_format((ocf_op)op, &values, text, sizeof text);
      memset(&again, 0, sizeof again);
      assert_int_equal(ocf_tuning_parse((ocf_op)op, text, &again, "formatted"), OCF_SUCCESS);
      assert_memory_equal(&again, &values, sizeof values);
    }
  }
  for (size_t r = 0; r < count; r++)
    if (!used[r]) {
      print_error("built-in row %zu (%s) matches none of the devices of this suite\n", r,
                  rows[r].values);
      fail();
    }
}

/* The most specific matching row wins whatever the table order; rows of other ops, types or
   devices are not read. */
static void test_plan_row_specificity(void **state) {
  (void)state;
  const ocf_tuning_row rows[] = {
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_NVIDIA, GPU, "H200"}, "wg=64", "device"},
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL}, "wg=256 vw=8", "vendor and type"},
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_ANY, GPU, NULL}, "wg=512 vw=2 groups_per_unit=3", "type"},
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_AMD, GPU, NULL}, "wg=16", "another vendor"},
      {{OCF_OP_SOFTMAX, OCF_F32, OCF_VENDOR_ANY, 0, NULL}, "wg=bad", "another op"},
      {{OCF_OP_ADD, OCF_F16, OCF_VENDOR_ANY, 0, NULL}, "wg=bad", "another type"},
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_ANY, 0, "A100"}, "wg=bad", "another device"},
  };
  ocf_device_facts facts = facts_of(H200, 0);
  ocf_tuning_values values;
  assert_int_equal(ocf_tuning_resolve(rows, ARRAY_LEN(rows), OCF_OP_ADD, OCF_F32, &facts,
                                      "NVIDIA H200", &values),
                   OCF_SUCCESS);
  assert_int_equal(values.add.wg, 64);
  assert_int_equal(values.add.vw, 8);
  assert_int_equal(values.add.groups_per_unit, 3);
}

/* A row that does not parse or breaks a rule is reported, naming the row and the tunable; rows
   at the edges of the rules pass. */
static void test_plan_bad_rows_reported(void **state) {
  (void)state;
  static const struct {
    ocf_op op;
    const char *values, *message;
  } bad[] = {
      {OCF_OP_ADD, "wg=64 width=4", "no tunable \"width\""},
      {OCF_OP_ADD, "wg=sixty", "wg has no decimal int"},
      {OCF_OP_ADD, "wg=64x", "wg has no decimal int"},
      {OCF_OP_ADD, "wg 64", "is not name=value"},
      {OCF_OP_ADD, "vw=3", "vw = 3 is outside [1, 16] or not a power of two"},
      {OCF_OP_ADD, "wg=0", "wg = 0 is outside"},
      {OCF_OP_SOFTMAX, "wg=64 min_wg=128", "long_rows.min_wg may not exceed long_rows.wg"},
      /* registers: vw * items at most 256 floats (16 x 16 = 256 passes, 16 x 17 does not) */
      {OCF_OP_SOFTMAX, "vw=16 items=17", "holds at most 256 floats in registers"},
      /* softmax_rows: vw * seg_items * (1 + prefetch) at most 128 floats: 4 x 32 passes alone,
         not prefetching */
      {OCF_OP_SOFTMAX, "vw=8 seg_items=32", "holds at most 128 floats"},
      {OCF_OP_SOFTMAX, "vw=4 seg_items=32 prefetch=1", "holds at most 128 floats"},
      {OCF_OP_SOFTMAX, "prefetch=2", "prefetch = 2 is outside [0, 1]"},
      {OCF_OP_SOFTMAX, "seg_align=24", "seg_align = 24 is outside [1, 64] or not a power of two"},
      {OCF_OP_MATMUL, "set0.kwg=6", "global loads along K come in groups of 4"},
      {OCF_OP_MATMUL, "set0.mwi=2 set0.vwm=4", "a work-item's rows are whole vectors"},
      {OCF_OP_MATMUL, "set1.mdimc=1 set1.mwi=2 set1.vwm=2", "global loads along M"},
      /* attention_wgmma's register cap: 0 or at least 64 (63 fails; 0 and 64 pass below) */
      {OCF_OP_ATTENTION, "wgmma.max_regs=63", "wgmma.max_regs is 0 or at least 64"},
  };
  ocf_device_facts facts = facts_of(POCL, 0);
  for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
    const ocf_tuning_row rows[] = {
        {{bad[i].op, OCF_F32, OCF_VENDOR_ANY, 0, NULL}, "", "an empty row"},
        {{bad[i].op, OCF_F32, OCF_VENDOR_ANY, CPU, NULL}, bad[i].values, "the bad row"},
    };
    ocf_tuning_values values;
    ocf_status status =
        ocf_tuning_resolve(rows, 2, bad[i].op, OCF_F32, &facts, devices[POCL].name, &values);
    if (status != OCF_ERR_INVALID_VALUE || !strstr(ocf_last_error(), bad[i].message)) {
      print_error("row \"%s\": %s, \"%s\"; expected OCF_ERR_INVALID_VALUE and \"%s\"\n",
                  bad[i].values, ocf_status_name(status), ocf_last_error(), bad[i].message);
      fail();
    }
  }
  /* The rules' edges pass. */
  static const struct {
    ocf_op op;
    const char *values;
  } edges[] = {{OCF_OP_SOFTMAX, "vw=16 items=16"},
               {OCF_OP_SOFTMAX, "vw=4 seg_items=32"},
               {OCF_OP_SOFTMAX, "vw=4 seg_items=16 prefetch=1"},
               {OCF_OP_ATTENTION, "wgmma.max_regs=64"},
               {OCF_OP_ATTENTION, "wgmma.max_regs=0"}};
  for (size_t i = 0; i < ARRAY_LEN(edges); i++) {
    const ocf_tuning_row rows[] = {
        {{edges[i].op, OCF_F32, OCF_VENDOR_ANY, CPU, NULL}, edges[i].values, "an edge row"}};
    ocf_tuning_values values;
    if (ocf_tuning_resolve(rows, 1, edges[i].op, OCF_F32, &facts, devices[POCL].name, &values) !=
        OCF_SUCCESS) {
      print_error("row \"%s\": %s\n", edges[i].values, ocf_last_error());
      fail();
    }
  }
  /* A parse error names the row by its index in the table. */
  const ocf_tuning_row rows[] = {
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_ANY, 0, NULL}, "wg=64", "fine"},
      {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_ANY, CPU, NULL}, "wg=", "broken"},
  };
  ocf_tuning_values values;
  assert_int_equal(ocf_tuning_resolve(rows, 2, OCF_OP_ADD, OCF_F32, &facts, "x", &values),
                   OCF_ERR_INVALID_VALUE);
  assert_non_null(strstr(ocf_last_error(), "tuning row 1"));
}

/* ---- add ---- */

typedef struct add_case {
  device_id device;
  size_t learnt; /* the kernel limit learnt so far, 0: none */
  size_t n, x_off, y_off, out_off;
  int variant;
  const char *shape, *values;
} add_case;

/*
 * Rules (cl/add.cl, src/tuning/schema_add.c): add_vector when every offset is a multiple of VW,
 * add_general otherwise or when asked for, add_baseline (one element a work-item) when asked
 * for. The workgroup is the tuned `wg`, cut to the device's and the kernel's limits. The vector
 * and general kernels loop grid-stride over at most wg x compute units x groups_per_unit
 * work-items (no cap when groups_per_unit is 0: one vector a work-item), and over at least the
 * work-items the ragged tail needs (n % VW of them).
 *
 * Rows: H200 wg=256 vw=4 groups_per_unit=16 (the cap: 256 x 132 x 16 = 540672 work-items);
 * CPUs wg=64 vw=8 groups_per_unit=0; AMD wg=256 vw=4 16; Intel wg=256 vw=4 8; Mali and Adreno
 * have no row of their own: the fallbacks wg=128 vw=4 groups_per_unit=8.
 */
static const add_case add_cases[] = {
    /* 1000 floats, aligned: 250 float4 in one group of 256 work-items. */
    {H200, 0, 1000, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "WG=256 VW=4 fixed=0"},
    /* The same once the 256 cap is learnt: the row was measured under it, nothing changes. */
    {H200, 256, 1000, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "WG=256 VW=4"},
    /* 2^24 floats = 4194304 float4, above the 540672 cap: 132 x 16 = 2112 groups. */
    {H200, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=2112", "WG=256 VW=4"},
    {H200, 256, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=2112", "WG=256 VW=4"},
    /* 2^20 floats = 262144 float4, below the cap: one vector a work-item, 1024 groups. */
    {H200, 0, 1 << 20, 0, 0, 0, AUTO, "add_vector wg=256 groups=1024", "WG=256 VW=4"},
    /* Offsets that are all multiples of 4 keep the vector kernel ... */
    {H200, 0, 1000, 4, 8, 12, AUTO, "add_vector wg=256 groups=1", "VW=4"},
    /* ... and any one that is not takes the scalar kernel: 1000 elements, 4 groups. */
    {H200, 0, 1000, 2, 0, 0, AUTO, "add_general wg=256 groups=4", "WG=256"},
    {H200, 0, 1000, 0, 1, 0, AUTO, "add_general wg=256 groups=4", "WG=256"},
    {H200, 0, 1000, 0, 0, 3, AUTO, "add_general wg=256 groups=4", "WG=256"},
    /* The scalar loop has the same cap: 2^24 elements in 2112 groups. */
    {H200, 0, 1 << 24, 1, 0, 0, AUTO, "add_general wg=256 groups=2112", "WG=256"},
    {H200, 0, 1000, 0, 0, 0, GENERAL, "add_general wg=256 groups=4", "WG=256"},
    /* The baseline has no loop: 2^24 / 256 = 65536 groups. */
    {H200, 0, 1 << 24, 0, 0, 0, BASELINE, "add_baseline wg=256 groups=65536", "WG=256"},
    {H200, 0, 1000, 0, 0, 0, BASELINE, "add_baseline wg=256 groups=4", "WG=256"},
    /* Fewer floats than a vector: no whole vector, 3 tail work-items, one group. */
    {H200, 0, 3, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "VW=4"},
    /* n = 0 plans one group (the op enqueues nothing). */
    {H200, 0, 0, 0, 0, 0, AUTO, "add_vector wg=256 groups=1", "VW=4"},
    /* A lower learnt limit (a register-heavy build): 128 work-items, the same 2112 groups. */
    {H200, 128, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=128 groups=2112", "WG=128"},

    /* PoCL: 4099 floats are 512 float8 (the first 3 work-items also take the 3-float tail):
       8 groups of 64. */
    {POCL, 0, 4099, 0, 0, 0, AUTO, "add_vector wg=64 groups=8", "WG=64 VW=8"},
    /* An offset of 4 is not a multiple of 8: 4099 elements, ceil(4099 / 64) = 65 groups. */
    {POCL, 0, 4099, 4, 4, 4, AUTO, "add_general wg=64 groups=65", "WG=64"},
    /* No cap on a CPU: 2^24 / 8 / 64 = 32768 groups. */
    {POCL, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=64 groups=32768", "WG=64 VW=8"},

    /* llvmpipe: the CPU row before the first build, then its kernels' 32. */
    {LLVMPIPE, 0, 4099, 0, 0, 0, AUTO, "add_vector wg=64 groups=8", "WG=64 VW=8"},
    {LLVMPIPE, 32, 4099, 0, 0, 0, AUTO, "add_vector wg=32 groups=16", "WG=32 VW=8"},
    /* Apple's CPU with a kernel limit of 1: one work-item a group, 512 vectors. */
    {APPLE_CPU, 1, 4099, 0, 0, 0, AUTO, "add_vector wg=1 groups=512", "WG=1 VW=8"},
    {APPLE_CPU, 1, 4099, 1, 0, 0, AUTO, "add_general wg=1 groups=4099", "WG=1"},

    /* AMD: cap 256 x 60 x 16 = 245760 work-items, 960 groups; the same with a 1024 device. */
    {AMD_GPU, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=960", "WG=256 VW=4"},
    {AMD_GPU_1024, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=960", "WG=256 VW=4"},
    /* Intel: cap 256 x 96 x 8, 768 groups. */
    {INTEL_GPU, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=256 groups=768", "WG=256 VW=4"},
    /* Mali, fallbacks: cap 128 x 12 x 8, 96 groups; under kernel limits of 32 and 8 the groups
       shrink and the count stays 12 x 8. */
    {MALI, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=128 groups=96", "WG=128 VW=4"},
    {MALI, 32, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=32 groups=96", "WG=32 VW=4"},
    {MALI, 8, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=8 groups=96", "WG=8 VW=4"},
    /* Adreno, fallbacks: 2 compute units, cap 128 x 2 x 8: 16 groups. */
    {ADRENO, 0, 1 << 24, 0, 0, 0, AUTO, "add_vector wg=128 groups=16", "WG=128 VW=4"},
};

static void test_plan_add_table(void **state) {
  (void)state;
  for (size_t i = 0; i < ARRAY_LEN(add_cases); i++) {
    const add_case *c = &add_cases[i];
    ocf_device_facts facts = facts_of(c->device, c->learnt);
    ocf_tuning_values tuning = tuning_of(&facts, c->device, OCF_OP_ADD);
    const ocf_add_call call = {c->n, c->x_off, c->y_off, c->out_off, OCF_F32, c->variant, 0};
    ocf_plan plan;
    char what[160];
    snprintf(what, sizeof what, "add case %zu on %s (limit %zu), n %zu, offsets %zu %zu %zu", i,
             devices[c->device].name, c->learnt, c->n, c->x_off, c->y_off, c->out_off);
    expect_plan(what, ocf_plan_add(&facts, &tuning, &call, &plan), &plan, c->shape, c->values);
  }
}

/* ---- softmax ---- */

/* Where rows start: offsets, and the leading dimensions as the row length rounded up to
   `round` floats (1: tight) plus a pad; in_place: out is in. */
typedef struct layout {
  size_t in_off, in_pad, out_off, out_pad, round;
  int in_place;
} layout;

static const layout ALIGNED = {0, 0, 16, 0, 16, 0}; /* every row start a multiple of 16 floats */
static const layout TIGHT = {0, 0, 0, 0, 1, 0};     /* ld = cols: aligned when cols is */
static const layout IN_OFF_1 = {1, 0, 0, 0, 16, 0}; /* in's rows one float past out's */
static const layout LD_PLUS_2 = {0, 2, 0, 0, 16, 0};
static const layout BOTH_OFF_1 = {1, 0, 1, 0, 16, 0}; /* in and out one float in, alike */
static const layout IN_PLACE = {0, 0, 0, 0, 1, 1};

typedef struct softmax_case {
  device_id device;
  size_t learnt;
  size_t rows, cols;
  const layout *layout;
  int variant;
  const char *shape, *values;
  const char *tuning; /* "name=value ..." over the built-in tuning, NULL: none */
} softmax_case;

/*
 * Rules (cl/softmax_*.cl, src/tuning/schema_softmax.c, the header of src/plan/plan_softmax.c).
 * VW is vw unless in's and out's rows start at different places within a vector (in_off -
 * out_off or in_ld - out_ld not a multiple of vw): then 1, and items, local_items, seg_items and
 * unroll count vw times as many (unroll at most 16). A row touches v = ceil(cols / VW) vectors,
 * ceil((cols + VW - 1) / VW) when rows may start inside a vector (in_off or in_ld not a
 * multiple of VW). The ladder: 1 2 3 4 6 8 12 16 24 32 48 64 96 128 192 ..., L(x) the least
 * step >= x. Sizes are capped at the kernels' learnt limit, the device's workgroup and
 * work-item limits, and local memory / 16.
 *   1. softmax_rows when SEG x ITEMS hold the row: SEG = L(ceil(v / seg_items)), past seg_align
 *      rounded up to a multiple of it, at most max_seg and rows_wg; ITEMS = L(ceil(v / SEG)),
 *      at most items. rows_wg / SEG rows a group (at most the device's size along dimension 1),
 *      halved while even and at least twice the rows; a 2-D group SEG x rows, one a batch of
 *      rows ("wg=SEGxR groups=1xB"), or at most units x rows_groups_per_unit when that is set
 *      (looping over the batches; PREFETCH is prefetch).
 *   2. Else one workgroup a row of WG_row = the power of two from min(pow2(v), min_wg) that
 *      holds v in `items` registers, at most wg; with local_items, a work-item holds that many
 *      more vectors as far as local memory allows (none under 4 work-items): local memory holds
 *      8 bytes a work-item + 8, plus 4 x VW bytes a local vector (one vector when none).
 *      a. coop_spin > 0 and out not in place: P slices = max(the slices of wg work-items that
 *         hold v, min(ceil(units x groups_per_unit / rows), v / (2 wg))), with
 *         part_vecs = ceil(v / P), parts = ceil(v / part_vecs): softmax_coop when that is 2 or
 *         more, rows x parts workgroups of wg, scratch 2 uints a slice.
 *      b. else, fewer rows than units x groups_per_unit: the split into
 *         min(ceil(units x groups_per_unit / rows), v / (4 wg unroll)) slices of whole steps of
 *         wg x unroll vectors when that is 2 or more, scratch 2 floats a slice.
 *      c. else a row of one or two work-items with scalar access: softmax_general.
 *      d. else softmax_resident: WG_row holding v (ITEMS = L(ceil(v / WG_row)), or ITEMS = items
 *         and LOCAL_ITEMS the rest up the ladder), one workgroup a row; a row it cannot hold is
 *         streamed twice past what wg holds, with units x groups_per_unit workgroups at most.
 * Workgroups: at most 2048 a compute unit (the kernels loop over the rest), but coop's exactly.
 *
 * Rows: H200 wg=256 min_wg=64 vw=4 items=16 unroll=2 rows_wg=128 seg_items=4 max_seg=128
 * seg_align=32 coop_spin=4096 groups_per_unit=4 (132 units: 528 workgroups); CPUs (PoCL,
 * llvmpipe, Apple's CPU) wg=64 min_wg=16 vw=8 items=4 unroll=2 rows_wg=64 seg_items=4
 * max_seg=8 groups_per_unit=2, no coop; AMD wg=256 min_wg=64 vw=4 items=8 unroll=4 rows_wg=256
 * max_seg=64 groups_per_unit=8 (60 units: 480); Intel wg=256 min_wg=32 vw=4 items=4 unroll=4
 * rows_wg=256 max_seg=32 groups_per_unit=8 (96 units: 768); the fallbacks (Mali, Adreno)
 * wg=128 min_wg=32 vw=4 items=4 unroll=4 rows_wg=128 seg_items=4 max_seg=32
 * groups_per_unit=4. Everywhere else the fallbacks: local_items=0 seg_align=1 prefetch=0
 * coop_spin=0.
 */
static const softmax_case softmax_cases[] = {
    /* H200. 65536 x 128 (the row's note: 8-wide segments, 4 float4 each): v = 32, SEG = L(8) =
       8, ITEMS = 4, 128 / 8 = 16 rows a group: 4096 groups. */
    {H200, 0, 65536, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x4096",
     "VW=4 SEG=8 ITEMS=4 WG=128 local_mem=2048", NULL},
    /* rows_groups_per_unit=2: the same 4096 batches looped over by 132 x 2 = 264 groups, the
       next batch loaded early; 100 rows are 7 batches, 7 groups. */
    {H200, 0, 65536, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x264", "SEG=8 PREFETCH=1",
     "rows_groups_per_unit=2 prefetch=1"},
    {H200, 0, 100, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x7", "PREFETCH=1",
     "rows_groups_per_unit=2 prefetch=1"},
    /* 16384 x 1024: v = 256, SEG = 64 (a multiple of 32 already), ITEMS 4, 2 rows a group. */
    {H200, 0, 16384, 1024, &ALIGNED, AUTO, "softmax_rows wg=64x2 groups=1x8192", "SEG=64 ITEMS=4",
     NULL},
    /* The ladder: 384 floats = 96 float4, SEG = L(24) = 24 (not past seg_align 32), ITEMS 4,
       128 / 24 = 5 rows a group of 120: ceil(4096 / 5) = 820 groups, reduced through local
       memory ... */
    {H200, 0, 4096, 384, &ALIGNED, AUTO, "softmax_rows wg=24x5 groups=1x820",
     "SEG=24 ITEMS=4 WG=120 SHUFFLE=0", "rows.shuffle=0"},
    /* ... or, with NVIDIA's warp shuffles (built in), a warp: SEG 32, ITEMS L(3) = 3, 4 rows a
       group of 128, 1024 groups ... */
    {H200, 0, 4096, 384, &ALIGNED, AUTO, "softmax_rows wg=32x4 groups=1x1024",
     "SEG=32 ITEMS=3 WG=128 SHUFFLE=1 WHOLE_ENDS=0", NULL},
    /* ... 768 = 192 float4: L(48) = 48 is past 32, so SEG = 64, ITEMS = L(3) = 3 ... */
    {H200, 0, 4096, 768, &ALIGNED, AUTO, "softmax_rows wg=64x2 groups=1x2048", "SEG=64 ITEMS=3",
     NULL},
    /* ... 1536 = 384 float4: L(96) = 96, a multiple of 32; ITEMS 4; one row a group. */
    {H200, 0, 4096, 1536, &ALIGNED, AUTO, "softmax_rows wg=96x1 groups=1x4096",
     "SEG=96 ITEMS=4 WG=96", NULL},
    /* 8192 = 2048 float4: SEG = L(512) = 512 capped at max_seg 128, ITEMS = 16: the longest row
       softmax_rows takes. */
    {H200, 0, 4096, 8192, &ALIGNED, AUTO, "softmax_rows wg=128x1 groups=1x4096", "SEG=128 ITEMS=16",
     NULL},
    /* 8193 = 2049 float4 needs ITEMS L(17) = 24 > 16: one row a group of pow2(ceil(2049 / 16))
       = 256; 4096 rows fill the device and 256 x 16 hold the row, so no slices: resident,
       ITEMS = L(ceil(2049 / 256)) = L(9) = 12. Its local memory: 8 x 256 + 8 + one float4. */
    {H200, 0, 4096, 8193, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096",
     "VW=4 ITEMS=12 LOCAL_ITEMS=0 WG=256 local_mem=2072", NULL},
    /* 16384 = 4096 float4 = 256 x 16: the longest row a workgroup holds ... */
    {H200, 0, 4096, 16384, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096", "ITEMS=16", NULL},
    /* ... one more float takes two slices of ceil(4097 / 2) = 2049 (ITEMS 12): coop,
       4096 x 2 workgroups; scratch 2 x 4096 x 2 uints. */
    {H200, 0, 4096, 16385, &ALIGNED, AUTO, "softmax_coop wg=256 groups=8192",
     "ITEMS=12 SPIN=4096 parts=2 part_vecs=2049 scratch=65536", NULL},
    /* The note's 1024 x 65536: 16384 float4 in 4 slices of 4096 (ITEMS 16) ... */
    {H200, 0, 1024, 65536, &ALIGNED, AUTO, "softmax_coop wg=256 groups=4096",
     "ITEMS=16 parts=4 part_vecs=4096 scratch=32768", NULL},
    /* ... and 527 rows (the old split's edge) the same 4 slices: capacity decides, not rows. */
    {H200, 0, 527, 65536, &ALIGNED, AUTO, "softmax_coop wg=256 groups=2108", "parts=4", NULL},
    /* Few rows fill the device: the note's 64 x 262144 wants ceil(528 / 64) = 9 slices but
       65536 float4 need 16 of 4096: 16 x 64 workgroups. */
    {H200, 0, 64, 262144, &ALIGNED, AUTO, "softmax_coop wg=256 groups=1024",
     "ITEMS=16 parts=16 part_vecs=4096 scratch=8192", NULL},
    /* 4 x 65536: ceil(528 / 4) = 132 slices wanted, at most 16384 / 512 = 32 (two float4 a
       work-item): 32 slices of 512, ITEMS 2. */
    {H200, 0, 4, 65536, &ALIGNED, AUTO, "softmax_coop wg=256 groups=128",
     "ITEMS=2 parts=32 part_vecs=512 scratch=1024", NULL},
    /* One row of 4097 float4: 528 wanted, 4097 / 512 = 8 allowed: slices of ceil(4097 / 8) =
       513 (ITEMS L(3) = 3), 8 of them. */
    {H200, 0, 1, 16385, &ALIGNED, AUTO, "softmax_coop wg=256 groups=8",
     "ITEMS=3 parts=8 part_vecs=513 scratch=64", NULL},
    /* 100 rows a workgroup could hold (8193 floats): ceil(528 / 100) = 6 wanted, 2049 / 512 = 4
       allowed: 4 slices of 513. */
    {H200, 0, 100, 8193, &ALIGNED, AUTO, "softmax_coop wg=256 groups=400",
     "ITEMS=3 parts=4 part_vecs=513", NULL},
    /* Few rows short enough for softmax_rows stay there (one row of SEG 128 a group). */
    {H200, 0, 4, 8192, &ALIGNED, AUTO, "softmax_rows wg=128x1 groups=1x4", "SEG=128 ITEMS=16",
     NULL},
    /* In place, no coop: 4097 float4 over 4096 rows (no split at 528 rows or more) is resident,
       its last float4 streamed, with 528 workgroups. */
    {H200, 0, 4096, 16385, &IN_PLACE, AUTO, "softmax_resident wg=256 groups=528", "ITEMS=16", NULL},
    /* local_items: 21504 floats = 5376 float4 need 256 x 21: 16 registers, local L(5) = 6 of
       the 8 allowed (8 x 256 + 8 + 16 x 6 x 256 bytes) ... */
    {H200, 0, 4096, 21504, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096",
     "ITEMS=16 LOCAL_ITEMS=6 local_mem=26632", "local_items=8"},
    /* ... a coop slice holds 256 x 20 = 5120 of 25000 float4: 5 slices of 5000 (local 4) ... */
    {H200, 0, 4096, 100000, &ALIGNED, AUTO, "softmax_coop wg=256 groups=20480",
     "ITEMS=16 LOCAL_ITEMS=4 parts=5 part_vecs=5000 local_mem=18440", "local_items=4"},
    /* ... and in place, resident holds those 5120 and streams the rest, 528 groups. */
    {H200, 0, 4096, 100000, &IN_PLACE, AUTO, "softmax_resident wg=256 groups=528",
     "ITEMS=16 LOCAL_ITEMS=4", "local_items=4"},
    /* coop_items (the H200's long class): 512 rows of 12565 float4 fit one workgroup of 256 x
       (48 + 10) = 14848 and fill the device (512 >= 132 x 1): resident, 50 a work-item, 48 in
       registers and 2 in local memory ... */
    {H200, 0, 512, 50257, &ALIGNED, AUTO, "softmax_resident wg=256 groups=512",
     "ITEMS=48 LOCAL_ITEMS=2", "items=48 local_items=10 groups_per_unit=1 coop_items=16"},
    /* ... while 128 rows of 65536 float4 need max(ceil(65536 / 14848) = 5, ceil(132 / 128) = 2)
       slices, and coop_items 16 makes them max(5, 65536 / (256 x 16)) = 16 of 4096: 16 a
       work-item in registers, none in local memory; scratch 2 x 128 x 16 words. */
    {H200, 0, 128, 262144, &ALIGNED, AUTO, "softmax_coop wg=256 groups=2048",
     "ITEMS=16 LOCAL_ITEMS=0 parts=16 part_vecs=4096 scratch=16384",
     "items=48 local_items=10 groups_per_unit=1 coop_items=16"},
    /* coop_spin=0: 4 rows of 16384 float4 split into min(132, 16384 / 2048 = 8) slices of
       whole steps of 256 x 2: 8 of 2048; scratch 2 x 4 x 8 floats. */
    {H200, 0, 4, 65536, &ALIGNED, AUTO,
     "softmax_split_stats wg=256 groups=32 + softmax_split_write wg=256 groups=32",
     "parts=8 part_vecs=2048 scratch=256", "coop_spin=0"},
    /* Rows one float off between in and out: VW = 1 with the same floats a work-item (items
       64, seg_items 16, unroll 8): 128 floats, SEG L(8) = 8, ITEMS 16. */
    {H200, 0, 4096, 128, &IN_OFF_1, AUTO, "softmax_rows wg=8x16 groups=1x256",
     "VW=1 SEG=8 ITEMS=16 UNROLL=8", NULL},
    {H200, 0, 4096, 128, &LD_PLUS_2, AUTO, "softmax_rows wg=8x16 groups=1x256",
     "VW=1 SEG=8 ITEMS=16", NULL},
    /* ... the same edges in floats: 8192 in softmax_rows (SEG 128 of 64), 8193 resident
       (ITEMS L(33) = 48), 16385 coop (two slices of 8193). */
    {H200, 0, 4096, 8192, &IN_OFF_1, AUTO, "softmax_rows wg=128x1 groups=1x4096",
     "VW=1 SEG=128 ITEMS=64", NULL},
    {H200, 0, 4096, 8193, &IN_OFF_1, AUTO, "softmax_resident wg=256 groups=4096", "VW=1 ITEMS=48",
     NULL},
    {H200, 0, 4096, 16385, &IN_OFF_1, AUTO, "softmax_coop wg=256 groups=8192",
     "VW=1 ITEMS=48 parts=2 part_vecs=8193", NULL},
    /* In and out one float in alike: float4 kept, a row touches ceil(131 / 4) = 33 of them:
       SEG = L(9) = 12, ITEMS = L(3) = 3, 10 rows a group of 120 (local memory); with warp
       shuffles 16, 8 rows a group of 128, the ends read whole where asked. */
    {H200, 0, 4096, 128, &BOTH_OFF_1, AUTO, "softmax_rows wg=12x10 groups=1x410",
     "VW=4 SEG=12 ITEMS=3 WG=120 SHUFFLE=0 WHOLE_ENDS=0", "rows.shuffle=0"},
    {H200, 0, 4096, 128, &BOTH_OFF_1, AUTO, "softmax_rows wg=16x8 groups=1x512",
     "VW=4 SEG=16 ITEMS=3 WG=128 SHUFFLE=1 WHOLE_ENDS=1", "rows.whole_ends=1"},
    {H200, 0, 4096, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x256",
     "VW=4 SEG=8 ITEMS=4 WG=128 SHUFFLE=1 WHOLE_ENDS=0", "rows.whole_ends=1"},
    /* In place, a vector's other lanes may be another row's, written meanwhile: lane by lane. */
    {H200, 0, 4096, 130, &IN_PLACE, AUTO, "softmax_rows wg=16x8 groups=1x512",
     "VW=4 SEG=16 ITEMS=3 SHUFFLE=1 WHOLE_ENDS=0", "rows.whole_ends=1"},
    /* Rows on whole vectors of rows.aligned_vw take that width and rows.aligned_seg_items
       where that leaves no more of the segment's slots empty than the plain plan: 512 = 64
       vectors of 8, one a lane, against 128 float4 in 64 x 2 (both full) ... */
    {H200, 0, 4096, 512, &ALIGNED, AUTO, "softmax_rows wg=64x2 groups=1x2048",
     "VW=8 SEG=64 ITEMS=1", "rows.seg_items=3 rows.aligned_vw=8 rows.aligned_seg_items=1"},
    /* ... 320 = 40 vectors of 8 would leave 24 of a 64-lane segment empty, 80 float4 in 32 x 3
       only 16 of 96: the plain plan ... */
    {H200, 0, 4096, 320, &ALIGNED, AUTO, "softmax_rows wg=32x4 groups=1x1024",
     "VW=4 SEG=32 ITEMS=3", "rows.seg_items=3 rows.aligned_vw=8 rows.aligned_seg_items=1"},
    /* ... and rows off whole vectors (starting one float in) never take it. */
    {H200, 0, 4096, 512, &BOTH_OFF_1, AUTO, "softmax_rows wg=64x2 groups=1x2048",
     "VW=4 SEG=64 ITEMS=3", "rows.seg_items=3 rows.aligned_vw=8 rows.aligned_seg_items=1"},
    /* One row of 8 work-items is no whole warp: local memory. */
    {H200, 0, 1, 128, &ALIGNED, AUTO, "softmax_rows wg=8x1 groups=1x1", "SEG=8 SHUFFLE=0", NULL},
    /* Warp shuffles are NVIDIA's inline PTX: elsewhere the ladder's segment, local memory. */
    {AMD_GPU, 0, 4096, 384, &ALIGNED, AUTO, "softmax_rows wg=24x10 groups=1x410",
     "SEG=24 SHUFFLE=0", "rows.shuffle=1"},
    /* A tight stride: 128 aligned; 8193 is not, but alike for in and out, so float4 stay:
       ceil(8196 / 4) = 2049 vectors, as aligned 8193. */
    {H200, 0, 4096, 128, &TIGHT, AUTO, "softmax_rows wg=8x16 groups=1x256", "VW=4 SEG=8", NULL},
    {H200, 0, 4096, 8193, &TIGHT, AUTO, "softmax_resident wg=256 groups=4096", "VW=4 ITEMS=12",
     NULL},
    /* Few short rows: the group halves while it holds twice the rows, down to one segment for
       one row, 4 rows (32 work-items) for 3. */
    {H200, 0, 1, 128, &ALIGNED, AUTO, "softmax_rows wg=8x1 groups=1x1", "SEG=8 ITEMS=4 WG=8", NULL},
    {H200, 0, 3, 128, &ALIGNED, AUTO, "softmax_rows wg=8x4 groups=1x1", "SEG=8 ITEMS=4 WG=32",
     NULL},
    {H200, 0, 1, 1, &ALIGNED, AUTO, "softmax_rows wg=1x1 groups=1x1", "SEG=1 ITEMS=1", NULL},
    /* Under a learnt limit of 1 with scalar access, a row is never held (c): one row of 128
       floats splits into min(528, 128 / (4 x 1 x 8)) = 4 slices of 32. */
    {H200, 1, 1, 128, &IN_OFF_1, AUTO,
     "softmax_split_stats wg=1 groups=4 + softmax_split_write wg=1 groups=4",
     "VW=1 parts=4 part_vecs=32", NULL},
    /* The reference and the baseline: wg work-items, one group a row; baseline scratch holds a
       max and a sum a row and every exp (only its last kernel writes out): (2 x 4096 + 4096 x
       1000) floats. */
    {H200, 0, 4096, 1000, &ALIGNED, GENERAL, "softmax_general wg=256 groups=4096", "WG=256", NULL},
    {H200, 0, 4096, 1000, &ALIGNED, BASELINE,
     "softmax_base_max wg=256 groups=4096 + softmax_base_exp_sum wg=256 groups=4096 + "
     "softmax_base_divide wg=256 groups=4096",
     "scratch=16416768", NULL},

    /* PoCL: rows up to 8 x 4 float8 = 256 floats: 128 floats are SEG L(4) = 4, 16 rows a
       group; 256 SEG 8, 8 rows. */
    {POCL, 0, 16384, 128, &ALIGNED, AUTO, "softmax_rows wg=4x16 groups=1x1024",
     "VW=8 SEG=4 ITEMS=4", NULL},
    {POCL, 0, 1024, 256, &ALIGNED, AUTO, "softmax_rows wg=8x8 groups=1x128", "VW=8 SEG=8 ITEMS=4",
     NULL},
    /* 257 floats = 33 float8: resident in pow2(ceil(33 / 4)) = 16, ITEMS L(3) = 3. */
    {POCL, 0, 1024, 257, &ALIGNED, AUTO, "softmax_resident wg=16 groups=1024", "VW=8 ITEMS=3",
     NULL},
    /* 2048 = 256 float8 = 64 x 4: the longest held row; 2049 is streamed, 2 x 2 groups. */
    {POCL, 0, 1024, 2048, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024", "ITEMS=4", NULL},
    {POCL, 0, 1024, 2049, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4", "ITEMS=4 UNROLL=2",
     NULL},
    /* With local_items=4, 512 float8 fit 64 x (4 + 4): held, LOCAL_ITEMS 4. */
    {POCL, 0, 1024, 4096, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=4 local_mem=8712", "local_items=4"},
    /* No coop on CPUs: long rows split below 4 rows, in steps of 64 x 2 vectors: 3 rows of
       2048 float8 make 2 slices of 1024; one row 4 of 512; 4 rows are resident and streamed;
       one row of 512 float8 allows 512 / 512 = 1 slice: streamed. */
    {POCL, 0, 3, 16384, &ALIGNED, AUTO,
     "softmax_split_stats wg=64 groups=6 + softmax_split_write wg=64 groups=6",
     "parts=2 part_vecs=1024 scratch=48", NULL},
    {POCL, 0, 1, 16384, &ALIGNED, AUTO,
     "softmax_split_stats wg=64 groups=4 + softmax_split_write wg=64 groups=4",
     "parts=4 part_vecs=512", NULL},
    {POCL, 0, 4, 16384, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4", "parts=1", NULL},
    {POCL, 0, 1, 4096, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1", "parts=1", NULL},
    /* 10^6 short rows: 62500 batches of 16 rows, capped at 2 x 2048 (grid-stride). */
    {POCL, 0, 1000000, 128, &ALIGNED, AUTO, "softmax_rows wg=4x16 groups=1x4096", "SEG=4", NULL},
    /* Misaligned: VW = 1, items 4 x 8 = 32, seg_items 32: 256 floats, SEG 8, ITEMS 32. */
    {POCL, 0, 1024, 256, &IN_OFF_1, AUTO, "softmax_rows wg=8x8 groups=1x128",
     "VW=1 SEG=8 ITEMS=32 UNROLL=16", NULL},

    /* llvmpipe before its first build: as PoCL (8 compute units). 1025 floats = 129 float8 are
       resident in pow2(ceil(129 / 4)) = 64, ITEMS L(3) = 3 ... */
    {LLVMPIPE, 0, 1024, 1025, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024", "ITEMS=3",
     NULL},
    /* ... and once its kernels report 32, 32 x 4 float8 hold 1024 floats: 1025 is streamed,
       8 x 2 = 16 groups; with one local vector more (32 x 5 = 160) it is held again. */
    {LLVMPIPE, 32, 1024, 1025, &ALIGNED, AUTO, "softmax_resident wg=32 groups=16", "WG=32 ITEMS=4",
     NULL},
    {LLVMPIPE, 32, 1024, 1025, &ALIGNED, AUTO, "softmax_resident wg=32 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=1 local_mem=1288", "local_items=1"},
    {LLVMPIPE, 32, 1024, 1024, &ALIGNED, AUTO, "softmax_resident wg=32 groups=1024", "ITEMS=4",
     NULL},
    {LLVMPIPE, 32, 1024, 256, &ALIGNED, AUTO, "softmax_rows wg=8x4 groups=1x256", "SEG=8 ITEMS=4",
     NULL},
    /* llvmpipe ends a work-item's loops after 65535 iterations: softmax_coop's polls stay within
       half of it. 2 rows of 30000 floats (3750 float8) in slices of 32 x 4 held: 30 slices of
       125, 4 a work-item; every slice computed again at worst, 30 x (4 + 8) = 360 steps; a
       poller watches ceil(30 / 32) = 1 slot: SPIN (32767 - 360) / 1 = 32407, not 65536 (which
       gave NaN rows on rusticl), nor the 2^20 asked ... */
    {LLVMPIPE, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=32407",
     "coop_spin=65536 groups_per_unit=4"},
    {LLVMPIPE, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=32407",
     "coop_spin=1048576 groups_per_unit=4"},
    /* ... a smaller ask stands as it is, and on PoCL (no limit) 65536 stands too. */
    {LLVMPIPE, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=16384",
     "coop_spin=16384 groups_per_unit=4"},
    {POCL, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=65536",
     "coop_spin=65536 groups_per_unit=4"},
    /* A row whose slices, all computed again, would take more than half the limit by
       themselves: 1024 slices of 32 x 28 float8 (1024 x (28 + 8) = 36864 > 32767) get no
       softmax_coop on llvmpipe, but the split (one workgroup would stream the row alone). */
    {LLVMPIPE, 32, 1, 7340032, &ALIGNED, AUTO,
     "softmax_split_stats wg=32 groups=16 + softmax_split_write wg=32 groups=16", NULL,
     "coop_spin=4096 coop_items=28 items=28 local_items=0"},

    /* Apple's CPU, one work-item along dimension 1: before its first build a group holds one
       row (128 floats: SEG 4 of 4 float8) ... */
    {APPLE_CPU, 0, 1024, 128, &ALIGNED, AUTO, "softmax_rows wg=4x1 groups=1x1024", "SEG=4 WG=4",
     NULL},
    /* ... and once its kernels report 1, a segment of 1 holds 4 float8 (32 floats); 33 and up
       are streamed by 12 x 2 = 24 groups. One long row splits into 24 slices of 22 float8
       (steps of 1 x 2). */
    {APPLE_CPU, 1, 1024, 32, &ALIGNED, AUTO, "softmax_rows wg=1x1 groups=1x1024", "SEG=1 ITEMS=4",
     NULL},
    {APPLE_CPU, 1, 1024, 33, &ALIGNED, AUTO, "softmax_resident wg=1 groups=24", "ITEMS=4", NULL},
    {APPLE_CPU, 1, 1, 4096, &ALIGNED, AUTO,
     "softmax_split_stats wg=1 groups=24 + softmax_split_write wg=1 groups=24",
     "parts=24 part_vecs=22", NULL},
    /* Scalar access in one work-item, rows enough not to split: softmax_general. */
    {APPLE_CPU, 1, 1024, 1000, &IN_OFF_1, AUTO, "softmax_general wg=1 groups=1024", "VW=1", NULL},

    /* Mali, fallbacks: 512 floats = 128 float4 fit 32 work-items of 4 (SEG 32), 4 rows a
       group of 128; 513 is resident in pow2(ceil(129 / 4)) = 64, ITEMS L(3) = 3. */
    {MALI, 0, 1024, 512, &ALIGNED, AUTO, "softmax_rows wg=32x4 groups=1x256", "SEG=32 ITEMS=4",
     NULL},
    {MALI, 0, 1024, 513, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024", "ITEMS=3", NULL},
    /* 16 KiB of local memory: a group of 128 holds (16384 - 8 x 128 - 8) / (128 x 16) = 7 local
       float4 a work-item of the 16 asked: 5000 floats (10 a work-item) take L(6) = 6 ... */
    {MALI, 0, 1024, 5000, &ALIGNED, AUTO, "softmax_resident wg=128 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=6 local_mem=13320", "local_items=16"},
    /* ... 8192 floats exceed 128 x 11: streamed past them, 12 x 4 = 48 groups. */
    {MALI, 0, 1024, 8192, &ALIGNED, AUTO, "softmax_resident wg=128 groups=48",
     "LOCAL_ITEMS=7 local_mem=15368", "local_items=16"},
    /* Under 32: a row a group of 32; 513 cannot be held in 32 x 4 float4: streamed. */
    {MALI, 32, 1024, 512, &ALIGNED, AUTO, "softmax_rows wg=32x1 groups=1x1024", "SEG=32 ITEMS=4",
     NULL},
    {MALI, 32, 1024, 513, &ALIGNED, AUTO, "softmax_resident wg=32 groups=48", "ITEMS=4", NULL},
    /* Under 8: 8 x 4 float4 = 128 floats the most held. */
    {MALI, 8, 1024, 128, &ALIGNED, AUTO, "softmax_rows wg=8x1 groups=1x1024", "SEG=8 ITEMS=4",
     NULL},
    {MALI, 8, 1024, 129, &ALIGNED, AUTO, "softmax_resident wg=8 groups=48", "UNROLL=4", NULL},

    /* AMD: rows up to 64 x 8 float4 = 2048 floats (SEG 64, 4 rows a group of 256); then held
       up to 256 x 8 = 8192 floats (2049: 128 work-items of L(5) = 6); streamed past that by
       480 groups; split below 480 rows. */
    {AMD_GPU, 0, 4096, 2048, &ALIGNED, AUTO, "softmax_rows wg=64x4 groups=1x1024", "SEG=64 ITEMS=8",
     NULL},
    {AMD_GPU, 0, 4096, 2049, &ALIGNED, AUTO, "softmax_resident wg=128 groups=4096", "ITEMS=6",
     NULL},
    {AMD_GPU, 0, 4096, 8192, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096", "ITEMS=8",
     NULL},
    {AMD_GPU, 0, 4096, 8193, &ALIGNED, AUTO, "softmax_resident wg=256 groups=480", "UNROLL=4",
     NULL},
    {AMD_GPU, 0, 480, 65536, &ALIGNED, AUTO, "softmax_resident wg=256 groups=480", "parts=1", NULL},
    /* 479 rows: 2 slices (at most 16384 / 4096 = 4) of whole steps of 1024: 8192 float4. */
    {AMD_GPU, 0, 479, 65536, &ALIGNED, AUTO,
     "softmax_split_stats wg=256 groups=958 + softmax_split_write wg=256 groups=958",
     "parts=2 part_vecs=8192 scratch=7664", NULL},
    {AMD_GPU_1024, 0, 4096, 2049, &ALIGNED, AUTO, "softmax_resident wg=128 groups=4096", "ITEMS=6",
     NULL},

    /* Intel: rows up to 32 x 4 float4 = 512 floats (8 rows a group of 256); held up to
       256 x 4 = 4096 floats; streamed past that by 96 x 8 = 768 groups. */
    {INTEL_GPU, 0, 4096, 512, &ALIGNED, AUTO, "softmax_rows wg=32x8 groups=1x512", "SEG=32 ITEMS=4",
     NULL},
    {INTEL_GPU, 0, 4096, 513, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4096", "ITEMS=3",
     NULL},
    {INTEL_GPU, 0, 4096, 4096, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096", "ITEMS=4",
     NULL},
    {INTEL_GPU, 0, 4096, 4097, &ALIGNED, AUTO, "softmax_resident wg=256 groups=768", "ITEMS=4",
     NULL},
};

static ocf_softmax_call softmax_call(size_t rows, size_t cols, const layout *l, int variant,
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

static void test_plan_softmax_table(void **state) {
  (void)state;
  for (size_t i = 0; i < ARRAY_LEN(softmax_cases); i++) {
    const softmax_case *c = &softmax_cases[i];
    ocf_device_facts facts = facts_of(c->device, c->learnt);
    ocf_tuning_values tuning = tuning_of(&facts, c->device, OCF_OP_SOFTMAX);
    if (c->tuning) {
      assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, c->tuning, &tuning, "case"), OCF_SUCCESS);
      assert_int_equal(ocf_tuning_check(OCF_OP_SOFTMAX, &tuning, "case"), OCF_SUCCESS);
    }
    const ocf_softmax_call call = softmax_call(c->rows, c->cols, c->layout, c->variant, 0);
    ocf_plan plan;
    char what[200];
    snprintf(what, sizeof what, "softmax case %zu on %s (limit %zu, %s), %zu x %zu", i,
             devices[c->device].name, c->learnt, c->tuning ? c->tuning : "built-in", c->rows,
             c->cols);
    expect_plan(what, ocf_plan_softmax(&facts, &tuning, &call, &plan), &plan, c->shape, c->values);
  }
}

/* ---- matmul ---- */

typedef struct matmul_case {
  device_id device;
  size_t learnt;
  int trans_a, trans_b;
  size_t m, n, k;
  size_t ld;  /* every leading dimension, 0: tight (the stored matrix's row length) */
  size_t off; /* A's offset */
  int variant;
  const char *shape, *values;
  size_t batch;  /* 1: one product; more: packed strides */
  int precision; /* ocf_precision, 0: FP32 */
} matmul_case;

/*
 * Rules (cl/matmul.cl, cl/matmul_skinny.cl, src/tuning/schema_matmul.c, src/plan/plan_matmul.c):
 *
 * Skinny: a short side of C (min(m, n)) of 1 to skinny_max = 16 with a long side of at least
 * skinny_long_min (256; CPUs 16) takes cl/matmul_skinny.cl, the operands swapped when the short
 * side is m (then X is op(B)^T). RL row lanes own 4 rows each: a block of 4 RL rows a workgroup
 * of sk_wg work-items. RL is sk_rl_k when X is k-contiguous (not transposed A; transposed B when
 * swapped), sk_rl_r when it is row-contiguous; from a short side of sk_wide_min = 8 on, the wide
 * path (WIDE=1) with sk_rl_w = 32 row lanes when its two staging buffers fit in local memory:
 * 2 x (X chunk + V chunk) floats, the X chunk 4 RL x 33 (k-contiguous) or 32 x (4 RL + 4), the
 * V chunk 32 x the short side rounded up to 4 (H200, k-contiguous, 16 columns:
 * 2 x (4224 + 512) x 4 = 37888 bytes). K is split when the row blocks (x batch) give fewer
 * than sk_fill x compute units workgroups and k >= 2 sk_split_min: ceil(wanted / blocks) splits
 * (at most k / sk_split_min and 64) of a multiple of 4, matmul_skinny_split then
 * matmul_skinny_reduce (one work-item an element of C).
 *
 * Tiled: the first tile set in use whose tiles (x batch) make at least fill x compute units
 * workgroups of C, with at least min_eff = 50 % of its padded tiles inside C, else the last.
 * A set short of the fill is still taken with K split when k >= 2 split_k_min and
 * floor(split_fill x compute units / workgroups) >= 2: that many splits (at most
 * k / split_k_min and split_max), of a multiple of KWG, matmul_tiled_split + matmul_reduce.
 * matmul_tiled_fast when m, n, k are multiples of the tile (MWG = MDIMC x MWI,
 * NWG = NDIMC x NWI) and of the K slice KWG, matmul_tiled_mixed otherwise; an operand whose
 * offset or leading dimension is not a multiple of 4 takes element-aligned loads (A_VEC=0 ...)
 * in either. matmul_tiled when asked for (never split), matmul_naive (one output a work-item,
 * the chosen set's workgroup) for the baseline. The grid: "wg=NDIMCxMDIMC
 * groups=(n tiles x splits x batch)x(m tiles)". A set whose workgroup does not fit the kernel's
 * limit keeps its tile with fewer work-items of more outputs each (at most 16 rows or columns,
 * 256 accumulators), halving the larger dimension first (N on a tie). 3XTF32 stages two parts
 * of every input: twice the local memory. Where the compiler takes a register cap (the H200),
 * both programs are built with max_regs.
 *
 * Rows: H200 fill=1 (132 workgroups wanted), 128 x 128 tiles (16 x 16 work-items of 8 x 8,
 * KWG 8, 2-wide local reads), 64 x 64 (16 x 16 of 4 x 4, KWG 16), 32 x 32 (8 x 8 of 4 x 4),
 * 16 x 16 (8 x 8 of 2 x 2); split_k_min 1024, split_fill 2 (264), split_max 16; skinny
 * sk_wg 256, sk_rl_k 8, sk_rl_r 16, sk_fill 4 (528), sk_split_min 512; max_regs 128. AMD as
 * H200 but KWG 16 everywhere and 4-wide reads, 60 needed. Intel fill=1: 64 x 64 (8 x 16 of
 * 8 x 4), 32 x 32 (8 x 8 of 4 x 4), 96 needed. CPUs and the fallbacks fill=2: 32 x 32 (8 x 8 of
 * 4 x 4), 16 x 16 (4 x 4 of 4 x 4), KWG 16; skinny sk_wg 64, sk_rl_k 8, sk_rl_r 16, sk_fill 2;
 * CPUs also split_k_min and sk_split_min 128, skinny_long_min 16.
 */
static const matmul_case matmul_cases[] = {
    /* H200: 128 x 128 tiles need ceil(n / 128)^2 >= 132: 1409 (12 x 12 = 144) takes them,
       1408 (11 x 11 = 121) does not (and k = 1408 < 2 x 1024 does not split); 64 x 64 tiles
       need ceil(n / 64)^2 >= 132: 705 takes them, 704 takes 32 x 32. Leading dimensions 1412
       and 708 keep every row aligned. The 144 tiles of 1409 and 705 fill 54 % of two waves, so
       tiled.few_wave_min 90 (in two waves or fewer) splits K in 5 (720 workgroups, 91 %). */
    {H200, 0, 0, 0, 1409, 1409, 1409, 1412, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=60x12 + matmul_reduce wg=256 groups=7756",
     "MDIMC=16 NDIMC=16 MWI=8 NWI=8 KWG=8 VWM=2 VWN=2 max_regs=128 A_VEC=1 splits=5 k_split=288", 1,
     0},
    {H200, 0, 0, 0, 1408, 1408, 1408, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=22x22",
     "MWI=4 NWI=4 KWG=16 VWM=4", 1, 0},
    {H200, 0, 0, 0, 705, 705, 705, 708, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=60x12 + matmul_reduce wg=256 groups=1942",
     "MWI=4 NWI=4 KWG=16 splits=5 k_split=144", 1, 0},
    {H200, 0, 0, 0, 704, 704, 704, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=22x22",
     "MDIMC=8 NDIMC=8 MWI=4 NWI=4 KWG=16", 1, 0},
    /* Not square: one row of 128-tiles needs 132 of them along N: 16769 columns (ceil = 132)
       take 128 x 128 tiles, 16768 (131) take 64 x 64. */
    {H200, 0, 0, 0, 128, 16769, 128, 16772, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=132x1",
     "MWI=8 KWG=8", 1, 0},
    {H200, 0, 0, 0, 128, 16768, 128, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=262x2",
     "MWI=4 KWG=16", 1, 0},
    /* Fast and mixed: whole tiles and slices; k not a multiple of KWG 8 (4092). An offset or a
       leading dimension not a multiple of 4 keeps the kernel and loads that operand element
       by element; the general kernel only when asked for. */
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "MWI=8 NWI=8 KWG=8 VWM=2 VWN=2 PADA=4 PADB=4 TRANS_A=0 TRANS_B=0 local_mem=16896 "
     "A_VEC=1 B_VEC=1 C_VEC=1 SPLIT_K=0 max_regs=128",
     1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4092, 0, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=32x32",
     "KWG=8", 1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 1, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "A_VEC=0 B_VEC=1 C_VEC=1", 1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4096, 4098, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "A_VEC=0 B_VEC=0 C_VEC=0", 1, 0},
    {H200, 0, 0, 0, 4095, 4095, 4095, 0, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=32x32",
     "A_VEC=0 B_VEC=0 C_VEC=0", 1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 0, GENERAL, "matmul_tiled wg=16x16 groups=32x32", "KWG=8",
     1, 0},
    /* k = 0 (or alpha = 0): whole tiles, no K slice to run: the fast kernel. */
    {H200, 0, 0, 0, 4096, 4096, 0, 4096, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "KWG=8", 1, 0},
    /* Transposes reach the kernel as defines. */
    {H200, 0, 1, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "TRANS_A=1 TRANS_B=0", 1, 0},
    {H200, 0, 0, 1, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "TRANS_A=0 TRANS_B=1", 1, 0},
    /* 3XTF32 stages the big and small parts: twice 16896 bytes. */
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "PRECISION=2 local_mem=33792", 1, OCF_PRECISION_3XTF32},
    /* The baseline: the set of the shape (1000: 8 x 8 = 64 big tiles, 16 x 16 = 256 medium),
       one output a work-item, no local memory. */
    {H200, 0, 0, 0, 1000, 1000, 1000, 0, 0, BASELINE, "matmul_naive wg=16x16 groups=63x63",
     "local_mem=0", 1, 0},
    /* Under the learnt 256 nothing changes; under 128 the big tile keeps its size with 8 x 16
       work-items of 8 x 16 outputs. */
    {H200, 256, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "MWI=8 NWI=8", 1, 0},
    {H200, 256, 0, 0, 704, 704, 704, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=22x22",
     "MWI=4 NWI=4", 1, 0},
    {H200, 128, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=8x16 groups=32x32",
     "MDIMC=16 NDIMC=8 MWI=8 NWI=16", 1, 0},

    /* H200 split K. 1024^2: 64 big tiles; floor(264 / 64) = 4 splits of 4096 (256 workgroups,
       one wave), scratch 4 x 1024 x 1024 floats; the reduce 1024^2 / 256 groups. k = 2047 is
       short of two ranges of 1024: no split, the 64-tiles (256 of them); k = 2048 holds two:
       2 splits. 1408^2 x 4096: 121 tiles, floor(264 / 121) = 2 splits. 512^2 x 65536: 16
       tiles, 16 splits (split_max) of 4096. */
    {H200, 0, 0, 0, 1024, 1024, 16384, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=32x8 + matmul_reduce wg=256 groups=4096",
     "splits=4 k_split=4096 SPLIT_K=1 REDUCE_WG=256 scratch=16777216 MWI=8", 1, 0},
    {H200, 0, 0, 0, 1024, 1024, 2047, 0, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=16x16",
     "MWI=4 splits=1 SPLIT_K=0", 1, 0},
    {H200, 0, 0, 0, 1024, 1024, 2048, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=16x8 + matmul_reduce wg=256 groups=4096",
     "splits=2 k_split=1024", 1, 0},
    {H200, 0, 0, 0, 1408, 1408, 4096, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=22x11 + matmul_reduce wg=256 groups=7744",
     "splits=2 k_split=2048", 1, 0},
    {H200, 0, 0, 0, 512, 512, 65536, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=64x4 + matmul_reduce wg=256 groups=1024",
     "splits=16 k_split=4096", 1, 0},
    /* The general variant never splits: the set that fills without, the 64-tiles. */
    {H200, 0, 0, 0, 1024, 1024, 16384, 0, 0, GENERAL, "matmul_tiled wg=16x16 groups=16x16",
     "MWI=4 splits=1", 1, 0},

    /* H200 skinny, 8192 rows by a short side, k = 8192. 16 columns: the wide path, 32 row
       lanes, 128-row blocks: 64 < 528 wanted, ceil(528 / 64) = 9 splits of 912; 17 columns
       are tiled: no set has min_eff's 75 % of its padded tiles in C, and the 32 x 32 set is
       the larger of the two with the most (53 %, as the 16 x 16 set's). 8
       columns: the wide path too (local 2 x (4224 + 256) floats); 7: the narrow path,
       8 row lanes, 256 blocks, 3 splits of 2732. */
    {H200, 0, 0, 0, 8192, 16, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=512",
     "N_SMALL=16 WIDE=1 RL=32 KC=32 X_KCONT=1 X_VEC=1 splits=9 k_split=912 SPLIT=1 swapped=0 "
     "local_mem=37888 max_regs=128",
     1, 0},
    {H200, 0, 0, 0, 8192, 17, 8192, 0, 0, AUTO, "matmul_tiled_mixed wg=8x8 groups=1x256",
     "MDIMC=8 NDIMC=8 MWI=4 NWI=4", 1, 0},
    {H200, 0, 0, 0, 8192, 8, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=256",
     "N_SMALL=8 WIDE=1 RL=32 splits=9 local_mem=35840", 1, 0},
    {H200, 0, 0, 0, 8192, 7, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=768 + matmul_skinny_reduce wg=256 groups=224",
     "N_SMALL=7 WIDE=0 RL=8 splits=3 k_split=2732 local_mem=16384", 1, 0},
    /* Transposed A: X row-contiguous, staged k-rows of 4 x 32 + 4 floats (the same 37888). */
    {H200, 0, 1, 0, 8192, 16, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=512",
     "X_KCONT=0 WIDE=1 RL=32 local_mem=37888", 1, 0},
    /* A short m: the operands swapped, X = B^T row-contiguous (k-contiguous when B is
       transposed). One row: the narrow path, 16 row lanes row-contiguous (128 blocks, 5 splits
       of 1640), 8 k-contiguous (256 blocks, 3 splits). */
    {H200, 0, 0, 0, 16, 8192, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=512",
     "swapped=1 X_KCONT=0 N_SMALL=16 WIDE=1", 1, 0},
    {H200, 0, 0, 0, 1, 8192, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=640 + matmul_skinny_reduce wg=256 groups=32",
     "swapped=1 X_KCONT=0 RL=16 splits=5 k_split=1640", 1, 0},
    {H200, 0, 0, 1, 1, 8192, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=768 + matmul_skinny_reduce wg=256 groups=32",
     "swapped=1 X_KCONT=1 RL=8 splits=3", 1, 0},
    /* The long side's edge: 256 rows take the skinny kernels (8 blocks of 32, K too short to
       split), 255 the tiles: no set has half its padded tiles in C, so the last (16 x 16). */
    {H200, 0, 0, 0, 256, 4, 64, 0, 0, AUTO, "matmul_skinny wg=256 groups=8",
     "N_SMALL=4 WIDE=0 SPLIT=0 splits=1", 1, 0},
    {H200, 0, 0, 0, 255, 4, 64, 0, 0, AUTO, "matmul_tiled_mixed wg=8x8 groups=1x16", "MWI=2 NWI=2",
     1, 0},
    /* Batches: 64^3 x 1024 on the 64-tiles (the 128-tiles fill a quarter), one a product;
       16^3 x 4096 on the 16-tiles; 300 x 2 x 100 by 8 on the skinny kernels, 10 x 8 blocks. */
    {H200, 0, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=1024x1",
     "MWI=4 NWI=4", 1024, 0},
    {H200, 0, 0, 0, 16, 16, 16, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=4096x1", "MWI=2 NWI=2",
     4096, 0},
    {H200, 0, 0, 0, 300, 2, 100, 0, 0, AUTO, "matmul_skinny wg=256 groups=80", "N_SMALL=2", 8, 0},

    /* PoCL, 2 x 2 = 4 workgroups wanted: 33 fills less than half of either set's padded
       tiles (2 x 2 tiles of 32: 27 %; 3 x 3 of 16: 47 %), so the last set, mixed with every
       operand element-aligned; 32 takes 16 x 16 (the 32-tiles make only 1). No register cap
       off NVIDIA. */
    {POCL, 0, 0, 0, 33, 33, 33, 0, 0, AUTO, "matmul_tiled_mixed wg=4x4 groups=3x3",
     "MWI=4 KWG=16 A_VEC=0 B_VEC=0 C_VEC=0 max_regs=0", 1, 0},
    {POCL, 0, 0, 0, 32, 32, 32, 0, 0, AUTO, "matmul_tiled_fast wg=4x4 groups=2x2",
     "MDIMC=4 NDIMC=4 MWI=4 NWI=4", 1, 0},
    /* 36 fills 32 % of 2 x 2 tiles of 32, 56 % of 3 x 3 of 16: set 1. */
    {POCL, 0, 0, 0, 36, 36, 36, 0, 0, AUTO, "matmul_tiled_mixed wg=4x4 groups=3x3", "MDIMC=4", 1,
     0},
    {POCL, 0, 0, 0, 512, 512, 512, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=16x16", "MDIMC=8",
     1, 0},
    {POCL, 0, 0, 0, 255, 257, 129, 0, 0, AUTO, "matmul_tiled_mixed wg=8x8 groups=9x8", "MDIMC=8", 1,
     0},
    /* PoCL skinny from a long side of 16: 100 x 3 in 4 blocks of 32 rows (4 wanted: no
       split); 15 x 3 tiled; 100 x 12 on the wide path, one block of 128 rows, staging
       2 x (4224 + 384) floats; 40 x 1 x 3000 split (2 blocks, k >= 2 x 128): 2 splits of
       1500. */
    {POCL, 0, 0, 0, 100, 3, 50, 0, 0, AUTO, "matmul_skinny wg=64 groups=4",
     "RL=8 WIDE=0 max_regs=0", 1, 0},
    {POCL, 0, 0, 0, 15, 3, 50, 0, 0, AUTO, "matmul_tiled_mixed wg=4x4 groups=1x1", "MWI=4", 1, 0},
    {POCL, 0, 0, 0, 100, 12, 50, 0, 0, AUTO, "matmul_skinny wg=64 groups=1",
     "RL=32 WIDE=1 local_mem=36864", 1, 0},
    {POCL, 0, 0, 0, 40, 1, 3000, 0, 0, AUTO,
     "matmul_skinny_split wg=64 groups=4 + matmul_skinny_reduce wg=64 groups=1",
     "swapped=0 splits=2 k_split=1500", 1, 0},

    /* llvmpipe, 8 x 2 = 16 wanted. Before its first build the CPU sets as they are; under its
       32, the 8 x 8 set has 8 x 4 work-items of 4 x 8 (tile kept), the 4 x 4 set fits. */
    {LLVMPIPE, 0, 0, 0, 128, 128, 128, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=4x4",
     "MDIMC=8 NDIMC=8", 1, 0},
    {LLVMPIPE, 32, 0, 0, 128, 128, 128, 0, 0, AUTO, "matmul_tiled_fast wg=4x8 groups=4x4",
     "MDIMC=8 NDIMC=4 MWI=4 NWI=8", 1, 0},
    {LLVMPIPE, 32, 0, 0, 96, 96, 96, 0, 0, AUTO, "matmul_tiled_fast wg=4x4 groups=6x6",
     "MDIMC=4 NDIMC=4", 1, 0},

    /* Apple's CPU: one work-item along M (its item sizes are 1024 x 1 x 1), so each set's
       work-items along M hand their rows to one (4 x 4 of 4 x 4: 1 x 4 of 16 x 4); under a
       kernel limit of 1 both sets become one work-item of 16 x 16 outputs. 12 x 2 = 24 wanted:
       64 x 64 makes 16 workgroups of either set, so the last set. */
    {APPLE_CPU, 0, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=4x1 groups=4x4",
     "MDIMC=1 NDIMC=4 MWI=16 NWI=4", 1, 0},
    {APPLE_CPU, 1, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=1x1 groups=4x4",
     "MDIMC=1 NDIMC=1 MWI=16 NWI=16", 1, 0},
    {APPLE_CPU, 1, 0, 0, 256, 256, 256, 0, 0, AUTO, "matmul_tiled_fast wg=1x1 groups=16x16",
     "MDIMC=1 NDIMC=1 MWI=16 NWI=16", 1, 0},

    /* Mali, fallbacks, 12 x 2 = 24 wanted. Under 32: the 8 x 8 set as 8 x 4 of 4 x 8; under 8:
       4 x 2 of 8 x 16 (tile kept); the 4 x 4 set as 4 x 2 of 4 x 8. */
    {MALI, 32, 0, 0, 256, 256, 256, 0, 0, AUTO, "matmul_tiled_fast wg=4x8 groups=8x8",
     "MDIMC=8 NDIMC=4 MWI=4 NWI=8 local_mem=9216", 1, 0},
    {MALI, 8, 0, 0, 256, 256, 256, 0, 0, AUTO, "matmul_tiled_fast wg=2x4 groups=8x8",
     "MDIMC=4 NDIMC=2 MWI=8 NWI=16", 1, 0},
    {MALI, 8, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=2x4 groups=4x4",
     "MDIMC=4 NDIMC=2 MWI=4 NWI=8", 1, 0},
    /* Mali's 16 KiB cannot hold the wide path's staging (36 KiB for 12 columns): the narrow
       path, 8 row lanes, 10 blocks of 32 rows. */
    {MALI, 0, 0, 0, 300, 12, 50, 0, 0, AUTO, "matmul_skinny wg=64 groups=10",
     "WIDE=0 RL=8 local_mem=4096", 1, 0},

    /* AMD, 60 wanted: 128-tiles from ceil(n / 128)^2 >= 60 (897: 8 x 8), 64-tiles from
       ceil(n / 64)^2 >= 60 (449), 32-tiles below. Its big set reads K in slices of 16. */
    {AMD_GPU, 0, 0, 0, 897, 897, 897, 900, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=8x8",
     "MWI=8 NWI=8 KWG=16 local_mem=33792", 1, 0},
    {AMD_GPU, 0, 0, 0, 896, 896, 896, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=14x14",
     "MWI=4 NWI=4", 1, 0},
    {AMD_GPU, 0, 0, 0, 449, 449, 449, 452, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=8x8",
     "MWI=4 NWI=4", 1, 0},
    {AMD_GPU, 0, 0, 0, 448, 448, 448, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=14x14",
     "MDIMC=8 NDIMC=8", 1, 0},
    {AMD_GPU_1024, 0, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "MWI=8 NWI=8", 1, 0},

    /* Intel, 96 wanted: 64-tiles (8 x 16 work-items of 8 x 4) from ceil(n / 64)^2 >= 96 (577:
       10 x 10), 32-tiles below. */
    {INTEL_GPU, 0, 0, 0, 577, 577, 577, 580, 0, AUTO, "matmul_tiled_mixed wg=8x16 groups=10x10",
     "MDIMC=16 NDIMC=8 MWI=4 NWI=8 KWG=16", 1, 0},
    {INTEL_GPU, 0, 0, 0, 576, 576, 576, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=18x18",
     "MDIMC=8 NDIMC=8 MWI=4 NWI=4", 1, 0},
};

/* The call for a row-major m x n x k product with every leading dimension `ld` (0: tight). */
static ocf_matmul_call matmul_call(int trans_a, int trans_b, size_t m, size_t n, size_t k,
                                   size_t ld, size_t a_off, int variant, size_t workgroup) {
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

static void check_matmul_assumptions(const char *what, const ocf_plan *plan,
                                     const ocf_matmul_call *c, const ocf_device_facts *facts);

static void test_plan_matmul_table(void **state) {
  (void)state;
  for (size_t i = 0; i < ARRAY_LEN(matmul_cases); i++) {
    const matmul_case *c = &matmul_cases[i];
    ocf_device_facts facts = facts_of(c->device, c->learnt);
    ocf_tuning_values tuning = tuning_of(&facts, c->device, OCF_OP_MATMUL);
    ocf_matmul_call call =
        matmul_call(c->trans_a, c->trans_b, c->m, c->n, c->k, c->ld, c->off, c->variant, 0);
    if (c->batch > 1) { /* packed products */
      call.batch = c->batch;
      call.stride_a = call.lda * (call.trans_a ? call.k : call.m);
      call.stride_b = call.ldb * (call.trans_b ? call.n : call.k);
      call.stride_c = call.ldc * call.m;
    }
    call.precision = (ocf_precision)c->precision;
    ocf_plan plan;
    char what[160];
    snprintf(what, sizeof what, "matmul case %zu on %s (limit %zu), %zu x %zu x %zu", i,
             devices[c->device].name, c->learnt, c->m, c->n, c->k);
    expect_plan(what, ocf_plan_matmul(&facts, &tuning, &call, &plan), &plan, c->shape, c->values);
    check_matmul_assumptions(what, &plan, &call, &facts);
  }
}

/* ---- matmul on the matrix units (src/plan/plan_matmul_mma.c) ---- */

/* The built-in matmul tuning of a data type on a device. */
static ocf_tuning_values matmul_tuning(const ocf_device_facts *facts, device_id id,
                                       ocf_dtype dtype) {
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

/* The H200 as a context sees it once the probe of `bytes` of local memory ran right (0: before
   any probe), its wgmma probe failed: the mma.sync kernel's plans (the wgmma kernel's gates are
   test_plan_matmul_wgmma's). */
static ocf_device_facts h200_probed(unsigned long long bytes) {
  ocf_device_facts facts = facts_of(H200, 0);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  if (bytes) {
    facts.learnt.mma = OCF_PROBE_PASSED;
    facts.learnt.mma_local_ok = bytes;
    facts.learnt.mma_local_ok_reported = bytes + 16; /* NVIDIA's own 16 bytes */
  }
  return facts;
}

static ocf_matmul_call typed_call(size_t m, size_t n, size_t k, ocf_dtype dtype,
                                  ocf_precision precision) {
  ocf_matmul_call call = matmul_call(0, 0, m, n, k, 0, 0, AUTO, 0);
  call.a_dtype = call.b_dtype = dtype;
  call.precision = precision;
  return call;
}

static void plan_mma_case(const char *what, const ocf_device_facts *facts,
                          const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                          const char *shape, const char *values, int probe, size_t probe_bytes) {
  ocf_plan plan;
  expect_plan(what, ocf_plan_matmul(facts, tuning, call, &plan), &plan, shape, values);
  if (plan.probe != probe || (probe && plan.probe_bytes != probe_bytes)) {
    print_error("%s: probe %d of %zu bytes, expected %d of %zu\n", what, plan.probe,
                plan.probe_bytes, probe, probe_bytes);
    fail();
  }
}

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

/* ---- matmul on Hopper's warpgroup units (src/plan/plan_matmul_wgmma.c) ---- */

/* The H200 once the wgmma probe ran right with the larger of the built-in rings (128 x 192 in 5
   stages, wgmma.wave_bn: 5 (128 + 192) 128 + 1024 = 205824 bytes; 128 x 256 in 4 takes 197632),
   and the mma.sync probe of 48 KiB too. */
static ocf_device_facts h200_wgmma(ocf_probe_state wgmma) {
  ocf_device_facts facts = h200_probed(49152);
  facts.learnt.wgmma = wgmma;
  if (wgmma == OCF_PROBE_PASSED) {
    facts.learnt.wgmma_local_ok = 205824;
    facts.learnt.wgmma_local_ok_reported = 205824 + 16;
  }
  return facts;
}

/* `facts` with the H200's memory sizes (141 GiB, allocations of 35 GiB): the scratch cap of the
   split, last-wave, staged and padded plans is an eighth of the memory and one allocation, 0
   where the sizes are unknown. */
static ocf_device_facts with_h200_memory(ocf_device_facts facts) {
  facts.global_mem_bytes = 141ull << 30;
  facts.max_alloc_bytes = 35ull << 30;
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
  /* One tile row: 128 columns where the grid stays within one workgroup per compute unit
     (132); two tile rows (and the batch above) keep 256. */
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
  plan_wgmma_case("bf16 129 x 8192 x 1000 (two tile rows: 256 columns)", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=64", "BN=256", none);
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
  call.has_workspace = 1;
  call.workspace_bytes = 16777216;
  plan_wgmma_case("a workspace of the scratch", &mem, &split, &call, split_128, "splits=4", none);
  call.workspace_bytes = 16777212;
  plan_wgmma_case("a workspace one float short", &mem, &split, &call,
                  "matmul_wgmma wg=256 groups=64", "splits=1 scratch=0", none);
  call.has_workspace = 0;
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
  call = typed_call(128 * 66, 256, 6144, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("66 tiles", &mem, &split, &call,
                  "matmul_wgmma_split wg=256 groups=132 + matmul_wgmma_reduce wg=256 groups=8448",
                  "splits=2", none);
  call = typed_call(128 * 67, 256, 6144, OCF_BF16, OCF_PRECISION_FP32);
  plan_wgmma_case("67 tiles", &mem, &split, &call, "matmul_wgmma wg=256 groups=67", "splits=1",
                  none);
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
 * The staged wgmma plans (rule 4 of src/plan/plan_matmul_wgmma.c) on the H200 (141 GiB, 35 GiB
 * a buffer: a scratch cap of 141 / 8 GiB): 3XTF32 in every layout and TF32 where rule 1 leaves
 * it (B k x n, A transposed or off chunks) stage their operands with matmul_stage (32 x 8
 * work-items a 32 x 32 tile of (row, k)) and multiply on the wgmma kernel over K' (3k or k);
 * the gates fall back to mma.sync: a probe due or failed, 8.x, few products, no memory facts,
 * a scratch past the cap or the caller's workspace, staging refused, the wg tunable off.
 */
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
  call.has_workspace = 1;
  call.workspace_bytes = 33554432;
  plan_wgmma_case("bf16 NN, ldb 4104, a workspace of the copy", &passed, &bf16, &call, pb_4096,
                  NULL, none);
  call.workspace_bytes = 33554431;
  plan_wgmma_case("bf16 NN, ldb 4104, a workspace a byte short", &passed, &bf16, &call,
                  "matmul_wgmma wg=256 groups=512", "scratch=0", none);
  /* The copy kernel's learnt limit below 32 work-items: no copies. */
  ocf_device_facts tiny = passed;
  tiny.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_PAD] = 16;
  call.has_workspace = 0;
  plan_wgmma_case("bf16 NN, ldb 4104, a copy limit of 16", &tiny, &bf16, &call,
                  "matmul_wgmma wg=256 groups=512", "scratch=0", none);

  /* wgmma.unread_rows 512: the calls rule 1 cannot read take that gate instead of align_rows'
     (2048): 1000^3 with lda 1001 is copied (A and B into rows of 1024); 511 rows, or 512 x 512 x
     511 products, stay on mma.sync; B off chunks (ldb 1001) is copied; a call rule 1 reads, off
     lines (ldb 1032), keeps align_rows' gate; A transposed goes through matmul_stage. */
  ocf_tuning_values unread = bf16;
  unread.matmul.wgmma.unread_rows = 512;
  call = typed_call(1000, 1000, 1000, OCF_BF16, OCF_PRECISION_FP32);
  call.lda = 1001;
  plan_wgmma_case("bf16 1000^3, lda 1001, unread_rows 512", &passed, &unread, &call,
                  "matmul_pad wg=256 groups=2000 + matmul_wgmma_pab wg=256 groups=32",
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
                  "matmul_pad wg=256 groups=1024 + matmul_wgmma_pab wg=256 groups=8", "A_PAD=1",
                  none);
  call = typed_call(1000, 1000, 1000, OCF_BF16, OCF_PRECISION_FP32);
  call.ldb = 1001;
  plan_wgmma_case("bf16 1000^3, ldb 1001, unread_rows 512", &passed, &unread, &call,
                  "matmul_pad wg=256 groups=1000 + matmul_wgmma_pb wg=256 groups=32",
                  "A_PAD=0 B_PAD=1 pad_ldb=1024", none);
  call.ldb = 1032;
  plan_wgmma_case("bf16 1000^3, ldb 1032, unread_rows 512", &passed, &unread, &call,
                  "matmul_wgmma wg=256 groups=32", "scratch=0", none);
  call.ldb = 1000, call.trans_a = 1;
  plan_wgmma_case("bf16 TN 1000^3, unread_rows 512", &passed, &unread, &call,
                  "matmul_stage wg=32x8 groups=32x63 + matmul_wgmma_sab wg=256 groups=32",
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
  call.has_workspace = 1;
  call.workspace_bytes = 15728640;
  plan_wgmma_case("a workspace of the scratch", &mem, &lw, &call, lw_3000, "splits=5", none);
  call.workspace_bytes = 15728636;
  plan_wgmma_case("a workspace one float short", &mem, &lw, &call, "matmul_wgmma wg=256 groups=288",
                  "splits=1 lw_first=0 scratch=0", none);
  call.has_workspace = 0;

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
  c2.has_workspace = 1, c2.workspace_bytes = (384u << 20) - 4;
  plan_wgmma_case("a workspace too small", &passed, &f32, &c2, mma_4096, NULL, none);
  c2.workspace_bytes = 384u << 20;
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

/* One case of rule 5 (plan_matmul.c): the plan's steps and values, then the kernels'
   assumptions. */
static void plan_pad_case(const char *what, const ocf_device_facts *facts,
                          const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                          const char *shape, const char *values) {
  ocf_plan plan;
  expect_plan(what, ocf_plan_matmul(facts, tuning, call, &plan), &plan, shape, values);
  check_matmul_assumptions(what, &plan, call, facts);
}

/*
 * The padded tiled plans, the ragged path (src/plan/plan_matmul.c, rule 5), on the H200's FP32
 * rows (set 0: 128 x 128 tiles of 16 x 16 work-items, K slices of 8) with the sides not gated
 * (tiled.pad_sides 0, the schema's; NVIDIA's 2 is test_plan_matmul_pad_sides'): off with
 * tiled.pad_min 0 (the schema's); with pad_min 1024, an fp32 A or B off aligned vector loads (an
 * offset, a leading dimension or a batch stride not a multiple of 4) is copied as stored into
 * rows of whole tiles, zeros past it, before matmul_tiled_pad; aligned operands, 16-bit ones and
 * C are left as they lie. The gates: the products, the split, the variant, a fixed workgroup,
 * no_staging, the scratch against an eighth of the memory, one allocation and the caller's
 * workspace, the copy kernel's learnt workgroup limit.
 */
static void test_plan_matmul_pad(void **state) {
  (void)state;
  ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_min = 0, t.matmul.tiled.pad_sides = 0;
  /* 4000^3, A's rows k + 1 apart: 32 x 32 tiles, the mixed kernel with pad_min 0. */
  ocf_matmul_call call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001;
  const char *const mixed = "matmul_tiled_mixed wg=16x16 groups=32x32";
  plan_pad_case("pad_min 0", &facts, &t, &call, mixed, "A_VEC=0 B_VEC=1 A_PAD=0 B_PAD=0 scratch=0");
  t.matmul.tiled.pad_min = 1024;
  /* A' of 4096 rows (m to whole 128-row tiles) of 4000 floats (k in whole K slices of 8). */
  const char *const pad_4000 = "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 "
                               "groups=32x32";
  plan_pad_case("NN, lda 4001", &facts, &t, &call, pad_4000,
                "A_PAD=1 B_PAD=0 A_VEC=1 B_VEC=1 C_VEC=1 PAD_WG=256 pad_lda=4000 "
                "pad_rows_a=4096 pad_ldb=0 scratch=65536000 scratch_written=1 splits=1");
  /* Both, every transpose pair, through the offsets: A' and B' by their stored shapes. */
  call.lda = 4000, call.a_off = 1, call.b_off = 3;
  plan_pad_case("NN, offsets 1 and 3", &facts, &t, &call,
                "matmul_pad wg=256 groups=8096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=1 B_PAD=1 pad_lda=4000 pad_rows_a=4096 pad_ldb=4096 pad_rows_b=4000 "
                "scratch=131072000");
  call.trans_a = 1, call.trans_b = 1;
  plan_pad_case("TT, offsets 1 and 3", &facts, &t, &call,
                "matmul_pad wg=256 groups=8096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "TRANS_A=1 TRANS_B=1 pad_lda=4096 pad_rows_a=4000 pad_ldb=4000 pad_rows_b=4096");
  /* k = 4001: K' 4008 (whole slices of 8); m = 3999 x n = 4001 round to 4096 and 4096. */
  call = matmul_call(1, 0, 3999, 4001, 4001, 0, 0, AUTO, 0);
  plan_pad_case("TN 3999 x 4001 x 4001, tight", &facts, &t, &call,
                "matmul_pad wg=256 groups=8016 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=1 B_PAD=1 pad_lda=4096 pad_rows_a=4008 pad_ldb=4096 pad_rows_b=4008 "
                "C_VEC=0");
  /* B's rows only (A aligned: m and k multiples of 4), C left as it lies (its ldc is B's n). */
  call = matmul_call(0, 1, 4096, 4095, 4096, 0, 0, AUTO, 0);
  plan_pad_case("NT, k x n = 4096 x 4095 as B^T: aligned, tight", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=32x32", "A_PAD=0 B_PAD=0 C_VEC=0");
  call.ldb = 4097;
  plan_pad_case("NT, ldb 4097", &facts, &t, &call,
                "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=0 B_PAD=1 pad_ldb=4096 pad_rows_b=4096 B_VEC=1");
  /* A batch: only B's stride is off 4; B' per product 2048 rows apart. */
  call = matmul_call(0, 0, 2048, 2048, 1000, 0, 0, AUTO, 0);
  call.batch = 3, call.stride_a = 2048 * 1000, call.stride_b = 1000 * 2048 + 1;
  call.stride_c = 2048 * 2048;
  plan_pad_case("a batch, stride_b off 4", &facts, &t, &call,
                "matmul_pad wg=256 groups=3000 + matmul_tiled_pad wg=16x16 groups=48x16",
                "A_PAD=0 B_PAD=1 pad_ldb=2048 pad_rows_b=1000 scratch=24576000");
  /* 16-bit operands are never copied (their vloads need no alignment); C alone is not copied. */
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 1, AUTO, 0);
  call.a_dtype = OCF_F16;
  call.b_off = 1;
  plan_pad_case("A fp16, B off by 1", &facts, &t, &call,
                "matmul_pad wg=256 groups=4000 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=0 B_PAD=1 pad_ldb=4096 pad_rows_b=4000");
  call.b_dtype = OCF_BF16;
  plan_pad_case("fp16 and bf16", &facts, &t, &call, mixed, "A_PAD=0 B_PAD=0 scratch=0");
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.c_off = 1;
  plan_pad_case("only C off by 1", &facts, &t, &call, mixed, "C_VEC=0 A_PAD=0 B_PAD=0");

  /* The gates. */
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001;
  ocf_tuning_values gate = t;
  gate.matmul.tiled.pad_min = 4001;
  plan_pad_case("pad_min 4001", &facts, &gate, &call, mixed, "A_PAD=0 scratch=0");
  gate.matmul.tiled.pad_min = 4000;
  plan_pad_case("pad_min 4000", &facts, &gate, &call, pad_4000, "A_PAD=1");
  ocf_matmul_call c2 = call;
  c2.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("the general variant", &facts, &t, &c2, "matmul_tiled wg=16x16 groups=32x32",
                "A_PAD=0 scratch=0");
  c2 = call;
  c2.workgroup = 256;
  plan_pad_case("a fixed workgroup", &facts, &t, &c2, mixed, "A_PAD=0 fixed=1");
  c2 = call;
  c2.no_staging = 1;
  plan_pad_case("no_staging (its scratch failed)", &facts, &t, &c2, mixed, "A_PAD=0");
  c2.no_staging = 0;
  c2.has_workspace = 1, c2.workspace_bytes = 65536000 - 1;
  plan_pad_case("a workspace one byte short", &facts, &t, &c2, mixed, "A_PAD=0 scratch=0");
  c2.workspace_bytes = 65536000;
  plan_pad_case("a workspace that fits exactly", &facts, &t, &c2, pad_4000, "A_PAD=1");
  ocf_device_facts small = facts;
  small.max_alloc_bytes = 65536000 - 1;
  plan_pad_case("past one allocation", &small, &t, &call, mixed, "A_PAD=0");
  small = facts;
  small.global_mem_bytes = 8ull * 65536000 - 8; /* an eighth: 4 bytes short */
  plan_pad_case("past an eighth of the memory", &small, &t, &call, mixed, "A_PAD=0");
  small.global_mem_bytes = small.max_alloc_bytes = 0;
  plan_pad_case("no memory facts", &small, &t, &call, mixed, "A_PAD=0");
  small = facts;
  small.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_PAD] = 32;
  plan_pad_case("a copy limit of 32 work-items", &small, &t, &call,
                "matmul_pad wg=32 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "PAD_WG=32 A_PAD=1");
  /* Split K stays split (few tiles, long K): no copies. */
  call = matmul_call(0, 0, 256, 256, 65536, 0, 0, AUTO, 0);
  call.lda = 65537;
  ocf_plan plan;
  assert_int_equal(ocf_plan_matmul(&facts, &t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_SPLIT);
  assert_int_equal(plan.pad_lda, 0);
  /* Whole tiles with A's rows off 4: the fast kernel's plan is padded too. */
  call = matmul_call(0, 0, 4096, 4096, 4096, 0, 0, AUTO, 0);
  call.lda = 4100 + 1;
  plan_pad_case("4096^3, lda 4101", &facts, &t, &call,
                "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=1 pad_lda=4096 pad_rows_a=4096");

  /* tiled.rim (0 in the schema, 1 in NVIDIA's built-in values: RIM=0 everywhere when off): RIM=1
     on the padded and the mixed kernels only; the fast, general and split plans, whose tiles are
     all whole or all guarded, keep RIM=0. */
  assert_int_equal(t.matmul.tiled.rim, 1);
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001;
  ocf_tuning_values no_rim = t;
  no_rim.matmul.tiled.rim = 0;
  plan_pad_case("tiled.rim 0, padded", &facts, &no_rim, &call, pad_4000, "A_PAD=1 RIM=0");
  ocf_tuning_values rim = t;
  rim.matmul.tiled.rim = 1;
  plan_pad_case("tiled.rim 1, padded", &facts, &rim, &call, pad_4000, "A_PAD=1 RIM=1");
  rim.matmul.tiled.pad_min = 0;
  plan_pad_case("tiled.rim 1, mixed", &facts, &rim, &call, mixed, "A_PAD=0 RIM=1");
  call.lda = 4096, call.m = call.n = call.k = 4096;
  plan_pad_case("tiled.rim 1, fast", &facts, &rim, &call, "matmul_tiled_fast wg=16x16 groups=32x32",
                "RIM=0");
  call.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("tiled.rim 1, general", &facts, &rim, &call, "matmul_tiled wg=16x16 groups=32x32",
                "RIM=0");
  call = matmul_call(0, 0, 256, 256, 65536, 0, 0, AUTO, 0);
  {
    ocf_plan split;
    assert_int_equal(ocf_plan_matmul(&facts, &rim, &call, &split), OCF_SUCCESS);
    assert_int_equal(split.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_SPLIT);
    assert_int_equal(ocf_plan_define_value(&split, "RIM", -1), 0);
    /* tiled.rim 2: the split kernel's two bodies too (the mixed kernel's stay) */
    ocf_tuning_values rim2 = rim;
    rim2.matmul.tiled.rim = 2;
    assert_int_equal(ocf_plan_matmul(&facts, &rim2, &call, &split), OCF_SUCCESS);
    assert_int_equal(split.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_SPLIT);
    assert_int_equal(ocf_plan_define_value(&split, "RIM", -1), 1);
    ocf_matmul_call ragged = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
    ragged.lda = 4001;
    plan_pad_case("tiled.rim 2, mixed", &facts, &rim2, &ragged, mixed, "A_PAD=0 RIM=1");
  }

  /* PoCL: 67 x 45 fills under half of set 0's 32 x 32 tiles (min_eff 50), so set 1's 16 x 16
     tiles of 4 x 4 work-items, K slices of 16: A stored 70 x 67 becomes 80 x 80, B stored
     45 x 70 becomes 48 x 80; small calls copied from pad_min 1. */
  facts = facts_of(POCL, 0);
  facts.global_mem_bytes = 8ull << 30;
  t = matmul_tuning(&facts, POCL, OCF_F32);
  t.matmul.tiled.pad_min = 1;
  call = matmul_call(1, 1, 67, 45, 70, 0, 1, AUTO, 0);
  plan_pad_case("PoCL TT 67 x 45 x 70, a_off 1", &facts, &t, &call,
                "matmul_pad wg=256 groups=128 + matmul_tiled_pad wg=4x4 groups=3x5",
                "A_PAD=1 B_PAD=1 pad_lda=80 pad_rows_a=80 pad_ldb=80 pad_rows_b=48 KWG=16");
}

/* One call of test_plan_matmul_pad_sides: fp32, tight where lda / ldb are 0, the H200's built-in
   pad_sides and pad_min where pad_sides is -1 and pad_min 0. */
typedef struct pad_sides_case {
  const char *what;
  int trans_a, trans_b;
  size_t m, n, k, lda, ldb, a_off, b_off;
  int pad_sides, pad_min;
  const char *shape, *values;
} pad_sides_case;

#define PAD_A_4096 "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32"
#define PAD_AB_4096 "matmul_pad wg=256 groups=8192 + matmul_tiled_pad wg=16x16 groups=32x32"
#define MIXED_4096 "matmul_tiled_mixed wg=16x16 groups=32x32"
#define FAST_4096 "matmul_tiled_fast wg=16x16 groups=32x32"
#define MIXED_4097 "matmul_tiled_mixed wg=16x16 groups=32x33"

static const pad_sides_case pad_sides_cases[] = {
    /* Whole sides (128 x 128 tiles, K slices of 8), a misaligned layout: copied. */
    {"4096^3, lda 4097", 0, 0, 4096, 4096, 4096, 4097, 0, 0, 0, -1, 0, PAD_A_4096,
     "A_PAD=1 B_PAD=0 A_VEC=1 B_VEC=1 C_VEC=1 RIM=1 pad_lda=4096 pad_rows_a=4096 "
     "scratch=67108864"},
    {"4096^3, offsets 1 and 3", 0, 0, 4096, 4096, 4096, 0, 0, 1, 3, -1, 0, PAD_AB_4096,
     "A_PAD=1 B_PAD=1 pad_lda=4096 pad_ldb=4096 scratch=134217728"},
    {"4096^3 A^T B^T, offsets 1 and 3", 1, 1, 4096, 4096, 4096, 0, 0, 1, 3, -1, 0, PAD_AB_4096,
     "A_PAD=1 B_PAD=1 TRANS_A=1 TRANS_B=1"},
    {"4096^3 A B^T, ldb 4099", 0, 1, 4096, 4096, 4096, 0, 4099, 0, 0, -1, 0, PAD_A_4096,
     "A_PAD=0 B_PAD=1 pad_ldb=4096 pad_rows_b=4096"},
    /* One side of 4093 (or, with pad_sides 2, k a multiple of 4 but not of 8) beside whole
       ones: the mixed kernel's rim path, the operand read as it lies. */
    {"4096 x 4096 x 4093, tight", 0, 0, 4096, 4096, 4093, 0, 0, 0, 0, -1, 0, MIXED_4096,
     "A_PAD=0 B_PAD=0 A_VEC=0 RIM=1 scratch=0"},
    {"4093 x 4096 x 4096, lda 4097", 0, 0, 4093, 4096, 4096, 4097, 0, 0, 0, -1, 0, MIXED_4096,
     "A_PAD=0 A_VEC=0 RIM=1 scratch=0"},
    {"4096 x 4093 x 4096, a_off 1", 0, 0, 4096, 4093, 4096, 0, 0, 1, 0, -1, 0, MIXED_4096,
     "A_PAD=0 B_PAD=0 A_VEC=0 B_VEC=0 C_VEC=0 RIM=1 scratch=0"},
    {"4096 x 4096 x 4092, lda 4093, pad_sides 2", 0, 0, 4096, 4096, 4092, 4093, 0, 0, 0, 2, 0,
     MIXED_4096, "A_PAD=0 A_VEC=0 RIM=1"},
    /* The measured ragged lines, tight: mixed, rim on. */
    {"4097 x 4095 x 4093", 0, 0, 4097, 4095, 4093, 0, 0, 0, 0, -1, 0, MIXED_4097,
     "A_PAD=0 B_PAD=0 RIM=1 scratch=0"},
    {"3001 x 3003 x 3005", 0, 0, 3001, 3003, 3005, 0, 0, 0, 0, -1, 0,
     "matmul_tiled_mixed wg=16x16 groups=24x24", "A_PAD=0 B_PAD=0 RIM=1"},
    {"A^T B^T 3999 x 3001 x 4999", 1, 1, 3999, 3001, 4999, 0, 0, 0, 0, -1, 0,
     "matmul_tiled_mixed wg=16x16 groups=24x32", "A_PAD=0 B_PAD=0 RIM=1"},
    /* The products: 1024^3 (set 1: 64 x 64 tiles, K slices of 16) is copied, one K slice fewer
       is not (the fast kernel on A as it lies). */
    {"1024^3, a_off 1", 0, 0, 1024, 1024, 1024, 0, 0, 1, 0, -1, 0,
     "matmul_pad wg=256 groups=1024 + matmul_tiled_pad wg=16x16 groups=16x16",
     "A_PAD=1 KWG=16 pad_lda=1024 pad_rows_a=1024"},
    {"1024 x 1024 x 1008, a_off 1", 0, 0, 1024, 1024, 1008, 0, 0, 1, 0, -1, 0,
     "matmul_tiled_fast wg=16x16 groups=16x16", "A_PAD=0 A_VEC=0 RIM=0 scratch=0"},
    /* pad_sides 1: sides multiples of 4 are enough (4000 is not a whole tile, 4092 not a whole K
       slice); an odd side is not. pad_sides 0: any sides. pad_min still gates. */
    {"4000^3, lda 4001, pad_sides 2", 0, 0, 4000, 4000, 4000, 4001, 0, 0, 0, 2, 0, MIXED_4096,
     "A_PAD=0"},
    {"4000^3, lda 4001 (pad_sides 1, built in)", 0, 0, 4000, 4000, 4000, 4001, 0, 0, 0, -1, 0,
     PAD_A_4096, "A_PAD=1 pad_lda=4000 pad_rows_a=4096"},
    {"4096 x 4096 x 4092, lda 4093, pad_sides 1", 0, 0, 4096, 4096, 4092, 4093, 0, 0, 0, 1, 0,
     PAD_A_4096, "A_PAD=1 pad_lda=4096"},
    {"4096 x 4096 x 4094, lda 4095, pad_sides 1", 0, 0, 4096, 4096, 4094, 4095, 0, 0, 0, 1, 0,
     MIXED_4096, "A_PAD=0"},
    {"4097 x 4095 x 4093, pad_sides 1", 0, 0, 4097, 4095, 4093, 0, 0, 0, 0, 1, 0, MIXED_4097,
     "A_PAD=0 B_PAD=0"},
    {"4097 x 4095 x 4093, pad_sides 0", 0, 0, 4097, 4095, 4093, 0, 0, 0, 0, 0, 0,
     "matmul_pad wg=256 groups=8320 + matmul_tiled_pad wg=16x16 groups=32x33",
     "A_PAD=1 B_PAD=1 pad_rows_a=4224 pad_rows_b=4096"},
    {"4096^3, lda 4097, pad_min 4097", 0, 0, 4096, 4096, 4096, 4097, 0, 0, 0, -1, 4097, FAST_4096,
     "A_PAD=0 A_VEC=0"},
};

/*
 * Rule 5 in few waves (tiled.pad_waves 2 here) on the H200's 132 units: a call whose tiles are
 * at most 2 x 132 copies every fp32 operand across a rim, aligned or not; 2000^3 in 128 x 128
 * tiles is 256, 2000 x 2100 x 2000 is 272; whole tiles take matmul_tiled_fast with no copy;
 * pad_min and pad_sides (1: multiples of 4) still bound it.
 */
static void test_plan_matmul_pad_waves(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_waves = 2;
  t.matmul.tiled.wave_min = 0; /* rule 4 would split 2000 x 2100 x 2000's 272 tiles */
  ocf_matmul_call call = matmul_call(0, 0, 2000, 2000, 2000, 0, 0, AUTO, 0);
  /* A' 2048 rows (m to whole tiles) of 2000 (k in whole slices of 8); B' 2000 rows of 2048 */
  plan_pad_case("2000^3, pad_waves 2", &facts, &t, &call,
                "matmul_pad wg=256 groups=4048 + matmul_tiled_pad wg=16x16 groups=16x16",
                "A_PAD=1 B_PAD=1 pad_lda=2000 pad_rows_a=2048 pad_ldb=2048 pad_rows_b=2000 "
                "scratch=32768000 RIM=1");
  ocf_tuning_values off = t;
  off.matmul.tiled.pad_waves = 0;
  plan_pad_case("2000^3, pad_waves 0", &facts, &off, &call,
                "matmul_tiled_mixed wg=16x16 groups=16x16", "A_PAD=0 B_PAD=0 scratch=0");
  call.n = 2100;
  plan_pad_case("2000 x 2100 x 2000 (272 tiles)", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=17x16", "A_PAD=0 B_PAD=0 scratch=0");
  /* m and k whole: only B; n 2001 (off 4) is refused by pad_sides 1 */
  call = matmul_call(0, 0, 2048, 2000, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048 x 2000 x 2048", &facts, &t, &call,
                "matmul_pad wg=256 groups=2048 + matmul_tiled_pad wg=16x16 groups=16x16",
                "A_PAD=0 B_PAD=1 pad_ldb=2048");
  call = matmul_call(0, 0, 2048, 2001, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048 x 2001 x 2048", &facts, &t, &call, "matmul_tiled_mixed wg=16x16 groups=16x16",
                "A_PAD=0 B_PAD=0 scratch=0");
  call = matmul_call(0, 0, 2048, 2048, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048^3: whole tiles", &facts, &t, &call, "matmul_tiled_fast wg=16x16 groups=16x16",
                "scratch=0");
  /* 1000^3 (64 x 64 tiles: 256) is below pad_min 1024, above 512 */
  call = matmul_call(1, 1, 1000, 1000, 1000, 0, 0, AUTO, 0);
  plan_pad_case("TT 1000^3, pad_min 1024", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=16x16", "scratch=0");
  t.matmul.tiled.pad_min = 512;
  plan_pad_case("TT 1000^3, pad_min 512", &facts, &t, &call,
                "matmul_pad wg=256 groups=2032 + matmul_tiled_pad wg=16x16 groups=16x16",
                "A_PAD=1 B_PAD=1");
}

/*
 * Rule 4's wave split (tiled.wave_min 85, wave_k_min 128 here; pad_waves 0 so that rule 5 does
 * not take the unsplit plans) on the H200's 132 units, set 0's 128 x 128 tiles: 1500^3's 144
 * workgroups fill 54 % of two waves; 2 splits 73 %, 3 82 %, 4 (576 workgroups, K ranges of 376)
 * 87 %. 3000^3's 576 fill 87 % unsplit; wave_min 90 splits them in 2 (1152, 97 %); 2048^3's
 * 256 fill 96 %. The edges: K too short for two ranges of wave_k_min (1500 x 1500 x 255), a
 * split_max below the splits wanted, no split where no count reaches wave_min within them, the
 * fixed variants, and wave_min 0 (the schema's).
 */
static void test_plan_matmul_wave_split(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_waves = 0;
  assert_int_equal(t.matmul.tiled.few_waves, 2); /* NVIDIA's built-in values, */
  assert_int_equal(t.matmul.tiled.few_wave_min, 90);
  t.matmul.tiled.few_waves = 0; /* off but in their own cases below */
  t.matmul.tiled.wave_min = 85, t.matmul.tiled.wave_k_min = 128;
  ocf_matmul_call call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 0);
  const char *const split4 = "matmul_tiled_split wg=16x16 groups=48x12 + matmul_reduce wg=256 "
                             "groups=8790";
  plan_pad_case("1500^3, wave_min 85", &facts, &t, &call, split4, "splits=4 k_split=376");
  ocf_tuning_values off = t;
  off.matmul.tiled.wave_min = 0;
  const char *const unsplit = "matmul_tiled_mixed wg=16x16 groups=12x12";
  plan_pad_case("1500^3, wave_min 0", &facts, &off, &call, unsplit, "scratch=0");
  ocf_tuning_values capped = t;
  capped.matmul.tiled.split_max = 3; /* 3 splits fill 82 %: none reaches 85 */
  plan_pad_case("1500^3, split_max 3", &facts, &capped, &call, unsplit, "scratch=0");
  capped.matmul.tiled.wave_min = 80;
  plan_pad_case("1500^3, split_max 3, wave_min 80", &facts, &capped, &call,
                "matmul_tiled_split wg=16x16 groups=36x12 + matmul_reduce wg=256 groups=8790",
                "splits=3 k_split=504");
  ocf_tuning_values longer = t;
  longer.matmul.tiled.wave_k_min = 376; /* 1500 / 376: 3 ranges at most */
  plan_pad_case("1500^3, wave_k_min 376", &facts, &longer, &call, unsplit, "scratch=0");
  longer.matmul.tiled.wave_k_min = 375;
  plan_pad_case("1500^3, wave_k_min 375", &facts, &longer, &call, split4, "splits=4");
  call.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("1500^3, the general variant", &facts, &t, &call,
                "matmul_tiled wg=16x16 groups=12x12", "scratch=0");
  call = matmul_call(0, 0, 1500, 1500, 255, 0, 0, AUTO, 0);
  plan_pad_case("1500 x 1500 x 255: one range of 128", &facts, &t, &call, unsplit, "scratch=0");
  call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3, wave_min 85", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=24x24", "scratch=0");
  ocf_tuning_values tight = t;
  tight.matmul.tiled.wave_min = 90;
  plan_pad_case("3000^3, wave_min 90", &facts, &tight, &call,
                "matmul_tiled_split wg=16x16 groups=48x24 + matmul_reduce wg=256 groups=35157",
                "splits=2 k_split=1504");
  call = matmul_call(0, 0, 2048, 2048, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048^3, wave_min 90", &facts, &tight, &call,
                "matmul_tiled_fast wg=16x16 groups=16x16", "scratch=0");
  /* tiled.few_waves 2, few_wave_min 90 (NVIDIA's): 1500^3's 144 workgroups make 2 waves, so
     they split to 90 % (5 ranges, 720 workgroups, 91 %) where wave_min 85 alone takes 4;
     1800^3's 225 (2 waves, 85 %) split in 4 (900, 97 %); 3000^3's 576 (5 waves, 87 %) stay
     whole; 5 waves as few (few_waves 5) would split them in 2 (1152, 97 %); few_wave_min below
     wave_min keeps wave_min; wave_min 0 keeps the rule off. */
  ocf_tuning_values few = t;
  few.matmul.tiled.few_waves = 2, few.matmul.tiled.few_wave_min = 90;
  call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 0);
  plan_pad_case("1500^3, few_waves 2", &facts, &few, &call,
                "matmul_tiled_split wg=16x16 groups=60x12 + matmul_reduce wg=256 groups=8790",
                "splits=5");
  ocf_tuning_values few_low = few;
  few_low.matmul.tiled.few_wave_min = 50;
  plan_pad_case("1500^3, few_wave_min 50", &facts, &few_low, &call, split4, "splits=4");
  ocf_tuning_values few_off = few;
  few_off.matmul.tiled.wave_min = 0;
  plan_pad_case("1500^3, few_waves 2, wave_min 0", &facts, &few_off, &call, unsplit, "scratch=0");
  call = matmul_call(0, 0, 1800, 1800, 1800, 0, 0, AUTO, 0);
  plan_pad_case("1800^3, few_waves 2", &facts, &few, &call,
                "matmul_tiled_split wg=16x16 groups=60x15 + matmul_reduce wg=256 groups=12657",
                "splits=4");
  plan_pad_case("1800^3, wave_min 85", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=15x15", "scratch=0");
  call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3, few_waves 2", &facts, &few, &call,
                "matmul_tiled_mixed wg=16x16 groups=24x24", "scratch=0");
  few.matmul.tiled.few_waves = 5;
  plan_pad_case("3000^3, few_waves 5", &facts, &few, &call,
                "matmul_tiled_split wg=16x16 groups=48x24 + matmul_reduce wg=256 groups=35157",
                "splits=2");
}

/*
 * Rule 4's split filled to a wave (tiled.wave_min, 80 on the H200, wave_k_min 128), under the
 * H200's small and large_k values with split_k_min 1024 (the rule's own case, whatever the
 * entries hold). The small class's set 0 (256 x 128 tiles) over 1024 x 1024 x 2048 makes 32
 * tiles, and K holds only two ranges of 1024: 64 workgroups on 132 units, 48 % of a wave. 3
 * ranges fill 72 %, 4 (ranges of 512) 96 %: the fewest that reach wave_min (2026-12-03: 19.4 ->
 * 35.1 TFLOP/s). wave_min 72 takes 3, 0 keeps 2; wave_k_min 512 allows 4; where the split stays
 * short (wave_k_min 513: three ranges at most; split_max 3) the set is passed over for set 1's
 * 64 x 64 tiles, 256 of them, unsplit. 256 x 1024 x 2048 (8 tiles) takes 14 ranges (112
 * workgroups, 84 %: 5.0 -> 23.1); 1024 x 1024 x 4096 already fills 96 % in its 4 ranges. In
 * large_k, 256 x 256 x 4096 in set 0's 128 x 128 tiles is 4 tiles, 64 workgroups in 16 ranges
 * (48 %): set 1's 16 tiles in 7 ranges fill 84 % (4.6 -> 14.5); where no set fills it (32 x 32 x
 * 4096: one 32 x 32 tile, or four of 16 x 16, in 16 ranges at most) the first split stands, set
 * 2's in the split rule's 4 ranges.
 */
static void resolve_h200(ocf_device_facts *facts, ocf_tuning_table *table);

static void test_plan_matmul_split_to_wave(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  facts.learnt.mma = OCF_PROBE_FAILED;
  const char *const split4 =
      "matmul_tiled_split wg=16x32 groups=32x4 + matmul_reduce wg=256 groups=4096";
  const char *const fast = "matmul_tiled_fast wg=16x16 groups=16x16";
  static const struct {
    size_t m, n, k;
    const char *class_name;
    int wave_min, wave_k_min, split_max;
    const char *what, *shape, *values;
  } cases[] = {
      {1024, 1024, 2048, "small", 80, 128, 16, "shipped", NULL, "splits=4 k_split=512"},
      {1024, 1024, 2048, "small", 72, 128, 16, "wave_min 72",
       "matmul_tiled_split wg=16x32 groups=24x4 + matmul_reduce wg=256 groups=4096", "splits=3"},
      {1024, 1024, 2048, "small", 0, 128, 16, "wave_min 0",
       "matmul_tiled_split wg=16x32 groups=16x4 + matmul_reduce wg=256 groups=4096",
       "splits=2 k_split=1024"},
      {1024, 1024, 2048, "small", 80, 512, 16, "wave_k_min 512", NULL, "splits=4 k_split=512"},
      {1024, 1024, 2048, "small", 80, 513, 16, "wave_k_min 513", "", "MWI=4 NWI=4 splits=1"},
      {1024, 1024, 2048, "small", 80, 128, 3, "split_max 3", "", "MWI=4 NWI=4 splits=1"},
      {256, 1024, 2048, "small", 80, 128, 16, "shipped",
       "matmul_tiled_split wg=16x32 groups=112x1 + matmul_reduce wg=256 groups=1024", "splits=14"},
      {1024, 1024, 4096, "small", 80, 128, 16, "shipped", NULL, "splits=4 k_split=1024"},
      {256, 256, 4096, "large_k", 80, 128, 16, "shipped",
       "matmul_tiled_split wg=16x16 groups=28x4 + matmul_reduce wg=256 groups=256",
       "MWI=4 NWI=4 splits=7"},
      {256, 256, 4096, "large_k", 0, 128, 16, "wave_min 0",
       "matmul_tiled_split wg=16x16 groups=8x2 + matmul_reduce wg=256 groups=256",
       "MWI=8 NWI=8 splits=4"},
      {32, 32, 4096, "large_k", 80, 128, 16, "shipped",
       "matmul_tiled_split wg=8x8 groups=4x1 + matmul_reduce wg=256 groups=4",
       "MWI=4 NWI=4 splits=4"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape key = {{cases[i].m, cases[i].n, cases[i].k}};
    const unsigned c = ocf_shape_class_of(OCF_OP_MATMUL, &key);
    assert_string_equal(ocf_shape_class_name(OCF_OP_MATMUL, c), cases[i].class_name);
    ocf_tuning_values t = table[OCF_OP_MATMUL][OCF_F32][c];
    assert_int_equal(t.matmul.tiled.wave_min, 80);
    assert_int_equal(t.matmul.tiled.wave_k_min, 128);
    t.matmul.tiled.split_k_min = 1024;
    t.matmul.tiled.wave_min = cases[i].wave_min;
    t.matmul.tiled.wave_k_min = cases[i].wave_k_min;
    t.matmul.tiled.split_max = cases[i].split_max;
    ocf_matmul_call call = matmul_call(0, 0, cases[i].m, cases[i].n, cases[i].k, 0, 0, AUTO, 0);
    char what[96];
    snprintf(what, sizeof what, "H200 fp32 %zu x %zu x %zu, %s", cases[i].m, cases[i].n, cases[i].k,
             cases[i].what);
    const char *shape = cases[i].shape == NULL ? split4 : cases[i].shape[0] ? cases[i].shape : fast;
    ocf_plan plan;
    expect_plan(what, ocf_plan_matmul(&facts, &t, &call, &plan), &plan, shape, cases[i].values);
  }
}

/*
 * The few_rows class (m <= 128 < n, k >= 4096, none of the earlier classes) and the H200's entry
 * for it (64 x 128 tiles in set 1, set 2's K slices of 32, K split in ranges from 512): the
 * class's edges, then its plans (2026-12-03: 64 x 4096 x 4096 25.7 -> 31.5 TFLOP/s, 128 x 4096 x
 * 4096 27.5 -> 34.1). 64 rows take set 1's 64 x 128 tiles (128 x 128 would be half empty) in 8
 * ranges of 512 (32 tiles, 256 workgroups); 128 rows set 0 in 8 ranges; shorter K keeps the
 * small class's plans.
 */
static void test_plan_matmul_few_rows(void **state) {
  (void)state;
  static const struct {
    size_t m, n, k;
    const char *class_name;
  } classes[] = {
      {128, 4096, 4096, "few_rows"},
      {17, 600, 4096, "few_rows"},
      {129, 4096, 4096, "small"},
      {128, 128, 4096, "large_k"},
      {64, 4096, 4095, "small"},
      {16, 4096, 4096, "skinny"},
      {128, 4096, 64, "small_k"},
      {128, 8192, 8192, "few_rows"},
      /* small against large: m n <= 2^21 (1024 x 2048), under 128 tiles of 128 x 128 */
      {1024, 2048, 2048, "small"},
      {1025, 2048, 2048, "large"},
      {2048, 1024, 4096, "small"},
      {2048, 1025, 4096, "large"},
      {1448, 1448, 1448, "small"},
      {1449, 1448, 1448, "large"},
  };
  for (size_t i = 0; i < ARRAY_LEN(classes); i++) {
    const ocf_shape shape = {{classes[i].m, classes[i].n, classes[i].k}};
    const char *got =
        ocf_shape_class_name(OCF_OP_MATMUL, ocf_shape_class_of(OCF_OP_MATMUL, &shape));
    if (strcmp(got, classes[i].class_name) != 0)
      fail_msg("%zu x %zu x %zu is of class %s, want %s", classes[i].m, classes[i].n, classes[i].k,
               got, classes[i].class_name);
  }
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  facts.learnt.mma = OCF_PROBE_FAILED;
  static const struct {
    size_t m, n, k;
    const char *shape, *values;
  } cases[] = {
      {64, 4096, 4096,
       "matmul_tiled_split wg=16x16 groups=256x1 + matmul_reduce wg=256 groups=1024",
       "MWI=4 NWI=8 splits=8 k_split=512"},
      {128, 4096, 4096,
       "matmul_tiled_split wg=16x16 groups=256x1 + matmul_reduce wg=256 groups=2048",
       "MWI=8 NWI=8 splits=8 k_split=512"},
      {64, 11008, 4096,
       "matmul_tiled_split wg=16x16 groups=258x1 + matmul_reduce wg=256 groups=2752",
       "MWI=4 NWI=8 splits=3"},
      {32, 11008, 4096, "matmul_tiled_fast wg=8x8 groups=344x1", "MWI=4 NWI=4 KWG=32 splits=1"},
      {64, 2048, 2048, "matmul_tiled_split wg=16x16 groups=256x1 + matmul_reduce wg=256 groups=512",
       "MWI=4 NWI=4 KWG=16 splits=8"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].m, cases[i].n, cases[i].k}};
    const unsigned c = ocf_shape_class_of(OCF_OP_MATMUL, &shape);
    ocf_matmul_call call = matmul_call(0, 0, cases[i].m, cases[i].n, cases[i].k, 0, 0, AUTO, 0);
    char what[96];
    snprintf(what, sizeof what, "H200 fp32 %zu x %zu x %zu", cases[i].m, cases[i].n, cases[i].k);
    ocf_plan plan;
    expect_plan(what, ocf_plan_matmul(&facts, &table[OCF_OP_MATMUL][OCF_F32][c], &call, &plan),
                &plan, cases[i].shape, cases[i].values);
  }
}

/*
 * tiled.mixed_c_check (NVIDIA 1): matmul_tiled_mixed with the rim body and an fp32 C is built
 * with C_VEC 0, so that its stores check C's alignment at run time, even where C is aligned
 * (3000^3); off, C_VEC 1. matmul_tiled_pad (2000^3, few waves), matmul_tiled_fast (2048^3), the
 * mixed kernel without the rim body and an f16 C keep the plan's C_VEC.
 */
static void test_plan_matmul_mixed_c_check(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  assert_int_equal(t.matmul.tiled.mixed_c_check, 1);
  const char *const mixed = "matmul_tiled_mixed wg=16x16 groups=24x24";
  ocf_matmul_call call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3", &facts, &t, &call, mixed, "RIM=1 C_VEC=0 A_VEC=1 B_VEC=1");
  ocf_tuning_values off = t;
  off.matmul.tiled.mixed_c_check = 0;
  plan_pad_case("3000^3, mixed_c_check 0", &facts, &off, &call, mixed, "RIM=1 C_VEC=1");
  ocf_tuning_values no_rim = t;
  no_rim.matmul.tiled.rim = 0;
  plan_pad_case("3000^3, rim 0", &facts, &no_rim, &call, mixed, "RIM=0 C_VEC=1");
  call.c_dtype = OCF_F16;
  plan_pad_case("3000^3, f16 C", &facts, &t, &call, mixed, "RIM=1 C_VEC=1");
  call = matmul_call(0, 0, 2000, 2000, 2000, 0, 0, AUTO, 0);
  plan_pad_case("2000^3 (padded)", &facts, &t, &call,
                "matmul_pad wg=256 groups=4048 + matmul_tiled_pad wg=16x16 groups=16x16",
                "RIM=1 C_VEC=1");
  call = matmul_call(0, 0, 2048, 2048, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048^3", &facts, &t, &call, "matmul_tiled_fast wg=16x16 groups=16x16",
                "RIM=0 C_VEC=1");
}

/*
 * Which sides rule 5 copies for (tiled.pad_sides), on the H200's built-in values: pad_min 1024,
 * pad_sides 1 (sides multiples of 4; 4000^3 with lda 4001 measured copied 40.4 against 34.0
 * TFLOP/s), rim 1. Measured there (docs/GEMM.md, "Ragged shapes: which plan"):
 * where the sides are whole tiles and only a leading dimension or an offset denies aligned vector
 * loads, the copy wins (4096^3 with lda 4097; offsets 1 and 3); where a side is ragged the mixed
 * kernel's rim path does (4097 x 4095 x 4093, 3001^3, 3999 x 3001 x 4999 A^T B^T). The edges
 * (pad_sides_cases): one side of 4093 beside whole ones, k a multiple of 4 but not of the K
 * slice, the products at pad_min^3 and one K slice below, pad_sides 1 (multiples of 4) and 0;
 * then a batch and 16-bit operands.
 */
static void test_plan_matmul_pad_sides(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  const ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  assert_int_equal(t.matmul.tiled.pad_min, 1024);
  assert_int_equal(t.matmul.tiled.pad_sides, 1);
  assert_int_equal(t.matmul.tiled.rim, 1);
  for (size_t i = 0; i < ARRAY_LEN(pad_sides_cases); i++) {
    const pad_sides_case *c = &pad_sides_cases[i];
    ocf_matmul_call call =
        matmul_call(c->trans_a, c->trans_b, c->m, c->n, c->k, 0, c->a_off, AUTO, 0);
    if (c->lda) call.lda = c->lda;
    if (c->ldb) call.ldb = c->ldb;
    call.b_off = c->b_off;
    ocf_tuning_values tuning = t;
    if (c->pad_sides >= 0) tuning.matmul.tiled.pad_sides = c->pad_sides;
    if (c->pad_min) tuning.matmul.tiled.pad_min = c->pad_min;
    plan_pad_case(c->what, &facts, &tuning, &call, c->shape, c->values);
  }

  /* A batch of whole sides (k = 1000: 125 K slices), B's stride off 4 */
  ocf_matmul_call call = matmul_call(0, 0, 2048, 2048, 1000, 0, 0, AUTO, 0);
  call.batch = 3, call.stride_a = 2048 * 1000, call.stride_b = 1000 * 2048 + 1;
  call.stride_c = 2048 * 2048;
  plan_pad_case("a batch of 2048 x 2048 x 1000, stride_b off 4", &facts, &t, &call,
                "matmul_pad wg=256 groups=3000 + matmul_tiled_pad wg=16x16 groups=48x16",
                "A_PAD=0 B_PAD=1");
  /* 16-bit operands are read as they lie; an fp32 one beside them is still copied. */
  call = matmul_call(0, 0, 4096, 4096, 4096, 0, 0, AUTO, 0);
  call.a_dtype = OCF_F16, call.lda = 4097;
  plan_pad_case("4096^3, fp16 A, lda 4097", &facts, &t, &call, FAST_4096,
                "A_PAD=0 B_PAD=0 A_VEC=1 scratch=0");
  call.b_off = 1;
  plan_pad_case("4096^3, fp16 A, lda 4097, fp32 B off by 1", &facts, &t, &call, PAD_A_4096,
                "A_PAD=0 B_PAD=1");
  call.b_dtype = OCF_BF16;
  plan_pad_case("4096^3, fp16 A, bf16 B off by 1", &facts, &t, &call, FAST_4096,
                "A_PAD=0 B_PAD=0 scratch=0");
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

/* The H200's built-in attention values for bf16 (the tuning a bf16 call resolves there). */
static void h200_bf16_attention(const ocf_device_facts *facts, ocf_tuning_values *t) {
  size_t count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&count);
  assert_int_equal(
      ocf_tuning_resolve(rows, count, OCF_OP_ATTENTION, OCF_BF16, facts, "NVIDIA H200", t),
      OCF_SUCCESS);
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
  if (plan.probe != (probe_bytes ? OCF_PLAN_PROBE_MMA : OCF_PLAN_PROBE_NONE) ||
      (probe_bytes && plan.probe_bytes != probe_bytes)) {
    print_error("%s: probe %d of %zu bytes, expected %zu bytes\n", what, (int)plan.probe,
                plan.probe_bytes, probe_bytes);
    fail();
  }
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

/* attention_lanes's plan of a decoding step 2 x 32 heads (h_kv key heads) x 1 x 8192 x 128 on
   `facts` with decode.join = join, attention_lanes on (64 work-items, 8 lanes a key). */
static ocf_plan lanes_join_plan(const ocf_device_facts *facts, int join, size_t h_kv) {
  ocf_tuning_values t;
  ocf_tuning_fallbacks(OCF_OP_ATTENTION, &t);
  t.attention.decode.wg = 64, t.attention.decode.lanes = 8, t.attention.decode.join = join;
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 2, call.h = 32, call.h_kv = h_kv, call.lq = 1, call.lk = 8192, call.d = 128;
  call.kv_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(facts, &t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_LANES);
  return plan;
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

/* mma.join makes attention_mma_split one kernel on NVIDIA (JOIN 2, a counter a (batch, head,
   block of rows): 32 for one decoding row a head of 32), two kernels without it. */
static void test_plan_attention_mma_join(void **state) {
  (void)state;
  const ocf_device_facts facts = h200_probed(49152);
  for (int join = 0; join < 2; join++) {
    ocf_tuning_values t;
    h200_bf16_attention(&facts, &t);
    t.attention.mma.split_fill = 2, t.attention.mma.join = join;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = call.h_kv = 32, call.lq = 1, call.lk = 8192, call.d = 64;
    call.kv_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
    ocf_plan plan;
    assert_int_equal(ocf_plan_attention(&facts, &t, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA_SPLIT);
    assert_int_equal(plan_value(&plan, "JOIN"), join ? 2 : 0);
    assert_int_equal(plan.step_count, join ? 1 : 2);
    assert_int_equal(plan.arrivals, join ? 32 : 0);
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

/* ---- every default plan fits and meets its kernels' assumptions ---- */

/* Reports a broken assumption of a plan and fails. */
#define ASSUME(cond, ...)                                                         \
  do {                                                                            \
    if (!(cond)) {                                                                \
      char plan_text_[512];                                                       \
      ocf_plan_describe(plan, plan_text_, sizeof plan_text_);                     \
      print_error("%s: %s does not hold\n  plan: %s\n", what, #cond, plan_text_); \
      print_error(__VA_ARGS__);                                                   \
      fail();                                                                     \
    }                                                                             \
  } while (0)

/* Asserts that the planner made a plan. */
static void expect_success(const char *what, ocf_status status) {
  if (status != OCF_SUCCESS) {
    print_error("%s: the planner failed: %s: %s\n", what, ocf_status_name(status),
                ocf_last_error());
    fail();
  }
}

static long long define_of(const ocf_plan *plan, const char *name) {
  return ocf_plan_define_value(plan, name, -1);
}

/* What every plan owes the device: the planner's own check, each step's workgroup within the
   kernel's learnt limit, the device's and the work-item sizes, local memory within the
   device's. */
static void check_fits(const char *what, const ocf_plan *plan, const ocf_device_facts *facts) {
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

/* cl/add.cl: WG work-items, add_vector's offsets multiples of VW and its tail (n % VW) taken
   by the first work-items of the grid; the baseline one element a work-item. */
static void check_add_assumptions(const char *what, const ocf_plan *plan, const ocf_add_call *c) {
  const ocf_plan_step *st = &plan->steps[0];
  long long wg = define_of(plan, "WG"), vw = define_of(plan, "VW");
  ASSUME(plan->step_count == 1 && (size_t)wg == st->local[0], "\n");
  if (st->kernel == OCF_KERNEL_ADD_VECTOR) {
    ASSUME(c->x_off % vw == 0 && c->y_off % vw == 0 && c->out_off % vw == 0, "\n");
    ASSUME(st->global[0] >= c->n % (size_t)vw, "\n");
  }
  if (st->kernel == OCF_KERNEL_ADD_BASELINE) ASSUME(st->global[0] >= c->n, "\n");
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

/* cl/softmax_vector.clh: vector access only where out's rows have in's heads (in_off = out_off and
   in_ld = out_ld modulo VW); at most 256 floats a work-item in registers
   (src/tuning/schema_softmax.c); local vectors only in resident and coop, in workgroups of 4 or
   more, in the local memory planned; never resident or coop with one or two work-items of
   scalar access (PoCL 3.1 aborts on them: softmax_general instead). Then per kernel:
   softmax_rows a 2-D SEG x (WG / SEG) workgroup, its row within SEG x ITEMS vectors;
   the others WG work-items along dimension 0 in every step; coop exactly one workgroup a
   slice (no grid-stride loop), no slice empty, each within what a workgroup holds, never in
   place, scratch for the slots; split parts cover the row, none empty, with scratch for their
   pairs; the baseline's scratch a max and a sum a row. */
static void check_softmax_assumptions(const char *what, const ocf_plan *plan,
                                      const ocf_softmax_call *c) {
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
  if (plan->splits > 1) {
    ASSUME(plan->step_count == 2 && plan->steps[0].kernel == OCF_KERNEL_MATMUL_SKINNY_SPLIT &&
               plan->steps[1].kernel == OCF_KERNEL_MATMUL_SKINNY_REDUCE,
           "\n");
    ASSUME(plan->k_split % 4 == 0 && (plan->splits - 1) * plan->k_split < c->k &&
               plan->splits * plan->k_split >= c->k,
           "\n");
    ASSUME(plan->scratch_bytes >= plan->splits * rows * small * batch * sizeof(float), "\n");
    ASSUME(plan->steps[1].global[0] >= rows * small * batch, "\n");
  } else {
    ASSUME(plan->step_count == 1 && plan->steps[0].kernel == OCF_KERNEL_MATMUL_SKINNY, "\n");
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

/* cl/matmul.cl: an NDIMC x MDIMC workgroup; the tiling rules (tiles multiples of 4, whole
   vectors, K slices of 4, at most 256 accumulators and 16 rows or columns a work-item), the
   local memory the tiles take (twice for 3XTF32, which stages two parts of each input), a grid
   of tiles x splits x batch covering C, the fast kernel only for whole tiles and K slices,
   aligned vector loads only where the operand allows them; split K: K ranges of whole K slices
   covering K, scratch for every split's C, the reduce over every element; the skinny program
   only for a short side of at most 16; a register cap only where the compiler takes one. */
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

static void check_matmul_assumptions(const char *what, const ocf_plan *plan,
                                     const ocf_matmul_call *c, const ocf_device_facts *facts) {
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
  ASSUME(st->global[0] / st->local[0] == n_tiles * plan->splits * batch &&
             st->global[1] / st->local[1] == m_tiles,
         "\n");
  /* (16-bit operands always: their vloads need no alignment; copies are aligned) */
  if (define_of(plan, "A_VEC") && !padded && c->a_dtype == OCF_F32)
    ASSUME(vec_aligned(c->a_off, c->lda, c->stride_a, batch), "\n");
  if (define_of(plan, "B_VEC") && !padded && c->b_dtype == OCF_F32)
    ASSUME(vec_aligned(c->b_off, c->ldb, c->stride_b, batch), "\n");
  if (define_of(plan, "C_VEC")) ASSUME(vec_aligned(c->c_off, c->ldc, c->stride_c, batch), "\n");
  if (st->kernel == OCF_KERNEL_MATMUL_TILED_FAST)
    ASSUME(c->m % mwg == 0 && c->n % nwg == 0 && c->k % kwg == 0, "\n");
  ASSUME(define_of(plan, "SPLIT_K") == (st->kernel == OCF_KERNEL_MATMUL_TILED_SPLIT), "\n");
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

/* The devices as they are and with 16 KiB of local memory, before any build and under kernel
   limits of 1, 8, 32, 96 (not a power of two, as some drivers report) and 256: every default
   plan of every op fits and meets its kernels' assumptions. */
static void test_plan_defaults_always_fit(void **state) {
  (void)state;
  static const size_t limits[] = {0, 1, 8, 32, 96, 256};
  static const size_t add_n[] = {0, 1, 3, 1000, 4099, 1 << 20};
  static const size_t add_offsets[][3] = {{0, 0, 0}, {8, 16, 4}, {1, 0, 0}, {0, 0, 5}};
  static const size_t rows_list[] = {1, 3, 37, 1000, 65536};
  static const size_t cols_list[] = {1,    7,    32,   128,  255,  256,   257,   1000,  1024,
                                     2048, 2049, 4096, 8192, 8193, 16384, 16385, 65536, 100003};
  static const layout *layouts[] = {&ALIGNED,   &TIGHT,      &IN_OFF_1,
                                    &LD_PLUS_2, &BOTH_OFF_1, &IN_PLACE};
  /* square, ragged, the skinny kernels both ways round (narrow and wide, split and not), long
     K (split or not) */
  static const size_t mm_sizes[][3] = {
      {1, 1, 1},          {17, 19, 23},       {32, 32, 32},        {64, 64, 0},
      {100, 75, 130},     {128, 256, 64},     {257, 129, 511},     {704, 704, 704},
      {1000, 1000, 1000}, {2048, 2048, 2048}, {4096, 64, 4096},    {8192, 16, 8192},
      {7, 3000, 700},     {300, 2, 100000},   {1024, 1024, 16384}, {512, 512, 65536}};
  static const size_t mm_lds[] = {0, 4100, 4097};
  static const int variants[] = {AUTO, GENERAL, BASELINE};
  unsigned long plans = 0;
  char what[200];
  for (int d = 0; d < DEVICE_COUNT; d++) {
    for (int small = 0; small < 2; small++) {
      for (size_t l = 0; l < ARRAY_LEN(limits); l++) {
        ocf_device_facts facts = facts_of((device_id)d, limits[l]);
        if (small) facts.local_mem_bytes = 16 * KIB;
        ocf_tuning_values add_t = tuning_of(&facts, (device_id)d, OCF_OP_ADD);
        ocf_tuning_values sm_t = tuning_of(&facts, (device_id)d, OCF_OP_SOFTMAX);
        ocf_tuning_values mm_t = tuning_of(&facts, (device_id)d, OCF_OP_MATMUL);
        ocf_plan plan;
        for (size_t v = 0; v < ARRAY_LEN(variants); v++) {
          for (size_t i = 0; i < ARRAY_LEN(add_n); i++) {
            for (size_t o = 0; o < ARRAY_LEN(add_offsets); o++) {
              const ocf_add_call call = {add_n[i],
                                         add_offsets[o][0],
                                         add_offsets[o][1],
                                         add_offsets[o][2],
                                         OCF_F32,
                                         variants[v],
                                         0};
              snprintf(what, sizeof what, "add on %s, local %llu, limit %zu: n %zu, variant %d",
                       devices[d].name, facts.local_mem_bytes, limits[l], add_n[i], variants[v]);
              ocf_status status = ocf_plan_add(&facts, &add_t, &call, &plan);
              expect_success(what, status);
              check_fits(what, &plan, &facts);
              check_add_assumptions(what, &plan, &call);
              plans++;
            }
          }
          for (size_t r = 0; r < ARRAY_LEN(rows_list); r++) {
            for (size_t c = 0; c < ARRAY_LEN(cols_list); c++) {
              for (size_t y = 0; y < ARRAY_LEN(layouts); y++) {
                const ocf_softmax_call call =
                    softmax_call(rows_list[r], cols_list[c], layouts[y], variants[v], 0);
                snprintf(what, sizeof what,
                         "softmax on %s, local %llu, limit %zu: %zu x %zu, layout %zu, "
                         "variant %d",
                         devices[d].name, facts.local_mem_bytes, limits[l], rows_list[r],
                         cols_list[c], y, variants[v]);
                ocf_status status = ocf_plan_softmax(&facts, &sm_t, &call, &plan);
                expect_success(what, status);
                check_fits(what, &plan, &facts);
                check_softmax_assumptions(what, &plan, &call);
                plans++;
              }
            }
          }
          for (size_t s = 0; s < ARRAY_LEN(mm_sizes); s++) {
            for (size_t ld = 0; ld < ARRAY_LEN(mm_lds); ld++) {
              for (int t = 0; t < 16; t++) {
                /* t: the transposes, then one product in FP32 or a batch of 3 in 3XTF32; from 8
                   on the same with the padded plans on (tiled.pad_min=1, 16 GiB of memory for
                   their scratch) */
                const int pad = t >> 3;
                ocf_matmul_call call =
                    matmul_call(t & 1, t >> 1 & 1, mm_sizes[s][0], mm_sizes[s][1], mm_sizes[s][2],
                                mm_lds[ld], 0, variants[v], 0);
                if ((t & 7) >= 4) {
                  call.batch = 3;
                  call.stride_a = call.lda * (call.trans_a ? call.k : call.m) + 1;
                  call.stride_b = call.ldb * (call.trans_b ? call.n : call.k);
                  call.stride_c = call.ldc * call.m;
                  call.precision = OCF_PRECISION_3XTF32;
                }
                snprintf(what, sizeof what,
                         "matmul on %s, local %llu, limit %zu: %zu x %zu x %zu, ld %zu, "
                         "trans %d, batch %zu, precision %d, variant %d, pad_min %d",
                         devices[d].name, facts.local_mem_bytes, limits[l], mm_sizes[s][0],
                         mm_sizes[s][1], mm_sizes[s][2], mm_lds[ld], t & 3, call.batch,
                         (int)call.precision, variants[v], pad);
                ocf_tuning_values mm_tp = mm_t;
                ocf_device_facts mm_facts = facts;
                if (pad) {
                  mm_tp.matmul.tiled.pad_min = 1, mm_tp.matmul.tiled.pad_sides = 0;
                  mm_facts.global_mem_bytes = 16ull << 30;
                }
                ocf_status status = ocf_plan_matmul(&mm_facts, &mm_tp, &call, &plan);
                expect_success(what, status);
                check_fits(what, &plan, &mm_facts);
                check_matmul_assumptions(what, &plan, &call, &mm_facts);
                plans++;
              }
            }
          }
        }
      }
    }
  }
  assert_true(plans > 100000);
}

/* ---- sizes the caller fixed ---- */

/* Asserts a refusal with OCF_ERR_INVALID_WORKGROUP whose message has `message`. */
static void expect_refused(const char *what, ocf_status status, const char *message) {
  if (status != OCF_ERR_INVALID_WORKGROUP || !strstr(ocf_last_error(), message)) {
    print_error("%s: %s, \"%s\"; expected OCF_ERR_INVALID_WORKGROUP and \"%s\"\n", what,
                ocf_status_name(status), ocf_last_error(), message);
    fail();
  }
}

/* A fixed size is used as given (no fitting, no shrinking), or refused by name when the device
   cannot run it: above its workgroup maximum or a work-item size, or needing more local memory
   than it has. A size above a limit learnt from another build is kept: only the kernel built
   for the caller's size can say whether it runs, and the launch refuses it then. */
static void test_plan_fixed_workgroups(void **state) {
  (void)state;
  ocf_plan plan;

  /* add: 33 work-items on rusticl is what the caller asked for, even after its kernels
     reported 32 (the launch then refuses); above the device's 1024 it is refused now. */
  ocf_device_facts facts = facts_of(LLVMPIPE, 32);
  ocf_tuning_values t = tuning_of(&facts, LLVMPIPE, OCF_OP_ADD);
  ocf_add_call add = {4099, 0, 0, 0, OCF_F32, AUTO, 33};
  expect_plan("add fixed 33 on llvmpipe", ocf_plan_add(&facts, &t, &add, &plan), &plan,
              "add_vector wg=33 groups=16", "WG=33 fixed=1");
  add.workgroup = 1025;
  expect_refused("add fixed 1025 on llvmpipe", ocf_plan_add(&facts, &t, &add, &plan),
                 "above the device's limit of 1024");
  facts = facts_of(H200, 256);
  t = tuning_of(&facts, H200, OCF_OP_ADD);
  add.workgroup = 512;
  expect_plan("add fixed 512 on the H200", ocf_plan_add(&facts, &t, &add, &plan), &plan,
              "add_vector wg=512 groups=2", "WG=512 fixed=1");
  add.workgroup = 2048;
  expect_refused("add fixed 2048 on the H200", ocf_plan_add(&facts, &t, &add, &plan),
                 "above the device's limit of 1024");

  /* softmax: every size field takes the caller's size, and softmax_rows the shortest segment
     from L(ceil(v / seg_items)) that divides it: on the H200 a row of 512 floats (128 float4)
     wants SEG 32 (of 4), which divides 96: 3 rows a group, ceil(1003 / 3) = 335 groups. */
  facts = facts_of(H200, 256);
  t = tuning_of(&facts, H200, OCF_OP_SOFTMAX);
  ocf_softmax_call sm = softmax_call(1003, 512, &ALIGNED, AUTO, 96);
  expect_plan("softmax fixed 96 on the H200", ocf_plan_softmax(&facts, &t, &sm, &plan), &plan,
              "softmax_rows wg=32x3 groups=1x335", "WG=96 SEG=32 ITEMS=4 fixed=1");
  /* With 16 KiB of local memory, softmax_rows's 16 bytes a work-item fit 1024 work-items
     exactly (short rows of 16 float8 on PoCL: SEG 4, 256 rows a group), 2048 not; a long row
     (12500 float8, streamed by resident: 4 groups for 4 rows) needs 8 bytes a work-item + 8 +
     one float8 held: 8232 bytes for 1024, 16424 for 2048, which do not fit either. */
  facts = facts_of(POCL, 0);
  t = tuning_of(&facts, POCL, OCF_OP_SOFTMAX);
  facts.local_mem_bytes = 16 * KIB;
  sm = softmax_call(4, 128, &ALIGNED, AUTO, 1024);
  expect_plan("softmax fixed 1024, 16 KiB, short rows", ocf_plan_softmax(&facts, &t, &sm, &plan),
              &plan, "softmax_rows wg=4x256 groups=1x1", "WG=1024 SEG=4 local_mem=16384");
  sm.workgroup = 2048;
  expect_refused("softmax fixed 2048, 16 KiB, short rows", ocf_plan_softmax(&facts, &t, &sm, &plan),
                 "local memory");
  sm = softmax_call(4, 100000, &ALIGNED, AUTO, 1024);
  expect_plan("softmax fixed 1024, 16 KiB, long rows", ocf_plan_softmax(&facts, &t, &sm, &plan),
              &plan, "softmax_resident wg=1024 groups=4", "WG=1024 ITEMS=4 local_mem=8232");
  sm.workgroup = 2048;
  expect_refused("softmax fixed 2048, 16 KiB, long rows", ocf_plan_softmax(&facts, &t, &sm, &plan),
                 "local memory");
  /* Two work-items with scalar access (rows one float off) hold no row: softmax_general, one
     group a row. */
  facts = facts_of(POCL, 0);
  sm = softmax_call(1000, 1000, &IN_OFF_1, AUTO, 2);
  expect_plan("softmax fixed 2, scalar", ocf_plan_softmax(&facts, &t, &sm, &plan), &plan,
              "softmax_general wg=2 groups=1000", "WG=2 VW=1 fixed=1");
  /* Apple's CPU keeps one row a group (one work-item along dimension 1): 64 fixed work-items
     make one segment of 64 for a row of 16 float8, ITEMS 1. */
  facts = facts_of(APPLE_CPU, 0);
  t = tuning_of(&facts, APPLE_CPU, OCF_OP_SOFTMAX);
  sm = softmax_call(1024, 128, &ALIGNED, AUTO, 64);
  expect_plan("softmax fixed 64 on Apple's CPU", ocf_plan_softmax(&facts, &t, &sm, &plan), &plan,
              "softmax_rows wg=64x1 groups=1x1024", "WG=64 SEG=64 ITEMS=1 fixed=1");
  /* Above Mali's 384: 250 float4 a row make a 64 x 8 softmax_rows group, each dimension within
     384, the whole not. */
  facts = facts_of(MALI, 32);
  t = tuning_of(&facts, MALI, OCF_OP_SOFTMAX);
  sm = softmax_call(4, 1000, &ALIGNED, AUTO, 512);
  expect_refused("softmax fixed 512 on Mali", ocf_plan_softmax(&facts, &t, &sm, &plan),
                 "workgroup of 512 work-items exceeds the device's maximum of 384");

  /* matmul: a power of two laid out near-square, N first (128: 16 x 8), the set's outputs a
     work-item kept. On Mali's 16 KiB, 128 work-items of 4 x 4 make 64 x 32 tiles (13312 bytes
     of slices), 256 make 64 x 64 (17408): refused. */
  facts = facts_of(MALI, 8);
  t = tuning_of(&facts, MALI, OCF_OP_MATMUL);
  ocf_matmul_call mm = matmul_call(0, 0, 256, 256, 256, 0, 0, AUTO, 128);
  expect_plan("matmul fixed 128 on Mali", ocf_plan_matmul(&facts, &t, &mm, &plan), &plan,
              "matmul_tiled_fast wg=16x8 groups=4x8",
              "NDIMC=16 MDIMC=8 MWI=4 NWI=4 fixed=1 local_mem=13312");
  mm.workgroup = 256;
  expect_refused("matmul fixed 256 on Mali", ocf_plan_matmul(&facts, &t, &mm, &plan),
                 "local memory");
  mm.workgroup = 96;
  expect_refused("matmul fixed 96", ocf_plan_matmul(&facts, &t, &mm, &plan), "not a power of two");
  /* Apple's CPU has one work-item along M: 4 work-items laid out 2 x 2 cannot run; 2 (2 x 1)
     can. */
  facts = facts_of(APPLE_CPU, 0);
  t = tuning_of(&facts, APPLE_CPU, OCF_OP_MATMUL);
  mm = matmul_call(0, 0, 64, 64, 64, 0, 0, AUTO, 4);
  expect_refused("matmul fixed 4 on Apple's CPU", ocf_plan_matmul(&facts, &t, &mm, &plan),
                 "workgroup dimension 1 is 2");
  mm.workgroup = 2;
  expect_plan("matmul fixed 2 on Apple's CPU", ocf_plan_matmul(&facts, &t, &mm, &plan), &plan,
              "matmul_tiled_fast wg=2x1 groups=8x16", "NDIMC=2 MDIMC=1");
  /* One work-item on the H200 (the shape of test_matmul's workgroup sweep): the small set's
     2 x 2 outputs a work-item would make 2 x 2 tiles, and a tile side must be a multiple of 4,
     so the work-item takes 4 x 4: ceil(130 / 4) x ceil(129 / 4) groups, the guarded kernel for
     the ragged sides. */
  facts = facts_of(H200, 0);
  t = tuning_of(&facts, H200, OCF_OP_MATMUL);
  mm = matmul_call(0, 0, 129, 130, 21, 0, 0, AUTO, 1);
  expect_plan("matmul fixed 1 on the H200", ocf_plan_matmul(&facts, &t, &mm, &plan), &plan,
              "matmul_tiled_mixed wg=1x1 groups=33x33", "NDIMC=1 MDIMC=1 MWI=4 NWI=4");
}

/* A fixed softmax size is refused exactly above the device's maximum, and at once: SIZE_MAX used
   to keep the planner's segment search busy for hours, 4294967311 for 11 s (the alarm turns a
   hang into a failure of this suite rather than of its timeout). At the maximum it is planned. */
static void test_plan_softmax_fixed_workgroup_edges(void **state) {
  (void)state;
  alarm(60);
  static const device_id ids[] = {POCL, H200, MALI, LLVMPIPE};
  for (size_t d = 0; d < ARRAY_LEN(ids); d++) {
    ocf_device_facts facts = facts_of(ids[d], 0);
    ocf_tuning_values t = tuning_of(&facts, ids[d], OCF_OP_SOFTMAX);
    const size_t max = devices[ids[d]].max_workgroup;
    char what[96], message[96];
    snprintf(message, sizeof message, "workgroup of %zu work-items exceeds the device's maximum",
             max + 1);
    ocf_plan plan;
    /* One row of `max` floats: one segment of the whole group (no dimension-1 limit met). */
    ocf_softmax_call sm = softmax_call(1, max, &ALIGNED, AUTO, max);
    snprintf(what, sizeof what, "softmax fixed %zu on %s", max, devices[ids[d]].name);
    ocf_status status = ocf_plan_softmax(&facts, &t, &sm, &plan);
    if (status == OCF_ERR_INVALID_WORKGROUP && strstr(ocf_last_error(), "exceeds the device"))
      fail_msg("%s: refused as too large: %s", what, ocf_last_error());
    sm.workgroup = max + 1;
    snprintf(what, sizeof what, "softmax fixed %zu on %s", max + 1, devices[ids[d]].name);
    expect_refused(what, ocf_plan_softmax(&facts, &t, &sm, &plan), message);
    static const size_t huge[] = {1000000007, 4294967311u, SIZE_MAX / 2 + 1, SIZE_MAX};
    for (size_t h = 0; h < ARRAY_LEN(huge); h++) {
      sm.workgroup = huge[h];
      snprintf(what, sizeof what, "softmax fixed %zu on %s", huge[h], devices[ids[d]].name);
      expect_refused(what, ocf_plan_softmax(&facts, &t, &sm, &plan), "exceeds the device");
    }
  }
  alarm(0);
}

/* ---- plans of any tuning the validator accepts ---- */

/* A softmax_rows group that shrinks for few rows stays a whole number of segments (SEG divides
   WG, cl/softmax_common.clh), also for a rows_wg that is no power of two, which the validator
   allows. */
static void test_plan_softmax_segments_divide_any_group(void **state) {
  (void)state;
  static const char *const overrides[] = {"rows_wg=96", "rows_wg=48", "rows_wg=24", "rows_wg=100",
                                          "rows_wg=192 max_seg=64"};
  static const size_t rows_list[] = {1, 2, 3, 5, 11, 1000};
  static const size_t cols_list[] = {8, 64, 200, 256, 512};
  ocf_device_facts facts = facts_of(POCL, 0);
  for (size_t o = 0; o < ARRAY_LEN(overrides); o++) {
    ocf_tuning_values t = tuning_of(&facts, POCL, OCF_OP_SOFTMAX);
    assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, overrides[o], &t, "test"), OCF_SUCCESS);
    assert_int_equal(ocf_tuning_check(OCF_OP_SOFTMAX, &t, "test"), OCF_SUCCESS);
    for (size_t r = 0; r < ARRAY_LEN(rows_list); r++) {
      for (size_t c = 0; c < ARRAY_LEN(cols_list); c++) {
        const ocf_softmax_call call = softmax_call(rows_list[r], cols_list[c], &ALIGNED, AUTO, 0);
        ocf_plan plan;
        char what[160];
        snprintf(what, sizeof what, "softmax with %s: %zu x %zu", overrides[o], rows_list[r],
                 cols_list[c]);
        ocf_status status = ocf_plan_softmax(&facts, &t, &call, &plan);
        expect_success(what, status);
        check_fits(what, &plan, &facts);
        check_softmax_assumptions(what, &plan, &call);
      }
    }
  }
}

/* softmax_coop's extra work is bounded whatever values the validator accepts: a workgroup polls
   its partners' slots at most 2^21 times in all (parts x SPIN) and a row has at most 1024 slices
   (a workgroup that finds partners missing computes their slices: at worst the row). Found by a
   hostile tuning: coop_spin=16777216 coop_items=1 groups_per_unit=64 planned 118 slices of
   16 M polls each for a 2 x 30000 softmax on PoCL (over 300 s); it failed here before the
   bound. The derivation of the first case: PoCL's long-row values (src/tuning/builtin.tuning) with
   those three; the bound then cuts SPIN to 2^21 / parts. */
static void test_plan_softmax_coop_work_bounded(void **state) {
  (void)state;
  static const char *const extremes[] = {
      "coop_spin=16777216 coop_items=1 groups_per_unit=64",
      "coop_spin=16777216 coop_items=1 groups_per_unit=64 wg=4 min_wg=4 items=1 vw=1",
      "coop_spin=16777216 coop_items=0 groups_per_unit=64 wg=4 min_wg=4 items=1 vw=4",
      "coop_spin=16777216 coop_items=64 groups_per_unit=1 wg=16384 min_wg=1 items=64 vw=4",
      "coop_spin=1 coop_items=1 groups_per_unit=64",
  };
  static const size_t shapes[][2] = {
      {2, 30000}, {1, 1 << 20}, {1, 1 << 24}, {64, 300000}, {1, 70000}};
  static const device_id ids[] = {POCL, H200, MALI};
  for (size_t d = 0; d < ARRAY_LEN(ids); d++)
    for (size_t e = 0; e < ARRAY_LEN(extremes); e++) {
      ocf_device_facts facts = facts_of(ids[d], 0);
      ocf_tuning_values t = tuning_of(&facts, ids[d], OCF_OP_SOFTMAX);
      assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, extremes[e], &t, "test"), OCF_SUCCESS);
      if (ocf_tuning_check(OCF_OP_SOFTMAX, &t, "test") != OCF_SUCCESS) continue;
      for (size_t h = 0; h < ARRAY_LEN(shapes); h++) {
        const ocf_softmax_call call = softmax_call(shapes[h][0], shapes[h][1], &ALIGNED, AUTO, 0);
        ocf_plan plan;
        char what[256];
        snprintf(what, sizeof what, "%s, %s: %zu x %zu", devices[ids[d]].name, extremes[e],
                 shapes[h][0], shapes[h][1]);
        expect_success(what, ocf_plan_softmax(&facts, &t, &call, &plan));
        if (plan.steps[0].kernel != OCF_KERNEL_SOFTMAX_COOP) continue;
        const long long spin = plan_value(&plan, "SPIN"), parts = plan_value(&plan, "parts");
        if (spin < 1 || parts > 1024 || spin * parts > (1 << 21))
          fail_msg("%s: softmax_coop of %lld slices polling %lld times each", what, parts, spin);
      }
    }
  /* The case found: 2 x 30000 on PoCL, its slices each polled at most 2^21 / parts times. */
  ocf_device_facts facts = facts_of(POCL, 0);
  ocf_tuning_values t = tuning_of(&facts, POCL, OCF_OP_SOFTMAX);
  assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, extremes[0], &t, "test"), OCF_SUCCESS);
  const ocf_softmax_call call = softmax_call(2, 30000, &ALIGNED, AUTO, 0);
  ocf_plan plan;
  expect_success("the case found", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_SOFTMAX_COOP);
  assert_int_equal(plan_value(&plan, "SPIN"), (1 << 21) / plan_value(&plan, "parts"));
}

/* The registers a softmax work-item holds its values in: 32-bit words, ITEMS vectors of VW
   elements, two 16-bit elements a word when PACKED (cl/softmax_vector.clh). */
static long long held_words(const ocf_plan *plan) {
  const long long elements = plan_value(plan, "ITEMS") * plan_value(plan, "VW");
  return plan_value(plan, "PACKED") == 1 ? (elements + 1) / 2 : elements;
}

/* The wide plans (rows.wide_wg, src/plan/plan_softmax.c plan_wide) on the H200's built-in fp32
   values (long_rows.wg=256, items=16 float4; rows.wg=128, max_seg=128): 4096 x 16384 is one
   softmax_resident workgroup of 256 a row (4096 vectors, 16 each), 4096 x 2048 one
   softmax_rows workgroup of 128 a row. With rows.wide_wg, a plan of one workgroup a row asks
   for the wide probe while its outcome is unknown, and after it passed runs the row with the
   asked-for workgroup, registers capped to fit 65536 (128 at 512, 64 at 1024) and at most half
   of them held. */
static void expect_softmax_wide(const char *what, const ocf_device_facts *facts,
                                const ocf_tuning_values *tuning, size_t rows, size_t cols,
                                size_t wg, int probe, int wide, unsigned regs) {
  const ocf_softmax_call call = softmax_call(rows, cols, &TIGHT, AUTO, 0);
  ocf_plan plan;
  expect_success(what, ocf_plan_softmax(facts, tuning, &call, &plan));
  char text[512];
  ocf_plan_describe(&plan, text, sizeof text);
  const size_t items = plan.steps[0].local[0] * plan.steps[0].local[1];
  if (items != wg || plan.probe != probe || plan.wide_workgroup != wide ||
      plan.max_registers != regs)
    fail_msg("%s: %s: %zu work-items, probe %d, wide %d, %u registers; expected %zu, %d, %d, %u",
             what, text, items, plan.probe, plan.wide_workgroup, plan.max_registers, wg, probe,
             wide, regs);
  if (wide) {
    /* Half the registers at most hold row values; the row is held or streamed as ever. */
    if (held_words(&plan) * 2 > (long long)regs && regs)
      fail_msg("%s: %s holds %lld words under a cap of %u registers", what, text, held_words(&plan),
               regs);
    char options[512];
    char cap[48];
    assert_int_equal(ocf_plan_options(&plan, options, sizeof options), 0);
    snprintf(cap, sizeof cap, "-cl-nv-maxrregcount=%u", regs);
    if (regs && !strstr(options, cap)) fail_msg("%s: options %s lack %s", what, options, cap);
  }
}

static void test_plan_softmax_wide(void **state) {
  (void)state;
  ocf_device_facts facts = facts_of(H200, 0);
  ocf_tuning_values t = tuning_of(&facts, H200, OCF_OP_SOFTMAX);
  assert_int_equal(t.softmax.rows.wide_wg, 0); /* off until measured */
  assert_int_equal(t.softmax.long_rows.wg, 256);
  expect_softmax_wide("off", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_NONE, 0, 0);
  t.softmax.rows.wide_wg = 512;
  /* Unknown: today's plan, and the probe is due. */
  expect_softmax_wide("probe unknown", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_WIDE, 0, 0);
  /* Failed: today's plan, no probe again. */
  facts.learnt.wide = OCF_PROBE_FAILED;
  expect_softmax_wide("probe failed", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_NONE, 0, 0);
  /* Passed: 512 work-items at 128 registers, 1024 at 64; above the 256 every kernel reports
     and the context learnt. */
  facts.learnt.wide = OCF_PROBE_PASSED;
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = 256;
  expect_softmax_wide("512", &facts, &t, 4096, 16384, 512, OCF_PLAN_PROBE_NONE, 1, 128);
  ocf_softmax_call call = softmax_call(4096, 16384, &TIGHT, AUTO, 0);
  ocf_plan plan;
  expect_success("512 items", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan_value(&plan, "ITEMS"), 8); /* 4096 vectors over 512 */
  t.softmax.rows.wide_wg = 1024;
  expect_softmax_wide("1024", &facts, &t, 4096, 16384, 1024, OCF_PLAN_PROBE_NONE, 1, 64);
  expect_success("1024 items", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan_value(&plan, "ITEMS"), 4);
  /* Beyond the device's maximum: cut to it. */
  t.softmax.rows.wide_wg = 4096;
  expect_softmax_wide("4096 asked", &facts, &t, 4096, 16384, 1024, OCF_PLAN_PROBE_NONE, 1, 64);
  t.softmax.rows.wide_wg = 1024;
  /* softmax_rows with one row a workgroup (4096 x 2048: 512 vectors, 128 work-items of 4): the
     whole workgroup a row, one vector each at 512; a row of fewer vectors than 1024 work-items
     keeps its plan. Two rows a workgroup (1024 columns: 64 x 2) is no plan for it either. */
  t.softmax.rows.wide_wg = 512;
  expect_softmax_wide("rows 512", &facts, &t, 4096, 2048, 512, OCF_PLAN_PROBE_NONE, 1, 128);
  ocf_softmax_call rows_call = softmax_call(4096, 2048, &TIGHT, AUTO, 0);
  expect_success("rows 512 items", ocf_plan_softmax(&facts, &t, &rows_call, &plan));
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_SOFTMAX_ROWS);
  assert_int_equal(plan_value(&plan, "SEG"), 512);
  assert_int_equal(plan_value(&plan, "ITEMS"), 1);
  t.softmax.rows.wide_wg = 1024;
  expect_softmax_wide("rows short", &facts, &t, 4096, 2048, 128, OCF_PLAN_PROBE_NONE, 0, 0);
  expect_softmax_wide("two rows a group", &facts, &t, 8192, 1024, 128, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide = OCF_PROBE_UNKNOWN;
  expect_softmax_wide("rows, probe unknown", &facts, &t, 4096, 2048, 128, OCF_PLAN_PROBE_WIDE, 0,
                      0);
  expect_softmax_wide("two rows, no probe", &facts, &t, 8192, 1024, 128, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide = OCF_PROBE_PASSED;
  /* A caller's fixed size is the caller's. */
  call.workgroup = 256;
  expect_success("fixed", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan.wide_workgroup, 0);
  assert_int_equal(plan.steps[0].local[0], 256);
  /* A wide launch of softmax_resident was refused on this context: within the learnt 256. */
  facts.learnt.wide_refused[OCF_KERNEL_SOFTMAX_RESIDENT] = 1;
  expect_softmax_wide("refused", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_NONE, 0, 0);
  /* No register cap option (any other vendor): never wide, never a probe. */
  ocf_device_facts amd = facts_of(AMD_GPU_1024, 0);
  ocf_tuning_values amd_t = tuning_of(&amd, AMD_GPU_1024, OCF_OP_SOFTMAX);
  amd_t.softmax.rows.wide_wg = 1024;
  ocf_softmax_call amd_call = softmax_call(4096, 16384, &TIGHT, AUTO, 0);
  expect_success("amd unknown", ocf_plan_softmax(&amd, &amd_t, &amd_call, &plan));
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  assert_int_equal(plan.wide_workgroup, 0);
  amd.learnt.wide = OCF_PROBE_PASSED;
  expect_success("amd passed", ocf_plan_softmax(&amd, &amd_t, &amd_call, &plan));
  assert_int_equal(plan.wide_workgroup, 0);
  assert_int_equal(plan.max_registers, 0);
  /* The facts' own gate: the cap must fit the workgroup. */
  assert_int_equal(ocf_wide_register_cap(1024), 64);
  assert_int_equal(ocf_wide_register_cap(512), 128);
  assert_int_equal(ocf_wide_register_cap(384), 168);
  assert_int_equal(ocf_wide_register_cap(256), 255);
  facts.learnt.wide_refused[OCF_KERNEL_SOFTMAX_RESIDENT] = 0;
  assert_true(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 64));
  assert_false(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 72));
  assert_false(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 0));
  assert_false(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 2048, 32));
  assert_false(ocf_facts_wide_allows(&amd, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 64));
}

/* The H200's resolved tuning (built-in values and its shipped database, which applies whole) into
 *table, for the facts *facts. */
static void resolve_h200(ocf_device_facts *facts, ocf_tuning_table *table) {
  *facts = facts_of(H200, 0);
  const ocf_device_info info = info_of(H200);
  char origin[256];
  assert_int_equal(ocf_tuning_resolve_library(facts, info.vendor, info.platform_name,
                                              info.device_name, table, origin, sizeof origin, NULL,
                                              NULL),
                   OCF_SUCCESS);
  assert_non_null(strstr(origin, "nvidia-h200.tuning"));
}

/*
 * packed=2 (src/plan/plan_softmax.c, choose): 16-bit rows held as floats where those take them in
 * softmax_rows, else as bits in twice the items (the same registers) where the bits hold the row
 * in a better way: in softmax_rows instead of softmax_resident, or whole where floats would
 * stream it. On the H200's shipped bf16 wide values (vectors of 16, long_rows.items 2 in 256
 * work-items, softmax_rows of 128 work-items holding 2 vectors a lane) with packed 2:
 *   4096 columns: softmax_rows as floats (as packed 0);
 *   8192: softmax_resident as floats (2 x 16 x 256 = 8192, whole), softmax_rows as bits (4 a lane);
 *   16384: softmax_resident streamed as floats, whole as bits (4 x 16 x 256);
 *   65536: streamed either way: floats, as packed 0;
 * fp32 input is never packed.
 */
static void test_plan_softmax_packed_where_held(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const struct {
    size_t rows, cols;
    const char *shape, *values;
  } cases[] = {
      {4096, 4096, "softmax_rows wg=128x1 groups=1x4096", "PACKED=0 ITEMS=2"},
      {4096, 8192, "softmax_rows wg=128x1 groups=1x4096", "PACKED=1 ITEMS=4"},
      {4096, 16384, "softmax_resident wg=256 groups=4096", "PACKED=1 ITEMS=4"},
      {256, 65536, "softmax_resident wg=256 groups=256", "PACKED=0 ITEMS=2"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].rows, cases[i].cols, 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
    ocf_tuning_values values = table[OCF_OP_SOFTMAX][OCF_BF16][c];
    values.softmax.packed = 2;
    ocf_softmax_call call = softmax_call(cases[i].rows, cases[i].cols, &TIGHT, AUTO, 0);
    call.in_dtype = call.out_dtype = OCF_BF16;
    char what[96];
    snprintf(what, sizeof what, "bf16 %zu x %zu, packed 2", cases[i].rows, cases[i].cols);
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, cases[i].shape,
                cases[i].values);
    /* the bits hold no more words than the floats would */
    ocf_tuning_values floats = values;
    floats.softmax.packed = 0;
    ocf_plan float_plan;
    expect_success(what, ocf_plan_softmax(&facts, &floats, &call, &float_plan));
    if (held_words(&plan) > held_words(&float_plan))
      fail_msg("%s: %lld words held a work-item, %lld as floats", what, held_words(&plan),
               held_words(&float_plan));
    call.in_dtype = OCF_F32;
    expect_success(what, ocf_plan_softmax(&facts, &values, &call, &plan));
    assert_int_equal(plan_value(&plan, "PACKED"), 0);
  }
}

/* 16-bit softmax holds its rows in the registers fp32 does, under the H200's values (built-in
   and shipped database): ptxas -v found bf16's 16 x 12 floats a work-item at 255 registers where
   fp32's 4 x 16 took 112, one 256-item workgroup a compute unit (issue 19). A 16-bit row is
   held packed (packed=1), registers follow bytes, not elements: under fp32's values with
   vectors twice as long and packed=1, a 16-bit row of the same bytes (twice the columns) gets
   fp32's plan and words; and under the 16-bit database entries (packed or not) a row never holds
   more words than fp32's plan of it, on the wide and long rows where registers bind (medium f16
   rows hold 32 floats as floats). Checked to fail before the fix (floats held: twice the words). */
static void test_plan_softmax_16bit_registers(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const size_t shapes[][2] = {{512, 50257},  {1024, 65536}, {128, 152064}, {256, 32000},
                                     {1024, 30522}, {4096, 16384}, {32768, 4096}, {4096, 4096}};
  static const ocf_dtype halves[] = {OCF_F16, OCF_BF16};
  for (size_t h = 0; h < ARRAY_LEN(shapes); h++) {
    const ocf_shape shape = {{shapes[h][0], shapes[h][1], 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
    ocf_softmax_call call = softmax_call(shapes[h][0], shapes[h][1], &TIGHT, AUTO, 0);
    const ocf_tuning_values *fp32_values = &table[OCF_OP_SOFTMAX][OCF_F32][c];
    ocf_plan plan;
    expect_success("fp32", ocf_plan_softmax(&facts, fp32_values, &call, &plan));
    const long long fp32_words = held_words(&plan);
    const ocf_kernel_id fp32_kernel = plan.steps[0].kernel;
    for (size_t d = 0; d < ARRAY_LEN(halves); d++) {
      call.in_dtype = call.out_dtype = halves[d];
      char what[128];
      snprintf(what, sizeof what, "%zu x %zu %s", shapes[h][0], shapes[h][1],
               ocf_dtype_name(halves[d]));
      expect_success(what,
                     ocf_plan_softmax(&facts, &table[OCF_OP_SOFTMAX][halves[d]][c], &call, &plan));
      if (held_words(&plan) > fp32_words)
        fail_msg("%s: PACKED=%lld, %lld words held a work-item, fp32 %lld", what,
                 plan_value(&plan, "PACKED"), held_words(&plan), fp32_words);
      ocf_tuning_values doubled = *fp32_values;
      doubled.softmax.vw *= 2;
      doubled.softmax.packed = 1;
      ocf_softmax_call same_bytes = softmax_call(shapes[h][0], 2 * shapes[h][1], &TIGHT, AUTO, 0);
      same_bytes.in_dtype = same_bytes.out_dtype = halves[d];
      expect_success(what, ocf_plan_softmax(&facts, &doubled, &same_bytes, &plan));
      if (plan.steps[0].kernel != fp32_kernel || held_words(&plan) != fp32_words)
        fail_msg("%s, twice the columns under fp32's values in vectors of %d: %s holding %lld "
                 "words, fp32 %s %lld",
                 what, doubled.softmax.vw, kernel_name(plan.steps[0].kernel), held_words(&plan),
                 kernel_name(fp32_kernel), fp32_words);
    }
    call.in_dtype = call.out_dtype = OCF_F32;
  }
}

/* The H200's 16-bit long entries cut rows in slices only below 1.5 rows a compute unit
 * (split_rows_pct 150: 198 of 132 units), where whole rows leave units idle or run a ragged last
 * wave: 128 rows of 152064 columns split (9504 vectors of 16 in 5 slices, filling 4 workgroups
 * a unit: 528 / 128) and 197 rows in 3, loading one vector a step (split_unroll 1: the stats
 * kernel's registers), while 198 rows, and 256 of 100003 columns, stay whole in
 * softmax_resident, streaming two vectors a step (unroll 2). Under split_rows_pct 0
 * (groups_per_unit's 4 a unit) 256 rows would split in 3.
 */
static void test_plan_softmax_split_rows(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  assert_int_equal(facts.compute_units, 132);
  static const struct {
    ocf_dtype dtype;
    size_t rows, cols;
    int split_rows_pct; /* -1: the shipped value */
    const char *shape, *values;
  } cases[] = {
      {OCF_BF16, 128, 152064, -1,
       "softmax_split_stats wg=256 groups=640 + softmax_split_write wg=256 groups=640", "UNROLL=1"},
      {OCF_F16, 197, 152064, -1,
       "softmax_split_stats wg=256 groups=591 + softmax_split_write wg=256 groups=591", "UNROLL=1"},
      {OCF_BF16, 198, 152064, -1, "softmax_resident wg=256 groups=198", "UNROLL=2 ITEMS=2"},
      {OCF_F16, 256, 100003, -1, "softmax_resident wg=256 groups=256", "UNROLL=2 ITEMS=2"},
      {OCF_BF16, 256, 100003, 0,
       "softmax_split_stats wg=256 groups=768 + softmax_split_write wg=256 groups=768", "UNROLL=1"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].rows, cases[i].cols, 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
    ocf_tuning_values values = table[OCF_OP_SOFTMAX][cases[i].dtype][c];
    assert_int_equal(values.softmax.long_rows.split_unroll, 1);
    if (cases[i].split_rows_pct >= 0)
      values.softmax.long_rows.split_rows_pct = cases[i].split_rows_pct;
    ocf_softmax_call call = softmax_call(cases[i].rows, cases[i].cols, &TIGHT, AUTO, 0);
    call.in_dtype = call.out_dtype = cases[i].dtype;
    char what[96];
    snprintf(what, sizeof what, "%s %zu x %zu, split_rows_pct %d", ocf_dtype_name(cases[i].dtype),
             cases[i].rows, cases[i].cols, values.softmax.long_rows.split_rows_pct);
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, cases[i].shape,
                cases[i].values);
  }
}

/* The H200's long fp32 class (shipped database): softmax_rows holds at most 32 float4 a
 * work-item (rows.items; the class's long_rows.items is 48), and rows that 128 work-items cannot
 * hold so take segments of up to 256 (rows.long_seg), one row a workgroup, before
 * softmax_resident: 16500 columns = 4125 float4, 33 a work-item of 128 (over 32), 17 -> L(17) =
 * 24 of 256; 32768 = 8192 float4 = 256 x 32, the longest; one float more is 8193, over 256 x
 * 32: softmax_resident. Rows 128 work-items hold keep them (the wide class's 16384, and 4500
 * columns: 9 -> 12). Without rows.long_seg the long rows go to softmax_resident; without
 * rows.items too, softmax_rows takes 48 a work-item, the plan that ran at 1374-1633 GB/s. The
 * 16-bit long rows keep theirs (both off).
 */
static void test_plan_softmax_long_segments(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const struct {
    ocf_dtype dtype;
    size_t rows, cols;
    const char *tuning; /* over the shipped values, or NULL */
    const char *shape, *values;
  } cases[] = {
      {OCF_F32, 1024, 16500, NULL, "softmax_rows wg=256x1 groups=1x1024", "SEG=256 ITEMS=24"},
      {OCF_F32, 1024, 24576, NULL, "softmax_rows wg=256x1 groups=1x1024", "SEG=256 ITEMS=24"},
      {OCF_F32, 1024, 32768, NULL, "softmax_rows wg=256x1 groups=1x1024", "SEG=256 ITEMS=32"},
      {OCF_F32, 1024, 32769, NULL, "softmax_resident wg=256 groups=1024", NULL},
      {OCF_F32, 4096, 16384, NULL, "softmax_rows wg=128x1 groups=1x4096", "SEG=128 ITEMS=32"},
      {OCF_F32, 4096, 4500, NULL, "softmax_rows wg=128x1 groups=1x4096", "SEG=128 ITEMS=12"},
      {OCF_F32, 1024, 16500, "rows.long_seg=0", "softmax_resident wg=128 groups=1024", NULL},
      {OCF_F32, 1024, 16500, "rows.long_seg=0 rows.items=0", "softmax_rows wg=128x1 groups=1x1024",
       "SEG=128 ITEMS=48"},
      {OCF_BF16, 1024, 20000, NULL, "softmax_resident wg=256 groups=528", NULL},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].rows, cases[i].cols, 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
    ocf_tuning_values values = table[OCF_OP_SOFTMAX][cases[i].dtype][c];
    if (cases[i].tuning)
      assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, cases[i].tuning, &values, "case"),
                       OCF_SUCCESS);
    ocf_softmax_call call = softmax_call(cases[i].rows, cases[i].cols, &TIGHT, AUTO, 0);
    call.in_dtype = call.out_dtype = cases[i].dtype;
    char what[128];
    snprintf(what, sizeof what, "%s %zu x %zu, %s", ocf_dtype_name(cases[i].dtype), cases[i].rows,
             cases[i].cols, cases[i].tuning ? cases[i].tuning : "shipped");
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, cases[i].shape,
                cases[i].values);
  }
}

/* The H200's huge rows (more than 262144 columns) run the split in every type, never
 * softmax_coop's waiting slices (16-bit slices waited at 1.4-1.7 GB/s, fp32 lost 8 x 4e6 by
 * 1.7x; SOFTMAX.md, "Slices that wait"): fp32 streams 8 vectors a step, 16-bit one. */
static void test_plan_softmax_huge_split(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const size_t shapes[][2] = {{1, 4000000}, {8, 4000000}, {16, 1000003}, {64, 262147}};
  static const ocf_dtype dtypes[] = {OCF_F32, OCF_BF16, OCF_F16};
  for (size_t h = 0; h < ARRAY_LEN(shapes); h++)
    for (size_t d = 0; d < ARRAY_LEN(dtypes); d++) {
      const ocf_shape shape = {{shapes[h][0], shapes[h][1], 0}};
      const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
      assert_string_equal(ocf_shape_class_name(OCF_OP_SOFTMAX, c), "huge");
      ocf_softmax_call call = softmax_call(shapes[h][0], shapes[h][1], &TIGHT, AUTO, 0);
      call.in_dtype = call.out_dtype = dtypes[d];
      ocf_plan plan;
      expect_success("huge",
                     ocf_plan_softmax(&facts, &table[OCF_OP_SOFTMAX][dtypes[d]][c], &call, &plan));
      const long long unroll = dtypes[d] == OCF_F32 ? 8 : 1;
      if (plan.steps[0].kernel != OCF_KERNEL_SOFTMAX_SPLIT_STATS ||
          plan_value(&plan, "UNROLL") != unroll)
        fail_msg("%zu x %zu %s: %s, UNROLL=%lld (expected the split, %lld)", shapes[h][0],
                 shapes[h][1], ocf_dtype_name(dtypes[d]), kernel_name(plan.steps[0].kernel),
                 plan_value(&plan, "UNROLL"), unroll);
    }
}

/* ---- the plan's own checks ---- */

/* ocf_plan_verify catches plans the kernels could not run (a library bug, never a caller's). */
static void test_plan_verify_catches_broken_plans(void **state) {
  (void)state;
  ocf_device_facts facts = facts_of(H200, 0);
  ocf_tuning_values t = tuning_of(&facts, H200, OCF_OP_ADD);
  const ocf_add_call call = {1000, 0, 0, 0, OCF_F32, AUTO, 0};
  ocf_plan good, plan;
  assert_int_equal(ocf_plan_add(&facts, &t, &call, &good), OCF_SUCCESS);
  char options[256];
  assert_int_equal(ocf_plan_options(&good, options, sizeof options), 0);
  assert_string_equal(options, "-DWG=256 -DVW=4 -DDTYPE=0 -DOCF_KERNEL_add_vector");
  assert_int_equal(ocf_plan_options(&good, options, 10), -1);
  /* A program holds its plan's kernels and no others: a split names both of its steps. */
  ocf_tuning_values mt = tuning_of(&facts, H200, OCF_OP_MATMUL);
  const ocf_matmul_call split_call = matmul_call(0, 0, 1024, 1024, 16384, 0, 0, AUTO, 0);
  ocf_plan split;
  char split_options[1024];
  assert_int_equal(ocf_plan_matmul(&facts, &mt, &split_call, &split), OCF_SUCCESS);
  assert_int_equal(split.step_count, 2);
  assert_int_equal(ocf_plan_options(&split, split_options, sizeof split_options), 0);
  assert_non_null(
      strstr(split_options, " -DOCF_KERNEL_matmul_tiled_split -DOCF_KERNEL_matmul_reduce"));
  assert_null(strstr(split_options, "OCF_KERNEL_matmul_tiled_fast"));

  plan = good;
  plan.define_count = 1; /* WG only: add_vector reads VW and DTYPE too */
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_VALUE);
  assert_non_null(strstr(ocf_last_error(), "-DVW"));
  plan = good;
  plan.steps[0].global[0] = 1000; /* not a multiple of 256 */
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_VALUE);
  plan = good;
  plan.steps[0].kernel = OCF_KERNEL_SOFTMAX_ROWS; /* another program's kernel */
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_VALUE);
  plan = good;
  plan.steps[0].local[2] = 128; /* the H200's third dimension holds 64 */
  plan.steps[0].global[2] = 128;
  plan.steps[0].dims = 3;
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_WORKGROUP);
  plan = good;
  plan.local_mem_bytes = 48 * KIB + 1;
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_WORKGROUP);
  plan = good;
  plan.step_count = 0;
  assert_int_equal(ocf_plan_verify(&plan, &facts), OCF_ERR_INVALID_VALUE);
}

/* ---- norm (LayerNorm, RMSNorm; issue 20) ---- */

static ocf_norm_call norm_call_of(int rms, size_t rows, size_t cols, size_t off, size_t ld_extra,
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

/* Every device, shape, layout, variant and workgroup size: a plan that fits and keeps its
   kernels' assumptions; and the kernels the built-in tuning gives the issue's shapes. */
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
  /* The built-in tuning on the H200: rows of the issue's table held in registers, in vectors of
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

/* ---- bf16_cvt (cl/bf16_words.clh) ---- */

/* BF16_CVT of a plan, after checking that the planner succeeded and that VW is `vw` (1: scalar
   access, else at least 2). */
static long long bf16_cvt_of(const char *what, ocf_status status, const ocf_plan *plan, int vw) {
  expect_success(what, status);
  const long long got_vw = define_of(plan, "VW");
  if (vw == 1 ? got_vw != 1 : got_vw < 2)
    fail_msg("%s: VW %lld, expected %s", what, got_vw, vw == 1 ? "1" : "2 or more");
  return define_of(plan, "BF16_CVT");
}

/* bf16_cvt reaches a plan as BF16_CVT 1 only where a bfloat16 operand is stored in vectors
   (softmax's out; norm's out or res_out) on an NVIDIA GPU of compute capability 8.0 on; as 0
   everywhere else: PoCL, an AMD GPU, compute capability 7.5, fp16 or fp32 output, bfloat16 only
   read, scalar access (rows off the vector, the general variant), and bf16_cvt=0. */
static void test_plan_bf16_cvt(void **state) {
  (void)state;
  typedef struct {
    const char *name;
    device_id id;
    unsigned cc; /* 0: as the device reports */
    int ptx;     /* whether BF16_CVT 1 may reach its plans */
  } bf16_device;
  static const bf16_device cases[] = {{"H200", H200, 0, 1},
                                      {"H200 as 8.0", H200, 80, 1},
                                      {"H200 as 7.5", H200, 75, 0},
                                      {"PoCL", POCL, 0, 0},
                                      {"AMD GPU", AMD_GPU, 0, 0}};
  for (size_t d = 0; d < ARRAY_LEN(cases); d++)
    for (int cvt = 0; cvt <= 1; cvt++) {
      ocf_device_facts facts = facts_of(cases[d].id, 0);
      if (cases[d].cc) facts.nv_compute_capability = cases[d].cc;
      const long long want = cvt && cases[d].ptx;
      char what[128];
      ocf_plan plan;

      ocf_tuning_values t = tuning_of(&facts, cases[d].id, OCF_OP_SOFTMAX);
      t.softmax.vw = 8;
      t.softmax.bf16_cvt = cvt;
      ocf_softmax_call sc = softmax_call(64, 4096, &TIGHT, AUTO, 0);
      static const ocf_dtype ins[] = {OCF_BF16, OCF_F16, OCF_F32};
      for (size_t i = 0; i < ARRAY_LEN(ins); i++) {
        sc.in_dtype = ins[i];
        sc.out_dtype = OCF_BF16;
        snprintf(what, sizeof what, "%s bf16_cvt=%d softmax %s -> bf16", cases[d].name, cvt,
                 ocf_dtype_name(ins[i]));
        assert_int_equal(bf16_cvt_of(what, ocf_plan_softmax(&facts, &t, &sc, &plan), &plan, 8),
                         want);
        sc.out_dtype = OCF_F16;
        assert_int_equal(bf16_cvt_of(what, ocf_plan_softmax(&facts, &t, &sc, &plan), &plan, 8), 0);
        sc.out_dtype = OCF_F32;
        assert_int_equal(bf16_cvt_of(what, ocf_plan_softmax(&facts, &t, &sc, &plan), &plan, 8), 0);
      }
      snprintf(what, sizeof what, "%s bf16_cvt=%d softmax bf16, scalar", cases[d].name, cvt);
      sc = softmax_call(64, 4096, &IN_OFF_1, AUTO, 0);
      sc.in_dtype = sc.out_dtype = OCF_BF16;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_softmax(&facts, &t, &sc, &plan), &plan, 1), 0);
      sc = softmax_call(64, 4096, &TIGHT, GENERAL, 0);
      sc.in_dtype = sc.out_dtype = OCF_BF16;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_softmax(&facts, &t, &sc, &plan), &plan, 1), 0);

      t = tuning_of(&facts, cases[d].id, OCF_OP_NORM);
      t.norm.vw = 8;
      t.norm.bf16_cvt = cvt;
      snprintf(what, sizeof what, "%s bf16_cvt=%d norm", cases[d].name, cvt);
      /* out bfloat16; then only res_out; then the residual only read, bfloat16 only read, fp16
         out, and rows off the vector (out's otherwise than in's). */
      ocf_norm_call nc = norm_call_of(0, 64, 4096, 0, 0, AUTO, 0);
      nc.in_dtype = nc.out_dtype = nc.res_dtype = nc.weight_dtype = OCF_BF16;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_norm(&facts, &t, &nc, &plan), &plan, 8), want);
      nc.in_dtype = nc.out_dtype = nc.weight_dtype = OCF_F32;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_norm(&facts, &t, &nc, &plan), &plan, 8), want);
      nc.has_res_out = 0;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_norm(&facts, &t, &nc, &plan), &plan, 8), 0);
      nc.in_dtype = nc.weight_dtype = OCF_BF16;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_norm(&facts, &t, &nc, &plan), &plan, 8), 0);
      nc.out_dtype = OCF_F16;
      assert_int_equal(bf16_cvt_of(what, ocf_plan_norm(&facts, &t, &nc, &plan), &plan, 8), 0);
      nc = norm_call_of(1, 64, 4096, 1, 0, AUTO, 0);
      nc.in_dtype = nc.out_dtype = nc.res_dtype = OCF_BF16;
      nc.out_off = 0; /* y's rows not as far inside their vectors as x's: not even SHIFTED */
      assert_int_equal(bf16_cvt_of(what, ocf_plan_norm(&facts, &t, &nc, &plan), &plan, 1), 0);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_device_facts),
      cmocka_unit_test(test_plan_builtin_rows),
      cmocka_unit_test(test_plan_row_specificity),
      cmocka_unit_test(test_plan_bad_rows_reported),
      cmocka_unit_test(test_plan_add_table),
      cmocka_unit_test(test_plan_softmax_table),
      cmocka_unit_test(test_plan_matmul_table),
      cmocka_unit_test(test_plan_matmul_mma_choice),
      cmocka_unit_test(test_plan_matmul_few),
      cmocka_unit_test(test_plan_matmul_mma_shapes),
      cmocka_unit_test(test_plan_matmul_mma_local_memory),
      cmocka_unit_test(test_plan_matmul_mma_probe_plan),
      cmocka_unit_test(test_plan_attention_mma_local_memory),
      cmocka_unit_test(test_plan_attention_decode_routes),
      cmocka_unit_test(test_plan_attention_lanes_routes),
      cmocka_unit_test(test_plan_attention_lanes_join),
      cmocka_unit_test(test_plan_attention_mma_join),
      cmocka_unit_test(test_plan_matmul_wgmma),
      cmocka_unit_test(test_plan_wgmma_waves),
      cmocka_unit_test(test_plan_wgmma_staged16),
      cmocka_unit_test(test_plan_matmul_wgmma_lastwave),
      cmocka_unit_test(test_plan_matmul_wgmma_staged),
      cmocka_unit_test(test_plan_matmul_pad),
      cmocka_unit_test(test_plan_matmul_pad_sides),
      cmocka_unit_test(test_plan_matmul_pad_waves),
      cmocka_unit_test(test_plan_matmul_wave_split),
      cmocka_unit_test(test_plan_matmul_split_to_wave),
      cmocka_unit_test(test_plan_matmul_few_rows),
      cmocka_unit_test(test_plan_matmul_mixed_c_check),
      cmocka_unit_test(test_plan_defaults_always_fit),
      cmocka_unit_test(test_plan_fixed_workgroups),
      cmocka_unit_test(test_plan_softmax_fixed_workgroup_edges),
      cmocka_unit_test(test_plan_softmax_segments_divide_any_group),
      cmocka_unit_test(test_plan_softmax_coop_work_bounded),
      cmocka_unit_test(test_plan_softmax_16bit_registers),
      cmocka_unit_test(test_plan_softmax_packed_where_held),
      cmocka_unit_test(test_plan_softmax_split_rows),
      cmocka_unit_test(test_plan_softmax_long_segments),
      cmocka_unit_test(test_plan_softmax_huge_split),
      cmocka_unit_test(test_plan_softmax_wide),
      cmocka_unit_test(test_plan_verify_catches_broken_plans),
      cmocka_unit_test(test_plan_norm),
      cmocka_unit_test(test_plan_norm_wide),
      cmocka_unit_test(test_plan_norm_h200_classes),
      cmocka_unit_test(test_plan_norm_h200_long),
      cmocka_unit_test(test_plan_norm_stream),
      cmocka_unit_test(test_plan_bf16_cvt),
  };
  return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
