/* The descriptor of cl/matmul_stage.cl's kernel, the staging step of the staged wgmma plans
   (src/plan/plan_matmul_wgmma.c, rule 4): it reads the tiled kernels' frame. */
#include "kernels/descriptors.h"

#define F ocf_matmul_frame
static const ocf_arg_desc stage_args[] = {
    OCF_ARG(F, m, OCF_ARG_ULONG),        OCF_ARG(F, n, OCF_ARG_ULONG),
    OCF_ARG(F, k, OCF_ARG_ULONG),        OCF_ARG(F, batch, OCF_ARG_ULONG),
    OCF_ARG(F, a, OCF_ARG_BUFFER),       OCF_ARG(F, a_off, OCF_ARG_ULONG),
    OCF_ARG(F, lda, OCF_ARG_ULONG),      OCF_ARG(F, stride_a, OCF_ARG_ULONG),
    OCF_ARG(F, b, OCF_ARG_BUFFER),       OCF_ARG(F, b_off, OCF_ARG_ULONG),
    OCF_ARG(F, ldb, OCF_ARG_ULONG),      OCF_ARG(F, stride_b, OCF_ARG_ULONG),
    OCF_ARG(F, partial, OCF_ARG_BUFFER), OCF_ARG(F, lds, OCF_ARG_ULONG)};
#undef F

static const char *const stage_defines[] = {"STAGE_TRANS_A", "STAGE_TRANS_B", "STAGE_A",
                                            "PARTS",         "STAGE_DTYPE",   NULL};

const ocf_kernel_desc ocf_kdesc_matmul_stage = {
    OCF_KERNEL_MATMUL_STAGE,
    "matmul_stage",
    OCF_PROGRAM_MATMUL_STAGE,
    stage_defines,
    stage_args,
    OCF_ARRAY_LEN(stage_args),
    "fp32, f16 or bf16 A and B in any transpose, offset, stride and batch: writes K-major "
    "operands into the scratch for matmul_wgmma_sb / _sab (fp32: TF32, PARTS 1 truncated, 3 the "
    "3XTF32 split as [small, big, big] and [big, small, big]; 16-bit: copied, rows on 128-byte "
    "lines); any device (portable OpenCL C)"};
