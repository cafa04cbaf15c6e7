// Integer max and min with collisions: smax/smin compare signed, umax/umin
// the same bits as unsigned (negative values are the largest), for i < n.
func.func @atomic_minmax_int(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %smax: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %smin: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %umax: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %umin: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %i = arith.addi %starts, %range : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<256xi32>
  %is = tile.splat %idx : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %ip = tile.addptr %is, %i : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %b = tile.load %ip, %mask : tensor<256x!tile.ptr<i32>>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %xp = tile.addptr %xs, %i : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %v = tile.load %xp, %mask : tensor<256x!tile.ptr<i32>>
  %p1s = tile.splat %smax : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %p1 = tile.addptr %p1s, %b : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %o1 = tile.atomic_rmw max, relaxed, gpu, %p1, %v, %mask : tensor<256x!tile.ptr<i32>>
  %p2s = tile.splat %smin : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %p2 = tile.addptr %p2s, %b : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %o2 = tile.atomic_rmw min, relaxed, gpu, %p2, %v, %mask : tensor<256x!tile.ptr<i32>>
  %p3s = tile.splat %umax : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %p3 = tile.addptr %p3s, %b : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %o3 = tile.atomic_rmw umax, relaxed, gpu, %p3, %v, %mask : tensor<256x!tile.ptr<i32>>
  %p4s = tile.splat %umin : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %p4 = tile.addptr %p4s, %b : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %o4 = tile.atomic_rmw umin, relaxed, gpu, %p4, %v, %mask : tensor<256x!tile.ptr<i32>>
  return
}
