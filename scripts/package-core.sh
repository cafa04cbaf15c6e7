#!/usr/bin/env bash
# Builds the portable flavour (one self-contained core library, LLVM/MLIR
# linked statically) and packages it with the public headers into
# dist/terrazzo-core.tar.zst, ready to copy to another Linux machine (glibc
# >= 2.36) and build the Python extension against.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=build-portable
TERRAZZO_CMAKE_ARGS="-DTERRAZZO_PORTABLE=ON"
source scripts/setup.sh

library="$BUILD_DIR/lib/libterrazzo-core.so"
if ldd "$library" | grep -E -i "llvm|mlir"; then
  echo "error: $library links a shared LLVM/MLIR library" >&2
  exit 1
fi

stage=dist/terrazzo-core
rm -rf "$stage" dist/terrazzo-core.tar.zst
mkdir -p "$stage/lib" "$stage/include"
cp -r include/terrazzo "$stage/include/"
/usr/lib/llvm-22/bin/llvm-strip --strip-unneeded -o "$stage/lib/libterrazzo-core.so" "$library"
tar -C dist -cf - terrazzo-core | zstd -19 -T0 -q -o dist/terrazzo-core.tar.zst

echo "core library: $(stat -c %s "$library") bytes built, $(stat -c %s "$stage/lib/libterrazzo-core.so") stripped," \
     "$(stat -c %s dist/terrazzo-core.tar.zst) in dist/terrazzo-core.tar.zst"
echo "needs: $(ldd "$stage/lib/libterrazzo-core.so" | awk '{print $1}' | grep -v vdso | tr '\n' ' ')"
