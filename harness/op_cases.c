/* The table of op cases (op_cases.h) and the plain call every generic part makes of an op. */
#include "op_cases.h"
#include "fill.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const ocft_op_case ocft_op_add, ocft_op_softmax, ocft_op_matmul, ocft_op_norm,
    ocft_op_attention;

/* The one list of ops, in the library's order (its tuning and warm-up names, kept equal to the
   library's by test_op_cases). A new op: its op_<name>.c, and a line here. */
static const ocft_op_case *const cases[] = {&ocft_op_add, &ocft_op_softmax, &ocft_op_matmul,
                                            &ocft_op_norm, &ocft_op_attention};

size_t ocft_op_count(void) {
  return sizeof cases / sizeof cases[0];
}

const ocft_op_case *ocft_op_at(size_t index) {
  return index < ocft_op_count() ? cases[index] : NULL;
}

int ocft_op_index(const char *name) {
  for (size_t i = 0; name && i < ocft_op_count(); i++)
    if (!strcmp(cases[i]->name, name)) return (int)i;
  return -1;
}

const ocft_op_case *ocft_op_find(const char *name) {
  int i = ocft_op_index(name);
  return i < 0 ? NULL : cases[i];
}

void ocft_op_names_text(const char *last_joint, char *out, size_t capacity) {
  size_t used = 0, count = ocft_op_count();
  out[0] = '\0';
  for (size_t i = 0; i < count && used < capacity; i++) {
    const char *joint = i == 0 ? "" : i + 1 == count ? last_joint : ", ";
    int w = snprintf(out + used, capacity - used, "%s%s", joint, cases[i]->name);
    used += w > 0 ? (size_t)w : 0;
  }
}

/* ---- the plain call ---- */

static float *alloc_floats(size_t count) {
  return malloc((count ? count : 1) * sizeof(float));
}

int ocft_call_make(ocft_call *call, const ocft_op_case *op, const size_t *d, uint64_t seed) {
  memset(call, 0, sizeof *call);
  call->op = op;
  for (int i = 0; i < op->ndims; i++)
    call->d[i] = d[i];
  call->extent = op->extent(call->d);
  for (int i = 0; i < OCFT_MAX_OPERANDS; i++) {
    if (!call->extent.in[i]) continue;
    call->in[i] = alloc_floats(call->extent.in[i]);
    if (!call->in[i]) return -1;
    ocft_fill_uniform(call->in[i], call->extent.in[i], -1.0f, 1.0f, seed + (uint64_t)i);
  }
  size_t out = call->extent.out ? call->extent.out : 1;
  call->got = alloc_floats(out);
  call->want = malloc(out * sizeof(double));
  call->tol = malloc(out * sizeof(double));
  if (!call->got || !call->want || !call->tol) return -1;
  for (size_t i = 0; i < call->extent.out; i++)
    call->got[i] = NAN;
  op->reference(call->d, (const float *const *)call->in, call->want, call->tol);
  return 0;
}

cl_int ocft_call_buffers(ocft_call *call, cl_context cl) {
  cl_int err = CL_SUCCESS;
  for (int i = 0; i < OCFT_MAX_OPERANDS && err == CL_SUCCESS; i++)
    if (call->extent.in[i] && !call->in_mem[i])
      call->in_mem[i] = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                       call->extent.in[i] * sizeof(float), call->in[i], &err);
  if (err == CL_SUCCESS && !call->out_mem)
    call->out_mem =
        clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       (call->extent.out ? call->extent.out : 1) * sizeof(float), call->got, &err);
  return err;
}

ocf_status ocft_call_device(ocft_call *call, ocf_context *ctx, const ocf_launch *launch) {
  return call->op->device(ctx, call->d, call->in_mem, call->out_mem, launch);
}

ocf_status ocft_call_host(ocft_call *call, ocf_context *ctx) {
  return call->op->host(ctx, call->d, (const float *const *)call->in, call->got);
}

cl_int ocft_call_read(ocft_call *call, cl_command_queue queue, cl_event after) {
  if (!call->extent.out) return CL_SUCCESS;
  return clEnqueueReadBuffer(queue, call->out_mem, CL_TRUE, 0, call->extent.out * sizeof(float),
                             call->got, after ? 1 : 0, after ? &after : NULL, NULL);
}

void ocft_call_check(const ocft_call *call, const ocf_device_info *device, ocft_check *check) {
  ocft_check_start(check);
  call->op->check(call->d, (const float *const *)call->in, call->want, call->tol, call->got, device,
                  check);
}

void ocft_call_free(ocft_call *call) {
  for (int i = 0; i < OCFT_MAX_OPERANDS; i++) {
    if (call->in_mem[i]) clReleaseMemObject(call->in_mem[i]);
    free(call->in[i]);
  }
  if (call->out_mem) clReleaseMemObject(call->out_mem);
  free(call->got);
  free(call->want);
  free(call->tol);
  memset(call, 0, sizeof *call);
}
