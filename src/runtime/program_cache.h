/*
 * The program cache of a context (program_cache.c): programs built once per option set, in
 * memory and on disk, and their kernels with what the runtime learnt of them; argument binding
 * by descriptor (bind.c).
 */
#ifndef OCLFUSE_PROGRAM_CACHE_H
#define OCLFUSE_PROGRAM_CACHE_H

#include "common.h"
#include "kernels/kernels.h"
#include "ops/registry.h"

/* ---- program_cache.c ---- */

/* A built kernel, and what the runtime learnt about it once. */
typedef struct ocf_built_kernel {
  cl_kernel kernel;
  const ocf_kernel_desc *desc;
  size_t max_workgroup;           /* CL_KERNEL_WORK_GROUP_SIZE */
  unsigned long long local_bytes; /* CL_KERNEL_LOCAL_MEM_SIZE */
  int arguments_checked;          /* its arguments matched its descriptor */
  /* What each argument holds (valid when `bound`), by argument index: an argument is not set
     again to the same scalar, nor to NULL where it holds NULL, nor to the buffer it holds when
     that buffer was in the buffer registry when set (bit i of `registered` for argument i) while
     the registry's epoch is still `epoch` (no registered buffer destroyed since: its handle names
     the same buffer). Any other buffer is set at every call (a released buffer's handle may come
     back as another buffer). Kept per argument, not per frame field: two arguments may read one
     field (matmul_wgmma_sab's lda and ldb are both the staged operands' lds), and each holds its
     own value. Under ctx->lock, as every binding. */
  int bound;
  ocf_arg_value held[OCF_KERNEL_ARGS_MAX];
  uint64_t registered;
  unsigned long long epoch;
} ocf_built_kernel;

/*
 * Returns kernel `id` of `program` built with `options` (the plan's -D list), building the
 * program on first use. The caller holds ctx->lock, which is released while the program builds
 * (so anything read under the lock before must be read again after); the kernel is owned by the
 * cache and valid until the context is released. A failed build is OCF_ERR_BUILD_FAILED with the
 * log in the last-error text.
 */
ocf_status ocf_kernel_get(ocf_context *ctx, ocf_program_id program, const char *options,
                          ocf_kernel_id id, ocf_built_kernel **kernel);
/* Stores on disk the binaries built from source in this process, and those that have grown
   since they were loaded (PoCL adds the work-group functions it compiled at first launch).
   Called when the context is released and after a warm-up. */
void ocf_program_cache_persist(ocf_context *ctx);
/* Releases every cached program and kernel. */
void ocf_program_cache_release(ocf_context *ctx);
/* Appends the build log of `program` on `device` to the last-error text, after the failure
   line (nothing when the log is empty or cannot be read). */
void ocf_append_build_log(cl_program program, cl_device_id device);

/* ---- bind.c ---- */

/* Sets a built kernel's arguments from `frame` as its descriptor says, checking the first time
   that the kernel's argument count (and names, where reported) match the descriptor. */
ocf_status ocf_bind_arguments(ocf_built_kernel *kernel, const void *frame);

#endif /* OCLFUSE_PROGRAM_CACHE_H */
