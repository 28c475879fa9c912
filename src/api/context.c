/* Context creation (own or wrapped OpenCL objects) with its settings, and release. */
#include "runtime/context.h"
#include "runtime/buffer_registry.h"
#include "runtime/disk_cache.h"
#include "runtime/files.h"
#include "runtime/plan_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size of the first published ocf_context_config (0.3): every member up to
   workspace_pool. */
#define CONFIG_FIRST_SIZE (offsetof(ocf_context_config, workspace_pool) + sizeof(ocf_switch))

void ocf_context_config_init(ocf_context_config *config) {
  if (!config) return;
  memset(config, 0, sizeof *config);
  config->size = sizeof *config;
}

/* Copies a folder path of the caller's; OCF_ERR_INVALID_VALUE when it does not fit (the room
   left for the file names inside it). */
static ocf_status copy_dir(const char *what, const char *dir, char *out, size_t capacity) {
  size_t length = strlen(dir);
  if (length + 96 >= capacity)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_context_config: %s is %zu bytes long, above %zu",
                    what, length, capacity - 96);
  memcpy(out, dir, length + 1);
  return OCF_SUCCESS;
}

/* A config's settings over the environment's over the built-in defaults (include/oclfuse.h,
   "Context configuration"). `config` NULL: every default. */
static ocf_status resolve_settings(const char *fn, const ocf_context_config *config,
                                   ocf_settings *out, int *use_environment) {
  ocf_context_config c = OCF_CONTEXT_CONFIG_INIT;
  if (config) {
    char what[64];
    snprintf(what, sizeof what, "%s: config", fn);
    ocf_status status = ocf_read_struct(what, config, CONFIG_FIRST_SIZE, &c, sizeof c);
    if (status != OCF_SUCCESS) return status;
  }
  if ((unsigned)c.program_cache > OCF_PROGRAM_CACHE_ALWAYS ||
      (unsigned)c.user_tuning > OCF_SWITCH_OFF || (unsigned)c.workspace_pool > OCF_SWITCH_OFF ||
      c.verbosity < OCF_VERBOSITY_QUIET || c.verbosity > OCF_LOG_DEBUG)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "%s: config: %s %d is out of range", fn,
                    (unsigned)c.program_cache > OCF_PROGRAM_CACHE_ALWAYS ? "program_cache"
                    : (unsigned)c.user_tuning > OCF_SWITCH_OFF           ? "user_tuning"
                    : (unsigned)c.workspace_pool > OCF_SWITCH_OFF        ? "workspace_pool"
                                                                         : "verbosity",
                    (unsigned)c.program_cache > OCF_PROGRAM_CACHE_ALWAYS ? (int)c.program_cache
                    : (unsigned)c.user_tuning > OCF_SWITCH_OFF           ? (int)c.user_tuning
                    : (unsigned)c.workspace_pool > OCF_SWITCH_OFF        ? (int)c.workspace_pool
                                                                         : c.verbosity);
  const int env = !c.ignore_environment;
  *use_environment = env;
  memset(out, 0, sizeof *out);
  ocf_status status = OCF_SUCCESS;
  if (c.tuning_dir)
    status = copy_dir("tuning_dir", c.tuning_dir, out->tuning_dir, sizeof out->tuning_dir);
  else if (env && ocf_cache_dir(out->tuning_dir, sizeof out->tuning_dir - 96) != 0)
    out->tuning_dir[0] = '\0'; /* no folder: no user database, no program cache */
  if (status == OCF_SUCCESS && c.cache_dir)
    status = copy_dir("cache_dir", c.cache_dir, out->cache_dir, sizeof out->cache_dir);
  else if (status == OCF_SUCCESS && out->tuning_dir[0])
    snprintf(out->cache_dir, sizeof out->cache_dir, "%.4000s/programs", out->tuning_dir);
  if (status != OCF_SUCCESS) return status;

  switch (c.program_cache) {
  case OCF_PROGRAM_CACHE_OFF:
    out->cache_policy = OCF_CACHE_OFF;
    break;
  case OCF_PROGRAM_CACHE_ON:
    out->cache_policy = OCF_CACHE_DEFAULT;
    break;
  case OCF_PROGRAM_CACHE_ALWAYS:
    out->cache_policy = OCF_CACHE_ALWAYS;
    break;
  default:
    out->cache_policy = env ? ocf_disk_cache_policy() : OCF_CACHE_DEFAULT;
    break;
  }
  if (c.user_tuning == OCF_SWITCH_DEFAULT) {
    const char *value = env ? getenv("OCLFUSE_TUNING_DB") : NULL;
    out->user_tuning = !(value && strcmp(value, "0") == 0);
  } else {
    out->user_tuning = c.user_tuning == OCF_SWITCH_ON;
  }
  out->env_verbosity = env ? ocf_verbosity_from_env() : 0;
  out->verbosity = c.verbosity == OCF_VERBOSITY_ENV     ? out->env_verbosity
                   : c.verbosity == OCF_VERBOSITY_QUIET ? 0
                                                        : c.verbosity;
  out->log = c.log;
  out->log_user = c.log_user;
  out->workspace_pool = c.workspace_pool != OCF_SWITCH_OFF;
  return OCF_SUCCESS;
}

/* The sink of the messages made before a context exists (one thread: no lock). */
static ocf_log_sink early_sink(const ocf_settings *settings) {
  ocf_log_sink sink = {settings->verbosity, settings->log, settings->log_user, NULL};
  return sink;
}

/* A context for a described device with its settings, its facts and tuning resolved; the
   OpenCL objects are the caller's to set. */
static ocf_status context_alloc(const ocf_device_info *info, const ocf_settings *settings,
                                ocf_context **out) {
  ocf_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a context");
  ctx->info = *info;
  ctx->settings = *settings;
  if (pthread_mutex_init(&ctx->log_lock, NULL) != 0) {
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's log mutex");
  }
  ctx->log = early_sink(settings);
  ctx->log.lock = &ctx->log_lock;
  ocf_device_facts_init(&ctx->facts, info);
  ctx->facts.nv_compiler_options =
      info->device && ocf_device_has_extension(info->device, "cl_nv_compiler_options");
  ocf_status status = ocf_context_tuning_init(ctx);
  if (status != OCF_SUCCESS) {
    pthread_mutex_destroy(&ctx->log_lock);
    free(ctx);
    return status;
  }
  if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
    pthread_mutex_destroy(&ctx->log_lock);
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's mutex");
  }
  if (pthread_cond_init(&ctx->built, NULL) != 0) {
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->log_lock);
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's condition");
  }
  if (pthread_mutex_init(&ctx->probe_lock, NULL) != 0) {
    pthread_cond_destroy(&ctx->built);
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->log_lock);
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's probe mutex");
  }
  *out = ctx;
  return OCF_SUCCESS;
}

/* Whether the context's buffer checks may keep what they learn of a buffer: where the
   runtime runs destructor callbacks inside the release (runtime/buffer_registry.h). */
static void decide_buffer_registry(ocf_context *ctx) {
  ctx->buffer_registry = ocf_buffer_registry_probe(ctx->cl_ctx, ctx->device) ? 1 : -1;
  ocf_log(&ctx->log, OCF_LOG_INFO, "buffer registry: %s",
          ctx->buffer_registry > 0 ? "on"
                                   : "off (destructor callbacks did not run inside the release): "
                                     "buffers are asked about at every call");
}

static ocf_status context_create(const char *spec, int use_environment,
                                 const ocf_settings *settings, ocf_context **ctx_out);
static ocf_status context_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                               const ocf_settings *settings, ocf_context **ctx_out);

ocf_status ocf_context_create_ex(const char *spec, const ocf_context_config *config,
                                 ocf_context **ctx_out) {
  ocf_error_clear();
  if (!ctx_out) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_create: ctx is NULL");
  ocf_settings *settings = malloc(sizeof *settings);
  if (!settings) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "ocf_context_create: settings");
  int use_environment = 1;
  ocf_status status = resolve_settings("ocf_context_create", config, settings, &use_environment);
  if (status == OCF_SUCCESS) status = context_create(spec, use_environment, settings, ctx_out);
  free(settings);
  return status;
}

ocf_status ocf_context_create(const char *spec, ocf_context **ctx_out) {
  return ocf_context_create_ex(spec, NULL, ctx_out);
}

static ocf_status context_create(const char *spec, int use_environment,
                                 const ocf_settings *settings, ocf_context **ctx_out) {
  ocf_device_info info;
  ocf_status status = ocf_device_select_env(spec, use_environment, &info);
  if (status != OCF_SUCCESS) return status;
  ocf_log_sink early = early_sink(settings);
  ocf_log(&early, OCF_LOG_INFO, "device %s / %s (spec \"%s\"%s)", info.platform_name,
          info.device_name, spec ? spec : "", spec && spec[0] ? "" : ": the default rule");

  cl_int err = CL_SUCCESS;
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)info.platform,
                                        0};
  cl_context cl_ctx = clCreateContext(properties, 1, &info.device, NULL, NULL, &err);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clCreateContext");
  /* Profiling is on so that callers (and the benchmark) can time the events we return. */
  cl_command_queue queue =
      clCreateCommandQueue(cl_ctx, info.device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS) {
    clReleaseContext(cl_ctx);
    return ocf_fail_cl(err, "clCreateCommandQueue");
  }
  ocf_context *ctx = NULL;
  status = context_alloc(&info, settings, &ctx);
  if (status != OCF_SUCCESS) {
    clReleaseCommandQueue(queue);
    clReleaseContext(cl_ctx);
    return status;
  }
  ctx->cl_ctx = cl_ctx;
  ctx->device = info.device;
  ctx->queue = queue;
  ctx->pool.usable = settings->workspace_pool; /* our queue is in order */
  decide_buffer_registry(ctx);
  *ctx_out = ctx;
  return OCF_SUCCESS;
}

/* Finds the platform and indices of a caller's device, so that a wrapped context describes its
   device exactly as a created one does. */
static ocf_status describe_device(cl_device_id device, ocf_device_info *info) {
  cl_platform_id platform = NULL;
  cl_int err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
  if (err != CL_SUCCESS)
    return ocf_fail_cl(err, "clGetDeviceInfo(CL_DEVICE_PLATFORM) on the wrapped device");
  memset(info, 0, sizeof *info);
  ocf_status status = ocf_device_info_fill(platform, device, info);
  if (status != OCF_SUCCESS) return status;
  /* Indices are informative only; devices of a wrapped context may not be in our list. */
  size_t count = 0;
  if (ocf_devices_list(NULL, 0, &count) == OCF_SUCCESS && count > 0) {
    ocf_device_info *all = malloc(count * sizeof *all);
    if (all) all[0].size = sizeof *all;
    if (all && ocf_devices_list(all, count, &count) == OCF_SUCCESS) {
      for (size_t i = 0; i < count; i++) {
        if (all[i].device == device) {
          info->platform_index = all[i].platform_index;
          info->device_index = all[i].device_index;
          break;
        }
      }
    }
    free(all);
  }
  ocf_error_clear();
  return OCF_SUCCESS;
}

ocf_status ocf_context_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                            ocf_context **ctx_out) {
  return ocf_context_wrap_ex(context, device, queue, NULL, ctx_out);
}

ocf_status ocf_context_wrap_ex(cl_context context, cl_device_id device, cl_command_queue queue,
                               const ocf_context_config *config, ocf_context **ctx_out) {
  ocf_error_clear();
  ocf_settings *settings = malloc(sizeof *settings);
  if (!settings) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "ocf_context_wrap: settings");
  int use_environment = 1;
  ocf_status status = resolve_settings("ocf_context_wrap", config, settings, &use_environment);
  if (status == OCF_SUCCESS) status = context_wrap(context, device, queue, settings, ctx_out);
  free(settings);
  return status;
}

static ocf_status context_wrap(cl_context context, cl_device_id device, cl_command_queue queue,
                               const ocf_settings *settings, ocf_context **ctx_out) {
  if (!ctx_out || !context || !device || !queue)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_wrap: %s is NULL",
                    !ctx_out   ? "ctx"
                    : !context ? "context"
                    : !device  ? "device"
                               : "queue");
  cl_context queue_context = NULL;
  cl_device_id queue_device = NULL;
  cl_command_queue_properties properties = 0;
  cl_int err =
      clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queue_device, &queue_device, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetCommandQueueInfo on the wrapped queue");
  if (queue_context != context || queue_device != device)
    return ocf_fail(OCF_ERR_CONTEXT_MISMATCH, "ocf_context_wrap: the queue belongs to another %s",
                    queue_context != context ? "context" : "device");

  ocf_device_info info;
  ocf_status status = describe_device(device, &info);
  if (status != OCF_SUCCESS) return status;
  ocf_log_sink early = early_sink(settings);
  ocf_log(&early, OCF_LOG_INFO, "wrapped device %s / %s%s", info.platform_name, info.device_name,
          properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE ? " (out-of-order queue)" : "");
  /* The context holds a reference to each object; a retain that fails undoes the ones before
     it, so that the caller's objects keep their counts. */
  if ((err = clRetainContext(context)) != CL_SUCCESS)
    return ocf_fail_cl(err, "clRetainContext on the wrapped context");
  if ((err = clRetainDevice(device)) != CL_SUCCESS) {
    clReleaseContext(context);
    return ocf_fail_cl(err, "clRetainDevice on the wrapped device");
  }
  if ((err = clRetainCommandQueue(queue)) != CL_SUCCESS) {
    clReleaseDevice(device);
    clReleaseContext(context);
    return ocf_fail_cl(err, "clRetainCommandQueue on the wrapped queue");
  }
  ocf_context *ctx = NULL;
  status = context_alloc(&info, settings, &ctx);
  if (status != OCF_SUCCESS) {
    clReleaseCommandQueue(queue);
    clReleaseDevice(device);
    clReleaseContext(context);
    return status;
  }
  ctx->cl_ctx = context;
  ctx->device = device;
  ctx->queue = queue;
  /* The pool relies on the queue's order (include/oclfuse.h, "Workspaces"). */
  ctx->pool.usable =
      settings->workspace_pool && !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  decide_buffer_registry(ctx);
  *ctx_out = ctx;
  return OCF_SUCCESS;
}

void ocf_context_release(ocf_context *ctx) {
  if (!ctx) return;
  /* Work the library enqueued may still reference cached kernels. */
  clFinish(ctx->queue);
  /* Storing binaries at release is cheap where a binary is intermediate code the driver already
     holds (GPUs: PTX, code objects), but a CPU runtime compiles every kernel of a program to
     hand one out (PoCL: seconds a program): there only a warm-up stores them, unless the
     policy is always (OCLFUSE_CACHE=always, OCF_PROGRAM_CACHE_ALWAYS). */
  if (ctx->settings.cache_policy == OCF_CACHE_ALWAYS ||
      (ctx->settings.cache_policy == OCF_CACHE_DEFAULT && !(ctx->info.type & CL_DEVICE_TYPE_CPU)))
    ocf_program_cache_persist(ctx);
  ocf_plan_cache_free(ctx->plan_cache);
  ocf_program_cache_release(ctx);
  ocf_workspace_pool_free(ctx);
  ocf_arrivals_free(ctx);
  clReleaseCommandQueue(ctx->queue);
  clReleaseDevice(ctx->device);
  clReleaseContext(ctx->cl_ctx);
  pthread_cond_destroy(&ctx->built);
  pthread_mutex_destroy(&ctx->probe_lock);
  pthread_mutex_destroy(&ctx->lock);
  pthread_mutex_destroy(&ctx->log_lock);
  free(ctx);
}

cl_context ocf_context_cl_context(const ocf_context *ctx) {
  return ctx ? ctx->cl_ctx : NULL;
}

cl_device_id ocf_context_device(const ocf_context *ctx) {
  return ctx ? ctx->device : NULL;
}

cl_command_queue ocf_context_queue(const ocf_context *ctx) {
  return ctx ? ctx->queue : NULL;
}

ocf_status ocf_context_device_info(const ocf_context *ctx, ocf_device_info *info) {
  ocf_error_clear();
  if (!ctx || !info)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_device_info: %s is NULL",
                    !ctx ? "ctx" : "info");
  ocf_status status = ocf_check_struct_size("ocf_context_device_info: info", info->size,
                                            OCF_DEVICE_INFO_FIRST_SIZE);
  if (status != OCF_SUCCESS) return status;
  ocf_device_info_copy_out(info, info->size, &ctx->info);
  return OCF_SUCCESS;
}

ocf_status ocf_context_set_log(ocf_context *ctx, int verbosity, ocf_log_fn log, void *log_user) {
  ocf_error_clear();
  if (!ctx) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_set_log: ctx is NULL");
  if (verbosity < OCF_VERBOSITY_QUIET || verbosity > OCF_LOG_DEBUG)
    return ocf_fail(OCF_ERR_INVALID_VALUE, "ocf_context_set_log: verbosity %d is out of range",
                    verbosity);
  const int level = verbosity == OCF_VERBOSITY_ENV     ? ctx->settings.env_verbosity
                    : verbosity == OCF_VERBOSITY_QUIET ? 0
                                                       : verbosity;
  pthread_mutex_lock(&ctx->log_lock);
  ctx->log.fn = log;
  ctx->log.user = log_user;
  __atomic_store_n(&ctx->log.level, level, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&ctx->log_lock);
  return OCF_SUCCESS;
}

const char *ocf_context_tuning_dir(const ocf_context *ctx) {
  return ctx ? ctx->settings.tuning_dir : "";
}

const char *ocf_context_cache_dir(const ocf_context *ctx) {
  return ctx && ctx->settings.cache_policy != OCF_CACHE_OFF ? ctx->settings.cache_dir : "";
}
