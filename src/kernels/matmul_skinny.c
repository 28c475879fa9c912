/* Descriptors of cl/matmul_skinny.cl's kernels. */
#include "kernels/descriptors.h"
#include "kernels/skinny_args.h"

#define F ocf_matmul_skinny_frame
static const ocf_arg_desc direct_args[] = {SKINNY_PROBLEM_ARGS, SKINNY_OUTPUT_ARGS};
static const ocf_arg_desc split_args[] = {SKINNY_PROBLEM_ARGS, OCF_ARG(F, partial, OCF_ARG_BUFFER)};
static const ocf_arg_desc reduce_args[] = {SKINNY_REDUCE_ARGS};
static const ocf_arg_desc join_args[] = {SKINNY_PROBLEM_ARGS, SKINNY_OUTPUT_ARGS,
                                         OCF_ARG(F, partial, OCF_ARG_BUFFER),
                                         OCF_ARG(F, arrivals, OCF_ARG_BUFFER)};
#undef F

/* What the program requires (every #ifndef ... #error of cl/matmul_skinny.cl), read by every
   kernel: SPLIT decides which kernels the program holds. */
static const char *const skinny_defines[] = {
    "N_SMALL", "WG",      "RL",      "UNROLL",  "X_KCONT",    "V_SCONT",   "X_VEC",
    "V_VEC",   "X_DTYPE", "V_DTYPE", "C_DTYPE", "BIAS_DTYPE", "PRECISION", "ACTIVATION",
    "BIAS",    "WIDE",    "KC",      "SPLIT",   "JOIN",       NULL};

#define KERNEL(ID, NAME, DEFINES, ARGS, APPLIES)                                               \
  const ocf_kernel_desc ocf_kdesc_##NAME = {OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_MATMUL_SKINNY, \
                                            DEFINES,         ARGS,  OCF_ARRAY_LEN(ARGS),       \
                                            APPLIES}

KERNEL(MATMUL_SKINNY, matmul_skinny, skinny_defines, direct_args,
       "C with at most 16 columns (or rows, operands swapped): X streamed once at bandwidth, "
       "one K range (splits == 1), the epilogue applied");
KERNEL(MATMUL_SKINNY_SPLIT, matmul_skinny_split, skinny_defines, split_args,
       "as matmul_skinny over one of `splits` K ranges of k_split (a multiple of 4), raw sums "
       "into `partial`; before matmul_skinny_reduce");
KERNEL(MATMUL_SKINNY_REDUCE, matmul_skinny_reduce, skinny_defines, reduce_args,
       "after matmul_skinny_split: adds the splits' sums, then the epilogue and the store");
KERNEL(MATMUL_SKINNY_JOIN, matmul_skinny_join, skinny_defines, join_args,
       "matmul_skinny_split and its reduce in one launch: a row block's last K range to arrive "
       "at its counter in `arrivals` (JOIN 1 or 2: cl/join.clh) adds the block's ranges' sums "
       "from `partial` in order, then the epilogue and the store");
