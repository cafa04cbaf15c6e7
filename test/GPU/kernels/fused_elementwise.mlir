// out = tanh(exp(x) * y + sqrt(|z|) - max(x, y)) over n elements, n with no
// divisibility hint: the mask may change at any element.
func.func @fused_elementwise(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %z: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %n: i32) {
  %pid = tile.program_id x : i32
  %block = arith.constant 512 : i32
  %start = arith.muli %pid, %block : i32
  %starts = tile.splat %start : i32 -> tensor<512xi32>
  %range = tile.make_range 0 to 512 : tensor<512xi32>
  %offsets = arith.addi %starts, %range : tensor<512xi32>
  %ns = tile.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<512xi32>
  %zero = arith.constant dense<0.0> : tensor<512xf32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offsets : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %xv = tile.load %xa, %mask, %zero : tensor<512x!tile.ptr<f32>>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %offsets : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %yv = tile.load %ya, %mask, %zero : tensor<512x!tile.ptr<f32>>
  %zp = tile.splat %z : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %za = tile.addptr %zp, %offsets : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %zv = tile.load %za, %mask, %zero : tensor<512x!tile.ptr<f32>>
  %e = math.exp %xv : tensor<512xf32>
  %a = arith.mulf %e, %yv : tensor<512xf32>
  %abs = math.absf %zv : tensor<512xf32>
  %s = math.sqrt %abs : tensor<512xf32>
  %b = arith.addf %a, %s : tensor<512xf32>
  %gt = arith.cmpf ogt, %xv, %yv : tensor<512xf32>
  %m = arith.select %gt, %xv, %yv : tensor<512xi1>, tensor<512xf32>
  %c = arith.subf %b, %m : tensor<512xf32>
  %r = math.tanh %c : tensor<512xf32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %oa = tile.addptr %op, %offsets : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %oa, %r, %mask : tensor<512x!tile.ptr<f32>>
  return
}
