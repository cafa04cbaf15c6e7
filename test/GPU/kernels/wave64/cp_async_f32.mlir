// The wave64 counterpart of ../cp_async_f32.mlir, for AMD's CDNA targets (64 lanes
// a wave): the same kernel, arguments and results (the host checks of the
// GPU tests apply unchanged), its explicit layouts spread over 64 lanes.
// On AMD the asynchronous copies are done at once (a load and an LDS
// store; backends/amd/ConvertTileGPUToROCDL.cpp), the waits left with
// nothing to wait for; the swizzled buffers and the column-wise read back
// are the same.
// scripts/amd-compile-check.py compiles this file for the AMD targets in
// place of ../cp_async_f32.mlir, whose 32-lane layouts the wave64 targets reject.
//
// A 2-stage cp.async copy of f32 through swizzled shared memory (4-byte copies: m, n and the row stride are arbitrary, so both tails are masked).
// dst (a row-major matrix of 64 x 64 tiles, row stride dst_stride) = src
// (m x n, row stride src_stride) with zeros outside it, through shared
// memory: program (i, j) issues two asynchronous copies (cp.async) of the
// two 32 x 64 halves of its tile into a 2-buffer stack swizzled by vectors
// of 4, masked to the matrix (masked elements are filled with zeros),
// commits each as a group, and after waiting for the first group (one
// left in flight) reads the first half back column-wise (#col: each thread
// holds 4 rows of a column) and stores it, then waits for the second.
#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#r1 = #tilegpu.slice<{dim = 1, parent = #row}>
#c1 = #tilegpu.slice<{dim = 0, parent = #row}>
#col = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#s3 = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @cp_async_f32(%src: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %dst: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %m: i32, %n: i32 , %src_stride: i32 ,
                %dst_stride: i32 {tile.divisibility = 16 : i32}) {
  %pid_m = tile.program_id x : i32
  %pid_n = tile.program_id y : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid_m, %c64 : i32
  %row1 = arith.addi %row0, %c32 : i32
  %col0 = arith.muli %pid_n, %c64 : i32
  %rr = tile.make_range 0 to 32 : tensor<32xi32, #r1>
  %cr = tile.make_range 0 to 64 : tensor<64xi32, #c1>
  %cs = tile.splat %col0 : i32 -> tensor<64xi32, #c1>
  %cols = arith.addi %cs, %cr : tensor<64xi32, #c1>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<64xi32, #c1> -> tensor<1x64xi32, #row>
  %colsb = tile.broadcast %cols2 : tensor<1x64xi32, #row> -> tensor<32x64xi32, #row>
  %ns = tile.splat %n : i32 -> tensor<1x64xi32, #row>
  %col_ok = arith.cmpi slt, %cols2, %ns : tensor<1x64xi32, #row>
  %col_okb = tile.broadcast %col_ok : tensor<1x64xi1, #row> -> tensor<32x64xi1, #row>
  %ms = tile.splat %m : i32 -> tensor<32x1xi32, #row>
  %ss = tile.splat %src_stride : i32 -> tensor<32x1xi32, #row>
  %ds = tile.splat %dst_stride : i32 -> tensor<32x1xi32, #row>
  %sp = tile.splat %src : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>, #row>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>, #row>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32, #row>

  // Half h of the tile: rows row0 + 32 h .. + 32.
  %r0s = tile.splat %row0 : i32 -> tensor<32xi32, #r1>
  %rows0 = arith.addi %r0s, %rr : tensor<32xi32, #r1>
  %rows0e = tile.expand_dims %rows0 axis = 1 : tensor<32xi32, #r1> -> tensor<32x1xi32, #row>
  %r1s = tile.splat %row1 : i32 -> tensor<32xi32, #r1>
  %rows1 = arith.addi %r1s, %rr : tensor<32xi32, #r1>
  %rows1e = tile.expand_dims %rows1 axis = 1 : tensor<32xi32, #r1> -> tensor<32x1xi32, #row>

  %so0 = arith.muli %rows0e, %ss : tensor<32x1xi32, #row>
  %so0b = tile.broadcast %so0 : tensor<32x1xi32, #row> -> tensor<32x64xi32, #row>
  %soff0 = arith.addi %so0b, %colsb : tensor<32x64xi32, #row>
  %sa0 = tile.addptr %sp, %soff0 : tensor<32x64x!tile.ptr<f32>, #row>, tensor<32x64xi32, #row>
  %rok0 = arith.cmpi slt, %rows0e, %ms : tensor<32x1xi32, #row>
  %rok0b = tile.broadcast %rok0 : tensor<32x1xi1, #row> -> tensor<32x64xi1, #row>
  %mask0 = arith.andi %rok0b, %col_okb : tensor<32x64xi1, #row>

  %so1 = arith.muli %rows1e, %ss : tensor<32x1xi32, #row>
  %so1b = tile.broadcast %so1 : tensor<32x1xi32, #row> -> tensor<32x64xi32, #row>
  %soff1 = arith.addi %so1b, %colsb : tensor<32x64xi32, #row>
  %sa1 = tile.addptr %sp, %soff1 : tensor<32x64x!tile.ptr<f32>, #row>, tensor<32x64xi32, #row>
  %rok1 = arith.cmpi slt, %rows1e, %ms : tensor<32x1xi32, #row>
  %rok1b = tile.broadcast %rok1 : tensor<32x1xi1, #row> -> tensor<32x64xi1, #row>
  %mask1 = arith.andi %rok1b, %col_okb : tensor<32x64xi1, #row>

  %stack = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x32x64xf32, #s3, mutable>
  %b0 = tilegpu.memdesc_index %stack[%c0] : !tilegpu.memdesc<2x32x64xf32, #s3, mutable> -> !tilegpu.memdesc<32x64xf32, #s2, mutable>
  %b1 = tilegpu.memdesc_index %stack[%c1] : !tilegpu.memdesc<2x32x64xf32, #s3, mutable> -> !tilegpu.memdesc<32x64xf32, #s2, mutable>
  %t0 = tilegpu.async_copy_global_to_local %sa0, %b0 mask %mask0 other %zero : tensor<32x64x!tile.ptr<f32>, #row>, tensor<32x64xi1, #row>, tensor<32x64xf32, #row> -> !tilegpu.memdesc<32x64xf32, #s2, mutable>
  %g0 = tilegpu.async_commit_group tokens %t0
  %t1 = tilegpu.async_copy_global_to_local %sa1, %b1 mask %mask1 : tensor<32x64x!tile.ptr<f32>, #row>, tensor<32x64xi1, #row> -> !tilegpu.memdesc<32x64xf32, #s2, mutable>
  %g1 = tilegpu.async_commit_group tokens %t1

  %w0 = tilegpu.async_wait tokens %g0 {num = 1 : i32}
  %v0c = tilegpu.local_load %b0 : !tilegpu.memdesc<32x64xf32, #s2, mutable> -> tensor<32x64xf32, #col>
  %v0 = tilegpu.convert_layout %v0c : tensor<32x64xf32, #col> -> tensor<32x64xf32, #row>
  %do0 = arith.muli %rows0e, %ds : tensor<32x1xi32, #row>
  %do0b = tile.broadcast %do0 : tensor<32x1xi32, #row> -> tensor<32x64xi32, #row>
  %doff0 = arith.addi %do0b, %colsb : tensor<32x64xi32, #row>
  %da0 = tile.addptr %dp, %doff0 : tensor<32x64x!tile.ptr<f32>, #row>, tensor<32x64xi32, #row>
  tile.store %da0, %v0 : tensor<32x64x!tile.ptr<f32>, #row>

  %w1 = tilegpu.async_wait tokens %g1 {num = 0 : i32}
  %v1c = tilegpu.local_load %b1 : !tilegpu.memdesc<32x64xf32, #s2, mutable> -> tensor<32x64xf32, #col>
  %v1 = tilegpu.convert_layout %v1c : tensor<32x64xf32, #col> -> tensor<32x64xf32, #row>
  %do1 = arith.muli %rows1e, %ds : tensor<32x1xi32, #row>
  %do1b = tile.broadcast %do1 : tensor<32x1xi32, #row> -> tensor<32x64xi32, #row>
  %doff1 = arith.addi %do1b, %colsb : tensor<32x64xi32, #row>
  %da1 = tile.addptr %dp, %doff1 : tensor<32x64x!tile.ptr<f32>, #row>, tensor<32x64xi32, #row>
  tile.store %da1, %v1 : tensor<32x64x!tile.ptr<f32>, #row>
  tilegpu.local_dealloc %stack : !tilegpu.memdesc<2x32x64xf32, #s3, mutable>
  return
}
