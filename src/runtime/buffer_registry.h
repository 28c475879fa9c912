/*
 * The buffer registry (buffer_registry.c): what the argument checks learn of a caller's cl_mem
 * that cannot change in its lifetime (its context, its size, a sub-buffer's parent and origin),
 * asked once and kept, keyed by the handle, so that a repeated call asks OpenCL nothing about
 * its buffers (validate.c) and sets no buffer argument a kernel already holds (bind.c).
 *
 * Why a handle can be trusted: the first time a buffer is recorded, a destructor callback
 * (clSetMemObjectDestructorCallback, OpenCL 1.1) is registered on it, once per buffer lifetime.
 * OpenCL runs a buffer's callbacks before it frees the buffer, so a handle cannot name a new
 * buffer before the old one's callback has run; the callback removes the entry and raises the
 * registry's epoch, which tells every kernel to set its buffer arguments again. A buffer
 * that the runtime refuses to register has no entry: it is asked about at every call, as
 * before. The table holds the live registered buffers only (the callback removes each), so a
 * process that makes and frees millions of buffers keeps none of them.
 *
 * One registry for the process (static storage): a callback may run on any thread, inside the
 * caller's clReleaseMemObject or later (a buffer in use when released), after every context is
 * released. It takes only the registry's own mutex and calls no OpenCL; nothing calls OpenCL
 * while holding that mutex.
 *
 * A context uses the registry only where its runtime was seen to keep that promise
 * (ocf_buffer_registry_probe): NVIDIA's driver once gave a released buffer's handle to a new
 * buffer before the old one's callback had run (2026-12-02, on the H200); such a runtime keeps
 * asking at every call.
 */
#ifndef OCLFUSE_BUFFER_REGISTRY_H
#define OCLFUSE_BUFFER_REGISTRY_H

#include "common.h"

#include <stddef.h>

/* What the registry keeps of a buffer. */
typedef struct ocf_buffer_facts {
  cl_context context; /* CL_MEM_CONTEXT */
  size_t size;        /* CL_MEM_SIZE, bytes */
  cl_mem root;        /* a sub-buffer's parent (CL_MEM_ASSOCIATED_MEMOBJECT), else the buffer */
  size_t origin;      /* a sub-buffer's CL_MEM_OFFSET in its parent, else 0 */
} ocf_buffer_facts;

/* The facts of a registered buffer: 1 and *facts filled, else 0 (never seen, its registration
   refused or still under way, or destroyed since). Without the lock when the calling thread
   found the buffer since the last destruction of a registered buffer (its last few answers). */
int ocf_buffer_registry_find(cl_mem buffer, ocf_buffer_facts *facts);

/* Records `facts` of `buffer` (asked of OpenCL by the caller) and registers the buffer's
   destructor callback, unless it is registered already. 1 when the buffer is registered on
   return (by this call or an earlier one); else 0, with *refused set to the status of a
   clSetMemObjectDestructorCallback that failed (the entry is then dropped: the buffer is asked
   about at every call) and left CL_SUCCESS when the buffer is only not registered yet (another
   thread is registering it, or the table could not grow). */
int ocf_buffer_registry_add(cl_mem buffer, const ocf_buffer_facts *facts, cl_int *refused);

/* Raised by every registered buffer's destruction. A kernel argument set to a registered buffer
   at epoch E still names that buffer while the epoch is E. */
unsigned long long ocf_buffer_registry_epoch(void);

/* Whether `buffer` is registered now (its entry is complete). */
int ocf_buffer_registry_holds(cl_mem buffer);

/* Registered buffers now, and destructions seen since the process started (for tests). */
void ocf_buffer_registry_stats(size_t *entries, unsigned long long *destroyed);

/* Whether the runtime of `context` runs a buffer's destructor callbacks inside its
   clReleaseMemObject, on the releasing thread (the buffer idle: never used, then three times
   filled on a queue of the probe's own and finished), as the registry needs: 1 if so every
   time, 0 if not or if any step failed. A conforming runtime that destroys a buffer later (a
   command or a kernel argument still holding it) fails too: the probe only ever errs on the
   safe side, for the buffers it tried. */
int ocf_buffer_registry_probe(cl_context context, cl_device_id device);

#endif /* OCLFUSE_BUFFER_REGISTRY_H */
