/*
 * The built-in tuning values: src/tuning/builtin.tuning, a tuning database of `match` entries
 * embedded at build time (cmake/embed_files.cmake), read once by the same parser as every
 * database and turned into rows keyed by vendor, device type and device name. The device-free
 * tests resolve every row (test_plan, test_tuning_resolve).
 */
#include "tuning/builtin.h"
#include "common.h"
#include "tuning/db.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static ocf_tuning_db builtin_db;
static ocf_tuning_row *builtin_rows;
static size_t builtin_count;
/* Why there are no rows (the parser's message), for the error every context then reports. */
static char builtin_error[256];

static void load(void) {
  size_t count = 0;
  const ocf_embedded_file *files = ocf_builtin_tuning_files(&count);
  if (count != 1) {
    snprintf(builtin_error, sizeof builtin_error, "%zu embedded files, not 1", count);
    return; /* no rows: every context fails to resolve, and the plan tests say why */
  }
  if (ocf_tuning_db_parse(files[0].text, files[0].length, &builtin_db) != OCF_SUCCESS) {
    snprintf(builtin_error, sizeof builtin_error, "%s", ocf_last_error());
    return;
  }
  if (!builtin_db.builtin) {
    snprintf(builtin_error, sizeof builtin_error, "its header does not say `builtin`");
    return;
  }
  builtin_rows = calloc(builtin_db.entry_count ? builtin_db.entry_count : 1, sizeof *builtin_rows);
  if (!builtin_rows) {
    snprintf(builtin_error, sizeof builtin_error, "out of host memory for its rows");
    return;
  }
  for (size_t i = 0; i < builtin_db.entry_count; i++) {
    const ocf_tuning_entry *e = &builtin_db.entries[i];
    ocf_tuning_row *row = &builtin_rows[i];
    row->key.op = e->op;
    row->key.dtype = e->dtype;
    row->key.vendor = e->vendor;
    row->key.type = e->type;
    row->key.device = e->device;
    row->values = e->values;
    row->note = "src/tuning/builtin.tuning";
  }
  builtin_count = builtin_db.entry_count;
}

const ocf_tuning_row *ocf_builtin_rows(size_t *count) {
  pthread_once(&once, load);
  *count = builtin_count;
  return builtin_rows;
}

const char *ocf_builtin_error(void) {
  pthread_once(&once, load);
  return builtin_error;
}
