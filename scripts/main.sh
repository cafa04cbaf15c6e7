#!/usr/bin/env bash
# The main job: set up, build, and run tutorials/01-vector-add.py (the Triton
# tutorial's kernel through Terrazzo's Python frontend: on the GPU when there
# is one, else in the interpreter, printing the generated PTX), then follow
# the same kernel in tile IR (tutorials/vector-add.mlir) through every stage
# of terrazzo-compile; on a machine with an NVIDIA GPU, also run the GPU test
# kernels against host references.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

echo
echo "== tutorials/01-vector-add.py"
PYTHONPATH="$BUILD_DIR/python" "$TERRAZZO_PYTHON" tutorials/01-vector-add.py

kernel=tutorials/vector-add.mlir
bin="$BUILD_DIR/bin"
out="$BUILD_DIR/main-job"
mkdir -p "$out"

echo
echo "== $kernel, as written (tile IR)"
cat "$kernel"
echo
echo "== after the tile pipeline and layout assignment (tilegpu IR, cuda:90, 4 warps)"
"$bin/terrazzo-compile" "$kernel" --target=cuda:90 --num-warps=4 --emit=tilegpu
echo
echo "== generated PTX ($out/vector-add.ptx)"
"$bin/terrazzo-compile" "$kernel" --target=cuda:90 --num-warps=4 --emit=ptx -o "$out/vector-add.ptx"
cat "$out/vector-add.ptx"
echo
echo "== binary and metadata ($out/vector-add.cubin, .json)"
"$bin/terrazzo-compile" "$kernel" --target=cuda:90 --num-warps=4 --emit=cubin -o "$out/vector-add.cubin"
cat "$out/vector-add.cubin.json"

echo
if "$bin/run-gpu-kernels" . ; then
  :
else
  status=$?
  if [ "$status" -ne 77 ]; then exit "$status"; fi
  echo "(no GPU here: the kernels were compiled, not run)"
fi
