#!/usr/bin/env bash
# Builds the runtime, the GPU test program and the benchmark against the
# prebuilt portable core (dist/terrazzo-core.tar.zst, from
# scripts/package-core.sh) with g++ alone: this is how a machine without
# LLVM/MLIR, such as the GPU machine, builds them.
#
#   scripts/build-gpu-clients.sh [output folder = /tmp/terrazzo-gpu]
#
# CORE_ARCHIVE names another core archive (default
# dist/terrazzo-core.tar.zst): two builds of the compiler side by side on
# one machine, for A/B measurements (bench/ab_builds.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-/tmp/terrazzo-gpu}
archive=${CORE_ARCHIVE:-dist/terrazzo-core.tar.zst}
[ -f "$archive" ] || { echo "error: no core archive $archive (scripts/package-core.sh)" >&2; exit 1; }
mkdir -p "$out"
if command -v zstd >/dev/null; then
  zstd -dc "$archive" | tar -C "$out" -x
else
  # No zstd program: Python's pyarrow reads zstd streams.
  python3 -c 'import sys, pyarrow as pa
sys.stdout.buffer.write(pa.CompressedInputStream(pa.OSFile(sys.argv[1]), "zstd").read())' \
    "$archive" | tar -C "$out" -x
fi
core="$out/terrazzo-core"
cxx=${CXX:-g++}
flags=(-O2 -std=c++17 -Iinclude -I"$core/include")
"$cxx" "${flags[@]}" -fPIC -shared -fvisibility=hidden runtime/*.cpp \
  -o "$out/libterrazzo-runtime.so" -ldl -lpthread
link=(-L"$core/lib" -L"$out" -lterrazzo-core -lterrazzo-runtime
      -Wl,-rpath,"$core/lib" -Wl,-rpath,"$out")
shopt -s nullglob
suites=(test/GPU/*Tests.cpp)
"$cxx" "${flags[@]}" test/GPU/RunKernels.cpp "${suites[@]}" test/GPU/GpuTestSupport.cpp \
  "${link[@]}" -o "$out/run-gpu-kernels"
"$cxx" "${flags[@]}" bench/VectorAddBandwidth.cpp test/GPU/GpuTestSupport.cpp \
  "${link[@]}" -o "$out/vector-add-bandwidth"
"$cxx" "${flags[@]}" bench/RawLaunchCost.cpp test/GPU/GpuTestSupport.cpp \
  "${link[@]}" -o "$out/raw-launch-cost"
echo "built in $out: run-gpu-kernels, vector-add-bandwidth, raw-launch-cost"
