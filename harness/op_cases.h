/*
 * The table of op cases: every op as the oclfuse tool (bench/) and the generic test suites
 * (tests/test_threads.c, tests/test_faults.c, tests/fuzz/fuzz_args.c) know it, one entry per op,
 * each in its own file (op_add.c, op_softmax.c, op_matmul.c), listed once in op_cases.c. The
 * tool and the suites iterate the table instead of naming ops: an op added here appears in
 * `oclfuse bench` (its default sizes, a generic series where the tool has no series of its own),
 * `check`, `warmup` and `tune --op`, and in the thread, fault and fuzz suites.
 *
 * An entry says the op's name as the library names it (ocf_warmup, ocf_context_set_tuning: a
 * test keeps the two lists equal), the shape part of the --sizes language (how many numbers,
 * how a shape prints), the work of one plain call and the ceiling its rate is compared with, the
 * default bench sizes and workgroup-sweep shape, a few small shapes for checks, and how to make
 * a valid call of a given shape: its operands' sizes, the device and host forms through the
 * public API, the CPU reference and the check against the op's error model (tolerance.h).
 *
 * A call is the plain one (fp32, dense, row-major, no options) unless the case declares what
 * else the tool may ask of the op (its words of the --sizes language, parsed here, so that
 * bench/spec.c names no op's option): the storage types its tensors may take (`dtypes`), its
 * own options that change the kernel chosen (`options`: a switch, a number or a count each) and
 * other names for the op with options preset (`aliases`: "rmsnorm" is norm with rms). A call's
 * choices travel as an ocft_options; the reference then runs on the values the storage type
 * holds and the check uses the op's error model for that type. The host form stays the plain
 * call's. Only the public header is used.
 */
#ifndef OCLFUSE_OP_CASES_H
#define OCLFUSE_OP_CASES_H

#include "oclfuse.h"
#include "tolerance.h"

#include <stddef.h>
#include <stdint.h>

enum {
  OCFT_MAX_DIMS = 5,     /* numbers in a shape (attention: b, h, lq, lk, d) */
  OCFT_MAX_OPERANDS = 4, /* inputs of a call (attention: q, k, v; norm: x, weight, bias, res) */
  OCFT_MAX_EXTRA = 3,    /* outputs beyond the checked one (norm: x', mean, rstd) */
  OCFT_MAX_OPTIONS = 8,  /* options of one op (its case's `options`) */
  OCFT_TUNE_SHAPES = 3   /* shapes `oclfuse tune` times for one shape class */
};

/* The measured ceiling a rate is compared with (bench/ceiling.c measures each). */
typedef enum ocft_ceiling {
  OCFT_CEILING_STREAM, /* two reads and a write (out = x + y) */
  OCFT_CEILING_COPY,   /* one read and one write */
  OCFT_CEILING_FMA     /* the FMA peak, for flops */
} ocft_ceiling;

/* A list of shapes, OCFT_MAX_DIMS numbers each (the op's ndims used). */
typedef struct ocft_shapes {
  const size_t (*d)[OCFT_MAX_DIMS];
  size_t count;
} ocft_shapes;

/* The operand sizes of a call, in elements, and their storage types (0: OCF_F32). */
typedef struct ocft_extent {
  size_t in[OCFT_MAX_OPERANDS]; /* 0: no such input */
  size_t out;                   /* the output the check compares */
  ocf_dtype in_dtype[OCFT_MAX_OPERANDS], out_dtype;
  /* Further outputs the call writes (a buffer each, poisoned, not compared: the op's suite
     compares them); 0: none. */
  size_t extra[OCFT_MAX_EXTRA];
  ocf_dtype extra_dtype[OCFT_MAX_EXTRA];
} ocft_extent;

/* An option of an op in the --sizes language: OP:SIZE:word or OP:SIZE:word=value. */
typedef enum ocft_option_kind {
  OCFT_SWITCH, /* the word alone: "residual" */
  OCFT_NUMBER, /* word=X: a finite number in [min, max] */
  OCFT_COUNT   /* word=N: a whole number (decimal or 2^E) in [min, max] */
} ocft_option_kind;

typedef struct ocft_option {
  const char *word; /* "residual", "eps" */
  ocft_option_kind kind;
  double min, max;  /* NUMBER and COUNT: the values allowed */
  const char *help; /* one line for --help: "=X  added to the variance (default 1e-5)" */
} ocft_option;

/* The choices of one call: the storage type of the op's tensors and the case's options given
   (all zero but dtype OCF_F32: the plain call; ocft_options_init). */
typedef struct ocft_options {
  ocf_dtype dtype;
  unsigned set;                   /* bit i: the case's option i was given */
  double value[OCFT_MAX_OPTIONS]; /* option i's value (NUMBER, COUNT) */
} ocft_options;

/* Another name of an op in --sizes, standing for the op with some options given. */
typedef struct ocft_alias {
  const char *name;    /* "rmsnorm" */
  const char *options; /* the options it presets, as the language writes them ("rms"), or "" */
} ocft_alias;

typedef struct ocft_op_case {
  const char *name;     /* the library's name: "add" */
  const char *function; /* its device-form call, for messages: "ocf_add" */
  const char *host_function;
  int ndims; /* numbers in a shape: N, RxC or MxNxK */
  /* Its error model in a few lines for `oclfuse check --help`, each of at most 70 characters
     (the check indents them under the op's name); the model itself is the op's check. */
  const char *error_help;
  const char *dims_help; /* how a --sizes SIZE fits it: "N or RxC" */
  /* The shape a single number N stands for (NULL: every number N). */
  void (*from_n)(size_t n, size_t *d);
  /* The shape as the reports write it: "n=1000", "4096x50257", "64x64x64". */
  void (*shape_text)(const size_t *d, char *out, size_t capacity);

  /* The rate of a call: its work (bytes or flops) in `unit`, against `ceiling`. */
  const char *unit; /* "GB/s" or "GFLOP/s" */
  ocft_ceiling ceiling;
  double (*work)(const size_t *d, const ocft_options *o);
  /* NULL, or the bytes a call of a flops-rated op must read where they, not its flops, bound
     it (attention's decoding: K and V), and 0 where they do not: such a call is rated in GB/s
     of them against the copy ceiling, as its goal is stated. */
  double (*traffic)(const size_t *d, const ocft_options *o);

  /* What the tool may ask beyond the plain call (all 0: nothing; the tool's own series of add,
     softmax and matmul parse their words in bench/spec.c). dtypes: bit 1 << t for each storage
     type t the op's tensors may take besides OCF_F32 (the words f32, f16, bf16). options: the
     op's own, option_count of them (at most OCFT_MAX_OPTIONS), each word once; validate, when
     set, checks a call's options together with its shape (0, or -1 with why written). */
  unsigned dtypes;
  const ocft_option *options;
  size_t option_count;
  const ocft_alias *aliases;
  size_t alias_count;
  int (*validate)(const size_t *d, const ocft_options *o, char *why, size_t capacity);

  /* Whether the device form runs the op's unfused baseline when launch->variant is
     OCF_VARIANT_BASELINE: the bench's generic series then times it beside the op. */
  int baseline;

  /* `oclfuse tune`: the shapes that stand for the op's shape class `shape_class` (the library's
     classes, in ocf_op_shape_class order) on a GPU (gpu 1) or a CPU device: a power of two and
     ragged sizes where they matter, sized so that one call moves several times the last-level
     cache on a GPU and stays quick on a CPU. Writes up to OCFT_TUNE_SHAPES shapes into d and
     returns how many; NULL: the tool has none for the op. */
  size_t (*tune_shapes)(unsigned shape_class, int gpu, size_t d[][OCFT_MAX_DIMS]);

  /* The default bench sizes on a GPU and on a CPU device, and the --sweep-wg shape. */
  ocft_shapes bench_gpu, bench_cpu;
  /* Calls the bench times by default after those sizes (NULL: none), in the --sizes language
     (bench/spec.c), each "OP:SIZE[:OPTION...]" of this op: the storage types and options a
     client runs, which the plain fp32 calls above leave out. */
  const char *bench_gpu_calls, *bench_cpu_calls;
  size_t sweep_gpu[OCFT_MAX_DIMS], sweep_cpu[OCFT_MAX_DIMS];
  int sweep_non_powers; /* the sweep also tries sizes that are not powers of two */

  /* Small shapes for checks and the suites (ragged, not all powers of two); the first is the
     smallest, for a first call. */
  ocft_shapes small;

  /* A call of shape d with options o: its operands, the device form (inputs and outputs in
     their extent's storage types; extra: the extent's further outputs, NULL for none), the
     host form of the plain call, the reference. */
  ocft_extent (*extent)(const size_t *d, const ocft_options *o);
  ocf_status (*device)(ocf_context *ctx, const size_t *d, const ocft_options *o, cl_mem const *in,
                       cl_mem out, cl_mem const *extra, const ocf_launch *launch);
  ocf_status (*host)(ocf_context *ctx, const size_t *d, const float *const *in, float *out);
  /* Fills want (extent.out values) and, where the model is per element, tol (NULL: exact or
     judged by check alone), from the inputs as the storage types hold them. */
  void (*reference)(const size_t *d, const ocft_options *o, const float *const *in, double *want,
                    double *tol);
  /* Compares got with the reference, adding to *check; device the description of the device
     the call ran on (softmax's model needs it). */
  void (*check)(const size_t *d, const ocft_options *o, const float *const *in, const double *want,
                const double *tol, const float *got, const ocf_device_info *device,
                ocft_check *check);
  /* Calls whose reference would cost the host minutes (work above OCFT_FULL_REFERENCE_WORK:
     attention's GPU bench and tune shapes, 275 GFLOP at 4 x 32 x 4096^2 x 128) are checked on
     sampled rows of out: out_rows rows of equal length, compared element by element, and
     reference_rows the reference and tolerance of `count` of them (rows[r] the index of the r-th,
     its values at want + r x the row's length). NULL: always checked in full. */
  size_t (*out_rows)(const size_t *d, const ocft_options *o);
  void (*reference_rows)(const size_t *d, const ocft_options *o, const float *const *in,
                         const size_t *rows, size_t count, double *want, double *tol);
} ocft_op_case;

/* The work (the case's unit) above which a case with reference_rows is checked on sampled rows,
   and how many: 2^32 flops, about a second of the double-precision reference on a host core. */
#define OCFT_FULL_REFERENCE_WORK 4294967296.0
#define OCFT_SAMPLED_ROWS 256

/* The ops, in the library's order. */
size_t ocft_op_count(void);
const ocft_op_case *ocft_op_at(size_t index);
/* The op of that name, or NULL; its index, or -1. */
const ocft_op_case *ocft_op_find(const char *name);
int ocft_op_index(const char *name);
/* "add, softmax or matmul": the names as a list in words, for help texts and errors. */
void ocft_op_names_text(const char *last_joint, char *out, size_t capacity);
/* A rows x cols op's tune_shapes from its tables of two shapes for each of `classes` classes
   (GPU and CPU): the shapes of shape_class into d, and their count (0 past the classes). */
size_t ocft_row_tune_shapes(const size_t (*gpu)[2][2], const size_t (*cpu)[2][2], unsigned classes,
                            unsigned shape_class, int gpu_device, size_t d[][OCFT_MAX_DIMS]);
/* The op an alias names ("rmsnorm": norm) with its preset options applied to *o (after
   ocft_options_init), or NULL when no case has that alias. */
const ocft_op_case *ocft_op_alias(const char *name, ocft_options *o);

/* ---- the options of a call (the case's dtypes, options and aliases) ---- */

/* The plain call's: OCF_F32, nothing set. */
void ocft_options_init(ocft_options *o);
/* Whether o is the plain call's (dtype OCF_F32 and no option set). */
int ocft_options_plain(const ocft_options *o);
/* Whether the case has anything beyond the plain call (dtypes or options). */
int ocft_op_has_options(const ocft_op_case *op);
/* Parses one option token ("bf16", "residual", "eps=1e-6") of op's call into *o: 0 parsed, 1 not
   a word of op's case (*o unchanged), -1 a word of it with a bad or repeated value (why written:
   "bad option 'eps=x': wants a finite number from 0 to 1"). dtype_seen: the call's dtype word
   was given already (set by a dtype word). */
int ocft_options_parse(const ocft_op_case *op, const char *token, ocft_options *o, int *dtype_seen,
                       char *why, size_t capacity);
/* The options as the language writes them (":bf16:residual:eps=1e-06"), "" for the plain call. */
void ocft_options_text(const ocft_op_case *op, const ocft_options *o, char *out, size_t capacity);
/* The value of option `word` of op's case in o, or `otherwise` when it is not given (a switch
   given reads 1). */
double ocft_option_value(const ocft_op_case *op, const ocft_options *o, const char *word,
                         double otherwise);
/* The lines of op's options for a help text ("  norm  f32|f16|bf16  ..."), "" when it has none. */
void ocft_options_help(const ocft_op_case *op, char *out, size_t capacity);

/* ---- one call of an op: host arrays, device buffers, reference ---- */

typedef struct ocft_call {
  const ocft_op_case *op;
  size_t d[OCFT_MAX_DIMS];
  ocft_options options;
  ocft_extent extent;
  float *in[OCFT_MAX_OPERANDS]; /* the values, as their storage types hold them */
  float *got;      /* extent.out floats, NaN until an output is read or written into it */
  double *want;    /* the reference: of every output, or of the sampled rows' one after another */
  double *tol;     /* per-element tolerance, or NULL */
  size_t *sampled; /* the sampled rows of out (ascending), NULL: every output has its reference */
  size_t sampled_count, row_length;
  cl_mem in_mem[OCFT_MAX_OPERANDS], out_mem, extra_mem[OCFT_MAX_EXTRA];
} ocft_call;

/* Allocates the plain call's host arrays, fills the inputs (uniform in [-1, 1) from seed) and
   computes the reference; 0, or -1 when out of memory (the call is then empty and may be
   freed). */
int ocft_call_make(ocft_call *call, const ocft_op_case *op, const size_t *d, uint64_t seed);
/* The same for the call with options o (NULL: the plain call), the inputs rounded to their
   storage types; the reference of sampled rows only where the case allows it and the call's work
   passes OCFT_FULL_REFERENCE_WORK. */
int ocft_call_make_with(ocft_call *call, const ocft_op_case *op, const size_t *d,
                        const ocft_options *o, uint64_t seed);
/* The same call's inputs alone (the same values for the same seed): no reference and no got,
   for a call that is enqueued and never read back or checked (the tool's build pool). */
int ocft_call_make_unchecked(ocft_call *call, const ocft_op_case *op, const size_t *d,
                             const ocft_options *o, uint64_t seed);
/* Device buffers in cl: the inputs copied in their storage types, the outputs full of NaN;
   CL_SUCCESS or the error. */
cl_int ocft_call_buffers(ocft_call *call, cl_context cl);
/* The device form on the call's buffers, and the host form (the plain call's) into got. */
ocf_status ocft_call_device(ocft_call *call, ocf_context *ctx, const ocf_launch *launch);
ocf_status ocft_call_host(ocft_call *call, ocf_context *ctx);
/* Reads the output buffer into got on queue after `after` (NULL: none); a blocking read. */
cl_int ocft_call_read(ocft_call *call, cl_command_queue queue, cl_event after);
/* Compares got with the reference (a fresh check): every output, or the sampled rows' (the worst
   place then an index of the whole output). */
void ocft_call_check(const ocft_call *call, const ocf_device_info *device, ocft_check *check);
/* What the check compares, for reports: "all 67108864 outputs", "256 of 524288 rows (32768
   outputs)". */
void ocft_call_checked_text(const ocft_call *call, char *out, size_t capacity);
/* Releases what the call holds (the buffers too); an empty call is fine. */
void ocft_call_free(ocft_call *call);

#endif /* OCLFUSE_OP_CASES_H */
