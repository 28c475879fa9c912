/* Checked host allocations (the inputs come from the harness: harness/fill.h). */
#include "tool.h"

#include "storage16.h"

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

/* ---- storage types: the values a 16-bit buffer holds, as the library stores them ---- */

void *tool_alloc_bytes(size_t count) {
  return alloc_checked(count, 1);
}

void tool_round_to(ocf_dtype dtype, float *values, size_t count) {
  for (size_t i = 0; i < count; i++)
    values[i] = dtype == OCF_F16    ? ocf_ref_f16_to_float(ocf_ref_f16_from_float(values[i]))
                : dtype == OCF_BF16 ? ocf_ref_bf16_to_float(ocf_ref_bf16_from_float(values[i]))
                                    : values[i];
}

void tool_encode(ocf_dtype dtype, const float *values, size_t count, void *raw) {
  for (size_t i = 0; i < count; i++) {
    if (dtype == OCF_F32) {
      ((float *)raw)[i] = values[i];
    } else {
      ((uint16_t *)raw)[i] =
          dtype == OCF_F16 ? ocf_ref_f16_from_float(values[i]) : ocf_ref_bf16_from_float(values[i]);
    }
  }
}

float tool_decode(ocf_dtype dtype, const void *raw, size_t i) {
  if (dtype == OCF_F32) return ((const float *)raw)[i];
  uint16_t h = ((const uint16_t *)raw)[i];
  return dtype == OCF_F16 ? ocf_ref_f16_to_float(h) : ocf_ref_bf16_to_float(h);
}
