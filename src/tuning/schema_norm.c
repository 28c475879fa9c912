/* The tunables of ocf_layernorm and ocf_rmsnorm (one schema, "norm") and the rules between them
   (how the planner uses them: src/plan/plan_norm.c). */
#include "tuning/schemas.h"

static const ocf_tunable norm_tunables[NM_PARAM_COUNT] = {
    [NM_WG] = {"wg", 1, 16384, 0, 128,
               "work-items of the split kernels (rows beyond registers: a workgroup a slice)"},
    [NM_VW] = {"vw", 1, 16, 1, 4, "elements per aligned vector access"},
    [NM_ITEMS] = {"items", 1, 64, 0, 8, "most vectors a norm_rows work-item holds in registers"},
    [NM_ROWS_WG] = {"rows_wg", 1, 16384, 0, 128, "most work-items of norm_rows"},
    [NM_SEG_ITEMS] = {"seg_items", 1, 64, 0, 4,
                      "vectors a norm_rows work-item holds before its row gets more work-items"},
    [NM_MAX_SEG] = {"max_seg", 1, 16384, 0, 128, "most work-items norm_rows gives one row"},
    [NM_SEG_ALIGN] = {"seg_align", 1, 64, 1, 1,
                      "norm_rows segments longer than this are a multiple of it (a warp)"},
    [NM_UNROLL] = {"unroll", 1, 16, 0, 4, "vectors loaded per step of the split's loops"},
    [NM_GROUPS_PER_UNIT] = {"groups_per_unit", 1, 64, 0, 4,
                            "workgroups per compute unit that few long rows are cut to fill"},
};

enum { NM_REGISTER_FLOATS = NM_PARAM_COUNT };

static const char *const norm_derived[] = {"vw*items"};

static void norm_derive(const int *v, long long *d) {
  d[0] = (long long)v[NM_VW] * v[NM_ITEMS];
}

/* Floats a norm_rows work-item holds: its shifted row values, from the one read to the one
   write (the residual is added on the way in, not held). 128 keeps a 256-item group within
   NVIDIA's 255 registers a thread with room for addresses. */
#define HELD_FLOATS 128

static const ocf_rule norm_rules[] = {
    {OCF_RULE_LE, NM_SEG_ITEMS, NM_ITEMS, 0, -1, "seg_items may not exceed items"},
    {OCF_RULE_AT_MOST, NM_REGISTER_FLOATS, 0, HELD_FLOATS, -1,
     "a norm_rows work-item holds at most 128 floats in registers"},
};

const ocf_op_schema ocf_norm_schema = {OCF_OP_NORM,    "norm",       norm_tunables,
                                       NM_PARAM_COUNT, norm_derived, OCF_ARRAY_LEN(norm_derived),
                                       norm_derive,    norm_rules,   OCF_ARRAY_LEN(norm_rules)};
