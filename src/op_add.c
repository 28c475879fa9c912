/* ocf_add: argument checks, kernel choice and launch for cl/add.cl. */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>

typedef struct add_tuning {
  ocf_tuning_key key;
  size_t workgroup_size;
  unsigned vector_width;
  /* Workgroups per compute unit in the grid-stride launch: enough to hide memory latency on a
     GPU. 0: no grid-stride loop, one vector per work-item, which is what a CPU runtime wants
     (PoCL vectorises across the work-items of a group, and cannot across a per-item loop). */
  unsigned groups_per_unit;
} add_tuning;

static const add_tuning add_table[] = {
    {{"NVIDIA", NULL, CL_DEVICE_TYPE_GPU}, 256, 4, 16},
    {{"Advanced Micro Devices", NULL, CL_DEVICE_TYPE_GPU}, 256, 4, 16},
    {{"Intel", NULL, CL_DEVICE_TYPE_GPU}, 256, 4, 8},
    {{NULL, NULL, CL_DEVICE_TYPE_CPU}, 64, 8, 0},
    {{NULL, NULL, 0}, 128, 4, 8},
};

ocf_status ocf_add(ocf_context *ctx, size_t n, cl_mem x, size_t x_offset, cl_mem y, size_t y_offset,
                   cl_mem out, size_t out_offset, const ocf_launch *launch) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_add: ctx is NULL");
  cl_command_queue queue = NULL;
  ocf_status status = ocf_check_launch(ctx, launch, &queue);
  if (status != OCF_SUCCESS) return status;
  if (n > SIZE_MAX / sizeof(float))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_add: n = %zu floats overflow size_t bytes", n);
  if ((status = ocf_check_buffer(ctx, "x", x, x_offset, n)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "y", y, y_offset, n)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "out", out, out_offset, n)) != OCF_SUCCESS)
    return status;
  int same_start = 0;
  if (ocf_ranges_overlap(out, out_offset, n, x, x_offset, n, &same_start) && !same_start)
    return ocf_fail(OCF_ERR_ALIASING, "ocf_add: out partly overlaps x (only out == x is allowed)");
  if (ocf_ranges_overlap(out, out_offset, n, y, y_offset, n, &same_start) && !same_start)
    return ocf_fail(OCF_ERR_ALIASING, "ocf_add: out partly overlaps y (only out == y is allowed)");

  const add_tuning *tuning = &add_table[ocf_tuning_match(
      &ctx->info, add_table, OCF_ARRAY_LEN(add_table), sizeof add_table[0])];
  size_t wg = launch && launch->workgroup_size ? launch->workgroup_size : tuning->workgroup_size;
  if (wg > ctx->info.max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_add: workgroup size %zu exceeds the device's maximum of %zu", wg,
                    ctx->info.max_workgroup_size);
  if (n == 0) return ocf_dispatch_nothing(queue, launch);

  ocf_variant variant = launch ? launch->variant : OCF_VARIANT_AUTO;
  unsigned vw = tuning->vector_width;
  const char *name = "add_general";
  size_t work = n;
  if (variant == OCF_VARIANT_BASELINE) {
    name = "add_baseline";
  } else if (variant == OCF_VARIANT_AUTO && x_offset % vw == 0 && y_offset % vw == 0 &&
             out_offset % vw == 0) {
    name = "add_vector";
    work = n / vw;
  }
  size_t global = ocf_round_up(n, wg);
  if (variant != OCF_VARIANT_BASELINE) {
    size_t cap =
        tuning->groups_per_unit ? wg * ctx->info.compute_units * tuning->groups_per_unit : SIZE_MAX;
    global = ocf_round_up(work < cap ? work : cap, wg);
    size_t tail_items = ocf_round_up(vw, wg); /* add_vector's tail needs n % vw work-items */
    if (global < tail_items) global = tail_items;
  }

  char options[64];
  snprintf(options, sizeof options, "-DWG=%zu -DVW=%u", wg, vw);
  cl_ulong n_arg = n, x_arg = x_offset, y_arg = y_offset, out_arg = out_offset;
  const ocf_arg args[] = {OCF_ARG(n_arg), OCF_ARG(x),   OCF_ARG(x_arg),  OCF_ARG(y),
                          OCF_ARG(y_arg), OCF_ARG(out), OCF_ARG(out_arg)};
  pthread_mutex_lock(&ctx->lock);
  cl_kernel kernel = NULL;
  status = ocf_kernel_get(ctx, OCF_PROGRAM_ADD, options, name, &kernel);
  if (status == OCF_SUCCESS) status = ocf_check_workgroup(ctx, kernel, 1, &wg);
  if (status == OCF_SUCCESS) status = ocf_set_args(kernel, args, OCF_ARRAY_LEN(args));
  if (status == OCF_SUCCESS) {
    cl_event chain = NULL;
    status = ocf_dispatch(queue, kernel, 1, &global, &wg, launch, 1, 1, &chain);
  }
  pthread_mutex_unlock(&ctx->lock);
  return status;
}

ocf_status ocf_add_host(ocf_context *ctx, size_t n, const float *x, const float *y, float *out) {
  ocf_error_clear();
  if (!ctx || (n && (!x || !y || !out)))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_add_host: %s is NULL",
                    !ctx ? "ctx"
                    : !x ? "x"
                    : !y ? "y"
                         : "out");
  if (n > SIZE_MAX / sizeof(float))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_add_host: n = %zu overflows", n);
  if (n == 0) return OCF_SUCCESS;
  cl_mem xb = NULL, yb = NULL, ob = NULL;
  ocf_status status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, n, x, &xb);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, n, y, &yb);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_WRITE_ONLY, n, NULL, &ob);
  if (status == OCF_SUCCESS) status = ocf_add(ctx, n, xb, 0, yb, 0, ob, 0, NULL);
  if (status == OCF_SUCCESS) status = ocf_host_read(ctx, ob, n, out);
  if (ob) clReleaseMemObject(ob);
  if (yb) clReleaseMemObject(yb);
  if (xb) clReleaseMemObject(xb);
  return status;
}
