/*
 * Fused attention on device buffers: out = softmax(Q K^T / sqrt(d) + causal mask) V for 2 query
 * heads that share 1 key/value head (grouped-query attention), 4 queries, 4 keys, head dim 8.
 *
 * The queries are all zero, so every kept key scores 0 and gets the same weight: query i, which
 * the causal mask lets see keys 0 .. i, averages the value rows 0 .. i. With value row j filled
 * with j, out row i is i / 2, and its log-sum-exp is log(i + 1).
 */
#include <oclfuse.h>
#include <stdio.h>

enum { B = 1, H = 2, H_KV = 1, LQ = 4, LK = 4, D = 8 };

/* A device buffer holding `count` floats copied from `data`. */
static cl_mem buffer_of(ocf_context *ctx, size_t count, float *data) {
  cl_int err = CL_SUCCESS;
  return clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        count * sizeof(float), data, &err);
}

int main(void) {
  ocf_context *ctx = NULL;
  ocf_status status = ocf_context_create(NULL, &ctx); /* OCLFUSE_DEVICE, else first GPU */
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "%s: %s\n", ocf_status_name(status), ocf_last_error());
    return 1;
  }
  /* Dense tensors: q and out [B, H, LQ, D], k and v [B, H_KV, LK, D]. */
  static float q[B * H * LQ * D], k[B * H_KV * LK * D], v[B * H_KV * LK * D];
  static float out[B * H * LQ * D], lse[B * H * LQ];
  for (int j = 0; j < LK; j++)
    for (int c = 0; c < D; c++) {
      k[j * D + c] = (float)(c - j); /* any keys: zero queries score 0 against all of them */
      v[j * D + c] = (float)j;
    }
  cl_mem qb = buffer_of(ctx, B * H * LQ * D, q), kb = buffer_of(ctx, B * H_KV * LK * D, k);
  cl_mem vb = buffer_of(ctx, B * H_KV * LK * D, v), ob = buffer_of(ctx, B * H * LQ * D, out);
  cl_mem lb = buffer_of(ctx, B * H * LQ, lse);

  ocf_attention_options options = OCF_ATTENTION_OPTIONS_INIT; /* scale 1 / sqrt(D), fp32 */
  options.causal = 1; /* query i sees keys j <= i + (LK - LQ) */
  options.lse = lb;   /* also write each row's log-sum-exp */
  ocf_launch launch = OCF_LAUNCH_INIT;
  cl_event done = NULL;
  launch.event = &done;
  /* NULL strides: dense [b, h, l, d]; offsets 0. */
  status = ocf_attention(ctx, B, H, H_KV, LQ, LK, D, qb, 0, NULL, kb, 0, NULL, vb, 0, NULL, ob, 0,
                         NULL, &options, &launch);
  if (status == OCF_SUCCESS) {
    cl_command_queue queue = ocf_context_queue(ctx);
    clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof out, out, 1, &done, NULL);
    clEnqueueReadBuffer(queue, lb, CL_TRUE, 0, sizeof lse, lse, 1, &done, NULL);
    clReleaseEvent(done);
    for (int head = 0; head < H; head++)
      for (int i = 0; i < LQ; i++)
        printf("head %d query %d: out %.3f lse %.3f\n", head, i, out[(head * LQ + i) * D],
               lse[head * LQ + i]);
  } else {
    fprintf(stderr, "%s: %s\n", ocf_status_name(status), ocf_last_error());
  }
  clReleaseMemObject(qb), clReleaseMemObject(kb), clReleaseMemObject(vb);
  clReleaseMemObject(ob), clReleaseMemObject(lb);
  ocf_context_release(ctx);
  return status == OCF_SUCCESS ? 0 : 1;
}
