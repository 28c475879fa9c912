/*
 * report.c: the log (one file the driver and every child append to), the rows a child hands
 * back to the driver (a file of one line a row, written as each row finishes), the full result
 * table and the summary printed last (the lines that matter, compact: the lead reads the end of
 * the output).
 */
#include "lab.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAB_MAX_ROWS 1024

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER; /* the builder's threads */
static FILE *log_file;
static int log_echo;
static FILE *rows_file; /* a child's: rows go here instead of the table */
static lab_row rows[LAB_MAX_ROWS];
static size_t row_count;

int lab_log_open(const char *path) {
  log_file = fopen(path, "a");
  /* one buffer for a whole build log, so that each fflush is one append even when another
     process writes to the file at the same time */
  if (log_file) setvbuf(log_file, NULL, _IOFBF, 1 << 20);
  return log_file != NULL;
}

void lab_log_close(void) {
  if (log_file) fclose(log_file);
  log_file = NULL;
}

void lab_log_set_echo(int echo) {
  log_echo = echo;
}

void lab_log(int echo, const char *fmt, ...) {
  va_list args;
  pthread_mutex_lock(&log_lock);
  if (log_file) {
    va_start(args, fmt);
    vfprintf(log_file, fmt, args);
    va_end(args);
    fflush(log_file);
  }
  if (echo && log_echo) {
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    fflush(stdout);
  }
  pthread_mutex_unlock(&log_lock);
}

void lab_log_block(const char *title, const char *text) {
  pthread_mutex_lock(&log_lock);
  if (log_file) {
    fprintf(log_file, "---- %s ----\n%s%s---- end %s ----\n", title, text ? text : "",
            text && *text && text[strlen(text) - 1] != '\n' ? "\n" : "", title);
    fflush(log_file);
  }
  pthread_mutex_unlock(&log_lock);
}

const char *lab_status_name(lab_status s) {
  static const char *names[LAB_STATUS_COUNT] = {"PASS",  "FAIL", "BUILD", "ERROR",
                                                "FAULT", "SKIP", "TIME",  "INFO"};
  return (unsigned)s < LAB_STATUS_COUNT ? names[s] : "?";
}

void lab_row_init(lab_row *row, const char *section, const char *name, const char *shape) {
  memset(row, 0, sizeof *row);
  snprintf(row->section, sizeof row->section, "%s", section);
  snprintf(row->name, sizeof row->name, "%s", name);
  snprintf(row->shape, sizeof row->shape, "%s", shape ? shape : "");
  row->status = LAB_SKIP;
  row->tflops = row->ms = -1.0;
  row->err_mode = row->rel_max = row->rel_mean = row->nrm_max = -1.0;
  row->regs = row->spill = -1;
}

/* ---- a child's rows, through a file ---- */

int lab_rows_to_file(const char *path) {
  rows_file = fopen(path, "a");
  return rows_file != NULL;
}

/* Text fields may hold no tab or newline (the file's separators). */
static void clean(char *text) {
  for (; *text; text++)
    if (*text == '\t' || *text == '\n' || *text == '\r') *text = ' ';
}

static void log_result(const lab_row *row) {
  lab_log(0,
          "RESULT %s %s %s %s tflops=%.2f ms=%.4f err_mode_u=%.3g rel_max=%.3g rel_mean=%.3g "
          "nrm_max=%.3g regs=%d spill=%d | %s\n",
          row->section, row->name, row->shape, lab_status_name(row->status), row->tflops, row->ms,
          row->err_mode, row->rel_max, row->rel_mean, row->nrm_max, row->regs, row->spill,
          row->detail);
}

void lab_row_add(const lab_row *given) {
  lab_row row = *given;
  clean(row.section), clean(row.name), clean(row.shape), clean(row.detail);
  if (rows_file) {
    fprintf(rows_file, "%s\t%s\t%s\t%d\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%d\t%d\t%d\t%s\n",
            row.section, row.name, row.shape, (int)row.status, row.tflops, row.ms, row.err_mode,
            row.rel_max, row.rel_mean, row.nrm_max, row.regs, row.spill, row.timed, row.detail);
    fflush(rows_file);
    return;
  }
  if (row_count < LAB_MAX_ROWS) rows[row_count++] = row;
  log_result(&row);
}

/* Copies field `index` of a tab-separated line (at most size - 1 characters). */
static void field(const char *line, int index, char *out, size_t size) {
  for (int i = 0; i < index && line; i++) {
    line = strchr(line, '\t');
    if (line) line++;
  }
  size_t n = 0;
  while (line && line[n] && line[n] != '\t' && line[n] != '\n')
    n++;
  if (n >= size) n = size - 1;
  if (line) memcpy(out, line, n);
  out[line ? n : 0] = '\0';
}

size_t lab_rows_read(const char *path, lab_row *out, size_t max) {
  FILE *in = fopen(path, "r");
  if (!in) return 0;
  size_t count = 0;
  char line[1024], text[256];
  while (count < max && fgets(line, sizeof line, in)) {
    if (strchr(line, '\n') == NULL) continue; /* a line cut short by the child's end */
    lab_row *r = &out[count];
    field(line, 0, r->section, sizeof r->section);
    field(line, 1, r->name, sizeof r->name);
    field(line, 2, r->shape, sizeof r->shape);
    double *numbers[] = {&r->tflops, &r->ms, &r->err_mode, &r->rel_max, &r->rel_mean, &r->nrm_max};
    field(line, 3, text, sizeof text);
    r->status = (lab_status)atoi(text);
    for (int i = 0; i < 6; i++) {
      field(line, 4 + i, text, sizeof text);
      *numbers[i] = strtod(text, NULL);
    }
    field(line, 10, text, sizeof text);
    r->regs = atoi(text);
    field(line, 11, text, sizeof text);
    r->spill = atoi(text);
    field(line, 12, text, sizeof text);
    r->timed = atoi(text);
    field(line, 13, r->detail, sizeof r->detail);
    if ((unsigned)r->status < LAB_STATUS_COUNT) count++;
  }
  fclose(in);
  return count;
}

const lab_row *lab_table_rows(size_t *count) {
  *count = row_count;
  return rows;
}

/* ---- the table ---- */

static void number(FILE *out, const char *fmt, double v, int width) {
  if (v < 0)
    fprintf(out, "%*s", width, "-");
  else
    fprintf(out, fmt, width, v);
}

static void gemm_columns(FILE *out, const lab_row *r) {
  fprintf(out, "%-36s %-20s %-5s ", r->name, r->shape, lab_status_name(r->status));
  number(out, "%*.1f", r->tflops, 7);
  fputc(' ', out);
  number(out, "%*.3f", r->ms, 8);
  fputc(' ', out);
  number(out, "%*.1f", r->err_mode, 7);
  fputc(' ', out);
  number(out, "%*.2e", r->rel_max, 8);
  fputc(' ', out);
  number(out, "%*.2e", r->rel_mean, 8);
  fprintf(out, " %4d %5d", r->regs, r->spill);
}

static const char gemm_header[] = "%-36s %-20s %-5s %7s %8s %7s %8s %8s %4s %5s %s\n";

void lab_table_write(FILE *out) {
  const char *section = "";
  for (size_t i = 0; i < row_count; i++) {
    const lab_row *r = &rows[i];
    if (strcmp(section, r->section) != 0) {
      section = r->section;
      if (strcmp(section, "probe") == 0) {
        fprintf(out, "\n== probes ==\n%-48s %-6s %s\n", "probe", "result", "detail");
      } else {
        fprintf(out,
                "\n== %s ==   (err_u: max |got-want|/bound vs the mode's own reference, in units "
                "of 2^-24, 16-bit C's rounding included; rel: vs plain fp64)\n",
                section);
        fprintf(out, gemm_header, "config", "shape", "res", "TFLOP/s", "ms", "err_u", "rel_max",
                "rel_mean", "regs", "spill", "detail");
      }
    }
    if (strcmp(section, "probe") == 0) {
      fprintf(out, "%-48s %-6s %s\n", r->name, lab_status_name(r->status), r->detail);
      continue;
    }
    gemm_columns(out, r);
    fprintf(out, " %s\n", r->detail);
  }
}

/* ---- the summary ---- */

/* Of the small (untimed) rows of one configuration: how many there are and passed, the largest
   error of those that passed, the first that did not. */
typedef struct small_tally {
  size_t total, passed, time;
  double worst;
  const lab_row *first_bad;
} small_tally;

static small_tally tally_small(const char *name) {
  small_tally t = {0, 0, 0, -1.0, NULL};
  for (size_t i = 0; i < row_count; i++) {
    const lab_row *r = &rows[i];
    if (strcmp(r->section, "gemm") != 0 || r->timed || strcmp(r->name, name) != 0) continue;
    t.total++;
    if (r->status == LAB_TIME) t.time++;
    if (r->status == LAB_PASS) {
      t.passed++;
      if (r->err_mode > t.worst) t.worst = r->err_mode;
    } else if (!t.first_bad) {
      t.first_bad = r;
    }
  }
  return t;
}

/* 1 for the first small row of each configuration. */
static int first_small_of_name(size_t i) {
  if (strcmp(rows[i].section, "gemm") != 0 || rows[i].timed) return 0;
  for (size_t j = 0; j < i; j++)
    if (strcmp(rows[j].section, "gemm") == 0 && !rows[j].timed &&
        strcmp(rows[j].name, rows[i].name) == 0)
      return 0;
  return 1;
}

/* The small shapes in brief: how many configurations passed them all, the largest error of
   those by mode (the first word of the name), then one line for each that did not. */
static void small_summary(FILE *out) {
  size_t configs = 0, clean = 0, unrun = 0;
  char modes[8][24];
  double worst[8];
  int n_modes = 0;
  for (size_t i = 0; i < row_count; i++) {
    if (!first_small_of_name(i)) continue;
    const small_tally t = tally_small(rows[i].name);
    configs++;
    unrun += t.time == t.total;
    if (t.passed != t.total) continue;
    clean++;
    char mode[24];
    snprintf(mode, sizeof mode, "%s", rows[i].name);
    mode[strcspn(mode, " ")] = '\0';
    int m = 0;
    while (m < n_modes && strcmp(modes[m], mode) != 0)
      m++;
    if (m == n_modes && n_modes < 8) {
      snprintf(modes[n_modes], sizeof modes[0], "%s", mode);
      worst[n_modes++] = -1.0;
    }
    if (m < n_modes && t.worst > worst[m]) worst[m] = t.worst;
  }
  fprintf(out,
          "-- gemm, small shapes (every element checked): %zu of %zu configurations passed all, "
          "%zu not started (time)",
          clean, configs, unrun);
  for (int m = 0; m < n_modes; m++)
    fprintf(out, "%s %s %.1f", m ? "," : "; largest err_u:", modes[m], worst[m]);
  fprintf(out, " --\n");
  for (size_t i = 0; i < row_count; i++) {
    if (!first_small_of_name(i)) continue;
    const small_tally t = tally_small(rows[i].name);
    if (t.passed == t.total || t.time == t.total) continue;
    fprintf(out, "%-34s %zu/%zu PASS; first other: %s %s: %.100s\n", rows[i].name, t.passed,
            t.total, lab_status_name(t.first_bad->status), t.first_bad->shape, t.first_bad->detail);
  }
}

static size_t count_timed_time(void) {
  size_t n = 0;
  for (size_t i = 0; i < row_count; i++)
    n += strcmp(rows[i].section, "gemm") == 0 && rows[i].timed && rows[i].status == LAB_TIME;
  return n;
}

/* The rate of a configuration on a shape, < 0 when it has no passing timed row there. */
static double rate_of(const char *name, const char *shape) {
  for (size_t i = 0; i < row_count; i++)
    if (strcmp(rows[i].section, "gemm") == 0 && rows[i].timed && rows[i].status == LAB_PASS &&
        strcmp(rows[i].name, name) == 0 && strcmp(rows[i].shape, shape) == 0)
      return rows[i].tflops;
  return -1.0;
}

/* One line per timed configuration, its TFLOP/s on the squares and the ragged shape side by
   side, in the order they ran (the candidates first); '*' marks each mode's best at 8192^3
   (mode: the name's first word). Printed last, so that it is the end of the console. */
static void compact_table(FILE *out) {
  static const char *const shapes[] = {"4096^3", "8192^3", "4097x4095x4104"};
  const char *names[256];
  size_t count = 0;
  for (size_t i = 0; i < row_count && count < 256; i++) {
    if (strcmp(rows[i].section, "gemm") != 0 || !rows[i].timed) continue;
    int seen = 0;
    for (size_t j = 0; j < count && !seen; j++)
      seen = strcmp(names[j], rows[i].name) == 0;
    if (!seen) names[count++] = rows[i].name;
  }
  fprintf(out, "-- compact: TFLOP/s (passing rows; '*' the best of its mode at 8192^3; "
               "c1i1 = copies after the first k step, unguarded interior copies) --\n");
  fprintf(out, "%-40s %8s %8s %15s\n", "config", shapes[0], shapes[1], shapes[2]);
  for (size_t j = 0; j < count; j++) {
    const size_t mode_len = strcspn(names[j], " ");
    const double mine = rate_of(names[j], shapes[1]);
    int best = mine > 0;
    for (size_t o = 0; o < count && best; o++)
      if (strncmp(names[o], names[j], mode_len) == 0 && names[o][mode_len] == ' ' &&
          rate_of(names[o], shapes[1]) > mine)
        best = 0;
    fprintf(out, "%-39s%c", names[j], best ? '*' : ' ');
    for (int s = 0; s < 3; s++) {
      const double r = rate_of(names[j], shapes[s]);
      if (r < 0)
        fprintf(out, " %*s", s == 2 ? 15 : 8, "-");
      else
        fprintf(out, " %*.1f", s == 2 ? 15 : 8, r);
    }
    fputc('\n', out);
  }
}

void lab_summary_write(FILE *out, double seconds) {
  size_t count[LAB_STATUS_COUNT] = {0};
  for (size_t i = 0; i < row_count; i++)
    count[rows[i].status]++;
  fprintf(out, "\n==== mma_lab summary (%.0f s; the full table is in mma_table.txt) ====\n",
          seconds);
  fprintf(out, "-- probes --\n");
  for (size_t i = 0; i < row_count; i++)
    if (strcmp(rows[i].section, "probe") == 0)
      fprintf(out, "%-5s %-42s %.85s\n", lab_status_name(rows[i].status), rows[i].name,
              rows[i].detail);
  small_summary(out);
  fprintf(out, "-- gemm, timed (checked on a 64 x 64 sample first; not started (time): %zu) --\n",
          count_timed_time());
  fprintf(out, "%-34s %-16s %-5s %7s %8s %7s %8s %8s %4s %5s\n", "config", "shape", "res",
          "TFLOP/s", "ms", "err_u", "rel_max", "rel_mean", "regs", "spill");
  for (size_t i = 0; i < row_count; i++) {
    const lab_row *r = &rows[i];
    if (strcmp(r->section, "gemm") != 0 || !r->timed || r->status == LAB_TIME) continue;
    fprintf(out, "%-34s %-16s %-5s ", r->name, r->shape, lab_status_name(r->status));
    number(out, "%*.1f", r->tflops, 7);
    fputc(' ', out);
    number(out, "%*.3f", r->ms, 8);
    fputc(' ', out);
    number(out, "%*.1f", r->err_mode, 7);
    fputc(' ', out);
    number(out, "%*.2e", r->rel_max, 8);
    fputc(' ', out);
    number(out, "%*.2e", r->rel_mean, 8);
    fprintf(out, " %4d %5d", r->regs, r->spill);
    if (r->status != LAB_PASS) fprintf(out, " %.70s", r->detail);
    fputc('\n', out);
  }
  fprintf(out, "rows:");
  for (int s = 0; s < LAB_STATUS_COUNT; s++)
    if (count[s]) fprintf(out, " %zu %s", count[s], lab_status_name((lab_status)s));
  fprintf(out, "\n");
  compact_table(out);
}
