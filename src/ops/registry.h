/*
 * The op registry: one row per op with everything the generic parts of the library ask of it,
 * so that tuning (schema lookup, shape classes), the public tuning calls, warm-up and the run
 * loop (src/runtime/run.c) iterate this table instead of naming ops. Device-free (part of
 * oclfuse_plan): a row's functions fill structs and plan, they make no OpenCL calls.
 *
 * Each op keeps its row in src/ops/<op>_row.c (the row's pieces: its shape classes, how its
 * call struct maps to the tuning's shape, the planner behind one signature, the frame builder,
 * the warm-up grid); src/ops/registry.c lists the rows by ocf_op.
 */
#ifndef OCLFUSE_OPS_REGISTRY_H
#define OCLFUSE_OPS_REGISTRY_H

#include "kernels/kernels.h"
#include "plan/plan.h"
#include "tuning/shape_class.h"
#include "tuning/tuning.h"

#include <stddef.h>

/* The largest call struct and frame struct of any op (each row checks its own at compile
   time): the plan cache keeps a call's bytes, the run loop a frame on its stack. */
enum { OCF_CALL_MAX = 256, OCF_FRAME_MAX = 512 };

/* Room for one call struct of any op (a copy the run loop changes). */
typedef union ocf_call_storage {
  unsigned char bytes[OCF_CALL_MAX];
  long double align_;
  size_t align_size_;
} ocf_call_storage;

/* Room for one frame of any op. */
typedef union ocf_frame_storage {
  unsigned char bytes[OCF_FRAME_MAX];
  long double align_;
  cl_ulong align_ulong_;
} ocf_frame_storage;

typedef struct ocf_shape_class_desc {
  const char *name; /* "wide": the tuning database's and ocf_context_set_tuning's name */
  const char *doc;  /* one line: which calls fall in it */
} ocf_shape_class_desc;

/* Called for each call of a warm-up grid (`call` is the op's ocf_<op>_call). */
typedef void (*ocf_call_visit)(void *user, const void *call);

typedef struct ocf_op_desc {
  const char *name; /* "softmax": the op's name in the API, the tuning database, the tool */
  ocf_op op;        /* its index in the table, OCF_OP_<NAME> of tuning/tuning.h */
  const ocf_op_schema *schema;                     /* its tunables (src/tuning/schema_<op>.c) */
  const ocf_shape_class_desc *classes;             /* its shape classes, in index order */
  unsigned class_count;                            /* 1 .. OCF_MAX_SHAPE_CLASSES */
  unsigned (*shape_class)(const ocf_shape *shape); /* the class a call's sizes fall in */
  /* The call struct (ocf_<op>_call of plan/plan.h): its size, and the sizes and data type its
     tuning values are looked up by. A call struct is built with memset first (its bytes,
     padding included, key the plan cache). */
  size_t call_size;
  /* Where the call struct keeps its ocf_scratch_bound (offsetof), which the run loop sets to plan
     a call again within a caller's workspace smaller than its plan's scratch; 0: the op's plans
     take no scratch. */
  size_t scratch_bound_at;
  void (*tuning_key)(const void *call, ocf_shape *shape, ocf_dtype *dtype);
  /* The planner (src/plan/plan_<op>.c) behind one signature. */
  ocf_status (*plan)(const ocf_device_facts *facts, const ocf_tuning_values *tuning,
                     const void *call, ocf_plan *plan);
  /* Whether the call has no work (it is planned all the same, and enqueues nothing). */
  int (*empty)(const void *call);
  /* Fills *frame, the arguments of `plan`'s kernels, from `source` (the op's argument values:
     a frame the op filled with its buffers, offsets and scalars; see the row) and sets
     slots->scratch and slots->arrivals to the frame's members (NULL: the op takes none). With
     source NULL, a dry frame for warm-up: zero sizes, every buffer `dummy`, on which each kernel
     does nothing (or stores into dummy only; see warmup.c). */
  void (*frame)(const ocf_plan *plan, const void *call, const void *source, cl_mem dummy,
                ocf_frame_storage *frame, ocf_frame_slots *slots);
  /* Visits the calls of a grid whose plans cover every program the op may build (every shape
     class and every edge between plans): what ocf_warmup builds. */
  void (*warmup_grid)(ocf_call_visit visit, void *user);
  /* Fills *call (the op's call struct) with the dense call of the public sizes `dims` (the
     public call's size arguments in order, as the tool's --sizes writes them: add n; softmax
     and norm rows, cols; matmul m, n, k; attention b, h, lq, lk, d) and every tensor stored as
     dtype: the call ocf_op_tuning_key hands to tuning_key and shape_class. */
  void (*sized_call)(const size_t *dims, ocf_dtype dtype, void *call);
} ocf_op_desc;

/* The row of `op`; NULL for OCF_OP_COUNT or any other value. */
const ocf_op_desc *ocf_op_desc_get(ocf_op op);
/* Writes "add, softmax or matmul" (every op's name) into out, for messages. */
void ocf_op_names(char *out, size_t capacity);

#endif /* OCLFUSE_OPS_REGISTRY_H */
