// tile.reshape both ways, on blocks of 32 x 64 = 2048 elements; program p
// handles rows 32p .. 32p + 31 of two 64-column matrices and elements
// 2048p .. 2048p + 2047 of two flat arrays.
//
// 2-D to 1-D: x is an m x 64 matrix with row stride `x_stride`; its rows
// are packed into the flat array `flat`: flat[64 i + j] = x[i, j] + (64 i + j)
// (the reshaped block plus its own 1-D index, so that every element must
// land at its row-major position), for i < m.
//
// 1-D to 2-D: y is a flat array of `len` elements; `tile` is a matrix with
// 64 columns and row stride `tile_stride`: tile[i, j] = 2 y[64 i + j] + i
// (plus the 2-D row index) for 64 i + j < len; the padding columns beyond
// 64 are not written.
func.func @shape_reshape(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %flat: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %tile: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %m: i32, %x_stride: i32, %len: i32, %tile_stride: i32) {
  %pid = tile.program_id x : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %c2048 = arith.constant 2048 : i32
  %row0 = arith.muli %pid, %c32 : i32
  %base = arith.muli %pid, %c2048 : i32
  %rows0 = tile.splat %row0 : i32 -> tensor<32xi32>
  %rr = tile.make_range 0 to 32 : tensor<32xi32>
  %rows = arith.addi %rows0, %rr : tensor<32xi32>
  %cols = tile.make_range 0 to 64 : tensor<64xi32>
  %rows2 = tile.expand_dims %rows axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rowsb = tile.broadcast %rows2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %k = tile.make_range 0 to 2048 : tensor<2048xi32>
  %bases = tile.splat %base : i32 -> tensor<2048xi32>
  %gk = arith.addi %bases, %k : tensor<2048xi32>

  // 2-D to 1-D.
  %ms = tile.splat %m : i32 -> tensor<32x64xi32>
  %row_ok = arith.cmpi slt, %rowsb, %ms : tensor<32x64xi32>
  %xs = tile.splat %x_stride : i32 -> tensor<32x64xi32>
  %xrow = arith.muli %rowsb, %xs : tensor<32x64xi32>
  %xoff = arith.addi %xrow, %colsb : tensor<32x64xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %xoff : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %xv = tile.load %xa, %row_ok : tensor<32x64x!tile.ptr<f32>>
  %xflat = tile.reshape %xv : tensor<32x64xf32> -> tensor<2048xf32>
  %kf = arith.sitofp %gk : tensor<2048xi32> to tensor<2048xf32>
  %packed = arith.addf %xflat, %kf : tensor<2048xf32>
  %m64 = arith.muli %m, %c64 : i32
  %m64s = tile.splat %m64 : i32 -> tensor<2048xi32>
  %flat_ok = arith.cmpi slt, %gk, %m64s : tensor<2048xi32>
  %fp = tile.splat %flat : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %fa = tile.addptr %fp, %gk : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  tile.store %fa, %packed, %flat_ok : tensor<2048x!tile.ptr<f32>>

  // 1-D to 2-D.
  %lens = tile.splat %len : i32 -> tensor<2048xi32>
  %y_ok = arith.cmpi slt, %gk, %lens : tensor<2048xi32>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %gk : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %yv = tile.load %ya, %y_ok : tensor<2048x!tile.ptr<f32>>
  %y2 = tile.reshape %yv : tensor<2048xf32> -> tensor<32x64xf32>
  %y2x2 = arith.addf %y2, %y2 : tensor<32x64xf32>
  %rowsf = arith.sitofp %rowsb : tensor<32x64xi32> to tensor<32x64xf32>
  %tv = arith.addf %y2x2, %rowsf : tensor<32x64xf32>
  %c64s = tile.splat %c64 : i32 -> tensor<32x64xi32>
  %lin0 = arith.muli %rowsb, %c64s : tensor<32x64xi32>
  %lin = arith.addi %lin0, %colsb : tensor<32x64xi32>
  %lens2 = tile.splat %len : i32 -> tensor<32x64xi32>
  %t_ok = arith.cmpi slt, %lin, %lens2 : tensor<32x64xi32>
  %ts = tile.splat %tile_stride : i32 -> tensor<32x64xi32>
  %trow = arith.muli %rowsb, %ts : tensor<32x64xi32>
  %toff = arith.addi %trow, %colsb : tensor<32x64xi32>
  %tp = tile.splat %tile : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %ta = tile.addptr %tp, %toff : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %ta, %tv, %t_ok : tensor<32x64x!tile.ptr<f32>>
  return
}
