// Inclusive scans of 1-D blocks: each program scans its block of 1024
// elements (offsets pid * 1024 + i, masked to n; a scan restarts in every
// block) and writes, at the same offsets:
//   sum[i]  = x[0] + ... + x[i]            (f32; x holds small integers, so
//                                           every partial sum is exact)
//   isum[i] = k[0] + ... + k[i]            (i32, wrapping)
//   prod[i] = y[0] * ... * y[i]            (f32)
//   max[i]  = max(x[0], ..., x[i])         (f32)
//   rsum[i] = x[i] + ... + x[last]         (f32, reverse)
//   argv[i], argi[i] = the maximum of x[0..i] and the offset in the block of
//                      its first occurrence (two sources scanned together)
// Masked-off elements load the combine's identity (0, 1, -inf).
func.func @scan_1d(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %k: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %sum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %isum: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %prod: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %max: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %rsum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %argv: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %argi: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                   %n: i32) {
  %pid = tile.program_id x : i32
  %block = arith.constant 1024 : i32
  %start = arith.muli %pid, %block : i32
  %starts = tile.splat %start : i32 -> tensor<1024xi32>
  %range = tile.make_range 0 to 1024 : tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>

  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %izero = arith.constant dense<0> : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %ks = tile.splat %k : !tile.ptr<i32> -> tensor<1024x!tile.ptr<i32>>
  %kp = tile.addptr %ks, %offs : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  %x0 = tile.load %xp, %mask, %zero : tensor<1024x!tile.ptr<f32>>
  %xm = tile.load %xp, %mask, %ninf : tensor<1024x!tile.ptr<f32>>
  %y1 = tile.load %yp, %mask, %one : tensor<1024x!tile.ptr<f32>>
  %k0 = tile.load %kp, %mask, %izero : tensor<1024x!tile.ptr<i32>>

  %s = tile.scan (%x0) axis = 0 : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.scan.return %r : f32
  }
  %is = tile.scan (%k0) axis = 0 : (tensor<1024xi32>) -> tensor<1024xi32> {
  ^bb0(%a: i32, %b: i32):
    %r = arith.addi %a, %b : i32
    tile.scan.return %r : i32
  }
  %p = tile.scan (%y1) axis = 0 : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    tile.scan.return %r : f32
  }
  %m = tile.scan (%xm) axis = 0 : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tile.scan.return %r : f32
  }
  %rs = tile.scan (%x0) axis = 0 reverse : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.scan.return %r : f32
  }
  %av, %ai = tile.scan (%xm, %range) axis = 0 : (tensor<1024xf32>, tensor<1024xi32>) -> (tensor<1024xf32>, tensor<1024xi32>) {
  ^bb0(%a: f32, %ia: i32, %b: f32, %ib: i32):
    %take = arith.cmpf ogt, %b, %a : f32
    %v = arith.select %take, %b, %a : f32
    %i = arith.select %take, %ib, %ia : i32
    tile.scan.return %v, %i : f32, i32
  }

  %sp = tile.splat %sum : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %spo = tile.addptr %sp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %spo, %s, %mask : tensor<1024x!tile.ptr<f32>>
  %isp = tile.splat %isum : !tile.ptr<i32> -> tensor<1024x!tile.ptr<i32>>
  %ispo = tile.addptr %isp, %offs : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %ispo, %is, %mask : tensor<1024x!tile.ptr<i32>>
  %pp = tile.splat %prod : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ppo = tile.addptr %pp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %ppo, %p, %mask : tensor<1024x!tile.ptr<f32>>
  %mp = tile.splat %max : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %mpo = tile.addptr %mp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %mpo, %m, %mask : tensor<1024x!tile.ptr<f32>>
  %rp = tile.splat %rsum : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %rpo = tile.addptr %rp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %rpo, %rs, %mask : tensor<1024x!tile.ptr<f32>>
  %avp = tile.splat %argv : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %avpo = tile.addptr %avp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %avpo, %av, %mask : tensor<1024x!tile.ptr<f32>>
  %aip = tile.splat %argi : !tile.ptr<i32> -> tensor<1024x!tile.ptr<i32>>
  %aipo = tile.addptr %aip, %offs : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %aipo, %ai, %mask : tensor<1024x!tile.ptr<i32>>
  return
}
