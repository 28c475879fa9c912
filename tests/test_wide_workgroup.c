/*
 * Workgroups beyond a kernel's reported CL_KERNEL_WORK_GROUP_SIZE (softmax's rows.wide_wg,
 * src/runtime/wide_probe.c), on whatever device the tests run (PoCL in CI). PoCL reports large
 * kernel limits, so each test's context takes the internal hook ocf_context_test_narrow_kernels
 * (src/internal/oclfuse_internal.h): its kernels report 16 work-items, as NVIDIA's report 256,
 * and the device, which has no register cap option, may plan wide without one.
 *   - the wide probe runs at the first call that wants it (a reduction over the device's
 *     maximum workgroup), and softmax then runs its rows with 64 work-items, four times what its
 *     kernels report (softmax_resident on long rows, softmax_rows on short), and computes right;
 *     so does RMSNorm's norm_rows;
 *   - a wide launch the runtime refuses (CL_OUT_OF_RESOURCES, injected through the fault
 *     wrappers, tests/cl_faults.c) is learnt: the call runs on the narrow plan and computes
 *     right, and so do later calls;
 *   - a probe whose launch is refused marks the wide path failed: the call runs narrow.
 * A device whose probe fails for real (rusticl's llvmpipe, say) skips what needs it.
 */
#include "cl_faults.h"
#include "internal/oclfuse_internal.h"
#include "reference.h"
#include "reference_norm.h"
#include "runtime/context.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 8, COLS = 1000, SHORT_COLS = 256, REPORTED = 16 };

/* Rows of COLS (250 float4) as one softmax_resident workgroup a row, of 16 work-items holding
   4 float4 each (the rest streamed), or, wide, of 64 holding the whole row; rows of SHORT_COLS
   (64 float4) as one softmax_rows workgroup a row, a segment of 16 work-items of 4 float4, or,
   wide, of 64 of one. */
static const char *const tuning =
    "vw=4 rows.wg=16 rows.max_seg=16 rows.seg_items=4 rows.wide_wg=64 long_rows.wg=16 "
    "long_rows.min_wg=8 long_rows.items=4 long_rows.local_items=0 long_rows.coop_spin=0 "
    "long_rows.groups_per_unit=1";

/* A fresh context over the group's device (its facts learnt nothing yet) with the hook set
   and the tuning above. */
static ocf_context *narrow_context(const ocft_env *env) {
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, env->queue, &ctx), OCF_SUCCESS);
  ocft_assert_status(ocf_context_test_narrow_kernels(ctx, REPORTED), OCF_SUCCESS);
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, NULL, tuning), OCF_SUCCESS);
  return ctx;
}

static ocf_learnt_facts learnt_of(ocf_context *ctx) {
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  return facts.learnt;
}

/* One softmax call of ROWS x cols, checked against the reference; the plan's description into
   plan (as ocf_last_plan() gave it). */
static void softmax_cols(const ocft_env *env, ocf_context *ctx, size_t cols, const char *what,
                         char *plan, size_t capacity) {
  const size_t n = (size_t)ROWS * cols;
  float *x = ocft_alloc_floats(n), *got = ocft_alloc_floats(n);
  ocft_fill_uniform(x, n, -6.0f, 6.0f, 19);
  ocft_fill_uniform(got, n, 1e6f, 2e6f, 20);
  cl_mem in = ocft_buffer(env, n, x), out = ocft_buffer(env, n, got);
  ocft_assert_status(ocf_softmax(ctx, ROWS, cols, in, 0, cols, out, 0, cols, NULL), OCF_SUCCESS);
  snprintf(plan, capacity, "%s", ocf_last_plan());
  ocft_read(env, out, n, got);
  double *want = ocft_alloc_doubles(n);
  ocf_ref_softmax(ROWS, cols, x, cols, want);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(ROWS, cols, x, cols, want, got, cols, 0, &env->info, &check);
  ocft_assert_check(what, &check);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  free(want);
  free(got);
  free(x);
}

static void softmax_checked(const ocft_env *env, ocf_context *ctx, const char *what, char *plan,
                            size_t capacity) {
  softmax_cols(env, ctx, COLS, what, plan, capacity);
}

/* RMSNorm rows of SHORT_COLS (64 float4) as one norm_rows workgroup a row: a segment of 16
   work-items of 4 float4, or, wide, of 32 of two (a wide plan needs two vectors a work-item:
   src/plan/plan_norm.c, plan_wide). */
static const char *const norm_tuning =
    "vw=4 rows.wg=16 rows.max_seg=16 rows.items=4 rows.seg_items=4 rows.wide_wg=32";

/* One RMSNorm call of ROWS x SHORT_COLS, checked against the reference; its plan into plan. */
static void rmsnorm_checked(const ocft_env *env, ocf_context *ctx, const char *what, char *plan,
                            size_t capacity) {
  const size_t n = (size_t)ROWS * SHORT_COLS;
  float *x = ocft_alloc_floats(n), *got = ocft_alloc_floats(n);
  ocft_fill_uniform(x, n, -3.0f, 3.0f, 23);
  ocft_fill_uniform(got, n, 1e6f, 2e6f, 24);
  cl_mem in = ocft_buffer(env, n, x), out = ocft_buffer(env, n, got);
  ocft_assert_status(
      ocf_rmsnorm(ctx, ROWS, SHORT_COLS, in, 0, SHORT_COLS, out, 0, SHORT_COLS, NULL, NULL),
      OCF_SUCCESS);
  snprintf(plan, capacity, "%s", ocf_last_plan());
  ocft_read(env, out, n, got);
  double *want = ocft_alloc_doubles(n), *tol = ocft_alloc_doubles(n);
  double *mean_tol = ocft_alloc_doubles(ROWS), *rstd_tol = ocft_alloc_doubles(ROWS);
  ocf_ref_norm(1, ROWS, SHORT_COLS, x, SHORT_COLS, NULL, NULL, 1e-5, want, NULL, NULL);
  ocft_norm_tolerance(1, ROWS, SHORT_COLS, x, SHORT_COLS, NULL, NULL, 1e-5, want, 0, 0, &env->info,
                      tol, mean_tol, rstd_tol);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(got, want, tol, n, &check);
  ocft_assert_check(what, &check);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  free(rstd_tol);
  free(mean_tol);
  free(tol);
  free(want);
  free(got);
  free(x);
}

static int is_wide(const char *plan) {
  return strstr(plan, "softmax_resident wg=64 ") && strstr(plan, ") wide");
}
static int is_narrow(const char *plan) {
  return strstr(plan, "softmax_resident wg=16 ") && !strstr(plan, "wide");
}

/* Skips the test where the device failed the probe itself (it runs no wider workgroup than
   its kernels report); else the probe must have passed. */
static void require_probe_passed(ocf_context *ctx) {
  const ocf_probe_state wide = learnt_of(ctx).wide;
  assert_int_not_equal(wide, OCF_PROBE_UNKNOWN); /* the call asked for it */
  if (wide == OCF_PROBE_FAILED) {
    ocf_context_release(ctx);
    skip();
  }
}

static void test_wide_workgroup_softmax(void **state) {
  const ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = narrow_context(env);
  char plan[512];
  softmax_checked(env, ctx, "first call (probe, then the wide plan)", plan, sizeof plan);
  require_probe_passed(ctx);
  if (!is_wide(plan)) fail_msg("the plan is \"%s\", not softmax_resident of 64 wide", plan);
  /* The cached plan, again. */
  softmax_checked(env, ctx, "second call", plan, sizeof plan);
  assert_true(is_wide(plan));
  /* softmax_rows: the row over the whole wide workgroup. */
  softmax_cols(env, ctx, SHORT_COLS, "softmax_rows", plan, sizeof plan);
  if (!strstr(plan, "softmax_rows wg=64x1 ") || !strstr(plan, ") wide"))
    fail_msg("the plan is \"%s\", not softmax_rows of 64 wide", plan);
  softmax_cols(env, ctx, SHORT_COLS, "softmax_rows", plan, sizeof plan);
  /* Off: the narrow plan within what the kernel reports. */
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, NULL, "rows.wide_wg=0"),
                     OCF_SUCCESS);
  softmax_checked(env, ctx, "wide_wg=0", plan, sizeof plan);
  if (!is_narrow(plan)) fail_msg("the plan is \"%s\", not softmax_resident of 16", plan);
  softmax_cols(env, ctx, SHORT_COLS, "softmax_rows, wide_wg=0", plan, sizeof plan);
  if (!strstr(plan, "softmax_rows wg=16x1 ") || strstr(plan, "wide"))
    fail_msg("the plan is \"%s\", not softmax_rows of 16", plan);
  ocf_context_release(ctx);
}

static void test_wide_workgroup_norm(void **state) {
  const ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = narrow_context(env);
  ocft_assert_status(ocf_context_set_tuning(ctx, "norm", OCF_F32, NULL, norm_tuning), OCF_SUCCESS);
  char plan[512];
  rmsnorm_checked(env, ctx, "RMSNorm (probe, then the wide plan)", plan, sizeof plan);
  require_probe_passed(ctx);
  if (!strstr(plan, "norm_rows wg=32x1 ") || !strstr(plan, ") wide"))
    fail_msg("the plan is \"%s\", not norm_rows of 32 wide", plan);
  ocft_assert_status(ocf_context_set_tuning(ctx, "norm", OCF_F32, NULL, "rows.wide_wg=0"),
                     OCF_SUCCESS);
  rmsnorm_checked(env, ctx, "RMSNorm, wide_wg=0", plan, sizeof plan);
  if (!strstr(plan, "norm_rows wg=16x1 ") || strstr(plan, "wide"))
    fail_msg("the plan is \"%s\", not norm_rows of 16", plan);
  ocf_context_release(ctx);
}

static void test_wide_workgroup_refused_launch(void **state) {
  const ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = narrow_context(env);
  char plan[512];
  softmax_checked(env, ctx, "first call", plan, sizeof plan);
  require_probe_passed(ctx);
  assert_true(is_wide(plan));
  /* The cached wide plan's enqueue is refused: the call learns it and runs narrow. */
  ocft_faults_open();
  ocft_faults_reset();
  ocft_faults_arm_named("clEnqueueNDRangeKernel", 1, CL_OUT_OF_RESOURCES);
  softmax_checked(env, ctx, "refused wide launch", plan, sizeof plan);
  const char *failed = ocft_faults_failed();
  ocft_faults_close();
  assert_non_null(failed);
  assert_string_equal(failed, "clEnqueueNDRangeKernel");
  if (!is_narrow(plan)) fail_msg("after the refusal the plan is \"%s\"", plan);
  const ocf_learnt_facts learnt = learnt_of(ctx);
  assert_int_equal(learnt.wide_refused[OCF_KERNEL_SOFTMAX_RESIDENT], 1);
  assert_int_equal(learnt.kernel_max_workgroup[OCF_KERNEL_SOFTMAX_RESIDENT], REPORTED);
  assert_int_equal(learnt.wide, OCF_PROBE_PASSED); /* other kernels may still run wide */
  /* And from then on. */
  softmax_checked(env, ctx, "after the refusal", plan, sizeof plan);
  assert_true(is_narrow(plan));
  ocf_context_release(ctx);
}

static void test_wide_workgroup_probe_refused(void **state) {
  const ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = narrow_context(env);
  char plan[512];
  /* The first kernel enqueued is the probe's: refused, the probe fails, the call runs narrow. */
  ocft_faults_open();
  ocft_faults_reset();
  ocft_faults_arm_named("clEnqueueNDRangeKernel", 1, CL_INVALID_WORK_GROUP_SIZE);
  softmax_checked(env, ctx, "probe refused", plan, sizeof plan);
  const char *failed = ocft_faults_failed();
  ocft_faults_close();
  assert_non_null(failed);
  assert_int_equal(learnt_of(ctx).wide, OCF_PROBE_FAILED);
  if (!is_narrow(plan)) fail_msg("after a failed probe the plan is \"%s\"", plan);
  ocf_context_release(ctx);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wide_workgroup_softmax),
      cmocka_unit_test(test_wide_workgroup_norm),
      cmocka_unit_test(test_wide_workgroup_refused_launch),
      cmocka_unit_test(test_wide_workgroup_probe_refused),
  };
  return cmocka_run_group_tests_name("wide_workgroup", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
