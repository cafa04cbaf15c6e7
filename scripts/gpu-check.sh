#!/usr/bin/env bash
# Everything that needs a GPU, in one go, on a machine with only a compiler,
# Python (numpy, pybind11, torch, optionally triton) and the NVIDIA driver:
# builds the GPU test program and the Python extension against the packaged
# core (dist/terrazzo-core.tar.zst, from scripts/package-core.sh), those of
# the two that the named groups use, then runs
# the named groups in order: kernels (the GPU test program), pytest (the GPU
# tests of the Python package), tutorials (their checks), bench (the
# benchmarks); "build" alone only builds. Three more groups, issue 19's
# ecosystem checks, run only when named (scripts/gpu-ecosystem-check.sh
# runs the three):
#   wheel  a wheel for this machine's Python, built by pip with g++ against
#          the packaged core (TERRAZZO_PREBUILT_CORE=1), installed into a
#          fresh virtual environment; tutorial 01 run from it on the GPU;
#   aot    the C++ ahead-of-time example (examples/aot): its kernels were
#          compiled and embedded on the build machine by
#          scripts/aot-example.sh (carry build-aot/example/terrazzo-kernels);
#          here g++ builds the program against this machine's runtime and
#          runs it (a carried build-aot/example/aot-example is run as it is
#          when the generated source is missing);
#   torch  python/test/test_torch_ops.py's GPU tests (torch.compile with
#          fullgraph=True, so a graph break fails; CUDA graphs), with the
#          wheel's package when the wheel group ran before it.
# A step that skips (no GPU, no torch) fails. Logs go to $OUT (default
# /tmp/terrazzo-gpu-logs).
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
# Build only what the groups use: the clients (runtime, GPU test program)
# for kernels and aot, the package for the groups that import it from there.
wants() { local g; for g in "${groups[@]}"; do [[ " $* " == *" $g "* ]] && return 0; done; return 1; }
if wants build kernels aot; then
  step build-clients scripts/build-gpu-clients.sh "$build/clients"
fi
if wants build pytest tutorials bench || { wants torch && ! wants wheel; }; then
  step build-python env PYTHON="$python" scripts/build-python-ext.sh "$build/python"
fi
export PYTHONPATH="$build/python" TERRAZZO_CACHE_DIR="$build/cache"
venv_python=""   # the wheel group's environment, once it has one
for group in "${groups[@]}"; do
  case $group in
    build) ;;
    kernels) step gpu-kernels "$build/clients/run-gpu-kernels" . ;;
    pytest)
      # One pytest per test file, up to $PYTEST_JOBS at once: the GPU tests
      # spend most of their time compiling, which parallelises.
      pytest_start=$SECONDS
      # The reduction and scan dtype matrix (240 kernels) runs as eight
      # shards, the persistent and grouped GEMMs (over 200 s alone) as four.
      { ls python/test/test_*.py | grep -v 'test_reduction_dtypes\|test_persistent_matmul'
        for i in 0 1 2 3 4 5 6 7; do echo "python/test/test_reduction_dtypes.py@$i/8"; done
        for i in 0 1 2 3; do echo "python/test/test_persistent_matmul.py@$i/4"; done
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
      if ! "$python" -c 'import setuptools, pybind11' 2>/dev/null; then
        echo "wheel: $python lacks setuptools or pybind11 (pip wheel needs both)" >&2
        status=1; continue
      fi
      rm -rf "$build/wheel" "$build/venv"
      step wheel-build env TERRAZZO_PREBUILT_CORE=1 "$python" -m pip wheel \
        --no-build-isolation --no-deps --no-index -w "$build/wheel" .
      # A fresh environment that sees this Python's packages (numpy, torch,
      # pytest) after its own, through a .pth file (which works where
      # $python is itself a virtual environment); without ensurepip, an
      # environment without pip, into which this Python's pip installs.
      step wheel-venv "$python" -c '
import site, subprocess, sys, venv
from pathlib import Path
target = Path(sys.argv[1])
try:
    venv.EnvBuilder(system_site_packages=True, clear=True, with_pip=True).create(target)
except Exception as e:
    print("no pip in the environment:", e)
    venv.EnvBuilder(system_site_packages=True, clear=True, with_pip=False).create(target)
purelib = subprocess.check_output([str(target / "bin" / "python"), "-c",
    "import sysconfig; print(sysconfig.get_paths()[\"purelib\"])"], text=True).strip()
outer = site.getsitepackages()
Path(purelib, "outer-site-packages.pth").write_text(
    "".join(f"import site; site.addsitedir({p!r})\n" for p in outer))
print("created", target, "seeing", *outer)' "$build/venv"
      if "$build/venv/bin/python" -m pip --version >/dev/null 2>&1; then
        installer=("$build/venv/bin/python" -m pip)
      else
        installer=("$python" -m pip --python "$build/venv/bin/python")
      fi
      step wheel-install "${installer[@]}" install --no-index --no-deps \
        "$build"/wheel/terrazzo-*.whl
      # From outside the checkout, so that only the installed package can be
      # imported; on the GPU (the tutorial says "GPU:"), not the interpreter.
      step wheel-tutorial-01 env -u PYTHONPATH sh -c \
        'cd "$1" && rm -f tutorial-01.out || exit 1
         "$2" -c "import terrazzo, terrazzo._C as C; print(terrazzo.__file__, C.version())" || exit 1
         "$2" "$3/tutorials/01-vector-add.py" >tutorial-01.out 2>&1; rc=$?; cat tutorial-01.out
         [ $rc -eq 0 ] && grep -q "^GPU: " tutorial-01.out ||
           { echo "tutorial 01 did not run on the GPU (rc=$rc)"; exit 1; }' \
        sh "$build" "$build/venv/bin/python" "$PWD"
      venv_python="$build/venv/bin/python" ;;
    aot)
      kernels=build-aot/example/terrazzo-kernels/aot-example-1/embedded-kernels.cpp
      if [ -f "$kernels" ]; then
        step aot-build "${CXX:-g++}" -O2 -std=c++17 -Iinclude examples/aot/main.cpp \
          "$kernels" -L"$build/clients" -lterrazzo-runtime -Wl,-rpath,"$build/clients" \
          -o "$build/aot-example"
        program=("$build/aot-example")
      elif [ -x build-aot/example/aot-example ]; then
        program=(env LD_LIBRARY_PATH="$build/clients" build-aot/example/aot-example)
      else
        echo "aot: $kernels is missing (scripts/aot-example.sh build build-aot writes it" \
             "on a machine with LLVM; carry build-aot/example/terrazzo-kernels)" >&2
        status=1; continue
      fi
      step aot-list "${program[@]}" --list
      # 77: no GPU, which here is a failure.
      step aot-example "${program[@]}" ;;
    torch)
      if [ -n "$venv_python" ]; then
        torch_run=(env -u PYTHONPATH "$venv_python")
      else
        torch_run=("$python")
      fi
      step torch-compile sh -c '"$@" -m pytest -q -p no:cacheprovider -rs -m gpu \
          python/test/test_torch_ops.py >"$0" 2>&1; rc=$?; cat "$0"
        [ $rc -eq 0 ] && ! grep -q "skipped" "$0" ||
          { echo "the torch GPU tests failed or skipped (rc=$rc)"; exit 1; }' \
        "$out/torch-compile.out" "${torch_run[@]}" ;;
    *) echo "unknown group '$group'" >&2; status=1 ;;
  esac
done
exit $status
