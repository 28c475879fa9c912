/*
 * The buffer registry (src/runtime/buffer_registry.h): what a context's checks keep of a
 * caller's buffers between calls, and what it lets binding skip.
 *   - a repeated call asks OpenCL nothing about its buffers and sets no buffer argument: one
 *     enqueue for add, softmax and matmul (counted through the fault wrappers, tests/cl_faults.c);
 *   - a released buffer's handle taken by a new buffer of another size: the new size is seen (a
 *     call that fits the new buffer runs, with the right result written into it; one that does
 *     not is refused as before), whichever way the sizes go;
 *   - a buffer used by two contexts of one OpenCL context, and a buffer of another OpenCL
 *     context (refused at every call, its facts kept or not);
 *   - sub-buffers: the parent and origin kept, overlaps found (the parent released first),
 *     apart ranges run;
 *   - destructor callbacks after the context is released (run it under ASan or valgrind to see
 *     a use after free), and many buffers made and released: the table keeps none of them;
 *   - threads making, using and releasing buffers on one context (run it under TSan);
 *   - fallbacks: the registry's probe or a registration failed (the fault wrappers): the calls
 *     still run and are right, and ask about their buffers at every call, as before.
 * Where the runtime does not run destructor callbacks inside the release (the probe says so;
 * the registry is then off), the tests of what the registry saves skip; the others run.
 */
#include "cl_faults.h"
#include "runtime/buffer_registry.h"
#include "runtime/context.h"
#include "test_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FLOATS = 1024, SMALL = 16, TRIES = 200 };

/* How many calls of `name` the window saw since the last reset. */
static unsigned calls_named(const char *name) {
  unsigned count = 0;
  const unsigned long total = ocft_faults_count();
  for (unsigned long i = 1; i <= total; i++)
    if (strcmp(ocft_faults_call_name(i), name) == 0) count++;
  return count;
}

/* Whether ctx uses the registry (its probe has run once a buffer was checked). */
static int registry_on(const ocf_context *ctx) {
  return __atomic_load_n(&ctx->buffer_registry, __ATOMIC_ACQUIRE) > 0;
}

static void add_call(ocf_context *ctx, size_t n, cl_mem x, cl_mem y, cl_mem out,
                     ocf_status expected) {
  ocft_assert_status(ocf_add(ctx, n, x, 0, y, 0, out, 0, NULL), expected);
}

/* out[i] == x[i] + y[i] for the first n floats, read back after the queue is idle. */
static void assert_sums(const ocft_env *env, size_t n, const float *x, const float *y, cl_mem out) {
  float *got = ocft_alloc_floats(n);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  ocft_read(env, out, n, got);
  for (size_t i = 0; i < n; i++)
    if (got[i] != x[i] + y[i]) fail_msg("out[%zu] = %g, want %g", i, got[i], x[i] + y[i]);
  free(got);
}

static float *ramp(size_t n, float scale) {
  float *v = ocft_alloc_floats(n);
  for (size_t i = 0; i < n; i++)
    v[i] = scale * (float)(i % 97);
  return v;
}

/* Waits (up to 10 s) until `count` registered buffers were destroyed since the process
   started: a buffer released while a command or a kernel argument holds it goes later, maybe
   on a runtime's thread. 1 when so; *now the count reached. */
static int wait_destroyed(unsigned long long count, unsigned long long *now) {
  size_t entries = 0;
  for (int wait = 0; wait < 1000; wait++) {
    ocf_buffer_registry_stats(&entries, now);
    if (*now >= count) return 1;
    nanosleep(&(struct timespec){0, 10000000}, NULL);
  }
  return 0;
}

typedef enum { OP_ADD, OP_SOFTMAX, OP_MATMUL } op_kind;

static ocf_status one_call(ocf_context *ctx, op_kind op, cl_mem a, cl_mem b, cl_mem c) {
  switch (op) {
  case OP_ADD:
    return ocf_add(ctx, 256, a, 0, b, 0, c, 0, NULL);
  case OP_SOFTMAX:
    return ocf_softmax(ctx, 4, 64, a, 0, 64, c, 0, 64, NULL);
  default:
    return ocf_matmul(ctx, OCF_NO_TRANS, OCF_NO_TRANS, 32, 32, 32, 1.0f, a, 0, 32, b, 0, 32, 0.0f,
                      c, 0, 32, NULL);
  }
}

/* A second identical call of each op: no clGetMemObjectInfo, no clSetKernelArg, one enqueue
   (the timed shapes of tools/host_cost, single-kernel plans on every device we know). */
static void test_registry_repeated_call(void **state) {
  ocft_env *env = ocft_get_env(state);
  float *zeros = ocft_alloc_floats(FLOATS);
  memset(zeros, 0, FLOATS * sizeof *zeros);
  cl_mem a = ocft_buffer(env, FLOATS, zeros), b = ocft_buffer(env, FLOATS, zeros),
         c = ocft_buffer(env, FLOATS, NULL);
  static const char *const names[] = {"add", "softmax", "matmul"};
  for (op_kind op = OP_ADD; op <= OP_MATMUL; op++) {
    ocft_faults_reset();
    ocft_faults_open();
    ocft_assert_status(one_call(env->ctx, op, a, b, c), OCF_SUCCESS);
    ocft_faults_close();
    /* The buffers the first call set (matmul's 32^3 and softmax pass a, b or c; the third of
       softmax's is its NULL lengths, set once). */
    const unsigned sets_first = op == OP_SOFTMAX ? 2 : 3;
    if (!registry_on(env->ctx)) {
      print_message("the registry is off on this runtime: nothing to count\n");
      break;
    }
    ocft_faults_reset();
    ocft_faults_open();
    const ocf_status status = one_call(env->ctx, op, a, b, c);
    ocft_faults_close();
    ocft_assert_status(status, OCF_SUCCESS);
    const unsigned queries = calls_named("clGetMemObjectInfo"),
                   sets = calls_named("clSetKernelArg"),
                   enqueues = calls_named("clEnqueueNDRangeKernel");
    print_message("%s: %lu OpenCL calls (%u clGetMemObjectInfo, %u clSetKernelArg, %u enqueues)\n",
                  names[op], ocft_faults_count(), queries, sets, enqueues);
    assert_int_equal(queries, 0);
    assert_int_equal(sets, 0);
    assert_int_equal(enqueues, 1);
    assert_int_equal(ocft_faults_count(), 1);
    /* Another registered buffer (used by another op's kernel) destroyed: every kernel sets its
       buffers again, once. The other kernel is given other buffers after the release: a runtime
       whose kernels hold their buffer arguments (rusticl) destroys it only then. */
    const op_kind other_op = op == OP_ADD ? OP_SOFTMAX : OP_ADD;
    cl_mem other = ocft_buffer(env, FLOATS, zeros);
    ocft_assert_status(one_call(env->ctx, other_op, other, other, other), OCF_SUCCESS);
    assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    size_t entries = 0;
    unsigned long long destroyed = 0, now = 0;
    ocf_buffer_registry_stats(&entries, &destroyed);
    assert_int_equal(clReleaseMemObject(other), CL_SUCCESS);
    ocft_assert_status(one_call(env->ctx, other_op, c, c, c), OCF_SUCCESS);
    assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    if (!wait_destroyed(destroyed + 1, &now)) {
      print_message("the released buffer was not destroyed: epoch not tested\n");
      continue;
    }
    for (int round = 0; round < 2; round++) {
      ocft_faults_reset();
      ocft_faults_open();
      ocft_assert_status(one_call(env->ctx, op, a, b, c), OCF_SUCCESS);
      ocft_faults_close();
      assert_int_equal(calls_named("clGetMemObjectInfo"), 0);
      assert_int_equal(calls_named("clSetKernelArg"), round == 0 ? sets_first : 0);
    }
  }
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(c);
  clReleaseMemObject(b);
  clReleaseMemObject(a);
  free(zeros);
}

/* A buffer of `before` floats is used (twice: registered, bound), then released; buffers of
   `after` floats are made until one takes its handle (or TRIES times). Each is used as the
   output: a call of `after` floats runs and writes its sums into it, one of `before` floats
   (when larger) is refused, as it would be without the registry. */
static int reuse_output_handle(const ocft_env *env, size_t before, size_t after) {
  float *x = ramp(FLOATS, 1.0f), *y = ramp(FLOATS, 0.5f);
  cl_mem xb = ocft_buffer(env, FLOATS, x), yb = ocft_buffer(env, FLOATS, y);
  int reused = 0, tries = 0;
  for (; tries < TRIES && !reused; tries++) {
    cl_mem old = ocft_buffer(env, before, NULL);
    add_call(env->ctx, before, xb, yb, old, OCF_SUCCESS);
    add_call(env->ctx, before, xb, yb, old, OCF_SUCCESS);
    assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(old), CL_SUCCESS);
    cl_mem fresh = ocft_buffer(env, after, NULL);
    reused = fresh == old;
    if (before > after) add_call(env->ctx, before, xb, yb, fresh, OCF_ERR_BUFFER_TOO_SMALL);
    add_call(env->ctx, after, xb, yb, fresh, OCF_SUCCESS);
    assert_sums(env, after, x, y, fresh);
    add_call(env->ctx, after, xb, yb, fresh, OCF_SUCCESS); /* found in the registry now */
    if (before > after) add_call(env->ctx, before, xb, yb, fresh, OCF_ERR_BUFFER_TOO_SMALL);
    ocf_buffer_facts facts;
    if (registry_on(env->ctx) && ocf_buffer_registry_find(fresh, &facts))
      assert_int_equal(facts.size, after * sizeof(float));
    assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(fresh), CL_SUCCESS);
  }
  clReleaseMemObject(yb);
  clReleaseMemObject(xb);
  free(y);
  free(x);
  print_message("%zu -> %zu floats: handle reused after %d tries%s\n", before, after, tries,
                reused ? "" : " (never: not shown)");
  return reused;
}

static void test_registry_reused_handle_smaller(void **state) {
  reuse_output_handle(ocft_get_env(state), FLOATS, SMALL);
}

static void test_registry_reused_handle_larger(void **state) {
  reuse_output_handle(ocft_get_env(state), SMALL, FLOATS);
}

/* Two ocf_contexts on one OpenCL context share the buffers' entries, and each runs its calls
   right; a buffer of another OpenCL context is refused by both at every call, whether a context
   of its own recorded it or not. */
static void test_registry_two_contexts(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *second = NULL;
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, env->queue, &second), OCF_SUCCESS);
  float *x = ramp(FLOATS, 1.0f), *y = ramp(FLOATS, 2.0f);
  cl_mem xb = ocft_buffer(env, FLOATS, x), yb = ocft_buffer(env, FLOATS, y),
         out = ocft_buffer(env, FLOATS, NULL);
  for (int i = 0; i < 2; i++) {
    add_call(env->ctx, FLOATS, xb, yb, out, OCF_SUCCESS);
    add_call(second, FLOATS, xb, yb, out, OCF_SUCCESS);
    add_call(second, FLOATS + 1, xb, yb, out, OCF_ERR_BUFFER_TOO_SMALL);
  }
  assert_sums(env, FLOATS, x, y, out);
  if (registry_on(second)) {
    ocft_faults_reset();
    ocft_faults_open();
    const ocf_status status = ocf_add(second, FLOATS, yb, 0, xb, 0, out, 0, NULL);
    ocft_faults_close();
    ocft_assert_status(status, OCF_SUCCESS);
    assert_int_equal(calls_named("clGetMemObjectInfo"), 0);
  }

  /* A buffer of another OpenCL context, which a context of its own records first. */
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue other_queue = clCreateCommandQueue(other, env->device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);
  ocf_context *third = NULL;
  ocft_assert_status(ocf_context_wrap(other, env->device, other_queue, &third), OCF_SUCCESS);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, FLOATS * sizeof(float), NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  for (int i = 0; i < 2; i++) {
    add_call(env->ctx, FLOATS, xb, yb, foreign, OCF_ERR_CONTEXT_MISMATCH);
    add_call(third, FLOATS, foreign, foreign, foreign, OCF_SUCCESS);
    add_call(env->ctx, FLOATS, xb, yb, foreign, OCF_ERR_CONTEXT_MISMATCH);
    add_call(second, FLOATS, foreign, yb, out, OCF_ERR_CONTEXT_MISMATCH);
  }
  assert_int_equal(clFinish(other_queue), CL_SUCCESS);
  clReleaseMemObject(foreign);
  ocf_context_release(third);
  clReleaseCommandQueue(other_queue);
  clReleaseContext(other);
  ocf_context_release(second);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(out);
  clReleaseMemObject(yb);
  clReleaseMemObject(xb);
  free(y);
  free(x);
}

/* Two overlapping sub-buffers of a parent the caller released: their parent and origins are
   kept, the overlap is found at every call (the second from the registry), apart ranges run
   with the right sums. */
static void test_registry_sub_buffers(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_uint align_bits = 0;
  assert_int_equal(clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                   &align_bits, NULL),
                   CL_SUCCESS);
  /* The second sub-buffer starts `shift` floats in: an aligned origin, inside the first. */
  size_t shift = align_bits / 8 / sizeof(float);
  if (shift < FLOATS / 2) shift = FLOATS / 2;
  if (shift >= FLOATS) skip();
  float *host = ramp(2 * FLOATS, 1.0f);
  cl_mem parent = ocft_buffer(env, 2 * FLOATS, host);
  cl_buffer_region first = {0, FLOATS * sizeof(float)},
                   second = {shift * sizeof(float), FLOATS * sizeof(float)};
  cl_int err = CL_SUCCESS;
  cl_mem a =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem b =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &second, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
  for (int round = 0; round < 2; round++) { /* recorded, then found */
    /* b from 0 is a's floats from shift on: out partly over x. */
    add_call(env->ctx, FLOATS, a, a, b, OCF_ERR_ALIASING);
    /* b from FLOATS - shift lies past a's end: apart. */
    ocft_assert_status(ocf_add(env->ctx, shift, a, 0, a, 0, b, FLOATS - shift, NULL), OCF_SUCCESS);
  }
  if (registry_on(env->ctx)) {
    ocf_buffer_facts facts;
    assert_true(ocf_buffer_registry_find(b, &facts));
    assert_ptr_equal(facts.root, parent);
    assert_int_equal(facts.origin, shift * sizeof(float));
    assert_int_equal(facts.size, FLOATS * sizeof(float));
    assert_ptr_equal(facts.context, env->cl);
    ocft_faults_reset();
    ocft_faults_open();
    const ocf_status status = ocf_add(env->ctx, FLOATS, a, 0, a, 0, b, 0, NULL);
    ocft_faults_close();
    ocft_assert_status(status, OCF_ERR_ALIASING);
    assert_int_equal(ocft_faults_count(), 0);
  }
  float *got = ocft_alloc_floats(FLOATS);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  ocft_read(env, b, FLOATS, got);
  for (size_t i = 0; i < shift; i++)
    assert_true(got[FLOATS - shift + i] == 2.0f * host[i]);
  clReleaseMemObject(b);
  clReleaseMemObject(a);
  free(got);
  free(host);
}

/* A context of its own records buffers and is released before them: their callbacks run after,
   and touch nothing of it (ASan, valgrind); its kernels held them. */
static void test_registry_context_released_first(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *own = NULL;
  ocft_assert_status(ocf_context_create(env->info.device_name, &own), OCF_SUCCESS);
  cl_context cl = ocf_context_cl_context(own);
  cl_command_queue queue = ocf_context_queue(own);
  assert_int_equal(clRetainContext(cl), CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl_mem x = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem out = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  for (int i = 0; i < 2; i++)
    add_call(own, 64, x, x, out, OCF_SUCCESS);
  assert_int_equal(clFinish(queue), CL_SUCCESS);
  const int on = registry_on(own);
  size_t entries = 0;
  unsigned long long destroyed = 0, destroyed_after = 0;
  ocf_buffer_registry_stats(&entries, &destroyed);
  ocf_context_release(own);
  clReleaseMemObject(out);
  clReleaseMemObject(x);
  if (on) {
    /* rusticl may destroy them a moment later, on its queue's thread (and an earlier test's
       buffer may go meanwhile: at least these two). */
    assert_true(wait_destroyed(destroyed + 2, &destroyed_after));
    assert_false(ocf_buffer_registry_holds(x));
    assert_false(ocf_buffer_registry_holds(out));
  }
  clReleaseContext(cl);
}

/* Many buffers used once each and released: the table holds none of them afterwards. */
static void test_registry_bounded(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t count = ocft_small() ? 300 : 3000; /* valgrind runs the small sizes */
  cl_mem x = ocft_buffer(env, 64, NULL);
  add_call(env->ctx, 16, x, x, x, OCF_SUCCESS);
  size_t entries = 0, peak = 0, now = 0;
  unsigned long long destroyed = 0, destroyed_after = 0;
  ocf_buffer_registry_stats(&entries, &destroyed);
  for (size_t i = 0; i < count; i++) {
    cl_mem out = ocft_buffer(env, 16 + i % 3, NULL);
    add_call(env->ctx, 16 + i % 3, x, x, out, OCF_SUCCESS);
    add_call(env->ctx, 17 + i % 3, x, x, out, OCF_ERR_BUFFER_TOO_SMALL);
    ocf_buffer_registry_stats(&now, &destroyed_after);
    if (now > peak) peak = now;
    if (i % 100 == 99) assert_int_equal(clFinish(env->queue), CL_SUCCESS);
    clReleaseMemObject(out);
  }
  /* The last output is still the kernel's argument: a runtime whose kernels hold their buffer
     arguments (rusticl) destroys it once another is set. */
  add_call(env->ctx, 16, x, x, x, OCF_SUCCESS);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  if (registry_on(env->ctx)) assert_true(wait_destroyed(destroyed + count, &destroyed_after));
  ocf_buffer_registry_stats(&now, &destroyed_after);
  print_message("entries: %zu before, %zu at most, %zu after %zu buffers\n", entries, peak, now,
                count);
  /* Every one of them gone (an earlier test's buffer a runtime destroys late may go too). */
  if (registry_on(env->ctx)) {
    assert_true(destroyed_after - destroyed >= count);
    assert_true(now <= entries);
  }
  clReleaseMemObject(x);
}

/* Threads on one context, each making, using and releasing its own output buffers while
   sharing two inputs: registrations, lookups, bindings and destructor callbacks (from the
   releasing threads and the runtime's) at once; every sum right (TSan: ctest -L threads). */
enum { THREADS = 4 };

typedef struct churn {
  const ocft_env *env;
  cl_mem x, y;
  const float *xs, *ys;
  size_t rounds;
  int failures;
} churn;

static void *churn_thread(void *arg) {
  churn *c = arg;
  float *got = malloc(FLOATS * sizeof *got);
  if (!got) {
    c->failures++;
    return NULL;
  }
  for (size_t r = 0; r < c->rounds; r++) {
    const size_t n = SMALL + r % 5;
    cl_int err = CL_SUCCESS;
    cl_mem out = clCreateBuffer(c->env->cl, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (err != CL_SUCCESS) {
      c->failures++;
      break;
    }
    cl_event done = NULL;
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.event = &done;
    if (ocf_add(c->env->ctx, n, c->x, 0, c->y, 0, out, 0, &launch) != OCF_SUCCESS ||
        ocf_add(c->env->ctx, n + 1, c->x, 0, c->y, 0, out, 0, NULL) != OCF_ERR_BUFFER_TOO_SMALL ||
        clEnqueueReadBuffer(c->env->queue, out, CL_TRUE, 0, n * sizeof(float), got, 1, &done,
                            NULL) != CL_SUCCESS)
      c->failures++;
    else
      for (size_t i = 0; i < n; i++)
        if (got[i] != c->xs[i] + c->ys[i]) c->failures++;
    if (done) clReleaseEvent(done);
    clReleaseMemObject(out);
  }
  free(got);
  return NULL;
}

static void test_registry_threads(void **state) {
  ocft_env *env = ocft_get_env(state);
  float *x = ramp(FLOATS, 1.0f), *y = ramp(FLOATS, 0.25f);
  cl_mem xb = ocft_buffer(env, FLOATS, x), yb = ocft_buffer(env, FLOATS, y);
  churn work[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++) {
    work[t] = (churn){env, xb, yb, x, y, ocft_small() ? 20 : 200, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, churn_thread, &work[t]), 0);
  }
  int failures = 0;
  for (int t = 0; t < THREADS; t++) {
    assert_int_equal(pthread_join(threads[t], NULL), 0);
    failures += work[t].failures;
  }
  assert_int_equal(failures, 0);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(yb);
  clReleaseMemObject(xb);
  free(y);
  free(x);
}

/* A fresh context whose `nth` clSetMemObjectDestructorCallback fails (1: the probe's first;
   3: the first registration, after the probe's two): its calls still run, right, and it asks
   about its buffers at every call, as without the registry. */
static void registration_fails(const ocft_env *env, unsigned nth) {
  float *x = ramp(FLOATS, 1.0f), *y = ramp(FLOATS, 3.0f);
  cl_mem xb = ocft_buffer(env, FLOATS, x), yb = ocft_buffer(env, FLOATS, y),
         out = ocft_buffer(env, FLOATS, NULL);
  ocf_context *ctx = NULL;
  ocft_faults_reset();
  ocft_faults_arm_named("clSetMemObjectDestructorCallback", nth, CL_OUT_OF_RESOURCES);
  ocft_faults_open(); /* the probe runs in the wrap, the first registrations in the call */
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, env->queue, &ctx), OCF_SUCCESS);
  const ocf_status status = ocf_add(ctx, FLOATS, xb, 0, yb, 0, out, 0, NULL);
  ocft_faults_close();
  ocft_assert_status(status, OCF_SUCCESS);
  const int failed =
      ocft_faults_failed() && strcmp(ocft_faults_failed(), "clSetMemObjectDestructorCallback") == 0;
  assert_sums(env, FLOATS, x, y, out);
  if (failed) {
    assert_int_equal(__atomic_load_n(&ctx->buffer_registry, __ATOMIC_ACQUIRE), -1);
    ocft_faults_reset();
    ocft_faults_open();
    ocft_assert_status(ocf_add(ctx, FLOATS, yb, 0, xb, 0, out, 0, NULL), OCF_SUCCESS);
    ocft_faults_close();
    /* Context and size of each of the three buffers, the parents of out, x and y. */
    assert_int_equal(calls_named("clGetMemObjectInfo"), 9);
    assert_int_equal(calls_named("clSetKernelArg"), 3);
    assert_sums(env, FLOATS, y, x, out);
  } else {
    print_message("call %u of clSetMemObjectDestructorCallback was not made\n", nth);
  }
  ocf_context_release(ctx);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(out);
  clReleaseMemObject(yb);
  clReleaseMemObject(xb);
  free(y);
  free(x);
}

static void test_registry_probe_fails(void **state) {
  registration_fails(ocft_get_env(state), 1);
}

static void test_registry_registration_fails(void **state) {
  ocft_env *env = ocft_get_env(state);
  if (!registry_on(env->ctx)) skip(); /* no registration is made after a failed probe */
  registration_fails(env, 3);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry_repeated_call),
      cmocka_unit_test(test_registry_reused_handle_smaller),
      cmocka_unit_test(test_registry_reused_handle_larger),
      cmocka_unit_test(test_registry_two_contexts),
      cmocka_unit_test(test_registry_sub_buffers),
      cmocka_unit_test(test_registry_context_released_first),
      cmocka_unit_test(test_registry_bounded),
      cmocka_unit_test(test_registry_threads),
      cmocka_unit_test(test_registry_probe_fails),
      cmocka_unit_test(test_registry_registration_fails),
  };
  return cmocka_run_group_tests_name("buffer_registry", tests, ocft_group_setup,
                                     ocft_group_teardown);
}
