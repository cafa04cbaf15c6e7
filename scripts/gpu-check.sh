#!/usr/bin/env bash
# Everything that needs a GPU, in one go, on a machine with only a compiler,
# Python (numpy, pybind11, torch, optionally triton) and the NVIDIA driver:
# builds the GPU test program and the Python extension against the packaged
# core (dist/terrazzo-core.tar.zst, from scripts/package-core.sh), runs the
# GPU test suites, the GPU tests of the Python package, the tutorials'
# checks and the benchmarks. Logs go to $OUT (default /tmp/terrazzo-gpu-logs).
#
#   scripts/gpu-check.sh [tests|bench|all]   (default all)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
what=${1:-all}
out=${OUT:-/tmp/terrazzo-gpu-logs}
mkdir -p "$out"
build=${TERRAZZO_GPU_BUILD:-/tmp/terrazzo-gpu}
python=${PYTHON:-python3}
status=0
step() {
  local name=$1; shift
  local start=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  printf '%-28s rc=%d %4ds  %s\n' "$name" "$rc" $((SECONDS - start)) \
    "$(tail -n 1 "$out/$name.log")"
  [ $rc -eq 0 ] || status=1
}
step build-clients scripts/build-gpu-clients.sh "$build/clients"
step build-python env PYTHON="$python" scripts/build-python-ext.sh "$build/python"
export PYTHONPATH="$build/python" TERRAZZO_CACHE_DIR="$build/cache"
if [ "$what" != bench ]; then
  step gpu-kernels "$build/clients/run-gpu-kernels" .
  step pytest-gpu "$python" -m pytest -q -p no:cacheprovider python/test -m gpu
  step tutorial-01 "$python" tutorials/01-vector-add.py
  step tutorial-02 "$python" tutorials/02-fused-softmax.py
  step tutorial-05 "$python" tutorials/05-layer-norm.py
fi
if [ "$what" != tests ]; then
  step bench-softmax-layernorm "$python" bench/softmax_layernorm_bandwidth.py
  step bench-tutorial-02 "$python" tutorials/02-fused-softmax.py --bench
  step bench-tutorial-05 "$python" tutorials/05-layer-norm.py --bench
fi
exit $status
