"""gemm_errors.py (issue 18): each GEMM mode's error against an fp64 reference, the library's
beside cuBLAS's on the same inputs. Reads what gemm_errors.c wrote under DIR (MODE.a, .b: the
inputs as the library read them; .c: its C in fp32; .c16: in the inputs' 16-bit type), computes
on the GPU the fp64 product of those same inputs and cuBLAS's (torch.matmul: TF32 allowed for
the tf32 mode only; 3XTF32's peer is cuBLAS fp32, there being no 3XTF32 in cuBLAS), and prints
one row a mode and C type: the largest and the mean of |C - ref| / (|A| |B|), elementwise, the
error relative to the size of the terms summed (what any order of summation is bounded by;
|C - ref| / |ref| is unbounded where the terms cancel). Needs PyTorch with CUDA, not numpy.
usage: python3 gemm_errors.py DIR m n k
"""
import sys

import torch


def load(path, dtype, rows, cols):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    return torch.frombuffer(data, dtype=dtype).reshape(rows, cols).cuda()


def errors(c, ref, scale):
    e = (c.double() - ref).abs() / scale
    return e.max().item(), e.mean().item()


def cublas_fp32_out(a, b):
    """cuBLAS's product of 16-bit a and b with an fp32 C, where this PyTorch offers one."""
    try:
        return torch.mm(a, b, out_dtype=torch.float32)
    except (TypeError, RuntimeError):
        return None


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: gemm_errors.py DIR m n k")
    folder = sys.argv[1]
    m, n, k = (int(x) for x in sys.argv[2:])
    modes = [("bf16", torch.bfloat16), ("f16", torch.float16), ("tf32", torch.float32),
             ("3xtf32", torch.float32), ("fp32", torch.float32)]
    print("| mode | m x n x k | C | liboclfuse max / mean | cuBLAS max / mean (cuBLAS's mode) |")
    print("| --- | --- | --- | --- | --- |")
    for mode, dtype in modes:
        a = load("%s/%s.a" % (folder, mode), dtype, m, k)
        b = load("%s/%s.b" % (folder, mode), dtype, k, n)
        ref = a.double() @ b.double()
        scale = (a.double().abs() @ b.double().abs()).clamp_min(1e-300)
        torch.backends.cuda.matmul.allow_tf32 = mode == "tf32"
        shape = "%d x %d x %d" % (m, n, k)
        c = load("%s/%s.c" % (folder, mode), torch.float32, m, n)
        if dtype == torch.float32:
            peer = a @ b
            name = "TF32" if mode == "tf32" else "fp32"
            rows = [("fp32", c, peer, name)]
        else:
            c16 = load("%s/%s.c16" % (folder, mode), dtype, m, n)
            rows = [("fp32", c, cublas_fp32_out(a, b), mode), (mode, c16, a @ b, mode)]
        for c_type, mine, theirs, name in rows:
            lib_max, lib_mean = errors(mine, ref, scale)
            if theirs is None:
                peer_text = "- (no fp32 C from this PyTorch)"
            else:
                peer_max, peer_mean = errors(theirs, ref, scale)
                peer_text = "%.3g / %.3g (%s)" % (peer_max, peer_mean, name)
            print("| %s | %s | %s | %.3g / %.3g | %s |"
                  % (mode, shape, c_type, lib_max, lib_mean, peer_text))
        torch.backends.cuda.matmul.allow_tf32 = False


if __name__ == "__main__":
    main()
