/*
 * Error measures and tolerances against the CPU references (tests/reference.h, in double).
 * Shared by `oclfuse check` and the benchmark's correctness gate.
 */
#include "tool.h"

#include "reference.h"

#include <float.h>
#include <math.h>

static void verdict_start(tool_verdict *v, double tolerance, const char *measure) {
  v->max_error = 0.0;
  v->tolerance = tolerance;
  v->measure = measure;
  v->checked = 0;
  v->worst = 0;
  v->pass = 1;
}

/* Records one element's error; a NaN error (a NaN where a number belongs) counts as +inf. */
static void verdict_add(tool_verdict *v, size_t index, double error) {
  if (isnan(error)) error = INFINITY;
  if (error > v->max_error) {
    v->max_error = error;
    v->worst = index;
  }
  if (error > v->tolerance) v->pass = 0;
  v->checked++;
}

/* NaN must meet NaN; an infinity must meet the same infinity. Returns 1 when handled. */
static int nonfinite_error(float got, double want, double *error) {
  if (isnan(want) || isnan(got)) {
    *error = isnan(want) && isnan(got) ? 0.0 : INFINITY;
    return 1;
  }
  if (isinf(want) || isinf(got)) {
    *error = (double)got == want ? 0.0 : INFINITY;
    return 1;
  }
  return 0;
}

void tool_verify_add(const float *got, const double *want, size_t count, tool_verdict *v) {
  /* The reference is (double)x + (double)y rounded once to float: the one right fp32 answer,
     so any difference at all is a bug. */
  verdict_start(v, 0.0, "abs");
  for (size_t i = 0; i < count; i++) {
    double error = 0.0;
    if (!nonfinite_error(got[i], want[i], &error)) error = fabs((double)got[i] - want[i]);
    verdict_add(v, i, error);
  }
}

/*
 * Softmax tolerance, as a relative error of each output element.
 *
 * Per element the fp32 kernel rounds: x - max (one rounding of an argument of magnitude
 * |x - max|, which exp turns into a relative error of |x - max| * u; the bench and check inputs
 * keep |x - max| <= 8, except the check's large-magnitude rows where x - max is exact), exp
 * (OpenCL's full profile allows 3 ulp, native_exp more), the division (2.5 ulp allowed) and the
 * row sum. The fixed part, 1e-5 (about 168 u, u = 2^-24), covers the first three with room,
 * plus a sequential per-work-item partial sum of up to ~100 terms in the worst case (far more
 * in practice: the error of a sum of same-sign terms grows like sqrt(terms) u).
 * The partial sums are then combined in a tree of depth log2(cols); each level rounds once and,
 * in an online (one-pass) softmax, also rescales by exp(m_old - m_new): about 4 u per level.
 * So: rel_tol = 1e-5 + 4 u log2(cols) (1.4e-5 at 65536 columns).
 *
 * Outputs so small that fp32 holds them as subnormals (or flushes them to zero, as GPUs may)
 * cannot meet a relative bound; the error is divided by max(|want|, FLT_MIN) so that they pass
 * with an absolute error below FLT_MIN * rel_tol.
 */
double tool_softmax_tolerance(size_t cols) {
  double levels = cols > 1 ? ceil(log2((double)cols)) : 0.0;
  return 1e-5 + 4.0 * ldexp(1.0, -24) * levels;
}

void tool_verify_softmax(const float *got, const double *want, size_t count, size_t cols,
                         tool_verdict *v) {
  verdict_start(v, tool_softmax_tolerance(cols), "rel");
  for (size_t i = 0; i < count; i++) {
    double error = 0.0;
    if (!nonfinite_error(got[i], want[i], &error))
      error = fabs((double)got[i] - want[i]) / fmax(fabs(want[i]), (double)FLT_MIN);
    verdict_add(v, i, error);
  }
}

void tool_verify_matmul(const float *got, const double *want, const double *bound, size_t count,
                        size_t k, tool_verdict *v) {
  /* |got - want| <= factor(k) * bound, where bound = |alpha| sum |a||b| + |beta c| is the scale
     of a worst-case fp32 dot product error (reference.h). The measure is the error divided by
     the bound, so the tolerance is the factor itself; a zero bound demands an exact answer. */
  verdict_start(v, ocf_ref_matmul_error_factor(k), "err/bound");
  for (size_t i = 0; i < count; i++) {
    double error = 0.0;
    if (!nonfinite_error(got[i], want[i], &error)) {
      double diff = fabs((double)got[i] - want[i]);
      error = bound[i] > 0.0 ? diff / bound[i] : (diff > 0.0 ? INFINITY : 0.0);
    }
    verdict_add(v, i, error);
  }
}

void tool_verdict_init(tool_verdict *v) {
  verdict_start(v, 0.0, "");
}

void tool_verdict_merge(tool_verdict *total, const tool_verdict *part, size_t offset) {
  if (total->checked == 0 || part->max_error > total->max_error) {
    total->max_error = part->max_error;
    total->worst = offset + part->worst;
  }
  total->checked += part->checked;
  total->tolerance = part->tolerance;
  total->measure = part->measure;
  if (!part->pass) total->pass = 0;
}
