#!/usr/bin/env bash
# Runs every test (lit + FileCheck suites and the C++ unit tests) after
# setting up and building; ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

results="$BUILD_DIR/test-results.json"
rm -f "$results"
set +e
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" --output "$results"
lit_status=$?
set -e

python3 - "$results" "$lit_status" <<'PY'
import json, sys
path, status = sys.argv[1], int(sys.argv[2])
try:
    tests = json.load(open(path))["tests"]
except (OSError, ValueError, KeyError):
    print("0 passed, 1 failed (the test runner did not produce results)")
    sys.exit(1)
passed = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
skipped = sum(t["code"] in ("UNSUPPORTED", "SKIPPED", "EXCLUDED") for t in tests)
failed = len(tests) - passed - skipped
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
sys.exit(1 if failed or status else 0)
PY
