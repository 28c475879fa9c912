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
    /* Not measured yet (lab/softmax/run.sh sweeps them on the H200): rows cut into slices of
       cooperating workgroups rather than streamed twice (one compute unit runs at least one
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

    /* ---- matmul ---- */
    {{OCF_OP_MATMUL, OCF_F32, ANY, CPU, NULL},
     "fill=2",
     "PoCL: 8 x 8 work-items of 4 x 4 outputs, 32 x 32 tiles that stay in cache (PoCL turns a "
     "workgroup into loops; a small one keeps the state carried across barriers small), 16 x 16 "
     "tiles below two workgroups per core"},
    /* H200 (OpenCL 3.0 CUDA, driver 580.159, 132 compute units), NN, event-timed medians. Set 0
       at 4096 / 8192: 128 x 128 tiles, 8 x 8 outputs per work-item in a 16 x 16 workgroup and K
       slices of 8: 45.8 / 46.5 TFLOP/s (CLBlast 1.5.3 untuned: 30.2 / 32.8). K slices of 16
       gave 37.7; 8 x 16 workgroups 44.0 / 47.1; 256 x 128 tiles 34.6; 64 x 64 tiles 38.7;
       padding 0 or 8 the same. At 256 and 512 the 128 x 128 tiles make 4 and 16 workgroups
       for 132 compute units (1.1 and 4.8 TFLOP/s), at 1024 only 64 (20.0): below one per
       compute unit, set 1 (64 x 64 tiles, K slices of 16) and then set 2 (32 x 32 tiles, 8 x 8
       work-items) take over: 2.8 at 256, 13.2 at 512, 30.2 at 1024, 20.6 at 1000. */
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_NVIDIA, GPU, NULL},
     "fill=1 "
     "set0.mdimc=16 set0.ndimc=16 set0.mwi=8 set0.nwi=8 set0.kwg=8 set0.vwm=4 set0.vwn=4 "
     "set0.pada=4 set0.padb=4 "
     "set1.mdimc=16 set1.ndimc=16 set1.mwi=4 set1.nwi=4 set1.kwg=16 set1.vwm=4 set1.vwn=4 "
     "set1.pada=4 set1.padb=4 "
     "set2.mdimc=8 set2.ndimc=8 set2.mwi=4 set2.nwi=4 set2.kwg=16 set2.vwm=4 set2.vwn=4 "
     "set2.pada=4 set2.padb=4",
     "H200, measured 2026-11-29"},
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_AMD, GPU, NULL},
     "fill=1 "
     "set0.mdimc=16 set0.ndimc=16 set0.mwi=8 set0.nwi=8 set0.kwg=16 "
     "set1.mdimc=16 set1.ndimc=16 set1.mwi=4 set1.nwi=4 set1.kwg=16 set1.vwm=4 set1.vwn=4 "
     "set1.pada=4 set1.padb=4 "
     "set2.mdimc=8 set2.ndimc=8 set2.mwi=4 set2.nwi=4 set2.kwg=16 set2.vwm=4 set2.vwn=4 "
     "set2.pada=4 set2.padb=4",
     "unmeasured starting point"},
    {{OCF_OP_MATMUL, OCF_F32, OCF_VENDOR_INTEL, GPU, NULL},
     "fill=1 set0.mdimc=16 set0.ndimc=8 set0.mwi=4 set0.nwi=8 set0.kwg=16 "
     "set1.mdimc=8 set1.ndimc=8 set1.mwi=4 set1.nwi=4",
     "unmeasured starting point, smaller for narrower register files"},
};

const ocf_tuning_row *ocf_builtin_rows(size_t *count) {
  *count = OCF_ARRAY_LEN(builtin_rows);
  return builtin_rows;
}
