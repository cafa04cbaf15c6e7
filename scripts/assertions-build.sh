#!/usr/bin/env bash
# The compiler built with its own assertions on, then the lit suite
# (FileCheck tests and C++ unit tests) run against it (issue 21, item 2).
#
#     bash scripts/assertions-build.sh        # in build-assert/
#
# The Release build and Debian's LLVM compile with -DNDEBUG, so a broken
# invariant shows up as a segfault or a wrong result, if at all. Here the
# project's sources (and the inline code of the LLVM and MLIR headers they
# include) keep their asserts: an invariant that fails aborts with its
# message, which the crash recovery (lib/CrashRecovery) turns into a failed
# compile that lit reports. LLVM's own library code stays as Debian built
# it (LLVM_ENABLE_ASSERTIONS is off there; its ABI-breaking checks are fixed
# by llvm/Config/abi-breaking.h, so mixing is safe). -O1: the build is for
# checking, not for speed.
#
# Not part of .ci/run: a build from scratch takes longer than CI's budget
# leaves (see the measurement in bench/RESULTS.md). Set ASSERT_BUILD_DIR to
# build elsewhere, JOBS for parallel jobs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${ASSERT_BUILD_DIR:-build-assert}
export TERRAZZO_PYTHON=${TERRAZZO_PYTHON:-/usr/bin/python3}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCMAKE_C_FLAGS_RELEASE=-O1 \
    -DPython3_EXECUTABLE="$TERRAZZO_PYTHON" ${TERRAZZO_CMAKE_ARGS:-}
fi
# No -DNDEBUG may reach the project's sources (from CMake or from LLVM's
# definitions), or the build checks nothing.
if grep -q -- "-DNDEBUG" "$BUILD_DIR/compile_commands.json"; then
  echo "assertions-build: -DNDEBUG is on some compile command of $BUILD_DIR" >&2
  exit 1
fi
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}"
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test"
