/* A context's messages: to its log callback, or lines on stderr. */
#include "runtime/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int ocf_verbosity_from_env(void) {
  const char *value = getenv("OCLFUSE_VERBOSE");
  return value && value[0] && strcmp(value, "0") != 0 ? OCF_LOG_DEBUG : 0;
}

int ocf_log_wants(const ocf_log_sink *sink, ocf_log_level level) {
  return sink && (int)level <= __atomic_load_n(&sink->level, __ATOMIC_RELAXED);
}

void ocf_log(ocf_log_sink *sink, ocf_log_level level, const char *fmt, ...) {
  if (!ocf_log_wants(sink, level)) return;
  enum { PREFIX = sizeof "oclfuse: " - 1 };
  char line[1024];
  memcpy(line, "oclfuse: ", PREFIX);
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(line + PREFIX, sizeof line - PREFIX - 1, fmt, args);
  va_end(args);
  if (n < 0) return;
  if (sink->lock) pthread_mutex_lock(sink->lock);
  /* Read again under the lock: ocf_context_set_log may have changed the sink meanwhile. */
  if ((int)level <= sink->level) {
    if (sink->fn) {
      sink->fn(sink->user, level, line + PREFIX);
    } else {
      size_t length = strlen(line);
      line[length++] = '\n';
      if (write(STDERR_FILENO, line, length) < 0) { /* nothing to do about a closed stderr */
      }
    }
  }
  if (sink->lock) pthread_mutex_unlock(sink->lock);
}

double ocf_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
