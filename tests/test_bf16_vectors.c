/*
 * The kernels' bfloat16 vector stores, each BF16_CVT (cl/bf16_words.clh): 0 integer arithmetic
 * (softmax_vector.clh's bf16_pack, norm.cl's OCF_STOREV into a private copy of the words), 1
 * inline PTX cvt.rn.bf16x2.f32 (NVIDIA only), against the harness's reference
 * (harness/storage16.c), bit for bit: for every sign, 8-bit exponent and 7 kept mantissa bits,
 * the low 16 bits on the boundary, just past it, just below halfway, halfway (the ties), just
 * past halfway and just below the next (so subnormals, -0, the overflow edge at 0x7f7f8000,
 * infinities and NaNs among them), each vector width; and the scalar store (ocf_float_to_bf16:
 * VW 1 and a row's partial last vector) on the same floats. A NaN must stay a NaN; only
 * BF16_CVT 0 promises its payload and sign (the PTX may give its own NaN). A few values whose
 * bfloat16 is worked out by hand check the reference itself.
 *
 * The fragments are built as the library builds them (common.cl, softmax_common.clh,
 * f16_words.clh, bf16_words.clh, softmax_vector.clh, from the embedded sources) with a small
 * kernel of this test's own after them: pack_all is softmax's row store (STOREA_2), pack_words
 * norm's (bf16_words_store).
 *
 * BF16_CVT 1 is built only where OCFT_BF16_CVT_PTX is set (ctest's test_bf16_vectors_ptx, label
 * "nvidia": PoCL aborts the whole process on inline PTX), and then alone; on anything but an
 * NVIDIA GPU of compute capability 8.0 on, that run exits 77 (skipped).
 */
#include "fragment_build.h"
#include "storage16.h"
#include "test_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char test_kernels[] =
    "__kernel void pack_all(__global const uint *in, __global ushort *out) {\n"
    "  const size_t k = get_global_id(0);\n"
    "  const floatV v = OCF_CAT(as_float, VW)(((__global const uintV *)in)[k]);\n"
    "  STOREA_2(out, k, v);\n"
    "}\n"
    "__kernel void pack_words(__global const uint *in, __global ushort *out) {\n"
    "  const size_t k = get_global_id(0);\n"
    "  const floatV v = OCF_CAT(as_float, VW)(((__global const uintV *)in)[k]);\n"
    "  bf16_words_store((__global bf16_wordsV *)out, k, v);\n"
    "}\n"
    "__kernel void pack_scalar(__global const uint *in, __global ushort *out) {\n"
    "  const size_t i = get_global_id(0);\n"
    "  OCF_STORE(2, out, i, as_float(in[i]));\n"
    "}\n";

static cl_program build(const ocft_env *env, int vw, int cvt) {
  const char *const texts[6] = {ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "common.cl"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "softmax_common.clh"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "f16_words.clh"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "bf16_words.clh"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "softmax_vector.clh"),
                                test_kernels};
  char options[256];
  snprintf(options, sizeof options,
           "-DVW=%d -DWG=64 -DIN_DTYPE=2 -DOUT_DTYPE=2 -DLOG=0 -DHAS_LENGTHS=0 -DCAUSAL=0 "
           "-DPACKED=0 -DF16_CVT=0 -DBF16_CVT=%d",
           vw, cvt);
  return ocft_build_texts(env, texts, 6, options);
}

static int is_nan_bf16(uint16_t h) {
  return (h & 0x7f80u) == 0x7f80u && (h & 0x007fu) != 0;
}

/* The floats of the sweep: sign, exponent, the 7 kept bits (all 128, or a few when small) and
   the low 16 bits from `tails`. */
static const uint32_t tails[8] = {0, 1, 0x4000, 0x7fff, 0x8000, 0x8001, 0xc000, 0xffff};
static const uint32_t few_kept[8] = {0, 1, 2, 0x3f, 0x40, 0x41, 0x7e, 0x7f};

static size_t sweep(uint32_t *floats) {
  const int small = ocft_small();
  size_t n = 0;
  for (uint32_t sign = 0; sign < 2; sign++)
    for (uint32_t exponent = 0; exponent < 256; exponent++)
      for (uint32_t k = 0; k < (small ? 8u : 128u); k++)
        for (int t = 0; t < 8; t++)
          floats[n++] =
              (sign << 31) | (exponent << 23) | ((small ? few_kept[k] : k) << 16) | tails[t];
  return n;
}

/* Runs kernel `name` of `program` on `count` floats (count / vw work-items) and checks every
   bfloat16 against the reference. */
static void pack_floats(const ocft_env *env, cl_program program, const char *name,
                        const uint32_t *floats, size_t count, int vw, int cvt) {
  uint16_t *got = malloc(count * sizeof *got);
  assert_non_null(got);
  cl_mem in = ocft_bytes_buffer(env, count * sizeof *floats, floats);
  cl_mem out = ocft_bytes_buffer(env, count * sizeof *got, NULL);
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clSetKernelArg(kernel, 0, sizeof in, &in), CL_SUCCESS);
  assert_int_equal(clSetKernelArg(kernel, 1, sizeof out, &out), CL_SUCCESS);
  const size_t global = count / (size_t)vw;
  assert_int_equal(
      clEnqueueNDRangeKernel(env->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, count * sizeof *got, got, 0, NULL, NULL),
      CL_SUCCESS);
  clReleaseKernel(kernel);
  for (size_t i = 0; i < count; i++) {
    const float f = ocf_ref_float_of(floats[i]);
    const uint16_t want = ocf_ref_bf16_from_float(f);
    const int nan_ok = isnan(f) && is_nan_bf16(got[i]) && (cvt != 0 || got[i] == want);
    if (got[i] != want && !nan_ok)
      fail_msg("%s VW=%d BF16_CVT=%d: float 0x%08x (%a) stores 0x%04x, the reference 0x%04x", name,
               vw, cvt, floats[i], (double)f, got[i], want);
    if (isnan(f) && !is_nan_bf16(got[i]))
      fail_msg("%s VW=%d BF16_CVT=%d: NaN 0x%08x stores 0x%04x, no NaN", name, vw, cvt, floats[i],
               got[i]);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  free(got);
}

/* The reference on values worked out by hand: ties to even (down and up), the carry into the
   exponent, the overflow edge, subnormals (kept, ties to even), -0, infinities, a NaN whose
   payload lies only in the low bits (it must not round to an infinity). */
static void test_bf16_vectors_reference(void **state) {
  (void)state;
  static const uint32_t cases[][2] = {
      {0x3f800000u, 0x3f80u}, /* 1 */
      {0x3f808000u, 0x3f80u}, /* 1 + 2^-8: halfway, to the even 1 */
      {0x3f818000u, 0x3f82u}, /* halfway above an odd value: up */
      {0x3f808001u, 0x3f81u}, /* just past halfway: up */
      {0x3fff8000u, 0x4000u}, /* halfway below 2, to even: the carry makes 2 */
      {0x7f7f7fffu, 0x7f7fu}, /* just below the edge: bfloat16's largest finite */
      {0x7f7f8000u, 0x7f80u}, /* the edge (halfway to the next binade): infinity */
      {0xff7f8000u, 0xff80u}, /* and -infinity */
      {0x7f7fffffu, 0x7f80u}, /* float's largest finite: infinity */
      {0x00008000u, 0x0000u}, /* subnormal halfway to the least bfloat16 subnormal: to 0 */
      {0x00018000u, 0x0002u}, /* subnormal halfway above an odd one: up */
      {0x00010000u, 0x0001u}, /* the least bfloat16 subnormal, exact */
      {0x80010001u, 0x8001u}, /* negative subnormal, just past it: down */
      {0x807fffffu, 0x8080u}, /* the largest negative subnormal rounds to -2^-126 */
      {0x80000000u, 0x8000u}, /* -0 */
      {0x7f800000u, 0x7f80u}, /* inf */
      {0xff800000u, 0xff80u}, /* -inf */
      {0x7f800001u, 0x7fc0u}, /* a NaN of low payload: quiet, not inf */
      {0xffc12345u, 0xffc1u}, /* a negative NaN keeps its sign and top payload */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const uint16_t got = ocf_ref_bf16_from_float(ocf_ref_float_of(cases[i][0]));
    if (got != cases[i][1])
      fail_msg("reference: 0x%08x gives 0x%04x, by hand 0x%04x", cases[i][0], got, cases[i][1]);
  }
}

/* Whether this run checks the inline PTX (BF16_CVT 1) instead of the portable path. */
static int ptx_run(void) {
  const char *v = getenv("OCFT_BF16_CVT_PTX");
  return v && *v && strcmp(v, "0") != 0;
}

static void test_bf16_vectors_exact(void **state) {
  const ocft_env *env = ocft_get_env(state);
  static const int widths[] = {2, 4, 8, 16};
  const size_t passes = ocft_small() ? 1 : sizeof widths / sizeof widths[0];
  const int cvt = ptx_run() ? 1 : 0;
  uint32_t *floats = malloc((size_t)2 * 256 * 128 * 8 * sizeof *floats);
  assert_non_null(floats);
  const size_t count = sweep(floats);
  for (size_t w = 0; w < passes; w++) {
    const int vw = ocft_small() ? 8 : widths[w];
    cl_program program = build(env, vw, cvt);
    pack_floats(env, program, "pack_all", floats, count, vw, cvt);
    pack_floats(env, program, "pack_words", floats, count, vw, cvt);
    if (w == 0) pack_floats(env, program, "pack_scalar", floats, count, 1, 0);
    clReleaseProgram(program);
  }
  free(floats);
}

/* An NVIDIA GPU of compute capability 8.0 on (cvt.rn.bf16x2.f32), as the planner's gate. */
static int ptx_device(void) {
  ocf_context *ctx = NULL;
  if (ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &ctx) != OCF_SUCCESS) return 0;
  ocf_device_info info;
  ocf_device_info_init(&info);
  const int ok = ocf_context_device_info(ctx, &info) == OCF_SUCCESS &&
                 (info.type & CL_DEVICE_TYPE_GPU) && strstr(info.vendor, "NVIDIA") &&
                 info.nv_compute_capability_major >= 8;
  ocf_context_release(ctx);
  return ok;
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  if (ptx_run() && !ptx_device()) {
    printf("no NVIDIA GPU of compute capability 8.0 or more: BF16_CVT 1 skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_bf16_vectors_reference),
                                     cmocka_unit_test(test_bf16_vectors_exact)};
  return cmocka_run_group_tests_name("bf16_vectors", tests, ocft_group_setup, ocft_group_teardown);
}
