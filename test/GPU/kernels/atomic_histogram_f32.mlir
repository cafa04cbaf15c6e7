// bins[idx[i]] += w[i] for i < n with float weights (f32 atomic add, many
// collisions), 256 elements per program, masked tail, old values unused.
func.func @atomic_histogram_f32(%idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                                %w: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                                %bins: !tile.ptr<f32> {tile.divisibility = 16 : i32},
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
  %ws = tile.splat %w : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %wp = tile.addptr %ws, %i : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %wv = tile.load %wp, %mask : tensor<256x!tile.ptr<f32>>
  %bs = tile.splat %bins : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %bp = tile.addptr %bs, %b : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %old = tile.atomic_rmw fadd, relaxed, gpu, %bp, %wv, %mask : tensor<256x!tile.ptr<f32>>
  return
}
