/*
 * The report's derived values without a device (bench/results.c): which ceiling each op's %ceil
 * is of, a ceiling row's rate from its fastest call, and "cache-resident" only for calls whose
 * bytes fit the device's cache; which failed calls' statuses skip a baseline. Plain C: prints one
 * line per failure, exits 1 if any. Usage: oclfuse_results_test
 */
#include "tool.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define EXPECT(cond)                                         \
  do {                                                       \
    if (!(cond)) {                                           \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                            \
    }                                                        \
  } while (0)

/* A timed row of `bytes` bytes (or flops) whose median call took `ms`. */
static tool_row *timed(tool_results *results, const char *op, const char *shape, const char *unit,
                       double bytes, double ms) {
  tool_row *row = tool_results_add(results, op, shape, "oclfuse");
  row->status = ROW_OK;
  row->unit = unit;
  row->work = bytes;
  row->median_ms = row->min_ms = row->max_ms = ms;
  row->repeats = 5;
  return row;
}

static const tool_row *find(const tool_results *results, const char *op, const char *shape) {
  for (size_t i = 0; i < results->count; i++)
    if (!strcmp(results->rows[i].op, op) && !strcmp(results->rows[i].shape, shape))
      return &results->rows[i];
  return NULL;
}

int main(void) {
  tool_set_quiet(1);
  const double mib = 1048576.0;
  /* Copy 10 GB/s, stream 20 GB/s, FMA 100 GFLOP/s, a 1 MiB cache. */
  tool_ceiling ceiling = {10.0, 9.0, 10.0, 20.0, 100.0, 1.0 * mib};
  tool_results results = {NULL, 0, 0};
  /* add at 15 GB/s: 75 % of the stream ceiling, though above the copy one. */
  timed(&results, "add", "mid", "GB/s", 15e9 * 1e-3, 1.0);
  /* add at 40 GB/s on 0.5 MiB: cache-resident; on 100 MiB: not, whatever the rate says. */
  timed(&results, "add", "small", "GB/s", 0.5 * mib, 0.5 * mib / 40e9 * 1e3);
  timed(&results, "add", "large", "GB/s", 100.0 * mib, 100.0 * mib / 40e9 * 1e3);
  /* softmax at 15 GB/s: of the copy ceiling, so 150 %, and 64 MiB do not fit the cache. */
  timed(&results, "softmax", "wide", "GB/s", 64.0 * mib, 64.0 * mib / 15e9 * 1e3);
  /* matmul at 50 GFLOP/s */
  timed(&results, "matmul", "square", "GFLOP/s", 50e9 * 1e-3, 1.0);
  /* a ceiling row: its rate is its fastest call's (10 GB/s), not its median's */
  tool_row *c = timed(&results, "ceiling", "n=1", "GB/s", 10e9 * 1e-3, 2.0);
  c->min_ms = 1.0;
  tool_results_finish(&results, &ceiling);

  const tool_row *r = find(&results, "add", "mid");
  EXPECT(r && fabs(r->percent_of_ceiling - 75.0) < 1e-9 && !r->note[0]);
  r = find(&results, "add", "small");
  EXPECT(r && r->percent_of_ceiling > 100.0 && strstr(r->note, "cache-resident"));
  r = find(&results, "add", "large");
  EXPECT(r && r->percent_of_ceiling > 100.0 && !strstr(r->note, "cache-resident"));
  EXPECT(r && strstr(r->note, "ceiling kernel reached less"));
  r = find(&results, "softmax", "wide");
  EXPECT(r && fabs(r->percent_of_ceiling - 150.0) < 1e-6 && !strstr(r->note, "cache-resident"));
  r = find(&results, "matmul", "square");
  EXPECT(r && fabs(r->percent_of_ceiling - 50.0) < 1e-9);
  r = find(&results, "ceiling", "n=1");
  EXPECT(r && fabs(r->rate - 10.0) < 1e-9);
  /* No cache size known: never "cache-resident". */
  tool_results unknown = {NULL, 0, 0};
  tool_ceiling no_cache = ceiling;
  no_cache.cache_bytes = 0.0;
  timed(&unknown, "add", "small", "GB/s", 0.5 * mib, 0.5 * mib / 40e9 * 1e3);
  tool_results_finish(&unknown, &no_cache);
  EXPECT(!strstr(unknown.rows[0].note, "cache-resident"));
  tool_results_free(&unknown);
  tool_results_free(&results);
  /* A baseline the device cannot give a buffer is skipped, not failed; a kernel that cannot
     launch (NVIDIA's CL_OUT_OF_RESOURCES) and the library's own refusals still fail. */
  EXPECT(tool_out_of_device_memory(CL_MEM_OBJECT_ALLOCATION_FAILURE));
  EXPECT(tool_out_of_device_memory(CL_INVALID_BUFFER_SIZE));
  EXPECT(!tool_out_of_device_memory(CL_OUT_OF_RESOURCES));
  EXPECT(!tool_out_of_device_memory(OCF_ERR_BUFFER_TOO_SMALL));
  EXPECT(!tool_out_of_device_memory(OCF_SUCCESS));
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
