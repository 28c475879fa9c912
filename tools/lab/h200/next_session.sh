#!/bin/bash
# The H200 rounds that decide what 2026-12-02's sessions built and left off, as named steps run
# in one device call under a deadline (a call may run 10 minutes):
#   source .gpu/env.sh && bash tools/lab/h200/next_session.sh STEP...      (carry .gpu)
# Each call builds once (Release, the lab on, /tmp/b; the round scripts' own build folders are
# links to it, so their builds find it done); every step is cut to what is left of DEADLINE
# seconds (default 570) after the build, at most its own cap. The steps:
#   nvidia  `ctest -L nvidia` : test_matmul_staged (the staged wgmma plans), the
#           f16_cvt PTX path (test_f16_vectors_ptx, test_norm_f16_nvidia, test_softmax_f16_nvidia),
#           test_matmul_mma and test_matmul_wgmma (cap NVIDIA_CAP, default 560 s: on the H100 on
#           2026-12-07 test_matmul_wgmma took 314 s without test_wgmma_stream_k and that one 184,
#           and the step's 300 s cut it; run it with DEADLINE 590 and nothing after it)
#   unit    `ctest -L unit` on the GPU, test_attention (attention_mma's PTX path) among them
#           (cap UNIT_CAP, default 180 s)
#   bufreg  round_bufreg.sh: whether the buffer registry's probe passes on NVIDIA, its suite
#           there, the host cost against a raw launch (issue 17's 1.5 us goal) (cap 100 s)
#   f16cvt  round_f16cvt.sh: norm and softmax fp16 under each conversion path, torch beside
#           (cap 200 s)
#   attn    round_attention_mma.sh: test_attention on the GPU (unless `unit` ran), prefill and
#           decode (decode.prefetch too) beside FA2 and cuDNN, the PTX (cap 520 s)
#   ragged  round_ragged.sh: tiled.pad_min's decision, cuBLAS beside (cap 330 s)
#   sides   round_ragged.sh on ragged_sides.txt: the built-in tiled.pad_min / pad_sides against
#           the unpadded and padded plans, cuBLAS beside, no suite (cap 300 s)
#   bench   `oclfuse bench`, the default GPU sweep with the L2 flushed before each call (cap
#           BENCH_CAP, default 150 s: it needed more on 2026-12-05, 88 of 114 rows in 140 s);
#           with PEERS_CAP (s), bench/peers.py on its JSON after it; BENCH_ARGS: more arguments
#           (`--op attention`: one op's rows)
#   peers   bench/peers.py (every row's PyTorch peers, triton.testing.do_bench) on PEERS_JSON, a
#           bench JSON of an earlier call copied into the tree (cap PEERS_CAP, default 500 s):
#           the peers of a whole sweep take longer than one call leaves after the sweep
#   widewg  round_widewg.sh: softmax and norms with rows.wide_wg 0 / 512 / 1024 (workgroups
#           beyond the size NVIDIA reports, behind a probe), torch beside (cap 300 s)
#   tune16  `oclfuse tune --sizes` for long 16-bit softmax rows (issue 19's widest gap: 0.5x
#           torch), into $OUT/<steps>/tune16 (the database, and its .progress file, which a
#           later run resumes from when copied back into OCLFUSE_TUNING_DIR) (cap 400 s)
#   wgmma   round_wgmma_tiles.sh: test_matmul_wgmma, ragged shapes, split K on few rows, cuBLAS
#           beside (cap 300 s)
#   hostcost  tools/host_cost three times: each op and its floors against a raw launch, and the
#           floors of fewer arguments (matmul's buffers alone, and with one struct) (cap 60 s)
#   tune32  `oclfuse tune --sizes` for mid-size fp32 GEMM (issue 22 item 4: 1000^3 at 0.67x
#           cuBLAS), into $OUT/<steps>/tune32 (cap 300 s)
#   attn32  round_attention_mma32.sh: test_attention on the GPU (unless `unit` ran: attention_mma
#           now runs mma_rows, not yet run on the H200), then mma.local, mma.stages, mma.rows 32,
#           mma.q_local, mma.remat against today's plan on issue 21's prefill shapes, FA2 and
#           cuDNN beside (cap 540 s). Stale since attention_wgmma: those 16-bit shapes run it,
#           whose plans ignore the mma tunables (an H100, 2026-12-07: every row the same plan)
#   fewwaves round_waves.sh: tiled.few_waves 2 against 0 on shapes of one or two waves no
#           round has timed, 3000^3 beside as a five-wave control, and tiled.rim 2 (the split
#           kernel's two bodies) on them and on three split plans, cuBLAS beside (cap 200 s)
#   pad     test_matmul_pad on the GPU: the padded copies' 16-bit path runs only there (cap 90 s)
#   normall round_normstream.sh: LayerNorm and RMSNorm, the context's plan, fp32, fp16 and bf16 on
#           issue 20's table and the wide / wider edge, torch beside (cap 300 s)
#   split16 round_softmax16_stream.sh on few long 16-bit rows: the two-kernel split's stats kernel
#           runs 1.3 waves (75 registers: docs/SOFTMAX.md); long_rows.groups_per_unit 2 makes
#           128 rows 3 parts (384 workgroups, one wave), 3 and unroll 1 beside; each call's first
#           kernel and gap; the programs' PTX into split16/programs.tgz (cap 200 s)
#   bf16loads round_softmax16_stream.sh twice: the tree, and the tree with
#           softmax_bf16_word_loads.patch (bf16 vectors loaded as whole words, as norm's are:
#           the shipped form loads a vector of 16 in four 8-byte loads), bf16 softmax of every
#           class, torch beside the first (cap 2 x 130 s)
#   long16  round_softmax16_stream.sh on the long 16-bit class: the shipped entries (split only
#           below 1.5 rows a compute unit, split_rows_pct 150; the split's kernels one vector a
#           step, split_unroll 1) against the earlier ones (bf16: unroll 2, f16: unroll 4, split
#           below 4 rows a unit) and split_rows_pct 200, torch beside (cap 240 s)
#   huge    round_softmax16_stream.sh on rows of 262147 .. 4000000 columns in every type: the
#           context's plan (softmax_coop's slices capped at long_rows.coop_unit_slices 2 a
#           compute unit) against no cap and the split (coop_spin 0, unroll 8 or split_unroll
#           1), torch beside (cap 200 s)
#   rows32  round_softmax16_stream.sh: fp32 wide rows under rows.wg 256 and bf16 medium rows
#           in vectors of 16, a vector a lane (tools/lab/softmax/run.sh found +7 % and +9 %)
#           (cap 150 s)
#   mid16   round_softmax16_stream.sh: 16-bit medium rows, ragged widths (300, 781, 1000, 1500
#           columns) and 512, in vectors of 16, 8 and 4, torch beside (rows32 found bf16's
#           vectors of 16 +10-16 % at 512-2048 columns, -13 % at 300) (cap 150 s)
#   midalign round_softmax16_stream.sh: medium rows of ragged widths (300, 781) beside the
#           nearest widths whose rows start on whole vectors (304, 320, 784), under segments of
#           32 work-items (rows.seg_align 16), 256-item groups, prefetch and vectors of 4: what
#           the 0.5x-torch.compile gap of 16-bit 300-column rows is made of (cap 200 s)
#   rowsshfl round_softmax16_stream.sh: softmax_rows with segment reductions through warp
#           shuffles (rows.shuffle 1; segments then of a power of two work-items or whole warps)
#           and without a straddling row end read whole (rows.whole_ends 0), on medium and wide
#           rows of every type, torch beside (cap 300 s)
#   bf16mid round_softmax16_stream.sh: bf16 medium rows in vectors of 16 (f16's medium entry)
#           under 3, 2 and 1 vectors a work-item before the segment grows, against the shipped
#           vectors of 8 (the sweep found +15 % at 32768 x 512), torch beside (cap 120 s)
#   aligned16 round_softmax16_stream.sh: 16-bit medium rows on whole vectors of 16 under
#           rows.aligned_vw 16 and rows.aligned_seg_items 1, 2, 3, 300 columns beside as a control
#           (bf16mid found vectors of 16, one a lane, +14-34 % on 512-2048 columns, -10 % on 768,
#           -2-10 % on ragged widths), torch beside (cap 150 s)
#   final16 round_softmax16_stream.sh: the shipped plans of 16-bit medium rows, aligned and
#           ragged, torch beside (cap 120 s)
#   wide32  round_softmax16_stream.sh: fp32 rows of 3001-30522 columns (0.82-0.97 of Triton)
#           under workgroups of 512 and 1024 a row (rows.wide_wg, behind the wide probe), and of
#           256: measured off before the warp shuffles, whose reductions of a long segment cost
#           one barrier now; Triton's kernel spreads a 16384-wide row over 512 threads (cap 150 s)
#   normragged library_norm_time: RMSNorm and LayerNorm, fp32 and bf16, 8192 rows of 4096,
#           4097, 4098 and 4100 columns (dense: rows on vectors of 2 or 4 only now move in those,
#           before element by element), torch beside (cap about 150 s)
#   softmaxgpu test_softmax_options, test_softmax and test_norm on the GPU: the warp-shuffle
#           reductions and the whole-ends reads in every layout and option (cap 150 s)
#   mixed   round_softmax16_stream.sh: f16/bf16 -> f32 and f32 -> bf16 rows under the vector
#           narrowed for a wider output, packed=0 and vw=16 beside (cap 120 s)
#   shifted round_normstream.sh: norm rows that start inside vectors (odd and 2-off strides),
#           the plan against rows.shifted=0 (vectors of 1 or 2), 1 (LayerNorm and 16-bit too)
#           and 1 with rows.merge, torch and the copy beside (cap 300 s)
#   softcfg round_softmax16_stream.sh: 16-bit 300/781-column rows in vectors of 4, fp32 rows
#           with segments up to 256, torch beside; then torch.compile's generated plan (290 s)
#   seg256  round_softmax16_stream.sh: fp32 softmax rows of 2048 to 50257 columns in segments of
#           256 against the plan's 128 (and softmax_resident past 16384), torch beside (240 s)
#   shiftptx library_norm_time and ptx_registers.sh: SHIFTED norm_rows and the aligned plans,
#           timed, with ptxas's registers, spills and stack for each program (cap 150 s)
#   longseg round_softmax16_stream.sh: long fp32 rows under rows.long_seg / rows.items against
#           both 0, torch beside (cap 200 s)
#   longseg16 the same on 16-bit rows in vectors of 16, rows.items 8 (cap 220 s)
#   sweep   norms and softmax at widths no issue names, the context's plans, torch beside
#           (cap 240 + 200 s)
#   streamodd long norm rows of odd width (vectors of 1) and LayerNorm 1024 x 20000 under
#           norm_stream's knobs and the split, torch beside (cap 300 s)
#   heldlong fp32 long norm rows held by wide norm_rows against norm_stream, torch beside
#           (cap 240 s)
#   splitshift the split SHIFTED against the split in vectors of 1 on long odd rows, torch
#           beside (cap 240 s)
#   normtest `ctest -R "test_norm$|test_softmax$"`, two at a time (cap 300 s)
#   lnsplit long odd rows that norm_rows holds in vectors of 1 (LayerNorm; RMSNorm SHIFTED)
#           against the split SHIFTED (rows.items=1 keeps norm_rows from holding them), torch
#           beside (cap 200 s)
#   lanes   attention_lanes (decode.lanes: K and V straight into registers) against the shipped
#           decode routes on few-head, GQA, many-head and long decodes, FA2 and cuDNN beside
#           (cap 300 s)
#   ahead   attention_lanes with decode.ahead (loads a step ahead) against without, FA2 and cuDNN
#           beside on two shapes (cap 200 s)
#   join    decode.join on and off (and 4 lanes a key) on decoding shapes, FA2 and cuDNN beside
#   mmajoin mma.join on and off on attention_mma_split's calls; decode.lanes 4 against 8 by heads
#   mmajoin2 the built-in mma.join=1 against 0 on more one-row decodes of heads of 64
#   joinrule decode.join with 4 or 8 lanes by key-head units, grouped heads by fill
#   joinptx ptxas's registers of attention_lanes with and without decode.join
#   checks  `ctest -L plan` and `oclfuse warmup --op matmul` on the GPU (cap 150 + 150 s)
#   attntest test_attention's tests matching ATTN_ONLY (default test_attention_split:
#           attention_lanes with shuffles among them) (cap 200 s)
#   narrow16 round_normstream.sh: 16-bit narrow rows (200 and 256 columns stay 4-8 % below
#           torch with vectors of 4) under vectors of 8 and 2, a lane each, looping, torch and
#           the copy beside (cap 240 s)
#   stream  round_stream.sh: fp32 stream-K (tiled.stream 1, 2, 2 without the register cap;
#           on every call under 99 % of its waves) against the shipped wave splits on mid and
#           small shapes, and the skinny split in one launch (skinny.join) on matrix-vector
#           products, cuBLAS beside, test_matmul_joins on the GPU, the tiled kernels'
#           registers (cap 480 s)
#   verify  the GEMM suites the 2026-12-06 changes touch (test_matmul_joins, _wgmma, _staged: the
#           TMA-fed copies on, every form named), then 16-bit medium softmax rows on whole
#           vectors of 8 only, which rows.aligned_seg_items no longer takes (the H200's medium
#           entry, named so that an H100 runs it too, against rows.seg_items=1: the plan they
#           had), torch beside (cap 540 s)
#   softbench16 `oclfuse bench` (L2 flushed before each call) and bench/peers.py on 16-bit
#           softmax rows the 2026-12-06 entries moved (narrow rows in vectors of 16, medium bf16
#           rows of whole 8-vectors one a lane), their neighbours, and fp32 beside (cap 240 s)
#   edgeclock the wgmma lab's 192-column TMA and cp.async kernels on 3072^3 and its ragged
#           neighbours with a clock in every workgroup (WG_CLOCK): do the column-edge tiles of a
#           ragged n run longer, start later, or crowd units (docs/GEMM.md, "Ragged 16-bit
#           shapes on wgmma: where the time goes"; cap 240 s)
#   bulk    attention_lanes's BULK form (decode.bulk, Hopper's bulk copies into a ring): its
#           suite on the GPU, decoding shapes under the shipped plan and four rings, the peers
#           beside (cap 520 s)
#   bulkq   bulk's short form: the suite, four shapes under two rings in each refill order
#           (decode.bulk_refill), no peers (cap 150 s)
#   tuneall the full tune in resumable slices (tools/lab/h200/tune_state in, $work/tune_state
#           out; issue 22 item 1; cap 540 s)
#   rowg    attention_lanes's row groups (decode.row_groups): the lanes suites, grouped-head
#           decoding in 1 to 8 groups of 32 to 128 work-items in the ring, the peers (cap 480 s)
#   rowgv   the row groups as shipped against one work-item a block's rows, the suites first
#           (cap 300 s)
#   pack    attention_mma with grouped heads packed (mma.pack) and key warps (mma.key_warps) in
#           key ranges against the shipped grouped decoding (attention_lanes in row groups), the
#           mma suites first (cap 520 s)
#   pack5   packed attention_mma from 5 rows a key head against attention_lanes on 5 to 7 rows
#           (cap 150 s)
#   packm   packed decoding as shipped, each call's first and last kernels timed (cap 200 s)
#   joinel  packed decoding joined in the kernel against the join kernel, attention_lanes's
#           joined plans beside (cap 200 s)
#   packkw  key warps with whole shares of a tile (2 x 64, 4 x 32 keys) beside the join kernel on
#           packed decoding (cap 200 s)
#   pack4   packed attention_mma on 4 rows a key head: ranges, stages, key warps (cap 150 s)
#   packv   grouped heads packed as shipped (mma.pack=8) against mma.pack=0 on grouped shapes no
#           round has timed, the routes' GPU suites first, the peers (cap 400 s)
#   hopperdb the H200's shipped database on another Hopper card (an H100): a second build with
#           that file's entries under this card's name, `oclfuse bench` (L2 flushed) of a shape
#           or two of every class it sets, both builds in turn, group by group (cap 560 s);
#           DBS="a=FILE b=FILE" tries other files (each a build), HOPPER_GROUPS="3 1" some
#           groups, GROUP_CAP a group's seconds a build (60). It wrote nvidia-h100.tuning.
#   fewcfg  the few-row wgmma split (bf16 128 x 8192^2 at 0.71-0.75 of cuBLAS, its split step
#           alone as long as cuBLAS's call): stages, ranges, the TMA-fed split and 128-column
#           tiles, library_gemm_time on three few-row shapes (cap 240 s)
#   mmaclock where packed decoding's split kernel spends its 26.6 us (1 x 32 (8) x 8192 on an H100,
#           the bytes alone 11 at the copy's rate): a build with tools/lab/h200/mma_clock.patch
#           (per-workgroup clocks), library_attention_time CLOCKS=1 on packed shapes, ranges a
#           unit and the in-kernel join (cap 200 s)
#   narrowsm softmax's 16-bit narrow rows (bf16 65536 x 128 at 0.76 of torch.compile, where
#           norm's rows kernel reaches 2648 GB/s on the same rows): norm's 256 work-items, whole
#           16-byte vectors a lane, vectors of 16, loops over batches with the next one loaded
#           early, torch and the copy beside (cap 200 s)
#   fewbn   few_rows GEMM shapes (split and whole K, both B layouts, f16, TF32) under the
#           built-in tiles, 128 columns in 6 and 5 stages and 192 in 5, cuBLAS beside (cap 300 s)
#   normwide fp32 norm rows of 8192 to 32768 columns: a row a workgroup, 2 and 8 a unit, 1024-wide
#           workgroups, vectors of 8, the stream, torch beside (cap 200 s)
#   fewwg   test_matmul_wgmma's split and tunables, then one consumer warpgroup on few-row
#           shapes, whole K and ranges of 512, cuBLAS beside (cap 300 s)
#   joinfix the joined split (batched loads) against the split and its reduce, 128 and 256
#           columns, on six shapes (cap 120 s)
#   packbk  packed decoding in 128-key tiles, one workgroup a unit, 3 stages of 32 keys, beside
#           attention_lanes and the packed split as shipped (cap 120 s)
#   fewcheck test_wgmma_split_k, then the few_rows shapes under the H100's database as shipped
#           and TF32 with one consumer (cap 260 s)
#   fewkin  the H100's few_rows values on another card (the H200): the built-in plan against
#           them, bf16, f16 and TF32, the suites first, cuBLAS beside (cap 500 s)
#   fewjoin few-row calls that still split, under the H100's values, with two ranges allowed
#           and joined in the launch, cuBLAS beside (cap 250 s)
#   newtests the GPU tests of 2026-12-06 not yet run there: test_wgmma_tunables (one consumer
#           in 128 columns, 6 stages) and test_staged_one_consumer (cap 200 s)
#   cluster tools/lab/cluster/cluster_probe.c, each of CLUSTER_MODES (default all five) in a
#           process of its own: whether an sm_90a kernel carrying .reqnctapercluster 2, 1, 1
#           launches as clusters through OpenCL, reads its peer's local memory and receives a
#           multicast bulk copy (2026-12-06, H100, driver 580: clusters of one) (cap 5 x 30 s)
#   rowphase 3072^3 bf16, both B layouts, with B's (then A's) rows 16, 32, 64 and 128 bytes past
#           the lines (PAD 8, 16, 32, 64 values): read in place by the TMA (wgmma.tma=2) and under
#           the built-in plan (B copied unless its rows keep 64-byte steps); tmapad (2026-12-06)
#           found rows 16 bytes off cost B 22 % and A 7 %, both 31 % (cap 150 s)
#   sectors the H100's wgmma.sector_rows (16-bit B rows on 32-byte steps read in place by the
#           TMA) through the context's values against sector_rows=0 (copied) and 1, B rows 32 bytes
#           past the lines (PAD_B 16) on 3072^3, 4096^3 and 2560 x 4096 x 4096, both layouts,
#           f16 too (cap 150 s)
#   padcopy the tree against the tree with PAD_PATCH (default tools/lab/h200/pad_batch.patch:
#           matmul_pad reading four of a work-item's vectors before it writes them) in a second
#           build: the copied 16-bit plans' first step and whole call on ragged and off-line
#           shapes, then the patched test_matmul_pad on the GPU (cap 200 s)
#   threedb a database patch (THREE_PATCH; the H100's three consumers, applied since 2026-12-06)
#           in a second build: ctest -L nvidia there (cap 260 s), then its plans against
#           wgmma.consumers=2, cuBLAS beside
#   grid    GRID_CONFIGS (";"-separated) against the context's plan on GRID_SHAPES ("dtype
#           trans_b m n k;..."), cuBLAS beside (PEERS_CAP, default 150 s)
#   gemv    matrix-vector products and their few-column kin: test_matmul_joins and
#           test_matmul_skinny on the GPU (NVIDIA joins one column since 2026-12-06), skinny.join
#           16 against the built-in 1 on 2 to 8 columns (the width to ship), then 16-bit ones
#           (the skinny class, which takes the wgmma split in 128 x 256 tiles) under the few_rows
#           class's one-consumer 128-column tiles, deeper splits, the split joined, and the
#           few-row and skinny kernels, cuBLAS beside (cap 400 s)
#   persist persistent tiles and stream-K on them (wgmma.persist 1 and 2): the context's form
#           (test_wgmma_types_layouts_shapes), test_wgmma_persistent and test_wgmma_stream_k,
#           then the forms whose test passed against the context's plan on PERSIST_SHAPES
#           (PERSIST1_CONFIGS, PERSIST2_CONFIGS override), cuBLAS beside (PEERS_CAP, 90 s)
#   skdiag  stream-K against the persistent form with the program cache on (its PTX), the
#           suite's shapes under each form 20 s each, then test_wgmma_stream_k (SKTEST_CAP)
#   sktest  test_wgmma_stream_k alone (SKTEST_CAP, default 250 s)
#   skvar   stream-K's last wave against four lab patches (at most two pieces; no reads in the
#           gather; no meeting; the reads by cp.async through the ring), each in its own build,
#           on SKVAR_SHAPES (where its ~35 us go); SKVAR_TEST=1: the cp.async form's test
#   patchgrid the tree against the tree with PATCH on PATCH_SHAPES, PATCH_TESTS in the patched
#           build first, cuBLAS beside (how the H100's persistent large plans were decided)
#   narrow16b 16-bit softmax rows of 256 columns or fewer under smaller workgroups and two
#           vectors of 16 a lane, torch beside, then Inductor's kernel for them
#   attntma attention's TMA-fed form (attention_wgmma_tma, docs/ATTENTION.md "The TMA-fed form"):
#           test_attention_wgmma on the GPU (its TMA case sets), then the card's plan against
#           wgmma.tma=1, with wgmma.tma_persist=1, and wgmma.tma=0 on issue 21's prefill shapes
#           and a grouped and a d 64 one, FA2 and cuDNN beside (the H200 has not run it; cap
#           250 + 300 s)
#   attnsplit the TMA-fed form with key ranges (TMA_SPLIT: few blocks against long keys, rule 5
#           of plan_attention_wgmma.c): test_attention_wgmma on the GPU (its split TMA case sets),
#           then the card's plan against wgmma.tma=1 wgmma.tma_split=1 (with and without
#           tma_persist) and wgmma.tma=0 (attention_wgmma_split) on split shapes and an unsplit
#           control, FA2 and cuDNN beside (cap 250 + 300 s)
#   onewave rule 2's one wave of 128-column tiles (wgmma.one_wave, docs/GEMM.md "One wave of
#           narrow tiles"): test_wgmma_three_consumers and test_wgmma_tunables, then ten calls
#           of one wave under one_wave 0 and 1, then five split-K calls against whole K in one
#           wave (wgmma.split_min=0), cuBLAS beside (cap 150 + 20 a call + 120 + 90 s)
#   splitgate rule 5's gate (wgmma.whole_k_fill, 40 in the schema: K stays whole where the
#           whole-K plan fills that percent of the units): test_wgmma_three_consumers,
#           test_wgmma_split_k, then calls of several tiles rows and columns whose one wave of
#           128-column tiles fills 24 to 97 % of the units, the gate against whole_k_fill 0
#           (the split wherever units idle), cuBLAS beside (cap 200 + 20 a call + 120 s;
#           SPLITGATE_TESTS=0: the calls alone)
#   blocklocal attention_block's tiles past 48 KiB (block.local, docs/ATTENTION.md "Larger tiles
#           for exact fp32"): test_attention's block suite on the GPU, then fp32 prefill under
#           the shipped tiles and five larger ones, SDPA beside (cap 150 + 330 + 100 s)
#   three   three consumer warpgroups (wgmma.consumers=3, 192-row tiles on the TMA-fed form):
#           test_wgmma_three_consumers, then the context's plan against THREE_CONFIGS (default
#           wgmma.consumers=3) on THREE_SHAPES, cuBLAS beside (PEERS_CAP, default 150 s)
#   clusterlab the wgmma lab's TMA kernel alone and in clusters of two sharing B by TMA multicast
#           (OCF_WG_CLUSTER 2): the lab's checks (odd tile rows among them), then CL_SHAPES
#           (aligned and ragged) under CL_VARIANTS, cuBLAS beside (cap 300 s)
#   tmapad  rows off the 128-byte lines (PAD_A, PAD_B: 8 values) on 3072^3 and 3000^3, bf16, both
#           B layouts: the built-in plan (B copied from 2560 rows), the TMA reading them in place
#           (wgmma.tma=2) and direct cp.async without the copy, cuBLAS beside (cap 200 s)
# Everything lands in $OUT/<steps>.tgz (rewritten after each step: the device tool returns only
# a few files) and a summary in $OUT/<steps>.txt. What to decide from each: docs/GEMM.md (staged
# and ragged gates), docs/NORM.md and SOFTMAX.md (f16_cvt), docs/ATTENTION.md (mma.on,
# decode.prefetch).
set -u
[ $# -gt 0 ] || { echo "usage: next_session.sh STEP... (nvidia unit bufreg f16cvt attn ragged sides bench peers widewg tune16 wgmma hostcost tune32 attn32 fewwaves pad normall split16 bf16loads narrow16 long16 huge rows32 mid16 midalign rowsshfl bf16mid aligned16 final16 wide32 normragged softmaxgpu mixed shifted softcfg shiftptx seg256 longseg longseg16 sweep streamodd heldlong splitshift normtest lnsplit lanes ahead checks mmajoin2 attntest stream narrowsm verify softbench16 edgeclock narrowsm bulk bulkq rowg rowgv tuneall pack packv pack5 packm pack4 joinel packkw hopperdb fewcfg mmaclock fewbn normwide fewwg packbk joinfix fewcheck fewkin fewjoin newtests cluster tmapad clusterlab rowphase sectors padcopy three threedb grid gemv persist skdiag sktest skvar patchgrid narrow16b attntma attnsplit onewave blocklocal splitgate)"; exit 2; }
name=$(echo "$*" | tr ' ' '-')
out=${OUT:-/tmp/next}
work=$out/$name
mkdir -p "$work"
summary=$out/$name.txt
deadline=${DEADLINE:-570}
start=$SECONDS
exec > >(tee "$summary") 2>&1

b=/tmp/b
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON -DOCLFUSE_BUILD_LAB=ON \
  >"$work/build.txt" 2>&1 && cmake --build $b -j16 >>"$work/build.txt" 2>&1 ||
  { tail -40 "$work/build.txt"; exit 1; }
for link in b_f16cvt b_attnmma b_ragged b_bufreg b_round_widewg b_attn32; do [ -e /tmp/$link ] || ln -s $b /tmp/$link; done
echo "built at $((SECONDS - start)) s"

# The seconds a step may run: its cap, or what is left before the deadline (20 s kept: 10 for
# the archive, 10 for `timeout -k 10` to kill a step that ignores its TERM, so that one stuck
# step does not take the call past the device's limit), whichever is less.
budget() {
  local left=$((deadline - (SECONDS - start) - 20))
  [ "$left" -lt 1 ] && left=1 # timeout 0 would mean no limit at all
  [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}

# A fresh copy of the tree (without .gpu and build/) in DIR, for a build that differs from
# /tmp/b by a patch or a file:
#   tree_copy DIR
tree_copy() {
  rm -rf "$1" && mkdir -p "$1" && tar --exclude=./.gpu --exclude=./build -cf - . | tar -xf - -C "$1"
}

# The tree with PATCH applied, built in DIR/b (Release; JOBS parallel, default 16) for TARGETS
# (default everything), and library_gemm_time linked to it as DIR/b/lgt; the build's log in LOG
# (default DIR/build.txt), whose end is printed on a failure (status 1):
#   patched_build DIR PATCH [TARGET...]
patched_build() {
  local dir=$1 patch=$2 log=${LOG:-$1/build.txt}
  shift 2
  local targets=()
  [ $# -eq 0 ] || targets=(--target "$@")
  tree_copy "$dir" && (cd "$dir" && patch -p1 -s <"$patch") &&
    cmake -S "$dir" -B "$dir/b" -DCMAKE_BUILD_TYPE=Release >"$log" 2>&1 &&
    cmake --build "$dir/b" -j"${JOBS:-16}" ${targets[@]+"${targets[@]}"} >>"$log" 2>&1 &&
    cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L"$dir/b" -loclfuse -lOpenCL \
      -lm -Wl,-rpath,"$dir/b" -o "$dir/b/lgt" || { echo "$patch: no build"; tail -5 "$log"; return 1; }
}

# One round_softmax16_stream.sh round into $work/NAME, cut to CAP seconds of which KEEP are left
# to torch, then its table (a line a config and shape, torch's lines):
#   softmax_round NAME CAP KEEP "rows cols dtype;..." "auto;config;..."
softmax_round() {
  OUT=$work/$1 BUDGET=$(($(budget "$2") - $3)) SHAPES=$4 CONFIGS=$5 \
    timeout -k 10 "$(budget "$2")" bash tools/lab/h200/round_softmax16_stream.sh >/dev/null 2>&1
  awk -F'\t' 'NF > 15 {print $1, $2, $3, $4, $6, $8, $14, $15, $7, substr($13, 1, 60)} /^softmax /' \
    "$work/$1/round.txt"
}

# test_attention's suites, each alone into $work/SUITE.txt, cut to CAP seconds each, a line of
# each's end (its failures, its exit status):
#   attention_suites CAP SUITE...
attention_suites() {
  local cap=$1 suite
  shift
  for suite in "$@"; do
    (cd $b && OCFT_ONLY=$suite timeout "$(budget "$cap")" tests/test_attention \
      >"$work/$suite.txt" 2>&1; echo "exit $?" >>"$work/$suite.txt")
    echo "$suite: $(grep -v '^\[ *\(RUN\|OK\) ' "$work/$suite.txt" | tail -4 | tr '\n' ' ')"
  done
}

# Appends to CASES (round_attention_default.sh's case lines, "dtype b h h_kv lq lk d [tune]")
# every shape argument under every entry of the array CONFIGS ("" the shipped plan, else the
# tune= settings), a shape's lines together:
#   CONFIGS=("" "decode.bulk=1"); decode_cases "bf16 1 32 8 1 8192 128" ...
decode_cases() {
  local shape config
  for shape in "$@"; do
    for config in "${CONFIGS[@]}"; do
      if [ -z "$config" ]; then
        CASES+="$shape"$'\n'
      else
        CASES+="$shape \"tune=$config\""$'\n'
      fi
    done
  done
}

# One round_attention_default.sh round of CASES, no peers, into $work/NAME, cut to CAP seconds,
# then its lines cut to WIDTH characters (300):
#   decode_round NAME CAP [WIDTH]
decode_round() {
  CASES=$CASES PEERS="" OUT=$work/$1 timeout -k 10 "$(budget "$2")" \
    bash tools/lab/h200/round_attention_default.sh >/dev/null 2>&1
  cut -c1-"${3:-300}" "$work/$1/round.txt"
}

# One round_normstream.sh round into $work/NAME, cut to CAP seconds, then its table (GB/s, a
# column a config, torch's best and the copy beside):
#   norm_round NAME CAP "dtype ..." "kind ..." "rows cols;..." "label=tuning;..."
norm_round() {
  B=$b OUT=$work/$1 DTYPES=$3 KINDS=$4 SHAPES=$5 CONFIGS=$6 \
    timeout -k 10 "$(budget "$2")" bash tools/lab/h200/round_normstream.sh 2>&1 | grep -A60 "op dtype"
}

# One round_attention_default.sh round of $CASES into $work/NAME, cut to CAP seconds, peers
# (SDPA's backends) on PEERS, then its lines without the plans' kernels (their options kept),
# WIDTH (default 200) characters each:
#   CASES=... attention_round NAME CAP "b x h x lq x lk x d:dtype ..." [WIDTH]
attention_round() {
  CASES=$CASES PEERS=$3 OUT=$work/$1 timeout -k 10 "$(budget "$2")" \
    bash tools/lab/h200/round_attention_default.sh >/dev/null 2>&1
  sed 's/plan:.*(/(/' "$work/$1/round.txt" | cut -c1-"${4:-200}"
}

# test_attention_wgmma on the GPU (cut to 250 s), then round_attention_wgmma.sh's CONFIGS
# (';'-separated label=tuning) on SHAPES (its lines) into $work/NAME, FA2 and cuDNN beside (cut
# to 300 s), its last lines:
#   wgmma_attention_round NAME CONFIGS SHAPES
wgmma_attention_round() {
  (cd $b && OCFT_ONLY=test_attention_wgmma OCLFUSE_TEST_DEVICE=NVIDIA timeout -k 5 \
    "$(budget 250)" tests/test_attention >"$work/$1_test.txt" 2>&1
    echo "test_attention_wgmma rc $?")
  tail -4 "$work/$1_test.txt"
  SUITES='' BUDGET=$(($(budget 300) - 110)) OUT=$work/$1 CONFIGS=$2 SHAPES=$3 \
    timeout -k 10 "$(budget 300)" bash tools/lab/h200/round_attention_wgmma.sh >"$work/$1.txt" 2>&1
  cut -c1-200 "$work/$1.txt" | tail -40
}

# Every shape of SHAPES (library_gemm_time's words, ';'-separated) under every tuning of
# CONFIGS (';'-separated; an empty one: the context's own values), a line each, then cuBLAS on
# the shapes (gemm_peers.py) within PEERS_CAP seconds (0 or none: no peers):
#   gemm_grid "bf16 1 128 8192 8192;tf32 1 64 8192 8192" ";wgmma.bn=128 wgmma.stages=6" [PEERS_CAP]
gemm_grid() {
  local grid_shapes grid_configs shape config
  [ -x $b/lgt ] || cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse \
    -lOpenCL -lm -Wl,-rpath,$b -o $b/lgt || return 1
  IFS=';' read -r -a grid_shapes <<<"$1"
  IFS=';' read -r -a grid_configs <<<"$2"
  [ ${#grid_configs[@]} -gt 0 ] || grid_configs=("") # "": the context's values alone
  : >"$work/shapes.txt"
  for shape in "${grid_shapes[@]}"; do
    echo "$shape" >>"$work/shapes.txt"
    for config in "${grid_configs[@]}"; do
      # shellcheck disable=SC2086
      echo "[$config] $(timeout -k 2 "$(budget 20)" $b/lgt $shape ${config:+"$config"} 2>&1 |
        tr '\n' ' ' | cut -c1-200)"
    done
  done
  if [ "${3:-0}" -gt 0 ]; then
    timeout -k 5 "$(budget "$3")" python3 tools/lab/h200/gemm_peers.py "$work/shapes.txt" 2>&1
  fi
}

# test_matmul_wgmma's tests of the names given, each alone within CAP seconds, into
# $work/wgmma_test.txt, and the end of it:
#   wgmma_tests CAP test_wgmma_split_k ...
wgmma_tests() {
  local cap=$1 t
  shift
  for t in "$@"; do
    (cd $b && OCFT_ONLY=$t timeout -k 5 "$(budget "$cap")" tests/test_matmul_wgmma \
      >>"$work/wgmma_test.txt" 2>&1; echo "$t exit $?" >>"$work/wgmma_test.txt")
  done
  grep -v '^\[ *\(RUN\|OK\) ' "$work/wgmma_test.txt" | tail -8
}

for step in "$@"; do
  t=$(budget 600)
  if [ "$t" -lt 20 ]; then echo "== $step: out of time"; continue; fi
  echo "== $step at $((SECONDS - start)) s"
  case $step in
  nvidia)
    (cd $b && timeout -k 10 "$(budget "${NVIDIA_CAP:-560}")" ctest -L nvidia -j4 --output-on-failure \
      >"$work/nvidia.txt" 2>&1)
    echo "nvidia suites rc $?"
    grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/nvidia.txt" | head -20
    ;;
  unit)
    (cd $b && timeout -k 10 "$(budget ${UNIT_CAP:-180})" ctest -L unit -j8 \
      --timeout $((${UNIT_CAP:-180} - 10)) --output-on-failure >"$work/unit.txt" 2>&1)
    echo "unit suites rc $?"
    grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/unit.txt" | head -20
    ;;
  bufreg)
    OUT=$work/bufreg timeout -k 10 "$(budget 100)" bash tools/lab/h200/round_bufreg.sh \
      >"$work/bufreg.txt" 2>&1
    tail -40 "$work/bufreg.txt"
    ;;
  f16cvt)
    OUT=$work/f16cvt timeout -k 10 "$(budget 200)" bash tools/lab/h200/round_f16cvt.sh >/dev/null 2>&1
    tail -40 "$work/f16cvt/f16cvt.txt" 2>/dev/null
    ;;
  attn)
    suites='^(test_attention|test_matmul_mma)$'
    case " $* " in *" nvidia "*) suites='^test_attention$' ;; esac
    case " $* " in *" unit "*) suites= ;; esac
    SUITES=$suites OUT=$work/attnmma timeout -k 10 "$(budget 520)" bash tools/lab/h200/round_attention_mma.sh \
      >"$work/attnmma.txt" 2>&1
    tail -60 "$work/attnmma.txt"
    ;;
  ragged)
    OUT=$work/ragged timeout -k 10 "$(budget 330)" bash tools/lab/h200/round_ragged.sh \
      >"$work/ragged.txt" 2>&1
    tail -50 "$work/ragged.txt"
    ;;
  sides)
    OUT=$work/sides SHAPES=tools/lab/h200/ragged_sides.txt \
      COLS="mixed_rim padded_rim aligned default" SUITE=0 \
      timeout -k 10 "$(budget 300)" bash tools/lab/h200/round_ragged.sh >"$work/sides.txt" 2>&1
    tail -30 "$work/sides.txt"
    ;;
  bench)
    # shellcheck disable=SC2086
    timeout -k 10 "$(budget ${BENCH_CAP:-150})" $b/bench/oclfuse bench --format json ${BENCH_ARGS:-} \
      >"$work/bench.json" 2>"$work/bench.err"
    echo "bench rc $?"
    # PEERS_CAP > 0: bench/peers.py on the run (softmax against torch and torch.compile, matmul
    # against cuBLAS), the table into peers.tsv.
    if [ "${PEERS_CAP:-0}" -gt 0 ] && [ -s "$work/bench.json" ]; then
      timeout -k 10 "$(budget $PEERS_CAP)" python3 bench/peers.py --bench "$work/bench.json" \
        --budget $((PEERS_CAP - 20)) --out "$work/peers.tsv" >"$work/peers.txt" 2>&1
      echo "peers rc $?"
      cut -c1-160 "$work/peers.txt" | tail -40
    fi
    ;;
  peers)
    [ -s "${PEERS_JSON:-}" ] || { echo "peers: PEERS_JSON names no bench JSON"; continue; }
    timeout -k 10 "$(budget ${PEERS_CAP:-500})" python3 bench/peers.py --bench "$PEERS_JSON" \
      --budget $(($(budget ${PEERS_CAP:-500}) - 30)) --out "$work/peers.tsv" >"$work/peers.txt" 2>&1
    echo "peers rc $?"
    cut -c1-160 "$work/peers.txt" | tail -60
    ;;
  widewg)
    OUT=$work/widewg timeout -k 10 "$(budget 300)" bash tools/lab/h200/round_widewg.sh \
      >"$work/widewg.txt" 2>&1
    tail -50 "$work/widewg.txt"
    ;;
  tune16)
    mkdir -p "$work/tune16"
    OCLFUSE_TUNING_DIR=$work/tune16 timeout -k 10 "$(budget 400)" $b/bench/oclfuse tune \
      --budget "$(($(budget 400) - 20))" --sizes \
      'softmax:512x50257:bf16;softmax:1024x65536:bf16;softmax:256x128256:bf16;softmax:512x50257:f16;softmax:1024x65536:f16;softmax:256x128256:f16' \
      >"$work/tune16/tune.txt" 2>"$work/tune16/tune.err"
    echo "tune rc $?"
    tail -20 "$work/tune16/tune.txt"
    rm -rf "$work/tune16/programs"
    ;;
  tuneall)
    # issue 22 item 1, the full tune (every op, class and dtype), in slices that resume: the
    # tuning folder starts as tools/lab/h200/tune_state (the last slice's files, copied there
    # from its $OUT/<steps>/tune_state by hand: each device's database and its .progress),
    # `oclfuse tune` runs to the cap, and the folder goes back in $work/tune_state without its
    # program cache (cap 540 s)
    mkdir -p "$work/tune_state"
    if [ -d tools/lab/h200/tune_state ]; then cp -r tools/lab/h200/tune_state/. "$work/tune_state/"; fi
    OCLFUSE_TUNING_DIR=$work/tune_state timeout -k 10 "$(budget 540)" $b/bench/oclfuse tune \
      --budget "$(($(budget 540) - 30))" >"$work/tune_state.txt" 2>"$work/tune_state.err"
    echo "tune rc $?"
    tail -40 "$work/tune_state.txt"
    rm -rf "$work/tune_state/programs"
    ;;
  wgmma)
    B=$b OUT=$work/wgmma timeout -k 10 "$(budget 300)" bash tools/lab/h200/round_wgmma_tiles.sh \
      >"$work/wgmma.txt" 2>&1
    grep -v "^cuBLAS" "$work/wgmma.txt" | cut -c1-130 | tail -50
    grep "^cuBLAS" "$work/wgmma.txt"
    ;;
  hostcost)
    for i in 1 2 3; do
      timeout -k 10 "$(budget 20)" $b/tools/host_cost/oclfuse_host_cost --calls 20000
    done >"$work/hostcost.txt" 2>&1
    grep -E "^(raw|floor|ocf_)" "$work/hostcost.txt" | head -40
    ;;
  tune32)
    mkdir -p "$work/tune32"
    OCLFUSE_TUNING_DIR=$work/tune32 timeout -k 10 "$(budget 300)" $b/bench/oclfuse tune \
      --budget "$(($(budget 300) - 20))" --sizes \
      'matmul:1000x1000x1000;matmul:1536x1536x1536;matmul:2000x2000x2000;matmul:1024x1024x1024' \
      >"$work/tune32/tune.txt" 2>"$work/tune32/tune.err"
    echo "tune rc $?"
    tail -20 "$work/tune32/tune.txt"
    rm -rf "$work/tune32/programs"
    ;;
  attn32)
    suites='^test_attention$'
    case " $* " in *" unit "*) suites= ;; esac
    SUITES=$suites OUT=$work/attn32 timeout -k 10 "$(budget 540)" bash tools/lab/h200/round_attention_mma32.sh \
      >"$work/attn32.txt" 2>&1
    tail -70 "$work/attn32.txt"
    ;;
  fewwaves)
    B=$b OUT=$work/fewwaves CONFIGS="few2=;few0=tiled.few_waves=0;rim2=tiled.rim=2" SHAPES="1600 1600 1600
1024 1024 2048
256 256 4096
1500 1500 1500
1900 1900 1900
1450 1550 1500
1700 1500 2000
1200 1800 1800
1300 1700 1500
700 700 2800
3000 3000 3000" timeout -k 10 "$(budget 200)" bash tools/lab/h200/round_waves.sh >/dev/null 2>&1
    awk '/^RESULT/{printf "%s %s %s %s %s %s\n",$2,$5,$6,$7,$13,$14}' "$work/fewwaves/times.txt"
    awk '{print $4,$5,$6,$9}' "$work/fewwaves/peers.txt"
    ;;
  pad)
    (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout -k 10 "$(budget 90)" ctest -R '^test_matmul_pad$' \
      --output-on-failure >"$work/pad.txt" 2>&1)
    echo "test_matmul_pad rc $?"
    grep -E "tests passed|Failed|\*\*\*" "$work/pad.txt" | head -5
    ;;
  normall)
    norm_round normall 300 "f32 f16 bf16" "rms layer" \
      "8192 4096;32768 1024;1024 16384;4096 8192;2048 12288" "auto="
    ;;
  split16)
    softmax_round split16 200 60 \
      "128 152064 bf16;64 262144 bf16;96 128256 bf16;128 152064 f16;256 100003 f16;512 50257 bf16" \
      "auto;long_rows.groups_per_unit=2;long_rows.groups_per_unit=3;long_rows.unroll=1"
    # the programs' PTX, for tools/lab/h200/ptx_registers.sh on the host
    tar czf "$work/split16/programs.tgz" -C /tmp/occ_s16 programs 2>/dev/null
    ;;
  bf16loads)
    # the tree against the tree with softmax_bf16_word_loads.patch (LOADA_2 through
    # bf16_words_load: whole words, as norm loads them), bf16 softmax across the classes
    words=/tmp/bf16loads_src
    tree_copy "$words"
    (cd "$words" && patch -s -p1 <tools/lab/h200/softmax_bf16_word_loads.patch) || echo "patch failed"
    shapes="128 152064 bf16;64 262144 bf16;512 50257 bf16;1024 65536 bf16;4096 16384 bf16;4096 4096 bf16;8192 1024 bf16;32768 512 bf16"
    for v in tree words; do
      src=. peers=1
      if [ $v = words ]; then src=$words peers=0; fi
      (cd "$src" && OUT=$work/bf16loads_$v BUILD=/tmp/b_s16_$v PEERS=$peers CONFIGS=auto SHAPES="$shapes" \
        BUDGET=60 timeout -k 10 "$(budget 130)" bash tools/lab/h200/round_softmax16_stream.sh >/dev/null 2>&1)
      awk -F'\t' -v v=$v 'NF > 15 && $1 != "rows" {print v, $1, $2, $3, $6, $8, $14, $15, $7, substr($13, 1, 50)} /^softmax /' \
        "$work/bf16loads_$v/round.txt"
    done
    ;;
  long16)
    softmax_round long16 240 60 \
      "128 152064 bf16;64 262144 bf16;96 128256 bf16;32 250000 bf16;160 131072 bf16;200 100000 bf16;256 100003 bf16;512 50257 bf16;1024 65536 bf16;2048 32768 bf16;128 152064 f16;160 131072 f16;256 100003 f16;1024 65536 f16" \
      "auto;long_rows.split_unroll=0 long_rows.split_rows_pct=0;long_rows.unroll=4 long_rows.split_unroll=0 long_rows.split_rows_pct=0;long_rows.split_rows_pct=200"
    ;;
  huge)
    softmax_round huge 200 50 \
      "1 4000000 f32;8 4000000 f32;16 1000003 f32;64 262147 f32;2 2000000 f32;1 4000000 bf16;8 4000000 bf16;16 1000003 bf16;64 262147 bf16;8 4000000 f16;16 1000003 f16" \
      "auto;long_rows.coop_unit_slices=0;long_rows.coop_spin=0 long_rows.unroll=8;long_rows.coop_spin=0;long_rows.coop_spin=0 long_rows.split_unroll=1"
    ;;
  rows32)
    softmax_round rows32 150 50 \
      "4096 16384 f32;2048 12345 f32;4096 8192 f32;8192 3001 f32;4096 5000 f32;8192 4096 f32;32768 512 bf16;16384 1024 bf16;8192 2048 bf16;65536 300 bf16" \
      "auto;rows.wg=256;vw=16 long_rows.items=8 rows.wg=128 rows.seg_items=1 rows.max_seg=128 rows.seg_align=32"
    ;;
  mid16)
    softmax_round mid16 150 50 \
      "65536 300 bf16;65536 300 f16;30000 781 bf16;30000 781 f16;16384 1000 bf16;8192 1500 f16;32768 512 f16" \
      "auto;vw=16 rows.seg_items=1;vw=8 rows.seg_items=2;vw=4 rows.seg_items=4"
    ;;
  midalign)
    softmax_round midalign 200 50 \
      "65536 300 bf16;65536 304 bf16;65536 320 bf16;65536 300 f16;30000 781 bf16;30000 784 bf16;30000 781 f32;30000 784 f32" \
      "auto;rows.seg_align=16;rows.seg_align=16 rows.wg=256;rows.prefetch=1;vw=4 rows.seg_items=4 rows.seg_align=16"
    ;;
  rowsshfl)
    softmax_round rowsshfl 300 60 \
      "65536 300 bf16;65536 300 f16;65536 304 bf16;30000 781 bf16;30000 781 f16;30000 781 f32;16384 1000 bf16;8192 1500 f16;32768 512 f16;32768 512 f32;4096 4096 f32;4096 4096 bf16;8192 3001 f32;2048 12345 f32;4096 16384 f32" \
      "auto;rows.whole_ends=0;rows.shuffle=1;rows.shuffle=1 rows.whole_ends=0;rows.shuffle=1 rows.seg_items=3;rows.shuffle=1 rows.seg_items=3 rows.whole_ends=0;rows.shuffle=1 vw=4 rows.seg_items=4 rows.whole_ends=0"
    ;;
  bf16mid)
    softmax_round bf16mid 120 40 \
      "65536 300 bf16;30000 781 bf16;16384 1000 bf16;8192 1500 bf16;32768 512 bf16;16384 1024 bf16;8192 2048 bf16" \
      "auto;vw=16;vw=16 rows.seg_items=1;vw=16 rows.seg_items=2"
    ;;
  aligned16)
    softmax_round aligned16 150 40 \
      "32768 512 bf16;16384 640 bf16;16384 768 bf16;16384 1024 bf16;8192 1280 bf16;8192 1536 bf16;8192 2048 bf16;32768 512 f16;16384 640 f16;16384 768 f16;16384 1024 f16;8192 1280 f16;8192 1536 f16;8192 2048 f16;65536 300 bf16" \
      "auto;rows.aligned_vw=16 rows.aligned_seg_items=1;rows.aligned_vw=16 rows.aligned_seg_items=2;rows.aligned_vw=16 rows.aligned_seg_items=3"
    ;;
  final16)
    softmax_round final16 120 40 \
      "65536 300 bf16;32768 512 bf16;16384 640 bf16;16384 768 bf16;30000 781 bf16;16384 1000 bf16;16384 1024 bf16;8192 1536 bf16;8192 2048 bf16;65536 300 f16;32768 512 f16;16384 768 f16;30000 781 f16;16384 1024 f16;8192 1500 f16;8192 2048 f16" \
      "auto"
    ;;
  wide32)
    softmax_round wide32 150 40 \
      "2048 12345 f32;4096 16384 f32;4096 5000 f32;4096 4096 f32;8192 3001 f32;1024 30522 f32" \
      "auto;rows.wide_wg=512;rows.wide_wg=1024;rows.wg=256 rows.max_seg=256;rows.wg=256"
    ;;
  normragged)
    # Dense rows whose width sits on vectors of 2 or 4 only (ld = cols): vectors of 2 (4098
    # fp32, 4098 bf16) and of 4 (4100 bf16) since 2026-12-04, element by element before (as
    # 4097 still is), beside 4096; torch beside.
    cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L$b -loclfuse -lOpenCL -lm \
      -Wl,-rpath,$b -o /tmp/norm_time_ragged || echo "normragged: no build"
    for op in rms layer; do
      for dt in f32 bf16; do
        for c in 4096 4097 4098 4100; do
          timeout -k 10 "$(budget 30)" env OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_ragged \
            /tmp/norm_time_ragged $op $dt 8192 $c "" 2>&1 | grep "^norm" | cut -c1-150
        done
      done
    done
    timeout -k 10 "$(budget 60)" python3 tools/lab/h200/norm_peers.py 8192x4096:f32 8192x4098:f32 \
      8192x4096:bf16 8192x4098:bf16 2>&1 | tail -8
    ;;
  softmaxgpu)
    (cd $b && timeout -k 10 "$(budget 150)" ctest -R "test_softmax_options|test_softmax$|test_norm$" -j3 \
      --output-on-failure >"$work/softmaxgpu.txt" 2>&1)
    echo "softmax suites rc $?"
    grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/softmaxgpu.txt" | head -20
    ;;
  mixed)
    softmax_round mixed 120 40 \
      "4096 4096 f16 f32;4096 4096 f16;8192 1024 bf16 f32;2048 12345 f16 f32;4096 4096 f32 bf16;30000 781 bf16 f32" \
      "auto;packed=0;vw=16"
    ;;
  narrow16)
    norm_round narrow16 240 "bf16 f16" "rms layer" "65536 128;16384 256;32768 200;131072 64" \
      "auto=;v8s1w128=vw=8 rows.seg_items=1 rows.wg=128;v4s1=vw=4 rows.seg_items=1;g4=rows.groups_per_unit=4 rows.prefetch=1;v2s4=vw=2 rows.seg_items=4"
    ;;
  shifted)
    # Norm rows that start inside vectors (rows.shifted, SHIFTED): odd and 2-off strides in the
    # buffer's vectors, against rows.shifted=0 (vectors of 1 or 2), aligned 4096 beside.
    norm_round shifted 300 "${SHIFT_DTYPES:-f32 bf16}" "${SHIFT_KINDS:-rms layer}" \
      "${SHIFT_SHAPES:-8192 4096;8192 4097;8192 4098;4096 8191;32768 1023;65536 201;1024 16385}" \
      "${SHIFT_CONFIGS:-auto=;noshift=rows.shifted=0;both=rows.shifted=1;merge=rows.shifted=1 rows.merge=1}"
    ;;
  softcfg)
    # 16-bit narrow rows: vectors of 4 (8 bytes: 300-column rows all start on one) in segments
    # of 16 and 32; fp32 mid rows with segments of up to 256; torch beside; then Inductor's plan.
    softmax_round softcfg 200 60 \
      "65536 300 bf16;65536 300 f16;30000 781 bf16;4096 4096 f32;1024 30522 f32;16384 2048 f32;8192 6000 f32" \
      "auto;vw=4 rows.seg_items=3 rows.whole_ends=0;vw=4 rows.seg_items=6 rows.whole_ends=0;rows.max_seg=256;rows.max_seg=256 rows.wg=256"
    timeout -k 10 "$(budget 90)" python3 tools/lab/softmax/inductor_code.py 65536x300:bf16 \
      30000x781:bf16 4096x4096:f32 >"$work/inductor.txt" 2>&1
    grep -E "====|num_warps|XBLOCK|RBLOCK|R0_BLOCK|launch|reduction_hint|persistent" \
      "$work/inductor.txt" | head -60
    ;;
  shiftptx)
    # The SHIFTED norm_rows programs beside the aligned ones, timed, then ptxas's registers for
    # each (ptx_registers.sh, with the ptxas Triton ships), the programs in $work/programs.tgz.
    cc -std=c11 -O2 -Iinclude tools/lab/h200/library_norm_time.c -L$b -loclfuse -lOpenCL -lm \
      -Wl,-rpath,$b -o /tmp/norm_time_ptx || echo "shiftptx: no build"
    rm -rf /tmp/occ_ptx
    for run in "layer f32 8192 4097" "rms f32 8192 4098" "rms bf16 4096 8191" "layer bf16 32768 1023"; do
      for cfg in "" "rows.shifted=0"; do
        timeout -k 10 "$(budget 30)" env OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/occ_ptx \
          /tmp/norm_time_ptx $run "$cfg" 2>&1 | grep "^norm" | cut -c1-200
      done
    done
    tar czf "$work/programs.tgz" -C /tmp/occ_ptx programs 2>/dev/null
    ptxas=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))' 2>/dev/null)
    timeout -k 10 "$(budget 60)" bash tools/lab/h200/ptx_registers.sh /tmp/occ_ptx/programs "$ptxas"
    ;;
  seg256)
    # fp32 softmax rows in segments of 256 across the widths around the two shapes where they
    # won (4096 columns: 4 vectors a work-item; 30522: held by softmax_rows, not resident) and
    # lost (5000 and up), torch beside: is there a class rule?
    softmax_round seg256 240 60 \
      "8192 2048 f32;4096 3072 f32;4096 4096 f32;4096 4500 f32;1024 16500 f32;1024 20000 f32;1024 24576 f32;1024 30522 f32;1024 32768 f32;512 50257 f32" \
      "auto;rows.max_seg=256 rows.wg=256"
    ;;
  longseg)
    # Long fp32 softmax rows in segments of up to 256 (rows.long_seg, rows.items 32: the H200's
    # long class) against the plans before (both 0: softmax_rows 48 a work-item, or resident).
    softmax_round longseg 200 60 \
      "1024 16500 f32;1024 20000 f32;4096 20000 f32;1024 30522 f32;2048 32768 f32;1024 32769 f32;512 50257 f32;4096 16384 f32" \
      "auto;rows.long_seg=0 rows.items=0"
    ;;
  longseg16)
    # The same for 16-bit rows (vectors of 16, rows.items 8: 128 values a work-item), both off in
    # the shipped 16-bit entries.
    softmax_round longseg16 220 70 \
      "1024 16500 bf16;1024 20000 bf16;4096 20000 bf16;1024 30522 bf16;2048 32768 bf16;1024 20000 f16;1024 30522 f16;2048 32768 f16" \
      "auto;rows.long_seg=256 rows.items=8"
    ;;
  sweep)
    # Widths no issue names, to find holes like the long fp32 softmax rows' (seg256): norms
    # (fp32, bf16; both ops) and softmax (fp32, 16-bit) under the context's plans, torch beside.
    norm_round normsweep 240 "f32 bf16" "rms layer" \
      "4096 3072;4096 5000;2048 10000;1024 12288;1024 20000;512 30000;512 50257;256 100000" "auto="
    softmax_round sweep 200 70 \
      "2048 3000 f32;4096 5000 f32;2048 10000 f32;256 20000 f32;8192 20000 f32;256 32768 f32;2048 3000 bf16;4096 5000 bf16;2048 10000 bf16;1024 20000 bf16;256 50257 bf16;4096 5000 f16" \
      "auto"
    ;;
  streamodd)
    # Long norm rows the sweep found slow: odd widths stream in vectors of 1 (512 x 50257 fp32
    # RMSNorm 1058 GB/s, LayerNorm 641, against torch.compile 2020 / 1819), and LayerNorm 1024 x
    # 20000 (2268 against 2604): norm_stream's knobs, and no stream (the split), torch beside.
    norm_round streamodd 300 "f32 bf16" "rms layer" "512 50257;1024 20000;256 100001" \
      "auto=;s512=stream.wg=512;s256=stream.wg=256;u1=stream.unroll=1;g2=stream.groups_per_unit=2;nost=stream.min_cols=0"
    grep "^norm" "$work/streamodd/raw.txt" | grep -E "\[(stream.min_cols=0)?\]" | cut -c1-170
    ;;
  heldlong)
    # fp32 long norm rows that norm_rows holds (wide, 512 work-items) against norm_stream (the
    # long class's plan), 256 x 65536 (not held) as the control; odd widths (vectors of 1: now
    # the split) beside; torch beside.
    norm_round heldlong 240 "f32" "rms layer" \
      "1024 16400;1024 24576;1024 32768;4096 20000;2048 24000;256 65536;512 50257;1024 16385" \
      "auto=;held=stream.min_cols=0"
    grep "^norm" "$work/heldlong/raw.txt" | cut -c1-150
    ;;
  splitshift)
    # The split SHIFTED (split.shifted, off on NVIDIA until timed) on long rows of odd width,
    # which take the split in vectors of 1 today; test_norm's SHIFTED cases forced on after.
    norm_round splitshift 240 "f32 bf16" "rms layer" \
      "512 50257;256 100001;1024 16385;64 262147;4096 12289" "auto=;shift=split.shifted=1"
    grep "^norm" "$work/splitshift/raw.txt" | cut -c1-150
    ;;
  normtest)
    (cd $b && timeout -k 10 "$(budget 300)" ctest -R "test_norm$|test_softmax$" -j2 --output-on-failure \
      >"$work/normtest.txt" 2>&1)
    echo "test_norm, test_softmax rc $?"
    grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*|FAILED|Total Test" "$work/normtest.txt" | head -20
    ;;
  lnsplit)
    norm_round lnsplit 200 "f32 bf16" "layer rms" \
      "1024 16385;4096 12289;2048 8191" "auto=;split=rows.items=1 rows.seg_items=1"
    grep "^norm" "$work/lnsplit/raw.txt" | cut -c1-150
    ;;
  lanes)
    # LANES_CASES replaces the list; LANES_PEERS (attention_peers.py's arguments) adds peers.
    CASES=${LANES_CASES:-$(cat <<'SHAPES'
bf16 1 32 32 1 8192 128
bf16 1 32 32 1 8192 128 "tune=decode.lanes=8 decode.unroll=2"
bf16 1 32 32 1 8192 128 "tune=decode.lanes=8 decode.unroll=4"
bf16 1 32 32 1 8192 128 "tune=decode.lanes=4 decode.unroll=2"
bf16 1 32 32 1 8192 128 "tune=decode.lanes=4 decode.unroll=4"
bf16 1 32 32 1 8192 128 "tune=decode.lanes=8 decode.unroll=4 decode.wg=256"
bf16 1 32 32 1 8192 128 "tune=decode.lanes=4 decode.unroll=2 decode.fill=8"
bf16 1 32 8 1 8192 128
bf16 1 32 8 1 8192 128 "tune=decode.lanes=8 decode.unroll=2"
bf16 1 32 8 1 8192 128 "tune=decode.lanes=4 decode.unroll=2"
bf16 16 32 32 1 4096 128
bf16 16 32 32 1 4096 128 "tune=decode.lanes=8 decode.unroll=2"
bf16 16 32 32 1 4096 128 "tune=decode.lanes=4 decode.unroll=2"
bf16 16 32 32 1 4096 128 "tune=decode.lanes=8 decode.unroll=4"
bf16 4 32 32 1 8192 128
bf16 4 32 32 1 8192 128 "tune=decode.lanes=8 decode.unroll=2"
bf16 4 32 32 1 8192 128 "tune=decode.lanes=4 decode.unroll=2"
bf16 1 32 32 1 32768 128
bf16 1 32 32 1 32768 128 "tune=decode.lanes=8 decode.unroll=2"
bf16 1 32 32 1 32768 128 "tune=decode.lanes=4 decode.unroll=2"
bf16 1 8 8 1 8192 128
bf16 1 8 8 1 8192 128 "tune=decode.lanes=8 decode.unroll=2"
bf16 1 8 8 1 8192 128 "tune=decode.lanes=4 decode.unroll=2"
bf16 1 32 32 1 8192 64
bf16 1 32 32 1 8192 64 "tune=decode.lanes=8 decode.unroll=2"
bf16 1 32 32 1 8192 64 "tune=decode.lanes=4 decode.unroll=2"
f16 1 32 32 4 8192 128
f16 1 32 32 4 8192 128 "tune=decode.lanes=8 decode.unroll=2"
f16 1 32 32 4 8192 128 "tune=decode.lanes=4 decode.unroll=2"
f32 1 32 32 1 8192 128
f32 1 32 32 1 8192 128 "tune=decode.lanes=8 decode.unroll=2"
f32 1 32 32 1 8192 128 "tune=decode.lanes=4 decode.unroll=2"
SHAPES
    )}
    CASES=$CASES PEERS=${LANES_PEERS:-} OUT=$work/lanes timeout -k 10 "$(budget 300)" \
      bash tools/lab/h200/round_attention_default.sh >/dev/null 2>&1
    cut -c1-200 "$work/lanes/round.txt"
    ;;
  ahead)
    # decode.ahead (the next step's K and V loads in flight while a step is scored) against the
    # shipped attention_lanes (decode.ahead=0), few-head and long decodes first.
    A="tune=decode.ahead=1"
    CASES=$(cat <<SHAPES
bf16 1 32 32 1 8192 128
bf16 1 32 32 1 8192 128 "$A"
bf16 1 32 32 1 8192 128 "$A decode.unroll=1"
bf16 1 32 32 1 8192 128 "$A decode.unroll=4"
bf16 1 8 8 1 8192 128
bf16 1 8 8 1 8192 128 "$A"
bf16 1 32 32 1 32768 128
bf16 1 32 32 1 32768 128 "$A"
bf16 4 32 32 1 8192 128
bf16 4 32 32 1 8192 128 "$A"
bf16 16 32 32 1 4096 128
bf16 16 32 32 1 4096 128 "$A"
bf16 1 32 8 1 8192 128
bf16 1 32 8 1 8192 128 "$A"
f32 1 32 32 1 8192 128
f32 1 32 32 1 8192 128 "$A"
f32 1 32 32 1 8192 128 "$A decode.unroll=2"
SHAPES
    )
    CASES=$CASES PEERS="1x32x1x8192x128:bf16 1x8x1x8192x128:bf16" OUT=$work/ahead \
      timeout -k 10 "$(budget 200)" bash tools/lab/h200/round_attention_default.sh >/dev/null 2>&1
    cut -c1-200 "$work/ahead/round.txt"
    ;;
  join)
    # decode.join (the last workgroup of a row block joins its ranges: one kernel) against the
    # shipped two kernels, and 4 and 8 lanes a key under it, on the decoding shapes.
    J="tune=decode.join=1"
    CASES=$(cat <<SHAPES
bf16 1 32 32 1 8192 128
bf16 1 32 32 1 8192 128 "$J"
bf16 1 32 32 1 8192 128 "$J decode.lanes=8"
bf16 1 32 32 1 8192 128 "$J decode.lanes=4"
bf16 1 32 32 1 8192 128 "$J decode.lanes=4 decode.unroll=4"
bf16 1 8 8 1 8192 128
bf16 1 8 8 1 8192 128 "$J"
bf16 1 8 8 1 8192 128 "$J decode.lanes=4"
bf16 1 32 8 1 8192 128
bf16 1 32 8 1 8192 128 "$J"
bf16 1 32 32 1 32768 128
bf16 1 32 32 1 32768 128 "$J"
bf16 1 32 32 1 32768 128 "$J decode.lanes=4"
bf16 4 32 32 1 8192 128
bf16 4 32 32 1 8192 128 "$J"
bf16 4 32 32 1 8192 128 "$J decode.lanes=4"
bf16 16 32 32 1 4096 128
bf16 16 32 32 1 4096 128 "$J"
bf16 16 32 32 1 4096 128 "$J decode.lanes=4"
bf16 1 32 32 1 8192 256
bf16 1 32 32 1 8192 256 "$J"
bf16 1 32 32 1 2048 128
bf16 1 32 32 1 2048 128 "$J"
f16 1 32 32 1 8192 128
f16 1 32 32 1 8192 128 "$J"
f32 1 32 32 1 8192 128
f32 1 32 32 1 8192 128 "$J"
f32 16 32 32 1 4096 128
f32 16 32 32 1 4096 128 "$J"
SHAPES
    )
    attention_round join 240 "1x32x1x8192x128:bf16 1x8x1x8192x128:bf16 1x32x1x32768x128:bf16 4x32x1x8192x128:bf16 16x32x1x4096x128:bf16" 230
    ;;
  joinrule)
    # Under decode.join: 4 against 8 lanes a key by the call's key-head units (b x h_kv row
    # blocks: 16 .. 256 against 132 compute units), and grouped heads (4 rows a block) by fill.
    J="tune=decode.join=1"
    CASES=$(cat <<SHAPES
bf16 1 16 16 1 8192 128 "$J"
bf16 1 16 16 1 8192 128 "$J decode.lanes=4"
bf16 2 32 32 1 8192 128 "$J"
bf16 2 32 32 1 8192 128 "$J decode.lanes=4"
bf16 8 32 32 1 4096 128 "$J"
bf16 8 32 32 1 4096 128 "$J decode.lanes=4"
bf16 4 32 32 1 2048 128 "$J"
bf16 4 32 32 1 2048 128 "$J decode.lanes=4"
f32 1 32 32 1 8192 128 "$J decode.lanes=8"
f32 4 32 32 1 8192 128 "$J"
f32 4 32 32 1 8192 128 "$J decode.lanes=8"
bf16 1 32 8 1 8192 128
bf16 1 32 8 1 8192 128 "$J"
bf16 1 32 8 1 8192 128 "$J decode.fill=2"
bf16 1 32 8 1 8192 128 "$J decode.fill=8"
bf16 4 32 8 1 8192 128
bf16 4 32 8 1 8192 128 "$J"
bf16 1 32 16 1 8192 128
bf16 1 32 16 1 8192 128 "$J"
SHAPES
    )
    attention_round joinrule 200 ""
    ;;
  mmajoin)
    # mma.join (attention_mma_split's last workgroup of a block joins it, one kernel) against
    # attention_mma_join after it, where the split runs: heads of 64, 4 query rows a head (the
    # matrix units' decoding routes), prompt chunks; then lanes 4 against 8 under decode.join on
    # more head counts (the rule docs/ATTENTION.md asks for).
    M="tune=mma.join=1"
    CASES=$(cat <<SHAPES
bf16 1 32 32 1 8192 64
bf16 1 32 32 1 8192 64 "$M"
bf16 1 8 8 1 8192 64
bf16 1 8 8 1 8192 64 "$M"
f16 1 32 32 4 8192 128
f16 1 32 32 4 8192 128 "$M"
bf16 1 32 32 16 8192 128
bf16 1 32 32 16 8192 128 "$M"
bf16 1 32 8 64 4096 128
bf16 1 32 8 64 4096 128 "$M"
bf16 1 16 16 1 8192 128
bf16 1 16 16 1 8192 128 "tune=decode.lanes=4"
bf16 1 24 24 1 8192 128
bf16 1 24 24 1 8192 128 "tune=decode.lanes=4"
bf16 2 32 32 1 8192 128
bf16 2 32 32 1 8192 128 "tune=decode.lanes=4"
bf16 1 32 32 1 8192 128
bf16 1 32 32 1 8192 128 "tune=decode.lanes=4"
SHAPES
    )
    attention_round mmajoin 240 "1x32x1x8192x64:bf16 1x8x1x8192x64:bf16"
    ;;
  mmajoin2)
    # The built-in mma.join=1 (blocks of one query row join; 2026-12-05) against mma.join=0 on
    # decoding calls of heads of 64 the first round did not time, and on calls it leaves alone
    # (grouped heads and 4 query rows a head: blocks of several rows, the same plan both ways).
    Z="tune=mma.join=0"
    CASES=$(cat <<SHAPES
bf16 1 32 32 1 8192 64
bf16 1 32 32 1 8192 64 "$Z"
bf16 1 8 8 1 8192 64
bf16 1 8 8 1 8192 64 "$Z"
bf16 1 16 16 1 4096 64
bf16 1 16 16 1 4096 64 "$Z"
bf16 4 32 32 1 8192 64
bf16 4 32 32 1 8192 64 "$Z"
f16 1 32 32 1 16384 64
f16 1 32 32 1 16384 64 "$Z"
bf16 1 32 8 1 8192 64
bf16 1 32 8 1 8192 64 "$Z"
f16 1 32 32 4 8192 128
f16 1 32 32 4 8192 128 "$Z"
SHAPES
    )
    attention_round mmajoin2 200 "1x16x1x4096x64:bf16 4x32x1x8192x64:bf16"
    ;;
  joinptx)
    # ptxas's registers, spills and stack of attention_lanes with and without decode.join (the
    # ptxas Triton ships), the programs in $work/programs.tgz.
    cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL \
      -lm -Wl,-rpath,$b -o /tmp/attn_time_ptx || echo "joinptx: no build"
    rm -rf /tmp/join_ptx
    for run in "bf16 1 32 32 1 8192 128" "bf16 1 32 8 1 8192 128" "f32 1 32 32 1 8192 128"; do
      for cfg in "" "tune=decode.join=1"; do
        timeout -k 10 "$(budget 30)" env OCLFUSE_CACHE=always OCLFUSE_TUNING_DIR=/tmp/join_ptx \
          /tmp/attn_time_ptx $run "$cfg" 2>&1 | grep "^attention" | cut -c1-200
      done
    done
    tar czf "$work/programs.tgz" -C /tmp/join_ptx programs 2>/dev/null
    ptxas=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))' 2>/dev/null)
    echo "ptxas: $ptxas"
    timeout -k 10 "$(budget 60)" bash tools/lab/h200/ptx_registers.sh /tmp/join_ptx/programs "$ptxas" 2>&1 |
      cut -c1-300
    ;;
  checks)
    # The plan label (device-free suites) built on the GPU machine, and the matmul warm-up, whose
    # plans of two programs (padded copies, staged wgmma) failed before ocf_plan_step_kernel
    # (2026-12-05).
    (cd $b && timeout -k 10 "$(budget 150)" ctest -L plan -j8 --output-on-failure \
      >"$work/plan.txt" 2>&1)
    echo "plan suites rc $?"
    grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/plan.txt" | head -20
    timeout -k 10 "$(budget 150)" env OCLFUSE_TUNING_DIR=/tmp/warm_matmul $b/bench/oclfuse warmup \
      --op matmul >"$work/warmup.txt" 2>&1
    echo "warmup --op matmul rc $?"
    tail -5 "$work/warmup.txt" | cut -c1-300
    ;;
  attntest)
    (cd $b && OCFT_ONLY=${ATTN_ONLY:-test_attention_split} timeout -k 10 "$(budget 200)" \
      ./tests/test_attention >"$work/attntest.txt" 2>&1)
    echo "test_attention rc $?"
    grep -E "OK|FAILED|PASSED|rror" "$work/attntest.txt" | head -20
    ;;
  stream)
    B=$b OUT=$work/stream timeout -k 10 "$(budget 480)" bash tools/lab/h200/round_stream.sh \
      >/dev/null 2>&1
    awk '/^RESULT/{printf "%s %s %s %s %s %s\n",$2,$5,$6,$7,$13,$14}' "$work/stream/times.txt"
    grep -E "^rc |failed" "$work/stream/times.txt"
    tail -3 "$work/stream/test_matmul_joins.txt"
    awk '{print $4,$5,$6,$9}' "$work/stream/peers.txt"
    cat "$work/stream/registers.txt"
    ;;
  verify)
    for t in test_matmul_joins:60 test_matmul_wgmma:200 test_matmul_staged:200; do
      n=${t%%:*}
      (cd $b && timeout "$(budget "${t##*:}")" tests/$n >"$work/$n.txt" 2>&1
        echo "exit $?" >>"$work/$n.txt")
      echo "== $n"
      grep -v '^\[ *\(RUN\|OK\) ' "$work/$n.txt" | tail -6
    done
    softmax_round medium16 70 25 \
      "16384 1000 bf16;30000 784 bf16;8192 1496 bf16;65536 128 bf16;32768 200 bf16" \
      "auto;rows.seg_items=3 rows.whole_ends=1 rows.aligned_vw=16 rows.aligned_seg_items=1;rows.seg_items=1 rows.whole_ends=1"
    ;;
  edgeclock)
    WG_CLOCK=1 WG_SHAPES="3072x3072x3072,3072x3008x3072,3000x3072x3072,3072x3072x3000,3000x3000x3000" \
      timeout -k 5 "$(budget 240)" tools/lab/wgmma/run.sh "$work/edgeclock" 180 bf16_192x5_nn \
      >"$work/edgeclock.log" 2>&1
    grep -E "PASS|FAIL|ERROR|clock" "$work/edgeclock/rows.txt" | cut -c1-160
    ;;
  softbench16)
    sizes="softmax:65536x128:bf16;softmax:65536x128:f16;softmax:131072x64:bf16"
    sizes="$sizes;softmax:32768x256:bf16;softmax:32768x200:bf16;softmax:65536x128"
    sizes="$sizes;softmax:16384x1000:bf16;softmax:8192x1496:bf16;softmax:32768x512:bf16"
    sizes="$sizes;softmax:65536x300:bf16;softmax:16384x1024:f16"
    timeout -k 5 "$(budget 120)" $b/bench/oclfuse bench --quiet --format json --sizes "$sizes" \
      >"$work/bench.json" 2>"$work/bench.err"
    timeout -k 5 "$(budget 110)" python3 bench/peers.py --bench "$work/bench.json" --budget 80 \
      --out "$work/peers.tsv" 2>&1 | tail -15
    ;;
  bulk)
    # attention_lanes's BULK form (decode.bulk: K and V through a ring of local-memory stages
    # filled by Hopper's bulk copies; tools/lab/decode measured the idea on an H100: 1 x 32 x 1 x
    # 8192 x 128 bf16 1799 -> 2226 GB/s): test_attention_lanes_bulk on the GPU, then every
    # decoding shape under the shipped plan and the ring's stages, keys and fill, the peers
    # (cuDNN, FA2, efficient) beside (cap 520 s)
    (cd $b && OCFT_ONLY=test_attention_lanes_bulk timeout "$(budget 150)" tests/test_attention \
      >"$work/bulk_test.txt" 2>&1; echo "exit $?" >>"$work/bulk_test.txt")
    grep -v '^\[ *\(RUN\|OK\) ' "$work/bulk_test.txt" | tail -8
    CASES=""
    CONFIGS=("" "decode.bulk=1 decode.stages=4 decode.bulk_keys=64"
      "decode.bulk=1 decode.stages=6 decode.bulk_keys=64"
      "decode.bulk=1 decode.stages=6 decode.bulk_keys=64 decode.wg=256"
      "decode.bulk=1 decode.stages=3 decode.bulk_keys=128")
    decode_cases "bf16 1 32 32 1 8192 128" "bf16 16 32 32 1 4096 128" "bf16 4 32 32 1 8192 128" \
      "bf16 1 32 32 1 32768 128" "bf16 1 32 8 1 8192 128" "f16 1 32 32 1 8192 128" \
      "f32 1 32 32 1 8192 128" "bf16 1 8 8 1 8192 128"
    CONFIGS=("mma.decode_fill=0 mma.split_fill=0"
      "mma.decode_fill=0 mma.split_fill=0 decode.bulk=1 decode.stages=6 decode.bulk_keys=64")
    decode_cases "bf16 1 32 32 1 8192 64"
    decode_round bulk 240 220
    timeout -k 5 "$(budget 100)" python3 tools/lab/decode/peers.py bf16:1x32x32x8192x128 \
      bf16:16x32x32x4096x128 bf16:4x32x32x8192x128 bf16:1x32x32x32768x128 bf16:1x32x8x8192x128 \
      f16:1x32x32x8192x128 bf16:1x8x8x8192x128 bf16:1x32x32x8192x64 2>&1 | grep PEER
    ;;
  rowg)
    # attention_lanes's row groups (decode.row_groups: a key head's query rows shared among
    # groups of decode.wg work-items, 512 a workgroup beyond NVIDIA's report after the wide
    # probe): the lanes suites on the GPU, then grouped-head decoding (bf16 1 x 32 (8) x 8192 x
    # 128 ran at 783 GB/s on the H100, FA2 982, cuDNN 1237) in the ring (ranges of any length)
    # in 1, 2, 4 and 8 groups of 32 to 128 work-items, the peers beside (cap 480 s)
    attention_suites 60 test_attention_lanes test_attention_lanes_join test_attention_lanes_bulk
    RING="decode.bulk=1 decode.bulk_min=1 decode.stages=4 decode.bulk_keys=64"
    CASES=""
    CONFIGS=("" "$RING decode.row_groups=2" "$RING decode.row_groups=2 decode.wg=64"
      "$RING decode.row_groups=4 decode.wg=64" "$RING decode.row_groups=4 decode.wg=32"
      "$RING decode.row_groups=4" "$RING decode.row_groups=8 decode.wg=64"
      "$RING decode.row_groups=4 decode.wg=64 decode.stages=3 decode.bulk_fill=2")
    decode_cases "bf16 1 32 8 1 8192 128" "bf16 4 32 8 1 8192 128" "bf16 1 32 8 1 32768 128" \
      "bf16 1 64 8 1 8192 128" "bf16 1 32 16 1 8192 128" "f32 1 32 8 1 8192 128"
    decode_round rowg 240
    timeout -k 5 "$(budget 60)" python3 tools/lab/decode/peers.py bf16:1x32x16x8192x128 \
      f32:1x32x8x8192x128 2>&1 | grep PEER
    ;;
  rowgv)
    # the row groups as shipped (decode.row_groups=4 in NVIDIA's 16-bit rows, decode.bulk_min in
    # key-rows) against one work-item all of a block's rows as before (row_groups=1, bulk_min
    # 2049 keeps 1 x 32 (8)'s 512-key ranges of 4 rows in registers, as 1024 keys did), the
    # lanes suites first, the peers of the shapes rowg did not time (cap 300 s)
    attention_suites 60 test_attention_lanes_bulk test_attention_lanes
    CASES=""
    CONFIGS=("")
    decode_cases "bf16 1 32 32 1 8192 128" "bf16 1 8 8 1 8192 128"
    CONFIGS=("" "decode.row_groups=1 decode.bulk_min=2049")
    decode_cases "bf16 1 32 8 1 8192 128" "bf16 4 32 8 1 8192 128" "bf16 1 32 8 1 32768 128" \
      "bf16 1 64 8 1 8192 128" "bf16 1 32 16 1 8192 128" "bf16 16 32 8 1 4096 128" \
      "bf16 64 32 8 1 2048 128" "f16 1 32 8 1 8192 128"
    decode_round rowgv 150
    timeout -k 5 "$(budget 60)" python3 tools/lab/decode/peers.py bf16:16x32x8x4096x128 \
      bf16:64x32x8x2048x128 2>&1 | grep PEER
    ;;
  bulkq)
    # bulk's short form: test_attention_lanes_bulk (both refill orders), then four decoding
    # shapes under the shipped plan and rings of 4 and 6 stages in each refill order
    # (decode.bulk_refill: 1 is the lab's ISSUE 0, 8 % ahead there; untimed here), no peers
    # (cap 150 s)
    (cd $b && OCFT_ONLY=test_attention_lanes_bulk timeout "$(budget 60)" tests/test_attention \
      >"$work/bulk_test.txt" 2>&1; echo "exit $?" >>"$work/bulk_test.txt")
    grep -v '^\[ *\(RUN\|OK\) ' "$work/bulk_test.txt" | tail -4
    CASES=""
    CONFIGS=("" "decode.bulk=1 decode.stages=4 decode.bulk_keys=64"
      "decode.bulk=1 decode.stages=6 decode.bulk_keys=64"
      "decode.bulk=1 decode.stages=4 decode.bulk_keys=64 decode.bulk_refill=1"
      "decode.bulk=1 decode.stages=6 decode.bulk_keys=64 decode.bulk_refill=1")
    decode_cases "bf16 1 32 32 1 8192 128" "bf16 1 32 32 1 32768 128" "bf16 4 32 32 1 8192 128" \
      "f16 1 32 32 1 8192 128"
    decode_round bulk 90 220
    ;;
  pack)
    # attention_mma with grouped heads packed (mma.pack: a key head's query heads share a
    # unit's blocks of rows, K and V read once a key head) and key warps (mma.key_warps: warps
    # that split each tile's keys for the same rows, joined in local memory) in key ranges,
    # against the shipped plan (attention_lanes in row groups: bf16 1 x 32 (8) x 8192 x 128 995
    # GB/s on the H100, FA2 988, cuDNN 1294; packed in one warp a range 922, its join kernel 8
    # of 35 us): the mma suites on the GPU first, then grouped decoding under 1, 2, 4 and 8 key
    # warps, split_fill 1 and 2, the in-kernel join (mma.join=2), 64- and 128-key tiles beyond
    # the reported local memory (mma.local); one head a key head with attention_lanes off
    # beside; the peers (cap 520 s)
    attention_suites 90 test_attention_mma_pack test_attention_mma_split
    P="mma.pack=1 mma.split_fill"
    L="mma.local=1"
    CASES=""
    CONFIGS=("" "$P=2" "$P=1 mma.key_warps=2" "$P=1 mma.key_warps=4 $L" "$P=2 mma.key_warps=4 $L"
      "$P=1 mma.key_warps=4 $L mma.join=2" "$P=2 mma.key_warps=4 $L mma.join=2"
      "$P=1 mma.key_warps=4 $L mma.bk=128 mma.join=2"
      "$P=1 mma.key_warps=8 $L mma.bk=128 mma.join=2")
    decode_cases "bf16 1 32 8 1 8192 128" "bf16 4 32 8 1 8192 128" "bf16 1 32 8 1 32768 128" \
      "bf16 1 64 8 1 8192 128" "bf16 1 32 16 1 8192 128" "bf16 16 32 8 1 4096 128" \
      "bf16 64 32 8 1 2048 128" "bf16 1 32 8 1 8192 64" "bf16 1 32 8 4 8192 128"
    CONFIGS=("" "decode.lanes=0 mma.split_fill=1 mma.key_warps=4 $L mma.join=2"
      "decode.lanes=0 mma.split_fill=2 mma.key_warps=4 $L mma.join=2"
      "decode.lanes=0 mma.split_fill=1 mma.key_warps=4 $L mma.bk=128 mma.join=2")
    decode_cases "bf16 1 32 32 1 8192 128" "bf16 16 32 32 1 4096 128" "bf16 1 32 32 1 32768 128"
    decode_round pack 330
    timeout -k 5 "$(budget 90)" python3 tools/lab/decode/peers.py bf16:1x32x8x8192x128 \
      bf16:4x32x8x8192x128 bf16:1x32x8x32768x128 bf16:1x64x8x8192x128 bf16:1x32x16x8192x128 \
      bf16:16x32x8x4096x128 bf16:64x32x8x2048x128 bf16:1x32x8x8192x64 bf16:1x32x32x8192x128 \
      bf16:16x32x32x4096x128 bf16:1x32x32x32768x128 2>&1 | grep PEER
    ;;
  packv)
    # grouped heads packed as shipped (mma.pack=8 in NVIDIA's 16-bit rows: before
    # attention_lanes from 8 query rows a key head and past a wave) against mma.pack=0 on
    # grouped shapes no round has timed (5, 7, 8 and 16 rows a key head, speculative lq 2 and
    # 3, past a wave), the GPU suites of the routes first, the peers of the lq = 1 shapes
    # (cap 400 s)
    attention_suites 60 test_attention_mma_pack test_attention_gqa_decode test_attention_gqa
    CASES=""
    CONFIGS=("" "mma.pack=0")
    decode_cases "bf16 2 40 8 1 6000 128" "bf16 1 56 8 1 12000 128" "bf16 1 28 4 1 16384 128" \
      "bf16 8 64 8 1 4096 128" "bf16 1 32 2 1 8192 128" "f16 1 64 8 1 8192 128" \
      "bf16 32 32 8 1 2048 128" "bf16 2 32 8 2 8192 128" "bf16 1 48 8 3 4000 128" \
      "bf16 1 64 8 1 8192 64" "bf16 4 32 8 1 8192 128" "bf16 16 32 4 1 1024 128"
    decode_round packv 200
    timeout -k 5 "$(budget 90)" python3 tools/lab/decode/peers.py bf16:2x40x8x6000x128 \
      bf16:1x56x8x12000x128 bf16:1x28x4x16384x128 bf16:8x64x8x4096x128 bf16:1x32x2x8192x128 \
      f16:1x64x8x8192x128 bf16:32x32x8x2048x128 bf16:1x64x8x8192x64 bf16:16x32x4x1024x128 \
      2>&1 | grep PEER
    ;;
  pack5)
    # packed attention_mma from 5 query rows a key head (mma.pack=5) against attention_lanes
    # (mma.pack=0: its row groups hold 5 to 7 rows as 8) and with 2 key warps, on 5 to 7 rows
    # a key head, no peers (cap 150 s)
    CASES=""
    CONFIGS=("mma.pack=5" "mma.pack=0" "mma.pack=5 mma.key_warps=2")
    decode_cases "bf16 2 40 8 1 6000 128" "bf16 1 56 8 1 12000 128" "bf16 1 28 4 1 16384 128" \
      "bf16 1 40 8 1 8192 128" "bf16 4 24 4 1 8192 128"
    decode_round pack5 150
    ;;
  packm)
    # packed grouped decoding as shipped, the first and last kernels' times (its split's join
    # kernel took 6-13 us of 35-40), the split suites first; run with MERGE_BATCH 32 (every
    # join kernel's ranges read 32 at once, 8 as shipped) it lost: the join 5.7 -> 9.7 us on 16
    # x 32 (4) x 1 x 1024 (4 ranges), 6.8 -> 13.8 on 32 x 32 (8) x 1 x 2048, 12.6 -> 10.7 on 1 x
    # 28 (4) x 1 x 16384 (64 ranges; H100, 2026-12-06) (cap 200 s)
    attention_suites 60 test_attention_mma_split test_attention_split
    CASES=""
    CONFIGS=("")
    decode_cases "bf16 1 64 8 1 8192 128" "bf16 2 40 8 1 6000 128" "bf16 1 28 4 1 16384 128" \
      "bf16 1 32 8 4 8192 128" "bf16 16 32 4 1 1024 128" "bf16 8 64 8 1 4096 128" \
      "bf16 1 40 8 1 8192 128" "bf16 32 32 8 1 2048 128"
    decode_round packm 100
    ;;
  pack4)
    # packed attention_mma on 4 rows a key head (where attention_lanes's row groups still lead
    # by 4-8 %: 1 x 32 (8) x 1 x 8192 985 against 914 on the H100, its split's kernel 26.6 us
    # and the join kernel's 8): fewer and longer ranges (pack_fill 1, split.min 512), more
    # (pack_fill 3), three stages, two key warps joined in the kernel, no peers (cap 150 s).
    # Run on an H100 (2026-12-06), GB/s, 1 x 32 (8) x 8192 / 4 x 32 (8) / 1 x 32 (8) x 32768:
    # attention_lanes 998 / 1793 / 1789; packed as shipped 914 / 1753 / 1668; pack_fill 1 (one
    # workgroup of one warp a unit: the split's kernel 26.7 -> 36.1 us) 755 / 1222 / 1044;
    # split.min 512 735 / 1763 / 1642; pack_fill 3 921 / 1750 / 1580; 3 stages of 64 keys 867 /
    # 1254 / 1158, of 32 890 / 1628 / 1580; 2 key warps joined in the kernel 781 / 1608 / 1351
    CASES=""
    CONFIGS=("" "mma.pack=1" "mma.pack=1 mma.pack_fill=1" "mma.pack=1 split.min=512"
      "mma.pack=1 mma.pack_fill=3" "mma.pack=1 mma.local=1 mma.stages=3"
      "mma.pack=1 mma.local=1 mma.bk=32 mma.stages=3" "mma.pack=1 mma.key_warps=2 mma.join=2"
      "mma.pack=1 mma.pack_fill=1 mma.key_warps=2 mma.join=2")
    decode_cases "bf16 1 32 8 1 8192 128" "bf16 4 32 8 1 8192 128" "bf16 1 32 8 1 32768 128"
    decode_round pack4 150
    ;;
  joinel)
    # packed decoding joined in the kernel (mma.join=2: one warp joined a block's 32 ranges, 598
    # GB/s on 1 x 32 (8) x 8192 where the join kernel gave 914) against the join kernel, and
    # attention_lanes's joined plans as shipped, the joined suites first, no peers (cap 200 s).
    # Run on an H100 (2026-12-06) with join_elements taking 4 elements a work-item at once (all
    # their ranges' loads issued together; not kept): mma.join=2 still lost (1 x 32 (8) 670
    # against 921 by the join kernel, 1 x 64 (8) 460 against 902), and attention_lanes's grouped
    # plans lost with it (1 x 32 (8) 998 -> 887, 4 x 32 (8) 1793 -> 1667; one head a key head
    # unchanged, 1949-1961 and 2938-2941)
    attention_suites 60 test_attention_lanes_join test_attention_mma_pack
    CASES=""
    CONFIGS=("" "mma.pack=1" "mma.pack=1 mma.join=2")
    decode_cases "bf16 1 32 8 1 8192 128" "bf16 1 64 8 1 8192 128" "bf16 2 40 8 1 6000 128" \
      "bf16 4 32 8 1 8192 128" "bf16 1 28 4 1 16384 128" "bf16 1 32 32 1 8192 128" \
      "bf16 16 32 32 1 4096 128"
    decode_round joinel 120
    ;;
  packkw)
    # key warps with whole shares of a tile beside the join kernel (untimed so far: the shares
    # measured were 16 keys, or joined in the kernel): packed decoding on 4, 5 and 8 rows a key
    # head with 2 key warps of 64 keys (128-key tiles) and 4 of 32, pack_fill 1 and 2 (half or
    # a quarter of the ranges to join), against the shipped plan, no peers (cap 200 s).
    # Ran 2026-12-06 on an H100: every key-warp form lost (1 x 32 (8) 760-799 GB/s against 924
    # packed and 984 on attention_lanes; the split's kernel 33-36 us against 26.7 with one warp).
    CASES=""
    K="mma.pack=1 mma.local=1 mma.bk=128"
    CONFIGS=("" "mma.pack=1" "$K mma.key_warps=2" "$K mma.key_warps=2 mma.pack_fill=1"
      "$K mma.key_warps=4" "$K mma.key_warps=4 mma.pack_fill=1")
    decode_cases "bf16 1 32 8 1 8192 128" "bf16 4 32 8 1 8192 128" "bf16 1 40 8 1 8192 128" \
      "bf16 1 64 8 1 8192 128"
    decode_round packkw 150
    ;;
  fewcfg)
    # Is the split bound by the bytes a unit has in flight (stages - 2 copies of 48 KiB at 128 x
    # 256: 96 KiB, one workgroup a unit), by the ranges, or by neither? (every config passes
    # ocf_context_set_tuning's rules: 5 stages of 128 x 256 do not fit)
    gemm_grid "bf16 1 128 8192 8192;bf16 1 64 8192 8192;bf16 1 128 4096 14336" \
      ";wgmma.stages=3;wgmma.bn=192 wgmma.stages=5;wgmma.split_min=512;wgmma.split_min=2048;wgmma.tma_split=1;wgmma.tma_split=1 wgmma.split_min=512;wgmma.bn=128 wgmma.stages=6;wgmma.bn=128 wgmma.stages=6 wgmma.tma_split=1;wgmma.bn=192 wgmma.stages=5 wgmma.tma_split=1"
    ;;
  fewbn)
    # The few_rows class's tiles (m <= 128 < n, k >= 4096): fewcfg (H100, 2026-12-06) found
    # 128-column tiles in 6 stages ahead of the built-in 256 in 4 on its three split shapes (128
    # x 8192^2 223 -> 237, 64 x 8192^2 123 -> 127, 128 x 4096 x 14336 217 -> 234 TFLOP/s); here
    # the class's other shapes (split and direct, both B layouts, f16, TF32) under the built-in
    # values ("", no tuning), 128 columns in 6 and 5 stages and 192 in 5, cuBLAS beside.
    gemm_grid "bf16 1 128 8192 8192;bf16 1 64 8192 8192;bf16 1 32 8192 8192;bf16 1 96 8192 8192;bf16 1 128 28672 4096;bf16 1 128 4096 14336;bf16 0 128 8192 8192;f16 1 128 8192 8192;bf16 1 128 16384 16384;bf16 1 48 11008 4096;tf32 1 128 8192 8192" \
      ";wgmma.bn=128 wgmma.stages=6;wgmma.bn=128 wgmma.stages=5;wgmma.bn=192 wgmma.stages=5" 90
    ;;
  fewwg)
    # The H100's few_rows entry (128 columns, 6 stages) on the GPU: test_matmul_wgmma's split
    # forms (the entry's split among them) and tunables; then one consumer warpgroup (64-row
    # tiles: m of 32 to 96 fill half of two consumers' 128) under the entry and the built-in
    # width, and ranges of 512, and the entry unsplit (whole K on as many units as tiles),
    # beside the entry as shipped ("", no tuning), cuBLAS beside.
    wgmma_tests 80 test_wgmma_split_k test_wgmma_tunables
    gemm_grid "bf16 1 32 8192 8192;bf16 1 64 8192 8192;bf16 1 96 8192 8192;bf16 1 128 8192 8192;bf16 1 48 11008 4096" \
      ";wgmma.bn=128 wgmma.stages=6 wgmma.consumers=1;wgmma.bn=256 wgmma.stages=4 wgmma.consumers=1;wgmma.bn=128 wgmma.stages=6 wgmma.consumers=1 wgmma.split_min=512;wgmma.bn=128 wgmma.stages=6 wgmma.split_min=0" 40
    ;;
  joinfix)
    # The split that joins its ranges in the launch (wgmma.split_join) with its loads batched
    # (join_tile: 16 pairs' loads of a range in flight; it waited on one load at a time and lost
    # 0.024-0.037 ms to the split and its reduce): against the cp.async split and its reduce, in
    # both tile widths (fewwg runs its suite first).
    gemm_grid "bf16 1 128 8192 8192;bf16 0 128 8192 8192;bf16 1 64 8192 8192;bf16 1 32 8192 8192;bf16 1 128 4096 14336;bf16 1 256 4096 4096" \
      "wgmma.bn=128 wgmma.stages=6 wgmma.split_join=0;wgmma.bn=128 wgmma.stages=6 wgmma.split_join=1;wgmma.bn=256 wgmma.stages=4 wgmma.split_join=0;wgmma.bn=256 wgmma.stages=4 wgmma.split_join=1"
    ;;
  fewcheck)
    # The few_rows entry with one consumer warpgroup (fewwg: bf16 128 x 8192^2 235.7 -> 278.5):
    # test_matmul_wgmma's split forms (the joined one's batched loads among them), then the
    # class's shapes under the entry as shipped (""), TF32 with one consumer beside.
    wgmma_tests 200 test_wgmma_split_k
    gemm_grid "bf16 1 128 8192 8192;bf16 1 128 4096 14336;bf16 1 128 16384 16384;bf16 1 128 28672 4096;f16 1 128 8192 8192;bf16 0 128 8192 8192;tf32 1 128 8192 8192" ""
    gemm_grid "tf32 1 128 8192 8192" "wgmma.consumers=1"
    ;;
  fewkin)
    # The H100's few_rows values on another card (the H200: its database has no few_rows
    # entry): the built-in plan ("") against those values given whole, bf16, f16 and TF32,
    # test_matmul_wgmma's tunables and split first, cuBLAS beside. A win on every shape puts
    # the H100's three entries into that card's database.
    wgmma_tests 120 test_wgmma_split_k test_wgmma_tunables
    gemm_grid "bf16 1 128 8192 8192;bf16 0 128 8192 8192;bf16 1 96 8192 8192;bf16 1 64 8192 8192;bf16 1 32 8192 8192;bf16 1 128 6144 8192;bf16 1 128 4096 14336;bf16 1 64 4096 14336;bf16 1 48 11008 4096;bf16 1 128 16384 16384;bf16 1 128 28672 4096;f16 1 128 8192 8192;tf32 1 128 8192 8192;tf32 1 64 8192 8192" \
      ";wgmma.bn=128 wgmma.stages=6 wgmma.one_consumer=1 wgmma.split_ranges=3" 90
    ;;
  fewjoin)
    # Few-row calls that still split under the H100's few_rows values (32 tiles or fewer: 128 x
    # 4096 x 14336 at 0.92 of cuBLAS, its reduce and the gap before it 9-12 us of 64), joined in
    # the launch (batched loads since 2026-12-06: a tile's last range then reads 2 x 64 KB in
    # one consumer's tiles, not 4 x 128 KB): the entry as shipped (""), two ranges allowed, and
    # both joined, cuBLAS beside (the H100's database applies on an H100 only).
    gemm_grid "bf16 1 128 4096 14336;bf16 1 64 4096 14336;bf16 1 128 2048 14336;bf16 1 64 8192 8192;bf16 1 32 8192 8192;bf16 1 128 6144 8192" \
      ";wgmma.split_ranges=2;wgmma.split_ranges=2 wgmma.split_join=1;wgmma.split_join=1" 60
    ;;
  newtests)
    wgmma_tests 100 test_wgmma_tunables
    (cd $b && OCFT_ONLY=test_staged_one_consumer timeout -k 5 "$(budget 100)" \
      tests/test_matmul_staged >"$work/staged_test.txt" 2>&1; echo "exit $?" >>"$work/staged_test.txt")
    grep -v '^\[ *\(RUN\|OK\) ' "$work/staged_test.txt" | tail -6
    ;;
  cluster)
    cc -std=c11 -O2 tools/lab/cluster/cluster_probe.c -lOpenCL -o $b/cluster_probe || continue
    for mode in ${CLUSTER_MODES:-plain launch peer multicast explicit}; do
      timeout -k 5 "$(budget 30)" $b/cluster_probe $mode "$work/cluster_$mode.ptx" | tail -3
      echo "cluster_probe $mode exit ${PIPESTATUS[0]}"
    done
    ;;
  clusterlab)
    cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE tools/lab/wgmma/wgmma_lab.c \
      -lOpenCL -lm -ldl -o $b/wgmma_lab || continue
    rm -rf /tmp/wg_cl && mkdir -p /tmp/wg_cl
    cl_shapes=${CL_SHAPES:-4096x4096x4096,8192x8192x8192,3072x3072x3072,3000x3000x3000,4095x4104x4000}
    WG_SHAPES=$cl_shapes timeout -k 5 "$(budget 300)" $b/wgmma_lab /tmp/wg_cl \
      "$(($(budget 300) - 40))" \
      "${CL_VARIANTS:-tma_bf16_256x4_nn,cl_bf16_256x4_nn,tma_bf16_256x4_nt,cl_bf16_256x4_nt,tma_bf16_192x5_nn,cl_bf16_192x5_nn}" \
      >"$work/lab.txt" 2>&1
    cp /tmp/wg_cl/rows.txt "$work/lab_rows.txt" 2>/dev/null
    tar czf "$work/lab_ptx.tgz" -C /tmp/wg_cl . 2>/dev/null
    grep -v "^ *$" "$work/lab.txt" | grep -v "PASS checked.*a=1 b=0 PASS" | cut -c1-220 | tail -40
    grep "median" "$work/lab_rows.txt" | cut -c1-200
    tr ',' '\n' <<<"$cl_shapes" | awk -Fx '{print "bf16 0", $1, $2, $3}' >"$work/shapes.txt"
    timeout -k 5 "$(budget 60)" python3 tools/lab/h200/gemm_peers.py "$work/shapes.txt" 2>&1
    ;;
  sectors)
    PAD_B=16 gemm_grid "bf16 0 3072 3072 3072;bf16 1 3072 3072 3072;bf16 0 4096 4096 4096;bf16 1 4096 4096 4096;bf16 0 2560 4096 4096;f16 0 3072 3072 3072" \
      ";wgmma.sector_rows=0;wgmma.sector_rows=1"
    ;;
  three)
    # three consumers (192-row tiles, the TMA-fed form's first work-item driving the TMA, where
    # their waves cost at most 5 % more than two's): the GPU test first, then the context's plan
    # against wgmma.consumers=3 (THREE_CONFIGS: other values, ";"-separated) on shapes of every
    # class (THREE_SHAPES), cuBLAS beside
    wgmma_tests 200 test_wgmma_three_consumers
    c3="wgmma.consumers=3 wgmma.bn=256 wgmma.stages=4"
    gemm_grid "${THREE_SHAPES:-bf16 0 4096 4096 4096;bf16 0 8192 8192 8192;bf16 0 3072 3072 3072;bf16 1 3000 3000 3000;bf16 0 2048 2048 2048;bf16 0 5120 5120 5120;bf16 1 5000 5000 5000;bf16 0 6144 6144 6144;bf16 1 16384 4096 4096;bf16 1 4096 32000 4096;bf16 1 2000 4096 4096;f16 0 12288 12288 4096;tf32 1 6144 6144 6144;bf16 1 4095 4097 4096}" \
      "${THREE_CONFIGS:-;$c3}" "${PEERS_CAP:-150}"
    ;;
  gemv)
    (cd $b && for t in test_matmul_joins test_matmul_skinny; do
      timeout -k 5 "$(budget 60)" tests/$t >"$work/$t.txt" 2>&1
      echo "$t exit $? ($(grep -c '^\[       OK' "$work/$t.txt") passed)"
    done)
    gemm_grid "f32 0 2 4096 4096;f32 0 4 4096 4096;f32 0 8 4096 4096;f32 1 4 4096 4096" \
      ";skinny.join=16" 40
    few="wgmma.bn=128 wgmma.stages=6 wgmma.one_consumer=1 wgmma.split_ranges=3"
    gemm_grid "bf16 1 1 4096 4096;bf16 0 1 4096 4096;bf16 1 1 8192 8192;bf16 1 4 4096 4096;bf16 1 1 14336 4096" \
      ";$few;$few wgmma.split_min=512;wgmma.split_join=1;wgmma.on=0;wgmma.on=0 few.on=0 skinny.unroll=8" 60
    ;;
  persist)
    # persistent tiles (wgmma.persist=1, docs/GEMM.md "Persistent tiles") and stream-K on them
    # (wgmma.persist=2, two consumers: "Stream-K"; alone, the consumer rule's choice between
    # three and two with stream-K; with wave_bn=0, 256-column tiles where rule 2's waves would
    # take 192, which stream-K makes moot): the suite's cases, then the square, LM, ragged and
    # TF32 shapes against a tile a workgroup, cuBLAS beside
    # (the context's form first: its ring's code is the persistent forms' since 2026-12-07)
    # (PERSIST_TESTS: the forms' tests to run, default both; a form whose test did not run is
    # not timed)
    wgmma_tests 60 test_wgmma_types_layouts_shapes
    # shellcheck disable=SC2086 # a list of names
    wgmma_tests 250 ${PERSIST_TESTS:-test_wgmma_persistent test_wgmma_stream_k}
    tail -8 "$work/wgmma_test.txt"
    # a persistent kernel that hangs in its test (exit 124 or 137) may hang in a timing too: no
    # timings of that form (each would run to its cap); a failed check (exit 1) still times.
    # PERSIST1_CONFIGS, PERSIST2_CONFIGS: each form's configurations (fewer where the call has
    # less time)
    configs=""
    grep -q 'test_wgmma_persistent exit [01]$' "$work/wgmma_test.txt" &&
      configs=";${PERSIST1_CONFIGS:-wgmma.persist=1;wgmma.persist=1 wgmma.consumers=2}"
    grep -q 'test_wgmma_stream_k exit [01]$' "$work/wgmma_test.txt" &&
      configs="$configs;${PERSIST2_CONFIGS:-wgmma.persist=2;wgmma.persist=2 wgmma.consumers=2;wgmma.persist=2 wgmma.consumers=2 wgmma.wave_bn=0}"
    [ -n "$configs" ] || { echo "persist: both tests hung, no timings"; continue; }
    # (PERSIST_SHAPES: fewer where the call has less time)
    gemm_grid "${PERSIST_SHAPES:-bf16 0 4096 4096 4096;bf16 1 8192 8192 8192;bf16 0 4096 14336 4096;bf16 1 3000 3000 3000;f16 0 6144 6144 6144;tf32 1 4096 4096 4096;bf16 1 4095 4104 4000}" \
      "$configs" "${PEERS_CAP:-90}"
    ;;
  skdiag)
    # why stream-K (wgmma.persist=2) ran slower than persistent tiles on 2026-12-07 (bf16 4096^3
    # 537 against 698 TFLOP/s, TF32 217 against 384) and whether test_wgmma_stream_k hangs or is
    # slow: (1) both forms timed with the program cache on, their PTX into $work/programs.tgz
    # (registers and spills read here with ptxas); (2) the test's shapes under each direct and
    # copied form, 20 s each (a hang shows as a timeout); (3) the test, timestamped
    rm -rf /tmp/occ_sk
    [ -x $b/lgt ] || cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse \
      -lOpenCL -lm -Wl,-rpath,$b -o $b/lgt
    for shape in "bf16 0 4096 4096 4096" "tf32 1 4096 4096 4096"; do
      for cfg in "wgmma.persist=2" "wgmma.persist=1 wgmma.consumers=2"; do
        # shellcheck disable=SC2086
        echo "[$cfg] $(timeout -k 2 "$(budget 30)" env OCLFUSE_CACHE=always \
          OCLFUSE_TUNING_DIR=/tmp/occ_sk $b/lgt $shape "$cfg" 2>&1 | tr '\n' ' ' | cut -c1-160)"
      done
    done
    tar czf "$work/programs.tgz" -C /tmp/occ_sk programs 2>/dev/null
    u=$(clinfo 2>/dev/null | grep -m1 "Max compute units" | awk '{print $NF}')
    u=${u:-132}
    base="wgmma.tma=1 wgmma.consumers=2 wgmma.bn=256 wgmma.stages=3 wgmma.wave_bn=0"
    for cfg in "wgmma.persist=2 wgmma.c_stage=1 $base" "wgmma.persist=2 wgmma.c_stage=0 $base" \
      "wgmma.persist=2 wgmma.tma_copies=1 wgmma.c_stage=1 $base wgmma.align_rows=64 wgmma.sector_rows=0"; do
      for shape in "bf16 0 $((128 * (u + 3) - 50)) 257 72" "bf16 1 $((128 * (u + 3) - 50)) 257 520" \
        "f16 1 $((128 * (u + 5) - 7)) 200 72" "tf32 1 $((128 * (u + 3) - 50)) 257 72"; do
        # shellcheck disable=SC2086
        echo "[$cfg] $(timeout -k 2 "$(budget 20)" $b/lgt $shape "$cfg" 2>&1 | tr '\n' ' ' |
          cut -c1-150; echo " (exit ${PIPESTATUS[0]})")"
      done
    done
    echo "test at $((SECONDS - start)) s"
    wgmma_tests "${SKTEST_CAP:-400}" test_wgmma_stream_k
    echo "test done at $((SECONDS - start)) s"
    ;;
  sktest)
    # test_wgmma_stream_k alone (184 s on the H100 on 2026-12-07), within SKTEST_CAP (default 250)
    wgmma_tests "${SKTEST_CAP:-250}" test_wgmma_stream_k
    ;;
  skvar)
    # what stream-K's last wave costs past its pieces' slices (2026-12-07, H100, two consumers,
    # 256-column tiles: bf16 3072^3 478 against the persistent form's 494 TFLOP/s, 34560 x 256 x
    # 1000 202 against 260, where two waves and a quarter of a tile's slices should beat three
    # waves: about 35 us a call unaccounted for): the tree, then the tree with each patch of
    # SKVAR_PATCHES (default sk_pieces2.patch: at most two pieces a tile; sk_noreads.patch: the
    # last piece adds no sums; sk_nomeet.patch: no meeting at all, every piece stores its own
    # sums; the last two time the call with C wrong; sk_cpasync.patch: the parts read through
    # the idle ring by cp.async, a work-item's 32 copies of a part in flight at once, C right),
    # each built in its own folder (in parallel), timed on SKVAR_SHAPES under persist 2 and 1;
    # then sk_cpasync's build runs test_wgmma_stream_k where SKVAR_TEST is 1. Its answer (an
    # H100, 2026-12-07, docs/GEMM.md): the reads of the parts cost the most, and with no meeting
    # at all stream-K still ran below the database's three consumers at 3072^3
    base_b=$b
    patches=${SKVAR_PATCHES:-sk_pieces2.patch sk_noreads.patch sk_nomeet.patch sk_cpasync.patch}
    builds=()
    for p in $patches; do
      JOBS=8 patched_build "/tmp/skvar_${p%.patch}" "tools/lab/h200/$p" oclfuse test_matmul_wgmma &
      builds+=($!)
    done
    # the builds by name: a bare `wait` also waits for the `tee` of this script's output, forever
    wait "${builds[@]}"
    [ -x $b/lgt ] || cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse \
      -lOpenCL -lm -Wl,-rpath,$b -o $b/lgt
    for p in "" $patches; do
      [ -z "$p" ] || b=/tmp/skvar_${p%.patch}/b
      echo "== ${p:-the tree} at $((SECONDS - start)) s"
      IFS=';' read -r -a shapes <<<"${SKVAR_SHAPES:-bf16 0 3072 3072 3072;bf16 0 34560 256 1000;bf16 1 3000 3000 3000;tf32 1 2200 4096 4096}"
      for shape in "${shapes[@]}"; do
        for cfg in "wgmma.persist=2 wgmma.consumers=2 wgmma.wave_bn=0" \
          "wgmma.persist=1 wgmma.consumers=2 wgmma.wave_bn=0"; do
          [ -n "$p" ] && [ "${cfg#wgmma.persist=1}" != "$cfg" ] && continue # the tree's alone
          # shellcheck disable=SC2086 # a shape's words
          echo "[$cfg] $(timeout -k 2 "$(budget 20)" $b/lgt $shape "$cfg" 2>&1 | tr '\n' ' ' |
            cut -c1-150)"
        done
      done
      b=$base_b
    done
    if [ "${SKVAR_TEST:-0}" = 1 ] && [ -x /tmp/skvar_sk_cpasync/b/tests/test_matmul_wgmma ]; then
      (cd /tmp/skvar_sk_cpasync/b && OCFT_ONLY=test_wgmma_stream_k timeout -k 5 "$(budget 250)" \
        tests/test_matmul_wgmma >"$work/cpasync_test.txt" 2>&1
        echo "test_wgmma_stream_k (sk_cpasync) exit $?")
    fi
    ;;
  patchgrid)
    # the tree ($b) against the tree with PATCH (a second build) on PATCH_SHAPES ("dtype trans_b
    # m n k;..."), each build's plan as its context makes it (the shipped database included),
    # cuBLAS beside (PEERS_CAP, default 60 s); PATCH_TESTS (tests of test_matmul_wgmma) run in
    # the patched build first, 250 s each at most; PATCH_CARD: a name the card's must contain,
    # else nothing runs (a database patch means nothing on another card). E.g. the H100's own
    # matrix-unit entries tried in the H200's database (h200_hopper.patch), on an H200:
    #   PATCH=tools/lab/h200/h200_hopper.patch PATCH_CARD=H200 PATCH_SHAPES="bf16 0 4096 4096 4096;..."
    card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    if [ -n "${PATCH_CARD:-}" ] && [ "${card#*"$PATCH_CARD"}" = "$card" ]; then
      echo "patchgrid: the card is '$card', not $PATCH_CARD: nothing run"
      continue
    fi
    new=/tmp/patch_new
    LOG=$work/new_build.txt patched_build $new "${PATCH:?PATCH: the patch}" oclfuse \
      test_matmul_wgmma || continue
    [ -x $b/lgt ] || cc -std=c11 -O2 -Iinclude tools/lab/h200/library_gemm_time.c -L$b -loclfuse \
      -lOpenCL -lm -Wl,-rpath,$b -o $b/lgt
    for t in ${PATCH_TESTS:-}; do
      (cd $new/b && OCFT_ONLY=$t timeout -k 5 "$(budget 250)" tests/test_matmul_wgmma \
        >"$work/patch_$t.txt" 2>&1
        echo "$t (patched) exit $?")
    done
    : >"$work/shapes.txt"
    IFS=';' read -r -a shapes <<<"${PATCH_SHAPES:?PATCH_SHAPES: dtype trans_b m n k;...}"
    for shape in "${shapes[@]}"; do
      echo "$shape" >>"$work/shapes.txt"
      for build in "$b" "$new/b"; do
        # shellcheck disable=SC2086 # a shape's words
        echo "[$([ "$build" = "$b" ] && echo tree || echo patch)] $(timeout -k 2 "$(budget 20)" \
          "$build/lgt" $shape 2>&1 | tr '\n' ' ' | cut -c1-200)"
      done
    done
    if [ "${PEERS_CAP:-60}" -gt 0 ]; then
      timeout -k 5 "$(budget "${PEERS_CAP:-60}")" python3 tools/lab/h200/gemm_peers.py \
        "$work/shapes.txt" 2>&1
    fi
    ;;
  grid)
    # the context's plan and GRID_CONFIGS (";"-separated, "" the context's alone) on GRID_SHAPES
    # ("dtype trans_b m n k;..."), cuBLAS beside (PEERS_CAP, default 150 s): a round that needs
    # no step of its own
    gemm_grid "${GRID_SHAPES:?GRID_SHAPES: dtype trans_b m n k;...}" "${GRID_CONFIGS:-}" \
      "${PEERS_CAP:-150}"
    ;;
  threedb)
    # a database patch (THREE_PATCH) in a second build: the nvidia suites there, then its plans
    # against wgmma.consumers=2 on THREE_SHAPES' default, cuBLAS beside
    new=/tmp/three_db
    LOG=$work/new_build.txt patched_build $new "${THREE_PATCH:?THREE_PATCH: the database patch}" ||
      continue
    (cd $new/b && timeout -k 10 "$(budget 260)" ctest -L nvidia -j4 --output-on-failure \
      >"$work/nvidia.txt" 2>&1)
    echo "nvidia suites (three consumers in the database) rc $?"
    grep -E "tests passed|Failed|Not Run|Timeout|\*\*\*" "$work/nvidia.txt" | head -20
    b_saved=$b
    b=$new/b
    gemm_grid "bf16 0 3072 3072 3072;bf16 1 3000 3000 3000;bf16 0 4096 4096 4096;bf16 1 5000 5000 5000;f16 0 6144 6144 6144;tf32 1 6144 6144 6144;bf16 1 2560 4096 4096;bf16 0 4096 14336 4096" \
      ";wgmma.consumers=2" "${PEERS_CAP:-60}"
    b=$b_saved
    ;;
  padcopy)
    # the tree as committed ($b) against the tree with PAD_PATCH applied (a second build)
    new=/tmp/pc_new
    LOG=$work/new_build.txt patched_build $new "${PAD_PATCH:-tools/lab/h200/pad_batch.patch}" \
      oclfuse test_matmul_pad || continue
    gemm_grid "bf16 0 3000 3000 3000" "" >/dev/null # builds $b/lgt
    for shape in "bf16 0 3000 3000 3000" "bf16 1 3000 3000 3000" "bf16 0 4095 4104 4000" \
      "bf16 0 5000 5000 5000" "f16 0 3000 3000 3000" "bf16 0 8192 8192 8200"; do
      for lib in committed patched; do
        exe=$b/lgt
        [ $lib = patched ] && exe=$new/b/lgt
        # shellcheck disable=SC2086
        echo "$lib $(timeout -k 2 "$(budget 20)" $exe $shape 2>&1 | tr '\n' ' ' | cut -c1-120)"
      done
    done
    (cd $new/b && timeout -k 5 "$(budget 90)" tests/test_matmul_pad >"$work/pad_test.txt" 2>&1
      echo "test_matmul_pad (patched) exit $?" >>"$work/pad_test.txt")
    grep -v '^\[ *\(RUN\|OK\) ' "$work/pad_test.txt" | tail -4
    ;;
  rowphase)
    for pad in 0 8 16 32 64; do
      echo "PAD_B $pad"
      PAD_B=$pad gemm_grid "bf16 0 3072 3072 3072;bf16 1 3072 3072 3072" ";wgmma.tma=2"
    done
    for pad in 16 32; do
      echo "PAD_A $pad"
      PAD_A=$pad gemm_grid "bf16 0 3072 3072 3072" ";wgmma.tma=2"
    done
    ;;
  tmapad)
    # Which rows the TMA reads at full speed: A or B 8 values off the lines, or both, under the
    # built-in plan, wgmma.tma=2 (B read in place) and the direct cp.async kernel (no copy).
    for pads in "0 0" "8 0" "0 8" "8 8"; do
      read -r pa pb <<<"$pads"
      echo "PAD_A $pa PAD_B $pb"
      PAD_A=$pa PAD_B=$pb gemm_grid "bf16 0 3072 3072 3072;bf16 1 3072 3072 3072" \
        ";wgmma.tma=2;wgmma.align_rows=0"
    done
    gemm_grid "bf16 0 3000 3000 3000;bf16 1 3000 3000 3000;bf16 0 3072 3072 3072" \
      ";wgmma.tma=2;wgmma.align_rows=0" 60
    ;;
  packbk)
    # Packed decoding's split with more bytes in flight (mmaclock, 2026-12-06: its first 64-key
    # tile lands after 7 us and the rest streams at 1.6 TB/s, one tile in flight a warp): tiles
    # of 128 keys (a 64 KB tile a stage), with one workgroup a unit too, and 3 stages of 32,
    # beside the shipped route ("": attention_lanes below mma.pack's 5 rows a key head) and
    # the packed split as it is; GB/s of K and V, each line checked against the reference.
    cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L$b -loclfuse -lOpenCL \
      -lm -Wl,-rpath,$b -o $b/lat || exit 1
    for shape in "bf16 1 32 8 1 8192 128" "bf16 4 32 8 1 8192 128" "bf16 1 32 8 1 32768 128" \
      "bf16 1 64 8 1 8192 128"; do
      for config in "" "mma.pack=1" "mma.pack=1 mma.bk=128" "mma.pack=1 mma.bk=128 mma.pack_fill=1" \
        "mma.pack=1 mma.bk=32 mma.stages=3"; do
        # shellcheck disable=SC2086
        echo "[$config] $(timeout -k 2 "$(budget 25)" $b/lat $shape ${config:+"tune=$config"} 2>&1 |
          tr '\n' ' ' | cut -c1-210)"
      done
    done
    ;;
  normwide)
    # fp32 rows of 8192 to 32768 columns (norm's wider class): the H100's database keeps the
    # H200's 4 groups a unit with prefetch, and RMSNorm 1024 x 16384 / 2048 x 12288 trailed
    # torch.compile by 1-2 % (2658 / 2773 GB/s against 2701 / 2796; normall, 2026-12-06):
    # the grid's rows, a row a workgroup, wider workgroups and vectors, and the stream.
    norm_round normwide 200 "f32" "rms layer" "1024 16384;2048 12288;4096 8192;512 32768" \
      "auto=;g0=rows.groups_per_unit=0 rows.prefetch=0;g2=rows.groups_per_unit=2;g8=rows.groups_per_unit=8;w1024=rows.wide_wg=1024;vw8=vw=8;stream=stream.min_cols=8192"
    ;;
  mmaclock)
    # The library with the clocks patch, built apart (only the library: the patch's PTX is not
    # for PoCL), then each case with its clocks: phases in SM cycles (1.98 GHz at most), the
    # entries' spread and the span on the global timer.
    src=/tmp/src_clock
    tree_copy $src
    (cd $src && { patch -p1 <tools/lab/h200/mma_clock.patch || git apply tools/lab/h200/mma_clock.patch; } >/dev/null) ||
      { echo "patch failed"; exit 1; }
    (cmake -S $src -B /tmp/b_clock -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_BUILD_LAB=OFF &&
      cmake --build /tmp/b_clock --target oclfuse -j16 &&
      cc -std=c11 -O2 -Iinclude tools/lab/h200/library_attention_time.c -L/tmp/b_clock -loclfuse \
        -lOpenCL -lm -Wl,-rpath,/tmp/b_clock -o /tmp/b_clock/lat) >"$work/build_clock.txt" 2>&1 ||
      { tail -20 "$work/build_clock.txt"; exit 1; }
    # (each case: library_attention_time's words|its tune= values, the words unquoted on purpose)
    for c in "bf16 1 32 8 1 8192 128|mma.pack=1" "bf16 1 32 8 1 8192 128|mma.pack=1 mma.pack_fill=1" \
      "bf16 1 32 8 1 8192 128|mma.pack=1 mma.pack_fill=4" \
      "bf16 1 32 8 1 8192 128|mma.pack=1 mma.join=2" "bf16 1 32 8 1 32768 128|mma.pack=1" \
      "bf16 1 64 8 1 8192 128|" "bf16 8 64 8 1 4096 128|" "bf16 1 32 2 1 8192 128|"; do
      tune=${c#*|}
      # shellcheck disable=SC2086
      CLOCKS=1 timeout -k 2 "$(budget 25)" /tmp/b_clock/lat ${c%%|*} ${tune:+"tune=$tune"} 2>&1 |
        cut -c1-200
    done
    ;;
  hopperdb)
    # Builds of the bench differing only in the shipped databases: /tmp/b as committed, and one
    # for each file of DBS under this card's name (its `device` line replaced), so every entry
    # it sets applies here; then each group of calls under every build in turn.
    card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/ *$//')
    # DBS: the databases to try, NAME=FILE each (default the H200's), each in a build of its own.
    builds=(b)
    for db in ${DBS:-b_db=src/tuning/shipped/nvidia-h200.tuning}; do
      src=/tmp/src_${db%%=*}
      tree_copy $src
      sed "s/^device .*/device $card/" "${db#*=}" >$src/src/tuning/shipped/hopper-trial.tuning
      (cmake -S $src -B /tmp/${db%%=*} -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_BUILD_LAB=OFF &&
        cmake --build /tmp/${db%%=*} --target oclfuse_tool -j16) >"$work/build_${db%%=*}.txt" 2>&1 ||
        { tail -20 "$work/build_${db%%=*}.txt"; exit 1; }
      builds+=("${db%%=*}")
    done
    echo "card '$card', builds ${builds[*]} at $((SECONDS - start)) s"
    # A group of calls an op or type, each group under both builds in turn (one cut call loses
    # one group, and builds' driver caches warm alike), its JSON and progress kept.
    groups=("softmax:4096x4096;softmax:2048x12345;softmax:512x50257;softmax:1024x30522;softmax:64x1048576"
      "softmax:65536x128:bf16;softmax:32768x200:bf16;softmax:16384x1000:bf16;softmax:8192x1496:bf16;softmax:4096x4096:bf16;softmax:2048x12345:bf16;softmax:512x50257:bf16;softmax:1024x32000:bf16;softmax:64x1048576:bf16"
      "softmax:65536x128:f16;softmax:16384x1024:f16;softmax:4096x4096:f16;softmax:512x50257:f16"
      "rmsnorm:65536x128:weight;layernorm:65536x128:weight:bias;rmsnorm:1024x16384:weight;layernorm:2048x16384:weight:bias;rmsnorm:512x65536:weight;rmsnorm:1024x24576:weight"
      "rmsnorm:32768x1024:bf16:weight;layernorm:16384x2000:bf16:weight:bias;rmsnorm:8192x4096:bf16:weight;layernorm:8192x4096:bf16:weight:bias;rmsnorm:1024x16384:bf16:weight;rmsnorm:256x65536:bf16:weight;rmsnorm:256x65536:f16:weight;layernorm:8192x4096:f16:weight:bias"
      "matmul:1024x1024x16384;matmul:64x11008x4096;matmul:128x4096x4096;matmul:512x512x512;matmul:768x2048x4096;add:2^26;add:2^28"
      "attention:4x32x4096x4096x128:bf16;attention:8x16x1024x1024x64:bf16:causal;attention:1x32x1x8192x128:bf16;attention:1x32x1x8192x128:bf16:kv=8")
    for g in ${HOPPER_GROUPS:-${!groups[@]}}; do
      for build in "${builds[@]}"; do
        timeout -k 5 "$(budget "${GROUP_CAP:-60}")" /tmp/$build/bench/oclfuse bench --repeat 5 --format json \
          --sizes "${groups[$g]}" >"$work/g${g}_$build.json" 2>"$work/g${g}_$build.err"
        echo "group $g $build: rc $? at $((SECONDS - start)) s"
      done
    done
    # Each call's rate under every build and its ratio to the first, "plan" where the plan
    # differs from the first build's (a file a group and build; a cut bench leaves what it
    # measured, "interrupted" in its JSON).
    python3 - "$work" "${builds[@]}" <<'PY'
import glob, json, os, sys
work, builds = sys.argv[1], sys.argv[2:]
for path in sorted(glob.glob(os.path.join(work, "g*_" + builds[0] + ".json"))):
    group = os.path.basename(path).split("_")[0]
    runs = {}
    for b in builds:
        try:
            runs[b] = {r["op"] + " " + r["shape"]: r for r in json.load(open(
                os.path.join(work, group + "_" + b + ".json")))["results"] if r["variant"] == "oclfuse"}
        except (OSError, ValueError):
            runs[b] = {}
    for call, first in runs[builds[0]].items():
        cells = []
        for b in builds[1:]:
            r = runs[b].get(call)
            if not r or not r.get("rate") or not first.get("rate"):
                cells.append(b + " -")
                continue
            cells.append("%s %.0f %.3f%s" % (b, r["rate"], r["rate"] / first["rate"],
                                             "" if r.get("plan") == first.get("plan") else " plan"))
        print(group, call, "%.0f" % (first.get("rate") or 0), " ".join(cells))
PY
    ;;
  attntma)
    wgmma_attention_round attntma "db=wgmma.on=1;tma=wgmma.on=1 wgmma.tma=1;persist=wgmma.on=1 wgmma.tma=1 wgmma.tma_persist=1;cpasync=wgmma.on=1 wgmma.tma=0" \
      "bf16 4 32 32 4096 4096 128
bf16 4 32 32 4096 4096 128 causal
f16 4 32 32 4096 4096 128
bf16 1 32 32 1024 1024 128
bf16 2 16 4 2000 3000 128
bf16 8 16 16 1024 1024 64 causal"
    ;;
  attnsplit)
    wgmma_attention_round attnsplit "db=wgmma.on=1;tma=wgmma.on=1 wgmma.tma=1 wgmma.tma_split=1 wgmma.tma_persist=0;persist=wgmma.on=1 wgmma.tma=1 wgmma.tma_split=1 wgmma.tma_persist=1;cpasync=wgmma.on=1 wgmma.tma=0" \
      "bf16 1 32 8 256 16384 128
bf16 1 32 32 128 8192 128
bf16 1 8 8 512 32768 128
f16 1 32 32 128 8192 128
bf16 1 32 8 256 16384 128 causal
bf16 1 16 16 128 8192 64
bf16 1 32 32 1024 1024 128"
    ;;
  onewave)
    # Rule 2's one wave of 128-column tiles (wgmma.one_wave, the fifty-first session's planner
    # change, measured then only by forcing wgmma.bn=128 at 1024^3 and 1536^3): test_matmul_wgmma's
    # three consumers (their 192 x 128 tile, new then) and tunables, then calls of one wave of
    # several classes (square, wide, tall, ragged and copied, f16, TF32) under the rule's first
    # form (one_wave 0) and the schema's (1), cuBLAS beside.
    wgmma_tests 150 test_wgmma_three_consumers test_wgmma_tunables
    # (K too short to split, under 2 split_min, or tiles past half the units: 2048 x 1536 x 1024
    # is 16 x 6 tiles of two consumers, whose 128-column ones pass the units but three's 11 x 12
    # do not; 1024 x 4096 x 1024, 128 tiles, is the control.)
    gemm_grid "bf16 0 1024 1024 1024;bf16 0 1536 1536 1536;bf16 0 768 768 768;bf16 0 512 512 512;bf16 0 1280 1280 1280;bf16 1 2048 1536 1024;bf16 0 1000 1000 1000;f16 0 1280 1280 1024;tf32 1 1024 1024 1024;bf16 1 1024 4096 1024" \
      "wgmma.one_wave=0;wgmma.one_wave=1" 120
    # Split K (rule 5, decided before the one-wave rule in the tuning's width) against whole K in
    # one wave of narrow tiles (split_min 0): 256 x 4096^2 split 4 ways ran 205.4 TFLOP/s, its
    # reduce 30 % of the time, whole K in 256 columns 179.2, cuBLAS 306.4 (an H100, 2026-12-07)
    gemm_grid "bf16 1 256 4096 4096;bf16 1 512 4096 4096;bf16 1 384 4096 4096;bf16 1 256 8192 2048;bf16 1 2048 1024 4096" \
      ";wgmma.split_min=0" 90
    ;;
  splitgate)
    # Rule 5's gate (the fifty-second session): `onewave` found whole K in one wave of 128-column
    # tiles beating the split on five few-row calls of 64 to 128 of 132 units (an H100); where
    # between 24 % and 48 % of the units the split starts to win decides whole_k_fill.
    [ "${SPLITGATE_TESTS:-1}" = 1 ] && wgmma_tests 200 test_wgmma_three_consumers test_wgmma_split_k
    # (narrow workgroups / units: 2 x 20 = 40, 2 x 24 = 48, 2 x 28 = 56, 3 x 16 = 48, 2 x 32 = 64,
    # 4 x 16 = 64, 2 x 12 = 24, 32 x 4 = 128)
    gemm_grid "bf16 1 256 2560 8192;bf16 1 256 3072 8192;bf16 1 256 3584 8192;bf16 1 384 2048 8192;bf16 1 256 4096 8192;bf16 1 512 2048 4096;bf16 1 256 1536 8192;bf16 1 4096 512 4096" \
      ";wgmma.whole_k_fill=0" 120
    ;;
  blocklocal)
    # attention_block past the reported 48 KiB (block.local, the fifty-first session: fp32 prefill
    # in exact products at 0.40 of SDPA's efficient, its tiles cut to fit 48 KiB): test_attention's
    # block suite on the GPU (its 64 x 64 tiles must reach d 128 after the probe they ask for),
    # then the shipped tiles (32 x 32, 4 rows a work-item, 16 across) against larger ones on fp32
    # prefill, SDPA beside (efficient is 3XTF32): 64 x 64 (256 work-items), 32 x 64, 64 x 32 of 8
    # rows a work-item, 64 x 64 of 8 rows (scores of 8 x 4 float4s: spills likely), and 8 across
    # (4 x 4 scores, 16 columns, within 48 KiB). Each configuration's first call asks for the
    # probe; the timed calls after it run the tiles the plan printed.
    (cd $b && OCFT_ONLY=test_attention_block timeout -k 5 "$(budget 150)" tests/test_attention \
      >"$work/block_test.txt" 2>&1; echo "test_attention_block rc $?")
    grep -v '^\[ *\(RUN\|OK\) ' "$work/block_test.txt" | tail -6
    SUITES='' PEERS=0 BUDGET=$(($(budget 330) - 20)) OUT=$work/blocklocal \
      CONFIGS="base=block.local=0;q64k64=block.local=1 block.bq=64 block.bk=64;k64=block.local=1 block.bk=64;r8k32=block.local=1 block.bq=64 block.rm=8 block.bk=32;r8k64=block.local=1 block.bq=64 block.rm=8 block.bk=64;tc8=block.tc=8" \
      SHAPES="f32 4 32 32 4096 4096 128
f32 1 32 32 1024 1024 128
f32 4 32 32 4096 4096 128 causal
f32 8 16 16 1024 1024 64 causal
f32 4 32 32 4096 4096 64" timeout -k 10 "$(budget 330)" bash tools/lab/h200/round_attention_wgmma.sh \
      >"$work/blocklocal.txt" 2>&1
    cut -c1-220 "$work/blocklocal.txt" | tail -34
    timeout -k 5 "$(budget 100)" python3 tools/lab/h200/attention_peers.py 4x32x4096x4096x128:f32 \
      1x32x1024x1024x128:f32 4x32x4096x4096x128:f32:causal 8x16x1024x1024x64:f32:causal \
      4x32x4096x4096x64:f32 2>&1 | tail -8
    ;;
  narrow16b)
    # 16-bit narrow rows (256 columns or fewer: 6-15 % behind torch.compile on the H100,
    # docs/SOFTMAX.md "What is left") under what narrowsm did not try: smaller workgroups (64,
    # 32 work-items: more of them a unit for the 10-20 us calls), two vectors of 16 a lane (half
    # the lanes a row, Inductor's many values a thread), the two together; torch beside; then
    # Inductor's own kernel for the same shapes (its rows a program, warps, loads)
    softmax_round narrow16b 220 50 \
      "65536 128 bf16;65536 128 f16;131072 64 bf16;32768 256 bf16;32768 200 bf16" \
      "auto;rows.wg=64;rows.wg=32;rows.aligned_seg_items=2;rows.wg=64 rows.aligned_seg_items=2;rows.wg=256 rows.aligned_seg_items=2;rows.wg=64 rows.groups_per_unit=8"
    timeout -k 10 "$(budget 90)" python3 tools/lab/softmax/inductor_code.py 65536x128:bf16 \
      32768x200:bf16 >"$work/inductor.txt" 2>&1
    grep -E "====|num_warps|XBLOCK|RBLOCK|R0_BLOCK|launch|reduction_hint|persistent" \
      "$work/inductor.txt" | head -60
    ;;
  narrowsm)
    softmax_round narrowsm 200 50 \
      "65536 128 bf16;65536 128 f16;131072 64 bf16;32768 256 bf16;32768 200 bf16;32768 256 f16;65536 128 f32" \
      "auto;rows.wg=256;vw=8 rows.seg_items=1;vw=16 rows.seg_items=1;rows.groups_per_unit=2 rows.prefetch=1;rows.groups_per_unit=4 rows.prefetch=1;rows.wg=256 rows.groups_per_unit=4 rows.prefetch=1"
    ;;
  *) echo "unknown step $step" ;;
  esac
  tar czf "$out/$name.tgz" -C "$out" "$name"
done
echo "done at $((SECONDS - start)) s"
tar czf "$out/$name.tgz" -C "$out" "$name"
