/*
 * lab.h: the matrix-unit lab (tools/lab/mma), one program that answers in one run on an NVIDIA GPU
 * what cl/matmul_mma_nv.cl relies on: which inline-PTX forms build and give right results
 * (probes), whether one warp's mma.sync fragments match the PTX tables (per data type), and how
 * fast and how accurate the GEMM is for each mode and tile configuration.
 *
 * On NVIDIA a kernel that faults (a misaligned or out-of-range address) destroys the CUDA state
 * of its whole process: no new context can be made in it afterwards. So the lab is a driver
 * (driver.c) that does no OpenCL itself and runs every piece of work that could fault in a
 * child process (child.c: the same binary, started with --child; a process of its own for each
 * probe that could fault): a fault costs the row that faulted, and the driver starts a new
 * child for the rest of that job. One more child, the builder, compiles every program up front
 * in parallel threads and leaves the binaries in the work folder, from where the others load
 * them; then it holds its context to the end, which keeps the GPU initialised.
 *
 * Files: main.c (options, the clock), driver.c (the plan, the children, the budget), child.c
 * (one child's work), cl_env.c (device, context, builds and binaries, the health check),
 * numerics.c (CPU roundings and random data), probes.c (the probe programs in tools/lab/mma/probes/
 * and their checks), gemm.c (configs, shapes, data, verification, timing), report.c (the log,
 * the rows a child hands back, the result table and the summary).
 */
#ifndef OCF_LAB_H
#define OCF_LAB_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- numerics.c: CPU roundings, bit-exact with the device's ---- */

uint32_t lab_f32_bits(float x);
float lab_bits_f32(uint32_t u);
/* cvt.rna.tf32.f32: nearest, ties away from zero, 10 mantissa bits; NaN stays a NaN. */
float lab_tf32_rna(float x);
/* The 3XTF32 split: big = tf32(x), small = tf32(x - big) (NaN when x is infinite). */
void lab_split3(float x, float *big, float *small);
/* float -> f16 / bf16 bits, round to nearest even (overflow to infinity, NaN quiet), and back. */
uint16_t lab_f32_to_f16(float x);
float lab_f16_to_f32(uint16_t h);
uint16_t lab_f32_to_bf16(float x);
float lab_bf16_to_f32(uint16_t h);
/* Value x as stored in dtype (0 f32, 1 f16, 2 bf16) and read back. */
float lab_round_to(int dtype, float x);
/* Deterministic random numbers (splitmix64). */
uint64_t lab_rand_next(uint64_t *state);
/* Uniform in [-1, 1), a multiple of 2^-23. */
float lab_rand_unit(uint64_t *state);

/* ---- report.c: the log, the rows, the table ---- */

/* Opens the log for appending (the driver and every child write to the same file; each write
   is one append). */
int lab_log_open(const char *path);
void lab_log_close(void);
/* 1: lab_log(1, ...) also goes to stdout (the driver; children stay quiet unless --echo). */
void lab_log_set_echo(int echo);
/* Writes to the log (always) and to stdout when echo and echoing is on. */
void lab_log(int echo, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes a long block (a build log) to the log only, between marker lines. */
void lab_log_block(const char *title, const char *text);

typedef enum lab_status {
  LAB_PASS = 0,
  LAB_FAIL,  /* built and ran, wrong result */
  LAB_BUILD, /* did not build */
  LAB_ERROR, /* a driver error that left the context usable (launch refused, resources) */
  LAB_FAULT, /* the context was lost (a device fault), or the process died or hung */
  LAB_SKIP,  /* not run: a precondition (alignment, workgroup or local memory limit) */
  LAB_TIME,  /* not run: the time budget was spent */
  LAB_INFO   /* informational probe: built and ran, result described in detail */
} lab_status;
#define LAB_STATUS_COUNT (LAB_INFO + 1)
const char *lab_status_name(lab_status s);

/* One line of the result table. */
typedef struct lab_row {
  char section[16]; /* "probe", "gemm" */
  char name[64];
  char shape[40];
  lab_status status;
  double tflops, ms;        /* < 0: not timed */
  double err_mode;          /* max |got - want| / bound against the mode's own reference, in u */
  double rel_max, rel_mean; /* against the plain fp64 reference: |got - want| / |want| */
  double nrm_max;           /* against the plain fp64 reference: |got - want| / bound */
  int regs, spill;          /* from the build log (-1: unknown) */
  int timed;                /* a timed shape (the summary lists these one by one) */
  char detail[192];
} lab_row;
void lab_row_init(lab_row *row, const char *section, const char *name, const char *shape);

/* In a child, rows are handed back through a file (one line each, written as each finishes, so
   that a fault later in the child loses none); in the driver they go to the table. */
int lab_rows_to_file(const char *path);
/* Hands a finished row on: to the file in a child, to the table (and the log) in the driver. */
void lab_row_add(const lab_row *row);
/* Reads the rows a child wrote (at most max). */
size_t lab_rows_read(const char *path, lab_row *rows, size_t max);
/* The table so far. */
const lab_row *lab_table_rows(size_t *count);
/* The full table (every row) and the summary (probes in one line each, the small shapes of a
   configuration in one line, every timed row, every row that did not pass). */
void lab_table_write(FILE *out);
void lab_summary_write(FILE *out, double seconds);

/* ---- main.c: the clock and the options ---- */

double lab_now(void); /* seconds since the process started */

typedef struct lab_probe_choice {
  int laddr;       /* OCF_MMA_LADDR that works, -1 none */
  int gaddr;       /* OCF_MMA_GADDR that works, -1 none */
  int asm_ok;      /* 1 __asm__ builds, 2 only asm, 0 neither */
  int inline_form; /* OCF_MMA_INLINE that builds */
} lab_probe_choice;
/* What the kernel file assumes when nothing is probed: the forms its defaults use. */
#define LAB_CHOICE_DEFAULT \
  { 0, 0, 1, 0 }

typedef struct lab_options {
  const char *root;        /* the repository */
  const char *work;        /* the output folder: log, table, binaries under bin/ */
  const char *device;      /* a substring of the device's name or vendor, or NULL */
  const char *kernel_path; /* the GEMM kernel file (default cl/matmul_mma_nv.cl under root) */
  double budget;           /* seconds for the whole run (the driver's) */
  int threads;             /* build threads of the builder */
  int quick;               /* small shapes only (a check of the lab itself) */
  int probes;              /* 0: no probes (the GEMM uses LAB_CHOICE_DEFAULT) */
  int scale;               /* > 1: the large shapes divided by it (a check of the lab itself) */
  lab_probe_choice choice; /* the address forms the GEMM is built with */
} lab_options;

/* ---- cl_env.c: the device, programs, binaries ---- */

typedef struct lab_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  int is_nvidia;
  int cc_major, cc_minor; /* compute capability, -1 if unknown */
  cl_ulong local_mem;
  size_t max_wg;
  const char *build_extra; /* "-cl-nv-verbose" where accepted, else "" */
} lab_env;

/* Finds the device (an NVIDIA GPU unless device_spec names another) and makes a context and a
   profiling queue. describe: log the device's facts (echoed). */
int lab_env_open(lab_env *env, const char *device_spec, int describe);
void lab_env_close(lab_env *env);
/* 1 if the context still works (a tiny fill and finish); after a device fault it does not. */
int lab_env_alive(lab_env *env);
/* The error's name, or "CL error N" (thread-safe, valid until 8 more calls in the thread). */
const char *lab_cl_error(cl_int err);

/* What to build: sources (files under root, concatenated) and options. Its binary and build
   facts live under <work>/bin/<id>.{bin,opts,info}. */
typedef struct lab_program_spec {
  char id[32];            /* "probe_07", "gemm_03" */
  char name[64];          /* for the log */
  char paths[2][1024];    /* source files, the second may be empty */
  char options[512];      /* build options, without -cl-nv-verbose */
  char kernel[32];        /* the kernel the lab runs */
  char extra_kernels[64]; /* other kernels in it, comma-separated (offline checks) */
} lab_program_spec;

/* A built program (or why not). */
typedef struct lab_program {
  cl_program program;
  cl_int status;          /* CL_SUCCESS or the build's error */
  int regs, spill, stack; /* from ptxas's verbose output (-1 unknown) */
  double seconds;         /* build time (the builder's, when loaded from its binary) */
  int from_binary;
  char error[160]; /* the first error line of a failed build */
} lab_program;

/* Builds every spec in `threads` threads, writing each binary and its facts under
   <work>/bin as it finishes (the builder child). */
void lab_build_all(lab_env *env, const lab_program_spec *specs, size_t count, int threads,
                   const char *work);
/* 1 when the builder has finished spec `id` (its facts file exists); 1 when it has started it. */
int lab_build_done(const char *work, const char *id);
int lab_build_started(const char *work, const char *id);
/* The program of a spec: from the builder's binary when it was built with the same options,
   else built here from source. Returns 1 when it is usable. */
int lab_program_get(lab_env *env, const lab_program_spec *spec, const char *work, lab_program *out);
void lab_program_release(lab_program *p);
/* Reads a whole text file (malloc'd, NUL-terminated) or NULL. */
char *lab_read_file(const char *path);

/* Runs a kernel and waits: returns CL_SUCCESS or the first error; *ms gets the profiled time. */
cl_int lab_run_kernel(lab_env *env, cl_kernel kernel, cl_uint dims, const size_t *global,
                      const size_t *local, double *ms);

/* ---- probes.c ---- */

size_t lab_probe_count(void);
const char *lab_probe_name(size_t i);
/* -1: a probe the lab runs at the end (expected to fault); 0: one that needs a process of its
   own (it could fault); > 0: its group, whose neighbouring probes share a process. */
int lab_probe_group(size_t i);
/* Bytes of local memory a local-memory probe declares, 0 for the others. */
int lab_probe_local_bytes(size_t i);
void lab_probe_spec(size_t i, const lab_options *o, lab_program_spec *spec);
/* Builds (or loads) and runs probe i in this process; the row is filled, not added. */
void lab_probe_run(lab_env *env, const lab_options *o, size_t i, lab_row *row);
/* The address forms and spellings the GEMM should be built with, from the probes' rows. */
void lab_probe_choose(const lab_row *rows, size_t count, lab_probe_choice *choice);

/* ---- gemm.c ---- */

enum { LAB_ROLE_NEW, LAB_ROLE_DEFAULT, LAB_ROLE_ALT, LAB_ROLE_TRANS, LAB_ROLE_GENERAL };
typedef struct lab_gemm_info {
  char name[64];
  const char *mode; /* "bf16", "f16", "tf32", "3xtf32" */
  int role;
  int local_bytes;  /* the stages' local memory */
  int sweep;        /* fp32 C, NN, 16-byte loads: a candidate for the best of its mode */
  int timed_shapes; /* which timed shapes its first job runs: LAB_SHAPES_* */
  int tight;        /* small shapes with tight strides and odd offsets (general load paths) */
} lab_gemm_info;
enum { LAB_SHAPES_NONE, LAB_SHAPES_4096, LAB_SHAPES_SQUARES, LAB_SHAPES_GENERAL, LAB_SHAPES_NEW };

size_t lab_gemm_config_count(void);
void lab_gemm_describe(size_t config, lab_gemm_info *info);
/* Shapes by id: the small checked ones, the timed ones. */
size_t lab_gemm_shape_count(void);
const char *lab_gemm_shape_name(size_t id);
int lab_gemm_shape_timed(size_t id);
/* Seconds a shape should take at most (data, references, checked and timed runs at a
   pessimistic 20 TFLOP/s), for the budget and the child's time limit. */
double lab_gemm_shape_seconds(size_t id, int scale);
/* The shape ids of a group: small, small tight, squares, 4096^3 alone, rectangles, the general
   paths' timed shapes. Returns how many. */
enum {
  LAB_GROUP_SMALL,
  LAB_GROUP_TIGHT,
  LAB_GROUP_SQUARES,
  LAB_GROUP_4096,
  LAB_GROUP_RECT,
  LAB_GROUP_GENERAL,
  LAB_GROUP_NEW /* 4096^3, 8192^3 and 4097x4095x4104 */
};
size_t lab_gemm_group(int group, size_t *ids, size_t max);
void lab_gemm_spec(size_t config, const lab_options *o, lab_program_spec *spec);
/* Runs configuration `config` on the shapes in this process, adding a row for each. Stops
   after a row that faulted (the context is gone); returns 0 then. */
int lab_gemm_run(lab_env *env, const lab_options *o, size_t config, const size_t *shapes,
                 size_t count);

/* ---- child.c and driver.c ---- */

/* The child's work: "build" (every program), "probe" (items: probe indices) or "gemm" (config,
   items: shape ids). Exit status: 0 done, 4 a row faulted, 1 could not start. */
int lab_child_main(const lab_options *o, const char *kind, int config, const size_t *items,
                   size_t count, const char *rows_path);
/* The driver: the whole run; summary: print the summary at the end. */
int lab_driver_main(const lab_options *o, const char *self, int summary);
/* Writes every program's full source and options under dir (the offline check). */
int lab_dump(const lab_options *o, const char *dir);

#endif
