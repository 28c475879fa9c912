/*
 * main.c: the lab's order of work and its clock. One invocation: device facts, the probes, the
 * GEMM builds (in parallel), then the GEMM runs from the cheapest and most telling to the
 * longest, each checked against its budget; the table at the end. A watchdog thread prints the
 * table so far and exits if the run is stuck past the hard limit (a hung kernel cannot be
 * cancelled; exiting the process releases the GPU).
 *
 *   mma_lab [--root DIR] [--out DIR] [--device TEXT] [--budget SECONDS] [--threads N] [--quick]
 *           [--no-probes] [--kernel FILE] [--scale N]
 *   mma_lab --dump DIR     (writes every program's source and options, for offline checks)
 * --kernel runs another file with the GEMM's contract instead of cl/matmul_mma_nv.cl (the lab's
 * own check on PoCL: --no-probes --kernel lab/mma/ref_kernel.cl --quick); --scale N divides the
 * large shapes by N (the same check of the timed passes).
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct timespec started;
static double soft_budget = 200.0, hard_limit = 230.0;
static pthread_mutex_t activity_lock = PTHREAD_MUTEX_INITIALIZER;
static char activity[192] = "starting";
static char table_path[1024];

double lab_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - started.tv_sec) + (double)(t.tv_nsec - started.tv_nsec) * 1e-9;
}

int lab_time_left(double need) {
  return lab_now() + need <= soft_budget;
}

void lab_set_activity(const char *what) {
  pthread_mutex_lock(&activity_lock);
  snprintf(activity, sizeof activity, "%s", what);
  pthread_mutex_unlock(&activity_lock);
}

static void *watchdog(void *arg) {
  (void)arg;
  while (lab_now() < hard_limit)
    sleep(1);
  char what[192];
  pthread_mutex_lock(&activity_lock);
  snprintf(what, sizeof what, "%s", activity);
  pthread_mutex_unlock(&activity_lock);
  lab_log(1, "\nWATCHDOG: still busy after %.0f s (%s); printing what is done and exiting\n",
          lab_now(), what);
  lab_table_print();
  if (*table_path) lab_table_write(table_path);
  lab_log_close();
  _exit(3);
}

static void usage(void) {
  fprintf(stderr,
          "usage: mma_lab [--root DIR] [--out DIR] [--device TEXT] [--budget SECONDS] "
          "[--threads N] [--quick] [--no-probes] [--kernel FILE] [--scale N] | --dump DIR\n");
}

int main(int argc, char **argv) {
  clock_gettime(CLOCK_MONOTONIC, &started);
  const char *root = ".", *out = ".", *device = NULL, *dump = NULL, *kernel = NULL;
  int threads = 16, quick = 0, probes = 1, scale = 1;
  for (int i = 1; i < argc; i++) {
    const int more = i + 1 < argc;
    if (strcmp(argv[i], "--root") == 0 && more)
      root = argv[++i];
    else if (strcmp(argv[i], "--out") == 0 && more)
      out = argv[++i];
    else if (strcmp(argv[i], "--device") == 0 && more)
      device = argv[++i];
    else if (strcmp(argv[i], "--budget") == 0 && more)
      soft_budget = atof(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && more)
      threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp(argv[i], "--scale") == 0 && more)
      scale = atoi(argv[++i]);
    else if (strcmp(argv[i], "--no-probes") == 0)
      probes = 0;
    else if (strcmp(argv[i], "--kernel") == 0 && more)
      kernel = argv[++i];
    else if (strcmp(argv[i], "--dump") == 0 && more)
      dump = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  if (dump) {
    mkdir(dump, 0755);
    const int ok = lab_probes_dump(root, dump) && lab_gemm_dump(root, dump);
    if (!ok)
      fprintf(stderr, "mma_lab: cannot write under %s (or read sources under %s)\n", dump, root);
    return ok ? 0 : 1;
  }
  hard_limit = soft_budget + 30.0;
  if (threads < 1) threads = 1;
  char path[1024];
  mkdir(out, 0755);
  snprintf(path, sizeof path, "%s/mma_lab.log", out);
  if (!lab_log_open(path)) {
    fprintf(stderr, "mma_lab: cannot write %s\n", path);
    return 1;
  }
  snprintf(table_path, sizeof table_path, "%s/mma_table.txt", out);
  pthread_t dog;
  pthread_create(&dog, NULL, watchdog, NULL);
  lab_log(1, "mma_lab: root %s, budget %.0f s (hard limit %.0f s), %d build threads%s\n", root,
          soft_budget, hard_limit, threads, quick ? ", quick" : "");

  lab_env env;
  if (!lab_env_open(&env, device)) {
    lab_log_close();
    return 1;
  }
  lab_probe_choice choice = {0, 0, 1, 0}; /* without probes: the kernel's defaults */
  if (probes) lab_probes_run(&env, root, threads, &choice);
  lab_log(1, "probes done at %.1f s\n", lab_now());

  char ptx_dir[1024];
  snprintf(ptx_dir, sizeof ptx_dir, "%s/ptx", out);
  mkdir(ptx_dir, 0755);
  lab_gemm_options options = {quick, threads, ptx_dir, kernel, scale};
  lab_gemm_run(&env, root, &choice, &options);
  lab_log(1, "gemm done at %.1f s\n", lab_now());

  lab_table_print();
  lab_table_write(table_path);
  lab_env_close(&env);
  lab_log(1, "mma_lab: finished in %.1f s; log %s/mma_lab.log, table %s\n", lab_now(), out,
          table_path);
  lab_log_close();
  return 0;
}
