/* ocf_matmul's tunables and their rules, by kernel family: the shared register cap, the tiled
   kernels (four tile sets, split-K), the skinny kernels, the matrix-unit kernel (mma) and
   Hopper's warpgroup kernel (wgmma). How the planner uses them: src/plan/plan_matmul*.c. */
#include "tuning/schemas.h"

#define MM(field) OCF_TUNING_INDEX(matmul, field)

/* Set 0 always exists; sets 1 to 3 are unused while their mdimc is 0. The fallbacks are the
   generic values: 32 x 32 tiles of 8 x 8 work-items, then 16 x 16 tiles of 4 x 4. */
#define SET_TUNABLES(s, MIN, MDIMC, NDIMC, MWI, NWI, KWG, VW, PAD)                                 \
  [MM(tiled.set[s].mdimc)] = {"tiled.set" #s ".mdimc", MIN, 1024, 1, MDIMC, "work-items along M",  \
                              "set" #s ".mdimc"},                                                  \
  [MM(tiled.set[s].ndimc)] = {"tiled.set" #s ".ndimc", MIN, 1024, 1, NDIMC, "work-items along N",  \
                              "set" #s ".ndimc"},                                                  \
  [MM(tiled.set[s].mwi)] = {"tiled.set" #s ".mwi", MIN, 16, 0, MWI, "rows of C per work-item",     \
                            "set" #s ".mwi"},                                                      \
  [MM(tiled.set[s].nwi)] = {"tiled.set" #s ".nwi", MIN, 16, 0, NWI, "columns of C per work-item",  \
                            "set" #s ".nwi"},                                                      \
  [MM(tiled.set[s].kwg)] = {"tiled.set" #s ".kwg", MIN ? 4 : 0,    64, 0, KWG,                     \
                            "K slice depth",       "set" #s ".kwg"},                               \
  [MM(tiled.set[s].vwm)] =                                                                         \
      {"tiled.set" #s ".vwm", MIN, 4, 1, VW, "local read width of the A tile", "set" #s ".vwm"},   \
  [MM(tiled.set[s].vwn)] = {"tiled.set" #s ".vwn",                                                 \
                            MIN,                                                                   \
                            4,                                                                     \
                            1,                                                                     \
                            VW,                                                                    \
                            "local read width of B, store width",                                  \
                            "set" #s ".vwn"},                                                      \
  [MM(tiled.set[s].pada)] =                                                                        \
      {"tiled.set" #s ".pada", 0, 64, 0, PAD, "padding floats per local A row", "set" #s ".pada"}, \
  [MM(tiled.set[s].padb)] = {                                                                      \
      "tiled.set" #s ".padb", 0, 64, 0, PAD, "padding floats per local B row", "set" #s ".padb"}

/* An mma tile set: a BM x BN tile of C in slices of BK, warps of WM x WN, STAGES slices in local
   memory (all powers of two; the planner fits the stages to the local memory its probes ran). */
#define MMA_SET_TUNABLES(s, BM, BN, BK, WM, WN, STAGES)                                            \
  [MM(mma.set[s].bm)] = {"mma.set" #s ".bm", 16, 256, 1, BM, "rows of the matrix-unit tile",       \
                         "mma" #s ".bm"},                                                          \
  [MM(mma.set[s].bn)] = {"mma.set" #s ".bn", 16, 256, 1, BN, "its columns", "mma" #s ".bn"},       \
  [MM(mma.set[s].bk)] = {"mma.set" #s ".bk", 16, 128, 1, BK, "its K slice depth", "mma" #s ".bk"}, \
  [MM(mma.set[s].wm)] = {"mma.set" #s ".wm", 16, 128, 1, WM, "rows of one warp's block",           \
                         "mma" #s ".wm"},                                                          \
  [MM(mma.set[s].wn)] = {"mma.set" #s ".wn", 16, 128, 1, WN, "columns of one warp's block",        \
                         "mma" #s ".wn"},                                                          \
  [MM(mma.set[s].stages)] = {                                                                      \
      "mma.set" #s ".stages", 2, 8, 0, STAGES, "K slices in local memory at once",                 \
      "mma" #s ".stages"}

static const ocf_tunable matmul_tunables[] = {
    /* shared */
    [MM(max_regs)] = {"max_regs", 0, 255, 0, 0,
                      "registers per work-item the tiled and skinny kernels are built to, where "
                      "the compiler takes a cap (NVIDIA's -cl-nv-maxrregcount); 0: the "
                      "compiler's choice",
                      NULL},
    /* tiled */
    [MM(tiled.fill)] = {"tiled.fill", 1, 64, 0, 2,
                        "workgroups per compute unit a tile set must give to be taken", "fill"},
    SET_TUNABLES(0, 1, 8, 8, 4, 4, 16, 4, 4),
    SET_TUNABLES(1, 0, 4, 4, 4, 4, 16, 4, 4),
    SET_TUNABLES(2, 0, 0, 0, 0, 0, 0, 0, 0),
    SET_TUNABLES(3, 0, 0, 0, 0, 0, 0, 0, 0),
    [MM(tiled.min_eff)] = {"tiled.min_eff", 1, 100, 0, 50,
                           "% of a tile set's padded tiles that must be C for the set to be taken",
                           "min_eff"},
    [MM(tiled.split_k_min)] = {"tiled.split_k_min", 0, 1 << 20, 0, 512,
                               "least K per split when the tiles leave compute units idle; 0: "
                               "never",
                               "split_k_min"},
    [MM(tiled.split_max)] = {"tiled.split_max", 1, 256, 0, 16, "most K splits of the tiled kernels",
                             "split_max"},
    [MM(tiled.split_fill)] = {"tiled.split_fill", 1, 64, 0, 2,
                              "workgroups per compute unit that splitting K aims at", "split_fill"},
    [MM(tiled.reduce_wg)] = {"tiled.reduce_wg", 1, 1024, 1, 64,
                             "work-items per workgroup of the split sums", "reduce_wg"},
    /* 0 in the schema; NVIDIA 1024 (builtin.tuning; tools/lab/h200/round_ragged.sh). */
    [MM(tiled.pad_min)] = {"tiled.pad_min", 0, 65536, 0, 0,
                           "fp32 A or B whose offset, leading dimension or batch stride is not a "
                           "multiple of 4 is first copied into aligned, zero-padded scratch "
                           "(cl/matmul_pad.cl) from m n k batch >= pad_min^3 products, on the "
                           "sides tiled.pad_sides allows (src/plan/plan_matmul.c, rule 5); 0: "
                           "never",
                           NULL},
    /* 0 in the schema; NVIDIA 1 (builtin.tuning; docs/GEMM.md, "Ragged shapes: the rim"). */
    [MM(tiled.rim)] = {"tiled.rim", 0, 2, 0, 0,
                       "1: matmul_tiled_pad and matmul_tiled_mixed pick per workgroup a whole-tile "
                       "body (no guards, K's partial slice peeled, vector stores of C where "
                       "aligned) or a guarded rim body; 2: matmul_tiled_split too; 0: one body "
                       "with run-time guards",
                       NULL},
    /* 0 in the schema; NVIDIA 2 (builtin.tuning; docs/GEMM.md, "Ragged shapes: which plan"). */
    [MM(tiled.pad_sides)] = {"tiled.pad_sides", 0, 2, 0, 0,
                             "the sides for which tiled.pad_min's copies are taken: 0 any; 1 m, n "
                             "and k multiples of 4 (only an offset, leading dimension or batch "
                             "stride denies vector loads); 2 m, n and k whole tiles of the plan's "
                             "set (where matmul_tiled_fast would run); other sides keep "
                             "matmul_tiled_mixed",
                             NULL},
    [MM(tiled.pad_waves)] = {"tiled.pad_waves", 0, 64, 0, 0,
                             "calls whose tiles make at most pad_waves workgroups a compute unit "
                             "also copy (within tiled.pad_min and tiled.pad_sides) every fp32 "
                             "operand that spans a rim (rows, columns or K off whole tiles), so "
                             "that no tile runs the guarded rim loads beside the whole ones; 0: "
                             "never",
                             NULL},
    /* 0 in the schema; NVIDIA 1 (builtin.tuning; docs/GEMM.md, "Mid sizes: C's stores"). */
    [MM(tiled.mixed_c_check)] = {"tiled.mixed_c_check", 0, 1, 0, 0,
                                 "1: matmul_tiled_mixed with tiled.rim and an fp32 C checks each "
                                 "group of C's stores for alignment at run time (C_VEC 0) even "
                                 "where the plan knows every group aligned",
                                 NULL},
    /* 0 in the schema; NVIDIA: builtin.tuning (tools/lab/h200/round_waves.sh). */
    [MM(tiled.wave_min)] = {"tiled.wave_min", 0, 100, 0, 0,
                            "a tile set taken with fewer workgroups than this % of its whole waves "
                            "(ceil(workgroups / compute units) of one workgroup a unit) splits K "
                            "into the fewest ranges whose workgroups fill that much; 0: never",
                            NULL},
    [MM(tiled.wave_k_min)] = {"tiled.wave_k_min", 1, 1 << 20, 0, 256,
                              "least K per range of tiled.wave_min's splits", NULL},
    /* 0 in the schema; NVIDIA 2 and 90 (docs/GEMM.md, "Mid sizes: few waves"). */
    [MM(tiled.few_waves)] = {"tiled.few_waves", 0, 64, 0, 0,
                             "a tile set taken unsplit whose workgroups make at most this many "
                             "waves (of one workgroup a compute unit) fills tiled.few_wave_min % "
                             "of them instead of tiled.wave_min; 0: never",
                             NULL},
    [MM(tiled.few_wave_min)] = {"tiled.few_wave_min", 0, 100, 0, 0,
                                "tiled.wave_min for the sets of tiled.few_waves", NULL},
    /* 0 in the schema and everywhere until a GPU has measured it (docs/GEMM.md, "Mid sizes:
       stream-K"). */
    [MM(tiled.stream)] = {"tiled.stream", 0, 16, 0, 0,
                          "where K would be split (tiled.split_k_min, tiled.wave_min), one launch "
                          "of matmul_tiled_stream instead: this many workgroups a compute unit "
                          "share every tile's K slices equally, a tile split between them joined "
                          "by its last part (devices with fences for it: NVIDIA, CPUs); 0: never",
                          NULL},
    /* skinny */
    [MM(skinny.max)] = {"skinny.max", 0, 16, 0, 16,
                        "C with at most this many columns (or rows) takes the skinny kernels",
                        "skinny_max"},
    [MM(skinny.long_min)] = {"skinny.long_min", 1, 1 << 20, 0, 256,
                             "... and at least this many rows (or columns) on its long side",
                             "skinny_long_min"},
    [MM(skinny.wg)] = {"skinny.wg", 4, 1024, 1, 64,
                       "work-items per workgroup of the skinny kernels", "sk_wg"},
    [MM(skinny.rl_k)] = {"skinny.rl_k", 1, 1024, 1, 8,
                         "skinny row lanes when the large operand is k-contiguous", "sk_rl_k"},
    [MM(skinny.rl_r)] = {"skinny.rl_r", 1, 1024, 1, 16,
                         "skinny row lanes when the large operand is row-contiguous", "sk_rl_r"},
    [MM(skinny.unroll)] = {"skinny.unroll", 1, 8, 0, 2,
                           "skinny steps of loads in flight per work-item", "sk_unroll"},
    [MM(skinny.fill)] = {"skinny.fill", 1, 64, 0, 2,
                         "skinny workgroups per compute unit wanted before K is split", "sk_fill"},
    [MM(skinny.split_min)] = {"skinny.split_min", 4, 1 << 20, 0, 256, "least K per skinny split",
                              "sk_split_min"},
    [MM(skinny.wide_min)] = {"skinny.wide_min", 0, 16, 0, 8,
                             "skinny C with at least this many columns (or rows) stage V and the "
                             "large operand in local memory (the wide path); 0: never",
                             "sk_wide_min"},
    [MM(skinny.rl_w)] = {"skinny.rl_w", 1, 1024, 1, 32,
                         "row lanes of the skinny wide path (a warp's worth shares each k)",
                         "sk_rl_w"},
    /* 0 in the schema: on PoCL it tied the split and its reduce (within 2 %, 2026-12-05); on an
       H100 one column joined won 4-10 % and 16 lost a quarter (docs/GEMM.md, "The skinny split
       in one launch"), hence NVIDIA's 1. */
    [MM(skinny.join)] = {"skinny.join", 0, 16, 0, 0,
                         "a skinny split over K whose short side of C is at most this runs as one "
                         "launch (matmul_skinny_join), a row block's last range to arrive adding "
                         "the block's ranges, where the device orders such joins (NVIDIA, CPUs); "
                         "wider ones and 0: matmul_skinny_split, then matmul_skinny_reduce",
                         NULL},
    /* mma */
    [MM(mma.on)] = {"mma.on", 0, 1, 0, 0,
                    "1: TF32, 3XTF32 and fp16/bf16 inputs run on the matrix units where a probe "
                    "found them (cl/matmul_mma_nv.cl: NVIDIA, compute capability 8.0 or more)",
                    "mma"},
    [MM(mma.fill)] = {"mma.fill", 1, 64, 0, 1,
                      "workgroups per compute unit that mma set 0 must give, else set 1", NULL},
    [MM(mma.group_m)] = {"mma.group_m", 1, 64, 0, 8,
                         "tile rows that consecutive matrix-unit workgroups walk together", NULL},
    [MM(mma.copy_at)] = {"mma.copy_at", 0, 8, 0, 0,
                         "the k step of a slice after whose mma the next slice's copies go out "
                         "(0: before the first)",
                         NULL},
    [MM(mma.interior)] = {"mma.interior", 0, 1, 0, 0,
                          "1: matrix-unit tiles inside C copy their full K slices unguarded", NULL},
    MMA_SET_TUNABLES(0, 128, 128, 32, 64, 64, 3),
    MMA_SET_TUNABLES(1, 64, 64, 32, 32, 32, 3),
    /* wgmma. The fallbacks are the H200's winners of tools/lab/wgmma (cp.async, 2026-12-01):
       128 x 256 tiles in 4 stages, 494 / 535 TFLOP/s bf16 at 4096^3 / 8192^3. */
    [MM(wgmma.on)] = {"wgmma.on", 0, 1, 0, 1,
                      "1: with mma.on=1, 16-bit and TF32 inputs run on Hopper's warpgroup matrix "
                      "units where their probe passed (cl/matmul_wgmma_nv.cl: NVIDIA, compute "
                      "capability 9.0)",
                      "wg"},
    [MM(wgmma.bn)] = {"wgmma.bn", 128, 256, 0, 256, "columns of the wgmma tile: 128, 192 or 256",
                      "wg.bn"},
    [MM(wgmma.stages)] = {"wgmma.stages", 3, 6, 0, 4,
                          "K slices of 128 bytes in local memory (stages - 2 copies in flight)",
                          "wg.stages"},
    [MM(wgmma.consumers)] = {"wgmma.consumers", 1, 3, 0, 2,
                             "warpgroups of the wgmma tile, 64 rows each (128 work-items each); "
                             "3 only where the TMA-fed form runs every wgmma step of the plan "
                             "(its first work-item then drives the TMA), else 2",
                             "wg.consumers"},
    [MM(wgmma.group_m)] = {"wgmma.group_m", 1, 64, 0, 8,
                           "tile rows that consecutive wgmma workgroups walk together",
                           "wg.group_m"},
    /* 0 until the staged plans pass test_matmul_staged on the H200 (2026-12-02: a wrong
       result at 257 x 300 x 251 NN, 3XTF32, padded operands; see docs/GEMM.md). */
    [MM(wgmma.stage_min)] =
        {"wgmma.stage_min", 0, 65536, 0, 0,
         "3XTF32 runs on wgmma through a staging kernel from m n k batch >= "
         "stage_min^3 products (src/plan/plan_matmul_wgmma.c, rule 4); 0: never",
         NULL},
    [MM(wgmma.tf32_stage_min)] =
        {"wgmma.tf32_stage_min", 0, 65536, 0, 0,
         "the TF32 calls wgmma cannot read as they lie run on it through a "
         "staging kernel from m n k batch >= tf32_stage_min^3 products "
         "(TF32 stages k floats a row, 3XTF32 3 k: a gate each); 0: never",
         NULL},
    [MM(wgmma.split_min)] =
        {"wgmma.split_min", 0, 1048576, 0, 0,
         "where the wgmma tiles of a call fill fewer than the compute units, K split over "
         "up to units / tiles workgroups of at least split_min elements each, then a reduce "
         "(src/plan/plan_matmul_wgmma.c, rule 5); 0: never",
         NULL},
    /* lastwave: unmeasured, off everywhere until the H200 round
       (tools/lab/h200/round_wgmma_lastwave.sh) */
    [MM(wgmma.lastwave)] =
        {"wgmma.lastwave", 0, 100, 0, 0,
         "where the wgmma tiles x batch exceed the compute units and the last wave holds at "
         "most lastwave % of them, that wave's tiles run with K split over the idle units, "
         "then a reduce (src/plan/plan_matmul_wgmma.c, rule 6); 0: never",
         NULL},
    [MM(wgmma.lastwave_min)] = {"wgmma.lastwave_min", 64, 1048576, 0, 512,
                                "least K per range of the last-wave split", NULL},
    [MM(wgmma.wave_bn)] = {"wgmma.wave_bn", 0, 256, 0, 0,
                           "the other wgmma tile width (128, 192 or 256) a whole-K call of "
                           "more tiles than compute units takes where its waves cost 5 % less "
                           "(src/plan/plan_matmul_wgmma.c, rule 2); 0: never",
                           NULL},
    [MM(wgmma.wave_stages)] = {"wgmma.wave_stages", 3, 6, 0, 4, "the ring of wave_bn's tiles",
                               NULL},
    [MM(wgmma.align_rows)] =
        {"wgmma.align_rows", 0, 1048576, 0, 0,
         "16-bit calls of m >= align_rows and m n k batch >= align_rows^3 whose B rows lie off "
         "128-byte lines (or that the wgmma kernel cannot read: off 16-byte chunks, A "
         "transposed) copy their operands onto aligned rows first (src/plan/plan_matmul_wgmma.c, "
         "rule 4); 0: never",
         NULL},
    [MM(wgmma.unread_rows)] =
        {"wgmma.unread_rows", 0, 1048576, 0, 0,
         "align_rows' gate for the 16-bit calls the wgmma kernel cannot read (A or B off 16-byte "
         "chunks, A transposed), which run on mma.sync unless copied; 0: align_rows' gate",
         NULL},
    /* tma: 0 in the schema; the H200 row of builtin.tuning sets 1 (measured 2026-12-05) */
    [MM(wgmma.tma)] = {"wgmma.tma", 0, 2, 0, 0,
                       "1: whole-K wgmma calls take the kernel whose stages the tensor memory "
                       "accelerator fills (matmul_wgmma_tma, its maps made on the device) where "
                       "its probe passed (src/plan/plan_matmul_wgmma.c, rule 7); 2: also the "
                       "16-bit calls whose B rows lie off 128-byte lines, read where they lie "
                       "instead of copied first (rule 4); 0: never",
                       NULL},
    /* c_stage: 0 in the schema; the NVIDIA row of builtin.tuning sets 1 (measured on an H100,
       2026-12-05, tools/lab/h200/round_pack16.sh) */
    [MM(wgmma.c_stage)] = {"wgmma.c_stage", 0, 1, 0, 0,
                           "1: matmul_wgmma_tma stages each warpgroup's finished block of C in "
                           "local memory and stores it in rows of 16-byte chunks; 0: each "
                           "work-item stores its own pairs",
                           NULL},
    /* tma_split: built 2026-12-05 without a GPU, off until the H200 runs it
       (tools/lab/h200/round_tma_split.sh) */
    [MM(wgmma.tma_split)] = {"wgmma.tma_split", 0, 1, 0, 0,
                             "1: split-K wgmma calls (src/plan/plan_matmul_wgmma.c, rule 5) take "
                             "matmul_wgmma_tma_split, their stages filled by the tensor memory "
                             "accelerator, where rule 7's gates hold; 0: the cp.async split",
                             NULL},
    /* split_join: measured 2026-12-06 (H100), lost on every few-row shape; with its join's
       loads batched since, it won in 128-column tiles (bf16 128 x 8192^2 237.0 -> 252.9, 256 x
       4096^2 226.9 -> 253.5 TFLOP/s) and still lost in 256 (223.0 -> 176.1) and on 128 x 4096
       x 14336 (234.3 -> 227.7): off (docs/GEMM.md) */
    [MM(wgmma.split_join)] = {"wgmma.split_join", 0, 1, 0, 0,
                              "1: split-K wgmma calls on the cp.async kernel join their K ranges "
                              "in the same launch (matmul_wgmma_split_join: each tile's last "
                              "range adds the ranges' sums and finishes the tile); 0: "
                              "matmul_wgmma_split, then matmul_wgmma_reduce",
                              NULL},
    /* tma_copies: 1 in NVIDIA's built-in row since 2026-12-06 (measured on an H100) */
    [MM(wgmma.tma_copies)] = {"wgmma.tma_copies", 0, 1, 0, 0,
                              "1: the staged and copied wgmma plans (src/plan/plan_matmul_wgmma.c, "
                              "rule 4) multiply on the TMA-fed form (matmul_wgmma_tma_sb, _sab, "
                              "_pb, _pab: the maps after their operands in the scratch) where rule "
                              "7's gates hold; 0: on the cp.async kernel",
                              NULL},
    /* one_consumer, split_ranges: the schema's values keep every device's plans; the H100's
       database sets them for the few_rows class (measured 2026-12-06, docs/GEMM.md) and the
       16-bit skinny class (2026-12-07) */
    [MM(wgmma.one_consumer)] =
        {"wgmma.one_consumer", 0, 1, 0, 0,
         "1: a call of at most consumers x 64 rows takes one consumer warpgroup (tiles of 64 "
         "rows) where those tiles x batch make one wave and either m <= 64 or they fill two "
         "thirds of the compute units (src/plan/plan_matmul_wgmma.c, rule 2); 0: the tuning's "
         "consumers",
         NULL},
    [MM(wgmma.split_ranges)] = {"wgmma.split_ranges", 2, 64, 0, 2,
                                "the fewest K ranges a split-K wgmma plan takes (rule 5); a call "
                                "the units would split into fewer keeps whole K",
                                NULL},
    /* sector_rows: 0 in the schema; the H100's database sets it for 16-bit calls (measured
       2026-12-06, docs/GEMM.md "Rows off the lines: which the TMA reads in place") */
    [MM(wgmma.sector_rows)] =
        {"wgmma.sector_rows", 0, 1, 0, 0,
         "1: where wgmma.tma is set and the TMA probes passed, 16-bit calls whose B rows lie on "
         "32-byte steps of the 128-byte lines but off 64-byte ones (offset, leading dimension "
         "and batch stride multiples of 16 values, not all of 32) go direct, read in place by "
         "the TMA, instead of copied onto the lines first (src/plan/plan_matmul_wgmma.c, rule "
         "4); 0: copied from wgmma.align_rows rows",
         NULL},
    /* persist: off in the schema; 1 in the H100's large class (measured on an H100 2026-12-07:
       1 gained 0.4-5 % with two consumers and lost 3-10 % with three, which the planner keeps a
       tile a workgroup; 2 lost; docs/GEMM.md "Persistent tiles", "Stream-K") */
    [MM(wgmma.persist)] = {"wgmma.persist", 0, 2, 0, 0,
                           "1: whole-K calls on matmul_wgmma_tma or its staged and copied twins "
                           "(rule 7) of one product and more tiles than compute units launch a "
                           "workgroup a unit, each multiplying every units-th tile through one "
                           "ring (the next tile's slices load while the last one's C is "
                           "stored), where the plan has two consumers; 2: the same, and where "
                           "the tiles are not whole waves the last wave's tiles are cut into "
                           "pieces along K, a workgroup a piece (stream-K, matmul_wgmma_tma_sk "
                           "and its staged and copied twins); 0: a workgroup a tile",
                           NULL},
    /* one_wave: 1 in the schema (measured 2026-12-07 on an H100 by forcing wgmma.bn=128:
       docs/GEMM.md "One wave of narrow tiles"); 0 keeps the rule's first form, for timing the
       two */
    [MM(wgmma.one_wave)] = {"wgmma.one_wave", 0, 1, 0, 1,
                            "1: a whole-K wgmma call whose tiles of 128 columns still make at "
                            "most one wave (tiles x batch within the compute units) takes them, "
                            "in three consumers where the tuning asks for three and only theirs "
                            "fit (src/plan/plan_matmul_wgmma.c, rule 2); 0: only a call of one "
                            "tile row (m at most 64 consumers), in the plan's consumers",
                            NULL},
    /* whole_k_fill: 40 in the schema (an H100, 2026-12-08, round `onewave`: whole K in one wave
       of 128-column tiles beat 4 ranges of K from 64 of 132 units on, docs/GEMM.md "Split K or
       one wave"); 0 keeps the rule's first form, for timing the two */
    [MM(wgmma.whole_k_fill)] = {"wgmma.whole_k_fill", 0, 100, 0, 40,
                                "rule 5 splits a wgmma call's K only where its whole-K plan (rule "
                                "2's one wave of 128-column tiles included) fills fewer than this "
                                "percent of the compute units (src/plan/plan_matmul_wgmma.c); 0: "
                                "wherever the tuning's tiles leave units idle",
                                NULL},
    /* few: unmeasured, off everywhere until the H200 round (tools/lab/h200/round_fewrow.sh) */
    [MM(few.on)] = {"few.on", 0, 2, 0, 0,
                    "16-bit A and B with C's short side at most few.max run on the few-row "
                    "matrix-unit kernels (cl/matmul_few_mma.cl, mma.sync): 0 never, 1 on NVIDIA "
                    "(compute capability 8.0, after the mma probe passed), 2 also elsewhere, "
                    "emulated (for tests)",
                    NULL},
    [MM(few.max)] = {"few.max", 1, 64, 0, 64, "largest short side of C the few-row kernels take",
                     NULL},
    [MM(few.x_rows)] = {"few.x_rows", 0, 1, 0, 0,
                        "1: the few-row kernels also take a large operand that is not "
                        "k-contiguous (element loads); 0: k-contiguous only",
                        NULL},
    [MM(few.warps)] = {"few.warps", 1, 8, 1, 4, "warps of a few-row workgroup", NULL},
    [MM(few.kw)] = {"few.kw", 1, 8, 1, 1, "of them along K (their sums meet in local memory)",
                    NULL},
    [MM(few.nt)] = {"few.nt", 1, 8, 0, 2, "tiles of 8 rows of the large operand a warp", NULL},
    [MM(few.unroll)] = {"few.unroll", 1, 4, 0, 2, "steps of 32 k of loads in flight a warp", NULL},
    [MM(few.fill)] = {"few.fill", 1, 64, 0, 4,
                      "few-row workgroups per compute unit wanted before K is split", NULL},
};

enum { MM_COUNT = OCF_TUNING_INTS(ocf_matmul_tuning) };
_Static_assert(OCF_ARRAY_LEN(matmul_tunables) == MM_COUNT, "a name for every matmul tunable");
_Static_assert((int)MM_COUNT <= (int)OCF_TUNING_MAX, "ocf_tuning_values holds matmul's values");

/* Derived, per tile set: the tile's rows and columns and the accumulators per work-item; per mma
   set: its work-items and one warp's block. */
enum { D_MWG, D_NWG, D_WPT, D_PER_SET };
#define DERIVED(s, d) (MM_COUNT + (s)*D_PER_SET + (d))
enum { D_MMA_THREADS, D_MMA_BLOCK, D_PER_MMA_SET };
#define DERIVED_MMA(s, d) (DERIVED(OCF_MATMUL_TILE_SETS, 0) + (s)*D_PER_MMA_SET + (d))
/* The wgmma kernel's static local memory: stages (64 consumers + bn) 128 + 1024 bytes. */
#define DERIVED_WG_BYTES DERIVED_MMA(OCF_MATMUL_MMA_SETS, 0)
/* The same of wave_bn's ring (wave_bn 0: 0). */
#define DERIVED_WAVE_BYTES (DERIVED_WG_BYTES + 1)

static const char *const
    matmul_derived[OCF_MATMUL_TILE_SETS * D_PER_SET + OCF_MATMUL_MMA_SETS * D_PER_MMA_SET + 2] = {
        "tiled.set0.mdimc*mwi",
        "tiled.set0.ndimc*nwi",
        "tiled.set0.mwi*nwi",
        "tiled.set1.mdimc*mwi",
        "tiled.set1.ndimc*nwi",
        "tiled.set1.mwi*nwi",
        "tiled.set2.mdimc*mwi",
        "tiled.set2.ndimc*nwi",
        "tiled.set2.mwi*nwi",
        "tiled.set3.mdimc*mwi",
        "tiled.set3.ndimc*nwi",
        "tiled.set3.mwi*nwi",
        "mma.set0 work-items (32 bm bn / (wm wn))",
        "mma.set0.wm*wn",
        "mma.set1 work-items (32 bm bn / (wm wn))",
        "mma.set1.wm*wn",
        "wgmma local bytes (stages (64 consumers + bn) 128 + 1024)",
        "wgmma wave_bn's local bytes (wave_stages (64 consumers + wave_bn) 128 + 1024)"};

static void matmul_derive(const ocf_tuning_values *values, long long *d) {
  const ocf_matmul_tuning *t = &values->matmul;
  for (int s = 0; s < OCF_MATMUL_TILE_SETS; s++) {
    const ocf_matmul_tile_set *set = &t->tiled.set[s];
    d[s * D_PER_SET + D_MWG] = (long long)set->mdimc * set->mwi;
    d[s * D_PER_SET + D_NWG] = (long long)set->ndimc * set->nwi;
    d[s * D_PER_SET + D_WPT] = (long long)set->mwi * set->nwi;
  }
  for (int s = 0; s < OCF_MATMUL_MMA_SETS; s++) {
    const ocf_matmul_mma_set *set = &t->mma.set[s];
    long long *out = d + OCF_MATMUL_TILE_SETS * D_PER_SET + s * D_PER_MMA_SET;
    const long long wm = set->wm, wn = set->wn;
    /* The rules below keep bm and bn multiples of wm and wn; a zero stays harmless here. */
    out[D_MMA_THREADS] = wm && wn ? 32 * ((long long)set->bm / wm) * ((long long)set->bn / wn) : 0;
    out[D_MMA_BLOCK] = wm * wn;
  }
  long long *wg = d + OCF_MATMUL_TILE_SETS * D_PER_SET + OCF_MATMUL_MMA_SETS * D_PER_MMA_SET;
  /* The rings of at most two consumers: where three consumers' ring is past 227 KiB the planner
     takes fewer stages for them (down to what the TMA probe ran), so that wgmma.consumers=3 in a
     database leaves a caller's bn, stages and wave_stages for two valid. */
  const long long consumers = t->wgmma.consumers > 2 ? 2 : t->wgmma.consumers;
  wg[0] = (long long)t->wgmma.stages * (64LL * consumers + t->wgmma.bn) * 128 + 1024;
  wg[1] = t->wgmma.wave_bn
              ? (long long)t->wgmma.wave_stages * (64LL * consumers + t->wgmma.wave_bn) * 128 + 1024
              : 0;
}

/* A rule that applies while tile set s is in use (its mdimc non-zero). */
#define SET_RULE(kind, x, y, n, s, why) \
  { kind, x, y, n, MM(tiled.set[s].mdimc), why }
#define SET_RULES(s)                                                                              \
  SET_RULE(OCF_RULE_AT_LEAST, MM(tiled.set[s].ndimc), 0, 1, s,                                    \
           "a set in use needs work-items along N"),                                              \
      SET_RULE(OCF_RULE_AT_LEAST, MM(tiled.set[s].mwi), 0, 1, s, "rows per work-item"),           \
      SET_RULE(OCF_RULE_AT_LEAST, MM(tiled.set[s].nwi), 0, 1, s, "columns per work-item"),        \
      SET_RULE(OCF_RULE_AT_LEAST, MM(tiled.set[s].kwg), 0, 4, s, "K slice depth"),                \
      SET_RULE(OCF_RULE_AT_LEAST, MM(tiled.set[s].vwm), 0, 1, s, "vector width"),                 \
      SET_RULE(OCF_RULE_AT_LEAST, MM(tiled.set[s].vwn), 0, 1, s, "vector width"),                 \
      SET_RULE(OCF_RULE_DIVISIBLE, MM(tiled.set[s].kwg), 0, 4, s,                                 \
               "global loads along K come in groups of 4"),                                       \
      SET_RULE(OCF_RULE_MULTIPLE_OF, MM(tiled.set[s].mwi), MM(tiled.set[s].vwm), 0, s,            \
               "a work-item's rows are whole vectors"),                                           \
      SET_RULE(OCF_RULE_MULTIPLE_OF, MM(tiled.set[s].nwi), MM(tiled.set[s].vwn), 0, s,            \
               "a work-item's columns are whole vectors"),                                        \
      SET_RULE(OCF_RULE_AT_MOST, DERIVED(s, D_WPT), 0, 256, s,                                    \
               "accumulators must fit in registers"),                                             \
      SET_RULE(OCF_RULE_DIVISIBLE, DERIVED(s, D_MWG), 0, 4, s,                                    \
               "global loads along M come in groups of 4"),                                       \
      SET_RULE(OCF_RULE_DIVISIBLE, DERIVED(s, D_NWG), 0, 4, s,                                    \
               "global loads along N come in groups of 4"),                                       \
      {OCF_RULE_DIVISIBLE, MM(tiled.set[s].pada), 0, 4, -1, "local rows stay 16-byte aligned"}, { \
    OCF_RULE_DIVISIBLE, MM(tiled.set[s].padb), 0, 4, -1, "local rows stay 16-byte aligned"        \
  }
enum { SET_RULE_COUNT = 14 };

/* cl/matmul_mma_nv.cl's own #error checks, and its registers: WM x WN accumulators take
   WM WN / 32 registers of each of the warp's work-items (128 for 64 x 64, of the 255 NVIDIA
   allows). */
#define MMA_SET_RULES(s)                                                          \
  {OCF_RULE_MULTIPLE_OF,                                                          \
   MM(mma.set[s].bm),                                                             \
   MM(mma.set[s].wm),                                                             \
   0,                                                                             \
   -1,                                                                            \
   "a matrix-unit tile is whole warp blocks"},                                    \
      {OCF_RULE_MULTIPLE_OF,                                                      \
       MM(mma.set[s].bn),                                                         \
       MM(mma.set[s].wn),                                                         \
       0,                                                                         \
       -1,                                                                        \
       "a matrix-unit tile is whole warp blocks"},                                \
      {OCF_RULE_AT_MOST,                                                          \
       DERIVED_MMA(s, D_MMA_THREADS),                                             \
       0,                                                                         \
       256,                                                                       \
       -1,                                                                        \
       "NVIDIA's OpenCL runs at most 256 work-items a workgroup of this kernel"}, \
  {                                                                               \
    OCF_RULE_AT_MOST, DERIVED_MMA(s, D_MMA_BLOCK), 0, 64 * 64, -1,                \
        "a warp's accumulators must fit in its registers"                         \
  }
enum { MMA_SET_RULE_COUNT = 4 };

static const ocf_rule matmul_rules[] = {
    /* shared */
    {OCF_RULE_AT_LEAST, MM(max_regs), 0, 32, MM(max_regs),
     "a register cap below 32 leaves no room for the accumulators"},
    /* tiled */
    SET_RULES(0),
    SET_RULES(1),
    SET_RULES(2),
    SET_RULES(3),
    /* skinny */
    {OCF_RULE_LE, MM(skinny.rl_k), MM(skinny.wg), 0, -1,
     "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_LE, MM(skinny.rl_r), MM(skinny.wg), 0, -1,
     "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_LE, MM(skinny.rl_w), MM(skinny.wg), 0, -1,
     "row lanes are a part of the skinny workgroup"},
    {OCF_RULE_DIVISIBLE, MM(skinny.split_min), 0, 4, -1,
     "skinny splits start on 4-element groups of the large operand"},
    /* mma */
    MMA_SET_RULES(0),
    MMA_SET_RULES(1),
    /* wgmma */
    {OCF_RULE_DIVISIBLE, MM(wgmma.bn), 0, 64, -1, "wgmma tiles are 128, 192 or 256 columns wide"},
    {OCF_RULE_DIVISIBLE, MM(wgmma.wave_bn), 0, 64, -1,
     "wgmma tiles are 128, 192 or 256 columns wide (wave_bn 0: none)"},
    {OCF_RULE_AT_LEAST, MM(wgmma.wave_bn), 0, 128, MM(wgmma.wave_bn),
     "wgmma tiles are 128, 192 or 256 columns wide (wave_bn 0: none)"},
    {OCF_RULE_AT_MOST, DERIVED_WG_BYTES, 0, 227 << 10, -1,
     "a Hopper workgroup has at most 227 KiB of shared memory"},
    {OCF_RULE_AT_MOST, DERIVED_WAVE_BYTES, 0, 227 << 10, -1,
     "a Hopper workgroup has at most 227 KiB of shared memory (wave_bn's ring)"},
    /* few */
    {OCF_RULE_MULTIPLE_OF, MM(few.warps), MM(few.kw), 0, -1,
     "the few-row k warps divide the workgroup's warps"},
};

enum {
  R_TILED = 1,
  R_SKINNY = R_TILED + OCF_MATMUL_TILE_SETS * SET_RULE_COUNT,
  R_MMA = R_SKINNY + 4,
  R_WGMMA = R_MMA + OCF_MATMUL_MMA_SETS * MMA_SET_RULE_COUNT,
  R_FEW = R_WGMMA + 5,
  R_END = R_FEW + 1
};
_Static_assert(OCF_ARRAY_LEN(matmul_rules) == R_END, "the families' rules are counted right");

static const ocf_tuning_family matmul_families[] = {
    {"", "shared by the tiled and skinny kernels", MM(max_regs), 1, 0, R_TILED},
    {"tiled",
     "the tiled kernels (cl/matmul.cl): four tile sets, largest first, then split-K and its sums",
     MM(tiled), OCF_TUNING_INTS(ocf_matmul_tiled_tuning), R_TILED, R_SKINNY - R_TILED},
    {"skinny", "the skinny kernels (cl/matmul_skinny.cl): C with a short side of at most 16",
     MM(skinny), OCF_TUNING_INTS(ocf_matmul_skinny_tuning), R_SKINNY, R_MMA - R_SKINNY},
    {"mma",
     "the matrix-unit kernel (cl/matmul_mma_nv.cl, NVIDIA mma.sync): two tile sets and its loop",
     MM(mma), OCF_TUNING_INTS(ocf_matmul_mma_tuning), R_MMA, R_WGMMA - R_MMA},
    {"wgmma", "Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl, compute capability 9.0)",
     MM(wgmma), OCF_TUNING_INTS(ocf_matmul_wgmma_tuning), R_WGMMA, R_FEW - R_WGMMA},
    {"few",
     "the few-row matrix-unit kernels (cl/matmul_few_mma.cl, mma.sync): 16-bit inputs, C with a "
     "short side of at most 64",
     MM(few), OCF_TUNING_INTS(ocf_matmul_few_tuning), R_FEW, R_END - R_FEW},
};

const ocf_op_schema ocf_matmul_schema = {OCF_OP_MATMUL,
                                         "matmul",
                                         matmul_tunables,
                                         MM_COUNT,
                                         matmul_derived,
                                         OCF_ARRAY_LEN(matmul_derived),
                                         matmul_derive,
                                         matmul_rules,
                                         OCF_ARRAY_LEN(matmul_rules),
                                         matmul_families,
                                         OCF_ARRAY_LEN(matmul_families)};
