/*
 * The oclfuse command-line tool: declarations shared by its source files.
 *
 *   main.c              dispatches the subcommands
 *   messages.c          errors, notes and progress on stderr; the help every command shares
 *   args.c              option and number parsing
 *   spec.c              the shape-and-call language of --sizes (bench, tune, check)
 *   clutil.c            small OpenCL helpers (program build, event times, buffers)
 *   data.c              host allocations (inputs: harness/fill.h)
 *   bench_ops.c         the tool's own series of each op (baselines, options), by op name
 *   verify.c            verdicts from the harness's comparisons (harness/tolerance.h)
 *   cmd_devices.c       `oclfuse devices`
 *   cmd_check.c         `oclfuse check`
 *   cmd_bench.c         `oclfuse bench`: options, default sweep, orchestration
 *   bench_add.c, bench_softmax.c, bench_matmul.c, bench_sweep.c   the measured series
 *   bench_generic.c     the series of an op the tool has none of its own for (the harness's
 *                       plain call: harness/op_cases.h)
 *   timing.c            device-side event timing, medians, the batch gate
 *   ceiling.c           copy bandwidth and FMA peak kernels
 *   clblast_baseline.c  CLBlast SGEMM (when built with CLBlast)
 *   results.c           the result rows and the values derived from them
 *   report.c            table, CSV and JSON output
 *   compare.c           --compare: two runs row by row (reads the JSON back)
 *   plot.c              PNG charts through gnuplot
 *
 * The ops are the harness's table (harness/op_cases.h): every command iterates it, and a tool_op
 * is an index into it.
 *
 * The tool is single-threaded, but for the warm-up's progress line (cmd_warmup.c). Helpers never
 * exit(): they return an error and leave the cleanup to their caller; only main() decides the exit
 * status.
 */
#ifndef OCLFUSE_TOOL_H
#define OCLFUSE_TOOL_H

#include "fill.h"
#include "oclfuse.h"
#include "op_cases.h"
#include "tolerance.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define TOOL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TOOL_PRINTF(f, a)
#endif

/* ---- main.c: subcommands (argv[0] is the subcommand's name); each returns the exit status ---- */

/* The exit statuses, the same for every command (tool_exit_status_table says them in words). */
#define TOOL_EXIT_OK 0      /* all good */
#define TOOL_EXIT_FAILURE 1 /* a wrong result, a failed call, or nothing measured */
#define TOOL_EXIT_USAGE 2   /* bad usage, a device named that is malformed or absent */

int cmd_devices(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_warmup(int argc, char **argv);

/* ---- messages.c ---- */

/* Sets the command named in every message: "bench" gives "oclfuse bench: ...". */
void tool_set_command(const char *name);
/* --quiet: no notes and no progress (errors still print). */
void tool_set_quiet(int on);
int tool_is_quiet(void);
/* "oclfuse <command>: <text>" on stderr: an error always, a note unless quiet. */
void tool_error(const char *fmt, ...) TOOL_PRINTF(1, 2);
void tool_note(const char *fmt, ...) TOOL_PRINTF(1, 2);
/* Progress of a run of `total` steps, timed from now. */
void tool_progress_begin(size_t total);
/* "[step/total] <text>, about XmYYs left" (from the time the steps before took), unless quiet. */
void tool_progress_step(size_t step, const char *fmt, ...) TOOL_PRINTF(2, 3);
/* A progress line as it is given, unless quiet. */
void tool_progress_text(const char *fmt, ...) TOOL_PRINTF(1, 2);
/* Clears a terminal's progress line; call it before printing results to stdout. */
void tool_progress_clear(void);
/* stop.c: SIGINT and SIGTERM ask a bench to stop after the call it is measuring (a second one
   ends the process); the series read tool_stop_requested between calls and return -1. */
void tool_stop_on_signals(void);
int tool_stop_requested(void);
/* "SIGINT" or "SIGTERM", the signal that asked; "" when none did. */
const char *tool_stop_signal_name(void);
/* Writes "function: argument: why (STATUS_NAME)" into err, right after a failed liboclfuse call,
   naming the function once whether or not ocf_last_error() starts with it. */
void tool_status_text(char *err, size_t errlen, const char *function, int status);
/* The same, returning TOOL_REFUSED for OCF_ERR_INVALID_WORKGROUP and TOOL_FAILED otherwise. */
int tool_library_failure(int status, const char *function, char *err, size_t errlen);
/* Whether a failed call's status says the device could not give it a buffer
   (CL_MEM_OBJECT_ALLOCATION_FAILURE, or CL_INVALID_BUFFER_SIZE: beyond
   CL_DEVICE_MAX_MEM_ALLOC_SIZE): what an unfused baseline's intermediate (attention's b h lq lk
   scores: 8.6 GB at 4 x 32 x 4096^2) meets on a smaller card. CL_OUT_OF_RESOURCES is not among
   them: NVIDIA's OpenCL says it for a kernel that cannot launch too. */
int tool_out_of_device_memory(int status);
/* Creates the context for `spec` (NULL: the default rule). Returns TOOL_EXIT_OK, or prints why
   and returns TOOL_EXIT_USAGE for a device named (--device or $OCLFUSE_DEVICE) that is malformed
   or matches nothing, TOOL_EXIT_FAILURE for anything else. */
int tool_open_context(const char *spec, ocf_context **ctx);
/* Prints "oclfuse VERSION" on stdout; returns TOOL_EXIT_OK. */
int tool_print_version(void);
/* The options every command takes (--device when with_device), and the exit status line. */
void tool_usage_common(FILE *out, int with_device);
/* The exit status table, for `oclfuse --help`. */
extern const char tool_exit_status_table[];
/* The environment variables the tool and the library read, for `oclfuse --help` (the man page's
   ENVIRONMENT section is written from it: cmake/manpage.cmake). */
extern const char tool_environment_table[];

/* ---- args.c ---- */

/* Parses a size: decimal digits or 2^E (E <= 62). Returns 0, or -1 for anything else. */
int tool_parse_size(const char *text, size_t *value);
/* Parses a positive decimal int no larger than `max`. Returns 0 or -1. */
int tool_parse_count(const char *text, int max, int *value);
/*
 * Matches argv[*i] against option `name` ("--device"): "--device=X" or "--device X".
 * Returns 1 and sets *value (advancing *i past a separate value), 0 when it is another option,
 * -1 when it is this option but the value is missing (an error has been printed).
 */
int tool_option(int argc, char **argv, int *i, const char *name, const char **value);

/* ---- spec.c: the shape-and-call language of --sizes (its grammar: spec.c, bench --help) ---- */

/* An op: its index in the harness's table (ocft_op_at). The ops the tool has series of its own
   for are named where that series is (bench_add.c, ...); their indices are the library's
   (cmd_tune.c checks them against tuning/tuning.h's). */
typedef int tool_op;
enum { TOOL_OP_ADD, TOOL_OP_SOFTMAX, TOOL_OP_MATMUL };
/* Room for this many ops in the tool's per-op arrays (tool_op_count() are used). */
enum { TOOL_MAX_OPS = 16 };
/* How many ops the table has (at most TOOL_MAX_OPS), and op's entry. */
int tool_op_count(void);
const ocft_op_case *tool_op_case(tool_op op);
/* The shape of op that a single number n of --sizes stands for (its case's from_n). */
void tool_dims_from_n(tool_op op, size_t n, size_t *d);

enum { TOOL_MAX_SPECS = 64 };

/* One call of one op: its sizes and every option the language has. */
typedef struct tool_spec {
  tool_op op;
  size_t d[OCFT_MAX_DIMS]; /* the op's shape (add: n; softmax: rows, cols; matmul: m, n, k) */
  int ndims;
  size_t offset; /* elements before each operand in its buffer */
  size_t pad;    /* leading dimensions (row strides) beyond the shortest legal one */
  /* matmul */
  ocf_transpose ta, tb;
  ocf_dtype a_dtype, b_dtype, c_dtype; /* the bias takes c_dtype */
  ocf_precision precision;
  ocf_layout layout;
  size_t batch; /* 1: one product */
  int share_a, share_b;
  ocf_activation activation;
  ocf_bias_axis bias_axis;
  float alpha, beta;
  /* softmax */
  ocf_dtype in_dtype, out_dtype;
  float scale;
  int log;
  int lengths;          /* 0 full rows, 1 random lengths in [0, cols], 2 every row `length` */
  size_t length;        /* with lengths 2 (above cols counts as cols) */
  int causal;           /* the causal band of ocf_softmax_options */
  size_t causal_period; /* with causal: rows per head; 0 (plain `causal`): rows */
  size_t causal_offset; /* with causal: key position of each head's first row */
  /* any op whose case declares options (harness/op_cases.h: norm, attention): its storage type
     and its own options, parsed by the harness */
  ocft_options opts;
} tool_spec;

typedef struct tool_spec_list {
  tool_spec specs[TOOL_MAX_SPECS];
  size_t count;
} tool_spec_list;

/* The op's name in the table ("add", "softmax", "matmul"); "?" for no op. */
const char *tool_op_name(tool_op op);
/* The op of that name, or -1. */
tool_op tool_op_from_name(const char *name);
/* The plain call of an op: fp32, row-major, no options (sizes 0). */
void tool_spec_init(tool_spec *s, tool_op op);
/* Parses one call "OP:DIMS[:OPTION...]" of text[0, len); 0, or -1 with err naming the token. */
int tool_spec_parse_call(const char *text, size_t len, tool_spec *s, char *err, size_t errlen);
/* Parses a --sizes text into calls for the ops with ops[op] set (plain sizes go to each of them
   that they fit); 0, or -1 with err naming the offending item or option. */
int tool_specs_parse(const char *text, const int ops[TOOL_MAX_OPS], tool_spec_list *list, char *err,
                     size_t errlen);
/* The calls of one op, in order; returns how many were copied. */
size_t tool_specs_of(const tool_spec_list *list, tool_op op, tool_spec *out, size_t capacity);
/* The bench's default calls of an op on a GPU (gpu 1) or a CPU device: its plain sizes, then its
   own calls (the harness's bench_gpu_calls / bench_cpu_calls), at most `capacity`, into out;
   returns how many, or -1 with err naming the call that does not parse. */
int tool_default_specs(tool_op op, int gpu, tool_spec *out, size_t capacity, char *err,
                       size_t errlen);
/* Non-zero when the call has no option (the plain fp32 call of ocf_add/softmax/matmul). */
int tool_spec_plain(const tool_spec *s);
/* Non-zero when the call has none of the tool's own options (every member but opts as
   tool_spec_init leaves it): a call the harness's op case makes (bench_generic.c). */
int tool_spec_case_call(const tool_spec *s);
/* The storage type of the call's first input (matmul's A, softmax's input, the case's dtype):
   the one its tuning key is by. */
ocf_dtype tool_spec_dtype(const tool_spec *s);
/* The options as the language writes them (":tn:bf16:batch=4"), "" for the plain call. */
void tool_spec_options_text(const tool_spec *s, char *out, size_t capacity);
/* The sizes and options: "n=1000", "4096x50257:bf16:log", "64x64x64:tn". */
void tool_spec_text(const tool_spec *s, char *out, size_t capacity);
/* The --op line of a command's help: "  --op OPS  add, softmax, matmul or all (default), ...",
   from the table. */
void tool_usage_ops(FILE *out);
/* The language in words, for the commands' help texts (and so the man page): the tool's own
   words, then each op case's (harness/op_cases.h). */
void tool_usage_sizes(FILE *out);

/* ---- clutil.c ---- */

/* Builds an OpenCL C source for the device. On failure prints the build log and returns NULL. */
cl_program tool_build_program(cl_context context, cl_device_id device, const char *source,
                              const char *options);
/* Device time in ms between two profiling points of events (CL_PROFILING_COMMAND_*). */
int tool_event_ns(cl_event event, cl_profiling_info what, cl_ulong *ns);
/* A device buffer of `floats` floats, copied from `host` when not NULL; NULL on failure (printed).
 */
cl_mem tool_buffer(ocf_context *ctx, size_t floats, const float *host);
/* Fills `floats` floats of a buffer with a quiet NaN (so an unwritten output never passes). */
int tool_poison(ocf_context *ctx, cl_mem buffer, size_t floats);
/* A device buffer of `bytes` bytes, copied from `host` when not NULL; NULL on failure (printed). */
cl_mem tool_buffer_bytes(ocf_context *ctx, size_t bytes, const void *host);
/* Fills `count` elements of storage type dtype with that type's quiet NaN. */
int tool_poison_dtype(ocf_context *ctx, cl_mem buffer, size_t count, ocf_dtype dtype);
/* The device's CL_DEVICE_MAX_MEM_ALLOC_SIZE (0 if unknown). */
cl_ulong tool_max_alloc(cl_device_id device);
/* "GPU", "CPU", "ACCELERATOR", ... for a device type. */
const char *tool_device_type_name(cl_device_type type);

/* ---- data.c ---- */

/* malloc of count elements (count 0 allocates one); NULL with a message on failure. */
float *tool_alloc_floats(size_t count);
double *tool_alloc_doubles(size_t count);
void *tool_alloc_bytes(size_t count);
/* Rounds values to what storage type dtype holds (round to nearest even, as the kernels store). */
void tool_round_to(ocf_dtype dtype, float *values, size_t count);
/* Writes count values into raw in storage type dtype (ocf_dtype_size(dtype) bytes each). */
void tool_encode(ocf_dtype dtype, const float *values, size_t count, void *raw);
/* Element i of raw, of storage type dtype, as a float (exact). */
float tool_decode(ocf_dtype dtype, const void *raw, size_t i);

/* ---- verify.c ---- */

/* The outcome of comparing an output with its reference, as the report shows it. */
typedef struct tool_verdict {
  double max_error;    /* in the measure below; +inf for a NaN or a wrong non-finite value */
  double tolerance;    /* the largest max_error that passes */
  const char *measure; /* "err/tol": the worst error as a fraction of its own tolerance */
  size_t checked;      /* elements compared */
  size_t worst;        /* index (in the compared arrays) of the worst element */
  int pass;
} tool_verdict;

/* An empty verdict: pass, nothing checked. */
void tool_verdict_init(tool_verdict *v);
/* The verdict of a comparison by the harness (ocft_check_elements, ocft_check_softmax, ...). */
void tool_verdict_set(tool_verdict *v, const ocft_check *check);

/* ---- results.c ---- */

typedef enum tool_row_status {
  ROW_OK = 0,  /* right, and timed */
  ROW_WRONG,   /* ran, but the output failed the check: not timed */
  ROW_REFUSED, /* the library refused the workgroup size (OCF_ERR_INVALID_WORKGROUP) */
  ROW_FAILED,  /* the call or its setup failed (note says why) */
  ROW_SKIPPED  /* not run on purpose (note says why) */
} tool_row_status;

const char *tool_row_status_name(tool_row_status status);

/* One measured (op, shape, variant, workgroup size). Unknown numbers are NaN. */
typedef struct tool_row {
  char op[16];     /* "add", "softmax", "matmul", "ceiling" */
  char shape[128]; /* "n=65536", "4096x4096", "1000x1000x1000:tn:bf16", ceiling: "n=..." */
  size_t dims[OCFT_MAX_DIMS]; /* add/ceiling: n; softmax: rows, cols; matmul: m, n, k */
  int ndims;
  char variant[16];      /* oclfuse, baseline, clblast, clblast-tuned, copy-kernel, ... */
  size_t workgroup_size; /* 0: the library's tuned default */
  int sweep;             /* part of the --sweep-wg series */
  tool_row_status status;
  int repeats;
  double median_ms, min_ms, max_ms;
  double p10_ms, p90_ms;     /* the repeats' 10th and 90th percentiles (the median is the 50th) */
  double rate;               /* GB/s or GFLOP/s from the median */
  const char *unit;          /* "GB/s" or "GFLOP/s" */
  double percent_of_ceiling; /* rate / measured ceiling * 100 */
  double speedup;            /* baseline median / this median (same op and shape) */
  double work;               /* bytes or flops of one call, for `rate` */
  tool_verdict verdict;      /* max_error is NaN when unchecked */
  char checked[64];          /* "all 65536 outputs", "8 sampled rows", ... */
  char note[256];            /* why it failed or was skipped, caveats */
  char plan[256];            /* what the library enqueued (ocf_last_plan), "" for others */
  size_t order;              /* insertion order, for stable sorting */
} tool_row;

typedef struct tool_results {
  tool_row *rows;
  size_t count, capacity;
} tool_results;

/* Appends a row with NaN numbers and the given names; NULL when out of memory (printed). */
tool_row *tool_results_add(tool_results *results, const char *op, const char *shape,
                           const char *variant);
void tool_results_free(tool_results *results);
/* Sets row->note from a format. */
void tool_row_note(tool_row *row, const char *fmt, ...) TOOL_PRINTF(2, 3);

/* The same run's measured ceiling. */
typedef struct tool_ceiling {
  double copy_kernel_gbps; /* float4 copy kernel, 2 x bytes / time */
  double copy_buffer_gbps; /* clEnqueueCopyBuffer */
  double copy_gbps;        /* the better of the two: softmax's %ceil (one read, one write) */
  double stream_gbps;      /* float4 out = x + y, 3 x bytes / time: add's %ceil */
  double fma_gflops;       /* FMA-chain kernel: matmul's %ceil */
  double cache_bytes;      /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: unknown) */
} tool_ceiling;

/* Fills percent_of_ceiling and speedup, then sorts rows by op, shape order and variant. */
void tool_results_finish(tool_results *results, const tool_ceiling *ceiling);

/* ---- timing.c ---- */

/* Enqueues one call; returns 0, TOOL_REFUSED, TOOL_SKIPPED or TOOL_FAILED (with the reason in
   err). TOOL_SKIPPED: an unfused baseline the device cannot give its memory (the op's own row is
   measured all the same): tool_measure skips its row with a note instead of failing it. */
#define TOOL_REFUSED 1
#define TOOL_SKIPPED 2
#define TOOL_FAILED (-1)
typedef int (*tool_enqueue_fn)(void *state, cl_event *event, char *err, size_t errlen);
/* Reads the output of the last call back and compares it with the reference. */
typedef int (*tool_verify_fn)(void *state, tool_verdict *verdict, char *err, size_t errlen);

typedef struct tool_timer {
  ocf_context *ctx;
  cl_command_queue queue;
  cl_program program;
  cl_kernel delay; /* one work-item spinning a dependent FMA chain: the batch gate */
  cl_mem delay_out;
  double iterations_per_ms; /* of the gate kernel, calibrated */
  double gate_ms;           /* the gate's fixed part */
  double budget_ms;         /* the time one measurement may take before repeats are cut (min 3) */
  int quiet;
  const tool_results *rows; /* progress: the row being measured is the count-th of these */
  /* `oclfuse check`: tool_measure runs and checks the call, and times nothing (a right row is
     ROW_OK with no times). Such a timer needs only ctx, queue, quiet and rows set. */
  int check_only;
  /* The cache flush before each timed call (timing.c): a buffer filled before the call, NULL
     for none (the calls then run back to back). */
  cl_mem flush;
  size_t flush_bytes;
} tool_timer;

int tool_timer_init(tool_timer *timer, ocf_context *ctx, double budget_ms, int quiet);
/* Flushes the cache with a fill of `bytes` (rounded down to 16) before each timed call; 0: none.
   0, or -1 when the buffer cannot be had (printed; the timer then has none). */
int tool_timer_set_flush(tool_timer *timer, size_t bytes);
/* The flush a command uses: --flush-mib when given (flush_mib >= 0), else 512 MiB on a GPU and
   none on a CPU device (speed is not measured there), at most the device's largest
   allocation. */
size_t tool_flush_bytes(int flush_mib, int gpu, cl_ulong max_alloc);
void tool_timer_release(tool_timer *timer);
/* A progress step (tool_progress_step) for the row being measured, unless the timer is quiet. */
void tool_progress(const tool_timer *timer, const char *fmt, ...) TOOL_PRINTF(2, 3);

/*
 * One measurement: runs the call once, verifies it (a wrong kernel is reported, never timed),
 * then times `repeats` calls back to back (see timing.c) and fills the row's status, times,
 * repeats and verdict. verify may be NULL (the ceiling kernels).
 */
void tool_measure(tool_timer *timer, tool_enqueue_fn enqueue, tool_verify_fn verify, void *state,
                  int repeats, tool_row *row);
/* Median of v[0..n) (sorts v in place). */
double tool_median(double *v, size_t n);
/* The q-quantile (0..1) of sorted[0..n), interpolated between neighbours; NaN for n 0. */
double tool_quantile(const double *sorted, size_t n, double q);

/* ---- ceiling.c ---- */

/* Measures the copy and stream bandwidths and the FMA peak, each the best of its calls,
   appending their rows; 0 or -1 (fatal). */
int tool_ceiling_measure(tool_timer *timer, int gpu, int repeats, tool_results *results,
                         tool_ceiling *ceiling);

/* ---- clblast_baseline.c ---- */

/* Non-zero when the tool was built with CLBlast. */
int tool_clblast_available(void);
/* Non-zero on devices whose tuned Xgemm parameters the tool knows (NVIDIA). */
int tool_clblast_tuned_applies(const ocf_device_info *info);
/* Row-major C = A * B (m x k times k x n, dense) with CLBlastSgemm; 0 or TOOL_FAILED. */
int tool_clblast_sgemm(cl_command_queue queue, size_t m, size_t n, size_t k, cl_mem a, cl_mem b,
                       cl_mem c, cl_event *event, char *err, size_t errlen);
/* Applies the H200-tuned Xgemm parameters to the device (per device, for the whole process). */
int tool_clblast_apply_tuned(cl_device_id device, char *err, size_t errlen);
/* Releases CLBlast's cached programs (call before releasing the context). */
void tool_clblast_release(void);

/* ---- the measured series (bench_*.c) ---- */

typedef struct tool_bench_env {
  ocf_context *ctx;
  ocf_device_info info;
  int gpu;
  cl_ulong max_alloc;
  tool_timer *timer;
  int repeats;
  tool_results *results;
  int library_only; /* the tuner: time the library's default variant only, no baselines */
} tool_bench_env;

/* Each returns 0, or -1 on a fatal error (out of host memory); op failures become rows. */
int tool_bench_add(tool_bench_env *env, const tool_spec *specs, size_t count);
int tool_bench_softmax(tool_bench_env *env, const tool_spec *specs, size_t count);
int tool_bench_matmul(tool_bench_env *env, const tool_spec *specs, size_t count);
/* --sweep-wg for the ops with ops[op] set, each on its table's sweep shape. */
int tool_bench_sweep(tool_bench_env *env, const int ops[TOOL_MAX_OPS]);
/* One call of the spec on fresh, unfilled buffers with these launch settings (its event, queue
   and wait list), for its programs rather than its result: the tuner's build pool enqueues it
   behind an event it completes later. 0, TOOL_REFUSED or TOOL_FAILED (err says why). */
int tool_add_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch, char *err,
                          size_t errlen);
int tool_softmax_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch,
                              char *err, size_t errlen);
int tool_matmul_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch,
                             char *err, size_t errlen);
/* The workgroup sizes a sweep tries: powers of two from 1 (CPU) or 32 (GPU) to the device's
   maximum, plus a few non-powers when `non_powers`. Returns how many were written. */
size_t tool_sweep_sizes(const tool_bench_env *env, int non_powers, size_t *sizes, size_t capacity);
/* One op's sweep over the workgroup sizes, on one shape (in bench_<op>.c). */
int tool_sweep_add(tool_bench_env *env, size_t n, const size_t *wgs, size_t count);
int tool_sweep_softmax(tool_bench_env *env, size_t rows, size_t cols, const size_t *wgs,
                       size_t count);
int tool_sweep_matmul(tool_bench_env *env, size_t n, const size_t *wgs, size_t count);

/* ---- bench_ops.c: the series of each op, its own where the tool has one, else the generic ---- */

typedef struct tool_op_series {
  const char *name; /* the op's name in the table (NULL: the generic series, any op) */
  /* The measured calls of specs (each spec's variants a row); 0, or -1 (fatal). */
  int (*bench)(tool_bench_env *env, const tool_spec *specs, size_t count);
  /* The rows bench adds per spec of op (its variants), for the progress count. */
  size_t (*rows_per_call)(const tool_bench_env *env, tool_op op);
  /* The workgroup sweep of op on the shape d. */
  int (*sweep)(tool_bench_env *env, tool_op op, const size_t *d, const size_t *wgs, size_t count);
  /* One call for its programs (the tuner's build pool): tool_add_enqueue_bare's contract. */
  int (*enqueue_bare)(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch, char *err,
                      size_t errlen);
} tool_op_series;

/* The series of an op: its own, or the generic one (bench_generic.c); NULL for no op. */
const tool_op_series *tool_series_of(tool_op op);

/* ---- bench_generic.c: an op through the harness's plain call (oclfuse, and the baseline where
   the op's case has one) ---- */

/* The rows tool_bench_generic adds per spec of op. */
size_t tool_generic_rows(const tool_bench_env *env, tool_op op);
int tool_bench_generic(tool_bench_env *env, const tool_spec *specs, size_t count);
int tool_sweep_generic(tool_bench_env *env, tool_op op, const size_t *d, const size_t *wgs,
                       size_t count);
int tool_generic_enqueue_bare(ocf_context *ctx, const tool_spec *s, const ocf_launch *launch,
                              char *err, size_t errlen);

/* Shared by the bench series: one measured variant of an op on a shape. */
typedef struct tool_variant {
  const char *name;    /* "oclfuse", "baseline", ... */
  ocf_variant variant; /* for library calls */
} tool_variant;

/* ---- tuner.c: the search over an op's tunables, independent of how a candidate is timed ---- */

typedef enum tune_outcome {
  TUNE_OK,    /* right, and timed: score_ms is the geometric mean of its shapes' medians */
  TUNE_WRONG, /* computed a wrong result on some shape: never chosen */
  TUNE_FAILED /* could not run (refused, failed to build): never chosen */
} tune_outcome;

enum { TUNE_MAX_SHAPES = 4 };

typedef struct tune_result {
  tune_outcome outcome;
  double score_ms;
  int shapes;                       /* how many of shape_ms hold times (0: none known) */
  double shape_ms[TUNE_MAX_SHAPES]; /* each shape's median, in the class's order */
} tune_result;

/* Measures one candidate: `values` is the full "name=value ..." text of the op's tunables. */
typedef void (*tune_measure_fn)(void *user, const char *values, tune_result *result);
/* Reports progress after each candidate (done of about `planned`); may be NULL. */
typedef void (*tune_progress_fn)(void *user, int done, int planned, const char *values,
                                 const tune_result *result, double best_ms);

typedef struct tune_search {
  int op;            /* the library's op index (tuning/tuning.h ocf_op) */
  const char *start; /* the values to start from (the choice in force) */
  tune_measure_fn measure;
  tune_progress_fn progress;
  void *user;
  double deadline_ms; /* on tool_clock_ms(): no new candidate is started after it */
  double min_gain;    /* a candidate must be this much faster to win (0.02: 2 %) */
  int max_passes;     /* rounds over every tunable (a round that changes nothing ends) */
  /* Nor may a winner be slower than the start on any one shape by more than this (0.02: 2 %):
     a faster mean bought with a slower shape is a loss for whoever runs that shape. */
  double max_shape_loss;
} tune_search;

/* Called with the candidates about to be measured (a tunable's neighbours, then the next
   tunable's as they would be if this one changes nothing), before the first of them is
   measured: a build pool compiles them meanwhile. */
typedef void (*tune_prepare_fn)(void *user, const char *const *values, int count);

typedef struct tune_summary {
  char best[2048]; /* the winning values (the start when nothing beat it) */
  double start_ms; /* the start's score (NaN when it could not be measured) */
  double best_ms;
  int evaluated, wrong, failed;
  int shape_losses; /* faster on the mean but slower than the start on some shape: refused */
  int complete;     /* every pass ran; 0 when the deadline cut it short */
} tune_summary;

/* How many candidates one pass from `values` tries (the planned count for progress lines). */
int tune_pass_size(int op, const char *values);
/* Coordinate descent: for each tunable in turn, the neighbours of its value (a quarter, half,
   double, four times; one up and down for small ranges) that pass the library's validator are
   measured, and the fastest right one replaces the current values when it wins by min_gain;
   passes repeat until one changes nothing. After the first pass, the tunables that gained go
   first, the largest gain first, so that a cut-short search has spent its time where the gain
   was. A wrong or failed candidate never wins. Returns 0, or -1 when the start itself could not
   be measured right (*summary says so). */
int tune_run(const tune_search *search, tune_summary *summary);
/* tune_run with a prepare callback (NULL: none). */
int tune_run_prepared(const tune_search *search, tune_prepare_fn prepare, tune_summary *summary);
/* Milliseconds on a monotonic clock. */
double tool_clock_ms(void);

/* ---- report.c ---- */

typedef enum tool_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } tool_format;

typedef struct tool_report_meta {
  const ocf_device_info *info;
  const tool_ceiling *ceiling;
  int repeats;
  const char *ops;
  int sweep_wg;
  size_t flush_bytes; /* the cache flush before each timed call (0: none, back to back) */
  double seconds;
  int interrupted; /* a signal stopped the run: the rows are those measured before it */
} tool_report_meta;

void tool_report(FILE *out, tool_format format, const tool_results *results,
                 const tool_report_meta *meta);
/* "softmax_rows/128" (+1 for each further kernel) from a plan's description (ocf_last_plan():
   "softmax_rows wg=128 groups=512 + ... (-D...)"); "" when there is none. */
void tool_plan_brief(const char *plan, char *out, size_t capacity);
/* Writes s as a JSON string literal, quotes included. */
void tool_json_string(FILE *out, const char *s);

/* ---- compare.c: --compare ---- */

/* Compares two saved runs (bench --format json) row by row on stdout; a TOOL_EXIT_ status
   (usage for a file that cannot be read or is not such a run, failure when no row matches). */
int tool_compare_files(const char *a_path, const char *b_path);
/* The same with this run's results as B. */
int tool_compare_run(const char *a_path, const tool_results *results, const tool_report_meta *meta);

/* ---- plot.c ---- */

/* Non-zero when gnuplot can be run. */
int tool_gnuplot_available(void);
/* Writes the data files, scripts and PNG charts into dir; 0 or -1 (printed). */
int tool_plot(const char *dir, const tool_results *results, const tool_ceiling *ceiling,
              const ocf_device_info *info);

#endif /* OCLFUSE_TOOL_H */
