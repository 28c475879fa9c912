/*
 * The planner on described devices, what is no one op's (the method, the devices and the
 * helpers: tests/plan_fixture.h): the device facts and vendors; the built-in tuning rows, which
 * row wins and how a bad one is reported; every default plan of every op against its kernels'
 * assumptions on every device; sizes the caller fixed; the plan's own checks; bf16_cvt, which
 * softmax and norm share. Each op's own plans: test_plan_<op>.c.
 */

#include "plan_fixture.h"

#include "ops/registry.h"

#include <stdio.h>
#include <string.h>

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
  if (count == 0) print_error("src/tuning/builtin.tuning: %s\n", ocf_builtin_error());
  assert_true(count > 0);
  assert_string_equal(ocf_builtin_error(), "");
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

/* ---- every default plan fits and meets its kernels' assumptions ---- */

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
     one float8 held: 8232 bytes for 1024, 16424 for 2048, which do not fit either (vectors of
     8, as these sizes were worked out; the built-in CPU row has 16). */
  facts = facts_of(POCL, 0);
  t = tuning_of(&facts, POCL, OCF_OP_SOFTMAX);
  assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, "vw=8", &t, "test"), OCF_SUCCESS);
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

/* ---- scratch within a caller's workspace ---- */

/* The op's plan of `call` (its registry row's call struct) under a scratch bound of `bytes`
   (set 0: none), as the run loop plans a call within a short workspace. */
static ocf_status plan_bounded(const ocf_op_desc *desc, const ocf_device_facts *facts,
                               const ocf_tuning_values *t, const ocf_call_storage *call, int set,
                               size_t bytes, ocf_plan *plan) {
  ocf_call_storage bounded = *call;
  ocf_scratch_bound bound;
  memset(&bound, 0, sizeof bound);
  bound.set = set;
  bound.bytes = bytes;
  memcpy(bounded.bytes + desc->scratch_bound_at, &bound, sizeof bound);
  memset(plan, 0, sizeof *plan);
  return desc->plan(facts, t, bounded.bytes, plan);
}

/* Every plan with scratch, on every kind of device, shrinks to a caller's workspace: a bound of
   its own size keeps it as it is; bounds of a byte less, half, one byte and none give plans of
   no more scratch (fewer ranges of the split, or none), which pass the plan's checks. Only a
   split a device's loop limit forces (llvmpipe's long attention rows) keeps its size: the launch
   refuses it then. */
static void test_plan_scratch_bounds(void **state) {
  (void)state;
  ocf_device_facts wgmma = with_h200_memory(h200_probed(49152));
  wgmma.learnt.wgmma = OCF_PROBE_PASSED;
  wgmma.learnt.wgmma_local_ok = 205824;
  wgmma.learnt.wgmma_local_ok_reported = 205824 + 16;
  const struct {
    device_id id;
    ocf_device_facts facts;
  } devs[] = {{H200, wgmma},
              {H200, with_h200_memory(h200_probed(49152))},
              {POCL, facts_of(POCL, 0)},
              {LLVMPIPE, facts_of(LLVMPIPE, 0)},
              {AMD_GPU, facts_of(AMD_GPU, 0)},
              {OCLGRIND, facts_of(OCLGRIND, 0)}};
  /* Calls that split on some device: long rows, few output tiles over a long K, decoding. */
  static const struct {
    ocf_op op;
    size_t dims[5];
  } calls[] = {
      {OCF_OP_SOFTMAX, {1, 262144}},
      {OCF_OP_SOFTMAX, {4, 100000}},
      {OCF_OP_SOFTMAX, {16, 65536}},
      {OCF_OP_NORM, {1, 262144}},
      {OCF_OP_NORM, {3, 50257}},
      {OCF_OP_MATMUL, {16, 16, 65536}},
      {OCF_OP_MATMUL, {64, 64, 8192}},
      {OCF_OP_MATMUL, {1, 4096, 8192}},
      {OCF_OP_MATMUL, {128, 8192, 4096}},
      {OCF_OP_ATTENTION, {1, 32, 1, 8192, 128}},
      {OCF_OP_ATTENTION, {1, 8, 1, 4096, 64}},
      {OCF_OP_ATTENTION, {2, 32, 4, 4096, 128}},
  };
  static const ocf_dtype dtypes[] = {OCF_F32, OCF_BF16};
  size_t count = 0;
  const ocf_tuning_row *rows = NULL;
  size_t row_count = 0;
  rows = ocf_builtin_rows(&row_count);
  for (size_t d = 0; d < ARRAY_LEN(devs); d++)
    for (size_t c = 0; c < ARRAY_LEN(calls); c++)
      for (size_t k = 0; k < ARRAY_LEN(dtypes); k++) {
        const ocf_op_desc *desc = ocf_op_desc_get(calls[c].op);
        assert_non_null(desc);
        assert_true(desc->scratch_bound_at > 0);
        const ocf_device_facts *facts = &devs[d].facts;
        ocf_tuning_values t;
        assert_int_equal(ocf_tuning_resolve(rows, row_count, calls[c].op, dtypes[k], facts,
                                            devices[devs[d].id].name, &t),
                         OCF_SUCCESS);
        ocf_call_storage call;
        memset(&call, 0, sizeof call);
        desc->sized_call(calls[c].dims, dtypes[k], call.bytes);
        char what[128];
        snprintf(what, sizeof what, "%s %s %zu x %zu x %zu dtype %d", devices[devs[d].id].name,
                 desc->name, calls[c].dims[0], calls[c].dims[1], calls[c].dims[2], (int)dtypes[k]);
        ocf_plan plan;
        const ocf_status status = plan_bounded(desc, facts, &t, &call, 0, 0, &plan);
        if (status != OCF_SUCCESS) continue; /* a refusal (a loop limit) is another test's */
        const size_t full = plan.scratch_bytes;
        if (full == 0 || plan.probe != OCF_PLAN_PROBE_NONE) continue;
        count++;
        expect_success(what, plan_bounded(desc, facts, &t, &call, 1, full, &plan));
        assert_int_equal(plan.scratch_bytes, full);
        const size_t bounds[] = {full - 1, full / 2, 1, 0};
        for (size_t b = 0; b < ARRAY_LEN(bounds); b++) {
          expect_success(what, plan_bounded(desc, facts, &t, &call, 1, bounds[b], &plan));
          expect_success(what, ocf_plan_verify(&plan, facts));
          const int forced = devs[d].id == LLVMPIPE && calls[c].op == OCF_OP_ATTENTION;
          if (plan.scratch_bytes > bounds[b] && !forced) {
            print_error("%s: %zu bytes of scratch within a bound of %zu (%zu unbounded)\n", what,
                        plan.scratch_bytes, bounds[b], full);
            fail();
          }
        }
      }
  assert_true(count >= 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_device_facts),
      cmocka_unit_test(test_plan_builtin_rows),
      cmocka_unit_test(test_plan_row_specificity),
      cmocka_unit_test(test_plan_bad_rows_reported),
      cmocka_unit_test(test_plan_defaults_always_fit),
      cmocka_unit_test(test_plan_fixed_workgroups),
      cmocka_unit_test(test_plan_verify_catches_broken_plans),
      cmocka_unit_test(test_plan_bf16_cvt),
      cmocka_unit_test(test_plan_scratch_bounds),
  };
  return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
