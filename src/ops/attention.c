/* ocf_attention and ocf_attention_host: argument checks, then the run loop
   (src/runtime/run.c) with the plan of src/plan/plan_attention.c (its row:
   src/ops/attention_row.c), or the unfused baseline (attention_unfused.c). */
#include "ops/attention_unfused.h"
#include "runtime/context.h"
#include "runtime/run.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size of the first published ocf_attention_options (0.4). */
#define OPTIONS_FIRST_SIZE (offsetof(ocf_attention_options, lse_offset) + sizeof(size_t))

enum { MAX_HEAD_DIM = 256 };

/* One tensor of the call: [n0, n1, n2, d] with strides s[3] and the last dimension contiguous. */
typedef struct tensor {
  const char *name; /* "q", "k", "v", "out" */
  size_t n[3], s[3];
  size_t offset, element_size;
  size_t extent; /* elements from the first to one past the last, 0 when empty */
} tensor;

/* Sets t->s (NULL strides: dense) and t->extent, checking the row stride and overflows. */
static ocf_status tensor_extent(const char *fn, tensor *t, const size_t *strides, size_t d) {
  if (strides) {
    memcpy(t->s, strides, sizeof t->s);
  } else {
    t->s[2] = d;
    t->s[1] = t->n[2] * d;
    t->s[0] = t->n[1] * t->s[1];
    if ((t->n[2] && t->s[1] / t->n[2] != d) || (t->n[1] && t->s[0] / t->n[1] != t->s[1]))
      return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: %s: its dense strides overflow a size_t", fn,
                      t->name);
  }
  if (t->s[2] < d)
    return ocf_fail(OCF_ERR_INVALID_STRIDE, "%s: %s: row stride %zu is shorter than d = %zu", fn,
                    t->name, t->s[2], d);
  t->extent = 0;
  if (t->n[0] == 0 || t->n[1] == 0 || t->n[2] == 0 || d == 0) return OCF_SUCCESS;
  size_t extent = d;
  for (int i = 0; i < 3; i++) {
    const size_t steps = t->n[i] - 1;
    if (t->s[i] && steps > (SIZE_MAX - extent) / t->s[i])
      return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: %s: its extent overflows a size_t", fn, t->name);
    extent += steps * t->s[i];
  }
  if (extent > SIZE_MAX / t->element_size)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: %s: its extent of %zu elements overflows in bytes",
                    fn, t->name, extent);
  t->extent = extent;
  return OCF_SUCCESS;
}

/* Whether out's elements are distinct: sorted by stride, each dimension of more than one index
   steps past the whole extent of the smaller ones (a sufficient rule, which every permuted
   dense layout meets). */
static int tensor_distinct(const tensor *t, size_t d) {
  size_t n[3], s[3], count = 0;
  if (t->extent == 0) return 1; /* no element at all */
  for (int i = 0; i < 3; i++)
    if (t->n[i] > 1) n[count] = t->n[i], s[count] = t->s[i], count++;
  for (size_t i = 1; i < count; i++)
    for (size_t j = i; j > 0 && s[j] < s[j - 1]; j--) {
      size_t x = s[j];
      s[j] = s[j - 1], s[j - 1] = x;
      x = n[j], n[j] = n[j - 1], n[j - 1] = x;
    }
  size_t covered = d;
  for (size_t i = 0; i < count; i++) {
    if (s[i] < covered) return 0;
    covered += (n[i] - 1) * s[i]; /* within the checked extent */
  }
  return 1;
}

/* The options' own values (those that need no buffer query). */
static ocf_status check_options(const char *fn, const ocf_attention_options *opt) {
  const ocf_dtype types[4] = {opt->q_dtype, opt->k_dtype, opt->v_dtype, opt->out_dtype};
  static const char *const names[4] = {"q", "k", "v", "out"};
  for (int i = 0; i < 4; i++)
    if (ocf_dtype_size(types[i]) == 0)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s data type %d is not an ocf_dtype", fn,
                      names[i], (int)types[i]);
  if (!isfinite(opt->scale))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: scale %g is not finite", fn, (double)opt->scale);
  if (!opt->lengths && opt->lengths_offset != 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: lengths_offset is %zu but lengths is NULL", fn,
                    opt->lengths_offset);
  if (!opt->lse && opt->lse_offset != 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: lse_offset is %zu but lse is NULL", fn,
                    opt->lse_offset);
  if ((unsigned)opt->precision > OCF_PRECISION_3XTF32)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: precision %d is not an ocf_precision", fn,
                    (int)opt->precision);
  if (!opt->causal && (opt->causal_offset_set || opt->causal_offset != 0))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "%s: causal_offset given but causal is 0 (set causal to use the mask)", fn);
  return OCF_SUCCESS;
}

/* The checks of the sizes, the options and the extents, shared by both forms: fills the four
   tensors (in the order q, k, v, out) and *opt. */
static ocf_status check_shape(const char *fn, size_t b, size_t h, size_t h_kv, size_t lq, size_t lk,
                              size_t d, const size_t *strides[4],
                              const ocf_attention_options *options, ocf_attention_options *opt,
                              tensor t[4]) {
  ocf_status status;
  *opt = (ocf_attention_options)OCF_ATTENTION_OPTIONS_INIT;
  if (options) {
    char label[64];
    snprintf(label, sizeof label, "%s: options", fn);
    if ((status = ocf_read_struct(label, options, OPTIONS_FIRST_SIZE, opt, sizeof *opt)) !=
        OCF_SUCCESS)
      return status;
  }
  if ((status = check_options(fn, opt)) != OCF_SUCCESS) return status;
  if (d == 0 || d > MAX_HEAD_DIM)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: d = %zu is outside 1 .. %d", fn, d, MAX_HEAD_DIM);
  if (h_kv == 0 && h > 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: h_kv is 0 with h = %zu", fn, h);
  if (h_kv && h % h_kv != 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: h = %zu is not a multiple of h_kv = %zu", fn, h,
                    h_kv);
  const ocf_dtype types[4] = {opt->q_dtype, opt->k_dtype, opt->v_dtype, opt->out_dtype};
  static const char *const names[4] = {"q", "k", "v", "out"};
  for (int i = 0; i < 4; i++) {
    const int kv = i == 1 || i == 2;
    tensor x = {names[i], {b, kv ? h_kv : h, kv ? lk : lq}, {0, 0, 0},
                0,        ocf_dtype_size(types[i]),         0};
    t[i] = x;
    if ((status = tensor_extent(fn, &t[i], strides[i], d)) != OCF_SUCCESS) return status;
  }
  if (!tensor_distinct(&t[3], d))
    return ocf_fail(OCF_ERR_ALIASING,
                    "%s: out's strides {%zu, %zu, %zu} make some of its elements overlap", fn,
                    t[3].s[0], t[3].s[1], t[3].s[2]);
  if (b && h && lq && (size_t)SIZE_MAX / b / h / lq < sizeof(float))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: b * h * lq overflows", fn);
  return OCF_SUCCESS;
}

/* The widest of 8, 4, 2 and 1 elements that divides d and every offset and stride of K and V
   (attention_decode's loads; rows on 16-byte chunks at 8), or of Q (v_strides NULL). */
static size_t kv_vector(size_t d, size_t k_offset, const size_t *k_strides, size_t v_offset,
                        const size_t *v_strides) {
  size_t all = d | k_offset | v_offset;
  for (int i = 0; i < 3; i++)
    all |= k_strides[i] | (v_strides ? v_strides[i] : 0);
  size_t w = 8;
  while (all % w)
    w /= 2;
  return w;
}

/* Whether tensor maps can describe Q, K and V (t[0..2]): ocf_attention_tma_strides. */
static int tma_strides(const tensor t[4]) {
  size_t dims[3][3], strides[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      dims[i][j] = t[i].n[j], strides[i][j] = t[i].s[j];
  return ocf_attention_tma_strides(dims, strides);
}

/* The checks the call and its workspace query share: the launch settings (into *settings and
 *queue), then the shape, strides and options (into *opt and t). */
static ocf_status check_call(const char *fn, ocf_context *ctx, const ocf_launch *launch, size_t b,
                             size_t h, size_t h_kv, size_t lq, size_t lk, size_t d,
                             const size_t *strides[4], const ocf_attention_options *options,
                             ocf_launch *settings, cl_command_queue *queue,
                             ocf_attention_options *opt, tensor t[4]) {
  ocf_status status = ocf_check_launch(ctx, launch, settings, queue);
  if (status != OCF_SUCCESS) return status;
  return check_shape(fn, b, h, h_kv, lq, lk, d, strides, options, opt, t);
}

/* The plan's key of a call whose shape and options check_shape has passed (t: its tensors). */
static ocf_attention_call call_of(size_t b, size_t h, size_t h_kv, size_t lq, size_t lk, size_t d,
                                  const size_t offsets[4], const tensor t[4],
                                  const ocf_attention_options *opt, const ocf_launch *settings) {
  ocf_attention_call call;
  memset(&call, 0, sizeof call); /* its bytes key the plan cache */
  call.b = b, call.h = h, call.lq = lq, call.lk = lk, call.d = d;
  call.h_kv = h_kv;
  call.kv_vector = kv_vector(d, offsets[1], t[1].s, offsets[2], t[2].s);
  call.q_vector = kv_vector(d, offsets[0], t[0].s, 0, NULL);
  call.tma_strides = tma_strides(t);
  call.q_dtype = opt->q_dtype, call.k_dtype = opt->k_dtype;
  call.v_dtype = opt->v_dtype, call.out_dtype = opt->out_dtype;
  call.variant = settings->variant;
  call.workgroup = settings->workgroup_size;
  call.has_lengths = opt->lengths != NULL;
  call.causal = opt->causal != 0;
  call.has_lse = opt->lse != NULL;
  /* Only fp32 inputs have products to round (and only then does it key another plan). */
  if (opt->q_dtype == OCF_F32 && opt->k_dtype == OCF_F32 && opt->v_dtype == OCF_F32)
    call.precision = opt->precision;
  return call;
}

/* The kernels' frame of a checked call; `buffers` (q, k, v, out) may be NULL for a size query. */
static ocf_attention_frame frame_of(size_t b, size_t h, size_t h_kv, size_t lq, size_t lk, size_t d,
                                    const cl_mem buffers[4], const size_t offsets[4],
                                    const tensor t[4], const ocf_attention_options *opt) {
  const long long causal_offset =
      opt->causal_offset_set ? opt->causal_offset : (long long)lk - (long long)lq;
  const float scale = opt->scale != 0.0f ? opt->scale : (float)(1.0 / sqrt((double)d));
  /* Buffers the kernel does not read (no lengths, no lse) are bound to q: any valid buffer. */
  const ocf_attention_frame frame = {b,
                                     h,
                                     h / h_kv,
                                     lq,
                                     lk,
                                     d,
                                     buffers[0],
                                     offsets[0],
                                     t[0].s[0],
                                     t[0].s[1],
                                     t[0].s[2],
                                     buffers[1],
                                     offsets[1],
                                     t[1].s[0],
                                     t[1].s[1],
                                     t[1].s[2],
                                     buffers[2],
                                     offsets[2],
                                     t[2].s[0],
                                     t[2].s[1],
                                     t[2].s[2],
                                     buffers[3],
                                     offsets[3],
                                     t[3].s[0],
                                     t[3].s[1],
                                     t[3].s[2],
                                     scale,
                                     opt->lengths ? opt->lengths : buffers[0],
                                     opt->lengths_offset,
                                     (cl_ulong)causal_offset,
                                     opt->lse ? opt->lse : buffers[0],
                                     opt->lse_offset,
                                     1,
                                     0,
                                     NULL,
                                     NULL};
  return frame;
}

ocf_status ocf_attention(ocf_context *ctx, size_t b, size_t h, size_t h_kv, size_t lq, size_t lk,
                         size_t d, cl_mem q, size_t q_offset, const size_t *q_strides, cl_mem k,
                         size_t k_offset, const size_t *k_strides, cl_mem v, size_t v_offset,
                         const size_t *v_strides, cl_mem out, size_t out_offset,
                         const size_t *out_strides, const ocf_attention_options *options,
                         const ocf_launch *launch) {
  static const char fn[] = "ocf_attention";
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: ctx is NULL", fn);
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_attention_options opt;
  tensor t[4];
  const size_t *strides[4] = {q_strides, k_strides, v_strides, out_strides};
  ocf_status status = check_call(fn, ctx, launch, b, h, h_kv, lq, lk, d, strides, options,
                                 &settings, &queue, &opt, t);
  if (status != OCF_SUCCESS) return status;
  const cl_mem buffers[4] = {q, k, v, out};
  const size_t offsets[4] = {q_offset, k_offset, v_offset, out_offset};
  /* The names of the messages below (q, k, v, out, lengths, lse), made once, not at each call. */
  static const char *const labels[6] = {"ocf_attention: q",       "ocf_attention: k",
                                        "ocf_attention: v",       "ocf_attention: out",
                                        "ocf_attention: lengths", "ocf_attention: lse"};
  for (int i = 0; i < 4; i++) {
    t[i].offset = offsets[i];
    if ((status = ocf_check_buffer(ctx, labels[i], buffers[i], offsets[i], t[i].extent,
                                   t[i].element_size)) != OCF_SUCCESS)
      return status;
  }
  const size_t rows = b * h * lq; /* checked in check_shape */
  if (opt.lengths && (status = ocf_check_buffer(ctx, labels[4], opt.lengths, opt.lengths_offset, b,
                                                sizeof(cl_uint))) != OCF_SUCCESS)
    return status;
  if (opt.lse && (status = ocf_check_buffer(ctx, labels[5], opt.lse, opt.lse_offset, rows,
                                            sizeof(float))) != OCF_SUCCESS)
    return status;

  /* Aliasing: out and lse against every other operand, by their spans (each buffer's place
     resolved once, validate.h). */
  typedef struct span {
    const char *name;
    cl_mem buffer;
    size_t start, bytes;
    ocf_place at;
  } span;
  span spans[6];
  for (int i = 0; i < 4; i++) {
    span s = {t[i].name, buffers[i], offsets[i] * t[i].element_size,
              t[i].extent * t[i].element_size, ocf_place_of(buffers[i])};
    spans[i] = s;
  }
  const span lengths_span = {"lengths", opt.lengths, opt.lengths_offset * sizeof(cl_uint),
                             opt.lengths ? b * sizeof(cl_uint) : 0, ocf_place_of(opt.lengths)};
  const span lse_span = {"lse", opt.lse, opt.lse_offset * sizeof(float),
                         opt.lse ? rows * sizeof(float) : 0, ocf_place_of(opt.lse)};
  spans[4] = lengths_span;
  spans[5] = lse_span;
  for (int w = 3; w < 6; w += 2) /* out (3), then lse (5) */
    for (int o = 0; o < 6; o++) {
      if (o == w || !spans[w].buffer || !spans[o].buffer || spans[w].bytes == 0 ||
          spans[o].bytes == 0)
        continue;
      if (w == 3 && o == 5) continue; /* checked as lse against out */
      int overlap = 0, same = 0;
      if ((status = ocf_places_overlap(&spans[w].at, spans[w].start, spans[w].bytes, &spans[o].at,
                                       spans[o].start, spans[o].bytes, &overlap, &same)) !=
          OCF_SUCCESS)
        return status;
      if (overlap)
        return ocf_fail(OCF_ERR_ALIASING, "%s: %s overlaps %s", fn, spans[w].name, spans[o].name);
    }
  for (int i = 0; i < 6; i++)
    if (spans[i].buffer &&
        (status = ocf_workspace_check_disjoint(&settings, labels[i], spans[i].buffer,
                                               spans[i].start, spans[i].bytes)) != OCF_SUCCESS)
      return status;
  if (rows == 0) return ocf_dispatch_nothing(queue, &settings);

  const ocf_attention_call call = call_of(b, h, h_kv, lq, lk, d, offsets, t, &opt, &settings);
  const ocf_attention_frame frame = frame_of(b, h, h_kv, lq, lk, d, buffers, offsets, t, &opt);
  if (settings.variant == OCF_VARIANT_BASELINE)
    return ocf_attention_unfused(ctx, queue, &frame, &opt, &settings);
  const ocf_run_call run = {OCF_OP_ATTENTION, &call, &frame, queue, &settings};
  return ocf_run(ctx, &run);
}

ocf_status ocf_attention_workspace_size(
    ocf_context *ctx, size_t b, size_t h, size_t h_kv, size_t lq, size_t lk, size_t d,
    size_t q_offset, const size_t *q_strides, size_t k_offset, const size_t *k_strides,
    size_t v_offset, const size_t *v_strides, size_t out_offset, const size_t *out_strides,
    const ocf_attention_options *options, const ocf_launch *launch, size_t *bytes) {
  static const char fn[] = "ocf_attention_workspace_size";
  ocf_error_clear();
  if (!ctx || !bytes)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: %s is NULL", fn, !ctx ? "ctx" : "bytes");
  ocf_launch settings;
  cl_command_queue queue = NULL;
  ocf_attention_options opt;
  tensor t[4];
  const size_t *strides[4] = {q_strides, k_strides, v_strides, out_strides};
  ocf_status status = check_call(fn, ctx, launch, b, h, h_kv, lq, lk, d, strides, options,
                                 &settings, &queue, &opt, t);
  if (status != OCF_SUCCESS) return status;
  if (b * h * lq == 0) {
    *bytes = 0;
    return OCF_SUCCESS; /* checked in check_shape */
  }
  const size_t offsets[4] = {q_offset, k_offset, v_offset, out_offset};
  if (settings.variant == OCF_VARIANT_BASELINE) {
    const cl_mem none[4] = {NULL, NULL, NULL, NULL};
    const ocf_attention_frame frame = frame_of(b, h, h_kv, lq, lk, d, none, offsets, t, &opt);
    return ocf_attention_unfused_workspace(ctx, &frame, &opt, &settings, bytes);
  }
  *bytes = 0;
  const ocf_attention_call call = call_of(b, h, h_kv, lq, lk, d, offsets, t, &opt, &settings);
  const ocf_run_call run = {OCF_OP_ATTENTION, &call, NULL, queue, &settings};
  return ocf_run_prepare(ctx, &run, bytes);
}

/* ---- the host form ---- */

ocf_status ocf_attention_host(ocf_context *ctx, size_t b, size_t h, size_t h_kv, size_t lq,
                              size_t lk, size_t d, const void *q, const size_t *q_strides,
                              const void *k, const size_t *k_strides, const void *v,
                              const size_t *v_strides, void *out, const size_t *out_strides,
                              const cl_uint *lengths, float *lse,
                              const ocf_attention_options *options) {
  static const char fn[] = "ocf_attention_host";
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: ctx is NULL", fn);
  ocf_attention_options opt;
  tensor t[4];
  const size_t *strides[4] = {q_strides, k_strides, v_strides, out_strides};
  ocf_status status = check_shape(fn, b, h, h_kv, lq, lk, d, strides, options, &opt, t);
  if (status != OCF_SUCCESS) return status;
  if (opt.lengths || opt.lse || opt.lengths_offset || opt.lse_offset)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "%s: options->lengths and options->lse are cl_mems (with offsets); the host "
                    "form takes the host arrays `lengths` and `lse`",
                    fn);
  const void *arrays[4] = {q, k, v, out};
  for (int i = 0; i < 4; i++)
    if (t[i].extent && !arrays[i])
      return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: %s is NULL", fn, t[i].name);
  const size_t rows = b * h * lq;
  const size_t bytes[6] = {
      t[0].extent * t[0].element_size,           t[1].extent * t[1].element_size,
      t[2].extent * t[2].element_size,           t[3].extent * t[3].element_size,
      lengths && rows ? b * sizeof(cl_uint) : 0, lse ? rows * sizeof(float) : 0};
  const void *starts[6] = {q, k, v, out, lengths, lse};
  static const char *const names[6] = {"q", "k", "v", "out", "lengths", "lse"};
  for (int w = 3; w < 6; w += 2)
    for (int o = 0; o < 6; o++)
      if (o != w && !(w == 3 && o == 5) &&
          ocf_host_ranges_meet(starts[w], bytes[w], starts[o], bytes[o]))
        return ocf_fail(OCF_ERR_ALIASING, "%s: %s overlaps %s", fn, names[w], names[o]);
  if (rows == 0) return OCF_SUCCESS;

  cl_mem buffers[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
  for (int i = 0; i < 3 && status == OCF_SUCCESS; i++)
    status = ocf_host_bytes(ctx, CL_MEM_READ_ONLY, bytes[i], arrays[i], &buffers[i]);
  /* The gaps between out's rows must come back as they were: start from out's contents. */
  const int dense = t[3].extent == rows * d;
  if (status == OCF_SUCCESS)
    status = ocf_host_bytes(ctx, CL_MEM_READ_WRITE, bytes[3], dense ? NULL : out, &buffers[3]);
  if (status == OCF_SUCCESS && lengths)
    status = ocf_host_bytes(ctx, CL_MEM_READ_ONLY, bytes[4], lengths, &buffers[4]);
  if (status == OCF_SUCCESS && lse)
    status = ocf_host_bytes(ctx, CL_MEM_READ_WRITE, bytes[5], NULL, &buffers[5]);
  ocf_launch launch = OCF_LAUNCH_INIT;
  cl_event done = NULL;
  launch.event = &done;
  opt.lengths = buffers[4];
  opt.lse = buffers[5];
  if (status == OCF_SUCCESS)
    status = ocf_attention(ctx, b, h, h_kv, lq, lk, d, buffers[0], 0, t[0].s, buffers[1], 0, t[1].s,
                           buffers[2], 0, t[2].s, buffers[3], 0, t[3].s, &opt, &launch);
  /* The read-backs wait for the call's event: the queue may be out of order. */
  for (int i = 3; i < 6 && status == OCF_SUCCESS; i += 2) {
    if (buffers[i])
      status = ocf_host_read_bytes(ctx, buffers[i], 0, bytes[i], i == 3 ? out : (void *)lse, done);
  }
  if (done) clReleaseEvent(done);
  for (int i = 0; i < 6; i++)
    if (buffers[i]) clReleaseMemObject(buffers[i]);
  return status;
}
