/* The arguments of the GEMM kernels on ocf_matmul_frame that read an operand as the caller stored
   it (cl/matmul.cl, cl/matmul_pad.cl, cl/matmul_wgmma_nv.cl): A's four, B's four, and C with its
   bias. For a descriptor file with F defined as ocf_matmul_frame. */
#ifndef OCLFUSE_KERNELS_MATMUL_ARGS_H
#define OCLFUSE_KERNELS_MATMUL_ARGS_H

#define MATMUL_A_ARGS                                                                              \
  OCF_ARG(F, a, OCF_ARG_BUFFER), OCF_ARG(F, a_off, OCF_ARG_ULONG), OCF_ARG(F, lda, OCF_ARG_ULONG), \
      OCF_ARG(F, stride_a, OCF_ARG_ULONG)
#define MATMUL_B_ARGS                                                                              \
  OCF_ARG(F, b, OCF_ARG_BUFFER), OCF_ARG(F, b_off, OCF_ARG_ULONG), OCF_ARG(F, ldb, OCF_ARG_ULONG), \
      OCF_ARG(F, stride_b, OCF_ARG_ULONG)
#define MATMUL_C_ARGS                                                                              \
  OCF_ARG(F, c, OCF_ARG_BUFFER), OCF_ARG(F, c_off, OCF_ARG_ULONG), OCF_ARG(F, ldc, OCF_ARG_ULONG), \
      OCF_ARG(F, stride_c, OCF_ARG_ULONG), OCF_ARG(F, bias, OCF_ARG_BUFFER),                       \
      OCF_ARG(F, bias_off, OCF_ARG_ULONG)

#endif /* OCLFUSE_KERNELS_MATMUL_ARGS_H */
