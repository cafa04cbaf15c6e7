// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=1"

// No more elements per thread than a thread can hold (2^14, the block over
// the program's threads): a 2^20-element tensor over one warp, carried by
// nested loops, once took more than 6 GiB in LLVM (IR fuzzing). The error
// names the count and what to change.
func.func @too_many_per_thread(%x: f32) {
  // expected-error @+1 {{the result of 'tile.splat' has type 'tensor<1048576xf32>': 32768 elements per thread over the program's 32 threads, more than a thread can hold (16384); use more warps or smaller blocks}}
  %v = tile.splat %x : f32 -> tensor<1048576xf32>
  return
}

// -----

// A tensor without a location (a constant another pass made, merged by
// canonicalization) is reported at its first user's.
func.func @too_many_per_thread_unknown_location(%p: !tile.ptr<f32>) {
  %z = arith.constant dense<0.0> : tensor<1048576xf32> loc(unknown)
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1048576x!tile.ptr<f32>>
  // expected-error @+1 {{the result of 'arith.constant' has type 'tensor<1048576xf32>': 32768 elements per thread}}
  tile.store %ps, %z : tensor<1048576x!tile.ptr<f32>>
  return
}

// -----

// Must not: 2^19 elements over one warp, 16384 per thread, get a layout.
func.func @as_many_per_thread_as_allowed(%x: f32, %p: !tile.ptr<f32>) {
  %v = tile.splat %x : f32 -> tensor<524288xf32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<524288x!tile.ptr<f32>>
  tile.store %ps, %v : tensor<524288x!tile.ptr<f32>>
  return
}
