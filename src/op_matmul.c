/* ocf_matmul: placeholder until the matmul dispatch lands. */
#include "internal.h"

ocf_status ocf_matmul(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                      size_t n, size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda,
                      cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                      size_t ldc, const ocf_launch *launch) {
  (void)ctx, (void)trans_a, (void)trans_b, (void)m, (void)n, (void)k, (void)alpha, (void)a,
      (void)a_offset, (void)lda, (void)b, (void)b_offset, (void)ldb, (void)beta, (void)c,
      (void)c_offset, (void)ldc, (void)launch;
  return ocf_fail(OCF_ERR_UNSUPPORTED, "ocf_matmul: not built yet");
}

ocf_status ocf_matmul_host(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                           size_t n, size_t k, float alpha, const float *a, size_t lda,
                           const float *b, size_t ldb, float beta, float *c, size_t ldc) {
  (void)ctx, (void)trans_a, (void)trans_b, (void)m, (void)n, (void)k, (void)alpha, (void)a,
      (void)lda, (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
  return ocf_fail(OCF_ERR_UNSUPPORTED, "ocf_matmul_host: not built yet");
}
