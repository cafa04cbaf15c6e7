#!/usr/bin/env bash
# Issue 18's compute-sanitizer runs on a GPU machine (the requirements of
# scripts/gpu-check.sh, plus the CUDA toolkit's compute-sanitizer on PATH,
# in $CUDA_HOME/bin or in /usr/local/cuda/bin): each named tool over the GPU
# test program (run-gpu-kernels, built against the packaged core as
# scripts/gpu-check.sh builds it) and over GPU pytest files run under it.
#
#   scripts/gpu-sanitize.sh [tool ...]    (default: memcheck racecheck synccheck)
#
# Environment: PYTEST_FILES (the GPU pytest files to run under each tool;
# default python/test/test_attention.py python/test/test_dot.py
# python/test/test_atomics.py python/test/test_reductions.py; "all": every
# python/test/test_*.py; empty: the test program only), SANITIZE_JOBS (the
# pytest files run under one tool at the same time, default 1),
# STEP_TIMEOUT (seconds per run, default 600: the sanitizer slows kernels
# down tens of times), OUT (logs, default /tmp/terrazzo-sanitize-logs),
# PYTHON (python3), TERRAZZO_GPU_BUILD (/tmp/terrazzo-gpu). One line per
# run: tool, what ran, its exit status, seconds and the sanitizer's error
# summary; a file with no GPU test says so (pytest's status 5, no kernel
# ran). Exit 0 when every run ended with "0 errors" (or "0 hazards") and
# its program's own success. Failed driver calls are not counted
# (--report-api-errors no): the runtime turns each one into an error that
# fails its test, and the error-path tests make some on purpose (an invalid
# device ordinal, a missing symbol, an invalid image, a host pointer given
# to cuPointerGetAttribute); the tools look for bad accesses, races and
# barrier misuse. Tests that run compute-sanitizer themselves
# (terrazzo.testing.cuda_memcheck) run in the sanitized process instead:
# compute-sanitizer does not nest.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck)
for tool in "${tools[@]}"; do
  case $tool in
    memcheck|racecheck|synccheck|initcheck) ;;
    *) echo "unknown tool '$tool' (memcheck, racecheck, synccheck, initcheck)" >&2; exit 2 ;;
  esac
done
sanitizer=$(command -v compute-sanitizer || true)
for dir in "${CUDA_HOME:-}" /usr/local/cuda; do
  [ -n "$sanitizer" ] || { [ -n "$dir" ] && [ -x "$dir/bin/compute-sanitizer" ] &&
                           sanitizer=$dir/bin/compute-sanitizer; }
done
if [ -z "$sanitizer" ]; then
  echo "compute-sanitizer not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)" >&2
  exit 2
fi
out=${OUT:-/tmp/terrazzo-sanitize-logs}
mkdir -p "$out"
build=${TERRAZZO_GPU_BUILD:-/tmp/terrazzo-gpu}
python=${PYTHON:-python3}
limit=${STEP_TIMEOUT:-600}
files=${PYTEST_FILES-python/test/test_attention.py python/test/test_dot.py python/test/test_atomics.py python/test/test_reductions.py}
[ "$files" = all ] && files=$(ls python/test/test_*.py)
jobs=${SANITIZE_JOBS:-1}

# The test program and the Python package, as scripts/gpu-check.sh builds
# them (its own step timeout, not the sanitizer runs').
env -u STEP_TIMEOUT OUT="$out" TERRAZZO_GPU_BUILD="$build" PYTHON="$python" \
  scripts/gpu-check.sh build || { echo "building failed: logs in $out"; exit 1; }
export PYTHONPATH="$build/python" TERRAZZO_CACHE_DIR="$build/sanitize-cache"
# (terrazzo/testing.py's _UNDER_SANITIZER.) Without torch's caching
# allocator, every tensor is an allocation of its own, whose bounds memcheck
# knows: an access past a tensor into the cached block around it is caught.
export TERRAZZO_UNDER_COMPUTE_SANITIZER=1 PYTORCH_NO_CUDA_MEMORY_CACHING=1

# One run; its line goes to stdout and, failed, a mark to $out/failed.
run() {
  local tool=$1 name=$2; shift 2
  local log="$out/$tool-$name.log" start=$SECONDS
  timeout "$limit" "$sanitizer" --tool "$tool" --report-api-errors no \
    --print-limit 20 "$@" >"$log" 2>&1
  local rc=$?
  local summary
  # racecheck reports hazards in a summary of its own.
  summary=$(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1 | sed 's/^=* *//')
  if [ $rc -eq 5 ] && grep -q "no tests ran\|deselected" "$log" &&
     ! grep -q " passed" "$log"; then
    printf '%-10s %-32s no GPU tests\n' "$tool" "$name"
    return
  fi
  printf '%-10s %-32s rc=%d %5ds  %s\n' "$tool" "$name" "$rc" $((SECONDS - start)) \
    "${summary:-no summary (see $log)}"
  [ $rc -eq 0 ] && [[ "$summary" == "ERROR SUMMARY: 0 errors"* ||
                     "$summary" == "RACECHECK SUMMARY: 0 hazards"* ]] ||
    echo "$tool $name" >>"$out/failed"
}
rm -f "$out/failed"
for tool in "${tools[@]}"; do
  run "$tool" run-gpu-kernels "$build/clients/run-gpu-kernels" .
  for file in $files; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run "$tool" "$(basename "$file" .py)" "$python" -m pytest -q -p no:cacheprovider -m gpu "$file" &
  done
  wait
done
[ ! -s "$out/failed" ]
