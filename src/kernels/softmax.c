/* Descriptors of the softmax kernels: one program per family (cl/softmax_rows.cl,
   softmax_resident.cl, softmax_coop.cl, softmax_split.cl, softmax_general.cl and the benchmark's
   baselines/softmax_unfused.cl), each assembled with cl/softmax_common.clh and the fragments its
   kernels share. */
#include "kernels/descriptors.h"

#define F ocf_softmax_frame
#define ROWS_COLS OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, cols, OCF_ARG_ULONG)
#define IN                                                           \
  OCF_ARG(F, in, OCF_ARG_BUFFER), OCF_ARG(F, in_off, OCF_ARG_ULONG), \
      OCF_ARG(F, in_ld, OCF_ARG_ULONG)
#define OUT                                                            \
  OCF_ARG(F, out, OCF_ARG_BUFFER), OCF_ARG(F, out_off, OCF_ARG_ULONG), \
      OCF_ARG(F, out_ld, OCF_ARG_ULONG)
#define SCALE OCF_ARG(F, scale, OCF_ARG_FLOAT)
/* The mask (lengths and the causal band): cl/softmax_common.clh's MASK_PARAMS. */
#define MASK                                                                   \
  OCF_ARG(F, lengths, OCF_ARG_BUFFER), OCF_ARG(F, lengths_off, OCF_ARG_ULONG), \
      OCF_ARG(F, causal_period, OCF_ARG_ULONG), OCF_ARG(F, causal_offset, OCF_ARG_ULONG)
#define PARTS OCF_ARG(F, parts, OCF_ARG_ULONG), OCF_ARG(F, part_vecs, OCF_ARG_ULONG)
#define SCRATCH OCF_ARG(F, scratch, OCF_ARG_BUFFER)

static const ocf_arg_desc fused_args[] = {ROWS_COLS, IN, OUT, SCALE, MASK};
static const ocf_arg_desc coop_args[] = {ROWS_COLS, IN, OUT, SCALE, MASK, PARTS, SCRATCH};
static const ocf_arg_desc split_stats_args[] = {ROWS_COLS, IN, SCALE, MASK, PARTS, SCRATCH};
static const ocf_arg_desc split_write_args[] = {ROWS_COLS, IN, OUT, SCALE, MASK, PARTS, SCRATCH};
static const ocf_arg_desc base_max_args[] = {ROWS_COLS, IN, MASK, SCRATCH};
static const ocf_arg_desc base_exp_sum_args[] = {ROWS_COLS, IN, SCALE, MASK, SCRATCH};
static const ocf_arg_desc base_divide_args[] = {ROWS_COLS, IN, OUT, SCALE, MASK, SCRATCH};

/* Each kernel lists the -D values its program requires (every #ifndef ... #error of its files:
   tests/test_kernel_sources.c checks the two agree); every plan sets all of them. */
#define OPTION_DEFINES "IN_DTYPE", "OUT_DTYPE", "LOG", "HAS_LENGTHS", "CAUSAL"
static const char *const rows_defines[] = {"WG",       "VW",         "ITEMS",        "SEG",
                                           "PREFETCH", "PACKED",     "F16_CVT",      "BF16_CVT",
                                           "SHUFFLE",  "WHOLE_ENDS", OPTION_DEFINES, NULL};
static const char *const resident_defines[] = {"WG",           "VW",     "ITEMS",   "LOCAL_ITEMS",
                                               "UNROLL",       "PACKED", "F16_CVT", "BF16_CVT",
                                               OPTION_DEFINES, NULL};
static const char *const coop_defines[] = {"WG",     "VW",      "ITEMS",    "LOCAL_ITEMS",  "SPIN",
                                           "PACKED", "F16_CVT", "BF16_CVT", OPTION_DEFINES, NULL};
static const char *const split_defines[] = {"WG",      "VW",       "UNROLL",       "PACKED",
                                            "F16_CVT", "BF16_CVT", OPTION_DEFINES, NULL};
static const char *const scalar_defines[] = {"WG", OPTION_DEFINES, NULL};

#define KERNEL(ID, NAME, PROGRAM, DEFINES, ARGS, APPLIES) \
  const ocf_kernel_desc ocf_kdesc_##NAME = {              \
      OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_##PROGRAM, DEFINES, ARGS, OCF_ARRAY_LEN(ARGS), APPLIES}

KERNEL(SOFTMAX_ROWS, softmax_rows, SOFTMAX_ROWS, rows_defines, fused_args,
       "short rows, WG / SEG a workgroup, the row in registers: a row's vectors (its head "
       "included) at most SEG * ITEMS; VW > 1 needs in_off = out_off and in_ld = out_ld "
       "modulo VW");
KERNEL(SOFTMAX_RESIDENT, softmax_resident, SOFTMAX_RESIDENT, resident_defines, fused_args,
       "one workgroup a row, WG * (ITEMS + LOCAL_ITEMS) vectors of it held, the rest streamed "
       "twice; alignment as rows");
KERNEL(SOFTMAX_COOP, softmax_coop, SOFTMAX_COOP, coop_defines, coop_args,
       "long or few rows: `parts` workgroups a row, each holding part_vecs <= WG * (ITEMS + "
       "LOCAL_ITEMS) vectors, exchanging (max, sum) through zero-filled scratch; out must not "
       "overlap in; alignment as rows");
KERNEL(SOFTMAX_SPLIT_STATS, softmax_split_stats, SOFTMAX_SPLIT, split_defines, split_stats_args,
       "few long rows: per slice of part_vecs vectors, its (max, sum) into scratch");
KERNEL(SOFTMAX_SPLIT_WRITE, softmax_split_write, SOFTMAX_SPLIT, split_defines, split_write_args,
       "after softmax_split_stats: combines a row's slices and writes its slice");
KERNEL(SOFTMAX_GENERAL, softmax_general, SOFTMAX_GENERAL, scalar_defines, fused_args,
       "the reference: scalar, any offsets and strides");
KERNEL(SOFTMAX_BASE_MAX, softmax_base_max, SOFTMAX_BASELINE, scalar_defines, base_max_args,
       "unfused baseline, step 1: row max into scratch");
KERNEL(SOFTMAX_BASE_EXP_SUM, softmax_base_exp_sum, SOFTMAX_BASELINE, scalar_defines,
       base_exp_sum_args,
       "unfused baseline, step 2: exp(scale (x - max)) into scratch (not for LOG), row sum into "
       "scratch");
KERNEL(SOFTMAX_BASE_DIVIDE, softmax_base_divide, SOFTMAX_BASELINE, scalar_defines, base_divide_args,
       "unfused baseline, step 3, the only one that writes out: out = exp / row sum (LOG: "
       "out = scale (x - max) - log(sum))");
