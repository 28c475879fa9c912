/*
 * The tuning a context resolves and the caches it keeps, on the test device:
 *   - the user's tuning database: a good file is in force; a corrupt, truncated, foreign,
 *     future-version or rule-breaking one is ignored whole (never half-applied);
 *   - ocf_context_set_tuning / get_tuning: every bad input refused with nothing changed, a reset
 *     restores the resolved values;
 *   - the on-disk program cache: a second context loads what the first stored, a corrupt binary
 *     falls back to a source build and is replaced, a read-only cache folder costs nothing but
 *     the cache, two processes storing the same entry at once leave one whole file, a FIFO in
 *     the cache folder blocks nothing;
 *   - ocf_warmup.
 * Every test points OCLFUSE_TUNING_DIR at a fresh folder of its own.
 */
#include "runtime/context.h"
#include "runtime/disk_cache.h"
#include "test_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fresh cache folder for one test (removed first if an earlier run left it). */
static void fresh_dir(char *dir, size_t capacity, const char *name) {
  snprintf(dir, capacity, "/tmp/oclfuse-test-%ld-%s", (long)getpid(), name);
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  assert_int_equal(system(command), 0);
  assert_int_equal(mkdir(dir, 0755), 0);
  setenv("OCLFUSE_TUNING_DIR", dir, 1);
}

static void remove_dir(const char *dir) {
  char command[1200];
  snprintf(command, sizeof command, "chmod -R u+w '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
  assert_int_equal(system(command), 0);
  unsetenv("OCLFUSE_TUNING_DIR");
}

static ocf_context *new_context(void) {
  const char *spec = getenv("OCLFUSE_TEST_DEVICE");
  ocf_context *ctx = NULL;
  ocft_assert_status(ocf_context_create(spec, &ctx), OCF_SUCCESS);
  return ctx;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(fputs(text, f) >= 0, 1);
  assert_int_equal(fclose(f), 0);
}

/* The user database for the test device, with `entries` and the given header fields. */
static void write_database(ocf_context *ctx, const char *format_line, const char *device,
                           const char *library, const char *entries, int with_end) {
  ocf_device_info info;
  ocf_device_info_init(&info);
  ocft_assert_status(ocf_context_device_info(ctx, &info), OCF_SUCCESS);
  char path[4096];
  ocft_assert_status(ocf_tuning_database_path(ctx, path, sizeof path), OCF_SUCCESS);
  int count = 0;
  for (const char *p = strstr(entries, "entry"); p; p = strstr(p + 1, "entry"))
    count++;
  char text[4096];
  snprintf(text, sizeof text, "%s\nlibrary %s\nvendor %s\ndevice %s\ndriver %s\n%s%s%d\n",
           format_line, library, info.vendor, device ? device : info.device_name,
           info.driver_version, entries, with_end ? "end " : "", with_end ? count : 0);
  if (!with_end) text[strlen(text) - 2] = '\0'; /* cut the file short */
  write_text(path, text);
}

static void get_values(ocf_context *ctx, const char *op, const char *cls, char *out, size_t cap) {
  ocft_assert_status(ocf_context_get_tuning(ctx, op, OCF_F32, cls, out, cap), OCF_SUCCESS);
}

static void test_tuning_user_database(void **state) {
  ocft_get_env(state);
  char dir[256];
  fresh_dir(dir, sizeof dir, "db");
  ocf_context *probe = new_context();
  char builtin[2048];
  get_values(probe, "add", "large", builtin, sizeof builtin);
  assert_null(strstr(builtin, "wg=32 ")); /* the test below changes wg to 32 */

  /* A good file: in force for its class only, and named in the origin. */
  write_database(probe, "oclfuse-tuning 1", NULL, ocf_version_string(),
                 "entry add f32 large wg=32\n", 1);
  ocf_context *ctx = new_context();
  char values[2048];
  get_values(ctx, "add", "large", values, sizeof values);
  assert_non_null(strstr(values, "wg=32 "));
  get_values(ctx, "add", "small", values, sizeof values);
  assert_null(strstr(values, "wg=32 "));
  assert_non_null(strstr(ocf_context_tuning_origin(ctx), "user "));
  ocf_context_release(ctx);

  /* Format 2 (family names, what differs) and format 1 (its own names) say the same. */
  static const char *const formats[2][2] = {
      {"oclfuse-tuning 2", "entry matmul f32 large tiled.set0.kwg=8 skinny.wg=128\n"},
      {"oclfuse-tuning 1", "entry matmul f32 large set0.kwg=8 sk_wg=128\n"}};
  for (int f = 0; f < 2; f++) {
    write_database(probe, formats[f][0], NULL, ocf_version_string(), formats[f][1], 1);
    ctx = new_context();
    get_values(ctx, "matmul", "large", values, sizeof values);
    if (!strstr(values, " tiled.set0.kwg=8 ") || !strstr(values, " skinny.wg=128 "))
      fail_msg("%s: %s", formats[f][0], values);
    assert_non_null(strstr(ocf_context_tuning_origin(ctx), "user "));
    ocf_context_release(ctx);
  }

  /* Each bad file is ignored whole: the built-in values stay. */
  static const struct {
    const char *why, *format, *device, *library, *entries;
    int with_end;
  } bad[] = {
      {"truncated", "oclfuse-tuning 1", NULL, NULL, "entry add f32 large wg=32\n", 0},
      {"corrupt", "oclfuse-tuning 1", NULL, NULL, "entry add f32 large wg=3x2\n", 1},
      {"another device", "oclfuse-tuning 1", "Some Other GPU", NULL, "entry add f32 large wg=32\n",
       1},
      {"another library version", "oclfuse-tuning 1", NULL, "0.0.1", "entry add f32 large wg=32\n",
       1},
      {"a future format", "oclfuse-tuning 7", NULL, NULL, "entry add f32 large wg=32\n", 1},
      {"breaks a rule (half applied would be wrong)", "oclfuse-tuning 1", NULL, NULL,
       "entry add f32 large wg=32\nentry add f32 small vw=3\n", 1},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_database(probe, bad[i].format, bad[i].device,
                   bad[i].library ? bad[i].library : ocf_version_string(), bad[i].entries,
                   bad[i].with_end);
    ctx = new_context();
    get_values(ctx, "add", "large", values, sizeof values);
    if (strcmp(values, builtin) != 0) fail_msg("a %s database was applied: %s", bad[i].why, values);
    if (strstr(ocf_context_tuning_origin(ctx), "user"))
      fail_msg("a %s database is named in force", bad[i].why);
    ocf_context_release(ctx);
  }
  /* Not a file at all: a folder where the database would be. */
  char path[4096];
  ocft_assert_status(ocf_tuning_database_path(probe, path, sizeof path), OCF_SUCCESS);
  remove(path);
  assert_int_equal(mkdir(path, 0755), 0);
  ctx = new_context();
  get_values(ctx, "add", "large", values, sizeof values);
  assert_string_equal(values, builtin);
  ocf_context_release(ctx);
  ocf_context_release(probe);
  remove_dir(dir);
}

static void test_tuning_overrides(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = env->ctx;
  char before[2048], after[2048];
  get_values(ctx, "softmax", "wide", before, sizeof before);
  static const struct {
    const char *op, *cls, *values;
    ocf_status expected;
  } bad[] = {
      {"conv", NULL, "wg=64", OCF_ERR_INVALID_VALUE},
      {NULL, NULL, "wg=64", OCF_ERR_INVALID_VALUE},
      {"softmax", "gigantic", "wg=64", OCF_ERR_INVALID_VALUE},
      {"softmax", NULL, "warp=32", OCF_ERR_INVALID_VALUE},
      {"softmax", NULL, "wg=", OCF_ERR_INVALID_VALUE},
      {"softmax", NULL, "wg", OCF_ERR_INVALID_VALUE},
      {"softmax", NULL, "wg=0", OCF_ERR_INVALID_VALUE},
      {"softmax", NULL, "vw=3", OCF_ERR_INVALID_VALUE},                 /* not a power of two */
      {"softmax", NULL, "wg=32 min_wg=64", OCF_ERR_INVALID_VALUE},      /* min_wg above wg */
      {"softmax", NULL, "wg=64 vw=16 items=32", OCF_ERR_INVALID_VALUE}, /* registers */
      {"softmax", "wide", "wg=64 vw=3", OCF_ERR_INVALID_VALUE},         /* all or nothing */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ocf_status status = ocf_context_set_tuning(ctx, bad[i].op, OCF_F32, bad[i].cls, bad[i].values);
    if (status != bad[i].expected)
      fail_msg("set_tuning(%s, %s, \"%s\") gave %s", bad[i].op ? bad[i].op : "NULL",
               bad[i].cls ? bad[i].cls : "NULL", bad[i].values, ocf_status_name(status));
    get_values(ctx, "softmax", "wide", after, sizeof after);
    assert_string_equal(after, before);
  }
  ocft_assert_status(ocf_context_set_tuning(NULL, "add", OCF_F32, NULL, "wg=64"),
                     OCF_ERR_NULL_ARGUMENT);
  ocft_assert_status(ocf_context_set_tuning(ctx, "add", (ocf_dtype)7, NULL, "wg=64"),
                     OCF_ERR_INVALID_VALUE);
  char tiny[4];
  ocft_assert_status(ocf_context_get_tuning(ctx, "softmax", OCF_F32, "wide", tiny, sizeof tiny),
                     OCF_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(strlen(tiny), 3);

  /* One class, then every class, then a reset (unroll=5: a value no built-in row or shipped
     database holds, so that it marks the override). */
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, "wide", "unroll=5"),
                     OCF_SUCCESS);
  get_values(ctx, "softmax", "wide", after, sizeof after);
  assert_non_null(strstr(after, "unroll=5"));
  get_values(ctx, "softmax", "narrow", after, sizeof after);
  assert_null(strstr(after, "unroll=5"));
  /* Classes now differ: a class-less get must say so rather than pick one. */
  ocft_assert_status(ocf_context_get_tuning(ctx, "softmax", OCF_F32, NULL, after, sizeof after),
                     OCF_ERR_INVALID_VALUE);
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, "*", "unroll=5"), OCF_SUCCESS);
  get_values(ctx, "softmax", "narrow", after, sizeof after);
  assert_non_null(strstr(after, "unroll=5"));
  /* A call still runs right under the override. */
  float in[6] = {1, 2, 3, 4, 5, 6}, out[6];
  ocft_assert_status(ocf_softmax_host(ctx, 2, 3, in, 3, out, 3), OCF_SUCCESS);
  assert_true(out[2] > out[1] && out[1] > out[0]);
  ocft_assert_status(ocf_context_set_tuning(ctx, "softmax", OCF_F32, NULL, NULL), OCF_SUCCESS);
  get_values(ctx, "softmax", "wide", after, sizeof after);
  assert_string_equal(after, before);
}

/* The 227 KiB rule on the wgmma rings holds for two consumers' tiles: wgmma.consumers=3 (192-row
   tiles, whose plans take fewer stages past the rule) leaves bn, stages and wave_stages valid
   for two, and a ring of two past it is refused whatever the consumers. */
static void test_tuning_wgmma_rings(void **state) {
  ocft_env *env = ocft_get_env(state);
  ocf_context *ctx = env->ctx;
  static const struct {
    const char *values;
    ocf_status expected;
  } cases[] = {
      {"wgmma.consumers=3 wgmma.bn=192 wgmma.stages=5", OCF_SUCCESS}, /* two: 205824 bytes */
      {"wgmma.consumers=3 wgmma.bn=256 wgmma.stages=4 wgmma.wave_bn=192 wgmma.wave_stages=5",
       OCF_SUCCESS},
      {"wgmma.consumers=2 wgmma.bn=256 wgmma.stages=5", OCF_ERR_INVALID_VALUE}, /* 246784 */
      {"wgmma.consumers=3 wgmma.bn=256 wgmma.stages=5", OCF_ERR_INVALID_VALUE},
      {"wgmma.consumers=3 wgmma.wave_bn=256 wgmma.wave_stages=5", OCF_ERR_INVALID_VALUE},
      {"wgmma.consumers=4", OCF_ERR_INVALID_VALUE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const ocf_status status = ocf_context_set_tuning(ctx, "matmul", OCF_BF16, "*", cases[i].values);
    if (status != cases[i].expected)
      fail_msg("set_tuning(matmul, \"%s\") gave %s", cases[i].values, ocf_status_name(status));
    ocft_assert_status(ocf_context_set_tuning(ctx, "matmul", OCF_BF16, NULL, NULL), OCF_SUCCESS);
  }
}

/* The names of the binaries in <dir>/programs, one per line, into out; their count. */
static int list_binaries(const char *dir, char *out, size_t capacity) {
  char programs[512];
  snprintf(programs, sizeof programs, "%s/programs", dir);
  DIR *d = opendir(programs);
  int count = 0;
  out[0] = '\0';
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strstr(e->d_name, ".bin") || strstr(e->d_name, ".tmp")) continue;
    size_t used = strlen(out);
    snprintf(out + used, capacity - used, "%s/%s\n", programs, e->d_name);
    count++;
  }
  closedir(d);
  return count;
}

static void one_add(ocf_context *ctx) {
  float x[5] = {1, 2, 3, 4, 5}, y[5] = {5, 4, 3, 2, 1}, out[5];
  ocft_assert_status(ocf_add_host(ctx, 5, x, y, out), OCF_SUCCESS);
  for (int i = 0; i < 5; i++)
    assert_true(out[i] == 6.0f);
}

static void test_tuning_disk_cache(void **state) {
  ocft_get_env(state);
  /* Stored at every release, CPU devices too (by default they store only in a warm-up). */
  setenv("OCLFUSE_CACHE", "always", 1);
  char dir[256], files[4096];
  fresh_dir(dir, sizeof dir, "cache");
  /* Stored when the context is released; loaded by the next. */
  ocf_context *ctx = new_context();
  one_add(ctx);
  ocf_context_release(ctx);
  /* One program, or two where a kernel limit below the tuned workgroup made a second plan. */
  int stored = list_binaries(dir, files, sizeof files);
  assert_true(stored >= 1 && stored <= 2);
  ctx = new_context();
  one_add(ctx);
  ocf_context_release(ctx);
  assert_int_equal(list_binaries(dir, files, sizeof files), stored);

  /* Corrupt it: a flipped byte in the binary, then a truncated file. Both must fall back to a
     source build (the call works) and be replaced by a good file. */
  files[strcspn(files, "\n")] = '\0';
  struct stat good;
  assert_int_equal(stat(files, &good), 0);
  for (int damage = 0; damage < 2; damage++) {
    FILE *f = fopen(files, "r+b");
    assert_non_null(f);
    if (damage == 0) {
      assert_int_equal(fseek(f, -10, SEEK_END), 0);
      assert_int_equal(fputc('#', f) != EOF, 1);
    }
    assert_int_equal(fclose(f), 0);
    if (damage == 1) assert_int_equal(truncate(files, good.st_size / 2), 0);
    ctx = new_context();
    one_add(ctx);
    ocf_context_release(ctx);
    struct stat now;
    assert_int_equal(stat(files, &now), 0);
    assert_int_equal(now.st_size, good.st_size);
    assert_int_equal(
        list_binaries(dir, files + strlen(files) + 1, sizeof files - strlen(files) - 1), stored);
  }

  /* A read-only cache folder: every call still works, nothing is written. */
  char programs[300];
  snprintf(programs, sizeof programs, "%s/programs", dir);
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", programs);
  assert_int_equal(system(command), 0);
  assert_int_equal(chmod(dir, 0555), 0);
  if (access(dir, W_OK) != 0) { /* root ignores the mode: the next part covers it then */
    ctx = new_context();
    one_add(ctx);
    ocf_context_release(ctx);
    assert_int_equal(list_binaries(dir, files, sizeof files), 0);
  }
  assert_int_equal(chmod(dir, 0755), 0);
  /* A cache folder that cannot be created (its parent is a file), whoever runs the test. */
  char blocked[512];
  snprintf(blocked, sizeof blocked, "%s/a-file", dir);
  write_text(blocked, "not a folder\n");
  snprintf(blocked, sizeof blocked, "%s/a-file/cache", dir);
  setenv("OCLFUSE_TUNING_DIR", blocked, 1);
  ctx = new_context();
  one_add(ctx);
  ocf_context_release(ctx);
  setenv("OCLFUSE_TUNING_DIR", dir, 1);
  assert_int_equal(list_binaries(dir, files, sizeof files), 0);

  /* OCLFUSE_CACHE=0: nothing stored. */
  setenv("OCLFUSE_CACHE", "0", 1);
  ctx = new_context();
  one_add(ctx);
  ocf_context_release(ctx);
  unsetenv("OCLFUSE_CACHE");
  assert_int_equal(list_binaries(dir, files, sizeof files), 0);
  /* The default: a GPU stores at release; a CPU runtime (where a binary costs a compile of
     every kernel) only in a warm-up. */
  ocf_device_info info;
  ocf_device_info_init(&info);
  ctx = new_context();
  ocft_assert_status(ocf_context_device_info(ctx, &info), OCF_SUCCESS);
  one_add(ctx);
  ocf_context_release(ctx);
  assert_int_equal(list_binaries(dir, files, sizeof files) > 0, !(info.type & CL_DEVICE_TYPE_CPU));
  remove_dir(dir);
}

/* The child of test_tuning_disk_cache_two_writers: a fresh process (an OpenCL runtime does not
   survive fork), which builds and stores the add program. */
static int store_child(void) {
  ocf_context *ctx = NULL;
  if (ocf_context_create(getenv("OCLFUSE_TEST_DEVICE"), &ctx) != OCF_SUCCESS) return 1;
  float x[3] = {1, 2, 3}, out[3];
  int ok = ocf_add_host(ctx, 3, x, x, out) == OCF_SUCCESS && out[2] == 6.0f;
  ocf_context_release(ctx);
  return ok ? 0 : 1;
}

/* Two processes build and store the same program at once: one whole file remains, and a third
   process loads it. */
static void test_tuning_disk_cache_two_writers(void **state) {
  ocft_get_env(state);
  char dir[256], files[4096];
  fresh_dir(dir, sizeof dir, "writers");
  setenv("OCLFUSE_CACHE", "always", 1); /* the children store at release whatever the device */
  pid_t children[2];
  for (int i = 0; i < 2; i++) {
    children[i] = fork();
    assert_true(children[i] >= 0);
    if (children[i] == 0) {
      char *const args[] = {"test_tuning_api", "--store-child", NULL};
      execv("/proc/self/exe", args);
      _exit(127);
    }
  }
  for (int i = 0; i < 2; i++) {
    int status = 0;
    assert_int_equal(waitpid(children[i], &status, 0), children[i]);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  /* Whole files only (a torn one would fail its checksum and be rebuilt: count and sizes are
     checked again after a third process), and no temporary file left behind. */
  int stored = list_binaries(dir, files, sizeof files);
  assert_true(stored >= 1 && stored <= 2);
  ocf_context *ctx = new_context();
  one_add(ctx);
  ocf_context_release(ctx);
  assert_int_equal(list_binaries(dir, files, sizeof files), stored);
  char command[1200];
  snprintf(command, sizeof command, "ls '%s/programs' | grep -q '\\.tmp$'", dir);
  assert_int_not_equal(system(command), 0);
  unsetenv("OCLFUSE_CACHE");
  remove_dir(dir);
}

/* A FIFO in the cache folder, at the tuning database's path and at a program's binary, is not a
   file of ours: the context is created, the call builds its program from source and stores a
   regular file in the FIFO's place. Before the library opened files without blocking and
   checked them to be regular, open() waited for a writer forever; the alarm makes such a hang a
   failure of this suite. */
static void test_tuning_fifo_in_cache(void **state) {
  ocft_get_env(state);
  setenv("OCLFUSE_CACHE", "always", 1);
  char dir[256], files[4096], database[4096];
  fresh_dir(dir, sizeof dir, "fifo");
  ocf_context *ctx = new_context();
  ocft_assert_status(ocf_tuning_database_path(ctx, database, sizeof database), OCF_SUCCESS);
  one_add(ctx);
  ocf_context_release(ctx);
  assert_true(list_binaries(dir, files, sizeof files) >= 1);
  files[strcspn(files, "\n")] = '\0'; /* the first binary */
  assert_int_equal(unlink(files), 0);
  assert_int_equal(mkfifo(files, 0644), 0);
  assert_int_equal(mkfifo(database, 0644), 0);
  alarm(120);
  ctx = new_context();
  one_add(ctx);
  ocf_context_release(ctx);
  alarm(0);
  struct stat st;
  assert_int_equal(stat(files, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(stat(database, &st), 0);
  assert_true(S_ISFIFO(st.st_mode)); /* the user's file: left as it is */
  unsetenv("OCLFUSE_CACHE");
  remove_dir(dir);
}

/* The program cache's key names everything that changes a binary: a change of any one input
   (source digest, build options, platform, device, vendor, driver) gives another key text and
   another file, and the text names the library's version; the user's tuning database is a file
   per vendor, device and driver. A key that left one out would load a binary built for
   something else. */
static void test_tuning_cache_keys_name_every_input(void **state) {
  ocft_get_env(state);
  char dir[256];
  fresh_dir(dir, sizeof dir, "keys");
  unsetenv("OCLFUSE_CACHE");
  ocf_device_info base;
  ocf_device_info_init(&base);
  snprintf(base.platform_name, sizeof base.platform_name, "Platform P");
  snprintf(base.device_name, sizeof base.device_name, "Device D");
  snprintf(base.vendor, sizeof base.vendor, "Vendor V");
  snprintf(base.driver_version, sizeof base.driver_version, "1.2.3");
  enum { KEYS = 7 };
  static ocf_disk_key keys[KEYS];
  ocf_disk_key_make(&keys[0], &base, 0x1234, "-DWG=64", dir);
  ocf_disk_key_make(&keys[1], &base, 0x1235, "-DWG=64", dir);
  ocf_disk_key_make(&keys[2], &base, 0x1234, "-DWG=65", dir);
  ocf_device_info changed[4] = {base, base, base, base};
  changed[0].platform_name[0] = 'Q';
  changed[1].device_name[0] = 'E';
  changed[2].vendor[0] = 'W';
  changed[3].driver_version[0] = '2';
  for (int c = 0; c < 4; c++)
    ocf_disk_key_make(&keys[3 + c], &changed[c], 0x1234, "-DWG=64", dir);
  assert_non_null(strstr(keys[0].text, ocf_version_string()));
  for (int a = 0; a < KEYS; a++) {
    assert_true(keys[a].enabled);
    for (int b = 0; b < a; b++) {
      if (strcmp(keys[a].text, keys[b].text) == 0 || strcmp(keys[a].path, keys[b].path) == 0)
        fail_msg("cache keys %d and %d are the same: %s", b, a, keys[a].text);
    }
  }
  char paths[4][4096];
  assert_int_equal(ocf_user_database_path(dir, &base, paths[0], sizeof paths[0]), 0);
  for (int c = 1; c < 4; c++) {
    assert_int_equal(ocf_user_database_path(dir, &changed[c], paths[c], sizeof paths[c]), 0);
    for (int b = 0; b < c; b++)
      if (strcmp(paths[b], paths[c]) == 0)
        fail_msg("tuning databases %d and %d share a path: %s", b, c, paths[c]);
  }
  remove_dir(dir);
}

static void test_tuning_warmup(void **state) {
  ocft_get_env(state);
  char dir[256], files[4096];
  fresh_dir(dir, sizeof dir, "warmup");
  ocf_context *ctx = new_context();
  size_t plans = 0;
  ocft_assert_status(ocf_warmup(ctx, "add", &plans), OCF_SUCCESS);
  assert_true(plans >= 2); /* the vector and the scalar kernel at least */
  assert_true(list_binaries(dir, files, sizeof files) >= 1);
  ocft_assert_status(ocf_warmup(ctx, "conv", NULL), OCF_ERR_INVALID_VALUE);
  ocft_assert_status(ocf_warmup(NULL, NULL, NULL), OCF_ERR_NULL_ARGUMENT);
  one_add(ctx);
  assert_non_null(strstr(ocf_last_plan(), "add_vector"));
  ocf_context_release(ctx);
  remove_dir(dir);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--store-child") == 0) return store_child();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tuning_user_database),
      cmocka_unit_test(test_tuning_overrides),
      cmocka_unit_test(test_tuning_wgmma_rings),
      cmocka_unit_test(test_tuning_disk_cache),
      cmocka_unit_test(test_tuning_disk_cache_two_writers),
      cmocka_unit_test(test_tuning_fifo_in_cache),
      cmocka_unit_test(test_tuning_cache_keys_name_every_input),
      cmocka_unit_test(test_tuning_warmup),
  };
  return cmocka_run_group_tests_name("tuning_api", tests, ocft_group_setup, ocft_group_teardown);
}
