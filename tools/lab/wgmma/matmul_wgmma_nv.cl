/*
 * matmul_wgmma_nv.cl: GEMM on Hopper's warpgroup matrix units (wgmma.mma_async, sm_90a) through
 * inline PTX, for NVIDIA's OpenCL (issue 18, first step: a lab kernel, library-ready in form).
 *
 *   C[m, n] = alpha * sum_k A[m, k] B[k, n] + beta * C[m, n]      (fp32 C, fp32 accumulation)
 *
 * A is row-major m x k (K-major). B is row-major k x n (OCF_WG_BT 0: MN-major, the wgmma
 * transpose bit of B set; 16-bit inputs only) or given as its transpose, row-major n x k
 * (OCF_WG_BT 1: K-major, the only form TF32 takes). C is row-major m x n.
 *
 * One workgroup computes a BM x BN tile of C (BN 128, 192 or 256), BM = 64 * CONSUMERS: each
 * warpgroup (128 work-items) owns 64 rows and issues m64nBNk16 (k8 for TF32) from shared-memory
 * descriptors. K goes in slices of 128 bytes (BK = 64 at 16 bits, 32 at TF32) through a ring of
 * STAGES stages (OCF_WG_PRODUCER picks who fills it, below), all in the same layout:
 *
 *   stage s:  A slice  BM rows x 128 B         B slice (BT 1)  BN rows x 128 B
 *             row r at r * 128, its 16-byte    as A
 *             chunk j at (j ^ (r % 8)) * 16    B slice (BT 0)  BN / 64 blocks of 64 columns,
 *             (the 128-byte swizzle: every     block b at b * 8 KiB: k row r at r * 128, its
 *             8 rows form a 1 KiB atom)        chunk j (columns 8j..8j+7) at (j ^ (r % 8)) * 16
 *
 *   descriptors (bits 0-13 address >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 62-63 = 1: 128B swizzle)
 *     K-major  : start = slice + k step * 32 B, SBO = 1 KiB (next 8 rows), LBO unused (16)
 *     MN-major : start = slice + k step * 2 KiB, LBO = 8 KiB (next 64 columns), SBO = 1 KiB (next
 *                8 k rows)
 *
 * Every consumer warpgroup multiplies a slice with one asm statement: wgmma.fence, the 4 k
 * steps, commit_group, wait_group 1 (so the previous slice's group is done and its stage free).
 *
 *   PRODUCER 0 (cp.async, every work-item; THREADS = 128 * CONSUMERS): slice kt: wait for this
 *     work-item's copies of slice kt, fence.proxy.async (cp.async writes through the generic
 *     proxy, wgmma reads through the async proxy), barrier, multiply, then copy slice
 *     kt + STAGES - 2 into the stage slice kt - 2 used. STAGES - 2 slices in flight.
 *   PRODUCER 1 (cp.async by an extra first warpgroup; THREADS + 128): full / empty mbarriers per
 *     stage, cp.async.mbarrier.arrive.noinc; no CTA barrier in the loop. (Slower than 0 here.)
 *   PRODUCER 2 (TMA by an extra last warp, one work-item issuing; THREADS + 32): per slice wait
 *     for the stage's empty barrier, mbarrier.arrive.expect_tx of the stage's bytes on its full
 *     barrier, then cp.async.bulk.tensor of A's box and B's box(es) from tensor maps in global
 *     memory (`maps`, encoded by the host with the CUDA driver's cuTensorMapEncodeTiled, 128-byte
 *     swizzle, zero fill outside the matrix). The fastest by far: 773 TFLOP/s bf16 at 8192^3.
 *
 * sm_90a only: every wgmma instruction sits in the asm text behind the comment prefix
 * `// SM90A ` (wgmma_asm.clh, generated): NVIDIA's compiler writes PTX for sm_90 and sees
 * comments; the host takes that PTX (CL_PROGRAM_BINARIES), strips the prefix, sets
 * `.target sm_90a` and loads it with clCreateProgramWithBinary.
 *
 * Needs: m, n any (edges zero-filled and guarded), n and k multiples of 8 (16-bit) or 4 (TF32)
 * and 16-byte aligned rows (leading dimensions multiples of 16 bytes, offsets 0). The TMA also
 * needs the buffers' device addresses (the host reads them with a kernel) and a CUDA context
 * current in the host thread that encodes the maps.
 * TF32 inputs are taken as fp32 bits (wgmma uses the top 19 bits): round them first.
 */

/* ---- tunables (the host passes every one) ---- */
/* 0 bf16, 1 f16, 2 tf32 */
#ifndef OCF_WG_DTYPE
#error "OCF_WG_DTYPE missing"
#endif
/* columns of the tile: 128, 192 or 256 */
#ifndef OCF_WG_BN
#error "OCF_WG_BN missing"
#endif
/* consumer warpgroups (each 64 rows): 1 or 2 */
#ifndef OCF_WG_CONSUMERS
#error "OCF_WG_CONSUMERS missing"
#endif
/* stages of the cp.async ring: 3 to 6 */
#ifndef OCF_WG_STAGES
#error "OCF_WG_STAGES missing"
#endif
/* 0: B row-major k x n (MN-major); 1: B given transposed, row-major n x k (K-major) */
#ifndef OCF_WG_BT
#error "OCF_WG_BT missing"
#endif
/* tile rows per group of the launch order (L2 reuse) */
#ifndef OCF_WG_GROUP_M
#error "OCF_WG_GROUP_M missing"
#endif
/* 0: every work-item copies (cp.async) and multiplies, one barrier per slice; 1: one more
   warpgroup (the first) only copies (cp.async + mbarrier ring, no CTA barrier in the loop);
   2: one more warp (the last) only copies, with the tensor memory accelerator (TMA:
   cp.async.bulk.tensor from two tensor maps the host encodes, 128-byte swizzle);
   3: as 2, but that warp makes the two maps itself (tensormap.replace of every field of a
   zeroed map in local memory, then tensormap.cp_fenceproxy to this workgroup's 256 bytes of
   `maps`): no CUDA driver call at all */
#ifndef OCF_WG_PRODUCER
#error "OCF_WG_PRODUCER missing"
#endif
/* layout probe only: 1 swaps LBO and SBO of the MN-major B descriptor */
#ifndef OCF_WG_SWAP_MN
#define OCF_WG_SWAP_MN 0
#endif
/* 1: the kernel takes one more argument, `clock`, four ulongs a workgroup: %globaltimer when its
   first work-item starts and when the whole workgroup is done (after a barrier behind the
   stores), its tile (tm << 32 | tn) and %smid. Where the time of a ragged call goes: do edge
   tiles run longer, start later, or crowd some compute units (docs/GEMM.md, "Ragged 16-bit
   shapes on wgmma: where the time goes")? */
#ifndef OCF_WG_CLOCK
#define OCF_WG_CLOCK 0
#endif

/* 2 (with OCF_WG_PRODUCER 2): workgroups run in clusters of two, the pair of tiles (2 p, tn) and
   (2 p + 1, tn) sharing B: each workgroup's producer loads its own A and half of B, the half
   multicast into both workgroups' stages (cp.async.bulk.tensor ... .multicast::cluster), so a
   unit reads BM + BN / 2 rows a slice from L2 instead of BM + BN; a stage is refilled once both
   workgroups' consumers released it (each consumer warpgroup arrives on its own `empty` barrier
   and on its peer's). The cluster's size is fixed in the kernel: `.reqnctapercluster 2, 1, 1`
   in the entry's header (what CUDA's __cluster_dims__ writes), which the host's retarget moves
   there from the `// SM90A_HEADER ` line the kernel's body carries; an ordinary launch of an
   even number of workgroups then runs clusters (tools/lab/cluster/cluster_probe.c). 1: none. */
#ifndef OCF_WG_CLUSTER
#define OCF_WG_CLUSTER 1
#endif
#if OCF_WG_CLUSTER == 2 && OCF_WG_PRODUCER != 2
#error "OCF_WG_CLUSTER 2 needs OCF_WG_PRODUCER 2"
#endif

/* ---- derived ---- */
#define BN OCF_WG_BN
#define BM (64 * OCF_WG_CONSUMERS)
#define STAGES OCF_WG_STAGES
#if OCF_WG_PRODUCER >= 2
#define THREADS (128 * OCF_WG_CONSUMERS + 32)
#else
#define THREADS (128 * OCF_WG_CONSUMERS + 128 * OCF_WG_PRODUCER)
#endif
#define COPIERS (OCF_WG_PRODUCER ? 128 : THREADS) /* work-items that copy (cp.async) */
#if OCF_WG_DTYPE == 2
#define EB 4 /* bytes per element */
#else
#define EB 2
#endif
#define BK (128 / EB)      /* elements of K per slice */
#define CE (16 / EB)       /* elements per 16-byte chunk */
#define A_BYTES (BM * 128) /* one stage of A */
#define B_BYTES (BN * 128) /* one stage of B */
#define STAGE_BYTES (A_BYTES + B_BYTES)
#define NACC (BN / 2) /* fp32 accumulators per work-item */
#if OCF_WG_DTYPE == 2 && OCF_WG_BT == 0
#error "TF32 wgmma takes K-major B only (OCF_WG_BT 1)"
#endif
#if STAGES < 3
#error "OCF_WG_STAGES must be at least 3"
#endif

#define INLINE static inline __attribute__((always_inline))
#ifndef OCF_ASM
#define OCF_ASM __asm__
#endif

#include "wgmma_asm.clh"

#define CAT5(a, b, c, d, e) a##b##c##d##e
#define XCAT5(a, b, c, d, e) CAT5(a, b, c, d, e)
#if OCF_WG_DTYPE == 0
#define WG_SLICE XCAT5(wgmma_slice_n, BN, _bf16_t, OCF_WG_BT_BIT, )
#elif OCF_WG_DTYPE == 1
#define WG_SLICE XCAT5(wgmma_slice_n, BN, _f16_t, OCF_WG_BT_BIT, )
#else
#define WG_SLICE XCAT5(wgmma_slice_n, BN, _tf32_t, 0, )
#endif
/* the transpose bit of B: set for MN-major B */
#if OCF_WG_BT == 0
#define OCF_WG_BT_BIT 1
#else
#define OCF_WG_BT_BIT 0
#endif
#define WG_WAIT0 XCAT5(wgmma_wait0_n, BN, , , )

/* ---- PTX helpers ---- */

INLINE uint local_addr(__local const void *p) {
  return (uint)(ulong)p;
}

/* 16 bytes from src to shared dst when valid, else 16 zero bytes (nothing read). */
INLINE void cp_async16(const uint dst, __global const uchar *src, const uint valid) {
  OCF_ASM volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"((ulong)src),
                   "r"(valid ? 16u : 0u)
                   : "memory");
}
INLINE void cp_async_commit(void) {
  OCF_ASM volatile("cp.async.commit_group;" ::: "memory");
}
/* This work-item's copies of the slice to multiply have landed: at most STAGES - 3 groups open. */
INLINE void cp_async_wait_slice(void) {
#if STAGES == 3
  OCF_ASM volatile("cp.async.wait_group 0;" ::: "memory");
#elif STAGES == 4
  OCF_ASM volatile("cp.async.wait_group 1;" ::: "memory");
#elif STAGES == 5
  OCF_ASM volatile("cp.async.wait_group 2;" ::: "memory");
#else
  OCF_ASM volatile("cp.async.wait_group 3;" ::: "memory");
#endif
}
/* Makes this work-item's generic-proxy writes of shared memory visible to the async proxy. */
INLINE void fence_proxy_async(void) {
  OCF_ASM volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* mbarriers (8 bytes of shared memory each) for the producer's ring */
INLINE void mbar_init(const uint bar, const uint count) {
  OCF_ASM volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
INLINE void mbar_arrive(const uint bar) {
  OCF_ASM volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/* Arrives on bar when this work-item's cp.async so far have landed (counts as one arrival). */
INLINE void mbar_arrive_copies(const uint bar) {
  OCF_ASM volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
/* OCF_WG_WAIT_LIMIT (lab only): trap after that many polls instead of hanging */
INLINE void mbar_wait(const uint bar, const uint parity) {
  uint done = 0;
#ifdef OCF_WG_WAIT_LIMIT
  uint polls = 0;
#endif
  while (!done) {
#ifdef OCF_WG_WAIT_LIMIT
    if (++polls > OCF_WG_WAIT_LIMIT) OCF_ASM volatile("trap;");
#endif
    OCF_ASM volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
  }
}

/* The TMA: arrive on bar expecting `bytes` more of asynchronous copies before it completes. */
INLINE void mbar_expect_tx(const uint bar, const uint bytes) {
  OCF_ASM volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                   : "memory");
}
/* A box of the tensor map at (x: inner, y: outer) to shared dst; completes bytes on bar. */
INLINE void tma_load_2d(const uint dst, const ulong map, const int x, const int y, const uint bar) {
  OCF_ASM volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                   "bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                   "l"(map), "r"(x), "r"(y), "r"(bar)
                   : "memory");
}
/* The tensor map was written to global memory before the launch: acquire it for the TMA. */
INLINE void tensormap_acquire(const ulong map) {
  OCF_ASM volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(map) : "memory");
}

#if OCF_WG_CLUSTER == 2
/* This workgroup's rank in its cluster (0 or 1). */
INLINE uint cluster_rank(void) {
  uint r;
  OCF_ASM volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
/* Every work-item of both workgroups: the barriers' init (released at cluster scope) seen by the
   peer before it arrives on them or multicasts into them; at the end, no workgroup leaves while
   its peer may still arrive on its barriers. */
INLINE void cluster_sync(void) {
  OCF_ASM volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}
INLINE void fence_mbarrier_init(void) {
  OCF_ASM volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
/* The same barrier in the peer workgroup's local memory, arrived on at cluster scope. */
INLINE void mbar_arrive_peer(const uint bar, const uint peer) {
  OCF_ASM volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n\t}" ::"r"(bar),
      "r"(peer)
      : "memory");
}
/* tma_load_2d into the same offset of both workgroups' local memory, completing on each one's
   barrier at bar's offset. */
INLINE void tma_load_2d_both(const uint dst, const ulong map, const int x, const int y,
                             const uint bar) {
  OCF_ASM volatile("// SM90A {\n\t"
                   "// SM90A .reg .b16 both;\n\t"
                   "// SM90A mov.b16 both, 3;\n\t"
                   "// SM90A cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
                   "complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], both;\n\t"
                   "// SM90A }" ::"r"(dst),
                   "l"(map), "r"(x), "r"(y), "r"(bar)
                   : "memory");
}
#endif

/* A wgmma shared-memory descriptor with the 128-byte swizzle. */
INLINE ulong smem_desc(const uint addr, const uint lbo, const uint sbo) {
  return (ulong)((addr >> 4) & 0x3FFFu) | ((ulong)((lbo >> 4) & 0x3FFFu) << 16) |
         ((ulong)((sbo >> 4) & 0x3FFFu) << 32) | (1ul << 62);
}

/* ---- tiles ---- */

/* Copies rows [r0, r0 + R) x K elements [k0, k0 + BK) of a row-major (K-major) operand into a
   swizzled slice at shared address dst: R rows of 128 bytes. */
INLINE void load_kmajor(const uint dst, __global const uchar *x, const uint ld, const uint rows,
                        const uint k, const uint r0, const uint k0, const uint R, const uint t) {
  for (uint c = t; c < R * 8; c += COPIERS) {
    const uint r = c / 8, j = c % 8;
    const uint gr = r0 + r, gk = k0 + j * CE;
    const uint valid = gr < rows && gk < k;
    const ulong off = valid ? ((ulong)gr * ld + gk) * EB : 0;
    cp_async16(dst + r * 128 + ((j ^ (r % 8)) * 16), x + off, valid);
  }
}

/* Copies K rows [k0, k0 + BK) x columns [n0, n0 + BN) of a row-major k x n operand (MN-major)
   into BN / 64 swizzled blocks of BK rows x 128 bytes. */
INLINE void load_mnmajor(const uint dst, __global const uchar *x, const uint ld, const uint k,
                         const uint n, const uint k0, const uint n0, const uint t) {
  for (uint c = t; c < BK * (BN / 8); c += COPIERS) {
    const uint r = c / (BN / 8), nc = c % (BN / 8);
    const uint b = nc / 8, j = nc % 8;
    const uint gk = k0 + r, gn = n0 + nc * 8;
    const uint valid = gk < k && gn < n;
    const ulong off = valid ? ((ulong)gk * ld + gn) * EB : 0;
    cp_async16(dst + b * (BK * 128) + r * 128 + ((j ^ (r % 8)) * 16), x + off, valid);
  }
}

INLINE void load_slice(const uint stage, __global const uchar *a, const uint lda,
                       __global const uchar *b, const uint ldb, const uint m, const uint n,
                       const uint k, const uint m0, const uint n0, const uint kt, const uint t) {
  load_kmajor(stage, a, lda, m, k, m0, kt * BK, BM, t);
#if OCF_WG_BT
  load_kmajor(stage + A_BYTES, b, ldb, n, k, n0, kt * BK, BN, t);
#else
  load_mnmajor(stage + A_BYTES, b, ldb, k, n, kt * BK, n0, t);
#endif
}

/* The 4 k steps' descriptors of a stage for warpgroup wg. */
INLINE void slice_descs(const uint stage, const uint wg, ulong *da, ulong *db) {
#pragma unroll
  for (uint s = 0; s < 4; s++) {
    da[s] = smem_desc(stage + wg * (64 * 128) + s * 32, 16, 1024);
#if OCF_WG_BT
    db[s] = smem_desc(stage + A_BYTES + s * 32, 16, 1024);
#elif OCF_WG_SWAP_MN
    db[s] = smem_desc(stage + A_BYTES + s * 2048, 1024, BK * 128);
#else
    db[s] = smem_desc(stage + A_BYTES + s * 2048, BK * 128, 1024);
#endif
  }
}

/* Work-item l of a warpgroup holds c[v0 + 2 v1 + 4 q] = C[16 (l / 32) + (l % 32) / 4 + 8 v1,
   8 q + 2 (l % 4) + v0] of the warpgroup's 64 x BN block. */
INLINE void store_tile(__global float *c, const uint ldc, const uint m, const uint n,
                       const uint row0, const uint col0, const float *acc, const float alpha,
                       const float beta, const uint l) {
  const uint r = row0 + 16 * (l / 32) + (l % 32) / 4;
  const uint cc = col0 + 2 * (l % 4);
#pragma unroll
  for (uint q = 0; q < BN / 8; q++)
#pragma unroll
    for (uint v1 = 0; v1 < 2; v1++) {
      const uint row = r + 8 * v1, col = cc + 8 * q;
      if (row < m && col < n) {
        __global float2 *p = (__global float2 *)(c + (ulong)row * ldc + col);
        float2 v = (float2)(acc[4 * q + 2 * v1], acc[4 * q + 2 * v1 + 1]) * alpha;
        if (beta != 0.0f) v += beta * *p;
        *p = v;
      }
    }
}

/* The tile of launch group g, grouped OCF_WG_GROUP_M tile rows at a time for L2 reuse. */
INLINE void tile_of(const uint g, const uint tiles_m, const uint tiles_n, uint *tm, uint *tn) {
  const uint per_group = OCF_WG_GROUP_M * tiles_n;
  const uint first = (g / per_group) * OCF_WG_GROUP_M;
  const uint size = min(tiles_m - first, (uint)OCF_WG_GROUP_M);
  *tm = first + (g % per_group) % size;
  *tn = (g % per_group) / size;
}

/* ---- main loops ---- */

#if !OCF_WG_PRODUCER
/* Every work-item copies and multiplies; one barrier per slice (see the header). */
INLINE void main_loop(float *acc, const uint base, __global const uchar *a, const uint lda,
                      __global const uchar *b, const uint ldb, const uint m, const uint n,
                      const uint k, const uint m0, const uint n0, const uint t) {
  const uint slices = (k + BK - 1) / BK, wg = t / 128;
  for (uint s = 0; s < STAGES - 2; s++) {
    if (s < slices) load_slice(base + s * STAGE_BYTES, a, lda, b, ldb, m, n, k, m0, n0, s, t);
    cp_async_commit();
  }
  for (uint kt = 0; kt < slices; kt++) {
    cp_async_wait_slice();
    fence_proxy_async();
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong da[4], db[4];
    slice_descs(base + (kt % STAGES) * STAGE_BYTES, wg, da, db);
    WG_SLICE(acc, da, db);
    const uint next = kt + STAGES - 2;
    if (next < slices)
      load_slice(base + (next % STAGES) * STAGE_BYTES, a, lda, b, ldb, m, n, k, m0, n0, next, t);
    cp_async_commit();
  }
  WG_WAIT0(acc);
}
#endif
#if OCF_WG_PRODUCER
/* Warpgroup 0 copies: slice kt into stage kt % STAGES once the consumers have released it
   (empty barrier), then one noinc arrival per work-item on the stage's full barrier when its
   copies land. Warpgroups 1.. wait for full, multiply, and release the stage of the slice
   before (its wgmma group is done after wait_group 1). */
INLINE void produce(const uint base, const uint bars, __global const uchar *a, const uint lda,
                    __global const uchar *b, const uint ldb, const uint m, const uint n,
                    const uint k, const uint m0, const uint n0, const uint t) {
  const uint slices = (k + BK - 1) / BK;
  for (uint kt = 0; kt < slices; kt++) {
    const uint s = kt % STAGES;
    if (kt >= STAGES) mbar_wait(bars + 8 * (STAGES + s), ((kt / STAGES) - 1) & 1);
    load_slice(base + s * STAGE_BYTES, a, lda, b, ldb, m, n, k, m0, n0, kt, t);
    mbar_arrive_copies(bars + 8 * s);
  }
  OCF_ASM volatile("cp.async.wait_all;" ::: "memory");
}
#if OCF_WG_PRODUCER == 3
/* A 2-D tensor map made from nothing in local memory at s (128 bytes, 128-byte aligned, zeroed):
   every field tensormap.replace sets, 128-byte swizzle, zeros outside (fill 0), elements of
   OCF_WG_DTYPE's width moved as bits (u16 / u32). dim0 is the contiguous dimension; stride1
   the bytes between its rows. sm_90a only: behind the prefix. */
#if OCF_WG_DTYPE == 2
#define MAP_ELEMTYPE "2"
#else
#define MAP_ELEMTYPE "1"
#endif
INLINE void make_map(const uint s, const ulong addr, const uint dim0, const uint dim1,
                     const ulong stride1, const uint box0, const uint box1) {
  OCF_ASM volatile(
      "// SM90A tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;\n\t"
      "// SM90A tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 1;\n\t"
      "// SM90A tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %2;\n\t"
      "// SM90A tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %3;\n\t"
      "// SM90A tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %4;\n\t"
      "// SM90A tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %5;\n\t"
      "// SM90A tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %6;\n\t"
      "// SM90A tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, 1;\n\t"
      "// SM90A tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, 1;\n\t"
      "// SM90A tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], " MAP_ELEMTYPE ";\n\t"
      "// SM90A tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;\n\t"
      "// SM90A tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;\n\t"
      "// SM90A tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(s),
      "l"(addr), "r"(box0), "r"(box1), "r"(dim0), "r"(dim1), "l"(stride1)
      : "memory");
}
/* The producer warp: zero 256 bytes at s, lane 0 fills A's map (s) and B's (s + 128), the warp
   copies both to g (global, this workgroup's slot) with the release fence the TMA needs. */
INLINE void make_maps(const uint s, __global uchar *g, const uint lane, __global const uchar *a,
                      const uint lda, __global const uchar *b, const uint ldb, const uint m,
                      const uint n, const uint k) {
  OCF_ASM volatile("st.shared.v2.u32 [%0], {%1, %1};" ::"r"(s + 8 * lane), "r"(0u) : "memory");
  OCF_ASM volatile("bar.warp.sync -1;" ::: "memory");
  if (lane == 0) {
    make_map(s, (ulong)a, k, m, (ulong)lda * EB, BK, BM);
#if OCF_WG_BT
    make_map(s + 128, (ulong)b, k, n, (ulong)ldb * EB, BK, BN);
#else
    make_map(s + 128, (ulong)b, n, k, (ulong)ldb * EB, 64, BK);
#endif
  }
  OCF_ASM volatile("bar.warp.sync -1;" ::: "memory");
  OCF_ASM volatile("// SM90A "
                   "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync."
                   "aligned [%0], [%1], 128;\n\t"
                   "// SM90A "
                   "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync."
                   "aligned [%2], [%3], 128;" ::"l"((ulong)g),
                   "r"(s), "l"((ulong)(g + 128)), "r"(s + 128)
                   : "memory");
}
#endif
#if OCF_WG_PRODUCER >= 2
/* One work-item drives the TMA: per slice, wait until the stage is released, announce its
   bytes on the full barrier, and copy A's box (BK x BM) and B's (BK x BN, or BN / 64 boxes of
   64 columns x BK rows when B is MN-major); out-of-range elements arrive as zeros. */
INLINE void produce_tma(const uint base, const uint bars, const ulong map_a, const ulong map_b,
                        const uint k, const uint m0, const uint n0, const uint rank) {
  const uint slices = (k + BK - 1) / BK;
  tensormap_acquire(map_a);
  tensormap_acquire(map_b);
  for (uint kt = 0; kt < slices; kt++) {
    const uint s = kt % STAGES, stage = base + s * STAGE_BYTES, full = bars + 8 * s;
    if (kt >= STAGES) mbar_wait(bars + 8 * (STAGES + s), ((kt / STAGES) - 1) & 1);
    mbar_expect_tx(full, STAGE_BYTES);
    tma_load_2d(stage, map_a, (int)(kt * BK), (int)m0, full);
#if OCF_WG_CLUSTER == 2 && OCF_WG_BT
    /* half of B's rows (the host's map boxes BN / 2 of them), into both workgroups */
    tma_load_2d_both(stage + A_BYTES + rank * (BN / 2) * 128, map_b, (int)(kt * BK),
                     (int)(n0 + rank * (BN / 2)), full);
#elif OCF_WG_CLUSTER == 2
    /* every other block of 64 columns, into both workgroups */
    for (uint blk = rank; blk < BN / 64; blk += 2)
      tma_load_2d_both(stage + A_BYTES + blk * (BK * 128), map_b, (int)(n0 + 64 * blk),
                       (int)(kt * BK), full);
#elif OCF_WG_BT
    tma_load_2d(stage + A_BYTES, map_b, (int)(kt * BK), (int)n0, full);
#else
    for (uint blk = 0; blk < BN / 64; blk++)
      tma_load_2d(stage + A_BYTES + blk * (BK * 128), map_b, (int)(n0 + 64 * blk), (int)(kt * BK),
                  full);
#endif
  }
}
#endif
#if OCF_WG_CLUSTER == 2
#define RELEASE(bar, l, rank)                          \
  do {                                                 \
    if ((l) == 0) mbar_arrive(bar);                    \
    if ((l) == 32) mbar_arrive_peer(bar, (rank) ^ 1u); \
  } while (0)
#else
#define RELEASE(bar, l, rank) mbar_arrive(bar)
#endif
/* l: the work-item in its warpgroup; rank: the workgroup's in its cluster. With clusters one
   work-item of each warpgroup releases a stage here, another at the peer (the wgmma group, the
   warpgroup's, is done for all of it after wait_group). */
INLINE void consume(float *acc, const uint base, const uint bars, const uint k, const uint wg,
                    const uint l, const uint rank) {
  const uint slices = (k + BK - 1) / BK;
  for (uint kt = 0; kt < slices; kt++) {
    const uint s = kt % STAGES;
    mbar_wait(bars + 8 * s, (kt / STAGES) & 1);
#if OCF_WG_PRODUCER == 1
    fence_proxy_async(); /* cp.async wrote through the generic proxy */
#endif
    ulong da[4], db[4];
    slice_descs(base + s * STAGE_BYTES, wg, da, db);
    WG_SLICE(acc, da, db);
    if (kt > 0) RELEASE(bars + 8 * (STAGES + (kt - 1) % STAGES), l, rank);
  }
  WG_WAIT0(acc);
}
#endif

/* ---- kernel ---- */

#if OCF_WG_CLOCK
#define CLOCK_PARAM , __global ulong *clock
INLINE ulong global_timer(void) {
  ulong ns;
  OCF_ASM volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}
INLINE uint sm_id(void) {
  uint id;
  OCF_ASM volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
#else
#define CLOCK_PARAM
#endif

/* Leading dimensions in elements; lda, ldb, ldc * EB multiples of 16 bytes. maps: the TMA's
   tensor maps of A and B (128 bytes each, 64-byte aligned; OCF_WG_PRODUCER 2), or 256 bytes per
   workgroup that it writes its maps to (OCF_WG_PRODUCER 3). */
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
matmul_wgmma(const uint m, const uint n, const uint k, const float alpha, __global const uchar *a,
             const uint lda, __global const uchar *b, const uint ldb, const float beta,
             __global float *c, const uint ldc, __global uchar *maps CLOCK_PARAM) {
  /* 1 KiB spare: the swizzle needs every stage 1 KiB aligned in the shared window; then the
     ring's mbarriers (full, empty) */
  __local uchar smem[STAGES * STAGE_BYTES + 1024 + 16 * STAGES + 384]
      __attribute__((aligned(1024)));
  const uint base = (local_addr(smem) + 1023u) & ~1023u;
  const uint t = get_local_id(0);
  uint tm, tn;
#if OCF_WG_CLUSTER == 2
  OCF_ASM volatile("// SM90A_HEADER .reqnctapercluster 2, 1, 1" ::: "memory");
  /* pairs of tile rows: workgroups 2 p and 2 p + 1 (a cluster) take tile rows 2 pm and 2 pm + 1
     of one tile column, the pairs in tile_of's order over pairs of rows (a row past m, where
     the tiles' rows are odd, is multiplied on zeros and stored nowhere: its B half is the
     peer's) */
  const uint rank = cluster_rank();
  {
    uint pm;
    tile_of(get_group_id(0) / 2, ((m + BM - 1) / BM + 1) / 2, (n + BN - 1) / BN, &pm, &tn);
    tm = 2 * pm + (uint)get_group_id(0) % 2;
  }
#else
  const uint rank = 0;
  tile_of(get_group_id(0), (m + BM - 1) / BM, (n + BN - 1) / BN, &tm, &tn);
#endif
  const uint m0 = tm * BM, n0 = tn * BN;
#if OCF_WG_CLOCK
  const ulong started = t == 0 ? global_timer() : 0;
#endif

  float acc[NACC];
#pragma unroll
  for (uint i = 0; i < NACC; i++)
    acc[i] = 0.0f;
#if !OCF_WG_PRODUCER
  main_loop(acc, base, a, lda, b, ldb, m, n, k, m0, n0, t);
  store_tile(c, ldc, m, n, m0 + 64 * (t / 128), n0, acc, alpha, beta, t % 128);
#elif OCF_WG_PRODUCER == 2
  const uint bars = base + STAGES * STAGE_BYTES;
#if OCF_WG_CLUSTER == 2
  if (t < STAGES) {
    mbar_init(bars + 8 * t, 1);                               /* full: expect_tx + bytes */
    mbar_init(bars + 8 * (STAGES + t), 2 * OCF_WG_CONSUMERS); /* empty: both workgroups' */
    fence_mbarrier_init();
  }
  cluster_sync();
#else
  if (t < STAGES) {
    mbar_init(bars + 8 * t, 1);                                 /* full: expect_tx + bytes */
    mbar_init(bars + 8 * (STAGES + t), 128 * OCF_WG_CONSUMERS); /* empty: every consumer's */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  if (t >= 128 * OCF_WG_CONSUMERS) {
    if (t == 128 * OCF_WG_CONSUMERS)
      produce_tma(base, bars, (ulong)maps, (ulong)(maps + 128), k, m0, n0, rank);
  } else {
    consume(acc, base, bars, k, t / 128, t % 128, rank);
    store_tile(c, ldc, m, n, m0 + 64 * (t / 128), n0, acc, alpha, beta, t % 128);
  }
#if OCF_WG_CLUSTER == 2
  cluster_sync();
#endif
#elif OCF_WG_PRODUCER == 3
  const uint bars = base + STAGES * STAGE_BYTES;
  if (t < STAGES) {
    mbar_init(bars + 8 * t, 1);
    mbar_init(bars + 8 * (STAGES + t), 128 * OCF_WG_CONSUMERS);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t >= 128 * OCF_WG_CONSUMERS) {
    __global uchar *g = (__global uchar *)maps + 256 * (ulong)get_group_id(0);
    make_maps((bars + 16 * STAGES + 127u) & ~127u, g, t - 128 * OCF_WG_CONSUMERS, a, lda, b, ldb, m,
              n, k);
    if (t == 128 * OCF_WG_CONSUMERS)
      produce_tma(base, bars, (ulong)g, (ulong)(g + 128), k, m0, n0, 0);
  } else {
    consume(acc, base, bars, k, t / 128, t % 128, 0);
    store_tile(c, ldc, m, n, m0 + 64 * (t / 128), n0, acc, alpha, beta, t % 128);
  }
#else
  const uint bars = base + STAGES * STAGE_BYTES;
  if (t < STAGES) {
    mbar_init(bars + 8 * t, 128);                               /* full: the producer's arrivals */
    mbar_init(bars + 8 * (STAGES + t), 128 * OCF_WG_CONSUMERS); /* empty: every consumer's */
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t < 128) {
    produce(base, bars, a, lda, b, ldb, m, n, k, m0, n0, t);
  } else {
    const uint wg = t / 128 - 1;
    consume(acc, base, bars, k, wg, t % 128, 0);
    store_tile(c, ldc, m, n, m0 + 64 * wg, n0, acc, alpha, beta, t % 128);
  }
#endif
#if OCF_WG_CLOCK
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (t == 0) {
    __global ulong *mine = clock + 4 * (ulong)get_group_id(0);
    mine[0] = started;
    mine[1] = global_timer();
    mine[2] = (ulong)tm << 32 | tn;
    mine[3] = sm_id();
  }
#endif
}
