/* The buffer facts of a context (runtime/buffer_facts.h): a chained hash table on the handle
   over a fixed array of entries, evicted by a clock, behind a lock shared with the destructor
   callbacks. */
#include "runtime/buffer_facts.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { BUCKETS = 2 * OCF_BUFFER_FACTS_ENTRIES, NONE = -1 };

typedef struct entry {
  cl_mem buffer;
  int used;       /* holds a buffer */
  int valid;      /* its destructor callback is registered: lookups may use it */
  int referenced; /* found since the clock hand last passed */
  int next;       /* the next entry of its bucket, NONE */
  unsigned bucket;
  unsigned long serial; /* tells a recorder its own entry from a later one of the handle */
  ocf_buffer_fact fact;
} entry;

typedef struct table {
  int heads[BUCKETS];
  entry entries[OCF_BUFFER_FACTS_ENTRIES];
  unsigned hand;
  unsigned long serial;
  size_t count;
} table;

/* Shared by the context and every callback it registered; freed by the last of them. */
struct ocf_buffer_facts {
  pthread_mutex_t lock;
  long references; /* the context's (till release) and one per registered callback */
  table *table;    /* NULL once the context is released */
  size_t hits;
};

static unsigned bucket_of(cl_mem buffer) {
  uint64_t h = (uint64_t)(uintptr_t)buffer * 0x9e3779b97f4a7c15ull;
  return (unsigned)((h >> 32) % BUCKETS);
}

static int lookup(const table *t, cl_mem buffer) {
  for (int i = t->heads[bucket_of(buffer)]; i != NONE; i = t->entries[i].next)
    if (t->entries[i].buffer == buffer) return i;
  return NONE;
}

static void unlink_entry(table *t, int index) {
  entry *e = &t->entries[index];
  int *link = &t->heads[e->bucket];
  while (*link != NONE && *link != index)
    link = &t->entries[*link].next;
  if (*link == index) *link = e->next;
  e->used = e->valid = 0;
  e->buffer = NULL;
  e->next = NONE;
  t->count--;
}

/* A free entry, evicting by the clock when the table is full. */
static int take_slot(table *t) {
  for (;;) {
    const int i = (int)(t->hand++ % OCF_BUFFER_FACTS_ENTRIES);
    entry *e = &t->entries[i];
    if (!e->used) return i;
    if (e->referenced && t->count == OCF_BUFFER_FACTS_ENTRIES) {
      e->referenced = 0;
      continue;
    }
    if (t->count == OCF_BUFFER_FACTS_ENTRIES) {
      unlink_entry(t, i);
      return i;
    }
  }
}

/* A destroyed buffer: its entry goes, and those of its sub-buffers. */
static void forget(table *t, cl_mem buffer) {
  for (int i = 0; i < OCF_BUFFER_FACTS_ENTRIES; i++)
    if (t->entries[i].used && (t->entries[i].buffer == buffer || t->entries[i].fact.root == buffer))
      unlink_entry(t, i);
}

/* Drops a reference, the lock held; 1 when it was the last (the caller then frees). */
static int unreference(ocf_buffer_facts *facts) {
  return --facts->references == 0 && !facts->table;
}

static void destroy(ocf_buffer_facts *facts) {
  pthread_mutex_destroy(&facts->lock);
  free(facts);
}

/* Runs on whatever thread destroys the buffer, maybe after the context is released. */
static void CL_CALLBACK destroyed(cl_mem buffer, void *user) {
  ocf_buffer_facts *facts = user;
  pthread_mutex_lock(&facts->lock);
  if (facts->table) forget(facts->table, buffer);
  const int last = unreference(facts);
  pthread_mutex_unlock(&facts->lock);
  if (last) destroy(facts);
}

ocf_buffer_facts *ocf_buffer_facts_create(void) {
  ocf_buffer_facts *facts = calloc(1, sizeof *facts);
  if (!facts) return NULL;
  facts->table = calloc(1, sizeof *facts->table);
  if (!facts->table || pthread_mutex_init(&facts->lock, NULL) != 0) {
    free(facts->table);
    free(facts);
    return NULL;
  }
  for (int i = 0; i < BUCKETS; i++)
    facts->table->heads[i] = NONE;
  for (int i = 0; i < OCF_BUFFER_FACTS_ENTRIES; i++)
    facts->table->entries[i].next = NONE;
  facts->references = 1;
  return facts;
}

static cl_int query(cl_mem buffer, ocf_buffer_fact *fact, const char **what) {
  cl_mem parent = NULL;
  *fact = (ocf_buffer_fact){NULL, 0, buffer, 0};
  cl_int err;
  if ((err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof fact->context, &fact->context,
                                NULL)) != CL_SUCCESS)
    *what = "clGetMemObjectInfo(CL_MEM_CONTEXT)";
  else if ((err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof fact->size, &fact->size, NULL)) !=
           CL_SUCCESS)
    *what = "clGetMemObjectInfo(CL_MEM_SIZE)";
  else if ((err = clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent,
                                     NULL)) != CL_SUCCESS)
    *what = "clGetMemObjectInfo(sub-buffer parent)";
  else if (parent && (err = clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof fact->origin,
                                               &fact->origin, NULL)) != CL_SUCCESS)
    *what = "clGetMemObjectInfo(sub-buffer offset)";
  if (err == CL_SUCCESS && parent) fact->root = parent;
  return err;
}

/* Records a queried fact and registers the buffer's destructor callback; 1 when the buffer has
   a valid entry then (its callback registered), 0 when not (no table, registration failed, or
   another thread is recording it). */
static int record(ocf_buffer_facts *facts, cl_mem buffer, const ocf_buffer_fact *fact) {
  pthread_mutex_lock(&facts->lock);
  table *t = facts->table;
  if (!t) {
    pthread_mutex_unlock(&facts->lock);
    return 0;
  }
  int i = lookup(t, buffer);
  if (i != NONE) {
    const int valid = t->entries[i].valid;
    pthread_mutex_unlock(&facts->lock);
    return valid;
  }
  i = take_slot(t);
  entry *e = &t->entries[i];
  e->buffer = buffer;
  e->used = 1;
  e->valid = 0; /* till the callback is registered */
  e->referenced = 1;
  e->fact = *fact;
  e->serial = ++t->serial;
  e->bucket = bucket_of(buffer);
  e->next = t->heads[e->bucket];
  t->heads[e->bucket] = i;
  t->count++;
  const unsigned long serial = e->serial;
  facts->references++; /* the callback's */
  pthread_mutex_unlock(&facts->lock);

  /* Outside the lock: a runtime may hold the buffer's own lock while it runs callbacks. */
  const cl_int err = clSetMemObjectDestructorCallback(buffer, destroyed, facts);
  pthread_mutex_lock(&facts->lock);
  t = facts->table;
  i = t ? lookup(t, buffer) : NONE;
  int valid = 0;
  if (i != NONE && t->entries[i].serial == serial) {
    if (err == CL_SUCCESS)
      valid = t->entries[i].valid = 1;
    else
      unlink_entry(t, i);
  }
  const int last = err != CL_SUCCESS && unreference(facts);
  pthread_mutex_unlock(&facts->lock);
  if (last) destroy(facts);
  return valid;
}

/* Whether `buffer` has a valid entry, recording it if needed. */
static int known(ocf_buffer_facts *facts, cl_mem buffer) {
  pthread_mutex_lock(&facts->lock);
  const int i = facts->table ? lookup(facts->table, buffer) : NONE;
  const int valid = i != NONE && facts->table->entries[i].valid;
  pthread_mutex_unlock(&facts->lock);
  if (valid) return 1;
  ocf_buffer_fact fact;
  const char *what;
  return query(buffer, &fact, &what) == CL_SUCCESS && record(facts, buffer, &fact);
}

cl_int ocf_buffer_facts_get(ocf_buffer_facts *facts, cl_mem buffer, ocf_buffer_fact *fact,
                            const char **what) {
  if (facts) {
    pthread_mutex_lock(&facts->lock);
    const int i = facts->table ? lookup(facts->table, buffer) : NONE;
    if (i != NONE && facts->table->entries[i].valid) {
      *fact = facts->table->entries[i].fact;
      facts->table->entries[i].referenced = 1;
      facts->hits++;
      pthread_mutex_unlock(&facts->lock);
      return CL_SUCCESS;
    }
    pthread_mutex_unlock(&facts->lock);
  }
  const cl_int err = query(buffer, fact, what);
  if (err != CL_SUCCESS || !facts) return err;
  /* A sub-buffer's entry names its parent, whose destruction must then reach this table: the
     parent's callback is registered first (its entry may be evicted later; the callback stays). */
  if (fact->root == buffer || known(facts, fact->root)) record(facts, buffer, fact);
  return CL_SUCCESS;
}

void ocf_buffer_facts_stats(ocf_buffer_facts *facts, size_t *entries, size_t *hits) {
  *entries = *hits = 0;
  if (!facts) return;
  pthread_mutex_lock(&facts->lock);
  if (facts->table) *entries = facts->table->count;
  *hits = facts->hits;
  pthread_mutex_unlock(&facts->lock);
}

void ocf_buffer_facts_release(ocf_buffer_facts *facts) {
  if (!facts) return;
  pthread_mutex_lock(&facts->lock);
  free(facts->table);
  facts->table = NULL;
  const int last = --facts->references == 0;
  pthread_mutex_unlock(&facts->lock);
  if (last) destroy(facts);
}
