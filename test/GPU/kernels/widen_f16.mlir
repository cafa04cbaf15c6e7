// out[i] = float32(x[i]) for f16 x: the load (8 halves per thread) and the
// store (4 floats) first get different layouts; the load is read in the
// store's.
func.func @widen(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c = arith.constant 1024 : i32
  %s = arith.muli %pid, %c : i32
  %ss = tile.splat %s : i32 -> tensor<1024xi32>
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %o = arith.addi %ss, %r : tensor<1024xi32>
  %xp = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %xa = tile.addptr %xp, %o : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %v = tile.load %xa : tensor<1024x!tile.ptr<f16>>
  %w = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %oa = tile.addptr %op, %o : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %oa, %w : tensor<1024x!tile.ptr<f32>>
  return
}
