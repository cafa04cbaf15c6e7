// RUN: terrazzo-opt %s -split-input-file -canonicalize | FileCheck %s

// One case per folder and canonicalization pattern of TileFolds.cpp, and the
// cases that must stay as they are. Every result is returned so that nothing
// is removed as dead code.

//===----------------------------------------------------------------------===//
// splat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat_of_float_constant(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-NEXT: return %[[C]] : tensor<4x8xf32>
func.func @splat_of_float_constant() -> tensor<4x8xf32> {
  %c = arith.constant 2.5 : f32
  %0 = tile.splat %c : f32 -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @splat_of_int_constants(
// CHECK-DAG: %[[I:.*]] = arith.constant dense<-7> : tensor<16xi32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<true> : tensor<2x2xi1>
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0> : tensor<i64>
// CHECK-NOT: tile.splat
// CHECK: return %[[I]], %[[B]], %[[Z]] : tensor<16xi32>, tensor<2x2xi1>, tensor<i64>
func.func @splat_of_int_constants() -> (tensor<16xi32>, tensor<2x2xi1>, tensor<i64>) {
  %i = arith.constant -7 : i32
  %0 = tile.splat %i : i32 -> tensor<16xi32>
  %t = arith.constant true
  %1 = tile.splat %t : i1 -> tensor<2x2xi1>
  %z = arith.constant 0 : i64
  %2 = tile.splat %z : i64 -> tensor<i64>
  return %0, %1, %2 : tensor<16xi32>, tensor<2x2xi1>, tensor<i64>
}

// -----

// A splat of a pointer or of a value that is not constant stays.
// CHECK-LABEL: func.func @splat_not_constant(
// CHECK-NEXT: %[[P:.*]] = tile.splat %arg0 : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg1 : f32 -> tensor<16xf32>
// CHECK-NEXT: return %[[P]], %[[S]]
func.func @splat_not_constant(%p: !tile.ptr<f32>, %s: f32)
    -> (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) {
  %0 = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %1 = tile.splat %s : f32 -> tensor<16xf32>
  return %0, %1 : tensor<16x!tile.ptr<f32>>, tensor<16xf32>
}

// -----

// A splat of a constant pointer (int_to_ptr does not fold) stays too.
// CHECK-LABEL: func.func @splat_of_int_to_ptr(
// CHECK: %[[P:.*]] = tile.int_to_ptr %{{.*}} : i64 -> !tile.ptr<f16>
// CHECK-NEXT: %[[S:.*]] = tile.splat %[[P]] : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: return %[[S]]
func.func @splat_of_int_to_ptr() -> tensor<8x!tile.ptr<f16>> {
  %c = arith.constant 4096 : i64
  %p = tile.int_to_ptr %c : i64 -> !tile.ptr<f16>
  %0 = tile.splat %p : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  return %0 : tensor<8x!tile.ptr<f16>>
}

// -----

//===----------------------------------------------------------------------===//
// broadcast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_of_broadcast(
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %arg0 : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[B]] : tensor<4x8xf32>
func.func @broadcast_of_broadcast(%a: tensor<1x1xf32>) -> tensor<4x8xf32> {
  %0 = tile.broadcast %a : tensor<1x1xf32> -> tensor<1x8xf32>
  %1 = tile.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// The inner broadcast has another use: it stays, the outer one bypasses it.
// CHECK-LABEL: func.func @broadcast_of_shared_broadcast(
// CHECK-NEXT: %[[INNER:.*]] = tile.broadcast %arg0 : tensor<1x1xi32> -> tensor<1x8xi32>
// CHECK-NEXT: %[[OUTER:.*]] = tile.broadcast %arg0 : tensor<1x1xi32> -> tensor<4x8xi32>
// CHECK-NEXT: return %[[INNER]], %[[OUTER]]
func.func @broadcast_of_shared_broadcast(%a: tensor<1x1xi32>) -> (tensor<1x8xi32>, tensor<4x8xi32>) {
  %0 = tile.broadcast %a : tensor<1x1xi32> -> tensor<1x8xi32>
  %1 = tile.broadcast %0 : tensor<1x8xi32> -> tensor<4x8xi32>
  return %0, %1 : tensor<1x8xi32>, tensor<4x8xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_splat(
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg0 : f32 -> tensor<4x8xf32>
// CHECK-NEXT: return %[[S]] : tensor<4x8xf32>
func.func @broadcast_of_splat(%s: f32) -> tensor<4x8xf32> {
  %0 = tile.splat %s : f32 -> tensor<1x8xf32>
  %1 = tile.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_ptr_splat(
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg0 : !tile.ptr<i8, 3> -> tensor<16x16x!tile.ptr<i8, 3>>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_of_ptr_splat(%p: !tile.ptr<i8, 3>) -> tensor<16x16x!tile.ptr<i8, 3>> {
  %0 = tile.splat %p : !tile.ptr<i8, 3> -> tensor<16x1x!tile.ptr<i8, 3>>
  %1 = tile.broadcast %0 : tensor<16x1x!tile.ptr<i8, 3>> -> tensor<16x16x!tile.ptr<i8, 3>>
  return %1 : tensor<16x16x!tile.ptr<i8, 3>>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_constant(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<3> : tensor<4x8xi16>
// CHECK-NEXT: return %[[C]] : tensor<4x8xi16>
func.func @broadcast_of_constant() -> tensor<4x8xi16> {
  %c = arith.constant dense<3> : tensor<4x1xi16>
  %0 = tile.broadcast %c : tensor<4x1xi16> -> tensor<4x8xi16>
  return %0 : tensor<4x8xi16>
}

// -----

// CHECK-LABEL: func.func @broadcast_same_type(
// CHECK-NEXT: return %arg0 : tensor<4x8xf32>
func.func @broadcast_same_type(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tile.broadcast %a : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_not_splat(
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %arg0 : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[B]] : tensor<4x8xf32>
func.func @broadcast_not_splat(%a: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = tile.broadcast %a : tensor<4x1xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A constant that is not a splat is not folded.
// CHECK-LABEL: func.func @broadcast_of_dense_constant(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[\[}}1], [2]]> : tensor<2x1xi32>
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[C]] : tensor<2x1xi32> -> tensor<2x4xi32>
// CHECK-NEXT: return %[[B]] : tensor<2x4xi32>
func.func @broadcast_of_dense_constant() -> tensor<2x4xi32> {
  %c = arith.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %0 = tile.broadcast %c : tensor<2x1xi32> -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

//===----------------------------------------------------------------------===//
// expand_dims
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @expand_dims_of_splat(
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg0 : i32 -> tensor<16x1xi32>
// CHECK-NEXT: return %[[S]] : tensor<16x1xi32>
func.func @expand_dims_of_splat(%s: i32) -> tensor<16x1xi32> {
  %0 = tile.splat %s : i32 -> tensor<16xi32>
  %1 = tile.expand_dims %0 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  return %1 : tensor<16x1xi32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_constant(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<1x16xf16>
// CHECK-NEXT: return %[[C]] : tensor<1x16xf16>
func.func @expand_dims_of_constant() -> tensor<1x16xf16> {
  %c = arith.constant dense<1.0> : tensor<16xf16>
  %0 = tile.expand_dims %c axis = 0 : tensor<16xf16> -> tensor<1x16xf16>
  return %0 : tensor<1x16xf16>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_reshape(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0 : tensor<8x16xf32> -> tensor<1x128xf32>
// CHECK-NEXT: return %[[R]] : tensor<1x128xf32>
func.func @expand_dims_of_reshape(%a: tensor<8x16xf32>) -> tensor<1x128xf32> {
  %0 = tile.reshape %a : tensor<8x16xf32> -> tensor<128xf32>
  %1 = tile.expand_dims %0 axis = 0 : tensor<128xf32> -> tensor<1x128xf32>
  return %1 : tensor<1x128xf32>
}

// -----

// The reshape's allow_reorder is kept.
// CHECK-LABEL: func.func @expand_dims_of_reorder_reshape(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0 allow_reorder : tensor<8x16xf32> -> tensor<128x1xf32>
// CHECK-NEXT: return %[[R]] : tensor<128x1xf32>
func.func @expand_dims_of_reorder_reshape(%a: tensor<8x16xf32>) -> tensor<128x1xf32> {
  %0 = tile.reshape %a allow_reorder : tensor<8x16xf32> -> tensor<128xf32>
  %1 = tile.expand_dims %0 axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  return %1 : tensor<128x1xf32>
}

// -----

// Expanding a reshape back to the reshape's source type folds away.
// CHECK-LABEL: func.func @expand_dims_undoes_reshape(
// CHECK-NEXT: return %arg0 : tensor<16x1xf32>
func.func @expand_dims_undoes_reshape(%a: tensor<16x1xf32>) -> tensor<16x1xf32> {
  %0 = tile.reshape %a : tensor<16x1xf32> -> tensor<16xf32>
  %1 = tile.expand_dims %0 axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  return %1 : tensor<16x1xf32>
}

// -----

// Neither a splat, a constant nor a reshape: kept.
// CHECK-LABEL: func.func @expand_dims_kept(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// CHECK-NEXT: %[[R:.*]] = tile.make_range 0 to 16 : tensor<16xi32>
// CHECK-NEXT: %[[E:.*]] = tile.expand_dims %[[R]] axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
// CHECK-NEXT: %[[T:.*]] = tile.trans %arg0 [1, 0] : tensor<4x8xi32> -> tensor<8x4xi32>
// CHECK-NEXT: %[[E2:.*]] = tile.expand_dims %[[T]] axis = 2 : tensor<8x4xi32> -> tensor<8x4x1xi32>
// CHECK-NEXT: %[[E3:.*]] = tile.expand_dims %[[C]] axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
// CHECK-NEXT: return %[[E]], %[[E2]], %[[E3]]
func.func @expand_dims_kept(%a: tensor<4x8xi32>)
    -> (tensor<1x16xi32>, tensor<8x4x1xi32>, tensor<1x4xi32>) {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %0 = tile.expand_dims %r axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %t = tile.trans %a [1, 0] : tensor<4x8xi32> -> tensor<8x4xi32>
  %1 = tile.expand_dims %t axis = 2 : tensor<8x4xi32> -> tensor<8x4x1xi32>
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %2 = tile.expand_dims %c axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  return %0, %1, %2 : tensor<1x16xi32>, tensor<8x4x1xi32>, tensor<1x4xi32>
}

// -----

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_of_reshape(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0 : tensor<8x16xf32> -> tensor<4x32xf32>
// CHECK-NEXT: return %[[R]] : tensor<4x32xf32>
func.func @reshape_of_reshape(%a: tensor<8x16xf32>) -> tensor<4x32xf32> {
  %0 = tile.reshape %a : tensor<8x16xf32> -> tensor<128xf32>
  %1 = tile.reshape %0 : tensor<128xf32> -> tensor<4x32xf32>
  return %1 : tensor<4x32xf32>
}

// -----

// allow_reorder on either reshape allows it on the merged one.
// CHECK-LABEL: func.func @reshape_of_reshape_reorder(
// CHECK-NEXT: %[[R0:.*]] = tile.reshape %arg0 allow_reorder : tensor<8x16xf32> -> tensor<4x32xf32>
// CHECK-NEXT: %[[R1:.*]] = tile.reshape %arg0 allow_reorder : tensor<8x16xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %[[R2:.*]] = tile.reshape %arg0 allow_reorder : tensor<8x16xf32> -> tensor<32x4xf32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]]
func.func @reshape_of_reshape_reorder(%a: tensor<8x16xf32>)
    -> (tensor<4x32xf32>, tensor<2x64xf32>, tensor<32x4xf32>) {
  %0 = tile.reshape %a allow_reorder : tensor<8x16xf32> -> tensor<128xf32>
  %1 = tile.reshape %0 : tensor<128xf32> -> tensor<4x32xf32>
  %2 = tile.reshape %a : tensor<8x16xf32> -> tensor<16x8xf32>
  %3 = tile.reshape %2 allow_reorder : tensor<16x8xf32> -> tensor<2x64xf32>
  %4 = tile.reshape %a allow_reorder : tensor<8x16xf32> -> tensor<64x2xf32>
  %5 = tile.reshape %4 allow_reorder : tensor<64x2xf32> -> tensor<32x4xf32>
  return %1, %3, %5 : tensor<4x32xf32>, tensor<2x64xf32>, tensor<32x4xf32>
}

// -----

// Three reshapes in a row become one.
// CHECK-LABEL: func.func @reshape_chain(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0 : tensor<2x3x4xi8> -> tensor<4x6xi8>
// CHECK-NEXT: return %[[R]] : tensor<4x6xi8>
func.func @reshape_chain(%a: tensor<2x3x4xi8>) -> tensor<4x6xi8> {
  %0 = tile.reshape %a : tensor<2x3x4xi8> -> tensor<24xi8>
  %1 = tile.reshape %0 : tensor<24xi8> -> tensor<6x4xi8>
  %2 = tile.reshape %1 : tensor<6x4xi8> -> tensor<4x6xi8>
  return %2 : tensor<4x6xi8>
}

// -----

// A reshape back to the original type folds away entirely.
// CHECK-LABEL: func.func @reshape_round_trip(
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
func.func @reshape_round_trip(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tile.reshape %a : tensor<8x16xf32> -> tensor<128xf32>
  %1 = tile.reshape %0 : tensor<128xf32> -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_expand_dims(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0 : tensor<16xf32> -> tensor<4x4xf32>
// CHECK-NEXT: return %[[R]] : tensor<4x4xf32>
func.func @reshape_of_expand_dims(%a: tensor<16xf32>) -> tensor<4x4xf32> {
  %0 = tile.expand_dims %a axis = 0 : tensor<16xf32> -> tensor<1x16xf32>
  %1 = tile.reshape %0 : tensor<1x16xf32> -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// The outer reshape's allow_reorder is kept.
// CHECK-LABEL: func.func @reorder_reshape_of_expand_dims(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %arg0 allow_reorder : tensor<16xf32> -> tensor<2x8xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x8xf32>
func.func @reorder_reshape_of_expand_dims(%a: tensor<16xf32>) -> tensor<2x8xf32> {
  %0 = tile.expand_dims %a axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %1 = tile.reshape %0 allow_reorder : tensor<16x1xf32> -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_same_type(
// CHECK-NEXT: return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
func.func @reshape_same_type(%a: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = tile.reshape %a : tensor<8x16xf32> -> tensor<8x16xf32>
  %1 = tile.reshape %a allow_reorder : tensor<8x16xf32> -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_splat(
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg0 : !tile.ptr<f32> -> tensor<4x4x!tile.ptr<f32>>
// CHECK-NEXT: return %[[S]]
func.func @reshape_of_splat(%p: !tile.ptr<f32>) -> tensor<4x4x!tile.ptr<f32>> {
  %0 = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %1 = tile.reshape %0 : tensor<16x!tile.ptr<f32>> -> tensor<4x4x!tile.ptr<f32>>
  return %1 : tensor<4x4x!tile.ptr<f32>>
}

// -----

// CHECK-LABEL: func.func @reshape_of_constant(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<-1> : tensor<4x32xi64>
// CHECK-NEXT: return %[[C]] : tensor<4x32xi64>
func.func @reshape_of_constant() -> tensor<4x32xi64> {
  %c = arith.constant dense<-1> : tensor<128xi64>
  %0 = tile.reshape %c : tensor<128xi64> -> tensor<4x32xi64>
  return %0 : tensor<4x32xi64>
}

// -----

// The source is not a reshape, expand_dims, splat or splat constant: kept.
// CHECK-LABEL: func.func @reshape_kept(
// CHECK-NEXT: %[[L:.*]] = tile.load %arg0 : tensor<16x!tile.ptr<f32>>
// CHECK-NEXT: %[[R0:.*]] = tile.reshape %[[L]] : tensor<16xf32> -> tensor<4x4xf32>
// CHECK-NEXT: %[[T:.*]] = tile.trans %arg1 [1, 0] : tensor<2x8xf32> -> tensor<8x2xf32>
// CHECK-NEXT: %[[R1:.*]] = tile.reshape %[[T]] : tensor<8x2xf32> -> tensor<16xf32>
// CHECK-NEXT: %[[R2:.*]] = tile.reshape %arg1 allow_reorder : tensor<2x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]]
func.func @reshape_kept(%p: tensor<16x!tile.ptr<f32>>, %a: tensor<2x8xf32>)
    -> (tensor<4x4xf32>, tensor<16xf32>, tensor<4x4xf32>) {
  %l = tile.load %p : tensor<16x!tile.ptr<f32>>
  %0 = tile.reshape %l : tensor<16xf32> -> tensor<4x4xf32>
  %t = tile.trans %a [1, 0] : tensor<2x8xf32> -> tensor<8x2xf32>
  %1 = tile.reshape %t : tensor<8x2xf32> -> tensor<16xf32>
  %2 = tile.reshape %a allow_reorder : tensor<2x8xf32> -> tensor<4x4xf32>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<16xf32>, tensor<4x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// trans
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @trans_identity(
// CHECK-NEXT: return %arg0, %arg1 : tensor<4x8xf32>, tensor<2x3x4xi8>
func.func @trans_identity(%a: tensor<4x8xf32>, %b: tensor<2x3x4xi8>)
    -> (tensor<4x8xf32>, tensor<2x3x4xi8>) {
  %0 = tile.trans %a [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = tile.trans %b [0, 1, 2] : tensor<2x3x4xi8> -> tensor<2x3x4xi8>
  return %0, %1 : tensor<4x8xf32>, tensor<2x3x4xi8>
}

// -----

// Result dimension i of the outer trans is source dimension inner[outer[i]]:
// [1, 2, 0] then [1, 0, 2] is [2, 1, 0] (and not [0, 2, 1], the composition in
// the other order).
// CHECK-LABEL: func.func @trans_of_trans(
// CHECK-NEXT: %[[T:.*]] = tile.trans %arg0 [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[T]] : tensor<4x3x2xf32>
func.func @trans_of_trans(%a: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = tile.trans %a [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = tile.trans %0 [1, 0, 2] : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// [3, 1, 0, 2] then [0, 2, 3, 1] is [3, 0, 2, 1] (the other order would give
// [1, 2, 0, 3]).
// CHECK-LABEL: func.func @trans_of_trans_4d(
// CHECK-NEXT: %[[T:.*]] = tile.trans %arg0 [3, 0, 2, 1] : tensor<2x3x4x5xf16> -> tensor<5x2x4x3xf16>
// CHECK-NEXT: return %[[T]] : tensor<5x2x4x3xf16>
func.func @trans_of_trans_4d(%a: tensor<2x3x4x5xf16>) -> tensor<5x2x4x3xf16> {
  %0 = tile.trans %a [3, 1, 0, 2] : tensor<2x3x4x5xf16> -> tensor<5x3x2x4xf16>
  %1 = tile.trans %0 [0, 2, 3, 1] : tensor<5x3x2x4xf16> -> tensor<5x2x4x3xf16>
  return %1 : tensor<5x2x4x3xf16>
}

// -----

// The inner trans has another use: it stays, the outer one bypasses it.
// CHECK-LABEL: func.func @trans_of_shared_trans(
// CHECK-NEXT: %[[T0:.*]] = tile.trans %arg0 [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT: %[[T1:.*]] = tile.trans %arg0 [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
// CHECK-NEXT: return %[[T0]], %[[T1]]
func.func @trans_of_shared_trans(%a: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<2x4x3xf32>) {
  %0 = tile.trans %a [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = tile.trans %0 [2, 1, 0] : tensor<3x4x2xf32> -> tensor<2x4x3xf32>
  return %0, %1 : tensor<3x4x2xf32>, tensor<2x4x3xf32>
}

// -----

// Two transposes that undo each other disappear.
// CHECK-LABEL: func.func @trans_of_trans_identity(
// CHECK-NEXT: return %arg0, %arg1 : tensor<2x3x4xf32>, tensor<8x16xi32>
func.func @trans_of_trans_identity(%a: tensor<2x3x4xf32>, %b: tensor<8x16xi32>)
    -> (tensor<2x3x4xf32>, tensor<8x16xi32>) {
  %0 = tile.trans %a [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = tile.trans %0 [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  %2 = tile.trans %b [1, 0] : tensor<8x16xi32> -> tensor<16x8xi32>
  %3 = tile.trans %2 [1, 0] : tensor<16x8xi32> -> tensor<8x16xi32>
  return %1, %3 : tensor<2x3x4xf32>, tensor<8x16xi32>
}

// -----

// CHECK-LABEL: func.func @trans_of_splat(
// CHECK-NEXT: %[[S:.*]] = tile.splat %arg0 : bf16 -> tensor<16x8xbf16>
// CHECK-NEXT: return %[[S]] : tensor<16x8xbf16>
func.func @trans_of_splat(%s: bf16) -> tensor<16x8xbf16> {
  %0 = tile.splat %s : bf16 -> tensor<8x16xbf16>
  %1 = tile.trans %0 [1, 0] : tensor<8x16xbf16> -> tensor<16x8xbf16>
  return %1 : tensor<16x8xbf16>
}

// -----

// CHECK-LABEL: func.func @trans_of_constant(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<5.000000e-01> : tensor<16x8xf32>
// CHECK-NEXT: return %[[C]] : tensor<16x8xf32>
func.func @trans_of_constant() -> tensor<16x8xf32> {
  %c = arith.constant dense<0.5> : tensor<8x16xf32>
  %0 = tile.trans %c [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// A non-splat constant is not transposed at compile time.
// CHECK-LABEL: func.func @trans_kept(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT: %[[T0:.*]] = tile.trans %arg0 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %[[T1:.*]] = tile.trans %[[C]] [1, 0] : tensor<2x2xi32> -> tensor<2x2xi32>
// CHECK-NEXT: return %[[T0]], %[[T1]]
func.func @trans_kept(%a: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<2x2xi32>) {
  %0 = tile.trans %a [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %1 = tile.trans %c [1, 0] : tensor<2x2xi32> -> tensor<2x2xi32>
  return %0, %1 : tensor<8x4xf32>, tensor<2x2xi32>
}

// -----

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @addptr_zero(
// CHECK-NOT: tile.addptr
// CHECK: return %arg0, %arg1, %arg1, %arg2 : !tile.ptr<f32>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, !tile.ptr<f16, 3>
func.func @addptr_zero(%p: !tile.ptr<f32>, %q: tensor<16x!tile.ptr<f32>>, %r: !tile.ptr<f16, 3>)
    -> (!tile.ptr<f32>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, !tile.ptr<f16, 3>) {
  %z = arith.constant 0 : i32
  %0 = tile.addptr %p, %z : !tile.ptr<f32>, i32
  %zs = tile.splat %z : i32 -> tensor<16xi32>
  %1 = tile.addptr %q, %zs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %zd = arith.constant dense<0> : tensor<16xi64>
  %2 = tile.addptr %q, %zd : tensor<16x!tile.ptr<f32>>, tensor<16xi64>
  %z64 = arith.constant 0 : i64
  %3 = tile.addptr %r, %z64 : !tile.ptr<f16, 3>, i64
  return %0, %1, %2, %3 : !tile.ptr<f32>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, !tile.ptr<f16, 3>
}

// -----

// CHECK-LABEL: func.func @addptr_nonzero(
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[FOUR:.*]] = arith.constant dense<4> : tensor<16xi32>
// CHECK-DAG: %[[MIXED:.*]] = arith.constant dense<[0, 1, 0, 0]> : tensor<4xi32>
// CHECK: %[[A0:.*]] = tile.addptr %arg0, %[[ONE]] : !tile.ptr<f32>, i32
// CHECK: %[[A1:.*]] = tile.addptr %arg1, %[[FOUR]] : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
// CHECK: %[[A2:.*]] = tile.addptr %arg2, %[[MIXED]] : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
// CHECK: %[[A3:.*]] = tile.addptr %arg0, %arg3 : !tile.ptr<f32>, i32
// CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[A3]]
func.func @addptr_nonzero(%p: !tile.ptr<f32>, %q: tensor<16x!tile.ptr<f32>>,
                          %r: tensor<4x!tile.ptr<f32>>, %o: i32)
    -> (!tile.ptr<f32>, tensor<16x!tile.ptr<f32>>, tensor<4x!tile.ptr<f32>>, !tile.ptr<f32>) {
  %one = arith.constant 1 : i32
  %0 = tile.addptr %p, %one : !tile.ptr<f32>, i32
  %four = arith.constant 4 : i32
  %fours = tile.splat %four : i32 -> tensor<16xi32>
  %1 = tile.addptr %q, %fours : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %mixed = arith.constant dense<[0, 1, 0, 0]> : tensor<4xi32>
  %2 = tile.addptr %r, %mixed : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %3 = tile.addptr %p, %o : !tile.ptr<f32>, i32
  return %0, %1, %2, %3 : !tile.ptr<f32>, tensor<16x!tile.ptr<f32>>, tensor<4x!tile.ptr<f32>>, !tile.ptr<f32>
}

// -----

//===----------------------------------------------------------------------===//
// fp_to_fp and bitcast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fp_to_fp_same_type(
// CHECK-NEXT: return %arg0, %arg1 : tensor<16xf32>, bf16
func.func @fp_to_fp_same_type(%a: tensor<16xf32>, %b: bf16) -> (tensor<16xf32>, bf16) {
  %0 = tile.fp_to_fp %a : tensor<16xf32> -> tensor<16xf32>
  %1 = tile.fp_to_fp %b : bf16 -> bf16
  return %0, %1 : tensor<16xf32>, bf16
}

// -----

// A rounding conversion and its widening inverse are not an identity.
// CHECK-LABEL: func.func @fp_to_fp_kept(
// CHECK-NEXT: %[[N:.*]] = tile.fp_to_fp %arg0 rounding = rtne : tensor<16xf32> -> tensor<16xf16>
// CHECK-NEXT: %[[W:.*]] = tile.fp_to_fp %[[N]] : tensor<16xf16> -> tensor<16xf32>
// CHECK-NEXT: return %[[W]] : tensor<16xf32>
func.func @fp_to_fp_kept(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = tile.fp_to_fp %a rounding = rtne : tensor<16xf32> -> tensor<16xf16>
  %1 = tile.fp_to_fp %0 : tensor<16xf16> -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// Constants the result type holds exactly fold (the `other` of an fp8 load
// is 0.0 as f32 until then); inexact ones (0.1 is no fp8 value), and
// infinities and NaN (which the fp8 conversions saturate or make
// canonical), stay conversions.
// CHECK-LABEL: func.func @fp_to_fp_constants(
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf8E4M3FN>
// CHECK-DAG: %[[H:.*]] = arith.constant -1.500000e+00 : f8E5M2
// CHECK-DAG: %[[W:.*]] = arith.constant dense<4.480000e+02> : tensor<16xf32>
// CHECK-DAG: tile.fp_to_fp %{{.*}} rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
// CHECK-DAG: tile.fp_to_fp %{{.*}} rounding = rtne : f32 -> f8E5M2
// CHECK-DAG: tile.fp_to_fp %{{.*}} rounding = rtz : f32 -> f8E4M3FN
// CHECK: return %[[Z]], %[[H]], %[[W]],
func.func @fp_to_fp_constants() -> (tensor<16xf8E4M3FN>, f8E5M2, tensor<16xf32>,
                                    tensor<16xf8E4M3FN>, f8E5M2, f8E4M3FN) {
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %half = arith.constant -1.5 : f32
  %max = arith.constant dense<448.0> : tensor<16xf8E4M3FN>
  %tenth = arith.constant dense<0.1> : tensor<16xf32>
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = tile.fp_to_fp %zero rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
  %1 = tile.fp_to_fp %half rounding = rtne : f32 -> f8E5M2
  %2 = tile.fp_to_fp %max : tensor<16xf8E4M3FN> -> tensor<16xf32>
  %3 = tile.fp_to_fp %tenth rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
  %4 = tile.fp_to_fp %inf rounding = rtne : f32 -> f8E5M2
  %5 = tile.fp_to_fp %nan rounding = rtz : f32 -> f8E4M3FN
  return %0, %1, %2, %3, %4, %5 : tensor<16xf8E4M3FN>, f8E5M2, tensor<16xf32>, tensor<16xf8E4M3FN>, f8E5M2, f8E4M3FN
}

// -----

// CHECK-LABEL: func.func @bitcast_same_type(
// CHECK-NEXT: return %arg0, %arg1 : tensor<16xi32>, !tile.ptr<f32>
func.func @bitcast_same_type(%a: tensor<16xi32>, %p: !tile.ptr<f32>) -> (tensor<16xi32>, !tile.ptr<f32>) {
  %0 = tile.bitcast %a : tensor<16xi32> -> tensor<16xi32>
  %1 = tile.bitcast %p : !tile.ptr<f32> -> !tile.ptr<f32>
  return %0, %1 : tensor<16xi32>, !tile.ptr<f32>
}

// -----

// CHECK-LABEL: func.func @bitcast_of_bitcast(
// CHECK-NEXT: %[[B0:.*]] = tile.bitcast %arg0 : tensor<16xf16> -> tensor<16xi16>
// CHECK-NEXT: %[[B1:.*]] = tile.bitcast %arg1 : !tile.ptr<f32> -> !tile.ptr<i8, 3>
// CHECK-NEXT: return %[[B0]], %[[B1]] : tensor<16xi16>, !tile.ptr<i8, 3>
func.func @bitcast_of_bitcast(%a: tensor<16xf16>, %p: !tile.ptr<f32>)
    -> (tensor<16xi16>, !tile.ptr<i8, 3>) {
  %0 = tile.bitcast %a : tensor<16xf16> -> tensor<16xbf16>
  %1 = tile.bitcast %0 : tensor<16xbf16> -> tensor<16xi16>
  %2 = tile.bitcast %p : !tile.ptr<f32> -> i64
  %3 = tile.bitcast %2 : i64 -> !tile.ptr<i8, 3>
  return %1, %3 : tensor<16xi16>, !tile.ptr<i8, 3>
}

// -----

// CHECK-LABEL: func.func @bitcast_round_trip(
// CHECK-NEXT: return %arg0, %arg1 : tensor<16xf16>, !tile.ptr<f32>
func.func @bitcast_round_trip(%a: tensor<16xf16>, %p: !tile.ptr<f32>)
    -> (tensor<16xf16>, !tile.ptr<f32>) {
  %0 = tile.bitcast %a : tensor<16xf16> -> tensor<16xbf16>
  %1 = tile.bitcast %0 : tensor<16xbf16> -> tensor<16xi16>
  %2 = tile.bitcast %1 : tensor<16xi16> -> tensor<16xf16>
  %3 = tile.bitcast %p : !tile.ptr<f32> -> i64
  %4 = tile.bitcast %3 : i64 -> !tile.ptr<f32>
  return %2, %4 : tensor<16xf16>, !tile.ptr<f32>
}

// -----

// The inner bitcast has another use: it stays, the outer one bypasses it.
// CHECK-LABEL: func.func @bitcast_of_shared_bitcast(
// CHECK-NEXT: %[[B0:.*]] = tile.bitcast %arg0 : f16 -> i16
// CHECK-NEXT: %[[B1:.*]] = tile.bitcast %arg0 : f16 -> bf16
// CHECK-NEXT: return %[[B0]], %[[B1]] : i16, bf16
func.func @bitcast_of_shared_bitcast(%a: f16) -> (i16, bf16) {
  %0 = tile.bitcast %a : f16 -> i16
  %1 = tile.bitcast %0 : i16 -> bf16
  return %0, %1 : i16, bf16
}

// -----

// CHECK-LABEL: func.func @bitcast_kept(
// CHECK-NEXT: %[[B0:.*]] = tile.bitcast %arg0 : tensor<4xf32> -> tensor<4xi32>
// CHECK-NEXT: %[[B1:.*]] = tile.bitcast %arg1 : !tile.ptr<f32> -> i64
// CHECK-NEXT: return %[[B0]], %[[B1]] : tensor<4xi32>, i64
func.func @bitcast_kept(%a: tensor<4xf32>, %p: !tile.ptr<f32>) -> (tensor<4xi32>, i64) {
  %0 = tile.bitcast %a : tensor<4xf32> -> tensor<4xi32>
  %1 = tile.bitcast %p : !tile.ptr<f32> -> i64
  return %0, %1 : tensor<4xi32>, i64
}

// -----

//===----------------------------------------------------------------------===//
// Memory effects
//===----------------------------------------------------------------------===//

// An unused load is dead; an unused volatile load is not (it counts as a
// write), and neither is an atomic, a store or a print.
// CHECK-LABEL: func.func @dead_loads(
// CHECK-NOT: tile.load %arg0 :
// CHECK: tile.load %arg0 volatile : tensor<16x!tile.ptr<i32>>
// CHECK-NEXT: tile.load %arg1, %arg2 cache = cv volatile : !tile.ptr<i32>
// CHECK-NEXT: tile.atomic_rmw add, relaxed, gpu, %arg1, %{{.*}} : !tile.ptr<i32>
// CHECK-NEXT: tile.print "x"
// CHECK-NEXT: return
func.func @dead_loads(%p: tensor<16x!tile.ptr<i32>>, %s: !tile.ptr<i32>, %m: i1) {
  %0 = tile.load %p : tensor<16x!tile.ptr<i32>>
  %1 = tile.load %p volatile : tensor<16x!tile.ptr<i32>>
  %2 = tile.load %s, %m cache = cv volatile : !tile.ptr<i32>
  %3 = tile.load %s, %m : !tile.ptr<i32>
  %c1 = arith.constant 1 : i32
  %4 = tile.atomic_rmw add, relaxed, gpu, %s, %c1 : !tile.ptr<i32>
  tile.print "x"
  return
}
