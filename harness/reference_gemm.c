#include "reference_gemm.h"

#include <math.h>
#include <pthread.h>
#include <unistd.h>

/* ---- TF32 ---- */

float ocf_ref_tf32(float x) {
  const uint32_t u = ocf_ref_bits_of(x);
  return ocf_ref_float_of((isnan(x) ? u | 0x00400000u : u) & 0xffffe000u);
}

float ocf_ref_tf32_rna(float x) {
  const uint32_t u = ocf_ref_bits_of(x);
  if (isnan(x)) return ocf_ref_float_of((u | 0x00400000u) & 0xffffe000u);
  return ocf_ref_float_of((u + 0x1000u) & 0xffffe000u);
}

float ocf_ref_tf32_small(float x, float big) {
  return ocf_ref_tf32_rna(x - big);
}

/* ---- the GEMM ---- */

static const double U = 5.9604644775390625e-8; /* 2^-24 */

static double element(const float *x, size_t ld, int col_major, size_t r, size_t c) {
  return x[col_major ? r + c * ld : r * ld + c];
}

static double activate(double z, int activation) {
  switch (activation) {
  case 1:
    return z < 0.0 ? 0.0 : z;
  case 2:
    return 0.5 * z * (1.0 + erf(z / sqrt(2.0)));
  case 3:
    return 0.5 * z * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) * (z + 0.044715 * z * z * z)));
  case 4:
    return z / (1.0 + exp(-z));
  default:
    return z;
  }
}

/* Lipschitz constant and own-rounding factor (in u |z|) of each activation (see the header). */
static const double act_lipschitz[5] = {1.0, 1.0, 1.13, 1.13, 1.10};
static const double act_rounding[5] = {0.0, 0.0, 10.0, 6.0, 12.0};

/* The product a b as the precision mode forms it, and |terms| it sums (for the bound). */
static double product(double a, double b, int precision, int exact_inputs, double *magnitude) {
  if (exact_inputs || precision == 0) {
    *magnitude = fabs(a * b);
    return a * b;
  }
  const float af = (float)a, bf = (float)b;
  if (precision == 1) {
    const double at = ocf_ref_tf32(af), bt = ocf_ref_tf32(bf);
    *magnitude = fabs(at * bt);
    return at * bt;
  }
  const float ah = ocf_ref_tf32_rna(af), bh = ocf_ref_tf32_rna(bf);
  const double al = ocf_ref_tf32_small(af, ah), bl = ocf_ref_tf32_small(bf, bh);
  const double big = (double)ah * bh, cross = al * bh + (double)ah * bl;
  *magnitude = fabs(big) + fabs(al * bh) + fabs((double)ah * bl);
  return big + cross;
}

/* Rows row0 to row1 - 1 of the reference. */
static void run_rows(const ocf_ref_gemm *g, int exact_inputs, double *want, double *tol,
                     size_t row0, size_t row1) {
  const int act = g->activation >= 0 && g->activation <= 4 ? g->activation : 0;
  const double bias_steps = g->bias_axis ? 1.0 : 0.0;
  for (size_t i = row0; i < row1; i++) {
    for (size_t j = 0; j < g->n; j++) {
      double sum = 0.0, terms = 0.0;
      /* alpha == 0: A and B are not read (BLAS), so NaNs in them do not reach C. */
      for (size_t p = 0; g->alpha != 0.0f && p < g->k; p++) {
        double av = g->trans_a ? element(g->a, g->lda, g->col_major, p, i)
                               : element(g->a, g->lda, g->col_major, i, p);
        double bv = g->trans_b ? element(g->b, g->ldb, g->col_major, j, p)
                               : element(g->b, g->ldb, g->col_major, p, j);
        double magnitude;
        sum += product(av, bv, g->precision, exact_inputs, &magnitude);
        terms += magnitude;
      }
      double z = (double)g->alpha * sum;
      double scale = fabs((double)g->alpha) * terms;
      if (g->beta != 0.0f) {
        double old = element(g->c, g->ldc, g->col_major, i, j);
        z += (double)g->beta * old;
        scale += fabs((double)g->beta * old);
      }
      if (g->bias_axis) {
        double bias = g->bias[g->bias_axis == 1 ? j : i];
        z += bias;
        scale += fabs(bias);
      }
      /* The GEMM's error, then the mode's documented extra against exact inputs. */
      double factor = 2.0 * ((double)g->k + 2.0 + bias_steps) * U * (g->truncating_sum ? 2 : 1);
      double error = factor * scale;
      if (g->precision == 2) error *= 1.0 + 0x1p-10;
      if (exact_inputs && g->precision == 1)
        error = factor * scale + 0x1p-9 * fabs((double)g->alpha) * terms;
      if (exact_inputs && g->precision == 2) error += 12.1 * U * fabs((double)g->alpha) * terms;
      double y = activate(z, act);
      error = act_lipschitz[act] * error + act_rounding[act] * U * fabs(z);
      if (g->c_dtype == 1) error += 0x1p-11 * (fabs(y) + error) + 0x1p-25;
      if (g->c_dtype == 2) error += 0x1p-8 * (fabs(y) + error);
      want[i * g->n + j] = y;
      tol[i * g->n + j] = error;
    }
  }
}

/* A band of rows for a thread of ocf_ref_gemm_run. */
typedef struct rows_job {
  const ocf_ref_gemm *g;
  int exact_inputs;
  double *want, *tol;
  size_t row0, row1;
} rows_job;

static void *run_job(void *arg) {
  const rows_job *job = arg;
  run_rows(job->g, job->exact_inputs, job->want, job->tol, job->row0, job->row1);
  return NULL;
}

/* Up to 16 threads, none below 2^24 terms: one 17230 x 257 x 520 reference (test_matmul_wgmma's
   stream-K cases) took 34 s on one core, and the GPU suites spent most of their 500 s on such
   references while the host's other 15 cores idled. Each element is computed alone, so the
   bands give the same bits in any order; a thread that does not start leaves its band to the
   calling one. */
#define REF_THREADS 16
void ocf_ref_gemm_run(const ocf_ref_gemm *g, int exact_inputs, double *want, double *tol) {
  const double terms = (double)g->m * (double)g->n * (double)g->k;
  const long cpus = terms < 16777216.0 ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
  size_t bands = cpus > 1 ? (size_t)cpus : 1;
  if (bands > REF_THREADS) bands = REF_THREADS;
  if (bands > g->m) bands = g->m > 0 ? g->m : 1;
  rows_job jobs[REF_THREADS];
  pthread_t threads[REF_THREADS];
  int started[REF_THREADS] = {0};
  for (size_t b = 0; b < bands; b++) {
    jobs[b] = (rows_job){g, exact_inputs, want, tol, g->m * b / bands, g->m * (b + 1) / bands};
    if (b > 0) started[b] = pthread_create(&threads[b], NULL, run_job, &jobs[b]) == 0;
  }
  run_job(&jobs[0]);
  for (size_t b = 1; b < bands; b++) {
    if (started[b])
      pthread_join(threads[b], NULL);
    else
      run_job(&jobs[b]);
  }
}

double ocf_ref_gemm_fp32_factor(size_t k) {
  return 2.0 * ((double)k + 2.0) * U;
}
