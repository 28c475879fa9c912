#!/bin/bash
# The ragged path's GPU round (issue 22, item 2: docs/GEMM.md, "Ragged shapes: padded copies"),
# about 6 minutes on the H200 after the build (the rim columns about 1 of them): decided
# tiled.rim (NVIDIA 1) and decides tiled.pad_min and tiled.pad_sides (NVIDIA 1024 and 2).
#   source .gpu/env.sh && OUT=$OUT/ragged bash tools/lab/h200/round_ragged.sh
# 1. builds (Release, /tmp/b_ragged) and tools/lab/h200/ragged_gemm_time.c;
# 2. each line of ragged_shapes.txt six ways, fp32 (FP32), first kernel start to last end, L2
#    flushed: "mixed" with tiled.pad_min=0 tiled.rim=0 (unpadded: matmul_tiled_mixed, or
#    matmul_tiled_fast where the sides are whole tiles, element loads), "padded" with
#    tiled.pad_min=1 tiled.pad_sides=0 tiled.rim=0 (matmul_pad + matmul_tiled_pad whatever the
#    sides, the copy step timed too), "mixed_rim" and "padded_rim" the same with tiled.rim=1
#    (whole tiles and rim tiles in two kernel bodies, RIM=1 in the plan: docs/GEMM.md, "Ragged
#    shapes: the rim"), "aligned", its nearest aligned shape (sides rounded to multiples of 128,
#    tight, built-in tuning), and "default", the built-in tuning as shipped (NVIDIA: rim 1,
#    pad_min 1024, pad_sides 2: "Ragged shapes: which plan"); each line checks C and names its
#    plan; COLS (a list of those six names) runs fewer;
# 3. cuBLAS fp32 via PyTorch on the same layouts and the aligned shapes, in the same run, and the
#    table (ragged_peers.py);
# 4. test_matmul_pad on the GPU (the padded plans forced on, every layout and epilogue).
# Flip the default (src/tuning/builtin.tuning, the NVIDIA matmul f32 row: tiled.pad_min=N) when
# padded / aligned >= 0.95 on the 3000-5000 shapes; N: the smallest side where padded beats mixed
# (the 513-2049 lines). tiled.rim=1 beside it when "padded rim / padded" >= 1.00 on every line
# (and alone, for the mixed kernel, when "mixed rim / mixed" >= 1.00 on every line); the
# tiles/waves column says which lines lose a wave to their rim (2049 x 2047: 272 tiles, 2 waves
# of 264, against 256 in 1), which no kernel body fixes.
# The sides rule (tiled.pad_sides, docs/GEMM.md "Ragged shapes: which plan") with
#   SHAPES=tools/lab/h200/ragged_sides.txt COLS="mixed_rim padded_rim aligned default" SUITE=0:
# the built-in values stand when "default / best" >= 0.98 on every line (the copies on the
# whole-tile lines, the mixed kernel on the ragged ones); the 512^3 line's "padded rim /
# mixed rim" says whether pad_min may go down to 512, the 4000^3 line's whether pad_sides may be
# 1 (multiples of 4) rather than 2.
# SHAPES (a file of ragged_shapes.txt's lines) replaces the list; SUITE=0 leaves out step 4.
set -u
out=${OUT:-/tmp/ragged}
mkdir -p "$out"
b=/tmp/b_ragged
here=tools/lab/h200
shapes=${SHAPES:-$here/ragged_shapes.txt}
start=$SECONDS
{
  cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >/tmp/rg_build.txt 2>&1 &&
    cmake --build $b -j16 --target oclfuse test_matmul_pad >>/tmp/rg_build.txt 2>&1 ||
    { tail -40 /tmp/rg_build.txt; exit 1; }
  cc -std=c11 -O2 -Iinclude $here/ragged_gemm_time.c -L$b -loclfuse -lOpenCL -Wl,-rpath,$b \
    -o /tmp/rg_time || exit 1
  echo "built at $((SECONDS - start)) s"
  al() { echo $(( ($1 + 64) / 128 * 128 )); }
  cols=" ${COLS:-mixed padded mixed_rim padded_rim aligned default} "
  # one run of a line: tag, then the tuning ("" for the built-in values)
  one() {
    case "$cols" in *" $1 "*) ;; *) return ;; esac
    if [ -n "$2" ]; then
      timeout 60 /tmp/rg_time $1 $ta $tb $m $n $k $lda $ldb $ao $bo "$2" 2>&1
    else
      timeout 60 /tmp/rg_time $1 $ta $tb $m $n $k $lda $ldb $ao $bo 2>&1
    fi
  }
  grep -v '^#' "$shapes" | while read -r ta tb m n k lda ldb ao bo; do
    [ -z "$ta" ] && continue
    one mixed "tiled.pad_min=0 tiled.rim=0"
    one padded "tiled.pad_min=1 tiled.pad_sides=0 tiled.rim=0"
    one mixed_rim "tiled.pad_min=0 tiled.rim=1"
    one padded_rim "tiled.pad_min=1 tiled.pad_sides=0 tiled.rim=1"
    one default ""
    case "$cols" in *" aligned "*)
      timeout 60 /tmp/rg_time aligned $ta $tb $(al $m) $(al $n) $(al $k) 0 0 0 0 2>&1 ;;
    esac
  done | tee $out/lib.txt
  echo "library timed at $((SECONDS - start)) s"
  timeout 240 python3 $here/ragged_peers.py "$shapes" $out/lib.txt 2>&1 |
    tee $out/table.txt
  echo "peers at $((SECONDS - start)) s"
  if [ "${SUITE:-1}" != 0 ]; then
    (cd $b && OCLFUSE_TEST_DEVICE=NVIDIA timeout 300 ctest -R '^test_matmul_pad$' \
      --output-on-failure >$out/ctest.txt 2>&1; echo "test_matmul_pad rc $?")
    tail -5 $out/ctest.txt
  fi
  echo "done at $((SECONDS - start)) s"
} 2>&1 | tee "$out/round.txt"
