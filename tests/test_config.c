/*
 * A context's configuration (ocf_context_config, include/oclfuse.h "Context configuration"):
 *   - precedence: the config over the environment over the built-in defaults, for the folders,
 *     the cache policy, the user database switch, the verbosity and the device; with
 *     ignore_environment nothing of the environment counts; strings are copied;
 *   - bad configs refused (size, values out of range, folders too long);
 *   - the program cache writes into the folder the config names, and nowhere else;
 *   - the log: a callback receives the lines stderr would have got, at the levels the verbosity
 *     lets through, one call at a time from several threads; ocf_context_set_log changes it;
 *     without a callback the lines go to stderr.
 * Every test uses folders of its own under /tmp and restores the environment it changed.
 */
#include "test_common.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh folder for one test (removed first if an earlier run left it). */
static void fresh_dir(char *dir, size_t capacity, const char *name) {
  snprintf(dir, capacity, "/tmp/oclfuse-config-%ld-%s", (long)getpid(), name);
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  assert_int_equal(system(command), 0);
  assert_int_equal(mkdir(dir, 0755), 0);
}

static void remove_dir(const char *dir) {
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  assert_int_equal(system(command), 0);
}

/* How many *.bin files are directly in `dir` (0 when it does not exist). */
static int count_binaries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int count = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    size_t length = strlen(e->d_name);
    if (length > 4 && strcmp(e->d_name + length - 4, ".bin") == 0) count++;
  }
  closedir(d);
  return count;
}

static ocf_context *create(const ocf_context_config *config) {
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_create_ex(getenv("OCLFUSE_TEST_DEVICE"), config, &ctx),
                     OCF_SUCCESS);
  return ctx;
}

static void one_add(ocf_context *ctx) {
  float x[5] = {1, 2, 3, 4, 5}, y[5] = {5, 4, 3, 2, 1}, out[5];
  ocft_assert_status(ocf_add_host(ctx, 5, x, y, out), OCF_SUCCESS);
  for (int i = 0; i < 5; i++)
    assert_true(out[i] == 6.0f);
}

/* ---- what the log callback received ---- */

typedef struct captured {
  pthread_mutex_t lock;
  char text[1 << 16]; /* every message, one a line, "<level> <message>" */
  size_t used;
  int count[4]; /* by level */
  int inside;   /* callbacks running now */
  int overlapped;
} captured;

static captured log_seen = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void capture_reset(void) {
  pthread_mutex_lock(&log_seen.lock);
  log_seen.used = 0;
  log_seen.text[0] = '\0';
  memset(log_seen.count, 0, sizeof log_seen.count);
  log_seen.overlapped = 0;
  pthread_mutex_unlock(&log_seen.lock);
}

static void capture(void *user, ocf_log_level level, const char *message) {
  captured *c = user;
  /* The library serializes the calls of one context's callback: two at once is a failure. */
  if (__atomic_add_fetch(&c->inside, 1, __ATOMIC_SEQ_CST) > 1)
    __atomic_store_n(&c->overlapped, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_lock(&c->lock);
  if (level >= OCF_LOG_WARNING && level <= OCF_LOG_DEBUG) c->count[level]++;
  int n = snprintf(c->text + c->used, sizeof c->text - c->used, "%d %s\n", (int)level, message);
  if (n > 0 && c->used + (size_t)n < sizeof c->text) c->used += (size_t)n;
  pthread_mutex_unlock(&c->lock);
  struct timespec pause = {0, 100000}; /* long enough for another thread to run into it */
  nanosleep(&pause, NULL);
  __atomic_sub_fetch(&c->inside, 1, __ATOMIC_SEQ_CST);
}

static int seen(const char *needle) {
  pthread_mutex_lock(&log_seen.lock);
  int found = strstr(log_seen.text, needle) != NULL;
  pthread_mutex_unlock(&log_seen.lock);
  return found;
}

/* ---- the tests ---- */

/* The folders, the cache policy and the device: config > environment > built-in defaults. */
static void test_config_precedence(void **state) {
  ocft_get_env(state);
  char env_dir[256], config_dir[256], cache_dir[256], expected[600];
  fresh_dir(env_dir, sizeof env_dir, "env");
  fresh_dir(config_dir, sizeof config_dir, "config");
  fresh_dir(cache_dir, sizeof cache_dir, "cache");
  setenv("OCLFUSE_TUNING_DIR", env_dir, 1);

  /* No config: the environment's folder, programs/ in it. */
  ocf_context *ctx = create(NULL);
  assert_string_equal(ocf_context_tuning_dir(ctx), env_dir);
  snprintf(expected, sizeof expected, "%s/programs", env_dir);
  assert_string_equal(ocf_context_cache_dir(ctx), expected);
  char path[4096];
  ocft_assert_status(ocf_tuning_database_path(ctx, path, sizeof path), OCF_SUCCESS);
  assert_memory_equal(path, env_dir, strlen(env_dir));
  ocf_context_release(ctx);

  /* The config's folder wins, and moves the program cache with it; the strings are copied. */
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  char *heap_dir = strdup(config_dir);
  assert_non_null(heap_dir);
  config.tuning_dir = heap_dir;
  ctx = create(&config);
  memset(heap_dir, 'x', strlen(heap_dir));
  free(heap_dir);
  assert_string_equal(ocf_context_tuning_dir(ctx), config_dir);
  snprintf(expected, sizeof expected, "%s/programs", config_dir);
  assert_string_equal(ocf_context_cache_dir(ctx), expected);
  ocft_assert_status(ocf_tuning_database_path(ctx, path, sizeof path), OCF_SUCCESS);
  assert_memory_equal(path, config_dir, strlen(config_dir));
  ocf_context_release(ctx);

  /* cache_dir names the program cache on its own. */
  config.tuning_dir = NULL;
  config.cache_dir = cache_dir;
  ctx = create(&config);
  assert_string_equal(ocf_context_tuning_dir(ctx), env_dir);
  assert_string_equal(ocf_context_cache_dir(ctx), cache_dir);
  ocf_context_release(ctx);

  /* OCLFUSE_CACHE=0 turns the cache off, unless the config says otherwise. */
  setenv("OCLFUSE_CACHE", "0", 1);
  ctx = create(NULL);
  assert_string_equal(ocf_context_cache_dir(ctx), "");
  ocf_context_release(ctx);
  config.program_cache = OCF_PROGRAM_CACHE_ON;
  ctx = create(&config);
  assert_string_equal(ocf_context_cache_dir(ctx), cache_dir);
  ocf_context_release(ctx);
  config.program_cache = OCF_PROGRAM_CACHE_OFF;
  unsetenv("OCLFUSE_CACHE");
  ctx = create(&config);
  assert_string_equal(ocf_context_cache_dir(ctx), "");
  ocf_context_release(ctx);

  /* ignore_environment: no folder unless the config names one, and OCLFUSE_DEVICE is not read
     for a NULL spec (which the environment would make fail here). */
  ocf_context_config quiet = OCF_CONTEXT_CONFIG_INIT;
  quiet.ignore_environment = 1;
  ctx = create(&quiet);
  assert_string_equal(ocf_context_tuning_dir(ctx), "");
  assert_string_equal(ocf_context_cache_dir(ctx), "");
  ocft_assert_status(ocf_tuning_database_path(ctx, path, sizeof path), OCF_ERR_UNSUPPORTED);
  ocf_context_release(ctx);
  const char *device_env = getenv("OCLFUSE_DEVICE");
  char *saved_device = device_env ? strdup(device_env) : NULL;
  setenv("OCLFUSE_DEVICE", "no such device anywhere", 1);
  ocf_context *none = NULL;
  ocft_assert_status(ocf_context_create_ex(NULL, NULL, &none), OCF_ERR_NO_DEVICE);
  assert_null(none);
  ocf_status status = ocf_context_create_ex(NULL, &quiet, &ctx);
  if (saved_device) {
    setenv("OCLFUSE_DEVICE", saved_device, 1);
    free(saved_device);
  } else {
    unsetenv("OCLFUSE_DEVICE");
  }
  ocft_assert_status(status, OCF_SUCCESS);
  ocf_context_release(ctx);
  quiet.tuning_dir = config_dir;
  ctx = create(&quiet);
  assert_string_equal(ocf_context_tuning_dir(ctx), config_dir);
  ocf_context_release(ctx);

  /* A context keeps what it resolved when the environment changes afterwards. */
  ctx = create(NULL);
  setenv("OCLFUSE_TUNING_DIR", config_dir, 1);
  assert_string_equal(ocf_context_tuning_dir(ctx), env_dir);
  ocf_context_release(ctx);

  unsetenv("OCLFUSE_TUNING_DIR");
  remove_dir(env_dir);
  remove_dir(config_dir);
  remove_dir(cache_dir);
}

/* The user database switch: user_tuning over OCLFUSE_TUNING_DB, seen through the warning a
   corrupt database gives when it is read. */
static void test_config_user_database_switch(void **state) {
  ocft_get_env(state);
  char dir[256];
  fresh_dir(dir, sizeof dir, "userdb");
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.tuning_dir = dir;
  config.verbosity = OCF_LOG_WARNING;
  config.log = capture;
  config.log_user = &log_seen;
  ocf_context *ctx = create(&config);
  char path[4096];
  ocft_assert_status(ocf_tuning_database_path(ctx, path, sizeof path), OCF_SUCCESS);
  ocf_context_release(ctx);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("this is not a tuning database\n", f);
  assert_int_equal(fclose(f), 0);

  const struct {
    const char *env; /* OCLFUSE_TUNING_DB, NULL: unset */
    ocf_switch user_tuning;
    int read;
  } cases[] = {
      {NULL, OCF_SWITCH_DEFAULT, 1}, {"0", OCF_SWITCH_DEFAULT, 0}, {"0", OCF_SWITCH_ON, 1},
      {NULL, OCF_SWITCH_OFF, 0},     {"1", OCF_SWITCH_OFF, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].env)
      setenv("OCLFUSE_TUNING_DB", cases[i].env, 1);
    else
      unsetenv("OCLFUSE_TUNING_DB");
    config.user_tuning = cases[i].user_tuning;
    capture_reset();
    ctx = create(&config);
    ocf_context_release(ctx);
    if (seen("tuning database") != cases[i].read)
      fail_msg("case %zu: the user database was %sread; messages:\n%s", i,
               cases[i].read ? "not " : "", log_seen.text);
  }
  unsetenv("OCLFUSE_TUNING_DB");
  remove_dir(dir);
}

/* Bad configs are refused, with *ctx untouched. */
static void test_config_refused(void **state) {
  ocft_get_env(state);
  ocf_context *ctx = NULL;
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.size = 0;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_STRUCT);
  config.size = sizeof(size_t);
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_STRUCT);
  ocf_context_config_init(&config);
  config.program_cache = (ocf_program_cache)9;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_VALUE);
  assert_non_null(strstr(ocf_last_error(), "program_cache"));
  ocf_context_config_init(&config);
  config.user_tuning = (ocf_switch)3;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_VALUE);
  ocf_context_config_init(&config);
  config.verbosity = OCF_LOG_DEBUG + 1;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_VALUE);
  config.verbosity = OCF_VERBOSITY_QUIET - 1;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_VALUE);
  ocf_context_config_init(&config);
  char *long_dir = malloc(5000);
  assert_non_null(long_dir);
  memset(long_dir, 'a', 4999);
  long_dir[0] = '/';
  long_dir[4999] = '\0';
  config.cache_dir = long_dir;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_VALUE);
  assert_non_null(strstr(ocf_last_error(), "cache_dir"));
  config.cache_dir = NULL;
  config.tuning_dir = long_dir;
  ocft_assert_status(ocf_context_create_ex(NULL, &config, &ctx), OCF_ERR_INVALID_VALUE);
  free(long_dir);
  assert_null(ctx);
  ocft_assert_status(ocf_context_create_ex(NULL, NULL, NULL), OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_context_set_log(NULL, 0, NULL, NULL), OCF_ERR_NULL_ARGUMENT);
  ocf_context_config_init(NULL);
  assert_string_equal(ocf_context_tuning_dir(NULL), "");
  assert_string_equal(ocf_context_cache_dir(NULL), "");
  /* A wrapped context takes a config too, and checks it the same way. */
  ocft_env *env = ocft_get_env(state);
  ocf_context_config_init(&config);
  config.program_cache = (ocf_program_cache)9;
  ocft_assert_status(ocf_context_wrap_ex(env->cl, env->device, env->queue, &config, &ctx),
                     OCF_ERR_INVALID_VALUE);
  assert_null(ctx);
}

/* The program cache writes into the config's folder, and nothing into the environment's. */
static void test_config_cache_dir_used(void **state) {
  ocft_get_env(state);
  char env_dir[256], cache_dir[256], env_programs[300];
  fresh_dir(env_dir, sizeof env_dir, "cache-env");
  fresh_dir(cache_dir, sizeof cache_dir, "cache-config");
  snprintf(env_programs, sizeof env_programs, "%s/programs", env_dir);
  setenv("OCLFUSE_TUNING_DIR", env_dir, 1);
  char programs[300];
  snprintf(programs, sizeof programs, "%s/sub/programs", cache_dir); /* created on demand */
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.cache_dir = programs;
  config.program_cache = OCF_PROGRAM_CACHE_ALWAYS; /* stored at release, CPU devices too */
  ocf_context *ctx = create(&config);
  one_add(ctx);
  ocf_context_release(ctx);
  const int stored = count_binaries(programs);
  assert_true(stored >= 1);
  assert_int_equal(count_binaries(env_programs), 0);
  /* A second context loads them (the log says so) and stores nothing new. */
  config.verbosity = OCF_LOG_INFO;
  config.log = capture;
  config.log_user = &log_seen;
  capture_reset();
  ctx = create(&config);
  one_add(ctx);
  ocf_context_release(ctx);
  if (!seen("from disk cache")) fail_msg("no build from the disk cache:\n%s", log_seen.text);
  assert_int_equal(count_binaries(programs), stored);
  /* OFF: nothing read (a source build) and nothing written. */
  config.program_cache = OCF_PROGRAM_CACHE_OFF;
  capture_reset();
  ctx = create(&config);
  one_add(ctx);
  ocf_context_release(ctx);
  if (!seen("disk cache off")) fail_msg("the cache was not off:\n%s", log_seen.text);
  unsetenv("OCLFUSE_TUNING_DIR");
  remove_dir(env_dir);
  remove_dir(cache_dir);
}

/* The callback receives what stderr would have got, at the levels the verbosity lets through;
   ocf_context_set_log changes both. */
static void test_config_log_callback(void **state) {
  ocft_get_env(state);
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.program_cache = OCF_PROGRAM_CACHE_OFF; /* every build from source: an INFO line each */
  config.verbosity = OCF_LOG_DEBUG;
  config.log = capture;
  config.log_user = &log_seen;
  capture_reset();
  ocf_context *ctx = create(&config);
  /* Messages of the creation: the device (before the context existed) and the tuning. */
  assert_true(seen("2 device "));
  assert_true(seen("2 tuning for "));
  one_add(ctx);
  assert_true(seen("2 build add ["));
  /* The call's plan at DEBUG, the same line as ocf_last_plan(). */
  char plan_line[600];
  snprintf(plan_line, sizeof plan_line, "3 %s\n", ocf_last_plan());
  assert_true(seen(plan_line));
  assert_int_equal(log_seen.count[OCF_LOG_WARNING], 0);

  /* WARNING only: neither builds nor plans. */
  ocft_assert_status(ocf_context_set_log(ctx, OCF_LOG_WARNING, capture, &log_seen), OCF_SUCCESS);
  capture_reset();
  ocf_launch launch = OCF_LAUNCH_INIT;
  launch.workgroup_size = 4; /* another program to build */
  ocft_env own = *ocft_get_env(state), *env = &own;
  own.ctx = ctx;
  own.cl = ocf_context_cl_context(ctx);
  own.queue = ocf_context_queue(ctx);
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  cl_mem xb = ocft_buffer(env, 8, x);
  ocft_assert_status(ocf_add(ctx, 8, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  assert_int_equal(log_seen.count[OCF_LOG_INFO] + log_seen.count[OCF_LOG_DEBUG], 0);
  /* INFO: builds, no plans. */
  ocft_assert_status(ocf_context_set_log(ctx, OCF_LOG_INFO, capture, &log_seen), OCF_SUCCESS);
  launch.workgroup_size = 2;
  ocft_assert_status(ocf_add(ctx, 8, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  assert_true(log_seen.count[OCF_LOG_INFO] >= 1);
  assert_int_equal(log_seen.count[OCF_LOG_DEBUG], 0);
  /* Quiet: nothing. */
  ocft_assert_status(ocf_context_set_log(ctx, OCF_VERBOSITY_QUIET, capture, &log_seen),
                     OCF_SUCCESS);
  capture_reset();
  launch.workgroup_size = 1;
  ocft_assert_status(ocf_add(ctx, 8, xb, 0, xb, 0, xb, 0, &launch), OCF_SUCCESS);
  assert_int_equal(log_seen.used, 0);
  ocft_assert_status(ocf_context_set_log(ctx, OCF_LOG_DEBUG + 1, NULL, NULL),
                     OCF_ERR_INVALID_VALUE);
  clFinish(env->queue);
  clReleaseMemObject(xb);
  ocf_context_release(ctx);

  /* OCF_VERBOSITY_ENV: OCLFUSE_VERBOSE decides (every level when set, none when unset). */
  config.verbosity = OCF_VERBOSITY_ENV;
  setenv("OCLFUSE_VERBOSE", "1", 1);
  capture_reset();
  ctx = create(&config);
  one_add(ctx);
  ocf_context_release(ctx);
  assert_true(log_seen.count[OCF_LOG_INFO] >= 1 && log_seen.count[OCF_LOG_DEBUG] >= 1);
  unsetenv("OCLFUSE_VERBOSE");
  capture_reset();
  ctx = create(&config);
  one_add(ctx);
  ocf_context_release(ctx);
  assert_int_equal(log_seen.used, 0);
  /* ... and an explicit verbosity wins over OCLFUSE_VERBOSE. */
  setenv("OCLFUSE_VERBOSE", "1", 1);
  config.verbosity = OCF_VERBOSITY_QUIET;
  capture_reset();
  ctx = create(&config);
  one_add(ctx);
  ocf_context_release(ctx);
  unsetenv("OCLFUSE_VERBOSE");
  assert_int_equal(log_seen.used, 0);
}

/* Without a callback the lines go to stderr, "oclfuse: " first. */
static void test_config_log_stderr(void **state) {
  ocft_get_env(state);
  char path[256];
  snprintf(path, sizeof path, "/tmp/oclfuse-config-%ld-stderr", (long)getpid());
  fflush(stderr);
  int saved = dup(STDERR_FILENO);
  assert_true(saved >= 0);
  int file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  assert_true(file >= 0);
  assert_true(dup2(file, STDERR_FILENO) >= 0);
  close(file);
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.verbosity = OCF_LOG_DEBUG;
  ocf_context *ctx = NULL;
  ocf_status status = ocf_context_create_ex(getenv("OCLFUSE_TEST_DEVICE"), &config, &ctx);
  if (status == OCF_SUCCESS) {
    float x[3] = {1, 2, 3}, out[3];
    status = ocf_add_host(ctx, 3, x, x, out);
    ocf_context_release(ctx);
  }
  fflush(stderr);
  assert_true(dup2(saved, STDERR_FILENO) >= 0);
  close(saved);
  ocft_assert_status(status, OCF_SUCCESS);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char text[8192];
  size_t length = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  unlink(path);
  text[length] = '\0';
  assert_non_null(strstr(text, "oclfuse: device "));
  assert_non_null(strstr(text, "oclfuse: add_"));
}

/* Several threads log through one context: the callback runs one call at a time. */
typedef struct worker {
  ocf_context *ctx;
  ocf_status status;
} worker;

static void *log_worker(void *arg) {
  worker *w = arg;
  float x[16], out[16];
  for (int i = 0; i < 16; i++)
    x[i] = (float)i;
  for (int call = 0; call < 40 && w->status == OCF_SUCCESS; call++)
    w->status = ocf_add_host(w->ctx, 16, x, x, out);
  return NULL;
}

static void test_config_log_threads(void **state) {
  ocft_get_env(state);
  ocf_context_config config = OCF_CONTEXT_CONFIG_INIT;
  config.verbosity = OCF_LOG_DEBUG;
  config.log = capture;
  config.log_user = &log_seen;
  ocf_context *ctx = create(&config);
  capture_reset();
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (int t = 0; t < THREADS; t++) {
    workers[t].ctx = ctx;
    workers[t].status = OCF_SUCCESS;
    assert_int_equal(pthread_create(&threads[t], NULL, log_worker, &workers[t]), 0);
  }
  for (int t = 0; t < THREADS; t++) {
    assert_int_equal(pthread_join(threads[t], NULL), 0);
    ocft_assert_status(workers[t].status, OCF_SUCCESS);
  }
  ocf_context_release(ctx);
  assert_int_equal(log_seen.count[OCF_LOG_DEBUG], THREADS * 40);
  assert_int_equal(log_seen.overlapped, 0);
}

int main(void) {
  ocft_filter_tests(); /* OCFT_ONLY: a pattern of the tests to run */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_config_precedence),
      cmocka_unit_test(test_config_user_database_switch),
      cmocka_unit_test(test_config_refused),
      cmocka_unit_test(test_config_cache_dir_used),
      cmocka_unit_test(test_config_log_callback),
      cmocka_unit_test(test_config_log_stderr),
      cmocka_unit_test(test_config_log_threads),
  };
  return cmocka_run_group_tests_name("config", tests, ocft_group_setup, ocft_group_teardown);
}
