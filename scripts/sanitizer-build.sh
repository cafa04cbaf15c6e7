#!/usr/bin/env bash
# The compiler built with AddressSanitizer and UndefinedBehaviorSanitizer,
# then the lit suite (FileCheck tests and C++ unit tests) and the IR
# fuzzer's smoke run against it (issue 18 item 3, issue 21 item 2).
#
#     bash scripts/sanitizer-build.sh          # in build-sanitize/
#
# Only the project's own code is instrumented: Debian's LLVM and MLIR are
# not, so ASan cannot see their allocations, and LLVM's own poisoning of
# memory it recycles (its allocators call the ASan interface) would be
# reported as errors in code that is correct: ASAN_OPTIONS has
# allow_user_poisoning=0. vptr checks need RTTI, which LLVM's flags turn
# off. Every report goes to a log file under $BUILD_DIR/sanitizer-logs (a
# report inside a test that expects a failure, or inside a crash recovered
# as a diagnostic, would otherwise pass); the script fails if any report was
# written. UBSan stops at the first finding (-fno-sanitize-recover). Leak
# checking is off: LLVM and MLIR keep their registries and contexts alive
# to the end of the process on purpose.
#
# Not part of .ci/run: a second full build from scratch does not fit CI's
# 30 minutes beside the release build (the assertions build alone takes 18
# on 2 cores; README). Set SANITIZE_BUILD_DIR to build elsewhere,
# JOBS for parallel jobs, FUZZ_MUTANTS for the smoke run's size (0: none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SANITIZE_BUILD_DIR:-build-sanitize}
export TERRAZZO_PYTHON=${TERRAZZO_PYTHON:-/usr/bin/python3}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
flags="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" -DCMAKE_C_FLAGS_RELEASE="-O1 -g1" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DPython3_EXECUTABLE="$TERRAZZO_PYTHON" ${TERRAZZO_CMAKE_ARGS:-}
fi
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}"

logs="$PWD/$BUILD_DIR/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan"
status=0
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" || status=1
if [ "${FUZZ_MUTANTS:-2000}" != 0 ]; then
  "$TERRAZZO_PYTHON" scripts/fuzz/fuzz.py ir --build "$BUILD_DIR" --asan --seed 0 \
    --mutants "${FUZZ_MUTANTS:-2000}" --minimise-time 20 \
    --out "$BUILD_DIR/fuzz-ir" || status=1
fi
if compgen -G "$logs/*" > /dev/null; then
  echo "sanitizer-build: reports in $logs:" >&2
  head -n 40 "$logs"/* >&2
  status=1
fi
exit $status
