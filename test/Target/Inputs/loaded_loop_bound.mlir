// out[j] = sum over k < n of x[k * 256 + j] for j < 256, where n is loaded
// from `sizes` (a grouped kernel's problem size) and the row step is the
// 1-D sum of `steps` (a reduction to a scalar): the loop's trip count and
// its pointer increments come from memory.
func.func @loaded_loop_bound(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %sizes: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %steps: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %n = tile.load %sizes : !tile.ptr<i32>
  %srange = tile.make_range 0 to 4 : tensor<4xi32>
  %sbase = tile.splat %steps : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %sptrs = tile.addptr %sbase, %srange : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %parts = tile.load %sptrs : tensor<4x!tile.ptr<i32>>
  %step = tile.reduce (%parts) axis = 0 : (tensor<4xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.reduce.return %s : i32
  }
  %steps_b = tile.splat %step : i32 -> tensor<256xi32>
  %j = tile.make_range 0 to 256 : tensor<256xi32>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %p0 = tile.addptr %xs, %j : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %sum, %end = scf.for %k = %c0 to %n step %c1
      iter_args(%acc = %zero, %p = %p0)
      -> (tensor<256xf32>, tensor<256x!tile.ptr<f32>>) : i32 {
    %v = tile.load %p : tensor<256x!tile.ptr<f32>>
    %acc2 = arith.addf %acc, %v : tensor<256xf32>
    %p2 = tile.addptr %p, %steps_b : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
    scf.yield %acc2, %p2 : tensor<256xf32>, tensor<256x!tile.ptr<f32>>
  }
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %os, %j : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %op, %sum : tensor<256x!tile.ptr<f32>>
  return
}
