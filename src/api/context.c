/* Context creation (own or wrapped OpenCL objects) and release. */
#include "runtime/context.h"
#include "runtime/disk_cache.h"

#include <stdlib.h>
#include <string.h>

/* A context for a described device, its facts and tuning resolved; the OpenCL objects are the
   caller's to set. */
static ocf_status context_alloc(const ocf_device_info *info, ocf_context **out) {
  ocf_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a context");
  ctx->info = *info;
  ocf_device_facts_init(&ctx->facts, info);
  ctx->facts.nv_compiler_options =
      info->device && ocf_device_has_extension(info->device, "cl_nv_compiler_options");
  ocf_status status = ocf_context_tuning_init(ctx);
  if (status != OCF_SUCCESS) {
    free(ctx);
    return status;
  }
  if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's mutex");
  }
  if (pthread_cond_init(&ctx->built, NULL) != 0) {
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's condition");
  }
  if (pthread_mutex_init(&ctx->probe_lock, NULL) != 0) {
    pthread_cond_destroy(&ctx->built);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    return ocf_fail(OCF_ERR_OUT_OF_HOST_MEMORY, "cannot create the context's probe mutex");
  }
  *out = ctx;
  return OCF_SUCCESS;
}

ocf_status ocf_context_create(const char *spec, ocf_context **ctx_out) {
  ocf_error_clear();
  if (!ctx_out) return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_create: ctx is NULL");
  ocf_device_info info;
  ocf_status status = ocf_device_select_internal(spec, &info);
  if (status != OCF_SUCCESS) return status;

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
  status = context_alloc(&info, &ctx);
  if (status != OCF_SUCCESS) {
    clReleaseCommandQueue(queue);
    clReleaseContext(cl_ctx);
    return status;
  }
  ctx->cl_ctx = cl_ctx;
  ctx->device = info.device;
  ctx->queue = queue;
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
  ocf_error_clear();
  if (!ctx_out || !context || !device || !queue)
    return ocf_fail(OCF_ERR_NULL_ARGUMENT, "ocf_context_wrap: %s is NULL",
                    !ctx_out   ? "ctx"
                    : !context ? "context"
                    : !device  ? "device"
                               : "queue");
  cl_context queue_context = NULL;
  cl_device_id queue_device = NULL;
  cl_int err =
      clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context, &queue_context, NULL);
  if (err == CL_SUCCESS)
    err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queue_device, &queue_device, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetCommandQueueInfo on the wrapped queue");
  if (queue_context != context || queue_device != device)
    return ocf_fail(OCF_ERR_CONTEXT_MISMATCH, "ocf_context_wrap: the queue belongs to another %s",
                    queue_context != context ? "context" : "device");

  ocf_device_info info;
  ocf_status status = describe_device(device, &info);
  if (status != OCF_SUCCESS) return status;
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
  status = context_alloc(&info, &ctx);
  if (status != OCF_SUCCESS) {
    clReleaseCommandQueue(queue);
    clReleaseDevice(device);
    clReleaseContext(context);
    return status;
  }
  ctx->cl_ctx = context;
  ctx->device = device;
  ctx->queue = queue;
  *ctx_out = ctx;
  return OCF_SUCCESS;
}

void ocf_context_release(ocf_context *ctx) {
  if (!ctx) return;
  /* Work the library enqueued may still reference cached kernels. */
  clFinish(ctx->queue);
  /* Storing binaries at release is cheap where a binary is intermediate code the driver already
     holds (GPUs: PTX, code objects), but a CPU runtime compiles every kernel of a program to
     hand one out (PoCL: seconds a program): there only a warm-up stores them, unless
     OCLFUSE_CACHE=always. */
  if (ocf_disk_cache_policy() == OCF_CACHE_ALWAYS ||
      (ocf_disk_cache_policy() == OCF_CACHE_DEFAULT && !(ctx->info.type & CL_DEVICE_TYPE_CPU)))
    ocf_program_cache_persist(ctx);
  ocf_program_cache_release(ctx);
  clReleaseCommandQueue(ctx->queue);
  clReleaseDevice(ctx->device);
  clReleaseContext(ctx->cl_ctx);
  pthread_cond_destroy(&ctx->built);
  pthread_mutex_destroy(&ctx->probe_lock);
  pthread_mutex_destroy(&ctx->lock);
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
