/*
 * Introspection: messages of a context (program builds, binaries stored, where the tuning came
 * from, tuning databases and cached binaries ignored, each call's plan), at the levels of
 * ocf_log_level, delivered to the context's sink: its log callback, or stderr as lines that start
 * with "oclfuse: ". The sink's verbosity is resolved when the context is created
 * (ocf_context_config, else OCLFUSE_VERBOSE: anything but "" or "0" lets every level through).
 */
#ifndef OCLFUSE_LOG_H
#define OCLFUSE_LOG_H

#include "common.h"

#include <pthread.h>

/* Where a context's messages go. `level` (the most detailed level delivered, 0: none) is read
   without the lock, atomically, so that a call pays no lock for a message nobody wants; `fn` and
   `user` change only under `lock`, which also serializes the deliveries. */
typedef struct ocf_log_sink {
  int level;
  ocf_log_fn fn; /* NULL: stderr */
  void *user;
  pthread_mutex_t *lock; /* NULL: the sink is used by one thread only (before a context exists) */
} ocf_log_sink;

/* The level OCLFUSE_VERBOSE asks for (read now): OCF_LOG_DEBUG when set to anything but "" or
   "0", else 0. */
int ocf_verbosity_from_env(void);
/* Delivers "<message>" at `level` when the sink lets that level through: to its callback, or to
   stderr as "oclfuse: <message>\n" in one write (so lines of threads do not interleave). */
void ocf_log(ocf_log_sink *sink, ocf_log_level level, const char *fmt, ...) OCF_PRINTF(3, 4);
/* Whether a message at `level` would be delivered. */
int ocf_log_wants(const ocf_log_sink *sink, ocf_log_level level);
/* Milliseconds from a monotonic clock. */
double ocf_now_ms(void);

#endif /* OCLFUSE_LOG_H */
