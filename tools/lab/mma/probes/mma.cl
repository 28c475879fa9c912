/*
 * mma.cl: one warp, one mma.sync: D = A B + C with A 16 x K, B K x 8, C and D 16 x 8, fp32
 * accumulators. DT 0: m16n8k8 .tf32 (K 8); 1: m16n8k16 .f16; 2: .bf16 (K 16). A, B hold element
 * bits (fp32 bits, or 16-bit values in the low half). The fragment positions come from the host
 * (its transcription of the PTX ISA's tables, tools/lab/mma/ptx_model.c): a_idx[(8 l + 2 q + h)] is
 * the element of A in register q, half h, of lane l; b_idx likewise (2 registers); c_idx[4 l + q]
 * the element of C and D in accumulator q. CVT 1 applies cvt.rna.tf32.f32 to A and B first.
 */
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void
probe(__global float *d, __global const uint *a, __global const uint *b, __global const float *c,
      __global const uint *a_idx, __global const uint *b_idx, __global const uint *c_idx) {
  const uint l = get_local_id(0);
  uint ra[4], rb[2];
  float acc[4];
  for (uint q = 0; q < 4; q++) {
#if DT == 0
    ra[q] = a[a_idx[8 * l + 2 * q]];
#else
    ra[q] = (a[a_idx[8 * l + 2 * q]] & 0xffffu) | (a[a_idx[8 * l + 2 * q + 1]] << 16);
#endif
    acc[q] = c[c_idx[4 * l + q]];
  }
  for (uint q = 0; q < 2; q++) {
#if DT == 0
    rb[q] = b[b_idx[4 * l + 2 * q]];
#else
    rb[q] = (b[b_idx[4 * l + 2 * q]] & 0xffffu) | (b[b_idx[4 * l + 2 * q + 1]] << 16);
#endif
  }
#if CVT
  for (uint q = 0; q < 4; q++)
    __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(ra[q]) : "f"(as_float(ra[q])));
  for (uint q = 0; q < 2; q++)
    __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(rb[q]) : "f"(as_float(rb[q])));
#endif
#if DT == 0
  __asm__ volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
                   "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                   : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                   : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
#elif DT == 1
  __asm__ volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                   "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                   : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                   : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
#else
  __asm__ volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                   "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                   : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                   : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
#endif
  for (uint q = 0; q < 4; q++)
    d[c_idx[4 * l + q]] = acc[q];
}
