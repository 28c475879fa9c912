/* Device facts for the planner, from a device description. */
#include "device_facts.h"

#include "common.h"

#include <string.h>

ocf_vendor ocf_vendor_classify(const char *vendor, const char *platform_name) {
  static const struct {
    const char *needle;
    ocf_vendor vendor;
  } names[] = {
      {"NVIDIA", OCF_VENDOR_NVIDIA},     {"Advanced Micro Devices", OCF_VENDOR_AMD},
      {"AMD", OCF_VENDOR_AMD},           {"Intel", OCF_VENDOR_INTEL},
      {"Apple", OCF_VENDOR_APPLE},       {"ARM", OCF_VENDOR_ARM},
      {"Qualcomm", OCF_VENDOR_QUALCOMM},
  };
  for (size_t i = 0; i < OCF_ARRAY_LEN(names); i++)
    if ((vendor && ocf_contains_nocase(vendor, names[i].needle)) ||
        (platform_name && ocf_contains_nocase(platform_name, names[i].needle)))
      return names[i].vendor;
  return OCF_VENDOR_OTHER;
}

void ocf_device_facts_init(ocf_device_facts *facts, const ocf_device_info *info) {
  memset(facts, 0, sizeof *facts);
  facts->type = info->type;
  /* A CPU device's vendor is the CPU's maker: CPU runtimes (PoCL, rusticl, Intel's) get the CPU
     rows whoever made the chip, so the vendor only matters for GPUs and accelerators. */
  facts->vendor = info->type & CL_DEVICE_TYPE_CPU
                      ? OCF_VENDOR_OTHER
                      : ocf_vendor_classify(info->vendor, info->platform_name);
  facts->compute_units = info->compute_units ? info->compute_units : 1;
  facts->max_workgroup_size = info->max_workgroup_size ? info->max_workgroup_size : 1;
  for (size_t d = 0; d < 3; d++)
    facts->max_item_sizes[d] = info->max_work_item_sizes[d] ? info->max_work_item_sizes[d] : 1;
  facts->local_mem_bytes = info->local_mem_bytes;
  facts->global_mem_bytes = info->global_mem_bytes;
  facts->max_alloc_bytes = info->max_alloc_bytes;
  facts->nv_compute_capability =
      info->nv_compute_capability_major * 10 + info->nv_compute_capability_minor;
  if (ocf_contains_nocase(info->device_name, "llvmpipe")) facts->loop_limit = 65535;
}

size_t ocf_facts_workgroup_limit(const ocf_device_facts *facts, ocf_kernel_id kernel) {
  size_t limit = facts->max_workgroup_size;
  size_t learnt =
      (size_t)kernel < OCF_KERNEL_COUNT ? facts->learnt.kernel_max_workgroup[kernel] : 0;
  return learnt && learnt < limit ? learnt : limit;
}

unsigned long long ocf_facts_reported_local_limit(const ocf_device_facts *facts,
                                                  ocf_program_id program) {
  const unsigned long long learnt = facts->learnt.program_local_budget[program];
  return learnt && learnt < facts->local_mem_bytes ? learnt : facts->local_mem_bytes;
}

/* attention_mma's and attention_block's programs may declare what the matrix-unit probe ran right
   with (their plans do with mma.local=1, block.local=1), within a budget learnt for the
   program. */
static int shows_mma_local(ocf_program_id program) {
  return program == OCF_PROGRAM_ATTENTION_MMA_NV || program == OCF_PROGRAM_ATTENTION_BLOCK;
}

static unsigned long long mma_shown(const ocf_device_facts *facts, ocf_program_id program) {
  const unsigned long long learnt = facts->learnt.program_local_budget[program];
  unsigned long long limit = facts->local_mem_bytes;
  if (facts->learnt.mma == OCF_PROBE_PASSED && facts->learnt.mma_local_ok > limit)
    limit = facts->learnt.mma_local_ok;
  return learnt && learnt < limit ? learnt : limit;
}

unsigned long long ocf_facts_local_limit(const ocf_device_facts *facts, ocf_program_id program) {
  if (program == OCF_PROGRAM_MATMUL_MMA_NV) return facts->learnt.mma_local_ok;
  if (program == OCF_PROGRAM_MATMUL_WGMMA_NV && facts->learnt.wgmma_tma == OCF_PROBE_PASSED &&
      facts->learnt.wgmma_tma_local_ok > facts->learnt.wgmma_local_ok)
    return facts->learnt.wgmma_tma_local_ok; /* the TMA form's ring, barriers and maps */
  if (program == OCF_PROGRAM_MATMUL_WGMMA_NV || program == OCF_PROGRAM_ATTENTION_WGMMA_NV)
    return facts->learnt.wgmma_local_ok;
  if (shows_mma_local(program)) return mma_shown(facts, program);
  /* attention_lanes's BULK ring declares up to what the wgmma probe ran right with. */
  if (program == OCF_PROGRAM_ATTENTION_LANES && facts->learnt.wgmma == OCF_PROBE_PASSED &&
      facts->learnt.wgmma_local_ok > ocf_facts_reported_local_limit(facts, program))
    return facts->learnt.wgmma_local_ok;
  return ocf_facts_reported_local_limit(facts, program);
}

unsigned long long ocf_facts_kernel_local_limit(const ocf_device_facts *facts,
                                                ocf_program_id program) {
  if (program == OCF_PROGRAM_MATMUL_WGMMA_NV || program == OCF_PROGRAM_ATTENTION_WGMMA_NV) {
    unsigned long long reported = facts->learnt.wgmma_local_ok_reported;
    if (program == OCF_PROGRAM_MATMUL_WGMMA_NV && facts->learnt.wgmma_tma == OCF_PROBE_PASSED &&
        facts->learnt.wgmma_tma_local_ok_reported > reported)
      reported = facts->learnt.wgmma_tma_local_ok_reported;
    return reported > facts->local_mem_bytes ? reported : facts->local_mem_bytes;
  }
  if (program == OCF_PROGRAM_ATTENTION_LANES)
    return facts->learnt.wgmma == OCF_PROBE_PASSED &&
                   facts->learnt.wgmma_local_ok_reported > facts->local_mem_bytes
               ? facts->learnt.wgmma_local_ok_reported
               : facts->local_mem_bytes;
  if (shows_mma_local(program) && facts->learnt.mma != OCF_PROBE_PASSED)
    return facts->local_mem_bytes;
  if (program != OCF_PROGRAM_MATMUL_MMA_NV && !shows_mma_local(program))
    return facts->local_mem_bytes;
  return facts->learnt.mma_local_ok_reported > facts->local_mem_bytes
             ? facts->learnt.mma_local_ok_reported
             : facts->local_mem_bytes;
}

unsigned ocf_wide_register_cap(size_t items) {
  if (items == 0 || items > 8192) return 0;
  const size_t cap = (65536 / items) / 8 * 8;
  return cap > 255 ? 255 : (unsigned)cap;
}

int ocf_facts_wide_allows(const ocf_device_facts *facts, ocf_kernel_id kernel, size_t items,
                          unsigned max_registers) {
  if (facts->learnt.wide != OCF_PROBE_PASSED || items > facts->max_workgroup_size) return 0;
  if ((size_t)kernel >= OCF_KERNEL_COUNT || facts->learnt.wide_refused[kernel]) return 0;
  if (facts->wide_without_register_cap) return 1;
  return facts->nv_compiler_options && max_registers > 0 &&
         max_registers <= ocf_wide_register_cap(items);
}
