/*
 * The host conversions (ocf_float_to_half and friends) and the host forms of the _ex calls
 * (ocf_softmax_host_ex, ocf_matmul_host_ex).
 *
 * Conversions: every one of the 65536 16-bit patterns widened, and edge and random floats
 * narrowed, bit for bit against the harness's independent reference (harness/storage16.c, a
 * different algorithm: doubles for fp16 subnormals, thresholds for overflow); then against the
 * device's own conversions, through a matmul of k = 1 (C = 1 * B, exact in fp32 before the
 * store), on every pattern and the edge floats.
 *
 * Host forms: each is a copy around its device form, so its result must be that of the device
 * form on the same data, bit for bit (same shapes, offsets, strides: same plan, same kernels):
 * every option is run both ways and compared exactly, gaps between rows included. A small fp32
 * case of each is also checked against a plain CPU loop (double accumulation), within a bound
 * argued there. Then an out-of-order queue, and a table of refusals that must leave the output
 * untouched.
 */
#include "storage16.h"
#include "test_common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- conversions against the reference ---- */

/* Floats where the conversions change behaviour: zeros, the fp16 and bf16 subnormal and
   overflow boundaries (and the floats either side of each), ties, infinities and NaNs. */
static size_t edge_floats(float *out, size_t capacity) {
  static const uint32_t base[] = {
      0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x33000000u, 0x33000001u, 0x33800000u,
      0x33c00000u, 0x337fffffu, 0x38800000u, 0x387fe000u, 0x387ff000u, 0x38801000u, 0x3f800000u,
      0x3f801000u, 0x3f803000u, 0x3f808000u, 0x3f818000u, 0x3f800001u, 0x477fe000u, 0x477fefffu,
      0x477ff000u, 0x477ff001u, 0x47800000u, 0x7f7f7fffu, 0x7f7f8000u, 0x7f7effffu, 0x7f7f0000u,
      0x7f7fffffu, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu, 0x7fa00000u, 0x7f802000u,
      0x3c000000u, 0x3c001000u, 0x3c003000u, 0x00008000u, 0x00018000u, 0x3eaaaaabu};
  size_t count = 0;
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(base); i++)
    for (int delta = -1; delta <= 1; delta++)
      for (uint32_t sign = 0; sign <= 1; sign++) {
        const uint32_t u = (base[i] + (uint32_t)delta) ^ (sign << 31);
        if (count < capacity) out[count++] = ocf_ref_float_of(u);
      }
  return count;
}

static void assert_bits16(const char *what, size_t i, float in, uint16_t got, uint16_t want) {
  if (got != want) {
    fprintf(stderr, "%s: element %zu (0x%08x): 0x%04x, reference 0x%04x\n", what, i,
            (unsigned)ocf_ref_bits_of(in), (unsigned)got, (unsigned)want);
    fail();
  }
}

static void test_convert_widen_every_pattern(void **state) {
  (void)state;
  enum { COUNT = 65536 };
  uint16_t *in = malloc(COUNT * sizeof *in);
  float *got = ocft_alloc_floats(COUNT);
  assert_non_null(in);
  for (size_t i = 0; i < COUNT; i++)
    in[i] = (uint16_t)i;
  for (int type = 0; type < 2; type++) {
    ocft_assert_status(type == 0 ? ocf_half_to_float(COUNT, in, got)
                                 : ocf_bfloat16_to_float(COUNT, in, got),
                       OCF_SUCCESS);
    for (size_t i = 0; i < COUNT; i++) {
      const float want = type == 0 ? ocf_ref_f16_to_float(in[i]) : ocf_ref_bf16_to_float(in[i]);
      if (ocf_ref_bits_of(got[i]) != ocf_ref_bits_of(want)) {
        fprintf(stderr, "%s: 0x%04x gives 0x%08x, reference 0x%08x\n",
                type == 0 ? "ocf_half_to_float" : "ocf_bfloat16_to_float", (unsigned)i,
                (unsigned)ocf_ref_bits_of(got[i]), (unsigned)ocf_ref_bits_of(want));
        fail();
      }
    }
  }
  free(got);
  free(in);
}

static void test_convert_narrow_edges_and_random(void **state) {
  (void)state;
  /* The edges, 2^20 random bit patterns (every class of float, NaNs included), and a sweep of
     the whole float range in steps of 4099 patterns (about 2^20 more, every exponent). */
  const size_t edges = 512, random = (size_t)1 << 20, sweep = 0xffffffffu / 4099u + 1;
  const size_t count = edges + random + sweep;
  float *in = ocft_alloc_floats(count);
  uint16_t *got = malloc(count * sizeof *got);
  assert_non_null(got);
  size_t n = edge_floats(in, edges);
  uint64_t seed = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < random; i++) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    in[n++] = ocf_ref_float_of((uint32_t)(seed >> 16));
  }
  for (uint64_t u = 0; u <= 0xffffffffu; u += 4099u)
    in[n++] = ocf_ref_float_of((uint32_t)u);
  ocft_assert_status(ocf_float_to_half(n, in, got), OCF_SUCCESS);
  for (size_t i = 0; i < n; i++)
    assert_bits16("ocf_float_to_half", i, in[i], got[i], ocf_ref_f16_from_float(in[i]));
  ocft_assert_status(ocf_float_to_bfloat16(n, in, got), OCF_SUCCESS);
  for (size_t i = 0; i < n; i++)
    assert_bits16("ocf_float_to_bfloat16", i, in[i], got[i], ocf_ref_bf16_from_float(in[i]));
  free(got);
  free(in);
}

/* A few documented values, written out. */
static void test_convert_documented_values(void **state) {
  (void)state;
  const float in[] = {65504.0f,
                      65519.0f,
                      65520.0f,
                      -INFINITY,
                      5.9604644775390625e-8f,
                      2.98023223876953125e-8f,
                      1.0f + 1.0f / 2048.0f,
                      -NAN};
  const uint16_t half[] = {0x7bff, 0x7bff, 0x7c00, 0xfc00, 0x0001, 0x0000, 0x3c00, 0xfe00};
  uint16_t got[OCF_ARRAY_LEN_T(in)];
  ocft_assert_status(ocf_float_to_half(OCF_ARRAY_LEN_T(in), in, got), OCF_SUCCESS);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(in); i++)
    assert_int_equal(got[i], half[i]);
  const float bf_in[] = {1.0f + 1.0f / 256.0f, 1.0f + 3.0f / 256.0f,
                         0x1.ffp+127f /* 0x7f7f8000: a tie, to even (up) */};
  const uint16_t bf[] = {0x3f80, 0x3f82, 0x7f80};
  ocft_assert_status(ocf_float_to_bfloat16(3, bf_in, got), OCF_SUCCESS);
  for (size_t i = 0; i < 3; i++)
    assert_int_equal(got[i], bf[i]);
}

/* In place both ways, and the refusals. */
static void test_convert_in_place_and_refusals(void **state) {
  (void)state;
  enum { N = 1000 };
  float data[N], copy[N], back[N];
  uint16_t packed[N];
  for (size_t i = 0; i < N; i++)
    data[i] = copy[i] = (float)i * 0.37f - 100.0f;
  for (int type = 0; type < 2; type++) {
    memcpy(data, copy, sizeof data);
    uint16_t *in_place = (uint16_t *)(void *)data;
    if (type == 0) {
      ocft_assert_status(ocf_float_to_half(N, copy, packed), OCF_SUCCESS);
      ocft_assert_status(ocf_float_to_half(N, data, in_place), OCF_SUCCESS);
    } else {
      ocft_assert_status(ocf_float_to_bfloat16(N, copy, packed), OCF_SUCCESS);
      ocft_assert_status(ocf_float_to_bfloat16(N, data, in_place), OCF_SUCCESS);
    }
    assert_memory_equal(in_place, packed, sizeof packed);
    if (type == 0) {
      ocft_assert_status(ocf_half_to_float(N, packed, back), OCF_SUCCESS);
      ocft_assert_status(ocf_half_to_float(N, in_place, data), OCF_SUCCESS);
    } else {
      ocft_assert_status(ocf_bfloat16_to_float(N, packed, back), OCF_SUCCESS);
      ocft_assert_status(ocf_bfloat16_to_float(N, in_place, data), OCF_SUCCESS);
    }
    assert_memory_equal(data, back, sizeof back);
  }
  ocft_assert_status(ocf_float_to_half(0, NULL, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_bfloat16_to_float(0, NULL, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_float_to_half(1, NULL, packed), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_half_to_float(1, packed, NULL), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_float_to_bfloat16(1, data, NULL), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_bfloat16_to_float(1, NULL, data), OCF_ERR_NULL_ARGUMENT);
  /* Overlap other than in place: refused, out untouched. */
  memcpy(data, copy, sizeof data);
  ocft_assert_status(ocf_float_to_half(8, data + 1, (uint16_t *)(void *)data), OCF_ERR_ALIASING);
  ocft_assert_status(ocf_half_to_float(8, (uint16_t *)(void *)data + 2, data), OCF_ERR_ALIASING);
  assert_memory_equal(data, copy, sizeof data);
  assert_true(strstr(ocf_last_error(), "ocf_half_to_float") != NULL);
  ocft_assert_status(ocf_float_to_bfloat16(SIZE_MAX / 2, data, packed), OCF_ERR_SIZE_OVERFLOW);
}

/* ---- conversions against the device ---- */

/* C (1 x n, c_dtype) = 1 * B (1 x n, b_dtype), k = 1: the product is exact, so C is B's value
   converted by the kernels' load and store. */
static void device_convert(const ocft_env *env, size_t n, ocf_dtype b_dtype, const void *b,
                           ocf_dtype c_dtype, void *c) {
  const float one = 1.0f;
  ocf_matmul_options options = OCF_MATMUL_OPTIONS_INIT;
  options.b_dtype = b_dtype;
  options.c_dtype = c_dtype;
  ocft_assert_status(ocf_matmul_host_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 1, n, 1, 1.0f, &one,
                                        1, b, n, 0.0f, c, n, NULL, &options),
                     OCF_SUCCESS);
}

static int is_subnormal_or_zero(float f) {
  return fabsf(f) < 1.17549435e-38f;
}

static void test_convert_matches_device(void **state) {
  ocft_env *env = ocft_get_env(state);
  /* Under Oclgrind, one pattern in 16 (every exponent, mantissas varied). */
  const size_t COUNT = ocft_small() ? 4096 : 65536;
  uint16_t *patterns = malloc(COUNT * sizeof *patterns), *device16 = malloc(1024 * 2);
  float *host = ocft_alloc_floats(COUNT), *device = ocft_alloc_floats(COUNT);
  assert_non_null(patterns);
  assert_non_null(device16);
  for (size_t i = 0; i < COUNT; i++)
    patterns[i] = (uint16_t)(ocft_small() ? i * 16 + i % 16 : i);
  /* Widening: every pattern. The kernel adds the product to a zero, so -0 comes back +0; a NaN
     goes through a product, which may quiet it: the value must agree, and NaN stay NaN. */
  for (int type = 0; type < 2; type++) {
    const ocf_dtype t = type == 0 ? OCF_F16 : OCF_BF16;
    device_convert(env, COUNT, t, patterns, OCF_F32, device);
    ocft_assert_status(type == 0 ? ocf_half_to_float(COUNT, patterns, host)
                                 : ocf_bfloat16_to_float(COUNT, patterns, host),
                       OCF_SUCCESS);
    for (size_t i = 0; i < COUNT; i++) {
      const int same = isnan(host[i]) ? isnan(device[i]) != 0
                       : is_subnormal_or_zero(host[i])
                           ? device[i] == host[i] || device[i] == 0.0f /* flushed product */
                           : ocf_ref_bits_of(device[i]) == ocf_ref_bits_of(host[i]);
      if (!same) {
        fprintf(stderr, "%s 0x%04x: host %a, device %a\n", ocf_dtype_name(t), (unsigned)patterns[i],
                (double)host[i], (double)device[i]);
        fail();
      }
    }
  }
  /* Narrowing: the edge floats (zeros and NaNs as above; fp32 subnormal inputs may be flushed
     by the product, to a zero of either sign). */
  float edges[512];
  uint16_t host16[512];
  const size_t n = edge_floats(edges, 512);
  for (int type = 0; type < 2; type++) {
    const ocf_dtype t = type == 0 ? OCF_F16 : OCF_BF16;
    device_convert(env, n, OCF_F32, edges, t, device16);
    ocft_assert_status(type == 0 ? ocf_float_to_half(n, edges, host16)
                                 : ocf_float_to_bfloat16(n, edges, host16),
                       OCF_SUCCESS);
    for (size_t i = 0; i < n; i++) {
      float h, d;
      if (type == 0) {
        ocf_half_to_float(1, &host16[i], &h), ocf_half_to_float(1, &device16[i], &d);
      } else {
        ocf_bfloat16_to_float(1, &host16[i], &h), ocf_bfloat16_to_float(1, &device16[i], &d);
      }
      const int same = isnan(edges[i])                  ? isnan(d) && isnan(h)
                       : is_subnormal_or_zero(edges[i]) ? d == h || d == 0.0f
                                                        : device16[i] == host16[i];
      if (!same) {
        fprintf(stderr, "%s of 0x%08x: host 0x%04x, device 0x%04x\n", ocf_dtype_name(t),
                (unsigned)ocf_ref_bits_of(edges[i]), (unsigned)host16[i], (unsigned)device16[i]);
        fail();
      }
    }
  }
  free(device);
  free(host);
  free(device16);
  free(patterns);
}

/* ---- host forms against their device forms ---- */

static unsigned char *alloc_bytes(size_t bytes) {
  unsigned char *p = malloc(bytes ? bytes : 1);
  assert_non_null(p);
  return p;
}

/* `count` elements of type t of deterministic values in [-2, 2), and NaN-free garbage for
   gaps: any bit pattern would do for the gaps, which must come back unchanged. */
static void fill_typed(ocf_dtype t, unsigned char *bytes, size_t count, uint64_t seed) {
  float *values = ocft_alloc_floats(count);
  ocft_fill_uniform(values, count, -2.0f, 2.0f, seed);
  if (t == OCF_F32)
    memcpy(bytes, values, count * 4);
  else if (t == OCF_F16)
    ocf_float_to_half(count, values, (cl_half *)(void *)bytes);
  else
    ocf_float_to_bfloat16(count, values, (cl_ushort *)(void *)bytes);
  free(values);
}

static cl_mem device_copy(const ocft_env *env, const void *data, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem buffer = bytes ? clCreateBuffer(env->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                                         (void *)data, &err)
                        : clCreateBuffer(env->cl, CL_MEM_READ_WRITE, 1, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  return buffer;
}

/* Reads a buffer after everything on ctx's queue (which may be out of order) has finished. */
static void device_read(ocf_context *ctx, cl_mem buffer, void *data, size_t bytes) {
  assert_int_equal(clFinish(ocf_context_queue(ctx)), CL_SUCCESS);
  if (bytes)
    assert_int_equal(
        clEnqueueReadBuffer(ocf_context_queue(ctx), buffer, CL_TRUE, 0, bytes, data, 0, NULL, NULL),
        CL_SUCCESS);
}

typedef struct sm_host_case {
  const char *what;
  size_t rows, cols, in_ld, out_ld;
  ocf_dtype in_dtype, out_dtype;
  float scale;
  int log, with_lengths;
  size_t lengths_offset;
  int layout; /* 0: separate arrays; 1: in place; 2: out interleaved after in (same array) */
} sm_host_case;

/* Runs one softmax case on the host form and on the device form over the same bytes, and
   requires the same bytes back. */
static void run_softmax_case(const ocft_env *env, ocf_context *ctx, const sm_host_case *t) {
  const size_t in_size = ocf_dtype_size(t->in_dtype), out_size = ocf_dtype_size(t->out_dtype);
  const size_t in_extent = t->rows ? (t->rows - 1) * t->in_ld + t->cols : 0;
  const size_t out_extent = t->rows ? (t->rows - 1) * t->out_ld + t->cols : 0;
  /* One array holds everything: in at 0, out at out_at (bytes), as the layout says. */
  size_t out_at = t->layout == 1 ? 0 : t->layout == 2 ? t->cols * in_size : in_extent * in_size;
  const size_t bytes =
      (out_at + out_extent * out_size > in_extent * in_size ? out_at + out_extent * out_size
                                                            : in_extent * in_size) +
      8;
  unsigned char *host = alloc_bytes(bytes), *expect = alloc_bytes(bytes);
  fill_typed(OCF_F16, host, bytes / 2, 77 + t->rows * 131 + t->cols);
  fill_typed(t->in_dtype, host, in_extent, 5 + t->rows + t->cols);
  cl_uint *lengths = NULL;
  if (t->with_lengths) {
    lengths = malloc((t->lengths_offset + t->rows + 1) * sizeof *lengths);
    assert_non_null(lengths);
    for (size_t r = 0; r < t->lengths_offset + t->rows + 1; r++)
      lengths[r] = (cl_uint)((r * 7 + 3) % (t->cols + 1));
  }
  ocf_softmax_options options = OCF_SOFTMAX_OPTIONS_INIT;
  options.in_dtype = t->in_dtype, options.out_dtype = t->out_dtype;
  options.scale = t->scale, options.log = t->log;
  options.lengths_offset = t->with_lengths ? t->lengths_offset : 0;

  /* The device form on a copy of the same bytes. */
  cl_mem buffer = device_copy(env, host, bytes), lengths_buffer = NULL;
  if (lengths) {
    lengths_buffer = device_copy(env, lengths, (t->lengths_offset + t->rows + 1) * sizeof *lengths);
    options.lengths = lengths_buffer;
  }
  assert_int_equal(out_at % out_size, 0);
  if (t->layout == 0) {
    /* Separate arrays: separate buffers, each from offset 0 as the host form has them (an
       offset changes the plan, and with it the rounding). */
    cl_mem out_buffer = device_copy(env, host + out_at, bytes - out_at);
    ocft_assert_status(ocf_softmax_ex(ctx, t->rows, t->cols, buffer, 0, t->in_ld, out_buffer, 0,
                                      t->out_ld, &options, NULL),
                       OCF_SUCCESS);
    memcpy(expect, host, out_at);
    device_read(ctx, out_buffer, expect + out_at, bytes - out_at);
    clReleaseMemObject(out_buffer);
  } else {
    ocft_assert_status(ocf_softmax_ex(ctx, t->rows, t->cols, buffer, 0, t->in_ld, buffer,
                                      out_at / out_size, t->out_ld, &options, NULL),
                       OCF_SUCCESS);
    device_read(ctx, buffer, expect, bytes);
  }
  options.lengths = NULL;
  ocf_status status = ocf_softmax_host_ex(ctx, t->rows, t->cols, host, t->in_ld, host + out_at,
                                          t->out_ld, lengths, &options);
  if (status != OCF_SUCCESS || memcmp(host, expect, bytes) != 0) {
    fprintf(stderr, "softmax host form, %s: %s (%s), %s the device form's bytes\n", t->what,
            ocf_status_name(status), ocf_last_error(),
            memcmp(host, expect, bytes) ? "differs from" : "equals");
    fail();
  }
  if (lengths_buffer) clReleaseMemObject(lengths_buffer);
  clReleaseMemObject(buffer);
  free(lengths);
  free(expect);
  free(host);
}

static const sm_host_case softmax_cases[] = {
    {"f32, one row", 1, 37, 37, 37, OCF_F32, OCF_F32, 1.0f, 0, 0, 0, 0},
    {"f32, gaps between out's rows", 7, 50, 50, 61, OCF_F32, OCF_F32, 1.0f, 0, 0, 0, 0},
    {"f16 -> f16, scale, strides", 9, 33, 40, 35, OCF_F16, OCF_F16, 0.125f, 0, 0, 0, 0},
    {"bf16 -> f32, log", 5, 300, 301, 300, OCF_BF16, OCF_F32, 1.0f, 1, 0, 0, 0},
    {"f32 -> bf16, lengths at an offset", 12, 64, 64, 70, OCF_F32, OCF_BF16, 2.0f, 0, 1, 3, 0},
    {"f16 -> f32, log, lengths", 6, 17, 17, 17, OCF_F16, OCF_F32, 0.5f, 1, 1, 0, 0},
    {"f32 in place", 8, 100, 128, 128, OCF_F32, OCF_F32, 1.0f, 0, 0, 0, 1},
    {"bf16 in place, lengths", 4, 30, 30, 30, OCF_BF16, OCF_BF16, 1.0f, 1, 1, 1, 1},
    {"f32, out interleaved with in", 6, 8, 16, 16, OCF_F32, OCF_F32, 1.0f, 0, 0, 0, 2},
    {"long rows", 2, 5000, 5000, 5000, OCF_F32, OCF_F16, 1.0f, 0, 0, 0, 0},
    {"no rows", 0, 10, 10, 10, OCF_F32, OCF_F32, 1.0f, 0, 1, 0, 0},
    {"no columns", 3, 0, 0, 0, OCF_F16, OCF_F16, 1.0f, 0, 0, 0, 0},
};

static void test_softmax_host_ex_matches_device_form(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(softmax_cases); i++)
    if (!ocft_small() || softmax_cases[i].cols <= 1000) /* Oclgrind: no long rows */
      run_softmax_case(env, env->ctx, &softmax_cases[i]);
}

/* A length above cols counts as cols, as in ocf_softmax_ex (whose kernels clamp it): the same
   bits as the clamped lengths, for softmax and log-softmax. */
static void test_softmax_host_ex_lengths_above_cols(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { ROWS = 4, COLS = 24 };
  float in[ROWS * COLS], over[ROWS * COLS], clamped[ROWS * COLS];
  ocft_fill_uniform(in, ROWS * COLS, -4.0f, 4.0f, 12);
  const cl_uint long_lengths[ROWS] = {COLS + 1, 7, UINT32_MAX, COLS};
  const cl_uint cut_lengths[ROWS] = {COLS, 7, COLS, COLS};
  for (int log = 0; log <= 1; log++) {
    ocf_softmax_options options = OCF_SOFTMAX_OPTIONS_INIT;
    options.log = log;
    ocft_assert_status(
        ocf_softmax_host_ex(env->ctx, ROWS, COLS, in, COLS, over, COLS, long_lengths, &options),
        OCF_SUCCESS);
    ocft_assert_status(
        ocf_softmax_host_ex(env->ctx, ROWS, COLS, in, COLS, clamped, COLS, cut_lengths, &options),
        OCF_SUCCESS);
    assert_memory_equal(over, clamped, sizeof over);
  }
}

/* A small fp32 case against a plain CPU softmax: row max, exp, sum in double. The kernels'
   error is a few ulp of each output for rows this short (tests/test_softmax_options.c argues
   24u + 4u|t| per element and u (12 + 4|t| + 9h) for the sum, with |t| <= 8 here and
   h <= 72 levels): 1e-5 relative, with a floor of 1e-7 absolute, is above it. */
static void test_softmax_host_ex_reference(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { ROWS = 3, COLS = 20 };
  float in[ROWS * COLS], out[ROWS * COLS];
  ocft_fill_uniform(in, ROWS * COLS, -4.0f, 4.0f, 11);
  ocf_softmax_options options = OCF_SOFTMAX_OPTIONS_INIT;
  ocft_assert_status(ocf_softmax_host_ex(env->ctx, ROWS, COLS, in, COLS, out, COLS, NULL, &options),
                     OCF_SUCCESS);
  for (size_t r = 0; r < ROWS; r++) {
    double max = -INFINITY, sum = 0.0;
    for (size_t c = 0; c < COLS; c++)
      max = fmax(max, in[r * COLS + c]);
    for (size_t c = 0; c < COLS; c++)
      sum += exp(in[r * COLS + c] - max);
    for (size_t c = 0; c < COLS; c++) {
      const double want = exp(in[r * COLS + c] - max) / sum;
      assert_true(fabs(out[r * COLS + c] - want) <= 1e-5 * want + 1e-7);
    }
  }
}

typedef struct mm_host_case {
  const char *what;
  ocf_transpose ta, tb;
  size_t m, n, k, lda, ldb, ldc;
  float alpha, beta;
  ocf_dtype a_dtype, b_dtype, c_dtype;
  ocf_precision precision;
  ocf_layout layout;
  size_t batch, stride_a, stride_b, stride_c;
  ocf_activation activation;
  ocf_bias_axis bias_axis;
  size_t bias_offset;
  ocf_dtype bias_dtype;
} mm_host_case;

static size_t mm_span(size_t rows, size_t cols, size_t ld, size_t stride, size_t batch) {
  if (!rows || !cols) return 0;
  return (batch > 1 ? (batch - 1) * stride : 0) + (rows - 1) * ld + cols;
}

static void run_matmul_case(const ocft_env *env, ocf_context *ctx, const mm_host_case *t) {
  const size_t batch = t->batch ? t->batch : 1;
  const int cm = t->layout == OCF_COL_MAJOR;
  size_t ar = t->ta ? t->k : t->m, ac = t->ta ? t->m : t->k;
  size_t br = t->tb ? t->n : t->k, bc = t->tb ? t->k : t->n;
  size_t cr = t->m, cc = t->n;
  const size_t a_span = cm ? mm_span(ac, ar, t->lda, t->stride_a, batch)
                           : mm_span(ar, ac, t->lda, t->stride_a, batch);
  const size_t b_span = cm ? mm_span(bc, br, t->ldb, t->stride_b, batch)
                           : mm_span(br, bc, t->ldb, t->stride_b, batch);
  const size_t c_span = cm ? mm_span(cc, cr, t->ldc, t->stride_c, batch)
                           : mm_span(cr, cc, t->ldc, t->stride_c, batch);
  const size_t bias_span =
      t->bias_axis ? t->bias_offset + (t->bias_axis == OCF_BIAS_N ? t->n : t->m) : 0;
  const size_t a_bytes = a_span * ocf_dtype_size(t->a_dtype);
  const size_t b_bytes = b_span * ocf_dtype_size(t->b_dtype);
  const size_t c_bytes = c_span * ocf_dtype_size(t->c_dtype);
  const size_t bias_bytes = bias_span * ocf_dtype_size(t->bias_dtype);
  unsigned char *a = alloc_bytes(a_bytes), *b = alloc_bytes(b_bytes), *c = alloc_bytes(c_bytes);
  unsigned char *expect = alloc_bytes(c_bytes), *bias = alloc_bytes(bias_bytes);
  fill_typed(t->a_dtype, a, a_span, 1 + t->m);
  fill_typed(t->b_dtype, b, b_span, 2 + t->n);
  fill_typed(t->c_dtype, c, c_span, 3 + t->k);
  fill_typed(t->bias_dtype, bias, bias_span, 4);

  ocf_matmul_options options = OCF_MATMUL_OPTIONS_INIT;
  options.a_dtype = t->a_dtype, options.b_dtype = t->b_dtype, options.c_dtype = t->c_dtype;
  options.precision = t->precision, options.layout = t->layout;
  options.batch = t->batch, options.stride_a = t->stride_a, options.stride_b = t->stride_b;
  options.stride_c = t->stride_c, options.activation = t->activation;
  options.bias_axis = t->bias_axis, options.bias_offset = t->bias_offset;
  options.bias_dtype = t->bias_dtype;

  cl_mem ab = device_copy(env, a, a_bytes), bb = device_copy(env, b, b_bytes);
  cl_mem cb = device_copy(env, c, c_bytes), biasb = device_copy(env, bias, bias_bytes);
  options.bias = t->bias_axis ? biasb : NULL;
  ocft_assert_status(ocf_matmul_ex(ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha, ab, 0, t->lda, bb,
                                   0, t->ldb, t->beta, cb, 0, t->ldc, &options, NULL),
                     OCF_SUCCESS);
  device_read(ctx, cb, expect, c_bytes);
  char plan[512];
  snprintf(plan, sizeof plan, "%s", ocf_last_plan());
  options.bias = NULL;
  ocf_status status =
      ocf_matmul_host_ex(ctx, t->ta, t->tb, t->m, t->n, t->k, t->alpha, a, t->lda, b, t->ldb,
                         t->beta, c, t->ldc, t->bias_axis ? bias : NULL, &options);
  if (status != OCF_SUCCESS || memcmp(c, expect, c_bytes) != 0) {
    for (size_t i = 0, shown = 0; i < c_bytes && shown < 8; i++)
      if (c[i] != expect[i])
        fprintf(stderr, "  byte %zu: 0x%02x, device form 0x%02x\n", i, c[i], expect[i]), shown++;
    fprintf(stderr, "  device form: %s\n  host form: %s\n", plan, ocf_last_plan());
    fprintf(stderr, "matmul host form, %s: %s (%s), %s the device form's bytes\n", t->what,
            ocf_status_name(status), ocf_last_error(),
            memcmp(c, expect, c_bytes) ? "differs from" : "equals");
    fail();
  }
  clReleaseMemObject(biasb);
  clReleaseMemObject(cb);
  clReleaseMemObject(bb);
  clReleaseMemObject(ab);
  free(bias);
  free(expect);
  free(c);
  free(b);
  free(a);
}

#define F32 OCF_F32
#define F16 OCF_F16
#define BF16 OCF_BF16
#define NT OCF_NO_TRANS
#define TR OCF_TRANS
#define RM OCF_ROW_MAJOR
#define CM OCF_COL_MAJOR
/* Designated fields: what a case leaves out is 0 (fp32 everywhere, no transpose, row-major,
   FP32 precision, no activation or bias, one product). */
static const mm_host_case matmul_cases[] = {
    {.what = "f32 plain",
     .m = 17,
     .n = 19,
     .k = 23,
     .lda = 23,
     .ldb = 19,
     .ldc = 19,
     .alpha = 1.0f},
    {.what = "f32 transposes, beta, gaps",
     .ta = OCF_TRANS,
     .tb = OCF_TRANS,
     .m = 13,
     .n = 11,
     .k = 9,
     .lda = 15,
     .ldb = 12,
     .ldc = 14,
     .alpha = 0.5f,
     .beta = -1.5f},
    {.what = "f16 x bf16 -> f16, tf32",
     .tb = OCF_TRANS,
     .m = 33,
     .n = 40,
     .k = 31,
     .lda = 31,
     .ldb = 31,
     .ldc = 40,
     .alpha = 1.0f,
     .a_dtype = OCF_F16,
     .b_dtype = OCF_BF16,
     .c_dtype = OCF_F16,
     .precision = OCF_PRECISION_TF32},
    {.what = "batch, shared B, bias along n, relu",
     .m = 8,
     .n = 12,
     .k = 16,
     .lda = 16,
     .ldb = 12,
     .ldc = 12,
     .alpha = 1.0f,
     .batch = 3,
     .stride_a = 8 * 16 + 5,
     .stride_c = 8 * 12,
     .activation = OCF_ACTIVATION_RELU,
     .bias_axis = OCF_BIAS_N,
     .bias_offset = 2},
    {.what = "batch, interleaved C, bias along m (f16), gelu",
     .ta = OCF_TRANS,
     .m = 5,
     .n = 6,
     .k = 7,
     .lda = 5,
     .ldb = 6,
     .ldc = 18,
     .alpha = 2.0f,
     .beta = 1.0f,
     .a_dtype = OCF_BF16,
     .c_dtype = OCF_BF16,
     .batch = 3,
     .stride_a = 35,
     .stride_b = 42,
     .stride_c = 6,
     .activation = OCF_ACTIVATION_GELU_ERF,
     .bias_axis = OCF_BIAS_M,
     .bias_dtype = OCF_F16},
    {.what = "column-major, 3xtf32, silu",
     .tb = OCF_TRANS,
     .m = 10,
     .n = 7,
     .k = 5,
     .lda = 12,
     .ldb = 9,
     .ldc = 11,
     .alpha = 1.0f,
     .beta = 0.25f,
     .precision = OCF_PRECISION_3XTF32,
     .layout = OCF_COL_MAJOR,
     .activation = OCF_ACTIVATION_SILU,
     .bias_axis = OCF_BIAS_N,
     .bias_offset = 1},
    {.what = "column-major batch, gelu tanh",
     .ta = OCF_TRANS,
     .m = 6,
     .n = 4,
     .k = 3,
     .lda = 3,
     .ldb = 3,
     .ldc = 6,
     .alpha = 1.0f,
     .a_dtype = OCF_F16,
     .b_dtype = OCF_F16,
     .layout = OCF_COL_MAJOR,
     .batch = 2,
     .stride_a = 20,
     .stride_b = 14,
     .stride_c = 30,
     .activation = OCF_ACTIVATION_GELU_TANH,
     .bias_axis = OCF_BIAS_M,
     .bias_dtype = OCF_BF16},
    {.what = "skinny: one row",
     .m = 1,
     .n = 300,
     .k = 64,
     .lda = 64,
     .ldb = 300,
     .ldc = 300,
     .alpha = 1.0f},
    {.what = "k = 0: beta C + bias",
     .m = 4,
     .n = 5,
     .lda = 1,
     .ldb = 5,
     .ldc = 5,
     .alpha = 1.0f,
     .beta = 2.0f,
     .bias_axis = OCF_BIAS_N},
    {.what = "m = 0", .n = 5, .k = 3, .lda = 3, .ldb = 5, .ldc = 5, .alpha = 1.0f},
};

static void test_matmul_host_ex_matches_device_form(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(matmul_cases); i++)
    run_matmul_case(env, env->ctx, &matmul_cases[i]);
}

/* An fp32 case with bias and relu against a CPU loop in double: each element is one fp32 dot
   product of k = 24 terms in [-2, 2) (|sum| <= 96) summed in order, so its error is at most
   k u sum |a b| <= 24 * 2^-24 * 96, about 1.4e-4, plus the bias addition's rounding (u of
   |result| <= 100: 6e-6): 2e-4 absolute is above it. */
static void test_matmul_host_ex_reference(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { M = 7, N = 9, K = 24 };
  float a[M * K], b[K * N], c[M * N], bias[N];
  ocft_fill_uniform(a, M * K, -2.0f, 2.0f, 21);
  ocft_fill_uniform(b, K * N, -2.0f, 2.0f, 22);
  ocft_fill_uniform(bias, N, -2.0f, 2.0f, 23);
  ocf_matmul_options options = OCF_MATMUL_OPTIONS_INIT;
  options.bias_axis = OCF_BIAS_N;
  options.activation = OCF_ACTIVATION_RELU;
  ocft_assert_status(
      ocf_matmul_host_ex(env->ctx, NT, NT, M, N, K, 1.0f, a, K, b, N, 0.0f, c, N, bias, &options),
      OCF_SUCCESS);
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      double sum = bias[j];
      for (size_t p = 0; p < K; p++)
        sum += (double)a[i * K + p] * b[p * N + j];
      assert_true(fabs(c[i * N + j] - fmax(sum, 0.0)) <= 2e-4);
    }
}

/* Both forms on an out-of-order queue (where the device has one): the read-back must wait for
   the kernels, not for the queue's order. */
static void test_host_ex_out_of_order_queue(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_command_queue_properties properties = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_QUEUE_PROPERTIES, sizeof properties, &properties, NULL);
  if (!(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) skip();
  cl_int err = CL_SUCCESS;
  cl_command_queue queue =
      clCreateCommandQueue(env->cl, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  assert_int_equal(err, CL_SUCCESS);
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, queue, &ctx), OCF_SUCCESS);
  for (int repeat = 0; repeat < (ocft_small() ? 1 : 3); repeat++) {
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(softmax_cases); i++)
      if (!ocft_small() || softmax_cases[i].cols <= 1000)
        run_softmax_case(env, ctx, &softmax_cases[i]);
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(matmul_cases); i++)
      run_matmul_case(env, ctx, &matmul_cases[i]);
  }
  ocf_context_release(ctx);
  clReleaseCommandQueue(queue);
}

/* ---- refusals: each before anything is enqueued, the output untouched ---- */

static int refusal_failures;

static void expect_refusal(const char *what, ocf_status status, ocf_status expected,
                           const float *out, const float *before, size_t count) {
  if (status != expected || memcmp(out, before, count * sizeof *out) != 0) {
    fprintf(stderr, "refusal '%s': %s, expected %s (%s)%s\n", what, ocf_status_name(status),
            ocf_status_name(expected), ocf_last_error(),
            memcmp(out, before, count * sizeof *out) ? "; the output changed" : "");
    refusal_failures++;
  }
}

static void test_host_ex_refusals(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = env->ctx;
  enum { COUNT = 4096 };
  float *data = ocft_alloc_floats(COUNT), *out = ocft_alloc_floats(COUNT);
  float *before = ocft_alloc_floats(COUNT);
  ocft_fill_uniform(data, COUNT, -1.0f, 1.0f, 31);
  ocft_fill_uniform(out, COUNT, -1.0f, 1.0f, 32);
  memcpy(before, out, COUNT * sizeof *out);
  cl_uint lengths[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  cl_mem some_buffer = ocft_buffer(env, 16, NULL);
  refusal_failures = 0;
#define SM(what, expected, c, rows, cols, in, in_ld, o, out_ld, len, opt)                  \
  expect_refusal(what, ocf_softmax_host_ex(c, rows, cols, in, in_ld, o, out_ld, len, opt), \
                 expected, out, before, COUNT)
  ocf_softmax_options good = OCF_SOFTMAX_OPTIONS_INIT, bad = good;
  SM("softmax: ctx NULL", OCF_ERR_NULL_ARGUMENT, NULL, 4, 8, data, 8, out, 8, NULL, NULL);
  SM("softmax: in NULL", OCF_ERR_NULL_ARGUMENT, ctx, 4, 8, NULL, 8, out, 8, NULL, &good);
  SM("softmax: out NULL", OCF_ERR_NULL_ARGUMENT, ctx, 4, 8, data, 8, NULL, 8, NULL, &good);
  SM("softmax: short in stride", OCF_ERR_INVALID_STRIDE, ctx, 4, 8, data, 7, out, 8, NULL, &good);
  SM("softmax: short out stride", OCF_ERR_INVALID_STRIDE, ctx, 4, 8, data, 8, out, 7, NULL, &good);
  SM("softmax: overflowing extent", OCF_ERR_SIZE_OVERFLOW, ctx, SIZE_MAX / 2, 8, data, 8, out, 8,
     NULL, &good);
  bad = good, bad.size = 0;
  SM("softmax: options size 0", OCF_ERR_INVALID_STRUCT, ctx, 4, 8, data, 8, out, 8, NULL, &bad);
  bad = good, bad.lengths = some_buffer;
  SM("softmax: lengths as a cl_mem", OCF_ERR_INVALID_VALUE, ctx, 4, 8, data, 8, out, 8, lengths,
     &bad);
  bad = good, bad.in_dtype = (ocf_dtype)7;
  SM("softmax: unknown in dtype", OCF_ERR_INVALID_VALUE, ctx, 4, 8, data, 8, out, 8, NULL, &bad);
  bad = good, bad.out_dtype = (ocf_dtype)-1;
  SM("softmax: unknown out dtype", OCF_ERR_INVALID_VALUE, ctx, 4, 8, data, 8, out, 8, NULL, &bad);
  bad = good, bad.scale = 0.0f;
  SM("softmax: scale 0", OCF_ERR_INVALID_VALUE, ctx, 4, 8, data, 8, out, 8, NULL, &bad);
  bad = good, bad.scale = INFINITY;
  SM("softmax: scale inf", OCF_ERR_INVALID_VALUE, ctx, 4, 8, data, 8, out, 8, NULL, &bad);
  bad = good, bad.lengths_offset = 2;
  SM("softmax: lengths_offset without lengths", OCF_ERR_NULL_ARGUMENT, ctx, 4, 8, data, 8, out, 8,
     NULL, &bad);
  bad = good, bad.lengths_offset = SIZE_MAX - 1;
  SM("softmax: lengths_offset overflows", OCF_ERR_SIZE_OVERFLOW, ctx, 4, 8, data, 8, out, 8,
     lengths, &bad);
  SM("softmax: in overlaps out partly", OCF_ERR_ALIASING, ctx, 4, 8, out + 3, 8, out, 8, NULL,
     &good);
  SM("softmax: in place with another stride", OCF_ERR_ALIASING, ctx, 4, 8, out, 8, out, 9, NULL,
     &good);
  SM("softmax: a distance of half an element", OCF_ERR_ALIASING, ctx, 4, 8,
     (const unsigned char *)out + 2, 8, out, 8, NULL, &good);
#undef SM

  float *a = data, *b = data + 1024, *bias = data + 2048;
#define MM(what, expected, c, ta, tb, m, n, k, aa, lda, bb, ldb, cc, ldc, bs, opt)            \
  expect_refusal(                                                                             \
      what,                                                                                   \
      ocf_matmul_host_ex(c, ta, tb, m, n, k, 1.0f, aa, lda, bb, ldb, 0.5f, cc, ldc, bs, opt), \
      expected, out, before, COUNT)
  ocf_matmul_options mgood = OCF_MATMUL_OPTIONS_INIT, mbad = mgood;
  MM("matmul: ctx NULL", OCF_ERR_NULL_ARGUMENT, NULL, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4, NULL,
     NULL);
  MM("matmul: a NULL", OCF_ERR_NULL_ARGUMENT, ctx, NT, NT, 4, 4, 4, NULL, 4, b, 4, out, 4, NULL,
     &mgood);
  MM("matmul: b NULL", OCF_ERR_NULL_ARGUMENT, ctx, NT, NT, 4, 4, 4, a, 4, NULL, 4, out, 4, NULL,
     &mgood);
  MM("matmul: c NULL", OCF_ERR_NULL_ARGUMENT, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, NULL, 4, NULL,
     &mgood);
  MM("matmul: bad transpose", OCF_ERR_INVALID_VALUE, ctx, (ocf_transpose)2, NT, 4, 4, 4, a, 4, b, 4,
     out, 4, NULL, &mgood);
  MM("matmul: short lda", OCF_ERR_INVALID_STRIDE, ctx, NT, NT, 4, 4, 5, a, 4, b, 4, out, 4, NULL,
     &mgood);
  MM("matmul: short ldc", OCF_ERR_INVALID_STRIDE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 3, NULL,
     &mgood);
  MM("matmul: C overlaps A", OCF_ERR_ALIASING, ctx, NT, NT, 4, 4, 4, out + 8, 4, b, 4, out, 4, NULL,
     &mgood);
  MM("matmul: C overlaps B", OCF_ERR_ALIASING, ctx, NT, NT, 4, 4, 4, a, 4, out + 15, 4, out, 4,
     NULL, &mgood);
  mbad = mgood, mbad.bias_axis = OCF_BIAS_N;
  MM("matmul: C overlaps the bias", OCF_ERR_ALIASING, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     out + 2, &mbad);
  MM("matmul: bias axis without bias", OCF_ERR_NULL_ARGUMENT, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out,
     4, NULL, &mbad);
  MM("matmul: bias without axis", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     bias, &mgood);
  mbad = mgood, mbad.bias_axis = OCF_BIAS_M, mbad.bias = some_buffer;
  MM("matmul: bias as a cl_mem", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     bias, &mbad);
  mbad = mgood, mbad.size = 3;
  MM("matmul: options size 3", OCF_ERR_INVALID_STRUCT, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     NULL, &mbad);
  mbad = mgood, mbad.c_dtype = (ocf_dtype)3;
  MM("matmul: unknown C dtype", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     NULL, &mbad);
  mbad = mgood, mbad.precision = (ocf_precision)3;
  MM("matmul: unknown precision", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     NULL, &mbad);
  mbad = mgood, mbad.layout = (ocf_layout)2;
  MM("matmul: unknown layout", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     NULL, &mbad);
  mbad = mgood, mbad.activation = (ocf_activation)5;
  MM("matmul: unknown activation", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     NULL, &mbad);
  mbad = mgood, mbad.bias_axis = (ocf_bias_axis)3;
  MM("matmul: unknown bias axis", OCF_ERR_INVALID_VALUE, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out, 4,
     bias, &mbad);
  mbad = mgood, mbad.batch = 3, mbad.stride_c = 0, mbad.stride_a = 16, mbad.stride_b = 16;
  MM("matmul: every C of the batch the same", OCF_ERR_ALIASING, ctx, NT, NT, 4, 4, 4, a, 4, b, 4,
     out, 4, NULL, &mbad);
  mbad = mgood, mbad.batch = SIZE_MAX / 8, mbad.stride_a = 16;
  MM("matmul: batch span overflows", OCF_ERR_SIZE_OVERFLOW, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out,
     4, NULL, &mbad);
  mbad = mgood, mbad.bias_axis = OCF_BIAS_N, mbad.bias_offset = SIZE_MAX - 1;
  MM("matmul: bias offset overflows", OCF_ERR_SIZE_OVERFLOW, ctx, NT, NT, 4, 4, 4, a, 4, b, 4, out,
     4, bias, &mbad);
  mbad = mgood, mbad.bias_axis = OCF_BIAS_N;
  MM("matmul: a bias of SIZE_MAX / 2 values", OCF_ERR_SIZE_OVERFLOW, ctx, NT, NT, 0, SIZE_MAX / 2,
     0, a, 1, b, SIZE_MAX / 2, out, SIZE_MAX / 2, bias, &mbad);
#undef MM
  clReleaseMemObject(some_buffer);
  free(before);
  free(out);
  free(data);
  if (refusal_failures) fail_msg("%d refusal rows failed", refusal_failures);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_convert_widen_every_pattern),
      cmocka_unit_test(test_convert_narrow_edges_and_random),
      cmocka_unit_test(test_convert_documented_values),
      cmocka_unit_test(test_convert_in_place_and_refusals),
      cmocka_unit_test(test_convert_matches_device),
      cmocka_unit_test(test_softmax_host_ex_matches_device_form),
      cmocka_unit_test(test_softmax_host_ex_reference),
      cmocka_unit_test(test_softmax_host_ex_lengths_above_cols),
      cmocka_unit_test(test_matmul_host_ex_matches_device_form),
      cmocka_unit_test(test_matmul_host_ex_reference),
      cmocka_unit_test(test_host_ex_out_of_order_queue),
      cmocka_unit_test(test_host_ex_refusals),
  };
  return cmocka_run_group_tests_name("host_forms", tests, ocft_group_setup, ocft_group_teardown);
}
