/*
 * --sweep-wg: each op's time at every workgroup size the device allows, on one mid-sized shape
 * (the harness's table: sweep_gpu, sweep_cpu),
 * to show why the size matters. Sizes the library refuses (OCF_ERR_INVALID_WORKGROUP: beyond the
 * kernel's limit, or not a power of two for matmul) become "refused" rows, not errors.
 */
#include "tool.h"

static void push(size_t *sizes, size_t capacity, size_t *count, size_t value) {
  for (size_t i = 0; i < *count; i++)
    if (sizes[i] == value) return;
  if (*count < capacity) sizes[(*count)++] = value;
}

size_t tool_sweep_sizes(const tool_bench_env *env, int non_powers, size_t *sizes, size_t capacity) {
  size_t count = 0, max = env->info.max_workgroup_size;
  /* On a GPU, fewer work-items than a warp/wavefront (32) only idles lanes. */
  for (size_t wg = env->gpu ? 32 : 1; wg <= max && wg; wg *= 2)
    push(sizes, capacity, &count, wg);
  if (non_powers) {
    /* Multiples of 32 that are not powers of two, and an odd size. */
    static const size_t extra[] = {96, 192, 384, 100};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
      if (extra[i] <= max) push(sizes, capacity, &count, extra[i]);
  }
  /* Keep them in ascending order for the tables and charts. */
  for (size_t i = 1; i < count; i++)
    for (size_t j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
      size_t t = sizes[j];
      sizes[j] = sizes[j - 1];
      sizes[j - 1] = t;
    }
  return count;
}

int tool_bench_sweep(tool_bench_env *env, const int ops[TOOL_MAX_OPS]) {
  size_t wgs[40];
  for (tool_op op = 0; op < tool_op_count(); op++) {
    if (!ops[op]) continue;
    if (tool_stop_requested()) return -1;
    const ocft_op_case *c = tool_op_case(op);
    size_t count = tool_sweep_sizes(env, c->sweep_non_powers, wgs, sizeof wgs / sizeof wgs[0]);
    /* Shapes big enough to fill the device, small enough that ~15 sizes take seconds. */
    if (tool_series_of(op)->sweep(env, op, env->gpu ? c->sweep_gpu : c->sweep_cpu, wgs, count))
      return -1;
  }
  return 0;
}
