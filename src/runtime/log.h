/*
 * Introspection: with OCLFUSE_VERBOSE set to anything but "0" or "", the library writes one line
 * to stderr for every program build (program, options, milliseconds, where it came from: memory,
 * disk cache or source) and every call's plan (kernels, workgroups, tiles), and a warning for
 * every tuning database or cached binary it ignores. Lines start with "oclfuse: ".
 */
#ifndef OCLFUSE_LOG_H
#define OCLFUSE_LOG_H

#include "common.h"

/* Non-zero when OCLFUSE_VERBOSE asks for lines (read once per process). */
int ocf_verbose(void);
/* Writes "oclfuse: <message>\n" to stderr when verbose; one write, so lines of threads do not
   interleave. */
void ocf_log(const char *fmt, ...) OCF_PRINTF(1, 2);
/* Milliseconds from a monotonic clock. */
double ocf_now_ms(void);

#endif /* OCLFUSE_LOG_H */
