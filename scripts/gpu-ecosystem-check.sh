#!/usr/bin/env bash
# Issue 19's checks that need a GPU, in one command on the GPU machine
# (g++, a Python with torch, pytest, pybind11 and setuptools, the NVIDIA
# driver; no LLVM, no CMake, no network needed):
#
#   1. wheel: pip builds a wheel for that Python with g++ against the
#      packaged core, installs it into a fresh virtual environment, and
#      tutorial 01 runs from it, outside the checkout, on the GPU;
#   2. aot: the C++ example (examples/aot) is built with g++ from the
#      kernels compiled and embedded ahead of time on the build machine, and
#      runs both kernels on the GPU with the runtime alone;
#   3. torch: a torch.compile'd function (fullgraph=True: a graph break is an
#      error) calling Terrazzo kernels through terrazzo.torch_op, and CUDA
#      graph capture, checked against torch (python/test/test_torch_ops.py,
#      with the wheel's package).
#
# First, on the build machine (LLVM here), at the commit to check:
#
#   scripts/package-core.sh               # dist/terrazzo-core.tar.zst
#   scripts/aot-example.sh build build-aot   # build-aot/example/terrazzo-kernels/
#
# then carry `dist/terrazzo-core.tar.zst` and
# `build-aot/example/terrazzo-kernels` (git-ignored) with the checkout to the
# GPU machine and run there
#
#   scripts/gpu-ecosystem-check.sh [wheel] [aot] [torch]    (default: all three)
#
# One line per step ("name rc=N seconds last-line"), logs in $OUT (default
# /tmp/terrazzo-gpu-logs); exit 0 when every step passed, and a step that
# skips (no GPU, no torch) fails. Environment: PYTHON (default python3),
# TERRAZZO_GPU_BUILD (scratch folder, default /tmp/terrazzo-gpu),
# STEP_TIMEOUT (seconds per step, default 300). The steps are
# scripts/gpu-check.sh's groups of the same names.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(wheel aot torch)
for group in "${groups[@]}"; do
  case $group in
    wheel|aot|torch) ;;
    *) echo "unknown group '$group' (wheel, aot, torch)" >&2; exit 2 ;;
  esac
done
missing=()
[ -f dist/terrazzo-core.tar.zst ] || missing+=("dist/terrazzo-core.tar.zst (scripts/package-core.sh)")
if [[ " ${groups[*]} " == *" aot "* ]] && [ ! -d build-aot/example/terrazzo-kernels ] &&
   [ ! -x build-aot/example/aot-example ]; then
  missing+=("build-aot/example/terrazzo-kernels (scripts/aot-example.sh build build-aot)")
fi
if ((${#missing[@]})); then
  printf 'missing here: %s\n' "${missing[@]}" >&2
  echo "make them on the build machine and carry them with the checkout" >&2
  exit 2
fi
exec scripts/gpu-check.sh "${groups[@]}"
