/* The table of kernel descriptors, indexed by ocf_kernel_id (built from OCF_KERNEL_LIST). */
#include "kernels/kernels.h"

#include "kernels/descriptors.h"

static const ocf_kernel_desc *const kernel_table[OCF_KERNEL_COUNT] = {
#define OCF_KERNEL_ENTRY_(id, name, program) [OCF_KERNEL_##id] = &ocf_kdesc_##name,
    OCF_KERNEL_LIST(OCF_KERNEL_ENTRY_)
#undef OCF_KERNEL_ENTRY_
};

const ocf_kernel_desc *ocf_kernel_desc_get(ocf_kernel_id id) {
  return (unsigned)id < OCF_KERNEL_COUNT ? kernel_table[id] : NULL;
}

size_t ocf_arg_kind_size(ocf_arg_kind kind) {
  switch (kind) {
  case OCF_ARG_BUFFER:
    return sizeof(cl_mem);
  case OCF_ARG_ULONG:
    return sizeof(cl_ulong);
  case OCF_ARG_FLOAT:
    return sizeof(cl_float);
  }
  return 0;
}
