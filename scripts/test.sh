#!/usr/bin/env bash
# Runs every test after setting up and building: the lit suite (FileCheck
# tests and the C++ unit tests), the Python tests (pytest; every kernel they
# launch is also compiled for the three AMD targets, TERRAZZO_AMD_LAUNCHES,
# and the test/GPU and tutorial kernels are, scripts/amd-compile-check.py)
# and the fuzzers' smoke runs (scripts/fuzz/README.md; each counts as one
# test). Ends with one
# line "N passed, N failed[, N skipped]".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

lit_log="$BUILD_DIR/lit.log"
pytest_xml="$BUILD_DIR/pytest.xml"
rm -f "$lit_log" "$pytest_xml"
set +e
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$lit_log"
lit_status=${PIPESTATUS[0]}
pytest_status=0
if [ -d python/test ]; then
  PYTHONPATH="$BUILD_DIR/python" TERRAZZO_BUILD_DIR="$BUILD_DIR" \
  TERRAZZO_REQUIRE_EXTENSION=1 TERRAZZO_CACHE_DIR="$BUILD_DIR/test-cache" \
  TERRAZZO_AMD_LAUNCHES=1 \
    "$TERRAZZO_PYTHON" -m pytest -q -p no:cacheprovider python/test \
    --junitxml="$pytest_xml"
  pytest_status=$?
fi
# Every test/GPU kernel (wave64 counterparts for the 32-lane ones) and
# tutorial kernel, attention's included, compiled for gfx90a, gfx942 and
# gfx950: hsaco files with no undefined symbol, the count per target; one
# test, failing if any kernel does not compile (under a minute).
echo "== AMD compile check (scripts/amd-compile-check.py)"
PYTHONPATH="$BUILD_DIR/python" "$TERRAZZO_PYTHON" scripts/amd-compile-check.py "$BUILD_DIR" --attention
amd_status=$?
# The fuzzers' smoke runs: deterministic (seed 0, fixed counts), about two
# minutes on one core; a crash, a recovered crash or a hang fails.
fuzz_status=""
for mode in "ir --mutants 6000 --minimise-time 20" "frontend --kernels 500"; do
  name=${mode%% *}
  echo "== fuzz $name (scripts/fuzz/README.md)"
  PYTHONPATH="$BUILD_DIR/python" TERRAZZO_CACHE_DIR="$BUILD_DIR/test-cache" \
    "$TERRAZZO_PYTHON" scripts/fuzz/fuzz.py $mode --build "$BUILD_DIR" --seed 0 \
    --out "$BUILD_DIR/fuzz-$name"
  fuzz_status="$fuzz_status $?"
done
set -e

"$TERRAZZO_PYTHON" - "$lit_log" "$lit_status" "$pytest_xml" "$pytest_status" $amd_status $fuzz_status <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

lit_log, lit_status, pytest_xml, pytest_status = sys.argv[1:5]
# One status each: the AMD compile check, then the fuzzers' runs.
fuzz_statuses = [int(s) for s in sys.argv[5:]]
passed = failed = skipped = 0
# lit's own summary: "  Passed     : 73 (84.88%)", one line per result code.
counts = {}
for line in open(lit_log, errors="replace"):
    m = re.match(r"\s+([A-Za-z ]+?)\s*:\s*(\d+)\s*\(", line)
    if m:
        counts[m.group(1).strip()] = int(m.group(2))
if not counts:
    failed += 1  # lit did not run to its summary
passed += counts.get("Passed", 0) + counts.get("Expectedly Failed", 0)
skipped += counts.get("Skipped", 0) + counts.get("Unsupported", 0) + counts.get("Excluded", 0)
failed += sum(v for k, v in counts.items()
              if k in ("Failed", "Unexpectedly Passed", "Unresolved", "Timed Out"))
if int(lit_status) and not failed:
    failed += 1
if os.path.isdir("python/test"):
    try:
        root = ET.parse(pytest_xml).getroot()
        suites = [root] if root.tag == "testsuite" else list(root)
        for suite in suites:
            total = int(suite.get("tests", 0))
            bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            skip = int(suite.get("skipped", 0))
            passed += total - bad - skip
            failed += bad
            skipped += skip
    except (OSError, ET.ParseError):
        failed += 1  # pytest did not produce results
    if int(pytest_status) not in (0, 5) and not failed:
        failed += 1
passed += sum(1 for s in fuzz_statuses if s == 0)
failed += sum(1 for s in fuzz_statuses if s != 0)
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
sys.exit(1 if failed else 0)
PY
