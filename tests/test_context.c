/*
 * Statuses, device listing and selection (and the size member of ocf_device_info), context
 * create/wrap/release, the program cache, a forced build failure (clBuildProgram wrapped at link
 * time: -Wl,--wrap=clBuildProgram), the kernel binder's refusal of a kernel that does not match
 * its descriptor (the internal ocf_bind_arguments), and calls from several threads on one context.
 */
#include "reference.h"
#include "runtime/context.h"
#include "test_common.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- clBuildProgram, wrapped: counts builds and, when armed, makes the next one fail for real
   (a broken -D option breaks the kernel source, so the log is the compiler's own). ---- */

cl_int __real_clBuildProgram(cl_program, cl_uint, const cl_device_id *, const char *,
                             void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int __wrap_clBuildProgram(cl_program program, cl_uint count, const cl_device_id *devices,
                             const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user);

static int build_count;
static int break_next_build;

cl_int __wrap_clBuildProgram(cl_program program, cl_uint count, const cl_device_id *devices,
                             const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user) {
  build_count++;
  if (!break_next_build)
    return __real_clBuildProgram(program, count, devices, options, notify, user);
  break_next_build = 0;
  char broken[512];
  snprintf(broken, sizeof broken, "%s -DWG=(", options ? options : "");
  return __real_clBuildProgram(program, count, devices, broken, notify, user);
}

static void test_context_status_names(void **state) {
  (void)state;
#define CHECK_STATUS_(name, value, message)          \
  assert_string_equal(ocf_status_name(name), #name); \
  assert_string_equal(ocf_status_message(name), message);
  OCF_STATUS_LIST(CHECK_STATUS_)
#undef CHECK_STATUS_
  /* OpenCL's codes pass through with their own names. */
  assert_string_equal(ocf_status_name((ocf_status)CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
  assert_string_equal(ocf_status_name((ocf_status)CL_INVALID_MEM_OBJECT), "CL_INVALID_MEM_OBJECT");
  assert_string_equal(ocf_status_name((ocf_status)-12345), "OCF_UNKNOWN_STATUS");
  assert_string_equal(ocf_status_message((ocf_status)-12345), "unknown status code");
  assert_int_equal(ocf_version_number(), OCF_VERSION_NUMBER);
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.%d", OCF_VERSION_MAJOR, OCF_VERSION_MINOR,
           OCF_VERSION_PATCH);
  assert_string_equal(ocf_version_string(), expected);
}

static void test_context_device_listing(void **state) {
  ocft_env *env = ocft_get_env(state);
  size_t count = 0;
  ocft_assert_status(ocf_devices_list(NULL, 0, &count), OCF_SUCCESS);
  assert_true(count >= 1);
  ocf_device_info *all = calloc(count, sizeof *all);
  for (size_t i = 0; all && i < count; i++)
    ocf_device_info_init(&all[i]);
  assert_non_null(all);
  size_t again = 0;
  ocft_assert_status(ocf_devices_list(all, count, &again), OCF_SUCCESS);
  assert_int_equal(again, count);
  int found = 0;
  for (size_t i = 0; i < count; i++) {
    assert_true(all[i].device_name[0] != '\0');
    assert_true(all[i].max_workgroup_size >= 1);
    found |= all[i].device == env->device;
  }
  assert_true(found);
  ocft_assert_status(ocf_devices_list(NULL, 0, NULL), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_devices_list(NULL, 3, &again), OCF_ERR_NULL_ARGUMENT);

  /* Selection by indices and by a case-flipped name substring finds the same device. */
  ocf_device_info picked;
  ocf_device_info_init(&picked);
  char spec[32];
  snprintf(spec, sizeof spec, "%u:%u", all[0].platform_index, all[0].device_index);
  ocft_assert_status(ocf_device_select(spec, &picked), OCF_SUCCESS);
  assert_ptr_equal(picked.device, all[0].device);
  char name[128];
  snprintf(name, sizeof name, "%s", all[0].device_name);
  for (char *c = name; *c; c++)
    *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
  ocft_assert_status(ocf_device_select(name, &picked), OCF_SUCCESS);
  assert_string_equal(picked.device_name, all[0].device_name);
  free(all);

  ocft_assert_status(ocf_device_select("99:0", &picked), OCF_ERR_NO_DEVICE);
  ocft_assert_status(ocf_device_select("no such device anywhere", &picked), OCF_ERR_NO_DEVICE);
  /* Index specs with a sign are malformed too, not names that match nothing. */
  const char *malformed[] = {"0:",   ":0",   "1:2:3", "0 : x1",  "99999999999:0",
                             "-1:0", "0:-1", "+1:0",  " - 1 : 0"};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(malformed); i++) {
    ocf_status status = ocf_device_select(malformed[i], &picked);
    /* "0 : x1" has a letter: it is a name, which matches nothing. */
    ocft_assert_status(status,
                       strchr(malformed[i], 'x') ? OCF_ERR_NO_DEVICE : OCF_ERR_INVALID_SPEC);
    assert_true(strstr(ocf_last_error(), malformed[i]) != NULL);
  }
  ocft_assert_status(ocf_device_select(NULL, NULL), OCF_ERR_NULL_ARGUMENT);
}

/* ---- the size member of ocf_device_info: too small is refused, larger is a newer caller's ---- */

/* Room for an ocf_device_info and what a newer header might have added after it. */
enum { NEWER_EXTRA = 24, SENTINEL = 0xA5 };
typedef union info_space {
  ocf_device_info info;
  unsigned char bytes[sizeof(ocf_device_info) + NEWER_EXTRA];
} info_space;

/* Whether bytes [from, to) of `bytes` all still hold the sentinel. */
static int untouched(const unsigned char *bytes, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (bytes[i] != SENTINEL) return 0;
  return 1;
}

/* One of the three calls that fill an ocf_device_info, on the group's device. */
typedef enum info_call { BY_SELECT, BY_CONTEXT, BY_LIST } info_call;

static ocf_status fill_info(const ocft_env *env, info_call call, ocf_device_info *info) {
  char spec[32];
  size_t count = 0;
  switch (call) {
  case BY_SELECT:
    snprintf(spec, sizeof spec, "%u:%u", env->info.platform_index, env->info.device_index);
    return ocf_device_select(spec, info);
  case BY_CONTEXT:
    return ocf_context_device_info(env->ctx, info);
  case BY_LIST:
    break;
  }
  return ocf_devices_list(info, 1, &count);
}

/* Each call refuses a size member of 0 or one byte short of the first version, touching nothing,
   and fills exactly `size` bytes of a struct of the first version's size or larger. */
static void test_context_device_info_size(void **state) {
  ocft_env *env = ocft_get_env(state);
  const size_t bad_sizes[] = {0, OCF_DEVICE_INFO_FIRST_SIZE - 1};
  const size_t good_sizes[] = {OCF_DEVICE_INFO_FIRST_SIZE, sizeof(ocf_device_info),
                               sizeof(ocf_device_info) + NEWER_EXTRA};
  const char *names[] = {"ocf_device_select", "ocf_context_device_info", "ocf_devices_list"};
  for (int call = BY_SELECT; call <= BY_LIST; call++) {
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(bad_sizes); i++) {
      info_space space;
      memset(&space, SENTINEL, sizeof space);
      space.info.size = bad_sizes[i];
      ocft_assert_status(fill_info(env, (info_call)call, &space.info), OCF_ERR_INVALID_STRUCT);
      assert_true(strstr(ocf_last_error(), "size") != NULL);
      assert_int_equal(space.info.size, bad_sizes[i]);
      if (!untouched(space.bytes, sizeof space.info.size, sizeof space)) {
        print_error("%s with size %zu wrote into the struct it refused\n", names[call],
                    bad_sizes[i]);
        fail();
      }
    }
    for (size_t i = 0; i < OCF_ARRAY_LEN_T(good_sizes); i++) {
      info_space space;
      memset(&space, SENTINEL, sizeof space);
      space.info.size = good_sizes[i];
      ocft_assert_status(fill_info(env, (info_call)call, &space.info), OCF_SUCCESS);
      assert_int_equal(space.info.size, good_sizes[i]);
      /* The list's first entry is the test device only when that is the first device. */
      if (call != BY_LIST || (env->info.platform_index == 0 && env->info.device_index == 0))
        assert_string_equal(space.info.device_name, env->info.device_name);
      if (call != BY_LIST) assert_ptr_equal(space.info.device, env->device);
      if (!untouched(space.bytes,
                     good_sizes[i] < sizeof space.info ? good_sizes[i] : sizeof space.info,
                     sizeof space)) {
        print_error("%s with size %zu wrote past the caller's struct\n", names[call],
                    good_sizes[i]);
        fail();
      }
    }
  }
}

/* ocf_devices_list spaces its entries by devices[0].size: a newer caller's larger elements get
   every member this library knows, their own size, and nothing else; entries past the capacity
   and the count on a refusal are left alone. */
static void test_context_device_list_stride(void **state) {
  ocft_get_env(state);
  size_t count = 0;
  ocft_assert_status(ocf_devices_list(NULL, 0, &count), OCF_SUCCESS);
  assert_true(count >= 1);
  const size_t stride = sizeof(ocf_device_info) + NEWER_EXTRA;
  /* One spare element after the capacity; ocf_device_info's alignment holds for the stride. */
  size_t bytes = (count + 1) * stride;
  ocf_device_info *all = malloc(bytes);
  assert_non_null(all);
  unsigned char *raw = (unsigned char *)all;
  const size_t capacities[] = {1, count};
  for (size_t c = 0; c < OCF_ARRAY_LEN_T(capacities); c++) {
    const size_t capacity = capacities[c];
    memset(raw, SENTINEL, bytes);
    all->size = stride;
    size_t listed = 0;
    ocft_assert_status(ocf_devices_list(all, capacity, &listed), OCF_SUCCESS);
    assert_int_equal(listed, count);
    for (size_t d = 0; d < capacity; d++) {
      const ocf_device_info *entry = (const ocf_device_info *)(raw + d * stride);
      assert_int_equal(entry->size, stride);
      assert_true(entry->device_name[0] != '\0' && entry->max_workgroup_size >= 1);
      assert_true(untouched(raw, d * stride + sizeof(ocf_device_info), (d + 1) * stride));
    }
    assert_true(untouched(raw, capacity * stride, bytes));
  }
  memset(raw, SENTINEL, bytes);
  all->size = 0;
  size_t listed = 12345;
  ocft_assert_status(ocf_devices_list(all, count, &listed), OCF_ERR_INVALID_STRUCT);
  assert_int_equal(listed, 12345);
  assert_true(untouched(raw, sizeof all->size, bytes));
  free(all);
}

static void test_context_environment_spec(void **state) {
  ocft_get_env(state);
  const char *saved = getenv("OCLFUSE_DEVICE");
  char *copy = saved ? strdup(saved) : NULL;
  ocf_context *ctx = NULL;
  setenv("OCLFUSE_DEVICE", "no such device anywhere", 1);
  ocft_assert_status(ocf_context_create(NULL, &ctx), OCF_ERR_NO_DEVICE);
  assert_null(ctx);
  assert_true(strstr(ocf_last_error(), "OCLFUSE_DEVICE") != NULL);
  /* An explicit spec wins over the environment. */
  ocft_assert_status(ocf_context_create("0:0", &ctx), OCF_SUCCESS);
  ocf_context_release(ctx);
  if (copy)
    setenv("OCLFUSE_DEVICE", copy, 1);
  else
    unsetenv("OCLFUSE_DEVICE");
  free(copy);
  ocft_assert_status(ocf_context_create(NULL, NULL), OCF_ERR_NULL_ARGUMENT);
  ocf_context_release(NULL); /* accepted, does nothing */
  assert_null(ocf_context_queue(NULL));
}

/* With no spec and no OCLFUSE_DEVICE, the default rule: the first GPU in the listed order, else
   the first device. The order is the ICD loader's: ocl-icd puts platforms with more GPUs, then
   more CPUs first, and keeps the vendors directory's order between equals, so two CPU platforms
   (PoCL, and rusticl with RUSTICL_ENABLE set) come in an order no one chose; CI names rusticl's
   device rather than relying on it. */
static void test_context_default_device(void **state) {
  ocft_get_env(state);
  const char *saved = getenv("OCLFUSE_DEVICE");
  char *copy = saved ? strdup(saved) : NULL;
  unsetenv("OCLFUSE_DEVICE");
  size_t count = 0;
  ocft_assert_status(ocf_devices_list(NULL, 0, &count), OCF_SUCCESS);
  assert_true(count >= 1);
  ocf_device_info *all = calloc(count, sizeof *all);
  assert_non_null(all);
  for (size_t i = 0; i < count; i++)
    ocf_device_info_init(&all[i]);
  ocft_assert_status(ocf_devices_list(all, count, &count), OCF_SUCCESS);
  const ocf_device_info *expected = NULL;
  for (size_t i = 0; i < count && !expected; i++)
    if (all[i].type & CL_DEVICE_TYPE_GPU) expected = &all[i];
  if (!expected) expected = &all[0];

  ocf_device_info picked;
  ocf_device_info_init(&picked);
  ocft_assert_status(ocf_device_select(NULL, &picked), OCF_SUCCESS);
  assert_ptr_equal(picked.device, expected->device);
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_create(NULL, &ctx), OCF_SUCCESS);
  assert_ptr_equal(ocf_context_device(ctx), expected->device);
  ocf_context_release(ctx);
  free(all);
  if (copy) setenv("OCLFUSE_DEVICE", copy, 1);
  free(copy);
}

/* A wrapped context runs on the caller's objects and keeps them alive after the caller lets go. */
static void test_context_wrap(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_int err = CL_SUCCESS;
  cl_context mine = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueue(mine, env->device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue foreign = clCreateCommandQueue(env->cl, env->device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);

  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_wrap(NULL, env->device, queue, &ctx), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_context_wrap(mine, NULL, queue, &ctx), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_context_wrap(mine, env->device, NULL, &ctx), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_context_wrap(mine, env->device, foreign, &ctx), OCF_ERR_CONTEXT_MISMATCH);
  assert_null(ctx);
  ocft_assert_status(ocf_context_wrap(mine, env->device, queue, &ctx), OCF_SUCCESS);
  assert_ptr_equal(ocf_context_cl_context(ctx), mine);
  assert_ptr_equal(ocf_context_queue(ctx), queue);
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocft_assert_status(ocf_context_device_info(ctx, &info), OCF_SUCCESS);
  assert_string_equal(info.device_name, env->info.device_name);

  /* The caller drops its references: the wrapped context still works. */
  clReleaseCommandQueue(queue);
  clReleaseContext(mine);
  enum { N = 1001 };
  float x[N], got[N];
  double want[N], zero[N] = {0};
  ocft_fill_uniform(x, N, -1.0f, 1.0f, 3);
  ocft_assert_status(ocf_add_host(ctx, N, x, x, got), OCF_SUCCESS);
  ocf_ref_add(N, x, x, want);
  ocft_assert_close("add on a wrapped context", got, want, zero, N);
  ocf_context_release(ctx);
  clReleaseCommandQueue(foreign);
}

/* The host forms on a wrapped out-of-order queue (the header allows one): the read-back waits
   for the call's kernels. Before it did, PoCL ran the read of a 1 x 20000 softmax before its
   kernel in 18 of 20 runs (rows summing to -2.7e24) and a 64 x 64 x 1024 product's with an
   error of 6e20. (test_faults_out_of_order_queue checks the order of every call's commands
   through the wrappers, however the runtime schedules them.) */
static void test_context_out_of_order_host_forms(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_int err = CL_SUCCESS;
  cl_command_queue queue =
      clCreateCommandQueue(env->cl, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (err != CL_SUCCESS) skip();
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_wrap(env->cl, env->device, queue, &ctx), OCF_SUCCESS);
  const size_t cols = ocft_small() ? 2000 : 20000, m = 64, n = 64, k = ocft_small() ? 128 : 1024;
  float *in = ocft_alloc_floats(cols), *out = ocft_alloc_floats(cols);
  float *a = ocft_alloc_floats(m * k), *b = ocft_alloc_floats(k * n), *c = ocft_alloc_floats(m * n);
  float *c0 = ocft_alloc_floats(m * n);
  double *want = ocft_alloc_doubles(cols > m * n ? cols : m * n), *tol = ocft_alloc_doubles(m * n);
  ocft_fill_uniform(in, cols, -8.0f, 8.0f, 41);
  ocft_fill_uniform(a, m * k, -1.0f, 1.0f, 42);
  ocft_fill_uniform(b, k * n, -1.0f, 1.0f, 43);
  ocft_fill_uniform(c0, m * n, -1.0f, 1.0f, 44);
  for (int run = 0; run < (ocft_small() ? 1 : 3); run++) {
    ocft_assert_status(ocf_softmax_host(ctx, 1, cols, in, cols, out, cols), OCF_SUCCESS);
    ocf_ref_softmax(1, cols, in, cols, want);
    ocft_check check;
    ocft_check_start(&check);
    ocft_check_softmax(1, cols, in, cols, want, out, cols, 0, &env->info, &check);
    ocft_assert_check("softmax_host on an out-of-order queue", &check);
    memcpy(c, c0, m * n * sizeof *c);
    ocft_assert_status(
        ocf_matmul_host(ctx, OCF_NO_TRANS, OCF_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.5f, c, n),
        OCF_SUCCESS);
    ocf_ref_matmul(0, 0, m, n, k, 1.0f, a, k, b, n, 0.5f, c0, n, want);
    ocft_matmul_tolerance(0, 0, m, n, k, 1.0f, a, k, b, n, 0.5f, c0, n, tol);
    ocft_assert_close("matmul_host on an out-of-order queue", c, want, tol, m * n);
  }
  ocf_context_release(ctx);
  clReleaseCommandQueue(queue);
  free(in), free(out), free(a), free(b), free(c), free(c0), free(want), free(tol);
}

/* The exact edge of every size the checks refuse, from both sides: the largest accepted and the
   smallest refused. A refusal one off (> for >=) goes unnoticed by tests that stay far from the
   edge; these do not. */
static void test_context_validation_edges(void **state) {
  ocft_env *env = ocft_get_env(state);
  size_t extent = 0;
  const size_t limit = SIZE_MAX / sizeof(float); /* the most floats size_t bytes count */
  /* One row: cols up to the limit. */
  ocft_assert_status(ocf_matrix_extent("edge", 1, limit, limit, sizeof(float), &extent),
                     OCF_SUCCESS);
  assert_true(extent == limit);
  ocft_assert_status(ocf_matrix_extent("edge", 1, limit + 1, limit + 1, sizeof(float), &extent),
                     OCF_ERR_SIZE_OVERFLOW);
  /* rows of stride 1000: (rows - 1) * 1000 + cols up to the limit, exactly. */
  const size_t ld = 1000, rows = (limit - 7) / ld + 1, cols = limit - (rows - 1) * ld;
  ocft_assert_status(ocf_matrix_extent("edge", rows, cols, ld, sizeof(float), &extent),
                     OCF_SUCCESS);
  assert_true(extent == limit);
  ocft_assert_status(ocf_matrix_extent("edge", rows + 1, cols, ld, sizeof(float), &extent),
                     OCF_ERR_SIZE_OVERFLOW);
  if (cols < ld)
    ocft_assert_status(ocf_matrix_extent("edge", rows, cols + 1, ld, sizeof(float), &extent),
                       OCF_ERR_SIZE_OVERFLOW);
  /* A stride equal to its row is legal, one shorter is not. */
  ocft_assert_status(ocf_matrix_extent("edge", 3, 5, 5, 4, &extent), OCF_SUCCESS);
  assert_true(extent == 15);
  ocft_assert_status(ocf_matrix_extent("edge", 3, 5, 4, 4, &extent), OCF_ERR_INVALID_STRIDE);
  /* Struct sizes: the first version's size is accepted, one byte less refused. */
  ocft_assert_status(ocf_check_struct_size("edge", 40, 40), OCF_SUCCESS);
  ocft_assert_status(ocf_check_struct_size("edge", 39, 40), OCF_ERR_INVALID_STRUCT);

  enum { N = 64 };
  float data[N];
  ocft_fill_uniform(data, N, -1.0f, 1.0f, 51);
  cl_mem x = ocft_buffer(env, N, data), out = ocft_buffer(env, N, data);
  /* A buffer of N floats: offset + n up to N, at either end; n = 0 at offset N is empty work
     within the buffer, at N + 1 beyond it. */
  ocft_assert_status(ocf_add(env->ctx, N, x, 0, x, 0, out, 0, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_add(env->ctx, N - 3, x, 3, x, 3, out, 3, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_add(env->ctx, N - 2, x, 3, x, 0, out, 0, NULL), OCF_ERR_BUFFER_TOO_SMALL);
  ocft_assert_status(ocf_add(env->ctx, 0, x, N, x, N, out, N, NULL), OCF_SUCCESS);
  ocft_assert_status(ocf_add(env->ctx, 0, x, N + 1, x, 0, out, 0, NULL), OCF_ERR_BUFFER_TOO_SMALL);

  /* The options' first published sizes (0.2): accepted, one byte less refused. */
  ocf_softmax_options so = OCF_SOFTMAX_OPTIONS_INIT;
  so.size = offsetof(ocf_softmax_options, lengths_offset) + sizeof(size_t);
  ocft_assert_status(ocf_softmax_ex(env->ctx, 4, 8, x, 0, 8, out, 32, 8, &so, NULL), OCF_SUCCESS);
  so.size--;
  ocft_assert_status(ocf_softmax_ex(env->ctx, 4, 8, x, 0, 8, out, 32, 8, &so, NULL),
                     OCF_ERR_INVALID_STRUCT);
  ocf_matmul_options mo = OCF_MATMUL_OPTIONS_INIT;
  mo.size = offsetof(ocf_matmul_options, bias_dtype) + sizeof(ocf_dtype);
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 4, 4, 4, 1.0f, x, 0, 4, x,
                                   16, 4, 0.0f, out, 0, 4, &mo, NULL),
                     OCF_SUCCESS);
  mo.size--;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 4, 4, 4, 1.0f, x, 0, 4, x,
                                   16, 4, 0.0f, out, 0, 4, &mo, NULL),
                     OCF_ERR_INVALID_STRUCT);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.size = offsetof(ocf_launch, first_event) + sizeof(cl_event *);
  ocft_assert_status(ocf_add(env->ctx, N, x, 0, x, 0, out, 0, &launch), OCF_SUCCESS);
  launch.size--;
  ocft_assert_status(ocf_add(env->ctx, N, x, 0, x, 0, out, 0, &launch), OCF_ERR_INVALID_STRUCT);

  /* A batch's span: (batch - 1) * stride + extent floats up to the limit is addressable (and
     then too large for the buffer), one float more overflows. A 4 x 4 A spans 16. */
  mo = (ocf_matmul_options)OCF_MATMUL_OPTIONS_INIT;
  mo.batch = 2;
  mo.stride_b = mo.stride_c = 16;
  mo.stride_a = limit - 16;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 4, 4, 4, 1.0f, x, 0, 4, x,
                                   0, 4, 0.0f, out, 0, 4, &mo, NULL),
                     OCF_ERR_BUFFER_TOO_SMALL);
  mo.stride_a = limit - 15;
  ocft_assert_status(ocf_matmul_ex(env->ctx, OCF_NO_TRANS, OCF_NO_TRANS, 4, 4, 4, 1.0f, x, 0, 4, x,
                                   0, 4, 0.0f, out, 0, 4, &mo, NULL),
                     OCF_ERR_SIZE_OVERFLOW);
  assert_int_equal(clFinish(env->queue), CL_SUCCESS);
  clReleaseMemObject(x);
  clReleaseMemObject(out);
}

/* A program is built once per option set; a failed build says so, with the compiler's log. */
static void test_context_program_cache_and_build_failure(void **state) {
  ocft_get_env(state);
  /* The in-memory cache is what this test counts: binaries from the disk cache of an earlier
     run would turn a forced build failure into a refused binary and a rebuild. */
  setenv("OCLFUSE_CACHE", "0", 1);
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &ctx), OCF_SUCCESS);
  enum { N = 100 };
  float x[N], got[N];
  ocft_fill_uniform(x, N, -1.0f, 1.0f, 4);
  build_count = 0;
  ocft_assert_status(ocf_add_host(ctx, N, x, x, got), OCF_SUCCESS);
  /* One build, or two where the built kernel allows fewer work-items than the tuned default
     (rusticl's 32 against the CPU row's 64): the plan is made again under the kernel's limit,
     once, and the context remembers it, so the next call builds nothing. */
  assert_in_range(build_count, 1, 2);
  const int first_call_builds = build_count;
  ocft_assert_status(ocf_add_host(ctx, N, x, x, got), OCF_SUCCESS);
  assert_int_equal(build_count, first_call_builds);

  /* Another workgroup size is another option set: one more build, then cached too. */
  cl_mem xb = ocft_buffer(
      &(ocft_env){.ctx = ctx, .cl = ocf_context_cl_context(ctx), .queue = ocf_context_queue(ctx)},
      N, x);
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workgroup_size = 8;
  ocft_assert_status(ocf_add(ctx, N, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  ocft_assert_status(ocf_add(ctx, N, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  assert_int_equal(build_count, first_call_builds + 1);

  /* A forced failure: the status, the options and the build log reach the caller; nothing runs. */
  float before[N], after[N];
  clFinish(ocf_context_queue(ctx));
  assert_int_equal(clEnqueueReadBuffer(ocf_context_queue(ctx), xb, CL_TRUE, 0, sizeof before,
                                       before, 0, NULL, NULL),
                   CL_SUCCESS);
  launch.workgroup_size = 16;
  break_next_build = 1;
  ocft_assert_status(ocf_add(ctx, N, xb, 0, xb, 0, xb, 0, &launch), OCF_ERR_BUILD_FAILED);
  assert_true(strstr(ocf_last_error(), "program add ") != NULL);
  assert_true(strstr(ocf_last_error(), "build log") != NULL);
  assert_int_equal(clEnqueueReadBuffer(ocf_context_queue(ctx), xb, CL_TRUE, 0, sizeof after, after,
                                       0, NULL, NULL),
                   CL_SUCCESS);
  ocft_assert_unchanged("add after a failed build", after, before, N);
  /* The failure is not cached: the next call builds again and succeeds. */
  ocft_assert_status(ocf_add(ctx, N, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  assert_string_equal(ocf_last_error(), "");
  clReleaseMemObject(xb);
  ocf_context_release(ctx);
  unsetenv("OCLFUSE_CACHE");
}

/* ---- the kernel binder refuses a kernel that does not match its descriptor ---- */

/* A kernel of the test's own, and the frame its descriptors read the arguments from. */
static const char probe_source[] = "__kernel void probe(__global float *data, const ulong n) {\n"
                                   "  if (get_global_id(0) < n) data[get_global_id(0)] = 1.0f;\n"
                                   "}\n";

typedef struct probe_frame {
  cl_mem data;
  cl_ulong n;
} probe_frame;

static const char *const probe_defines[] = {NULL};
/* probe's two arguments, and a third that it does not take. */
static const ocf_arg_desc probe_args[] = {OCF_ARG(probe_frame, data, OCF_ARG_BUFFER),
                                          OCF_ARG(probe_frame, n, OCF_ARG_ULONG),
                                          {"extra", OCF_ARG_ULONG, offsetof(probe_frame, n)}};
static const ocf_arg_desc renamed_args[] = {OCF_ARG(probe_frame, data, OCF_ARG_BUFFER),
                                            {"count", OCF_ARG_ULONG, offsetof(probe_frame, n)}};

/* A descriptor of probe with the first `count` of `args`. */
static ocf_kernel_desc probe_desc(const ocf_arg_desc *args, unsigned count) {
  ocf_kernel_desc desc = {OCF_KERNEL_ADD_GENERAL, "probe", OCF_PROGRAM_ADD,
                          probe_defines,          args,    count,
                          "a test's own kernel"};
  return desc;
}

/* A count that differs (fewer or more arguments than the kernel takes) and a name that differs
   are OCF_ERR_KERNEL_MISMATCH, and the kernel stays unchecked; the right descriptor binds, and
   the kernel then runs with its arguments where the frame put them. */
static void test_context_kernel_mismatch(void **state) {
  ocft_env *env = ocft_get_env(state);
  cl_int err = CL_SUCCESS;
  const char *source = probe_source;
  cl_program program = clCreateProgramWithSource(env->cl, 1, &source, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clBuildProgram(program, 1, &env->device, "-cl-kernel-arg-info", NULL, NULL),
                   CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "probe", &err);
  assert_int_equal(err, CL_SUCCESS);
  enum { N = 8 };
  float got[N];
  cl_mem data = ocft_buffer(env, N, NULL);
  probe_frame frame = {data, N};

  const struct {
    const char *what;
    const ocf_arg_desc *args;
    unsigned count;
  } wrong[] = {{"one argument fewer", probe_args, 1},
               {"one argument more", probe_args, 3},
               {"an argument renamed", renamed_args, 2}};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(wrong); i++) {
    ocf_kernel_desc desc = probe_desc(wrong[i].args, wrong[i].count);
    ocf_built_kernel built = {kernel, &desc, 0, 0, 0, 0, {{0}}, 0, 0};
    if (wrong[i].args == renamed_args) {
      char name[16];
      if (clGetKernelArgInfo(kernel, 1, CL_KERNEL_ARG_NAME, sizeof name, name, NULL) !=
          CL_SUCCESS) {
        print_message("this OpenCL runtime does not report argument names: %s not checked\n",
                      wrong[i].what);
        continue;
      }
    }
    ocf_error_clear(); /* an internal call: it leaves the last-error text to its caller */
    ocf_status status = ocf_bind_arguments(&built, &frame);
    if (status != OCF_ERR_KERNEL_MISMATCH) print_error("%s:\n", wrong[i].what);
    ocft_assert_status(status, OCF_ERR_KERNEL_MISMATCH);
    assert_true(strstr(ocf_last_error(), "probe") != NULL);
    assert_int_equal(built.arguments_checked, 0);
  }

  ocf_kernel_desc desc = probe_desc(probe_args, 2);
  ocf_built_kernel built = {kernel, &desc, 0, 0, 0, 0, {{0}}, 0, 0};
  ocft_assert_status(ocf_bind_arguments(&built, &frame), OCF_SUCCESS);
  assert_int_equal(built.arguments_checked, 1);
  size_t global = N;
  assert_int_equal(
      clEnqueueNDRangeKernel(env->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
      CL_SUCCESS);
  ocft_read(env, data, N, got);
  for (size_t i = 0; i < N; i++)
    assert_true(got[i] == 1.0f);
  clReleaseMemObject(data);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

/* ---- several threads on one context ---- */

typedef struct worker {
  ocf_context *ctx;
  unsigned seed;
  int failures;
} worker;

static void *worker_run(void *arg) {
  worker *w = arg;
  enum { N = 4099, ROUNDS = 20 };
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *got = malloc(N * sizeof *got);
  double *want = malloc(N * sizeof *want);
  if (!x || !y || !got || !want) {
    w->failures++;
  } else {
    for (int round = 0; round < ROUNDS; round++) {
      ocft_fill_uniform(x, N, -5.0f, 5.0f, w->seed * 100 + round);
      ocft_fill_uniform(y, N, -5.0f, 5.0f, w->seed * 100 + round + 50);
      ocf_ref_add(N, x, y, want);
      if (ocf_add_host(w->ctx, N, x, y, got) != OCF_SUCCESS) {
        w->failures++;
        continue;
      }
      for (size_t i = 0; i < N; i++)
        if (got[i] != (float)want[i]) {
          w->failures++;
          break;
        }
    }
  }
  free(x), free(y), free(got), free(want);
  return NULL;
}

static void test_context_threads(void **state) {
  ocft_env *env = ocft_get_env(state);
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (unsigned i = 0; i < THREADS; i++) {
    workers[i] = (worker){env->ctx, i + 1, 0};
    assert_int_equal(pthread_create(&threads[i], NULL, worker_run, &workers[i]), 0);
  }
  for (unsigned i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    assert_int_equal(workers[i].failures, 0);
  }
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_context_status_names),
      cmocka_unit_test(test_context_device_listing),
      cmocka_unit_test(test_context_device_info_size),
      cmocka_unit_test(test_context_device_list_stride),
      cmocka_unit_test(test_context_environment_spec),
      cmocka_unit_test(test_context_default_device),
      cmocka_unit_test(test_context_wrap),
      cmocka_unit_test(test_context_out_of_order_host_forms),
      cmocka_unit_test(test_context_validation_edges),
      cmocka_unit_test(test_context_program_cache_and_build_failure),
      cmocka_unit_test(test_context_kernel_mismatch),
      cmocka_unit_test(test_context_threads),
  };
  return cmocka_run_group_tests_name("context", tests, ocft_group_setup, ocft_group_teardown);
}
