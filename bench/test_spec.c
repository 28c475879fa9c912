/*
 * The --sizes language (bench/spec.c) without a device: every option reaches its field, the text
 * written back parses to the same call, and each kind of bad spec is refused with an error that
 * names the offending token. Plain C: prints one line per failure, exits 1 if any.
 *   Usage: oclfuse_spec_test
 */
#include "tool.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define EXPECT(cond)                                         \
  do {                                                       \
    if (!(cond)) {                                           \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                            \
    }                                                        \
  } while (0)

static int all_ops[TOOL_MAX_OPS]; /* every op of the table (main sets them) */

/* Parses text, which must be valid, into list. */
static void parse_ok(const char *text, const int ops[TOOL_MAX_OPS], tool_spec_list *list) {
  char err[256] = "";
  if (tool_specs_parse(text, ops, list, err, sizeof err)) {
    printf("FAIL: '%s' refused: %s\n", text, err);
    failures++;
    list->count = 0;
  }
}

/* text must be refused with an error containing `token`. */
static void parse_bad(const char *text, const char *token) {
  static tool_spec_list list;
  char err[256] = "";
  if (!tool_specs_parse(text, all_ops, &list, err, sizeof err)) {
    printf("FAIL: '%s' accepted\n", text);
    failures++;
  } else if (!strstr(err, token)) {
    printf("FAIL: '%s': the error '%s' does not name '%s'\n", text, err, token);
    failures++;
  }
}

static void test_matmul_options(void) {
  static tool_spec_list list;
  parse_ok("matmul:4096x1024x512:tn:bf16:batch=4:bias=n:act=gelu:tf32:col:alpha=2:beta=0.5:"
           "pad=3:offset=7",
           all_ops, &list);
  EXPECT(list.count == 1);
  const tool_spec *s = &list.specs[0];
  EXPECT(s->op == TOOL_OP_MATMUL);
  EXPECT(s->d[0] == 4096 && s->d[1] == 1024 && s->d[2] == 512 && s->ndims == 3);
  EXPECT(s->ta == OCF_TRANS && s->tb == OCF_NO_TRANS);
  EXPECT(s->a_dtype == OCF_BF16 && s->b_dtype == OCF_BF16 && s->c_dtype == OCF_BF16);
  EXPECT(s->batch == 4 && !s->share_a && !s->share_b);
  EXPECT(s->bias_axis == OCF_BIAS_N && s->activation == OCF_ACTIVATION_GELU_ERF);
  EXPECT(s->precision == OCF_PRECISION_TF32 && s->layout == OCF_COL_MAJOR);
  EXPECT(s->alpha == 2.0f && s->beta == 0.5f && s->pad == 3 && s->offset == 7);
  EXPECT(!tool_spec_plain(s));

  parse_ok("matmul:64:a=f16:b=bf16:c=f32:3xtf32:share=b:batch=2:bias=m:act=gelu_tanh", all_ops,
           &list);
  s = &list.specs[0];
  EXPECT(s->d[0] == 64 && s->d[1] == 64 && s->d[2] == 64);
  EXPECT(s->a_dtype == OCF_F16 && s->b_dtype == OCF_BF16 && s->c_dtype == OCF_F32);
  EXPECT(s->precision == OCF_PRECISION_3XTF32 && s->share_b && s->bias_axis == OCF_BIAS_M);
  EXPECT(s->activation == OCF_ACTIVATION_GELU_TANH);
}

static void test_softmax_and_add(void) {
  static tool_spec_list list;
  parse_ok("softmax:4096x50257:bf16:log:scale=0.125:lengths=100:pad=1; add:2^20:offset=1", all_ops,
           &list);
  EXPECT(list.count == 2);
  const tool_spec *s = &list.specs[0];
  EXPECT(s->op == TOOL_OP_SOFTMAX && s->d[0] == 4096 && s->d[1] == 50257);
  EXPECT(s->in_dtype == OCF_BF16 && s->out_dtype == OCF_BF16 && s->log);
  EXPECT(s->scale == 0.125f && s->lengths == 2 && s->length == 100 && s->pad == 1);
  EXPECT(list.specs[1].op == TOOL_OP_ADD && list.specs[1].d[0] == ((size_t)1 << 20));
  EXPECT(list.specs[1].offset == 1);
  parse_ok("softmax:8x9:in=f16:out=f32:lengths", all_ops, &list);
  s = &list.specs[0];
  EXPECT(s->in_dtype == OCF_F16 && s->out_dtype == OCF_F32 && s->lengths == 1);
  /* A length above cols is legal (the library counts it as cols). */
  parse_ok("softmax:64x64:lengths=65", all_ops, &list);
  EXPECT(list.count == 1 && list.specs[0].lengths == 2 && list.specs[0].length == 65);
}

/* causal: one head of every row; causal=P: heads of P rows; causal=P,O: each head's first row
   at key position O. */
static void test_causal(void) {
  static tool_spec_list list;
  parse_ok("softmax:64x100:causal; softmax:64x100:causal=16; softmax:64x100:log:causal=16,84:"
           "lengths; softmax:8:causal=2^4,0",
           all_ops, &list);
  EXPECT(list.count == 4);
  const tool_spec *s = &list.specs[0];
  EXPECT(s->causal && s->causal_period == 0 && s->causal_offset == 0 && !tool_spec_plain(s));
  s = &list.specs[1];
  EXPECT(s->causal && s->causal_period == 16 && s->causal_offset == 0);
  s = &list.specs[2];
  EXPECT(s->causal && s->causal_period == 16 && s->causal_offset == 84 && s->log && s->lengths);
  s = &list.specs[3];
  EXPECT(s->causal && s->causal_period == 16 && s->causal_offset == 0);
  char text[256];
  tool_spec_text(&list.specs[0], text, sizeof text);
  EXPECT(!strcmp(text, "64x100:causal"));
  tool_spec_text(&list.specs[2], text, sizeof text);
  EXPECT(!strcmp(text, "64x100:log:lengths:causal=16,84"));
  tool_spec_text(&list.specs[3], text, sizeof text);
  EXPECT(!strcmp(text, "8x8:causal=16"));
}

/* Plain sizes go to every chosen op they fit, as the old comma list did (the first three ops
   chosen, so that a later op of the table changes nothing here). */
static void test_plain_sizes(void) {
  static tool_spec_list list;
  int ops[TOOL_MAX_OPS] = {1, 1, 1}; /* add, softmax, matmul and attention (norm takes RxC too) */
  ops[ocft_op_index("attention")] = 1;
  parse_ok("300,64x300,100x90x70,2x4x10x20x64", ops, &list);
  /* 300: add, softmax, matmul, attention (its case's shape of one number: 1x1x300x300x64);
     64x300: softmax; 100x90x70: matmul; 2x4x10x20x64: attention. */
  EXPECT(list.count == 7);
  EXPECT(list.specs[0].op == TOOL_OP_ADD && list.specs[0].d[0] == 300);
  EXPECT(list.specs[1].op == TOOL_OP_SOFTMAX && list.specs[1].d[1] == 300);
  EXPECT(list.specs[2].op == TOOL_OP_MATMUL && list.specs[2].d[2] == 300);
  EXPECT(!strcmp(tool_op_case(list.specs[3].op)->name, "attention") && list.specs[3].d[0] == 1 &&
         list.specs[3].d[1] == 1 && list.specs[3].d[2] == 300 && list.specs[3].d[3] == 300 &&
         list.specs[3].d[4] == 64);
  EXPECT(list.specs[4].op == TOOL_OP_SOFTMAX && list.specs[4].d[0] == 64);
  EXPECT(list.specs[5].op == TOOL_OP_MATMUL && list.specs[5].d[1] == 90);
  EXPECT(list.specs[6].op == list.specs[3].op && list.specs[6].d[0] == 2 &&
         list.specs[6].d[3] == 20 && list.specs[6].d[4] == 64 && list.specs[6].ndims == 5);
  for (size_t i = 0; i < list.count; i++)
    EXPECT(tool_spec_plain(&list.specs[i]));
  const int matmul_only[TOOL_MAX_OPS] = {0, 0, 1};
  parse_ok("128; matmul:64x64x64:nt", matmul_only, &list);
  EXPECT(list.count == 2 && list.specs[0].op == TOOL_OP_MATMUL && list.specs[1].tb);
}

/* An op case's own words (harness/op_cases.h: norm, attention): its storage type, its options,
   its aliases; the tool names none of them. */
static void test_case_options(void) {
  static tool_spec_list list;
  const tool_op norm = tool_op_from_name("norm"), attention = tool_op_from_name("attention");
  EXPECT(norm >= 0 && attention >= 0);
  parse_ok("layernorm:8192x4096:bf16:residual; rmsnorm:64x1000:f16:weight:eps=1e-3;"
           "attention:1x32x2048x2048x128:bf16:causal:kv=8; norm:10:stats",
           all_ops, &list);
  EXPECT(list.count == 4);
  const tool_spec *s = &list.specs[0];
  EXPECT(s->op == norm && s->d[0] == 8192 && s->d[1] == 4096 && s->opts.dtype == OCF_BF16);
  EXPECT(tool_spec_dtype(s) == OCF_BF16 && !tool_spec_plain(s) && tool_spec_case_call(s));
  char text[256];
  tool_spec_text(s, text, sizeof text);
  EXPECT(!strcmp(text, "8192x4096:bf16:residual"));
  tool_spec_text(&list.specs[1], text, sizeof text);
  EXPECT(!strcmp(text, "64x1000:f16:rms:weight:eps=0.001"));
  EXPECT(list.specs[2].op == attention && tool_spec_dtype(&list.specs[2]) == OCF_BF16);
  tool_spec_text(&list.specs[2], text, sizeof text);
  EXPECT(!strcmp(text, "1x32x2048x2048x128:bf16:causal:kv=8"));
  tool_spec_text(&list.specs[3], text, sizeof text);
  EXPECT(!strcmp(text, "10x10:stats") && tool_spec_dtype(&list.specs[3]) == OCF_F32);
  /* offset= is the tool's own: parsed, and the case's call is no longer the one made */
  parse_ok("norm:10x10:bf16:offset=3", all_ops, &list);
  EXPECT(list.count == 1 && !tool_spec_case_call(&list.specs[0]));
  /* matmul's and softmax's key types stay their own fields' */
  parse_ok("matmul:8x8x8:a=f16:b=bf16:c=f32; softmax:8x8:in=bf16:out=f32", all_ops, &list);
  EXPECT(tool_spec_dtype(&list.specs[0]) == OCF_F16 && tool_spec_dtype(&list.specs[1]) == OCF_BF16);
}

/* Written back, a call parses to the same call. */
static void test_round_trip(void) {
  static const char *const calls[] = {
      "matmul:4096x1024x512:tn:bf16:tf32:col:batch=4:bias=n:act=gelu:alpha=2:beta=0.5:pad=3",
      "matmul:7x5x3:a=f16:b=bf16:c=f32:batch=3:share=a:act=silu:offset=9",
      "softmax:10x20:in=bf16:out=f16:log:scale=2:lengths",
      "softmax:10x20:f16:lengths=4",
      "softmax:10x20:causal",
      "softmax:10x20:bf16:lengths=30:causal=5",
      "softmax:10x20:log:causal=5,15:pad=2:offset=3",
      "add:77:offset=2",
      "norm:10x20:f16:rms:weight:residual:stats:eps=0.5",
      "rmsnorm:10x20:bf16",
      "attention:2x4x8x9x16:bf16:causal:kv=2:scale=0.25"};
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    static tool_spec_list first, again;
    parse_ok(calls[i], all_ops, &first);
    char text[256], call[300];
    tool_spec_text(&first.specs[0], text, sizeof text);
    const char *body = strncmp(text, "n=", 2) ? text : text + 2;
    snprintf(call, sizeof call, "%s:%s", tool_op_name(first.specs[0].op), body);
    parse_ok(call, all_ops, &again);
    char text_again[256];
    tool_spec_text(&again.specs[0], text_again, sizeof text_again);
    EXPECT(again.count == 1 && !strcmp(text, text_again));
    if (strcmp(text, text_again)) printf("  '%s' became '%s'\n", text, text_again);
  }
}

static void test_refusals(void) {
  parse_bad("matmul:64x64x64:bogus", "'bogus'");
  parse_bad("matmul:64x64x64:tn:nt", "'nt'"); /* twice */
  parse_bad("matmul:64x64x64:batch=0", "'batch=0'");
  parse_bad("matmul:64x64x64:bias=row", "'bias=row'"); /* n or m: which way is a "row"? */
  parse_bad("matmul:64x64x64:act=tanh", "'act=tanh'");
  parse_bad("matmul:64x64x64:alpha=x", "'alpha=x'");
  parse_bad("matmul:64x64x64:share=a", "share="); /* without a batch */
  parse_bad("matmul:64x64:tn", "'64x64'");        /* softmax's size */
  parse_bad("matmul:64x0x3", "'64x0x3'");
  parse_bad("softmax:64x64:log:log", "'log'");
  parse_bad("softmax:64x64:tn", "'tn'"); /* a matmul option */
  parse_bad("softmax:64x64:scale=0", "'scale=0'");
  parse_bad("softmax:64x64:scale=inf", "'scale=inf'");
  parse_bad("softmax:64x64:lengths=x", "'lengths=x'");
  parse_bad("softmax:64x64:lengths=2^32", "'lengths=2^32'"); /* above a cl_uint */
  parse_bad("softmax:64x64:causal=0", "'causal=0'");
  parse_bad("softmax:64x64:causal=0,4", "'causal=0,4'");
  parse_bad("softmax:64x64:causal=x", "'causal=x'");
  parse_bad("softmax:64x64:causal=", "'causal='");
  parse_bad("softmax:64x64:causal=4,", "'causal=4,'");
  parse_bad("softmax:64x64:causal=,4", "'causal=,4'");
  parse_bad("softmax:64x64:causal=4,-1", "'causal=4,-1'");
  parse_bad("softmax:64x64:causal=4,2,1", "'causal=4,2,1'");
  parse_bad("softmax:64x64:causal=2^32", "'causal=2^32'");
  parse_bad("softmax:64x64:causal:causal=4", "'causal=4'"); /* twice */
  parse_bad("matmul:64x64x64:causal", "'causal'");
  parse_bad("add:100:causal=4", "'causal=4'");
  parse_bad("add:100:bf16", "'bf16'"); /* add is fp32 only */
  parse_bad("conv:3x3", "'conv'");
  parse_bad("matmul:64x64x64:", "empty option");
  parse_bad("12,x", "'x'");
  parse_bad("64x64x64x64", "'64x64x64x64'");
  parse_bad("300;;400", "empty item");
  parse_bad("norm:64x64:bf16:f16", "'f16'"); /* a second storage type */
  parse_bad("norm:64x64:residual:residual", "'residual'");
  parse_bad("norm:64x64:eps=2", "'eps=2'");
  parse_bad("norm:64x64:eps", "'eps'"); /* a number wanted */
  parse_bad("norm:64x64:residual=1", "'residual=1'");
  parse_bad("rmsnorm:64x64:bias", "bias is LayerNorm's");
  parse_bad("norm:64x64:causal", "'causal'"); /* attention's */
  parse_bad("norm:64x64:log", "'log'");       /* softmax's */
  parse_bad("attention:1x4x8x8x16:kv=3", "kv=3 does not divide");
  parse_bad("attention:1x4x8x8x16:kv=0", "'kv=0'");
  parse_bad("attention:1x4x8x8x16:scale=x", "'scale=x'");
  parse_bad("layernorm:1x4x8x8x16", "'1x4x8x8x16'");
  static tool_spec_list list;
  char err[256] = "";
  const int add_only[TOOL_MAX_OPS] = {1, 0, 0};
  EXPECT(tool_specs_parse("64x64", add_only, &list, err, sizeof err) == -1);
  EXPECT(strstr(err, "'64x64'") != NULL);
  EXPECT(tool_specs_parse("softmax:8x8", add_only, &list, err, sizeof err) == -1);
  EXPECT(strstr(err, "--op") != NULL);
}

/* The bench's default calls: every op's, on a GPU and a CPU, parse (a typo in a harness table
   would otherwise fail only `oclfuse bench` without --sizes), the plain sizes first, then the
   op's own calls; attention's and norm's GPU calls are the 16-bit ones models run. */
static void test_default_calls(void) {
  static tool_spec specs[TOOL_MAX_SPECS];
  for (tool_op op = 0; op < tool_op_count(); op++)
    for (int gpu = 0; gpu < 2; gpu++) {
      char err[256] = "";
      const int n = tool_default_specs(op, gpu, specs, TOOL_MAX_SPECS, err, sizeof err);
      const ocft_op_case *c = tool_op_case(op);
      const ocft_shapes *shapes = gpu ? &c->bench_gpu : &c->bench_cpu;
      if (n < 0) {
        printf("FAIL: %s's default calls (gpu %d): %s\n", tool_op_name(op), gpu, err);
        failures++;
        continue;
      }
      EXPECT((size_t)n >= shapes->count);
      for (size_t i = 0; i < (size_t)n; i++)
        EXPECT(specs[i].op == op && (i >= shapes->count || tool_spec_plain(&specs[i])));
      if ((gpu ? c->bench_gpu_calls : c->bench_cpu_calls) != NULL)
        EXPECT((size_t)n > shapes->count && !tool_spec_plain(&specs[n - 1]));
    }
  const tool_op attention = tool_op_from_name("attention"), norm = tool_op_from_name("norm");
  const int n = tool_default_specs(attention, 1, specs, TOOL_MAX_SPECS, NULL, 0);
  const size_t plain = tool_op_case(attention)->bench_gpu.count;
  EXPECT(n == (int)plain + 9 && tool_spec_dtype(&specs[plain]) == OCF_BF16);
  char text[256];
  tool_spec_text(&specs[plain + 1], text, sizeof text);
  EXPECT(!strcmp(text, "4x32x4096x4096x128:bf16:causal"));
  /* the fp32 calls in 3XTF32 (an option, not a storage type) */
  tool_spec_text(&specs[plain + 7], text, sizeof text);
  EXPECT(!strcmp(text, "4x32x4096x4096x128:precision=2") &&
         tool_spec_dtype(&specs[plain + 7]) == OCF_F32);
  EXPECT(tool_default_specs(norm, 1, specs, TOOL_MAX_SPECS, NULL, 0) ==
         (int)tool_op_case(norm)->bench_gpu.count + 5);
  /* capacity bounds what is written */
  EXPECT(tool_default_specs(attention, 1, specs, 2, NULL, 0) == 2);
}

int main(void) {
  for (tool_op op = 0; op < tool_op_count(); op++)
    all_ops[op] = 1;
  test_matmul_options();
  test_softmax_and_add();
  test_causal();
  test_plain_sizes();
  test_case_options();
  test_round_trip();
  test_refusals();
  test_default_calls();
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
