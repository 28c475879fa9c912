/*
 * The plan of ocf_matmul's matrix-unit variant, cl/matmul_mma_nv.cl (NVIDIA's tensor cores
 * through inline PTX mma.sync). The rules, in order:
 *
 *   1. It applies to a call the SIMT kernels would otherwise tile (not a skinny one: those stream
 *      at bandwidth already): the automatic variant with no fixed workgroup size, the `mma`
 *      tunable on, A and B both fp16 or both bf16, or both fp32 in TF32 or 3XTF32 (FP32 stays on
 *      the SIMT kernels, whose products are exact), m, n and k not 0, on an NVIDIA GPU of
 *      compute capability 8.0 or more whose probe has not failed.
 *   2. Tile set 0 unless its tiles over the whole batch give fewer than mma.fill workgroups per
 *      compute unit; then set 1. A set whose work-items exceed the device's or the kernel's
 *      learnt limit is passed over.
 *   3. The stages' local memory, STAGES (BM + BN) BK element bytes, is shrunk (fewer stages
 *      down to 2, then halved K slices down to the mma's k) while a probe showed it too much,
 *      or it is above what a probe can show (8 stages of 16 KiB). A plan is made only when a
 *      probe ran right with at least that much on this context (the device facts); otherwise
 *      the call gets the SIMT plan with `probe` set and the bytes to try: the op runs the probe
 *      (src/runtime/mma_probe.c) and plans again. The first probe is the capability probe too.
 *   4. Each operand's copy path by its alignment: 16-byte cp.async when its offset, leading
 *      dimension and (batched) stride are multiples of 16 bytes; 4-byte cp.async for fp32, or
 *      for 16-bit ones whose offset, leading dimension and stride are even; element by element
 *      otherwise.
 * A column-major call arrives with its operands swapped (src/ops/matmul.c), as for the SIMT
 * kernels. The planner is pure: the probe's outcome reaches it through the facts.
 */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

/* The most local memory the probe's geometry can show: 8 stages of a 128 x 128 x 32 bf16 tile. */
#define PROBE_STAGE_BYTES ((size_t)16 << 10)
#define PROBE_MAX_BYTES (8 * PROBE_STAGE_BYTES)

typedef struct mma_geometry {
  unsigned bm, bn, bk, wm, wn, stages;
} mma_geometry;

static size_t geometry_threads(const mma_geometry *g) {
  return 32 * (size_t)(g->bm / g->wm) * (g->bn / g->wn);
}

static size_t geometry_bytes(const mma_geometry *g, ocf_dtype dtype) {
  return (size_t)g->stages * (g->bm + g->bn) * g->bk * ocf_dtype_size(dtype);
}

/* The bytes a probe is asked to try for a plan of `bytes`: whole probe stages, at least two. */
static size_t probe_bytes_for(size_t bytes) {
  size_t rounded = ocf_round_up(bytes, PROBE_STAGE_BYTES);
  return rounded < 2 * PROBE_STAGE_BYTES ? 2 * PROBE_STAGE_BYTES : rounded;
}

int ocf_matmul_mma_applies(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                           const ocf_matmul_call *call) {
  const ocf_matmul_mma_tuning *t = &tuning->matmul.mma;
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup != 0 || t->on == 0) return 0;
  if (facts->vendor != OCF_VENDOR_NVIDIA || !(facts->type & CL_DEVICE_TYPE_GPU) ||
      facts->nv_compute_capability < 80 || facts->learnt.mma == OCF_PROBE_FAILED)
    return 0;
  if (call->a_dtype != call->b_dtype) return 0;
  if (call->a_dtype == OCF_F32 && call->precision != OCF_PRECISION_TF32 &&
      call->precision != OCF_PRECISION_3XTF32)
    return 0;
  return call->m > 0 && call->n > 0 && call->k > 0;
}

/* The copy path of one operand (rule 4). */
static int load_path(ocf_dtype dtype, size_t off, size_t ld, size_t stride, size_t batch) {
  const size_t chunk = 16 / ocf_dtype_size(dtype);
  const size_t s = batch > 1 ? stride : 0;
  if (off % chunk == 0 && ld % chunk == 0 && s % chunk == 0) return 16;
  if (dtype == OCF_F32 || (off % 2 == 0 && ld % 2 == 0 && s % 2 == 0)) return 4;
  return 0;
}

/* Rule 3's shrinking: fewer stages, then shallower slices, while the probes rule the size out.
   Returns 0 when nothing smaller is left. */
static int fit_local(const ocf_device_facts *facts, ocf_dtype dtype, mma_geometry *g) {
  const unsigned mma_k = dtype == OCF_F32 ? 8 : 16;
  for (;;) {
    const size_t want = probe_bytes_for(geometry_bytes(g, dtype));
    const int ruled_out =
        facts->learnt.mma_local_failed != 0 && want >= facts->learnt.mma_local_failed;
    if (!ruled_out && want <= PROBE_MAX_BYTES) return 1;
    if (g->stages > 2)
      g->stages--;
    else if (g->bk / 2 >= mma_k)
      g->bk /= 2;
    else
      return 0;
  }
}

static mma_geometry geometry_of(const ocf_matmul_mma_tuning *t, int set) {
  const ocf_matmul_mma_set *s = &t->set[set];
  mma_geometry g = {(unsigned)s->bm, (unsigned)s->bn, (unsigned)s->bk,
                    (unsigned)s->wm, (unsigned)s->wn, (unsigned)s->stages};
  return g;
}

/* The defines every plan of the program carries but the tile geometry. SPLIT3_PASSES and
   CP_L2_PREFETCH are the lab's (tools/lab/mma), not tunables yet: always 0 here. */
static void define_options(ocf_plan *plan, const ocf_matmul_mma_tuning *t) {
  ocf_plan_define(plan, "GROUP_M", t->group_m);
  ocf_plan_define(plan, "COPY_AT", t->copy_at);
  ocf_plan_define(plan, "INTERIOR_FAST", t->interior);
  ocf_plan_define(plan, "SPLIT3_PASSES", 0);
  ocf_plan_define(plan, "CP_L2_PREFETCH", 0);
}

static void define_geometry(ocf_plan *plan, const mma_geometry *g) {
  ocf_plan_define(plan, "BM", g->bm);
  ocf_plan_define(plan, "BN", g->bn);
  ocf_plan_define(plan, "BK", g->bk);
  ocf_plan_define(plan, "WM", g->wm);
  ocf_plan_define(plan, "WN", g->wn);
  ocf_plan_define(plan, "STAGES", g->stages);
}

/* One 1-D step of `groups` workgroups of the geometry's work-items. */
static void add_step(ocf_plan *plan, const mma_geometry *g, size_t groups) {
  const size_t local[1] = {geometry_threads(g)};
  const size_t global[1] = {groups * local[0]};
  ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_MMA, 1, global, local);
}

ocf_mma_outcome ocf_plan_matmul_mma(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                    const ocf_matmul_call *call, ocf_plan *plan,
                                    size_t *probe_bytes) {
  const ocf_matmul_mma_tuning *t = &tuning->matmul.mma;
  const size_t batch = call->batch ? call->batch : 1;
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_MMA);
  if (limit > facts->max_item_sizes[0]) limit = facts->max_item_sizes[0];

  /* Rule 2: set 0, or set 1 when set 0 leaves compute units idle; a set that fits. */
  mma_geometry chosen = {0, 0, 0, 0, 0, 0};
  size_t groups = 0;
  int have = 0;
  for (int s = 0; s < OCF_MATMUL_MMA_SETS; s++) {
    mma_geometry g = geometry_of(t, s);
    if (geometry_threads(&g) > limit) continue;
    size_t tiles = ocf_div_ceil(call->m, g.bm) * ocf_div_ceil(call->n, g.bn);
    chosen = g, groups = tiles * batch, have = 1;
    if (groups >= (size_t)t->fill * facts->compute_units) break;
  }
  /* Workgroup ids are 32-bit in the kernel (and NVIDIA grids stop at 2^31 - 1 blocks). */
  if (!have || groups > 0x7fffffffu) return OCF_MMA_NOT_APPLICABLE;

  /* Rule 3. */
  if (!fit_local(facts, call->a_dtype, &chosen)) return OCF_MMA_NOT_APPLICABLE;
  const size_t bytes = geometry_bytes(&chosen, call->a_dtype);
  if (facts->learnt.mma != OCF_PROBE_PASSED || bytes > facts->learnt.mma_local_ok) {
    *probe_bytes = probe_bytes_for(bytes);
    return OCF_MMA_PROBE;
  }

  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_MATMUL_MMA_NV;
  plan->splits = 1;
  plan->k_split = call->k;
  ocf_plan_define(plan, "AB_DTYPE", call->a_dtype);
  ocf_plan_define(plan, "C_DTYPE", call->c_dtype);
  /* The products of 16-bit inputs are exact: one program whatever the mode says. */
  ocf_plan_define(plan, "PRECISION", call->a_dtype == OCF_F32 ? call->precision : 0);
  ocf_plan_define(plan, "TRANS_A", call->trans_a == OCF_TRANS);
  ocf_plan_define(plan, "TRANS_B", call->trans_b == OCF_TRANS);
  define_geometry(plan, &chosen);
  ocf_plan_define(plan, "A_LOAD",
                  load_path(call->a_dtype, call->a_off, call->lda, call->stride_a, batch));
  ocf_plan_define(plan, "B_LOAD",
                  load_path(call->b_dtype, call->b_off, call->ldb, call->stride_b, batch));
  define_options(plan, t);
  ocf_plan_define(plan, "ACTIVATION", call->activation);
  ocf_plan_define(plan, "BIAS", (int)call->bias_axis);
  ocf_plan_define(plan, "BIAS_DTYPE", call->bias_dtype);
  add_step(plan, &chosen, groups);
  plan->local_mem_bytes = bytes;
  return ocf_plan_verify(plan, facts) == OCF_SUCCESS ? OCF_MMA_PLANNED : OCF_MMA_NOT_APPLICABLE;
}

ocf_status ocf_plan_matmul_mma_probe(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                     size_t bytes, size_t m, size_t n, ocf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  if (bytes < 2 * PROBE_STAGE_BYTES || bytes > PROBE_MAX_BYTES || bytes % PROBE_STAGE_BYTES)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "mma probe of %zu bytes (a library bug)", bytes);
  const mma_geometry g = {128, 128, 32, 64, 64, (unsigned)(bytes / PROBE_STAGE_BYTES)};
  plan->program = OCF_PROGRAM_MATMUL_MMA_NV;
  plan->is_probe = 1;
  plan->splits = 1;
  ocf_plan_define(plan, "AB_DTYPE", OCF_BF16);
  ocf_plan_define(plan, "C_DTYPE", OCF_F32);
  ocf_plan_define(plan, "PRECISION", 0);
  ocf_plan_define(plan, "TRANS_A", 0);
  ocf_plan_define(plan, "TRANS_B", 0);
  define_geometry(plan, &g);
  ocf_plan_define(plan, "A_LOAD", 16);
  ocf_plan_define(plan, "B_LOAD", 16);
  define_options(plan, &tuning->matmul.mma);
  ocf_plan_define(plan, "ACTIVATION", 0);
  ocf_plan_define(plan, "BIAS", 0);
  ocf_plan_define(plan, "BIAS_DTYPE", 0);
  add_step(plan, &g, ocf_div_ceil(m, g.bm) * ocf_div_ceil(n, g.bn));
  plan->local_mem_bytes = bytes;
  /* Verified against facts that take the probe's bytes as shown: finding out is the point. */
  ocf_device_facts assumed = *facts;
  assumed.learnt.mma_local_ok = bytes;
  return ocf_plan_verify(plan, &assumed);
}
