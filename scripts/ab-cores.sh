#!/usr/bin/env bash
# An A/B of two compiler builds on one GPU machine: builds the Python
# extension against each packaged core (dist/terrazzo-core.tar.zst of each
# build, from scripts/package-core.sh, kept under two names), then runs
# bench/ab_builds.py under A and B in turn, ROUNDS rounds (each run its own
# process and kernel cache), and prints the medians side by side
# (`ab_builds.py --summarise`). Two runs of one build differ by up to 5-6%
# in single rows (bench/RESULTS.md, session 44): take three rounds or more.
#
#   scripts/ab-cores.sh A.tar.zst B.tar.zst [ROUNDS (3)] [-- ab_builds.py arguments]
#   e.g. scripts/ab-cores.sh dist/main.tar.zst dist/new.tar.zst 3 -- --only attention
#
# OUT (default /tmp/ab-cores) gets the two extensions (OUT/A, OUT/B), their
# build logs, the kernel caches and each run's output (OUT/ab-A-1.txt, ...).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -lt 2 ]; then
  echo "usage: scripts/ab-cores.sh A.tar.zst B.tar.zst [ROUNDS] [-- ab_builds.py arguments]" >&2
  exit 2
fi
declare -A archive=([A]="$1" [B]="$2")
shift 2
rounds=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  rounds=$1
  shift
fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then
  shift
fi
out=${OUT:-/tmp/ab-cores}
python=${PYTHON:-python3}
mkdir -p "$out"
rm -f "$out"/ab-*.txt
for side in A B; do
  [ -f "${archive[$side]}" ] || { echo "error: no core archive ${archive[$side]}" >&2; exit 1; }
  if ! CORE_ARCHIVE="${archive[$side]}" scripts/build-python-ext.sh "$out/$side" \
      > "$out/build-$side.log" 2>&1; then
    tail -20 "$out/build-$side.log" >&2
    echo "error: building the extension against ${archive[$side]} failed" >&2
    exit 1
  fi
done
if cmp -s "$out/A/terrazzo/libterrazzo-core.so" "$out/B/terrazzo/libterrazzo-core.so"; then
  echo "note: A and B are the same core (an A/A run: the spread between runs)"
fi
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    PYTHONPATH="$out/$side" TERRAZZO_CACHE_DIR="$out/cache-$side" \
      "$python" bench/ab_builds.py "$@" > "$out/ab-$side-$round.txt" 2>&1 ||
      echo "round $round, $side: failed (see $out/ab-$side-$round.txt)" >&2
  done
done
PYTHONPATH="$out/A" "$python" bench/ab_builds.py --summarise "$out"/ab-*.txt
