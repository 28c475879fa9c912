/* softmax's row in the op registry (src/ops/registry.h): its shape classes, its planner behind
   the registry's signature, its frame and its warm-up grid. */
#include "common.h"
#include "ops/registry.h"
#include "tuning/schemas.h"

#include <string.h>

_Static_assert(sizeof(ocf_softmax_call) <= OCF_CALL_MAX, "ocf_softmax_call outgrew OCF_CALL_MAX");
_Static_assert(sizeof(ocf_softmax_frame) <= OCF_FRAME_MAX,
               "ocf_softmax_frame outgrew OCF_FRAME_MAX");

/* By row length, which decides where a row lives (registers, local memory, passes). */
static const ocf_shape_class_desc classes[] = {
    {"narrow", "cols <= 256: several rows a workgroup"},
    {"medium", "cols 257 .. 2048"},
    {"wide", "cols 2049 .. 16384: a row in one workgroup's registers"},
    {"long", "cols 16385 .. 262144"},
    {"huge", "cols > 262144: rows far beyond one workgroup"},
};

static unsigned shape_class(const ocf_shape *s) {
  size_t cols = s->d[1];
  return cols <= 256 ? 0 : cols <= 2048 ? 1 : cols <= 16384 ? 2 : cols <= 262144 ? 3 : 4;
}

static void tuning_key(const void *call, ocf_shape *shape, ocf_dtype *dtype) {
  const ocf_softmax_call *c = call;
  memset(shape, 0, sizeof *shape);
  shape->d[0] = c->rows;
  shape->d[1] = c->cols;
  *dtype = c->in_dtype;
}

/* The dense call of the public sizes (rows, cols) with every tensor of dtype: what
   ocf_op_tuning_key keys. */
static void sized_call(const size_t *dims, ocf_dtype dtype, void *call) {
  ocf_softmax_call *c = call;
  memset(c, 0, sizeof *c);
  c->rows = dims[0], c->cols = dims[1];
  c->in_ld = c->out_ld = dims[1];
  c->in_dtype = c->out_dtype = dtype;
  c->variant = OCF_VARIANT_AUTO;
}

static ocf_status plan(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                       const void *call, ocf_plan *plan) {
  return ocf_plan_softmax(facts, tuning, call, plan);
}

static int empty(const void *call) {
  const ocf_softmax_call *c = call;
  return c->rows == 0 || c->cols == 0;
}

/* source: an ocf_softmax_frame of the call's buffers and scalars; the plan adds the split
   kernels' slices (parts, part_vecs). */
static void frame(const ocf_plan *plan, const void *call, const void *source, cl_mem dummy,
                  ocf_frame_storage *storage, ocf_frame_slots *slots) {
  (void)call;
  ocf_softmax_frame *f = (ocf_softmax_frame *)storage->bytes;
  if (source) {
    *f = *(const ocf_softmax_frame *)source;
    f->parts = plan->parts;
    f->part_vecs = plan->part_vecs;
  } else {
    memset(f, 0, sizeof *f);
    f->in = f->out = f->scratch = f->lengths = dummy;
    f->in_ld = f->out_ld = f->parts = f->causal_period = 1;
  }
  slots->scratch = &f->scratch;
  slots->arrivals = NULL;
}

static void warmup_grid(ocf_call_visit visit, void *user) {
  static const size_t rows_grid[] = {1, 8, 256, 4096, 65536};
  for (size_t r = 0; r < OCF_ARRAY_LEN(rows_grid); r++)
    for (size_t c = 1; c <= ((size_t)1 << 22); c *= 2)
      for (size_t odd = 0; odd < 2; odd++) {
        size_t cols = c + odd * (c / 3 + 1); /* powers of two and widths between them */
        if (rows_grid[r] * cols > ((size_t)1 << 28)) continue;
        ocf_softmax_call call;
        memset(&call, 0, sizeof call);
        call.rows = rows_grid[r];
        call.cols = cols;
        call.in_ld = call.out_ld = cols + odd;
        call.in_dtype = call.out_dtype = OCF_F32;
        call.variant = OCF_VARIANT_AUTO;
        visit(user, &call);
      }
}

const ocf_op_desc ocf_softmax_op = {"softmax",
                                    OCF_OP_SOFTMAX,
                                    &ocf_softmax_schema,
                                    classes,
                                    OCF_ARRAY_LEN(classes),
                                    shape_class,
                                    sizeof(ocf_softmax_call),
                                    offsetof(ocf_softmax_call, scratch_bound),
                                    tuning_key,
                                    plan,
                                    empty,
                                    frame,
                                    warmup_grid,
                                    sized_call};
