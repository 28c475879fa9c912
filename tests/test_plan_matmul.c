/*
 * The planner on described devices: matmul's SIMT plans (src/plan/plan_matmul.c, cl/matmul.cl,
 * cl/matmul_skinny.cl, cl/matmul_pad.cl): the table of tiled and skinny plans; the padded plans
 * (rule 5), in few waves and by the sides they copy; the wave split (rule 4) and the split
 * filled to a wave; the few_rows class; mixed_c_check. The matrix units' plans:
 * test_plan_matmul_mma.c and test_plan_matmul_wgmma.c. The method, the devices and the helpers:
 * tests/plan_fixture.h.
 */

#include "plan_fixture.h"

/* ---- matmul ---- */

typedef struct matmul_case {
  device_id device;
  size_t learnt;
  int trans_a, trans_b;
  size_t m, n, k;
  size_t ld;  /* every leading dimension, 0: tight (the stored matrix's row length) */
  size_t off; /* A's offset */
  int variant;
  const char *shape, *values;
  size_t batch;  /* 1: one product; more: packed strides */
  int precision; /* ocf_precision, 0: FP32 */
} matmul_case;

/*
 * Rules (cl/matmul.cl, cl/matmul_skinny.cl, src/tuning/schema_matmul.c, src/plan/plan_matmul.c):
 *
 * Skinny: a short side of C (min(m, n)) of 1 to skinny_max = 16 with a long side of at least
 * skinny_long_min (256; CPUs 16) takes cl/matmul_skinny.cl, the operands swapped when the short
 * side is m (then X is op(B)^T). RL row lanes own 4 rows each: a block of 4 RL rows a workgroup
 * of sk_wg work-items. RL is sk_rl_k when X is k-contiguous (not transposed A; transposed B when
 * swapped), sk_rl_r when it is row-contiguous; from a short side of sk_wide_min = 8 on, the wide
 * path (WIDE=1) with sk_rl_w = 32 row lanes when its two staging buffers fit in local memory:
 * 2 x (X chunk + V chunk) floats, the X chunk 4 RL x 33 (k-contiguous) or 32 x (4 RL + 4), the
 * V chunk 32 x the short side rounded up to 4 (H200, k-contiguous, 16 columns:
 * 2 x (4224 + 512) x 4 = 37888 bytes). K is split when the row blocks (x batch) give fewer
 * than sk_fill x compute units workgroups and k >= 2 sk_split_min: ceil(wanted / blocks) splits
 * (at most k / sk_split_min and 64) of a multiple of 4, matmul_skinny_split then
 * matmul_skinny_reduce (one work-item an element of C), or, for a short side of at most
 * skinny.join (NVIDIA 1), matmul_skinny_join alone (test_plan_matmul_skinny_join).
 *
 * Tiled: the first tile set in use whose tiles (x batch) make at least fill x compute units
 * workgroups of C, with at least min_eff = 50 % of its padded tiles inside C, else the last.
 * A set short of the fill is still taken with K split when k >= 2 split_k_min and
 * floor(split_fill x compute units / workgroups) >= 2: that many splits (at most
 * k / split_k_min and split_max), of a multiple of KWG, matmul_tiled_split + matmul_reduce.
 * matmul_tiled_fast when m, n, k are multiples of the tile (MWG = MDIMC x MWI,
 * NWG = NDIMC x NWI) and of the K slice KWG, matmul_tiled_mixed otherwise; an operand whose
 * offset or leading dimension is not a multiple of 4 takes element-aligned loads (A_VEC=0 ...)
 * in either. matmul_tiled when asked for (never split), matmul_naive (one output a work-item,
 * the chosen set's workgroup) for the baseline. The grid: "wg=NDIMCxMDIMC
 * groups=(n tiles x splits x batch)x(m tiles)". A set whose workgroup does not fit the kernel's
 * limit keeps its tile with fewer work-items of more outputs each (at most 16 rows or columns,
 * 256 accumulators), halving the larger dimension first (N on a tie). 3XTF32 stages two parts
 * of every input: twice the local memory. Where the compiler takes a register cap (the H200),
 * both programs are built with max_regs.
 *
 * Rows: H200 fill=1 (132 workgroups wanted), 128 x 128 tiles (16 x 16 work-items of 8 x 8,
 * KWG 8, 2-wide local reads), 64 x 64 (16 x 16 of 4 x 4, KWG 16), 32 x 32 (8 x 8 of 4 x 4),
 * 16 x 16 (8 x 8 of 2 x 2); split_k_min 1024, split_fill 2 (264), split_max 16; skinny
 * sk_wg 256, sk_rl_k 8, sk_rl_r 16, sk_fill 4 (528), sk_split_min 512; max_regs 128. AMD as
 * H200 but KWG 16 everywhere and 4-wide reads, 60 needed. Intel fill=1: 64 x 64 (8 x 16 of
 * 8 x 4), 32 x 32 (8 x 8 of 4 x 4), 96 needed. CPUs and the fallbacks fill=2: 32 x 32 (8 x 8 of
 * 4 x 4), 16 x 16 (4 x 4 of 4 x 4), KWG 16; skinny sk_wg 64, sk_rl_k 8, sk_rl_r 16, sk_fill 2;
 * CPUs also split_k_min and sk_split_min 128, skinny_long_min 16.
 */
static const matmul_case matmul_cases[] = {
    /* H200: 128 x 128 tiles need ceil(n / 128)^2 >= 132: 1409 (12 x 12 = 144) takes them,
       1408 (11 x 11 = 121) does not (and k = 1408 < 2 x 1024 does not split); 64 x 64 tiles
       need ceil(n / 64)^2 >= 132: 705 takes them, 704 takes 32 x 32. Leading dimensions 1412
       and 708 keep every row aligned. The 144 tiles of 1409 and 705 fill 54 % of two waves, so
       tiled.few_wave_min 90 (in two waves or fewer) splits K in 5 (720 workgroups, 91 %). */
    {H200, 0, 0, 0, 1409, 1409, 1409, 1412, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=60x12 + matmul_reduce wg=256 groups=7756",
     "MDIMC=16 NDIMC=16 MWI=8 NWI=8 KWG=8 VWM=2 VWN=2 max_regs=128 A_VEC=1 splits=5 k_split=288", 1,
     0},
    {H200, 0, 0, 0, 1408, 1408, 1408, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=22x22",
     "MWI=4 NWI=4 KWG=16 VWM=4", 1, 0},
    {H200, 0, 0, 0, 705, 705, 705, 708, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=60x12 + matmul_reduce wg=256 groups=1942",
     "MWI=4 NWI=4 KWG=16 splits=5 k_split=144", 1, 0},
    {H200, 0, 0, 0, 704, 704, 704, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=22x22",
     "MDIMC=8 NDIMC=8 MWI=4 NWI=4 KWG=16", 1, 0},
    /* Not square: one row of 128-tiles needs 132 of them along N: 16769 columns (ceil = 132)
       take 128 x 128 tiles, 16768 (131) take 64 x 64. */
    {H200, 0, 0, 0, 128, 16769, 128, 16772, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=132x1",
     "MWI=8 KWG=8", 1, 0},
    {H200, 0, 0, 0, 128, 16768, 128, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=262x2",
     "MWI=4 KWG=16", 1, 0},
    /* Fast and mixed: whole tiles and slices; k not a multiple of KWG 8 (4092). An offset or a
       leading dimension not a multiple of 4 keeps the kernel and loads that operand element
       by element; the general kernel only when asked for. */
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "MWI=8 NWI=8 KWG=8 VWM=2 VWN=2 PADA=4 PADB=4 TRANS_A=0 TRANS_B=0 local_mem=16896 "
     "A_VEC=1 B_VEC=1 C_VEC=1 SPLIT_K=0 max_regs=128",
     1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4092, 0, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=32x32",
     "KWG=8", 1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 1, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "A_VEC=0 B_VEC=1 C_VEC=1", 1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4096, 4098, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "A_VEC=0 B_VEC=0 C_VEC=0", 1, 0},
    {H200, 0, 0, 0, 4095, 4095, 4095, 0, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=32x32",
     "A_VEC=0 B_VEC=0 C_VEC=0", 1, 0},
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 0, GENERAL, "matmul_tiled wg=16x16 groups=32x32", "KWG=8",
     1, 0},
    /* k = 0 (or alpha = 0): whole tiles, no K slice to run: the fast kernel. */
    {H200, 0, 0, 0, 4096, 4096, 0, 4096, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "KWG=8", 1, 0},
    /* Transposes reach the kernel as defines. */
    {H200, 0, 1, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "TRANS_A=1 TRANS_B=0", 1, 0},
    {H200, 0, 0, 1, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "TRANS_A=0 TRANS_B=1", 1, 0},
    /* 3XTF32 stages the big and small parts: twice 16896 bytes. */
    {H200, 0, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "PRECISION=2 local_mem=33792", 1, OCF_PRECISION_3XTF32},
    /* The baseline: the set of the shape (1000: 8 x 8 = 64 big tiles, 16 x 16 = 256 medium),
       one output a work-item, no local memory. */
    {H200, 0, 0, 0, 1000, 1000, 1000, 0, 0, BASELINE, "matmul_naive wg=16x16 groups=63x63",
     "local_mem=0", 1, 0},
    /* Under the learnt 256 nothing changes; under 128 the big tile keeps its size with 8 x 16
       work-items of 8 x 16 outputs. */
    {H200, 256, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "MWI=8 NWI=8", 1, 0},
    {H200, 256, 0, 0, 704, 704, 704, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=22x22",
     "MWI=4 NWI=4", 1, 0},
    {H200, 128, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=8x16 groups=32x32",
     "MDIMC=16 NDIMC=8 MWI=8 NWI=16", 1, 0},

    /* H200 split K. 1024^2: 64 big tiles; floor(264 / 64) = 4 splits of 4096 (256 workgroups,
       one wave), scratch 4 x 1024 x 1024 floats; the reduce 1024^2 / 256 groups. k = 2047 is
       short of two ranges of 1024: no split, the 64-tiles (256 of them); k = 2048 holds two:
       2 splits. 1408^2 x 4096: 121 tiles, floor(264 / 121) = 2 splits. 512^2 x 65536: 16
       tiles, 16 splits (split_max) of 4096. */
    {H200, 0, 0, 0, 1024, 1024, 16384, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=32x8 + matmul_reduce wg=256 groups=4096",
     "splits=4 k_split=4096 SPLIT_K=1 REDUCE_WG=256 scratch=16777216 MWI=8", 1, 0},
    {H200, 0, 0, 0, 1024, 1024, 2047, 0, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=16x16",
     "MWI=4 splits=1 SPLIT_K=0", 1, 0},
    {H200, 0, 0, 0, 1024, 1024, 2048, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=16x8 + matmul_reduce wg=256 groups=4096",
     "splits=2 k_split=1024", 1, 0},
    {H200, 0, 0, 0, 1408, 1408, 4096, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=22x11 + matmul_reduce wg=256 groups=7744",
     "splits=2 k_split=2048", 1, 0},
    {H200, 0, 0, 0, 512, 512, 65536, 0, 0, AUTO,
     "matmul_tiled_split wg=16x16 groups=64x4 + matmul_reduce wg=256 groups=1024",
     "splits=16 k_split=4096", 1, 0},
    /* The general variant never splits: the set that fills without, the 64-tiles. */
    {H200, 0, 0, 0, 1024, 1024, 16384, 0, 0, GENERAL, "matmul_tiled wg=16x16 groups=16x16",
     "MWI=4 splits=1", 1, 0},

    /* H200 skinny, 8192 rows by a short side, k = 8192. 16 columns: the wide path, 32 row
       lanes, 128-row blocks: 64 < 528 wanted, ceil(528 / 64) = 9 splits of 912; 17 columns
       are tiled: no set has min_eff's 75 % of its padded tiles in C, and the 32 x 32 set is
       the larger of the two with the most (53 %, as the 16 x 16 set's). 8
       columns: the wide path too (local 2 x (4224 + 256) floats); 7: the narrow path,
       8 row lanes, 256 blocks, 3 splits of 2732. */
    {H200, 0, 0, 0, 8192, 16, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=512",
     "N_SMALL=16 WIDE=1 RL=32 KC=32 X_KCONT=1 X_VEC=1 splits=9 k_split=912 SPLIT=1 swapped=0 "
     "local_mem=37888 max_regs=128",
     1, 0},
    {H200, 0, 0, 0, 8192, 17, 8192, 0, 0, AUTO, "matmul_tiled_mixed wg=8x8 groups=1x256",
     "MDIMC=8 NDIMC=8 MWI=4 NWI=4", 1, 0},
    {H200, 0, 0, 0, 8192, 8, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=256",
     "N_SMALL=8 WIDE=1 RL=32 splits=9 local_mem=35840", 1, 0},
    {H200, 0, 0, 0, 8192, 7, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=768 + matmul_skinny_reduce wg=256 groups=224",
     "N_SMALL=7 WIDE=0 RL=8 splits=3 k_split=2732 local_mem=16384", 1, 0},
    /* Transposed A: X row-contiguous, staged k-rows of 4 x 32 + 4 floats (the same 37888). */
    {H200, 0, 1, 0, 8192, 16, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=512",
     "X_KCONT=0 WIDE=1 RL=32 local_mem=37888", 1, 0},
    /* A short m: the operands swapped, X = B^T row-contiguous (k-contiguous when B is
       transposed). One row: the narrow path, 16 row lanes row-contiguous (128 blocks, 5 splits
       of 1640), 8 k-contiguous (256 blocks, 3 splits), joined in one launch (skinny.join 1). */
    {H200, 0, 0, 0, 16, 8192, 8192, 0, 0, AUTO,
     "matmul_skinny_split wg=256 groups=576 + matmul_skinny_reduce wg=256 groups=512",
     "swapped=1 X_KCONT=0 N_SMALL=16 WIDE=1", 1, 0},
    {H200, 0, 0, 0, 1, 8192, 8192, 0, 0, AUTO, "matmul_skinny_join wg=256 groups=640",
     "swapped=1 X_KCONT=0 RL=16 splits=5 k_split=1640 JOIN=2", 1, 0},
    {H200, 0, 0, 1, 1, 8192, 8192, 0, 0, AUTO, "matmul_skinny_join wg=256 groups=768",
     "swapped=1 X_KCONT=1 RL=8 splits=3 JOIN=2", 1, 0},
    /* The long side's edge: 256 rows take the skinny kernels (8 blocks of 32, K too short to
       split), 255 the tiles: no set has half its padded tiles in C, so the last (16 x 16). */
    {H200, 0, 0, 0, 256, 4, 64, 0, 0, AUTO, "matmul_skinny wg=256 groups=8",
     "N_SMALL=4 WIDE=0 SPLIT=0 splits=1", 1, 0},
    {H200, 0, 0, 0, 255, 4, 64, 0, 0, AUTO, "matmul_tiled_mixed wg=8x8 groups=1x16", "MWI=2 NWI=2",
     1, 0},
    /* Batches: 64^3 x 1024 on the 64-tiles (the 128-tiles fill a quarter), one a product;
       16^3 x 4096 on the 16-tiles; 300 x 2 x 100 by 8 on the skinny kernels, 10 x 8 blocks. */
    {H200, 0, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=1024x1",
     "MWI=4 NWI=4", 1024, 0},
    {H200, 0, 0, 0, 16, 16, 16, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=4096x1", "MWI=2 NWI=2",
     4096, 0},
    {H200, 0, 0, 0, 300, 2, 100, 0, 0, AUTO, "matmul_skinny wg=256 groups=80", "N_SMALL=2", 8, 0},

    /* PoCL, 2 x 2 = 4 workgroups wanted: 33 fills less than half of either set's padded
       tiles (2 x 2 tiles of 32: 27 %; 3 x 3 of 16: 47 %), so the last set, mixed with every
       operand element-aligned; 32 takes 16 x 16 (the 32-tiles make only 1). No register cap
       off NVIDIA. */
    {POCL, 0, 0, 0, 33, 33, 33, 0, 0, AUTO, "matmul_tiled_mixed wg=4x4 groups=3x3",
     "MWI=4 KWG=16 A_VEC=0 B_VEC=0 C_VEC=0 max_regs=0", 1, 0},
    {POCL, 0, 0, 0, 32, 32, 32, 0, 0, AUTO, "matmul_tiled_fast wg=4x4 groups=2x2",
     "MDIMC=4 NDIMC=4 MWI=4 NWI=4", 1, 0},
    /* 36 fills 32 % of 2 x 2 tiles of 32, 56 % of 3 x 3 of 16: set 1. */
    {POCL, 0, 0, 0, 36, 36, 36, 0, 0, AUTO, "matmul_tiled_mixed wg=4x4 groups=3x3", "MDIMC=4", 1,
     0},
    {POCL, 0, 0, 0, 512, 512, 512, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=16x16", "MDIMC=8",
     1, 0},
    {POCL, 0, 0, 0, 255, 257, 129, 0, 0, AUTO, "matmul_tiled_mixed wg=8x8 groups=9x8", "MDIMC=8", 1,
     0},
    /* PoCL skinny from a long side of 16: 100 x 3 in 4 blocks of 32 rows (4 wanted: no
       split); 15 x 3 tiled; 100 x 12 on the wide path, one block of 128 rows, staging
       2 x (4224 + 384) floats; 40 x 1 x 3000 split (2 blocks, k >= 2 x 128): 2 splits of
       1500. */
    {POCL, 0, 0, 0, 100, 3, 50, 0, 0, AUTO, "matmul_skinny wg=64 groups=4",
     "RL=8 WIDE=0 max_regs=0", 1, 0},
    {POCL, 0, 0, 0, 15, 3, 50, 0, 0, AUTO, "matmul_tiled_mixed wg=4x4 groups=1x1", "MWI=4", 1, 0},
    {POCL, 0, 0, 0, 100, 12, 50, 0, 0, AUTO, "matmul_skinny wg=64 groups=1",
     "RL=32 WIDE=1 local_mem=36864", 1, 0},
    {POCL, 0, 0, 0, 40, 1, 3000, 0, 0, AUTO,
     "matmul_skinny_split wg=64 groups=4 + matmul_skinny_reduce wg=64 groups=1",
     "swapped=0 splits=2 k_split=1500", 1, 0},

    /* llvmpipe, 8 x 2 = 16 wanted. Before its first build the CPU sets as they are; under its
       32, the 8 x 8 set has 8 x 4 work-items of 4 x 8 (tile kept), the 4 x 4 set fits. */
    {LLVMPIPE, 0, 0, 0, 128, 128, 128, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=4x4",
     "MDIMC=8 NDIMC=8", 1, 0},
    {LLVMPIPE, 32, 0, 0, 128, 128, 128, 0, 0, AUTO, "matmul_tiled_fast wg=4x8 groups=4x4",
     "MDIMC=8 NDIMC=4 MWI=4 NWI=8", 1, 0},
    {LLVMPIPE, 32, 0, 0, 96, 96, 96, 0, 0, AUTO, "matmul_tiled_fast wg=4x4 groups=6x6",
     "MDIMC=4 NDIMC=4", 1, 0},

    /* Apple's CPU: one work-item along M (its item sizes are 1024 x 1 x 1), so each set's
       work-items along M hand their rows to one (4 x 4 of 4 x 4: 1 x 4 of 16 x 4); under a
       kernel limit of 1 both sets become one work-item of 16 x 16 outputs. 12 x 2 = 24 wanted:
       64 x 64 makes 16 workgroups of either set, so the last set. */
    {APPLE_CPU, 0, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=4x1 groups=4x4",
     "MDIMC=1 NDIMC=4 MWI=16 NWI=4", 1, 0},
    {APPLE_CPU, 1, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=1x1 groups=4x4",
     "MDIMC=1 NDIMC=1 MWI=16 NWI=16", 1, 0},
    {APPLE_CPU, 1, 0, 0, 256, 256, 256, 0, 0, AUTO, "matmul_tiled_fast wg=1x1 groups=16x16",
     "MDIMC=1 NDIMC=1 MWI=16 NWI=16", 1, 0},

    /* Mali, fallbacks, 12 x 2 = 24 wanted. Under 32: the 8 x 8 set as 8 x 4 of 4 x 8; under 8:
       4 x 2 of 8 x 16 (tile kept); the 4 x 4 set as 4 x 2 of 4 x 8. */
    {MALI, 32, 0, 0, 256, 256, 256, 0, 0, AUTO, "matmul_tiled_fast wg=4x8 groups=8x8",
     "MDIMC=8 NDIMC=4 MWI=4 NWI=8 local_mem=9216", 1, 0},
    {MALI, 8, 0, 0, 256, 256, 256, 0, 0, AUTO, "matmul_tiled_fast wg=2x4 groups=8x8",
     "MDIMC=4 NDIMC=2 MWI=8 NWI=16", 1, 0},
    {MALI, 8, 0, 0, 64, 64, 64, 0, 0, AUTO, "matmul_tiled_fast wg=2x4 groups=4x4",
     "MDIMC=4 NDIMC=2 MWI=4 NWI=8", 1, 0},
    /* Mali's 16 KiB cannot hold the wide path's staging (36 KiB for 12 columns): the narrow
       path, 8 row lanes, 10 blocks of 32 rows. */
    {MALI, 0, 0, 0, 300, 12, 50, 0, 0, AUTO, "matmul_skinny wg=64 groups=10",
     "WIDE=0 RL=8 local_mem=4096", 1, 0},
    /* PoCL's matrix-vector product of a row-major B (C = a B: X = B^T, rows contiguous): 4 row
       lanes (16 rows a workgroup of 64), where 16 ran at a quarter of the copy ceiling. */
    {POCL, 0, 0, 0, 1, 4096, 4096, 0, 0, AUTO, "matmul_skinny wg=64 groups=256",
     "swapped=1 X_KCONT=0 RL=4 WIDE=0", 1, 0},

    /* AMD, 60 wanted: 128-tiles from ceil(n / 128)^2 >= 60 (897: 8 x 8), 64-tiles from
       ceil(n / 64)^2 >= 60 (449), 32-tiles below. Its big set reads K in slices of 16. */
    {AMD_GPU, 0, 0, 0, 897, 897, 897, 900, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=8x8",
     "MWI=8 NWI=8 KWG=16 local_mem=33792", 1, 0},
    {AMD_GPU, 0, 0, 0, 896, 896, 896, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=14x14",
     "MWI=4 NWI=4", 1, 0},
    {AMD_GPU, 0, 0, 0, 449, 449, 449, 452, 0, AUTO, "matmul_tiled_mixed wg=16x16 groups=8x8",
     "MWI=4 NWI=4", 1, 0},
    {AMD_GPU, 0, 0, 0, 448, 448, 448, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=14x14",
     "MDIMC=8 NDIMC=8", 1, 0},
    {AMD_GPU_1024, 0, 0, 0, 4096, 4096, 4096, 0, 0, AUTO, "matmul_tiled_fast wg=16x16 groups=32x32",
     "MWI=8 NWI=8", 1, 0},

    /* Intel, 96 wanted: 64-tiles (8 x 16 work-items of 8 x 4) from ceil(n / 64)^2 >= 96 (577:
       10 x 10), 32-tiles below. */
    {INTEL_GPU, 0, 0, 0, 577, 577, 577, 580, 0, AUTO, "matmul_tiled_mixed wg=8x16 groups=10x10",
     "MDIMC=16 NDIMC=8 MWI=4 NWI=8 KWG=16", 1, 0},
    {INTEL_GPU, 0, 0, 0, 576, 576, 576, 0, 0, AUTO, "matmul_tiled_fast wg=8x8 groups=18x18",
     "MDIMC=8 NDIMC=8 MWI=4 NWI=4", 1, 0},
};

static void test_plan_matmul_table(void **state) {
  (void)state;
  for (size_t i = 0; i < ARRAY_LEN(matmul_cases); i++) {
    const matmul_case *c = &matmul_cases[i];
    ocf_device_facts facts = facts_of(c->device, c->learnt);
    ocf_tuning_values tuning = tuning_of(&facts, c->device, OCF_OP_MATMUL);
    ocf_matmul_call call =
        matmul_call(c->trans_a, c->trans_b, c->m, c->n, c->k, c->ld, c->off, c->variant, 0);
    if (c->batch > 1) { /* packed products */
      call.batch = c->batch;
      call.stride_a = call.lda * (call.trans_a ? call.k : call.m);
      call.stride_b = call.ldb * (call.trans_b ? call.n : call.k);
      call.stride_c = call.ldc * call.m;
    }
    call.precision = (ocf_precision)c->precision;
    ocf_plan plan;
    char what[160];
    snprintf(what, sizeof what, "matmul case %zu on %s (limit %zu), %zu x %zu x %zu", i,
             devices[c->device].name, c->learnt, c->m, c->n, c->k);
    expect_plan(what, ocf_plan_matmul(&facts, &tuning, &call, &plan), &plan, c->shape, c->values);
    check_matmul_assumptions(what, &plan, &call, &facts);
  }
}

/* ---- the padded plans (rule 5) and the splits (rule 4) ---- */

/* One case of rule 5 (plan_matmul.c): the plan's steps and values, then the kernels'
   assumptions. */
static void plan_pad_case(const char *what, const ocf_device_facts *facts,
                          const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                          const char *shape, const char *values) {
  ocf_plan plan;
  expect_plan(what, ocf_plan_matmul(facts, tuning, call, &plan), &plan, shape, values);
  check_matmul_assumptions(what, &plan, call, facts);
}

/*
 * The build options of a padded plan's two programs (ocf_plan_program_options): the copy step's
 * matmul_pad is built with the defines its descriptor lists and its own kernel's switch, the
 * same for every tile, epilogue and register cap after it; the tiled program takes every define,
 * its kernel's switch alone and the register cap. The plan's description keeps both kernels.
 */
static void test_plan_matmul_program_options(void **state) {
  (void)state;
  ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_min = 1024, t.matmul.tiled.pad_sides = 0;
  ocf_matmul_call call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001; /* A copied (A_PAD 1), B as it lies */
  ocf_plan plan;
  expect_success("padded", ocf_plan_matmul(&facts, &t, &call, &plan));
  assert_int_equal(plan.step_count, 2);
  assert_int_equal(ocf_plan_step_program(&plan, 0), OCF_PROGRAM_MATMUL_PAD);
  assert_int_equal(ocf_plan_step_program(&plan, 1), OCF_PROGRAM_MATMUL);
  assert_int_equal(plan.program, OCF_PROGRAM_MATMUL);
  plan.max_registers = 128; /* (as a cap would be set where the compiler takes one) */
  char copy[512], tiled[512], whole[512];
  assert_int_equal(ocf_plan_program_options(&plan, OCF_PROGRAM_MATMUL_PAD, copy, sizeof copy), 0);
  assert_string_equal(copy, "-DTRANS_A=0 -DTRANS_B=0 -DA_PAD=1 -DB_PAD=0 -DPAD_WG=256 "
                            "-DPAD_DTYPE=0 -DOCF_KERNEL_matmul_pad");
  assert_int_equal(ocf_plan_program_options(&plan, OCF_PROGRAM_MATMUL, tiled, sizeof tiled), 0);
  assert_non_null(strstr(tiled, "-DMDIMC=16 "));
  assert_non_null(strstr(tiled, "-DPAD_WG=256 "));
  assert_non_null(strstr(tiled, " -DOCF_KERNEL_matmul_tiled_pad -cl-nv-maxrregcount=128"));
  assert_null(strstr(tiled, "OCF_KERNEL_matmul_pad"));
  assert_int_equal(ocf_plan_options(&plan, whole, sizeof whole), 0);
  assert_non_null(strstr(whole, "-DOCF_KERNEL_matmul_pad -DOCF_KERNEL_matmul_tiled_pad"));
  /* Other tiles and an epilogue: the same copy program. */
  t.matmul.tiled.set[0].mdimc = 8, t.matmul.tiled.set[0].ndimc = 8;
  call.activation = OCF_ACTIVATION_RELU;
  expect_success("padded, other tiles", ocf_plan_matmul(&facts, &t, &call, &plan));
  char other[512];
  assert_int_equal(ocf_plan_program_options(&plan, OCF_PROGRAM_MATMUL_PAD, other, sizeof other), 0);
  assert_string_equal(other, copy);
  assert_int_equal(ocf_plan_program_options(&plan, OCF_PROGRAM_MATMUL, other, sizeof other), 0);
  assert_string_not_equal(other, tiled);
  /* A one-program plan: its options are the plan's. */
  call.lda = 4000;
  expect_success("aligned", ocf_plan_matmul(&facts, &t, &call, &plan));
  assert_int_equal(plan.step_count, 1);
  assert_int_equal(ocf_plan_step_program(&plan, 0), plan.program);
  assert_int_equal(ocf_plan_program_options(&plan, plan.program, tiled, sizeof tiled), 0);
  assert_int_equal(ocf_plan_options(&plan, whole, sizeof whole), 0);
  assert_string_equal(tiled, whole);
  assert_int_equal(ocf_plan_program_options(&plan, plan.program, tiled, 8), -1); /* too long */
}

/*
 * The padded tiled plans, the ragged path (src/plan/plan_matmul.c, rule 5), on the H200's FP32
 * rows (set 0: 128 x 128 tiles of 16 x 16 work-items, K slices of 8) with the sides not gated
 * (tiled.pad_sides 0, the schema's; NVIDIA's 2 is test_plan_matmul_pad_sides'): off with
 * tiled.pad_min 0 (the schema's); with pad_min 1024, an fp32 A or B off aligned vector loads (an
 * offset, a leading dimension or a batch stride not a multiple of 4) is copied as stored into
 * rows of whole tiles, zeros past it, before matmul_tiled_pad; aligned operands, 16-bit ones and
 * C are left as they lie. The gates: the products, the split, the variant, a fixed workgroup,
 * no_staging, the scratch against an eighth of the memory, one allocation and the caller's
 * workspace, the copy kernel's learnt workgroup limit.
 */
static void test_plan_matmul_pad(void **state) {
  (void)state;
  ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_min = 0, t.matmul.tiled.pad_sides = 0;
  /* 4000^3, A's rows k + 1 apart: 32 x 32 tiles, the mixed kernel with pad_min 0. */
  ocf_matmul_call call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001;
  const char *const mixed = "matmul_tiled_mixed wg=16x16 groups=32x32";
  plan_pad_case("pad_min 0", &facts, &t, &call, mixed, "A_VEC=0 B_VEC=1 A_PAD=0 B_PAD=0 scratch=0");
  t.matmul.tiled.pad_min = 1024;
  /* A' of 4096 rows (m to whole 128-row tiles) of 4000 floats (k in whole K slices of 8). */
  const char *const pad_4000 = "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 "
                               "groups=32x32";
  plan_pad_case("NN, lda 4001", &facts, &t, &call, pad_4000,
                "A_PAD=1 B_PAD=0 A_VEC=1 B_VEC=1 C_VEC=1 PAD_WG=256 pad_lda=4000 "
                "pad_rows_a=4096 pad_ldb=0 scratch=65536000 scratch_written=1 splits=1");
  /* Both, every transpose pair, through the offsets: A' and B' by their stored shapes. */
  call.lda = 4000, call.a_off = 1, call.b_off = 3;
  plan_pad_case("NN, offsets 1 and 3", &facts, &t, &call,
                "matmul_pad wg=256 groups=8096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=1 B_PAD=1 pad_lda=4000 pad_rows_a=4096 pad_ldb=4096 pad_rows_b=4000 "
                "scratch=131072000");
  call.trans_a = 1, call.trans_b = 1;
  plan_pad_case("TT, offsets 1 and 3", &facts, &t, &call,
                "matmul_pad wg=256 groups=8096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "TRANS_A=1 TRANS_B=1 pad_lda=4096 pad_rows_a=4000 pad_ldb=4000 pad_rows_b=4096");
  /* k = 4001: K' 4008 (whole slices of 8); m = 3999 x n = 4001 round to 4096 and 4096. */
  call = matmul_call(1, 0, 3999, 4001, 4001, 0, 0, AUTO, 0);
  plan_pad_case("TN 3999 x 4001 x 4001, tight", &facts, &t, &call,
                "matmul_pad wg=256 groups=8016 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=1 B_PAD=1 pad_lda=4096 pad_rows_a=4008 pad_ldb=4096 pad_rows_b=4008 "
                "C_VEC=0");
  /* B's rows only (A aligned: m and k multiples of 4), C left as it lies (its ldc is B's n). */
  call = matmul_call(0, 1, 4096, 4095, 4096, 0, 0, AUTO, 0);
  plan_pad_case("NT, k x n = 4096 x 4095 as B^T: aligned, tight", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=32x32", "A_PAD=0 B_PAD=0 C_VEC=0");
  call.ldb = 4097;
  plan_pad_case("NT, ldb 4097", &facts, &t, &call,
                "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=0 B_PAD=1 pad_ldb=4096 pad_rows_b=4096 B_VEC=1");
  /* A batch: only B's stride is off 4; B' per product 2048 rows apart. */
  call = matmul_call(0, 0, 2048, 2048, 1000, 0, 0, AUTO, 0);
  call.batch = 3, call.stride_a = 2048 * 1000, call.stride_b = 1000 * 2048 + 1;
  call.stride_c = 2048 * 2048;
  plan_pad_case("a batch, stride_b off 4", &facts, &t, &call,
                "matmul_pad wg=256 groups=3000 + matmul_tiled_pad wg=16x16 groups=48x16",
                "A_PAD=0 B_PAD=1 pad_ldb=2048 pad_rows_b=1000 scratch=24576000");
  /* 16-bit operands are never copied (their vloads need no alignment); C alone is not copied. */
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 1, AUTO, 0);
  call.a_dtype = OCF_F16;
  call.b_off = 1;
  plan_pad_case("A fp16, B off by 1", &facts, &t, &call,
                "matmul_pad wg=256 groups=4000 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=0 B_PAD=1 pad_ldb=4096 pad_rows_b=4000");
  call.b_dtype = OCF_BF16;
  plan_pad_case("fp16 and bf16", &facts, &t, &call, mixed, "A_PAD=0 B_PAD=0 scratch=0");
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.c_off = 1;
  plan_pad_case("only C off by 1", &facts, &t, &call, mixed, "C_VEC=0 A_PAD=0 B_PAD=0");

  /* The gates. */
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001;
  ocf_tuning_values gate = t;
  gate.matmul.tiled.pad_min = 4001;
  plan_pad_case("pad_min 4001", &facts, &gate, &call, mixed, "A_PAD=0 scratch=0");
  gate.matmul.tiled.pad_min = 4000;
  plan_pad_case("pad_min 4000", &facts, &gate, &call, pad_4000, "A_PAD=1");
  ocf_matmul_call c2 = call;
  c2.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("the general variant", &facts, &t, &c2, "matmul_tiled wg=16x16 groups=32x32",
                "A_PAD=0 scratch=0");
  c2 = call;
  c2.workgroup = 256;
  plan_pad_case("a fixed workgroup", &facts, &t, &c2, mixed, "A_PAD=0 fixed=1");
  c2 = call;
  c2.no_staging = 1;
  plan_pad_case("no_staging (its scratch failed)", &facts, &t, &c2, mixed, "A_PAD=0");
  c2.no_staging = 0;
  c2.scratch_bound.set = 1, c2.scratch_bound.bytes = 65536000 - 1;
  plan_pad_case("a workspace one byte short", &facts, &t, &c2, mixed, "A_PAD=0 scratch=0");
  c2.scratch_bound.bytes = 65536000;
  plan_pad_case("a workspace that fits exactly", &facts, &t, &c2, pad_4000, "A_PAD=1");
  ocf_device_facts small = facts;
  small.max_alloc_bytes = 65536000 - 1;
  plan_pad_case("past one allocation", &small, &t, &call, mixed, "A_PAD=0");
  small = facts;
  small.global_mem_bytes = 8ull * 65536000 - 8; /* an eighth: 4 bytes short */
  plan_pad_case("past an eighth of the memory", &small, &t, &call, mixed, "A_PAD=0");
  small.global_mem_bytes = small.max_alloc_bytes = 0;
  plan_pad_case("no memory facts", &small, &t, &call, mixed, "A_PAD=0");
  small = facts;
  small.learnt.kernel_max_workgroup[OCF_KERNEL_MATMUL_PAD] = 32;
  plan_pad_case("a copy limit of 32 work-items", &small, &t, &call,
                "matmul_pad wg=32 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "PAD_WG=32 A_PAD=1");
  /* Split K stays split (few tiles, long K): no copies. */
  call = matmul_call(0, 0, 256, 256, 65536, 0, 0, AUTO, 0);
  call.lda = 65537;
  ocf_plan plan;
  assert_int_equal(ocf_plan_matmul(&facts, &t, &call, &plan), OCF_SUCCESS);
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_SPLIT);
  assert_int_equal(plan.pad_lda, 0);
  /* Whole tiles with A's rows off 4: the fast kernel's plan is padded too. */
  call = matmul_call(0, 0, 4096, 4096, 4096, 0, 0, AUTO, 0);
  call.lda = 4100 + 1;
  plan_pad_case("4096^3, lda 4101", &facts, &t, &call,
                "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32",
                "A_PAD=1 pad_lda=4096 pad_rows_a=4096");

  /* tiled.rim (0 in the schema, 1 in NVIDIA's built-in values: RIM=0 everywhere when off): RIM=1
     on the padded and the mixed kernels only; the fast, general and split plans, whose tiles are
     all whole or all guarded, keep RIM=0. */
  assert_int_equal(t.matmul.tiled.rim, 1);
  call = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
  call.lda = 4001;
  ocf_tuning_values no_rim = t;
  no_rim.matmul.tiled.rim = 0;
  plan_pad_case("tiled.rim 0, padded", &facts, &no_rim, &call, pad_4000, "A_PAD=1 RIM=0");
  ocf_tuning_values rim = t;
  rim.matmul.tiled.rim = 1;
  plan_pad_case("tiled.rim 1, padded", &facts, &rim, &call, pad_4000, "A_PAD=1 RIM=1");
  rim.matmul.tiled.pad_min = 0;
  plan_pad_case("tiled.rim 1, mixed", &facts, &rim, &call, mixed, "A_PAD=0 RIM=1");
  call.lda = 4096, call.m = call.n = call.k = 4096;
  plan_pad_case("tiled.rim 1, fast", &facts, &rim, &call, "matmul_tiled_fast wg=16x16 groups=32x32",
                "RIM=0");
  call.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("tiled.rim 1, general", &facts, &rim, &call, "matmul_tiled wg=16x16 groups=32x32",
                "RIM=0");
  call = matmul_call(0, 0, 256, 256, 65536, 0, 0, AUTO, 0);
  {
    ocf_plan split;
    assert_int_equal(ocf_plan_matmul(&facts, &rim, &call, &split), OCF_SUCCESS);
    assert_int_equal(split.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_SPLIT);
    assert_int_equal(ocf_plan_define_value(&split, "RIM", -1), 0);
    /* tiled.rim 2: the split kernel's two bodies too (the mixed kernel's stay) */
    ocf_tuning_values rim2 = rim;
    rim2.matmul.tiled.rim = 2;
    assert_int_equal(ocf_plan_matmul(&facts, &rim2, &call, &split), OCF_SUCCESS);
    assert_int_equal(split.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_SPLIT);
    assert_int_equal(ocf_plan_define_value(&split, "RIM", -1), 1);
    ocf_matmul_call ragged = matmul_call(0, 0, 4000, 4000, 4000, 0, 0, AUTO, 0);
    ragged.lda = 4001;
    plan_pad_case("tiled.rim 2, mixed", &facts, &rim2, &ragged, mixed, "A_PAD=0 RIM=1");
  }

  /* PoCL: 67 x 45 fills under half of set 0's 32 x 32 tiles (min_eff 50), so set 1's 16 x 16
     tiles of 4 x 4 work-items, K slices of 16: A stored 70 x 67 becomes 80 x 80, B stored
     45 x 70 becomes 48 x 80; small calls copied from pad_min 1. */
  facts = facts_of(POCL, 0);
  facts.global_mem_bytes = 8ull << 30;
  t = matmul_tuning(&facts, POCL, OCF_F32);
  t.matmul.tiled.pad_min = 1;
  call = matmul_call(1, 1, 67, 45, 70, 0, 1, AUTO, 0);
  plan_pad_case("PoCL TT 67 x 45 x 70, a_off 1", &facts, &t, &call,
                "matmul_pad wg=256 groups=128 + matmul_tiled_pad wg=4x4 groups=3x5",
                "A_PAD=1 B_PAD=1 pad_lda=80 pad_rows_a=80 pad_ldb=80 pad_rows_b=48 KWG=16");
}

/* One call of test_plan_matmul_pad_sides: fp32, tight where lda / ldb are 0, the H200's built-in
   pad_sides and pad_min where pad_sides is -1 and pad_min 0. */
typedef struct pad_sides_case {
  const char *what;
  int trans_a, trans_b;
  size_t m, n, k, lda, ldb, a_off, b_off;
  int pad_sides, pad_min;
  const char *shape, *values;
} pad_sides_case;

#define PAD_A_4096 "matmul_pad wg=256 groups=4096 + matmul_tiled_pad wg=16x16 groups=32x32"
#define PAD_AB_4096 "matmul_pad wg=256 groups=8192 + matmul_tiled_pad wg=16x16 groups=32x32"
#define MIXED_4096 "matmul_tiled_mixed wg=16x16 groups=32x32"
#define FAST_4096 "matmul_tiled_fast wg=16x16 groups=32x32"
#define MIXED_4097 "matmul_tiled_mixed wg=16x16 groups=32x33"

static const pad_sides_case pad_sides_cases[] = {
    /* Whole sides (128 x 128 tiles, K slices of 8), a misaligned layout: copied. */
    {"4096^3, lda 4097", 0, 0, 4096, 4096, 4096, 4097, 0, 0, 0, -1, 0, PAD_A_4096,
     "A_PAD=1 B_PAD=0 A_VEC=1 B_VEC=1 C_VEC=1 RIM=1 pad_lda=4096 pad_rows_a=4096 "
     "scratch=67108864"},
    {"4096^3, offsets 1 and 3", 0, 0, 4096, 4096, 4096, 0, 0, 1, 3, -1, 0, PAD_AB_4096,
     "A_PAD=1 B_PAD=1 pad_lda=4096 pad_ldb=4096 scratch=134217728"},
    {"4096^3 A^T B^T, offsets 1 and 3", 1, 1, 4096, 4096, 4096, 0, 0, 1, 3, -1, 0, PAD_AB_4096,
     "A_PAD=1 B_PAD=1 TRANS_A=1 TRANS_B=1"},
    {"4096^3 A B^T, ldb 4099", 0, 1, 4096, 4096, 4096, 0, 4099, 0, 0, -1, 0, PAD_A_4096,
     "A_PAD=0 B_PAD=1 pad_ldb=4096 pad_rows_b=4096"},
    /* One side of 4093 (or, with pad_sides 2, k a multiple of 4 but not of 8) beside whole
       ones: the mixed kernel's rim path, the operand read as it lies. */
    {"4096 x 4096 x 4093, tight", 0, 0, 4096, 4096, 4093, 0, 0, 0, 0, -1, 0, MIXED_4096,
     "A_PAD=0 B_PAD=0 A_VEC=0 RIM=1 scratch=0"},
    {"4093 x 4096 x 4096, lda 4097", 0, 0, 4093, 4096, 4096, 4097, 0, 0, 0, -1, 0, MIXED_4096,
     "A_PAD=0 A_VEC=0 RIM=1 scratch=0"},
    {"4096 x 4093 x 4096, a_off 1", 0, 0, 4096, 4093, 4096, 0, 0, 1, 0, -1, 0, MIXED_4096,
     "A_PAD=0 B_PAD=0 A_VEC=0 B_VEC=0 C_VEC=0 RIM=1 scratch=0"},
    {"4096 x 4096 x 4092, lda 4093, pad_sides 2", 0, 0, 4096, 4096, 4092, 4093, 0, 0, 0, 2, 0,
     MIXED_4096, "A_PAD=0 A_VEC=0 RIM=1"},
    /* The measured ragged lines, tight: mixed, rim on. */
    {"4097 x 4095 x 4093", 0, 0, 4097, 4095, 4093, 0, 0, 0, 0, -1, 0, MIXED_4097,
     "A_PAD=0 B_PAD=0 RIM=1 scratch=0"},
    {"3001 x 3003 x 3005", 0, 0, 3001, 3003, 3005, 0, 0, 0, 0, -1, 0,
     "matmul_tiled_mixed wg=16x16 groups=24x24", "A_PAD=0 B_PAD=0 RIM=1"},
    {"A^T B^T 3999 x 3001 x 4999", 1, 1, 3999, 3001, 4999, 0, 0, 0, 0, -1, 0,
     "matmul_tiled_mixed wg=16x16 groups=24x32", "A_PAD=0 B_PAD=0 RIM=1"},
    /* The products: 1024^3 (set 1: 64 x 64 tiles, K slices of 16) is copied, one K slice fewer
       is not (the fast kernel on A as it lies). */
    {"1024^3, a_off 1", 0, 0, 1024, 1024, 1024, 0, 0, 1, 0, -1, 0,
     "matmul_pad wg=256 groups=1024 + matmul_tiled_pad wg=16x16 groups=16x16",
     "A_PAD=1 KWG=16 pad_lda=1024 pad_rows_a=1024"},
    {"1024 x 1024 x 1008, a_off 1", 0, 0, 1024, 1024, 1008, 0, 0, 1, 0, -1, 0,
     "matmul_tiled_fast wg=16x16 groups=16x16", "A_PAD=0 A_VEC=0 RIM=0 scratch=0"},
    /* pad_sides 1: sides multiples of 4 are enough (4000 is not a whole tile, 4092 not a whole K
       slice); an odd side is not. pad_sides 0: any sides. pad_min still gates. */
    {"4000^3, lda 4001, pad_sides 2", 0, 0, 4000, 4000, 4000, 4001, 0, 0, 0, 2, 0, MIXED_4096,
     "A_PAD=0"},
    {"4000^3, lda 4001 (pad_sides 1, built in)", 0, 0, 4000, 4000, 4000, 4001, 0, 0, 0, -1, 0,
     PAD_A_4096, "A_PAD=1 pad_lda=4000 pad_rows_a=4096"},
    {"4096 x 4096 x 4092, lda 4093, pad_sides 1", 0, 0, 4096, 4096, 4092, 4093, 0, 0, 0, 1, 0,
     PAD_A_4096, "A_PAD=1 pad_lda=4096"},
    {"4096 x 4096 x 4094, lda 4095, pad_sides 1", 0, 0, 4096, 4096, 4094, 4095, 0, 0, 0, 1, 0,
     MIXED_4096, "A_PAD=0"},
    {"4097 x 4095 x 4093, pad_sides 1", 0, 0, 4097, 4095, 4093, 0, 0, 0, 0, 1, 0, MIXED_4097,
     "A_PAD=0 B_PAD=0"},
    {"4097 x 4095 x 4093, pad_sides 0", 0, 0, 4097, 4095, 4093, 0, 0, 0, 0, 0, 0,
     "matmul_pad wg=256 groups=8320 + matmul_tiled_pad wg=16x16 groups=32x33",
     "A_PAD=1 B_PAD=1 pad_rows_a=4224 pad_rows_b=4096"},
    {"4096^3, lda 4097, pad_min 4097", 0, 0, 4096, 4096, 4096, 4097, 0, 0, 0, -1, 4097, FAST_4096,
     "A_PAD=0 A_VEC=0"},
};

/*
 * Rule 5 in few waves (tiled.pad_waves 2 here) on the H200's 132 units: a call whose tiles are
 * at most 2 x 132 copies every fp32 operand across a rim, aligned or not; 2000^3 in 128 x 128
 * tiles is 256, 2000 x 2100 x 2000 is 272; whole tiles take matmul_tiled_fast with no copy;
 * pad_min and pad_sides (1: multiples of 4) still bound it.
 */
static void test_plan_matmul_pad_waves(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_waves = 2;
  t.matmul.tiled.wave_min = 0; /* rule 4 would split 2000 x 2100 x 2000's 272 tiles */
  ocf_matmul_call call = matmul_call(0, 0, 2000, 2000, 2000, 0, 0, AUTO, 0);
  /* A' 2048 rows (m to whole tiles) of 2000 (k in whole slices of 8); B' 2000 rows of 2048 */
  plan_pad_case("2000^3, pad_waves 2", &facts, &t, &call,
                "matmul_pad wg=256 groups=4048 + matmul_tiled_pad wg=16x16 groups=16x16",
                "A_PAD=1 B_PAD=1 pad_lda=2000 pad_rows_a=2048 pad_ldb=2048 pad_rows_b=2000 "
                "scratch=32768000 RIM=1");
  ocf_tuning_values off = t;
  off.matmul.tiled.pad_waves = 0;
  plan_pad_case("2000^3, pad_waves 0", &facts, &off, &call,
                "matmul_tiled_mixed wg=16x16 groups=16x16", "A_PAD=0 B_PAD=0 scratch=0");
  call.n = 2100;
  plan_pad_case("2000 x 2100 x 2000 (272 tiles)", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=17x16", "A_PAD=0 B_PAD=0 scratch=0");
  /* m and k whole: only B; n 2001 (off 4) is refused by pad_sides 1 */
  call = matmul_call(0, 0, 2048, 2000, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048 x 2000 x 2048", &facts, &t, &call,
                "matmul_pad wg=256 groups=2048 + matmul_tiled_pad wg=16x16 groups=16x16",
                "A_PAD=0 B_PAD=1 pad_ldb=2048");
  call = matmul_call(0, 0, 2048, 2001, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048 x 2001 x 2048", &facts, &t, &call, "matmul_tiled_mixed wg=16x16 groups=16x16",
                "A_PAD=0 B_PAD=0 scratch=0");
  call = matmul_call(0, 0, 2048, 2048, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048^3: whole tiles", &facts, &t, &call, "matmul_tiled_fast wg=16x16 groups=16x16",
                "scratch=0");
  /* 1000^3 (64 x 64 tiles: 256) is below pad_min 1024, above 512 */
  call = matmul_call(1, 1, 1000, 1000, 1000, 0, 0, AUTO, 0);
  plan_pad_case("TT 1000^3, pad_min 1024", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=16x16", "scratch=0");
  t.matmul.tiled.pad_min = 512;
  plan_pad_case("TT 1000^3, pad_min 512", &facts, &t, &call,
                "matmul_pad wg=256 groups=2032 + matmul_tiled_pad wg=16x16 groups=16x16",
                "A_PAD=1 B_PAD=1");
}

/*
 * Rule 4's wave split (tiled.wave_min 85, wave_k_min 128 here; pad_waves 0 so that rule 5 does
 * not take the unsplit plans) on the H200's 132 units, set 0's 128 x 128 tiles: 1500^3's 144
 * workgroups fill 54 % of two waves; 2 splits 73 %, 3 82 %, 4 (576 workgroups, K ranges of 376)
 * 87 %. 3000^3's 576 fill 87 % unsplit; wave_min 90 splits them in 2 (1152, 97 %); 2048^3's
 * 256 fill 96 %. The edges: K too short for two ranges of wave_k_min (1500 x 1500 x 255), a
 * split_max below the splits wanted, no split where no count reaches wave_min within them, the
 * fixed variants, and wave_min 0 (the schema's).
 */
static void test_plan_matmul_wave_split(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  t.matmul.tiled.pad_waves = 0;
  assert_int_equal(t.matmul.tiled.few_waves, 2); /* NVIDIA's built-in values, */
  assert_int_equal(t.matmul.tiled.few_wave_min, 90);
  t.matmul.tiled.few_waves = 0; /* off but in their own cases below */
  t.matmul.tiled.wave_min = 85, t.matmul.tiled.wave_k_min = 128;
  ocf_matmul_call call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 0);
  const char *const split4 = "matmul_tiled_split wg=16x16 groups=48x12 + matmul_reduce wg=256 "
                             "groups=8790";
  plan_pad_case("1500^3, wave_min 85", &facts, &t, &call, split4, "splits=4 k_split=376");
  ocf_tuning_values off = t;
  off.matmul.tiled.wave_min = 0;
  const char *const unsplit = "matmul_tiled_mixed wg=16x16 groups=12x12";
  plan_pad_case("1500^3, wave_min 0", &facts, &off, &call, unsplit, "scratch=0");
  ocf_tuning_values capped = t;
  capped.matmul.tiled.split_max = 3; /* 3 splits fill 82 %: none reaches 85 */
  plan_pad_case("1500^3, split_max 3", &facts, &capped, &call, unsplit, "scratch=0");
  capped.matmul.tiled.wave_min = 80;
  plan_pad_case("1500^3, split_max 3, wave_min 80", &facts, &capped, &call,
                "matmul_tiled_split wg=16x16 groups=36x12 + matmul_reduce wg=256 groups=8790",
                "splits=3 k_split=504");
  ocf_tuning_values longer = t;
  longer.matmul.tiled.wave_k_min = 376; /* 1500 / 376: 3 ranges at most */
  plan_pad_case("1500^3, wave_k_min 376", &facts, &longer, &call, unsplit, "scratch=0");
  longer.matmul.tiled.wave_k_min = 375;
  plan_pad_case("1500^3, wave_k_min 375", &facts, &longer, &call, split4, "splits=4");
  call.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("1500^3, the general variant", &facts, &t, &call,
                "matmul_tiled wg=16x16 groups=12x12", "scratch=0");
  call = matmul_call(0, 0, 1500, 1500, 255, 0, 0, AUTO, 0);
  plan_pad_case("1500 x 1500 x 255: one range of 128", &facts, &t, &call, unsplit, "scratch=0");
  call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3, wave_min 85", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=24x24", "scratch=0");
  ocf_tuning_values tight = t;
  tight.matmul.tiled.wave_min = 90;
  plan_pad_case("3000^3, wave_min 90", &facts, &tight, &call,
                "matmul_tiled_split wg=16x16 groups=48x24 + matmul_reduce wg=256 groups=35157",
                "splits=2 k_split=1504");
  call = matmul_call(0, 0, 2048, 2048, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048^3, wave_min 90", &facts, &tight, &call,
                "matmul_tiled_fast wg=16x16 groups=16x16", "scratch=0");
  /* tiled.few_waves 2, few_wave_min 90 (NVIDIA's): 1500^3's 144 workgroups make 2 waves, so
     they split to 90 % (5 ranges, 720 workgroups, 91 %) where wave_min 85 alone takes 4;
     1800^3's 225 (2 waves, 85 %) split in 4 (900, 97 %); 3000^3's 576 (5 waves, 87 %) stay
     whole; 5 waves as few (few_waves 5) would split them in 2 (1152, 97 %); few_wave_min below
     wave_min keeps wave_min; wave_min 0 keeps the rule off. */
  ocf_tuning_values few = t;
  few.matmul.tiled.few_waves = 2, few.matmul.tiled.few_wave_min = 90;
  call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 0);
  plan_pad_case("1500^3, few_waves 2", &facts, &few, &call,
                "matmul_tiled_split wg=16x16 groups=60x12 + matmul_reduce wg=256 groups=8790",
                "splits=5");
  ocf_tuning_values few_low = few;
  few_low.matmul.tiled.few_wave_min = 50;
  plan_pad_case("1500^3, few_wave_min 50", &facts, &few_low, &call, split4, "splits=4");
  ocf_tuning_values few_off = few;
  few_off.matmul.tiled.wave_min = 0;
  plan_pad_case("1500^3, few_waves 2, wave_min 0", &facts, &few_off, &call, unsplit, "scratch=0");
  call = matmul_call(0, 0, 1800, 1800, 1800, 0, 0, AUTO, 0);
  plan_pad_case("1800^3, few_waves 2", &facts, &few, &call,
                "matmul_tiled_split wg=16x16 groups=60x15 + matmul_reduce wg=256 groups=12657",
                "splits=4");
  plan_pad_case("1800^3, wave_min 85", &facts, &t, &call,
                "matmul_tiled_mixed wg=16x16 groups=15x15", "scratch=0");
  call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3, few_waves 2", &facts, &few, &call,
                "matmul_tiled_mixed wg=16x16 groups=24x24", "scratch=0");
  few.matmul.tiled.few_waves = 5;
  plan_pad_case("3000^3, few_waves 5", &facts, &few, &call,
                "matmul_tiled_split wg=16x16 groups=48x24 + matmul_reduce wg=256 groups=35157",
                "splits=2");
}

/*
 * Rule 4's split filled to a wave (tiled.wave_min, 80 on the H200, wave_k_min 128), under the
 * H200's small and large_k values with split_k_min 1024 (the rule's own case, whatever the
 * entries hold). The small class's set 0 (256 x 128 tiles) over 1024 x 1024 x 2048 makes 32
 * tiles, and K holds only two ranges of 1024: 64 workgroups on 132 units, 48 % of a wave. 3
 * ranges fill 72 %, 4 (ranges of 512) 96 %: the fewest that reach wave_min (2026-12-03: 19.4 ->
 * 35.1 TFLOP/s). wave_min 72 takes 3, 0 keeps 2; wave_k_min 512 allows 4; where the split stays
 * short (wave_k_min 513: three ranges at most; split_max 3) the set is passed over for set 1's
 * 64 x 64 tiles, 256 of them, unsplit. 256 x 1024 x 2048 (8 tiles) takes 14 ranges (112
 * workgroups, 84 %: 5.0 -> 23.1); 1024 x 1024 x 4096 already fills 96 % in its 4 ranges. In
 * large_k, 256 x 256 x 4096 in set 0's 128 x 128 tiles is 4 tiles, 64 workgroups in 16 ranges
 * (48 %): set 1's 16 tiles in 7 ranges fill 84 % (4.6 -> 14.5); where no set fills it (32 x 32 x
 * 4096: one 32 x 32 tile, or four of 16 x 16, in 16 ranges at most) the first split stands, set
 * 2's in the split rule's 4 ranges.
 */
static void test_plan_matmul_split_to_wave(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  facts.learnt.mma = OCF_PROBE_FAILED;
  const char *const split4 =
      "matmul_tiled_split wg=16x32 groups=32x4 + matmul_reduce wg=256 groups=4096";
  const char *const fast = "matmul_tiled_fast wg=16x16 groups=16x16";
  static const struct {
    size_t m, n, k;
    const char *class_name;
    int wave_min, wave_k_min, split_max;
    const char *what, *shape, *values;
  } cases[] = {
      {1024, 1024, 2048, "small", 80, 128, 16, "shipped", NULL, "splits=4 k_split=512"},
      {1024, 1024, 2048, "small", 72, 128, 16, "wave_min 72",
       "matmul_tiled_split wg=16x32 groups=24x4 + matmul_reduce wg=256 groups=4096", "splits=3"},
      {1024, 1024, 2048, "small", 0, 128, 16, "wave_min 0",
       "matmul_tiled_split wg=16x32 groups=16x4 + matmul_reduce wg=256 groups=4096",
       "splits=2 k_split=1024"},
      {1024, 1024, 2048, "small", 80, 512, 16, "wave_k_min 512", NULL, "splits=4 k_split=512"},
      {1024, 1024, 2048, "small", 80, 513, 16, "wave_k_min 513", "", "MWI=4 NWI=4 splits=1"},
      {1024, 1024, 2048, "small", 80, 128, 3, "split_max 3", "", "MWI=4 NWI=4 splits=1"},
      {256, 1024, 2048, "small", 80, 128, 16, "shipped",
       "matmul_tiled_split wg=16x32 groups=112x1 + matmul_reduce wg=256 groups=1024", "splits=14"},
      {1024, 1024, 4096, "small", 80, 128, 16, "shipped", NULL, "splits=4 k_split=1024"},
      {256, 256, 4096, "large_k", 80, 128, 16, "shipped",
       "matmul_tiled_split wg=16x16 groups=28x4 + matmul_reduce wg=256 groups=256",
       "MWI=4 NWI=4 splits=7"},
      {256, 256, 4096, "large_k", 0, 128, 16, "wave_min 0",
       "matmul_tiled_split wg=16x16 groups=8x2 + matmul_reduce wg=256 groups=256",
       "MWI=8 NWI=8 splits=4"},
      {32, 32, 4096, "large_k", 80, 128, 16, "shipped",
       "matmul_tiled_split wg=8x8 groups=4x1 + matmul_reduce wg=256 groups=4",
       "MWI=4 NWI=4 splits=4"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape key = {{cases[i].m, cases[i].n, cases[i].k}};
    const unsigned c = ocf_shape_class_of(OCF_OP_MATMUL, &key);
    assert_string_equal(ocf_shape_class_name(OCF_OP_MATMUL, c), cases[i].class_name);
    ocf_tuning_values t = table[OCF_OP_MATMUL][OCF_F32][c];
    assert_int_equal(t.matmul.tiled.wave_min, 80);
    assert_int_equal(t.matmul.tiled.wave_k_min, 128);
    t.matmul.tiled.split_k_min = 1024;
    t.matmul.tiled.wave_min = cases[i].wave_min;
    t.matmul.tiled.wave_k_min = cases[i].wave_k_min;
    t.matmul.tiled.split_max = cases[i].split_max;
    ocf_matmul_call call = matmul_call(0, 0, cases[i].m, cases[i].n, cases[i].k, 0, 0, AUTO, 0);
    char what[96];
    snprintf(what, sizeof what, "H200 fp32 %zu x %zu x %zu, %s", cases[i].m, cases[i].n, cases[i].k,
             cases[i].what);
    const char *shape = cases[i].shape == NULL ? split4 : cases[i].shape[0] ? cases[i].shape : fast;
    ocf_plan plan;
    expect_plan(what, ocf_plan_matmul(&facts, &t, &call, &plan), &plan, shape, cases[i].values);
  }
}

/*
 * The few_rows class (m <= 128 < n, k >= 4096, none of the earlier classes) and the H200's entry
 * for it (64 x 128 tiles in set 1, set 2's K slices of 32, K split in ranges from 512): the
 * class's edges, then its plans (2026-12-03: 64 x 4096 x 4096 25.7 -> 31.5 TFLOP/s, 128 x 4096 x
 * 4096 27.5 -> 34.1). 64 rows take set 1's 64 x 128 tiles (128 x 128 would be half empty) in 8
 * ranges of 512 (32 tiles, 256 workgroups); 128 rows set 0 in 8 ranges; shorter K keeps the
 * small class's plans.
 */
static void test_plan_matmul_few_rows(void **state) {
  (void)state;
  static const struct {
    size_t m, n, k;
    const char *class_name;
  } classes[] = {
      {128, 4096, 4096, "few_rows"},
      {17, 600, 4096, "few_rows"},
      {129, 4096, 4096, "small"},
      {128, 128, 4096, "large_k"},
      {64, 4096, 4095, "small"},
      {16, 4096, 4096, "skinny"},
      {128, 4096, 64, "small_k"},
      {128, 8192, 8192, "few_rows"},
      /* small against large: m n <= 2^21 (1024 x 2048), under 128 tiles of 128 x 128 */
      {1024, 2048, 2048, "small"},
      {1025, 2048, 2048, "large"},
      {2048, 1024, 4096, "small"},
      {2048, 1025, 4096, "large"},
      {1448, 1448, 1448, "small"},
      {1449, 1448, 1448, "large"},
  };
  for (size_t i = 0; i < ARRAY_LEN(classes); i++) {
    const ocf_shape shape = {{classes[i].m, classes[i].n, classes[i].k}};
    const char *got =
        ocf_shape_class_name(OCF_OP_MATMUL, ocf_shape_class_of(OCF_OP_MATMUL, &shape));
    if (strcmp(got, classes[i].class_name) != 0)
      fail_msg("%zu x %zu x %zu is of class %s, want %s", classes[i].m, classes[i].n, classes[i].k,
               got, classes[i].class_name);
  }
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  facts.learnt.wgmma = OCF_PROBE_FAILED;
  facts.learnt.mma = OCF_PROBE_FAILED;
  static const struct {
    size_t m, n, k;
    const char *shape, *values;
  } cases[] = {
      {64, 4096, 4096,
       "matmul_tiled_split wg=16x16 groups=256x1 + matmul_reduce wg=256 groups=1024",
       "MWI=4 NWI=8 splits=8 k_split=512"},
      {128, 4096, 4096,
       "matmul_tiled_split wg=16x16 groups=256x1 + matmul_reduce wg=256 groups=2048",
       "MWI=8 NWI=8 splits=8 k_split=512"},
      {64, 11008, 4096,
       "matmul_tiled_split wg=16x16 groups=258x1 + matmul_reduce wg=256 groups=2752",
       "MWI=4 NWI=8 splits=3"},
      {32, 11008, 4096, "matmul_tiled_fast wg=8x8 groups=344x1", "MWI=4 NWI=4 KWG=32 splits=1"},
      {64, 2048, 2048, "matmul_tiled_split wg=16x16 groups=256x1 + matmul_reduce wg=256 groups=512",
       "MWI=4 NWI=4 KWG=16 splits=8"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const ocf_shape shape = {{cases[i].m, cases[i].n, cases[i].k}};
    const unsigned c = ocf_shape_class_of(OCF_OP_MATMUL, &shape);
    ocf_matmul_call call = matmul_call(0, 0, cases[i].m, cases[i].n, cases[i].k, 0, 0, AUTO, 0);
    char what[96];
    snprintf(what, sizeof what, "H200 fp32 %zu x %zu x %zu", cases[i].m, cases[i].n, cases[i].k);
    ocf_plan plan;
    expect_plan(what, ocf_plan_matmul(&facts, &table[OCF_OP_MATMUL][OCF_F32][c], &call, &plan),
                &plan, cases[i].shape, cases[i].values);
  }
}

/*
 * tiled.mixed_c_check (NVIDIA 1): matmul_tiled_mixed with the rim body and an fp32 C is built
 * with C_VEC 0, so that its stores check C's alignment at run time, even where C is aligned
 * (3000^3); off, C_VEC 1. matmul_tiled_pad (2000^3, few waves), matmul_tiled_fast (2048^3), the
 * mixed kernel without the rim body and an f16 C keep the plan's C_VEC.
 */
static void test_plan_matmul_mixed_c_check(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  assert_int_equal(t.matmul.tiled.mixed_c_check, 1);
  const char *const mixed = "matmul_tiled_mixed wg=16x16 groups=24x24";
  ocf_matmul_call call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3", &facts, &t, &call, mixed, "RIM=1 C_VEC=0 A_VEC=1 B_VEC=1");
  ocf_tuning_values off = t;
  off.matmul.tiled.mixed_c_check = 0;
  plan_pad_case("3000^3, mixed_c_check 0", &facts, &off, &call, mixed, "RIM=1 C_VEC=1");
  ocf_tuning_values no_rim = t;
  no_rim.matmul.tiled.rim = 0;
  plan_pad_case("3000^3, rim 0", &facts, &no_rim, &call, mixed, "RIM=0 C_VEC=1");
  call.c_dtype = OCF_F16;
  plan_pad_case("3000^3, f16 C", &facts, &t, &call, mixed, "RIM=1 C_VEC=1");
  call = matmul_call(0, 0, 2000, 2000, 2000, 0, 0, AUTO, 0);
  plan_pad_case("2000^3 (padded)", &facts, &t, &call,
                "matmul_pad wg=256 groups=4048 + matmul_tiled_pad wg=16x16 groups=16x16",
                "RIM=1 C_VEC=1");
  call = matmul_call(0, 0, 2048, 2048, 2048, 0, 0, AUTO, 0);
  plan_pad_case("2048^3", &facts, &t, &call, "matmul_tiled_fast wg=16x16 groups=16x16",
                "RIM=0 C_VEC=1");
}

/*
 * Which sides rule 5 copies for (tiled.pad_sides), on the H200's built-in values: pad_min 1024,
 * pad_sides 1 (sides multiples of 4; 4000^3 with lda 4001 measured copied 40.4 against 34.0
 * TFLOP/s), rim 1. Measured there (docs/GEMM.md, "Ragged shapes: which plan"):
 * where the sides are whole tiles and only a leading dimension or an offset denies aligned vector
 * loads, the copy wins (4096^3 with lda 4097; offsets 1 and 3); where a side is ragged the mixed
 * kernel's rim path does (4097 x 4095 x 4093, 3001^3, 3999 x 3001 x 4999 A^T B^T). The edges
 * (pad_sides_cases): one side of 4093 beside whole ones, k a multiple of 4 but not of the K
 * slice, the products at pad_min^3 and one K slice below, pad_sides 1 (multiples of 4) and 0;
 * then a batch and 16-bit operands.
 */
static void test_plan_matmul_pad_sides(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  const ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  assert_int_equal(t.matmul.tiled.pad_min, 1024);
  assert_int_equal(t.matmul.tiled.pad_sides, 1);
  assert_int_equal(t.matmul.tiled.rim, 1);
  for (size_t i = 0; i < ARRAY_LEN(pad_sides_cases); i++) {
    const pad_sides_case *c = &pad_sides_cases[i];
    ocf_matmul_call call =
        matmul_call(c->trans_a, c->trans_b, c->m, c->n, c->k, 0, c->a_off, AUTO, 0);
    if (c->lda) call.lda = c->lda;
    if (c->ldb) call.ldb = c->ldb;
    call.b_off = c->b_off;
    ocf_tuning_values tuning = t;
    if (c->pad_sides >= 0) tuning.matmul.tiled.pad_sides = c->pad_sides;
    if (c->pad_min) tuning.matmul.tiled.pad_min = c->pad_min;
    plan_pad_case(c->what, &facts, &tuning, &call, c->shape, c->values);
  }

  /* A batch of whole sides (k = 1000: 125 K slices), B's stride off 4 */
  ocf_matmul_call call = matmul_call(0, 0, 2048, 2048, 1000, 0, 0, AUTO, 0);
  call.batch = 3, call.stride_a = 2048 * 1000, call.stride_b = 1000 * 2048 + 1;
  call.stride_c = 2048 * 2048;
  plan_pad_case("a batch of 2048 x 2048 x 1000, stride_b off 4", &facts, &t, &call,
                "matmul_pad wg=256 groups=3000 + matmul_tiled_pad wg=16x16 groups=48x16",
                "A_PAD=0 B_PAD=1");
  /* 16-bit operands are read as they lie; an fp32 one beside them is still copied. */
  call = matmul_call(0, 0, 4096, 4096, 4096, 0, 0, AUTO, 0);
  call.a_dtype = OCF_F16, call.lda = 4097;
  plan_pad_case("4096^3, fp16 A, lda 4097", &facts, &t, &call, FAST_4096,
                "A_PAD=0 B_PAD=0 A_VEC=1 scratch=0");
  call.b_off = 1;
  plan_pad_case("4096^3, fp16 A, lda 4097, fp32 B off by 1", &facts, &t, &call, PAD_A_4096,
                "A_PAD=0 B_PAD=1");
  call.b_dtype = OCF_BF16;
  plan_pad_case("4096^3, fp16 A, bf16 B off by 1", &facts, &t, &call, FAST_4096,
                "A_PAD=0 B_PAD=0 scratch=0");
}

/* The plan of `call` begins with `kernel` and defines JOIN as `join`, and meets the kernels'
   assumptions. */
static void expect_first_kernel(const char *what, const ocf_device_facts *facts,
                                const ocf_tuning_values *tuning, const ocf_matmul_call *call,
                                ocf_kernel_id kernel, long long join) {
  ocf_plan plan;
  expect_success(what, ocf_plan_matmul(facts, tuning, call, &plan));
  if (plan.steps[0].kernel != kernel || define_of(&plan, "JOIN") != join) {
    print_error("%s: planned %s with JOIN=%lld, expected %s with JOIN=%lld\n", what,
                kernel_name(plan.steps[0].kernel), define_of(&plan, "JOIN"), kernel_name(kernel),
                join);
    fail();
  }
  check_matmul_assumptions(what, &plan, call, facts);
}

/*
 * Rule 4's stream-K (tiled.stream, 0 in the schema and in every built-in row until a GPU has
 * measured it) in place of the split plans, wave_min 85 and wave_k_min 128 as in
 * test_plan_matmul_wave_split. On the H200's 132 units, 1500^3 (set 0's 128 x 128 tiles, K slices
 * of 8, as its split's k_split of 376 shows) splits in 4; with tiled.stream 2 it runs instead as
 * one launch of 264 workgroups over the 144 tiles' 188 slices each (27072 steps, ranges of 102 or
 * 103 slices), two 64 KiB partial tiles a workgroup (34603008 bytes) and a counter a tile, its
 * joins ordered by PTX fences (JOIN 2). tiled.stream 16 asks for 2112 workgroups, but a range
 * must hold wave_k_min's 16 slices: 27072 / 16 = 1692. The split plan stands where the rule is
 * off (stream 0), for the general variant and a fixed workgroup, on a GPU without the fences
 * (AMD's), and where the caller's workspace is short of two workgroups' slots (262144 bytes):
 * there the split's own scratch does not fit either, so K stays whole; a bound of five slots and
 * a half gets 5 workgroups. A call rule 4 leaves unsplit (3000^3: 87 % of its waves) stays so.
 * PoCL's CPU joins by mem_fence (JOIN 1).
 */
static void test_plan_matmul_stream(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  assert_int_equal(t.matmul.tiled.stream, 0); /* off in NVIDIA's built-in row */
  t.matmul.tiled.pad_waves = 0, t.matmul.tiled.few_waves = 0;
  t.matmul.tiled.wave_min = 85, t.matmul.tiled.wave_k_min = 128;
  ocf_matmul_call call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 0);
  const char *const split4 = "matmul_tiled_split wg=16x16 groups=48x12 + matmul_reduce wg=256 "
                             "groups=8790";
  plan_pad_case("1500^3, stream 0", &facts, &t, &call, split4, "splits=4 JOIN=0 arrivals=0");
  ocf_tuning_values on = t;
  on.matmul.tiled.stream = 2;
  plan_pad_case("1500^3, stream 2", &facts, &on, &call, "matmul_tiled_stream wg=16x16 groups=264x1",
                "splits=1 SPLIT_K=2 JOIN=2 RIM=0 scratch=34603008 scratch_written=1 "
                "arrivals=144");
  ocf_tuning_values many = t;
  many.matmul.tiled.stream = 16;
  plan_pad_case("1500^3, stream 16", &facts, &many, &call,
                "matmul_tiled_stream wg=16x16 groups=1692x1", "arrivals=144");
  call.variant = OCF_VARIANT_GENERAL;
  plan_pad_case("1500^3, stream 2, the general variant", &facts, &on, &call,
                "matmul_tiled wg=16x16 groups=12x12", "JOIN=0 scratch=0");
  call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 256);
  ocf_plan plan;
  expect_success("1500^3, stream 2, a fixed workgroup", ocf_plan_matmul(&facts, &on, &call, &plan));
  assert_int_not_equal(plan.steps[0].kernel, OCF_KERNEL_MATMUL_TILED_STREAM);
  /* the caller's workspace: two slots exactly, one byte short of them, five and a half */
  call = matmul_call(0, 0, 1500, 1500, 1500, 0, 0, AUTO, 0);
  call.scratch_bound.set = 1, call.scratch_bound.bytes = 262144;
  plan_pad_case("1500^3, stream 2, 2 slots", &facts, &on, &call,
                "matmul_tiled_stream wg=16x16 groups=2x1", "scratch=262144");
  call.scratch_bound.bytes = 262143;
  plan_pad_case("1500^3, stream 2, short of 2 slots", &facts, &on, &call,
                "matmul_tiled_mixed wg=16x16 groups=12x12", "scratch=0");
  call.scratch_bound.bytes = 5 * 131072 + 65536;
  plan_pad_case("1500^3, stream 2, 5.5 slots", &facts, &on, &call,
                "matmul_tiled_stream wg=16x16 groups=5x1", "scratch=655360");
  call = matmul_call(0, 0, 3000, 3000, 3000, 0, 0, AUTO, 0);
  plan_pad_case("3000^3, stream 2", &facts, &on, &call, "matmul_tiled_mixed wg=16x16 groups=24x24",
                "scratch=0 JOIN=0");
  /* The kernel's step arithmetic is 32-bit: (steps + 1) x groups below 2^32. 144 tiles of 128 x
     128 over 264 ranges: K of 900000 makes 144 x 112500 = 16200000 steps (265 x that: 4293000000),
     stream-K; 901000 makes 16218000 (4297770000), the split. */
  call = matmul_call(0, 0, 1500, 1500, 900000, 0, 0, AUTO, 0);
  expect_first_kernel("1500 x 1500 x 900000, stream 2", &facts, &on, &call,
                      OCF_KERNEL_MATMUL_TILED_STREAM, 2);
  call.k = 901000;
  expect_first_kernel("1500 x 1500 x 901000, stream 2", &facts, &on, &call,
                      OCF_KERNEL_MATMUL_TILED_SPLIT, 0);
  /* No fences between workgroups on AMD's GPU: its split plan, whatever the tuning asks. */
  const ocf_device_facts amd = facts_of(AMD_GPU, 0);
  ocf_tuning_values amd_t = matmul_tuning(&amd, AMD_GPU, OCF_F32);
  amd_t.matmul.tiled.stream = 2;
  call = matmul_call(0, 0, 256, 256, 8192, 0, 0, AUTO, 0);
  expect_first_kernel("AMD, stream 2", &amd, &amd_t, &call, OCF_KERNEL_MATMUL_TILED_SPLIT, 0);
  /* PoCL, K split where its 64 tiles of 256 x 256 x 8192 give fewer than 64 workgroups a unit
     (its two): the joins by mem_fence on a CPU's coherent memory */
  ocf_device_facts pocl = facts_of(POCL, 0);
  pocl.global_mem_bytes = 24ull << 30, pocl.max_alloc_bytes = 6ull << 30; /* the scratch's cap */
  ocf_tuning_values pocl_t = matmul_tuning(&pocl, POCL, OCF_F32);
  pocl_t.matmul.tiled.stream = 2;
  pocl_t.matmul.tiled.fill = 64, pocl_t.matmul.tiled.split_fill = 64;
  expect_first_kernel("PoCL, stream 2", &pocl, &pocl_t, &call, OCF_KERNEL_MATMUL_TILED_STREAM, 1);
}

/*
 * Rule 2's split in one launch (skinny.join, the widest short side joined: 0 in the schema, 1 in
 * NVIDIA's row): where the skinny plan splits K, the short side is at most skinny.join and the
 * device orders a join, matmul_skinny_join alone, a counter a row block of each product. The
 * H200's matrix-vector product 1 x 8192 x 8192 (the table's: 16 row lanes, 128 blocks of 64
 * rows, 5 ranges) runs as 640 workgroups with 128 counters and PTX fences (JOIN 2); a batch of
 * 3 (384 blocks, which skinny.fill's 528 workgroups split in 2) counts 384; skinny.join 0 keeps the
 * split and its reduce; two columns keep them under 1 and join under 2; an unsplit skinny call
 * (256 x 4 x 64) is unchanged; AMD's GPU, without the fences, keeps the reduce; PoCL joins by
 * mem_fence.
 */
static void test_plan_matmul_skinny_join(void **state) {
  (void)state;
  const ocf_device_facts facts = with_h200_memory(facts_of(H200, 0));
  ocf_tuning_values t = matmul_tuning(&facts, H200, OCF_F32);
  assert_int_equal(t.matmul.skinny.join, 1); /* one column in NVIDIA's built-in row */
  ocf_matmul_call call = matmul_call(0, 0, 1, 8192, 8192, 0, 0, AUTO, 0);
  plan_pad_case("1 x 8192 x 8192, join 1", &facts, &t, &call,
                "matmul_skinny_join wg=256 groups=640",
                "JOIN=2 SPLIT=1 splits=5 arrivals=128 RL=16");
  t.matmul.skinny.join = 0;
  plan_pad_case("1 x 8192 x 8192, join 0", &facts, &t, &call,
                "matmul_skinny_split wg=256 groups=640 + matmul_skinny_reduce wg=256 groups=32",
                "JOIN=0 arrivals=0");
  t.matmul.skinny.join = 1;
  call = matmul_call(0, 0, 2, 8192, 8192, 0, 0, AUTO, 0);
  plan_pad_case("2 x 8192 x 8192, join 1", &facts, &t, &call,
                "matmul_skinny_split wg=256 groups=640 + matmul_skinny_reduce wg=256 groups=64",
                "JOIN=0");
  t.matmul.skinny.join = 2;
  plan_pad_case("2 x 8192 x 8192, join 2", &facts, &t, &call,
                "matmul_skinny_join wg=256 groups=640", "JOIN=2 N_SMALL=2 arrivals=128");
  t.matmul.skinny.join = 1;
  call = matmul_call(0, 0, 1, 8192, 8192, 0, 0, AUTO, 0);
  call.batch = 3, call.stride_b = 8192 * 8192, call.stride_c = 8192;
  plan_pad_case("3 x 1 x 8192 x 8192, join 1", &facts, &t, &call,
                "matmul_skinny_join wg=256 groups=768", "splits=2 arrivals=384");
  call = matmul_call(0, 0, 256, 4, 64, 0, 0, AUTO, 0);
  plan_pad_case("256 x 4 x 64, join 1", &facts, &t, &call, "matmul_skinny wg=256 groups=8",
                "JOIN=0 SPLIT=0 arrivals=0");
  const ocf_device_facts amd = facts_of(AMD_GPU, 0);
  ocf_tuning_values amd_t = matmul_tuning(&amd, AMD_GPU, OCF_F32);
  amd_t.matmul.skinny.join = 1;
  call = matmul_call(0, 0, 1, 8192, 8192, 0, 0, AUTO, 0);
  expect_first_kernel("AMD, join 1", &amd, &amd_t, &call, OCF_KERNEL_MATMUL_SKINNY_SPLIT, 0);
  const ocf_device_facts pocl = facts_of(POCL, 0);
  ocf_tuning_values pocl_t = matmul_tuning(&pocl, POCL, OCF_F32);
  pocl_t.matmul.skinny.join = 1, pocl_t.matmul.skinny.fill = 64;
  call = matmul_call(0, 0, 1, 256, 8192, 0, 0, AUTO, 0); /* 16 blocks of 16 rows: split */
  expect_first_kernel("PoCL, join 1", &pocl, &pocl_t, &call, OCF_KERNEL_MATMUL_SKINNY_JOIN, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_matmul_table),
      cmocka_unit_test(test_plan_matmul_pad),
      cmocka_unit_test(test_plan_matmul_program_options),
      cmocka_unit_test(test_plan_matmul_pad_sides),
      cmocka_unit_test(test_plan_matmul_pad_waves),
      cmocka_unit_test(test_plan_matmul_wave_split),
      cmocka_unit_test(test_plan_matmul_stream),
      cmocka_unit_test(test_plan_matmul_skinny_join),
      cmocka_unit_test(test_plan_matmul_split_to_wave),
      cmocka_unit_test(test_plan_matmul_few_rows),
      cmocka_unit_test(test_plan_matmul_mixed_c_check),
  };
  return cmocka_run_group_tests_name("plan_matmul", tests, NULL, NULL);
}
