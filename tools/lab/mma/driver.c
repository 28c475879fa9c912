/*
 * driver.c: the lab's plan and its children. The driver makes no OpenCL call: on NVIDIA a kernel
 * that faults destroys the CUDA state of its process (the first GPU run lost every probe and
 * GEMM after one misaligned cp.async that way), so every piece of work runs in a child process
 * (this same binary with --child, child.c) and comes back as rows through a file. A child that
 * faults, dies or hangs (killed at its time limit) costs the row it was on: the driver records
 * FAULT for it and starts a new child for the rest of the job (after two faults in one GEMM job,
 * the rest is skipped). Probes that cannot fault share a process with their group.
 *
 * Order, most telling first: the builder starts (every program, in parallel threads, while the
 * rest goes on; then it holds its context to the end, which keeps the GPU initialised); the probes,
 * one process each (the GEMM's address forms are chosen from them); the default of each mode on the
 * small checked shapes, then 4096^3 and 8192^3; a few alternative tile configurations likewise; the
 * best of each mode (by 8192^3) on ragged and rectangular shapes; the transposes; the general load
 * paths; last the probes that are expected to fault. Before each child the budget is checked: what
 * does not fit is a TIME row.
 */
#define _POSIX_C_SOURCE 200809L
#include "lab.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ITEMS 64

typedef struct job {
  const char *kind; /* "probe" or "gemm" */
  int config;       /* gemm: the configuration */
  size_t items[MAX_ITEMS];
  size_t count;
  char program[32]; /* the builder's program the job needs */
} job;

static lab_options run_options; /* the run's, with the probes' choice once they are done */
static const lab_options *opts = &run_options;
static const char *self_path;
static pid_t builder = -1;
static char rows_path[1100];

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* ---- children ---- */

static void append_list(char *out, size_t size, const size_t *items, size_t count) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < count && used < size; i++)
    used += (size_t)snprintf(out + used, size - used, "%s%zu", i ? "," : "", items[i]);
}

/* Starts `self --child kind ...` with the run's options. */
static pid_t spawn(const char *kind, int config, const size_t *items, size_t count, int echo) {
  static char item_text[MAX_ITEMS * 2 * 8], config_text[16], scale_text[16], threads_text[16],
      choice_text[64];
  append_list(item_text, sizeof item_text, items, count);
  snprintf(config_text, sizeof config_text, "%d", config);
  snprintf(scale_text, sizeof scale_text, "%d", opts->scale);
  snprintf(threads_text, sizeof threads_text, "%d", opts->threads);
  snprintf(choice_text, sizeof choice_text, "%d,%d,%d,%d", opts->choice.laddr, opts->choice.gaddr,
           opts->choice.asm_ok, opts->choice.inline_form);
  const char *argv[32];
  int n = 0;
  argv[n++] = self_path;
  argv[n++] = "--child";
  argv[n++] = kind;
  argv[n++] = "--root";
  argv[n++] = opts->root;
  argv[n++] = "--out";
  argv[n++] = opts->work;
  argv[n++] = "--config";
  argv[n++] = config_text;
  argv[n++] = "--items";
  argv[n++] = item_text;
  argv[n++] = "--rows";
  argv[n++] = rows_path;
  argv[n++] = "--scale";
  argv[n++] = scale_text;
  argv[n++] = "--threads";
  argv[n++] = threads_text;
  argv[n++] = "--choice";
  argv[n++] = choice_text;
  if (opts->device) argv[n++] = "--device", argv[n++] = opts->device;
  if (opts->kernel_path) argv[n++] = "--kernel", argv[n++] = opts->kernel_path;
  if (echo) argv[n++] = "--echo";
  argv[n] = NULL;
  fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execv(self_path, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

/* Waits for a child until `deadline` (lab_now()), killing it then. Returns its exit status, or
   -1 when it died of a signal or was killed; `how` says which. */
static int wait_child(pid_t pid, double deadline, char *how, size_t size) {
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) {
      snprintf(how, size, "lost track of the child process");
      return -1;
    }
    if (lab_now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      snprintf(how, size, "killed after its time limit (hung?)");
      return -1;
    }
    sleep_ms(5);
  }
  if (WIFEXITED(status)) {
    snprintf(how, size, "exit status %d", WEXITSTATUS(status));
    return WEXITSTATUS(status);
  }
  snprintf(how, size, "died of signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
  return -1;
}

/* The builder's programs (item numbers of `--child build`), and their file names. */
static size_t programs[MAX_ITEMS * 2], program_count;
static int builder_starts;
/* Programs a builder was building when it died: their children build them, alone. */
static int suspect[MAX_ITEMS * 2];

static void program_id(size_t item, char *id, size_t size) {
  if (item < lab_probe_count())
    snprintf(id, size, "probe_%02zu", item);
  else
    snprintf(id, size, "gemm_%02zu", item - lab_probe_count());
}

/* Starts a builder for the programs not yet started by an earlier one (a builder that died took
   the ones it was building with it: those are left to their own children). */
static void start_builder(void) {
  size_t todo[MAX_ITEMS * 2], n = 0;
  for (size_t i = 0; i < program_count; i++) {
    char id[32];
    program_id(programs[i], id, sizeof id);
    if (!lab_build_started(opts->work, id)) todo[n++] = programs[i];
  }
  builder = n ? spawn("build", -1, todo, n, builder_starts == 0) : -1;
  builder_starts++;
}

static int is_suspect(const char *id) {
  for (size_t i = 0; i < program_count; i++) {
    char other[32];
    program_id(programs[i], other, sizeof other);
    if (suspect[i] && strcmp(other, id) == 0) return 1;
  }
  return 0;
}

/* Waits until the builder has finished a program (or is gone, or 90 s have passed: then the
   child builds it from source itself). */
static void wait_for_program(const char *id) {
  const double give_up = lab_now() + 90.0;
  while (builder > 0 && !lab_build_done(opts->work, id) && !is_suspect(id)) {
    int status;
    if (waitpid(builder, &status, WNOHANG) == builder) {
      for (size_t i = 0; i < program_count; i++) {
        char other[32];
        program_id(programs[i], other, sizeof other);
        if (lab_build_started(opts->work, other) && !lab_build_done(opts->work, other))
          suspect[i] = 1;
      }
      lab_log(1, "builder ended (%s %d) before building %s%s\n",
              WIFEXITED(status) ? "exit status" : "signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), id,
              builder_starts < 6 ? ": starting another for what it had not started"
                                 : ": children build from source");
      builder = -1;
      if (builder_starts < 6) start_builder();
      continue;
    }
    if (lab_now() > opts->budget || lab_now() > give_up) {
      lab_log(1, "still no %s from the builder after 90 s: the child builds it\n", id);
      return;
    }
    sleep_ms(10);
  }
}

/* ---- rows ---- */

static void progress(const lab_row *r) {
  char numbers[64] = "";
  if (r->tflops >= 0) snprintf(numbers, sizeof numbers, " %.1f TFLOP/s", r->tflops);
  if (r->err_mode >= 0)
    snprintf(numbers + strlen(numbers), sizeof numbers - strlen(numbers), " err_u %.1f",
             r->err_mode);
  printf("[%6.1f s] %-5s %-5s %s%s%s |%s %.80s\n", lab_now(), lab_status_name(r->status),
         r->section, r->name, r->shape[0] ? " | " : "", r->shape, numbers, r->detail);
  fflush(stdout);
}

static void add_row(const lab_row *row) {
  lab_row_add(row);
  progress(row);
}

/* A row the driver writes itself for item i of a job (no child wrote one); echo: show it on
   the console. */
static void add_own_row(const job *j, size_t i, lab_status status, const char *detail, int echo) {
  lab_row row;
  if (strcmp(j->kind, "probe") == 0) {
    lab_row_init(&row, "probe", lab_probe_name(j->items[i]), "");
  } else {
    lab_gemm_info info;
    lab_gemm_describe((size_t)j->config, &info);
    lab_row_init(&row, "gemm", info.name, lab_gemm_shape_name(j->items[i]));
    row.timed = lab_gemm_shape_timed(j->items[i]);
  }
  row.status = status;
  snprintf(row.detail, sizeof row.detail, "%s", detail);
  lab_row_add(&row);
  if (echo) progress(&row);
}

/* ---- jobs ---- */

static double item_seconds(const job *j, size_t i) {
  if (strcmp(j->kind, "probe") == 0) return 1.0;
  return lab_gemm_shape_seconds(j->items[i], opts->scale);
}

/* Runs a job: children until every item has a row, the budget is spent, or (a GEMM job) two
   rows faulted. */
static void run_job(const job *j) {
  size_t next = 0;
  int faults = 0;
  while (next < j->count) {
    /* the items that fit the budget: a process, a context and a program, then each item */
    double need = 1.0;
    size_t fit = 0;
    while (next + fit < j->count && lab_now() + need + item_seconds(j, next + fit) <= opts->budget)
      need += item_seconds(j, next + fit++);
    if (fit == 0) { /* in the table row by row, on the console in one line */
      for (size_t i = next; i < j->count; i++)
        add_own_row(j, i, LAB_TIME, "not started: the time budget is spent", 0);
      lab_gemm_info info;
      if (strcmp(j->kind, "gemm") == 0) lab_gemm_describe((size_t)j->config, &info);
      printf("[%6.1f s] TIME  %-5s %s: %zu rows not started (budget)\n", lab_now(), j->kind,
             strcmp(j->kind, "probe") == 0 ? lab_probe_name(j->items[0]) : info.name,
             j->count - next);
      return;
    }
    if (strcmp(j->kind, "probe") == 0) /* a program each */
      for (size_t i = next; i < next + fit; i++) {
        char id[32];
        program_id(j->items[i], id, sizeof id);
        wait_for_program(id);
      }
    else
      wait_for_program(j->program);
    remove(rows_path);
    const pid_t pid = spawn(j->kind, j->config, j->items + next, fit, 0);
    char how[96];
    int code = -1;
    if (pid < 0) {
      snprintf(how, sizeof how, "fork failed");
    } else {
      double deadline = lab_now() + 15.0 + 3.0 * need;
      if (deadline > opts->budget + 25.0) deadline = opts->budget + 25.0;
      code = wait_child(pid, deadline, how, sizeof how);
    }
    lab_row rows[MAX_ITEMS];
    const size_t got = lab_rows_read(rows_path, rows, fit);
    for (size_t i = 0; i < got; i++) {
      add_row(&rows[i]);
      if (rows[i].status == LAB_FAULT) faults++;
    }
    const size_t end = next + fit; /* what this child was given */
    next += got;
    if (code != 0 && (got == 0 || rows[got - 1].status != LAB_FAULT) && next < end) {
      char detail[160];
      snprintf(detail, sizeof detail, "the child process ended without its row: %s", how);
      add_own_row(j, next++, LAB_FAULT, detail, 1);
      faults++;
    } else if (code == 0 && next < end) { /* should not happen: ended early, no fault */
      add_own_row(j, next++, LAB_ERROR, "the child process ended without its row", 1);
    }
    if (faults >= 2 && strcmp(j->kind, "gemm") == 0) { /* probes: each its own answer */
      for (size_t i = next; i < j->count; i++)
        add_own_row(j, i, LAB_SKIP, "skipped: two faults in this job", 1);
      return;
    }
  }
}

/* Probe `first` and, when it belongs to a group, its neighbours of the same group, in one job;
   returns the probe after them. */
static size_t probe_job(size_t first) {
  job j = {"probe", -1, {first}, 1, ""};
  const int group = lab_probe_group(first);
  while (group > 0 && first + j.count < lab_probe_count() &&
         lab_probe_group(first + j.count) == group && j.count < MAX_ITEMS) {
    j.items[j.count] = first + j.count;
    j.count++;
  }
  run_job(&j);
  return first + j.count;
}

/* A GEMM job: the small shapes (tight ones for the general load paths) and the timed ones its
   configuration asks for, or the rectangles. */
static void gemm_job(size_t config, int rect) {
  lab_gemm_info info;
  lab_gemm_describe(config, &info);
  job j = {"gemm", (int)config, {0}, 0, ""};
  program_id(lab_probe_count() + config, j.program, sizeof j.program);
  if (rect) {
    j.count = lab_gemm_group(LAB_GROUP_RECT, j.items, MAX_ITEMS);
  } else {
    j.count = lab_gemm_group(info.tight ? LAB_GROUP_TIGHT : LAB_GROUP_SMALL, j.items, MAX_ITEMS);
    const int group = info.timed_shapes == LAB_SHAPES_SQUARES   ? LAB_GROUP_SQUARES
                      : info.timed_shapes == LAB_SHAPES_4096    ? LAB_GROUP_4096
                      : info.timed_shapes == LAB_SHAPES_GENERAL ? LAB_GROUP_GENERAL
                      : info.timed_shapes == LAB_SHAPES_NEW     ? LAB_GROUP_NEW
                                                                : -1;
    if (group >= 0 && !opts->quick)
      j.count += lab_gemm_group(group, j.items + j.count, MAX_ITEMS - j.count);
  }
  run_job(&j);
}

/* ---- what the probes decided ---- */

/* The smallest static local memory (bytes declared) that a probe could not launch, 0 if none. */
static int local_limit(void) {
  size_t count;
  const lab_row *rows = lab_table_rows(&count);
  int limit = 0;
  for (size_t p = 0; p < lab_probe_count(); p++) {
    const int bytes = lab_probe_local_bytes(p);
    if (!bytes) continue;
    for (size_t r = 0; r < count; r++)
      if (strcmp(rows[r].section, "probe") == 0 && strcmp(rows[r].name, lab_probe_name(p)) == 0 &&
          rows[r].status != LAB_PASS && (limit == 0 || bytes < limit))
        limit = bytes;
  }
  return limit;
}

/* The GEMM rows of a configuration that cannot run: SKIP, with why. */
static int skip_for_local(size_t config, int limit) {
  lab_gemm_info info;
  lab_gemm_describe(config, &info);
  if (!limit || info.local_bytes < limit) return 0;
  job j = {"gemm", (int)config, {0}, 0, ""};
  j.count = lab_gemm_group(info.tight ? LAB_GROUP_TIGHT : LAB_GROUP_SMALL, j.items, MAX_ITEMS);
  char detail[160];
  snprintf(detail, sizeof detail,
           "not run: %d bytes of local memory, and the probe of %d bytes did not pass",
           info.local_bytes, limit);
  for (size_t i = 0; i < j.count; i++)
    add_own_row(&j, i, LAB_SKIP, detail, i == 0);
  return 1;
}

/* The sweep configuration of a mode with the best passing rate at 8192^3 (else 4096^3), or -1. */
static int best_of(const char *mode) {
  size_t count;
  const lab_row *rows = lab_table_rows(&count);
  const char *shapes[2] = {"8192^3", "4096^3"};
  for (int s = 0; s < 2; s++) {
    int best = -1;
    double top = 0.0;
    for (size_t c = 0; c < lab_gemm_config_count(); c++) {
      lab_gemm_info info;
      lab_gemm_describe(c, &info);
      if (!info.sweep || strcmp(info.mode, mode) != 0) continue;
      for (size_t r = 0; r < count; r++)
        if (strcmp(rows[r].name, info.name) == 0 && rows[r].status == LAB_PASS &&
            strncmp(rows[r].shape, shapes[s], strlen(shapes[s])) == 0 && rows[r].tflops > top) {
          top = rows[r].tflops;
          best = (int)c;
        }
    }
    if (best >= 0) {
      lab_gemm_info info;
      lab_gemm_describe((size_t)best, &info);
      lab_log(1, "best %s: %s, %.1f TFLOP/s at %s\n", mode, info.name, top, shapes[s]);
      return best;
    }
  }
  return -1;
}

/* ---- the run ---- */

static void clear_bin(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  char path[1600];
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    remove(path);
  }
  closedir(d);
}

static void run_gemm_role(int role, int limit) {
  for (size_t c = 0; c < lab_gemm_config_count(); c++) {
    lab_gemm_info info;
    lab_gemm_describe(c, &info);
    if (info.role == role && !skip_for_local(c, limit)) gemm_job(c, 0);
  }
}

int lab_driver_main(const lab_options *given, const char *self, int summary) {
  run_options = *given;
  const lab_options *o = &run_options;
  self_path = self;
  char path[1200];
  mkdir(o->work, 0755);
  snprintf(path, sizeof path, "%s/bin", o->work);
  mkdir(path, 0755);
  clear_bin(path); /* a binary from another run must not stand in for this one's sources */
  snprintf(rows_path, sizeof rows_path, "%s/child.rows", o->work);
  snprintf(path, sizeof path, "%s/mma_lab.log", o->work);
  FILE *fresh = fopen(path, "w");
  if (fresh) fclose(fresh);
  if (!lab_log_open(path)) {
    fprintf(stderr, "mma_lab: cannot write %s\n", path);
    return 1;
  }
  lab_log_set_echo(1);
  lab_log(1,
          "mma_lab: root %s, budget %.0f s, %d build threads%s; a process for each probe that "
          "could fault, each probe group and each GEMM job\n",
          o->root, o->budget, o->threads, o->quick ? ", quick" : "");

  /* the builder: probes first, then the configurations in the order they run */
  for (size_t p = 0; p < lab_probe_count() && o->probes; p++)
    programs[program_count++] = p;
  const int roles[] = {LAB_ROLE_NEW, LAB_ROLE_DEFAULT, LAB_ROLE_ALT, LAB_ROLE_TRANS,
                       LAB_ROLE_GENERAL};
  for (int r = 0; r < 5; r++)
    for (size_t c = 0; c < lab_gemm_config_count(); c++) {
      lab_gemm_info info;
      lab_gemm_describe(c, &info);
      if (info.role == roles[r]) programs[program_count++] = lab_probe_count() + c;
    }
  start_builder();

  /* The candidates first, built with the forms the probes chose last time (the kernel's
     defaults): what the run is for, before anything else can use up its time. */
  run_gemm_role(LAB_ROLE_NEW, 0);

  if (o->probes) {
    for (size_t p = 0; p < lab_probe_count(); p++)
      if (lab_probe_group(p) >= 0) p = probe_job(p) - 1;
    size_t count;
    const lab_row *rows = lab_table_rows(&count);
    lab_probe_choice choice;
    lab_probe_choose(rows, count, &choice);
    lab_log(1,
            "probes done at %.1f s: inline asm %s, OCF_MMA_LADDR %d, OCF_MMA_GADDR %d, "
            "OCF_MMA_INLINE %d (-1: none worked; the GEMM is built with 0 then)\n",
            lab_now(),
            choice.asm_ok == 1   ? "__asm__"
            : choice.asm_ok == 2 ? "asm"
                                 : "(neither built)",
            choice.laddr, choice.gaddr, choice.inline_form);
    run_options.choice = choice;
  }
  const int limit = local_limit();
  if (limit) lab_log(1, "static local memory: %d bytes did not launch\n", limit);

  /* the defaults, then the alternatives: small shapes, then the timed ones */
  run_gemm_role(LAB_ROLE_DEFAULT, limit);
  run_gemm_role(LAB_ROLE_ALT, limit);
  /* the best of each mode, named in the log (the rectangular shapes were the second run's) */
  const char *modes[] = {"bf16", "f16", "tf32", "3xtf32"};
  for (int m = 0; m < 4 && !o->quick; m++)
    best_of(modes[m]);
  run_gemm_role(LAB_ROLE_TRANS, limit);
  run_gemm_role(LAB_ROLE_GENERAL, limit);
  for (size_t p = 0; p < lab_probe_count() && o->probes; p++)
    if (lab_probe_group(p) < 0) probe_job(p);

  if (builder > 0) { /* done building, it holds its context until now */
    int status;
    kill(builder, SIGKILL);
    waitpid(builder, &status, 0);
  }
  snprintf(path, sizeof path, "%s/mma_table.txt", o->work);
  FILE *table = fopen(path, "w");
  if (table) {
    lab_table_write(table);
    lab_summary_write(table, lab_now());
    fclose(table);
  }
  snprintf(path, sizeof path, "%s/mma_summary.txt", o->work);
  FILE *brief = fopen(path, "w");
  if (brief) {
    lab_summary_write(brief, lab_now());
    fclose(brief);
  }
  if (summary) lab_summary_write(stdout, lab_now());
  lab_log(1, "mma_lab: finished in %.1f s; %s/mma_table.txt (full), mma_summary.txt, mma_lab.log\n",
          lab_now(), o->work);
  lab_log_close();
  return 0;
}
