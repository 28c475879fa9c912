/* The sm_90a build of the wgmma program (sm90a_build.h). */
#include "runtime/sm90a_build.h"

#include "common.h"
#include "ptx_retarget.h"
#include "runtime/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether text (length bytes) targets sm_90a: a line ".target sm_90a" (then the end of the line,
   a comma or a blank) and no line left behind the sm_90a prefix. */
static int is_sm90a_text(const char *text, size_t length) {
  int target = 0;
  const char *limit = text + length;
  for (const char *at = text; at < limit;) {
    const char *eol = memchr(at, '\n', (size_t)(limit - at));
    const char *end = eol ? eol : limit, *body = at;
    while (body < end && (*body == ' ' || *body == '\t'))
      body++;
    const size_t n = (size_t)(end - body);
    if (n >= strlen(OCF_PTX_SM90A_PREFIX) &&
        memcmp(body, OCF_PTX_SM90A_PREFIX, strlen(OCF_PTX_SM90A_PREFIX)) == 0)
      return 0;
    if (n >= 14 && memcmp(body, ".target sm_90a", 14) == 0 &&
        (n == 14 || body[14] == ',' || body[14] == ' ' || body[14] == '\t' || body[14] == '\r'))
      target = 1;
    at = eol ? eol + 1 : limit;
  }
  return target;
}

/* The retargeted form of `length` bytes of PTX (malloc'd, NUL-terminated), or NULL with why. */
static char *retargeted(const char *text, size_t length, size_t *out_length, char *why,
                        size_t why_size) {
  char *out = NULL;
  const ocf_retarget_result result =
      ocf_ptx_retarget(text, length, &out, out_length, why, why_size);
  if (result == OCF_RETARGET_REFUSED) return NULL;
  if (result == OCF_RETARGET_NONE) {
    out = malloc(length + 1);
    if (!out) {
      snprintf(why, why_size, "out of host memory");
      return NULL;
    }
    memcpy(out, text, length);
    out[length] = '\0';
    *out_length = length;
  }
  if (!is_sm90a_text(out, *out_length)) {
    snprintf(why, why_size, "the text has no sm_90a code (no `%s` lines, target not sm_90a)",
             OCF_PTX_SM90A_PREFIX);
    free(out);
    return NULL;
  }
  return out;
}

int ocf_sm90a_binary(unsigned char **binary, size_t *length) {
  char why[160];
  size_t n = *length;
  /* a binary that ends in NUL bytes (a driver may count a terminator) is PTX without them */
  while (n > 0 && (*binary)[n - 1] == '\0')
    n--;
  size_t out_length = 0;
  char *out = retargeted((const char *)*binary, n, &out_length, why, sizeof why);
  if (!out) return -1;
  free(*binary);
  *binary = (unsigned char *)out;
  *length = out_length + 1; /* with its terminator, as the lab handed it to the driver */
  return 0;
}

/* Puts the build log into the last-error text after the failure line. */
static void append_build_log(cl_program program, cl_device_id device) {
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

ocf_status ocf_sm90a_rebuild(cl_context context, cl_device_id device, const char *file,
                             const char *options, cl_program *program) {
  const double start = ocf_now_ms();
  size_t size = 0;
  unsigned char *ptx = NULL;
  cl_int err = clGetProgramInfo(*program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
  if (err == CL_SUCCESS && size > 0) {
    ptx = malloc(size + 1);
    unsigned char *binaries[1] = {ptx};
    err = ptx ? clGetProgramInfo(*program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL)
              : CL_OUT_OF_HOST_MEMORY;
  }
  clReleaseProgram(*program);
  *program = NULL;
  if (err != CL_SUCCESS || size == 0) {
    free(ptx);
    return ocf_fail(OCF_ERR_BUILD_FAILED, "%s: reading its PTX for sm_90a failed (%s)", file,
                    ocf_cl_error_name(err) ? ocf_cl_error_name(err) : "no binary");
  }
  size_t length = size;
  if (ocf_sm90a_binary(&ptx, &length) != 0) {
    free(ptx);
    return ocf_fail(OCF_ERR_BUILD_FAILED,
                    "%s: the driver's binary is not PTX the sm_90a retarget takes", file);
  }
  cl_int binary_status = CL_SUCCESS;
  const unsigned char *binaries[1] = {ptx};
  cl_program built =
      clCreateProgramWithBinary(context, 1, &device, &length, binaries, &binary_status, &err);
  free(ptx);
  if (err == CL_SUCCESS && binary_status != CL_SUCCESS) err = binary_status;
  if (err == CL_SUCCESS) err = clBuildProgram(built, 1, &device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    ocf_fail(OCF_ERR_BUILD_FAILED, "%s retargeted to sm_90a: the driver refused it: %s (%d)", file,
             ocf_cl_error_name(err) ? ocf_cl_error_name(err) : "OpenCL error", (int)err);
    if (built) {
      append_build_log(built, device);
      clReleaseProgram(built);
    }
    return OCF_ERR_BUILD_FAILED;
  }
  *program = built;
  ocf_log("retargeted %s to sm_90a and built it: %.1f ms", file, ocf_now_ms() - start);
  return OCF_SUCCESS;
}
