/*
 * The kernels' fp16 vector access, each F16_CVT (cl/f16_words.clh): 0 integer arithmetic
 * (cl/softmax_vector.clh: f16_unpack, f16_pack), 1 vload_halfN / vstore_halfN_rte on a private
 * copy of whole words, 2 inline PTX (NVIDIA only), against the harness's references
 * (harness/storage16.c), bit for bit: every one of the 65536 halves to float, and 2^24 floats to
 * half (every exponent with mantissas that land on, next to and halfway between halves,
 * subnormals, the overflow edge at 65520, infinities and NaNs). A NaN must stay a NaN; only
 * F16_CVT 0 promises its payload and sign (the hardware's conversions may give their own NaN).
 * The fragments are built as the library builds them (common.cl, softmax_common.clh,
 * f16_words.clh, softmax_vector.clh, from the embedded sources) with a small kernel of this
 * test's own after them, for each vector width. norm.cl takes the same f16_words.clh for
 * F16_CVT 1 and 2.
 *
 * F16_CVT 2 is built only where OCFT_F16_CVT_PTX is set (ctest's test_f16_vectors_ptx, label
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
    "__kernel void unpack_all(__global const ushort *in, __global uint *out) {\n"
    "  const size_t k = get_global_id(0);\n"
    "  ((__global uintV *)out)[k] = OCF_CAT(as_uint, VW)(LOADA_1((__global const half *)in, k));\n"
    "}\n"
    "__kernel void pack_all(__global const uint *in, __global ushort *out) {\n"
    "  const size_t k = get_global_id(0);\n"
    "  const floatV v = OCF_CAT(as_float, VW)(((__global const uintV *)in)[k]);\n"
    "  STOREA_1((__global half *)out, k, v);\n"
    "}\n"
    "__kernel void unpack_words(__global const ushort *in, __global uint *out) {\n"
    "  const size_t k = get_global_id(0);\n"
    "  const pairV w = ((__global const pairV *)in)[k];\n"
    "  ((__global uintV *)out)[k] = OCF_CAT(as_uint, VW)(F16_UNPACK(w));\n"
    "}\n"
    "__kernel void pack_words(__global const uint *in, __global ushort *out) {\n"
    "  const size_t k = get_global_id(0);\n"
    "  const floatV v = OCF_CAT(as_float, VW)(((__global const uintV *)in)[k]);\n"
    "  ((__global pairV *)out)[k] = F16_PACK(v);\n"
    "}\n";

static cl_program build(const ocft_env *env, int vw, int cvt) {
  const char *const texts[5] = {ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "common.cl"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "softmax_common.clh"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "f16_words.clh"),
                                ocft_fragment(OCF_PROGRAM_SOFTMAX_ROWS, "softmax_vector.clh"),
                                test_kernels};
  char options[256];
  snprintf(options, sizeof options,
           "-DVW=%d -DWG=64 -DIN_DTYPE=1 -DOUT_DTYPE=1 -DLOG=0 -DHAS_LENGTHS=0 -DCAUSAL=0 "
           "-DPACKED=0 -DF16_CVT=%d",
           vw, cvt);
  return ocft_build_texts(env, texts, 5, options);
}

/* Runs kernel `name` of `program` over `count` elements (count / vw work-items). */
static void run(const ocft_env *env, cl_program program, const char *name, cl_mem in, cl_mem out,
                size_t count, int vw) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clSetKernelArg(kernel, 0, sizeof in, &in), CL_SUCCESS);
  assert_int_equal(clSetKernelArg(kernel, 1, sizeof out, &out), CL_SUCCESS);
  const size_t global = count / (size_t)vw;
  assert_int_equal(
      clEnqueueNDRangeKernel(env->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseKernel(kernel);
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static int is_nan_bits(uint32_t u) {
  return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0;
}

static int is_nan_half(uint16_t h) {
  return (h & 0x7c00u) == 0x7c00u && (h & 0x03ffu) != 0;
}

/* Every half to float. A NaN must stay a NaN, with its payload (the bits shifted up) for
   F16_CVT 0. */
static void unpack_every_half(const ocft_env *env, cl_program program, const char *kernel, int vw,
                              int cvt) {
  enum { COUNT = 65536 };
  uint16_t *halves = malloc(COUNT * sizeof *halves);
  uint32_t *got = malloc(COUNT * sizeof *got);
  assert_non_null(halves);
  assert_non_null(got);
  for (uint32_t i = 0; i < COUNT; i++)
    halves[i] = (uint16_t)i;
  cl_mem in = ocft_bytes_buffer(env, COUNT * sizeof *halves, halves);
  cl_mem out = ocft_bytes_buffer(env, COUNT * sizeof *got, NULL);
  run(env, program, kernel, in, out, COUNT, vw);
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, COUNT * sizeof *got, got, 0, NULL, NULL),
      CL_SUCCESS);
  for (uint32_t i = 0; i < COUNT; i++) {
    const uint32_t want = bits_of(ocf_ref_f16_to_float((uint16_t)i));
    if (got[i] != want && !(cvt != 0 && is_nan_bits(want) && is_nan_bits(got[i])))
      fail_msg("%s VW=%d F16_CVT=%d: half 0x%04x unpacks to 0x%08x, the reference to 0x%08x",
               kernel, vw, cvt, i, got[i], want);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  free(got);
  free(halves);
}

/* 2^24 floats to half: for every sign and 8-bit exponent, the mantissas m * 2^13 + t for t in
   {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff} around each of 2^10 halves' boundaries (on a half, just
   past it, just below, exactly halfway, just past halfway, just below the next) and m walking
   the 10 kept bits. */
static void pack_floats(const ocft_env *env, cl_program program, const char *kernel, int vw,
                        int cvt) {
  static const uint32_t tails[8] = {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x800, 0x17ff};
  const size_t count = (size_t)2 * 256 * 1024 * 8; /* 2^22 floats a pass */
  uint32_t *floats = malloc(count * sizeof *floats);
  uint16_t *got = malloc(count * sizeof *got);
  assert_non_null(floats);
  assert_non_null(got);
  size_t n = 0;
  for (uint32_t sign = 0; sign < 2; sign++)
    for (uint32_t exponent = 0; exponent < 256; exponent++)
      for (uint32_t kept = 0; kept < 1024; kept++)
        for (int t = 0; t < 8; t++)
          floats[n++] = (sign << 31) | (exponent << 23) | (kept << 13) | tails[t];
  cl_mem in = ocft_bytes_buffer(env, count * sizeof *floats, floats);
  cl_mem out = ocft_bytes_buffer(env, count * sizeof *got, NULL);
  run(env, program, kernel, in, out, count, vw);
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, count * sizeof *got, got, 0, NULL, NULL),
      CL_SUCCESS);
  for (size_t i = 0; i < count; i++) {
    float f;
    memcpy(&f, &floats[i], sizeof f);
    /* A float below 2^-126 is a subnormal a device may flush to zero: the half is then zero
       either way (2^-126 is far below half of fp16's least subnormal, 2^-25). */
    const uint16_t want = ocf_ref_f16_from_float(f);
    if (got[i] != want && !(cvt != 0 && is_nan_half(want) && is_nan_half(got[i])))
      fail_msg("%s VW=%d F16_CVT=%d: float 0x%08x (%a) packs to 0x%04x, the reference to "
               "0x%04x",
               kernel, vw, cvt, floats[i], (double)f, got[i], want);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  free(got);
  free(floats);
}

/* Whether this run checks the inline PTX (F16_CVT 2) instead of the portable paths. */
static int ptx_run(void) {
  const char *v = getenv("OCFT_F16_CVT_PTX");
  return v && *v && strcmp(v, "0") != 0;
}

static void test_f16_vectors_exact(void **state) {
  const ocft_env *env = ocft_get_env(state);
  static const int widths[] = {2, 4, 8, 16};
  const size_t passes = ocft_small() ? 1 : sizeof widths / sizeof widths[0];
  const int first = ptx_run() ? 2 : 0, last = ptx_run() ? 2 : 1;
  for (int cvt = first; cvt <= last; cvt++)
    for (size_t w = 0; w < passes; w++) {
      const int vw = ocft_small() ? 8 : widths[w];
      cl_program program = build(env, vw, cvt);
      /* A row's vectors (load and store), and held words (softmax's PACKED) in registers. */
      unpack_every_half(env, program, "unpack_all", vw, cvt);
      unpack_every_half(env, program, "unpack_words", vw, cvt);
      if (!ocft_small()) {
        pack_floats(env, program, "pack_all", vw, cvt);
        pack_floats(env, program, "pack_words", vw, cvt);
      }
      clReleaseProgram(program);
    }
}

/* An NVIDIA GPU of compute capability 8.0 on (cvt.rn.f16x2.f32), as the planner's gate. */
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
    printf("no NVIDIA GPU of compute capability 8.0 or more: F16_CVT 2 skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_f16_vectors_exact)};
  return cmocka_run_group_tests_name("f16_vectors", tests, ocft_group_setup, ocft_group_teardown);
}
