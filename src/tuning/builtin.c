/*
 * The built-in tuning rows: what a device gets when nothing else says better. Each row overrides
 * what less specific rows (and the schema's fallbacks, the generic row) set. Rows are text in
 * the same "name=value" form as the tuning database and overrides, read by the same parser and
 * checked by the same validator; the device-free tests resolve every row.
 */
#include "common.h"
#include "tuning/tuning.h"

#define GPU CL_DEVICE_TYPE_GPU
#define CPU CL_DEVICE_TYPE_CPU
#define ANY OCF_VENDOR_ANY

static const ocf_tuning_row builtin_rows[] = {
    /* ---- add ---- */
    {{OCF_OP_ADD, OCF_F32, ANY, CPU, NULL},
     "wg=64 vw=8 groups_per_unit=0",
     "PoCL on 2 cores: no grid-stride loop (PoCL vectorises across work-items, not across a "
     "per-item loop), 3.3 -> 28 GB/s at 2^24"},
    {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "wg=256 vw=4 groups_per_unit=16",
     "H200: 4113 GB/s at 2^28 (99 % of copy)"},
    {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_AMD, GPU, NULL},
     "wg=256 vw=4 groups_per_unit=16",
     "unmeasured starting point"},
    {{OCF_OP_ADD, OCF_F32, OCF_VENDOR_INTEL, GPU, NULL},
     "wg=256 vw=4 groups_per_unit=8",
     "unmeasured starting point"},

    /* ---- softmax ---- */
    {{OCF_OP_SOFTMAX, OCF_F32, ANY, CPU, NULL},
     "wg=64 min_wg=16 vw=8 items=4 unroll=2 rows_wg=64 seg_items=4 max_seg=8 groups_per_unit=2",
     "PoCL on 2 cores"},
    /* H200 (driver 580, profiling events, GB/s = 8 rows cols / time): 4096 x 4096 in registers,
       64 x 16 float4 a row: 3.49 TB/s (copy 3.7); 16384 x 1024: 3.56; 1024 x 65536 two-pass
       with 256 x 2: 2.66 (split rows: 2.0, so 1024 rows do not split); 64 x 262144 split into
       4..16 parts: 1.1-1.25 (one group a row: 0.66). Its compiler caps these kernels at 256
       work-items. softmax_rows with 128 work-items, 4 float4 each (copy 4.12): 65536 x 128 in
       8-wide segments 3.21 (one 32-item group a row: 1.44; 256-item groups: 3.08); 32768 x 256
       3.17; 16384 x 512 3.16; 16384 x 1024 3.56; 4096 x 4096 in one 128 x 8 segment 3.57
       (64 x 16 resident: 3.30). */
    {{OCF_OP_SOFTMAX, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "wg=256 min_wg=64 vw=4 items=16 unroll=2 rows_wg=128 seg_items=4 max_seg=128 "
     "groups_per_unit=4",
     "H200, measured 2026-11-29"},
    /* Not measured yet (tools/lab/softmax/run.sh sweeps them on the H200): rows cut into slices
       of cooperating workgroups rather than streamed twice (one compute unit runs at least one
       256-item group, and the dispatcher starts the slices of a row together, so partners are
       waited for microseconds; a wait is bounded anyway: 4096 polls, a few ms, before a
       workgroup computes a missing partner's statistics itself), segments in whole warps. */
    {{OCF_OP_SOFTMAX, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "seg_align=32 coop_spin=4096",
     "starting point, to be measured"},
    /* 16-bit storage: 16-byte vectors of 8 elements, the same floats a work-item. */
    {{OCF_OP_SOFTMAX, OCF_F16, OCF_VENDOR_NVIDIA, GPU, NULL},
     "vw=8 items=8 seg_items=2",
     "starting point, to be measured"},
    {{OCF_OP_SOFTMAX, OCF_BF16, OCF_VENDOR_NVIDIA, GPU, NULL},
     "vw=8 items=8 seg_items=2",
     "starting point, to be measured"},
    {{OCF_OP_SOFTMAX, OCF_F32, OCF_VENDOR_AMD, GPU, NULL},
     "wg=256 min_wg=64 vw=4 items=8 unroll=4 rows_wg=256 seg_items=4 max_seg=64 "
     "groups_per_unit=8",
     "unmeasured starting point (wavefront 64)"},
    {{OCF_OP_SOFTMAX, OCF_F32, OCF_VENDOR_INTEL, GPU, NULL},
     "wg=256 min_wg=32 vw=4 items=4 unroll=4 rows_wg=256 seg_items=4 max_seg=32 "
     "groups_per_unit=8",
     "unmeasured starting point"},

    /* ---- norm: LayerNorm and RMSNorm (issue 20), none measured yet ---- */
    /* PoCL on 2 shared cores (2026-12-02, event-timed best of 5, loaded machine, so +-30 %):
       segments of at most 8 work-items (rows up to 512 floats held, longer ones split) beat
       the unfused baseline 1.3-2.2x on 4096 x 256 .. 16 x 65536, LayerNorm and RMSNorm; with
       64-item segments (rows up to 4096 held) the fused kernel lost to it on 1024 x 1024 and
       256 x 4096 (0.5-0.8x: PoCL's barriers in a 64-lane segment cost more than a second read). */
    {{OCF_OP_NORM, OCF_F32, ANY, CPU, NULL},
     "wg=64 vw=8 items=8 rows_wg=64 seg_items=4 max_seg=8 unroll=2 groups_per_unit=2",
     "PoCL on 2 cores, measured against the baseline 2026-12-02"},
    /* A guess for the H200 (its compiler caps these kernels at 256 work-items): rows up to
       16384 floats in one 256-item group's registers (64 floats a work-item), whole warps. */
    {{OCF_OP_NORM, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "wg=256 vw=4 items=16 rows_wg=256 seg_items=4 max_seg=256 seg_align=32 unroll=4 "
     "groups_per_unit=4",
     "starting point, to be measured"},
    /* 16-bit storage: 16-byte vectors of 8 elements, the same floats a work-item. */
    {{OCF_OP_NORM, OCF_F16, OCF_VENDOR_NVIDIA, GPU, NULL},
     "vw=8 items=8 seg_items=2",
     "starting point, to be measured"},
    {{OCF_OP_NORM, OCF_BF16, OCF_VENDOR_NVIDIA, GPU, NULL},
     "vw=8 items=8 seg_items=2",
     "starting point, to be measured"},
    {{OCF_OP_NORM, OCF_F32, OCF_VENDOR_AMD, GPU, NULL},
     "wg=256 vw=4 items=16 rows_wg=256 seg_items=4 max_seg=256 seg_align=64",
     "unmeasured starting point (wavefront 64)"},

    /* ---- matmul ---- */
    {{OCF_OP_MATMUL, OCF_F32, ANY, CPU, NULL},
     "fill=2 split_k_min=128 sk_split_min=128 skinny_long_min=16",
     "PoCL: 8 x 8 work-items of 4 x 4 outputs, 32 x 32 tiles that stay in cache (PoCL turns a "
     "workgroup into loops; a small one keeps the state carried across barriers small), 16 x 16 "
     "tiles below two workgroups per core; K split from 256 on when C gives fewer workgroups "
     "than two per core; skinny kernels of 64 work-items from a long side of 16 (so that the "
     "small test shapes reach them)"},
    /* H200 (OpenCL 3.0 CUDA, driver 580.159, 132 compute units), NN, event-timed medians. Set 0
       at 4096 / 8192: 128 x 128 tiles, 8 x 8 outputs per work-item in a 16 x 16 workgroup and K
       slices of 8: 45.8 / 46.5 TFLOP/s (CLBlast 1.5.3 untuned: 30.2 / 32.8). K slices of 16
       gave 37.7; 8 x 16 workgroups 44.0 / 47.1; 256 x 128 tiles 34.6; 64 x 64 tiles 38.7;
       padding 0 or 8 the same. At 256 and 512 the 128 x 128 tiles make 4 and 16 workgroups
       for 132 compute units (1.1 and 4.8 TFLOP/s), at 1024 only 64 (20.0): below one per
       compute unit, set 1 (64 x 64 tiles, K slices of 16) and then set 2 (32 x 32 tiles, 8 x 8
       work-items) take over: 2.8 at 256, 13.2 at 512, 30.2 at 1024, 20.6 at 1000.
       Second lab run (lab/gemm, same driver), after the batch, epilogue and 16-bit changes to
       the kernel: set 0 with 4-wide local reads and padding 4 fell to 36.0 / 35.7 (ptxas: 129
       registers, so 256 work-items take 33 K of the 64 K registers and one workgroup runs per
       compute unit); the same tiles with padding 0 gave 46.1, with 2-wide reads 46.5 at 4096.
       Hence 2-wide reads and a cap of 128 registers (two workgroups per compute unit whatever
       the compiler would choose). Skinny, GB/s of the large operand against a 4119 GB/s copy:
       n = 1 k-contiguous with 8 row lanes 3228 (32: 3048), row-contiguous with 16 row lanes
       3458 (64: 3340). */
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "fill=1 max_regs=128 "
     "set0.mdimc=16 set0.ndimc=16 set0.mwi=8 set0.nwi=8 set0.kwg=8 set0.vwm=2 set0.vwn=2 "
     "set0.pada=4 set0.padb=4 "
     "set1.mdimc=16 set1.ndimc=16 set1.mwi=4 set1.nwi=4 set1.kwg=16 set1.vwm=4 set1.vwn=4 "
     "set1.pada=4 set1.padb=4 "
     "set2.mdimc=8 set2.ndimc=8 set2.mwi=4 set2.nwi=4 set2.kwg=16 set2.vwm=4 set2.vwn=4 "
     "set2.pada=4 set2.padb=4 "
     "set3.mdimc=8 set3.ndimc=8 set3.mwi=2 set3.nwi=2 set3.kwg=16 set3.vwm=2 set3.vwn=2 "
     "set3.pada=4 set3.padb=4 "
     "min_eff=50 split_k_min=1024 split_max=16 reduce_wg=256 "
     "skinny_max=16 sk_wg=256 sk_rl_k=8 sk_rl_r=16 sk_unroll=2 sk_fill=4 sk_split_min=512",
     "H200, sets 0-2 and the skinny row lanes measured 2026-11-29; set 3, split-K and the "
     "skinny wide path unmeasured (docs/GEMM.md)"},
    /* The matrix units (cl/matmul_mma_nv.cl), for fp32 inputs in TF32 and 3XTF32 (the 16-bit
       rows below change the K slice). H200, lab/mma's second run (driver 580.159, TFLOP/s at
       4096^3 / 8192^3, event-timed medians): TF32 128 x 128 tiles in K slices of 16, warps of
       64 x 64, 3 stages (48 KiB): 111.9 / 116.1, ragged 4097 x 4095 x 4104 107.9; 2 stages
       109 / 114; warps of 64 x 32 86 / 87; 128 x 256 tiles 111 / 113. 3XTF32 the same
       geometry: 50.8 / 52.0 (warps of 64 x 32: 37). Set 1 (64 x 64 tiles below one workgroup
       per compute unit) and the loop options are unmeasured: copies before the first mma,
       guarded copies everywhere, as measured. */
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "mma=1 mma.fill=1 mma.group_m=8 mma.copy_at=0 mma.interior=0 "
     "mma0.bm=128 mma0.bn=128 mma0.bk=16 mma0.wm=64 mma0.wn=64 mma0.stages=3 "
     "mma1.bm=64 mma1.bn=64 mma1.bk=16 mma1.wm=32 mma1.wn=32 mma1.stages=3",
     "H200, TF32 and 3XTF32 measured 2026-11-29 (lab/mma)"},
    /* fp16 and bf16 inputs: 128 x 128 tiles in K slices of 32, warps of 64 x 64, 3 stages
       (48 KiB): bf16 261.6 / 288.1, f16 261.5 / 288.2, ragged 262.6 / 263.4, 8192 x 1024 x 8192
       269.8; 2 stages 240 / 256; warps of 64 x 32 263 / 285; 128 x 256 x 32 (72 KiB) 255 / 267;
       128 x 256 x 16 207 / 213. */
    {{OCF_OP_MATMUL, OCF_F16, OCF_VENDOR_NVIDIA, GPU, NULL},
     "mma0.bk=32 mma1.bk=32",
     "H200, measured 2026-11-29 (lab/mma)"},
    /* Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl, compute capability 9.0 only), fed by
       cp.async from every work-item. H200, tools/lab/wgmma's first run (driver 580.159,
       2026-12-01, TFLOP/s at 4096^3 / 8192^3): bf16 128 x 256 tiles, 4 stages (193 KiB):
       494 / 535, B stored n x k 504 / 546; 3 stages 324 / 342; 128 x 128 376-378 / 395-399;
       one warpgroup (64 x 256) 337 / 355; 128 x 192 in 5 stages 360 / 429; f16 489 / 521; TF32
       (B n x k) 268 / 279. The row is written for every input type (a 16-bit one starts from
       the fp32 row). */
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "wg=1 wg.bn=256 wg.stages=4 wg.consumers=2 wg.group_m=8",
     "H200, measured 2026-12-01 (tools/lab/wgmma)"},
    {{OCF_OP_MATMUL, OCF_BF16, OCF_VENDOR_NVIDIA, GPU, NULL},
     "mma0.bk=32 mma1.bk=32",
     "H200, measured 2026-11-29 (lab/mma)"},
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_AMD, GPU, NULL},
     "fill=1 "
     "set0.mdimc=16 set0.ndimc=16 set0.mwi=8 set0.nwi=8 set0.kwg=16 "
     "set1.mdimc=16 set1.ndimc=16 set1.mwi=4 set1.nwi=4 set1.kwg=16 set1.vwm=4 set1.vwn=4 "
     "set1.pada=4 set1.padb=4 "
     "set2.mdimc=8 set2.ndimc=8 set2.mwi=4 set2.nwi=4 set2.kwg=16 set2.vwm=4 set2.vwn=4 "
     "set2.pada=4 set2.padb=4 "
     "reduce_wg=256 sk_wg=256 sk_rl_k=32 sk_rl_r=64 sk_fill=4 sk_split_min=512",
     "unmeasured starting point"},
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_INTEL, GPU, NULL},
     "fill=1 set0.mdimc=16 set0.ndimc=8 set0.mwi=4 set0.nwi=8 set0.kwg=16 "
     "set1.mdimc=8 set1.ndimc=8 set1.mwi=4 set1.nwi=4 "
     "reduce_wg=256 sk_wg=256 sk_rl_k=32 sk_rl_r=64 sk_fill=4 sk_split_min=512",
     "unmeasured starting point, smaller for narrower register files"},
};

const ocf_tuning_row *ocf_builtin_rows(size_t *count) {
  *count = OCF_ARRAY_LEN(builtin_rows);
  return builtin_rows;
}
