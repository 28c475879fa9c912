/*
 * Arrival counters (arrivals.c): uints that a plan's kernel finds at zero and leaves at zero.
 * A kernel whose work is cut into pieces over workgroups counts the pieces that have arrived,
 * and the last workgroup to arrive joins them (attention's split kernels with JOIN, matmul's
 * matmul_wgmma_split_join and matmul_tiled_stream; cl/join.clh): one kernel where a second one
 * would cost a launch and the gap before it. The last arrival sets its counter back to zero, so
 * counters stay zero between calls as long as the calls that use them run one after another. Hence
 * one set per in-order queue, kept by the context (the queue retained) until ocf_context_release();
 * a call on an out-of-order queue, or on a queue past the first OCF_ARRIVAL_QUEUES, gets a set of
 * its own, created zeroed and released when its kernels finish.
 */
#ifndef OCLFUSE_ARRIVALS_H
#define OCLFUSE_ARRIVALS_H

#include "common.h"

/* The queues that keep a set of counters for the context's life. */
enum { OCF_ARRIVAL_QUEUES = 8 };

typedef struct ocf_arrival_set {
  cl_command_queue queue; /* retained; NULL: the entry is free */
  cl_mem counters;        /* `count` uints, zero whenever no kernel of the queue is running */
  size_t count;
  cl_event last; /* the last command enqueued on it (retained), NULL: none */
} ocf_arrival_set;

typedef struct ocf_arrivals {
  ocf_arrival_set sets[OCF_ARRIVAL_QUEUES];
} ocf_arrivals;

/* Where one call's counters live. */
typedef struct ocf_arrival_use {
  cl_mem counters;      /* what the kernel gets */
  ocf_arrival_set *set; /* the queue's set, or NULL: the call's own buffer */
} ocf_arrival_use;

struct ocf_context;

/* Under ctx->lock, before the enqueues: `count` counters, all zero when the call's kernels
   start on `queue`, into *use. */
ocf_status ocf_arrivals_take(struct ocf_context *ctx, cl_command_queue queue, size_t count,
                             ocf_arrival_use *use);
/* Under ctx->lock, after the enqueues: `last` (NULL: nothing was enqueued) is the call's last
   command; a set remembers it, a buffer of the call's own is released once it completes. */
void ocf_arrivals_used(const ocf_arrival_use *use, cl_event last);
/* At context release: releases every set and its queue. */
void ocf_arrivals_free(struct ocf_context *ctx);

#endif /* OCLFUSE_ARRIVALS_H */
