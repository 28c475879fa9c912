/* add's row in the op registry (src/ops/registry.h): its shape classes, its planner behind the
   registry's signature, its frame and its warm-up grid. */
#include "common.h"
#include "ops/registry.h"
#include "tuning/schemas.h"

#include <string.h>

_Static_assert(sizeof(ocf_add_call) <= OCF_CALL_MAX, "ocf_add_call outgrew OCF_CALL_MAX");
_Static_assert(sizeof(ocf_add_frame) <= OCF_FRAME_MAX, "ocf_add_frame outgrew OCF_FRAME_MAX");

/* A vector that stays in a GPU's L2 (or a CPU's caches) or one that streams. */
static const ocf_shape_class_desc classes[] = {
    {"small", "n < 2^22 (up to 48 MiB moved: cache-resident on large GPUs)"},
    {"large", "n >= 2^22 (streams from memory)"},
};

static unsigned shape_class(const ocf_shape *s) {
  return s->d[0] < ((size_t)1 << 22) ? 0 : 1;
}

static void tuning_key(const void *call, ocf_shape *shape, ocf_dtype *dtype) {
  const ocf_add_call *c = call;
  memset(shape, 0, sizeof *shape);
  shape->d[0] = c->n;
  *dtype = c->dtype;
}

/* The dense call of the public sizes (n) with every tensor of dtype: what
   ocf_op_tuning_key keys. */
static void sized_call(const size_t *dims, ocf_dtype dtype, void *call) {
  ocf_add_call *c = call;
  memset(c, 0, sizeof *c);
  c->n = dims[0];
  c->dtype = dtype;
  c->variant = OCF_VARIANT_AUTO;
}

static ocf_status plan(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                       const void *call, ocf_plan *plan) {
  return ocf_plan_add(facts, tuning, call, plan);
}

static int empty(const void *call) {
  return ((const ocf_add_call *)call)->n == 0;
}

/* source: an ocf_add_frame, used as it is. */
static void frame(const ocf_plan *plan, const void *call, const void *source, cl_mem dummy,
                  ocf_frame_storage *storage, ocf_frame_slots *slots) {
  (void)plan, (void)call;
  ocf_add_frame *f = (ocf_add_frame *)storage->bytes;
  if (source) {
    *f = *(const ocf_add_frame *)source;
  } else {
    memset(f, 0, sizeof *f);
    f->x = f->y = f->out = dummy;
  }
  slots->scratch = slots->arrivals = NULL;
}

static void warmup_grid(ocf_call_visit visit, void *user) {
  static const size_t sizes[] = {1, 3, 16, 64, 100, 256, 1000, 1024, 4096, 16384, 65536};
  for (size_t i = 0; i < OCF_ARRAY_LEN(sizes); i++)
    for (size_t offset = 0; offset < 2; offset++) {
      ocf_add_call call;
      memset(&call, 0, sizeof call);
      call.n = sizes[i] * sizes[i] / 4 + 1;
      call.x_off = call.y_off = call.out_off = offset;
      call.dtype = OCF_F32;
      call.variant = OCF_VARIANT_AUTO;
      visit(user, &call);
    }
}

const ocf_op_desc ocf_add_op = {"add",
                                OCF_OP_ADD,
                                &ocf_add_schema,
                                classes,
                                OCF_ARRAY_LEN(classes),
                                shape_class,
                                sizeof(ocf_add_call),
                                0,
                                tuning_key,
                                plan,
                                empty,
                                frame,
                                warmup_grid,
                                sized_call};
