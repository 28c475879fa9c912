/* Checks cl/attention_mma_prims.clh's emulation (MMA_EMULATE 1) against the matrix-unit lab's
   transcription of the PTX ISA (tools/lab/mma/ptx_model.c), on any OpenCL device but NVIDIA's
   (PoCL here): for f16 and bf16, two warps at once, each lane's registers after mma_16816
   (m16n8k16, d += a b on small integers: every product and sum exact), mma_ldsm_x4 and
   mma_ldsm_x4_trans (random row addresses into a 1 KiB tile), mma_shfl_xor (masks 1 and 2) and
   mma_pack2 (ties to even). test_attention's attention_mma cases show that the kernel's index
   arithmetic agrees with the emulation; this shows that the emulation gives each lane what the
   PTX ISA says the instructions give it, so that the PTX path computes the same.
     cc -std=c11 -O2 -Itools/lab/mma tools/lab/h200/attention_mma_prims_check.c \
       tools/lab/mma/ptx_model.c -lOpenCL -lm -o /tmp/prims_check && /tmp/prims_check
   (from the repo root; it reads cl/common.cl and cl/attention_mma_prims.clh). Exit status 0 when
   every register matches. */
#define CL_TARGET_OPENCL_VERSION 120
#include "ptx_model.h"

#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LANES = 64, TILE_BYTES = 1024 };

static const char kernel_text[] =
    "__kernel void prims(__global const uint *a_in, __global const uint *b_in,\n"
    "                    __global float *d_out, __global const uint4 *tile_in,\n"
    "                    __global const uint *addr_in, __global uint *ld_out,\n"
    "                    __global float *sh_out, __global const float *pk_in,\n"
    "                    __global uint *pk_out) {\n"
    "  __local uint emu[2 * MMA_EMU_WORDS];\n"
    "  __local uint4 tile[64];\n"
    "  const uint lid = get_local_id(0);\n"
    "  mma_lane w;\n"
    "  w.lane = lid % 32;\n"
    "  w.emu = emu + (lid / 32) * MMA_EMU_WORDS;\n"
    "  tile[lid] = tile_in[lid];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint a[4], b[2];\n"
    "  float d[4];\n"
    "  for (uint i = 0; i < 4; i++) a[i] = a_in[lid * 4 + i], d[i] = (float)(lid + i);\n"
    "  b[0] = b_in[lid * 2], b[1] = b_in[lid * 2 + 1];\n"
    "  mma_16816(d, a, b, w);\n"
    "  for (uint i = 0; i < 4; i++) d_out[lid * 4 + i] = d[i];\n"
    "  uint r[4];\n"
    "  mma_ldsm_x4(tile, addr_in[lid], r, w);\n"
    "  for (uint i = 0; i < 4; i++) ld_out[lid * 8 + i] = r[i];\n"
    "  mma_ldsm_x4_trans(tile, addr_in[lid], r, w);\n"
    "  for (uint i = 0; i < 4; i++) ld_out[lid * 8 + 4 + i] = r[i];\n"
    "  sh_out[lid * 2] = mma_shfl_xor(1.5f * lid, 1, w);\n"
    "  sh_out[lid * 2 + 1] = mma_shfl_xor(1.5f * lid, 2, w);\n"
    "  pk_out[lid] = mma_pack2(pk_in[lid * 2], pk_in[lid * 2 + 1]);\n"
    "}\n";

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s (run from the repo root)\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) exit(2);
  s[n] = 0;
  fclose(f);
  return s;
}

/* Small integers (-4 .. 4) as f16 or bf16 bits, and back. */
static uint16_t to16(int v, int dtype) {
  const float f = (float)v;
  if (dtype == 2) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
  }
  if (v == 0) return 0;
  const int neg = v < 0, m = neg ? -v : v;
  int e = 0;
  while ((1 << (e + 1)) <= m)
    e++;
  return (uint16_t)((neg << 15) | ((e + 15) << 10) | ((m << (10 - e)) & 0x3ff));
}
static double from16(uint16_t x, int dtype) {
  if (dtype == 2) {
    const uint32_t u = (uint32_t)x << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  const int e = (x >> 10) & 31, m = x & 0x3ff;
  const double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return x & 0x8000 ? -v : v;
}

#define CHECK_CL(call)                                                     \
  do {                                                                     \
    cl_int e_ = (call);                                                    \
    if (e_ != CL_SUCCESS) {                                                \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static int run(cl_context ctx, cl_device_id dev, cl_command_queue queue, const char *source,
               int dtype) {
  cl_int err;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK_CL(err);
  char options[128];
  snprintf(options, sizeof options, "-DMMA_EMULATE=1 -DMMA_DTYPE=%d", dtype);
  if (clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
    static char buildlog[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof buildlog, buildlog, NULL);
    fprintf(stderr, "build failed:\n%s\n", buildlog);
    return 1;
  }
  cl_kernel kern = clCreateKernel(prog, "prims", &err);
  CHECK_CL(err);
  uint32_t a[LANES * 4], b[LANES * 2], addr[LANES], ld[LANES * 8], pk[LANES];
  float d[LANES * 4], sh[LANES * 2], pk_in[LANES * 2];
  uint8_t tile[TILE_BYTES];
  srand(1234u + (unsigned)dtype);
  for (int i = 0; i < LANES * 4; i++)
    a[i] = to16(rand() % 9 - 4, dtype) | (uint32_t)to16(rand() % 9 - 4, dtype) << 16;
  for (int i = 0; i < LANES * 2; i++)
    b[i] = to16(rand() % 9 - 4, dtype) | (uint32_t)to16(rand() % 9 - 4, dtype) << 16;
  for (int i = 0; i < TILE_BYTES; i++)
    tile[i] = (uint8_t)rand();
  for (int i = 0; i < LANES; i++)
    addr[i] = 16u * (uint32_t)(rand() % (TILE_BYTES / 16));
  /* pack2: values on and between representable neighbours (ties to even), and NaN-free. */
  for (int i = 0; i < LANES * 2; i++)
    pk_in[i] = 1.0f + (float)i * (dtype == 2 ? 0x1.0p-9f : 0x1.0p-12f);
  cl_mem bufs[9];
  const size_t sizes[9] = {sizeof a,  sizeof b,  sizeof d,     sizeof tile, sizeof addr,
                           sizeof ld, sizeof sh, sizeof pk_in, sizeof pk};
  const void *init[9] = {a, b, NULL, tile, addr, NULL, NULL, pk_in, NULL};
  for (int i = 0; i < 9; i++) {
    bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init[i] ? CL_MEM_COPY_HOST_PTR : 0),
                             sizes[i], (void *)init[i], &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(kern, (cl_uint)i, sizeof(cl_mem), &bufs[i]));
  }
  const size_t global = LANES, local = LANES;
  CHECK_CL(clEnqueueNDRangeKernel(queue, kern, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, bufs[2], CL_TRUE, 0, sizeof d, d, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, bufs[5], CL_TRUE, 0, sizeof ld, ld, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, bufs[6], CL_TRUE, 0, sizeof sh, sh, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(queue, bufs[8], CL_TRUE, 0, sizeof pk, pk, 0, NULL, NULL));

  int bad = 0;
  for (int warp = 0; warp < 2; warp++) {
    const int base = 32 * warp;
    /* The warp's A (16 x 16), B (16 x 8) from the lanes' registers by ptx_model's positions. */
    double am[16][16], bm[16][8];
    for (int lane = 0; lane < 32; lane++)
      for (int half = 0; half < 2; half++) {
        for (int q = 0; q < 4; q++) {
          int r, c;
          ptx_a_pos(PTX_B16, lane, q, half, &r, &c);
          am[r][c] = from16((uint16_t)(a[(base + lane) * 4 + q] >> (16 * half)), dtype);
        }
        for (int q = 0; q < 2; q++) {
          int r, c;
          ptx_b_pos(PTX_B16, lane, q, half, &r, &c);
          bm[r][c] = from16((uint16_t)(b[(base + lane) * 2 + q] >> (16 * half)), dtype);
        }
      }
    for (int lane = 0; lane < 32; lane++)
      for (int q = 0; q < 4; q++) {
        int r, c;
        ptx_c_pos(lane, q, &r, &c);
        double want = base + lane + q;
        for (int k = 0; k < 16; k++)
          want += am[r][k] * bm[k][c];
        if (d[(base + lane) * 4 + q] != (float)want && bad++ < 10)
          fprintf(stderr, "dtype %d warp %d lane %d: mma d%d %g, want %g\n", dtype, warp, lane, q,
                  (double)d[(base + lane) * 4 + q], want);
      }
    for (int trans = 0; trans < 2; trans++) {
      uint32_t regs[32][4];
      ptx_ldmatrix_x4(tile, addr + base, trans, regs);
      for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++)
          if (ld[(base + lane) * 8 + 4 * trans + i] != regs[lane][i] && bad++ < 10)
            fprintf(stderr, "dtype %d warp %d lane %d: ldmatrix%s r%d %08x, want %08x\n", dtype,
                    warp, lane, trans ? ".trans" : "", i, ld[(base + lane) * 8 + 4 * trans + i],
                    regs[lane][i]);
    }
    for (int lane = 0; lane < 32; lane++)
      for (int m = 1; m <= 2; m++)
        if (sh[(base + lane) * 2 + m - 1] != 1.5f * (float)(base + (lane ^ m)) && bad++ < 10)
          fprintf(stderr, "dtype %d warp %d lane %d: shfl xor %d %g\n", dtype, warp, lane, m,
                  (double)sh[(base + lane) * 2 + m - 1]);
  }
  /* pack2: each half the float rounded to nearest even (checked through the decoded value). */
  for (int i = 0; i < LANES; i++)
    for (int half = 0; half < 2; half++) {
      const double x = pk_in[2 * i + half], got = from16((uint16_t)(pk[i] >> (16 * half)), dtype);
      const double ulp = dtype == 2 ? 0x1.0p-7 : 0x1.0p-10; /* at [1, 2) */
      const double lo = floor(x / ulp) * ulp, hi = lo + ulp;
      double want = x - lo < hi - x ? lo : x - lo > hi - x ? hi : 0.0;
      if (want == 0.0) want = fmod(lo / ulp, 2.0) == 0.0 ? lo : hi;
      if (got != want && bad++ < 10)
        fprintf(stderr, "dtype %d pack2 %d.%d: %.10g of %.10g, want %.10g\n", dtype, i, half, got,
                x, want);
    }
  for (int i = 0; i < 9; i++)
    clReleaseMemObject(bufs[i]);
  clReleaseKernel(kern);
  clReleaseProgram(prog);
  printf("%s: %s\n", dtype == 2 ? "bf16" : "f16", bad ? "FAILED" : "every register as the PTX ISA");
  return bad != 0;
}

int main(void) {
  char *common = read_text("cl/common.cl"), *prims = read_text("cl/attention_mma_prims.clh");
  const size_t n = strlen(common) + strlen(prims) + sizeof kernel_text + 8;
  char *source = malloc(n);
  snprintf(source, n, "%s\n%s\n%s", common, prims, kernel_text);
  cl_platform_id platform;
  cl_device_id dev;
  CHECK_CL(clGetPlatformIDs(1, &platform, NULL));
  CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue queue = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK_CL(err);
  int failed = run(ctx, dev, queue, source, 1) | run(ctx, dev, queue, source, 2);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  free(source), free(common), free(prims);
  return failed;
}
