/* Argument checks shared by every operation. Each runs before anything is enqueued, so a call
   that fails here has changed nothing. */
#include "runtime/buffer_registry.h"
#include "runtime/context.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

ocf_status ocf_matrix_extent(const char *name, size_t rows, size_t cols, size_t ld,
                             size_t element_size, size_t *extent) {
  if (ld < cols)
    return ocf_fail(OCF_ERR_INVALID_STRIDE,
                    "%s: row stride %zu is shorter than its row of %zu elements", name, ld, cols);
  if (rows == 0 || cols == 0) {
    *extent = 0;
    return OCF_SUCCESS;
  }
  /* (rows - 1) * ld + cols, and the same in bytes, must fit in size_t. */
  size_t limit = SIZE_MAX / element_size;
  if (cols > limit || (ld != 0 && rows - 1 > (limit - cols) / ld))
    return ocf_fail(OCF_ERR_SIZE_OVERFLOW,
                    "%s: %zu rows of stride %zu overflow the addressable size", name, rows, ld);
  *extent = (rows - 1) * ld + cols;
  return OCF_SUCCESS;
}

/* Follows a sub-buffer to its parent, adding the sub-buffer's origin to *byte_offset. */
static cl_int resolve_parent(cl_mem buffer, cl_mem *parent, size_t *byte_offset) {
  cl_mem associated = NULL;
  cl_int err =
      clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof associated, &associated, NULL);
  if (err != CL_SUCCESS) return err;
  if (!associated) {
    *parent = buffer;
    return CL_SUCCESS;
  }
  size_t origin = 0;
  err = clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof origin, &origin, NULL);
  if (err != CL_SUCCESS) return err;
  *byte_offset += origin;
  *parent = associated;
  return CL_SUCCESS;
}

/* Whether ctx's buffer checks use the buffer registry: decided at the context's creation by
   the registry's probe, turned off by a refused registration. */
static int registry_in_use(const ocf_context *ctx) {
  return __atomic_load_n(&ctx->buffer_registry, __ATOMIC_ACQUIRE) > 0;
}

/* Records a checked buffer of ctx in the registry: its parent and origin are asked now, once in
   its lifetime. A failed query records nothing (the checks ask again next time); a refused
   registration turns the registry off for the context (the state is the context's, written
   through the const context the checks take). */
static void registry_record(const ocf_context *ctx, cl_mem buffer, cl_context owner, size_t bytes) {
  ocf_buffer_facts facts = {owner, bytes, buffer, 0};
  if (resolve_parent(buffer, &facts.root, &facts.origin) != CL_SUCCESS) return;
  cl_int refused = CL_SUCCESS;
  if (!ocf_buffer_registry_add(buffer, &facts, &refused) && refused != CL_SUCCESS) {
    __atomic_store_n((int *)&ctx->buffer_registry, -1, __ATOMIC_RELEASE);
    ocf_log((ocf_log_sink *)&ctx->log, OCF_LOG_INFO,
            "buffer registry: off (clSetMemObjectDestructorCallback refused: %s)",
            ocf_cl_error_name(refused));
  }
}

ocf_status ocf_check_buffer(const ocf_context *ctx, const char *name, cl_mem buffer, size_t offset,
                            size_t extent, size_t element_size) {
  if (!buffer) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "%s: buffer is NULL", name);
  const int use_registry = registry_in_use(ctx);
  ocf_buffer_facts facts;
  const int known = use_registry && ocf_buffer_registry_find(buffer, &facts);
  char what[160];
  cl_context owner = known ? facts.context : NULL;
  cl_int err = CL_SUCCESS;
  if (!known) err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
  if (err != CL_SUCCESS) {
    snprintf(what, sizeof what, "%s: clGetMemObjectInfo(CL_MEM_CONTEXT)", name);
    return ocf_fail_cl(err, what);
  }
  if (owner != ctx->cl_ctx)
    return ocf_fail(OCF_ERR_CONTEXT_MISMATCH,
                    "%s: buffer was created in another OpenCL context than the ocf_context's",
                    name);
  size_t bytes = known ? facts.size : 0;
  if (!known) err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
  if (err != CL_SUCCESS) {
    snprintf(what, sizeof what, "%s: clGetMemObjectInfo(CL_MEM_SIZE)", name);
    return ocf_fail_cl(err, what);
  }
  if (use_registry && !known) registry_record(ctx, buffer, owner, bytes);
  size_t capacity = bytes / element_size;
  if (offset > capacity || extent > capacity - offset)
    return ocf_fail(OCF_ERR_BUFFER_TOO_SMALL,
                    "%s: buffer holds %zu elements of %zu bytes but offset %zu plus extent %zu "
                    "needs more",
                    name, capacity, element_size, offset, extent);
  return OCF_SUCCESS;
}

/* Resolves where a place's bytes live, querying its buffer at most once. */
static ocf_status resolve(ocf_place *place) {
  if (place->root) return OCF_SUCCESS;
  /* A registered buffer's parent is known (an entry exists only where its runtime passed the
     registry's probe, whichever context recorded it). */
  ocf_buffer_facts facts;
  if (ocf_buffer_registry_find(place->buffer, &facts)) {
    place->root = facts.root;
    place->origin = facts.origin;
    return OCF_SUCCESS;
  }
  cl_mem root = place->buffer;
  size_t origin = 0;
  cl_int err = resolve_parent(place->buffer, &root, &origin);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetMemObjectInfo(sub-buffer parent)");
  place->root = root;
  place->origin = origin;
  return OCF_SUCCESS;
}

/* *same_root when byte a_byte of a and b_byte of b live in one root buffer, *a_begin and
 *b_begin then their bytes in a common frame (a buffer compared with itself: its own). */
static ocf_status common_root(ocf_place *a, size_t a_byte, ocf_place *b, size_t b_byte,
                              int *same_root, size_t *a_begin, size_t *b_begin) {
  *a_begin = a_byte;
  *b_begin = b_byte;
  *same_root = a->buffer == b->buffer;
  if (*same_root) return OCF_SUCCESS;
  ocf_status status = resolve(a);
  if (status == OCF_SUCCESS) status = resolve(b);
  if (status != OCF_SUCCESS) return status;
  *same_root = a->root == b->root;
  *a_begin += a->origin;
  *b_begin += b->origin;
  return OCF_SUCCESS;
}

ocf_status ocf_places_overlap(ocf_place *a, size_t a_start, size_t a_bytes, ocf_place *b,
                              size_t b_start, size_t b_bytes, int *overlap, int *same_start) {
  *overlap = *same_start = 0;
  int same_root = 0;
  size_t a_begin, b_begin;
  ocf_status status = common_root(a, a_start, b, b_start, &same_root, &a_begin, &b_begin);
  if (status != OCF_SUCCESS || !same_root || a_bytes == 0 || b_bytes == 0) return status;
  *same_start = a_begin == b_begin;
  *overlap = a_begin < b_begin + b_bytes && b_begin < a_begin + a_bytes;
  return OCF_SUCCESS;
}

ocf_status ocf_ranges_overlap(cl_mem a, size_t a_start, size_t a_bytes, cl_mem b, size_t b_start,
                              size_t b_bytes, int *overlap, int *same_start) {
  ocf_place a_place = ocf_place_of(a), b_place = ocf_place_of(b);
  return ocf_places_overlap(&a_place, a_start, a_bytes, &b_place, b_start, b_bytes, overlap,
                            same_start);
}

ocf_status ocf_matrices_overlap(const ocf_matrix_view *a, const ocf_matrix_view *b, int *overlap,
                                int *in_place) {
  *overlap = *in_place = 0;
  size_t a_extent = 0, b_extent = 0;
  if (a->rows && a->cols) a_extent = (a->rows - 1) * a->ld + a->cols;
  if (b->rows && b->cols) b_extent = (b->rows - 1) * b->ld + b->cols;
  ocf_place a_own = ocf_place_of(a->buffer), b_own = ocf_place_of(b->buffer);
  int same_root = 0;
  size_t a_begin, b_begin;
  ocf_status status = common_root(a->place ? a->place : &a_own, a->offset * a->element_size,
                                  b->place ? b->place : &b_own, b->offset * b->element_size,
                                  &same_root, &a_begin, &b_begin);
  if (status != OCF_SUCCESS || !same_root || a_extent == 0 || b_extent == 0) return status;
  const size_t a_end = a_begin + a_extent * a->element_size,
               b_end = b_begin + b_extent * b->element_size;
  if (a_begin >= b_end || b_begin >= a_end) return OCF_SUCCESS; /* their spans are apart */
  const size_t size = a->element_size,
               distance = a_begin > b_begin ? a_begin - b_begin : b_begin - a_begin;
  *in_place = distance == 0 && a->ld == b->ld && size == b->element_size && a->rows == b->rows &&
              a->cols == b->cols;
  /* Spans that interleave: exact when both have one stride and one element size and start a
     whole number of elements apart; otherwise sharing a span counts as overlap. */
  if (a->ld == b->ld && size == b->element_size && distance % size == 0)
    *overlap = ocf_strided_overlap(a_begin / size, a->rows, a->cols, b_begin / size, b->rows,
                                   b->cols, a->ld) ||
               *in_place;
  else
    *overlap = 1;
  return OCF_SUCCESS;
}

/* The size of the first published ocf_launch (0.2): every member up to `first_event`. */
#define LAUNCH_FIRST_SIZE (offsetof(ocf_launch, first_event) + sizeof(cl_event *))

ocf_status ocf_check_struct_size(const char *what, size_t size, size_t first_version_size) {
  if (size < first_version_size)
    return ocf_fail(OCF_ERR_INVALID_STRUCT,
                    "%s: size member is %zu, below the %zu bytes of its first version (initialise "
                    "it with its OCF_..._INIT macro)",
                    what, size, first_version_size);
  return OCF_SUCCESS;
}

ocf_status ocf_read_struct(const char *what, const void *given, size_t first_version_size,
                           void *ours, size_t our_size) {
  size_t size;
  memcpy(&size, given, sizeof size);
  ocf_status status = ocf_check_struct_size(what, size, first_version_size);
  if (status != OCF_SUCCESS) return status;
  /* A caller built against a newer header may pass a larger struct: read what we know. */
  memcpy(ours, given, size < our_size ? size : our_size);
  memcpy(ours, &our_size, sizeof our_size);
  return OCF_SUCCESS;
}

ocf_status ocf_check_launch(const ocf_context *ctx, const ocf_launch *launch, ocf_launch *resolved,
                            cl_command_queue *queue) {
  *queue = ctx->queue;
  memset(resolved, 0, sizeof *resolved);
  resolved->size = sizeof *resolved;
  if (!launch) return OCF_SUCCESS;
  ocf_status status =
      ocf_read_struct("launch", launch, LAUNCH_FIRST_SIZE, resolved, sizeof *resolved);
  if (status != OCF_SUCCESS) return status;
  if (launch->variant != OCF_VARIANT_AUTO && launch->variant != OCF_VARIANT_GENERAL &&
      launch->variant != OCF_VARIANT_BASELINE)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "launch variant %d is not an ocf_variant",
                    (int)launch->variant);
  if (launch->first_event && !launch->event)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "launch asks for first_event without event");
  if (launch->num_wait_events > 0 && !launch->wait_events)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "launch has %u wait events but wait_events is NULL",
                    (unsigned)launch->num_wait_events);
  if (launch->num_wait_events == 0 && launch->wait_events)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "launch has wait_events but num_wait_events is 0 (OpenCL refuses this)");
  /* Every wait event must be one of this context's, as every buffer must: OpenCL leaves an event
     of another context undefined (PoCL runs it, other drivers need not). */
  for (cl_uint i = 0; i < launch->num_wait_events; i++) {
    if (!launch->wait_events[i])
      return ocf_fail(OCF_ERR_NULL_ARGUMENT, "launch wait event %u is NULL", (unsigned)i);
    cl_context event_context = NULL;
    cl_int err = clGetEventInfo(launch->wait_events[i], CL_EVENT_CONTEXT, sizeof event_context,
                                &event_context, NULL);
    if (err != CL_SUCCESS) {
      char what[96];
      snprintf(what, sizeof what, "launch wait event %u: clGetEventInfo(CL_EVENT_CONTEXT)",
               (unsigned)i);
      return ocf_fail_cl(err, what);
    }
    if (event_context != ctx->cl_ctx)
      return ocf_fail(OCF_ERR_CONTEXT_MISMATCH,
                      "launch wait event %u belongs to another OpenCL context than the "
                      "ocf_context's",
                      (unsigned)i);
  }
  /* The context's own queue (retained by it, checked when it was made or wrapped) needs no
     query; any other is asked for its context and device at every call. */
  if (launch->queue && launch->queue != ctx->queue) {
    cl_context queue_context = NULL;
    cl_device_id queue_device = NULL;
    cl_int err = clGetCommandQueueInfo(launch->queue, CL_QUEUE_CONTEXT, sizeof queue_context,
                                       &queue_context, NULL);
    if (err == CL_SUCCESS)
      err = clGetCommandQueueInfo(launch->queue, CL_QUEUE_DEVICE, sizeof queue_device,
                                  &queue_device, NULL);
    if (err != CL_SUCCESS) return ocf_fail_cl(err, "launch queue: clGetCommandQueueInfo");
    if (queue_context != ctx->cl_ctx || queue_device != ctx->device)
      return ocf_fail(OCF_ERR_CONTEXT_MISMATCH,
                      "launch queue belongs to another %s than the ocf_context's",
                      queue_context != ctx->cl_ctx ? "OpenCL context" : "device");
  }
  if (launch->queue) *queue = launch->queue;
  return ocf_workspace_check(ctx, resolved);
}
