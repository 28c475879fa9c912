/*
 * Kernel descriptors: one static record per kernel of cl/, telling the host everything it must
 * agree on with the kernel: its program, its name, the -D parameters it reads, its arguments
 * (names, kinds, and where in the op's frame struct each value lives) and when it applies.
 *
 * Arguments are bound by name, not by position: an op fills its frame struct (one per program,
 * a field per kernel parameter, named as in the .cl file), and the binder sets argument i of a
 * kernel from the field its descriptor names. The first time a built kernel is bound, its
 * argument count (CL_KERNEL_NUM_ARGS) and, where the runtime reports them, its argument names
 * (CL_KERNEL_ARG_NAME) are checked against the descriptor; a difference is
 * OCF_ERR_KERNEL_MISMATCH, never a silently misplaced argument.
 */
#ifndef OCLFUSE_KERNELS_H
#define OCLFUSE_KERNELS_H

#include "oclfuse.h"
#include "programs.h" /* generated: enum ocf_program_id */

#include <stddef.h>

/* Every kernel: X(ID, name in the .cl file, program). The enum and the names come from here. */
#define OCF_KERNEL_LIST(X)                                                         \
  X(ADD_VECTOR, add_vector, OCF_PROGRAM_ADD)                                       \
  X(ADD_GENERAL, add_general, OCF_PROGRAM_ADD)                                     \
  X(ADD_BASELINE, add_baseline, OCF_PROGRAM_ADD_BASELINE)                          \
  X(SOFTMAX_ROWS, softmax_rows, OCF_PROGRAM_SOFTMAX_ROWS)                          \
  X(SOFTMAX_RESIDENT, softmax_resident, OCF_PROGRAM_SOFTMAX_RESIDENT)              \
  X(SOFTMAX_COOP, softmax_coop, OCF_PROGRAM_SOFTMAX_COOP)                          \
  X(SOFTMAX_SPLIT_STATS, softmax_split_stats, OCF_PROGRAM_SOFTMAX_SPLIT)           \
  X(SOFTMAX_SPLIT_WRITE, softmax_split_write, OCF_PROGRAM_SOFTMAX_SPLIT)           \
  X(SOFTMAX_GENERAL, softmax_general, OCF_PROGRAM_SOFTMAX_GENERAL)                 \
  X(SOFTMAX_BASE_MAX, softmax_base_max, OCF_PROGRAM_SOFTMAX_BASELINE)              \
  X(SOFTMAX_BASE_EXP_SUM, softmax_base_exp_sum, OCF_PROGRAM_SOFTMAX_BASELINE)      \
  X(SOFTMAX_BASE_DIVIDE, softmax_base_divide, OCF_PROGRAM_SOFTMAX_BASELINE)        \
  X(MATMUL_TILED_FAST, matmul_tiled_fast, OCF_PROGRAM_MATMUL)                      \
  X(MATMUL_TILED_MIXED, matmul_tiled_mixed, OCF_PROGRAM_MATMUL)                    \
  X(MATMUL_TILED, matmul_tiled, OCF_PROGRAM_MATMUL)                                \
  X(MATMUL_TILED_SPLIT, matmul_tiled_split, OCF_PROGRAM_MATMUL)                    \
  X(MATMUL_REDUCE, matmul_reduce, OCF_PROGRAM_MATMUL)                              \
  X(MATMUL_NAIVE, matmul_naive, OCF_PROGRAM_MATMUL_BASELINE)                       \
  X(MATMUL_SKINNY, matmul_skinny, OCF_PROGRAM_MATMUL_SKINNY)                       \
  X(MATMUL_SKINNY_SPLIT, matmul_skinny_split, OCF_PROGRAM_MATMUL_SKINNY)           \
  X(MATMUL_SKINNY_REDUCE, matmul_skinny_reduce, OCF_PROGRAM_MATMUL_SKINNY)         \
  X(MATMUL_MMA, matmul_mma, OCF_PROGRAM_MATMUL_MMA_NV)                             \
  X(MATMUL_WGMMA, matmul_wgmma, OCF_PROGRAM_MATMUL_WGMMA_NV)                       \
  X(NORM_ROWS, norm_rows, OCF_PROGRAM_NORM)                                        \
  X(NORM_SPLIT_STATS, norm_split_stats, OCF_PROGRAM_NORM)                          \
  X(NORM_SPLIT_APPLY, norm_split_apply, OCF_PROGRAM_NORM)                          \
  X(NORM_GENERAL, norm_general, OCF_PROGRAM_NORM)                                  \
  X(NORM_BASE_MEAN, norm_base_mean, OCF_PROGRAM_NORM)                              \
  X(NORM_BASE_VAR, norm_base_var, OCF_PROGRAM_NORM)                                \
  X(NORM_BASE_APPLY, norm_base_apply, OCF_PROGRAM_NORM)                            \
  X(ATTENTION_TILED, attention_tiled, OCF_PROGRAM_ATTENTION)                       \
  X(ATTENTION_SPLIT, attention_split, OCF_PROGRAM_ATTENTION)                       \
  X(ATTENTION_MERGE, attention_merge, OCF_PROGRAM_ATTENTION)                       \
  X(ATTENTION_DECODE, attention_decode, OCF_PROGRAM_ATTENTION_DECODE)              \
  X(ATTENTION_JOIN, attention_join, OCF_PROGRAM_ATTENTION_DECODE)                  \
  X(ATTENTION_BLOCK, attention_block, OCF_PROGRAM_ATTENTION_BLOCK)                 \
  X(MATMUL_WGMMA_SB, matmul_wgmma_sb, OCF_PROGRAM_MATMUL_WGMMA_NV)                 \
  X(MATMUL_WGMMA_SAB, matmul_wgmma_sab, OCF_PROGRAM_MATMUL_WGMMA_NV)               \
  X(MATMUL_STAGE, matmul_stage, OCF_PROGRAM_MATMUL_STAGE)                          \
  X(MATMUL_TILED_PAD, matmul_tiled_pad, OCF_PROGRAM_MATMUL)                        \
  X(MATMUL_PAD, matmul_pad, OCF_PROGRAM_MATMUL_PAD)                                \
  X(ATTENTION_MMA, attention_mma, OCF_PROGRAM_ATTENTION_MMA_NV)                    \
  X(ATTENTION_MMA_SPLIT, attention_mma_split, OCF_PROGRAM_ATTENTION_MMA_NV)        \
  X(ATTENTION_MMA_JOIN, attention_mma_join, OCF_PROGRAM_ATTENTION_MMA_NV)          \
  X(MATMUL_WGMMA_SPLIT, matmul_wgmma_split, OCF_PROGRAM_MATMUL_WGMMA_NV)           \
  X(MATMUL_WGMMA_REDUCE, matmul_wgmma_reduce, OCF_PROGRAM_MATMUL_WGMMA_NV)         \
  X(MATMUL_FEW_MMA, matmul_few_mma, OCF_PROGRAM_MATMUL_FEW_MMA)                    \
  X(MATMUL_FEW_MMA_SPLIT, matmul_few_mma_split, OCF_PROGRAM_MATMUL_FEW_MMA)        \
  X(MATMUL_FEW_MMA_REDUCE, matmul_few_mma_reduce, OCF_PROGRAM_MATMUL_FEW_MMA)      \
  X(MATMUL_WGMMA_LW_SPLIT, matmul_wgmma_lw_split, OCF_PROGRAM_MATMUL_WGMMA_NV)     \
  X(MATMUL_WGMMA_LW, matmul_wgmma_lw, OCF_PROGRAM_MATMUL_WGMMA_NV)                 \
  X(ATTENTION_WGMMA, attention_wgmma, OCF_PROGRAM_ATTENTION_WGMMA_NV)              \
  X(NORM_STREAM, norm_stream, OCF_PROGRAM_NORM)                                    \
  X(ATTENTION_WGMMA_SPLIT, attention_wgmma_split, OCF_PROGRAM_ATTENTION_WGMMA_NV)  \
  X(ATTENTION_WGMMA_JOIN, attention_wgmma_join, OCF_PROGRAM_ATTENTION_WGMMA_NV)    \
  X(ATTENTION_WGMMA_TMA, attention_wgmma_tma, OCF_PROGRAM_ATTENTION_WGMMA_NV)      \
  X(MATMUL_WGMMA_PB, matmul_wgmma_pb, OCF_PROGRAM_MATMUL_WGMMA_NV)                 \
  X(MATMUL_WGMMA_PAB, matmul_wgmma_pab, OCF_PROGRAM_MATMUL_WGMMA_NV)               \
  X(ATTENTION_LANES, attention_lanes, OCF_PROGRAM_ATTENTION_LANES)                 \
  X(ATTENTION_LANES_JOIN, attention_lanes_join, OCF_PROGRAM_ATTENTION_LANES)       \
  X(MATMUL_WGMMA_TMA, matmul_wgmma_tma, OCF_PROGRAM_MATMUL_WGMMA_NV)               \
  X(MATMUL_WGMMA_TMA_SPLIT, matmul_wgmma_tma_split, OCF_PROGRAM_MATMUL_WGMMA_NV)   \
  X(MATMUL_WGMMA_SPLIT_JOIN, matmul_wgmma_split_join, OCF_PROGRAM_MATMUL_WGMMA_NV) \
  X(MATMUL_WGMMA_TMA_SB, matmul_wgmma_tma_sb, OCF_PROGRAM_MATMUL_WGMMA_NV)         \
  X(MATMUL_WGMMA_TMA_SAB, matmul_wgmma_tma_sab, OCF_PROGRAM_MATMUL_WGMMA_NV)       \
  X(MATMUL_WGMMA_TMA_PB, matmul_wgmma_tma_pb, OCF_PROGRAM_MATMUL_WGMMA_NV)         \
  X(MATMUL_WGMMA_TMA_PAB, matmul_wgmma_tma_pab, OCF_PROGRAM_MATMUL_WGMMA_NV)       \
  X(MATMUL_TILED_STREAM, matmul_tiled_stream, OCF_PROGRAM_MATMUL)                  \
  X(MATMUL_SKINNY_JOIN, matmul_skinny_join, OCF_PROGRAM_MATMUL_SKINNY)             \
  X(MATMUL_WGMMA_TMA_SK, matmul_wgmma_tma_sk, OCF_PROGRAM_MATMUL_WGMMA_NV)         \
  X(MATMUL_WGMMA_TMA_SK_SB, matmul_wgmma_tma_sk_sb, OCF_PROGRAM_MATMUL_WGMMA_NV)   \
  X(MATMUL_WGMMA_TMA_SK_SAB, matmul_wgmma_tma_sk_sab, OCF_PROGRAM_MATMUL_WGMMA_NV) \
  X(MATMUL_WGMMA_TMA_SK_PB, matmul_wgmma_tma_sk_pb, OCF_PROGRAM_MATMUL_WGMMA_NV)   \
  X(MATMUL_WGMMA_TMA_SK_PAB, matmul_wgmma_tma_sk_pab, OCF_PROGRAM_MATMUL_WGMMA_NV)

typedef enum ocf_kernel_id {
#define OCF_KERNEL_ENUM_(id, name, program) OCF_KERNEL_##id,
  OCF_KERNEL_LIST(OCF_KERNEL_ENUM_)
#undef OCF_KERNEL_ENUM_
      OCF_KERNEL_COUNT
} ocf_kernel_id;

/* The OpenCL type of one kernel argument, and so its size. */
typedef enum ocf_arg_kind {
  OCF_ARG_BUFFER, /* cl_mem */
  OCF_ARG_ULONG,  /* cl_ulong */
  OCF_ARG_FLOAT   /* cl_float */
} ocf_arg_kind;

/* The most arguments a kernel takes (matmul's skinny kernels: 35); the runtime keeps what each
   argument holds in an array of this size (runtime/program_cache.h). */
enum { OCF_KERNEL_ARGS_MAX = 48 };

/* One argument's value, as clSetKernelArg takes it (ocf_arg_kind_size bytes of it). */
typedef union ocf_arg_value {
  cl_mem buffer;
  cl_ulong ulong_value;
  cl_float float_value;
} ocf_arg_value;

typedef struct ocf_arg_desc {
  const char *name; /* the kernel parameter's name in the .cl file, and the frame field's */
  ocf_arg_kind kind;
  size_t offset; /* of the value in the op's frame struct */
} ocf_arg_desc;

/* One argument of a kernel whose frame struct is `frame`: the field has the parameter's name. */
#define OCF_ARG(frame, field, kind) \
  { #field, kind, offsetof(frame, field) }

typedef struct ocf_kernel_desc {
  ocf_kernel_id id;
  const char *name;
  ocf_program_id program;
  const char *const *defines; /* the -D parameters it reads, NULL-terminated */
  const ocf_arg_desc *args;
  unsigned arg_count;
  const char *applies; /* when the planner may pick it: its assumptions, in words */
} ocf_kernel_desc;

/* The descriptor of a kernel id; NULL for an id out of range. */
const ocf_kernel_desc *ocf_kernel_desc_get(ocf_kernel_id id);
/* The size in bytes of an argument of `kind`. */
size_t ocf_arg_kind_size(ocf_arg_kind kind);

/* ---- frames: one struct per program, a field per kernel parameter ---- */

typedef struct ocf_add_frame {
  cl_ulong n;
  cl_mem x;
  cl_ulong x_off;
  cl_mem y;
  cl_ulong y_off;
  cl_mem out;
  cl_ulong out_off;
} ocf_add_frame;

typedef struct ocf_softmax_frame {
  cl_ulong rows, cols;
  cl_mem in;
  cl_ulong in_off, in_ld;
  cl_mem out;
  cl_ulong out_off, out_ld;
  cl_float scale;            /* softmax(scale * x) */
  cl_mem lengths;            /* per-row valid lengths (cl_uint), NULL: every row has cols */
  cl_ulong lengths_off;      /* in cl_uint elements */
  cl_ulong causal_period;    /* CAUSAL: row r keeps r % causal_period + causal_offset + 1 cols */
  cl_ulong causal_offset;    /*   (at most); both read only with CAUSAL, period then >= 1 */
  cl_ulong parts, part_vecs; /* split and coop kernels: slices per row, vectors per slice */
  cl_mem scratch; /* split, coop and baseline kernels: per-row statistics (baseline: and exp) */
} ocf_softmax_frame;

/* cl/norm.cl: LayerNorm and RMSNorm (absent buffers are NULL; their offsets and strides 0). */
typedef struct ocf_norm_frame {
  cl_ulong rows, cols;
  cl_mem in;
  cl_ulong in_off, in_ld;
  cl_mem out;
  cl_ulong out_off, out_ld;
  cl_float eps;
  cl_mem weight;
  cl_ulong weight_off;
  cl_mem bias;
  cl_ulong bias_off;
  cl_mem res;
  cl_ulong res_off, res_ld;
  cl_mem res_out;
  cl_ulong res_out_off, res_out_ld;
  cl_mem mean;
  cl_ulong mean_off;
  cl_mem rstd;
  cl_ulong rstd_off;
  cl_ulong parts, part_vecs; /* the split kernels: slices per row, vectors per slice */
  cl_mem scratch;            /* the split's slice statistics, the baseline's row statistics */
} ocf_norm_frame;

/* cl/matmul.cl: the tiled kernels and their split-K pair, and cl/baselines/matmul_naive.cl; also
   the frame of
   cl/matmul_mma_nv.cl and cl/matmul_wgmma_nv.cl, whose kernels take the tiled kernels'
   parameters (same names; matmul_wgmma takes no bias). */
typedef struct ocf_matmul_frame {
  cl_ulong m, n, k;
  cl_ulong k_split, splits, batch; /* split kernels: K per split, splits; products in the batch */
  cl_float alpha;
  cl_mem a;
  cl_ulong a_off, lda, stride_a;
  cl_mem b;
  cl_ulong b_off, ldb, stride_b;
  cl_float beta;
  cl_mem c;
  cl_ulong c_off, ldc, stride_c;
  cl_mem bias; /* never read without a bias (then any valid buffer) */
  cl_ulong bias_off;
  cl_mem partial; /* split kernels: the splits' sums (the plan's scratch); the staged wgmma
                     plans' operands */
  /* The staged wgmma plans (matmul_stage, then matmul_wgmma_sb or _sab): K' (k or 3k), the
     staged rows' length, where B' starts in the scratch, and the products' strides there. The
     padded tiled plans (matmul_pad, then matmul_tiled_pad) take sb_off and the strides too, with
     the row strides of their copies of A and B. */
  cl_ulong ks, lds, s_zero, sb_off, s_stride_a, s_stride_b;
  cl_ulong lds_a, lds_b;
  cl_ulong lw_first; /* the last-wave split (matmul_wgmma_lw_split, matmul_wgmma_lw): the grid's
                        first slot (tile x product) of the last wave, after its full waves */
  cl_ulong maps_at;  /* the TMA-fed kernels: where their workgroups' tensor maps start in the
                        scratch, in bytes (past a split's sums, a staged or copied plan's
                        operands; 0 where the maps are all of it) */
  cl_mem arrivals;   /* the split that joins itself (matmul_wgmma_split_join): a counter a tile
                        of each product (the plan's arrivals) */
} ocf_matmul_frame;

/* cl/matmul_skinny.cl: Y = act(alpha X V + beta Y + bias), Y with at most 16 columns; also
   cl/matmul_few_mma.cl's frame (Y with at most 64). */
typedef struct ocf_matmul_skinny_frame {
  cl_ulong rows, k, k_split, splits, batch;
  cl_mem x;
  cl_ulong x_off, ldx, stride_x;
  cl_mem v;
  cl_ulong v_off, v_ps, v_ss, stride_v;
  cl_float alpha, beta;
  cl_mem c;
  cl_ulong c_off, c_rs, c_ss, stride_c;
  cl_mem bias;
  cl_ulong bias_off;
  cl_mem partial;
  cl_mem arrivals; /* matmul_skinny_join: the plan's arrival counters, one a row block */
} ocf_matmul_skinny_frame;

/* cl/attention.cl: every kernel takes the same frame. */
typedef struct ocf_attention_frame {
  cl_ulong b, h, group, lq, lk, d; /* group: query heads per key head, h / h_kv */
  cl_mem q;
  cl_ulong q_off, q_sb, q_sh, q_sr; /* offset, batch, head and row strides */
  cl_mem k;
  cl_ulong k_off, k_sb, k_sh, k_sr;
  cl_mem v;
  cl_ulong v_off, v_sb, v_sh, v_sr;
  cl_mem out;
  cl_ulong out_off, out_sb, out_sh, out_sr;
  cl_float scale;
  cl_mem lengths; /* HAS_LENGTHS: per-batch valid key lengths (cl_uint) */
  cl_ulong lengths_off;
  cl_ulong causal_offset; /* CAUSAL: a signed offset, two's complement (a long in the kernel) */
  cl_mem lse;             /* HAS_LSE: per-row log-sum-exp (float) */
  cl_ulong lse_off;
  cl_ulong splits, split_keys; /* attention_split and _merge: key splits a row, keys a split */
  cl_mem scratch;              /* their (m, s, acc) partials: the plan's scratch */
  cl_mem
      arrivals; /* the split kernels that join their ranges (JOIN): the plan's arrival counters */
} ocf_attention_frame;

#endif /* OCLFUSE_KERNELS_H */
