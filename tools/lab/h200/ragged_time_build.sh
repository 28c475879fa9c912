# Sourced by the fp32 GEMM rounds (round_tiled_ptxas.sh, round_waves.sh): builds the library in
# $b (Release, only when $b holds none yet) and ragged_gemm_time.c into $1, logging to
# $out/build.txt; exits the round on a failed build. Needs b and out set.
ragged_time_build() {
  if [ ! -f "$b/liboclfuse.so" ]; then
    if ! cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DOCLFUSE_WERROR=ON >"$out/build.txt" 2>&1 ||
      ! cmake --build "$b" -j16 --target oclfuse >>"$out/build.txt" 2>&1; then
      tail -40 "$out/build.txt"
      exit 1
    fi
  fi
  cc -std=c11 -O2 -Iinclude tools/lab/h200/ragged_gemm_time.c -L"$b" -loclfuse -lOpenCL \
    -Wl,-rpath,"$b" -o "$1" || exit 1
}
