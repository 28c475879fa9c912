/*
 * The values a context resolves (built-in values, then the shipped databases that match:
 * ocf_tuning_resolve_library), for every op, data type and shape class on a set of described
 * devices, against a table written from main b7514b0, before the tuning was split by kernel
 * family, the built-in rows became src/tuning/builtin.tuning and the shipped databases sparse
 * (tests/data/tuning_resolve.txt, lines "device op dtype class name=value ...", every tunable
 * under its format-1 name). Device-free.
 *
 *   test_tuning_resolve TABLE          compares
 *   test_tuning_resolve --write        prints the table from the code in force
 */
#include "common.h"
#include "tuning/db.h"
#include "tuning/shape_class.h"
#include "tuning/shipped.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct described_device {
  const char *label;
  cl_device_type type;
  const char *platform, *vendor, *name;
  unsigned cc_major, cc_minor;
} described_device;

static const described_device devices[] = {
    {"nvidia-h200", CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", 9, 0},
    {"nvidia-h100", CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA Corporation",
     "NVIDIA H100 80GB HBM3", 9, 0},
    {"nvidia-a100", CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA Corporation",
     "NVIDIA A100-SXM4-80GB", 8, 0},
    {"amd-gpu", CL_DEVICE_TYPE_GPU, "AMD Accelerated Parallel Processing",
     "Advanced Micro Devices, Inc.", "gfx90a:sramecc+:xnack-", 0, 0},
    {"intel-gpu", CL_DEVICE_TYPE_GPU, "Intel(R) OpenCL Graphics", "Intel(R) Corporation",
     "Intel(R) Arc(TM) A770 Graphics", 0, 0},
    {"pocl-epyc", CL_DEVICE_TYPE_CPU, "Portable Computing Language", "AuthenticAMD",
     "pthread-haswell-AMD EPYC", 0, 0},
    {"pocl-xeon", CL_DEVICE_TYPE_CPU, "Portable Computing Language", "GenuineIntel",
     "pthread-skylake-avx512-Intel(R) Xeon(R) Gold 6248", 0, 0},
    {"generic-gpu", CL_DEVICE_TYPE_GPU, "Some Platform", "Some Vendor", "Some GPU", 0, 0},
    {"generic-accelerator", CL_DEVICE_TYPE_ACCELERATOR, "Some Platform", "Some Vendor",
     "Some Accelerator", 0, 0},
};

typedef ocf_tuning_table all_values;

static void describe(const described_device *d, ocf_device_info *info, ocf_device_facts *facts) {
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
  info->type = d->type;
  snprintf(info->platform_name, sizeof info->platform_name, "%s", d->platform);
  snprintf(info->vendor, sizeof info->vendor, "%s", d->vendor);
  snprintf(info->device_name, sizeof info->device_name, "%s", d->name);
  info->compute_units = 8;
  info->max_workgroup_size = 1024;
  info->max_work_item_sizes[0] = info->max_work_item_sizes[1] = info->max_work_item_sizes[2] = 1024;
  info->local_mem_bytes = 48 << 10;
  info->nv_compute_capability_major = d->cc_major;
  info->nv_compute_capability_minor = d->cc_minor;
  ocf_device_facts_init(facts, info);
}

/* What a context on the device resolves before its user database (tuning_context.c). */
static void resolve_device(const described_device *d, all_values *values) {
  ocf_device_info info;
  ocf_device_facts facts;
  describe(d, &info, &facts);
  char origin[256];
  const ocf_status resolved =
      ocf_tuning_resolve_library(&facts, info.vendor, info.platform_name, info.device_name, values,
                                 origin, sizeof origin, NULL, NULL);
  if (resolved != OCF_SUCCESS) fail_msg("%s: %s", d->label, ocf_last_error());
}

static const char *table_path;

static void test_tuning_resolve_matches_the_table(void **state) {
  (void)state;
  FILE *file = fopen(table_path, "r");
  if (!file) fail_msg("cannot open %s", table_path);
  static all_values values;
  static char line[8192];
  const described_device *current = NULL;
  size_t lines = 0;
  while (fgets(line, sizeof line, file)) {
    line[strcspn(line, "\n")] = '\0';
    if (!line[0] || line[0] == '#') continue;
    char label[64], op_name[16], dtype_name[8], class_name[32];
    int used = 0;
    if (sscanf(line, "%63s %15s %7s %31s %n", label, op_name, dtype_name, class_name, &used) != 4)
      fail_msg("bad table line: %s", line);
    if (!current || strcmp(current->label, label) != 0) {
      current = NULL;
      for (size_t d = 0; d < OCF_ARRAY_LEN(devices); d++)
        if (strcmp(devices[d].label, label) == 0) current = &devices[d];
      if (!current) fail_msg("no described device %s", label);
      resolve_device(current, &values);
    }
    ocf_op op = ocf_op_from_name(op_name);
    int t = 0;
    while (t < OCF_DTYPE_COUNT && strcmp(ocf_dtype_name((ocf_dtype)t), dtype_name) != 0)
      t++;
    int c = ocf_shape_class_find(op, class_name);
    if (op == OCF_OP_COUNT || t == OCF_DTYPE_COUNT || c < 0)
      fail_msg("bad key in table line: %s", line);
    ocf_tuning_values expected;
    ocf_tuning_fallbacks(op, &expected);
    assert_int_equal(ocf_tuning_parse(op, line + used, &expected, "the table"), OCF_SUCCESS);
    const ocf_tuning_values *got = &values[op][t][c];
    for (unsigned i = 0; i < ocf_op_schema_get(op)->count; i++)
      if (got->v[i] != expected.v[i])
        fail_msg("%s %s %s %s: %s = %d, the table says %d", label, op_name, dtype_name, class_name,
                 ocf_op_schema_get(op)->tunables[i].name, got->v[i], expected.v[i]);
    lines++;
  }
  fclose(file);
  size_t want = 0;
  for (int op = 0; op < OCF_OP_COUNT; op++)
    want += OCF_DTYPE_COUNT * ocf_shape_class_count((ocf_op)op);
  assert_int_equal(lines, want * OCF_ARRAY_LEN(devices));
}

static void write_table(void) {
  static all_values values;
  static char text[8192];
  printf("# Written by `test_tuning_resolve --write` (tests/test_tuning_resolve.c).\n");
  for (size_t d = 0; d < OCF_ARRAY_LEN(devices); d++) {
    resolve_device(&devices[d], &values);
    for (int op = 0; op < OCF_OP_COUNT; op++)
      for (int t = 0; t < OCF_DTYPE_COUNT; t++)
        for (unsigned c = 0; c < ocf_shape_class_count((ocf_op)op); c++) {
          ocf_tuning_format((ocf_op)op, &values[op][t][c], text, sizeof text);
          printf("%s %s %s %s %s\n", devices[d].label, ocf_op_schema_get((ocf_op)op)->name,
                 ocf_dtype_name((ocf_dtype)t), ocf_shape_class_name((ocf_op)op, c), text);
        }
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--write") == 0) {
    write_table();
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: test_tuning_resolve TABLE | --write\n");
    return 2;
  }
  table_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tuning_resolve_matches_the_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
