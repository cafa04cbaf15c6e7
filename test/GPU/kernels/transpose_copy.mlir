// dst[j, i] = src[i, j]: the transpose of a row-major m x n matrix (row
// stride src_stride) into a row-major n x m one (row stride dst_stride),
// tiled 64 x 64 over a 2-D grid, masked along both dimensions. The load is
// coalesced along rows and the store along columns: the tile moves between
// them through shared memory (a swizzled scratch).
func.func @transpose_copy(%src: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %dst: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %m: i32, %n: i32,
                  %src_stride: i32 {tile.divisibility = 16 : i32},
                  %dst_stride: i32 {tile.divisibility = 16 : i32}) {
  %pid_m = tile.program_id x : i32
  %pid_n = tile.program_id y : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid_m, %c64 : i32
  %col0 = arith.muli %pid_n, %c64 : i32
  %rows0 = tile.splat %row0 : i32 -> tensor<64xi32>
  %cols0 = tile.splat %col0 : i32 -> tensor<64xi32>
  %rr = tile.make_range 0 to 64 : tensor<64xi32>
  %cr = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = arith.addi %rows0, %rr : tensor<64xi32>
  %cols = arith.addi %cols0, %cr : tensor<64xi32>
  %rows2 = tile.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %ns = tile.splat %n : i32 -> tensor<1x64xi32>
  %row_ok = arith.cmpi slt, %rows2, %ms : tensor<64x1xi32>
  %col_ok = arith.cmpi slt, %cols2, %ns : tensor<1x64xi32>
  %row_okb = tile.broadcast %row_ok : tensor<64x1xi1> -> tensor<64x64xi1>
  %col_okb = tile.broadcast %col_ok : tensor<1x64xi1> -> tensor<64x64xi1>
  %mask = arith.andi %row_okb, %col_okb : tensor<64x64xi1>
  %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<64x64xi32>

  %ss = tile.splat %src_stride : i32 -> tensor<64x1xi32>
  %src_rows = arith.muli %rows2, %ss : tensor<64x1xi32>
  %src_rowsb = tile.broadcast %src_rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %src_off = arith.addi %src_rowsb, %colsb : tensor<64x64xi32>
  %sp = tile.splat %src : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %sa = tile.addptr %sp, %src_off : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %sa, %mask : tensor<64x64x!tile.ptr<f32>>

  %ds = tile.splat %dst_stride : i32 -> tensor<1x64xi32>
  %dst_cols = arith.muli %cols2, %ds : tensor<1x64xi32>
  %dst_colsb = tile.broadcast %dst_cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %rowsb = tile.broadcast %rows2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %dst_off = arith.addi %dst_colsb, %rowsb : tensor<64x64xi32>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %da = tile.addptr %dp, %dst_off : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %da, %v, %mask : tensor<64x64x!tile.ptr<f32>>
  return
}
