/* Descriptors of cl/matmul_few_mma.cl's kernels: the skinny kernels' frame and arguments. */
#include "kernels/descriptors.h"
#include "kernels/skinny_args.h"

#define F ocf_matmul_skinny_frame
static const ocf_arg_desc direct_args[] = {SKINNY_PROBLEM_ARGS, SKINNY_OUTPUT_ARGS};
static const ocf_arg_desc split_args[] = {SKINNY_PROBLEM_ARGS, OCF_ARG(F, partial, OCF_ARG_BUFFER)};
static const ocf_arg_desc reduce_args[] = {SKINNY_REDUCE_ARGS};
#undef F

/* What the program requires (every #ifndef ... #error of cl/matmul_few_mma.cl and
   cl/attention_mma_prims.clh), read by every kernel: SPLIT decides which kernels it holds. */
static const char *const few_defines[] = {
    "N_SMALL", "WARPS", "KW",          "NT",        "UNROLL",     "X_KCONT",
    "V_KCONT", "X_VEC", "V_VEC",       "C_DTYPE",   "BIAS_DTYPE", "ACTIVATION",
    "BIAS",    "SPLIT", "MMA_EMULATE", "MMA_DTYPE", NULL};

#define KERNEL(ID, NAME, ARGS, APPLIES)                                                         \
  const ocf_kernel_desc ocf_kdesc_##NAME = {OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_MATMUL_FEW_MMA, \
                                            few_defines,     ARGS,  OCF_ARRAY_LEN(ARGS),        \
                                            APPLIES}

KERNEL(MATMUL_FEW_MMA, matmul_few_mma, direct_args,
       "fp16 or bf16 A and B of one type, C with at most 64 columns (or rows, operands swapped), "
       "mma.sync m16n8k16 (NVIDIA after the mma probe, an emulation elsewhere): X streamed once, "
       "one K range (splits == 1), the epilogue applied");
KERNEL(MATMUL_FEW_MMA_SPLIT, matmul_few_mma_split, split_args,
       "as matmul_few_mma over one of `splits` K ranges of k_split (a multiple of 32 KW UNROLL), "
       "raw sums into `partial`; before matmul_few_mma_reduce");
KERNEL(MATMUL_FEW_MMA_REDUCE, matmul_few_mma_reduce, reduce_args,
       "after matmul_few_mma_split: adds the splits' sums, then the epilogue and the store");
