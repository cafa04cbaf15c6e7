// RUN: terrazzo-opt %s -split-input-file -terrazzo-promote-offsets | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file -terrazzo-promote-offsets=all-pointers=true | FileCheck %s --check-prefix=ALL

// pid * 1024 + arange wraps past 2^31 elements (pid may be up to 2^31 - 1).
// Split into the block's start (the same for every element) and the offsets
// in the block: the start is computed in i64 and advances the base pointer
// once; the offsets in the block stay i32. The mask `offs < n` becomes
// `arange < n - start`, the right side computed in i64 and clamped to just
// outside arange's range (to multiples of 2^16), so the comparison per
// element stays i32 and its outcome is that of the exact one.

// CHECK-LABEL: func.func @vector_add
// CHECK: %[[PID:.*]] = tile.program_id x : i32
// CHECK: %[[PID64:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK: %[[C64:.*]] = arith.constant 1024 : i64
// CHECK: %[[START:.*]] = arith.muli %[[PID64]], %[[C64]] : i64
// CHECK: %[[R:.*]] = tile.make_range 0 to 1024 : tensor<1024xi32>
// CHECK: %[[LEFT:.*]] = arith.subi %arg1, %[[START]] : i64
// CHECK: %[[LO:.*]] = arith.constant -65536 : i64
// CHECK: %[[A:.*]] = arith.maxsi %[[LEFT]], %[[LO]] : i64
// CHECK: %[[HI:.*]] = arith.constant 65536 : i64
// CHECK: %[[B:.*]] = arith.minsi %[[A]], %[[HI]] : i64
// CHECK: %[[T:.*]] = arith.trunci %[[B]] : i64 to i32
// CHECK: %[[TS:.*]] = tile.splat %[[T]] : i32 -> tensor<1024xi32>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[R]], %[[TS]] : tensor<1024xi32>
// CHECK: %[[BASE:.*]] = tile.addptr %arg0, %[[START]] : !tile.ptr<i8>, i64
// CHECK: %[[BASES:.*]] = tile.splat %[[BASE]] : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
// CHECK: %[[P:.*]] = tile.addptr %[[BASES]], %[[R]] : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
// CHECK: tile.load %[[P]], %[[M]]
// CHECK-NOT: tensor<1024xi64>
// CHECK: return
func.func @vector_add(%x: !tile.ptr<i8>, %n: i64) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %wide = arith.extsi %offs : tensor<1024xi32> to tensor<1024xi64>
  %ns = tile.splat %n : i64 -> tensor<1024xi64>
  %m = arith.cmpi slt, %wide, %ns : tensor<1024xi64>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
  %p = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
  %v = tile.load %p, %m : tensor<1024x!tile.ptr<i8>>
  tile.store %p, %v, %m : tensor<1024x!tile.ptr<i8>>
  return
}


// -----

// An i32 bound: sign-extended, then as above.

// CHECK-LABEL: func.func @i32_bound
// CHECK: %[[N64:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[LEFT:.*]] = arith.subi %[[N64]], %[[START]] : i64
// CHECK: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[BASE:.*]] = tile.addptr %arg0, %[[START]] : !tile.ptr<f32>, i64
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
// CHECK: tile.load %{{.*}}, %[[M]]
// CHECK-NOT: tensor<256xi64>
func.func @i32_bound(%x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %s = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %p, %m : tensor<256x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<256x!tile.ptr<f32>>
  return
}


// -----

// A row times a stride argument may wrap (the classic row * stride past 2^31
// elements): the block's first row times the stride is the base's i64
// advance; the rows in the block times the stride may still pass 2^31, so
// those offsets are i64 per element, rebuilt through expand_dims and
// broadcast (what cannot wrap, sign-extended).

// CHECK-LABEL: func.func @row_stride
// CHECK: %[[S64:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[ADVANCE:.*]] = arith.muli %[[S64]], %[[ROW0]] : i64
// CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: tile.broadcast %{{.*}} : tensor<16x1xi64> -> tensor<16x64xi64>
// CHECK: %[[BASE:.*]] = tile.addptr %arg0, %[[ADVANCE]] : !tile.ptr<f32>, i64
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi64>
func.func @row_stride(%x: !tile.ptr<f32>, %stride: i32) {
  %pid = tile.program_id x : i32
  %c16 = arith.constant 16 : i32
  %row0 = arith.muli %pid, %c16 : i32
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<16xi32>
  %rows = arith.addi %row0s, %r : tensor<16xi32>
  %ss = tile.splat %stride : i32 -> tensor<16xi32>
  %rowoff = arith.muli %rows, %ss : tensor<16xi32>
  %e = tile.expand_dims %rowoff axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %b = tile.broadcast %e : tensor<16x1xi32> -> tensor<16x64xi32>
  %c = tile.make_range 0 to 64 : tensor<64xi32>
  %ce = tile.expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %b, %cb : tensor<16x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %v = tile.load %p : tensor<16x64x!tile.ptr<f32>>
  tile.store %p, %v : tensor<16x64x!tile.ptr<f32>>
  return
}


// -----

// NEGATIVE: offsets proven to stay in i32 (a 64 x 64 block, rows * 64 + cols,
// plus a constant; an unsigned comparison; a product of make_ranges) are
// left as they are.

// CHECK-LABEL: func.func @provable
// CHECK-NOT: i64
// CHECK: return
func.func @provable(%x: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64xi32>
  %rows = arith.muli %r, %c64 : tensor<64xi32>
  %re = tile.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = tile.broadcast %re : tensor<64x1xi32> -> tensor<64x64xi32>
  %ce = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<64x64xi32>
  %sum = arith.addi %rb, %cb : tensor<64x64xi32>
  %c7 = arith.constant dense<7> : tensor<64x64xi32>
  %offs = arith.addi %sum, %c7 : tensor<64x64xi32>
  %sq = arith.muli %offs, %offs : tensor<64x64xi32>
  %ns = tile.splat %n : i32 -> tensor<64x64xi32>
  %m = arith.cmpi slt, %sq, %ns : tensor<64x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %p, %m : tensor<64x64x!tile.ptr<f32>>
  tile.store %p, %v : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// NEGATIVE: an unsigned comparison is about the bits and stays on i32; the
// addptr of the same wrapping offset is still promoted.

// CHECK-LABEL: func.func @unsigned_compare
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK: tile.addptr %arg0, %{{.*}} : !tile.ptr<f32>, i64
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
func.func @unsigned_compare(%x: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %s = tile.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %s, %r : tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi ult, %offs, %ns : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>
  return
}


// -----

// NEGATIVE: a comparison that does not make a mask (a causal mask's select
// in an attention loop) keeps Triton's wrapping i32 arithmetic.

// CHECK-LABEL: func.func @compare_not_a_mask
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK: arith.select
func.func @compare_not_a_mask(%x: !tile.ptr<f32>, %k: i32) {
  %pid = tile.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %s = tile.splat %start : i32 -> tensor<64xi32>
  %offs = arith.addi %s, %r : tensor<64xi32>
  %ks = tile.splat %k : i32 -> tensor<64xi32>
  %causal = arith.cmpi sge, %offs, %ks : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %p : tensor<64x!tile.ptr<f32>>
  %w = arith.select %causal, %v, %zero : tensor<64xi1>, tensor<64xf32>
  tile.store %p, %w : tensor<64x!tile.ptr<f32>>
  return
}
// -----

// A K loop to ceil(K / 32) from 0 by 1 (tutorial 03's `range(0,
// tl.cdiv(K, BLOCK_K))`): in its body the tail `K - k * 32` is in [1, K],
// so the mask stays the i32 comparison it was (no i64 bound, no clamp).

// CHECK-LABEL: func.func @k_tail_loop_to_cdiv
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK-NOT: arith.extsi
// CHECK-NOT: arith.maxsi
// CHECK: %[[DONE:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK: %[[LEFT:.*]] = arith.subi %arg1, %[[DONE]] : i32
// CHECK: %[[LEFTS:.*]] = tile.splat %[[LEFT]] : i32 -> tensor<32xi32>
// CHECK: arith.cmpi slt, %{{.*}}, %[[LEFTS]] : tensor<32xi32>
// CHECK: scf.yield
func.func @k_tail_loop_to_cdiv(%a: !tile.ptr<f16>, %k: i32, %stride: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %kk = arith.addi %k, %c31 : i32
  %n = arith.divsi %kk, %c32 : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  %p0 = tile.addptr %as, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  %zero = arith.constant dense<0.0> : tensor<32xf16>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %acc = %zero) -> (tensor<32x!tile.ptr<f16>>, tensor<32xf16>) : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %done : i32
    %lefts = tile.splat %left : i32 -> tensor<32xi32>
    %m = arith.cmpi slt, %r, %lefts : tensor<32xi32>
    %v = tile.load %p, %m, %zero : tensor<32x!tile.ptr<f16>>
    %sum = arith.addf %acc, %v : tensor<32xf16>
    %next = tile.addptr %p, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
    scf.yield %next, %sum : tensor<32x!tile.ptr<f16>>, tensor<32xf16>
  }
  tile.store %p0, %res#1 : tensor<32x!tile.ptr<f16>>
  return
}

// -----

// Must not: the same tail where the loop starts at a bound that may be
// negative (a split-K range's first block), steps by 2, or ends at
// ceil(K / 16) for steps of 32 of K: the bound is an i64 scalar, clamped.

// CHECK-LABEL: func.func @k_tail_loop_not_provable
// CHECK: scf.for
// CHECK: arith.maxsi
// CHECK: scf.for
// CHECK: arith.maxsi
// CHECK: scf.for
// CHECK: arith.maxsi
func.func @k_tail_loop_not_provable(%a: !tile.ptr<f16>, %k: i32, %first: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c15 = arith.constant 15 : i32
  %c16 = arith.constant 16 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %kk = arith.addi %k, %c31 : i32
  %n = arith.divsi %kk, %c32 : i32
  %k16 = arith.addi %k, %c15 : i32
  %n16 = arith.divsi %k16, %c16 : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  %p0 = tile.addptr %as, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  %zero = arith.constant dense<0.0> : tensor<32xf16>
  scf.for %i = %first to %n step %c1 : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %done : i32
    %lefts = tile.splat %left : i32 -> tensor<32xi32>
    %m = arith.cmpi slt, %r, %lefts : tensor<32xi32>
    tile.store %p0, %zero, %m : tensor<32x!tile.ptr<f16>>
  }
  scf.for %i = %c0 to %n step %c2 : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %done : i32
    %lefts = tile.splat %left : i32 -> tensor<32xi32>
    %m = arith.cmpi slt, %r, %lefts : tensor<32xi32>
    tile.store %p0, %zero, %m : tensor<32x!tile.ptr<f16>>
  }
  scf.for %i = %c0 to %n16 step %c1 : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %done : i32
    %lefts = tile.splat %left : i32 -> tensor<32xi32>
    %m = arith.cmpi slt, %r, %lefts : tensor<32xi32>
    tile.store %p0, %zero, %m : tensor<32x!tile.ptr<f16>>
  }
  return
}

// -----

// A K loop (tutorial 03): the pointers step by 32 * stride, which may wrap:
// one i64 step splat over the block; the K-tail mask `arange < K - k * 32`
// stays an i32 comparison per element, against a clamped i64 scalar.

// CHECK-LABEL: func.func @k_tail_loop
// CHECK: %[[K64:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[R:.*]] = tile.make_range 0 to 32 : tensor<32xi32>
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: %[[DONE:.*]] = arith.muli %[[I64]], %{{.*}} : i64
// CHECK: %[[LEFT:.*]] = arith.subi %[[K64]], %[[DONE]] : i64
// CHECK: arith.cmpi slt, %[[R]], %{{.*}} : tensor<32xi32>
// CHECK: %[[STEP:.*]] = tile.splat %{{.*}} : i64 -> tensor<32xi64>
// CHECK: tile.addptr %{{.*}}, %[[STEP]] : tensor<32x!tile.ptr<f16>>, tensor<32xi64>
func.func @k_tail_loop(%a: !tile.ptr<f16>, %k: i32, %stride: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  %p0 = tile.addptr %as, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  %step = arith.muli %stride, %c32 : i32
  %steps = tile.splat %step : i32 -> tensor<32xi32>
  %zero = arith.constant dense<0.0> : tensor<32xf16>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %acc = %zero) -> (tensor<32x!tile.ptr<f16>>, tensor<32xf16>) : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %done : i32
    %lefts = tile.splat %left : i32 -> tensor<32xi32>
    %m = arith.cmpi slt, %r, %lefts : tensor<32xi32>
    %v = tile.load %p, %m, %zero : tensor<32x!tile.ptr<f16>>
    %sum = arith.addf %acc, %v : tensor<32xf16>
    %next = tile.addptr %p, %steps : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
    scf.yield %next, %sum : tensor<32x!tile.ptr<f16>>, tensor<32xf16>
  }
  tile.store %p0, %res#1 : tensor<32x!tile.ptr<f16>>
  return
}

// -----

// An attention's query rows (pid * 64 + arange) are used before a loop
// over keys and after it. Before and after, each use gets an i64 base and
// its own i64 offsets per element, built where it is used: no i64 tensor
// lives across the loop. In the loop the key offsets change per iteration
// and may wrap: computed whole in i64 there (split, their i64 part per
// element would not change and would be live across the loop).

// CHECK-LABEL: func.func @rows_across_loop
// CHECK: %[[S64:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[R:.*]] = tile.make_range 0 to 64 : tensor<64xi32>
// CHECK: %[[QADV:.*]] = arith.muli %[[S64]], %[[START]] : i64
// CHECK: %[[QBASE:.*]] = tile.addptr %arg0, %[[QADV]] : !tile.ptr<f16>, i64
// CHECK: tile.load
// CHECK-NOT: xi64>
// CHECK: scf.for %[[J:[^ ]*]] =
// CHECK: %[[J64:.*]] = arith.extsi %[[J]] : i32 to i64
// CHECK: %[[JS:.*]] = tile.splat %[[J64]] : i64 -> tensor<64xi64>
// CHECK: %[[R64:.*]] = arith.extsi %[[R]] : tensor<64xi32> to tensor<64xi64>
// CHECK: %[[COLS:.*]] = arith.addi %[[JS]], %[[R64]] : tensor<64xi64>
// CHECK: %[[KOFF:.*]] = arith.muli %[[COLS]], %{{.*}} : tensor<64xi64>
// CHECK: tile.addptr %{{.*}}, %[[KOFF]] : tensor<64x!tile.ptr<f16>>, tensor<64xi64>
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: %[[OADV:.*]] = arith.muli %[[S64]], %[[START]] : i64
// CHECK: %[[OR64:.*]] = arith.extsi %[[R]] : tensor<64xi32> to tensor<64xi64>
// CHECK: %[[OOFF:.*]] = arith.muli %[[OR64]], %{{.*}} : tensor<64xi64>
// CHECK: %[[OBASE:.*]] = tile.addptr %arg2, %[[OADV]] : !tile.ptr<f16>, i64
// CHECK: %[[OBASES:.*]] = tile.splat %[[OBASE]]
// CHECK: tile.addptr %[[OBASES]], %[[OOFF]] : tensor<64x!tile.ptr<f16>>, tensor<64xi64>
func.func @rows_across_loop(%q: !tile.ptr<f16>, %kp: !tile.ptr<f16>, %o: !tile.ptr<f16>, %stride: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %pid = tile.program_id x : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %starts = tile.splat %start : i32 -> tensor<64xi32>
  %rows = arith.addi %starts, %r : tensor<64xi32>
  %strides = tile.splat %stride : i32 -> tensor<64xi32>
  %qoff = arith.muli %rows, %strides : tensor<64xi32>
  %qs = tile.splat %q : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %qp = tile.addptr %qs, %qoff : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %qv = tile.load %qp : tensor<64x!tile.ptr<f16>>
  %ks = tile.splat %kp : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %acc = scf.for %j = %c0 to %n step %c64 iter_args(%a = %qv) -> (tensor<64xf16>) : i32 {
    %js = tile.splat %j : i32 -> tensor<64xi32>
    %cols = arith.addi %js, %r : tensor<64xi32>
    %koff = arith.muli %cols, %strides : tensor<64xi32>
    %kptr = tile.addptr %ks, %koff : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
    %kv = tile.load %kptr : tensor<64x!tile.ptr<f16>>
    %s = arith.addf %a, %kv : tensor<64xf16>
    scf.yield %s : tensor<64xf16>
  }
  %ooff = arith.muli %rows, %strides : tensor<64xi32>
  %os = tile.splat %o : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %op = tile.addptr %os, %ooff : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  tile.store %op, %acc : tensor<64x!tile.ptr<f16>>
  return
}

// -----

// A mask whose part per element may itself wrap (arange * stride) cannot be
// compared in i32: the comparison is made in i64 on the exact values.

// CHECK-LABEL: func.func @wrapping_difference
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi64>
// CHECK: tile.addptr %arg0, %{{.*}} : !tile.ptr<f32>, i64
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
func.func @wrapping_difference(%x: !tile.ptr<f32>, %stride: i32, %n: i32) {
  %pid = tile.program_id x : i32
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %strides = tile.splat %stride : i32 -> tensor<64xi32>
  %scaled = arith.muli %r, %strides : tensor<64xi32>
  %starts = tile.splat %start : i32 -> tensor<64xi32>
  %offs = arith.addi %starts, %scaled : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  tile.store %p, %v, %m : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// An offset that carries a hint (tl.multiple_of) is not split, which would
// lose it: it is promoted whole, the rebuilt sum keeping the hint.

// CHECK-LABEL: func.func @hinted
// CHECK: arith.addi %{{.*}}, %{{.*}} {tile.divisibility = dense<256> : tensor<1xi32>} : tensor<256xi64>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<256x!tile.ptr<f32>>, tensor<256xi64>
func.func @hinted(%x: !tile.ptr<f32>) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %starts, %r {tile.divisibility = dense<256> : tensor<1xi32>} : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f32>>
  tile.store %p, %v : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// Must not: the pointer's argument carries tile.pointer_range = 32 (its
// tensor is smaller than 2 GiB: the launch key's "fits in 2^31 bytes"),
// so the offsets formed from it do not wrap in a correct program and stay
// as they are, and so does the mask of its accesses. With all-pointers
// (TERRAZZO_PROMOTE_OFFSETS=1) they are promoted as in @vector_add.

// CHECK-LABEL: func.func @in_range
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<1024xi32>
// CHECK: %[[WIDE:.*]] = arith.extsi %[[OFFS]] : tensor<1024xi32> to tensor<1024xi64>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[WIDE]], %{{.*}} : tensor<1024xi64>
// CHECK: %[[P:.*]] = tile.addptr %{{.*}}, %[[OFFS]] : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
// CHECK: tile.load %[[P]], %[[M]]
// CHECK-NOT: tile.addptr %arg0
// CHECK: return
// ALL-LABEL: func.func @in_range
// ALL: %[[START:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// ALL: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32>
// ALL: %[[BASE:.*]] = tile.addptr %arg0, %[[START]] : !tile.ptr<i8>, i64
// ALL: tile.load %{{.*}}, %[[M]]
func.func @in_range(%x: !tile.ptr<i8> {tile.pointer_range = 32 : i32}, %n: i64) {
  %pid = tile.program_id x : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %wide = arith.extsi %offs : tensor<1024xi32> to tensor<1024xi64>
  %ns = tile.splat %n : i64 -> tensor<1024xi64>
  %m = arith.cmpi slt, %wide, %ns : tensor<1024xi64>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
  %p = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
  %v = tile.load %p, %m : tensor<1024x!tile.ptr<i8>>
  tile.store %p, %v, %m : tensor<1024x!tile.ptr<i8>>
  return
}

// -----

// A mask shared by an access through a pointer in range (x) and one
// through a pointer that may address more (out: tile.pointer_range = 64,
// wider than 32 bits): x's offsets stay i32 from x itself, out's block
// start advances out in i64, and the mask is promoted (split), since it
// guards out's store too.

// CHECK-LABEL: func.func @mixed
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[XS:.*]] = tile.splat %arg0 : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
// CHECK: %[[XP:.*]] = tile.addptr %[[XS]], %{{.*}} : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
// CHECK: tile.load %[[XP]], %[[M]]
// CHECK: %[[BASE:.*]] = tile.addptr %arg1, %[[START]] : !tile.ptr<f32>, i64
// CHECK: %[[BASES:.*]] = tile.splat %[[BASE]]
// CHECK: %[[OP:.*]] = tile.addptr %[[BASES]], %{{.*}} : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
// CHECK: tile.store %[[OP]], %{{.*}}, %[[M]]
// CHECK-NOT: tile.addptr %arg0
func.func @mixed(%x: !tile.ptr<f32> {tile.pointer_range = 32 : i32}, %out: !tile.ptr<f32> {tile.pointer_range = 64 : i32}, %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %s = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %xp, %m : tensor<256x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %op, %v, %m : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// Must not: pointers carried by a loop from an argument in range, advanced
// by a step each iteration (a K loop's), stay as they are.

// CHECK-LABEL: func.func @carried_in_range
// CHECK-NOT: i64
// CHECK: scf.for
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
// CHECK-NOT: i64
// CHECK: return
func.func @carried_in_range(%a: !tile.ptr<f16> {tile.pointer_range = 32 : i32}, %k: i32) {
  %pid = tile.program_id x : i32
  %c4096 = arith.constant 4096 : i32
  %start = arith.muli %pid, %c4096 : i32
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %s = tile.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %s, %r : tensor<128xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %p0 = tile.addptr %as, %offs : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant dense<128> : tensor<128xi32>
  %end = scf.for %i = %c0 to %k step %c1 iter_args(%p = %p0) -> (tensor<128x!tile.ptr<f16>>) : i32 {
    %v = tile.load %p : tensor<128x!tile.ptr<f16>>
    tile.store %p, %v : tensor<128x!tile.ptr<f16>>
    %next = tile.addptr %p, %step : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
    scf.yield %next : tensor<128x!tile.ptr<f16>>
  }
  return
}

// -----

// Must not: a pointer in range seen as another element type (a kernel
// taking fp8 data as int8) stays in range.

// CHECK-LABEL: func.func @bitcast_in_range
// CHECK-NOT: i64
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xi32>
// CHECK-NOT: i64
// CHECK: return
func.func @bitcast_in_range(%a: !tile.ptr<i8> {tile.pointer_range = 32 : i32}) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %s = tile.splat %start : i32 -> tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %f8 = tile.bitcast %a : !tile.ptr<i8> -> !tile.ptr<f8E4M3FN>
  %as = tile.splat %f8 : !tile.ptr<f8E4M3FN> -> tensor<256x!tile.ptr<f8E4M3FN>>
  %p = tile.addptr %as, %offs : tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f8E4M3FN>>
  tile.store %p, %v : tensor<256x!tile.ptr<f8E4M3FN>>
  return
}
