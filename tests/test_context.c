/*
 * Statuses, device listing and selection, context create/wrap/release, the program cache, a
 * forced build failure (clBuildProgram wrapped at link time: -Wl,--wrap=clBuildProgram) and calls
 * from several threads on one context.
 */
#include "reference.h"
#include "test_common.h"

#include <pthread.h>
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
  const char *malformed[] = {"0:", ":0", "1:2:3", "0 : x1", "99999999999:0"};
  for (size_t i = 0; i < OCF_ARRAY_LEN_T(malformed); i++) {
    ocf_status status = ocf_device_select(malformed[i], &picked);
    /* "0 : x1" has a letter: it is a name, which matches nothing. */
    ocft_assert_status(status,
                       strchr(malformed[i], 'x') ? OCF_ERR_NO_DEVICE : OCF_ERR_INVALID_SPEC);
    assert_true(strstr(ocf_last_error(), malformed[i]) != NULL);
  }
  ocft_assert_status(ocf_device_select(NULL, NULL), OCF_ERR_NULL_ARGUMENT);
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

/* A program is built once per option set; a failed build says so, with the compiler's log. */
static void test_context_program_cache_and_build_failure(void **state) {
  ocft_get_env(state);
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
  assert_true(strstr(ocf_last_error(), "add.cl") != NULL);
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
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_context_status_names),
      cmocka_unit_test(test_context_device_listing),
      cmocka_unit_test(test_context_environment_spec),
      cmocka_unit_test(test_context_default_device),
      cmocka_unit_test(test_context_wrap),
      cmocka_unit_test(test_context_program_cache_and_build_failure),
      cmocka_unit_test(test_context_threads),
  };
  return cmocka_run_group_tests_name("context", tests, ocft_group_setup, ocft_group_teardown);
}
