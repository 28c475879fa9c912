/*
 * gemm.c: cl/matmul_mma_nv.cl for every mode and a handful of tile configurations, on small
 * shapes (every element checked), on 4096^3 and 8192^3 (timed), on transposes, the general load
 * paths, and ragged and rectangular shapes. One child process runs one configuration on a list
 * of shapes (lab_gemm_run); the driver decides which (driver.c). Every output is poisoned (all
 * bits set: a NaN in every dtype) before the checked run; the check covers sampled elements
 * against fp64 references (the mode's own, whose inputs are rounded as the kernel rounds them,
 * and the plain one), every element of C for leftover poison, and every element outside C's
 * blocks for changes. Timing: profiling events, one warm-up, the median of 10 runs that cycle
 * through copies of the operands so that L2 (50 MB) does not hold them from one run to the next.
 */
#include "lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- configurations ---- */

typedef struct gemm_config {
  int ab, c, precision; /* storage types (ocf_dtype) and, for fp32 inputs, 1 TF32 / 2 3XTF32 */
  int trans_a, trans_b;
  int bm, bn, bk, wm, wn, stages;
  int a_load, b_load;
  int role;        /* LAB_ROLE_* */
  int timed;       /* the timed shapes of its job: LAB_SHAPES_* */
  int l2_prefetch; /* CP_L2_PREFETCH */
  int copy_at;     /* COPY_AT: the k step after whose mma the next slice's copies go out */
  int interior;    /* INTERIOR_FAST: unguarded copies of full slices of interior tiles */
  int passes;      /* SPLIT3_PASSES (3XTF32): the three products in three passes */
} gemm_config;

enum {
  NONE = LAB_SHAPES_NONE,
  T4096 = LAB_SHAPES_4096,
  SQUARES = LAB_SHAPES_SQUARES,
  NEWSHAPES = LAB_SHAPES_NEW
};
enum {
  NEW = LAB_ROLE_NEW,
  DEF = LAB_ROLE_DEFAULT,
  ALT = LAB_ROLE_ALT,
  TRANS = LAB_ROLE_TRANS,
  GEN = LAB_ROLE_GENERAL
};

/* Every field spelled out: inputs, C, precision | transposes | BM BN BK | WM WN | stages | A and
   B load paths | role | timed shapes | L2 prefetch | COPY_AT INTERIOR_FAST SPLIT3_PASSES. Local
   memory: STAGES (BM + BN) BK bytes per element; NVIDIA's compiler adds 16 bytes. The second
   run measured the defaults and alternatives of 32 to 72 KiB (tools/lab/mma/README.md has its
   figures) and showed static local memory of 64 and 96 KiB to launch and run right although
   the device reports 48 KiB; the driver skips a configuration whose local memory a probe of
   this run could not launch. */
static const gemm_config configs[] = {
    /* The third run's candidates, first: the small shapes, then 4096^3, 8192^3 and
       4097x4095x4104. Each mode's measured best as it was (copies before the first mma, guarded
       everywhere), then the loop options alone (copies after the first k step's mma, unguarded
       copies of interior tiles: c1 i1), then deeper pipelines and deeper K slices in the local
       memory beyond 48 KiB that the second run showed to work (2 workgroups of 4 warps fit an
       SM up to 96 KiB each: fewer barriers and address work per mma, more latency covered). */
    {2, 0, 1, 0, 0, 128, 128, 32, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 0, 0, 0},
    {2, 0, 1, 0, 0, 128, 128, 32, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0},
    {2, 0, 1, 0, 0, 128, 128, 32, 64, 64, 4, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 64 KiB */
    {2, 0, 1, 0, 0, 128, 128, 64, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 96 KiB */
    {2, 0, 1, 0, 0, 128, 128, 64, 64, 64, 2, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 64 KiB */
    {2, 0, 1, 0, 0, 128, 256, 32, 64, 64, 4, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 96, 8 w */
    {2, 0, 1, 0, 0, 128, 128, 32, 64, 32, 4, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 64, 8 w */
    {1, 0, 1, 0, 0, 128, 128, 64, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 96 KiB */
    {0, 0, 1, 0, 0, 128, 128, 16, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 0, 0, 0},
    {0, 0, 1, 0, 0, 128, 128, 16, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0},
    {0, 0, 1, 0, 0, 128, 128, 32, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 96 KiB */
    {0, 0, 1, 0, 0, 128, 128, 16, 64, 64, 4, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 64 KiB */
    {0, 0, 2, 0, 0, 128, 128, 16, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 0, 0, 0},
    {0, 0, 2, 0, 0, 128, 128, 16, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 1},
    {0, 0, 2, 0, 0, 128, 128, 32, 64, 64, 3, 16, 16, NEW, NEWSHAPES, 0, 1, 1, 0}, /* 96 KiB */
    /* 16-bit C */
    {2, 2, 1, 0, 0, 128, 128, 32, 64, 64, 3, 16, 16, ALT, T4096, 0, 0, 0, 0},
    {1, 1, 1, 0, 0, 128, 128, 32, 64, 64, 3, 16, 16, ALT, T4096, 0, 0, 0, 0},
    /* transposes: TT takes the other fragment path of each operand (the mixed ones, and two
       general ones below, with the loop options c1 i1, so that the unguarded copies run on
       every copy path) */
    {2, 0, 1, 1, 1, 128, 128, 32, 64, 64, 3, 16, 16, TRANS, T4096, 0, 0, 0, 0},
    {0, 0, 1, 1, 1, 128, 128, 16, 64, 64, 3, 16, 16, TRANS, T4096, 0, 0, 0, 0},
    {2, 0, 1, 1, 0, 128, 128, 32, 64, 64, 3, 16, 16, TRANS, NONE, 0, 1, 1, 0},
    {2, 0, 1, 0, 1, 128, 128, 32, 64, 64, 3, 16, 16, TRANS, NONE, 0, 1, 1, 0},
    {0, 0, 1, 1, 0, 128, 128, 16, 64, 64, 3, 16, 16, TRANS, NONE, 0, 1, 1, 0},
    {0, 0, 1, 0, 1, 128, 128, 16, 64, 64, 3, 16, 16, TRANS, NONE, 0, 1, 1, 0},
    /* the other load paths: element by element (any stride), cp.async of 4 bytes */
    {2, 0, 1, 0, 0, 128, 128, 32, 64, 64, 3, 0, 0, GEN, LAB_SHAPES_GENERAL, 0, 0, 0, 0},
    {0, 0, 1, 0, 0, 128, 128, 16, 64, 64, 3, 4, 4, GEN, LAB_SHAPES_GENERAL, 0, 0, 0, 0},
    {0, 0, 2, 0, 0, 128, 128, 16, 64, 32, 3, 4, 4, GEN, NONE, 0, 1, 1, 0},
    {2, 0, 1, 1, 1, 128, 128, 32, 64, 64, 3, 0, 0, GEN, NONE, 0, 1, 1, 0},
};
#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

static int config_threads(const gemm_config *g) {
  return 32 * (g->bm / g->wm) * (g->bn / g->wn);
}

static int element_bytes(int dtype) {
  return dtype == 0 ? 4 : 2;
}

static const char *mode_name(const gemm_config *g) {
  if (g->ab == 0) return g->precision == 2 ? "3xtf32" : "tf32";
  return g->ab == 1 ? "f16" : "bf16";
}

static void config_name(const gemm_config *g, char *out, size_t size) {
  static const char *dt[] = {"f32", "f16", "bf16"};
  char c_part[16] = "", t_part[8] = "", l_part[16] = "";
  const char *p_part = g->l2_prefetch ? " pf" : "";
  if (g->c != 0) snprintf(c_part, sizeof c_part, ">%s", dt[g->c]);
  if (g->trans_a || g->trans_b)
    snprintf(t_part, sizeof t_part, " %c%c", g->trans_a ? 'T' : 'N', g->trans_b ? 'T' : 'N');
  if (g->a_load != 16 || g->b_load != 16)
    snprintf(l_part, sizeof l_part, " ld%d/%d", g->a_load, g->b_load);
  char o_part[16] = "";
  if (g->copy_at || g->interior || g->passes)
    snprintf(o_part, sizeof o_part, " c%di%d%s", g->copy_at, g->interior, g->passes ? "p" : "");
  snprintf(out, size, "%s%s %dx%dx%d w%dx%d s%d%s%s%s%s", mode_name(g), c_part, g->bm, g->bn, g->bk,
           g->wm, g->wn, g->stages, t_part, l_part, p_part, o_part);
}

static void config_defines(const gemm_config *g, const lab_probe_choice *choice, char *out,
                           size_t size) {
  snprintf(out, size,
           "-DAB_DTYPE=%d -DC_DTYPE=%d -DPRECISION=%d -DTRANS_A=%d -DTRANS_B=%d -DBM=%d -DBN=%d "
           "-DBK=%d -DWM=%d -DWN=%d -DSTAGES=%d -DA_LOAD=%d -DB_LOAD=%d -DCP_L2_PREFETCH=%d "
           "-DCOPY_AT=%d -DINTERIOR_FAST=%d -DSPLIT3_PASSES=%d -DGROUP_M=8 -DACTIVATION=0 -DBIAS=0 "
           "-DBIAS_DTYPE=0 "
           "-DOCF_MMA_LADDR=%d -DOCF_MMA_GADDR=%d -DOCF_MMA_INLINE=%d%s",
           g->ab, g->c, g->precision, g->trans_a, g->trans_b, g->bm, g->bn, g->bk, g->wm, g->wn,
           g->stages, g->a_load, g->b_load, g->l2_prefetch, g->copy_at, g->interior, g->passes,
           choice->laddr > 0 ? choice->laddr : 0, choice->gaddr > 0 ? choice->gaddr : 0,
           choice->inline_form, choice->asm_ok == 2 ? " -DOCF_ASM=asm" : "");
}

size_t lab_gemm_config_count(void) {
  return CONFIG_COUNT;
}

void lab_gemm_describe(size_t config, lab_gemm_info *info) {
  const gemm_config *g = &configs[config];
  memset(info, 0, sizeof *info);
  config_name(g, info->name, sizeof info->name);
  info->mode = mode_name(g);
  info->role = g->role;
  info->local_bytes = g->stages * (g->bm + g->bn) * g->bk * element_bytes(g->ab);
  info->sweep = g->c == 0 && !g->trans_a && !g->trans_b && g->a_load == 16 && g->b_load == 16;
  info->timed_shapes = g->timed;
  info->tight = g->role == LAB_ROLE_GENERAL;
}

void lab_gemm_spec(size_t config, const lab_options *o, lab_program_spec *spec) {
  memset(spec, 0, sizeof *spec);
  snprintf(spec->id, sizeof spec->id, "gemm_%02zu", config);
  config_name(&configs[config], spec->name, sizeof spec->name);
  snprintf(spec->paths[0], sizeof spec->paths[0], "%s/cl/common.cl", o->root);
  if (o->kernel_path)
    snprintf(spec->paths[1], sizeof spec->paths[1], "%s", o->kernel_path);
  else
    snprintf(spec->paths[1], sizeof spec->paths[1], "%s/cl/matmul_mma_nv.cl", o->root);
  char defines[480];
  config_defines(&configs[config], &o->choice, defines, sizeof defines);
  snprintf(spec->options, sizeof spec->options, "-cl-std=CL1.2 %s", defines);
  snprintf(spec->kernel, sizeof spec->kernel, "matmul_mma");
}

/* ---- shapes ---- */

enum { LD_ALIGN, LD_TIGHT };

typedef struct gemm_shape {
  const char *name;
  size_t m, n, k, batch;
  int ld_policy; /* LD_ALIGN: leading dimensions rounded up to 8 elements; LD_TIGHT: none */
  size_t off;    /* element offset of A, B and C */
  float alpha, beta;
  int timed;
  int group; /* LAB_GROUP_* (4096^3 is also LAB_GROUP_4096 and LAB_GROUP_GENERAL) */
} gemm_shape;

static const gemm_shape shapes[] = {
    {"1x1x1", 1, 1, 1, 1, LD_ALIGN, 0, 1.0f, 0.0f, 0, LAB_GROUP_SMALL},
    {"16x8x16", 16, 8, 16, 1, LD_ALIGN, 0, 1.0f, 0.0f, 0, LAB_GROUP_SMALL},
    {"200x136x72 a,b,off", 200, 136, 72, 1, LD_ALIGN, 8, 1.5f, -0.5f, 0, LAB_GROUP_SMALL},
    {"129x257x100", 129, 257, 100, 1, LD_ALIGN, 0, 1.0f, 0.0f, 0, LAB_GROUP_SMALL},
    {"64x64x0 beta", 64, 64, 0, 1, LD_ALIGN, 0, 1.0f, 0.5f, 0, LAB_GROUP_SMALL},
    {"300x260x1000 b3", 300, 260, 1000, 3, LD_ALIGN, 16, 1.0f, 0.0f, 0, LAB_GROUP_SMALL},
    {"1x1x1 tight", 1, 1, 1, 1, LD_TIGHT, 1, 1.0f, 0.0f, 0, LAB_GROUP_TIGHT},
    {"201x135x73 tight,a,b", 201, 135, 73, 1, LD_TIGHT, 3, 1.5f, -0.5f, 0, LAB_GROUP_TIGHT},
    {"129x257x100 tight b2", 129, 257, 100, 2, LD_TIGHT, 1, 1.0f, 0.0f, 0, LAB_GROUP_TIGHT},
    {"4096^3", 4096, 4096, 4096, 1, LD_ALIGN, 0, 1.0f, 0.0f, 1, LAB_GROUP_SQUARES},
    {"8192^3", 8192, 8192, 8192, 1, LD_ALIGN, 0, 1.0f, 0.0f, 1, LAB_GROUP_SQUARES},
    {"4097x4095x4104", 4097, 4095, 4104, 1, LD_ALIGN, 0, 1.0f, 0.0f, 1, LAB_GROUP_RECT},
    {"8192x1024x8192", 8192, 1024, 8192, 1, LD_ALIGN, 0, 1.0f, 0.0f, 1, LAB_GROUP_RECT},
    {"16384x4096x1024", 16384, 4096, 1024, 1, LD_ALIGN, 0, 1.0f, 0.0f, 1, LAB_GROUP_RECT},
    {"2048x2048x16384", 2048, 2048, 16384, 1, LD_ALIGN, 0, 1.0f, 0.0f, 1, LAB_GROUP_RECT},
    {"4095x4097x4093 tight", 4095, 4097, 4093, 1, LD_TIGHT, 0, 1.0f, 0.0f, 1, LAB_GROUP_GENERAL},
};
#define SHAPE_COUNT (sizeof shapes / sizeof shapes[0])
#define SHAPE_4096 9 /* shapes[SHAPE_4096] is 4096^3 */

size_t lab_gemm_shape_count(void) {
  return SHAPE_COUNT;
}

const char *lab_gemm_shape_name(size_t id) {
  return shapes[id].name;
}

int lab_gemm_shape_timed(size_t id) {
  return shapes[id].timed;
}

/* The shape as run: the large ones divided by `scale` (a check of the lab on a slow device). */
static gemm_shape scaled(size_t id, int scale, char *name, size_t size) {
  gemm_shape s = shapes[id];
  if (scale > 1 && s.timed) {
    const size_t f = (size_t)scale;
    s.m = (s.m + f - 1) / f, s.n = (s.n + f - 1) / f, s.k = (s.k + f - 1) / f;
    snprintf(name, size, "%s/%d", s.name, scale);
    s.name = name;
  }
  return s;
}

double lab_gemm_shape_seconds(size_t id, int scale) {
  char name[48];
  const gemm_shape s = scaled(id, scale, name, sizeof name);
  const double flops = 2.0 * (double)s.m * (double)s.n * (double)s.k * (double)s.batch;
  const double elements = (double)(s.m * s.k + s.k * s.n + s.m * s.n) * (double)s.batch;
  /* 12 runs at 20 TFLOP/s; data made, uploaded, read back and checked at 10 ns an element; a
     sampled fp64 reference of 64 x 64 elements at 1 ns a term, for two modes */
  return 0.05 + 12.0 * flops / 20e12 + elements * 10e-9 + 2.0 * 4096.0 * (double)s.k * 1e-9;
}

size_t lab_gemm_group(int group, size_t *ids, size_t max) {
  size_t n = 0;
  if (group == LAB_GROUP_NEW) { /* the squares and one ragged shape */
    static const char *const names[] = {"4096^3", "8192^3", "4097x4095x4104"};
    for (size_t j = 0; j < 3 && n < max; j++)
      for (size_t i = 0; i < SHAPE_COUNT; i++)
        if (strcmp(shapes[i].name, names[j]) == 0) ids[n++] = i;
    return n;
  }
  for (size_t i = 0; i < SHAPE_COUNT && n < max; i++) {
    const int in = shapes[i].group == group ||
                   (i == SHAPE_4096 && (group == LAB_GROUP_4096 || group == LAB_GROUP_GENERAL));
    if (in) ids[n++] = i;
  }
  return n;
}

static size_t round_up(size_t x, size_t to) {
  return (x + to - 1) / to * to;
}

/* ---- data: operands on host and device, sampled references ---- */

typedef struct gemm_data {
  int valid;
  int ab;
  int trans_a, trans_b;
  gemm_shape shape;
  size_t lda, ldb, ldc, stride_a, stride_b, stride_c;
  size_t a_set, b_set, c_set; /* elements of one copy of each operand (a multiple of 64) */
  int sets;
  float *a, *b; /* one copy, values as stored (16-bit inputs already rounded) */
  cl_mem a_mem, b_mem, c_mem;
  /* the sample grid: rows x cols of every batch */
  size_t n_rows, n_cols, *rows, *cols;
  double *ref_plain, *ref_tf32, *ref_3x, *bound; /* [batch][row][col], NULL until needed */
} gemm_data;

static void data_free(gemm_data *d) {
  if (d->a_mem) clReleaseMemObject(d->a_mem);
  if (d->b_mem) clReleaseMemObject(d->b_mem);
  if (d->c_mem) clReleaseMemObject(d->c_mem);
  free(d->a), free(d->b), free(d->rows), free(d->cols);
  free(d->ref_plain), free(d->ref_tf32), free(d->ref_3x), free(d->bound);
  memset(d, 0, sizeof *d);
}

static int data_matches(const gemm_data *d, int ab, int ta, int tb, const gemm_shape *s) {
  return d->valid && d->ab == ab && d->trans_a == ta && d->trans_b == tb && d->shape.m == s->m &&
         d->shape.n == s->n && d->shape.k == s->k && d->shape.batch == s->batch &&
         d->shape.ld_policy == s->ld_policy && d->shape.off == s->off;
}

/* Element (i, p) of op(A) and (p, j) of op(B) of batch `batch`, from the host copies. */
static float op_a(const gemm_data *d, size_t batch, size_t i, size_t p) {
  const size_t base = d->shape.off + batch * d->stride_a;
  return d->a[base + (d->trans_a ? p * d->lda + i : i * d->lda + p)];
}
static float op_b(const gemm_data *d, size_t batch, size_t p, size_t j) {
  const size_t base = d->shape.off + batch * d->stride_b;
  return d->b[base + (d->trans_b ? j * d->ldb + p : p * d->ldb + j)];
}

static void pick(size_t extent, size_t want, size_t **out, size_t *count, uint64_t *seed) {
  *count = extent <= want ? extent : want;
  *out = malloc(*count * sizeof **out);
  if (extent <= want) {
    for (size_t i = 0; i < extent; i++)
      (*out)[i] = i;
    return;
  }
  (*out)[0] = 0;
  (*out)[1] = extent - 1;
  for (size_t i = 2; i < want; i++)
    (*out)[i] = (size_t)(lab_rand_next(seed) % extent);
}

static cl_mem upload_sets(lab_env *env, const float *values, size_t count, size_t set_elems,
                          int sets, int dtype, cl_int *err) {
  const size_t eb = (size_t)element_bytes(dtype);
  void *stored = malloc(set_elems * eb);
  if (!stored) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  memset(stored, 0, set_elems * eb);
  for (size_t i = 0; i < count; i++) {
    if (dtype == 0)
      ((float *)stored)[i] = values[i];
    else
      ((uint16_t *)stored)[i] = dtype == 1 ? lab_f32_to_f16(values[i]) : lab_f32_to_bf16(values[i]);
  }
  cl_mem mem =
      clCreateBuffer(env->context, CL_MEM_READ_ONLY, set_elems * eb * (size_t)sets, NULL, err);
  for (int s = 0; s < sets && *err == CL_SUCCESS; s++)
    *err = clEnqueueWriteBuffer(env->queue, mem, CL_TRUE, (size_t)s * set_elems * eb,
                                set_elems * eb, stored, 0, NULL, NULL);
  free(stored);
  return mem;
}

/* Makes (or keeps) the data of one shape for inputs of type ab and the given transposes. */
static int data_prepare(lab_env *env, gemm_data *d, int ab, int ta, int tb, const gemm_shape *s,
                        char *detail, size_t size) {
  if (data_matches(d, ab, ta, tb, s)) return 1;
  data_free(d);
  d->ab = ab, d->trans_a = ta, d->trans_b = tb, d->shape = *s;
  const size_t a_rows = ta ? s->k : s->m, a_cols = ta ? s->m : s->k;
  const size_t b_rows = tb ? s->n : s->k, b_cols = tb ? s->k : s->n;
  const size_t align = s->ld_policy == LD_ALIGN ? 8 : 1;
  d->lda = round_up(a_cols ? a_cols : 1, align);
  d->ldb = round_up(b_cols ? b_cols : 1, align);
  d->ldc = round_up(s->n, align);
  d->stride_a = round_up(a_rows * d->lda + 5, align);
  d->stride_b = round_up(b_rows * d->ldb + 3, align);
  d->stride_c = round_up(s->m * d->ldc + 7, align);
  const size_t a_count = s->off + (s->batch - 1) * d->stride_a + a_rows * d->lda;
  const size_t b_count = s->off + (s->batch - 1) * d->stride_b + b_rows * d->ldb;
  const size_t c_count = s->off + (s->batch - 1) * d->stride_c + s->m * d->ldc;
  d->a_set = round_up(a_count + 64, 64);
  d->b_set = round_up(b_count + 64, 64);
  d->c_set = round_up(c_count + 64, 64);
  const double set_bytes = (double)(d->a_set + d->b_set) * element_bytes(ab) + d->c_set * 4.0;
  d->sets = s->timed ? (int)ceil(256e6 / set_bytes) : 1;
  if (d->sets > 8) d->sets = 8;
  if (d->sets < 1) d->sets = 1;

  d->a = malloc(a_count * sizeof *d->a);
  d->b = malloc(b_count * sizeof *d->b);
  if (!d->a || !d->b) {
    snprintf(detail, size, "host memory");
    data_free(d);
    return 0;
  }
  uint64_t seed = 1234567 + s->m * 31 + s->n * 17 + s->k + (uint64_t)ab * 1000003;
  for (size_t i = 0; i < a_count; i++)
    d->a[i] = lab_round_to(ab, lab_rand_unit(&seed));
  for (size_t i = 0; i < b_count; i++)
    d->b[i] = lab_round_to(ab, lab_rand_unit(&seed));
  cl_int err = CL_SUCCESS;
  d->a_mem = upload_sets(env, d->a, a_count, d->a_set, d->sets, ab, &err);
  if (err == CL_SUCCESS) d->b_mem = upload_sets(env, d->b, b_count, d->b_set, d->sets, ab, &err);
  if (err == CL_SUCCESS)
    d->c_mem =
        clCreateBuffer(env->context, CL_MEM_READ_WRITE, d->c_set * 4 * (size_t)d->sets, NULL, &err);
  if (err != CL_SUCCESS) {
    snprintf(detail, size, "buffers: %s", lab_cl_error(err));
    data_free(d);
    return 0;
  }
  pick(s->m, 64, &d->rows, &d->n_rows, &seed);
  pick(s->n, 64, &d->cols, &d->n_cols, &seed);
  d->valid = 1;
  lab_log(0, "data %s: ab %d trans %d%d lda %zu ldb %zu ldc %zu sets %d, %.0f MB a set\n", s->name,
          ab, ta, tb, d->lda, d->ldb, d->ldc, d->sets, set_bytes / 1e6);
  return 1;
}

/* The sampled references of one mode: 0 plain (inputs as stored), 1 TF32, 2 3XTF32; bound =
   sum |a b| (plain). */
static const double *data_reference(gemm_data *d, int mode) {
  double **slot = mode == 0 ? &d->ref_plain : mode == 1 ? &d->ref_tf32 : &d->ref_3x;
  if (*slot) return *slot;
  const gemm_shape *s = &d->shape;
  const size_t cells = s->batch * d->n_rows * d->n_cols;
  *slot = malloc(cells * sizeof **slot);
  const int want_bound = d->bound == NULL;
  if (want_bound) d->bound = malloc(cells * sizeof *d->bound);
  float *arow = malloc((s->k + 1) * sizeof *arow),
        *bcols = malloc((s->k + 1) * d->n_cols * sizeof *bcols);
  for (size_t batch = 0; batch < s->batch; batch++) {
    for (size_t c = 0; c < d->n_cols; c++)
      for (size_t p = 0; p < s->k; p++)
        bcols[c * s->k + p] = op_b(d, batch, p, d->cols[c]);
    for (size_t r = 0; r < d->n_rows; r++) {
      for (size_t p = 0; p < s->k; p++)
        arow[p] = op_a(d, batch, d->rows[r], p);
      for (size_t c = 0; c < d->n_cols; c++) {
        const float *bcol = bcols + c * s->k;
        double sum = 0.0, bound = 0.0;
        for (size_t p = 0; p < s->k; p++) {
          const float a = arow[p], b = bcol[p];
          if (mode == 0) {
            sum += (double)a * b;
          } else if (mode == 1) {
            sum += (double)lab_tf32_rna(a) * lab_tf32_rna(b);
          } else {
            float ab, as, bb, bs;
            lab_split3(a, &ab, &as);
            lab_split3(b, &bb, &bs);
            sum += (double)as * bb + (double)ab * bs + (double)ab * bb;
          }
          if (want_bound) bound += fabs((double)a * b);
        }
        const size_t at = (batch * d->n_rows + r) * d->n_cols + c;
        (*slot)[at] = sum;
        if (want_bound) d->bound[at] = bound;
      }
    }
  }
  free(arow), free(bcols);
  return *slot;
}

/* ---- one run ---- */

/* Whether a load path can serve an operand: its offset, leading dimension and batch stride in
   multiples of the path's alignment. */
static int path_fits(int path, int dtype, size_t off, size_t ld, size_t stride, size_t set) {
  const size_t eb = (size_t)element_bytes(dtype);
  const size_t align = path == 16 ? 16 / eb : path == 4 ? 4 / eb : 1;
  return off % align == 0 && ld % align == 0 && stride % align == 0 && set % align == 0;
}

static cl_int set_args(cl_kernel kernel, const gemm_data *d, int set, float alpha, float beta) {
  const gemm_shape *s = &d->shape;
  const cl_ulong m = s->m, n = s->n, k = s->k;
  const cl_ulong a_off = (cl_ulong)set * d->a_set + s->off, lda = d->lda;
  const cl_ulong b_off = (cl_ulong)set * d->b_set + s->off, ldb = d->ldb;
  const cl_ulong c_off = (cl_ulong)set * d->c_set + s->off, ldc = d->ldc;
  const cl_ulong sa = d->stride_a, sb = d->stride_b, sc = d->stride_c;
  cl_int err = CL_SUCCESS;
  cl_uint i = 0;
  const cl_ulong bias_off = 0; /* the lab's programs have no bias: any buffer, never read */
#define ARG(v) (err |= clSetKernelArg(kernel, i++, sizeof(v), &(v)))
  ARG(m), ARG(n), ARG(k), ARG(alpha), ARG(d->a_mem), ARG(a_off), ARG(lda), ARG(sa);
  ARG(d->b_mem), ARG(b_off), ARG(ldb), ARG(sb), ARG(beta), ARG(d->c_mem), ARG(c_off), ARG(ldc);
  ARG(sc), ARG(d->a_mem), ARG(bias_off);
#undef ARG
  return err;
}

static double value_of(int dtype, const unsigned char *c, size_t i) {
  if (dtype == 0) {
    float v;
    memcpy(&v, c + i * 4, 4);
    return v;
  }
  uint16_t h;
  memcpy(&h, c + i * 2, 2);
  return dtype == 1 ? lab_f16_to_f32(h) : lab_bf16_to_f32(h);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Checks C (set 0) against the references; fills the row's errors; returns the status. */
static lab_status verify(lab_env *env, gemm_data *d, const gemm_config *g, const void *c_before,
                         lab_row *row) {
  const gemm_shape *s = &d->shape;
  const size_t cb = (size_t)element_bytes(g->c);
  unsigned char *c = malloc(d->c_set * cb);
  if (!c) {
    snprintf(row->detail, sizeof row->detail, "host memory");
    return LAB_ERROR;
  }
  cl_int err =
      clEnqueueReadBuffer(env->queue, d->c_mem, CL_TRUE, 0, d->c_set * cb, c, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    free(c);
    snprintf(row->detail, sizeof row->detail, "read C: %s", lab_cl_error(err));
    return LAB_ERROR;
  }
  /* every element of every block written (no poison left), every other one unchanged: walk C
     block row by block row, checking the gap before each row and the row itself */
  size_t poison = 0, changed = 0, first_bad = (size_t)-1, pos = 0;
  const unsigned char *old = c_before;
  for (size_t batch = 0; batch <= s->batch; batch++)
    for (size_t r = 0; r < (batch < s->batch ? s->m : 1); r++) {
      const size_t row_at = batch < s->batch ? s->off + batch * d->stride_c + r * d->ldc : d->c_set;
      if (row_at > pos && memcmp(c + pos * cb, old + pos * cb, (row_at - pos) * cb) != 0) {
        for (size_t i = pos; i < row_at; i++)
          if (memcmp(c + i * cb, old + i * cb, cb) != 0) {
            if (first_bad == (size_t)-1) first_bad = i;
            changed++;
          }
      }
      if (batch == s->batch) break;
      for (size_t j = 0; j < s->n; j++)
        if (isnan(value_of(g->c, c, row_at + j))) {
          if (first_bad == (size_t)-1) first_bad = row_at + j;
          poison++;
        }
      pos = row_at + s->n;
    }
  const int mode = g->ab == 0 ? g->precision : 0;
  const double *ref = data_reference(d, mode);
  const double *plain = mode == 0 ? ref : data_reference(d, 0);
  const size_t terms = s->k * (mode == 2 ? 3 : 1);
  const double u = ldexp(1.0, -24);
  const double out_u = g->c == 1 ? ldexp(1.0, -11) : g->c == 2 ? ldexp(1.0, -8) : 0.0;
  const double tol_acc = 2.0 * (double)(terms + 2) * 2.0 * u; /* truncating accumulation */
  size_t bad = 0, cells = 0, rel_count = 0;
  double err_mode = 0, rel_max = 0, rel_sum = 0, nrm_max = 0;
  char first[96] = "";
  for (size_t batch = 0; batch < s->batch; batch++)
    for (size_t r = 0; r < d->n_rows; r++)
      for (size_t col = 0; col < d->n_cols; col++) {
        const size_t at = (batch * d->n_rows + r) * d->n_cols + col;
        const size_t i = s->off + batch * d->stride_c + d->rows[r] * d->ldc + d->cols[col];
        const double before = value_of(g->c, (const unsigned char *)c_before, i);
        const double beta_part = s->beta != 0.0f ? (double)s->beta * before : 0.0;
        const double bound = fabs((double)s->alpha) * d->bound[at] + fabs(beta_part);
        const double want = (double)s->alpha * ref[at] + beta_part;
        const double want_plain = (double)s->alpha * plain[at] + beta_part;
        const double got = value_of(g->c, c, i);
        const double e = fabs(got - want);
        cells++;
        if (!(e <= tol_acc * bound + out_u * fabs(want) + 1e-30)) {
          if (!bad)
            snprintf(first, sizeof first, "C(%zu,%zu,b%zu) = %.9g, want %.9g", d->rows[r],
                     d->cols[col], batch, got, want);
          bad++;
        }
        if (bound > 0) {
          err_mode = fmax(err_mode, e / bound / u);
          nrm_max = fmax(nrm_max, fabs(got - want_plain) / bound);
        }
        if (want_plain != 0.0) {
          const double rel = fabs(got - want_plain) / fabs(want_plain);
          rel_max = fmax(rel_max, rel);
          rel_sum += rel;
          rel_count++;
        }
      }
  free(c);
  row->err_mode = err_mode;
  row->rel_max = rel_max;
  row->rel_mean = rel_count ? rel_sum / (double)rel_count : 0.0;
  row->nrm_max = nrm_max;
  if (poison || changed) {
    snprintf(row->detail, sizeof row->detail,
             "%zu elements of C unwritten (NaN), %zu outside C changed (first at %zu)", poison,
             changed, first_bad);
    return LAB_FAIL;
  }
  if (bad) {
    snprintf(row->detail, sizeof row->detail, "%zu of %zu samples off: %s", bad, cells, first);
    return LAB_FAIL;
  }
  snprintf(row->detail, sizeof row->detail, "%zu samples; nrm vs fp64 %.2g", cells, nrm_max);
  return LAB_PASS;
}

/* A driver error: FAULT when it took the context with it (nothing more can run in this
   process), ERROR when the context still works. */
static lab_status error_status(lab_env *env, lab_row *row, const char *what, cl_int err) {
  const int alive = lab_env_alive(env);
  snprintf(row->detail, sizeof row->detail, "%s: %s%s", what, lab_cl_error(err),
           alive ? "" : " (context lost)");
  return alive ? LAB_ERROR : LAB_FAULT;
}

/* The checked run (poisoned C, sampled references) and, for a timed shape that passed, the
   timed runs. */
static lab_status run_checked_and_timed(lab_env *env, cl_kernel kernel, const gemm_config *g,
                                        gemm_data *d, const gemm_shape *s, double flops,
                                        lab_row *row) {
  const size_t threads = (size_t)config_threads(g);
  const size_t cb = (size_t)element_bytes(g->c);
  const size_t tiles = ((s->m + g->bm - 1) / g->bm) * ((s->n + g->bn - 1) / g->bn);
  /* 1-D: the batch folded into the workgroup id, as the library launches it */
  const size_t global[1] = {tiles * s->batch * threads}, local[1] = {threads};

  /* C before the checked run: poison, or for beta != 0 known values (then the poison would
     propagate), with the padding left as poison either way */
  void *c_before = malloc(d->c_set * cb);
  cl_int err = c_before ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  if (err == CL_SUCCESS) {
    memset(c_before, 0xff, d->c_set * cb);
    if (s->beta != 0.0f) {
      uint64_t seed = 99;
      for (size_t batch = 0; batch < s->batch; batch++)
        for (size_t i = 0; i < s->m; i++)
          for (size_t j = 0; j < s->n; j++) {
            const size_t at = s->off + batch * d->stride_c + i * d->ldc + j;
            const float v = lab_rand_unit(&seed);
            if (g->c == 0)
              memcpy((char *)c_before + at * 4, &v, 4);
            else {
              const uint16_t h = g->c == 1 ? lab_f32_to_f16(v) : lab_f32_to_bf16(v);
              memcpy((char *)c_before + at * 2, &h, 2);
            }
          }
    }
    err = clEnqueueWriteBuffer(env->queue, d->c_mem, CL_TRUE, 0, d->c_set * cb, c_before, 0, NULL,
                               NULL);
  }
  double first_ms = 0;
  if (err == CL_SUCCESS) err = set_args(kernel, d, 0, s->alpha, s->beta);
  if (err == CL_SUCCESS) err = lab_run_kernel(env, kernel, 1, global, local, &first_ms);
  if (err != CL_SUCCESS) {
    free(c_before);
    return error_status(env, row, "checked run", err);
  }
  lab_status status = verify(env, d, g, c_before, row);
  free(c_before);
  if (status == LAB_ERROR && !lab_env_alive(env)) status = LAB_FAULT;
  if (s->timed && status == LAB_PASS) {
    int reps = first_ms > 1000.0 ? 1 : first_ms > 100.0 ? 3 : 10;
    double times[10];
    if (reps > 1) { /* warm-up */
      err = set_args(kernel, d, 1 % d->sets, 1.0f, 0.0f);
      if (err == CL_SUCCESS) err = lab_run_kernel(env, kernel, 1, global, local, NULL);
    }
    for (int r = 0; r < reps && err == CL_SUCCESS; r++) {
      err = set_args(kernel, d, r % d->sets, 1.0f, 0.0f);
      if (err == CL_SUCCESS) err = lab_run_kernel(env, kernel, 1, global, local, &times[r]);
    }
    if (err != CL_SUCCESS) return error_status(env, row, "timed run", err);
    qsort(times, (size_t)reps, sizeof times[0], cmp_double);
    row->ms = times[reps / 2];
    row->tflops = flops / (row->ms * 1e-3) / 1e12;
    char more[64];
    snprintf(more, sizeof more, "; %d runs, %d sets, min %.3f ms", reps, d->sets, times[0]);
    strncat(row->detail, more, sizeof row->detail - strlen(row->detail) - 1);
  }
  return status;
}

/* The program of one configuration in this process, and its kernel's facts. */
typedef struct gemm_program {
  lab_program prog;
  cl_kernel kernel;
  size_t wg_limit;
  char error[192]; /* why there is no kernel */
} gemm_program;

static int program_ready(lab_env *env, const lab_options *o, size_t config, gemm_program *p) {
  lab_program_spec spec;
  lab_gemm_spec(config, o, &spec);
  if (!lab_program_get(env, &spec, o->work, &p->prog)) {
    snprintf(p->error, sizeof p->error, "%s: %.150s", lab_cl_error(p->prog.status), p->prog.error);
    return 0;
  }
  cl_int err;
  p->kernel = clCreateKernel(p->prog.program, "matmul_mma", &err);
  if (err != CL_SUCCESS) {
    snprintf(p->error, sizeof p->error, "clCreateKernel: %s", lab_cl_error(err));
    p->kernel = NULL;
    return 0;
  }
  cl_ulong local_bytes = 0, private_bytes = 0;
  clGetKernelWorkGroupInfo(p->kernel, env->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof p->wg_limit,
                           &p->wg_limit, NULL);
  clGetKernelWorkGroupInfo(p->kernel, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_bytes,
                           &local_bytes, NULL);
  clGetKernelWorkGroupInfo(p->kernel, env->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_bytes,
                           &private_bytes, NULL);
  lab_log(0,
          "kernel %s: CL_KERNEL_WORK_GROUP_SIZE %zu, local %lu bytes, private %lu bytes, regs %d, "
          "spill %d, stack %d, %s\n",
          spec.name, p->wg_limit, (unsigned long)local_bytes, (unsigned long)private_bytes,
          p->prog.regs, p->prog.spill, p->prog.stack,
          p->prog.from_binary ? "the builder's binary" : "built here");
  return 1;
}

/* One configuration on one shape: the checked run, then the timed runs. Adds the row. */
static lab_status run_one(lab_env *env, gemm_program *prog, const gemm_config *g, gemm_data *d,
                          const gemm_shape *s) {
  lab_row row;
  char name[64];
  config_name(g, name, sizeof name);
  lab_row_init(&row, "gemm", name, s->name);
  row.timed = s->timed;
  row.regs = prog->prog.regs;
  row.spill = prog->prog.spill;
  const double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
  const size_t threads = (size_t)config_threads(g);
  if (!prog->kernel) {
    row.status = LAB_BUILD;
    snprintf(row.detail, sizeof row.detail, "%s", prog->error);
  } else if (prog->wg_limit < threads) {
    row.status = LAB_SKIP;
    snprintf(row.detail, sizeof row.detail, "kernel limit %zu work-items < %zu", prog->wg_limit,
             threads);
  } else if (!data_prepare(env, d, g->ab, g->trans_a, g->trans_b, s, row.detail,
                           sizeof row.detail)) {
    row.status = LAB_ERROR;
  } else if (!path_fits(g->a_load, g->ab, s->off, d->lda, d->stride_a, d->a_set) ||
             !path_fits(g->b_load, g->ab, s->off, d->ldb, d->stride_b, d->b_set)) {
    row.status = LAB_SKIP;
    snprintf(row.detail, sizeof row.detail, "load path %d/%d needs aligned offsets and strides",
             g->a_load, g->b_load);
  } else {
    row.status = run_checked_and_timed(env, prog->kernel, g, d, s, flops, &row);
  }
  if (row.status == LAB_ERROR && d->valid) data_free(d); /* buffers may be what failed */
  lab_row_add(&row);
  return row.status;
}

/* ---- one child's work ---- */

int lab_gemm_run(lab_env *env, const lab_options *o, size_t config, const size_t *ids,
                 size_t count) {
  gemm_program prog;
  memset(&prog, 0, sizeof prog);
  program_ready(env, o, config, &prog);
  gemm_data data;
  memset(&data, 0, sizeof data);
  int alive = 1;
  for (size_t i = 0; i < count && alive; i++) {
    char name[48];
    const gemm_shape s = scaled(ids[i], o->scale, name, sizeof name);
    alive = run_one(env, &prog, &configs[config], &data, &s) != LAB_FAULT;
  }
  if (alive) data_free(&data); /* after a fault, releasing into a lost context is pointless */
  if (prog.kernel && alive) clReleaseKernel(prog.kernel);
  if (alive) lab_program_release(&prog.prog);
  return alive;
}
