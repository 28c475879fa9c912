/* Descriptors of cl/norm.cl's kernels (LayerNorm and RMSNorm). */
#include "kernels/descriptors.h"

#define F ocf_norm_frame
/* cl/norm_common.clh's NORM_PARAMS, the same in every kernel. */
#define NORM_ARGS                                                                  \
  OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, cols, OCF_ARG_ULONG),                \
      OCF_ARG(F, in, OCF_ARG_BUFFER), OCF_ARG(F, in_off, OCF_ARG_ULONG),           \
      OCF_ARG(F, in_ld, OCF_ARG_ULONG), OCF_ARG(F, out, OCF_ARG_BUFFER),           \
      OCF_ARG(F, out_off, OCF_ARG_ULONG), OCF_ARG(F, out_ld, OCF_ARG_ULONG),       \
      OCF_ARG(F, eps, OCF_ARG_FLOAT), OCF_ARG(F, weight, OCF_ARG_BUFFER),          \
      OCF_ARG(F, weight_off, OCF_ARG_ULONG), OCF_ARG(F, bias, OCF_ARG_BUFFER),     \
      OCF_ARG(F, bias_off, OCF_ARG_ULONG), OCF_ARG(F, res, OCF_ARG_BUFFER),        \
      OCF_ARG(F, res_off, OCF_ARG_ULONG), OCF_ARG(F, res_ld, OCF_ARG_ULONG),       \
      OCF_ARG(F, res_out, OCF_ARG_BUFFER), OCF_ARG(F, res_out_off, OCF_ARG_ULONG), \
      OCF_ARG(F, res_out_ld, OCF_ARG_ULONG), OCF_ARG(F, mean, OCF_ARG_BUFFER),     \
      OCF_ARG(F, mean_off, OCF_ARG_ULONG), OCF_ARG(F, rstd, OCF_ARG_BUFFER),       \
      OCF_ARG(F, rstd_off, OCF_ARG_ULONG)
#define PARTS OCF_ARG(F, parts, OCF_ARG_ULONG), OCF_ARG(F, part_vecs, OCF_ARG_ULONG)
#define SCRATCH OCF_ARG(F, scratch, OCF_ARG_BUFFER)

static const ocf_arg_desc fused_args[] = {NORM_ARGS};
static const ocf_arg_desc split_args[] = {NORM_ARGS, PARTS, SCRATCH};
static const ocf_arg_desc base_args[] = {NORM_ARGS, SCRATCH};

/* Each kernel lists the -D values its code reads; every plan sets all of them
   (cl/norm_common.clh refuses to build without one). */
#define OPTION_DEFINES                                                                         \
  "IN_DTYPE", "OUT_DTYPE", "RES_DTYPE", "W_DTYPE", "RMS", "HAS_WEIGHT", "HAS_BIAS", "HAS_RES", \
      "HAS_RES_OUT", "HAS_MEAN", "HAS_RSTD"
static const char *const norm_defines[] = {
    "WG",       "VW",      "ITEMS", "SEG",     "UNROLL",   "EVEN",         "SHIFTED",
    "PREFETCH", "SHUFFLE", "MERGE", "F16_CVT", "BF16_CVT", OPTION_DEFINES, NULL};

#define KERNEL(ID, NAME, ARGS, APPLIES)      \
  const ocf_kernel_desc ocf_kdesc_##NAME = { \
      OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_NORM, norm_defines, ARGS, OCF_ARRAY_LEN(ARGS), APPLIES}

KERNEL(NORM_ROWS, norm_rows, fused_args,
       "rows held in registers, WG / SEG a workgroup: ceil(cols / VW) <= SEG * ITEMS; VW > 1 "
       "needs every row start, weight_off and bias_off a multiple of VW, or with SHIFTED "
       "(ceil((cols + VW - 1) / VW) <= SEG * ITEMS) every operand's row r as far inside a vector "
       "as in's and weight_off and bias_off multiples of VW");
KERNEL(NORM_STREAM, norm_stream, fused_args,
       "long rows, one a workgroup (SEG = WG): the first WG * ITEMS vectors held, the rest read "
       "twice (x' written in the first pass and read back in the second); alignment as "
       "norm_rows");
KERNEL(NORM_SPLIT_STATS, norm_split_stats, split_args,
       "rows beyond registers: per slice of part_vecs vectors, its (count, mean, M2) about the "
       "row's first element into scratch; alignment as norm_rows");
KERNEL(NORM_SPLIT_APPLY, norm_split_apply, split_args,
       "after norm_split_stats: merges a row's slices (Chan) and writes its slice");
KERNEL(NORM_GENERAL, norm_general, fused_args,
       "the reference: scalar, three passes, any offsets and strides");
KERNEL(NORM_BASE_MEAN, norm_base_mean, base_args,
       "unfused baseline, step 1: row shift and shifted mean (RMS: mean square) into scratch");
KERNEL(NORM_BASE_VAR, norm_base_var, base_args,
       "unfused baseline, step 2 (LayerNorm): row variance into scratch");
KERNEL(NORM_BASE_APPLY, norm_base_apply, base_args,
       "unfused baseline, last step, the only one that writes outputs: normalize");
