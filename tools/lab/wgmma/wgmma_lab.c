/*
 * wgmma_lab.c: builds, validates and times matmul_wgmma_nv.cl (Hopper wgmma through NVIDIA's
 * OpenCL, PTX retargeted to sm_90a) in one run, from the repo root:
 *
 *   wgmma_lab OUTDIR [BUDGET_S] [SUBSTRING]   the driver: every variant (whose name has
 *                                        SUBSTRING), rows in OUTDIR/rows.txt
 *   wgmma_lab --build V OUTDIR           child: builds variant V (source -> PTX -> sm_90a ->
 * binary) wgmma_lab --run V OUTDIR             child: loads V's sm_90a PTX, checks and times it
 *
 * A kernel that faults destroys its process's CUDA context, so every build and every run is a
 * child process (all builds at once, then the runs one after the other); a child appends its
 * rows to OUTDIR/rows.txt as it goes. The first TMA variant runs a quick check first (15 s
 * limit: a hang costs that much); WG_QUICK=1 runs the small shapes only, WG_RAGGED=1 big ragged
 * shapes instead of 4096^3 and 8192^3, WG_SHAPES="MxNxK,..." those shapes instead. WG_CLOCK=1
 * builds the kernels with OCF_WG_CLOCK (each workgroup's start, end, tile and compute unit) and
 * adds rows of where a timed shape's time went, by kind of tile (clock_rows).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The TMA's tensor maps come from the CUDA driver's cuTensorMapEncodeTiled (libcuda, loaded at
   run time; OpenCL has no such call); the addresses of the OpenCL buffers come from a kernel. */
typedef int (*encode_fn)(void *map, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                         const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
                         int interleave, int swizzle, int l2promotion, int oobfill);
static encode_fn encode_tiled;

typedef struct {
  const char *name;
  int dtype; /* 0 bf16, 1 f16, 2 tf32 */
  int bn, consumers, stages, bt, group_m, swap_mn, producer;
  int cluster; /* 2: clusters of two workgroups sharing B by TMA multicast (producer 2 only) */
} variant;

static const variant variants[] = {
    /* name, dtype, BN, consumer warpgroups, stages, B transposed, group, swap, producer
       (0 none: cp.async by every work-item, 1 cp.async warpgroup, 2 TMA warp, 3 TMA warp with
       the maps it makes itself) */
    {"dev_bf16_256x4_nn", 0, 256, 2, 4, 0, 8, 0, 3, 0},
    {"dev_bf16_256x4_nt", 0, 256, 2, 4, 1, 8, 0, 3, 0},
    {"dev_f16_256x4_nn", 1, 256, 2, 4, 0, 8, 0, 3, 0},
    {"dev_tf32_256x4_nt", 2, 256, 2, 4, 1, 8, 0, 3, 0},
    {"dev_bf16_192x5_nn", 0, 192, 2, 5, 0, 8, 0, 3, 0},
    {"tma_bf16_256x4_nn", 0, 256, 2, 4, 0, 8, 0, 2, 0},
    {"tma_bf16_256x4_nt", 0, 256, 2, 4, 1, 8, 0, 2, 0},
    {"tma_bf16_192x5_nn", 0, 192, 2, 5, 0, 8, 0, 2, 0},
    {"tma_bf16_128x6_nn", 0, 128, 2, 6, 0, 8, 0, 2, 0},
    {"tma_bf16_256x4_nn_g4", 0, 256, 2, 4, 0, 4, 0, 2, 0},
    {"tma_f16_256x4_nn", 1, 256, 2, 4, 0, 8, 0, 2, 0},
    {"tma_f16_256x4_nt", 1, 256, 2, 4, 1, 8, 0, 2, 0},
    {"tma_tf32_256x4_nt", 2, 256, 2, 4, 1, 8, 0, 2, 0},
    {"tma_tf32_192x5_nt", 2, 192, 2, 5, 1, 8, 0, 2, 0},
    /* the same TMA producer in clusters of two (B multicast; the last field) */
    {"cl_bf16_256x4_nn", 0, 256, 2, 4, 0, 8, 0, 2, 2},
    {"cl_bf16_256x4_nt", 0, 256, 2, 4, 1, 8, 0, 2, 2},
    {"cl_bf16_192x5_nn", 0, 192, 2, 5, 0, 8, 0, 2, 2},
    {"cl_bf16_128x6_nn", 0, 128, 2, 6, 0, 8, 0, 2, 2},
    {"cl_f16_256x4_nn", 1, 256, 2, 4, 0, 8, 0, 2, 2},
    {"cl_tf32_256x4_nt", 2, 256, 2, 4, 1, 8, 0, 2, 2},
    {"bf16_256x4_nn", 0, 256, 2, 4, 0, 8, 0, 0, 0},
    {"bf16_256x4_nt", 0, 256, 2, 4, 1, 8, 0, 0, 0},
    {"bf16_192x5_nn", 0, 192, 2, 5, 0, 8, 0, 0, 0},
    {"f16_256x4_nn", 1, 256, 2, 4, 0, 8, 0, 0, 0},
    {"tf32_256x4_nt", 2, 256, 2, 4, 1, 8, 0, 0, 0},
    {"ws_bf16_256x4_nn", 0, 256, 2, 4, 0, 8, 0, 1, 0},
    {"bf16_256x4_nn_swapLS", 0, 256, 2, 4, 0, 8, 1, 0, 0}, /* layout probe: expected to FAIL */
};
#define NV ((int)(sizeof variants / sizeof variants[0]))

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, cl_int err) {
  fprintf(stderr, "%s: OpenCL error %d\n", what, err);
  exit(3);
}
#define CHECK(call)                       \
  do {                                    \
    cl_int e_ = (call);                   \
    if (e_ != CL_SUCCESS) die(#call, e_); \
  } while (0)

static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(s);
    return NULL;
  }
  s[n] = 0;
  fclose(f);
  if (len) *len = (size_t)n;
  return s;
}

static void append_row(const char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void append_row(const char *out, const char *fmt, ...) {
  char path[512];
  snprintf(path, sizeof path, "%s/rows.txt", out);
  FILE *f = fopen(path, "a");
  va_list ap;
  va_start(ap, fmt);
  if (f) vfprintf(f, fmt, ap);
  va_end(ap);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
  if (f) fclose(f);
}

typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
} env;

static void env_open(env *e) {
  cl_uint np = 0;
  cl_platform_id ps[8];
  CHECK(clGetPlatformIDs(8, ps, &np));
  for (cl_uint i = 0; i < np; i++) {
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &e->device, NULL) == CL_SUCCESS) {
      e->platform = ps[i];
      cl_int err;
      e->context = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
      CHECK(err);
      e->queue = clCreateCommandQueue(e->context, e->device, CL_QUEUE_PROFILING_ENABLE, &err);
      CHECK(err);
      return;
    }
  }
  die("no GPU", -1);
}

static void variant_options(const variant *v, char *opts, size_t size) {
  snprintf(opts, size,
           "-cl-std=CL1.2 -I tools/lab/wgmma -DOCF_WG_DTYPE=%d -DOCF_WG_BN=%d "
           "-DOCF_WG_CONSUMERS=%d -DOCF_WG_STAGES=%d -DOCF_WG_BT=%d -DOCF_WG_GROUP_M=%d "
           "-DOCF_WG_SWAP_MN=%d -DOCF_WG_PRODUCER=%d -DOCF_WG_CLUSTER=%d",
           v->dtype, v->bn, v->consumers, v->stages, v->bt, v->group_m, v->swap_mn, v->producer,
           v->cluster ? v->cluster : 1);
  if (getenv("WG_CLOCK")) strncat(opts, " -DOCF_WG_CLOCK=1", size - strlen(opts) - 1);
}

/* The PTX for sm_90a: `// SM90A ` prefixes dropped, `.target sm_90` -> sm_90a, .version >= 8.0,
   and every `// SM90A_HEADER DIRECTIVE` line of the body moved into the entry's header (before
   the body's opening brace: OpenCL C cannot write an entry directive such as
   .reqnctapercluster). */
#define HEADER_PREFIX "// SM90A_HEADER "
static char *retarget(const char *ptx) {
  const size_t n = strlen(ptx);
  char *out = malloc(2 * n + 64), *o = out;
  char headers[1024] = "";
  for (const char *h = strstr(ptx, HEADER_PREFIX); h; h = strstr(h + 1, HEADER_PREFIX)) {
    const size_t len = strcspn(h + strlen(HEADER_PREFIX), "\n");
    if (strlen(headers) + len + 2 < sizeof headers) {
      strncat(headers, h + strlen(HEADER_PREFIX), len);
      strcat(headers, "\n");
    }
  }
  int in_entry = 0;
  const char *p = ptx;
  while (*p) {
    const char *eol = strchr(p, '\n');
    const size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
    const char *q = p;
    while (q < p + len && (*q == ' ' || *q == '\t'))
      q++;
    if (strncmp(q, ".entry", 6) == 0 || strncmp(q, ".visible .entry", 15) == 0) in_entry = 1;
    if (in_entry && (q[0] == '{') && headers[0]) {
      o += sprintf(o, "%s", headers);
      in_entry = 0;
    }
    if (strncmp(q, HEADER_PREFIX, strlen(HEADER_PREFIX)) == 0) {
      /* moved into the header */
    } else if (strncmp(q, "// SM90A ", 9) == 0) {
      memcpy(o, p, (size_t)(q - p)), o += q - p;
      memcpy(o, q + 9, len - (size_t)(q - p) - 9), o += len - (size_t)(q - p) - 9;
    } else if (strncmp(q, ".target sm_90", 13) == 0 && q[13] != 'a') {
      o += sprintf(o, ".target sm_90a");
      memcpy(o, q + 13, len - (size_t)(q - p) - 13), o += len - (size_t)(q - p) - 13;
    } else if (strncmp(q, ".version ", 9) == 0 && atof(q + 9) < 8.0) {
      o += sprintf(o, ".version 8.0\n");
    } else {
      memcpy(o, p, len), o += len;
    }
    p += len;
  }
  *o = 0;
  return out;
}

static void save(const char *out, const char *name, const char *suffix, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.%s", out, name, suffix);
  FILE *f = fopen(path, "w");
  if (f) fputs(text, f), fclose(f);
}

static char *build_log(cl_program p, cl_device_id d) {
  size_t n = 0;
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(1, n + 1);
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  return log;
}

/* Child: source build, its PTX, retarget, binary build (its log has ptxas's registers). */
static int child_build(int vi, const char *out) {
  const variant *v = &variants[vi];
  env e;
  env_open(&e);
  size_t len;
  char *src = read_text("tools/lab/wgmma/matmul_wgmma_nv.cl", &len);
  if (!src) return 2;
  char opts[512];
  variant_options(v, opts, sizeof opts);
  cl_int err;
  const double t0 = now();
  cl_program p = clCreateProgramWithSource(e.context, 1, (const char **)&src, &len, &err);
  CHECK(err);
  err = clBuildProgram(p, 1, &e.device, opts, NULL, NULL);
  char *log = build_log(p, e.device);
  save(out, v->name, "src.log", log);
  if (err != CL_SUCCESS) {
    append_row(out, "%-22s BUILD source build failed (%d): %.200s\n", v->name, err, log);
    return 1;
  }
  size_t bytes = 0;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, NULL));
  char *ptx = calloc(1, bytes + 1);
  unsigned char *bins[1] = {(unsigned char *)ptx};
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
  save(out, v->name, "sm90.ptx", ptx);
  char *a = retarget(ptx);
  save(out, v->name, "ptx", a);
  const double t1 = now();
  size_t alen = strlen(a) + 1;
  cl_int bs;
  cl_program q = clCreateProgramWithBinary(e.context, 1, &e.device, &alen,
                                           (const unsigned char **)&a, &bs, &err);
  if (err == CL_SUCCESS) err = bs;
  if (err == CL_SUCCESS) err = clBuildProgram(q, 1, &e.device, "-cl-nv-verbose", NULL, NULL);
  char *alog = q ? build_log(q, e.device) : strdup("");
  save(out, v->name, "sm90a.log", alog);
  const int wg = (int)(strstr(a, "wgmma.mma_async") != NULL);
  if (err != CL_SUCCESS) {
    for (char *c = alog; *c; c++)
      if (*c == '\n') *c = ' ';
    append_row(out, "%-22s BUILD sm_90a binary refused (%d): %.300s\n", v->name, err, alog);
    return 1;
  }
  const char *regs = strstr(alog, "Used ");
  char rs[96] = "?";
  if (regs) snprintf(rs, sizeof rs, "%.*s", (int)strcspn(regs, "\n,"), regs);
  const char *sp = strstr(alog, " bytes spill stores");
  int spill = -1;
  if (sp) {
    const char *b = sp;
    while (b > alog && b[-1] >= '0' && b[-1] <= '9')
      b--;
    spill = atoi(b);
  }
  append_row(
      out, "%-22s BUILT source %.1f s, sm_90a %.1f s, wgmma %d, %s, spill %d, serialized %s\n",
      v->name, t1 - t0, now() - t1, wg, rs, spill, strstr(alog, "serialized") ? "YES" : "no");
  return 0;
}

/* ---- numerics ---- */
static uint16_t f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float bf2f(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint16_t f2h(float f) { /* round to nearest even; |f| <= 1 here, no overflow */
  uint32_t u;
  memcpy(&u, &f, 4);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const int e = (int)((u >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = u & 0x7FFFFFu;
  if (e <= 0) { /* subnormal half */
    if (e < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    const int shift = 14 - e;
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)e << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}
static float h2f(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const int m = h & 0x3FF;
  float f = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 0x400), e - 25);
  return (h & 0x8000) ? -f : f;
}
static float round_tf32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0xFFFu + ((u >> 13) & 1u);
  u &= ~0x1FFFu;
  memcpy(&f, &u, 4);
  return f;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static float uniform(void) { /* [-1, 1) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (float)((double)(rng >> 11) * 0x1.0p-52 - 1.0);
}

typedef struct {
  void *dev;    /* what the kernel reads */
  float *value; /* the same values as float */
} operand;

static void make_operand(operand *o, size_t count, int dtype) {
  const size_t eb = dtype == 2 ? 4 : 2;
  o->dev = malloc(count * eb);
  o->value = malloc(count * sizeof(float));
  for (size_t i = 0; i < count; i++) {
    const float r = uniform();
    if (dtype == 0) {
      const uint16_t h = f2bf(r);
      ((uint16_t *)o->dev)[i] = h, o->value[i] = bf2f(h);
    } else if (dtype == 1) {
      const uint16_t h = f2h(r);
      ((uint16_t *)o->dev)[i] = h, o->value[i] = h2f(h);
    } else {
      const float t = round_tf32(r);
      ((float *)o->dev)[i] = t, o->value[i] = t;
    }
  }
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The device addresses of two buffers (a kernel reads its pointer arguments). */
static int buffer_addresses(env *e, cl_mem a, cl_mem b, uint64_t *addr) {
  static const char *src = "__kernel void addr_of(__global ulong *out, __global const uchar *a,"
                           " __global const uchar *b) { out[0] = (ulong)a; out[1] = (ulong)b; }";
  cl_int err;
  cl_program p = clCreateProgramWithSource(e->context, 1, &src, NULL, &err);
  if (err != CL_SUCCESS || clBuildProgram(p, 1, &e->device, "", NULL, NULL) != CL_SUCCESS) return 1;
  cl_kernel k = clCreateKernel(p, "addr_of", &err);
  cl_mem o = clCreateBuffer(e->context, CL_MEM_READ_WRITE, 16, NULL, &err);
  clSetKernelArg(k, 0, sizeof o, &o), clSetKernelArg(k, 1, sizeof a, &a);
  clSetKernelArg(k, 2, sizeof b, &b);
  const size_t one = 1;
  err = clEnqueueNDRangeKernel(e->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(e->queue, o, CL_TRUE, 0, 16, addr, 0, NULL, NULL);
  clReleaseMemObject(o), clReleaseKernel(k), clReleaseProgram(p);
  return err != CL_SUCCESS;
}

/* Tensor maps of A (k x m boxes of BK x BM) and B (BT 1: BK x BN boxes of n x k; BT 0: 64 x BK
   boxes of the k x n matrix), 128-byte swizzle, zero fill outside; NULL or what failed. */
static const char *tma_maps(env *e, const variant *v, cl_mem da, cl_mem db, unsigned m, unsigned n,
                            unsigned k, unsigned char *maps) {
  if (!encode_tiled) {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda) return "no libcuda.so.1";
    int (*cu_init)(unsigned) = (int (*)(unsigned))dlsym(cuda, "cuInit");
    encode_tiled = (encode_fn)dlsym(cuda, "cuTensorMapEncodeTiled");
    if (!cu_init || !encode_tiled) return "no cuInit / cuTensorMapEncodeTiled";
    if (cu_init(0) != 0) return "cuInit failed";
    /* the encoder wants a current CUDA context (CUresult 201 without): the primary one */
    int (*dev_get)(int *, int) = (int (*)(int *, int))dlsym(cuda, "cuDeviceGet");
    int (*retain)(void **, int) = (int (*)(void **, int))dlsym(cuda, "cuDevicePrimaryCtxRetain");
    int (*set_current)(void *) = (int (*)(void *))dlsym(cuda, "cuCtxSetCurrent");
    int dev = 0;
    void *ctx = NULL;
    if (!dev_get || !retain || !set_current || dev_get(&dev, 0) != 0 || retain(&ctx, dev) != 0 ||
        set_current(ctx) != 0)
      return "no primary CUDA context";
  }
  uint64_t addr[2];
  if (buffer_addresses(e, da, db, addr)) return "buffer addresses";
  const uint64_t eb = v->dtype == 2 ? 4 : 2, bk = 128 / eb;
  const int dt = v->dtype == 2 ? 2 : 1; /* UINT32 / UINT16: the TMA only moves bits */
  const uint32_t estr[2] = {1, 1};
  const uint64_t adims[2] = {k, m}, astr[1] = {k * eb};
  const uint32_t abox[2] = {(uint32_t)bk, 64u * (uint32_t)v->consumers};
  int r =
      encode_tiled(maps, dt, 2, (void *)(uintptr_t)addr[0], adims, astr, abox, estr, 0, 3, 3, 0);
  if (r != 0) {
    static char msg[64];
    snprintf(msg, sizeof msg, "encode A: CUresult %d", r);
    return msg;
  }
  uint64_t bdims[2], bstr[1];
  uint32_t bbox[2];
  if (v->bt) {
    bdims[0] = k, bdims[1] = n, bstr[0] = k * eb, bbox[0] = (uint32_t)bk;
    bbox[1] = (uint32_t)(v->cluster == 2 ? v->bn / 2 : v->bn); /* a cluster's half each */
  } else {
    bdims[0] = n, bdims[1] = k, bstr[0] = n * eb, bbox[0] = 64, bbox[1] = (uint32_t)bk;
  }
  r = encode_tiled(maps + 128, dt, 2, (void *)(uintptr_t)addr[1], bdims, bstr, bbox, estr, 0, 3, 3,
                   0);
  if (r != 0) {
    static char msg[64];
    snprintf(msg, sizeof msg, "encode B: CUresult %d", r);
    return msg;
  }
  return NULL;
}

/* WG_CLOCK: the last timed launch's workgroups (four ulongs each: start and end in ns, tm << 32
   | tn, the compute unit), as one row per kind of tile: interior, the last tile column where n
   is ragged, the last tile row where m is ragged, the corner; how many, their mean and largest
   time, their mean start after the launch's first; then the span and the busiest unit. */
static void clock_rows(const char *out, const variant *v, unsigned m, unsigned n, unsigned k,
                       const cl_ulong *clock, size_t tiles) {
  const unsigned bm = 64u * (unsigned)v->consumers, tm_last = (m - 1) / bm,
                 tn_last = (n - 1) / (unsigned)v->bn;
  const int m_ragged = m % bm != 0, n_ragged = n % (unsigned)v->bn != 0;
  cl_ulong first = clock[0], last = clock[1];
  for (size_t g = 0; g < tiles; g++) {
    if (clock[4 * g] < first) first = clock[4 * g];
    if (clock[4 * g + 1] > last) last = clock[4 * g + 1];
  }
  static const char *const kinds[] = {"interior", "n edge", "m edge", "corner"};
  double sum[4] = {0}, most[4] = {0}, start[4] = {0};
  size_t count[4] = {0}, per_unit[1024] = {0}, busiest = 0;
  for (size_t g = 0; g < tiles; g++) {
    const unsigned tm = (unsigned)(clock[4 * g + 2] >> 32), tn = (unsigned)clock[4 * g + 2];
    const int kind = (n_ragged && tn == tn_last) + 2 * (m_ragged && tm == tm_last);
    const double us = (double)(clock[4 * g + 1] - clock[4 * g]) * 1e-3;
    sum[kind] += us, start[kind] += (double)(clock[4 * g] - first) * 1e-3, count[kind]++;
    if (us > most[kind]) most[kind] = us;
    const size_t unit = clock[4 * g + 3] < 1024 ? clock[4 * g + 3] : 1023;
    if (++per_unit[unit] > busiest) busiest = per_unit[unit];
  }
  for (int kind = 0; kind < 4; kind++)
    if (count[kind])
      append_row(
          out, "%-22s %5ux%5ux%5u clock %-8s %4zu tiles, mean %.2f us, max %.2f, mean start %.2f\n",
          v->name, m, n, k, kinds[kind], count[kind], sum[kind] / (double)count[kind], most[kind],
          start[kind] / (double)count[kind]);
  append_row(out, "%-22s %5ux%5ux%5u clock span %.2f us, at most %zu tiles a unit\n", v->name, m, n,
             k, (double)(last - first) * 1e-3, busiest);
}

/* One shape: random A, B (C random when beta != 0, else poisoned), run, check sampled (or all)
   elements and the padding of C, time when reps > 0. */
static int run_shape(env *e, cl_kernel kern, const variant *v, const char *out, unsigned m,
                     unsigned n, unsigned k, float alpha, float beta, int reps, cl_mem flush) {
  const size_t eb = v->dtype == 2 ? 4 : 2;
  const unsigned bm = 64u * (unsigned)v->consumers;
  const unsigned ldc = n + ((m < 1024) ? 8 : 0); /* padding checked on the small shapes */
  operand A, B;                                  /* B is k x n (bt 0) or n x k (bt 1) */
  make_operand(&A, (size_t)m * k, v->dtype);
  make_operand(&B, (size_t)k * n, v->dtype);
  const size_t csize = (size_t)m * ldc;
  float *C0 = malloc(csize * 4), *C = malloc(csize * 4);
  for (size_t i = 0; i < csize; i++) {
    if (beta != 0.0f)
      C0[i] = uniform();
    else
      memset(&C0[i], 0xFF, 4);
  }
  cl_int err;
  cl_mem da = clCreateBuffer(e->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             (size_t)m * k * eb, A.dev, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(e->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             (size_t)k * n * eb, B.dev, &err);
  CHECK(err);
  cl_mem dc =
      clCreateBuffer(e->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, csize * 4, C0, &err);
  CHECK(err);
  const cl_uint lda = k, ldb = v->bt ? k : n;
  CHECK(clSetKernelArg(kern, 0, 4, &m));
  CHECK(clSetKernelArg(kern, 1, 4, &n));
  CHECK(clSetKernelArg(kern, 2, 4, &k));
  CHECK(clSetKernelArg(kern, 3, 4, &alpha));
  CHECK(clSetKernelArg(kern, 4, sizeof(cl_mem), &da));
  CHECK(clSetKernelArg(kern, 5, 4, &lda));
  CHECK(clSetKernelArg(kern, 6, sizeof(cl_mem), &db));
  CHECK(clSetKernelArg(kern, 7, 4, &ldb));
  CHECK(clSetKernelArg(kern, 8, 4, &beta));
  CHECK(clSetKernelArg(kern, 9, sizeof(cl_mem), &dc));
  CHECK(clSetKernelArg(kern, 10, 4, &ldc));
  unsigned char maps[256] __attribute__((aligned(64)));
  memset(maps, 0, sizeof maps);
  if (v->producer == 2) {
    const char *msg = tma_maps(e, v, da, db, m, n, k, maps);
    if (msg) {
      append_row(out, "%-22s %5ux%5ux%5u ERROR tensor maps: %s\n", v->name, m, n, k, msg);
      return 1;
    }
  }
  /* clusters of two take tile rows in pairs: an odd count gets one more row, stored nowhere */
  const size_t tile_rows = (m + bm - 1) / bm,
               tiles = (v->cluster == 2 ? (tile_rows + 1) / 2 * 2 : tile_rows) *
                       ((n + v->bn - 1) / v->bn);
  /* producer 3: 256 bytes per workgroup, which it fills with its own maps */
  unsigned char *slots = calloc(v->producer == 3 ? tiles : 1, 256);
  cl_mem dmaps =
      clCreateBuffer(e->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                     (v->producer == 3 ? tiles : 1) * 256, v->producer == 3 ? slots : maps, &err);
  CHECK(err);
  CHECK(clSetKernelArg(kern, 11, sizeof(cl_mem), &dmaps));
  const int clocked = getenv("WG_CLOCK") != NULL;
  cl_mem dclock =
      clCreateBuffer(e->context, CL_MEM_READ_WRITE, (clocked ? tiles : 1) * 32, NULL, &err);
  CHECK(err);
  if (clocked) CHECK(clSetKernelArg(kern, 12, sizeof(cl_mem), &dclock));
  const size_t local = 128u * (size_t)v->consumers +
                       (v->producer >= 2 ? 32u : 128u * (size_t)v->producer),
               global = tiles * local;
  cl_event ev;
  err = clEnqueueNDRangeKernel(e->queue, kern, 1, NULL, &global, &local, 0, NULL, &ev);
  if (err == CL_SUCCESS) err = clFinish(e->queue);
  if (err != CL_SUCCESS) {
    append_row(out, "%-22s %5ux%5ux%5u ERROR launch/finish %d\n", v->name, m, n, k, err);
    return 1;
  }
  CHECK(clEnqueueReadBuffer(e->queue, dc, CL_TRUE, 0, csize * 4, C, 0, NULL, NULL));
  if (v->producer == 3 && reps == 0 && getenv("WG_DUMP")) { /* workgroup 0's maps beside the
                                                               driver's for the same call */
    CHECK(clEnqueueReadBuffer(e->queue, dmaps, CL_TRUE, 0, 256, slots, 0, NULL, NULL));
    const char *msg = tma_maps(e, v, da, db, m, n, k, maps);
    for (int half = 0; half < 2; half++) {
      append_row(out, "%-22s %5ux%5ux%5u map %c device :", v->name, m, n, k, "AB"[half]);
      for (int i = 0; i < 128; i++)
        append_row(out, "%s%02x", i % 8 ? "" : " ", slots[128 * half + i]);
      append_row(out, "\n%-22s %5ux%5ux%5u map %c driver :", v->name, m, n, k, "AB"[half]);
      for (int i = 0; i < 128; i++)
        append_row(out, "%s%02x", i % 8 ? "" : " ", msg ? 0 : maps[128 * half + i]);
      append_row(out, "%s\n", msg ? msg : "");
    }
  }
  /* check: every element when small, else a sampled grid with the first and last rows/cols */
  const unsigned srows = m <= 512 ? m : 48, scols = n <= 512 ? n : 48;
  double max_u = 0, max_rel = 0, sum_rel = 0;
  long bad = 0, checked = 0, nan_in = 0, touched_pad = 0;
  for (size_t i = 0; i < csize; i++) {
    const size_t r = i / ldc, c = i % ldc;
    if (c >= n) {
      if (memcmp(&C[i], &C0[i], 4) != 0) touched_pad++;
    } else if (isnan(C[i]) && r < m && (m <= 4096)) {
      nan_in++;
    }
  }
  for (unsigned si = 0; si < srows; si++) {
    const unsigned r = srows == m
                           ? si
                           : (si == 0           ? 0
                              : si == srows - 1 ? m - 1
                                                : (unsigned)(((uint64_t)si * 2654435761u) % m));
    for (unsigned sj = 0; sj < scols; sj++) {
      const unsigned c = scols == n
                             ? sj
                             : (sj == 0           ? 0
                                : sj == scols - 1 ? n - 1
                                                  : (unsigned)(((uint64_t)sj * 40503u + 7) % n));
      double ref = 0, mag = 0;
      for (unsigned kk = 0; kk < k; kk++) {
        const double a = A.value[(size_t)r * k + kk];
        const double b = v->bt ? B.value[(size_t)c * k + kk] : B.value[(size_t)kk * n + c];
        ref += a * b, mag += fabs(a * b);
      }
      const double c0 = beta != 0.0f ? C0[(size_t)r * ldc + c] : 0.0;
      const double want = alpha * ref + beta * c0;
      const double scale = fabs(alpha) * mag + fabs(beta * c0);
      const double got = C[(size_t)r * ldc + c];
      const double diff = fabs(got - want);
      /* fp32 accumulation of k products, each step rounding (or truncating: 2^-23 relative) on
         a partial sum bounded by sum|ab|, plus alpha's and beta's roundings */
      const double tol = ((double)k + 4.0) * 0x1.0p-22 * scale + 1e-30;
      if (!(diff <= tol)) bad++;
      const double u = scale > 0 ? diff / scale / 0x1.0p-24 : diff;
      if (u > max_u || isnan(u)) max_u = isnan(u) ? INFINITY : u;
      const double rel = fabs(want) > 0 ? diff / fabs(want) : diff;
      if (rel > max_rel) max_rel = rel;
      sum_rel += rel;
      checked++;
    }
  }
  const int pass = bad == 0 && nan_in == 0 && touched_pad == 0;
  double tflops = 0, med = 0;
  if (pass && reps > 0) {
    double *ms = malloc(sizeof(double) * (size_t)reps);
    const cl_uchar zero = 0;
    for (int rep = -1; rep < reps; rep++) {
      CHECK(clEnqueueFillBuffer(e->queue, flush, &zero, 1, 0, 512u << 20, 0, NULL, NULL));
      cl_event te;
      CHECK(clEnqueueNDRangeKernel(e->queue, kern, 1, NULL, &global, &local, 0, NULL, &te));
      CHECK(clWaitForEvents(1, &te));
      cl_ulong s = 0, f = 0;
      clGetEventProfilingInfo(te, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
      clGetEventProfilingInfo(te, CL_PROFILING_COMMAND_END, sizeof f, &f, NULL);
      if (rep >= 0) ms[rep] = (double)(f - s) * 1e-6;
      clReleaseEvent(te);
    }
    qsort(ms, (size_t)reps, sizeof(double), cmp_double);
    med = ms[reps / 2];
    if (clocked) {
      cl_ulong *clock = malloc(tiles * 32);
      CHECK(clEnqueueReadBuffer(e->queue, dclock, CL_TRUE, 0, tiles * 32, clock, 0, NULL, NULL));
      clock_rows(out, v, m, n, k, clock, tiles);
      free(clock);
    }
    tflops = 2.0 * m * n * (double)k / (med * 1e-3) / 1e12;
    free(ms);
  }
  append_row(out,
             "%-22s %5ux%5ux%5u a=%.2g b=%.2g %s checked %ld bad %ld nan %ld pad %ld "
             "err_u %.3g rel_max %.3g rel_mean %.3g",
             v->name, m, n, k, alpha, beta, pass ? "PASS" : "FAIL", checked, bad, nan_in,
             touched_pad, max_u, max_rel, sum_rel / (double)(checked ? checked : 1));
  if (reps > 0 && pass)
    append_row(out, " median %.3f ms %.1f TFLOP/s\n", med, tflops);
  else
    append_row(out, "\n");
  clReleaseEvent(ev);
  clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc), clReleaseMemObject(dmaps);
  clReleaseMemObject(dclock);
  free(slots);
  free(A.dev), free(A.value), free(B.dev), free(B.value), free(C0), free(C);
  return !pass;
}

static int child_run(int vi, const char *out) {
  const variant *v = &variants[vi];
  env e;
  env_open(&e);
  char path[512];
  snprintf(path, sizeof path, "%s/%s.ptx", out, v->name);
  size_t len;
  char *a = read_text(path, &len);
  if (!a) return 2;
  len += 1;
  cl_int err, bs;
  cl_program q = clCreateProgramWithBinary(e.context, 1, &e.device, &len,
                                           (const unsigned char **)&a, &bs, &err);
  if (err == CL_SUCCESS) err = bs;
  if (err == CL_SUCCESS) err = clBuildProgram(q, 1, &e.device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    append_row(out, "%-22s BUILD binary %d\n", v->name, err);
    return 1;
  }
  cl_kernel kern = clCreateKernel(q, "matmul_wgmma", &err);
  CHECK(err);
  size_t wgs = 0;
  cl_ulong lmem = 0;
  clGetKernelWorkGroupInfo(kern, e.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs, &wgs, NULL);
  clGetKernelWorkGroupInfo(kern, e.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
  append_row(out, "%-22s kernel: work-group size %zu, local memory %lu\n", v->name, wgs,
             (unsigned long)lmem);
  cl_mem flush = clCreateBuffer(e.context, CL_MEM_READ_WRITE, 512u << 20, NULL, &err);
  CHECK(err);
  const int full = getenv("WG_QUICK") == NULL;
  int fails = 0;
  fails += run_shape(&e, kern, v, out, 128, v->bn, 64, 1.0f, 0.0f, 0, flush);
  fails += run_shape(&e, kern, v, out, 128, 256, 64, 1.0f, 0.0f, 0, flush);
  if (fails) return 1;
  fails += run_shape(&e, kern, v, out, 384, 512, 448, 1.0f, 0.0f, 0, flush);
  fails += run_shape(&e, kern, v, out, 200, 264, 136, 1.5f, -0.5f, 0, flush);
  if (fails) return 1;
  const char *shapes = getenv("WG_SHAPES"); /* "MxNxK,..." timed in place of the big shapes */
  if (shapes) {
    for (const char *at = shapes; *at;) {
      unsigned sm, sn, sk;
      int used = 0;
      if (sscanf(at, "%ux%ux%u%n", &sm, &sn, &sk, &used) != 3) break;
      fails += run_shape(&e, kern, v, out, sm, sn, sk, 1.0f, 0.0f, 10, flush);
      at += used;
      if (*at == ',') at++;
    }
  } else if (getenv("WG_RAGGED")) { /* big ragged: m odd, n and k multiples of 8, not of the tile */
    fails += run_shape(&e, kern, v, out, 4095, 4104, 4000, 1.5f, -0.5f, 10, flush);
    fails += run_shape(&e, kern, v, out, 8191, 1032, 8200, 1.0f, 0.0f, 10, flush);
  } else if (full) {
    fails += run_shape(&e, kern, v, out, 4096, 4096, 4096, 1.0f, 0.0f, 10, flush);
    fails += run_shape(&e, kern, v, out, 8192, 8192, 8192, 1.0f, 0.0f, 10, flush);
  }
  return fails != 0;
}

static int spawn(const char *self, const char *mode, int vi, const char *out) {
  const pid_t pid = fork();
  if (pid == 0) {
    char vs[16];
    snprintf(vs, sizeof vs, "%d", vi);
    execl(self, self, mode, vs, out, (char *)NULL);
    _exit(127);
  }
  return (int)pid;
}

/* Waits for pid at most limit seconds; kills it after. Returns its status (-1 killed). */
static int wait_child(int pid, double limit) {
  const double t0 = now();
  int st;
  for (;;) {
    const pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    if (now() - t0 > limit) {
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -1000;
    }
    usleep(20000);
  }
}

/* Whether the variant is among those asked for: all (NULL), the names holding `only`, or, where
   `only` holds commas, exactly the names it lists. */
static int picked(const char *name, const char *only) {
  if (!only) return 1;
  if (!strchr(only, ',')) return strstr(name, only) != NULL;
  const size_t n = strlen(name);
  for (const char *p = only; *p;) {
    const size_t len = strcspn(p, ",");
    if (len == n && strncmp(p, name, n) == 0) return 1;
    p += len + (p[len] == ',');
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "--build") == 0) return child_build(atoi(argv[2]), argv[3]);
  if (argc >= 4 && strcmp(argv[1], "--run") == 0) return child_run(atoi(argv[2]), argv[3]);
  if (argc >= 4 && strcmp(argv[1], "--retarget") == 0) { /* offline check of the rewriting */
    char *ptx = read_text(argv[2], NULL);
    if (!ptx) return 2;
    FILE *f = fopen(argv[3], "w");
    if (!f) return 2;
    fputs(retarget(ptx), f);
    fclose(f);
    return 0;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: wgmma_lab OUTDIR [BUDGET_S] [VARIANT_SUBSTRING]\n");
    return 2;
  }
  const char *out = argv[1];
  const double budget = argc > 2 ? atof(argv[2]) : 200;
  const char *only = argc > 3 ? argv[3] : NULL;
  const double t0 = now();
  int pids[NV], ok[NV];
  for (int i = 0; i < NV; i++) {
    pids[i] = picked(variants[i].name, only) ? spawn(argv[0], "--build", i, out) : 0;
    ok[i] = 0;
  }
  for (int i = 0; i < NV; i++)
    if (pids[i]) {
      const int st = wait_child(pids[i], 120);
      ok[i] = st == 0;
      if (st != 0) printf("%-22s build child status %d\n", variants[i].name, st);
    }
  printf("builds done at %.1f s\n", now() - t0);
  int tma_failed[5] = {
      0}; /* per producer (4: 2 in clusters): 1 failed, -1 passed its quick check */
  for (int i = 0; i < NV; i++) {
    if (!ok[i]) continue;
    const int pr = variants[i].cluster == 2 ? 4 : variants[i].producer;
    if (pr >= 2 && tma_failed[pr] > 0) {
      printf("%-22s SKIP (an earlier TMA variant failed)\n", variants[i].name);
      continue;
    }
    if (pr >= 2 && tma_failed[pr] == 0) { /* a hang costs 15 s, not 40 */
      setenv("WG_QUICK", "1", 1);
      const int q = wait_child(spawn(argv[0], "--run", i, out), 15);
      unsetenv("WG_QUICK");
      tma_failed[pr] = q != 0 ? 1 : -1;
      if (q != 0) {
        printf("%-22s TMA quick check failed, status %d%s\n", variants[i].name, q,
               q == -1000 ? " (killed: 15 s, a hang)" : "");
        continue;
      }
    }
    const double left = budget - (now() - t0);
    if (left < 10) {
      printf("%-22s TIME (budget spent)\n", variants[i].name);
      continue;
    }
    const int st = wait_child(spawn(argv[0], "--run", i, out), left < 40 ? left : 40);
    if (st < 0 && pr >= 2) tma_failed[pr] = 1; /* a hang or a signal */
    if (st != 0)
      printf("%-22s run child status %d%s\n", variants[i].name, st,
             st == -1000 ? " (killed: time limit)" : "");
  }
  printf("driver done at %.1f s\n", now() - t0);
  return 0;
}
