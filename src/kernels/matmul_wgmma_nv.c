/* The descriptor of cl/matmul_wgmma_nv.cl's kernel: the tiled kernels' frame and arguments. */
#include "kernels/descriptors.h"

#define F ocf_matmul_frame
static const ocf_arg_desc wgmma_args[] = {
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

static const char *const wgmma_defines[] = {"AB_DTYPE", "TRANS_B",    "BN",      "CONSUMERS",
                                            "STAGES",   "GROUP_M",    "C_DTYPE", "ACTIVATION",
                                            "BIAS",     "BIAS_DTYPE", NULL};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma = {
    OCF_KERNEL_MATMUL_WGMMA,
    "matmul_wgmma",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    wgmma_args,
    OCF_ARRAY_LEN(wgmma_args),
    "NVIDIA GPUs of compute capability 9.0 whose wgmma probe passed on this context (the program "
    "retargeted to sm_90a): A and B both f16 or both bf16, or both fp32 in TF32; A stored m x k; "
    "B stored k x n (16-bit only) or n x k; A's and B's offsets, leading dimensions and batch "
    "strides multiples of 16 bytes; any C type, bias and activation; any m, n, k; batches; a 1-D "
    "grid of tiles x batch workgroups below 2^31"};
