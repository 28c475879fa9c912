/* The result rows of a benchmark run and the values derived from them once all are measured. */
#include "tool.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *tool_row_status_name(tool_row_status status) {
  switch (status) {
  case ROW_OK:
    return "ok";
  case ROW_WRONG:
    return "wrong";
  case ROW_REFUSED:
    return "refused";
  case ROW_FAILED:
    return "failed";
  case ROW_SKIPPED:
    return "skipped";
  }
  return "failed";
}

static void copy_name(char *dst, size_t size, const char *src) {
  snprintf(dst, size, "%s", src ? src : "");
}

tool_row *tool_results_add(tool_results *results, const char *op, const char *shape,
                           const char *variant) {
  if (results->count == results->capacity) {
    size_t capacity = results->capacity ? results->capacity * 2 : 64;
    tool_row *rows = realloc(results->rows, capacity * sizeof *rows);
    if (!rows) {
      tool_error("out of host memory for result rows");
      return NULL;
    }
    results->rows = rows;
    results->capacity = capacity;
  }
  tool_row *row = &results->rows[results->count];
  memset(row, 0, sizeof *row);
  copy_name(row->op, sizeof row->op, op);
  copy_name(row->shape, sizeof row->shape, shape);
  copy_name(row->variant, sizeof row->variant, variant);
  row->status = ROW_SKIPPED;
  row->median_ms = row->min_ms = row->max_ms = row->p10_ms = row->p90_ms = NAN;
  row->rate = row->percent_of_ceiling = row->speedup = row->work = NAN;
  row->unit = "";
  row->verdict.max_error = NAN;
  row->verdict.tolerance = NAN;
  row->verdict.measure = "";
  row->order = results->count;
  results->count++;
  return row;
}

void tool_results_free(tool_results *results) {
  free(results->rows);
  results->rows = NULL;
  results->count = results->capacity = 0;
}

void tool_row_note(tool_row *row, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(row->note, sizeof row->note, fmt, ap);
  va_end(ap);
}

/* The ceiling first, then the ops in the table's order, then anything else. */
static int op_rank(const char *op) {
  if (!strcmp(op, "ceiling")) return 0;
  int i = ocft_op_index(op);
  return i >= 0 ? 1 + i : 1 + (int)ocft_op_count();
}

static int variant_rank(const char *variant) {
  static const char *const order[] = {"copy-kernel", "copy-buffer", "fma-peak",     "oclfuse",
                                      "baseline",    "clblast",     "clblast-tuned"};
  for (int i = 0; i < 7; i++)
    if (!strcmp(variant, order[i])) return i;
  return 7;
}

/* First appearance of the row's (op, shape) among rows[0..count): keeps the run's shape order. */
static size_t shape_rank(const tool_results *results, const tool_row *row) {
  for (size_t i = 0; i < results->count; i++) {
    const tool_row *r = &results->rows[i];
    if (r->sweep == row->sweep && !strcmp(r->op, row->op) && !strcmp(r->shape, row->shape))
      return r->order;
  }
  return row->order;
}

typedef struct sort_key {
  int sweep, op, variant;
  size_t shape, workgroup, order;
} sort_key;

static int compare_keys(const void *pa, const void *pb) {
  const sort_key *a = pa, *b = pb;
#define CMP_(f) \
  if (a->f != b->f) return a->f < b->f ? -1 : 1;
  CMP_(sweep)
  CMP_(op)
  CMP_(shape)
  if (a->sweep) { /* the sweep reads best as one line per op, by workgroup size */
    CMP_(workgroup)
  }
  CMP_(variant)
  CMP_(workgroup)
  CMP_(order)
#undef CMP_
  return 0;
}

static void sort_rows(tool_results *results) {
  size_t n = results->count;
  if (n < 2) return;
  sort_key *keys = malloc(n * sizeof *keys);
  tool_row *sorted = malloc(n * sizeof *sorted);
  if (keys && sorted) {
    for (size_t i = 0; i < n; i++) {
      const tool_row *r = &results->rows[i];
      keys[i] = (sort_key){r->sweep,
                           op_rank(r->op),
                           variant_rank(r->variant),
                           shape_rank(results, r),
                           r->workgroup_size,
                           i};
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (size_t i = 0; i < n; i++)
      sorted[i] = results->rows[keys[i].order];
    memcpy(results->rows, sorted, n * sizeof *sorted);
  } /* else: leave the run's order; the report is still right, only less tidy */
  free(keys);
  free(sorted);
}

/* Says why a rate can pass the ceiling, after the row's note. The bandwidth ceilings are timed
   on buffers far larger than any cache, so a call whose bytes the caches hold can pass them:
   "cache-resident", but only where the bytes do fit (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE); a larger
   call above the ceiling says that the ceiling kernel fell short of it instead. */
static void note_above_ceiling(tool_row *row, int flops, double cache_bytes) {
  char why[160];
  if (flops)
    snprintf(why, sizeof why, "above the measured FMA peak");
  else if (cache_bytes > 0.0 && row->work <= cache_bytes)
    snprintf(why, sizeof why, "above the ceiling: cache-resident (%.3g MiB in a %.3g MiB cache)",
             row->work / 1048576.0, cache_bytes / 1048576.0);
  else
    snprintf(why, sizeof why,
             "above the ceiling with %.3g MiB, more than the %.3g MiB cache: the ceiling kernel "
             "reached less than this call",
             row->work / 1048576.0, cache_bytes / 1048576.0);
  size_t used = strlen(row->note);
  snprintf(row->note + used, sizeof row->note - used, "%s%s", used ? "; " : "", why);
}

/* The ceiling a row's %ceil compares with: the FMA peak for flops, else the op's own (the
   harness's table): the stream kernel (two reads, one write) for add, the copy (one read, one
   write) for softmax. */
static double ceiling_of(const tool_row *r, const tool_ceiling *ceiling) {
  if (!strcmp(r->unit, "GFLOP/s")) return ceiling->fma_gflops;
  const ocft_op_case *op = ocft_op_find(r->op);
  if (op && op->ceiling == OCFT_CEILING_STREAM && ceiling->stream_gbps > 0.0)
    return ceiling->stream_gbps;
  return ceiling->copy_gbps;
}

void tool_results_finish(tool_results *results, const tool_ceiling *ceiling) {
  for (size_t i = 0; i < results->count; i++) {
    tool_row *r = &results->rows[i];
    if (r->status != ROW_OK || !(r->median_ms > 0.0)) continue;
    int flops = !strcmp(r->unit, "GFLOP/s");
    /* A ceiling row's rate is its best call's, as the ceiling is (ceiling.c). */
    double ms = strcmp(r->op, "ceiling") ? r->median_ms : r->min_ms;
    r->rate = r->work / (ms * 1e-3) * 1e-9;
    double top = ceiling_of(r, ceiling);
    if (strcmp(r->op, "ceiling") != 0 && top > 0.0) r->percent_of_ceiling = 100.0 * r->rate / top;
    if (r->percent_of_ceiling > 100.0) note_above_ceiling(r, flops, ceiling->cache_bytes);
  }
  /* Speed-up over the same op and shape's baseline (the unfused/untiled kernel). */
  for (size_t i = 0; i < results->count; i++) {
    tool_row *r = &results->rows[i];
    if (r->status != ROW_OK || r->sweep || !strcmp(r->op, "ceiling")) continue;
    for (size_t j = 0; j < results->count; j++) {
      const tool_row *b = &results->rows[j];
      if (b->status == ROW_OK && !b->sweep && !strcmp(b->variant, "baseline") &&
          !strcmp(b->op, r->op) && !strcmp(b->shape, r->shape)) {
        r->speedup = b->median_ms / r->median_ms;
        break;
      }
    }
  }
  sort_rows(results);
}
