/* The wrappers of tests/cl_faults.h: numbering, failing and accounting OpenCL calls. */
#include "cl_faults.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---- state ---- */

enum { LOG_CAPACITY = 1 << 14, TABLE_CAPACITY = 1 << 12 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int window_open;
static pthread_t window_thread;
static unsigned long numbered;
static const char *log_names[LOG_CAPACITY];
static const void *log_sites[LOG_CAPACITY];
static unsigned long armed_at;
static const char *armed_name; /* with armed_nth: fail by name instead of by number */
static unsigned armed_nth, named_seen;
static cl_int armed_code;
static const char *failed_name;

/* Counted objects: open addressing on the handle. */
typedef struct counted {
  const void *handle;
  const char *type;
  long references;
} counted;
static counted table[TABLE_CAPACITY];

void ocft_faults_open(void) {
  pthread_mutex_lock(&lock);
  window_open = 1;
  window_thread = pthread_self();
  pthread_mutex_unlock(&lock);
}

void ocft_faults_close(void) {
  pthread_mutex_lock(&lock);
  window_open = 0;
  pthread_mutex_unlock(&lock);
}

void ocft_faults_arm(unsigned long at, cl_int code) {
  pthread_mutex_lock(&lock);
  armed_at = at;
  armed_name = NULL;
  armed_code = code;
  pthread_mutex_unlock(&lock);
}

void ocft_faults_arm_named(const char *name, unsigned nth, cl_int code) {
  pthread_mutex_lock(&lock);
  armed_at = 0;
  armed_name = name;
  armed_nth = nth;
  named_seen = 0;
  armed_code = code;
  pthread_mutex_unlock(&lock);
}

void ocft_faults_reset(void) {
  pthread_mutex_lock(&lock);
  numbered = 0;
  armed_at = 0;
  armed_name = NULL;
  failed_name = NULL;
  pthread_mutex_unlock(&lock);
}

unsigned long ocft_faults_count(void) {
  pthread_mutex_lock(&lock);
  unsigned long count = numbered;
  pthread_mutex_unlock(&lock);
  return count;
}

const char *ocft_faults_call_name(unsigned long i) {
  return i >= 1 && i <= LOG_CAPACITY && i <= numbered ? log_names[i - 1] : "?";
}

const void *ocft_faults_call_site(unsigned long i) {
  return i >= 1 && i <= LOG_CAPACITY && i <= numbered ? log_sites[i - 1] : NULL;
}

const char *ocft_faults_failed(void) {
  return failed_name;
}

/* Whether the calling thread is inside the window: its calls are the library's. */
static int in_window(void) {
  return window_open && pthread_equal(pthread_self(), window_thread);
}

/* Numbers a call of `name` made from `site`; returns the code to fail it with, or CL_SUCCESS to
   let it through. */
static cl_int numbered_call(const char *name, const void *site) {
  pthread_mutex_lock(&lock);
  cl_int code = CL_SUCCESS;
  if (in_window()) {
    numbered++;
    if (numbered <= LOG_CAPACITY) log_names[numbered - 1] = name, log_sites[numbered - 1] = site;
    int hit = armed_name ? strcmp(armed_name, name) == 0 && ++named_seen == armed_nth
                         : armed_at != 0 && numbered == armed_at;
    if (hit && !failed_name) {
      failed_name = name;
      code = armed_code;
    }
  }
  pthread_mutex_unlock(&lock);
  return code;
}

static size_t slot_of(const void *handle) {
  size_t h = (size_t)(uintptr_t)handle;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull & SIZE_MAX;
  return (h >> 7) & (TABLE_CAPACITY - 1);
}

/* +1 for an object created or retained in the window. */
static void count_reference(const void *handle, const char *type) {
  if (!handle) return;
  pthread_mutex_lock(&lock);
  if (in_window()) {
    size_t i = slot_of(handle);
    while (table[i].handle && table[i].handle != handle)
      i = (i + 1) & (TABLE_CAPACITY - 1);
    table[i].handle = handle;
    table[i].type = type;
    table[i].references++;
  }
  pthread_mutex_unlock(&lock);
}

/* Removes slot i, moving later members of its cluster back so that lookups still find them. */
static void remove_slot(size_t i) {
  table[i].handle = NULL;
  table[i].references = 0;
  for (size_t j = (i + 1) & (TABLE_CAPACITY - 1); table[j].handle;
       j = (j + 1) & (TABLE_CAPACITY - 1)) {
    counted moved = table[j];
    table[j].handle = NULL;
    table[j].references = 0;
    size_t k = slot_of(moved.handle);
    while (table[k].handle)
      k = (k + 1) & (TABLE_CAPACITY - 1);
    table[k] = moved;
  }
}

/* -1 for a release of a counted object, from any thread; other objects are the test's own. */
static void count_release(const void *handle) {
  if (!handle) return;
  pthread_mutex_lock(&lock);
  size_t i = slot_of(handle);
  while (table[i].handle && table[i].handle != handle)
    i = (i + 1) & (TABLE_CAPACITY - 1);
  if (table[i].handle && --table[i].references == 0) remove_slot(i);
  pthread_mutex_unlock(&lock);
}

size_t ocft_faults_live(char *left, size_t capacity, unsigned wait_ms) {
  static const char *const types[] = {"cl_context", "cl_command_queue", "cl_mem",
                                      "cl_program", "cl_kernel",        "cl_event"};
  long per_type[6];
  size_t total = 0;
  for (unsigned waited = 0;; waited++) {
    total = 0;
    memset(per_type, 0, sizeof per_type);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < TABLE_CAPACITY; i++)
      for (size_t t = 0; table[i].handle && t < 6; t++)
        if (strcmp(table[i].type, types[t]) == 0) per_type[t] += table[i].references;
    pthread_mutex_unlock(&lock);
    for (size_t t = 0; t < 6; t++)
      total += (size_t)per_type[t];
    if (total == 0 || waited >= wait_ms) break;
    struct timespec millisecond = {0, 1000000};
    nanosleep(&millisecond, NULL);
  }
  size_t used = 0;
  if (capacity) left[0] = '\0';
  for (size_t t = 0; t < 6 && capacity; t++)
    if (per_type[t] && used < capacity)
      used += (size_t)snprintf(left + used, capacity - used, "%s%ld %s", used ? ", " : "",
                               per_type[t], types[t]);
  return total;
}

void ocft_faults_forget(void) {
  pthread_mutex_lock(&lock);
  memset(table, 0, sizeof table);
  pthread_mutex_unlock(&lock);
}

/* ---- the order of commands (out-of-order queues) ---- */

enum { ORDER_CAPACITY = 256, ORDER_WAITS = 8 };

typedef struct order_entry {
  const char *name;
  cl_event event; /* retained until ocft_order_stop: no two entries share a handle */
  cl_event waits[ORDER_WAITS];
  cl_uint wait_count;
  int complete_before_next; /* a blocking transfer or clFinish: done when the call returns */
  int waits_for_all;        /* a marker without a wait list: after every earlier command */
} order_entry;

static int order_on;
static unsigned order_count, order_overflow;
static order_entry order_log[ORDER_CAPACITY];

cl_int __real_clRetainEvent(cl_event);
cl_int __real_clReleaseEvent(cl_event);

static int order_here(void) {
  pthread_mutex_lock(&lock);
  int here = order_on && in_window();
  pthread_mutex_unlock(&lock);
  return here;
}

static void order_add(const char *name, cl_event event, cl_uint wait_count,
                      const cl_event *wait_list, int complete, int all) {
  pthread_mutex_lock(&lock);
  if (order_on && in_window()) {
    if (order_count < ORDER_CAPACITY && wait_count <= ORDER_WAITS) {
      order_entry *e = &order_log[order_count++];
      memset(e, 0, sizeof *e);
      e->name = name;
      if (event && __real_clRetainEvent(event) == CL_SUCCESS) e->event = event;
      e->wait_count = wait_count;
      for (cl_uint i = 0; i < wait_count; i++)
        e->waits[i] = wait_list[i];
      e->complete_before_next = complete;
      e->waits_for_all = all;
    } else {
      order_overflow++;
    }
  }
  pthread_mutex_unlock(&lock);
}

static void order_record(const char *name, cl_event event, cl_uint wait_count,
                         const cl_event *wait_list, int blocking) {
  const int marker = strcmp(name, "clEnqueueMarkerWithWaitList") == 0;
  order_add(name, event, wait_count, wait_list, blocking, marker && wait_count == 0);
}

void ocft_order_start(void) {
  ocft_order_stop();
  pthread_mutex_lock(&lock);
  order_on = 1;
  pthread_mutex_unlock(&lock);
}

void ocft_order_stop(void) {
  pthread_mutex_lock(&lock);
  order_on = 0;
  for (unsigned i = 0; i < order_count; i++)
    if (order_log[i].event) __real_clReleaseEvent(order_log[i].event);
  order_count = order_overflow = 0;
  pthread_mutex_unlock(&lock);
}

unsigned ocft_order_count(void) {
  return order_count;
}

/* after[i][j]: command i starts only after command j (j < i) completes, through wait lists. */
static unsigned char after[ORDER_CAPACITY][ORDER_CAPACITY];

int ocft_order_check(cl_uint first_waits, const cl_event *first_wait_list, char *why,
                     size_t capacity) {
  pthread_mutex_lock(&lock);
  int ok = 1;
  if (capacity) why[0] = '\0';
  if (order_overflow) {
    snprintf(why, capacity, "%u commands not recorded", order_overflow);
    ok = 0;
  }
  memset(after, 0, sizeof after);
  for (unsigned i = 0; i < order_count && ok; i++) {
    const order_entry *e = &order_log[i];
    for (unsigned j = 0; j < i; j++) {
      int direct = e->waits_for_all;
      for (cl_uint w = 0; w < e->wait_count && !direct; w++)
        direct = e->waits[w] == order_log[j].event;
      if (direct) {
        after[i][j] = 1;
        for (unsigned k = 0; k < j; k++)
          after[i][k] |= after[j][k];
      }
    }
    /* Each command must follow the one before it, unless that one was complete when its call
       returned (a blocking transfer, clFinish): then everything before it was too, as it
       followed them. */
    if (i > 0 && !order_log[i - 1].complete_before_next && !after[i][i - 1]) {
      snprintf(why, capacity, "command %u (%s) does not wait for command %u (%s)", i + 1, e->name,
               i, order_log[i - 1].name);
      ok = 0;
    }
  }
  /* The first command waits for the caller's wait list (each event in its own list). */
  for (cl_uint w = 0; w < first_waits && ok; w++) {
    int found = order_count > 0 && order_log[0].waits_for_all;
    for (cl_uint v = 0; order_count > 0 && v < order_log[0].wait_count; v++)
      found = found || order_log[0].waits[v] == first_wait_list[w];
    if (!found) {
      snprintf(why, capacity, "the first command (%s) does not wait for the caller's event %u",
               order_count ? order_log[0].name : "none", w);
      ok = 0;
    }
  }
  pthread_mutex_unlock(&lock);
  return ok;
}

/* ---- the wrappers, one per OpenCL function the library imports ---- */

/* Declares __real_NAME (the runtime's, through the linker) and __wrap_NAME. */
#define WRAP_DECLARE(ret, name, params) \
  ret __real_##name params;             \
  ret __wrap_##name params;

WRAP_DECLARE(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))
WRAP_DECLARE(cl_int, clGetPlatformInfo,
             (cl_platform_id, cl_platform_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clGetDeviceIDs,
             (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))
WRAP_DECLARE(cl_int, clGetDeviceInfo, (cl_device_id, cl_device_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clRetainDevice, (cl_device_id))
WRAP_DECLARE(cl_int, clReleaseDevice, (cl_device_id))
WRAP_DECLARE(cl_context, clCreateContext,
             (const cl_context_properties *, cl_uint, const cl_device_id *,
              void(CL_CALLBACK *)(const char *, const void *, size_t, void *), void *, cl_int *))
WRAP_DECLARE(cl_int, clRetainContext, (cl_context))
WRAP_DECLARE(cl_int, clReleaseContext, (cl_context))
WRAP_DECLARE(cl_command_queue, clCreateCommandQueue,
             (cl_context, cl_device_id, cl_command_queue_properties, cl_int *))
WRAP_DECLARE(cl_int, clGetCommandQueueInfo,
             (cl_command_queue, cl_command_queue_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clRetainCommandQueue, (cl_command_queue))
WRAP_DECLARE(cl_int, clReleaseCommandQueue, (cl_command_queue))
WRAP_DECLARE(cl_int, clFinish, (cl_command_queue))
WRAP_DECLARE(cl_mem, clCreateBuffer, (cl_context, cl_mem_flags, size_t, void *, cl_int *))
WRAP_DECLARE(cl_mem, clCreateSubBuffer,
             (cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *))
WRAP_DECLARE(cl_int, clGetMemObjectInfo, (cl_mem, cl_mem_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clReleaseMemObject, (cl_mem))
WRAP_DECLARE(cl_int, clSetMemObjectDestructorCallback,
             (cl_mem, void(CL_CALLBACK *)(cl_mem, void *), void *))
WRAP_DECLARE(cl_program, clCreateProgramWithSource,
             (cl_context, cl_uint, const char **, const size_t *, cl_int *))
WRAP_DECLARE(cl_program, clCreateProgramWithBinary,
             (cl_context, cl_uint, const cl_device_id *, const size_t *, const unsigned char **,
              cl_int *, cl_int *))
WRAP_DECLARE(cl_int, clBuildProgram,
             (cl_program, cl_uint, const cl_device_id *, const char *,
              void(CL_CALLBACK *)(cl_program, void *), void *))
WRAP_DECLARE(cl_int, clGetProgramInfo, (cl_program, cl_program_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clGetProgramBuildInfo,
             (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clReleaseProgram, (cl_program))
WRAP_DECLARE(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))
WRAP_DECLARE(cl_int, clGetKernelInfo, (cl_kernel, cl_kernel_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clGetKernelArgInfo,
             (cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clGetKernelWorkGroupInfo,
             (cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))
WRAP_DECLARE(cl_int, clReleaseKernel, (cl_kernel))
WRAP_DECLARE(cl_int, clEnqueueNDRangeKernel,
             (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *,
              cl_uint, const cl_event *, cl_event *))
WRAP_DECLARE(cl_int, clEnqueueMarkerWithWaitList,
             (cl_command_queue, cl_uint, const cl_event *, cl_event *))
WRAP_DECLARE(cl_int, clEnqueueReadBuffer,
             (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, const cl_event *,
              cl_event *))
WRAP_DECLARE(cl_int, clEnqueueReadBufferRect,
             (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *,
              size_t, size_t, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *))
WRAP_DECLARE(cl_int, clEnqueueWriteBuffer,
             (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint,
              const cl_event *, cl_event *))
WRAP_DECLARE(cl_int, clEnqueueFillBuffer,
             (cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint,
              const cl_event *, cl_event *))
WRAP_DECLARE(cl_int, clSetEventCallback,
             (cl_event, cl_int, void(CL_CALLBACK *)(cl_event, cl_int, void *), void *))
WRAP_DECLARE(cl_int, clGetEventInfo, (cl_event, cl_event_info, size_t, void *, size_t *))
WRAP_DECLARE(cl_int, clRetainEvent, (cl_event))
WRAP_DECLARE(cl_int, clReleaseEvent, (cl_event))

/* numbered_call from a wrapper: its return address is the caller's call site. */
#define NUMBERED(name) numbered_call(#name, __builtin_return_address(0))

/* The body of a wrapper that only queries or acts: fail when armed, else call through. */
#define PLAIN(name, args)                        \
  do {                                           \
    cl_int injected = NUMBERED(name);            \
    if (injected != CL_SUCCESS) return injected; \
    return __real_##name args;                   \
  } while (0)

/* A create call: fail through errcode_ret, else count what it made. */
#define CREATE(type, name, args, errcode_ret)     \
  do {                                            \
    cl_int injected = NUMBERED(name);             \
    if (injected != CL_SUCCESS) {                 \
      if (errcode_ret) *(errcode_ret) = injected; \
      return NULL;                                \
    }                                             \
    type made = __real_##name args;               \
    count_reference(made, #type);                 \
    return made;                                  \
  } while (0)

/* An enqueue: fail when armed, else count the event it made (if asked for one) and, while the
   order is recorded, record the command (with an event of the wrapper's own when the caller
   asked for none: `event` is the wrapper's parameter, redirected). */
#define ENQUEUE(name, args, event, wait_count, wait_list, blocking)        \
  do {                                                                     \
    cl_int injected = NUMBERED(name);                                      \
    if (injected != CL_SUCCESS) return injected;                           \
    cl_event own_event_ = NULL;                                            \
    cl_event *const asked_ = (event);                                      \
    if (!asked_ && order_here()) (event) = &own_event_;                    \
    cl_int err = __real_##name args;                                       \
    if (err == CL_SUCCESS && asked_) count_reference(*asked_, "cl_event"); \
    if (err == CL_SUCCESS && (event))                                      \
      order_record(#name, *(event), wait_count, wait_list, blocking);      \
    if (own_event_) __real_clReleaseEvent(own_event_);                     \
    return err;                                                            \
  } while (0)

/* A retain: fail when armed, else count it. */
#define RETAIN(name, object, type)                        \
  do {                                                    \
    cl_int injected = NUMBERED(name);                     \
    if (injected != CL_SUCCESS) return injected;          \
    cl_int err = __real_##name(object);                   \
    if (err == CL_SUCCESS) count_reference(object, type); \
    return err;                                           \
  } while (0)

/* A release: never failed, uncounted for objects the test made itself. */
#define RELEASE(name, object)                     \
  do {                                            \
    cl_int err = __real_##name(object);           \
    if (err == CL_SUCCESS) count_release(object); \
    return err;                                   \
  } while (0)

cl_int __wrap_clGetPlatformIDs(cl_uint n, cl_platform_id *platforms, cl_uint *count) {
  PLAIN(clGetPlatformIDs, (n, platforms, count));
}

cl_int __wrap_clGetPlatformInfo(cl_platform_id p, cl_platform_info what, size_t size, void *value,
                                size_t *size_ret) {
  PLAIN(clGetPlatformInfo, (p, what, size, value, size_ret));
}

cl_int __wrap_clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
                             cl_device_id *devices, cl_uint *count) {
  PLAIN(clGetDeviceIDs, (p, type, n, devices, count));
}

cl_int __wrap_clGetDeviceInfo(cl_device_id d, cl_device_info what, size_t size, void *value,
                              size_t *size_ret) {
  PLAIN(clGetDeviceInfo, (d, what, size, value, size_ret));
}

cl_int __wrap_clRetainDevice(cl_device_id d) {
  PLAIN(clRetainDevice, (d)); /* root devices: no reference count, not accounted */
}

cl_int __wrap_clReleaseDevice(cl_device_id d) {
  return __real_clReleaseDevice(d);
}

cl_context __wrap_clCreateContext(const cl_context_properties *properties, cl_uint n,
                                  const cl_device_id *devices,
                                  void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                                            void *),
                                  void *user, cl_int *errcode_ret) {
  CREATE(cl_context, clCreateContext, (properties, n, devices, notify, user, errcode_ret),
         errcode_ret);
}

cl_int __wrap_clRetainContext(cl_context c) {
  RETAIN(clRetainContext, c, "cl_context");
}

cl_int __wrap_clReleaseContext(cl_context c) {
  RELEASE(clReleaseContext, c);
}

cl_command_queue __wrap_clCreateCommandQueue(cl_context c, cl_device_id d,
                                             cl_command_queue_properties properties,
                                             cl_int *errcode_ret) {
  CREATE(cl_command_queue, clCreateCommandQueue, (c, d, properties, errcode_ret), errcode_ret);
}

cl_int __wrap_clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info what, size_t size,
                                    void *value, size_t *size_ret) {
  PLAIN(clGetCommandQueueInfo, (q, what, size, value, size_ret));
}

cl_int __wrap_clRetainCommandQueue(cl_command_queue q) {
  RETAIN(clRetainCommandQueue, q, "cl_command_queue");
}

cl_int __wrap_clReleaseCommandQueue(cl_command_queue q) {
  RELEASE(clReleaseCommandQueue, q);
}

cl_int __wrap_clFinish(cl_command_queue q) {
  cl_int injected = NUMBERED(clFinish);
  if (injected != CL_SUCCESS) return injected;
  cl_int err = __real_clFinish(q);
  if (err == CL_SUCCESS) order_add("clFinish", NULL, 0, NULL, 1, 1);
  return err;
}

cl_mem __wrap_clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host,
                             cl_int *errcode_ret) {
  CREATE(cl_mem, clCreateBuffer, (c, flags, size, host, errcode_ret), errcode_ret);
}

cl_mem __wrap_clCreateSubBuffer(cl_mem m, cl_mem_flags flags, cl_buffer_create_type type,
                                const void *info, cl_int *errcode_ret) {
  CREATE(cl_mem, clCreateSubBuffer, (m, flags, type, info, errcode_ret), errcode_ret);
}

cl_int __wrap_clGetMemObjectInfo(cl_mem m, cl_mem_info what, size_t size, void *value,
                                 size_t *size_ret) {
  PLAIN(clGetMemObjectInfo, (m, what, size, value, size_ret));
}

cl_int __wrap_clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *notify)(cl_mem, void *),
                                               void *user) {
  PLAIN(clSetMemObjectDestructorCallback, (m, notify, user));
}

cl_int __wrap_clReleaseMemObject(cl_mem m) {
  RELEASE(clReleaseMemObject, m);
}

cl_program __wrap_clCreateProgramWithSource(cl_context c, cl_uint n, const char **texts,
                                            const size_t *lengths, cl_int *errcode_ret) {
  CREATE(cl_program, clCreateProgramWithSource, (c, n, texts, lengths, errcode_ret), errcode_ret);
}

cl_program __wrap_clCreateProgramWithBinary(cl_context c, cl_uint n, const cl_device_id *devices,
                                            const size_t *lengths, const unsigned char **binaries,
                                            cl_int *binary_status, cl_int *errcode_ret) {
  CREATE(cl_program, clCreateProgramWithBinary,
         (c, n, devices, lengths, binaries, binary_status, errcode_ret), errcode_ret);
}

cl_int __wrap_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *devices,
                             const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user) {
  PLAIN(clBuildProgram, (p, n, devices, options, notify, user));
}

cl_int __wrap_clGetProgramInfo(cl_program p, cl_program_info what, size_t size, void *value,
                               size_t *size_ret) {
  PLAIN(clGetProgramInfo, (p, what, size, value, size_ret));
}

cl_int __wrap_clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info what,
                                    size_t size, void *value, size_t *size_ret) {
  PLAIN(clGetProgramBuildInfo, (p, d, what, size, value, size_ret));
}

cl_int __wrap_clReleaseProgram(cl_program p) {
  RELEASE(clReleaseProgram, p);
}

cl_kernel __wrap_clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret) {
  CREATE(cl_kernel, clCreateKernel, (p, name, errcode_ret), errcode_ret);
}

cl_int __wrap_clGetKernelInfo(cl_kernel k, cl_kernel_info what, size_t size, void *value,
                              size_t *size_ret) {
  PLAIN(clGetKernelInfo, (k, what, size, value, size_ret));
}

cl_int __wrap_clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info what, size_t size,
                                 void *value, size_t *size_ret) {
  PLAIN(clGetKernelArgInfo, (k, index, what, size, value, size_ret));
}

cl_int __wrap_clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what,
                                       size_t size, void *value, size_t *size_ret) {
  PLAIN(clGetKernelWorkGroupInfo, (k, d, what, size, value, size_ret));
}

cl_int __wrap_clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value) {
  PLAIN(clSetKernelArg, (k, index, size, value));
}

cl_int __wrap_clReleaseKernel(cl_kernel k) {
  RELEASE(clReleaseKernel, k);
}

cl_int __wrap_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims,
                                     const size_t *offset, const size_t *global,
                                     const size_t *local, cl_uint wait_count,
                                     const cl_event *wait_list, cl_event *event) {
  ENQUEUE(clEnqueueNDRangeKernel, (q, k, dims, offset, global, local, wait_count, wait_list, event),
          event, wait_count, wait_list, 0);
}

cl_int __wrap_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint wait_count,
                                          const cl_event *wait_list, cl_event *event) {
  ENQUEUE(clEnqueueMarkerWithWaitList, (q, wait_count, wait_list, event), event, wait_count,
          wait_list, 0);
}

cl_int __wrap_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                                  size_t size, void *host, cl_uint wait_count,
                                  const cl_event *wait_list, cl_event *event) {
  ENQUEUE(clEnqueueReadBuffer, (q, m, blocking, offset, size, host, wait_count, wait_list, event),
          event, wait_count, wait_list, blocking);
}

cl_int __wrap_clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                      const size_t *buffer_origin, const size_t *host_origin,
                                      const size_t *region, size_t buffer_row_pitch,
                                      size_t buffer_slice_pitch, size_t host_row_pitch,
                                      size_t host_slice_pitch, void *host, cl_uint wait_count,
                                      const cl_event *wait_list, cl_event *event) {
  ENQUEUE(clEnqueueReadBufferRect,
          (q, m, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
           host_row_pitch, host_slice_pitch, host, wait_count, wait_list, event),
          event, wait_count, wait_list, blocking);
}

cl_int __wrap_clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                                   size_t size, const void *host, cl_uint wait_count,
                                   const cl_event *wait_list, cl_event *event) {
  ENQUEUE(clEnqueueWriteBuffer, (q, m, blocking, offset, size, host, wait_count, wait_list, event),
          event, wait_count, wait_list, blocking);
}

cl_int __wrap_clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern,
                                  size_t pattern_size, size_t offset, size_t size,
                                  cl_uint wait_count, const cl_event *wait_list, cl_event *event) {
  ENQUEUE(clEnqueueFillBuffer,
          (q, m, pattern, pattern_size, offset, size, wait_count, wait_list, event), event,
          wait_count, wait_list, 0);
}

cl_int __wrap_clSetEventCallback(cl_event e, cl_int type,
                                 void(CL_CALLBACK *notify)(cl_event, cl_int, void *), void *user) {
  PLAIN(clSetEventCallback, (e, type, notify, user));
}

cl_int __wrap_clGetEventInfo(cl_event e, cl_event_info what, size_t size, void *value,
                             size_t *size_ret) {
  PLAIN(clGetEventInfo, (e, what, size, value, size_ret));
}

cl_int __wrap_clRetainEvent(cl_event e) {
  RETAIN(clRetainEvent, e, "cl_event");
}

cl_int __wrap_clReleaseEvent(cl_event e) {
  RELEASE(clReleaseEvent, e);
}
