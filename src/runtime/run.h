/*
 * The one run loop of every op (run.c): plan -> probe if the plan asks -> build -> check ->
 * bind -> launch, planning again when a built kernel teaches a limit or a matrix-unit program
 * fails to build, with the plan cache in front (runtime/plan_cache.h). The workspace size
 * queries run the same loop in "prepare" mode: built and checked, nothing enqueued.
 */
#ifndef OCLFUSE_RUN_H
#define OCLFUSE_RUN_H

#include "ops/registry.h"
#include "runtime/context.h"

/* One call of an op, its arguments checked. */
typedef struct ocf_run_call {
  ocf_op op;
  const void *call;   /* the op's call struct (memset, then filled: its bytes are the key) */
  const void *source; /* the frame source its row's frame builder reads (unused to prepare) */
  cl_command_queue queue;
  const ocf_launch *launch; /* the resolved launch settings */
} ocf_run_call;

/* Plans (or finds the cached plan of) the call and launches it. A call with no work is
   planned all the same and enqueues nothing but the launch's out event. */
ocf_status ocf_run(ocf_context *ctx, const ocf_run_call *run);

/* The same loop to the point of enqueuing: *workspace gets the scratch bytes of the plan the
   call will run (0 for a call with no work). */
ocf_status ocf_run_prepare(ocf_context *ctx, const ocf_run_call *run, size_t *workspace);

#endif /* OCLFUSE_RUN_H */
