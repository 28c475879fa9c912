/*
 * The sm_90a step of the wgmma program (cl/matmul_wgmma_nv.cl): NVIDIA's OpenCL C compiler
 * writes PTX for `.target sm_90`, whose ptxas refuses wgmma, so the kernel writes every
 * sm_90a-only line as a PTX comment, `// SM90A <instruction>`, whose operands the front end
 * still substitutes. The library reads the program's PTX (CL_PROGRAM_BINARIES), rewrites it here
 * and builds the result with clCreateProgramWithBinary (src/runtime/program_cache.c). Pure text
 * work, no OpenCL: tested by tests/test_ptx_retarget.c on any machine.
 */
#ifndef OCLFUSE_PTX_RETARGET_H
#define OCLFUSE_PTX_RETARGET_H

#include <stddef.h>

/* The prefix of an sm_90a-only line in the kernels' inline asm. */
#define OCF_PTX_SM90A_PREFIX "// SM90A "

/* The least PTX ISA version that has wgmma (PTX ISA 8.0). */
#define OCF_PTX_SM90A_VERSION_MAJOR 8
#define OCF_PTX_SM90A_VERSION_MINOR 0

typedef enum ocf_retarget_result {
  OCF_RETARGET_REFUSED = -1, /* not PTX this step knows: *why says what (nothing allocated) */
  OCF_RETARGET_NONE = 0,     /* no prefixed line and no sm_90 target: the text is used as it is */
  OCF_RETARGET_DONE = 1      /* *out (malloc'd, NUL-terminated, *out_length bytes) is the text */
} ocf_retarget_result;

/*
 * Rewrites `length` bytes of PTX (`text`, no NUL inside; a NUL at text[length] is not needed):
 *   - every line whose first non-blank characters are OCF_PTX_SM90A_PREFIX loses the prefix
 *     (its indentation stays);
 *   - the one `.target sm_90` line becomes `.target sm_90a`, whatever follows the name
 *     (`, texmode_independent` stays); `.target sm_90a` is left as it is;
 *   - `.version X.Y` below 8.0 becomes `.version 8.0`; a higher one stays.
 * Refused: a NUL byte in the text, no `.version` line or one that does not parse, no `.target`
 * line or more than one, a target other than sm_90 and sm_90a, or no line of the prefix where
 * the target is sm_90 but the text must be rewritten (a prefixed line under another target is
 * refused with the target). Returns OCF_RETARGET_NONE for a text with no prefixed line whose
 * target is already sm_90a and whose version is 8.0 or more (a retargeted binary, as the disk
 * cache returns it), and for sm_90 text with no prefixed line (no sm_90a code: nothing to do).
 * OCF_RETARGET_DONE otherwise. Thread-safe, no global state.
 */
ocf_retarget_result ocf_ptx_retarget(const char *text, size_t length, char **out,
                                     size_t *out_length, char *why, size_t why_size);

/* The sm_90a form of a program binary (`length` bytes of PTX text; trailing NUL bytes ignored):
   ocf_ptx_retarget's output, or the text itself where it had nothing to do, provided the result
   targets sm_90a (a `.target sm_90a` line) and has no prefixed line left. Returns it malloc'd
   and NUL-terminated, *out_length counting the terminator (NVIDIA's PTX loader reads a C
   string; tools/lab/wgmma passed strlen + 1 too), or NULL with *why (refused text, or sm_90
   text without sm_90a code: built as it is, the wgmma kernel would multiply nothing). */
char *ocf_ptx_sm90a_form(const unsigned char *binary, size_t length, size_t *out_length, char *why,
                         size_t why_size);

#endif /* OCLFUSE_PTX_RETARGET_H */
