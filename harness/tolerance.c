/*
 * The error models (tolerance.h). u = 2^-24 is the unit roundoff of fp32: a correctly rounded
 * operation is off by at most u times its exact result (1 ulp is at most 2u of the value).
 * OpenCL 1.2 (full profile, which every device here has) allows exp 3 ulp, a division 2.5 ulp,
 * and computes + and * correctly rounded; the library builds without -cl-fast-relaxed-math.
 * A reference in double is off by at most n 2^-53 after n operations: counted, though it is
 * far below every fp32 term. Denormals are optional in fp32 and GPUs flush them: an absolute
 * floor of FLT_MIN per rounding covers a value flushed to zero.
 *
 * ---- add ----
 * fp32 addition is correctly rounded and the reference (double)x + (double)y is exact for every
 * input here (exponents within 29 of each other), so rounding it to float gives the one right
 * answer: tolerance 0 (ocft_check_elements with tol NULL).
 *
 * ---- matmul ----
 * Every kernel of cl/matmul.cl computes C[i][j] as one dot product accumulated in the order
 * p = 0, 1, ..., k - 1 (the tiles change which work-item computes an element and when, never the
 * order; guarded loads add exact zeros), then v = alpha acc and C = beta C + v. A step
 * acc = a b + acc is a fused multiply-add (one rounding) or a product and a sum (two), as OpenCL
 * C's contraction allows. With P_p = a_p b_p and T_p = P_0 + ... + P_p exact, every rounding is
 * at most u times the exact value it rounds, so to first order
 *     |error| <= u (|alpha| sum_p (|P_p| + |T_p|) + |alpha T_k| + |beta C| + |result|)
 * (the last two only when beta != 0). This follows the data: for inputs of random sign the
 * partial sums grow like sqrt(p), not p, and the bound with them; the worst case over all inputs
 * of the same magnitudes is Higham's gamma_{k+2} sum |terms| ("Accuracy and Stability of
 * Numerical Algorithms", 3.1). The computed partial sums differ from the exact ones by at most
 * gamma_k sum |P|, which adds the second-order (k + 2) u gamma_{k+2} (|alpha| sum |P| + |beta C|).
 * A kernel that sums in another order (split K, tensor cores) needs its own model here.
 *
 * ---- softmax ----
 * Row r has inputs x_k with max m and exact outputs y_k = e_k / S, e_k = exp(x_k - m),
 * S = sum e_k. Every softmax kernel (cl/softmax_*.cl) computes an output as
 *     yhat_i = ehat_i * g * (1 / Shat)      (softmax_base_divide: ehat_i / Shat)
 * where ehat_i = exp(x_i - m') against some max m' <= m (the row's, a work-item's, a block's),
 * g carries m' to m for one work-item's elements (softmax_resident; 1 elsewhere), and Shat is the
 * row's sum as the kernel reduced it: one number for the whole row, whichever workgroup writes an
 * element (the split kernels combine the parts' pairs in the same order in every workgroup).
 * So a row's error is a part particular to each element times a factor common to the row, and
 * the check measures them apart: the common factor rho = sum yhat / sum y, then each element
 * against rho y_i with a tight tolerance, then rho against 1 with the row's bound. No bug hides in
 * rho: an element off on its own fails its own check, a row off as a whole fails the row's.
 *
 * Per element, a_i: the argument x_i - m' is rounded once, and so are the arguments of the
 * rescales that carry m' to m; those arguments add up to m - m' (they telescope), so u |x_i - m|
 * in all, which exp turns into the same relative error. exp: 6u. g: another exp and a product,
 * 7u. The last product: u (softmax_base_divide's division instead: 5u, and no g). So
 *     a_i = u (14 + |x_i - m|).
 * Then rho = (1 + beta)(1 + abar) with abar at most sum y_i a_i, and each element is within
 * rho y_i (a_i + abar) / (1 - abar) of rho y_i.
 *
 * The row's factor, beta: 1 / Shat costs 5u, and Shat's own relative error sigma is
 *   - each term's: its exp (6u) and its argument (u |x_k - m|, telescoped as above), weighted by
 *     its share y_k: u sum y_k (6 + |x_k - m|);
 *   - the additions: each rounds a partial sum by u times its value (in units of S). Partial sums
 *     at the same depth of the reduction tree are disjoint, so they add up to at most 1: u D for
 *     a tree of depth D. D counts the terms one work-item adds in sequence, so it grows with
 *     the row divided by the work-items that share it, and the error does too: at 10^6 columns
 *     the general kernel is off by 8.8e-4 on one work-item and by 1.4e-5 on 64 (PoCL; the
 *     roundings of a growing sum of positive terms lean one way, so no sqrt(D) model holds);
 *   - the rescales: combine() multiplies the pair with the smaller max by exp(m_small - m_big)
 *     (6u for exp, u for the product; the argument is counted above), a partial sum of value at
 *     most 1. A rescale happens only where the max grows: in a work-item's loop (a chain) at the
 *     chain's new maxima, in a tree level at most once a node. A chain of n inputs in random order
 *     has at most R(n) = 4 (1 + ln n) + 12 new maxima, except with probability below 1e-13
 *     (Chernoff's bound on a sum of independent Bernoulli(1/i), whose mean is H_n <= 1 + ln n).
 *     One chain's rescaled sums add up to at most R times its share of the row, so all chains
 *     together to R; the loop over a split row's parts is one more chain; each tree level adds at
 *     most 1: Q = 2 R(n) + ceil(log2 W_hi), and never more than D. So 7u Q.
 *   The tree: a work-item reduces n = max(ceil(cols / W_lo) + 15, 64) elements (its share,
 *   rounded up to whole vectors of at most 16 floats, whose missing lanes add exact zeros; the
 *   kernels that hold a row in registers hold at most 64 floats a work-item, a rule of the
 *   tuning schema). The workgroup then combines its work-items in a pairwise tree, ceil(log2 W)
 *   levels, or, in softmax_rows, 15 + W / 16 serial additions (chunks of 16), which is at least
 *   as many. A split row's loop over its p parts adds p levels but divides the share by p: with
 *   at least one vector a part, at most one level more. And no tree over cols terms is deeper
 *   than cols - 1: D = min(cols - 1, n + 16 + ceil(W_hi / 16)).
 *   beta = (5u + sigma) / (1 - sigma); |rho - 1| <= beta + abar + beta abar.
 * W_lo and W_hi, the fewest and the most work-items over which one row is reduced: an explicit
 * launch size is both; a default launch gets OCFT_SOFTMAX_DEFAULT_WORKGROUP and the device's
 * maximum (ocf_device_info, both capped by the device's limits).
 */
#include "tolerance.h"

#include "reference_attention.h"
#include "reference_softmax.h" /* ocf_ref_half_ulp: the 16-bit types' rounding */

#include <float.h>
#include <math.h>

static const double fp32_u = 0x1.0p-24;

/* gamma_n of a precision with unit roundoff unit: n unit / (1 - n unit). */
static double gamma_n(double n, double unit) {
  return n * unit / (1.0 - n * unit);
}

void ocft_check_start(ocft_check *check) {
  check->ratio = 0.0;
  check->worst = 0;
  check->row_factor = 0;
  check->got = check->want = check->tolerance = 0.0;
  check->checked = 0;
}

int ocft_check_passed(const ocft_check *check) {
  return check->ratio <= 1.0;
}

/* error / tolerance for one value: NaN meets NaN, an infinity the same infinity. */
static double ratio_of(double got, double want, double tol) {
  if (isnan(want)) return isnan(got) ? 0.0 : INFINITY;
  if (isinf(want)) return got == want ? 0.0 : INFINITY;
  if (!isfinite(got)) return INFINITY;
  double error = fabs(got - want);
  if (tol > 0.0) return error / tol;
  return error == 0.0 ? 0.0 : INFINITY;
}

/* Records one compared place; the first of equal ratios stays the worst. */
static void consider(ocft_check *check, size_t index, double got, double want, double tol,
                     int row_factor) {
  double ratio = ratio_of(got, want, tol);
  if (ratio > check->ratio) {
    check->ratio = ratio;
    check->worst = index;
    check->row_factor = row_factor;
    check->got = got;
    check->want = want;
    check->tolerance = tol;
  }
}

void ocft_check_merge(ocft_check *total, const ocft_check *part, size_t offset) {
  if (part->checked && (total->checked == 0 || part->ratio > total->ratio)) {
    size_t checked = total->checked;
    *total = *part;
    total->worst += offset;
    total->checked = checked;
  }
  total->checked += part->checked;
}

void ocft_check_elements(const float *got, const double *want, const double *tol, size_t count,
                         ocft_check *check) {
  ocft_check part;
  ocft_check_start(&part);
  for (size_t i = 0; i < count; i++)
    consider(&part, i, got[i], want[i], tol ? tol[i] : 0.0, 0);
  part.checked = count;
  ocft_check_merge(check, &part, 0);
}

/* ---- matmul ---- */

void ocft_matmul_tolerance(int trans_a, int trans_b, size_t m, size_t n, size_t k, float alpha,
                           const float *a, size_t lda, const float *b, size_t ldb, float beta,
                           const float *c, size_t ldc, double *tol) {
  const double abs_alpha = fabs((double)alpha);
  const double second_order = (double)(k + 2) * fp32_u * gamma_n((double)(k + 2), fp32_u);
  const double reference = gamma_n((double)(k + 2), 0x1.0p-53);
  const double floor = (double)(k + 2) * FLT_MIN * (abs_alpha > 1.0 ? abs_alpha : 1.0);
  for (size_t i = 0; i < m; i++) {
    for (size_t j = 0; j < n; j++) {
      double partial = 0.0, path = 0.0, products = 0.0;
      for (size_t p = 0; alpha != 0.0f && p < k; p++) { /* alpha = 0 reads no A or B */
        double av = trans_a ? a[p * lda + i] : a[i * lda + p];
        double bv = trans_b ? b[j * ldb + p] : b[p * ldb + j];
        double product = av * bv; /* exact: two 24-bit significands fit in 53 bits */
        partial += product;
        products += fabs(product);
        path += fabs(product) + fabs(partial);
      }
      double result = (double)alpha * partial;
      double first = abs_alpha * path + fabs(result);
      double scale = abs_alpha * products;
      if (beta != 0.0f) {
        double beta_c = (double)beta * c[i * ldc + j];
        first += fabs(beta_c) + fabs(result + beta_c);
        scale += fabs(beta_c);
      }
      tol[i * n + j] = fp32_u * first + (second_order + reference) * scale + floor;
    }
  }
}

/* ---- softmax ---- */

/* The bounds of softmax's model that depend on the row length only (see the top of the file). */
typedef struct softmax_model {
  double depth;    /* D: the reduction tree's depth */
  double rescales; /* Q: the rescaled partial sums, in units of S */
  size_t cols;
} softmax_model;

/* R(n): new maxima of a chain of n inputs in random order, but for probability 1e-13. */
static double new_maxima(double n) {
  double r = 4.0 * (1.0 + log(n)) + 12.0;
  return n < r ? n : r;
}

static softmax_model softmax_model_for(size_t cols, size_t workgroup_size,
                                       const ocf_device_info *device) {
  /* Without a device a default launch may reduce a row over anything from one work-item up. */
  double w_lo = 1.0, w_hi = 65536.0;
  if (workgroup_size) {
    w_lo = w_hi = (double)workgroup_size;
  } else if (device) {
    w_hi = (double)device->max_workgroup_size;
    w_lo = OCFT_SOFTMAX_DEFAULT_WORKGROUP;
    if (w_lo > w_hi) w_lo = w_hi;
    if (w_lo > (double)device->max_work_item_sizes[0])
      w_lo = (double)device->max_work_item_sizes[0];
    if (w_lo < 1.0) w_lo = 1.0;
  }
  softmax_model model = {0.0, 0.0, cols};
  double share = ceil((double)cols / w_lo) + 15.0;
  if (share < 64.0) share = 64.0;
  double depth = share + 16.0 + ceil(w_hi / 16.0);
  model.depth = (double)cols - 1.0 < depth ? (double)cols - 1.0 : depth;
  double rescales = 2.0 * new_maxima(share) + ceil(log2(w_hi));
  model.rescales = model.depth < rescales ? model.depth : rescales;
  return model;
}

/* One row: the elements against rho y_i, then rho against 1. `base` is the row's first index in
   the compared arrays. */
static void softmax_row(const softmax_model *model, const float *x, const double *y,
                        const float *got, size_t base, ocft_check *check) {
  const size_t cols = model->cols;
  double m = -INFINITY;
  int nan_row = 0, non_finite_output = 0;
  for (size_t c = 0; c < cols; c++) {
    if (isnan(y[c])) nan_row = 1; /* the reference makes the whole row NaN */
    if (x[c] > m) m = x[c];
    if (!isfinite(got[c])) non_finite_output = 1;
  }
  if (nan_row || non_finite_output) {
    /* A NaN row must be NaN throughout; in a row of numbers, each non-finite output is wrong. */
    for (size_t c = 0; c < cols; c++)
      if (nan_row || !isfinite(got[c])) consider(check, base + c, got[c], y[c], 0.0, 0);
    return;
  }
  const double u = fp32_u, reference_op = 0x1.0p-53;
  double sum_got = 0.0, sum_want = 0.0, abar = 0.0, terms = 0.0;
  for (size_t c = 0; c < cols; c++) {
    double distance = isfinite(x[c]) ? m - x[c] : 0.0; /* a -inf input gives an exact 0 */
    sum_got += got[c];
    sum_want += y[c];
    abar += y[c] * (u * (14.0 + distance) + 4.0 * reference_op);
    terms += y[c] * (6.0 + distance);
  }
  const double rho = sum_got / sum_want;
  const double flushed = 2.0 * FLT_MIN;
  for (size_t c = 0; c < cols; c++) {
    double distance = isfinite(x[c]) ? m - x[c] : 0.0;
    double a = u * (14.0 + distance) + 4.0 * reference_op;
    double tol = rho * y[c] * (a + abar) / (1.0 - abar) + flushed + y[c] * (double)cols * flushed;
    consider(check, base + c, got[c], rho * y[c], tol, 0);
  }
  double sigma = u * (terms + model->depth + 7.0 * model->rescales);
  double beta = (5.0 * u + sigma) / (1.0 - sigma);
  double tol = beta + abar + beta * abar + gamma_n((double)cols + 4.0, reference_op) +
               (double)cols * flushed;
  consider(check, base, rho, 1.0, tol, 1);
}

void ocft_check_softmax(size_t rows, size_t cols, const float *in, size_t in_ld, const double *want,
                        const float *got, size_t got_ld, size_t workgroup_size,
                        const ocf_device_info *device, ocft_check *check) {
  if (rows == 0 || cols == 0) return;
  const softmax_model model = softmax_model_for(cols, workgroup_size, device);
  ocft_check part;
  ocft_check_start(&part);
  for (size_t r = 0; r < rows; r++)
    softmax_row(&model, in + r * in_ld, want + r * cols, got + r * got_ld, r * cols, &part);
  part.checked = rows * cols;
  ocft_check_merge(check, &part, 0);
}

/* ---- norm ----
 *
 * Every kernel of cl/norm.cl computes a row's statistics about a shift s (LayerNorm: the row's
 * first element, RMSNorm: 0), from z_k = fl(x_k - s):
 *     m = fl(sum z) / cols (RMSNorm: 0),  d_k = fl(z_k - m),  V = fl(sum d_k^2) / cols,
 *     rstd = rsqrt(V + eps),  y_k = fl(fl(fl(d_k rstd) w_k) + b_k)
 * (norm_split_* merge (count, mean, M2) of slices with Chan's update instead of one sum, and
 * norm_stream each work-item's held values and streamed steps, then the work-items: the same
 * quantities, each merge a few roundings of values no larger than the row's). With exact values
 * z, mu = sum z / n, delta_k = z_k - mu, var = sum delta^2 / n, rho = 1 / sqrt(var + eps), n =
 * cols, and D the reduction's depth (below), every rounding at most u times its value:
 *   - m: z_k carries u |z_k|, the sum gamma_D sum |z|, the division (a product with fl(1 / n))
 *     2u |mu|; Chan's merges weigh means instead of adding terms, each merge within 3u of the
 *     larger mean's magnitude. So |m - mu| <= dm = 3 (D + 5) u Zmax, Zmax = max |z_k|;
 *   - d_k: |d_k - delta_k| <= E_k = (u |z_k| + dm)(1 + u) + u |delta_k|;
 *   - V: sum d_k^2 differs from sum delta_k^2 by at most sum (2 |delta_k| E_k + E_k^2), and its
 *     squares, sum (a tree of depth D over positive terms, or Chan's merges) and division add
 *     a relative 3 (D + 4) u;
 *   - rstd: the argument V + eps is off by e_a = |V - var| / (var + eps) + u relatively, so rstd
 *     by e_a / (2 (1 - e_a)) from it, and rsqrt's 2 ulp (4u): e_rho;
 *   - y_k: |w_k| rho (E_k + |delta_k| e_rho), then the two products and the sum (u each, of values
 *     within (1 + e_rho) of |delta_k| rho |w_k| and |y_k|), then the output's storage rounding
 *     (half an ulp of the type) and a floor of FLT_MIN for a flushed subnormal.
 * The statistics: rstd within rho e_rho, the mean (s + m) within dm + u |mean|.
 * D, the depth of the sums: a work-item adds at most max(128, ceil(n / W_lo)) of a row's values
 * in sequence (norm_rows holds at most 128 floats a work-item: a rule of the tuning schema; the
 * others stride by their workgroup), a split row merges its slices (fewer than n / W_lo) in
 * sequence, and the workgroup combines its work-items in a tree of ceil(log2 W_hi) levels or, in
 * norm_rows, in at most 16 + ceil(W_hi / 16) serial additions; no sum of n terms is deeper than
 * n: D = min(n + 4, 2 (128 + ceil(n / W_lo)) + 32 + ceil(W_hi / 16) + ceil(log2 W_hi)).
 * A row far from zero loses nothing here: z, m and d are all of the data's spread, not of its
 * mean, which is what the shift is for. A one-pass E[x^2] - E[x]^2 in fp32 would carry an error
 * of u D mean^2 instead (test_norm_large_mean shows it failing this model).
 */
void ocft_norm_tolerance(int rms, size_t rows, size_t cols, const float *x, size_t x_ld,
                         const float *weight, const float *bias, double eps, const double *want,
                         int out_dtype, size_t workgroup_size, const ocf_device_info *device,
                         double *tol, double *mean_tol, double *rstd_tol) {
  if (rows == 0 || cols == 0) return;
  double w_lo = 1.0, w_hi = 65536.0;
  if (workgroup_size) {
    w_lo = w_hi = (double)workgroup_size;
  } else if (device) {
    w_hi = (double)device->max_workgroup_size;
  }
  const double n = (double)cols, u = fp32_u;
  double depth = 2.0 * (128.0 + ceil(n / w_lo)) + 32.0 + ceil(w_hi / 16.0) + ceil(log2(w_hi));
  if (depth > n + 4.0) depth = n + 4.0;
  for (size_t r = 0; r < rows; r++) {
    const float *row = x + r * x_ld;
    const double s = rms ? 0.0 : (double)row[0];
    double zmax = 0.0, mu = 0.0;
    for (size_t c = 0; c < cols; c++) {
      const double z = (double)row[c] - s;
      if (fabs(z) > zmax) zmax = fabs(z);
      mu += z;
    }
    mu = rms ? 0.0 : mu / n;
    const double dm = rms ? 0.0 : 3.0 * (depth + 5.0) * u * zmax;
    double var = 0.0, cross = 0.0;
    for (size_t c = 0; c < cols; c++) {
      const double z = (double)row[c] - s, delta = z - mu;
      const double e = rms ? 0.0 : (u * fabs(z) + dm) * (1.0 + u) + u * fabs(delta);
      var += delta * delta;
      cross += 2.0 * fabs(delta) * e + e * e;
    }
    var /= n;
    cross /= n;
    const double v_err = cross + 3.0 * (depth + 4.0) * u * (var + cross);
    const double e_a = v_err / (var + eps) + u;
    const double e_rho = (e_a < 1.0 ? e_a / (2.0 * (1.0 - e_a)) : INFINITY) + 4.0 * u;
    const double rho = 1.0 / sqrt(var + eps);
    for (size_t c = 0; c < cols; c++) {
      const double z = (double)row[c] - s, delta = z - mu;
      const double e = rms ? 0.0 : (u * fabs(z) + dm) * (1.0 + u) + u * fabs(delta);
      const double w = weight ? fabs((double)weight[c]) : 1.0;
      const double y = fabs(want[r * cols + c]);
      double t = w * rho * (e + fabs(delta) * e_rho);
      t += 2.0 * u * w * rho * (fabs(delta) + e) * (1.0 + e_rho) + u * (y + t);
      t += 4.0 * FLT_MIN;
      if (out_dtype != 0) t += ocf_ref_half_ulp(out_dtype, y + t);
      tol[r * cols + c] = t;
    }
    if (rstd_tol) rstd_tol[r] = rho * e_rho + FLT_MIN;
    if (mean_tol) mean_tol[r] = dm + u * fabs(s + mu) + FLT_MIN;
    (void)bias;
  }
}

/* ---- attention ----
 *
 * Row i keeps keys j < kept with exact scores s_j = scale q . k_j, max m, weights
 * w_j = exp(s_j - m) / sum exp(s - m), output o_c = sum_j w_j v_jc and lse = m + log sum exp(s -
 * m). cl/attention.cl computes each score as one fp32 dot product of d terms (padding adds exact
 * zeros) and one product by the float scale (which the reference uses too), then streams the keys
 * in tiles: per tile, p_j = exp(shat_j - mhat) against the running max, the running pair (s, acc)
 * multiplied by f = exp(m_old - m_new) where the max grows, and p_j and p_j v_jc added in order.
 * At the end out = acc * (1 / s).
 *
 * Each weight's relative error, e_j (a common factor cancels in acc / s, so only differences
 * between weights count):
 *   - the score: gamma_d |scale| sum_c |q_c k_jc| (a dot product in order, Higham 3.1, with or
 *     without contraction) plus u |s_j| for the scale's product;
 *   - the argument shat_j - mhat, rounded once: u |s_j - m|; exp: 3 ulp, 6u;
 *   - the rescales applied after p_j was added: each 6u (exp) + u (the product) + the rounding of
 *     its argument m_old - m_new, whose sum over the rescales telescopes to at most u (m - s_min).
 *     A rescale happens only where the running max grows, so at most once per key that is within
 *     the scores' error of being a new maximum in key order: R, counted on the reference's scores.
 *     The decode split runs each range of keys from a max of -inf (its first rescale is exact: a
 *     sum of 0) and the merge rescales each range once more: there R is bounded by the caller,
 *     one a tile of BK keys plus the merge's, ceil(lk / BK) + 2.
 * With E = max_j e_j (exp(E) - 1 as a relative factor), perturbing every weight by at most
 * eps = expm1(E) moves the normalised sum by at most eps (A_c + |o_c|) / (1 - eps) <= 2 eps A_c /
 * (1 - eps), A_c = sum_j w_j |v_jc|. The sums acc and s each add kept terms and take one product a
 * tile (at most kept tiles: BK may be 1), and the merge of a split adds one term a range (at most
 * kept): gamma_N, N = 3 kept + 2, relative to A_c and to s. The
 * reciprocal (2.5 ulp) and the last product: 6u. Flushed subnormal weights: FLT_MIN each, absolute,
 * times max |v|. A 16-bit out then rounds to half an ulp of its type.
 * lse = mhat + log(shat): the max's own score error, log(1 + relative error of s) <= eps + gamma_N
 * over (1 - ...), the log's 3 ulp of log s and the final sum's u |lse|.
 */

static double half_ulp_of(int dtype, double magnitude) {
  const int bits = dtype == 1 ? 11 : dtype == 2 ? 8 : 24;
  const double floor_normal = dtype == 1 ? 0x1.0p-14 : 0x1.0p-126;
  if (magnitude < floor_normal) magnitude = floor_normal;
  const int e = ilogb(magnitude);
  return ldexp(1.0, e - bits);
}

void ocft_attention_tolerance(const ocf_ref_attention_args *a, const double *want,
                              const double *lse, int out_dtype, size_t rescales, double *tol,
                              double *tol_lse) {
  const double u = fp32_u;
  double *s = malloc((a->lk ? a->lk : 1) * sizeof *s);
  double *abs_dot = malloc((a->lk ? a->lk : 1) * sizeof *abs_dot);
  if (!s || !abs_dot) abort();
  for (size_t batch = 0; batch < a->b; batch++)
    for (size_t head = 0; head < a->h; head++) {
      const size_t kv_head = head / (a->h / a->h_kv);
      for (size_t i = 0; i < a->lq; i++) {
        const size_t row = (batch * a->h + head) * a->lq + i;
        const size_t kept = ocf_ref_attention_scores(a, batch, head, i, s, abs_dot);
        double *t = tol + row * a->d;
        const double *o = want + row * a->d;
        if (kept == 0 || isnan(o[0])) {
          for (size_t c = 0; c < a->d; c++)
            t[c] = 0.0;
          if (tol_lse) tol_lse[row] = 0.0;
          continue;
        }
        double m = -INFINITY, lo = INFINITY, score_err_max = 0.0;
        for (size_t j = 0; j < kept; j++) {
          const double err = gamma_n((double)a->d, u) * abs_dot[j] + u * fabs(s[j]);
          if (err > score_err_max) score_err_max = err;
          if (s[j] > m) m = s[j];
          if (s[j] < lo) lo = s[j];
        }
        /* R: keys that may be a new running maximum in key order, within the score errors. */
        double running = -INFINITY, records = 0.0;
        for (size_t j = 0; j < kept; j++) {
          if (s[j] + 2.0 * score_err_max >= running) records += 1.0;
          if (s[j] > running) running = s[j];
        }
        if (rescales) records = (double)rescales;
        double e_max = 0.0;
        for (size_t j = 0; j < kept; j++) {
          const double e = gamma_n((double)a->d, u) * abs_dot[j] + u * fabs(s[j]) +
                           u * fabs(s[j] - m) + 6.0 * u + records * 7.0 * u + u * (m - lo);
          if (e > e_max) e_max = e;
        }
        const double eps = expm1(e_max);
        const double g = gamma_n(3.0 * (double)kept + 2.0, u);
        double l = 0.0, v_max = 0.0;
        for (size_t j = 0; j < kept; j++)
          l += exp(s[j] - m);
        for (size_t j = 0; j < kept; j++)
          s[j] = exp(s[j] - m) / l; /* the weights, from here on */
        for (size_t c = 0; c < a->d; c++) {
          double abs_sum = 0.0;
          for (size_t j = 0; j < kept; j++) {
            const float *vr = a->v + batch * a->v_s[0] + kv_head * a->v_s[1] + j * a->v_s[2];
            abs_sum += s[j] * fabs((double)vr[c]);
            if (fabs((double)vr[c]) > v_max) v_max = fabs((double)vr[c]);
          }
          double t32 = (2.0 * eps / (1.0 - eps) + 2.0 * g + 6.0 * u) * abs_sum * (1.0 + 4.0 * g);
          t32 += (double)kept * FLT_MIN * v_max;
          t[c] = t32 + (out_dtype ? half_ulp_of(out_dtype, fabs(o[c]) + t32) : 0.0);
        }
        if (tol_lse)
          tol_lse[row] = score_err_max + (eps + g) / (1.0 - eps - g) + 6.0 * u * fabs(log(l)) +
                         u * fabs(lse ? lse[row] : m + log(l)) + FLT_MIN;
      }
    }
  free(s);
  free(abs_dot);
}

/* attention_mma's arithmetic beyond the model above (which holds for the SIMT kernels), added to
   tol:
   - P V multiplies the weights rounded to the inputs' 16-bit type (p_dtype) while the row sum
     adds them unrounded: each weight of the numerator is off by a relative u16 (2^-8 bf16, 2^-11
     f16, to nearest), moving out_c by at most u16 A_c (A_c = sum_j w_j |v_jc|), and a weight
     below the type's normal range (f16: 2^-14; bf16: fp32's) by at most half its subnormal
     spacing absolutely (2^-25 f16; FLT_MIN bf16), relative to the running max, so at most that
     over the row's sum (>= 1) per key: kept 2^-25 max|v| in all;
   - the matrix units' fp32 sums: the PTX ISA promises no rounding mode or order inside an mma
     (NVIDIA's units align and truncate), so each addition is taken to cost 2u, one u more than
     the model counts: for the scores once more gamma_d |scale| sum |q k| (through exp: twice
     expm1 of it, relative to A_c, as the model's eps), for the sums of P V gamma_{kept + 1} A_c;
   - then half an ulp more of a 16-bit out (the larger bound may cross into the next binade).
   fp32 inputs (p_dtype 0) in TF32 parts (precision 1 TF32, 2 3XTF32; cl/attention_mma_prims.clh)
   instead of 16-bit weights: every product of Q K^T and of P V (weights and V both split) is
   off by a relative p_u of |x y|, TF32 truncating both factors (2^-10 each: 2^-9 + 2^-20), 3XTF32
   big = x rounded (2^-11 |x|) and small = x - big truncated (2^-21 |x| left), whose three
   products miss 2 2^-21 (1 + 2^-11) + 2^-22 + 2^-32 of |x y|, below 5 2^-22 + 2^-29: p_u A_c on
   out_c, and p_u |scale| sum |q k| on each score, through exp with the sums' gamma_d; each weight
   is an ex2.approx of the special function unit (2^-22 relative), and the row sum and P V share
   it: 2 2^-22 A_c; weights below FLT_MIN are flushed: FLT_MIN max|v| a key. lse (tol_lse,
   NULL: not wanted) moves with the scores' errors and, through the log, the weights'. */
void ocft_attention_mma_tolerance(const ocf_ref_attention_args *a, const double *want, int p_dtype,
                                  int precision, int out_dtype, double *tol, double *tol_lse) {
  const double u = 0x1.0p-24;
  /* p_u: a product's relative error (the weights' rounding at 16 bits, where Q K^T is exact);
     s_u: that of the scores' products; the weights' own exp2 error. */
  const double p_u = p_dtype == 1     ? 0x1.0p-11
                     : p_dtype == 2   ? 0x1.0p-8
                     : precision == 1 ? 0x1.0p-9 + 0x1.0p-20
                                      : 5.0 * 0x1.0p-22 + 0x1.0p-29;
  const double s_u = p_dtype == 0 ? p_u : 0.0, exp2_u = p_dtype == 0 ? 2.0 * 0x1.0p-22 : 0.0;
  const double pv_u = p_u + exp2_u; /* P V's relative error a term */
  const double tiny = p_dtype == 1 ? 0x1.0p-25 : (double)FLT_MIN;
  double *s = malloc((a->lk ? a->lk : 1) * sizeof *s);
  double *abs_dot = malloc((a->lk ? a->lk : 1) * sizeof *abs_dot);
  if (!s || !abs_dot) abort();
  for (size_t batch = 0; batch < a->b; batch++)
    for (size_t head = 0; head < a->h; head++) {
      const size_t kv_head = head / (a->h / a->h_kv);
      for (size_t i = 0; i < a->lq; i++) {
        const size_t row = (batch * a->h + head) * a->lq + i;
        const size_t kept = ocf_ref_attention_scores(a, batch, head, i, s, abs_dot);
        if (kept == 0 || isnan(want[row * a->d])) continue;
        double m = -INFINITY, dot_max = 0.0, sum = 0.0;
        for (size_t j = 0; j < kept; j++) {
          if (s[j] > m) m = s[j];
          if (abs_dot[j] > dot_max) dot_max = abs_dot[j];
        }
        for (size_t j = 0; j < kept; j++)
          sum += exp(s[j] - m);
        const double rel = pv_u + 2.0 * expm1((gamma_n((double)a->d, u) + s_u) * dot_max) +
                           gamma_n((double)kept + 1.0, u);
        /* lse = max + log(sum): moved by the scores' product errors, and by the weights' exp2
           through the log. */
        if (tol_lse) tol_lse[row] += (gamma_n((double)a->d, u) + s_u) * dot_max + 2.0 * exp2_u;
        for (size_t c = 0; c < a->d; c++) {
          double abs_sum = 0.0, v_max = 0.0;
          for (size_t j = 0; j < kept; j++) {
            const double x =
                fabs((double)a->v[batch * a->v_s[0] + kv_head * a->v_s[1] + j * a->v_s[2] + c]);
            abs_sum += exp(s[j] - m) / sum * x;
            if (x > v_max) v_max = x;
          }
          double extra = rel * abs_sum + (double)kept * tiny * v_max;
          if (out_dtype) {
            const int bits = out_dtype == 1 ? 11 : 8;
            double mag = fabs(want[row * a->d + c]) + tol[row * a->d + c] + extra;
            if (mag < (out_dtype == 1 ? 0x1.0p-14 : 0x1.0p-126))
              mag = out_dtype == 1 ? 0x1.0p-14 : 0x1.0p-126;
            extra += ldexp(1.0, ilogb(mag) - bits);
          }
          tol[row * a->d + c] += extra;
        }
      }
    }
  free(s);
  free(abs_dot);
}
