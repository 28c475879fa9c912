/*
 * ptx_model.c: see ptx_model.h. Each function is the PTX ISA's table written as arithmetic.
 */
#include "ptx_model.h"

#include <string.h>

int ptx_mma_k(int kind) {
  return kind == PTX_TF32 ? 8 : 16;
}

void ptx_a_pos(int kind, int lane, int q, int half, int *row, int *col) {
  const int g = lane >> 2, t = lane & 3;
  if (kind == PTX_TF32) { /* a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4) */
    *row = g + 8 * (q & 1);
    *col = t + 4 * (q >> 1);
  } else { /* elements a0..a7, two a register: row g for a0 a1 a4 a5, g + 8 for a2 a3 a6 a7;
              column 2t + (i & 1), + 8 for i >= 4 */
    const int i = 2 * q + half;
    *row = g + ((i >= 2 && i < 4) || i >= 6 ? 8 : 0);
    *col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
  }
}

void ptx_b_pos(int kind, int lane, int q, int half, int *row, int *col) {
  const int g = lane >> 2, t = lane & 3;
  if (kind == PTX_TF32) { /* b0 (k t, n g), b1 (k t + 4, n g) */
    *row = t + 4 * q;
  } else { /* elements b0..b3: k 2t + (i & 1), + 8 for i >= 2; n g */
    const int i = 2 * q + half;
    *row = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
  }
  *col = g;
}

void ptx_c_pos(int lane, int q, int *row, int *col) {
  const int g = lane >> 2, t = lane & 3;
  *row = g + (q >= 2 ? 8 : 0); /* c0 c1 in row g, c2 c3 in row g + 8 */
  *col = 2 * t + (q & 1);
}

static uint16_t load16(const uint8_t *local, uint32_t addr) {
  uint16_t v;
  memcpy(&v, local + addr, sizeof v);
  return v;
}

void ptx_ldmatrix_x4(const uint8_t *local, const uint32_t addr[32], int trans,
                     uint32_t regs[32][4]) {
  for (int l = 0; l < 32; l++)
    for (int i = 0; i < 4; i++) {
      /* matrix i's row r starts at the address lane 8i + r gave */
      uint16_t lo, hi;
      if (!trans) { /* row l >> 2, elements 2(l & 3) and 2(l & 3) + 1 */
        const uint32_t row = addr[8 * i + (l >> 2)];
        lo = load16(local, row + 2u * (2u * (uint32_t)(l & 3)));
        hi = load16(local, row + 2u * (2u * (uint32_t)(l & 3) + 1u));
      } else { /* column l >> 2 of rows 2(l & 3) and 2(l & 3) + 1 */
        lo = load16(local, addr[8 * i + 2 * (l & 3)] + 2u * (uint32_t)(l >> 2));
        hi = load16(local, addr[8 * i + 2 * (l & 3) + 1] + 2u * (uint32_t)(l >> 2));
      }
      regs[l][i] = (uint32_t)lo | ((uint32_t)hi << 16);
    }
}
