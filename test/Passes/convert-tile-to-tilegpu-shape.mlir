// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" | FileCheck %s

// trans, reshape, join and split get the result layout inferred from their
// source's, in which the op only relabels registers; users get the result
// back in the default layout through a conversion after the op (none when
// the inferred layout is the default one).

// trans of the default 32 x 64 layout: the permuted blocked layout (lanes
// now run along dimension 0, which is fastest), converted to the default
// layout of 64 x 32.
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$T:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-DAG: #[[$DST:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @trans(
// CHECK-SAME: %[[A:.*]]: tensor<32x64xf32, #[[$SRC]]>) -> tensor<64x32xf32, #[[$DST]]>
// CHECK-NEXT: %[[T:.*]] = tile.trans %[[A]] [1, 0] : tensor<32x64xf32, #[[$SRC]]> -> tensor<64x32xf32, #[[$T]]>
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x32xf32, #[[$T]]> -> tensor<64x32xf32, #[[$DST]]>
// CHECK-NEXT: return %[[C]]
func.func @trans(%a: tensor<32x64xf32>) -> tensor<64x32xf32> {
  %t = tile.trans %a [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  return %t : tensor<64x32xf32>
}

// -----

// When the inferred layout is the result's default layout, nothing is
// converted: 1 x 64 transposed is already laid out like a 64 x 1 column.
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$COL:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @trans_to_default(
// CHECK-NEXT: %[[T:.*]] = tile.trans %{{.*}} [1, 0] : tensor<1x64xf32, #[[$SRC]]> -> tensor<64x1xf32, #[[$COL]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK-NEXT: return %[[T]]
func.func @trans_to_default(%a: tensor<1x64xf32>) -> tensor<64x1xf32> {
  %t = tile.trans %a [1, 0] : tensor<1x64xf32> -> tensor<64x1xf32>
  return %t : tensor<64x1xf32>
}

// -----

// A 3-D permutation: every field follows its dimension and the order is
// renumbered (source dimension 2, the fastest, is result dimension 0).
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$T:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [16, 1, 2], warpsPerCTA = [1, 1, 4], order = [0, 2, 1]}>
// CHECK-LABEL: func.func @trans3d(
// CHECK-NEXT: %[[T:.*]] = tile.trans %{{.*}} [2, 0, 1] : tensor<2x8x16xi32, #[[$SRC]]> -> tensor<16x2x8xi32, #[[$T]]>
// CHECK-NEXT: tilegpu.convert_layout %[[T]] : tensor<16x2x8xi32, #[[$T]]> -> tensor<16x2x8xi32, #{{.*}}>
func.func @trans3d(%a: tensor<2x8x16xi32>) -> tensor<16x2x8xi32> {
  %t = tile.trans %a [2, 0, 1] : tensor<2x8x16xi32> -> tensor<16x2x8xi32>
  return %t : tensor<16x2x8xi32>
}

// -----

// Reshapes between default layouts: flattening the row-major default
// layout of 32 x 64 gives the default layout of 2048 elements, and that of
// 8 x 256 back; no conversion. allow_reorder is laid out the same way.
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$FLAT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$WIDE:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-LABEL: func.func @reshape(
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = tile.reshape %{{.*}} : tensor<32x64xf32, #[[$SRC]]> -> tensor<2048xf32, #[[$FLAT]]>
// CHECK-NEXT: %[[S:.*]] = tile.reshape %[[R]] allow_reorder : tensor<2048xf32, #[[$FLAT]]> -> tensor<8x256xf32, #[[$WIDE]]>
// CHECK-NEXT: return %[[R]], %[[S]]
func.func @reshape(%a: tensor<32x64xf32>) -> (tensor<2048xf32>, tensor<8x256xf32>) {
  %r = tile.reshape %a : tensor<32x64xf32> -> tensor<2048xf32>
  %s = tile.reshape %r allow_reorder : tensor<2048xf32> -> tensor<8x256xf32>
  return %r, %s : tensor<2048xf32>, tensor<8x256xf32>
}

// -----

// Sources already laid out (here as function arguments) keep their layouts,
// and the results follow. Four consecutive elements per thread along the
// rows stay four consecutive elements of the flattened block: a blocked
// layout. The column-major layout of a transposed tile flattens to no
// blocked layout at all: a #tilegpu.linear, whose bases are the row-major
// indices of the source's (register (1, 0) of 64 x 32 is element 32).
// CHECK-DAG: #[[$VEC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$COLS:.+]] = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$FLAT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$FLAT4:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$LIN:.+]] = #tilegpu.linear<{register = {{\[}}[32], [64], [8], [16]], lane = {{\[}}[128], [256], [512], [1024], [1]], warp = {{\[}}[2], [4]], block = []}>
// CHECK-LABEL: func.func @reshape_laid_out(
// CHECK-NEXT: %[[R:.*]] = tile.reshape %{{.*}} : tensor<32x64xf32, #[[$VEC]]> -> tensor<2048xf32, #[[$FLAT4]]>
// CHECK-NEXT: %[[RC:.*]] = tilegpu.convert_layout %[[R]] : tensor<2048xf32, #[[$FLAT4]]> -> tensor<2048xf32, #[[$FLAT]]>
// CHECK-NEXT: %[[S:.*]] = tile.reshape %{{.*}} : tensor<64x32xf32, #[[$COLS]]> -> tensor<2048xf32, #[[$LIN]]>
// CHECK-NEXT: %[[SC:.*]] = tilegpu.convert_layout %[[S]] : tensor<2048xf32, #[[$LIN]]> -> tensor<2048xf32, #[[$FLAT]]>
// CHECK-NEXT: return %[[RC]], %[[SC]]
#vec = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @reshape_laid_out(%a: tensor<32x64xf32, #vec>, %b: tensor<64x32xf32, #cols>)
    -> (tensor<2048xf32>, tensor<2048xf32>) {
  %r = tile.reshape %a : tensor<32x64xf32, #vec> -> tensor<2048xf32>
  %s = tile.reshape %b : tensor<64x32xf32, #cols> -> tensor<2048xf32>
  return %r, %s : tensor<2048xf32>, tensor<2048xf32>
}

// -----

// join: the new dimension is held in registers, two per thread, fastest.
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$J:.+]] = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$DST:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @join(
// CHECK-NEXT: %[[J:.*]] = tile.join %{{.*}}, %{{.*}} : tensor<256xf16, #[[$SRC]]> -> tensor<256x2xf16, #[[$J]]>
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[J]] : tensor<256x2xf16, #[[$J]]> -> tensor<256x2xf16, #[[$DST]]>
// CHECK-NEXT: return %[[C]]
func.func @join(%a: tensor<256xf16>, %b: tensor<256xf16>) -> tensor<256x2xf16> {
  %j = tile.join %a, %b : tensor<256xf16> -> tensor<256x2xf16>
  return %j : tensor<256x2xf16>
}

// -----

// split of the default layout of 256 x 2, whose halves are in different
// lanes: the source is converted to the layout of the join of the results'
// default layout, whose split is that default layout (no conversion after).
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$PAIRS:.+]] = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$DST:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[A:.*]]: tensor<256x2xf32, #[[$SRC]]>)
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[A]] : tensor<256x2xf32, #[[$SRC]]> -> tensor<256x2xf32, #[[$PAIRS]]>
// CHECK-NEXT: %[[L:.*]], %[[H:.*]] = tile.split %[[C]] : tensor<256x2xf32, #[[$PAIRS]]> -> tensor<256xf32, #[[$DST]]>
// CHECK-NEXT: return %[[L]], %[[H]]
func.func @split(%a: tensor<256x2xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %l, %h = tile.split %a : tensor<256x2xf32> -> tensor<256xf32>
  return %l, %h : tensor<256xf32>, tensor<256xf32>
}

// -----

// A source that holds both halves in one thread is split as it is; the
// halves keep its two rows per thread and go back to the default layout.
// CHECK-DAG: #[[$PAIRS:.+]] = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$HALF:.+]] = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$DST:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @split_in_registers(
// CHECK-SAME: %[[A:.*]]: tensor<256x2xf32, #[[$PAIRS]]>)
// CHECK-NEXT: %[[L:.*]], %[[H:.*]] = tile.split %[[A]] : tensor<256x2xf32, #[[$PAIRS]]> -> tensor<256xf32, #[[$HALF]]>
// CHECK-NEXT: %[[LC:.*]] = tilegpu.convert_layout %[[L]] : tensor<256xf32, #[[$HALF]]> -> tensor<256xf32, #[[$DST]]>
// CHECK-NEXT: %[[HC:.*]] = tilegpu.convert_layout %[[H]] : tensor<256xf32, #[[$HALF]]> -> tensor<256xf32, #[[$DST]]>
// CHECK-NEXT: return %[[LC]], %[[HC]]
#pairs = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @split_in_registers(%a: tensor<256x2xf32, #pairs>) -> (tensor<256xf32>, tensor<256xf32>) {
  %l, %h = tile.split %a : tensor<256x2xf32, #pairs> -> tensor<256xf32>
  return %l, %h : tensor<256xf32>, tensor<256xf32>
}

// -----

// join then split: the split's source is converted back from the default
// layout to the join's, exactly the conversion that removing layout
// conversions later cancels; the halves come out in the default layout.
// CHECK-DAG: #[[$SRC:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$J:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$DEF:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-LABEL: func.func @join_split(
// CHECK-NEXT: %[[J:.*]] = tile.join {{.*}} -> tensor<16x64x2xf32, #[[$J]]>
// CHECK-NEXT: %[[D:.*]] = tilegpu.convert_layout %[[J]] : tensor<16x64x2xf32, #[[$J]]> -> tensor<16x64x2xf32, #[[$DEF]]>
// CHECK-NEXT: %[[B:.*]] = tilegpu.convert_layout %[[D]] : tensor<16x64x2xf32, #[[$DEF]]> -> tensor<16x64x2xf32, #[[$J]]>
// CHECK-NEXT: %[[L:.*]], %[[H:.*]] = tile.split %[[B]] : tensor<16x64x2xf32, #[[$J]]> -> tensor<16x64xf32, #[[$SRC]]>
// CHECK-NEXT: arith.addf %[[L]], %[[H]] : tensor<16x64xf32, #[[$SRC]]>
func.func @join_split(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %j = tile.join %a, %b : tensor<16x64xf32> -> tensor<16x64x2xf32>
  %l, %h = tile.split %j : tensor<16x64x2xf32> -> tensor<16x64xf32>
  %s = arith.addf %l, %h : tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}

// -----

// Must not: a split of a 1-D block would give 0-D blocks, which have no
// layout; the pass reports it before assigning any layout.
func.func @split_1d(%a: tensor<2xf32>) {
  // expected-error @+1 {{'tile.split' op of a 1-D block gives 0-D blocks, which have no layout on the GPU; split a 1 x 2 block instead}}
  %l, %h = tile.split %a : tensor<2xf32> -> tensor<f32>
  return
}
