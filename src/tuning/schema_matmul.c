/* ocf_matmul's tunables (a fill rule and three tile sets) and the tiling rules. */
#include "tuning/schemas.h"

/* Set 0 always exists; sets 1 and 2 are unused while their mdimc is 0. The fallbacks are the
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
};

/* Derived, per set: the tile's rows and columns and the accumulators per work-item. */
enum { D_MWG, D_NWG, D_WPT, D_PER_SET };
#define DERIVED(s, d) (MM_PARAM_COUNT + (s)*D_PER_SET + (d))

static const char *const matmul_derived[MM_SETS * D_PER_SET] = {
    "set0.mdimc*mwi", "set0.ndimc*nwi", "set0.mwi*nwi",   "set1.mdimc*mwi", "set1.ndimc*nwi",
    "set1.mwi*nwi",   "set2.mdimc*mwi", "set2.ndimc*nwi", "set2.mwi*nwi"};

static void matmul_derive(const int *v, long long *d) {
  for (int s = 0; s < MM_SETS; s++) {
    d[s * D_PER_SET + D_MWG] = (long long)v[MM_SET(s, MM_MDIMC)] * v[MM_SET(s, MM_MWI)];
    d[s * D_PER_SET + D_NWG] = (long long)v[MM_SET(s, MM_NDIMC)] * v[MM_SET(s, MM_NWI)];
    d[s * D_PER_SET + D_WPT] = (long long)v[MM_SET(s, MM_MWI)] * v[MM_SET(s, MM_NWI)];
  }
}

/* The rules of one set, checked while the set is in use (its mdimc non-zero). */
#define SET_RULES(s)                                                                              \
  {OCF_RULE_AT_LEAST,                                                                             \
   MM_SET(s, MM_NDIMC),                                                                           \
   0,                                                                                             \
   1,                                                                                             \
   MM_SET(s, MM_MDIMC),                                                                           \
   "a set in use needs "                                                                          \
   "work-items along N"},                                                                         \
      {OCF_RULE_AT_LEAST, MM_SET(s, MM_MWI), 0, 1, MM_SET(s, MM_MDIMC), "rows per work-item"},    \
      {OCF_RULE_AT_LEAST, MM_SET(s, MM_NWI), 0, 1, MM_SET(s, MM_MDIMC), "columns per work-item"}, \
      {OCF_RULE_AT_LEAST, MM_SET(s, MM_KWG), 0, 4, MM_SET(s, MM_MDIMC), "K slice depth"},         \
      {OCF_RULE_AT_LEAST, MM_SET(s, MM_VWM), 0, 1, MM_SET(s, MM_MDIMC), "vector width"},          \
      {OCF_RULE_AT_LEAST, MM_SET(s, MM_VWN), 0, 1, MM_SET(s, MM_MDIMC), "vector width"},          \
      {OCF_RULE_DIVISIBLE,                                                                        \
       MM_SET(s, MM_KWG),                                                                         \
       0,                                                                                         \
       4,                                                                                         \
       MM_SET(s, MM_MDIMC),                                                                       \
       "global loads along K come in groups of 4"},                                               \
      {OCF_RULE_MULTIPLE_OF, MM_SET(s, MM_MWI),                                                   \
       MM_SET(s, MM_VWM),    0,                                                                   \
       MM_SET(s, MM_MDIMC),  "a work-item's rows are whole vectors"},                             \
      {OCF_RULE_MULTIPLE_OF, MM_SET(s, MM_NWI),                                                   \
       MM_SET(s, MM_VWN),    0,                                                                   \
       MM_SET(s, MM_MDIMC),  "a work-item's columns are whole vectors"},                          \
      {OCF_RULE_AT_MOST,                                                                          \
       DERIVED(s, D_WPT),                                                                         \
       0,                                                                                         \
       256,                                                                                       \
       MM_SET(s, MM_MDIMC),                                                                       \
       "accumulators must fit in registers"},                                                     \
      {OCF_RULE_DIVISIBLE,                                                                        \
       DERIVED(s, D_MWG),                                                                         \
       0,                                                                                         \
       4,                                                                                         \
       MM_SET(s, MM_MDIMC),                                                                       \
       "global loads along M come in groups of 4"},                                               \
      {OCF_RULE_DIVISIBLE,                                                                        \
       DERIVED(s, D_NWG),                                                                         \
       0,                                                                                         \
       4,                                                                                         \
       MM_SET(s, MM_MDIMC),                                                                       \
       "global loads along N come in groups of 4"},                                               \
      {OCF_RULE_DIVISIBLE, MM_SET(s, MM_PADA), 0, 4, -1, "local rows stay 16-byte aligned"}, {    \
    OCF_RULE_DIVISIBLE, MM_SET(s, MM_PADB), 0, 4, -1, "local rows stay 16-byte aligned"           \
  }

static const ocf_rule matmul_rules[] = {SET_RULES(0), SET_RULES(1), SET_RULES(2)};

const ocf_op_schema ocf_matmul_schema = {
    OCF_OP_MATMUL,  "matmul",       matmul_tunables,
    MM_PARAM_COUNT, matmul_derived, OCF_ARRAY_LEN(matmul_derived),
    matmul_derive,  matmul_rules,   OCF_ARRAY_LEN(matmul_rules)};
