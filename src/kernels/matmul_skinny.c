/* Descriptors of cl/matmul_skinny.cl's kernels. */
#include "kernels/descriptors.h"

#define F ocf_matmul_skinny_frame
#define PROBLEM                                                              \
  OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, k, OCF_ARG_ULONG),             \
      OCF_ARG(F, k_split, OCF_ARG_ULONG), OCF_ARG(F, splits, OCF_ARG_ULONG), \
      OCF_ARG(F, x, OCF_ARG_BUFFER), OCF_ARG(F, x_off, OCF_ARG_ULONG),       \
      OCF_ARG(F, ldx, OCF_ARG_ULONG), OCF_ARG(F, stride_x, OCF_ARG_ULONG),   \
      OCF_ARG(F, v, OCF_ARG_BUFFER), OCF_ARG(F, v_off, OCF_ARG_ULONG),       \
      OCF_ARG(F, v_ps, OCF_ARG_ULONG), OCF_ARG(F, v_ss, OCF_ARG_ULONG),      \
      OCF_ARG(F, stride_v, OCF_ARG_ULONG)
#define OUTPUT                                                               \
  OCF_ARG(F, alpha, OCF_ARG_FLOAT), OCF_ARG(F, beta, OCF_ARG_FLOAT),         \
      OCF_ARG(F, c, OCF_ARG_BUFFER), OCF_ARG(F, c_off, OCF_ARG_ULONG),       \
      OCF_ARG(F, c_rs, OCF_ARG_ULONG), OCF_ARG(F, c_ss, OCF_ARG_ULONG),      \
      OCF_ARG(F, stride_c, OCF_ARG_ULONG), OCF_ARG(F, bias, OCF_ARG_BUFFER), \
      OCF_ARG(F, bias_off, OCF_ARG_ULONG)

static const ocf_arg_desc direct_args[] = {PROBLEM, OUTPUT};
static const ocf_arg_desc split_args[] = {PROBLEM, OCF_ARG(F, partial, OCF_ARG_BUFFER)};
static const ocf_arg_desc reduce_args[] = {
    OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, batch, OCF_ARG_ULONG),
    OCF_ARG(F, splits, OCF_ARG_ULONG), OCF_ARG(F, partial, OCF_ARG_BUFFER), OUTPUT};
#undef F

/* What the program requires (every #ifndef ... #error of cl/matmul_skinny.cl), read by every
   kernel: SPLIT decides which kernels the program holds. */
static const char *const skinny_defines[] = {
    "N_SMALL", "WG",      "RL",      "UNROLL",  "X_KCONT",    "V_SCONT",   "X_VEC",
    "V_VEC",   "X_DTYPE", "V_DTYPE", "C_DTYPE", "BIAS_DTYPE", "PRECISION", "ACTIVATION",
    "BIAS",    "WIDE",    "KC",      "SPLIT",   NULL};

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
