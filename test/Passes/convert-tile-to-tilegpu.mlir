// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" | FileCheck %s

// The default layouts under other launch configurations, on the @shapes
// case alone (split-file extracts it and an empty module from the end of
// this file):
// RUN: split-file %s %t
// RUN: terrazzo-opt %t/shapes.mlir --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=1" | FileCheck %s --check-prefix=W1
// RUN: terrazzo-opt %t/shapes.mlir --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=8" | FileCheck %s --check-prefix=W8
// RUN: terrazzo-opt %t/shapes.mlir --terrazzo-convert-tile-to-tilegpu="target=hip:gfx942 num-warps=4" | FileCheck %s --check-prefix=HIP

// Invalid options are reported on the module, and the pass fails.
// RUN: not terrazzo-opt %t/empty.mlir --terrazzo-convert-tile-to-tilegpu="target=cuda:91" 2>&1 | FileCheck %s --check-prefix=BAD-TARGET
// RUN: not terrazzo-opt %t/empty.mlir --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=3" 2>&1 | FileCheck %s --check-prefix=BAD-WARPS3
// RUN: not terrazzo-opt %t/empty.mlir --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=64" 2>&1 | FileCheck %s --check-prefix=BAD-WARPS64
// RUN: not terrazzo-opt %t/empty.mlir --terrazzo-convert-tile-to-tilegpu="target=cuda:90 threads-per-warp=16" 2>&1 | FileCheck %s --check-prefix=BAD-TPW
// BAD-TARGET: empty.mlir:1:1: error: unknown target 'cuda:91'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201{{$}}
// BAD-WARPS3: empty.mlir:1:1: error: num-warps must be a power of two from 1 to 32, got 3{{$}}
// BAD-WARPS64: empty.mlir:1:1: error: num-warps must be a power of two from 1 to 32, got 64{{$}}
// BAD-TPW: empty.mlir:1:1: error: threads-per-warp must be 32 or 64, got 16{{$}}
// BAD-TARGET-NOT: tilegpu.num-warps
// BAD-WARPS3-NOT: tilegpu.num-warps
// BAD-WARPS64-NOT: tilegpu.num-warps
// BAD-TPW-NOT: tilegpu.num-warps

// The launch configuration lands in the module attributes: num-warps as
// given, the warp size of the target (32 on NVIDIA, 64 on CDNA) and the
// target's canonical name. A scalar-only function is left as it was.

// CHECK-LABEL: module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32}
// CHECK: func.func @scalars(%[[A:.*]]: i32, %[[P:.*]]: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> i32
// CHECK-NEXT: %[[PID:.*]] = tile.program_id x : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[PID]], %[[A]] : i32
// CHECK-NEXT: return %[[S]] : i32
func.func @scalars(%a: i32, %p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) -> i32 {
  %pid = tile.program_id x : i32
  %s = arith.addi %pid, %a : i32
  return %s : i32
}

// -----

// Results, constants and pointer tensors get the layout of their shape too;
// elementwise ops between tensors of one shape need no conversion, and the
// constant keeps its value.

// CHECK: #[[$L:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @ops
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32) -> tensor<256xf32, #[[$L]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = tile.make_range 0 to 256 : tensor<256xi32, #[[$L]]>
// CHECK: %[[NS:.*]] = tile.splat %[[N]] : i32 -> tensor<256xi32, #[[$L]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[R]], %[[NS]] : tensor<256xi32, #[[$L]]>
// CHECK: %[[XS:.*]] = tile.splat %[[X]] : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #[[$L]]>
// CHECK: %[[XP:.*]] = tile.addptr %[[XS]], %[[R]] : tensor<256x!tile.ptr<f32>, #[[$L]]>, tensor<256xi32, #[[$L]]>
// CHECK: %[[OTHER:.*]] = arith.constant dense<1.500000e+00> : tensor<256xf32, #[[$L]]>
// CHECK: %[[V:.*]] = tile.load %[[XP]], %[[M]], %[[OTHER]] : tensor<256x!tile.ptr<f32>, #[[$L]]>
// CHECK: %[[E:.*]] = math.exp %[[V]] : tensor<256xf32, #[[$L]]>
// CHECK: tile.store %[[XP]], %[[E]], %[[M]] : tensor<256x!tile.ptr<f32>, #[[$L]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: return %[[E]] : tensor<256xf32, #[[$L]]>
func.func @ops(%x: !tile.ptr<f32>, %n: i32) -> tensor<256xf32> {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %other = arith.constant dense<1.5> : tensor<256xf32>
  %v = tile.load %xp, %m, %other : tensor<256x!tile.ptr<f32>>
  %e = math.exp %v : tensor<256xf32>
  tile.store %xp, %e, %m : tensor<256x!tile.ptr<f32>>
  return %e : tensor<256xf32>
}

// -----

// expand_dims takes its source in the slice of its result's layout: a
// conversion from the 1-D default layout is inserted before it.

// CHECK-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$ROW:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[$COL:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$ROW_SLICE:.+]] = #tilegpu.slice<{dim = 0, parent = #[[$ROW]]}>
// CHECK-DAG: #[[$COL_SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$COL]]}>
// CHECK-LABEL: func.func @expand_dims
// CHECK: %[[R:.*]] = tile.make_range 0 to 128 : tensor<128xi32, #[[$L1D]]>
// CHECK-NEXT: %[[RS:.*]] = tilegpu.convert_layout %[[R]] : tensor<128xi32, #[[$L1D]]> -> tensor<128xi32, #[[$ROW_SLICE]]>
// CHECK-NEXT: %[[ROW:.*]] = tile.expand_dims %[[RS]] axis = 0 : tensor<128xi32, #[[$ROW_SLICE]]> -> tensor<1x128xi32, #[[$ROW]]>
// CHECK-NEXT: %[[CS:.*]] = tilegpu.convert_layout %[[R]] : tensor<128xi32, #[[$L1D]]> -> tensor<128xi32, #[[$COL_SLICE]]>
// CHECK-NEXT: %[[COL:.*]] = tile.expand_dims %[[CS]] axis = 1 : tensor<128xi32, #[[$COL_SLICE]]> -> tensor<128x1xi32, #[[$COL]]>
// CHECK-NEXT: return %[[ROW]], %[[COL]]
func.func @expand_dims() -> (tensor<1x128xi32>, tensor<128x1xi32>) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %row = tile.expand_dims %r axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %col = tile.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  return %row, %col : tensor<1x128xi32>, tensor<128x1xi32>
}

// -----

// broadcast takes its source in its result's layout. 16x1 and 16x64 have
// different default layouts, so the source is converted; 1x1024 and
// 16x1024 share one (lanes and warps all along dimension 1), so that
// broadcast needs nothing.

// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$DST:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$WIDE:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<16x1xf32, #[[$SRC]]>, %[[B:.*]]: tensor<1x1024xf32, #[[$WIDE]]>)
// CHECK-NEXT: %[[AC:.*]] = tilegpu.convert_layout %[[A]] : tensor<16x1xf32, #[[$SRC]]> -> tensor<16x1xf32, #[[$DST]]>
// CHECK-NEXT: %[[AB:.*]] = tile.broadcast %[[AC]] : tensor<16x1xf32, #[[$DST]]> -> tensor<16x64xf32, #[[$DST]]>
// CHECK-NEXT: %[[BB:.*]] = tile.broadcast %[[B]] : tensor<1x1024xf32, #[[$WIDE]]> -> tensor<16x1024xf32, #[[$WIDE]]>
// CHECK-NEXT: return %[[AB]], %[[BB]]
func.func @broadcast(%a: tensor<16x1xf32>, %b: tensor<1x1024xf32>) -> (tensor<16x64xf32>, tensor<16x1024xf32>) {
  %ab = tile.broadcast %a : tensor<16x1xf32> -> tensor<16x64xf32>
  %bb = tile.broadcast %b : tensor<1x1024xf32> -> tensor<16x1024xf32>
  return %ab, %bb : tensor<16x64xf32>, tensor<16x1024xf32>
}

// -----

// A reduction of a 2-D tensor produces the slice of its source's layout,
// converted back to the default 1-D layout for its users; a reduction to a
// scalar has nothing to convert. The combine region keeps its scalars.

// CHECK-DAG: #[[$L2D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$L2D]]}>
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.*]]: tensor<32x64xf32, #[[$L2D]]>, %[[Y:.*]]: tensor<128xf32, #[[$L1D]]>) -> (tensor<32xf32, #[[$L1D]]>, f32)
// CHECK-NEXT: %[[MAX:.*]] = tile.reduce(%[[X]]) axis = 1 : (tensor<32x64xf32, #[[$L2D]]>) -> tensor<32xf32, #[[$SLICE]]> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT: tile.reduce.return %[[M]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[BACK:.*]] = tilegpu.convert_layout %[[MAX]] : tensor<32xf32, #[[$SLICE]]> -> tensor<32xf32, #[[$L1D]]>
// CHECK-NEXT: %[[TWICE:.*]] = arith.addf %[[BACK]], %[[BACK]] : tensor<32xf32, #[[$L1D]]>
// CHECK-NEXT: %[[SUM:.*]] = tile.reduce(%[[Y]]) axis = 0 : (tensor<128xf32, #[[$L1D]]>) -> f32 {
// CHECK: }
// CHECK-NEXT: return %[[TWICE]], %[[SUM]] : tensor<32xf32, #[[$L1D]]>, f32
func.func @reduce(%x: tensor<32x64xf32>, %y: tensor<128xf32>) -> (tensor<32xf32>, f32) {
  %max = tile.reduce (%x) axis = 1 : (tensor<32x64xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.reduce.return %m : f32
  }
  %twice = arith.addf %max, %max : tensor<32xf32>
  %sum = tile.reduce (%y) axis = 0 : (tensor<128xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce.return %s : f32
  }
  return %twice, %sum : tensor<32xf32>, f32
}

// -----

// Loop-carried tensors: scf.for results, iter_args and yields get the
// layout of their shape, as do the signatures of callee and call.

// CHECK: #[[$L:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.*}}: tensor<64xf32, #[[$L]]>) -> tensor<64xf32, #[[$L]]>
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<f32>, #[[$L]]>, %[[N:.*]]: i32) -> tensor<64xf32, #[[$L]]>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32, #[[$L]]>
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<64xf32, #[[$L]]>) : i32 {
// CHECK-NEXT: %[[V:.*]] = tile.load %[[P]] : tensor<64x!tile.ptr<f32>, #[[$L]]>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : tensor<64xf32, #[[$L]]>
// CHECK-NEXT: scf.yield %[[S]] : tensor<64xf32, #[[$L]]>
// CHECK-NEXT: }
// CHECK-NEXT: %[[H:.*]] = call @helper(%[[R]]) : (tensor<64xf32, #[[$L]]>) -> tensor<64xf32, #[[$L]]>
// CHECK-NEXT: return %[[H]] : tensor<64xf32, #[[$L]]>
func.func private @helper(%v: tensor<64xf32>) -> tensor<64xf32> {
  %w = arith.mulf %v, %v : tensor<64xf32>
  return %w : tensor<64xf32>
}

func.func @loop(%p: tensor<64x!tile.ptr<f32>>, %n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64xf32>) : i32 {
    %v = tile.load %p : tensor<64x!tile.ptr<f32>>
    %s = arith.addf %acc, %v : tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  }
  %h = func.call @helper(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %h : tensor<64xf32>
}

// -----

// A tensor that already has a layout keeps it.

// CHECK-DAG: #[[$MINE:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @keeps_layout
// CHECK-SAME: tensor<512xf32, #[[$MINE]]>
// CHECK-NEXT: arith.negf %{{.*}} : tensor<512xf32, #[[$MINE]]>
#mine = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @keeps_layout(%x: tensor<512xf32, #mine>) -> tensor<512xf32, #mine> {
  %y = arith.negf %x : tensor<512xf32, #mine>
  return %y : tensor<512xf32, #mine>
}

// -----

//--- shapes.mlir
// Default layouts: one element per thread, lanes along the last dimension
// first, then warps along what is left, fastest dimension first; a tensor
// smaller than the threads repeats along its slowest dimension. Tensors of
// one shape share one layout.

// CHECK-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$L64X64:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$L16X128:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[$L3D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$L8X4:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @shapes
// CHECK-SAME: tensor<1024xf32, #[[$L1D]]>
// CHECK-SAME: tensor<64xi32, #[[$L1D]]>
// CHECK-SAME: tensor<64x64xf16, #[[$L64X64]]>
// CHECK-SAME: tensor<16x128xf32, #[[$L16X128]]>
// CHECK-SAME: tensor<2x4x16xf32, #[[$L3D]]>
// CHECK-SAME: tensor<8x4xf32, #[[$L8X4]]>

// W1-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// W1-DAG: #[[$L2D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-DAG: #[[$L3D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
// W1-DAG: #[[$L8X4:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1: module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32}
// W1-LABEL: func.func @shapes
// W1-SAME: tensor<1024xf32, #[[$L1D]]>
// W1-SAME: tensor<64xi32, #[[$L1D]]>
// W1-SAME: tensor<64x64xf16, #[[$L2D]]>
// W1-SAME: tensor<16x128xf32, #[[$L2D]]>
// W1-SAME: tensor<2x4x16xf32, #[[$L3D]]>
// W1-SAME: tensor<8x4xf32, #[[$L8X4]]>

// W8-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8-DAG: #[[$L64X64:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
// W8-DAG: #[[$L16X128:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// W8-DAG: #[[$L3D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [4, 2, 1], order = [2, 1, 0]}>
// W8-DAG: #[[$L8X4:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8: module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32}
// W8-LABEL: func.func @shapes
// W8-SAME: tensor<1024xf32, #[[$L1D]]>
// W8-SAME: tensor<64xi32, #[[$L1D]]>
// W8-SAME: tensor<64x64xf16, #[[$L64X64]]>
// W8-SAME: tensor<16x128xf32, #[[$L16X128]]>
// W8-SAME: tensor<2x4x16xf32, #[[$L3D]]>
// W8-SAME: tensor<8x4xf32, #[[$L8X4]]>

// HIP-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// HIP-DAG: #[[$L64X64:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
// HIP-DAG: #[[$L16X128:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>
// HIP-DAG: #[[$L3D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 16], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// HIP-DAG: #[[$L8X4:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// HIP: module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32}
// HIP-LABEL: func.func @shapes
// HIP-SAME: tensor<1024xf32, #[[$L1D]]>
// HIP-SAME: tensor<64xi32, #[[$L1D]]>
// HIP-SAME: tensor<64x64xf16, #[[$L64X64]]>
// HIP-SAME: tensor<16x128xf32, #[[$L16X128]]>
// HIP-SAME: tensor<2x4x16xf32, #[[$L3D]]>
// HIP-SAME: tensor<8x4xf32, #[[$L8X4]]>
func.func @shapes(%a: tensor<1024xf32>, %b: tensor<64xi32>, %c: tensor<64x64xf16>,
                  %d: tensor<16x128xf32>, %e: tensor<2x4x16xf32>, %f: tensor<8x4xf32>) {
  return
}

//--- empty.mlir
module {
}
