/* ocf_attention's unfused baseline (OCF_VARIANT_BASELINE): the library's own composition of
   matmul, softmax and matmul, which the fused kernels are measured against. */
#ifndef OCLFUSE_ATTENTION_UNFUSED_H
#define OCLFUSE_ATTENTION_UNFUSED_H

#include "kernels/kernels.h"
#include "oclfuse.h"

/* The call as ocf_attention checked it: its frame (sizes, buffers, offsets, strides, scale, the
   signed causal offset), its options (storage types, precision, mask, lengths, lse) and the
   resolved launch. Refuses with OCF_ERR_UNSUPPORTED, before anything is enqueued, what the
   composition cannot express: lengths, lse, a negative causal offset, or an out whose rows the
   last product cannot write in one call. */
ocf_status ocf_attention_unfused(ocf_context *ctx, const ocf_attention_frame *frame,
                                 const ocf_attention_options *opt, const ocf_launch *settings);

#endif /* OCLFUSE_ATTENTION_UNFUSED_H */
