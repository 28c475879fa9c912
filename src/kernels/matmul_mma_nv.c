/* The descriptor of cl/matmul_mma_nv.cl's kernel: the tiled kernels' frame and arguments. */
#include "kernels/descriptors.h"

#define F ocf_matmul_frame
static const ocf_arg_desc mma_args[] = {
    OCF_ARG(F, m, OCF_ARG_ULONG),        OCF_ARG(F, n, OCF_ARG_ULONG),
    OCF_ARG(F, k, OCF_ARG_ULONG),        OCF_ARG(F, alpha, OCF_ARG_FLOAT),
    OCF_ARG(F, a, OCF_ARG_BUFFER),       OCF_ARG(F, a_off, OCF_ARG_ULONG),
    OCF_ARG(F, lda, OCF_ARG_ULONG),      OCF_ARG(F, stride_a, OCF_ARG_ULONG),
    OCF_ARG(F, b, OCF_ARG_BUFFER),       OCF_ARG(F, b_off, OCF_ARG_ULONG),
    OCF_ARG(F, ldb, OCF_ARG_ULONG),      OCF_ARG(F, stride_b, OCF_ARG_ULONG),
    OCF_ARG(F, beta, OCF_ARG_FLOAT),     OCF_ARG(F, c, OCF_ARG_BUFFER),
    OCF_ARG(F, c_off, OCF_ARG_ULONG),    OCF_ARG(F, ldc, OCF_ARG_ULONG),
    OCF_ARG(F, stride_c, OCF_ARG_ULONG), OCF_ARG(F, bias, OCF_ARG_BUFFER),
    OCF_ARG(F, bias_off, OCF_ARG_ULONG)};
#undef F

static const char *const mma_defines[] = {"AB_DTYPE",
                                          "C_DTYPE",
                                          "PRECISION",
                                          "TRANS_A",
                                          "TRANS_B",
                                          "BM",
                                          "BN",
                                          "BK",
                                          "WM",
                                          "WN",
                                          "STAGES",
                                          "A_LOAD",
                                          "B_LOAD",
                                          "GROUP_M",
                                          "COPY_AT",
                                          "INTERIOR_FAST",
                                          "ACTIVATION",
                                          "BIAS",
                                          "BIAS_DTYPE",
                                          "SPLIT3_PASSES",
                                          "CP_L2_PREFETCH",
                                          NULL};

const ocf_kernel_desc ocf_kdesc_matmul_mma = {
    OCF_KERNEL_MATMUL_MMA,
    "matmul_mma",
    OCF_PROGRAM_MATMUL_MMA_NV,
    mma_defines,
    mma_args,
    OCF_ARRAY_LEN(mma_args),
    "NVIDIA GPUs of compute capability 8.0 or more whose probe passed on this context: A and B "
    "both f16 or both bf16, or both fp32 in TF32 or 3XTF32; any shape, offset and stride (the "
    "load paths A_LOAD / B_LOAD by alignment), batches and the epilogue; a 1-D grid of "
    "tiles x batch workgroups below 2^32 work-items"};
