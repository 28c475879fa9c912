/* The sm_90a build of the wgmma program (sm90a_build.h). */
#include "runtime/sm90a_build.h"

#include "common.h"
#include "ptx_retarget.h"
#include "runtime/context.h"
#include "runtime/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ocf_sm90a_binary(unsigned char **binary, size_t *length) {
  char why[160];
  size_t out_length = 0;
  char *out = ocf_ptx_sm90a_form(*binary, *length, &out_length, why, sizeof why);
  if (!out) return -1;
  free(*binary);
  *binary = (unsigned char *)out;
  *length = out_length;
  return 0;
}

ocf_status ocf_sm90a_rebuild(ocf_log_sink *log, cl_context context, cl_device_id device,
                             const char *file, const char *options, cl_program *program) {
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
      ocf_append_build_log(built, device);
      clReleaseProgram(built);
    }
    return OCF_ERR_BUILD_FAILED;
  }
  *program = built;
  ocf_log(log, OCF_LOG_INFO, "retargeted %s to sm_90a and built it: %.1f ms", file,
          ocf_now_ms() - start);
  return OCF_SUCCESS;
}
