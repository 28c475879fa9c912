/* Descriptors of cl/add.cl's kernels and of the benchmark's cl/baselines/add_baseline.cl. All
   three take the same arguments. */
#include "kernels/descriptors.h"

#define F ocf_add_frame
static const ocf_arg_desc add_args[] = {
    OCF_ARG(F, n, OCF_ARG_ULONG),      OCF_ARG(F, x, OCF_ARG_BUFFER),
    OCF_ARG(F, x_off, OCF_ARG_ULONG),  OCF_ARG(F, y, OCF_ARG_BUFFER),
    OCF_ARG(F, y_off, OCF_ARG_ULONG),  OCF_ARG(F, out, OCF_ARG_BUFFER),
    OCF_ARG(F, out_off, OCF_ARG_ULONG)};
#undef F

/* What each program requires (every #ifndef ... #error of its files). */
static const char *const add_defines[] = {"WG", "VW", "DTYPE", NULL};
static const char *const baseline_defines[] = {"WG", "DTYPE", NULL};

const ocf_kernel_desc ocf_kdesc_add_vector = {
    OCF_KERNEL_ADD_VECTOR,
    "add_vector",
    OCF_PROGRAM_ADD,
    add_defines,
    add_args,
    OCF_ARRAY_LEN(add_args),
    "x_off, y_off and out_off multiples of VW: aligned vector accesses; any n"};
const ocf_kernel_desc ocf_kdesc_add_general = {OCF_KERNEL_ADD_GENERAL,
                                               "add_general",
                                               OCF_PROGRAM_ADD,
                                               add_defines,
                                               add_args,
                                               OCF_ARRAY_LEN(add_args),
                                               "any n and offsets (scalar grid-stride loop)"};
const ocf_kernel_desc ocf_kdesc_add_baseline = {
    OCF_KERNEL_ADD_BASELINE,
    "add_baseline",
    OCF_PROGRAM_ADD_BASELINE,
    baseline_defines,
    add_args,
    OCF_ARRAY_LEN(add_args),
    "the benchmark baseline: one element per work-item"};
