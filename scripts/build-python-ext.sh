#!/usr/bin/env bash
# Builds the Python extension terrazzo._C with g++ alone against the prebuilt
# portable core (dist/terrazzo-core.tar.zst, from scripts/package-core.sh):
# no CMake, no LLVM/MLIR. This is how a machine such as the GPU machine gets
# an importable package:
#
#   scripts/build-python-ext.sh [output folder = /tmp/terrazzo-python]
#   PYTHONPATH=<output folder> python3 -c "import terrazzo"
#
# <output folder>/terrazzo/ holds a copy of python/terrazzo/, the extension
# _C<extension suffix>, and libterrazzo-core.so and libterrazzo-runtime.so,
# which _C finds through its rpath $ORIGIN (so the folder can be moved).
# Scratch files go to <output folder>/.build.
#
# Environment: PYTHON, the interpreter to build for (default python3; it needs
# pybind11, e.g. `pip install pybind11` or python3-pybind11, and its headers);
# CXX (default g++); JOBS (parallel compiles, default nproc); CORE_ARCHIVE
# (another core archive than dist/terrazzo-core.tar.zst, as for
# scripts/build-gpu-clients.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-/tmp/terrazzo-python}
mkdir -p "$out"
out=$(cd "$out" && pwd)
python=${PYTHON:-python3}
cxx=${CXX:-g++}
jobs=${JOBS:-$(nproc)}

# The interpreter first: fail before the slow part.
if ! includes=$("$python" -m pybind11 --includes 2>/dev/null); then
  echo "error: '$python -m pybind11' failed: install pybind11 for it" \
       "(pip install pybind11, or apt install python3-pybind11), or pick" \
       "another interpreter with PYTHON=" >&2
  exit 1
fi
# The suffix must be the interpreter's own: ask its python3-config when it has
# one, else sysconfig.
if command -v "$python-config" >/dev/null; then
  suffix=$("$python-config" --extension-suffix)
else
  suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
fi
read -r -a includes <<<"$includes"
echo "== building terrazzo._C for $("$python" -c 'import sys; print(sys.executable, sys.version.split()[0])')," \
     "pybind11 $("$python" -c 'import pybind11; print(pybind11.__version__)'), suffix $suffix"

# The core (extracted from dist/terrazzo-core.tar.zst) and the runtime, the
# way the GPU test programs get them.
build="$out/.build"
scripts/build-gpu-clients.sh "$build"
core="$build/terrazzo-core"
runtime="$build/libterrazzo-runtime.so"

# The package folder: the pure-Python sources, then the libraries.
package="$out/terrazzo"
rm -rf "$package"
if [ -d python/terrazzo ]; then
  cp -r python/terrazzo "$package"
  find "$package" -name __pycache__ -prune -exec rm -rf {} +
else
  mkdir -p "$package"
fi
cp "$core/lib/libterrazzo-core.so" "$runtime" "$package/"

# The extension: -fexceptions for pybind11 (the core and runtime are built
# without exceptions; nothing throws across their API).
flags=(-O2 -std=c++17 -fPIC -fvisibility=hidden -fexceptions
       "${includes[@]}" -Iinclude -I"$core/include")
objects=()
pids=()
for source in python/src/*.cpp; do
  object="$build/python-$(basename "${source%.cpp}").o"
  objects+=("$object")
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  "$cxx" "${flags[@]}" -c "$source" -o "$object" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
"$cxx" -shared "${objects[@]}" -L"$package" -lterrazzo-core -lterrazzo-runtime \
  -Wl,-rpath,'$ORIGIN' -o "$package/_C$suffix"

# Load the extension by itself (not the package, whose __init__ may need
# torch): this checks the rpath and that every symbol resolves.
"$python" - "$package/_C$suffix" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("terrazzo._C", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print("loaded", sys.argv[1], "-", module.version(),
      "- runtime available:", module.runtime_available())
EOF
echo "built $package; use it with PYTHONPATH=$out"
