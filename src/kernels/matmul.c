/* Descriptors of cl/matmul.cl's kernels. All four take the same arguments. */
#include "kernels/descriptors.h"

#define F ocf_matmul_frame
static const ocf_arg_desc gemm_args[] = {
    OCF_ARG(F, m, OCF_ARG_ULONG),     OCF_ARG(F, n, OCF_ARG_ULONG),
    OCF_ARG(F, k, OCF_ARG_ULONG),     OCF_ARG(F, alpha, OCF_ARG_FLOAT),
    OCF_ARG(F, a, OCF_ARG_BUFFER),    OCF_ARG(F, a_off, OCF_ARG_ULONG),
    OCF_ARG(F, lda, OCF_ARG_ULONG),   OCF_ARG(F, b, OCF_ARG_BUFFER),
    OCF_ARG(F, b_off, OCF_ARG_ULONG), OCF_ARG(F, ldb, OCF_ARG_ULONG),
    OCF_ARG(F, beta, OCF_ARG_FLOAT),  OCF_ARG(F, c, OCF_ARG_BUFFER),
    OCF_ARG(F, c_off, OCF_ARG_ULONG), OCF_ARG(F, ldc, OCF_ARG_ULONG)};
#undef F

static const char *const tiled_defines[] = {"MDIMC", "NDIMC", "MWI",  "NWI",     "KWG",     "VWM",
                                            "VWN",   "PADA",  "PADB", "TRANS_A", "TRANS_B", NULL};
static const char *const naive_defines[] = {"MDIMC", "NDIMC", "TRANS_A", "TRANS_B", NULL};

#define KERNEL(ID, NAME, DEFINES, APPLIES)                                                        \
  const ocf_kernel_desc ocf_kdesc_##NAME = {OCF_KERNEL_##ID, #NAME,     OCF_PROGRAM_MATMUL,       \
                                            DEFINES,         gemm_args, OCF_ARRAY_LEN(gemm_args), \
                                            APPLIES}

KERNEL(MATMUL_TILED_FAST, matmul_tiled_fast, tiled_defines,
       "m % MWG == n % NWG == k % KWG == 0 and offsets and strides multiples of 4: no guards");
KERNEL(MATMUL_TILED_MIXED, matmul_tiled_mixed, tiled_defines,
       "offsets and strides multiples of 4, any m, n, k: whole tiles unguarded, edges guarded");
KERNEL(MATMUL_TILED, matmul_tiled, tiled_defines,
       "the general tiled kernel: guarded loads and stores, any sizes, offsets and strides");
KERNEL(MATMUL_NAIVE, matmul_naive, naive_defines,
       "the baseline: one output per work-item straight from global memory");
