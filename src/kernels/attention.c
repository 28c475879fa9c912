/* Descriptors of cl/attention.cl's kernels. */
#include "kernels/descriptors.h"

#define F ocf_attention_frame
#define TENSOR(x)                                                           \
  OCF_ARG(F, x, OCF_ARG_BUFFER), OCF_ARG(F, x##_off, OCF_ARG_ULONG),        \
      OCF_ARG(F, x##_sb, OCF_ARG_ULONG), OCF_ARG(F, x##_sh, OCF_ARG_ULONG), \
      OCF_ARG(F, x##_sr, OCF_ARG_ULONG)
/* cl/attention.cl's COMMON_PARAMS. */
#define COMMON                                                                                    \
  OCF_ARG(F, b, OCF_ARG_ULONG), OCF_ARG(F, h, OCF_ARG_ULONG), OCF_ARG(F, group, OCF_ARG_ULONG),   \
      OCF_ARG(F, lq, OCF_ARG_ULONG), OCF_ARG(F, lk, OCF_ARG_ULONG), OCF_ARG(F, d, OCF_ARG_ULONG), \
      TENSOR(q), TENSOR(k), TENSOR(v), TENSOR(out), OCF_ARG(F, scale, OCF_ARG_FLOAT),             \
      OCF_ARG(F, lengths, OCF_ARG_BUFFER), OCF_ARG(F, lengths_off, OCF_ARG_ULONG),                \
      OCF_ARG(F, causal_offset, OCF_ARG_ULONG), OCF_ARG(F, lse, OCF_ARG_BUFFER),                  \
      OCF_ARG(F, lse_off, OCF_ARG_ULONG)
#define SPLIT                                                               \
  OCF_ARG(F, splits, OCF_ARG_ULONG), OCF_ARG(F, split_keys, OCF_ARG_ULONG), \
      OCF_ARG(F, scratch, OCF_ARG_BUFFER)

static const ocf_arg_desc tiled_args[] = {COMMON};
static const ocf_arg_desc split_args[] = {COMMON, SPLIT};
/* The split kernels that may join their ranges themselves (JOIN): the arrival counters too. */
static const ocf_arg_desc join_args[] = {COMMON, SPLIT, OCF_ARG(F, arrivals, OCF_ARG_BUFFER)};

static const char *const tiled_defines[] = {
    "BQ",      "BK",        "TPR",         "HG",     "D",       "Q_DTYPE", "K_DTYPE",
    "V_DTYPE", "OUT_DTYPE", "HAS_LENGTHS", "CAUSAL", "HAS_LSE", NULL};

static const char *const decode_defines[] = {
    "BK",      "DWG",     "CPT",     "RB",        "VEC",         "SPK",    "PREFETCH", "D",
    "Q_DTYPE", "K_DTYPE", "V_DTYPE", "OUT_DTYPE", "HAS_LENGTHS", "CAUSAL", "HAS_LSE",  NULL};

static const char *const lanes_defines[] = {
    "WG",      "SEG",     "ROWG",    "RB",        "VEC",         "UNROLL",        "AHEAD",
    "SHUFFLE", "JOIN",    "BULK",    "STAGES",    "BULK_KEYS",   "REFILL_BEFORE", "D",
    "Q_DTYPE", "K_DTYPE", "V_DTYPE", "OUT_DTYPE", "HAS_LENGTHS", "CAUSAL",        "HAS_LSE",
    NULL};

static const char *const block_defines[] = {
    "BQ",      "BK",        "RM",          "TC",     "D",       "Q_DTYPE", "K_DTYPE",
    "V_DTYPE", "OUT_DTYPE", "HAS_LENGTHS", "CAUSAL", "HAS_LSE", NULL};

static const char *const mma_defines[] = {
    "WARPS",     "ROWS",      "Q_LOCAL",     "STAGES", "REMAT",   "BK", "KV_LOAD", "MMA_EMULATE",
    "MMA_DTYPE", "PRECISION", "JOIN",        "PACK",   "KW",      "D",  "Q_DTYPE", "K_DTYPE",
    "V_DTYPE",   "OUT_DTYPE", "HAS_LENGTHS", "CAUSAL", "HAS_LSE", NULL};

static const char *const wgmma_defines[] = {
    "BK",      "PIPE",       "MMA_EMULATE",    "MMA_DTYPE",   "D",      "Q_DTYPE",
    "K_DTYPE", "V_DTYPE",    "OUT_DTYPE",      "HAS_LENGTHS", "CAUSAL", "HAS_LSE",
    "TMA",     "TMA_STAGES", "TMA_WAIT_LIMIT", "PINGPONG",    NULL};

#define KERNEL_D(ID, NAME, PROGRAM, DEFINES, ARGS, APPLIES) \
  const ocf_kernel_desc ocf_kdesc_##NAME = {                \
      OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_##PROGRAM, DEFINES, ARGS, OCF_ARRAY_LEN(ARGS), APPLIES}
#define KERNEL(ID, NAME, ARGS, APPLIES) KERNEL_D(ID, NAME, ATTENTION, tiled_defines, ARGS, APPLIES)

KERNEL(ATTENTION_TILED, attention_tiled, tiled_args,
       "any shape: one workgroup per (batch, head, block of BQ query rows), TPR work-items a "
       "row, d <= D (D a multiple of 16 and of TPR, BK a multiple of TPR); HG > 1 (decoding "
       "grouped-query heads on CPUs): one per (batch, HG query heads of a key head), d = D");
KERNEL(ATTENTION_SPLIT, attention_split, split_args,
       "few query blocks, long rows: as attention_tiled, each row's keys cut into `splits` "
       "ranges of split_keys, each range's (m, s, acc) into scratch");
KERNEL(ATTENTION_MERGE, attention_merge, split_args,
       "after attention_split: one work-item an output element, any workgroup size");
KERNEL_D(ATTENTION_DECODE, attention_decode, ATTENTION_DECODE, decode_defines, split_args,
         "lq x group <= RB rows a key head: one workgroup per (batch, key head, block of RB "
         "query rows, range of split_keys keys), DWG work-items over keys and CPT-column blocks; "
         "each range's (m, s, acc) into scratch, then attention_join");
KERNEL_D(ATTENTION_JOIN, attention_join, ATTENTION_DECODE, decode_defines, split_args,
         "after attention_decode (merge_ranges): one work-item an output element, any "
         "workgroup size");
KERNEL_D(ATTENTION_LANES, attention_lanes, ATTENTION_LANES, lanes_defines, join_args,
         "lq x group <= RB rows a key head: one workgroup per (batch, key head, block of RB "
         "query rows, range of split_keys keys), in ROWG row groups of RB / ROWG rows each, SEG "
         "work-items a key and WG / ROWG / SEG keys at once, "
         "K and V straight into registers; each range's (m, s, acc) into scratch, then "
         "attention_lanes_join, or (JOIN) the block's last range to arrive joins them");
KERNEL_D(ATTENTION_LANES_JOIN, attention_lanes_join, ATTENTION_LANES, lanes_defines, split_args,
         "after attention_lanes (merge_ranges): one work-item an output element, any workgroup "
         "size");
KERNEL_D(ATTENTION_BLOCK, attention_block, ATTENTION_BLOCK, block_defines, tiled_args,
         "GPUs, D / TC columns of out a work-item (at most 32): as attention_tiled, (BQ / RM) x TC "
         "work-items, RM rows x BK / TC keys of scores and RM rows x D / TC columns of out each");
KERNEL_D(ATTENTION_MMA, attention_mma, ATTENTION_MMA_NV, mma_defines, tiled_args,
         "q, k, v of one 16-bit type, or fp32 as TF32 parts (PRECISION), d <= D <= 128: one "
         "workgroup of WARPS warps per (batch, "
         "head, block of 16 WARPS query rows), mma.sync for Q K^T and P V (inline PTX on NVIDIA "
         "compute capability >= 8.0, an exact emulation elsewhere: MMA_EMULATE)");
KERNEL_D(ATTENTION_MMA_SPLIT, attention_mma_split, ATTENTION_MMA_NV, mma_defines, join_args,
         "few (batch, head, row block) units, long rows: as attention_mma, each row's keys cut "
         "into `splits` ranges of split_keys (a multiple of BK), one workgroup each; each range's "
         "(m, s, acc) into scratch, then attention_mma_join, or (JOIN) the block's last range to "
         "arrive joins them");
KERNEL_D(ATTENTION_MMA_JOIN, attention_mma_join, ATTENTION_MMA_NV, mma_defines, split_args,
         "after attention_mma_split (merge_ranges): one work-item an output element, any "
         "workgroup size");
KERNEL_D(ATTENTION_WGMMA, attention_wgmma, ATTENTION_WGMMA_NV, wgmma_defines, tiled_args,
         "NVIDIA compute capability 9.0 after the wgmma probe passed (the program retargeted to "
         "sm_90a): q, k, v of one 16-bit type, d <= D (64 or 128), Q's, K's and V's offsets and "
         "strides multiples of 8 elements: one workgroup of two warpgroups (256 work-items) per "
         "(batch, head, block of 128 query rows), wgmma for Q K^T and P V, BK keys a tile");
KERNEL_D(ATTENTION_WGMMA_SPLIT, attention_wgmma_split, ATTENTION_WGMMA_NV, wgmma_defines,
         split_args,
         "few (batch, head, row block) units, long rows: as attention_wgmma, each row's keys cut "
         "into `splits` ranges of split_keys (a multiple of BK), one workgroup each; each range's "
         "(m, s, acc) into scratch, then attention_wgmma_join");
KERNEL_D(ATTENTION_WGMMA_JOIN, attention_wgmma_join, ATTENTION_WGMMA_NV, wgmma_defines, split_args,
         "after attention_wgmma_split (merge_ranges): one work-item an output element, any "
         "workgroup size");
KERNEL_D(ATTENTION_WGMMA_TMA, attention_wgmma_tma, ATTENTION_WGMMA_NV, wgmma_defines, split_args,
         "as attention_wgmma, where wgmma.tma is set and the wide and TMA probes passed, every "
         "stride non-zero and lq, lk, h, b below 2^31: K and V tiles fed by the TMA from 4-D "
         "tensor maps for a producer warp (288 work-items), the maps in scratch (512 bytes a "
         "workgroup); with TMA_SPLIT as attention_wgmma_split (each range's (m, s, acc) into "
         "scratch before the maps, then attention_wgmma_join)");
