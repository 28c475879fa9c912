/* The descriptors of the matmul_wgmma_nv program's kernels (cl/matmul_wgmma_nv.cl and its
   fragments): the tiled kernels' frame and arguments. */
#include "kernels/descriptors.h"
#include "kernels/matmul_args.h"

#define F ocf_matmul_frame
/* An argument of the kernel's name read from another field of the frame. */
#define AS(name, field, kind) \
  { name, kind, offsetof(F, field) }
/* The whole-tile kernel's arguments in order: m, n, k (from the frame field K), alpha; A's four
   and B's four (the caller's, kernels/matmul_args.h, or a copy's in the scratch); then beta, C
   and its bias. */
#define WG_MNK(K)                                                                        \
  OCF_ARG(F, m, OCF_ARG_ULONG), OCF_ARG(F, n, OCF_ARG_ULONG), AS("k", K, OCF_ARG_ULONG), \
      OCF_ARG(F, alpha, OCF_ARG_FLOAT)
/* A copy of A (B) in the scratch: rows of LD, products STRIDE apart, A's at 0, B's at sb_off. */
#define WG_A_SCRATCH(LD, STRIDE)                                        \
  AS("a", partial, OCF_ARG_BUFFER), AS("a_off", s_zero, OCF_ARG_ULONG), \
      AS("lda", LD, OCF_ARG_ULONG), AS("stride_a", STRIDE, OCF_ARG_ULONG)
#define WG_B_SCRATCH(LD, STRIDE)                                        \
  AS("b", partial, OCF_ARG_BUFFER), AS("b_off", sb_off, OCF_ARG_ULONG), \
      AS("ldb", LD, OCF_ARG_ULONG), AS("stride_b", STRIDE, OCF_ARG_ULONG)
#define WG_C_EPILOGUE OCF_ARG(F, beta, OCF_ARG_FLOAT), MATMUL_C_ARGS

static const ocf_arg_desc wgmma_args[] = {WG_MNK(k), MATMUL_A_ARGS, MATMUL_B_ARGS, WG_C_EPILOGUE};

static const char *const wgmma_defines[] = {
    "AB_DTYPE",   "TRANS_B", "BN",         "CONSUMERS",      "STAGES",  "GROUP_M", "C_DTYPE",
    "ACTIVATION", "BIAS",    "BIAS_DTYPE", "TMA_WAIT_LIMIT", "C_STAGE", "PERSIST", NULL};

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

/* The TMA-fed form (plan_matmul_wgmma.c, rule 7): matmul_wgmma's arguments, then the scratch
   that holds each workgroup's two tensor maps (256 bytes a workgroup, written by the kernel)
   from maps_at on. */
#define WG_MAPS AS("maps", partial, OCF_ARG_BUFFER), OCF_ARG(F, maps_at, OCF_ARG_ULONG)
static const ocf_arg_desc tma_args[] = {WG_MNK(k), MATMUL_A_ARGS, MATMUL_B_ARGS, WG_C_EPILOGUE,
                                        WG_MAPS};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_tma = {
    OCF_KERNEL_MATMUL_WGMMA_TMA,
    "matmul_wgmma_tma",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    tma_args,
    OCF_ARRAY_LEN(tma_args),
    "matmul_wgmma's gates with m, n and k below 2^31, where the TMA probe passed on this context "
    "(tensor maps made on the device, a workgroup of one more warp than matmul_wgmma's): the same "
    "tiles, their stages filled by the tensor memory accelerator; 256 bytes of scratch a "
    "workgroup"};

/* Stream-K on its persistent form (rule 7, wgmma.persist 2): the same, then the counters of the
   last wave's tiles (the pieces' sums lie in the scratch after the maps). */
#define WG_ARRIVALS OCF_ARG(F, arrivals, OCF_ARG_BUFFER)
static const ocf_arg_desc tma_sk_args[] = {WG_MNK(k),     MATMUL_A_ARGS, MATMUL_B_ARGS,
                                           WG_C_EPILOGUE, WG_MAPS,       WG_ARRIVALS};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_tma_sk = {
    OCF_KERNEL_MATMUL_WGMMA_TMA_SK,
    "matmul_wgmma_tma_sk",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    tma_sk_args,
    OCF_ARRAY_LEN(tma_sk_args),
    "matmul_wgmma_tma's persistent form (PERSIST 1) for one product of more tiles than "
    "workgroups: the whole waves, then the last partial wave's tiles cut into pieces along K, a "
    "workgroup a piece, a tile's pieces meeting at a counter (zero before and after) and the "
    "last to arrive summing them; the maps, then a tile's sums a piece, in the scratch"};

/* The staged plans' wgmma step (plan_matmul_wgmma.c, rule 4): the same kernel under another name
   (cl/matmul_wgmma_nv.cl), reading K' = ks and B' from the scratch the staging step wrote, A as
   the caller stored it (_sb) or A' from the scratch too (_sab); the aligned plans' copies
   (cl/matmul_pad.cl with PAD_DTYPE 1 or 2): B as stored, on lines, and A too where it is off
   16-byte chunks (_pb, _pab). Their operands: */
#define SB_OPERANDS WG_MNK(ks), MATMUL_A_ARGS, WG_B_SCRATCH(lds, s_stride_b)
#define SAB_OPERANDS WG_MNK(ks), WG_A_SCRATCH(lds, s_stride_a), WG_B_SCRATCH(lds, s_stride_b)
#define PB_OPERANDS WG_MNK(k), MATMUL_A_ARGS, WG_B_SCRATCH(lds_b, s_stride_b)
#define PAB_OPERANDS WG_MNK(k), WG_A_SCRATCH(lds_a, s_stride_a), WG_B_SCRATCH(lds_b, s_stride_b)
static const ocf_arg_desc sb_args[] = {SB_OPERANDS, WG_C_EPILOGUE};
static const ocf_arg_desc sab_args[] = {SAB_OPERANDS, WG_C_EPILOGUE};
static const ocf_arg_desc pb_args[] = {PB_OPERANDS, WG_C_EPILOGUE};
static const ocf_arg_desc pab_args[] = {PAB_OPERANDS, WG_C_EPILOGUE};
/* The same four in the TMA-fed form: their operands, then the maps after them in the scratch. */
static const ocf_arg_desc tma_sb_args[] = {SB_OPERANDS, WG_C_EPILOGUE, WG_MAPS};
static const ocf_arg_desc tma_sab_args[] = {SAB_OPERANDS, WG_C_EPILOGUE, WG_MAPS};
static const ocf_arg_desc tma_pb_args[] = {PB_OPERANDS, WG_C_EPILOGUE, WG_MAPS};
static const ocf_arg_desc tma_pab_args[] = {PAB_OPERANDS, WG_C_EPILOGUE, WG_MAPS};
/* And stream-K on their persistent form (rule 7, wgmma.persist 2): then the last wave's
   counters, as matmul_wgmma_tma_sk's follow matmul_wgmma_tma's. */
static const ocf_arg_desc tma_sk_sb_args[] = {SB_OPERANDS, WG_C_EPILOGUE, WG_MAPS, WG_ARRIVALS};
static const ocf_arg_desc tma_sk_sab_args[] = {SAB_OPERANDS, WG_C_EPILOGUE, WG_MAPS, WG_ARRIVALS};
static const ocf_arg_desc tma_sk_pb_args[] = {PB_OPERANDS, WG_C_EPILOGUE, WG_MAPS, WG_ARRIVALS};
static const ocf_arg_desc tma_sk_pab_args[] = {PAB_OPERANDS, WG_C_EPILOGUE, WG_MAPS, WG_ARRIVALS};

/* A kernel of the program under another name: its defines, its own arguments. */
#define WG_TWIN(id, name, args, text)                                               \
  const ocf_kernel_desc ocf_kdesc_##name = {                                        \
      OCF_KERNEL_##id,     #name, OCF_PROGRAM_MATMUL_WGMMA_NV, wgmma_defines, args, \
      OCF_ARRAY_LEN(args), text}
/* A TMA-fed twin of a staged or copied kernel: the same purpose. */
#define TMA_TWIN(id, name, args, what)                                                         \
  WG_TWIN(id, name, args,                                                                      \
          what "; its stages filled by the tensor memory accelerator, the maps after them in " \
               "the scratch")
TMA_TWIN(MATMUL_WGMMA_TMA_SB, matmul_wgmma_tma_sb, tma_sb_args, "matmul_wgmma_sb's operands");
TMA_TWIN(MATMUL_WGMMA_TMA_SAB, matmul_wgmma_tma_sab, tma_sab_args, "matmul_wgmma_sab's operands");
TMA_TWIN(MATMUL_WGMMA_TMA_PB, matmul_wgmma_tma_pb, tma_pb_args, "matmul_wgmma_pb's operands");
TMA_TWIN(MATMUL_WGMMA_TMA_PAB, matmul_wgmma_tma_pab, tma_pab_args, "matmul_wgmma_pab's operands");

/* A stream-K twin of a staged or copied step's TMA-fed kernel. */
#define SK_TWIN(id, name, args, what)                                                        \
  WG_TWIN(id, name, args,                                                                    \
          "matmul_wgmma_tma_sk on " what ": one product, its last partial wave's tiles cut " \
          "into pieces along K, the sums after the maps")
SK_TWIN(MATMUL_WGMMA_TMA_SK_SB, matmul_wgmma_tma_sk_sb, tma_sk_sb_args,
        "matmul_wgmma_sb's operands");
SK_TWIN(MATMUL_WGMMA_TMA_SK_SAB, matmul_wgmma_tma_sk_sab, tma_sk_sab_args,
        "matmul_wgmma_sab's operands");
SK_TWIN(MATMUL_WGMMA_TMA_SK_PB, matmul_wgmma_tma_sk_pb, tma_sk_pb_args,
        "matmul_wgmma_pb's operands");
SK_TWIN(MATMUL_WGMMA_TMA_SK_PAB, matmul_wgmma_tma_sk_pab, tma_sk_pab_args,
        "matmul_wgmma_pab's operands");

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_pb = {
    OCF_KERNEL_MATMUL_WGMMA_PB,
    "matmul_wgmma_pb",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    pb_args,
    OCF_ARRAY_LEN(pb_args),
    "after matmul_pad (16-bit, B's rows off 128-byte lines or off 16-byte chunks): matmul_wgmma on "
    "A as stored and B as stored from the scratch, rows of lds_b values (a multiple of 64)"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_pab = {
    OCF_KERNEL_MATMUL_WGMMA_PAB,
    "matmul_wgmma_pab",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    pab_args,
    OCF_ARRAY_LEN(pab_args),
    "after matmul_pad (16-bit, A's rows off 16-byte chunks): matmul_wgmma on A and B as stored "
    "from the scratch, rows of lds_a and lds_b values (multiples of 64)"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_sb = {
    OCF_KERNEL_MATMUL_WGMMA_SB,
    "matmul_wgmma_sb",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    sb_args,
    OCF_ARRAY_LEN(sb_args),
    "after matmul_stage (TF32, A stored m x k on 16-byte chunks, B in any other form): "
    "matmul_wgmma "
    "with TRANS_B 1 on A as stored and B' (B transposed, truncated to TF32) from the scratch"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_sab = {
    OCF_KERNEL_MATMUL_WGMMA_SAB,
    "matmul_wgmma_sab",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    sab_args,
    OCF_ARRAY_LEN(sab_args),
    "after matmul_stage (3XTF32, TF32 with A transposed or off 16-byte chunks, or 16-bit with A "
    "transposed): matmul_wgmma with TRANS_B 1 over K' (3k or k) on A' and B' from the scratch"};

/* Split K (plan_matmul_wgmma.c, rule 5): the kernel over one of `splits` K ranges of k_split,
   raw sums into the scratch, then their sum, the epilogue and the store. */
#define WG_SPLIT_ARGS                                                                       \
  OCF_ARG(F, m, OCF_ARG_ULONG), OCF_ARG(F, n, OCF_ARG_ULONG), OCF_ARG(F, k, OCF_ARG_ULONG), \
      MATMUL_A_ARGS, MATMUL_B_ARGS, OCF_ARG(F, splits, OCF_ARG_ULONG),                      \
      OCF_ARG(F, k_split, OCF_ARG_ULONG), OCF_ARG(F, partial, OCF_ARG_BUFFER)
static const ocf_arg_desc split_args[] = {WG_SPLIT_ARGS};
/* The split that joins its ranges: the same, then the epilogue's and the tiles' counters. */
static const ocf_arg_desc join_args[] = {WG_SPLIT_ARGS, OCF_ARG(F, alpha, OCF_ARG_FLOAT),
                                         WG_C_EPILOGUE, OCF_ARG(F, arrivals, OCF_ARG_BUFFER)};
/* The TMA-fed split: the same, and where its maps lie in the scratch (past the sums). */
static const ocf_arg_desc tma_split_args[] = {WG_SPLIT_ARGS, OCF_ARG(F, maps_at, OCF_ARG_ULONG)};
static const ocf_arg_desc reduce_args[] = {OCF_ARG(F, m, OCF_ARG_ULONG),
                                           OCF_ARG(F, n, OCF_ARG_ULONG),
                                           OCF_ARG(F, batch, OCF_ARG_ULONG),
                                           OCF_ARG(F, splits, OCF_ARG_ULONG),
                                           OCF_ARG(F, partial, OCF_ARG_BUFFER),
                                           OCF_ARG(F, alpha, OCF_ARG_FLOAT),
                                           WG_C_EPILOGUE};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_split = {
    OCF_KERNEL_MATMUL_WGMMA_SPLIT,
    "matmul_wgmma_split",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    split_args,
    OCF_ARRAY_LEN(split_args),
    "matmul_wgmma's gates, few tiles and a long k: one of `splits` K ranges of k_split (a "
    "multiple of the K slice) a workgroup, raw sums into `partial`; before matmul_wgmma_reduce"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_tma_split = {
    OCF_KERNEL_MATMUL_WGMMA_TMA_SPLIT,
    "matmul_wgmma_tma_split",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    tma_split_args,
    OCF_ARRAY_LEN(tma_split_args),
    "matmul_wgmma_split's ranges with matmul_wgmma_tma's gates (the TMA probe passed, m, n, k "
    "below 2^31): the stages filled by the tensor memory accelerator; 256 bytes of scratch a "
    "workgroup for its maps, maps_at bytes in; before matmul_wgmma_reduce"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_split_join = {
    OCF_KERNEL_MATMUL_WGMMA_SPLIT_JOIN,
    "matmul_wgmma_split_join",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    join_args,
    OCF_ARRAY_LEN(join_args),
    "matmul_wgmma_split's gates and ranges, alone: each tile's last range to arrive (a counter a "
    "tile of each product, zero before and after) adds the ranges' sums in order and finishes "
    "the tile into C with the epilogue"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_reduce = {
    OCF_KERNEL_MATMUL_WGMMA_REDUCE,
    "matmul_wgmma_reduce",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    reduce_args,
    OCF_ARRAY_LEN(reduce_args),
    "after matmul_wgmma_split: adds the splits' sums in order, then the epilogue and the store"};

/* The last-wave split (plan_matmul_wgmma.c, rule 6): the last wave's tiles over `splits` K ranges
   of k_split into the scratch, then one launch of the full waves' tiles and the reduce of those
   partial sums. */
static const ocf_arg_desc lw_split_args[] = {OCF_ARG(F, m, OCF_ARG_ULONG),
                                             OCF_ARG(F, n, OCF_ARG_ULONG),
                                             OCF_ARG(F, k, OCF_ARG_ULONG),
                                             OCF_ARG(F, batch, OCF_ARG_ULONG),
                                             MATMUL_A_ARGS,
                                             MATMUL_B_ARGS,
                                             OCF_ARG(F, k_split, OCF_ARG_ULONG),
                                             OCF_ARG(F, lw_first, OCF_ARG_ULONG),
                                             OCF_ARG(F, partial, OCF_ARG_BUFFER)};
static const ocf_arg_desc lw_args[] = {OCF_ARG(F, m, OCF_ARG_ULONG),
                                       OCF_ARG(F, n, OCF_ARG_ULONG),
                                       OCF_ARG(F, k, OCF_ARG_ULONG),
                                       OCF_ARG(F, batch, OCF_ARG_ULONG),
                                       OCF_ARG(F, alpha, OCF_ARG_FLOAT),
                                       MATMUL_A_ARGS,
                                       MATMUL_B_ARGS,
                                       WG_C_EPILOGUE,
                                       OCF_ARG(F, splits, OCF_ARG_ULONG),
                                       OCF_ARG(F, lw_first, OCF_ARG_ULONG),
                                       OCF_ARG(F, partial, OCF_ARG_BUFFER)};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_lw_split = {
    OCF_KERNEL_MATMUL_WGMMA_LW_SPLIT,
    "matmul_wgmma_lw_split",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    lw_split_args,
    OCF_ARRAY_LEN(lw_split_args),
    "matmul_wgmma's gates, more tiles x batch than compute units and a small last wave: the last "
    "wave's tiles (grid slots from lw_first) over K ranges of k_split, raw sums into `partial`; "
    "before matmul_wgmma_lw"};

const ocf_kernel_desc ocf_kdesc_matmul_wgmma_lw = {
    OCF_KERNEL_MATMUL_WGMMA_LW,
    "matmul_wgmma_lw",
    OCF_PROGRAM_MATMUL_WGMMA_NV,
    wgmma_defines,
    lw_args,
    OCF_ARRAY_LEN(lw_args),
    "after matmul_wgmma_lw_split: matmul_wgmma's workgroups for the slots before lw_first, then "
    "the last wave's tiles from the splits' sums, added in order, with the epilogue and the store"};
