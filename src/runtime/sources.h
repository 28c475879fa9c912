/*
 * The OpenCL C sources embedded in the library. The table itself is generated at build time
 * (cmake/embed_kernels.cmake writes program_sources.c and programs.h from one list,
 * OCLFUSE_PROGRAMS), so program ids and sources cannot drift apart. A program is a list of files
 * of cl/ (cl/common.cl first, then shared fragments, then its own kernels), handed to
 * clCreateProgramWithSource as one string each; each file is embedded once.
 */
#ifndef OCLFUSE_SOURCES_H
#define OCLFUSE_SOURCES_H

#include "programs.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ocf_program_source {
  const char *name;         /* "softmax_rows", as in OCLFUSE_PROGRAMS */
  unsigned count;           /* files */
  const char *const *files; /* their names relative to cl/: "common.cl", "softmax_rows.cl" */
  const char *const *texts; /* their texts, in build order, each NUL-terminated too */
  const size_t *lengths;    /* their bytes, no terminator counted */
  uint64_t digest; /* of every file (names and SHA-256s, in order): part of every cache key */
} ocf_program_source;

/* Generated: the programs in ocf_program_id order. */
extern const ocf_program_source ocf_program_sources[OCF_PROGRAM_COUNT];

/* The source of a program; NULL for an id out of range. */
const ocf_program_source *ocf_program_source_get(ocf_program_id id);

/* Whether the program's PTX is retargeted to sm_90a before it is used (src/ptx_retarget.h:
   cl/matmul_wgmma_nv.cl, cl/attention_wgmma_nv.cl), which program_cache.c does after the source
   build. */
int ocf_program_retargets_sm90a(ocf_program_id id);

#endif /* OCLFUSE_SOURCES_H */
