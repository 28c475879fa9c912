/*
 * sm90a.cl: whether PTX for sm_90a (wgmma, setmaxnreg) is reachable through NVIDIA's OpenCL.
 * Its compiler writes PTX for `.target sm_90` (so wgmma does not build from source), but ptxas
 * then compiles for sm_90a. The host takes this program's PTX (CL_PROGRAM_BINARIES), changes
 * the target to sm_90a and the marker comment below into `wgmma.fence.sync.aligned;`, and loads
 * the result with clCreateProgramWithBinary: if it builds and out[i] = in[i] + 7, the matrix
 * instructions of Hopper are open to PTX handed to the driver as a binary.
 */
__kernel void probe(__global uint *out, __global const uint *in) {
  const size_t i = get_global_id(0);
  uint y;
  __asm__ volatile("add.u32 %0, %1, 7; // OCF_SM90A_MARK" : "=r"(y) : "r"(in[i]) : "memory");
  out[i] = y;
}
