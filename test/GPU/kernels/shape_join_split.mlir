// tile.join and tile.split as interleave and de-interleave; program p
// handles elements 1024p .. 1024p + 1023 of n-element arrays.
//
// Interleave: ab[2 k] = a[k], ab[2 k + 1] = b[k] (join to 1024 x 2, then
// reshape to 2048), for k < n.
// De-interleave: lo[k] = c[2 k], hi[k] = c[2 k + 1] (reshape to 1024 x 2,
// then split), for k < n.
func.func @shape_join_split(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %b: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %ab: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %lo: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %hi: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %n: i32) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %c2 = arith.constant 2 : i32
  %base = arith.muli %pid, %c1024 : i32
  %base2 = arith.muli %base, %c2 : i32
  %n2 = arith.muli %n, %c2 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %bases = tile.splat %base : i32 -> tensor<1024xi32>
  %k = arith.addi %bases, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %k_ok = arith.cmpi slt, %k, %ns : tensor<1024xi32>
  %r2 = tile.make_range 0 to 2048 : tensor<2048xi32>
  %bases2 = tile.splat %base2 : i32 -> tensor<2048xi32>
  %k2 = arith.addi %bases2, %r2 : tensor<2048xi32>
  %n2s = tile.splat %n2 : i32 -> tensor<2048xi32>
  %k2_ok = arith.cmpi slt, %k2, %n2s : tensor<2048xi32>

  // Interleave.
  %ap = tile.splat %a : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %aa = tile.addptr %ap, %k : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %av = tile.load %aa, %k_ok : tensor<1024x!tile.ptr<f32>>
  %bp = tile.splat %b : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ba = tile.addptr %bp, %k : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %bv = tile.load %ba, %k_ok : tensor<1024x!tile.ptr<f32>>
  %j = tile.join %av, %bv : tensor<1024xf32> -> tensor<1024x2xf32>
  %jf = tile.reshape %j : tensor<1024x2xf32> -> tensor<2048xf32>
  %abp = tile.splat %ab : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %aba = tile.addptr %abp, %k2 : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  tile.store %aba, %jf, %k2_ok : tensor<2048x!tile.ptr<f32>>

  // De-interleave.
  %cp = tile.splat %c : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %ca = tile.addptr %cp, %k2 : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %cv = tile.load %ca, %k2_ok : tensor<2048x!tile.ptr<f32>>
  %c2d = tile.reshape %cv : tensor<2048xf32> -> tensor<1024x2xf32>
  %l, %h = tile.split %c2d : tensor<1024x2xf32> -> tensor<1024xf32>
  %lp = tile.splat %lo : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %la = tile.addptr %lp, %k : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %la, %l, %k_ok : tensor<1024x!tile.ptr<f32>>
  %hp = tile.splat %hi : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ha = tile.addptr %hp, %k : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %ha, %h, %k_ok : tensor<1024x!tile.ptr<f32>>
  return
}
