/*
 * The softmax kernels' fp16 vector access in integer arithmetic (cl/softmax_vector.clh:
 * f16_unpack, f16_pack) against the harness's references (harness/storage16.c), bit for bit:
 * every one of the 65536 halves to float, and 2^24 floats to half (every exponent with
 * mantissas that land on, next to and halfway between halves, subnormals, the overflow edge at
 * 65520, infinities and NaNs). The fragment is built as the library builds it (common.cl,
 * softmax_common.clh, softmax_vector.clh, from the embedded sources) with a small kernel of this
 * test's own after it, for each vector width.
 */
#include "runtime/sources.h"
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
    "}\n";

/* The text of file `name` of the softmax_rows program (which holds the vector fragment). */
static const char *fragment(const char *name) {
  const ocf_program_source *source = ocf_program_source_get(OCF_PROGRAM_SOFTMAX_ROWS);
  assert_non_null(source);
  for (unsigned i = 0; i < source->count; i++)
    if (strcmp(source->files[i], name) == 0) return source->texts[i];
  fail_msg("softmax_rows has no file %s", name);
  return NULL;
}

static cl_program build(const ocft_env *env, int vw) {
  const char *texts[4] = {fragment("common.cl"), fragment("softmax_common.clh"),
                          fragment("softmax_vector.clh"), test_kernels};
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(env->cl, 4, texts, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  char options[256];
  snprintf(
      options, sizeof options,
      "-DVW=%d -DWG=64 -DIN_DTYPE=1 -DOUT_DTYPE=1 -DLOG=0 -DHAS_LENGTHS=0 -DCAUSAL=0 -DPACKED=0",
      vw);
  err = clBuildProgram(program, 1, &env->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(program, env->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fail_msg("build with %s failed (%d):\n%s", options, err, log);
  }
  return program;
}

static cl_mem buffer(const ocft_env *env, size_t bytes, const void *data) {
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(env->cl, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            (void *)data, &err);
  assert_int_equal(err, CL_SUCCESS);
  return b;
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

/* Every half to float. A NaN must stay a NaN with its payload (the bits shifted up). */
static void unpack_every_half(const ocft_env *env, cl_program program, int vw) {
  enum { COUNT = 65536 };
  uint16_t *halves = malloc(COUNT * sizeof *halves);
  uint32_t *got = malloc(COUNT * sizeof *got);
  assert_non_null(halves);
  assert_non_null(got);
  for (uint32_t i = 0; i < COUNT; i++)
    halves[i] = (uint16_t)i;
  cl_mem in = buffer(env, COUNT * sizeof *halves, halves);
  cl_mem out = buffer(env, COUNT * sizeof *got, NULL);
  run(env, program, "unpack_all", in, out, COUNT, vw);
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, COUNT * sizeof *got, got, 0, NULL, NULL),
      CL_SUCCESS);
  for (uint32_t i = 0; i < COUNT; i++) {
    const uint32_t want = bits_of(ocf_ref_f16_to_float((uint16_t)i));
    if (got[i] != want)
      fail_msg("VW=%d: half 0x%04x unpacks to 0x%08x, the reference to 0x%08x", vw, i, got[i],
               want);
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
static void pack_floats(const ocft_env *env, cl_program program, int vw) {
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
  cl_mem in = buffer(env, count * sizeof *floats, floats);
  cl_mem out = buffer(env, count * sizeof *got, NULL);
  run(env, program, "pack_all", in, out, count, vw);
  assert_int_equal(
      clEnqueueReadBuffer(env->queue, out, CL_TRUE, 0, count * sizeof *got, got, 0, NULL, NULL),
      CL_SUCCESS);
  for (size_t i = 0; i < count; i++) {
    float f;
    memcpy(&f, &floats[i], sizeof f);
    /* A float below 2^-126 is a subnormal a device may flush to zero: the half is then zero
       either way (2^-126 is far below half of fp16's least subnormal, 2^-25). */
    const uint16_t want = ocf_ref_f16_from_float(f);
    if (got[i] != want)
      fail_msg("VW=%d: float 0x%08x (%a) packs to 0x%04x, the reference to 0x%04x", vw, floats[i],
               (double)f, got[i], want);
  }
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  free(got);
  free(floats);
}

static void test_f16_vectors_exact(void **state) {
  const ocft_env *env = ocft_get_env(state);
  static const int widths[] = {2, 4, 8, 16};
  const size_t passes = ocft_small() ? 1 : sizeof widths / sizeof widths[0];
  for (size_t w = 0; w < passes; w++) {
    const int vw = ocft_small() ? 8 : widths[w];
    cl_program program = build(env, vw);
    unpack_every_half(env, program, vw);
    if (!ocft_small()) pack_floats(env, program, vw);
    clReleaseProgram(program);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_f16_vectors_exact)};
  return cmocka_run_group_tests_name("f16_vectors", tests, ocft_group_setup, ocft_group_teardown);
}
