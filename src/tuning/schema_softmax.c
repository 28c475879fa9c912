/* ocf_softmax's tunables and the rules between them (how the planner uses them:
   src/plan/plan_softmax.c). */
#include "tuning/schemas.h"

static const ocf_tunable softmax_tunables[SM_PARAM_COUNT] = {
    [SM_WG] = {"wg", 1, 16384, 0, 128,
               "work-items of the one-row-a-workgroup kernels; the most softmax_resident grows to"},
    [SM_MIN_WG] = {"min_wg", 1, 16384, 0, 32,
                   "the fewest work-items softmax_resident shrinks to for short rows"},
    [SM_VW] = {"vw", 1, 16, 1, 4, "elements per aligned vector access"},
    [SM_ITEMS] = {"items", 1, 64, 0, 4,
                  "most vectors a work-item holds in registers (softmax_resident, softmax_coop)"},
    [SM_LOCAL_ITEMS] = {"local_items", 0, 64, 0, 0,
                        "most vectors a work-item holds in local memory beyond its registers"},
    [SM_UNROLL] = {"unroll", 1, 16, 0, 4, "vectors loaded per step of the streaming loops"},
    [SM_ROWS_WG] = {"rows_wg", 1, 16384, 0, 128, "most work-items of softmax_rows"},
    [SM_SEG_ITEMS] = {"seg_items", 1, 32, 0, 4,
                      "vectors a softmax_rows work-item holds before its row gets more items"},
    [SM_MAX_SEG] = {"max_seg", 1, 16384, 0, 32, "most work-items softmax_rows gives one row"},
    [SM_SEG_ALIGN] = {"seg_align", 1, 64, 1, 1,
                      "softmax_rows segments longer than this are a multiple of it (a warp)"},
    [SM_PREFETCH] = {"prefetch", 0, 1, 0, 0,
                     "softmax_rows loads its next batch of rows before reducing the current"},
    [SM_ROWS_GROUPS_PER_UNIT] = {"rows_groups_per_unit", 0, 256, 0, 0,
                                 "softmax_rows workgroups per compute unit, looping over the "
                                 "batches of rows; 0: one workgroup a batch"},
    [SM_GROUPS_PER_UNIT] = {"groups_per_unit", 1, 64, 0, 4,
                            "workgroups per compute unit below which rows are split"},
    [SM_COOP_SPIN] = {"coop_spin", 0, 1 << 24, 0, 0,
                      "polls softmax_coop waits for a partner before computing its statistics "
                      "itself (the planner cuts it to 2^21 polls a workgroup in all); 0: long "
                      "rows use the two-kernel split instead"},
    [SM_COOP_ITEMS] = {"coop_items", 0, 64, 0, 0,
                       "most vectors a softmax_coop work-item holds (smaller slices, more of a "
                       "row's workgroups resident at once); 0: as many as items and "
                       "local_items allow"},
};

enum { SM_REGISTER_FLOATS = SM_PARAM_COUNT, SM_SEGMENT_FLOATS };

static const char *const softmax_derived[] = {"vw*items", "vw*seg_items*(1+prefetch)"};

static void softmax_derive(const int *v, long long *d) {
  d[0] = (long long)v[SM_VW] * v[SM_ITEMS];
  d[1] = (long long)v[SM_VW] * v[SM_SEG_ITEMS] * (1 + v[SM_PREFETCH]);
}

/* Floats one work-item may hold in registers. A row-holding work-item of 256 floats needs most
   of a GPU's 255 registers (one 256-item group a compute unit on NVIDIA); softmax_rows keeps many
   groups a compute unit, so its rows stay small. */
#define HELD_FLOATS 256
#define SEGMENT_FLOATS 128

static const ocf_rule softmax_rules[] = {
    {OCF_RULE_LE, SM_MIN_WG, SM_WG, 0, -1, "min_wg may not exceed wg"},
    {OCF_RULE_AT_MOST, SM_REGISTER_FLOATS, 0, HELD_FLOATS, -1,
     "a softmax_resident work-item holds at most 256 floats in registers"},
    {OCF_RULE_AT_MOST, SM_SEGMENT_FLOATS, 0, SEGMENT_FLOATS, -1,
     "a softmax_rows work-item holds at most 128 floats (twice its row share when prefetching)"},
};

const ocf_op_schema ocf_softmax_schema = {
    OCF_OP_SOFTMAX, "softmax",       softmax_tunables,
    SM_PARAM_COUNT, softmax_derived, OCF_ARRAY_LEN(softmax_derived),
    softmax_derive, softmax_rules,   OCF_ARRAY_LEN(softmax_rules)};
