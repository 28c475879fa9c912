/* The README's example: softmax of a 3 x 5 matrix on the default OpenCL device. */
#include <oclfuse.h>
#include <stdio.h>

int main(void) {
  ocf_context *ctx = NULL;
  ocf_status status = ocf_context_create(NULL, &ctx); /* OCLFUSE_DEVICE, else first GPU */
  if (status != OCF_SUCCESS) {
    fprintf(stderr, "%s: %s\n", ocf_status_name(status), ocf_last_error());
    return 1;
  }
  float logits[3][5] = {{1, 2, 3, 4, 5}, {-1e4f, 0, 1e4f, 0, 0}, {0, 0, 0, 0, 0}};
  float probs[3][5];
  status = ocf_softmax_host(ctx, 3, 5, &logits[0][0], 5, &probs[0][0], 5);
  if (status == OCF_SUCCESS)
    for (int r = 0; r < 3; r++)
      printf("%.4f %.4f %.4f %.4f %.4f\n", probs[r][0], probs[r][1], probs[r][2], probs[r][3],
             probs[r][4]);
  else
    fprintf(stderr, "%s: %s\n", ocf_status_name(status), ocf_last_error());
  ocf_context_release(ctx);
  return status == OCF_SUCCESS ? 0 : 1;
}
