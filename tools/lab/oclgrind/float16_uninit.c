/*
 * Oclgrind 21.10 reports uninitialized values in a kernel that has none, once its vectors have 16
 * lanes: the kernel below fills a vector lane by lane from an initialized buffer (norm_rows's
 * partial vectors, cl/norm_vector.clh), zeroes the lanes outside [lo, hi) and sums the squares.
 * With float8 Oclgrind says nothing; with float16 it reports "Controlflow depends on
 * uninitialized value" at the dot products, and the result is right (50 = 3^2 + 4^2 + 5^2). This
 * is why test_norm's SHIFTED suites leave their 16-lane tunings out under Oclgrind (which fails
 * a suite on an uninitialized-value report, tests/run_oclgrind.cmake).
 *
 *   cc -std=c11 tools/lab/oclgrind/float16_uninit.c -lOpenCL -o /tmp/float16_uninit
 *   oclgrind --uninitialized /tmp/float16_uninit 8    # silent
 *   oclgrind --uninitialized /tmp/float16_uninit 16   # reports
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "#define LANE(j, s) if ((j >= lo) & (j < hi)) v.s = in[j];\n"
    "__kernel void squares(__global const float *in, __global float *out, uint lo, uint hi) {\n"
    "  floatN v = (floatN)(0.0f);\n"
    "  LANES\n"
    "  const floatN z = select(v, (floatN)(0.0f), (IDS < (intN)((int)lo)) | (IDS >= "
    "(intN)((int)hi)));\n"
    "  const floatN acc = z * z;\n"
    "  out[0] = SUM;\n"
    "}\n";

static const char *const options8 =
    "-DfloatN=float8 -DintN=int8 -DIDS=(int8)(0,1,2,3,4,5,6,7) "
    "-DLANES=\"LANE(0,s0) LANE(1,s1) LANE(2,s2) LANE(3,s3) LANE(4,s4) LANE(5,s5) LANE(6,s6) "
    "LANE(7,s7)\" -DSUM=\"dot(acc.lo,(float4)(1.0f))+dot(acc.hi,(float4)(1.0f))\"";
static const char *const options16 =
    "-DfloatN=float16 -DintN=int16 -DIDS=(int16)(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15) "
    "-DLANES=\"LANE(0,s0) LANE(1,s1) LANE(2,s2) LANE(3,s3) LANE(4,s4) LANE(5,s5) LANE(6,s6) "
    "LANE(7,s7) LANE(8,s8) LANE(9,s9) LANE(10,sa) LANE(11,sb) LANE(12,sc) LANE(13,sd) "
    "LANE(14,se) LANE(15,sf)\" -DSUM=\"dot(acc.lo.lo,(float4)(1.0f))+dot(acc.lo.hi,(float4)(1.0f))"
    "+dot(acc.hi.lo,(float4)(1.0f))+dot(acc.hi.hi,(float4)(1.0f))\"";

int main(int argc, char **argv) {
  const int lanes = argc > 1 ? atoi(argv[1]) : 16;
  cl_platform_id platform;
  cl_device_id device;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, NULL);
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, NULL);
  if (clBuildProgram(program, 1, &device, lanes == 16 ? options16 : options8, NULL, NULL)) {
    fprintf(stderr, "build failed\n");
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "squares", NULL);
  float values[16];
  for (int i = 0; i < 16; i++)
    values[i] = (float)i;
  cl_mem in =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof values, values, NULL);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(float), NULL, NULL);
  const cl_uint lo = 3, hi = 6;
  clSetKernelArg(kernel, 0, sizeof in, &in);
  clSetKernelArg(kernel, 1, sizeof out, &out);
  clSetKernelArg(kernel, 2, sizeof lo, &lo);
  clSetKernelArg(kernel, 3, sizeof hi, &hi);
  const size_t one = 1;
  clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, &one, 0, NULL, NULL);
  float sum = 0.0f;
  clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL);
  printf("float%d: sum of squares of lanes [3, 6) = %g (50 expected)\n", lanes, sum);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return sum == 50.0f ? 0 : 1;
}
