/* The arguments of the kernels on ocf_matmul_skinny_frame (cl/matmul_skinny.cl and
   cl/matmul_few_mma.cl, which share its layout and cl/skinny_epilogue.clh): the problem, the
   output and its epilogue. For a descriptor file with F defined as ocf_matmul_skinny_frame. */
#ifndef OCLFUSE_KERNELS_SKINNY_ARGS_H
#define OCLFUSE_KERNELS_SKINNY_ARGS_H

#define SKINNY_PROBLEM_ARGS                                                  \
  OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, k, OCF_ARG_ULONG),             \
      OCF_ARG(F, k_split, OCF_ARG_ULONG), OCF_ARG(F, splits, OCF_ARG_ULONG), \
      OCF_ARG(F, x, OCF_ARG_BUFFER), OCF_ARG(F, x_off, OCF_ARG_ULONG),       \
      OCF_ARG(F, ldx, OCF_ARG_ULONG), OCF_ARG(F, stride_x, OCF_ARG_ULONG),   \
      OCF_ARG(F, v, OCF_ARG_BUFFER), OCF_ARG(F, v_off, OCF_ARG_ULONG),       \
      OCF_ARG(F, v_ps, OCF_ARG_ULONG), OCF_ARG(F, v_ss, OCF_ARG_ULONG),      \
      OCF_ARG(F, stride_v, OCF_ARG_ULONG)
#define SKINNY_OUTPUT_ARGS                                                   \
  OCF_ARG(F, alpha, OCF_ARG_FLOAT), OCF_ARG(F, beta, OCF_ARG_FLOAT),         \
      OCF_ARG(F, c, OCF_ARG_BUFFER), OCF_ARG(F, c_off, OCF_ARG_ULONG),       \
      OCF_ARG(F, c_rs, OCF_ARG_ULONG), OCF_ARG(F, c_ss, OCF_ARG_ULONG),      \
      OCF_ARG(F, stride_c, OCF_ARG_ULONG), OCF_ARG(F, bias, OCF_ARG_BUFFER), \
      OCF_ARG(F, bias_off, OCF_ARG_ULONG)
/* The split-K reduce (skinny_reduce). */
#define SKINNY_REDUCE_ARGS                                           \
  OCF_ARG(F, rows, OCF_ARG_ULONG), OCF_ARG(F, batch, OCF_ARG_ULONG), \
      OCF_ARG(F, splits, OCF_ARG_ULONG), OCF_ARG(F, partial, OCF_ARG_BUFFER), SKINNY_OUTPUT_ARGS

#endif /* OCLFUSE_KERNELS_SKINNY_ARGS_H */
