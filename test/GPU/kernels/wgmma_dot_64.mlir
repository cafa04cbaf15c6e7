// One program computes c (64 x 64 float32, row-major) = a (64 x 64
// float16, row-major) * b (64 x 64 float16, row-major): on sm_90a a
// float16 wgmma dot, operands in 128-byte swizzled shared memory (A
// K-major, B N-major), one warp group, four K steps of 16.
func.func @wgmma_dot_64(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %am = tile.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = arith.constant dense<64> : tensor<64x1xi32>
  %amk = arith.muli %am, %ks : tensor<64x1xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %amk : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %ak = tile.expand_dims %rk axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ap1 = tile.broadcast %ap0 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
  %ak1 = tile.broadcast %ak : tensor<1x64xi32> -> tensor<64x64xi32>
  %ap = tile.addptr %ap1, %ak1 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %av = tile.load %ap : tensor<64x64x!tile.ptr<f16>>
  %bk = tile.expand_dims %rk axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ns = arith.constant dense<64> : tensor<64x1xi32>
  %bkn = arith.muli %bk, %ns : tensor<64x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %bkn : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %bn = tile.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp1 = tile.broadcast %bp0 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
  %bn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %bp = tile.addptr %bp1, %bn1 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %bv = tile.load %bp : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %cm = tile.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cns = arith.constant dense<64> : tensor<64x1xi32>
  %cmn = arith.muli %cm, %cns : tensor<64x1xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp0 = tile.addptr %cs, %cmn : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %cn = tile.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp1 = tile.broadcast %cp0 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %cn1 = tile.broadcast %cn : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp = tile.addptr %cp1, %cn1 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp, %d : tensor<64x64x!tile.ptr<f32>>
  return
}
