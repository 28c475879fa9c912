/*
 * The harness's table of op cases (harness/op_cases.h), which the oclfuse tool and the generic
 * suites iterate: its names are exactly the library's op names, in the library's order (so that
 * an op added to one and not the other fails here, not in a sweep that quietly leaves it out),
 * every entry is complete, and every op's small shapes, in both forms, pass their own checks.
 */
#include "oclfuse_internal.h"
#include "op_cases.h"
#include "test_common.h"

#include <stdio.h>
#include <string.h>

/* The same names as the library's tunable ops (tuning/tuning.h: ocf_op, ocf_op_from_name), in
   the same order, and the public ocf_context_set_tuning accepts each and no other. */
static void test_op_cases_names_are_the_library_ops(void **state) {
  ocft_env *env = ocft_get_env(state);
  assert_int_equal(ocft_op_count(), (size_t)OCF_OP_COUNT);
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const char *name = ocft_op_at(i)->name;
    assert_int_equal((int)ocf_op_from_name(name), (int)i);
    ocft_assert_status(ocf_context_set_tuning(env->ctx, name, OCF_F32, NULL, NULL), OCF_SUCCESS);
    assert_ptr_equal(ocft_op_find(name), ocft_op_at(i));
    assert_int_equal(ocft_op_index(name), (int)i);
  }
  assert_null(ocft_op_find("no-such-op"));
  assert_int_not_equal(ocf_context_set_tuning(env->ctx, "no-such-op", OCF_F32, NULL, NULL),
                       OCF_SUCCESS);
  assert_null(ocft_op_at(ocft_op_count()));
}

static void test_op_cases_entries_are_complete(void **state) {
  (void)state;
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    assert_true(op->ndims >= 1 && op->ndims <= OCFT_MAX_DIMS);
    assert_non_null(op->function);
    assert_non_null(op->host_function);
    assert_non_null(op->dims_help);
    assert_non_null(op->unit);
    assert_true(op->bench_gpu.count > 0 && op->bench_cpu.count > 0 && op->small.count > 0);
    assert_non_null(op->shape_text);
    assert_non_null(op->work);
    assert_non_null(op->extent);
    assert_non_null(op->device);
    assert_non_null(op->host);
    assert_non_null(op->reference);
    assert_non_null(op->check);
    for (int k = 0; k < op->ndims; k++)
      assert_true(op->sweep_gpu[k] > 0 && op->sweep_cpu[k] > 0);
    char text[64];
    op->shape_text(op->small.d[0], text, sizeof text);
    assert_true(text[0] != '\0');
    assert_true(op->work(op->small.d[0]) > 0.0);
  }
  /* "add, softmax or matmul": every name, in order, the last after " or ". */
  char names[512], want[512] = "";
  ocft_op_names_text(" or ", names, sizeof names);
  for (size_t i = 0; i < ocft_op_count(); i++)
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
             i == 0                     ? ""
             : i + 1 == ocft_op_count() ? " or "
                                        : ", ",
             ocft_op_at(i)->name);
  assert_string_equal(names, want);
}

/* Each op's small shapes, device form and host form, against the op's own check. */
static void test_op_cases_small_calls_pass(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    for (size_t s = 0; s < op->small.count; s++) {
      char what[128], shape[64];
      op->shape_text(op->small.d[s], shape, sizeof shape);
      for (int device = 0; device < 2; device++) {
        ocft_call call;
        assert_int_equal(ocft_call_make(&call, op, op->small.d[s], 40 + s), 0);
        snprintf(what, sizeof what, "%s %s", device ? op->function : op->host_function, shape);
        if (device) {
          assert_int_equal(ocft_call_buffers(&call, env->cl), CL_SUCCESS);
          ocft_assert_status(ocft_call_device(&call, env->ctx, NULL), OCF_SUCCESS);
          assert_int_equal(ocft_call_read(&call, env->queue, NULL), CL_SUCCESS);
        } else {
          ocft_assert_status(ocft_call_host(&call, env->ctx), OCF_SUCCESS);
        }
        ocft_check check;
        ocft_call_check(&call, &env->info, &check);
        ocft_assert_check(what, &check);
        ocft_call_free(&call);
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_op_cases_names_are_the_library_ops),
      cmocka_unit_test(test_op_cases_entries_are_complete),
      cmocka_unit_test(test_op_cases_small_calls_pass),
  };
  return cmocka_run_group_tests_name("op_cases", tests, ocft_group_setup, ocft_group_teardown);
}
