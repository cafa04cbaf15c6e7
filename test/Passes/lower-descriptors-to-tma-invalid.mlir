// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu=target=cuda:90 --terrazzo-lower-descriptors-to-tma

// Descriptors reach this pass only when terrazzo-lower-tensor-descriptors
// (keep-tma) found TMA could serve them; anything else is an error here.

func.func private @helper(%x: !tile.ptr<f32>, %n: i32, %i: i32) -> tensor<128xf32> {
  %c1 = arith.constant 1 : i64
  // expected-error @+1 {{is in a function that is not a kernel; TMA descriptors are built in the kernel's global scratch (inline the function)}}
  %d = tile.make_tensor_desc %x, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
  %v = tile.desc_load %d[%i] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  return %v : tensor<128xf32>
}

// -----

// A while loop: its condition is not a scalar bound the pass can see every
// thread of the program reach (scf.for and scf.if nests are accepted: see
// lower-descriptors-to-tma.mlir).
func.func @in_while(%x: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c1 = arith.constant 1 : i64
  %r = scf.while (%k = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %k, %n : i32
    scf.condition(%go) %k : i32
  } do {
  ^bb0(%k: i32):
    // expected-error @+1 {{must be created in the kernel's body, or in scf.for loops and scf.if branches there, to use TMA}}
    %d = tile.make_tensor_desc %x, [%n], [%c1] : !tile.ptr<f32> -> !tile.tensordesc<tensor<128xf32>>
    %v = tile.desc_load %d[%k] : !tile.tensordesc<tensor<128xf32>> -> tensor<128xf32>
    tile.desc_store %d[%k], %v : !tile.tensordesc<tensor<128xf32>>, tensor<128xf32>
    %k1 = arith.addi %k, %c1i : i32
    scf.yield %k1 : i32
  }
  return
}

// -----

func.func @narrow(%x: !tile.ptr<f16>, %n: i32, %s: i64, %i: i32) {
  %c1 = arith.constant 1 : i64
  // expected-error @+1 {{has a block that TMA cannot copy; lower it with terrazzo-lower-tensor-descriptors}}
  %d = tile.make_tensor_desc %x, [%n, %n], [%s, %c1] : !tile.ptr<f16> -> !tile.tensordesc<tensor<16x4xf16>>
  %v = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<16x4xf16>> -> tensor<16x4xf16>
  tile.desc_store %d[%i, %i], %v : !tile.tensordesc<tensor<16x4xf16>>, tensor<16x4xf16>
  return
}
