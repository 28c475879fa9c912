/*
 * The staging kernel of matmul's staged wgmma plans (cl/matmul_stage.cl, portable OpenCL C) on
 * the default device, launched alone through a plan of its own, against a CPU reference bit for
 * bit: every staged float is the reference's (harness/reference_gemm.c: ocf_ref_tf32 for TF32,
 * ocf_ref_tf32_rna and ocf_ref_tf32_small for the 3XTF32 split, the same functions the suites'
 * GEMM reference rounds with), the zeros past K' written, nothing past the staged rows touched.
 * Coverage: PARTS 1 and 3, A staged or not, A and B each transposed or not, offsets, leading
 * dimensions and batch strides of any value (no alignment), ragged m, n, k (1 to past two
 * 32-tiles, tiles spanning A's and B's rows and products), special values (NaN, infinities,
 * values whose split rounds up, denormals). The plans that run it are the H200's
 * (test_matmul_staged); this suite runs everywhere, Oclgrind included.
 */
#include "reference_gemm.h"
#include "storage16.h"
#include "test_common.h"

#include "kernels/kernels.h"
#include "plan/plan.h"
#include "runtime/launch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pattern value for the scratch past the staged rows: must survive. */
#define GUARD 12345.0f

typedef struct stage_case {
  int parts, stage_a, ta, tb;
  size_t m, n, k, batch;
  size_t a_off, lda, stride_a, b_off, ldb, stride_b;
} stage_case;

/* A value of element `i` of an input: mostly uniform in [-2, 2), some special. */
static float input_value(size_t i, uint64_t *seed) {
  *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
  const uint32_t r = (uint32_t)(*seed >> 33);
  static const uint32_t special[] = {0x7fc00000u, 0x7f800000u, 0xff800000u, 0x3f801000u,
                                     0x3f800fffu, 0x00000001u, 0x807fffffu, 0x7f7fffffu,
                                     0xbf9fffffu, 0x00000000u, 0x80000000u, 0x7f801234u};
  if (i % 37 == 5)
    return ocf_ref_float_of(special[(i / 37) % (sizeof special / sizeof special[0])]);
  return (float)((double)r / 2147483648.0 * 4.0 - 2.0);
}

/* The reference of staged element p of a row whose source element is x (segment `seg`). */
static float staged_ref(float x, int parts, int is_b, int seg) {
  if (parts == 1) return ocf_ref_tf32(x);
  const float big = ocf_ref_tf32_rna(x), small = ocf_ref_tf32_small(x, big);
  if (seg == 2) return big;
  return (seg == 0) == (is_b != 0) ? big : small;
}

/* Launches matmul_stage alone over the case's operands (STAGE_DTYPE dtype) into rows of ld
   elements of ob; 0 where the device refused its workgroup (the test is then skipped). */
static int launch_stage(const ocft_env *env, const stage_case *c, int dtype, cl_mem ab, cl_mem bb,
                        cl_mem ob, size_t ld) {
  const size_t rows = (c->stage_a ? c->batch * c->m : 0) + c->batch * c->n;
  ocf_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.program = OCF_PROGRAM_MATMUL_STAGE;
  ocf_plan_define(&plan, "STAGE_TRANS_A", c->ta);
  ocf_plan_define(&plan, "STAGE_TRANS_B", c->tb);
  ocf_plan_define(&plan, "STAGE_A", c->stage_a);
  ocf_plan_define(&plan, "PARTS", c->parts);
  ocf_plan_define(&plan, "STAGE_DTYPE", dtype);
  const size_t local[2] = {32, 8};
  const size_t global[2] = {(c->k + 31) / 32 * 32, (rows + 31) / 32 * 8};
  ocf_plan_step_add(&plan, OCF_KERNEL_MATMUL_STAGE, 2, global, local);
  ocf_matmul_frame f;
  memset(&f, 0, sizeof f);
  f.m = c->m, f.n = c->n, f.k = c->k, f.batch = c->batch;
  f.a = ab, f.a_off = c->a_off, f.lda = c->lda, f.stride_a = c->stride_a;
  f.b = bb, f.b_off = c->b_off, f.ldb = c->ldb, f.stride_b = c->stride_b;
  f.partial = ob, f.lds = ld;
  ocf_launch launch = OCF_LAUNCH_INIT;
  int replan = 0;
  const ocf_status status =
      ocf_launch_plan(env->ctx, env->queue, &plan, &f, NULL, &launch, &replan);
  if (ocft_refused_by_kernel_limit(status, local[0] * local[1])) {
    /* The kernel's 32 x 8 workgroup is more than this device allows it (rusticl: 32): the
       planner never stages there (plan_matmul_wgmma.c), and the launch refused it cleanly. */
    printf("skipped: %s\n", ocf_last_error());
    return 0;
  }
  ocft_assert_status(status, OCF_SUCCESS);
  return 1;
}

/* The lengths in elements of the case's A and B as stored. */
static void operand_lengths(const stage_case *c, size_t *a_len, size_t *b_len) {
  const size_t a_rows = c->ta ? c->k : c->m, a_cols = c->ta ? c->m : c->k;
  const size_t b_rows = c->tb ? c->n : c->k, b_cols = c->tb ? c->k : c->n;
  *a_len = c->a_off + (c->batch - 1) * c->stride_a + (a_rows - 1) * c->lda + a_cols;
  *b_len = c->b_off + (c->batch - 1) * c->stride_b + (b_rows - 1) * c->ldb + b_cols;
}

/* Element p of staged row r's source: its index in A or B (is_b set for B). */
static size_t source_index(const stage_case *c, size_t r, size_t p, int *is_b) {
  const size_t rows_a = c->stage_a ? c->batch * c->m : 0;
  *is_b = r >= rows_a;
  const size_t q = *is_b ? (r - rows_a) / c->n : r / c->m;
  const size_t i = *is_b ? (r - rows_a) % c->n : r % c->m;
  return *is_b ? c->b_off + q * c->stride_b + (c->tb ? i * c->ldb + p : p * c->ldb + i)
               : c->a_off + q * c->stride_a + (c->ta ? p * c->lda + i : i * c->lda + p);
}

static void run_case(const ocft_env *env, const stage_case *c) {
  const size_t rows_a = c->stage_a ? c->batch * c->m : 0, rows = rows_a + c->batch * c->n;
  const size_t kk = (size_t)c->parts * c->k, ld = (kk + 3) / 4 * 4;
  size_t a_len, b_len;
  operand_lengths(c, &a_len, &b_len);
  const size_t out_len = rows * ld + 64;
  float *a = ocft_alloc_floats(a_len), *b = ocft_alloc_floats(b_len);
  float *out = ocft_alloc_floats(out_len);
  uint64_t seed = 0x243f6a8885a308d3ull + c->m * 131 + c->k;
  for (size_t i = 0; i < a_len; i++)
    a[i] = input_value(i, &seed);
  for (size_t i = 0; i < b_len; i++)
    b[i] = input_value(i + 11, &seed);
  for (size_t i = 0; i < out_len; i++)
    out[i] = GUARD;
  cl_mem ab = ocft_buffer(env, a_len, a), bb = ocft_buffer(env, b_len, b),
         ob = ocft_buffer(env, out_len, out);
  if (!launch_stage(env, c, 0, ab, bb, ob, ld)) {
    clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(ob);
    free(a), free(b), free(out);
    skip();
  }
  ocft_read(env, ob, out_len, out);

  size_t bad = 0;
  for (size_t r = 0; r < rows; r++) {
    for (size_t col = 0; col < ld; col++) {
      float want = 0.0f;
      if (col < kk) {
        int is_b;
        const size_t at = source_index(c, r, col % c->k, &is_b);
        want = staged_ref(is_b ? b[at] : a[at], c->parts, is_b, (int)(col / c->k));
      }
      const float got = out[r * ld + col];
      const int same = isnan(want) ? isnan(got) : ocf_ref_bits_of(got) == ocf_ref_bits_of(want);
      if (!same && bad++ < 5)
        print_error("parts %d stage_a %d ta %d tb %d %zu x %zu x %zu batch %zu: row %zu col %zu "
                    "is 0x%08x, want 0x%08x\n",
                    c->parts, c->stage_a, c->ta, c->tb, c->m, c->n, c->k, c->batch, r, col,
                    (unsigned)ocf_ref_bits_of(got), (unsigned)ocf_ref_bits_of(want));
    }
  }
  for (size_t i = rows * ld; i < out_len; i++)
    if (out[i] != GUARD && bad++ < 5) print_error("scratch float %zu past the rows written\n", i);
  if (bad) fail();
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(ob);
  free(a), free(b), free(out);
}

/* A pattern for the 16-bit scratch past the staged rows: must survive. */
#define GUARD16 0xabcdu

/* 16-bit operands (STAGE_DTYPE 1 or 2: bits copied, whatever they encode, NaNs too) into rows of
   K rounded up to 64 values, the zeros past K written, nothing past the rows. */
static void run_case16(const ocft_env *env, const stage_case *c, int dtype) {
  const size_t rows = (c->stage_a ? c->batch * c->m : 0) + c->batch * c->n;
  const size_t ld = (c->k + 63) / 64 * 64;
  size_t a_len, b_len;
  operand_lengths(c, &a_len, &b_len);
  const size_t out_len = rows * ld + 64;
  /* held in floats (two values each) for the harness's buffers; read through uint16_t */
  float *af = ocft_alloc_floats(a_len / 2 + 1), *bf = ocft_alloc_floats(b_len / 2 + 1);
  float *of = ocft_alloc_floats(out_len / 2 + 1);
  uint16_t *a = (uint16_t *)(void *)af, *b = (uint16_t *)(void *)bf, *out = (uint16_t *)(void *)of;
  uint64_t seed = 0x13198a2e03707344ull + c->n * 7 + c->k;
  for (size_t i = 0; i < a_len + b_len; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    if (i < a_len)
      a[i] = (uint16_t)(seed >> 40);
    else
      b[i - a_len] = (uint16_t)(seed >> 40);
  }
  for (size_t i = 0; i < out_len; i++)
    out[i] = GUARD16;
  cl_mem ab = ocft_buffer(env, a_len / 2 + 1, af), bb = ocft_buffer(env, b_len / 2 + 1, bf),
         ob = ocft_buffer(env, out_len / 2 + 1, of);
  if (!launch_stage(env, c, dtype, ab, bb, ob, ld)) {
    clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(ob);
    free(af), free(bf), free(of);
    skip();
  }
  ocft_read(env, ob, out_len / 2 + 1, of);
  size_t bad = 0;
  for (size_t r = 0; r < rows; r++)
    for (size_t col = 0; col < ld; col++) {
      uint16_t want = 0;
      if (col < c->k) {
        int is_b;
        const size_t at = source_index(c, r, col, &is_b);
        want = is_b ? b[at] : a[at];
      }
      if (out[r * ld + col] != want && bad++ < 5)
        print_error("dtype %d stage_a %d ta %d tb %d %zu x %zu x %zu batch %zu: row %zu col %zu "
                    "is 0x%04x, want 0x%04x\n",
                    dtype, c->stage_a, c->ta, c->tb, c->m, c->n, c->k, c->batch, r, col,
                    out[r * ld + col], want);
    }
  for (size_t i = rows * ld; i < out_len; i++)
    if (out[i] != GUARD16 && bad++ < 5) print_error("scratch value %zu past the rows written\n", i);
  if (bad) fail();
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(ob);
  free(af), free(bf), free(of);
}

/* 16-bit staging, f16 and bf16, staged A or not, every transpose pair, on ragged shapes (k
   past one and two rows of 64, a row of exactly 64) with leading dimensions and offsets off
   16-byte chunks and a batch. */
static void test_stage_16bit(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][4] = {
      {1, 1, 1, 1}, {5, 7, 3, 2}, {33, 40, 65, 1}, {31, 17, 130, 3}, {64, 64, 64, 2}};
  const size_t count = ocft_small() ? 3 : sizeof shapes / sizeof shapes[0];
  for (int dtype = 1; dtype <= 2; dtype++)
    for (int stage_a = 0; stage_a < 2; stage_a++)
      for (int t = 0; t < 4; t++)
        for (size_t s = 0; s < count; s++) {
          if (ocft_small() && (dtype == 2) != (s % 2 == 1)) continue;
          stage_case c;
          memset(&c, 0, sizeof c);
          c.parts = 1, c.stage_a = stage_a, c.ta = t & 1, c.tb = t >> 1;
          c.m = shapes[s][0], c.n = shapes[s][1], c.k = shapes[s][2], c.batch = shapes[s][3];
          c.lda = (c.ta ? c.m : c.k) + (s + dtype) % 3;
          c.ldb = (c.tb ? c.k : c.n) + (s + 1) % 5;
          c.a_off = s + 1, c.b_off = 3 * s;
          c.stride_a = (c.ta ? c.k : c.m) * c.lda + s % 2;
          c.stride_b = (c.tb ? c.n : c.k) * c.ldb + 5;
          run_case16(env, &c, dtype);
        }
}

/* Every part count, staged A or not, transpose pair, on ragged shapes with padded leading
   dimensions, odd offsets and a batch. */
static void test_stage_layouts(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][4] = {
      {1, 1, 1, 1}, {5, 7, 3, 2}, {33, 40, 65, 1}, {31, 17, 70, 3}, {64, 64, 32, 2}};
  const size_t count = ocft_small() ? 3 : sizeof shapes / sizeof shapes[0];
  for (int parts = 1; parts <= 3; parts += 2)
    for (int stage_a = 0; stage_a < 2; stage_a++)
      for (int t = 0; t < 4; t++)
        for (size_t s = 0; s < count; s++) {
          stage_case c;
          memset(&c, 0, sizeof c);
          c.parts = parts, c.stage_a = stage_a, c.ta = t & 1, c.tb = t >> 1;
          c.m = shapes[s][0], c.n = shapes[s][1], c.k = shapes[s][2], c.batch = shapes[s][3];
          c.lda = (c.ta ? c.m : c.k) + s % 3;
          c.ldb = (c.tb ? c.k : c.n) + (s + 1) % 3;
          c.a_off = s, c.b_off = 2 * s + 1;
          c.stride_a = (c.ta ? c.k : c.m) * c.lda + s % 2;
          c.stride_b = (c.tb ? c.n : c.k) * c.ldb + 3;
          run_case(env, &c);
        }
}

/* A shared across the batch (stride 0), and B's rows overlapping another product's (a stride
   below the matrix): the kernel reads, it never assumes disjoint inputs. */
static void test_stage_shared_operands(void **state) {
  ocft_env *env = ocft_get_env(state);
  stage_case c;
  memset(&c, 0, sizeof c);
  c.parts = 3, c.stage_a = 1, c.ta = 0, c.tb = 1;
  c.m = 20, c.n = 36, c.k = 45, c.batch = 3;
  c.lda = 45, c.ldb = 47, c.stride_a = 0, c.stride_b = 50;
  run_case(env, &c);
}

/* The shape test_matmul_staged failed on the H200 (2026-12-02): 257 x 300 x 251 NN, 3XTF32,
   lda = k + 1, ldb = n + 2 (tiles across A's last row and B's first ones). */
static void test_stage_h200_case(void **state) {
  ocft_env *env = ocft_get_env(state);
  stage_case c;
  memset(&c, 0, sizeof c);
  c.parts = 3, c.stage_a = 1, c.ta = 0, c.tb = 0;
  c.m = 257, c.n = 300, c.k = 251, c.batch = 1;
  c.lda = 252, c.ldb = 302;
  run_case(env, &c);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stage_layouts),
      cmocka_unit_test(test_stage_shared_operands),
      cmocka_unit_test(test_stage_h200_case),
      cmocka_unit_test(test_stage_16bit),
  };
  return cmocka_run_group_tests_name("matmul_stage", tests, ocft_group_setup, ocft_group_teardown);
}
