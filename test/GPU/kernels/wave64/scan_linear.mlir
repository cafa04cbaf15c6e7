// The wave64 counterpart of ../scan_linear.mlir, for AMD's CDNA targets (64 lanes
// a wave): the same kernel, arguments and results (the host checks of the
// GPU tests apply unchanged), its explicit layouts spread over 64 lanes.
// Lane bit 5 holds copies in #a and #b; every other basis is the
// original's, so the bits along each scan's axis come in the same order.
// scripts/amd-compile-check.py compiles this file for the AMD targets in
// place of ../scan_linear.mlir, whose 32-lane layouts the wave64 targets reject.
//
// Scans in linear layouts whose bits along the axis come in no convenient
// order (for 4 warps only): lane bits out of order and interleaved with
// warp bits, two separate runs of warps along one axis, a register bit
// between the lanes and the warps, and a register bit that holds copies.
// One program; x holds small integers (exact sums); elements at flat
// offsets >= n load 0 (and -inf for the maximum).
//
//   A: x[0..256) in #a, where the position along the axis is, from its
//      lowest bit: lanes 1, 0 and 3, warp 0, lane 2, warp 1, register 0,
//      lane 4:
//        a_sum[i] = x[0] + .. + x[i],  a_rev[i] = x[i] + .. + x[255]
//        a_arg[i] = the position of the first maximum of x[0..i] (two
//                   sources scanned together)
//   B: x[0..512) as a 16 x 32 row-major block in #b (register bit 2 holds
//      copies):
//        b_row = cumulative sum along axis 1 (lanes 0, 3, 2, warp 0,
//                register 0)
//        b_col = reverse cumulative sum along axis 0 (lane 4, register 1,
//                warp 1, lane 1)
#a = #tilegpu.linear<{register = [[64]], lane = [[2], [1], [16], [4], [128], [0]], warp = [[8], [32]], block = []}>
#b = #tilegpu.linear<{register = [[0, 16], [2, 0], [0, 0]], lane = [[0, 1], [8, 0], [0, 4], [0, 2], [1, 0], [0, 0]], warp = [[0, 8], [4, 0]], block = []}>
func.func @scan_linear(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %a_sum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %a_rev: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %a_arg: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                       %b_row: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %b_col: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %n: i32) {
  // A
  %ra = tile.make_range 0 to 256 : tensor<256xi32>
  %na = tile.splat %n : i32 -> tensor<256xi32>
  %ma = arith.cmpi slt, %ra, %na : tensor<256xi32>
  %za = arith.constant dense<0.0> : tensor<256xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<256xf32>
  %xa = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xap = tile.addptr %xa, %ra : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %va = tile.load %xap, %ma, %za : tensor<256x!tile.ptr<f32>>
  %vm = tile.load %xap, %ma, %ninf : tensor<256x!tile.ptr<f32>>
  %ca = tilegpu.convert_layout %va : tensor<256xf32> -> tensor<256xf32, #a>
  %cm = tilegpu.convert_layout %vm : tensor<256xf32> -> tensor<256xf32, #a>
  %ci = tilegpu.convert_layout %ra : tensor<256xi32> -> tensor<256xi32, #a>
  %sa = tile.scan (%ca) axis = 0 : (tensor<256xf32, #a>) -> tensor<256xf32, #a> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %rva = tile.scan (%ca) axis = 0 reverse : (tensor<256xf32, #a>) -> tensor<256xf32, #a> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %av, %ai = tile.scan (%cm, %ci) axis = 0 : (tensor<256xf32, #a>, tensor<256xi32, #a>) -> (tensor<256xf32, #a>, tensor<256xi32, #a>) {
  ^bb0(%p: f32, %ip: i32, %q: f32, %iq: i32):
    %take = arith.cmpf ogt, %q, %p : f32
    %v = arith.select %take, %q, %p : f32
    %i = arith.select %take, %iq, %ip : i32
    tile.scan.return %v, %i : f32, i32
  }
  %sa2 = tilegpu.convert_layout %sa : tensor<256xf32, #a> -> tensor<256xf32>
  %rva2 = tilegpu.convert_layout %rva : tensor<256xf32, #a> -> tensor<256xf32>
  %ai2 = tilegpu.convert_layout %ai : tensor<256xi32, #a> -> tensor<256xi32>
  %o1 = tile.splat %a_sum : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %o1p = tile.addptr %o1, %ra : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %o1p, %sa2, %ma : tensor<256x!tile.ptr<f32>>
  %o2 = tile.splat %a_rev : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %o2p = tile.addptr %o2, %ra : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %o2p, %rva2, %ma : tensor<256x!tile.ptr<f32>>
  %o3 = tile.splat %a_arg : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %o3p = tile.addptr %o3, %ra : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %o3p, %ai2, %ma : tensor<256x!tile.ptr<i32>>

  // B
  %rr = tile.make_range 0 to 16 : tensor<16xi32>
  %cr = tile.make_range 0 to 32 : tensor<32xi32>
  %rr2 = tile.expand_dims %rr axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %cr2 = tile.expand_dims %cr axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %c32 = arith.constant dense<32> : tensor<16x1xi32>
  %roff = arith.muli %rr2, %c32 : tensor<16x1xi32>
  %roffb = tile.broadcast %roff : tensor<16x1xi32> -> tensor<16x32xi32>
  %colsb = tile.broadcast %cr2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %off = arith.addi %roffb, %colsb : tensor<16x32xi32>
  %nb = tile.splat %n : i32 -> tensor<16x32xi32>
  %mb = arith.cmpi slt, %off, %nb : tensor<16x32xi32>
  %zb = arith.constant dense<0.0> : tensor<16x32xf32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<16x32x!tile.ptr<f32>>
  %xbp = tile.addptr %xb, %off : tensor<16x32x!tile.ptr<f32>>, tensor<16x32xi32>
  %vb = tile.load %xbp, %mb, %zb : tensor<16x32x!tile.ptr<f32>>
  %cb = tilegpu.convert_layout %vb : tensor<16x32xf32> -> tensor<16x32xf32, #b>
  %sb = tile.scan (%cb) axis = 1 : (tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %rvb = tile.scan (%cb) axis = 0 reverse : (tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %sb2 = tilegpu.convert_layout %sb : tensor<16x32xf32, #b> -> tensor<16x32xf32>
  %rvb2 = tilegpu.convert_layout %rvb : tensor<16x32xf32, #b> -> tensor<16x32xf32>
  %o4 = tile.splat %b_row : !tile.ptr<f32> -> tensor<16x32x!tile.ptr<f32>>
  %o4p = tile.addptr %o4, %off : tensor<16x32x!tile.ptr<f32>>, tensor<16x32xi32>
  tile.store %o4p, %sb2, %mb : tensor<16x32x!tile.ptr<f32>>
  %o5 = tile.splat %b_col : !tile.ptr<f32> -> tensor<16x32x!tile.ptr<f32>>
  %o5p = tile.addptr %o5, %off : tensor<16x32x!tile.ptr<f32>>, tensor<16x32xi32>
  tile.store %o5p, %rvb2, %mb : tensor<16x32x!tile.ptr<f32>>
  return
}
