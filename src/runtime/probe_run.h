/*
 * What the matrix-unit probes (mma_probe.c, wgmma_probe.c) share: a bf16 product whose exact
 * answer is known, run through the library's own launch on the context's queue, read back and
 * checked element by element; and the steps around it, under the context's probe lock. Each
 * probe keeps its own product, its plan and what its outcome means for the context's facts.
 */
#ifndef OCLFUSE_PROBE_RUN_H
#define OCLFUSE_PROBE_RUN_H

#include "runtime/context.h"

#include <stddef.h>

/* C (m x n, row stride ldc > n, the padding poisoned with NaN) = A (m x k) B (k x n), every
   input a small integer given by a() and b(): exact in bf16 and in every fp32 sum. */
typedef struct ocf_probe_product {
  size_t m, n, k, ldc;
  int (*a)(size_t i, size_t p);
  int (*b)(size_t p, size_t j);
} ocf_probe_product;

/* What one probe run found. */
typedef struct ocf_probe_outcome {
  int ok;                      /* every element came out right */
  unsigned long long reported; /* the kernel's CL_KERNEL_LOCAL_MEM_SIZE when ok, else 0 */
  double start_ms;             /* when the probe began (ocf_now_ms) */
  char why[256];               /* what went wrong, when not ok */
} ocf_probe_outcome;

/* The tuning for the product's shape (bf16 matmul) and a fresh outcome, started now. */
void ocf_probe_begin(ocf_context *ctx, const ocf_probe_product *product, ocf_tuning_values *tuning,
                     ocf_probe_outcome *outcome);

/* Runs `plan` (planned: the status of its planning, whose error text becomes the outcome's why)
   on the product, and reads back the local memory its kernel `kernel` reports; clears the
   last-error text. */
void ocf_probe_finish(ocf_context *ctx, ocf_status planned, const ocf_plan *plan,
                      const ocf_probe_product *product, ocf_kernel_id kernel,
                      ocf_probe_outcome *outcome);

#endif /* OCLFUSE_PROBE_RUN_H */
