/* The descriptor of every kernel, one object per kernel (defined in src/kernels/<program>.c). */
#ifndef OCLFUSE_DESCRIPTORS_H
#define OCLFUSE_DESCRIPTORS_H

#include "common.h"
#include "kernels/kernels.h"

#define OCF_KERNEL_DECLARE_(id, name, program) extern const ocf_kernel_desc ocf_kdesc_##name;
OCF_KERNEL_LIST(OCF_KERNEL_DECLARE_)
#undef OCF_KERNEL_DECLARE_

#endif /* OCLFUSE_DESCRIPTORS_H */
