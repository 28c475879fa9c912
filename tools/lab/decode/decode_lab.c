/*
 * decode_lab.c: times decode_bulk_nv.cl (decoding attention with K and V streamed into a ring of
 * local-memory stages by Hopper's bulk copy) beside the library's ocf_attention on the same
 * inputs, after checking both against a double-precision reference (README.md).
 *
 *   decode_lab [-s SHAPE]... [-c CONFIG]... [options]
 *
 *   SHAPE   [bf16:|f16:]BxHxH_KVxLKxD          (default: the six shapes of default_shapes)
 *   CONFIG  WG,BK,STAGES,FILL[,ISSUE[,LPK[,ARRIVE[,JOIN]]]]   (default: default_configs)
 *           FILL: workgroups a compute unit the ranges aim at, 0: as many as fit one (local
 *           memory, work-items); ISSUE 0, 1, 2, ARRIVE and JOIN as decode_bulk_nv.cl says; LPK 0:
 *           d / 16 (raised to WG / BK where a tile has fewer keys than key groups)
 *   -r N          timed repetitions (20; 3 warm-ups before them)
 *   -t SECONDS    no (shape, config) starts after this many seconds (0: no limit)
 *   -d SPEC       the device, as ocf_context_create reads a spec (default: OCLFUSE_DEVICE, else
 *                 the first GPU): `-d portable` runs the emulated kernels on PoCL
 *   --no-lib      skip ocf_attention
 *   --nofork      run every shape in this process (a kernel fault then ends the run)
 * Environment: DECODE_SHAPES and DECODE_CONFIGS (space-separated lists, instead of -s and -c),
 * DECODE_REPS, DECODE_SECONDS, DECODE_CL (the kernel file; default the lab's folder),
 * DECODE_EMULATE (0/1: force the form; default 0 on NVIDIA compute capability 9.0 and up, else
 * 1), DECODE_FLUSH_MB (the L2 flush: 512 on a GPU, 8 on a CPU), DECODE_TOL (2e-2),
 * DECODE_INIT_FENCE (1), DECODE_PROXY_FENCE (0), DECODE_WAIT_LIMIT (0: none; polls of an
 * mbarrier before a trap), DECODE_BIN_CACHE (a folder: programs kept as binaries, PTX on
 * NVIDIA, and loaded from there by the children of later shapes),
 * DECODE_PTX_DIR (NVIDIA: each program's PTX written there), DECODE_CONFIG_LIMIT (seconds one
 * config may take before its process is killed: 60; the library's first call: DECODE_LIB_LIMIT,
 * 120; a shape's inputs and reference: DECODE_SETUP_LIMIT, 300).
 *
 * Output (stdout), one line each: `RESULT shape=... cfg=... us=... GBps=... split_us=...
 * split_GBps=... ...` for every timed config and for the library (cfg=lib); `FAIL ...` for a
 * config that did not build, launch or check; `SKIP ...`; `PTXAS ...` (NVIDIA's register and
 * spill counts). GB/s count the K and V bytes read once; us is the first kernel's start to the
 * last kernel's end (median), split_us the first kernel's own time. Exit status 1 when any check
 * failed.
 *
 * A kernel that faults on NVIDIA destroys its process's CUDA state, and a lost mbarrier phase
 * hangs, so each shape runs in a child process (this program with --child); the driver restarts
 * a child that died or hung past the config it was on.
 */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <errno.h>
#include <math.h>
#include <oclfuse.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef DECODE_LAB_DIR
#define DECODE_LAB_DIR "tools/lab/decode"
#endif
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#endif

enum { MERGE_WG = 128, MAX_RANGES = 256, MAX_ITEMS = 64, WARMUPS = 3, MAX_BUILDS = 96 };
/* Hopper: 228 KiB of shared memory a multiprocessor, at most 227 KiB a workgroup, 1 KiB each
   reserved by the system; 2048 work-items. */
enum { SM_SMEM = 233472, WG_SMEM_MAX = 232448, SM_THREADS = 2048 };

static const char default_shapes[] = "bf16:1x32x32x8192x128 bf16:16x32x32x4096x128 "
                                     "bf16:4x32x32x8192x128 bf16:1x32x32x32768x128 "
                                     "bf16:1x32x32x8192x64 bf16:1x32x8x8192x128";
/* BK 16/32/64 x STAGES 3/4/6 x WG 128/256 with the ranges filling the units, then, around
   WG 128 BK 32 STAGES 4: the other issuers, one arrival a warp, fixed fills, lanes a key, and the
   join in the same kernel. */
static const char default_configs[] =
    "128,16,3,0 128,16,4,0 128,16,6,0 128,32,3,0 128,32,4,0 128,32,6,0 "
    "128,64,3,0 128,64,4,0 128,64,6,0 256,16,3,0 256,16,4,0 256,16,6,0 "
    "256,32,3,0 256,32,4,0 256,32,6,0 256,64,3,0 256,64,4,0 256,64,6,0 "
    "128,32,4,0,1 128,32,4,0,2 256,64,4,0,2 128,32,4,0,0,0,1 "
    "128,32,4,2 128,32,4,4 128,32,4,8 128,32,4,0,0,4 128,32,4,0,0,16 "
    "128,32,4,0,0,0,0,1 256,64,4,0,0,0,0,1 128,32,4,0,2,0,0,1 128,64,4,0,0,0,0,1";
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
  int dtype; /* 1 f16, 2 bf16 (ocf_dtype) */
  size_t b, h, h_kv, lk, d;
} shape;

typedef struct {
  int wg, bk, stages, fill, issue, lpk, arrive, join;
} config;

typedef struct {
  const char *shapes[MAX_ITEMS], *configs[MAX_ITEMS];
  int nshapes, nconfigs, reps, nofork, no_lib;
  double seconds;
  const char *device;
  /* child mode */
  int child_shape, from;
  const char *status;
  double deadline; /* CLOCK_REALTIME seconds, 0: none */
} options;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
}

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && v[0] ? v : fallback;
}

/* ---- shapes and configs ---- */

static int parse_shape(const char *text, shape *s) {
  s->dtype = 2;
  if (!strncmp(text, "bf16:", 5))
    text += 5;
  else if (!strncmp(text, "f16:", 4))
    text += 4, s->dtype = 1;
  char tail;
  if (sscanf(text, "%zux%zux%zux%zux%zu%c", &s->b, &s->h, &s->h_kv, &s->lk, &s->d, &tail) != 5)
    return 0;
  return s->b && s->h && s->h_kv && s->lk && s->d && s->h % s->h_kv == 0;
}

static void shape_name(const shape *s, char *out, size_t size) {
  snprintf(out, size, "%s:%zux%zux%zux%zux%zu", s->dtype == 1 ? "f16" : "bf16", s->b, s->h, s->h_kv,
           s->lk, s->d);
}

static int parse_config(const char *text, config *c) {
  int v[8] = {0, 0, 0, 0, 0, 0, 0, 0}, n = 0;
  const char *p = text;
  while (n < 8) {
    char *end;
    const long x = strtol(p, &end, 10);
    if (end == p || x < 0 || x > 1 << 20) return 0;
    v[n++] = (int)x;
    if (*end == 0) break;
    if (*end != ',') return 0;
    p = end + 1;
  }
  if (n < 4) return 0;
  c->wg = v[0], c->bk = v[1], c->stages = v[2], c->fill = v[3], c->issue = v[4], c->lpk = v[5];
  c->arrive = v[6], c->join = v[7];
  return 1;
}

static void config_name(const config *c, char *out, size_t size) {
  snprintf(out, size, "wg%d.bk%d.st%d.f%d.i%d.l%d.a%d.j%d", c->wg, c->bk, c->stages, c->fill,
           c->issue, c->lpk, c->arrive, c->join);
}

static int is_pow2(int x) {
  return x > 0 && (x & (x - 1)) == 0;
}

/* The config as it runs on shape s (LPK resolved), or 0 with the reason in why. */
static int resolve(const config *in, const shape *s, config *c, char *why, size_t size) {
  *c = *in;
  const int d = (int)s->d, chunks = d / 8;
  if (d % 8 || d > 256) return snprintf(why, size, "d must be a multiple of 8 up to 256"), 0;
  if (c->lpk == 0) {
    c->lpk = 1;
    while (c->lpk * 2 <= d / 16 && chunks % (c->lpk * 2) == 0)
      c->lpk *= 2;
    while (c->bk > 0 && c->wg / c->lpk > c->bk && c->lpk < 32 && chunks % (c->lpk * 2) == 0)
      c->lpk *= 2;
  }
  if (c->wg < 32 || c->wg % 32) return snprintf(why, size, "WG must be whole warps"), 0;
  if (!is_pow2(c->lpk) || c->lpk > 32 || c->wg % c->lpk || chunks % c->lpk)
    return snprintf(why, size, "LPK %d must be a power of two <= 32 dividing WG and d/8", c->lpk),
           0;
  if (c->bk <= 0 || c->bk % (c->wg / c->lpk))
    return snprintf(why, size, "BK %d must be a multiple of WG/LPK = %d", c->bk, c->wg / c->lpk), 0;
  if (c->stages < 2 || c->issue > 2 || c->arrive > 1 || c->join > 1)
    return snprintf(why, size, "STAGES >= 2, ISSUE 0..2, ARRIVE and JOIN 0..1"), 0;
  return 1;
}

static int threads_of(const config *c) {
  return c->wg + (c->issue == 2 ? 32 : 0);
}

/* decode_bulk_split's local memory in bytes (its SMEM_CHUNKS, and red when emulated). */
static size_t smem_bytes(const config *c, const shape *s, int group, int emulate) {
  const size_t chunks = s->d / 8, kg = (size_t)(c->wg / c->lpk);
  const size_t ring = (size_t)c->stages * 2 * c->bk * chunks, groups = (kg * (s->d + 2) + 3) / 4;
  const size_t merge = c->join ? MAX_RANGES / 2 : 0, area = groups > merge ? groups : merge;
  const size_t bars = ((size_t)2 * c->stages * 8 + 4 + 15) / 16;
  size_t bytes = 16 * (1 + bars + (ring > area ? ring : area));
  if (emulate) bytes += 4 * (size_t)(c->bk / kg) * group * threads_of(c);
  return bytes;
}

/* ---- host data ---- */

static float half_to_float(uint16_t h) {
  const unsigned e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 1024), (int)e - 25);
  if (e == 31) v = m ? NAN : INFINITY;
  return h & 0x8000 ? -v : v;
}

static float word_to_float(uint16_t w, int dtype) {
  if (dtype == 1) return half_to_float(w);
  const uint32_t u = (uint32_t)w << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* n random 16-bit values: bf16 in [-2, 2) (a float's top half), f16 +-[0.5, 1) (exact). */
static uint16_t *random_words(size_t n, int dtype, unsigned seed) {
  uint16_t *p = malloc(n * 2);
  if (!p) return NULL;
  uint32_t state = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    if (dtype == 1) {
      p[i] = (uint16_t)(0x3800 | ((state >> 14) & 0x3ff) | ((state >> 31) << 15));
    } else {
      const float v = (float)(state >> 8) * (4.0f / 16777216.0f) - 2.0f;
      uint32_t u;
      memcpy(&u, &v, 4);
      p[i] = (uint16_t)(u >> 16);
    }
  }
  return p;
}

/* out = softmax(Q K^T / sqrt(d)) V in double, for every row (b h rows of d). */
static void reference(const shape *s, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      double *out) {
  static float tab[65536];
  for (uint32_t w = 0; w < 65536; w++)
    tab[w] = word_to_float((uint16_t)w, s->dtype);
  const size_t group = s->h / s->h_kv, d = s->d, lk = s->lk;
  const double scale = 1.0 / sqrt((double)d);
  double *p = malloc(lk * sizeof *p), *qd = malloc(d * sizeof *qd);
  for (size_t row = 0; row < s->b * s->h; row++) {
    const size_t unit = row / s->h * s->h_kv + row % s->h / group;
    const uint16_t *kb = k + unit * lk * d, *vb = v + unit * lk * d;
    for (size_t c = 0; c < d; c++)
      qd[c] = tab[q[row * d + c]];
    double mx = -INFINITY, sum = 0.0;
    for (size_t j = 0; j < lk; j++) {
      double dot = 0.0;
      for (size_t c = 0; c < d; c++)
        dot += qd[c] * tab[kb[j * d + c]];
      p[j] = dot * scale;
      if (p[j] > mx) mx = p[j];
    }
    for (size_t j = 0; j < lk; j++)
      sum += p[j] = exp(p[j] - mx);
    double *o = out + row * d;
    for (size_t c = 0; c < d; c++)
      o[c] = 0.0;
    for (size_t j = 0; j < lk; j++)
      for (size_t c = 0; c < d; c++)
        o[c] += p[j] * tab[vb[j * d + c]];
    for (size_t c = 0; c < d; c++)
      o[c] /= sum;
  }
  free(p);
  free(qd);
}

/* ---- OpenCL ---- */

typedef struct {
  ocf_context *ctx;
  cl_context cl;
  cl_device_id dev;
  cl_command_queue queue;
  cl_mem flush;
  size_t flush_bytes;
  int nvidia, cc_major, emulate, cpu;
  cl_uint units;
  cl_ulong local_max;
  char *source;
  size_t source_len;
  struct {
    char opts[640];
    cl_program prog;
    cl_kernel split, merge;
    int ok;
  } builds[MAX_BUILDS];
  int nbuilds;
} lab;

/* One shape's buffers, host inputs and reference. */
typedef struct {
  shape s;
  uint16_t *q, *k, *v, *got;
  double *ref;
  cl_mem Q, K, V, O, ml, acc, counters;
} shape_data;

static int cl_fail(const char *what, cl_int err) {
  say("FAIL opencl %s: error %d\n", what, (int)err);
  return 0;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *text = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    const long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) &&
        fread(text, 1, (size_t)n, f) == (size_t)n) {
      text[n] = 0;
      *len = (size_t)n;
    } else {
      free(text);
      text = NULL;
    }
  }
  fclose(f);
  return text;
}

static int lab_open(lab *L, const options *o) {
  memset(L, 0, sizeof *L);
  if (ocf_context_create(o->device, &L->ctx)) {
    say("FAIL ocf_context_create: %s\n", ocf_last_error());
    return 0;
  }
  L->cl = ocf_context_cl_context(L->ctx);
  L->dev = ocf_context_device(L->ctx);
  cl_int err;
  L->queue = clCreateCommandQueue(L->cl, L->dev, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err) return cl_fail("clCreateCommandQueue", err);
  char vendor[256] = "", name[256] = "";
  cl_device_type type = 0;
  clGetDeviceInfo(L->dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
  clGetDeviceInfo(L->dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(L->dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  clGetDeviceInfo(L->dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof L->units, &L->units, NULL);
  clGetDeviceInfo(L->dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof L->local_max, &L->local_max, NULL);
  L->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  L->nvidia = strstr(vendor, "NVIDIA") != NULL;
  cl_uint cc = 0;
  if (L->nvidia &&
      clGetDeviceInfo(L->dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof cc, &cc, NULL) == 0)
    L->cc_major = (int)cc;
  L->emulate = !(L->nvidia && L->cc_major >= 9);
  const char *em = getenv("DECODE_EMULATE");
  if (em && em[0]) L->emulate = atoi(em) != 0;
  L->flush_bytes = (size_t)atol(env_or("DECODE_FLUSH_MB", L->cpu ? "8" : "512")) << 20;
  if (L->flush_bytes) {
    L->flush = clCreateBuffer(L->cl, CL_MEM_READ_WRITE, L->flush_bytes, NULL, &err);
    if (err) return cl_fail("clCreateBuffer (flush)", err);
  }
  const char *path = env_or("DECODE_CL", DECODE_LAB_DIR "/decode_bulk_nv.cl");
  L->source = read_file(path, &L->source_len);
  if (!L->source) {
    say("FAIL cannot read %s\n", path);
    return 0;
  }
  say("DEVICE %s (%s), %u compute units, compute capability %d, %s kernels, flush %zu MiB\n", name,
      vendor, L->units, L->cc_major, L->emulate ? "emulated (BULK_EMULATE=1)" : "PTX",
      L->flush_bytes >> 20);
  return 1;
}

static void lab_close(lab *L) {
  for (int i = 0; i < L->nbuilds; i++) {
    if (L->builds[i].split) clReleaseKernel(L->builds[i].split);
    if (L->builds[i].merge) clReleaseKernel(L->builds[i].merge);
    if (L->builds[i].prog) clReleaseProgram(L->builds[i].prog);
  }
  if (L->flush) clReleaseMemObject(L->flush);
  if (L->queue) clReleaseCommandQueue(L->queue);
  free(L->source);
  ocf_context_release(L->ctx);
}

/* NVIDIA's ptxas lines of a build log (-cl-nv-verbose), as PTXAS lines. */
static void print_ptxas(const char *key, const char *log) {
  const char *line = log;
  while (line && *line) {
    const char *end = strchr(line, '\n');
    const int n = end ? (int)(end - line) : (int)strlen(line);
    char text[512];
    snprintf(text, sizeof text, "%.*s", n < 511 ? n : 511, line);
    if (strstr(text, "Used") || strstr(text, "spill")) say("PTXAS %s %s\n", key, text);
    line = end ? end + 1 : NULL;
  }
}

/* The program's binary (PTX on NVIDIA), malloc'd, or NULL. */
static unsigned char *program_binary(cl_program prog, size_t *size) {
  *size = 0;
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) || !*size)
    return NULL;
  unsigned char *bin = malloc(*size);
  if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL)) {
    free(bin);
    bin = NULL;
  }
  return bin;
}

/* Writes size bytes to path through a temporary file and a rename. */
static void write_bytes(const char *path, const unsigned char *data, size_t size) {
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return;
  const int ok = fwrite(data, 1, size, f) == size;
  if (fclose(f) == 0 && ok)
    rename(tmp, path);
  else
    remove(tmp);
}

/* FNV-1a of the source and the options: the binary cache's key. */
static uint64_t program_hash(const lab *L, const char *opts) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < L->source_len; i++)
    h = (h ^ (unsigned char)L->source[i]) * 1099511628211ull;
  for (const char *p = opts; *p; p++)
    h = (h ^ (unsigned char)*p) * 1099511628211ull;
  return h;
}

/* The program from the binary cache (DECODE_BIN_CACHE), built, or NULL. */
static cl_program cached_program(lab *L, const char *path, const char *opts) {
  size_t size = 0;
  char *bin = read_file(path, &size);
  if (!bin) return NULL;
  cl_int err, status;
  const unsigned char *b = (const unsigned char *)bin;
  cl_program prog = clCreateProgramWithBinary(L->cl, 1, &L->dev, &size, &b, &status, &err);
  free(bin);
  if (err || status) return NULL;
  if (clBuildProgram(prog, 1, &L->dev, opts, NULL, NULL)) {
    clReleaseProgram(prog);
    return NULL;
  }
  return prog;
}

/* The program of config c for shape s (built once), or NULL with a FAIL line. */
static int build(lab *L, const config *c, const shape *s, const char *label, cl_kernel *split,
                 cl_kernel *merge) {
  char opts[640], key[160];
  const int group = (int)(s->h / s->h_kv);
  snprintf(opts, sizeof opts,
           "-cl-std=CL1.2 -DDTYPE=%d -DD=%zu -DGROUP=%d -DWG=%d -DLPK=%d -DBK=%d -DSTAGES=%d "
           "-DISSUE=%d -DARRIVE=%d -DJOIN=%d -DINIT_FENCE=%d -DPROXY_FENCE=%d -DWAIT_LIMIT=%su "
           "-DBULK_EMULATE=%d -DMERGE_WG=%d -DMAX_RANGES=%d%s",
           s->dtype, s->d, group, c->wg, c->lpk, c->bk, c->stages, c->issue, c->arrive, c->join,
           atoi(env_or("DECODE_INIT_FENCE", "1")), atoi(env_or("DECODE_PROXY_FENCE", "0")),
           env_or("DECODE_WAIT_LIMIT", "0"), L->emulate, MERGE_WG, MAX_RANGES,
           L->nvidia ? " -cl-nv-verbose" : "");
  for (int i = 0; i < L->nbuilds; i++)
    if (!strcmp(L->builds[i].opts, opts)) {
      *split = L->builds[i].split, *merge = L->builds[i].merge;
      return L->builds[i].ok;
    }
  if (L->nbuilds == MAX_BUILDS) return say("FAIL %s: too many builds\n", label), 0;
  snprintf(key, sizeof key, "dt%d_d%zu_g%d_wg%d_bk%d_st%d_i%d_l%d_a%d_j%d%s", s->dtype, s->d, group,
           c->wg, c->bk, c->stages, c->issue, c->lpk, c->arrive, c->join, L->emulate ? "_emu" : "");
  int at = L->nbuilds++;
  snprintf(L->builds[at].opts, sizeof L->builds[at].opts, "%s", opts);
  cl_int err;
  const char *src = L->source, *cache = getenv("DECODE_BIN_CACHE");
  char cache_path[1024] = "";
  if (cache && cache[0])
    snprintf(cache_path, sizeof cache_path, "%s/%s_%016llx.bin", cache, key,
             (unsigned long long)program_hash(L, opts));
  const double t0 = wall_now();
  cl_program prog = cache_path[0] ? cached_program(L, cache_path, opts) : NULL;
  if (prog) {
    L->builds[at].prog = prog;
    say("BUILD %s %.2f s (binary cache)\n", key, wall_now() - t0);
  } else {
    prog = clCreateProgramWithSource(L->cl, 1, &src, &L->source_len, &err);
    L->builds[at].prog = prog;
    if (err) return cl_fail("clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &L->dev, opts, NULL, NULL);
    size_t log_size = 0;
    clGetProgramBuildInfo(prog, L->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    char *log = malloc(log_size + 1);
    if (log) {
      log[0] = 0;
      clGetProgramBuildInfo(prog, L->dev, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
      log[log_size] = 0;
    }
    if (err) {
      say("FAIL %s: clBuildProgram error %d with %s\n--- build log ---\n%s\n--- end ---\n", label,
          (int)err, opts, log ? log : "");
      free(log);
      return 0;
    }
    if (L->nvidia) print_ptxas(key, log ? log : "");
    free(log);
    say("BUILD %s %.2f s\n", key, wall_now() - t0);
    const char *ptx_dir = getenv("DECODE_PTX_DIR");
    size_t size;
    unsigned char *bin =
        (ptx_dir && ptx_dir[0]) || cache_path[0] ? program_binary(prog, &size) : NULL;
    if (bin && ptx_dir && ptx_dir[0] && L->nvidia) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s.ptx", ptx_dir, key);
      write_bytes(path, bin, size);
    }
    if (bin && cache_path[0]) write_bytes(cache_path, bin, size);
    free(bin);
  }
  L->builds[at].split = clCreateKernel(prog, "decode_bulk_split", &err);
  if (err) return cl_fail("clCreateKernel decode_bulk_split", err);
  L->builds[at].merge = clCreateKernel(prog, "decode_bulk_merge", &err);
  if (err) return cl_fail("clCreateKernel decode_bulk_merge", err);
  size_t wgmax = 0;
  clGetKernelWorkGroupInfo(L->builds[at].split, L->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgmax,
                           &wgmax, NULL);
  if (wgmax < (size_t)threads_of(c))
    say("NOTE %s: CL_KERNEL_WORK_GROUP_SIZE %zu < %d work-items (launching anyway)\n", key, wgmax,
        threads_of(c));
  L->builds[at].ok = 1;
  *split = L->builds[at].split, *merge = L->builds[at].merge;
  return 1;
}

static void shape_free(shape_data *S) {
  free(S->q), free(S->k), free(S->v), free(S->got), free(S->ref);
  cl_mem *mems[] = {&S->Q, &S->K, &S->V, &S->O, &S->ml, &S->acc, &S->counters};
  for (size_t i = 0; i < COUNT(mems); i++)
    if (*mems[i]) clReleaseMemObject(*mems[i]);
  memset(S, 0, sizeof *S);
}

static cl_mem buffer(lab *L, size_t bytes, const void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(L->cl, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            (void *)host, &err);
  if (err) cl_fail("clCreateBuffer", err);
  return err ? NULL : m;
}

static int shape_make(lab *L, const shape *s, shape_data *S) {
  memset(S, 0, sizeof *S);
  S->s = *s;
  const size_t nq = s->b * s->h * s->d, nk = s->b * s->h_kv * s->lk * s->d;
  S->q = random_words(nq, s->dtype, 1);
  S->k = random_words(nk, s->dtype, 2);
  S->v = random_words(nk, s->dtype, 3);
  S->got = malloc(nq * 2);
  S->ref = malloc(nq * sizeof *S->ref);
  if (!S->q || !S->k || !S->v || !S->got || !S->ref) return say("FAIL out of host memory\n"), 0;
  reference(s, S->q, S->k, S->v, S->ref);
  S->Q = buffer(L, nq * 2, S->q);
  S->K = buffer(L, nk * 2, S->k);
  S->V = buffer(L, nk * 2, S->v);
  S->O = buffer(L, nq * 2, NULL);
  S->ml = buffer(L, s->b * s->h * MAX_RANGES * 2 * sizeof(float), NULL);
  S->acc = buffer(L, s->b * s->h * MAX_RANGES * s->d * sizeof(float), NULL);
  cl_uint *zeros = calloc(s->b * s->h_kv, sizeof *zeros);
  S->counters = zeros ? buffer(L, s->b * s->h_kv * sizeof *zeros, zeros) : NULL;
  free(zeros);
  return S->Q && S->K && S->V && S->O && S->ml && S->acc && S->counters;
}

/* The largest |got - want| of a row over the row's largest |want|, over every row (NaN and a
   missing value count as 1e30). */
static double check_out(lab *L, shape_data *S, double *worst) {
  const shape *s = &S->s;
  const size_t n = s->b * s->h * s->d;
  if (clEnqueueReadBuffer(L->queue, S->O, CL_TRUE, 0, n * 2, S->got, 0, NULL, NULL)) return 1e30;
  double err = 0.0;
  for (size_t row = 0; row < s->b * s->h; row++) {
    double scale = 0.0, e = 0.0;
    for (size_t c = 0; c < s->d; c++) {
      const double want = S->ref[row * s->d + c];
      const double got = word_to_float(S->got[row * s->d + c], s->dtype);
      if (fabs(want) > scale) scale = fabs(want);
      double diff = fabs(got - want);
      if (diff != diff) diff = 1e30;
      if (diff > e) e = diff;
    }
    e = scale > 0.0 ? e / scale : e;
    if (e > err) err = e;
  }
  if (err > *worst) *worst = err;
  return err;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int flush_l2(lab *L, cl_uchar pattern) {
  if (!L->flush) return 1;
  return clEnqueueFillBuffer(L->queue, L->flush, &pattern, 1, 0, L->flush_bytes, 0, NULL, NULL) ==
         CL_SUCCESS;
}

static int poison_out(lab *L, shape_data *S) {
  const cl_uchar ff = 0xff; /* 0xffff: NaN in both 16-bit types */
  return clEnqueueFillBuffer(L->queue, S->O, &ff, 1, 0, S->s.b * S->s.h * S->s.d * 2, 0, NULL,
                             NULL) == CL_SUCCESS;
}

typedef struct {
  size_t ranges, range_keys, groups;
  int per_cu;
  size_t smem;
} plan;

/* Ranges of each row's keys: as many as per_cu workgroups a compute unit allow in one wave (per_cu
   the config's fill, or as many as fit one), at least one, a multiple of BK keys each; `force`
   ranges instead where non-zero. */
static plan make_plan(const lab *L, const shape *s, const config *c, size_t force) {
  plan p;
  const int group = (int)(s->h / s->h_kv);
  p.smem = smem_bytes(c, s, group, L->emulate);
  p.per_cu = c->fill;
  if (!p.per_cu) {
    if (L->nvidia && L->cc_major >= 9) {
      const int by_smem = (int)(SM_SMEM / (p.smem + 1024)), by_threads = SM_THREADS / threads_of(c);
      p.per_cu = by_smem < by_threads ? by_smem : by_threads;
      if (p.per_cu > 32) p.per_cu = 32;
      if (p.per_cu < 1) p.per_cu = 1;
    } else {
      p.per_cu = 4;
    }
  }
  const size_t units = s->b * s->h_kv, tiles = (s->lk + c->bk - 1) / c->bk;
  size_t want = force ? force : (size_t)p.per_cu * L->units / units; /* at most one wave */
  if (want > tiles) want = tiles;
  if (want > MAX_RANGES) want = MAX_RANGES;
  if (want < 1) want = 1;
  const size_t per = (s->lk + want - 1) / want;
  p.range_keys = (per + c->bk - 1) / c->bk * c->bk;
  p.ranges = (s->lk + p.range_keys - 1) / p.range_keys;
  p.groups = units * p.ranges;
  return p;
}

/* Enqueues the two kernels (events when asked). */
static cl_int enqueue_bulk(lab *L, shape_data *S, const config *c, const plan *p, cl_kernel split,
                           cl_kernel merge, cl_event *e1, cl_event *e2) {
  const shape *s = &S->s;
  const cl_uint lk = (cl_uint)s->lk, rk = (cl_uint)p->range_keys, ranges = (cl_uint)p->ranges;
  const cl_float qscale = (cl_float)(1.4426950408889634 / sqrt((double)s->d));
  cl_int err = 0;
  err |= clSetKernelArg(split, 0, sizeof(cl_mem), &S->Q);
  err |= clSetKernelArg(split, 1, sizeof(cl_mem), &S->K);
  err |= clSetKernelArg(split, 2, sizeof(cl_mem), &S->V);
  err |= clSetKernelArg(split, 3, sizeof(cl_mem), &S->ml);
  err |= clSetKernelArg(split, 4, sizeof(cl_mem), &S->acc);
  err |= clSetKernelArg(split, 5, sizeof lk, &lk);
  err |= clSetKernelArg(split, 6, sizeof rk, &rk);
  err |= clSetKernelArg(split, 7, sizeof ranges, &ranges);
  err |= clSetKernelArg(split, 8, sizeof qscale, &qscale);
  err |= clSetKernelArg(split, 9, sizeof(cl_mem), &S->O);
  err |= clSetKernelArg(split, 10, sizeof(cl_mem), &S->counters);
  err |= clSetKernelArg(merge, 0, sizeof(cl_mem), &S->ml);
  err |= clSetKernelArg(merge, 1, sizeof(cl_mem), &S->acc);
  err |= clSetKernelArg(merge, 2, sizeof(cl_mem), &S->O);
  err |= clSetKernelArg(merge, 3, sizeof ranges, &ranges);
  if (err) return err;
  const size_t local1 = (size_t)threads_of(c), global1 = p->groups * local1;
  const size_t local2 = MERGE_WG, global2 = s->b * s->h * local2;
  err = clEnqueueNDRangeKernel(L->queue, split, 1, NULL, &global1, &local1, 0, NULL, e1);
  if (err || c->join) { /* JOIN: one kernel, its event both */
    if (!err && e1 && e2) err = clRetainEvent(*e1), *e2 = *e1;
    return err;
  }
  return clEnqueueNDRangeKernel(L->queue, merge, 1, NULL, &global2, &local2, 0, NULL, e2);
}

static double event_span(cl_event first, cl_event last) {
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  return (double)(end - start) * 1e-3; /* us */
}

/* One run of config c on S with `force` ranges, checked; 0 with a FAIL line if it did not run
   or check. */
static int check_bulk(lab *L, shape_data *S, const config *c, size_t force, cl_kernel split,
                      cl_kernel merge, double tol, double *worst, const char *label) {
  const plan p = make_plan(L, &S->s, c, force);
  if (!poison_out(L, S)) return say("FAIL %s: fill\n", label), 0;
  cl_int err = enqueue_bulk(L, S, c, &p, split, merge, NULL, NULL);
  if (!err) err = clFinish(L->queue);
  char name[128];
  shape_name(&S->s, name, sizeof name);
  if (err) {
    say("FAIL %s: on %s with %zu ranges of %zu keys: enqueue/finish error %d\n", label, name,
        p.ranges, p.range_keys, (int)err);
    return 0;
  }
  const double e = check_out(L, S, worst);
  if (!(e <= tol)) {
    say("FAIL %s: on %s with %zu ranges of %zu keys: max error %.3g of the row scale (tolerance "
        "%.3g)\n",
        label, name, p.ranges, p.range_keys, e, tol);
    return 0;
  }
  return 1;
}

/* Median times (us) of REPS runs of the two kernels, each after the L2 flush. */
static int time_bulk(lab *L, shape_data *S, const config *c, const plan *p, cl_kernel split,
                     cl_kernel merge, int reps, double *us, double *split_us) {
  double *t = malloc(sizeof(double) * (size_t)reps), *t1 = malloc(sizeof(double) * (size_t)reps);
  int ok = t && t1;
  for (int r = -WARMUPS; ok && r < reps; r++) {
    cl_event e1 = NULL, e2 = NULL;
    ok = flush_l2(L, (cl_uchar)r) && enqueue_bulk(L, S, c, p, split, merge, &e1, &e2) == 0 &&
         clWaitForEvents(1, &e2) == 0;
    if (ok && r >= 0) t[r] = event_span(e1, e2), t1[r] = event_span(e1, e1);
    if (e1) clReleaseEvent(e1);
    if (e2) clReleaseEvent(e2);
  }
  if (ok) {
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    qsort(t1, (size_t)reps, sizeof *t1, cmp_double);
    *us = t[reps / 2], *split_us = t1[reps / 2];
  }
  free(t), free(t1);
  return ok;
}

/* ocf_attention on S: checked, then timed as time_bulk times (first kernel's start to the last
   kernel's end). */
static int run_library(lab *L, shape_data *S, int reps, double tol, double *worst) {
  const shape *s = &S->s;
  char name[128];
  shape_name(s, name, sizeof name);
  ocf_attention_options o = OCF_ATTENTION_OPTIONS_INIT;
  o.q_dtype = o.k_dtype = o.v_dtype = o.out_dtype = (ocf_dtype)s->dtype;
  double *t = malloc(sizeof(double) * (size_t)reps), *t1 = malloc(sizeof(double) * (size_t)reps);
  int ok = t && t1 && poison_out(L, S);
  for (int r = -WARMUPS - 1; ok && r < reps; r++) {
    if (r >= -WARMUPS && !flush_l2(L, (cl_uchar)r)) ok = 0;
    cl_event ev = NULL, first = NULL;
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.queue = L->queue;
    launch.event = &ev;
    launch.first_event = &first;
    if (ok && ocf_attention(L->ctx, s->b, s->h, s->h_kv, 1, s->lk, s->d, S->Q, 0, NULL, S->K, 0,
                            NULL, S->V, 0, NULL, S->O, 0, NULL, &o, &launch)) {
      say("FAIL shape=%s cfg=lib: %s\n", name, ocf_last_error());
      ok = 0;
    }
    if (ok && clWaitForEvents(1, &ev)) ok = 0;
    if (ok && r == -WARMUPS - 1) { /* the first call: checked */
      const double e = check_out(L, S, worst);
      if (!(e <= tol)) {
        say("FAIL shape=%s cfg=lib: max error %.3g of the row scale (tolerance %.3g)\n", name, e,
            tol);
        ok = 0;
      }
    }
    if (ok && r >= 0) t[r] = event_span(first, ev), t1[r] = event_span(first, first);
    if (ev) clReleaseEvent(ev);
    if (first) clReleaseEvent(first);
  }
  if (ok) {
    char plan_text[512];
    snprintf(plan_text, sizeof plan_text, "%s", ocf_last_plan());
    for (char *p = plan_text; *p; p++)
      if (*p == '"' || *p == '\n') *p = '\'';
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    qsort(t1, (size_t)reps, sizeof *t1, cmp_double);
    const double bytes = 2.0 * s->b * s->h_kv * s->lk * s->d * 2;
    const double us = t[reps / 2], us1 = t1[reps / 2];
    say("RESULT shape=%s cfg=lib us=%.2f GBps=%.0f split_us=%.2f split_GBps=%.0f err=%.2g "
        "plan=\"%s\"\n",
        name, us, bytes / us * 1e-3, us1, bytes / us1 * 1e-3, *worst, plan_text);
  }
  free(t), free(t1);
  return ok;
}

/* The small shapes every config is checked on first (same type, d and group as s): 1037 keys
   in one range (33 tiles of 32 through the ring), in 3 ranges (the last one ragged), in about 20
   (the merge's batches of 8), and 5 keys (one partial tile, fewer keys than key groups). */
static int make_twins(lab *L, const shape *s, shape_data twins[2]) {
  const size_t group = s->h / s->h_kv;
  shape a = {s->dtype, 1, 2 * group, 2, 1037, s->d}, b = {s->dtype, 2, group, 1, 5, s->d};
  return shape_make(L, &a, &twins[0]) && shape_make(L, &b, &twins[1]);
}

static void write_status(const options *o, int index) {
  if (!o->status) return;
  FILE *f = fopen(o->status, "w");
  if (f) {
    fprintf(f, "%d\n", index);
    fclose(f);
  }
}

/* Runs shape number si of the options from config `from` on (-1: the library first); returns 1
   when every check passed. */
static int run_shape(const options *o, int si, int from) {
  shape s;
  char name[128];
  if (!parse_shape(o->shapes[si], &s)) return say("FAIL bad shape %s\n", o->shapes[si]), 0;
  shape_name(&s, name, sizeof name);
  write_status(o, -2);
  lab L;
  if (!lab_open(&L, o)) return 0;
  const double tol = atof(env_or("DECODE_TOL", "2e-2"));
  const double t0 = wall_now();
  shape_data S, twins[2];
  memset(twins, 0, sizeof twins);
  if (!shape_make(&L, &s, &S) || !make_twins(&L, &s, twins)) {
    lab_close(&L);
    return 0;
  }
  say("SHAPE %s: inputs and reference in %.1f s\n", name, wall_now() - t0);
  int all_ok = 1;
  const double bytes = 2.0 * s.b * s.h_kv * s.lk * s.d * 2;
  for (int ci = from; ci < o->nconfigs; ci++) {
    if (o->deadline > 0 && wall_now() > o->deadline) {
      say("SKIP shape=%s: the deadline came before config %d of %d\n", name, ci < 0 ? 0 : ci,
          o->nconfigs);
      break;
    }
    write_status(o, ci);
    double worst = 0.0;
    if (ci < 0) {
      if (!o->no_lib) all_ok &= run_library(&L, &S, o->reps, tol, &worst);
      continue;
    }
    config asked, c;
    char why[160], cname[128], label[320];
    if (!parse_config(o->configs[ci], &asked)) {
      say("FAIL bad config %s\n", o->configs[ci]);
      all_ok = 0;
      continue;
    }
    if (!resolve(&asked, &s, &c, why, sizeof why)) {
      config_name(&asked, cname, sizeof cname);
      say("SKIP shape=%s cfg=%s: %s\n", name, cname, why);
      continue;
    }
    config_name(&c, cname, sizeof cname);
    snprintf(label, sizeof label, "shape=%s cfg=%s", name, cname);
    const plan p = make_plan(&L, &s, &c, 0);
    const size_t limit = L.nvidia && L.cc_major >= 9 ? WG_SMEM_MAX : (size_t)L.local_max;
    if (p.smem > limit) {
      say("SKIP %s: %zu bytes of local memory > %zu\n", label, p.smem, limit);
      continue;
    }
    cl_kernel split, merge;
    if (!build(&L, &c, &s, label, &split, &merge)) {
      all_ok = 0;
      continue;
    }
    if (!check_bulk(&L, &twins[0], &c, 1, split, merge, tol, &worst, label) ||
        !check_bulk(&L, &twins[0], &c, 3, split, merge, tol, &worst, label) ||
        !check_bulk(&L, &twins[0], &c, 20, split, merge, tol, &worst, label) ||
        !check_bulk(&L, &twins[1], &c, 1, split, merge, tol, &worst, label) ||
        !check_bulk(&L, &S, &c, 0, split, merge, tol, &worst, label)) {
      all_ok = 0;
      continue;
    }
    double us, us1;
    if (!time_bulk(&L, &S, &c, &p, split, merge, o->reps, &us, &us1)) {
      say("FAIL %s: timing runs failed\n", label);
      all_ok = 0;
      continue;
    }
    say("RESULT shape=%s cfg=%s us=%.2f GBps=%.0f split_us=%.2f split_GBps=%.0f err=%.2g "
        "ranges=%zu range_keys=%zu wgs=%zu per_cu=%d smem=%zu\n",
        name, cname, us, bytes / us * 1e-3, us1, bytes / us1 * 1e-3, worst, p.ranges, p.range_keys,
        p.groups, p.per_cu, p.smem);
  }
  write_status(o, o->nconfigs);
  shape_free(&S);
  shape_free(&twins[0]);
  shape_free(&twins[1]);
  lab_close(&L);
  return all_ok;
}

/* ---- the driver ---- */

static int read_status(const char *path) {
  FILE *f = fopen(path, "r");
  int index = -3;
  if (f) {
    if (fscanf(f, "%d", &index) != 1) index = -3;
    fclose(f);
  }
  return index;
}

/* What a child's status index names. */
static const char *step_name(const options *o, int index) {
  if (index < -1) return "setup";
  if (index == -1) return "the library";
  if (index < o->nconfigs) return o->configs[index];
  return "the end";
}

/* Runs shape si in child processes until every config from -1 on has had its turn; a child
   that dies or hangs costs the config it was on. Returns 1 when every check passed. */
static int drive_shape(const options *o, char **argv, int argc, int si) {
  const double config_limit = atof(env_or("DECODE_CONFIG_LIMIT", "60"));
  const double setup_limit = atof(env_or("DECODE_SETUP_LIMIT", "300"));
  const double lib_limit = atof(env_or("DECODE_LIB_LIMIT", "120"));
  char status[256], si_text[16], from_text[16], deadline_text[32];
  snprintf(status, sizeof status, "/tmp/decode_lab_status.%ld", (long)getpid());
  int from = -1, all_ok = 1;
  while (from < o->nconfigs) {
    if (o->deadline > 0 && wall_now() > o->deadline) {
      say("SKIP shape %s: the deadline came before config %d\n", o->shapes[si], from);
      break;
    }
    remove(status);
    snprintf(si_text, sizeof si_text, "%d", si);
    snprintf(from_text, sizeof from_text, "%d", from);
    snprintf(deadline_text, sizeof deadline_text, "%.3f", o->deadline);
    char **args = calloc((size_t)argc + 10, sizeof *args);
    if (!args) return 0;
    int n = 0;
    for (int i = 0; i < argc; i++)
      args[n++] = argv[i];
    const char *extra[] = {"--child",  si_text, "--from",        from_text,
                           "--status", status,  "--deadline-at", deadline_text};
    for (size_t i = 0; i < COUNT(extra); i++)
      args[n++] = (char *)extra[i];
    args[n] = NULL;
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
      execv("/proc/self/exe", args);
      perror("execv");
      _exit(127);
    }
    free(args);
    if (pid < 0) return say("FAIL fork: %s\n", strerror(errno)), 0;
    int last = -3, wstatus = 0;
    double since = wall_now();
    for (;;) {
      const pid_t w = waitpid(pid, &wstatus, WNOHANG);
      if (w == pid) break;
      const int now_at = read_status(status);
      if (now_at != last) last = now_at, since = wall_now();
      const double limit = last < -1 ? setup_limit : last == -1 ? lib_limit : config_limit;
      const int late = o->deadline > 0 && wall_now() > o->deadline + config_limit;
      if (wall_now() - since > limit || late) {
        kill(pid, SIGKILL);
        waitpid(pid, &wstatus, 0);
        say("FAIL shape %s: the child hung on %s for %.0f s (killed)\n", o->shapes[si],
            step_name(o, last), wall_now() - since);
        wstatus = -1;
        break;
      }
      struct timespec nap = {0, 50 * 1000 * 1000};
      nanosleep(&nap, NULL);
    }
    const int at = read_status(status);
    if (wstatus != -1 && WIFEXITED(wstatus) && at >= o->nconfigs) {
      all_ok &= WEXITSTATUS(wstatus) == 0;
      break;
    }
    all_ok = 0;
    if (wstatus != -1)
      say("FAIL shape %s: the child died on %s (%s %d)\n", o->shapes[si], step_name(o, at),
          WIFSIGNALED(wstatus) ? "signal" : "exit",
          WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus));
    if (at < -1) break; /* the shape itself cannot be set up */
    from = at + 1;
  }
  remove(status);
  return all_ok;
}

/* ---- options ---- */

static void split_list(char *text, const char **items, int *n) {
  for (char *tok = strtok(text, " \t\n;"); tok && *n < MAX_ITEMS; tok = strtok(NULL, " \t\n;"))
    items[(*n)++] = tok;
}

static int usage(void) {
  fprintf(stderr,
          "usage: decode_lab [-s SHAPE]... [-c WG,BK,STAGES,FILL[,ISSUE[,LPK[,ARRIVE[,JOIN]]]]]..."
          " [-r REPS] [-t SECONDS] [-d DEVICE] [--no-lib] [--nofork]\n"
          "       (see the comment at the top of decode_lab.c)\n");
  return 2;
}

int main(int argc, char **argv) {
  options o;
  memset(&o, 0, sizeof o);
  o.child_shape = -1;
  o.from = -1;
  o.reps = atoi(env_or("DECODE_REPS", "20"));
  o.seconds = atof(env_or("DECODE_SECONDS", "0"));
  o.nofork = atoi(env_or("DECODE_NOFORK", "0"));
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-s") && next && o.nshapes < MAX_ITEMS)
      o.shapes[o.nshapes++] = argv[++i];
    else if (!strcmp(a, "-c") && next && o.nconfigs < MAX_ITEMS)
      o.configs[o.nconfigs++] = argv[++i];
    else if (!strcmp(a, "-r") && next)
      o.reps = atoi(argv[++i]);
    else if (!strcmp(a, "-t") && next)
      o.seconds = atof(argv[++i]);
    else if (!strcmp(a, "-d") && next)
      o.device = argv[++i];
    else if (!strcmp(a, "--no-lib"))
      o.no_lib = 1;
    else if (!strcmp(a, "--nofork"))
      o.nofork = 1;
    else if (!strcmp(a, "--child") && next)
      o.child_shape = atoi(argv[++i]);
    else if (!strcmp(a, "--from") && next)
      o.from = atoi(argv[++i]);
    else if (!strcmp(a, "--status") && next)
      o.status = argv[++i];
    else if (!strcmp(a, "--deadline-at") && next)
      o.deadline = atof(argv[++i]);
    else
      return usage();
  }
  static char shapes_text[4096], configs_text[4096];
  if (!o.nshapes) {
    snprintf(shapes_text, sizeof shapes_text, "%s", env_or("DECODE_SHAPES", default_shapes));
    split_list(shapes_text, o.shapes, &o.nshapes);
  }
  if (!o.nconfigs) {
    snprintf(configs_text, sizeof configs_text, "%s", env_or("DECODE_CONFIGS", default_configs));
    split_list(configs_text, o.configs, &o.nconfigs);
  }
  if (o.reps < 1) o.reps = 1;
  if (o.child_shape >= 0)
    return o.child_shape < o.nshapes && run_shape(&o, o.child_shape, o.from) ? 0 : 1;
  if (o.seconds > 0) o.deadline = wall_now() + o.seconds;
  say("LAB %d shapes x %d configs, %d repetitions, deadline %s\n", o.nshapes, o.nconfigs, o.reps,
      o.seconds > 0 ? "set" : "none");
  int all_ok = 1;
  for (int si = 0; si < o.nshapes; si++)
    all_ok &= o.nofork ? run_shape(&o, si, -1) : drive_shape(&o, argv, argc, si);
  say("LAB done: %s\n", all_ok ? "every check passed" : "SOME CHECK FAILED");
  return all_ok ? 0 : 1;
}
