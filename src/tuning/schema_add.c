/* ocf_add's tunables: one kernel family, its names without a prefix. */
#include "tuning/schemas.h"

#define ADD(field) OCF_TUNING_INDEX(add, field)

static const ocf_tunable add_tunables[] = {
    [ADD(wg)] = {"wg", 1, 16384, 0, 128, "work-items per workgroup", NULL},
    [ADD(vw)] = {"vw", 1, 16, 1, 4, "floats per vector access of add_vector", NULL},
    [ADD(groups_per_unit)] = {"groups_per_unit", 0, 1024, 0, 8,
                              "workgroups per compute unit in the grid-stride loop; 0: one vector "
                              "per work-item, no loop (CPU runtimes vectorise across work-items)",
                              NULL},
};

_Static_assert(OCF_ARRAY_LEN(add_tunables) == OCF_TUNING_INTS(ocf_add_tuning),
               "a name for every add tunable");

static const ocf_tuning_family add_families[] = {
    {"", "add_vector and add_scalar", 0, OCF_TUNING_INTS(ocf_add_tuning), 0, 0},
};

const ocf_op_schema ocf_add_schema = {
    OCF_OP_ADD, "add", add_tunables, OCF_TUNING_INTS(ocf_add_tuning), NULL, 0, NULL,
    NULL,       0,     add_families, OCF_ARRAY_LEN(add_families)};
