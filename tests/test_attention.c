/*
 * ocf_attention against the CPU reference in double (harness/reference_attention.c), within the
 * error model of harness/tolerance.c (ocft_attention_tolerance): every mask, every storage type,
 * grouped-query ratios, ragged lq and lk, head dims 1 .. 256, strided and offset tensors, the
 * log-sum-exp output, rows with no kept key and NaN rows, the refusals, the host form, and the
 * library's own unfused composition (ocf_matmul_ex, ocf_softmax_ex, ocf_matmul_ex).
 */
#include "plan/plan.h"
#include "reference_attention.h"
#include "storage16.h"
#include "test_common.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layouts of a tensor [n0, n1, l, d]. */
enum {
  DENSE = 0,       /* [b, h, l, d], offset 0 */
  INTERLEAVED = 1, /* [b, l, h, d + 3] with 5 floats between batches, offset 7: heads not
                      contiguous, rows with gaps */
  CHUNKED = 2      /* [b, h, l, d] in rows of d rounded up to 8, plus 8, 16 elements between
                      heads and batches, offset 8: gaps, every row on a 16-byte chunk at 16 bits */
};

typedef struct att_case {
  size_t b, h, h_kv, lq, lk, d;
  ocf_dtype qt, kt, vt, ot;
  int causal, offset_set;
  long long offset;
  int lengths; /* per-batch lengths: a pattern with 0 and lengths above lk */
  int lse;
  int layout;
  int q_interleaved; /* q alone INTERLEAVED, the others as `layout` (a fused QKV projection's) */
  float scale;
  ocf_variant variant;
  size_t workgroup;
  /* special values: 1 a NaN in q's row 0 of (0, 0); 2 a NaN in k's key 1 of (0, 0) */
  int special;
  /* 1: the call's scratch is a caller workspace of NaN bytes, not the pool (a split plan runs
     without zeroing it: its kernels must write every float they read there) */
  int poison;
  ocf_precision precision; /* of fp32 inputs (ocf_attention_options.precision) */
  cl_command_queue queue;  /* the launch's queue; NULL: the context's */
} att_case;

static size_t max_size(size_t a, size_t b) {
  return a > b ? a : b;
}

/* One tensor on the host: its floats (the values the reference sees), its storage bytes. */
typedef struct host_tensor {
  size_t n[3], s[3], offset, extent, elem;
  ocf_dtype dtype;
  float *values;         /* extent floats (offset included), every element as stored */
  unsigned char *stored; /* the same, in the storage type */
} host_tensor;

static void tensor_make(host_tensor *t, size_t n0, size_t n1, size_t l, size_t d, int layout,
                        ocf_dtype dtype, unsigned seed, float lo, float hi) {
  memset(t, 0, sizeof *t);
  t->n[0] = n0, t->n[1] = n1, t->n[2] = l;
  t->dtype = dtype;
  t->elem = ocf_dtype_size(dtype);
  if (layout == DENSE) {
    t->s[2] = d, t->s[1] = l * d, t->s[0] = n1 * l * d;
    t->offset = 0;
  } else if (layout == INTERLEAVED) {
    t->s[1] = d + 3, t->s[2] = n1 * (d + 3), t->s[0] = l * n1 * (d + 3) + 5;
    t->offset = 7;
  } else {
    t->s[2] = (d + 7) / 8 * 8 + 8, t->s[1] = l * t->s[2] + 16, t->s[0] = n1 * t->s[1] + 16;
    t->offset = 8;
  }
  t->extent = t->offset + (n0 - 1) * t->s[0] + (n1 - 1) * t->s[1] + (l - 1) * t->s[2] + d;
  if (n0 == 0 || n1 == 0 || l == 0) t->extent = t->offset + 1;
  t->values = ocft_alloc_floats(t->extent);
  t->stored = malloc(t->extent * t->elem);
  assert_non_null(t->stored);
  ocft_fill_uniform(t->values, t->extent, lo, hi, seed);
  for (size_t i = 0; i < t->extent; i++) {
    if (dtype == OCF_F16) {
      uint16_t x = ocf_ref_f16_from_float(t->values[i]);
      memcpy(t->stored + 2 * i, &x, 2);
      t->values[i] = ocf_ref_f16_to_float(x);
    } else if (dtype == OCF_BF16) {
      uint16_t x = ocf_ref_bf16_from_float(t->values[i]);
      memcpy(t->stored + 2 * i, &x, 2);
      t->values[i] = ocf_ref_bf16_to_float(x);
    } else {
      memcpy(t->stored + 4 * i, &t->values[i], 4);
    }
  }
}

static void tensor_free(host_tensor *t) {
  free(t->values);
  free(t->stored);
}

/* Element i of the stored bytes as float. */
static float stored_value(const host_tensor *t, const unsigned char *bytes, size_t i) {
  if (t->dtype == OCF_F32) {
    float f;
    memcpy(&f, bytes + 4 * i, 4);
    return f;
  }
  uint16_t x;
  memcpy(&x, bytes + 2 * i, 2);
  return t->dtype == OCF_F16 ? ocf_ref_f16_to_float(x) : ocf_ref_bf16_to_float(x);
}

/* Sets one stored element (and its value) to NaN. */
static void tensor_set_nan(host_tensor *t, size_t i) {
  t->values[i] = NAN;
  const float nan = NAN;
  if (t->dtype == OCF_F32)
    memcpy(t->stored + 4 * i, &nan, 4);
  else {
    const uint16_t x = t->dtype == OCF_F16 ? 0x7e00 : 0x7fc0; /* quiet NaNs of f16 and bf16 */
    memcpy(t->stored + 2 * i, &x, 2);
  }
}

static cl_mem bytes_buffer(const ocft_env *env, size_t bytes, const void *data) {
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(env->cl, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0),
                                 bytes ? bytes : 1, (void *)data, &err);
  assert_int_equal(err, CL_SUCCESS);
  return buffer;
}

static void read_bytes(const ocft_env *env, cl_mem buffer, size_t bytes, void *data) {
  assert_int_equal(clEnqueueReadBuffer(env->queue, buffer, CL_TRUE, 0, bytes, data, 0, NULL, NULL),
                   CL_SUCCESS);
}

/* Whether element i of a tensor's storage is one of its elements (not a gap). */
static int tensor_holds(const host_tensor *t, size_t d, size_t i) {
  if (i < t->offset) return 0;
  size_t rel = i - t->offset;
  /* Walk the dimensions by decreasing stride. */
  size_t order[3] = {0, 1, 2};
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      if (t->s[order[b]] > t->s[order[a]]) {
        size_t x = order[a];
        order[a] = order[b], order[b] = x;
      }
  for (int a = 0; a < 3; a++) {
    const size_t dim = order[a], idx = rel / t->s[dim];
    if (idx >= t->n[dim]) return 0;
    rel -= idx * t->s[dim];
  }
  return rel < d;
}

/* Runs one case through ocf_attention (or, with host != 0, ocf_attention_host) and checks out
   (and lse) against the reference, and that nothing outside out's elements changed. */
static void run_case(ocft_env *env, const char *what, const att_case *c, int host) {
  const size_t d = c->d, rows = c->b * c->h * c->lq;
  host_tensor q, k, v, out;
  const unsigned seed = (unsigned)(c->b * 7 + c->h * 13 + c->lq * 31 + c->lk * 17 + d);
  tensor_make(&q, c->b, c->h, c->lq, d, c->q_interleaved ? INTERLEAVED : c->layout, c->qt, seed + 1,
              -1.0f, 1.0f);
  tensor_make(&k, c->b, c->h_kv, c->lk, d, c->layout, c->kt, seed + 2, -1.0f, 1.0f);
  tensor_make(&v, c->b, c->h_kv, c->lk, d, c->layout, c->vt, seed + 3, -2.0f, 2.0f);
  tensor_make(&out, c->b, c->h, c->lq, d, c->layout, c->ot, seed + 4, 100.0f, 200.0f);
  if (c->special == 1) tensor_set_nan(&q, q.offset + 3 % d);
  if (c->special == 2 && c->lk > 1) tensor_set_nan(&k, k.offset + k.s[2] + d - 1);

  cl_uint *lengths = NULL;
  if (c->lengths) {
    lengths = malloc(max_size(c->b, 1) * sizeof *lengths);
    assert_non_null(lengths);
    for (size_t i = 0; i < c->b; i++)
      lengths[i] = (cl_uint)(i % 3 == 0   ? (c->lk > 3 ? c->lk - 3 : c->lk)
                             : i % 3 == 1 ? 0
                                          : c->lk + 5);
    if (c->b == 1) lengths[0] = (cl_uint)(c->lk / 2 + 1);
  }
  const float scale = c->scale != 0.0f ? c->scale : (float)(1.0 / sqrt((double)d));
  ocf_ref_attention_args args = {c->b,
                                 c->h,
                                 c->h_kv,
                                 c->lq,
                                 c->lk,
                                 d,
                                 q.values + q.offset,
                                 k.values + k.offset,
                                 v.values + v.offset,
                                 {q.s[0], q.s[1], q.s[2]},
                                 {k.s[0], k.s[1], k.s[2]},
                                 {v.s[0], v.s[1], v.s[2]},
                                 (double)scale,
                                 lengths,
                                 c->causal,
                                 c->offset_set ? c->offset : (long long)c->lk - (long long)c->lq};
  double *want = ocft_alloc_doubles(rows * d), *tol = ocft_alloc_doubles(rows * d);
  double *want_lse = ocft_alloc_doubles(rows), *tol_lse = ocft_alloc_doubles(rows);
  ocf_ref_attention(&args, want, want_lse);

  ocf_attention_options opt = OCF_ATTENTION_OPTIONS_INIT;
  opt.scale = c->scale;
  opt.q_dtype = c->qt, opt.k_dtype = c->kt, opt.v_dtype = c->vt, opt.out_dtype = c->ot;
  opt.causal = c->causal;
  opt.causal_offset_set = c->offset_set;
  opt.causal_offset = c->offset;
  opt.precision = c->precision;
  const size_t lse_off = 3, lse_len = lse_off + rows + 2;
  float *lse_got = ocft_alloc_floats(lse_len), *lse_before = ocft_alloc_floats(lse_len);
  ocft_fill_uniform(lse_before, lse_len, 5.0f, 6.0f, seed + 5);
  memcpy(lse_got, lse_before, lse_len * sizeof *lse_got);
  unsigned char *got = malloc(out.extent * out.elem);
  assert_non_null(got);
  ocf_status status;
  if (host) {
    memcpy(got, out.stored, out.extent * out.elem);
    opt.lse = NULL;
    status = ocf_attention_host(env->ctx, c->b, c->h, c->h_kv, c->lq, c->lk, d,
                                q.stored + q.offset * q.elem, q.s, k.stored + k.offset * k.elem,
                                k.s, v.stored + v.offset * v.elem, v.s, got + out.offset * out.elem,
                                out.s, lengths, c->lse ? lse_got + lse_off : NULL, &opt);
  } else {
    cl_mem qb = bytes_buffer(env, q.extent * q.elem, q.stored);
    cl_mem kb = bytes_buffer(env, k.extent * k.elem, k.stored);
    cl_mem vb = bytes_buffer(env, v.extent * v.elem, v.stored);
    cl_mem ob = bytes_buffer(env, out.extent * out.elem, out.stored);
    cl_mem lb = lengths ? bytes_buffer(env, c->b * sizeof *lengths, lengths) : NULL;
    cl_mem sb = c->lse ? bytes_buffer(env, lse_len * sizeof(float), lse_before) : NULL;
    opt.lengths = lb;
    opt.lse = sb;
    opt.lse_offset = c->lse ? lse_off : 0;
    ocf_launch launch = OCF_LAUNCH_INIT;
    launch.variant = c->variant;
    launch.workgroup_size = c->workgroup;
    launch.queue = c->queue;
    /* At least any split's scratch: a (m, s, acc) a row and range, a range at least a key. */
    const size_t ws_bytes = c->poison ? rows * (c->lk + 2) * (d + 2) * sizeof(float) : 0;
    if (c->poison) {
      launch.workspace = ocft_nan_buffer(env, ws_bytes);
      launch.workspace_size = ws_bytes;
    }
    status = ocf_attention(env->ctx, c->b, c->h, c->h_kv, c->lq, c->lk, d, qb, q.offset, q.s, kb,
                           k.offset, k.s, vb, v.offset, v.s, ob, out.offset, out.s, &opt, &launch);
    if (c->queue) assert_int_equal(clFinish(c->queue), CL_SUCCESS);
    read_bytes(env, ob, out.extent * out.elem, got);
    if (sb) read_bytes(env, sb, lse_len * sizeof(float), lse_got);
    clReleaseMemObject(qb), clReleaseMemObject(kb), clReleaseMemObject(vb);
    clReleaseMemObject(ob);
    if (lb) clReleaseMemObject(lb);
    if (sb) clReleaseMemObject(sb);
    if (launch.workspace) clReleaseMemObject(launch.workspace);
  }
  /* A split plan's rescales: one a tile of BK keys and the merge's (tolerance.c). */
  size_t rescales = 0;
  const char *plan = ocf_last_plan();
  if (status == OCF_SUCCESS &&
      (strstr(plan, "attention_split") || strstr(plan, "attention_mma_split"))) {
    const char *bk = strstr(plan, "-DBK=");
    assert_non_null(bk);
    rescales = (c->lk + (size_t)atoi(bk + 5) - 1) / (size_t)atoi(bk + 5) + 2;
  }
  ocft_attention_tolerance(&args, want, want_lse, (int)c->ot, rescales, tol, tol_lse);
  /* The unfused baseline rounds the scores to fp32 in memory and sums in the products' own
     order: within twice the model (test_attention_unfused's argument). */
  if (c->variant == OCF_VARIANT_BASELINE)
    for (size_t i = 0; i < rows * d; i++)
      tol[i] *= 2.0;
  if (status == OCF_SUCCESS && (strstr(plan, "attention_mma") || strstr(plan, "attention_wgmma")))
    ocft_attention_mma_tolerance(&args, want, c->qt, (int)c->precision, (int)c->ot, tol, tol_lse);
  int refused = !host && ocft_refused_by_kernel_limit(status, c->workgroup);
  if (!refused) ocft_assert_status(status, OCF_SUCCESS);

  /* out's elements against the reference, in the order of the dense reference. */
  float *got_dense = ocft_alloc_floats(rows * d);
  for (size_t bi = 0; bi < c->b; bi++)
    for (size_t hi = 0; hi < c->h; hi++)
      for (size_t i = 0; i < c->lq; i++)
        for (size_t ci = 0; ci < d; ci++) {
          const size_t at = out.offset + bi * out.s[0] + hi * out.s[1] + i * out.s[2] + ci;
          got_dense[((bi * c->h + hi) * c->lq + i) * d + ci] = stored_value(&out, got, at);
        }
  char label[256];
  snprintf(label, sizeof label,
           "%s: b %zu h %zu h_kv %zu lq %zu lk %zu d %zu types %d%d%d%d causal %d lengths %d "
           "layout %d variant %d wg %zu",
           what, c->b, c->h, c->h_kv, c->lq, c->lk, d, c->qt, c->kt, c->vt, c->ot, c->causal,
           c->lengths, c->layout, (int)c->variant, c->workgroup);
  if (refused) {
    /* The kernel's own limit is below the size asked: refused, nothing touched. */
    assert_memory_equal(got, out.stored, out.extent * out.elem);
  } else {
    ocft_check check;
    ocft_check_start(&check);
    ocft_check_elements(got_dense, want, tol, rows * d, &check);
    if (!ocft_check_passed(&check)) {
      size_t row = check.worst / d;
      fprintf(stderr, "%s: row %zu (batch %zu head %zu i %zu) c %zu\n", label, row,
              row / c->lq / c->h, row / c->lq % c->h, row % c->lq, check.worst % d);
    }
    ocft_assert_check(label, &check);
    /* Nothing but out's elements changed. */
    for (size_t i = 0; i < out.extent; i++)
      if (!tensor_holds(&out, d, i) &&
          memcmp(got + i * out.elem, out.stored + i * out.elem, out.elem) != 0) {
        fprintf(stderr, "%s: out's storage element %zu (a gap) changed\n", label, i);
        fail();
      }
    if (c->lse) {
      ocft_check lse_check;
      ocft_check_start(&lse_check);
      ocft_check_elements(lse_got + lse_off, want_lse, tol_lse, rows, &lse_check);
      ocft_assert_check("lse", &lse_check);
      ocft_assert_unchanged("before lse", lse_got, lse_before, lse_off);
      ocft_assert_unchanged("after lse", lse_got + lse_off + rows, lse_before + lse_off + rows, 2);
    }
  }
  free(got_dense);
  free(got);
  free(lse_got), free(lse_before);
  free(want), free(tol), free(want_lse), free(tol_lse);
  free(lengths);
  tensor_free(&q), tensor_free(&k), tensor_free(&v), tensor_free(&out);
}

static att_case base_case(size_t b, size_t h, size_t h_kv, size_t lq, size_t lk, size_t d) {
  att_case c;
  memset(&c, 0, sizeof c);
  c.b = b, c.h = h, c.h_kv = h_kv, c.lq = lq, c.lk = lk, c.d = d;
  c.qt = c.kt = c.vt = c.ot = OCF_F32;
  return c;
}

/* Ragged lq and lk, head dims 1 .. 256, no mask, fp32. */
static void test_attention_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][3] = {
      /* lq, lk, d */
      {1, 1, 1},
      {7, 7, 64},
      {1, 300, 128},
      {300, 7, 100},
      {7, 1000, 256},
      {300, 300, 64},
      {1, 4097, 64},
      {33, 4097, 128},
      {1000, 1000, 16},
      {5, 9, 1},
      /* decoding rows of an odd number of 16 columns (CPUs read such rows' tiles in place) */
      {1, 77, 48},
      {1, 500, 80}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++) {
    if (ocft_small() && (shapes[i][0] * shapes[i][1] > 2500 || shapes[i][2] > 128)) continue;
    att_case c = base_case(2, 2, 2, shapes[i][0], shapes[i][1], shapes[i][2]);
    if (shapes[i][0] * shapes[i][1] > 100000) c.b = c.h = c.h_kv = 1;
    run_case(env, "attention shapes", &c, 0);
  }
  if (!ocft_small()) {
    att_case c = base_case(1, 1, 1, 300, 1000, 256);
    run_case(env, "attention d 256", &c, 0);
  }
}

/* The causal mask (default bottom-right, explicit offsets), lengths, both, with lse. */
static void test_attention_masks(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][3] = {{7, 7, 64},   {7, 30, 16},     {30, 7, 32},
                                     {1, 300, 64}, {300, 300, 100}, {100, 1000, 128}};
  static const struct {
    int causal, offset_set;
    long long offset;
    int lengths;
  } masks[] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 1, -3, 0}, {1, 1, 5, 0},
               {0, 0, 0, 1}, {1, 0, 0, 1}, {1, 1, -40, 1}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++)
    for (size_t m = 0; m < OCF_ARRAY_LEN_T(masks); m++) {
      if (ocft_small() && (shapes[i][0] * shapes[i][1] > 300 || m % 2)) continue;
      att_case c = base_case(3, 2, 1, shapes[i][0], shapes[i][1], shapes[i][2]);
      if (shapes[i][0] * shapes[i][1] > 50000) c.b = 1;
      c.causal = masks[m].causal;
      c.offset_set = masks[m].offset_set;
      c.offset = masks[m].offset;
      c.lengths = masks[m].lengths;
      c.lse = 1;
      run_case(env, "attention masks", &c, 0);
    }
}

/* Every storage type, alone and mixed, with and without a mask. */
static void test_attention_dtypes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const ocf_dtype types[][4] = {{OCF_F16, OCF_F16, OCF_F16, OCF_F16},
                                       {OCF_BF16, OCF_BF16, OCF_BF16, OCF_BF16},
                                       {OCF_F32, OCF_F16, OCF_BF16, OCF_F32},
                                       {OCF_BF16, OCF_F32, OCF_F16, OCF_F16},
                                       {OCF_F16, OCF_BF16, OCF_F32, OCF_BF16}};
  for (size_t t = 0; t < OCF_ARRAY_LEN_T(types); t++)
    for (int causal = 0; causal < 2; causal++) {
      att_case c = base_case(2, 2, 2, ocft_small() ? 5 : 45, ocft_small() ? 9 : 130, 64);
      c.qt = types[t][0], c.kt = types[t][1], c.vt = types[t][2], c.ot = types[t][3];
      c.causal = causal;
      c.lse = 1;
      c.layout = causal ? INTERLEAVED : DENSE;
      run_case(env, "attention dtypes", &c, 0);
    }
}

/* Grouped-query attention: h / h_kv of 1, 2, 4 and h_kv = 1. */
static void test_attention_gqa(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t heads[][2] = {{4, 4}, {4, 2}, {8, 2}, {6, 1}, {1, 1}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(heads); i++) {
    att_case c =
        base_case(2, heads[i][0], heads[i][1], ocft_small() ? 3 : 37, ocft_small() ? 6 : 70, 32);
    c.causal = i % 2;
    c.layout = i % 2 ? INTERLEAVED : DENSE;
    run_case(env, "attention gqa", &c, 0);
  }
}

/* Strided tensors with offsets (heads interleaved, rows with gaps), head dims 1 .. 256. */
static void test_attention_layouts(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t dims[] = {1, 64, 100, 128, 256};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(dims); i++) {
    if (ocft_small() && dims[i] > 64) continue;
    att_case c = base_case(2, 2, 1, ocft_small() ? 4 : 19, ocft_small() ? 5 : 77, dims[i]);
    c.layout = INTERLEAVED;
    c.lengths = i % 2;
    c.lse = 1;
    run_case(env, "attention layouts", &c, 0);
  }
}

/* Rows with no kept key (out 0, lse -inf), NaN rows, lk 0, a negative scale. */
static void test_attention_special_rows(void **state) {
  ocft_env *env = ocft_get_env(state);
  att_case c = base_case(3, 2, 2, 6, 5, 16);
  c.lengths = 1; /* batch 1 has length 0 */
  c.lse = 1;
  run_case(env, "attention length 0", &c, 0);
  c = base_case(1, 2, 2, 9, 4, 16);
  c.causal = 1; /* offset lk - lq = -5: rows 0 .. 4 keep no key */
  c.lse = 1;
  run_case(env, "attention causal rows without keys", &c, 0);
  c = base_case(2, 2, 1, 0 + 5, 0, 8);
  c.lse = 1;
  run_case(env, "attention lk 0", &c, 0);
  c = base_case(1, 2, 2, 4, 6, 16);
  c.special = 1; /* a NaN in q's row 0: that row is NaN, the others are not */
  c.lse = 1;
  run_case(env, "attention NaN in q", &c, 0);
  c.special = 2; /* a NaN in key 1 of head 0: rows that keep key 1 are NaN */
  c.causal = 1, c.offset_set = 1, c.offset = 0;
  run_case(env, "attention NaN in k, causal", &c, 0);
  c = base_case(1, 1, 1, 5, 8, 16);
  c.scale = -0.7f;
  c.lse = 1;
  run_case(env, "attention negative scale", &c, 0);
}

/* The general shape (one work-item a row, one key a tile) and fixed workgroup sizes. */
static void test_attention_workgroups(void **state) {
  ocft_env *env = ocft_get_env(state);
  att_case c = base_case(2, 2, 1, ocft_small() ? 5 : 40, ocft_small() ? 7 : 90, 40);
  c.causal = 1;
  c.lengths = 1;
  c.lse = 1;
  c.variant = OCF_VARIANT_GENERAL;
  run_case(env, "attention general", &c, 0);
  c.variant = OCF_VARIANT_AUTO;
  static const size_t sizes[] = {1, 3, 8, 12, 32, 64};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(sizes); i++) {
    c.workgroup = sizes[i];
    run_case(env, "attention workgroup", &c, 0);
  }
}

/* Sets the context's attention tuning for every storage type of q (NULL: back to the device's
   own), as the forced-kernel suites below need for their calls of each type. */
static void tune_every_dtype(const ocft_env *env, const char *settings) {
  static const ocf_dtype dtypes[] = {OCF_F32, OCF_F16, OCF_BF16};
  for (size_t t = 0; t < OCF_ARRAY_LEN_T(dtypes); t++)
    ocft_assert_status(ocf_context_set_tuning(env->ctx, "attention", dtypes[t], "*", settings),
                       OCF_SUCCESS);
}

/* A causal case of 2 heads x lq rows over 40 keys of head dim 16 (q, k, v of `dtype`, the
   causal offset `offset`) with a NaN in key 1: the rows that keep it are NaN, lse too. Where
   `check`, the plan must be `kernel`'s. */
static void run_nan_key(ocft_env *env, const char *kernel, size_t lq, long long offset,
                        ocf_dtype dtype, int check) {
  att_case c = base_case(1, 2, 2, lq, 40, 16);
  c.qt = c.kt = c.vt = dtype;
  c.special = 2;
  c.causal = 1, c.offset_set = 1, c.offset = offset;
  c.lse = 1;
  char what[64];
  snprintf(what, sizeof what, "%s NaN", kernel);
  run_case(env, what, &c, 0);
  if (check) assert_non_null(strstr(ocf_last_plan(), kernel));
}

/* Whether a table-driven test on full sizes runs `variant` (0 to 3: none, causal, lengths,
   causal with lengths, interleaved and mixed types) on shape i of setting k: a pair that covers
   both masks on and off, {0, 3} and {1, 2} in turn, so each setting meets every variant and each
   shape both pairs over the settings (every combination would be a program each:
   test_attention_split built 85 on PoCL, 62 s of a cold CI core). */
static int variant_paired(size_t i, size_t k, int variant) {
  return (variant == 0 || variant == 3) == ((i + k) % 2 == 0);
}

/* The key ranges of a row over workgroups, joined by attention_merge: attention_split (with
   attention_decode off), then attention_decode (without and with decode.prefetch), then
   attention_lanes (4 lanes a key in pairs of keys, 8 lanes in threes over workgroups of one and
   two warps: on NVIDIA the second sums by shuffles), each with small ranges and tiles so that the
   cases here have several; attention_block off (NVIDIA's built-in values turn it on, and it would
   take these calls), and so are attention_lanes for attention_decode's cases and the matrix
   units' decoding routes for attention_lanes's. Head dims 16 to 128 with ragged lk, every mask
   (paired: variant_paired), lse, rows without keys, a NaN key, GQA, mixed 16-bit types and an
   interleaved layout, the scratch poisoned in every other case. */
static void test_attention_split(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const settings[] = {
      "split.fill=64 split.min=8 tiled.bk=8 tiled.tpr=4 decode.wg=0 block.bq=0",
      "split.min=8 decode.fill=64 decode.bk=8 decode.wg=64 decode.cpt=4 decode.lanes=0 "
      "block.bq=0",
      "split.min=8 decode.fill=64 decode.bk=8 decode.wg=64 decode.cpt=4 decode.prefetch=1 "
      "decode.lanes=0 block.bq=0",
      "split.min=8 decode.fill=64 decode.wg=16 decode.lanes=4 decode.unroll=2 block.bq=0 "
      "mma.decode_fill=0 mma.split_fill=0 mma.pack=0",
      "split.min=8 decode.fill=64 decode.wg=64 decode.lanes=8 decode.unroll=3 block.bq=0 "
      "mma.decode_fill=0 mma.split_fill=0 mma.pack=0"};
  static const char *const kernels[] = {"attention_split", "attention_decode", "attention_decode",
                                        "attention_lanes", "attention_lanes"};
  /* llvmpipe's loop limit: attention_decode is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  for (int k = 0; k < (int)OCF_ARRAY_LEN_T(kernels); k++) {
    tune_every_dtype(env, settings[k]);
    static const size_t shapes[][3] = {{1, 17, 16}, {3, 64, 32}, {2, 100, 64}, {1, 1000, 128}};
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++)
      for (int variant = 0; variant < 4; variant++) {
        if (ocft_small() ? shapes[i][1] > 64 || variant > 1
                         : !variant_paired(i, (size_t)k, variant))
          continue;
        att_case c = base_case(2, 2, 1, shapes[i][0], shapes[i][1], shapes[i][2]);
        c.lse = 1;
        c.causal = variant % 2;
        c.lengths = variant >= 2;
        c.layout = variant == 3 ? INTERLEAVED : DENSE;
        if (variant == 3) c.qt = OCF_BF16, c.vt = OCF_F16, c.ot = OCF_F16;
        c.poison = variant % 2; /* the scratch not zeroed: every float read must be written */
        run_case(env, kernels[k], &c, 0);
        if (k == 0 || !limited) assert_non_null(strstr(ocf_last_plan(), kernels[k]));
        if (k == 2 && !limited) assert_non_null(strstr(ocf_last_plan(), "-DPREFETCH=1"));
      }
    run_nan_key(env, kernels[k], 4, 0, OCF_F32, k == 0 || !limited);
  }
  tune_every_dtype(env, NULL);
}

/* The query heads attention_tiled decodes together (-DHG= of the last plan; 1 without one). */
static long plan_heads(void) {
  const char *hg = strstr(ocf_last_plan(), "-DHG=");
  return hg ? atol(hg + 5) : 1;
}

/* Decoding grouped-query heads together (attention_heads: tiled.heads query heads of one key
   head a work-item, one query row each), with and without the key split (attention_split with
   HG, merged by attention_merge): groups of 2, 3, 4 and 8 (MQA, capped so that a workgroup is
   left for each compute unit), head dims of one to five vectors of 16 (40: not whole vectors,
   one head a workgroup), every mask, lse, rows without keys, 16-bit types, interleaved heads, a
   NaN in a query (its head's row alone) and in a key (every head of its key head), the scratch
   poisoned. Where no loop limit stands in the way (llvmpipe's), the plan must group heads. */
static void test_attention_gqa_decode(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const settings[] = {
      "tiled.tpr=1 tiled.bq=32 tiled.bk=32 tiled.heads=8 split.fill=0 decode.wg=0 decode.lanes=0 "
      "block.bq=0 mma.on=0",
      "tiled.tpr=1 tiled.bq=32 tiled.bk=16 tiled.heads=8 split.fill=64 split.min=16 decode.wg=0 "
      "decode.lanes=0 block.bq=0 mma.on=0"};
  static const struct {
    size_t b, h, h_kv, lk, d;
  } cases[] = {{2, 8, 2, 77, 64},  {1, 6, 2, 300, 32}, {3, 4, 1, 50, 16},
               {1, 8, 1, 129, 48}, {2, 6, 3, 40, 80},  {2, 8, 2, 60, 40}};
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  for (size_t k = 0; k < OCF_ARRAY_LEN_T(settings); k++) {
    tune_every_dtype(env, settings[k]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++)
      for (int variant = 0; variant < 4; variant++) {
        if (ocft_small() && (variant > 1 || cases[i].lk > 100)) continue;
        att_case c = base_case(cases[i].b, cases[i].h, cases[i].h_kv, 1, cases[i].lk, cases[i].d);
        c.lse = variant != 1;
        c.causal = variant % 2;
        c.lengths = variant >= 2; /* batch 1 keeps no key, batch 2 more than lk */
        c.layout = variant == 3 ? INTERLEAVED : DENSE;
        if (variant == 2) c.qt = OCF_F16, c.kt = OCF_BF16, c.vt = OCF_BF16, c.ot = OCF_BF16;
        c.special = variant == 1 ? 1 : variant == 3 ? 2 : 0;
        c.poison = k == 1;
        run_case(env, "attention gqa decode", &c, 0);
        /* The most heads of the group (at most 8) that divide it and leave a workgroup for
           every compute unit; none for a head dim of part of a vector. */
        const size_t group = c.h / c.h_kv;
        size_t want = c.d % 16 ? 1 : group < 8 ? group : 8;
        while (want > 1 && (group % want || c.b * c.h / want < env->info.compute_units))
          want--;
        const long hg = plan_heads();
        if (!limited && hg != (long)want) {
          print_error("b %zu h %zu h_kv %zu d %zu: HG %ld, expected %zu (%s)\n", c.b, c.h, c.h_kv,
                      c.d, hg, want, ocf_last_plan());
          fail();
        }
        if (k == 1 && !limited) assert_non_null(strstr(ocf_last_plan(), "attention_split"));
      }
  }
  tune_every_dtype(env, NULL);
}

/* The workspace query (ocf_attention_workspace_size) agrees with the plan the call runs: the
   decode split's size serves the call through a caller's workspace (NaN bytes: every float
   read is written first) with the pool's result bit for bit; one byte less, or none, bounds the
   plan (fewer ranges, or one), right to the tolerance and no byte written past the size lent; a
   plan that does not split needs 0; bad arguments are refused (the baseline's memory:
   test_attention_baseline_memory). */
static void test_attention_workspace(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { H = 2, LK = 200, D = 64, QN = H * D, KN = H * LK * D };
  tune_every_dtype(env, "split.fill=64 split.min=8 tiled.bk=8 tiled.tpr=4 decode.wg=0 block.bq=0");
  size_t bytes = 0;
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 1, H, H, 1, LK, D, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, NULL, NULL, &bytes),
                     OCF_SUCCESS);
  /* at least two ranges of each row's (m, s, acc) */
  assert_true(bytes >= 2 * H * (D + 2) * sizeof(float));
  float *q = ocft_alloc_floats(QN), *kv = ocft_alloc_floats(KN);
  float *before = ocft_alloc_floats(QN), *pooled = ocft_alloc_floats(QN);
  float *got = ocft_alloc_floats(QN);
  ocft_fill_uniform(q, QN, -1.0f, 1.0f, 81), ocft_fill_uniform(kv, KN, -1.0f, 1.0f, 82);
  ocft_fill_uniform(before, QN, -1.0f, 1.0f, 83);
  cl_mem qb = ocft_buffer(env, QN, q), kb = ocft_buffer(env, KN, kv), vb = ocft_buffer(env, KN, kv);
  cl_mem ob = ocft_buffer(env, QN, before), ws = ocft_nan_buffer(env, bytes);
  ocft_assert_status(ocf_attention(env->ctx, 1, H, H, 1, LK, D, qb, 0, NULL, kb, 0, NULL, vb, 0,
                                   NULL, ob, 0, NULL, NULL, NULL),
                     OCF_SUCCESS);
  assert_non_null(strstr(ocf_last_plan(), "attention_split"));
  ocft_read(env, ob, QN, pooled);
  ocft_write(env, ob, QN, before);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workspace = ws;
  const ocf_ref_attention_args args = {1,
                                       H,
                                       H,
                                       1,
                                       LK,
                                       D,
                                       q,
                                       kv,
                                       kv,
                                       {QN, D, D},
                                       {KN, LK * D, D},
                                       {KN, LK * D, D},
                                       (double)(float)(1.0 / sqrt((double)D)),
                                       NULL,
                                       0,
                                       0};
  double *want = ocft_alloc_doubles(QN), *tol = ocft_alloc_doubles(QN);
  ocf_ref_attention(&args, want, NULL);
  /* Ranges of at least tiled.bk = 8 keys, whatever their number within the workspace. */
  ocft_attention_tolerance(&args, want, NULL, 0, LK / 8 + 3, tol, NULL);
  const size_t sizes[] = {bytes - 1, 0};
  for (size_t i = 0; i < 2; i++) {
    ocft_fill_bytes(env, ws, 0, bytes, 0xFF);
    ocft_write(env, ob, QN, before);
    launch.workspace_size = sizes[i];
    ocft_assert_status(ocf_attention(env->ctx, 1, H, H, 1, LK, D, qb, 0, NULL, kb, 0, NULL, vb, 0,
                                     NULL, ob, 0, NULL, NULL, &launch),
                       OCF_SUCCESS);
    if (sizes[i] == 0) assert_null(strstr(ocf_last_plan(), "attention_split"));
    ocft_read(env, ob, QN, got);
    ocft_assert_close("attention within a short workspace", got, want, tol, QN);
    assert_true(ocft_bytes_are(env, ws, sizes[i], bytes, 0xFF));
  }
  free(want), free(tol);
  ocft_fill_bytes(env, ws, 0, bytes, 0xFF);
  launch.workspace_size = bytes;
  ocft_assert_status(ocf_attention(env->ctx, 1, H, H, 1, LK, D, qb, 0, NULL, kb, 0, NULL, vb, 0,
                                   NULL, ob, 0, NULL, NULL, &launch),
                     OCF_SUCCESS);
  ocft_read(env, ob, QN, got);
  assert_memory_equal(got, pooled, QN * sizeof(float));

  /* One workgroup a row, no split: nothing to lend. */
  tune_every_dtype(env, "split.min=100000");
  bytes = 1;
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 1, H, H, 1, LK, D, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, NULL, NULL, &bytes),
                     OCF_SUCCESS);
  assert_int_equal(bytes, 0);
  tune_every_dtype(env, NULL);

  /* Refusals, *bytes untouched. */
  bytes = 7;
  ocft_assert_status(ocf_attention_workspace_size(NULL, 1, H, H, 1, LK, D, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, NULL, NULL, &bytes),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 1, H, H, 1, LK, D, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, NULL, NULL, NULL),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 1, 3, 2, 1, LK, D, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, NULL, NULL, &bytes),
                     OCF_ERR_INVALID_VALUE);
  const size_t short_rows[3] = {0, 0, D - 1};
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 1, H, H, 1, LK, D, 0, short_rows, 0,
                                                  NULL, 0, NULL, 0, NULL, NULL, NULL, &bytes),
                     OCF_ERR_INVALID_STRIDE);
  assert_int_equal(bytes, 7);
  clReleaseMemObject(qb), clReleaseMemObject(kb), clReleaseMemObject(vb);
  clReleaseMemObject(ob), clReleaseMemObject(ws);
  free(q), free(kv), free(before), free(pooled), free(got);
}

/* attention_lanes (decode.lanes), forced on: head dims whose chunks leave lanes idle or take
   several a lane (1, 17, 96, 200, 256), 16-byte, 4-byte and element loads (dense, chunked
   and interleaved layouts), every storage type and mixes, more query rows of a key head
   than a work-item holds (16 heads on one key head: row blocks; 4 heads x 3 rows; 4 heads a key
   head over dense 16-bit rows, which the ring takes), short and
   ragged key ranges, every mask, lse, rows without keys, a NaN key, the scratch poisoned; one
   workgroup of 32 lanes a key and one of 16 in single keys in four row groups (a key head's
   rows shared among them, padding rows in some), each step's loads issued a step ahead
   (decode.ahead). */
static const struct {
  size_t b, h, h_kv, lq, lk, d;
  ocf_dtype qt, kt, vt;
  int layout, causal, lengths;
} lanes_cases[] = {
    {2, 2, 2, 1, 300, 1, OCF_F32, OCF_F32, OCF_F32, DENSE, 0, 0},
    {1, 2, 1, 1, 97, 17, OCF_BF16, OCF_BF16, OCF_BF16, INTERLEAVED, 1, 0},
    {2, 2, 2, 1, 130, 96, OCF_F16, OCF_F16, OCF_F16, CHUNKED, 0, 1},
    {1, 4, 2, 1, 64, 200, OCF_F32, OCF_BF16, OCF_F16, DENSE, 1, 1},
    {1, 2, 2, 1, 45, 256, OCF_BF16, OCF_BF16, OCF_BF16, DENSE, 0, 0},
    {1, 16, 1, 1, 77, 128, OCF_F32, OCF_F32, OCF_F32, DENSE, 1, 0},
    {2, 4, 1, 3, 2, 64, OCF_BF16, OCF_F16, OCF_BF16, INTERLEAVED, 1, 1},
    {1, 8, 2, 2, 1000, 128, OCF_BF16, OCF_BF16, OCF_BF16, CHUNKED, 0, 0},
    {2, 8, 2, 1, 700, 64, OCF_BF16, OCF_BF16, OCF_BF16, DENSE, 0, 1},
};

/* lanes_cases[i] on `queue` (NULL: the context's), its scratch poisoned in every other case; the
   plan must be attention_lanes's, and with `joined` one kernel (decode.join 2). */
static void run_lanes_case(ocft_env *env, size_t i, cl_command_queue queue, int joined) {
  /* llvmpipe's loop limit: attention_lanes is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  att_case c = base_case(lanes_cases[i].b, lanes_cases[i].h, lanes_cases[i].h_kv, lanes_cases[i].lq,
                         lanes_cases[i].lk, lanes_cases[i].d);
  c.qt = lanes_cases[i].qt, c.kt = lanes_cases[i].kt, c.vt = lanes_cases[i].vt;
  c.ot = lanes_cases[i].vt;
  c.layout = lanes_cases[i].layout, c.causal = lanes_cases[i].causal;
  c.lengths = lanes_cases[i].lengths;
  c.lse = 1;
  c.poison = (int)(i % 2);
  c.queue = queue;
  run_case(env, joined ? "attention_lanes joined" : "attention_lanes", &c, 0);
  if (limited) return;
  assert_non_null(strstr(ocf_last_plan(), "attention_lanes"));
  if (joined) assert_null(strstr(ocf_last_plan(), "attention_lanes_join"));
}

static void test_attention_lanes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const settings[] = {
      "split.min=8 decode.fill=64 decode.wg=64 decode.lanes=32 decode.unroll=2 block.bq=0 "
      "mma.decode_fill=0 mma.split_fill=0 mma.pack=0",
      "split.min=16 decode.fill=64 decode.wg=32 decode.lanes=16 decode.unroll=1 decode.rows=64 "
      "decode.ahead=1 decode.row_groups=4 block.bq=0 mma.decode_fill=0 mma.split_fill=0 "
      "mma.pack=0"};
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  for (size_t k = 0; k < OCF_ARRAY_LEN_T(settings); k++) {
    tune_every_dtype(env, settings[k]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(lanes_cases); i++)
      if (!ocft_small() || lanes_cases[i].lk <= 300) run_lanes_case(env, i, NULL, 0);
    run_nan_key(env, "attention_lanes", 1, 3, OCF_F32, !limited);
  }
  tune_every_dtype(env, NULL);
}

/* attention_lanes with decode.join: the last range of a row block to arrive joins the block's
   ranges, in the one kernel. The cases of test_attention_lanes one after another on the
   context's queue (each call finds the counters the one before left at zero, and a block never
   joined would leave out's 100 .. 200), growing the queue's counters as the row blocks grow;
   then on a second in-order queue (counters of its own) and an out-of-order one where the
   device has it (counters of the call's own), each followed by a call on the context's queue.
   Not under Oclgrind: it reports the joining workgroup's reads of the others' partials as races,
   as OpenCL 1.2 orders nothing between workgroups (hence the planner's rule: PTX fences on
   NVIDIA, or a CPU's coherent memory). */
static void test_attention_lanes_join(void **state) {
  ocft_env *env = ocft_get_env(state);
  if (strstr(env->info.device_name, "Oclgrind")) skip();
  static const char *const settings[] = {
      "split.min=8 decode.fill=64 decode.wg=64 decode.lanes=8 decode.unroll=2 decode.join=2 "
      "block.bq=0 mma.decode_fill=0 mma.split_fill=0 mma.pack=0",
      "split.min=16 decode.fill=64 decode.wg=32 decode.lanes=16 decode.unroll=1 decode.rows=64 "
      "decode.join=2 decode.row_groups=2 block.bq=0 mma.decode_fill=0 mma.split_fill=0 mma.pack=0"};
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  for (size_t k = 0; k < OCF_ARRAY_LEN_T(settings); k++) {
    tune_every_dtype(env, settings[k]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(lanes_cases); i++)
      if (!ocft_small() || lanes_cases[i].lk <= 300) run_lanes_case(env, i, NULL, 1);
    run_nan_key(env, "attention_lanes", 1, 3, OCF_F32, !limited);
  }
  cl_int err = CL_SUCCESS;
  cl_command_queue second = clCreateCommandQueue(env->cl, env->device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);
  run_lanes_case(env, 5, second, 1);
  run_lanes_case(env, 1, second, 1);
  run_lanes_case(env, 5, NULL, 1);
  clReleaseCommandQueue(second);
  cl_command_queue unordered =
      clCreateCommandQueue(env->cl, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err == CL_SUCCESS) {
    run_lanes_case(env, 3, unordered, 1);
    run_lanes_case(env, 3, NULL, 1);
    clReleaseCommandQueue(unordered);
  }
  tune_every_dtype(env, NULL);
}

/* attention_lanes's BULK form (decode.bulk: K and V through a ring of local-memory stages that
   Hopper's bulk copies fill): every case of test_attention_lanes in rings of 2 and 3 stages of
   16 and 32 keys (ranges of one stage, several, and partial last stages; rows back to back in one
   copy a tile, and strided ones a copy a row), joined and not, each refill order, the second in
   four row groups (512 work-items: beyond what NVIDIA reports, after the wide probe). On an H100 or
   H200 the plan must be BULK (its wgmma probe runs first); elsewhere the setting changes nothing
   and the cases run as test_attention_lanes's. */
static void test_attention_lanes_bulk(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const settings[] = {
      "split.min=8 decode.fill=64 decode.wg=64 decode.lanes=8 decode.unroll=2 decode.join=2 "
      "decode.bulk=1 decode.stages=2 decode.bulk_keys=16 decode.bulk_min=1 "
      "block.bq=0 mma.decode_fill=0 mma.split_fill=0 mma.pack=0",
      "split.min=16 decode.fill=64 decode.wg=128 decode.lanes=16 decode.unroll=1 decode.rows=64 "
      "decode.bulk=1 decode.stages=3 decode.bulk_keys=32 decode.bulk_fill=2 decode.bulk_min=1 "
      "decode.bulk_refill=1 decode.row_groups=4 "
      "block.bq=0 mma.decode_fill=0 mma.split_fill=0 mma.pack=0"};
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  const int hopper = strstr(env->info.device_name, "H100") || strstr(env->info.device_name, "H200");
  /* (Oclgrind reports the joining workgroup's reads of the others' partials as races, as
     test_attention_lanes_join says: the joined setting does not run there) */
  const int oclgrind = strstr(env->info.device_name, "Oclgrind") != NULL;
  for (size_t k = oclgrind ? 1 : 0; k < OCF_ARRAY_LEN_T(settings); k++) {
    tune_every_dtype(env, settings[k]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(lanes_cases); i++) {
      if (ocft_small() && lanes_cases[i].lk > 300) continue;
      run_lanes_case(env, i, NULL, 0);
      /* dense rows of whole 16-byte chunks (VEC 8 of 16-bit, 4 of fp32 elements) take the ring */
      const int chunks16 = lanes_cases[i].kt == lanes_cases[i].vt &&
                           lanes_cases[i].d % (lanes_cases[i].kt == OCF_F32 ? 4 : 8) == 0 &&
                           lanes_cases[i].layout == DENSE;
      if (hopper && chunks16) assert_non_null(strstr(ocf_last_plan(), "-DBULK=1"));
      /* four row groups of 128 work-items where a key head has 4 query rows or more: 512, past
         what NVIDIA's driver reports, once the wide probe has passed (fp32's 16-row blocks: 256,
         whose join, 4 slots x 16 rows x 130 floats a group, fits the reported 48 KiB) */
      const size_t rows = lanes_cases[i].h / lanes_cases[i].h_kv * lanes_cases[i].lq;
      if (hopper && chunks16 && k == 1 && rows >= 4)
        assert_non_null(strstr(ocf_last_plan(), lanes_cases[i].kt == OCF_F32
                                                    ? "-DWG=256 -DSEG=16 -DROWG=4 "
                                                    : "-DWG=512 -DSEG=4 -DROWG=4 "));
      if (!hopper) assert_null(strstr(ocf_last_plan(), "-DBULK=1"));
    }
    run_nan_key(env, "attention_lanes", 1, 3, OCF_F32, !limited);
  }
  tune_every_dtype(env, NULL);
}

/* attention_block (off on CPUs by default): its default tiles and small ones (several tiles,
   row blocks and column blocks a work-item), every mask (paired: variant_paired), lse, GQA,
   mixed storage types, an interleaved layout, scores far from zero and a NaN key. Then 64 x 64
   tiles with block.local: past the reported 48 KiB at d 96 and 128 on NVIDIA once the
   matrix-unit probe it asks for passed (the first such call runs smaller tiles meanwhile; by d
   128's last case they are whole there), within it elsewhere. */
static void test_attention_block(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* llvmpipe's loop limit: attention_block is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  const int nvidia = strstr(env->info.vendor, "NVIDIA") != NULL;
  static const char *const settings[] = {
      "block.bq=32 block.bk=32 block.rm=4 block.tc=16 decode.wg=0",
      "block.bq=8 block.bk=8 block.rm=2 block.tc=8 decode.wg=0",
      "block.bq=64 block.bk=64 block.rm=4 block.tc=16 block.local=1 decode.wg=0"};
  int bk_64 = 0;
  for (int k = 0; k < 3; k++) {
    tune_every_dtype(env, settings[k]);
    static const size_t shapes[][3] = {
        {7, 7, 64}, {33, 70, 16}, {40, 100, 96}, {65, 129, 128}, {20, 50, 256}};
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++)
      for (int variant = 0; variant < 4; variant++) {
        if (ocft_small() ? shapes[i][0] * shapes[i][1] > 2500 || variant != (int)((i + k) % 2) ||
                               (k == 2 && shapes[i][2] > 128)
                         : !variant_paired(i, (size_t)k, variant))
          continue; /* (under Oclgrind one variant a shape: d 256's tiles take a minute) */
        att_case c = base_case(2, 4, 2, shapes[i][0], shapes[i][1], shapes[i][2]);
        c.lse = 1;
        c.causal = variant % 2;
        c.lengths = variant >= 2;
        c.layout = variant == 3 ? INTERLEAVED : DENSE;
        if (variant == 3) c.qt = OCF_BF16, c.vt = OCF_F16, c.ot = OCF_F16;
        run_case(env, "attention_block", &c, 0);
        if (!limited) assert_non_null(strstr(ocf_last_plan(), "attention_block"));
        if (k == 2 && nvidia && shapes[i][2] == 128)
          bk_64 = strstr(ocf_last_plan(), "-DBK=64 ") != NULL;
      }
    /* scores far from zero (a few hundred): a row's max short of its largest kept score would
       overflow its weights, one past it (a masked score) would underflow them */
    att_case far = base_case(1, 2, 2, 40, 100, 64);
    far.scale = 40.0f;
    far.causal = 1;
    run_case(env, "attention_block, scores far from zero", &far, 0);
    if (!limited) assert_non_null(strstr(ocf_last_plan(), "attention_block"));
    if (k == 2 && nvidia && !bk_64) {
      print_error("block.local: d 128's last case did not run 64-key tiles (the last plan: %s)\n",
                  ocf_last_plan());
      fail();
    }
    run_nan_key(env, "attention_block", 9, 0, OCF_F32, !limited);
  }
  tune_every_dtype(env, NULL);
}

/* attention_mma (matrix units; emulated off NVIDIA: mma.on=2), forced by the tuning with its
   default tiles and small ones (two warps, 16-key tiles: several tiles and row blocks): f16 and
   bf16, ragged lq and lk, head dims 16 to 128 (d 100: padded), every mask, lse, GQA, batches,
   fp32 and 16-bit out, the interleaved layout (element loads; dense: 16-byte copies where d
   allows), rows without keys and a NaN key. Mixed input types, fp32 inputs and d above 128 go
   to the next plan. */
static void test_attention_mma(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* llvmpipe's loop limit: attention_mma is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  static const char *const settings[] = {"wgmma.on=0 mma.on=2 mma.warps=2 mma.bk=16 decode.wg=0",
                                         "wgmma.on=0 mma.on=2 decode.wg=0"};
  /* Under Oclgrind (small sizes) the emulation is slow (every mma a barrier pair and 64 local
     reads a lane) and each -D set another build: the small tiles, one case of several tiles
     and row blocks at d 16 (the double buffering under the race checker) and the rows without
     keys, about 30 s of CPU. */
  const size_t small_d = 16;
  for (int k = 0; k < (ocft_small() ? 1 : 2); k++) {
    tune_every_dtype(env, settings[k]);
    static const size_t shapes[][3] = {{1, 9, 64},     {7, 7, 64},     {33, 70, 16}, {40, 100, 100},
                                       {65, 129, 128}, {100, 37, 128}, {40, 40, 32}};
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++)
      for (int variant = 0; variant < 5; variant++) {
        if (ocft_small() && (shapes[i][2] != small_d || variant > 0)) continue;
        if (shapes[i][2] == 32 && variant > 1) continue; /* d 32: CI time; two builds a setting */
        att_case c = base_case(2, 4, 2, shapes[i][0], shapes[i][1], shapes[i][2]);
        c.qt = c.kt = c.vt = variant % 2 ? OCF_F16 : OCF_BF16;
        c.ot = variant == 2 ? OCF_BF16 : variant == 3 ? OCF_F16 : OCF_F32;
        c.lse = 1;
        c.causal = variant == 1 || variant == 3;
        c.lengths = variant >= 2;
        c.layout = variant == 3 ? INTERLEAVED : DENSE;
        if (variant == 4) c.b = 3, c.h = c.h_kv = 3, c.causal = 1, c.offset_set = 1, c.offset = -2;
        run_case(env, "attention_mma", &c, 0);
        if (!limited) assert_non_null(strstr(ocf_last_plan(), "attention_mma"));
      }
    if (!ocft_small()) /* (under Oclgrind: each is another build of the program) */
      run_nan_key(env, "attention_mma", 9, 0, OCF_BF16, !limited);
    att_case c = base_case(1, 2, 2, 20, 5, ocft_small() ? small_d : 64);
    c.qt = c.kt = c.vt = OCF_F16;
    c.causal = 1; /* offset lk - lq = -15: rows 0 .. 14 keep no key */
    c.lse = 1;    /* (with small sizes the program of the f16 causal case above) */
    run_case(env, "attention_mma rows without keys", &c, 0);
    if (!limited) assert_non_null(strstr(ocf_last_plan(), "attention_mma"));
    /* Not taken: fp32 or mixed inputs, d above 128 (the planner's tests, test_mma_plans, hold
       the rules; these run the kernels taken instead). */
    for (int n = 0; n < (ocft_small() ? 0 : 3); n++) {
      c = base_case(1, 2, 2, 5, 9, n == 2 ? 144 : 32);
      c.qt = c.kt = c.vt = OCF_BF16;
      if (n == 0) c.qt = c.kt = c.vt = OCF_F32;
      if (n == 1) c.kt = OCF_F16;
      run_case(env, "attention_mma not taken", &c, 0);
      assert_null(strstr(ocf_last_plan(), "attention_mma"));
    }
  }
  tune_every_dtype(env, NULL);
}

/* attention_mma_split + attention_mma_join (emulated: mma.on=2), forced by mma.split_fill and
   a small split.min and tile so that the small shapes take several key ranges: ranges of one
   tile (one warp), and of two tiles (the double buffering within a range; two warps); lq 1 and
   a few rows, lk ragged against the tile and the ranges, causal (rows without keys: every range
   of theirs empty), lengths (0, and one that leaves the last ranges empty), lse, GQA, bf16 and
   f16. */
static void test_attention_mma_split(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* llvmpipe's loop limit: attention_mma is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  /* split.min 16: ranges of one tile of 16 (as many as lk / 16); 32: lk / 32 ranges of two;
     each again with mma.join=2 (the last range of any block joins them, no attention_mma_join;
     not under Oclgrind, which reports the join's reads of other workgroups' ranges as races). */
  static const char *const settings[] = {
      "wgmma.on=0 mma.on=2 mma.warps=1 mma.bk=16 mma.split_fill=64 split.min=16 decode.wg=0 "
      "mma.join=0",
      "wgmma.on=0 mma.on=2 mma.warps=2 mma.bk=16 mma.split_fill=64 split.min=32 decode.wg=0 "
      "mma.join=0",
      "wgmma.on=0 mma.on=2 mma.warps=1 mma.bk=16 mma.split_fill=64 split.min=16 decode.wg=0 "
      "mma.join=2",
      "wgmma.on=0 mma.on=2 mma.warps=2 mma.bk=16 mma.split_fill=64 split.min=32 decode.wg=0 "
      "mma.join=2"};
  const int oclgrind = strstr(env->info.device_name, "Oclgrind") != NULL;
  /* b, h, h_kv, lq, lk, dtype, out dtype, causal, lengths (with b 1: lk / 2 + 1), causal
     offset (1: -2, rows 0 and 1 keep no key; else lk - lq). */
  static const struct {
    size_t b, h, h_kv, lq, lk;
    ocf_dtype dt, ot;
    int causal, lengths, offset;
  } cases[] = {
      {2, 4, 2, 1, 70, OCF_BF16, OCF_F32, 0, 0, 0}, {3, 2, 2, 1, 70, OCF_F16, OCF_F16, 0, 1, 0},
      {2, 4, 2, 33, 70, OCF_F16, OCF_F32, 1, 0, 0}, {1, 4, 2, 5, 45, OCF_BF16, OCF_BF16, 1, 1, 0},
      {1, 2, 1, 3, 40, OCF_F16, OCF_F32, 1, 0, 1},  {2, 2, 2, 17, 50, OCF_BF16, OCF_F32, 1, 1, 0},
  };
  for (int k = 0; k < (oclgrind ? 2 : 4); k++) {
    tune_every_dtype(env, settings[k]);
    const int two_warps = k % 2, joined = k >= 2;
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
      if (two_warps && cases[i].lk < 64) continue; /* one range of 32 or more */
      /* Under Oclgrind (each case another build, the emulation slow): GQA with every mask in
         ranges of one tile, and the two warps' ranges of two tiles; joined (small sizes on
         other devices), one warp's two blocks of rows (lq 17). */
      if (ocft_small() && i != (two_warps || joined ? 2u : 3u)) continue;
      att_case c = base_case(cases[i].b, cases[i].h, cases[i].h_kv, cases[i].lq, cases[i].lk, 16);
      if (ocft_small()) /* an eighth of the workgroups (lq 33: 17, still two warps) */
        c.b = 1, c.h = 2, c.h_kv = 1, c.lq = c.lq > 16 ? 17 : c.lq;
      c.qt = c.kt = c.vt = cases[i].dt;
      c.ot = cases[i].ot;
      c.lse = 1;
      c.causal = cases[i].causal;
      c.lengths = cases[i].lengths;
      if (cases[i].offset) c.offset_set = 1, c.offset = -2;
      c.poison = 1; /* the scratch not zeroed: every float read must be written */
      run_case(env, "attention_mma_split", &c, 0);
      if (!limited) {
        assert_non_null(strstr(ocf_last_plan(), "attention_mma_split"));
        assert_true((strstr(ocf_last_plan(), "attention_mma_join") == NULL) == joined);
        if (two_warps && c.lq > 16) assert_non_null(strstr(ocf_last_plan(), "-DWARPS=2"));
      }
    }
  }
  tune_every_dtype(env, NULL);
}

/* A row of the matrix-unit suites' case tables: b, h, h_kv, lq, lk, d, the inputs' and out's
   types, causal, lengths, layout, causal offset (1: -2, else lk - lq). */
typedef struct mma_case_row {
  size_t b, h, h_kv, lq, lk, d;
  ocf_dtype dt, ot;
  int causal, lengths, layout, offset;
} mma_case_row;

/* The case of row r at head dim d, with lse; fp32 inputs in 3XTF32 parts. */
static att_case mma_case_of(const mma_case_row *r, size_t d) {
  att_case c = base_case(r->b, r->h, r->h_kv, r->lq, r->lk, d);
  c.qt = c.kt = c.vt = r->dt;
  if (r->dt == OCF_F32) c.precision = OCF_PRECISION_3XTF32;
  c.ot = r->ot;
  c.lse = 1;
  c.causal = r->causal;
  c.lengths = r->lengths;
  c.layout = r->layout;
  if (r->offset) c.offset_set = 1, c.offset = -2;
  return c;
}

/* attention_mma with grouped heads packed (mma.pack=1) and key warps (mma.key_warps; emulated
   off NVIDIA: mma.on=2): the query heads of a key head share a unit's blocks of rows, so blocks
   start and end inside heads (group 2 to 8, lq 1 to 7: 2 to 24 rows a unit in blocks of 16 and
   32), with causal masks (the block's limit from a head's last row where it reaches into the
   next head), lengths, lse, 16-bit and fp32 out, the interleaved and chunked layouts, fp32 in
   3XTF32 parts, one head a key head (not packed; key warps still), unsplit and in key ranges
   (joined by attention_mma_join and in the kernel), with 1, 2 and 4 key warps (each a part of
   every tile's keys, their states joined through local memory). Query rows that fill a
   workgroup are neither packed nor split among key warps. */
static void test_attention_mma_pack(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* llvmpipe's loop limit: attention_mma is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  const int oclgrind = strstr(env->info.device_name, "Oclgrind") != NULL;
  static const struct {
    const char *tune;
    int split, key_warps;
  } settings[] = {
      {"wgmma.on=0 mma.on=2 mma.pack=1 mma.warps=2 mma.bk=16 decode.wg=0", 0, 1},
      {"wgmma.on=0 mma.on=2 mma.pack=1 mma.key_warps=4 mma.warps=2 mma.bk=64 decode.wg=0", 0, 4},
      {"wgmma.on=0 mma.on=2 mma.pack=1 mma.key_warps=2 mma.warps=2 mma.bk=32 mma.split_fill=64 "
       "mma.pack_fill=64 "
       "split.min=32 decode.wg=0 mma.join=0",
       1, 2},
      {"wgmma.on=0 mma.on=2 mma.pack=1 mma.warps=1 mma.bk=16 mma.split_fill=64 mma.pack_fill=64 "
       "split.min=16 "
       "decode.wg=0 mma.join=0",
       1, 1},
      {"wgmma.on=0 mma.on=2 mma.pack=1 mma.key_warps=2 mma.warps=2 mma.bk=32 mma.split_fill=64 "
       "mma.pack_fill=64 "
       "split.min=32 decode.wg=0 mma.join=2",
       1, 2},
  };
  static const mma_case_row cases[] = {
      {2, 4, 2, 1, 70, 64, OCF_BF16, OCF_F32, 0, 0, DENSE, 0},
      {1, 8, 2, 5, 75, 16, OCF_F16, OCF_BF16, 1, 1, DENSE, 0},
      {2, 6, 2, 7, 70, 100, OCF_BF16, OCF_F16, 1, 0, INTERLEAVED, 1},
      {1, 8, 1, 3, 64, 32, OCF_F16, OCF_F32, 0, 1, DENSE, 0},
      {2, 4, 2, 3, 70, 32, OCF_F32, OCF_F32, 1, 1, CHUNKED, 0},
      {2, 3, 3, 1, 75, 32, OCF_BF16, OCF_F32, 1, 1, DENSE, 0},
  };
  /* Under Oclgrind (each case another build, the emulation slow): the group of 4 in blocks that
     end inside heads, causal with lengths, unsplit in two key warps' tiles and split. */
  for (size_t k = 0; k < OCF_ARRAY_LEN_T(settings); k++) {
    if (oclgrind && k != 1 && k != 3) continue;
    tune_every_dtype(env, settings[k].tune);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
      if (ocft_small() && i != 1) continue;
      att_case c = mma_case_of(&cases[i], ocft_small() ? 16 : cases[i].d);
      c.poison = 1; /* the split's scratch not zeroed: every float read must be written */
      run_case(env, "attention_mma packed", &c, 0);
      if (limited) continue;
      const char *plan = ocf_last_plan();
      assert_non_null(strstr(plan, settings[k].split ? "attention_mma_split" : "attention_mma"));
      assert_non_null(strstr(plan, c.h > c.h_kv ? "-DPACK=1" : "-DPACK=0"));
      /* (fewer key warps where their states do not fit the stages: d 16's rows of 32 bytes) */
      const char *kw = strstr(plan, "-DKW=");
      assert_non_null(kw);
      const int key_warps = atoi(kw + 5);
      assert_true(settings[k].key_warps == 1 ? key_warps == 1 : key_warps >= 2);
    }
    if (ocft_small()) continue;
    /* Neither packed nor key warps: query rows that fill the workgroup's blocks. */
    att_case c = base_case(1, 4, 2, 40, 40, 32);
    c.qt = c.kt = c.vt = OCF_F16;
    c.causal = 1;
    run_case(env, "attention_mma unpacked", &c, 0);
    if (!limited) {
      assert_non_null(strstr(ocf_last_plan(), "-DPACK=0"));
      assert_non_null(strstr(ocf_last_plan(), "-DKW=1 "));
    }
  }
  tune_every_dtype(env, NULL);
}

/* attention_mma on fp32 inputs in TF32 parts (ocf_attention_options.precision TF32 and 3XTF32;
   emulated off NVIDIA: mma.on=2), each forced by the tuning: Q's parts in registers (rows 16)
   and in the Q tiles (rows 32, three stages), two warps and 16-key tiles (several tiles and row
   blocks); ragged lq and lk, d 16 to 128 (d 100 and 20: padded, and 20 off the 16-byte copies),
   every mask, lse, GQA, f16 and fp32 out, the interleaved layout (element loads; dense: 16-byte
   copies where d allows), a NaN key (a NaN in either part), rows without keys; then the key
   ranges of attention_mma_split. The same calls with FP32 (the default) never take it. */
static void test_attention_mma_fp32(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* llvmpipe's loop limit: attention_mma is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  static const char *const settings[] = {
      "wgmma.on=0 mma.on=2 mma.warps=2 mma.bk=16 mma.rows=16 mma.q_local=0 decode.wg=0",
      "wgmma.on=0 mma.on=2 mma.warps=2 mma.bk=16 mma.rows=32 mma.q_local=1 mma.stages=3 "
      "mma.remat=1 decode.wg=0",
      "wgmma.on=0 mma.on=2 mma.warps=1 mma.bk=16 mma.split_fill=64 split.min=16 decode.wg=0"};
  /* Under Oclgrind (each -D set a build, the emulation slow): d 16, one case a setting. */
  static const size_t shapes[][3] = {{33, 70, 16}, {40, 100, 100}, {1, 45, 20}, {65, 129, 128}};
  for (int k = 0; k < 3; k++) {
    tune_every_dtype(env, settings[k]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(shapes); i++)
      for (int variant = 0; variant < 4; variant++) {
        if (ocft_small() && (shapes[i][2] != 16 || variant != k)) continue;
        if (k == 2 && (shapes[i][2] > 64 || variant > 1)) continue; /* CI time */
        if (shapes[i][2] == 128 && variant > 0) continue;
        if ((shapes[i][2] == 100 || shapes[i][2] == 20) && variant != k) continue;
        att_case c = base_case(2, 4, 2, shapes[i][0], shapes[i][1], shapes[i][2]);
        c.precision = variant % 2 ? OCF_PRECISION_TF32 : OCF_PRECISION_3XTF32;
        c.ot = variant == 2 ? OCF_F16 : OCF_F32;
        c.lse = 1;
        c.causal = variant == 1 || variant == 3;
        c.lengths = variant >= 2;
        c.layout = variant == 3 ? INTERLEAVED : DENSE;
        if (k == 2) c.poison = 1; /* the split's scratch not zeroed */
        run_case(env, "attention_mma fp32", &c, 0);
        if (!limited)
          assert_non_null(
              strstr(ocf_last_plan(), k == 2 ? "attention_mma_split" : "attention_mma"));
      }
    if (ocft_small() || k > 0) continue;
    att_case c = base_case(1, 2, 2, 9, 40, 32);
    c.precision = OCF_PRECISION_3XTF32;
    c.special = 2; /* a NaN in key 1: the rows that keep it are NaN */
    c.causal = 1, c.offset_set = 1, c.offset = 0;
    c.lse = 1;
    run_case(env, "attention_mma fp32 NaN", &c, 0);
    c.precision = OCF_PRECISION_TF32;
    run_case(env, "attention_mma fp32 NaN", &c, 0);
    if (!limited) assert_non_null(strstr(ocf_last_plan(), "attention_mma"));
    c = base_case(1, 2, 2, 20, 5, 64);
    c.precision = OCF_PRECISION_3XTF32;
    c.causal = 1; /* offset lk - lq = -15: rows 0 .. 14 keep no key */
    c.lse = 1;
    run_case(env, "attention_mma fp32 rows without keys", &c, 0);
    if (!limited) assert_non_null(strstr(ocf_last_plan(), "attention_mma"));
    c = base_case(1, 2, 2, 20, 50, 64);
    run_case(env, "attention_mma fp32 not taken (FP32)", &c, 0);
    assert_null(strstr(ocf_last_plan(), "attention_mma"));
  }
  tune_every_dtype(env, NULL);
}

/* attention_wgmma (Hopper's warpgroup units, sm_90a PTX: only on an NVIDIA GPU of compute
   capability 9.0, where wgmma.on=1 must take every case; elsewhere the cases run on whatever the
   planner picks, and none may be attention_wgmma): ragged lq and lk around the 128-row blocks
   and the 64- and 128-key tiles, causal (offsets that leave rows without keys, blocks that end
   past lq), lengths (0 and above lk), GQA, d 64 and 128 and the padded 40 and 72, f16 and bf16,
   every out type, lse, rows with gaps (CHUNKED), NaN in q and k; tiles of 128 and 64 keys; then
   each row's keys in ranges of 64 and of 128 (attention_wgmma_split, ranges a row keeps none
   of, and attention_wgmma_join), two stages and three; a register cap; the TMA-fed form
   (attention_wgmma_tma, after its probes) in 64-key tiles and two stages, in 128-key tiles and
   three (two at d 128, where three do not fit), and with the P V overlap and turns. */
static void test_attention_wgmma(void **state) {
  ocft_env *env = ocft_get_env(state);
  const int hopper = strstr(env->info.vendor, "NVIDIA") != NULL &&
                     env->info.nv_compute_capability_major == 9 &&
                     env->info.nv_compute_capability_minor == 0;
  /* b, h, h_kv, lq, lk, d, dtype, out dtype, causal, lengths, layout, offset (1: -2), special */
  static const struct {
    size_t b, h, h_kv, lq, lk, d;
    ocf_dtype dt, ot;
    int causal, lengths, layout, offset, special;
  } cases[] = {
      {2, 4, 2, 300, 300, 64, OCF_BF16, OCF_F32, 1, 0, DENSE, 0, 0},
      {1, 2, 1, 129, 1000, 128, OCF_F16, OCF_F16, 0, 1, DENSE, 0, 0},
      {3, 2, 2, 64, 65, 128, OCF_BF16, OCF_BF16, 0, 1, CHUNKED, 0, 0},
      {1, 3, 1, 257, 130, 72, OCF_F16, OCF_F32, 1, 0, CHUNKED, 1, 0},
      {2, 2, 2, 200, 70, 40, OCF_BF16, OCF_F16, 1, 0, DENSE, 0, 0},
      {1, 1, 1, 1000, 4097, 128, OCF_BF16, OCF_F32, 1, 0, DENSE, 0, 0},
      {1, 2, 2, 130, 200, 128, OCF_F16, OCF_F32, 0, 0, DENSE, 0, 1},
      {1, 2, 2, 130, 200, 64, OCF_BF16, OCF_F32, 1, 0, DENSE, 0, 2},
  };
  /* (wgmma.split_fill 0 and mma.split_fill 0: neither split takes these few workgroups, as
     rule 5 would on NVIDIA, whose built-in values split); the fifth, sixth and eighth split
     every case of 128 keys or more into ranges of 64 (of 128 with 128-key tiles:
     attention_wgmma_split and its join); the seventh caps the registers at 128 (two
     workgroups a compute unit); the ninth to eleventh feed the stages by the TMA, the eleventh
     with the P V overlap and the warpgroups' turns; the twelfth and thirteenth split the keys as
     the fifth does for the TMA-fed kernel (TMA_SPLIT), the twelfth with the P V overlap (its
     first product of a range past key 0), the last a workgroup a compute unit. The first eight
     say wgmma.tma=0: a card's database may turn the TMA-fed form on (the H100's does) */
  static const char *const tunings[] = {
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=128 wgmma.pipe=0 wgmma.split_fill=0 "
      "mma.split_fill=0",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=0 wgmma.split_fill=0 "
      "mma.split_fill=0",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=1 wgmma.split_fill=0 "
      "mma.split_fill=0",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=128 wgmma.pipe=1 wgmma.split_fill=0 "
      "mma.split_fill=0",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=0 wgmma.split_fill=64 "
      "split.min=64",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=1 wgmma.split_fill=64 "
      "split.min=64",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=0 wgmma.split_fill=0 "
      "mma.split_fill=0 wgmma.max_regs=128",
      "wgmma.tma=0 wgmma.on=1 wgmma.min_lq=1 wgmma.bk=128 wgmma.pipe=0 wgmma.split_fill=64 "
      "split.min=64",
      "wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=0 wgmma.split_fill=0 mma.split_fill=0 "
      "wgmma.tma=1 wgmma.tma_stages=2",
      "wgmma.on=1 wgmma.min_lq=1 wgmma.bk=128 wgmma.pipe=0 wgmma.split_fill=0 mma.split_fill=0 "
      "wgmma.tma=1 wgmma.tma_stages=3",
      "wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=1 wgmma.split_fill=0 mma.split_fill=0 "
      "wgmma.tma=2 wgmma.tma_stages=3",
      "wgmma.on=1 wgmma.min_lq=1 wgmma.bk=64 wgmma.pipe=1 wgmma.split_fill=64 split.min=64 "
      "wgmma.tma=1 wgmma.tma_stages=2 wgmma.tma_split=1",
      "wgmma.on=1 wgmma.min_lq=1 wgmma.bk=128 wgmma.pipe=0 wgmma.split_fill=64 split.min=64 "
      "wgmma.tma=1 wgmma.tma_stages=3 wgmma.tma_persist=1 wgmma.tma_split=1"};
  for (size_t k = 0; k < OCF_ARRAY_LEN_T(tunings); k++) {
    tune_every_dtype(env, NULL);
    tune_every_dtype(env, tunings[k]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
      if (!hopper && (i > 1 || k > 0 || ocft_small())) continue; /* elsewhere: the gate only */
      att_case c =
          base_case(cases[i].b, cases[i].h, cases[i].h_kv, cases[i].lq, cases[i].lk, cases[i].d);
      c.qt = c.kt = c.vt = cases[i].dt;
      c.ot = cases[i].ot;
      c.lse = 1;
      c.causal = cases[i].causal;
      c.lengths = cases[i].lengths;
      c.layout = cases[i].layout;
      c.special = cases[i].special;
      if (cases[i].offset) c.offset_set = 1, c.offset = -2;
      run_case(env, "attention_wgmma", &c, 0);
      const char *plan = ocf_last_plan();
      const int split = (k == 4 || k == 5 || k == 7 || k >= 11) && cases[i].lk >= 128;
      const char *kernel = k >= 8  ? "attention_wgmma_tma "
                           : split ? "attention_wgmma_split "
                                   : "attention_wgmma ";
      if (hopper && !strstr(plan, kernel)) fail_msg("not %s: %s", kernel, plan);
      if (hopper && k >= 8 && !strstr(plan, split ? "-DTMA_SPLIT=1" : "-DTMA_SPLIT=0"))
        fail_msg("TMA_SPLIT %d: %s", split, plan);
      if (!hopper) assert_null(strstr(plan, "attention_wgmma"));
      if (hopper) { /* bk 128 in three stages fits at d 64 only */
        char want[32];
        snprintf(want, sizeof want, "-DBK=%d -DPIPE=%d",
                 k == 0 || k == 7 || k == 9 || k == 12 || (k == 3 && cases[i].d <= 64) ? 128 : 64,
                 k == 2 || k == 3 || k == 5 || k == 10 || k == 11);
        if (!strstr(plan, want)) fail_msg("%s: %s", want, plan);
      }
    }
  }
  tune_every_dtype(env, NULL);
}

/* attention_mma's shapes beyond the default (emulated: mma.on=2), each forced by the tuning:
   32 rows a warp (two row groups) with Q's fragments in registers, and from a Q tile in local
   memory with three stages and the addresses recomputed (mma.remat), two warps and 16-key tiles
   (several tiles and row blocks); then four warps with 64-key tiles (mma.local: on NVIDIA
   beyond the reported 48 KiB where the probe runs it), 16 rows a warp in three stages, and 32
   rows a warp with Q in local memory (FlashAttention-2's 128 x 64 at d 128).
   Ragged lq and lk, causal (an offset that leaves rows without keys too), GQA, lengths, f16 and
   bf16, d 64 and 128 (and 100: padded, the interleaved layout's element loads), lse, 16-bit
   out; the two-warp shapes also through attention_mma_split's ranges. Each case is a program
   (PoCL builds a handful a shape); under Oclgrind one small case a shape. */
static void test_attention_mma_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* llvmpipe's loop limit: attention_mma is not taken (the cases still run). */
  const int limited = strstr(env->info.device_name, "llvmpipe") != NULL;
  static const struct {
    const char *tuning, *defines[3];
    int split; /* 1: also a case through attention_mma_split */
  } shapes[] = {
      {"wgmma.on=0 mma.on=2 mma.rows=32 mma.q_local=0 mma.stages=2 mma.warps=2 mma.bk=16 "
       "decode.wg=0",
       {"-DROWS=32", "-DQ_LOCAL=0", "-DSTAGES=2"},
       1},
      {"wgmma.on=0 mma.on=2 mma.rows=32 mma.q_local=1 mma.stages=3 mma.remat=1 mma.warps=2 "
       "mma.bk=16 "
       "decode.wg=0",
       {"-DROWS=32", "-DQ_LOCAL=1", "-DSTAGES=3"},
       1},
      {"wgmma.on=0 mma.on=2 mma.rows=16 mma.stages=3 mma.bk=64 mma.remat=1 mma.local=1 decode.wg=0",
       {"-DROWS=16", "-DBK=64", "-DSTAGES=3"},
       0},
      {"wgmma.on=0 mma.on=2 mma.rows=32 mma.q_local=1 mma.bk=64 mma.remat=1 mma.local=1 "
       "decode.wg=0",
       {"-DROWS=32", "-DQ_LOCAL=1", "-DBK=64"},
       0},
  };
  static const mma_case_row cases[] = {
      {2, 4, 2, 65, 129, 128, OCF_BF16, OCF_F32, 1, 0, DENSE, 0},
      {3, 2, 2, 33, 70, 64, OCF_F16, OCF_F16, 0, 1, DENSE, 0},
      {1, 2, 2, 100, 37, 100, OCF_BF16, OCF_BF16, 1, 0, INTERLEAVED, 1},
      {1, 2, 1, 130, 90, 128, OCF_F16, OCF_F32, 1, 1, DENSE, 0},
  };
  for (size_t k = 0; k < OCF_ARRAY_LEN_T(shapes); k++) {
    tune_every_dtype(env, NULL); /* (settings add to those in force) */
    tune_every_dtype(env, shapes[k].tuning);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
      if (ocft_small() && i > 0) continue;
      att_case c = mma_case_of(&cases[i], cases[i].d);
      if (ocft_small()) { /* one case a shape, d 16, f16 and bf16 in turn */
        c.b = 1, c.h = 2, c.h_kv = 1, c.lq = 40, c.lk = 45, c.d = 16;
        c.qt = c.kt = c.vt = k % 2 ? OCF_F16 : OCF_BF16;
      }
      run_case(env, "attention_mma shapes", &c, 0);
      if (!limited) {
        const char *plan = ocf_last_plan();
        if (!strstr(plan, "attention_mma")) fail_msg("case %zu of shape %zu: %s", i, k, plan);
        /* On NVIDIA (the PTX) bk and the stages are what the matrix-unit probe ran (mma.local:
           the planner asks it for the tuning's), so there only the rows are certain. */
        const int ptx = strstr(plan, "-DMMA_EMULATE=0") != NULL;
        for (int j = 0; j < 3; j++) {
          const char *def = shapes[k].defines[j];
          if (ptx && (strstr(def, "-DBK=") || strstr(def, "-DSTAGES="))) continue;
          if (!strstr(plan, def)) fail_msg("%s: %s", def, plan);
        }
      }
    }
    if (!shapes[k].split || ocft_small()) continue;
    /* Ranges of two 16-key tiles (split.min 32), rows without keys (causal, lq > lk). */
    char tuning[256];
    snprintf(tuning, sizeof tuning, "%s mma.split_fill=64 split.min=32", shapes[k].tuning);
    tune_every_dtype(env, tuning);
    att_case c = base_case(2, 4, 2, 40, 70, 64);
    c.qt = c.kt = c.vt = k ? OCF_F16 : OCF_BF16;
    c.lse = 1;
    c.causal = 1;
    run_case(env, "attention_mma_split shapes", &c, 0);
    if (!limited) {
      assert_non_null(strstr(ocf_last_plan(), "attention_mma_split"));
      assert_non_null(strstr(ocf_last_plan(), shapes[k].defines[1]));
    }
  }
  tune_every_dtype(env, NULL);
}

/* The host form: dense and strided, lengths and lse, 16-bit types. */
static void test_attention_host(void **state) {
  ocft_env *env = ocft_get_env(state);
  att_case c = base_case(2, 4, 2, 7, 12, 24);
  c.lengths = 1;
  c.lse = 1;
  c.causal = 1;
  run_case(env, "attention_host", &c, 1);
  c.layout = INTERLEAVED;
  c.qt = OCF_BF16, c.ot = OCF_F16;
  run_case(env, "attention_host strided", &c, 1);
  c.lse = c.lengths = 0;
  run_case(env, "attention_host plain", &c, 1);
}

/* The fused kernel against the library's unfused composition: S = scale Q K^T (ocf_matmul_ex,
   one product per head), P = softmax(S) with the causal band (ocf_softmax_ex), out = P V. Both
   must be within the model of the reference, and so within twice of each other. */
static void test_attention_unfused(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t h = 3, lq = ocft_small() ? 6 : 61, lk = ocft_small() ? 9 : 150, d = 32;
  const float scale = (float)(1.0 / sqrt((double)d));
  float *q = ocft_alloc_floats(h * lq * d), *k = ocft_alloc_floats(h * lk * d);
  float *v = ocft_alloc_floats(h * lk * d), *fused = ocft_alloc_floats(h * lq * d);
  float *unfused = ocft_alloc_floats(h * lq * d);
  ocft_fill_uniform(q, h * lq * d, -1.0f, 1.0f, 501);
  ocft_fill_uniform(k, h * lk * d, -1.0f, 1.0f, 502);
  ocft_fill_uniform(v, h * lk * d, -1.0f, 1.0f, 503);
  cl_mem qb = ocft_buffer(env, h * lq * d, q), kb = ocft_buffer(env, h * lk * d, k);
  cl_mem vb = ocft_buffer(env, h * lk * d, v), ob = ocft_buffer(env, h * lq * d, NULL);
  cl_mem sb = ocft_buffer(env, h * lq * lk, NULL), pb = ocft_buffer(env, h * lq * lk, NULL);
  cl_mem ub = ocft_buffer(env, h * lq * d, NULL);

  ocf_attention_options opt = OCF_ATTENTION_OPTIONS_INIT;
  opt.causal = 1;
  ocft_assert_status(ocf_attention(env->ctx, 1, h, h, lq, lk, d, qb, 0, NULL, kb, 0, NULL, vb, 0,
                                   NULL, ob, 0, NULL, &opt, NULL),
                     OCF_SUCCESS);
  char fused_plan[1024];
  snprintf(fused_plan, sizeof fused_plan, "%s", ocf_last_plan());
  ocf_matmul_options mo = OCF_MATMUL_OPTIONS_INIT;
  mo.batch = h;
  mo.stride_a = lq * d, mo.stride_b = lk * d, mo.stride_c = lq * lk;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_TRANS, lq, lk, d, scale, qb, 0, d,
                                   kb, 0, d, 0.0f, sb, 0, lk, &mo, NULL),
                     OCF_SUCCESS);
  ocf_softmax_options so = OCF_SOFTMAX_OPTIONS_INIT;
  so.causal = 1;
  so.causal_period = lq;
  so.causal_offset = lk - lq;
  ocft_assert_status(ocf_softmax_ex(env->ctx, h * lq, lk, sb, 0, lk, pb, 0, lk, &so, NULL),
                     OCF_SUCCESS);
  mo.stride_a = lq * lk, mo.stride_b = lk * d, mo.stride_c = lq * d;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, lq, d, lk, 1.0f, pb, 0, lk,
                                   vb, 0, d, 0.0f, ub, 0, d, &mo, NULL),
                     OCF_SUCCESS);
  ocft_read(env, ob, h * lq * d, fused);
  ocft_read(env, ub, h * lq * d, unfused);

  ocf_ref_attention_args args = {1,
                                 h,
                                 h,
                                 lq,
                                 lk,
                                 d,
                                 q,
                                 k,
                                 v,
                                 {0, lq * d, d},
                                 {0, lk * d, d},
                                 {0, lk * d, d},
                                 (double)scale,
                                 NULL,
                                 1,
                                 (long long)lk - (long long)lq};
  double *want = ocft_alloc_doubles(h * lq * d), *tol = ocft_alloc_doubles(h * lq * d);
  ocf_ref_attention(&args, want, NULL);
  const char *plan = fused_plan;
  const char *bk = strstr(plan, "-DBK=");
  ocft_attention_tolerance(
      &args, want, NULL, 0,
      strstr(plan, "attention_split") && bk ? lk / (size_t)atoi(bk + 5) + 3 : 0, tol, NULL);
  ocft_assert_close("attention fused", fused, want, tol, h * lq * d);
  /* The unfused path stores P (u more a weight) and sums in its own order: within twice. */
  for (size_t i = 0; i < h * lq * d; i++)
    tol[i] *= 2.0;
  ocft_assert_close("attention unfused", unfused, want, tol, h * lq * d);
  double *fused_d = ocft_alloc_doubles(h * lq * d);
  for (size_t i = 0; i < h * lq * d; i++)
    fused_d[i] = fused[i], tol[i] *= 1.5;
  ocft_assert_close("attention fused vs unfused", unfused, fused_d, tol, h * lq * d);
  free(fused_d);
  clReleaseMemObject(qb), clReleaseMemObject(kb), clReleaseMemObject(vb);
  clReleaseMemObject(ob), clReleaseMemObject(sb), clReleaseMemObject(pb);
  clReleaseMemObject(ub);
  free(q), free(k), free(v), free(fused), free(unfused), free(want), free(tol);
}

/* The small call of the refusal tests: b 2, h 2, h_kv 1, lq 3, lk 4, d 8 (q and out 96 floats,
   k and v 64, dense), out SMALL_OUT floats, each filled from `before` (uniform in [-1, 1]), a
   lengths buffer of 2 and an lse of 12 floats (unfilled), and `after` to read out into. */
enum { SMALL_OUT = 256 };
typedef struct small_call {
  float *before, *after;
  cl_mem q, k, v, out, lengths, lse;
} small_call;

static small_call small_call_make(ocft_env *env, unsigned seed) {
  small_call s;
  s.before = ocft_alloc_floats(SMALL_OUT), s.after = ocft_alloc_floats(SMALL_OUT);
  ocft_fill_uniform(s.before, SMALL_OUT, -1.0f, 1.0f, seed);
  s.q = ocft_buffer(env, 96, s.before), s.k = ocft_buffer(env, 64, s.before);
  s.v = ocft_buffer(env, 64, s.before), s.out = ocft_buffer(env, SMALL_OUT, s.before);
  s.lengths = ocft_buffer(env, 2, NULL), s.lse = ocft_buffer(env, 12, NULL);
  return s;
}

static void small_call_free(small_call *s) {
  clReleaseMemObject(s->q), clReleaseMemObject(s->k), clReleaseMemObject(s->v);
  clReleaseMemObject(s->out), clReleaseMemObject(s->lengths), clReleaseMemObject(s->lse);
  free(s->before), free(s->after);
}

/* ocf_attention's unfused baseline (OCF_VARIANT_BASELINE: ocf_matmul_ex, ocf_softmax_ex,
   ocf_matmul_ex) against the reference: grouped heads (the query heads of a key head as one
   product), the causal band at its default and a given offset, mixed 16-bit types, no keys,
   a head-interleaved q (one product per query head of a key head and per batch) and a
   head-interleaved out of one batch; then what it refuses, before anything is enqueued, and
   the events of its chain of calls. */
static void test_attention_baseline(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t lq = ocft_small() ? 5 : 37, lk = ocft_small() ? 9 : 70;
  att_case c = base_case(2, 4, 2, lq, lk, 24);
  c.variant = OCF_VARIANT_BASELINE;
  run_case(env, "baseline GQA", &c, 0);
  assert_non_null(strstr(ocf_last_plan(), "matmul")); /* the last call's: P V */
  c.causal = 1;
  run_case(env, "baseline causal", &c, 0);
  c.offset_set = 1, c.offset = 3;
  run_case(env, "baseline causal offset 3", &c, 0);
  c.qt = OCF_BF16, c.kt = OCF_F16, c.vt = OCF_BF16, c.ot = OCF_F16;
  run_case(env, "baseline 16-bit", &c, 0);
  c = base_case(2, 4, 2, lq, 0, 16);
  c.variant = OCF_VARIANT_BASELINE;
  run_case(env, "baseline no keys", &c, 0);
  c = base_case(2, 6, 2, lq, lk, 40);
  c.variant = OCF_VARIANT_BASELINE;
  c.q_interleaved = 1;
  c.causal = 1;
  run_case(env, "baseline interleaved q", &c, 0);
  c = base_case(1, 3, 3, lq, lk, 16);
  c.variant = OCF_VARIANT_BASELINE;
  c.layout = INTERLEAVED;
  run_case(env, "baseline interleaved", &c, 0);

  /* Refusals, on the small call (dense unless said). */
  enum { N = SMALL_OUT };
  small_call t = small_call_make(env, 78);
  float *before = t.before, *after = t.after;
  const cl_mem q = t.q, k = t.k, v = t.v, out = t.out;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = OCF_VARIANT_BASELINE;
  for (int row = 0; row < 4; row++) {
    ocf_attention_options opt = OCF_ATTENTION_OPTIONS_INIT;
    /* out's heads 12 floats apart, rows 24 (interleaved): two products of P V */
    const size_t interleaved[3] = {72, 8, 16};
    const size_t *os = NULL;
    if (row == 0) opt.lengths = t.lengths;
    if (row == 1) opt.lse = t.lse;
    if (row == 2) opt.causal = 1, opt.causal_offset_set = 1, opt.causal_offset = -1;
    if (row == 3) os = interleaved;
    ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                     out, 0, os, &opt, &launch),
                       OCF_ERR_UNSUPPORTED);
    assert_non_null(strstr(ocf_last_error(), "OCF_VARIANT_BASELINE"));
    ocft_read(env, out, N, after);
    ocft_assert_unchanged("baseline refused: out", after, before, N);
  }

  /* The chain's events: it waits for the caller's gate, and its first and last events bound
     it (first_event released by the caller, as for any call). */
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env->cl, &err), done = NULL, first = NULL;
  assert_int_equal(err, CL_SUCCESS);
  launch.num_wait_events = 1, launch.wait_events = &gate;
  launch.event = &done, launch.first_event = &first;
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, &launch),
                     OCF_SUCCESS);
  assert_non_null(done);
  assert_non_null(first);
  cl_int state_now = CL_COMPLETE;
  assert_int_equal(
      clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state_now, &state_now, NULL),
      CL_SUCCESS);
  assert_true(state_now != CL_COMPLETE); /* held by the gate */
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
  ocft_read(env, out, N, after);
  ocft_assert_unchanged("baseline: out past its 96 floats", after + 96, before + 96, N - 96);
  for (size_t i = 0; i < 96; i++)
    assert_true(fabsf(after[i]) <= 1.0f); /* weighted means of values in [-1, 1] */
  clReleaseEvent(done), clReleaseEvent(first), clReleaseEvent(gate);
  small_call_free(&t);
}

/* The baseline's memory (its scores, then its calls' scratch: ocf_attention_workspace_size gives
   the whole): on the context's queue it borrows the pool, so that calls queued behind a gate
   reuse one buffer (b x h x lq x lk floats each: eleven at 4 x 32 x 4096^2 overran an 80 GB
   card when each made its own), and a larger pool serves it and stays whole; in a caller's
   workspace of exactly that size (NaN bytes: every score is written before it is read) it gives the
   pool's result bit for bit and writes no byte past it; one byte less is OCF_ERR_BUFFER_TOO_SMALL
   with nothing enqueued. */
static void test_attention_baseline_memory(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = SMALL_OUT, OUT = 96, CALLS = 3 };
  small_call t = small_call_make(env, 79);
  const cl_mem q = t.q, k = t.k, v = t.v, out = t.out;
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.variant = OCF_VARIANT_BASELINE;
  size_t bytes = 0, pool_bytes = 0, created = 0, created_now = 0;
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 2, 2, 1, 3, 4, 8, 0, NULL, 0, NULL, 0,
                                                  NULL, 0, NULL, NULL, &launch, &bytes),
                     OCF_SUCCESS);
  assert_true(bytes >= 2 * 2 * 3 * 4 * sizeof(float)); /* the scores at least */

  /* The pool: one buffer of that size, made by the first call, used by every later one. */
  ocft_assert_status(ocf_context_trim_workspace(env->ctx), OCF_SUCCESS);
  ocft_assert_status(ocf_context_workspace_pool(env->ctx, &pool_bytes, &created), OCF_SUCCESS);
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, &launch),
                     OCF_SUCCESS);
  float *pooled = ocft_alloc_floats(N), *got = t.after;
  ocft_read(env, out, N, pooled);
  for (size_t i = 0; i < OUT; i++)
    assert_true(fabsf(pooled[i]) <= 1.0f); /* weighted means of values in [-1, 1] */
  ocft_assert_status(ocf_context_workspace_pool(env->ctx, &pool_bytes, &created_now), OCF_SUCCESS);
  assert_int_equal(pool_bytes, bytes);
  assert_int_equal(created_now, created + 1);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env->cl, &err), done[CALLS] = {NULL};
  assert_int_equal(err, CL_SUCCESS);
  ocft_write(env, out, N, t.before);
  for (size_t i = 0; i < CALLS; i++) {
    ocf_launch behind = launch;
    behind.num_wait_events = 1, behind.wait_events = &gate, behind.event = &done[i];
    ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                     out, 0, NULL, NULL, &behind),
                       OCF_SUCCESS);
  }
  ocft_assert_status(ocf_context_workspace_pool(env->ctx, &pool_bytes, &created_now), OCF_SUCCESS);
  assert_int_equal(created_now, created + 1); /* none queued made a buffer of its own */
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(CALLS, done), CL_SUCCESS);
  ocft_read(env, out, N, got);
  assert_memory_equal(got, pooled, N * sizeof(float));
  for (size_t i = 0; i < CALLS; i++)
    clReleaseEvent(done[i]);
  clReleaseEvent(gate);

  /* A caller's workspace of exactly the size, then one byte short. */
  enum { PAST = 64 };
  cl_mem ws = ocft_nan_buffer(env, bytes + PAST);
  launch.workspace = ws;
  launch.workspace_size = bytes;
  ocft_write(env, out, N, t.before);
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, &launch),
                     OCF_SUCCESS);
  ocft_read(env, out, N, got);
  assert_memory_equal(got, pooled, N * sizeof(float));
  assert_true(ocft_bytes_are(env, ws, bytes, bytes + PAST, 0xFF));
  ocft_fill_bytes(env, ws, 0, bytes + PAST, 0xFF);
  ocft_write(env, out, N, t.before);
  launch.workspace_size = bytes - 1;
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, &launch),
                     OCF_ERR_BUFFER_TOO_SMALL);
  assert_non_null(strstr(ocf_last_error(), "ocf_attention_workspace_size"));
  ocft_read(env, out, N, got);
  ocft_assert_unchanged("baseline, workspace short: out", got, t.before, N);
  assert_true(ocft_bytes_are(env, ws, 0, bytes + PAST, 0xFF));
  ocft_assert_status(ocf_context_workspace_pool(env->ctx, &pool_bytes, &created_now), OCF_SUCCESS);
  assert_int_equal(created_now, created + 1);

  /* A pool larger than the chain needs (left by a call of more keys, whose scores alone pass
     `bytes`, however large the device's base address alignment makes it) serves it and stays
     whole. */
  const size_t lk_wide = bytes / (2 * 2 * 3 * sizeof(float)) + 1, kv_wide = 2 * lk_wide * 8;
  float *keys = ocft_alloc_floats(kv_wide);
  ocft_fill_uniform(keys, kv_wide, -1.0f, 1.0f, 80);
  cl_mem kw = ocft_buffer(env, kv_wide, keys), vw = ocft_buffer(env, kv_wide, keys);
  size_t wide = 0;
  launch.workspace = NULL, launch.workspace_size = 0;
  ocft_assert_status(ocf_attention_workspace_size(env->ctx, 2, 2, 1, 3, lk_wide, 8, 0, NULL, 0,
                                                  NULL, 0, NULL, 0, NULL, NULL, &launch, &wide),
                     OCF_SUCCESS);
  assert_true(wide > bytes);
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, lk_wide, 8, q, 0, NULL, kw, 0, NULL, vw, 0,
                                   NULL, out, 0, NULL, NULL, &launch),
                     OCF_SUCCESS);
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, &launch),
                     OCF_SUCCESS);
  ocft_read(env, out, N, got);
  assert_memory_equal(got, pooled, N * sizeof(float));
  ocft_assert_status(ocf_context_workspace_pool(env->ctx, &pool_bytes, &created_now), OCF_SUCCESS);
  assert_int_equal(pool_bytes, wide);
  assert_int_equal(created_now, created + 2);
  clReleaseMemObject(kw), clReleaseMemObject(vw), clReleaseMemObject(ws);
  free(pooled), free(keys);
  small_call_free(&t);
}

/* ---- refusals: every bad call refused before anything is enqueued, out untouched ---- */

typedef struct call_args {
  size_t b, h, h_kv, lq, lk, d;
  cl_mem q, k, v, out;
  size_t q_off, k_off, v_off, out_off;
  size_t qs[3], ks[3], vs[3], os[3];
  const size_t *qsp, *ksp, *vsp, *osp;
  ocf_attention_options opt;
  const ocf_attention_options *optp;
} call_args;

static ocf_status call(ocft_env *env, call_args *a) {
  return ocf_attention(env->ctx, a->b, a->h, a->h_kv, a->lq, a->lk, a->d, a->q, a->q_off, a->qsp,
                       a->k, a->k_off, a->ksp, a->v, a->v_off, a->vsp, a->out, a->out_off, a->osp,
                       a->optp, NULL);
}

static void test_attention_refusals(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = SMALL_OUT };
  small_call t = small_call_make(env, 77);
  float *before = t.before, *after = t.after;
  const cl_mem q = t.q, k = t.k, v = t.v, out = t.out, lengths = t.lengths, lse = t.lse;
  cl_mem small = ocft_buffer(env, 95, before);
  cl_uint two[2] = {2, 2};
  assert_int_equal(
      clEnqueueWriteBuffer(env->queue, lengths, CL_TRUE, 0, sizeof two, two, 0, NULL, NULL),
      CL_SUCCESS);
  cl_mem out_sub = NULL;
  {
    cl_buffer_region region = {0, 128 * sizeof(float)};
    cl_int err = CL_SUCCESS;
    out_sub =
        clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    assert_int_equal(err, CL_SUCCESS);
  }
  int failures = 0;
  for (int row = 0;; row++) {
    call_args a;
    memset(&a, 0, sizeof a);
    a.b = 2, a.h = 2, a.h_kv = 1, a.lq = 3, a.lk = 4, a.d = 8;
    a.q = q, a.k = k, a.v = v, a.out = out;
    a.opt = (ocf_attention_options)OCF_ATTENTION_OPTIONS_INIT;
    a.optp = &a.opt;
    const char *what = NULL;
    ocf_status expected = OCF_SUCCESS;
    switch (row) {
    case 0:
      what = "d 0", a.d = 0, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 1:
      what = "d 257", a.d = 257, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 2:
      what = "h_kv 0", a.h_kv = 0, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 3:
      what = "h % h_kv", a.h = 3, a.h_kv = 2, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 4:
      what = "q too small by one", a.q = small, expected = OCF_ERR_BUFFER_TOO_SMALL;
      break;
    case 5:
      what = "q offset 1", a.q_off = 1, expected = OCF_ERR_BUFFER_TOO_SMALL;
      break;
    case 6:
      what = "k NULL", a.k = NULL, expected = OCF_ERR_NULL_ARGUMENT;
      break;
    case 7:
      what = "row stride d - 1";
      a.qs[0] = 24, a.qs[1] = 12, a.qs[2] = 7, a.qsp = a.qs;
      expected = OCF_ERR_INVALID_STRIDE;
      break;
    case 8:
      what = "extent overflows";
      a.ks[0] = SIZE_MAX / 2, a.ks[1] = 32, a.ks[2] = 8, a.ksp = a.ks;
      a.b = 4;
      expected = OCF_ERR_SIZE_OVERFLOW;
      break;
    case 9:
      what = "out's heads overlap";
      a.os[0] = 48, a.os[1] = 16, a.os[2] = 8, a.osp = a.os; /* head stride < 3 rows */
      expected = OCF_ERR_ALIASING;
      break;
    case 10:
      what = "out is q", a.out = q, expected = OCF_ERR_ALIASING;
      break;
    case 11:
      what = "out overlaps k (sub-buffer)";
      a.k = out_sub, a.out_off = 50, expected = OCF_ERR_ALIASING;
      break;
    case 12:
      what = "scale inf", a.opt.scale = INFINITY, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 13:
      what = "scale NaN", a.opt.scale = NAN, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 14:
      what = "dtype 3", a.opt.v_dtype = (ocf_dtype)3, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 15:
      what = "lengths_offset without lengths";
      a.opt.lengths_offset = 1, expected = OCF_ERR_NULL_ARGUMENT;
      break;
    case 16:
      what = "lengths too short";
      a.opt.lengths = lengths, a.opt.lengths_offset = 1, expected = OCF_ERR_BUFFER_TOO_SMALL;
      break;
    case 17:
      what = "lse too short";
      a.opt.lse = lse, a.opt.lse_offset = 1, expected = OCF_ERR_BUFFER_TOO_SMALL;
      break;
    case 18:
      what = "lse is out", a.opt.lse = out, expected = OCF_ERR_ALIASING;
      break;
    case 19:
      what = "lse is q", a.opt.lse = q, expected = OCF_ERR_ALIASING;
      break;
    case 20:
      what = "causal offset without causal";
      a.opt.causal_offset = 2, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 21:
      what = "options size 0";
      a.opt.size = 0, expected = OCF_ERR_INVALID_STRUCT;
      break;
    case 22:
      what = "lse_offset without lse", a.opt.lse_offset = 2, expected = OCF_ERR_NULL_ARGUMENT;
      break;
    case 23:
      what = "out is lengths", a.opt.lengths = out, expected = OCF_ERR_ALIASING;
      break;
    /* Exact edges that pass: buffers of exactly their extent; out's dimensions just apart. */
    case 24:
      what = "edge: exact buffers", expected = OCF_SUCCESS;
      break;
    case 25:
      what = "edge: out's heads just apart";
      a.os[0] = 48, a.os[1] = 24, a.os[2] = 8, a.osp = a.os, a.out_off = N - 96;
      expected = OCF_SUCCESS;
      break;
    case 26:
      what = "precision 3", a.opt.precision = (ocf_precision)3, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 27:
      what = "precision -1", a.opt.precision = (ocf_precision)-1, expected = OCF_ERR_INVALID_VALUE;
      break;
    case 28: /* options of the first layout end before precision: a bad value there is unread */
      what = "edge: options without precision";
      a.opt.size = offsetof(ocf_attention_options, precision);
      a.opt.precision = (ocf_precision)7, expected = OCF_SUCCESS;
      break;
    case 29:
      what = "edge: precision 3XTF32", a.opt.precision = OCF_PRECISION_3XTF32;
      expected = OCF_SUCCESS;
      break;
    default:
      break;
    }
    if (!what) break;
    if (expected != OCF_SUCCESS) {
      /* out must be untouched: restore, call, compare. */
      ocft_write(env, out, N, before);
      ocf_status status = call(env, &a);
      ocft_read(env, out, N, after);
      if (status != expected || memcmp(after, before, sizeof(float) * N) != 0) {
        fprintf(stderr, "refusal row %d (%s): got %s, expected %s (%s)%s\n", row, what,
                ocf_status_name(status), ocf_status_name(expected), ocf_last_error(),
                memcmp(after, before, sizeof(float) * N) ? ", out changed" : "");
        failures++;
      }
    } else {
      ocf_status status = call(env, &a);
      if (status != OCF_SUCCESS) {
        fprintf(stderr, "edge row %d (%s): %s (%s)\n", row, what, ocf_status_name(status),
                ocf_last_error());
        failures++;
      }
      clFinish(env->queue);
    }
  }
  /* Empty work: b, h or lq 0 succeeds with nothing enqueued (out untouched). */
  ocft_write(env, out, N, before);
  ocft_assert_status(ocf_attention(env->ctx, 0, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, NULL),
                     OCF_SUCCESS);
  ocft_assert_status(ocf_attention(env->ctx, 2, 2, 1, 0, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL,
                                   out, 0, NULL, NULL, NULL),
                     OCF_SUCCESS);
  ocft_read(env, out, N, after);
  ocft_assert_unchanged("empty calls", after, before, N);
  ocft_assert_status(ocf_attention(NULL, 2, 2, 1, 3, 4, 8, q, 0, NULL, k, 0, NULL, v, 0, NULL, out,
                                   0, NULL, NULL, NULL),
                     OCF_ERR_NULL_ARGUMENT);
  /* The host form: cl_mem options refused, NULL arrays refused, overlap refused. */
  float host_q[96], host_kv[64], host_out[96];
  memset(host_q, 0, sizeof host_q), memset(host_kv, 0, sizeof host_kv);
  ocf_attention_options opt = OCF_ATTENTION_OPTIONS_INIT;
  opt.lse = lse;
  ocft_assert_status(ocf_attention_host(env->ctx, 2, 2, 1, 3, 4, 8, host_q, NULL, host_kv, NULL,
                                        host_kv, NULL, host_out, NULL, NULL, NULL, &opt),
                     OCF_ERR_INVALID_VALUE);
  ocft_assert_status(ocf_attention_host(env->ctx, 2, 2, 1, 3, 4, 8, NULL, NULL, host_kv, NULL,
                                        host_kv, NULL, host_out, NULL, NULL, NULL, NULL),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_attention_host(env->ctx, 2, 2, 1, 3, 4, 8, host_q, NULL, host_kv, NULL,
                                        host_kv, NULL, host_q, NULL, NULL, NULL, NULL),
                     OCF_ERR_ALIASING);
  ocft_assert_status(ocf_attention_host(env->ctx, 2, 2, 1, 3, 4, 8, host_q, NULL, host_kv, NULL,
                                        host_kv, NULL, host_out, NULL, NULL, host_out + 90, NULL),
                     OCF_ERR_ALIASING);
  clReleaseMemObject(out_sub), clReleaseMemObject(small);
  small_call_free(&t);
  assert_int_equal(failures, 0);
}

/* ---- the planner, without a device: the plan fits the facts it is given ---- */

static ocf_device_facts facts_of(size_t max_wg, unsigned long long local) {
  ocf_device_facts facts;
  memset(&facts, 0, sizeof facts);
  facts.type = CL_DEVICE_TYPE_CPU;
  facts.compute_units = 4;
  facts.max_workgroup_size = max_wg;
  facts.max_item_sizes[0] = facts.max_item_sizes[1] = facts.max_item_sizes[2] = max_wg;
  facts.local_mem_bytes = local;
  return facts;
}

/* An H200 as the planners see it: 132 compute units, 48 KiB of local memory reported,
   compute capability 9.0, the mma.sync probe passed (the wgmma one not yet run). */
static ocf_device_facts h200_facts(void) {
  ocf_device_facts nv = facts_of(1024, 48 << 10);
  nv.type = CL_DEVICE_TYPE_GPU;
  nv.vendor = OCF_VENDOR_NVIDIA;
  nv.compute_units = 132;
  nv.nv_compute_capability = 90;
  nv.learnt.mma = OCF_PROBE_PASSED;
  return nv;
}

/* The first kernel of the plan of a decoding call, 1 x 32 heads x 1 x 8192 x 128, made in the way
   `refusal` keeps the decoding kernels from it (0: 32 rows a key head; 1: a loop limit; 2: the
   general variant; 3: a fixed workgroup size; -1: none). */
static ocf_kernel_id decode_refused(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    int refusal) {
  ocf_device_facts f = *facts;
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 1, call.h = 32, call.h_kv = 32, call.lq = 1, call.lk = 8192, call.d = 128;
  if (refusal == 0) call.h_kv = 1;
  if (refusal == 1) f.loop_limit = 65535;
  if (refusal == 2) call.variant = OCF_VARIANT_GENERAL;
  if (refusal == 3) call.workgroup = 64;
  ocf_plan plan;
  ocft_assert_status(ocf_plan_attention(&f, tuning, &call, &plan), OCF_SUCCESS);
  return plan.steps[0].kernel;
}

/* The call's plan, which must be `kernel` over key ranges, then `join`. */
static void plan_ranges(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                        const ocf_attention_call *call, ocf_kernel_id kernel, ocf_kernel_id join,
                        ocf_plan *plan) {
  ocft_assert_status(ocf_plan_attention(facts, tuning, call, plan), OCF_SUCCESS);
  assert_int_equal(plan->step_count, 2);
  assert_int_equal(plan->steps[0].kernel, kernel);
  assert_int_equal(plan->steps[1].kernel, join);
}

/* attention_lanes's plans (decode.lanes `lanes`, decode.unroll `unroll`, decode.row_groups
   `row_groups`) on a GPU of 48 KiB of local memory, NVIDIA (nvidia: warp shuffles) or not: two
   chunks a lane or more (one lane a key at most), whole slots in each row group of decode.wg
   work-items, as many groups as asked up to the key head's rows, a work-item's queries and sums
   within 128 floats and its loads within 64, every query row of a key head in one workgroup
   where they fit (row blocks otherwise), the join (and the lanes' sums without shuffles) within
   local memory, key ranges of whole steps reaching decode.fill workgroups a compute unit (or
   split.min keys each); calls past decode.rows rows a key head, under a loop limit, in the general
   variant or with a fixed size take another kernel. */
static void test_lanes_plans(const ocf_tuning_values *base, int lanes, int unroll, int ahead,
                             int row_groups, int nvidia) {
  ocf_tuning_values tuning = *base;
  tuning.attention.decode.row_groups = row_groups;
  tuning.attention.decode.lanes = lanes;
  tuning.attention.decode.unroll = unroll;
  tuning.attention.decode.ahead = ahead;
  tuning.attention.mma.on = 0;
  const ocf_attention_decode_tuning *t = &tuning.attention.decode;
  static const struct {
    size_t b, h, h_kv, lq, lk, d, kv_vector;
  } calls[] = {
      {1, 32, 32, 1, 8192, 128, 8}, {1, 32, 8, 1, 8192, 128, 8}, {16, 32, 32, 1, 4096, 128, 8},
      {4, 32, 8, 4, 8192, 128, 8},  {1, 8, 1, 2, 1000, 64, 4},   {2, 4, 4, 3, 100, 256, 8},
      {1, 1, 1, 1, 3, 17, 1},       {1, 16, 1, 1, 5000, 96, 2},  {1, 16, 16, 1, 2, 200, 8}};
  ocf_device_facts facts = facts_of(1024, 48 << 10);
  facts.type = CL_DEVICE_TYPE_GPU;
  facts.compute_units = 132;
  if (nvidia) facts.vendor = OCF_VENDOR_NVIDIA, facts.nv_compute_capability = 90;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(calls); i++) {
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = calls[i].b, call.h = calls[i].h, call.h_kv = calls[i].h_kv;
    call.lq = calls[i].lq, call.lk = calls[i].lk, call.d = calls[i].d;
    call.kv_vector = calls[i].kv_vector;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = i % 2 ? OCF_BF16 : OCF_F32;
    ocf_plan plan;
    plan_ranges(&facts, &tuning, &call, OCF_KERNEL_ATTENTION_LANES, OCF_KERNEL_ATTENTION_LANES_JOIN,
                &plan);
    const size_t wg = (size_t)ocf_plan_define_value(&plan, "WG", 0);
    const size_t seg = (size_t)ocf_plan_define_value(&plan, "SEG", 0);
    const size_t rows = (size_t)ocf_plan_define_value(&plan, "RB", 0);
    const size_t rowg = (size_t)ocf_plan_define_value(&plan, "ROWG", 0);
    const size_t vec = (size_t)ocf_plan_define_value(&plan, "VEC", 0);
    const size_t un = (size_t)ocf_plan_define_value(&plan, "UNROLL", 0);
    const int shuffle = (int)ocf_plan_define_value(&plan, "SHUFFLE", -1);
    const size_t dp = (size_t)ocf_plan_define_value(&plan, "D", 0);
    assert_int_equal(plan.steps[0].local[0], wg);
    /* The loads: 16 bytes at most, dividing d and what the call's layout allows. */
    assert_true(vec * (i % 2 ? 2 : 4) <= 16 && call.d % vec == 0 && calls[i].kv_vector % vec == 0);
    /* Lanes: a power of two up to decode.lanes, two chunks a lane or one lane, whole slots. */
    const size_t group_rows = call.h / call.h_kv * call.lq;
    size_t block_rows = 1;
    while (block_rows < group_rows)
      block_rows *= 2;
    /* Row groups: as many as asked, up to the key head's rows, each decode.wg work-items. */
    assert_true(rowg >= 1 && (rowg & (rowg - 1)) == 0 && rowg <= (size_t)row_groups &&
                rowg <= block_rows && rows % rowg == 0);
    if (2 * rowg <= (size_t)row_groups && 2 * rowg <= block_rows) assert_true(wg / rowg < seg * 2);
    assert_true(wg <= (size_t)t->wg * rowg);
    assert_true(seg >= 1 && (seg & (seg - 1)) == 0 && seg <= (size_t)lanes &&
                (wg / rowg) % seg == 0);
    assert_true(seg == 1 || 2 * seg * vec <= dp);
    if (2 * seg * vec * 2 <= dp && seg < wg / rowg) assert_int_equal(seg, (size_t)lanes);
    const size_t per_row = 2 * ((dp + vec * seg - 1) / (vec * seg)) * vec;
    assert_true(rows == rowg || rows / rowg * per_row <= 128);
    /* (with decode.ahead, the next step's chunks too) */
    assert_int_equal(ocf_plan_define_value(&plan, "AHEAD", -1), ahead);
    assert_true(un >= 1 && un <= (size_t)unroll &&
                (un == 1 || (ahead ? 2 : 1) * un * per_row <= 64));
    if (un < (size_t)unroll) assert_true((ahead ? 2 : 1) * (2 * un + 1) * per_row > 64);
    assert_true(rows >= group_rows || 2 * rows / rowg * per_row > 128);
    assert_int_equal(shuffle, nvidia && wg % 32 == 0 && 32 % seg == 0);
    assert_true(ocf_attention_lanes_local_bytes(wg, seg, rowg, rows, un, dp, shuffle) <=
                (48 << 10));
    assert_int_equal(plan.local_mem_bytes,
                     ocf_attention_lanes_local_bytes(wg, seg, rowg, rows, un, dp, shuffle));
    /* Ranges of whole steps reaching the fill (or split.min keys each). */
    const size_t step = wg / rowg / seg * un, rblocks = (group_rows + rows - 1) / rows;
    const size_t units = plan.steps[0].global[0] / wg;
    assert_int_equal(units, call.b * call.h_kv * rblocks * plan.kv_splits);
    assert_true(plan.split_keys % step == 0 || plan.kv_splits == 1);
    assert_true(plan.kv_splits * plan.split_keys >= call.lk &&
                (plan.kv_splits - 1) * plan.split_keys < call.lk);
    assert_true(units >= 132 * (size_t)t->fill ||
                plan.kv_splits >= call.lk / (size_t)tuning.attention.split.min ||
                call.lk / plan.kv_splits < step * 2);
    assert_int_equal(plan.scratch_bytes,
                     call.b * call.h * call.lq * plan.kv_splits * (call.d + 2) * sizeof(float));
  }
  for (int c = 0; c < 4; c++)
    assert_true(decode_refused(&facts, &tuning, c) != OCF_KERNEL_ATTENTION_LANES);
  ocf_tuning_values off = tuning;
  off.attention.decode.lanes = 0;
  assert_int_equal(decode_refused(&facts, &off, -1), OCF_KERNEL_ATTENTION_DECODE);
}

/* attention_decode's plans: full workgroups (decode.wg work-items, every one of them in a key
   group unless d is odd-sized), K and V read once per key head (every query head of a key head
   in one workgroup), enough key ranges for decode.fill workgroups a compute unit, the tiles and
   the groups' join within local memory, decode.prefetch's registers; not taken past
   decode.rows rows a key head, under a loop limit, in the general variant or with a fixed size. */
static void test_decode_plans(const ocf_tuning_values *tuning) {
  const ocf_attention_decode_tuning *t = &tuning->attention.decode;
  static const struct {
    size_t b, h, h_kv, lq, lk, d;
  } calls[] = {{1, 32, 32, 1, 8192, 128}, {1, 32, 8, 1, 8192, 128}, {16, 32, 32, 1, 4096, 128},
               {4, 32, 8, 4, 8192, 128},  {1, 8, 1, 2, 1000, 64},   {2, 4, 4, 3, 100, 256},
               {1, 1, 1, 1, 3, 17},       {1, 16, 1, 1, 5000, 96}};
  ocf_device_facts facts = facts_of(1024, 48 << 10);
  facts.type = CL_DEVICE_TYPE_GPU;
  facts.compute_units = 132;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(calls); i++) {
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = calls[i].b, call.h = calls[i].h, call.h_kv = calls[i].h_kv;
    call.lq = calls[i].lq, call.lk = calls[i].lk, call.d = calls[i].d, call.kv_vector = 8;
    ocf_plan plan;
    plan_ranges(&facts, tuning, &call, OCF_KERNEL_ATTENTION_DECODE, OCF_KERNEL_ATTENTION_JOIN,
                &plan);
    const size_t rows = (size_t)ocf_plan_define_value(&plan, "RB", 0);
    const size_t wg = (size_t)ocf_plan_define_value(&plan, "DWG", 0);
    const size_t cpt = (size_t)ocf_plan_define_value(&plan, "CPT", 0);
    const size_t bk = (size_t)ocf_plan_define_value(&plan, "BK", 0);
    const size_t dp = (size_t)ocf_plan_define_value(&plan, "D", 0);
    const size_t group = call.h / call.h_kv;
    /* Every query row of a key head in one workgroup. */
    assert_true(rows >= group * call.lq && rows < 2 * group * call.lq + 1);
    assert_int_equal(plan.steps[0].local[0], wg);
    if (call.lk >= 1000) assert_int_equal(wg, (size_t)t->wg); /* full workgroups */
    const size_t key_group = rows * (dp / cpt);
    assert_true(dp % cpt == 0 && key_group <= wg);
    const size_t spk = (size_t)ocf_plan_define_value(&plan, "SPK", 0);
    assert_true(cpt % 4 == 0 && (dp / 4) % spk == 0 && (spk == 1 || spk * rows * bk <= wg));
    assert_true((wg / key_group) * rows * (dp + 2) <= bk * (2 * dp + 4));
    assert_true(ocf_attention_decode_local_bytes(rows, bk, dp, spk) <= (48 << 10));
    /* decode.prefetch: on where a work-item's share of a tile, 2 bk D / wg floats, is at most 64
       (the tile halved to that, not below the rows), off elsewhere and without it. */
    const int prefetch = (int)ocf_plan_define_value(&plan, "PREFETCH", -1);
    assert_int_equal(prefetch, t->prefetch && 2 * bk * dp <= 64 * wg);
    if (t->prefetch && bk > rows) assert_true(2 * bk * dp <= 64 * wg);
    /* fp32: 16-byte loads at most, and the widest dividing d. */
    assert_int_equal(ocf_plan_define_value(&plan, "VEC", 0), call.d % 4 ? (call.d % 2 ? 1 : 2) : 4);
    /* Enough ranges (or one a split.min keys), each a multiple of the tile. */
    const size_t units = plan.steps[0].global[0] / wg;
    assert_int_equal(units, call.b * call.h_kv * plan.kv_splits);
    assert_true(plan.split_keys % bk == 0 && plan.kv_splits * plan.split_keys >= call.lk &&
                (plan.kv_splits - 1) * plan.split_keys < call.lk);
    assert_true(units >= 132 * (size_t)t->fill ||
                plan.kv_splits >= call.lk / (size_t)tuning->attention.split.min);
    assert_int_equal(plan.scratch_bytes,
                     call.b * call.h * call.lq * plan.kv_splits * (call.d + 2) * sizeof(float));
  }
  /* Not taken: more rows a key head than decode.rows, a loop limit, the general variant, a
     fixed workgroup size. */
  for (int c = 0; c < 4; c++)
    assert_true(decode_refused(&facts, tuning, c) != OCF_KERNEL_ATTENTION_DECODE);
}

/* attention_block's plans: (bq / rm) x tc work-items, 4 tc dividing D and at most 32 columns
   a work-item, bq no more than the rows need, the local memory within the device's, one
   workgroup a query block; not taken with block.bq 0, a loop limit, the general variant or a
   fixed size, nor where a row's columns would need more than 32 a work-item (d 144). */
static void test_block_plans(const ocf_tuning_values *tuning) {
  ocf_tuning_values tv = *tuning;
  tv.attention.decode.wg = 0;
  static const size_t dims[] = {16, 64, 96, 128, 256};
  static const size_t lqs[] = {1, 7, 100, 4096};
  ocf_device_facts facts = facts_of(1024, 48 << 10);
  facts.type = CL_DEVICE_TYPE_GPU;
  facts.compute_units = 132;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(dims); i++)
    for (size_t j = 0; j < OCF_ARRAY_LEN_T(lqs); j++) {
      ocf_attention_call call;
      memset(&call, 0, sizeof call);
      call.b = 2, call.h = 3, call.h_kv = 3, call.lq = lqs[j], call.lk = 500, call.d = dims[i];
      ocf_plan plan;
      ocft_assert_status(ocf_plan_attention(&facts, &tv, &call, &plan), OCF_SUCCESS);
      assert_int_equal(plan.step_count, 1);
      assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_BLOCK);
      const size_t bq = (size_t)ocf_plan_define_value(&plan, "BQ", 0);
      const size_t bk = (size_t)ocf_plan_define_value(&plan, "BK", 0);
      const size_t rm = (size_t)ocf_plan_define_value(&plan, "RM", 0);
      const size_t tc = (size_t)ocf_plan_define_value(&plan, "TC", 0);
      const size_t dp = (size_t)ocf_plan_define_value(&plan, "D", 0);
      assert_true(bq % rm == 0 && bk % tc == 0 && bk % 4 == 0 && dp % (4 * tc) == 0);
      assert_true(dp / tc <= 32);
      assert_true(bq <= (size_t)tv.attention.block.bq && (bq == rm || bq / 2 < call.lq));
      assert_int_equal(plan.steps[0].local[0], bq / rm * tc);
      assert_true(ocf_attention_block_local_bytes(bq, bk, dp) <= (48 << 10));
      assert_int_equal(plan.steps[0].global[0] / plan.steps[0].local[0],
                       6 * ((call.lq + bq - 1) / bq));
    }
  for (int c = 0; c < 5; c++) {
    ocf_device_facts f = facts;
    ocf_tuning_values off = tv;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = 4, call.h_kv = 4, call.lq = 300, call.lk = 300, call.d = 128;
    if (c == 0) off.attention.block.bq = 0;
    if (c == 1) f.loop_limit = 65535;
    if (c == 2) call.variant = OCF_VARIANT_GENERAL;
    if (c == 3) call.workgroup = 64;
    if (c == 4) call.d = 144;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &off, &call, &plan), OCF_SUCCESS);
    assert_true(plan.steps[0].kernel != OCF_KERNEL_ATTENTION_BLOCK);
  }
}

/* attention_mma's plans: on an NVIDIA GPU of compute capability >= 8.0 with mma.on after the
   matrix units' probe passed (before it: another kernel's plan asking for the probe; failed, or
   below 8.0: never), inline PTX (MMA_EMULATE 0); elsewhere only with mma.on=2, emulated; 16 rows
   a warp, warps halved to the rows there are, tiles halved to the local memory, 16-byte copies
   only where kv_vector says K and V rows are 16-byte aligned; never for fp32 or mixed inputs,
   d above 128, the general variant, a fixed size or under a loop limit. */
static void test_mma_plans(const ocf_tuning_values *tuning) {
  ocf_tuning_values on = *tuning, off = *tuning, emulated = *tuning;
  on.attention.mma.on = 1, off.attention.mma.on = 0, emulated.attention.mma.on = 2;
  ocf_device_facts nv = h200_facts();
  static const struct {
    size_t lq, d, kv_vector;
    size_t warps, bk, load;
  } calls[] = {{4096, 128, 8, 4, 32, 16}, {4096, 64, 8, 4, 64, 16}, {1024, 100, 4, 4, 32, 0},
               {20, 128, 8, 2, 32, 16},   {7, 16, 2, 1, 64, 0},     {300, 48, 8, 4, 64, 16}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(calls); i++) {
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 2, call.h = 8, call.h_kv = 2, call.lq = calls[i].lq, call.lk = 3000;
    call.d = calls[i].d, call.kv_vector = calls[i].kv_vector;
    call.q_dtype = call.k_dtype = call.v_dtype = OCF_BF16, call.out_dtype = OCF_F32;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&nv, &on, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.step_count, 1);
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA);
    assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
    assert_int_equal(ocf_plan_define_value(&plan, "MMA_EMULATE", -1), 0);
    assert_int_equal(ocf_plan_define_value(&plan, "MMA_DTYPE", -1), OCF_BF16);
    const size_t warps = (size_t)ocf_plan_define_value(&plan, "WARPS", 0);
    const size_t bk = (size_t)ocf_plan_define_value(&plan, "BK", 0);
    const size_t dp = (size_t)ocf_plan_define_value(&plan, "D", 0);
    assert_int_equal(warps, calls[i].warps);
    assert_int_equal(bk, calls[i].bk);
    assert_int_equal(ocf_plan_define_value(&plan, "KV_LOAD", -1), (long long)calls[i].load);
    assert_int_equal(plan.steps[0].local[0], 32 * warps);
    assert_int_equal(plan.steps[0].global[0] / plan.steps[0].local[0],
                     16 * ((call.lq + 16 * warps - 1) / (16 * warps)));
    const ocf_attention_mma_shape shape = {warps, 16, bk, 2, 0, 0, 1};
    assert_int_equal(ocf_plan_define_value(&plan, "ROWS", 0), 16);
    assert_int_equal(ocf_plan_define_value(&plan, "STAGES", 0), 2);
    assert_int_equal(ocf_plan_define_value(&plan, "Q_LOCAL", -1), 0);
    assert_true(ocf_attention_mma_local_bytes(&shape, dp, 0) <= (48 << 10));
    assert_int_equal(plan.local_mem_bytes, ocf_attention_mma_local_bytes(&shape, dp, 0));
  }
  for (int c = 0; c < 13; c++) {
    ocf_device_facts f = nv;
    const ocf_tuning_values *tv = &on;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = 4, call.h_kv = 4, call.lq = 300, call.lk = 300, call.d = 128;
    call.kv_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_F16;
    int probe = 0, emulated_plan = 0;
    if (c == 0) f.learnt.mma = OCF_PROBE_UNKNOWN, probe = 1;
    if (c == 1) f.learnt.mma = OCF_PROBE_FAILED;
    if (c == 2) f.nv_compute_capability = 75;
    if (c == 3) tv = &off;
    if (c == 4) call.q_dtype = call.k_dtype = call.v_dtype = OCF_F32;
    if (c == 5) call.v_dtype = OCF_BF16;
    if (c == 6) call.d = 129;
    if (c == 7) call.variant = OCF_VARIANT_GENERAL;
    if (c == 8) call.workgroup = 64;
    if (c == 9) f.loop_limit = 65535;
    if (c == 10) f = facts_of(1024, 48 << 10); /* a CPU, mma.on=1 */
    if (c == 11) f = facts_of(1024, 48 << 10), tv = &emulated, emulated_plan = 1;
    if (c == 12) tv = &emulated; /* on NVIDIA: the PTX, never the emulation */
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, tv, &call, &plan), OCF_SUCCESS);
    const int is_mma = plan.steps[0].kernel == OCF_KERNEL_ATTENTION_MMA;
    assert_int_equal(is_mma, emulated_plan || c == 12);
    assert_int_equal(plan.probe, probe ? OCF_PLAN_PROBE_MMA : OCF_PLAN_PROBE_NONE);
    if (is_mma)
      assert_int_equal(ocf_plan_define_value(&plan, "MMA_EMULATE", -1), emulated_plan ? 1 : 0);
  }
}

/* attention_wgmma_split's plans (wgmma.split_fill 1, split.min 256, the H200's 132 units; bk
   64): blocks of 128 rows a head, 65 of them (fewer than half the units) take it with 512 keys
   (two ranges of 256: 130 workgroups, scratch for each row's (m, l, O) of both, the join over
   every element of out), 66 do not, nor 511 keys; 8 heads against 32768 keys take ranges for
   132 (18 ranges of 1920 keys: whole tiles, at least 132 / 8), for 264 with split_fill 2 (35 of
   960); with wgmma.split_fill 0 rule 5 leaves 65 heads to attention_mma's split. */
static void test_wgmma_split_plans(const ocf_tuning_values *on, const ocf_device_facts *nv) {
  static const struct {
    size_t h, lk;
    int fill;
    size_t splits, split_keys; /* 0: attention_wgmma unsplit; 1: not attention_wgmma */
  } calls[] = {{65, 512, 1, 2, 256},    {66, 512, 1, 0, 0}, {65, 511, 1, 0, 0},
               {8, 32768, 1, 18, 1920}, {65, 512, 0, 1, 0}, {8, 32768, 2, 35, 960}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(calls); i++) {
    ocf_tuning_values tv = *on;
    tv.attention.wgmma.split_fill = calls[i].fill, tv.attention.wgmma.bk = 64;
    tv.attention.mma.split_fill = 1, tv.attention.split.min = 256;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = call.h_kv = calls[i].h, call.lq = 128, call.lk = calls[i].lk;
    call.d = 128, call.kv_vector = call.q_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(nv, &tv, &call, &plan), OCF_SUCCESS);
    char text[512];
    ocf_plan_describe(&plan, text, sizeof text);
    if (calls[i].splits == 1) {
      if (plan.program == OCF_PROGRAM_ATTENTION_WGMMA_NV) fail_msg("case %zu: %s", i, text);
      continue;
    }
    if (!calls[i].splits) {
      if (plan.step_count != 1 || plan.steps[0].kernel != OCF_KERNEL_ATTENTION_WGMMA)
        fail_msg("case %zu, unsplit: %s", i, text);
      continue;
    }
    if (plan.step_count != 2 || plan.steps[0].kernel != OCF_KERNEL_ATTENTION_WGMMA_SPLIT ||
        plan.steps[1].kernel != OCF_KERNEL_ATTENTION_WGMMA_JOIN ||
        plan.kv_splits != calls[i].splits || plan.split_keys != calls[i].split_keys)
      fail_msg("case %zu: %s (%zu ranges of %zu keys)", i, text, plan.kv_splits, plan.split_keys);
    assert_int_equal(plan.steps[0].global[0], 256 * calls[i].h * calls[i].splits);
    assert_int_equal(plan.scratch_bytes, calls[i].h * 128 * calls[i].splits * 130 * sizeof(float));
    assert_true(plan.scratch_written);
    assert_int_equal(ocf_plan_define_value(&plan, "BK", 0), 64);
  }
  /* A limit learnt from the split kernel (fewer than its 256 work-items) ends the family's plans
     where it may split (else the run loop would plan the refused kernel again), not where it
     never splits. */
  ocf_device_facts limited = *nv;
  limited.learnt.kernel_max_workgroup[OCF_KERNEL_ATTENTION_WGMMA_SPLIT] = 128;
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 1, call.h = call.h_kv = 8, call.lq = 128, call.lk = 32768, call.d = 128;
  call.kv_vector = call.q_vector = 8;
  call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
  ocf_tuning_values tv = *on;
  tv.attention.wgmma.split_fill = 1, tv.attention.split.min = 256;
  ocf_plan plan;
  ocft_assert_status(ocf_plan_attention(&limited, &tv, &call, &plan), OCF_SUCCESS);
  assert_int_not_equal(plan.program, OCF_PROGRAM_ATTENTION_WGMMA_NV);
  tv.attention.wgmma.split_fill = 0, tv.attention.mma.split_fill = 0;
  ocft_assert_status(ocf_plan_attention(&limited, &tv, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA);
  /* wgmma.max_regs: the register cap of the build where the compiler takes one (NVIDIA's
     options), none by default. */
  limited.nv_compiler_options = 1;
  ocft_assert_status(ocf_plan_attention(&limited, &tv, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.max_registers, 0);
  tv.attention.wgmma.max_regs = 128;
  ocft_assert_status(ocf_plan_attention(&limited, &tv, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.max_registers, 128);
  limited.nv_compiler_options = 0;
  ocft_assert_status(ocf_plan_attention(&limited, &tv, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.max_registers, 0);
}

/* attention_wgmma's plans: on an NVIDIA GPU of compute capability 9.0 with wgmma.on after the
   wgmma probe passed, before attention_mma (before the probe: attention_mma's plan asking for
   it; failed, another capability, off: never); one workgroup of 256 a block of 128 rows, D 64
   or 128, bk halved to what the probe ran; never for fp32 or mixed inputs, d above 128, rows off
   16-byte chunks (q_vector, kv_vector below 8), fewer rows than wgmma.min_lq, the general
   variant, a fixed size or under a loop limit. */
static void test_wgmma_plans(const ocf_tuning_values *tuning) {
  ocf_tuning_values on = *tuning;
  on.attention.mma.on = 1, on.attention.wgmma.on = 1, on.attention.wgmma.bk = 128;
  on.attention.wgmma.min_lq = 64, on.attention.wgmma.pipe = 0;
  ocf_device_facts nv = h200_facts();
  nv.learnt.wgmma = OCF_PROBE_PASSED;
  nv.learnt.wgmma_local_ok = 197632;
  /* lq, d, local shown by the probe; D, BK (0: not planned) */
  static const struct {
    size_t lq, d;
    unsigned long long local;
    size_t dw, bk;
  } calls[] = {{4096, 128, 197632, 128, 128}, {4096, 64, 197632, 64, 128},
               {300, 72, 197632, 128, 128},   {64, 40, 197632, 64, 128},
               {4096, 128, 164864, 128, 128}, {4096, 128, 164863, 128, 64},
               {4096, 128, 99328, 128, 64},   {4096, 128, 99327, 0, 0}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(calls); i++) {
    ocf_device_facts f = nv;
    f.learnt.wgmma_local_ok = calls[i].local;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 2, call.h = 8, call.h_kv = 2, call.lq = calls[i].lq, call.lk = 3000;
    call.d = calls[i].d, call.kv_vector = call.q_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = OCF_BF16, call.out_dtype = OCF_F32;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &on, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.step_count, 1);
    assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
    if (!calls[i].bk) {
      assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA);
      continue;
    }
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA);
    assert_int_equal(plan.program, OCF_PROGRAM_ATTENTION_WGMMA_NV);
    assert_int_equal(ocf_plan_define_value(&plan, "D", 0), (long long)calls[i].dw);
    assert_int_equal(ocf_plan_define_value(&plan, "BK", 0), (long long)calls[i].bk);
    assert_int_equal(ocf_plan_define_value(&plan, "MMA_EMULATE", -1), 0);
    assert_int_equal(ocf_plan_define_value(&plan, "MMA_DTYPE", -1), OCF_BF16);
    assert_int_equal(plan.steps[0].local[0], 256);
    assert_int_equal(plan.steps[0].global[0], 256 * 16 * ((call.lq + 127) / 128));
    assert_int_equal(ocf_plan_define_value(&plan, "PIPE", -1), 0);
    assert_int_equal(plan.local_mem_bytes,
                     ocf_attention_wgmma_local_bytes(calls[i].bk, calls[i].dw, 0));
    assert_true(plan.local_mem_bytes <= calls[i].local);
  }
  /* wgmma.pipe: three stages, so 128-key tiles at d 128 need more than the probe shows. */
  ocf_tuning_values piped = on;
  piped.attention.wgmma.pipe = 1;
  static const struct {
    size_t d;
    unsigned long long local;
    size_t bk;
  } piped_calls[] = {{128, 197632, 64}, {64, 197632, 128}, {128, 132096, 64}, {128, 132095, 0}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(piped_calls); i++) {
    ocf_device_facts f = nv;
    f.learnt.wgmma_local_ok = piped_calls[i].local;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = 8, call.lq = 1000, call.lk = 1000, call.d = piped_calls[i].d;
    call.kv_vector = call.q_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &piped, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel == OCF_KERNEL_ATTENTION_WGMMA, piped_calls[i].bk != 0);
    if (!piped_calls[i].bk) continue;
    assert_int_equal(ocf_plan_define_value(&plan, "PIPE", -1), 1);
    assert_int_equal(ocf_plan_define_value(&plan, "BK", 0), (long long)piped_calls[i].bk);
    assert_int_equal(plan.local_mem_bytes, ocf_attention_wgmma_local_bytes(
                                               piped_calls[i].bk, call.d <= 64 ? 64 : 128, 1));
  }
  /* The edges: each case changes one thing from a call attention_wgmma takes. */
  for (int c = 0; c < 19; c++) {
    ocf_device_facts f = nv;
    ocf_tuning_values tv = on;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = 4, call.h_kv = 4, call.lq = 300, call.lk = 300, call.d = 128;
    call.kv_vector = call.q_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_F16;
    ocf_plan_probe probe = OCF_PLAN_PROBE_NONE;
    int wgmma = 0;
    if (c == 0) wgmma = 1;
    if (c == 1) f.learnt.wgmma = OCF_PROBE_UNKNOWN, probe = OCF_PLAN_PROBE_WGMMA;
    if (c == 2) f.learnt.wgmma = OCF_PROBE_FAILED;
    if (c == 3) f.nv_compute_capability = 80;
    if (c == 4) tv.attention.wgmma.on = 0;
    if (c == 5) call.q_dtype = call.k_dtype = call.v_dtype = OCF_F32;
    if (c == 6) call.v_dtype = OCF_BF16;
    if (c == 7) call.d = 129;
    if (c == 8) call.q_vector = 4;
    if (c == 9) call.kv_vector = 4;
    if (c == 10) call.lq = 63;
    if (c == 11) call.lq = 64, wgmma = 1;
    if (c == 12) call.variant = OCF_VARIANT_GENERAL;
    if (c == 13) call.workgroup = 64;
    if (c == 14) f.loop_limit = 65535;
    /* Rule 5 without wgmma.split_fill: 65 workgroups (a block of 128 rows a head) leave more
       than half the H200's 132 units idle where mma.split_fill 1 and keys for two ranges of
       split.min ask for attention_mma's split; 66 do not, nor 511 keys, nor split_fill 0. */
    if (c >= 15) {
      tv.attention.mma.split_fill = c == 18 ? 0 : 1, tv.attention.split.min = 256;
      call.h = call.h_kv = c == 16 ? 66 : 65, call.lq = 128, call.lk = c == 17 ? 511 : 512;
      wgmma = c != 15;
    }
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &tv, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel == OCF_KERNEL_ATTENTION_WGMMA, wgmma);
    assert_int_equal(plan.probe, probe);
    if (c == 1) assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA);
  }
  test_wgmma_split_plans(&on, &nv);
}

/* attention_wgmma_tma with rule 5's key ranges (few blocks against long keys) and
   wgmma.tma_split: the ranges the cp.async split would take (TMA_SPLIT), the join after it, the
   maps after the ranges in scratch from the next multiple of 128 bytes; a caller's workspace one
   byte short of that keeps the cp.async split, which needs only the ranges. */
static void test_wgmma_tma_split_plans(const ocf_tuning_values *tma, const ocf_device_facts *nv) {
  ocf_tuning_values on = *tma, off = *tma;
  on.attention.wgmma.split_fill = off.attention.wgmma.split_fill = 1;
  on.attention.wgmma.tma_split = 1;
  on.attention.split.min = off.attention.split.min = 256;
  off.attention.wgmma.tma = 0;
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 1, call.h = 3, call.h_kv = 1, call.lq = 101, call.lk = 7000, call.d = 72;
  call.kv_vector = call.q_vector = 8, call.tma_strides = 1;
  call.q_dtype = call.k_dtype = call.v_dtype = OCF_F16, call.out_dtype = OCF_BF16;
  ocf_plan cp, plan;
  ocft_assert_status(ocf_plan_attention(nv, &off, &call, &cp), OCF_SUCCESS);
  assert_int_equal(cp.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_SPLIT);
  assert_true(cp.kv_splits > 1);
  /* 3 x 101 rows of (m, l, O[72]) a range, in ranges whose bytes are no multiple of 128 (the
     maps start at the next one) */
  const size_t ranges = 3 * 101 * cp.kv_splits * 74 * sizeof(float);
  assert_int_equal(cp.scratch_bytes, ranges);
  assert_true(ranges % 128 != 0);
  const size_t maps_at = (ranges + 127) / 128 * 128, units = 3 * cp.kv_splits;
  for (int persist = 0; persist < 2; persist++) {
    on.attention.wgmma.tma_persist = persist;
    const size_t workgroups = persist && units > 132 ? 132 : units;
    ocft_assert_status(ocf_plan_attention(nv, &on, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.step_count, 2);
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_TMA);
    assert_int_equal(plan.steps[1].kernel, OCF_KERNEL_ATTENTION_WGMMA_JOIN);
    assert_int_equal(plan.steps[1].global[0], cp.steps[1].global[0]);
    assert_int_equal(plan.steps[0].global[0], 288 * workgroups);
    assert_int_equal(ocf_plan_define_value(&plan, "TMA_SPLIT", -1), 1);
    assert_int_equal(ocf_plan_define_value(&plan, "D", -1), 128);
    assert_int_equal(plan.kv_splits, cp.kv_splits);
    assert_int_equal(plan.split_keys, cp.split_keys);
    assert_int_equal(plan.scratch_bytes, maps_at + 512 * workgroups);
    assert_int_equal(plan.scratch_written, 1);
  }
  on.attention.wgmma.tma_persist = 0;
  /* the workspace: exact, one byte short (the cp.async split's ranges fit it) */
  for (size_t short_by = 0; short_by < 2; short_by++) {
    ocf_attention_call bounded = call;
    bounded.scratch_bound.set = 1;
    bounded.scratch_bound.bytes = maps_at + 512 * units - short_by;
    ocft_assert_status(ocf_plan_attention(nv, &on, &bounded, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel,
                     short_by ? OCF_KERNEL_ATTENTION_WGMMA_SPLIT : OCF_KERNEL_ATTENTION_WGMMA_TMA);
    assert_int_equal(ocf_plan_define_value(&plan, "TMA_SPLIT", -1), !short_by);
    assert_int_equal(plan.kv_splits, cp.kv_splits);
  }
  /* without wgmma.tma_split: the cp.async split */
  ocf_tuning_values unsplit_only = on;
  unsplit_only.attention.wgmma.tma_split = 0;
  ocft_assert_status(ocf_plan_attention(nv, &unsplit_only, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_SPLIT);
  assert_int_equal(plan.scratch_bytes, ranges);
  /* an unsplit call: TMA_SPLIT 0 */
  call.lq = 4096;
  ocft_assert_status(ocf_plan_attention(nv, &on, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_TMA);
  assert_int_equal(ocf_plan_define_value(&plan, "TMA_SPLIT", -1), 0);
  assert_int_equal(plan.step_count, 1);
}

/* attention_wgmma_tma's plans (rule 6 of plan_attention_wgmma.c): with wgmma.tma after the wide
   and TMA probes passed, 288 work-items of the wide cap's registers, the maps' 512 bytes a
   workgroup of scratch, the ring's stages cut to fit what the TMA probe ran right with; the
   cp.async kernel where any gate fails, asking for the probe it waits for while one has not
   run. */
static void test_wgmma_tma_plans(const ocf_tuning_values *tuning) {
  ocf_tuning_values on = *tuning;
  on.attention.mma.on = 1, on.attention.wgmma.on = 1, on.attention.wgmma.bk = 64;
  on.attention.wgmma.min_lq = 64, on.attention.wgmma.pipe = 0;
  on.attention.wgmma.split_fill = 0, on.attention.mma.split_fill = 0;
  on.attention.wgmma.tma = 1, on.attention.wgmma.tma_stages = 3;
  ocf_device_facts nv = h200_facts();
  nv.nv_compiler_options = 1;
  nv.learnt.wgmma = nv.learnt.wide = nv.learnt.wgmma_tma = OCF_PROBE_PASSED;
  nv.learnt.wgmma_local_ok = nv.learnt.wgmma_tma_local_ok = 197632;
  ocf_attention_call base;
  memset(&base, 0, sizeof base);
  base.b = 2, base.h = 8, base.h_kv = 2, base.lq = 4096, base.lk = 3000, base.d = 128;
  base.kv_vector = base.q_vector = 8, base.tma_strides = 1;
  base.q_dtype = base.k_dtype = base.v_dtype = OCF_BF16, base.out_dtype = OCF_F32;
  const size_t three = ocf_attention_wgmma_tma_local_bytes(64, 128, 3);
  const size_t two = ocf_attention_wgmma_tma_local_bytes(64, 128, 2);
  /* the local memory the TMA probe ran right with: 3 stages, 2, the cp.async kernel */
  static const int stages_of[] = {3, 2, 0};
  const unsigned long long locals[] = {three, three - 1, two - 1};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(locals); i++) {
    ocf_device_facts f = nv;
    f.learnt.wgmma_tma_local_ok = locals[i];
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &on, &base, &plan), OCF_SUCCESS);
    assert_int_equal(plan.step_count, 1);
    assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
    assert_int_equal(ocf_plan_define_value(&plan, "TMA", -1), stages_of[i] > 0);
    if (!stages_of[i]) {
      assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA);
      assert_int_equal(plan.steps[0].local[0], 256);
      continue;
    }
    const size_t units = 2 * 8 * 32; /* (batch, head, block of 128 rows) */
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_TMA);
    assert_int_equal(plan.steps[0].local[0], 288);
    assert_int_equal(plan.steps[0].global[0], 288 * units);
    assert_int_equal(ocf_plan_define_value(&plan, "TMA_STAGES", -1), stages_of[i]);
    assert_int_equal(ocf_plan_define_value(&plan, "PIPE", -1), 0);
    assert_int_equal(ocf_plan_define_value(&plan, "PINGPONG", -1), 0);
    assert_int_equal(ocf_plan_define_value(&plan, "BK", -1), 64);
    assert_int_equal(plan.local_mem_bytes, stages_of[i] == 3 ? three : two);
    assert_int_equal(plan.scratch_bytes, 512 * units);
    assert_int_equal(plan.scratch_written, 1);
    assert_int_equal(plan.wide_workgroup, 1);
    assert_int_equal(plan.max_registers, ocf_wide_register_cap(288));
    assert_int_equal(plan.kv_splits, 1);
  }
  /* Each gate alone: the cp.async kernel, and the probe a gate waits for (0: none). */
  for (int g = 0; g < 13; g++) {
    ocf_tuning_values tv = on;
    ocf_device_facts f = nv;
    ocf_attention_call call = base;
    int probe = OCF_PLAN_PROBE_NONE;
    if (g == 0) tv.attention.wgmma.tma = 0;
    if (g == 1) call.h = call.h_kv = (size_t)1 << 31;
    if (g == 2) call.tma_strides = 0;
    if (g == 3) f.nv_compiler_options = 0;
    if (g == 4) call.lk = (size_t)1 << 31;
    if (g == 5) call.lq = (size_t)1 << 31;
    if (g == 6) f.learnt.wide_refused[OCF_KERNEL_ATTENTION_WGMMA_TMA] = 1;
    if (g == 7) f.learnt.wide = OCF_PROBE_FAILED;
    if (g == 8) f.learnt.wgmma_tma = OCF_PROBE_FAILED;
    if (g == 9) f.max_workgroup_size = 256;
    if (g == 12) call.scratch_bound.set = 1, call.scratch_bound.bytes = 512 * 512 - 1;
    if (g == 10) f.learnt.wide = OCF_PROBE_UNKNOWN, probe = OCF_PLAN_PROBE_WIDE;
    if (g == 11) f.learnt.wgmma_tma = OCF_PROBE_UNKNOWN, probe = OCF_PLAN_PROBE_WGMMA_TMA;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &tv, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA);
    assert_int_equal(ocf_plan_define_value(&plan, "TMA", -1), 0);
    assert_int_equal(ocf_plan_define_value(&plan, "PINGPONG", -1), 0);
    assert_int_equal(plan.probe, probe);
  }
  /* What a map describes: strides below 2^36 elements, 0 only along a dimension of one. */
  const size_t dims[3][3] = {{2, 8, 4096}, {2, 2, 3000}, {2, 2, 3000}};
  const size_t dense[3][3] = {{8 * 4096 * 128, 4096 * 128, 128},
                              {2 * 3000 * 128, 3000 * 128, 128},
                              {2 * 3000 * 128, 3000 * 128, 128}};
  assert_true(ocf_attention_tma_strides(dims, dense));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      size_t d[3][3], s[3][3];
      memcpy(d, dims, sizeof d), memcpy(s, dense, sizeof s);
      s[i][j] = 0; /* broadcast along a dimension of 2 or more */
      assert_false(ocf_attention_tma_strides(d, s));
      d[i][j] = 1; /* of one: any stride */
      assert_true(ocf_attention_tma_strides(d, s));
      memcpy(d, dims, sizeof d);
      s[i][j] = ((size_t)1 << 36) - 1;
      assert_true(ocf_attention_tma_strides(d, s));
      s[i][j] = (size_t)1 << 36;
      assert_false(ocf_attention_tma_strides(d, s));
    }
  /* a caller's workspace that holds the maps exactly */
  ocf_attention_call bounded = base;
  bounded.scratch_bound.set = 1, bounded.scratch_bound.bytes = 512 * 512;
  ocf_plan plan;
  ocft_assert_status(ocf_plan_attention(&nv, &on, &bounded, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_TMA);
  assert_int_equal(plan.scratch_bytes, 512 * 512);
  /* wgmma.pipe carries over; wgmma.tma 2 takes turns (PINGPONG) */
  ocf_tuning_values turns = on;
  turns.attention.wgmma.pipe = 1, turns.attention.wgmma.tma = 2;
  ocft_assert_status(ocf_plan_attention(&nv, &turns, &base, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_TMA);
  assert_int_equal(ocf_plan_define_value(&plan, "PIPE", -1), 1);
  assert_int_equal(ocf_plan_define_value(&plan, "PINGPONG", -1), 1);
  assert_int_equal(ocf_plan_define_value(&plan, "TMA_STAGES", -1), 3);
  /* wgmma.tma_persist: a workgroup a compute unit (132 of the 512 blocks), a map each; fewer
     blocks than units keep a workgroup a block */
  ocf_tuning_values persist = on;
  persist.attention.wgmma.tma_persist = 1;
  ocft_assert_status(ocf_plan_attention(&nv, &persist, &base, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_WGMMA_TMA);
  assert_int_equal(plan.steps[0].global[0], 288 * 132);
  assert_int_equal(plan.scratch_bytes, 512 * 132);
  ocf_attention_call few = base;
  few.b = 1, few.h = 4, few.h_kv = 1, few.lq = 1000; /* 4 x 8 blocks */
  ocft_assert_status(ocf_plan_attention(&nv, &persist, &few, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].global[0], 288 * 32);
  test_wgmma_tma_split_plans(&on, &nv);
}

/* mma.decode_fill: decoding calls (decode.wg on) go to attention_mma before attention_decode
   where its workgroups (one a batch and head for lq <= 16) reach decode_fill a compute unit; to
   attention_decode below that, with decode_fill 0, and (asking for the probe) until the probe
   has run. */
static void test_mma_decode_plans(const ocf_tuning_values *tuning) {
  ocf_tuning_values tv = *tuning;
  tv.attention.mma.on = 1, tv.attention.mma.decode_fill = 3, tv.attention.decode.wg = 128;
  ocf_device_facts nv = h200_facts();
  static const struct {
    size_t b, h, h_kv, lq;
    int probe_passed, fill;
    ocf_kernel_id kernel;
    int probe;
  } cases[] = {
      {16, 32, 32, 1, 1, 3, OCF_KERNEL_ATTENTION_MMA, 0},    /* 512 >= 396 */
      {1, 32, 32, 1, 1, 3, OCF_KERNEL_ATTENTION_DECODE, 0},  /* 32 */
      {99, 4, 4, 1, 1, 3, OCF_KERNEL_ATTENTION_MMA, 0},      /* 396: the edge */
      {395, 1, 1, 1, 1, 3, OCF_KERNEL_ATTENTION_DECODE, 0},  /* 395: one short */
      {16, 32, 8, 4, 1, 3, OCF_KERNEL_ATTENTION_MMA, 0},     /* GQA, 4 rows a head */
      {16, 32, 32, 1, 1, 0, OCF_KERNEL_ATTENTION_DECODE, 0}, /* decode_fill 0 */
      {16, 32, 32, 1, 0, 3, OCF_KERNEL_ATTENTION_DECODE, 1}, /* probe not run: asked for */
  };
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
    ocf_device_facts f = nv;
    if (!cases[i].probe_passed) f.learnt.mma = OCF_PROBE_UNKNOWN;
    tv.attention.mma.decode_fill = cases[i].fill;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = cases[i].b, call.h = cases[i].h, call.h_kv = cases[i].h_kv, call.lq = cases[i].lq;
    call.lk = 4096, call.d = 128, call.kv_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &tv, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.steps[0].kernel, cases[i].kernel);
    assert_int_equal(plan.probe, cases[i].probe ? OCF_PLAN_PROBE_MMA : OCF_PLAN_PROBE_NONE);
    if (cases[i].kernel == OCF_KERNEL_ATTENTION_MMA)
      assert_int_equal(ocf_plan_define_value(&plan, "WARPS", 0), 1);
  }
}

/* mma.split_fill: attention_mma's workgroups fewer than split_fill a compute unit (and lk two
   ranges of split.min keys) take attention_mma_split + attention_mma_join, the ranges as
   attention_decode's (enough for split_fill a compute unit, or one a split.min keys; a multiple
   of the tile; every key in one), the scratch a (m, s, acc) a row and range; split_fill 0, many
   workgroups or few keys: attention_mma alone. Through either route (decode.wg 0, or
   mma.decode_fill below the workgroups), and emulated. */
static void test_mma_split_plans(const ocf_tuning_values *tuning) {
  ocf_device_facts nv = h200_facts();
  static const struct {
    size_t b, h, h_kv, lq, lk;
    int split_fill, decode_route, emulated, split;
  } cases[] = {
      {1, 32, 32, 1, 8192, 0, 0, 0, 0},  /* split_fill 0: never */
      {1, 32, 32, 1, 8192, 4, 0, 0, 1},  /* 32 workgroups < 528 */
      {1, 32, 32, 1, 8192, 8, 0, 0, 1},  /* more ranges */
      {1, 32, 8, 1, 8192, 4, 0, 0, 1},   /* GQA */
      {1, 32, 8, 4, 8191, 4, 0, 0, 1},   /* ragged lk, 4 rows a head */
      {2, 4, 4, 40, 3000, 4, 0, 0, 1},   /* row blocks */
      {1, 32, 32, 1, 300, 4, 0, 0, 0},   /* one range of split.min */
      {32, 32, 32, 1, 8192, 4, 0, 0, 0}, /* 1024 workgroups >= 528 */
      {16, 32, 32, 1, 4096, 8, 1, 0, 1}, /* via decode_fill (512 >= 396), 512 < 1056 */
      {1, 32, 32, 1, 8192, 64, 0, 1, 1}, /* emulated (a CPU of 4 compute units) */
  };
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(cases); i++) {
    ocf_tuning_values tv = *tuning;
    tv.attention.mma.on = cases[i].emulated ? 2 : 1;
    tv.attention.mma.split_fill = cases[i].split_fill;
    tv.attention.decode.wg = cases[i].decode_route ? 128 : 0;
    tv.attention.mma.decode_fill = cases[i].decode_route ? 3 : 0;
    ocf_device_facts f = cases[i].emulated ? facts_of(1024, 48 << 10) : nv;
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = cases[i].b, call.h = cases[i].h, call.h_kv = cases[i].h_kv, call.lq = cases[i].lq;
    call.lk = cases[i].lk, call.d = 128, call.kv_vector = 8;
    call.q_dtype = call.k_dtype = call.v_dtype = call.out_dtype = OCF_BF16;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&f, &tv, &call, &plan), OCF_SUCCESS);
    assert_int_equal(ocf_plan_define_value(&plan, "MMA_EMULATE", -1), cases[i].emulated);
    const size_t warps = (size_t)ocf_plan_define_value(&plan, "WARPS", 0);
    const size_t bk = (size_t)ocf_plan_define_value(&plan, "BK", 0);
    const size_t base = call.b * call.h * ((call.lq + 16 * warps - 1) / (16 * warps));
    const size_t units = plan.steps[0].global[0] / plan.steps[0].local[0];
    assert_int_equal(plan.steps[0].local[0], 32 * warps);
    if (!cases[i].split) {
      assert_int_equal(plan.step_count, 1);
      assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA);
      assert_int_equal(plan.kv_splits, 1);
      assert_int_equal(plan.scratch_bytes, 0);
      assert_int_equal(units, base);
      continue;
    }
    assert_int_equal(plan.step_count, 2);
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_MMA_SPLIT);
    assert_int_equal(plan.steps[1].kernel, OCF_KERNEL_ATTENTION_MMA_JOIN);
    /* Ranges of a multiple of the tile, every key in one, none past lk. */
    assert_true(plan.kv_splits >= 2 && plan.split_keys % bk == 0);
    assert_true(plan.kv_splits * plan.split_keys >= call.lk &&
                (plan.kv_splits - 1) * plan.split_keys < call.lk);
    /* Enough for split_fill a compute unit, or one a split.min keys. */
    assert_int_equal(units, base * plan.kv_splits);
    assert_true(units >= f.compute_units * (size_t)cases[i].split_fill ||
                plan.kv_splits >= call.lk / (size_t)tv.attention.split.min);
    assert_true(plan.split_keys >= (size_t)tv.attention.split.min || plan.split_keys == bk);
    assert_int_equal(plan.scratch_bytes,
                     call.b * call.h * call.lq * plan.kv_splits * (call.d + 2) * sizeof(float));
    /* The join: one work-item an element of out. */
    assert_true(plan.steps[1].global[0] >= call.b * call.h * call.lq * call.d);
  }
}

static void test_attention_plans(void **state) {
  (void)state;
  ocf_tuning_values tuning;
  ocf_tuning_fallbacks(OCF_OP_ATTENTION, &tuning);
  assert_int_equal(ocf_tuning_check(OCF_OP_ATTENTION, &tuning, "fallbacks"), OCF_SUCCESS);
  test_decode_plans(&tuning);
  test_mma_split_plans(&tuning);
  /* With decode.prefetch, and with it and tiles too large for the registers it allows. */
  ocf_tuning_values prefetching = tuning;
  prefetching.attention.decode.prefetch = 1;
  test_decode_plans(&prefetching);
  prefetching.attention.decode.bk = 128;
  test_decode_plans(&prefetching);
  test_block_plans(&tuning);
  static const int lanes[][3] = {{16, 2, 0}, {32, 4, 0}, {8, 1, 1},
                                 {1, 8, 1},  {4, 3, 0},  {16, 4, 1}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(lanes); i++)
    for (int nvidia = 0; nvidia < 2; nvidia++)
      for (int row_groups = 1; row_groups <= 16; row_groups *= 4)
        test_lanes_plans(&tuning, lanes[i][0], lanes[i][1], lanes[i][2], row_groups, nvidia);
  test_mma_plans(&tuning);
  test_wgmma_plans(&tuning);
  test_wgmma_tma_plans(&tuning);
  test_mma_decode_plans(&tuning);
  /* attention_tiled and attention_split: attention_decode and attention_block off. */
  tuning.attention.decode.wg = 0;
  tuning.attention.block.bq = 0;
  static const size_t dims[] = {1, 16, 17, 64, 100, 128, 255, 256};
  static const struct {
    size_t max_wg;
    unsigned long long local;
  } devices[] = {{32, 32 << 10}, {1024, 48 << 10}, {4096, 256 << 10}, {1, 4 << 10}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(devices); i++)
    for (size_t j = 0; j < OCF_ARRAY_LEN_T(dims); j++)
      for (size_t lq = 1; lq <= 1000; lq *= 10) {
        const ocf_device_facts facts = facts_of(devices[i].max_wg, devices[i].local);
        ocf_attention_call call;
        memset(&call, 0, sizeof call);
        call.b = 2, call.h = 3, call.lq = lq, call.lk = 77, call.d = dims[j];
        ocf_plan plan;
        ocft_assert_status(ocf_plan_attention(&facts, &tuning, &call, &plan), OCF_SUCCESS);
        const long long bq = ocf_plan_define_value(&plan, "BQ", 0);
        const long long bk = ocf_plan_define_value(&plan, "BK", 0);
        const long long tpr = ocf_plan_define_value(&plan, "TPR", 0);
        const long long dp = ocf_plan_define_value(&plan, "D", 0);
        assert_true(dp >= (long long)dims[j] && dp % 16 == 0 && dp % tpr == 0 && bk % tpr == 0);
        assert_true((size_t)(bq * tpr) <= devices[i].max_wg);
        assert_true(ocf_attention_local_bytes((size_t)bq, (size_t)bk, (size_t)dp) <=
                    devices[i].local);
        assert_int_equal(plan.steps[0].local[0], (size_t)(bq * tpr));
        /* Every query block of every head has its workgroup. */
        assert_int_equal(plan.steps[0].global[0] / plan.steps[0].local[0],
                         6 * ((lq + (size_t)bq - 1) / (size_t)bq));
      }
  /* The decode split: one query row, long keys, a device of 4 compute units (split.fill 2:
     8 workgroups wanted): attention_split then attention_merge, (m, s, acc) per range. */
  {
    const ocf_device_facts facts = facts_of(1024, 48 << 10);
    ocf_attention_call call;
    memset(&call, 0, sizeof call);
    call.b = 1, call.h = 1, call.lq = 1, call.lk = 10000, call.d = 64;
    ocf_plan plan;
    ocft_assert_status(ocf_plan_attention(&facts, &tuning, &call, &plan), OCF_SUCCESS);
    assert_int_equal(plan.step_count, 2);
    assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_ATTENTION_SPLIT);
    assert_int_equal(plan.steps[1].kernel, OCF_KERNEL_ATTENTION_MERGE);
    assert_int_equal(plan.kv_splits, 8);
    assert_true(plan.kv_splits * plan.split_keys >= call.lk && plan.split_keys % 32 == 0);
    assert_int_equal(plan.scratch_bytes, 8 * (64 + 2) * sizeof(float));
  }
  /* A driver's loop limit (llvmpipe: 65535 iterations a work-item): each work-item's keys stay
     within it (2.5 D + 8 iterations a key at most), in every variant and workgroup size, one
     unit a workgroup; rows that would need more than 1024 ranges are refused. */
  {
    ocf_device_facts facts = facts_of(1024, 64 << 10);
    facts.loop_limit = 65535;
    static const size_t lks[] = {100, 184, 185, 1000, 10000, 300000};
    static const int variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL};
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(lks); i++)
      for (size_t v = 0; v < OCF_ARRAY_LEN_T(variants); v++)
        for (size_t wg = 0; wg <= 64; wg += 64) {
          ocf_attention_call call;
          memset(&call, 0, sizeof call);
          call.b = 2, call.h = 3, call.lq = 70, call.lk = lks[i], call.d = 128;
          call.variant = variants[v];
          call.workgroup = variants[v] == OCF_VARIANT_GENERAL ? 0 : wg;
          ocf_plan plan;
          const ocf_status status = ocf_plan_attention(&facts, &tuning, &call, &plan);
          if (lks[i] == 300000) {
            assert_int_equal(status, OCF_ERR_UNSUPPORTED);
            continue;
          }
          ocft_assert_status(status, OCF_SUCCESS);
          const size_t keys = plan.step_count == 2 ? plan.split_keys : call.lk;
          assert_true(keys * (5 * 128 / 2 + 8) <= 65535);
          if (lks[i] > 184) assert_int_equal(plan.step_count, 2);
          assert_true(plan.kv_splits * keys >= call.lk);
          const long long bq = ocf_plan_define_value(&plan, "BQ", 0);
          assert_int_equal(plan.steps[0].global[0] / plan.steps[0].local[0],
                           6 * ((70 + (size_t)bq - 1) / (size_t)bq) * plan.kv_splits);
        }
  }
  /* A fixed size whose smallest tile cannot fit the local memory is refused. */
  const ocf_device_facts tiny = facts_of(1024, 8 << 10);
  ocf_attention_call call;
  memset(&call, 0, sizeof call);
  call.b = 1, call.h = 1, call.lq = 500, call.lk = 500, call.d = 256, call.workgroup = 512;
  ocf_plan plan;
  assert_int_equal(ocf_plan_attention(&tiny, &tuning, &call, &plan), OCF_ERR_INVALID_WORKGROUP);
  /* The general variant: one work-item a row, one key a tile. */
  call.workgroup = 0;
  call.variant = OCF_VARIANT_GENERAL;
  ocft_assert_status(ocf_plan_attention(&tiny, &tuning, &call, &plan), OCF_SUCCESS);
  assert_int_equal(ocf_plan_define_value(&plan, "BQ", 0), 1);
  assert_int_equal(ocf_plan_define_value(&plan, "BK", 0), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_attention_plans),
      cmocka_unit_test(test_attention_refusals),
      cmocka_unit_test(test_attention_special_rows),
      cmocka_unit_test(test_attention_shapes),
      cmocka_unit_test(test_attention_masks),
      cmocka_unit_test(test_attention_dtypes),
      cmocka_unit_test(test_attention_gqa),
      cmocka_unit_test(test_attention_layouts),
      cmocka_unit_test(test_attention_workgroups),
      cmocka_unit_test(test_attention_host),
      cmocka_unit_test(test_attention_unfused),
      cmocka_unit_test(test_attention_baseline),
      cmocka_unit_test(test_attention_baseline_memory),
      cmocka_unit_test(test_attention_split),
      cmocka_unit_test(test_attention_block),
      cmocka_unit_test(test_attention_mma),
      cmocka_unit_test(test_attention_mma_split),
      cmocka_unit_test(test_attention_mma_pack),
      cmocka_unit_test(test_attention_mma_shapes),
      cmocka_unit_test(test_attention_mma_fp32),
      cmocka_unit_test(test_attention_wgmma),
      cmocka_unit_test(test_attention_lanes),
      cmocka_unit_test(test_attention_lanes_join),
      cmocka_unit_test(test_attention_lanes_bulk),
      cmocka_unit_test(test_attention_workspace),
      cmocka_unit_test(test_attention_gqa_decode),
  };
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  return cmocka_run_group_tests_name("attention", tests, ocft_group_setup, ocft_group_teardown);
}
