// Tensors that no layout describes are rejected where they are defined,
// before any layout is chosen: a rank-0 tensor (the frontend makes scalars
// instead), a size that is not a power of two. A tensor<3xf32> argument
// once got a message about threadsPerWarp = [30], a layout the compiler had
// chosen itself.

// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:90"

// The kernel of issue 18 (it killed terrazzo-compile and the Python process).
func.func @rank_zero_store(%p: !tile.ptr<i64>) {
  %c = arith.constant 7 : i64
  // expected-error @+1 {{the result of 'tile.splat' has type 'tensor<i64>', a tensor of rank 0, which has no layout on the GPU; use a scalar}}
  %v = tile.splat %c : i64 -> tensor<i64>
  %ps = tile.splat %p : !tile.ptr<i64> -> tensor<!tile.ptr<i64>>
  tile.store %ps, %v : tensor<!tile.ptr<i64>>
  return
}

// -----

// expected-error @+1 {{argument 1 of 'func.func' @odd_argument has type 'tensor<3xf32>', which has no layout on the GPU: shape entry 3 is not a power of two in [1, 2^30]}}
func.func @odd_argument(%p: !tile.ptr<f32>, %t: tensor<3xf32>) {
  return
}

// -----

// expected-error @+1 {{argument 0 of 'func.func' @declared has type 'tensor<3x4xf32>', which has no layout on the GPU: shape entry 3 is not a power of two in [1, 2^30]}}
func.func private @declared(tensor<3x4xf32>)

// -----

func.func @loop_carried(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{the result of 'arith.constant' has type 'tensor<24xf32>', which has no layout on the GPU: shape entry 24 is not a power of two in [1, 2^30]}}
  %init = arith.constant dense<0.0> : tensor<24xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<24xf32>) : i32 {
    scf.yield %acc : tensor<24xf32>
  }
  return
}

// -----

// No more elements than the largest block (2^20, as make_range checks): a
// splat of 2^26 once kept the conversion to LLVM busy for minutes.
func.func @too_large(%p: !tile.ptr<f32>, %x: f32) {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  // expected-error @+1 {{the result of 'tile.splat' has type 'tensor<67108864xf32>', which has no layout on the GPU: it has 67108864 elements, more than the largest block (1048576)}}
  %v = tile.splat %x : f32 -> tensor<67108864xf32>
  return
}

// -----

// A zero-sized tensor (the tile verifier accepts it; no GPU layout holds it).
func.func @zero_sized(%p: !tile.ptr<f32>) {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{the result of 'tile.splat' has type 'tensor<0xf32>', which has no layout on the GPU: shape entry 0 is not a power of two in [1, 2^30]}}
  %v = tile.splat %c : f32 -> tensor<0xf32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<0x!tile.ptr<f32>>
  tile.store %ps, %v : tensor<0x!tile.ptr<f32>>
  return
}
