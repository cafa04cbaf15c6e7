// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-prefetch-next-tile | FileCheck %s

// A persistent loop over tiles (pid to n step programs) loads a 64x64 block
// of rows tile * 64 before its inner loop: after the load, the same
// pointers for tile + step, masked by the load's mask for that tile and by
// tile + step < n, are prefetched.
// CHECK-LABEL: func.func @tile_loop
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[N:.*]] step %[[S:.*]] : i32 {
// CHECK: %[[LOAD:.*]] = tile.load %[[P:.*]], %[[M:.*]], %{{.*}} :
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[T]], %[[S]] : i32
// CHECK: arith.muli %[[NEXT]], %{{.*}} : i32
// CHECK: %[[NP:.*]] = tile.addptr
// CHECK: %[[NM:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64x64xi32, #blocked>
// CHECK-NEXT: %[[EXISTS:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : i32
// CHECK-NEXT: %[[SPLAT:.*]] = tile.splat %[[EXISTS]] : i1 -> tensor<64x64xi1, #blocked>
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[NM]], %[[SPLAT]] : tensor<64x64xi1, #blocked>
// CHECK-NEXT: tilegpu.prefetch_global %[[NP]] mask %[[BOTH]] : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>
// CHECK: scf.for
// CHECK-NOT: tilegpu.prefetch_global
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #blocked}>
#cols = #tilegpu.slice<{dim = 0, parent = #blocked}>
func.func @tile_loop(%q: !tile.ptr<f16>, %out: !tile.ptr<f16>, %pid: i32, %n: i32, %programs: i32, %rows_total: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf16, #blocked>
  scf.for %tile = %pid to %n step %programs : i32 {
    %first = arith.muli %tile, %c64 : i32
    %r = tile.make_range 0 to 64 : tensor<64xi32, #rows>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #cols>
    %fs = tile.splat %first : i32 -> tensor<64xi32, #rows>
    %rr = arith.addi %fs, %r : tensor<64xi32, #rows>
    %r2 = tile.expand_dims %rr axis = 1 : tensor<64xi32, #rows> -> tensor<64x1xi32, #blocked>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #cols> -> tensor<1x64xi32, #blocked>
    %s64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %ro = arith.muli %r2, %s64 : tensor<64x1xi32, #blocked>
    %rb = tile.broadcast %ro : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %base = tile.splat %q : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %p = tile.addptr %base, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %rowb = tile.broadcast %r2 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %bound = tile.splat %rows_total : i32 -> tensor<64x64xi32, #blocked>
    %m = arith.cmpi slt, %rowb, %bound : tensor<64x64xi32, #blocked>
    %x = tile.load %p, %m, %zero : tensor<64x64x!tile.ptr<f16>, #blocked>
    %acc = scf.for %i = %c0 to %k step %c1 iter_args(%a = %x) -> (tensor<64x64xf16, #blocked>) : i32 {
      %y = arith.addf %a, %x : tensor<64x64xf16, #blocked>
      scf.yield %y : tensor<64x64xf16, #blocked>
    }
    %o = tile.splat %out : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %po = tile.addptr %o, %off : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    tile.store %po, %acc, %m : tensor<64x64x!tile.ptr<f16>, #blocked>
  }
  return
}

// -----

// Without a mask, the prefetch is masked by the next iteration's existence
// alone; a loop that compares unsigned compares the next index so.
// CHECK-LABEL: func.func @unmasked_unsigned
// CHECK: tile.load
// CHECK: arith.cmpi ult
// CHECK-NEXT: %[[SPLAT:.*]] = tile.splat
// CHECK-NEXT: tilegpu.prefetch_global %{{.*}} mask %[[SPLAT]]
#b1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @unmasked_unsigned(%x: !tile.ptr<f32>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c512 = arith.constant 512 : i32
  scf.for unsigned %t = %c0 to %n step %c1 : i32 {
    %first = arith.muli %t, %c512 : i32
    %base = tile.addptr %x, %first : !tile.ptr<f32>, i32
    %bs = tile.splat %base : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b1>
    %r = tile.make_range 0 to 512 : tensor<512xi32, #b1>
    %p = tile.addptr %bs, %r : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
    %v = tile.load %p : tensor<512x!tile.ptr<f32>, #b1>
    scf.for %i = %c0 to %k step %c1 : i32 {
      tile.store %p, %v : tensor<512x!tile.ptr<f32>, #b1>
    }
  }
  return
}

// -----

// Must not: a loop without an inner loop (its next iteration follows at
// once), a load in the inner loop, the same pointers in every iteration,
// pointers the loop carries, pointers read from memory, a scalar load.
// CHECK-LABEL: func.func @must_not
// CHECK-NOT: tilegpu.prefetch_global
#b1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @must_not(%x: !tile.ptr<f32>, %table: !tile.ptr<i32>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c512 = arith.constant 512 : i32
  %bs0 = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b1>
  %r = tile.make_range 0 to 512 : tensor<512xi32, #b1>
  %p0 = tile.addptr %bs0, %r : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
  // No inner loop.
  scf.for %t = %c0 to %n step %c1 : i32 {
    %first = arith.muli %t, %c512 : i32
    %fs = tile.splat %first : i32 -> tensor<512xi32, #b1>
    %p = tile.addptr %p0, %fs : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
    %v = tile.load %p : tensor<512x!tile.ptr<f32>, #b1>
    tile.store %p, %v : tensor<512x!tile.ptr<f32>, #b1>
  }
  // In the inner loop; and the same pointers in every iteration.
  scf.for %t = %c0 to %n step %c1 : i32 {
    %v = tile.load %p0 : tensor<512x!tile.ptr<f32>, #b1>
    scf.for %i = %c0 to %k step %c1 : i32 {
      %is = tile.splat %i : i32 -> tensor<512xi32, #b1>
      %p = tile.addptr %p0, %is : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
      %w = tile.load %p : tensor<512x!tile.ptr<f32>, #b1>
      tile.store %p, %w : tensor<512x!tile.ptr<f32>, #b1>
    }
    tile.store %p0, %v : tensor<512x!tile.ptr<f32>, #b1>
  }
  // Carried by the loop.
  %end = scf.for %t = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<512x!tile.ptr<f32>, #b1>) : i32 {
    %v = tile.load %p : tensor<512x!tile.ptr<f32>, #b1>
    scf.for %i = %c0 to %k step %c1 : i32 {
      tile.store %p, %v : tensor<512x!tile.ptr<f32>, #b1>
    }
    %step = arith.constant dense<512> : tensor<512xi32, #b1>
    %q = tile.addptr %p, %step : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
    scf.yield %q : tensor<512x!tile.ptr<f32>, #b1>
  }
  // Read from memory; and a scalar load.
  scf.for %t = %c0 to %n step %c1 : i32 {
    %slot = tile.addptr %table, %t : !tile.ptr<i32>, i32
    %first = tile.load %slot : !tile.ptr<i32>
    %fs = tile.splat %first : i32 -> tensor<512xi32, #b1>
    %p = tile.addptr %p0, %fs : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
    %v = tile.load %p : tensor<512x!tile.ptr<f32>, #b1>
    scf.for %i = %c0 to %k step %c1 : i32 {
      tile.store %p, %v : tensor<512x!tile.ptr<f32>, #b1>
    }
  }
  return
}
