#!/usr/bin/env bash
# Everything that needs a GPU, in one go, on a machine with only a compiler,
# Python (numpy, pybind11, torch, optionally triton) and the NVIDIA driver:
# builds the GPU test program and the Python extension against the packaged
# core (dist/terrazzo-core.tar.zst, from scripts/package-core.sh), then runs
# the named groups in order: kernels (the GPU test program), pytest (the GPU
# tests of the Python package), tutorials (their checks), bench (the
# benchmarks); "build" alone only builds. Two more groups are run only when
# named: wheel (a wheel for this machine's Python built against the packaged
# core, installed into a fresh virtual environment, tutorial 01 run from
# it) and aot (the C++ ahead-of-time example that scripts/aot-example.sh
# built in build-aot/ on the build machine; carry build-aot here). Logs go
# to $OUT (default /tmp/terrazzo-gpu-logs).
#
#   scripts/gpu-check.sh [group ...]   (default: kernels pytest tutorials bench)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(kernels pytest tutorials bench)
out=${OUT:-/tmp/terrazzo-gpu-logs}
mkdir -p "$out"
build=${TERRAZZO_GPU_BUILD:-/tmp/terrazzo-gpu}
python=${PYTHON:-python3}
limit=${STEP_TIMEOUT:-300}
status=0
step() {
  local name=$1; shift
  local start=$SECONDS
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  printf '%-28s rc=%d %4ds  %s\n' "$name" "$rc" $((SECONDS - start)) \
    "$(tail -n 1 "$out/$name.log")"
  [ $rc -eq 0 ] || status=1
}
step build-clients scripts/build-gpu-clients.sh "$build/clients"
step build-python env PYTHON="$python" scripts/build-python-ext.sh "$build/python"
export PYTHONPATH="$build/python" TERRAZZO_CACHE_DIR="$build/cache"
for group in "${groups[@]}"; do
  case $group in
    build) ;;
    kernels) step gpu-kernels "$build/clients/run-gpu-kernels" . ;;
    pytest)
      # One pytest per test file, up to $PYTEST_JOBS at once: the GPU tests
      # spend most of their time compiling, which parallelises.
      pytest_start=$SECONDS
      # The reduction and scan dtype matrix (240 kernels) runs as eight shards.
      { ls python/test/test_*.py | grep -v test_reduction_dtypes
        for i in 0 1 2 3 4 5 6 7; do echo "python/test/test_reduction_dtypes.py@$i/8"; done
      } | xargs -P "${PYTEST_JOBS:-8}" -I{} sh -c \
        'spec={}; f=${spec%@*}; shard=${spec#"$f"}; shard=${shard#@}
         n=$(basename "$f" .py)${shard:+-$(echo "$shard" | tr / of)}
         TERRAZZO_TEST_SHARD=$shard timeout '"$limit"' "$0" -m pytest -q \
           -p no:cacheprovider -m gpu "$f" >"$1/pytest-$n.log" 2>&1;
         rc=$?; [ $rc -eq 5 ] && rc=0;  # 5: no GPU tests in that file
         echo "$n rc=$rc $(tail -n 1 "$1/pytest-$n.log")"; exit $rc' \
        "$python" "$out" >"$out/pytest-gpu.log" 2>&1
      rc=$?
      printf '%-28s rc=%d %4ds\n' pytest-gpu "$rc" $((SECONDS - pytest_start))
      sed 's/^/    /' "$out/pytest-gpu.log"
      [ $rc -eq 0 ] || status=1 ;;
    tutorials)
      step tutorial-01 "$python" tutorials/01-vector-add.py
      step tutorial-02 "$python" tutorials/02-fused-softmax.py
      step tutorial-03 "$python" tutorials/03-matrix-multiplication.py
      step tutorial-05 "$python" tutorials/05-layer-norm.py
      for t in 04-low-memory-dropout 06-fused-attention 07-extern-functions 08-grouped-gemm \
               09-persistent-matmul; do
        [ -f tutorials/$t.py ] && step tutorial-${t%%-*} "$python" tutorials/$t.py
      done ;;
    bench)
      step bench-softmax-layernorm "$python" bench/softmax_layernorm_bandwidth.py
      step bench-matmul "$python" bench/matmul.py
      step bench-matmul-descriptor "$python" bench/matmul_descriptor.py
      step bench-matmul-pointers "$python" bench/matmul_descriptor.py --kernel pointers
      step bench-tutorial-03 "$python" tutorials/03-matrix-multiplication.py --bench
      step bench-tutorial-02 "$python" tutorials/02-fused-softmax.py --bench
      step bench-tutorial-05 "$python" tutorials/05-layer-norm.py --bench
      step bench-tutorial-06 "$python" tutorials/06-fused-attention.py --bench --no-check
      step bench-tutorial-08 "$python" tutorials/08-grouped-gemm.py --bench
      step bench-tutorial-09 "$python" tutorials/09-persistent-matmul.py --bench --no-check
      step bench-matmul-skinny "$python" bench/matmul_skinny.py ;;
    wheel)
      # pip alone (no CMake, no LLVM): setup.py's TERRAZZO_PREBUILT_CORE mode.
      rm -rf "$build/wheel" "$build/venv"
      step wheel-build env TERRAZZO_PREBUILT_CORE=1 "$python" -m pip wheel \
        --no-build-isolation --no-deps --no-index -w "$build/wheel" .
      step wheel-venv "$python" -m venv --system-site-packages "$build/venv"
      step wheel-install "$build/venv/bin/python" -m pip install --no-index --no-deps \
        "$build"/wheel/terrazzo-*.whl
      step wheel-tutorial-01 env -u PYTHONPATH sh -c \
        'cd "$1" && "$2" -c "import terrazzo; print(terrazzo.__file__)" &&
         "$2" "$3/tutorials/01-vector-add.py"' sh "$build" "$build/venv/bin/python" "$PWD" ;;
    aot)
      if [ -x build-aot/example/aot-example ]; then
        step aot-example env LD_LIBRARY_PATH="$PWD/build-aot/prefix/lib" \
          build-aot/example/aot-example
      else
        echo "aot: build-aot/example/aot-example is missing (scripts/aot-example.sh" \
             "builds it on a machine with LLVM; carry build-aot)" >&2
        status=1
      fi ;;
    *) echo "unknown group '$group'" >&2; status=1 ;;
  esac
done
exit $status
