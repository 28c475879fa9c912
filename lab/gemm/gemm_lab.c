/*
 * gemm_lab: times liboclfuse's GEMM kernels and their tunable settings on the shapes of the GEMM
 * issue, beside CLBlast (untuned and, on NVIDIA, with its H200-tuned Xgemm parameters), and
 * writes one CSV line per measurement for lab/gemm/peers.py to run the same shapes through
 * PyTorch. Run by lab/gemm/run.sh; see lab/gemm/README.md.
 *
 * It links the static library and reads its internals (src/): it overrides the context's
 * resolved tuning values to try tile sets, split and skinny settings without a rebuild, and asks
 * the planner which kernel each call takes, so every row names the kernel that ran. Timing and
 * the ceiling kernels are the `oclfuse bench` ones (bench/timing.c, bench/ceiling.c): device
 * time of back-to-back calls behind a gate kernel, medians. Every variant's output is checked on
 * sampled elements against tests/reference_gemm (with its tolerance) before it is timed.
 *
 *   gemm_lab [--device SPEC] [--groups LIST] [--budget SECONDS] [--repeat N] [--csv FILE]
 *            [--small] [--ptxas]
 *
 * --small shrinks every shape (for a quick run on a CPU); --ptxas builds the main kernels once
 * more with NVIDIA's -cl-nv-verbose and prints their register and spill lines.
 */
#include "fill.h"
#include "plan/plan.h"
#include "reference_gemm.h"
#include "runtime/context.h"
#include "runtime/sources.h"
#include "tool.h"
#include "tuning/shape_class.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef OCF_HAVE_CLBLAST
#include <clblast_c.h>
#endif

/* ---- what is measured ---- */

enum {
  V_OCLFUSE = 1 << 0,         /* the library with its built-in tuning */
  V_CLBLAST = 1 << 1,         /* CLBlastSgemm / SgemmStridedBatched, untuned, then tuned */
  V_LOOP = 1 << 2,            /* a batch as a loop of single ocf_matmul calls */
  V_UNFUSED = 1 << 3,         /* the GEMM, then a separate bias-and-activation kernel */
  V_SWEEP_TILES = 1 << 4,     /* tile set 0 candidates */
  V_SWEEP_SKINNY = 1 << 5,    /* skinny kernel settings, and the tiled kernel instead */
  V_SWEEP_SPLIT = 1 << 6,     /* split-K settings */
  V_SWEEP_PRECISION = 1 << 7, /* TF32, 3XTF32 and 16-bit inputs on the SIMT kernels */
  V_SWEEP_CHECKS = 1 << 8     /* the shape's own list of overrides (checks of a change) */
};

/* A tuning override to try, with a short label for the table. */
typedef struct candidate {
  const char *label;
  const char *values; /* "name=value ..." over the built-in matmul row */
} candidate;

/* Tile set 0 candidates (the rest of the built-in row stays): MWG x NWG tile as MDIMC x NDIMC
   work-items of MWI x NWI, K slices of KWG; 2-wide local reads and the 128-register cap of the
   built-in H200 row unless a label says otherwise. */
static const candidate tile_candidates[] = {
    {"tiles 16x16 of 8x8 k16", "set0.kwg=16"},
    {"tiles 8x16 of 16x8 k8", "set0.mdimc=8 set0.ndimc=16 set0.mwi=16 set0.nwi=8"},
    {"tiles 16x8 of 8x16 k8", "set0.mdimc=16 set0.ndimc=8 set0.mwi=8 set0.nwi=16"},
    {"tiles 16x16 of 4x8 k16", "set0.mwi=4 set0.kwg=16"},
    {"tiles 16x16 of 16x8 no cap", "set0.mwi=16 max_regs=0"},
};

/* Checks of the second lab run's findings, run first (see README.md). */
static const candidate square_checks[] = {
    {"old built-in: vw4 pad4 no cap", "set0.vwm=4 set0.vwn=4 max_regs=0"},
    {"vw4 pad4 cap128", "set0.vwm=4 set0.vwn=4"},
    {"vw2 no cap", "max_regs=0"},
    {"vw4 pad0 cap128", "set0.vwm=4 set0.vwn=4 set0.pada=0 set0.padb=0"},
    {"vw2 k16 cap128", "set0.kwg=16"},
    {"vw4 k16 cap128", "set0.vwm=4 set0.vwn=4 set0.kwg=16"},
    {"8x16 of 8x8 vw2 cap128", "set0.mdimc=8"},
};
static const candidate square_checks_8192[] = {
    {"old built-in: vw4 pad4 no cap", "set0.vwm=4 set0.vwn=4 max_regs=0"},
    {"vw4 pad4 cap128", "set0.vwm=4 set0.vwn=4"},
};
static const candidate skinny_n1_checks[] = {
    {"old row lanes (32/64)", "sk_rl_k=32 sk_rl_r=64"},
    {"skinny unroll 4", "sk_unroll=4"},
};
static const candidate skinny_wide_checks[] = {
    {"narrow path (sk_wide_min=0)", "sk_wide_min=0"},
    {"wide rl 64", "sk_rl_w=64"},
    {"wide no cap", "max_regs=0"},
    {"wide wg 128", "sk_wg=128"},
};
static const candidate skinny_n4_checks[] = {
    {"wide from 4", "sk_wide_min=4"},
    {"wide from 4 rl 64", "sk_wide_min=4 sk_rl_w=64"},
};
static const candidate batched32_checks[] = {
    {"set2 k32", "set2.kwg=32"},
    {"set2 k8", "set2.kwg=8"},
    {"set2 16x16 of 2x2",
     "set2.mdimc=16 set2.ndimc=16 set2.mwi=2 set2.nwi=2 set2.vwm=2 set2.vwn=2"},
    {"set2 pad0", "set2.pada=0 set2.padb=0"},
};

static const candidate skinny_candidates[] = {
    {"tiled kernels (skinny_max=0)", "skinny_max=0"},
    {"skinny unroll 1", "sk_unroll=1"},
    {"skinny unroll 4", "sk_unroll=4"},
    {"skinny rows x2", "sk_rl_k=16 sk_rl_r=32"},
    {"skinny rows /2", "sk_rl_k=4 sk_rl_r=8"},
    {"skinny wg 128", "sk_wg=128"},
    {"skinny k lanes 1 (wg 256 rl 256)", "sk_wg=256 sk_rl_k=256 sk_rl_r=256"},
    {"skinny fill 8 split 256", "sk_fill=8 sk_split_min=256"},
    {"skinny fill 2", "sk_fill=2"},
};

static const candidate split_candidates[] = {
    {"no split", "split_k_min=0"},
    {"split_k_min 512", "split_k_min=512"},
    {"split fill 4", "split_fill=4"},
};

typedef struct lab_shape {
  const char *group;
  size_t m, n, k, batch;
  int ta, tb;
  size_t pad; /* added to each leading dimension: 1 gives lda = k + 1 ... (unaligned) */
  ocf_activation act;
  ocf_bias_axis bias;
  unsigned variants;
  int first;               /* measured before everything else, its sweeps too */
  const candidate *checks; /* V_SWEEP_CHECKS: the overrides tried */
  size_t check_count;
} lab_shape;

/* SHAPE(group, m, n, k, batch, ta, tb, pad, act, bias, variants); FIRST(checks, the same) for
   the shapes measured first, with their own overrides. */
#define SHAPE(...) \
  { __VA_ARGS__, 0, NULL, 0 }
#define FIRST(checks, ...) \
  { __VA_ARGS__ | V_SWEEP_CHECKS, 1, checks, OCF_ARRAY_LEN(checks) }
#define FIRST_PLAIN(...) \
  { __VA_ARGS__, 1, NULL, 0 }
#define NONE OCF_ACTIVATION_NONE, OCF_BIAS_NONE
#define BASE (V_OCLFUSE | V_CLBLAST)

static const lab_shape shapes[] = {
    /* ---- first: the checks of the second lab run's findings ---- */
    /* square fp32 (the padded 4-wide set at 129 registers: 36 TFLOP/s; 2-wide 46.5) */
    FIRST(square_checks, "square", 4096, 4096, 4096, 1, 0, 0, 0, NONE, BASE),
    FIRST(square_checks_8192, "square", 8192, 8192, 8192, 1, 0, 0, 0, NONE, BASE),
    /* ragged: within 10 % of the aligned neighbour */
    FIRST_PLAIN("ragged", 4096, 4096, 1024, 1, 0, 0, 0, NONE, BASE),
    FIRST_PLAIN("ragged", 4097, 4095, 1023, 1, 0, 0, 0, NONE, BASE),
    FIRST_PLAIN("ragged", 4098, 4096, 1024, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("ragged", 4096, 4096, 4096, 1, 0, 0, 1, NONE, V_OCLFUSE),
    FIRST_PLAIN("ragged", 4100, 4100, 4100, 1, 0, 0, 0, NONE, V_OCLFUSE),
    /* skinny, GB/s of the large operand against the copy ceiling: n small (k-contiguous NN,
       row-contiguous TN) and m small (swapped: B's rows contiguous NN, k-contiguous NT) */
    FIRST(skinny_n1_checks, "skinny", 8192, 1, 8192, 1, 0, 0, 0, NONE, BASE),
    FIRST(skinny_n1_checks, "skinny", 8192, 1, 8192, 1, 1, 0, 0, NONE, BASE),
    FIRST_PLAIN("skinny", 8192, 2, 8192, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST(skinny_n4_checks, "skinny", 8192, 4, 8192, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST(skinny_wide_checks, "skinny", 8192, 8, 8192, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST(skinny_wide_checks, "skinny", 8192, 16, 8192, 1, 0, 0, 0, NONE, BASE),
    FIRST(skinny_wide_checks, "skinny", 8192, 16, 8192, 1, 1, 0, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("skinny", 8192, 8, 8192, 1, 1, 0, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("skinny", 1, 8192, 8192, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("skinny", 1, 8192, 8192, 1, 0, 1, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("skinny", 4, 8192, 8192, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("skinny", 16, 8192, 8192, 1, 0, 0, 0, NONE, V_OCLFUSE),
    FIRST_PLAIN("skinny", 16, 8192, 8192, 1, 0, 1, 0, NONE, V_OCLFUSE),
    /* precision on the SIMT kernels: 3XTF32 split once into local memory, two FMAs a product */
    FIRST_PLAIN("precision", 4096, 4096, 4096, 1, 0, 0, 0, NONE, V_SWEEP_PRECISION),
    /* batched 32^3: 1.4x CLBlast's batched routine, the goal 1.5x */
    FIRST(batched32_checks, "batched", 32, 32, 32, 4096, 0, 0, 0, NONE, BASE),
    /* large k: K splits rounded down to one wave (4 of 1024^2 x 16384, 5 before) */
    FIRST_PLAIN("large-k", 1024, 1024, 16384, 1, 0, 0, 0, NONE, V_OCLFUSE | V_SWEEP_SPLIT),

    /* ---- then the rest of the shapes ---- */
    SHAPE("square", 4096, 4096, 4096, 1, 1, 1, 0, NONE, BASE),
    SHAPE("square", 2048, 2048, 2048, 1, 0, 0, 0, NONE, BASE),
    SHAPE("square", 4096, 4096, 4096, 1, 0, 0, 0, NONE, V_SWEEP_TILES),
    SHAPE("ragged", 4095, 4095, 4095, 1, 0, 0, 0, NONE, BASE),
    SHAPE("skinny", 1024, 1, 65536, 1, 0, 0, 0, NONE, BASE),
    SHAPE("skinny", 8192, 1, 8192, 1, 0, 0, 1, NONE, V_OCLFUSE),
    SHAPE("skinny", 8192, 1, 8192, 1, 0, 0, 0, NONE, V_SWEEP_SKINNY),
    SHAPE("skinny", 8192, 16, 8192, 1, 0, 0, 0, NONE, V_SWEEP_SKINNY),
    /* small k and large k: against the square rate for the same flops */
    SHAPE("small-k", 8192, 8192, 16, 1, 0, 0, 0, NONE, BASE),
    SHAPE("small-k", 8192, 8192, 64, 1, 0, 0, 0, NONE, BASE),
    SHAPE("small-k", 4096, 4096, 64, 1, 0, 0, 0, NONE, BASE),
    SHAPE("large-k", 2048, 2048, 16384, 1, 0, 0, 0, NONE, BASE | V_SWEEP_SPLIT),
    SHAPE("large-k", 512, 512, 65536, 1, 0, 0, 0, NONE, BASE | V_SWEEP_SPLIT),
    SHAPE("large-k", 1024, 1024, 1024, 1, 0, 0, 0, NONE, V_OCLFUSE | V_SWEEP_SPLIT),
    /* batched: 1.5x CLBlastSgemmStridedBatched on small matrices, the single-call rate on
       large ones */
    SHAPE("batched", 16, 16, 16, 4096, 0, 0, 0, NONE, BASE),
    SHAPE("batched", 64, 64, 64, 1024, 0, 0, 0, NONE, BASE | V_LOOP),
    SHAPE("batched", 128, 128, 128, 256, 0, 0, 0, NONE, BASE),
    SHAPE("batched", 256, 256, 256, 64, 0, 0, 0, NONE, BASE),
    SHAPE("batched", 100, 100, 100, 512, 0, 0, 0, NONE, BASE),
    SHAPE("batched", 1024, 1024, 1024, 16, 0, 0, 0, NONE, BASE | V_LOOP),
    /* epilogue: fused against the GEMM plus a separate bias-and-activation kernel */
    SHAPE("epilogue", 4096, 4096, 1024, 1, 0, 0, 0, OCF_ACTIVATION_GELU_ERF, OCF_BIAS_N,
          V_OCLFUSE | V_UNFUSED),
    SHAPE("epilogue", 8192, 8192, 256, 1, 0, 0, 0, OCF_ACTIVATION_SILU, OCF_BIAS_M,
          V_OCLFUSE | V_UNFUSED),
};

/* ---- one problem's buffers ---- */

typedef struct lab_problem {
  ocf_context *ctx;
  size_t m, n, k, batch, lda, ldb, ldc;
  size_t a_len, b_len, c_len, stride_a, stride_b, stride_c; /* elements */
  int ta, tb;
  ocf_dtype ab_dtype;
  ocf_precision precision;
  ocf_activation act;
  ocf_bias_axis bias_axis;
  float *ha, *hb, *hbias; /* decoded host values */
  cl_mem a, b, c, bias, a16, b16;
  cl_kernel unfused; /* the separate bias-and-activation kernel */
  /* the call being measured */
  int use_clblast, loop, separate;
  int on_matrix_units; /* the plan runs cl/matmul_mma_nv.cl: its truncating sum's tolerance */
} lab_problem;

static cl_program unfused_program;

/* The separate epilogue: C[i][j] = act(C[i][j] + bias) in place, the traffic a fused epilogue
   saves; with cl/common.cl's ocf_activate, so the arithmetic is the same. */
static const char unfused_source[] =
    "__kernel void lab_bias_act(__global float *c, const ulong ldc, const ulong n,\n"
    "                           __global const float *bias, const int axis, const int act) {\n"
    "  const ulong j = get_global_id(0), i = get_global_id(1);\n"
    "  if (j >= n) return;\n"
    "  __global float *e = c + i * ldc + j;\n"
    "  *e = ocf_activate(*e + bias[axis == 1 ? j : i], act);\n"
    "}\n";

static size_t extent(size_t rows, size_t cols, size_t ld) {
  return rows && cols ? (rows - 1) * ld + cols : 0;
}

static void problem_free(lab_problem *p) {
  cl_mem mems[6] = {p->a, p->b, p->c, p->bias, p->a16, p->b16};
  for (int i = 0; i < 6; i++)
    if (mems[i]) clReleaseMemObject(mems[i]);
  if (p->unfused) clReleaseKernel(p->unfused);
  free(p->ha), free(p->hb), free(p->hbias);
  memset(p, 0, sizeof *p);
}

static cl_mem buffer_bytes(ocf_context *ctx, size_t bytes, const void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem mem =
      clCreateBuffer(ocf_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
  if (err == CL_SUCCESS && host && bytes)
    err = clEnqueueWriteBuffer(ocf_context_queue(ctx), mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "gemm_lab: buffer of %zu bytes: %s\n", bytes, ocf_status_name((ocf_status)err));
    if (mem) clReleaseMemObject(mem);
    return NULL;
  }
  return mem;
}

/* fp32 host data, its bf16 copy for the 16-bit runs (decoded values are the ones compared). */
static int problem_setup(ocf_context *ctx, const lab_shape *s, size_t scale_down, lab_problem *p) {
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  p->m = s->m > 1 ? s->m / scale_down + (s->m % 2) : 1;
  p->n = s->n > 1 ? s->n / scale_down + (s->n % 2) : 1;
  p->k = s->k / scale_down + (s->k % 2);
  if (p->m == 0) p->m = 1;
  if (p->n == 0) p->n = 1;
  p->batch = s->batch;
  p->ta = s->ta, p->tb = s->tb;
  p->lda = (s->ta ? p->m : p->k) + s->pad;
  p->ldb = (s->tb ? p->k : p->n) + s->pad;
  p->ldc = p->n + s->pad;
  const size_t ae = extent(s->ta ? p->k : p->m, s->ta ? p->m : p->k, p->lda);
  const size_t be = extent(s->tb ? p->n : p->k, s->tb ? p->k : p->n, p->ldb);
  const size_t ce = extent(p->m, p->n, p->ldc);
  p->stride_a = p->batch > 1 ? ae : 0, p->stride_b = p->batch > 1 ? be : 0;
  p->stride_c = p->batch > 1 ? ce : 0;
  p->a_len = ae * p->batch, p->b_len = be * p->batch, p->c_len = ce * p->batch;
  p->act = s->act, p->bias_axis = s->bias;
  p->ha = tool_alloc_floats(p->a_len);
  p->hb = tool_alloc_floats(p->b_len);
  p->hbias = tool_alloc_floats(p->m > p->n ? p->m : p->n);
  if (!p->ha || !p->hb || !p->hbias) return -1;
  ocft_fill_uniform(p->ha, p->a_len, -1.0f, 1.0f, 5 + p->m);
  ocft_fill_uniform(p->hb, p->b_len, -1.0f, 1.0f, 7 + p->n);
  ocft_fill_uniform(p->hbias, p->m > p->n ? p->m : p->n, -1.0f, 1.0f, 9);
  p->a = buffer_bytes(ctx, p->a_len * 4, p->ha);
  p->b = p->a ? buffer_bytes(ctx, p->b_len * 4, p->hb) : NULL;
  p->c = p->b ? buffer_bytes(ctx, p->c_len * 4, NULL) : NULL;
  p->bias = p->c ? buffer_bytes(ctx, (p->m > p->n ? p->m : p->n) * 4, p->hbias) : NULL;
  return p->bias ? 0 : -1;
}

/* bf16 copies of A and B, and the host values replaced by their decoded bf16 values. */
static int problem_make_bf16(lab_problem *p) {
  if (p->a16) return 0;
  uint16_t *a = malloc(p->a_len * 2), *b = malloc(p->b_len * 2);
  if (!a || !b) {
    free(a), free(b);
    return -1;
  }
  for (size_t i = 0; i < p->a_len; i++) {
    a[i] = ocf_ref_bf16_from_float(p->ha[i]);
    p->ha[i] = ocf_ref_bf16_to_float(a[i]);
  }
  for (size_t i = 0; i < p->b_len; i++) {
    b[i] = ocf_ref_bf16_from_float(p->hb[i]);
    p->hb[i] = ocf_ref_bf16_to_float(b[i]);
  }
  p->a16 = buffer_bytes(p->ctx, p->a_len * 2, a);
  p->b16 = p->a16 ? buffer_bytes(p->ctx, p->b_len * 2, b) : NULL;
  free(a), free(b);
  return p->b16 ? 0 : -1;
}

static ocf_matmul_options problem_options(const lab_problem *p, int fused) {
  ocf_matmul_options o = OCF_MATMUL_OPTIONS_INIT;
  o.a_dtype = o.b_dtype = p->ab_dtype;
  o.precision = p->precision;
  o.batch = p->batch;
  o.stride_a = p->stride_a, o.stride_b = p->stride_b, o.stride_c = p->stride_c;
  if (fused) {
    o.activation = p->act;
    o.bias_axis = p->bias_axis;
    o.bias = p->bias_axis ? p->bias : NULL;
  }
  return o;
}

static int enqueue_unfused(lab_problem *p, cl_event *event, char *err, size_t errlen) {
  const cl_ulong ldc = p->ldc, n = p->n;
  const cl_int axis = (cl_int)p->bias_axis, act = (cl_int)p->act;
  cl_kernel kr = p->unfused;
  cl_int e = clSetKernelArg(kr, 0, sizeof p->c, &p->c);
  e = e ? e : clSetKernelArg(kr, 1, sizeof ldc, &ldc);
  e = e ? e : clSetKernelArg(kr, 2, sizeof n, &n);
  e = e ? e : clSetKernelArg(kr, 3, sizeof p->bias, &p->bias);
  e = e ? e : clSetKernelArg(kr, 4, sizeof axis, &axis);
  e = e ? e : clSetKernelArg(kr, 5, sizeof act, &act);
  size_t local[2] = {64, 1}, global[2] = {(p->n + 63) / 64 * 64, p->m};
  e = e ? e
        : clEnqueueNDRangeKernel(ocf_context_queue(p->ctx), kr, 2, NULL, global, local, 0, NULL,
                                 event);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "bias-and-activation kernel: %s", ocf_status_name((ocf_status)e));
    return TOOL_FAILED;
  }
  return 0;
}

static int enqueue(void *state, cl_event *event, char *err, size_t errlen) {
  lab_problem *p = state;
  const int bf16 = p->ab_dtype != OCF_F32;
  cl_mem a = bf16 ? p->a16 : p->a, b = bf16 ? p->b16 : p->b;
  if (p->use_clblast) {
#ifdef OCF_HAVE_CLBLAST
    cl_command_queue queue = ocf_context_queue(p->ctx);
    const CLBlastTranspose ta = p->ta ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = p->tb ? CLBlastTransposeYes : CLBlastTransposeNo;
    CLBlastStatusCode s =
        p->batch > 1
            ? CLBlastSgemmStridedBatched(CLBlastLayoutRowMajor, ta, tb, p->m, p->n, p->k, 1.0f, a,
                                         0, p->lda, p->stride_a, b, 0, p->ldb, p->stride_b, 0.0f,
                                         p->c, 0, p->ldc, p->stride_c, p->batch, &queue, event)
            : CLBlastSgemm(CLBlastLayoutRowMajor, ta, tb, p->m, p->n, p->k, 1.0f, a, 0, p->lda, b,
                           0, p->ldb, 0.0f, p->c, 0, p->ldc, &queue, event);
    if (s != CLBlastSuccess) {
      snprintf(err, errlen, "CLBlast returned %d", (int)s);
      return TOOL_FAILED;
    }
    return 0;
#else
    snprintf(err, errlen, "built without CLBlast");
    return TOOL_FAILED;
#endif
  }
  ocf_launch launch = OCF_LAUNCH_INIT;
  ocf_status status = OCF_SUCCESS;
  if (p->loop) {
    /* One call per product; only the last one's event is the call's. */
    ocf_matmul_options o = problem_options(p, 1);
    o.batch = 1;
    for (size_t i = 0; i < p->batch && status == OCF_SUCCESS; i++) {
      launch.event = i + 1 == p->batch ? event : NULL;
      status =
          ocf_matmul_ex(p->ctx, p->ta, p->tb, p->m, p->n, p->k, 1.0f, a, i * p->stride_a, p->lda, b,
                        i * p->stride_b, p->ldb, 0.0f, p->c, i * p->stride_c, p->ldc, &o, &launch);
    }
  } else {
    ocf_matmul_options o = problem_options(p, !p->separate);
    launch.event = p->separate ? NULL : event;
    status = ocf_matmul_ex(p->ctx, p->ta, p->tb, p->m, p->n, p->k, 1.0f, a, 0, p->lda, b, 0, p->ldb,
                           0.0f, p->c, 0, p->ldc, &o, &launch);
    if (status == OCF_SUCCESS && p->separate) return enqueue_unfused(p, event, err, errlen);
  }
  return status == OCF_SUCCESS ? 0 : tool_library_failure(status, "ocf_matmul_ex", err, errlen);
}

/* Sampled outputs against the reference: the corners and pseudo-random elements of the first
   and last products. */
static int verify(void *state, tool_verdict *v, char *err, size_t errlen) {
  lab_problem *p = state;
  memset(v, 0, sizeof *v);
  v->measure = "err/tol";
  v->tolerance = 1.0;
  uint64_t rng = 0x5eed + p->m + p->n * 3 + p->k * 7;
  const size_t samples = 48;
  const size_t products[2] = {0, p->batch - 1};
  for (int which = 0; which < (p->batch > 1 ? 2 : 1); which++) {
    const size_t bi = products[which];
    for (size_t s = 0; s < samples; s++) {
      size_t i = s == 1 || s == 3 ? p->m - 1 : s < 4 ? 0 : ocft_rng_next(&rng) % p->m;
      size_t j = s == 2 || s == 3 ? p->n - 1 : s < 4 ? 0 : ocft_rng_next(&rng) % p->n;
      float got = 0.0f;
      size_t at = bi * p->stride_c + i * p->ldc + j;
      cl_int e = clEnqueueReadBuffer(ocf_context_queue(p->ctx), p->c, CL_TRUE, at * 4, 4, &got, 0,
                                     NULL, NULL);
      if (e != CL_SUCCESS) {
        snprintf(err, errlen, "reading C: %s", ocf_status_name((ocf_status)e));
        return -1;
      }
      /* Element (i, j) alone: a 1 x 1 x k product of row i of op(A) and column j of op(B). */
      ocf_ref_gemm g;
      memset(&g, 0, sizeof g);
      g.trans_a = p->ta, g.trans_b = p->tb;
      g.m = g.n = 1, g.k = p->k;
      g.alpha = 1.0f;
      g.a = p->ha + bi * p->stride_a + (p->ta ? i : i * p->lda);
      g.b = p->hb + bi * p->stride_b + (p->tb ? j * p->ldb : j);
      g.lda = p->lda, g.ldb = p->ldb;
      g.precision = p->use_clblast ? 0 : p->precision;
      g.truncating_sum = !p->use_clblast && p->on_matrix_units;
      g.activation = p->act;
      g.bias_axis = p->bias_axis;
      g.bias = p->hbias + (p->bias_axis == OCF_BIAS_N ? j : i);
      double want, tol;
      ocf_ref_gemm_run(&g, 0, &want, &tol);
      double error = fabs((double)got - want) / (tol > 0.0 ? tol : 1e-30);
      if (isnan(error)) error = INFINITY;
      if (error > v->max_error || v->checked == 0) {
        v->max_error = error;
        v->worst = at;
      }
      v->checked++;
    }
  }
  v->pass = v->max_error <= 1.0;
  return 0;
}

/* ---- tuning overrides and plans ---- */

typedef struct lab_env {
  ocf_context *ctx;
  ocf_device_info info;
  tool_timer timer;
  tool_ceiling ceiling;
  int repeats, small, ptxas;
  double started, budget;
  FILE *csv;
  /* the context's resolved matmul values, per type and shape class */
  ocf_tuning_values builtin[OCF_DTYPE_COUNT][OCF_MAX_SHAPE_CLASSES];
} lab_env;

/* Applies "name=value ..." over the built-in matmul values of every type and shape class; 0 or
   -1. */
static int tuning_apply(lab_env *env, const char *text) {
  for (int d = 0; d < OCF_DTYPE_COUNT; d++)
    for (unsigned c = 0; c < ocf_shape_class_count(OCF_OP_MATMUL); c++) {
      ocf_tuning_values v = env->builtin[d][c];
      if (text && (ocf_tuning_parse(OCF_OP_MATMUL, text, &v, "lab override") != OCF_SUCCESS ||
                   ocf_tuning_check(OCF_OP_MATMUL, &v, "lab override") != OCF_SUCCESS)) {
        fprintf(stderr, "gemm_lab: %s\n", ocf_last_error());
        return -1;
      }
      env->ctx->tuning[OCF_OP_MATMUL][d][c] = v;
    }
  return 0;
}

/* The matmul values in force for a call of these sizes and input type, as ocf_matmul finds them. */
static void tuning_for(const lab_env *env, ocf_dtype dtype, size_t m, size_t n, size_t k,
                       ocf_tuning_values *out) {
  const ocf_shape shape = {{m, n, k}};
  ocf_context_tuning_for(env->ctx, OCF_OP_MATMUL, dtype, &shape, out);
}

/* The kernel(s) and main parameters the planner picks for the problem's call. */
static void describe_plan(const lab_env *env, const lab_problem *p, int fused, char *out,
                          size_t capacity) {
  ocf_matmul_call call;
  memset(&call, 0, sizeof call);
  call.trans_a = p->ta, call.trans_b = p->tb;
  call.m = p->m, call.n = p->n, call.k = p->k;
  call.lda = p->lda, call.ldb = p->ldb, call.ldc = p->ldc;
  call.a_dtype = call.b_dtype = p->ab_dtype;
  call.c_dtype = OCF_F32;
  call.batch = p->loop ? 1 : p->batch;
  call.stride_a = p->stride_a, call.stride_b = p->stride_b, call.stride_c = p->stride_c;
  call.precision = p->precision;
  if (fused) call.activation = p->act, call.bias_axis = p->bias_axis;
  ocf_device_facts facts;
  ocf_context_facts(env->ctx, &facts);
  ocf_plan plan;
  ocf_tuning_values tuning;
  tuning_for(env, p->ab_dtype, p->m, p->n, p->k, &tuning);
  if (ocf_plan_matmul(&facts, &tuning, &call, &plan) != OCF_SUCCESS) {
    snprintf(out, capacity, "(no plan: %s)", ocf_last_error());
    return;
  }
  size_t used = 0;
  for (unsigned s = 0; s < plan.step_count && used < capacity; s++) {
    const ocf_kernel_desc *desc = ocf_kernel_desc_get(plan.steps[s].kernel);
    int n =
        snprintf(out + used, capacity - used, "%s%s", s ? "+" : "", desc->name + strlen("matmul_"));
    used += n > 0 ? (size_t)n : 0;
  }
  const size_t left = used < capacity ? capacity - used : 0;
  if (plan.program == OCF_PROGRAM_MATMUL)
    snprintf(out + used, left, " %lldx%lld/%lld",
             ocf_plan_define_value(&plan, "MDIMC", 0) * ocf_plan_define_value(&plan, "MWI", 0),
             ocf_plan_define_value(&plan, "NDIMC", 0) * ocf_plan_define_value(&plan, "NWI", 0),
             ocf_plan_define_value(&plan, "KWG", 0));
  else
    snprintf(out + used, left, " wg%lld rl%lld u%lld", ocf_plan_define_value(&plan, "WG", 0),
             ocf_plan_define_value(&plan, "RL", 0), ocf_plan_define_value(&plan, "UNROLL", 0));
  if (plan.splits > 1) {
    size_t len = strlen(out);
    snprintf(out + len, capacity > len ? capacity - len : 0, " splits=%zu", plan.splits);
  }
}

/* ---- rows ---- */

typedef struct lab_row {
  tool_row row;
  char group[16], key[64], variant[96], plan[96];
  double tflops, gbps, percent; /* percent: of the FMA peak, or (skinny) of copy */
} lab_row;

static lab_row rows[512];
static size_t row_count;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A text field of the CSV, then `after`: quoted (quotes doubled) when it holds a comma, a quote
   or a line break, so that a plan or note with a comma keeps the columns in place (peers.py
   reads the file with Python's csv module). */
static void csv_text(FILE *f, const char *text, const char *after) {
  if (strpbrk(text, ",\"\n\r") == NULL) {
    fprintf(f, "%s%s", text, after);
    return;
  }
  fputc('"', f);
  for (const char *c = text; *c; c++) {
    if (*c == '"') fputc('"', f);
    fputc(*c, f);
  }
  fprintf(f, "\"%s", after);
}

static void measure(lab_env *env, const lab_shape *s, lab_problem *p, const char *variant,
                    const char *plan) {
  if (row_count == sizeof rows / sizeof rows[0]) return;
  lab_row *r = &rows[row_count++];
  memset(r, 0, sizeof *r);
  snprintf(r->group, sizeof r->group, "%s", s->group);
  snprintf(r->key, sizeof r->key, "%zux%zux%zu%s%s%s", p->m, p->n, p->k, p->ta ? " T" : " N",
           p->tb ? "T" : "N", s->pad ? " ld+1" : "");
  static const char *const acts[] = {"", " relu", " gelu", " gelu_tanh", " silu"};
  size_t len = strlen(r->key);
  if (p->batch > 1) len += (size_t)snprintf(r->key + len, sizeof r->key - len, " b%zu", p->batch);
  if (p->act && len < sizeof r->key)
    len += (size_t)snprintf(r->key + len, sizeof r->key - len, "%s", acts[p->act % 5]);
  if (p->bias_axis && len < sizeof r->key)
    snprintf(r->key + len, sizeof r->key - len, " +bias_%s",
             p->bias_axis == OCF_BIAS_N ? "n" : "m");
  snprintf(r->variant, sizeof r->variant, "%s", variant);
  snprintf(r->plan, sizeof r->plan, "%s", plan ? plan : "");
  r->row.status = ROW_SKIPPED;
  r->tflops = r->gbps = r->percent = NAN;
  if (now_seconds() - env->started > env->budget) {
    tool_row_note(&r->row, "over the time budget");
  } else if (tool_poison(env->ctx, p->c, p->c_len) == 0) {
    tool_progress(&env->timer, "%s %s %s", r->group, r->key, variant);
    tool_measure(&env->timer, enqueue, verify, p, env->repeats, &r->row);
  }
  if (r->row.status == ROW_OK) {
    double seconds = r->row.median_ms * 1e-3;
    double flops = 2.0 * (double)p->m * (double)p->n * (double)p->k * (double)p->batch;
    size_t rows_x = p->n <= 16 ? p->m : p->n; /* the large operand of a skinny product */
    double bytes = (double)rows_x * (double)p->k * (p->ab_dtype == OCF_F32 ? 4.0 : 2.0);
    r->tflops = flops / seconds * 1e-12;
    r->gbps = bytes * (double)p->batch / seconds * 1e-9;
    int skinny = !strcmp(s->group, "skinny");
    r->percent = skinny ? 100.0 * r->gbps / env->ceiling.copy_gbps
                        : 100.0 * r->tflops * 1e3 / env->ceiling.fma_gflops;
  }
  if (env->csv) {
    csv_text(env->csv, r->group, ",");
    csv_text(env->csv, r->key, ",");
    fprintf(env->csv, "%zu,%zu,%zu,%zu,%d,%d,%zu,%d,%d,", p->m, p->n, p->k, p->batch, p->ta, p->tb,
            s->pad, (int)p->act, (int)p->bias_axis);
    csv_text(env->csv, r->variant, ",");
    csv_text(env->csv, tool_row_status_name(r->row.status), ",");
    csv_text(env->csv, r->plan, ",");
    fprintf(env->csv, "%.6g,%.6g,%.6g,%.4g\n", r->row.median_ms, r->tflops, r->gbps, r->percent);
    fflush(env->csv);
  }
}

static void run_oclfuse(lab_env *env, const lab_shape *s, lab_problem *p, const char *variant,
                        const char *override) {
  if (tuning_apply(env, override)) return;
  char plan[96];
  describe_plan(env, p, !p->separate, plan, sizeof plan);
  p->on_matrix_units = strncmp(plan, "mma", 3) == 0;
  measure(env, s, p, variant, plan);
  p->on_matrix_units = 0;
  tuning_apply(env, NULL);
}

/* The phases of a run, so that a run cut short by its time budget loses the sweeps first:
   the library and CLBlast on every shape, then CLBlast with tuned parameters (which, once
   applied, last for the process), then the sweeps of the library's settings. */
typedef enum lab_phase { PHASE_BASE, PHASE_SWEEPS, PHASE_TUNED_CLBLAST } lab_phase;

static const unsigned sweeps =
    V_SWEEP_TILES | V_SWEEP_SKINNY | V_SWEEP_SPLIT | V_SWEEP_PRECISION | V_SWEEP_CHECKS;

static void run_shape(lab_env *env, const lab_shape *s, lab_phase phase) {
  if (now_seconds() - env->started > env->budget) {
    if (phase == PHASE_BASE)
      tool_progress(&env->timer, "%s %zux%zux%zu: over the time budget", s->group, s->m, s->n,
                    s->k);
    return;
  }
  if (phase == PHASE_SWEEPS && !(s->variants & sweeps)) return;
  if (phase == PHASE_BASE && !(s->variants & ~sweeps)) return;
  if (phase == PHASE_TUNED_CLBLAST && (!(s->variants & V_CLBLAST) || s->batch > 1)) return;
  lab_problem p;
  if (problem_setup(env->ctx, s, env->small ? 16 : 1, &p)) {
    fprintf(stderr, "gemm_lab: could not set up %s %zux%zux%zu\n", s->group, s->m, s->n, s->k);
    problem_free(&p);
    return;
  }
  if (phase == PHASE_TUNED_CLBLAST) {
    p.use_clblast = 1;
    measure(env, s, &p, "clblast-tuned", "CLBlast Xgemm, H200 parameters");
  } else if (phase == PHASE_BASE) {
    if (s->variants & V_OCLFUSE) run_oclfuse(env, s, &p, "oclfuse", NULL);
    if (s->variants & V_CLBLAST && tool_clblast_available()) {
      p.use_clblast = 1;
      measure(env, s, &p, "clblast", p.batch > 1 ? "SgemmStridedBatched" : "Sgemm");
      p.use_clblast = 0;
    }
    if (s->variants & V_LOOP) {
      p.loop = 1;
      run_oclfuse(env, s, &p, "oclfuse-loop", NULL);
      p.loop = 0;
    }
    if (s->variants & V_UNFUSED) {
      cl_int err = CL_SUCCESS;
      p.unfused = clCreateKernel(unfused_program, "lab_bias_act", &err);
      if (err == CL_SUCCESS) {
        p.separate = 1;
        run_oclfuse(env, s, &p, "gemm+bias_act", NULL);
        p.separate = 0;
      }
    }
  } else {
    for (size_t i = 0; s->variants & V_SWEEP_CHECKS && i < s->check_count; i++)
      run_oclfuse(env, s, &p, s->checks[i].label, s->checks[i].values);
    for (size_t i = 0; s->variants & V_SWEEP_TILES && i < OCF_ARRAY_LEN(tile_candidates); i++)
      run_oclfuse(env, s, &p, tile_candidates[i].label, tile_candidates[i].values);
    for (size_t i = 0; s->variants & V_SWEEP_SKINNY && i < OCF_ARRAY_LEN(skinny_candidates); i++)
      run_oclfuse(env, s, &p, skinny_candidates[i].label, skinny_candidates[i].values);
    for (size_t i = 0; s->variants & V_SWEEP_SPLIT && i < OCF_ARRAY_LEN(split_candidates); i++)
      run_oclfuse(env, s, &p, split_candidates[i].label, split_candidates[i].values);
    if (s->variants & V_SWEEP_PRECISION) {
      /* "mma=0" keeps the modes on the SIMT kernels where the matrix units would take them;
         the matrix units' rows, with the library's own choice, beside them */
      static const struct {
        ocf_precision mode;
        const char *label, *values;
      } modes[] = {
          {OCF_PRECISION_FP32, "fp32", NULL},
          {OCF_PRECISION_TF32, "tf32 (SIMT)", "mma=0"},
          {OCF_PRECISION_3XTF32, "3xtf32 (SIMT)", "mma=0"},
          {OCF_PRECISION_3XTF32, "3xtf32 (SIMT) no reg cap", "mma=0 max_regs=0"},
          {OCF_PRECISION_TF32, "tf32 (default plan)", NULL},
          {OCF_PRECISION_3XTF32, "3xtf32 (default plan)", NULL},
      };
      for (size_t i = 0; i < OCF_ARRAY_LEN(modes); i++) {
        p.precision = modes[i].mode;
        run_oclfuse(env, s, &p, modes[i].label, modes[i].values);
      }
      p.precision = OCF_PRECISION_FP32;
      if (problem_make_bf16(&p) == 0) {
        p.ab_dtype = OCF_BF16;
        run_oclfuse(env, s, &p, "bf16 inputs (SIMT)", "mma=0");
      }
    }
  }
  problem_free(&p);
}

/* ---- ptxas report ---- */

/* A plan whose program is built once more with -cl-nv-verbose (NVIDIA only). */
typedef struct ptxas_probe {
  const char *label;
  size_t m, n, k;
  int ta, tb;
  size_t pad;
  ocf_precision precision;
  const char *values; /* tuning override, or NULL */
} ptxas_probe;

/* Prints, for each probe, the registers, spills and shared memory ptxas reports for the kernels
   its plan runs: one line each. */
static void ptxas_report(lab_env *env) {
  static const ptxas_probe probes[] = {
      {"square 4096 built-in", 4096, 4096, 4096, 0, 0, 0, OCF_PRECISION_FP32, NULL},
      {"square 4096 old built-in (vw4 no cap)", 4096, 4096, 4096, 0, 0, 0, OCF_PRECISION_FP32,
       "set0.vwm=4 set0.vwn=4 max_regs=0"},
      {"square 4096 vw4 cap128", 4096, 4096, 4096, 0, 0, 0, OCF_PRECISION_FP32,
       "set0.vwm=4 set0.vwn=4"},
      {"square 4096 3xtf32 SIMT", 4096, 4096, 4096, 0, 0, 0, OCF_PRECISION_3XTF32, "mma=0"},
      {"square 4096 3xtf32 SIMT no cap", 4096, 4096, 4096, 0, 0, 0, OCF_PRECISION_3XTF32,
       "mma=0 max_regs=0"},
      {"ragged 4097x4095x1023 ld+1", 4097, 4095, 1023, 0, 0, 1, OCF_PRECISION_FP32, NULL},
      {"skinny 8192x16 NN (wide)", 8192, 16, 8192, 0, 0, 0, OCF_PRECISION_FP32, NULL},
      {"skinny 8192x16 TN (wide)", 8192, 16, 8192, 1, 0, 0, OCF_PRECISION_FP32, NULL},
      {"skinny 8192x16 NN wide no cap", 8192, 16, 8192, 0, 0, 0, OCF_PRECISION_FP32, "max_regs=0"},
      {"skinny 8192x1 NN", 8192, 1, 8192, 0, 0, 0, OCF_PRECISION_FP32, NULL},
  };
  for (size_t i = 0; i < OCF_ARRAY_LEN(probes); i++) {
    const ptxas_probe *pr = &probes[i];
    ocf_matmul_call call;
    memset(&call, 0, sizeof call);
    call.trans_a = pr->ta, call.trans_b = pr->tb, call.m = pr->m, call.n = pr->n, call.k = pr->k;
    call.lda = (pr->ta ? pr->m : pr->k) + pr->pad, call.ldb = (pr->tb ? pr->k : pr->n) + pr->pad;
    call.ldc = pr->n + pr->pad, call.batch = 1;
    call.precision = pr->precision;
    ocf_device_facts facts;
    ocf_context_facts(env->ctx, &facts);
    ocf_tuning_values tuning;
    tuning_for(env, OCF_F32, pr->m, pr->n, pr->k, &tuning);
    ocf_plan plan;
    char options[1024];
    if ((pr->values &&
         ocf_tuning_parse(OCF_OP_MATMUL, pr->values, &tuning, "ptxas probe") != OCF_SUCCESS) ||
        ocf_plan_matmul(&facts, &tuning, &call, &plan) != OCF_SUCCESS ||
        ocf_plan_options(&plan, options, sizeof options - 64)) {
      printf("ptxas %-38s no plan: %s\n", pr->label, ocf_last_error());
      continue;
    }
    strcat(options, " -cl-std=CL1.2 -cl-nv-verbose");
    const ocf_program_source *src = ocf_program_source_get(plan.program);
    const char *texts[2] = {(const char *)ocf_common_source.text, (const char *)src->text};
    const size_t lengths[2] = {ocf_common_source.length, src->length};
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(env->ctx->cl_ctx, 2, texts, lengths, &err);
    if (err != CL_SUCCESS) continue;
    cl_int built = clBuildProgram(program, 1, &env->ctx->device, options, NULL, NULL);
    size_t size = 0;
    clGetProgramBuildInfo(program, env->ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = malloc(size + 1);
    int printed = 0;
    if (log && clGetProgramBuildInfo(program, env->ctx->device, CL_PROGRAM_BUILD_LOG, size, log,
                                     NULL) == CL_SUCCESS) {
      log[size] = '\0';
      /* "Compiling entry function 'name'", then its spill line and its "Used N registers" */
      char kernel[64] = "", spill[96] = "";
      for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        const char *at;
        if ((at = strstr(line, "Compiling entry function '")) != NULL) {
          sscanf(at + strlen("Compiling entry function '"), "%63[^']", kernel);
          spill[0] = '\0';
        } else if ((at = strstr(line, "bytes spill stores")) != NULL) {
          const char *from = strstr(line, "bytes stack frame, ");
          snprintf(spill, sizeof spill, "%s", from ? from + strlen("bytes stack frame, ") : at);
        } else if ((at = strstr(line, "Used ")) != NULL && kernel[0]) {
          int runs = 0;
          for (unsigned s = 0; s < plan.step_count; s++)
            runs |= !strcmp(ocf_kernel_desc_get(plan.steps[s].kernel)->name, kernel);
          if (runs) {
            printf("ptxas %-38s %-22s %s; %s\n", pr->label, kernel, at, spill);
            printed = 1;
          }
          kernel[0] = '\0';
        }
      }
    }
    if (!printed)
      printf("ptxas %-38s build %s, no register lines in the log\n", pr->label,
             built == CL_SUCCESS ? "ok" : ocf_status_name((ocf_status)built));
    free(log);
    clReleaseProgram(program);
  }
  fflush(stdout);
}

/* ---- the report ---- */

/* Rows grouped by shape (in the order shapes were first measured), so each shape's variants,
   sweeps and tuned CLBlast sit together. Stable. */
static void sort_rows(void) {
  static lab_row sorted[sizeof rows / sizeof rows[0]];
  static int taken[sizeof rows / sizeof rows[0]];
  size_t out = 0;
  memset(taken, 0, sizeof taken);
  for (size_t i = 0; i < row_count; i++) {
    if (taken[i]) continue;
    for (size_t j = i; j < row_count; j++)
      if (!taken[j] && !strcmp(rows[j].group, rows[i].group) && !strcmp(rows[j].key, rows[i].key)) {
        sorted[out++] = rows[j];
        taken[j] = 1;
      }
  }
  memcpy(rows, sorted, row_count * sizeof rows[0]);
}

static void report(const lab_env *env) {
  printf("\n# gemm_lab on %s (%s), driver %s; copy %.0f GB/s, FMA peak %.1f TFLOP/s\n",
         env->info.device_name, env->info.platform_name, env->info.driver_version,
         env->ceiling.copy_gbps, env->ceiling.fma_gflops * 1e-3);
  printf("# %% is of the FMA peak, or of copy bandwidth (skinny: GB/s of the large operand)\n");
  printf("%-9s %-34s %-32s %9s %8s %8s %5s  %s\n", "group", "shape", "variant", "ms", "TFLOP/s",
         "GB/s", "%", "plan / note");
  const char *group = "";
  for (size_t i = 0; i < row_count; i++) {
    const lab_row *r = &rows[i];
    if (strcmp(group, r->group)) printf("\n");
    group = r->group;
    if (r->row.status == ROW_OK)
      printf("%-9s %-34s %-32.32s %9.3f %8.2f %8.0f %5.1f  %s\n", r->group, r->key, r->variant,
             r->row.median_ms, r->tflops, r->gbps, r->percent, r->plan);
    else
      printf("%-9s %-34s %-32.32s %9s %8s %8s %5s  %s: %s %s\n", r->group, r->key, r->variant, "-",
             "-", "-", "-", tool_row_status_name(r->row.status), r->row.note, r->plan);
  }
}

static void usage(void) {
  fprintf(stderr, "usage: gemm_lab [--device SPEC] [--groups a,b] [--budget S] [--repeat N] "
                  "[--csv FILE] [--small] [--ptxas]\n");
}

static int group_wanted(const char *groups, const char *group) {
  if (!groups) return 1;
  size_t len = strlen(group);
  for (const char *p = groups; (p = strstr(p, group)) != NULL; p += len)
    if ((p == groups || p[-1] == ',') && (p[len] == '\0' || p[len] == ',')) return 1;
  return 0;
}

int main(int argc, char **argv) {
  const char *device = NULL, *groups = NULL, *csv = NULL;
  lab_env env;
  memset(&env, 0, sizeof env);
  env.budget = 150.0;
  env.repeats = 10;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int r = 0;
    if (!strcmp(argv[i], "--small")) {
      env.small = 1;
    } else if (!strcmp(argv[i], "--ptxas")) {
      env.ptxas = 1;
    } else if ((r = tool_option(argc, argv, &i, "--device", &v)) > 0) {
      device = v;
    } else if ((r = tool_option(argc, argv, &i, "--groups", &v)) > 0) {
      groups = v;
    } else if ((r = tool_option(argc, argv, &i, "--csv", &v)) > 0) {
      csv = v;
    } else if ((r = tool_option(argc, argv, &i, "--budget", &v)) > 0) {
      env.budget = atof(v);
    } else if ((r = tool_option(argc, argv, &i, "--repeat", &v)) > 0) {
      if (tool_parse_count(v, 1000, &env.repeats)) r = -1;
    } else {
      r = -1;
    }
    if (r < 0) {
      usage();
      return 2;
    }
  }
  tool_set_command("gemm_lab");
  env.started = now_seconds();
  if (ocf_context_create(device, &env.ctx) != OCF_SUCCESS) {
    fprintf(stderr, "gemm_lab: no device: %s\n", ocf_last_error());
    return 1;
  }
  ocf_device_info_init(&env.info);
  ocf_context_device_info(env.ctx, &env.info);
  memcpy(env.builtin, env.ctx->tuning[OCF_OP_MATMUL], sizeof env.builtin);
  if (csv) {
    env.csv = fopen(csv, "w");
    if (env.csv)
      fprintf(env.csv, "group,key,m,n,k,batch,ta,tb,pad,act,bias,variant,status,plan,ms,"
                       "tflops,gbps,percent\n");
  }
  int rc = 1;
  if (tool_timer_init(&env.timer, env.ctx, 1000.0, 0) == 0) {
    tool_results ceiling_rows = {NULL, 0, 0};
    tool_ceiling_measure(&env.timer, (env.info.type & CL_DEVICE_TYPE_GPU) != 0, env.repeats,
                         &ceiling_rows, &env.ceiling);
    tool_results_free(&ceiling_rows);
    /* the separate epilogue kernel, built with cl/common.cl in front, as the library's are */
    size_t length = ocf_common_source.length + sizeof unfused_source;
    char *source = malloc(length + 1);
    if (source) {
      memcpy(source, ocf_common_source.text, ocf_common_source.length);
      memcpy(source + ocf_common_source.length, unfused_source, sizeof unfused_source);
      unfused_program = tool_build_program(env.ctx->cl_ctx, env.ctx->device, source, "");
      free(source);
    }
    if (env.ptxas) ptxas_report(&env);
    /* The first shapes with their checks, then the rest's library and untuned CLBlast rows,
       CLBlast tuned (its parameters, once applied, last for the process), the rest's sweeps. */
    for (size_t i = 0; i < OCF_ARRAY_LEN(shapes); i++)
      if (shapes[i].first && group_wanted(groups, shapes[i].group)) {
        run_shape(&env, &shapes[i], PHASE_BASE);
        run_shape(&env, &shapes[i], PHASE_SWEEPS);
      }
    for (size_t i = 0; i < OCF_ARRAY_LEN(shapes); i++)
      if (!shapes[i].first && group_wanted(groups, shapes[i].group))
        run_shape(&env, &shapes[i], PHASE_BASE);
    char err[256];
    if (tool_clblast_available() && tool_clblast_tuned_applies(&env.info) &&
        tool_clblast_apply_tuned(env.info.device, err, sizeof err) == 0)
      for (size_t i = 0; i < OCF_ARRAY_LEN(shapes); i++)
        if (group_wanted(groups, shapes[i].group)) run_shape(&env, &shapes[i], PHASE_TUNED_CLBLAST);
    for (size_t i = 0; i < OCF_ARRAY_LEN(shapes); i++)
      if (!shapes[i].first && group_wanted(groups, shapes[i].group))
        run_shape(&env, &shapes[i], PHASE_SWEEPS);
    sort_rows();
    report(&env);
    printf("# %.0f s in all\n", now_seconds() - env.started);
    rc = 0;
    tool_timer_release(&env.timer);
  }
  if (unfused_program) clReleaseProgram(unfused_program);
  if (env.csv) fclose(env.csv);
  tool_clblast_release();
  ocf_context_release(env.ctx);
  return rc;
}
