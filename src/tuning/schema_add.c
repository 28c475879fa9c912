/* ocf_add's tunables. */
#include "tuning/schemas.h"

static const ocf_tunable add_tunables[ADD_PARAM_COUNT] = {
    [ADD_WG] = {"wg", 1, 16384, 0, 128, "work-items per workgroup"},
    [ADD_VW] = {"vw", 1, 16, 1, 4, "floats per vector access of add_vector"},
    [ADD_GROUPS_PER_UNIT] = {"groups_per_unit", 0, 1024, 0, 8,
                             "workgroups per compute unit in the grid-stride loop; 0: one vector "
                             "per work-item, no loop (CPU runtimes vectorise across work-items)"},
};

const ocf_op_schema ocf_add_schema = {
    OCF_OP_ADD, "add", add_tunables, ADD_PARAM_COUNT, NULL, 0, NULL, NULL, 0};
