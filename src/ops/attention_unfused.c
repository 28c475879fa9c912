/* ocf_attention's unfused baseline (OCF_VARIANT_BASELINE): S = scale Q K^T (ocf_matmul_ex, fp32
   scores), P = softmax(S) in place with the causal band (ocf_softmax_ex), out = P V
   (ocf_matmul_ex). It is the composition a user writes without the fused kernel, and `oclfuse
   bench` times it beside the fused call (docs/ATTENTION.md). Each call waits for the one before
   it, so that the last one's event covers the whole on any queue, and only the last writes out:
   a later call that fails leaves the earlier ones writing scratch alone, as the library's other
   calls of several kernels do.

   The scores and the three calls' own scratch share one region, which the calls are lent as a
   caller's workspace: the caller's workspace, the context's pool (borrowed for the chain, so
   that calls queued back to back reuse one buffer: b x h x lq x lk floats are 8.6 GB at 4 x 32
   x 4096^2, and eleven calls of their own each overran an 80 GB card), or a buffer of the
   call's own, as the "Workspaces" rules of include/oclfuse.h give scratch. */
#include "ops/attention_unfused.h"

#include "runtime/context.h"
#include "runtime/workspace.h"

#include <stdint.h>
#include <stdio.h>

/* How one side's products cover the heads: `rows` query rows a product (lq, or group * lq where
   the query heads of a key head follow one another: head stride = lq row strides), `batch`
   products a call (the key heads, and the batch too where its strides are the heads' spans),
   `calls_b` calls over the batch and `calls_g` over the query heads of a key head. */
typedef struct products {
  size_t rows, batch, calls_b, calls_g;
} products;

static products products_of(const ocf_attention_frame *f, cl_ulong x_sb, cl_ulong x_sh,
                            cl_ulong x_sr, cl_ulong kv_sb, cl_ulong kv_sh) {
  const size_t h_kv = f->h / f->group;
  const int stacked = f->group == 1 || x_sh == f->lq * x_sr;
  const int whole_batch = f->b == 1 || (x_sb == f->h * x_sh && kv_sb == h_kv * kv_sh);
  products p = {stacked ? f->group * f->lq : f->lq, whole_batch ? f->b * h_kv : h_kv,
                whole_batch ? 1 : f->b, stacked ? 1 : f->group};
  return p;
}

/* The launch of one call of the chain: after `previous` (NULL: after the caller's wait list),
   its event into *done; the first call also gives the caller's first_event. */
static ocf_launch step_launch(const ocf_launch *settings, const cl_event *previous,
                              cl_event *done) {
  ocf_launch step = *settings;
  step.workgroup_size = 0;
  step.variant = OCF_VARIANT_AUTO;
  step.event = done;
  step.first_event = previous ? NULL : settings->first_event;
  if (previous) step.num_wait_events = 1, step.wait_events = previous;
  return step;
}

/* Ends a step: on success the chain goes on from *done (the previous event released; `done` is
   read here, after the call wrote it, not among the call's arguments); on
   failure *previous stays the last call that was enqueued (NULL: none), which the scores wait
   for. *first_given notes that the first call gave the caller's first_event. */
static ocf_status chain(ocf_status status, cl_event *previous, const cl_event *done,
                        const ocf_launch *step, int *first_given) {
  if (status != OCF_SUCCESS) return status;
  if (step->first_event) *first_given = 1;
  if (*previous) clReleaseEvent(*previous);
  *previous = *done;
  return status;
}

static ocf_status refuse_unexpressed(const ocf_attention_frame *f, const ocf_attention_options *opt,
                                     const products *out_side) {
  static const char fn[] = "ocf_attention (OCF_VARIANT_BASELINE)";
  if (opt->lengths || opt->lse)
    return ocf_fail(OCF_ERR_UNSUPPORTED, "%s: the unfused baseline takes no lengths and no lse",
                    fn);
  if (opt->causal && (long long)f->causal_offset < 0)
    return ocf_fail(OCF_ERR_UNSUPPORTED,
                    "%s: causal offset %lld: softmax's band starts at a key position >= 0", fn,
                    (long long)f->causal_offset);
  if (out_side->calls_b > 1 || out_side->calls_g > 1)
    return ocf_fail(OCF_ERR_UNSUPPORTED,
                    "%s: out's strides need %zu products of P V, and only one call may write out "
                    "(dense heads, and a batch stride of h heads, make it one)",
                    fn, out_side->calls_b * out_side->calls_g);
  if (f->lk && f->b * f->h * f->lq > SIZE_MAX / sizeof(float) / f->lk)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "%s: the %llu x %llu scores overflow a size_t", fn,
                    (unsigned long long)(f->b * f->h * f->lq), (unsigned long long)f->lk);
  return OCF_SUCCESS;
}

/* Where the chain's memory lies: in `buffer` from byte `base`, the scores (rows x lk floats,
   `scores_span` bytes rounded up to the device's base address alignment) and then the calls'
   workspace (`inner` bytes, the most any of them asks). */
typedef struct chain_memory {
  cl_mem buffer;
  size_t base, scores_span, inner;
} chain_memory;

/* The launch the chain's calls are lent: the region after the scores as their workspace. */
static ocf_launch lent_launch(const ocf_launch *settings, const chain_memory *m) {
  ocf_launch lent = *settings;
  lent.workspace = m->buffer;
  lent.workspace_offset = m->base + m->scores_span;
  lent.workspace_size = m->inner;
  return lent;
}

/* Each call of the chain enqueued, or (bytes not NULL) its workspace asked for instead, with
   the same arguments (the size queries take the buffers as NULL). */
static ocf_status qk_product(ocf_context *ctx, const ocf_attention_frame *f, const products *qk,
                             size_t bi, size_t g, const chain_memory *m,
                             const ocf_matmul_options *mo, const ocf_launch *step, size_t *bytes) {
  const size_t q_at = f->q_off + bi * f->q_sb + g * f->q_sh, k_at = f->k_off + bi * f->k_sb;
  const size_t s_at = m->base / sizeof(float) + (bi * f->h + g) * f->lq * f->lk;
  if (bytes)
    return ocf_matmul_workspace_size(ctx, OCF_NO_TRANS, OCF_TRANS, qk->rows, f->lk, f->d, f->scale,
                                     NULL, q_at, f->q_sr, NULL, k_at, f->k_sr, 0.0f, NULL, s_at,
                                     f->lk, mo, step, bytes);
  return ocf_matmul_ex(ctx, OCF_NO_TRANS, OCF_TRANS, qk->rows, f->lk, f->d, f->scale, f->q, q_at,
                       f->q_sr, f->k, k_at, f->k_sr, 0.0f, m->buffer, s_at, f->lk, mo, step);
}

static ocf_status softmax_scores(ocf_context *ctx, const ocf_attention_frame *f,
                                 const ocf_attention_options *opt, const chain_memory *m,
                                 const ocf_launch *step, size_t *bytes) {
  const size_t rows = f->b * f->h * f->lq, s_at = m->base / sizeof(float);
  ocf_softmax_options so = OCF_SOFTMAX_OPTIONS_INIT;
  so.causal = opt->causal != 0;
  so.causal_period = so.causal ? f->lq : 0;
  so.causal_offset = so.causal ? f->causal_offset : 0;
  if (bytes)
    return ocf_softmax_workspace_size(ctx, rows, f->lk, NULL, s_at, f->lk, NULL, s_at, f->lk, &so,
                                      step, bytes);
  return ocf_softmax_ex(ctx, rows, f->lk, m->buffer, s_at, f->lk, m->buffer, s_at, f->lk, &so,
                        step);
}

/* out = P V, or 0 V (a product of k = 0) without keys. */
static ocf_status pv_product(ocf_context *ctx, const ocf_attention_frame *f, const products *pv,
                             const chain_memory *m, const ocf_matmul_options *mo,
                             const ocf_launch *step, size_t *bytes) {
  const int keys = f->lk != 0;
  const cl_mem p = keys ? m->buffer : f->v;
  const size_t p_at = keys ? m->base / sizeof(float) : 0, ldp = keys ? f->lk : 1;
  if (bytes)
    return ocf_matmul_workspace_size(ctx, OCF_NO_TRANS, OCF_NO_TRANS, pv->rows, f->d, f->lk, 1.0f,
                                     NULL, p_at, ldp, NULL, f->v_off, f->v_sr, 0.0f, NULL,
                                     f->out_off, f->out_sr, mo, step, bytes);
  return ocf_matmul_ex(ctx, OCF_NO_TRANS, OCF_NO_TRANS, pv->rows, f->d, f->lk, 1.0f, p, p_at, ldp,
                       f->v, f->v_off, f->v_sr, 0.0f, f->out, f->out_off, f->out_sr, mo, step);
}

/* The options of the chain's products: Q K^T into fp32 scores, P V into out. */
static ocf_matmul_options qk_options(const ocf_attention_frame *f, const ocf_attention_options *opt,
                                     const products *qk) {
  ocf_matmul_options mo = OCF_MATMUL_OPTIONS_INIT;
  mo.precision = opt->q_dtype == OCF_F32 && opt->k_dtype == OCF_F32 && opt->v_dtype == OCF_F32
                     ? opt->precision
                     : OCF_PRECISION_FP32;
  mo.a_dtype = opt->q_dtype, mo.b_dtype = opt->k_dtype, mo.c_dtype = OCF_F32;
  mo.batch = qk->batch;
  mo.stride_a = f->group * f->q_sh, mo.stride_b = f->k_sh, mo.stride_c = f->group * f->lq * f->lk;
  return mo;
}

static ocf_matmul_options pv_options(const ocf_attention_frame *f, const ocf_attention_options *opt,
                                     const products *pv) {
  ocf_matmul_options mo = qk_options(f, opt, pv);
  mo.a_dtype = f->lk ? OCF_F32 : opt->v_dtype, mo.b_dtype = opt->v_dtype;
  mo.c_dtype = opt->out_dtype;
  mo.stride_a = f->group * f->lq * f->lk, mo.stride_b = f->v_sh, mo.stride_c = f->group * f->out_sh;
  return mo;
}

/* The most workspace any call of the chain asks for, its scores placed at byte m->base. */
static ocf_status chain_inner(ocf_context *ctx, const ocf_attention_frame *f,
                              const ocf_attention_options *opt, const products *qk,
                              const products *pv, const ocf_launch *settings, chain_memory *m) {
  ocf_launch ask = *settings;
  ask.workspace = NULL, ask.workspace_offset = ask.workspace_size = 0;
  ask.event = NULL, ask.first_event = NULL;
  ask.num_wait_events = 0, ask.wait_events = NULL;
  ask.variant = OCF_VARIANT_AUTO, ask.workgroup_size = 0;
  size_t bytes = 0;
  m->inner = 0;
  ocf_status status = OCF_SUCCESS;
  if (f->lk) {
    const ocf_matmul_options mo = qk_options(f, opt, qk);
    for (size_t bi = 0; bi < qk->calls_b && status == OCF_SUCCESS; bi++)
      for (size_t g = 0; g < qk->calls_g && status == OCF_SUCCESS; g++)
        if ((status = qk_product(ctx, f, qk, bi, g, m, &mo, &ask, &bytes)) == OCF_SUCCESS &&
            bytes > m->inner)
          m->inner = bytes;
    if (status == OCF_SUCCESS &&
        (status = softmax_scores(ctx, f, opt, m, &ask, &bytes)) == OCF_SUCCESS && bytes > m->inner)
      m->inner = bytes;
  }
  const ocf_matmul_options mo = pv_options(f, opt, pv);
  if (status == OCF_SUCCESS &&
      (status = pv_product(ctx, f, pv, m, &mo, &ask, &bytes)) == OCF_SUCCESS && bytes > m->inner)
    m->inner = bytes;
  return status;
}

/* The chain of a checked call: its products (refusing what it cannot express) and its memory
   from byte `base` (scores, then the calls' workspace), for the call and its size query alike. */
static ocf_status chain_of(ocf_context *ctx, const ocf_attention_frame *f,
                           const ocf_attention_options *opt, const ocf_launch *settings,
                           size_t base, products *qk, products *pv, chain_memory *m) {
  *qk = products_of(f, f->q_sb, f->q_sh, f->q_sr, f->k_sb, f->k_sh);
  *pv = products_of(f, f->out_sb, f->out_sh, f->out_sr, f->v_sb, f->v_sh);
  ocf_status status = refuse_unexpressed(f, opt, pv);
  size_t align = 1;
  if (status == OCF_SUCCESS) status = ocf_base_address_align(ctx, &align);
  if (status != OCF_SUCCESS) return status;
  const size_t scores = f->b * f->h * f->lq * f->lk * sizeof(float); /* refuse_unexpressed */
  m->buffer = NULL;
  m->base = base;
  m->scores_span = (scores + align - 1) / align * align;
  if (m->scores_span < scores)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "ocf_attention (OCF_VARIANT_BASELINE): the scores' "
                    "%zu bytes overflow a size_t once aligned",
                    scores);
  if ((status = chain_inner(ctx, f, opt, qk, pv, settings, m)) != OCF_SUCCESS) return status;
  if (m->inner > SIZE_MAX - m->scores_span)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "ocf_attention (OCF_VARIANT_BASELINE): its memory overflows a size_t");
  return OCF_SUCCESS;
}

ocf_status ocf_attention_unfused_workspace(ocf_context *ctx, const ocf_attention_frame *f,
                                           const ocf_attention_options *opt,
                                           const ocf_launch *settings, size_t *bytes) {
  products qk, pv;
  chain_memory m;
  ocf_status status = chain_of(ctx, f, opt, settings, 0, &qk, &pv, &m);
  if (status == OCF_SUCCESS) *bytes = m.scores_span + m.inner;
  return status;
}

/* A call before the last that was enqueued but could give no event (OCF_ERR_ENQUEUED_WITHOUT_EVENT:
   an event it could not retain): it will run, so the chain goes on behind a marker of every
   command before it (its event stands in for the call's), and ends in that status with no event
   (*eventless: the call's message, kept for then; the later calls clear the thread's error). */
static ocf_status go_on_without_event(cl_command_queue queue, cl_event *previous, char *eventless,
                                      size_t size) {
  snprintf(eventless, size, "%s", ocf_last_error());
  if (*previous) clReleaseEvent(*previous);
  *previous = NULL;
  cl_int err = clEnqueueMarkerWithWaitList(queue, 0, NULL, previous);
  if (err == CL_SUCCESS) return OCF_SUCCESS;
  *previous = NULL;
  return ocf_fail_cl(err, "ocf_attention (OCF_VARIANT_BASELINE): clEnqueueMarkerWithWaitList "
                          "(after a call that gave no event)");
}

/* Enqueues the chain in the memory `m` lends. */
static ocf_status run_chain(ocf_context *ctx, cl_command_queue queue, const ocf_attention_frame *f,
                            const ocf_attention_options *opt, const products *qk,
                            const products *pv, const ocf_launch *settings, const chain_memory *m,
                            cl_event *last) {
  const ocf_launch lent = lent_launch(settings, m);
  cl_event previous = NULL, done = NULL;
  int first_given = 0;
  char eventless[512] = "";
  ocf_launch step;
  ocf_status status = OCF_SUCCESS;
  if (f->lk) {
    const ocf_matmul_options mo = qk_options(f, opt, qk);
    for (size_t bi = 0; bi < qk->calls_b && status == OCF_SUCCESS; bi++)
      for (size_t g = 0; g < qk->calls_g && status == OCF_SUCCESS; g++) {
        step = step_launch(&lent, previous ? &previous : NULL, &done);
        status = chain(qk_product(ctx, f, qk, bi, g, m, &mo, &step, NULL), &previous, &done, &step,
                       &first_given);
        if (status == OCF_ERR_ENQUEUED_WITHOUT_EVENT)
          status = go_on_without_event(queue, &previous, eventless, sizeof eventless);
      }
    if (status == OCF_SUCCESS) {
      step = step_launch(&lent, &previous, &done);
      status =
          chain(softmax_scores(ctx, f, opt, m, &step, NULL), &previous, &done, &step, &first_given);
      if (status == OCF_ERR_ENQUEUED_WITHOUT_EVENT)
        status = go_on_without_event(queue, &previous, eventless, sizeof eventless);
    }
  }
  if (status == OCF_SUCCESS) {
    const ocf_matmul_options mo = pv_options(f, opt, pv);
    step = step_launch(&lent, previous ? &previous : NULL, &done);
    status =
        chain(pv_product(ctx, f, pv, m, &mo, &step, NULL), &previous, &done, &step, &first_given);
  }
  if (status == OCF_SUCCESS && eventless[0])
    status = ocf_fail(OCF_ERR_ENQUEUED_WITHOUT_EVENT,
                      "ocf_attention (OCF_VARIANT_BASELINE): %s; the chain went on and will write "
                      "out, with no event",
                      eventless);
  if (status != OCF_SUCCESS && first_given) {
    /* A later call failed: the caller gets no event on failure. */
    clReleaseEvent(*settings->first_event);
    *settings->first_event = NULL;
  }
  *last = previous;
  return status;
}

ocf_status ocf_attention_unfused(ocf_context *ctx, cl_command_queue queue,
                                 const ocf_attention_frame *f, const ocf_attention_options *opt,
                                 const ocf_launch *settings) {
  static const char fn[] = "ocf_attention (OCF_VARIANT_BASELINE)";
  products qk, pv;
  chain_memory m;
  const size_t base = settings->workspace ? settings->workspace_offset : 0;
  ocf_status status = chain_of(ctx, f, opt, settings, base, &qk, &pv, &m);
  if (status != OCF_SUCCESS) return status;
  const size_t bytes = m.scores_span + m.inner;
  /* No bytes (no keys, and P V needs no scratch): the calls get the caller's launch as it is. */
  const int own = bytes && !settings->workspace;
  const int borrowed = own && ctx->pool.usable && queue == ctx->queue;
  size_t held = bytes; /* the borrowed buffer's size */
  if (!bytes) {
    m.buffer = settings->workspace, m.base = settings->workspace_offset;
    m.inner = settings->workspace_size;
  } else if (settings->workspace) {
    if (settings->workspace_size < bytes)
      return ocf_fail(OCF_ERR_BUFFER_TOO_SMALL,
                      "%s: launch workspace holds %zu bytes; the chain needs %zu (its scores, "
                      "then its calls' scratch: ocf_attention_workspace_size gives it)",
                      fn, settings->workspace_size, bytes);
    m.buffer = settings->workspace;
  } else if (borrowed) {
    status = ocf_pool_borrow(ctx, bytes, &m.buffer, &held);
  } else {
    status = ocf_scratch_create(ctx, bytes, &m.buffer);
  }
  if (status != OCF_SUCCESS) return status;

  cl_event last = NULL;
  status = run_chain(ctx, queue, f, opt, &qk, &pv, settings, &m, &last);
  if (borrowed)
    ocf_pool_give_back(ctx, m.buffer, held, last);
  else if (own)
    ocf_release_after(m.buffer, last);
  if (last && status == OCF_SUCCESS && settings->event)
    *settings->event = last;
  else if (last)
    clReleaseEvent(last);
  return status;
}
