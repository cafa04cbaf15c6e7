// RUN: terrazzo-opt %s -split-input-file -canonicalize | FileCheck %s

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// A conversion to the type it already has disappears.
// CHECK-LABEL: func.func @same_layout
// CHECK-SAME: (%[[A:.*]]: tensor<
// CHECK-NOT: tilegpu.convert_layout
// CHECK: return %[[A]] :
func.func @same_layout(%a: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #a> {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #a> -> tensor<64x64xf16, #a>
  return %0 : tensor<64x64xf16, #a>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>

// A conversion of a conversion converts the original value once.
// CHECK-DAG: #[[$LAYOUT_A:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$LAYOUT_C:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: func.func @convert_of_convert
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf16, #[[$LAYOUT_A]]>)
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[A]] : tensor<64x64xf16, #[[$LAYOUT_A]]> -> tensor<64x64xf16, #[[$LAYOUT_C]]>
// CHECK-NEXT: return %[[C]]
func.func @convert_of_convert(%a: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #c> {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %1 = tilegpu.convert_layout %0 : tensor<64x64xf16, #b> -> tensor<64x64xf16, #c>
  return %1 : tensor<64x64xf16, #c>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// Converting there and back is no conversion at all.
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[A:.*]]: tensor<
// CHECK-NOT: tilegpu.convert_layout
// CHECK: return %[[A]] :
func.func @round_trip(%a: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #a> {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %1 = tilegpu.convert_layout %0 : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
  return %1 : tensor<64x64xf16, #a>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>

// The inner conversion keeps its other user; the outer one skips it.
// CHECK-DAG: #[[$LAYOUT_B:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1],
// CHECK-DAG: #[[$LAYOUT_C:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1],
// CHECK-LABEL: func.func @convert_of_shared_convert
// CHECK-SAME: (%[[A:.*]]: tensor<
// CHECK-DAG: %[[B:.*]] = tilegpu.convert_layout %[[A]] : {{.*}} -> tensor<64x64xf16, #[[$LAYOUT_B]]>
// CHECK-DAG: %[[C:.*]] = tilegpu.convert_layout %[[A]] : {{.*}} -> tensor<64x64xf16, #[[$LAYOUT_C]]>
// CHECK: return %[[B]], %[[C]]
func.func @convert_of_shared_convert(%a: tensor<64x64xf16, #a>) -> (tensor<64x64xf16, #b>, tensor<64x64xf16, #c>) {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %1 = tilegpu.convert_layout %0 : tensor<64x64xf16, #b> -> tensor<64x64xf16, #c>
  return %0, %1 : tensor<64x64xf16, #b>, tensor<64x64xf16, #c>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A uniform block is a splat in any layout.
// CHECK-DAG: #[[$LAYOUT_B:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @convert_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NEXT: %[[S:.*]] = tile.splat %[[X]] : f32 -> tensor<32x32xf32, #[[$LAYOUT_B]]>
// CHECK-NEXT: return %[[S]]
func.func @convert_of_splat(%x: f32) -> tensor<32x32xf32, #b> {
  %0 = tile.splat %x : f32 -> tensor<32x32xf32, #a>
  %1 = tilegpu.convert_layout %0 : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
  return %1 : tensor<32x32xf32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#p = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Also for pointers, and into a slice layout.
// CHECK-DAG: #[[$LAYOUT_P:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$SLICE_P:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$LAYOUT_P]]}>
// CHECK-LABEL: func.func @convert_of_pointer_splat
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>)
// CHECK-NEXT: %[[S:.*]] = tile.splat %[[P]] : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>, #[[$SLICE_P]]>
// CHECK-NEXT: return %[[S]]
func.func @convert_of_pointer_splat(%p: !tile.ptr<f16>) -> tensor<64x!tile.ptr<f16>, #tilegpu.slice<{dim = 1, parent = #p}>> {
  %0 = tile.splat %p : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>, #a>
  %1 = tilegpu.convert_layout %0 : tensor<64x!tile.ptr<f16>, #a> -> tensor<64x!tile.ptr<f16>, #tilegpu.slice<{dim = 1, parent = #p}>>
  return %1 : tensor<64x!tile.ptr<f16>, #tilegpu.slice<{dim = 1, parent = #p}>>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A constant splat folds into a constant of the new layout.
// CHECK-DAG: #[[$LAYOUT_B:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @convert_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<32x32xf32, #[[$LAYOUT_B]]>
// CHECK-NEXT: return %[[C]]
func.func @convert_of_constant() -> tensor<32x32xf32, #b> {
  %0 = arith.constant dense<1.5> : tensor<32x32xf32, #a>
  %1 = tilegpu.convert_layout %0 : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
  return %1 : tensor<32x32xf32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Integer constants too, and the constant keeps its other user.
// CHECK-DAG: #[[$LAYOUT_A:.+]] = #tilegpu.blocked<{sizePerThread = [1],
// CHECK-DAG: #[[$LAYOUT_B:.+]] = #tilegpu.blocked<{sizePerThread = [4],
// CHECK-LABEL: func.func @convert_of_shared_constant
// CHECK-DAG: %[[A:.*]] = arith.constant dense<7> : tensor<128xi32, #[[$LAYOUT_A]]>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<7> : tensor<128xi32, #[[$LAYOUT_B]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: return %[[A]], %[[B]]
func.func @convert_of_shared_constant() -> (tensor<128xi32, #a>, tensor<128xi32, #b>) {
  %0 = arith.constant dense<7> : tensor<128xi32, #a>
  %1 = tilegpu.convert_layout %0 : tensor<128xi32, #a> -> tensor<128xi32, #b>
  return %0, %1 : tensor<128xi32, #a>, tensor<128xi32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A constant that is not a splat is not folded.
// CHECK-DAG: #[[$LAYOUT_A:.+]] = #tilegpu.blocked<{sizePerThread = [1],
// CHECK-LABEL: func.func @convert_of_non_splat_constant
// CHECK: %[[C:.*]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #[[$LAYOUT_A]]>
// CHECK-NEXT: %[[R:.*]] = tilegpu.convert_layout %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @convert_of_non_splat_constant() -> tensor<4xi32, #b> {
  %0 = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #a>
  %1 = tilegpu.convert_layout %0 : tensor<4xi32, #a> -> tensor<4xi32, #b>
  return %1 : tensor<4xi32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A single real conversion stays.
// CHECK-DAG: #[[$LAYOUT_A:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$LAYOUT_B:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @real_conversion
// CHECK-SAME: (%[[A:.*]]: tensor<
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[A]] : tensor<64x64xf16, #[[$LAYOUT_A]]> -> tensor<64x64xf16, #[[$LAYOUT_B]]>
// CHECK-NEXT: return %[[C]]
func.func @real_conversion(%a: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #b> {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  return %0 : tensor<64x64xf16, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// A conversion whose result is unused is dead.
// CHECK-LABEL: func.func @dead_conversion
// CHECK-NEXT: return
func.func @dead_conversion(%a: tensor<64x64xf16, #a>) {
  %0 = tilegpu.convert_layout %a : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  return
}
