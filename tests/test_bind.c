/*
 * Argument binding by descriptor (src/runtime/bind.c): a kernel keeps what each argument holds
 * and does not set an unchanged scalar again. Two arguments may read the same frame field
 * (matmul_wgmma_sab's lda and ldb are both the staged operands' lds): each must follow the field
 * on every call. Before the held values were kept per argument (they were kept per frame field),
 * the second of two such arguments kept its first value once the field changed: on the H200 the
 * staged 3XTF32 GEMM read B' with the previous call's leading dimension (test_matmul_staged,
 * 257 x 300 x 251 after 256^3; 2026-12-02).
 */
#include "test_common.h"

#include "runtime/program_cache.h"

#include <stddef.h>
#include <string.h>

static const char *pair_source =
    "__kernel void pair(ulong first, ulong second, float scale, __global ulong *out) {\n"
    "  out[0] = first;\n"
    "  out[1] = second;\n"
    "  out[2] = (ulong)scale;\n"
    "}\n";

/* The frame of `pair`: `first` and `second` both read `shared`. */
typedef struct pair_frame {
  cl_ulong shared;
  cl_float scale;
  cl_mem out;
} pair_frame;

static const ocf_arg_desc pair_args[] = {{"first", OCF_ARG_ULONG, offsetof(pair_frame, shared)},
                                         {"second", OCF_ARG_ULONG, offsetof(pair_frame, shared)},
                                         {"scale", OCF_ARG_FLOAT, offsetof(pair_frame, scale)},
                                         {"out", OCF_ARG_BUFFER, offsetof(pair_frame, out)}};

static const ocf_kernel_desc pair_desc = {
    OCF_KERNEL_ADD_GENERAL, "pair", OCF_PROGRAM_ADD, NULL, pair_args, 4, "tests/test_bind.c"};

/* Binds `frame`, runs the kernel once and reads what it saw. */
static void run_pair(const ocft_env *env, ocf_built_kernel *kernel, const pair_frame *frame,
                     cl_ulong seen[3]) {
  ocft_assert_status(ocf_bind_arguments(kernel, frame), OCF_SUCCESS);
  const size_t one = 1;
  assert_int_equal(
      clEnqueueNDRangeKernel(env->queue, kernel->kernel, 1, NULL, &one, &one, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(env->queue, frame->out, CL_TRUE, 0, 3 * sizeof(cl_ulong),
                                       seen, 0, NULL, NULL),
                   CL_SUCCESS);
}

static void test_bind_shared_field(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_int err;
  cl_program program = clCreateProgramWithSource(env->cl, 1, &pair_source, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clBuildProgram(program, 1, &env->device, "-cl-kernel-arg-info", NULL, NULL),
                   CL_SUCCESS);
  ocf_built_kernel kernel;
  memset(&kernel, 0, sizeof kernel);
  kernel.desc = &pair_desc;
  kernel.kernel = clCreateKernel(program, "pair", &err);
  assert_int_equal(err, CL_SUCCESS);
  pair_frame frame = {7, 2.0f,
                      clCreateBuffer(env->cl, CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong), NULL, &err)};
  assert_int_equal(err, CL_SUCCESS);

  /* Each call sees the frame's values in every argument, the shared field's in both. */
  static const struct {
    cl_ulong shared;
    cl_float scale;
  } calls[] = {{7, 2.0f}, {9, 2.0f}, {9, 3.0f}, {7, 3.0f}, {7, 3.0f}};
  for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
    frame.shared = calls[c].shared, frame.scale = calls[c].scale;
    cl_ulong seen[3] = {0, 0, 0};
    run_pair(env, &kernel, &frame, seen);
    if (seen[0] != calls[c].shared || seen[1] != calls[c].shared ||
        seen[2] != (cl_ulong)calls[c].scale) {
      print_error("call %zu: the kernel saw first %llu, second %llu, scale %llu; the frame holds "
                  "%llu and %g\n",
                  c, (unsigned long long)seen[0], (unsigned long long)seen[1],
                  (unsigned long long)seen[2], (unsigned long long)calls[c].shared,
                  (double)calls[c].scale);
      fail();
    }
  }
  clReleaseMemObject(frame.out);
  clReleaseKernel(kernel.kernel);
  clReleaseProgram(program);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bind_shared_field),
  };
  return cmocka_run_group_tests_name("bind", tests, ocft_group_setup, ocft_group_teardown);
}
