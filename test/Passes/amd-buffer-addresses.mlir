// RUN: terrazzo-opt %s -split-input-file --terrazzo-amd-buffer-addresses | FileCheck %s

// terrazzo-amd-buffer-addresses: accesses addressed as a base pointer plus
// i32 offsets that are not negative, which buffer operations take.

// A matmul-like loop: the pointers start at a + rows * stride + columns (a
// chain of addptrs and a broadcast) and advance by a stride each
// iteration. They become carried i32 offsets from the same start,
// advanced by arith.addi; the load reads addptr(splat(a), offsets), and so
// does the use after the loop.
// CHECK-LABEL: func.func @carried
// CHECK-SAME: (%[[A:.+]]: !tile.ptr<f16> {tile.pointer_range = 32 : i32}, %[[STRIDE:.+]]: i32
// CHECK: %[[ROWS:.+]] = arith.muli
// CHECK: %[[WIDE:.+]] = tile.broadcast %[[ROWS]] : tensor<16x1xi32> -> tensor<16x8xi32>
// CHECK: %[[START:.+]] = arith.addi %[[WIDE]], %{{.+}} : tensor<16x8xi32>
// CHECK: %[[LOOP:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[OFFS:.+]] = %[[START]]) -> (tensor<16x8xf16>, tensor<16x8xi32>)
// CHECK: %[[SPLAT:.+]] = tile.splat %[[A]] : !tile.ptr<f16> -> tensor<16x8x!tile.ptr<f16>>
// CHECK: %[[PTRS:.+]] = tile.addptr %[[SPLAT]], %[[OFFS]]
// CHECK: tile.load %[[PTRS]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[OFFS]], %{{.+}} : tensor<16x8xi32>
// CHECK: scf.yield %{{.+}}, %[[NEXT]]
// CHECK: %[[SPLAT2:.+]] = tile.splat %[[A]] : !tile.ptr<f16> -> tensor<16x8x!tile.ptr<f16>>
// CHECK: %[[LAST:.+]] = tile.addptr %[[SPLAT2]], %[[LOOP]]#1
// CHECK: tile.store %[[LAST]]
func.func @carried(%a: !tile.ptr<f16> {tile.pointer_range = 32 : i32}, %stride: i32 {tile.nonnegative}, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %rows = tile.make_range 0 to 16 : tensor<16xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ss = tile.splat %stride : i32 -> tensor<16x1xi32>
  %rs = arith.muli %r2, %ss : tensor<16x1xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<16x1x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %rs : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
  %ap1 = tile.broadcast %ap0 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x8x!tile.ptr<f16>>
  %cols = tile.make_range 0 to 8 : tensor<8xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %c2 : tensor<1x8xi32> -> tensor<16x8xi32>
  %ap = tile.addptr %ap1, %cb : tensor<16x8x!tile.ptr<f16>>, tensor<16x8xi32>
  %step = arith.constant dense<8> : tensor<16x8xi32>
  %zero = arith.constant dense<0.0> : tensor<16x8xf16>
  %r:2 = scf.for %i = %c0 to %k step %c8 iter_args(%acc = %zero, %p = %ap) -> (tensor<16x8xf16>, tensor<16x8x!tile.ptr<f16>>) : i32 {
    %x = tile.load %p : tensor<16x8x!tile.ptr<f16>>
    %s = arith.addf %acc, %x : tensor<16x8xf16>
    %p2 = tile.addptr %p, %step : tensor<16x8x!tile.ptr<f16>>, tensor<16x8xi32>
    scf.yield %s, %p2 : tensor<16x8xf16>, tensor<16x8x!tile.ptr<f16>>
  }
  tile.store %r#1, %r#0 : tensor<16x8x!tile.ptr<f16>>
  return
}

// -----

// A store through a chain (base + rows * stride, broadcast, + columns)
// reads addptr(splat(base), summed offsets); the chain stays for its other
// users.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[OUT:.+]]: !tile.ptr<f32>
// CHECK: %[[CHAIN:.+]] = tile.addptr %{{.+}}, %{{.+}} : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
// CHECK: %[[WIDE:.+]] = tile.broadcast %{{.+}} : tensor<16x1xi32> -> tensor<16x16xi32>
// CHECK: %[[SUM:.+]] = arith.addi %[[WIDE]], %{{.+}} : tensor<16x16xi32>
// CHECK: %[[SPLAT:.+]] = tile.splat %[[OUT]] : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
// CHECK: %[[PTRS:.+]] = tile.addptr %[[SPLAT]], %[[SUM]]
// CHECK: tile.store %[[PTRS]], %{{.+}} : tensor<16x16x!tile.ptr<f32>>
// CHECK: tile.ptr_to_int %[[CHAIN]]
func.func @chain(%out: !tile.ptr<f32> {tile.pointer_range = 32 : i32}, %stride: i32 {tile.nonnegative}) -> tensor<16x16xi64> {
  %rows = tile.make_range 0 to 16 : tensor<16xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ss = tile.splat %stride : i32 -> tensor<16x1xi32>
  %rs = arith.muli %r2, %ss : tensor<16x1xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<16x1x!tile.ptr<f32>>
  %op0 = tile.addptr %os, %rs : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
  %op1 = tile.broadcast %op0 : tensor<16x1x!tile.ptr<f32>> -> tensor<16x16x!tile.ptr<f32>>
  %cols = tile.make_range 0 to 16 : tensor<16xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %cb = tile.broadcast %c2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %op = tile.addptr %op1, %cb : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
  %v = arith.sitofp %cb : tensor<16x16xi32> to tensor<16x16xf32>
  tile.store %op, %v : tensor<16x16x!tile.ptr<f32>>
  %bits = tile.ptr_to_int %op : tensor<16x16x!tile.ptr<f32>> -> tensor<16x16xi64>
  return %bits : tensor<16x16xi64>
}

// -----

// Must not: a step that may be negative (a plain i32 argument), a start
// that may be (rows times such a stride), i64 offsets, and a loop that
// only carries the pointers (no access through them) keep their pointers.
// CHECK-LABEL: func.func @must_not
// CHECK-NOT: arith.addi %{{.+}} : tensor<16xi32>
// CHECK: scf.for {{.*}} -> (tensor<16xf32>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>)
// CHECK-NOT: tile.splat
// CHECK-COUNT-3: tile.load %arg{{[0-9]+}} : tensor<16x!tile.ptr<f32>>
// CHECK-NOT: arith.addi
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @must_not(%x: !tile.ptr<f32> {tile.pointer_range = 32 : i32}, %s: i32, %k: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %p0 = tile.addptr %xs, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %ss = tile.splat %s : i32 -> tensor<16xi32>
  %rs = arith.muli %r, %ss : tensor<16xi32>
  %q0 = tile.addptr %xs, %rs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %r64 = arith.extsi %r : tensor<16xi32> to tensor<16xi64>
  %w0 = tile.addptr %xs, %r64 : tensor<16x!tile.ptr<f32>>, tensor<16xi64>
  %step = arith.constant dense<16> : tensor<16xi32>
  %step64 = arith.constant dense<16> : tensor<16xi64>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %res:5 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %p = %p0, %q = %q0, %w = %w0, %t = %p0) -> (tensor<16xf32>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>) : i32 {
    %a = tile.load %p : tensor<16x!tile.ptr<f32>>
    %b = tile.load %q : tensor<16x!tile.ptr<f32>>
    %c = tile.load %w : tensor<16x!tile.ptr<f32>>
    %ab = arith.addf %a, %b : tensor<16xf32>
    %abc = arith.addf %ab, %c : tensor<16xf32>
    %sum = arith.addf %acc, %abc : tensor<16xf32>
    // Advanced by a step that may be negative.
    %p2 = tile.addptr %p, %ss : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    %q2 = tile.addptr %q, %step : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    %w2 = tile.addptr %w, %step64 : tensor<16x!tile.ptr<f32>>, tensor<16xi64>
    %t2 = tile.addptr %t, %step : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    scf.yield %sum, %p2, %q2, %w2, %t2 : tensor<16xf32>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>, tensor<16x!tile.ptr<f32>>
  }
  return %res#0 : tensor<16xf32>
}

// -----

// Must not: the carried pointers of @carried from an argument without
// tile.pointer_range (its tensor may be 2 GiB or more: i32 offsets would
// not reach all of it) stay pointers.
// CHECK-LABEL: func.func @unknown_range
// CHECK-NOT: tensor<16xi32>)
// CHECK: scf.for {{.*}} -> (tensor<16xf32>, tensor<16x!tile.ptr<f32>>)
// CHECK: tile.load %arg{{[0-9]+}} : tensor<16x!tile.ptr<f32>>
func.func @unknown_range(%x: !tile.ptr<f32>, %k: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %p0 = tile.addptr %xs, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %step = arith.constant dense<16> : tensor<16xi32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %res:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %p = %p0) -> (tensor<16xf32>, tensor<16x!tile.ptr<f32>>) : i32 {
    %a = tile.load %p : tensor<16x!tile.ptr<f32>>
    %sum = arith.addf %acc, %a : tensor<16xf32>
    %p2 = tile.addptr %p, %step : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
    scf.yield %sum, %p2 : tensor<16xf32>, tensor<16x!tile.ptr<f32>>
  }
  return %res#0 : tensor<16xf32>
}
