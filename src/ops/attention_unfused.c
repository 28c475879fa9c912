/* ocf_attention's unfused baseline (OCF_VARIANT_BASELINE): S = scale Q K^T (ocf_matmul_ex, fp32
   scores in a buffer of the call's own), P = softmax(S) in place with the causal band
   (ocf_softmax_ex), out = P V (ocf_matmul_ex). It is the composition a user writes without the
   fused kernel, and `oclfuse bench` times it beside the fused call (docs/ATTENTION.md). Each call
   waits for the one before it, so that the last one's event covers the whole on any queue, and
   only the last writes out: a later call that fails leaves the earlier ones writing scratch
   alone, as the library's other calls of several kernels do. */
#include "ops/attention_unfused.h"

#include "runtime/context.h"
#include "runtime/workspace.h"

#include <stdint.h>

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

ocf_status ocf_attention_unfused(ocf_context *ctx, const ocf_attention_frame *f,
                                 const ocf_attention_options *opt, const ocf_launch *settings) {
  const products qk = products_of(f, f->q_sb, f->q_sh, f->q_sr, f->k_sb, f->k_sh);
  const products pv = products_of(f, f->out_sb, f->out_sh, f->out_sr, f->v_sb, f->v_sh);
  ocf_status status = refuse_unexpressed(f, opt, &pv);
  if (status != OCF_SUCCESS) return status;
  const size_t rows = f->b * f->h * f->lq, head_scores = f->lq * f->lk;
  const ocf_precision precision =
      opt->q_dtype == OCF_F32 && opt->k_dtype == OCF_F32 && opt->v_dtype == OCF_F32
          ? opt->precision
          : OCF_PRECISION_FP32;
  cl_mem scores = NULL; /* none without keys: out = 0 V, a product of k = 0 */
  if (f->lk &&
      (status = ocf_scratch_create(ctx, rows * f->lk * sizeof(float), &scores)) != OCF_SUCCESS)
    return status;

  cl_event previous = NULL, done = NULL;
  int first_given = 0;
  ocf_launch step;
  ocf_matmul_options mo = OCF_MATMUL_OPTIONS_INIT;
  mo.precision = precision;
  if (scores) {
    mo.a_dtype = opt->q_dtype, mo.b_dtype = opt->k_dtype, mo.c_dtype = OCF_F32;
    mo.batch = qk.batch;
    mo.stride_a = f->group * f->q_sh, mo.stride_b = f->k_sh, mo.stride_c = f->group * head_scores;
    for (size_t bi = 0; bi < qk.calls_b && status == OCF_SUCCESS; bi++)
      for (size_t g = 0; g < qk.calls_g && status == OCF_SUCCESS; g++) {
        step = step_launch(settings, previous ? &previous : NULL, &done);
        status = chain(ocf_matmul_ex(ctx, OCF_NO_TRANS, OCF_TRANS, qk.rows, f->lk, f->d, f->scale,
                                     f->q, f->q_off + bi * f->q_sb + g * f->q_sh, f->q_sr, f->k,
                                     f->k_off + bi * f->k_sb, f->k_sr, 0.0f, scores,
                                     (bi * f->h + g) * head_scores, f->lk, &mo, &step),
                       &previous, &done, &step, &first_given);
      }
    ocf_softmax_options so = OCF_SOFTMAX_OPTIONS_INIT;
    so.causal = opt->causal != 0;
    so.causal_period = so.causal ? f->lq : 0;
    so.causal_offset = so.causal ? f->causal_offset : 0;
    if (status == OCF_SUCCESS) {
      step = step_launch(settings, &previous, &done);
      status =
          chain(ocf_softmax_ex(ctx, rows, f->lk, scores, 0, f->lk, scores, 0, f->lk, &so, &step),
                &previous, &done, &step, &first_given);
    }
  }
  if (status == OCF_SUCCESS) {
    mo.a_dtype = scores ? OCF_F32 : opt->v_dtype, mo.b_dtype = opt->v_dtype;
    mo.c_dtype = opt->out_dtype;
    mo.batch = pv.batch;
    mo.stride_a = f->group * head_scores, mo.stride_b = f->v_sh, mo.stride_c = f->group * f->out_sh;
    step = step_launch(settings, previous ? &previous : NULL, &done);
    status = chain(ocf_matmul_ex(ctx, OCF_NO_TRANS, OCF_NO_TRANS, pv.rows, f->d, f->lk, 1.0f,
                                 scores ? scores : f->v, 0, scores ? f->lk : 1, f->v, f->v_off,
                                 f->v_sr, 0.0f, f->out, f->out_off, f->out_sr, &mo, &step),
                   &previous, &done, &step, &first_given);
  }

  if (status != OCF_SUCCESS && first_given) {
    /* A later call failed: the caller gets no event on failure. */
    clReleaseEvent(*settings->first_event);
    *settings->first_event = NULL;
  }
  if (scores) ocf_release_after(scores, previous);
  if (previous && status == OCF_SUCCESS && settings->event)
    *settings->event = previous;
  else if (previous)
    clReleaseEvent(previous);
  return status;
}
