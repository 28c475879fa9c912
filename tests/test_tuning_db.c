/*
 * The tuning database's reader and writer (src/tuning/db.c), without a device: every way a file
 * can be wrong is refused as a whole (never half-applied), and what the writer writes the reader
 * reads back to the same values.
 */
#include "tuning/db.h"
#include "tuning/shape_class.h"
#include "tuning/shipped.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER                                                                       \
  "oclfuse-tuning 1\nlibrary 0.2.0\nvendor NVIDIA Corporation\ndevice NVIDIA H200\n" \
  "driver 580.159.04\n"

static const char good[] = HEADER "# a comment, then a blank line\n\n"
                                  "entry softmax f32 * wg=128 vw=4\n"
                                  "entry softmax f32 wide items=16\n"
                                  "entry matmul f32 large fill=1 set0.kwg=8\n"
                                  "end 3\n";

static ocf_status parse_text(const char *text, ocf_tuning_db *db) {
  return ocf_tuning_db_parse(text, strlen(text), db);
}

static void test_tuning_db_reads_a_good_file(void **state) {
  (void)state;
  ocf_tuning_db db;
  assert_int_equal(parse_text(good, &db), OCF_SUCCESS);
  assert_int_equal(db.format, 1);
  assert_string_equal(db.library, "0.2.0");
  assert_string_equal(db.vendor, "NVIDIA Corporation");
  assert_string_equal(db.device, "NVIDIA H200");
  assert_string_equal(db.driver, "580.159.04");
  assert_int_equal(db.entry_count, 3);
  assert_int_equal(db.entries[0].op, OCF_OP_SOFTMAX);
  assert_int_equal(db.entries[0].shape_class, -1);
  assert_int_equal(db.entries[1].shape_class, ocf_shape_class_find(OCF_OP_SOFTMAX, "wide"));
  assert_string_equal(db.entries[2].values, "fill=1 set0.kwg=8");
  ocf_tuning_db_free(&db);
  assert_int_equal(db.entry_count, 0);
  assert_null(db.entries);
}

/* Applying: the every-class entry first, then the class's own; other classes see only the
   first. */
static void test_tuning_db_apply_order(void **state) {
  (void)state;
  ocf_tuning_db db;
  assert_int_equal(parse_text(good, &db), OCF_SUCCESS);
  ocf_tuning_values wide, narrow;
  ocf_tuning_fallbacks(OCF_OP_SOFTMAX, &wide);
  narrow = wide;
  unsigned wide_class = (unsigned)ocf_shape_class_find(OCF_OP_SOFTMAX, "wide");
  unsigned narrow_class = (unsigned)ocf_shape_class_find(OCF_OP_SOFTMAX, "narrow");
  assert_int_equal(ocf_tuning_db_apply(&db, OCF_OP_SOFTMAX, OCF_F32, wide_class, &wide),
                   OCF_SUCCESS);
  assert_int_equal(ocf_tuning_db_apply(&db, OCF_OP_SOFTMAX, OCF_F32, narrow_class, &narrow),
                   OCF_SUCCESS);
  assert_int_equal(wide.softmax.long_rows.wg, 128);
  assert_int_equal(wide.softmax.long_rows.items, 16);
  assert_int_equal(narrow.softmax.long_rows.wg, 128);
  assert_int_not_equal(narrow.softmax.long_rows.items, 16);
  /* A 16-bit type starts from the fp32 entries. */
  ocf_tuning_values half;
  ocf_tuning_fallbacks(OCF_OP_SOFTMAX, &half);
  assert_int_equal(ocf_tuning_db_apply(&db, OCF_OP_SOFTMAX, OCF_BF16, wide_class, &half),
                   OCF_SUCCESS);
  assert_int_equal(half.softmax.long_rows.items, 16);
  ocf_tuning_db_free(&db);
}

/* Each of these must be refused whole, with the database left empty. */
static void test_tuning_db_refuses_bad_files(void **state) {
  (void)state;
  static const struct {
    const char *why;
    const char *text;
  } bad[] = {
      {"empty", ""},
      {"truncated: no end line", HEADER "entry softmax f32 * wg=128\n"},
      {"truncated inside the header", "oclfuse-tuning 1\nlibrary 0.2.0\nvendor NVIDIA"},
      {"end count wrong", HEADER "entry softmax f32 * wg=128\nend 2\n"},
      {"future format", "oclfuse-tuning 2\nlibrary 9.0.0\nvendor V\ndevice D\ndriver 1\nend 0\n"},
      {"format not first",
       "library 0.2.0\noclfuse-tuning 1\nvendor V\ndevice D\ndriver 1\nend 0\n"},
      {"header repeated", HEADER "device other\nend 0\n"},
      {"entry before header complete", "oclfuse-tuning 1\nentry add f32 * wg=64\nend 1\n"},
      /* found by fuzz_tuning_db: accepted, then written back with an empty driver line */
      {"end before header complete",
       "oclfuse-tuning 1\nlibrary 0.2.0\nvendor V\ndevice D\nend 0\n"},
      {"unknown keyword", HEADER "entries softmax f32 * wg=128\nend 0\n"},
      {"unknown op", HEADER "entry conv f32 * wg=128\nend 1\n"},
      {"unknown dtype", HEADER "entry softmax f64 * wg=128\nend 1\n"},
      {"unknown class", HEADER "entry softmax f32 gigantic wg=128\nend 1\n"},
      {"unknown tunable", HEADER "entry softmax f32 * warp=32\nend 1\n"},
      {"not a number", HEADER "entry softmax f32 * wg=lots\nend 1\n"},
      {"number overflow", HEADER "entry softmax f32 * wg=99999999999999\nend 1\n"},
      {"no values", HEADER "entry softmax f32\nend 1\n"},
      {"text after end", HEADER "end 0\nentry add f32 * wg=64\n"},
      {"binary garbage", "oclfuse-tuning 1\n\x01\x02\xff\xfe"},
      /* found by fuzz_tuning_db: one '\r' is a CRLF line end, a second one stayed in the value
         and did not read back the same once written */
      {"a control character in a value", HEADER "entry add f32 * wg=64\r\r\nend 1\n"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ocf_tuning_db db;
    ocf_status status = parse_text(bad[i].text, &db);
    if (status != OCF_ERR_INVALID_VALUE) fail_msg("accepted a bad file: %s", bad[i].why);
    assert_int_equal(db.entry_count, 0);
    assert_null(db.entries);
    assert_true(strlen(ocf_last_error()) > 0);
  }
  /* A NUL byte inside an otherwise good file. */
  char with_nul[sizeof good];
  memcpy(with_nul, good, sizeof good);
  with_nul[20] = '\0';
  ocf_tuning_db db;
  assert_int_equal(ocf_tuning_db_parse(with_nul, sizeof good - 1, &db), OCF_ERR_INVALID_VALUE);
  /* A line past the length limit. */
  static char long_line[8192];
  int n = snprintf(long_line, sizeof long_line, "%sentry softmax f32 * ", HEADER);
  memset(long_line + n, ' ', sizeof long_line - (size_t)n - 32);
  snprintf(long_line + sizeof long_line - 32, 32, "wg=64\nend 1\n");
  assert_int_equal(parse_text(long_line, &db), OCF_ERR_INVALID_VALUE);
}

/* Values that parse but break a rule are not the reader's to judge: resolution checks them
   (test_tuning_api.c); the reader keeps them verbatim. */
static void test_tuning_db_keeps_rule_checks_for_resolution(void **state) {
  (void)state;
  ocf_tuning_db db;
  assert_int_equal(parse_text(HEADER "entry softmax f32 * min_wg=512 wg=64\nend 1\n", &db),
                   OCF_SUCCESS);
  ocf_tuning_values v;
  ocf_tuning_fallbacks(OCF_OP_SOFTMAX, &v);
  assert_int_equal(ocf_tuning_db_apply(&db, OCF_OP_SOFTMAX, OCF_F32, 0, &v), OCF_SUCCESS);
  assert_int_equal(ocf_tuning_check(OCF_OP_SOFTMAX, &v, "test"), OCF_ERR_INVALID_VALUE);
  ocf_tuning_db_free(&db);
}

static void test_tuning_db_round_trip(void **state) {
  (void)state;
  ocf_tuning_db db;
  memset(&db, 0, sizeof db);
  snprintf(db.library, sizeof db.library, "0.2.0");
  snprintf(db.vendor, sizeof db.vendor, "Vendor With Spaces");
  snprintf(db.device, sizeof db.device, "Device 9000");
  snprintf(db.driver, sizeof db.driver, "1.2.3 (beta)");
  assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_ADD, OCF_F32, 1, "wg=128 vw=4"), OCF_SUCCESS);
  assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_MATMUL, OCF_BF16, -1, "fill=3"), OCF_SUCCESS);
  char *text = ocf_tuning_db_format(&db);
  assert_non_null(text);
  ocf_tuning_db back;
  assert_int_equal(parse_text(text, &back), OCF_SUCCESS);
  assert_string_equal(back.vendor, db.vendor);
  assert_string_equal(back.driver, db.driver);
  assert_int_equal(back.entry_count, 2);
  assert_int_equal(back.entries[0].op, OCF_OP_ADD);
  assert_int_equal(back.entries[0].shape_class, 1);
  assert_string_equal(back.entries[0].values, "wg=128 vw=4");
  assert_int_equal(back.entries[1].dtype, OCF_BF16);
  assert_int_equal(back.entries[1].shape_class, -1);
  free(text);
  ocf_tuning_db_free(&back);
  ocf_tuning_db_free(&db);
}

/* Every database shipped in the library parses, names its device, and gives values that pass
   the validator for every op, type and class on top of the fallbacks (a context would otherwise
   ignore it whole, at run time, on the one device it was measured for). The H200's is there. */
static void test_tuning_db_shipped_files_hold(void **state) {
  (void)state;
  size_t count = 0;
  const ocf_embedded_file *files = ocf_shipped_databases(&count);
  int have_h200 = 0;
  for (size_t f = 0; f < count; f++) {
    ocf_tuning_db db;
    if (ocf_tuning_db_parse(files[f].text, files[f].length, &db) != OCF_SUCCESS) {
      print_error("%s: %s\n", files[f].name, ocf_last_error());
      fail();
    }
    assert_true(db.vendor[0] != '\0' && db.device[0] != '\0');
    assert_true(db.entry_count > 0);
    have_h200 = have_h200 || strstr(db.device, "H200") != NULL;
    for (int op = 0; op < OCF_OP_COUNT; op++)
      for (int dtype = 0; dtype < OCF_DTYPE_COUNT; dtype++)
        for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)op); c++) {
          ocf_tuning_values v;
          ocf_tuning_fallbacks((ocf_op)op, &v);
          ocf_status status = ocf_tuning_db_apply(&db, (ocf_op)op, (ocf_dtype)dtype, c, &v);
          if (status == OCF_SUCCESS) status = ocf_tuning_check((ocf_op)op, &v, files[f].name);
          if (status != OCF_SUCCESS) {
            print_error("%s, op %d, dtype %d, class %u: %s\n", files[f].name, op, dtype, c,
                        ocf_last_error());
            fail();
          }
        }
    ocf_tuning_db_free(&db);
  }
  assert_true(have_h200);
}

/* Every tunable of every op at the edges of its range, from both sides: min and max pass the
   range check (a rule between tunables may still refuse them, saying so), min - 1 and max + 1
   are refused as outside it, and a power-of-two tunable refuses the value below its maximum. */
static void test_tuning_db_every_range_edge(void **state) {
  (void)state;
  for (int op = 0; op < OCF_OP_COUNT; op++) {
    const ocf_op_schema *schema = ocf_op_schema_get((ocf_op)op);
    for (unsigned i = 0; i < schema->count; i++) {
      const ocf_tunable *t = &schema->tunables[i];
      const long long edges[4] = {(long long)t->min - 1, t->min, t->max, (long long)t->max + 1};
      for (int e = 0; e < 4; e++) {
        ocf_tuning_values v;
        ocf_tuning_fallbacks((ocf_op)op, &v);
        v.v[i] = (int)edges[e];
        ocf_status status = ocf_tuning_check((ocf_op)op, &v, "edge");
        const int outside = status != OCF_SUCCESS && strstr(ocf_last_error(), "is outside");
        const int inside = e == 1 || e == 2;
        if (inside == outside)
          fail_msg("%s %s = %lld (range [%d, %d]): %s", schema->name, t->name, edges[e], t->min,
                   t->max, status == OCF_SUCCESS ? "accepted" : ocf_last_error());
      }
      if (t->pow2 && t->max - 1 > t->min && t->max > 2) {
        ocf_tuning_values v;
        ocf_tuning_fallbacks((ocf_op)op, &v);
        v.v[i] = t->max - 1;
        if (ocf_tuning_check((ocf_op)op, &v, "edge") == OCF_SUCCESS)
          fail_msg("%s %s = %d is no power of two, yet accepted", schema->name, t->name,
                   t->max - 1);
      }
    }
  }
}

/* The schemas by kernel family: every tunable has a name, in its family's text prefix; the
   families cover the op's tunables and rules in order, without gaps; every name and format-1
   name reads back as that tunable and no other (a format-1 name is never another tunable's
   name). */
static void test_tuning_db_families_and_names(void **state) {
  (void)state;
  for (int op = 0; op < OCF_OP_COUNT; op++) {
    const ocf_op_schema *schema = ocf_op_schema_get((ocf_op)op);
    unsigned next = 0, next_rule = 0;
    assert_true(schema->family_count > 0);
    for (unsigned f = 0; f < schema->family_count; f++) {
      const ocf_tuning_family *family = &schema->families[f];
      assert_int_equal(family->first, next);
      assert_int_equal(family->first_rule, next_rule);
      assert_non_null(family->doc);
      next += family->count;
      next_rule += family->rule_count;
      const size_t prefix = strlen(family->name);
      for (unsigned i = family->first; i < family->first + family->count; i++) {
        const char *name = schema->tunables[i].name;
        assert_non_null(name);
        assert_non_null(schema->tunables[i].doc);
        if (prefix && (strncmp(name, family->name, prefix) != 0 || name[prefix] != '.'))
          fail_msg("%s %s is not in family %s", schema->name, name, family->name);
        if (!prefix && strchr(name, '.'))
          fail_msg("%s %s: a shared tunable has no family prefix", schema->name, name);
      }
    }
    assert_int_equal(next, schema->count);
    assert_int_equal(next_rule, schema->rule_count);
    for (unsigned i = 0; i < schema->count; i++)
      for (int old = 0; old < 2; old++) {
        const char *name = old ? schema->tunables[i].v1_name : schema->tunables[i].name;
        if (!name) continue;
        for (unsigned j = 0; j < schema->count; j++)
          if (j != i &&
              (strcmp(name, schema->tunables[j].name) == 0 ||
               (schema->tunables[j].v1_name && strcmp(name, schema->tunables[j].v1_name) == 0)))
            fail_msg("%s: %s names two tunables", schema->name, name);
        ocf_tuning_values v;
        ocf_tuning_fallbacks((ocf_op)op, &v);
        char text[96];
        snprintf(text, sizeof text, "%s=%d", name, v.v[i] + 1);
        assert_int_equal(ocf_tuning_parse((ocf_op)op, text, &v, "names"), OCF_SUCCESS);
        assert_int_equal(v.v[i], schema->tunables[i].fallback + 1);
      }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tuning_db_reads_a_good_file),
      cmocka_unit_test(test_tuning_db_shipped_files_hold),
      cmocka_unit_test(test_tuning_db_apply_order),
      cmocka_unit_test(test_tuning_db_refuses_bad_files),
      cmocka_unit_test(test_tuning_db_keeps_rule_checks_for_resolution),
      cmocka_unit_test(test_tuning_db_round_trip),
      cmocka_unit_test(test_tuning_db_every_range_edge),
      cmocka_unit_test(test_tuning_db_families_and_names),
  };
  return cmocka_run_group_tests_name("tuning_db", tests, NULL, NULL);
}
