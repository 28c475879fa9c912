/* Binding a kernel's arguments from an op's frame, by its descriptor. */
#include "runtime/buffer_registry.h"
#include "runtime/program_cache.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The first time: the kernel's argument count, and its argument names where the runtime reports
   them (the program is built with -cl-kernel-arg-info; a runtime may still decline), must be the
   descriptor's. */
/* `registered` has a bit per argument. */
_Static_assert(OCF_KERNEL_ARGS_MAX <= 64, "ocf_built_kernel.registered holds 64 bits");

static ocf_status check_arguments(const ocf_built_kernel *kernel) {
  const ocf_kernel_desc *desc = kernel->desc;
  if (desc->arg_count > OCF_KERNEL_ARGS_MAX)
    return ocf_fail(OCF_ERR_INVALID_VALUE,
                    "kernel %s takes %u arguments, more than OCF_KERNEL_ARGS_MAX (a bug)",
                    desc->name, desc->arg_count);
  for (cl_uint i = 0; i < desc->arg_count; i++)
    if (desc->args[i].offset + ocf_arg_kind_size(desc->args[i].kind) > OCF_FRAME_MAX)
      return ocf_fail(OCF_ERR_INVALID_VALUE,
                      "kernel %s: argument %s lies past a frame's size (a bug)", desc->name,
                      desc->args[i].name);
  cl_uint count = 0;
  cl_int err = clGetKernelInfo(kernel->kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL);
  if (err != CL_SUCCESS) return ocf_fail_cl(err, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
  if (count != desc->arg_count)
    return ocf_fail(OCF_ERR_KERNEL_MISMATCH,
                    "kernel %s takes %u arguments but its descriptor lists %u (a library bug)",
                    desc->name, (unsigned)count, desc->arg_count);
  for (cl_uint i = 0; i < count; i++) {
    char name[64];
    err = clGetKernelArgInfo(kernel->kernel, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
    if (err != CL_SUCCESS) break; /* not reported (CL_KERNEL_ARG_INFO_NOT_AVAILABLE, ...) */
    name[sizeof name - 1] = '\0';
    if (strcmp(name, desc->args[i].name) != 0)
      return ocf_fail(OCF_ERR_KERNEL_MISMATCH,
                      "kernel %s's argument %u is \"%s\" but its descriptor says \"%s\" (a "
                      "library bug)",
                      desc->name, (unsigned)i, name, desc->args[i].name);
  }
  return OCF_SUCCESS;
}

ocf_status ocf_bind_arguments(ocf_built_kernel *kernel, const void *frame) {
  if (!kernel->arguments_checked) {
    ocf_status status = check_arguments(kernel);
    if (status != OCF_SUCCESS) return status;
    kernel->arguments_checked = 1;
  }
  const ocf_kernel_desc *desc = kernel->desc;
  const unsigned char *bytes = frame;
  const int bound = kernel->bound;
  kernel->bound = 0; /* till every argument is set */
  /* Read before any argument is set: a registered buffer destroyed from now on raises it. */
  const unsigned long long epoch = ocf_buffer_registry_epoch();
  const int none_destroyed = bound && kernel->epoch == epoch;
  for (cl_uint i = 0; i < desc->arg_count; i++) {
    const ocf_arg_desc *arg = &desc->args[i];
    const size_t size = ocf_arg_kind_size(arg->kind);
    const unsigned char *value = bytes + arg->offset;
    ocf_arg_value *held = &kernel->held[i];
    const uint64_t bit = (uint64_t)1 << i;
    /* A scalar of the bytes the kernel holds is not set again, nor a NULL buffer where the
       kernel holds NULL (no buffer can come back under that handle), nor the buffer it holds
       when that buffer was registered when set and no registered buffer has been destroyed
       since (its handle names the same buffer); any other buffer is. */
    cl_mem buffer = NULL;
    if (arg->kind == OCF_ARG_BUFFER) memcpy(&buffer, value, sizeof buffer);
    if (bound && memcmp(held, value, size) == 0 &&
        (arg->kind != OCF_ARG_BUFFER || !buffer || (none_destroyed && (kernel->registered & bit))))
      continue;
    cl_int err = clSetKernelArg(kernel->kernel, i, size, value);
    if (err != CL_SUCCESS) {
      char what[96];
      snprintf(what, sizeof what, "clSetKernelArg(%s, %u: %s)", desc->name, (unsigned)i, arg->name);
      return ocf_fail_cl(err, what);
    }
    memcpy(held, value, size);
    if (buffer && ocf_buffer_registry_holds(buffer))
      kernel->registered |= bit;
    else
      kernel->registered &= ~bit;
  }
  kernel->epoch = epoch;
  kernel->bound = 1;
  return OCF_SUCCESS;
}
