// The wave64 counterpart of ../scan_layouts.mlir, for AMD's CDNA targets (64 lanes
// a wave): the same kernel, arguments and results (the host checks of the
// GPU tests apply unchanged), its explicit layouts spread over 64 lanes.
// A holds 2 consecutive elements per thread (4 x 32 lanes x 4 warps
// covers 512 as 2 x 64 x 4 does); B's lanes are 8 x 8 (its registers
// still wrap above the warps along axis 0); C's axis is lanes 4 and 5 and
// warp bit 1, the other lanes and warp holding copies.
// scripts/amd-compile-check.py compiles this file for the AMD targets in
// place of ../scan_layouts.mlir, whose 32-lane layouts the wave64 targets reject.
//
// Scans in layouts the default layouts do not produce (for 4 warps only):
// the scans' sources are converted to explicit layouts, whose bits along
// the axis are registers below the lanes, lanes that do not start at lane
// bit 0, registers above the warps, and threads holding copies. One
// program; x holds small integers (exact sums); elements at flat offsets
// >= n load 0 (and -inf for the maximum).
//
//   A: 512 elements, 4 consecutive per thread (#a):
//        a_sum[i] = x[0] + .. + x[i],  a_rev[i] = x[i] + .. + x[511]
//   B: x[0..2048) as a 64 x 32 row-major block in #b (2 x 2 per thread,
//      4 x 8 lanes and 2 x 2 warps, dimension 0 fastest):
//        b_col    = cumulative sum along axis 0
//        b_rowrev = reverse cumulative sum along axis 1
//        b_rowarg = the column (in the row) of the first maximum of the
//                   row's elements up to this one (two sources scanned
//                   together along axis 1)
//   C: x[0..16) in a slice of a 2-D layout (lanes 3 and 4 and warp bit 1
//      along the axis; the other lanes and warp hold copies):
//        c_sum[i] = x[0] + .. + x[i]
#a = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [0, 1]}>
#p = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
#c = #tilegpu.slice<{dim = 1, parent = #p}>
func.func @scan_layouts(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %a_sum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %a_rev: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %b_col: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %b_rowrev: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %b_rowarg: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                        %c_sum: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %n: i32) {
  // A
  %ra = tile.make_range 0 to 512 : tensor<512xi32>
  %na = tile.splat %n : i32 -> tensor<512xi32>
  %ma = arith.cmpi slt, %ra, %na : tensor<512xi32>
  %za = arith.constant dense<0.0> : tensor<512xf32>
  %xa = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %xap = tile.addptr %xa, %ra : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %va = tile.load %xap, %ma, %za : tensor<512x!tile.ptr<f32>>
  %ca = tilegpu.convert_layout %va : tensor<512xf32> -> tensor<512xf32, #a>
  %sa = tile.scan (%ca) axis = 0 : (tensor<512xf32, #a>) -> tensor<512xf32, #a> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %rva = tile.scan (%ca) axis = 0 reverse : (tensor<512xf32, #a>) -> tensor<512xf32, #a> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %sa2 = tilegpu.convert_layout %sa : tensor<512xf32, #a> -> tensor<512xf32>
  %rva2 = tilegpu.convert_layout %rva : tensor<512xf32, #a> -> tensor<512xf32>
  %oa = tile.splat %a_sum : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %oap = tile.addptr %oa, %ra : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %oap, %sa2, %ma : tensor<512x!tile.ptr<f32>>
  %ob = tile.splat %a_rev : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %obp = tile.addptr %ob, %ra : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  tile.store %obp, %rva2, %ma : tensor<512x!tile.ptr<f32>>

  // B
  %rr = tile.make_range 0 to 64 : tensor<64xi32>
  %cr = tile.make_range 0 to 32 : tensor<32xi32>
  %rr2 = tile.expand_dims %rr axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cr2 = tile.expand_dims %cr axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %roff = arith.muli %rr2, %c32 : tensor<64x1xi32>
  %roffb = tile.broadcast %roff : tensor<64x1xi32> -> tensor<64x32xi32>
  %colsb = tile.broadcast %cr2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %roffb, %colsb : tensor<64x32xi32>
  %nb = tile.splat %n : i32 -> tensor<64x32xi32>
  %mb = arith.cmpi slt, %off, %nb : tensor<64x32xi32>
  %zb = arith.constant dense<0.0> : tensor<64x32xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64x32xf32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %xbp = tile.addptr %xb, %off : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %vb = tile.load %xbp, %mb, %zb : tensor<64x32x!tile.ptr<f32>>
  %vbm = tile.load %xbp, %mb, %ninf : tensor<64x32x!tile.ptr<f32>>
  %cb = tilegpu.convert_layout %vb : tensor<64x32xf32> -> tensor<64x32xf32, #b>
  %cbm = tilegpu.convert_layout %vbm : tensor<64x32xf32> -> tensor<64x32xf32, #b>
  %cols = tilegpu.convert_layout %colsb : tensor<64x32xi32> -> tensor<64x32xi32, #b>
  %sb = tile.scan (%cb) axis = 0 : (tensor<64x32xf32, #b>) -> tensor<64x32xf32, #b> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %rvb = tile.scan (%cb) axis = 1 reverse : (tensor<64x32xf32, #b>) -> tensor<64x32xf32, #b> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %avb, %aib = tile.scan (%cbm, %cols) axis = 1 : (tensor<64x32xf32, #b>, tensor<64x32xi32, #b>) -> (tensor<64x32xf32, #b>, tensor<64x32xi32, #b>) {
  ^bb0(%p: f32, %ip: i32, %q: f32, %iq: i32):
    %take = arith.cmpf ogt, %q, %p : f32
    %v = arith.select %take, %q, %p : f32
    %i = arith.select %take, %iq, %ip : i32
    tile.scan.return %v, %i : f32, i32
  }
  %sb2 = tilegpu.convert_layout %sb : tensor<64x32xf32, #b> -> tensor<64x32xf32>
  %rvb2 = tilegpu.convert_layout %rvb : tensor<64x32xf32, #b> -> tensor<64x32xf32>
  %aib2 = tilegpu.convert_layout %aib : tensor<64x32xi32, #b> -> tensor<64x32xi32>
  %oc = tile.splat %b_col : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %ocp = tile.addptr %oc, %off : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  tile.store %ocp, %sb2, %mb : tensor<64x32x!tile.ptr<f32>>
  %od = tile.splat %b_rowrev : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %odp = tile.addptr %od, %off : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  tile.store %odp, %rvb2, %mb : tensor<64x32x!tile.ptr<f32>>
  %oe = tile.splat %b_rowarg : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>>
  %oep = tile.addptr %oe, %off : tensor<64x32x!tile.ptr<i32>>, tensor<64x32xi32>
  tile.store %oep, %aib2, %mb : tensor<64x32x!tile.ptr<i32>>

  // C
  %rc = tile.make_range 0 to 16 : tensor<16xi32>
  %nc = tile.splat %n : i32 -> tensor<16xi32>
  %mc = arith.cmpi slt, %rc, %nc : tensor<16xi32>
  %zc = arith.constant dense<0.0> : tensor<16xf32>
  %xc = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %xcp = tile.addptr %xc, %rc : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %vc = tile.load %xcp, %mc, %zc : tensor<16x!tile.ptr<f32>>
  %cc = tilegpu.convert_layout %vc : tensor<16xf32> -> tensor<16xf32, #c>
  %sc = tile.scan (%cc) axis = 0 : (tensor<16xf32, #c>) -> tensor<16xf32, #c> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.scan.return %r : f32
  }
  %sc2 = tilegpu.convert_layout %sc : tensor<16xf32, #c> -> tensor<16xf32>
  %of = tile.splat %c_sum : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %ofp = tile.addptr %of, %rc : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %ofp, %sc2, %mc : tensor<16x!tile.ptr<f32>>
  return
}
