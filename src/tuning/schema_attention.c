/* ocf_attention's tunables and the rules between them (how the planner uses them:
   src/plan/plan_attention.c; what they mean in the kernel: cl/attention.cl). Families:
   attention_tiled's tiles (`tiled`), the decode split of a row's keys (`split`), attention_decode
   (`decode`), attention_block (`block`), attention_mma (`mma`) and attention_wgmma (`wgmma`). */
#include "tuning/schemas.h"

#define AT(field) OCF_TUNING_INDEX(attention, field)

static const ocf_tunable attention_tunables[] = {
    /* tiled: attention_tiled (and attention_split, which runs its tiles) */
    [AT(tiled.bq)] = {"tiled.bq", 1, 256, 1, 16,
                      "query rows a workgroup (the planner halves it, after bk, until local "
                      "memory fits)",
                      NULL},
    [AT(tiled.bk)] = {"tiled.bk", 1, 256, 1, 32,
                      "keys and values a tile staged through local memory (halved first to fit)",
                      NULL},
    [AT(tiled.tpr)] = {"tiled.tpr", 1, 16, 1, 4,
                       "work-items per query row: each scores bk / tpr keys of a tile and "
                       "accumulates D / tpr of the row's output",
                       NULL},
    [AT(tiled.heads)] = {"tiled.heads", 1, 16, 0, 1,
                         "most query heads of one key head a work-item decodes together "
                         "(grouped-query attention, one query row, tpr 1 with bk a multiple of "
                         "16: each K and V row read once for them); 1: a workgroup a head",
                         NULL},
    /* split: attention_split + attention_merge */
    [AT(split.fill)] = {"split.fill", 0, 64, 0, 2,
                        "workgroups per compute unit below which each row's keys are split over "
                        "workgroups (attention_split + attention_merge); 0: never",
                        NULL},
    [AT(split.min)] = {"split.min", 1, 1 << 20, 0, 256, "the fewest keys one split takes", NULL},
    /* decode: attention_decode + attention_merge */
    [AT(decode.wg)] =
        {"decode.wg", 0, 1024, 1, 256,
         "work-items of attention_decode's (or attention_lanes') workgroup (0: never either)",
         NULL},
    [AT(decode.bk)] = {"decode.bk", 1, 256, 1, 32,
                       "keys and values a tile staged through local memory (halved to fit)", NULL},
    [AT(decode.cpt)] = {"decode.cpt", 4, 16, 1, 8,
                        "output columns a work-item accumulates (raised until a workgroup holds "
                        "one key group: rows x D / cpt work-items)",
                        NULL},
    [AT(decode.rows)] = {"decode.rows", 1, 64, 1, 16,
                         "the most query rows a workgroup: the heads of one key head times lq; "
                         "calls of more take attention_tiled",
                         NULL},
    [AT(decode.fill)] = {"decode.fill", 1, 64, 0, 4,
                         "workgroups per compute unit the key ranges aim at", NULL},
    [AT(decode.prefetch)] = {"decode.prefetch", 0, 1, 0, 0,
                             "1: a work-item loads its share of the next tile into registers "
                             "while the workgroup scores this one (the tile halves to hold at "
                             "most 64 floats a work-item)",
                             NULL},
    [AT(decode.lanes)] = {"decode.lanes", 0, 32, 1, 0,
                          "attention_lanes instead of attention_decode: K and V straight into "
                          "registers, this many work-items a key (halved to fit a key's "
                          "columns and the workgroup); 0: attention_decode",
                          NULL},
    [AT(decode.unroll)] = {"decode.unroll", 1, 8, 0, 2,
                           "attention_lanes: keys a work-item loads before it scores them (the "
                           "loads in flight)",
                           NULL},
    [AT(decode.ahead)] = {"decode.ahead", 0, 1, 0, 0,
                          "attention_lanes: 1: a step's loads issued while the step before is "
                          "scored (its chunks held twice: unroll halves to fit)",
                          NULL},
    [AT(decode.join)] = {"decode.join", 0, 2, 0, 0,
                         "attention_lanes: the last workgroup to finish a row block's key ranges "
                         "joins them (one kernel, arrival counters kept zero per queue) where the "
                         "device orders it (NVIDIA's PTX fences, a CPU's coherent memory): 1 "
                         "blocks of one query row, 2 every block; 0: attention_lanes_join after "
                         "it",
                         NULL},
    [AT(decode.bulk)] = {"decode.bulk", 0, 1, 0, 0,
                         "attention_lanes: 1: K and V through a ring of local-memory stages that "
                         "Hopper's bulk copies fill ahead of the lanes (compute capability 9.0 "
                         "where the wgmma probe passed, 16-byte rows and strides); 0: straight "
                         "into registers",
                         NULL},
    [AT(decode.stages)] = {"decode.stages", 2, 16, 0, 4,
                           "attention_lanes with bulk: stages of the ring (fewer where local "
                           "memory holds fewer)",
                           NULL},
    [AT(decode.bulk_keys)] = {"decode.bulk_keys", 1, 512, 1, 64,
                              "attention_lanes with bulk: keys a stage holds (whole steps of "
                              "the workgroup's keys, at least one)",
                              NULL},
    [AT(decode.bulk_fill)] = {"decode.bulk_fill", 1, 64, 0, 1,
                              "attention_lanes with bulk: workgroups per compute unit the key "
                              "ranges aim at (each holds a ring of up to the probe's local "
                              "memory)",
                              NULL},
    [AT(decode.bulk_min)] = {"decode.bulk_min", 1, 1 << 20, 0, 1024,
                             "attention_lanes with bulk: the least work a range takes in the "
                             "ring, in keys times the row block's query rows (its first STAGES "
                             "tiles fill unhidden; smaller ranges stream through registers)",
                             NULL},
    [AT(decode.row_groups)] = {"decode.row_groups", 1, 16, 1, 1,
                               "attention_lanes: groups of decode.wg work-items a workgroup, "
                               "each holding a share of a row block's query rows (grouped heads) "
                               "and taking every key for them; beyond the kernel's reported "
                               "limit where the wide probe passed",
                               NULL},
    [AT(decode.bulk_refill)] = {"decode.bulk_refill", 0, 1, 0, 0,
                                "attention_lanes with bulk: which stage warp 0 refills after a "
                                "tile: 0 that tile's (after the slowest warp has read it), 1 the "
                                "one read before it (no wait, one tile fewer in flight)",
                                NULL},
    /* block: attention_block */
    [AT(block.bq)] = {"block.bq", 0, 256, 1, 32,
                      "query rows of attention_block's workgroup (0: never that kernel; halved "
                      "to the rows there are, and after bk to fit local memory)",
                      NULL},
    [AT(block.bk)] = {"block.bk", 4, 256, 1, 32,
                      "keys and values a tile staged through local memory (halved first to fit)",
                      NULL},
    [AT(block.rm)] = {"block.rm", 1, 16, 1, 4, "query rows a work-item", NULL},
    [AT(block.tc)] = {"block.tc", 1, 32, 1, 16,
                      "work-items across a tile's keys and across out's columns (halved until "
                      "4 tc divides D)",
                      NULL},
    /* local: 0 in the schema until a GPU round has timed larger tiles (next_session.sh
       blocklocal) */
    [AT(block.local)] = {"block.local", 0, 1, 0, 0,
                         "1: on NVIDIA, attention_block's tiles may take local memory beyond "
                         "what the device reports, up to what the matrix-unit probe ran right "
                         "with on the context (asking for a probe of the tuning's tiles where "
                         "one may still pass: at most 128 KiB); 0: the reported size",
                         NULL},
    /* mma: attention_mma */
    [AT(mma.on)] = {"mma.on", 0, 2, 0, 0,
                    "attention_mma (matrix units, 16-bit q, k, v of one type, d <= 128): 0 never, "
                    "1 on NVIDIA compute capability >= 8.0, 2 also elsewhere through its "
                    "emulation (slow: for tests)",
                    NULL},
    [AT(mma.warps)] = {"mma.warps", 1, 8, 1, 4,
                       "warps of attention_mma's workgroup, 16 query rows each (halved to the "
                       "rows there are)",
                       NULL},
    [AT(mma.bk)] = {"mma.bk", 16, 128, 1, 64,
                    "keys and values a tile in local memory, two tiles in flight (halved to fit)",
                    NULL},
    [AT(mma.decode_fill)] = {"mma.decode_fill", 0, 64, 0, 0,
                             "attention_mma takes the calls attention_decode would (few query "
                             "rows) where its workgroups, one a (batch, head) for lq <= 16, "
                             "reach this many a compute unit; 0: never",
                             NULL},
    [AT(mma.split_fill)] = {"mma.split_fill", 0, 64, 0, 0,
                            "attention_mma_split cuts each row's keys into ranges (split.min keys "
                            "or more), one workgroup each, then attention_mma_join merges them, "
                            "where attention_mma's workgroups are fewer than this many a compute "
                            "unit (and aims at that many); 0: never",
                            NULL},
    [AT(mma.rows)] = {"mma.rows", 16, 32, 1, 16,
                      "query rows a warp: 16, or 32 as two row groups that share every K and V "
                      "fragment (half the local-memory reads a flop, twice the registers for O)",
                      NULL},
    [AT(mma.q_local)] = {"mma.q_local", 0, 1, 0, 0,
                         "1: Q's fragments are read from a Q tile in local memory at every K "
                         "tile instead of held in registers (fewer registers, more local memory)",
                         NULL},
    [AT(mma.stages)] = {"mma.stages", 2, 3, 0, 2,
                        "K and V tiles in local memory at once: the one in use and those being "
                        "copied (the planner lowers it, then bk, to fit)",
                        NULL},
    [AT(mma.local)] = {"mma.local", 0, 1, 0, 0,
                       "1: on NVIDIA, local memory beyond what the device reports, up to what "
                       "the matrix-unit probe ran right on the context (the plan asks it to try "
                       "the tuning's tiles); 0: the reported size",
                       NULL},
    [AT(mma.remat)] = {"mma.remat", 0, 1, 0, 0,
                       "1: the lane's ldmatrix addresses are computed again at every tile rather "
                       "than held in registers across the tile loop (fewer registers)",
                       NULL},
    [AT(mma.join)] = {"mma.join", 0, 2, 0, 0,
                      "attention_mma_split's last workgroup to finish a block of rows joins its "
                      "key ranges (one kernel, as decode.join) where the device orders it "
                      "(NVIDIA's PTX fences, a CPU's coherent memory) and its tiles' local memory "
                      "holds the ranges' statistics: 1 blocks of one query row, 2 every block; "
                      "0: attention_mma_join after it",
                      NULL},
    [AT(mma.pack)] = {"mma.pack", 0, 64, 0, 0,
                      "grouped-query heads packed: the query heads of one key head in one "
                      "workgroup's blocks of rows (each K and V tile read once a key head) where "
                      "one head's query rows are fewer than a workgroup's, and attention_mma "
                      "taken before attention_lanes from this many query rows a key head (or "
                      "where attention_lanes would hold them in one work-item); 0: never",
                      NULL},
    [AT(mma.pack_fill)] = {"mma.pack_fill", 0, 64, 0, 2,
                           "packed calls (mma.pack) cut each row's keys into ranges for this "
                           "many workgroups a compute unit where their workgroups are fewer; "
                           "0: no ranges",
                           NULL},
    [AT(mma.key_warps)] = {"mma.key_warps", 1, 8, 1, 1,
                           "warps of attention_mma that take the same query rows, each a part "
                           "of every tile's keys, joined at the end, where one workgroup's block "
                           "holds all of a unit's rows (decoding: more warps and copies on the "
                           "same keys); 1: none",
                           NULL},
    /* wgmma: attention_wgmma */
    [AT(wgmma.on)] = {"wgmma.on", 0, 1, 0, 0,
                      "attention_wgmma (Hopper's warpgroup units, 16-bit q, k, v of one type, "
                      "d <= 128, rows on 16-byte chunks): 0 never, 1 on NVIDIA compute "
                      "capability 9.0 once the wgmma probe passed",
                      NULL},
    [AT(wgmma.bk)] = {"wgmma.bk", 64, 128, 1, 64,
                      "keys and values a tile, two tiles in flight (halved to fit local memory)",
                      NULL},
    [AT(wgmma.min_lq)] = {"wgmma.min_lq", 1, 1 << 20, 0, 64,
                          "the fewest query rows a call takes attention_wgmma with (its blocks "
                          "are 128 rows)",
                          NULL},
    [AT(wgmma.pipe)] = {"wgmma.pipe", 0, 1, 0, 0,
                        "1: each warpgroup's P V of the tile before runs while it computes this "
                        "tile's weights (three stages of K and V); 0: S, softmax and P V in turn "
                        "(two stages)",
                        NULL},
    [AT(wgmma.split_fill)] = {"wgmma.split_fill", 0, 64, 0, 0,
                              "where the blocks (a workgroup each) are fewer than half this "
                              "many a compute unit and the keys make two ranges of split.min: "
                              "each row's keys in ranges for this many, attention_wgmma_split "
                              "then attention_wgmma_join; 0: never (rule 5 of "
                              "plan_attention_wgmma.c may then leave the call to attention_mma's "
                              "split)",
                              NULL},
    [AT(wgmma.max_regs)] = {"wgmma.max_regs", 0, 255, 0, 0,
                            "a register cap for attention_wgmma's kernels (NVIDIA's "
                            "-cl-nv-maxrregcount): 128 lets two workgroups of 256 share a "
                            "compute unit's 65536 registers (sm_90a offline, BK 64: D 64 needs "
                            "126 without spills, D 128 spills 32-84 bytes); 0: the compiler's "
                            "choice (150-255 registers, one workgroup a unit)",
                            NULL},
    [AT(wgmma.tma)] = {"wgmma.tma", 0, 2, 0, 0,
                       "1: calls run attention_wgmma_tma (split ones as wgmma.tma_split says), "
                       "whose K and V stages the "
                       "tensor memory accelerator fills for a producer warp (288 work-items, "
                       "after the wide and TMA probes passed), the warpgroups on barriers of "
                       "their own; 2: the same, the warpgroups taking turns to issue their "
                       "products (FlashAttention-3's ping-pong); 0: every work-item's cp.async "
                       "and the workgroup's barriers",
                       NULL},
    [AT(wgmma.tma_stages)] = {"wgmma.tma_stages", 2, 4, 0, 2,
                              "stages of K and V tiles in attention_wgmma_tma's ring (fewer "
                              "where local memory holds fewer)",
                              NULL},
    [AT(wgmma.tma_persist)] = {"wgmma.tma_persist", 0, 1, 0, 0,
                               "1: attention_wgmma_tma in one workgroup a compute unit, each "
                               "taking every units-th block in turn (its maps made once, the "
                               "next block's tiles loaded while this block's last ones are "
                               "multiplied); 0: a workgroup a block",
                               NULL},
    [AT(wgmma.tma_split)] = {"wgmma.tma_split", 0, 1, 0, 0,
                             "1: with wgmma.tma, calls whose keys wgmma.split_fill splits into "
                             "ranges run attention_wgmma_tma too, each range's statistics into "
                             "scratch before the maps, then attention_wgmma_join; 0: those run "
                             "attention_wgmma_split (every work-item's cp.async)",
                             NULL},
};

enum { AT_COUNT = OCF_TUNING_INTS(ocf_attention_tuning) };
_Static_assert(OCF_ARRAY_LEN(attention_tunables) == AT_COUNT, "a name for every attention tunable");
_Static_assert((int)AT_COUNT <= (int)OCF_TUNING_MAX, "ocf_tuning_values holds attention's values");

enum { AT_WG = AT_COUNT };

static const char *const attention_derived[] = {"tiled.bq*tiled.tpr"};

static void attention_derive(const ocf_tuning_values *values, long long *d) {
  const ocf_attention_tuning *t = &values->attention;
  d[0] = (long long)t->tiled.bq * t->tiled.tpr;
}

static const ocf_rule attention_rules[] = {
    /* tiled */
    {OCF_RULE_LE, AT(tiled.tpr), AT(tiled.bk), 0, -1,
     "a tile's keys are shared evenly among a row's work-items (tpr <= bk, both powers of two)"},
    {OCF_RULE_AT_MOST, AT_WG, 0, 1024, -1, "a workgroup has at most 1024 work-items"},
    /* wgmma */
    {OCF_RULE_AT_LEAST, AT(wgmma.max_regs), 0, 64, AT(wgmma.max_regs),
     "wgmma.max_regs is 0 or at least 64"},
};

static const ocf_tuning_family attention_families[] = {
    {"tiled", "attention_tiled: BQ query rows a workgroup, TPR work-items a row, BK keys a tile",
     AT(tiled), OCF_TUNING_INTS(ocf_attention_tiled_tuning), 0, 2},
    {"split", "the decode split: a row's keys over workgroups (attention_split, attention_merge)",
     AT(split), OCF_TUNING_INTS(ocf_attention_split_tuning), 2, 0},
    {"decode",
     "attention_decode (or with lanes attention_lanes): the query rows of one key head a "
     "workgroup, keys over its work-items, key ranges over workgroups (then a join)",
     AT(decode), OCF_TUNING_INTS(ocf_attention_decode_tuning), 2, 0},
    {"block",
     "attention_block: attention_tiled with register blocks, (bq / rm) x tc work-items, rm rows "
     "a work-item",
     AT(block), OCF_TUNING_INTS(ocf_attention_block_tuning), 2, 0},
    {"mma",
     "attention_mma: NVIDIA's matrix units (mma.sync), 16 or 32 query rows a warp, K and V "
     "tiles in 2 or 3 stages",
     AT(mma), OCF_TUNING_INTS(ocf_attention_mma_tuning), 2, 0},
    {"wgmma",
     "attention_wgmma: Hopper's warpgroup units (wgmma, sm_90a), 128 query rows a workgroup of "
     "two warpgroups, K and V tiles of bk keys in 2 or 3 stages",
     AT(wgmma), OCF_TUNING_INTS(ocf_attention_wgmma_tuning), 2, 1},
};

const ocf_op_schema ocf_attention_schema = {OCF_OP_ATTENTION,
                                            "attention",
                                            attention_tunables,
                                            AT_COUNT,
                                            attention_derived,
                                            OCF_ARRAY_LEN(attention_derived),
                                            attention_derive,
                                            attention_rules,
                                            OCF_ARRAY_LEN(attention_rules),
                                            attention_families,
                                            OCF_ARRAY_LEN(attention_families)};
