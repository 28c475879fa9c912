/*
 * The probe of workgroups beyond a kernel's reported limit on a context. NVIDIA's driver (580,
 * H200) reports CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, yet runs workgroups of up to
 * CL_DEVICE_MAX_WORK_GROUP_SIZE (1024) where their registers fit the compute unit's 65536: the
 * planners may then plan wider row workgroups (plan->wide_workgroup, with a register cap), but
 * only once this probe showed that such a workgroup runs and computes right here. A plan that
 * wants one asks for the probe (OCF_PLAN_PROBE_WIDE); the run loop runs it here, once per
 * context, and plans again.
 *
 * The probe is a kernel of its own, built from the source below (it tests the driver, not a
 * library kernel: no descriptor, no cache), with the register cap of the workgroup it runs in
 * where the compiler takes one: two workgroups of the device's maximum each sum their
 * work-items' values in local memory (a halving tree every work-item takes part in, a barrier
 * each level) and every work-item writes its group's sum plus its own index. The values are
 * distinct 32-bit words whose sums wrap the same way on the host, so every element is checked
 * exactly: a work-item that did not run, or ran outside the workgroup's barriers, shows. A build
 * error, a refused launch or a wrong element marks the wide path failed on the context: its
 * calls plan within what the kernels report, as before.
 */
#include "internal/oclfuse_internal.h"
#include "runtime/context.h"
#include "runtime/log.h"
#include "runtime/probes.h"

#include <stdio.h>
#include <stdlib.h>

static const char wide_probe_source[] =
    "__kernel void ocf_wide_probe(__global const uint *in, __global uint *out,\n"
    "                             __local uint *part) {\n"
    "  const uint lid = (uint)get_local_id(0);\n"
    "  part[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  /* Any workgroup size: each level folds the upper half (rounded down) onto the lower. */\n"
    "  for (uint width = (uint)get_local_size(0); width > 1;) {\n"
    "    const uint upper = (width + 1) / 2;\n"
    "    if (lid + upper < width) part[lid] += part[lid + upper];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    width = upper;\n"
    "  }\n"
    "  out[get_global_id(0)] = part[0] + lid;\n"
    "}\n";

enum { WIDE_PROBE_GROUPS = 2 };

static cl_uint probe_value(size_t i) {
  return (cl_uint)(i * 2654435761u + 12345u);
}

/* Builds and runs the probe with `wg` work-items a workgroup; 1 when every element came out
   right, else 0 with *why said. */
static int run_probe(ocf_context *ctx, const ocf_device_facts *facts, size_t wg, char *why,
                     size_t why_size) {
  const size_t n = WIDE_PROBE_GROUPS * wg;
  cl_uint *host = malloc(2 * n * sizeof *host);
  if (!host) {
    snprintf(why, why_size, "out of host memory");
    return 0;
  }
  cl_uint *result = host + n;
  for (size_t i = 0; i < n; i++)
    host[i] = probe_value(i);
  char options[64] = "";
  if (facts->nv_compiler_options)
    snprintf(options, sizeof options, "-cl-nv-maxrregcount=%u", ocf_wide_register_cap(wg));

  int ok = 0;
  cl_int err = CL_SUCCESS;
  const char *what = "clCreateProgramWithSource";
  const char *source = wide_probe_source;
  cl_program program = NULL;
  cl_kernel kernel = NULL;
  cl_mem in = NULL, out = NULL;
  program = clCreateProgramWithSource(ctx->cl_ctx, 1, &source, NULL, &err);
  if (err == CL_SUCCESS) {
    what = "clBuildProgram";
    err = clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
  }
  if (err == CL_SUCCESS) {
    what = "clCreateKernel";
    kernel = clCreateKernel(program, "ocf_wide_probe", &err);
  }
  if (err == CL_SUCCESS) {
    what = "clCreateBuffer";
    in = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *host,
                        host, &err);
  }
  if (err == CL_SUCCESS)
    out = clCreateBuffer(ctx->cl_ctx, CL_MEM_WRITE_ONLY, n * sizeof *host, NULL, &err);
  if (err == CL_SUCCESS) {
    what = "clSetKernelArg";
    err = clSetKernelArg(kernel, 0, sizeof in, &in);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 1, sizeof out, &out);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, 2, wg * sizeof(cl_uint), NULL);
  }
  if (err == CL_SUCCESS) {
    what = "clEnqueueNDRangeKernel";
    err = clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &n, &wg, 0, NULL, NULL);
  }
  if (err == CL_SUCCESS) {
    what = "clEnqueueReadBuffer";
    err =
        clEnqueueReadBuffer(ctx->queue, out, CL_TRUE, 0, n * sizeof *result, result, 0, NULL, NULL);
  }
  if (err != CL_SUCCESS) {
    const char *name = ocf_cl_error_name(err);
    /* The start of a build's log says what the compiler refused (an option, most likely). */
    char log[160] = "";
    size_t size = 0;
    char *full = NULL;
    if (err == CL_BUILD_PROGRAM_FAILURE &&
        clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        size > 0 && (full = calloc(size + 1, 1)) != NULL &&
        clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, size, full, NULL) ==
            CL_SUCCESS)
      snprintf(log, sizeof log, "%s", full);
    free(full);
    snprintf(why, why_size, "%s failed: %s (%d)%s%s", what, name ? name : "OpenCL error", (int)err,
             log[0] ? ": " : "", log);
  } else {
    ok = 1;
    for (size_t g = 0; g < WIDE_PROBE_GROUPS && ok; g++) {
      cl_uint sum = 0;
      for (size_t l = 0; l < wg; l++)
        sum += host[g * wg + l];
      for (size_t l = 0; l < wg && ok; l++) {
        const cl_uint want = sum + (cl_uint)l;
        if (result[g * wg + l] != want) {
          snprintf(why, why_size, "work-item %zu of group %zu wrote %u, not %u", l, g,
                   (unsigned)result[g * wg + l], (unsigned)want);
          ok = 0;
        }
      }
    }
  }
  if (out) clReleaseMemObject(out);
  if (in) clReleaseMemObject(in);
  if (kernel) clReleaseKernel(kernel);
  if (program) clReleaseProgram(program);
  free(host);
  return ok;
}

void ocf_probe_wide(ocf_context *ctx) {
  pthread_mutex_lock(&ctx->probe_lock);
  ocf_device_facts facts;
  ocf_context_facts(ctx, &facts);
  if (facts.learnt.wide != OCF_PROBE_UNKNOWN) { /* another call's probe answered meanwhile */
    pthread_mutex_unlock(&ctx->probe_lock);
    return;
  }
  const double start = ocf_now_ms();
  size_t wg = facts.max_workgroup_size;
  if (wg > facts.max_item_sizes[0]) wg = facts.max_item_sizes[0];
  char why[256] = "";
  int ok = 0;
  if (facts.nv_compiler_options && !ocf_wide_register_cap(wg))
    snprintf(why, sizeof why, "no register cap fits %zu work-items", wg);
  else if ((unsigned long long)wg * sizeof(cl_uint) > facts.local_mem_bytes)
    snprintf(why, sizeof why, "%zu words of local memory exceed the device's", wg);
  else
    ok = run_probe(ctx, &facts, wg, why, sizeof why);
  pthread_mutex_lock(&ctx->lock);
  ctx->facts.learnt.wide = ok ? OCF_PROBE_PASSED : OCF_PROBE_FAILED;
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  ocf_log(&ctx->log, OCF_LOG_INFO,
          "wide-workgroup probe with %zu work-items: %s%s%s (%.0f ms); workgroups beyond the "
          "kernels' reported limit are %s",
          wg, ok ? "right" : "failed", ok ? "" : ": ", why, ocf_now_ms() - start,
          ok ? "planned where a plan asks" : "not used on this context");
  /* The probe's own errors are no error of the call that asked for it. */
  ocf_error_clear();
  pthread_mutex_unlock(&ctx->probe_lock);
}

void ocf_wide_refused(ocf_context *ctx, ocf_kernel_id kernel, size_t reported) {
  pthread_mutex_lock(&ctx->lock);
  if ((size_t)kernel < OCF_KERNEL_COUNT) ctx->facts.learnt.wide_refused[kernel] = 1;
  ocf_context_learn_workgroup(ctx, kernel, reported);
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  const ocf_kernel_desc *desc = ocf_kernel_desc_get(kernel);
  ocf_log(&ctx->log, OCF_LOG_WARNING,
          "a wide workgroup of %s was refused (%s): its plans stay within the %zu work-items it "
          "reports on this context",
          desc ? desc->name : "?", ocf_last_error(), reported);
}

ocf_status ocf_context_test_narrow_kernels(ocf_context *ctx, size_t cap) {
  if (!ctx) return ocf_fail(OCF_ERR_INVALID_VALUE, "test hook: NULL context");
  pthread_mutex_lock(&ctx->lock);
  ctx->test_kernel_workgroup_cap = cap;
  /* A device without NVIDIA's register cap option runs whatever its kernels report, so there
     the stand-in's wide plans need no cap. */
  ctx->facts.wide_without_register_cap = cap != 0 && !ctx->facts.nv_compiler_options;
  ctx->plan_generation++;
  pthread_mutex_unlock(&ctx->lock);
  return OCF_SUCCESS;
}
