/* Resolving an op's tuning values for one device from rows of data. */
#include "common.h"
#include "tuning/db.h"
#include "tuning/shipped.h"
#include "tuning/tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ocf_tuning_key_matches(const ocf_tuning_key *key, const ocf_device_facts *facts,
                           const char *device_name) {
  if (key->type && !(facts->type & key->type)) return 0;
  if (key->vendor != OCF_VENDOR_ANY && key->vendor != (int)facts->vendor) return 0;
  if (key->device && !ocf_contains_nocase(device_name ? device_name : "", key->device)) return 0;
  return 1;
}

static int specificity(const ocf_tuning_key *key) {
  return (key->type != 0) + (key->vendor != OCF_VENDOR_ANY) + 2 * (key->device != NULL);
}

ocf_status ocf_tuning_resolve(const ocf_tuning_row *rows, size_t row_count, ocf_op op,
                              ocf_dtype dtype, const ocf_device_facts *facts,
                              const char *device_name, ocf_tuning_values *values) {
  ocf_tuning_fallbacks(op, values);
  /* A half-precision type starts from what the fp32 rows say, then applies its own rows. */
  const ocf_dtype passes[2] = {OCF_F32, dtype};
  for (int pass = dtype == OCF_F32 ? 1 : 0; pass < 2; pass++) {
    for (int level = 0; level <= 4; level++) {
      for (size_t i = 0; i < row_count; i++) {
        const ocf_tuning_row *row = &rows[i];
        if (row->key.op != op || row->key.dtype != passes[pass] ||
            specificity(&row->key) != level ||
            !ocf_tuning_key_matches(&row->key, facts, device_name))
          continue;
        char origin[96];
        snprintf(origin, sizeof origin, "tuning row %zu", i);
        ocf_status status = ocf_tuning_parse(op, row->values, values, origin);
        if (status != OCF_SUCCESS) return status;
      }
    }
  }
  return ocf_tuning_check(op, values, "the resolved tuning");
}

static void append_origin(char *origin, size_t capacity, const char *text) {
  size_t used = strlen(origin);
  if (used < capacity) snprintf(origin + used, capacity - used, "%s%s", used ? " + " : "", text);
}

ocf_status ocf_tuning_resolve_library(const ocf_device_facts *facts, const char *vendor,
                                      const char *platform_name, const char *device_name,
                                      ocf_tuning_table *table, char *origin, size_t capacity,
                                      ocf_tuning_skipped_fn skipped, void *user) {
  size_t row_count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&row_count);
  if (row_count == 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "src/tuning/builtin.tuning does not parse: %s",
                    ocf_builtin_error());
  for (int op = 0; op < OCF_OP_COUNT; op++)
    for (int t = 0; t < OCF_DTYPE_COUNT; t++) {
      ocf_tuning_values resolved;
      ocf_status status = ocf_tuning_resolve(rows, row_count, (ocf_op)op, (ocf_dtype)t, facts,
                                             device_name, &resolved);
      if (status != OCF_SUCCESS) return status;
      for (unsigned c = 0; c < OCF_MAX_SHAPE_CLASSES; c++)
        (*table)[op][t][c] = resolved;
    }
  if (capacity) origin[0] = '\0';
  append_origin(origin, capacity, "built-in");
  size_t count = 0;
  const ocf_embedded_file *files = ocf_shipped_databases(&count);
  for (size_t i = 0; i < count; i++) {
    ocf_tuning_db db;
    if (ocf_tuning_db_parse(files[i].text, files[i].length, &db) != OCF_SUCCESS) {
      if (skipped) skipped(user, files[i].name);
      continue;
    }
    if (ocf_tuning_db_matches(&db, vendor, platform_name, device_name)) {
      char name[160];
      snprintf(name, sizeof name, "shipped %s", files[i].name);
      if (ocf_tuning_db_apply_all(&db, table, name) == OCF_SUCCESS)
        append_origin(origin, capacity, name);
      else if (skipped)
        skipped(user, files[i].name);
    }
    ocf_tuning_db_free(&db);
  }
  return OCF_SUCCESS;
}

char *ocf_tuning_db_format_sparse(ocf_tuning_db *db, const ocf_device_info *info) {
  ocf_device_facts facts;
  ocf_device_facts_init(&facts, info);
  ocf_tuning_table *base = malloc(sizeof *base);
  char origin[256];
  if (base &&
      ocf_tuning_resolve_library(&facts, info->vendor, info->platform_name, info->device_name, base,
                                 origin, sizeof origin, NULL, NULL) == OCF_SUCCESS)
    ocf_tuning_db_make_sparse(db, (const ocf_tuning_table *)base);
  free(base);
  ocf_error_clear();
  return ocf_tuning_db_format(db);
}
