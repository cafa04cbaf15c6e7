#!/usr/bin/env bash
# The main job: set up, build, and compile the sample kernel in tile IR
# (parse, verify, and run the tile pipeline: inline, canonicalize, combine,
# CSE) with terrazzo-opt.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

kernel=tutorials/vector-add.mlir
echo
echo "== $kernel, as written"
cat "$kernel"
echo
echo "== after terrazzo-opt --terrazzo-tile-pipeline"
"$BUILD_DIR/bin/terrazzo-opt" "$kernel" --terrazzo-tile-pipeline
