/*
 * wgmma_join_check.c: matmul_wgmma_split_join of cl/matmul_wgmma_split.clh on the host, its
 * indexing and its counters only (built and run by tools/wgmma_join_check.sh with -DBN, -DCONSUMERS
 * and -DGROUP_M; part.cl is the script's cut of the kernel source: the accumulator fragment's
 * macros, the operands, the epilogue and its pair store, tile_of, operands_of and the split section
 * without the arrival's fences and atomics and the read past L1, which stand here as join_arrive
 * and load_sums). main_loop stands in for the matrix units: a work-item's accumulator for element
 * (row, col) of product p over K range [k0, k0 + kn) is kn w(p, row, col) (0 outside m x n), whose
 * sum over the ranges is exactly k w in floats. The workgroups run one after another in a shuffled
 * order (so that any range may arrive last), each work-item of a workgroup in turn: a work-item's
 * join reads, of its own range, only the pairs it wrote itself, so this order is one the device may
 * take. Checks, for plans made as src/plan/plan_matmul_wgmma.c's rule 5 makes them (several unit
 * counts, shapes, batches):
 *  - every element of every product's m x n written once, to alpha k w + beta C + bias[col];
 *    nothing outside (C's padding columns and the rows between products keep their value);
 *  - the joins read only sums the ranges wrote (the scratch starts as NaN);
 *  - each tile joined once, by the range that arrived last, and every counter back at zero;
 *  - the kernel's accumulator pairs where acc_element (the header's layout) puts them.
 * Prints "ok" or what differed; exit status 1 on a difference.
 */
#define OCF_KERNEL_matmul_wgmma_split_join
#include "wgmma_host_check.h"

/* The arrival: work-item 0 of a workgroup counts it in, the others see its answer (they run
   after it); the last arrival resets the counter and is counted as the tile's join. */
static int last_arrival;
static ulong joins;
static int join_arrive(__global uint *counter, const ulong splits, __local int *last) {
  (void)last;
  if (local_id == 0) {
    last_arrival = (*counter)++ == splits - 1;
    if (last_arrival) {
      *counter = 0;
      joins++;
    }
  }
  return last_arrival;
}

static float2 load_sums(__global const float *p) {
  return (float2){p[0], p[1]};
}

#include "part.cl"

#include "wgmma_host_acc.h"

/* One plan of rule 5 (split_min min_k) run in a shuffled workgroup order and checked; 0 when
   the shape does not split (not counted). */
static int check(const ulong units, const ulong m, const ulong n, const ulong k, const ulong batch,
                 const ulong min_k, const float beta, unsigned seed) {
  const ulong tiles = div_ceil(m, BM) * div_ceil(n, BN), groups = tiles * batch;
  if (groups >= units) return 0;
  ulong splits = min(units / groups, k / min_k);
  if (splits < 2) return 0;
  const ulong k_split = div_ceil(div_ceil(k, splits), BK) * BK;
  splits = div_ceil(k, k_split);
  if (splits < 2) return 0;

  /* C_OFF is odd: the joins store one element at a time, each store counted */
  const ulong ldp = (n + 3) / 4 * 4;
  check_arrays x = arrays_of(m, n, batch, splits * batch * m * ldp);
  uint *counters = calloc(groups, sizeof(uint));
  uint *order = malloc(groups * splits * sizeof(uint));
  if (!counters || !order) {
    printf("out of memory\n");
    exit(1);
  }
  const float alpha = 0.5f;
  const ulong launched = groups * splits;
  shuffle_groups(order, launched, seed);

  joins = 0;
  for (ulong g = 0; g < launched; g++) {
    group_id = order[g];
    for (local_id = 0; local_id < THREADS; local_id++)
      matmul_wgmma_split_join(m, n, k, origin, 0, k, SA, origin, 0, n, 0, splits, k_split,
                              x.scratch, alpha, beta, c_base, C_OFF, x.ldc, x.stride_c, x.bias,
                              BIAS_OFF, counters);
  }

  char plan[160];
  snprintf(plan, sizeof plan, "units %lu, %lu x %lu x %lu, batch %lu (%lu ranges of %lu)", units, m,
           n, k, batch, splits, k_split);
  check_c(plan, &x, m, n, k, alpha, beta);
  if (joins != groups && failures++ < 5)
    printf("%lu x %lu x %lu, batch %lu: %lu joins for %lu tiles\n", m, n, k, batch, joins, groups);
  for (ulong i = 0; i < groups; i++)
    if (counters[i] != 0 && failures++ < 5) printf("counter %lu left at %u\n", i, counters[i]);
  free(counters), free(order);
  return 1;
}

int main(void) {
  static const ulong cases[][5] = {
      /* units, m, n, k, batch */
      {132, 128, 8192, 8192, 1}, {132, 100, 1030, 3000, 1}, {132, 300, 520, 1000, 1},
      {132, 77, 130, 333, 1},    {132, 150, 260, 888, 2},   {16, 129, 257, 700, 1},
      {40, 64, 4096, 4000, 3},   {9, 1, 1, 1000, 1},        {132, 200, 264, 1024, 4}};
  check_fragment(3 * BM, 5 * BN);
  int planned = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int b = 0; b < 2; b++)
      planned += check(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], 64,
                       b ? 0.75f : 0.0f, 17u + (unsigned)(7 * i + b));
  return checks_done(planned, "split");
}
