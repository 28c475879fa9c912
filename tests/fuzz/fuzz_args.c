/*
 * Fuzz target: the argument checks of every public call. The input picks a call and its
 * arguments: sizes, offsets and strides from a mix of small values, edges (0, powers of two and
 * their neighbours, values near SIZE_MAX / 4 and SIZE_MAX) and raw 64-bit words; buffers from the
 * context's own (in, out, a sub-buffer over out's first half), another context's, or NULL; launch
 * settings and option structs with every field fuzzed, the size member included; host arrays,
 * NULL, shifted or overlapping. Properties, on one context made once:
 *   - no crash, no leak, no undefined behaviour (the fuzz build has ASan and UBSan);
 *   - a refused call leaves every buffer and host array as it was, sets no event, and says why;
 *   - a call that succeeds returns its events (released here).
 * It stays fast: device buffers hold BUFFER_FLOATS, so whatever passes the checks runs on a few
 * hundred elements; host arrays are HOST_FLOATS long and a host call is made only when the
 * array holds what the arguments say (or when the sizes overflow, which must be refused first);
 * workgroup sizes come from a short list, so that few programs are ever built.
 *
 * The launch's workspace is fuzzed too (none, a buffer of its own at fuzzed offsets and sizes,
 * an operand's or another context's buffer), and so are the workspace size queries: softmax's
 * and matmul's on their calls' arguments, the norms' and attention's on arguments of their own
 * (fuzz_queries); a query sets no event and, when it succeeds, writes a size.
 * Besides each op's own call with every option (fuzz_add, fuzz_softmax, fuzz_matmul), every op
 * of the harness's table (harness/op_cases.h) is called through the table's plain call with
 * fuzzed shapes, buffers, host arrays and launch settings (a first byte from 243 up): an op added
 * to the table is fuzzed without a line here. Its names are also the tuning and warm-up names
 * the input picks from.
 */
#include "fuzz.h"
#include "oclfuse.h"
#include "op_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUFFER_FLOATS = 256, HOST_FLOATS = 4096, EVENTS = 4, OPS_MAX = 32 };
enum { WORKSPACE_BYTES = 1 << 16 };

/* ---- reading the input ---- */

typedef struct input {
  const uint8_t *data;
  size_t size, at;
} input;

static uint8_t take_byte(input *in) {
  return in->at < in->size ? in->data[in->at++] : 0;
}

static uint64_t take_word(input *in) {
  uint64_t word = 0;
  for (int i = 0; i < 8; i++)
    word = word << 8 | take_byte(in);
  return word;
}

static size_t take_size(input *in) {
  static const size_t edges[] = {0,
                                 1,
                                 2,
                                 3,
                                 4,
                                 7,
                                 8,
                                 9,
                                 15,
                                 16,
                                 17,
                                 63,
                                 64,
                                 65,
                                 127,
                                 128,
                                 129,
                                 255,
                                 256,
                                 257,
                                 (size_t)1 << 31,
                                 ((size_t)1 << 32) - 1,
                                 (size_t)1 << 32,
                                 ((size_t)1 << 32) + 1,
                                 (size_t)1 << 62,
                                 SIZE_MAX / 4,
                                 SIZE_MAX / 4 + 1,
                                 SIZE_MAX / 2,
                                 SIZE_MAX / 2 + 1,
                                 SIZE_MAX - 1,
                                 SIZE_MAX};
  uint8_t kind = take_byte(in);
  switch (kind % 4) {
  case 0:
    return kind / 4; /* 0 .. 63 */
  case 1:
    return edges[take_byte(in) % (sizeof edges / sizeof edges[0])];
  case 2:
    return (size_t)take_byte(in) * 4 + kind / 4 % 4; /* up to about a thousand */
  default:
    return (size_t)take_word(in);
  }
}

static float take_float(input *in) {
  static const float values[] = {1.0f, 0.0f, -0.0f, 0.5f, 2.0f, -1.0f, 1e30f, -1e-30f};
  uint8_t kind = take_byte(in);
  if (kind < 240) return values[kind % (sizeof values / sizeof values[0])];
  if (kind < 244) return NAN;
  if (kind < 248) return INFINITY;
  if (kind < 252) return -INFINITY;
  uint32_t bits = (uint32_t)take_word(in);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* ---- the context and the objects the calls may name, made once ---- */

static ocf_context *ctx;
static cl_context cl;
static cl_command_queue queue, own_queue;
static cl_mem in_buffer, out_buffer, out_sub, lengths_buffer, workspace_buffer;
static cl_context foreign_context;
static cl_mem foreign_buffer;
static cl_command_queue foreign_queue;
static cl_event done_events[EVENTS];
static float host_a[HOST_FLOATS], host_b[HOST_FLOATS], host_c[HOST_FLOATS];
static float pattern[BUFFER_FLOATS];

/* How the calls went, reported at exit: most inputs must be refused before any kernel runs. */
static unsigned long calls_refused, calls_run;

static void at_exit(void) {
  fprintf(stderr, "fuzz_args: %lu calls refused, %lu succeeded\n", calls_refused, calls_run);
}

static void must(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "fuzz_args setup: %s failed (%d)\n", what, (int)err);
    abort();
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  ocf_status status = ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &ctx);
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "fuzz_args: no context: %s\n", ocf_last_error());
    abort();
  }
  cl = ocf_context_cl_context(ctx);
  queue = ocf_context_queue(ctx);
  cl_device_id device = ocf_context_device(ctx);
  cl_int err = CL_SUCCESS;
  own_queue = clCreateCommandQueue(cl, device, 0, &err);
  must(err, "clCreateCommandQueue");
  for (size_t i = 0; i < BUFFER_FLOATS; i++)
    pattern[i] = (float)i * 0.25f - 7.0f;
  in_buffer = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof pattern, NULL, &err);
  must(err, "clCreateBuffer(in)");
  out_buffer = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof pattern, NULL, &err);
  must(err, "clCreateBuffer(out)");
  cl_buffer_region half = {0, sizeof pattern / 2};
  out_sub =
      clCreateSubBuffer(out_buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
  must(err, "clCreateSubBuffer");
  workspace_buffer = clCreateBuffer(cl, CL_MEM_READ_WRITE, WORKSPACE_BYTES, NULL, &err);
  must(err, "clCreateBuffer(workspace)");
  cl_uint lengths[BUFFER_FLOATS];
  for (size_t i = 0; i < BUFFER_FLOATS; i++)
    lengths[i] = (cl_uint)(i % 5);
  lengths_buffer =
      clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof lengths, lengths, &err);
  must(err, "clCreateBuffer(lengths)");
  foreign_context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  must(err, "clCreateContext(foreign)");
  foreign_buffer = clCreateBuffer(foreign_context, CL_MEM_READ_WRITE, sizeof pattern, NULL, &err);
  must(err, "clCreateBuffer(foreign)");
  foreign_queue = clCreateCommandQueue(foreign_context, device, 0, &err);
  must(err, "clCreateCommandQueue(foreign)");
  for (int i = 0; i < EVENTS; i++)
    must(clEnqueueMarkerWithWaitList(queue, 0, NULL, &done_events[i]), "marker");
  must(clFinish(queue), "clFinish");
  atexit(at_exit);
  return 0;
}

static cl_mem take_buffer(input *in) {
  switch (take_byte(in) % 6) {
  case 0:
  case 1:
    return in_buffer;
  case 2:
  case 3:
    return out_buffer;
  case 4:
    return take_byte(in) % 2 ? out_sub : foreign_buffer;
  default:
    return NULL;
  }
}

/* ---- launch settings ---- */

typedef struct launch_space {
  /* Room for a launch struct of a newer header (a larger size member, zeroes past ours). */
  union {
    ocf_launch launch;
    unsigned char bytes[sizeof(ocf_launch) + 32];
  } u;
  cl_event event, first_event;
} launch_space;

static const ocf_launch *take_launch(input *in, launch_space *space) {
  static const size_t workgroups[] = {0, 0, 0, 1, 3, 4, 64, 96, 128, 1024, (size_t)1 << 20};
  uint8_t kind = take_byte(in);
  if (kind % 3 == 0) return NULL;
  memset(space, 0, sizeof *space);
  ocf_launch *l = &space->u.launch;
  ocf_launch_init(l);
  uint8_t size_kind = take_byte(in) % 8;
  l->size = size_kind == 0   ? 0
            : size_kind == 1 ? offsetof(ocf_launch, first_event)
            : size_kind == 2 ? sizeof(ocf_launch) + 32
                             : sizeof(ocf_launch);
  l->workgroup_size = workgroups[take_byte(in) % (sizeof workgroups / sizeof workgroups[0])];
  uint8_t q = take_byte(in) % 4;
  l->queue = q == 0 ? own_queue : q == 1 ? foreign_queue : NULL;
  /* A wait list of real (finished) events, or the inconsistent pairs the checks must refuse. */
  uint8_t wait = take_byte(in) % 6;
  l->num_wait_events = wait < 4 ? wait : wait == 4 ? 2 : 0;
  l->wait_events = wait == 0 ? NULL : wait == 4 ? NULL : done_events;
  uint8_t events = take_byte(in) % 4;
  l->event = events & 1 ? &space->event : NULL;
  l->first_event = events & 2 ? &space->first_event : NULL;
  uint8_t variant = take_byte(in);
  l->variant = variant < 200 ? variant % 3 : (int)(int8_t)variant;
  /* A caller's workspace: mostly none; a buffer of its own, at an aligned or a ragged offset,
     of its whole size or less (too small is refused), or an operand's or another context's
     buffer (refused), or a size or offset without one (refused). */
  uint8_t workspace = take_byte(in) % 8;
  if (workspace >= 3) {
    l->workspace = workspace <= 5 ? workspace_buffer : take_buffer(in);
    l->workspace_offset = take_byte(in) % 2 ? 128 * (size_t)(take_byte(in) % 4) : take_size(in);
    l->workspace_size = take_byte(in) % 2 ? WORKSPACE_BYTES - l->workspace_offset : take_size(in);
  } else if (workspace == 2) {
    l->workspace_offset = take_size(in), l->workspace_size = take_size(in);
  }
  return l;
}

/* After a call: events released on success; on failure none may have been set. */
static void finish_launch(const ocf_launch *launch, launch_space *space, ocf_status status) {
  if (!launch) return;
  if (status != OCF_SUCCESS)
    FUZZ_CHECK(!space->event && !space->first_event, "a refused call (%s) set an event",
               ocf_status_name(status));
  if (space->event) clReleaseEvent(space->event);
  if (space->first_event) clReleaseEvent(space->first_event);
}

/* After a workspace query: it enqueues nothing, so it sets no event; on success it wrote a size
   (one past the device's memory would say the plan is wrong). */
static void finish_query(const ocf_launch *launch, launch_space *space, ocf_status status,
                         size_t bytes) {
  if (launch)
    FUZZ_CHECK(!space->event && !space->first_event, "a workspace query (%s) set an event",
               ocf_status_name(status));
  if (status == OCF_SUCCESS)
    FUZZ_CHECK(bytes != SIZE_MAX, "a workspace query succeeded without writing the size");
}

/* ---- device buffers and host arrays: restored before a call, compared after a refusal ---- */

/* Whether a device call may have changed the buffers since they were last restored. */
static int buffers_dirty = 1;

static void restore_buffers(void) {
  if (!buffers_dirty) return;
  buffers_dirty = 0;
  /* The previous input's kernels (on either queue) finish before the buffers are rewritten. */
  must(clFinish(own_queue), "clFinish");
  must(clFinish(queue), "clFinish");
  must(clEnqueueWriteBuffer(queue, in_buffer, CL_TRUE, 0, sizeof pattern, pattern, 0, NULL, NULL),
       "write in");
  must(clEnqueueWriteBuffer(queue, out_buffer, CL_TRUE, 0, sizeof pattern, pattern, 0, NULL, NULL),
       "write out");
}

static void check_buffers_untouched(ocf_status status) {
  float got[BUFFER_FLOATS];
  /* Kernels already queued by a multi-kernel call (scratch only) finish first. */
  must(clFinish(queue), "clFinish");
  must(clFinish(own_queue), "clFinish");
  cl_mem buffers[2] = {in_buffer, out_buffer};
  for (int b = 0; b < 2; b++) {
    must(clEnqueueReadBuffer(queue, buffers[b], CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
         "read");
    FUZZ_CHECK(memcmp(got, pattern, sizeof got) == 0, "a refused call (%s: %s) changed a buffer",
               ocf_status_name(status), ocf_last_error());
  }
}

static void restore_host(void) {
  for (size_t i = 0; i < HOST_FLOATS; i++)
    host_a[i] = host_b[i] = host_c[i] = (float)(i % 97) * 0.125f - 3.0f;
}

static void check_host_untouched(ocf_status status) {
  for (size_t i = 0; i < HOST_FLOATS; i++) {
    float want = (float)(i % 97) * 0.125f - 3.0f;
    FUZZ_CHECK(host_a[i] == want && host_b[i] == want && host_c[i] == want,
               "a refused host call (%s: %s) changed an array", ocf_status_name(status),
               ocf_last_error());
  }
}

/* A host pointer: NULL, or into one of the three arrays at a fuzzed offset; *room is how many
   floats lie from it to its array's end. */
static float *take_host(input *in, size_t *room) {
  float *arrays[3] = {host_a, host_b, host_c};
  uint8_t kind = take_byte(in);
  if (kind % 8 == 7) {
    *room = 0;
    return NULL;
  }
  size_t offset = kind % 2 ? 0 : take_byte(in) % 64;
  *room = HOST_FLOATS - offset;
  return arrays[kind % 3] + offset;
}

/* The extent of a rows x cols matrix of stride ld: 0 when empty, SIZE_MAX when it overflows. */
static size_t extent(size_t rows, size_t cols, size_t ld) {
  if (!rows || !cols) return 0;
  if (rows - 1 > 0 && ld > (SIZE_MAX - cols) / (rows - 1)) return SIZE_MAX;
  return (rows - 1) * ld + cols;
}

/* Whether a host call may be made: every array holds its extent, or some extent overflows in
   bytes (the call must refuse that before it touches anything). */
static int host_call_safe(const size_t *extents, const size_t *rooms, int count) {
  int fits = 1, overflows = 0;
  for (int i = 0; i < count; i++) {
    if (extents[i] > SIZE_MAX / sizeof(float)) overflows = 1;
    if (extents[i] > rooms[i]) fits = 0;
  }
  return fits || overflows;
}

/* ---- the calls ---- */

static ocf_status fuzz_add(input *in, int host) {
  if (host) {
    size_t n = take_size(in), rooms[3];
    float *x = take_host(in, &rooms[0]), *y = take_host(in, &rooms[1]);
    float *out = take_host(in, &rooms[2]);
    size_t extents[3] = {n, n, n};
    if (!host_call_safe(extents, rooms, 3)) return OCF_SUCCESS;
    return ocf_add_host(take_byte(in) % 16 ? ctx : NULL, n, x, y, out);
  }
  launch_space space;
  size_t n = take_size(in);
  cl_mem x = take_buffer(in), y = take_buffer(in), out = take_buffer(in);
  size_t xo = take_size(in), yo = take_size(in), oo = take_size(in);
  const ocf_launch *launch = take_launch(in, &space);
  ocf_status status = ocf_add(take_byte(in) % 16 ? ctx : NULL, n, x, xo, y, yo, out, oo, launch);
  finish_launch(launch, &space, status);
  return status;
}

static ocf_status fuzz_softmax(input *in, int host) {
  size_t rows = take_size(in), cols = take_size(in);
  if (host) {
    size_t in_ld = take_size(in), out_ld = take_size(in), rooms[2];
    float *src = take_host(in, &rooms[0]), *dst = take_host(in, &rooms[1]);
    size_t extents[2] = {extent(rows, cols, in_ld), extent(rows, cols, out_ld)};
    if (!host_call_safe(extents, rooms, 2)) return OCF_SUCCESS;
    return ocf_softmax_host(ctx, rows, cols, src, in_ld, dst, out_ld);
  }
  launch_space space;
  cl_mem src = take_buffer(in), dst = take_buffer(in);
  size_t in_off = take_size(in), in_ld = take_size(in), out_off = take_size(in),
         out_ld = take_size(in);
  ocf_softmax_options storage[2]; /* room for a newer header's larger struct */
  memset(storage, 0, sizeof storage);
  ocf_softmax_options *options = NULL;
  if (take_byte(in) % 2) {
    options = &storage[0];
    *options = (ocf_softmax_options)OCF_SOFTMAX_OPTIONS_INIT;
    uint8_t size_kind = take_byte(in) % 6;
    options->size = size_kind == 0   ? 0
                    : size_kind == 1 ? offsetof(ocf_softmax_options, lengths_offset)
                    : size_kind == 2 ? sizeof storage
                                     : sizeof *options;
    options->in_dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
    options->out_dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
    options->scale = take_float(in);
    options->log = take_byte(in) % 3 == 0;
    uint8_t lengths = take_byte(in) % 4;
    options->lengths = lengths == 0 ? lengths_buffer : lengths == 1 ? out_buffer : NULL;
    options->lengths_offset = take_byte(in) % 2 ? 0 : take_size(in);
  }
  const ocf_launch *launch = take_launch(in, &space);
  if (take_byte(in) % 8 == 0) {
    size_t bytes = SIZE_MAX;
    ocf_status status = ocf_softmax_workspace_size(ctx, rows, cols, src, in_off, in_ld, dst,
                                                   out_off, out_ld, options, launch, &bytes);
    finish_query(launch, &space, status, bytes);
    return status;
  }
  ocf_status status =
      ocf_softmax_ex(ctx, rows, cols, src, in_off, in_ld, dst, out_off, out_ld, options, launch);
  finish_launch(launch, &space, status);
  return status;
}

static ocf_status fuzz_matmul(input *in, int host) {
  ocf_transpose ta = (ocf_transpose)(take_byte(in) % 5 == 4 ? 7 : take_byte(in) % 2);
  ocf_transpose tb = (ocf_transpose)(take_byte(in) % 2);
  size_t m = take_size(in), n = take_size(in), k = take_size(in);
  float alpha = take_float(in), beta = take_float(in);
  size_t lda = take_size(in), ldb = take_size(in), ldc = take_size(in);
  if (host) {
    size_t rooms[3];
    float *a = take_host(in, &rooms[0]), *b = take_host(in, &rooms[1]);
    float *c = take_host(in, &rooms[2]);
    size_t extents[3] = {ta == OCF_TRANS ? extent(k, m, lda) : extent(m, k, lda),
                         tb == OCF_TRANS ? extent(n, k, ldb) : extent(k, n, ldb),
                         extent(m, n, ldc)};
    /* A transpose that is not one must be refused before anything is read. */
    if ((unsigned)ta <= 1 && !host_call_safe(extents, rooms, 3)) return OCF_SUCCESS;
    return ocf_matmul_host(ctx, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  launch_space space;
  cl_mem a = take_buffer(in), b = take_buffer(in), c = take_buffer(in);
  size_t ao = take_size(in), bo = take_size(in), co = take_size(in);
  ocf_matmul_options storage[2];
  memset(storage, 0, sizeof storage);
  ocf_matmul_options *options = NULL;
  if (take_byte(in) % 2) {
    options = &storage[0];
    *options = (ocf_matmul_options)OCF_MATMUL_OPTIONS_INIT;
    uint8_t size_kind = take_byte(in) % 6;
    options->size = size_kind == 0   ? 0
                    : size_kind == 1 ? offsetof(ocf_matmul_options, bias_dtype)
                    : size_kind == 2 ? sizeof storage
                                     : sizeof *options;
    options->a_dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
    options->b_dtype = (ocf_dtype)(take_byte(in) % 4);
    options->c_dtype = (ocf_dtype)(take_byte(in) % 4);
    options->precision = (ocf_precision)(take_byte(in) % 5 - 1);
    options->layout = (ocf_layout)(take_byte(in) % 3);
    options->batch = take_byte(in) % 2 ? take_byte(in) % 4 : take_size(in);
    options->stride_a = take_size(in);
    options->stride_b = take_size(in);
    options->stride_c = take_size(in);
    options->activation = (ocf_activation)(take_byte(in) % 7 - 1);
    options->bias_axis = (ocf_bias_axis)(take_byte(in) % 4);
    options->bias = take_buffer(in);
    options->bias_offset = take_size(in);
    options->bias_dtype = (ocf_dtype)(take_byte(in) % 4);
  }
  const ocf_launch *launch = take_launch(in, &space);
  if (take_byte(in) % 8 == 0) {
    size_t bytes = SIZE_MAX;
    ocf_status status = ocf_matmul_workspace_size(ctx, ta, tb, m, n, k, alpha, a, ao, lda, b, bo,
                                                  ldb, beta, c, co, ldc, options, launch, &bytes);
    finish_query(launch, &space, status, bytes);
    return status;
  }
  ocf_status status = ocf_matmul_ex(take_byte(in) % 16 ? ctx : NULL, ta, tb, m, n, k, alpha, a, ao,
                                    lda, b, bo, ldb, beta, c, co, ldc, options, launch);
  finish_launch(launch, &space, status);
  return status;
}

/* The harness's plain call of an op of its table: the op, its shape and its operands fuzzed. */
static ocf_status fuzz_table_call(input *in, int host) {
  const ocft_op_case *op = ocft_op_at(take_byte(in) % ocft_op_count());
  size_t d[OCFT_MAX_DIMS] = {0, 0, 0};
  for (int i = 0; i < op->ndims; i++)
    d[i] = take_size(in);
  if (host) {
    /* The operands' extents as the table computes them, in size_t arithmetic that wraps. An
       extent that did not wrap is the library's own, so a call is made only when it fits its
       array; one that wrapped is some operand's elements overflowing, which the library must
       refuse before it reads anything, whatever the wrapped value. (The product of all the
       dims says nothing about any one operand: attention's q is b h lq d, matmul's A is m k, and
       either may fit size_t, and be over the array, while b h lq lk d or m n k overflows.) */
    size_t extents[OCFT_MAX_OPERANDS + 1], rooms[OCFT_MAX_OPERANDS + 1];
    const float *inputs[OCFT_MAX_OPERANDS];
    ocft_options plain;
    ocft_options_init(&plain);
    ocft_extent e = op->extent(d, &plain);
    for (int i = 0; i < OCFT_MAX_OPERANDS; i++) {
      inputs[i] = take_host(in, &rooms[i]);
      extents[i] = e.in[i];
    }
    float *out = take_host(in, &rooms[OCFT_MAX_OPERANDS]);
    extents[OCFT_MAX_OPERANDS] = e.out;
    if (!host_call_safe(extents, rooms, OCFT_MAX_OPERANDS + 1)) return OCF_SUCCESS;
    return op->host(take_byte(in) % 16 ? ctx : NULL, d, inputs, out);
  }
  launch_space space;
  cl_mem inputs[OCFT_MAX_OPERANDS];
  for (int i = 0; i < OCFT_MAX_OPERANDS; i++)
    inputs[i] = take_buffer(in);
  cl_mem out = take_buffer(in);
  const ocf_launch *launch = take_launch(in, &space);
  ocft_options plain;
  ocft_options_init(&plain);
  ocf_status status =
      op->device(take_byte(in) % 16 ? ctx : NULL, d, &plain, inputs, out, NULL, launch);
  finish_launch(launch, &space, status);
  return status;
}

/* A NUL-terminated string of up to 40 fuzzed bytes, or one of the names the call knows. */
static const char *take_text(input *in, char *storage, const char *const *known, int known_count) {
  uint8_t kind = take_byte(in);
  if (kind < 200 && known_count) return known[kind % known_count];
  if (kind < 210) return NULL;
  size_t length = take_byte(in) % 40;
  for (size_t i = 0; i < length; i++)
    storage[i] = (char)take_byte(in);
  storage[length] = '\0';
  return storage;
}

static ocf_status fuzz_tuning(input *in) {
  /* The table's op names, then two that are none. */
  const char *ops[OPS_MAX + 2];
  int op_count = 0;
  for (size_t i = 0; i < ocft_op_count() && i < OPS_MAX; i++)
    ops[op_count++] = ocft_op_at(i)->name;
  ops[op_count++] = "";
  ops[op_count++] = "ADD";
  static const char *const classes[] = {"*", "small", "large", "narrow", "wide", "huge", "skinny"};
  static const char *const values[] = {"wg=64", "vw=3", "wg=0", "wg=64 vw=8", "nope=1", ""};
  char op_text[48], class_text[48], value_text[48];
  const char *op = take_text(in, op_text, ops, op_count);
  const char *cls = take_text(in, class_text, classes, 7);
  ocf_dtype dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
  if (take_byte(in) % 2) {
    char out[600];
    size_t capacity = take_byte(in) % 3 == 0 ? take_byte(in) % 8 : sizeof out;
    return ocf_context_get_tuning(ctx, op, dtype, cls, capacity ? out : NULL, capacity);
  }
  const char *value = take_text(in, value_text, values, 6);
  ocf_status status = ocf_context_set_tuning(ctx, op, dtype, cls, value);
  /* Back to the resolved values, so that later inputs do not build programs for these. */
  if (status == OCF_SUCCESS)
    FUZZ_CHECK(ocf_context_set_tuning(ctx, op, dtype, cls, NULL) == OCF_SUCCESS,
               "the reset of a tuning just set fails: %s", ocf_last_error());
  return status;
}

/* The norms' and attention's workspace queries, which the table's plain calls do not reach:
   sizes, offsets, strides and the options' types and flags fuzzed (the options' buffers are
   only set or not: the queries do not query them). */
static ocf_status fuzz_queries(input *in) {
  launch_space space;
  size_t bytes = SIZE_MAX;
  ocf_status status;
  if (take_byte(in) % 2) {
    const int rms = take_byte(in) % 2;
    size_t rows = take_size(in), cols = take_size(in), in_off = take_size(in),
           in_ld = take_size(in), out_off = take_size(in), out_ld = take_size(in);
    ocf_norm_options options = OCF_NORM_OPTIONS_INIT;
    options.in_dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
    options.out_dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
    options.eps = take_float(in);
    options.weight = take_byte(in) % 2 ? in_buffer : NULL;
    options.bias = take_byte(in) % 2 ? in_buffer : NULL;
    options.residual = take_byte(in) % 2 ? in_buffer : NULL;
    options.residual_ld = take_byte(in) % 2 ? 0 : take_size(in);
    options.mean = take_byte(in) % 2 ? out_buffer : NULL;
    options.rstd = take_byte(in) % 2 ? out_buffer : NULL;
    const ocf_launch *launch = take_launch(in, &space);
    status = ocf_norm_workspace_size(take_byte(in) % 16 ? ctx : NULL, rms, rows, cols, in_off,
                                     in_ld, out_off, out_ld, take_byte(in) % 8 ? &options : NULL,
                                     launch, take_byte(in) % 16 ? &bytes : NULL);
    finish_query(launch, &space, status, bytes);
    return status;
  }
  size_t d[6], offsets[4], strides[4][3]; /* b, h, h_kv, lq, lk, d */
  for (int i = 0; i < 6; i++)
    d[i] = take_byte(in) % 4 ? take_byte(in) % 9 : take_size(in);
  const size_t *given[4];
  for (int t = 0; t < 4; t++) {
    offsets[t] = take_byte(in) % 2 ? 0 : take_size(in);
    for (int i = 0; i < 3; i++)
      strides[t][i] = take_size(in);
    given[t] = take_byte(in) % 2 ? strides[t] : NULL;
  }
  ocf_attention_options options = OCF_ATTENTION_OPTIONS_INIT;
  options.q_dtype = (ocf_dtype)(take_byte(in) % 5 - 1);
  options.k_dtype = options.v_dtype = (ocf_dtype)(take_byte(in) % 4);
  options.out_dtype = (ocf_dtype)(take_byte(in) % 4);
  options.scale = take_float(in);
  options.causal = take_byte(in) % 2;
  options.causal_offset_set = take_byte(in) % 2;
  options.causal_offset = (long long)take_word(in);
  options.lengths = take_byte(in) % 2 ? lengths_buffer : NULL;
  options.lse = take_byte(in) % 2 ? out_buffer : NULL;
  options.precision = (ocf_precision)(take_byte(in) % 5 - 1);
  const ocf_launch *launch = take_launch(in, &space);
  status = ocf_attention_workspace_size(
      take_byte(in) % 16 ? ctx : NULL, d[0], d[1], d[2], d[3], d[4], d[5], offsets[0], given[0],
      offsets[1], given[1], offsets[2], given[2], offsets[3], given[3],
      take_byte(in) % 8 ? &options : NULL, launch, take_byte(in) % 16 ? &bytes : NULL);
  finish_query(launch, &space, status, bytes);
  return status;
}

static ocf_status fuzz_info(input *in) {
  /* Room for four elements of a struct up to 64 bytes larger than ours. */
  static unsigned char storage[4 * (sizeof(ocf_device_info) + 64)];
  memset(storage, 0, sizeof storage);
  ocf_device_info *info = (ocf_device_info *)(void *)storage;
  uint8_t size_kind = take_byte(in) % 5;
  info->size = size_kind == 0   ? 0
               : size_kind == 1 ? offsetof(ocf_device_info, max_alloc_bytes)
               : size_kind == 2 ? sizeof *info + take_byte(in) % 65
                                : sizeof *info;
  size_t count = 0;
  char path[256];
  switch (take_byte(in) % 4) {
  case 0:
    return ocf_context_device_info(take_byte(in) % 8 ? ctx : NULL, take_byte(in) % 8 ? info : NULL);
  case 1: {
    size_t capacity = take_byte(in) % 5;
    return ocf_devices_list(take_byte(in) % 8 ? info : NULL, capacity,
                            take_byte(in) % 8 ? &count : NULL);
  }
  case 2:
    return ocf_tuning_database_path(ctx, take_byte(in) % 4 ? path : NULL,
                                    take_byte(in) % 2 ? sizeof path : take_byte(in) % 16);
  default: {
    /* Statuses, types and warm-up's op name (a real op would run the whole warm-up). */
    int value = (int)(int32_t)take_word(in);
    FUZZ_CHECK(ocf_status_name((ocf_status)value) && ocf_status_message((ocf_status)value),
               "a status name or message is NULL");
    FUZZ_CHECK(ocf_dtype_name((ocf_dtype)value) != NULL, "a type name is NULL");
    (void)ocf_dtype_size((ocf_dtype)value);
    char op_text[48];
    static const char *const names[] = {"", "Add", "softmax ", "gemm"};
    const char *op = take_text(in, op_text, names, 4);
    if (op && ocft_op_find(op)) return OCF_SUCCESS;
    return ocf_warmup(ctx, op ? op : "", NULL);
  }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size, 0};
  uint8_t first = take_byte(&in), call = first % 10;
  restore_buffers();
  restore_host();
  ocf_status status = OCF_SUCCESS;
  /* The form of the call made: 0 device, 1 host, -1 neither (tuning, information). */
  int form = call <= 5 ? call % 2 : -1;
  if (first >= 243) { /* the table's plain calls: 243 device, 244 host, ... */
    form = first % 2 ? 0 : 1;
    status = fuzz_table_call(&in, form);
  } else {
    switch (call) {
    case 0:
    case 1:
      status = fuzz_add(&in, call == 1);
      break;
    case 2:
    case 3:
      status = fuzz_softmax(&in, call == 3);
      break;
    case 4:
    case 5:
      status = fuzz_matmul(&in, call == 5);
      break;
    case 6:
      status = fuzz_tuning(&in);
      break;
    case 7:
      status = fuzz_queries(&in);
      break;
    default:
      status = fuzz_info(&in);
      break;
    }
  }
  if (status == OCF_SUCCESS && form == 0) buffers_dirty = 1;
  if (status == OCF_SUCCESS)
    calls_run++;
  else
    calls_refused++;
  if (status != OCF_SUCCESS) {
    FUZZ_CHECK(ocf_last_error()[0] != '\0', "%s without a reason", ocf_status_name(status));
    if (form == 0) check_buffers_untouched(status);
    if (form == 1) check_host_untouched(status);
  }
  return 0;
}
