// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tile.scan when the axis stays in each thread: the registers along the
// axis are combined in order, with no shuffle and no shared memory. The
// reverse scan starts from the last register and keeps the later elements
// in the accumulator (the region's first argument): element 0 of the
// reverse subtraction is ((x3 - x2) - x1) - x0.

// CHECK-NOT: global_smem
// CHECK-LABEL: llvm.func @in_thread
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[X2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[X3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[S1:.*]] = llvm.fadd %[[X0]], %[[X1]] : f32
// CHECK: %[[S2:.*]] = llvm.fadd %[[S1]], %[[X2]] : f32
// CHECK: %[[S3:.*]] = llvm.fadd %[[S2]], %[[X3]] : f32
// CHECK: llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[S1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[S2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[S3]], %{{.*}}[3]
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[Y2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[Y3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: %[[R2:.*]] = llvm.fsub %[[Y3]], %[[Y2]] : f32
// CHECK: %[[R1:.*]] = llvm.fsub %[[R2]], %[[Y1]] : f32
// CHECK: %[[R0:.*]] = llvm.fsub %[[R1]], %[[Y0]] : f32
// CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[R1]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[R2]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[Y3]], %{{.*}}[3]
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @in_thread(%x: tensor<128x4xf32, #row>) -> (tensor<128x4xf32, #row>, tensor<128x4xf32, #row>) {
    %r = tile.scan (%x) axis = 1 : (tensor<128x4xf32, #row>) -> tensor<128x4xf32, #row> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.scan.return %s : f32
    }
    %v = tile.scan (%x) axis = 1 reverse : (tensor<128x4xf32, #row>) -> tensor<128x4xf32, #row> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.subf %a, %b : f32
      tile.scan.return %s : f32
    }
    return %r, %v : tensor<128x4xf32, #row>, tensor<128x4xf32, #row>
  }
}

// -----

// Across lanes: each thread first scans its 2 registers, then the 8 lanes
// of a row (lane bits 0-2) run a Hillis-Steele scan of the thread totals
// over shuffles from the lane 1, 2 and 4 places before (the lane's other
// bits kept: lane & -8), each combined only where that lane exists; one
// more shuffle brings the inclusive prefix of the lane before, which the
// registers combine with. No shared memory. The reverse scan counts lanes
// from the other end (lane index XOR 7) and starts with the last register.

// CHECK-NOT: global_smem
// CHECK-LABEL: llvm.func @lanes(
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[T:.*]] = llvm.fadd %[[X0]], %[[X1]] : f32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: %[[M8:.*]] = llvm.mlir.constant(-8 : i32) : i32
// CHECK: %[[OTHERS:.*]] = llvm.and %[[LANE]], %[[M8]] : i32
// CHECK: %[[IDX:.*]] = llvm.and %[[LANE]], %{{.*}} : i32
// CHECK: %[[PREV:.*]] = llvm.sub %[[IDX]], %{{.*}} : i32
// CHECK: %[[PREVW:.*]] = llvm.and %[[PREV]], %{{.*}} : i32
// CHECK: %[[SRC1:.*]] = llvm.or %[[OTHERS]], %[[PREVW]] : i32
// CHECK: %[[HAS1:.*]] = llvm.icmp "uge" %[[IDX]], %{{.*}} : i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC1]], %{{.*}} : i32 -> i32
// CHECK: %[[C1:.*]] = llvm.fadd %{{.*}}, %[[T]] : f32
// CHECK: llvm.select %[[HAS1]], %[[C1]], %[[T]] : i1, f32
// CHECK: nvvm.shfl.sync idx
// CHECK: nvvm.shfl.sync idx
// CHECK: %[[EX:.*]] = nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %[[SRC1]], %{{.*}} : i32 -> i32
// CHECK: %[[EXF:.*]] = llvm.bitcast %[[EX]] : i32 to f32
// CHECK: %[[R0:.*]] = llvm.fadd %[[EXF]], %[[X0]] : f32
// CHECK: llvm.select %[[HAS1]], %[[R0]], %[[X0]] : i1, f32
// CHECK: %[[R1:.*]] = llvm.fadd %[[EXF]], %[[T]] : f32
// CHECK: llvm.select %[[HAS1]], %[[R1]], %[[T]] : i1, f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @lanes_reverse(
// CHECK: %[[Y0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[Y1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: llvm.intr.smax(%[[Y1]], %[[Y0]]) : (i32, i32) -> i32
// CHECK: llvm.mlir.constant(-8 : i32) : i32
// CHECK-NEXT: llvm.and
// CHECK-NEXT: llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[RIDX0:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[M7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[RIDX:.*]] = llvm.xor %[[RIDX0]], %[[M7]] : i32
// CHECK-COUNT-4: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#l = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @lanes(%x: tensor<16x16xf32, #l>) -> tensor<16x16xf32, #l> {
    %r = tile.scan (%x) axis = 1 : (tensor<16x16xf32, #l>) -> tensor<16x16xf32, #l> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.scan.return %s : f32
    }
    return %r : tensor<16x16xf32, #l>
  }
  func.func private @lanes_reverse(%x: tensor<16x16xi32, #l>) -> tensor<16x16xi32, #l> {
    %r = tile.scan (%x) axis = 1 reverse : (tensor<16x16xi32, #l>) -> tensor<16x16xi32, #l> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.maxsi %a, %b : i32
      tile.scan.return %s : i32
    }
    return %r : tensor<16x16xi32, #l>
  }
}

// -----

// Across warps: registers, then lanes (5 steps, the exclusive prefix and
// the warp total from lane 31: 7 shuffles), then each warp's total goes to
// shared memory at (block, warp) (one block of 512 elements, 4 warps:
// 16 bytes), a barrier, and every thread loads the 4 totals, forms their
// prefixes and combines the one of the warp before its own with its
// registers. No barrier before the stores (nothing used shared memory
// before) and none after the loads.

// CHECK: module attributes {{{.*}}tilegpu.shared = 16 : i32
// CHECK: llvm.mlir.global external @global_smem()
// CHECK-LABEL: llvm.func @warps
// CHECK-COUNT-3: llvm.fadd
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-7: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#w = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @warps(%x: tensor<512xf32, #w>) -> tensor<512xf32, #w> {
    %r = tile.scan (%x) axis = 0 : (tensor<512xf32, #w>) -> tensor<512xf32, #w> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.scan.return %s : f32
    }
    return %r : tensor<512xf32, #w>
  }
}

// -----

// Two sources scanned together (a reverse running argmax) along axis 0,
// where the 4 warps hold rows 0-3 and each thread's 2 registers rows 4
// apart: first the warps (64 blocks of 4 rows x 4 warps x 4 bytes, one
// area per source, the second at byte 1024), then the registers in the
// reverse order. The warp index is counted from the other end (XOR 3).
// The combine region runs on both sources at once. An i1 scan (a running
// or) travels through shared memory as i8, in its own area.

// CHECK: module attributes {{{.*}}tilegpu.shared = 2304 : i32
// CHECK-LABEL: llvm.func @argmax
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARPTID:.*]] = llvm.lshr %[[TID]], %{{.*}} : i32
// CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARPTID]], %{{.*}}, %{{.*}} {terrazzo.warp_index} : i32 -> i32
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[WIDX:.*]] = llvm.and %[[WARP]], %{{.*}} : i32
// CHECK-NEXT: %[[M3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[RWIDX:.*]] = llvm.xor %[[WIDX]], %[[M3]] : i32
// CHECK: %[[BASE1:.*]] = llvm.getelementptr %[[BASE]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.fcmp "ogt"
// CHECK: llvm.select %{{.*}} : i1, f32
// CHECK: llvm.select %{{.*}} : i1, i32
// CHECK: llvm.icmp "eq" %[[RWIDX]]
// CHECK: llvm.getelementptr %{{.*}}[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.store %{{.*}} : i8, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %{{.*}} : i8 to i1
// CHECK: llvm.or %{{.*}} : i1
// CHECK: llvm.return
#w = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @argmax(%x: tensor<8x32xf32, #w>, %i: tensor<8x32xi32, #w>, %b: tensor<8x32xi1, #w>) -> (tensor<8x32xf32, #w>, tensor<8x32xi32, #w>, tensor<8x32xi1, #w>) {
    %r:2 = tile.scan (%x, %i) axis = 0 reverse : (tensor<8x32xf32, #w>, tensor<8x32xi32, #w>) -> (tensor<8x32xf32, #w>, tensor<8x32xi32, #w>) {
    ^bb0(%a: f32, %ai: i32, %c: f32, %ci: i32):
      %gt = arith.cmpf ogt, %c, %a : f32
      %v = arith.select %gt, %c, %a : f32
      %vi = arith.select %gt, %ci, %ai : i32
      tile.scan.return %v, %vi : f32, i32
    }
    %o = tile.scan (%b) axis = 0 : (tensor<8x32xi1, #w>) -> tensor<8x32xi1, #w> {
    ^bb0(%p: i1, %q: i1):
      %s = arith.ori %p, %q : i1
      tile.scan.return %s : i1
    }
    return %r#0, %r#1, %o : tensor<8x32xf32, #w>, tensor<8x32xi32, #w>, tensor<8x32xi1, #w>
  }
}

// -----

// A linear layout whose bits along the axis come in no convenient order:
// from the lowest digit of the position, lanes 1, 0 and 3 (one Hillis-Steele
// scan over a lane index gathered from those bits: 3 steps and the run's
// total, for each of the 2 registers), warp 0 (through shared memory:
// 16 blocks of 16 elements x 2 warps x 4 bytes), lane 2 (one more shuffle
// step), warp 1 (shared memory again, after a barrier, since its stores
// overwrite what the first run's loads read), register 0, lane 4.

// CHECK: module attributes {{{.*}}tilegpu.shared = 128 : i32
// CHECK-LABEL: llvm.func @weird
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-8: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.shfl.sync idx
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#lin = #tilegpu.linear<{register = [[64]], lane = [[2], [1], [16], [4], [128]], warp = [[8], [32]], block = []}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @weird(%x: tensor<256xf32, #lin>) -> tensor<256xf32, #lin> {
    %r = tile.scan (%x) axis = 0 : (tensor<256xf32, #lin>) -> tensor<256xf32, #lin> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.scan.return %s : f32
    }
    return %r : tensor<256xf32, #lin>
  }
}

// -----

// A hardware bit that moves along the axis and another dimension at once
// is not supported: a located error.
#mixed = #tilegpu.linear<{register = [[1, 1], [0, 1]], lane = [[0, 2], [0, 4], [0, 8], [0, 16], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @mixed_bits(%x: tensor<16x32xf32, #mixed>) -> tensor<16x32xf32, #mixed> {
    // expected-error @below {{'tile.scan' op the layout of the sources moves along the axis and another dimension with one hardware bit, which this backend cannot scan yet}}
    %r = tile.scan (%x) axis = 1 : (tensor<16x32xf32, #mixed>) -> tensor<16x32xf32, #mixed> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.scan.return %s : f32
    }
    return %r : tensor<16x32xf32, #mixed>
  }
}

// -----

// The results must be laid out as the sources.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @result_layout(%x: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
    // expected-error @below {{'tile.scan' op results must have the layout of the sources}}
    %r = tile.scan (%x) axis = 0 : (tensor<512xf32, #a>) -> tensor<512xf32, #b> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.scan.return %s : f32
    }
    return %r : tensor<512xf32, #b>
  }
}

// -----

// Sources scanned together must share their layout.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @mixed(%x: tensor<512xf32, #a>, %y: tensor<512xf32, #b>) -> (tensor<512xf32, #a>, tensor<512xf32, #b>) {
    // expected-error @below {{'tile.scan' op sources have different layouts}}
    %r:2 = tile.scan (%x, %y) axis = 0 : (tensor<512xf32, #a>, tensor<512xf32, #b>) -> (tensor<512xf32, #a>, tensor<512xf32, #b>) {
    ^bb0(%p: f32, %pp: f32, %q: f32, %qq: f32):
      %s = arith.addf %p, %q : f32
      %t = arith.addf %pp, %qq : f32
      tile.scan.return %s, %t : f32, f32
    }
    return %r#0, %r#1 : tensor<512xf32, #a>, tensor<512xf32, #b>
  }
}
