/*
 * report.c: the full log (everything, build logs included) and the compact result table printed
 * at the end. Rows are appended under a lock so that the watchdog can print what is finished if
 * the run overruns its time.
 */
#include "lab.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LAB_MAX_ROWS 1024

static FILE *log_file;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static lab_row rows[LAB_MAX_ROWS];
static size_t row_count;

int lab_log_open(const char *path) {
  log_file = fopen(path, "w");
  return log_file != NULL;
}

void lab_log_close(void) {
  if (log_file) fclose(log_file);
  log_file = NULL;
}

void lab_log(int echo, const char *fmt, ...) {
  va_list args;
  pthread_mutex_lock(&lock);
  if (log_file) {
    va_start(args, fmt);
    vfprintf(log_file, fmt, args);
    va_end(args);
    fflush(log_file);
  }
  if (echo) {
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    fflush(stdout);
  }
  pthread_mutex_unlock(&lock);
}

void lab_log_block(const char *title, const char *text) {
  pthread_mutex_lock(&lock);
  if (log_file) {
    fprintf(log_file, "---- %s ----\n%s%s---- end %s ----\n", title, text ? text : "",
            text && *text && text[strlen(text) - 1] != '\n' ? "\n" : "", title);
    fflush(log_file);
  }
  pthread_mutex_unlock(&lock);
}

const char *lab_status_name(lab_status s) {
  switch (s) {
  case LAB_PASS:
    return "PASS";
  case LAB_FAIL:
    return "FAIL";
  case LAB_BUILD:
    return "BUILD";
  case LAB_ERROR:
    return "ERROR";
  case LAB_SKIP:
    return "SKIP";
  case LAB_TIME:
    return "TIME";
  case LAB_INFO:
    return "INFO";
  }
  return "?";
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

void lab_row_add(const lab_row *row) {
  pthread_mutex_lock(&lock);
  if (row_count < LAB_MAX_ROWS) rows[row_count++] = *row;
  if (log_file) {
    fprintf(log_file,
            "RESULT %s %s %s %s tflops=%.2f ms=%.4f err_mode_u=%.3g rel_max=%.3g "
            "rel_mean=%.3g nrm_max=%.3g regs=%d spill=%d | %s\n",
            row->section, row->name, row->shape, lab_status_name(row->status), row->tflops, row->ms,
            row->err_mode, row->rel_max, row->rel_mean, row->nrm_max, row->regs, row->spill,
            row->detail);
    fflush(log_file);
  }
  pthread_mutex_unlock(&lock);
}

static void number(FILE *out, const char *fmt, double v, int width) {
  if (v < 0)
    fprintf(out, "%*s", width, "-");
  else
    fprintf(out, fmt, width, v);
}

static void print_table(FILE *out) {
  const char *section = "";
  for (size_t i = 0; i < row_count; i++) {
    const lab_row *r = &rows[i];
    if (strcmp(section, r->section) != 0) {
      section = r->section;
      if (strcmp(section, "probe") == 0)
        fprintf(out, "\n== probes ==\n%-44s %-6s %s\n", "probe", "result", "detail");
      else
        fprintf(out,
                "\n== %s ==   (err_u: max |got-want|/bound vs the mode's own reference, in units "
                "of 2^-24, 16-bit C's rounding included; rel: vs plain fp64)\n%-34s %-20s %-5s %8s "
                "%8s %8s %9s "
                "%9s %4s %5s "
                "%s\n",
                section, "config", "shape", "res", "TFLOP/s", "ms", "err_u", "rel_max", "rel_mean",
                "regs", "spill", "detail");
    }
    if (strcmp(section, "probe") == 0) {
      fprintf(out, "%-44s %-6s %s\n", r->name, lab_status_name(r->status), r->detail);
      continue;
    }
    fprintf(out, "%-34s %-20s %-5s ", r->name, r->shape, lab_status_name(r->status));
    number(out, "%*.1f", r->tflops, 8);
    fputc(' ', out);
    number(out, "%*.3f", r->ms, 8);
    fputc(' ', out);
    number(out, "%*.1f", r->err_mode, 8);
    fputc(' ', out);
    number(out, "%*.2e", r->rel_max, 9);
    fputc(' ', out);
    number(out, "%*.2e", r->rel_mean, 9);
    fprintf(out, " %4d %5d %s\n", r->regs, r->spill, r->detail);
  }
}

/* The timed rows again, and how many rows ended how: the lines that matter, last. */
static void print_summary(FILE *out) {
  fprintf(out, "\n== timed rows ==\n%-34s %-20s %8s %8s %8s %9s\n", "config", "shape", "TFLOP/s",
          "ms", "err_u", "rel_mean");
  for (size_t i = 0; i < row_count; i++)
    if (rows[i].ms > 0)
      fprintf(out, "%-34s %-20s %8.1f %8.3f %8.1f %9.2e\n", rows[i].name, rows[i].shape,
              rows[i].tflops, rows[i].ms, rows[i].err_mode, rows[i].rel_mean);
  size_t count[LAB_INFO + 1] = {0}, listed = 0;
  fprintf(out, "\n== rows that did not pass (TIME rows only counted) ==\n");
  for (size_t i = 0; i < row_count; i++) {
    const lab_status st = rows[i].status;
    count[st]++;
    if (st != LAB_PASS && st != LAB_INFO && st != LAB_TIME && listed++ < 40)
      fprintf(out, "%-5s %s | %s | %s\n", lab_status_name(st), rows[i].name, rows[i].shape,
              rows[i].detail);
  }
  if (listed > 40) fprintf(out, "(%zu more in the table)\n", listed - 40);
  fprintf(out, "\nrows:");
  for (int s = 0; s <= LAB_INFO; s++)
    if (count[s]) fprintf(out, " %zu %s", count[s], lab_status_name((lab_status)s));
  fprintf(out, "\n");
}

void lab_table_print(void) {
  pthread_mutex_lock(&lock);
  print_table(stdout);
  print_summary(stdout);
  fflush(stdout);
  if (log_file) {
    fprintf(log_file, "\n==== summary ====\n");
    print_table(log_file);
    print_summary(log_file);
    fflush(log_file);
  }
  pthread_mutex_unlock(&lock);
}

void lab_table_write(const char *path) {
  FILE *out = fopen(path, "w");
  if (!out) return;
  pthread_mutex_lock(&lock);
  print_table(out);
  print_summary(out);
  pthread_mutex_unlock(&lock);
  fclose(out);
}
