// For an m x n row-major matrix x tiled 8 x 128 over a 2-D grid (programs
// along y take column blocks), each program writes, for each of its rows,
// the sum, the maximum and the column of the maximum (the lowest on ties)
// of the row's elements in its column block: sum[pid_y * m + i],
// max[pid_y * m + i], arg[pid_y * m + i]; and the sum of its whole tile,
// total[pid_y * num_programs(x) + pid_x]. Masked on both dimensions: the
// sum loads 0 and the max -inf outside the matrix. tile.reduce along axis 1
// with three combine regions (the argmax reduces two sources together),
// and along axis 0 of a 1-D block to a scalar.
func.func @row_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %sum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %max: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %arg: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %total: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %m: i32, %n: i32) {
  %pid_m = tile.program_id x : i32
  %pid_n = tile.program_id y : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %row0 = arith.muli %pid_m, %c8 : i32
  %col0 = arith.muli %pid_n, %c128 : i32
  %rows0 = tile.splat %row0 : i32 -> tensor<8xi32>
  %cols0 = tile.splat %col0 : i32 -> tensor<128xi32>
  %rr = tile.make_range 0 to 8 : tensor<8xi32>
  %cr = tile.make_range 0 to 128 : tensor<128xi32>
  %rows = arith.addi %rows0, %rr : tensor<8xi32>
  %cols = arith.addi %cols0, %cr : tensor<128xi32>
  %ms = tile.splat %m : i32 -> tensor<8xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %row_ok = arith.cmpi slt, %rows, %ms : tensor<8xi32>
  %col_ok = arith.cmpi slt, %cols, %ns : tensor<128xi32>

  %rows2 = tile.expand_dims %rows axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %ns2 = tile.splat %n : i32 -> tensor<8x1xi32>
  %row_off = arith.muli %rows2, %ns2 : tensor<8x1xi32>
  %row_offb = tile.broadcast %row_off : tensor<8x1xi32> -> tensor<8x128xi32>
  %colsb = tile.broadcast %cols2 : tensor<1x128xi32> -> tensor<8x128xi32>
  %off = arith.addi %row_offb, %colsb : tensor<8x128xi32>
  %row_ok2 = tile.expand_dims %row_ok axis = 1 : tensor<8xi1> -> tensor<8x1xi1>
  %col_ok2 = tile.expand_dims %col_ok axis = 0 : tensor<128xi1> -> tensor<1x128xi1>
  %row_okb = tile.broadcast %row_ok2 : tensor<8x1xi1> -> tensor<8x128xi1>
  %col_okb = tile.broadcast %col_ok2 : tensor<1x128xi1> -> tensor<8x128xi1>
  %mask = arith.andi %row_okb, %col_okb : tensor<8x128xi1>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<8x128x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %off : tensor<8x128x!tile.ptr<f32>>, tensor<8x128xi32>
  %zero = arith.constant dense<0.0> : tensor<8x128xf32>
  %v = tile.load %xa, %mask, %zero : tensor<8x128x!tile.ptr<f32>>
  %ninf = arith.constant dense<0xFF800000> : tensor<8x128xf32>
  %vm = arith.select %mask, %v, %ninf : tensor<8x128xi1>, tensor<8x128xf32>

  %s = tile.reduce (%v) axis = 1 : (tensor<8x128xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.reduce.return %r : f32
  }
  %mx = tile.reduce (%vm) axis = 1 : (tensor<8x128xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tile.reduce.return %r : f32
  }
  %mv, %mi = tile.reduce (%vm, %colsb) axis = 1 : (tensor<8x128xf32>, tensor<8x128xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %eq = arith.cmpf oeq, %b, %a : f32
    %lt = arith.cmpi slt, %bi, %ai : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %v2 = arith.select %take, %b, %a : f32
    %i2 = arith.select %take, %bi, %ai : i32
    tile.reduce.return %v2, %i2 : f32, i32
  }
  %t = tile.reduce (%s) axis = 0 : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.reduce.return %r : f32
  }

  %base = arith.muli %pid_n, %m : i32
  %bases = tile.splat %base : i32 -> tensor<8xi32>
  %out_off = arith.addi %bases, %rows : tensor<8xi32>
  %sp = tile.splat %sum : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %sa = tile.addptr %sp, %out_off : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %sa, %s, %row_ok : tensor<8x!tile.ptr<f32>>
  %ma = tile.splat %max : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %maa = tile.addptr %ma, %out_off : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %maa, %mx, %row_ok : tensor<8x!tile.ptr<f32>>
  %ap = tile.splat %arg : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %aa = tile.addptr %ap, %out_off : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %aa, %mi, %row_ok : tensor<8x!tile.ptr<i32>>
  %grid_m = tile.num_programs x : i32
  %tile_index0 = arith.muli %pid_n, %grid_m : i32
  %tile_index = arith.addi %tile_index0, %pid_m : i32
  %tp = tile.addptr %total, %tile_index : !tile.ptr<f32>, i32
  tile.store %tp, %t : !tile.ptr<f32>
  return
}
