/* Status names and messages, and the thread-local last-error text. */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Long enough for a page of build log; longer logs are cut with a marker. */
#define LAST_ERROR_CAPACITY 16384

static _Thread_local char last_error[LAST_ERROR_CAPACITY];
/* What the thread's last successful op call enqueued (ocf_last_plan). */
static _Thread_local char last_plan[512];

unsigned ocf_version_number(void) {
  return OCF_VERSION_NUMBER;
}

const char *ocf_version_string(void) {
#define OCF_STR_(x) #x
#define OCF_XSTR_(x) OCF_STR_(x)
  return OCF_XSTR_(OCF_VERSION_MAJOR) "." OCF_XSTR_(OCF_VERSION_MINOR) "." OCF_XSTR_(
      OCF_VERSION_PATCH);
#undef OCF_XSTR_
#undef OCF_STR_
}

/* OpenCL's own codes (1.2 core), which ocf_status passes through unchanged. */
#define OCF_CL_ERROR_LIST(X)                                                          \
  X(CL_DEVICE_NOT_FOUND, "no OpenCL device of the requested type")                    \
  X(CL_DEVICE_NOT_AVAILABLE, "the OpenCL device is not available")                    \
  X(CL_COMPILER_NOT_AVAILABLE, "the OpenCL compiler is not available")                \
  X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "device memory allocation failed")              \
  X(CL_OUT_OF_RESOURCES, "the device ran out of resources")                           \
  X(CL_OUT_OF_HOST_MEMORY, "the OpenCL runtime ran out of host memory")               \
  X(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling information is not available")        \
  X(CL_MEM_COPY_OVERLAP, "copy regions overlap")                                      \
  X(CL_IMAGE_FORMAT_MISMATCH, "image format mismatch")                                \
  X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported")                      \
  X(CL_BUILD_PROGRAM_FAILURE, "the OpenCL program failed to build")                   \
  X(CL_MAP_FAILURE, "mapping failed")                                                 \
  X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer offset")                  \
  X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event in the wait list failed") \
  X(CL_COMPILE_PROGRAM_FAILURE, "program compilation failed")                         \
  X(CL_LINKER_NOT_AVAILABLE, "the OpenCL linker is not available")                    \
  X(CL_LINK_PROGRAM_FAILURE, "program linking failed")                                \
  X(CL_DEVICE_PARTITION_FAILED, "device partition failed")                            \
  X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel argument info is not available")        \
  X(CL_INVALID_VALUE, "invalid value")                                                \
  X(CL_INVALID_DEVICE_TYPE, "invalid device type")                                    \
  X(CL_INVALID_PLATFORM, "invalid platform")                                          \
  X(CL_INVALID_DEVICE, "invalid device")                                              \
  X(CL_INVALID_CONTEXT, "invalid context")                                            \
  X(CL_INVALID_QUEUE_PROPERTIES, "invalid queue properties")                          \
  X(CL_INVALID_COMMAND_QUEUE, "invalid command queue")                                \
  X(CL_INVALID_HOST_PTR, "invalid host pointer")                                      \
  X(CL_INVALID_MEM_OBJECT, "invalid memory object")                                   \
  X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format descriptor")            \
  X(CL_INVALID_IMAGE_SIZE, "invalid image size")                                      \
  X(CL_INVALID_SAMPLER, "invalid sampler")                                            \
  X(CL_INVALID_BINARY, "invalid program binary")                                      \
  X(CL_INVALID_BUILD_OPTIONS, "invalid build options")                                \
  X(CL_INVALID_PROGRAM, "invalid program")                                            \
  X(CL_INVALID_PROGRAM_EXECUTABLE, "invalid program executable")                      \
  X(CL_INVALID_KERNEL_NAME, "invalid kernel name")                                    \
  X(CL_INVALID_KERNEL_DEFINITION, "invalid kernel definition")                        \
  X(CL_INVALID_KERNEL, "invalid kernel")                                              \
  X(CL_INVALID_ARG_INDEX, "invalid kernel argument index")                            \
  X(CL_INVALID_ARG_VALUE, "invalid kernel argument value")                            \
  X(CL_INVALID_ARG_SIZE, "invalid kernel argument size")                              \
  X(CL_INVALID_KERNEL_ARGS, "kernel arguments not set")                               \
  X(CL_INVALID_WORK_DIMENSION, "invalid work dimension")                              \
  X(CL_INVALID_WORK_GROUP_SIZE, "invalid workgroup size")                             \
  X(CL_INVALID_WORK_ITEM_SIZE, "invalid work-item size")                              \
  X(CL_INVALID_GLOBAL_OFFSET, "invalid global offset")                                \
  X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list")                            \
  X(CL_INVALID_EVENT, "invalid event")                                                \
  X(CL_INVALID_OPERATION, "invalid operation")                                        \
  X(CL_INVALID_GL_OBJECT, "invalid GL object")                                        \
  X(CL_INVALID_BUFFER_SIZE, "invalid buffer size")                                    \
  X(CL_INVALID_MIP_LEVEL, "invalid mip level")                                        \
  X(CL_INVALID_GLOBAL_WORK_SIZE, "invalid global work size")                          \
  X(CL_INVALID_PROPERTY, "invalid property")                                          \
  X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor")                          \
  X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options")                          \
  X(CL_INVALID_LINKER_OPTIONS, "invalid linker options")                              \
  X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count")

const char *ocf_cl_error_name(cl_int err) {
  switch (err) {
#define OCF_CL_NAME_(code, message) \
  case code:                        \
    return #code;
    OCF_CL_ERROR_LIST(OCF_CL_NAME_)
#undef OCF_CL_NAME_
  default:
    return NULL;
  }
}

static const char *cl_error_message(cl_int err) {
  switch (err) {
#define OCF_CL_MESSAGE_(code, message) \
  case code:                           \
    return message;
    OCF_CL_ERROR_LIST(OCF_CL_MESSAGE_)
#undef OCF_CL_MESSAGE_
  default:
    return NULL;
  }
}

const char *ocf_status_name(ocf_status status) {
  switch (status) {
#define OCF_STATUS_NAME_(name, value, message) \
  case name:                                   \
    return #name;
    OCF_STATUS_LIST(OCF_STATUS_NAME_)
#undef OCF_STATUS_NAME_
  default: {
    const char *cl_name = ocf_cl_error_name((cl_int)status);
    return cl_name ? cl_name : "OCF_UNKNOWN_STATUS";
  }
  }
}

const char *ocf_status_message(ocf_status status) {
  switch (status) {
#define OCF_STATUS_MESSAGE_(name, value, message) \
  case name:                                      \
    return message;
    OCF_STATUS_LIST(OCF_STATUS_MESSAGE_)
#undef OCF_STATUS_MESSAGE_
  default: {
    const char *cl_message = cl_error_message((cl_int)status);
    return cl_message ? cl_message : "unknown status code";
  }
  }
}

const char *ocf_last_error(void) {
  return last_error;
}

void ocf_error_clear(void) {
  last_error[0] = '\0';
  last_plan[0] = '\0';
}

const char *ocf_last_plan(void) {
  return last_plan;
}

void ocf_plan_note(const char *text) {
  size_t length = strlen(text); /* once per call: a copy, not a format */
  if (length >= sizeof last_plan) length = sizeof last_plan - 1;
  memcpy(last_plan, text, length);
  last_plan[length] = '\0';
}

ocf_status ocf_fail(ocf_status status, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, args);
  va_end(args);
  return status;
}

ocf_status ocf_fail_cl(cl_int err, const char *what) {
  const char *name = ocf_cl_error_name(err);
  if (name) return ocf_fail((ocf_status)err, "%s failed: %s (%d)", what, name, (int)err);
  return ocf_fail((ocf_status)err, "%s failed: OpenCL error %d", what, (int)err);
}

void ocf_error_append(const char *text) {
  static const char cut[] = "\n[... log cut ...]";
  size_t used = strlen(last_error);
  size_t room = sizeof last_error - used;
  size_t length = strlen(text);
  if (length < room) {
    memcpy(last_error + used, text, length + 1);
    return;
  }
  if (room <= sizeof cut) return;
  memcpy(last_error + used, text, room - sizeof cut);
  memcpy(last_error + sizeof last_error - sizeof cut, cut, sizeof cut);
}
