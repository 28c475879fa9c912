/*
 * cl_env.c: the device, its context and queue; program builds (the builder child builds every
 * program in threads and leaves each binary and its facts under <work>/bin, the other children
 * load them, or build from source when there is none for their options); and the health check
 * that tells a device fault (the context is gone) from an error the context survives.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  /* NVIDIA's launch failures come back as codes outside the standard's list (-9999) */
  static _Thread_local char ring[8][32];
  static _Thread_local unsigned next;
  char *text = ring[next++ % 8];
  snprintf(text, sizeof ring[0], "CL error %d", (int)err);
  return text;
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
  return 1;
}

int lab_env_open(lab_env *env, const char *device_spec, int describe) {
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
  if (describe)
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

int lab_env_alive(lab_env *env) {
  cl_int err = CL_SUCCESS;
  cl_mem probe = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 64, NULL, &err);
  if (err == CL_SUCCESS) {
    const cl_uint zero = 0;
    err = clEnqueueFillBuffer(env->queue, probe, &zero, sizeof zero, 0, 64, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(env->queue);
    clReleaseMemObject(probe);
  }
  if (err != CL_SUCCESS) lab_log(0, "context check: %s (the context is gone)\n", lab_cl_error(err));
  return err == CL_SUCCESS;
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

/* ---- programs ---- */

/* Parses "Used N registers", "N bytes spill stores" and "N bytes stack frame" out of a verbose
   NVIDIA build log (the first kernel's). */
static int number_before(const char *log, const char *what) {
  const char *p = log ? strstr(log, what) : NULL;
  if (!p) return -1;
  while (p > log && p[-1] == ' ')
    p--;
  while (p > log && p[-1] >= '0' && p[-1] <= '9')
    p--;
  int value = -1;
  sscanf(p, "%d", &value);
  return value;
}

static void parse_usage(const char *log, lab_program *p) {
  p->regs = -1;
  const char *used = log ? strstr(log, "Used ") : NULL;
  if (used) sscanf(used, "Used %d registers", &p->regs);
  p->spill = number_before(log, "bytes spill stores");
  p->stack = number_before(log, "bytes stack frame");
}

/* The first line of a build log that mentions an error (or its start), one line. */
static void first_error(const char *log, char *out, size_t size) {
  const char *line = log ? strstr(log, "error") : NULL;
  if (line)
    while (line > log && line[-1] != '\n')
      line--;
  snprintf(out, size, "%s", line ? line : log ? log : "");
  for (char *c = out; *c; c++)
    if (*c == '\n' || *c == '\t') *c = ' ';
}

static char *build_log(lab_env *env, cl_program program) {
  size_t size = 0;
  clGetProgramBuildInfo(program, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
  char *log = malloc(size + 1);
  if (!log) return NULL;
  log[0] = '\0';
  clGetProgramBuildInfo(program, env->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
  log[size] = '\0';
  return log;
}

/* clBuildProgram with -cl-nv-verbose where taken, else with the options alone. */
static cl_int build_with(lab_env *env, cl_program program, const char *options) {
  char all[640];
  snprintf(all, sizeof all, "%s %s", options, env->build_extra);
  cl_int err = clBuildProgram(program, 1, &env->device, all, NULL, NULL);
  if (err == CL_INVALID_BUILD_OPTIONS && *env->build_extra)
    err = clBuildProgram(program, 1, &env->device, options, NULL, NULL);
  return err;
}

static void log_build(const lab_program_spec *spec, const lab_program *p, const char *how,
                      const char *log) {
  char title[768];
  snprintf(title, sizeof title, "build %s [%s] %s %s %.2f s regs %d spill %d stack %d", spec->name,
           spec->options, how, lab_cl_error(p->status), p->seconds, p->regs, p->spill, p->stack);
  lab_log_block(title, log);
}

/* Builds a spec from its source files here. */
static int build_source(lab_env *env, const lab_program_spec *spec, lab_program *out) {
  const double start = lab_now();
  memset(out, 0, sizeof *out);
  out->regs = out->spill = out->stack = -1;
  char *texts[2] = {NULL, NULL};
  const char *sources[2];
  cl_uint count = 0;
  for (int i = 0; i < 2; i++) {
    if (!spec->paths[i][0]) continue;
    texts[i] = lab_read_file(spec->paths[i]);
    if (!texts[i]) {
      out->status = CL_INVALID_VALUE;
      snprintf(out->error, sizeof out->error, "cannot read %.120s", spec->paths[i]);
      free(texts[0]);
      return 0;
    }
    sources[count++] = texts[i];
  }
  cl_int err;
  out->program = clCreateProgramWithSource(env->context, count, sources, NULL, &err);
  free(texts[0]), free(texts[1]);
  if (err != CL_SUCCESS) {
    out->status = err;
    out->program = NULL;
    snprintf(out->error, sizeof out->error, "clCreateProgramWithSource");
    return 0;
  }
  out->status = build_with(env, out->program, spec->options);
  char *log = build_log(env, out->program);
  parse_usage(log, out);
  if (out->status != CL_SUCCESS) first_error(log, out->error, sizeof out->error);
  out->seconds = lab_now() - start;
  log_build(spec, out, "from source", log);
  free(log);
  return out->status == CL_SUCCESS;
}

static void bin_path(const char *work, const char *id, const char *ext, char *out, size_t size) {
  snprintf(out, size, "%s/bin/%s.%s", work, id, ext);
}

static int write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  const int ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

/* The builder's record of one spec: its binary, its options, and last (the sign that it is
   done) its facts: "status regs spill stack seconds" and the first error line. */
static void save_built(lab_env *env, const lab_program_spec *spec, const lab_program *p,
                       const char *work) {
  char path[1200], tmp[1210];
  size_t size = 0;
  if (p->status == CL_SUCCESS &&
      clGetProgramInfo(p->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) ==
          CL_SUCCESS &&
      size > 0) {
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = {bin};
    if (bin &&
        clGetProgramInfo(p->program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
      bin_path(work, spec->id, "bin", path, sizeof path);
      write_file(path, bin, size);
    }
    free(bin);
  }
  bin_path(work, spec->id, "opts", path, sizeof path);
  write_file(path, spec->options, strlen(spec->options));
  bin_path(work, spec->id, "info", path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  char facts[512];
  const int n = snprintf(facts, sizeof facts, "%d %d %d %d %.3f\n%s\n", (int)p->status, p->regs,
                         p->spill, p->stack, p->seconds, p->error);
  if (write_file(tmp, facts, (size_t)n < sizeof facts ? (size_t)n : sizeof facts - 1))
    rename(tmp, path);
  (void)env;
}

int lab_build_done(const char *work, const char *id) {
  char path[1200];
  bin_path(work, id, "info", path, sizeof path);
  return access(path, R_OK) == 0;
}

int lab_build_started(const char *work, const char *id) {
  char path[1200];
  bin_path(work, id, "started", path, sizeof path);
  return access(path, R_OK) == 0;
}

typedef struct build_pool {
  lab_env *env;
  const lab_program_spec *specs;
  size_t count, next;
  const char *work;
  pthread_mutex_t lock;
} build_pool;

static void *build_worker(void *arg) {
  build_pool *pool = arg;
  for (;;) {
    pthread_mutex_lock(&pool->lock);
    const size_t i = pool->next++;
    pthread_mutex_unlock(&pool->lock);
    if (i >= pool->count) return NULL;
    /* a mark first: if the compiler takes this process down, the driver's next builder leaves
       out the programs that were being built (their children build them, alone) */
    char mark[1200];
    bin_path(pool->work, pool->specs[i].id, "started", mark, sizeof mark);
    write_file(mark, "", 0);
    lab_program p;
    build_source(pool->env, &pool->specs[i], &p);
    save_built(pool->env, &pool->specs[i], &p, pool->work);
    lab_program_release(&p);
  }
}

void lab_build_all(lab_env *env, const lab_program_spec *specs, size_t count, int threads,
                   const char *work) {
  build_pool pool = {env, specs, count, 0, work, PTHREAD_MUTEX_INITIALIZER};
  pthread_t ids[64];
  int started = 0;
  if (threads > 64) threads = 64;
  for (int t = 0; t < threads; t++)
    if (pthread_create(&ids[started], NULL, build_worker, &pool) == 0) started++;
  if (started == 0) build_worker(&pool);
  for (int t = 0; t < started; t++)
    pthread_join(ids[t], NULL);
}

/* Loads the builder's binary of a spec if it was built with the same options: 1 loaded, 0 none
   or it would not load (then the caller builds from source), -1 the builder's build failed
   (out says why; building again would fail the same way). */
static int load_built(lab_env *env, const lab_program_spec *spec, const char *work,
                      lab_program *out) {
  char path[1200];
  bin_path(work, spec->id, "opts", path, sizeof path);
  char *options = lab_read_file(path);
  const int same = options && strcmp(options, spec->options) == 0;
  free(options);
  bin_path(work, spec->id, "info", path, sizeof path);
  char *facts = same ? lab_read_file(path) : NULL;
  if (!facts) return 0;
  memset(out, 0, sizeof *out);
  int status = 0;
  sscanf(facts, "%d %d %d %d %lf", &status, &out->regs, &out->spill, &out->stack, &out->seconds);
  const char *line = strchr(facts, '\n');
  snprintf(out->error, sizeof out->error, "%s", line ? line + 1 : "");
  for (char *c = out->error; *c; c++)
    if (*c == '\n') *c = '\0';
  free(facts);
  out->status = status;
  if (status != CL_SUCCESS) return -1;
  bin_path(work, spec->id, "bin", path, sizeof path);
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *bin = size > 0 ? malloc((size_t)size) : NULL;
  const int read_ok = bin && fread(bin, 1, (size_t)size, f) == (size_t)size;
  fclose(f);
  if (!read_ok) {
    free(bin);
    return 0;
  }
  const size_t length = (size_t)size;
  const unsigned char *bins[1] = {bin};
  cl_int err, bin_status = CL_SUCCESS;
  out->program =
      clCreateProgramWithBinary(env->context, 1, &env->device, &length, bins, &bin_status, &err);
  free(bin);
  if (err == CL_SUCCESS) err = bin_status;
  if (err == CL_SUCCESS) err = build_with(env, out->program, spec->options);
  char *log = out->program ? build_log(env, out->program) : NULL;
  lab_program note = *out;
  note.status = err;
  log_build(spec, &note, "from the builder's binary", log);
  free(log);
  if (err != CL_SUCCESS) {
    if (out->program) clReleaseProgram(out->program);
    out->program = NULL;
    return 0;
  }
  out->from_binary = 1;
  return 1;
}

int lab_program_get(lab_env *env, const lab_program_spec *spec, const char *work,
                    lab_program *out) {
  const int loaded = load_built(env, spec, work, out);
  if (loaded == 1) return 1;
  if (loaded == -1) return 0;
  return build_source(env, spec, out);
}

void lab_program_release(lab_program *p) {
  if (p->program) clReleaseProgram(p->program);
  p->program = NULL;
}
