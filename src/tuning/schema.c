/* The schemas by op (from the op registry, src/ops/registry.c), their fallbacks, and the one
 * validator, parser and formatter of values. */
#include "ops/registry.h"
#include "tuning/schemas.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ocf_op_schema *ocf_op_schema_get(ocf_op op) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  return desc ? desc->schema : NULL;
}

ocf_op ocf_op_from_name(const char *name) {
  for (int op = 0; op < OCF_OP_COUNT; op++)
    if (name && strcmp(name, ocf_op_desc_get((ocf_op)op)->name) == 0) return (ocf_op)op;
  return OCF_OP_COUNT;
}

void ocf_tuning_fallbacks(ocf_op op, ocf_tuning_values *values) {
  const ocf_op_schema *schema = ocf_op_schema_get(op);
  memset(values, 0, sizeof *values);
  for (unsigned i = 0; schema && i < schema->count; i++)
    values->v[i] = schema->tunables[i].fallback;
}

/* The name of value i (a tunable, then a derived value). */
static const char *value_name(const ocf_op_schema *schema, int i) {
  if (i < (int)schema->count) return schema->tunables[i].name;
  return schema->derived_names[i - (int)schema->count];
}

static int rule_holds(const ocf_rule *rule, const long long *all) {
  long long x = all[rule->x];
  switch (rule->kind) {
  case OCF_RULE_LE:
    return x <= all[rule->y];
  case OCF_RULE_MULTIPLE_OF:
    return all[rule->y] > 0 && x % all[rule->y] == 0;
  case OCF_RULE_DIVISIBLE:
    return x % rule->n == 0;
  case OCF_RULE_AT_MOST:
    return x <= rule->n;
  case OCF_RULE_AT_LEAST:
    return x >= rule->n;
  }
  return 0;
}

ocf_status ocf_tuning_check(ocf_op op, const ocf_tuning_values *values, const char *origin) {
  const ocf_op_schema *schema = ocf_op_schema_get(op);
  if (!schema) return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning: op %d is not an op", (int)op);
  for (unsigned i = 0; i < schema->count; i++) {
    const ocf_tunable *t = &schema->tunables[i];
    int v = values->v[i];
    int pow2_ok = !t->pow2 || (v == 0 && t->min == 0) || (v > 0 && (v & (v - 1)) == 0);
    if (v < t->min || v > t->max || !pow2_ok)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s %s = %d is outside [%d, %d]%s", origin,
                      schema->name, t->name, v, t->min, t->max,
                      t->pow2 ? " or not a power of two" : "");
  }
  long long all[OCF_TUNING_MAX + OCF_DERIVED_MAX];
  for (unsigned i = 0; i < schema->count; i++)
    all[i] = values->v[i];
  if (schema->derive) schema->derive(values, all + schema->count);
  for (unsigned r = 0; r < schema->rule_count; r++) {
    const ocf_rule *rule = &schema->rules[r];
    if (rule->when >= 0 && all[rule->when] == 0) continue;
    if (!rule_holds(rule, all))
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s %s = %lld breaks a rule (%s)", origin,
                      schema->name, value_name(schema, rule->x), all[rule->x], rule->why);
  }
  return OCF_SUCCESS;
}

static int name_is(const char *candidate, const char *name, size_t length) {
  return candidate && strlen(candidate) == length && strncmp(candidate, name, length) == 0;
}

/* A tunable by its name, else by its format-1 name (no format-1 name is another tunable's
   name: test_tuning_db checks it). */
static int find_tunable(const ocf_op_schema *schema, const char *name, size_t length) {
  for (unsigned i = 0; i < schema->count; i++)
    if (name_is(schema->tunables[i].name, name, length)) return (int)i;
  for (unsigned i = 0; i < schema->count; i++)
    if (name_is(schema->tunables[i].v1_name, name, length)) return (int)i;
  return -1;
}

ocf_status ocf_tuning_parse(ocf_op op, const char *text, ocf_tuning_values *values,
                            const char *origin) {
  const ocf_op_schema *schema = ocf_op_schema_get(op);
  if (!schema) return ocf_fail(OCF_ERR_INVALID_VALUE, "tuning: op %d is not an op", (int)op);
  ocf_tuning_values parsed = *values; /* all or nothing */
  const char *p = text ? text : "";
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0') break;
    const char *name = p;
    while (*p && *p != '=' && *p != ' ' && *p != '\t')
      p++;
    size_t name_length = (size_t)(p - name);
    if (*p != '=' || name_length == 0)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: \"%.*s\" is not name=value", origin,
                      (int)(name_length ? name_length : 1), name);
    int index = find_tunable(schema, name, name_length);
    if (index < 0)
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s has no tunable \"%.*s\"", origin, schema->name,
                      (int)name_length, name);
    const char *number = ++p;
    char *end = NULL;
    errno = 0;
    long value = strtol(number, &end, 10);
    if (end == number || errno || value < INT_MIN || value > INT_MAX ||
        (*end != '\0' && *end != ' ' && *end != '\t'))
      return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: %s %.*s has no decimal int value", origin,
                      schema->name, (int)name_length, name);
    parsed.v[index] = (int)value;
    p = end;
  }
  *values = parsed;
  return OCF_SUCCESS;
}

void ocf_tuning_format(ocf_op op, const ocf_tuning_values *values, char *out, size_t capacity) {
  const ocf_op_schema *schema = ocf_op_schema_get(op);
  size_t used = 0;
  if (capacity) out[0] = '\0';
  for (unsigned i = 0; schema && i < schema->count && used < capacity; i++) {
    int n = snprintf(out + used, capacity - used, "%s%s=%d", i ? " " : "", schema->tunables[i].name,
                     values->v[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
}
