# cuBLAS fp32 (no TF32) through PyTorch on the ragged path's shapes (round_ragged.sh), each with
# the caller's layout (transposes, leading dimensions and offsets as strided views of one
# buffer) and as its nearest aligned shape (every side rounded to a multiple of 128, tight), then
# the table beside the library's lines (RESULT ..., ragged_gemm_time.c) when given.
#   python3 ragged_peers.py ragged_shapes.txt [lib.txt]
import sys, torch, triton.testing
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False

def aligned(x):
    return max(128, (x + 64) // 128 * 128)

def operand(rows, cols, ld, off):
    buf = torch.rand(off + rows * ld, device="cuda", dtype=torch.float32) - 0.5
    return torch.as_strided(buf, (rows, cols), (ld, 1), off)

def time_gemm(ta, tb, m, n, k, lda, ldb, a_off, b_off):
    lda = lda or (m if ta else k)
    ldb = ldb or (k if tb else n)
    a = operand(k, m, lda, a_off).t() if ta else operand(m, k, lda, a_off)
    b = operand(n, k, ldb, b_off).t() if tb else operand(k, n, ldb, b_off)
    ms = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=25, rep=150, return_mode="median")
    return 2 * m * n * k / ms / 1e9

shapes = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 9 or line.startswith("#"): continue
    shapes.append(tuple(int(x) for x in f[:9]))
peers = {}
for s in shapes:
    ta, tb, m, n, k = s[:5]
    peers[s] = (time_gemm(*s), time_gemm(ta, tb, aligned(m), aligned(n), aligned(k), 0, 0, 0, 0))
    print(f"cuBLAS {ta}{tb} {m}x{n}x{k} lda {s[5]} ldb {s[6]} off {s[7]},{s[8]}: "
          f"{peers[s][0]:.1f} TFLOP/s; aligned {aligned(m)}x{aligned(n)}x{aligned(k)}: "
          f"{peers[s][1]:.1f}", flush=True)
if len(sys.argv) < 3: sys.exit(0)
lib = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 15 or f[0] != "RESULT": continue
    tag, key = f[1], tuple(int(x) for x in f[2:11])
    lib[(tag, key)] = (float(f[12]), f[13], f[14] if len(f) > 14 else "?")
def waves(m, n):
    # 128 x 128 tiles (set 0 of the H200's large class), two workgroups a compute unit, 132 units
    t = -(-m // 128) * -(-n // 128)
    return f"{t}/{-(-t // 264)}"

print()
# "default": the built-in tuning as shipped (its first kernel named); "default / best" against
# the better of "mixed rim" and "padded rim" (the sides rule, tiled.pad_sides: docs/GEMM.md)
print("| shape (ta tb m n k lda ldb a_off b_off) | mixed | mixed rim | padded | padded rim | aligned "
      "| padded / aligned | padded rim / aligned | padded rim / padded | mixed rim / mixed "
      "| padded rim / mixed rim | default | default / best "
      "| cuBLAS | cuBLAS aligned | padded rim / cuBLAS | tiles/waves (aligned) |")
print("| --- |" + " ---: |" * 16)
for s in shapes:
    ta, tb, m, n, k = s[:5]
    lda = s[5] or (m if ta else k)
    ldb = s[6] or (k if tb else n)
    key = (ta, tb, m, n, k, lda, ldb, s[7], s[8])
    akey = (ta, tb, aligned(m), aligned(n), aligned(k), aligned(m) if ta else aligned(k),
            aligned(k) if tb else aligned(n), 0, 0)
    mixed, pad, al = lib.get(("mixed", key)), lib.get(("padded", key)), lib.get(("aligned", akey))
    mrim, prim = lib.get(("mixed_rim", key)), lib.get(("padded_rim", key))
    dflt = lib.get(("default", key))
    best = max((x for x in (mrim, prim) if x), key=lambda x: x[0], default=None)
    def v(x): return f"{x[0]:.1f}" + ("" if x[1] == "ok" else " WRONG") if x else "-"
    def r(x, y): return f"{x[0] / y[0]:.2f}" if x and y and y[0] > 0 else "-"
    cub, cub_al = peers[s]
    dv = f"{v(dflt)} ({dflt[2]})" if dflt else "-"
    print(f"| {' '.join(map(str, s))} | {v(mixed)} | {v(mrim)} | {v(pad)} | {v(prim)} | {v(al)} | "
          f"{r(pad, al)} | {r(prim, al)} | {r(prim, pad)} | {r(mrim, mixed)} | {r(prim, mrim)} | "
          f"{dv} | {r(dflt, best)} | {cub:.1f} | "
          f"{cub_al:.1f} | {(f'{prim[0] / cub:.2f}' if prim and cub > 0 else '-')} | "
          f"{waves(m, n)} ({waves(aligned(m), aligned(n))}) |")
