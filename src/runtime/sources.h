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
  /* A source built between cl/common.cl and this one (OCLFUSE_FRAGMENTS in CMakeLists.txt), or
     NULL; its digest is part of the program's key too. */
  const struct ocf_program_source *fragment;
} ocf_program_source;

/* Generated: the sources in ocf_program_id order, and cl/common.cl, the first source string of
   every program. */
extern const ocf_program_source ocf_program_sources[OCF_PROGRAM_COUNT];
extern const ocf_program_source ocf_common_source;

/* The source of a program; NULL for an id out of range. */
const ocf_program_source *ocf_program_source_get(ocf_program_id id);

/* Whether the program's PTX is retargeted to sm_90a before it is used (src/ptx_retarget.h:
   cl/matmul_wgmma_nv.cl), which program_cache.c does after the source build. */
int ocf_program_retargets_sm90a(ocf_program_id id);

#endif /* OCLFUSE_SOURCES_H */
