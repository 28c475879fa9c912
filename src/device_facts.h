/*
 * What the planner knows about a device: plain numbers, no OpenCL handles, so that plans can be
 * made (and tested) for devices that are not present. A context fills one from its device at
 * creation and adds to it what built kernels report (their own workgroup limits).
 */
#ifndef OCLFUSE_DEVICE_FACTS_H
#define OCLFUSE_DEVICE_FACTS_H

#include "kernels/kernels.h"

#include <stddef.h>

typedef enum ocf_vendor {
  OCF_VENDOR_OTHER = 0,
  OCF_VENDOR_NVIDIA,
  OCF_VENDOR_AMD,
  OCF_VENDOR_INTEL,
  OCF_VENDOR_APPLE,
  OCF_VENDOR_ARM,
  OCF_VENDOR_QUALCOMM
} ocf_vendor;

/* What a probe of this context found, once a call needed to know. */
typedef enum ocf_probe_state {
  OCF_PROBE_UNKNOWN = 0, /* not probed yet */
  OCF_PROBE_FAILED,      /* built and ran wrong, or did not build or run: not used again */
  OCF_PROBE_PASSED
} ocf_probe_state;

/* What a context learnt of its device after creation: probe outcomes, built kernels' limits,
   lowered local budgets. Written only under the context's lock, by the runtime (a limit only
   ever lowers, a probe's outcome is kept); every write raises the context's plan generation. */
typedef struct ocf_learnt_facts {
  /* The matrix-unit kernel (cl/matmul_mma_nv.cl) on this context, as its probes found it
     (src/runtime/mma_probe.c, run at the first call that would use it): whether it builds and
     computes right, the most static local memory (bytes declared) a probe ran right with and
     the size the built kernel reported for it (CL_KERNEL_LOCAL_MEM_SIZE: NVIDIA adds bytes of
     its own, and its driver runs more than the local memory the device reports), and the
     fewest bytes a probe failed with (0: none). A plan of the kernel declares at most
     mma_local_ok. */
  ocf_probe_state mma;
  unsigned long long mma_local_ok, mma_local_ok_reported, mma_local_failed;
  /* Hopper's warpgroup kernel (cl/matmul_wgmma_nv.cl, retargeted to sm_90a), as its one probe
     found it (src/runtime/wgmma_probe.c): whether it built and computed right, the static local
     memory the probe declared and what its built kernel reported; a plan of the kernel declares
     at most wgmma_local_ok. A build of it that fails after the probe passed sets FAILED too. */
  ocf_probe_state wgmma;
  unsigned long long wgmma_local_ok, wgmma_local_ok_reported;
  /* Its TMA-fed form (matmul_wgmma_tma, a workgroup of 288 work-items that makes its own tensor
     maps), as its own probe found it (src/runtime/wgmma_probe.c), run once the wgmma and the
     wide probes passed: the same three facts for that kernel. */
  ocf_probe_state wgmma_tma;
  unsigned long long wgmma_tma_local_ok, wgmma_tma_local_ok_reported;
  /* Workgroups beyond a kernel's reported CL_KERNEL_WORK_GROUP_SIZE (src/runtime/wide_probe.c):
     whether a reduction over a workgroup of the device's CL_DEVICE_MAX_WORK_GROUP_SIZE ran
     right on this context. NVIDIA's driver reports 256 for every kernel, yet runs 1024 where
     the registers fit (65536 a compute unit). */
  ocf_probe_state wide;
  /* 1: attention_lanes's BULK form (Hopper's bulk copies into a ring: it stands on the wgmma
     probe, which ran the same local memory and mbarriers) failed to build after that probe
     passed; its plans stream through registers from then on. */
  int lanes_bulk_failed;
  /* Per kernel, 1: a wide launch of it was refused (CL_OUT_OF_RESOURCES,
     CL_INVALID_WORK_GROUP_SIZE) after the probe passed; its plans stay within what it reports. */
  unsigned char wide_refused[OCF_KERNEL_COUNT];
  /* Per kernel, the largest workgroup a built instance of it accepted
     (CL_KERNEL_WORK_GROUP_SIZE), learnt after builds; 0 while unknown. Plans whose sizes were
     not fixed by the caller stay within it. */
  size_t kernel_max_workgroup[OCF_KERNEL_COUNT];
  /* Per program, the local memory its plans may count on, learnt when a built kernel reported
     more than the device has for a plan that counted less (rusticl's llvmpipe reports twice the
     bytes a kernel declares); 0 while unknown. */
  unsigned long long program_local_budget[OCF_PROGRAM_COUNT];
} ocf_learnt_facts;

/* The planner's one read-only view: what the device is (set at context creation from its
   description and extensions, never changed after) and what the context learnt since. */
typedef struct ocf_device_facts {
  cl_device_type type;
  ocf_vendor vendor;
  unsigned compute_units;    /* at least 1 */
  size_t max_workgroup_size; /* CL_DEVICE_MAX_WORK_GROUP_SIZE, at least 1 */
  size_t max_item_sizes[3];  /* CL_DEVICE_MAX_WORK_ITEM_SIZES, each at least 1 */
  unsigned long long local_mem_bytes;
  /* CL_DEVICE_GLOBAL_MEM_SIZE and CL_DEVICE_MAX_MEM_ALLOC_SIZE (0: not reported): the bounds of
     scratch a plan may ask for. */
  unsigned long long global_mem_bytes, max_alloc_bytes;
  /* NVIDIA's compute capability, major * 10 + minor (cl_nv_device_attribute_query), 0 where the
     device reports none. */
  unsigned nv_compute_capability;
  /* The compiler takes NVIDIA's -cl-nv-* build options (cl_nv_compiler_options): a plan may cap
     a kernel's registers per work-item (ocf_plan.max_registers). */
  int nv_compiler_options;
  /* The most loop iterations one work-item may run in all before the driver ends its loops,
     0: no such limit. Mesa's llvmpipe (rusticl) has 65535 (gallivm's loop limiter): past it a
     kernel's loops stop early and its result is silently wrong, so planners whose work-items
     loop over long rows keep each work-item's share below it. */
  unsigned long loop_limit;
  /* Wide workgroups need no register cap here: set only by the tests' hook
     (ocf_context_test_narrow_kernels, src/internal/oclfuse_internal.h), which makes a CPU
     device's kernels report NVIDIA-like small limits; its registers bound nothing. Without it
     or nv_compiler_options, no wide plan is made. */
  int wide_without_register_cap;
  ocf_learnt_facts learnt; /* all zero for a device nothing was learnt of yet */
} ocf_device_facts;

/* The vendor a CL_DEVICE_VENDOR / platform name pair names. */
ocf_vendor ocf_vendor_classify(const char *vendor, const char *platform_name);

/* Facts of a described device, nothing learnt yet. */
void ocf_device_facts_init(ocf_device_facts *facts, const ocf_device_info *info);

/* The most work-items a plan may put in one workgroup of `kernel` whose local sizes are
   `dims` long: the device maximum, the kernel's learnt limit when known. */
size_t ocf_facts_workgroup_limit(const ocf_device_facts *facts, ocf_kernel_id kernel);

/* The local memory a plan of `program` may declare (the device's; for the matrix-unit program
   what its probes ran right with; for attention_mma's, the more of the two), and the most a
   built kernel of it may report. */
unsigned long long ocf_facts_local_limit(const ocf_device_facts *facts, ocf_program_id program);
/* The device's local memory, or less where a budget for `program` was learnt: what any program
   may count on (attention_mma's plans without mma.local). */
unsigned long long ocf_facts_reported_local_limit(const ocf_device_facts *facts,
                                                  ocf_program_id program);
unsigned long long ocf_facts_kernel_local_limit(const ocf_device_facts *facts,
                                                ocf_program_id program);

/* The register cap (-cl-nv-maxrregcount) under which a workgroup of `items` work-items fits a
   compute unit's 65536 32-bit registers: 65536 / items rounded down to a multiple of 8 (64 at
   1024, 128 at 512), at most 255 (the most a work-item has); 0 for items above 8192. */
unsigned ocf_wide_register_cap(size_t items);

/* Whether a step of `kernel` may run `items` work-items, above what the built kernel reports,
   with a plan's register cap `max_registers`: the wide probe passed, no wide launch of the
   kernel was refused, items within the device's maximum, and registers capped so that the
   workgroup fits (or the tests' device that needs no cap). */
int ocf_facts_wide_allows(const ocf_device_facts *facts, ocf_kernel_id kernel, size_t items,
                          unsigned max_registers);

#endif /* OCLFUSE_DEVICE_FACTS_H */
