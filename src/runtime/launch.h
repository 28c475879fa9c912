/*
 * Running a plan (launch.c: build and check its kernels, then bind and enqueue them) and the
 * enqueue itself (dispatch.c: wait lists, events).
 */
#ifndef OCLFUSE_LAUNCH_H
#define OCLFUSE_LAUNCH_H

#include "common.h"
#include "device_facts.h"
#include "plan/plan.h"
#include "runtime/program_cache.h"

/* ---- launch.c ---- */

/*
 * Runs a plan: builds (once) and checks every kernel of the plan, then binds and enqueues them
 * in order, so that a failure before the first enqueue leaves nothing queued. `frame` is the op's
 * frame struct; when the plan needs scratch, plan->scratch_bytes of it come from the launch's
 * workspace, the context's pool or a buffer of the call's own (runtime/workspace.c), stored in
 * *slots->scratch (a member of the frame) and zero-filled before the first kernel unless the
 * plan writes it first; its arrival counters (runtime/arrivals.c) go to *slots->arrivals.
 * `slots` may be NULL for a plan that needs neither.
 * When a kernel the plan chose with a default workgroup size accepts fewer work-items than
 * planned, its limit is remembered in ctx->facts, *replan is set and OCF_ERR_INVALID_WORKGROUP
 * returned with nothing enqueued: the caller plans again.
 */
ocf_status ocf_launch_plan(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                           void *frame, const ocf_frame_slots *slots, const ocf_launch *launch,
                           int *replan);

/* Builds (or finds) the kernel of step `step` of a plan, in its own program with that
   program's options (ocf_plan_program_options). Called with ctx->lock held (released during a
   build). */
ocf_status ocf_plan_step_kernel(ocf_context *ctx, const ocf_plan *plan, unsigned step,
                                ocf_built_kernel **kernel);

/* Builds (once) and checks every kernel of a plan into kernels[step] (the program cache's),
   enqueuing nothing; *replan as in ocf_launch_plan. Takes the lock. */
ocf_status ocf_plan_build(ocf_context *ctx, const ocf_plan *plan, ocf_built_kernel **kernels,
                          int *replan);

/* The second half of ocf_launch_plan: the scratch, then under the lock the arrival counters,
   the binding of every built kernel's arguments from `frame` and the enqueues. */
ocf_status ocf_plan_enqueue(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                            ocf_built_kernel *const *kernels, void *frame,
                            const ocf_frame_slots *slots, const ocf_launch *launch);

/* Under ctx->lock: learns that `kernel` accepts at most `limit` work-items (a limit only ever
   lowers), raising the plan generation when it does. */
void ocf_context_learn_workgroup(ocf_context *ctx, ocf_kernel_id kernel, size_t limit);

/* A copy of the context's facts, taken under its lock. */
void ocf_context_facts(ocf_context *ctx, ocf_device_facts *facts);

/* ---- dispatch.c ---- */

/*
 * Enqueues the plan's kernels (built, checked and bound) in order: the first after the launch's
 * wait list, each later one after the kernel before it. Sets *last to the last enqueued
 * kernel's event (ours to release; NULL when nothing was enqueued, or when the last kernel is
 * enqueued without one: only when want_last is 0 and the plan has one kernel and no first_event)
 * and, when launch->first_event asks, *first to a retained reference to the first kernel's event.
 * On failure the kernels before the failed one stay enqueued (*last is the latest of them): the
 * plans guarantee that those write only the call's scratch, never an output. The one failure
 * after an output-writing kernel is queued, a one-kernel call whose event cannot be retained for
 * first_event, is OCF_ERR_ENQUEUED_WITHOUT_EVENT.
 */
ocf_status ocf_dispatch_steps(cl_command_queue queue, const ocf_plan *plan,
                              ocf_built_kernel *const *kernels, const ocf_launch *launch,
                              int want_last, cl_event *first, cl_event *last);

/* For a call with no work: produces the launch's out event (a marker after its wait list), if
   one was asked for, and enqueues nothing else. */
ocf_status ocf_dispatch_nothing(cl_command_queue queue, const ocf_launch *launch);

#endif /* OCLFUSE_LAUNCH_H */
