/* The shape classes of each op (its row in the op registry, src/ops/<op>_row.c), and which
   class a call falls in. */
#include "tuning/shape_class.h"

#include "common.h"
#include "ops/registry.h"

#include <string.h>

unsigned ocf_shape_class_count(ocf_op op) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  return desc ? desc->class_count : 0;
}

const char *ocf_shape_class_name(ocf_op op, unsigned index) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  return desc && index < desc->class_count ? desc->classes[index].name : NULL;
}

const char *ocf_shape_class_doc(ocf_op op, unsigned index) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  return desc && index < desc->class_count ? desc->classes[index].doc : NULL;
}

int ocf_shape_class_find(ocf_op op, const char *name) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  for (unsigned i = 0; desc && name && i < desc->class_count; i++)
    if (strcmp(desc->classes[i].name, name) == 0) return (int)i;
  return -1;
}

unsigned ocf_shape_class_of(ocf_op op, const ocf_shape *s) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  return desc ? desc->shape_class(s) : 0;
}
