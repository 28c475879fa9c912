/* Programs built lazily, once per (program, options) and context; their kernels reused. */
#include "runtime/context.h"
#include "runtime/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ocf_program_entry {
  ocf_program_entry *next;
  ocf_program_id id;
  uint64_t digest; /* of the program's source and cl/common.cl: part of the key */
  char *options;
  cl_program program;
  ocf_built_kernel *kernels[OCF_KERNEL_COUNT]; /* created on first use */
};

/* The key's digest: the program's source and the common source it is built with. */
static uint64_t program_digest(const ocf_program_source *source) {
  return source->digest ^ (ocf_common_source.digest * 1099511628211ull);
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

static ocf_status build_program(ocf_context *ctx, const ocf_program_source *source,
                                const char *options, cl_program *out) {
  const char *texts[2] = {(const char *)ocf_common_source.text, (const char *)source->text};
  const size_t lengths[2] = {ocf_common_source.length, source->length};
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(ctx->cl_ctx, 2, texts, lengths, &err);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clCreateProgramWithSource");
  /* -cl-std=CL1.2 keeps every device on the same language, whatever its default;
     -cl-kernel-arg-info lets the binder check argument names against the descriptors. */
  size_t full_length = strlen(options) + 64;
  char *full_options = malloc(full_length);
  if (!full_options) {
    clReleaseProgram(program);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate build options");
  }
  snprintf(full_options, full_length, "-cl-std=CL1.2 -cl-kernel-arg-info %s", options);
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
  const ocf_program_source *source = ocf_program_source_get(id);
  if (!source) return ocf_fail(OCF_ERR_INVALID_VALUE, "unknown program id %d", (int)id);
  uint64_t digest = program_digest(source);
  for (ocf_program_entry *entry = ctx->programs; entry; entry = entry->next) {
    if (entry->id == id && entry->digest == digest && strcmp(entry->options, options) == 0) {
      *out = entry;
      return OCF_SUCCESS;
    }
  }
  ocf_program_entry *entry = calloc(1, sizeof *entry);
  size_t options_size = strlen(options) + 1;
  char *options_copy = malloc(options_size);
  if (!entry || !options_copy) {
    free(entry);
    free(options_copy);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a program cache entry");
  }
  memcpy(options_copy, options, options_size);
  ocf_status status = build_program(ctx, source, options, &entry->program);
  if (status != OCF_SUCCESS) {
    free(entry);
    free(options_copy);
    return status;
  }
  entry->id = id;
  entry->digest = digest;
  entry->options = options_copy;
  entry->next = ctx->programs;
  ctx->programs = entry;
  *out = entry;
  return OCF_SUCCESS;
}

/* Creates a kernel and reads, once, the limits the runtime reports for it. */
static ocf_status create_kernel(ocf_context *ctx, cl_program program, const ocf_kernel_desc *desc,
                                ocf_built_kernel **out) {
  ocf_built_kernel *built = calloc(1, sizeof *built);
  if (!built) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a kernel cache entry");
  cl_int err = CL_SUCCESS;
  built->kernel = clCreateKernel(program, desc->name, &err);
  if (err != CL_SUCCESS) {
    free(built);
    return ocf_fail_cl(err, "clCreateKernel");
  }
  cl_ulong local_bytes = 0;
  err = clGetKernelWorkGroupInfo(built->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof built->max_workgroup, &built->max_workgroup, NULL);
  if (err == CL_SUCCESS)
    err = clGetKernelWorkGroupInfo(built->kernel, ctx->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                   sizeof local_bytes, &local_bytes, NULL);
  if (err != CL_SUCCESS) {
    clReleaseKernel(built->kernel);
    free(built);
    return ocf_fail_cl(err, "clGetKernelWorkGroupInfo");
  }
  built->local_bytes = local_bytes;
  built->desc = desc;
  *out = built;
  return OCF_SUCCESS;
}

ocf_status ocf_kernel_get(ocf_context *ctx, ocf_program_id program, const char *options,
                          ocf_kernel_id id, ocf_built_kernel **kernel) {
  const ocf_kernel_desc *desc = ocf_kernel_desc_get(id);
  if (!desc || desc->program != program)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "kernel %d is not in program %d", (int)id, (int)program);
  ocf_program_entry *entry = NULL;
  ocf_status status = find_or_build(ctx, program, options, &entry);
  if (status != OCF_SUCCESS) return status;
  if (!entry->kernels[id]) {
    status = create_kernel(ctx, entry->program, desc, &entry->kernels[id]);
    if (status != OCF_SUCCESS) return status;
  }
  *kernel = entry->kernels[id];
  return OCF_SUCCESS;
}

void ocf_program_cache_release(ocf_context *ctx) {
  ocf_program_entry *program = ctx->programs;
  while (program) {
    ocf_program_entry *next = program->next;
    for (size_t k = 0; k < OCF_KERNEL_COUNT; k++) {
      if (!program->kernels[k]) continue;
      clReleaseKernel(program->kernels[k]->kernel);
      free(program->kernels[k]);
    }
    clReleaseProgram(program->program);
    free(program->options);
    free(program);
    program = next;
  }
  ctx->programs = NULL;
}
