/*
 * The planner: for each op, a pure function "call arguments + device facts + tuning values ->
 * plan". A plan names the program, its -D values, the kernels in launch order with their global
 * and local sizes, and the scratch the kernels share. Planners make no OpenCL calls, so they are
 * tested for devices that are not present (tests/test_plan.c, tests/test_plan_<op>.c,
 * `ctest -L plan`).
 *
 * Workgroup limits: a plan fits the device's workgroup and work-item limits and its local
 * memory, and the per-kernel limits learnt from built kernels (ocf_device_facts). When the caller
 * fixed the workgroup size, the plan uses it as given and marks itself `fixed_workgroup`: a
 * limit then refuses the call instead of re-planning.
 */
#ifndef OCLFUSE_PLAN_H
#define OCLFUSE_PLAN_H

#include "device_facts.h"
#include "tuning/tuning.h"

#include <stddef.h>

enum { OCF_PLAN_MAX_STEPS = 3, OCF_PLAN_MAX_DEFINES = 32 };

typedef struct ocf_define {
  const char *name;
  long long value;
} ocf_define;

typedef struct ocf_plan_step {
  ocf_kernel_id kernel;
  unsigned dims;
  size_t global[3], local[3];
} ocf_plan_step;

/* Where the run loop puts the buffers it lends a plan: members of the op's frame (NULL: the op's
   kernels take none). */
typedef struct ocf_frame_slots {
  cl_mem *scratch;  /* the plan's scratch, scratch_bytes of it */
  cl_mem *arrivals; /* the plan's arrival counters, `arrivals` of them */
} ocf_frame_slots;

typedef struct ocf_plan {
  ocf_program_id program;
  unsigned define_count;
  ocf_define defines[OCF_PLAN_MAX_DEFINES];
  /* The kernels in launch order, each a different kernel; every step but the last writes only
     the scratch, never an output, so that a call whose later enqueue fails changes no output.
     The last step's kernel is of `program`; an earlier one may be of another program, built
     with the same options. */
  unsigned step_count;
  ocf_plan_step steps[OCF_PLAN_MAX_STEPS];
  size_t scratch_bytes;   /* one buffer the steps share (the frame's scratch), 0: none */
  int scratch_written;    /* the steps read only scratch an earlier step wrote: not zeroed */
  size_t arrivals;        /* arrival counters (runtime/arrivals.h, the frame's), 0: none */
  int fixed_workgroup;    /* the caller chose the workgroup size */
  size_t local_mem_bytes; /* local memory the plan's kernels declare (the largest step) */
  /* The op's own part of the plan: argument values its planner chooses and its frame builder
     (src/ops/<op>_row.c) reads. One op's at a time (a planner starts from a zeroed plan);
     C11 anonymous members, so they are named as plan->parts, plan->splits. */
  union {
    struct { /* softmax's and norm's split kernels: slices per row, vectors per slice */
      size_t parts, part_vecs;
    };
    struct { /* matmul: K splits and the K range of each (1 and k: not split); the skinny
                kernels' operands swapped (C^T = op(B)^T op(A)^T: C has at most 16 rows); the
                staged wgmma plans' K' and staged row length (0: not staged), A staged too; the
                padded tiled plans' copies of A and B: row length (0: not copied) and rows a
                product */
      size_t splits, k_split;
      int swapped;
      size_t staged_k, staged_ld;
      int staged_a;
      size_t pad_lda, pad_rows_a, pad_ldb, pad_rows_b;
      size_t lw_first; /* the wgmma last-wave split: its first slot (0: none) */
      size_t maps_at;  /* the TMA-fed wgmma split: its maps' offset in the scratch, in bytes */
    };
    struct { /* attention's decode split: key ranges a row, keys a range (1 and lk: none) */
      size_t kv_splits, split_keys;
    };
  };
  /* A probe whose outcome could change this plan (the matrix units: src/runtime/mma_probe.c),
     with the static local memory it should try: the op runs it and plans again. The plan is a
     full plan of its own meanwhile (the SIMT kernels). */
  int probe; /* ocf_plan_probe */
  size_t probe_bytes;
  /* 1: the plan of a probe's own run, whose local memory is what the probe finds out: the
     launch does not hold its kernel's local memory against the device's figure. */
  int is_probe;
  /* A cap on the registers of each work-item, 0: the compiler's choice. Set only where the
     facts say the compiler takes one (-cl-nv-maxrregcount): on NVIDIA, registers decide how many
     workgroups share a compute unit (64 K of them: a 256-item workgroup at 129 registers runs
     alone, at 128 two run side by side). */
  unsigned max_registers;
  /* 1: a step may run more work-items than its kernel reports (CL_KERNEL_WORK_GROUP_SIZE), up
     to the device's maximum, as ocf_facts_wide_allows says (the wide probe passed, registers
     capped to fit). The launch checks it again; a refused enqueue is learnt and re-planned. */
  int wide_workgroup;
} ocf_plan;

typedef enum ocf_plan_probe {
  OCF_PLAN_PROBE_NONE = 0,
  OCF_PLAN_PROBE_MMA = 1,      /* the mma.sync kernel, with probe_bytes of local memory */
  OCF_PLAN_PROBE_WGMMA = 2,    /* the wgmma kernel (sm_90a), the tuning's geometry */
  OCF_PLAN_PROBE_WIDE = 3,     /* workgroups beyond the kernels' reported limit (wide_probe.c) */
  OCF_PLAN_PROBE_WGMMA_TMA = 4 /* the wgmma kernel's TMA-fed form, the tuning's geometry */
} ocf_plan_probe;

/* Appends a -D value; plans never hold more than OCF_PLAN_MAX_DEFINES (a library bug). */
void ocf_plan_define(ocf_plan *plan, const char *name, long long value);
/* The value of a define, or `fallback` when the plan has none of that name. */
long long ocf_plan_define_value(const ocf_plan *plan, const char *name, long long fallback);
/* Workgroups to launch for `work` units of a grid-stride kernel (at least 1): capped at 2048 a
   compute unit, which keeps the grid far below every device's limit on workgroup counts. */
size_t ocf_plan_grid_groups(const ocf_device_facts *facts, size_t work);
/* Whether a row kernel of a 2-D workgroup (segments of `seg` work-items, `wg` in all) may reduce
   its segments through warp shuffles (cl/warp_shuffle.clh): NVIDIA's inline PTX shfl.sync
   (compute capability 7.0 on), whole warps of 32, a segment within a warp or of whole warps. */
int ocf_plan_warp_shuffles(const ocf_device_facts *facts, size_t wg, size_t seg);
/* The JOIN define of a kernel whose last workgroup to arrive at a block joins what the block's
   workgroups wrote (cl/join.clh: attention's joins, matmul_tiled_stream), where `want` asks for
   it: 2 with PTX fences (NVIDIA GPUs, compute capability 7.0 on), 1 on CPUs (mem_fence: coherent
   memory), else 0 (OpenCL 1.2 orders nothing between workgroups: a join kernel after it). */
int ocf_plan_join_fences(const ocf_device_facts *facts, int want);
/* The most work-items any step of the plan may put in one workgroup under the facts, at most
   `cap`: the lowest of the steps' kernels' limits (learnt ones included), for a planner that
   plans again at a lower cap when its first step's workgroup exceeds it. */
size_t ocf_plan_steps_limit(const ocf_device_facts *facts, const ocf_plan *plan, size_t cap);
/* Appends a 1-D or 2-D step (global and local sizes in work-items, local[1] = 1 for 1-D). */
void ocf_plan_step_add(ocf_plan *plan, ocf_kernel_id kernel, unsigned dims, const size_t *global,
                       const size_t *local);
/* Writes the plan's options into out, as the plan's description and the warm-up tell plans
   apart: "-DNAME=value ..." (every define), then -DOCF_KERNEL_<name> for each step's kernel,
   then the register cap; 0, or -1 when too long. */
int ocf_plan_options(const ocf_plan *plan, char *out, size_t capacity);
/* Writes the build options of one of the plan's programs into out: -DOCF_KERNEL_<name> for its
   own steps' kernels only (a program holds only those), and for the plan's program every
   define and the register cap, for an earlier step's program (matmul_pad's copies,
   matmul_stage's parts) only the defines its kernels' descriptors list. Such a step is then
   one build for every tile, epilogue and register cap after it; its sources read no other
   define (tests/test_kernel_sources.c). 0, or -1 when too long. */
int ocf_plan_program_options(const ocf_plan *plan, ocf_program_id program, char *out,
                             size_t capacity);
/* The program of step `step`'s kernel (the plan's program where the step is unknown). */
ocf_program_id ocf_plan_step_program(const ocf_plan *plan, unsigned step);
/* One line for OCLFUSE_VERBOSE and the benchmark: "softmax_rows wg=128 (WG=128 VW=4 ...)". */
void ocf_plan_describe(const ocf_plan *plan, char *out, size_t capacity);
/* Checks the plan's own consistency (every define its kernels read is set, sizes are whole
   multiples, the local sizes within the facts): OCF_SUCCESS or a library-bug error. */
ocf_status ocf_plan_verify(const ocf_plan *plan, const ocf_device_facts *facts);

/* ---- calls, as the planners see them (already validated) ---- */

/* The most scratch a plan may take: set only where a caller lends a workspace smaller than the
   scratch of the call's unbounded plan (the run loop then plans the call again with the
   workspace's size here: runtime/run.c), so that every other call shares one cached plan. A
   planner takes fewer ranges of a split, or none, to fit; a plan with no scratch-free
   alternative (a baseline's) keeps its size, and the launch refuses it. */
typedef struct ocf_scratch_bound {
  int set;
  size_t bytes;
} ocf_scratch_bound;

/* How many ranges of `per_range` bytes of scratch each (a split's parts) fit within the bound
   beside `fixed` bytes: SIZE_MAX unbounded, 0 where not even the fixed part fits. */
size_t ocf_scratch_ranges(const ocf_scratch_bound *bound, size_t per_range, size_t fixed);

typedef struct ocf_add_call {
  size_t n, x_off, y_off, out_off;
  ocf_dtype dtype;
  int variant;      /* ocf_variant */
  size_t workgroup; /* the caller's size, 0: tuned */
} ocf_add_call;

typedef struct ocf_softmax_call {
  size_t rows, cols, in_off, in_ld, out_off, out_ld;
  ocf_dtype in_dtype, out_dtype;
  int variant;
  size_t workgroup;
  int log;         /* log-softmax */
  int has_lengths; /* per-row valid lengths are given */
  int in_place;    /* out is in (same buffer, offset and stride) */
  int causal;      /* the causal band (its period and offset are kernel arguments) */
  int spans_meet;  /* out's span of elements meets in's (in place, or rows interleaved) */
  ocf_scratch_bound scratch_bound;
} ocf_softmax_call;

/* LayerNorm or RMSNorm (issue 20). Offsets and strides of absent operands are 0. */
typedef struct ocf_norm_call {
  size_t rows, cols, in_off, in_ld, out_off, out_ld;
  ocf_dtype in_dtype, out_dtype, res_dtype, weight_dtype;
  int variant;
  size_t workgroup;
  int rms;                        /* RMSNorm (no mean, no bias) */
  int has_weight, has_bias;       /* gamma, beta */
  int has_res, has_res_out;       /* the residual add, x' written */
  int has_mean, has_rstd;         /* the statistics written */
  size_t weight_off, bias_off;    /* in elements */
  size_t res_off, res_ld;         /* the residual */
  size_t res_out_off, res_out_ld; /* x' */
  ocf_scratch_bound scratch_bound;
} ocf_norm_call;

/* A row-major product (a column-major call arrives with its operands already swapped). Members
   after `workgroup` left 0 mean one product, FP32, no epilogue. */
typedef struct ocf_matmul_call {
  int trans_a, trans_b;
  size_t m, n, k; /* k is 0 when alpha is 0: A and B are then not read */
  size_t a_off, lda, b_off, ldb, c_off, ldc;
  ocf_dtype a_dtype, b_dtype, c_dtype;
  int variant;
  size_t workgroup;
  size_t batch; /* 0 or 1: one product */
  size_t stride_a, stride_b, stride_c;
  ocf_precision precision;
  ocf_activation activation;
  ocf_bias_axis bias_axis;
  ocf_dtype bias_dtype;
  ocf_scratch_bound scratch_bound;
  int no_staging; /* the staged wgmma plans and the padded tiled plans are not to be made (their
                     scratch failed) */
} ocf_matmul_call;

/* attention: the sizes that shape the plan. */
typedef struct ocf_attention_call {
  size_t b, h, lq, lk, d;
  size_t h_kv;      /* key heads (0: h) */
  size_t kv_vector; /* the widest of 8, 4, 2, 1 elements dividing d and K's and V's offsets and
                       strides (0: 1) */
  size_t q_vector;  /* the same for d and Q's offset and strides */
  int tma_strides;  /* 1: every stride of Q, K and V below 2^36 elements, and 0 only along a
                       dimension of one: what a tensor map describes (attention_wgmma_tma) */
  ocf_dtype q_dtype, k_dtype, v_dtype, out_dtype;
  int variant;
  size_t workgroup;
  int has_lengths, causal, has_lse;
  ocf_precision precision; /* of fp32 inputs (OCF_PRECISION_FP32 for any other) */
  ocf_scratch_bound scratch_bound;
} ocf_attention_call;

/* How the skinny kernels (cl/matmul_skinny.cl) see a call: Y = X V with Y's short side last.
   Not swapped: X = op(A), V = op(B), Y = C; swapped: X = op(B)^T, V = op(A)^T, Y = C^T. */
typedef struct ocf_skinny_layout {
  int x_is_b;   /* X is B's buffer (swapped), else A's */
  int x_kcont;  /* X's elements of one row are contiguous */
  size_t rows;  /* rows of Y (m, or n swapped) */
  size_t small; /* columns of Y (n, or m swapped): at most 16 */
  size_t ldx;   /* X's leading dimension */
  size_t v_ps;  /* V's element stride along K */
  size_t v_ss;  /* V's element stride along Y's columns */
  size_t c_rs;  /* C's element stride between rows of Y */
  size_t c_ss;  /* and between its columns */
  int bias;     /* the bias runs along Y's columns (1), its rows (2), or none (0) */
} ocf_skinny_layout;

/* The skinny layout of a call, swapped or not. */
void ocf_skinny_layout_of(const ocf_matmul_call *call, int swapped, ocf_skinny_layout *layout);

/* Each returns OCF_SUCCESS with *plan filled, or an error (a workgroup size the caller fixed
   that cannot run is OCF_ERR_INVALID_WORKGROUP) with nothing to launch. */
ocf_status ocf_plan_add(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                        const ocf_add_call *call, ocf_plan *plan);
ocf_status ocf_plan_softmax(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_softmax_call *call, ocf_plan *plan);
ocf_status ocf_plan_matmul(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                           const ocf_matmul_call *call, ocf_plan *plan);
ocf_status ocf_plan_norm(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                         const ocf_norm_call *call, ocf_plan *plan);

ocf_status ocf_plan_attention(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                              const ocf_attention_call *call, ocf_plan *plan);
/* The local memory of attention_tiled with these sizes, in bytes. */
size_t ocf_attention_local_bytes(size_t bq, size_t bk, size_t d_padded);
/* The local memory of attention_decode with these sizes, in bytes. */
size_t ocf_attention_decode_local_bytes(size_t rows, size_t bk, size_t d_padded, size_t spk);
/* Whether a decoding kernel (attention_decode, attention_lanes) may take the call: a default
   variant and workgroup size, no loop limit (their loops are not counted against one),
   decode.wg set, the lq x group rows of a key head within decode.rows, two keys or more. */
int ocf_attention_decodes(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                          const ocf_attention_call *call);
/* attention_lanes's plan (plan_attention_lanes.c): 1 with *plan filled, 0 when it does not take
   the call (decode.lanes 0, not a decoding call, no fitting shape). */
int ocf_plan_attention_lanes(const ocf_device_facts *facts, const ocf_attention_tuning *t,
                             const ocf_attention_call *call, size_t d_padded, ocf_plan *plan);
/* The local memory of attention_lanes with these sizes (row_groups: ROWG, shuffle: SHUFFLE), in
   bytes. */
size_t ocf_attention_lanes_local_bytes(size_t wg, size_t seg, size_t row_groups, size_t rows,
                                       size_t unroll, size_t d_padded, int shuffle);
/* The local memory of attention_lanes's BULK ring: `stages` stages of `keys` K and V rows of
   d_padded elements (kv_bytes: a K element's bytes and a V element's) and their two mbarriers. */
size_t ocf_attention_lanes_ring_bytes(size_t stages, size_t keys, size_t d_padded, size_t kv_bytes);
/* The local memory of attention_block with these sizes, in bytes. */
size_t ocf_attention_block_local_bytes(size_t bq, size_t bk, size_t d_padded);
/* attention_mma's workgroup shape (cl/attention_mma_nv.cl's WARPS, ROWS, BK, STAGES, Q_LOCAL,
   PRECISION: 0 for 16-bit inputs, else fp32 ones in TF32 parts, rows of d + 4 words). */
typedef struct ocf_attention_mma_shape {
  size_t warps, rows, bk, stages; /* warps: the row warps (RW) */
  int q_local;
  int precision;
  size_t key_warps; /* KW (0 or 1: none): WARPS is warps x key_warps */
} ocf_attention_mma_shape;
/* The local memory of attention_mma with this shape (emulate: MMA_EMULATE's words too). */
size_t ocf_attention_mma_local_bytes(const ocf_attention_mma_shape *shape, size_t d_padded,
                                     int emulate);

/* Whether the padded tiled plans (plan_matmul.c, rule 5) could take the call on some tuning: an
   fp32 A or B (one whose offset, leading dimension or batch stride forbids aligned vector
   loads, or, with tiled.pad_waves, any across a rim). */
int ocf_matmul_pad_may_apply(const ocf_matmul_call *call);
/* The most scratch a matmul plan's copies (the staged wgmma operands, the padded tiles) may
   take: an eighth of the device's memory and at most one allocation (0 where the device reports
   neither), and the caller's workspace where one is given. */
size_t ocf_matmul_scratch_cap(const ocf_device_facts *facts, const ocf_matmul_call *call);
/* The workgroup of matmul_pad's copies (the padded tiled plans' and the wgmma kernel's 16-bit
   aligned ones): 256 work-items, or the largest power of two its kernel and the device take. */
size_t ocf_matmul_pad_workgroup(const ocf_device_facts *facts);

/* ---- matmul's matrix-unit variant (plan_matmul_mma.c) ---- */

/* Whether the call is one for the matrix units on this device (rule 1 there). */
int ocf_matmul_mma_applies(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                           const ocf_matmul_call *call);

typedef enum ocf_mma_outcome {
  OCF_MMA_NOT_APPLICABLE = 0, /* the SIMT kernels run it */
  OCF_MMA_PLANNED,            /* *plan is the matrix-unit plan */
  OCF_MMA_PROBE /* a probe of *probe_bytes must run first; the SIMT kernels till then */
} ocf_mma_outcome;

/* ---- attention's Hopper variant (plan_attention_wgmma.c) ---- */

/* The defines of the call every attention program reads (D the padded head dim, the storage
   types, the masks, lse). */
void ocf_attention_define_call(const ocf_attention_call *call, size_t d_padded, ocf_plan *plan);
/* The merge step after a split's ranges (`kernel`: attention_merge, attention_join or a join of
   the matrix-unit kernels): one work-item an element of out, at most cap_groups workgroups. */
void ocf_attention_add_merge(const ocf_device_facts *facts, const ocf_attention_call *call,
                             size_t cap_groups, ocf_kernel_id kernel, ocf_plan *plan);
/* The steps of a decoding plan: `kernel` over `units` workgroups of wg work-items (each a range
   of split_keys keys of one of `splits`), writing every range's (m, s, acc) to scratch, then
   `join` (ocf_attention_add_merge); or, with `arrivals` counters (JOIN), `kernel` alone, its
   last workgroup of each block of rows joining the block. */
void ocf_attention_add_ranges(const ocf_device_facts *facts, const ocf_attention_call *call,
                              ocf_kernel_id kernel, ocf_kernel_id join, size_t units, size_t wg,
                              size_t splits, size_t split_keys, size_t arrivals, ocf_plan *plan);
/* The scratch bytes of `splits` key ranges' partials (m, s, acc: d + 2 floats a query row a
   range), as every split writes them and its join reads them. */
size_t ocf_attention_ranges_bytes(const ocf_attention_call *call, size_t splits);
/* The most key ranges whose partials (m, s, acc: d + 2 floats a query row a range) fit the
   call's scratch bound, at most 1024 (the merge's limit); 0 where not one range's do. */
size_t ocf_attention_ranges_fit(const ocf_attention_call *call);
/* The key ranges of a split of the call's lk keys: enough for `target` workgroups of base_units
   a range, each about split_min keys or more, a multiple of the tile bk, at most
   ocf_attention_ranges_fit; returns the ranges (0: that is 0), *split_keys their keys. */
size_t ocf_attention_key_ranges(const ocf_attention_call *call, size_t base_units, size_t target,
                                size_t split_min, size_t bk, size_t *split_keys);
/* The local memory of attention_wgmma with tiles of bk keys at head dim D = d_wgmma, with and
   without wgmma.pipe. */
size_t ocf_attention_wgmma_local_bytes(size_t bk, size_t d_wgmma, int pipe);
/* Whether 4-D tensor maps describe Q, K and V (tensor i of dims[i] = {batches, heads, rows} at
   strides[i] = {batch, head, row} elements): each stride below 2^36 elements (a map's 2^40
   bytes), and 0 only along a dimension of one (the kernel gives that one any stride). The
   call's tma_strides. */
int ocf_attention_tma_strides(const size_t dims[3][3], const size_t strides[3][3]);
/* The same of attention_wgmma_tma with a ring of `stages` (its barriers and maps included). */
size_t ocf_attention_wgmma_tma_local_bytes(size_t bk, size_t d_wgmma, size_t stages);
/* The probe (wide, then TMA) that a TMA-fed plan waits for (the GEMM's and attention's). */
ocf_plan_probe ocf_wgmma_tma_probe_due(const ocf_device_facts *facts);
/* attention_wgmma's plan: PLANNED, PROBE (the wgmma probe has not run: plan the next kernels
   with probe OCF_PLAN_PROBE_WGMMA) or NOT_APPLICABLE. */
ocf_mma_outcome ocf_plan_attention_wgmma(const ocf_device_facts *facts,
                                         const ocf_attention_tuning *t,
                                         const ocf_attention_call *call, ocf_plan *plan);

/* The matrix-unit plan of a call for which ocf_matmul_mma_applies holds. */
ocf_mma_outcome ocf_plan_matmul_mma(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    const ocf_matmul_call *call, ocf_plan *plan,
                                    size_t *probe_bytes);

/* The plan of the probe (src/runtime/mma_probe.c): the kernel with bf16 inputs, 128 x 128
   tiles in K slices of 32 and bytes / 16 KiB stages (bytes: 32 to 128 KiB, whole 16 KiB), over
   an m x n C, with the loop options of `tuning`. */
ocf_status ocf_plan_matmul_mma_probe(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                     size_t bytes, size_t m, size_t n, ocf_plan *plan);

/* ---- matmul's Hopper variant (plan_matmul_wgmma.c), tried before the mma.sync kernel ---- */

/* Whether the call is one for the wgmma kernel on this device (rule 1 there). */
int ocf_matmul_wgmma_applies(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                             const ocf_matmul_call *call);

/* The wgmma plan of a call for which ocf_matmul_wgmma_applies holds: PLANNED, PROBE (the probe
   has not run: plan the next variant, with probe OCF_PLAN_PROBE_WGMMA) or NOT_APPLICABLE. */
ocf_mma_outcome ocf_plan_matmul_wgmma(const ocf_device_facts *facts,
                                      const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                                      ocf_plan *plan);

/* The plan of the TMA probe (src/runtime/wgmma_probe.c): matmul_wgmma_tma on the same product,
   bf16, B stored k x n, the larger of the tuning's rings, its waits bounded. */
ocf_status ocf_plan_matmul_wgmma_tma_probe(const ocf_device_facts *facts,
                                           const ocf_tuning_values *tuning, size_t m, size_t n,
                                           ocf_plan *plan);
/* The plan of the wgmma probe (src/runtime/wgmma_probe.c): bf16 inputs, B stored k x n, the
   larger of `tuning`'s rings (wgmma.bn's, wgmma.wave_bn's), over an m x n C. */
ocf_status ocf_plan_matmul_wgmma_probe(const ocf_device_facts *facts,
                                       const ocf_tuning_values *tuning, size_t m, size_t n,
                                       ocf_plan *plan);

/* Rule 4 of plan_matmul_wgmma.c: the calls the staged plans take (fp32 A and B in TF32 or
   3XTF32, m n k batch at least wgmma.stage_min^3 (3XTF32) or wgmma.tf32_stage_min^3 (TF32);
   16-bit A and B whose B rows lie off 128-byte lines, or that rule 1 cannot read, of m at
   least wgmma.align_rows and align_rows^3 products; the scratch within its cap), and their
   plan: matmul_stage, then matmul_wgmma_sb or _sab over K'. The op tries the 16-bit ones before
   rule 1, the fp32 ones after it. */
int ocf_matmul_wgmma_staged_applies(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    const ocf_matmul_call *call);
ocf_mma_outcome ocf_plan_matmul_wgmma_staged(const ocf_device_facts *facts,
                                             const ocf_tuning_values *tuning,
                                             const ocf_matmul_call *call, ocf_plan *plan);

/* ---- matmul's few-row matrix-unit variant (plan_matmul_few.c), tried before the skinny rule ----
 */

/* The few-row plan of a call (cl/matmul_few_mma.cl): PLANNED, PROBE (on an NVIDIA GPU whose mma
   probe has not run: plan the next rules, with probe OCF_PLAN_PROBE_MMA) or NOT_APPLICABLE. */
/* The bytes of the mma probe a few-row call asks for: plan_matmul_mma.c's least, two stages of
   16 KiB (the few-row kernels hold no stages: any passed probe covers them). */
#define OCF_MATMUL_FEW_PROBE_BYTES ((size_t)32 << 10)
ocf_mma_outcome ocf_plan_matmul_few(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    const ocf_matmul_call *call, ocf_plan *plan);

/* Bytes of local memory the few-row kernels declare: the k warps' sums of one 16-row group,
   warps 32 nt 4 floats, and with the emulation its words (warps MMA_EMU_WORDS). */
size_t ocf_matmul_few_local_bytes(size_t warps, size_t nt, int emulate);

/* The wgmma kernel's static local memory: stages (64 consumers + bn) 128 + 1024 bytes. */
size_t ocf_wgmma_local_bytes(unsigned bn, unsigned consumers, unsigned stages);
/* The same of matmul_wgmma_tma: the ring, 2 stages mbarriers of 8 bytes, the two maps on 128
   bytes, with `persist` (PERSIST) the consumers' areas of C (64 x 144 bytes each), the 1 KiB of
   alignment. */
size_t ocf_wgmma_tma_local_bytes(unsigned bn, unsigned consumers, unsigned stages, int persist);

#endif /* OCLFUSE_PLAN_H */
