/*
 * Fault injection (ctest -L faults): every OpenCL call the library makes is made to fail, one at
 * a time, and the library must answer each with a clear error and no damage.
 *
 * A short program calls every public op in both forms (every op of the harness's table,
 * harness/op_cases.h: add, softmax and matmul through the suite's own steps below, any other op
 * through the table's plain call on its first small shape), with events, wait lists and
 * first_event, on every multi-kernel plan (softmax's split, also in a caller's workspace, and its
 * baseline; the other ops' unfused baselines, attention's a chain of calls in the borrowed pool),
 * around context creation, warm-up, a wrapped context and the on-disk program cache
 * (a temporary folder holding the program binaries of a good run for the "warm" runs; empty for
 * the "cold" runs, whose shorter program calls each op once, so that every program is built from
 * source and its binary stored). A reference run numbers its OpenCL calls, 1 to T, and notes
 * each one's step and call site in the library. Then for N = 1 .. T, and for each of
 * CL_OUT_OF_RESOURCES and CL_OUT_OF_HOST_MEMORY, the program runs again with call N failed
 * (tests/cl_faults.h), but for two kinds of N whose path another N takes (OCFT_FAULTS_EVERY=1
 * fails them too): a call inside a run of calls from one call site (a loop around that call: its
 * first and last pass are failed), and in the warm runs a call the cold runs make too (the same
 * site, its same pass in the same step: only the way the program came differs). The step in
 * which it failed must show:
 *   - an error status, the injected OpenCL error (or OCF_ERR_ENQUEUED_WITHOUT_EVENT where the
 *     header allows it), whose ocf_last_error() names the failed call; or success with a right
 *     output, where the library recovers (a cached binary it cannot load is built from source,
 *     say): "absorbed" in the table;
 *   - a failed call's outputs untouched (device buffers read after clFinish, so that kernels a
 *     multi-kernel call queued before its failed enqueue have finished) and its events not set;
 *   - the same step again, with nothing failing, succeeds with a right output;
 *   - once the context is released, every OpenCL object the library created or retained is
 *     released again (the wrappers count them); host memory is checked by LeakSanitizer when
 *     the suite runs in the sanitizer build (scripts/test.sh).
 * A crash fails the suite. The table of injection points (which call, in which step, what
 * status, how many points) is printed, and every run is written to test_faults.csv.
 *
 * test_faults_multi_kernel_enqueues fails each enqueue of each multi-kernel plan directly, and
 * test_faults_out_of_order_queue checks through the wrappers that every call orders its commands
 * by events on an out-of-order queue.
 */
#include "cl_faults.h"
#include "op_cases.h"
#include "reference.h"
#include "test_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the program's state: the context, the test's own buffers and host arrays ---- */

enum {
  ADD_N = 1000,
  ADD_HOST_N = 777,
  SM_ROWS = 4,
  SM_COLS = 100,
  BASE_ROWS = 3,
  BASE_COLS = 50,
  SPLIT_COLS = 200,
  SMH_ROWS = 3,
  SMH_COLS = 33,
  SMH_IN_LD = 35,
  SMH_OUT_LD = 40,
  MM = 16,
  MMH_M = 5,
  MMH_N = 7,
  MMH_K = 3,
  MMH_LDC = 9,
  BIG = 1024,              /* floats in each device buffer: room for every step's largest operand */
  WORKSPACE_OFFSET = 4096, /* a multiple of every device's CL_DEVICE_MEM_BASE_ADDR_ALIGN */
  WORKSPACE_BYTES = 8192
};

typedef struct program {
  ocf_context *ctx;
  ocft_env env; /* the context's objects, for the test's own reads and writes */
  cl_mem in_a, in_b, out;
  cl_mem workspace; /* WORKSPACE_BYTES, lent to the split softmax at WORKSPACE_OFFSET */
  float a[BIG], b[BIG], before[BIG], got[BIG];
  cl_event gate, event, first_event;
  ocf_launch launch;
  size_t plans;
  const ocft_op_case *op; /* the op of a step of the table's plain call */
  ocft_call call;         /* that step's call */
} program;

/* Deterministic inputs, and an output full of values no op produces. */
static void fill_inputs(program *p, unsigned seed) {
  ocft_fill_uniform(p->a, BIG, -2.0f, 2.0f, seed);
  ocft_fill_uniform(p->b, BIG, -2.0f, 2.0f, seed + 1);
  ocft_fill_uniform(p->before, BIG, 1e6f, 2e6f, seed + 2);
}

/* Writes the inputs and the sentinel output to the device buffers, and resets the launch. */
static void prepare_device(program *p, unsigned seed) {
  fill_inputs(p, seed);
  ocft_write(&p->env, p->in_a, BIG, p->a);
  ocft_write(&p->env, p->in_b, BIG, p->b);
  ocft_write(&p->env, p->out, BIG, p->before);
  p->event = p->first_event = NULL;
  ocf_launch_init(&p->launch);
  p->launch.event = &p->event;
}

static void release_events(program *p) {
  if (p->event) clReleaseEvent(p->event);
  if (p->first_event) clReleaseEvent(p->first_event);
  if (p->gate) clReleaseEvent(p->gate);
  p->event = p->first_event = p->gate = NULL;
}

/* After a device-form call: the output read back once the queue is idle. */
static void read_out(program *p) {
  assert_int_equal(clFinish(p->env.queue), CL_SUCCESS);
  ocft_read(&p->env, p->out, BIG, p->got);
}

/* What a failed call must leave: no event set, the output as it was. NULL when so. */
static const char *judge_untouched(program *p, const float *got, const float *before,
                                   size_t count) {
  if (p->event || p->first_event) return "a failed call set an event";
  if (memcmp(got, before, count * sizeof *got) != 0) return "a failed call changed its output";
  return NULL;
}

/* Whether the floats of `got` outside [from, to) are still `before`'s. */
static int outside_untouched(const float *got, const float *before, size_t from, size_t to,
                             size_t count) {
  return memcmp(got, before, from * sizeof *got) == 0 &&
         memcmp(got + to, before + to, (count - to) * sizeof *got) == 0;
}

/* The verdict on a device-form call's output: `check` compares the op's part of got. */
static const char *judge_device(program *p, ocf_status status, const char *(*check)(program *p)) {
  read_out(p);
  if (status == OCF_SUCCESS || status == OCF_ERR_ENQUEUED_WITHOUT_EVENT) {
    /* ENQUEUED_WITHOUT_EVENT: the kernel ran, and no event came back. */
    if (status == OCF_ERR_ENQUEUED_WITHOUT_EVENT && (p->event || p->first_event))
      return "OCF_ERR_ENQUEUED_WITHOUT_EVENT with an event set";
    if (status == OCF_SUCCESS && p->launch.event && !p->event) return "no event on success";
    if (status == OCF_SUCCESS && p->launch.first_event && !p->first_event)
      return "no first_event on success";
    const char *problem = check(p);
    release_events(p);
    return problem;
  }
  const char *problem = judge_untouched(p, p->got, p->before, BIG);
  release_events(p);
  return problem;
}

/* ---- the steps ---- */

typedef struct step {
  const char *name;
  /* In the cold runs' shorter program too: each op once, so that every source build and the
     storing of binaries are failed, in a quarter of the time (a source build costs PoCL about
     0.1 s, a cached binary 7 ms). */
  int cold;
  void (*prepare)(program *p);
  ocf_status (*call)(program *p); /* the library's calls, inside the window */
  /* NULL when the outcome is right: success with a right output, or a failure that touched
     nothing. Releases what the step made. */
  const char *(*judge)(program *p, ocf_status status);
  const ocft_op_case *op; /* the op of the table a plain-call step calls, else NULL */
} step;

static void prepare_nothing(program *p) {
  (void)p;
}

/* ocf_context_create on the test device, then the test's buffers in it. */
static ocf_status call_create(program *p) {
  return ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &p->ctx);
}

static const char *judge_create(program *p, ocf_status status) {
  if (status != OCF_SUCCESS) return p->ctx ? "a failed create set *ctx" : NULL;
  p->env.ctx = p->ctx;
  p->env.cl = ocf_context_cl_context(p->ctx);
  p->env.device = ocf_context_device(p->ctx);
  p->env.queue = ocf_context_queue(p->ctx);
  ocf_device_info_init(&p->env.info);
  assert_int_equal(ocf_context_device_info(p->ctx, &p->env.info), OCF_SUCCESS);
  p->in_a = ocft_buffer(&p->env, BIG, NULL);
  p->in_b = ocft_buffer(&p->env, BIG, NULL);
  p->out = ocft_buffer(&p->env, BIG, NULL);
  p->workspace = ocft_buffer(&p->env, WORKSPACE_BYTES / sizeof(float), NULL);
  return NULL;
}

static ocf_status call_warmup(program *p) {
  p->plans = 0;
  return ocf_warmup(p->ctx, "add", &p->plans);
}

static const char *judge_warmup(program *p, ocf_status status) {
  return status == OCF_SUCCESS && p->plans == 0 ? "warm-up prepared no plan" : NULL;
}

/* add, device form: after a wait list, with event and first_event. */
static void prepare_add(program *p) {
  prepare_device(p, 11);
  assert_int_equal(clEnqueueMarkerWithWaitList(p->env.queue, 0, NULL, &p->gate), CL_SUCCESS);
  p->launch.num_wait_events = 1;
  p->launch.wait_events = &p->gate;
  p->launch.first_event = &p->first_event;
}

static ocf_status call_add(program *p) {
  return ocf_add(p->ctx, ADD_N, p->in_a, 0, p->in_b, 0, p->out, 0, &p->launch);
}

static const char *check_add(program *p) {
  for (size_t i = 0; i < ADD_N; i++)
    if (p->got[i] != p->a[i] + p->b[i]) return "add: a wrong sum";
  return outside_untouched(p->got, p->before, 0, ADD_N, BIG) ? NULL : "add wrote past n";
}

static const char *judge_add(program *p, ocf_status status) {
  return judge_device(p, status, check_add);
}

static void prepare_add_host(program *p) {
  fill_inputs(p, 12);
  memcpy(p->got, p->before, sizeof p->got);
}

static ocf_status call_add_host(program *p) {
  return ocf_add_host(p->ctx, ADD_HOST_N, p->a, p->b, p->got);
}

static const char *judge_add_host(program *p, ocf_status status) {
  if (status != OCF_SUCCESS) return judge_untouched(p, p->got, p->before, BIG);
  for (size_t i = 0; i < ADD_HOST_N; i++)
    if (p->got[i] != p->a[i] + p->b[i]) return "add_host: a wrong sum";
  return outside_untouched(p->got, p->before, 0, ADD_HOST_N, BIG) ? NULL : "add_host wrote past n";
}

/* softmax of rows x cols of `a` (dense) in out, on the plan `kernel` names. */
static const char *check_softmax_dense(program *p, size_t rows, size_t cols, size_t workgroup,
                                       const char *kernel) {
  double want[BIG];
  ocf_ref_softmax(rows, cols, p->a, cols, want);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(rows, cols, p->a, cols, want, p->got, cols, workgroup, &p->env.info, &check);
  if (!ocft_check_passed(&check)) return "softmax: outside its tolerance";
  if (!outside_untouched(p->got, p->before, 0, rows * cols, BIG)) return "softmax wrote past out";
  /* The plan is the one this step is about (the last plan is that of the successful call). */
  if (kernel && !strstr(ocf_last_plan(), kernel)) return "softmax ran another plan than intended";
  return NULL;
}

static void prepare_softmax(program *p) {
  prepare_device(p, 13);
}

static ocf_status call_softmax(program *p) {
  return ocf_softmax(p->ctx, SM_ROWS, SM_COLS, p->in_a, 0, SM_COLS, p->out, 0, SM_COLS, &p->launch);
}

static const char *check_softmax(program *p) {
  return check_softmax_dense(p, SM_ROWS, SM_COLS, 0, NULL);
}

static const char *judge_softmax(program *p, ocf_status status) {
  return judge_device(p, status, check_softmax);
}

/* The unfused baseline: three kernels, event and first_event. */
static void prepare_softmax_baseline(program *p) {
  prepare_device(p, 14);
  p->launch.variant = OCF_VARIANT_BASELINE;
  p->launch.first_event = &p->first_event;
}

static ocf_status call_softmax_baseline(program *p) {
  return ocf_softmax(p->ctx, BASE_ROWS, BASE_COLS, p->in_a, 0, BASE_COLS, p->out, 0, BASE_COLS,
                     &p->launch);
}

static const char *check_softmax_baseline(program *p) {
  return check_softmax_dense(p, BASE_ROWS, BASE_COLS, 0, "softmax_base_divide");
}

static const char *judge_softmax_baseline(program *p, ocf_status status) {
  return judge_device(p, status, check_softmax_baseline);
}

/* The split: one row long enough for a workgroup of one work-item to cut it in parts, under
   tuning values that make the split whatever the device's database holds (25 float8 in steps of
   1 x 2: min(compute units x 2, 25 / 8) = 3 parts on 2 cores; set_tuning makes no OpenCL call). */
static void prepare_softmax_split(program *p) {
  prepare_device(p, 15);
  assert_int_equal(
      ocf_context_set_tuning(p->ctx, "softmax", OCF_F32, NULL,
                             "vw=8 items=4 rows.items=0 unroll=2 coop_spin=0 groups_per_unit=2"),
      OCF_SUCCESS);
  p->launch.workgroup_size = 1;
  p->launch.first_event = &p->first_event;
}

static ocf_status call_softmax_split(program *p) {
  return ocf_softmax(p->ctx, 1, SPLIT_COLS, p->in_a, 0, SPLIT_COLS, p->out, 0, SPLIT_COLS,
                     &p->launch);
}

static const char *check_softmax_split(program *p) {
  return check_softmax_dense(p, 1, SPLIT_COLS, 1, "softmax_split_write");
}

static const char *judge_softmax_split(program *p, ocf_status status) {
  return judge_device(p, status, check_softmax_split);
}

static const char *check_softmax_split_or_coop(program *p) {
  return check_softmax_dense(p, 1, SPLIT_COLS, 1, NULL);
}

/* The split again, its scratch in the caller's workspace at an offset (a sub-buffer). */
static void prepare_softmax_workspace(program *p) {
  prepare_softmax_split(p);
  p->launch.workspace = p->workspace;
  p->launch.workspace_offset = WORKSPACE_OFFSET;
  p->launch.workspace_size = WORKSPACE_BYTES - WORKSPACE_OFFSET;
}

static void prepare_softmax_host(program *p) {
  fill_inputs(p, 16);
  memcpy(p->got, p->before, sizeof p->got);
}

static ocf_status call_softmax_host(program *p) {
  return ocf_softmax_host(p->ctx, SMH_ROWS, SMH_COLS, p->a, SMH_IN_LD, p->got, SMH_OUT_LD);
}

static const char *judge_softmax_host(program *p, ocf_status status) {
  if (status != OCF_SUCCESS) return judge_untouched(p, p->got, p->before, BIG);
  double want[SMH_ROWS * SMH_COLS];
  ocf_ref_softmax(SMH_ROWS, SMH_COLS, p->a, SMH_IN_LD, want);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_softmax(SMH_ROWS, SMH_COLS, p->a, SMH_IN_LD, want, p->got, SMH_OUT_LD, 0, &p->env.info,
                     &check);
  if (!ocft_check_passed(&check)) return "softmax_host: outside its tolerance";
  for (size_t r = 0; r + 1 < SMH_ROWS; r++)
    if (memcmp(p->got + r * SMH_OUT_LD + SMH_COLS, p->before + r * SMH_OUT_LD + SMH_COLS,
               (SMH_OUT_LD - SMH_COLS) * sizeof(float)) != 0)
      return "softmax_host changed the gaps between rows";
  return NULL;
}

/* The same call through ocf_softmax_host_ex (default options): its own buffers, event and
   read-back. */
static ocf_status call_softmax_host_ex(program *p) {
  return ocf_softmax_host_ex(p->ctx, SMH_ROWS, SMH_COLS, p->a, SMH_IN_LD, p->got, SMH_OUT_LD, NULL,
                             NULL);
}

/* matmul, device form, on the aligned fast path. */
static void prepare_matmul(program *p) {
  prepare_device(p, 17);
}

static ocf_status call_matmul(program *p) {
  return ocf_matmul(p->ctx, OCF_NO_TRANS, OCF_TRANS, MM, MM, MM, 1.5f, p->in_a, 0, MM, p->in_b, 0,
                    MM, 0.5f, p->out, 0, MM, &p->launch);
}

/* Compares C (row stride ldc) with the reference of alpha A op(B) + beta C0. */
static const char *check_matmul_c(int trans_b, size_t m, size_t n, size_t k, float alpha,
                                  const float *a, const float *b, float beta, const float *c0,
                                  const float *got, size_t ldc) {
  double want[BIG], tol[BIG];
  float dense[BIG];
  ocf_ref_matmul(0, trans_b, m, n, k, alpha, a, k, b, trans_b ? k : n, beta, c0, ldc, want);
  ocft_matmul_tolerance(0, trans_b, m, n, k, alpha, a, k, b, trans_b ? k : n, beta, c0, ldc, tol);
  for (size_t i = 0; i < m; i++)
    memcpy(dense + i * n, got + i * ldc, n * sizeof(float));
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(dense, want, tol, m * n, &check);
  return ocft_check_passed(&check) ? NULL : "matmul: outside its tolerance";
}

static const char *check_matmul(program *p) {
  return check_matmul_c(1, MM, MM, MM, 1.5f, p->a, p->b, 0.5f, p->before, p->got, MM);
}

static const char *judge_matmul(program *p, ocf_status status) {
  return judge_device(p, status, check_matmul);
}

static void prepare_matmul_host(program *p) {
  fill_inputs(p, 18);
  memcpy(p->got, p->before, sizeof p->got);
}

static ocf_status call_matmul_host(program *p) {
  return ocf_matmul_host(p->ctx, OCF_NO_TRANS, OCF_NO_TRANS, MMH_M, MMH_N, MMH_K, 2.0f, p->a, MMH_K,
                         p->b, MMH_N, 0.5f, p->got, MMH_LDC);
}

static const char *judge_matmul_host(program *p, ocf_status status) {
  if (status != OCF_SUCCESS) return judge_untouched(p, p->got, p->before, BIG);
  const char *problem =
      check_matmul_c(0, MMH_M, MMH_N, MMH_K, 2.0f, p->a, p->b, 0.5f, p->before, p->got, MMH_LDC);
  for (size_t i = 0; !problem && i + 1 < MMH_M; i++)
    if (memcmp(p->got + i * MMH_LDC + MMH_N, p->before + i * MMH_LDC + MMH_N,
               (MMH_LDC - MMH_N) * sizeof(float)) != 0)
      problem = "matmul_host changed the gaps between rows of C";
  return problem;
}

/* The same call through ocf_matmul_host_ex (default options, no bias). */
static ocf_status call_matmul_host_ex(program *p) {
  return ocf_matmul_host_ex(p->ctx, OCF_NO_TRANS, OCF_NO_TRANS, MMH_M, MMH_N, MMH_K, 2.0f, p->a,
                            MMH_K, p->b, MMH_N, 0.5f, p->got, MMH_LDC, NULL, NULL);
}

/* A context over the library context's own OpenCL objects (retained), an add on it, and its
   release: the retains of ocf_context_wrap and the release of a wrapped context. */
static void prepare_wrap(program *p) {
  prepare_device(p, 19);
  p->launch.event = NULL;
}

static ocf_status call_wrap(program *p) {
  ocf_context *wrapped = NULL;
  ocf_status status = ocf_context_wrap(p->env.cl, p->env.device, p->env.queue, &wrapped);
  if (status != OCF_SUCCESS) return status;
  status = ocf_add(wrapped, ADD_N, p->in_a, 0, p->in_b, 0, p->out, 0, NULL);
  ocf_context_release(wrapped);
  return status;
}

static const char *judge_wrap(program *p, ocf_status status) {
  return judge_device(p, status, check_add);
}

/* The release: it cannot fail (a failed clFinish or binary query only skips the disk cache). */
static ocf_status call_release(program *p) {
  ocf_context_release(p->ctx);
  p->ctx = NULL;
  return OCF_SUCCESS;
}

static const char *judge_release(program *p, ocf_status status) {
  (void)status;
  clReleaseMemObject(p->in_a);
  clReleaseMemObject(p->in_b);
  clReleaseMemObject(p->out);
  clReleaseMemObject(p->workspace);
  p->in_a = p->in_b = p->out = p->workspace = NULL;
  return NULL;
}

/* ---- any op of the table without steps of its own: its plain call on its first small shape ----
 */

static void prepare_plain(program *p) {
  ocft_call_free(&p->call);
  assert_int_equal(ocft_call_make(&p->call, p->op, p->op->small.d[0], 23), 0);
  p->event = p->first_event = NULL;
  ocf_launch_init(&p->launch);
  p->launch.event = &p->event;
  p->launch.first_event = &p->first_event;
}

static void prepare_plain_device(program *p) {
  prepare_plain(p);
  assert_int_equal(ocft_call_buffers(&p->call, p->env.cl), CL_SUCCESS);
}

/* The op's unfused baseline (OCF_VARIANT_BASELINE): other ops' calls chained by events (its
   memory from the context's pool, borrowed for the chain), or kernels of cl/baselines/. */
static void prepare_plain_baseline(program *p) {
  prepare_plain_device(p);
  p->launch.variant = OCF_VARIANT_BASELINE;
}

static ocf_status call_plain_device(program *p) {
  return ocft_call_device(&p->call, p->ctx, &p->launch);
}

static ocf_status call_plain_host(program *p) {
  return ocft_call_host(&p->call, p->ctx);
}

/* Success: a right output; failure: got still all NaN (as made), no event set. */
static const char *judge_plain(program *p, ocf_status status, int device) {
  const char *problem = NULL;
  if (device) {
    assert_int_equal(clFinish(p->env.queue), CL_SUCCESS);
    assert_int_equal(ocft_call_read(&p->call, p->env.queue, NULL), CL_SUCCESS);
  }
  if (status == OCF_SUCCESS || (device && status == OCF_ERR_ENQUEUED_WITHOUT_EVENT)) {
    if (status == OCF_ERR_ENQUEUED_WITHOUT_EVENT && (p->event || p->first_event))
      problem = "OCF_ERR_ENQUEUED_WITHOUT_EVENT with an event set";
    else if (device && status == OCF_SUCCESS && (!p->event || !p->first_event))
      problem = "no event on success";
    ocft_check check;
    ocft_call_check(&p->call, &p->env.info, &check);
    if (!problem && !ocft_check_passed(&check)) problem = "a wrong output";
  } else {
    if (device && (p->event || p->first_event)) problem = "a failed call set an event";
    for (size_t i = 0; !problem && i < p->call.extent.out; i++)
      if (!isnan(p->call.got[i])) problem = "a failed call changed its output";
  }
  release_events(p);
  ocft_call_free(&p->call);
  return problem;
}

static const char *judge_plain_device(program *p, ocf_status status) {
  return judge_plain(p, status, 1);
}

static const char *judge_plain_host(program *p, ocf_status status) {
  return judge_plain(p, status, 0);
}

/* The suite's own steps, in order; the table's plain calls of any other op go in before
   "context_wrap+add" (build_steps). */
static const step own_steps[] = {
    {"context_create", 1, prepare_nothing, call_create, judge_create, NULL},
    {"warmup(add)", 1, prepare_nothing, call_warmup, judge_warmup, NULL},
    {"add+events", 1, prepare_add, call_add, judge_add, NULL},
    {"add_host", 0, prepare_add_host, call_add_host, judge_add_host, NULL},
    {"softmax", 0, prepare_softmax, call_softmax, judge_softmax, NULL},
    {"softmax_baseline", 0, prepare_softmax_baseline, call_softmax_baseline, judge_softmax_baseline,
     NULL},
    {"softmax_split", 1, prepare_softmax_split, call_softmax_split, judge_softmax_split, NULL},
    {"softmax_workspace", 0, prepare_softmax_workspace, call_softmax_split, judge_softmax_split,
     NULL},
    {"softmax_host", 0, prepare_softmax_host, call_softmax_host, judge_softmax_host, NULL},
    {"softmax_host_ex", 0, prepare_softmax_host, call_softmax_host_ex, judge_softmax_host, NULL},
    {"matmul", 1, prepare_matmul, call_matmul, judge_matmul, NULL},
    {"matmul_host", 0, prepare_matmul_host, call_matmul_host, judge_matmul_host, NULL},
    {"matmul_host_ex", 0, prepare_matmul_host, call_matmul_host_ex, judge_matmul_host, NULL},
    {"context_wrap+add", 0, prepare_wrap, call_wrap, judge_wrap, NULL},
    {"context_release", 1, prepare_nothing, call_release, judge_release, NULL},
};
/* The ops the steps above call. */
static const char *const own_ops[] = {"add", "softmax", "matmul"};

enum { MAX_STEPS = 64 };
static step steps[MAX_STEPS];
static int step_count;

/* The program: own_steps, with two steps (device form, in the cold program too, and host form)
   for each op of the table that own_ops leaves out, and a third for its unfused baseline where
   its device form has one. */
static void build_steps(void) {
  static char names[MAX_STEPS][48];
  if (step_count) return;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(own_steps); i++) {
    if (!strcmp(own_steps[i].name, "context_wrap+add")) {
      for (size_t o = 0; o < ocft_op_count(); o++) {
        const ocft_op_case *op = ocft_op_at(o);
        int own = 0;
        for (size_t k = 0; k < OCF_ARRAY_LEN_T(own_ops); k++)
          own |= !strcmp(own_ops[k], op->name);
        if (own) continue;
        assert_true(step_count + 2 < MAX_STEPS);
        snprintf(names[step_count], sizeof names[0], "%s(plain)", op->name);
        steps[step_count] = (step){names[step_count],  1, prepare_plain_device, call_plain_device,
                                   judge_plain_device, op};
        step_count++;
        snprintf(names[step_count], sizeof names[0], "%s_host(plain)", op->name);
        steps[step_count] =
            (step){names[step_count], 0, prepare_plain, call_plain_host, judge_plain_host, op};
        step_count++;
        if (!op->baseline) continue;
        assert_true(step_count + 1 < MAX_STEPS);
        snprintf(names[step_count], sizeof names[0], "%s_baseline(plain)", op->name);
        steps[step_count] = (step){names[step_count],  0, prepare_plain_baseline, call_plain_device,
                                   judge_plain_device, op};
        step_count++;
      }
    }
    assert_true(step_count < MAX_STEPS);
    steps[step_count++] = own_steps[i];
  }
}

static const step *find_step(const char *name) {
  build_steps();
  for (int i = 0; i < step_count; i++)
    if (strcmp(steps[i].name, name) == 0) return &steps[i];
  fail_msg("no step %s", name);
  return NULL;
}

/* ---- one run of the program ---- */

/* What happened to the one injected failure of a run. */
typedef struct outcome {
  const char *failed; /* the OpenCL function failed, NULL: none (N past the program's calls) */
  int step;           /* the step it failed in */
  ocf_status status;  /* that step's status */
  char problem[320];  /* "" when everything was right */
  char leaked[128];   /* objects left after the release */
} outcome;

static ocf_status step_once(program *p, const step *s) {
  ocft_faults_open();
  ocf_status status = s->call(p);
  ocft_faults_close();
  return status;
}

/* The calls of a run with no fault, in order: each one's function and step (call i at i - 1). */
enum { MAX_CALLS = 1 << 14 };
typedef struct call_list {
  unsigned long count;
  const char *name[MAX_CALLS];
  const void *site[MAX_CALLS]; /* the library's call site (tests/cl_faults.h) */
  int step[MAX_CALLS];
} call_list;
static call_list last_calls; /* the last run with no fault */

/* Runs the program (the cold runs' shorter one when `cold`) with numbered call `fail_at` (0:
   none) failing with `code`. */
static void run_program(unsigned long fail_at, cl_int code, int cold, outcome *out) {
  static program p; /* large: not on the stack */
  memset(&p, 0, sizeof p);
  memset(out, 0, sizeof *out);
  out->step = -1;
  if (!fail_at) last_calls.count = 0;
  ocft_faults_reset();
  ocft_faults_arm(fail_at, code);
  build_steps();
  for (int i = 0; i < step_count && !out->problem[0]; i++) {
    const step *s = &steps[i];
    if (cold && !s->cold) continue;
    p.op = s->op;
    s->prepare(&p);
    const int failed_before = ocft_faults_failed() != NULL;
    const unsigned long calls_before = ocft_faults_count();
    ocf_status status = step_once(&p, s);
    if (!fail_at)
      for (unsigned long k = calls_before + 1; k <= ocft_faults_count() && k <= MAX_CALLS; k++) {
        last_calls.name[k - 1] = ocft_faults_call_name(k);
        last_calls.site[k - 1] = ocft_faults_call_site(k);
        last_calls.step[k - 1] = i;
        last_calls.count = k;
      }
    const char *failed = failed_before ? NULL : ocft_faults_failed();
    /* The error text, read before the judge makes calls of its own. */
    char error[sizeof out->problem / 2];
    snprintf(error, sizeof error, "%s", ocf_last_error());
    const char *problem = s->judge(&p, status);
    if (failed) {
      out->failed = failed;
      out->step = i;
      out->status = status;
    }
    if (!problem && status != OCF_SUCCESS) {
      if (!failed)
        problem = "a step failed with no injected fault";
      else if (status != code && status != OCF_ERR_ENQUEUED_WITHOUT_EVENT)
        problem = "the status is not the injected OpenCL error";
      else if (!strstr(error, failed))
        problem = "ocf_last_error() does not name the failed call";
    }
    if (!problem && status != OCF_SUCCESS) {
      /* The next call, with nothing failing, succeeds. */
      s->prepare(&p);
      ocf_status again = step_once(&p, s);
      problem = s->judge(&p, again);
      if (!problem && again != OCF_SUCCESS) problem = "the next call failed too";
    }
    if (problem)
      snprintf(out->problem, sizeof out->problem, "step %s: %s (status %s; last error: %s)",
               s->name, problem, ocf_status_name(status), error);
  }
  /* A problem stops the program early: release what it holds, then count. */
  if (p.ctx) call_release(&p);
  if (p.in_a) judge_release(&p, OCF_SUCCESS);
  release_events(&p);
  ocft_call_free(&p.call);
  if (ocft_faults_live(out->leaked, sizeof out->leaked, 2000) != 0) ocft_faults_forget();
}

/* ---- the disk cache folder: empty ("cold") or holding a good run's binaries ("warm") ---- */

static char cache_dir[200], golden_dir[256];

static void shell(const char *command) {
  assert_int_equal(system(command), 0);
}

static void cache_setup(void) {
  snprintf(cache_dir, sizeof cache_dir, "/tmp/oclfuse-faults-%ld", (long)getpid());
  snprintf(golden_dir, sizeof golden_dir, "%s-golden", cache_dir);
  char command[1024];
  snprintf(command, sizeof command, "rm -rf '%s' '%s' && mkdir -p '%s'", cache_dir, golden_dir,
           cache_dir);
  shell(command);
  setenv("OCLFUSE_TUNING_DIR", cache_dir, 1);
}

static void cache_cold(void) {
  char command[1024];
  snprintf(command, sizeof command, "rm -rf '%s/programs'", cache_dir);
  shell(command);
}

static void cache_warm(void) {
  char command[1024];
  snprintf(command, sizeof command, "rm -rf '%s/programs' && cp -r '%s' '%s/programs'", cache_dir,
           golden_dir, cache_dir);
  shell(command);
}

/* Keeps the programs a cold run stored as the warm runs' starting point. */
static void cache_keep_golden(void) {
  char command[1024];
  snprintf(command, sizeof command, "rm -rf '%s' && cp -r '%s/programs' '%s'", golden_dir,
           cache_dir, golden_dir);
  shell(command);
}

static void cache_teardown(void) {
  char command[1024];
  snprintf(command, sizeof command, "rm -rf '%s' '%s'", cache_dir, golden_dir);
  shell(command);
  unsetenv("OCLFUSE_TUNING_DIR");
}

/* ---- the sweep and its table ---- */

/* One row of the summary: an injection point (step, function) and what its runs gave. */
typedef struct summary_row {
  int step;
  const char *function;
  unsigned points, failed, absorbed;
  ocf_status status; /* the status of its failed runs (the last one seen) */
} summary_row;

enum { MAX_ROWS = 256 };
static summary_row summary[MAX_ROWS];
static unsigned summary_count;

static void summarize(const outcome *o) {
  if (!o->failed) return;
  summary_row *row = NULL;
  for (unsigned i = 0; i < summary_count && !row; i++)
    if (summary[i].step == o->step && strcmp(summary[i].function, o->failed) == 0)
      row = &summary[i];
  if (!row && summary_count < MAX_ROWS) {
    row = &summary[summary_count++];
    memset(row, 0, sizeof *row);
    row->step = o->step;
    row->function = o->failed;
  }
  if (!row) return;
  row->points++;
  if (o->status == OCF_SUCCESS) {
    row->absorbed++;
  } else {
    row->failed++;
    row->status = o->status;
  }
}

static void print_summary(const char *title) {
  printf("\n%s\n%-18s %-28s %6s %6s %8s  %s\n", title, "step", "failed call", "points", "error",
         "absorbed", "status of the errors");
  for (int s = 0; s < step_count; s++)
    for (unsigned i = 0; i < summary_count; i++)
      if (summary[i].step == s)
        printf("%-18s %-28s %6u %6u %8u  %s\n", steps[s].name, summary[i].function,
               summary[i].points, summary[i].failed, summary[i].absorbed,
               summary[i].failed ? ocf_status_name(summary[i].status) : "-");
  summary_count = 0;
}

static FILE *csv;

/* Whether call n (1-based) of `calls` lies inside a run of consecutive calls from one call site
   of the library in one step, neither its first nor its last: a loop around that one call with
   no other OpenCL call in it (a kernel's arguments set or queried one by one, a table of device
   queries), whose every pass takes the same path on an error (the same line, the same cleanup,
   only the index in the message differs), so that the run's first and last calls stand for the
   passes between them. */
static int inside_run(const call_list *calls, unsigned long n) {
  if (n <= 1 || n >= calls->count) return 0;
  const unsigned long i = n - 1;
  return calls->site[i] && calls->site[i - 1] == calls->site[i] &&
         calls->site[i + 1] == calls->site[i] && calls->step[i - 1] == calls->step[i] &&
         calls->step[i + 1] == calls->step[i];
}

/* Whether call n (1-based) of `calls` is also a call of `other` (the same call site, its same
   pass in the same step): the warm runs' calls that the cold runs make too (every call of a step
   but its program's load from the disk cache), whose failure takes the same path whichever way
   the program came (built from source or loaded). */
static int also_in(const call_list *calls, unsigned long n, const call_list *other) {
  const unsigned long i = n - 1;
  unsigned pass = 0, passes = 0;
  for (unsigned long k = 0; k <= i; k++)
    pass += calls->step[k] == calls->step[i] && calls->site[k] == calls->site[i];
  for (unsigned long k = 0; k < other->count && passes < pass; k++)
    passes += other->step[k] == calls->step[i] && other->site[k] == calls->site[i];
  return calls->site[i] && passes == pass;
}

/* The numbered calls of the program (listed in `calls` by its run with no fault) failed in turn
   with `code`, the cache as `warm` says: each call but those inside a run from one call site
   (inside_run) and, for a warm sweep, those the cold sweeps fail too (also_in `cold`); with
   OCFT_FAULTS_EVERY=1 every call. OCFT_FAULTS_STRIDE=k (k > 1) then only tries the 1st,
   (1 + k)th, (1 + 2k)th, ... of those points. */
static void sweep(cl_int code, int warm, const call_list *calls, const call_list *cold) {
  unsigned problems = 0, leaks = 0;
  const char *stride_text = getenv("OCFT_FAULTS_STRIDE");
  const unsigned long stride =
      stride_text && atol(stride_text) > 1 ? (unsigned long)atol(stride_text) : 1;
  const char *every_text = getenv("OCFT_FAULTS_EVERY");
  const int every = every_text && atoi(every_text) != 0;
  unsigned long tried = 0, points = 0;
  for (unsigned long n = 1; n <= calls->count; n++) {
    if (!every && (inside_run(calls, n) || (warm && also_in(calls, n, cold)))) continue;
    if (points++ % stride != 0) continue;
    tried++;
    if (warm)
      cache_warm();
    else
      cache_cold();
    outcome o;
    run_program(n, code, !warm, &o);
    summarize(&o);
    if (csv)
      fprintf(csv, "%s,%s,%lu,%s,%s,%s,%s,\"%s\"\n", ocf_status_name((ocf_status)code),
              warm ? "warm" : "cold", n, o.failed ? o.failed : "-",
              o.step >= 0 ? steps[o.step].name : "-", ocf_status_name(o.status),
              o.leaked[0] ? o.leaked : "none", o.problem);
    if (o.problem[0]) {
      problems++;
      print_error("N=%lu (%s in %s): %s\n", n, o.failed ? o.failed : "-",
                  o.step >= 0 ? steps[o.step].name : "-", o.problem);
    }
    if (o.leaked[0]) {
      leaks++;
      print_error("N=%lu (%s in %s): left unreleased: %s\n", n, o.failed ? o.failed : "-",
                  o.step >= 0 ? steps[o.step].name : "-", o.leaked);
    }
  }
  char title[160];
  snprintf(title, sizeof title,
           "%s, %s disk cache: %lu of %lu injection points, %u problems, %u leaks",
           ocf_status_name((ocf_status)code), warm ? "warm" : "cold", tried, calls->count, problems,
           leaks);
  print_summary(title);
  fflush(stdout);
  if (problems || leaks) fail_msg("%s", title);
}

/* A run with no fault: it must succeed, and it numbers the calls, which it lists in `calls`. */
static void reference_run(const char *what, int warm, int cold_program, call_list *calls) {
  if (warm)
    cache_warm();
  else
    cache_cold();
  outcome o;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  run_program(0, CL_SUCCESS, cold_program, &o);
  clock_gettime(CLOCK_MONOTONIC, &end);
  if (o.problem[0] || o.leaked[0])
    fail_msg("the program fails with no fault: %s %s", o.problem, o.leaked);
  if (ocft_faults_count() > MAX_CALLS)
    fail_msg("%s: %lu OpenCL calls, more than the %d listed", what, ocft_faults_count(),
             (int)MAX_CALLS);
  unsigned long inside = 0;
  for (unsigned long n = 1; n <= last_calls.count; n++)
    inside += (unsigned long)inside_run(&last_calls, n);
  printf("%s: %lu OpenCL calls in %.0f ms (%lu inside runs from one call site)\n", what,
         ocft_faults_count(),
         (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6,
         inside);
  if (calls) *calls = last_calls;
}

static int group_setup(void **state) {
  /* The sweep makes its own contexts; the group's is only there to skip without a device. */
  cache_setup();
  /* One file per sweep when the sweeps run as separate tests. */
  char name[96] = "test_faults.csv";
  const char *only = getenv("OCFT_FAULTS_SWEEP");
  if (only) snprintf(name, sizeof name, "test_faults-%.60s.csv", only);
  for (char *c = name; *c; c++)
    if (*c == ' ') *c = '-';
  csv = fopen(name, "w");
  if (csv) fprintf(csv, "code,cache,n,failed_call,step,status,left_unreleased,problem\n");
  return ocft_group_setup(state);
}

static int group_teardown(void **state) {
  if (csv) fclose(csv);
  cache_teardown();
  return ocft_group_teardown(state);
}

static void test_faults_every_call(void **state) {
  ocft_get_env(state);
  /* A cold run fills the cache; its binaries are the warm runs' starting point. */
  /* The whole program from an empty cache stores every binary the warm runs start from. */
  static call_list warm_calls, cold_calls; /* large: not on the stack */
  reference_run("whole program, cold disk cache", 0, 0, NULL);
  cache_keep_golden();
  reference_run("whole program, warm disk cache", 1, 0, &warm_calls);
  reference_run("cold runs' program, cold disk cache", 0, 1, &cold_calls);
  /* OCFT_FAULTS_SWEEP="<error> <cold|warm>" runs one of the four sweeps (ctest runs them as
     four tests, in parallel); unset, all four. */
  const char *only = getenv("OCFT_FAULTS_SWEEP");
  static const cl_int codes[] = {CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY};
  for (size_t c = 0; c < OCF_ARRAY_LEN_T(codes); c++)
    for (int warm = 0; warm < 2; warm++) {
      char name[64];
      snprintf(name, sizeof name, "%s %s", ocf_status_name((ocf_status)codes[c]),
               warm ? "warm" : "cold");
      if (!only || strcmp(only, name) == 0)
        sweep(codes[c], warm, warm ? &warm_calls : &cold_calls, &cold_calls);
    }
}

/* Each enqueue of each multi-kernel plan fails in turn: the error names the kernel and step,
   the output is untouched once the kernels queued before it have finished, no event is set,
   their scratch is released, and the same call then succeeds. */
static void test_faults_multi_kernel_enqueues(void **state) {
  ocft_get_env(state);
  const struct {
    const step *s;
    unsigned kernels;
  } plans[] = {{find_step("softmax_baseline"), 3},
               {find_step("softmax_split"), 2},
               {find_step("softmax_workspace"), 2},
               {find_step("softmax"), 1}};
  cache_cold();
  static program p;
  memset(&p, 0, sizeof p);
  ocft_faults_reset();
  const step *create = find_step("context_create");
  assert_null(create->judge(&p, step_once(&p, create)));
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(plans); i++)
    for (unsigned k = 1; k <= plans[i].kernels; k++) {
      ocft_faults_reset();
      ocft_faults_arm_named("clEnqueueNDRangeKernel", k, CL_OUT_OF_RESOURCES);
      plans[i].s->prepare(&p);
      ocf_status status = step_once(&p, plans[i].s);
      char error[512];
      snprintf(error, sizeof error, "%s", ocf_last_error());
      const char *problem = plans[i].s->judge(&p, status);
      if (problem) fail_msg("%s, enqueue %u failed: %s", plans[i].s->name, k, problem);
      ocft_assert_status(status, (ocf_status)CL_OUT_OF_RESOURCES);
      char expected[64];
      snprintf(expected, sizeof expected, "step %u of %u", k, plans[i].kernels);
      if (!strstr(error, "clEnqueueNDRangeKernel") || !strstr(error, expected))
        fail_msg("%s: the error does not name the enqueue (%s): %s", plans[i].s->name, expected,
                 error);
      printf("%-18s enqueue %u of %u failed: %s, output untouched, no event\n", plans[i].s->name, k,
             plans[i].kernels, ocf_status_name(status));
      plans[i].s->prepare(&p);
      assert_null(plans[i].s->judge(&p, step_once(&p, plans[i].s)));
    }
  call_release(&p);
  judge_release(&p, OCF_SUCCESS);
  char left[128];
  if (ocft_faults_live(left, sizeof left, 2000) != 0) {
    ocft_faults_forget();
    fail_msg("left unreleased: %s", left);
  }
}

/* A split-K matmul through the host form (the fill of the sums, the split kernel, the reduce):
   only the out-of-order test runs it, under tuning that splits K = 128 into four. */
enum { MMS_M = 8, MMS_N = 8, MMS_K = 128 }; /* A and B of BIG floats each */

static void prepare_matmul_host_split(program *p) {
  fill_inputs(p, 20);
  memcpy(p->got, p->before, sizeof p->got);
  assert_int_equal(ocf_context_set_tuning(
                       p->ctx, "matmul", OCF_F32, NULL,
                       "skinny_max=0 min_eff=1 fill=64 split_k_min=32 split_max=4 split_fill=64"),
                   OCF_SUCCESS);
}

static ocf_status call_matmul_host_split(program *p) {
  return ocf_matmul_host(p->ctx, OCF_NO_TRANS, OCF_NO_TRANS, MMS_M, MMS_N, MMS_K, 1.0f, p->a, MMS_K,
                         p->b, MMS_N, 0.5f, p->got, MMS_N);
}

static const char *judge_matmul_host_split(program *p, ocf_status status) {
  if (status != OCF_SUCCESS) return judge_untouched(p, p->got, p->before, BIG);
  if (!strstr(ocf_last_plan(), "matmul_reduce")) return "matmul_host ran no split-K plan";
  return check_matmul_c(0, MMS_M, MMS_N, MMS_K, 1.0f, p->a, p->b, 0.5f, p->before, p->got, MMS_N);
}

/* softmax_coop (SPLIT_COLS in slices of cooperating workgroups): the one plan whose scratch is
   zeroed before its kernel (its slots start at zero), here the caller's workspace, which is never
   created zeroed: the call's first command is a fill. Where the device takes another plan (the
   spin cut to nothing) it is the split's check that runs. */
static void prepare_softmax_coop(program *p) {
  prepare_device(p, 17);
  assert_int_equal(
      ocf_context_set_tuning(p->ctx, "softmax", OCF_F32, NULL,
                             "vw=8 items=4 rows.items=0 unroll=2 coop_spin=64 groups_per_unit=2"),
      OCF_SUCCESS);
  p->launch.workgroup_size = 1;
  p->launch.first_event = &p->first_event;
  p->launch.workspace = p->workspace;
  p->launch.workspace_size = WORKSPACE_BYTES;
}

static const char *judge_softmax_coop(program *p, ocf_status status) {
  return judge_device(p, status, check_softmax_split_or_coop);
}

/* Every op in both forms and every multi-kernel plan on an out-of-order queue (a wrapped
   context): each command the call enqueues waits for the one before it (or that one was a
   blocking transfer), the first for the caller's wait list, and the results are right. The
   wrappers record each command's event and wait list (tests/cl_faults.h), so this holds however
   the runtime happens to schedule them: before the host forms' read-back waited for the
   kernels' event, "add_host" failed here on every run. */
static void test_faults_out_of_order_queue(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_int err = CL_SUCCESS;
  cl_command_queue queue =
      clCreateCommandQueue(env->cl, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err != CL_SUCCESS) {
    printf("the device has no out-of-order queues (%d): skipped\n", (int)err);
    skip();
  }
  static program p;
  memset(&p, 0, sizeof p);
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, queue, &p.ctx), OCF_SUCCESS);
  p.env = *env;
  p.env.ctx = p.ctx;
  p.env.queue = queue;
  p.in_a = ocft_buffer(&p.env, BIG, NULL);
  p.in_b = ocft_buffer(&p.env, BIG, NULL);
  p.out = ocft_buffer(&p.env, BIG, NULL);
  p.workspace = ocft_buffer(&p.env, WORKSPACE_BYTES / sizeof(float), NULL);
  const step split = {"matmul_host_split",       0,
                      prepare_matmul_host_split, call_matmul_host_split,
                      judge_matmul_host_split,   NULL};
  const step coop = {"softmax_coop",     0,   prepare_softmax_coop, call_softmax_split,
                     judge_softmax_coop, NULL};
  const step *const order[] = {find_step("add+events"),
                               find_step("add_host"),
                               find_step("softmax"),
                               find_step("softmax_baseline"),
                               find_step("softmax_split"),
                               find_step("softmax_host"),
                               find_step("matmul"),
                               find_step("matmul_host"),
                               &split,
                               &coop};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(order); i++) {
    const step *s = order[i];
    const int host = strstr(s->name, "_host") != NULL;
    s->prepare(&p);
    ocft_faults_reset();
    ocft_order_start();
    ocf_status status = step_once(&p, s);
    char why[256];
    int ordered = ocft_order_check(host ? 0 : p.launch.num_wait_events,
                                   host ? NULL : p.launch.wait_events, why, sizeof why);
    unsigned commands = ocft_order_count();
    ocft_order_stop();
    ocft_assert_status(status, OCF_SUCCESS);
    if (!ordered) fail_msg("%s on an out-of-order queue: %s", s->name, why);
    const char *problem = s->judge(&p, status);
    if (problem) fail_msg("%s on an out-of-order queue: %s", s->name, problem);
    /* softmax_coop on the pool's buffer (earlier steps made it): the fill, then the kernel */
    if (s == &coop && strstr(ocf_last_plan(), "softmax_coop") && commands != 2)
      fail_msg("softmax_coop: expected the scratch's fill and the kernel, got %u commands: %s",
               commands, ocf_last_plan());
    printf("%-18s %u commands in order: %s\n", s->name, commands, ocf_last_plan());
    release_events(&p);
  }
  /* Split-K sums past OCF_SCRATCH_HOST_ZEROED_MAX (64 KiB), in a buffer not created zeroed: the
     split kernel writes every sum the reduce reads, so nothing zeroes them (scratch_written);
     the split kernel waits for the caller's gate, the reduce for the split. 96 x 96 x 128 in 4
     splits: 144 KiB of sums. */
  enum { FM = 96, FN = 96, FK = 128 };
  static float fa[FM * FK], fb[FK * FN], fc[FM * FN], f0[FM * FN];
  ocft_fill_uniform(fa, FM * FK, -1.0f, 1.0f, 61);
  ocft_fill_uniform(fb, FK * FN, -1.0f, 1.0f, 62);
  ocft_fill_uniform(f0, FM * FN, -1.0f, 1.0f, 63);
  cl_mem ab = ocft_buffer(&p.env, FM * FK, fa), bb = ocft_buffer(&p.env, FK * FN, fb);
  cl_mem cb = ocft_buffer(&p.env, FM * FN, f0);
  cl_event gate = clCreateUserEvent(env->cl, &err), done = NULL;
  assert_int_equal(err, CL_SUCCESS);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.num_wait_events = 1;
  launch.wait_events = &gate;
  launch.event = &done;
  ocft_faults_reset();
  ocft_order_start();
  ocft_faults_open();
  ocf_status status = ocf_matmul(p.ctx, OCF_NO_TRANS, OCF_NO_TRANS, FM, FN, FK, 1.0f, ab, 0, FK, bb,
                                 0, FN, -0.5f, cb, 0, FN, &launch);
  ocft_faults_close();
  char why[256];
  int ordered = ocft_order_check(1, &gate, why, sizeof why);
  unsigned commands = ocft_order_count();
  ocft_order_stop();
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ocft_assert_status(status, OCF_SUCCESS);
  if (!ordered) fail_msg("split-K behind a gate on an out-of-order queue: %s", why);
  if (commands != 2 || !strstr(ocf_last_plan(), "matmul_reduce"))
    fail_msg("expected the split and the reduce (no fill), got %u commands: %s", commands,
             ocf_last_plan());
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  ocft_read(&p.env, cb, FM * FN, fc);
  double want[FM * FN], tol[FM * FN];
  ocf_ref_matmul(0, 0, FM, FN, FK, 1.0f, fa, FK, fb, FN, -0.5f, f0, FN, want);
  ocft_matmul_tolerance(0, 0, FM, FN, FK, 1.0f, fa, FK, fb, FN, -0.5f, f0, FN, tol);
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(fc, want, tol, FM * FN, &check);
  ocft_assert_check("split-K behind a gate on an out-of-order queue", &check);
  printf("%-18s %u commands in order: %s\n", "matmul_split_gate", commands, ocf_last_plan());
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
  ocf_context_release(p.ctx);
  clReleaseMemObject(p.in_a);
  clReleaseMemObject(p.in_b);
  clReleaseMemObject(p.out);
  clReleaseMemObject(p.workspace);
  clReleaseCommandQueue(queue);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_faults_out_of_order_queue),
      cmocka_unit_test(test_faults_multi_kernel_enqueues),
      cmocka_unit_test(test_faults_every_call),
  };
  return cmocka_run_group_tests_name("faults", tests, group_setup, group_teardown);
}
