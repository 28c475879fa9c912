/*
 * wgmma_copy_check.c: the copy functions of cl/matmul_wgmma_nv.cl on the host (built and run by
 * tools/wgmma_copy_check.sh with -DAB_DTYPE, -DTRANS_B, -DBN and -DCONSUMERS; part.cl is the
 * script's cut of the kernel source). cp.async is recorded as (shared destination, source
 * offset, bytes). Checks, for every work-item of a workgroup:
 *  - an interior slice by load_slice_fast (its plan moved on through the slices before) and by
 *    load_slice: the same chunks, all of 16 bytes, no destination twice;
 *  - every slice of whole problems by copy_slice and by load_slice, the workgroup's copies of
 *    each slice as a set, on interior tiles and on edge tiles past m, n or both by whole chunks
 *    or a part of one (k a multiple of BK or not: the last slice bounded); copy_slice takes
 *    load_slice_fast on every slice inside k.
 * Prints "ok" or what differed; exit status 1 on a difference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned char uchar;
#define __global
#define INLINE static inline
#define min(a, b) ((a) < (b) ? (a) : (b))

/* as cl/matmul_wgmma_nv.cl derives them */
#define BM (64 * CONSUMERS)
#define THREADS (128 * CONSUMERS)
#if AB_DTYPE == 0
#define EB 4
#else
#define EB 2
#endif
#define BK (128 / EB)
#define CE (16 / EB)
#define A_BYTES (BM * 128)
#define B_BYTES (BN * 128)

enum { MAX_COPIES = 1 << 16 };
static long copies[MAX_COPIES][2]; /* destination; source offset * 32 + bytes */
static int ncopies;
static const uchar *origin = (const uchar *)0x100000000ul; /* never read */
static int whole_only = 1;                                 /* every copy must be 16 bytes */
static int failures;

static void cp_async16(const uint dst, const uchar *src, const uint bytes) {
  if (whole_only && bytes != 16 && failures++ < 3) printf("a copy of %u bytes\n", bytes);
  if (ncopies == MAX_COPIES) {
    printf("too many copies\n");
    exit(1);
  }
  copies[ncopies][0] = dst;
  copies[ncopies][1] = bytes ? (src - origin) * 32 + bytes : -1; /* nothing read: any source */
  ncopies++;
}

static uint chunk_bytes(const ulong first, const ulong size) {
  return first < size ? (uint)min((ulong)16, (size - first) * EB) : 0u;
}

#include "part.cl"

static long saved[MAX_COPIES][2];

static int by_destination(const void *x, const void *y) {
  const long *a = x, *b = y;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* The n copies in saved and in copies, each sorted: the same, no destination twice. */
static int same_copies(const int n) {
  if (n != ncopies) return 0;
  qsort(saved, (size_t)n, sizeof(saved[0]), by_destination);
  qsort(copies, (size_t)n, sizeof(copies[0]), by_destination);
  for (int i = 0; i < n; i++)
    if (saved[i][0] != copies[i][0] || saved[i][1] != copies[i][1] ||
        (i > 0 && saved[i][0] == saved[i - 1][0]))
      return 0;
  return 1;
}

/* The copies so far moved to saved; their count. */
static int save(void) {
  const int n = ncopies;
  memcpy(saved, copies, sizeof(copies[0]) * (size_t)n);
  ncopies = 0;
  return n;
}

static operands problem(const ulong lda, const ulong ldb) {
  operands o;
  o.a = origin + 64 * EB;
  o.b = origin + 56000 * EB;
  o.lda = lda, o.ldb = ldb;
  o.m = o.n = o.k = 100000;
  o.m0 = o.n0 = 0;
  return o;
}

int main(void) {
  const ulong lds[] = {4096, 8192 + 64, 4104, 8000};
  for (int li = 0; li < 4; li++)
    for (ulong tile = 0; tile < 3; tile++)
      for (ulong kt = 1; kt < 3; kt++) {
        operands o = problem(lds[li], lds[(li + 1) % 4]);
        o.m0 = tile * BM, o.n0 = tile * 3 * BN;
        const uint stage = 7 * 1024;
        for (uint t = 0; t < THREADS; t++) {
          copy_plan p;
          plan_copies(&p, &o, t);
          for (ulong s = 0; s <= kt; s++) {
            const int before = ncopies;
            load_slice_fast(stage, &p, &o, s, t, 0);
            if (s < kt) ncopies = before; /* the slices before only move the plan on */
          }
        }
        const int n = save();
        for (uint t = 0; t < THREADS; t++)
          load_slice(stage, &o, kt, t);
        if (n != ncopies) {
          printf("%d copies, load_slice %d\n", n, ncopies);
          return 1;
        }
        qsort(saved, (size_t)n, sizeof(saved[0]), by_destination);
        qsort(copies, (size_t)n, sizeof(copies[0]), by_destination);
        for (int i = 0; i < n; i++) {
          if ((saved[i][0] != copies[i][0] || saved[i][1] != copies[i][1]) && failures++ < 3)
            printf("ld %lu tile %lu slice %lu: %ld from %ld, load_slice %ld from %ld\n", lds[li],
                   tile, kt, saved[i][0], saved[i][1], copies[i][0], copies[i][1]);
          if (i > 0 && saved[i][0] == saved[i - 1][0] && failures++ < 3)
            printf("destination %ld twice\n", saved[i][0]);
        }
        ncopies = 0;
      }

  whole_only = 0;
  /* Edge tiles: rows past m, columns past n (whole chunks outside, a chunk cut by n), either
     or both, then an interior tile (the last case). */
  const ulong ks[] = {BK, 5 * BK, 5 * BK + 3, 7 * BK - CE, 2};
  const ulong m_past[] = {5, BM - 1, 1, BM, BM, 64 + 3, 4 * BM};
  const ulong n_past[] = {BN - 8, BN - 3, 1, 8 + 5, BN, BN, 3 * BN};
  enum { CASES = sizeof m_past / sizeof m_past[0] };
  for (int ki = 0; ki < 5; ki++)
    for (int ci = 0; ci < CASES; ci++) {
      const int inside = ci == CASES - 1;
      operands o = problem(8064, 8008);
      o.k = ks[ki], o.m0 = BM, o.n0 = 2 * BN;
      o.m = o.m0 + m_past[ci];
      o.n = o.n0 + n_past[ci];
      const ulong slices = (o.k + BK - 1) / BK;
      static copy_plan plans[THREADS]; /* each work-item's, moving on through the slices */
      for (uint t = 0; t < THREADS; t++)
        plan_copies(&plans[t], &o, t);
      /* a slice's chunks may fall to other work-items than load_slice's (the barrier before
         the multiply waits for all), so the workgroup's copies are compared as a set */
      for (ulong kt = 0; kt < slices; kt++) {
        for (uint t = 0; t < THREADS; t++)
          copy_slice(1024, &plans[t], &o, inside, kt, t);
        const int n = save();
        for (uint t = 0; t < THREADS; t++)
          load_slice(1024, &o, kt, t);
        if (!same_copies(n) && failures++ < 3)
          printf("k %lu %s tile: slice %lu differs\n", o.k, inside ? "interior" : "edge", kt);
        ncopies = 0;
      }
    }
  printf("%s\n", failures ? "differences" : "ok");
  return failures != 0;
}
