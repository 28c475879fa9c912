/*
 * child.c: the work of one child process, which the driver starts with --child:
 *   build   every program (probes first, then the GEMM configurations in the driver's order),
 *           in threads, each binary and its facts left under <work>/bin; it launches nothing,
 *           so it cannot fault, and it runs while the others do; then it holds its context
 *           until the driver ends it, so that the GPU stays initialised between children
 *           (without a persistence daemon the driver tears the GPU's state down whenever no
 *           process holds it, and every new process would pay for setting it up again);
 *   probe   the probes given, one row each;
 *   gemm    one configuration on the shapes given, one row each.
 * Rows go to the driver through the rows file as each finishes. After a row that faulted the
 * child stops (its context, and on NVIDIA its whole CUDA state, is gone) with exit status 4;
 * the driver starts another for what is left.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The builder's programs: item i < probe count is probe i, else GEMM configuration
   i - probe count. */
static void build_everything(lab_env *env, const lab_options *o, const size_t *items,
                             size_t count) {
  lab_program_spec *specs = calloc(count ? count : 1, sizeof *specs);
  if (!specs) return;
  const size_t probes = lab_probe_count();
  for (size_t i = 0; i < count; i++) {
    if (items[i] < probes)
      lab_probe_spec(items[i], o, &specs[i]);
    else
      lab_gemm_spec(items[i] - probes, o, &specs[i]);
  }
  const double start = lab_now();
  lab_build_all(env, specs, count, o->threads, o->work);
  lab_log(1, "builder: %zu programs built in %.1f s\n", count, lab_now() - start);
  free(specs);
}

/* The row of the first item when no context could be made: FAULT (the device is unusable from
   this process), so that the driver moves on. */
static void no_context_row(const char *kind, int config, const size_t *items, size_t count) {
  if (!count) return;
  lab_row row;
  if (strcmp(kind, "probe") == 0) {
    lab_row_init(&row, "probe", lab_probe_name(items[0]), "");
  } else {
    lab_gemm_info info;
    lab_gemm_describe((size_t)config, &info);
    lab_row_init(&row, "gemm", info.name, lab_gemm_shape_name(items[0]));
  }
  row.status = LAB_FAULT;
  snprintf(row.detail, sizeof row.detail, "no OpenCL context in a new process (see the log)");
  lab_row_add(&row);
}

int lab_child_main(const lab_options *o, const char *kind, int config, const size_t *items,
                   size_t count, const char *rows_path) {
  const int build = strcmp(kind, "build") == 0;
  if (!build && (!rows_path || !lab_rows_to_file(rows_path))) return 1;
  lab_env env;
  if (!lab_env_open(&env, o->device, build)) {
    if (!build) no_context_row(kind, config, items, count);
    return 4;
  }
  int status = 0;
  if (build) {
    const pid_t driver = getppid();
    build_everything(&env, o, items, count);
    while (getppid() == driver) /* until the driver stops it, or is gone itself */
      sleep(1);
  } else if (strcmp(kind, "probe") == 0) {
    for (size_t i = 0; i < count && status == 0; i++) {
      lab_row row;
      lab_probe_run(&env, o, items[i], &row);
      lab_row_add(&row);
      if (row.status == LAB_FAULT) status = 4;
    }
  } else {
    status = lab_gemm_run(&env, o, (size_t)config, items, count) ? 0 : 4;
  }
  if (status == 0) lab_env_close(&env);
  return status;
}

/* ---- the offline check's view: every program as one source file and its options ---- */

static int dump_one(const lab_program_spec *spec, const char *dir) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s.cl", dir, spec->id);
  FILE *out = fopen(path, "w");
  if (!out) return 0;
  int ok = 1;
  for (int i = 0; i < 2; i++) {
    if (!spec->paths[i][0]) continue;
    char *text = lab_read_file(spec->paths[i]);
    if (text) fputs(text, out);
    ok = ok && text != NULL;
    free(text);
  }
  fclose(out);
  snprintf(path, sizeof path, "%s/%s.opts", dir, spec->id);
  out = fopen(path, "w");
  if (!out) return 0;
  fprintf(out, "%s\n%s%s%s\n%s\n", spec->options, spec->kernel, spec->extra_kernels[0] ? "," : "",
          spec->extra_kernels, spec->name);
  fclose(out);
  return ok;
}

int lab_dump(const lab_options *o, const char *dir) {
  int ok = 1;
  lab_program_spec spec;
  for (size_t i = 0; i < lab_probe_count() && ok; i++) {
    lab_probe_spec(i, o, &spec);
    ok = dump_one(&spec, dir);
  }
  for (size_t i = 0; i < lab_gemm_config_count() && ok; i++) {
    lab_gemm_spec(i, o, &spec);
    ok = dump_one(&spec, dir);
  }
  return ok;
}
