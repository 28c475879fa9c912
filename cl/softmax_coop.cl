/*
 * softmax_coop.cl: a row's slices in several workgroups that exchange their (m, s)
 * (softmax_held.clh).
 *
 *   softmax_coop       a row cut into `parts` slices of part_vecs vectors, one workgroup each,
 *                      each holding its slice as softmax_resident does (part_vecs <= WG * (ITEMS +
 *                      LOCAL_ITEMS)): read once, written once. The workgroups of a row exchange
 *                      their (m, s) through `scratch` (see below for why it cannot deadlock).
 *                      Assumes out does not overlap in (so not in place); alignment as
 *                      softmax_rows.
 */

/* ---- tunables ---- */

/* softmax_coop: polls of a partner's slot before the workgroup computes the partner's (m, s)
   itself. */
#ifndef SPIN
#error "SPIN: the host passes every tunable (src/plan/plan_softmax.c)"
#endif

/*
 * Slot pair g of `scratch` (2 uints at 2 * g) holds the (m, s) of slice g = r * parts + p, each
 * stored as the bitwise NOT of the float's bits. The host zero-fills scratch, and 0 is never a
 * published value: ~0 would be the float 0xffffffff, a NaN, and m is never NaN (fmax ignores
 * NaN) while a NaN s is published as the canonical quiet NaN 0x7fc00000. A slot is written once
 * by atomic_cmpxchg from 0 (later writers of the same slot leave it be) and read by atomics, so
 * every reader sees one value per slot.
 *
 * Why it cannot deadlock, on any device, however many workgroups it runs at once: a workgroup
 * waits for a partner's slot at most SPIN polls; a partner that has not published by then is
 * not waited for any longer: the workgroup computes that slice's (m, s) itself from the input,
 * with the same code the partner runs (so the same bits, up to the partner's own rounding if its
 * compiled code differs), and publishes it for the others. Every loop is bounded and every
 * barrier is reached by the whole workgroup (the decisions are read from local memory after a
 * barrier). Out must not overlap in: a slow partner may already be writing its slice while a
 * workgroup reads that slice for its statistics.
 */
/* softmax_coop's pollers: the first work-items of the workgroup, at most a warp. */
#define POLLERS (WG < 32 ? WG : 32)

uint slot_read(__global uint *slot) {
  return atomic_or(slot, 0u);
}
int slots_published(__global uint *scratch, const ulong g) {
  return slot_read(scratch + 2 * g) != 0u && slot_read(scratch + 2 * g + 1) != 0u;
}
void slots_publish(__global uint *scratch, const ulong g, const float m, const float s) {
  atomic_cmpxchg(scratch + 2 * g, 0u, ~as_uint(m));
  mem_fence(CLK_GLOBAL_MEM_FENCE); /* m before s, where the device keeps the order (pollers
                                      watch s; readers still check both) */
  atomic_cmpxchg(scratch + 2 * g + 1, 0u, ~(isnan(s) ? 0x7fc00000u : as_uint(s)));
}

/* The (m, s) of slice p of a row, as the workgroup that owns it computes it (the held values are
   left in v and held); every work-item returns the pair in *pm, *ps and its own in *hm, *hs. */
void slice_stats(__global const in_real *src, const row_view *w, const ulong p,
                 const ulong part_vecs, heldV *v, __local heldV *held, __local float *lm,
                 __local float *ls, const float a, float *hm, float *hs, float *pm, float *ps) {
  const ulong first = p * part_vecs;
  held_load(src, first, max(w->lo, first * VW), min(w->mid, (first + part_vecs) * VW), v, held);
  held_stats(v, held, a, hm, hs);
  *pm = *hm;
  *ps = *hs;
  reduce_pair(lm, ls, pm, ps, a);
}

#ifdef OCF_KERNEL_softmax_coop
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
softmax_coop(const ulong rows, const ulong cols, __global const in_real *in, const ulong in_off,
             const ulong in_ld, __global out_real *out, const ulong out_off, const ulong out_ld,
             const float scale, MASK_PARAMS, const ulong parts, const ulong part_vecs,
             __global uint *scratch) {
  __local float lm[WG], ls[WG];
  __local int missing, unpublished;
  HELD_LOCAL(held);
  const uint lid = get_local_id(0);
  /* One slice a workgroup and no grid-stride loop: a workgroup never waits on one that only a
     later iteration of its own would reach. The host launches exactly rows * parts workgroups
     (and no early return guards it: PoCL 3.1 miscompiles a return that precedes barriers). */
  const ulong g = get_group_id(0), r = g / parts, p = g - r * parts;
  (void)rows;
  if (lid == 0) missing = 0;
  const ulong len = row_length(MASK_ARGS, r, cols);
  const ulong in_start = in_off + r * in_ld, out_start = out_off + r * out_ld;
  row_view w;
  view_at(&w, in_start, cols, len);
  __global const in_real *src = in + (in_start - w.lo);
  __global out_real *dst = out + (out_start - w.lo);
  __global uint *row_slots = scratch + 2 * r * parts;

  heldV v[ITEMS];
  float hm, hs, pm, ps;
  slice_stats(src, &w, p, part_vecs, v, held, lm, ls, scale, &hm, &hs, &pm, &ps);
  if (lid == 0) slots_publish(row_slots, p, pm, ps);

  /* Wait (boundedly) for the partners, SPIN polls a slot at most. A few pollers (a warp's
     worth) watch every slot between them, each polling the s word only, so that waiting
     workgroups keep their atomics off the memory system's back; reduce_pair's barriers have
     ordered `missing = 0` before any of them. */
  if (lid < POLLERS) {
    for (ulong q = lid; q < parts; q += POLLERS) {
      uint polls = 0;
      while (slot_read(row_slots + 2 * q + 1) == 0u && polls < SPIN)
        polls++;
      if (!slots_published(row_slots, q)) atomic_or(&missing, 1);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (missing) {
    /* Compute and publish every slice still unpublished, then hold our own slice again. */
    for (ulong q = 0; q < parts; q++) {
      if (lid == 0) unpublished = !slots_published(row_slots, q);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int help = unpublished;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (help) {
        float qhm, qhs, qm, qs;
        slice_stats(src, &w, q, part_vecs, v, held, lm, ls, scale, &qhm, &qhs, &qm, &qs);
        if (lid == 0) slots_publish(row_slots, q, qm, qs);
      }
    }
    slice_stats(src, &w, p, part_vecs, v, held, lm, ls, scale, &hm, &hs, &pm, &ps);
  }

  /* Every slot is published: the row's (m, s), the same in every workgroup of the row. */
  float m = -INFINITY, s = 0.0f;
  for (ulong q = lid; q < parts; q += WG)
    combine(&m, &s, as_float(~slot_read(row_slots + 2 * q)),
            as_float(~slot_read(row_slots + 2 * q + 1)), scale);
  reduce_pair(lm, ls, &m, &s, scale);
  const ulong first = p * part_vecs;
  held_store(dst, first, max(w.lo, first * VW), w.mid, min(w.hi, (first + part_vecs) * VW), v, held,
             hm, m, normaliser(m, s), scale);
}
#endif
