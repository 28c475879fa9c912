/*
 * ocf_matmul_ex on Hopper's warpgroup matrix units (cl/matmul_wgmma_nv.cl, wgmma through PTX
 * retargeted to sm_90a): only on an NVIDIA GPU of compute capability 9.0. Elsewhere the suite
 * exits with 77, which ctest reports as skipped (label "nvidia"; never "unit": the kernel cannot
 * run under PoCL, Oclgrind or rusticl, and sm_90a code runs on no other GPU).
 *
 * Every call the planner gives the wgmma kernel (src/plan/plan_matmul_wgmma.c) must have run it
 * (ocf_last_plan names it: a failed probe or a silent fallback fails here), and every call it
 * does not take must have run the mma.sync kernel. Every output element and every untouched
 * element of C is checked against harness/reference_gemm.h with the mode's input rounding and the
 * matrix units' truncating-sum tolerance (as test_matmul_mma), then against the unrounded
 * inputs with the mode's documented bound. Coverage: bf16 and f16 with B stored k x n and n x k,
 * TF32 with B stored n x k; ragged m, n and k (partial 16-byte chunks: k and n not multiples of
 * 8) from 1 x 1 x 1 to several tiles; alpha and beta, C poisoned for beta 0; odd ldc and c_off
 * (scalar stores); aligned offsets and padded leading dimensions; strided batches with A shared;
 * column-major callers; every activation, a bias either way in each type, every C type; the
 * tile and ring tunables; split K (matmul_wgmma_split, matmul_wgmma_reduce) and the last-wave split
 * (matmul_wgmma_lw_split, matmul_wgmma_lw) forced on; the calls
 * that go to mma.sync (misaligned, A transposed, TF32 with B k x n); refusals before anything is
 * enqueued; the TF32 truncation exactly, which the matrix unit does itself (the kernel stages fp32
 * bits untouched), NaNs included: the one documented difference from the library's TF32, a NaN
 * whose payload lies only in the 13 dropped bits read as an infinity, is expected here and only
 * here.
 */
#include "matmul_check.h"

#include "reference_gemm.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exit status ctest reads as "skipped" (SKIP_STATUS in tests/CMakeLists.txt). */
#define SKIP_STATUS 77

static const ocf_dtype inputs[] = {OCF_BF16, OCF_F16, OCF_F32};

/* Pads a leading dimension of `length` elements to a multiple of 16 bytes. */
static size_t pad_to_chunk(size_t length, ocf_dtype dtype) {
  const size_t chunk = dtype == OCF_F32 ? 4 : 8;
  return (chunk - length % chunk) % chunk;
}

/* A row-major case of `dtype` with B stored k x n (tb 0) or n x k, leading dimensions padded to
   whole 16-byte chunks (plus `extra` chunks), fp32 C. */
static mmx_case wg_case(ocf_dtype dtype, int tb, size_t m, size_t n, size_t k, size_t extra) {
  mmx_case t = mmx_plain(m, n, k);
  t.a_dtype = t.b_dtype = dtype;
  t.precision = dtype == OCF_F32 ? OCF_PRECISION_TF32 : OCF_PRECISION_FP32;
  t.tb = tb ? OCF_TRANS : OCF_NO_TRANS;
  const size_t chunk = dtype == OCF_F32 ? 4 : 8;
  t.lda_pad = pad_to_chunk(k, dtype) + extra * chunk;
  t.ldb_pad = pad_to_chunk(tb ? k : n, dtype) + extra * chunk;
  return t;
}

/* Runs a case both ways (rounded inputs, tight tolerance; unrounded, the mode's bound) and
   checks which kernel ran. */
static void check_kernel(const ocft_env *env, mmx_case t, const char *kernel) {
  t.truncating_sum = 1;
  for (int exact = 0; exact < 2; exact++) {
    t.exact_inputs = exact;
    mmx_check(env, &t, NULL);
    const char *plan = ocf_last_plan();
    const size_t length = strlen(kernel);
    /* matmul_wgmma's whole-K calls run its TMA-fed form where wgmma.tma and its probe say */
    const int tma_form = strcmp(kernel, "matmul_wgmma") == 0 &&
                         strncmp(plan, "matmul_wgmma_tma ", strlen("matmul_wgmma_tma ")) == 0;
    if (!tma_form && (strncmp(plan, kernel, length) != 0 || plan[length] != ' ')) {
      char what[400];
      mmx_describe(&t, what, sizeof what);
      print_error("%s\n  ran %s, not %s\n", what, plan, kernel);
      fail();
    }
  }
}

static void check_wgmma(const ocft_env *env, mmx_case t) {
  check_kernel(env, t, "matmul_wgmma");
}

/* Every type and B layout on ragged shapes: one tile, a tile plus one, partial chunks in k and
   n, several tiles and slices, 1 x 1 x 1; alpha and beta, C poisoned where beta is 0. */
static void test_wgmma_types_layouts_shapes(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const size_t shapes[][3] = {{128, 256, 64},  {1, 1, 1},        {129, 257, 100},
                                     {200, 264, 136}, {300, 520, 1000}, {77, 130, 333}};
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
    for (int tb = inputs[d] == OCF_F32 ? 1 : 0; tb < 2; tb++)
      for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
        mmx_case t = wg_case(inputs[d], tb, shapes[s][0], shapes[s][1], shapes[s][2], s % 2);
        if (s % 2) {
          t.alpha = 1.5f, t.beta = -0.5f;
        } else {
          t.nan_c = 1;
        }
        check_wgmma(env, t);
      }
}

/* C's leading dimension and offset odd (scalar stores) and even (pairs), aligned A and B
   offsets. */
static void test_wgmma_offsets(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
    for (int odd = 0; odd < 2; odd++) {
      mmx_case t = wg_case(inputs[d], d % 2 || inputs[d] == OCF_F32, 201, 135, 72, 1);
      const size_t chunk = inputs[d] == OCF_F32 ? 4 : 8;
      t.a_off = chunk, t.b_off = 2 * chunk;
      t.c_off = odd ? 3 : 2;
      t.ldc_pad = odd ? 1 : 2;
      t.alpha = 0.75f, t.beta = 0.25f;
      check_wgmma(env, t);
    }
}

/* Strided batches (the grid's products), one with A shared (stride 0), strides whole chunks. */
static void test_wgmma_batches(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
    for (int shared = 0; shared < 2; shared++) {
      const int tb = inputs[d] == OCF_F32 || shared;
      mmx_case t = wg_case(inputs[d], tb, 150, 260, 88, 0);
      const size_t lda = t.k + t.lda_pad, ldb = (tb ? t.k : t.n) + t.ldb_pad;
      const size_t chunk = inputs[d] == OCF_F32 ? 4 : 8;
      t.batch = 3;
      t.stride_a = shared ? 0 : t.m * lda + chunk;
      t.stride_b = (tb ? t.n : t.k) * ldb + 2 * chunk;
      t.stride_c = MMX_PACKED;
      t.beta = shared ? 0.5f : 0.0f;
      check_wgmma(env, t);
    }
}

/* Column-major callers arrive with the operands swapped: A' = B stored n x k, B' = A stored
   k x m (16-bit), or B' = A^T stored m x k when A is given transposed (TF32 too). */
static void test_wgmma_column_major(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++) {
    mmx_case t = mmx_plain(136, 150, 96);
    t.layout = OCF_COL_MAJOR;
    t.a_dtype = t.b_dtype = inputs[d];
    t.precision = inputs[d] == OCF_F32 ? OCF_PRECISION_TF32 : OCF_PRECISION_FP32;
    /* A' = B (stored n x k in the row-major view): k x n column-major, ldb padded; B' = A */
    t.ta = inputs[d] == OCF_F32 ? OCF_TRANS : OCF_NO_TRANS;
    t.lda_pad = 8, t.ldb_pad = 8;
    t.beta = 0.5f;
    check_wgmma(env, t);
  }
}

/* The tile and ring tunables through the context's tuning: the same answers (the last: the
   H100's few-row tiles of one consumer). */
static void test_wgmma_tunables(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const settings[] = {
      "wg.bn=128 wg.stages=6", "wg.bn=192 wg.stages=5 wg.group_m=4", "wg.stages=3",
      "wg.consumers=1 wg.group_m=1", "wg.bn=128 wg.stages=6 wg.consumers=1 wg.group_m=8"};
  for (size_t s = 0; s < OCF_ARRAY_LEN_T(settings); s++) {
    mmx_tune(env, settings[s]);
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++) {
      check_wgmma(env, wg_case(inputs[d], inputs[d] == OCF_F32, 300, 520, 1000, 0));
      check_wgmma(env, wg_case(inputs[d], 1, 513, 200, 77, 1));
    }
  }
  mmx_tune(env, "");
}

/* Three consumers (wgmma.consumers=3: 192-row tiles, the TMA-fed form only, its first work-item
   driving the TMA between its own slices, 384 work-items). The planner takes three only where
   their waves cost no more than two's (rule 2), which a call under a wave never does: a batch of
   one product a compute unit of at most 384 x 256 is 3 waves of two's 128 x 256 tiles and 2 of
   three's 192 x 256. Every type and B layout, the tile whole and ragged in m, n and k, k short
   and long (the ring wraps: each stage's barriers change phase), alpha and beta, the epilogue and
   16-bit C, A shared by the batch; each call must have run matmul_wgmma_tma in workgroups of
   384. Then the same in 128 columns, the tile of rule 2's one wave of three consumers (192 x
   128: bf16 1536^3 on 132 units), whose waves cost as many as two's on these shapes. The width
   is each case's own: wgmma.wave_bn 0 (a database's 192, rule 2's waves, would take some of
   these batches of 132: an H100, 2026-12-08). */
static void test_wgmma_three_consumers(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const widths[][2] = {
      {"wgmma.consumers=3 wgmma.bn=256 wgmma.stages=4 wgmma.tma=1 wgmma.wave_bn=0", "-DBN=256 "},
      {"wgmma.consumers=3 wgmma.bn=128 wgmma.stages=4 wgmma.tma=1 wgmma.wave_bn=0", "-DBN=128 "}};
  static const size_t shapes[][3] = {{384, 64, 64}, {380, 72, 100}, {321, 129, 8}};
  for (size_t w = 0; w < OCF_ARRAY_LEN_T(widths); w++) {
    mmx_tune(env, widths[w][0]);
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
      for (int tb = inputs[d] == OCF_F32 ? 1 : 0; tb < 2; tb++)
        for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes) + 1; s++) {
          /* the last: a long K on bf16 and TF32 only (the reference's time) */
          if (s == OCF_ARRAY_LEN_T(shapes) && inputs[d] == OCF_F16) continue;
          const size_t *shape =
              s < OCF_ARRAY_LEN_T(shapes) ? shapes[s] : (const size_t[3]){384, 80, 600};
          mmx_case t = wg_case(inputs[d], tb, shape[0], shape[1], shape[2], s % 2);
          t.batch = env->info.compute_units;
          t.stride_a = s == 1 ? 0 : MMX_PACKED;
          t.stride_b = MMX_PACKED;
          t.stride_c = MMX_PACKED;
          if (s % 2) {
            t.alpha = 1.5f, t.beta = -0.5f;
            t.bias_axis = tb ? OCF_BIAS_N : OCF_BIAS_M;
            t.bias_dtype = inputs[d];
            t.activation = OCF_ACTIVATION_GELU_TANH;
          } else {
            t.nan_c = 1;
          }
          if (s == 2) t.c_dtype = inputs[d] == OCF_F32 ? OCF_BF16 : inputs[d];
          t.truncating_sum = 1;
          for (int exact = 0; exact < 2; exact++) {
            t.exact_inputs = exact;
            mmx_check(env, &t, NULL);
            /* the caller's operands or the copies' (a batch stride off the lines), on the TMA */
            const char *plan = ocf_last_plan();
            if (strstr(plan, "matmul_wgmma_tma") == NULL || strstr(plan, " wg=384 ") == NULL ||
                strstr(plan, widths[w][1]) == NULL) {
              print_error("ran %s, not three consumers of %s\n", plan, widths[w][1]);
              fail();
            }
          }
        }
  }
  mmx_tune(env, "");
}

/* The persistent forms' epilogue of case number i: C in fp32, bf16 or f16 in turn, and on odd
   numbers alpha, beta, a bias (along n where B is stored n x k, else along m) and SiLU, on even
   ones a C of NaNs that beta 0 must not read. */
static void vary_epilogue(mmx_case *t, const size_t i) {
  static const ocf_dtype c_types[] = {OCF_F32, OCF_BF16, OCF_F16};
  t->c_dtype = c_types[i % 3];
  if (i % 2) {
    t->alpha = 1.5f, t->beta = -0.5f;
    t->bias_axis = t->tb == OCF_TRANS ? OCF_BIAS_N : OCF_BIAS_M;
    t->bias_dtype = t->a_dtype;
    t->activation = OCF_ACTIVATION_SILU;
  } else {
    t->nan_c = 1;
  }
}

/* Persistent tiles (wgmma.persist=1, rule 7): one product of more tiles than compute units, a
   workgroup a unit, each multiplying two or three tiles through one ring whose next tile's
   slices load while the last one's C is stored. Every type, both B layouts in turn, ragged m, n
   and k (2 slices a tile at 16 bits: the producer is into the next tile from the start), the
   staged epilogue (each warpgroup's own area, every C type) and the direct one, alpha, beta
   and a bias either way; then a long K (9 slices a tile: the ring's phases wrap within a tile);
   last the copied plan's step (wgmma.align_rows=64: B copied onto the lines,
   matmul_wgmma_tma_pb). Rings of 3 stages. Before them three consumers, which the planner keeps
   a tile a workgroup under wgmma.persist=1 (persistent, they lost 3-10 %; m of as many 192-row
   tiles as units: 2 waves, as many as two consumers' 3, so the plan keeps three): first,
   because the TMA probe runs once a context, at its first TMA-fed plan, on the largest ring
   that call's tuning may take, and caps every later plan at it; run alone (OCFT_ONLY, an H100,
   2026-12-07), the two-consumer forms had probed a smaller ring, and three consumers' plan took
   two. */
static void test_wgmma_persistent(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t units = env->info.compute_units;
  static const char *const forms[] = {
      "wgmma.persist=1 wgmma.tma=1 wgmma.c_stage=1 wgmma.consumers=3 wgmma.bn=256 "
      "wgmma.stages=4 wgmma.wave_bn=0",
      "wgmma.persist=1 wgmma.tma=1 wgmma.c_stage=1 wgmma.consumers=2 wgmma.bn=256 "
      "wgmma.stages=3 wgmma.wave_bn=0",
      "wgmma.persist=1 wgmma.tma=1 wgmma.c_stage=0 wgmma.consumers=2 wgmma.bn=256 "
      "wgmma.stages=3 wgmma.wave_bn=0",
      "wgmma.persist=1 wgmma.tma=1 wgmma.tma_copies=1 wgmma.c_stage=1 wgmma.consumers=2 "
      "wgmma.bn=256 wgmma.stages=3 wgmma.wave_bn=0 wgmma.align_rows=64 wgmma.sector_rows=0"};
  char step[64];
  for (size_t f = 0; f < OCF_ARRAY_LEN_T(forms); f++) {
    mmx_tune(env, forms[f]);
    const int copied = f == 3; /* B's rows (144 or 528 bytes) copied onto the lines first */
    const int three = f == 0;  /* a tile a workgroup: units x 2 tiles */
    snprintf(step, sizeof step, "%s wg=%d groups=%zu ",
             copied ? "matmul_wgmma_tma_pb" : "matmul_wgmma_tma", three ? 384 : 288,
             three ? 2 * units : units);
    const size_t m = three ? 192 * units - 50 : 128 * (units + 3) - 50;
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs) + 1; d++) {
      const int long_k = d == OCF_ARRAY_LEN_T(inputs);
      const ocf_dtype dtype = long_k ? OCF_BF16 : inputs[d];
      if (copied && dtype == OCF_F32) continue; /* the 16-bit copies only */
      const int tb = dtype == OCF_F32 ? 1 : (int)((d + f) % 2);
      mmx_case t = wg_case(dtype, tb, m, 257, long_k ? 520 : 72, 0);
      vary_epilogue(&t, d + f);
      t.truncating_sum = 1;
      mmx_check(env, &t, NULL);
      const char *plan = ocf_last_plan();
      if (strstr(plan, step) == NULL ||
          strstr(plan, three ? "-DPERSIST=0" : "-DPERSIST=1") == NULL) {
        print_error("form %zu ran %s, not %s\n", f, plan,
                    three ? "a tile a workgroup" : "persistent tiles");
        fail();
      }
    }
  }
  mmx_tune(env, "");
}

/* Stream-K on the persistent form (wgmma.persist=2, rule 7: matmul_wgmma_tma_sk): one product
   whose tiles of 128 x 256 are not whole waves of the compute units. m of units + 3 tile rows
   and n of two tile columns: two waves and 6 tiles, each cut into min(units / 6, slices, 4)
   pieces along K: with k 72 a tile is 2 slices at 16 bits (2 pieces of one slice, the second
   ragged) and 3 at TF32 (3 pieces), with k 520 9 slices (4 pieces of 2, 2, 2 and 3). Then
   units + 5 tiles of one column: a wave and 5 tiles of 2 pieces. Every type, both B layouts in
   turn, ragged m, n and k, the staged epilogue in every C type and the direct one, alpha,
   beta, a bias either way; check_kernel runs each case twice, so the second call finds the
   counters at zero again (a counter left set would finish a tile before its pieces were
   summed). Then the same on the twins of a copied plan (wgmma.align_rows=64: B's rows copied
   onto the lines, _sk_pb) and of a staged one (A transposed: A and B staged, _sk_sab; TF32
   staged from 64^3 on), whose sums lie after the copies and the maps. */
static void test_wgmma_stream_k(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t units = env->info.compute_units;
  static const char *const forms[][2] = {
      {"wgmma.persist=2 wgmma.tma=1 wgmma.c_stage=1 wgmma.consumers=2 wgmma.bn=256 "
       "wgmma.stages=3 wgmma.wave_bn=0",
       "matmul_wgmma_tma_sk"},
      {"wgmma.persist=2 wgmma.tma=1 wgmma.c_stage=0 wgmma.consumers=2 wgmma.bn=256 "
       "wgmma.stages=3 wgmma.wave_bn=0",
       "matmul_wgmma_tma_sk"},
      {"wgmma.persist=2 wgmma.tma=1 wgmma.tma_copies=1 wgmma.c_stage=1 wgmma.consumers=2 "
       "wgmma.bn=256 wgmma.stages=3 wgmma.wave_bn=0 wgmma.align_rows=64 wgmma.sector_rows=0",
       "matmul_wgmma_tma_sk_pb"},
      {"wgmma.persist=2 wgmma.tma=1 wgmma.tma_copies=1 wgmma.c_stage=1 wgmma.consumers=2 "
       "wgmma.bn=256 wgmma.stages=3 wgmma.wave_bn=0 wgmma.unread_rows=64 "
       "wgmma.tf32_stage_min=64",
       "matmul_wgmma_tma_sk_sab"}};
  char step[64];
  for (size_t f = 0; f < OCF_ARRAY_LEN_T(forms); f++) {
    mmx_tune(env, forms[f][0]);
    const int copied = f == 2, staged = f == 3;
    snprintf(step, sizeof step, "%s wg=288 groups=%zu ", forms[f][1], units);
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs) + 2; d++) {
      const int long_k = d == OCF_ARRAY_LEN_T(inputs), one_column = d > OCF_ARRAY_LEN_T(inputs);
      const ocf_dtype dtype = d < OCF_ARRAY_LEN_T(inputs) ? inputs[d] : OCF_BF16;
      if (copied && dtype == OCF_F32) continue; /* the 16-bit copies only */
      const int tb = dtype == OCF_F32 ? 1 : (int)((d + f) % 2);
      const size_t m = one_column ? 128 * (units + 5) - 7 : 128 * (units + 3) - 50;
      mmx_case t = wg_case(dtype, tb, m, one_column ? 200 : 257, long_k ? 520 : 72, 0);
      if (staged) t.ta = OCF_TRANS, t.lda_pad = 3; /* A stored k x m, its rows anywhere */
      vary_epilogue(&t, d + f);
      if (!copied && !staged) {
        check_kernel(env, t, forms[f][1]);
        continue;
      }
      t.truncating_sum = 1;
      for (int twice = 0; twice < 2; twice++) { /* the counters at zero again */
        mmx_check(env, &t, NULL);
        if (strstr(ocf_last_plan(), step) == NULL) {
          print_error("form %zu ran %s, not %s\n", f, ocf_last_plan(), step);
          fail();
        }
      }
    }
  }
  mmx_tune(env, "");
}

/* Split K (wgmma.split_min=64: every call below leaves units idle, so K splits into ranges of
   whole slices, the last one ragged): every type and B layout, alpha and beta, a bias either
   way, 16-bit C, a batch with A shared, then the reduce's epilogue; with the cp.async split,
   the TMA-fed one (wgmma.tma_split=1: each range's maps end where it does) and the one that
   joins its ranges itself (wgmma.split_join=1: each tile's last range finishes it), each form
   naming both switches (set_tuning keeps what it does not name); last the cp.async split in
   tiles of 128 columns and 6 stages (the H100's few_rows entry). 300 x 520 x 1000 is 3 x 3
   tiles: min(132 / 9, 1000 / 64) = 14 ranges wanted, 8 of 128 (the last 104). */
static void test_wgmma_split_k(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const char *const forms[][2] = {
      {"wgmma.split_min=64 wgmma.tma_split=0 wgmma.split_join=0", "matmul_wgmma_split"},
      {"wgmma.split_min=64 wgmma.tma_split=1 wgmma.split_join=0", "matmul_wgmma_tma_split"},
      {"wgmma.split_min=64 wgmma.tma_split=0 wgmma.split_join=1", "matmul_wgmma_split_join"},
      {"wgmma.split_min=64 wgmma.tma_split=0 wgmma.split_join=0 wgmma.bn=128 wgmma.stages=6",
       "matmul_wgmma_split"}};
  for (size_t f = 0; f < OCF_ARRAY_LEN_T(forms); f++) {
    const char *const kernel = forms[f][1];
    mmx_tune(env, forms[f][0]);
    static const size_t shapes[][3] = {{300, 520, 1000}, {77, 130, 333}, {129, 257, 700}};
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
      for (int tb = inputs[d] == OCF_F32 ? 1 : 0; tb < 2; tb++)
        for (size_t s = 0; s < OCF_ARRAY_LEN_T(shapes); s++) {
          mmx_case t = wg_case(inputs[d], tb, shapes[s][0], shapes[s][1], shapes[s][2], s % 2);
          if (s == 1) {
            t.alpha = 1.5f, t.beta = -0.5f;
            t.bias_axis = tb ? OCF_BIAS_N : OCF_BIAS_M;
            t.bias_dtype = (ocf_dtype)d;
            t.activation = OCF_ACTIVATION_GELU_TANH;
          } else {
            t.nan_c = 1;
          }
          if (s == 2) t.c_dtype = d == 0 ? OCF_BF16 : OCF_F16;
          check_kernel(env, t, kernel);
        }
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++) {
      mmx_case t = wg_case(inputs[d], 1, 150, 260, 888, 0);
      const size_t ldb = t.k + t.ldb_pad;
      t.batch = 2;
      t.stride_a = 0;
      t.stride_b = t.n * ldb + (inputs[d] == OCF_F32 ? 4 : 8);
      t.stride_c = MMX_PACKED;
      t.beta = 0.25f;
      t.c_off = 1, t.ldc_pad = 1;
      check_kernel(env, t, kernel);
    }
  }
  mmx_tune(env, "");
}

/* Rule 2's waves (wgmma.wave_bn=192, wave_stages=5) on the H200's 132 units: 2100 x 2100 is
   17 x 9 = 153 tiles of 128 x 256 (2 waves, 512) or 17 x 11 = 187 of 192 columns (2 waves,
   384); one warpgroup, 1300 x 1580 is 21 x 7 = 147 of 64 x 256 or 21 x 9 = 189 of 64 x 192.
   Every type and B layout (a k x n B in 64-column blocks), edge tiles past m and n, k ragged
   and short (the references stay short); C poisoned, then alpha and beta. */
static void test_wgmma_waves(void **state) {
  ocft_env *env = ocft_get_env(state);
  static const struct {
    const char *tuning;
    size_t m, n, k;
  } cases[] = {{"wgmma.wave_bn=192 wgmma.wave_stages=5", 2100, 2100, 40},
               {"wgmma.wave_bn=192 wgmma.wave_stages=5 wgmma.consumers=1", 1300, 1580, 72}};
  for (size_t c = 0; c < OCF_ARRAY_LEN_T(cases); c++) {
    mmx_tune(env, cases[c].tuning);
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
      for (int tb = inputs[d] == OCF_F32 ? 1 : 0; tb < 2; tb++) {
        mmx_case t = wg_case(inputs[d], tb, cases[c].m, cases[c].n, cases[c].k, c);
        if (c) {
          t.alpha = 0.5f, t.beta = 1.25f;
        } else {
          t.nan_c = 1;
        }
        check_wgmma(env, t);
        assert_non_null(strstr(ocf_last_plan(), "-DBN=192 "));
      }
  }
  mmx_tune(env, "");
}

/* The last-wave split (src/plan/plan_matmul_wgmma.c, rule 6) forced on: wgmma.lastwave=100 (any
   last wave) and lastwave_min=64, on the H200's 132 units (a GPU of more units would plan
   matmul_wgmma and fail here by name). Tiles of 64 x 128 (wg.consumers=1, wg.bn=128) keep the
   references short:
   - 700 x 1580 x 200 is 11 x 13 = 143 tiles, R 11 (edge tiles past m and n among them),
     min(132 / 11, 200 / 64) = 3 ranges wanted of 128, 2 made (128 and 72; TF32 3 of 96: 96, 96,
     8); every type and B layout, a bias either way in each type, every activation, every C type,
     alpha and beta, C poisoned where beta is 0;
   - a batch of 28 products of 300 x 100 x 400 (5 x 1 tiles) is 140 slots, R 8 straddling products
     26 and 27, 4 ranges of 128 (the last 16; TF32 5 of 96, the last 16), A shared in one, beta,
     odd ldc and c_off;
   - 128 x 256 tiles (the built-in geometry): 3 x 1100 x 1300 x 200 is 3 x 9 x 6 = 162 tiles, R
     30, 2 ranges of 128; a bias along m, SiLU, bf16 C, beta;
   - a workspace of the scratch filled with NaN (a float the split did not write would show in
     C), then one float short: matmul_wgmma runs. */
static void test_wgmma_lastwave(void **state) {
  ocft_env *env = ocft_get_env(state);
  const char *const small = "wg.bn=128 wg.consumers=1 wgmma.lastwave=100 wgmma.lastwave_min=64";
  mmx_tune(env, small);
  int i = 0;
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
    for (int tb = inputs[d] == OCF_F32 ? 1 : 0; tb < 2; tb++, i++) {
      mmx_case t = wg_case(inputs[d], tb, 700, 1580, 200, (size_t)i % 2);
      if (i % 2) {
        t.alpha = 1.5f, t.beta = -0.5f;
      } else {
        t.nan_c = 1;
      }
      t.bias_axis = (i / 2) % 2 ? OCF_BIAS_M : OCF_BIAS_N;
      t.bias_dtype = (ocf_dtype)(i % 3);
      t.bias_off = 3;
      t.activation = (ocf_activation)(i % (OCF_ACTIVATION_SILU + 1));
      t.c_dtype = (ocf_dtype)((i + 1) % 3);
      check_kernel(env, t, "matmul_wgmma_lw_split");
    }
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++) {
    const int tb = inputs[d] == OCF_F32 || d % 2;
    mmx_case t = wg_case(inputs[d], tb, 300, 100, 400, 0);
    const size_t lda = t.k + t.lda_pad, ldb = (tb ? t.k : t.n) + t.ldb_pad;
    t.batch = 28;
    t.stride_a = d == 0 ? 0 : t.m * lda;
    t.stride_b = (tb ? t.n : t.k) * ldb + (inputs[d] == OCF_F32 ? 4 : 8);
    t.stride_c = MMX_PACKED;
    t.beta = 0.25f;
    t.c_off = 1, t.ldc_pad = 1;
    check_kernel(env, t, "matmul_wgmma_lw_split");
  }
  mmx_tune(env, "wgmma.lastwave=100 wgmma.lastwave_min=64");
  mmx_case t = wg_case(OCF_BF16, 0, 1100, 1300, 200, 0);
  const size_t lda = t.k + t.lda_pad, ldb = t.n + t.ldb_pad;
  t.batch = 3;
  t.stride_a = t.m * lda, t.stride_b = t.k * ldb, t.stride_c = MMX_PACKED;
  t.bias_axis = OCF_BIAS_M;
  t.bias_dtype = OCF_BF16;
  t.activation = OCF_ACTIVATION_SILU;
  t.c_dtype = OCF_BF16;
  t.beta = 0.5f;
  check_kernel(env, t, "matmul_wgmma_lw_split");

  mmx_tune(env, small);
  t = wg_case(OCF_BF16, 1, 700, 1580, 200, 0);
  const size_t bytes = mmx_workspace_size(env, &t);
  if (bytes != 2 * 11 * 64 * 128 * sizeof(float)) { /* 2 ranges of 11 tiles */
    print_error("the workspace query reports %zu bytes for the last wave's sums\n", bytes);
    fail();
  }
  cl_mem ws = ocft_nan_buffer(env, bytes);
  t.workspace = ws, t.workspace_size = bytes;
  check_kernel(env, t, "matmul_wgmma_lw_split");
  t.workspace_size = bytes - sizeof(float);
  check_kernel(env, t, "matmul_wgmma");
  clReleaseMemObject(ws);
  mmx_tune(env, "");
}

/* Every activation, a bias along n and along m in each type, every C type, with and without
   beta, a batch (the bias shared by the products). */
static void test_wgmma_epilogue(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++)
    for (int act = OCF_ACTIVATION_NONE; act <= OCF_ACTIVATION_SILU; act++) {
      mmx_case t = wg_case(inputs[d], inputs[d] == OCF_F32 || act % 2, 130, 270, 90, 0);
      t.activation = (ocf_activation)act;
      t.bias_axis = act % 2 ? OCF_BIAS_N : OCF_BIAS_M;
      t.bias_dtype = (ocf_dtype)(act % 3);
      t.bias_off = 5;
      t.c_dtype = (ocf_dtype)((act + d) % 3);
      t.beta = act % 2 ? 0.75f : 0.0f;
      t.c_off = act % 2;
      if (act == OCF_ACTIVATION_SILU) {
        const size_t lda = t.k + t.lda_pad, ldb = (t.tb ? t.k : t.n) + t.ldb_pad;
        t.batch = 2;
        t.stride_a = t.m * lda, t.stride_b = (t.tb ? t.n : t.k) * ldb;
        t.stride_c = MMX_PACKED;
      }
      check_wgmma(env, t);
    }
  /* no bias, 16-bit C (the scalar stores of every element) */
  for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++) {
    mmx_case t = wg_case(inputs[d], 1, 129, 257, 100, 1);
    t.c_dtype = d == 0 ? OCF_F16 : OCF_BF16;
    t.alpha = 2.0f, t.beta = -1.0f;
    check_wgmma(env, t);
  }
}

/* What the wgmma kernel does not read runs on mma.sync, right, unless the 16-bit operands are
   copied onto aligned rows first (wgmma.align_rows, wgmma.unread_rows): with the copies off,
   mma.sync; with wgmma.unread_rows=64 (NVIDIA's built-in value since 2026-12-03: calls of 64 rows
   and 64^3 products on, as these), matmul_pad (A off chunks) or matmul_stage (A transposed), then
   the wgmma kernel of copied operands. */
static void test_wgmma_fallbacks(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (int copies = 0; copies < 2; copies++)
    for (size_t d = 0; d < OCF_ARRAY_LEN_T(inputs); d++) {
      const int tf32 = inputs[d] == OCF_F32;
      /* TF32's operands are never copied: mma.sync both ways */
      const char *kernel = copies && !tf32 ? "matmul_pad" : "matmul_mma";
      ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", inputs[d], NULL,
                                                copies ? "wgmma.unread_rows=64"
                                                       : "wgmma.align_rows=0 wgmma.unread_rows=0"),
                         OCF_SUCCESS);
      mmx_case t = wg_case(inputs[d], tf32, 130, 140, 90, 0);
      t.lda_pad += 1; /* A's rows not whole 16-byte chunks */
      check_kernel(env, t, kernel);
      /* the copied step in either form (wgmma.tma_copies: NVIDIA's row takes the TMA-fed one) */
      if (copies && !tf32)
        assert_true(strstr(ocf_last_plan(), "matmul_wgmma_pab") ||
                    strstr(ocf_last_plan(), "matmul_wgmma_tma_pab"));
      t = wg_case(inputs[d], tf32, 130, 140, 96, 0);
      t.ta = OCF_TRANS; /* A stored k x m */
      t.lda_pad = 6;
      check_kernel(env, t, copies && !tf32 ? "matmul_stage" : "matmul_mma");
      ocft_assert_status(ocf_context_set_tuning(env->ctx, "matmul", inputs[d], NULL, ""),
                         OCF_SUCCESS);
    }
  mmx_case t = wg_case(OCF_F32, 0, 130, 140, 96, 0); /* TF32 with B stored k x n */
  check_kernel(env, t, "matmul_mma");
}

/* The TF32 truncation exactly, by the matrix unit (C = A B^T, A a column of crafted values, B a
   column of ones, k = 1 in rows of 4: the chunk's zero fill): toward zero, as ocf_tf32_trunc
   (1 + 2^-10 + 2^-11 gives 1 + 2^-10 where rounding to nearest gives 1 + 2^-9; the largest
   float stays finite); NaNs whose payload reaches the kept bits stay NaN, but one whose payload
   lies only in the 13 dropped bits (0x7f800001..0x7f801fff, 0xff800001..0xff801fff) becomes an
   infinity of its sign: the wgmma kernel's one difference from the library's TF32
   (include/oclfuse.h, cl/matmul_wgmma_nv.cl), where mma.sync and the SIMT kernels keep it a NaN
   (test_matmul_mma, test_matmul_precision). */
static void test_wgmma_tf32_truncation_exact(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { M = 16, N = 40, LD = 4 };
  static const uint32_t bits[M] = {
      0x3f801000u, /* 1 + 2^-11: 1 */
      0xbf803000u, /* -(1 + 2^-10 + 2^-11): -(1 + 2^-10) */
      0x3f803000u, /* 1 + 2^-10 + 2^-11: 1 + 2^-10 */
      0x3f801fffu, /* 1 + 2^-10 - 2^-23: 1 */
      0x7f7fffffu, /* the largest float: (2 - 2^-10) 2^127 */
      0x40400000u, /* 3 */
      0x7f800000u, /* infinity */
      0xff800000u, /* -infinity */
      0x7fc00000u, /* the quiet NaN */
      0x7f802000u, /* a signalling NaN, payload in the kept bits: NaN */
      0xffc01234u, /* a negative quiet NaN with low payload bits: NaN */
      0x7f800001u, /* signalling NaNs, payloads in the dropped bits only: +infinity */
      0x7f801fffu, /* +infinity */
      0xff800001u, /* -infinity */
      0xff801fffu, /* -infinity */
      0x00000000u, /* 0 */
  };
  float a[M * LD] = {0}, b[N * LD] = {0}, c[M * N];
  for (size_t i = 0; i < M; i++)
    memcpy(&a[i * LD], &bits[i], sizeof a[0]);
  for (size_t j = 0; j < N; j++)
    b[j * LD] = 1.0f;
  cl_mem ab = ocft_buffer(env, M * LD, a), bb = ocft_buffer(env, N * LD, b),
         cb = ocft_buffer(env, M * N, NULL);
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.precision = OCF_PRECISION_TF32;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_TRANS, M, N, 1, 1.0f, ab, 0, LD, bb,
                                   0, LD, 0.0f, cb, 0, N, &o, NULL),
                     OCF_SUCCESS);
  const char *plan = ocf_last_plan();
  if (strncmp(plan, "matmul_wgmma ", 13) != 0 && strncmp(plan, "matmul_wgmma_tma ", 17) != 0) {
    print_error("ran %s, not matmul_wgmma (or its TMA-fed form)\n", plan);
    fail();
  }
  ocft_read(env, cb, M * N, c);
  for (size_t i = 0; i < M; i++) {
    const int low_payload = (bits[i] & 0x7fffe000u) == 0x7f800000u && (bits[i] & 0x1fffu) != 0;
    const float want = low_payload ? copysignf(INFINITY, a[i * LD]) : ocf_ref_tf32(a[i * LD]);
    for (size_t j = 0; j < N; j++) {
      const float got = c[i * N + j];
      if (isnan(want) ? !isnan(got) : got != want) {
        print_error("A = 0x%08x gave %a, want %a%s\n", (unsigned)bits[i], (double)got, (double)want,
                    low_payload && isnan(got) ? " (the unit kept the NaN: the documented edge "
                                                "of wgmma's TF32 does not exist, fix the docs)"
                                              : "");
        fail();
      }
    }
  }
  clReleaseMemObject(ab), clReleaseMemObject(bb), clReleaseMemObject(cb);
}

/* Bad calls that would have taken the kernel are refused before anything is enqueued: C and
   the inputs keep their pattern. */
static void test_wgmma_refusals(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { N = 256 * 256 };
  cl_mem x = mmx_pattern_buffer(env, N * 2), c = mmx_pattern_buffer(env, N * 4);
  ocf_context *ctx = env->ctx;
  const ocf_transpose NT = OCF_NO_TRANS;
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.a_dtype = o.b_dtype = OCF_BF16;
  /* A's extent past its buffer, by one row */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 257, 256, 256, 1, x, 0, 256, x, 0, 256, 0, c, 0, 256, &o, NULL),
      OCF_ERR_BUFFER_TOO_SMALL);
  /* a leading dimension below the row */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 128, 256, 256, 1, x, 0, 248, x, 0, 256, 0, c, 0, 256, &o, NULL),
      OCF_ERR_INVALID_STRIDE);
  /* C overlapping A */
  ocft_assert_status(
      ocf_matmul_ex(ctx, NT, NT, 64, 64, 64, 1, x, 0, 64, x, 0, 64, 0, x, 0, 64, &o, NULL),
      OCF_ERR_ALIASING);
  mmx_assert_pattern(env, x, N * 2, "A and B after refused calls");
  mmx_assert_pattern(env, c, N * 4, "C after refused calls");
  clReleaseMemObject(x);
  clReleaseMemObject(c);
}

int main(void) {
  if (mmx_nvidia_compute_capability() != 90) {
    printf("no NVIDIA GPU of compute capability 9.0: test_matmul_wgmma skipped\n");
    return SKIP_STATUS;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wgmma_types_layouts_shapes),
      cmocka_unit_test(test_wgmma_tf32_truncation_exact),
      cmocka_unit_test(test_wgmma_offsets),
      cmocka_unit_test(test_wgmma_batches),
      cmocka_unit_test(test_wgmma_column_major),
      cmocka_unit_test(test_wgmma_epilogue),
      cmocka_unit_test(test_wgmma_tunables),
      cmocka_unit_test(test_wgmma_three_consumers),
      cmocka_unit_test(test_wgmma_persistent),
      cmocka_unit_test(test_wgmma_stream_k),
      cmocka_unit_test(test_wgmma_split_k),
      cmocka_unit_test(test_wgmma_lastwave),
      cmocka_unit_test(test_wgmma_waves),
      cmocka_unit_test(test_wgmma_fallbacks),
      cmocka_unit_test(test_wgmma_refusals),
  };
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  return cmocka_run_group_tests_name("matmul_wgmma", tests, ocft_group_setup, ocft_group_teardown);
}
