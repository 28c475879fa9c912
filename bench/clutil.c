/* Small OpenCL helpers for the tool's own kernels and buffers (OpenCL 1.2 API only). */
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

cl_program tool_build_program(cl_context context, cl_device_id device, const char *source,
                              const char *options) {
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  if (err != CL_SUCCESS) {
    tool_error("clCreateProgramWithSource: %s", ocf_status_name((ocf_status)err));
    return NULL;
  }
  err = clBuildProgram(program, 1, &device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    tool_error("clBuildProgram (%s): %s", options ? options : "", ocf_status_name((ocf_status)err));
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        size > 1) {
      char *log = malloc(size);
      if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) ==
                     CL_SUCCESS)
        fprintf(stderr, "%s\n", log);
      free(log);
    }
    clReleaseProgram(program);
    return NULL;
  }
  return program;
}

int tool_event_ns(cl_event event, cl_profiling_info what, cl_ulong *ns) {
  return clGetEventProfilingInfo(event, what, sizeof *ns, ns, NULL) == CL_SUCCESS ? 0 : -1;
}

cl_mem tool_buffer(ocf_context *ctx, size_t floats, const float *host) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (floats ? floats : 1) * sizeof(float);
  cl_mem mem = clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err != CL_SUCCESS) {
    tool_error("clCreateBuffer(%zu bytes): %s", bytes, ocf_status_name((ocf_status)err));
    return NULL;
  }
  if (host && floats) {
    err = clEnqueueWriteBuffer(ocf_context_queue(ctx), mem, CL_TRUE, 0, floats * sizeof(float),
                               host, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      tool_error("clEnqueueWriteBuffer(%zu bytes): %s", bytes, ocf_status_name((ocf_status)err));
      clReleaseMemObject(mem);
      return NULL;
    }
  }
  return mem;
}

int tool_poison(ocf_context *ctx, cl_mem buffer, size_t floats) {
  if (floats == 0) return 0;
  const float nan_pattern = NAN;
  cl_int err = clEnqueueFillBuffer(ocf_context_queue(ctx), buffer, &nan_pattern, sizeof nan_pattern,
                                   0, floats * sizeof(float), 0, NULL, NULL);
  if (err == CL_SUCCESS) err = clFinish(ocf_context_queue(ctx));
  if (err != CL_SUCCESS) {
    tool_error("clEnqueueFillBuffer: %s", ocf_status_name((ocf_status)err));
    return -1;
  }
  return 0;
}

cl_mem tool_buffer_bytes(ocf_context *ctx, size_t bytes, const void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem mem =
      clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
  if (err != CL_SUCCESS) {
    tool_error("clCreateBuffer(%zu bytes): %s", bytes, ocf_status_name((ocf_status)err));
    return NULL;
  }
  if (host && bytes) {
    err = clEnqueueWriteBuffer(ocf_context_queue(ctx), mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      tool_error("clEnqueueWriteBuffer(%zu bytes): %s", bytes, ocf_status_name((ocf_status)err));
      clReleaseMemObject(mem);
      return NULL;
    }
  }
  return mem;
}

int tool_poison_dtype(ocf_context *ctx, cl_mem buffer, size_t count, ocf_dtype dtype) {
  if (dtype == OCF_F32) return tool_poison(ctx, buffer, count);
  if (count == 0) return 0;
  const cl_ushort nan_pattern = dtype == OCF_F16 ? 0x7E00 : 0x7FC0;
  cl_int err = clEnqueueFillBuffer(ocf_context_queue(ctx), buffer, &nan_pattern, sizeof nan_pattern,
                                   0, count * sizeof nan_pattern, 0, NULL, NULL);
  if (err == CL_SUCCESS) err = clFinish(ocf_context_queue(ctx));
  if (err != CL_SUCCESS) {
    tool_error("clEnqueueFillBuffer: %s", ocf_status_name((ocf_status)err));
    return -1;
  }
  return 0;
}

cl_ulong tool_max_alloc(cl_device_id device) {
  cl_ulong bytes = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof bytes, &bytes, NULL) !=
      CL_SUCCESS)
    return 0;
  return bytes;
}

const char *tool_device_type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  if (type & CL_DEVICE_TYPE_CUSTOM) return "CUSTOM";
  return "OTHER";
}
