/* The table of op cases (op_cases.h) and the plain call every generic part makes of an op. */
#include "op_cases.h"
#include "fill.h"
#include "storage16.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const ocft_op_case ocft_op_add, ocft_op_softmax, ocft_op_matmul, ocft_op_norm,
    ocft_op_attention;

/* The one list of ops, in the library's order (its tuning and warm-up names, kept equal to the
   library's by test_op_cases). A new op: its op_<name>.c, and a line here. */
static const ocft_op_case *const cases[] = {&ocft_op_add, &ocft_op_softmax, &ocft_op_matmul,
                                            &ocft_op_norm, &ocft_op_attention};

size_t ocft_op_count(void) {
  return sizeof cases / sizeof cases[0];
}

const ocft_op_case *ocft_op_at(size_t index) {
  return index < ocft_op_count() ? cases[index] : NULL;
}

int ocft_op_index(const char *name) {
  for (size_t i = 0; name && i < ocft_op_count(); i++)
    if (!strcmp(cases[i]->name, name)) return (int)i;
  return -1;
}

const ocft_op_case *ocft_op_find(const char *name) {
  int i = ocft_op_index(name);
  return i < 0 ? NULL : cases[i];
}

void ocft_op_names_text(const char *last_joint, char *out, size_t capacity) {
  size_t used = 0, count = ocft_op_count();
  out[0] = '\0';
  for (size_t i = 0; i < count && used < capacity; i++) {
    const char *joint = i == 0 ? "" : i + 1 == count ? last_joint : ", ";
    int w = snprintf(out + used, capacity - used, "%s%s", joint, cases[i]->name);
    used += w > 0 ? (size_t)w : 0;
  }
}

const ocft_op_case *ocft_op_alias(const char *name, ocft_options *o) {
  for (size_t i = 0; name && i < ocft_op_count(); i++)
    for (size_t a = 0; a < cases[i]->alias_count; a++) {
      const ocft_alias *alias = &cases[i]->aliases[a];
      if (strcmp(alias->name, name)) continue;
      /* The presets are words of the case's own (test_op_cases parses each alias). */
      char word[32], why[128];
      int dtype_seen = 0;
      for (const char *p = alias->options; *p; p += *p == ':') {
        size_t n = strcspn(p, ":");
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        ocft_options_parse(cases[i], word, o, &dtype_seen, why, sizeof why);
        p += n;
      }
      return cases[i];
    }
  return NULL;
}

/* ---- options ---- */

void ocft_options_init(ocft_options *o) {
  memset(o, 0, sizeof *o);
  o->dtype = OCF_F32;
}

int ocft_options_plain(const ocft_options *o) {
  return o->dtype == OCF_F32 && o->set == 0;
}

int ocft_op_has_options(const ocft_op_case *op) {
  return op->dtypes != 0 || op->option_count != 0;
}

static const char *const dtype_words[] = {"f32", "f16", "bf16"};

/* A count: decimal digits or 2^E (E <= 62); 0, or -1. */
static int parse_count(const char *text, double *value) {
  char *end = NULL;
  if (!strncmp(text, "2^", 2)) {
    if (text[2] < '0' || text[2] > '9') return -1;
    unsigned long e = strtoul(text + 2, &end, 10);
    if (*end || e > 62) return -1;
    *value = ldexp(1.0, (int)e);
    return 0;
  }
  if (text[0] < '0' || text[0] > '9') return -1;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (*end || errno) return -1;
  *value = (double)v;
  return 0;
}

int ocft_options_parse(const ocft_op_case *op, const char *token, ocft_options *o, int *dtype_seen,
                       char *why, size_t capacity) {
  for (int t = 0; t < 3; t++) {
    if (strcmp(token, dtype_words[t]) || !(t == OCF_F32 || (op->dtypes & (1u << t)))) continue;
    if (!ocft_op_has_options(op)) return 1;
    if (*dtype_seen) {
      snprintf(why, capacity, "option '%s' repeats an earlier one", token);
      return -1;
    }
    *dtype_seen = 1;
    o->dtype = (ocf_dtype)t;
    return 0;
  }
  const char *eq = strchr(token, '=');
  const size_t key = eq ? (size_t)(eq - token) : strlen(token);
  for (size_t i = 0; i < op->option_count && i < OCFT_MAX_OPTIONS; i++) {
    const ocft_option *opt = &op->options[i];
    if (strlen(opt->word) != key || strncmp(opt->word, token, key)) continue;
    if ((opt->kind == OCFT_SWITCH) != !eq) return 1;
    if (o->set & (1u << i)) {
      snprintf(why, capacity, "option '%s' repeats an earlier one", token);
      return -1;
    }
    double v = 1.0;
    if (opt->kind == OCFT_NUMBER) {
      char *end = NULL;
      v = strtod(eq + 1, &end);
      if (!eq[1] || *end || !isfinite(v) || v < opt->min || v > opt->max) {
        snprintf(why, capacity, "bad option '%s': wants a finite number from %g to %g", token,
                 opt->min, opt->max);
        return -1;
      }
    } else if (opt->kind == OCFT_COUNT) {
      if (parse_count(eq + 1, &v) || v < opt->min || v > opt->max) {
        snprintf(why, capacity, "bad option '%s': wants a count from %.0f to %.0f", token, opt->min,
                 opt->max);
        return -1;
      }
    }
    o->set |= 1u << i;
    o->value[i] = v;
    return 0;
  }
  return 1;
}

void ocft_options_text(const ocft_op_case *op, const ocft_options *o, char *out, size_t capacity) {
  size_t used = 0;
  out[0] = '\0';
  if (capacity == 0) return;
  if (o->dtype != OCF_F32 && (unsigned)o->dtype < 3) {
    int w = snprintf(out, capacity, ":%s", dtype_words[o->dtype]);
    used += w > 0 ? (size_t)w : 0;
  }
  for (size_t i = 0; i < op->option_count && i < OCFT_MAX_OPTIONS && used < capacity; i++) {
    if (!(o->set & (1u << i))) continue;
    const ocft_option *opt = &op->options[i];
    int w = opt->kind == OCFT_SWITCH ? snprintf(out + used, capacity - used, ":%s", opt->word)
            : opt->kind == OCFT_COUNT
                ? snprintf(out + used, capacity - used, ":%s=%.0f", opt->word, o->value[i])
                : snprintf(out + used, capacity - used, ":%s=%g", opt->word, o->value[i]);
    used += w > 0 ? (size_t)w : 0;
  }
}

double ocft_option_value(const ocft_op_case *op, const ocft_options *o, const char *word,
                         double otherwise) {
  for (size_t i = 0; i < op->option_count && i < OCFT_MAX_OPTIONS; i++)
    if (!strcmp(op->options[i].word, word)) return o->set & (1u << i) ? o->value[i] : otherwise;
  return otherwise;
}

void ocft_options_help(const ocft_op_case *op, char *out, size_t capacity) {
  size_t used = 0;
  out[0] = '\0';
  if (!ocft_op_has_options(op) || capacity == 0) return;
  char words[32] = "f32";
  for (int t = 1; t < 3; t++)
    if (op->dtypes & (1u << t))
      snprintf(words + strlen(words), sizeof words - strlen(words), "|%s", dtype_words[t]);
  /* A name longer than the column takes a line of its own. */
  const int own_line = strlen(op->name) > 8;
  int w =
      snprintf(out, capacity, "  %s%s%-8s %-17s the storage type of its tensors\n",
               own_line ? op->name : "", own_line ? "\n  " : "", own_line ? "" : op->name, words);
  used += w > 0 ? (size_t)w : 0;
  for (size_t i = 0; i < op->option_count && used < capacity; i++) {
    const ocft_option *opt = &op->options[i];
    char word[32];
    snprintf(word, sizeof word, "%s%s", opt->word,
             opt->kind == OCFT_SWITCH  ? ""
             : opt->kind == OCFT_COUNT ? "=N"
                                       : "=X");
    w = snprintf(out + used, capacity - used, "  %-8s %-17s %s\n", "", word, opt->help);
    used += w > 0 ? (size_t)w : 0;
  }
  for (size_t a = 0; a < op->alias_count && used < capacity; a++) {
    w = snprintf(out + used, capacity - used, "  %-8s %s:SIZE is %s:SIZE%s%s\n", "",
                 op->aliases[a].name, op->name, op->aliases[a].options[0] ? ":" : "",
                 op->aliases[a].options);
    used += w > 0 ? (size_t)w : 0;
  }
}

/* ---- the call ---- */

static float *alloc_floats(size_t count) {
  return malloc((count ? count : 1) * sizeof(float));
}

static size_t dtype_bytes(ocf_dtype t) {
  return t == OCF_F32 ? sizeof(float) : sizeof(uint16_t);
}

/* The values a storage type holds (the kernels round to nearest even). */
static void round_to(ocf_dtype t, float *v, size_t count) {
  for (size_t i = 0; t != OCF_F32 && i < count; i++)
    v[i] = t == OCF_F16 ? ocf_ref_f16_to_float(ocf_ref_f16_from_float(v[i]))
                        : ocf_ref_bf16_to_float(ocf_ref_bf16_from_float(v[i]));
}

/* count values as storage type t (a fresh allocation), or NULL when out of memory. */
static void *encode(ocf_dtype t, const float *v, size_t count) {
  void *raw = malloc((count ? count : 1) * dtype_bytes(t));
  for (size_t i = 0; raw && i < count; i++) {
    if (t == OCF_F32)
      ((float *)raw)[i] = v[i];
    else
      ((uint16_t *)raw)[i] =
          t == OCF_F16 ? ocf_ref_f16_from_float(v[i]) : ocf_ref_bf16_from_float(v[i]);
  }
  return raw;
}

int ocft_call_make(ocft_call *call, const ocft_op_case *op, const size_t *d, uint64_t seed) {
  return ocft_call_make_with(call, op, d, NULL, seed);
}

int ocft_call_make_unchecked(ocft_call *call, const ocft_op_case *op, const size_t *d,
                             const ocft_options *o, uint64_t seed) {
  memset(call, 0, sizeof *call);
  call->op = op;
  if (o)
    call->options = *o;
  else
    ocft_options_init(&call->options);
  for (int i = 0; i < op->ndims; i++)
    call->d[i] = d[i];
  call->extent = op->extent(call->d, &call->options);
  for (int i = 0; i < OCFT_MAX_OPERANDS; i++) {
    if (!call->extent.in[i]) continue;
    call->in[i] = alloc_floats(call->extent.in[i]);
    if (!call->in[i]) return -1;
    ocft_fill_uniform(call->in[i], call->extent.in[i], -1.0f, 1.0f, seed + (uint64_t)i);
    round_to(call->extent.in_dtype[i], call->in[i], call->extent.in[i]);
  }
  return 0;
}

int ocft_call_make_with(ocft_call *call, const ocft_op_case *op, const size_t *d,
                        const ocft_options *o, uint64_t seed) {
  if (ocft_call_make_unchecked(call, op, d, o, seed)) return -1;
  size_t out = call->extent.out ? call->extent.out : 1;
  call->got = alloc_floats(out);
  if (!call->got) return -1;
  for (size_t i = 0; i < call->extent.out; i++)
    call->got[i] = NAN;
  const size_t rows = op->reference_rows && call->extent.out &&
                              op->work(call->d, &call->options) > OCFT_FULL_REFERENCE_WORK
                          ? op->out_rows(call->d, &call->options)
                          : 0;
  if (rows > OCFT_SAMPLED_ROWS) {
    /* Rows spread evenly over the output, the first and the last among them. */
    call->sampled_count = OCFT_SAMPLED_ROWS;
    call->row_length = call->extent.out / rows;
    call->sampled = malloc(OCFT_SAMPLED_ROWS * sizeof *call->sampled);
    if (!call->sampled) return -1;
    for (size_t r = 0; r < OCFT_SAMPLED_ROWS; r++)
      call->sampled[r] = r * (rows - 1) / (OCFT_SAMPLED_ROWS - 1);
    out = OCFT_SAMPLED_ROWS * call->row_length;
  }
  call->want = malloc(out * sizeof(double));
  call->tol = malloc(out * sizeof(double));
  if (!call->want || !call->tol) return -1;
  if (call->sampled)
    op->reference_rows(call->d, &call->options, (const float *const *)call->in, call->sampled,
                       call->sampled_count, call->want, call->tol);
  else
    op->reference(call->d, &call->options, (const float *const *)call->in, call->want, call->tol);
  return 0;
}

/* A buffer of count elements of t holding v (NULL: NaN); NULL with *err on failure. */
static cl_mem buffer_of(cl_context cl, ocf_dtype t, const float *v, size_t count, cl_int *err) {
  float *nans = NULL;
  if (!v) {
    nans = alloc_floats(count);
    for (size_t i = 0; nans && i < count; i++)
      nans[i] = NAN;
    v = nans;
  }
  void *raw = v ? encode(t, v, count) : NULL;
  cl_mem mem = NULL;
  if (!raw)
    *err = CL_OUT_OF_HOST_MEMORY;
  else
    mem = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         (count ? count : 1) * dtype_bytes(t), raw, err);
  free(raw);
  free(nans);
  return mem;
}

cl_int ocft_call_buffers(ocft_call *call, cl_context cl) {
  cl_int err = CL_SUCCESS;
  const ocft_extent *e = &call->extent;
  for (int i = 0; i < OCFT_MAX_OPERANDS && err == CL_SUCCESS; i++)
    if (e->in[i] && !call->in_mem[i])
      call->in_mem[i] = buffer_of(cl, e->in_dtype[i], call->in[i], e->in[i], &err);
  if (err == CL_SUCCESS && !call->out_mem)
    call->out_mem = buffer_of(cl, e->out_dtype, NULL, e->out ? e->out : 1, &err);
  for (int i = 0; i < OCFT_MAX_EXTRA && err == CL_SUCCESS; i++)
    if (e->extra[i] && !call->extra_mem[i])
      call->extra_mem[i] = buffer_of(cl, e->extra_dtype[i], NULL, e->extra[i], &err);
  return err;
}

ocf_status ocft_call_device(ocft_call *call, ocf_context *ctx, const ocf_launch *launch) {
  return call->op->device(ctx, call->d, &call->options, call->in_mem, call->out_mem,
                          call->extra_mem, launch);
}

ocf_status ocft_call_host(ocft_call *call, ocf_context *ctx) {
  return call->op->host(ctx, call->d, (const float *const *)call->in, call->got);
}

cl_int ocft_call_read(ocft_call *call, cl_command_queue queue, cl_event after) {
  const size_t n = call->extent.out;
  const ocf_dtype t = call->extent.out_dtype;
  if (!n) return CL_SUCCESS;
  if (t == OCF_F32)
    return clEnqueueReadBuffer(queue, call->out_mem, CL_TRUE, 0, n * sizeof(float), call->got,
                               after ? 1 : 0, after ? &after : NULL, NULL);
  uint16_t *raw = malloc(n * sizeof *raw);
  if (!raw) return CL_OUT_OF_HOST_MEMORY;
  cl_int err = clEnqueueReadBuffer(queue, call->out_mem, CL_TRUE, 0, n * sizeof *raw, raw,
                                   after ? 1 : 0, after ? &after : NULL, NULL);
  for (size_t i = 0; err == CL_SUCCESS && i < n; i++)
    call->got[i] = t == OCF_F16 ? ocf_ref_f16_to_float(raw[i]) : ocf_ref_bf16_to_float(raw[i]);
  free(raw);
  return err;
}

void ocft_call_check(const ocft_call *call, const ocf_device_info *device, ocft_check *check) {
  ocft_check_start(check);
  if (!call->sampled) {
    call->op->check(call->d, &call->options, (const float *const *)call->in, call->want, call->tol,
                    call->got, device, check);
    return;
  }
  const size_t length = call->row_length;
  for (size_t r = 0; r < call->sampled_count; r++) {
    ocft_check row;
    ocft_check_start(&row);
    ocft_check_elements(call->got + call->sampled[r] * length, call->want + r * length,
                        call->tol + r * length, length, &row);
    ocft_check_merge(check, &row, call->sampled[r] * length);
  }
}

void ocft_call_checked_text(const ocft_call *call, char *out, size_t capacity) {
  if (call->sampled)
    snprintf(out, capacity, "%zu of %zu rows (%zu outputs)", call->sampled_count,
             call->extent.out / call->row_length, call->sampled_count * call->row_length);
  else
    snprintf(out, capacity, "all %zu outputs", call->extent.out);
}

void ocft_call_free(ocft_call *call) {
  for (int i = 0; i < OCFT_MAX_OPERANDS; i++) {
    if (call->in_mem[i]) clReleaseMemObject(call->in_mem[i]);
    free(call->in[i]);
  }
  if (call->out_mem) clReleaseMemObject(call->out_mem);
  for (int i = 0; i < OCFT_MAX_EXTRA; i++)
    if (call->extra_mem[i]) clReleaseMemObject(call->extra_mem[i]);
  free(call->got);
  free(call->want);
  free(call->tol);
  free(call->sampled);
  memset(call, 0, sizeof *call);
}

size_t ocft_row_tune_shapes(const size_t (*gpu)[2][2], const size_t (*cpu)[2][2], unsigned classes,
                            unsigned shape_class, int gpu_device, size_t d[][OCFT_MAX_DIMS]) {
  if (shape_class >= classes) return 0;
  const size_t(*s)[2] = gpu_device ? gpu[shape_class] : cpu[shape_class];
  for (int i = 0; i < 2; i++)
    d[i][0] = s[i][0], d[i][1] = s[i][1];
  return 2;
}
