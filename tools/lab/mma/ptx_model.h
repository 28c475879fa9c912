/*
 * ptx_model.h: the lab's one host-side transcription of the PTX semantics the kernel relies on,
 * from the PTX ISA ("Matrix Fragments for mma.m16n8k8", "... for mma.m16n8k16 with floating
 * point type", "ldmatrix"). The probes check it against the hardware (their kernels take the
 * fragment positions from here), and the CPU emulation (emulate.c) checks the kernel's own index
 * arithmetic against it. g = lane >> 2, t = lane & 3 throughout.
 */
#ifndef OCF_PTX_MODEL_H
#define OCF_PTX_MODEL_H

#include <stdint.h>

/* Fragment kinds: m16n8k8 with .tf32 (one element a register), m16n8k16 with .f16/.bf16 (two
   elements a register, `half` 0 the low 16 bits). */
enum { PTX_TF32 = 0, PTX_B16 = 1 };

/* k of one mma of this kind: 8 or 16. */
int ptx_mma_k(int kind);
/* (row m, column k) of A held by `lane` in register q (0..3), element half. */
void ptx_a_pos(int kind, int lane, int q, int half, int *row, int *col);
/* (row k, column n) of B held by `lane` in register q (0..1), element half. */
void ptx_b_pos(int kind, int lane, int q, int half, int *row, int *col);
/* (row m, column n) of C / D held by `lane` in accumulator q (0..3). */
void ptx_c_pos(int lane, int q, int *row, int *col);

/* ldmatrix.sync.aligned.m8n8.x4{.trans}.shared.b16 on a byte image of local memory: lane l
   gives addr[l], the byte address of row (l & 7) of matrix (l >> 3); regs[l][i] gets what the
   instruction leaves in register i of lane l. */
void ptx_ldmatrix_x4(const uint8_t *local, const uint32_t addr[32], int trans,
                     uint32_t regs[32][4]);

#endif
