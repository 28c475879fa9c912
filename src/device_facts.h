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

typedef struct ocf_device_facts {
  cl_device_type type;
  ocf_vendor vendor;
  unsigned compute_units;    /* at least 1 */
  size_t max_workgroup_size; /* CL_DEVICE_MAX_WORK_GROUP_SIZE, at least 1 */
  size_t max_item_sizes[3];  /* CL_DEVICE_MAX_WORK_ITEM_SIZES, each at least 1 */
  unsigned long long local_mem_bytes;
  /* Per kernel, the largest workgroup a built instance of it accepted
     (CL_KERNEL_WORK_GROUP_SIZE), learnt after builds; 0 while unknown. Plans whose sizes were
     not fixed by the caller stay within it. */
  size_t kernel_max_workgroup[OCF_KERNEL_COUNT];
} ocf_device_facts;

/* The vendor a CL_DEVICE_VENDOR / platform name pair names. */
ocf_vendor ocf_vendor_classify(const char *vendor, const char *platform_name);

/* Facts of a described device, nothing learnt yet. */
void ocf_device_facts_init(ocf_device_facts *facts, const ocf_device_info *info);

/* The most work-items a plan may put in one workgroup of `kernel` whose local sizes are
   `dims` long: the device maximum, the kernel's learnt limit when known. */
size_t ocf_facts_workgroup_limit(const ocf_device_facts *facts, ocf_kernel_id kernel);

#endif /* OCLFUSE_DEVICE_FACTS_H */
