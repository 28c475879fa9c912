/*
 * The context, and the runtime that turns a plan into enqueued kernels: the program cache
 * (program_cache.c), argument binding by descriptor (bind.c), the launch of a plan (launch.c),
 * the enqueue with wait lists and events (dispatch.c), argument checks (validate.c) and the
 * host-array helpers (host_buffers.c).
 */
#ifndef OCLFUSE_CONTEXT_H
#define OCLFUSE_CONTEXT_H

#include "common.h"
#include "device_facts.h"
#include "ops/registry.h"
#include "plan/plan.h"
#include "runtime/disk_cache.h"
#include "runtime/log.h"
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

/* The context's scratch pool (runtime/workspace.c), under the context's lock. */
typedef struct ocf_workspace_pool {
  int usable;       /* the config allows it and the default queue is in order */
  cl_mem buffer;    /* NULL: empty */
  size_t bytes;     /* its size */
  cl_event last;    /* the last command enqueued on it (retained), NULL: none */
  size_t creations; /* buffers created so far */
} ocf_workspace_pool;

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
  /* Raised (under `lock`) whenever what decides a plan changes: tuning set, a fact learnt (a
     kernel limit, a local budget, a probe's outcome). A plan cache entry is valid for the
     generation it was made in. */
  unsigned long long plan_generation;
  ocf_plan_cache *plan_cache; /* under `lock`; NULL until the first plan is cached */
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

/* ---- program_cache.c ---- */

/* A built kernel, and what the runtime learnt about it once. */
typedef struct ocf_built_kernel {
  cl_kernel kernel;
  const ocf_kernel_desc *desc;
  size_t max_workgroup;           /* CL_KERNEL_WORK_GROUP_SIZE */
  unsigned long long local_bytes; /* CL_KERNEL_LOCAL_MEM_SIZE */
  int arguments_checked;          /* its arguments matched its descriptor */
  /* The scalar arguments it holds (bytes of the frame last bound, valid when `bound`): a
     scalar of the same bytes is not set again. Buffers are set at every call (a released
     buffer's handle may come back as another buffer). Under ctx->lock, as every binding. */
  int bound;
  unsigned char scalars[OCF_FRAME_MAX];
} ocf_built_kernel;

/*
 * Returns kernel `id` of `program` built with `options` (the plan's -D list), building the
 * program on first use. The caller holds ctx->lock, which is released while the program builds
 * (so anything read under the lock before must be read again after); the kernel is owned by the
 * cache and valid until the context is released. A failed build is OCF_ERR_BUILD_FAILED with the
 * log in the last-error text.
 */
ocf_status ocf_kernel_get(ocf_context *ctx, ocf_program_id program, const char *options,
                          ocf_kernel_id id, ocf_built_kernel **kernel);
/* Stores on disk the binaries built from source in this process, and those that have grown
   since they were loaded (PoCL adds the work-group functions it compiled at first launch).
   Called when the context is released and after a warm-up. */
void ocf_program_cache_persist(ocf_context *ctx);
/* Releases every cached program and kernel. */
void ocf_program_cache_release(ocf_context *ctx);
/* Appends the build log of `program` on `device` to the last-error text, after the failure
   line (nothing when the log is empty or cannot be read). */
void ocf_append_build_log(cl_program program, cl_device_id device);

/* ---- bind.c ---- */

/* Sets a built kernel's arguments from `frame` as its descriptor says, checking the first time
   that the kernel's argument count (and names, where reported) match the descriptor. */
ocf_status ocf_bind_arguments(ocf_built_kernel *kernel, const void *frame);

/* ---- launch.c ---- */

/*
 * Runs a plan: builds (once) and checks every kernel of the plan, then binds and enqueues them
 * in order, so that a failure before the first enqueue leaves nothing queued. `frame` is the op's
 * frame struct; when the plan needs scratch, plan->scratch_bytes of it come from the launch's
 * workspace, the context's pool or a buffer of the call's own (runtime/workspace.c), stored in
 * *scratch_slot (a field of the frame) and zero-filled before the first kernel.
 * When a kernel the plan chose with a default workgroup size accepts fewer work-items than
 * planned, its limit is remembered in ctx->facts, *replan is set and OCF_ERR_INVALID_WORKGROUP
 * returned with nothing enqueued: the caller plans again.
 */
ocf_status ocf_launch_plan(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                           void *frame, cl_mem *scratch_slot, const ocf_launch *launch,
                           int *replan);

/* Builds (once) and checks every kernel of a plan into kernels[step] (the program cache's),
   enqueuing nothing; *replan as in ocf_launch_plan. Takes the lock. */
ocf_status ocf_plan_build(ocf_context *ctx, const ocf_plan *plan, ocf_built_kernel **kernels,
                          int *replan);

/* The second half of ocf_launch_plan: the scratch, then under the lock the binding of every
   built kernel's arguments from `frame` and the enqueues. */
ocf_status ocf_plan_enqueue(ocf_context *ctx, cl_command_queue queue, const ocf_plan *plan,
                            ocf_built_kernel *const *kernels, void *frame, cl_mem *scratch_slot,
                            const ocf_launch *launch);

/* Under ctx->lock: learns that `kernel` accepts at most `limit` work-items (a limit only ever
   lowers), raising the plan generation when it does. */
void ocf_context_learn_workgroup(ocf_context *ctx, ocf_kernel_id kernel, size_t limit);

/* A copy of the context's facts, taken under its lock. */
void ocf_context_facts(ocf_context *ctx, ocf_device_facts *facts);

/* ---- mma_probe.c ---- */

/*
 * Runs the probe a plan asked for (plan->probe): for OCF_PLAN_PROBE_MMA, the matrix-unit kernel
 * built with plan->probe_bytes of local memory and run once on a small product whose exact
 * answer is known, on the context's own queue (blocking). Its outcome goes into ctx->facts (the
 * capability the first time, the local memory every time), so the caller plans again. A probe
 * that fails is not an error of the call: the call runs on the SIMT kernels.
 */
void ocf_probe_run(ocf_context *ctx, const ocf_plan *plan);
/* Marks the matrix units unusable on this context (a build of one of their programs failed
   after the probe passed): later plans take the SIMT kernels. */
void ocf_probe_mma_failed(ocf_context *ctx, const char *why);

/* ---- wgmma_probe.c ---- */

/* The probe of the wgmma kernel (OCF_PLAN_PROBE_WGMMA, called by ocf_probe_run): the kernel
   built for sm_90a with the tuning's geometry and run once on a small bf16 product whose exact
   answer is known, on the context's own queue (blocking); its outcome goes into ctx->facts
   (wgmma, wgmma_local_ok), once per context. */
void ocf_probe_wgmma(ocf_context *ctx);
/* Marks the wgmma kernel unusable on this context (its build failed after the probe passed):
   later plans take the mma.sync kernel, then the SIMT kernels. */
void ocf_probe_wgmma_failed(ocf_context *ctx, const char *why);

/* ---- dispatch.c ---- */

/*
 * Enqueues the plan's kernels (built, checked and bound) in order: the first after the launch's
 * wait list, each later one after the kernel before it. Sets *last to the last enqueued
 * kernel's event (ours to release; NULL when nothing was enqueued, or when the last kernel is
 * enqueued without one: only when want_last is 0 and the plan has one kernel and no first_event)
 * and, when launch->first_event asks, *first to a retained reference to the first kernel's event.
 * On failure the kernels before the failed one stay enqueued (*last is the latest of them): the
 * plans guarantee that those write only the call's scratch, never an output. The one failure
 * after an output-writing kernel is queued, a one-kernel call whose event cannot be retained for
 * first_event, is OCF_ERR_ENQUEUED_WITHOUT_EVENT.
 */
ocf_status ocf_dispatch_steps(cl_command_queue queue, const ocf_plan *plan,
                              ocf_built_kernel *const *kernels, const ocf_launch *launch,
                              int want_last, cl_event *first, cl_event *last);

/* For a call with no work: produces the launch's out event (a marker after its wait list), if
   one was asked for, and enqueues nothing else. */
ocf_status ocf_dispatch_nothing(cl_command_queue queue, const ocf_launch *launch);

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

/* Sets *overlap when the byte ranges [a_start, a_start + a_bytes) of a and [b_start, ...) of b
   overlap in memory, resolving sub-buffers to their parent, and *same_start when they also start
   at the same byte. The ranges come from checked offsets and extents, so they do not overflow.
   A failed buffer query is its OpenCL status. */
ocf_status ocf_ranges_overlap(cl_mem a, size_t a_start, size_t a_bytes, cl_mem b, size_t b_start,
                              size_t b_bytes, int *overlap, int *same_start);

/* A strided matrix in a buffer: rows x cols elements of element_size bytes, row r from element
   offset + r * ld (a checked extent). */
typedef struct ocf_matrix_view {
  cl_mem buffer;
  size_t offset, rows, cols, ld, element_size;
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

/* Checks a data type the call may take: a known value, and one whose kernels exist
   (fp32 today; fp16 and bf16 are reserved). `what` names the operand in errors. */
ocf_status ocf_check_dtype(const char *what, ocf_dtype dtype);

/* Checks an options struct's size member against the first version's size and ours. */
ocf_status ocf_check_struct_size(const char *what, size_t size, size_t first_version_size);

/* ---- workspace.c: the scratch memory of a call of several kernels ---- */

/* Scratch up to this size is zeroed from the host (created so, or written from a static page of
   zeros when reused), larger scratch zeroed on the device. Oclgrind does not count a device fill
   as initialisation; 64 KiB covers the split-K sums of the shapes the suites run under it (a
   batch of 3 split products of 13 x 24 is 15 KiB), and costs a GPU a host copy of at most that. */
#define OCF_SCRATCH_HOST_ZEROED_MAX ((size_t)64 << 10)

/* Where one call's scratch lives. */
typedef struct ocf_scratch {
  cl_mem mem; /* what the kernels get (the caller's workspace, a sub-buffer of it, the pool's
                 buffer or the call's own) */
  int owned;  /* a sub-buffer or the call's own buffer: released once the call's kernels finish */
  int pooled; /* the context's pool: taken under the lock (ocf_scratch_pool_take) */
  int zeroed; /* already all zeros (created so): no device fill needed */
} ocf_scratch;

/* Checks a launch's workspace members (ocf_check_launch calls it): NULL with offset and size 0,
   or a buffer of the context holding offset + size bytes, the offset aligned for a
   sub-buffer. */
ocf_status ocf_workspace_check(const ocf_context *ctx, const ocf_launch *launch);
/* Refuses (OCF_ERR_ALIASING) a launch workspace whose bytes meet the operand's bytes
   [start, start + bytes) of `buffer`; `what` is "ocf_softmax: in", say. Nothing without a
   workspace or operand. */
ocf_status ocf_workspace_check_disjoint(const ocf_launch *launch, const char *what, cl_mem buffer,
                                        size_t start, size_t bytes);
/* Before the lock: the scratch of `bytes` for a call on `queue`: from the launch's workspace
   (OCF_ERR_BUFFER_TOO_SMALL when it holds fewer bytes), a buffer of the call's own, or, for the
   pool, nothing yet (s->pooled set). */
ocf_status ocf_scratch_prepare(ocf_context *ctx, cl_command_queue queue, const ocf_launch *launch,
                               size_t bytes, ocf_scratch *s);
/* Under ctx->lock, after every kernel is built: the pool's buffer, grown to `bytes` if smaller. */
ocf_status ocf_scratch_pool_take(ocf_context *ctx, size_t bytes, ocf_scratch *s);
/* Under ctx->lock, after the enqueues: `last` (NULL: nothing was enqueued) is the call's last
   command on the scratch; the pool remembers it. */
void ocf_scratch_used(ocf_context *ctx, const ocf_scratch *s, cl_event last);
/* After the lock: releases owned scratch once `last` completes (at once when NULL). */
void ocf_scratch_release(const ocf_scratch *s, cl_event last);
/* At context release, after clFinish: frees the pool. */
void ocf_workspace_pool_free(ocf_context *ctx);

/* ---- host_buffers.c: helpers for the _host convenience calls ---- */

/* Creates a read-only (or read-write) buffer of `count` floats initialised from `data` (NULL:
   uninitialised). count 0 allocates one float so that a valid handle exists. */
ocf_status ocf_host_buffer(ocf_context *ctx, cl_mem_flags flags, size_t count, const float *data,
                           cl_mem *buffer);
/* Blocking read of `count` floats from the start of `buffer` into `data`, after `after` (the
   call's event; NULL: none). The context's queue may be out of order (ocf_context_wrap), where
   a read-back with no wait list may run before the kernels that write the buffer. */
ocf_status ocf_host_read(ocf_context *ctx, cl_mem buffer, size_t count, float *data,
                         cl_event after);

#endif /* OCLFUSE_CONTEXT_H */
