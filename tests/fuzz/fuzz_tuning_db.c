/*
 * Fuzz target: the tuning-database reader (src/tuning/db.h), pure text in, no device. For any
 * bytes: no crash, no leak, no undefined behaviour (the fuzz build has ASan and UBSan); a refused
 * file leaves the database empty and says why; an accepted one writes back (ocf_tuning_db_format)
 * as text that reads back the same, and applies to every op, data type and shape class without
 * harm (a value that breaks a range or a rule is the validator's to refuse later, not a crash).
 */
#include "fuzz.h"
#include "tuning/db.h"
#include "tuning/shape_class.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  return 0;
}

/* Whether two databases hold the same header and entries. */
static int same_database(const ocf_tuning_db *a, const ocf_tuning_db *b) {
  if (a->format != b->format || strcmp(a->library, b->library) || strcmp(a->vendor, b->vendor) ||
      strcmp(a->device, b->device) || strcmp(a->driver, b->driver) ||
      a->entry_count != b->entry_count)
    return 0;
  for (size_t i = 0; i < a->entry_count; i++) {
    const ocf_tuning_entry *x = &a->entries[i], *y = &b->entries[i];
    if (x->op != y->op || x->dtype != y->dtype || x->shape_class != y->shape_class ||
        strcmp(x->values, y->values) != 0)
      return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ocf_tuning_db db;
  ocf_status status = ocf_tuning_db_parse((const char *)data, size, &db);
  if (status != OCF_SUCCESS) {
    FUZZ_CHECK(db.entry_count == 0 && db.entries == NULL, "a refused database kept %zu entries",
               db.entry_count);
    FUZZ_CHECK(status == OCF_ERR_INVALID_VALUE || status == OCF_ERR_OUT_OF_HOST_MEMORY, "status %s",
               ocf_status_name(status));
    FUZZ_CHECK(ocf_last_error()[0] != '\0', "refused without a reason");
    return 0;
  }
  char *text = ocf_tuning_db_format(&db);
  FUZZ_CHECK(text != NULL, "an accepted database cannot be written");
  ocf_tuning_db again;
  status = ocf_tuning_db_parse(text, strlen(text), &again);
  FUZZ_CHECK(status == OCF_SUCCESS, "the reader refuses what the writer wrote: %s\n%s",
             ocf_last_error(), text);
  FUZZ_CHECK(same_database(&db, &again), "written and read back, the database differs:\n%s", text);
  for (int op = 0; op < OCF_OP_COUNT; op++)
    for (int dtype = 0; dtype < OCF_DTYPE_COUNT; dtype++)
      for (unsigned cls = 0; cls < ocf_shape_class_count((ocf_op)op); cls++) {
        ocf_tuning_values values;
        ocf_tuning_fallbacks((ocf_op)op, &values);
        status = ocf_tuning_db_apply(&db, (ocf_op)op, (ocf_dtype)dtype, cls, &values);
        FUZZ_CHECK(status == OCF_SUCCESS || status == OCF_ERR_INVALID_VALUE, "apply gave %s",
                   ocf_status_name(status));
      }
  ocf_tuning_db_free(&again);
  ocf_tuning_db_free(&db);
  free(text);
  return 0;
}
