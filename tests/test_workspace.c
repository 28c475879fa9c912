/*
 * Workspaces of the calls of several kernels (include/oclfuse.h, "Workspaces"): softmax's split,
 * its cooperative kernel and its baseline, matmul's split-K.
 *   - the size query agrees with the plan the call runs: a caller workspace of exactly that size
 *     works; one byte less, or none, bounds the plan (fewer ranges of a split, or none): results
 *     within the tolerance and no byte written past the size lent; a plan that cannot shrink
 *     (the baseline's) one byte short is OCF_ERR_BUFFER_TOO_SMALL naming the size, with nothing
 *     enqueued (output, events and the workspace's bytes as they were);
 *   - results with a caller workspace (at offset 0 and at an aligned offset, through a
 *     sub-buffer) are bitwise those without;
 *   - bad workspaces are refused: misaligned, overlapping an operand, of another context, NULL
 *     with a size;
 *   - the context's pool: one buffer for every call after the first (clCreateBuffer counted
 *     through the fault wrappers, tests/cl_faults.c), grown for a larger call, trimmed, left out
 *     for calls on another queue and when the config turns it off; nothing leaks;
 *   - several threads sharing the pool get right results.
 */
#include "cl_faults.h"
#include "reference.h"
#include "test_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SPLIT_COLS = 200, BASE_ROWS = 6, BASE_COLS = 50 };

/* Tuning that makes one row of SPLIT_COLS the two-kernel split under a workgroup of one
   work-item, whatever the device's database holds (as tests/test_faults.c does; rows.items
   back to long_rows.items: the H200's long class holds 32, which vectors of 8 would take past
   softmax_rows's 128 floats); with a spin the cooperative kernel may take it instead. */
static const char *const split_tuning =
    "vw=8 items=4 rows.items=0 unroll=2 coop_spin=0 groups_per_unit=2";
static const char *const coop_tuning =
    "vw=8 items=4 rows.items=0 unroll=2 coop_spin=64 groups_per_unit=2";

/* How many calls of `name` the window saw since the last reset. */
static unsigned calls_named(const char *name) {
  unsigned count = 0;
  const unsigned long total = ocft_faults_count();
  for (unsigned long i = 1; i <= total; i++)
    if (strcmp(ocft_faults_call_name(i), name) == 0) count++;
  return count;
}

/* ---- one softmax case: its call, with and without a workspace ---- */

typedef struct softmax_case {
  const char *name;
  const char *tuning; /* NULL: the context's own */
  size_t rows, cols, workgroup;
  int variant;
  const char *kernel; /* the plan must name it, else the case is skipped */
} softmax_case;

static ocf_status run_softmax(const ocft_env *env, const softmax_case *c, cl_mem in, cl_mem out,
                              ocf_launch *launch) {
  launch->workgroup_size = c->workgroup;
  launch->variant = c->variant;
  return ocf_softmax(env->ctx, c->rows, c->cols, in, 0, c->cols, out, 0, c->cols, launch);
}

/* The query, the call without a workspace, with one of exactly the size, with one byte less,
   and at an aligned offset. Returns the size (0: the case's plan was not the one intended). */
static size_t check_softmax_case(const ocft_env *env, const softmax_case *c) {
  if (c->tuning)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "softmax", OCF_F32, NULL, c->tuning),
                       OCF_SUCCESS);
  const size_t n = c->rows * c->cols;
  float *x = ocft_alloc_floats(n), *pooled = ocft_alloc_floats(n), *lent = ocft_alloc_floats(n),
        *before = ocft_alloc_floats(n), *after = ocft_alloc_floats(n);
  ocft_fill_uniform(x, n, -4.0f, 4.0f, 71);
  ocft_fill_uniform(before, n, 1e6f, 2e6f, 72);
  cl_mem in = ocft_buffer(env, n, x), out = ocft_buffer(env, n, before);

  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workgroup_size = c->workgroup;
  launch.variant = c->variant;
  size_t bytes = 0;
  ocft_assert_status(ocf_softmax_workspace_size(env->ctx, c->rows, c->cols, in, 0, c->cols, out, 0,
                                                c->cols, NULL, &launch, &bytes),
                     OCF_SUCCESS);
  /* Without the buffers: the larger of in place and not, so at least this. */
  size_t either = 0;
  ocft_assert_status(ocf_softmax_workspace_size(env->ctx, c->rows, c->cols, NULL, 0, c->cols, NULL,
                                                0, c->cols, NULL, &launch, &either),
                     OCF_SUCCESS);
  assert_true(either >= bytes);

  ocf_launch plain = OCF_LAUNCH_INIT;
  ocft_assert_status(run_softmax(env, c, in, out, &plain), OCF_SUCCESS);
  if (!strstr(ocf_last_plan(), c->kernel)) {
    print_message("%s: the plan is \"%s\", not %s: case left out\n", c->name, ocf_last_plan(),
                  c->kernel);
    bytes = 0;
    goto done;
  }
  assert_true(bytes > 0);
  ocft_read(env, out, n, pooled);
  double *want = ocft_alloc_doubles(n);
  ocf_ref_softmax(c->rows, c->cols, x, c->cols, want);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(c->rows, c->cols, x, c->cols, want, pooled, c->cols, c->workgroup, &env->info,
                     &check);
  ocft_assert_check(c->name, &check);

  const size_t align = 4096; /* a multiple of every device's CL_DEVICE_MEM_BASE_ADDR_ALIGN */
  cl_mem workspace = ocft_nan_buffer(env, align + bytes);
  ocft_write(env, out, n, before);
  cl_event event = NULL;
  ocf_launch short_launch = OCF_LAUNCH_INIT;
  short_launch.workspace = workspace;
  short_launch.workspace_size = bytes - 1;
  short_launch.event = &event;
  if (c->variant == OCF_VARIANT_BASELINE) {
    /* One byte short of a plan that cannot shrink: refused, naming the size, nothing
       enqueued. */
    ocft_assert_status(run_softmax(env, c, in, out, &short_launch), OCF_ERR_BUFFER_TOO_SMALL);
    char needed[64];
    snprintf(needed, sizeof needed, "needs %zu", bytes);
    assert_non_null(strstr(ocf_last_error(), needed));
    assert_null(event);
    clFinish(env->queue);
    ocft_read(env, out, n, after);
    ocft_assert_unchanged("output after a short workspace", after, before, n);
    assert_true(ocft_bytes_are(env, workspace, 0, align + bytes, 0xFF));
  } else {
    /* One byte short, then none: the call plans within it (fewer slices, or none), right to the
       same tolerance, and touches no byte past the size it was lent. */
    const size_t sizes[] = {bytes - 1, 0};
    for (size_t i = 0; i < 2; i++) {
      ocft_fill_bytes(env, workspace, 0, align + bytes, 0xFF);
      short_launch.workspace_size = sizes[i];
      ocft_assert_status(run_softmax(env, c, in, out, &short_launch), OCF_SUCCESS);
      assert_non_null(event);
      clReleaseEvent(event);
      event = NULL;
      ocft_read(env, out, n, after);
      ocft_check_start(&check);
      ocft_check_softmax(c->rows, c->cols, x, c->cols, want, after, c->cols, c->workgroup,
                         &env->info, &check);
      ocft_assert_check("within a short workspace", &check);
      assert_true(ocft_bytes_are(env, workspace, sizes[i], align + bytes, 0xFF));
    }
    ocft_fill_bytes(env, workspace, 0, align + bytes, 0xFF);
  }
  free(want);

  /* Exactly the size: the same bits as with the pool. */
  ocf_launch exact = OCF_LAUNCH_INIT;
  exact.workspace = workspace;
  exact.workspace_size = bytes;
  ocft_assert_status(run_softmax(env, c, in, out, &exact), OCF_SUCCESS);
  ocft_read(env, out, n, lent);
  ocft_assert_unchanged("output with a caller workspace", lent, pooled, n);
  /* Its bytes past the size are not touched. */
  unsigned char tail[64];
  const size_t tail_bytes = align < sizeof tail ? align : sizeof tail;
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, workspace, CL_TRUE, bytes, tail_bytes, tail, 0, NULL, NULL),
      CL_SUCCESS);
  for (size_t i = 0; i < tail_bytes; i++)
    assert_int_equal(tail[i], 0xFF);

  /* At an aligned offset (a sub-buffer): the same bits again; the bytes before it untouched. */
  ocft_write(env, out, n, before);
  ocft_fill_bytes(env, workspace, 0, align + bytes, 0xFF);
  exact.workspace_offset = align;
  ocft_assert_status(run_softmax(env, c, in, out, &exact), OCF_SUCCESS);
  ocft_read(env, out, n, lent);
  ocft_assert_unchanged("output with a workspace at an offset", lent, pooled, n);
  assert_true(ocft_bytes_are(env, workspace, 0, align, 0xFF));
  clReleaseMemObject(workspace);

done:
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  free(x), free(pooled), free(lent), free(before), free(after);
  if (c->tuning)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "softmax", OCF_F32, NULL, NULL),
                       OCF_SUCCESS);
  return bytes;
}

static void test_workspace_softmax(void **state) {
  ocft_env *env = ocft_get_env(state);
  const softmax_case cases[] = {
      {"split", split_tuning, 1, SPLIT_COLS, 1, OCF_VARIANT_AUTO, "softmax_split_write"},
      {"coop", coop_tuning, 1, SPLIT_COLS, 1, OCF_VARIANT_AUTO, "softmax_coop"},
      {"baseline", NULL, BASE_ROWS, BASE_COLS, 0, OCF_VARIANT_BASELINE, "softmax_base_divide"},
  };
  size_t ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    ran += check_softmax_case(env, &cases[i]) > 0;
  assert_true(ran >= 2); /* the split and the baseline are the device's whatever it is */
  /* A plan without scratch needs none. */
  size_t bytes = 1;
  ocft_assert_status(
      ocf_softmax_workspace_size(env->ctx, 4, 64, NULL, 0, 64, NULL, 0, 64, NULL, NULL, &bytes),
      OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  ocft_assert_status(
      ocf_softmax_workspace_size(env->ctx, 0, 64, NULL, 0, 64, NULL, 0, 64, NULL, NULL, &bytes),
      OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  ocft_assert_status(
      ocf_softmax_workspace_size(env->ctx, 4, 64, NULL, 0, 63, NULL, 0, 64, NULL, NULL, &bytes),
      OCF_ERR_INVALID_STRIDE);
  ocft_assert_status(
      ocf_softmax_workspace_size(env->ctx, 4, 64, NULL, 0, 64, NULL, 0, 64, NULL, NULL, NULL),
      OCF_ERR_NULL_ARGUMENT);
}

/* ---- matmul's split-K ---- */

typedef struct matmul_shape {
  size_t m, n, k;
} matmul_shape;

static ocf_status run_matmul(const ocft_env *env, const matmul_shape *s, cl_mem a, cl_mem b,
                             cl_mem c, const ocf_launch *launch) {
  return ocf_matmul(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, s->m, s->n, s->k, 1.0f, a, 0, s->k, b, 0,
                    s->n, 0.5f, c, 0, s->n, launch);
}

static void test_workspace_matmul(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* Few output tiles and a long K: split on devices with a few compute units or more. */
  const matmul_shape shapes[] = {{8, 8, 4096}, {32, 32, 4096}, {64, 64, 8192}};
  const matmul_shape *s = NULL;
  size_t bytes = 0;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && !s; i++) {
    ocft_assert_status(ocf_matmul_workspace_size(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, shapes[i].m,
                                                 shapes[i].n, shapes[i].k, 1.0f, NULL, 0,
                                                 shapes[i].k, NULL, 0, shapes[i].n, 0.5f, NULL, 0,
                                                 shapes[i].n, NULL, NULL, &bytes),
                       OCF_SUCCESS);
    if (bytes) s = &shapes[i];
  }
  if (!s) skip(); /* a device with so many compute units that nothing here splits */
  const size_t na = s->m * s->k, nb = s->k * s->n, nc = s->m * s->n;
  float *a = ocft_alloc_floats(na), *b = ocft_alloc_floats(nb), *c0 = ocft_alloc_floats(nc),
        *pooled = ocft_alloc_floats(nc), *lent = ocft_alloc_floats(nc),
        *after = ocft_alloc_floats(nc);
  ocft_fill_uniform(a, na, -1.0f, 1.0f, 81);
  ocft_fill_uniform(b, nb, -1.0f, 1.0f, 82);
  ocft_fill_uniform(c0, nc, -1.0f, 1.0f, 83);
  cl_mem ab = ocft_buffer(env, na, a), bb = ocft_buffer(env, nb, b), cb = ocft_buffer(env, nc, c0);
  ocft_assert_status(run_matmul(env, s, ab, bb, cb, NULL), OCF_SUCCESS);
  assert_non_null(strstr(ocf_last_plan(), "split"));
  ocft_read(env, cb, nc, pooled);
  double *want = ocft_alloc_doubles(nc), *tol = ocft_alloc_doubles(nc);
  ocf_ref_matmul(0, 0, s->m, s->n, s->k, 1.0f, a, s->k, b, s->n, 0.5f, c0, s->n, want);
  ocft_matmul_tolerance(0, 0, s->m, s->n, s->k, 1.0f, a, s->k, b, s->n, 0.5f, c0, s->n, tol);
  ocft_assert_close("split-K matmul", pooled, want, tol, nc);

  /* One byte short, then none: the call plans within it (fewer ranges of K, or none), right to
     the same tolerance, and touches no byte past the size it was lent. */
  cl_mem workspace = ocft_nan_buffer(env, bytes);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workspace = workspace;
  const size_t sizes[] = {bytes - 1, 0};
  for (size_t i = 0; i < 2; i++) {
    ocft_fill_bytes(env, workspace, 0, bytes, 0xFF);
    ocft_write(env, cb, nc, c0);
    launch.workspace_size = sizes[i];
    ocft_assert_status(run_matmul(env, s, ab, bb, cb, &launch), OCF_SUCCESS);
    if (sizes[i] == 0) assert_null(strstr(ocf_last_plan(), "split"));
    ocft_read(env, cb, nc, after);
    ocft_assert_close("split-K matmul within a short workspace", after, want, tol, nc);
    assert_true(ocft_bytes_are(env, workspace, sizes[i], bytes, 0xFF));
  }
  free(want), free(tol);
  ocft_write(env, cb, nc, c0);
  /* Exactly the size: the same bits as with the pool. */
  launch.workspace_size = bytes;
  ocft_assert_status(run_matmul(env, s, ab, bb, cb, &launch), OCF_SUCCESS);
  ocft_read(env, cb, nc, lent);
  ocft_assert_unchanged("C with a caller workspace", lent, pooled, nc);
  /* A workspace that is an operand is refused. */
  launch.workspace = ab;
  launch.workspace_size = na * sizeof(float);
  ocft_assert_status(run_matmul(env, s, ab, bb, cb, &launch), OCF_ERR_ALIASING);
  assert_non_null(strstr(ocf_last_error(), "workspace"));
  clReleaseMemObject(workspace);
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
  free(a), free(b), free(c0), free(pooled), free(lent), free(after);

  /* No split: no workspace. */
  ocft_assert_status(ocf_matmul_workspace_size(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 64, 64, 8,
                                               1.0f, NULL, 0, 8, NULL, 0, 64, 0.0f, NULL, 0, 64,
                                               NULL, NULL, &bytes),
                     OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  ocft_assert_status(ocf_matmul_workspace_size(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 64, 64, 8,
                                               1.0f, NULL, 0, 7, NULL, 0, 64, 0.0f, NULL, 0, 64,
                                               NULL, NULL, &bytes),
                     OCF_ERR_INVALID_STRIDE);
}

/* ---- the launch's workspace members are checked by every call ---- */

static void test_workspace_refused(void **state) {
  ocft_env *env = ocft_get_env(state);
  float x[64];
  ocft_fill_uniform(x, 64, -1.0f, 1.0f, 91);
  cl_mem xb = ocft_buffer(env, 64, x), workspace = ocft_byte_buffer(env, 8192, 0);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workspace_size = 16; /* without a buffer */
  ocft_assert_status(ocf_add(env->ctx, 64, xb, 0, xb, 0, xb, 0, &launch), OCF_ERR_NULL_ARGUMENT);
  launch.workspace = workspace;
  launch.workspace_size = 8193; /* past the buffer */
  ocft_assert_status(ocf_add(env->ctx, 64, xb, 0, xb, 0, xb, 0, &launch), OCF_ERR_BUFFER_TOO_SMALL);
  launch.workspace_size = 64;
  launch.workspace_offset = 1; /* no device aligns sub-buffers to one byte */
  ocft_assert_status(ocf_add(env->ctx, 64, xb, 0, xb, 0, xb, 0, &launch), OCF_ERR_INVALID_VALUE);
  assert_non_null(strstr(ocf_last_error(), "CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  /* An operand inside the workspace. */
  launch.workspace = xb;
  launch.workspace_offset = 0;
  launch.workspace_size = 64 * sizeof(float);
  ocft_assert_status(ocf_softmax(env->ctx, 1, 64, xb, 0, 64, xb, 0, 64, &launch), OCF_ERR_ALIASING);
  /* A workspace of another context. */
  ocft_foreign foreign;
  ocft_foreign_create(env, 64, &foreign);
  launch.workspace = foreign.buffer;
  ocft_assert_status(ocf_add(env->ctx, 64, xb, 0, xb, 0, xb, 0, &launch), OCF_ERR_CONTEXT_MISMATCH);
  ocft_foreign_release(&foreign);
  /* A call whose plan needs none takes a good workspace and leaves it alone. */
  launch.workspace = workspace;
  launch.workspace_size = 8192;
  ocft_assert_status(ocf_add(env->ctx, 64, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  clFinish(env->queue);
  assert_true(ocft_bytes_are(env, workspace, 0, 8192, 0));
  clReleaseMemObject(xb);
  clReleaseMemObject(workspace);
}

/* ---- the pool ---- */

/* `calls` split (or, with the launch's variant, baseline) softmax calls of `rows` rows inside a
   fault window; returns the clCreateBuffer
   calls the library made. Every result is checked. */
static unsigned pooled_calls(const ocft_env *env, ocf_context *ctx, size_t rows, int calls,
                             const ocf_launch *launch) {
  const size_t n = rows * SPLIT_COLS;
  float *x = ocft_alloc_floats(n), *got = ocft_alloc_floats(n);
  double *want = ocft_alloc_doubles(n);
  ocft_fill_uniform(x, n, -3.0f, 3.0f, 101 + (unsigned)rows);
  ocf_ref_softmax(rows, SPLIT_COLS, x, SPLIT_COLS, want);
  cl_mem in = ocft_buffer(env, n, x), out = ocft_buffer(env, n, NULL);
  ocft_faults_reset();
  for (int i = 0; i < calls; i++) {
    ocft_faults_open();
    ocf_status status =
        ocf_softmax(ctx, rows, SPLIT_COLS, in, 0, SPLIT_COLS, out, 0, SPLIT_COLS, launch);
    ocft_faults_close();
    ocft_assert_status(status, OCF_SUCCESS);
    const char *kernel =
        launch->variant == OCF_VARIANT_BASELINE ? "softmax_base_divide" : "softmax_split_write";
    if (!strstr(ocf_last_plan(), kernel)) fail_msg("plan: %s", ocf_last_plan());
    /* The call's queue may be another, or out of order: wait for it before reading. */
    assert_int_equal(clFinish(launch->queue ? launch->queue : env->queue), CL_SUCCESS);
    ocft_read(env, out, n, got);
    ocft_check check;
    ocft_check_start(&check);
    ocft_check_softmax(rows, SPLIT_COLS, x, SPLIT_COLS, want, got, SPLIT_COLS, 1, &env->info,
                       &check);
    ocft_assert_check("pooled split softmax", &check);
  }
  unsigned created = calls_named("clCreateBuffer");
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  free(x), free(got), free(want);
  return created;
}

static ocf_context *split_context(const ocf_context_config *config) {
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_create_ex(getenv("OCLFUSE_TEST_DEVICE"), config, &ctx),
                     OCF_SUCCESS);
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, NULL, split_tuning),
                     OCF_SUCCESS);
  return ctx;
}

static void test_workspace_pool(void **state) {
  ocft_env *group = ocft_get_env(state);
  ocf_context *ctx = split_context(NULL);
  ocft_env env = *group;
  env.ctx = ctx;
  env.cl = ocf_context_cl_context(ctx);
  env.queue = ocf_context_queue(ctx);
  ocf_launch launch = OCF_LAUNCH_INIT, big = OCF_LAUNCH_INIT;
  launch.workgroup_size = 1;
  big.variant = OCF_VARIANT_BASELINE; /* of 8 rows: a larger scratch than the split's */
  size_t small = 0, large = 0, bytes = 0, creations = 0;
  ocft_assert_status(ocf_softmax_workspace_size(ctx, 1, SPLIT_COLS, NULL, 0, SPLIT_COLS, NULL, 0,
                                                SPLIT_COLS, NULL, &launch, &small),
                     OCF_SUCCESS);
  ocft_assert_status(ocf_softmax_workspace_size(ctx, 8, SPLIT_COLS, NULL, 0, SPLIT_COLS, NULL, 0,
                                                SPLIT_COLS, NULL, &big, &large),
                     OCF_SUCCESS);
  if (!(small > 0 && large > small)) fail_msg("workspace sizes %zu and %zu", small, large);

  /* The first call creates the pool's buffer, the next ones none. */
  assert_int_equal(pooled_calls(&env, ctx, 1, 1, &launch), 1);
  ocft_assert_status(ocf_context_workspace_pool(ctx, &bytes, &creations), OCF_SUCCESS);
  assert_int_equal(bytes, small);
  assert_int_equal(creations, 1);
  assert_int_equal(pooled_calls(&env, ctx, 1, 5, &launch), 0);
  /* A larger call grows it once; smaller calls then reuse it. */
  assert_int_equal(pooled_calls(&env, ctx, 8, 3, &big), 1);
  assert_int_equal(pooled_calls(&env, ctx, 1, 3, &launch), 0);
  ocft_assert_status(ocf_context_workspace_pool(ctx, &bytes, &creations), OCF_SUCCESS);
  assert_int_equal(bytes, large);
  assert_int_equal(creations, 2);
  /* A caller workspace: no buffer created, the pool unchanged. */
  cl_mem workspace = ocft_byte_buffer(&env, 4096 + large, 0);
  ocf_launch lent = big;
  lent.workspace = workspace;
  lent.workspace_size = large;
  assert_int_equal(pooled_calls(&env, ctx, 8, 2, &lent), 0);
  lent.workspace_offset = 4096;
  assert_int_equal(pooled_calls(&env, ctx, 8, 2, &lent), 0);
  assert_int_equal(calls_named("clCreateSubBuffer"), 2); /* one for each of the last calls */
  clReleaseMemObject(workspace);
  /* Another queue: a buffer of the call's own each time. */
  cl_int err = CL_SUCCESS;
  cl_command_queue other = clCreateCommandQueue(env.cl, env.device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);
  ocf_launch elsewhere = launch;
  elsewhere.queue = other;
  assert_int_equal(pooled_calls(&env, ctx, 1, 2, &elsewhere), 2);
  clFinish(other);
  clReleaseCommandQueue(other);
  /* Trimmed: the next call creates it again. */
  ocft_assert_status(ocf_context_trim_workspace(ctx), OCF_SUCCESS);
  ocft_assert_status(ocf_context_workspace_pool(ctx, &bytes, NULL), OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  assert_int_equal(pooled_calls(&env, ctx, 1, 2, &launch), 1);
  ocft_faults_open();
  ocf_context_release(ctx);
  ocft_faults_close();
  char left[128];
  if (ocft_faults_live(left, sizeof left, 2000) != 0) fail_msg("left: %s", left);

  /* The pool off: a buffer every call. */
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.workspace_pool = OCF_SWITCH_OFF;
  ctx = split_context(&config);
  env.ctx = ctx;
  env.cl = ocf_context_cl_context(ctx);
  env.queue = ocf_context_queue(ctx);
  assert_int_equal(pooled_calls(&env, ctx, 1, 3, &launch), 3);
  ocft_assert_status(ocf_context_workspace_pool(ctx, &bytes, &creations), OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  assert_int_equal(creations, 0);
  ocf_context_release(ctx);
  if (ocft_faults_live(left, sizeof left, 2000) != 0) fail_msg("left: %s", left);
}

/* A wrapped out-of-order queue gets no pool (its order cannot keep calls apart). */
static void test_workspace_out_of_order(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_command_queue_properties supported = 0;
  assert_int_equal(
      clGetDeviceInfo(env->device, CL_DEVICE_QUEUE_PROPERTIES, sizeof supported, &supported, NULL),
      CL_SUCCESS);
  if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) skip();
  cl_int err = CL_SUCCESS;
  cl_command_queue queue =
      clCreateCommandQueue(env->cl, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  assert_int_equal(err, CL_SUCCESS);
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, queue, &ctx), OCF_SUCCESS);
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, NULL, split_tuning),
                     OCF_SUCCESS);
  ocft_env wrapped = *env;
  wrapped.ctx = ctx;
  wrapped.queue = queue;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workgroup_size = 1;
  assert_int_equal(pooled_calls(&wrapped, ctx, 1, 2, &launch), 2);
  size_t bytes = 1;
  ocft_assert_status(ocf_context_workspace_pool(ctx, &bytes, NULL), OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  ocf_context_release(ctx);
  clReleaseCommandQueue(queue);
}

/* Threads share one context's pool, with split and baseline calls (two scratch sizes: the pool
   grows under them), each on the context's default queue with buffers of its own. */
typedef struct pool_worker {
  ocft_env env; /* the shared context's */
  size_t rows;
  int failures;
} pool_worker;

static void *pool_thread(void *arg) {
  pool_worker *w = arg;
  const size_t n = w->rows * SPLIT_COLS;
  float *x = malloc(n * sizeof *x), *got = malloc(n * sizeof *got);
  double *want = malloc(n * sizeof *want);
  cl_int err = CL_SUCCESS;
  cl_mem in = clCreateBuffer(w->env.cl, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
  cl_mem out = clCreateBuffer(w->env.cl, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
  if (!x || !got || !want || !in || !out) w->failures++;
  if (!w->failures) {
    ocft_fill_uniform(x, n, -3.0f, 3.0f, 300 + (unsigned)w->rows);
    ocf_ref_softmax(w->rows, SPLIT_COLS, x, SPLIT_COLS, want);
    if (clEnqueueWriteBuffer(w->env.queue, in, CL_TRUE, 0, n * sizeof(float), x, 0, NULL, NULL) !=
        CL_SUCCESS)
      w->failures++;
  }
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workgroup_size = w->rows == 1 ? 1 : 0;
  launch.variant = w->rows == 1 ? OCF_VARIANT_AUTO : OCF_VARIANT_BASELINE;
  for (int call = 0; call < 20 && !w->failures; call++) {
    if (ocf_softmax(w->env.ctx, w->rows, SPLIT_COLS, in, 0, SPLIT_COLS, out, 0, SPLIT_COLS,
                    &launch) != OCF_SUCCESS ||
        clEnqueueReadBuffer(w->env.queue, out, CL_TRUE, 0, n * sizeof(float), got, 0, NULL, NULL) !=
            CL_SUCCESS) {
      w->failures++;
      break;
    }
    ocft_check check;
    ocft_check_start(&check);
    ocft_check_softmax(w->rows, SPLIT_COLS, x, SPLIT_COLS, want, got, SPLIT_COLS,
                       launch.workgroup_size, &w->env.info, &check);
    if (!ocft_check_passed(&check)) w->failures++;
  }
  if (in) clReleaseMemObject(in);
  if (out) clReleaseMemObject(out);
  free(x), free(got), free(want);
  return NULL;
}

static void test_workspace_pool_threads(void **state) {
  ocft_env *group = ocft_get_env(state);
  ocf_context *ctx = split_context(NULL);
  ocft_env env = *group;
  env.ctx = ctx;
  env.cl = ocf_context_cl_context(ctx);
  env.queue = ocf_context_queue(ctx);
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  pool_worker workers[THREADS];
  for (int t = 0; t < THREADS; t++) {
    workers[t] = (pool_worker){env, t % 2 ? 1 : 6, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, pool_thread, &workers[t]), 0);
  }
  for (int t = 0; t < THREADS; t++) {
    assert_int_equal(pthread_join(threads[t], NULL), 0);
    assert_int_equal(workers[t].failures, 0);
  }
  size_t bytes = 0, creations = 0;
  ocft_assert_status(ocf_context_workspace_pool(ctx, &bytes, &creations), OCF_SUCCESS);
  assert_true(creations >= 1 && creations <= 2); /* once per size at most, as the sizes came */
  ocf_context_release(ctx);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_workspace_softmax),      cmocka_unit_test(test_workspace_matmul),
      cmocka_unit_test(test_workspace_refused),      cmocka_unit_test(test_workspace_pool),
      cmocka_unit_test(test_workspace_out_of_order), cmocka_unit_test(test_workspace_pool_threads),
  };
  return cmocka_run_group_tests_name("workspace", tests, ocft_group_setup, ocft_group_teardown);
}
