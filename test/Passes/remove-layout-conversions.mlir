// RUN: terrazzo-opt %s -split-input-file --terrazzo-remove-layout-conversions | FileCheck %s

// A conversion of a value that is cheap to compute in any layout is
// replaced by computing the value in the target layout; loop-carried values
// and if results move to the layout their users want; a load read only
// through a conversion is issued in the target layout; conversions of
// loads with users in several layouts, function arguments and reduction
// results stay.

// Splat and make_range are rebuilt in the target layout; the originals,
// unused, disappear.

// CHECK: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: #tilegpu.blocked
// CHECK-LABEL: func.func @splat_and_range
// CHECK-SAME: (%[[N:.*]]: i32)
// CHECK-NOT: tilegpu.convert_layout
// CHECK-DAG: %[[S:.*]] = tile.splat %[[N]] : i32 -> tensor<512xi32, #[[$B]]>
// CHECK-DAG: %[[R:.*]] = tile.make_range 0 to 512 : tensor<512xi32, #[[$B]]>
// CHECK: return %[[S]], %[[R]] : tensor<512xi32, #[[$B]]>, tensor<512xi32, #[[$B]]>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @splat_and_range(%n: i32) -> (tensor<512xi32, #b>, tensor<512xi32, #b>) {
    %s = tile.splat %n : i32 -> tensor<512xi32, #a>
    %sc = tilegpu.convert_layout %s : tensor<512xi32, #a> -> tensor<512xi32, #b>
    %r = tile.make_range 0 to 512 : tensor<512xi32, #a>
    %rc = tilegpu.convert_layout %r : tensor<512xi32, #a> -> tensor<512xi32, #b>
    return %sc, %rc : tensor<512xi32, #b>, tensor<512xi32, #b>
  }
}

// -----

// Elementwise arithmetic (with a constant operand) and pointer arithmetic
// move into the target layout together with everything they are built
// from, so the pointers reach the load with no conversion.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @elementwise_and_addptr
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
// CHECK-NOT: tilegpu.convert_layout {{.*}}!tile.ptr
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2> : tensor<512xi32, #[[$B]]>
// CHECK-DAG: %[[S:.*]] = tile.splat %[[N]] : i32 -> tensor<512xi32, #[[$B]]>
// CHECK-DAG: %[[R:.*]] = tile.make_range 0 to 512 : tensor<512xi32, #[[$B]]>
// CHECK-DAG: %[[XS:.*]] = tile.splat %[[X]] : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK: %[[SUM:.*]] = arith.addi %[[S]], %[[R]] : tensor<512xi32, #[[$B]]>
// CHECK: %[[OFF:.*]] = arith.muli %[[SUM]], %[[TWO]] : tensor<512xi32, #[[$B]]>
// CHECK: %[[P:.*]] = tile.addptr %[[XS]], %[[OFF]] : tensor<512x!tile.ptr<f32>, #[[$B]]>, tensor<512xi32, #[[$B]]>
// CHECK: %[[V:.*]] = tile.load %[[P]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK: %[[VA:.*]] = tilegpu.convert_layout %[[V]] : tensor<512xf32, #[[$B]]> -> tensor<512xf32, #[[$A]]>
// CHECK: return %[[VA]], %[[V]]
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @elementwise_and_addptr(%x: !tile.ptr<f32>, %n: i32) -> (tensor<512xf32, #a>, tensor<512xf32, #b>) {
    %s = tile.splat %n : i32 -> tensor<512xi32, #a>
    %r = tile.make_range 0 to 512 : tensor<512xi32, #a>
    %sum = arith.addi %s, %r : tensor<512xi32, #a>
    %two = arith.constant dense<2> : tensor<512xi32, #a>
    %off = arith.muli %sum, %two : tensor<512xi32, #a>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #a>
    %p = tile.addptr %xs, %off : tensor<512x!tile.ptr<f32>, #a>, tensor<512xi32, #a>
    %pc = tilegpu.convert_layout %p : tensor<512x!tile.ptr<f32>, #a> -> tensor<512x!tile.ptr<f32>, #b>
    %v = tile.load %pc : tensor<512x!tile.ptr<f32>, #b>
    %va = tilegpu.convert_layout %v : tensor<512xf32, #b> -> tensor<512xf32, #a>
    return %va, %v : tensor<512xf32, #a>, tensor<512xf32, #b>
  }
}

// -----

// A value that also has users in its own layout is recomputed for the
// converted use, not moved: both layouts of the range exist afterwards.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @shared_producer
// CHECK-NOT: tilegpu.convert_layout
// CHECK-DAG: %[[RA:.*]] = tile.make_range 0 to 512 : tensor<512xi32, #[[$A]]>
// CHECK-DAG: %[[RB:.*]] = tile.make_range 0 to 512 : tensor<512xi32, #[[$B]]>
// CHECK-DAG: %[[NA:.*]] = arith.subi %{{.*}}, %[[RA]] : tensor<512xi32, #[[$A]]>
// CHECK-DAG: %[[NB:.*]] = arith.subi %{{.*}}, %[[RB]] : tensor<512xi32, #[[$B]]>
// CHECK: return %[[NA]], %[[NB]]
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @shared_producer() -> (tensor<512xi32, #a>, tensor<512xi32, #b>) {
    %zero = arith.constant dense<0> : tensor<512xi32, #a>
    %r = tile.make_range 0 to 512 : tensor<512xi32, #a>
    %neg = arith.subi %zero, %r : tensor<512xi32, #a>
    %negb = tilegpu.convert_layout %neg : tensor<512xi32, #a> -> tensor<512xi32, #b>
    return %neg, %negb : tensor<512xi32, #a>, tensor<512xi32, #b>
  }
}

// -----

// broadcast and expand_dims: a conversion after broadcast(expand_dims(
// convert(make_range))) becomes a make_range in the slice of the target
// layout, expanded and broadcast in the target layout, with no conversion
// left.

// CHECK-DAG: #[[$TARGET:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 0, parent = #[[$TARGET]]}>
// CHECK-LABEL: func.func @broadcast_expand_dims
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = tile.make_range 0 to 64 : tensor<64xi32, #[[$SLICE]]>
// CHECK-NEXT: %[[E:.*]] = tile.expand_dims %[[R]] axis = 0 : tensor<64xi32, #[[$SLICE]]> -> tensor<1x64xi32, #[[$TARGET]]>
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[E]] : tensor<1x64xi32, #[[$TARGET]]> -> tensor<64x64xi32, #[[$TARGET]]>
// CHECK-NEXT: return %[[B]] : tensor<64x64xi32, #[[$TARGET]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#target = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #tilegpu.slice<{dim = 0, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @broadcast_expand_dims() -> tensor<64x64xi32, #target> {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked1>
    %rr = tilegpu.convert_layout %r : tensor<64xi32, #blocked1> -> tensor<64xi32, #row>
    %e = tile.expand_dims %rr axis = 0 : tensor<64xi32, #row> -> tensor<1x64xi32, #blocked>
    %b = tile.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bc = tilegpu.convert_layout %b : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #target>
    return %bc : tensor<64x64xi32, #target>
  }
}

// -----

// A load whose only user is a conversion is issued in the target layout
// instead: same addresses, no conversion. It stays where it was, before
// the store that follows.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @loaded_value
// CHECK-SAME: (%[[P:.*]]: tensor<512x!tile.ptr<f32>, #[[$B:.+]]>, %[[Q:.*]]: tensor<512x!tile.ptr<f32>, #[[$B]]>, %[[W:.*]]: tensor<512xf32, #[[$B]]>)
// CHECK-NOT: tilegpu.convert_layout %{{.*}} : tensor<512xf32
// CHECK: %[[PA:.*]] = tilegpu.convert_layout %[[P]] : tensor<512x!tile.ptr<f32>, #[[$B]]> -> tensor<512x!tile.ptr<f32>, #[[$A]]>
// CHECK-NEXT: %[[V:.*]] = tile.load %[[PA]] : tensor<512x!tile.ptr<f32>, #[[$A]]>
// CHECK-NEXT: tile.store %[[Q]], %[[W]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[V]] : tensor<512xf32, #[[$A]]>
// CHECK-NEXT: return %[[NEG]]
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @loaded_value(%p: tensor<512x!tile.ptr<f32>, #b>, %q: tensor<512x!tile.ptr<f32>, #b>, %w: tensor<512xf32, #b>) -> tensor<512xf32, #a> {
    %v = tile.load %p : tensor<512x!tile.ptr<f32>, #b>
    tile.store %q, %w : tensor<512x!tile.ptr<f32>, #b>
    %va = tilegpu.convert_layout %v : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %neg = arith.negf %va : tensor<512xf32, #a>
    return %neg : tensor<512xf32, #a>
  }
}

// -----

// A column-major load coalesced down its columns (16 bytes per thread along
// dim 0) whose user wants rows across the lanes is not re-issued in the
// user's layout: that layout's registers repeat rows 4 apart, which is not
// contiguity along dim 0, and reading it would lose the 16-byte accesses.
// The conversion stays after the load.

// CHECK-DAG: #[[$COL:.+]] = #tilegpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$ROW:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @column_major_load
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<64x32x!tile.ptr<i8>, #[[$COL]]>
// CHECK-NEXT: tilegpu.convert_layout %[[V]] : tensor<64x32xi8, #[[$COL]]> -> tensor<64x32xi8, #[[$ROW]]>
#col = #tilegpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @column_major_load(%p: tensor<64x32x!tile.ptr<i8>, #col>) -> tensor<64x32xi8, #row> {
    %v = tile.load %p : tensor<64x32x!tile.ptr<i8>, #col>
    %r = tilegpu.convert_layout %v : tensor<64x32xi8, #col> -> tensor<64x32xi8, #row>
    return %r : tensor<64x32xi8, #row>
  }
}

// -----

// Nor a row-major load with 16 bytes per thread along its rows into a
// layout with one element per thread along them (the lanes still run
// along the rows, but each access would be one byte).

// CHECK-DAG: #[[$V16:.+]] = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$LANES:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: func.func @narrower_accesses
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<i8>, #[[$V16]]>
// CHECK-NEXT: tilegpu.convert_layout %[[V]] : tensor<64x64xi8, #[[$V16]]> -> tensor<64x64xi8, #[[$LANES]]>
#v16 = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#lanes = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrower_accesses(%p: tensor<64x64x!tile.ptr<i8>, #v16>) -> tensor<64x64xi8, #lanes> {
    %v = tile.load %p : tensor<64x64x!tile.ptr<i8>, #v16>
    %r = tilegpu.convert_layout %v : tensor<64x64xi8, #v16> -> tensor<64x64xi8, #lanes>
    return %r : tensor<64x64xi8, #lanes>
  }
}

// -----

// A loaded value with users in two layouts is read once: its conversion
// stays.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @loaded_value_two_layouts
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: %[[VA:.*]] = tilegpu.convert_layout %[[V]] : tensor<512xf32, #[[$B]]> -> tensor<512xf32, #[[$A]]>
// CHECK-NEXT: return %[[VA]], %[[V]]
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @loaded_value_two_layouts(%p: tensor<512x!tile.ptr<f32>, #b>) -> (tensor<512xf32, #a>, tensor<512xf32, #b>) {
    %v = tile.load %p : tensor<512x!tile.ptr<f32>, #b>
    %va = tilegpu.convert_layout %v : tensor<512xf32, #b> -> tensor<512xf32, #a>
    return %va, %v : tensor<512xf32, #a>, tensor<512xf32, #b>
  }
}

// -----

// A function argument cannot be recomputed: its conversion stays. A loop
// instead carries its pointers in the layout the accesses in its body
// want: the init is converted before the loop (the function argument
// again) and the result converted back for its user after the loop.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @block_arguments
// CHECK-SAME: (%[[P:.*]]: tensor<512x!tile.ptr<f32>, #[[$A]]>, %[[N:.*]]: i32)
// CHECK: %[[PB:.*]] = tilegpu.convert_layout %[[P]] : tensor<512x!tile.ptr<f32>, #[[$A]]> -> tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: %[[V:.*]] = tile.load %[[PB]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: %[[INIT:.*]] = tilegpu.convert_layout %[[P]] : tensor<512x!tile.ptr<f32>, #[[$A]]> -> tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: %[[R:.*]] = scf.for {{.*}} iter_args(%[[Q:.*]] = %[[INIT]]) -> (tensor<512x!tile.ptr<f32>, #[[$B]]>)
// CHECK-NEXT: %[[W:.*]] = tile.load %[[Q]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: tile.store %[[Q]], %[[W]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: %[[NEXT:.*]] = tile.addptr %[[Q]], %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$B]]>, tensor<512xi32, #[[$B]]>
// CHECK-NEXT: scf.yield %[[NEXT]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-NEXT: }
// CHECK-NEXT: %[[RA:.*]] = tilegpu.convert_layout %[[R]] : tensor<512x!tile.ptr<f32>, #[[$B]]> -> tensor<512x!tile.ptr<f32>, #[[$A]]>
// CHECK-NEXT: return %[[V]], %[[RA]]
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @block_arguments(%p: tensor<512x!tile.ptr<f32>, #a>, %n: i32) -> (tensor<512xf32, #b>, tensor<512x!tile.ptr<f32>, #a>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<512> : tensor<512xi32, #a>
    %pb = tilegpu.convert_layout %p : tensor<512x!tile.ptr<f32>, #a> -> tensor<512x!tile.ptr<f32>, #b>
    %v = tile.load %pb : tensor<512x!tile.ptr<f32>, #b>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (tensor<512x!tile.ptr<f32>, #a>) : i32 {
      %qb = tilegpu.convert_layout %q : tensor<512x!tile.ptr<f32>, #a> -> tensor<512x!tile.ptr<f32>, #b>
      %w = tile.load %qb : tensor<512x!tile.ptr<f32>, #b>
      tile.store %qb, %w : tensor<512x!tile.ptr<f32>, #b>
      %next = tile.addptr %q, %step : tensor<512x!tile.ptr<f32>, #a>, tensor<512xi32, #a>
      scf.yield %next : tensor<512x!tile.ptr<f32>, #a>
    }
    return %v, %r : tensor<512xf32, #b>, tensor<512x!tile.ptr<f32>, #a>
  }
}

// -----

// A loop argument that its users want in two different layouts stays where
// it is, with both conversions.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$C:.+]] = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @two_ways
// CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = %{{.*}}) -> (tensor<512x!tile.ptr<f32>, #[[$A]]>)
// CHECK-DAG: tilegpu.convert_layout %[[Q]] : tensor<512x!tile.ptr<f32>, #[[$A]]> -> tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK-DAG: tilegpu.convert_layout %[[Q]] : tensor<512x!tile.ptr<f32>, #[[$A]]> -> tensor<512x!tile.ptr<f32>, #[[$C]]>
// CHECK: tile.addptr %[[Q]], %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$A]]>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @two_ways(%p: tensor<512x!tile.ptr<f32>, #a>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<512> : tensor<512xi32, #a>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (tensor<512x!tile.ptr<f32>, #a>) : i32 {
      %qb = tilegpu.convert_layout %q : tensor<512x!tile.ptr<f32>, #a> -> tensor<512x!tile.ptr<f32>, #b>
      %w = tile.load %qb : tensor<512x!tile.ptr<f32>, #b>
      tile.store %qb, %w : tensor<512x!tile.ptr<f32>, #b>
      %qc = tilegpu.convert_layout %q : tensor<512x!tile.ptr<f32>, #a> -> tensor<512x!tile.ptr<f32>, #c>
      %u = tile.load %qc : tensor<512x!tile.ptr<f32>, #c>
      tile.store %qc, %u : tensor<512x!tile.ptr<f32>, #c>
      %next = tile.addptr %q, %step : tensor<512x!tile.ptr<f32>, #a>, tensor<512xi32, #a>
      scf.yield %next : tensor<512x!tile.ptr<f32>, #a>
    }
    return
  }
}

// -----

// A conversion of an scf.if result moves into both branches, where it
// meets what each branch yields (here function arguments, so it stays
// there).

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @branches
// CHECK-SAME: (%[[X:.*]]: tensor<512xf32, #[[$A]]>, %[[Y:.*]]: tensor<512xf32, #[[$A]]>, %[[COND:.*]]: i1, %[[P:.*]]: tensor<512x!tile.ptr<f32>, #[[$B]]>)
// CHECK-NEXT: %[[R:.*]] = scf.if %[[COND]] -> (tensor<512xf32, #[[$B]]>) {
// CHECK-NEXT: %[[XB:.*]] = tilegpu.convert_layout %[[X]] : tensor<512xf32, #[[$A]]> -> tensor<512xf32, #[[$B]]>
// CHECK-NEXT: %[[NX:.*]] = arith.negf %[[XB]] : tensor<512xf32, #[[$B]]>
// CHECK-NEXT: scf.yield %[[NX]] : tensor<512xf32, #[[$B]]>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[YB:.*]] = tilegpu.convert_layout %[[Y]] : tensor<512xf32, #[[$A]]> -> tensor<512xf32, #[[$B]]>
// CHECK-NEXT: scf.yield %[[YB]] : tensor<512xf32, #[[$B]]>
// CHECK-NEXT: }
// CHECK-NEXT: tile.store %[[P]], %[[R]] : tensor<512x!tile.ptr<f32>, #[[$B]]>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @branches(%x: tensor<512xf32, #a>, %y: tensor<512xf32, #a>, %cond: i1, %p: tensor<512x!tile.ptr<f32>, #b>) {
    %r = scf.if %cond -> tensor<512xf32, #a> {
      %nx = arith.negf %x : tensor<512xf32, #a>
      scf.yield %nx : tensor<512xf32, #a>
    } else {
      scf.yield %y : tensor<512xf32, #a>
    }
    %rb = tilegpu.convert_layout %r : tensor<512xf32, #a> -> tensor<512xf32, #b>
    tile.store %p, %rb : tensor<512x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// Chains fold: A -> B -> C becomes A -> C, and A -> B -> A disappears.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$C:.+]] = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:.*]]: tensor<512xf32, #[[$A]]>)
// CHECK-NEXT: %[[XC:.*]] = tilegpu.convert_layout %[[X]] : tensor<512xf32, #[[$A]]> -> tensor<512xf32, #[[$C]]>
// CHECK-NEXT: return %[[XC]], %[[X]] : tensor<512xf32, #[[$C]]>, tensor<512xf32, #[[$A]]>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @chains(%x: tensor<512xf32, #a>) -> (tensor<512xf32, #c>, tensor<512xf32, #a>) {
    %xb = tilegpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %xc = tilegpu.convert_layout %xb : tensor<512xf32, #b> -> tensor<512xf32, #c>
    %xa = tilegpu.convert_layout %xb : tensor<512xf32, #b> -> tensor<512xf32, #a>
    return %xc, %xa : tensor<512xf32, #c>, tensor<512xf32, #a>
  }
}

// -----

// A reduction's result is expensive to recompute: its conversion stays.

// CHECK-DAG: #[[$L2D:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[$L1D:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$L2D]]}>
// CHECK-LABEL: func.func @reduction
// CHECK: %[[R:.*]] = tile.reduce
// CHECK: tilegpu.convert_layout %[[R]] : tensor<32xf32, #[[$SLICE]]> -> tensor<32xf32, #[[$L1D]]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @reduction(%x: tensor<32x64xf32, #blocked>) -> tensor<32xf32, #blocked1> {
    %0 = tile.reduce(%x) axis = 1 : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #slice> {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      tile.reduce.return %m : f32
    }
    %1 = tilegpu.convert_layout %0 : tensor<32xf32, #slice> -> tensor<32xf32, #blocked1>
    return %1 : tensor<32xf32, #blocked1>
  }
}

// -----

// Forward propagation from anchors: the row of a softmax is loaded in the
// layout coalescing chose (#b, 4 contiguous elements per thread); the
// reductions, the exponential and the division follow the load into #b
// instead of converting the row to the default layout (#a) through shared
// memory, and the exponential, once computed in one layout, is not
// computed again for the store.

// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @softmax_row
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$B]]>
// CHECK: tile.reduce(%[[X]]) axis = 0 : (tensor<512xf32, #[[$B]]>) -> f32
// CHECK: math.exp %{{.*}} : tensor<512xf32, #[[$B]]>
// CHECK-NOT: math.exp
// CHECK: tile.reduce(%{{.*}}) axis = 0 : (tensor<512xf32, #[[$B]]>) -> f32
// CHECK: arith.divf %{{.*}} : tensor<512xf32, #[[$B]]>
// CHECK: tile.store %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$B]]>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @softmax_row(%in: tensor<512x!tile.ptr<f32>, #b>, %out: tensor<512x!tile.ptr<f32>, #b>) {
    %x = tile.load %in : tensor<512x!tile.ptr<f32>, #b>
    %xa = tilegpu.convert_layout %x : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %m = tile.reduce(%xa) axis = 0 : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %r = arith.maxnumf %p, %q : f32
      tile.reduce.return %r : f32
    }
    %ms = tile.splat %m : f32 -> tensor<512xf32, #a>
    %d = arith.subf %xa, %ms : tensor<512xf32, #a>
    %e = math.exp %d : tensor<512xf32, #a>
    %s = tile.reduce(%e) axis = 0 : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.reduce.return %r : f32
    }
    %ms2 = tile.splat %m : f32 -> tensor<512xf32, #b>
    %d2 = arith.subf %x, %ms2 : tensor<512xf32, #b>
    %e2 = math.exp %d2 : tensor<512xf32, #b>
    %ss = tile.splat %s : f32 -> tensor<512xf32, #b>
    %y = arith.divf %e2, %ss : tensor<512xf32, #b>
    tile.store %out, %y : tensor<512x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// A reduction along axis 1 of a loaded tile produces the slice of the
// load's layout, and expand_dims of that slice gives the load's layout
// back: subtracting the row maxima from the tile needs no conversion.

// CHECK-DAG: #[[$L:.+]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$S:.+]] = #tilegpu.slice<{dim = 1, parent = #[[$L]]}>
// CHECK-LABEL: func.func @row_max_2d
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reduce(%{{.*}}) axis = 1 : (tensor<16x64xf32, #[[$L]]>) -> tensor<16xf32, #[[$S]]>
// CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<16xf32, #[[$S]]> -> tensor<16x1xf32, #[[$L]]>
// CHECK: arith.subf %{{.*}} : tensor<16x64xf32, #[[$L]]>
// CHECK: return
#l = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @row_max_2d(%in: tensor<16x64x!tile.ptr<f32>, #l>, %out: tensor<16x64x!tile.ptr<f32>, #l>) {
    %x = tile.load %in : tensor<16x64x!tile.ptr<f32>, #l>
    %xd = tilegpu.convert_layout %x : tensor<16x64xf32, #l> -> tensor<16x64xf32, #d>
    %m = tile.reduce(%xd) axis = 1 : (tensor<16x64xf32, #d>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #d}>> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.maxnumf %p, %q : f32
      tile.reduce.return %r : f32
    }
    %m2 = tile.expand_dims %m axis = 1 : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #d}>> -> tensor<16x1xf32, #d>
    %mb = tile.broadcast %m2 : tensor<16x1xf32, #d> -> tensor<16x64xf32, #d>
    %y = arith.subf %xd, %mb : tensor<16x64xf32, #d>
    %yl = tilegpu.convert_layout %y : tensor<16x64xf32, #d> -> tensor<16x64xf32, #l>
    tile.store %out, %yl : tensor<16x64x!tile.ptr<f32>, #l>
    return
  }
}

// -----

// A sum accumulated in a loop from loads follows the loads: the iter_arg
// is carried in the load's layout and its zero init is built there.

// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @loop_accumulator
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<512xf32, #[[$B]]>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<512xf32, #[[$B]]>)
// CHECK: tile.store %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$B]]>
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @loop_accumulator(%in: tensor<512x!tile.ptr<f32>, #b>, %out: tensor<512x!tile.ptr<f32>, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<512xf32, #a>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero) -> (tensor<512xf32, #a>) : i32 {
      %x = tile.load %in : tensor<512x!tile.ptr<f32>, #b>
      %xa = tilegpu.convert_layout %x : tensor<512xf32, #b> -> tensor<512xf32, #a>
      %next = arith.addf %sum, %xa : tensor<512xf32, #a>
      scf.yield %next : tensor<512xf32, #a>
    }
    %r = tilegpu.convert_layout %acc : tensor<512xf32, #a> -> tensor<512xf32, #b>
    tile.store %out, %r : tensor<512x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// Must not: two loads in different layouts meet in one addition. The
// first layout to reach the sum wins; the other load is converted once,
// and nothing is computed twice.

// CHECK-DAG: #[[$A:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.+]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @two_anchors
// CHECK-COUNT-1: tilegpu.convert_layout
// CHECK-NOT: tilegpu.convert_layout
// CHECK-COUNT-1: arith.addf {{.*}} : tensor
// CHECK-NOT: arith.addf {{.*}} : tensor
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @two_anchors(%p: tensor<512x!tile.ptr<f32>, #a>, %q: tensor<512x!tile.ptr<f32>, #b>) -> f32 {
    %x = tile.load %p : tensor<512x!tile.ptr<f32>, #a>
    %y = tile.load %q : tensor<512x!tile.ptr<f32>, #b>
    %yb = tilegpu.convert_layout %y : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %z = arith.addf %x, %yb : tensor<512xf32, #a>
    %s = tile.reduce(%z) axis = 0 : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%u: f32, %v: f32):
      %r = arith.addf %u, %v : f32
      tile.reduce.return %r : f32
    }
    return %s : f32
  }
}


// -----

// Through a join and a reshape: the interleave of two loaded blocks is a
// relabelling of registers end to end (join adds the pair as a register
// bit, the reshape flattens it), so the loads, the join, the reshape and
// the store share compatible layouts and nothing moves between threads.
// (The pass tries propagating through reshapes and keeps it only when
// less data moves; here it removes every conversion.)

// CHECK-LABEL: func.func @interleave
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[A:.*]] = tile.load
// CHECK: %[[B:.*]] = tile.load
// CHECK: %[[J:.*]] = tile.join %[[A]], %[[B]]
// CHECK: %[[F:.*]] = tile.reshape %[[J]]
// CHECK: tile.store %{{.*}}, %[[F]]
// CHECK-NOT: tilegpu.convert_layout
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @interleave(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %0 = tile.make_range 0 to 256 : tensor<256xi32, #blocked>
    %1 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #blocked>
    %2 = tile.addptr %1, %0 : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %3 = tilegpu.convert_layout %2 : tensor<256x!tile.ptr<f32>, #blocked> -> tensor<256x!tile.ptr<f32>, #blocked1>
    %4 = tile.load %3 : tensor<256x!tile.ptr<f32>, #blocked1>
    %5 = tilegpu.convert_layout %4 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>
    %6 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #blocked>
    %7 = tile.addptr %6, %0 : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %8 = tilegpu.convert_layout %7 : tensor<256x!tile.ptr<f32>, #blocked> -> tensor<256x!tile.ptr<f32>, #blocked1>
    %9 = tile.load %8 : tensor<256x!tile.ptr<f32>, #blocked1>
    %10 = tilegpu.convert_layout %9 : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>
    %11 = tile.join %5, %10 : tensor<256xf32, #blocked> -> tensor<256x2xf32, #blocked2>
    %12 = tilegpu.convert_layout %11 : tensor<256x2xf32, #blocked2> -> tensor<256x2xf32, #blocked3>
    %13 = tile.reshape %12 : tensor<256x2xf32, #blocked3> -> tensor<512xf32, #blocked>
    %14 = tile.make_range 0 to 512 : tensor<512xi32, #blocked>
    %15 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #blocked>
    %16 = tile.addptr %15, %14 : tensor<512x!tile.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %17 = tilegpu.convert_layout %16 : tensor<512x!tile.ptr<f32>, #blocked> -> tensor<512x!tile.ptr<f32>, #blocked4>
    %18 = tilegpu.convert_layout %13 : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked4>
    tile.store %17, %18 : tensor<512x!tile.ptr<f32>, #blocked4>
    return
  }
}

// -----

// Must not: a contiguous load unflattened to a tile stored with an unknown
// row stride. Propagating the load's vector layout through the reshape
// would leave a conversion before the store; issuing the load in the
// store's (scalar, still coalesced) layout leaves none, and is kept.

// CHECK-DAG: #[[$FLAT:.+]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$TILE:.+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: func.func @unflatten
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<2048x!tile.ptr<f32>, #[[$FLAT]]>
// CHECK: %[[T:.*]] = tile.reshape %[[V]] : tensor<2048xf32, #[[$FLAT]]> -> tensor<32x64xf32, #[[$TILE]]>
// CHECK: tile.store %{{.*}}, %[[T]] : tensor<32x64x!tile.ptr<f32>, #[[$TILE]]>
// CHECK-NOT: tilegpu.convert_layout
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked3 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked3}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @unflatten(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: i32) {
    %0 = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked>
    %1 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #blocked>
    %2 = tile.addptr %1, %0 : tensor<2048x!tile.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
    %3 = tilegpu.convert_layout %2 : tensor<2048x!tile.ptr<f32>, #blocked> -> tensor<2048x!tile.ptr<f32>, #blocked1>
    %4 = tile.load %3 : tensor<2048x!tile.ptr<f32>, #blocked1>
    %5 = tilegpu.convert_layout %4 : tensor<2048xf32, #blocked1> -> tensor<2048xf32, #blocked>
    %6 = tile.reshape %5 : tensor<2048xf32, #blocked> -> tensor<32x64xf32, #blocked2>
    %7 = tile.make_range 0 to 32 : tensor<32xi32, #blocked>
    %8 = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
    %9 = tilegpu.convert_layout %7 : tensor<32xi32, #blocked> -> tensor<32xi32, #slice>
    %10 = tile.expand_dims %9 axis = 1 : tensor<32xi32, #slice> -> tensor<32x1xi32, #blocked3>
    %11 = tilegpu.convert_layout %8 : tensor<64xi32, #blocked> -> tensor<64xi32, #slice1>
    %12 = tile.expand_dims %11 axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked2>
    %13 = tile.splat %arg2 : i32 -> tensor<32x1xi32, #blocked3>
    %14 = arith.muli %10, %13 : tensor<32x1xi32, #blocked3>
    %15 = tilegpu.convert_layout %14 : tensor<32x1xi32, #blocked3> -> tensor<32x1xi32, #blocked2>
    %16 = tile.broadcast %15 : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %17 = tile.broadcast %12 : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
    %18 = arith.addi %16, %17 : tensor<32x64xi32, #blocked2>
    %19 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>, #blocked2>
    %20 = tile.addptr %19, %18 : tensor<32x64x!tile.ptr<f32>, #blocked2>, tensor<32x64xi32, #blocked2>
    tile.store %20, %6 : tensor<32x64x!tile.ptr<f32>, #blocked2>
    return
  }
}

// -----

// An epilogue's truncation of a wgmma accumulator happens before the
// conversion to the store's layout (half the bytes through shared memory),
// and the truncation is not pulled back above it.
// CHECK-LABEL: func.func @narrow_accumulator
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[MMA:.*]]> to tensor<64x64xf16, #[[MMA]]>
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x64xf16, #[[MMA]]> -> tensor<64x64xf16, #[[BL:.*]]>
// CHECK-NEXT: tile.store %{{.*}}, %[[C]]
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrow_accumulator(%acc: tensor<64x64xf32, #mma>, %out: tensor<64x64x!tile.ptr<f16>, #blocked>) {
    %c = tilegpu.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %t = arith.truncf %c : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tile.store %out, %t : tensor<64x64x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// The same for a part of an accumulator that shape ops split off (an
// epilogue stored in two halves, Triton's EPILOGUE_SUBTILE): each half is
// truncated in its own layout and converted after.
// CHECK-LABEL: func.func @narrow_accumulator_half
// CHECK: %[[L:.*]], %[[R:.*]] = tile.split
// CHECK: %[[T:.*]] = arith.truncf %[[L]] : tensor<128x128xf32, #[[HALF:.*]]> to tensor<128x128xf16, #[[HALF]]>
// CHECK-NEXT: tilegpu.convert_layout %[[T]] : tensor<128x128xf16, #[[HALF]]> -> tensor<128x128xf16,
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#linear = #tilegpu.linear<{register = [[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 1, 0]], lane = [[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0], [64, 0, 0]], block = []}>
#linear1 = #tilegpu.linear<{register = [[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 1]], lane = [[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0], [64, 0, 0]], block = []}>
#linear2 = #tilegpu.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [64, 0]], block = []}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrow_accumulator_half(%acc: tensor<128x256xf32, #mma>, %out: tensor<128x128x!tile.ptr<f16>, #blocked>) {
    %r = tile.reshape %acc : tensor<128x256xf32, #mma> -> tensor<128x2x128xf32, #linear>
    %p = tile.trans %r [0, 2, 1] : tensor<128x2x128xf32, #linear> -> tensor<128x128x2xf32, #linear1>
    %lhs, %rhs = tile.split %p : tensor<128x128x2xf32, #linear1> -> tensor<128x128xf32, #linear2>
    %c = tilegpu.convert_layout %lhs : tensor<128x128xf32, #linear2> -> tensor<128x128xf32, #blocked>
    %t = arith.truncf %c : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    tile.store %out, %t : tensor<128x128x!tile.ptr<f16>, #blocked>
    %c2 = tilegpu.convert_layout %rhs : tensor<128x128xf32, #linear2> -> tensor<128x128xf32, #blocked>
    %t2 = arith.truncf %c2 : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    tile.store %out, %t2 : tensor<128x128x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// Must not: the same split of a value that is no accumulator (loaded in a
// linear layout) keeps its conversion before the truncation.
// CHECK-LABEL: func.func @narrow_split_of_load
// CHECK: %[[L:.*]], %{{.*}} = tile.split
// CHECK-NEXT: tilegpu.convert_layout %[[L]] : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32,
// CHECK-NEXT: arith.truncf
#linear1 = #tilegpu.linear<{register = [[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 1]], lane = [[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0], [64, 0, 0]], block = []}>
#linear2 = #tilegpu.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [64, 0]], block = []}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrow_split_of_load(%in: tensor<128x128x2x!tile.ptr<f32>, #linear1>, %out: tensor<128x128x!tile.ptr<f16>, #blocked>) {
    %x = tile.load %in : tensor<128x128x2x!tile.ptr<f32>, #linear1>
    %lhs, %rhs = tile.split %x : tensor<128x128x2xf32, #linear1> -> tensor<128x128xf32, #linear2>
    %c = tilegpu.convert_layout %lhs : tensor<128x128xf32, #linear2> -> tensor<128x128xf32, #blocked>
    %t = arith.truncf %c : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    tile.store %out, %t : tensor<128x128x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// Must not: a conversion between two blocked layouts stays before the
// truncation (only accumulators of tensor cores are narrowed first).
// CHECK-LABEL: func.func @narrow_blocked
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #{{.*}}> -> tensor<64x64xf32,
// CHECK-NEXT: arith.truncf
#a = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrow_blocked(%x: tensor<64x64xf32, #a>, %out: tensor<64x64x!tile.ptr<f16>, #blocked>) {
    %c = tilegpu.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #blocked>
    %t = arith.truncf %c : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tile.store %out, %t : tensor<64x64x!tile.ptr<f16>, #blocked>
    return
  }
}

// -----

// Must not: a load is not issued in a layout where more threads hold each
// element (an FMA dot operand's, where the 16 lanes along N hold the same
// rows of A): that would read global memory once per copy. The load stays
// coalesced and its values are converted.

// CHECK-LABEL: func.func @load_not_into_broadcast
// CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<64x32x!tile.ptr<f32>, #[[$B:.+]]>
// CHECK: tilegpu.convert_layout %[[V]] : tensor<64x32xf32, #[[$B]]> -> tensor<64x32xf32, #[[$L:.+]]>
// CHECK-NOT: tile.load
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #tilegpu.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [32, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @load_not_into_broadcast(%p: tensor<64x32x!tile.ptr<f32>, #b>) -> tensor<64x32xf32, #l> {
    %v = tile.load %p : tensor<64x32x!tile.ptr<f32>, #b>
    %vl = tilegpu.convert_layout %v : tensor<64x32xf32, #b> -> tensor<64x32xf32, #l>
    %neg = arith.negf %vl : tensor<64x32xf32, #l>
    return %neg : tensor<64x32xf32, #l>
  }
}

// -----

// Attention's loop (what terrazzo-accelerate-dot leaves for mma.sync):
// tensor-core results anchor the propagation ahead of loads, so the scores,
// the causal mask built from aranges, the row max and sum (reductions of
// the accumulator layout, their results in its slice), exp2, the rescaling
// by a row vector (expand_dims, broadcast) and the loop-carried output,
// max and sum all stay in the mma layout. Inside the loop the only
// conversions left are the dot operands': Q, K and V from their loads and
// P, the probabilities, from the accumulator layout to the A operand of
// the same parent (a relabelling of registers). After the loop, the
// output and its sum are converted once for the division and the store.

// CHECK-DAG: #[[$SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>}>
// CHECK-DAG: #[[$COLS:.+]] = #tilegpu.slice<{dim = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>}>
// CHECK-LABEL: func.func @attention_loop
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #[[$MMA:tilegpu.nvidia_mma<\{versionMajor = 2, warpsPerCTA = \[4, 1\], instrShape = \[16, 8\]\}>]]>, tensor<64xf32, #[[$SLICE]]>, tensor<64xf32, #[[$SLICE]]>)
// CHECK-NOT: -> tensor<64x64xf32, #blocked
// CHECK: %[[S:.+]] = tile.dot {{.*}} -> tensor<64x64xf32, #[[$MMA]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.make_range 0 to 64 : tensor<64xi32, #[[$SLICE]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.make_range 0 to 64 : tensor<64xi32, #[[$COLS]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[MASK:.+]] = arith.cmpi sge, {{.*}} : tensor<64x64xi32, #[[$MMA]]>
// CHECK-NEXT: %[[SM:.+]] = arith.select %[[MASK]], %[[S]], {{.*}} : tensor<64x64xi1, #[[$MMA]]>, tensor<64x64xf32, #[[$MMA]]>
// CHECK-NEXT: tile.reduce(%[[SM]]) axis = 1 : (tensor<64x64xf32, #[[$MMA]]>) -> tensor<64xf32, #[[$SLICE]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[P:.+]] = math.exp2 {{.*}} : tensor<64x64xf32, #[[$MMA]]>
// CHECK-NEXT: tile.reduce(%[[P]]) axis = 1 : (tensor<64x64xf32, #[[$MMA]]>) -> tensor<64xf32, #[[$SLICE]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[ALPHA:.+]] = math.exp2 {{.*}} : tensor<64xf32, #[[$SLICE]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.expand_dims %[[ALPHA]] axis = 1 : tensor<64xf32, #[[$SLICE]]> -> tensor<64x1xf32, #[[$MMA]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[PH:.+]] = arith.truncf %[[P]] : tensor<64x64xf32, #[[$MMA]]> to tensor<64x64xf16, #[[$MMA]]>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: %[[PA:.+]] = tilegpu.convert_layout %[[PH]] : tensor<64x64xf16, #[[$MMA]]> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: %[[O:.+]] = tile.dot %[[PA]], {{.*}} -> tensor<64x64xf32, #[[$MMA]]>
// CHECK-NEXT: scf.yield %[[O]], {{.*}} : tensor<64x64xf32, #[[$MMA]]>, tensor<64xf32, #[[$SLICE]]>, tensor<64xf32, #[[$SLICE]]>
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.convert_layout %{{.*}}#0 : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #blocked{{[0-9]*}}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #tilegpu.blocked<{sizePerThread = [64, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked4 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #tilegpu.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [32, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked4}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @attention_loop(%arg0: tensor<64x64xf16, #blocked>, %arg1: tensor<64x64x!tile.ptr<f16>, #blocked>, %arg2: tensor<64x64x!tile.ptr<f16>, #blocked>, %arg3: tensor<64x64x!tile.ptr<f32>, #blocked>, %arg4: i32, %arg5: f32) {
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %cst_0 = arith.constant dense<0xFF800000> : tensor<64xf32, #blocked1>
    %cst_1 = arith.constant dense<1.000000e+00> : tensor<64xf32, #blocked1>
    %cst_2 = arith.constant dense<-1.000000e+06> : tensor<64x64xf32, #blocked>
    %0 = tile.make_range 0 to 64 : tensor<64xi32, #blocked1>
    %1:3 = scf.for %arg6 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg7 = %cst, %arg8 = %cst_0, %arg9 = %cst_1) -> (tensor<64x64xf32, #blocked>, tensor<64xf32, #blocked1>, tensor<64xf32, #blocked1>)  : i32 {
      %7 = tile.load %arg1 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %8 = tilegpu.convert_layout %cst : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked2>
      %9 = tilegpu.convert_layout %arg0 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear>
      %10 = tilegpu.convert_layout %7 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked3>
      %11 = tilegpu.convert_layout %9 : tensor<64x64xf16, #linear> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>
      %12 = tilegpu.convert_layout %10 : tensor<64x64xf16, #blocked3> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>
      %13 = tilegpu.convert_layout %8 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
      %14 = tile.dot %11, %12, %13 : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>> * tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
      %15 = tilegpu.convert_layout %14 : tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>> -> tensor<64x64xf32, #blocked2>
      %16 = tilegpu.convert_layout %15 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked>
      %17 = tile.make_range 0 to 64 : tensor<64xi32, #blocked1>
      %18 = tile.splat %arg6 : i32 -> tensor<64xi32, #blocked1>
      %19 = arith.addi %18, %17 : tensor<64xi32, #blocked1>
      %20 = tilegpu.convert_layout %0 : tensor<64xi32, #blocked1> -> tensor<64xi32, #slice>
      %21 = tile.expand_dims %20 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked4>
      %22 = tilegpu.convert_layout %21 : tensor<64x1xi32, #blocked4> -> tensor<64x1xi32, #blocked>
      %23 = tile.broadcast %22 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %24 = tilegpu.convert_layout %19 : tensor<64xi32, #blocked1> -> tensor<64xi32, #slice1>
      %25 = tile.expand_dims %24 axis = 0 : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
      %26 = tile.broadcast %25 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %27 = arith.cmpi sge, %23, %26 : tensor<64x64xi32, #blocked>
      %28 = arith.select %27, %16, %cst_2 : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
      %29 = tile.reduce(%28) axis = 1 : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #slice2> {
      ^bb0(%arg10: f32, %arg11: f32):
        %60 = arith.maxnumf %arg10, %arg11 : f32
        tile.reduce.return %60 : f32
      }
      %30 = tilegpu.convert_layout %29 : tensor<64xf32, #slice2> -> tensor<64xf32, #blocked1>
      %31 = arith.maxnumf %arg8, %30 : tensor<64xf32, #blocked1>
      %32 = tilegpu.convert_layout %31 : tensor<64xf32, #blocked1> -> tensor<64xf32, #slice>
      %33 = tile.expand_dims %32 axis = 1 : tensor<64xf32, #slice> -> tensor<64x1xf32, #blocked4>
      %34 = tilegpu.convert_layout %33 : tensor<64x1xf32, #blocked4> -> tensor<64x1xf32, #blocked>
      %35 = tile.broadcast %34 : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
      %36 = arith.subf %28, %35 : tensor<64x64xf32, #blocked>
      %37 = math.exp2 %36 : tensor<64x64xf32, #blocked>
      %38 = tile.reduce(%37) axis = 1 : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #slice2> {
      ^bb0(%arg10: f32, %arg11: f32):
        %60 = arith.addf %arg10, %arg11 : f32
        tile.reduce.return %60 : f32
      }
      %39 = tilegpu.convert_layout %38 : tensor<64xf32, #slice2> -> tensor<64xf32, #blocked1>
      %40 = arith.subf %arg8, %31 : tensor<64xf32, #blocked1>
      %41 = math.exp2 %40 : tensor<64xf32, #blocked1>
      %42 = arith.mulf %arg9, %41 : tensor<64xf32, #blocked1>
      %43 = arith.addf %42, %39 : tensor<64xf32, #blocked1>
      %44 = tilegpu.convert_layout %41 : tensor<64xf32, #blocked1> -> tensor<64xf32, #slice>
      %45 = tile.expand_dims %44 axis = 1 : tensor<64xf32, #slice> -> tensor<64x1xf32, #blocked4>
      %46 = tilegpu.convert_layout %45 : tensor<64x1xf32, #blocked4> -> tensor<64x1xf32, #blocked>
      %47 = tile.broadcast %46 : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
      %48 = arith.mulf %arg7, %47 : tensor<64x64xf32, #blocked>
      %49 = arith.truncf %37 : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
      %50 = tile.load %arg2 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %51 = tilegpu.convert_layout %48 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked2>
      %52 = tilegpu.convert_layout %49 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear>
      %53 = tilegpu.convert_layout %50 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked3>
      %54 = tilegpu.convert_layout %52 : tensor<64x64xf16, #linear> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>
      %55 = tilegpu.convert_layout %53 : tensor<64x64xf16, #blocked3> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>
      %56 = tilegpu.convert_layout %51 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
      %57 = tile.dot %54, %55, %56 : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>> * tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
      %58 = tilegpu.convert_layout %57 : tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>> -> tensor<64x64xf32, #blocked2>
      %59 = tilegpu.convert_layout %58 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked>
      scf.yield %59, %31, %43 : tensor<64x64xf32, #blocked>, tensor<64xf32, #blocked1>, tensor<64xf32, #blocked1>
    }
    %2 = tilegpu.convert_layout %1#2 : tensor<64xf32, #blocked1> -> tensor<64xf32, #slice>
    %3 = tile.expand_dims %2 axis = 1 : tensor<64xf32, #slice> -> tensor<64x1xf32, #blocked4>
    %4 = tilegpu.convert_layout %3 : tensor<64x1xf32, #blocked4> -> tensor<64x1xf32, #blocked>
    %5 = tile.broadcast %4 : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
    %6 = arith.divf %1#0, %5 : tensor<64x64xf32, #blocked>
    tile.store %arg3, %6 : tensor<64x64x!tile.ptr<f32>, #blocked>
    return
  }
}


// -----

// Must not: a loop that keeps its accumulator in the dot's layout is not
// pulled into the layout of the store after it (that would convert on
// every iteration, not once): the loop carries the mma layout, the
// epilogue (a leaky ReLU) runs in it too, and the one conversion, after
// the narrowing to float16, moves half the bytes.

// CHECK-LABEL: func.func @accumulator_loop
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #[[$MMA:tilegpu.nvidia_mma<\{versionMajor = 2, warpsPerCTA = \[2, 2\], instrShape = \[16, 8\]\}>]]>)
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: scf.yield
// CHECK: arith.select {{.*}} : tensor<64x64xi1, #[[$MMA]]>, tensor<64x64xf32, #[[$MMA]]>
// CHECK-NEXT: %[[H:.+]] = arith.truncf {{.*}} : tensor<64x64xf32, #[[$MMA]]> to tensor<64x64xf16, #[[$MMA]]>
// CHECK-NEXT: %[[HB:.+]] = tilegpu.convert_layout %[[H]] : tensor<64x64xf16, #[[$MMA]]> -> tensor<64x64xf16, #blocked{{[0-9]*}}>
// CHECK-NEXT: tile.store %{{.*}}, %[[HB]]
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [64, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#linear = #tilegpu.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [32, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @accumulator_loop(%arg0: tensor<64x64x!tile.ptr<f16>, #blocked>, %arg1: tensor<64x64x!tile.ptr<f16>, #blocked>, %arg2: tensor<64x64x!tile.ptr<f16>, #blocked>, %arg3: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %cst_0 = arith.constant dense<0.00999999977> : tensor<64x64xf32, #blocked>
    %0 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst) -> (tensor<64x64xf32, #blocked>)  : i32 {
      %5 = tile.load %arg0 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %6 = tile.load %arg1 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %7 = tilegpu.convert_layout %arg5 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
      %8 = tilegpu.convert_layout %5 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear>
      %9 = tilegpu.convert_layout %6 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked2>
      %10 = tilegpu.convert_layout %8 : tensor<64x64xf16, #linear> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
      %11 = tilegpu.convert_layout %9 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
      %12 = tilegpu.convert_layout %7 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
      %13 = tile.dot %10, %11, %12 : tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>> * tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>> -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
      %14 = tilegpu.convert_layout %13 : tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>> -> tensor<64x64xf32, #blocked1>
      %15 = tilegpu.convert_layout %14 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
      scf.yield %15 : tensor<64x64xf32, #blocked>
    }
    %1 = arith.cmpf oge, %0, %cst : tensor<64x64xf32, #blocked>
    %2 = arith.mulf %0, %cst_0 : tensor<64x64xf32, #blocked>
    %3 = arith.select %1, %0, %2 : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
    %4 = arith.truncf %3 : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tile.store %arg2, %4 : tensor<64x64x!tile.ptr<f16>, #blocked>
    return
  }
}


// -----

// Must not: a conversion between two layouts that are the same linear
// layout (the rows of two wgmma layouts with the same warps, whose
// instructions differ in N) moves nothing, so the value it converts is
// not computed a second time in the other layout: the conversion stays.

// CHECK-LABEL: func.func @relabelling
// CHECK: %[[M:.+]] = arith.maxnumf
// CHECK-NOT: arith.maxnumf
// CHECK: tilegpu.convert_layout %[[M]]
// CHECK-NOT: arith.maxnumf
#a = #tilegpu.slice<{dim = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>}>
#b = #tilegpu.slice<{dim = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @relabelling(%x: tensor<128xf32, #a>, %y: tensor<128xf32, #a>) -> (tensor<128xf32, #a>, tensor<128xf32, #b>) {
    %m = arith.maxnumf %x, %y : tensor<128xf32, #a>
    %mb = tilegpu.convert_layout %m : tensor<128xf32, #a> -> tensor<128xf32, #b>
    return %m, %mb : tensor<128xf32, #a>, tensor<128xf32, #b>
  }
}

// -----

// A tile loaded before a loop and again for the next iteration (a
// persistent kernel's next tile), stored into shared memory by each
// iteration: the loop carries it in the loads' layout, and the store into
// shared memory takes it from those registers, with no conversion left
// around the loop.

// CHECK-DAG: #[[$L:.+]] = #tilegpu.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @carried_into_shared
// CHECK: %[[FIRST:.*]] = tile.load %{{.*}} : tensor<64x128x!tile.ptr<f16>, #[[$L]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = %[[FIRST]]) -> (tensor<64x128xf16, #[[$L]]>)
// CHECK-NEXT: tilegpu.local_alloc %[[Q]] : (tensor<64x128xf16, #[[$L]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[NEXT:.*]] = tile.load %{{.*}} : tensor<64x128x!tile.ptr<f16>, #[[$L]]>
// CHECK-NEXT: scf.yield %[[NEXT]] : tensor<64x128xf16, #[[$L]]>
#d = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#l = #tilegpu.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @carried_into_shared(%p: tensor<64x128x!tile.ptr<f16>, #l>, %out: tensor<64x128x!tile.ptr<f16>, #d>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %first = tile.load %p : tensor<64x128x!tile.ptr<f16>, #l>
    %firstd = tilegpu.convert_layout %first : tensor<64x128xf16, #l> -> tensor<64x128xf16, #d>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %firstd) -> (tensor<64x128xf16, #d>) : i32 {
      %buf = tilegpu.local_alloc %q : (tensor<64x128xf16, #d>) -> !tilegpu.memdesc<64x128xf16, #nv>
      %back = tilegpu.local_load %buf : !tilegpu.memdesc<64x128xf16, #nv> -> tensor<64x128xf16, #d>
      tile.store %out, %back : tensor<64x128x!tile.ptr<f16>, #d>
      %next = tile.load %p : tensor<64x128x!tile.ptr<f16>, #l>
      %nextd = tilegpu.convert_layout %next : tensor<64x128xf16, #l> -> tensor<64x128xf16, #d>
      scf.yield %nextd : tensor<64x128xf16, #d>
    }
    return
  }
}
