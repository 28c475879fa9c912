/* Whether NVIDIA's OpenCL launches thread block clusters (issue 18: cluster launch with TMA
   multicast is how CUTLASS's SM90 GEMMs halve each unit's L2 reads; the wgmma lab judged it out
   of reach, there being no cluster launch attribute in OpenCL). The cluster size can instead be
   fixed in the kernel itself: PTX's `.reqnctapercluster` (what CUDA's __cluster_dims__ writes),
   after which an ordinary launch runs clusters. This program loads a PTX kernel, sm_90a, through
   clCreateProgramWithBinary in one of four modes, launches 8 workgroups of 64 work-items, and
   has each workgroup's first work-item report five words:
     0  %cluster_ctarank   its rank in the cluster
     1  %cluster_nctarank  the cluster's size (1: no cluster)
     2  %clusterid.x
     3  (peer, multicast) the peer's %ctaid.x read from the peer's local memory (mapa +
        ld.shared::cluster after barrier.cluster): both workgroups run at once, their local
        memories one space
     4  (multicast) the sum of 64 words that rank 0 copied into both workgroups' local memory
        with one cp.async.bulk ... .multicast::cluster (src holds 1..64: 2080), each workgroup
        waiting on its own mbarrier: TMA multicast's mechanism
   Modes: plain (no directive: rank 0 of 1, cluster g), launch (the directive, words 0-2),
   peer (and word 3), multicast (and word 4), explicit (words 0-2 with `.explicitcluster` too:
   the kernel demands clusters given at its launch, which OpenCL has no way to give). Words not
   measured read 0xffffffff and 0. usage: cluster_probe MODE [ptx-file-to-write]   exit 0: the mode
   ran right. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ptx_head = ".version 8.0\n.target sm_90a\n.address_size 64\n\n"
                              ".visible .entry cluster_probe(\n"
                              "  .param .u64 .ptr .global .align 4 out_param,\n"
                              "  .param .u64 .ptr .global .align 4 src_param\n"
                              ")\n"
                              ".reqntid 64, 1, 1\n";

/* The kernel's body in pieces; a mode takes some of them. */
static const char *ptx_prologue = "{\n"
                                  "  .reg .pred %p<8>;\n"
                                  "  .reg .b16 %rs<2>;\n"
                                  "  .reg .b32 %r<24>;\n"
                                  "  .reg .b64 %rd<12>;\n"
                                  "  .shared .align 4 .u32 mine;\n"
                                  "  .shared .align 128 .b8 buf[256];\n"
                                  "  .shared .align 8 .b64 bar;\n"
                                  "  ld.param.u64 %rd1, [out_param];\n"
                                  "  ld.param.u64 %rd2, [src_param];\n"
                                  "  cvta.to.global.u64 %rd3, %rd1;\n"
                                  "  cvta.to.global.u64 %rd4, %rd2;\n"
                                  "  mov.u32 %r1, %cluster_ctarank;\n"
                                  "  mov.u32 %r2, %cluster_nctarank;\n"
                                  "  mov.u32 %r3, %clusterid.x;\n"
                                  "  mov.u32 %r4, %ctaid.x;\n"
                                  "  mov.u32 %r5, %tid.x;\n"
                                  "  mov.u32 %r6, mine;\n"
                                  "  mov.u32 %r7, bar;\n"
                                  "  mov.u32 %r8, buf;\n"
                                  "  mov.u32 %r11, -1;\n"
                                  "  mov.u32 %r13, 0;\n"
                                  "  setp.eq.u32 %p1, %r5, 0;\n"
                                  "  setp.eq.u32 %p6, %r2, 2;\n"
                                  "  @!%p6 bra $L_out;\n";
/* thread 0 publishes its workgroup number and sets up the barrier; then a cluster barrier */
static const char *ptx_setup = "  @!%p1 bra $L_sync1;\n"
                               "  st.shared.u32 [%r6], %r4;\n"
                               "  mbarrier.init.shared::cta.b64 [%r7], 1;\n"
                               "  fence.mbarrier_init.release.cluster;\n"
                               "  %EXPECT%"
                               "$L_sync1:\n"
                               "  barrier.cluster.arrive;\n"
                               "  barrier.cluster.wait;\n";
static const char *ptx_expect = "  mbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [%r7], 256;\n";
/* rank 0's thread 0 copies 256 bytes into both workgroups; each waits on its own barrier */
static const char *ptx_multicast =
    "  setp.eq.u32 %p2, %r1, 0;\n"
    "  and.pred %p3, %p1, %p2;\n"
    "  @!%p3 bra $L_wait;\n"
    "  mov.u16 %rs1, 3;\n"
    "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
    "[%r8], [%rd4], 256, [%r7], %rs1;\n"
    "$L_wait:\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r7], 0;\n"
    "  @!%p4 bra $L_wait;\n"
    "  @!%p1 bra $L_summed;\n"
    "  mov.u32 %r12, 0;\n"
    "$L_sum:\n"
    "  shl.b32 %r14, %r12, 2;\n"
    "  add.u32 %r15, %r8, %r14;\n"
    "  ld.shared.u32 %r16, [%r15];\n"
    "  add.u32 %r13, %r13, %r16;\n"
    "  add.u32 %r12, %r12, 1;\n"
    "  setp.lt.u32 %p5, %r12, 64;\n"
    "  @%p5 bra $L_sum;\n"
    "$L_summed:\n";
/* the peer's workgroup number from its local memory; a cluster barrier before either leaves */
static const char *ptx_peer = "  xor.b32 %r9, %r1, 1;\n"
                              "  mapa.shared::cluster.u32 %r10, %r6, %r9;\n"
                              "  ld.shared::cluster.u32 %r11, [%r10];\n"
                              "  barrier.cluster.arrive;\n"
                              "  barrier.cluster.wait;\n";
static const char *ptx_epilogue = "$L_out:\n"
                                  "  @!%p1 bra $L_end;\n"
                                  "  mul.wide.u32 %rd6, %r4, 20;\n"
                                  "  add.s64 %rd7, %rd3, %rd6;\n"
                                  "  st.global.u32 [%rd7], %r1;\n"
                                  "  st.global.u32 [%rd7+4], %r2;\n"
                                  "  st.global.u32 [%rd7+8], %r3;\n"
                                  "  st.global.u32 [%rd7+12], %r11;\n"
                                  "  st.global.u32 [%rd7+16], %r13;\n"
                                  "$L_end:\n"
                                  "  ret;\n"
                                  "}\n";

typedef enum { PLAIN, LAUNCH, PEER, MULTICAST, EXPLICIT } mode;
static const char *const mode_names[] = {"plain", "launch", "peer", "multicast", "explicit"};

/* The PTX of a mode into ptx (size bytes). */
static void mode_ptx(const mode md, char *ptx, const size_t size) {
  char setup[1024] = "";
  if (md == PEER || md == MULTICAST) {
    const char *at = strstr(ptx_setup, "%EXPECT%");
    snprintf(setup, sizeof setup, "%.*s%s%s", (int)(at - ptx_setup), ptx_setup,
             md == MULTICAST ? ptx_expect : "", at + strlen("%EXPECT%"));
  }
  snprintf(ptx, size, "%s%s%s%s%s%s%s", ptx_head, md == PLAIN ? "" : ".reqnctapercluster 2, 1, 1\n",
           ptx_prologue, setup, md == MULTICAST ? ptx_multicast : "", md >= PEER ? ptx_peer : "",
           ptx_epilogue);
}

enum { GROUPS = 8, WORDS = 5 };

static int run(cl_context context, cl_device_id device, cl_command_queue queue, const mode md,
               const char *ptx_file) {
  char ptx[8192];
  mode_ptx(md, ptx, sizeof ptx);
  if (ptx_file) {
    FILE *f = fopen(ptx_file, "w");
    if (f) {
      fputs(ptx, f);
      fclose(f);
    }
  }
  const char *label = mode_names[md];
  size_t length = strlen(ptx) + 1;
  const unsigned char *binaries[1] = {(const unsigned char *)ptx};
  cl_int status = CL_SUCCESS, err;
  cl_program program =
      clCreateProgramWithBinary(context, 1, &device, &length, binaries, &status, &err);
  if (err == CL_SUCCESS) err = status;
  if (err == CL_SUCCESS) err = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    if (program)
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("%s: build refused (%d): %s\n", label, err, log);
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "cluster_probe", &err);
  if (err != CL_SUCCESS) {
    printf("%s: clCreateKernel %d\n", label, err);
    return 1;
  }
  cl_uint src_words[64], out_words[GROUPS * WORDS];
  for (int i = 0; i < 64; i++)
    src_words[i] = (cl_uint)i + 1;
  memset(out_words, 0xee, sizeof out_words);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out_words,
                              out_words, &err);
  cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof src_words,
                              src_words, &err);
  clSetKernelArg(kernel, 0, sizeof out, &out);
  clSetKernelArg(kernel, 1, sizeof src, &src);
  size_t global = GROUPS * 64, local = 64;
  err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    printf("%s: launch refused (%d)\n", label, err);
    return 1;
  }
  err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof out_words, out_words, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    printf("%s: the launch failed (%d at the read)\n", label, err);
    return 1;
  }
  int right = 1;
  for (int g = 0; g < GROUPS; g++) {
    const cl_uint *w = out_words + g * WORDS;
    printf("%s: group %d rank %u of %u cluster %u peer %d sum %u\n", label, g, w[0], w[1], w[2],
           (int)w[3], w[4]);
    if (md == PLAIN) {
      right &= w[0] == 0 && w[1] == 1 && w[2] == (cl_uint)g;
    } else {
      right &= w[0] == (cl_uint)(g % 2) && w[1] == 2 && w[2] == (cl_uint)(g / 2);
      if (md == PEER || md == MULTICAST) right &= w[3] == (cl_uint)(g ^ 1);
      if (md == MULTICAST) right &= w[4] == 2080;
    }
  }
  printf("%s: %s\n", label, right ? "RIGHT" : "WRONG");
  clReleaseMemObject(out);
  clReleaseMemObject(src);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return !right;
}

/* usage: cluster_probe MODE [ptx-file-to-write]; MODE plain, launch, peer or multicast. A
   kernel that faults ends its process's context: run each mode in a process of its own. */
int main(int argc, char **argv) {
  int md = -1;
  for (int i = 0; i < 5 && argc > 1; i++)
    if (!strcmp(argv[1], mode_names[i])) md = i;
  if (md < 0) {
    fprintf(stderr, "usage: cluster_probe plain|launch|peer|multicast|explicit [ptx-file]\n");
    return 2;
  }
  cl_platform_id platforms[8];
  cl_uint count = 0;
  clGetPlatformIDs(8, platforms, &count);
  cl_device_id device = 0;
  for (cl_uint i = 0; i < count && !device; i++)
    clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &device, NULL);
  if (!device) {
    printf("no GPU\n");
    return 2;
  }
  cl_int err;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
  const int failed = run(context, device, queue, (mode)md, argc > 2 ? argv[2] : NULL);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return failed;
}
