/*
 * The shape-and-call language of --sizes, shared by `oclfuse bench`, `tune` and `check`: one
 * parser, so that a call written for one command means the same to the others.
 *
 *   SIZES  = PART { ";" PART }
 *   PART   = OP ":" DIMS { ":" OPTION }      one call of one op, with its options
 *          | DIMS { "," DIMS }                plain sizes for every chosen op (the old list)
 *   DIMS   = N | RxC | MxNxK | BxHxLQxLKxD    each a decimal or 2^E, positive
 *
 * Options (an option given twice is an error, and so is one that does not belong to the op):
 *   every op   offset=E            the operands start E elements into their buffers
 *   softmax    f32 | f16 | bf16    the storage type of input and output (in=T, out=T: one)
 *              log                 log-softmax
 *              scale=X             softmax(X x), X finite and > 0
 *              lengths | lengths=L ragged rows: row r's valid length is random in [0, cols]
 *                                  (fixed per shape), or L for every row (above cols: cols)
 *              causal | causal=P | causal=P,O   the causal band: row r keeps its first
 *                                  (r mod P) + O + 1 columns (P rows per head, each head's first
 *                                  query at key position O); plain causal: P = rows, O = 0
 *              pad=P               row strides cols + P
 *   matmul     nn | nt | tn | tt   op(A), op(B): n as stored, t transposed
 *              f32 | f16 | bf16    the storage type of A, B, C and the bias (a=T, b=T, c=T: one)
 *              fp32 | tf32 | 3xtf32  the precision mode
 *              col                 column-major (BLAS) storage; row is the default
 *              batch=B             B products in one launch, packed (share=a or share=b: one
 *                                  A or B for the whole batch)
 *              bias=n | bias=m     a bias vector, one value per column of C (n) or per row (m)
 *              act=relu|gelu|gelu_tanh|silu   the epilogue's activation
 *              alpha=X, beta=X     C = alpha op(A) op(B) + beta C (1 and 0 by default)
 *              pad=P               every leading dimension P beyond the shortest legal one
 *   any other  the words of its op case (harness/op_<op>.c: dtypes, options, aliases), parsed by
 *              the harness (ocft_options_parse): norm and attention take f32 | f16 | bf16 and
 *              their own options (norm: rms, weight, bias, residual, stats, eps=X; attention:
 *              causal, kv=H, scale=X), and `layernorm` and `rmsnorm` name norm
 *
 * Example: 'matmul:4096x4096x4096:tn:bf16:batch=4:bias=n:act=gelu; softmax:4096x50257:bf16:log;
 * softmax:8192x1024:bf16:causal=1024; rmsnorm:8192x4096:bf16:weight:residual;
 * attention:1x32x2048x2048x128:bf16:causal:kv=8'.
 */
#include "tool.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int tool_op_count(void) {
  size_t n = ocft_op_count();
  return (int)(n < TOOL_MAX_OPS ? n : TOOL_MAX_OPS);
}

const ocft_op_case *tool_op_case(tool_op op) {
  return op >= 0 && op < tool_op_count() ? ocft_op_at((size_t)op) : NULL;
}

const char *tool_op_name(tool_op op) {
  const ocft_op_case *c = tool_op_case(op);
  return c ? c->name : "?";
}

tool_op tool_op_from_name(const char *name) {
  int op = ocft_op_index(name);
  return op < tool_op_count() ? op : -1;
}

void tool_usage_ops(FILE *out) {
  char names[160];
  ocft_op_names_text(", ", names, sizeof names);
  fprintf(out, "  --op OPS          %s or all (default), or a comma list\n", names);
}

/* "add: N; softmax: N or RxC; matmul: N or MxNxK": the sizes each op takes. */
static void dims_help(char *out, size_t capacity) {
  size_t used = 0;
  out[0] = '\0';
  for (tool_op op = 0; op < tool_op_count() && used < capacity; op++) {
    int w = snprintf(out + used, capacity - used, "%s%s: %s", op ? "; " : "", tool_op_name(op),
                     tool_op_case(op)->dims_help);
    used += w > 0 ? (size_t)w : 0;
  }
}

void tool_dims_from_n(tool_op op, size_t n, size_t *d) {
  const ocft_op_case *c = tool_op_case(op);
  if (c->from_n) {
    c->from_n(n, d);
    return;
  }
  for (int i = 0; i < c->ndims; i++)
    d[i] = n;
}

void tool_spec_init(tool_spec *s, tool_op op) {
  memset(s, 0, sizeof *s);
  s->op = op;
  s->ta = s->tb = OCF_NO_TRANS;
  s->a_dtype = s->b_dtype = s->c_dtype = OCF_F32;
  s->in_dtype = s->out_dtype = OCF_F32;
  s->precision = OCF_PRECISION_FP32;
  s->layout = OCF_ROW_MAJOR;
  s->activation = OCF_ACTIVATION_NONE;
  s->bias_axis = OCF_BIAS_NONE;
  s->alpha = 1.0f;
  s->beta = 0.0f;
  s->scale = 1.0f;
  s->batch = 1;
  ocft_options_init(&s->opts);
}

/* Copies text[0, len) into buf as a string; -1 when it does not fit. */
static int copy_token(const char *text, size_t len, char *buf, size_t capacity) {
  if (len >= capacity) return -1;
  memcpy(buf, text, len);
  buf[len] = '\0';
  return 0;
}

static int spec_error(char *err, size_t errlen, const char *fmt, const char *token,
                      const char *detail) {
  snprintf(err, errlen, fmt, token, detail);
  return -1;
}

/* N, RxC, MxNxK or BxHxLQxLKxD: 0, or -1. */
static int parse_dims(const char *text, size_t len, size_t d[OCFT_MAX_DIMS], int *ndims) {
  char buf[96];
  if (len == 0 || copy_token(text, len, buf, sizeof buf)) return -1;
  *ndims = 0;
  char *p = buf;
  for (;;) {
    char *x = strchr(p, 'x');
    if (x) *x = '\0';
    if (*ndims == OCFT_MAX_DIMS || tool_parse_size(p, &d[*ndims]) || d[*ndims] == 0) return -1;
    (*ndims)++;
    if (!x) return 0;
    p = x + 1;
  }
}

static int parse_dtype(const char *text, ocf_dtype *dtype) {
  if (!strcmp(text, "f32"))
    *dtype = OCF_F32;
  else if (!strcmp(text, "f16"))
    *dtype = OCF_F16;
  else if (!strcmp(text, "bf16"))
    *dtype = OCF_BF16;
  else
    return -1;
  return 0;
}

static int parse_float(const char *text, float *value) {
  char *end = NULL;
  if (!text[0]) return -1;
  double v = strtod(text, &end);
  if (*end || !isfinite(v) || fabs(v) > 3.0e38) return -1;
  *value = (float)v;
  return 0;
}

/* Option bits, to refuse an option given twice. */
enum {
  SEEN_DTYPE = 1 << 0,
  SEEN_A = 1 << 1,
  SEEN_B = 1 << 2,
  SEEN_C = 1 << 3,
  SEEN_TRANS = 1 << 4,
  SEEN_PRECISION = 1 << 5,
  SEEN_LAYOUT = 1 << 6,
  SEEN_BATCH = 1 << 7,
  SEEN_SHARE = 1 << 8,
  SEEN_BIAS = 1 << 9,
  SEEN_ACT = 1 << 10,
  SEEN_ALPHA = 1 << 11,
  SEEN_BETA = 1 << 12,
  SEEN_PAD = 1 << 13,
  SEEN_OFFSET = 1 << 14,
  SEEN_LOG = 1 << 15,
  SEEN_SCALE = 1 << 16,
  SEEN_LENGTHS = 1 << 17,
  SEEN_IN = 1 << 18,
  SEEN_OUT = 1 << 19,
  SEEN_CAUSAL = 1 << 20
};

/* The most a length, a causal period or a causal offset may be: kept lengths are cl_uint. */
#define MAX_SPAN ((size_t)UINT32_MAX)

/* "P" or "P,O" of causal=: 0, or -1 (not numbers, P 0, a value above MAX_SPAN). */
static int parse_causal(const char *value, size_t *period, size_t *offset) {
  char buf[64];
  const char *comma = strchr(value, ',');
  *offset = 0;
  if (copy_token(value, comma ? (size_t)(comma - value) : strlen(value), buf, sizeof buf) ||
      tool_parse_size(buf, period) || *period == 0 || *period > MAX_SPAN)
    return -1;
  return comma && (tool_parse_size(comma + 1, offset) || *offset > MAX_SPAN) ? -1 : 0;
}

/* One OPTION of the op's call; 0, or -1 with err naming the token. */
static int parse_option(tool_spec *s, const char *token, unsigned *seen, char *err, size_t errlen) {
  const char *eq = strchr(token, '=');
  char key[32];
  const char *value = eq ? eq + 1 : NULL;
  if (copy_token(token, eq ? (size_t)(eq - token) : strlen(token), key, sizeof key))
    return spec_error(err, errlen, "unknown option '%s'%s", token, "");
#define ONCE(bit)                                                                        \
  do {                                                                                   \
    if (*seen & (bit))                                                                   \
      return spec_error(err, errlen, "option '%s' repeats an earlier one%s", token, ""); \
    *seen |= (bit);                                                                      \
  } while (0)
#define BAD_VALUE(why) return spec_error(err, errlen, "bad option '%s': %s", token, why)
  const int sm = s->op == TOOL_OP_SOFTMAX, mm = s->op == TOOL_OP_MATMUL;
  ocf_dtype dtype;
  size_t count = 0;
  if (!strcmp(key, "offset") && value) {
    ONCE(SEEN_OFFSET);
    if (tool_parse_size(value, &count) || count > ((size_t)1 << 30))
      BAD_VALUE("wants a number of elements up to 2^30");
    s->offset = count;
  } else if (!strcmp(key, "pad") && value && (sm || mm)) {
    ONCE(SEEN_PAD);
    if (tool_parse_size(value, &count) || count > ((size_t)1 << 20))
      BAD_VALUE("wants a number of elements up to 2^20");
    s->pad = count;
  } else if (!value && (sm || mm) && !parse_dtype(key, &dtype)) {
    ONCE(SEEN_DTYPE);
    s->a_dtype = s->b_dtype = s->c_dtype = s->in_dtype = s->out_dtype = dtype;
  } else if (sm && value && (!strcmp(key, "in") || !strcmp(key, "out"))) {
    ONCE(key[0] == 'i' ? SEEN_IN : SEEN_OUT);
    if (parse_dtype(value, key[0] == 'i' ? &s->in_dtype : &s->out_dtype))
      BAD_VALUE("wants f32, f16 or bf16");
  } else if (sm && !value && !strcmp(key, "log")) {
    ONCE(SEEN_LOG);
    s->log = 1;
  } else if (sm && value && !strcmp(key, "scale")) {
    ONCE(SEEN_SCALE);
    if (parse_float(value, &s->scale) || !(s->scale > 0.0f))
      BAD_VALUE("wants a finite number above 0");
  } else if (sm && !strcmp(key, "lengths")) {
    ONCE(SEEN_LENGTHS);
    s->lengths = 1;
    if (value) {
      if (tool_parse_size(value, &s->length) || s->length > MAX_SPAN)
        BAD_VALUE("wants a length from 0 to 2^32 - 1 (above cols counts as cols)");
      s->lengths = 2;
    }
  } else if (sm && !strcmp(key, "causal")) {
    ONCE(SEEN_CAUSAL);
    s->causal = 1;
    if (value && parse_causal(value, &s->causal_period, &s->causal_offset))
      BAD_VALUE("wants P or P,O: rows per head P from 1, key offset O from 0 (each up to "
                "2^32 - 1)");
  } else if (mm && !value &&
             (!strcmp(key, "nn") || !strcmp(key, "nt") || !strcmp(key, "tn") ||
              !strcmp(key, "tt"))) {
    ONCE(SEEN_TRANS);
    s->ta = key[0] == 't' ? OCF_TRANS : OCF_NO_TRANS;
    s->tb = key[1] == 't' ? OCF_TRANS : OCF_NO_TRANS;
  } else if (mm && value && (!strcmp(key, "a") || !strcmp(key, "b") || !strcmp(key, "c"))) {
    ONCE(key[0] == 'a' ? SEEN_A : key[0] == 'b' ? SEEN_B : SEEN_C);
    if (parse_dtype(value, key[0] == 'a' ? &s->a_dtype : key[0] == 'b' ? &s->b_dtype : &s->c_dtype))
      BAD_VALUE("wants f32, f16 or bf16");
  } else if (mm && !value &&
             (!strcmp(key, "fp32") || !strcmp(key, "tf32") || !strcmp(key, "3xtf32"))) {
    ONCE(SEEN_PRECISION);
    s->precision = key[0] == 'f'   ? OCF_PRECISION_FP32
                   : key[0] == 't' ? OCF_PRECISION_TF32
                                   : OCF_PRECISION_3XTF32;
  } else if (mm && !value && (!strcmp(key, "col") || !strcmp(key, "row"))) {
    ONCE(SEEN_LAYOUT);
    s->layout = key[0] == 'c' ? OCF_COL_MAJOR : OCF_ROW_MAJOR;
  } else if (mm && value && !strcmp(key, "batch")) {
    ONCE(SEEN_BATCH);
    if (tool_parse_size(value, &count) || count == 0 || count > 65536)
      BAD_VALUE("wants a count from 1 to 65536");
    s->batch = count;
  } else if (mm && value && !strcmp(key, "share")) {
    ONCE(SEEN_SHARE);
    if (!strcmp(value, "a"))
      s->share_a = 1;
    else if (!strcmp(value, "b"))
      s->share_b = 1;
    else
      BAD_VALUE("wants a or b (the operand one matrix serves the whole batch)");
  } else if (mm && value && !strcmp(key, "bias")) {
    ONCE(SEEN_BIAS);
    if (!strcmp(value, "n"))
      s->bias_axis = OCF_BIAS_N;
    else if (!strcmp(value, "m"))
      s->bias_axis = OCF_BIAS_M;
    else
      BAD_VALUE("wants n (one value per column of C) or m (one per row)");
  } else if (mm && value && !strcmp(key, "act")) {
    ONCE(SEEN_ACT);
    if (!strcmp(value, "none"))
      s->activation = OCF_ACTIVATION_NONE;
    else if (!strcmp(value, "relu"))
      s->activation = OCF_ACTIVATION_RELU;
    else if (!strcmp(value, "gelu"))
      s->activation = OCF_ACTIVATION_GELU_ERF;
    else if (!strcmp(value, "gelu_tanh"))
      s->activation = OCF_ACTIVATION_GELU_TANH;
    else if (!strcmp(value, "silu"))
      s->activation = OCF_ACTIVATION_SILU;
    else
      BAD_VALUE("wants none, relu, gelu, gelu_tanh or silu");
  } else if (mm && value && (!strcmp(key, "alpha") || !strcmp(key, "beta"))) {
    ONCE(key[1] == 'l' ? SEEN_ALPHA : SEEN_BETA);
    if (parse_float(value, key[1] == 'l' ? &s->alpha : &s->beta))
      BAD_VALUE("wants a finite number");
  } else {
    /* The op case's own words (harness/op_cases.h). */
    char why[160];
    int dtype_seen = (*seen & SEEN_DTYPE) != 0;
    int r = ocft_options_parse(tool_op_case(s->op), token, &s->opts, &dtype_seen, why, sizeof why);
    if (r < 0) return spec_error(err, errlen, "%s%s", why, "");
    if (r > 0)
      return spec_error(err, errlen, "unknown option '%s' for %s (see --help)", token,
                        tool_op_name(s->op));
    if (dtype_seen) *seen |= SEEN_DTYPE;
  }
#undef ONCE
#undef BAD_VALUE
  return 0;
}

/* The checks that need every option: 0 or -1 (err names the part). */
static int spec_validate(const tool_spec *s, const char *part, char *err, size_t errlen) {
  if (s->share_a + s->share_b && s->batch < 2)
    return spec_error(err, errlen, "'%s': share= needs batch= above 1%s", part, "");
  const ocft_op_case *c = tool_op_case(s->op);
  char why[160];
  if (c->validate && c->validate(s->d, &s->opts, why, sizeof why))
    return spec_error(err, errlen, "'%s': %s", part, why);
  return 0;
}

int tool_spec_parse_call(const char *text, size_t len, tool_spec *s, char *err, size_t errlen) {
  char part[256];
  if (copy_token(text, len, part, sizeof part)) {
    snprintf(err, errlen, "'%.40s...' is too long", text);
    return -1;
  }
  char *colon = strchr(part, ':');
  if (!colon) return spec_error(err, errlen, "'%s' names no op%s", part, "");
  *colon = '\0';
  tool_op op = tool_op_from_name(part);
  ocft_options preset;
  ocft_options_init(&preset);
  if (op < 0) {
    /* Another name of an op, with its options preset ("rmsnorm": norm with rms). */
    const ocft_op_case *alias = ocft_op_alias(part, &preset);
    op = alias ? tool_op_from_name(alias->name) : -1;
  }
  if (op < 0) {
    char names[160];
    ocft_op_names_text(" or ", names, sizeof names);
    return spec_error(err, errlen, "unknown op '%s' (%s)", part, names);
  }
  *colon = ':';
  tool_spec_init(s, op);
  s->opts = preset;
  char *dims = colon + 1;
  size_t dims_len = strcspn(dims, ":");
  char dims_text[96];
  if (copy_token(dims, dims_len, dims_text, sizeof dims_text) ||
      parse_dims(dims, dims_len, s->d, &s->ndims))
    return spec_error(err, errlen,
                      "bad size '%s' (want N, 2^E, RxC, MxNxK or BxHxLQxLKxD, all positive)%s",
                      dims_len < sizeof dims_text ? dims_text : dims, "");
  int want = tool_op_case(op)->ndims;
  if (s->ndims != want && s->ndims != 1) {
    char help[256];
    dims_help(help, sizeof help);
    snprintf(err, errlen, "size '%s' does not fit %s (%s)", dims_text, tool_op_name(op), help);
    return -1;
  }
  if (s->ndims == 1) tool_dims_from_n(op, s->d[0], s->d);
  s->ndims = want;
  unsigned seen = 0;
  char *p = dims + dims_len;
  while (*p == ':') {
    p++;
    size_t n = strcspn(p, ":");
    char token[64];
    if (n == 0) return spec_error(err, errlen, "empty option in '%s'%s", part, "");
    if (copy_token(p, n, token, sizeof token))
      return spec_error(err, errlen, "option too long in '%s'%s", part, "");
    if (parse_option(s, token, &seen, err, errlen)) return -1;
    p += n;
  }
  return spec_validate(s, part, err, errlen);
}

int tool_spec_plain(const tool_spec *s) {
  tool_spec plain;
  tool_spec_init(&plain, s->op);
  memcpy(plain.d, s->d, sizeof plain.d);
  plain.ndims = s->ndims;
  return !memcmp(&plain, s, sizeof plain);
}

int tool_spec_case_call(const tool_spec *s) {
  tool_spec own = *s;
  ocft_options_init(&own.opts);
  return tool_spec_plain(&own);
}

ocf_dtype tool_spec_dtype(const tool_spec *s) {
  return s->op == TOOL_OP_MATMUL    ? s->a_dtype
         : s->op == TOOL_OP_SOFTMAX ? s->in_dtype
                                    : s->opts.dtype;
}

static const char *dtype_token(ocf_dtype t) {
  return t == OCF_F16 ? "f16" : t == OCF_BF16 ? "bf16" : "f32";
}

void tool_spec_options_text(const tool_spec *s, char *out, size_t capacity) {
  size_t used = 0;
  out[0] = '\0';
#define ADD(...)                                                  \
  do {                                                            \
    if (used < capacity) {                                        \
      int w = snprintf(out + used, capacity - used, __VA_ARGS__); \
      used += w > 0 ? (size_t)w : 0;                              \
    }                                                             \
  } while (0)
  if (s->op == TOOL_OP_MATMUL) {
    if (s->ta || s->tb) ADD(":%c%c", s->ta ? 't' : 'n', s->tb ? 't' : 'n');
    if (s->a_dtype == s->b_dtype && s->b_dtype == s->c_dtype) {
      if (s->a_dtype != OCF_F32) ADD(":%s", dtype_token(s->a_dtype));
    } else {
      ADD(":a=%s:b=%s:c=%s", dtype_token(s->a_dtype), dtype_token(s->b_dtype),
          dtype_token(s->c_dtype));
    }
    if (s->precision == OCF_PRECISION_TF32) ADD(":tf32");
    if (s->precision == OCF_PRECISION_3XTF32) ADD(":3xtf32");
    if (s->layout == OCF_COL_MAJOR) ADD(":col");
    if (s->batch > 1) ADD(":batch=%zu", s->batch);
    if (s->share_a) ADD(":share=a");
    if (s->share_b) ADD(":share=b");
    if (s->bias_axis) ADD(":bias=%c", s->bias_axis == OCF_BIAS_N ? 'n' : 'm');
    static const char *const acts[] = {"none", "relu", "gelu", "gelu_tanh", "silu"};
    if (s->activation) ADD(":act=%s", acts[s->activation]);
    if (s->alpha != 1.0f) ADD(":alpha=%g", (double)s->alpha);
    if (s->beta != 0.0f) ADD(":beta=%g", (double)s->beta);
  } else if (s->op == TOOL_OP_SOFTMAX) {
    if (s->in_dtype == s->out_dtype) {
      if (s->in_dtype != OCF_F32) ADD(":%s", dtype_token(s->in_dtype));
    } else {
      ADD(":in=%s:out=%s", dtype_token(s->in_dtype), dtype_token(s->out_dtype));
    }
    if (s->log) ADD(":log");
    if (s->scale != 1.0f) ADD(":scale=%g", (double)s->scale);
    if (s->lengths == 1) ADD(":lengths");
    if (s->lengths == 2) ADD(":lengths=%zu", s->length);
    if (s->causal && !s->causal_period) ADD(":causal");
    if (s->causal && s->causal_period && !s->causal_offset) ADD(":causal=%zu", s->causal_period);
    if (s->causal && s->causal_offset) ADD(":causal=%zu,%zu", s->causal_period, s->causal_offset);
  }
  if (used < capacity)
    ocft_options_text(tool_op_case(s->op), &s->opts, out + used, capacity - used);
  used += strlen(out + used);
  if (s->pad) ADD(":pad=%zu", s->pad);
  if (s->offset) ADD(":offset=%zu", s->offset);
#undef ADD
}

void tool_spec_text(const tool_spec *s, char *out, size_t capacity) {
  char options[160], shape[96];
  tool_spec_options_text(s, options, sizeof options);
  tool_op_case(s->op)->shape_text(s->d, shape, sizeof shape);
  snprintf(out, capacity, "%s%s", shape, options);
}

static int push(tool_spec_list *list, const tool_spec *s, char *err, size_t errlen) {
  if (list->count == TOOL_MAX_SPECS) {
    snprintf(err, errlen, "more than %d calls", TOOL_MAX_SPECS);
    return -1;
  }
  list->specs[list->count++] = *s;
  return 0;
}

/* A PART without an op: plain sizes for every chosen op. */
static int parse_plain(const char *text, size_t len, const int ops[TOOL_MAX_OPS],
                       tool_spec_list *list, char *err, size_t errlen) {
  const char *p = text, *end = text + len;
  for (;;) {
    size_t n = strcspn(p, ",;");
    if (p + n > end) n = (size_t)(end - p);
    size_t d[OCFT_MAX_DIMS];
    int ndims = 0;
    char item[96];
    if (copy_token(p, n, item, sizeof item)) snprintf(item, sizeof item, "%.60s...", p);
    if (parse_dims(p, n, d, &ndims)) {
      snprintf(err, errlen,
               "bad size '%s' (want N, 2^E, RxC, MxNxK or BxHxLQxLKxD, all positive, or "
               "OP:SIZE:OPTIONS)",
               item);
      return -1;
    }
    int used = 0;
    for (tool_op op = 0; op < tool_op_count(); op++) {
      if (!ops[op]) continue;
      int want = tool_op_case(op)->ndims;
      if (ndims != 1 && ndims != want) continue;
      tool_spec s;
      tool_spec_init(&s, op);
      if (ndims == 1)
        tool_dims_from_n(op, d[0], s.d);
      else
        memcpy(s.d, d, sizeof s.d);
      s.ndims = want;
      if (push(list, &s, err, errlen)) return -1;
      used = 1;
    }
    if (!used) {
      char help[256];
      dims_help(help, sizeof help);
      snprintf(err, errlen, "size '%s' fits none of the chosen ops (%s)", item, help);
      return -1;
    }
    p += n;
    if (p >= end) return 0;
    p++; /* the comma */
  }
}

int tool_specs_parse(const char *text, const int ops[TOOL_MAX_OPS], tool_spec_list *list, char *err,
                     size_t errlen) {
  list->count = 0;
  const char *p = text;
  for (;;) {
    while (*p == ' ')
      p++;
    size_t len = strcspn(p, ";");
    while (len && p[len - 1] == ' ')
      len--;
    if (len == 0) {
      snprintf(err, errlen, "an empty item in '%s'", text);
      return -1;
    }
    const char *colon = memchr(p, ':', len);
    if (colon) {
      tool_spec s;
      if (tool_spec_parse_call(p, len, &s, err, errlen)) return -1;
      if (!ops[s.op]) {
        snprintf(err, errlen, "'%.*s' is a call of %s, which --op leaves out", (int)len, p,
                 tool_op_name(s.op));
        return -1;
      }
      if (push(list, &s, err, errlen)) return -1;
    } else if (parse_plain(p, len, ops, list, err, errlen)) {
      return -1;
    }
    p += strcspn(p, ";");
    if (!*p) return 0;
    p++;
  }
}

size_t tool_specs_of(const tool_spec_list *list, tool_op op, tool_spec *out, size_t capacity) {
  size_t n = 0;
  for (size_t i = 0; i < list->count && n < capacity; i++)
    if (list->specs[i].op == op) out[n++] = list->specs[i];
  return n;
}

int tool_default_specs(tool_op op, int gpu, tool_spec *out, size_t capacity, char *err,
                       size_t errlen) {
  const ocft_op_case *c = tool_op_case(op);
  const ocft_shapes *shapes = gpu ? &c->bench_gpu : &c->bench_cpu;
  size_t n = 0;
  for (size_t i = 0; i < shapes->count && n < capacity; i++) {
    tool_spec_init(&out[n], op);
    memcpy(out[n].d, shapes->d[i], sizeof out[n].d);
    out[n++].ndims = c->ndims;
  }
  const char *calls = gpu ? c->bench_gpu_calls : c->bench_cpu_calls;
  if (!calls) return (int)n;
  static tool_spec_list list; /* large: off the stack */
  int only[TOOL_MAX_OPS] = {0};
  only[op] = 1;
  if (tool_specs_parse(calls, only, &list, err, errlen)) return -1;
  return (int)(n + tool_specs_of(&list, op, out + n, capacity - n));
}

void tool_usage_sizes(FILE *out) {
  fputs("The --sizes language (bench, tune and check): calls separated by ';', each\n"
        "  OP:SIZE[:OPTION...]  one call of an op with its options, or\n"
        "  SIZE[,SIZE...]       plain calls of every chosen op (--op) that the size fits\n"
        "A SIZE is N (add n=N, softmax NxN, matmul NxNxN), RxC (softmax, norm), MxNxK (matmul,\n"
        "C is m x n) or BxHxLQxLKxD (attention: batch, heads, queries, keys, head dim), each a\n"
        "decimal or 2^E. An option given twice, or one the op does not\n"
        "have, is an error naming it. Options:\n"
        "  any op   offset=E          operands start E elements into their buffers\n"
        "  softmax  f32|f16|bf16      storage type of in and out (in=T, out=T: just one)\n"
        "           log               log-softmax        scale=X   softmax(X x), X > 0\n"
        "           lengths           random row lengths in [0, cols] (lengths=L: all L;\n"
        "                             above cols counts as cols)\n"
        "           causal            the causal band: row r keeps its first r + 1 columns\n"
        "           causal=P[,O]      heads of P rows, each head's first row at key O: row r\n"
        "                             keeps (r mod P) + O + 1 columns (O = cols - P: each\n"
        "                             head's last row keeps all); with lengths, the shorter\n"
        "           pad=P             row strides cols + P\n"
        "  matmul   nn|nt|tn|tt       op(A), op(B): n as stored, t transposed\n"
        "           f32|f16|bf16      storage type of A, B, C and the bias (a=T, b=T, c=T)\n"
        "           fp32|tf32|3xtf32  precision mode     col       column-major (BLAS) storage\n"
        "           batch=B           B packed products in one launch (share=a|b: one A or B)\n"
        "           bias=n|m          a bias per column (n) or per row (m) of C\n"
        "           act=relu|gelu|gelu_tanh|silu        the epilogue's activation\n"
        "           alpha=X beta=X    C = alpha op(A) op(B) + beta C (default 1 and 0)\n"
        "           pad=P             leading dimensions P beyond the shortest legal one\n",
        out);
  for (tool_op op = 0; op < tool_op_count(); op++) {
    char lines[1536];
    ocft_options_help(tool_op_case(op), lines, sizeof lines);
    fputs(lines, out);
  }
  fputs("Example: --sizes 'matmul:4096x4096x4096:tn:bf16:batch=4:bias=n:act=gelu;\n"
        "                  softmax:4096x50257:bf16:log; softmax:8192x1024:causal=1024;\n"
        "                  layernorm:8192x4096:bf16:residual:weight:bias;\n"
        "                  attention:1x32x2048x2048x128:bf16:causal:kv=8;\n"
        "                  2^20'\n",
        out);
}
