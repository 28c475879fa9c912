/*
 * The context (struct ocf_context): its OpenCL objects, lock, facts, tuning, settings, log, pool,
 * arrival counters and plan cache; device selection (api/devices.c) and the context's tuning
 * (tuning_context.c).
 * The runtime's other parts have headers of their own: program_cache.h (programs, kernels,
 * binding), launch.h (launch and dispatch), probes.h, validate.h, workspace.h, arrivals.h,
 * host_buffers.h, plan_cache.h and run.h.
 */
#ifndef OCLFUSE_CONTEXT_H
#define OCLFUSE_CONTEXT_H

#include "common.h"
#include "device_facts.h"
#include "ops/registry.h"
#include "plan/plan.h"
#include "runtime/arrivals.h"
#include "runtime/disk_cache.h"
#include "runtime/log.h"
#include "runtime/workspace.h"
#include "tuning/shape_class.h"
#include "tuning/tuning.h"

#include <pthread.h>
#include <stddef.h>

typedef struct ocf_program_entry ocf_program_entry; /* program_cache.c */
typedef struct ocf_plan_cache ocf_plan_cache;       /* plan_cache.c */

/* A context's settings, resolved at creation from its ocf_context_config, the environment and
   the built-in defaults (api/context.c); fixed for the context's life but for the log's. */
typedef struct ocf_settings {
  char tuning_dir[4096]; /* the user tuning database's folder, "": none */
  char cache_dir[4096];  /* the program cache's folder, "": none (the cache is off) */
  ocf_cache_policy cache_policy;
  int user_tuning;    /* read the user tuning database */
  int verbosity;      /* the level the log starts with (0: none) */
  int env_verbosity;  /* the level OCF_VERBOSITY_ENV stands for on this context */
  int workspace_pool; /* the config allows the pool */
  ocf_log_fn log;
  void *log_user;
} ocf_settings;

struct ocf_context {
  cl_context cl_ctx;
  cl_device_id device;
  cl_command_queue queue;
  ocf_device_info info;
  /* Guards `facts` (kernel limits learnt after builds), the program cache, and every
     clSetKernelArg + enqueue (OpenCL kernels are not thread-safe between the two). */
  pthread_mutex_t lock;
  pthread_cond_t built; /* signalled when a program build (outside the lock) ends */
  /* Held while a probe of the matrix units runs (mma_probe.c), so that one runs at a time and
     a call that waited finds the answer in `facts`. Taken before `lock`, never inside it. */
  pthread_mutex_t probe_lock;
  ocf_device_facts facts;
  /* Every op's tuning values per data type and shape class: `tuning_base` resolved once at
     creation (built-in rows, shipped and user databases), `tuning` what is in force (the base
     with ocf_context_set_tuning's overrides). Read and written under `lock`. */
  ocf_tuning_values tuning_base[OCF_OP_COUNT][OCF_DTYPE_COUNT][OCF_MAX_SHAPE_CLASSES];
  ocf_tuning_values tuning[OCF_OP_COUNT][OCF_DTYPE_COUNT][OCF_MAX_SHAPE_CLASSES];
  char tuning_origin[512];     /* where the base came from, for ocf_context_tuning_origin */
  ocf_program_entry *programs; /* built programs, most recent first */
  ocf_settings settings;
  /* Where messages go; `log.lock` is &log_lock, which serializes deliveries and changes
     (ocf_context_set_log). Never held while taking `lock`. */
  ocf_log_sink log;
  pthread_mutex_t log_lock;
  ocf_workspace_pool pool;
  ocf_arrivals arrivals; /* under `lock` */
  /* Raised (under `lock`) whenever what decides a plan changes: tuning set, a fact learnt (a
     kernel limit, a local budget, a probe's outcome). A plan cache entry is valid for the
     generation it was made in. */
  unsigned long long plan_generation;
  ocf_plan_cache *plan_cache; /* under `lock`; NULL until the first plan is cached */
  /* Whether the buffer checks use the buffer registry (runtime/buffer_registry.h): 1 yes
     (its probe passed at the context's creation), -1 no (the probe failed, or the runtime
     refused a registration since). Read and written atomically after creation. */
  int buffer_registry;
  /* The tests' hook (ocf_context_test_narrow_kernels, src/internal/oclfuse_internal.h): every
     kernel built after it reports at most this many work-items (0: what the runtime says), as
     NVIDIA's driver reports 256 for every kernel. Under `lock`. */
  size_t test_kernel_workgroup_cap;
};

/* ---- api/devices.c ---- */

/* The size of the first published ocf_device_info (0.2): every member up to max_alloc_bytes. */
#define OCF_DEVICE_INFO_FIRST_SIZE (offsetof(ocf_device_info, max_alloc_bytes) + sizeof(cl_ulong))

/* Fills *info (its size member too) from an OpenCL device; indices are set by the caller. */
ocf_status ocf_device_info_fill(cl_platform_id platform, cl_device_id device,
                                ocf_device_info *info);
/* Whether the device lists `name` among its CL_DEVICE_EXTENSIONS (a whole word of the list). */
int ocf_device_has_extension(cl_device_id device, const char *name);
/* ocf_device_select without the checks of the caller's struct: fills a full-size *device. */
ocf_status ocf_device_select_internal(const char *spec, ocf_device_info *device);
/* The same, reading OCLFUSE_DEVICE for a NULL or "" spec only when use_environment is set. */
ocf_status ocf_device_select_env(const char *spec, int use_environment, ocf_device_info *device);
/* Copies a full description into a caller's struct of dst_size bytes (its own sizeof). */
void ocf_device_info_copy_out(ocf_device_info *dst, size_t dst_size, const ocf_device_info *src);

/* ---- tuning_context.c ---- */

/* Resolves ctx->tuning_base (and tuning) for the context's device: built-in rows, then the
   shipped databases that match the device, then the user's database for it. A database that
   fails to parse or to validate is ignored with a verbose warning. */
ocf_status ocf_context_tuning_init(ocf_context *ctx);
/* A copy, taken under the lock, of the values in force for a call of `op` on `shape`. */
void ocf_context_tuning_for(ocf_context *ctx, ocf_op op, ocf_dtype dtype, const ocf_shape *shape,
                            ocf_tuning_values *values);
/* The path of the user tuning database for the device in the folder `dir`. 0, or -1 (dir is
   "", or the path does not fit). */
int ocf_user_database_path(const char *dir, const ocf_device_info *info, char *path,
                           size_t capacity);

/* The runtime's other headers, by concern. A file includes those it uses; they are included
   here as well, so that code written before the split (the tool's tuner, the labs) still
   builds with this header alone. */
#include "runtime/host_buffers.h"
#include "runtime/launch.h"
#include "runtime/probes.h"
#include "runtime/program_cache.h"
#include "runtime/validate.h"

#endif /* OCLFUSE_CONTEXT_H */
