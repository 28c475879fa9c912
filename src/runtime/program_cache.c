/*
 * Programs built lazily, once per (program, options) and context, their kernels reused.
 *
 * A build runs outside the context's lock, so that calls of other threads on the same context
 * are not stalled by someone else's compile: the first caller inserts the entry as "building",
 * releases the lock, builds (from the on-disk cache when it can), takes the lock again and
 * publishes the result; other callers of the same program wait on `ctx->built`. A failed build
 * is removed again (not cached), and its waiters try for themselves.
 */
#include "runtime/context.h"
#include "runtime/disk_cache.h"
#include "runtime/log.h"
#include "runtime/sm90a_build.h"
#include "runtime/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum entry_state { ENTRY_BUILDING, ENTRY_READY } entry_state;

struct ocf_program_entry {
  ocf_program_entry *next;
  ocf_program_id id;
  uint64_t digest; /* of the program's files: part of the key */
  char *options;
  entry_state state;
  cl_program program;
  ocf_disk_key disk;
  size_t stored_bytes; /* the binary size on disk (0: none): re-stored when it grows */
  ocf_built_kernel *kernels[OCF_KERNEL_COUNT]; /* created on first use */
};

/* The key's digest: of every file the program is built from (cmake/embed_kernels.cmake). */
static uint64_t program_digest(const ocf_program_source *source) {
  return source->digest;
}

void ocf_append_build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
      size == 0)
    return;
  char *log = malloc(size + 1);
  if (!log) return;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
    log[size] = '\0';
    ocf_error_append("\nbuild log:\n");
    ocf_error_append(log);
  }
  free(log);
}

/* -cl-std=CL1.2 keeps every device on the same language, whatever its default;
   -cl-kernel-arg-info lets the binder check argument names against the descriptors; -w keeps
   the compiler's warnings off the caller's stderr (PoCL prints them there: on a CPU without
   AVX-512 every 16-wide vector argument warns that it "changes the ABI"). Errors still fail
   the build, with the log in ocf_last_error(). */
static int full_options(const char *options, char *out, size_t capacity) {
  int n = snprintf(out, capacity, "-cl-std=CL1.2 -cl-kernel-arg-info -w %s", options);
  return n > 0 && (size_t)n < capacity ? 0 : -1;
}

static ocf_status build_from_source(cl_context context, cl_device_id device,
                                    const ocf_program_source *source, const char *options,
                                    cl_program *out) {
  /* The program's files in order (cl/common.cl first), one string each. */
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(
      context, source->count, (const char **)source->texts, source->lengths, &err);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clCreateProgramWithSource");
  err = clBuildProgram(program, 1, &device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    /* A compile error is the library's own (with the compiler's log); any other failure (out of
       resources, say) is the runtime's, and passes through with its OpenCL status. */
    ocf_status status = err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS
                            ? OCF_ERR_BUILD_FAILED
                            : (ocf_status)err;
    ocf_fail(status, "clBuildProgram: building program %s with options \"%s\" failed: %s (%d)",
             source->name, options,
             ocf_cl_error_name(err) ? ocf_cl_error_name(err) : "OpenCL error", (int)err);
    if (status == OCF_ERR_BUILD_FAILED) ocf_append_build_log(program, device);
    clReleaseProgram(program);
    return status;
  }
  *out = program;
  return OCF_SUCCESS;
}

/* A program from a cached binary; NULL when there is none or the driver refuses it. */
static cl_program build_from_disk(ocf_log_sink *log, cl_context context, cl_device_id device,
                                  const ocf_disk_key *key, const char *options, int sm90a,
                                  size_t *binary_bytes) {
  unsigned char *binary = NULL;
  size_t length = 0;
  if (ocf_disk_cache_load(key, &binary, &length) != 0) return NULL;
  /* A retargeted program's binary is its sm_90a PTX; passed through the retarget again (a
     no-op on such text), so that text in any other form is refused here, not run. */
  if (sm90a && ocf_sm90a_binary(&binary, &length) != 0) {
    free(binary);
    ocf_log(log, OCF_LOG_WARNING, "cached binary %s is not sm_90a PTX: building from source",
            key->path);
    ocf_disk_cache_remove(key);
    return NULL;
  }
  cl_int err = CL_SUCCESS, binary_status = CL_SUCCESS;
  const unsigned char *binaries[1] = {binary};
  cl_program program =
      clCreateProgramWithBinary(context, 1, &device, &length, binaries, &binary_status, &err);
  free(binary);
  if (err == CL_SUCCESS && binary_status == CL_SUCCESS)
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
  else if (err == CL_SUCCESS)
    err = binary_status;
  if (err != CL_SUCCESS) {
    if (program) clReleaseProgram(program);
    /* A binary the driver refuses is replaced; after any other failure (out of resources, say)
       it may still be good, and only this build comes from source. */
    int refused = err == CL_INVALID_BINARY || err == CL_BUILD_PROGRAM_FAILURE;
    ocf_log(log, OCF_LOG_WARNING, "cached binary %s %s (%s): building from source", key->path,
            refused ? "refused by the driver" : "could not be loaded",
            ocf_cl_error_name(err) ? ocf_cl_error_name(err) : "error");
    if (refused) ocf_disk_cache_remove(key);
    return NULL;
  }
  *binary_bytes = length;
  return program;
}

/* The program's current binary size (0 when it cannot be read). */
static size_t binary_size(cl_program program) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS)
    return 0;
  return size;
}

/* Stores the program's binary under its key; returns the size stored (0: none). */
static size_t store_binary(ocf_log_sink *log, cl_program program, const ocf_disk_key *key) {
  if (!key->enabled) return 0;
  double start = ocf_now_ms();
  size_t size = binary_size(program);
  if (size == 0) return 0;
  unsigned char *binary = malloc(size);
  if (!binary) return 0;
  unsigned char *binaries[1] = {binary};
  size_t stored = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL) ==
          CL_SUCCESS &&
      ocf_disk_cache_store(key, binary, size) == 0)
    stored = size;
  else
    ocf_log(log, OCF_LOG_WARNING, "cannot store %s (read-only or full cache folder?)", key->path);
  free(binary);
  if (stored)
    ocf_log(log, OCF_LOG_INFO, "stored %s: %zu bytes in %.1f ms", key->path, size,
            ocf_now_ms() - start);
  return stored;
}

/* Builds an entry's program, outside the lock: from disk, else from source (then stored). */
static ocf_status build_entry(ocf_context *ctx, const ocf_program_source *source,
                              ocf_program_entry *entry) {
  char options[1024];
  if (full_options(entry->options, options, sizeof options) != 0)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "build options too long");
  double start = ocf_now_ms();
  size_t bytes = 0;
  const int sm90a = ocf_program_retargets_sm90a(entry->id);
  cl_program program =
      build_from_disk(&ctx->log, ctx->cl_ctx, ctx->device, &entry->disk, options, sm90a, &bytes);
  const char *origin = "disk cache";
  if (program) {
    entry->stored_bytes = bytes;
  } else {
    origin = entry->disk.enabled ? "source (disk cache miss)" : "source (disk cache off)";
    ocf_status status = build_from_source(ctx->cl_ctx, ctx->device, source, options, &program);
    /* The wgmma program: its PTX retargeted to sm_90a and built again (sm90a_build.c); the
       program stored on disk is then the retargeted one. */
    if (status == OCF_SUCCESS && sm90a)
      status =
          ocf_sm90a_rebuild(&ctx->log, ctx->cl_ctx, ctx->device, source->name, options, &program);
    if (status != OCF_SUCCESS) return status;
    /* Not stored yet: PoCL compiles work-group functions at a kernel's first launch and keeps
       them in the binary, but hands out the binary it first returned, so it is read only once
       the kernels have run (ocf_program_cache_persist). */
    entry->stored_bytes = 0;
  }
  entry->program = program;
  ocf_log(&ctx->log, OCF_LOG_INFO, "build %s [%s]: %.1f ms from %s", source->name, entry->options,
          ocf_now_ms() - start, origin);
  return OCF_SUCCESS;
}

static ocf_program_entry *find_entry(ocf_context *ctx, ocf_program_id id, uint64_t digest,
                                     const char *options) {
  for (ocf_program_entry *entry = ctx->programs; entry; entry = entry->next)
    if (entry->id == id && entry->digest == digest && strcmp(entry->options, options) == 0)
      return entry;
  return NULL;
}

static void unlink_entry(ocf_context *ctx, ocf_program_entry *entry) {
  for (ocf_program_entry **link = &ctx->programs; *link; link = &(*link)->next)
    if (*link == entry) {
      *link = entry->next;
      return;
    }
}

/* The ready entry for (id, options), building it if needed. Called with ctx->lock held; the
   lock is released during a build and while waiting for another thread's. */
static ocf_status find_or_build(ocf_context *ctx, ocf_program_id id, const char *options,
                                ocf_program_entry **out) {
  const ocf_program_source *source = ocf_program_source_get(id);
  if (!source) return ocf_fail(OCF_ERR_INVALID_VALUE, "unknown program id %d", (int)id);
  uint64_t digest = program_digest(source);
  ocf_program_entry *entry;
  while ((entry = find_entry(ctx, id, digest, options)) && entry->state == ENTRY_BUILDING)
    pthread_cond_wait(&ctx->built, &ctx->lock);
  if (entry) {
    *out = entry;
    return OCF_SUCCESS;
  }
  entry = calloc(1, sizeof *entry);
  size_t options_size = strlen(options) + 1;
  char *options_copy = malloc(options_size);
  if (!entry || !options_copy) {
    free(entry);
    free(options_copy);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a program cache entry");
  }
  memcpy(options_copy, options, options_size);
  entry->id = id;
  entry->digest = digest;
  entry->options = options_copy;
  entry->state = ENTRY_BUILDING;
  const char *cache_dir =
      ctx->settings.cache_policy == OCF_CACHE_OFF ? "" : ctx->settings.cache_dir;
  if (ocf_program_retargets_sm90a(id)) {
    /* Its own namespace: the binary on disk is the retargeted PTX, never the source build's. */
    char key_options[1100];
    snprintf(key_options, sizeof key_options, "%s | %s", options, OCF_SM90A_KEY);
    ocf_disk_key_make(&entry->disk, &ctx->info, digest, key_options, cache_dir);
  } else {
    ocf_disk_key_make(&entry->disk, &ctx->info, digest, options, cache_dir);
  }
  entry->next = ctx->programs;
  ctx->programs = entry;

  pthread_mutex_unlock(&ctx->lock);
  ocf_status status = build_entry(ctx, source, entry);
  pthread_mutex_lock(&ctx->lock);

  if (status == OCF_SUCCESS) {
    entry->state = ENTRY_READY;
    *out = entry;
  } else {
    unlink_entry(ctx, entry);
    free(entry->options);
    free(entry);
  }
  pthread_cond_broadcast(&ctx->built);
  return status;
}

/* Creates a kernel and reads, once, the limits the runtime reports for it. */
static ocf_status create_kernel(ocf_context *ctx, cl_program program, const ocf_kernel_desc *desc,
                                ocf_built_kernel **out) {
  ocf_built_kernel *built = calloc(1, sizeof *built);
  if (!built) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a kernel cache entry");
  cl_int err = CL_SUCCESS;
  built->kernel = clCreateKernel(program, desc->name, &err);
  if (err != CL_SUCCESS) {
    free(built);
    return ocf_fail_cl(err, "clCreateKernel");
  }
  cl_ulong local_bytes = 0;
  err = clGetKernelWorkGroupInfo(built->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof built->max_workgroup, &built->max_workgroup, NULL);
  if (err == CL_SUCCESS)
    err = clGetKernelWorkGroupInfo(built->kernel, ctx->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                   sizeof local_bytes, &local_bytes, NULL);
  if (err != CL_SUCCESS) {
    clReleaseKernel(built->kernel);
    free(built);
    return ocf_fail_cl(err, "clGetKernelWorkGroupInfo");
  }
  /* The tests' stand-in for NVIDIA's small reported limits (ctx->lock is held here). */
  if (ctx->test_kernel_workgroup_cap && built->max_workgroup > ctx->test_kernel_workgroup_cap)
    built->max_workgroup = ctx->test_kernel_workgroup_cap;
  built->local_bytes = local_bytes;
  built->desc = desc;
  *out = built;
  return OCF_SUCCESS;
}

ocf_status ocf_kernel_get(ocf_context *ctx, ocf_program_id program, const char *options,
                          ocf_kernel_id id, ocf_built_kernel **kernel) {
  const ocf_kernel_desc *desc = ocf_kernel_desc_get(id);
  if (!desc || desc->program != program)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "kernel %d is not in program %d", (int)id, (int)program);
  ocf_program_entry *entry = NULL;
  ocf_status status = find_or_build(ctx, program, options, &entry);
  if (status != OCF_SUCCESS) return status;
  if (!entry->kernels[id]) {
    status = create_kernel(ctx, entry->program, desc, &entry->kernels[id]);
    if (status != OCF_SUCCESS) return status;
  }
  *kernel = entry->kernels[id];
  return OCF_SUCCESS;
}

void ocf_program_cache_persist(ocf_context *ctx) {
  for (ocf_program_entry *entry = ctx->programs; entry; entry = entry->next) {
    if (entry->state != ENTRY_READY || !entry->disk.enabled) continue;
    /* Built from source in this process (never stored), or grown since it was loaded: a runtime
       that compiles work-group functions at first launch (PoCL) adds them to the binary, and the
       next process need not compile them again. */
    size_t size = entry->stored_bytes ? binary_size(entry->program) : 0;
    if (entry->stored_bytes == 0 || size > entry->stored_bytes) {
      size_t stored = store_binary(&ctx->log, entry->program, &entry->disk);
      if (stored) entry->stored_bytes = stored;
    }
  }
}

void ocf_program_cache_release(ocf_context *ctx) {
  ocf_program_entry *program = ctx->programs;
  while (program) {
    ocf_program_entry *next = program->next;
    for (size_t k = 0; k < OCF_KERNEL_COUNT; k++) {
      if (!program->kernels[k]) continue;
      clReleaseKernel(program->kernels[k]->kernel);
      free(program->kernels[k]);
    }
    clReleaseProgram(program->program);
    free(program->options);
    free(program);
    program = next;
  }
  ctx->programs = NULL;
}
