// RUN: terrazzo-opt %s -split-input-file -canonicalize | FileCheck %s

// Once tensors have layouts, the result layout of trans and reshape is the
// one inferred from their source's (terrazzo-convert-tile-to-tilegpu), so
// chains of them are not merged: the merged op would start from another
// source layout. (Tile IR without layouts merges them:
// test/Dialect/Tile/canonicalize.mlir.)

// CHECK-LABEL: func.func @reshape_of_reshape(
// CHECK-NEXT: %[[R0:.*]] = tile.reshape %arg0
// CHECK-NEXT: %[[R1:.*]] = tile.reshape %[[R0]]
// CHECK-NEXT: return %[[R1]]
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#w = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
func.func @reshape_of_reshape(%a: tensor<32x64xf32, #b2>) -> tensor<8x256xf32, #w> {
  %0 = tile.reshape %a : tensor<32x64xf32, #b2> -> tensor<2048xf32, #b1>
  %1 = tile.reshape %0 : tensor<2048xf32, #b1> -> tensor<8x256xf32, #w>
  return %1 : tensor<8x256xf32, #w>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_reshape(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0
// CHECK-NEXT: %[[E:.*]] = tile.expand_dims %[[R]] axis = 0
// CHECK-NEXT: return %[[E]]
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 0, parent = #row}>
func.func @expand_dims_of_reshape(%a: tensor<32x64xf32, #b2>) -> tensor<1x2048xf32, #row> {
  %0 = tile.reshape %a : tensor<32x64xf32, #b2> -> tensor<2048xf32, #s>
  %1 = tile.expand_dims %0 axis = 0 : tensor<2048xf32, #s> -> tensor<1x2048xf32, #row>
  return %1 : tensor<1x2048xf32, #row>
}

// -----

// CHECK-LABEL: func.func @trans_of_trans(
// CHECK-NEXT: %[[T0:.*]] = tile.trans %arg0 [1, 0]
// CHECK-NEXT: %[[T1:.*]] = tile.trans %[[T0]] [1, 0]
// CHECK-NEXT: return %[[T1]]
#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#t = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
func.func @trans_of_trans(%a: tensor<32x64xf32, #a>) -> tensor<32x64xf32, #a> {
  %0 = tile.trans %a [1, 0] : tensor<32x64xf32, #a> -> tensor<64x32xf32, #t>
  %1 = tile.trans %0 [1, 0] : tensor<64x32xf32, #t> -> tensor<32x64xf32, #a>
  return %1 : tensor<32x64xf32, #a>
}

// -----

// The identity permutation folds away only where it keeps the type.
// CHECK-LABEL: func.func @identity_trans(
// CHECK-NEXT: %[[T:.*]] = tile.trans %arg0 [0, 1]
// CHECK-NEXT: return %arg0, %[[T]]
#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#l = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [8, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[0, 32], [16, 0]]}>
func.func @identity_trans(%a: tensor<32x64xf32, #a>) -> (tensor<32x64xf32, #a>, tensor<32x64xf32, #l>) {
  %0 = tile.trans %a [0, 1] : tensor<32x64xf32, #a> -> tensor<32x64xf32, #a>
  %1 = tile.trans %a [0, 1] : tensor<32x64xf32, #a> -> tensor<32x64xf32, #l>
  return %0, %1 : tensor<32x64xf32, #a>, tensor<32x64xf32, #l>
}
