/* Test kernels built on the library's own kernel fragments: tests/fragment_build.h. */
#include "fragment_build.h"

#include <stdio.h>
#include <string.h>

const char *ocft_fragment(ocf_program_id program, const char *name) {
  const ocf_program_source *source = ocf_program_source_get(program);
  assert_non_null(source);
  for (unsigned i = 0; i < source->count; i++)
    if (strcmp(source->files[i], name) == 0) return source->texts[i];
  fail_msg("program %d has no file %s", (int)program, name);
  return NULL;
}

cl_program ocft_build_texts(const ocft_env *env, const char *const *texts, unsigned count,
                            const char *options) {
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(env->cl, count, (const char **)texts, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  err = clBuildProgram(program, 1, &env->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(program, env->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fail_msg("build with %s failed (%d):\n%s", options, err, log);
  }
  return program;
}

cl_mem ocft_bytes_buffer(const ocft_env *env, size_t bytes, const void *data) {
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(env->cl, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            (void *)data, &err);
  assert_int_equal(err, CL_SUCCESS);
  return b;
}
