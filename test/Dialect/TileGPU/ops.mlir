// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s
// RUN: terrazzo-opt %s --mlir-print-op-generic | terrazzo-opt | FileCheck %s

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked_t = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1d = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3d = #tilegpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 2, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#row = #tilegpu.slice<{dim = 0, parent = #blocked}>
#col = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3d = #tilegpu.slice<{dim = 2, parent = #blocked3d}>
#slice_of_slice = #tilegpu.slice<{dim = 0, parent = #slice3d}>
#shared = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared_plain = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared3d = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [2, 0, 1]}>

// Layouts print as aliases at the top of the output; each is checked in full
// once here and by alias in the ops below.
// CHECK-DAG: #[[$BLOCKED:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$BLOCKED_T:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$BLOCKED1D:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$BLOCKED3D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 2, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$WAVE:.+]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[$SA_PARENT:.+]] = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$ROW:.+]] = #tilegpu.slice<{dim = 0, parent = #[[$BLOCKED]]}>
// CHECK-DAG: #[[$COL:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$BLOCKED]]}>
// CHECK-DAG: #[[$SLICE3D:.+]] = #tilegpu.slice<{dim = 2, parent = #[[$BLOCKED3D]]}>
// CHECK-DAG: #[[$SLICE_OF_SLICE:.+]] = #tilegpu.slice<{dim = 0, parent = #[[$SLICE3D]]}>
// CHECK-DAG: #[[$WAVE_COL:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$WAVE]]}>
// CHECK-DAG: #[[$SA_SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$SA_PARENT]]}>
// CHECK-DAG: #[[$SHARED:.+]] = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[$SHARED_PLAIN:.+]] = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #[[$SHARED3D:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [2, 0, 1]}>

// CHECK-LABEL: module @cuda attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32}
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf16, #[[$BLOCKED]]>,
// CHECK-SAME: %[[B:.*]]: tensor<128xi32, #[[$BLOCKED1D]]>,
// CHECK-SAME: %[[C:.*]]: tensor<2x4x16xf32, #[[$BLOCKED3D]]>,
// CHECK-SAME: %[[P:.*]]: tensor<64x!tile.ptr<f32>, #[[$ROW]]>)
// CHECK-NEXT: tilegpu.convert_layout %[[A]] : tensor<64x64xf16, #[[$BLOCKED]]> -> tensor<64x64xf16, #[[$BLOCKED_T]]>
// CHECK-NEXT: %[[R:.*]] = tilegpu.convert_layout %[[B]] : tensor<128xi32, #[[$BLOCKED1D]]> -> tensor<128xi32, #[[$ROW]]>
// CHECK-NEXT: %[[CL:.*]] = tilegpu.convert_layout %[[R]] : tensor<128xi32, #[[$ROW]]> -> tensor<128xi32, #[[$COL]]>
// CHECK-NEXT: tilegpu.convert_layout %[[CL]] : tensor<128xi32, #[[$COL]]> -> tensor<128xi32, #[[$SLICE_OF_SLICE]]>
// CHECK-NEXT: tilegpu.convert_layout %[[P]] : tensor<64x!tile.ptr<f32>, #[[$ROW]]> -> tensor<64x!tile.ptr<f32>, #[[$BLOCKED1D]]>
// CHECK-NEXT: tilegpu.convert_layout %[[C]] : tensor<2x4x16xf32, #[[$BLOCKED3D]]> -> tensor<2x4x16xf32, #[[$BLOCKED3D]]>
// CHECK-NEXT: return

// CHECK-LABEL: func.func @shared
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf16, #[[$BLOCKED]]>, %[[B:.*]]: tensor<128xi8, #[[$BLOCKED1D]]>, %[[C:.*]]: tensor<2x4x16xf32, #[[$BLOCKED3D]]>)
// CHECK-SAME: -> tensor<64x64xf16, #[[$BLOCKED_T]]>
// CHECK-NEXT: %[[RO:.*]] = tilegpu.local_alloc %[[A]] : (tensor<64x64xf16, #[[$BLOCKED]]>) -> !tilegpu.memdesc<64x64xf16, #[[$SHARED]]>
// CHECK-NEXT: %[[L0:.*]] = tilegpu.local_load %[[RO]] : !tilegpu.memdesc<64x64xf16, #[[$SHARED]]> -> tensor<64x64xf16, #[[$BLOCKED_T]]>
// CHECK-NEXT: %[[RW:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xi8, #[[$SHARED_PLAIN]], mutable>
// CHECK-NEXT: tilegpu.local_store %[[B]], %[[RW]] : tensor<128xi8, #[[$BLOCKED1D]]> -> !tilegpu.memdesc<128xi8, #[[$SHARED_PLAIN]], mutable>
// CHECK-NEXT: tilegpu.local_load %[[RW]] : !tilegpu.memdesc<128xi8, #[[$SHARED_PLAIN]], mutable> -> tensor<128xi8, #[[$ROW]]>
// CHECK-NEXT: %[[INIT:.*]] = tilegpu.local_alloc %[[C]] : (tensor<2x4x16xf32, #[[$BLOCKED3D]]>) -> !tilegpu.memdesc<2x4x16xf32, #[[$SHARED3D]], mutable>
// CHECK-NEXT: tilegpu.local_store %[[C]], %[[INIT]] : tensor<2x4x16xf32, #[[$BLOCKED3D]]> -> !tilegpu.memdesc<2x4x16xf32, #[[$SHARED3D]], mutable>
// CHECK-NEXT: tilegpu.local_dealloc %[[RO]] : !tilegpu.memdesc<64x64xf16, #[[$SHARED]]>{{$}}
// CHECK-NEXT: tilegpu.local_dealloc %[[RW]] : !tilegpu.memdesc<128xi8, #[[$SHARED_PLAIN]], mutable>
// CHECK-NEXT: tilegpu.local_dealloc %[[INIT]] : !tilegpu.memdesc<2x4x16xf32, #[[$SHARED3D]], mutable>
// CHECK-NEXT: return %[[L0]] : tensor<64x64xf16, #[[$BLOCKED_T]]>

// CHECK-LABEL: func.func @memdesc_args
// CHECK-SAME: (%[[M:.*]]: !tilegpu.memdesc<16x32xbf16, #[[$SHARED]], mutable>, %[[T:.*]]: tensor<16x32xbf16>) -> tensor<16x32xbf16>
// CHECK-NEXT: tilegpu.local_store %[[T]], %[[M]] : tensor<16x32xbf16> -> !tilegpu.memdesc<16x32xbf16, #[[$SHARED]], mutable>
// CHECK-NEXT: %[[V:.*]] = tilegpu.local_load %[[M]] : !tilegpu.memdesc<16x32xbf16, #[[$SHARED]], mutable> -> tensor<16x32xbf16>
// CHECK-NEXT: return %[[V]]
module @cuda attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, "tilegpu.target" = "cuda:90"} {
  func.func @layouts(%a: tensor<64x64xf16, #blocked>, %b: tensor<128xi32, #blocked1d>,
                     %c: tensor<2x4x16xf32, #blocked3d>, %p: tensor<64x!tile.ptr<f32>, #row>) {
    %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked_t>
    %1 = tilegpu.convert_layout %b : tensor<128xi32, #blocked1d> -> tensor<128xi32, #row>
    %2 = tilegpu.convert_layout %1 : tensor<128xi32, #row> -> tensor<128xi32, #col>
    %3 = tilegpu.convert_layout %2 : tensor<128xi32, #col> -> tensor<128xi32, #slice_of_slice>
    %4 = tilegpu.convert_layout %p : tensor<64x!tile.ptr<f32>, #row> -> tensor<64x!tile.ptr<f32>, #blocked1d>
    %5 = tilegpu.convert_layout %c : tensor<2x4x16xf32, #blocked3d> -> tensor<2x4x16xf32, #blocked3d>
    return
  }

  func.func @shared(%a: tensor<64x64xf16, #blocked>, %b: tensor<128xi8, #blocked1d>,
                    %c: tensor<2x4x16xf32, #blocked3d>) -> tensor<64x64xf16, #blocked_t> {
    %ro = tilegpu.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #shared>
    %0 = tilegpu.local_load %ro : !tilegpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked_t>
    %rw = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xi8, #shared_plain, mutable>
    tilegpu.local_store %b, %rw : tensor<128xi8, #blocked1d> -> !tilegpu.memdesc<128xi8, #shared_plain, mutable>
    %1 = tilegpu.local_load %rw : !tilegpu.memdesc<128xi8, #shared_plain, mutable> -> tensor<128xi8, #row>
    %init = tilegpu.local_alloc %c : (tensor<2x4x16xf32, #blocked3d>) -> !tilegpu.memdesc<2x4x16xf32, #shared3d, mutable>
    tilegpu.local_store %c, %init : tensor<2x4x16xf32, #blocked3d> -> !tilegpu.memdesc<2x4x16xf32, #shared3d, mutable>
    tilegpu.local_dealloc %ro : !tilegpu.memdesc<64x64xf16, #shared>
    tilegpu.local_dealloc %rw : !tilegpu.memdesc<128xi8, #shared_plain, mutable>
    tilegpu.local_dealloc %init : !tilegpu.memdesc<2x4x16xf32, #shared3d, mutable>
    return %0 : tensor<64x64xf16, #blocked_t>
  }

  // A buffer and a tensor without a layout are legal too.
  func.func @memdesc_args(%m: !tilegpu.memdesc<16x32xbf16, #shared, mutable>, %t: tensor<16x32xbf16>) -> tensor<16x32xbf16> {
    tilegpu.local_store %t, %m : tensor<16x32xbf16> -> !tilegpu.memdesc<16x32xbf16, #shared, mutable>
    %0 = tilegpu.local_load %m : !tilegpu.memdesc<16x32xbf16, #shared, mutable> -> tensor<16x32xbf16>
    return %0 : tensor<16x32xbf16>
  }
}

// An AMD wavefront of 64 and eight warps.
// CHECK-LABEL: module @hip attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "hip:gfx90a", "tilegpu.threads-per-warp" = 64 : i32}
// CHECK-LABEL: func.func @wave
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf16, #[[$WAVE]]>) -> tensor<64xf16, #[[$WAVE_COL]]>
// CHECK-NEXT: tilegpu.convert_layout %[[A]] : tensor<64x64xf16, #[[$WAVE]]> -> tensor<64x64xf16, #[[$WAVE]]>
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf16, #[[$WAVE_COL]]>
// CHECK-NEXT: return %[[Z]]
#wave = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module @hip attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.threads-per-warp" = 64 : i32, "tilegpu.target" = "hip:gfx90a"} {
  func.func @wave(%a: tensor<64x64xf16, #wave>) -> tensor<64xf16, #tilegpu.slice<{dim = 1, parent = #wave}>> {
    %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #wave> -> tensor<64x64xf16, #wave>
    %1 = arith.constant dense<0.0> : tensor<64xf16, #tilegpu.slice<{dim = 1, parent = #wave}>>
    return %1 : tensor<64xf16, #tilegpu.slice<{dim = 1, parent = #wave}>>
  }
}

// The bounds of num-warps, and a target alone.
// CHECK-LABEL: module @one_warp attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32}
// CHECK-LABEL: module @many_warps attributes {"tilegpu.num-warps" = 32 : i32}
// CHECK-LABEL: module @sm80 attributes {tilegpu.target = "cuda:80"}
module @one_warp attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 64 : i32, "tilegpu.target" = "hip:gfx942"} {}
module @many_warps attributes {"tilegpu.num-warps" = 32 : i32} {}
module @sm80 attributes {"tilegpu.target" = "cuda:80"} {}

// A slice written out in full, with a parent that appears nowhere else: the
// parent still gets an alias of its own (checked in full above as $SA_PARENT),
// and the slice's alias refers to it by that alias ($SA_SLICE above) instead
// of expanding it.
// CHECK-LABEL: module @slice_alias
// CHECK-LABEL: func.func @slice_parent
// CHECK-SAME: (%[[A:.*]]: tensor<16xf32, #[[$SA_SLICE]]>) -> tensor<16xf32, #[[$SA_SLICE]]>
// CHECK-NEXT: return %[[A]] : tensor<16xf32, #[[$SA_SLICE]]>
module @slice_alias {
  func.func @slice_parent(%a: tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>}>>)
      -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>}>> {
    return %a : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>}>>
  }
}

// Barriers of each scope (the program's when none is given), and the
// offsets the shared-memory allocation records.
// CHECK-LABEL: func.func @barrier_and_offsets
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 64 : i64}
// CHECK: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.barrier scope warp_group{{$}}
// CHECK-NEXT: tilegpu.barrier scope warp{{$}}
// CHECK-NEXT: tilegpu.barrier scope program{{$}}
// CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 0 : i64}
#bo_a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bo_b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bo_s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @barrier_and_offsets(%x: tensor<512xf32, #bo_a>) -> tensor<512xf32, #bo_b> {
  %m = tilegpu.local_alloc {tilegpu.buffer_offset = 64 : i64} : () -> !tilegpu.memdesc<16xf32, #bo_s, mutable>
  tilegpu.barrier
  tilegpu.barrier scope warp_group
  tilegpu.barrier scope warp
  tilegpu.barrier scope program
  %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #bo_a> -> tensor<512xf32, #bo_b>
  return %y : tensor<512xf32, #bo_b>
}

// The hardware registers and the grid dependency controls.
// CHECK-LABEL: func.func @registers_and_grid_dependencies
// CHECK: tilegpu.grid_dependency_wait
// CHECK: tilegpu.global_timer : i64
// CHECK: tilegpu.processor_id : i32
// CHECK: tilegpu.grid_dependency_launch
func.func @registers_and_grid_dependencies() -> (i64, i32) {
  tilegpu.grid_dependency_wait
  %t = tilegpu.global_timer : i64
  %p = tilegpu.processor_id : i32
  tilegpu.grid_dependency_launch
  return %t, %p : i64, i32
}

// A prefetch into L2, with and without a mask.
// CHECK-LABEL: func.func @prefetch
// CHECK: tilegpu.prefetch_global %{{.*}} mask %{{.*}} : tensor<128x!tile.ptr<f32>, #{{.*}}>, tensor<128xi1, #{{.*}}>
// CHECK: tilegpu.prefetch_global %{{.*}} : tensor<128x!tile.ptr<f32>, #{{.*}}>
#pf = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @prefetch(%p: tensor<128x!tile.ptr<f32>, #pf>, %m: tensor<128xi1, #pf>) {
  tilegpu.prefetch_global %p mask %m : tensor<128x!tile.ptr<f32>, #pf>, tensor<128xi1, #pf>
  tilegpu.prefetch_global %p : tensor<128x!tile.ptr<f32>, #pf>
  return
}
