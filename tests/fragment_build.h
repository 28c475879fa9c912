/*
 * Test kernels built on the library's own kernel fragments (test_f16_vectors.c,
 * test_bf16_vectors.c): the fragments' texts as a program embeds them, a program built from
 * texts (the build log in the failure), and a buffer of host bytes.
 */
#ifndef OCFT_FRAGMENT_BUILD_H
#define OCFT_FRAGMENT_BUILD_H

#include "runtime/sources.h"
#include "test_common.h"

/* The text of file `name` of `program`'s embedded sources (fails the test when it has none). */
const char *ocft_fragment(ocf_program_id program, const char *name);

/* A program of `count` texts built for the group's device with `options`; fails the test, with
   the build log, when it does not build. */
cl_program ocft_build_texts(const ocft_env *env, const char *const *texts, unsigned count,
                            const char *options);

/* A device buffer of `bytes` bytes, a copy of `data` where given. */
cl_mem ocft_bytes_buffer(const ocft_env *env, size_t bytes, const void *data);

#endif
