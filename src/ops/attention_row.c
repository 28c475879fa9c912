/* attention's row in the op registry (src/ops/registry.h): its shape classes, its planner behind
   the registry's signature, its frame and its warm-up grid. */
#include "common.h"
#include "ops/registry.h"
#include "tuning/schemas.h"

#include <string.h>

_Static_assert(sizeof(ocf_attention_call) <= OCF_CALL_MAX,
               "ocf_attention_call outgrew OCF_CALL_MAX");
_Static_assert(sizeof(ocf_attention_frame) <= OCF_FRAME_MAX,
               "ocf_attention_frame outgrew OCF_FRAME_MAX");

/* Few query rows (a decoding step) or many, and of those, narrow heads apart: the matrix-unit
   tiles that serve head dim 128 (32 query rows a warp) gain nothing at 64, where 16 rows in three
   stages do (H200, docs/ATTENTION.md). */
static const ocf_shape_class_desc classes[] = {
    {"decode", "lq <= 16: a few query rows against the keys"},
    {"prefill", "lq > 16, d > 64"},
    {"prefill_d64", "lq > 16, d <= 64"},
};

static unsigned shape_class(const ocf_shape *s) {
  return s->d[0] <= 16 ? 0 : s->d[2] <= 64 ? 2 : 1;
}

/* The shape is (lq, lk, d), the data type q's. */
static void tuning_key(const void *call, ocf_shape *shape, ocf_dtype *dtype) {
  const ocf_attention_call *c = call;
  memset(shape, 0, sizeof *shape);
  shape->d[0] = c->lq;
  shape->d[1] = c->lk;
  shape->d[2] = c->d;
  *dtype = c->q_dtype;
}

/* The dense call of the public sizes (b, h, lq, lk, d) with every tensor of dtype: what
   ocf_op_tuning_key keys. */
static void sized_call(const size_t *dims, ocf_dtype dtype, void *call) {
  ocf_attention_call *c = call;
  memset(c, 0, sizeof *c);
  c->b = dims[0], c->h = c->h_kv = dims[1], c->lq = dims[2], c->lk = dims[3], c->d = dims[4];
  c->q_dtype = c->k_dtype = c->v_dtype = c->out_dtype = dtype;
  c->variant = OCF_VARIANT_AUTO;
}

static ocf_status plan(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                       const void *call, ocf_plan *plan) {
  return ocf_plan_attention(facts, tuning, call, plan);
}

static int empty(const void *call) {
  const ocf_attention_call *c = call;
  return c->b == 0 || c->h == 0 || c->lq == 0;
}

/* source: an ocf_attention_frame with every argument but the split's (splits, split_keys: the
   plan's) and the scratch and arrival counters (the run loop's). */
static void frame(const ocf_plan *plan, const void *call, const void *source, cl_mem dummy,
                  ocf_frame_storage *storage, ocf_frame_slots *slots) {
  (void)call;
  ocf_attention_frame *f = (ocf_attention_frame *)storage->bytes;
  if (source) {
    *f = *(const ocf_attention_frame *)source;
    f->splits = plan->kv_splits;
    f->split_keys = plan->split_keys;
  } else {
    /* b = 0: every workgroup of attention_tiled and attention_split leaves at once, and
       attention_merge has no row to write. */
    memset(f, 0, sizeof *f);
    f->q = f->k = f->v = f->out = f->lengths = f->lse = f->scratch = f->arrivals = dummy;
    f->h = f->group = f->lq = f->lk = f->d = 1;
    f->splits = f->split_keys = 1;
  }
  slots->scratch = &f->scratch;
  slots->arrivals = &f->arrivals;
}

/* The two commonest head dims (each 16-wide band is a program of its own; PoCL took 4.6 minutes
   for 108 plans of six), decode and prefill rows, short and split key lengths, with and without
   the causal mask, fp32 and the 16-bit types (all four tensors of one type). Other head dims and
   mixed types build at their first call. */
static void warmup_grid(ocf_call_visit visit, void *user) {
  static const size_t lqs[] = {1, 16, 128, 1024};
  static const size_t lks[] = {128, 4096};
  static const ocf_dtype dtypes[] = {OCF_F32, OCF_F16, OCF_BF16};
  static const size_t ds[] = {64, 128};
  for (size_t i = 0; i < OCF_ARRAY_LEN(ds); i++)
    for (size_t q = 0; q < OCF_ARRAY_LEN(lqs); q++)
      for (size_t k = 0; k < OCF_ARRAY_LEN(lks); k++)
        for (int causal = 0; causal < 2; causal++)
          for (size_t t = 0; t < OCF_ARRAY_LEN(dtypes); t++) {
            ocf_attention_call call;
            memset(&call, 0, sizeof call);
            call.b = 1, call.h = 8, call.lq = lqs[q], call.lk = lks[k], call.d = ds[i];
            call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = dtypes[t];
            call.variant = OCF_VARIANT_AUTO;
            call.causal = causal;
            visit(user, &call);
          }
}

const ocf_op_desc ocf_attention_op = {"attention",
                                      OCF_OP_ATTENTION,
                                      &ocf_attention_schema,
                                      classes,
                                      OCF_ARRAY_LEN(classes),
                                      shape_class,
                                      sizeof(ocf_attention_call),
                                      offsetof(ocf_attention_call, scratch_bound),
                                      tuning_key,
                                      plan,
                                      empty,
                                      frame,
                                      warmup_grid,
                                      sized_call};
