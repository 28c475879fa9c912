/* The public value types' helpers: data types and launch settings. */
#include "common.h"

#include <string.h>

size_t ocf_dtype_size(ocf_dtype dtype) {
  switch (dtype) {
  case OCF_F32:
    return 4;
  case OCF_F16:
  case OCF_BF16:
    return 2;
  }
  return 0;
}

const char *ocf_dtype_name(ocf_dtype dtype) {
  switch (dtype) {
  case OCF_F32:
    return "f32";
  case OCF_F16:
    return "f16";
  case OCF_BF16:
    return "bf16";
  }
  return "?";
}

void ocf_launch_init(ocf_launch *launch) {
  if (!launch) return;
  memset(launch, 0, sizeof *launch);
  launch->size = sizeof *launch;
}
