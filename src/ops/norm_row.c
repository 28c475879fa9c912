/* The norm op's row in the op registry (src/ops/registry.h): LayerNorm and RMSNorm (issue 20),
   one op. Its shape classes, its planner behind the registry's signature, its frame and its
   warm-up grid. */
#include "common.h"
#include "ops/registry.h"
#include "tuning/schemas.h"

#include <string.h>

_Static_assert(sizeof(ocf_norm_call) <= OCF_CALL_MAX, "ocf_norm_call outgrew OCF_CALL_MAX");
_Static_assert(sizeof(ocf_norm_frame) <= OCF_FRAME_MAX, "ocf_norm_frame outgrew OCF_FRAME_MAX");

/* By row length, as softmax's: where a row lives (a segment's registers, one workgroup's, the
   split). Softmax's wide class is two here: a row of more than 8192 columns fills a workgroup's
   registers twice as deep, and on the H200 its bfloat16 rows ran fastest a workgroup a row where
   shorter ones ran fastest four workgroups a compute unit looping over the rows, each loading
   its next row early (2026-12-03: RMSNorm 1024 x 16384 2672 GB/s looping, 3062 not; LayerNorm
   4096 x 8192 3331 looping, 3011 not). */
static const ocf_shape_class_desc classes[] = {
    {"narrow", "cols <= 256: several rows a workgroup"},
    {"medium", "cols 257 .. 2048"},
    {"wide", "cols 2049 .. 8192: a row in one workgroup's registers"},
    {"wider", "cols 8193 .. 16384: a row in one workgroup's registers, twice as deep"},
    {"long", "cols 16385 .. 262144: rows split over workgroups"},
    {"huge", "cols > 262144"},
};

static unsigned shape_class(const ocf_shape *s) {
  size_t cols = s->d[1];
  return cols <= 256      ? 0
         : cols <= 2048   ? 1
         : cols <= 8192   ? 2
         : cols <= 16384  ? 3
         : cols <= 262144 ? 4
                          : 5;
}

static void tuning_key(const void *call, ocf_shape *shape, ocf_dtype *dtype) {
  const ocf_norm_call *c = call;
  memset(shape, 0, sizeof *shape);
  shape->d[0] = c->rows;
  shape->d[1] = c->cols;
  *dtype = c->in_dtype;
}

/* The dense call of the public sizes (rows, cols) with every tensor of dtype: what
   ocf_op_tuning_key keys. */
static void sized_call(const size_t *dims, ocf_dtype dtype, void *call) {
  ocf_norm_call *c = call;
  memset(c, 0, sizeof *c);
  c->rows = dims[0], c->cols = dims[1];
  c->in_ld = c->out_ld = dims[1];
  c->in_dtype = c->out_dtype = c->res_dtype = c->weight_dtype = dtype;
  c->variant = OCF_VARIANT_AUTO;
}

static ocf_status plan(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                       const void *call, ocf_plan *plan) {
  return ocf_plan_norm(facts, tuning, call, plan);
}

static int empty(const void *call) {
  const ocf_norm_call *c = call;
  return c->rows == 0 || c->cols == 0;
}

/* source: an ocf_norm_frame of the call's buffers, offsets and scalars; the plan adds the split
   kernels' slices (parts, part_vecs). The dry frame has rows 0: every kernel loops over
   nothing. */
static void frame(const ocf_plan *plan, const void *call, const void *source, cl_mem dummy,
                  ocf_frame_storage *storage, ocf_frame_slots *slots) {
  (void)call;
  ocf_norm_frame *f = (ocf_norm_frame *)storage->bytes;
  if (source) {
    *f = *(const ocf_norm_frame *)source;
    f->parts = plan->parts ? plan->parts : 1;
    f->part_vecs = plan->part_vecs;
  } else {
    memset(f, 0, sizeof *f);
    f->in = f->out = f->weight = f->bias = f->res = f->res_out = f->mean = f->rstd = f->scratch =
        dummy;
    f->in_ld = f->out_ld = f->res_ld = f->res_out_ld = f->parts = f->part_vecs = 1;
    f->cols = 1;
  }
  slots->scratch = &f->scratch;
  slots->arrivals = NULL;
}

/* LayerNorm with weight and bias and RMSNorm with weight, fp32, over rows of every class,
   aligned and not. */
static void warmup_grid(ocf_call_visit visit, void *user) {
  static const size_t rows_grid[] = {1, 256, 65536};
  for (int rms = 0; rms < 2; rms++)
    for (size_t r = 0; r < OCF_ARRAY_LEN(rows_grid); r++)
      for (size_t c = 1; c <= ((size_t)1 << 22); c *= 4)
        for (size_t odd = 0; odd < 2; odd++) {
          size_t cols = c + odd * (c / 3 + 1);
          if (rows_grid[r] * cols > ((size_t)1 << 28)) continue;
          ocf_norm_call call;
          memset(&call, 0, sizeof call);
          call.rows = rows_grid[r];
          call.cols = cols;
          call.in_ld = call.out_ld = cols + odd;
          call.in_dtype = call.out_dtype = call.res_dtype = call.weight_dtype = OCF_F32;
          call.variant = OCF_VARIANT_AUTO;
          call.rms = rms;
          call.has_weight = 1;
          call.has_bias = !rms;
          visit(user, &call);
        }
}

const ocf_op_desc ocf_norm_op = {"norm",
                                 OCF_OP_NORM,
                                 &ocf_norm_schema,
                                 classes,
                                 OCF_ARRAY_LEN(classes),
                                 shape_class,
                                 sizeof(ocf_norm_call),
                                 offsetof(ocf_norm_call, scratch_bound),
                                 tuning_key,
                                 plan,
                                 empty,
                                 frame,
                                 warmup_grid,
                                 sized_call};
