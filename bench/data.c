/* Checked host allocations (the inputs come from the harness: tests/fill.h). */
#include "tool.h"

#include <stdlib.h>

static void *alloc_checked(size_t count, size_t size) {
  if (count == 0) count = 1;
  if (count > SIZE_MAX / size) {
    tool_error("%zu elements of %zu bytes overflow size_t", count, size);
    return NULL;
  }
  void *p = malloc(count * size);
  if (!p) tool_error("out of host memory (%zu bytes)", count * size);
  return p;
}

float *tool_alloc_floats(size_t count) {
  return alloc_checked(count, sizeof(float));
}

double *tool_alloc_doubles(size_t count) {
  return alloc_checked(count, sizeof(double));
}
