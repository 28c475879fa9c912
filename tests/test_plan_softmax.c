/*
 * The planner on described devices: softmax (src/plan/plan_softmax.c, cl/softmax_*.cl): the
 * table of plans, a fixed workgroup at the device's edges, plans of any tuning the validator
 * accepts (segments, coop's bounded work), and the wide, packed, 16-bit, split and long-segment
 * plans of the H200's values. The method, the devices and the helpers: tests/plan_fixture.h.
 */

#include "plan_fixture.h"

#include <unistd.h>

typedef struct softmax_case {
  device_id device;
  size_t learnt;
  size_t rows, cols;
  const layout *layout;
  int variant;
  const char *shape, *values;
  const char *tuning; /* "name=value ..." over the built-in tuning, NULL: none */
} softmax_case;

/*
 * Rules (cl/softmax_*.cl, src/tuning/schema_softmax.c, the header of src/plan/plan_softmax.c).
 * VW is vw unless in's and out's rows start at different places within a vector (in_off -
 * out_off or in_ld - out_ld not a multiple of vw): then 1, and items, local_items, seg_items and
 * unroll count vw times as many (unroll at most 16). A row touches v = ceil(cols / VW) vectors,
 * ceil((cols + VW - 1) / VW) when rows may start inside a vector (in_off or in_ld not a
 * multiple of VW). The ladder: 1 2 3 4 6 8 12 16 24 32 48 64 96 128 192 ..., L(x) the least
 * step >= x. Sizes are capped at the kernels' learnt limit, the device's workgroup and
 * work-item limits, and local memory / 16.
 *   1. softmax_rows when SEG x ITEMS hold the row: SEG = L(ceil(v / seg_items)), past seg_align
 *      rounded up to a multiple of it, at most max_seg and rows_wg; ITEMS = L(ceil(v / SEG)),
 *      at most items. rows_wg / SEG rows a group (at most the device's size along dimension 1),
 *      halved while even and at least twice the rows; a 2-D group SEG x rows, one a batch of
 *      rows ("wg=SEGxR groups=1xB"), or at most units x rows_groups_per_unit when that is set
 *      (looping over the batches; PREFETCH is prefetch).
 *   2. Else one workgroup a row of WG_row = the power of two from min(pow2(v), min_wg) that
 *      holds v in `items` registers, at most wg; with local_items, a work-item holds that many
 *      more vectors as far as local memory allows (none under 4 work-items): local memory holds
 *      8 bytes a work-item + 8, plus 4 x VW bytes a local vector (one vector when none).
 *      a. coop_spin > 0 and out not in place: P slices = max(the slices of wg work-items that
 *         hold v, min(ceil(units x groups_per_unit / rows), v / (2 wg))), with
 *         part_vecs = ceil(v / P), parts = ceil(v / part_vecs): softmax_coop when that is 2 or
 *         more, rows x parts workgroups of wg, scratch 2 uints a slice.
 *      b. else, fewer rows than units x groups_per_unit: the split into
 *         min(ceil(units x groups_per_unit / rows), v / (4 wg unroll)) slices of whole steps of
 *         wg x unroll vectors when that is 2 or more, scratch 2 floats a slice.
 *      c. else a row of one or two work-items with scalar access: softmax_general.
 *      d. else softmax_resident: WG_row holding v (ITEMS = L(ceil(v / WG_row)), or ITEMS = items
 *         and LOCAL_ITEMS the rest up the ladder), one workgroup a row; a row it cannot hold is
 *         streamed twice past what wg holds, with units x groups_per_unit workgroups at most.
 * Workgroups: at most 2048 a compute unit (the kernels loop over the rest), but coop's exactly.
 *
 * Rows: H200 wg=256 min_wg=64 vw=4 items=16 unroll=2 rows_wg=128 seg_items=4 max_seg=128
 * seg_align=32 coop_spin=4096 groups_per_unit=4 (132 units: 528 workgroups); CPUs (PoCL,
 * llvmpipe, Apple's CPU) wg=64 min_wg=16 vw=8 items=4 unroll=2 rows_wg=64 seg_items=4
 * max_seg=8 groups_per_unit=2, no coop; AMD wg=256 min_wg=64 vw=4 items=8 unroll=4 rows_wg=256
 * max_seg=64 groups_per_unit=8 (60 units: 480); Intel wg=256 min_wg=32 vw=4 items=4 unroll=4
 * rows_wg=256 max_seg=32 groups_per_unit=8 (96 units: 768); the fallbacks (Mali, Adreno)
 * wg=128 min_wg=32 vw=4 items=4 unroll=4 rows_wg=128 seg_items=4 max_seg=32
 * groups_per_unit=4. Everywhere else the fallbacks: local_items=0 seg_align=1 prefetch=0
 * coop_spin=0.
 */
static const softmax_case softmax_cases[] = {
    /* H200. 65536 x 128 (the row's note: 8-wide segments, 4 float4 each): v = 32, SEG = L(8) =
       8, ITEMS = 4, 128 / 8 = 16 rows a group: 4096 groups. */
    {H200, 0, 65536, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x4096",
     "VW=4 SEG=8 ITEMS=4 WG=128 local_mem=2048", NULL},
    /* rows_groups_per_unit=2: the same 4096 batches looped over by 132 x 2 = 264 groups, the
       next batch loaded early; 100 rows are 7 batches, 7 groups. */
    {H200, 0, 65536, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x264", "SEG=8 PREFETCH=1",
     "rows_groups_per_unit=2 prefetch=1"},
    {H200, 0, 100, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x7", "PREFETCH=1",
     "rows_groups_per_unit=2 prefetch=1"},
    /* 16384 x 1024: v = 256, SEG = 64 (a multiple of 32 already), ITEMS 4, 2 rows a group. */
    {H200, 0, 16384, 1024, &ALIGNED, AUTO, "softmax_rows wg=64x2 groups=1x8192", "SEG=64 ITEMS=4",
     NULL},
    /* The ladder: 384 floats = 96 float4, SEG = L(24) = 24 (not past seg_align 32), ITEMS 4,
       128 / 24 = 5 rows a group of 120: ceil(4096 / 5) = 820 groups, reduced through local
       memory ... */
    {H200, 0, 4096, 384, &ALIGNED, AUTO, "softmax_rows wg=24x5 groups=1x820",
     "SEG=24 ITEMS=4 WG=120 SHUFFLE=0", "rows.shuffle=0"},
    /* ... or, with NVIDIA's warp shuffles (built in), a warp: SEG 32, ITEMS L(3) = 3, 4 rows a
       group of 128, 1024 groups ... */
    {H200, 0, 4096, 384, &ALIGNED, AUTO, "softmax_rows wg=32x4 groups=1x1024",
     "SEG=32 ITEMS=3 WG=128 SHUFFLE=1 WHOLE_ENDS=0", NULL},
    /* ... 768 = 192 float4: L(48) = 48 is past 32, so SEG = 64, ITEMS = L(3) = 3 ... */
    {H200, 0, 4096, 768, &ALIGNED, AUTO, "softmax_rows wg=64x2 groups=1x2048", "SEG=64 ITEMS=3",
     NULL},
    /* ... 1536 = 384 float4: L(96) = 96, a multiple of 32; ITEMS 4; one row a group. */
    {H200, 0, 4096, 1536, &ALIGNED, AUTO, "softmax_rows wg=96x1 groups=1x4096",
     "SEG=96 ITEMS=4 WG=96", NULL},
    /* 8192 = 2048 float4: SEG = L(512) = 512 capped at max_seg 128, ITEMS = 16: the longest row
       softmax_rows takes. */
    {H200, 0, 4096, 8192, &ALIGNED, AUTO, "softmax_rows wg=128x1 groups=1x4096", "SEG=128 ITEMS=16",
     NULL},
    /* 8193 = 2049 float4 needs ITEMS L(17) = 24 > 16: one row a group of pow2(ceil(2049 / 16))
       = 256; 4096 rows fill the device and 256 x 16 hold the row, so no slices: resident,
       ITEMS = L(ceil(2049 / 256)) = L(9) = 12. Its local memory: 8 x 256 + 8 + one float4. */
    {H200, 0, 4096, 8193, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096",
     "VW=4 ITEMS=12 LOCAL_ITEMS=0 WG=256 local_mem=2072", NULL},
    /* 16384 = 4096 float4 = 256 x 16: the longest row a workgroup holds ... */
    {H200, 0, 4096, 16384, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096", "ITEMS=16", NULL},
    /* ... one more float takes two slices of ceil(4097 / 2) = 2049 (ITEMS 12): coop,
       4096 x 2 workgroups; scratch 2 x 4096 x 2 uints. */
    {H200, 0, 4096, 16385, &ALIGNED, AUTO, "softmax_coop wg=256 groups=8192",
     "ITEMS=12 SPIN=4096 parts=2 part_vecs=2049 scratch=65536", NULL},
    /* The note's 1024 x 65536: 16384 float4 in 4 slices of 4096 (ITEMS 16) ... */
    {H200, 0, 1024, 65536, &ALIGNED, AUTO, "softmax_coop wg=256 groups=4096",
     "ITEMS=16 parts=4 part_vecs=4096 scratch=32768", NULL},
    /* ... and 527 rows (the old split's edge) the same 4 slices: capacity decides, not rows. */
    {H200, 0, 527, 65536, &ALIGNED, AUTO, "softmax_coop wg=256 groups=2108", "parts=4", NULL},
    /* Few rows fill the device: the note's 64 x 262144 wants ceil(528 / 64) = 9 slices but
       65536 float4 need 16 of 4096: 16 x 64 workgroups. */
    {H200, 0, 64, 262144, &ALIGNED, AUTO, "softmax_coop wg=256 groups=1024",
     "ITEMS=16 parts=16 part_vecs=4096 scratch=8192", NULL},
    /* 4 x 65536: ceil(528 / 4) = 132 slices wanted, at most 16384 / 512 = 32 (two float4 a
       work-item): 32 slices of 512, ITEMS 2. */
    {H200, 0, 4, 65536, &ALIGNED, AUTO, "softmax_coop wg=256 groups=128",
     "ITEMS=2 parts=32 part_vecs=512 scratch=1024", NULL},
    /* One row of 4097 float4: 528 wanted, 4097 / 512 = 8 allowed: slices of ceil(4097 / 8) =
       513 (ITEMS L(3) = 3), 8 of them. */
    {H200, 0, 1, 16385, &ALIGNED, AUTO, "softmax_coop wg=256 groups=8",
     "ITEMS=3 parts=8 part_vecs=513 scratch=64", NULL},
    /* 100 rows a workgroup could hold (8193 floats): ceil(528 / 100) = 6 wanted, 2049 / 512 = 4
       allowed: 4 slices of 513. */
    {H200, 0, 100, 8193, &ALIGNED, AUTO, "softmax_coop wg=256 groups=400",
     "ITEMS=3 parts=4 part_vecs=513", NULL},
    /* Few rows short enough for softmax_rows stay there (one row of SEG 128 a group). */
    {H200, 0, 4, 8192, &ALIGNED, AUTO, "softmax_rows wg=128x1 groups=1x4", "SEG=128 ITEMS=16",
     NULL},
    /* In place, no coop: 4097 float4 over 4096 rows (no split at 528 rows or more) is resident,
       its last float4 streamed, with 528 workgroups. */
    {H200, 0, 4096, 16385, &IN_PLACE, AUTO, "softmax_resident wg=256 groups=528", "ITEMS=16", NULL},
    /* local_items: 21504 floats = 5376 float4 need 256 x 21: 16 registers, local L(5) = 6 of
       the 8 allowed (8 x 256 + 8 + 16 x 6 x 256 bytes) ... */
    {H200, 0, 4096, 21504, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096",
     "ITEMS=16 LOCAL_ITEMS=6 local_mem=26632", "local_items=8"},
    /* ... a coop slice holds 256 x 20 = 5120 of 25000 float4: 5 slices of 5000 (local 4) ... */
    {H200, 0, 4096, 100000, &ALIGNED, AUTO, "softmax_coop wg=256 groups=20480",
     "ITEMS=16 LOCAL_ITEMS=4 parts=5 part_vecs=5000 local_mem=18440", "local_items=4"},
    /* ... and in place, resident holds those 5120 and streams the rest, 528 groups. */
    {H200, 0, 4096, 100000, &IN_PLACE, AUTO, "softmax_resident wg=256 groups=528",
     "ITEMS=16 LOCAL_ITEMS=4", "local_items=4"},
    /* coop_items (the H200's long class): 512 rows of 12565 float4 fit one workgroup of 256 x
       (48 + 10) = 14848 and fill the device (512 >= 132 x 1): resident, 50 a work-item, 48 in
       registers and 2 in local memory ... */
    {H200, 0, 512, 50257, &ALIGNED, AUTO, "softmax_resident wg=256 groups=512",
     "ITEMS=48 LOCAL_ITEMS=2", "items=48 local_items=10 groups_per_unit=1 coop_items=16"},
    /* ... while 128 rows of 65536 float4 need max(ceil(65536 / 14848) = 5, ceil(132 / 128) = 2)
       slices, and coop_items 16 makes them max(5, 65536 / (256 x 16)) = 16 of 4096: 16 a
       work-item in registers, none in local memory; scratch 2 x 128 x 16 words. */
    {H200, 0, 128, 262144, &ALIGNED, AUTO, "softmax_coop wg=256 groups=2048",
     "ITEMS=16 LOCAL_ITEMS=0 parts=16 part_vecs=4096 scratch=16384",
     "items=48 local_items=10 groups_per_unit=1 coop_items=16"},
    /* coop_spin=0: 4 rows of 16384 float4 split into min(132, 16384 / 2048 = 8) slices of
       whole steps of 256 x 2: 8 of 2048; scratch 2 x 4 x 8 floats. */
    {H200, 0, 4, 65536, &ALIGNED, AUTO,
     "softmax_split_stats wg=256 groups=32 + softmax_split_write wg=256 groups=32",
     "parts=8 part_vecs=2048 scratch=256", "coop_spin=0"},
    /* Rows one float off between in and out: VW = 1 with the same floats a work-item (items
       64, seg_items 16, unroll 8): 128 floats, SEG L(8) = 8, ITEMS 16. */
    {H200, 0, 4096, 128, &IN_OFF_1, AUTO, "softmax_rows wg=8x16 groups=1x256",
     "VW=1 SEG=8 ITEMS=16 UNROLL=8", NULL},
    {H200, 0, 4096, 128, &LD_PLUS_2, AUTO, "softmax_rows wg=8x16 groups=1x256",
     "VW=1 SEG=8 ITEMS=16", NULL},
    /* ... the same edges in floats: 8192 in softmax_rows (SEG 128 of 64), 8193 resident
       (ITEMS L(33) = 48), 16385 coop (two slices of 8193). */
    {H200, 0, 4096, 8192, &IN_OFF_1, AUTO, "softmax_rows wg=128x1 groups=1x4096",
     "VW=1 SEG=128 ITEMS=64", NULL},
    {H200, 0, 4096, 8193, &IN_OFF_1, AUTO, "softmax_resident wg=256 groups=4096", "VW=1 ITEMS=48",
     NULL},
    {H200, 0, 4096, 16385, &IN_OFF_1, AUTO, "softmax_coop wg=256 groups=8192",
     "VW=1 ITEMS=48 parts=2 part_vecs=8193", NULL},
    /* In and out one float in alike: float4 kept, a row touches ceil(131 / 4) = 33 of them:
       SEG = L(9) = 12, ITEMS = L(3) = 3, 10 rows a group of 120 (local memory); with warp
       shuffles 16, 8 rows a group of 128, the ends read whole where asked. */
    {H200, 0, 4096, 128, &BOTH_OFF_1, AUTO, "softmax_rows wg=12x10 groups=1x410",
     "VW=4 SEG=12 ITEMS=3 WG=120 SHUFFLE=0 WHOLE_ENDS=0", "rows.shuffle=0"},
    {H200, 0, 4096, 128, &BOTH_OFF_1, AUTO, "softmax_rows wg=16x8 groups=1x512",
     "VW=4 SEG=16 ITEMS=3 WG=128 SHUFFLE=1 WHOLE_ENDS=1", "rows.whole_ends=1"},
    {H200, 0, 4096, 128, &ALIGNED, AUTO, "softmax_rows wg=8x16 groups=1x256",
     "VW=4 SEG=8 ITEMS=4 WG=128 SHUFFLE=1 WHOLE_ENDS=0", "rows.whole_ends=1"},
    /* In place, a vector's other lanes may be another row's, written meanwhile: lane by lane. */
    {H200, 0, 4096, 130, &IN_PLACE, AUTO, "softmax_rows wg=16x8 groups=1x512",
     "VW=4 SEG=16 ITEMS=3 SHUFFLE=1 WHOLE_ENDS=0", "rows.whole_ends=1"},
    /* Rows on whole vectors of rows.aligned_vw take that width and rows.aligned_seg_items
       where that leaves no more of the segment's slots empty than the plain plan: 512 = 64
       vectors of 8, one a lane, against 128 float4 in 64 x 2 (both full) ... */
    {H200, 0, 4096, 512, &ALIGNED, AUTO, "softmax_rows wg=64x2 groups=1x2048",
     "VW=8 SEG=64 ITEMS=1", "rows.seg_items=3 rows.aligned_vw=8 rows.aligned_seg_items=1"},
    /* ... 320 = 40 vectors of 8 would leave 24 of a 64-lane segment empty, 80 float4 in 32 x 3
       only 16 of 96: the plain plan ... */
    {H200, 0, 4096, 320, &ALIGNED, AUTO, "softmax_rows wg=32x4 groups=1x1024",
     "VW=4 SEG=32 ITEMS=3", "rows.seg_items=3 rows.aligned_vw=8 rows.aligned_seg_items=1"},
    /* ... and rows off whole vectors (starting one float in) never take it. */
    {H200, 0, 4096, 512, &BOTH_OFF_1, AUTO, "softmax_rows wg=64x2 groups=1x2048",
     "VW=4 SEG=64 ITEMS=3", "rows.seg_items=3 rows.aligned_vw=8 rows.aligned_seg_items=1"},
    /* One row of 8 work-items is no whole warp: local memory. */
    {H200, 0, 1, 128, &ALIGNED, AUTO, "softmax_rows wg=8x1 groups=1x1", "SEG=8 SHUFFLE=0", NULL},
    /* Warp shuffles are NVIDIA's inline PTX: elsewhere the ladder's segment, local memory. */
    {AMD_GPU, 0, 4096, 384, &ALIGNED, AUTO, "softmax_rows wg=24x10 groups=1x410",
     "SEG=24 SHUFFLE=0", "rows.shuffle=1"},
    /* A tight stride: 128 aligned; 8193 is not, but alike for in and out, so float4 stay:
       ceil(8196 / 4) = 2049 vectors, as aligned 8193. */
    {H200, 0, 4096, 128, &TIGHT, AUTO, "softmax_rows wg=8x16 groups=1x256", "VW=4 SEG=8", NULL},
    {H200, 0, 4096, 8193, &TIGHT, AUTO, "softmax_resident wg=256 groups=4096", "VW=4 ITEMS=12",
     NULL},
    /* Few short rows: the group halves while it holds twice the rows, down to one segment for
       one row, 4 rows (32 work-items) for 3. */
    {H200, 0, 1, 128, &ALIGNED, AUTO, "softmax_rows wg=8x1 groups=1x1", "SEG=8 ITEMS=4 WG=8", NULL},
    {H200, 0, 3, 128, &ALIGNED, AUTO, "softmax_rows wg=8x4 groups=1x1", "SEG=8 ITEMS=4 WG=32",
     NULL},
    {H200, 0, 1, 1, &ALIGNED, AUTO, "softmax_rows wg=1x1 groups=1x1", "SEG=1 ITEMS=1", NULL},
    /* Under a learnt limit of 1 with scalar access, a row is never held (c): one row of 128
       floats splits into min(528, 128 / (4 x 1 x 8)) = 4 slices of 32. */
    {H200, 1, 1, 128, &IN_OFF_1, AUTO,
     "softmax_split_stats wg=1 groups=4 + softmax_split_write wg=1 groups=4",
     "VW=1 parts=4 part_vecs=32", NULL},
    /* The reference and the baseline: wg work-items, one group a row; baseline scratch holds a
       max and a sum a row and every exp (only its last kernel writes out): (2 x 4096 + 4096 x
       1000) floats. */
    {H200, 0, 4096, 1000, &ALIGNED, GENERAL, "softmax_general wg=256 groups=4096", "WG=256", NULL},
    {H200, 0, 4096, 1000, &ALIGNED, BASELINE,
     "softmax_base_max wg=256 groups=4096 + softmax_base_exp_sum wg=256 groups=4096 + "
     "softmax_base_divide wg=256 groups=4096",
     "scratch=16416768", NULL},

    /* PoCL, in the vectors of 8 these rows were worked out in (vw=8; the built-in CPU row's
       vectors of 16 follow them): rows up to 8 x 4 float8 = 256 floats: 128 floats are SEG
       L(4) = 4, 16 rows a group; 256 SEG 8, 8 rows. */
    {POCL, 0, 16384, 128, &ALIGNED, AUTO, "softmax_rows wg=4x16 groups=1x1024",
     "VW=8 SEG=4 ITEMS=4", "vw=8"},
    {POCL, 0, 1024, 256, &ALIGNED, AUTO, "softmax_rows wg=8x8 groups=1x128", "VW=8 SEG=8 ITEMS=4",
     "vw=8"},
    /* 257 floats = 33 float8: resident in pow2(ceil(33 / 4)) = 16, ITEMS L(3) = 3. */
    {POCL, 0, 1024, 257, &ALIGNED, AUTO, "softmax_resident wg=16 groups=1024", "VW=8 ITEMS=3",
     "vw=8"},
    /* 2048 = 256 float8 = 64 x 4: the longest row held in registers; without local memory
       2049 is streamed, 2 x 2 groups; with the built-in 64 local vectors a work-item it is
       held, its one vector more in local memory (LOCAL_ITEMS L(1) = 1). */
    {POCL, 0, 1024, 2048, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024", "ITEMS=4", "vw=8"},
    {POCL, 0, 1024, 2049, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4", "ITEMS=4 UNROLL=2",
     "vw=8 local_items=0"},
    {POCL, 0, 1024, 2049, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=1", "vw=8"},
    /* Vocabulary rows in the built-in vectors of 16: 50257 floats = 3142 float16, 50 a work-item
       of 64: 4 in registers, L(46) = 48 in local memory (64 x 48 x 64 bytes = 192 KiB, within
       PoCL's 512): held, read once. 65536 floats (4096 float16: 64 a work-item) still fit,
       69632 is the most; 152064 (vocabulary of 152k) is streamed past what it holds. */
    {POCL, 0, 128, 50257, &ALIGNED, AUTO, "softmax_resident wg=64 groups=128",
     "VW=16 ITEMS=4 LOCAL_ITEMS=48", NULL},
    {POCL, 0, 8, 152064, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4",
     "VW=16 ITEMS=4 LOCAL_ITEMS=64", NULL},
    /* With local_items=4, 512 float8 fit 64 x (4 + 4): held, LOCAL_ITEMS 4. */
    {POCL, 0, 1024, 4096, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=4 local_mem=8712", "vw=8 local_items=4"},
    /* No coop on CPUs: long rows split below 4 rows, in steps of 64 x 2 vectors: 3 rows of
       2048 float8 make 2 slices of 1024; one row 4 of 512; 4 rows are resident and streamed;
       one row of 512 float8 allows 512 / 512 = 1 slice: streamed. */
    {POCL, 0, 3, 16384, &ALIGNED, AUTO,
     "softmax_split_stats wg=64 groups=6 + softmax_split_write wg=64 groups=6",
     "parts=2 part_vecs=1024 scratch=48", "vw=8"},
    {POCL, 0, 1, 16384, &ALIGNED, AUTO,
     "softmax_split_stats wg=64 groups=4 + softmax_split_write wg=64 groups=4",
     "parts=4 part_vecs=512", "vw=8"},
    {POCL, 0, 4, 16384, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4", "parts=1",
     "vw=8 local_items=0"},
    {POCL, 0, 1, 4096, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1", "parts=1",
     "vw=8 local_items=0"},
    /* 10^6 short rows: 62500 batches of 16 rows, capped at 2 x 2048 (grid-stride). */
    {POCL, 0, 1000000, 128, &ALIGNED, AUTO, "softmax_rows wg=4x16 groups=1x4096", "SEG=4", "vw=8"},
    /* Misaligned: VW = 1, items 4 x 8 = 32, seg_items 32: 256 floats, SEG 8, ITEMS 32. */
    {POCL, 0, 1024, 256, &IN_OFF_1, AUTO, "softmax_rows wg=8x8 groups=1x128",
     "VW=1 SEG=8 ITEMS=32 UNROLL=16", "vw=8"},

    /* The built-in CPU row, vectors of 16: rows up to 8 x 4 float16 = 512 floats; 128 floats
       are SEG L(2) = 2, 32 rows a group; 1024 floats = 64 float16 are resident in
       pow2(ceil(64 / 4)) = 16, ITEMS 4. */
    {POCL, 0, 16384, 128, &ALIGNED, AUTO, "softmax_rows wg=2x32 groups=1x512",
     "VW=16 SEG=2 ITEMS=4", NULL},
    {POCL, 0, 1024, 1024, &ALIGNED, AUTO, "softmax_resident wg=16 groups=1024", "VW=16 ITEMS=4",
     NULL},

    /* llvmpipe before its first build: as PoCL (8 compute units). 1025 floats = 129 float8 are
       resident in pow2(ceil(129 / 4)) = 64, ITEMS L(3) = 3 ... */
    {LLVMPIPE, 0, 1024, 1025, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024", "ITEMS=3",
     "vw=8"},
    /* ... and once its kernels report 32, 32 x 4 float8 hold 1024 floats: without local
       memory 1025 is streamed, 8 x 2 = 16 groups; with one local vector more (32 x 5 = 160) it
       is held again. */
    {LLVMPIPE, 32, 1024, 1025, &ALIGNED, AUTO, "softmax_resident wg=32 groups=16", "WG=32 ITEMS=4",
     "vw=8 local_items=0"},
    {LLVMPIPE, 32, 1024, 1025, &ALIGNED, AUTO, "softmax_resident wg=32 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=1 local_mem=1288", "vw=8 local_items=1"},
    {LLVMPIPE, 32, 1024, 1024, &ALIGNED, AUTO, "softmax_resident wg=32 groups=1024", "ITEMS=4",
     "vw=8"},
    {LLVMPIPE, 32, 1024, 256, &ALIGNED, AUTO, "softmax_rows wg=8x4 groups=1x256", "SEG=8 ITEMS=4",
     "vw=8"},
    /* llvmpipe ends a work-item's loops after 65535 iterations: softmax_coop's polls stay within
       half of it. 2 rows of 30000 floats (3750 float8) in slices of 32 x 4 held: 30 slices of
       125, 4 a work-item; every slice computed again at worst, 30 x (4 + 8) = 360 steps; a
       poller watches ceil(30 / 32) = 1 slot: SPIN (32767 - 360) / 1 = 32407, not 65536 (which
       gave NaN rows on rusticl), nor the 2^20 asked ... */
    {LLVMPIPE, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=32407",
     "vw=8 coop_spin=65536 groups_per_unit=4 local_items=0"},
    {LLVMPIPE, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=32407",
     "vw=8 coop_spin=1048576 groups_per_unit=4 local_items=0"},
    /* ... a smaller ask stands as it is, and on PoCL (no limit) 65536 stands too. */
    {LLVMPIPE, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=16384",
     "vw=8 coop_spin=16384 groups_per_unit=4 local_items=0"},
    {POCL, 32, 2, 30000, &ALIGNED, AUTO, "softmax_coop wg=32 groups=60", "SPIN=65536",
     "vw=8 coop_spin=65536 groups_per_unit=4 local_items=0"},
    /* A row whose slices, all computed again, would take more than half the limit by
       themselves: 1024 slices of 32 x 28 float8 (1024 x (28 + 8) = 36864 > 32767) get no
       softmax_coop on llvmpipe, but the split (one workgroup would stream the row alone). */
    {LLVMPIPE, 32, 1, 7340032, &ALIGNED, AUTO,
     "softmax_split_stats wg=32 groups=16 + softmax_split_write wg=32 groups=16", NULL,
     "vw=8 coop_spin=4096 coop_items=28 items=28 local_items=0"},

    /* Apple's CPU, one work-item along dimension 1: before its first build a group holds one
       row (128 floats: SEG 4 of 4 float8) ... */
    {APPLE_CPU, 0, 1024, 128, &ALIGNED, AUTO, "softmax_rows wg=4x1 groups=1x1024", "SEG=4 WG=4",
     "vw=8"},
    /* ... and once its kernels report 1, a segment of 1 holds 4 float8 (32 floats); 33 and up
       are streamed by 12 x 2 = 24 groups. One long row splits into 24 slices of 22 float8
       (steps of 1 x 2). */
    {APPLE_CPU, 1, 1024, 32, &ALIGNED, AUTO, "softmax_rows wg=1x1 groups=1x1024", "SEG=1 ITEMS=4",
     "vw=8"},
    {APPLE_CPU, 1, 1024, 33, &ALIGNED, AUTO, "softmax_resident wg=1 groups=24", "ITEMS=4", "vw=8"},
    {APPLE_CPU, 1, 1, 4096, &ALIGNED, AUTO,
     "softmax_split_stats wg=1 groups=24 + softmax_split_write wg=1 groups=24",
     "parts=24 part_vecs=22", "vw=8"},
    /* Scalar access in one work-item, rows enough not to split: softmax_general. */
    {APPLE_CPU, 1, 1024, 1000, &IN_OFF_1, AUTO, "softmax_general wg=1 groups=1024", "VW=1", "vw=8"},

    /* Mali, fallbacks: 512 floats = 128 float4 fit 32 work-items of 4 (SEG 32), 4 rows a
       group of 128; 513 is resident in pow2(ceil(129 / 4)) = 64, ITEMS L(3) = 3. */
    {MALI, 0, 1024, 512, &ALIGNED, AUTO, "softmax_rows wg=32x4 groups=1x256", "SEG=32 ITEMS=4",
     NULL},
    {MALI, 0, 1024, 513, &ALIGNED, AUTO, "softmax_resident wg=64 groups=1024", "ITEMS=3", NULL},
    /* 16 KiB of local memory: a group of 128 holds (16384 - 8 x 128 - 8) / (128 x 16) = 7 local
       float4 a work-item of the 16 asked: 5000 floats (10 a work-item) take L(6) = 6 ... */
    {MALI, 0, 1024, 5000, &ALIGNED, AUTO, "softmax_resident wg=128 groups=1024",
     "ITEMS=4 LOCAL_ITEMS=6 local_mem=13320", "local_items=16"},
    /* ... 8192 floats exceed 128 x 11: streamed past them, 12 x 4 = 48 groups. */
    {MALI, 0, 1024, 8192, &ALIGNED, AUTO, "softmax_resident wg=128 groups=48",
     "LOCAL_ITEMS=7 local_mem=15368", "local_items=16"},
    /* Under 32: a row a group of 32; 513 cannot be held in 32 x 4 float4: streamed. */
    {MALI, 32, 1024, 512, &ALIGNED, AUTO, "softmax_rows wg=32x1 groups=1x1024", "SEG=32 ITEMS=4",
     NULL},
    {MALI, 32, 1024, 513, &ALIGNED, AUTO, "softmax_resident wg=32 groups=48", "ITEMS=4", NULL},
    /* Under 8: 8 x 4 float4 = 128 floats the most held. */
    {MALI, 8, 1024, 128, &ALIGNED, AUTO, "softmax_rows wg=8x1 groups=1x1024", "SEG=8 ITEMS=4",
     NULL},
    {MALI, 8, 1024, 129, &ALIGNED, AUTO, "softmax_resident wg=8 groups=48", "UNROLL=4", NULL},

    /* AMD: rows up to 64 x 8 float4 = 2048 floats (SEG 64, 4 rows a group of 256); then held
       up to 256 x 8 = 8192 floats (2049: 128 work-items of L(5) = 6); streamed past that by
       480 groups; split below 480 rows. */
    {AMD_GPU, 0, 4096, 2048, &ALIGNED, AUTO, "softmax_rows wg=64x4 groups=1x1024", "SEG=64 ITEMS=8",
     NULL},
    {AMD_GPU, 0, 4096, 2049, &ALIGNED, AUTO, "softmax_resident wg=128 groups=4096", "ITEMS=6",
     NULL},
    {AMD_GPU, 0, 4096, 8192, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096", "ITEMS=8",
     NULL},
    {AMD_GPU, 0, 4096, 8193, &ALIGNED, AUTO, "softmax_resident wg=256 groups=480", "UNROLL=4",
     NULL},
    {AMD_GPU, 0, 480, 65536, &ALIGNED, AUTO, "softmax_resident wg=256 groups=480", "parts=1", NULL},
    /* 479 rows: 2 slices (at most 16384 / 4096 = 4) of whole steps of 1024: 8192 float4. */
    {AMD_GPU, 0, 479, 65536, &ALIGNED, AUTO,
     "softmax_split_stats wg=256 groups=958 + softmax_split_write wg=256 groups=958",
     "parts=2 part_vecs=8192 scratch=7664", NULL},
    {AMD_GPU_1024, 0, 4096, 2049, &ALIGNED, AUTO, "softmax_resident wg=128 groups=4096", "ITEMS=6",
     NULL},

    /* Intel: rows up to 32 x 4 float4 = 512 floats (8 rows a group of 256); held up to
       256 x 4 = 4096 floats; streamed past that by 96 x 8 = 768 groups. */
    {INTEL_GPU, 0, 4096, 512, &ALIGNED, AUTO, "softmax_rows wg=32x8 groups=1x512", "SEG=32 ITEMS=4",
     NULL},
    {INTEL_GPU, 0, 4096, 513, &ALIGNED, AUTO, "softmax_resident wg=64 groups=4096", "ITEMS=3",
     NULL},
    {INTEL_GPU, 0, 4096, 4096, &ALIGNED, AUTO, "softmax_resident wg=256 groups=4096", "ITEMS=4",
     NULL},
    {INTEL_GPU, 0, 4096, 4097, &ALIGNED, AUTO, "softmax_resident wg=256 groups=768", "ITEMS=4",
     NULL},
};

static void test_plan_softmax_table(void **state) {
  (void)state;
  for (size_t i = 0; i < ARRAY_LEN(softmax_cases); i++) {
    const softmax_case *c = &softmax_cases[i];
    ocf_device_facts facts = facts_of(c->device, c->learnt);
    ocf_tuning_values tuning = tuning_of(&facts, c->device, OCF_OP_SOFTMAX);
    if (c->tuning) {
      assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, c->tuning, &tuning, "case"), OCF_SUCCESS);
      assert_int_equal(ocf_tuning_check(OCF_OP_SOFTMAX, &tuning, "case"), OCF_SUCCESS);
    }
    const ocf_softmax_call call = softmax_call(c->rows, c->cols, c->layout, c->variant, 0);
    ocf_plan plan;
    char what[200];
    snprintf(what, sizeof what, "softmax case %zu on %s (limit %zu, %s), %zu x %zu", i,
             devices[c->device].name, c->learnt, c->tuning ? c->tuning : "built-in", c->rows,
             c->cols);
    expect_plan(what, ocf_plan_softmax(&facts, &tuning, &call, &plan), &plan, c->shape, c->values);
  }
}

/* ---- sizes the caller fixed ---- */

/* A fixed softmax size is refused exactly above the device's maximum, and at once: SIZE_MAX used
   to keep the planner's segment search busy for hours, 4294967311 for 11 s (the alarm turns a
   hang into a failure of this suite rather than of its timeout). At the maximum it is planned. */
static void test_plan_softmax_fixed_workgroup_edges(void **state) {
  (void)state;
  alarm(60);
  static const device_id ids[] = {POCL, H200, MALI, LLVMPIPE};
  for (size_t d = 0; d < ARRAY_LEN(ids); d++) {
    ocf_device_facts facts = facts_of(ids[d], 0);
    ocf_tuning_values t = tuning_of(&facts, ids[d], OCF_OP_SOFTMAX);
    const size_t max = devices[ids[d]].max_workgroup;
    char what[96], message[96];
    snprintf(message, sizeof message, "workgroup of %zu work-items exceeds the device's maximum",
             max + 1);
    ocf_plan plan;
    /* One row of `max` floats: one segment of the whole group (no dimension-1 limit met). */
    ocf_softmax_call sm = softmax_call(1, max, &ALIGNED, AUTO, max);
    snprintf(what, sizeof what, "softmax fixed %zu on %s", max, devices[ids[d]].name);
    ocf_status status = ocf_plan_softmax(&facts, &t, &sm, &plan);
    if (status == OCF_ERR_INVALID_WORKGROUP && strstr(ocf_last_error(), "exceeds the device"))
      fail_msg("%s: refused as too large: %s", what, ocf_last_error());
    sm.workgroup = max + 1;
    snprintf(what, sizeof what, "softmax fixed %zu on %s", max + 1, devices[ids[d]].name);
    expect_refused(what, ocf_plan_softmax(&facts, &t, &sm, &plan), message);
    static const size_t huge[] = {1000000007, 4294967311u, SIZE_MAX / 2 + 1, SIZE_MAX};
    for (size_t h = 0; h < ARRAY_LEN(huge); h++) {
      sm.workgroup = huge[h];
      snprintf(what, sizeof what, "softmax fixed %zu on %s", huge[h], devices[ids[d]].name);
      expect_refused(what, ocf_plan_softmax(&facts, &t, &sm, &plan), "exceeds the device");
    }
  }
  alarm(0);
}

/* ---- plans of any tuning the validator accepts ---- */

/* A softmax_rows group that shrinks for few rows stays a whole number of segments (SEG divides
   WG, cl/softmax_common.clh), also for a rows_wg that is no power of two, which the validator
   allows. */
static void test_plan_softmax_segments_divide_any_group(void **state) {
  (void)state;
  static const char *const overrides[] = {"rows_wg=96", "rows_wg=48", "rows_wg=24", "rows_wg=100",
                                          "rows_wg=192 max_seg=64"};
  static const size_t rows_list[] = {1, 2, 3, 5, 11, 1000};
  static const size_t cols_list[] = {8, 64, 200, 256, 512};
  ocf_device_facts facts = facts_of(POCL, 0);
  for (size_t o = 0; o < ARRAY_LEN(overrides); o++) {
    ocf_tuning_values t = tuning_of(&facts, POCL, OCF_OP_SOFTMAX);
    assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, overrides[o], &t, "test"), OCF_SUCCESS);
    assert_int_equal(ocf_tuning_check(OCF_OP_SOFTMAX, &t, "test"), OCF_SUCCESS);
    for (size_t r = 0; r < ARRAY_LEN(rows_list); r++) {
      for (size_t c = 0; c < ARRAY_LEN(cols_list); c++) {
        const ocf_softmax_call call = softmax_call(rows_list[r], cols_list[c], &ALIGNED, AUTO, 0);
        ocf_plan plan;
        char what[160];
        snprintf(what, sizeof what, "softmax with %s: %zu x %zu", overrides[o], rows_list[r],
                 cols_list[c]);
        ocf_status status = ocf_plan_softmax(&facts, &t, &call, &plan);
        expect_success(what, status);
        check_fits(what, &plan, &facts);
        check_softmax_assumptions(what, &plan, &call);
      }
    }
  }
}

/* softmax_coop's extra work is bounded whatever values the validator accepts: a workgroup polls
   its partners' slots at most 2^21 times in all (parts x SPIN) and a row has at most 1024 slices
   (a workgroup that finds partners missing computes their slices: at worst the row). Found by a
   hostile tuning: coop_spin=16777216 coop_items=1 groups_per_unit=64 planned 118 slices of
   16 M polls each for a 2 x 30000 softmax on PoCL (over 300 s); it failed here before the
   bound. The derivation of the first case: PoCL's long-row values (src/tuning/builtin.tuning) with
   those three; the bound then cuts SPIN to 2^21 / parts. */
static void test_plan_softmax_coop_work_bounded(void **state) {
  (void)state;
  static const char *const extremes[] = {
      "coop_spin=16777216 coop_items=1 groups_per_unit=64",
      "coop_spin=16777216 coop_items=1 groups_per_unit=64 wg=4 min_wg=4 items=1 vw=1",
      "coop_spin=16777216 coop_items=0 groups_per_unit=64 wg=4 min_wg=4 items=1 vw=4",
      "coop_spin=16777216 coop_items=64 groups_per_unit=1 wg=16384 min_wg=1 items=64 vw=4",
      "coop_spin=1 coop_items=1 groups_per_unit=64",
  };
  static const size_t shapes[][2] = {
      {2, 30000}, {1, 1 << 20}, {1, 1 << 24}, {64, 300000}, {1, 70000}};
  static const device_id ids[] = {POCL, H200, MALI};
  for (size_t d = 0; d < ARRAY_LEN(ids); d++)
    for (size_t e = 0; e < ARRAY_LEN(extremes); e++) {
      ocf_device_facts facts = facts_of(ids[d], 0);
      ocf_tuning_values t = tuning_of(&facts, ids[d], OCF_OP_SOFTMAX);
      assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, extremes[e], &t, "test"), OCF_SUCCESS);
      if (ocf_tuning_check(OCF_OP_SOFTMAX, &t, "test") != OCF_SUCCESS) continue;
      for (size_t h = 0; h < ARRAY_LEN(shapes); h++) {
        const ocf_softmax_call call = softmax_call(shapes[h][0], shapes[h][1], &ALIGNED, AUTO, 0);
        ocf_plan plan;
        char what[256];
        snprintf(what, sizeof what, "%s, %s: %zu x %zu", devices[ids[d]].name, extremes[e],
                 shapes[h][0], shapes[h][1]);
        expect_success(what, ocf_plan_softmax(&facts, &t, &call, &plan));
        if (plan.steps[0].kernel != OCF_KERNEL_SOFTMAX_COOP) continue;
        const long long spin = plan_value(&plan, "SPIN"), parts = plan_value(&plan, "parts");
        if (spin < 1 || parts > 1024 || spin * parts > (1 << 21))
          fail_msg("%s: softmax_coop of %lld slices polling %lld times each", what, parts, spin);
      }
    }
  /* The case found: 2 x 30000 on PoCL, its slices each polled at most 2^21 / parts times. */
  ocf_device_facts facts = facts_of(POCL, 0);
  ocf_tuning_values t = tuning_of(&facts, POCL, OCF_OP_SOFTMAX);
  assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, extremes[0], &t, "test"), OCF_SUCCESS);
  const ocf_softmax_call call = softmax_call(2, 30000, &ALIGNED, AUTO, 0);
  ocf_plan plan;
  expect_success("the case found", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_SOFTMAX_COOP);
  assert_int_equal(plan_value(&plan, "SPIN"), (1 << 21) / plan_value(&plan, "parts"));
}

/* The registers a softmax work-item holds its values in: 32-bit words, ITEMS vectors of VW
   elements, two 16-bit elements a word when PACKED (cl/softmax_vector.clh). */
static long long held_words(const ocf_plan *plan) {
  const long long elements = plan_value(plan, "ITEMS") * plan_value(plan, "VW");
  return plan_value(plan, "PACKED") == 1 ? (elements + 1) / 2 : elements;
}

/* The wide plans (rows.wide_wg, src/plan/plan_softmax.c plan_wide) on the H200's built-in fp32
   values (long_rows.wg=256, items=16 float4; rows.wg=128, max_seg=128): 4096 x 16384 is one
   softmax_resident workgroup of 256 a row (4096 vectors, 16 each), 4096 x 2048 one
   softmax_rows workgroup of 128 a row. With rows.wide_wg, a plan of one workgroup a row asks
   for the wide probe while its outcome is unknown, and after it passed runs the row with the
   asked-for workgroup, registers capped to fit 65536 (128 at 512, 64 at 1024) and at most half
   of them held. */
static void expect_softmax_wide(const char *what, const ocf_device_facts *facts,
                                const ocf_tuning_values *tuning, size_t rows, size_t cols,
                                size_t wg, int probe, int wide, unsigned regs) {
  const ocf_softmax_call call = softmax_call(rows, cols, &TIGHT, AUTO, 0);
  ocf_plan plan;
  expect_success(what, ocf_plan_softmax(facts, tuning, &call, &plan));
  char text[512];
  ocf_plan_describe(&plan, text, sizeof text);
  const size_t items = plan.steps[0].local[0] * plan.steps[0].local[1];
  if (items != wg || plan.probe != probe || plan.wide_workgroup != wide ||
      plan.max_registers != regs)
    fail_msg("%s: %s: %zu work-items, probe %d, wide %d, %u registers; expected %zu, %d, %d, %u",
             what, text, items, plan.probe, plan.wide_workgroup, plan.max_registers, wg, probe,
             wide, regs);
  if (wide) {
    /* Half the registers at most hold row values; the row is held or streamed as ever. */
    if (held_words(&plan) * 2 > (long long)regs && regs)
      fail_msg("%s: %s holds %lld words under a cap of %u registers", what, text, held_words(&plan),
               regs);
    char options[512];
    char cap[48];
    assert_int_equal(ocf_plan_options(&plan, options, sizeof options), 0);
    snprintf(cap, sizeof cap, "-cl-nv-maxrregcount=%u", regs);
    if (regs && !strstr(options, cap)) fail_msg("%s: options %s lack %s", what, options, cap);
  }
}

static void test_plan_softmax_wide(void **state) {
  (void)state;
  ocf_device_facts facts = facts_of(H200, 0);
  ocf_tuning_values t = tuning_of(&facts, H200, OCF_OP_SOFTMAX);
  assert_int_equal(t.softmax.rows.wide_wg, 0); /* off until measured */
  assert_int_equal(t.softmax.long_rows.wg, 256);
  expect_softmax_wide("off", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_NONE, 0, 0);
  t.softmax.rows.wide_wg = 512;
  /* Unknown: today's plan, and the probe is due. */
  expect_softmax_wide("probe unknown", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_WIDE, 0, 0);
  /* Failed: today's plan, no probe again. */
  facts.learnt.wide = OCF_PROBE_FAILED;
  expect_softmax_wide("probe failed", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_NONE, 0, 0);
  /* Passed: 512 work-items at 128 registers, 1024 at 64; above the 256 every kernel reports
     and the context learnt. */
  facts.learnt.wide = OCF_PROBE_PASSED;
  for (int k = 0; k < OCF_KERNEL_COUNT; k++)
    facts.learnt.kernel_max_workgroup[k] = 256;
  expect_softmax_wide("512", &facts, &t, 4096, 16384, 512, OCF_PLAN_PROBE_NONE, 1, 128);
  ocf_softmax_call call = softmax_call(4096, 16384, &TIGHT, AUTO, 0);
  ocf_plan plan;
  expect_success("512 items", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan_value(&plan, "ITEMS"), 8); /* 4096 vectors over 512 */
  t.softmax.rows.wide_wg = 1024;
  expect_softmax_wide("1024", &facts, &t, 4096, 16384, 1024, OCF_PLAN_PROBE_NONE, 1, 64);
  expect_success("1024 items", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan_value(&plan, "ITEMS"), 4);
  /* Beyond the device's maximum: cut to it. */
  t.softmax.rows.wide_wg = 4096;
  expect_softmax_wide("4096 asked", &facts, &t, 4096, 16384, 1024, OCF_PLAN_PROBE_NONE, 1, 64);
  t.softmax.rows.wide_wg = 1024;
  /* softmax_rows with one row a workgroup (4096 x 2048: 512 vectors, 128 work-items of 4): the
     whole workgroup a row, one vector each at 512; a row of fewer vectors than 1024 work-items
     keeps its plan. Two rows a workgroup (1024 columns: 64 x 2) is no plan for it either. */
  t.softmax.rows.wide_wg = 512;
  expect_softmax_wide("rows 512", &facts, &t, 4096, 2048, 512, OCF_PLAN_PROBE_NONE, 1, 128);
  ocf_softmax_call rows_call = softmax_call(4096, 2048, &TIGHT, AUTO, 0);
  expect_success("rows 512 items", ocf_plan_softmax(&facts, &t, &rows_call, &plan));
  assert_int_equal(plan.steps[0].kernel, OCF_KERNEL_SOFTMAX_ROWS);
  assert_int_equal(plan_value(&plan, "SEG"), 512);
  assert_int_equal(plan_value(&plan, "ITEMS"), 1);
  t.softmax.rows.wide_wg = 1024;
  expect_softmax_wide("rows short", &facts, &t, 4096, 2048, 128, OCF_PLAN_PROBE_NONE, 0, 0);
  expect_softmax_wide("two rows a group", &facts, &t, 8192, 1024, 128, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide = OCF_PROBE_UNKNOWN;
  expect_softmax_wide("rows, probe unknown", &facts, &t, 4096, 2048, 128, OCF_PLAN_PROBE_WIDE, 0,
                      0);
  expect_softmax_wide("two rows, no probe", &facts, &t, 8192, 1024, 128, OCF_PLAN_PROBE_NONE, 0, 0);
  facts.learnt.wide = OCF_PROBE_PASSED;
  /* A caller's fixed size is the caller's. */
  call.workgroup = 256;
  expect_success("fixed", ocf_plan_softmax(&facts, &t, &call, &plan));
  assert_int_equal(plan.wide_workgroup, 0);
  assert_int_equal(plan.steps[0].local[0], 256);
  /* A wide launch of softmax_resident was refused on this context: within the learnt 256. */
  facts.learnt.wide_refused[OCF_KERNEL_SOFTMAX_RESIDENT] = 1;
  expect_softmax_wide("refused", &facts, &t, 4096, 16384, 256, OCF_PLAN_PROBE_NONE, 0, 0);
  /* No register cap option (any other vendor): never wide, never a probe. */
  ocf_device_facts amd = facts_of(AMD_GPU_1024, 0);
  ocf_tuning_values amd_t = tuning_of(&amd, AMD_GPU_1024, OCF_OP_SOFTMAX);
  amd_t.softmax.rows.wide_wg = 1024;
  ocf_softmax_call amd_call = softmax_call(4096, 16384, &TIGHT, AUTO, 0);
  expect_success("amd unknown", ocf_plan_softmax(&amd, &amd_t, &amd_call, &plan));
  assert_int_equal(plan.probe, OCF_PLAN_PROBE_NONE);
  assert_int_equal(plan.wide_workgroup, 0);
  amd.learnt.wide = OCF_PROBE_PASSED;
  expect_success("amd passed", ocf_plan_softmax(&amd, &amd_t, &amd_call, &plan));
  assert_int_equal(plan.wide_workgroup, 0);
  assert_int_equal(plan.max_registers, 0);
  /* The facts' own gate: the cap must fit the workgroup. */
  assert_int_equal(ocf_wide_register_cap(1024), 64);
  assert_int_equal(ocf_wide_register_cap(512), 128);
  assert_int_equal(ocf_wide_register_cap(384), 168);
  assert_int_equal(ocf_wide_register_cap(256), 255);
  facts.learnt.wide_refused[OCF_KERNEL_SOFTMAX_RESIDENT] = 0;
  assert_true(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 64));
  assert_false(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 72));
  assert_false(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 0));
  assert_false(ocf_facts_wide_allows(&facts, OCF_KERNEL_SOFTMAX_RESIDENT, 2048, 32));
  assert_false(ocf_facts_wide_allows(&amd, OCF_KERNEL_SOFTMAX_RESIDENT, 1024, 64));
}

/* The H200's resolved values (built-in row and shipped database) for `dtype` and the class of
   rows x cols. */
static ocf_tuning_values class_values(const ocf_tuning_table table, ocf_dtype dtype, size_t rows,
                                      size_t cols) {
  const ocf_shape shape = {{rows, cols, 0}};
  return table[OCF_OP_SOFTMAX][dtype][ocf_shape_class_of(OCF_OP_SOFTMAX, &shape)];
}

/* A shape and the plan expected of it (kernels and sizes, then values of the plan's own). */
typedef struct {
  size_t rows, cols;
  const char *shape, *values;
} shape_plan;

/* A tight call of rows x cols stored in `dtype`, in and out. */
static ocf_softmax_call stored_call(size_t rows, size_t cols, ocf_dtype dtype) {
  ocf_softmax_call call = softmax_call(rows, cols, &TIGHT, AUTO, 0);
  call.in_dtype = call.out_dtype = dtype;
  return call;
}

/*
 * packed=2 (src/plan/plan_softmax.c, choose): 16-bit rows held as floats where those take them in
 * softmax_rows, else as bits in twice the items (the same registers) where the bits hold the row
 * in a better way: in softmax_rows instead of softmax_resident, or whole where floats would
 * stream it. On the H200's shipped bf16 wide values (vectors of 16, long_rows.items 2 in 256
 * work-items, softmax_rows of 128 work-items holding 2 vectors a lane) with packed 2:
 *   4096 columns: softmax_rows as floats (as packed 0);
 *   8192: softmax_resident as floats (2 x 16 x 256 = 8192, whole), softmax_rows as bits (4 a lane);
 *   16384: softmax_resident streamed as floats, whole as bits (4 x 16 x 256);
 *   65536: streamed either way: floats, as packed 0;
 * fp32 input is never packed.
 */
static void test_plan_softmax_packed_where_held(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const shape_plan cases[] = {
      {4096, 4096, "softmax_rows wg=128x1 groups=1x4096", "PACKED=0 ITEMS=2"},
      {4096, 8192, "softmax_rows wg=128x1 groups=1x4096", "PACKED=1 ITEMS=4"},
      {4096, 16384, "softmax_resident wg=256 groups=4096", "PACKED=1 ITEMS=4"},
      {256, 65536, "softmax_resident wg=256 groups=256", "PACKED=0 ITEMS=2"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    ocf_tuning_values values = class_values(table, OCF_BF16, cases[i].rows, cases[i].cols);
    values.softmax.packed = 2;
    ocf_softmax_call call = stored_call(cases[i].rows, cases[i].cols, OCF_BF16);
    char what[96];
    snprintf(what, sizeof what, "bf16 %zu x %zu, packed 2", cases[i].rows, cases[i].cols);
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, cases[i].shape,
                cases[i].values);
    /* the bits hold no more words than the floats would */
    ocf_tuning_values floats = values;
    floats.softmax.packed = 0;
    ocf_plan float_plan;
    expect_success(what, ocf_plan_softmax(&facts, &floats, &call, &float_plan));
    if (held_words(&plan) > held_words(&float_plan))
      fail_msg("%s: %lld words held a work-item, %lld as floats", what, held_words(&plan),
               held_words(&float_plan));
    call.in_dtype = OCF_F32;
    expect_success(what, ocf_plan_softmax(&facts, &values, &call, &plan));
    assert_int_equal(plan_value(&plan, "PACKED"), 0);
  }
}

/* The H200's 16-bit rows on whole vectors (rows.aligned_vw 16, rows.aligned_seg_items 1 for
   narrow and medium rows, rows.whole_seg_items 1 for medium bf16 ones; docs/SOFTMAX.md): rows
   on whole vectors of 16 hold one a lane; narrow rows on whole vectors of 8 only (200 columns)
   keep the plain plan, two vectors of 8 a lane (one a lane lost 16 %: SEG 32 ITEMS 1), where
   medium bf16 rows of 1000 columns hold one a lane (three lost 6 %: SEG 64 ITEMS 2); f16's
   medium rows are in vectors of 16, which 1000 columns straddle; a row straddling its vectors
   of 8 (130 columns) keeps the plain plan. */
static void test_plan_softmax_whole16(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const struct {
    ocf_dtype dtype;
    shape_plan plan;
  } cases[] = {
      {OCF_BF16, {65536, 128, "softmax_rows wg=8x16 groups=1x4096", "VW=16 SEG=8 ITEMS=1"}},
      {OCF_F16, {65536, 128, "softmax_rows wg=8x16 groups=1x4096", "VW=16 SEG=8 ITEMS=1"}},
      {OCF_BF16, {131072, 64, "softmax_rows wg=4x32 groups=1x4096", "VW=16 SEG=4 ITEMS=1"}},
      {OCF_BF16, {32768, 200, "softmax_rows wg=16x8 groups=1x4096", "VW=8 SEG=16 ITEMS=2"}},
      {OCF_F16, {32768, 200, "softmax_rows wg=16x8 groups=1x4096", "VW=8 SEG=16 ITEMS=2"}},
      {OCF_BF16, {16384, 1000, "softmax_rows wg=128x1 groups=1x16384", "VW=8 SEG=128 ITEMS=1"}},
      {OCF_F16, {16384, 1000, "softmax_rows wg=32x4 groups=1x4096", "VW=16 SEG=32"}},
      {OCF_BF16, {32768, 130, "softmax_rows wg=16x8 groups=1x4096", "VW=8 ITEMS=2"}},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    const shape_plan *c = &cases[i].plan;
    const ocf_tuning_values values = class_values(table, cases[i].dtype, c->rows, c->cols);
    const ocf_softmax_call call = stored_call(c->rows, c->cols, cases[i].dtype);
    char what[96];
    snprintf(what, sizeof what, "%s %zu x %zu", ocf_dtype_name(cases[i].dtype), c->rows, c->cols);
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, c->shape, c->values);
  }
}

/* 16-bit softmax holds its rows in the registers fp32 does, under the H200's values (built-in
   and shipped database): ptxas -v found bf16's 16 x 12 floats a work-item at 255 registers where
   fp32's 4 x 16 took 112, one 256-item workgroup a compute unit (issue 19). A 16-bit row is
   held packed (packed=1), registers follow bytes, not elements: under fp32's values with
   vectors twice as long and packed=1, a 16-bit row of the same bytes (twice the columns) gets
   fp32's plan and words; and under the 16-bit database entries (packed or not) a row never holds
   more words than fp32's plan of it, on the wide and long rows where registers bind (medium f16
   rows hold 32 floats as floats). Checked to fail before the fix (floats held: twice the words). */
static void test_plan_softmax_16bit_registers(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const size_t shapes[][2] = {{512, 50257},  {1024, 65536}, {128, 152064}, {256, 32000},
                                     {1024, 30522}, {4096, 16384}, {32768, 4096}, {4096, 4096}};
  static const ocf_dtype halves[] = {OCF_F16, OCF_BF16};
  for (size_t h = 0; h < ARRAY_LEN(shapes); h++) {
    const ocf_shape shape = {{shapes[h][0], shapes[h][1], 0}};
    const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
    ocf_softmax_call call = softmax_call(shapes[h][0], shapes[h][1], &TIGHT, AUTO, 0);
    const ocf_tuning_values *fp32_values = &table[OCF_OP_SOFTMAX][OCF_F32][c];
    ocf_plan plan;
    expect_success("fp32", ocf_plan_softmax(&facts, fp32_values, &call, &plan));
    const long long fp32_words = held_words(&plan);
    const ocf_kernel_id fp32_kernel = plan.steps[0].kernel;
    for (size_t d = 0; d < ARRAY_LEN(halves); d++) {
      call.in_dtype = call.out_dtype = halves[d];
      char what[128];
      snprintf(what, sizeof what, "%zu x %zu %s", shapes[h][0], shapes[h][1],
               ocf_dtype_name(halves[d]));
      expect_success(what,
                     ocf_plan_softmax(&facts, &table[OCF_OP_SOFTMAX][halves[d]][c], &call, &plan));
      if (held_words(&plan) > fp32_words)
        fail_msg("%s: PACKED=%lld, %lld words held a work-item, fp32 %lld", what,
                 plan_value(&plan, "PACKED"), held_words(&plan), fp32_words);
      ocf_tuning_values doubled = *fp32_values;
      doubled.softmax.vw *= 2;
      doubled.softmax.packed = 1;
      ocf_softmax_call same_bytes = softmax_call(shapes[h][0], 2 * shapes[h][1], &TIGHT, AUTO, 0);
      same_bytes.in_dtype = same_bytes.out_dtype = halves[d];
      expect_success(what, ocf_plan_softmax(&facts, &doubled, &same_bytes, &plan));
      if (plan.steps[0].kernel != fp32_kernel || held_words(&plan) != fp32_words)
        fail_msg("%s, twice the columns under fp32's values in vectors of %d: %s holding %lld "
                 "words, fp32 %s %lld",
                 what, doubled.softmax.vw, kernel_name(plan.steps[0].kernel), held_words(&plan),
                 kernel_name(fp32_kernel), fp32_words);
    }
    call.in_dtype = call.out_dtype = OCF_F32;
  }
}

/* The H200's 16-bit long entries cut rows in slices only below 1.5 rows a compute unit
 * (split_rows_pct 150: 198 of 132 units), where whole rows leave units idle or run a ragged last
 * wave: 128 rows of 152064 columns split (9504 vectors of 16 in 5 slices, filling 4 workgroups
 * a unit: 528 / 128) and 197 rows in 3, loading one vector a step (split_unroll 1: the stats
 * kernel's registers), while 198 rows, and 256 of 100003 columns, stay whole in
 * softmax_resident, streaming two vectors a step (unroll 2). Under split_rows_pct 0
 * (groups_per_unit's 4 a unit) 256 rows would split in 3.
 */
static void test_plan_softmax_split_rows(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  assert_int_equal(facts.compute_units, 132);
  static const struct {
    ocf_dtype dtype;
    size_t rows, cols;
    int split_rows_pct; /* -1: the shipped value */
    const char *shape, *values;
  } cases[] = {
      {OCF_BF16, 128, 152064, -1,
       "softmax_split_stats wg=256 groups=640 + softmax_split_write wg=256 groups=640", "UNROLL=1"},
      {OCF_F16, 197, 152064, -1,
       "softmax_split_stats wg=256 groups=591 + softmax_split_write wg=256 groups=591", "UNROLL=1"},
      {OCF_BF16, 198, 152064, -1, "softmax_resident wg=256 groups=198", "UNROLL=2 ITEMS=2"},
      {OCF_F16, 256, 100003, -1, "softmax_resident wg=256 groups=256", "UNROLL=2 ITEMS=2"},
      {OCF_BF16, 256, 100003, 0,
       "softmax_split_stats wg=256 groups=768 + softmax_split_write wg=256 groups=768", "UNROLL=1"},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    ocf_tuning_values values = class_values(table, cases[i].dtype, cases[i].rows, cases[i].cols);
    assert_int_equal(values.softmax.long_rows.split_unroll, 1);
    if (cases[i].split_rows_pct >= 0)
      values.softmax.long_rows.split_rows_pct = cases[i].split_rows_pct;
    const ocf_softmax_call call = stored_call(cases[i].rows, cases[i].cols, cases[i].dtype);
    char what[96];
    snprintf(what, sizeof what, "%s %zu x %zu, split_rows_pct %d", ocf_dtype_name(cases[i].dtype),
             cases[i].rows, cases[i].cols, values.softmax.long_rows.split_rows_pct);
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, cases[i].shape,
                cases[i].values);
  }
}

/* The H200's long fp32 class (shipped database): softmax_rows holds at most 32 float4 a
 * work-item (rows.items; the class's long_rows.items is 48), and rows that 128 work-items cannot
 * hold so take segments of up to 256 (rows.long_seg), one row a workgroup, before
 * softmax_resident: 16500 columns = 4125 float4, 33 a work-item of 128 (over 32), 17 -> L(17) =
 * 24 of 256; 32768 = 8192 float4 = 256 x 32, the longest; one float more is 8193, over 256 x
 * 32: softmax_resident. Rows 128 work-items hold keep them (the wide class's 16384, and 4500
 * columns: 9 -> 12). Without rows.long_seg the long rows go to softmax_resident; without
 * rows.items too, softmax_rows takes 48 a work-item, the plan that ran at 1374-1633 GB/s. The
 * 16-bit long rows keep theirs (both off).
 */
static void test_plan_softmax_long_segments(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const struct {
    ocf_dtype dtype;
    size_t rows, cols;
    const char *tuning; /* over the shipped values, or NULL */
    const char *shape, *values;
  } cases[] = {
      {OCF_F32, 1024, 16500, NULL, "softmax_rows wg=256x1 groups=1x1024", "SEG=256 ITEMS=24"},
      {OCF_F32, 1024, 24576, NULL, "softmax_rows wg=256x1 groups=1x1024", "SEG=256 ITEMS=24"},
      {OCF_F32, 1024, 32768, NULL, "softmax_rows wg=256x1 groups=1x1024", "SEG=256 ITEMS=32"},
      {OCF_F32, 1024, 32769, NULL, "softmax_resident wg=256 groups=1024", NULL},
      {OCF_F32, 4096, 16384, NULL, "softmax_rows wg=128x1 groups=1x4096", "SEG=128 ITEMS=32"},
      {OCF_F32, 4096, 4500, NULL, "softmax_rows wg=128x1 groups=1x4096", "SEG=128 ITEMS=12"},
      {OCF_F32, 1024, 16500, "rows.long_seg=0", "softmax_resident wg=128 groups=1024", NULL},
      {OCF_F32, 1024, 16500, "rows.long_seg=0 rows.items=0", "softmax_rows wg=128x1 groups=1x1024",
       "SEG=128 ITEMS=48"},
      {OCF_BF16, 1024, 20000, NULL, "softmax_resident wg=256 groups=528", NULL},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
    ocf_tuning_values values = class_values(table, cases[i].dtype, cases[i].rows, cases[i].cols);
    if (cases[i].tuning)
      assert_int_equal(ocf_tuning_parse(OCF_OP_SOFTMAX, cases[i].tuning, &values, "case"),
                       OCF_SUCCESS);
    const ocf_softmax_call call = stored_call(cases[i].rows, cases[i].cols, cases[i].dtype);
    char what[128];
    snprintf(what, sizeof what, "%s %zu x %zu, %s", ocf_dtype_name(cases[i].dtype), cases[i].rows,
             cases[i].cols, cases[i].tuning ? cases[i].tuning : "shipped");
    ocf_plan plan;
    expect_plan(what, ocf_plan_softmax(&facts, &values, &call, &plan), &plan, cases[i].shape,
                cases[i].values);
  }
}

/* The H200's huge rows (more than 262144 columns) run the split in every type, never
 * softmax_coop's waiting slices (16-bit slices waited at 1.4-1.7 GB/s, fp32 lost 8 x 4e6 by
 * 1.7x; SOFTMAX.md, "Slices that wait"): fp32 streams 8 vectors a step, 16-bit one. */
static void test_plan_softmax_huge_split(void **state) {
  (void)state;
  ocf_device_facts facts;
  static ocf_tuning_table table;
  resolve_h200(&facts, &table);
  static const size_t shapes[][2] = {{1, 4000000}, {8, 4000000}, {16, 1000003}, {64, 262147}};
  static const ocf_dtype dtypes[] = {OCF_F32, OCF_BF16, OCF_F16};
  for (size_t h = 0; h < ARRAY_LEN(shapes); h++)
    for (size_t d = 0; d < ARRAY_LEN(dtypes); d++) {
      const ocf_shape shape = {{shapes[h][0], shapes[h][1], 0}};
      const unsigned c = ocf_shape_class_of(OCF_OP_SOFTMAX, &shape);
      assert_string_equal(ocf_shape_class_name(OCF_OP_SOFTMAX, c), "huge");
      ocf_softmax_call call = softmax_call(shapes[h][0], shapes[h][1], &TIGHT, AUTO, 0);
      call.in_dtype = call.out_dtype = dtypes[d];
      ocf_plan plan;
      expect_success("huge",
                     ocf_plan_softmax(&facts, &table[OCF_OP_SOFTMAX][dtypes[d]][c], &call, &plan));
      const long long unroll = dtypes[d] == OCF_F32 ? 8 : 1;
      if (plan.steps[0].kernel != OCF_KERNEL_SOFTMAX_SPLIT_STATS ||
          plan_value(&plan, "UNROLL") != unroll)
        fail_msg("%zu x %zu %s: %s, UNROLL=%lld (expected the split, %lld)", shapes[h][0],
                 shapes[h][1], ocf_dtype_name(dtypes[d]), kernel_name(plan.steps[0].kernel),
                 plan_value(&plan, "UNROLL"), unroll);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_softmax_table),
      cmocka_unit_test(test_plan_softmax_fixed_workgroup_edges),
      cmocka_unit_test(test_plan_softmax_segments_divide_any_group),
      cmocka_unit_test(test_plan_softmax_coop_work_bounded),
      cmocka_unit_test(test_plan_softmax_16bit_registers),
      cmocka_unit_test(test_plan_softmax_whole16),
      cmocka_unit_test(test_plan_softmax_packed_where_held),
      cmocka_unit_test(test_plan_softmax_split_rows),
      cmocka_unit_test(test_plan_softmax_long_segments),
      cmocka_unit_test(test_plan_softmax_huge_split),
      cmocka_unit_test(test_plan_softmax_wide),
  };
  return cmocka_run_group_tests_name("plan_softmax", tests, NULL, NULL);
}
