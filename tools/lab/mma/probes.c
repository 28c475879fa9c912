/*
 * probes.c: one tiny program per PTX construct and operand form the GEMM relies on (sources in
 * probes/ here), each built on its own and checked against the host's expectation; and one
 * warp's mma.sync per data type against ptx_model.c's fragment tables. The driver runs each probe
 * in a process of its own (a probe that faults takes only its own row with it); a build
 * failure, wrong result, driver error or fault is a row of the table.
 */
#include "lab.h"
#include "ptx_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct probe_def probe_def;
typedef lab_status (*probe_run_fn)(lab_env *env, cl_kernel kernel, const probe_def *def,
                                   char *detail, size_t size);
struct probe_def {
  const char *name;
  const char *file; /* under tools/lab/mma/probes/ */
  int with_common;  /* cl/common.cl first */
  const char *options;
  const char *kernel;
  probe_run_fn run;
  int param;
  int group; /* PROBE_OWN, PROBE_TAIL, or a group (see the table) */
};

/* ---- buffers ---- */

static cl_mem buffer_with(lab_env *env, const void *data, size_t bytes) {
  cl_int err;
  cl_mem mem = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                              (void *)data, &err);
  return err == CL_SUCCESS ? mem : NULL;
}

/* A buffer filled with the byte 0xcd (so that what a kernel leaves unwritten shows). */
static cl_mem buffer_poisoned(lab_env *env, size_t bytes) {
  unsigned char *fill = malloc(bytes);
  if (!fill) return NULL;
  memset(fill, 0xcd, bytes);
  cl_mem mem = buffer_with(env, fill, bytes);
  free(fill);
  return mem;
}

static cl_int read_back(lab_env *env, cl_mem mem, void *out, size_t bytes) {
  return clEnqueueReadBuffer(env->queue, mem, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
}

static void release_all(cl_mem *mems, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (mems[i]) clReleaseMemObject(mems[i]);
}

/* Sets the kernel's arguments to the buffers, launches global x local, waits. */
static cl_int launch(lab_env *env, cl_kernel kernel, cl_mem *args, cl_uint count, size_t global,
                     size_t local) {
  for (cl_uint i = 0; i < count; i++) {
    if (!args[i]) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    const cl_int err = clSetKernelArg(kernel, i, sizeof(cl_mem), &args[i]);
    if (err != CL_SUCCESS) return err;
  }
  return lab_run_kernel(env, kernel, 1, &global, local ? &local : NULL, NULL);
}

static lab_status driver_error(cl_int err, const char *what, char *detail, size_t size) {
  snprintf(detail, size, "%s: %s", what, lab_cl_error(err));
  return LAB_ERROR;
}

/* ---- the probes ---- */

static lab_status run_add7(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                           size_t size) {
  (void)def;
  enum { N = 256 };
  uint32_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (uint32_t)i * 2654435761u;
  cl_mem mem[2] = {buffer_poisoned(env, sizeof out), buffer_with(env, in, sizeof in)};
  cl_int err = launch(env, kernel, mem, 2, N, 0);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, sizeof out);
  release_all(mem, 2);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);
  for (int i = 0; i < N; i++)
    if (out[i] != in[i] + 7) {
      snprintf(detail, size, "out[%d] = %u, want %u", i, out[i], in[i] + 7);
      return LAB_FAIL;
    }
  return LAB_PASS;
}

static lab_status run_local_addr(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                                 size_t size) {
  uint32_t out[64];
  uint64_t raw[2] = {0, 0};
  cl_mem mem[2] = {buffer_poisoned(env, sizeof out), buffer_poisoned(env, sizeof raw)};
  cl_int err = clSetKernelArg(kernel, 2, 64 * sizeof(uint32_t), NULL); /* the __local one */
  if (err == CL_SUCCESS) err = launch(env, kernel, mem, 2, 64, 64);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, sizeof out);
  if (err == CL_SUCCESS) err = read_back(env, mem[1], raw, sizeof raw);
  release_all(mem, 2);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);
  int bad = 0;
  for (uint32_t i = 0; i < 64; i++)
    if (out[i] != ((i * 5 + 3) % 64) * 7 + 1) bad++;
  snprintf(detail, size,
           "mode %d: %d of 64 wrong; local pointer value 0x%llx, isspacep.shared %llu", def->param,
           bad, (unsigned long long)raw[0], (unsigned long long)raw[1]);
  return bad ? LAB_FAIL : LAB_PASS;
}

/* cp.async probe flavours (param): the copy size in the low byte; CP_MISALIGNED: every
   destination 4 bytes past a 16-byte boundary (what the first GPU run did by accident, with a
   4-byte aligned buffer: it must fault). */
enum { CP_MISALIGNED = 1 << 8 };

static lab_status run_cp_async(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                               size_t size) {
  const int unit = def->param & 0xff, words = unit / 4;
  /* src-size per work-item: every legal even count, zero (reads nothing) included */
  static const uint32_t sizes16[] = {16, 14, 12, 10, 8, 6, 4, 2, 0};
  static const uint32_t sizes4[] = {4, 2, 0};
  const uint32_t *cycle = unit == 16 ? sizes16 : sizes4;
  const int cycle_len = unit == 16 ? 9 : 3;
  uint32_t src[64 * 4], sizes[64], out[64 * 4];
  uint64_t where[1] = {0};
  for (int i = 0; i < 64 * words; i++)
    src[i] = 0x01010101u * (uint32_t)(i + 1);
  for (int i = 0; i < 64; i++)
    sizes[i] = cycle[i % cycle_len];
  cl_mem mem[4] = {buffer_poisoned(env, sizeof out), buffer_with(env, src, sizeof src),
                   buffer_with(env, sizes, sizeof sizes), buffer_poisoned(env, sizeof where)};
  cl_int err = launch(env, kernel, mem, 4, 64, 64);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, (size_t)64 * words * 4);
  if (err == CL_SUCCESS) err = read_back(env, mem[3], where, sizeof where);
  release_all(mem, 4);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);
  for (int i = 0; i < 64; i++) {
    const unsigned char *got = (const unsigned char *)(out + i * words);
    const unsigned char *from = (const unsigned char *)(src + i * words);
    for (int byte = 0; byte < unit; byte++) {
      const unsigned char want = (uint32_t)byte < sizes[i] ? from[byte] : 0;
      if (got[byte] != want) {
        snprintf(detail, size,
                 "unit %d (src-size %u) byte %d = 0x%02x, want 0x%02x; local buffer at 0x%llx", i,
                 sizes[i], byte, got[byte], want, (unsigned long long)where[0]);
        return def->param & CP_MISALIGNED ? LAB_INFO : LAB_FAIL;
      }
    }
  }
  snprintf(detail, size, "src-size 0..%d all right, zero fill included; local buffer at 0x%llx%s",
           unit, (unsigned long long)where[0],
           def->param & CP_MISALIGNED ? " (misaligned by 4 and no fault: unexpected)" : "");
  return def->param & CP_MISALIGNED ? LAB_INFO : LAB_PASS;
}

static lab_status run_ldmatrix(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                               size_t size) {
  uint32_t out[32 * 4];
  cl_mem mem[1] = {buffer_poisoned(env, sizeof out)};
  cl_int err = launch(env, kernel, mem, 1, 32, 32);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, sizeof out);
  release_all(mem, 1);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);
  /* the same local image, built on the host, through the model */
  uint8_t image[32 * 16];
  uint32_t addr[32], want[32][4];
  for (uint32_t l = 0; l < 32; l++) {
    const uint32_t slot = (5 * l) % 32, i = l >> 3, r = l & 7;
    for (uint32_t c = 0; c < 8; c++) {
      const uint16_t v = (uint16_t)(64 * i + 8 * r + c);
      memcpy(image + slot * 16 + 2 * c, &v, 2);
    }
    addr[l] = slot * 16;
  }
  ptx_ldmatrix_x4(image, addr, def->param, want);
  int bad = 0;
  for (int l = 0; l < 32; l++)
    for (int j = 0; j < 4; j++)
      if (out[4 * l + j] != want[l][j]) {
        if (!bad)
          snprintf(detail, size, "lane %d register %d = 0x%08x, model 0x%08x", l, j, out[4 * l + j],
                   want[l][j]);
        bad++;
      }
  if (!bad) snprintf(detail, size, "all 32 lanes x 4 registers match the model");
  return bad ? LAB_FAIL : LAB_PASS;
}

/* The element bits of x in the probe's data type (DT 0: fp32 bits). */
static uint32_t bits_of(int dt, float x) {
  return dt == 0 ? lab_f32_bits(x) : dt == 1 ? lab_f32_to_f16(x) : lab_f32_to_bf16(x);
}

/* mma probe flavours (param): the data type in the low byte; data: 0 exact small values (the
   result must be bit-exact), 1 random fp32 rounded by cvt in the kernel, 2 random fp32 fed raw
   (informational: how the unit treats the 13 low bits), 3 crafted sums that show how the unit
   rounds its accumulation (informational). */
enum { MMA_EXACT = 0, MMA_CVT = 1, MMA_RAW = 2, MMA_ROUNDING = 3 };

static lab_status run_mma(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                          size_t size) {
  const int dt = def->param & 0xff, data = def->param >> 8;
  const int kind = dt == 0 ? PTX_TF32 : PTX_B16, kk = ptx_mma_k(kind);
  float a[16 * 16], b[16 * 8], c[16 * 8];
  uint32_t a_bits[16 * 16], b_bits[16 * 8], a_idx[32 * 8], b_idx[32 * 4], c_idx[32 * 4];
  uint64_t seed = 77 + (uint64_t)def->param;
  for (int i = 0; i < 16 * kk; i++)
    a[i] = data == MMA_EXACT ? (float)((int)(lab_rand_next(&seed) % 17) - 8) / 4.0f
                             : lab_rand_unit(&seed);
  for (int i = 0; i < kk * 8; i++)
    b[i] = data == MMA_EXACT ? (float)((int)(lab_rand_next(&seed) % 17) - 8) / 4.0f
                             : lab_rand_unit(&seed);
  for (int i = 0; i < 16 * 8; i++)
    c[i] = data == MMA_EXACT ? (float)((int)(lab_rand_next(&seed) % 17) - 8) / 2.0f
                             : lab_rand_unit(&seed);
  if (data == MMA_ROUNDING) { /* rows 0-3 of column 0 hold the cases, everything else is 0 */
    const float ulp = ldexpf(1.0f, -23);
    memset(a, 0, sizeof a), memset(b, 0, sizeof b), memset(c, 0, sizeof c);
    b[0] = 1.0f;                                /* B column 0 = (1, 0, ...) for rows 0-2 */
    c[0 * 8] = 1.0f, a[0 * kk] = 0.75f * ulp;   /* 1 + 0.75 ulp: nearest 1 + ulp, truncation 1 */
    c[1 * 8] = 1.0f, a[1 * kk] = 0.5f * ulp;    /* 1 + 0.5 ulp: a tie (even: 1, away: 1 + ulp) */
    c[2 * 8] = -1.0f, a[2 * kk] = -0.75f * ulp; /* negative: nearest -(1 + ulp), toward 0: -1 */
    c[3 * 8] = 1.0f;                            /* 1 + 8 products of ulp / 4: 1 + 2 ulp exactly */
    for (int p = 0; p < kk; p++) {
      a[3 * kk + p] = 0.25f * ulp;
      b[p * 8] = 1.0f;
    }
  }
  for (int i = 0; i < 16 * kk; i++)
    a_bits[i] = bits_of(dt, a[i]);
  for (int i = 0; i < kk * 8; i++)
    b_bits[i] = bits_of(dt, b[i]);
  for (int l = 0; l < 32; l++)
    for (int q = 0; q < 4; q++) {
      for (int h = 0; h < 2; h++) {
        int r, col;
        ptx_a_pos(kind, l, q, kind == PTX_TF32 ? 0 : h, &r, &col);
        a_idx[8 * l + 2 * q + h] = (uint32_t)(r * kk + col);
        if (q < 2) {
          ptx_b_pos(kind, l, q, kind == PTX_TF32 ? 0 : h, &r, &col);
          b_idx[4 * l + 2 * q + h] = (uint32_t)(r * 8 + col);
        }
      }
      int r, col;
      ptx_c_pos(l, q, &r, &col);
      c_idx[4 * l + q] = (uint32_t)(r * 8 + col);
    }
  float d[16 * 8];
  cl_mem mem[7] = {buffer_poisoned(env, sizeof d),          buffer_with(env, a_bits, sizeof a_bits),
                   buffer_with(env, b_bits, sizeof b_bits), buffer_with(env, c, sizeof c),
                   buffer_with(env, a_idx, sizeof a_idx),   buffer_with(env, b_idx, sizeof b_idx),
                   buffer_with(env, c_idx, sizeof c_idx)};
  cl_int err = launch(env, kernel, mem, 7, 32, 32);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], d, sizeof d);
  release_all(mem, 7);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);

  if (data == MMA_ROUNDING) {
    const float ulp = ldexpf(1.0f, -23);
    snprintf(detail, size,
             "1+0.75ulp -> 1%+.2fulp (nearest +1, trunc 0); 1+0.5ulp -> 1%+.2fulp (even 0, away "
             "+1); -1-0.75ulp -> -1%+.2fulp (nearest -1, to zero 0); 1+8x0.25ulp -> 1%+.2fulp "
             "(exact +2)",
             (d[0] - 1.0f) / ulp, (d[8] - 1.0f) / ulp, (d[16] + 1.0f) / ulp, (d[24] - 1.0f) / ulp);
    return LAB_INFO;
  }
  /* references: exact inputs (what the kernel got, decoded), TF32-rounded, truncated */
  double err_exact = 0, err_rna = 0, err_trunc = 0;
  int bad_exact = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 8; j++) {
      double want = c[i * 8 + j], rna = want, trunc = want, bound = fabs(want);
      for (int p = 0; p < kk; p++) {
        const float av = dt == 0 ? a[i * kk + p] : lab_round_to(dt, a[i * kk + p]);
        const float bv = dt == 0 ? b[p * 8 + j] : lab_round_to(dt, b[p * 8 + j]);
        want += (double)av * bv;
        rna += (double)lab_tf32_rna(av) * lab_tf32_rna(bv);
        trunc += (double)lab_bits_f32(lab_f32_bits(av) & 0xffffe000u) *
                 lab_bits_f32(lab_f32_bits(bv) & 0xffffe000u);
        bound += fabs((double)av * bv);
      }
      const double got = d[i * 8 + j];
      if (isnan(got)) {
        snprintf(detail, size, "D(%d, %d) is NaN (unwritten or wrong)", i, j);
        return LAB_FAIL;
      }
      if (data == MMA_EXACT && got != want) bad_exact++;
      if (bound > 0) {
        err_exact = fmax(err_exact, fabs(got - want) / bound);
        err_rna = fmax(err_rna, fabs(got - rna) / bound);
        err_trunc = fmax(err_trunc, fabs(got - trunc) / bound);
      }
    }
  if (data == MMA_EXACT) {
    snprintf(detail, size, "%d of 128 differ from the exact product (max err %.2g of bound)",
             bad_exact, err_exact);
    return bad_exact ? LAB_FAIL : LAB_PASS;
  }
  if (data == MMA_CVT) { /* TF32-rounded product; the unit's own accumulation error only */
    snprintf(detail, size, "max |D - ref(rna inputs)| = %.2g of bound (limit 2^-20)", err_rna);
    return err_rna <= ldexp(1.0, -20) ? LAB_PASS : LAB_FAIL;
  }
  snprintf(detail, size,
           "raw fp32 in: max err vs truncated inputs %.2g, vs rna-rounded %.2g, vs exact %.2g "
           "(of bound)",
           err_trunc, err_rna, err_exact);
  return LAB_INFO;
}

/* Values where rounding is decided: ties, carries into the exponent, the extremes, subnormals,
   infinities, NaNs; then random bit patterns of every exponent. */
static size_t rounding_inputs(float *in, size_t n) {
  static const uint32_t edges[] = {
      0x00000000u, 0x80000000u, 0x3f800000u, 0x3f801000u, 0x3f803000u, 0x3f800fffu, 0x3f801001u,
      0x3f802000u, 0xbf801000u, 0xbf803000u, 0x3fffffffu, 0x3ffff000u, 0x7f7fffffu, 0x7f7ff000u,
      0x7f7fefffu, 0xff7ff000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffc00001u,
      0x7fa00000u, 0x00000001u, 0x00001000u, 0x00003000u, 0x00001001u, 0x007ff000u, 0x007fffffu,
      0x80001000u, 0x00800000u, 0x33800000u, 0x38800000u, 0x387fe000u, 0x387ff000u, 0x477fe000u,
      0x477ff000u, 0x477fefffu, 0x477fffffu, 0x33000000u, 0x33000001u, 0xc77ff000u, 0x3f7f8000u,
      0x3f7fc000u, 0x3f80c000u, 0x3f818000u, 0x3f808000u, 0x3f800001u, 0x3f7fffffu};
  size_t count = 0;
  for (; count < sizeof edges / sizeof edges[0] && count < n; count++)
    in[count] = lab_bits_f32(edges[count]);
  uint64_t seed = 4242;
  for (; count < n; count++)
    in[count] = lab_bits_f32((uint32_t)lab_rand_next(&seed));
  return count;
}

static lab_status run_cvt_tf32(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                               size_t size) {
  (void)def;
  enum { N = 4096 };
  static float in[N];
  static uint32_t out[N];
  rounding_inputs(in, N);
  cl_mem mem[2] = {buffer_poisoned(env, sizeof out), buffer_with(env, in, sizeof in)};
  cl_int err = launch(env, kernel, mem, 2, N, 0);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, sizeof out);
  release_all(mem, 2);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);
  int bad = 0, nan_in = 0, nan_to_inf = 0, finite_bad = 0;
  uint32_t nan_bits = 0;
  char first[96] = "";
  for (int i = 0; i < N; i++) {
    const float want = lab_tf32_rna(in[i]);
    const int ok = isnan(want) ? isnan(lab_bits_f32(out[i])) : out[i] == lab_f32_bits(want);
    if (isnan(want) && !nan_bits) nan_bits = out[i];
    nan_in += isnan(in[i]) != 0;
    nan_to_inf += isnan(in[i]) && isinf(lab_bits_f32(out[i]));
    finite_bad += !ok && !isnan(in[i]);
    if (!ok) {
      if (!bad)
        snprintf(first, sizeof first, "first: 0x%08x -> 0x%08x, emulation 0x%08x",
                 lab_f32_bits(in[i]), out[i], lab_f32_bits(want));
      bad++;
    }
  }
  /* The library's TF32 rounding (ocf_round_tf32) keeps NaNs NaN where cvt.rna does not: what
     matters is that every finite and infinite input agrees. */
  if (bad)
    snprintf(detail, size, "%d of %d differ: %d finite or infinite, %d of %d NaNs became inf; %s",
             bad, N, finite_bad, nan_to_inf, nan_in, first);
  if (!bad)
    snprintf(detail, size, "%d values bit-exact with the emulation (a NaN came out 0x%08x)", N,
             nan_bits);
  return bad ? LAB_FAIL : LAB_PASS;
}

static lab_status run_store16(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                              size_t size) {
  enum { N = 4096 };
  const int dt = def->param;
  static float in[N], back[N], tf32_out[N];
  static uint16_t out[N];
  size_t count = rounding_inputs(in, N);
  (void)count;
  cl_int err;
  cl_program program = NULL;
  clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL);
  cl_kernel load = clCreateKernel(program, "probe_load", &err);
  cl_kernel tf32 = err == CL_SUCCESS ? clCreateKernel(program, "probe_tf32", &err) : NULL;
  cl_mem mem[2] = {buffer_poisoned(env, sizeof out), buffer_with(env, in, sizeof in)};
  cl_mem back_mem[2] = {buffer_poisoned(env, sizeof back), mem[0]};
  cl_mem tf32_mem[2] = {buffer_poisoned(env, sizeof tf32_out), mem[1]};
  if (err == CL_SUCCESS) err = launch(env, kernel, mem, 2, N, 0);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, sizeof out);
  if (err == CL_SUCCESS) err = launch(env, load, back_mem, 2, N, 0);
  if (err == CL_SUCCESS) err = read_back(env, back_mem[0], back, sizeof back);
  if (err == CL_SUCCESS) err = launch(env, tf32, tf32_mem, 2, N, 0);
  if (err == CL_SUCCESS) err = read_back(env, tf32_mem[0], tf32_out, sizeof tf32_out);
  release_all(mem, 2);
  release_all(back_mem, 1);
  release_all(tf32_mem, 1);
  if (load) clReleaseKernel(load);
  if (tf32) clReleaseKernel(tf32);
  if (err != CL_SUCCESS) return driver_error(err, "run", detail, size);
  int bad = 0;
  for (int i = 0; i < N && !bad; i++) {
    const uint16_t want = dt == 1 ? lab_f32_to_f16(in[i]) : lab_f32_to_bf16(in[i]);
    const float want_back = dt == 1 ? lab_f16_to_f32(out[i]) : lab_bf16_to_f32(out[i]);
    const float want_tf32 = lab_tf32_rna(in[i]);
    if (isnan(in[i]) ? !(dt == 1 ? (out[i] & 0x7c00u) == 0x7c00u && (out[i] & 0x3ffu)
                                 : (out[i] & 0x7f80u) == 0x7f80u && (out[i] & 0x7fu))
                     : out[i] != want) {
      snprintf(detail, size, "store 0x%08x -> 0x%04x, emulation 0x%04x", lab_f32_bits(in[i]),
               out[i], want);
      bad++;
    } else if (isnan(want_back) ? !isnan(back[i])
                                : lab_f32_bits(back[i]) != lab_f32_bits(want_back)) {
      snprintf(detail, size, "load 0x%04x -> %g, emulation %g", out[i], back[i], want_back);
      bad++;
    } else if (isnan(want_tf32) ? !isnan(tf32_out[i])
                                : lab_f32_bits(tf32_out[i]) != lab_f32_bits(want_tf32)) {
      snprintf(detail, size, "ocf_round_tf32 0x%08x -> 0x%08x, emulation 0x%08x",
               lab_f32_bits(in[i]), lab_f32_bits(tf32_out[i]), lab_f32_bits(want_tf32));
      bad++;
    }
  }
  if (!bad) snprintf(detail, size, "%d values: store, load and ocf_round_tf32 bit-exact", N);
  return bad ? LAB_FAIL : LAB_PASS;
}

static lab_status run_local_mem(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                                size_t size) {
  cl_ulong kernel_local = 0;
  clGetKernelWorkGroupInfo(kernel, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                           &kernel_local, NULL);
  uint32_t out[256];
  cl_mem mem[1] = {buffer_poisoned(env, sizeof out)};
  cl_int err = launch(env, kernel, mem, 1, 256, 256);
  if (err == CL_SUCCESS) err = read_back(env, mem[0], out, sizeof out);
  release_all(mem, 1);
  if (err != CL_SUCCESS) {
    snprintf(detail, size, "%d bytes declared (kernel local memory %lu): run: %s", def->param,
             (unsigned long)kernel_local, lab_cl_error(err));
    return LAB_ERROR;
  }
  const uint32_t slots = (uint32_t)def->param / 16;
  for (uint32_t l = 0; l < 256; l++)
    if (out[l] != (l * 17) % slots + 1) {
      snprintf(detail, size, "%d bytes: out[%u] = %u, want %u", def->param, l, out[l],
               (l * 17) % slots + 1);
      return LAB_FAIL;
    }
  snprintf(detail, size, "%d bytes declared (kernel local memory %lu): built, launched, right",
           def->param, (unsigned long)kernel_local);
  return LAB_PASS;
}

/* Copies text into out, replacing the first `from` by `to` (0 if `from` is not there). */
static int replace_once(const char *text, const char *from, const char *to, char *out,
                        size_t size) {
  const char *at = strstr(text, from);
  if (!at) return 0;
  snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return 1;
}

/* The probe's PTX for sm_90a: `.target sm_90` (perhaps followed by ", texmode_independent")
   becomes sm_90a, the marker comment becomes wgmma.fence, and a .version below 8.0 becomes 8.0
   (wgmma's). `step` is scratch of the same room. Returns 0 when the text is not such PTX. */
static int retarget_ptx(const char *ptx, char *step, char *out, size_t room, char *version,
                        size_t version_size) {
  snprintf(version, version_size, "?");
  const char *v = strstr(ptx, ".version ");
  char from[32];
  if (v && sscanf(v, ".version %15s", version) == 1)
    snprintf(from, sizeof from, ".version %s", version);
  if (!strstr(ptx, ".target sm_") ||
      !replace_once(ptx, "// OCF_SM90A_MARK", "wgmma.fence.sync.aligned;", step, room))
    return 0;
  const char *target = strstr(step, ".target sm_") + strlen(".target sm_");
  const size_t digits = strspn(target, "0123456789");
  snprintf(out, room, "%.*sa%s", (int)(target + digits - step), step,
           target[digits] == 'a' ? target + digits + 1 : target + digits);
  if (v && atof(version) < 8.0 && replace_once(out, from, ".version 8.0", step, room))
    snprintf(out, room, "%s", step);
  return 1;
}

/* The probe's own PTX, retargeted to sm_90a with wgmma.fence in it, loaded as a binary. */
static lab_status run_sm90a(lab_env *env, cl_kernel kernel, const probe_def *def, char *detail,
                            size_t size) {
  cl_program program = NULL;
  size_t bytes = 0;
  clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL);
  clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, NULL);
  const size_t room = bytes + 256;
  char *ptx = calloc(1, room), *step = calloc(1, room), *edited = calloc(1, room);
  unsigned char *bins[1] = {(unsigned char *)ptx};
  lab_status status = LAB_INFO;
  char version[16] = "?";
  if (!ptx || !step || !edited || !bytes ||
      clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
    snprintf(detail, size, "no binary of the source build");
    goto done;
  }
  if (!retarget_ptx(ptx, step, edited, room, version, sizeof version)) {
    snprintf(detail, size, "not PTX with the marker (PTX .version %s): nothing to try", version);
    goto done;
  }
  const size_t length = strlen(edited) + 1; /* as the driver gave it: with the NUL */
  const unsigned char *image[1] = {(const unsigned char *)edited};
  cl_int err, bin_status = CL_SUCCESS;
  cl_program retargeted =
      clCreateProgramWithBinary(env->context, 1, &env->device, &length, image, &bin_status, &err);
  if (err == CL_SUCCESS) err = bin_status;
  if (err == CL_SUCCESS) err = clBuildProgram(retargeted, 1, &env->device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[2048] = "";
    if (retargeted)
      clGetProgramBuildInfo(retargeted, env->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
                            NULL);
    lab_log_block("sm_90a PTX build log", log);
    for (char *c = log; *c; c++)
      if (*c == '\n') *c = ' ';
    snprintf(detail, size, "sm_90a PTX (from .version %s) refused: %s: %.100s", version,
             lab_cl_error(err), log);
    status = LAB_BUILD;
  } else {
    cl_kernel k = clCreateKernel(retargeted, "probe", &err);
    status = err == CL_SUCCESS ? run_add7(env, k, def, detail, size)
                               : driver_error(err, "clCreateKernel", detail, size);
    if (k) clReleaseKernel(k);
    if (status == LAB_PASS)
      snprintf(detail, size,
               "PTX retargeted to sm_90a with wgmma.fence (from .version %s): "
               "built from the binary and ran right",
               version);
  }
  if (retargeted) clReleaseProgram(retargeted);
done:
  free(ptx), free(step), free(edited);
  return status;
}

/* In run order: the ones the GEMM's build depends on first. Each probe that could fault (a PTX
   address of local memory) has a process of its own; the others, which cannot, share one with
   the neighbours of their group; the tail runs at the very end (it is expected to fault). */
enum { PROBE_TAIL = -1, PROBE_OWN = 0, GROUP_BUILD, GROUP_MMA, GROUP_NUMERICS, GROUP_LOCAL };
#define MMA(dt, data) ((dt) | ((data) << 8))
#define LOCAL_MEM(bytes)                                                                           \
  {                                                                                                \
    "local memory " #bytes " bytes", "local_mem.cl", 0, "-DBYTES=" #bytes, "probe", run_local_mem, \
        bytes, GROUP_LOCAL                                                                         \
  }
static const probe_def probes[] = {
    {"asm_keyword __asm__", "asm_keyword.cl", 0, "-DKW=__asm__", "probe", run_add7, 0, GROUP_BUILD},
    {"asm_keyword asm", "asm_keyword.cl", 0, "-DKW=asm", "probe", run_add7, 0, GROUP_BUILD},
    {"inline helpers: static inline always_inline", "inline.cl", 0, "-DFORM=0", "probe", run_add7,
     0, GROUP_BUILD},
    {"inline helpers: always_inline alone", "inline.cl", 0, "-DFORM=1", "probe", run_add7, 1,
     GROUP_BUILD},
    {"inline helpers: plain functions", "inline.cl", 0, "-DFORM=2", "probe", run_add7, 2,
     GROUP_BUILD},
    {"local_addr 0 (u32 value, \"r\")", "local_addr.cl", 0, "-DMODE=0", "probe", run_local_addr, 0,
     PROBE_OWN},
    {"local_addr 1 (cvta.to.shared)", "local_addr.cl", 0, "-DMODE=1", "probe", run_local_addr, 1,
     PROBE_OWN},
    {"local_addr 2 (u64 value, \"l\")", "local_addr.cl", 0, "-DMODE=2", "probe", run_local_addr, 2,
     PROBE_OWN},
    {"local_addr 3 (__local argument)", "local_addr.cl", 0, "-DMODE=3", "probe", run_local_addr, 3,
     PROBE_OWN},
    {"cp.async 16 laddr0 gaddr0", "cp_async.cl", 0, "-DSIZE=16 -DLADDR=0 -DGADDR=0", "probe",
     run_cp_async, 16, PROBE_OWN},
    {"cp.async 16 laddr0 gaddr1", "cp_async.cl", 0, "-DSIZE=16 -DLADDR=0 -DGADDR=1", "probe",
     run_cp_async, 16, PROBE_OWN},
    {"cp.async 16 laddr1 gaddr0", "cp_async.cl", 0, "-DSIZE=16 -DLADDR=1 -DGADDR=0", "probe",
     run_cp_async, 16, PROBE_OWN},
    {"cp.async 4 laddr0 gaddr0", "cp_async.cl", 0, "-DSIZE=4 -DLADDR=0 -DGADDR=0", "probe",
     run_cp_async, 4, PROBE_OWN},
    {"ldmatrix x4 laddr0", "ldmatrix.cl", 0, "-DTRANS=0 -DLADDR=0", "probe", run_ldmatrix, 0,
     PROBE_OWN},
    {"ldmatrix x4.trans laddr0", "ldmatrix.cl", 0, "-DTRANS=1 -DLADDR=0", "probe", run_ldmatrix, 1,
     PROBE_OWN},
    {"ldmatrix x4 laddr1", "ldmatrix.cl", 0, "-DTRANS=0 -DLADDR=1", "probe", run_ldmatrix, 0,
     PROBE_OWN},
    {"mma m16n8k8 tf32 exact", "mma.cl", 0, "-DDT=0 -DCVT=0", "probe", run_mma, MMA(0, MMA_EXACT),
     GROUP_MMA},
    {"mma m16n8k16 f16 exact", "mma.cl", 0, "-DDT=1 -DCVT=0", "probe", run_mma, MMA(1, MMA_EXACT),
     GROUP_MMA},
    {"mma m16n8k16 bf16 exact", "mma.cl", 0, "-DDT=2 -DCVT=0", "probe", run_mma, MMA(2, MMA_EXACT),
     GROUP_MMA},
    {"mma tf32 random + cvt.rna", "mma.cl", 0, "-DDT=0 -DCVT=1", "probe", run_mma, MMA(0, MMA_CVT),
     GROUP_MMA},
    {"mma tf32 raw fp32 (low bits)", "mma.cl", 0, "-DDT=0 -DCVT=0", "probe", run_mma,
     MMA(0, MMA_RAW), GROUP_MMA},
    {"mma tf32 accumulation rounding", "mma.cl", 0, "-DDT=0 -DCVT=0", "probe", run_mma,
     MMA(0, MMA_ROUNDING), GROUP_MMA},
    {"cvt.rna.tf32.f32", "cvt_tf32.cl", 0, "", "probe", run_cvt_tf32, 0, GROUP_NUMERICS},
    {"common.cl f16 store/load, tf32", "store16.cl", 1, "-DDT=1", "probe", run_store16, 1,
     GROUP_NUMERICS},
    {"common.cl bf16 store/load, tf32", "store16.cl", 1, "-DDT=2", "probe", run_store16, 2,
     GROUP_NUMERICS},
    {"sm_90a PTX as a binary: wgmma.fence", "sm90a.cl", 0, "", "probe", run_sm90a, 0,
     GROUP_NUMERICS},
    /* static local memory: the GEMM's stages take 32 to 72 KiB; NVIDIA's compiler adds 4 bytes
       of its own (16 with a 16-byte aligned array), so 48 KiB declared is 49168 used */
    LOCAL_MEM(40960),
    LOCAL_MEM(49152),
    LOCAL_MEM(49168),
    LOCAL_MEM(65536),
    LOCAL_MEM(98304),
    LOCAL_MEM(131072),
    LOCAL_MEM(200704),
    {"cp.async 16 misaligned by 4 (expect FAULT)", "cp_async.cl", 0,
     "-DSIZE=16 -DLADDR=0 -DGADDR=0 -DMISALIGN=4", "probe", run_cp_async, 16 | CP_MISALIGNED,
     PROBE_TAIL},
};
#define PROBE_COUNT (sizeof probes / sizeof probes[0])

size_t lab_probe_count(void) {
  return PROBE_COUNT;
}

const char *lab_probe_name(size_t i) {
  return probes[i].name;
}

int lab_probe_group(size_t i) {
  return probes[i].group;
}

int lab_probe_local_bytes(size_t i) {
  return probes[i].run == run_local_mem ? probes[i].param : 0;
}

void lab_probe_spec(size_t i, const lab_options *o, lab_program_spec *spec) {
  memset(spec, 0, sizeof *spec);
  snprintf(spec->id, sizeof spec->id, "probe_%02zu", i);
  snprintf(spec->name, sizeof spec->name, "%s", probes[i].name);
  int n = 0;
  if (probes[i].with_common)
    snprintf(spec->paths[n++], sizeof spec->paths[0], "%s/cl/common.cl", o->root);
  snprintf(spec->paths[n], sizeof spec->paths[0], "%s/tools/lab/mma/probes/%s", o->root,
           probes[i].file);
  snprintf(spec->options, sizeof spec->options, "-cl-std=CL1.2 %s", probes[i].options);
  snprintf(spec->kernel, sizeof spec->kernel, "%s", probes[i].kernel);
  if (probes[i].run == run_store16)
    snprintf(spec->extra_kernels, sizeof spec->extra_kernels, "probe_load,probe_tf32");
}

void lab_probe_run(lab_env *env, const lab_options *o, size_t i, lab_row *row) {
  lab_row_init(row, "probe", probes[i].name, "");
  lab_program_spec spec;
  lab_probe_spec(i, o, &spec);
  lab_program prog;
  if (!lab_program_get(env, &spec, o->work, &prog)) {
    row->status = LAB_BUILD;
    snprintf(row->detail, sizeof row->detail, "%s: %.150s", lab_cl_error(prog.status), prog.error);
    lab_program_release(&prog);
    return;
  }
  row->regs = prog.regs;
  row->spill = prog.spill;
  cl_int err;
  cl_kernel kernel = clCreateKernel(prog.program, probes[i].kernel, &err);
  if (err != CL_SUCCESS) {
    row->status = driver_error(err, "clCreateKernel", row->detail, sizeof row->detail);
  } else {
    row->status = probes[i].run(env, kernel, &probes[i], row->detail, sizeof row->detail);
    clReleaseKernel(kernel);
  }
  if (row->status == LAB_ERROR && !lab_env_alive(env)) row->status = LAB_FAULT;
  lab_program_release(&prog);
}

static const lab_row *find_row(const lab_row *rows, size_t count, const char *name) {
  for (size_t i = 0; i < count; i++)
    if (strcmp(rows[i].section, "probe") == 0 && strcmp(rows[i].name, name) == 0) return &rows[i];
  return NULL;
}

static int passed(const lab_row *rows, size_t count, const char *name) {
  const lab_row *row = find_row(rows, count, name);
  return row && row->status == LAB_PASS;
}

void lab_probe_choose(const lab_row *rows, size_t count, lab_probe_choice *choice) {
  choice->asm_ok = passed(rows, count, "asm_keyword __asm__") ? 1
                   : passed(rows, count, "asm_keyword asm")   ? 2
                                                              : 0;
  if (passed(rows, count, "inline helpers: static inline always_inline"))
    choice->inline_form = 0;
  else if (passed(rows, count, "inline helpers: always_inline alone"))
    choice->inline_form = 1;
  else
    choice->inline_form = 2;
  choice->laddr = passed(rows, count, "local_addr 0 (u32 value, \"r\")") &&
                          passed(rows, count, "cp.async 16 laddr0 gaddr0")
                      ? 0
                  : passed(rows, count, "local_addr 1 (cvta.to.shared)") &&
                          passed(rows, count, "cp.async 16 laddr1 gaddr0")
                      ? 1
                      : -1;
  choice->gaddr = passed(rows, count, "cp.async 16 laddr0 gaddr0")   ? 0
                  : passed(rows, count, "cp.async 16 laddr0 gaddr1") ? 1
                                                                     : -1;
}
