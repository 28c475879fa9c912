/* Parsing and writing the tuning database's text (format: tuning/db.h). */
#include "tuning/db.h"

#include "common.h"
#include "tuning/shape_class.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LINE = 4096, MAX_ENTRIES = 4096 };

void ocf_tuning_db_free(ocf_tuning_db *db) {
  for (size_t i = 0; i < db->entry_count; i++) {
    free(db->entries[i].values);
    free(db->entries[i].device);
  }
  free(db->entries);
  memset(db, 0, sizeof *db);
}

ocf_status ocf_tuning_db_add(ocf_tuning_db *db, ocf_op op, ocf_dtype dtype, int shape_class,
                             const char *values) {
  if (db->entry_count >= MAX_ENTRIES)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database: more than %d entries", MAX_ENTRIES);
  size_t length = strlen(values) + 1;
  char *copy = malloc(length);
  ocf_tuning_entry *grown = realloc(db->entries, (db->entry_count + 1) * sizeof *grown);
  if (grown) db->entries = grown;
  if (!copy || !grown) {
    free(copy);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "tuning database entry");
  }
  memcpy(copy, values, length);
  ocf_tuning_entry *entry = &db->entries[db->entry_count++];
  entry->op = op;
  entry->dtype = dtype;
  entry->shape_class = shape_class;
  entry->values = copy;
  entry->vendor = OCF_VENDOR_ANY;
  entry->type = 0;
  entry->device = NULL;
  entry->line = 0;
  return OCF_SUCCESS;
}

static ocf_dtype dtype_from_name(const char *name, int *ok) {
  for (int t = 0; t < OCF_DTYPE_COUNT; t++)
    if (strcmp(name, ocf_dtype_name((ocf_dtype)t)) == 0) {
      *ok = 1;
      return (ocf_dtype)t;
    }
  *ok = 0;
  return OCF_F32;
}

/* Copies the text after a header keyword into a fixed field; refuses it if it does not fit. */
static int header_field(char *field, size_t capacity, const char *value, unsigned *seen,
                        unsigned bit) {
  if (*seen & bit) return -1; /* repeated */
  size_t length = strlen(value);
  if (length == 0 || length >= capacity) return -1;
  memcpy(field, value, length + 1);
  *seen |= bit;
  return 0;
}

/* Splits the next blank-separated word off *p into word (at most capacity - 1 bytes). */
static int next_word(const char **p, char *word, size_t capacity) {
  while (**p == ' ' || **p == '\t')
    (*p)++;
  size_t length = strcspn(*p, " \t");
  if (length == 0 || length >= capacity) return -1;
  memcpy(word, *p, length);
  word[length] = '\0';
  *p += length;
  return 0;
}

enum {
  SEEN_FORMAT = 1,
  SEEN_LIBRARY = 2,
  SEEN_VENDOR = 4,
  SEEN_DEVICE = 8,
  SEEN_DRIVER = 16,
  SEEN_ALL = 31
};

/* What the lines so far said: the header lines seen, `end`, and a built-in file's `match`. */
typedef struct parse_state {
  unsigned seen;
  int ended;
  int matched; /* a `match` line came */
  int vendor;
  cl_device_type type;
  char device[64]; /* "": any */
} parse_state;

/* A `match` line's keys (the keyword consumed): vendor=, type=, device=, or `any`. */
static ocf_status parse_match(const char *rest, size_t line_number, parse_state *state) {
  static const struct {
    const char *name;
    int vendor;
  } vendors[] = {{"nvidia", OCF_VENDOR_NVIDIA}, {"amd", OCF_VENDOR_AMD},
                 {"intel", OCF_VENDOR_INTEL},   {"apple", OCF_VENDOR_APPLE},
                 {"arm", OCF_VENDOR_ARM},       {"qualcomm", OCF_VENDOR_QUALCOMM},
                 {"other", OCF_VENDOR_OTHER}};
  static const struct {
    const char *name;
    cl_device_type type;
  } types[] = {{"gpu", CL_DEVICE_TYPE_GPU},
               {"cpu", CL_DEVICE_TYPE_CPU},
               {"accelerator", CL_DEVICE_TYPE_ACCELERATOR}};
  state->vendor = OCF_VENDOR_ANY;
  state->type = 0;
  state->device[0] = '\0';
  state->matched = 1;
  char word[80];
  int words = 0, any = 0;
  while (next_word(&rest, word, sizeof word) == 0) {
    words++;
    int ok = 0;
    if (strcmp(word, "any") == 0) {
      ok = any = 1;
    } else if (strncmp(word, "vendor=", 7) == 0) {
      for (size_t i = 0; i < OCF_ARRAY_LEN(vendors); i++)
        if (strcmp(word + 7, vendors[i].name) == 0) {
          state->vendor = vendors[i].vendor;
          ok = 1;
        }
    } else if (strncmp(word, "type=", 5) == 0) {
      for (size_t i = 0; i < OCF_ARRAY_LEN(types); i++)
        if (strcmp(word + 5, types[i].name) == 0) {
          state->type = types[i].type;
          ok = 1;
        }
    } else if (strncmp(word, "device=", 7) == 0 && word[7] &&
               strlen(word + 7) < sizeof state->device) {
      memcpy(state->device, word + 7, strlen(word + 7) + 1);
      ok = 1;
    }
    if (!ok)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database line %zu: \"%s\" is not vendor=<nvidia|amd|intel|apple|"
                      "arm|qualcomm|other>, type=<gpu|cpu|accelerator>, device=<name part> or any",
                      line_number, word);
  }
  while (*rest == ' ' || *rest == '\t')
    rest++;
  if (words == 0 || *rest || (any && words > 1))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "tuning database line %zu: `match` wants keys, or `any` alone", line_number);
  return OCF_SUCCESS;
}

/* One "entry op dtype class values" line (the keyword already consumed). */
static ocf_status parse_entry(const char *rest, size_t line_number, ocf_tuning_db *db,
                              const parse_state *state) {
  char op_name[16], dtype_name[8], class_name[32];
  if (next_word(&rest, op_name, sizeof op_name) ||
      next_word(&rest, dtype_name, sizeof dtype_name) ||
      next_word(&rest, class_name, sizeof class_name))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "tuning database line %zu: entry wants op, data type, "
                    "class and values",
                    line_number);
  ocf_op op = ocf_op_from_name(op_name);
  int dtype_ok = 0;
  ocf_dtype dtype = dtype_from_name(dtype_name, &dtype_ok);
  int shape_class = strcmp(class_name, "*") == 0 ? -1 : ocf_shape_class_find(op, class_name);
  if (op == OCF_OP_COUNT || !dtype_ok || (shape_class < 0 && strcmp(class_name, "*") != 0))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "tuning database line %zu: unknown op, data type or class \"%s %s %s\"",
                    line_number, op_name, dtype_name, class_name);
  /* The names and numbers must parse; ranges and rules are checked once resolved. */
  ocf_tuning_values scratch;
  ocf_tuning_fallbacks(op, &scratch);
  char origin[64];
  snprintf(origin, sizeof origin, "tuning database line %zu", line_number);
  ocf_status status = ocf_tuning_parse(op, rest, &scratch, origin);
  if (status != OCF_SUCCESS) return status;
  while (*rest == ' ' || *rest == '\t')
    rest++;
  if (db->builtin && (!state->matched || shape_class != -1))
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "tuning database line %zu: a built-in entry follows a `match` line and "
                    "is for every class (*)",
                    line_number);
  status = ocf_tuning_db_add(db, op, dtype, shape_class, rest);
  if (status != OCF_SUCCESS) return status;
  ocf_tuning_entry *entry = &db->entries[db->entry_count - 1];
  entry->line = line_number;
  if (db->builtin) {
    entry->vendor = state->vendor;
    entry->type = state->type;
    if (state->device[0]) {
      entry->device = malloc(strlen(state->device) + 1);
      if (!entry->device) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "tuning database entry");
      memcpy(entry->device, state->device, strlen(state->device) + 1);
    }
  }
  return OCF_SUCCESS;
}

static ocf_status parse_line(const char *line, size_t number, ocf_tuning_db *db,
                             parse_state *state) {
  unsigned *seen = &state->seen;
  if (line[0] == '\0' || line[0] == '#') return OCF_SUCCESS;
  if (state->ended)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database line %zu: text after `end`", number);
  const char *space = strchr(line, ' ');
  size_t keyword_length = space ? (size_t)(space - line) : strlen(line);
  const char *value = space ? space + 1 : "";
  int bad = 0;
#define KEYWORD(k) (keyword_length == strlen(k) && strncmp(line, k, keyword_length) == 0)
  if (KEYWORD("oclfuse-tuning")) {
    char *end = NULL;
    errno = 0;
    unsigned long format = strtoul(value, &end, 10);
    if ((*seen & SEEN_FORMAT) || number != 1 || end == value || *end || errno)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database line %zu: bad format line", number);
    if (format < OCF_TUNING_DB_OLDEST_FORMAT || format > OCF_TUNING_DB_FORMAT)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database: format %lu, this library reads formats %d to %d (one "
                      "written by a newer library: run `oclfuse tune` again)",
                      format, OCF_TUNING_DB_OLDEST_FORMAT, OCF_TUNING_DB_FORMAT);
    db->format = (unsigned)format;
    *seen |= SEEN_FORMAT;
  } else if (!(*seen & SEEN_FORMAT)) {
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database: the first line is not "
                                           "\"oclfuse-tuning <format>\"");
  } else if (KEYWORD("builtin")) {
    if (*seen != SEEN_FORMAT || db->format < 2 || space)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database line %zu: `builtin` belongs alone right after a format-2 "
                      "first line",
                      number);
    db->builtin = 1;
    *seen = SEEN_ALL;
  } else if (KEYWORD("match")) {
    if (!db->builtin)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database line %zu: `match` belongs to a built-in file", number);
    return parse_match(value, number, state);
  } else if (db->builtin && !KEYWORD("entry") && !KEYWORD("end")) {
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "tuning database line %zu: a built-in file has no \"%.*s\" line", number,
                    (int)(keyword_length < 32 ? keyword_length : 32), line);
  } else if (KEYWORD("library")) {
    bad = header_field(db->library, sizeof db->library, value, seen, SEEN_LIBRARY);
  } else if (KEYWORD("vendor")) {
    bad = header_field(db->vendor, sizeof db->vendor, value, seen, SEEN_VENDOR);
  } else if (KEYWORD("device")) {
    bad = header_field(db->device, sizeof db->device, value, seen, SEEN_DEVICE);
  } else if (KEYWORD("driver")) {
    bad = header_field(db->driver, sizeof db->driver, value, seen, SEEN_DRIVER);
  } else if (KEYWORD("entry")) {
    if (*seen != SEEN_ALL)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database line %zu: an entry before the header is complete", number);
    return parse_entry(value, number, db, state);
  } else if (KEYWORD("end")) {
    /* A file of no entries still names its device, driver and library. */
    if (*seen != SEEN_ALL)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database line %zu: `end` before the header is complete", number);
    char *end = NULL;
    errno = 0;
    unsigned long count = strtoul(value, &end, 10);
    if (end == value || *end || errno || count != db->entry_count)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database line %zu: `end %s` does not match its %zu entries", number,
                      value, db->entry_count);
    state->ended = 1;
  } else {
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database line %zu: unknown keyword \"%.*s\"",
                    number, (int)(keyword_length < 32 ? keyword_length : 32), line);
  }
#undef KEYWORD
  if (bad)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "tuning database line %zu: a header line repeated, empty or too long", number);
  return OCF_SUCCESS;
}

ocf_status ocf_tuning_db_parse(const char *text, size_t length, ocf_tuning_db *db) {
  memset(db, 0, sizeof *db);
  if (length > OCF_TUNING_DB_MAX_BYTES)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database: %zu bytes is more than %zu", length,
                    OCF_TUNING_DB_MAX_BYTES);
  if (memchr(text, '\0', length))
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database: a NUL byte (not a text file)");
  char line[MAX_LINE];
  parse_state state;
  memset(&state, 0, sizeof state);
  size_t number = 0;
  ocf_status status = OCF_SUCCESS;
  for (size_t at = 0; at < length && status == OCF_SUCCESS;) {
    const char *newline = memchr(text + at, '\n', length - at);
    size_t line_length = newline ? (size_t)(newline - (text + at)) : length - at;
    number++;
    if (line_length && text[at + line_length - 1] == '\r') line_length--;
    if (line_length >= sizeof line) {
      status = ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database line %zu: longer than %d bytes",
                        number, MAX_LINE - 1);
      break;
    }
    memcpy(line, text + at, line_length);
    line[line_length] = '\0';
    /* Text only: a control character (but a tab) is not part of any value, and would not read
       back the same once written (a second '\r' before the newline, say). */
    for (size_t i = 0; i < line_length && status == OCF_SUCCESS; i++)
      if (((unsigned char)line[i] < 0x20 && line[i] != '\t') || line[i] == 0x7f)
        status = ocf_fail(OCF_ERR_INVALID_VALUE,
                          "tuning database line %zu: a control character (byte %zu)", number, i);
    if (status == OCF_SUCCESS) status = parse_line(line, number, db, &state);
    at += (newline ? (size_t)(newline - (text + at)) + 1 : length - at);
  }
  if (status == OCF_SUCCESS && !state.ended)
    status = ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database: no `end` line (truncated?)");
  if (status != OCF_SUCCESS) ocf_tuning_db_free(db);
  return status;
}

/* Appends formatted text to a growing buffer; returns -1 when out of memory. */
static int append(char **buffer, size_t *used, size_t *capacity, const char *fmt, ...)
    OCF_PRINTF(4, 5);
static int append(char **buffer, size_t *used, size_t *capacity, const char *fmt, ...) {
  for (;;) {
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(*buffer + *used, *capacity - *used, fmt, args);
    va_end(args);
    if (n < 0) return -1;
    if ((size_t)n < *capacity - *used) {
      *used += (size_t)n;
      return 0;
    }
    size_t grown_capacity = *capacity * 2 + (size_t)n;
    char *grown = realloc(*buffer, grown_capacity);
    if (!grown) return -1;
    *buffer = grown;
    *capacity = grown_capacity;
  }
}

/* A built-in file's `match` line for an entry's key. */
static int append_match(char **text, size_t *used, size_t *capacity, const ocf_tuning_entry *e) {
  static const char *const vendors[] = {"other", "nvidia", "amd",     "intel",
                                        "apple", "arm",    "qualcomm"};
  int bad = append(text, used, capacity, "match");
  if (!bad && e->vendor >= 0 && e->vendor < (int)OCF_ARRAY_LEN(vendors))
    bad = append(text, used, capacity, " vendor=%s", vendors[e->vendor]);
  if (!bad && e->type)
    bad = append(text, used, capacity, " type=%s",
                 e->type & CL_DEVICE_TYPE_GPU   ? "gpu"
                 : e->type & CL_DEVICE_TYPE_CPU ? "cpu"
                                                : "accelerator");
  if (!bad && e->device) bad = append(text, used, capacity, " device=%s", e->device);
  if (!bad && e->vendor < 0 && !e->type && !e->device) bad = append(text, used, capacity, " any");
  return bad || append(text, used, capacity, "\n");
}

static int same_key(const ocf_tuning_entry *a, const ocf_tuning_entry *b) {
  return a->vendor == b->vendor && a->type == b->type && !a->device == !b->device &&
         (!a->device || strcmp(a->device, b->device) == 0);
}

char *ocf_tuning_db_format(const ocf_tuning_db *db) {
  size_t used = 0, capacity = 1024;
  char *text = malloc(capacity);
  if (!text) return NULL;
  text[0] = '\0';
  /* The format the database was read in (its names are that format's), else the current one. */
  const unsigned format = db->format ? db->format : OCF_TUNING_DB_FORMAT;
  int bad = db->builtin ? append(&text, &used, &capacity, "oclfuse-tuning %u\nbuiltin\n", format)
                        : append(&text, &used, &capacity,
                                 "oclfuse-tuning %u\nlibrary %s\nvendor %s\ndevice %s\ndriver %s\n",
                                 format, db->library, db->vendor, db->device, db->driver);
  for (size_t i = 0; i < db->entry_count && !bad; i++) {
    const ocf_tuning_entry *e = &db->entries[i];
    if (db->builtin && (i == 0 || !same_key(e, &db->entries[i - 1])))
      bad = append_match(&text, &used, &capacity, e);
    const char *cls =
        e->shape_class < 0 ? "*" : ocf_shape_class_name(e->op, (unsigned)e->shape_class);
    if (!bad)
      bad = append(&text, &used, &capacity, "entry %s %s %s%s%s\n", ocf_op_schema_get(e->op)->name,
                   ocf_dtype_name(e->dtype), cls ? cls : "*", e->values[0] ? " " : "", e->values);
  }
  if (!bad) bad = append(&text, &used, &capacity, "end %zu\n", db->entry_count);
  if (bad) {
    free(text);
    return NULL;
  }
  return text;
}

ocf_status ocf_tuning_db_apply(const ocf_tuning_db *db, ocf_op op, ocf_dtype dtype,
                               unsigned shape_class, ocf_tuning_values *values) {
  const ocf_dtype passes[2] = {OCF_F32, dtype};
  for (int pass = dtype == OCF_F32 ? 1 : 0; pass < 2; pass++)
    for (int specific = 0; specific < 2; specific++)
      for (size_t i = 0; i < db->entry_count; i++) {
        const ocf_tuning_entry *e = &db->entries[i];
        if (e->op != op || e->dtype != passes[pass] ||
            (specific ? e->shape_class != (int)shape_class : e->shape_class != -1))
          continue;
        ocf_status status = ocf_tuning_parse(op, e->values, values, "tuning database entry");
        if (status != OCF_SUCCESS) return status;
      }
  return OCF_SUCCESS;
}

ocf_status ocf_tuning_db_apply_all(const ocf_tuning_db *db, ocf_tuning_table *table,
                                   const char *origin) {
  ocf_tuning_table *next = malloc(sizeof *next);
  if (!next) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "tuning values");
  memcpy(next, table, sizeof *next);
  ocf_status status = OCF_SUCCESS;
  for (int op = 0; op < OCF_OP_COUNT && status == OCF_SUCCESS; op++)
    for (int t = 0; t < OCF_DTYPE_COUNT && status == OCF_SUCCESS; t++)
      for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)op) && status == OCF_SUCCESS; c++) {
        ocf_tuning_values *v = &(*next)[op][t][c];
        status = ocf_tuning_db_apply(db, (ocf_op)op, (ocf_dtype)t, c, v);
        if (status == OCF_SUCCESS) status = ocf_tuning_check((ocf_op)op, v, origin);
      }
  if (status == OCF_SUCCESS) memcpy(table, next, sizeof *next);
  free(next);
  return status;
}

int ocf_tuning_db_matches(const ocf_tuning_db *db, const char *vendor, const char *platform_name,
                          const char *device_name) {
  return (ocf_contains_nocase(vendor, db->vendor) ||
          ocf_contains_nocase(platform_name, db->vendor)) &&
         ocf_contains_nocase(device_name, db->device);
}

/* Applies the entries the reader applies to class `cls` before entry `stop` (ocf_tuning_db_apply's
   order, cut at `stop` within its own group). */
static ocf_status apply_before(const ocf_tuning_db *db, size_t stop, unsigned cls,
                               ocf_tuning_values *values) {
  const ocf_tuning_entry *last = &db->entries[stop];
  const ocf_dtype passes[2] = {OCF_F32, last->dtype};
  for (int pass = last->dtype == OCF_F32 ? 1 : 0; pass < 2; pass++)
    for (int specific = 0; specific < 2; specific++)
      for (size_t i = 0; i < db->entry_count; i++) {
        const ocf_tuning_entry *e = &db->entries[i];
        if (e->op != last->op || e->dtype != passes[pass] ||
            (specific ? e->shape_class != (int)cls : e->shape_class != -1))
          continue;
        if (pass == 1 && specific && i >= stop) return OCF_SUCCESS;
        ocf_status status = ocf_tuning_parse(e->op, e->values, values, "tuning database entry");
        if (status != OCF_SUCCESS) return status;
      }
  return OCF_SUCCESS;
}

/* Entry `i` as only what differs from what the reader has when it applies it, for every type it
   applies to (an f32 entry applies to the 16-bit types too, over their own values). */
static ocf_status sparse_entry(const ocf_tuning_db *db, size_t i, const ocf_tuning_table *base,
                               char *out, size_t capacity) {
  const ocf_tuning_entry *e = &db->entries[i];
  const unsigned c = (unsigned)e->shape_class;
  const ocf_op_schema *schema = ocf_op_schema_get(e->op);
  int differs[OCF_TUNING_MAX] = {0};
  ocf_tuning_values full;
  for (int t = 0; t < OCF_DTYPE_COUNT; t++) {
    if (e->dtype != OCF_F32 && t != (int)e->dtype) continue;
    ocf_tuning_values prior = (*base)[e->op][t][c];
    ocf_status status = apply_before(db, i, c, &prior);
    full = prior;
    if (status == OCF_SUCCESS)
      status = ocf_tuning_parse(e->op, e->values, &full, "tuning database entry");
    if (status != OCF_SUCCESS) return status;
    for (unsigned k = 0; k < schema->count; k++)
      differs[k] = differs[k] || full.v[k] != prior.v[k];
  }
  size_t used = 0;
  out[0] = '\0';
  for (unsigned k = 0; k < schema->count && used < capacity; k++) {
    if (!differs[k]) continue;
    int n = snprintf(out + used, capacity - used, "%s%s=%d", used ? " " : "",
                     schema->tunables[k].name, full.v[k]);
    if (n < 0) break;
    used += (size_t)n;
  }
  return OCF_SUCCESS;
}

ocf_status ocf_tuning_db_make_sparse(ocf_tuning_db *db, const ocf_tuning_table *base) {
  char **sparse = calloc(db->entry_count ? db->entry_count : 1, sizeof *sparse);
  if (!sparse) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "tuning database entries");
  ocf_status status = OCF_SUCCESS;
  for (size_t i = 0; i < db->entry_count && status == OCF_SUCCESS; i++) {
    if (db->entries[i].shape_class < 0) continue;
    char text[OCF_TUNING_TEXT_MAX];
    status = sparse_entry(db, i, base, text, sizeof text);
    if (status == OCF_SUCCESS) {
      sparse[i] = malloc(strlen(text) + 1);
      if (sparse[i])
        memcpy(sparse[i], text, strlen(text) + 1);
      else
        status = ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "tuning database entries");
    }
  }
  for (size_t i = 0; i < db->entry_count; i++) {
    if (!sparse[i]) continue;
    if (status == OCF_SUCCESS) {
      free(db->entries[i].values);
      db->entries[i].values = sparse[i];
    } else {
      free(sparse[i]);
    }
  }
  free(sparse);
  return status;
}
