/*
 * The op registry: every op's row, by ocf_op (src/ops/registry.h says what a row holds).
 *
 * A new op's row (the norm op's, say) needs:
 *   - OCF_OP_<NAME> in ocf_op (src/tuning/tuning.h), before OCF_OP_COUNT, and its schema
 *     (src/tuning/schema_<op>.c, declared in src/tuning/schemas.h);
 *   - its call struct ocf_<op>_call and planner ocf_plan_<op> (src/plan/plan.h,
 *     src/plan/plan_<op>.c), its frame struct (src/kernels/kernels.h);
 *   - src/ops/<op>_row.c: its shape classes and the function that picks one, tuning_key (the
 *     shape and data type its tuning values are looked up by), the planner behind the
 *     registry's signature, empty (no work), the frame builder (the call's frame from the
 *     op's argument values, and a dry frame for warm-up), the warm-up grid and sized_call
 *     (the dense call of the public sizes, for ocf_op_tuning_key), in one
 *     `const ocf_op_desc ocf_<op>_op`, declared below and listed in `rows` in ocf_op order;
 *   - src/ops/<op>.c: the public calls, which check their arguments, fill the call struct
 *     (memset first: its bytes key the plan cache) and the frame source, and call ocf_run
 *     (src/runtime/run.h);
 *   - the three files added to oclfuse_plan / oclfuse_runtime in CMakeLists.txt.
 * Tuning (schema lookup, shape classes), ocf_context_set_tuning and _get_tuning, ocf_warmup,
 * the plan cache and ocf_op_count / ocf_op_name then know the op; tests/test_registry.c checks
 * the row against everything that iterates the table.
 */
#include "ops/registry.h"

#include "common.h"
#include "internal/oclfuse_internal.h"

#include <stdio.h>
#include <string.h>

/* The rows (src/ops/<op>_row.c). */
extern const ocf_op_desc ocf_add_op;
extern const ocf_op_desc ocf_softmax_op;
extern const ocf_op_desc ocf_matmul_op;
extern const ocf_op_desc ocf_norm_op;
extern const ocf_op_desc ocf_attention_op;

static const ocf_op_desc *const rows[OCF_OP_COUNT] = {&ocf_add_op, &ocf_softmax_op, &ocf_matmul_op,
                                                      &ocf_norm_op, &ocf_attention_op};

const ocf_op_desc *ocf_op_desc_get(ocf_op op) {
  return (unsigned)op < OCF_OP_COUNT ? rows[op] : NULL;
}

ocf_status ocf_op_tuning_key(ocf_op op, const size_t *dims, ocf_dtype dtype, ocf_dtype *key_dtype,
                             unsigned *shape_class) {
  const ocf_op_desc *desc = ocf_op_desc_get(op);
  if (!desc || !dims || !key_dtype || !shape_class || (unsigned)dtype > OCF_BF16)
    return OCF_ERR_INVALID_VALUE;
  union {
    unsigned char bytes[OCF_CALL_MAX];
    long double align_;
  } call;
  ocf_shape shape;
  desc->sized_call(dims, dtype, call.bytes);
  desc->tuning_key(call.bytes, &shape, key_dtype);
  *shape_class = desc->shape_class(&shape);
  return OCF_SUCCESS;
}

void ocf_op_names(char *out, size_t capacity) {
  size_t used = 0;
  if (capacity == 0) return;
  out[0] = '\0';
  for (int op = 0; op < OCF_OP_COUNT; op++) {
    const char *separator = op == 0 ? "" : op == OCF_OP_COUNT - 1 ? " or " : ", ";
    int n = snprintf(out + used, capacity - used, "%s%s", separator, rows[op]->name);
    if (n < 0 || (size_t)n >= capacity - used) return;
    used += (size_t)n;
  }
}

size_t ocf_op_count(void) {
  return OCF_OP_COUNT;
}

const char *ocf_op_name(size_t index) {
  return index < OCF_OP_COUNT ? rows[index]->name : NULL;
}
