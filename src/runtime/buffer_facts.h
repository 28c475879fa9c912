/*
 * The buffer facts of a context: what the argument checks ask OpenCL about a cl_mem (its
 * context, size, and for a sub-buffer its parent and origin), kept per handle so that a repeated
 * call does no clGetMemObjectInfo (src/runtime/validate.c).
 *
 * Safe against a handle that a released buffer leaves and a new buffer takes: the first time a
 * buffer is seen, a destructor callback (clSetMemObjectDestructorCallback) is registered that
 * removes its entry, and the entry is used only once that registration succeeded (else every
 * call queries). A sub-buffer's entry also goes when its parent is destroyed. The callbacks hold
 * a reference to a small shared state, not to the context: at context release the table is freed
 * and a later callback finds nothing and does nothing. A bounded table (clock eviction); an
 * evicted entry's callback finds nothing. Its own lock, a leaf: no other lock is taken inside it.
 */
#ifndef OCLFUSE_BUFFER_FACTS_H
#define OCLFUSE_BUFFER_FACTS_H

#include "common.h"

#include <stddef.h>

enum { OCF_BUFFER_FACTS_ENTRIES = 256 };

/* What the checks know of a buffer. */
typedef struct ocf_buffer_fact {
  cl_context context;
  size_t size;   /* CL_MEM_SIZE, bytes */
  cl_mem root;   /* the parent of a sub-buffer, else the buffer itself */
  size_t origin; /* a sub-buffer's byte offset in its parent, else 0 */
} ocf_buffer_fact;

typedef struct ocf_buffer_facts ocf_buffer_facts;

/* A new, empty table; NULL when out of memory (the checks then query every call). */
ocf_buffer_facts *ocf_buffer_facts_create(void);
/* Fills *fact for `buffer` (not NULL), from the table or from OpenCL (and then records it);
   a failed query is its OpenCL status, *what naming the query. A NULL table queries. */
cl_int ocf_buffer_facts_get(ocf_buffer_facts *facts, cl_mem buffer, ocf_buffer_fact *fact,
                            const char **what);
/* Counters for tests: entries held, lookups answered from the table. */
void ocf_buffer_facts_stats(ocf_buffer_facts *facts, size_t *entries, size_t *hits);
/* Drops the table at context release; callbacks still registered then do nothing, and the
   last of them frees what remains. NULL: nothing. */
void ocf_buffer_facts_release(ocf_buffer_facts *facts);

#endif /* OCLFUSE_BUFFER_FACTS_H */
