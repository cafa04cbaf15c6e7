// out[i] = atomic_add(counter, 1.0) for i < n in f32 (every element adds to
// one address): the old values are the float tickets 0, 1, ..., n-1 (exact
// below 2^24), each once. And the same with an f64 counter into out64.
func.func @atomic_add_ret(%counter: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %counter64: !tile.ptr<f64> {tile.divisibility = 16 : i32},
                          %out64: !tile.ptr<f64> {tile.divisibility = 16 : i32},
                          %n: i32) {
  %pid = tile.program_id x : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %starts = tile.splat %start : i32 -> tensor<128xi32>
  %range = tile.make_range 0 to 128 : tensor<128xi32>
  %i = arith.addi %starts, %range : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<128xi32>
  %cp = tile.splat %counter : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %t = tile.atomic_rmw fadd, relaxed, gpu, %cp, %one, %mask : tensor<128x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %op = tile.addptr %os, %i : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %op, %t, %mask : tensor<128x!tile.ptr<f32>>
  %cp64 = tile.splat %counter64 : !tile.ptr<f64> -> tensor<128x!tile.ptr<f64>>
  %one64 = arith.constant dense<1.0> : tensor<128xf64>
  %t64 = tile.atomic_rmw fadd, relaxed, gpu, %cp64, %one64, %mask : tensor<128x!tile.ptr<f64>>
  %os64 = tile.splat %out64 : !tile.ptr<f64> -> tensor<128x!tile.ptr<f64>>
  %op64 = tile.addptr %os64, %i : tensor<128x!tile.ptr<f64>>, tensor<128xi32>
  tile.store %op64, %t64, %mask : tensor<128x!tile.ptr<f64>>
  return
}
