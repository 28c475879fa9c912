/*
 * Tuning as named data. Each op has named tunables with legal ranges and rules that tie them
 * together (its schema, one file per op: schema_<op>.c, grouped by kernel family), and one
 * validator that every source of values passes through: the built-in values
 * (src/tuning/builtin.tuning, read by builtin.c), tuning databases (db.h) and explicit
 * overrides. Values come as text, "name=value name=value", so that the built-in file, a
 * database and a command-line override are read by the same parser.
 *
 * A context resolves, once at creation, the values of every op and data type for its device
 * (resolve.c); calls read them as the op's struct (t->tiled.set[0].kwg) and never search.
 */
#ifndef OCLFUSE_TUNING_H
#define OCLFUSE_TUNING_H

#include "device_facts.h"

#include <stddef.h>

/* OCF_OP_NORM (issue 20): LayerNorm and RMSNorm share one op ("norm"). */
typedef enum ocf_op {
  OCF_OP_ADD = 0,
  OCF_OP_SOFTMAX,
  OCF_OP_MATMUL,
  OCF_OP_NORM,
  OCF_OP_ATTENTION,
  OCF_OP_COUNT
} ocf_op;

enum { OCF_DTYPE_COUNT = 3 };

/* ---- each op's tunables, by kernel family ----
   An op's values are ints in one struct per op, made of one struct per kernel family (the
   planner of a family reads its struct: t->tiled.set[s].mdimc); the schemas (schema_<op>.c)
   name every int. Text names are the family's name, a dot and the tunable's ("tiled.set0.kwg",
   "skinny.wg"); an op's shared tunables have no family prefix ("max_regs", softmax's "vw"). */

typedef struct ocf_add_tuning {
  int wg;              /* work-items per workgroup */
  int vw;              /* floats per vector access of add_vector */
  int groups_per_unit; /* workgroups per compute unit of the grid-stride loop; 0: none (CPUs) */
} ocf_add_tuning;

/* softmax_rows: several rows a workgroup, each row a segment of work-items. */
typedef struct ocf_softmax_rows_tuning {
  int wg;              /* most work-items of softmax_rows */
  int seg_items;       /* vectors a work-item holds before its row gets more */
  int max_seg;         /* most work-items one row gets */
  int seg_align;       /* segments past this many work-items are multiples of it */
  int prefetch;        /* loads its next rows before reducing the current ones */
  int groups_per_unit; /* workgroups per compute unit (0: one per batch) */
  int wide_wg;         /* work-items of a one-row-a-workgroup plan (softmax_rows, softmax_resident)
                          beyond the kernel's reported limit, after the wide probe passed, registers
                          capped; 0: none */
  int shuffle;         /* 1: segment reductions through warp shuffles (NVIDIA GPUs only), segments
                          of a power of two work-items up to a warp, or whole warps */
  int whole_ends;      /* 1: a vector straddling a row's ends is read whole (out apart from in) */
  int aligned_seg_items; /* seg_items of rows on whole vectors (none straddles); 0: seg_items */
  int aligned_vw;        /* the vector width of rows on whole vectors of it; 0: vw */
  int whole_seg_items;   /* seg_items of rows on whole vectors of vw but not of a set aligned_vw;
                            0: seg_items */
  int items;             /* most vectors a work-item holds; 0: long_rows.items */
  int long_seg; /* rows that max_seg work-items cannot hold get segments up to this many; 0: none */
} ocf_softmax_rows_tuning;

/* Rows of one or more workgroups: softmax_resident, softmax_coop, the two-kernel split. */
typedef struct ocf_softmax_long_tuning {
  int wg;               /* work-items of the one-row-a-group kernels, the most resident grows to */
  int min_wg;           /* the fewest softmax_resident shrinks to for short rows */
  int items;            /* most vectors a work-item holds in registers (resident, coop) */
  int local_items;      /* most vectors a work-item holds in local memory beyond them */
  int unroll;           /* vectors a work-item loads per step of the streaming loops */
  int groups_per_unit;  /* workgroups per compute unit below which rows are split */
  int coop_spin;        /* softmax_coop's polls of a partner; 0: split rows with two kernels */
  int coop_items;       /* most vectors a softmax_coop work-item holds; 0: items + local */
  int coop_unit_slices; /* most softmax_coop slices of a row a compute unit; 0: no such limit */
  int split_unroll;     /* vectors a work-item loads per step of the split's kernels; 0: unroll */
  int split_rows_pct;   /* rows, in % of the compute units, below which rows are split; 0: 100
                           x groups_per_unit */
} ocf_softmax_long_tuning;

typedef struct ocf_softmax_tuning {
  int vw;       /* elements per aligned vector access (every family) */
  int packed;   /* 16-bit rows held as their storage bits (rows, resident, coop): 0 never,
                   1 always, 2 where that holds a row floats would not */
  int f16_cvt;  /* fp16 vectors: 0 integer arithmetic, 1 and 2 whole words converted in hardware */
  int bf16_cvt; /* bfloat16 vector stores: 0 integer arithmetic, 1 PTX cvt (NVIDIA 8.0 on) */
  ocf_softmax_rows_tuning rows;
  ocf_softmax_long_tuning long_rows;
} ocf_softmax_tuning;

/* A tile set of the tiled kernels; unused while mdimc is 0 (set 0 always exists). */
typedef struct ocf_matmul_tile_set {
  int mdimc; /* work-items along M */
  int ndimc; /* work-items along N */
  int mwi;   /* rows of C per work-item */
  int nwi;   /* columns of C per work-item */
  int kwg;   /* K slice depth in local memory */
  int vwm;   /* local read width of the A tile */
  int vwn;   /* local read width of the B tile, store width of C */
  int pada;  /* padding floats per local A row */
  int padb;  /* padding floats per local B row */
} ocf_matmul_tile_set;

enum { OCF_MATMUL_TILE_SETS = 4, OCF_MATMUL_MMA_SETS = 2 };

/* The tiled kernels (cl/matmul.cl): tile sets, largest first. They take the first set that
   gives at least `fill` workgroups per compute unit (over the whole batch) and wastes at most
   100 - min_eff % of its padded tiles on a C that is smaller, else the last one in use; then
   split K, summed by matmul_reduce. */
typedef struct ocf_matmul_tiled_tuning {
  int fill; /* workgroups per compute unit a tile set must give to be taken */
  ocf_matmul_tile_set set[OCF_MATMUL_TILE_SETS];
  int min_eff;     /* % of a set's padded tiles that must be C */
  int split_k_min; /* least K per split; 0: never split */
  int split_max;   /* most K splits */
  int split_fill;  /* workgroups per compute unit that splitting aims at */
  int reduce_wg;   /* work-items per workgroup of matmul_reduce */
  int pad_min;   /* padded copies of misaligned fp32 A / B from m n k batch >= pad_min^3; 0: none */
  int rim;       /* 1: matmul_tiled_pad / _mixed run whole tiles and rim tiles in separate bodies;
                    2: matmul_tiled_split too */
  int pad_sides; /* the sides pad_min's copies need: 0 any, 1 multiples of 4, 2 whole tiles */
  int pad_waves; /* calls of at most pad_waves tiles a compute unit copy every operand across a
                    rim too (on the sides pad_sides allows); 0: never */
  int mixed_c_check; /* 1: matmul_tiled_mixed with the rim body checks C's alignment per store */
  int wave_min;   /* % of whole waves a taken set's workgroups must fill, else K split; 0: never */
  int wave_k_min; /* least K per split of the wave rule */
  int few_waves;  /* a set taken unsplit in at most this many waves aims at few_wave_min; 0: none */
  int few_wave_min; /* wave_min for those few waves */
  int stream;       /* stream-K in place of K splits: workgroups a compute unit; 0: never */
} ocf_matmul_tiled_tuning;

/* The skinny kernels (cl/matmul_skinny.cl): C with a short side. */
typedef struct ocf_matmul_skinny_tuning {
  int max;       /* largest short side of C they take; 0: none */
  int long_min;  /* and the least long side */
  int wg;        /* work-items per workgroup */
  int rl_k;      /* row lanes when the large operand is k-contiguous */
  int rl_r;      /* row lanes when it is row-contiguous */
  int unroll;    /* steps of loads in flight per work-item */
  int fill;      /* workgroups per compute unit before K is split */
  int split_min; /* least K per split */
  int wide_min;  /* least short side for the wide path; 0: never */
  int rl_w;      /* the wide path's row lanes */
  int join;      /* widest short side whose split joins its ranges in its own launch (where
                    joins have fences); 0: none */
} ocf_matmul_skinny_tuning;

/* An mma tile set: the C tile (BM x BN), the K slice (BK), one warp's block (WM x WN) and the
   slices in local memory (STAGES). */
typedef struct ocf_matmul_mma_set {
  int bm, bn, bk, wm, wn, stages;
} ocf_matmul_mma_set;

/* The matrix-unit kernel (cl/matmul_mma_nv.cl): whether to use it where a probe found it, its
   tile sets (set 0 unless its tiles over the batch give fewer than `fill` workgroups per
   compute unit) and the options of its main loop. */
typedef struct ocf_matmul_mma_tuning {
  int on;       /* 1: TF32, 3XTF32 and 16-bit inputs take the matrix units where found */
  int fill;     /* workgroups per compute unit that set 0 must give to be taken */
  int group_m;  /* tile rows walked together (L2 reuse) */
  int copy_at;  /* the k step after whose mma a slice's copies are issued */
  int interior; /* 1: interior tiles copy full slices unguarded */
  ocf_matmul_mma_set set[OCF_MATMUL_MMA_SETS];
} ocf_matmul_mma_tuning;

/* Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl), taken before the mma kernel where its
   probe passed: whether to use it (with mma on), its tile and its ring. */
typedef struct ocf_matmul_wgmma_tuning {
  int on;             /* 1: wgmma on compute capability 9.0 (needs mma.on=1) */
  int bn;             /* columns of its tile: 128, 192 or 256 */
  int stages;         /* K slices of 128 bytes in local memory */
  int consumers;      /* warpgroups (64 rows of the tile each) */
  int group_m;        /* tile rows walked together (L2 reuse) */
  int stage_min;      /* staged 3XTF32 plans from m n k batch >= stage_min^3; 0: none */
  int tf32_stage_min; /* staged TF32 plans from m n k batch >= tf32_stage_min^3; 0: none */
  int split_min;      /* K ranges over workgroups of at least split_min elements; 0: none */
  int lastwave;       /* the last-wave split for a last wave of at most lastwave % of the compute
                         units; 0: none */
  int lastwave_min;   /* least K per range of the last-wave split */
  int wave_bn;        /* the other tile width whole-K calls of several waves may take; 0: none */
  int wave_stages;    /* the ring of wave_bn's tiles */
  int align_rows;     /* 16-bit calls of m >= align_rows (and align_rows^3 products) whose B rows
                         lie off 128-byte lines, or that the direct plan cannot read, stage their
                         operands first; 0: never */
  int unread_rows;    /* the same gate for the 16-bit calls the direct plan cannot read (A or B
                         off 16-byte chunks, A transposed), which would run on mma.sync; 0:
                         align_rows' gate */
  int tma;            /* 1: whole-K plans of the direct kernel take its TMA-fed form (rule 7)
                         where its probe passed; 2: also 16-bit calls with B off the 128-byte
                         lines, uncopied (rule 4) */
  int c_stage;        /* 1: the TMA form stages its finished tile in local memory and stores it
                         in rows of 16-byte chunks */
  int tma_split;      /* 1: split-K plans (rule 5) take the TMA-fed split where rule 7's gates
                         hold */
  int split_join;     /* 1: split-K plans (rule 5) that keep cp.async join their ranges in the
                         same kernel (arrival counters) instead of a reduce kernel */
  int tma_copies;     /* 1: staged and copied plans (rule 4) multiply on the TMA-fed form where
                         rule 7's gates hold */
  int one_consumer;   /* 1: calls of at most 64 consumers rows take one consumer's 64-row tiles
                         where those make one wave that fills the units enough (rule 2) */
  int split_ranges;   /* the fewest K ranges a split (rule 5) takes; fewer: whole K */
  int sector_rows;    /* 1: with wgmma.tma set, 16-bit B rows on 32-byte steps but off 64-byte
                         ones are read in place by the TMA, not copied (rule 4) */
  int persist;        /* 1: whole-K TMA-fed plans of one product and more tiles than compute
                         units run a workgroup a unit, each multiplying every units-th tile
                         (rule 7); 2: and stream-K where the tiles are not whole waves */
  int one_wave;       /* 1: whole-K calls whose 128-column tiles make one wave take them (rule
                         2); 0: only calls of one tile row */
  int whole_k_fill;   /* rule 5 splits K only where the whole-K plan fills fewer than this
                         percent of the compute units; 0: wherever its tiles leave units idle */
} ocf_matmul_wgmma_tuning;

/* The few-row matrix-unit kernels (cl/matmul_few_mma.cl): 16-bit A and B, C with a short side of
   at most `max`, taken before the skinny kernels where `on` says. */
typedef struct ocf_matmul_few_tuning {
  int on;     /* 0 never; 1 NVIDIA (compute capability 8.0, mma probe passed); 2 also elsewhere,
                 emulated (tests) */
  int max;    /* largest short side of C taken (at most 64) */
  int x_rows; /* 1: also a row-contiguous large operand (element loads); 0: k-contiguous only */
  int warps;  /* warps a workgroup */
  int kw;     /* of them along K (dividing warps) */
  int nt;     /* tiles of 8 rows of the large operand a warp */
  int unroll; /* steps of 32 k of loads in flight a warp */
  int fill;   /* workgroups per compute unit before K is split */
} ocf_matmul_few_tuning;

typedef struct ocf_matmul_tuning {
  int max_regs; /* register cap of the tiled and skinny kernels (NVIDIA); 0: none */
  ocf_matmul_tiled_tuning tiled;
  ocf_matmul_skinny_tuning skinny;
  ocf_matmul_mma_tuning mma;
  ocf_matmul_wgmma_tuning wgmma;
  ocf_matmul_few_tuning few;
} ocf_matmul_tuning;

/* LayerNorm and RMSNorm (schema_norm.c, plan_norm.c). norm_rows: several rows a workgroup, each
   row a segment of work-items holding it in registers. */
typedef struct ocf_norm_rows_tuning {
  int wg;              /* most work-items of norm_rows */
  int items;           /* most vectors a work-item holds in registers */
  int seg_items;       /* vectors a work-item holds before its row gets more work-items */
  int max_seg;         /* most work-items one row gets */
  int seg_align;       /* segments past this many work-items are multiples of it */
  int groups_per_unit; /* workgroups a compute unit, looping over batches; 0: one a batch */
  int prefetch;        /* 1: the next batch of rows is loaded before this one is reduced */
  int shuffle;         /* 1: segment sums through warp shuffles (NVIDIA GPUs only) */
  int merge;           /* 1 (with shuffle): LayerNorm's statistics in one Chan-merge reduction */
  int max_regs;        /* register cap of norm_rows (NVIDIA's -cl-nv-maxrregcount); 0: none */
  int wide_wg; /* work-items of a one-row-a-workgroup norm_rows plan beyond the kernel's reported
                  limit, after the wide probe passed, registers capped; 0: none */
  int shifted; /* rows that start inside a vector move in whole vectors all the same (SHIFTED),
                  where every operand's rows start equally far inside theirs: 1 both ops, 2
                  RMSNorm only, 0 off */
} ocf_norm_rows_tuning;

/* Rows beyond registers: the two-kernel split (its workgroup also that of norm_general and the
   unfused baseline). */
typedef struct ocf_norm_split_tuning {
  int wg;              /* work-items a workgroup (a workgroup a slice of a row) */
  int unroll;          /* vectors a work-item loads per step of the loops */
  int groups_per_unit; /* workgroups per compute unit that few long rows are cut to fill */
  int shifted; /* the split moves rows that start inside a vector in whole vectors (SHIFTED), as
                  rows.shifted does norm_rows's: 1 both ops, 2 RMSNorm only, 0 off */
} ocf_norm_split_tuning;

/* Long rows streamed (norm_stream): one row a workgroup, its head held, the rest read twice. */
typedef struct ocf_norm_stream_tuning {
  int min_cols;        /* rows of at least this many columns take norm_stream; 0: none */
  int wg;              /* work-items a workgroup (beyond the reported limit: the wide plan) */
  int items;           /* vectors a work-item holds of the row's head */
  int unroll;          /* vectors a work-item loads per step of the two streaming passes */
  int groups_per_unit; /* workgroups a compute unit, looping over rows; 0: one a row */
  int unit_rows;       /* the fewest rows a compute unit a streamed call needs; 0: any */
} ocf_norm_stream_tuning;

typedef struct ocf_norm_tuning {
  int vw;       /* elements per aligned vector access (every family) */
  int f16_cvt;  /* fp16 vectors: 0 vload_half, 1 and 2 whole words converted in hardware */
  int bf16_cvt; /* bfloat16 vector stores: 0 integer arithmetic, 1 PTX cvt (NVIDIA 8.0 on) */
  ocf_norm_rows_tuning rows;
  ocf_norm_split_tuning split;
  ocf_norm_stream_tuning stream;
} ocf_norm_tuning;

/* attention_tiled (cl/attention.cl): BQ query rows a workgroup, TPR work-items a row, K and V
   in tiles of BK keys through local memory. */
typedef struct ocf_attention_tiled_tuning {
  int bq;    /* query rows a workgroup */
  int bk;    /* keys (and values) a tile in local memory */
  int tpr;   /* work-items per query row */
  int heads; /* most query heads of a key head decoded by one work-item (HG); 1: one */
} ocf_attention_tiled_tuning;

/* The decode split (attention_split + attention_merge): each row's keys over workgroups. */
typedef struct ocf_attention_split_tuning {
  int fill; /* workgroups per compute unit below which rows' keys are split; 0: never */
  int min;  /* the fewest keys a split takes */
} ocf_attention_split_tuning;

/* attention_decode: all query heads of a key head in one workgroup, its keys over work-items. */
typedef struct ocf_attention_decode_tuning {
  int wg;          /* work-items a workgroup */
  int bk;          /* keys (and values) a tile in local memory */
  int cpt;         /* output columns a work-item accumulates */
  int rows;        /* the most query rows (heads x lq of one key head) a workgroup */
  int fill;        /* workgroups per compute unit the key ranges aim at */
  int prefetch;    /* 1: the next tile's loads in registers while this tile is scored */
  int lanes;       /* attention_lanes instead, this many work-items a key; 0: attention_decode */
  int unroll;      /* attention_lanes: keys a work-item loads before scoring them */
  int ahead;       /* attention_lanes: 1: a step's loads issued while the step before is scored */
  int join;        /* attention_lanes: the last range of a row block joins them (one kernel): 1
                      blocks of one row, 2 every block */
  int row_groups;  /* attention_lanes: groups of wg work-items a workgroup, each holding a share
                      of the block's rows and taking every key for them */
  int bulk;        /* attention_lanes: 1: K and V through a ring of local-memory stages filled by
                      Hopper's bulk copies (compute capability 9.0, the wgmma probe passed) */
  int stages;      /* attention_lanes with bulk: the ring's stages */
  int bulk_keys;   /* attention_lanes with bulk: keys a stage (rounded down to whole steps) */
  int bulk_fill;   /* attention_lanes with bulk: workgroups per compute unit the key ranges aim
                      at */
  int bulk_min;    /* attention_lanes with bulk: the least a range of the ring takes, in keys times
                      the block's rows (smaller ones stream through registers) */
  int bulk_refill; /* attention_lanes with bulk: 0 refill the stage just read (after the slowest
                      warp's reads), 1 the stage read before it (no wait, a tile fewer ahead) */
} ocf_attention_decode_tuning;

/* attention_block: attention_tiled with RM rows x BK / TC keys of scores and RM rows x D / TC
   columns of out a work-item. */
typedef struct ocf_attention_block_tuning {
  int bq;    /* query rows a workgroup; 0: never this kernel */
  int bk;    /* keys (and values) a tile in local memory */
  int rm;    /* query rows a work-item */
  int tc;    /* work-items across a tile's keys and out's columns */
  int local; /* 1: on NVIDIA, tiles up to what the matrix-unit probe ran right with */
} ocf_attention_block_tuning;

/* attention_mma (cl/attention_mma_nv.cl): 16-bit Q, K, V on NVIDIA's matrix units. */
typedef struct ocf_attention_mma_tuning {
  int on;          /* 0 never; 1 on NVIDIA compute capability >= 8.0; 2 also emulated elsewhere */
  int warps;       /* warps a workgroup: 16 query rows each */
  int bk;          /* keys (and values) a tile in local memory */
  int decode_fill; /* before attention_decode from this many workgroups a compute unit; 0 never */
  int split_fill;  /* key ranges over workgroups below this many workgroups a compute unit; 0 never
                    */
  int rows;        /* query rows a warp: 16 or 32 (two row groups sharing each K, V fragment) */
  int q_local;     /* 1: Q's fragments read from a Q tile in local memory at every tile */
  int stages;      /* K and V tiles in flight: 2 or 3 */
  int local;       /* 1: local memory beyond the reported size where the mma probe ran it */
  int remat;       /* 1: the lane's ldmatrix addresses computed again at every tile */
  int join;        /* 1: attention_mma_split's last range of a row block joins them (one kernel) */
  int pack;        /* grouped-query heads packed in a unit's blocks where a head's rows are fewer
                      than a block's, taken before attention_lanes from this many rows a key
                      head (or where it holds them in one work-item); 0: never packed */
  int pack_fill;   /* packed calls' key ranges aim at this many workgroups a compute unit */
  int key_warps;   /* warps that split each tile's keys for the same rows where the rows leave
                      warps idle (decoding); 1: none */
} ocf_attention_mma_tuning;

/* attention_wgmma (cl/attention_wgmma_nv.cl): 16-bit Q, K, V on Hopper's warpgroup units. */
typedef struct ocf_attention_wgmma_tuning {
  int on;          /* 0 never; 1 on NVIDIA compute capability 9.0 where the wgmma probe passed */
  int bk;          /* keys a tile: 64 or 128 (halved to fit local memory) */
  int min_lq;      /* the fewest query rows a call takes it with */
  int pipe;        /* 1: P V of the tile before in flight while a tile's weights are computed */
  int split_fill;  /* few blocks: keys split into ranges for this many workgroups a unit; 0: no */
  int max_regs;    /* a register cap for its kernels (NVIDIA); 0: the compiler's choice */
  int tma;         /* 1: calls on attention_wgmma_tma (TMA-fed stages, a producer warp);
                      2: and its warpgroups taking turns to issue their products */
  int tma_stages;  /* attention_wgmma_tma's ring: 2 to 4 stages of K and V */
  int tma_persist; /* 1: attention_wgmma_tma in a workgroup a compute unit, each taking block
                      after block (its maps made once, the next block's tiles loaded early) */
  int tma_split;   /* 1: with wgmma.tma, calls split into key ranges (split_fill) on
                      attention_wgmma_tma too; 0: those on attention_wgmma_split */
} ocf_attention_wgmma_tuning;

typedef struct ocf_attention_tuning {
  ocf_attention_tiled_tuning tiled;
  ocf_attention_split_tuning split;
  ocf_attention_decode_tuning decode;
  ocf_attention_block_tuning block;
  ocf_attention_mma_tuning mma;
  ocf_attention_wgmma_tuning wgmma;
} ocf_attention_tuning;

enum { OCF_TUNING_MAX = 128 };

/* The resolved values of one op and data type: the op's struct, or its ints in schema order
   (the validator, parser, formatter and tuner walk v[]). */
typedef union ocf_tuning_values {
  int v[OCF_TUNING_MAX];
  ocf_add_tuning add;
  ocf_softmax_tuning softmax;
  ocf_matmul_tuning matmul;
  ocf_norm_tuning norm;
  ocf_attention_tuning attention;
} ocf_tuning_values;

/* The ints of a struct of values (an op's, a family's). */
#define OCF_TUNING_INTS(type) ((unsigned)(sizeof(type) / sizeof(int)))

/* The index in v[] of a field of an op's struct: OCF_TUNING_INDEX(matmul, tiled.set[1].kwg). */
#define OCF_TUNING_INDEX(op, field) ((int)(offsetof(ocf_##op##_tuning, field) / sizeof(int)))

/* ---- schemas ---- */

typedef struct ocf_tunable {
  const char *name; /* "tiled.set0.kwg": the family's name, a dot, the tunable's */
  int min, max;
  int pow2;     /* must be a power of two (or 0 when min is 0) */
  int fallback; /* the value when no built-in entry sets it */
  const char *doc;
  const char *v1_name; /* its name in format 1 ("set0.kwg"), read too; NULL: the same */
} ocf_tunable;

typedef enum ocf_rule_kind {
  OCF_RULE_LE,          /* v[x] <= v[y] */
  OCF_RULE_MULTIPLE_OF, /* v[x] % v[y] == 0 (v[y] > 0) */
  OCF_RULE_DIVISIBLE,   /* v[x] % n == 0 */
  OCF_RULE_AT_MOST,     /* v[x] <= n */
  OCF_RULE_AT_LEAST     /* v[x] >= n */
} ocf_rule_kind;

/* A rule over the tunables and the derived values (indices count the tunables first, then the
   derived ones). It applies only when v[when] != 0 (when < 0: always). */
typedef struct ocf_rule {
  ocf_rule_kind kind;
  int x, y;
  long long n;
  int when;
  const char *why;
} ocf_rule;

enum { OCF_DERIVED_MAX = 20 };

/* A kernel family's part of an op's schema: its tunables and its rules, consecutive in the
   op's tables (tunables in the order of the family's struct). A rule indexes the op's values,
   so a family's rule may read the op's shared tunables (softmax's vw); a rule that ties
   several families together belongs to the op's shared part (the family named ""). */
typedef struct ocf_tuning_family {
  const char *name; /* "tiled"; "" for the op's shared tunables */
  const char *doc;
  unsigned first, count;           /* tunables[first .. first + count) */
  unsigned first_rule, rule_count; /* rules[first_rule .. first_rule + rule_count) */
} ocf_tuning_family;

typedef struct ocf_op_schema {
  ocf_op op;
  const char *name; /* "softmax" */
  const ocf_tunable *tunables;
  unsigned count;
  /* Values computed from the tunables that rules talk about (a tile's rows, its local memory). */
  const char *const *derived_names;
  unsigned derived_count;
  void (*derive)(const ocf_tuning_values *values, long long *derived);
  const ocf_rule *rules;
  unsigned rule_count;
  const ocf_tuning_family *families; /* the op's shared part first, then its kernel families */
  unsigned family_count;
} ocf_op_schema;

/* The schema of an op; NULL for an op out of range. */
const ocf_op_schema *ocf_op_schema_get(ocf_op op);
/* The op named "add", "softmax", "matmul" or "attention"; OCF_OP_COUNT when none is. */
ocf_op ocf_op_from_name(const char *name);

/* Every tunable's fallback value. */
void ocf_tuning_fallbacks(ocf_op op, ocf_tuning_values *values);

/*
 * The one validator: every tunable in its range (and a power of two where it must be), every
 * rule holding. `origin` names where the values came from in the error text
 * ("the built-in row for NVIDIA GPUs"). Returns OCF_ERR_INVALID_VALUE with the first broken rule.
 */
ocf_status ocf_tuning_check(ocf_op op, const ocf_tuning_values *values, const char *origin);

/*
 * Reads "name=value" pairs separated by blanks into *values, leaving the others as they were.
 * A name is a tunable's ("tiled.set0.kwg") or its format-1 name ("set0.kwg"; every format-1
 * name is one tunable's). An unknown name, a value that is not a decimal int, or a pair without
 * '=' is OCF_ERR_INVALID_VALUE naming `origin`; ranges and rules are the validator's job.
 */
ocf_status ocf_tuning_parse(ocf_op op, const char *text, ocf_tuning_values *values,
                            const char *origin);

/* Room for every tunable of an op as text (ocf_tuning_format). */
enum { OCF_TUNING_TEXT_MAX = 2048 };

/* Writes the values as "name=value ..." text (what ocf_tuning_parse reads) into out. */
void ocf_tuning_format(ocf_op op, const ocf_tuning_values *values, char *out, size_t capacity);

/* ---- rows: values for the devices a key matches ---- */

#define OCF_VENDOR_ANY (-1)

typedef struct ocf_tuning_key {
  ocf_op op;
  ocf_dtype dtype;
  int vendor;          /* an ocf_vendor, or OCF_VENDOR_ANY */
  cl_device_type type; /* CL_DEVICE_TYPE_GPU, ..._CPU, or 0 = any */
  const char *device;  /* case-insensitive substring of the device name, NULL = any */
} ocf_tuning_key;

typedef struct ocf_tuning_row {
  ocf_tuning_key key;
  const char *values; /* "name=value ..." overriding what less specific rows set */
  const char *note;   /* where the values come from */
} ocf_tuning_row;

/* The built-in rows: src/tuning/builtin.tuning's entries, keyed by its `match` lines, in file
   order (parsed once; none when it does not parse, which the plan tests catch). */
const ocf_tuning_row *ocf_builtin_rows(size_t *count);
/* Why ocf_builtin_rows has none ("tuning database line 38: ..."); "" when it has them. */
const char *ocf_builtin_error(void);

/* Whether a key matches a device (its facts and its name). */
int ocf_tuning_key_matches(const ocf_tuning_key *key, const ocf_device_facts *facts,
                           const char *device_name);

/*
 * Resolves the values of `op` and `dtype` for a device: the fallbacks, then every matching row
 * of `rows` from the least specific key to the most (a key's specificity counts the fields it
 * sets; ties keep table order), then the validator. A half-precision type applies the fp32 rows
 * first and its own rows after them. Rows that fail to parse are reported as
 * errors: the built-in ones are checked by the device-free tests.
 */
ocf_status ocf_tuning_resolve(const ocf_tuning_row *rows, size_t row_count, ocf_op op,
                              ocf_dtype dtype, const ocf_device_facts *facts,
                              const char *device_name, ocf_tuning_values *values);

#endif /* OCLFUSE_TUNING_H */
