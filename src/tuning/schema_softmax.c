/* ocf_softmax's tunables and the rules between them. */
#include "tuning/schemas.h"

static const ocf_tunable softmax_tunables[SM_PARAM_COUNT] = {
    [SM_WG] = {"wg", 1, 16384, 0, 128,
               "work-items of the long-row kernels; the most softmax_resident grows to"},
    [SM_MIN_WG] = {"min_wg", 1, 16384, 0, 32,
                   "the fewest work-items softmax_resident shrinks to for short rows"},
    [SM_VW] = {"vw", 1, 16, 1, 4, "floats per aligned vector access"},
    [SM_ITEMS] = {"items", 1, 32, 1, 4, "most vectors a work-item holds in softmax_resident"},
    [SM_UNROLL] = {"unroll", 1, 16, 0, 4, "vectors loaded per step of the long-row loops"},
    [SM_ROWS_WG] = {"rows_wg", 1, 16384, 0, 128, "work-items of softmax_rows"},
    [SM_SEG_ITEMS] = {"seg_items", 1, 32, 1, 4,
                      "vectors a softmax_rows work-item holds before its row gets more items"},
    [SM_MAX_SEG] = {"max_seg", 1, 16384, 1, 32, "most work-items softmax_rows gives one row"},
    [SM_GROUPS_PER_UNIT] = {"groups_per_unit", 1, 64, 0, 4,
                            "workgroups per compute unit below which long rows are split"},
};

enum { SM_REGISTER_FLOATS = SM_PARAM_COUNT, SM_SEGMENT_FLOATS };

static const char *const softmax_derived[] = {"vw*items", "vw*seg_items"};

static void softmax_derive(const int *v, long long *d) {
  d[0] = (long long)v[SM_VW] * v[SM_ITEMS];
  d[1] = (long long)v[SM_VW] * v[SM_SEG_ITEMS];
}

/* Floats one work-item may hold in registers: beyond this, every GPU spills. */
#define REGISTER_FLOATS 64

static const ocf_rule softmax_rules[] = {
    {OCF_RULE_LE, SM_MIN_WG, SM_WG, 0, -1, "min_wg may not exceed wg"},
    {OCF_RULE_AT_MOST, SM_REGISTER_FLOATS, 0, REGISTER_FLOATS, -1,
     "a softmax_resident work-item holds at most 64 floats"},
    {OCF_RULE_AT_MOST, SM_SEGMENT_FLOATS, 0, REGISTER_FLOATS, -1,
     "a softmax_rows work-item holds at most 64 floats"},
};

const ocf_op_schema ocf_softmax_schema = {
    OCF_OP_SOFTMAX, "softmax",       softmax_tunables,
    SM_PARAM_COUNT, softmax_derived, OCF_ARRAY_LEN(softmax_derived),
    softmax_derive, softmax_rules,   OCF_ARRAY_LEN(softmax_rules)};
