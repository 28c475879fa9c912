/* The tunables of ocf_layernorm and ocf_rmsnorm (one op, "norm") and the rules between them (how
   the planner uses them: src/plan/plan_norm.c). */
#include "tuning/schemas.h"

#define NM(field) OCF_TUNING_INDEX(norm, field)

/* Family names only: norm came after format 1, so it has no format-1 names to read. */

static const ocf_tunable norm_tunables[] = {
    /* shared */
    [NM(vw)] = {"vw", 1, 16, 1, 4, "elements per aligned vector access", NULL},
    [NM(f16_cvt)] = {"f16_cvt", 0, 2, 0, 0,
                     "fp16 vectors: 0 vload_halfN / vstore_halfN_rte on the buffer, 1 whole "
                     "32-bit words converted by vload_halfN / vstore_halfN_rte on a private copy, "
                     "2 whole words converted by PTX cvt (NVIDIA 8.0 on; elsewhere 1)",
                     NULL},
    [NM(bf16_cvt)] = {"bf16_cvt", 0, 1, 0, 0,
                      "bfloat16 vectors stored (out, res_out): 0 rounded in integer arithmetic, "
                      "1 rounded by PTX cvt.rn.bf16x2.f32, two lanes a word (NVIDIA 8.0 on; "
                      "elsewhere 0)",
                      NULL},
    /* rows: norm_rows, several rows a workgroup, a row held in a segment's registers */
    [NM(rows.wg)] = {"rows.wg", 1, 16384, 0, 128, "most work-items of norm_rows", NULL},
    [NM(rows.items)] = {"rows.items", 1, 64, 0, 8,
                        "most vectors a norm_rows work-item holds in registers", NULL},
    [NM(rows.seg_items)] = {"rows.seg_items", 1, 64, 0, 4,
                            "vectors a norm_rows work-item holds before its row gets more "
                            "work-items",
                            NULL},
    [NM(rows.max_seg)] = {"rows.max_seg", 1, 16384, 0, 128,
                          "most work-items norm_rows gives one row", NULL},
    [NM(rows.seg_align)] = {"rows.seg_align", 1, 64, 1, 1,
                            "norm_rows segments longer than this are a multiple of it (a warp)",
                            NULL},
    [NM(rows.groups_per_unit)] = {"rows.groups_per_unit", 0, 256, 0, 0,
                                  "norm_rows workgroups per compute unit, looping over the "
                                  "batches of rows; 0: one workgroup a batch",
                                  NULL},
    [NM(rows.prefetch)] = {"rows.prefetch", 0, 1, 0, 0,
                           "norm_rows loads its next batch of rows before reducing the current",
                           NULL},
    [NM(rows.shuffle)] = {"rows.shuffle", 0, 1, 0, 0,
                          "norm_rows sums a segment through warp shuffles (inline PTX; NVIDIA "
                          "GPUs only, elsewhere ignored)",
                          NULL},
    [NM(rows.merge)] = {"rows.merge", 0, 1, 0, 0,
                        "with rows.shuffle, LayerNorm's norm_rows takes its statistics in one "
                        "reduction, merging each work-item's (count, mean, M2) by Chan's update",
                        NULL},
    [NM(rows.max_regs)] = {"rows.max_regs", 0, 255, 0, 0,
                           "registers a norm_rows work-item may use where the compiler takes a "
                           "cap (NVIDIA's -cl-nv-maxrregcount), so more workgroups fit a compute "
                           "unit; 0: the compiler's choice",
                           NULL},
    [NM(rows.wide_wg)] = {"rows.wide_wg", 0, 4096, 1, 0,
                          "work-items of a one-row-a-workgroup norm_rows plan beyond the kernel's "
                          "reported limit, up to the device's, once the wide probe passed, "
                          "registers capped to fit (NVIDIA); 0: off",
                          NULL},
    [NM(rows.shifted)] = {"rows.shifted", 0, 2, 0, 1,
                          "rows that start inside a vector still move in whole vectors (the "
                          "buffer's, a row's first and last lane by lane, the weights realigned), "
                          "where x, y, the residual and x' start equally far inside theirs: 1 "
                          "both ops, 2 RMSNorm only (one weight to realign, no bias); 0: such rows "
                          "take the widest vector every row start is a multiple of",
                          NULL},
    /* split: rows beyond registers */
    [NM(split.wg)] = {"split.wg", 1, 16384, 0, 128,
                      "work-items of the split kernels (a workgroup a slice of a row), of "
                      "norm_general and of the unfused baseline",
                      NULL},
    [NM(split.unroll)] = {"split.unroll", 1, 16, 0, 4,
                          "vectors loaded per step of the split's loops", NULL},
    [NM(split.groups_per_unit)] = {"split.groups_per_unit", 1, 64, 0, 4,
                                   "workgroups per compute unit that few long rows are cut to "
                                   "fill",
                                   NULL},
    [NM(split.shifted)] = {"split.shifted", 0, 2, 0, 1,
                           "the split moves rows that start inside a vector in whole vectors, "
                           "as rows.shifted does norm_rows's (where the same operands allow it): "
                           "1 both ops, 2 RMSNorm only; 0: such rows take the widest vector "
                           "every row start is a multiple of",
                           NULL},
    /* stream: long rows, one a workgroup, the head held, the rest read twice (norm_stream) */
    [NM(stream.min_cols)] = {"stream.min_cols", 0, 1 << 30, 0, 0,
                             "rows of at least this many columns take norm_stream (one a "
                             "workgroup, its head held, the rest read twice); 0: none do",
                             NULL},
    [NM(stream.wg)] = {"stream.wg", 1, 16384, 0, 256,
                       "work-items of norm_stream; beyond the kernel's reported limit once the "
                       "wide probe passed, registers capped to fit (NVIDIA)",
                       NULL},
    [NM(stream.items)] = {"stream.items", 1, 64, 0, 2,
                          "vectors of the row's head a norm_stream work-item holds in registers",
                          NULL},
    [NM(stream.unroll)] = {"stream.unroll", 1, 16, 0, 2,
                           "vectors a norm_stream work-item loads per step of its two passes",
                           NULL},
    [NM(stream.groups_per_unit)] = {"stream.groups_per_unit", 0, 256, 0, 4,
                                    "norm_stream workgroups per compute unit, looping over the "
                                    "rows (fewer rows in flight: the second pass finds the first "
                                    "one's reads in cache); 0: one workgroup a row",
                                    NULL},
    [NM(stream.unit_rows)] = {"stream.unit_rows", 0, 64, 0, 1,
                              "rows a compute unit a call needs to stream (norm_stream never "
                              "splits a row; fewer rows take the split, whose slices fill the "
                              "units); 0: any",
                              NULL},
};

enum { NM_COUNT = OCF_TUNING_INTS(ocf_norm_tuning) };
_Static_assert(OCF_ARRAY_LEN(norm_tunables) == NM_COUNT, "a name for every norm tunable");
_Static_assert((int)NM_COUNT <= (int)OCF_TUNING_MAX, "ocf_tuning_values holds norm's values");

enum { NM_REGISTER_FLOATS = NM_COUNT, NM_STREAM_FLOATS = NM_COUNT + 1 };

static const char *const norm_derived[] = {"vw*rows.items", "vw*stream.items"};

static void norm_derive(const ocf_tuning_values *values, long long *d) {
  const ocf_norm_tuning *t = &values->norm;
  d[0] = (long long)t->vw * t->rows.items;
  d[1] = (long long)t->vw * t->stream.items;
}

/* Floats a norm_rows work-item holds: its shifted row values, from the one read to the one
   write (the residual is added on the way in, not held). 128 keeps a 256-item group within
   NVIDIA's 255 registers a thread with room for addresses. */
#define HELD_FLOATS 128

static const ocf_rule norm_rules[] = {
    /* rows */
    {OCF_RULE_LE, NM(rows.seg_items), NM(rows.items), 0, -1,
     "rows.seg_items may not exceed rows.items"},
    {OCF_RULE_AT_MOST, NM_REGISTER_FLOATS, 0, HELD_FLOATS, -1,
     "a norm_rows work-item holds at most 128 floats in registers"},
    {OCF_RULE_AT_LEAST, NM(rows.max_regs), 0, 32, NM(rows.max_regs),
     "rows.max_regs is 0 or at least 32"},
    /* stream */
    {OCF_RULE_AT_MOST, NM_STREAM_FLOATS, 0, HELD_FLOATS, -1,
     "a norm_stream work-item holds at most 128 floats in registers"},
};

static const ocf_tuning_family norm_families[] = {
    {"", "shared by every norm kernel", NM(vw), 3, 0, 0},
    {"rows", "norm_rows: several rows a workgroup, a row held in a segment's registers", NM(rows),
     OCF_TUNING_INTS(ocf_norm_rows_tuning), 0, 3},
    {"split",
     "rows beyond registers: the two-kernel split (its workgroup size also norm_general's and "
     "the unfused baseline's)",
     NM(split), OCF_TUNING_INTS(ocf_norm_split_tuning), 3, 0},
    {"stream",
     "norm_stream: long rows, one a workgroup, the row's head held in registers, the rest read "
     "twice (the second pass backwards); off unless stream.min_cols is set",
     NM(stream), OCF_TUNING_INTS(ocf_norm_stream_tuning), 3, 1},
};

const ocf_op_schema ocf_norm_schema = {OCF_OP_NORM,
                                       "norm",
                                       norm_tunables,
                                       NM_COUNT,
                                       norm_derived,
                                       OCF_ARRAY_LEN(norm_derived),
                                       norm_derive,
                                       norm_rules,
                                       OCF_ARRAY_LEN(norm_rules),
                                       norm_families,
                                       OCF_ARRAY_LEN(norm_families)};
