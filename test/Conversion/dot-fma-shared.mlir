// RUN: terrazzo-opt %s -split-input-file --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// An FMA dot whose operands a local_load reads from shared memory reads
// them again next to the products of their k (the local_load's loads,
// all issued before the dot, are left dead): loads of later k come after
// the first fused multiply-adds, with their addresses computed there.
// CHECK-LABEL: llvm.func @operands_read_per_k
// CHECK: llvm.intr.fma
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.intr.fma
#a = #tilegpu.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#b = #tilegpu.blocked<{sizePerThread = [16, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #tilegpu.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @operands_read_per_k(%av: tensor<32x16xf32, #c>, %bv: tensor<16x64xf32, #c>, %acc: tensor<32x64xf32, #c>, %out: tensor<32x64x!tile.ptr<f32>, #c>) {
    %sa = tilegpu.local_alloc %av : (tensor<32x16xf32, #c>) -> !tilegpu.memdesc<32x16xf32, #s>
    %sb = tilegpu.local_alloc %bv : (tensor<16x64xf32, #c>) -> !tilegpu.memdesc<16x64xf32, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<32x16xf32, #s> -> tensor<32x16xf32, #a>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf32, #s> -> tensor<16x64xf32, #b>
    %d = tile.dot %a, %b, %acc : tensor<32x16xf32, #a> * tensor<16x64xf32, #b> -> tensor<32x64xf32, #c>
    tile.store %out, %d : tensor<32x64x!tile.ptr<f32>, #c>
    return
  }
}

// -----

// Must not: a store to shared memory between the local_load and the dot
// could change what a later read sees, so the operands are the values the
// local_load read, and no load follows the first product.
// CHECK-LABEL: llvm.func @write_in_between
// CHECK: llvm.intr.fma
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#a = #tilegpu.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#b = #tilegpu.blocked<{sizePerThread = [16, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #tilegpu.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @write_in_between(%av: tensor<32x16xf32, #c>, %bv: tensor<16x64xf32, #c>, %acc: tensor<32x64xf32, #c>, %out: tensor<32x64x!tile.ptr<f32>, #c>) {
    %sa = tilegpu.local_alloc %av : (tensor<32x16xf32, #c>) -> !tilegpu.memdesc<32x16xf32, #s, mutable>
    %sb = tilegpu.local_alloc %bv : (tensor<16x64xf32, #c>) -> !tilegpu.memdesc<16x64xf32, #s>
    %a = tilegpu.local_load %sa : !tilegpu.memdesc<32x16xf32, #s, mutable> -> tensor<32x16xf32, #a>
    %b = tilegpu.local_load %sb : !tilegpu.memdesc<16x64xf32, #s> -> tensor<16x64xf32, #b>
    tilegpu.local_store %av, %sa : tensor<32x16xf32, #c> -> !tilegpu.memdesc<32x16xf32, #s, mutable>
    %d = tile.dot %a, %b, %acc : tensor<32x16xf32, #a> * tensor<16x64xf32, #b> -> tensor<32x64xf32, #c>
    tile.store %out, %d : tensor<32x64x!tile.ptr<f32>, #c>
    return
  }
}
