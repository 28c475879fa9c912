/* The shape classes of each op, and which class a call falls in. */
#include "tuning/shape_class.h"

#include "common.h"

#include <string.h>

typedef struct class_desc {
  const char *name;
  const char *doc;
} class_desc;

/* add: a vector that stays in a GPU's L2 (or a CPU's caches) or one that streams. */
static const class_desc add_classes[] = {
    {"small", "n < 2^22 (up to 48 MiB moved: cache-resident on large GPUs)"},
    {"large", "n >= 2^22 (streams from memory)"},
};

/* softmax: by row length, which decides where a row lives (registers, local memory, passes). */
static const class_desc softmax_classes[] = {
    {"narrow", "cols <= 256: several rows a workgroup"},
    {"medium", "cols 257 .. 2048"},
    {"wide", "cols 2049 .. 16384: a row in one workgroup's registers"},
    {"long", "cols 16385 .. 262144"},
    {"huge", "cols > 262144: rows far beyond one workgroup"},
};

/* norm (LayerNorm, RMSNorm; issue 20): by row length, as softmax. */
static const class_desc norm_classes[] = {
    {"narrow", "cols <= 256: several rows a workgroup"},
    {"medium", "cols 257 .. 2048"},
    {"wide", "cols 2049 .. 16384: a row in one workgroup's registers"},
    {"long", "cols 16385 .. 262144: rows split over workgroups"},
    {"huge", "cols > 262144"},
};

/* matmul: the first class that matches, in this order. */
static const class_desc matmul_classes[] = {
    {"skinny", "m <= 16 or n <= 16: matrix-vector-like, bound by memory"},
    {"small_k", "k <= 64 (and not skinny)"},
    {"large_k", "k >= 8 max(m, n) (and not skinny)"},
    {"small", "m n <= 2^20 (and none of the above): few tiles"},
    {"large", "everything else"},
};

static const class_desc *classes_of(ocf_op op, unsigned *count) {
  switch (op) {
  case OCF_OP_ADD:
    *count = OCF_ARRAY_LEN(add_classes);
    return add_classes;
  case OCF_OP_SOFTMAX:
    *count = OCF_ARRAY_LEN(softmax_classes);
    return softmax_classes;
  case OCF_OP_MATMUL:
    *count = OCF_ARRAY_LEN(matmul_classes);
    return matmul_classes;
  case OCF_OP_NORM:
    *count = OCF_ARRAY_LEN(norm_classes);
    return norm_classes;
  case OCF_OP_COUNT:
    break;
  }
  *count = 0;
  return NULL;
}

unsigned ocf_shape_class_count(ocf_op op) {
  unsigned count = 0;
  classes_of(op, &count);
  return count;
}

const char *ocf_shape_class_name(ocf_op op, unsigned index) {
  unsigned count = 0;
  const class_desc *classes = classes_of(op, &count);
  return index < count ? classes[index].name : NULL;
}

const char *ocf_shape_class_doc(ocf_op op, unsigned index) {
  unsigned count = 0;
  const class_desc *classes = classes_of(op, &count);
  return index < count ? classes[index].doc : NULL;
}

int ocf_shape_class_find(ocf_op op, const char *name) {
  unsigned count = 0;
  const class_desc *classes = classes_of(op, &count);
  for (unsigned i = 0; name && i < count; i++)
    if (strcmp(classes[i].name, name) == 0) return (int)i;
  return -1;
}

unsigned ocf_shape_class_of(ocf_op op, const ocf_shape *s) {
  switch (op) {
  case OCF_OP_ADD:
    return s->d[0] < ((size_t)1 << 22) ? 0 : 1;
  case OCF_OP_SOFTMAX:
  case OCF_OP_NORM: {
    size_t cols = s->d[1];
    return cols <= 256 ? 0 : cols <= 2048 ? 1 : cols <= 16384 ? 2 : cols <= 262144 ? 3 : 4;
  }
  case OCF_OP_MATMUL: {
    size_t m = s->d[0], n = s->d[1], k = s->d[2];
    size_t larger = m > n ? m : n;
    if (m <= 16 || n <= 16) return 0;
    if (k <= 64) return 1;
    if (larger <= SIZE_MAX / 8 && k >= 8 * larger) return 2;
    if (m <= ((size_t)1 << 20) / n) return 3;
    return 4;
  }
  case OCF_OP_COUNT:
    break;
  }
  return 0;
}
