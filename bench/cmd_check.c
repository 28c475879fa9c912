/*
 * `oclfuse check`: runs every op, every variant, on a few shapes (ragged, not all powers of two,
 * with offsets, padded strides, transposes and non-finite inputs) and compares each output in
 * full with the double-precision CPU reference; then every option of the calls (option_calls, in
 * the --sizes language of spec.c) through the benchmark's series without timing. Exit status 1
 * if anything fails.
 */
#include "tool.h"

#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Prints one op's error model under its name: its lines from the harness's table, indented. */
static void print_error_help(FILE *out, const ocft_op_case *c) {
  const char *line = c->error_help;
  fprintf(out, "  %-9s ", c->name);
  for (const char *end; (end = strchr(line, '\n')) != NULL; line = end + 1)
    fprintf(out, "%.*s\n%12s", (int)(end - line), line, "");
  fprintf(out, "%s\n", line);
}

static void usage(FILE *out) {
  char ops[128];
  ocft_op_names_text(" and ", ops, sizeof ops);
  fprintf(out,
          "usage: oclfuse check [options]\n"
          "\n"
          "Runs every op on a few shapes (variants auto, general and baseline) and compares\n"
          "every output with the CPU reference (double accumulation). The ops:\n"
          "%s.\n"
          "Prints op, shape, variant, the kernel and workgroup size the library chose, the max\n"
          "error, the tolerance and pass/FAIL; the exit status is 1 if any case fails.\n"
          "\n"
          "The error of each output is measured against its own tolerance, from these error\n"
          "models, the tests' own (u = 2^-24, fp32's unit roundoff), and reported as err/tol,\n"
          "1 the limit:\n",
          ops);
  for (tool_op op = 0; op < tool_op_count(); op++)
    print_error_help(out, tool_op_case(op));
  fputs("Calls with options (16-bit storage, log-softmax, scale, row lengths, the causal\n"
        "band, transposes, column-major, batch, epilogue, precision modes, padding and\n"
        "offsets, norm's weight, bias and residual, attention's masks and key heads) are\n"
        "then checked the same way, variants auto and baseline, against error models that\n"
        "add the storage rounding, the precision mode and the epilogue's error (softmax:\n"
        "over each row's kept columns).\n"
        "The first call of each kernel builds its program (seconds on a CPU device).\n"
        "\n"
        "options:\n"
        "  --sizes CALLS     check these calls instead (the language of `oclfuse bench\n"
        "                    --help`), variants auto and baseline\n",
        out);
  tool_usage_common(out, 1);
}

static const ocf_variant variants[] = {OCF_VARIANT_AUTO, OCF_VARIANT_GENERAL, OCF_VARIANT_BASELINE};

static const char *variant_name(ocf_variant v) {
  return v == OCF_VARIANT_AUTO ? "auto" : v == OCF_VARIANT_GENERAL ? "general" : "baseline";
}

typedef struct check_run {
  ocf_context *ctx;
  ocf_device_info info;
  cl_command_queue queue;
  int cases, failures;
} check_run;

/* The progress step of the next case (one per op, shape and variant). */
static void step(const check_run *run, const char *op, const char *shape, ocf_variant variant) {
  tool_progress_step((size_t)run->cases + 1, "%s %s %s", op, shape, variant_name(variant));
}

/* Prints one case's line; a non-empty error means the call (or its setup) failed. `plan` is
   what the library enqueued (ocf_last_plan() right after the call). */
static void report(check_run *run, const char *op, const char *shape, ocf_variant variant,
                   const char *plan, const tool_verdict *v, const char *error) {
  run->cases++;
  int pass = !error[0] && v->pass;
  if (!pass) run->failures++;
  char kernel[64];
  tool_plan_brief(plan, kernel, sizeof kernel);
  tool_progress_clear();
  printf("%-8s %-34s %-9s %-24s ", op, shape, variant_name(variant), kernel[0] ? kernel : "-");
  if (error[0]) {
    printf("%10s %10s %-9s FAIL  %s\n", "-", "-", "", error);
    return;
  }
  if (isinf(v->max_error))
    printf("%10s ", "inf/NaN");
  else
    printf("%10.3g ", v->max_error);
  printf("%10.3g %-9s %s", v->tolerance, v->measure, pass ? "pass" : "FAIL");
  if (!pass) printf("  (worst at element %zu)", v->worst);
  printf("\n");
  fflush(stdout);
}

static int read_back(check_run *run, cl_mem mem, size_t offset, size_t count, float *host,
                     char *error, size_t errlen) {
  cl_int e = clEnqueueReadBuffer(run->queue, mem, CL_TRUE, offset * sizeof(float),
                                 count * sizeof(float), host, 0, NULL, NULL);
  if (e != CL_SUCCESS)
    snprintf(error, errlen, "clEnqueueReadBuffer: %s", ocf_status_name((ocf_status)e));
  return e == CL_SUCCESS ? 0 : -1;
}

/* The verdict of an element-by-element comparison (tol NULL: exact). */
static void verdict_of_elements(const float *got, const double *want, const double *tol,
                                size_t count, tool_verdict *verdict) {
  ocft_check check;
  ocft_check_start(&check);
  ocft_check_elements(got, want, tol, count, &check);
  tool_verdict_set(verdict, &check);
}

/* Waits for the queue; an asynchronous failure becomes the error text. */
static int finish(check_run *run, char *error, size_t errlen) {
  cl_int e = clFinish(run->queue);
  if (e != CL_SUCCESS) snprintf(error, errlen, "clFinish: %s", ocf_status_name((ocf_status)e));
  return e == CL_SUCCESS ? 0 : -1;
}

/* ---- add ---- */

typedef struct add_case {
  size_t n, x_off, y_off, out_off;
  int in_place; /* out is x */
} add_case;

static int check_add(check_run *run, const add_case *c) {
  size_t len = c->n + 4;
  float *x = tool_alloc_floats(len), *y = tool_alloc_floats(len), *got = tool_alloc_floats(len);
  double *want = tool_alloc_doubles(c->n);
  int rc = x && y && got && want ? 0 : -1;
  char shape[64];
  if (c->in_place)
    snprintf(shape, sizeof shape, "n=%zu in-place", c->n);
  else if (c->x_off || c->y_off || c->out_off)
    snprintf(shape, sizeof shape, "n=%zu off=%zu,%zu,%zu", c->n, c->x_off, c->y_off, c->out_off);
  else
    snprintf(shape, sizeof shape, "n=%zu", c->n);
  if (rc == 0) {
    ocft_fill_uniform(x, len, -1.0f, 1.0f, 11 + c->n);
    ocft_fill_uniform(y, len, -1.0f, 1.0f, 12 + c->n);
    ocf_ref_add(c->n, x + c->x_off, y + c->y_off, want);
  }
  for (size_t v = 0; rc == 0 && v < 3; v++) {
    char error[512] = "", plan[512] = "";
    tool_verdict verdict;
    tool_verdict_init(&verdict);
    step(run, "add", shape, variants[v]);
    cl_mem xb = tool_buffer(run->ctx, len, x), yb = tool_buffer(run->ctx, len, y);
    cl_mem ob = c->in_place ? xb : tool_buffer(run->ctx, len, NULL);
    if (!xb || !yb || !ob || (!c->in_place && tool_poison(run->ctx, ob, len))) {
      snprintf(error, sizeof error, "buffer setup failed (see stderr)");
    } else {
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.variant = variants[v];
      size_t out_off = c->in_place ? c->x_off : c->out_off;
      ocf_status s = ocf_add(run->ctx, c->n, xb, c->x_off, yb, c->y_off, ob, out_off, &launch);
      snprintf(plan, sizeof plan, "%s", ocf_last_plan());
      if (s != OCF_SUCCESS)
        tool_status_text(error, sizeof error, "ocf_add", s);
      else if (!finish(run, error, sizeof error) &&
               !read_back(run, ob, out_off, c->n, got, error, sizeof error))
        verdict_of_elements(got, want, NULL, c->n, &verdict);
    }
    report(run, "add", shape, variants[v], plan, &verdict, error);
    if (ob && ob != xb) clReleaseMemObject(ob);
    if (yb) clReleaseMemObject(yb);
    if (xb) clReleaseMemObject(xb);
  }
  free(x);
  free(y);
  free(got);
  free(want);
  return rc;
}

/* ---- softmax ---- */

typedef struct softmax_case {
  size_t rows, cols, pad; /* row stride = cols + pad, for input and output */
  int special;            /* rows with -inf, all -inf, NaN, +inf and large magnitudes */
} softmax_case;

static void softmax_specials(float *in, size_t rows, size_t cols, size_t ld) {
  for (size_t r = 0; r < rows; r++) {
    float *row = in + r * ld;
    switch (r % 6) {
    case 0: /* a few -inf entries: they give 0, the rest is undisturbed */
      row[0] = -INFINITY;
      row[cols / 2] = -INFINITY;
      break;
    case 1: /* all -inf: NaN everywhere */
      for (size_t c = 0; c < cols; c++)
        row[c] = -INFINITY;
      break;
    case 2: /* large magnitudes: exp would overflow fp32 without the max subtracted */
      for (size_t c = 0; c < cols; c++)
        row[c] = 1000.0f + row[c];
      break;
    case 3: /* a NaN: the whole row is NaN */
      row[cols - 1] = NAN;
      break;
    case 4: /* +inf: the whole row is NaN */
      row[cols / 3] = INFINITY;
      break;
    default:
      break;
    }
  }
}

static int check_softmax(check_run *run, const softmax_case *c) {
  size_t ld = c->cols + c->pad, len = c->rows * ld;
  float *in = tool_alloc_floats(len), *got = tool_alloc_floats(len);
  double *want = tool_alloc_doubles(c->rows * c->cols);
  int rc = in && got && want ? 0 : -1;
  char shape[64];
  snprintf(shape, sizeof shape, "%zux%zu%s%s", c->rows, c->cols, c->pad ? " ld+pad" : "",
           c->special ? " inf/NaN/1e3" : "");
  if (rc == 0) {
    ocft_fill_uniform(in, len, -4.0f, 4.0f, 21 + c->rows * c->cols);
    if (c->special) softmax_specials(in, c->rows, c->cols, ld);
    ocf_ref_softmax(c->rows, c->cols, in, ld, want);
  }
  for (size_t v = 0; rc == 0 && v < 3; v++) {
    char error[512] = "", plan[512] = "";
    tool_verdict verdict;
    tool_verdict_init(&verdict);
    step(run, "softmax", shape, variants[v]);
    cl_mem ib = tool_buffer(run->ctx, len, in), ob = tool_buffer(run->ctx, len, NULL);
    if (!ib || !ob || tool_poison(run->ctx, ob, len)) {
      snprintf(error, sizeof error, "buffer setup failed (see stderr)");
    } else {
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.variant = variants[v];
      ocf_status s = ocf_softmax(run->ctx, c->rows, c->cols, ib, 0, ld, ob, 0, ld, &launch);
      snprintf(plan, sizeof plan, "%s", ocf_last_plan());
      if (s != OCF_SUCCESS) {
        tool_status_text(error, sizeof error, "ocf_softmax", s);
      } else if (!finish(run, error, sizeof error) &&
                 !read_back(run, ob, 0, len, got, error, sizeof error)) {
        ocft_check check;
        ocft_check_start(&check);
        ocft_check_softmax(c->rows, c->cols, in, ld, want, got, ld, launch.workgroup_size,
                           &run->info, &check);
        tool_verdict_set(&verdict, &check);
      }
    }
    report(run, "softmax", shape, variants[v], plan, &verdict, error);
    if (ob) clReleaseMemObject(ob);
    if (ib) clReleaseMemObject(ib);
  }
  free(in);
  free(got);
  free(want);
  return rc;
}

/* ---- matmul ---- */

typedef struct matmul_case {
  size_t m, n, k, pad;
  ocf_transpose ta, tb;
  float alpha, beta;
  int nan_c; /* C starts as NaN (with beta = 0 it must not be read) */
} matmul_case;

static int check_matmul(check_run *run, const matmul_case *c) {
  /* Stored shapes: A is m x k (or k x m transposed), B is k x n (or n x k). */
  size_t a_rows = c->ta ? c->k : c->m, a_cols = c->ta ? c->m : c->k;
  size_t b_rows = c->tb ? c->n : c->k, b_cols = c->tb ? c->k : c->n;
  size_t lda = a_cols + c->pad, ldb = b_cols + c->pad, ldc = c->n + c->pad;
  size_t a_len = a_rows * lda, b_len = b_rows * ldb, c_len = c->m * ldc;
  float *a = tool_alloc_floats(a_len), *b = tool_alloc_floats(b_len);
  float *c0 = tool_alloc_floats(c_len), *got = tool_alloc_floats(c_len);
  float *dense = tool_alloc_floats(c->m * c->n);
  double *want = tool_alloc_doubles(c->m * c->n), *tol = tool_alloc_doubles(c->m * c->n);
  int rc = a && b && c0 && got && dense && want && tol ? 0 : -1;
  char shape[64];
  snprintf(shape, sizeof shape, "%zux%zux%zu %c%c%s a=%g b=%g%s", c->m, c->n, c->k,
           c->ta ? 'T' : 'N', c->tb ? 'T' : 'N', c->pad ? " ld+" : "", (double)c->alpha,
           (double)c->beta, c->nan_c ? " C=NaN" : "");
  if (rc == 0) {
    ocft_fill_uniform(a, a_len, -1.0f, 1.0f, 31 + c->m);
    ocft_fill_uniform(b, b_len, -1.0f, 1.0f, 32 + c->n);
    ocft_fill_uniform(c0, c_len, -1.0f, 1.0f, 33 + c->k);
    if (c->nan_c)
      for (size_t i = 0; i < c_len; i++)
        c0[i] = NAN;
    ocf_ref_matmul(c->ta, c->tb, c->m, c->n, c->k, c->alpha, a, lda, b, ldb, c->beta, c0, ldc,
                   want);
    ocft_matmul_tolerance(c->ta, c->tb, c->m, c->n, c->k, c->alpha, a, lda, b, ldb, c->beta, c0,
                          ldc, tol);
  }
  for (size_t v = 0; rc == 0 && v < 3; v++) {
    char error[512] = "", plan[512] = "";
    tool_verdict verdict;
    tool_verdict_init(&verdict);
    step(run, "matmul", shape, variants[v]);
    cl_mem ab = tool_buffer(run->ctx, a_len, a), bb = tool_buffer(run->ctx, b_len, b);
    cl_mem cb = tool_buffer(run->ctx, c_len, c0);
    if (!ab || !bb || !cb) {
      snprintf(error, sizeof error, "buffer setup failed (see stderr)");
    } else {
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.variant = variants[v];
      ocf_status s = ocf_matmul(run->ctx, c->ta, c->tb, c->m, c->n, c->k, c->alpha, ab, 0, lda, bb,
                                0, ldb, c->beta, cb, 0, ldc, &launch);
      snprintf(plan, sizeof plan, "%s", ocf_last_plan());
      if (s != OCF_SUCCESS) {
        tool_status_text(error, sizeof error, "ocf_matmul", s);
      } else if (!finish(run, error, sizeof error) &&
                 !read_back(run, cb, 0, c_len, got, error, sizeof error)) {
        for (size_t r = 0; r < c->m; r++)
          memcpy(dense + r * c->n, got + r * ldc, c->n * sizeof(float));
        verdict_of_elements(dense, want, tol, c->m * c->n, &verdict);
      }
    }
    report(run, "matmul", shape, variants[v], plan, &verdict, error);
    if (cb) clReleaseMemObject(cb);
    if (bb) clReleaseMemObject(bb);
    if (ab) clReleaseMemObject(ab);
  }
  free(a);
  free(b);
  free(c0);
  free(got);
  free(dense);
  free(want);
  free(tol);
  return rc;
}

/* ---- calls with options, through the benchmark's series without timing ---- */

/* Every option of the language at least once, on small ragged shapes (built programs dominate
   the time on a CPU device: each option set is a program of its own). */
static const char option_calls[] =
    "softmax:37x300:log; softmax:37x300:scale=0.37; softmax:37x300:lengths;"
    "softmax:20x1000:log:lengths:scale=2; softmax:37x300:f16; softmax:37x300:bf16:log;"
    "softmax:37x300:in=f16:out=f32; softmax:9x5000:bf16:lengths:pad=3:offset=5;"
    "softmax:5x70000:log; softmax:37x300:causal; softmax:48x300:bf16:causal=12,288;"
    "softmax:40x260:log:lengths:causal=10,130;"
    "matmul:33x45x27:tn:f16; matmul:40x24x56:nt:bf16; matmul:33x45x27:a=f16:b=bf16:c=f32;"
    "matmul:64x48x40:tf32; matmul:64x48x40:3xtf32; matmul:50x30x20:col;"
    "matmul:50x30x20:col:tt:alpha=0.5:beta=2; matmul:24x20x16:batch=3;"
    "matmul:24x20x16:batch=3:share=a:tn; matmul:30x40x20:bias=n:act=relu;"
    "matmul:30x40x20:bias=m:act=gelu; matmul:30x40x20:act=gelu_tanh:bf16;"
    "matmul:30x40x20:act=silu:bias=n:beta=1; matmul:1x300x200:tf32:bias=n;"
    "matmul:100x75x130:pad=3:offset=7:col:batch=2:bias=n:act=gelu:f16;"
    "add:4099:offset=5;"
    "layernorm:37x300:bf16:weight:bias:residual:stats; rmsnorm:20x1000:f16:weight:eps=1e-3;"
    "attention:2x4x33x47x64:bf16:causal:kv=2; attention:1x2x1x300x40:f16:scale=0.5";

/* Prints the rows from `first` on in the table's layout and counts them. */
static void report_rows(check_run *run, const tool_results *results, size_t first) {
  for (size_t i = first; i < results->count; i++) {
    const tool_row *r = &results->rows[i];
    ocf_variant variant = !strcmp(r->variant, "baseline") ? OCF_VARIANT_BASELINE : OCF_VARIANT_AUTO;
    char error[sizeof r->note] = "";
    if (r->status == ROW_FAILED || r->status == ROW_REFUSED)
      snprintf(error, sizeof error, "%s", r->note[0] ? r->note : "failed");
    if (r->status == ROW_SKIPPED) {
      tool_progress_clear();
      printf("%-8s %-34s %-9s %-24s %10s %10s %-9s skipped  %s\n", r->op, r->shape,
             variant_name(variant), "-", "-", "-", "", r->note);
      continue;
    }
    report(run, r->op, r->shape, variant, r->plan, &r->verdict, error);
  }
}

/* ---- any other op of the harness's table: its small shapes, plain, every variant ---- */

/* Whether the op has cases of its own above (else check_generic runs the table's). */
static int has_own_cases(tool_op op) {
  static const char *const own[] = {"add", "softmax", "matmul"};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    if (!strcmp(own[i], tool_op_name(op))) return 1;
  return 0;
}

static int check_generic(check_run *run, tool_op op, const size_t *d) {
  const ocft_op_case *c = tool_op_case(op);
  char shape[64];
  c->shape_text(d, shape, sizeof shape);
  for (size_t v = 0; v < 3; v++) {
    char error[512] = "", plan[512] = "";
    tool_verdict verdict;
    tool_verdict_init(&verdict);
    step(run, c->name, shape, variants[v]);
    ocft_call call;
    if (ocft_call_make(&call, c, d, 11)) {
      ocft_call_free(&call);
      return -1;
    }
    cl_int e = ocft_call_buffers(&call, ocf_context_cl_context(run->ctx));
    if (e != CL_SUCCESS) {
      snprintf(error, sizeof error, "clCreateBuffer: %s", ocf_status_name((ocf_status)e));
    } else {
      ocf_launch launch = OCF_LAUNCH_INIT;
      launch.variant = variants[v];
      ocf_status s = ocft_call_device(&call, run->ctx, &launch);
      snprintf(plan, sizeof plan, "%s", ocf_last_plan());
      if (s != OCF_SUCCESS) {
        tool_status_text(error, sizeof error, c->function, s);
      } else if ((e = ocft_call_read(&call, run->queue, NULL)) != CL_SUCCESS) {
        snprintf(error, sizeof error, "clEnqueueReadBuffer: %s", ocf_status_name((ocf_status)e));
      } else {
        ocft_check check;
        ocft_call_check(&call, &run->info, &check);
        tool_verdict_set(&verdict, &check);
      }
    }
    report(run, c->name, shape, variants[v], plan, &verdict, error);
    ocft_call_free(&call);
  }
  return 0;
}

/* Runs each call of `list` (auto and baseline) and reports it; 0, or -1 (out of host memory). */
static int check_calls(check_run *run, const tool_spec_list *list) {
  tool_bench_env env;
  memset(&env, 0, sizeof env);
  env.ctx = run->ctx;
  env.info = run->info;
  env.gpu = (run->info.type & CL_DEVICE_TYPE_GPU) != 0;
  env.max_alloc = tool_max_alloc(run->info.device);
  env.repeats = 1;
  tool_timer timer;
  memset(&timer, 0, sizeof timer);
  timer.ctx = run->ctx;
  timer.queue = run->queue;
  timer.check_only = 1;
  timer.quiet = 1; /* the steps are counted here, one per call */
  tool_results results = {NULL, 0, 0};
  env.timer = &timer;
  env.results = &results;
  timer.rows = &results;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < list->count; i++) {
    const tool_spec *s = &list->specs[i];
    char text[160];
    tool_spec_text(s, text, sizeof text);
    tool_progress_step((size_t)run->cases + 1, "%s %s", tool_op_name(s->op), text);
    size_t first = results.count;
    rc = tool_series_of(s->op)->bench(&env, s, 1);
    report_rows(run, &results, first);
  }
  tool_results_free(&results);
  return rc;
}

int cmd_check(int argc, char **argv) {
  const char *device = NULL, *sizes = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    int r = 0;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return TOOL_EXIT_OK;
    } else if (!strcmp(argv[i], "--version")) {
      return tool_print_version();
    } else if (!strcmp(argv[i], "--quiet")) {
      tool_set_quiet(1);
    } else if ((r = tool_option(argc, argv, &i, "--device", &v)) != 0) {
      if (r < 0) return TOOL_EXIT_USAGE;
      device = v;
    } else if ((r = tool_option(argc, argv, &i, "--sizes", &v)) != 0) {
      if (r < 0) return TOOL_EXIT_USAGE;
      sizes = v;
    } else {
      tool_error("unknown option '%s' (see oclfuse check --help)", argv[i]);
      return TOOL_EXIT_USAGE;
    }
  }
  static tool_spec_list calls; /* large: off the stack */
  int every_op[TOOL_MAX_OPS] = {0};
  for (tool_op op = 0; op < tool_op_count(); op++)
    every_op[op] = 1;
  char err[256];
  if (tool_specs_parse(sizes ? sizes : option_calls, every_op, &calls, err, sizeof err)) {
    tool_error("--sizes: %s", err);
    return TOOL_EXIT_USAGE;
  }
  check_run run;
  memset(&run, 0, sizeof run);
  int opened = tool_open_context(device, &run.ctx);
  if (opened != TOOL_EXIT_OK) return opened;
  run.queue = ocf_context_queue(run.ctx);
  ocf_device_info_init(&run.info);
  ocf_context_device_info(run.ctx, &run.info);
  printf("device %u:%u %s (%s), driver %s\n\n", run.info.platform_index, run.info.device_index,
         run.info.device_name, tool_device_type_name(run.info.type), run.info.driver_version);
  printf("%-8s %-34s %-9s %-24s %10s %10s %-9s %s\n", "op", "shape", "variant", "kernel/workgroup",
         "err/tol", "tolerance", "measure", "result");
  fflush(stdout);

  static const add_case adds[] = {{1, 0, 0, 0, 0},     {1000, 0, 0, 0, 0},    {4099, 0, 0, 0, 0},
                                  {65539, 0, 0, 0, 0}, {1 << 20, 0, 0, 0, 0}, {4099, 1, 2, 3, 0},
                                  {4099, 0, 0, 0, 1}};
  static const softmax_case softmaxes[] = {{1, 1, 0, 0},      {7, 13, 0, 0},    {64, 128, 0, 0},
                                           {100, 1000, 3, 0}, {33, 4099, 0, 0}, {3, 65537, 0, 0},
                                           {12, 37, 0, 1},    {6, 1500, 5, 1}};
  static const matmul_case matmuls[] = {
      {1, 1, 1, 0, OCF_NO_TRANS, OCF_NO_TRANS, 1.0f, 0.0f, 0},
      {17, 19, 23, 0, OCF_NO_TRANS, OCF_NO_TRANS, 1.0f, 0.0f, 0},
      {64, 64, 64, 0, OCF_NO_TRANS, OCF_NO_TRANS, 1.0f, 0.0f, 0},
      {100, 75, 130, 3, OCF_NO_TRANS, OCF_NO_TRANS, 1.5f, -0.5f, 0},
      {128, 256, 64, 0, OCF_TRANS, OCF_NO_TRANS, 1.0f, 0.0f, 0},
      {257, 129, 511, 1, OCF_NO_TRANS, OCF_TRANS, 0.5f, 2.0f, 0},
      {65, 33, 97, 0, OCF_TRANS, OCF_TRANS, -1.0f, 1.0f, 0},
      {200, 300, 100, 0, OCF_NO_TRANS, OCF_NO_TRANS, 1.0f, 0.0f, 1}};
  const size_t add_count = sizeof adds / sizeof adds[0];
  const size_t softmax_count = sizeof softmaxes / sizeof softmaxes[0];
  const size_t matmul_count = sizeof matmuls / sizeof matmuls[0];
  size_t generic = 0;
  for (tool_op op = 0; op < tool_op_count(); op++)
    if (!has_own_cases(op)) generic += tool_op_case(op)->small.count;
  const size_t plain = sizes ? 0 : 3 * (add_count + softmax_count + matmul_count + generic);
  tool_progress_begin(plain + 2 * calls.count);
  int rc = 0;
  for (size_t i = 0; !sizes && rc == 0 && i < add_count; i++)
    rc = check_add(&run, &adds[i]);
  for (size_t i = 0; !sizes && rc == 0 && i < softmax_count; i++)
    rc = check_softmax(&run, &softmaxes[i]);
  for (size_t i = 0; !sizes && rc == 0 && i < matmul_count; i++)
    rc = check_matmul(&run, &matmuls[i]);
  for (tool_op op = 0; !sizes && op < tool_op_count(); op++)
    for (size_t i = 0; !has_own_cases(op) && rc == 0 && i < tool_op_case(op)->small.count; i++)
      rc = check_generic(&run, op, tool_op_case(op)->small.d[i]);
  if (rc == 0) rc = check_calls(&run, &calls);
  ocf_context_release(run.ctx);
  tool_progress_clear();
  if (rc) {
    tool_error("stopped: out of host memory");
    return TOOL_EXIT_FAILURE;
  }
  printf("\n%d of %d cases passed%s\n", run.cases - run.failures, run.cases,
         run.failures ? "" : ": all right");
  return run.failures ? TOOL_EXIT_FAILURE : TOOL_EXIT_OK;
}
