// out[j, i] = x[i, j]: x is m x n and out n x m, both row-major and dense.
// Each program loads a 32 x 64 tile of x (a non-square tile, masked on both
// dimensions at the matrix edges), transposes it with tile.trans and stores
// the 64 x 32 result, masked by the transposed bounds.
func.func @shape_transpose(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                           %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                           %m: i32, %n: i32) {
  %pid_m = tile.program_id x : i32
  %pid_n = tile.program_id y : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid_m, %c32 : i32
  %col0 = arith.muli %pid_n, %c64 : i32
  %rows0 = tile.splat %row0 : i32 -> tensor<32xi32>
  %cols0 = tile.splat %col0 : i32 -> tensor<64xi32>
  %rr = tile.make_range 0 to 32 : tensor<32xi32>
  %cr = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = arith.addi %rows0, %rr : tensor<32xi32>
  %cols = arith.addi %cols0, %cr : tensor<64xi32>

  // Load x[rows, cols].
  %rows2 = tile.expand_dims %rows axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ms = tile.splat %m : i32 -> tensor<32x1xi32>
  %ns = tile.splat %n : i32 -> tensor<1x64xi32>
  %row_ok = arith.cmpi slt, %rows2, %ms : tensor<32x1xi32>
  %col_ok = arith.cmpi slt, %cols2, %ns : tensor<1x64xi32>
  %row_okb = tile.broadcast %row_ok : tensor<32x1xi1> -> tensor<32x64xi1>
  %col_okb = tile.broadcast %col_ok : tensor<1x64xi1> -> tensor<32x64xi1>
  %mask = arith.andi %row_okb, %col_okb : tensor<32x64xi1>
  %ns2 = tile.splat %n : i32 -> tensor<32x1xi32>
  %row_off = arith.muli %rows2, %ns2 : tensor<32x1xi32>
  %row_offb = tile.broadcast %row_off : tensor<32x1xi32> -> tensor<32x64xi32>
  %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %row_offb, %colsb : tensor<32x64xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %v = tile.load %xa, %mask : tensor<32x64x!tile.ptr<f32>>

  %t = tile.trans %v [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>

  // Store out[cols, rows].
  %colsT = tile.expand_dims %cols axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rowsT = tile.expand_dims %rows axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %nsT = tile.splat %n : i32 -> tensor<64x1xi32>
  %msT = tile.splat %m : i32 -> tensor<1x32xi32>
  %col_okT = arith.cmpi slt, %colsT, %nsT : tensor<64x1xi32>
  %row_okT = arith.cmpi slt, %rowsT, %msT : tensor<1x32xi32>
  %col_okTb = tile.broadcast %col_okT : tensor<64x1xi1> -> tensor<64x32xi1>
  %row_okTb = tile.broadcast %row_okT : tensor<1x32xi1> -> tensor<64x32xi1>
  %maskT = arith.andi %col_okTb, %row_okTb : tensor<64x32xi1>
  %msT2 = tile.splat %m : i32 -> tensor<64x1xi32>
  %out_row = arith.muli %colsT, %msT2 : tensor<64x1xi32>
  %out_rowb = tile.broadcast %out_row : tensor<64x1xi32> -> tensor<64x32xi32>
  %rowsTb = tile.broadcast %rowsT : tensor<1x32xi32> -> tensor<64x32xi32>
  %out_off = arith.addi %out_rowb, %rowsTb : tensor<64x32xi32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %oa = tile.addptr %op, %out_off : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  tile.store %oa, %t, %maskT : tensor<64x32x!tile.ptr<f32>>
  return
}
