// Inclusive scans along both axes of 2-D blocks: an m x n row-major matrix
// in 32 x 64 tiles (program (i, j) takes rows 32i.., columns 64j..; masked
// on both dimensions; scans restart in every tile). At each element's
// offset:
//   rowsum  = cumulative sum of x along axis 1                 (f32, exact:
//             x holds small integers)
//   rowrev  = reverse cumulative sum of x along axis 1          (f32)
//   rowprod = cumulative product of y along axis 1              (f32)
//   colsum  = cumulative sum of k along axis 0                  (i32, wrapping)
//   colmax  = reverse cumulative maximum of x along axis 0      (f32)
//   colargv, colargi = the maximum of x over the tile's rows up to this one
//             and the first row (in the tile) holding it: two sources
//             scanned together along axis 0
// Masked-off elements load the combine's identity (0, 1, -inf).
func.func @scan_2d(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %k: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %rowsum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %rowrev: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %rowprod: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %colsum: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %colmax: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %colargv: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %colargi: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %m: i32, %n: i32) {
  %pid_m = tile.program_id x : i32
  %pid_n = tile.program_id y : i32
  %bm = arith.constant 32 : i32
  %bn = arith.constant 64 : i32
  %row0 = arith.muli %pid_m, %bm : i32
  %col0 = arith.muli %pid_n, %bn : i32
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
  %rr2 = tile.expand_dims %rr axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %tile_rows = tile.broadcast %rr2 : tensor<32x1xi32> -> tensor<32x64xi32>

  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %one = arith.constant dense<1.0> : tensor<32x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<32x64xf32>
  %izero = arith.constant dense<0> : tensor<32x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %ks = tile.splat %k : !tile.ptr<i32> -> tensor<32x64x!tile.ptr<i32>>
  %kp = tile.addptr %ks, %off : tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>
  %x0 = tile.load %xp, %mask, %zero : tensor<32x64x!tile.ptr<f32>>
  %xm = tile.load %xp, %mask, %ninf : tensor<32x64x!tile.ptr<f32>>
  %y1 = tile.load %yp, %mask, %one : tensor<32x64x!tile.ptr<f32>>
  %k0 = tile.load %kp, %mask, %izero : tensor<32x64x!tile.ptr<i32>>

  %rs = tile.scan (%x0) axis = 1 : (tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.scan.return %r : f32
  }
  %rv = tile.scan (%x0) axis = 1 reverse : (tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.scan.return %r : f32
  }
  %rp = tile.scan (%y1) axis = 1 : (tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    tile.scan.return %r : f32
  }
  %cs = tile.scan (%k0) axis = 0 : (tensor<32x64xi32>) -> tensor<32x64xi32> {
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    tile.scan.return %r : i32
  }
  %cm = tile.scan (%xm) axis = 0 reverse : (tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tile.scan.return %r : f32
  }
  %av, %ai = tile.scan (%xm, %tile_rows) axis = 0 : (tensor<32x64xf32>, tensor<32x64xi32>) -> (tensor<32x64xf32>, tensor<32x64xi32>) {
  ^bb0(%a: f32, %ia: i32, %b: f32, %ib: i32):
    %take = arith.cmpf ogt, %b, %a : f32
    %v = arith.select %take, %b, %a : f32
    %i = arith.select %take, %ib, %ia : i32
    tile.scan.return %v, %i : f32, i32
  }

  %o1 = tile.splat %rowsum : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %o1p = tile.addptr %o1, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %o1p, %rs, %mask : tensor<32x64x!tile.ptr<f32>>
  %o2 = tile.splat %rowrev : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %o2p = tile.addptr %o2, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %o2p, %rv, %mask : tensor<32x64x!tile.ptr<f32>>
  %o3 = tile.splat %rowprod : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %o3p = tile.addptr %o3, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %o3p, %rp, %mask : tensor<32x64x!tile.ptr<f32>>
  %o4 = tile.splat %colsum : !tile.ptr<i32> -> tensor<32x64x!tile.ptr<i32>>
  %o4p = tile.addptr %o4, %off : tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>
  tile.store %o4p, %cs, %mask : tensor<32x64x!tile.ptr<i32>>
  %o5 = tile.splat %colmax : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %o5p = tile.addptr %o5, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %o5p, %cm, %mask : tensor<32x64x!tile.ptr<f32>>
  %o6 = tile.splat %colargv : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %o6p = tile.addptr %o6, %off : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  tile.store %o6p, %av, %mask : tensor<32x64x!tile.ptr<f32>>
  %o7 = tile.splat %colargi : !tile.ptr<i32> -> tensor<32x64x!tile.ptr<i32>>
  %o7p = tile.addptr %o7, %off : tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>
  tile.store %o7p, %ai, %mask : tensor<32x64x!tile.ptr<i32>>
  return
}
