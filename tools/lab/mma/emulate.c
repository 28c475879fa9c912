/*
 * emulate.c: runs cl/matmul_mma_nv.cl's index arithmetic on the CPU, for one configuration (the
 * same -D flags the kernel is built with), against ptx_model.c's transcription of the PTX
 * semantics, and checks the result against a plain product. It includes the kernel file with
 * OCF_MMA_INDEX_ONLY, so the functions it calls are the kernel's own: the tile order
 * (tile_of), the copy units (unit_place, unit_valid, unit_source) and the swizzle (tile_byte),
 * the ldmatrix lane addresses and scalar fragment addresses (a_frag_byte, b_frag_byte), the
 * accumulator positions (acc_row, acc_col). Per workgroup and K slice it fills the stage tiles
 * copy unit by copy unit (checking that every byte is written exactly once and that the sources
 * are aligned as cp.async needs), loads every warp's fragments through the ldmatrix model or
 * 32-bit reads, multiplies them per the mma fragment tables, and stores through the kernel's
 * epilogue positions. It also counts local-memory bank conflicts of every access pattern.
 *
 * Build (one configuration):
 *   cc -O2 -std=c11 -D... tools/lab/mma/{emulate,ptx_model,numerics}.c -lm
 * Exit status 0 when every shape matches.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"
#include "ptx_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int uint;
typedef unsigned long ulong;
#define OCF_MMA_INDEX_ONLY
#include "../../../cl/matmul_mma_nv.cl"

static int failures;
static int worst_ldsm = 1, worst_lds = 1, worst_cp = 1;

#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      if (failures++ < 20) {                      \
        fprintf(stderr, "emulate: " __VA_ARGS__); \
        fputc('\n', stderr);                      \
      }                                           \
    }                                             \
  } while (0)

/* Largest number of distinct addresses that share one bank (or one group of 4 banks for 16-byte
   accesses) among n accesses. */
static int conflict_degree(const uint32_t *addr, int n, uint32_t unit, uint32_t banks) {
  int worst = 1;
  for (int i = 0; i < n; i++) {
    int same = 0;
    for (int j = 0; j < n; j++) {
      int earlier_duplicate = 0;
      for (int e = 0; e < j; e++)
        if (addr[e] / unit == addr[j] / unit) earlier_duplicate = 1;
      if (!earlier_duplicate && (addr[j] / unit) % banks == (addr[i] / unit) % banks) same++;
    }
    if (same > worst) worst = same;
  }
  return worst;
}

/* One operand in host memory: element bits, EB bytes each. */
typedef struct operand {
  uint8_t *bytes;
  size_t len; /* elements */
} operand;

#if AB_DTYPE != 0
static double decode(uint32_t bits) {
  return AB_DTYPE == 1 ? (double)lab_f16_to_f32((uint16_t)bits)
                       : (double)lab_bf16_to_f32((uint16_t)bits);
}
#endif

static uint32_t element(const operand *x, size_t i) {
  uint32_t v = 0;
  memcpy(&v, x->bytes + i * EB, EB);
  return v;
}

/* The products the kernel's mode forms from two stored values. */
static double product(uint32_t a, uint32_t b) {
#if AB_DTYPE == 0
  const float fa = lab_bits_f32(a), fb = lab_bits_f32(b);
#if PRECISION == 2
  float ab, as, bb, bs;
  lab_split3(fa, &ab, &as);
  lab_split3(fb, &bb, &bs);
  return (double)as * bb + (double)ab * bs + (double)ab * bb;
#else
  return (double)lab_tf32_rna(fa) * lab_tf32_rna(fb);
#endif
#else
  return decode(a) * decode(b);
#endif
}

/* Fills one stage tile of one operand for K slice k0 as load_slice does, for every work-item. */
static void fill_tile(uint8_t *tile, uint32_t tile_bytes, int krows, uint rows, uint ch, int path,
                      const operand *x, size_t x_elem0, ulong ld, ulong xlim, ulong krem) {
  uint8_t *written = calloc(tile_bytes, 1);
  memset(tile, 0xa5, tile_bytes);
  const uint bytes = path == 0 ? 16u : (uint)path;
  const uint units = rows * ch * 16u / bytes;
  const uint n_elems = bytes / EB;
  uint32_t at_phase[THREADS]; /* each work-item's first copy: one instruction of the warp */
  for (uint tid = 0; tid < THREADS; tid++) {
    for (uint i = 0; i < (units + THREADS - 1) / THREADS; i++) {
      const uint u = tid + i * THREADS;
      if (!(units % THREADS == 0 || u < units)) continue;
      uint row, elem;
      unit_place(u, ch, (uint)path, EB, &row, &elem);
      const uint valid = unit_valid(krows, row, elem, n_elems, xlim, krem);
      const uint at = tile_byte(row, elem, ch, EB);
      CHECK(at + bytes <= tile_bytes, "unit %u lands outside the tile", u);
      /* cp.async of n bytes needs an n-byte aligned destination; the plain path stores a uint4 */
      CHECK(at % (path == 0 ? 16u : bytes) == 0, "unit %u lands at byte %u, not %u-byte aligned", u,
            at, path == 0 ? 16u : bytes);
      if (at + bytes > tile_bytes) continue;
      if (valid) {
        const size_t src = x_elem0 + unit_source(row, elem, ld);
        CHECK(path == 0 || (src * EB) % bytes == 0,
              "cp.async source not aligned: element %zu, %u-byte copy", src, bytes);
        CHECK(src + valid <= x->len, "unit reads past the operand: %zu + %u > %zu", src, valid,
              x->len);
        if (src + valid <= x->len) memcpy(tile + at, x->bytes + src * EB, valid * EB);
      }
      memset(tile + at + valid * EB, 0, bytes - valid * EB);
      for (uint b = 0; b < bytes; b++) {
        CHECK(!written[at + b], "tile byte %u written twice", at + b);
        written[at + b] = 1;
      }
      if (i == 0) at_phase[tid] = at;
    }
    if (path == 16 && units >= THREADS && tid % 8 == 7) { /* one 8-thread phase of 16 bytes */
      const int d = conflict_degree(at_phase + tid - 7, 8, 16, 8);
      if (d > worst_cp) worst_cp = d;
    }
  }
  for (uint32_t b = 0; b < tile_bytes; b++)
    CHECK(written[b], "tile byte %u never written", b);
  free(written);
}

/* An ldmatrix row address (16 bytes, 16-byte aligned) or a 32-bit read inside a tile. */
static void check_local_read(uint32_t addr, uint32_t bytes, uint32_t tile_bytes, const char *what) {
  CHECK(addr % bytes == 0, "%s address %u is not %u-byte aligned", what, addr, bytes);
  CHECK(addr + bytes <= tile_bytes, "%s address %u reads past the tile (%u bytes)", what, addr,
        tile_bytes);
}

/* The fragments of one warp at one k step, as the kernel loads them. */
static void load_frags(const uint8_t *a_tile, const uint8_t *b_tile, uint wm, uint wn, uint ks,
                       uint32_t af[32][MT][4], uint32_t bf[32][NT][2]) {
  for (uint mt = 0; mt < MT; mt++) {
    if (!A_KROWS || EB == 2) {
      uint32_t addr[32], regs[32][4];
      for (uint l = 0; l < 32; l++) {
        addr[l] = a_frag_byte(l, wm, mt, ks, 0);
        check_local_read(addr[l], 16, A_CHUNKS * 16, "A ldmatrix row");
      }
      for (int i = 0; i < 4; i++) {
        const int d = conflict_degree(addr + 8 * i, 8, 16, 8);
        if (d > worst_ldsm) worst_ldsm = d;
      }
      ptx_ldmatrix_x4(a_tile, addr, A_KROWS, regs);
      for (uint l = 0; l < 32; l++)
        memcpy(af[l][mt], regs[l], sizeof regs[l]);
    } else {
      for (uint q = 0; q < 4; q++) {
        uint32_t addr[32];
        for (uint l = 0; l < 32; l++) {
          addr[l] = a_frag_byte(l, wm, mt, ks, q);
          check_local_read(addr[l], 4, A_CHUNKS * 16, "A 32-bit fragment");
          memcpy(&af[l][mt][q], a_tile + addr[l], 4);
        }
        const int d = conflict_degree(addr, 32, 4, 32);
        if (d > worst_lds) worst_lds = d;
      }
    }
  }
  for (uint p = 0; p < NT / 2; p++) {
    if (!B_KROWS || EB == 2) {
      uint32_t addr[32], regs[32][4];
      for (uint l = 0; l < 32; l++) {
        addr[l] = b_frag_byte(l, wn, p, ks, 0);
        check_local_read(addr[l], 16, B_CHUNKS * 16, "B ldmatrix row");
      }
      for (int i = 0; i < 4; i++) {
        const int d = conflict_degree(addr + 8 * i, 8, 16, 8);
        if (d > worst_ldsm) worst_ldsm = d;
      }
      ptx_ldmatrix_x4(b_tile, addr, B_KROWS, regs);
      for (uint l = 0; l < 32; l++) {
        bf[l][2 * p][0] = regs[l][0];
        bf[l][2 * p][1] = regs[l][1];
        bf[l][2 * p + 1][0] = regs[l][2];
        bf[l][2 * p + 1][1] = regs[l][3];
      }
    } else {
      for (uint q = 0; q < 4; q++) {
        uint32_t addr[32];
        for (uint l = 0; l < 32; l++) {
          addr[l] = b_frag_byte(l, wn, p, ks, q);
          check_local_read(addr[l], 4, B_CHUNKS * 16, "B 32-bit fragment");
          memcpy(&bf[l][2 * p + (q >> 1)][q & 1], b_tile + addr[l], 4);
        }
        const int d = conflict_degree(addr, 32, 4, 32);
        if (d > worst_lds) worst_lds = d;
      }
    }
  }
}

/* One mma of the warp on tile (mt, nt): the A and B matrices the fragments hold (per the PTX
   tables), their product added to each lane's accumulators at the table's positions. */
static void mma_model(uint32_t af[32][MT][4], uint32_t bf[32][NT][2], uint mt, uint nt,
                      double acc[32][MT * NT * 4]) {
  const int kind = EB == 4 ? PTX_TF32 : PTX_B16, kk = MMA_K;
  uint32_t a[16][16], b[16][8];
  int a_seen[16][16] = {{0}}, b_seen[16][8] = {{0}};
  for (int l = 0; l < 32; l++)
    for (int q = 0; q < 4; q++)
      for (int h = 0; h < (kind == PTX_TF32 ? 1 : 2); h++) {
        int r, c;
        ptx_a_pos(kind, l, q, h, &r, &c);
        a[r][c] = kind == PTX_TF32 ? af[l][mt][q] : (af[l][mt][q] >> (16 * h)) & 0xffffu;
        a_seen[r][c]++;
        if (q < 2) {
          ptx_b_pos(kind, l, q, h, &r, &c);
          b[r][c] = kind == PTX_TF32 ? bf[l][nt][q] : (bf[l][nt][q] >> (16 * h)) & 0xffffu;
          b_seen[r][c]++;
        }
      }
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < kk; c++)
      CHECK(a_seen[r][c] == 1, "A fragment element (%d, %d) held %d times", r, c, a_seen[r][c]);
  for (int r = 0; r < kk; r++)
    for (int c = 0; c < 8; c++)
      CHECK(b_seen[r][c] == 1, "B fragment element (%d, %d) held %d times", r, c, b_seen[r][c]);
  for (int l = 0; l < 32; l++)
    for (int q = 0; q < 4; q++) {
      int r, c;
      ptx_c_pos(l, q, &r, &c);
      double sum = 0.0;
      for (int p = 0; p < kk; p++)
        sum += product(a[r][p], b[p][c]);
      acc[l][(mt * NT + nt) * 4 + q] += sum;
    }
}

typedef struct shape {
  ulong m, n, k, batch;
  ulong a_off, b_off, c_off;
  ulong lda, ldb, ldc;
  ulong stride_a, stride_b, stride_c;
} shape;

static int run_shape(const shape *s, uint64_t seed) {
  const int before = failures;
  const ulong a_rows = TRANS_A ? s->k : s->m, b_rows = TRANS_B ? s->n : s->k;
  operand a = {NULL, s->a_off + (s->batch - 1) * s->stride_a + a_rows * s->lda + 1};
  operand b = {NULL, s->b_off + (s->batch - 1) * s->stride_b + b_rows * s->ldb + 1};
  a.bytes = malloc(a.len * EB);
  b.bytes = malloc(b.len * EB);
  for (size_t i = 0; i < a.len; i++) {
    const float v = lab_rand_unit(&seed);
    const uint32_t bits = AB_DTYPE == 0   ? lab_f32_bits(v)
                          : AB_DTYPE == 1 ? lab_f32_to_f16(v)
                                          : lab_f32_to_bf16(v);
    memcpy(a.bytes + i * EB, &bits, EB);
  }
  for (size_t i = 0; i < b.len; i++) {
    const float v = lab_rand_unit(&seed);
    const uint32_t bits = AB_DTYPE == 0   ? lab_f32_bits(v)
                          : AB_DTYPE == 1 ? lab_f32_to_f16(v)
                                          : lab_f32_to_bf16(v);
    memcpy(b.bytes + i * EB, &bits, EB);
  }
  const size_t c_len = s->c_off + (s->batch - 1) * s->stride_c + s->m * s->ldc + 1;
  double *c = calloc(c_len, sizeof *c);
  int *hits = calloc(c_len, sizeof *hits);
  const uint tiles_m = (uint)((s->m + BM - 1) / BM), tiles_n = (uint)((s->n + BN - 1) / BN);
  int *tile_hits = calloc((size_t)tiles_m * tiles_n + 1, sizeof *tile_hits);
  uint8_t *a_tile = malloc(A_CHUNKS * 16), *b_tile = malloc(B_CHUNKS * 16);
  static double acc[THREADS / 32][32][MT * NT * 4];
  static uint32_t af[32][MT][4], bf[32][NT][2];

  for (ulong batch = 0; batch < s->batch; batch++)
    for (uint id = 0; id < tiles_m * tiles_n; id++) {
      uint tm, tn;
      tile_of(id, tiles_m, tiles_n, &tm, &tn);
      CHECK(tm < tiles_m && tn < tiles_n, "workgroup %u maps to tile (%u, %u)", id, tm, tn);
      if (tm >= tiles_m || tn >= tiles_n) continue;
      if (batch == 0) tile_hits[tm * tiles_n + tn]++;
      const ulong m0 = (ulong)tm * BM, n0 = (ulong)tn * BN;
      const ulong a_xlim = s->m - m0 < BM ? s->m - m0 : BM;
      const ulong b_xlim = s->n - n0 < BN ? s->n - n0 : BN;
      const size_t a_x0 = s->a_off + batch * s->stride_a + (A_KROWS ? m0 : m0 * s->lda);
      const size_t b_x0 = s->b_off + batch * s->stride_b + (B_KROWS ? n0 : n0 * s->ldb);
      memset(acc, 0, sizeof acc);
      for (ulong k0 = 0; k0 < s->k; k0 += BK) {
        fill_tile(a_tile, A_CHUNKS * 16, A_KROWS, A_ROWS, A_CH, A_LOAD, &a,
                  a_x0 + k0 * (A_KROWS ? s->lda : 1), s->lda, a_xlim, s->k - k0);
        fill_tile(b_tile, B_CHUNKS * 16, B_KROWS, B_ROWS, B_CH, B_LOAD, &b,
                  b_x0 + k0 * (B_KROWS ? s->ldb : 1), s->ldb, b_xlim, s->k - k0);
        for (uint warp = 0; warp < THREADS / 32; warp++) {
          const uint wm = warp / WARPS_N, wn = warp % WARPS_N;
          for (uint ks = 0; ks < KSTEPS; ks++) {
            load_frags(a_tile, b_tile, wm, wn, ks, af, bf);
            for (uint mt = 0; mt < MT; mt++)
              for (uint nt = 0; nt < NT; nt++)
                mma_model(af, bf, mt, nt, acc[warp]);
          }
        }
      }
      for (uint warp = 0; warp < THREADS / 32; warp++) {
        const uint wm = warp / WARPS_N, wn = warp % WARPS_N;
        for (uint l = 0; l < 32; l++)
          for (uint mt = 0; mt < MT; mt++)
            for (uint nt = 0; nt < NT; nt++)
              for (uint q = 0; q < 4; q++) {
                int mr, mc;
                ptx_c_pos((int)l, (int)q, &mr, &mc);
                CHECK(acc_row(l, mt, q) == mt * 16 + (uint)mr &&
                          acc_col(l, nt, q) == nt * 8 + (uint)mc,
                      "accumulator position of lane %u q %u differs from the table", l, q);
                const ulong row = m0 + wm * WM + acc_row(l, mt, q);
                const ulong col = n0 + wn * WN + acc_col(l, nt, q);
                if (row < s->m && col < s->n) {
                  const size_t at = s->c_off + batch * s->stride_c + row * s->ldc + col;
                  c[at] = acc[warp][l][(mt * NT + nt) * 4 + q];
                  hits[at]++;
                }
              }
      }
    }
  for (size_t t = 0; t < (size_t)tiles_m * tiles_n; t++)
    CHECK(tile_hits[t] == 1, "tile %zu computed %d times", t, tile_hits[t]);
  for (ulong batch = 0; batch < s->batch; batch++)
    for (ulong i = 0; i < s->m; i++)
      for (ulong j = 0; j < s->n; j++) {
        double want = 0.0, bound = 0.0;
        for (ulong p = 0; p < s->k; p++) {
          const size_t ai =
              s->a_off + batch * s->stride_a + (TRANS_A ? p * s->lda + i : i * s->lda + p);
          const size_t bi =
              s->b_off + batch * s->stride_b + (TRANS_B ? j * s->ldb + p : p * s->ldb + j);
          const double prod = product(element(&a, ai), element(&b, bi));
          want += prod;
          bound += fabs(prod);
        }
        const size_t at = s->c_off + batch * s->stride_c + i * s->ldc + j;
        CHECK(hits[at] == 1, "C(%lu, %lu) of batch %lu written %d times", i, j, batch, hits[at]);
        CHECK(fabs(c[at] - want) <= 1e-12 * (bound + 1e-300), "C(%lu, %lu) = %.17g, want %.17g", i,
              j, c[at], want);
      }
  free(a.bytes), free(b.bytes), free(c), free(hits), free(tile_hits), free(a_tile), free(b_tile);
  return failures == before;
}

static ulong round_up(ulong x, ulong to) {
  return (x + to - 1) / to * to;
}

int main(void) {
  /* Alignment the copy paths need, in elements: 16-byte chunks, 4-byte units, or none. */
  const ulong a_align = A_LOAD == 16 ? CE : A_LOAD == 4 ? 4 / EB : 1;
  const ulong b_align = B_LOAD == 16 ? CE : B_LOAD == 4 ? 4 / EB : 1;
  const ulong sizes[][4] = {
      {BM + 3, 2 * BN - 5, 3 * BK + MMA_K / 2 + 1, 1}, /* ragged m, n and k */
      {1, 1, 1, 1},
      {2 * BM, BN, 2 * BK, 2}, /* whole tiles, two batches */
      {BM - 1, BN + 1, BK - 1, 1},
      {2 * BM + 1, 16, 5, 1},
      {17, 9, 0, 1}, /* k = 0: nothing to load */
  };
  int ok = 1;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    shape s;
    memset(&s, 0, sizeof s);
    s.m = sizes[i][0], s.n = sizes[i][1], s.k = sizes[i][2], s.batch = sizes[i][3];
    const ulong a_cols = TRANS_A ? s.m : s.k, b_cols = TRANS_B ? s.k : s.n;
    const ulong a_rows = TRANS_A ? s.k : s.m, b_rows = TRANS_B ? s.n : s.k;
    s.lda = round_up(a_cols + (a_align == 1 ? 3 : 0), a_align);
    s.ldb = round_up(b_cols + (b_align == 1 ? 1 : 0), b_align);
    s.ldc = s.n + 2;
    s.a_off = a_align == 1 ? 5 : 2 * a_align;
    s.b_off = b_align == 1 ? 3 : a_align;
    s.c_off = 7;
    s.stride_a = round_up(a_rows * s.lda + 1, a_align);
    s.stride_b = round_up(b_rows * s.ldb + 1, b_align);
    s.stride_c = s.m * s.ldc + 3;
    if (!run_shape(&s, 1000 + i)) {
      fprintf(stderr, "emulate: shape %lu x %lu x %lu (batch %lu) FAILED\n", s.m, s.n, s.k,
              s.batch);
      ok = 0;
    }
  }
  printf("emulate %s: AB_DTYPE %d PRECISION %d TRANS %d%d tile %dx%dx%d warp %dx%d stages %d "
         "load %d/%d: local %d bytes; bank conflict degree: ldmatrix %d, 32-bit reads %d, "
         "cp.async %d\n",
         ok ? "OK" : "FAILED", AB_DTYPE, PRECISION, TRANS_A, TRANS_B, BM, BN, BK, WM, WN, STAGES,
         A_LOAD, B_LOAD, SMEM_CHUNKS * 16, worst_ldsm, worst_lds, worst_cp);
  return ok ? 0 : 1;
}
