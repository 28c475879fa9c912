/*
 * The OpenCL C sources embedded in the library. The table itself is generated at build time
 * (cmake/embed_kernels.cmake writes program_sources.c and programs.h from one list), so program
 * ids and sources cannot drift apart.
 */
#ifndef OCLFUSE_SOURCES_H
#define OCLFUSE_SOURCES_H

#include "programs.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ocf_program_source {
  const char *file; /* "add.cl" */
  const unsigned char *text;
  size_t length;   /* bytes, no terminator counted (text is NUL-terminated too) */
  uint64_t digest; /* the first 64 bits of the file's SHA-256: part of every program cache key */
} ocf_program_source;

/* Generated: the sources in ocf_program_id order, and cl/common.cl, the first source string of
   every program. */
extern const ocf_program_source ocf_program_sources[OCF_PROGRAM_COUNT];
extern const ocf_program_source ocf_common_source;

/* The source of a program; NULL for an id out of range. */
const ocf_program_source *ocf_program_source_get(ocf_program_id id);

#endif /* OCLFUSE_SOURCES_H */
