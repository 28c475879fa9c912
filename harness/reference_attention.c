/* The CPU reference of ocf_attention (see reference_attention.h). */
#include "reference_attention.h"

#include <math.h>
#include <stdlib.h>

size_t ocf_ref_attention_kept(const ocf_ref_attention_args *a, size_t batch, size_t i) {
  size_t len = a->lk;
  if (a->lengths && a->lengths[batch] < len) len = a->lengths[batch];
  if (a->causal) {
    const long long limit = (long long)i + a->causal_offset + 1;
    if (limit <= 0) return 0;
    if ((unsigned long long)limit < len) len = (size_t)limit;
  }
  return len;
}

size_t ocf_ref_attention_scores(const ocf_ref_attention_args *a, size_t batch, size_t head,
                                size_t i, double *s, double *abs_dot) {
  const size_t kept = ocf_ref_attention_kept(a, batch, i);
  const size_t kv_head = head / (a->h / a->h_kv);
  const float *qr = a->q + batch * a->q_s[0] + head * a->q_s[1] + i * a->q_s[2];
  for (size_t j = 0; j < kept; j++) {
    const float *kr = a->k + batch * a->k_s[0] + kv_head * a->k_s[1] + j * a->k_s[2];
    double dot = 0.0, abs_sum = 0.0;
    for (size_t c = 0; c < a->d; c++) {
      dot += (double)qr[c] * (double)kr[c];
      abs_sum += fabs((double)qr[c] * (double)kr[c]);
    }
    s[j] = a->scale * dot;
    if (abs_dot) abs_dot[j] = fabs(a->scale) * abs_sum;
  }
  return kept;
}

void ocf_ref_attention(const ocf_ref_attention_args *a, double *want, double *lse) {
  double *s = malloc((a->lk ? a->lk : 1) * sizeof *s);
  if (!s) abort();
  for (size_t batch = 0; batch < a->b; batch++)
    for (size_t head = 0; head < a->h; head++) {
      const size_t kv_head = head / (a->h / a->h_kv);
      for (size_t i = 0; i < a->lq; i++) {
        const size_t row = (batch * a->h + head) * a->lq + i;
        double *o = want + row * a->d;
        const size_t kept = ocf_ref_attention_scores(a, batch, head, i, s, NULL);
        double m = -INFINITY;
        int nan = 0;
        for (size_t j = 0; j < kept; j++) {
          if (isnan(s[j]))
            nan = 1;
          else if (s[j] > m)
            m = s[j];
        }
        if (kept == 0) {
          for (size_t c = 0; c < a->d; c++)
            o[c] = 0.0;
          if (lse) lse[row] = -INFINITY;
          continue;
        }
        if (nan || !isfinite(m)) {
          for (size_t c = 0; c < a->d; c++)
            o[c] = NAN;
          if (lse) lse[row] = NAN;
          continue;
        }
        double l = 0.0;
        for (size_t c = 0; c < a->d; c++)
          o[c] = 0.0;
        for (size_t j = 0; j < kept; j++) {
          const double p = exp(s[j] - m);
          const float *vr = a->v + batch * a->v_s[0] + kv_head * a->v_s[1] + j * a->v_s[2];
          l += p;
          for (size_t c = 0; c < a->d; c++)
            o[c] += p * (double)vr[c];
        }
        for (size_t c = 0; c < a->d; c++)
          o[c] /= l;
        if (lse) lse[row] = m + log(l);
      }
    }
  free(s);
}
