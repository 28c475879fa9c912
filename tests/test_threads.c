/*
 * Threads (ctest -L threads; also run under ThreadSanitizer by scripts/test.sh): one context
 * shared by 8 threads, each making 1000 mixed calls and checking every result, while two more
 * threads create and release contexts of their own.
 *
 *   - the calls: every op of the harness's table (harness/op_cases.h), in both forms: add,
 *     softmax (every variant: the fused kernels, the reference, the three-kernel baseline) and
 *     matmul with calls of their own here (offsets, strides, transposes), any other op through
 *     the table's plain call on its small shapes, every variant; device-form calls on the
 *     thread's own queue (an
 *     out-of-order one where the device has it, so that the library's event chains are what
 *     orders a multi-kernel call) and on the context's queue, with events and wait lists;
 *     ocf_context_set_tuning / get_tuning mixed in (any values in force give right results);
 *   - first, all threads at once ask for programs that no one has built yet (a workgroup size
 *     of its own per round): the one build runs outside the context's lock while the others wait
 *     for it, and each program is built exactly once (clBuildProgram is counted, wrapped at link
 *     time);
 *   - results: add exactly, softmax and matmul within their error models (harness/tolerance.c).
 *
 * OCFT_THREAD_CALLS sets the calls per thread (default 1000).
 */
#include "op_cases.h"
#include "reference.h"
#include "test_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { THREADS = 8, CREATORS = 2, CREATOR_ROUNDS = 12, SAME_PROGRAM_ROUNDS = 4 };

/* ---- clBuildProgram, counted ---- */

cl_int __real_clBuildProgram(cl_program, cl_uint, const cl_device_id *, const char *,
                             void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int __wrap_clBuildProgram(cl_program program, cl_uint count, const cl_device_id *devices,
                             const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user);

static pthread_mutex_t builds_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned builds;

cl_int __wrap_clBuildProgram(cl_program program, cl_uint count, const cl_device_id *devices,
                             const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user) {
  pthread_mutex_lock(&builds_lock);
  builds++;
  pthread_mutex_unlock(&builds_lock);
  return __real_clBuildProgram(program, count, devices, options, notify, user);
}

/* ---- one worker ---- */

typedef struct worker {
  ocft_env env;         /* the shared context, and this thread's own queue in env.queue */
  cl_command_queue own; /* this thread's queue (may be out of order) */
  pthread_barrier_t *gate;
  unsigned index, calls, done, failures;
  char failure[512]; /* the first failure, for the report */
  uint64_t random;
} worker;

static unsigned next_random(worker *w, unsigned bound) {
  /* xorshift64*: deterministic per thread. */
  w->random ^= w->random >> 12;
  w->random ^= w->random << 25;
  w->random ^= w->random >> 27;
  return (unsigned)((w->random * 2685821657736338717ull) >> 33) % bound;
}

static void record_failure(worker *w, const char *what, ocf_status status) {
  if (!w->failures)
    snprintf(w->failure, sizeof w->failure, "thread %u call %u: %s: %s (%s)", w->index, w->done,
             what, ocf_status_name(status), ocf_last_error());
  w->failures++;
}

/* A device buffer of `count` floats from `data`, on the thread's own queue. */
static cl_mem buffer_from(worker *w, size_t count, const float *data) {
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(w->env.cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            (count ? count : 1) * sizeof(float), (void *)data, &err);
  return err == CL_SUCCESS ? b : NULL;
}

/* Reads `count` floats after `event` (which it releases) on `queue`; 0 on success. */
static int read_after(cl_command_queue queue, cl_mem b, size_t count, float *data, cl_event event) {
  cl_int err = clEnqueueReadBuffer(queue, b, CL_TRUE, 0, count * sizeof(float), data, event ? 1 : 0,
                                   event ? &event : NULL, NULL);
  if (event) clReleaseEvent(event);
  return err != CL_SUCCESS;
}

/* The queue a device-form call runs on: the thread's own (through the launch), or the
   context's (a NULL launch queue). */
static cl_command_queue pick_queue(worker *w, ocf_launch *launch) {
  ocf_launch_init(launch);
  if (next_random(w, 2)) {
    launch->queue = w->own;
    return w->own;
  }
  return w->env.queue;
}

static void call_add(worker *w, int device) {
  size_t n = 1 + next_random(w, 3000), off = next_random(w, 2) ? 0 : next_random(w, 9);
  float *x = ocft_alloc_floats(n + off), *y = ocft_alloc_floats(n + off);
  float *got = ocft_alloc_floats(n + off);
  double *want = ocft_alloc_doubles(n);
  ocft_fill_uniform(x, n + off, -9.0f, 9.0f, w->random);
  ocft_fill_uniform(y, n + off, -9.0f, 9.0f, w->random + 1);
  ocf_ref_add(n, x + off, y + off, want);
  ocf_status status;
  if (!device) {
    status = ocf_add_host(w->env.ctx, n, x + off, y + off, got + off);
  } else {
    cl_mem xb = buffer_from(w, n + off, x), yb = buffer_from(w, n + off, y);
    cl_mem ob = buffer_from(w, n + off, x);
    ocf_launch launch;
    cl_command_queue queue = pick_queue(w, &launch);
    cl_event done = NULL;
    launch.event = &done;
    status = xb && yb && ob ? ocf_add(w->env.ctx, n, xb, off, yb, off, ob, off, &launch)
                            : OCF_ERR_OUT_OF_HOST_MEMORY;
    if (status == OCF_SUCCESS && read_after(queue, ob, n + off, got, done))
      status = OCF_ERR_INVALID_VALUE;
    if (ob) clReleaseMemObject(ob);
    if (yb) clReleaseMemObject(yb);
    if (xb) clReleaseMemObject(xb);
  }
  if (status != OCF_SUCCESS) {
    record_failure(w, device ? "ocf_add" : "ocf_add_host", status);
  } else {
    for (size_t i = 0; i < n; i++)
      if (got[off + i] != (float)want[i]) {
        record_failure(w, "add: a wrong sum", OCF_SUCCESS);
        break;
      }
  }
  free(x), free(y), free(got), free(want);
}

static void call_softmax(worker *w, int device) {
  static const int variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL,
                                 OCF_VARIANT_BASELINE};
  size_t rows = 1 + next_random(w, 8), cols = 1 + next_random(w, next_random(w, 4) ? 300 : 3000);
  size_t ld = cols + next_random(w, 3);
  float *in = ocft_alloc_floats(rows * ld), *got = ocft_alloc_floats(rows * ld);
  double *want = ocft_alloc_doubles(rows * cols);
  ocft_fill_uniform(in, rows * ld, -6.0f, 6.0f, w->random);
  ocf_ref_softmax(rows, cols, in, ld, want);
  ocf_status status;
  ocf_launch launch;
  ocf_launch_init(&launch);
  if (!device) {
    status = ocf_softmax_host(w->env.ctx, rows, cols, in, ld, got, ld);
  } else {
    cl_mem ib = buffer_from(w, rows * ld, in), ob = buffer_from(w, rows * ld, in);
    cl_command_queue queue = pick_queue(w, &launch);
    launch.variant = variants[next_random(w, 4)];
    /* Wait for an event of the caller's: the call's first kernel must not start before it. */
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(w->env.cl, &err), done = NULL;
    launch.num_wait_events = 1;
    launch.wait_events = &gate;
    launch.event = &done;
    status = ib && ob && err == CL_SUCCESS
                 ? ocf_softmax(w->env.ctx, rows, cols, ib, 0, ld, ob, 0, ld, &launch)
                 : OCF_ERR_OUT_OF_HOST_MEMORY;
    if (gate) clSetUserEventStatus(gate, CL_COMPLETE);
    if (status == OCF_SUCCESS && read_after(queue, ob, rows * ld, got, done))
      status = OCF_ERR_INVALID_VALUE;
    if (gate) clReleaseEvent(gate);
    if (ob) clReleaseMemObject(ob);
    if (ib) clReleaseMemObject(ib);
  }
  if (status != OCF_SUCCESS) {
    record_failure(w, device ? "ocf_softmax" : "ocf_softmax_host", status);
  } else {
    ocft_check check;
    ocft_check_start(&check);
    ocft_check_softmax(rows, cols, in, ld, want, got, ld, 0, &w->env.info, &check);
    if (!ocft_check_passed(&check))
      record_failure(w, "softmax: outside its tolerance", OCF_SUCCESS);
  }
  free(in), free(got), free(want);
}

static void call_matmul(worker *w, int device) {
  size_t m = 1 + next_random(w, 24), n = 1 + next_random(w, 24), k = next_random(w, 24);
  int trans_a = (int)next_random(w, 2), trans_b = (int)next_random(w, 2);
  size_t lda = (trans_a ? m : k) + next_random(w, 2), ldb = (trans_b ? k : n) + next_random(w, 2);
  size_t ldc = n + next_random(w, 2);
  size_t a_len = (trans_a ? k : m) * lda + 1, b_len = (trans_b ? n : k) * ldb + 1;
  float *a = ocft_alloc_floats(a_len), *b = ocft_alloc_floats(b_len);
  float *c = ocft_alloc_floats(m * ldc), *got = ocft_alloc_floats(m * ldc);
  double *want = ocft_alloc_doubles(m * n), *tol = ocft_alloc_doubles(m * n);
  ocft_fill_uniform(a, a_len, -1.0f, 1.0f, w->random);
  ocft_fill_uniform(b, b_len, -1.0f, 1.0f, w->random + 1);
  ocft_fill_uniform(c, m * ldc, -1.0f, 1.0f, w->random + 2);
  const float alpha = 1.25f, beta = next_random(w, 2) ? 0.5f : 0.0f;
  ocf_ref_matmul(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, want);
  ocft_matmul_tolerance(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tol);
  memcpy(got, c, m * ldc * sizeof *got);
  ocf_status status;
  if (!device) {
    status = ocf_matmul_host(w->env.ctx, (ocf_transpose)trans_a, (ocf_transpose)trans_b, m, n, k,
                             alpha, a, lda, b, ldb, beta, got, ldc);
  } else {
    cl_mem ab = buffer_from(w, a_len, a), bb = buffer_from(w, b_len, b);
    cl_mem cb = buffer_from(w, m * ldc, c);
    ocf_launch launch;
    cl_command_queue queue = pick_queue(w, &launch);
    cl_event done = NULL;
    launch.event = &done;
    status = ab && bb && cb
                 ? ocf_matmul(w->env.ctx, (ocf_transpose)trans_a, (ocf_transpose)trans_b, m, n, k,
                              alpha, ab, 0, lda, bb, 0, ldb, beta, cb, 0, ldc, &launch)
                 : OCF_ERR_OUT_OF_HOST_MEMORY;
    if (status == OCF_SUCCESS && read_after(queue, cb, m * ldc, got, done))
      status = OCF_ERR_INVALID_VALUE;
    if (cb) clReleaseMemObject(cb);
    if (bb) clReleaseMemObject(bb);
    if (ab) clReleaseMemObject(ab);
  }
  if (status != OCF_SUCCESS) {
    record_failure(w, device ? "ocf_matmul" : "ocf_matmul_host", status);
  } else {
    float *dense = ocft_alloc_floats(m * n);
    for (size_t i = 0; i < m; i++)
      memcpy(dense + i * n, got + i * ldc, n * sizeof(float));
    ocft_check check;
    ocft_check_start(&check);
    ocft_check_elements(dense, want, tol, m * n, &check);
    if (!ocft_check_passed(&check)) record_failure(w, "matmul: outside its tolerance", OCF_SUCCESS);
    free(dense);
  }
  free(a), free(b), free(c), free(got), free(want), free(tol);
}

/* Any op of the table without a call of its own here: its plain call on one of its small shapes,
   in the host form, or the device form behind a gate event of the caller's, any variant. */
static void call_plain(worker *w, const ocft_op_case *op, int device) {
  static const int variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL, OCF_VARIANT_BASELINE};
  ocft_call call;
  if (ocft_call_make(&call, op, op->small.d[next_random(w, (unsigned)op->small.count)],
                     w->random)) {
    ocft_call_free(&call);
    record_failure(w, op->name, OCF_ERR_OUT_OF_HOST_MEMORY);
    return;
  }
  ocf_status status;
  if (!device) {
    status = ocft_call_host(&call, w->env.ctx);
  } else {
    ocf_launch launch;
    cl_command_queue queue = pick_queue(w, &launch);
    launch.variant = variants[next_random(w, 3)];
    cl_int err = ocft_call_buffers(&call, w->env.cl);
    cl_event gate = err == CL_SUCCESS ? clCreateUserEvent(w->env.cl, &err) : NULL, done = NULL;
    launch.num_wait_events = 1;
    launch.wait_events = &gate;
    launch.event = &done;
    status = err == CL_SUCCESS ? ocft_call_device(&call, w->env.ctx, &launch)
                               : OCF_ERR_OUT_OF_HOST_MEMORY;
    if (gate) clSetUserEventStatus(gate, CL_COMPLETE);
    if (status == OCF_SUCCESS && ocft_call_read(&call, queue, done) != CL_SUCCESS)
      status = OCF_ERR_INVALID_VALUE;
    if (done) clReleaseEvent(done);
    if (gate) clReleaseEvent(gate);
  }
  if (status != OCF_SUCCESS) {
    record_failure(w, device ? op->function : op->host_function, status);
  } else {
    ocft_check check;
    ocft_call_check(&call, &w->env.info, &check);
    if (!ocft_check_passed(&check)) record_failure(w, op->name, OCF_SUCCESS);
  }
  ocft_call_free(&call);
}

/* The calls of their own this suite makes of some ops, by name; others call_plain. */
static const struct {
  const char *op;
  void (*call)(worker *w, int device);
} own_calls[] = {{"add", call_add}, {"softmax", call_softmax}, {"matmul", call_matmul}};

/* A call of op (of the table), in the device or host form. */
static void call_op(worker *w, const ocft_op_case *op, int device) {
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(own_calls); i++)
    if (!strcmp(own_calls[i].op, op->name)) {
      own_calls[i].call(w, device);
      return;
    }
  call_plain(w, op, device);
}

/* Tuning overrides set, read and reset while other threads call: every value set here is legal,
   so every call stays right whatever it sees. */
static void call_tuning(worker *w) {
  /* op, class set (NULL: every class), values (NULL: back to the resolved ones), class read */
  static const char *const settings[][4] = {
      {"add", "small", "wg=32", "small"}, {"add", "small", "wg=64 vw=8", "small"},
      {"add", NULL, NULL, "large"},       {"softmax", "narrow", "wg=32", "narrow"},
      {"softmax", NULL, NULL, "wide"},    {"matmul", NULL, NULL, "small"}};
  const char *const *s = settings[next_random(w, OCF_ARRAY_LEN_T(settings))];
  ocf_status status = ocf_context_set_tuning(w->env.ctx, s[0], OCF_F32, s[1], s[2]);
  if (status != OCF_SUCCESS) {
    record_failure(w, "ocf_context_set_tuning", status);
    return;
  }
  char values[4096]; /* matmul's values with their family names take about 1250 bytes */
  status = ocf_context_get_tuning(w->env.ctx, s[0], OCF_F32, s[3], values, sizeof values);
  if (status != OCF_SUCCESS || !strchr(values, '='))
    record_failure(w, "ocf_context_get_tuning", status);
}

/* All threads at once ask for a program no one has built: add with a workgroup size of its
   own per round. */
static void same_new_program(worker *w, unsigned round) {
  static const size_t sizes[SAME_PROGRAM_ROUNDS] = {3, 5, 7, 11};
  enum { N = 1000 };
  float x[N], y[N], got[N];
  ocft_fill_uniform(x, N, -1.0f, 1.0f, w->index * 10 + round);
  ocft_fill_uniform(y, N, -1.0f, 1.0f, w->index * 10 + round + 5);
  cl_mem xb = buffer_from(w, N, x), yb = buffer_from(w, N, y), ob = buffer_from(w, N, x);
  ocf_launch launch;
  ocf_launch_init(&launch);
  launch.workgroup_size = sizes[round];
  launch.queue = w->own;
  cl_event done = NULL;
  launch.event = &done;
  pthread_barrier_wait(w->gate);
  ocf_status status = ocf_add(w->env.ctx, N, xb, 0, yb, 0, ob, 0, &launch);
  if (status == OCF_SUCCESS && read_after(w->own, ob, N, got, done)) status = OCF_ERR_INVALID_VALUE;
  if (status != OCF_SUCCESS) record_failure(w, "ocf_add of a new program", status);
  for (size_t i = 0; status == OCF_SUCCESS && i < N; i++)
    if (got[i] != x[i] + y[i]) {
      record_failure(w, "add of a new program: a wrong sum", OCF_SUCCESS);
      break;
    }
  clReleaseMemObject(ob), clReleaseMemObject(yb), clReleaseMemObject(xb);
  pthread_barrier_wait(w->gate); /* the main thread counts the builds between rounds */
  pthread_barrier_wait(w->gate);
}

static void *worker_run(void *arg) {
  worker *w = arg;
  for (unsigned round = 0; round < SAME_PROGRAM_ROUNDS; round++)
    same_new_program(w, round);
  /* One call in ten sets tuning; the others go to the table's ops in turn at random. */
  const unsigned ops = (unsigned)ocft_op_count();
  for (w->done = 0; w->done < w->calls; w->done++) {
    unsigned what = next_random(w, 20);
    if (what < 18)
      call_op(w, ocft_op_at(next_random(w, ops)), what % 2);
    else
      call_tuning(w);
  }
  return NULL;
}

/* ---- contexts created and released while the workers run ---- */

typedef struct creator {
  unsigned rounds, failures;
  char failure[512];
} creator;

static void *creator_run(void *arg) {
  creator *c = arg;
  enum { N = 257 };
  float x[N], got[N];
  ocft_fill_uniform(x, N, -1.0f, 1.0f, 99);
  for (unsigned r = 0; r < c->rounds; r++) {
    ocf_context *ctx = NULL;
    ocf_status status = ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &ctx);
    if (status == OCF_SUCCESS) status = ocf_add_host(ctx, N, x, x, got);
    for (size_t i = 0; status == OCF_SUCCESS && i < N; i++)
      if (got[i] != x[i] + x[i]) status = OCF_ERR_INVALID_VALUE;
    if (status != OCF_SUCCESS && !c->failures++)
      snprintf(c->failure, sizeof c->failure, "context round %u: %s (%s)", r,
               ocf_status_name(status), ocf_last_error());
    ocf_context_release(ctx);
  }
  return NULL;
}

static void test_threads_shared_context(void **state) {
  ocft_env *env = ocft_get_env(state);
  const char *calls_text = getenv("OCFT_THREAD_CALLS");
  const unsigned calls = calls_text ? (unsigned)strtoul(calls_text, NULL, 10) : 1000;
  pthread_barrier_t gate;
  assert_int_equal(pthread_barrier_init(&gate, NULL, THREADS + 1), 0);
  static worker workers[THREADS];
  pthread_t threads[THREADS], creators_threads[CREATORS];
  creator creators[CREATORS];
  unsigned out_of_order = 0;
  for (unsigned i = 0; i < THREADS; i++) {
    worker *w = &workers[i];
    memset(w, 0, sizeof *w);
    w->env = *env;
    w->gate = &gate;
    w->index = i;
    w->calls = calls;
    w->random = 0x9E3779B97F4A7C15ull * (i + 1);
    /* Odd threads ask for an out-of-order queue; a device without one gives an in-order. */
    cl_int err = CL_SUCCESS;
    w->own = clCreateCommandQueue(env->cl, env->device,
                                  i % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
    if (err != CL_SUCCESS)
      w->own = clCreateCommandQueue(env->cl, env->device, 0, &err);
    else
      out_of_order += i % 2;
    assert_int_equal(err, CL_SUCCESS);
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (unsigned i = 0; i < THREADS; i++)
    assert_int_equal(pthread_create(&threads[i], NULL, worker_run, &workers[i]), 0);

  /* The rounds of one new program each: built once, however many threads asked at once. */
  for (unsigned round = 0; round < SAME_PROGRAM_ROUNDS; round++) {
    pthread_mutex_lock(&builds_lock);
    unsigned before = builds;
    pthread_mutex_unlock(&builds_lock);
    pthread_barrier_wait(&gate); /* go */
    pthread_barrier_wait(&gate); /* all done */
    pthread_mutex_lock(&builds_lock);
    unsigned built = builds - before;
    pthread_mutex_unlock(&builds_lock);
    if (built != 1)
      fail_msg("round %u: %u threads asked for one new program at once and it was built %u times",
               round, THREADS, built);
    pthread_barrier_wait(&gate);
  }
  for (unsigned i = 0; i < CREATORS; i++) {
    creators[i] = (creator){CREATOR_ROUNDS, 0, ""};
    assert_int_equal(pthread_create(&creators_threads[i], NULL, creator_run, &creators[i]), 0);
  }
  unsigned failures = 0, total = 0;
  for (unsigned i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    total += workers[i].done;
    if (workers[i].failures) print_error("%s\n", workers[i].failure);
    failures += workers[i].failures;
    clReleaseCommandQueue(workers[i].own);
  }
  for (unsigned i = 0; i < CREATORS; i++) {
    pthread_join(creators_threads[i], NULL);
    if (creators[i].failures) print_error("%s\n", creators[i].failure);
    failures += creators[i].failures;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  pthread_barrier_destroy(&gate);
  /* The context's tuning back to what it resolved, for anything run after. */
  for (size_t i = 0; i < ocft_op_count(); i++)
    ocf_context_set_tuning(env->ctx, ocft_op_at(i)->name, OCF_F32, NULL, NULL);
  printf("%u threads: %u verified calls (%u same-new-program rounds, %u out-of-order queues), "
         "%u contexts created and released alongside, in %.1f s\n",
         THREADS, total, SAME_PROGRAM_ROUNDS, out_of_order, CREATORS * CREATOR_ROUNDS,
         (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
  if (failures)
    fail_msg("%u calls failed or were wrong (the first of each thread above)", failures);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threads_shared_context),
  };
  return cmocka_run_group_tests_name("threads", tests, ocft_group_setup, ocft_group_teardown);
}
