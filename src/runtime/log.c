/* OCLFUSE_VERBOSE lines on stderr. */
#include "runtime/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int verbose_flag;
static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;

static void read_verbose(void) {
  const char *value = getenv("OCLFUSE_VERBOSE");
  verbose_flag = value && value[0] && strcmp(value, "0") != 0;
}

int ocf_verbose(void) {
  pthread_once(&verbose_once, read_verbose);
  return verbose_flag;
}

void ocf_log(const char *fmt, ...) {
  if (!ocf_verbose()) return;
  char line[1024];
  int prefix = snprintf(line, sizeof line, "oclfuse: ");
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(line + prefix, sizeof line - (size_t)prefix - 1, fmt, args);
  va_end(args);
  if (n < 0) return;
  size_t length = strlen(line);
  line[length++] = '\n';
  if (write(STDERR_FILENO, line, length) < 0) return; /* nothing to do about a closed stderr */
}

double ocf_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
