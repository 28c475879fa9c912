/* The public tuning calls: per-context overrides, the values in force, where they came from. */
#include "ops/registry.h"
#include "runtime/context.h"

#include <stdio.h>
#include <string.h>

/* Resolves op and class names; class -1 means every class. */
static ocf_status resolve_names(const char *function, const char *op_name, ocf_dtype dtype,
                                const char *class_name, ocf_op *op, int *shape_class) {
  *op = ocf_op_from_name(op_name);
  if (*op == OCF_OP_COUNT) {
    char names[256];
    ocf_op_names(names, sizeof names);
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: op \"%s\" is not %s", function,
                    op_name ? op_name : "(null)", names);
  }
  if (ocf_dtype_size(dtype) == 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: data type %d is not an ocf_dtype", function,
                    (int)dtype);
  *shape_class = -1;
  if (class_name && strcmp(class_name, "*") != 0) {
    *shape_class = ocf_shape_class_find(*op, class_name);
    if (*shape_class < 0)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s has no shape class \"%s\"", function, op_name,
                      class_name);
  }
  return OCF_SUCCESS;
}

ocf_status ocf_context_set_tuning(ocf_context *ctx, const char *op_name, ocf_dtype dtype,
                                  const char *shape_class, const char *values) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_set_tuning: ctx is NULL");
  ocf_op op;
  int only = -1;
  ocf_status status =
      resolve_names("ocf_context_set_tuning", op_name, dtype, shape_class, &op, &only);
  if (status != OCF_SUCCESS) return status;
  unsigned count = ocf_shape_class_count(op);
  ocf_tuning_values next[OCF_MAX_SHAPE_CLASSES];
  pthread_mutex_lock(&ctx->lock);
  for (unsigned c = 0; c < count && status == OCF_SUCCESS; c++) {
    next[c] = ctx->tuning[op][dtype][c];
    if (only >= 0 && (int)c != only) continue;
    if (!values || !values[0]) {
      next[c] = ctx->tuning_base[op][dtype][c];
      continue;
    }
    status = ocf_tuning_parse(op, values, &next[c], "ocf_context_set_tuning");
    if (status == OCF_SUCCESS) status = ocf_tuning_check(op, &next[c], "ocf_context_set_tuning");
  }
  if (status == OCF_SUCCESS) {
    memcpy(ctx->tuning[op][dtype], next, count * sizeof next[0]);
    ctx->plan_generation++; /* cached plans of the old values are not found again */
  }
  pthread_mutex_unlock(&ctx->lock);
  return status;
}

ocf_status ocf_context_get_tuning(ocf_context *ctx, const char *op_name, ocf_dtype dtype,
                                  const char *shape_class, char *values, size_t capacity) {
  ocf_error_clear();
  if (!ctx || !values || capacity == 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_get_tuning: %s",
                    !ctx ? "ctx is NULL" : "values is NULL or capacity 0");
  ocf_op op;
  int only = -1;
  ocf_status status =
      resolve_names("ocf_context_get_tuning", op_name, dtype, shape_class, &op, &only);
  if (status != OCF_SUCCESS) return status;
  ocf_tuning_values current;
  pthread_mutex_lock(&ctx->lock);
  current = ctx->tuning[op][dtype][only < 0 ? 0 : only];
  int same = 1;
  for (unsigned c = 1; only < 0 && c < ocf_shape_class_count(op); c++)
    same = same && memcmp(&ctx->tuning[op][dtype][c], &current, sizeof current) == 0;
  pthread_mutex_unlock(&ctx->lock);
  if (!same)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "ocf_context_get_tuning: %s's shape classes have different values; name one",
                    op_name);
  char text[2048];
  ocf_tuning_format(op, &current, text, sizeof text);
  if (strlen(text) + 1 > capacity) {
    memcpy(values, text, capacity - 1);
    values[capacity - 1] = '\0';
    return ocf_fail(OCF_ERR_BUFFER_TOO_SMALL, "ocf_context_get_tuning: %zu bytes needed",
                    strlen(text) + 1);
  }
  memcpy(values, text, strlen(text) + 1);
  return OCF_SUCCESS;
}

const char *ocf_context_tuning_origin(const ocf_context *ctx) {
  return ctx ? ctx->tuning_origin : "";
}

ocf_status ocf_tuning_database_path(const ocf_context *ctx, char *path, size_t capacity) {
  ocf_error_clear();
  if (!ctx || !path || capacity == 0)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_tuning_database_path: %s",
                    !ctx ? "ctx is NULL" : "path is NULL or capacity 0");
  if (ocf_user_database_path(ctx->settings.tuning_dir, &ctx->info, path, capacity) != 0)
    return ocf_fail(OCF_ERR_UNSUPPORTED,
                    "ocf_tuning_database_path: the context has no tuning folder (set "
                    "ocf_context_config.tuning_dir, OCLFUSE_TUNING_DIR or HOME) or the path is "
                    "too long");
  return OCF_SUCCESS;
}
