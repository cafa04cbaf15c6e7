// out[i, j] = x[i] * y[j] + x[i] and twice[i] = 2 * x[i] for an m x n
// problem, tiled 32 x 64 over a 2-D grid and masked along both dimensions
// (every program along y writes the same `twice`). x is loaded once as a
// 1-D block, used directly for `twice` and broadcast along the columns of
// the 2-D tile: the broadcast needs x in a layout that puts its elements in
// other threads, a layout conversion through shared memory.
func.func @outer(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %twice: !tile.ptr<f32> {tile.divisibility = 16 : i32},
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
  %ms = tile.splat %m : i32 -> tensor<32xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %row_ok = arith.cmpi slt, %rows, %ms : tensor<32xi32>
  %col_ok = arith.cmpi slt, %cols, %ns : tensor<64xi32>

  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %rows : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %xv = tile.load %xa, %row_ok : tensor<32x!tile.ptr<f32>>
  %yp = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ya = tile.addptr %yp, %cols : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yv = tile.load %ya, %col_ok : tensor<64x!tile.ptr<f32>>

  %two = arith.constant dense<2.0> : tensor<32xf32>
  %x2 = arith.mulf %xv, %two : tensor<32xf32>
  %tp = tile.splat %twice : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ta = tile.addptr %tp, %rows : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  tile.store %ta, %x2, %row_ok : tensor<32x!tile.ptr<f32>>

  %xc = tile.expand_dims %xv axis = 1 : tensor<32xf32> -> tensor<32x1xf32>
  %xb = tile.broadcast %xc : tensor<32x1xf32> -> tensor<32x64xf32>
  %yr = tile.expand_dims %yv axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
  %yb = tile.broadcast %yr : tensor<1x64xf32> -> tensor<32x64xf32>
  %prod = arith.mulf %xb, %yb : tensor<32x64xf32>
  %v = arith.addf %prod, %xb : tensor<32x64xf32>

  %rows2 = tile.expand_dims %rows axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ns2 = tile.splat %n : i32 -> tensor<32x1xi32>
  %row_off = arith.muli %rows2, %ns2 : tensor<32x1xi32>
  %row_offb = tile.broadcast %row_off : tensor<32x1xi32> -> tensor<32x64xi32>
  %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %row_offb, %colsb : tensor<32x64xi32>
  %row_ok2 = tile.expand_dims %row_ok axis = 1 : tensor<32xi1> -> tensor<32x1xi1>
  %col_ok2 = tile.expand_dims %col_ok axis = 0 : tensor<64xi1> -> tensor<1x64xi1>
  %row_okb = tile.broadcast %row_ok2 : tensor<32x1xi1> -> tensor<32x64xi1>
  %col_okb = tile.broadcast %col_ok2 : tensor<1x64xi1> -> tensor<32x64xi1>
  %mask = arith.andi %row_okb, %col_okb : tensor<32x64xi1>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %oa = tile.addptr %op, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %oa, %v, %mask : tensor<32x64x!tile.ptr<f32>>
  return
}
