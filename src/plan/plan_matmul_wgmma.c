/*
 * The plan of ocf_matmul's Hopper variant, cl/matmul_wgmma_nv.cl (warpgroup MMA, wgmma, through
 * inline PTX retargeted to sm_90a). Tried before the mma.sync kernel (plan_matmul_mma.c); the
 * rules, in order:
 *
 *   1. It applies to a call the mma.sync kernel would otherwise take where that kernel's own
 *      gate holds (the automatic variant, no fixed workgroup, the `mma` tunable on, an NVIDIA
 *      GPU) and the `wg` tunable is on, on compute capability 9.0 exactly (sm_90a code runs on
 *      nothing else), whose wgmma probe has not failed, for:
 *        - A and B both fp16 or both bf16, or both fp32 in TF32 (3XTF32 and FP32 stay where
 *          they were);
 *        - A stored m x k (not transposed); B stored k x n (16-bit only: the wgmma transpose
 *          bit) or n x k (the only B of TF32);
 *        - A's and B's offset, leading dimension and (batched) stride multiples of 16 bytes
 *          (8 elements at 16 bits, 4 at fp32): every cp.async chunk starts on a whole 16 bytes;
 *        - any C type, bias and activation (the epilogue of every matmul kernel);
 *        - m, n and k not 0 (any value otherwise: edge chunks copy their valid bytes and zeros),
 *          the grid of tiles x batch below 2^31 workgroups, its work-items within the device's
 *          and the kernel's learnt workgroup limit.
 *      Every other call goes on to the mma.sync kernel, then the SIMT kernels.
 *   2. The tile and ring from the tuning (wg.bn, wg.consumers, wg.stages, wg.group_m); three
 *      consumers (192-row tiles, the TMA-fed form only: ocf_wgmma_plan_consumers plans again
 *      with two wherever a step would not be TMA-fed) where m > 128 and their waves cost at most
 *      5 % more than two's, each count in the width it would run (with stream-K, wgmma.persist
 *      2, two's last wave a piece of a tile long instead: take_consumers), fewer stages while
 *      their ring is past 227 KiB; where wgmma.one_consumer is set, one consumer (tiles of 64
 *      rows) for a call of at most 64 consumers rows whose 64-row tiles x batch make one wave
 *      and either m <= 64 or they fill two thirds of the compute units (take_one_consumer).
 *      Tiles of 128 columns instead for a whole-K call where those still make at most one
 *      workgroup per compute unit (tiles x batch), in three consumers where the tuning asks
 *      for three and only theirs fit (take_one_wave; wgmma.one_wave 0: calls of one tile row
 *      only, m at most 64 consumers): m 128, n 8192 on the H200 gets 64 workgroups instead of
 *      32, bf16 1024^3 64 instead of 32, and one wave stays one wave, of narrower tiles. A
 *      whole-K call of more tiles than compute units, where wgmma.wave_bn is set, takes that width
 *      (in wgmma.wave_stages) instead where its waves cost 5 % less, a wave of one workgroup
 *      a unit costing its tile width: bf16 3072^3 is 288 tiles of 256 columns on the H200's
 *      132 units (3 waves for 2.18 of work, 768) or 384 of 192 (3 waves for 2.91, 576), and
 *      4096^3 keeps 256 (4 waves, 1024, against 6 of 192, 1152). Its static local memory,
 *      stages (64 consumers + bn) 128 + 1024 bytes, must be at most what the probe ran right
 *      with: fewer stages (down to 3) while it is more, else rule 1 fails; the probe runs the
 *      larger of the two rings.
 *   3. Until the probe has run (facts->learnt.wgmma unknown) the call gets the next plan (mma.sync
 * or SIMT) with `probe` set to OCF_PLAN_PROBE_WGMMA: the op runs the probe
 *      (src/runtime/wgmma_probe.c) and plans again.
 *   4. Staged plans: an fp32 call in 3XTF32, or in TF32 that rule 1 leaves (B stored k x n, A
 *      stored k x m or off 16-byte chunks), on the same device gates (the automatic variant, no
 *      fixed workgroup, mma and wg on, NVIDIA 9.0, probe not failed, not `no_staging`), m, n, k
 *      not 0 and m n k batch at least wgmma.stage_min^3 for 3XTF32, wgmma.tf32_stage_min^3 for
 *      TF32 (the tunables, 0: never; below them the staging pass costs more than the faster
 *      multiply saves, and TF32's pass, a third of 3XTF32's, pays from fewer products), runs two
 *      steps: matmul_stage (cl/matmul_stage.cl, a program of its own) writes B' (n rows a
 *      product) and, for 3XTF32 or an A rule 1 cannot read, A' (m rows) as K-major rows of
 *      staged_ld = K' rounded up to 4 floats into the scratch, K' = 3k (3XTF32's [small, big,
 *      big] . [big, small, big]) or k;
 *      then matmul_wgmma_sb (A as it lies) or matmul_wgmma_sab (A') runs the wgmma kernel with
 *      TRANS_B 1 over K', the tile and ring of rule 2 for m x n. The scratch, batch (m + n) or
 *      batch n rows of staged_ld floats, must fit an eighth of the device's memory, one
 *      allocation (facts without either: no staging) and the caller's workspace where one is
 *      given; else the call goes on to mma.sync. Nothing reads scratch the staging did not
 *      write, so it is not zeroed (scratch_written).
 *      16-bit A and B take two steps too, before rule 1, where wgmma.align_rows is set, m is
 *      at least align_rows and m n k batch at least align_rows^3, and either B's rows lie off
 *      64-byte steps of 128-byte lines (offset, ldb or batch stride not a multiple of 32
 *      values: each 128 bytes of a K slice then spans two lines at a bad phase, and the kernel
 *      ran bf16 4096^3 with ldb 4104 at 527 TFLOP/s against 706 on the H200; with
 *      wgmma.tma 2 and the TMA probes passed such rows stay where they are: rule 7 reads them;
 *      with wgmma.tma 1 and wgmma.sector_rows, those on 32-byte steps stay: tma_reads_in_place)
 *      or rule 1 cannot read the call (A or B off 16-byte chunks, A transposed); such a
 *      call would run on mma.sync, so it takes the gate of wgmma.unread_rows instead where
 *      that is set. With A stored m x k, matmul_pad (PAD_DTYPE) copies B as stored, and A where
 *      it is off chunks, bit for bit into rows of their length rounded up to 64 values
 *      (pad_ldb, pad_lda; the rows the matrix's own), and matmul_wgmma_pb or _pab multiplies
 *      them in the call's layout. With A transposed, matmul_stage (STAGE_DTYPE) writes
 *      K-major A' and B' in rows of K rounded up to 64 (staged_ld) for matmul_wgmma_sab. A
 *      few-row call stays direct: the pass moves B twice where its multiply reads it once.
 *   5. Split K: a direct plan (rules 1 to 3) whose tiles x batch fill fewer workgroups than the
 *      device has compute units, where wgmma.split_min is set and the call's whole-K plan (rule
 *      2's one wave included) fills less than wgmma.whole_k_fill percent of the units (a call
 *      of one tile row or column: whatever it fills; whole_k_fills), runs the kernel over
 *      s = min(units / (tiles x batch), k / split_min) ranges of K (when s >= wgmma.split_ranges,
 *      at least 2; k_split a multiple of the K slice, every range non-empty; fewer: whole K) as
 *      matmul_wgmma_split, each writing its raw sums to scratch (batch s m rows of n rounded up
 *      to 4 floats, within the scratch cap and the caller's workspace, else no split; every
 *      float the reduce reads is written: scratch_written), then matmul_wgmma_reduce adds them
 *      in order with the epilogue: m 128, n 8192 is 32 tiles on the H200's 132 units (64 of
 *      128 columns by rule 2), 4 ranges of K. A split plan keeps the tuning's tile width (rule
 *      2's narrow tiles are for calls of one range; the H100's database gives few-row calls
 *      128 columns itself, where half the ranges halve the reduce: docs/GEMM.md). Where
 *      wgmma.split_join is set (and the kernel's workgroup limit allows the tile) the ranges
 *      join in the same launch instead: matmul_wgmma_split_join writes the same sums, counts
 *      each range in at its tile's arrival counter (plan->arrivals: tiles x batch), and the
 *      tile's last range adds them in order (the reduce's bits) and finishes the tile; one
 *      step, the only one, writes C.
 *   6. The last-wave split: a direct plan (rules 1 to 3) whose G = tiles x batch workgroups
 *      exceed the compute units U (one workgroup a unit: the 128 x 256 tile in 4 stages holds
 *      197 KiB of local memory) runs W = G / U full waves and a last wave of R = G % U; where
 *      wgmma.lastwave is set and 0 < R <= U lastwave / 100, the last wave's tiles run with K in
 *      s = min(U / R, k / lastwave_min) ranges (s >= 2; k_split a multiple of the K slice, every
 *      range non-empty): matmul_wgmma_lw_split writes each range's raw BM x BN sums of those R
 *      tiles to scratch (s R BM BN floats, within the scratch cap and the caller's workspace,
 *      else no split; every float read is written: scratch_written), then matmul_wgmma_lw runs
 *      the first W U slots as matmul_wgmma does (the same tile order) and R s workgroups after
 *      them that add the ranges in order and apply the epilogue (lw_first = W U). About W + 1 / s
 *      waves instead of W + 1: bf16 3000^3 is 288 tiles on 132 units, W 2 and R 24, s 5 with
 *      lastwave_min 512 (2 with 1024). Only the first step writes scratch and only the second C.
 *      A workgroup limit learnt for either kernel below the tile's work-items keeps rule 2's
 *      plan. The waves assume one workgroup a unit (the built-in tile; a smaller tile whose ring
 *      lets two share a unit splits the same R tiles, right but by a wave model that is off).
 *   7. The TMA-fed form: a direct whole-K plan (rules 1 to 3, neither split) where
 *      wgmma.tma is set, m, n and k are below 2^31 (the TMA's box coordinates are signed 32-bit)
 *      and the scratch cap and the caller's workspace hold 256 bytes a workgroup (its two tensor
 *      maps) runs matmul_wgmma_tma instead of matmul_wgmma: the same tile, ring and grid, one
 *      more warp a workgroup (128 consumers + 32 work-items: a wide plan above the 256 the
 *      kernel reports, registers capped to fit, ocf_facts_wide_allows) that makes the maps and
 *      drives the TMA, and its own local memory (the ring, 2 stages mbarriers and the maps:
 *      ocf_wgmma_tma_local_bytes), at most what its probe ran right with. Until the wide probe
 *      and then the TMA probe have run (learnt.wide, learnt.wgmma_tma unknown) the call runs
 *      matmul_wgmma with `probe` set to OCF_PLAN_PROBE_WIDE or OCF_PLAN_PROBE_WGMMA_TMA; where
 *      either failed, or a wide launch of the kernel was refused, matmul_wgmma stays.
 *      Where wgmma.tma_split is set, a split plan (rule 5) takes the same form on the same
 *      gates (its own refusal of a wide launch included): matmul_wgmma_tma_split, the ranges and
 *      sums of matmul_wgmma_split, each workgroup's maps at maps_at + 256 g bytes of the scratch,
 *      maps_at the sums' bytes rounded up to 256 (each range's maps start at its first K column
 *      and end at its last); until the probes ran the cp.async split runs with the probe due.
 *      Where wgmma.tma_copies is set, the staged and copied plans (rule 4) take it for their
 *      wgmma step on the gates of the product that step runs: matmul_wgmma_tma_sb, _sab, _pb,
 *      _pab, the maps after the staged or copied operands (maps_at their bytes rounded up to
 *      256).
 *      Where wgmma.persist is set, a direct whole-K plan of one product whose tiles pass the
 *      compute units (and a staged or copied plan's TMA-fed step, on its product) runs the form
 *      persistent (ocf_wgmma_take_persistent, PERSIST 1): a workgroup a unit, workgroup g
 *      multiplying tiles g, g + units, ... through one ring, its C staged through areas of its
 *      own; its ring loses stages while it and the areas pass 227 KiB, and the plan keeps a
 *      workgroup a tile where a workgroup's K slices would reach 2^31 or the gates above fail
 *      for the persistent ring. The TMA probe then runs the largest ring a plan may take. With
 *      wgmma.persist 2 a call whose tiles are not whole waves takes stream-K on that form
 *      (take_stream_k, matmul_wgmma_tma_sk and its staged and copied twins) where the last
 *      partial wave's R tiles cut into 2 to 4 pieces along K (units / R at most, a slice a piece
 *      at least): every workgroup multiplies its whole tiles, then a piece; a tile's pieces meet
 *      at a counter (plan->arrivals: R x consumers), each writing its sums to the scratch (a
 *      tile of floats a piece after the maps), and the last to arrive adds them in piece order
 *      and finishes the tile.
 * A column-major call arrives with its operands swapped (src/ops/matmul.c), as for the other
 * kernels. The planner is pure: the probe's outcome reaches it through the facts.
 * Rule 4's plans are in plan_matmul_wgmma_staged.c; what it and this file share, in
 * plan_matmul_wgmma_parts.h.
 */
#include "common.h"
#include "plan/plan.h"
#include "plan/plan_matmul_wgmma_parts.h"

#include <stdint.h>
#include <string.h>

size_t ocf_wgmma_local_bytes(unsigned bn, unsigned consumers, unsigned stages) {
  return (size_t)stages * (64u * consumers + bn) * 128u + 1024u;
}

static size_t geometry_bytes(const wg_geometry *g) {
  return ocf_wgmma_local_bytes(g->bn, g->consumers, g->stages);
}

/* The most local memory a Hopper workgroup may have (227 KiB). */
#define HOPPER_LOCAL_BYTES (227u << 10)

size_t ocf_wgmma_tma_local_bytes(unsigned bn, unsigned consumers, unsigned stages, int persist) {
  const size_t ring = (size_t)stages * (64u * consumers + bn) * 128u;
  const size_t areas = persist ? 64u * 144u * consumers : 0u; /* PERSIST's areas of C */
  /* + mbarriers, maps, alignment */
  return ocf_round_up(ring + 16u * stages, 128) + 256u + areas + 1024u;
}

static size_t tma_bytes(const wg_geometry *g) {
  return ocf_wgmma_tma_local_bytes(g->bn, g->consumers, g->stages, g->persist);
}

/* Three consumers (192-row tiles) run on the TMA-fed form only, without its producer warp: 416
   work-items would cap each at 152 registers, below what m64n256's accumulators take, so their
   first work-item drives the TMA (cl/matmul_wgmma_tma.clh, TMA_INLINE); the cp.async kernel's
   copies step through a stage by a power of two of rows. */
static int inline_producer(const wg_geometry *g) {
  return g->consumers == 3;
}

/* Fewer stages (down to 3) while the TMA-fed form's ring is past what a Hopper workgroup holds:
   three consumers' rings in the stages the tuning validates for two. */
static void hopper_ring(wg_geometry *g) {
  while (tma_bytes(g) > HOPPER_LOCAL_BYTES && g->stages > 3)
    g->stages--;
}

/* Work-items of the TMA-fed form's workgroup: the consumers and, but for three, the producer
   warp. */
static size_t tma_threads(const wg_geometry *g) {
  return 128u * g->consumers + (inline_producer(g) ? 0u : 32u);
}

static wg_geometry geometry_of(const ocf_matmul_wgmma_tuning *t) {
  wg_geometry g = {0};
  g.bn = (unsigned)t->bn, g.consumers = (unsigned)t->consumers, g.stages = (unsigned)t->stages;
  g.group_m = (unsigned)t->group_m, g.c_stage = t->c_stage;
  return g;
}

/* An operand's rows all start on multiples of `step` values: its offset, leading dimension and
   (batched) stride. */
int ocf_wgmma_rows_on_steps(size_t step, size_t off, size_t ld, size_t stride, size_t batch) {
  return off % step == 0 && ld % step == 0 && (batch <= 1 || stride % step == 0);
}

/* An operand's offset, leading dimension and batch stride are whole 16-byte chunks. */
int ocf_wgmma_chunk_aligned(ocf_dtype dtype, size_t off, size_t ld, size_t stride, size_t batch) {
  return ocf_wgmma_rows_on_steps(16 / ocf_dtype_size(dtype), off, ld, stride, batch);
}

int ocf_matmul_wgmma_applies(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                             const ocf_matmul_call *call) {
  const ocf_matmul_tuning *t = &tuning->matmul;
  if (call->variant != OCF_VARIANT_AUTO || call->workgroup != 0 || t->mma.on == 0 ||
      t->wgmma.on == 0)
    return 0;
  if (facts->vendor != OCF_VENDOR_NVIDIA || !(facts->type & CL_DEVICE_TYPE_GPU) ||
      facts->nv_compute_capability != 90 || facts->learnt.wgmma == OCF_PROBE_FAILED)
    return 0;
  if (call->a_dtype != call->b_dtype) return 0;
  const int tf32 = call->a_dtype == OCF_F32;
  if (tf32 && call->precision != OCF_PRECISION_TF32) return 0;
  if (call->trans_a || (tf32 && !call->trans_b)) return 0;
  const size_t batch = call->batch ? call->batch : 1;
  if (!ocf_wgmma_chunk_aligned(call->a_dtype, call->a_off, call->lda, call->stride_a, batch) ||
      !ocf_wgmma_chunk_aligned(call->b_dtype, call->b_off, call->ldb, call->stride_b, batch))
    return 0;
  return call->m > 0 && call->n > 0 && call->k > 0;
}

/* Work-items of the geometry within the device's and the kernel's limits (three consumers: the
   TMA-fed form's wide launch, which rule 7 checks). */
static int threads_fit(const ocf_device_facts *facts, const wg_geometry *g) {
  if (inline_producer(g)) return 1;
  size_t limit = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_WGMMA);
  if (limit > facts->max_item_sizes[0]) limit = facts->max_item_sizes[0];
  return 128u * g->consumers <= limit;
}

/* The local memory of the geometry's ring and what a probe ran right with: the TMA-fed form's
   for three consumers, the only form that runs them. */
static size_t ring_bytes(const wg_geometry *g) {
  return inline_producer(g) ? tma_bytes(g) : geometry_bytes(g);
}
static size_t ring_bytes_ok(const ocf_device_facts *facts, const wg_geometry *g) {
  return inline_producer(g) ? facts->learnt.wgmma_tma_local_ok : facts->learnt.wgmma_local_ok;
}

/* Whether the TMA form's staged epilogue fits C's blocks (a row of bn values and 16 bytes each)
   into the ring: two consumers' always do, three consumers' fp32 blocks not in 3 stages. */
static int c_stage_fits(const wg_geometry *g, ocf_dtype c_dtype) {
  const size_t row = (size_t)g->bn * ocf_dtype_size(c_dtype) + 16u;
  return 64u * g->consumers * row <= (size_t)g->stages * (64u * g->consumers + g->bn) * 128u;
}

void ocf_wgmma_define_all(ocf_plan *plan, ocf_dtype dtype, int trans_b, const wg_geometry *g,
                          const ocf_matmul_call *call) {
  ocf_plan_define(plan, "C_DTYPE", call ? call->c_dtype : OCF_F32);
  ocf_plan_define(plan, "ACTIVATION", call ? call->activation : OCF_ACTIVATION_NONE);
  ocf_plan_define(plan, "BIAS", call ? (int)call->bias_axis : OCF_BIAS_NONE);
  ocf_plan_define(plan, "BIAS_DTYPE", call ? call->bias_dtype : OCF_F32);
  ocf_plan_define(plan, "AB_DTYPE", dtype);
  ocf_plan_define(plan, "TRANS_B", trans_b);
  ocf_plan_define(plan, "BN", g->bn);
  ocf_plan_define(plan, "CONSUMERS", g->consumers);
  ocf_plan_define(plan, "STAGES", g->stages);
  ocf_plan_define(plan, "GROUP_M", g->group_m);
  ocf_plan_define(plan, "TMA_WAIT_LIMIT", g->wait_limit);
  /* PERSIST stages C through areas of its own, which always fit */
  ocf_plan_define(plan, "C_STAGE",
                  g->c_stage && (g->persist || c_stage_fits(g, call ? call->c_dtype : OCF_F32)));
  ocf_plan_define(plan, "PERSIST", g->persist != 0);
}

static void add_step(ocf_plan *plan, const wg_geometry *g, size_t groups) {
  const size_t local[1] = {128u * (size_t)g->consumers};
  const size_t global[1] = {groups * local[0]};
  ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_WGMMA, 1, global, local);
}

/* The geometry of the other tile width the wave model weighs (wgmma.wave_bn, in its own ring). */
static wg_geometry wave_geometry_of(const ocf_matmul_wgmma_tuning *t) {
  wg_geometry g = geometry_of(t);
  g.bn = (unsigned)t->wave_bn;
  g.stages = (unsigned)t->wave_stages;
  return g;
}

/* Rule 2's waves: one workgroup a compute unit (the ring's local memory), a wave of tiles BN
   columns wide taking a time in proportion to BN, so G tiles cost ceil(G / units) BN; the
   other width wins by 5 % at least (the narrower tile multiplies a little less a cycle: 682
   against 695 TFLOP/s a full wave at bf16 3072^3). */
static size_t waves_of(size_t units, size_t tiles, size_t tile_cost) {
  return ocf_div_ceil(tiles, units) * tile_cost;
}

static int other_width_wins(size_t units, size_t tiles, unsigned bn, size_t other_tiles,
                            unsigned other_bn) {
  return waves_of(units, other_tiles, other_bn) * 20 < waves_of(units, tiles, bn) * 19;
}

/* The tiles of `consumers` x 64 rows and bn columns of one product's C. */
static size_t tiles_of(const ocf_matmul_call *call, unsigned consumers, unsigned bn) {
  return ocf_div_ceil(call->m, 64u * consumers) * ocf_div_ceil(call->n, bn);
}

/* Whether rule 2's waves give a call's tiles of `consumers` x 64 rows the width wave_bn instead
   of bn: more tiles than one wave, and wave_bn's waves win. */
static int wave_width_wins(size_t units, const ocf_matmul_call *call, unsigned consumers,
                           unsigned bn, unsigned wave_bn) {
  const size_t batch = call->batch ? call->batch : 1;
  if (wave_bn == 0 || wave_bn == bn) return 0;
  const size_t tiles = tiles_of(call, consumers, bn),
               wave_tiles = tiles_of(call, consumers, wave_bn);
  if (tiles > 0x7fffffffu / batch || wave_tiles > 0x7fffffffu / batch) return 0;
  return tiles * batch > units &&
         other_width_wins(units, tiles * batch, bn, wave_tiles * batch, wave_bn);
}

/* Rule 2's one consumer (wgmma.one_consumer): a call of at most the consumers' 64-row blocks
   takes tiles of 64 rows where they make one wave (tiles x batch within the compute units)
   that either holds every row (m <= 64: the same tiles, none half empty) or fills two thirds of
   the units (twice the tiles of half the work: whole K where two consumers split it). On the
   H100 (bf16 TFLOP/s, two consumers -> one, 128-column tiles): 128 x 8192^2 235.7 -> 278.5
   (cuBLAS 288.2), 96 x 8192^2 184.3 -> 210.2, 128 x 6144 x 8192 214.3 -> 242.9, 64 x 8192^2
   126.6 -> 139.7; past one wave 128 x 16384^2 354.1 -> 344.4 and at 64 of 132 units 128 x 4096
   x 14336 233.7 -> 225.0 lost. */
static void take_one_consumer(const ocf_device_facts *facts, const ocf_matmul_call *call,
                              wg_geometry *g) {
  const size_t batch = call->batch ? call->batch : 1, units = facts->compute_units;
  if (g->consumers < 2 || call->m == 0 || call->m > 64u * g->consumers || batch > units) return;
  const size_t rows = ocf_div_ceil(call->m, 64u), columns = ocf_div_ceil(call->n, g->bn);
  if (columns > units / batch / rows) return; /* more than one wave */
  const size_t groups = rows * columns * batch;
  if (call->m <= 64 || 3 * groups >= 2 * units) g->consumers = 1;
}

/* Elements of K in one of the kernels' 128-byte slices of A and B (BK). */
static size_t slice_k(ocf_dtype dtype) {
  return 128u / ocf_dtype_size(dtype);
}

/* Rule 7's stream-K pieces of each of the last partial wave's `rest` tiles on `units`
   workgroups, tiles of `slices` K slices: as many as the wave's idle units allow, a slice a
   piece at least, at most 4 (the last piece to arrive reads the others' sums, 64 KiB a
   warpgroup each, before it finishes the tile). cl/matmul_wgmma_sk.clh's sk_pieces (and
   SK_PIECES_MAX) is the same. */
static size_t sk_pieces(size_t units, size_t rest, size_t slices) {
  size_t pieces = rest ? units / rest : 0;
  if (pieces > slices) pieces = slices;
  return pieces < 4 ? pieces : 4;
}

/* Whether a persistent workgroup's K slices (the kernel counts them in 32 bits) stay below
   2^31: of `tiles` tiles of `slices` slices on `units` workgroups, ceil(tiles / units) tiles'
   (its whole tiles and, with stream-K, a piece of one more). Rules 2 and 7. */
static int persistent_slices_fit(size_t slices, size_t tiles, size_t units) {
  return slices < ((size_t)1 << 31) / ocf_div_ceil(tiles, units);
}

/* What a call's waves of tiles of `consumers` x 64 rows and bn columns cost, as rule 2's widths
   do (waves_of), a tile costing its area. */
static size_t waves_cost(size_t units, const ocf_matmul_call *call, unsigned consumers,
                         unsigned bn) {
  const size_t batch = call->batch ? call->batch : 1;
  return waves_of(units, tiles_of(call, consumers, bn) * batch, (size_t)consumers * bn);
}

/* Rule 2's three consumers (wgmma.consumers 3): tiles of 192 rows read 22 % fewer bytes of A
   and B a product than tiles of 128, and measured as fast or faster where their waves cost the
   same (H100, bf16 TFLOP/s, two consumers -> three: 3072^3 591 -> 645, 3000^3 copied 422 -> 485,
   4095 x 4104 x 4000 521 -> 560, f16 6144^3 716 -> 741, 8192^3 762 -> 766 at 3 % more), and
   slower where they cost more (4096^3, 2.7 waves of 192 x 256 against 3.9 of 128 x 256, 692 ->
   644; TF32 371 -> 354; 4096 x 14336 x 4096, 10 waves of 192 x 256 against 14 of 128 x 256, 7 %
   more, 711 -> 691). So a call keeps three where the waves' cost, each count in the width the
   plan would give it (wgmma.bn, or wave_bn where wave_width_wins), is at most 5 % above two's;
   else, and for calls of at most 128 rows (a 192-row tile a third empty), two. With stream-K
   (wgmma.persist 2, one product whose last wave cuts its tiles in pieces: rule 7), two
   consumers' last wave costs a piece of a tile, not a tile (three's registers take no
   stream-K). */
static void take_consumers(const ocf_device_facts *facts, const ocf_matmul_wgmma_tuning *t,
                           const ocf_matmul_call *call, wg_geometry *g) {
  if (g->consumers != 3) return;
  const size_t units = facts->compute_units;
  if (call->m <= 128 || units == 0) {
    g->consumers = 2;
    return;
  }
  const unsigned wave_bn = (unsigned)t->wave_bn;
  const unsigned three_bn = wave_width_wins(units, call, 3, g->bn, wave_bn) ? wave_bn : g->bn;
  const unsigned two_bn = wave_width_wins(units, call, 2, g->bn, wave_bn) ? wave_bn : g->bn;
  const size_t three = waves_cost(units, call, 3, three_bn);
  size_t two = waves_cost(units, call, 2, two_bn);
  const size_t two_tiles = tiles_of(call, 2, two_bn);
  const size_t slices = ocf_div_ceil(call->k, slice_k(call->a_dtype));
  const size_t pieces = two_tiles > units ? sk_pieces(units, two_tiles % units, slices) : 0;
  /* the last wave a piece of each tile long (a workgroup's slices below 2^31, as rule 7's) */
  if (t->persist == 2 && (call->batch ? call->batch : 1) == 1 && pieces >= 2 &&
      two_tiles <= 0x7fffffffu && persistent_slices_fit(slices, two_tiles, units))
    two = ocf_div_ceil((two_tiles / units * slices + ocf_div_ceil(slices, pieces)) * 2u * two_bn,
                       slices);
  if (three * 20 > two * 21) g->consumers = 2;
}

/* Rule 2's one wave: a whole-K call whose tiles of 128 columns still make at most one wave
   (tiles x batch within the compute units) takes them, in the plan's consumers or, where those
   do not fit one wave and the tuning asks for three (m > 128), in three: the wave then lasts
   one narrower tile, and by waves_cost such a plan always wins (at most 3 x 128 against the
   plan's 2 x 256 or more: 3/4). On the H100 (bf16 TFLOP/s, the plan's 256 columns -> 128):
   1024^3 104.4 -> 158.6 (two consumers, 32 -> 64 workgroups; cuBLAS 214.4), 1536^3 284.2 ->
   333.1 (two consumers' 72 -> three's 96; cuBLAS 466.0). Its first form, which wgmma.one_wave 0
   keeps, took a call of one tile row only (m 128, n 8192 on the H200: 32 -> 64). Returns
   whether it narrowed g. */
static int take_one_wave(const ocf_device_facts *facts, const ocf_matmul_wgmma_tuning *t,
                         const ocf_matmul_call *call, wg_geometry *g) {
  const size_t batch = call->batch ? call->batch : 1, units = facts->compute_units;
  if (g->bn <= 128 || batch > units) return 0;
  if (!t->one_wave && call->m > 64u * g->consumers) return 0;
  const size_t most = units / batch;
  if (tiles_of(call, g->consumers, 128u) > most) {
    if (!t->one_wave || t->consumers != 3 || g->consumers != 2 || call->m <= 128 ||
        tiles_of(call, 3, 128u) > most)
      return 0;
    g->consumers = 3;
  }
  g->bn = 128;
  return 1;
}

/* The tile, ring and workgroups of an m x n C (rules 2 and 3), shared by the direct and the
   staged plans; `direct`: a whole-K plan (rule 2's narrow tiles and waves). */
ocf_mma_outcome ocf_wgmma_plan_geometry(const ocf_device_facts *facts,
                                        const ocf_tuning_values *tuning,
                                        const ocf_matmul_call *call, const int direct,
                                        wg_geometry *out, size_t *groups_out) {
  wg_geometry g = geometry_of(&tuning->matmul.wgmma);
  if (!threads_fit(facts, &g)) return OCF_MMA_NOT_APPLICABLE;
  take_consumers(facts, &tuning->matmul.wgmma, call, &g);
  if (tuning->matmul.wgmma.one_consumer) take_one_consumer(facts, call, &g);
  const size_t batch = call->batch ? call->batch : 1;
  size_t groups = tiles_of(call, g.consumers, g.bn);
  if (groups > 0x7fffffffu / batch) return OCF_MMA_NOT_APPLICABLE;
  if (facts->learnt.wgmma != OCF_PROBE_PASSED) return OCF_MMA_PROBE; /* rule 3 */
  const size_t units = facts->compute_units;
  wg_geometry wave = wave_geometry_of(&tuning->matmul.wgmma);
  wave.consumers = g.consumers;
  if (direct && take_one_wave(facts, &tuning->matmul.wgmma, call, &g)) { /* rule 2: one wave */
    groups = tiles_of(call, g.consumers, g.bn);
  } else if (direct && wave_width_wins(units, call, g.consumers, g.bn, wave.bn)) {
    g = wave; /* rule 2: the waves */
    groups = tiles_of(call, g.consumers, wave.bn);
  }
  while (ring_bytes(&g) > ring_bytes_ok(facts, &g) && g.stages > 3) /* rule 2 */
    g.stages--;
  if (ring_bytes(&g) > ring_bytes_ok(facts, &g)) return OCF_MMA_NOT_APPLICABLE;
  *out = g;
  *groups_out = groups * batch;
  return OCF_MMA_PLANNED;
}

/* Rule 5: the K ranges of a call whose `groups` workgroups (tiles x batch) leave compute units
   idle, into plan (splits, k_split, scratch_bytes, scratch_written); 0 where it keeps one
   range (and plan as it was). */
static int plan_split(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                      const ocf_matmul_call *call, size_t groups, ocf_plan *plan) {
  const size_t min_k = (size_t)tuning->matmul.wgmma.split_min;
  if (min_k == 0 || groups == 0 || groups >= facts->compute_units) return 0;
  const size_t least =
      tuning->matmul.wgmma.split_ranges > 2 ? (size_t)tuning->matmul.wgmma.split_ranges : 2;
  size_t splits = facts->compute_units / groups;
  if (splits > call->k / min_k) splits = call->k / min_k;
  if (splits < least) return 0;
  const size_t k_split = ocf_round_up(ocf_div_ceil(call->k, splits), slice_k(call->a_dtype));
  splits = ocf_div_ceil(call->k, k_split); /* every range non-empty */
  if (splits < least) return 0;
  const size_t batch = call->batch ? call->batch : 1;
  const size_t ldp = ocf_round_up(call->n, 4);
  if (call->m > SIZE_MAX / ldp || call->m * ldp > SIZE_MAX / sizeof(float) / batch / splits)
    return 0;
  const size_t bytes = splits * batch * call->m * ldp * sizeof(float);
  if (bytes > ocf_matmul_scratch_cap(facts, call)) return 0;
  plan->splits = splits;
  plan->k_split = k_split;
  plan->scratch_bytes = bytes;
  plan->scratch_written = 1;
  return 1;
}

/* Rule 5's gate (wgmma.whole_k_fill): whether the call's whole-K plan, rule 2's narrow tiles of
   one wave included, fills at least whole_k_fill percent of the compute units, so that its K stays
   whole. On the H100 (bf16 TFLOP/s, 4 ranges of 256-column tiles -> whole K in 128 columns,
   cuBLAS beside): 256 x 4096^2 206.2 -> 233.8 (64 of 132 units; 315.1), 384 x 4096^2 243.9 ->
   341.5 (96; 421.2), 512 x 4096^2 295.5 -> 448.9 (128; 535.3), 256 x 8192 x 2048 175.9 -> 304.0,
   2048 x 1024 x 4096 305.2 -> 479.8: the ranges' reduce (30 % of the split's time) and
   their shorter K cost more than the idle units. A call of one tile row (m at most 64
   consumers) or one tile column (n at most 128) keeps the split: its reduce is of few rows or
   columns, and its time that of reading the other operand, which more workgroups read faster
   (rule 2's one consumer may take the first: 128 x 8192^2 278.5). `whole`: the whole-K plan's
   tile and its workgroups (tiles x batch), NULL where there is none. */
static int whole_k_fills(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                         const ocf_matmul_call *call, const wg_geometry *whole, size_t groups) {
  const size_t percent = (size_t)tuning->matmul.wgmma.whole_k_fill;
  if (percent == 0 || whole == NULL) return 0;
  return call->m > 64u * whole->consumers && call->n > 128 &&
         groups * 100 >= facts->compute_units * percent;
}

/* Rule 6: the last-wave split of a call of `groups` workgroups (tiles x batch) of BM x BN tiles,
   into plan (splits, k_split, lw_first, scratch_bytes, scratch_written); 0 where it does not
   apply (and plan as it was). */
static int plan_lastwave(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                         const ocf_matmul_call *call, const wg_geometry *g, size_t groups,
                         ocf_plan *plan) {
  const size_t percent = (size_t)tuning->matmul.wgmma.lastwave;
  const size_t min_k = (size_t)tuning->matmul.wgmma.lastwave_min;
  const size_t units = facts->compute_units;
  if (percent == 0 || min_k == 0 || units == 0 || groups <= units) return 0;
  /* A limit learnt for either kernel below the workgroup keeps the plain plan (not mma.sync). */
  const size_t threads = 128u * g->consumers;
  if (ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_WGMMA_LW_SPLIT) < threads ||
      ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_WGMMA_LW) < threads)
    return 0;
  const size_t last = groups % units;
  if (last == 0 || last * 100 > units * percent) return 0;
  size_t splits = units / last;
  if (splits > call->k / min_k) splits = call->k / min_k;
  if (splits < 2) return 0;
  const size_t k_split = ocf_round_up(ocf_div_ceil(call->k, splits), slice_k(call->a_dtype));
  splits = ocf_div_ceil(call->k, k_split); /* every range non-empty */
  if (splits < 2) return 0;
  const size_t tile = 64u * g->consumers * g->bn;            /* floats of one range of one tile */
  const size_t bytes = splits * last * tile * sizeof(float); /* at most units tiles: no overflow */
  if (bytes > ocf_matmul_scratch_cap(facts, call)) return 0;
  plan->splits = splits;
  plan->k_split = k_split;
  plan->lw_first = groups - last;
  plan->scratch_bytes = bytes;
  plan->scratch_written = 1;
  return 1;
}

/* The probe a TMA plan waits for, the wide one first. */
ocf_plan_probe ocf_wgmma_tma_probe_due(const ocf_device_facts *facts) {
  return facts->learnt.wide == OCF_PROBE_PASSED ? OCF_PLAN_PROBE_WGMMA_TMA : OCF_PLAN_PROBE_WIDE;
}

/* Rule 7: whether `kernel` (matmul_wgmma_tma or matmul_wgmma_tma_split) of geometry g over
   `groups` workgroups may run, its maps (256 bytes a workgroup) in the scratch after `before`
   bytes of the plan's own; OCF_MMA_PROBE where a probe it needs has not run (the caller runs
   the cp.async kernel meanwhile). The split kernel runs the whole-K kernel's producer and ring
   and so stands on the same probe. */
static ocf_mma_outcome tma_form(const ocf_device_facts *facts, const ocf_matmul_call *call,
                                ocf_kernel_id kernel, const wg_geometry *g, size_t groups,
                                size_t before) {
  if (!facts->nv_compiler_options) return OCF_MMA_NOT_APPLICABLE;
  const size_t below = (size_t)1 << 31;
  if (call->m >= below || call->n >= below || call->k >= below) return OCF_MMA_NOT_APPLICABLE;
  const size_t cap = ocf_matmul_scratch_cap(facts, call);
  if (before > cap || groups > (cap - before) / 256) return OCF_MMA_NOT_APPLICABLE;
  const size_t items = tma_threads(g);
  if (items > facts->max_workgroup_size || items > facts->max_item_sizes[0] ||
      facts->learnt.wide_refused[kernel])
    return OCF_MMA_NOT_APPLICABLE;
  if (facts->learnt.wide == OCF_PROBE_FAILED || facts->learnt.wgmma_tma == OCF_PROBE_FAILED)
    return OCF_MMA_NOT_APPLICABLE;
  if (facts->learnt.wide != OCF_PROBE_PASSED || facts->learnt.wgmma_tma != OCF_PROBE_PASSED)
    return OCF_MMA_PROBE;
  if (!ocf_facts_wide_allows(facts, kernel, items, ocf_wide_register_cap(items)) ||
      tma_bytes(g) > facts->learnt.wgmma_tma_local_ok)
    return OCF_MMA_NOT_APPLICABLE;
  return OCF_MMA_PLANNED;
}

/* Stream-K's sums in the scratch after the maps: a tile of floats for each piece of the last
   wave's tiles. */
static size_t stream_k_bytes(const wg_geometry *g) {
  return (size_t)g->sk_rest * g->sk_pieces * 64u * g->consumers * g->bn * sizeof(float);
}

/* Rule 7's stream-K twin of a whole-K TMA kernel: matmul_wgmma_tma's or a staged or copied
   step's (the same body under another name, as theirs are). */
static ocf_kernel_id stream_k_kernel(ocf_kernel_id kernel) {
  switch (kernel) {
  case OCF_KERNEL_MATMUL_WGMMA_TMA_SB:
    return OCF_KERNEL_MATMUL_WGMMA_TMA_SK_SB;
  case OCF_KERNEL_MATMUL_WGMMA_TMA_SAB:
    return OCF_KERNEL_MATMUL_WGMMA_TMA_SK_SAB;
  case OCF_KERNEL_MATMUL_WGMMA_TMA_PB:
    return OCF_KERNEL_MATMUL_WGMMA_TMA_SK_PB;
  case OCF_KERNEL_MATMUL_WGMMA_TMA_PAB:
    return OCF_KERNEL_MATMUL_WGMMA_TMA_SK_PAB;
  default:
    return OCF_KERNEL_MATMUL_WGMMA_TMA_SK;
  }
}

/* Rule 7's whole-K kernel of geometry g: `kernel`, or with stream-K its twin. */
static ocf_kernel_id whole_k_tma_kernel(const wg_geometry *g, ocf_kernel_id kernel) {
  return g->persist == 2 ? stream_k_kernel(kernel) : kernel;
}

/* Rule 7's stream-K (wgmma.persist 2) for the persistent plan p of `kernel` (a whole-K TMA
   kernel, its maps after `before` bytes of the scratch) multiplying `call`, whose `groups` tiles
   of `slices` K slices are not whole waves of `units`: the last partial wave's tiles cut along K
   into sk_pieces pieces each (at least 2), a workgroup a piece, all the pieces of the wave side
   by side at the same K offsets (stream_k_kernel's twin); where the twin's gates hold and the
   scratch holds the pieces' sums after the maps (a tile of floats a piece). */
static int take_stream_k(const ocf_device_facts *facts, const ocf_matmul_call *call,
                         ocf_kernel_id kernel, size_t before, size_t groups, size_t units,
                         size_t slices, wg_geometry *p) {
  const size_t rest = groups % units, pieces = sk_pieces(units, rest, slices);
  /* one piece a tile is the persistent form (three consumers, whose registers would hold no
     more state, never get here: ocf_wgmma_take_persistent keeps them a tile a workgroup) */
  if (pieces < 2) return 0;
  wg_geometry s = *p;
  s.persist = 2;
  s.sk_rest = (unsigned)rest, s.sk_pieces = (unsigned)pieces;
  const size_t cap = ocf_matmul_scratch_cap(facts, call), maps = units * 256u;
  if (before > cap || maps > cap - before || stream_k_bytes(&s) > cap - before - maps ||
      tma_form(facts, call, stream_k_kernel(kernel), &s, units, before) != OCF_MMA_PLANNED)
    return 0;
  *p = s;
  return 1;
}

/* Rule 7's persistent tiles (wgmma.persist): a whole-K call of one product whose tiles pass the
   compute units runs matmul_wgmma_tma with PERSIST, a workgroup a unit, each multiplying every
   units-th tile through one ring, so that a tile's first slices load while the one before
   finishes, and the maps, barriers and launch are paid once a unit, not once a tile. Its C goes
   through areas of local memory of its own (the ring is busy by then): the ring takes fewer
   stages where the two pass what a workgroup may hold. The kernel counts a workgroup's slices in
   32 bits. `kernel`: matmul_wgmma_tma (wgmma.tma's) or a staged or copied plan's twin
   (wgmma.tma_copies'), multiplying `call` (the staged product) with its maps after `before`
   bytes of the scratch; wgmma.persist 2 turns either to stream-K where it applies
   (take_stream_k). Two consumers only: three (192-row tiles, their first work-item driving
   the TMA between its slices) lost 3-10 % persistent on every shape measured, where two gained
   1-5 % (docs/GEMM.md, "Persistent tiles"), so their plans keep a tile a workgroup.
   Into g and *groups where it applies. */
int ocf_wgmma_take_persistent(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                              const ocf_matmul_call *call, ocf_kernel_id kernel, size_t before,
                              wg_geometry *g, size_t *groups) {
  const ocf_matmul_wgmma_tuning *t = &tuning->matmul.wgmma;
  const size_t units = facts->compute_units, batch = call->batch ? call->batch : 1;
  const int form = kernel == OCF_KERNEL_MATMUL_WGMMA_TMA ? t->tma : t->tma_copies;
  if (!t->persist || !form || inline_producer(g) || batch > 1 || units == 0 || *groups <= units)
    return 0;
  wg_geometry p = *g;
  p.persist = 1;
  hopper_ring(&p);
  const size_t slices = ocf_div_ceil(call->k, slice_k(call->a_dtype));
  if (!persistent_slices_fit(slices, *groups, units)) return 0;
  if (tma_form(facts, call, kernel, &p, units, before) != OCF_MMA_PLANNED) return 0;
  if (t->persist == 2) take_stream_k(facts, call, kernel, before, *groups, units, slices, &p);
  *g = p;
  *groups = units;
  return 1;
}

/* Rule 7's step: `kernel` over `groups` workgroups, a wide plan whose scratch holds `before`
   bytes of the plan's own and then the maps; with stream-K (g->persist 2, `kernel` its twin)
   the pieces' sums after the maps, and a counter for each warpgroup of the last wave's tiles. */
static void add_tma_step(ocf_plan *plan, ocf_kernel_id kernel, const wg_geometry *g, size_t groups,
                         size_t before) {
  const size_t local[1] = {tma_threads(g)};
  const size_t global[1] = {groups * local[0]};
  ocf_plan_step_add(plan, kernel, 1, global, local);
  plan->wide_workgroup = 1;
  plan->max_registers = ocf_wide_register_cap(local[0]);
  plan->maps_at = before;
  plan->scratch_bytes = before + groups * 256u;
  plan->scratch_written = 1; /* each workgroup writes its maps before the TMA reads them */
  plan->local_mem_bytes = tma_bytes(g);
  if (g->persist == 2) {
    plan->scratch_bytes += stream_k_bytes(g);
    plan->arrivals = (size_t)g->sk_rest * g->consumers;
  }
}

/* The reduce step of a split plan: one work-item an element of the batch's C. */
static void add_reduce_step(const ocf_device_facts *facts, const ocf_matmul_call *call,
                            ocf_plan *plan) {
  size_t wg = ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_WGMMA_REDUCE);
  if (wg > facts->max_item_sizes[0]) wg = facts->max_item_sizes[0];
  if (wg > 256) wg = 256;
  const size_t batch = call->batch ? call->batch : 1;
  const size_t local[1] = {wg};
  const size_t global[1] = {ocf_round_up(batch * call->m * call->n, wg)};
  ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_WGMMA_REDUCE, 1, global, local);
}

/* The wgmma step of a staged or copied plan (rule 4) whose operands take the plan's scratch so
   far: `plain` over `groups` workgroups, or its TMA-fed twin `tma` (rule 7, where
   wgmma.tma_copies is set and the form's gates hold for `multiplied`, the product the step runs)
   with the maps after the operands; until the TMA probes ran, `plain` with the probe due. */
void ocf_wgmma_add_copied_step(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                               const ocf_matmul_call *multiplied, ocf_kernel_id plain,
                               ocf_kernel_id tma, const wg_geometry *g, size_t groups,
                               ocf_plan *plan) {
  const size_t before = ocf_round_up(plan->scratch_bytes, 256);
  tma = whole_k_tma_kernel(g, tma);
  const ocf_mma_outcome form = tuning->matmul.wgmma.tma_copies
                                   ? tma_form(facts, multiplied, tma, g, groups, before)
                                   : OCF_MMA_NOT_APPLICABLE;
  if (form == OCF_MMA_PLANNED) {
    add_tma_step(plan, tma, g, groups, before);
    return;
  }
  const size_t local[1] = {128u * (size_t)g->consumers};
  const size_t global[1] = {groups * local[0]};
  ocf_plan_step_add(plan, plain, 1, global, local);
  plan->local_mem_bytes = geometry_bytes(g);
  if (form == OCF_MMA_PROBE) plan->probe = ocf_wgmma_tma_probe_due(facts);
}

/* Rule 5's steps for `groups` workgroups of tiles x batch, the ranges already in plan (splits,
   k_split, the sums' scratch): the TMA-fed split and the reduce (rule 7, wgmma.tma_split),
   else the cp.async split joining its ranges itself (wgmma.split_join, within the kernel's
   workgroup limit) or followed by the reduce. */
static void add_split_steps(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                            const ocf_matmul_call *call, const wg_geometry *g, size_t groups,
                            ocf_plan *plan) {
  const size_t split_groups = groups * plan->splits;
  const size_t sums = ocf_round_up(plan->scratch_bytes, 256); /* the maps after the sums */
  const ocf_mma_outcome tma =
      tuning->matmul.wgmma.tma_split
          ? tma_form(facts, call, OCF_KERNEL_MATMUL_WGMMA_TMA_SPLIT, g, split_groups, sums)
          : OCF_MMA_NOT_APPLICABLE;
  if (tma == OCF_MMA_PLANNED) {
    add_tma_step(plan, OCF_KERNEL_MATMUL_WGMMA_TMA_SPLIT, g, split_groups, sums);
    add_reduce_step(facts, call, plan);
    return;
  }
  const size_t local[1] = {128u * (size_t)g->consumers};
  const size_t global[1] = {split_groups * local[0]};
  const int join = tuning->matmul.wgmma.split_join &&
                   ocf_facts_workgroup_limit(facts, OCF_KERNEL_MATMUL_WGMMA_SPLIT_JOIN) >= local[0];
  ocf_plan_step_add(plan, join ? OCF_KERNEL_MATMUL_WGMMA_SPLIT_JOIN : OCF_KERNEL_MATMUL_WGMMA_SPLIT,
                    1, global, local);
  if (join)
    plan->arrivals = groups; /* a counter a tile of each product */
  else
    add_reduce_step(facts, call, plan);
  if (tma == OCF_MMA_PROBE) plan->probe = ocf_wgmma_tma_probe_due(facts);
}

static ocf_mma_outcome plan_direct(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                                   const ocf_matmul_call *call, ocf_plan *plan) {
  wg_geometry g;
  size_t groups = 0;
  /* A split plan keeps the tuning's tile width (rule 5). */
  ocf_mma_outcome outcome = ocf_wgmma_plan_geometry(facts, tuning, call, 0, &g, &groups);
  if (outcome != OCF_MMA_PLANNED) return outcome;

  memset(plan, 0, sizeof *plan);
  plan->program = OCF_PROGRAM_MATMUL_WGMMA_NV;
  plan->splits = 1;
  plan->k_split = call->k;
  /* The whole-K plan's tile (rule 2's narrow tiles and waves), once: rule 5's gate weighs it,
     and the call runs it where neither split applies. */
  wg_geometry whole;
  size_t whole_groups = 0;
  const ocf_mma_outcome whole_outcome =
      ocf_wgmma_plan_geometry(facts, tuning, call, 1, &whole, &whole_groups);
  const int split =
      !whole_k_fills(facts, tuning, call, whole_outcome == OCF_MMA_PLANNED ? &whole : NULL,
                     whole_groups) &&
      plan_split(facts, tuning, call, groups, plan);
  /* Rule 6 needs more workgroups than units, where rule 2's narrow tiles never apply. */
  const int lastwave = !split && plan_lastwave(facts, tuning, call, &g, groups, plan);
  if (!split && !lastwave) {
    if (whole_outcome != OCF_MMA_PLANNED) return whole_outcome;
    g = whole;
    groups = whole_groups;
    ocf_wgmma_take_persistent(facts, tuning, call, OCF_KERNEL_MATMUL_WGMMA_TMA, 0, &g,
                              &groups); /* rule 7 */
  }
  ocf_wgmma_define_all(plan, call->a_dtype, call->trans_b == OCF_TRANS, &g, call);
  if (lastwave) { /* the last wave's ranges (scratch only), then the one launch that writes C */
    const size_t local[1] = {128u * (size_t)g.consumers};
    const size_t extra = (groups - plan->lw_first) * plan->splits;
    const size_t split_global[1] = {extra * local[0]};
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_WGMMA_LW_SPLIT, 1, split_global, local);
    const size_t global[1] = {(plan->lw_first + extra) * local[0]};
    ocf_plan_step_add(plan, OCF_KERNEL_MATMUL_WGMMA_LW, 1, global, local);
  }
  plan->local_mem_bytes = geometry_bytes(&g);
  if (split) {
    add_split_steps(facts, tuning, call, &g, groups, plan);
  } else if (!lastwave) {
    const ocf_kernel_id kernel = whole_k_tma_kernel(&g, OCF_KERNEL_MATMUL_WGMMA_TMA);
    const ocf_mma_outcome tma = tuning->matmul.wgmma.tma
                                    ? tma_form(facts, call, kernel, &g, groups, 0) /* rule 7 */
                                    : OCF_MMA_NOT_APPLICABLE;
    if (tma == OCF_MMA_PLANNED) {
      add_tma_step(plan, kernel, &g, groups, 0);
    } else {
      add_step(plan, &g, groups);
      if (tma == OCF_MMA_PROBE) plan->probe = ocf_wgmma_tma_probe_due(facts);
    }
  }
  return ocf_plan_verify(plan, facts) == OCF_SUCCESS ? OCF_MMA_PLANNED : OCF_MMA_NOT_APPLICABLE;
}

/* ---- three consumers ---- */

/* Whether every wgmma step of the plan is TMA-fed (the only form of three consumers). */
static int every_step_tma_fed(const ocf_plan *plan) {
  for (unsigned i = 0; i < plan->step_count; i++)
    switch (plan->steps[i].kernel) {
    case OCF_KERNEL_MATMUL_WGMMA:
    case OCF_KERNEL_MATMUL_WGMMA_SB:
    case OCF_KERNEL_MATMUL_WGMMA_SAB:
    case OCF_KERNEL_MATMUL_WGMMA_PB:
    case OCF_KERNEL_MATMUL_WGMMA_PAB:
    case OCF_KERNEL_MATMUL_WGMMA_SPLIT:
    case OCF_KERNEL_MATMUL_WGMMA_SPLIT_JOIN:
    case OCF_KERNEL_MATMUL_WGMMA_LW_SPLIT:
    case OCF_KERNEL_MATMUL_WGMMA_LW:
      return 0;
    default:
      break;
    }
  return 1;
}

/* A plan of wgmma.consumers 3 where every wgmma step it makes is TMA-fed (rule 7 held for it);
   else, and for every other tuning, the plan of at most two consumers. */
ocf_mma_outcome ocf_wgmma_plan_consumers(wgmma_planner planner, const ocf_device_facts *facts,
                                         const ocf_tuning_values *tuning,
                                         const ocf_matmul_call *call, ocf_plan *plan) {
  if (tuning->matmul.wgmma.consumers <= 2) return planner(facts, tuning, call, plan);
  const ocf_mma_outcome three = planner(facts, tuning, call, plan);
  if (three == OCF_MMA_PLANNED && every_step_tma_fed(plan)) return three;
  ocf_tuning_values two = *tuning;
  two.matmul.wgmma.consumers = 2;
  return planner(facts, &two, call, plan);
}

ocf_mma_outcome ocf_plan_matmul_wgmma(const ocf_device_facts *facts,
                                      const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                                      ocf_plan *plan) {
  return ocf_wgmma_plan_consumers(plan_direct, facts, tuning, call, plan);
}

/* ---- the probes ---- */

ocf_status ocf_plan_matmul_wgmma_tma_probe(const ocf_device_facts *facts,
                                           const ocf_tuning_values *tuning, size_t m, size_t n,
                                           ocf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  /* The largest of the rings the tuning's plans may run: its tile's and wave_bn's, each a tile
     a workgroup and, where the tuning makes persistent plans (rule 7), persistent (their areas
     of C, a ring of fewer stages where the two pass what a Hopper workgroup holds), but for
     three consumers, which are never persistent. Three consumers' rings too may pass that
     (their plans then take fewer stages: rule 2). */
  const int persist = tuning->matmul.wgmma.persist && tuning->matmul.wgmma.tma;
  wg_geometry g = geometry_of(&tuning->matmul.wgmma);
  hopper_ring(&g);
  for (int form = 0; form < 4; form++) {
    wg_geometry other =
        form < 2 ? geometry_of(&tuning->matmul.wgmma) : wave_geometry_of(&tuning->matmul.wgmma);
    other.persist = form % 2;
    if (other.bn == 0 || (other.persist && (!persist || inline_producer(&other)))) continue;
    hopper_ring(&other);
    if (tma_bytes(&other) > tma_bytes(&g)) g = other;
  }
  const size_t items = tma_threads(&g);
  if (!facts->nv_compiler_options || items > facts->max_workgroup_size ||
      items > facts->max_item_sizes[0])
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "wgmma TMA probe: needs register caps (cl_nv_compiler_options) and workgroups "
                    "of %zu work-items",
                    items);
  plan->program = OCF_PROGRAM_MATMUL_WGMMA_NV;
  plan->is_probe = 1;
  plan->splits = 1;
  g.wait_limit = 1u << 22; /* a map the TMA copies nothing with ends the probe wrong, not hung */
  ocf_wgmma_define_all(plan, OCF_BF16, 0, &g, NULL);
  const size_t tiles = ocf_div_ceil(m, 64u * g.consumers) * ocf_div_ceil(n, g.bn);
  /* a persistent probe multiplies two tiles a workgroup: the ring goes on from one to the next */
  add_tma_step(plan, OCF_KERNEL_MATMUL_WGMMA_TMA, &g, g.persist ? ocf_div_ceil(tiles, 2) : tiles,
               0);
  ocf_device_facts assumed = *facts; /* finding out is the point */
  assumed.learnt.wgmma_tma = OCF_PROBE_PASSED;
  assumed.learnt.wgmma_tma_local_ok = plan->local_mem_bytes;
  return ocf_plan_verify(plan, &assumed);
}

ocf_status ocf_plan_matmul_wgmma_probe(const ocf_device_facts *facts,
                                       const ocf_tuning_values *tuning, size_t m, size_t n,
                                       ocf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  wg_geometry g = geometry_of(&tuning->matmul.wgmma);
  if (g.consumers > 2) g.consumers = 2; /* three run on the TMA-fed form only */
  if (!threads_fit(facts, &g))
    return ocf_fail(OCF_ERR_INVALID_WORKGROUP,
                    "wgmma probe: %u work-items exceed the device's or the kernel's limit",
                    128u * g.consumers);
  plan->program = OCF_PROGRAM_MATMUL_WGMMA_NV;
  plan->is_probe = 1;
  plan->splits = 1;
  wg_geometry wave = wave_geometry_of(&tuning->matmul.wgmma);
  wave.consumers = g.consumers;
  if (wave.bn > 0 && geometry_bytes(&wave) > geometry_bytes(&g)) /* the larger ring runs */
    g = wave;
  ocf_wgmma_define_all(plan, OCF_BF16, 0, &g, NULL);
  add_step(plan, &g, ocf_div_ceil(m, 64u * g.consumers) * ocf_div_ceil(n, g.bn));
  plan->local_mem_bytes = geometry_bytes(&g);
  /* Verified against facts that take the probe's bytes as shown: finding out is the point. */
  ocf_device_facts assumed = *facts;
  assumed.learnt.wgmma_local_ok = plan->local_mem_bytes;
  return ocf_plan_verify(plan, &assumed);
}
