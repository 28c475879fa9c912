/* The op registry (src/ops/registry.c) against everything that iterates it: every row is its
   op's, its schema is tuning's, its shape classes are tuning's and cover every call of its
   warm-up grid, its warm-up grid plans on a described device, its frames fit, and the public
   ocf_op_count / ocf_op_name list the same ops. Device-free (label "plan"). */
#include "ops/registry.h"
#include "tuning/shape_class.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* A GPU of middling limits: every planner plans for it. */
static ocf_device_facts gpu_facts(void) {
  ocf_device_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  snprintf(info.device_name, sizeof info.device_name, "a GPU");
  snprintf(info.vendor, sizeof info.vendor, "Advanced Micro Devices, Inc.");
  snprintf(info.platform_name, sizeof info.platform_name, "AMD Accelerated Parallel Processing");
  info.type = CL_DEVICE_TYPE_GPU;
  info.compute_units = 32;
  info.max_workgroup_size = 1024;
  info.max_work_item_sizes[0] = info.max_work_item_sizes[1] = info.max_work_item_sizes[2] = 1024;
  info.local_mem_bytes = 64 << 10;
  ocf_device_facts facts;
  ocf_device_facts_init(&facts, &info);
  return facts;
}

typedef struct walk {
  const ocf_op_desc *desc;
  ocf_device_facts facts;
  size_t calls, planned;
  unsigned class_seen[OCF_MAX_SHAPE_CLASSES];
} walk;

static void visit(void *user, const void *call) {
  walk *w = user;
  w->calls++;
  ocf_shape shape;
  ocf_dtype dtype = (ocf_dtype)-1;
  w->desc->tuning_key(call, &shape, &dtype);
  assert_true(ocf_dtype_size(dtype) > 0);
  unsigned c = ocf_shape_class_of(w->desc->op, &shape);
  assert_true(c < w->desc->class_count);
  w->class_seen[c]++;
  ocf_tuning_values tuning;
  ocf_tuning_fallbacks(w->desc->op, &tuning);
  assert_int_equal(ocf_tuning_check(w->desc->op, &tuning, "fallbacks"), OCF_SUCCESS);
  ocf_plan plan;
  if (w->desc->plan(&w->facts, &tuning, call, &plan) != OCF_SUCCESS) return;
  w->planned++;
  /* Every plan's frame, the call's (from a source of zeros) and the dry one, has a scratch
     member where the plan needs scratch. */
  ocf_frame_storage source, frame;
  memset(&source, 0, sizeof source);
  ocf_frame_slots slots = {NULL, NULL};
  w->desc->frame(&plan, call, source.bytes, NULL, &frame, &slots);
  if (plan.scratch_bytes) assert_non_null(slots.scratch);
  if (plan.arrivals) assert_non_null(slots.arrivals);
  slots.scratch = slots.arrivals = NULL;
  w->desc->frame(&plan, call, NULL, (cl_mem)&frame, &frame, &slots);
  if (plan.scratch_bytes) assert_non_null(slots.scratch);
  if (plan.arrivals) assert_non_null(slots.arrivals);
}

static void test_registry_rows(void **state) {
  (void)state;
  assert_int_equal(ocf_op_count(), OCF_OP_COUNT);
  assert_null(ocf_op_desc_get(OCF_OP_COUNT));
  assert_null(ocf_op_name(OCF_OP_COUNT));
  for (int op = 0; op < OCF_OP_COUNT; op++) {
    const ocf_op_desc *desc = ocf_op_desc_get((ocf_op)op);
    assert_non_null(desc);
    assert_int_equal(desc->op, op);
    assert_non_null(desc->name);
    assert_string_equal(ocf_op_name((size_t)op), desc->name);
    assert_int_equal(ocf_op_from_name(desc->name), op);
    /* The schema is tuning's, under the op's name. */
    assert_ptr_equal(ocf_op_schema_get((ocf_op)op), desc->schema);
    assert_string_equal(desc->schema->name, desc->name);
    assert_int_equal(desc->schema->op, op);
    /* Shape classes: named, unique, found by name. */
    assert_true(desc->class_count >= 1 && desc->class_count <= OCF_MAX_SHAPE_CLASSES);
    assert_int_equal(ocf_shape_class_count((ocf_op)op), desc->class_count);
    for (unsigned c = 0; c < desc->class_count; c++) {
      assert_non_null(desc->classes[c].name);
      assert_non_null(desc->classes[c].doc);
      assert_string_equal(ocf_shape_class_name((ocf_op)op, c), desc->classes[c].name);
      assert_int_equal(ocf_shape_class_find((ocf_op)op, desc->classes[c].name), (int)c);
    }
    assert_null(ocf_shape_class_name((ocf_op)op, desc->class_count));
    assert_true(desc->call_size > 0 && desc->call_size <= OCF_CALL_MAX);
    assert_non_null(desc->tuning_key);
    assert_non_null(desc->plan);
    assert_non_null(desc->empty);
    assert_non_null(desc->frame);
    assert_non_null(desc->warmup_grid);
    /* The warm-up grid: calls of every shape class, which plan. */
    walk w;
    memset(&w, 0, sizeof w);
    w.desc = desc;
    w.facts = gpu_facts();
    desc->warmup_grid(visit, &w);
    assert_true(w.calls > 0);
    assert_int_equal(w.planned, w.calls);
    for (unsigned c = 0; c < desc->class_count; c++)
      if (w.class_seen[c] == 0) {
        print_error("%s's warm-up grid has no call of class %s\n", desc->name,
                    desc->classes[c].name);
        fail();
      }
  }
}

/* The op names of messages list every op. */
static void test_registry_names(void **state) {
  (void)state;
  char names[256];
  ocf_op_names(names, sizeof names);
  for (int op = 0; op < OCF_OP_COUNT; op++)
    assert_non_null(strstr(names, ocf_op_name((size_t)op)));
  assert_int_equal(ocf_op_from_name("no such op"), OCF_OP_COUNT);
  assert_int_equal(ocf_op_from_name(NULL), OCF_OP_COUNT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry_rows),
      cmocka_unit_test(test_registry_names),
  };
  return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
