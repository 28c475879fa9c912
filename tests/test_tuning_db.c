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

#define DEVICE_LINES \
  "library 0.2.0\nvendor NVIDIA Corporation\ndevice NVIDIA H200\ndriver 580.159.04\n"
#define HEADER "oclfuse-tuning 2\n" DEVICE_LINES

static const char good[] = HEADER "# a comment, then a blank line\n\n"
                                  "entry softmax f32 * long_rows.wg=128 vw=4\n"
                                  "entry softmax f32 wide long_rows.items=16\n"
                                  "entry matmul f32 large tiled.fill=1 tiled.set0.kwg=8\n"
                                  "end 3\n";

static ocf_status parse_text(const char *text, ocf_tuning_db *db) {
  return ocf_tuning_db_parse(text, strlen(text), db);
}

static void test_tuning_db_reads_a_good_file(void **state) {
  (void)state;
  ocf_tuning_db db;
  assert_int_equal(parse_text(good, &db), OCF_SUCCESS);
  assert_int_equal(db.format, 2);
  assert_string_equal(db.library, "0.2.0");
  assert_string_equal(db.vendor, "NVIDIA Corporation");
  assert_string_equal(db.device, "NVIDIA H200");
  assert_string_equal(db.driver, "580.159.04");
  assert_int_equal(db.entry_count, 3);
  assert_int_equal(db.entries[0].op, OCF_OP_SOFTMAX);
  assert_int_equal(db.entries[0].shape_class, -1);
  assert_int_equal(db.entries[1].shape_class, ocf_shape_class_find(OCF_OP_SOFTMAX, "wide"));
  assert_string_equal(db.entries[2].values, "tiled.fill=1 tiled.set0.kwg=8");
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
      {"future format", "oclfuse-tuning 3\nlibrary 9.0.0\nvendor V\ndevice D\ndriver 1\nend 0\n"},
      {"format 0", "oclfuse-tuning 0\nlibrary 9.0.0\nvendor V\ndevice D\ndriver 1\nend 0\n"},
      /* built-in files: `builtin` alone right after a format-2 line, `match` before entries of
         every class, and only there */
      {"builtin in format 1",
       "oclfuse-tuning 1\nbuiltin\nmatch any\nentry add f32 * wg=64\nend 1\n"},
      {"builtin after a header line",
       "oclfuse-tuning 2\nlibrary 0.2.0\nbuiltin\nmatch any\nentry add f32 * wg=64\nend 1\n"},
      {"builtin with a device line", "oclfuse-tuning 2\nbuiltin\ndevice D\nend 0\n"},
      {"builtin entry before match", "oclfuse-tuning 2\nbuiltin\nentry add f32 * wg=64\nend 1\n"},
      {"builtin entry of one class",
       "oclfuse-tuning 2\nbuiltin\nmatch any\nentry add f32 large wg=64\nend 1\n"},
      {"match in a device file", HEADER "match any\nentry add f32 * wg=64\nend 1\n"},
      {"unknown match key", "oclfuse-tuning 2\nbuiltin\nmatch vendor=acme\nend 0\n"},
      {"match any and more", "oclfuse-tuning 2\nbuiltin\nmatch any type=gpu\nend 0\n"},
      {"empty match", "oclfuse-tuning 2\nbuiltin\nmatch\nend 0\n"},
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
  /* A newer format is refused naming its version (the caller names the file). */
  ocf_tuning_db db;
  assert_int_equal(parse_text("oclfuse-tuning 3\n" DEVICE_LINES "end 0\n", &db),
                   OCF_ERR_INVALID_VALUE);
  assert_non_null(strstr(ocf_last_error(), "format 3, this library reads formats 1 to 2"));
  /* A NUL byte inside an otherwise good file. */
  char with_nul[sizeof good];
  memcpy(with_nul, good, sizeof good);
  with_nul[20] = '\0';
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

/* A shipped database that ocf_tuning_resolve_library skipped: said, and counted. */
static void count_skipped(void *user, const char *name) {
  print_error("%s skipped: %s\n", name, ocf_last_error());
  (*(int *)user)++;
}

/* Every database shipped in the library is format 2, parses, names its device, and applies to
   the values built in for that device (as a GPU or a CPU), passing the validator for every op,
   type and class (a context would otherwise ignore it whole, at run time, on the one device it
   was measured for). The H200's is there. */
static void test_tuning_db_shipped_files_hold(void **state) {
  (void)state;
  size_t count = 0;
  const ocf_embedded_file *files = ocf_shipped_databases(&count);
  int have_h200 = 0;
  static ocf_tuning_table table;
  for (size_t f = 0; f < count; f++) {
    ocf_tuning_db db;
    if (ocf_tuning_db_parse(files[f].text, files[f].length, &db) != OCF_SUCCESS) {
      print_error("%s: %s\n", files[f].name, ocf_last_error());
      fail();
    }
    assert_int_equal(db.format, OCF_TUNING_DB_FORMAT);
    assert_true(db.vendor[0] != '\0' && db.device[0] != '\0');
    assert_true(db.entry_count > 0);
    have_h200 = have_h200 || strstr(db.device, "H200") != NULL;
    int applied = 0;
    const cl_device_type types[2] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU};
    for (int t = 0; t < 2; t++) {
      ocf_device_info info;
      memset(&info, 0, sizeof info);
      info.type = types[t];
      snprintf(info.vendor, sizeof info.vendor, "%s", db.vendor);
      snprintf(info.device_name, sizeof info.device_name, "%s", db.device);
      ocf_device_facts facts;
      ocf_device_facts_init(&facts, &info);
      char origin[256];
      int skipped = 0;
      if (ocf_tuning_resolve_library(&facts, info.vendor, "", info.device_name, &table, origin,
                                     sizeof origin, count_skipped, &skipped) != OCF_SUCCESS)
        fail_msg("%s as a %s: %s", files[f].name, t ? "CPU" : "GPU", ocf_last_error());
      applied = applied || (skipped == 0 && strstr(origin, files[f].name) != NULL);
    }
    if (!applied) fail_msg("%s applies to none of its devices", files[f].name);
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

/* A format-1 file (every tunable of an entry, under the format-1 names) is read: its entries
   apply as sparse ones would, to the same values as the format-2 file that says the same. */
static void test_tuning_db_reads_format_1(void **state) {
  (void)state;
  static const char v1[] =
      "oclfuse-tuning 1\n" DEVICE_LINES
      "entry softmax f32 wide wg=64 min_wg=64 vw=4 items=32 local_items=0 unroll=2 rows_wg=128 "
      "seg_items=4 max_seg=128 seg_align=32 prefetch=0 rows_groups_per_unit=0 "
      "groups_per_unit=4 coop_spin=4096 coop_items=0\n"
      "entry matmul f32 large fill=1 set0.kwg=8 sk_wg=128 mma=1 mma0.bk=32 wg=0 wg.bn=128\n"
      "end 2\n";
  static const char v2[] =
      HEADER "entry softmax f32 wide long_rows.wg=64 long_rows.min_wg=64 long_rows.items=32 "
             "long_rows.unroll=2 rows.max_seg=128 rows.seg_align=32 long_rows.coop_spin=4096\n"
             "entry matmul f32 large tiled.fill=1 tiled.set0.kwg=8 skinny.wg=128 mma.on=1 "
             "mma.set0.bk=32 wgmma.on=0 wgmma.bn=128\n"
             "end 2\n";
  ocf_tuning_db old, now;
  assert_int_equal(parse_text(v1, &old), OCF_SUCCESS);
  assert_int_equal(old.format, 1);
  assert_int_equal(parse_text(v2, &now), OCF_SUCCESS);
  static const struct {
    ocf_op op;
    const char *cls;
  } keys[] = {{OCF_OP_SOFTMAX, "wide"}, {OCF_OP_MATMUL, "large"}};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    const unsigned c = (unsigned)ocf_shape_class_find(keys[k].op, keys[k].cls);
    ocf_tuning_values a, b;
    ocf_tuning_fallbacks(keys[k].op, &a);
    b = a;
    assert_int_equal(ocf_tuning_db_apply(&old, keys[k].op, OCF_F32, c, &a), OCF_SUCCESS);
    assert_int_equal(ocf_tuning_db_apply(&now, keys[k].op, OCF_F32, c, &b), OCF_SUCCESS);
    assert_memory_equal(&a, &b, sizeof a);
  }
  ocf_tuning_values mm;
  ocf_tuning_fallbacks(OCF_OP_MATMUL, &mm);
  assert_int_equal(ocf_tuning_db_apply(&old, OCF_OP_MATMUL, OCF_F32,
                                       (unsigned)ocf_shape_class_find(OCF_OP_MATMUL, "large"), &mm),
                   OCF_SUCCESS);
  assert_int_equal(mm.matmul.tiled.set[0].kwg, 8);
  assert_int_equal(mm.matmul.skinny.wg, 128);
  assert_int_equal(mm.matmul.mma.set[0].bk, 32);
  assert_int_equal(mm.matmul.wgmma.on, 0);
  ocf_tuning_db_free(&old);
  ocf_tuning_db_free(&now);
}

/* A built-in file: `match` keys each following entry; the keys read as ocf_tuning_key's. */
static void test_tuning_db_reads_builtin_files(void **state) {
  (void)state;
  ocf_tuning_db db;
  assert_int_equal(parse_text("oclfuse-tuning 2\nbuiltin\n# a note\nmatch any\n"
                              "entry add f32 * wg=64\n"
                              "match vendor=nvidia type=gpu device=H200\n"
                              "entry add f32 * wg=256\nentry softmax f16 * vw=8\n"
                              "match type=cpu\nentry add f32 * vw=8\nend 4\n",
                              &db),
                   OCF_SUCCESS);
  assert_true(db.builtin);
  assert_int_equal(db.entry_count, 4);
  assert_int_equal(db.entries[0].vendor, OCF_VENDOR_ANY);
  assert_int_equal(db.entries[0].type, 0);
  assert_null(db.entries[0].device);
  assert_int_equal(db.entries[1].vendor, OCF_VENDOR_NVIDIA);
  assert_int_equal(db.entries[1].type, CL_DEVICE_TYPE_GPU);
  assert_string_equal(db.entries[1].device, "H200");
  assert_string_equal(db.entries[2].device, "H200");
  assert_int_equal(db.entries[2].dtype, OCF_F16);
  assert_int_equal(db.entries[3].type, CL_DEVICE_TYPE_CPU);
  assert_null(db.entries[3].device);
  /* written back with its `match` lines, it reads back the same */
  char *text = ocf_tuning_db_format(&db);
  assert_non_null(text);
  ocf_tuning_db back;
  assert_int_equal(parse_text(text, &back), OCF_SUCCESS);
  assert_true(back.builtin);
  assert_int_equal(back.entry_count, 4);
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(back.entries[i].vendor, db.entries[i].vendor);
    assert_int_equal(back.entries[i].type, db.entries[i].type);
    assert_string_equal(back.entries[i].values, db.entries[i].values);
  }
  assert_string_equal(back.entries[2].device, "H200");
  free(text);
  ocf_tuning_db_free(&back);
  ocf_tuning_db_free(&db);
}

/* What `oclfuse tune` writes: an entry holds only what differs from what the reader has when it
   applies it (the values it is applied over, then the file's entries before it: f32 before a
   16-bit type, every class before one), for every type it applies to; applied over the same
   values it gives what the whole entry gave. */
static void test_tuning_db_writes_sparse_entries(void **state) {
  (void)state;
  static ocf_tuning_table base;
  for (int op = 0; op < OCF_OP_COUNT; op++)
    for (int t = 0; t < OCF_DTYPE_COUNT; t++)
      for (unsigned c = 0; c < OCF_MAX_SHAPE_CLASSES; c++) {
        ocf_tuning_fallbacks((ocf_op)op, &base[op][t][c]);
        if (op == OCF_OP_MATMUL) base[op][t][c].matmul.tiled.fill = (int)c + 1;
        /* f32 inputs have a K slice of their own (as on NVIDIA) */
        if (op == OCF_OP_MATMUL && t == OCF_F32) base[op][t][c].matmul.mma.set[0].bk = 16;
      }
  ocf_tuning_db db;
  memset(&db, 0, sizeof db);
  snprintf(db.library, sizeof db.library, "0.2.0");
  snprintf(db.vendor, sizeof db.vendor, "V");
  snprintf(db.device, sizeof db.device, "D");
  snprintf(db.driver, sizeof db.driver, "1");
  char full[OCF_TUNING_TEXT_MAX];
  ocf_tuning_values large = base[OCF_OP_MATMUL][OCF_F32][4];
  large.matmul.tiled.set[0].kwg = 8;
  large.matmul.skinny.wg = 256;
  ocf_tuning_format(OCF_OP_MATMUL, &large, full, sizeof full);
  assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_MATMUL, OCF_F32, -1, "mma.group_m=4"),
                   OCF_SUCCESS);
  assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_MATMUL, OCF_F32, 4, full), OCF_SUCCESS);
  /* a bf16 entry over the f32 ones: the same values but one */
  large.matmul.mma.group_m = 4;
  large.matmul.mma.set[1].bk = 64;
  ocf_tuning_format(OCF_OP_MATMUL, &large, full, sizeof full);
  assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_MATMUL, OCF_BF16, 4, full), OCF_SUCCESS);
  /* entries whose text is all of an op's values, for every class of add */
  for (unsigned c = 0; c < ocf_shape_class_count(OCF_OP_ADD); c++) {
    ocf_tuning_values add = base[OCF_OP_ADD][OCF_F32][c];
    ocf_tuning_format(OCF_OP_ADD, &add, full, sizeof full);
    assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_ADD, OCF_F32, (int)c, full), OCF_SUCCESS);
  }
  static ocf_tuning_table whole, sparse;
  memcpy(whole, base, sizeof base);
  assert_int_equal(ocf_tuning_db_apply_all(&db, &whole, "whole"), OCF_SUCCESS);
  assert_int_equal(ocf_tuning_db_make_sparse(&db, (const ocf_tuning_table *)&base), OCF_SUCCESS);
  assert_string_equal(db.entries[0].values, "mma.group_m=4");
  /* the class entry keeps mma.group_m at 8 after the every-class entry's 4, and, as it applies to
     the 16-bit types too, the K slice of 16 that differs from theirs */
  assert_string_equal(db.entries[1].values,
                      "tiled.set0.kwg=8 skinny.wg=256 mma.group_m=8 mma.set0.bk=16");
  assert_string_equal(db.entries[2].values, "mma.group_m=4 mma.set1.bk=64");
  assert_string_equal(db.entries[3].values, "");
  char *text = ocf_tuning_db_format(&db);
  assert_non_null(text);
  assert_non_null(strstr(text, "oclfuse-tuning 2\n"));
  assert_non_null(strstr(text, "\nentry add f32 small\n"));
  ocf_tuning_db back;
  assert_int_equal(parse_text(text, &back), OCF_SUCCESS);
  memcpy(sparse, base, sizeof base);
  assert_int_equal(ocf_tuning_db_apply_all(&back, &sparse, "sparse"), OCF_SUCCESS);
  assert_memory_equal(&sparse, &whole, sizeof whole);
  free(text);
  ocf_tuning_db_free(&back);
  ocf_tuning_db_free(&db);
}

/* What `oclfuse tune` writes on an H200 (ocf_tuning_db_format_sparse): a class entry made of all
   the values it measured keeps what differs from the values built into the library for the
   device, for f32 and for the 16-bit types the entry also applies to (their K slice of 32). */
static void test_tuning_db_tuner_writes_sparse(void **state) {
  (void)state;
  ocf_device_info info;
  memset(&info, 0, sizeof info);
  info.type = CL_DEVICE_TYPE_GPU;
  snprintf(info.vendor, sizeof info.vendor, "NVIDIA Corporation");
  snprintf(info.platform_name, sizeof info.platform_name, "NVIDIA CUDA");
  snprintf(info.device_name, sizeof info.device_name, "NVIDIA H200");
  ocf_device_facts facts;
  ocf_device_facts_init(&facts, &info);
  static ocf_tuning_table library;
  char origin[256];
  assert_int_equal(ocf_tuning_resolve_library(&facts, info.vendor, info.platform_name,
                                              info.device_name, &library, origin, sizeof origin,
                                              NULL, NULL),
                   OCF_SUCCESS);
  assert_non_null(strstr(origin, "nvidia-h200.tuning"));
  const int large = ocf_shape_class_find(OCF_OP_MATMUL, "large");
  ocf_tuning_values tuned = library[OCF_OP_MATMUL][OCF_F32][large];
  tuned.matmul.tiled.set[0].kwg = 16;
  char full[OCF_TUNING_TEXT_MAX];
  ocf_tuning_format(OCF_OP_MATMUL, &tuned, full, sizeof full);
  ocf_tuning_db db;
  memset(&db, 0, sizeof db);
  snprintf(db.library, sizeof db.library, "0.2.0");
  snprintf(db.vendor, sizeof db.vendor, "%s", info.vendor);
  snprintf(db.device, sizeof db.device, "%s", info.device_name);
  snprintf(db.driver, sizeof db.driver, "580.159.04");
  assert_int_equal(ocf_tuning_db_add(&db, OCF_OP_MATMUL, OCF_F32, large, full), OCF_SUCCESS);
  char *text = ocf_tuning_db_format_sparse(&db, &info);
  assert_non_null(text);
  assert_non_null(
      strstr(text, "\nentry matmul f32 large tiled.set0.kwg=16 mma.set0.bk=16 mma.set1.bk=16\n"));
  free(text);
  ocf_tuning_db_free(&db);
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
      cmocka_unit_test(test_tuning_db_reads_format_1),
      cmocka_unit_test(test_tuning_db_reads_builtin_files),
      cmocka_unit_test(test_tuning_db_writes_sparse_entries),
      cmocka_unit_test(test_tuning_db_tuner_writes_sparse),
  };
  return cmocka_run_group_tests_name("tuning_db", tests, NULL, NULL);
}
