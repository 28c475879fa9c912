/*
 * The tuning databases shipped inside the library, for devices someone has measured with
 * `oclfuse tune` (the .tuning files in src/tuning/shipped/, embedded at build time by
 * cmake/embed_files.cmake). In a shipped database the vendor and device lines are matched as
 * case-insensitive substrings of the device's vendor (or platform) and name, and the driver and
 * library lines are informative: a measured device's values beat the built-in guesses on any
 * driver.
 */
#ifndef OCLFUSE_SHIPPED_H
#define OCLFUSE_SHIPPED_H

#include <stddef.h>

typedef struct ocf_embedded_file {
  const char *name; /* "nvidia-h200.tuning" */
  const char *text; /* NUL-terminated */
  size_t length;
} ocf_embedded_file;

/* The shipped databases (generated). */
const ocf_embedded_file *ocf_shipped_databases(size_t *count);

#endif /* OCLFUSE_SHIPPED_H */
