/*
 * cl_env.c: the device, its context and queue, program builds (several at once, in threads),
 * and recovery: on NVIDIA a kernel that faults takes its context with it, so after a failed
 * launch the lab checks the context and, if it is gone, makes a new one; programs and buffers
 * are then rebuilt or recreated on demand (their generation no longer matches).
 */
#include "lab.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

const char *lab_cl_error(cl_int err) {
  switch (err) {
#define E(x) \
  case x:    \
    return #x;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
  }
  return "CL_(other error)";
}

char *lab_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
  if (text && fread(text, 1, (size_t)size, f) == (size_t)size) {
    text[size] = '\0';
  } else {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

static int contains_nocase(const char *hay, const char *needle) {
  for (; *hay; hay++) {
    size_t i = 0;
    while (needle[i] && hay[i] &&
           (hay[i] | 0x20) == (needle[i] | 0x20)) /* ASCII letters and digits only */
      i++;
    if (!needle[i]) return 1;
  }
  return 0;
}

static int create_context(lab_env *env) {
  cl_int err;
  env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    lab_log(1, "clCreateContext: %s\n", lab_cl_error(err));
    return 0;
  }
  env->queue = clCreateCommandQueue(env->context, env->device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS) {
    lab_log(1, "clCreateCommandQueue: %s\n", lab_cl_error(err));
    clReleaseContext(env->context);
    env->context = NULL;
    return 0;
  }
  env->generation++;
  return 1;
}

int lab_env_open(lab_env *env, const char *device_spec) {
  memset(env, 0, sizeof *env);
  env->cc_major = env->cc_minor = -1;
  cl_platform_id platforms[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
    lab_log(1, "no OpenCL platform\n");
    return 0;
  }
  int found = 0;
  for (cl_uint p = 0; p < np && !found; p++) {
    cl_device_id devices[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < nd && !found; d++) {
      char name[256] = "", vendor[256] = "";
      cl_device_type type = 0;
      clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof name, name, NULL);
      clGetDeviceInfo(devices[d], CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
      clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
      const int wanted =
          device_spec ? contains_nocase(name, device_spec) || contains_nocase(vendor, device_spec)
                      : contains_nocase(vendor, "nvidia") && (type & CL_DEVICE_TYPE_GPU);
      if (wanted) {
        env->platform = platforms[p];
        env->device = devices[d];
        found = 1;
      }
    }
  }
  if (!found) {
    lab_log(1, "no device matches '%s'\n", device_spec ? device_spec : "NVIDIA GPU");
    return 0;
  }
  char name[256] = "", vendor[256] = "", driver[128] = "", version[128] = "";
  cl_uint cus = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL);
  clGetDeviceInfo(env->device, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof env->local_mem, &env->local_mem,
                  NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof env->max_wg, &env->max_wg,
                  NULL);
  env->is_nvidia = contains_nocase(vendor, "nvidia");
  if (env->is_nvidia) {
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(env->device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                        NULL) == CL_SUCCESS &&
        clGetDeviceInfo(env->device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                        NULL) == CL_SUCCESS) {
      env->cc_major = (int)major;
      env->cc_minor = (int)minor;
    }
  }
  env->build_extra = env->is_nvidia ? "-cl-nv-verbose" : "";
  lab_log(1,
          "device: %s | %s | driver %s | %s | %u compute units | local memory %lu bytes | "
          "max workgroup %zu | compute capability %d.%d\n",
          name, vendor, driver, version, cus, (unsigned long)env->local_mem, env->max_wg,
          env->cc_major, env->cc_minor);
  return create_context(env);
}

void lab_env_close(lab_env *env) {
  if (env->queue) clReleaseCommandQueue(env->queue);
  if (env->context) clReleaseContext(env->context);
  env->queue = NULL;
  env->context = NULL;
}

/* Parses "Used N registers" and "N bytes spill stores" out of a verbose NVIDIA build log. */
static void parse_usage(const char *log, int *regs, int *spill) {
  *regs = *spill = -1;
  if (!log) return;
  const char *p = strstr(log, "Used ");
  if (p) sscanf(p, "Used %d registers", regs);
  p = strstr(log, "bytes spill stores");
  if (p) {
    while (p > log && p[-1] == ' ')
      p--;
    while (p > log && p[-1] >= '0' && p[-1] <= '9')
      p--;
    sscanf(p, "%d", spill);
  }
}

static void build_one(lab_env *env, lab_build *job) {
  const double start = lab_now();
  cl_int err;
  cl_uint count = 0;
  while (count < 3 && job->sources[count])
    count++;
  job->program =
      clCreateProgramWithSource(env->context, count, (const char **)job->sources, NULL, &err);
  job->generation = env->generation;
  if (err != CL_SUCCESS) {
    job->status = err;
    job->program = NULL;
    return;
  }
  char options[640];
  snprintf(options, sizeof options, "%s %s", job->options, env->build_extra);
  err = clBuildProgram(job->program, 1, &env->device, options, NULL, NULL);
  if (err == CL_INVALID_BUILD_OPTIONS && *env->build_extra) /* without -cl-nv-verbose */
    err = clBuildProgram(job->program, 1, &env->device, job->options, NULL, NULL);
  job->status = err;
  size_t size = 0;
  clGetProgramBuildInfo(job->program, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
  free(job->log);
  job->log = malloc(size + 1);
  if (job->log) {
    job->log[0] = '\0';
    clGetProgramBuildInfo(job->program, env->device, CL_PROGRAM_BUILD_LOG, size, job->log, NULL);
    job->log[size] = '\0';
  }
  parse_usage(job->log, &job->regs, &job->spill);
  job->seconds = lab_now() - start;
}

/* Builds run in worker threads; the main thread waits for the one it needs next. */
struct lab_build_pool {
  lab_env *env;
  lab_build *jobs;
  size_t count, next, completed;
  pthread_mutex_t lock;
  pthread_cond_t done;
  pthread_t ids[32];
  int started;
};
/* The pool whose workers may be using the context (lab_env_recover waits for it). */
static lab_build_pool *active_pool;

static void log_build(const lab_build *job) {
  char title[768];
  snprintf(title, sizeof title, "build %s [%s] %s %.2f s regs %d spill %d", job->name, job->options,
           lab_cl_error(job->status), job->seconds, job->regs, job->spill);
  lab_log_block(title, job->log);
}

static void *build_worker(void *arg) {
  lab_build_pool *pool = arg;
  for (;;) {
    pthread_mutex_lock(&pool->lock);
    if (pool->next >= pool->count) {
      pthread_mutex_unlock(&pool->lock);
      return NULL;
    }
    const size_t i = pool->next++;
    pthread_mutex_unlock(&pool->lock);
    build_one(pool->env, &pool->jobs[i]);
    log_build(&pool->jobs[i]);
    pthread_mutex_lock(&pool->lock);
    pool->jobs[i].done = 1;
    pool->completed++;
    pthread_cond_broadcast(&pool->done);
    pthread_mutex_unlock(&pool->lock);
  }
}

lab_build_pool *lab_build_start(lab_env *env, lab_build *jobs, size_t count, int threads) {
  lab_build_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return NULL;
  pool->env = env;
  pool->jobs = jobs;
  pool->count = count;
  pthread_mutex_init(&pool->lock, NULL);
  pthread_cond_init(&pool->done, NULL);
  if (threads > 32) threads = 32;
  for (int t = 0; t < threads; t++)
    if (pthread_create(&pool->ids[pool->started], NULL, build_worker, pool) == 0) pool->started++;
  active_pool = pool;
  if (pool->started == 0) build_worker(pool); /* no threads: build everything now */
  return pool;
}

void lab_build_wait(lab_build_pool *pool, size_t index) {
  if (!pool) return;
  pthread_mutex_lock(&pool->lock);
  while (!pool->jobs[index].done)
    pthread_cond_wait(&pool->done, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
}

static void pool_drain(lab_build_pool *pool) {
  pthread_mutex_lock(&pool->lock);
  while (pool->completed < pool->count)
    pthread_cond_wait(&pool->done, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
}

void lab_build_finish(lab_build_pool *pool) {
  if (!pool) return;
  pool_drain(pool);
  for (int t = 0; t < pool->started; t++)
    pthread_join(pool->ids[t], NULL);
  pthread_mutex_destroy(&pool->lock);
  pthread_cond_destroy(&pool->done);
  if (active_pool == pool) active_pool = NULL;
  free(pool);
}

void lab_build_all(lab_env *env, lab_build *jobs, size_t count, int threads) {
  lab_build_finish(lab_build_start(env, jobs, count, threads));
}

int lab_build_ensure(lab_env *env, lab_build *job) {
  if (job->program && job->generation == env->generation) return job->status == CL_SUCCESS;
  if (job->program && job->generation != env->generation) {
    /* its context is gone with the old generation; the handle is released with it */
    job->program = NULL;
  }
  build_one(env, job);
  log_build(job);
  return job->status == CL_SUCCESS;
}

void lab_build_release(lab_build *job) {
  free(job->log);
  job->log = NULL;
}

cl_int lab_run_kernel(lab_env *env, cl_kernel kernel, cl_uint dims, const size_t *global,
                      const size_t *local, double *ms) {
  cl_event event = NULL;
  cl_int err =
      clEnqueueNDRangeKernel(env->queue, kernel, dims, NULL, global, local, 0, NULL, &event);
  if (err != CL_SUCCESS) return err;
  err = clWaitForEvents(1, &event);
  cl_int exec = CL_COMPLETE;
  clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, NULL);
  if (err == CL_SUCCESS && exec < 0) err = exec;
  if (err == CL_SUCCESS && ms) {
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    *ms = (double)(t1 - t0) * 1e-6;
  }
  clReleaseEvent(event);
  return err;
}

int lab_env_recover(lab_env *env) {
  cl_int err = CL_SUCCESS;
  cl_mem probe = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 64, NULL, &err);
  if (err == CL_SUCCESS) {
    const cl_uint zero = 0;
    err = clEnqueueFillBuffer(env->queue, probe, &zero, sizeof zero, 0, 64, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(env->queue);
    clReleaseMemObject(probe);
  }
  if (err == CL_SUCCESS) return 0;
  lab_log(1, "context check failed (%s): creating a new context\n", lab_cl_error(err));
  if (active_pool) pool_drain(active_pool); /* no build may still be using the old context */
  lab_env_close(env);
  return create_context(env);
}
