/* matmul's row in the op registry (src/ops/registry.h): its shape classes, its planner behind
   the registry's signature, its frames and its warm-up grid. */
#include "common.h"
#include "ops/registry.h"
#include "tuning/schemas.h"

#include <string.h>

_Static_assert(sizeof(ocf_matmul_call) <= OCF_CALL_MAX, "ocf_matmul_call outgrew OCF_CALL_MAX");
_Static_assert(sizeof(ocf_matmul_frame) <= OCF_FRAME_MAX, "ocf_matmul_frame outgrew OCF_FRAME_MAX");
_Static_assert(sizeof(ocf_matmul_skinny_frame) <= OCF_FRAME_MAX,
               "ocf_matmul_skinny_frame outgrew OCF_FRAME_MAX");

/* The first class that matches, in this order. */
static const ocf_shape_class_desc classes[] = {
    {"skinny", "m <= 16 or n <= 16: matrix-vector-like, bound by memory"},
    {"small_k", "k <= 64 (and not skinny)"},
    {"large_k", "k >= 8 max(m, n) (and not skinny)"},
    {"few_rows", "m <= 128 < n, k >= 4096 (and none of the above): tokens through a layer"},
    {"small", "m n <= 2^21 (and none of the above): few tiles (128 of 128 x 128)"},
    {"large", "everything else"},
};

static unsigned shape_class(const ocf_shape *s) {
  size_t m = s->d[0], n = s->d[1], k = s->d[2];
  size_t larger = m > n ? m : n;
  if (m <= 16 || n <= 16) return 0;
  if (k <= 64) return 1;
  if (larger <= SIZE_MAX / 8 && k >= 8 * larger) return 2;
  /* Few rows by many columns over a long K (a prompt's or a batch's tokens through a layer's
     weights) want tiles of their own (64 x 128 where 128 x 128 would be half empty) and K split
     deeper, where the few tiles of a small square product want small tiles: apart, each class
     is tuned on shapes of its kind. A shorter K cannot be split deeper. */
  if (m <= 128 && n > 128 && k >= 4096) return 3;
  /* Fewer tiles of 128 x 128 than a wave of a large GPU (128): 2^21 rather than 2^20 since
     2026-12-03 (H200, small's values over large's: 768 x 2048 x 4096 27.6 -> 36.3 TFLOP/s,
     1024 x 2048 x 2048 34.4 -> 37.3; 2048^3 and 1024 x 4096 x 1024 lost with them). */
  if (m <= ((size_t)1 << 21) / n) return 4;
  return 5;
}

static void tuning_key(const void *call, ocf_shape *shape, ocf_dtype *dtype) {
  const ocf_matmul_call *c = call;
  memset(shape, 0, sizeof *shape);
  shape->d[0] = c->m;
  shape->d[1] = c->n;
  shape->d[2] = c->k;
  *dtype = c->a_dtype;
}

/* The dense call of the public sizes (m, n, k) with every tensor of dtype: what
   ocf_op_tuning_key keys. */
static void sized_call(const size_t *dims, ocf_dtype dtype, void *call) {
  ocf_matmul_call *c = call;
  memset(c, 0, sizeof *c);
  c->m = dims[0], c->n = dims[1], c->k = dims[2];
  c->lda = dims[2], c->ldb = c->ldc = dims[1];
  c->a_dtype = c->b_dtype = c->c_dtype = c->bias_dtype = dtype;
  c->variant = OCF_VARIANT_AUTO;
}

static ocf_status plan(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                       const void *call, ocf_plan *plan) {
  return ocf_plan_matmul(facts, tuning, call, plan);
}

static int empty(const void *call) {
  const ocf_matmul_call *c = call;
  return c->m == 0 || c->n == 0;
}

/* The skinny kernels' frame (cl/matmul_skinny.cl, and cl/matmul_few_mma.cl's) of the tiled frame
   `t` of the call. */
static void skinny_frame(const ocf_plan *plan, const ocf_matmul_call *call,
                         const ocf_matmul_frame *t, ocf_matmul_skinny_frame *f) {
  ocf_skinny_layout l;
  ocf_skinny_layout_of(call, plan->swapped, &l);
  memset(f, 0, sizeof *f);
  f->rows = l.rows;
  f->k = t->k;
  f->k_split = plan->k_split;
  f->splits = plan->splits;
  f->batch = t->batch;
  f->x = l.x_is_b ? t->b : t->a;
  f->x_off = l.x_is_b ? t->b_off : t->a_off;
  f->ldx = l.ldx;
  f->stride_x = l.x_is_b ? t->stride_b : t->stride_a;
  f->v = l.x_is_b ? t->a : t->b;
  f->v_off = l.x_is_b ? t->a_off : t->b_off;
  f->v_ps = l.v_ps;
  f->v_ss = l.v_ss;
  f->stride_v = l.x_is_b ? t->stride_a : t->stride_b;
  f->alpha = t->alpha;
  f->beta = t->beta;
  f->c = t->c;
  f->c_off = t->c_off;
  f->c_rs = l.c_rs;
  f->c_ss = l.c_ss;
  f->stride_c = t->stride_c;
  f->bias = t->bias;
  f->bias_off = t->bias_off;
  f->partial = NULL;
}

/* A dry frame: zero sizes, every buffer `dummy`; the unguarded tiled kernels store one tile of
   zeros (beta = 0) into it. */
static void dry_frame(const ocf_plan *plan, cl_mem dummy, ocf_frame_storage *storage,
                      ocf_frame_slots *slots) {
  if (plan->program == OCF_PROGRAM_MATMUL_SKINNY || plan->program == OCF_PROGRAM_MATMUL_FEW_MMA) {
    /* Every stride 0: whatever a kernel touches is element 0 of the dummy. */
    ocf_matmul_skinny_frame *f = (ocf_matmul_skinny_frame *)storage->bytes;
    memset(f, 0, sizeof *f);
    f->x = f->v = f->c = f->bias = f->partial = f->arrivals = dummy;
    f->k_split = f->splits = f->batch = 1;
    slots->scratch = &f->partial;
    slots->arrivals = &f->arrivals;
    return;
  }
  ocf_matmul_frame *f = (ocf_matmul_frame *)storage->bytes;
  memset(f, 0, sizeof *f);
  f->a = f->b = f->c = f->bias = f->partial = f->arrivals = dummy;
  f->k_split = f->splits = f->batch = 1;
  if (plan->program == OCF_PROGRAM_MATMUL || plan->program == OCF_PROGRAM_MATMUL_BASELINE) {
    f->ldc = (cl_ulong)ocf_plan_define_value(plan, "NDIMC", 1) *
             (cl_ulong)ocf_plan_define_value(plan, "NWI", 1);
    f->lda = f->ldb = 4;
    f->lds_a = f->lds_b = 4; /* matmul_pad: no rows (s_stride 0) */
  } else { /* the matrix-unit kernels: m = n = 0, their workgroups leave at once */
    f->lda = f->ldb = f->ldc = 1;
  }
  slots->scratch = &f->partial;
  slots->arrivals = &f->arrivals;
}

/* source: the tiled kernels' ocf_matmul_frame of the row-major problem (k_split, splits and
   partial left to the plan); the matrix-unit kernels take the same frame, the skinny kernels
   one derived from it. */
static void frame(const ocf_plan *plan, const void *call, const void *source, cl_mem dummy,
                  ocf_frame_storage *storage, ocf_frame_slots *slots) {
  slots->arrivals = NULL;
  if (!source) {
    dry_frame(plan, dummy, storage, slots);
    return;
  }
  const ocf_matmul_frame *t = source;
  if (plan->program == OCF_PROGRAM_MATMUL_SKINNY || plan->program == OCF_PROGRAM_MATMUL_FEW_MMA) {
    ocf_matmul_skinny_frame *f = (ocf_matmul_skinny_frame *)storage->bytes;
    skinny_frame(plan, call, t, f);
    slots->scratch = &f->partial;
    slots->arrivals = &f->arrivals;
    return;
  }
  ocf_matmul_frame *f = (ocf_matmul_frame *)storage->bytes;
  *f = *t;
  f->k_split = plan->k_split;
  f->splits = plan->splits;
  f->lw_first = plan->lw_first;
  f->maps_at = plan->maps_at;
  f->partial = f->arrivals = NULL;
  if (plan->staged_k) { /* the staged wgmma plans' operands in the scratch (matmul_stage.cl) */
    f->ks = plan->staged_k;
    f->lds = plan->staged_ld;
    f->s_stride_a = t->m * plan->staged_ld;
    f->s_stride_b = t->n * plan->staged_ld;
    f->sb_off = plan->staged_a ? t->batch * f->s_stride_a : 0;
  }
  if (plan->pad_lda || plan->pad_ldb) { /* the padded tiled plans' copies (matmul_pad.cl) */
    f->lds_a = plan->pad_lda;
    f->lds_b = plan->pad_ldb;
    f->s_stride_a = plan->pad_rows_a * plan->pad_lda;
    f->s_stride_b = plan->pad_rows_b * plan->pad_ldb;
    f->sb_off = t->batch * f->s_stride_a;
  }
  slots->scratch = &f->partial;
  slots->arrivals = &f->arrivals;
}

/* Every tile set a class may choose, whole (matmul_tiled_fast) and ragged (mixed), split or
   not: a program holds only its plan's kernels, so each of these is a program of its own. */
static void warmup_grid(ocf_call_visit visit, void *user) {
  static const size_t sizes[] = {1, 16, 32, 64, 100, 128, 256, 512, 1000, 2048, 8192};
  for (int trans = 0; trans < 4; trans++)
    for (size_t i = 0; i < OCF_ARRAY_LEN(sizes); i++)
      for (size_t j = 0; j < OCF_ARRAY_LEN(sizes); j++)
        for (size_t l = 0; l < OCF_ARRAY_LEN(sizes); l++)
          for (size_t aligned = 0; aligned < 2; aligned++) {
            ocf_matmul_call call;
            memset(&call, 0, sizeof call);
            call.trans_a = trans & 1;
            call.trans_b = trans >> 1;
            call.m = sizes[i];
            call.n = sizes[j];
            call.k = sizes[l];
            call.lda = call.ldb = call.ldc = aligned ? 8192 : 8193;
            call.a_dtype = call.b_dtype = call.c_dtype = OCF_F32;
            call.variant = OCF_VARIANT_AUTO;
            call.batch = 1;
            visit(user, &call);
          }
}

const ocf_op_desc ocf_matmul_op = {"matmul",
                                   OCF_OP_MATMUL,
                                   &ocf_matmul_schema,
                                   classes,
                                   OCF_ARRAY_LEN(classes),
                                   shape_class,
                                   sizeof(ocf_matmul_call),
                                   offsetof(ocf_matmul_call, scratch_bound),
                                   tuning_key,
                                   plan,
                                   empty,
                                   frame,
                                   warmup_grid,
                                   sized_call};
