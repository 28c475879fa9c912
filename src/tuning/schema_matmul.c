/* ocf_matmul's tunables (a fill rule, four tile sets, split-K, the skinny kernels) and their
   rules. */
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
};

/* Derived, per set: the tile's rows and columns and the accumulators per work-item. */
enum { D_MWG, D_NWG, D_WPT, D_PER_SET };
#define DERIVED(s, d) (MM_PARAM_COUNT + (s)*D_PER_SET + (d))

static const char *const matmul_derived[MM_SETS * D_PER_SET] = {
    "set0.mdimc*mwi", "set0.ndimc*nwi", "set0.mwi*nwi",   "set1.mdimc*mwi",
    "set1.ndimc*nwi", "set1.mwi*nwi",   "set2.mdimc*mwi", "set2.ndimc*nwi",
    "set2.mwi*nwi",   "set3.mdimc*mwi", "set3.ndimc*nwi", "set3.mwi*nwi"};

static void matmul_derive(const int *v, long long *d) {
  for (int s = 0; s < MM_SETS; s++) {
    d[s * D_PER_SET + D_MWG] = (long long)v[MM_SET(s, MM_MDIMC)] * v[MM_SET(s, MM_MWI)];
    d[s * D_PER_SET + D_NWG] = (long long)v[MM_SET(s, MM_NDIMC)] * v[MM_SET(s, MM_NWI)];
    d[s * D_PER_SET + D_WPT] = (long long)v[MM_SET(s, MM_MWI)] * v[MM_SET(s, MM_NWI)];
  }
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

static const ocf_rule matmul_rules[] = {
    SET_RULES(0),
    SET_RULES(1),
    SET_RULES(2),
    SET_RULES(3),
    {OCF_RULE_LE, MM_SK_RL_K, MM_SK_WG, 0, -1, "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_LE, MM_SK_RL_R, MM_SK_WG, 0, -1, "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_DIVISIBLE, MM_SK_SPLIT_MIN, 0, 4, -1,
     "skinny splits start on 4-element groups of the large operand"},
};

const ocf_op_schema ocf_matmul_schema = {
    OCF_OP_MATMUL,  "matmul",       matmul_tunables,
    MM_PARAM_COUNT, matmul_derived, OCF_ARRAY_LEN(matmul_derived),
    matmul_derive,  matmul_rules,   OCF_ARRAY_LEN(matmul_rules)};
