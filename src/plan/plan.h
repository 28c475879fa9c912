/*
 * The planner: for each op, a pure function "call arguments + device facts + tuning values ->
 * plan". A plan names the program, its -D values, the kernels in launch order with their global
 * and local sizes, and the scratch the kernels share. Planners make no OpenCL calls, so they are
 * tested for devices that are not present (tests/test_plan.c, `ctest -L plan`).
 *
 * Workgroup limits: a plan fits the device's workgroup and work-item limits and its local
 * memory, and the per-kernel limits learnt from built kernels (ocf_device_facts). When the caller
 * fixed the workgroup size, the plan uses it as given and marks itself `fixed_workgroup`: a
 * limit then refuses the call instead of re-planning.
 */
#ifndef OCLFUSE_PLAN_H
#define OCLFUSE_PLAN_H

#include "device_facts.h"
#include "tuning/tuning.h"

#include <stddef.h>

enum { OCF_PLAN_MAX_STEPS = 3, OCF_PLAN_MAX_DEFINES = 16 };

typedef struct ocf_define {
  const char *name;
  long long value;
} ocf_define;

typedef struct ocf_plan_step {
  ocf_kernel_id kernel;
  unsigned dims;
  size_t global[3], local[3];
} ocf_plan_step;

typedef struct ocf_plan {
  ocf_program_id program;
  unsigned define_count;
  ocf_define defines[OCF_PLAN_MAX_DEFINES];
  /* The kernels in launch order, each a different kernel; every step but the last writes only
     the scratch, never an output, so that a call whose later enqueue fails changes no output. */
  unsigned step_count;
  ocf_plan_step steps[OCF_PLAN_MAX_STEPS];
  size_t scratch_bytes;   /* one buffer the steps share (the frame's scratch), 0: none */
  int fixed_workgroup;    /* the caller chose the workgroup size */
  size_t local_mem_bytes; /* local memory the plan's kernels declare (the largest step) */
  /* Argument values the plan chooses (softmax's split kernels). */
  size_t parts, part_vecs;
} ocf_plan;

/* Appends a -D value; plans never hold more than OCF_PLAN_MAX_DEFINES (a library bug). */
void ocf_plan_define(ocf_plan *plan, const char *name, long long value);
/* The value of a define, or `fallback` when the plan has none of that name. */
long long ocf_plan_define_value(const ocf_plan *plan, const char *name, long long fallback);
/* Appends a 1-D or 2-D step (global and local sizes in work-items, local[1] = 1 for 1-D). */
void ocf_plan_step_add(ocf_plan *plan, ocf_kernel_id kernel, unsigned dims, const size_t *global,
                       const size_t *local);
/* Writes the build options "-DNAME=value ..." of the plan into out; 0, or -1 when too long. */
int ocf_plan_options(const ocf_plan *plan, char *out, size_t capacity);
/* One line for OCLFUSE_VERBOSE and the benchmark: "softmax_rows wg=128 (WG=128 VW=4 ...)". */
void ocf_plan_describe(const ocf_plan *plan, char *out, size_t capacity);
/* Checks the plan's own consistency (every define its kernels read is set, sizes are whole
   multiples, the local sizes within the facts): OCF_SUCCESS or a library-bug error. */
ocf_status ocf_plan_verify(const ocf_plan *plan, const ocf_device_facts *facts);

/* ---- calls, as the planners see them (already validated) ---- */

typedef struct ocf_add_call {
  size_t n, x_off, y_off, out_off;
  ocf_dtype dtype;
  int variant;      /* ocf_variant */
  size_t workgroup; /* the caller's size, 0: tuned */
} ocf_add_call;

typedef struct ocf_softmax_call {
  size_t rows, cols, in_off, in_ld, out_off, out_ld;
  ocf_dtype in_dtype, out_dtype;
  int variant;
  size_t workgroup;
} ocf_softmax_call;

typedef struct ocf_matmul_call {
  int trans_a, trans_b;
  size_t m, n, k; /* k is 0 when alpha is 0: A and B are then not read */
  size_t a_off, lda, b_off, ldb, c_off, ldc;
  ocf_dtype a_dtype, b_dtype, c_dtype;
  int variant;
  size_t workgroup;
} ocf_matmul_call;

/* Each returns OCF_SUCCESS with *plan filled, or an error (a workgroup size the caller fixed
   that cannot run is OCF_ERR_INVALID_WORKGROUP) with nothing to launch. */
ocf_status ocf_plan_add(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                        const ocf_add_call *call, ocf_plan *plan);
ocf_status ocf_plan_softmax(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_softmax_call *call, ocf_plan *plan);
ocf_status ocf_plan_matmul(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                           const ocf_matmul_call *call, ocf_plan *plan);

#endif /* OCLFUSE_PLAN_H */
