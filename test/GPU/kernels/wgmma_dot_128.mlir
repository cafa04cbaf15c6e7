// One program computes c (128 x 128 float32, row-major) = a (128 x 64
// float16, row-major) * b (64 x 128 float16, row-major): on sm_90a a
// float16 wgmma dot with N = 128 per instruction (B spans two 128-byte
// swizzle blocks along N), two 64-row tiles per warp group at 4 warps, one
// per warp group at 8.
func.func @wgmma_dot_128(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rm = tile.make_range 0 to 128 : tensor<128xi32>
  %rn = tile.make_range 0 to 128 : tensor<128xi32>
  %rk = tile.make_range 0 to 64 : tensor<64xi32>
  %am = tile.expand_dims %rm axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ks = arith.constant dense<64> : tensor<128x1xi32>
  %amk = arith.muli %am, %ks : tensor<128x1xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %amk : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %ak = tile.expand_dims %rk axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ap1 = tile.broadcast %ap0 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
  %ak1 = tile.broadcast %ak : tensor<1x64xi32> -> tensor<128x64xi32>
  %ap = tile.addptr %ap1, %ak1 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %av = tile.load %ap : tensor<128x64x!tile.ptr<f16>>
  %bk = tile.expand_dims %rk axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ns = arith.constant dense<128> : tensor<64x1xi32>
  %bkn = arith.muli %bk, %ns : tensor<64x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %bkn : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %bn = tile.expand_dims %rn axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %bp1 = tile.broadcast %bp0 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x128x!tile.ptr<f16>>
  %bn1 = tile.broadcast %bn : tensor<1x128xi32> -> tensor<64x128xi32>
  %bp = tile.addptr %bp1, %bn1 : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi32>
  %bv = tile.load %bp : tensor<64x128x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = tile.dot %av, %bv, %zero : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
  %cm = tile.expand_dims %rm axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %cns = arith.constant dense<128> : tensor<128x1xi32>
  %cmn = arith.muli %cm, %cns : tensor<128x1xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<128x1x!tile.ptr<f32>>
  %cp0 = tile.addptr %cs, %cmn : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
  %cn = tile.expand_dims %rn axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %cp1 = tile.broadcast %cp0 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x128x!tile.ptr<f32>>
  %cn1 = tile.broadcast %cn : tensor<1x128xi32> -> tensor<128x128xi32>
  %cp = tile.addptr %cp1, %cn1 : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
  tile.store %cp, %d : tensor<128x128x!tile.ptr<f32>>
  return
}
