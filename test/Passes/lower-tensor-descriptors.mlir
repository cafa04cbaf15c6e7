// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-lower-tensor-descriptors | FileCheck %s

// A 2-D load: the block's start is base + i * stride0 + j (the last stride
// is the constant 1, not multiplied); the in-block offsets are r0 * stride0
// + r1, in i64; the mask is each dimension's -index <= r < shape - index;
// outside elements read as zero. The descriptor is gone.
// CHECK-LABEL: func.func @load_2d
// CHECK-SAME: (%[[BASE:.*]]: !tile.ptr<f16>, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[S0:.*]]: i64, %[[I:.*]]: i32, %[[J:.*]]: i32)
// CHECK-NOT: tile.make_tensor_desc
// CHECK: %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: %[[ROW:.*]] = arith.muli %[[I64]], %[[S0]] : i64
// CHECK: %[[R0:.*]] = tile.make_range 0 to 16 : tensor<16xi32>
// CHECK: %[[LO0:.*]] = arith.subi %{{.*}}, %[[I]] : i32
// CHECK: %[[HI0:.*]] = arith.subi %[[M]], %[[I]] : i32
// CHECK: arith.cmpi sge, %[[R0]]
// CHECK: arith.cmpi slt, %[[R0]]
// CHECK: %[[R0W:.*]] = arith.extsi %[[R0]] : tensor<16xi32> to tensor<16xi64>
// CHECK: arith.muli %[[R0W]], %{{.*}} : tensor<16xi64>
// CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: tile.broadcast %{{.*}} : tensor<16x1xi64> -> tensor<16x64xi64>
// CHECK: %[[J64:.*]] = arith.extsi %[[J]] : i32 to i64
// CHECK-NOT: arith.muli %[[J64]]
// CHECK: %[[START:.*]] = arith.addi %[[ROW]], %[[J64]] : i64
// CHECK: %[[R1:.*]] = tile.make_range 0 to 64 : tensor<64xi32>
// CHECK: arith.subi %[[N]], %[[J]] : i32
// CHECK: %[[R1W:.*]] = arith.extsi %[[R1]] : tensor<64xi32> to tensor<64xi64>
// CHECK-NOT: arith.muli %[[R1W]]
// CHECK: tile.expand_dims %[[R1W]] axis = 0 : tensor<64xi64> -> tensor<1x64xi64>
// CHECK: %[[OFFS:.*]] = arith.addi
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<16x64xi1>
// CHECK: %[[P:.*]] = tile.addptr %[[BASE]], %[[START]] : !tile.ptr<f16>, i64
// CHECK: %[[PS:.*]] = tile.splat %[[P]] : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
// CHECK: %[[PTRS:.*]] = tile.addptr %[[PS]], %[[OFFS]] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi64>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf16>
// CHECK: %[[V:.*]] = tile.load %[[PTRS]], %[[MASK]], %[[ZERO]] cache = cg : tensor<16x64x!tile.ptr<f16>>
// CHECK: return %[[V]]
// CHECK-NOT: tile.desc_load
func.func @load_2d(%base: !tile.ptr<f16>, %m: i32, %n: i32, %s0: i64, %i: i32, %j: i32) -> tensor<16x64xf16> {
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%m, %n], [%s0, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<16x64xf16>>
  %v = tile.desc_load %d[%i, %j] cache = cg : !tile.tensordesc<tensor<16x64xf16>> -> tensor<16x64xf16>
  return %v : tensor<16x64xf16>
}

// -----

// A store writes only the elements inside; a 1-D descriptor needs no
// expand_dims or broadcast, and a last stride that is not the constant 1
// is multiplied (here a runtime 1).
// CHECK-LABEL: func.func @store_1d
// CHECK-NOT: tile.expand_dims
// CHECK-NOT: tile.broadcast
// CHECK: %[[I64:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.muli %[[I64]], %{{.*}} : i64
// CHECK: arith.muli %{{.*}}, %{{.*}} : tensor<128xi64>
// CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<i32>>
// CHECK-NOT: tile.desc_store
// CHECK-NOT: tile.make_tensor_desc
func.func @store_1d(%base: !tile.ptr<i32>, %n: i32, %s: i64, %i: i32, %v: tensor<128xi32>) {
  %d = tile.make_tensor_desc %base, [%n], [%s] : !tile.ptr<i32> -> !tile.tensordesc<tensor<128xi32>>
  tile.desc_store %d[%i], %v : !tile.tensordesc<tensor<128xi32>>, tensor<128xi32>
  return
}

// -----

// Rank 3: each dimension's range is spread to 1x..xB..x1 then broadcast.
// CHECK-LABEL: func.func @load_3d
// CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<2xi64> -> tensor<2x1xi64>
// CHECK: tile.expand_dims %{{.*}} axis = 2 : tensor<2x1xi64> -> tensor<2x1x1xi64>
// CHECK: tile.expand_dims %{{.*}} axis = 0 : tensor<4xi64> -> tensor<1x4xi64>
// CHECK: tile.expand_dims %{{.*}} axis = 2 : tensor<1x4xi64> -> tensor<1x4x1xi64>
// CHECK: tile.expand_dims %{{.*}} axis = 0 : tensor<8xi64> -> tensor<1x8xi64>
// CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<1x8xi64> -> tensor<1x1x8xi64>
// CHECK: tile.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8x!tile.ptr<f32>>
func.func @load_3d(%base: !tile.ptr<f32>, %a: i32, %b: i32, %c: i32, %sa: i64, %sb: i64, %i: i32) -> tensor<2x4x8xf32> {
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%a, %b, %c], [%sa, %sb, %c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<2x4x8xf32>>
  %v = tile.desc_load %d[%i, %i, %i] : !tile.tensordesc<tensor<2x4x8xf32>> -> tensor<2x4x8xf32>
  return %v : tensor<2x4x8xf32>
}

// -----

// A descriptor used inside a loop is rewritten there; the descriptor made
// outside is erased.
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT: tile.make_tensor_desc
// CHECK: scf.for
// CHECK: tile.load
// CHECK: tile.store
func.func @in_loop(%base: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<32xf32>>
  scf.for %k = %c0 to %n step %c32 : i32 {
    %v = tile.desc_load %d[%k] : !tile.tensordesc<tensor<32xf32>> -> tensor<32xf32>
    tile.desc_store %d[%k], %v : !tile.tensordesc<tensor<32xf32>>, tensor<32xf32>
  }
  return
}

// -----

// Not made in this function: an error, not a miscompile.
func.func @from_argument(%d: !tile.tensordesc<tensor<32xf32>>, %i: i32) -> tensor<32xf32> {
  // expected-error @below {{reads a tensor descriptor that does not come from a tile.make_tensor_desc in the same function}}
  %v = tile.desc_load %d[%i] : !tile.tensordesc<tensor<32xf32>> -> tensor<32xf32>
  return %v : tensor<32xf32>
}

// -----

// Any other use of a descriptor (here returning it) cannot be lowered.
func.func private @keep(!tile.tensordesc<tensor<32xf32>>)
func.func @other_use(%base: !tile.ptr<f32>, %n: i32) {
  %c1 = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<32xf32>>
  // expected-error @below {{uses a tensor descriptor in a way that cannot be lowered yet}}
  func.call @keep(%d) : (!tile.tensordesc<tensor<32xf32>>) -> ()
  return
}
