// bins[idx[i]] += 1 for i < n: an integer histogram with many collisions
// (the host picks few bins), 512 elements per program, masked tail. The
// old values are unused: `red.add` in PTX.
func.func @atomic_histogram_i32(%idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                                %bins: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                                %n: i32) {
  %pid = tile.program_id x : i32
  %c512 = arith.constant 512 : i32
  %start = arith.muli %pid, %c512 : i32
  %starts = tile.splat %start : i32 -> tensor<512xi32>
  %range = tile.make_range 0 to 512 : tensor<512xi32>
  %i = arith.addi %starts, %range : tensor<512xi32>
  %ns = tile.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<512xi32>
  %is = tile.splat %idx : !tile.ptr<i32> -> tensor<512x!tile.ptr<i32>>
  %ip = tile.addptr %is, %i : tensor<512x!tile.ptr<i32>>, tensor<512xi32>
  %b = tile.load %ip, %mask : tensor<512x!tile.ptr<i32>>
  %bs = tile.splat %bins : !tile.ptr<i32> -> tensor<512x!tile.ptr<i32>>
  %bp = tile.addptr %bs, %b : tensor<512x!tile.ptr<i32>>, tensor<512xi32>
  %one = arith.constant dense<1> : tensor<512xi32>
  %old = tile.atomic_rmw add, relaxed, gpu, %bp, %one, %mask : tensor<512x!tile.ptr<i32>>
  return
}
