// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-flatten-loops | FileCheck %s

// Tutorial 09's persistent loop (tl.range(pid, tiles, programs,
// flatten=True)): a scalar prologue (the tile's row), a K loop from zeros,
// an epilogue that stores the tile. Under a guard that K's trip count is
// above 0 and tiles x K fits an i32, one loop of tiles x K steps: step i is
// K iteration i % K of tile pid + (i / K) * programs, the prologue
// recomputed, the dot, then on the tile's last step the store under an
// scf.if and the accumulator back to zeros (select). The nest as it was
// otherwise; the attribute goes.
// CHECK-LABEL: func.func @persistent
// CHECK-SAME: (%[[A:[a-z0-9]+]]: tensor<16x16xf16>, %[[OUT:[a-z0-9]+]]: tensor<16x16x!tile.ptr<f32>>, %[[TILES:[a-z0-9]+]]: i32, %[[KT:[a-z0-9]+]]: i32,
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK: %[[PID:.*]] = tile.program_id x
// CHECK: %[[PROGS:.*]] = tile.num_programs x
// CHECK: %[[T64:.*]] = arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK: %[[K64:.*]] = arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %[[K64]], %c0_i64
// CHECK: %[[MOST:.*]] = arith.divsi %c2147483647_i64, %{{.*}} : i64
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[T64]], %[[MOST]] : i64
// CHECK: %[[OK:.*]] = arith.andi %[[RUNS]], %[[FITS]] : i1
// CHECK: scf.if %[[OK]] {
// CHECK: %[[TOTAL64:.*]] = arith.muli %[[T64]], %[[K64]] : i64
// CHECK: %[[TOTAL:.*]] = arith.trunci %[[TOTAL64]] : i64 to i32
// CHECK: %[[KN:.*]] = arith.trunci %[[K64]] : i64 to i32
// CHECK: %[[K:.*]] = arith.maxsi %[[KN]], %c1_i32{{.*}} : i32
// CHECK: scf.for %[[I:[a-z0-9]+]] = %c0_i32{{.*}} to %[[TOTAL]] step %c1_i32{{.*}} iter_args(%[[ACC:[a-z0-9]+]] = %[[ZEROS]]) -> (tensor<16x16xf32>) : i32 {
// CHECK-NEXT: %[[TI:.*]] = arith.divsi %[[I]], %[[K]] : i32
// CHECK-NEXT: %[[KI:.*]] = arith.remsi %[[I]], %[[K]] : i32
// CHECK-NEXT: %[[TS:.*]] = arith.muli %[[TI]], %[[PROGS]] : i32
// CHECK-NEXT: %[[TILE:.*]] = arith.addi %[[PID]], %[[TS]] : i32
// CHECK-NEXT: %[[KS:.*]] = arith.muli %[[KI]], %c1_i32 : i32
// CHECK-NEXT: %[[KK:.*]] = arith.addi %c0_i32, %[[KS]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[TILE]], %c16_i32 : i32
// CHECK-NEXT: %[[B:.*]] = tile.desc_load %{{.*}}[%[[ROW]], %[[KK]]]
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK: %[[KLAST:.*]] = arith.subi %[[K]], %c1_i32
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[KI]], %[[KLAST]] : i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: %[[OFF:.*]] = tile.splat %[[ROW]]
// CHECK-NEXT: %[[P:.*]] = tile.addptr %[[OUT]], %[[OFF]]
// CHECK-NEXT: tile.store %[[P]], %[[D]]
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[LAST]], %[[ZEROS]], %[[D]]
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK-NEXT: }
// CHECK: } else {
// CHECK-NEXT: scf.for %{{.*}} = %[[PID]] to %[[TILES]] step %[[PROGS]] : i32 {
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[KT]] step %c1_i32
// CHECK: tile.store
// CHECK-NOT: tile.flatten
func.func @persistent(%a: tensor<16x16xf16>, %out: tensor<16x16x!tile.ptr<f32>>, %tiles: i32, %k_tiles: i32, %desc: !tile.tensordesc<tensor<16x16xf16>>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zeros = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tile.program_id x : i32
  %programs = tile.num_programs x : i32
  scf.for %t = %pid to %tiles step %programs : i32 {
    %row = arith.muli %t, %c16 : i32
    %acc = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %zeros) -> (tensor<16x16xf32>) : i32 {
      %b = tile.desc_load %desc[%row, %k] : !tile.tensordesc<tensor<16x16xf16>> -> tensor<16x16xf16>
      %d = tile.dot %a, %b, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %off = tile.splat %row : i32 -> tensor<16x16xi32>
    %p = tile.addptr %out, %off : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
    tile.store %p, %acc : tensor<16x16x!tile.ptr<f32>>
  } {tile.flatten}
  return
}

// -----

// Values the outer loop carries (a count of the tiles done, the
// accumulator of the previous tile's sum) go through the epilogue's scf.if:
// its then region yields the epilogue's values, its else region the
// carried ones; the guard yields the flat loop's first results (the outer
// loop's), the nest's otherwise. The inner loop's start value is an
// argument (defined outside the outer loop); the inner loop's num_stages
// goes to the flat loop.
// CHECK-LABEL: func.func @carried
// CHECK: %[[R:.*]]:2 = scf.if %{{.*}} -> (i32, f32) {
// CHECK: %[[F:.*]]:3 = scf.for %{{.*}} iter_args(%[[N:[a-z0-9]+]] = %c0_i32, %[[S:[a-z0-9]+]] = %{{.*}}, %[[X:[a-z0-9]+]] = %arg2) -> (i32, f32, f32)
// CHECK: %[[Y:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK: %[[LAST:.*]] = arith.cmpi eq
// CHECK-NEXT: %[[E:.*]]:2 = scf.if %[[LAST]] -> (i32, f32) {
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[N]], %c1_i32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S]], %[[Y]]
// CHECK-NEXT: scf.yield %[[N1]], %[[S1]] : i32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[N]], %[[S]] : i32, f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[XN:.*]] = arith.select %[[LAST]], %arg2, %[[Y]] : f32
// CHECK-NEXT: scf.yield %[[E]]#0, %[[E]]#1, %[[XN]] : i32, f32, f32
// CHECK-NEXT: } {tile.num_stages = 2 : i32}
// CHECK-NEXT: scf.yield %[[F]]#0, %[[F]]#1 : i32, f32
// CHECK: } else {
// CHECK: %[[NEST:.*]]:2 = scf.for
// CHECK: scf.yield %[[NEST]]#0, %[[NEST]]#1 : i32, f32
// CHECK: return %[[R]]#0, %[[R]]#1 : i32, f32
func.func @carried(%tiles: i32, %k_tiles: i32, %x0: f32, %s0: f32) -> (i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%n = %c0, %s = %s0) -> (i32, f32) : i32 {
    %tf = arith.sitofp %t : i32 to f32
    %x = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%x = %x0) -> (f32) : i32 {
      %y = arith.addf %x, %tf : f32
      scf.yield %y : f32
    } {tile.num_stages = 2 : i32}
    %n1 = arith.addi %n, %c1 : i32
    %s1 = arith.addf %s, %x : f32
    scf.yield %n1, %s1 : i32, f32
  } {tile.flatten}
  return %r#0, %r#1 : i32, f32
}

// -----

// A prologue that computes tensors (loop-invariant code motion took the
// rows' pointers out of the inner loop) is recomputed in every step, in
// front of the inner body.
// CHECK-LABEL: func.func @prologue_of_tensors
// CHECK: scf.if
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK: %[[TI:.*]] = arith.divsi %[[I]]
// CHECK: %[[T:.*]] = arith.addi %c0_i32, %{{.*}} : i32
// CHECK: %[[OFF:.*]] = tile.splat %[[T]] : i32 -> tensor<16xi32>
// CHECK-NEXT: %[[PT:.*]] = tile.addptr %{{.*}}, %[[OFF]]
// CHECK-NEXT: tile.load %[[PT]]
// CHECK: } else {
// CHECK: scf.for
func.func @prologue_of_tensors(%p: tensor<16x!tile.ptr<f32>>, %tiles: i32, %k_tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zeros = arith.constant dense<0.0> : tensor<16xf32>
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %off = tile.splat %t : i32 -> tensor<16xi32>
    %pt = tile.addptr %p, %off : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    %acc = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %zeros) -> (tensor<16xf32>) : i32 {
      %v = tile.load %pt : tensor<16x!tile.ptr<f32>>
      %s = arith.addf %acc, %v : tensor<16xf32>
      scf.yield %s : tensor<16xf32>
    }
    tile.store %pt, %acc : tensor<16x!tile.ptr<f32>>
  } {tile.flatten}
  return
}

// -----

// Must not: a prologue that reads memory (a per-tile trip count) or holds
// a region keeps the nest, with a remark; the attribute goes.
// CHECK-LABEL: func.func @prologue_not_pure
// CHECK-NOT: arith.divsi
// CHECK-NOT: tile.flatten
func.func @prologue_not_pure(%p: tensor<16x!tile.ptr<f32>>, %q: !tile.ptr<i32>, %tiles: i32, %k_tiles: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zeros = arith.constant dense<0.0> : tensor<16xf32>
  // expected-remark @+1 {{flatten ignored: the ops in front of the inner loop do not only compute values (memory accesses or regions)}}
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %n = tile.load %q : !tile.ptr<i32>
    %acc = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %zeros) -> (tensor<16xf32>) : i32 {
      %s = arith.addf %acc, %zeros : tensor<16xf32>
      scf.yield %s : tensor<16xf32>
    }
    tile.store %p, %acc : tensor<16x!tile.ptr<f32>>
  } {tile.flatten}
  // expected-remark @+1 {{flatten ignored: the ops in front of the inner loop do not only compute values (memory accesses or regions)}}
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %u = scf.if %c -> (i32) {
      scf.yield %t : i32
    } else {
      scf.yield %c0 : i32
    }
    %acc = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %zeros) -> (tensor<16xf32>) : i32 {
      %s = arith.addf %acc, %zeros : tensor<16xf32>
      scf.yield %s : tensor<16xf32>
    }
    tile.store %p, %acc : tensor<16x!tile.ptr<f32>>
  } {tile.flatten}
  return
}

// -----

// Must not: an inner loop whose trip count or start value depends on the
// tile (a grouped GEMM's problems have K of their own) keeps the nest.
// CHECK-LABEL: func.func @inner_depends_on_tile
// CHECK-NOT: scf.if
// CHECK-NOT: tile.flatten
func.func @inner_depends_on_tile(%tiles: i32, %x0: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{flatten ignored: the inner loop's bounds or start values change from one iteration of the outer loop to the next}}
  %r = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %x0) -> (f32) : i32 {
    %x = scf.for %k = %c0 to %t step %c1 iter_args(%x = %x0) -> (f32) : i32 {
      %y = arith.addf %x, %x0 : f32
      scf.yield %y : f32
    }
    %s1 = arith.addf %s, %x : f32
    scf.yield %s1 : f32
  } {tile.flatten}
  // expected-remark @+1 {{flatten ignored: the inner loop's bounds or start values change from one iteration of the outer loop to the next}}
  %r2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %r) -> (f32) : i32 {
    %x = scf.for %k = %c0 to %tiles step %c1 iter_args(%x = %s) -> (f32) : i32 {
      %y = arith.addf %x, %x0 : f32
      scf.yield %y : f32
    }
    scf.yield %x : f32
  } {tile.flatten}
  return %r2 : f32
}

// -----

// Must not: no inner loop, a second loop after the first, or a loop marked
// for warp specialization (terrazzo-pipeline specializes the nest).
// CHECK-LABEL: func.func @other_forms
// CHECK-NOT: scf.if
// CHECK-NOT: tile.flatten
func.func @other_forms(%tiles: i32, %x0: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{flatten ignored: its body has no inner loop}}
  %r = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %x0) -> (f32) : i32 {
    %s1 = arith.addf %s, %x0 : f32
    scf.yield %s1 : f32
  } {tile.flatten}
  // expected-remark @+1 {{flatten ignored: its body has a second loop}}
  %r2 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %r) -> (f32) : i32 {
    %x = scf.for %k = %c0 to %tiles step %c1 iter_args(%x = %x0) -> (f32) : i32 {
      %y = arith.addf %x, %x0 : f32
      scf.yield %y : f32
    }
    %z = scf.for %k = %c0 to %tiles step %c1 iter_args(%z = %x) -> (f32) : i32 {
      %y = arith.addf %z, %x0 : f32
      scf.yield %y : f32
    }
    scf.yield %z : f32
  } {tile.flatten}
  // expected-remark @+1 {{flatten ignored: a warp-specialized loop keeps its nest}}
  %r3 = scf.for %t = %c0 to %tiles step %c1 iter_args(%s = %r2) -> (f32) : i32 {
    %x = scf.for %k = %c0 to %tiles step %c1 iter_args(%x = %x0) -> (f32) : i32 {
      %y = arith.addf %x, %x0 : f32
      scf.yield %y : f32
    } {tile.warp_specialize}
    %s1 = arith.addf %s, %x : f32
    scf.yield %s1 : f32
  } {tile.flatten}
  return %r3 : f32
}
