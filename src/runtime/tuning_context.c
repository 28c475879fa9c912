/* A context's tuning values: built-in rows, then shipped databases, then the user's database. */
#include "runtime/context.h"
#include "runtime/files.h"
#include "runtime/log.h"
#include "tuning/db.h"
#include "tuning/shipped.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef ocf_tuning_table all_values;

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

/* A shipped database that does not parse or apply: a warning, the rest still apply. */
static void shipped_skipped(void *user, const char *name) {
  ocf_context *ctx = user;
  ocf_log(&ctx->log, OCF_LOG_WARNING, "shipped tuning database %s ignored: %s", name,
          ocf_last_error());
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
    if (ocf_tuning_db_apply_all(&db, values, origin) == OCF_SUCCESS)
      append_origin(ctx, origin);
    else
      ocf_log(&ctx->log, OCF_LOG_WARNING, "tuning database %s ignored: %s", path, ocf_last_error());
  }
  ocf_tuning_db_free(&db);
}

ocf_status ocf_context_tuning_init(ocf_context *ctx) {
  all_values *values = &ctx->tuning_base;
  ocf_status status = ocf_tuning_resolve_library(
      &ctx->facts, ctx->info.vendor, ctx->info.platform_name, ctx->info.device_name, values,
      ctx->tuning_origin, sizeof ctx->tuning_origin, shipped_skipped, ctx);
  if (status != OCF_SUCCESS) return status; /* bad built-in values: the plan tests catch them */
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
