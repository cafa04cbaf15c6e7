// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// NVIDIA: one prefetch.global.L2 per vector a load would read, under the
// vector's mask. 64 x 64 f16 over 128 threads, 8 contiguous elements per
// thread and row, 16-byte aligned rows: 4 rows a thread, so 4 prefetches.
// CHECK-LABEL: llvm.func @prefetch_masked
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "@$1 prefetch.global.L2 [$0];", "l,b"
// CHECK-NOT: prefetch.global
// CHECK-NOT: tilegpu.prefetch_global
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #blocked}>
#cols = #tilegpu.slice<{dim = 0, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @prefetch_masked(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %rows_total: i32) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #rows>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #cols>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #rows> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #cols> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %ro = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %ro : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %base = tile.splat %q : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %p = tile.addptr %base, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %rowb = tile.broadcast %r2 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bound = tile.splat %rows_total : i32 -> tensor<64x64xi32, #blocked>
    %m = arith.cmpi slt, %rowb, %bound : tensor<64x64xi32, #blocked>
    tilegpu.prefetch_global %p mask %m : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>
    return
  }
}

// -----

// Without a mask, no predicate.
// CHECK-LABEL: llvm.func @prefetch_unmasked
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "prefetch.global.L2 [$0];", "l"
// CHECK-NOT: prefetch.global
#b1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @prefetch_unmasked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %bs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b1>
    %r = tile.make_range 0 to 1024 : tensor<1024xi32, #b1>
    %p = tile.addptr %bs, %r : tensor<1024x!tile.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    tilegpu.prefetch_global %p : tensor<1024x!tile.ptr<f32>, #b1>
    return
  }
}

// -----

// AMD has no L2 prefetch: the op goes, nothing replaces it.
// CHECK-LABEL: llvm.func @prefetch_amd
// CHECK-NOT: llvm.inline_asm
// CHECK-NOT: tilegpu.prefetch_global
// CHECK: llvm.return
#b1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "hip:gfx942"} {
  func.func @prefetch_amd(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %bs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #b1>
    %r = tile.make_range 0 to 1024 : tensor<1024xi32, #b1>
    %p = tile.addptr %bs, %r : tensor<1024x!tile.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    tilegpu.prefetch_global %p : tensor<1024x!tile.ptr<f32>, #b1>
    return
  }
}
