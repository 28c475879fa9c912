/* ocf_softmax's tunables and the rules between them (how the planner uses them:
   src/plan/plan_softmax.c). */
#include "tuning/schemas.h"

#define SM(field) OCF_TUNING_INDEX(softmax, field)

static const ocf_tunable softmax_tunables[] = {
    /* shared */
    [SM(vw)] = {"vw", 1, 16, 1, 4, "elements per aligned vector access", NULL},
    [SM(packed)] = {"packed", 0, 2, 0, 0,
                    "16-bit rows held as their storage bits, half the registers of floats "
                    "(softmax_rows, softmax_resident, softmax_coop; vectors of 2 or more): 0 "
                    "never, 1 always, 2 only where the bits, twice the items in the same "
                    "registers, hold a row that floats would stream, or give softmax_rows a "
                    "row it could not take",
                    NULL},
    [SM(f16_cvt)] = {"f16_cvt", 0, 2, 0, 0,
                     "fp16 vectors: 0 converted in integer arithmetic, 1 converted by "
                     "vload_halfN / vstore_halfN_rte on a private copy of their words, 2 "
                     "converted by PTX cvt (NVIDIA 8.0 on; elsewhere 1)",
                     NULL},
    [SM(bf16_cvt)] = {"bf16_cvt", 0, 1, 0, 0,
                      "bfloat16 output vectors: 0 rounded in integer arithmetic, 1 rounded by "
                      "PTX cvt.rn.bf16x2.f32, two lanes a word (NVIDIA 8.0 on; elsewhere 0)",
                      NULL},
    /* rows: softmax_rows, several rows a workgroup */
    [SM(rows.wg)] = {"rows.wg", 1, 16384, 0, 128, "most work-items of softmax_rows", "rows_wg"},
    [SM(rows.seg_items)] = {"rows.seg_items", 1, 32, 0, 4,
                            "vectors a softmax_rows work-item holds before its row gets more items",
                            "seg_items"},
    [SM(rows.max_seg)] = {"rows.max_seg", 1, 16384, 0, 32,
                          "most work-items softmax_rows gives one row", "max_seg"},
    [SM(rows.seg_align)] = {"rows.seg_align", 1, 64, 1, 1,
                            "softmax_rows segments longer than this are a multiple of it (a warp)",
                            "seg_align"},
    [SM(rows.prefetch)] = {"rows.prefetch", 0, 1, 0, 0,
                           "softmax_rows loads its next batch of rows before reducing the current",
                           "prefetch"},
    [SM(rows.groups_per_unit)] = {"rows.groups_per_unit", 0, 256, 0, 0,
                                  "softmax_rows workgroups per compute unit, looping over the "
                                  "batches of rows; 0: one workgroup a batch",
                                  "rows_groups_per_unit"},
    [SM(rows.wide_wg)] = {"rows.wide_wg", 0, 4096, 1, 0,
                          "work-items of a one-row-a-workgroup plan (softmax_rows, "
                          "softmax_resident) beyond the kernel's reported limit, up to the "
                          "device's, once the wide probe passed, registers capped to fit "
                          "(NVIDIA); 0: off",
                          NULL},
    [SM(rows.shuffle)] = {"rows.shuffle", 0, 1, 0, 0,
                          "softmax_rows reduces a segment through warp shuffles (NVIDIA GPUs "
                          "only; elsewhere 0), its segments then a power of two work-items up to "
                          "a warp of 32, or whole warps",
                          NULL},
    [SM(rows.whole_ends)] = {"rows.whole_ends", 0, 1, 0, 0,
                             "softmax_rows reads a vector that straddles a row's ends in one "
                             "access (its lanes outside the row discarded) where out lies apart "
                             "from in and rows start or end inside vectors; 0: lane by lane",
                             NULL},
    [SM(rows.aligned_seg_items)] = {"rows.aligned_seg_items", 0, 32, 0, 0,
                                    "rows.seg_items for rows that start and end on whole "
                                    "vectors (no vector straddles a row's ends); 0: "
                                    "rows.seg_items",
                                    NULL},
    [SM(rows.aligned_vw)] = {"rows.aligned_vw", 0, 16, 1, 0,
                             "the vector width of rows that start and end on whole vectors of "
                             "it, in and out (rows.aligned_seg_items then counts these); 0: vw",
                             NULL},
    [SM(rows.whole_seg_items)] = {"rows.whole_seg_items", 0, 32, 0, 0,
                                  "rows.seg_items for rows that start and end on whole vectors "
                                  "of vw but not of rows.aligned_vw, where that is set (rows on "
                                  "whole vectors of it take rows.aligned_seg_items); 0: "
                                  "rows.seg_items",
                                  NULL},
    [SM(rows.items)] = {"rows.items", 0, 64, 0, 0,
                        "most vectors a softmax_rows work-item holds; 0: long_rows.items", NULL},
    [SM(rows.long_seg)] = {"rows.long_seg", 0, 16384, 0, 0,
                           "rows that rows.max_seg work-items cannot hold in rows.items vectors "
                           "each take segments of up to this many, one row a workgroup, before "
                           "the longer rows' kernels; 0: none",
                           NULL},
    /* long_rows: a row in one workgroup (softmax_resident) or several (softmax_coop, the split) */
    [SM(long_rows.wg)] =
        {"long_rows.wg", 1, 16384, 0, 128,
         "work-items of the one-row-a-workgroup kernels; the most softmax_resident "
         "grows to",
         "wg"},
    [SM(long_rows.min_wg)] = {"long_rows.min_wg", 1, 16384, 0, 32,
                              "the fewest work-items softmax_resident shrinks to for short rows",
                              "min_wg"},
    [SM(long_rows.items)] = {"long_rows.items", 1, 64, 0, 4,
                             "most vectors a work-item holds in registers (softmax_resident, "
                             "softmax_coop)",
                             "items"},
    [SM(long_rows.local_items)] = {"long_rows.local_items", 0, 64, 0, 0,
                                   "most vectors a work-item holds in local memory beyond its "
                                   "registers",
                                   "local_items"},
    [SM(long_rows.unroll)] = {"long_rows.unroll", 1, 16, 0, 4,
                              "vectors loaded per step of the streaming loops", "unroll"},
    [SM(long_rows.groups_per_unit)] = {"long_rows.groups_per_unit", 1, 64, 0, 4,
                                       "workgroups per compute unit below which rows are split",
                                       "groups_per_unit"},
    [SM(long_rows.coop_spin)] = {"long_rows.coop_spin", 0, 1 << 24, 0, 0,
                                 "polls softmax_coop waits for a partner before computing its "
                                 "statistics itself (the planner cuts it to 2^21 polls a "
                                 "workgroup in all); 0: long rows use the two-kernel split instead",
                                 "coop_spin"},
    [SM(long_rows.coop_items)] = {"long_rows.coop_items", 0, 64, 0, 0,
                                  "most vectors a softmax_coop work-item holds (smaller slices, "
                                  "more of a row's workgroups resident at once); 0: as many as "
                                  "items and local_items allow",
                                  "coop_items"},
    [SM(long_rows.coop_unit_slices)] = {"long_rows.coop_unit_slices", 0, 64, 0, 0,
                                        "most softmax_coop slices of one row a compute unit "
                                        "(they must all be resident at once: a row needing "
                                        "more takes the split or softmax_resident); 0: no "
                                        "limit but the planner's 1024",
                                        NULL},
    [SM(long_rows.split_unroll)] = {"long_rows.split_unroll", 0, 16, 0, 0,
                                    "vectors loaded per step of the two-kernel split's loops "
                                    "(its stats kernel's registers); 0: long_rows.unroll",
                                    NULL},
    [SM(long_rows.split_rows_pct)] = {"long_rows.split_rows_pct", 0, 6400, 0, 0,
                                      "rows, in percent of the compute units, below which long "
                                      "rows are cut in slices (softmax_coop, the split) that then "
                                      "fill long_rows.groups_per_unit workgroups a unit; 0: 100 x "
                                      "long_rows.groups_per_unit",
                                      NULL},
};

enum { SM_COUNT = OCF_TUNING_INTS(ocf_softmax_tuning) };
_Static_assert(OCF_ARRAY_LEN(softmax_tunables) == SM_COUNT, "a name for every softmax tunable");
_Static_assert((int)SM_COUNT <= (int)OCF_TUNING_MAX, "ocf_tuning_values holds softmax's values");

enum {
  SM_REGISTER_FLOATS = SM_COUNT,
  SM_SEGMENT_FLOATS,
  SM_ALIGNED_SEGMENT_FLOATS,
  SM_ROW_ITEM_FLOATS
};

static const char *const softmax_derived[] = {
    "vw*long_rows.items", "vw*rows.seg_items*(1+rows.prefetch)",
    "max(max(vw,rows.aligned_vw)*rows.aligned_seg_items,vw*rows.whole_seg_items)*(1+rows.prefetch)",
    "vw*rows.items"};

static void softmax_derive(const ocf_tuning_values *values, long long *d) {
  const ocf_softmax_tuning *t = &values->softmax;
  d[0] = (long long)t->vw * t->long_rows.items;
  d[1] = (long long)t->vw * t->rows.seg_items * (1 + t->rows.prefetch);
  const int aligned_vw = t->rows.aligned_vw > t->vw ? t->rows.aligned_vw : t->vw;
  const long long aligned = (long long)aligned_vw * t->rows.aligned_seg_items,
                  whole = (long long)t->vw * t->rows.whole_seg_items;
  d[2] = (aligned > whole ? aligned : whole) * (1 + t->rows.prefetch);
  d[3] = (long long)t->vw * t->rows.items;
}

/* Floats one work-item may hold in registers. A row-holding work-item of 256 floats needs most
   of a GPU's 255 registers (one 256-item group a compute unit on NVIDIA); softmax_rows keeps many
   groups a compute unit, so its rows stay small. */
#define HELD_FLOATS 256
#define SEGMENT_FLOATS 128

static const ocf_rule softmax_rules[] = {
    /* rows */
    {OCF_RULE_AT_MOST, SM_SEGMENT_FLOATS, 0, SEGMENT_FLOATS, -1,
     "a softmax_rows work-item holds at most 128 floats (twice its row share when prefetching)"},
    {OCF_RULE_AT_MOST, SM_ALIGNED_SEGMENT_FLOATS, 0, SEGMENT_FLOATS, -1,
     "a softmax_rows work-item holds at most 128 floats of rows on whole vectors too"},
    {OCF_RULE_AT_MOST, SM_ROW_ITEM_FLOATS, 0, SEGMENT_FLOATS, -1,
     "rows.items holds at most 128 floats a softmax_rows work-item"},
    /* long_rows */
    {OCF_RULE_LE, SM(long_rows.min_wg), SM(long_rows.wg), 0, -1,
     "long_rows.min_wg may not exceed long_rows.wg"},
    {OCF_RULE_AT_MOST, SM_REGISTER_FLOATS, 0, HELD_FLOATS, -1,
     "a softmax_resident work-item holds at most 256 floats in registers"},
};

static const ocf_tuning_family softmax_families[] = {
    {"", "shared by every softmax kernel", SM(vw), 4, 0, 0},
    {"rows", "softmax_rows: several rows a workgroup, a row a segment of work-items", SM(rows),
     OCF_TUNING_INTS(ocf_softmax_rows_tuning), 0, 3},
    {"long_rows",
     "longer rows: one workgroup a row (softmax_resident), cooperating workgroups (softmax_coop) "
     "or the two-kernel split",
     SM(long_rows), OCF_TUNING_INTS(ocf_softmax_long_tuning), 3, 2},
};

const ocf_op_schema ocf_softmax_schema = {OCF_OP_SOFTMAX,
                                          "softmax",
                                          softmax_tunables,
                                          SM_COUNT,
                                          softmax_derived,
                                          OCF_ARRAY_LEN(softmax_derived),
                                          softmax_derive,
                                          softmax_rules,
                                          OCF_ARRAY_LEN(softmax_rules),
                                          softmax_families,
                                          OCF_ARRAY_LEN(softmax_families)};
