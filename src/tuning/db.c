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
  for (size_t i = 0; i < db->entry_count; i++)
    free(db->entries[i].values);
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

/* One "entry op dtype class values" line (the keyword already consumed). */
static ocf_status parse_entry(const char *rest, size_t line_number, ocf_tuning_db *db) {
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
  return ocf_tuning_db_add(db, op, dtype, shape_class, rest);
}

enum {
  SEEN_FORMAT = 1,
  SEEN_LIBRARY = 2,
  SEEN_VENDOR = 4,
  SEEN_DEVICE = 8,
  SEEN_DRIVER = 16,
  SEEN_ALL = 31
};

static ocf_status parse_line(const char *line, size_t number, ocf_tuning_db *db, unsigned *seen,
                             int *ended) {
  if (line[0] == '\0' || line[0] == '#') return OCF_SUCCESS;
  if (*ended)
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
    if (format != OCF_TUNING_DB_FORMAT)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "tuning database: format %lu, this library reads format %d", format,
                      OCF_TUNING_DB_FORMAT);
    db->format = (unsigned)format;
    *seen |= SEEN_FORMAT;
  } else if (!(*seen & SEEN_FORMAT)) {
    return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning database: the first line is not "
                                           "\"oclfuse-tuning <format>\"");
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
    return parse_entry(value, number, db);
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
    *ended = 1;
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
  unsigned seen = 0;
  int ended = 0;
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
    if (status == OCF_SUCCESS) status = parse_line(line, number, db, &seen, &ended);
    at += (newline ? (size_t)(newline - (text + at)) + 1 : length - at);
  }
  if (status == OCF_SUCCESS && !ended)
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

char *ocf_tuning_db_format(const ocf_tuning_db *db) {
  size_t used = 0, capacity = 1024;
  char *text = malloc(capacity);
  if (!text) return NULL;
  text[0] = '\0';
  int bad = append(&text, &used, &capacity,
                   "oclfuse-tuning %d\nlibrary %s\nvendor %s\ndevice %s\ndriver %s\n",
                   OCF_TUNING_DB_FORMAT, db->library, db->vendor, db->device, db->driver);
  for (size_t i = 0; i < db->entry_count && !bad; i++) {
    const ocf_tuning_entry *e = &db->entries[i];
    const char *cls =
        e->shape_class < 0 ? "*" : ocf_shape_class_name(e->op, (unsigned)e->shape_class);
    bad = append(&text, &used, &capacity, "entry %s %s %s %s\n", ocf_op_schema_get(e->op)->name,
                 ocf_dtype_name(e->dtype), cls ? cls : "*", e->values);
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
