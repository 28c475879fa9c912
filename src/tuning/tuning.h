/*
 * Tuning as named data. Each op has named tunables with legal ranges and rules that tie them
 * together (its schema, one file per op: schema_<op>.c), and one validator that every source of
 * values passes through: the built-in table (builtin.c), files (later: a tuning database) and
 * explicit overrides. Values come as text, "name=value name=value", so that a row written in C,
 * a line of a file and a command-line override are read by the same parser.
 *
 * A context resolves, once at creation, the values of every op and data type for its device
 * (resolve.c); calls read them by index (the enums below) and never search.
 */
#ifndef OCLFUSE_TUNING_H
#define OCLFUSE_TUNING_H

#include "device_facts.h"

#include <stddef.h>

/* OCF_OP_NORM (issue 20): LayerNorm and RMSNorm share one schema ("norm"). */
typedef enum ocf_op {
  OCF_OP_ADD = 0,
  OCF_OP_SOFTMAX,
  OCF_OP_MATMUL,
  OCF_OP_NORM,
  OCF_OP_COUNT
} ocf_op;

enum { OCF_DTYPE_COUNT = 3 };

/* ---- each op's tunables, by index ---- */

typedef enum add_param {
  ADD_WG,              /* work-items per workgroup */
  ADD_VW,              /* floats per vector access of add_vector */
  ADD_GROUPS_PER_UNIT, /* workgroups per compute unit of the grid-stride loop; 0: none (CPUs) */
  ADD_PARAM_COUNT
} add_param;

typedef enum softmax_param {
  SM_WG,          /* work-items of the one-row-a-group kernels, the most resident grows to */
  SM_MIN_WG,      /* the fewest softmax_resident shrinks to for short rows */
  SM_VW,          /* elements per aligned vector access */
  SM_ITEMS,       /* most vectors a work-item holds in registers (resident, coop) */
  SM_LOCAL_ITEMS, /* most vectors a work-item holds in local memory beyond them */
  SM_UNROLL,      /* vectors a work-item loads per step of the streaming loops */
  SM_ROWS_WG,     /* most work-items of softmax_rows (several rows a workgroup) */
  SM_SEG_ITEMS,   /* vectors a softmax_rows work-item holds before its row gets more */
  SM_MAX_SEG,     /* most work-items softmax_rows gives one row */
  SM_SEG_ALIGN,   /* softmax_rows segments past this many work-items are multiples of it */
  SM_PREFETCH,    /* softmax_rows loads its next rows before reducing the current ones */
  SM_ROWS_GROUPS_PER_UNIT, /* softmax_rows workgroups per compute unit (0: one per batch) */
  SM_GROUPS_PER_UNIT,      /* workgroups per compute unit below which rows are split */
  SM_COOP_SPIN,            /* softmax_coop's polls of a partner; 0: split rows with two kernels */
  SM_COOP_ITEMS,           /* most vectors a softmax_coop work-item holds; 0: items + local */
  SM_PARAM_COUNT
} softmax_param;

/* LayerNorm and RMSNorm (schema_norm.c, plan_norm.c). */
typedef enum norm_param {
  NM_WG,              /* work-items of the split kernels (a workgroup per slice of a row) */
  NM_VW,              /* elements per aligned vector access */
  NM_ITEMS,           /* most vectors a norm_rows work-item holds in registers */
  NM_ROWS_WG,         /* most work-items of norm_rows */
  NM_SEG_ITEMS,       /* vectors a norm_rows work-item holds before its row gets more */
  NM_MAX_SEG,         /* most work-items norm_rows gives one row */
  NM_SEG_ALIGN,       /* norm_rows segments past this many work-items are multiples of it */
  NM_UNROLL,          /* vectors a work-item loads per step of the split's loops */
  NM_GROUPS_PER_UNIT, /* workgroups per compute unit below which long rows are cut finer */
  NM_PARAM_COUNT
} norm_param;

/* Matmul: MM_SETS tile sets, largest first; set s's parameter p is MM_SET(s, p). A set whose
   mdimc is 0 is unused (set 0 always exists). The tiled kernels take the first set that gives
   at least `fill` workgroups per compute unit (over the whole batch) and wastes at most
   100 - min_eff % of its padded tiles on a C that is smaller, else the last one in use. Then the
   split-K, skinny and reduce tunables (see schema_matmul.c). */
typedef enum matmul_set_param {
  MM_MDIMC, /* work-items along M */
  MM_NDIMC, /* work-items along N */
  MM_MWI,   /* rows of C per work-item */
  MM_NWI,   /* columns of C per work-item */
  MM_KWG,   /* K slice depth in local memory */
  MM_VWM,   /* local read width of the A tile */
  MM_VWN,   /* local read width of the B tile, store width of C */
  MM_PADA,  /* padding floats per local A row */
  MM_PADB,  /* padding floats per local B row */
  MM_SET_PARAMS
} matmul_set_param;
enum { MM_SETS = 4, MM_FILL = 0 };
#define MM_SET(s, p) (1 + (s)*MM_SET_PARAMS + (p))
typedef enum matmul_param {
  MM_MIN_EFF = MM_SET(MM_SETS, 0), /* % of a set's padded tiles that must be C */
  MM_SPLIT_K_MIN,                  /* least K per split of the tiled kernels; 0: never split */
  MM_SPLIT_MAX,                    /* most K splits of the tiled kernels */
  MM_SPLIT_FILL,                   /* workgroups per compute unit that splitting aims at */
  MM_REDUCE_WG,                    /* work-items per workgroup of matmul_reduce */
  MM_SKINNY_MAX,                   /* largest short side of C for the skinny kernels; 0: none */
  MM_SKINNY_LONG_MIN,              /* and the least long side */
  MM_SK_WG,                        /* work-items per workgroup of the skinny kernels */
  MM_SK_RL_K,                      /* their row lanes when the large operand is k-contiguous */
  MM_SK_RL_R,                      /* their row lanes when it is row-contiguous */
  MM_SK_UNROLL,                    /* steps of loads in flight per work-item */
  MM_SK_FILL,                      /* workgroups per compute unit before K is split */
  MM_SK_SPLIT_MIN,                 /* least K per split of the skinny kernels */
  MM_MAX_REGS,                     /* register cap of the GEMM kernels (NVIDIA); 0: none */
  MM_SK_WIDE_MIN, /* least short side for the skinny kernels' wide path; 0: never */
  MM_SK_RL_W,     /* the wide path's row lanes */
  /* The matrix-unit kernel (cl/matmul_mma_nv.cl): whether to use it where a probe found it,
     its two tile sets (set 0 unless its tiles over the batch give fewer than mma.fill
     workgroups per compute unit), and the options of its main loop. */
  MM_MMA,           /* 1: TF32, 3XTF32 and 16-bit inputs take the matrix units where found */
  MM_MMA_FILL,      /* workgroups per compute unit that mma set 0 must give to be taken */
  MM_MMA_GROUP_M,   /* tile rows walked together (L2 reuse) */
  MM_MMA_COPY_AT,   /* the k step after whose mma a slice's copies are issued */
  MM_MMA_INTERIOR,  /* 1: interior tiles copy full slices unguarded */
  MM_MMA_SET_FIRST, /* mma set s's parameter p is MM_MMA_SET(s, p) */
  /* Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl), taken before the mma kernel where its
     probe passed: whether to use it (with mma on), its tile and its ring. */
  MM_WG = MM_MMA_SET_FIRST + 2 * 6, /* 1: wgmma on compute capability 9.0 (needs mma=1) */
  MM_WG_BN,                         /* columns of its tile: 128, 192 or 256 */
  MM_WG_STAGES,                     /* K slices of 128 bytes in local memory */
  MM_WG_CONSUMERS,                  /* warpgroups (64 rows of the tile each) */
  MM_WG_GROUP_M,                    /* tile rows walked together (L2 reuse) */
  MM_PARAM_COUNT
} matmul_param;
/* The parameters of an mma tile set: the C tile (BM x BN), the K slice (BK), one warp's block
   (WM x WN) and the slices in local memory (STAGES). */
typedef enum matmul_mma_set_param {
  MMA_BM,
  MMA_BN,
  MMA_BK,
  MMA_WM,
  MMA_WN,
  MMA_STAGES,
  MMA_SET_PARAMS
} matmul_mma_set_param;
enum { MMA_SETS = 2 };
#define MM_MMA_SET(s, p) (MM_MMA_SET_FIRST + (s)*MMA_SET_PARAMS + (p))

enum { OCF_TUNING_MAX = 80 };

/* The resolved values of one op and data type, indexed by the op's enum above. */
typedef struct ocf_tuning_values {
  int v[OCF_TUNING_MAX];
} ocf_tuning_values;

/* ---- schemas ---- */

typedef struct ocf_tunable {
  const char *name;
  int min, max;
  int pow2;     /* must be a power of two (or 0 when min is 0) */
  int fallback; /* the value when no row sets it */
  const char *doc;
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

typedef struct ocf_op_schema {
  ocf_op op;
  const char *name; /* "softmax" */
  const ocf_tunable *tunables;
  unsigned count;
  /* Values computed from the tunables that rules talk about (a tile's rows, its local memory). */
  const char *const *derived_names;
  unsigned derived_count;
  void (*derive)(const int *values, long long *derived);
  const ocf_rule *rules;
  unsigned rule_count;
} ocf_op_schema;

/* The schema of an op; NULL for an op out of range. */
const ocf_op_schema *ocf_op_schema_get(ocf_op op);
/* The op named "add", "softmax" or "matmul"; OCF_OP_COUNT when none is. */
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
 * An unknown name, a value that is not a decimal int, or a pair without '=' is
 * OCF_ERR_INVALID_VALUE naming `origin`; ranges and rules are the validator's job.
 */
ocf_status ocf_tuning_parse(ocf_op op, const char *text, ocf_tuning_values *values,
                            const char *origin);

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
  const char *note;   /* where the values come from (measured where, how) */
} ocf_tuning_row;

/* The built-in rows, generic first. */
const ocf_tuning_row *ocf_builtin_rows(size_t *count);

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
