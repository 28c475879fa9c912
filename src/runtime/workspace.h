/*
 * The scratch memory of a call of several kernels (workspace.c): the caller's workspace, the
 * context's pool, or a buffer of the call's own.
 */
#ifndef OCLFUSE_WORKSPACE_H
#define OCLFUSE_WORKSPACE_H

#include "common.h"

#include <stddef.h>

/* The context's scratch pool (runtime/workspace.c), under the context's lock. */
typedef struct ocf_workspace_pool {
  int usable;       /* the config allows it and the default queue is in order */
  cl_mem buffer;    /* NULL: empty */
  size_t bytes;     /* its size */
  cl_event last;    /* the last command enqueued on it (retained), NULL: none */
  size_t creations; /* buffers created so far */
} ocf_workspace_pool;

/* ---- workspace.c: the scratch memory of a call of several kernels ---- */

/* Scratch up to this size is zeroed from the host (created so, or written from a static page of
   zeros when reused), larger scratch zeroed on the device. Oclgrind does not count a device fill
   as initialisation; 64 KiB covers the split-K sums of the shapes the suites run under it (a
   batch of 3 split products of 13 x 24 is 15 KiB), and costs a GPU a host copy of at most that. */
#define OCF_SCRATCH_HOST_ZEROED_MAX ((size_t)64 << 10)

/* Where one call's scratch lives. */
typedef struct ocf_scratch {
  cl_mem mem; /* what the kernels get (the caller's workspace, a sub-buffer of it, the pool's
                 buffer or the call's own) */
  int owned;  /* a sub-buffer or the call's own buffer: released once the call's kernels finish */
  int pooled; /* the context's pool: taken under the lock (ocf_scratch_pool_take) */
  int zeroed; /* already all zeros (created so): no device fill needed */
} ocf_scratch;

/* The device's CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (at least 1): where a sub-buffer, and so
   a launch workspace's offset, may start. */
ocf_status ocf_base_address_align(const ocf_context *ctx, size_t *bytes);
/* Checks a launch's workspace members (ocf_check_launch calls it): NULL with offset and size 0,
   or a buffer of the context holding offset + size bytes, the offset aligned for a
   sub-buffer. */
ocf_status ocf_workspace_check(const ocf_context *ctx, const ocf_launch *launch);
/* Refuses (OCF_ERR_ALIASING) a launch workspace whose bytes meet the operand's bytes
   [start, start + bytes) of `buffer`; `what` is "ocf_softmax: in", say. Nothing without a
   workspace or operand. */
ocf_status ocf_workspace_check_disjoint(const ocf_launch *launch, const char *what, cl_mem buffer,
                                        size_t start, size_t bytes);
/* Before the lock: the scratch of `bytes` for a call on `queue`: from the launch's workspace
   (OCF_ERR_BUFFER_TOO_SMALL when it holds fewer bytes: the run loop has planned the call
   within it, so no plan of the call takes less), a buffer of the call's own, or, for the
   pool, nothing yet (s->pooled set). */
ocf_status ocf_scratch_prepare(ocf_context *ctx, cl_command_queue queue, const ocf_launch *launch,
                               size_t bytes, ocf_scratch *s);
/* Under ctx->lock, after every kernel is built: the pool's buffer, grown to `bytes` if smaller. */
ocf_status ocf_scratch_pool_take(ocf_context *ctx, size_t bytes, ocf_scratch *s);
/* Takes the context's pool buffer out of the pool, grown to `bytes` if smaller (a new one
   counts among the pool's creations), for a composition of calls that lend it to each other
   as a caller's workspace (attention's unfused baseline); *held is its size. The pool stays
   empty until it is given back. Only for calls on the context's in-order default queue
   (ctx->pool.usable). Takes ctx->lock: call it outside. */
ocf_status ocf_pool_borrow(ocf_context *ctx, size_t bytes, cl_mem *buffer, size_t *held);
/* Gives a borrowed buffer of `bytes` (its *held) back to the pool, `last` (NULL: nothing was
   enqueued) its last command; where the pool meanwhile holds one at least as large, `buffer` is
   released once `last` completes instead. Takes ctx->lock. */
void ocf_pool_give_back(ocf_context *ctx, cl_mem buffer, size_t bytes, cl_event last);
/* Under ctx->lock, after the enqueues: `last` (NULL: nothing was enqueued) is the call's last
   command on the scratch; the pool remembers it. */
void ocf_scratch_used(ocf_context *ctx, const ocf_scratch *s, cl_event last);
/* After the lock: releases owned scratch once `last` completes (at once when NULL). */
void ocf_scratch_release(const ocf_scratch *s, cl_event last);
/* A buffer of `bytes` (at least 1) of a call's own, for data that passes between the calls of a
   composition (attention's unfused baseline: its scores); small ones come zeroed, as scratch. */
ocf_status ocf_scratch_create(ocf_context *ctx, size_t bytes, cl_mem *buffer);
/* Releases `buffer` once `done` (NULL: nothing pending) completes. */
void ocf_release_after(cl_mem buffer, cl_event done);
/* At context release, after clFinish: frees the pool. */
void ocf_workspace_pool_free(ocf_context *ctx);

#endif /* OCLFUSE_WORKSPACE_H */
