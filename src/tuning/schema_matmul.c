/* ocf_matmul's tunables (a fill rule, four tile sets, split-K, the skinny kernels, the
   matrix-unit kernel) and their rules. */
#include "tuning/schemas.h"

/* Set 0 always exists; sets 1 to 3 are unused while their mdimc is 0. The fallbacks are the
   generic row: 32 x 32 tiles of 8 x 8 work-items, then 16 x 16 tiles of 4 x 4. */
#define SET_TUNABLES(s, MIN, MDIMC, NDIMC, MWI, NWI, KWG, VW, PAD)                                \
  [MM_SET(                                                                                        \
      s,                                                                                          \
      MM_MDIMC)] = {"set" #s ".mdimc", MIN, 1024, 1, MDIMC, "work-items along M"},                \
      [MM_SET(s, MM_NDIMC)] = {"set" #s ".ndimc", MIN, 1024, 1, NDIMC, "work-items along N"},     \
      [MM_SET(s, MM_MWI)] = {"set" #s ".mwi", MIN, 16, 0, MWI, "rows of C per work-item"},        \
      [MM_SET(s, MM_NWI)] = {"set" #s ".nwi", MIN, 16, 0, NWI, "columns of C per work-item"},     \
      [MM_SET(s, MM_KWG)] = {"set" #s ".kwg", MIN ? 4 : 0, 64, 0, KWG, "K slice depth"},          \
      [MM_SET(s, MM_VWM)] = {"set" #s ".vwm", MIN, 4, 1, VW, "local read width of the A tile"},   \
      [MM_SET(s,                                                                                  \
              MM_VWN)] = {"set" #s ".vwn", MIN, 4, 1, VW, "local read width of B, store width"},  \
      [MM_SET(s, MM_PADA)] = {"set" #s ".pada", 0, 64, 0, PAD, "padding floats per local A row"}, \
      [MM_SET(s, MM_PADB)] = {"set" #s ".padb", 0, 64, 0, PAD, "padding floats per local B row"}

/* An mma tile set: a BM x BN tile of C in slices of BK, warps of WM x WN, STAGES slices in local
   memory (all powers of two; the planner fits the stages to the local memory its probes ran). */
#define MMA_SET_TUNABLES(s, BM, BN, BK, WM, WN, STAGES)                                          \
  [MM_MMA_SET(                                                                                   \
      s, MMA_BM)] = {"mma" #s ".bm", 16, 256, 1, BM, "rows of the matrix-unit tile"},            \
         [MM_MMA_SET(s, MMA_BN)] = {"mma" #s ".bn", 16, 256, 1, BN, "its columns"},              \
         [MM_MMA_SET(s, MMA_BK)] = {"mma" #s ".bk", 16, 128, 1, BK, "its K slice depth"},        \
         [MM_MMA_SET(s, MMA_WM)] = {"mma" #s ".wm", 16, 128, 1, WM, "rows of one warp's block"}, \
         [MM_MMA_SET(s,                                                                          \
                     MMA_WN)] = {"mma" #s ".wn", 16, 128, 1, WN, "columns of one warp's block"}, \
         [MM_MMA_SET(s, MMA_STAGES)] = {                                                         \
             "mma" #s ".stages", 2, 8, 0, STAGES, "K slices in local memory at once"}

static const ocf_tunable matmul_tunables[MM_PARAM_COUNT] = {
    [MM_FILL] = {"fill", 1, 64, 0, 2,
                 "workgroups per compute unit a tile set must give to be taken"},
    SET_TUNABLES(0, 1, 8, 8, 4, 4, 16, 4, 4),
    SET_TUNABLES(1, 0, 4, 4, 4, 4, 16, 4, 4),
    SET_TUNABLES(2, 0, 0, 0, 0, 0, 0, 0, 0),
    SET_TUNABLES(3, 0, 0, 0, 0, 0, 0, 0, 0),
    [MM_MIN_EFF] = {"min_eff", 1, 100, 0, 50,
                    "% of a tile set's padded tiles that must be C for the set to be taken"},
    [MM_SPLIT_K_MIN] = {"split_k_min", 0, 1 << 20, 0, 512,
                        "least K per split when the tiles leave compute units idle; 0: never"},
    [MM_SPLIT_MAX] = {"split_max", 1, 256, 0, 16, "most K splits of the tiled kernels"},
    [MM_SPLIT_FILL] = {"split_fill", 1, 64, 0, 2,
                       "workgroups per compute unit that splitting K aims at"},
    [MM_REDUCE_WG] = {"reduce_wg", 1, 1024, 1, 64, "work-items per workgroup of the split sums"},
    [MM_SKINNY_MAX] = {"skinny_max", 0, 16, 0, 16,
                       "C with at most this many columns (or rows) takes the skinny kernels"},
    [MM_SKINNY_LONG_MIN] = {"skinny_long_min", 1, 1 << 20, 0, 256,
                            "... and at least this many rows (or columns) on its long side"},
    [MM_SK_WG] = {"sk_wg", 4, 1024, 1, 64, "work-items per workgroup of the skinny kernels"},
    [MM_SK_RL_K] = {"sk_rl_k", 1, 1024, 1, 8,
                    "skinny row lanes when the large operand is k-contiguous"},
    [MM_SK_RL_R] = {"sk_rl_r", 1, 1024, 1, 16,
                    "skinny row lanes when the large operand is row-contiguous"},
    [MM_SK_UNROLL] = {"sk_unroll", 1, 8, 0, 2, "skinny steps of loads in flight per work-item"},
    [MM_SK_FILL] = {"sk_fill", 1, 64, 0, 2,
                    "skinny workgroups per compute unit wanted before K is split"},
    [MM_SK_SPLIT_MIN] = {"sk_split_min", 4, 1 << 20, 0, 256, "least K per skinny split"},
    [MM_MAX_REGS] = {"max_regs", 0, 255, 0, 0,
                     "registers per work-item the GEMM kernels are built to, where the compiler "
                     "takes a cap (NVIDIA's -cl-nv-maxrregcount); 0: the compiler's choice"},
    [MM_SK_WIDE_MIN] = {"sk_wide_min", 0, 16, 0, 8,
                        "skinny C with at least this many columns (or rows) stage V and the large "
                        "operand in local memory (the wide path); 0: never"},
    [MM_SK_RL_W] = {"sk_rl_w", 1, 1024, 1, 32,
                    "row lanes of the skinny wide path (a warp's worth shares each k)"},
    [MM_MMA] = {"mma", 0, 1, 0, 0,
                "1: TF32, 3XTF32 and fp16/bf16 inputs run on the matrix units where a probe "
                "found them (cl/matmul_mma_nv.cl: NVIDIA, compute capability 8.0 or more)"},
    [MM_MMA_FILL] = {"mma.fill", 1, 64, 0, 1,
                     "workgroups per compute unit that mma set 0 must give, else set 1"},
    [MM_MMA_GROUP_M] = {"mma.group_m", 1, 64, 0, 8,
                        "tile rows that consecutive matrix-unit workgroups walk together"},
    [MM_MMA_COPY_AT] = {"mma.copy_at", 0, 8, 0, 0,
                        "the k step of a slice after whose mma the next slice's copies go out "
                        "(0: before the first)"},
    [MM_MMA_INTERIOR] = {"mma.interior", 0, 1, 0, 0,
                         "1: matrix-unit tiles inside C copy their full K slices unguarded"},
    MMA_SET_TUNABLES(0, 128, 128, 32, 64, 64, 3),
    MMA_SET_TUNABLES(1, 64, 64, 32, 32, 32, 3),
    /* The fallbacks are the H200's winners of tools/lab/wgmma (cp.async, 2026-12-01): 128 x 256
       tiles in 4 stages, 494 / 535 TFLOP/s bf16 at 4096^3 / 8192^3. */
    [MM_WG] = {"wg", 0, 1, 0, 1,
               "1: with mma=1, 16-bit and TF32 inputs run on Hopper's warpgroup matrix units where "
               "their probe passed (cl/matmul_wgmma_nv.cl: NVIDIA, compute capability 9.0)"},
    [MM_WG_BN] = {"wg.bn", 128, 256, 0, 256, "columns of the wgmma tile: 128, 192 or 256"},
    [MM_WG_STAGES] = {"wg.stages", 3, 6, 0, 4,
                      "K slices of 128 bytes in local memory (stages - 2 copies in flight)"},
    [MM_WG_CONSUMERS] = {"wg.consumers", 1, 2, 0, 2,
                         "warpgroups of the wgmma tile, 64 rows each (128 work-items each)"},
    [MM_WG_GROUP_M] = {"wg.group_m", 1, 64, 0, 8,
                       "tile rows that consecutive wgmma workgroups walk together"},
};

/* Derived, per set: the tile's rows and columns and the accumulators per work-item; per mma
   set: its work-items and one warp's block. */
enum { D_MWG, D_NWG, D_WPT, D_PER_SET };
#define DERIVED(s, d) (MM_PARAM_COUNT + (s)*D_PER_SET + (d))
enum { D_MMA_THREADS, D_MMA_BLOCK, D_PER_MMA_SET };
#define DERIVED_MMA(s, d) (DERIVED(MM_SETS, 0) + (s)*D_PER_MMA_SET + (d))
/* The wgmma kernel's static local memory: stages (64 consumers + bn) 128 + 1024 bytes. */
#define DERIVED_WG_BYTES DERIVED_MMA(MMA_SETS, 0)

static const char *const matmul_derived[MM_SETS * D_PER_SET + MMA_SETS * D_PER_MMA_SET + 1] = {
    "set0.mdimc*mwi",
    "set0.ndimc*nwi",
    "set0.mwi*nwi",
    "set1.mdimc*mwi",
    "set1.ndimc*nwi",
    "set1.mwi*nwi",
    "set2.mdimc*mwi",
    "set2.ndimc*nwi",
    "set2.mwi*nwi",
    "set3.mdimc*mwi",
    "set3.ndimc*nwi",
    "set3.mwi*nwi",
    "mma0 work-items (32 bm bn / (wm wn))",
    "mma0.wm*wn",
    "mma1 work-items (32 bm bn / (wm wn))",
    "mma1.wm*wn",
    "wg local bytes (stages (64 consumers + bn) 128 + 1024)"};

static void matmul_derive(const int *v, long long *d) {
  for (int s = 0; s < MM_SETS; s++) {
    d[s * D_PER_SET + D_MWG] = (long long)v[MM_SET(s, MM_MDIMC)] * v[MM_SET(s, MM_MWI)];
    d[s * D_PER_SET + D_NWG] = (long long)v[MM_SET(s, MM_NDIMC)] * v[MM_SET(s, MM_NWI)];
    d[s * D_PER_SET + D_WPT] = (long long)v[MM_SET(s, MM_MWI)] * v[MM_SET(s, MM_NWI)];
  }
  for (int s = 0; s < MMA_SETS; s++) {
    long long *out = d + MM_SETS * D_PER_SET + s * D_PER_MMA_SET;
    const long long wm = v[MM_MMA_SET(s, MMA_WM)], wn = v[MM_MMA_SET(s, MMA_WN)];
    /* The rules below keep bm and bn multiples of wm and wn; a zero stays harmless here. */
    out[D_MMA_THREADS] = wm && wn ? 32 * ((long long)v[MM_MMA_SET(s, MMA_BM)] / wm) *
                                        ((long long)v[MM_MMA_SET(s, MMA_BN)] / wn)
                                  : 0;
    out[D_MMA_BLOCK] = wm * wn;
  }
  d[MM_SETS * D_PER_SET + MMA_SETS * D_PER_MMA_SET] =
      (long long)v[MM_WG_STAGES] * (64LL * v[MM_WG_CONSUMERS] + v[MM_WG_BN]) * 128 + 1024;
}

/* A rule that applies while set s is in use (its mdimc non-zero). */
#define SET_RULE(kind, x, y, n, s, why) \
  { kind, x, y, n, MM_SET(s, MM_MDIMC), why }
#define SET_RULES(s)                                                                           \
  SET_RULE(OCF_RULE_AT_LEAST, MM_SET(s, MM_NDIMC), 0, 1, s,                                    \
           "a set in use needs work-items "                                                    \
           "along N"),                                                                         \
      SET_RULE(OCF_RULE_AT_LEAST, MM_SET(s, MM_MWI), 0, 1, s, "rows per work-item"),           \
      SET_RULE(OCF_RULE_AT_LEAST, MM_SET(s, MM_NWI), 0, 1, s, "columns per work-item"),        \
      SET_RULE(OCF_RULE_AT_LEAST, MM_SET(s, MM_KWG), 0, 4, s, "K slice depth"),                \
      SET_RULE(OCF_RULE_AT_LEAST, MM_SET(s, MM_VWM), 0, 1, s, "vector width"),                 \
      SET_RULE(OCF_RULE_AT_LEAST, MM_SET(s, MM_VWN), 0, 1, s, "vector width"),                 \
      SET_RULE(OCF_RULE_DIVISIBLE, MM_SET(s, MM_KWG), 0, 4, s,                                 \
               "global loads along K come in groups of 4"),                                    \
      SET_RULE(OCF_RULE_MULTIPLE_OF, MM_SET(s, MM_MWI), MM_SET(s, MM_VWM), 0, s,               \
               "a work-item's rows are whole vectors"),                                        \
      SET_RULE(OCF_RULE_MULTIPLE_OF, MM_SET(s, MM_NWI), MM_SET(s, MM_VWN), 0, s,               \
               "a work-item's columns are whole vectors"),                                     \
      SET_RULE(OCF_RULE_AT_MOST, DERIVED(s, D_WPT), 0, 256, s,                                 \
               "accumulators must fit in registers"),                                          \
      SET_RULE(OCF_RULE_DIVISIBLE, DERIVED(s, D_MWG), 0, 4, s,                                 \
               "global loads along M come in groups of 4"),                                    \
      SET_RULE(OCF_RULE_DIVISIBLE, DERIVED(s, D_NWG), 0, 4, s,                                 \
               "global loads along N come in groups of 4"),                                    \
      {OCF_RULE_DIVISIBLE, MM_SET(s, MM_PADA), 0, 4, -1, "local rows stay 16-byte aligned"}, { \
    OCF_RULE_DIVISIBLE, MM_SET(s, MM_PADB), 0, 4, -1, "local rows stay 16-byte aligned"        \
  }

/* cl/matmul_mma_nv.cl's own #error checks, and its registers: WM x WN accumulators take
   WM WN / 32 registers of each of the warp's work-items (128 for 64 x 64, of the 255 NVIDIA
   allows). */
#define MMA_SET_RULES(s)                                                          \
  {OCF_RULE_MULTIPLE_OF,                                                          \
   MM_MMA_SET(s, MMA_BM),                                                         \
   MM_MMA_SET(s, MMA_WM),                                                         \
   0,                                                                             \
   -1,                                                                            \
   "a matrix-unit tile is whole warp blocks"},                                    \
      {OCF_RULE_MULTIPLE_OF,                                                      \
       MM_MMA_SET(s, MMA_BN),                                                     \
       MM_MMA_SET(s, MMA_WN),                                                     \
       0,                                                                         \
       -1,                                                                        \
       "a matrix-unit tile is whole warp blocks"},                                \
      {OCF_RULE_AT_MOST,                                                          \
       DERIVED_MMA(s, D_MMA_THREADS),                                             \
       0,                                                                         \
       256,                                                                       \
       -1,                                                                        \
       "NVIDIA's OpenCL runs at most 256 work-items a workgroup of this kernel"}, \
  {                                                                               \
    OCF_RULE_AT_MOST, DERIVED_MMA(s, D_MMA_BLOCK), 0, 64 * 64, -1,                \
        "a warp's accumulators must fit in its registers"                         \
  }

static const ocf_rule matmul_rules[] = {
    SET_RULES(0),
    SET_RULES(1),
    SET_RULES(2),
    SET_RULES(3),
    MMA_SET_RULES(0),
    MMA_SET_RULES(1),
    {OCF_RULE_LE, MM_SK_RL_K, MM_SK_WG, 0, -1, "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_LE, MM_SK_RL_R, MM_SK_WG, 0, -1, "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_LE, MM_SK_RL_W, MM_SK_WG, 0, -1, "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_DIVISIBLE, MM_SK_SPLIT_MIN, 0, 4, -1,
     "skinny splits start on 4-element groups of the large operand"},
    {OCF_RULE_AT_LEAST, MM_MAX_REGS, 0, 32, MM_MAX_REGS,
     "a register cap below 32 leaves no room for the accumulators"},
    {OCF_RULE_DIVISIBLE, MM_WG_BN, 0, 64, -1, "wgmma tiles are 128, 192 or 256 columns wide"},
    {OCF_RULE_AT_MOST, DERIVED_WG_BYTES, 0, 227 << 10, -1,
     "a Hopper workgroup has at most 227 KiB of shared memory"},
};

const ocf_op_schema ocf_matmul_schema = {
    OCF_OP_MATMUL,  "matmul",       matmul_tunables,
    MM_PARAM_COUNT, matmul_derived, OCF_ARRAY_LEN(matmul_derived),
    matmul_derive,  matmul_rules,   OCF_ARRAY_LEN(matmul_rules)};
