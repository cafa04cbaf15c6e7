// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// With their results in the layouts inferred from their sources', trans,
// reshape, join and split only relabel a thread's registers: no shared
// memory, no shuffle, no barrier.

// trans and reshape keep every register where it is: the struct of values
// passes through unchanged, here into a #tilegpu.linear layout.
// CHECK-NOT: global_smem
// CHECK-LABEL: llvm.func @trans(
// CHECK-SAME: %[[A:.*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)
// CHECK-NEXT: llvm.return %[[A]]
// CHECK-LABEL: llvm.func @reshape_to_linear(
// CHECK-SAME: %[[B:.*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)
// CHECK-NEXT: llvm.return %[[B]]
#src = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#flat = #tilegpu.linear<{register = [[2], [4], [8], [16]], lane = [[32], [64], [128], [256], [512]], warp = [[1024], [1]], block = []}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @trans(%a: tensor<32x64xf32, #src>) -> tensor<64x32xf32, #cols> {
    %t = tile.trans %a [1, 0] : tensor<32x64xf32, #src> -> tensor<64x32xf32, #cols>
    return %t : tensor<64x32xf32, #cols>
  }
  func.func private @reshape_to_linear(%a: tensor<64x32xf32, #cols>) -> tensor<2048xf32, #flat> {
    %r = tile.reshape %a : tensor<64x32xf32, #cols> -> tensor<2048xf32, #flat>
    return %r : tensor<2048xf32, #flat>
  }
}

// -----

// join interleaves the registers of its operands (the new dimension is the
// lowest register bit); split takes them apart again (here the halves are
// register bit 0 of the source, the rows bit 1).
// CHECK-LABEL: llvm.func @join(
// CHECK-SAME: %[[A:.*]]: !llvm.struct<(f32, f32)>, %[[B:.*]]: !llvm.struct<(f32, f32)>)
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
// CHECK-NEXT: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[J0:.*]] = llvm.insertvalue %[[A0]], %[[U]][0]
// CHECK-NEXT: %[[J1:.*]] = llvm.insertvalue %[[B0]], %[[J0]][1]
// CHECK-NEXT: %[[J2:.*]] = llvm.insertvalue %[[A1]], %[[J1]][2]
// CHECK-NEXT: %[[J3:.*]] = llvm.insertvalue %[[B1]], %[[J2]][3]
// CHECK-NEXT: llvm.return %[[J3]]
// CHECK-LABEL: llvm.func @split(
// CHECK-SAME: %[[S:.*]]: !llvm.struct<(f32, f32, f32, f32)>)
// CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[S]][0]
// CHECK-NEXT: %[[S1:.*]] = llvm.extractvalue %[[S]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.extractvalue %[[S]][2]
// CHECK-NEXT: %[[S3:.*]] = llvm.extractvalue %[[S]][3]
// CHECK-NEXT: %[[LU:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[L0:.*]] = llvm.insertvalue %[[S0]], %[[LU]][0]
// CHECK-NEXT: %[[L1:.*]] = llvm.insertvalue %[[S2]], %[[L0]][1]
// CHECK-NEXT: %[[HU:.*]] = llvm.mlir.undef : !llvm.struct<(f32, f32)>
// CHECK-NEXT: %[[H0:.*]] = llvm.insertvalue %[[S1]], %[[HU]][0]
// CHECK-NEXT: %[[H1:.*]] = llvm.insertvalue %[[S3]], %[[H0]][1]
// CHECK-NOT: llvm.extractvalue
// CHECK: llvm.return
#half = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#pairs = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @join(%a: tensor<64xf32, #half>, %b: tensor<64xf32, #half>) -> tensor<64x2xf32, #pairs> {
    %j = tile.join %a, %b : tensor<64xf32, #half> -> tensor<64x2xf32, #pairs>
    return %j : tensor<64x2xf32, #pairs>
  }
  func.func private @split(%a: tensor<64x2xf32, #pairs>) -> (tensor<64xf32, #half>, tensor<64xf32, #half>) {
    %l, %h = tile.split %a : tensor<64x2xf32, #pairs> -> tensor<64xf32, #half>
    return %l, %h : tensor<64xf32, #half>, tensor<64xf32, #half>
  }
}

// -----

// An interleave in layouts chosen for it: two loads of two elements per
// thread, joined and flattened, are one 16-byte store of a0 b0 a1 b1 per
// thread, with nothing in between (no data shuffle; the warp index's own
// shuffle, marked terrazzo.warp_index, does not move data).
// CHECK-NOT: global_smem
// CHECK-LABEL: llvm.func @interleave(
// CHECK-NOT: nvvm.shfl.sync {{[a-z]+}} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} :
// CHECK-NOT: nvvm.barrier
// CHECK: %[[AV:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-DAG: %[[A0:.*]] = llvm.extractelement %[[AV]][%{{.*}} : i32] : vector<2xf32>
// CHECK-NOT: nvvm.shfl.sync {{[a-z]+}} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} :
// CHECK: %[[BV:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT: nvvm.shfl.sync {{[a-z]+}} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} :
// CHECK-NOT: nvvm.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT: nvvm.shfl.sync {{[a-z]+}} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} :
// CHECK-NOT: nvvm.barrier
// CHECK: llvm.return
#half = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#pairs = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @interleave(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %b: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 256 : tensor<256xi32, #half>
    %ap = tile.splat %a : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #half>
    %aa = tile.addptr %ap, %r : tensor<256x!tile.ptr<f32>, #half>, tensor<256xi32, #half>
    %av = tile.load %aa : tensor<256x!tile.ptr<f32>, #half>
    %bp = tile.splat %b : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #half>
    %ba = tile.addptr %bp, %r : tensor<256x!tile.ptr<f32>, #half>, tensor<256xi32, #half>
    %bv = tile.load %ba : tensor<256x!tile.ptr<f32>, #half>
    %j = tile.join %av, %bv : tensor<256xf32, #half> -> tensor<256x2xf32, #pairs>
    %f = tile.reshape %j : tensor<256x2xf32, #pairs> -> tensor<512xf32, #flat>
    %r2 = tile.make_range 0 to 512 : tensor<512xi32, #flat>
    %op = tile.splat %out : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #flat>
    %oa = tile.addptr %op, %r2 : tensor<512x!tile.ptr<f32>, #flat>, tensor<512xi32, #flat>
    tile.store %oa, %f : tensor<512x!tile.ptr<f32>, #flat>
    return
  }
}

// -----

// Must not: a result in another layout than the inferred one would need
// data to move; the lowering reports it instead of emitting wrong code.
#src = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @trans_moves_data(%a: tensor<4x16xf32, #src>) -> tensor<16x4xf32, #src> {
    // expected-error @+1 {{'tile.trans' op result layout in 'tensor<16x4xf32, #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>' is not the layout inferred from the source's in 'tensor<4x16xf32, #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>' (the op would move data between threads); give the result the inferred layout and convert it afterwards}}
    %t = tile.trans %a [1, 0] : tensor<4x16xf32, #src> -> tensor<16x4xf32, #src>
    return %t : tensor<16x4xf32, #src>
  }
}

// -----

// Must not: a split whose source holds the two halves in different lanes.
#lanes = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#half = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func private @split_across_lanes(%a: tensor<16x2xf32, #lanes>) -> tensor<16xf32, #half> {
    // expected-error @+1 {{'tile.split' op cannot be lowered as a relabelling of the registers of its source 'tensor<16x2xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>>': its layout does not hold both halves of the last dimension in the registers of one thread; convert the source first}}
    %l, %h = tile.split %a : tensor<16x2xf32, #lanes> -> tensor<16xf32, #half>
    return %l : tensor<16xf32, #half>
  }
}
