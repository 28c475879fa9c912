/* The buffer registry (runtime/buffer_registry.h): an open-addressing table on the handle (linear
   probing, deletion by backward shift), grown and shrunk with the number of live registered
   buffers, behind a mutex that the destructor callbacks share and that is never held while
   OpenCL is called. */
#include "runtime/buffer_registry.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { MIN_SLOTS = 64 };

typedef struct slot {
  cl_mem buffer; /* NULL: free */
  int complete;  /* its callback is registered (else the registering thread is at it) */
  ocf_buffer_facts facts;
} slot;

/* The process's registry; a callback may run after every context is gone. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot *slots; /* `capacity` of them, a power of two; NULL till the first record */
static size_t capacity, count;
static unsigned long long epoch;     /* written under the lock, read atomically without it */
static unsigned long long destroyed; /* under the lock */

static size_t home_of(cl_mem buffer, size_t slots_count) {
  const uint64_t h = (uint64_t)(uintptr_t)buffer * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 32) & (slots_count - 1);
}

/* The slot holding `buffer`, or capacity when none does. Under the lock. */
static size_t find(cl_mem buffer) {
  if (!slots) return capacity;
  for (size_t i = home_of(buffer, capacity);; i = (i + 1) & (capacity - 1)) {
    if (slots[i].buffer == buffer) return i;
    if (!slots[i].buffer) return capacity;
  }
}

/* Moves every entry into a table of `size` slots; 0, or -1 when it cannot be allocated (the
   table stays as it was). Under the lock. */
static int rehash(size_t size) {
  slot *fresh = calloc(size, sizeof *fresh);
  if (!fresh) return -1;
  for (size_t i = 0; i < capacity; i++) {
    if (!slots[i].buffer) continue;
    size_t j = home_of(slots[i].buffer, size);
    while (fresh[j].buffer)
      j = (j + 1) & (size - 1);
    fresh[j] = slots[i];
  }
  free(slots);
  slots = fresh;
  capacity = size;
  return 0;
}

/* Empties slot i, shifting back the entries of its run that could live nearer their home. */
static void remove_at(size_t i) {
  slots[i].buffer = NULL;
  count--;
  for (size_t j = (i + 1) & (capacity - 1); slots[j].buffer; j = (j + 1) & (capacity - 1)) {
    const size_t home = home_of(slots[j].buffer, capacity);
    /* Entry j may fill the hole at i unless its home lies cyclically in (i, j]. */
    const int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (stays) continue;
    slots[i] = slots[j];
    slots[j].buffer = NULL;
    i = j;
  }
  if (capacity > MIN_SLOTS && count * 8 < capacity) (void)rehash(capacity / 2);
}

/* Runs on whatever thread destroys a registered buffer, possibly inside the caller's
   clReleaseMemObject, possibly after every context is released: takes the registry's lock only
   and calls no OpenCL. */
static void CL_CALLBACK destroyed_callback(cl_mem buffer, void *user) {
  (void)user;
  pthread_mutex_lock(&lock);
  const size_t i = find(buffer);
  if (i != capacity) remove_at(i);
  __atomic_add_fetch(&epoch, 1, __ATOMIC_RELEASE);
  destroyed++;
  pthread_mutex_unlock(&lock);
}

/* Each thread's last few answers, so that a call's checks and overlap tests and the next
   call find their buffers without the lock: an answer found at epoch E still holds while the
   epoch is E (the buffer was alive then, and no registered buffer has been destroyed since). */
enum { RECENT = 4 };
typedef struct recent {
  cl_mem buffer; /* NULL: empty */
  unsigned long long epoch;
  ocf_buffer_facts facts;
} recent;
typedef struct recents {
  recent entries[RECENT];
  unsigned next; /* the one to replace next */
} recents;
static _Thread_local recents thread_recents;

int ocf_buffer_registry_find(cl_mem buffer, ocf_buffer_facts *facts) {
  /* Read before the lookup: a destruction after it raises the epoch past it. */
  const unsigned long long now = __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);
  recents *mine = &thread_recents;
  __asm__("" : "+r"(mine)); /* one look-up of the thread's storage, not one per use */
  for (int k = 0; k < RECENT; k++)
    if (mine->entries[k].buffer == buffer && mine->entries[k].epoch == now) {
      *facts = mine->entries[k].facts;
      return 1;
    }
  pthread_mutex_lock(&lock);
  const size_t i = find(buffer);
  const int found = i != capacity && slots[i].complete;
  if (found) *facts = slots[i].facts;
  pthread_mutex_unlock(&lock);
  if (found) mine->entries[mine->next++ % RECENT] = (recent){buffer, now, *facts};
  return found;
}

int ocf_buffer_registry_holds(cl_mem buffer) {
  pthread_mutex_lock(&lock);
  const size_t i = find(buffer);
  const int held = i != capacity && slots[i].complete;
  pthread_mutex_unlock(&lock);
  return held;
}

int ocf_buffer_registry_add(cl_mem buffer, const ocf_buffer_facts *facts, cl_int *refused) {
  *refused = CL_SUCCESS;
  pthread_mutex_lock(&lock);
  size_t i = find(buffer);
  if (i != capacity) { /* registered, or being registered by another thread */
    const int complete = slots[i].complete;
    pthread_mutex_unlock(&lock);
    return complete;
  }
  if ((count + 1) * 2 > capacity && rehash(capacity ? capacity * 2 : MIN_SLOTS) != 0) {
    pthread_mutex_unlock(&lock);
    return 0;
  }
  for (i = home_of(buffer, capacity); slots[i].buffer; i = (i + 1) & (capacity - 1)) {
  }
  slots[i].buffer = buffer;
  slots[i].complete = 0; /* till its callback is registered: no one uses it, no one adds it */
  slots[i].facts = *facts;
  count++;
  pthread_mutex_unlock(&lock);

  /* Outside the lock: a runtime may run callbacks (ours among them) inside its own calls. */
  const cl_int err = clSetMemObjectDestructorCallback(buffer, destroyed_callback, NULL);
  pthread_mutex_lock(&lock);
  /* The entry is still ours: only this buffer's destruction could remove it, and the buffer
     lives through the call that registers it. */
  i = find(buffer);
  int registered = 0;
  if (i != capacity) {
    if (err == CL_SUCCESS)
      registered = slots[i].complete = 1;
    else
      remove_at(i);
  }
  pthread_mutex_unlock(&lock);
  *refused = err;
  return registered;
}

unsigned long long ocf_buffer_registry_epoch(void) {
  return __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);
}

void ocf_buffer_registry_stats(size_t *entries, unsigned long long *destructions) {
  pthread_mutex_lock(&lock);
  *entries = count;
  *destructions = destroyed;
  pthread_mutex_unlock(&lock);
}

/* ---- the probe ---- */

/* Shared by a probe and its buffer's callback, freed by the last of the two. */
typedef struct probe_cell {
  int references;
  int ran;          /* 1: ran on the releasing thread; -1: on another */
  pthread_t prober; /* the releasing thread */
} probe_cell;

static void probe_cell_drop(probe_cell *cell) {
  if (__atomic_sub_fetch(&cell->references, 1, __ATOMIC_ACQ_REL) == 0) free(cell);
}

static void CL_CALLBACK probe_callback(cl_mem buffer, void *user) {
  (void)buffer;
  probe_cell *cell = user;
  __atomic_store_n(&cell->ran, pthread_equal(pthread_self(), cell->prober) ? 1 : -1,
                   __ATOMIC_RELEASE);
  probe_cell_drop(cell);
}

/* A buffer with a probe's callback, filled on `queue` (NULL: never used) and finished, then
   released: 1 when its callback had run inside the release, on the releasing thread (a callback
   that a runtime hands to a thread of its own may finish in time by chance). */
static int probe_once(cl_context context, cl_command_queue queue) {
  probe_cell *cell = malloc(sizeof *cell);
  if (!cell) return 0;
  cell->references = 2;
  cell->ran = 0;
  cell->prober = pthread_self();
  cl_int err = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
  if (err != CL_SUCCESS) {
    free(cell);
    return 0;
  }
  err = clSetMemObjectDestructorCallback(buffer, probe_callback, cell);
  if (err != CL_SUCCESS) {
    clReleaseMemObject(buffer);
    free(cell);
    return 0;
  }
  if (queue) {
    const cl_uint zero = 0;
    err = clEnqueueFillBuffer(queue, buffer, &zero, sizeof zero, 0, 64, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(queue);
  }
  clReleaseMemObject(buffer);
  const int ran = __atomic_load_n(&cell->ran, __ATOMIC_ACQUIRE);
  probe_cell_drop(cell);
  return err == CL_SUCCESS && ran == 1;
}

int ocf_buffer_registry_probe(cl_context context, cl_device_id device) {
  enum { FILLED = 3 }; /* rounds with a finished command: each must pass */
  if (!probe_once(context, NULL)) return 0;
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  if (err != CL_SUCCESS) return 0;
  int kept = 1;
  for (int round = 0; round < FILLED && kept; round++)
    kept = probe_once(context, queue);
  clReleaseCommandQueue(queue);
  return kept;
}
