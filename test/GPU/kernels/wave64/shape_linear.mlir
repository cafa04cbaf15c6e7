// The wave64 counterpart of ../shape_linear.mlir, for AMD's CDNA targets (64 lanes
// a wave): the same kernel, arguments and results (the host checks of the
// GPU tests apply unchanged), its explicit layouts spread over 64 lanes.
// #trans is the layout tile.trans infers from the default wave64 layout
// of the 32 x 64 tile at 4 warps (terrazzo-convert-tile-to-tilegpu for
// hip:gfx942), as the original's is at 32 lanes.
// scripts/amd-compile-check.py compiles this file for the AMD targets in
// place of ../shape_linear.mlir, whose 32-lane layouts the wave64 targets reject.
//
// A reshape whose source is not in a default layout, so that its result
// needs a #tilegpu.linear layout to stay a relabelling of registers: the
// transpose of a 32 x 64 tile keeps the layout that tile.trans infers from
// the tile's default layout at 4 warps (written out below; this kernel is
// for 4 warps only), and is flattened in row-major order. Program p writes
// the tile's column-major copy:
//   out[2048 p + 32 j + i] = x[2048 p + 64 i + j]   (i < 32, j < 64),
// for indices below n.
#trans = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @shape_linear(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %n: i32) {
  %pid = tile.program_id x : i32
  %c2048 = arith.constant 2048 : i32
  %base = arith.muli %pid, %c2048 : i32
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %bases = tile.splat %base : i32 -> tensor<2048xi32>
  %k = arith.addi %bases, %r : tensor<2048xi32>
  %ns = tile.splat %n : i32 -> tensor<2048xi32>
  %ok = arith.cmpi slt, %k, %ns : tensor<2048xi32>
  %xp = tile.splat %x : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %xa = tile.addptr %xp, %k : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %v = tile.load %xa, %ok : tensor<2048x!tile.ptr<f32>>
  %v2 = tile.reshape %v : tensor<2048xf32> -> tensor<32x64xf32>
  %t = tile.trans %v2 [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32, #trans>
  %flat = tile.reshape %t : tensor<64x32xf32, #trans> -> tensor<2048xf32>
  %op = tile.splat %out : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %oa = tile.addptr %op, %k : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  tile.store %oa, %flat, %ok : tensor<2048x!tile.ptr<f32>>
  return
}
