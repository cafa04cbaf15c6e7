#!/usr/bin/env bash
# The checked build: the compiler built with AddressSanitizer,
# UndefinedBehaviorSanitizer and the project's own assertions, then the lit
# suite (FileCheck tests and C++ unit tests) and a short IR fuzz run against
# it (issue 18 item 3, issue 21 item 2). scripts/test.sh (so `.ci/run`) runs
# it after the release build's suites and counts its results in its last
# line; on its own:
#
#     bash scripts/sanitizer-build.sh          # in build-sanitize/
#
# Assertions: CMake's Release flags are replaced (-O1 -g1, no -DNDEBUG), so
# the project's sources, and the inline code of the LLVM and MLIR headers
# they include, keep their asserts; a failed one aborts with its message,
# which the crash recovery (lib/CrashRecovery) turns into a failed compile
# that lit and the fuzzer report. Debian's LLVM library code stays as built
# (NDEBUG, LLVM_ENABLE_ASSERTIONS off). Mixing is safe: its ABI-breaking
# checks are fixed by llvm/Config/abi-breaking.h, and no LLVM or MLIR header
# the project includes has a data member that depends on NDEBUG (only
# function bodies do). The script stops if -DNDEBUG reaches any compile
# command (from CMake or from LLVM's definitions): the build would check
# nothing.
#
# Sanitizers: only the project's own code is instrumented: Debian's LLVM and
# MLIR are not, so ASan cannot see their allocations, and LLVM's own
# poisoning of memory it recycles (its allocators call the ASan interface)
# would be reported as errors in code that is correct: ASAN_OPTIONS has
# allow_user_poisoning=0. vptr checks need RTTI, which LLVM's flags turn
# off. Every report goes to a log file under $BUILD_DIR/sanitizer-logs (a
# report inside a test that expects a failure, or inside a crash recovered
# as a diagnostic, would otherwise pass); any report fails the run. UBSan
# stops at the first finding (-fno-sanitize-recover). Leak checking is off:
# LLVM and MLIR keep their registries and contexts alive to the end of the
# process on purpose.
#
# ccache: the objects are shared between clones at different paths
# (CCACHE_BASEDIR, the checkout, makes the command lines' paths relative;
# CCACHE_NOHASHDIR=1 keeps the working folder, which -g would add, out of
# the hash), so CI's fresh clone compiles little (bench/RESULTS.md).
# Only what the lit suite runs is built (the CMake target
# terrazzo-test-depends), not the Python extension.
#
# Writes $BUILD_DIR/lit.log and $BUILD_DIR/results: one line per stage,
# "<stage> <exit status>" (lit, fuzz-ir, sanitizer-reports), which test.sh
# counts; exits non-zero if any stage failed. Set SANITIZE_BUILD_DIR to build
# elsewhere, JOBS for parallel jobs, FUZZ_MUTANTS for the fuzz run's size
# (0: none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SANITIZE_BUILD_DIR:-build-sanitize}
FUZZ_MUTANTS=${FUZZ_MUTANTS:-2000}
export TERRAZZO_PYTHON=${TERRAZZO_PYTHON:-/usr/bin/python3}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=1
results="$BUILD_DIR/results"
rm -f "$results" "$BUILD_DIR/lit.log"
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
if grep -q -- "-DNDEBUG" "$BUILD_DIR/compile_commands.json"; then
  echo "sanitizer-build: -DNDEBUG is on some compile command of $BUILD_DIR" >&2
  exit 1
fi
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}" terrazzo-test-depends

logs="$PWD/$BUILD_DIR/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan"
set +e
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$BUILD_DIR/lit.log"
echo "lit ${PIPESTATUS[0]}" >> "$results"
if [ "$FUZZ_MUTANTS" != 0 ]; then
  "$TERRAZZO_PYTHON" scripts/fuzz/fuzz.py ir --build "$BUILD_DIR" --asan --seed 0 \
    --mutants "$FUZZ_MUTANTS" --minimise-time 20 --out "$BUILD_DIR/fuzz-ir"
  echo "fuzz-ir $?" >> "$results"
fi
set -e
if compgen -G "$logs/*" > /dev/null; then
  echo "sanitizer-build: reports in $logs:" >&2
  head -n 40 "$logs"/* >&2
  echo "sanitizer-reports 1" >> "$results"
else
  echo "sanitizer-reports 0" >> "$results"
fi
! grep -qv " 0$" "$results"
