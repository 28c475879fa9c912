/*
 * The plan of ocf_softmax: which kernels, and their shapes. Each kernel family is a program of its
 * own (cl/softmax_rows.cl, softmax_resident.cl, softmax_coop.cl, softmax_split.cl,
 * softmax_general.cl; the benchmark's baselines/softmax_unfused.cl): the plan's program is its
 * first kernel's.
 *
 * The default variant, each number a named tunable (src/tuning/schema_softmax.c):
 *
 *   vector width   vw, or 1 when in's and out's rows sit at different places within a vector
 *                  ((in_off - out_off) or (in_ld - out_ld) not a multiple of vw); the budgets
 *                  below then count as many elements in vectors of 1.
 *   vecs           the vectors of vw a row touches: ceil(cols / vw), one more when rows may
 *                  start inside a vector (in_off or in_ld not a multiple of vw).
 *   1. softmax_rows, several rows a workgroup, when a row fits a segment of at most max_seg
 *      work-items with at most `items` vectors each: seg = ceil(vecs / seg_items) rounded up
 *      the size ladder (1 2 3 4 6 8 12 16 24 32 48 ...) and, past seg_align, to a multiple of
 *      it, capped at max_seg; then ceil(vecs / seg) vectors a work-item (on the ladder),
 *      rows_wg / seg rows a group (no more than there are rows, nor than the device's work-item
 *      size along dimension 1, where they lie). rows_groups_per_unit > 0 caps
 *      the grid at that many groups a compute unit (a persistent loop over the batches, whose
 *      loads overlap the reductions with `prefetch`). With rows.shuffle on an NVIDIA GPU the
 *      segment, as far as max_seg allows, is a power of two up to a warp of 32 or whole warps,
 *      and is reduced through warp shuffles (SHUFFLE: cl/warp_shuffle.clh) where the group is
 *      whole warps. With rows.whole_ends, out apart from in's span and rows that start or end
 *      inside vectors, a vector straddling a row's end is read in one access (WHOLE_ENDS).
 *      Rows that start and end on whole vectors of rows.aligned_vw (where set) take that width
 *      and rows.aligned_seg_items, those on whole vectors of vw only rows.whole_seg_items (where
 *      aligned_vw is not set, rows on whole vectors of vw take rows.aligned_seg_items), each
 *      where set and where it fills the segments as well. A work-item holds
 *      at most rows.items vectors (0: long_rows.items); rows longer than max_seg work-items
 *      hold that way take segments of up to rows.long_seg work-items, one row a workgroup,
 *      where it is set (choose_rows_long).
 *   2. Longer rows: one workgroup of wg_row work-items (a power of two from min_wg up to wg that
 *      holds the row in `items` vectors each) holds wg_row * (items + local_items) vectors, the
 *      local ones as far as local memory allows.
 *      - With coop_spin > 0 (and out not in place), a row that does not fit one workgroup, or
 *        rows too few to give compute_units * groups_per_unit workgroups, is cut into slices of
 *        wg workgroups that each hold theirs (softmax_coop): enough slices to hold the row, and
 *        for few rows enough to fill the device, but no slice under two vectors a work-item;
 *        with coop_items > 0, also enough that a work-item holds at most coop_items vectors;
 *        at most 1024 slices a row, and compute_units * coop_unit_slices where that is set
 *        (slices wait for each other, so must be resident together; more: the split or
 *        softmax_resident), each polled at most
 *        min(coop_spin, 2^21 / slices) times (COOP_MAX_PARTS, COOP_WAIT_POLLS), and on a
 *        device with a loop limit (llvmpipe) at most what keeps a work-item's loops within half
 *        of it (coop_spin_within_limit; none left: no softmax_coop, the split below instead).
 *      - Otherwise: softmax_resident (the part it cannot hold streamed twice, then with at most
 *        compute_units * groups_per_unit workgroups so the second pass finds it in cache), or,
 *        for rows too few to fill the device (below split_rows_pct % of its units), the
 *        two-kernel split (slices of at least four steps of its own unroll, split_unroll).
 *      - Local memory holds nothing in workgroups under 4 work-items, and a row of one or two
 *        work-items with scalar access is never held (PoCL 3.1 aborts on resident so shaped,
 *        and coop holds the same way): the split where rows are too few, else softmax_general.
 *
 *   3. rows.wide_wg > 0 (off by default): a plan of one workgroup a row (softmax_rows with one
 *      row a group, softmax_resident) gets that many work-items, beyond what its kernel reports,
 *      where the compiler caps registers and the context's wide probe passed (plan_wide).
 *
 * An output of wider elements than the input's narrows the vector (stored_vw).
 * fp16 vectors are converted as f16_cvt says (f16_conversion; cl/f16_words.clh).
 * bfloat16 output vectors are stored as bf16_cvt says (bf16_conversion; cl/bf16_words.clh).
 *
 * Kernel sizes that vary by shape (ITEMS, SEG, LOCAL_ITEMS) are rounded up the size ladder so
 * that a program serves many widths: every distinct set of defines is one program build.
 */
#include "common.h"
#include "plan/plan.h"

#include <string.h>

/* Bytes of local memory per work-item: softmax_rows declares four WG-float arrays, the others
   at most two (plus the held vectors of resident and coop, counted apart). */
enum { SOFTMAX_LOCAL_BYTES_PER_ITEM = 16, PAIR_BYTES_PER_ITEM = 8, COOP_FLAG_BYTES = 8 };

/* What softmax_coop may cost beyond its slices, whatever the tuning (a tunable's range must bound
   the work it can cause): a workgroup polls each partner's slot at most SPIN times, so at most
   parts * SPIN polls in all, which SPIN is cut to keep within COOP_WAIT_POLLS (coop_spin=2^24
   with 118 slices a row kept PoCL polling for minutes); and a workgroup that finds partners
   missing computes their slices itself, at worst the whole row, so a row has at most
   COOP_MAX_PARTS slices (more: the split, or softmax_resident streaming what it cannot hold). */
enum { COOP_WAIT_POLLS = 1 << 21, COOP_MAX_PARTS = 1024 };

/* softmax_coop's pollers a workgroup (POLLERS in cl/softmax_coop.cl: a warp's worth). */
enum { COOP_POLLERS = 32 };

/* SPIN within a driver's loop limit (facts->loop_limit, llvmpipe's 65535 iterations a work-item;
   0: none): a poller polls ceil(parts / pollers) slots SPIN times each, and a workgroup that
   finds partners missing computes every slice, each work-item `share` vectors a slice (a few
   loop steps more for its reductions), so polls get what half the limit leaves after that
   (SPIN 65536 on 2 x 30000, 30 slices, gave NaN rows on rusticl: the driver had ended the
   kernel's loops). 0: no SPIN fits, no softmax_coop. */
static size_t coop_spin_within_limit(const ocf_device_facts *facts, size_t spin, size_t parts,
                                     size_t wg, size_t share) {
  if (!facts->loop_limit) return spin;
  const size_t budget = (size_t)(facts->loop_limit / 2);
  const size_t work = parts * (share + 8);
  if (work >= budget) return 0;
  const size_t slots = ocf_div_ceil(parts, ocf_min_size(wg, COOP_POLLERS));
  return ocf_min_size(spin, (budget - work) / slots);
}

/* The tuning values a call works with: the resolved ones, with the caller's workgroup size in
   every size field when it fixed one, else each size capped at `cap`. */
static void call_tuning(const ocf_softmax_tuning *t, size_t fixed_wg, size_t cap, size_t *wg,
                        size_t *min_wg, size_t *rows_wg, size_t *long_seg) {
  if (fixed_wg) {
    *wg = *min_wg = *rows_wg = fixed_wg;
    *long_seg = 0;
    return;
  }
  *wg = ocf_min_size((size_t)t->long_rows.wg, cap);
  *min_wg = ocf_min_size((size_t)t->long_rows.min_wg, *wg);
  *rows_wg = ocf_min_size((size_t)t->rows.wg, cap);
  *long_seg = ocf_min_size((size_t)t->rows.long_seg, cap);
}

/* What one kernel choice fills in. */
typedef struct softmax_shape {
  ocf_kernel_id kernels[3];
  size_t count, wg, groups;
  size_t vw, items, local_items, unroll, seg, prefetch, spin;
  int packed;     /* PACKED: the held vectors are 16-bit storage bits */
  int shuffle;    /* SHUFFLE: softmax_rows reduces segments through warp shuffles */
  int whole_ends; /* WHOLE_ENDS: softmax_rows reads vectors straddling a row's ends whole */
} softmax_shape;

/* The budgets of the default variant, in vectors of the call's width. */
typedef struct budgets {
  size_t vw, vecs, items, local_items, seg_items, unroll, split_unroll, coop_items;
  size_t rows_items; /* softmax_rows's most vectors a work-item (rows.items, else items) */
  int packed;        /* rows, resident and coop hold the 16-bit input's bits (PACKED) */
  size_t held_bytes; /* bytes of one held vector, in registers or local memory */
  int straddles;     /* some vector straddles a row's start or end */
} budgets;

/* The tuning's vector width for the call: its entry is keyed by in's type and was measured with
   out as wide, so an output of wider elements (f16 -> f32) narrows the vector until out's stores
   are no wider than in's loads were tuned at (its budgets below keep the elements a work-item
   holds). Rows of 4096 f16 -> f32 on the H200 stored 16 floats a vector (64 bytes) at 2003 GB/s
   and ran at 2982 in vectors of 8 (2026-12-04). */
static size_t stored_vw(const size_t t_vw, const ocf_softmax_call *c) {
  const size_t in_size = ocf_dtype_size(c->in_dtype), out_size = ocf_dtype_size(c->out_dtype);
  size_t vw = t_vw;
  while (vw > 1 && vw * out_size > t_vw * in_size)
    vw /= 2;
  return vw;
}

/* The budgets of the call held as floats (packed 0) or as bits (1: the tuning's items; 2: twice
   its items, the registers of its floats); own_whole: those of rows on whole vectors where the
   tuning has them (rows.aligned_vw, rows.aligned_seg_items). */
static budgets budgets_of(const ocf_softmax_tuning *t, const ocf_softmax_call *c, int packed,
                          int own_whole) {
  budgets b;
  const size_t t_vw = (size_t)t->vw;
  /* Rows that start and end on whole vectors of rows.aligned_vw, in and out, take that width
     (and rows.aligned_seg_items in its vectors). */
  const size_t whole_vw =
      own_whole && t->rows.aligned_vw ? stored_vw((size_t)t->rows.aligned_vw, c) : 0;
  const int on_whole = whole_vw > 1 && c->in_off % whole_vw == 0 && c->in_ld % whole_vw == 0 &&
                       c->out_off % whole_vw == 0 && c->out_ld % whole_vw == 0 &&
                       c->cols % whole_vw == 0 && !c->has_lengths && !c->causal;
  b.vw = on_whole ? whole_vw : stored_vw(t_vw, c);
  if ((c->in_off + b.vw - c->out_off % b.vw) % b.vw != 0 ||
      (c->in_ld + b.vw - c->out_ld % b.vw) % b.vw != 0)
    b.vw = 1;
  const int starts_whole = c->in_off % b.vw == 0 && c->in_ld % b.vw == 0;
  const size_t cols = c->cols ? c->cols : 1;
  b.vecs = ocf_div_ceil(cols + (starts_whole ? 0 : b.vw - 1), b.vw);
  /* The registers a work-item holds are what its items cost: vw * items floats, or half as many
     words when a 16-bit input is held packed. A 16-bit call whose tuning asks for packed values
     but that runs in vectors of 1 (unpackable) holds half the elements, so that it needs the
     registers its tuning was measured with. */
  const int sixteen = ocf_dtype_size(c->in_dtype) == 2;
  b.packed = sixteen && packed && b.vw >= 2;
  const size_t share = sixteen && packed && !b.packed ? 2 : 1;
  const size_t twice = b.packed && packed == 2 ? 2 : 1;
  b.held_bytes = b.vw * (b.packed ? 2 : 4);
  b.items = ocf_max_size((size_t)t->long_rows.items * t_vw / b.vw / share, 1) * twice;
  b.local_items = (size_t)t->long_rows.local_items * t_vw / b.vw / share * twice;
  b.rows_items = t->rows.items
                     ? ocf_max_size((size_t)t->rows.items * t_vw / b.vw / share, 1) * twice
                     : b.items;
  /* A vector straddles a row's ends only where rows start or end inside vectors (offsets,
     strides, widths, lengths, the causal band). Rows on whole vectors take their own seg_items
     where the tuning gives one: rows.aligned_seg_items on whole vectors of rows.aligned_vw (or
     of the plan's width where that is not set), rows.whole_seg_items on whole vectors of the
     plan's width only. On the H200, bf16 rows of 1000 columns ran best one vector of 8 a lane
     and rows of 200 two (docs/SOFTMAX.md): no count of empty slots tells them apart. */
  b.straddles = b.vw > 1 && (c->in_off % b.vw || c->in_ld % b.vw || c->cols % b.vw ||
                             c->has_lengths || c->causal);
  int own_items = 0;
  if (own_whole && !b.straddles)
    own_items =
        on_whole || !t->rows.aligned_vw ? t->rows.aligned_seg_items : t->rows.whole_seg_items;
  const int seg_items = own_items ? own_items : t->rows.seg_items;
  const size_t seg_vw = on_whole ? (size_t)t->rows.aligned_vw : t_vw;
  b.seg_items = ocf_max_size((size_t)seg_items * seg_vw / b.vw, 1);
  b.unroll = ocf_min_size((size_t)t->long_rows.unroll * t_vw / b.vw, 16);
  const int split_unroll =
      t->long_rows.split_unroll ? t->long_rows.split_unroll : t->long_rows.unroll;
  b.split_unroll = ocf_min_size((size_t)split_unroll * t_vw / b.vw, 16);
  b.coop_items = (size_t)t->long_rows.coop_items * t_vw / b.vw / share * twice;
  return b;
}

/* The local memory softmax plans may count on: the least that any of the family's programs has
   been found to allow (a budget learnt from one kernel's build bounds them all, as when they
   were one program), at most the device's. */
static unsigned long long softmax_local_limit(const ocf_device_facts *facts) {
  static const ocf_program_id family[] = {
      OCF_PROGRAM_SOFTMAX_ROWS,  OCF_PROGRAM_SOFTMAX_RESIDENT, OCF_PROGRAM_SOFTMAX_COOP,
      OCF_PROGRAM_SOFTMAX_SPLIT, OCF_PROGRAM_SOFTMAX_GENERAL,  OCF_PROGRAM_SOFTMAX_BASELINE};
  unsigned long long limit = ocf_facts_local_limit(facts, family[0]);
  for (size_t i = 1; i < OCF_ARRAY_LEN(family); i++) {
    const unsigned long long other = ocf_facts_local_limit(facts, family[i]);
    if (other < limit) limit = other;
  }
  return limit;
}

/* Local vectors (of held_bytes each) a work-item may hold in a workgroup of wg next to the
   kernel's own arrays. None in workgroups of fewer than 4 work-items: there they would add
   little, and PoCL 3.1's compiler aborts on such kernels with scalar access. */
static size_t local_items_fit(const ocf_device_facts *facts, size_t wg, size_t held_bytes) {
  if (wg < 4) return 0;
  unsigned long long own = PAIR_BYTES_PER_ITEM * (unsigned long long)wg + COOP_FLAG_BYTES;
  const unsigned long long local = softmax_local_limit(facts);
  if (local <= own) return 0;
  return (size_t)((local - own) / ((unsigned long long)wg * held_bytes));
}

/* softmax_rows for the call, or 0 when its rows are too long for a segment. wide > 0: one row
   a workgroup of `wide` work-items (plan_wide), 0 when a row has fewer vectors. */
static int choose_rows(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                       const ocf_softmax_call *c, const budgets *b, size_t rows_wg, size_t wide,
                       softmax_shape *k) {
  const int fixed = c->workgroup != 0;
  if (wide && b->vecs < wide) return 0;
  size_t seg = wide ? wide : ocf_ladder_up(ocf_div_ceil(b->vecs, b->seg_items));
  const size_t align = (size_t)t->rows.seg_align;
  if (seg > align && !wide) seg = ocf_round_up(seg, align);
  /* The rows of a group lie along dimension 1, which some devices keep short (Apple's CPU: 1). */
  const size_t max_rows = facts->max_item_sizes[1];
  if (fixed) {
    /* The shortest segment at least this long that divides the caller's size, else one row a
       workgroup; long enough that the rows fit dimension 1. */
    seg = ocf_max_size(seg, ocf_div_ceil(c->workgroup, max_rows));
    while (seg < c->workgroup && c->workgroup % seg != 0)
      seg++;
    seg = ocf_min_size(seg, c->workgroup);
  } else if (!wide) {
    /* Past the longest segment, rows get more vectors a work-item (up to `items`). */
    const size_t longest = ocf_min_size((size_t)t->rows.max_seg, rows_wg);
    seg = ocf_min_size(seg, longest);
    /* Warp shuffles want a segment of a power of two work-items up to a warp, or whole warps
       (24 becomes 32, 48 becomes 64), as far as the longest segment allows. */
    const size_t whole = seg < 32 ? ocf_pow2_ceil(seg) : ocf_round_up(seg, 32);
    if (t->rows.shuffle && ocf_plan_warp_shuffles(facts, 32, whole) && whole <= longest)
      seg = whole;
  }
  const size_t items = ocf_ladder_up(ocf_div_ceil(b->vecs, seg));
  if (items > b->rows_items) return 0;
  size_t rows_per_group = wide    ? 1
                          : fixed ? c->workgroup / seg
                                  : ocf_min_size(rows_wg / seg, max_rows);
  /* No larger than the rows need, halving (not cutting to the row count) so that few sizes,
     and so few programs, serve every row count. */
  if (!fixed)
    while (rows_per_group % 2 == 0 && rows_per_group / 2 >= (c->rows ? c->rows : 1))
      rows_per_group /= 2;
  k->kernels[0] = OCF_KERNEL_SOFTMAX_ROWS;
  k->seg = seg;
  k->wg = seg * rows_per_group;
  k->items = items;
  k->prefetch = (size_t)t->rows.prefetch;
  k->shuffle = t->rows.shuffle && ocf_plan_warp_shuffles(facts, k->wg, seg);
  /* Whole reads only where vectors straddle rows' ends: elsewhere they would only cost (H200:
     32768 x 512 f16 2583 -> 2267 GB/s, 4096 x 4096 bf16 2456 -> 2352). */
  k->whole_ends = t->rows.whole_ends && !c->spans_meet && b->vw > 1 && b->straddles;
  const size_t batches = ocf_div_ceil(c->rows ? c->rows : 1, rows_per_group);
  const size_t persistent = (size_t)facts->compute_units * (size_t)t->rows.groups_per_unit;
  k->groups = persistent ? ocf_min_size(batches, persistent) : ocf_plan_grid_groups(facts, batches);
  return 1;
}

/* The registers and local vectors a work-item of a wg-group needs to hold `vecs` vectors:
   registers first (on the ladder, at most b->items), local memory for the rest (on the ladder
   too, at most local_max, which the caller made large enough). */
static void hold(const budgets *b, size_t vecs, size_t wg, size_t local_max, softmax_shape *k) {
  const size_t each = ocf_div_ceil(vecs, wg);
  if (each <= b->items) {
    k->items = ocf_min_size(ocf_ladder_up(each), b->items);
    k->local_items = 0;
  } else {
    k->items = b->items;
    k->local_items = ocf_min_size(ocf_ladder_up(each - b->items), local_max);
  }
}

/* Longer rows: softmax_resident, softmax_coop or the two-kernel split; one_row: only
   softmax_resident (plan_wide's). */
static void choose_long(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                        const ocf_softmax_call *c, const budgets *b, size_t wg_max, size_t min_wg,
                        int one_row, softmax_shape *k, ocf_plan *plan) {
  const int fixed = c->workgroup != 0;
  const size_t rows = c->rows ? c->rows : 1;
  const size_t target = (size_t)facts->compute_units * (size_t)t->long_rows.groups_per_unit;
  /* Rows are cut in slices only below split_rows_pct % of the compute units, where whole rows
     would leave units idle or run a ragged last wave, and then into as many as fill the target. */
  const size_t split_pct = t->long_rows.split_rows_pct ? (size_t)t->long_rows.split_rows_pct
                                                       : 100 * (size_t)t->long_rows.groups_per_unit;
  const size_t split_below = ocf_div_ceil((size_t)facts->compute_units * split_pct, 100);
  const size_t parts_fill = rows < target && rows < split_below ? ocf_div_ceil(target, rows) : 1;

  /* One workgroup a row: the smallest power of two from min_wg that holds it in registers. */
  size_t wg_row = wg_max;
  if (!fixed) {
    size_t floor = ocf_min_size(ocf_pow2_ceil(b->vecs), min_wg);
    wg_row = ocf_max_size(ocf_pow2_ceil(ocf_div_ceil(b->vecs, b->items)), floor);
    wg_row = ocf_min_size(wg_row, wg_max);
  }
  const size_t local_row =
      ocf_min_size(b->local_items, local_items_fit(facts, wg_row, b->held_bytes));
  const size_t row_cap = wg_row * (b->items + local_row);

  /* One or two work-items with scalar access hold no row: PoCL 3.1's compiler aborts on
     softmax_resident so shaped (below), and softmax_coop holds its slices with the same code.
     The split, or softmax_general, instead. */
  const int tiny_scalar = wg_max <= 2 && b->vw == 1;
  /* A wide plan (one_row) holds the row in one workgroup, or streams it (below). */
  if (!one_row && t->long_rows.coop_spin > 0 && !c->in_place && !tiny_scalar) {
    const size_t local_coop =
        ocf_min_size(b->local_items, local_items_fit(facts, wg_max, b->held_bytes));
    const size_t part_cap = wg_max * (b->items + local_coop);
    /* A row's slices wait for each other, so they must be resident together: at most
       coop_unit_slices a compute unit (the H200 ran a row of 528 slices, 4 a unit, at 3 GB/s
       and of 264 at 728: SOFTMAX.md, "Slices that wait"). */
    const size_t max_parts =
        t->long_rows.coop_unit_slices
            ? ocf_min_size(COOP_MAX_PARTS,
                           (size_t)facts->compute_units * (size_t)t->long_rows.coop_unit_slices)
            : COOP_MAX_PARTS;
    size_t parts = ocf_max_size(
        ocf_div_ceil(b->vecs, part_cap),
        ocf_min_size(max_parts, ocf_min_size(parts_fill, ocf_max_size(1, b->vecs / (2 * wg_max)))));
    /* coop_items: smaller slices, each work-item's share in registers, so that more
       workgroups of a row are resident at once (a row that fits one workgroup, above, still
       decides by items and local_items), as far as max_parts slices. */
    if (parts > 1 && parts <= max_parts && b->coop_items)
      parts = ocf_max_size(parts,
                           ocf_min_size(ocf_div_ceil(b->vecs, wg_max * b->coop_items), max_parts));
    const size_t part_vecs = parts ? ocf_div_ceil(b->vecs, parts) : 0;
    const size_t slices = part_vecs ? ocf_div_ceil(b->vecs, part_vecs) : 0;
    const size_t spin =
        parts > 1 && parts <= max_parts
            ? coop_spin_within_limit(
                  facts, ocf_min_size((size_t)t->long_rows.coop_spin, COOP_WAIT_POLLS / slices),
                  slices, wg_max, ocf_div_ceil(part_vecs, wg_max))
            : 0;
    /* Its arrival counters within a caller's workspace, else the split below. */
    if (spin > 0 &&
        slices <= ocf_scratch_ranges(&c->scratch_bound, 2 * rows * sizeof(cl_uint), 0)) {
      plan->part_vecs = part_vecs;
      plan->parts = slices;
      k->kernels[0] = OCF_KERNEL_SOFTMAX_COOP;
      k->wg = wg_max;
      hold(b, plan->part_vecs, wg_max, local_coop, k);
      k->spin = spin;
      k->groups = rows * plan->parts; /* one slice a workgroup, no grid-stride loop */
      plan->scratch_bytes = 2 * rows * plan->parts * sizeof(cl_uint);
      return;
    }
  }
  /* The split where softmax_coop is off or does not take the row (its slices too many to be
     resident together, or past a loop limit): a row left to one workgroup would stream alone. */
  if (!one_row) {
    const size_t step = wg_max * b->split_unroll;
    /* As many slices as a caller's workspace holds the statistics of, if fewer. */
    const size_t parts =
        ocf_min_size(ocf_min_size(parts_fill, b->vecs / (4 * step)),
                     ocf_scratch_ranges(&c->scratch_bound, 2 * rows * sizeof(float), 0));
    if (parts > 1) {
      plan->part_vecs = ocf_div_ceil(ocf_div_ceil(b->vecs, parts), step) * step;
      plan->parts = ocf_div_ceil(b->vecs, plan->part_vecs);
      k->kernels[0] = OCF_KERNEL_SOFTMAX_SPLIT_STATS;
      k->kernels[1] = OCF_KERNEL_SOFTMAX_SPLIT_WRITE;
      k->count = 2;
      k->wg = wg_max;
      k->unroll = b->split_unroll;
      k->groups = ocf_plan_grid_groups(facts, rows * plan->parts);
      plan->scratch_bytes = 2 * rows * plan->parts * sizeof(float);
      plan->scratch_written = 1; /* softmax_split_stats writes every slice's (m, s) */
      return;
    }
  }
  if (wg_row <= 2 && b->vw == 1) {
    /* One or two work-items a row with scalar access (a size the caller fixed): the reference
       kernel, whose speed is no worse there, as PoCL 3.1's compiler aborts on softmax_resident
       so shaped (with log-softmax, 16-bit output or local memory). */
    k->kernels[0] = OCF_KERNEL_SOFTMAX_GENERAL;
    k->wg = wg_row;
    k->groups = ocf_plan_grid_groups(facts, rows);
    return;
  }
  k->kernels[0] = OCF_KERNEL_SOFTMAX_RESIDENT;
  if (b->vecs <= row_cap) {
    k->wg = wg_row;
    hold(b, b->vecs, wg_row, local_row, k);
    k->groups = ocf_plan_grid_groups(facts, rows);
  } else {
    /* Held as far as it goes, the rest streamed twice: few rows in flight at once, so that
       the second pass finds the first one's reads in cache. */
    k->wg = wg_max;
    k->items = b->items;
    k->local_items = ocf_min_size(b->local_items, local_items_fit(facts, wg_max, b->held_bytes));
    k->groups = ocf_min_size(rows, ocf_max_size(target, 1));
  }
}

/* F16_CVT of a plan (cl/f16_words.clh): the tuning's choice where fp16 moves in vectors (vw > 1;
   only the vector kernels have vw > 1), else 0, so that calls it does not change share one
   program; 2 (inline PTX, cvt.rn.f16x2.f32) only on NVIDIA GPUs of compute capability 8.0 on, 1
   elsewhere. */
static int f16_conversion(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                          const ocf_softmax_call *c, size_t vw) {
  if (vw < 2 || (c->in_dtype != OCF_F16 && c->out_dtype != OCF_F16)) return 0;
  if (t->f16_cvt == 2 && (facts->vendor != OCF_VENDOR_NVIDIA ||
                          !(facts->type & CL_DEVICE_TYPE_GPU) || facts->nv_compute_capability < 80))
    return 1;
  return t->f16_cvt;
}

/* BF16_CVT of a plan (cl/bf16_words.clh): the tuning's choice where bfloat16 output moves in
   vectors (vw > 1), and only on NVIDIA GPUs of compute capability 8.0 on (inline PTX,
   cvt.rn.bf16x2.f32); else 0, so that calls it does not change share one program, and no other
   device ever builds the PTX (PoCL aborts the process on it). */
static int bf16_conversion(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                           const ocf_softmax_call *c, size_t vw) {
  if (vw < 2 || c->out_dtype != OCF_BF16 || facts->vendor != OCF_VENDOR_NVIDIA ||
      !(facts->type & CL_DEVICE_TYPE_GPU) || facts->nv_compute_capability < 80)
    return 0;
  return t->bf16_cvt;
}

/* How plan_wide asks choose for its plan. */
typedef enum wide_kind {
  WIDE_NONE = 0,
  WIDE_ROWS,    /* softmax_rows, one row a workgroup of wg_max */
  WIDE_RESIDENT /* softmax_resident, one row a workgroup (wg_max where the row fills it) */
} wide_kind;

/* How a plan holds its rows, worst first: streamed (softmax_resident past what it holds, the
   split), held in slices (softmax_coop), whole in one workgroup (softmax_resident), in
   softmax_rows (several rows a workgroup, or one). */
enum { HELD_STREAMED, HELD_IN_SLICES, HELD_WHOLE, HELD_IN_ROWS };

/* softmax_rows under budgets *b or, for rows on whole vectors, under their own (budgets_of's
   aligned ones), whichever leaves fewer of its segments' vector slots empty (ties: the
   aligned): vectors of 16 a lane won bf16 rows of 512, 1024 and 2048 columns (+15-35 %, H200,
   2026-12-04) and lost those of 640 and 768, whose 40 and 48 vectors leave a warp-shuffled
   segment of 64 lanes a third and a quarter empty. *b becomes the budgets taken. */
static int choose_rows_either(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                              const ocf_softmax_call *c, int packed, budgets *b, size_t rows_wg,
                              softmax_shape *k) {
  softmax_shape plain = *k;
  const int plain_ok = choose_rows(facts, t, c, b, rows_wg, 0, &plain);
  const budgets a = budgets_of(t, c, packed, 1);
  if (a.vw != b->vw || a.seg_items != b->seg_items) {
    softmax_shape own = *k;
    own.vw = a.vw;
    own.unroll = a.unroll;
    if (choose_rows(facts, t, c, &a, rows_wg, 0, &own) &&
        (!plain_ok || a.vecs * plain.seg * plain.items >= b->vecs * own.seg * own.items)) {
      *k = own;
      *b = a;
      return 1;
    }
  }
  if (plain_ok) *k = plain;
  return plain_ok;
}

/* softmax_rows in segments of up to long_seg work-items (rows.long_seg), one row a workgroup,
   for rows that rows.max_seg work-items cannot hold: on the H200, fp32 rows of 16385 to 32768
   columns held in 128 work-items of 48 float4 each (the long class's items) ran at 1374-1633
   GB/s, in 256 of 24 at 2444-3096, and rows of 30522 and 32768 in 256 of 32 beat
   softmax_resident (3170 and 3307 against 2897 and 3046; docs/SOFTMAX.md). */
static int choose_rows_long(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                            const ocf_softmax_call *c, const budgets *b, size_t long_seg,
                            softmax_shape *k) {
  if (long_seg <= (size_t)t->rows.max_seg) return 0;
  ocf_softmax_tuning longer = *t;
  longer.rows.max_seg = (int)long_seg;
  return choose_rows(facts, &longer, c, b, long_seg, 0, k);
}

/* The default variant's kernels for the call held as `packed` says (budgets_of), into *k and
 *plan; returns how they hold its rows. */
static int choose_auto(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                       const ocf_softmax_call *c, int packed, size_t wg_max, size_t min_wg,
                       size_t rows_wg, size_t long_seg, wide_kind wide, softmax_shape *k,
                       ocf_plan *plan) {
  budgets b = budgets_of(t, c, packed, 0);
  k->vw = b.vw;
  k->unroll = b.unroll;
  int rows = 0;
  if (wide == WIDE_ROWS)
    rows = choose_rows(facts, t, c, &b, rows_wg, wg_max, k);
  else if (wide == WIDE_RESIDENT ||
           !(rows = choose_rows_either(facts, t, c, packed, &b, rows_wg, k) ||
                    choose_rows_long(facts, t, c, &b, long_seg, k)))
    choose_long(facts, t, c, &b, wg_max, min_wg, wide == WIDE_RESIDENT, k, plan);
  /* Only the kernels that hold rows read PACKED (the others then share one program). */
  const ocf_kernel_id first = k->kernels[0];
  k->packed =
      b.packed && (first == OCF_KERNEL_SOFTMAX_ROWS || first == OCF_KERNEL_SOFTMAX_RESIDENT ||
                   first == OCF_KERNEL_SOFTMAX_COOP);
  if (rows || first == OCF_KERNEL_SOFTMAX_ROWS) return HELD_IN_ROWS;
  if (first == OCF_KERNEL_SOFTMAX_COOP) return HELD_IN_SLICES;
  if (first == OCF_KERNEL_SOFTMAX_RESIDENT && plan->parts <= 1 &&
      b.vecs <= k->wg * (k->items + k->local_items))
    return HELD_WHOLE;
  return HELD_STREAMED;
}

/* Picks the kernels for a call under sizes wg_max / min_wg / rows_wg. */
static void choose(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                   const ocf_softmax_call *c, size_t wg_max, size_t min_wg, size_t rows_wg,
                   size_t long_seg, wide_kind wide, ocf_plan *plan) {
  softmax_shape k;
  memset(&k, 0, sizeof k);
  k.kernels[0] = OCF_KERNEL_SOFTMAX_GENERAL;
  k.count = 1;
  k.wg = wg_max;
  k.groups = ocf_plan_grid_groups(facts, c->rows);
  k.vw = k.items = k.seg = k.unroll = 1;

  if (c->variant == OCF_VARIANT_BASELINE) {
    k.kernels[0] = OCF_KERNEL_SOFTMAX_BASE_MAX;
    k.kernels[1] = OCF_KERNEL_SOFTMAX_BASE_EXP_SUM;
    k.kernels[2] = OCF_KERNEL_SOFTMAX_BASE_DIVIDE;
    k.count = 3;
    /* The row max and sum, then exp(t) of every element (dense rows): out is written only by
       the last kernel. rows * cols fits (in's checked extent is at least that), and so do two
       floats more a row. */
    plan->scratch_bytes = (2 * c->rows + c->rows * c->cols) * sizeof(float);
    if (plan->scratch_bytes == 0) plan->scratch_bytes = sizeof(float);
    plan->scratch_written = 1; /* each kernel writes what the next reads (exps only where read) */
  } else if (c->variant == OCF_VARIANT_AUTO) {
    const softmax_shape start = k;
    const ocf_plan before = *plan;
    const int packed = t->packed == 2 ? 0 : t->packed;
    const int held =
        choose_auto(facts, t, c, packed, wg_max, min_wg, rows_wg, long_seg, wide, &k, plan);
    if (t->packed == 2 && held < HELD_IN_ROWS) {
      /* packed 2: the bits instead, where they hold the row in a better way (unchanged
         otherwise, so that the 16-bit rows floats hold well keep their program). */
      softmax_shape bits = start;
      ocf_plan bits_plan = before;
      if (choose_auto(facts, t, c, 2, wg_max, min_wg, rows_wg, long_seg, wide, &bits, &bits_plan) >
          held) {
        k = bits;
        *plan = bits_plan;
      }
    }
  }
  if (plan->parts == 0) plan->parts = 1;

  ocf_plan_define(plan, "WG", (long long)k.wg);
  ocf_plan_define(plan, "VW", (long long)k.vw);
  ocf_plan_define(plan, "ITEMS", (long long)k.items);
  ocf_plan_define(plan, "LOCAL_ITEMS", (long long)k.local_items);
  ocf_plan_define(plan, "UNROLL", (long long)k.unroll);
  ocf_plan_define(plan, "SEG", (long long)k.seg);
  ocf_plan_define(plan, "PREFETCH", (long long)k.prefetch);
  ocf_plan_define(plan, "SPIN", (long long)k.spin);
  ocf_plan_define(plan, "PACKED", k.packed);
  ocf_plan_define(plan, "SHUFFLE", k.shuffle);
  ocf_plan_define(plan, "WHOLE_ENDS", k.whole_ends);
  ocf_plan_define(plan, "F16_CVT", f16_conversion(facts, t, c, k.vw));
  ocf_plan_define(plan, "BF16_CVT", bf16_conversion(facts, t, c, k.vw));
  ocf_plan_define(plan, "IN_DTYPE", c->in_dtype);
  ocf_plan_define(plan, "OUT_DTYPE", c->out_dtype);
  ocf_plan_define(plan, "LOG", c->log ? 1 : 0);
  ocf_plan_define(plan, "HAS_LENGTHS", c->has_lengths ? 1 : 0);
  ocf_plan_define(plan, "CAUSAL", c->causal ? 1 : 0);
  if (k.kernels[0] == OCF_KERNEL_SOFTMAX_ROWS) {
    /* A 2-D workgroup: lanes of a row along dimension 0, its rows along dimension 1. */
    const size_t global[2] = {k.seg, k.groups * (k.wg / k.seg)}, local[2] = {k.seg, k.wg / k.seg};
    ocf_plan_step_add(plan, k.kernels[0], 2, global, local);
  } else {
    size_t global = k.groups * k.wg;
    for (size_t s = 0; s < k.count; s++)
      ocf_plan_step_add(plan, k.kernels[s], 1, &global, &k.wg);
  }

  /* The largest local memory of the plan's kernels: softmax_rows's four arrays, the held
     vectors of resident and coop next to their pair arrays, two arrays elsewhere. */
  const ocf_kernel_id first = k.kernels[0];
  if (first == OCF_KERNEL_SOFTMAX_ROWS)
    plan->local_mem_bytes = SOFTMAX_LOCAL_BYTES_PER_ITEM * k.wg;
  else if (first == OCF_KERNEL_SOFTMAX_RESIDENT || first == OCF_KERNEL_SOFTMAX_COOP)
    plan->local_mem_bytes = PAIR_BYTES_PER_ITEM * k.wg + COOP_FLAG_BYTES +
                            (k.packed ? 2 : 4) * k.vw * (k.local_items ? k.local_items * k.wg : 1);
  else
    plan->local_mem_bytes = PAIR_BYTES_PER_ITEM * k.wg;
}

/* Whether a plan is one workgroup a row: softmax_resident, or softmax_rows with one row a
   group (its segment the whole workgroup). */
static wide_kind one_row_plan(const ocf_plan *plan) {
  const ocf_plan_step *first = &plan->steps[0];
  if (plan->step_count != 1) return WIDE_NONE;
  if (first->kernel == OCF_KERNEL_SOFTMAX_RESIDENT) return WIDE_RESIDENT;
  if (first->kernel == OCF_KERNEL_SOFTMAX_ROWS && first->dims == 2 && first->local[1] == 1)
    return WIDE_ROWS;
  return WIDE_NONE;
}

/* The wide plan (rows.wide_wg): a call whose plan is one workgroup a row (one_row_plan) gets
   that many work-items a row instead, beyond what the kernel reports (NVIDIA: 256 for every
   kernel), up to the device's maximum `cap`, once the wide probe passed on the context
   (src/runtime/wide_probe.c). The registers are capped so that the workgroup fits a compute
   unit (ocf_wide_register_cap: 128 at 512, 64 at 1024) and a work-item holds at most half of
   them as row values (the rest: addresses, loop and reduction state), so `items` shrinks to
   fit. softmax_rows then spreads the row over the whole workgroup (a row of fewer vectors than
   work-items keeps its plan: lanes would idle); softmax_resident holds it, in local memory too,
   or streams what it cannot hold, as ever, but is never cut into softmax_coop's or the split's
   slices. 1: *plan is replaced. */
static int plan_wide(const ocf_device_facts *facts, const ocf_softmax_tuning *t,
                     const ocf_softmax_call *c, size_t cap, ocf_plan *plan) {
  const wide_kind kind = one_row_plan(plan);
  const ocf_plan_step *first = &plan->steps[0];
  const size_t wide = ocf_min_size((size_t)t->rows.wide_wg, cap);
  if (kind == WIDE_NONE || wide <= first->local[0] * first->local[1]) return 0;
  const unsigned regs = facts->nv_compiler_options ? ocf_wide_register_cap(wide) : 0;
  if (!ocf_facts_wide_allows(facts, first->kernel, wide, regs)) return 0;
  ocf_softmax_tuning w = *t;
  w.long_rows.wg = w.long_rows.min_wg = (int)wide;
  if (regs) {
    /* Words one vector of the tuning's width holds: vw floats, or half as many words packed
       (packed 2 plans floats first, and its bits in twice their items: the floats' registers). */
    const int packed = ocf_dtype_size(c->in_dtype) == 2 && t->packed == 1 && t->vw >= 2;
    const unsigned words = packed ? (unsigned)t->vw / 2 : (unsigned)t->vw;
    /* softmax_rows prefetching holds its next row's vectors too. */
    const unsigned copies = kind == WIDE_ROWS && t->rows.prefetch ? 2 : 1;
    const unsigned held = regs / 2 / words / copies;
    if (held < (unsigned)w.long_rows.items) w.long_rows.items = held ? (int)held : 1;
    if (held < (unsigned)w.rows.items) w.rows.items = held ? (int)held : 1;
  }
  ocf_plan wide_plan;
  memset(&wide_plan, 0, sizeof wide_plan);
  size_t wg, min_wg, rows_wg, long_seg;
  call_tuning(&w, 0, wide, &wg, &min_wg, &rows_wg, &long_seg);
  choose(facts, &w, c, wide, min_wg, rows_wg, 0, kind, &wide_plan);
  /* Still one row a workgroup of the same kernel, and as wide as asked. */
  const ocf_plan_step *step = &wide_plan.steps[0];
  if (one_row_plan(&wide_plan) != kind || step->local[0] * step->local[1] != wide) return 0;
  wide_plan.program = ocf_kernel_desc_get(step->kernel)->program;
  wide_plan.wide_workgroup = 1;
  wide_plan.max_registers = regs;
  *plan = wide_plan;
  return 1;
}

ocf_status ocf_plan_softmax(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_softmax_call *call, ocf_plan *plan) {
  const ocf_softmax_tuning *t = &tuning->softmax;
  /* A fixed size above the device's maximum is refused before anything is planned: the
     segment search of softmax_rows (choose_rows) steps through the sizes up to the caller's,
     so this bounds its trip count by the device's maximum (SIZE_MAX took hours). */
  if (call->workgroup > facts->max_workgroup_size)
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "workgroup of %zu work-items exceeds the device's maximum of %zu",
                    call->workgroup, facts->max_workgroup_size);
  /* A default size fits the device (workgroup, work-item and local memory limits) and the
     limits learnt from built kernels: plan, and while a chosen kernel is known to accept fewer
     work-items than planned, plan again under that limit (each round lowers the cap). */
  size_t cap = facts->max_workgroup_size;
  if (cap > facts->max_item_sizes[0]) cap = facts->max_item_sizes[0];
  size_t local_cap = (size_t)(softmax_local_limit(facts) / SOFTMAX_LOCAL_BYTES_PER_ITEM);
  if (local_cap >= 1 && cap > local_cap) cap = local_cap;
  const size_t device_cap = cap; /* before the kernels' learnt limits: the wide plans' bound */
  for (int round = 0; round < 8; round++) {
    memset(plan, 0, sizeof *plan);
    plan->fixed_workgroup = call->workgroup != 0;
    size_t wg, min_wg, rows_wg, long_seg;
    call_tuning(t, call->workgroup, cap, &wg, &min_wg, &rows_wg, &long_seg);
    choose(facts, t, call, wg, min_wg, rows_wg, long_seg, WIDE_NONE, plan);
    plan->program = ocf_kernel_desc_get(plan->steps[0].kernel)->program;
    if (plan->fixed_workgroup) break;
    const size_t lowest = ocf_plan_steps_limit(facts, plan, cap);
    const ocf_plan_step *first = &plan->steps[0];
    if (first->local[0] * first->local[1] * first->local[2] <= lowest) break;
    cap = lowest;
  }
  /* The wide plan where the tuning asks for one and the compiler can cap registers (else no
     workgroup is known to fit beyond the reported limit); the probe first. */
  if (t->rows.wide_wg > 0 && !plan->fixed_workgroup && call->variant == OCF_VARIANT_AUTO &&
      (facts->nv_compiler_options || facts->wide_without_register_cap) &&
      one_row_plan(plan) != WIDE_NONE &&
      ocf_min_size((size_t)t->rows.wide_wg, device_cap) >
          plan->steps[0].local[0] * plan->steps[0].local[1]) {
    if (facts->learnt.wide == OCF_PROBE_UNKNOWN)
      plan->probe = OCF_PLAN_PROBE_WIDE;
    else
      plan_wide(facts, t, call, device_cap, plan);
  }
  return ocf_plan_verify(plan, facts);
}
