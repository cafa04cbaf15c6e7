#!/usr/bin/env bash
# The C++ ahead-of-time example (examples/aot) built the way a user builds
# it: Terrazzo installed from a build folder with `cmake --install`, then the
# example configured with find_package(Terrazzo) against that prefix, its
# kernels compiled and embedded at build time by terrazzo_add_kernels().
#
#   scripts/aot-example.sh [build folder = build] [output folder = build-aot]
#
# <output>/prefix is the install, <output>/example the example's build. The
# script lists the embedded kernels, then runs the example: on a machine
# without a GPU it says so and stops there (exit 0). To run it on a GPU
# machine that lacks LLVM, carry the output folder there and run
#   LD_LIBRARY_PATH=<output>/prefix/lib <output>/example/aot-example
# (exit 0 when both kernels give the right results).
#
# The Python kernel is exported by $TERRAZZO_PYTHON (default /usr/bin/python3)
# with the build's package (PYTHONPATH=<build>/python) unless PYTHONPATH is
# set already.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(cd "${1:-build}" && pwd)
out=${2:-build-aot}
mkdir -p "$out"
out=$(cd "$out" && pwd)
python=${TERRAZZO_PYTHON:-/usr/bin/python3}
export PYTHONPATH=${PYTHONPATH:-$build/python}

rm -rf "$out/prefix"
cmake --install "$build" --prefix "$out/prefix" >/dev/null
if [ ! -f "$out/example/build.ninja" ]; then
  cmake -G Ninja -S examples/aot -B "$out/example" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$out/prefix" -DPython3_EXECUTABLE="$python" >/dev/null
fi
ninja -C "$out/example"
echo "== embedded kernels"
"$out/example/aot-example" --list
echo "== run"
status=0
"$out/example/aot-example" || status=$?
if [ "$status" -eq 77 ]; then
  echo "no GPU here: built, not run"
  exit 0
fi
exit "$status"
