// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// An elementwise op is computed once per register, except where AxisInfo
// proves registers equal in every thread: each thread holds elements 2t,
// 2t + 1, 2t + 64 and 2t + 65 of the range, and a bound that is a multiple
// of 16 makes the compare constant on aligned runs of 16, so the pairs
// (2t, 2t + 1) and (2t + 64, 2t + 65) share one compare each.

// CHECK-LABEL: llvm.func @bound_multiple_of_16
// CHECK-COUNT-2: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @bound_multiple_of_16(%n: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #pairs>
    %b = tile.splat %n : i32 -> tensor<128xi32, #pairs>
    %m = arith.cmpi slt, %r, %b : tensor<128xi32, #pairs>
    return
  }
}

// -----

// A bound of unknown divisibility: every element has its own compare.

// CHECK-LABEL: llvm.func @bound_unknown
// CHECK-COUNT-4: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
#pairs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @bound_unknown(%n: i32) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #pairs>
    %b = tile.splat %n : i32 -> tensor<128xi32, #pairs>
    %m = arith.cmpi slt, %r, %b : tensor<128xi32, #pairs>
    return
  }
}

// -----

// The mask of a K-major tile's rows (a cp.async operand): lane l holds rows
// l / 4, l / 4 + 8, + 16 and + 24 (broadcast along the columns). Against a
// bound that is a multiple of 16, rows r and r + 8 (r < 8) share a run of
// 16: two compares.

// CHECK-LABEL: llvm.func @rows_bound_multiple_of_16
// CHECK-COUNT-2: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @rows_bound_multiple_of_16(%n: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #rows}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #rows}>> -> tensor<32x1xi32, #rows>
    %rb = tile.broadcast %r2 : tensor<32x1xi32, #rows> -> tensor<32x4xi32, #rows>
    %b = tile.splat %n : i32 -> tensor<32x4xi32, #rows>
    %m = arith.cmpi slt, %rb, %b : tensor<32x4xi32, #rows>
    return
  }
}

// -----

// The same rows against a multiple of 8 only: runs of 8 never hold two of
// a thread's rows, so each row has its own compare.

// CHECK-LABEL: llvm.func @rows_bound_multiple_of_8
// CHECK-COUNT-4: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @rows_bound_multiple_of_8(%n: i32 {tile.divisibility = 8 : i32}) {
    %r = tile.make_range 0 to 32 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #rows}>>
    %r2 = tile.expand_dims %r axis = 1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #rows}>> -> tensor<32x1xi32, #rows>
    %rb = tile.broadcast %r2 : tensor<32x1xi32, #rows> -> tensor<32x4xi32, #rows>
    %b = tile.splat %n : i32 -> tensor<32x4xi32, #rows>
    %m = arith.cmpi slt, %rb, %b : tensor<32x4xi32, #rows>
    return
  }
}
