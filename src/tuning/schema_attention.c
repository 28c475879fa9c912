/* ocf_attention's tunables and the rules between them (how the planner uses them:
   src/plan/plan_attention.c; what they mean in the kernel: cl/attention.cl). */
#include "tuning/schemas.h"

static const ocf_tunable attention_tunables[AT_PARAM_COUNT] = {
    [AT_BQ] = {"bq", 1, 256, 1, 16,
               "query rows a workgroup (the planner halves it, after bk, until local memory fits)"},
    [AT_BK] = {"bk", 1, 256, 1, 32,
               "keys and values a tile staged through local memory (halved first to fit)"},
    [AT_TPR] = {"tpr", 1, 16, 1, 4,
                "work-items per query row: each scores bk / tpr keys of a tile and accumulates "
                "D / tpr of the row's output"},
    [AT_SPLIT_FILL] = {"split_fill", 0, 64, 0, 2,
                       "workgroups per compute unit below which each row's keys are split over "
                       "workgroups (attention_split + attention_merge); 0: never"},
    [AT_SPLIT_MIN] = {"split_min", 1, 1 << 20, 0, 256, "the fewest keys one split takes"},
};

enum { AT_WG = AT_PARAM_COUNT };

static const char *const attention_derived[] = {"bq*tpr"};

static void attention_derive(const int *v, long long *d) {
  d[0] = (long long)v[AT_BQ] * v[AT_TPR];
}

static const ocf_rule attention_rules[] = {
    {OCF_RULE_LE, AT_TPR, AT_BK, 0, -1,
     "a tile's keys are shared evenly among a row's work-items (tpr <= bk, both powers of two)"},
    {OCF_RULE_AT_MOST, AT_WG, 0, 1024, -1, "a workgroup has at most 1024 work-items"},
};

const ocf_op_schema ocf_attention_schema = {
    OCF_OP_ATTENTION, "attention",       attention_tunables,
    AT_PARAM_COUNT,   attention_derived, OCF_ARRAY_LEN(attention_derived),
    attention_derive, attention_rules,   OCF_ARRAY_LEN(attention_rules)};
