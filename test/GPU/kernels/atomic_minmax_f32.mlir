// maxbins[idx[i]] = max(maxbins[idx[i]], x[i]) and the same with min, for
// i < n, on floats with both signs (and signed zeros) with many collisions:
// the integer-ordering lowering (signed max / unsigned min on the bits).
func.func @atomic_minmax_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                             %maxbins: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %minbins: !tile.ptr<f32> {tile.divisibility = 16 : i32},
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
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %i : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %xp, %mask : tensor<256x!tile.ptr<f32>>
  %mxs = tile.splat %maxbins : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %mxp = tile.addptr %mxs, %b : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %old1 = tile.atomic_rmw max, relaxed, gpu, %mxp, %v, %mask : tensor<256x!tile.ptr<f32>>
  %mns = tile.splat %minbins : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %mnp = tile.addptr %mns, %b : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %old2 = tile.atomic_rmw min, relaxed, gpu, %mnp, %v, %mask : tensor<256x!tile.ptr<f32>>
  return
}
