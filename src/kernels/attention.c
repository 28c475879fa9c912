/* Descriptor of cl/attention.cl's kernel. */
#include "kernels/descriptors.h"

#define F ocf_attention_frame
#define TENSOR(x)                                                           \
  OCF_ARG(F, x, OCF_ARG_BUFFER), OCF_ARG(F, x##_off, OCF_ARG_ULONG),        \
      OCF_ARG(F, x##_sb, OCF_ARG_ULONG), OCF_ARG(F, x##_sh, OCF_ARG_ULONG), \
      OCF_ARG(F, x##_sr, OCF_ARG_ULONG)

static const ocf_arg_desc tiled_args[] = {OCF_ARG(F, b, OCF_ARG_ULONG),
                                          OCF_ARG(F, h, OCF_ARG_ULONG),
                                          OCF_ARG(F, group, OCF_ARG_ULONG),
                                          OCF_ARG(F, lq, OCF_ARG_ULONG),
                                          OCF_ARG(F, lk, OCF_ARG_ULONG),
                                          OCF_ARG(F, d, OCF_ARG_ULONG),
                                          TENSOR(q),
                                          TENSOR(k),
                                          TENSOR(v),
                                          TENSOR(out),
                                          OCF_ARG(F, scale, OCF_ARG_FLOAT),
                                          OCF_ARG(F, lengths, OCF_ARG_BUFFER),
                                          OCF_ARG(F, lengths_off, OCF_ARG_ULONG),
                                          OCF_ARG(F, causal_offset, OCF_ARG_ULONG),
                                          OCF_ARG(F, lse, OCF_ARG_BUFFER),
                                          OCF_ARG(F, lse_off, OCF_ARG_ULONG)};

static const char *const tiled_defines[] = {"BQ",          "BK",      "TPR",     "D",
                                            "Q_DTYPE",     "K_DTYPE", "V_DTYPE", "OUT_DTYPE",
                                            "HAS_LENGTHS", "CAUSAL",  "HAS_LSE", NULL};

const ocf_kernel_desc ocf_kdesc_attention_tiled = {
    OCF_KERNEL_ATTENTION_TILED,
    "attention_tiled",
    OCF_PROGRAM_ATTENTION,
    tiled_defines,
    tiled_args,
    OCF_ARRAY_LEN(tiled_args),
    "any shape: one workgroup per (batch, head, block of BQ query rows), TPR work-items a row, "
    "d <= D (D a multiple of 16 and of TPR, BK a multiple of TPR)"};
