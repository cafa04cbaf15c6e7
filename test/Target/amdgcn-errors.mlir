// What goes wrong on the way to an hsaco comes back as an error of the
// compile, never as a crash or an exit of the process.
// RUN: rm -rf %t && split-file %s %t

// Inline assembly the AMDGPU back end cannot parse (PTX here) is reported
// with LLVM's message when the object is assembled.
// RUN: not terrazzo-compile %t/asm.mlir --target=hip:gfx942 -o %t/asm.hsaco 2>&1 | FileCheck %s --check-prefix=ASM
// ASM: asm.mlir: error: the AMDGPU backend failed: <inline asm>:1:2: invalid instruction
// ASM-NEXT: add.s32

// Without ld.lld the hsaco cannot be linked; the message says what to set.
// RUN: not env TERRAZZO_LLD=%t/no-lld terrazzo-compile %t/add.mlir --target=hip:gfx90a -o %t/add.hsaco 2>&1 | FileCheck %s --check-prefix=LLD
// LLD: add.mlir: error: ld.lld (LLVM 22's, Debian's lld-22) was not found to link the hsaco; set TERRAZZO_LLD to it or install lld-22
// The assembly needs no linker.
// RUN: env TERRAZZO_LLD=%t/no-lld terrazzo-compile %t/add.mlir --target=hip:gfx90a --emit=amdgcn -o %t/add.s

//--- asm.mlir
func.func @asm(%x: !tile.ptr<i32>) {
  %v = tile.load %x : !tile.ptr<i32>
  %0 = tile.inline_asm "add.s32 $0, $1, $1;" constraints "=r,r" (%v) {pack = 1 : i32, pure = true} : (i32) -> i32
  tile.store %x, %0 : !tile.ptr<i32>
  return
}

//--- add.mlir
func.func @add(%x: !tile.ptr<f32>) {
  %v = tile.load %x : !tile.ptr<f32>
  %w = arith.addf %v, %v : f32
  tile.store %x, %w : !tile.ptr<f32>
  return
}
