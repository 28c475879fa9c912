/*
 * The capability probes of the matrix units (mma_probe.c, wgmma_probe.c; their shared machinery
 * is runtime/probe_run.h) and of workgroups beyond the kernels' reported limit (wide_probe.c):
 * run once per context when a plan asks, their outcome kept in the context's facts.
 */
#ifndef OCLFUSE_PROBES_H
#define OCLFUSE_PROBES_H

#include "common.h"
#include "plan/plan.h"

/* ---- mma_probe.c ---- */

/*
 * Runs the probe a plan asked for (plan->probe): for OCF_PLAN_PROBE_MMA, the matrix-unit kernel
 * built with plan->probe_bytes of local memory and run once on a small product whose exact
 * answer is known, on the context's own queue (blocking). Its outcome goes into ctx->facts (the
 * capability the first time, the local memory every time), so the caller plans again. A probe
 * that fails is not an error of the call: the call runs on the SIMT kernels.
 */
void ocf_probe_run(ocf_context *ctx, const ocf_plan *plan);
/* Marks the matrix units unusable on this context (a build of one of their programs failed
   after the probe passed): later plans take the SIMT kernels. */
void ocf_probe_mma_failed(ocf_context *ctx, const char *why);
/* attention_block's tiles beyond the device's reported local memory (block.local, standing on
   what the matrix-unit probe ran right with) failed to build: its plans are held to the reported
   size on this context (a budget, which a later probe of more local memory clears again). */
void ocf_probe_block_local_failed(ocf_context *ctx, const char *why);

/* ---- wgmma_probe.c ---- */

/* The probe of the wgmma kernel (OCF_PLAN_PROBE_WGMMA, called by ocf_probe_run): the kernel
   built for sm_90a with the tuning's geometry and run once on a small bf16 product whose exact
   answer is known, on the context's own queue (blocking); its outcome goes into ctx->facts
   (wgmma, wgmma_local_ok), once per context. */
void ocf_probe_wgmma(ocf_context *ctx);
/* The probe of the wgmma kernel's TMA-fed form (OCF_PLAN_PROBE_WGMMA_TMA): matmul_wgmma_tma as
   plans run it (288 work-items, tensor maps made on the device in its scratch) on the same
   product; its outcome goes into ctx->facts (wgmma_tma, wgmma_tma_local_ok), once per context. */
void ocf_probe_wgmma_tma(ocf_context *ctx);
/* Marks the wgmma kernel unusable on this context (its build failed after the probe passed):
   later plans take the mma.sync kernel, then the SIMT kernels. */
void ocf_probe_wgmma_failed(ocf_context *ctx, const char *why);
/* attention_lanes's BULK program failed to build after the wgmma probe passed: its plans stream
   through registers on this context from then on (learnt.lanes_bulk_failed). */
void ocf_probe_lanes_bulk_failed(ocf_context *ctx, const char *why);

/* ---- wide_probe.c ---- */

/* The probe of workgroups beyond the kernels' reported limit (OCF_PLAN_PROBE_WIDE, called by
   ocf_probe_run): a reduction over two workgroups of the device's CL_DEVICE_MAX_WORK_GROUP_SIZE
   work-items, checked exactly, on the context's own queue (blocking); its outcome goes into
   ctx->facts (learnt.wide), once per context. A failure is no error of the call. */
void ocf_probe_wide(ocf_context *ctx);
/* A wide launch of `kernel` (reporting `reported` work-items) was refused by the enqueue:
   learnt (learnt.wide_refused, the kernel's limit as reported), so that later plans of it
   stay within what it reports. */
void ocf_wide_refused(ocf_context *ctx, ocf_kernel_id kernel, size_t reported);

#endif /* OCLFUSE_PROBES_H */
