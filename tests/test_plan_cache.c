/* The plan cache (src/runtime/plan_cache.c) behind the run loop (src/runtime/run.c): a warm call
   runs the plan a cold one makes, with its own arguments; setting tuning and a learnt limit make
   the next call plan afresh; a failed launch leaves no entry; threads share it safely. */
#include "reference.h"
#include "runtime/context.h"
#include "runtime/plan_cache.h"
#include "test_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cache_clear(ocf_context *ctx) {
  pthread_mutex_lock(&ctx->lock);
  ocf_plan_cache_clear(ctx->plan_cache);
  pthread_mutex_unlock(&ctx->lock);
}

static ocf_plan_cache_stats cache_stats(ocf_context *ctx) {
  ocf_plan_cache_stats stats;
  pthread_mutex_lock(&ctx->lock);
  ocf_plan_cache_stats_get(ctx->plan_cache, &stats);
  pthread_mutex_unlock(&ctx->lock);
  return stats;
}

/* One call of some op on the test's buffers (big enough for every call of the grid). */
typedef struct grid_call {
  const char *op;
  size_t a, b, c; /* add: n; softmax: rows, cols; matmul: m, n, k */
} grid_call;

static const grid_call grid[] = {
    {"add", 1, 0, 0},         {"add", 256, 0, 0},      {"add", 5003, 0, 0},
    {"softmax", 4, 64, 0},    {"softmax", 3, 1000, 0}, {"softmax", 2, 5000, 0},
    {"softmax", 1, 40000, 0}, {"matmul", 64, 64, 64},  {"matmul", 5, 70, 33},
    {"matmul", 100, 3, 40},   {"matmul", 33, 65, 129}, {"matmul", 16, 16, 3000},
};
enum { FLOATS = 1 << 17 };

static ocf_status run_grid_call(ocf_context *ctx, const grid_call *g, cl_mem x, cl_mem y,
                                cl_mem out, float alpha) {
  if (strcmp(g->op, "add") == 0) return ocf_add(ctx, g->a, x, 0, y, 0, out, 0, NULL);
  if (strcmp(g->op, "softmax") == 0)
    return ocf_softmax(ctx, g->a, g->b, x, 0, g->b, out, 0, g->b, NULL);
  return ocf_matmul(ctx, OCF_NO_TRANS, OCF_NO_TRANS, g->a, g->b, g->c, alpha, x, 0, g->c, y, 0,
                    g->b, 0.0f, out, 0, g->b, NULL);
}

/* Cold (cache cleared) and warm calls of every op describe the same plan, and the warm one is
   a hit. */
static void test_plan_cache_same_plan(void **state) {
  ocft_env *env = ocft_get_env(state);
  float *host = ocft_alloc_floats(FLOATS);
  for (size_t i = 0; i < FLOATS; i++)
    host[i] = (float)(i % 7) * 0.125f;
  cl_mem x = ocft_buffer(env, FLOATS, host), y = ocft_buffer(env, FLOATS, host),
         out = ocft_buffer(env, FLOATS, NULL);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(grid); i++) {
    char cold[512];
    cache_clear(env->ctx);
    ocft_assert_status(run_grid_call(env->ctx, &grid[i], x, y, out, 1.0f), OCF_SUCCESS);
    snprintf(cold, sizeof cold, "%s", ocf_last_plan());
    assert_true(cold[0] != '\0');
    const ocf_plan_cache_stats before = cache_stats(env->ctx);
    ocft_assert_status(run_grid_call(env->ctx, &grid[i], x, y, out, 1.0f), OCF_SUCCESS);
    const ocf_plan_cache_stats after = cache_stats(env->ctx);
    if (strcmp(cold, ocf_last_plan()) != 0)
      print_error("%s %zu %zu %zu: cold \"%s\", warm \"%s\"\n", grid[i].op, grid[i].a, grid[i].b,
                  grid[i].c, cold, ocf_last_plan());
    assert_string_equal(cold, ocf_last_plan());
    assert_int_equal(after.hits, before.hits + 1);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(y);
  clReleaseMemObject(x);
  free(host);
}

/* A warm call takes its own arguments: other buffers, another alpha (a scalar the binding
   skips when unchanged, sets when changed). C = alpha * I * B, exact. */
static void test_plan_cache_own_arguments(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = 24 };
  float identity[N * N], b1[N * N], b2[N * N], got[N * N];
  for (size_t i = 0; i < N * N; i++) {
    identity[i] = i / N == i % N ? 1.0f : 0.0f;
    b1[i] = (float)(i % 13);
    b2[i] = (float)(i % 5) - 2.0f;
  }
  cl_mem a = ocft_buffer(env, N * N, identity), bb1 = ocft_buffer(env, N * N, b1),
         bb2 = ocft_buffer(env, N * N, b2), c1 = ocft_buffer(env, N * N, NULL),
         c2 = ocft_buffer(env, N * N, NULL);
  const float alphas[] = {1.0f, 2.0f, 2.0f, -0.5f};
  for (int round = 0; round < 4; round++) {
    cl_mem b = round % 2 ? bb2 : bb1, c = round % 2 ? c2 : c1;
    const float *want = round % 2 ? b2 : b1;
    ocft_assert_status(ocf_matmul(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, N, N, N, alphas[round], a,
                                  0, N, b, 0, N, 0.0f, c, 0, N, NULL),
                       OCF_SUCCESS);
    ocft_read(env, c, N * N, got);
    for (size_t i = 0; i < N * N; i++)
      assert_true(got[i] == alphas[round] * want[i]);
    /* add on the same plan, other buffers */
    ocft_assert_status(ocf_add(env->ctx, N * N, b, 0, a, 0, c, 0, NULL), OCF_SUCCESS);
    ocft_read(env, c, N * N, got);
    for (size_t i = 0; i < N * N; i++)
      assert_true(got[i] == want[i] + identity[i]);
  }
  clReleaseMemObject(c2);
  clReleaseMemObject(c1);
  clReleaseMemObject(bb2);
  clReleaseMemObject(bb1);
  clReleaseMemObject(a);
}

/* The plan of add n = 5003 now, fresh from a cleared cache. */
static void fresh_add_plan(ocft_env *env, cl_mem x, char *out, size_t capacity) {
  cache_clear(env->ctx);
  ocft_assert_status(ocf_add(env->ctx, 5003, x, 0, x, 0, x, 0, NULL), OCF_SUCCESS);
  snprintf(out, capacity, "%s", ocf_last_plan());
}

static void warm_add_plan(ocft_env *env, cl_mem x, char *out, size_t capacity) {
  ocft_assert_status(ocf_add(env->ctx, 5003, x, 0, x, 0, x, 0, NULL), OCF_SUCCESS);
  snprintf(out, capacity, "%s", ocf_last_plan());
}

/* ocf_context_set_tuning: the next call plans with the new values, as a cold call would. */
static void test_plan_cache_set_tuning(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_mem x = ocft_buffer(env, 5003, NULL);
  char before[512], cold[512], warm[512];
  fresh_add_plan(env, x, before, sizeof before);
  warm_add_plan(env, x, warm, sizeof warm);
  assert_string_equal(before, warm);
  /* The vector width, which no kernel limit caps (a workgroup size may be capped the same
     either way, as on llvmpipe at 32). */
  const char *values = strstr(before, "-DVW=4 ") ? "vw=2" : "vw=4";
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "add", OCF_F32, NULL, values), OCF_SUCCESS);
  warm_add_plan(env, x, warm, sizeof warm);
  fresh_add_plan(env, x, cold, sizeof cold);
  assert_string_not_equal(before, warm);
  assert_string_equal(cold, warm);
  ocft_assert_status(ocf_context_set_tuning(env->ctx, "add", OCF_F32, NULL, NULL), OCF_SUCCESS);
  warm_add_plan(env, x, warm, sizeof warm);
  assert_string_equal(before, warm);
  clReleaseMemObject(x);
}

/* A learnt kernel limit (what a build of another call teaches): the next call plans under it,
   as a cold call would. */
static void test_plan_cache_learnt_limit(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_mem x = ocft_buffer(env, 5003, NULL);
  char before[512], cold[512], warm[512];
  fresh_add_plan(env, x, before, sizeof before);
  const char *wg = strstr(before, " wg=");
  assert_non_null(wg);
  const size_t planned = strtoul(wg + 4, NULL, 10);
  if (planned < 2) skip();
  pthread_mutex_lock(&env->ctx->lock);
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    if (ocf_kernel_desc_get((ocf_kernel_id)k)->program == OCF_PROGRAM_ADD)
      ocf_context_learn_workgroup(env->ctx, (ocf_kernel_id)k, planned / 2);
  pthread_mutex_unlock(&env->ctx->lock);
  warm_add_plan(env, x, warm, sizeof warm);
  fresh_add_plan(env, x, cold, sizeof cold);
  assert_string_not_equal(before, warm);
  assert_string_equal(cold, warm);
  assert_true(strtoul(strstr(warm, " wg=") + 4, NULL, 10) <= planned / 2);
  clReleaseMemObject(x);
}

/* A launch that fails after its plan was made (a workspace too small for the scratch of a plan
   that cannot shrink: the unfused baseline's) leaves no entry; the next call runs. */
static void test_plan_cache_failed_launch(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { COLS = 1 << 14 };
  float *host = ocft_alloc_floats(COLS);
  for (size_t i = 0; i < COLS; i++)
    host[i] = (float)(i % 11);
  cl_mem in = ocft_buffer(env, COLS, host), out = ocft_buffer(env, COLS, NULL);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = OCF_VARIANT_BASELINE;
  size_t bytes = 0;
  ocft_assert_status(ocf_softmax_workspace_size(env->ctx, 1, COLS, in, 0, COLS, out, 0, COLS, NULL,
                                                &launch, &bytes),
                     OCF_SUCCESS);
  assert_true(bytes >= COLS * sizeof(float)); /* the exps of the row, at least */
  cl_int err = CL_SUCCESS;
  cl_mem small = clCreateBuffer(env->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  launch.workspace = small;
  launch.workspace_size = bytes - 1; /* one byte short */
  ocf_softmax_options opt = OCF_SOFTMAX_OPTIONS_INIT;
  const size_t entries = cache_stats(env->ctx).entries;
  ocft_assert_status(ocf_softmax_ex(env->ctx, 1, COLS, in, 0, COLS, out, 0, COLS, &opt, &launch),
                     OCF_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(ocf_last_plan()[0], '\0');
  assert_true(cache_stats(env->ctx).entries <= entries);
  launch.workspace = NULL;
  launch.workspace_size = 0;
  ocft_assert_status(ocf_softmax_ex(env->ctx, 1, COLS, in, 0, COLS, out, 0, COLS, &opt, &launch),
                     OCF_SUCCESS);
  float *got = ocft_alloc_floats(COLS);
  ocft_read(env, out, COLS, got);
  double sum = 0.0;
  for (size_t i = 0; i < COLS; i++)
    sum += got[i];
  assert_true(sum > 0.999 && sum < 1.001); /* one row of probabilities */
  free(got);
  free(host);
  clReleaseMemObject(small);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
}

/* Threads on one context: repeated calls (hits), a tuning change now and then (misses), every
   result right. */
typedef struct worker {
  ocf_context *ctx;
  ocft_env *env;
  int id, failures;
} worker;

enum { THREADS = 8, ROUNDS = 60, VECTOR = 1000 };

static void *work(void *arg) {
  worker *w = arg;
  float x[VECTOR], y[VECTOR], got[VECTOR];
  for (size_t i = 0; i < VECTOR; i++) {
    x[i] = (float)((i + (size_t)w->id) % 17);
    y[i] = (float)(i % 3);
  }
  for (int round = 0; round < ROUNDS; round++) {
    const size_t n = round % 2 ? VECTOR : VECTOR / 2 + (size_t)w->id;
    if (w->id == 0 && round % 10 == 5)
      ocf_context_set_tuning(w->ctx, "add", OCF_F32, NULL, round % 20 == 5 ? "wg=64" : NULL);
    if (ocf_add_host(w->ctx, n, x, y, got) != OCF_SUCCESS) {
      w->failures++;
      continue;
    }
    for (size_t i = 0; i < n; i++)
      if (got[i] != x[i] + y[i]) {
        w->failures++;
        break;
      }
  }
  return NULL;
}

static void test_plan_cache_threads(void **state) {
  ocft_env *env = ocft_get_env(state);
  pthread_t threads[THREADS];
  worker workers[THREADS];
  const ocf_plan_cache_stats before = cache_stats(env->ctx);
  for (int t = 0; t < THREADS; t++) {
    workers[t] = (worker){env->ctx, env, t, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
  }
  for (int t = 0; t < THREADS; t++) {
    pthread_join(threads[t], NULL);
    assert_int_equal(workers[t].failures, 0);
  }
  assert_true(cache_stats(env->ctx).hits > before.hits);
  ocf_context_set_tuning(env->ctx, "add", OCF_F32, NULL, NULL);
}

/* What a kernel's buffer argument reading frame field `offset` holds (runtime/program_cache.h). */
static cl_mem held_buffer(const ocf_built_kernel *kernel, size_t offset) {
  for (unsigned i = 0; i < kernel->desc->arg_count; i++)
    if (kernel->desc->args[i].offset == offset) return kernel->held[i].buffer;
  fail_msg("kernel %s has no argument at frame offset %zu", kernel->desc->name, offset);
  return NULL;
}

/* The binder skips a NULL buffer only where the kernel holds NULL: a kernel bound to a buffer
   (a warm-up's dummy, say) and then to NULL holds NULL, not the buffer, which may be released
   and its handle given to another. Any other buffer is set again, the same handle or not. */
static void test_plan_cache_null_buffer(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = env->ctx;
  ocf_softmax_call call;
  memset(&call, 0, sizeof call);
  call.rows = 4, call.cols = 64, call.in_ld = call.out_ld = 64;
  call.in_dtype = call.out_dtype = OCF_F32;
  const ocf_shape shape = {{4, 64}};
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  ocf_tuning_values tuning;
  ocf_context_tuning_for(ctx, OCF_OP_SOFTMAX, OCF_F32, &shape, &tuning);
  ocf_plan plan;
  assert_int_equal(ocf_plan_softmax(&facts, &tuning, &call, &plan), OCF_SUCCESS);
  ocf_built_kernel *kernels[OCF_PLAN_MAX_STEPS] = {NULL};
  int replan = 0;
  assert_int_equal(ocf_plan_build(ctx, &plan, kernels, &replan), OCF_SUCCESS);
  ocf_built_kernel *kernel = kernels[plan.step_count - 1];
  cl_mem in = ocft_buffer(env, 256, NULL), out = ocft_buffer(env, 256, NULL);
  cl_mem lengths = ocft_buffer(env, 4, NULL);
  ocf_softmax_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.rows = 4, frame.cols = 64, frame.in = in, frame.in_ld = 64, frame.out = out;
  frame.out_ld = 64, frame.scale = 1.0f, frame.causal_period = 1, frame.parts = 1;
  frame.lengths = lengths;
  const size_t at = offsetof(ocf_softmax_frame, lengths);
  pthread_mutex_lock(&ctx->lock);
  assert_int_equal(ocf_bind_arguments(kernel, &frame), OCF_SUCCESS);
  assert_ptr_equal(held_buffer(kernel, at), lengths);
  frame.lengths = NULL;
  assert_int_equal(ocf_bind_arguments(kernel, &frame), OCF_SUCCESS);
  assert_ptr_equal(held_buffer(kernel, at), NULL);
  assert_int_equal(ocf_bind_arguments(kernel, &frame), OCF_SUCCESS);
  assert_ptr_equal(held_buffer(kernel, at), NULL);
  frame.lengths = lengths;
  assert_int_equal(ocf_bind_arguments(kernel, &frame), OCF_SUCCESS);
  assert_ptr_equal(held_buffer(kernel, at), lengths);
  pthread_mutex_unlock(&ctx->lock);
  clReleaseMemObject(lengths);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_cache_same_plan),
      cmocka_unit_test(test_plan_cache_own_arguments),
      cmocka_unit_test(test_plan_cache_set_tuning),
      cmocka_unit_test(test_plan_cache_learnt_limit),
      cmocka_unit_test(test_plan_cache_failed_launch),
      cmocka_unit_test(test_plan_cache_threads),
      cmocka_unit_test(test_plan_cache_null_buffer),
  };
  return cmocka_run_group_tests_name("plan_cache", tests, ocft_group_setup, ocft_group_teardown);
}
