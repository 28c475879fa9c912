/* The op schemas (schema_<op>.c), gathered by schema.c. */
#ifndef OCLFUSE_SCHEMAS_H
#define OCLFUSE_SCHEMAS_H

#include "common.h"
#include "tuning/tuning.h"

extern const ocf_op_schema ocf_add_schema;
extern const ocf_op_schema ocf_softmax_schema;
extern const ocf_op_schema ocf_matmul_schema;
extern const ocf_op_schema ocf_norm_schema;
extern const ocf_op_schema ocf_attention_schema;

#endif /* OCLFUSE_SCHEMAS_H */
