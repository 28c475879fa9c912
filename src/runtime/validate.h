/*
 * Argument checks shared by every op (validate.c), done before anything is enqueued.
 */
#ifndef OCLFUSE_VALIDATE_H
#define OCLFUSE_VALIDATE_H

#include "common.h"

#include <stddef.h>

/* ---- validate.c: argument checks, done before anything is enqueued ---- */

/* Sets *extent to the element count spanned by a rows x cols matrix with row stride ld:
   (rows - 1) * ld + cols, or 0 when rows or cols is 0. OCF_ERR_INVALID_STRIDE when ld < cols (a
   stride shorter than its row is refused even for one row, as BLAS does), OCF_ERR_SIZE_OVERFLOW
   when the extent or its size in bytes (elements of `element_size`) overflows size_t. `name`
   names the matrix in errors. */
ocf_status ocf_matrix_extent(const char *name, size_t rows, size_t cols, size_t ld,
                             size_t element_size, size_t *extent);

/* A buffer argument: non-NULL, of ctx's OpenCL context, at least (offset + extent) elements of
   `element_size` bytes. An extent of 0 still requires a non-NULL, valid buffer. */
ocf_status ocf_check_buffer(const ocf_context *ctx, const char *name, cl_mem buffer, size_t offset,
                            size_t extent, size_t element_size);

/* A buffer of a call and, once an overlap test below needed it, where its bytes live: its root
   buffer (a sub-buffer's parent, else itself) and its first byte there. A call makes one place a
   buffer (ocf_place_of) and passes it to each of its tests, so that each buffer's parent is
   queried once a call, and not at all when a test compares a buffer with itself. */
typedef struct ocf_place {
  cl_mem buffer;
  cl_mem root; /* NULL till resolved */
  size_t origin;
} ocf_place;

static inline ocf_place ocf_place_of(cl_mem buffer) {
  ocf_place place = {buffer, NULL, 0};
  return place;
}

/* Sets *overlap when the byte ranges [a_start, a_start + a_bytes) of a and [b_start, ...) of b
   overlap in memory, resolving sub-buffers to their parent, and *same_start when they also start
   at the same byte. The ranges come from checked offsets and extents, so they do not overflow.
   A failed buffer query is its OpenCL status. */
ocf_status ocf_places_overlap(ocf_place *a, size_t a_start, size_t a_bytes, ocf_place *b,
                              size_t b_start, size_t b_bytes, int *overlap, int *same_start);
/* The same for two buffers without places (their parents queried afresh). */
ocf_status ocf_ranges_overlap(cl_mem a, size_t a_start, size_t a_bytes, cl_mem b, size_t b_start,
                              size_t b_bytes, int *overlap, int *same_start);

/* A strided matrix in a buffer: rows x cols elements of element_size bytes, row r from element
   offset + r * ld (a checked extent); `place`, where not NULL, is the buffer's place in the call
   (ocf_place). */
typedef struct ocf_matrix_view {
  cl_mem buffer;
  size_t offset, rows, cols, ld, element_size;
  ocf_place *place;
} ocf_matrix_view;

/* Sets *overlap when the two matrices share a byte of memory (sub-buffers resolved), and
   *in_place when they are the same matrix (same start, stride and element size). Exact for two
   matrices of one stride and element size (interleaved rows that share no element do not
   overlap); otherwise any intersection of the spans from first to last element counts. A failed
   buffer query is its OpenCL status. */
ocf_status ocf_matrices_overlap(const ocf_matrix_view *a, const ocf_matrix_view *b, int *overlap,
                                int *in_place);

/* Resolves the launch settings: NULL launch means defaults. Checks the struct's size, that the
   queue belongs to ctx's context and device, that the wait list is consistent (count and
   pointer agree), and that the variant is known. Copies the settings into *resolved (zeroes for
   a NULL launch) and sets *queue to the queue to use. */
ocf_status ocf_check_launch(const ocf_context *ctx, const ocf_launch *launch, ocf_launch *resolved,
                            cl_command_queue *queue);

/* Checks an options struct's size member against the first version's size and ours. */
ocf_status ocf_check_struct_size(const char *what, size_t size, size_t first_version_size);
/* Reads a caller's versioned struct `given` (a size_t `size` member first) over *ours (our_size
   bytes holding the defaults): its size checked as ocf_check_struct_size does, then the bytes
   of the members both versions know copied (a caller built against a newer header may pass a
   larger struct, an older one a smaller), and ours->size set to our_size. */
ocf_status ocf_read_struct(const char *what, const void *given, size_t first_version_size,
                           void *ours, size_t our_size);

#endif /* OCLFUSE_VALIDATE_H */
