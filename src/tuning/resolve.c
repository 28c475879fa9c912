/* Resolving an op's tuning values for one device from rows of data. */
#include "common.h"
#include "tuning/tuning.h"

#include <stdio.h>

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
