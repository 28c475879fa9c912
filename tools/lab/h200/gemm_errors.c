/* gemm_errors.c (issue 18): the library's half of each GEMM mode's error report. For one shape
   (m n k, C = A B, A m x k and B k x n row-major) it draws A and B uniform in [-1, 1) from a
   fixed generator, stores them in each mode's input type, runs ocf_matmul_host_ex on the first
   GPU and writes, under DIR, MODE.a and MODE.b (the inputs as the library read them: f32, f16
   or bf16 bits) and MODE.c (C as fp32, and MODE.c16 with C in the inputs' 16-bit type for the
   16-bit modes), raw little-endian, no header. tools/lab/h200/gemm_errors.py reads them, computes
   the fp64 reference and cuBLAS's result on the same inputs, and prints the errors.
   usage: gemm_errors DIR m n k   (modes: bf16, f16, tf32, 3xtf32, fp32) */
#define CL_TARGET_OPENCL_VERSION 300
#include <oclfuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_file(const char *dir, const char *mode, const char *ext, const void *data,
                      size_t bytes) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.%s", dir, mode, ext);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, bytes, f) != bytes) {
    fprintf(stderr, "gemm_errors: cannot write %s\n", path);
    if (f) fclose(f);
    return 1;
  }
  return fclose(f) != 0;
}

/* Uniform in [-1, 1) from a 64-bit linear congruential generator (fixed: the same inputs in
   every run). */
static void fill(float *x, size_t count, uint64_t seed) {
  for (size_t i = 0; i < count; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (float)((double)(seed >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
  }
}

/* One mode: inputs converted to `in` (f32 left as they are), C in fp32 and, for 16-bit inputs,
   in their type too. */
static int run_mode(ocf_context *ctx, const char *dir, const char *mode, ocf_dtype in,
                    ocf_precision precision, const float *a, const float *b, size_t m, size_t n,
                    size_t k) {
  const size_t esize = in == OCF_F32 ? 4 : 2;
  void *a_in = malloc(m * k * esize), *b_in = malloc(k * n * esize);
  float *c = malloc(m * n * sizeof(float));
  cl_ushort *c16 = malloc(m * n * sizeof(cl_ushort));
  int failed = !a_in || !b_in || !c || !c16;
  if (!failed) {
    if (in == OCF_F32) {
      memcpy(a_in, a, m * k * 4), memcpy(b_in, b, k * n * 4);
    } else if (in == OCF_F16) {
      ocf_float_to_half(m * k, a, a_in), ocf_float_to_half(k * n, b, b_in);
    } else {
      ocf_float_to_bfloat16(m * k, a, a_in), ocf_float_to_bfloat16(k * n, b, b_in);
    }
    ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
    o.a_dtype = o.b_dtype = in;
    o.precision = precision;
    o.c_dtype = OCF_F32;
    ocf_status s = ocf_matmul_host_ex(ctx, OCF_NO_TRANS, OCF_NO_TRANS, m, n, k, 1.0f, a_in, k, b_in,
                                      n, 0.0f, c, n, NULL, &o);
    if (s == OCF_SUCCESS && in != OCF_F32) {
      o.c_dtype = in;
      s = ocf_matmul_host_ex(ctx, OCF_NO_TRANS, OCF_NO_TRANS, m, n, k, 1.0f, a_in, k, b_in, n, 0.0f,
                             c16, n, NULL, &o);
    }
    if (s != OCF_SUCCESS) {
      fprintf(stderr, "gemm_errors: %s: %s\n", mode, ocf_last_error());
      failed = 1;
    } else {
      printf("%s: %s\n", mode, ocf_last_plan());
      failed = write_file(dir, mode, "a", a_in, m * k * esize) ||
               write_file(dir, mode, "b", b_in, k * n * esize) ||
               write_file(dir, mode, "c", c, m * n * sizeof(float)) ||
               (in != OCF_F32 && write_file(dir, mode, "c16", c16, m * n * 2));
    }
  }
  free(a_in), free(b_in), free(c), free(c16);
  return failed;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: gemm_errors DIR m n k\n");
    return 2;
  }
  const char *dir = argv[1];
  const size_t m = strtoull(argv[2], NULL, 10), n = strtoull(argv[3], NULL, 10),
               k = strtoull(argv[4], NULL, 10);
  ocf_context *ctx;
  if (ocf_context_create(NULL, &ctx) != OCF_SUCCESS) {
    fprintf(stderr, "gemm_errors: %s\n", ocf_last_error());
    return 1;
  }
  float *a = malloc(m * k * sizeof(float)), *b = malloc(k * n * sizeof(float));
  if (!a || !b) return 1;
  fill(a, m * k, 1), fill(b, k * n, 2);
  static const struct {
    const char *name;
    ocf_dtype in;
    ocf_precision precision;
  } modes[] = {{"bf16", OCF_BF16, OCF_PRECISION_FP32},
               {"f16", OCF_F16, OCF_PRECISION_FP32},
               {"tf32", OCF_F32, OCF_PRECISION_TF32},
               {"3xtf32", OCF_F32, OCF_PRECISION_3XTF32},
               {"fp32", OCF_F32, OCF_PRECISION_FP32}};
  int failed = 0;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    failed |= run_mode(ctx, dir, modes[i].name, modes[i].in, modes[i].precision, a, b, m, n, k);
  free(a), free(b);
  ocf_context_release(ctx);
  return failed;
}
