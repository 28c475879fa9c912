/*
 * wgmma_sk_check.c: the persistent TMA-fed form (matmul_wgmma_tma with PERSIST) and stream-K on it
 * (matmul_wgmma_tma_sk) of cl/matmul_wgmma_sk.clh on the host, their tiles, ranges, ring order
 * and meetings (built and
 * run by tools/wgmma_sk_check.sh with -DBN, -DCONSUMERS and -DGROUP_M; part.cl is the script's
 * cut of the kernel source before the kernel: the accumulator fragment's macros, the operands,
 * tile_of, operands_of, the epilogue's element, slices_of and the ring's plan; part2.cl the
 * whole-K entry, the pieces' count, the meeting, sk_gather, and the stream-K kernel). What stands
 * in here: tma_start
 * (the ring set up: the TMA fills stages in ring order, which is ring_slot's), tma_tile (a
 * warpgroup's sums of ring slices c0 to c0 + count - 1: each slice's K elements times w(row, col),
 * checked to be one tile's consecutive slices, in ring order), tma_finish (the epilogue, every
 * element stored counted), and the meeting's device steps (arrival, barriers, reset, reads past
 * L1). The workgroups run one after another in a shuffled order, so that any of a tile's pieces
 * may arrive last, each work-item of a workgroup in turn; work-item 0 of a warpgroup runs before
 * its others, and a barrier's answer is recorded by it and read by them. Checks, for grids made as
 * src/plan/plan_matmul_wgmma.c's ocf_wgmma_take_persistent and take_stream_k make them (several
 * unit counts, tile counts a little and far past whole waves and whole waves, ragged k, k of one
 * slice):
 *  - every element of m x n written once, to alpha k w + beta C + bias[col]; nothing outside;
 *  - every slice of every tile multiplied once by each warpgroup row block, tile by tile in
 *    ring order, never past the ring's slices;
 *  - the meetings read only sums the other pieces wrote (the scratch starts as NaN), each used
 *    counter met by each of its tile's pieces once, reset only by the last and left at zero;
 *  - the kernel's accumulator pairs where acc_element (the header's layout) puts them.
 * Prints "ok" or what differed; exit status 1 on a difference.
 */
#define OCF_KERNEL_matmul_wgmma_tma_sk
#define PERSIST 1
#define TMA_SK 1
#define SK_ENTRY matmul_wgmma_tma_sk
#define TMA_ENTRY matmul_wgmma_tma
#define TMA_THREADS THREADS
#define TMA_SMEM_BYTES 16
#include "wgmma_host_check.h"

static uint num_groups;
static uint get_num_groups(int d) {
  (void)d;
  return num_groups;
}

typedef struct float4 {
  float x, y, z, w;
} float4;
#define FLOAT4(...) ((float4){__VA_ARGS__})

#include "part.cl"

#include "wgmma_host_acc.h"

/* ---- the ring ---- */

static ulong call_k, call_m, call_n;
static uint ring_total;         /* ring_slices of the workgroup's plan */
static uint consumed[THREADS];  /* each work-item's ring slices so far */
static unsigned char *coverage; /* [(slot slices + kt) CONSUMERS + warpgroup]: slices multiplied */

static int tma_start(const uint base, __global uchar *maps, const ring_plan *r, const uint t) {
  (void)base, (void)maps;
  ring_total = ring_slices(r);
  consumed[t] = 0;
  return 1;
}

static void tma_tile(float *acc, const uint base, __global const uchar *maps, const ring_plan *r,
                     const uint c0, const uint count, const uint t) {
  (void)base, (void)maps;
  if ((c0 != consumed[t] || count == 0 || c0 + count > ring_total) && failures++ < 5)
    printf("work-item %u of group %u: ring slices %u + %u after %u of %u\n", t, group_id, c0, count,
           consumed[t], ring_total);
  consumed[t] = c0 + count;
  uint kt0;
  const uint slot = ring_slot(r, c0, &kt0);
  ulong elements = 0;
  for (uint c = c0; c < c0 + count; c++) {
    uint kt;
    const uint at = ring_slot(r, c, &kt);
    if ((at != slot || kt != kt0 + (c - c0) || kt >= r->slices) && failures++ < 5)
      printf("group %u: ring slice %u is slice %u of slot %u in a segment of slot %u from %u\n",
             group_id, c, kt, at, slot, kt0);
    elements += min((ulong)BK, call_k - (ulong)kt * BK);
    if (t % 128 == 0) coverage[((ulong)at * r->slices + kt) * CONSUMERS + t / 128]++;
  }
  const operands tile = ring_tile(r, slot);
  fake_acc(acc, 0, elements, call_m, call_n, tile.m0, tile.n0, t);
}

static void tma_finish(__global C_T *c, const ulong c_at, const ulong ldc, const ulong m,
                       const ulong n, const operands *tile, const float *acc, const float alpha,
                       const float beta, __global const BIAS_T *bias, const ulong bias_off,
                       const uint base, const uint t) {
  (void)base;
  epilogue e;
  e.alpha = alpha, e.beta = beta, e.bias = bias, e.bias_off = bias_off;
  store_finished(c + c_at, ldc, m, n, tile->m0, tile->n0, acc, &e, t);
}

/* ---- the meeting's device steps ---- */

#define MEETINGS 64                      /* a warpgroup's barriers in one workgroup, at most */
static int answers[CONSUMERS][MEETINGS]; /* warpgroup_any's, as work-item 0 of each saw it */
static uint asked[THREADS];              /* each work-item's warpgroup_any calls so far */
static uint *met;                        /* arrivals at each counter over the launch */
static uint *counters_base;

static int warpgroup_any(const uint wg, const int p) {
  const uint t = local_id, i = asked[t]++;
  if (i >= MEETINGS) {
    if (failures++ < 5) printf("more than %d meetings in group %u\n", MEETINGS, group_id);
    return p;
  }
  if (t % 128 == 0) answers[wg][i] = p;
  return answers[wg][i] || p;
}

static void warpgroup_sync(const uint wg) {
  (void)wg;
}

static uint pieces_now; /* the launch's pieces a tile (sk_pieces) */

static uint sk_arrive(__global uint *counter) {
  met[counter - counters_base]++;
  return (*counter)++;
}

static void sk_reset(__global uint *counter) {
  if (*counter != pieces_now && failures++ < 5)
    printf("group %u resets counter %ld at %u of %u arrivals\n", group_id,
           (long)(counter - counters_base), *counter, pieces_now);
  *counter = 0;
}

static float4 sk_load(__global const float4 *p) {
  return *p;
}

#include "part2.cl"

/* One grid of ocf_wgmma_take_persistent (units workgroups; stream-K: take_stream_k's) run in a
   shuffled workgroup order and checked; 0 when the shape does not take it (not counted). */
static int check(const int stream_k, const ulong units, const ulong m, const ulong n, const ulong k,
                 const float beta, unsigned seed) {
  const ulong tiles = div_ceil(m, BM) * div_ceil(n, BN), slices = div_ceil(k, BK);
  const ulong rest = tiles % units;
  if (tiles <= units || (stream_k && rest == 0)) return 0;
  pieces_now = stream_k ? sk_pieces((uint)units, (uint)rest, (uint)slices) : 0;
  if (stream_k && pieces_now < 2) return 0; /* take_stream_k's gate */
  call_k = k, call_m = m, call_n = n, num_groups = (uint)units;
  /* the maps (256 bytes a workgroup, untouched here), then a tile of sums a piece */
  const ulong map_floats = 64 * units, sum_floats = rest * pieces_now * BM * BN;
  check_arrays x = arrays_of(m, n, 1, map_floats + sum_floats);
  const ulong counted = rest * CONSUMERS;
  uint *counters = calloc(counted, sizeof(uint));
  met = calloc(counted, sizeof(uint));
  coverage = calloc(tiles * slices * CONSUMERS, 1);
  uint *order = malloc(units * sizeof(uint));
  if (!counters || !met || !coverage || !order) {
    printf("out of memory\n");
    exit(1);
  }
  counters_base = counters;
  shuffle_groups(order, units, seed);
  const float alpha = 0.5f;
  for (ulong g = 0; g < units; g++) {
    group_id = order[g];
    memset(asked, 0, sizeof asked);
    for (local_id = 0; local_id < THREADS; local_id++)
      if (stream_k)
        matmul_wgmma_tma_sk(m, n, k, alpha, origin, 0, k, SA, origin, 0, n, 0, beta, c_base, C_OFF,
                            x.ldc, x.stride_c, x.bias, BIAS_OFF, (uchar *)x.scratch, 0, counters);
      else
        matmul_wgmma_tma(m, n, k, alpha, origin, 0, k, SA, origin, 0, n, 0, beta, c_base, C_OFF,
                         x.ldc, x.stride_c, x.bias, BIAS_OFF, (uchar *)x.scratch, 0);
  }

  char plan[160];
  snprintf(plan, sizeof plan, "%s, units %lu, %lu x %lu x %lu (%lu tiles of %lu slices)",
           stream_k ? "stream-K" : "persistent", units, m, n, k, tiles, slices);
  check_c(plan, &x, m, n, k, alpha, beta);
  for (ulong i = 0; i < tiles * slices * CONSUMERS; i++)
    if (coverage[i] != 1 && failures++ < 5)
      printf("%s: slice %lu of tile %lu multiplied %u times by warpgroup %lu\n", plan,
             i / CONSUMERS % slices, i / CONSUMERS / slices, coverage[i], i % CONSUMERS);
  for (ulong i = 0; i < counted; i++)
    if ((counters[i] != 0 || met[i] != (stream_k ? pieces_now : 0)) && failures++ < 5)
      printf("%s: counter %lu met %u times (pieces %u), left at %u\n", plan, i, met[i], pieces_now,
             counters[i]);
  free(counters), free(met), free(coverage), free(order);
  return 1;
}

int main(void) {
  static const ulong cases[][4] = {
      /* units, m, n, k */
      {132, 4096, 4096, 4096}, {132, 3000, 3000, 3000}, {16, 1000, 600, 1000},
      {7, 500, 520, 333},      {9, 700, 1300, 64},      {5, 1000, 300, 1},
      {12, 900, 700, 200},     {3, 400, 300, 130},      {20, 2000, 1000, 777},
      {4, 1024, 1024, 300},    {132, 4095, 4104, 4000}, {132, 17230, 257, 72},
      {132, 17529, 200, 72},   {132, 17230, 257, 520}};
  check_fragment(3 * BM, 5 * BN);
  int planned = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int b = 0; b < 2; b++)
      for (int stream_k = 0; stream_k < 2; stream_k++)
        planned += check(stream_k, cases[i][0], cases[i][1], cases[i][2], cases[i][3],
                         b ? 0.75f : 0.0f, 17u + (unsigned)(7 * i + b));
  return checks_done(planned, "took the persistent form");
}
