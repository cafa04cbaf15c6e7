// One program computes c (M x N float32, row stride N) = a (M x K
// f8E4M3FN, row stride K) * b (K x N f8E4M3FN, stored K-major: element
// (k, n) at n * K + k, the column-major B of torch._scaled_mm) for
// M, N <= 128 over a K loop in steps of 128. Both operands are contiguous
// along K in global memory, as fp8 wgmma needs them in shared memory: on
// sm_90a terrazzo-pipeline turns both loads into cp.async pipelines of
// 16-byte copies into K-major nvmma_shared stacks read by warp_group_dot.
// Rows of a at or past M, columns of b at or past N and k at or past K load
// zeros; c is stored under the M and N masks. N and K are multiples of 16
// (tile.divisibility), so the K masks stay constant along 16 elements.
func.func @wgmma_matmul_loop_fp8(%a: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %rm = tile.make_range 0 to 128 : tensor<128xi32>
  %rn = tile.make_range 0 to 128 : tensor<128xi32>
  %rk = tile.make_range 0 to 128 : tensor<128xi32>
  // a's pointers (row m at m * K) and row mask.
  %am = tile.expand_dims %rm axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ks = tile.splat %k : i32 -> tensor<128x1xi32>
  %amk = arith.muli %am, %ks : tensor<128x1xi32>
  %as = tile.splat %a : !tile.ptr<f8E4M3FN> -> tensor<128x1x!tile.ptr<f8E4M3FN>>
  %ap0 = tile.addptr %as, %amk : tensor<128x1x!tile.ptr<f8E4M3FN>>, tensor<128x1xi32>
  %ak = tile.expand_dims %rk axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %ap1 = tile.broadcast %ap0 : tensor<128x1x!tile.ptr<f8E4M3FN>> -> tensor<128x128x!tile.ptr<f8E4M3FN>>
  %ak1 = tile.broadcast %ak : tensor<1x128xi32> -> tensor<128x128xi32>
  %ap = tile.addptr %ap1, %ak1 : tensor<128x128x!tile.ptr<f8E4M3FN>>, tensor<128x128xi32>
  %ms = tile.splat %m : i32 -> tensor<128x1xi32>
  %arow = arith.cmpi slt, %am, %ms : tensor<128x1xi32>
  %arowb = tile.broadcast %arow : tensor<128x1xi1> -> tensor<128x128xi1>
  // b's pointers (column n at n * K, k contiguous) and column mask.
  %bk = tile.expand_dims %rk axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %bn = tile.expand_dims %rn axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %kn = tile.splat %k : i32 -> tensor<1x128xi32>
  %bnk = arith.muli %bn, %kn : tensor<1x128xi32>
  %bs = tile.splat %b : !tile.ptr<f8E4M3FN> -> tensor<1x128x!tile.ptr<f8E4M3FN>>
  %bp0 = tile.addptr %bs, %bnk : tensor<1x128x!tile.ptr<f8E4M3FN>>, tensor<1x128xi32>
  %bp1 = tile.broadcast %bp0 : tensor<1x128x!tile.ptr<f8E4M3FN>> -> tensor<128x128x!tile.ptr<f8E4M3FN>>
  %bk1 = tile.broadcast %bk : tensor<128x1xi32> -> tensor<128x128xi32>
  %bp = tile.addptr %bp1, %bk1 : tensor<128x128x!tile.ptr<f8E4M3FN>>, tensor<128x128xi32>
  %nsr = tile.splat %n : i32 -> tensor<1x128xi32>
  %bcol = arith.cmpi slt, %bn, %nsr : tensor<1x128xi32>
  %bcolb = tile.broadcast %bcol : tensor<1x128xi1> -> tensor<128x128xi1>
  // Both operands step 128 elements along K.
  %step = arith.constant dense<128> : tensor<128x128xi32>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %r:3 = scf.for %i = %c0 to %k step %c128 iter_args(%acc = %zero, %pa = %ap, %pb = %bp) -> (tensor<128x128xf32>, tensor<128x128x!tile.ptr<f8E4M3FN>>, tensor<128x128x!tile.ptr<f8E4M3FN>>) : i32 {
    // k + i < K, along a's columns and b's rows.
    %left = arith.subi %k, %i : i32
    %lefta = tile.splat %left : i32 -> tensor<1x128xi32>
    %ina = arith.cmpi slt, %ak, %lefta : tensor<1x128xi32>
    %inab = tile.broadcast %ina : tensor<1x128xi1> -> tensor<128x128xi1>
    %maska = arith.andi %arowb, %inab : tensor<128x128xi1>
    %leftb = tile.splat %left : i32 -> tensor<128x1xi32>
    %inb = arith.cmpi slt, %bk, %leftb : tensor<128x1xi32>
    %inbb = tile.broadcast %inb : tensor<128x1xi1> -> tensor<128x128xi1>
    %maskb = arith.andi %inbb, %bcolb : tensor<128x128xi1>
    %z = arith.constant dense<0.0> : tensor<128x128xf8E4M3FN>
    %x = tile.load %pa, %maska, %z : tensor<128x128x!tile.ptr<f8E4M3FN>>
    %y = tile.load %pb, %maskb, %z : tensor<128x128x!tile.ptr<f8E4M3FN>>
    %d = tile.dot %x, %y, %acc : tensor<128x128xf8E4M3FN> * tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
    %pa2 = tile.addptr %pa, %step : tensor<128x128x!tile.ptr<f8E4M3FN>>, tensor<128x128xi32>
    %pb2 = tile.addptr %pb, %step : tensor<128x128x!tile.ptr<f8E4M3FN>>, tensor<128x128xi32>
    scf.yield %d, %pa2, %pb2 : tensor<128x128xf32>, tensor<128x128x!tile.ptr<f8E4M3FN>>, tensor<128x128x!tile.ptr<f8E4M3FN>>
  }
  // c under the M and N masks.
  %cns = tile.splat %n : i32 -> tensor<128x1xi32>
  %cmn = arith.muli %am, %cns : tensor<128x1xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<128x1x!tile.ptr<f32>>
  %cp0 = tile.addptr %cs, %cmn : tensor<128x1x!tile.ptr<f32>>, tensor<128x1xi32>
  %cp1 = tile.broadcast %cp0 : tensor<128x1x!tile.ptr<f32>> -> tensor<128x128x!tile.ptr<f32>>
  %cn1 = tile.broadcast %bn : tensor<1x128xi32> -> tensor<128x128xi32>
  %cp = tile.addptr %cp1, %cn1 : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
  %crow = tile.broadcast %arow : tensor<128x1xi1> -> tensor<128x128xi1>
  %ccol = tile.broadcast %bcol : tensor<1x128xi1> -> tensor<128x128xi1>
  %cmask = arith.andi %crow, %ccol : tensor<128x128xi1>
  tile.store %cp, %r#0, %cmask : tensor<128x128x!tile.ptr<f32>>
  return
}
