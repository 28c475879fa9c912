/*
 * The CPU reference of ocf_attention, in double: out = softmax(scale Q K^T + mask) V per batch
 * and head, with the library's rules (a row with no kept key: 0 and lse -inf; a NaN score, a
 * +inf score or all kept scores -inf: NaN). Shared by tests/test_attention.c,
 * harness/op_attention.c and the tolerance model (harness/tolerance.c).
 */
#ifndef OCLFUSE_REFERENCE_ATTENTION_H
#define OCLFUSE_REFERENCE_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

/* A call as the reference sees it: every tensor as floats (16-bit inputs widened, which is
   exact), element (batch, head, row, c) at batch * s[0] + head * s[1] + row * s[2] + c. */
typedef struct ocf_ref_attention_args {
  size_t b, h, h_kv, lq, lk, d;
  const float *q, *k, *v;
  size_t q_s[3], k_s[3], v_s[3];
  double scale;            /* the scale the call uses (its float, widened) */
  const uint32_t *lengths; /* per-batch valid key lengths, NULL: none */
  int causal;              /* the causal mask */
  long long causal_offset; /* query i sees keys j <= i + causal_offset (with causal) */
} ocf_ref_attention_args;

/* The keys query row i of `batch` keeps: min(lk, lengths[batch]) cut by the causal band. */
size_t ocf_ref_attention_kept(const ocf_ref_attention_args *a, size_t batch, size_t i);

/* The scaled scores of row (batch, head, i) over its kept keys into s[j], and
   |scale| sum_c |q_c k_c| into abs_dot[j] (NULL: not wanted); returns the kept count. */
size_t ocf_ref_attention_scores(const ocf_ref_attention_args *a, size_t batch, size_t head,
                                size_t i, double *s, double *abs_dot);

/* want: dense [b, h, lq, d]; lse: dense [b, h, lq] (NULL: not wanted). */
void ocf_ref_attention(const ocf_ref_attention_args *a, double *want, double *lse);

#endif /* OCLFUSE_REFERENCE_ATTENTION_H */
