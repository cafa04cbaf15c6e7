#!/usr/bin/env bash
# Installs what Terrazzo needs on Debian 12 (apt packages, by name), then
# configures and builds the development flavour in ./build.
# Sourced by main.sh and test.sh; safe to run again (it only does what is
# missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TERRAZZO_APT_PACKAGES=(
  cmake ninja-build ccache g++ mold python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
  libgtest-dev zlib1g-dev libzstd-dev zstd
  libamdhip64-5  # ROCm's HIP: the runtime's test that every hip* symbol it uses resolves
  python3-dev python3-pybind11 python3-numpy python3-pytest
  python3-venv python3-pip python3-setuptools python3-wheel python3-build
)

missing=()
for package in "${TERRAZZO_APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${BUILD_DIR:-build}
# Debian's Python has the packages installed above; a python3 earlier on
# PATH (pyenv, a venv) may not.
export TERRAZZO_PYTHON=${TERRAZZO_PYTHON:-/usr/bin/python3}
# Objects are shared between build folders (and flavours) through ccache.
export CCACHE_BASEDIR=$PWD
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DPython3_EXECUTABLE="$TERRAZZO_PYTHON" ${TERRAZZO_CMAKE_ARGS:-}
fi
ninja -C "$BUILD_DIR" -j"${JOBS:-$(nproc)}"
