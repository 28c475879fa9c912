/* Descriptors of cl/softmax.cl's kernels. */
#include "kernels/descriptors.h"

#define F ocf_softmax_frame
#define ROWS_COLS OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, cols, OCF_ARG_ULONG)
#define IN                                                           \
  OCF_ARG(F, in, OCF_ARG_BUFFER), OCF_ARG(F, in_off, OCF_ARG_ULONG), \
      OCF_ARG(F, in_ld, OCF_ARG_ULONG)
#define OUT                                                            \
  OCF_ARG(F, out, OCF_ARG_BUFFER), OCF_ARG(F, out_off, OCF_ARG_ULONG), \
      OCF_ARG(F, out_ld, OCF_ARG_ULONG)
#define PARTS OCF_ARG(F, parts, OCF_ARG_ULONG), OCF_ARG(F, part_vecs, OCF_ARG_ULONG)
#define SCRATCH OCF_ARG(F, scratch, OCF_ARG_BUFFER)

static const ocf_arg_desc fused_args[] = {ROWS_COLS, IN, OUT};
static const ocf_arg_desc split_stats_args[] = {ROWS_COLS, IN, PARTS, SCRATCH};
static const ocf_arg_desc split_write_args[] = {ROWS_COLS, IN, OUT, PARTS, SCRATCH};
static const ocf_arg_desc base_max_args[] = {ROWS_COLS, IN, SCRATCH};
static const ocf_arg_desc base_exp_sum_args[] = {ROWS_COLS, IN, SCRATCH};
static const ocf_arg_desc base_divide_args[] = {ROWS_COLS, OUT, SCRATCH};

/* The program reads these whatever the kernel; each kernel lists the ones its code uses. */
static const char *const rows_defines[] = {"WG",       "VW",        "ITEMS", "SEG",
                                           "IN_DTYPE", "OUT_DTYPE", NULL};
static const char *const resident_defines[] = {"WG", "VW", "ITEMS", "IN_DTYPE", "OUT_DTYPE", NULL};
static const char *const looped_defines[] = {"WG", "VW", "UNROLL", "IN_DTYPE", "OUT_DTYPE", NULL};
static const char *const scalar_defines[] = {"WG", "IN_DTYPE", "OUT_DTYPE", NULL};

#define KERNEL(ID, NAME, DEFINES, ARGS, APPLIES) \
  const ocf_kernel_desc ocf_kdesc_##NAME = {     \
      OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_SOFTMAX, DEFINES, ARGS, OCF_ARRAY_LEN(ARGS), APPLIES}

KERNEL(SOFTMAX_ROWS, softmax_rows, rows_defines, fused_args,
       "short rows, WG / SEG a workgroup, the row in registers: cols <= SEG * VW * ITEMS; "
       "VW > 1 needs in_off, in_ld, out_off, out_ld multiples of VW");
KERNEL(SOFTMAX_RESIDENT, softmax_resident, resident_defines, fused_args,
       "one workgroup a row held in registers: cols <= WG * VW * ITEMS; alignment as rows");
KERNEL(SOFTMAX_ONLINE, softmax_online, looped_defines, fused_args,
       "one workgroup a row, any cols, two passes over the row; alignment as rows");
KERNEL(SOFTMAX_SPLIT_STATS, softmax_split_stats, looped_defines, split_stats_args,
       "few long rows: per range of part_vecs vectors, its (max, sum) into scratch");
KERNEL(SOFTMAX_SPLIT_WRITE, softmax_split_write, looped_defines, split_write_args,
       "after softmax_split_stats: combines a row's ranges and writes its range");
KERNEL(SOFTMAX_GENERAL, softmax_general, scalar_defines, fused_args,
       "the reference: scalar, any offsets and strides");
KERNEL(SOFTMAX_BASE_MAX, softmax_base_max, scalar_defines, base_max_args,
       "unfused baseline, step 1: row max into scratch");
KERNEL(SOFTMAX_BASE_EXP_SUM, softmax_base_exp_sum, scalar_defines, base_exp_sum_args,
       "unfused baseline, step 2: exp(x - max) and the row sum into scratch");
KERNEL(SOFTMAX_BASE_DIVIDE, softmax_base_divide, scalar_defines, base_divide_args,
       "unfused baseline, step 3: out = exp / row sum, the only step that writes out");
