/*
 * main.c: the options and the clock. Without --child this process is the driver (driver.c),
 * which makes no OpenCL call and runs everything else in children: this same binary with
 * --child KIND (child.c).
 *
 *   mma_lab [--root DIR] [--out DIR] [--device TEXT] [--budget SECONDS] [--threads N] [--quick]
 *           [--no-probes] [--kernel FILE] [--scale N] [--no-summary]
 *   mma_lab --dump DIR     (writes every program's source and options, for offline checks)
 * --kernel runs another file with the GEMM's contract instead of cl/matmul_mma_nv.cl (the lab's
 * own check on PoCL: --no-probes --kernel .../ref_kernel.cl --quick); --scale N divides the
 * large shapes by N (the same check of the timed passes); --no-summary leaves the summary to
 * mma_summary.txt (run.sh prints it last).
 *
 *   mma_lab --child build|probe|gemm --out DIR --items I,J,.. [--config C] [--rows FILE]
 *           [--choice LADDR,GADDR,ASM,INLINE] [--echo] (and the options above)
 * is what the driver starts; not for use by hand.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct timespec started;

double lab_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - started.tv_sec) + (double)(t.tv_nsec - started.tv_nsec) * 1e-9;
}

static void usage(void) {
  fprintf(stderr,
          "usage: mma_lab [--root DIR] [--out DIR] [--device TEXT] [--budget SECONDS] "
          "[--threads N] [--quick] [--no-probes] [--kernel FILE] [--scale N] [--no-summary] | "
          "--dump DIR\n");
}

/* "1,2,3" -> items; returns the count (at most max), or -1 on anything else. */
static long parse_items(const char *text, size_t *items, size_t max) {
  size_t n = 0;
  while (*text) {
    char *end;
    const unsigned long v = strtoul(text, &end, 10);
    if (end == text || n == max) return -1;
    items[n++] = v;
    text = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return -1;
  }
  return (long)n;
}

int main(int argc, char **argv) {
  clock_gettime(CLOCK_MONOTONIC, &started);
  lab_options o = {".", ".", NULL, NULL, 150.0, 16, 0, 1, 1, LAB_CHOICE_DEFAULT};
  const char *dump = NULL, *child = NULL, *rows = NULL;
  int config = -1, echo = 0, summary = 1;
  static size_t items[256];
  long count = 0;
  for (int i = 1; i < argc; i++) {
    const int more = i + 1 < argc;
    if (strcmp(argv[i], "--root") == 0 && more)
      o.root = argv[++i];
    else if (strcmp(argv[i], "--out") == 0 && more)
      o.work = argv[++i];
    else if (strcmp(argv[i], "--device") == 0 && more)
      o.device = argv[++i];
    else if (strcmp(argv[i], "--budget") == 0 && more)
      o.budget = atof(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && more)
      o.threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--quick") == 0)
      o.quick = 1;
    else if (strcmp(argv[i], "--scale") == 0 && more)
      o.scale = atoi(argv[++i]);
    else if (strcmp(argv[i], "--no-probes") == 0)
      o.probes = 0;
    else if (strcmp(argv[i], "--kernel") == 0 && more)
      o.kernel_path = argv[++i];
    else if (strcmp(argv[i], "--dump") == 0 && more)
      dump = argv[++i];
    else if (strcmp(argv[i], "--no-summary") == 0)
      summary = 0;
    else if (strcmp(argv[i], "--child") == 0 && more)
      child = argv[++i];
    else if (strcmp(argv[i], "--config") == 0 && more)
      config = atoi(argv[++i]);
    else if (strcmp(argv[i], "--items") == 0 && more)
      count = parse_items(argv[++i], items, sizeof items / sizeof items[0]);
    else if (strcmp(argv[i], "--rows") == 0 && more)
      rows = argv[++i];
    else if (strcmp(argv[i], "--echo") == 0)
      echo = 1;
    else if (strcmp(argv[i], "--choice") == 0 && more)
      sscanf(argv[++i], "%d,%d,%d,%d", &o.choice.laddr, &o.choice.gaddr, &o.choice.asm_ok,
             &o.choice.inline_form);
    else {
      usage();
      return 2;
    }
  }
  if (o.threads < 1) o.threads = 1;
  if (o.scale < 1) o.scale = 1;
  if (dump) {
    mkdir(dump, 0755);
    const int ok = lab_dump(&o, dump);
    if (!ok)
      fprintf(stderr, "mma_lab: cannot write under %s (or read sources under %s)\n", dump, o.root);
    return ok ? 0 : 1;
  }
  if (child) {
    const int known =
        strcmp(child, "build") == 0 || strcmp(child, "probe") == 0 ||
        (strcmp(child, "gemm") == 0 && config >= 0 && (size_t)config < lab_gemm_config_count());
    for (long i = 0; i < count && known; i++)
      if (strcmp(child, "probe") == 0  ? items[i] >= lab_probe_count()
          : strcmp(child, "gemm") == 0 ? items[i] >= lab_gemm_shape_count()
                                       : items[i] >= lab_probe_count() + lab_gemm_config_count()) {
        count = -1;
        break;
      }
    if (!known || count < 0) {
      usage();
      return 2;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/mma_lab.log", o.work);
    lab_log_open(path);
    lab_log_set_echo(echo);
    const int status = lab_child_main(&o, child, config, items, (size_t)count, rows);
    lab_log_close();
    fflush(NULL);
    /* after a fault, leave without running the OpenCL library's exit handlers */
    if (status != 0) _exit(status);
    return 0;
  }
  char self[1024];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0)
    self[len] = '\0';
  else
    snprintf(self, sizeof self, "%s", argv[0]);
  return lab_driver_main(&o, self, summary);
}
