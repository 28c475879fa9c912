/* A context's tuning values: built-in rows, then shipped databases, then the user's database. */
#include "runtime/context.h"
#include "runtime/files.h"
#include "runtime/log.h"
#include "tuning/db.h"
#include "tuning/shipped.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef ocf_tuning_values all_values[OCF_OP_COUNT][OCF_DTYPE_COUNT][OCF_MAX_SHAPE_CLASSES];

/* Applies a database on top of *values for every op, type and class, all or nothing: every
   result must pass the validator. */
static ocf_status apply_layer(const ocf_tuning_db *db, all_values *values, const char *origin) {
  all_values *next = malloc(sizeof *next);
  if (!next) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "tuning values");
  memcpy(next, values, sizeof *next);
  ocf_status status = OCF_SUCCESS;
  for (int op = 0; op < OCF_OP_COUNT && status == OCF_SUCCESS; op++)
    for (int t = 0; t < OCF_DTYPE_COUNT && status == OCF_SUCCESS; t++)
      for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)op) && status == OCF_SUCCESS; c++) {
        ocf_tuning_values *v = &(*next)[op][t][c];
        status = ocf_tuning_db_apply(db, (ocf_op)op, (ocf_dtype)t, c, v);
        if (status == OCF_SUCCESS) status = ocf_tuning_check((ocf_op)op, v, origin);
      }
  if (status == OCF_SUCCESS) memcpy(values, next, sizeof *next);
  free(next);
  return status;
}

static void append_origin(ocf_context *ctx, const char *text) {
  size_t used = strlen(ctx->tuning_origin);
  snprintf(ctx->tuning_origin + used, sizeof ctx->tuning_origin - used, "%s%s", used ? " + " : "",
           text);
}

int ocf_user_database_path(const char *dir, const ocf_device_info *info, char *path,
                           size_t capacity) {
  char vendor[48], device[64];
  if (!dir[0]) return -1;
  ocf_file_slug(info->vendor, vendor, sizeof vendor);
  ocf_file_slug(info->device_name, device, sizeof device);
  /* Vendor, device and driver decide the file; the name keeps it readable, the hash unique. */
  unsigned long long hash = ocf_fnv1a(OCF_FNV_START, info->vendor, strlen(info->vendor) + 1);
  hash = ocf_fnv1a(hash, info->device_name, strlen(info->device_name) + 1);
  hash = ocf_fnv1a(hash, info->driver_version, strlen(info->driver_version) + 1);
  int n =
      snprintf(path, capacity, "%s/%s-%s-%08llx.tuning", dir, vendor, device, hash & 0xffffffffull);
  return n > 0 && (size_t)n < capacity ? 0 : -1;
}

/* The shipped databases whose vendor (or platform) and device name contain the database's. */
static void apply_shipped(ocf_context *ctx, all_values *values) {
  size_t count = 0;
  const ocf_embedded_file *files = ocf_shipped_databases(&count);
  for (size_t i = 0; i < count; i++) {
    ocf_tuning_db db;
    if (ocf_tuning_db_parse(files[i].text, files[i].length, &db) != OCF_SUCCESS) {
      ocf_log(&ctx->log, OCF_LOG_WARNING, "shipped tuning database %s ignored: %s", files[i].name,
              ocf_last_error());
      continue;
    }
    int matches = (ocf_contains_nocase(ctx->info.vendor, db.vendor) ||
                   ocf_contains_nocase(ctx->info.platform_name, db.vendor)) &&
                  ocf_contains_nocase(ctx->info.device_name, db.device);
    if (matches) {
      char origin[160];
      snprintf(origin, sizeof origin, "shipped %s", files[i].name);
      if (apply_layer(&db, values, origin) == OCF_SUCCESS)
        append_origin(ctx, origin);
      else
        ocf_log(&ctx->log, OCF_LOG_WARNING, "shipped tuning database %s ignored: %s", files[i].name,
                ocf_last_error());
    }
    ocf_tuning_db_free(&db);
  }
}

/* The user's database for exactly this device, driver and library version. */
static void apply_user(ocf_context *ctx, all_values *values) {
  if (!ctx->settings.user_tuning) return; /* `oclfuse tune` measuring, or the caller's choice */
  char path[4096];
  if (ocf_user_database_path(ctx->settings.tuning_dir, &ctx->info, path, sizeof path) != 0) return;
  char *text = NULL;
  size_t length = 0;
  if (ocf_read_file(path, OCF_TUNING_DB_MAX_BYTES, &text, &length) != 0) return; /* none yet */
  ocf_tuning_db db;
  ocf_status status = ocf_tuning_db_parse(text, length, &db);
  free(text);
  if (status != OCF_SUCCESS) {
    ocf_log(&ctx->log, OCF_LOG_WARNING, "tuning database %s ignored: %s", path, ocf_last_error());
    return;
  }
  if (strcmp(db.vendor, ctx->info.vendor) || strcmp(db.device, ctx->info.device_name) ||
      strcmp(db.driver, ctx->info.driver_version) || strcmp(db.library, ocf_version_string())) {
    ocf_log(&ctx->log, OCF_LOG_WARNING,
            "tuning database %s ignored: it is for %s / %s / driver %s / library %s", path,
            db.vendor, db.device, db.driver, db.library);
  } else {
    char origin[4200];
    snprintf(origin, sizeof origin, "user %s", path);
    if (apply_layer(&db, values, origin) == OCF_SUCCESS)
      append_origin(ctx, origin);
    else
      ocf_log(&ctx->log, OCF_LOG_WARNING, "tuning database %s ignored: %s", path, ocf_last_error());
  }
  ocf_tuning_db_free(&db);
}

ocf_status ocf_context_tuning_init(ocf_context *ctx) {
  size_t row_count = 0;
  const ocf_tuning_row *rows = ocf_builtin_rows(&row_count);
  all_values *values = &ctx->tuning_base;
  for (int op = 0; op < OCF_OP_COUNT; op++)
    for (int t = 0; t < OCF_DTYPE_COUNT; t++) {
      ocf_tuning_values resolved;
      ocf_status status = ocf_tuning_resolve(rows, row_count, (ocf_op)op, (ocf_dtype)t, &ctx->facts,
                                             ctx->info.device_name, &resolved);
      if (status != OCF_SUCCESS) return status; /* a bad built-in row: the plan tests catch it */
      for (unsigned c = 0; c < OCF_MAX_SHAPE_CLASSES; c++)
        (*values)[op][t][c] = resolved;
    }
  ctx->tuning_origin[0] = '\0';
  append_origin(ctx, "built-in");
  apply_shipped(ctx, values);
  apply_user(ctx, values);
  ocf_error_clear();
  memcpy(ctx->tuning, ctx->tuning_base, sizeof ctx->tuning);
  ocf_log(&ctx->log, OCF_LOG_INFO, "tuning for %s: %s", ctx->info.device_name, ctx->tuning_origin);
  return OCF_SUCCESS;
}

void ocf_context_tuning_for(ocf_context *ctx, ocf_op op, ocf_dtype dtype, const ocf_shape *shape,
                            ocf_tuning_values *values) {
  unsigned shape_class = ocf_shape_class_of(op, shape);
  pthread_mutex_lock(&ctx->lock);
  *values = ctx->tuning[op][dtype][shape_class];
  pthread_mutex_unlock(&ctx->lock);
}
