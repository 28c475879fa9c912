/*
 * CLBlast's SGEMM as the matmul baseline that a user would otherwise reach for. Compiled with
 * OCF_HAVE_CLBLAST when CMake finds CLBlast; without it every entry point says so.
 */
#include "tool.h"

#include <string.h>

#ifdef OCF_HAVE_CLBLAST
#include <clblast_c.h>

int tool_clblast_available(void) {
  return 1;
}

int tool_clblast_sgemm(cl_command_queue queue, size_t m, size_t n, size_t k, cl_mem a, cl_mem b,
                       cl_mem c, cl_event *event, char *err, size_t errlen) {
  /* Row-major, no transposes, dense: lda = k, ldb = n, ldc = n; C = 1 * A B + 0 * C. */
  CLBlastStatusCode status =
      CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, 1.0f, a,
                   0, k, b, 0, n, 0.0f, c, 0, n, &queue, event);
  if (status != CLBlastSuccess) {
    snprintf(err, errlen, "CLBlastSgemm returned %d", (int)status);
    if (event) *event = NULL;
    return TOOL_FAILED;
  }
  return 0;
}

/*
 * Xgemm parameters that CLBlast's own tuner found on an H200. CLBlastOverrideParameters applies
 * them to this device for the rest of the process (there is no undo), so the benchmark times
 * the untuned CLBlast first. They only affect CLBlast's indirect Xgemm kernel: for small sizes
 * CLBlast picks its direct kernel, whose numbers then match the untuned ones.
 */
int tool_clblast_apply_tuned(cl_device_id device, char *err, size_t errlen) {
  static const char *const names[] = {"GEMMK", "KREG",  "KWG",   "KWI", "MDIMA", "MDIMC",
                                      "MWG",   "NDIMB", "NDIMC", "NWG", "SA",    "SB",
                                      "STRM",  "STRN",  "VWM",   "VWN"};
  static const size_t values[] = {0, 1, 32, 2, 32, 16, 128, 16, 8, 128, 1, 1, 0, 1, 4, 2};
  _Static_assert(sizeof names / sizeof names[0] == sizeof values / sizeof values[0],
                 "one value per parameter");
  CLBlastStatusCode status =
      CLBlastOverrideParameters(device, "Xgemm", CLBlastPrecisionSingle,
                                sizeof values / sizeof values[0], (const char **)names, values);
  if (status != CLBlastSuccess) {
    snprintf(err, errlen, "CLBlastOverrideParameters(Xgemm) returned %d", (int)status);
    return TOOL_FAILED;
  }
  return 0;
}

void tool_clblast_release(void) {
  CLBlastClearCache();
}

#else /* no CLBlast */

int tool_clblast_available(void) {
  return 0;
}

int tool_clblast_sgemm(cl_command_queue queue, size_t m, size_t n, size_t k, cl_mem a, cl_mem b,
                       cl_mem c, cl_event *event, char *err, size_t errlen) {
  (void)queue, (void)m, (void)n, (void)k, (void)a, (void)b, (void)c;
  if (event) *event = NULL;
  snprintf(err, errlen, "built without CLBlast");
  return TOOL_FAILED;
}

int tool_clblast_apply_tuned(cl_device_id device, char *err, size_t errlen) {
  (void)device;
  snprintf(err, errlen, "built without CLBlast");
  return TOOL_FAILED;
}

void tool_clblast_release(void) {}

#endif

int tool_clblast_tuned_applies(const ocf_device_info *info) {
  return strstr(info->vendor, "NVIDIA") != NULL || strstr(info->platform_name, "NVIDIA") != NULL;
}
