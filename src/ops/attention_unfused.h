/* ocf_attention's unfused baseline (OCF_VARIANT_BASELINE): the library's own composition of
   matmul, softmax and matmul, which the fused kernels are measured against. */
#ifndef OCLFUSE_ATTENTION_UNFUSED_H
#define OCLFUSE_ATTENTION_UNFUSED_H

#include "kernels/kernels.h"
#include "oclfuse.h"

/* The call as ocf_attention checked it: its queue, its frame (sizes, buffers, offsets, strides,
   scale, the signed causal offset), its options (storage types, precision, mask, lengths, lse)
   and the resolved launch. Refuses with OCF_ERR_UNSUPPORTED, before anything is enqueued, what
   the composition cannot express: lengths, lse, a negative causal offset, or an out whose rows
   the last product cannot write in one call; with OCF_ERR_BUFFER_TOO_SMALL a launch workspace
   smaller than ocf_attention_unfused_workspace's size. */
ocf_status ocf_attention_unfused(ocf_context *ctx, cl_command_queue queue,
                                 const ocf_attention_frame *frame, const ocf_attention_options *opt,
                                 const ocf_launch *settings);

/* The bytes of memory the composition uses (ocf_attention_workspace_size's answer for it): the
   scores, aligned, then the most scratch any of its calls asks for. The frame's buffers are not
   read. Refuses what ocf_attention_unfused refuses, but for the workspace's size. */
ocf_status ocf_attention_unfused_workspace(ocf_context *ctx, const ocf_attention_frame *frame,
                                           const ocf_attention_options *opt,
                                           const ocf_launch *settings, size_t *bytes);

#endif /* OCLFUSE_ATTENTION_UNFUSED_H */
