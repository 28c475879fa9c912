/* The plan of ocf_matmul: a tile set, the kernel of cl/matmul.cl, and the grid. */
#include "common.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* One tile set: the kernel's -D parameters, indexed by matmul_set_param. */
typedef struct tile_set {
  unsigned p[MM_SET_PARAMS];
} tile_set;

static size_t set_mwg(const tile_set *s) {
  return (size_t)s->p[MM_MDIMC] * s->p[MM_MWI];
}
static size_t set_nwg(const tile_set *s) {
  return (size_t)s->p[MM_NDIMC] * s->p[MM_NWI];
}

/* Bytes of local memory the tiled kernels declare: two buffers each of A and B slices. */
static size_t set_local_bytes(const tile_set *s) {
  size_t per_slice =
      (size_t)s->p[MM_KWG] * (set_mwg(s) + s->p[MM_PADA] + set_nwg(s) + s->p[MM_PADB]);
  return 2 * per_slice * sizeof(float);
}

/* Workgroups that the set's tiles make of an m x n C. */
static size_t set_groups(const tile_set *s, size_t m, size_t n) {
  return ocf_div_ceil(m ? m : 1, set_mwg(s)) * ocf_div_ceil(n ? n : 1, set_nwg(s));
}

/* Whether a set's work-item grid and local memory fit. */
static int set_fits(const tile_set *s, size_t limit, const size_t *item_sizes,
                    unsigned long long local_bytes) {
  return (size_t)s->p[MM_MDIMC] * s->p[MM_NDIMC] <= limit && s->p[MM_NDIMC] <= item_sizes[0] &&
         s->p[MM_MDIMC] <= item_sizes[1] && set_local_bytes(s) <= local_bytes;
}

/* Shrinks a set until it fits: fewer work-items, each taking over the outputs of the ones
   removed while its rows / columns stay at most 16 and its accumulators at most 256 (the tile
   keeps its size); past that the tile shrinks. The work-items halve along the larger of the two
   dimensions, N on a tie, unless the device's work-item sizes force the other one. Then
   shallower K slices, then smaller tiles for local memory. Every step keeps the tiling rules (whole
   vectors, tiles multiples of 4). Returns 0 when nothing fits (a device of less than 4 floats of
   local memory a work-item). */
static int set_fit(tile_set *s, size_t limit, const size_t *item_sizes,
                   unsigned long long local_bytes) {
  unsigned *p = s->p;
  while ((size_t)p[MM_MDIMC] * p[MM_NDIMC] > limit || p[MM_NDIMC] > item_sizes[0] ||
         p[MM_MDIMC] > item_sizes[1]) {
    int along_n =
        p[MM_NDIMC] > item_sizes[0] || (p[MM_NDIMC] >= p[MM_MDIMC] && p[MM_MDIMC] <= item_sizes[1]);
    if (along_n && p[MM_NDIMC] == 1) along_n = 0;
    if (!along_n && p[MM_MDIMC] == 1) return 0;
    unsigned *dim = along_n ? &p[MM_NDIMC] : &p[MM_MDIMC];
    unsigned *per_item = along_n ? &p[MM_NWI] : &p[MM_MWI];
    *dim /= 2;
    if (*per_item * 2 <= 16 && p[MM_MWI] * p[MM_NWI] * 2 <= 256) *per_item *= 2;
    /* A tile must stay a multiple of 4 along each side (its global loads come in fours). */
    if ((along_n ? set_nwg(s) : set_mwg(s)) % 4 != 0) return 0;
  }
  while (set_local_bytes(s) > local_bytes) {
    if (p[MM_KWG] > 4) {
      p[MM_KWG] /= 2;
      p[MM_KWG] -= p[MM_KWG] % 4;
    } else if (p[MM_PADA] || p[MM_PADB]) {
      p[MM_PADA] = p[MM_PADB] = 0;
    } else if (p[MM_MWI] >= 2 * p[MM_VWM] && set_mwg(s) / 2 % 4 == 0) {
      p[MM_MWI] /= 2;
    } else if (p[MM_NWI] >= 2 * p[MM_VWN] && set_nwg(s) / 2 % 4 == 0) {
      p[MM_NWI] /= 2;
    } else {
      return 0;
    }
  }
  return 1;
}

/* The workgroup the caller asked for, a power of two laid out near-square (64 -> 8 x 8,
   128 -> 16 x 8 along N x M, 32 -> 8 x 4), keeping the set's outputs per work-item. */
static ocf_status apply_fixed_workgroup(size_t wg, tile_set *s) {
  if (!ocf_is_pow2(wg) || wg > ((size_t)1 << 20))
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: workgroup size %zu is not a power of two (at most 2^20)", wg);
  unsigned log2 = 0;
  while (((size_t)1 << log2) < wg)
    log2++;
  s->p[MM_NDIMC] = 1u << ((log2 + 1) / 2);
  s->p[MM_MDIMC] = 1u << (log2 / 2);
  /* The same rules the tuning validator applies to a set. */
  ocf_tuning_values check;
  ocf_tuning_fallbacks(OCF_OP_MATMUL, &check);
  for (int i = 0; i < MM_SET_PARAMS; i++) {
    check.v[MM_SET(0, i)] = (int)s->p[i];
    check.v[MM_SET(1, i)] = check.v[MM_SET(2, i)] = 0;
  }
  char origin[96];
  snprintf(origin, sizeof origin, "ocf_matmul: workgroup size %zu (%u x %u)", wg, s->p[MM_NDIMC],
           s->p[MM_MDIMC]);
  ocf_status status = ocf_tuning_check(OCF_OP_MATMUL, &check, origin);
  return status == OCF_SUCCESS ? status : OCF_ERR_INVALID_WORKGROUP;
}

ocf_status ocf_plan_matmul(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                           const ocf_matmul_call *call, ocf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_MATMUL;
  plan->fixed_workgroup = call->workgroup != 0;
  const int *t = tuning->v;

  /* The tiled kernels share one body, so the lowest limit learnt for any of them applies. */
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_TILED);
  size_t fast = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_TILED_FAST);
  size_t mixed = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_TILED_MIXED);
  if (fast < limit) limit = fast;
  if (mixed < limit) limit = mixed;
  if (call->variant == OCF_VARIANT_BASELINE)
    limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_NAIVE);

  /* The first set in use that gives at least `fill` workgroups per compute unit, else the last;
     by default each set is first fitted to the device. */
  size_t want = (size_t)t[MM_FILL] * facts->compute_units;
  tile_set chosen;
  int found = 0, have = 0;
  for (int s = 0; s < MM_SETS && t[MM_SET(s, MM_MDIMC)] != 0; s++) {
    tile_set set;
    for (int i = 0; i < MM_SET_PARAMS; i++)
      set.p[i] = (unsigned)t[MM_SET(s, i)];
    if (!plan->fixed_workgroup &&
        !set_fits(&set, limit, facts->max_item_sizes, facts->local_mem_bytes) &&
        !set_fit(&set, limit, facts->max_item_sizes, facts->local_mem_bytes))
      continue;
    if (!found) {
      chosen = set;
      have = 1;
    }
    found = found || set_groups(&set, call->m, call->n) >= want;
  }
  if (!have)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "ocf_matmul: no tile set fits a workgroup of %zu work-items and %llu bytes "
                    "of local memory",
                    limit, facts->local_mem_bytes);
  if (plan->fixed_workgroup) {
    ocf_status status = apply_fixed_workgroup(call->workgroup, &chosen);
    if (status != OCF_SUCCESS) return status;
  }

  /* The kernels' assumptions are in cl/matmul.cl's header. With aligned offsets and strides,
     whole tiles take the unguarded path: all of them (fast), or all but the edge tiles and the
     last K slice (mixed); misaligned ones take the general kernel. */
  const unsigned *p = chosen.p;
  size_t mwg = set_mwg(&chosen), nwg = set_nwg(&chosen);
  int aligned = call->a_off % 4 == 0 && call->b_off % 4 == 0 && call->c_off % 4 == 0 &&
                call->lda % 4 == 0 && call->ldb % 4 == 0 && call->ldc % 4 == 0;
  ocf_kernel_id kernel = OCF_KERNEL_MATMUL_TILED;
  if (call->variant == OCF_VARIANT_BASELINE)
    kernel = OCF_KERNEL_MATMUL_NAIVE;
  else if (call->variant == OCF_VARIANT_AUTO && aligned)
    kernel = call->m % mwg == 0 && call->n % nwg == 0 && call->k % p[MM_KWG] == 0
                 ? OCF_KERNEL_MATMUL_TILED_FAST
                 : OCF_KERNEL_MATMUL_TILED_MIXED;
  size_t local[2] = {p[MM_NDIMC], p[MM_MDIMC]}, global[2];
  size_t m = call->m ? call->m : 1, n = call->n ? call->n : 1;
  if (kernel == OCF_KERNEL_MATMUL_NAIVE) {
    global[0] = ocf_round_up(n, local[0]);
    global[1] = ocf_round_up(m, local[1]);
  } else {
    global[0] = ocf_div_ceil(n, nwg) * local[0];
    global[1] = ocf_div_ceil(m, mwg) * local[1];
    plan->local_mem_bytes = set_local_bytes(&chosen);
  }

  static const char *const names[MM_SET_PARAMS] = {"MDIMC", "NDIMC", "MWI",  "NWI", "KWG",
                                                   "VWM",   "VWN",   "PADA", "PADB"};
  for (int i = 0; i < MM_SET_PARAMS; i++)
    ocf_plan_define(plan, names[i], p[i]);
  ocf_plan_define(plan, "TRANS_A", call->trans_a == OCF_TRANS);
  ocf_plan_define(plan, "TRANS_B", call->trans_b == OCF_TRANS);
  ocf_plan_step_add(plan, kernel, 2, global, local);
  return ocf_plan_verify(plan, facts);
}
