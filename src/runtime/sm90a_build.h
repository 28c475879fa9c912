/*
 * Building the wgmma program for sm_90a (src/ptx_retarget.h says why): the program built from
 * source gives its PTX (CL_PROGRAM_BINARIES on NVIDIA's OpenCL), which is retargeted and built
 * again with clCreateProgramWithBinary. The disk cache keeps the retargeted PTX under a key of
 * its own (OCF_SM90A_KEY is part of it), and a binary loaded from it passes the retarget again.
 */
#ifndef OCLFUSE_SM90A_BUILD_H
#define OCLFUSE_SM90A_BUILD_H

#include "oclfuse.h"
#include "runtime/log.h"

#include <stddef.h>

/* Added to the disk cache key of a retargeted program: its version changes when the retarget
   does. */
#define OCF_SM90A_KEY "retarget sm_90a 1"

/* Replaces *program (built from source file `file` with `options`, released here) by the
   program built from its retargeted PTX. OCF_ERR_BUILD_FAILED (ocf_last_error says why: the
   text was refused, or the driver's log) leaves *program released and NULL. */
ocf_status ocf_sm90a_rebuild(ocf_log_sink *log, cl_context context, cl_device_id device,
                             const char *file, const char *options, cl_program *program);

/* A binary (*binary, malloc'd, *length bytes: PTX text, trailing NUL bytes ignored) in its
   sm_90a form, replaced by a new buffer whose *length counts one terminating NUL (NVIDIA's
   PTX loader reads a C string; tools/lab/wgmma passed strlen + 1 too); 0, or -1 when the text
   is refused or not sm_90a PTX (*binary kept). */
int ocf_sm90a_binary(unsigned char **binary, size_t *length);

#endif /* OCLFUSE_SM90A_BUILD_H */
