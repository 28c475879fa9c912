/*
 * The one internal header a tool of this repository may include (CMake target oclfuse_internal:
 * the static library, this folder, src/ and the generated program table; not installed, no
 * promise of stability). It names what the public header does not give and the tuner needs: the
 * ops' tunable schemas and their validator, the shape classes, the tuning database reader and
 * writer, and the file helpers it writes the database with.
 *
 *   tuning/tuning.h       ocf_op, OCF_OP_COUNT, ocf_op_from_name, ocf_op_schema_get (the
 *                         tunables and their ranges), ocf_tuning_values, ocf_tuning_fallbacks,
 *                         ocf_tuning_parse, ocf_tuning_check, ocf_tuning_format
 *   tuning/shape_class.h  ocf_shape, ocf_shape_class_count, _name, _doc, _of
 *   tuning/db.h           ocf_tuning_db, ocf_tuning_db_parse, _add, _format_sparse, _free
 *   runtime/files.h       ocf_read_file, ocf_make_dirs, ocf_write_file_atomic, ocf_fnv1a
 *   below                 ocf_op_tuning_key (src/ops/registry.c): the key a call is tuned under;
 *                         ocf_context_test_narrow_kernels (src/runtime/wide_probe.c): a test hook
 *
 * Everything else under src/ stays private to the library: the tool and the tests' generic
 * suites use the public header (include/oclfuse.h) and the harness (harness/).
 */
#ifndef OCLFUSE_INTERNAL_H
#define OCLFUSE_INTERNAL_H

#include "oclfuse.h"
#include "runtime/files.h"
#include "tuning/db.h"
#include "tuning/shape_class.h"
#include "tuning/tuning.h"

/* The tuning key of the dense call of `op` with the public sizes `dims` (the public call's size
   arguments in order: add n; softmax and norm rows, cols; matmul m, n, k; attention b, h, lq, lk,
   d) and every tensor stored as `dtype`: the data type (*key_dtype) and shape class
   (*shape_class) its tuning values are looked up by, by the op's own rule (its registry row's
   tuning_key and shape_class, as a call of the op resolves them). OCF_SUCCESS, or
   OCF_ERR_INVALID_VALUE for an op or data type out of range or a NULL pointer. */
ocf_status ocf_op_tuning_key(ocf_op op, const size_t *dims, ocf_dtype dtype, ocf_dtype *key_dtype,
                             unsigned *shape_class);

/* For the tests of wide workgroups (beyond a kernel's reported CL_KERNEL_WORK_GROUP_SIZE) on a
   device that reports large limits (PoCL): every kernel the context builds after this call
   reports at most `cap` work-items (0: what the runtime reports again, for kernels built after),
   as NVIDIA's driver reports 256 for every kernel; and on a device without NVIDIA's register cap
   option, wide plans need none (its registers bound no workgroup). Call it before the context's
   first op call. Never part of the public API. OCF_SUCCESS, or OCF_ERR_INVALID_VALUE for NULL. */
ocf_status ocf_context_test_narrow_kernels(ocf_context *ctx, size_t cap);

#endif /* OCLFUSE_INTERNAL_H */
