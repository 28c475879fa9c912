/*
 * The harness's table of op cases (harness/op_cases.h), which the oclfuse tool and the generic
 * suites iterate: its names are exactly the library's op names, in the library's order (so that
 * an op added to one and not the other fails here, not in a sweep that quietly leaves it out),
 * every entry is complete, and every op's small shapes, in both forms, pass their own checks.
 */
#include "oclfuse_internal.h"
#include "op_cases.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The same names as the library's tunable ops (tuning/tuning.h: ocf_op, ocf_op_from_name), in
   the same order, and the public ocf_context_set_tuning accepts each and no other. */
static void test_op_cases_names_are_the_library_ops(void **state) {
  ocft_env *env = ocft_get_env(state);
  assert_int_equal(ocft_op_count(), (size_t)OCF_OP_COUNT);
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const char *name = ocft_op_at(i)->name;
    assert_int_equal((int)ocf_op_from_name(name), (int)i);
    ocft_assert_status(ocf_context_set_tuning(env->ctx, name, OCF_F32, NULL, NULL), OCF_SUCCESS);
    assert_ptr_equal(ocft_op_find(name), ocft_op_at(i));
    assert_int_equal(ocft_op_index(name), (int)i);
  }
  assert_null(ocft_op_find("no-such-op"));
  assert_int_not_equal(ocf_context_set_tuning(env->ctx, "no-such-op", OCF_F32, NULL, NULL),
                       OCF_SUCCESS);
  assert_null(ocft_op_at(ocft_op_count()));
}

static void test_op_cases_entries_are_complete(void **state) {
  (void)state;
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    assert_true(op->ndims >= 1 && op->ndims <= OCFT_MAX_DIMS);
    assert_non_null(op->function);
    assert_non_null(op->host_function);
    assert_non_null(op->dims_help);
    /* `oclfuse check --help` states every op's error model, in lines of at most 70 characters */
    assert_non_null(op->error_help);
    for (const char *line = op->error_help, *end; *line; line = *end ? end + 1 : end) {
      end = strchr(line, '\n');
      if (!end) end = line + strlen(line);
      assert_true(end > line && end - line <= 70);
    }
    assert_non_null(op->unit);
    assert_true(op->bench_gpu.count > 0 && op->bench_cpu.count > 0 && op->small.count > 0);
    assert_non_null(op->shape_text);
    assert_non_null(op->work);
    assert_non_null(op->extent);
    assert_non_null(op->device);
    assert_non_null(op->host);
    assert_non_null(op->reference);
    assert_non_null(op->check);
    assert_true((op->out_rows == NULL) == (op->reference_rows == NULL)); /* both or neither */
    for (int k = 0; k < op->ndims; k++)
      assert_true(op->sweep_gpu[k] > 0 && op->sweep_cpu[k] > 0);
    char text[64];
    op->shape_text(op->small.d[0], text, sizeof text);
    assert_true(text[0] != '\0');
    ocft_options plain;
    ocft_options_init(&plain);
    assert_true(op->work(op->small.d[0], &plain) > 0.0);
    assert_true(op->option_count <= OCFT_MAX_OPTIONS);
  }
  /* "add, softmax or matmul": every name, in order, the last after " or ". */
  char names[512], want[512] = "";
  ocft_op_names_text(" or ", names, sizeof names);
  for (size_t i = 0; i < ocft_op_count(); i++)
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
             i == 0                     ? ""
             : i + 1 == ocft_op_count() ? " or "
                                        : ", ",
             ocft_op_at(i)->name);
  assert_string_equal(names, want);
}

/* The shapes `oclfuse tune` times for a class (tune_shapes) are of that class, on GPUs and on
   CPUs: the tuner sets a candidate's values for the class alone, so a shape of another class
   would time every candidate alike and the search would keep noise. */
static void test_op_cases_tune_shapes_are_of_their_class(void **state) {
  (void)state;
  int strays = 0;
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    if (!op->tune_shapes) continue;
    for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)i); c++)
      for (int gpu = 0; gpu <= 1; gpu++) {
        size_t d[OCFT_TUNE_SHAPES][OCFT_MAX_DIMS];
        memset(d, 0, sizeof d);
        const size_t count = op->tune_shapes(c, gpu, d);
        assert_true(count > 0 && count <= OCFT_TUNE_SHAPES);
        for (size_t s = 0; s < count; s++) {
          ocf_dtype key_dtype;
          unsigned got;
          ocft_assert_status(ocf_op_tuning_key((ocf_op)i, d[s], OCF_F32, &key_dtype, &got),
                             OCF_SUCCESS);
          if (got != c) {
            char text[64];
            op->shape_text(d[s], text, sizeof text);
            print_error("%s: the %s tune shape %s (%s) is of class %s\n", op->name,
                        ocf_shape_class_name((ocf_op)i, c), text, gpu ? "GPU" : "CPU",
                        ocf_shape_class_name((ocf_op)i, got));
            strays++;
          }
        }
      }
  }
  assert_int_equal(strays, 0);
}

/* Each op's small shapes, device form and host form, against the op's own check. */
static void test_op_cases_small_calls_pass(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    for (size_t s = 0; s < op->small.count; s++) {
      char what[128], shape[64];
      op->shape_text(op->small.d[s], shape, sizeof shape);
      for (int device = 0; device < 2; device++) {
        ocft_call call;
        assert_int_equal(ocft_call_make(&call, op, op->small.d[s], 40 + s), 0);
        snprintf(what, sizeof what, "%s %s", device ? op->function : op->host_function, shape);
        if (device) {
          assert_int_equal(ocft_call_buffers(&call, env->cl), CL_SUCCESS);
          ocft_assert_status(ocft_call_device(&call, env->ctx, NULL), OCF_SUCCESS);
          assert_int_equal(ocft_call_read(&call, env->queue, NULL), CL_SUCCESS);
        } else {
          ocft_assert_status(ocft_call_host(&call, env->ctx), OCF_SUCCESS);
        }
        ocft_check check;
        ocft_call_check(&call, &env->info, &check);
        ocft_assert_check(what, &check);
        ocft_call_free(&call);
      }
    }
  }
}

/* Each case's words: an option parses, writes back as it was given, and is refused given twice;
   an alias names its op with its presets (words of the case's own); a word of no case is not
   parsed. */
static void test_op_cases_options_parse_and_print(void **state) {
  (void)state;
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    char why[160], text[128];
    ocft_options o;
    int dtype_seen = 0;
    ocft_options_init(&o);
    assert_int_equal(ocft_options_parse(op, "no-such-word", &o, &dtype_seen, why, sizeof why), 1);
    if (!ocft_op_has_options(op)) continue;
    for (size_t k = 0; k < op->option_count; k++) {
      const ocft_option *opt = &op->options[k];
      char token[64];
      snprintf(token, sizeof token, "%s%s", opt->word, opt->kind == OCFT_SWITCH ? "" : "=1");
      ocft_options_init(&o);
      dtype_seen = 0;
      assert_int_equal(ocft_options_parse(op, "bf16", &o, &dtype_seen, why, sizeof why), 0);
      assert_int_equal(ocft_options_parse(op, token, &o, &dtype_seen, why, sizeof why), 0);
      assert_int_equal(ocft_options_parse(op, token, &o, &dtype_seen, why, sizeof why), -1);
      assert_int_equal(ocft_options_parse(op, "f16", &o, &dtype_seen, why, sizeof why), -1);
      ocft_options_text(op, &o, text, sizeof text);
      char want[80];
      snprintf(want, sizeof want, ":bf16:%s", token);
      assert_string_equal(text, want);
      assert_false(ocft_options_plain(&o));
      assert_true(ocft_option_value(op, &o, opt->word, -1.0) == 1.0);
    }
    for (size_t a = 0; a < op->alias_count; a++) {
      ocft_options_init(&o);
      assert_ptr_equal(ocft_op_alias(op->aliases[a].name, &o), op);
      ocft_options_text(op, &o, text, sizeof text);
      assert_string_equal(text + (text[0] == ':'), op->aliases[a].options);
    }
  }
  ocft_options o;
  ocft_options_init(&o);
  assert_null(ocft_op_alias("no-such-op", &o));
  assert_true(ocft_options_plain(&o));
}

/* The calls beyond the plain one that each case declares: bf16 with every switch the case's
   validate allows at once, and f16 with none, on a small ragged shape, device form, against the
   op's own check (the model for that storage type). Two programs an op: PoCL builds each. */
static void test_op_cases_calls_with_options_pass(void **state) {
  ocft_env *env = ocft_get_env(state);
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    if (!ocft_op_has_options(op)) continue;
    const size_t *d = op->small.d[op->small.count > 2 ? 2 : 0];
    for (int every = 0; every < 2; every++) {
      const int t = every ? OCF_BF16 : OCF_F16;
      if (!(op->dtypes & (1u << t))) continue;
      ocft_options o;
      ocft_options_init(&o);
      o.dtype = (ocf_dtype)t;
      /* every switch (leaving out the first one that validate refuses), or none */
      for (size_t k = 0; every && k < op->option_count; k++) {
        if (op->options[k].kind != OCFT_SWITCH) continue;
        o.set |= 1u << k;
        o.value[k] = 1.0;
        char why[160];
        if (op->validate && op->validate(d, &o, why, sizeof why)) o.set &= ~(1u << k);
      }
      char what[160], options[96], shape[64];
      op->shape_text(d, shape, sizeof shape);
      ocft_options_text(op, &o, options, sizeof options);
      snprintf(what, sizeof what, "%s %s%s", op->function, shape, options);
      ocft_call call;
      assert_int_equal(ocft_call_make_with(&call, op, d, &o, 60 + (uint64_t)t), 0);
      assert_int_equal(ocft_call_buffers(&call, env->cl), CL_SUCCESS);
      ocft_assert_status(ocft_call_device(&call, env->ctx, NULL), OCF_SUCCESS);
      assert_int_equal(ocft_call_read(&call, env->queue, NULL), CL_SUCCESS);
      ocft_check check;
      ocft_call_check(&call, &env->info, &check);
      ocft_assert_check(what, &check);
      ocft_call_free(&call);
    }
  }
}

/* Sampled rows (ocft_call_make_with): each case's reference_rows is its reference, bit for bit,
   on every row of its small shapes, plain and with options (bf16, causal, one key head); a
   call past OCFT_FULL_REFERENCE_WORK takes OCFT_SAMPLED_ROWS rows from the first to the last, and
   its check compares those alone, naming the worst place by its index in the whole output. */
static void test_op_cases_sampled_rows(void **state) {
  (void)state;
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    if (!op->reference_rows) continue;
    for (size_t s = 0; s < op->small.count; s++)
      for (int variant = 0; variant < 2; variant++) {
        ocft_options o;
        ocft_options_init(&o);
        int dtype_seen = 0;
        char why[256];
        /* the second: every word the case knows that applies to any shape */
        static const char *const words[] = {"bf16", "causal", "kv=1"};
        for (size_t w = 0; variant && w < OCF_ARRAY_LEN_T(words); w++)
          assert_int_equal(ocft_options_parse(op, words[w], &o, &dtype_seen, why, sizeof why), 0);
        ocft_call call;
        assert_int_equal(ocft_call_make_with(&call, op, op->small.d[s], &o, 70 + s), 0);
        assert_null(call.sampled); /* small: the full reference */
        const size_t rows = op->out_rows(call.d, &o), out = call.extent.out;
        assert_true(rows > 0 && out % rows == 0);
        size_t *all = malloc(rows * sizeof *all);
        double *want = malloc(out * sizeof *want), *tol = malloc(out * sizeof *tol);
        assert_true(all && want && tol);
        for (size_t r = 0; r < rows; r++)
          all[r] = r;
        op->reference_rows(call.d, &o, (const float *const *)call.in, all, rows, want, tol);
        assert_memory_equal(want, call.want, out * sizeof *want);
        assert_memory_equal(tol, call.tol, out * sizeof *tol);
        free(all), free(want), free(tol);
        ocft_call_free(&call);
      }
  }
  /* attention 1 x 1 x 65536 x 16384 x 4: 2^34 flops, its sampled reference a few million. */
  const ocft_op_case *attention = ocft_op_find("attention");
  const size_t d[OCFT_MAX_DIMS] = {1, 1, 65536, 16384, 4};
  ocft_options o;
  ocft_options_init(&o);
  assert_true(attention->work(d, &o) > OCFT_FULL_REFERENCE_WORK);
  ocft_call call;
  assert_int_equal(ocft_call_make_with(&call, attention, d, &o, 5), 0);
  assert_non_null(call.sampled);
  assert_int_equal(call.sampled_count, OCFT_SAMPLED_ROWS);
  assert_int_equal(call.row_length, 4);
  assert_int_equal(call.sampled[0], 0);
  assert_int_equal(call.sampled[OCFT_SAMPLED_ROWS - 1], 65535);
  char text[80];
  ocft_call_checked_text(&call, text, sizeof text);
  assert_string_equal(text, "256 of 65536 rows (1024 outputs)");
  /* got: the sampled rows' reference, the rest NaN (never compared) */
  for (size_t r = 0; r < call.sampled_count; r++)
    for (size_t c = 0; c < 4; c++)
      call.got[call.sampled[r] * 4 + c] = (float)call.want[r * 4 + c];
  ocft_check check;
  ocft_call_check(&call, NULL, &check);
  assert_true(ocft_check_passed(&check));
  assert_int_equal(check.checked, OCFT_SAMPLED_ROWS * 4);
  /* one element of row 100 off by 10 tolerances: the worst place is its index in out */
  const size_t r = 100, c = 3, place = call.sampled[r] * 4 + c;
  call.got[place] = (float)(call.want[r * 4 + c] + 10.0 * call.tol[r * 4 + c] + 1e-3);
  ocft_call_check(&call, NULL, &check);
  assert_false(ocft_check_passed(&check));
  assert_int_equal(check.worst, place);
  ocft_call_free(&call);
}

/* An unchecked call (the tool's build pool enqueues one and never reads it back) has the checked
   call's inputs for the same seed, and no reference or got to spend the host's time on. */
static void test_op_cases_unchecked_calls(void **state) {
  (void)state;
  for (size_t i = 0; i < ocft_op_count(); i++) {
    const ocft_op_case *op = ocft_op_at(i);
    ocft_call checked, unchecked;
    assert_int_equal(ocft_call_make_with(&checked, op, op->small.d[op->small.count - 1], NULL, 9),
                     0);
    assert_int_equal(
        ocft_call_make_unchecked(&unchecked, op, op->small.d[op->small.count - 1], NULL, 9), 0);
    assert_null(unchecked.want);
    assert_null(unchecked.tol);
    assert_null(unchecked.got);
    for (int k = 0; k < OCFT_MAX_OPERANDS; k++) {
      assert_int_equal(unchecked.extent.in[k], checked.extent.in[k]);
      if (checked.extent.in[k])
        assert_memory_equal(unchecked.in[k], checked.in[k], checked.extent.in[k] * sizeof(float));
    }
    ocft_call_free(&checked);
    ocft_call_free(&unchecked);
  }
}

/* Attention's decoding calls are rated in bytes of K and V: up to 16 query rows a key head (lq
   times the query heads of a key head), 2 b h_kv lk d element sizes; prompts by their flops. */
static void test_op_cases_attention_traffic(void **state) {
  (void)state;
  const ocft_op_case *attention = ocft_op_find("attention");
  assert_non_null(attention->traffic);
  ocft_options o;
  ocft_options_init(&o);
  const size_t decode[OCFT_MAX_DIMS] = {2, 32, 1, 4096, 128};
  assert_true(attention->traffic(decode, &o) == 2.0 * 2 * 32 * 4096 * 128 * 4);
  const size_t sixteen[OCFT_MAX_DIMS] = {1, 4, 4, 1000, 64},
               seventeen[OCFT_MAX_DIMS] = {1, 1, 17, 1000, 64};
  assert_true(attention->traffic(sixteen, &o) > 0.0);
  assert_true(attention->traffic(seventeen, &o) == 0.0);
  int seen = 0;
  char why[128];
  assert_int_equal(ocft_options_parse(attention, "bf16", &o, &seen, why, sizeof why), 0);
  assert_int_equal(ocft_options_parse(attention, "kv=8", &o, &seen, why, sizeof why), 0);
  const size_t grouped[OCFT_MAX_DIMS] = {1, 32, 4, 8192, 128},
               chunk[OCFT_MAX_DIMS] = {1, 32, 5, 8192, 128};
  assert_true(attention->traffic(grouped, &o) == 2.0 * 8 * 8192 * 128 * 2); /* 4 x 4 rows */
  assert_true(attention->traffic(chunk, &o) == 0.0);                        /* 5 x 4 */
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_op_cases_names_are_the_library_ops),
      cmocka_unit_test(test_op_cases_entries_are_complete),
      cmocka_unit_test(test_op_cases_tune_shapes_are_of_their_class),
      cmocka_unit_test(test_op_cases_small_calls_pass),
      cmocka_unit_test(test_op_cases_options_parse_and_print),
      cmocka_unit_test(test_op_cases_calls_with_options_pass),
      cmocka_unit_test(test_op_cases_sampled_rows),
      cmocka_unit_test(test_op_cases_unchecked_calls),
      cmocka_unit_test(test_op_cases_attention_traffic),
  };
  return cmocka_run_group_tests_name("op_cases", tests, ocft_group_setup, ocft_group_teardown);
}
