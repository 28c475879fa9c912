/*
 * lab.h: the matrix-unit lab (lab/mma), one program that answers in one run on an NVIDIA GPU
 * what cl/matmul_mma_nv.cl relies on: which inline-PTX forms build and give right results
 * (probes), whether one warp's mma.sync fragments match the PTX tables (per data type), and how
 * fast and how accurate the GEMM is for each mode and tile configuration.
 *
 * Files: main.c (order of the run, time budget, watchdog, summary), cl_env.c (device, context,
 * parallel builds, recovery after a failed launch), numerics.c (CPU roundings and random
 * data), probes.c (the probe programs in lab/mma/probes/ and their checks), gemm.c (configs,
 * shapes, data, verification, timing), report.c (the log and the result table).
 */
#ifndef OCF_LAB_H
#define OCF_LAB_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stddef.h>
#include <stdint.h>

/* ---- numerics.c: CPU roundings, bit-exact with the device's ---- */

uint32_t lab_f32_bits(float x);
float lab_bits_f32(uint32_t u);
/* cvt.rna.tf32.f32: nearest, ties away from zero, 10 mantissa bits; NaN stays a NaN. */
float lab_tf32_rna(float x);
/* The 3XTF32 split: big = tf32(x), small = tf32(x - big), 0 when big is infinite. */
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

/* ---- report.c: the log file and the result table ---- */

int lab_log_open(const char *path);
void lab_log_close(void);
/* Writes to the log (always) and to stdout when echo. */
void lab_log(int echo, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes a long block (a build log) to the log only, between marker lines. */
void lab_log_block(const char *title, const char *text);

typedef enum lab_status {
  LAB_PASS = 0,
  LAB_FAIL,  /* built and ran, wrong result */
  LAB_BUILD, /* did not build */
  LAB_ERROR, /* a driver error (launch, finish, resources) */
  LAB_SKIP,  /* not run: a precondition (alignment, workgroup limit, missing build) */
  LAB_TIME,  /* not run: the time budget was spent */
  LAB_INFO   /* informational probe: built and ran, result described in detail */
} lab_status;
const char *lab_status_name(lab_status s);

/* One line of the summary table. */
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
  char detail[160];
} lab_row;
void lab_row_init(lab_row *row, const char *section, const char *name, const char *shape);
/* Appends a finished row to the table (thread-safe with the watchdog's printing). */
void lab_row_add(const lab_row *row);
/* Prints the table to stdout and the log; written by the main thread at the end and by the
   watchdog when the run overruns. */
void lab_table_print(void);
/* Writes the table to a file too. */
void lab_table_write(const char *path);

/* ---- main.c: the clock and the budget ---- */

double lab_now(void);           /* seconds since the start */
int lab_time_left(double need); /* 1 when `need` more seconds fit the soft budget */
void lab_set_activity(const char *what);

/* ---- cl_env.c: the device and its programs ---- */

typedef struct lab_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  unsigned generation; /* bumped when the context is recreated after a failure */
  int is_nvidia;
  int cc_major, cc_minor; /* compute capability, -1 if unknown */
  cl_ulong local_mem;
  size_t max_wg;
  const char *build_extra; /* "-cl-nv-verbose" where accepted, else "" */
} lab_env;

int lab_env_open(lab_env *env, const char *device_spec);
void lab_env_close(lab_env *env);
/* After a failed launch: checks the context with a tiny fill; if it is broken, creates a new
   context and queue (every program and buffer of the old one is gone: generation changes).
   Returns 1 if it recreated. */
int lab_env_recover(lab_env *env);
const char *lab_cl_error(cl_int err);

/* One program to build: its sources, options, and the outcome. */
typedef struct lab_build {
  const char *name;
  const char *sources[3]; /* NULL-terminated, concatenated in order */
  char options[512];
  /* out */
  cl_program program;
  unsigned generation;
  cl_int status; /* CL_SUCCESS or the build's error */
  double seconds;
  char *log; /* build log (malloc'd) */
  int regs, spill;
  int done; /* set by the pool under its lock */
} lab_build;

/* Builds jobs in `threads` worker threads, in order, while the caller goes on; every build log
   goes to the log. lab_build_wait returns once job `index` is done; lab_build_finish waits for
   all and frees the pool. lab_build_all does both. */
typedef struct lab_build_pool lab_build_pool;
lab_build_pool *lab_build_start(lab_env *env, lab_build *jobs, size_t count, int threads);
void lab_build_wait(lab_build_pool *pool, size_t index);
void lab_build_finish(lab_build_pool *pool);
void lab_build_all(lab_env *env, lab_build *jobs, size_t count, int threads);
/* Builds one finished job again if its program is from an older context (after a recovery). */
int lab_build_ensure(lab_env *env, lab_build *job);
void lab_build_release(lab_build *job);

/* Reads a whole text file (malloc'd, NUL-terminated) or NULL. */
char *lab_read_file(const char *path);

/* Runs a kernel and waits: returns CL_SUCCESS or the first error; *ms gets the profiled time. */
cl_int lab_run_kernel(lab_env *env, cl_kernel kernel, cl_uint dims, const size_t *global,
                      const size_t *local, double *ms);

/* ---- probes.c ---- */

typedef struct lab_probe_choice {
  int laddr;       /* OCF_MMA_LADDR that works, -1 none */
  int gaddr;       /* OCF_MMA_GADDR that works, -1 none */
  int asm_ok;      /* 1 __asm__ builds, 2 only asm, 0 neither */
  int inline_form; /* OCF_MMA_INLINE that builds */
} lab_probe_choice;

/* Builds and runs every probe; returns the address forms the GEMM should use. */
void lab_probes_run(lab_env *env, const char *root, int threads, lab_probe_choice *choice);
/* Writes every probe program's full source and options under dir (offline checks). */
int lab_probes_dump(const char *root, const char *dir);

/* ---- gemm.c ---- */

typedef struct lab_gemm_options {
  int quick;               /* small shapes only (a check of the lab itself) */
  int threads;             /* build threads */
  const char *ptx_dir;     /* where to write each GEMM program's PTX, or NULL */
  const char *kernel_path; /* the GEMM kernel file (default cl/matmul_mma_nv.cl under root) */
  int scale;               /* > 1: the large shapes divided by it (a check of the lab itself) */
} lab_gemm_options;

void lab_gemm_run(lab_env *env, const char *root, const lab_probe_choice *choice,
                  const lab_gemm_options *options);
int lab_gemm_dump(const char *root, const char *dir);

#endif
