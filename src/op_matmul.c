/* ocf_matmul: argument checks, tuning, kernel choice and launch for cl/matmul.cl. */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>

/* ---- tuning parameters as data ---- */

/* The kernel's -D parameters (the first MATMUL_TUNABLES), then values derived from them that
   the legality rules talk about too. */
typedef enum matmul_param {
  P_MDIMC, /* work-items along M */
  P_NDIMC, /* work-items along N */
  P_MWI,   /* rows of C per work-item */
  P_NWI,   /* columns of C per work-item */
  P_KWG,   /* K slice depth in local memory */
  P_VWM,   /* local read width of the A tile */
  P_VWN,   /* local read width of the B tile, store width of C */
  P_PADA,  /* padding floats per local A row */
  P_PADB,  /* padding floats per local B row */
  MATMUL_TUNABLES,
  P_MWG = MATMUL_TUNABLES, /* MDIMC * MWI */
  P_NWG,                   /* NDIMC * NWI */
  P_WPT,                   /* MWI * NWI: accumulators per work-item */
  MATMUL_PARAMS
} matmul_param;

static const char *const param_names[MATMUL_PARAMS] = {
    "MDIMC", "NDIMC", "MWI", "NWI", "KWG", "VWM", "VWN", "PADA", "PADB", "MWG", "NWG", "MWI*NWI"};

/* Parameter sets per row: enough for a large, a mid and a small tile. */
#define MATMUL_MAX_SETS 3

/* One device row: parameter sets ordered from the largest tiles to the smallest, and the rule
   that picks one for a call. A call takes the first set whose tiles cover C with at least
   `fill` workgroups per compute unit, else the last set: large tiles are fastest per workgroup,
   but a problem of few large tiles leaves most compute units idle. Unused sets are all zero. */
typedef struct matmul_tuning {
  ocf_tuning_key key;
  unsigned fill; /* workgroups per compute unit a set must give to be taken */
  unsigned sets[MATMUL_MAX_SETS][MATMUL_TUNABLES]; /* MDIMC NDIMC MWI NWI KWG VWM VWN PADA PADB */
} matmul_tuning;

/*
 * Per-device defaults, most specific first. NVIDIA: measured on an H200 (OpenCL 3.0 CUDA, driver
 * 580.159, 132 compute units), NN, event-timed medians. Large set, at 4096 / 8192: 128 x 128
 * tiles, 8 x 8 outputs per work-item in a 16 x 16 workgroup and K slices of 8 give 45.8 / 46.5
 * TFLOP/s (CLBlast 1.5.3 untuned: 30.2 / 32.8). K slices of 16 gave 37.7 (twice the local memory,
 * fewer resident workgroups); 8 x 16 workgroups 44.0 / 47.1; 256 x 128 tiles 34.6; 64 x 64 tiles
 * 38.7; padding 0 or 8 the same. But at 256 and 512 the 128 x 128 tiles make only 4 and 16
 * workgroups for 132 compute units (1.1 and 4.8 TFLOP/s, CLBlast 2.5 and 9.4), and at 1024 only
 * 64 (20.0): below one workgroup per compute unit, the mid set (64 x 64 tiles, K slices of 16)
 * and then the small one (32 x 32 tiles, 8 x 8 work-items) take over: 2.8 TFLOP/s at 256, 13.2
 * at 512, 30.2 at 1024, 20.6 at 1000 (was 15.7); 2048 and up unchanged (44.7, 45.8). Kernel-only
 * sweep of other sets (TFLOP/s at 256 / 512 / 1024): 64 x 64 with K slices of 8 1.5 / 6.9 /
 * 23.1, 8 x 8 work-items of 8 x 8 6.1 / 25.4 at 512 / 1024, 64 x 128 tiles (8 x 16 of 8 x 8)
 * 1.5 / 7.1 / 31.1; 32 x 32 with K slices of 32 2.7 / 13.3 / 23.3, 16 x 16 work-items of 2 x 2
 * 2.8 / 10.9 / 15.5, 32 x 64 tiles 2.5 / 12.2 / 27.5.
 * AMD and Intel GPU rows are untested starting points of the same shape, smaller for Intel's
 * narrower register files. CPU (PoCL): 8 x 8 work-items of 4 x 4 outputs, 32 x 32 tiles that
 * stay in cache; PoCL turns each workgroup into loops, so a small one keeps the state carried
 * across the barriers small; 16 x 16 tiles when there would be fewer than two workgroups per
 * core.
 */
static const matmul_tuning matmul_table[] = {
    {{"NVIDIA", NULL, CL_DEVICE_TYPE_GPU},
     1,
     {{16, 16, 8, 8, 8, 4, 4, 4, 4}, {16, 16, 4, 4, 16, 4, 4, 4, 4}, {8, 8, 4, 4, 16, 4, 4, 4, 4}}},
    {{"Advanced Micro Devices", NULL, CL_DEVICE_TYPE_GPU},
     1,
     {{16, 16, 8, 8, 16, 4, 4, 4, 4},
      {16, 16, 4, 4, 16, 4, 4, 4, 4},
      {8, 8, 4, 4, 16, 4, 4, 4, 4}}},
    {{"Intel", NULL, CL_DEVICE_TYPE_GPU},
     1,
     {{16, 8, 4, 8, 16, 4, 4, 4, 4}, {8, 8, 4, 4, 16, 4, 4, 4, 4}}},
    {{NULL, NULL, CL_DEVICE_TYPE_CPU},
     2,
     {{8, 8, 4, 4, 16, 4, 4, 4, 4}, {4, 4, 4, 4, 16, 4, 4, 4, 4}}},
    {{NULL, NULL, 0}, 2, {{8, 8, 4, 4, 16, 4, 4, 4, 4}, {4, 4, 4, 4, 16, 4, 4, 4, 4}}},
};

/* ---- legality rules as data, one validator for table rows and overrides alike ---- */

typedef enum rule_kind {
  RULE_RANGE,        /* lo <= x <= hi */
  RULE_POWER_OF_TWO, /* x is 1, 2, 4, ... */
  RULE_MULTIPLE_OF,  /* x % param y == 0 */
  RULE_MULTIPLE_OF_N /* x % lo == 0 */
} rule_kind;

typedef struct matmul_rule {
  rule_kind kind;
  matmul_param x, y;
  unsigned lo, hi;
  const char *why;
} matmul_rule;

static const matmul_rule matmul_rules[] = {
    {RULE_RANGE, P_MDIMC, 0, 1, 1024, "workgroup rows"},
    {RULE_RANGE, P_NDIMC, 0, 1, 1024, "workgroup columns"},
    {RULE_POWER_OF_TWO, P_MDIMC, 0, 0, 0, "the workgroup is a power of two per side"},
    {RULE_POWER_OF_TWO, P_NDIMC, 0, 0, 0, "the workgroup is a power of two per side"},
    {RULE_RANGE, P_MWI, 0, 1, 16, "rows per work-item"},
    {RULE_RANGE, P_NWI, 0, 1, 16, "columns per work-item"},
    {RULE_RANGE, P_WPT, 0, 1, 256, "accumulators must fit in registers"},
    {RULE_RANGE, P_KWG, 0, 4, 64, "K slice depth"},
    {RULE_MULTIPLE_OF_N, P_KWG, 0, 4, 0, "global loads along K come in groups of 4"},
    {RULE_RANGE, P_VWM, 0, 1, 4, "vector width"},
    {RULE_RANGE, P_VWN, 0, 1, 4, "vector width"},
    {RULE_POWER_OF_TWO, P_VWM, 0, 0, 0, "vector widths are 1, 2 or 4"},
    {RULE_POWER_OF_TWO, P_VWN, 0, 0, 0, "vector widths are 1, 2 or 4"},
    {RULE_MULTIPLE_OF, P_MWI, P_VWM, 0, 0, "a work-item's rows are whole vectors"},
    {RULE_MULTIPLE_OF, P_NWI, P_VWN, 0, 0, "a work-item's columns are whole vectors"},
    {RULE_MULTIPLE_OF_N, P_MWG, 0, 4, 0, "global loads along M come in groups of 4"},
    {RULE_MULTIPLE_OF_N, P_NWG, 0, 4, 0, "global loads along N come in groups of 4"},
    {RULE_RANGE, P_PADA, 0, 0, 64, "padding"},
    {RULE_RANGE, P_PADB, 0, 0, 64, "padding"},
    {RULE_MULTIPLE_OF_N, P_PADA, 0, 4, 0, "local rows stay 16-byte aligned"},
    {RULE_MULTIPLE_OF_N, P_PADB, 0, 4, 0, "local rows stay 16-byte aligned"},
};

static int rule_holds(const matmul_rule *rule, const unsigned *p) {
  unsigned x = p[rule->x];
  switch (rule->kind) {
  case RULE_RANGE:
    return x >= rule->lo && x <= rule->hi;
  case RULE_POWER_OF_TWO:
    return x != 0 && (x & (x - 1)) == 0;
  case RULE_MULTIPLE_OF:
    return p[rule->y] != 0 && x % p[rule->y] == 0;
  case RULE_MULTIPLE_OF_N:
    return x % rule->lo == 0;
  }
  return 0;
}

/* Bytes of local memory the tiled kernels declare: two buffers each of A and B slices. */
static unsigned long long matmul_local_bytes(const unsigned *p) {
  unsigned long long per_slice = (unsigned long long)p[P_KWG] *
                                 ((unsigned long long)p[P_MWG] + p[P_PADA] + p[P_NWG] + p[P_PADB]);
  return 2 * per_slice * sizeof(float);
}

/* Fills the derived values and checks every rule, then the device's workgroup and local-memory
   limits. `origin` says where the values came from, for the error text. */
static ocf_status matmul_params_check(const ocf_device_info *info, unsigned *p,
                                      const char *origin) {
  p[P_MWG] = p[P_MDIMC] * p[P_MWI];
  p[P_NWG] = p[P_NDIMC] * p[P_NWI];
  p[P_WPT] = p[P_MWI] * p[P_NWI];
  for (size_t r = 0; r < OCF_ARRAY_LEN(matmul_rules); r++) {
    const matmul_rule *rule = &matmul_rules[r];
    if (!rule_holds(rule, p))
      return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                      "ocf_matmul: %s gives %s = %u, which breaks a tiling rule (%s)", origin,
                      param_names[rule->x], p[rule->x], rule->why);
  }
  size_t items = (size_t)p[P_MDIMC] * p[P_NDIMC];
  if (items > info->max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: %s gives a workgroup of %zu work-items, above the device's "
                    "maximum of %zu",
                    origin, items, info->max_workgroup_size);
  if (matmul_local_bytes(p) > info->local_mem_bytes)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: %s gives %ux%u tiles needing %llu bytes of local memory, the "
                    "device has %llu",
                    origin, p[P_MWG], p[P_NWG], matmul_local_bytes(p),
                    (unsigned long long)info->local_mem_bytes);
  return OCF_SUCCESS;
}

/* Workgroups that tiles of MDIMC * MWI x NDIMC * NWI make of an m x n C. */
static size_t matmul_groups(const unsigned *set, size_t m, size_t n) {
  size_t mwg = (size_t)set[P_MDIMC] * set[P_MWI], nwg = (size_t)set[P_NDIMC] * set[P_NWI];
  return (m / mwg + (m % mwg != 0)) * (n / nwg + (n % nwg != 0));
}

/* The parameters for an m x n C on this device: every set of the device's row passes the
   validator (a bad table row fails every call, not only the shapes that pick it), then the
   row's rule picks a set, and the launch's workgroup override applies to it: a power of two
   laid out near-square (64 -> 8 x 8, 128 -> 16 x 8 along N x M, 32 -> 8 x 4), keeping the set's
   outputs per work-item. */
static ocf_status matmul_params(const ocf_context *ctx, const ocf_launch *launch, size_t m,
                                size_t n, unsigned p[MATMUL_PARAMS]) {
  const matmul_tuning *row = &matmul_table[ocf_tuning_match(
      &ctx->info, matmul_table, OCF_ARRAY_LEN(matmul_table), sizeof matmul_table[0])];
  char origin[192];
  ocf_status status;
  size_t chosen = 0,
         want = (size_t)row->fill * (ctx->info.compute_units ? ctx->info.compute_units : 1);
  int found = 0;
  for (size_t s = 0; s < MATMUL_MAX_SETS && row->sets[s][P_MDIMC] != 0; s++) {
    for (size_t i = 0; i < MATMUL_TUNABLES; i++)
      p[i] = row->sets[s][i];
    snprintf(origin, sizeof origin, "the tuning row for %s (set %zu)", ctx->info.device_name, s);
    if ((status = matmul_params_check(&ctx->info, p, origin)) != OCF_SUCCESS) return status;
    if (!found) chosen = s;
    found = found || matmul_groups(p, m, n) >= want;
  }
  for (size_t i = 0; i < MATMUL_TUNABLES; i++)
    p[i] = row->sets[chosen][i];
  size_t wg = launch ? launch->workgroup_size : 0;
  if (!wg) return matmul_params_check(&ctx->info, p, origin); /* fills the derived values */
  if ((wg & (wg - 1)) != 0 || wg > ((size_t)1 << 20))
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: workgroup size %zu is not a power of two (at most 2^20)", wg);
  unsigned log2 = 0;
  while (((size_t)1 << log2) < wg)
    log2++;
  p[P_NDIMC] = 1u << ((log2 + 1) / 2);
  p[P_MDIMC] = 1u << (log2 / 2);
  snprintf(origin, sizeof origin, "workgroup size %zu (%u x %u)", wg, p[P_NDIMC], p[P_MDIMC]);
  return matmul_params_check(&ctx->info, p, origin);
}

/* ---- ocf_matmul ---- */

/* The stored shape of A (or B) given its transpose: rows x cols. */
static void stored_shape(ocf_transpose trans, size_t inner, size_t outer, size_t *rows,
                         size_t *cols) {
  *rows = trans == OCF_TRANS ? inner : outer;
  *cols = trans == OCF_TRANS ? outer : inner;
}

ocf_status ocf_matmul(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                      size_t n, size_t k, float alpha, cl_mem a, size_t a_offset, size_t lda,
                      cl_mem b, size_t b_offset, size_t ldb, float beta, cl_mem c, size_t c_offset,
                      size_t ldc, const ocf_launch *launch) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul: ctx is NULL");
  if (!a || !b || !c)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul: buffer %s is NULL",
                    !a   ? "a"
                    : !b ? "b"
                         : "c");
  cl_command_queue queue = NULL;
  ocf_status status = ocf_check_launch(ctx, launch, &queue);
  if (status != OCF_SUCCESS) return status;
  if ((trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS) ||
      (trans_b != OCF_NO_TRANS && trans_b != OCF_TRANS))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul: trans_%s = %d is not an ocf_transpose",
                    trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS ? "a" : "b",
                    trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS ? (int)trans_a : (int)trans_b);

  /* A is m x k (k x m transposed), B is k x n (n x k transposed), C is m x n. */
  size_t a_rows, a_cols, b_rows, b_cols, a_extent, b_extent, c_extent;
  stored_shape(trans_a, k, m, &a_rows, &a_cols);
  stored_shape(trans_b, n, k, &b_rows, &b_cols);
  if ((status = ocf_matrix_extent("ocf_matmul: A", a_rows, a_cols, lda, &a_extent)) !=
          OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul: B", b_rows, b_cols, ldb, &b_extent)) !=
          OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul: C", m, n, ldc, &c_extent)) != OCF_SUCCESS)
    return status;
  if ((status = ocf_check_buffer(ctx, "a", a, a_offset, a_extent)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "b", b, b_offset, b_extent)) != OCF_SUCCESS ||
      (status = ocf_check_buffer(ctx, "c", c, c_offset, c_extent)) != OCF_SUCCESS)
    return status;
  int same_start = 0;
  if (ocf_ranges_overlap(c, c_offset, c_extent, a, a_offset, a_extent, &same_start))
    return ocf_fail(OCF_ERR_ALIASING, "ocf_matmul: C overlaps A");
  if (ocf_ranges_overlap(c, c_offset, c_extent, b, b_offset, b_extent, &same_start))
    return ocf_fail(OCF_ERR_ALIASING, "ocf_matmul: C overlaps B");

  unsigned p[MATMUL_PARAMS];
  if ((status = matmul_params(ctx, launch, m, n, p)) != OCF_SUCCESS) return status;
  if (m == 0 || n == 0) return ocf_dispatch_nothing(queue, launch);

  /* alpha == 0 or k == 0: C = beta * C, and A and B are not read (the K loop does not run). */
  size_t k_run = alpha == 0.0f ? 0 : k;
  float alpha_run = k_run == 0 ? 0.0f : alpha;

  /* The kernels' assumptions are in cl/matmul.cl's header. With aligned offsets and strides,
     whole tiles take the unguarded path: all of them (fast), or all but the edge tiles and the
     last K slice (mixed); misaligned ones take the general kernel. */
  ocf_variant variant = launch ? launch->variant : OCF_VARIANT_AUTO;
  const char *name = "matmul_tiled";
  int aligned = a_offset % 4 == 0 && b_offset % 4 == 0 && c_offset % 4 == 0 && lda % 4 == 0 &&
                ldb % 4 == 0 && ldc % 4 == 0;
  if (variant == OCF_VARIANT_BASELINE)
    name = "matmul_naive";
  else if (variant == OCF_VARIANT_AUTO && aligned)
    name = m % p[P_MWG] == 0 && n % p[P_NWG] == 0 && k_run % p[P_KWG] == 0 ? "matmul_tiled_fast"
                                                                           : "matmul_tiled_mixed";
  size_t local[2] = {p[P_NDIMC], p[P_MDIMC]}, global[2];
  if (variant == OCF_VARIANT_BASELINE) {
    global[0] = ocf_round_up(n, local[0]);
    global[1] = ocf_round_up(m, local[1]);
  } else {
    global[0] = (n / p[P_NWG] + (n % p[P_NWG] != 0)) * local[0];
    global[1] = (m / p[P_MWG] + (m % p[P_MWG] != 0)) * local[1];
  }

  char options[256];
  int used = 0;
  for (size_t i = 0; i < MATMUL_TUNABLES; i++)
    used +=
        snprintf(options + used, sizeof options - (size_t)used, "-D%s=%u ", param_names[i], p[i]);
  snprintf(options + used, sizeof options - (size_t)used, "-DTRANS_A=%d -DTRANS_B=%d",
           trans_a == OCF_TRANS, trans_b == OCF_TRANS);

  cl_ulong m_arg = m, n_arg = n, k_arg = k_run, a_off = a_offset, lda_arg = lda, b_off = b_offset,
           ldb_arg = ldb, c_off = c_offset, ldc_arg = ldc;
  const ocf_arg args[] = {OCF_ARG(m_arg), OCF_ARG(n_arg),   OCF_ARG(k_arg),   OCF_ARG(alpha_run),
                          OCF_ARG(a),     OCF_ARG(a_off),   OCF_ARG(lda_arg), OCF_ARG(b),
                          OCF_ARG(b_off), OCF_ARG(ldb_arg), OCF_ARG(beta),    OCF_ARG(c),
                          OCF_ARG(c_off), OCF_ARG(ldc_arg)};
  pthread_mutex_lock(&ctx->lock);
  cl_kernel kernel = NULL;
  status = ocf_kernel_get(ctx, OCF_PROGRAM_MATMUL, options, name, &kernel);
  if (status == OCF_SUCCESS) status = ocf_check_workgroup(ctx, kernel, 2, local);
  if (status == OCF_SUCCESS) status = ocf_set_args(kernel, args, OCF_ARRAY_LEN(args));
  if (status == OCF_SUCCESS) {
    cl_event chain = NULL;
    status = ocf_dispatch(queue, kernel, 2, global, local, launch, 1, 1, &chain);
  }
  pthread_mutex_unlock(&ctx->lock);
  return status;
}

/* ---- ocf_matmul_host ---- */

ocf_status ocf_matmul_host(ocf_context *ctx, ocf_transpose trans_a, ocf_transpose trans_b, size_t m,
                           size_t n, size_t k, float alpha, const float *a, size_t lda,
                           const float *b, size_t ldb, float beta, float *c, size_t ldc) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_host: ctx is NULL");
  if ((trans_a != OCF_NO_TRANS && trans_a != OCF_TRANS) ||
      (trans_b != OCF_NO_TRANS && trans_b != OCF_TRANS))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_matmul_host: a transpose is not an ocf_transpose");
  size_t a_rows, a_cols, b_rows, b_cols, a_extent, b_extent, c_extent;
  stored_shape(trans_a, k, m, &a_rows, &a_cols);
  stored_shape(trans_b, n, k, &b_rows, &b_cols);
  ocf_status status;
  if ((status = ocf_matrix_extent("ocf_matmul_host: A", a_rows, a_cols, lda, &a_extent)) !=
          OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul_host: B", b_rows, b_cols, ldb, &b_extent)) !=
          OCF_SUCCESS ||
      (status = ocf_matrix_extent("ocf_matmul_host: C", m, n, ldc, &c_extent)) != OCF_SUCCESS)
    return status;
  if ((a_extent && !a) || (b_extent && !b) || (c_extent && !c))
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_matmul_host: %s is NULL",
                    a_extent && !a   ? "a"
                    : b_extent && !b ? "b"
                                     : "c");
  if (c_extent == 0) return OCF_SUCCESS;

  /* C is read only when beta != 0; otherwise the device copy starts uninitialised and only the
     m x n elements are copied back, so the gaps between rows of the host array stay as they
     were. The device copy holds m whole rows of ldc (the host array's last row may be short):
     some drivers check a rectangle read against rows * row pitch. */
  if (m > SIZE_MAX / sizeof(float) / ldc)
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW, "ocf_matmul_host: C of %zu rows of %zu overflows", m,
                    ldc);
  cl_mem ab = NULL, bb = NULL, cb = NULL;
  status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, a_extent, a, &ab);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_READ_ONLY, b_extent, b, &bb);
  if (status == OCF_SUCCESS) status = ocf_host_buffer(ctx, CL_MEM_READ_WRITE, m * ldc, NULL, &cb);
  if (status == OCF_SUCCESS && beta != 0.0f) {
    cl_int err = clEnqueueWriteBuffer(ctx->queue, cb, CL_TRUE, 0, c_extent * sizeof(float), c, 0,
                                      NULL, NULL);
    if (err != CL_SUCCESS) status = ocf_fail_cl(err, "clEnqueueWriteBuffer");
  }
  if (status == OCF_SUCCESS)
    status = ocf_matmul(ctx, trans_a, trans_b, m, n, k, alpha, ab, 0, lda, bb, 0, ldb, beta, cb, 0,
                        ldc, NULL);
  if (status == OCF_SUCCESS) {
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {n * sizeof(float), m, 1};
    cl_int err =
        clEnqueueReadBufferRect(ctx->queue, cb, CL_TRUE, origin, origin, region,
                                ldc * sizeof(float), 0, ldc * sizeof(float), 0, c, 0, NULL, NULL);
    if (err != CL_SUCCESS) status = ocf_fail_cl(err, "clEnqueueReadBufferRect");
  }
  if (cb) clReleaseMemObject(cb);
  if (bb) clReleaseMemObject(bb);
  if (ab) clReleaseMemObject(ab);
  return status;
}
