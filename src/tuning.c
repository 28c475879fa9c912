/* Matching a device against a tuning table: rows of data, most specific first. */
#include "internal.h"

static int key_matches(const ocf_tuning_key *key, const ocf_device_info *info) {
  if (key->type && !(info->type & key->type)) return 0;
  if (key->vendor && !ocf_contains_nocase(info->vendor, key->vendor) &&
      !ocf_contains_nocase(info->platform_name, key->vendor))
    return 0;
  if (key->name && !ocf_contains_nocase(info->device_name, key->name)) return 0;
  return 1;
}

size_t ocf_tuning_match(const ocf_device_info *info, const void *rows, size_t row_count,
                        size_t row_size) {
  const unsigned char *row = rows;
  for (size_t i = 0; i + 1 < row_count; i++, row += row_size)
    if (key_matches((const ocf_tuning_key *)row, info)) return i;
  return row_count - 1;
}
