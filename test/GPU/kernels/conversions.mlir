// Type conversions between f32, f16, bf16, f64, i32 and i64, one output
// buffer per conversion.
func.func @conversions(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %xi: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                       %o_f16: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                       %o_bf16: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                       %o_f16_f32: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %o_i32: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                       %o_i32_f32: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %o_f64: !tile.ptr<f64> {tile.divisibility = 16 : i32},
                       %o_i64: !tile.ptr<i64> {tile.divisibility = 16 : i32},
                       %n: i32) {
  %pid = tile.program_id x : i32
  %block = arith.constant 256 : i32
  %start = arith.muli %pid, %block : i32
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %offsets = arith.addi %starts, %range : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<256xi32>

  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %offsets : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %xv = tile.load %xa, %mask : tensor<256x!tile.ptr<f32>>
  %ip = tile.splat %xi : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %ia = tile.addptr %ip, %offsets : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %iv = tile.load %ia, %mask : tensor<256x!tile.ptr<i32>>

  %h = arith.truncf %xv : tensor<256xf32> to tensor<256xf16>
  %hp = tile.splat %o_f16 : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %ha = tile.addptr %hp, %offsets : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  tile.store %ha, %h, %mask : tensor<256x!tile.ptr<f16>>

  %b = tile.fp_to_fp %xv rounding = rtne : tensor<256xf32> -> tensor<256xbf16>
  %bp = tile.splat %o_bf16 : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>>
  %ba = tile.addptr %bp, %offsets : tensor<256x!tile.ptr<bf16>>, tensor<256xi32>
  tile.store %ba, %b, %mask : tensor<256x!tile.ptr<bf16>>

  %hf = arith.extf %h : tensor<256xf16> to tensor<256xf32>
  %hfp = tile.splat %o_f16_f32 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %hfa = tile.addptr %hfp, %offsets : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %hfa, %hf, %mask : tensor<256x!tile.ptr<f32>>

  %xi32 = arith.fptosi %xv : tensor<256xf32> to tensor<256xi32>
  %o1p = tile.splat %o_i32 : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %o1a = tile.addptr %o1p, %offsets : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %o1a, %xi32, %mask : tensor<256x!tile.ptr<i32>>

  %if = arith.sitofp %iv : tensor<256xi32> to tensor<256xf32>
  %o2p = tile.splat %o_i32_f32 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %o2a = tile.addptr %o2p, %offsets : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %o2a, %if, %mask : tensor<256x!tile.ptr<f32>>

  %d = arith.extf %xv : tensor<256xf32> to tensor<256xf64>
  %third = arith.constant dense<0.3333333333333333> : tensor<256xf64>
  %dd = arith.mulf %d, %third : tensor<256xf64>
  %o3p = tile.splat %o_f64 : !tile.ptr<f64> -> tensor<256x!tile.ptr<f64>>
  %o3a = tile.addptr %o3p, %offsets : tensor<256x!tile.ptr<f64>>, tensor<256xi32>
  tile.store %o3a, %dd, %mask : tensor<256x!tile.ptr<f64>>

  %l = arith.extsi %iv : tensor<256xi32> to tensor<256xi64>
  %big = arith.constant dense<3000000000> : tensor<256xi64>
  %lm = arith.muli %l, %big : tensor<256xi64>
  %o4p = tile.splat %o_i64 : !tile.ptr<i64> -> tensor<256x!tile.ptr<i64>>
  %o4a = tile.addptr %o4p, %offsets : tensor<256x!tile.ptr<i64>>, tensor<256xi32>
  tile.store %o4a, %lm, %mask : tensor<256x!tile.ptr<i64>>
  return
}
