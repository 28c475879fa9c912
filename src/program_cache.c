/* Programs built lazily, once per (source, options) and context; their kernels reused. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kernel_entry {
  struct kernel_entry *next;
  char *name;
  cl_kernel kernel;
} kernel_entry;

struct ocf_program_entry {
  ocf_program_entry *next;
  ocf_program_id id;
  char *options;
  cl_program program;
  kernel_entry *kernels;
};

static char *copy_string(const char *text) {
  size_t length = strlen(text) + 1;
  char *copy = malloc(length);
  if (copy) memcpy(copy, text, length);
  return copy;
}

/* Puts the build log into the last-error text after the failure line. */
static void report_build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
      size == 0)
    return;
  char *log = malloc(size + 1);
  if (!log) return;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
    log[size] = '\0';
    ocf_error_append("\nbuild log:\n");
    ocf_error_append(log);
  }
  free(log);
}

static ocf_status build_program(ocf_context *ctx, ocf_program_id id, const char *options,
                                cl_program *out) {
  const ocf_kernel_source *source = ocf_kernel_source_get(id);
  if (!source) return ocf_fail(OCF_ERR_INVALID_VALUE, "unknown program id %d", (int)id);
  const ocf_kernel_source *common = ocf_kernel_common_source();
  const char *texts[2] = {(const char *)common->text, (const char *)source->text};
  const size_t lengths[2] = {common->length, source->length};
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(ctx->cl_ctx, 2, texts, lengths, &err);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clCreateProgramWithSource");
  /* -cl-std=CL1.2 keeps every device on the same language, whatever its default. */
  size_t full_length = strlen(options) + 64;
  char *full_options = malloc(full_length);
  if (!full_options) {
    clReleaseProgram(program);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate build options");
  }
  snprintf(full_options, full_length, "-cl-std=CL1.2 %s", options);
  err = clBuildProgram(program, 1, &ctx->device, full_options, NULL, NULL);
  if (err != CL_SUCCESS) {
    ocf_fail(OCF_ERR_BUILD_FAILED, "building %s with options \"%s\" failed: %s (%d)", source->file,
             full_options, ocf_cl_error_name(err) ? ocf_cl_error_name(err) : "OpenCL error",
             (int)err);
    report_build_log(program, ctx->device);
    free(full_options);
    clReleaseProgram(program);
    return OCF_ERR_BUILD_FAILED;
  }
  free(full_options);
  *out = program;
  return OCF_SUCCESS;
}

static ocf_status find_or_build(ocf_context *ctx, ocf_program_id id, const char *options,
                                ocf_program_entry **out) {
  for (ocf_program_entry *entry = ctx->programs; entry; entry = entry->next) {
    if (entry->id == id && strcmp(entry->options, options) == 0) {
      *out = entry;
      return OCF_SUCCESS;
    }
  }
  ocf_program_entry *entry = calloc(1, sizeof *entry);
  char *options_copy = copy_string(options);
  if (!entry || !options_copy) {
    free(entry);
    free(options_copy);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a program cache entry");
  }
  ocf_status status = build_program(ctx, id, options, &entry->program);
  if (status != OCF_SUCCESS) {
    free(entry);
    free(options_copy);
    return status;
  }
  entry->id = id;
  entry->options = options_copy;
  entry->next = ctx->programs;
  ctx->programs = entry;
  *out = entry;
  return OCF_SUCCESS;
}

ocf_status ocf_kernel_get(ocf_context *ctx, ocf_program_id id, const char *options,
                          const char *kernel_name, cl_kernel *kernel) {
  ocf_program_entry *program = NULL;
  ocf_status status = find_or_build(ctx, id, options, &program);
  if (status != OCF_SUCCESS) return status;
  for (kernel_entry *entry = program->kernels; entry; entry = entry->next) {
    if (strcmp(entry->name, kernel_name) == 0) {
      *kernel = entry->kernel;
      return OCF_SUCCESS;
    }
  }
  kernel_entry *entry = calloc(1, sizeof *entry);
  char *name_copy = copy_string(kernel_name);
  if (!entry || !name_copy) {
    free(entry);
    free(name_copy);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a kernel cache entry");
  }
  cl_int err = CL_SUCCESS;
  entry->kernel = clCreateKernel(program->program, kernel_name, &err);
  if (err != CL_SUCCESS) {
    free(entry);
    free(name_copy);
    return ocf_fail_cl(err, "clCreateKernel");
  }
  entry->name = name_copy;
  entry->next = program->kernels;
  program->kernels = entry;
  *kernel = entry->kernel;
  return OCF_SUCCESS;
}

void ocf_program_cache_release(ocf_context *ctx) {
  ocf_program_entry *program = ctx->programs;
  while (program) {
    ocf_program_entry *next_program = program->next;
    kernel_entry *kernel = program->kernels;
    while (kernel) {
      kernel_entry *next_kernel = kernel->next;
      clReleaseKernel(kernel->kernel);
      free(kernel->name);
      free(kernel);
      kernel = next_kernel;
    }
    clReleaseProgram(program->program);
    free(program->options);
    free(program);
    program = next_program;
  }
  ctx->programs = NULL;
}
