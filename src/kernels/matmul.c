/* Descriptors of cl/matmul.cl's kernels, of cl/matmul_pad.cl's copy step and of the benchmark's
   cl/baselines/matmul_naive.cl. */
#include "kernels/descriptors.h"
#include "kernels/matmul_args.h"

#define F ocf_matmul_frame
/* Where matmul_pad's copies of A and B lie in the scratch (written by it, read by
   matmul_tiled_pad). */
#define COPIES_ARGS                                                            \
  OCF_ARG(F, partial, OCF_ARG_BUFFER), OCF_ARG(F, sb_off, OCF_ARG_ULONG),      \
      OCF_ARG(F, lds_a, OCF_ARG_ULONG), OCF_ARG(F, s_stride_a, OCF_ARG_ULONG), \
      OCF_ARG(F, lds_b, OCF_ARG_ULONG), OCF_ARG(F, s_stride_b, OCF_ARG_ULONG)

/* The arguments of a whole GEMM (cl/matmul_common.clh's TILED_PARAMS). */
#define GEMM_ARGS                                                                           \
  OCF_ARG(F, m, OCF_ARG_ULONG), OCF_ARG(F, n, OCF_ARG_ULONG), OCF_ARG(F, k, OCF_ARG_ULONG), \
      OCF_ARG(F, alpha, OCF_ARG_FLOAT), MATMUL_A_ARGS, MATMUL_B_ARGS,                       \
      OCF_ARG(F, beta, OCF_ARG_FLOAT), MATMUL_C_ARGS

static const ocf_arg_desc gemm_args[] = {GEMM_ARGS};
static const ocf_arg_desc split_args[] = {OCF_ARG(F, m, OCF_ARG_ULONG),
                                          OCF_ARG(F, n, OCF_ARG_ULONG),
                                          OCF_ARG(F, k, OCF_ARG_ULONG),
                                          OCF_ARG(F, k_split, OCF_ARG_ULONG),
                                          OCF_ARG(F, splits, OCF_ARG_ULONG),
                                          MATMUL_A_ARGS,
                                          MATMUL_B_ARGS,
                                          OCF_ARG(F, partial, OCF_ARG_BUFFER)};
/* matmul_tiled_pad: the tiled arguments, then where the copies of A and B lie in the scratch. */
static const ocf_arg_desc pad_tiled_args[] = {GEMM_ARGS, COPIES_ARGS};
/* matmul_pad (cl/matmul_pad.cl): the sources, and the copies in the scratch. */
static const ocf_arg_desc pad_args[] = {OCF_ARG(F, m, OCF_ARG_ULONG),
                                        OCF_ARG(F, n, OCF_ARG_ULONG),
                                        OCF_ARG(F, k, OCF_ARG_ULONG),
                                        OCF_ARG(F, batch, OCF_ARG_ULONG),
                                        MATMUL_A_ARGS,
                                        MATMUL_B_ARGS,
                                        COPIES_ARGS};
/* matmul_tiled_stream: the tiled arguments, the batch, its parts' slots and the tiles' counters. */
static const ocf_arg_desc stream_args[] = {GEMM_ARGS, OCF_ARG(F, batch, OCF_ARG_ULONG),
                                           OCF_ARG(F, partial, OCF_ARG_BUFFER),
                                           OCF_ARG(F, arrivals, OCF_ARG_BUFFER)};
static const ocf_arg_desc reduce_args[] = {
    OCF_ARG(F, m, OCF_ARG_ULONG),        OCF_ARG(F, n, OCF_ARG_ULONG),
    OCF_ARG(F, batch, OCF_ARG_ULONG),    OCF_ARG(F, splits, OCF_ARG_ULONG),
    OCF_ARG(F, partial, OCF_ARG_BUFFER), OCF_ARG(F, alpha, OCF_ARG_FLOAT),
    OCF_ARG(F, beta, OCF_ARG_FLOAT),     MATMUL_C_ARGS};
#undef F

/* The -D values of cl/matmul_common.clh (operands, precision, epilogue). Each kernel lists what
   its program requires (every #ifndef ... #error of its files: tests/test_kernel_sources.c), so
   the kernels of cl/matmul.cl list the same: SPLIT_K decides which kernels the program holds. */
#define TYPES_AND_EPILOGUE                                                                        \
  "TRANS_A", "TRANS_B", "A_DTYPE", "B_DTYPE", "C_DTYPE", "BIAS_DTYPE", "PRECISION", "ACTIVATION", \
      "BIAS"
static const char *const tiled_defines[] = {"MDIMC",
                                            "NDIMC",
                                            "MWI",
                                            "NWI",
                                            "KWG",
                                            "VWM",
                                            "VWN",
                                            "PADA",
                                            "PADB",
                                            "A_VEC",
                                            "B_VEC",
                                            "C_VEC",
                                            "SPLIT_K",
                                            "REDUCE_WG",
                                            "A_PAD",
                                            "B_PAD",
                                            "RIM",
                                            "JOIN",
                                            TYPES_AND_EPILOGUE,
                                            NULL};
static const char *const pad_defines[] = {"TRANS_A", "TRANS_B",   "A_PAD", "B_PAD",
                                          "PAD_WG",  "PAD_DTYPE", NULL};
static const char *const naive_defines[] = {"MDIMC", "NDIMC", TYPES_AND_EPILOGUE, NULL};

#define KERNEL(ID, NAME, PROGRAM, DEFINES, ARGS, APPLIES) \
  const ocf_kernel_desc ocf_kdesc_##NAME = {              \
      OCF_KERNEL_##ID, #NAME, OCF_PROGRAM_##PROGRAM, DEFINES, ARGS, OCF_ARRAY_LEN(ARGS), APPLIES}

KERNEL(MATMUL_TILED_FAST, matmul_tiled_fast, MATMUL, tiled_defines, gemm_args,
       "m % MWG == n % NWG == k % KWG == 0: whole tiles, no guards; X_VEC says which operands "
       "may use aligned vector accesses");
KERNEL(MATMUL_TILED_MIXED, matmul_tiled_mixed, MATMUL, tiled_defines, gemm_args,
       "any m, n, k: whole tiles unguarded, edge tiles and the last K slice guarded");
KERNEL(MATMUL_TILED, matmul_tiled, MATMUL, tiled_defines, gemm_args,
       "the general tiled kernel: guarded loads and stores, any sizes, offsets and strides");
KERNEL(MATMUL_TILED_SPLIT, matmul_tiled_split, MATMUL, tiled_defines, split_args,
       "the mixed kernel over one of `splits` K ranges of k_split (a multiple of KWG), raw sums "
       "into `partial`; before matmul_reduce");
KERNEL(MATMUL_REDUCE, matmul_reduce, MATMUL, tiled_defines, reduce_args,
       "after matmul_tiled_split: adds the splits' sums, then the epilogue and the store");
KERNEL(MATMUL_TILED_STREAM, matmul_tiled_stream, MATMUL, tiled_defines, stream_args,
       "stream-K: every tile's K slices in one sequence cut into one equal range a workgroup; "
       "a tile split between ranges is joined by its last part to arrive (JOIN 1 or 2: "
       "cl/join.clh) from the parts' slots in `partial`, two MWG x NWG tiles a workgroup, "
       "counted at `arrivals`, one a tile");
KERNEL(MATMUL_TILED_PAD, matmul_tiled_pad, MATMUL, tiled_defines, pad_tiled_args,
       "after matmul_pad: any m, n, k; A (A_PAD) and / or B (B_PAD), fp32, read from their "
       "zero-padded aligned copies in `partial` with unguarded vector loads; the other operand "
       "and the stores of edge tiles guarded as in matmul_tiled_mixed");
KERNEL(MATMUL_PAD, matmul_pad, MATMUL_PAD, pad_defines, pad_args,
       "fp32 (or 16-bit: PAD_DTYPE) A and / or B in any transpose, offset, stride and batch: "
       "copied as stored into `partial`, rows of lds_a / lds_b values (multiples of 4 floats, of "
       "64 16-bit values), s_stride / lds rows a product, zeros past the matrix; before "
       "matmul_tiled_pad (fp32) or matmul_wgmma_pb / _pab (16-bit); any device (portable OpenCL "
       "C)");
KERNEL(MATMUL_NAIVE, matmul_naive, MATMUL_BASELINE, naive_defines, gemm_args,
       "the baseline: one output per work-item straight from global memory");
