/* ocf_softmax: placeholder until the softmax dispatch lands. */
#include "internal.h"

ocf_status ocf_softmax(ocf_context *ctx, size_t rows, size_t cols, cl_mem in, size_t in_offset,
                       size_t in_ld, cl_mem out, size_t out_offset, size_t out_ld,
                       const ocf_launch *launch) {
  (void)ctx, (void)rows, (void)cols, (void)in, (void)in_offset, (void)in_ld, (void)out,
      (void)out_offset, (void)out_ld, (void)launch;
  return ocf_fail(OCF_ERR_UNSUPPORTED, "ocf_softmax: not built yet");
}

ocf_status ocf_softmax_host(ocf_context *ctx, size_t rows, size_t cols, const float *in,
                            size_t in_ld, float *out, size_t out_ld) {
  (void)ctx, (void)rows, (void)cols, (void)in, (void)in_ld, (void)out, (void)out_ld;
  return ocf_fail(OCF_ERR_UNSUPPORTED, "ocf_softmax_host: not built yet");
}
