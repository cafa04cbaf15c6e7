// RUN: terrazzo-opt %s -split-input-file --terrazzo-loads-to-descriptors --canonicalize --cse | FileCheck %s

// terrazzo-loads-to-descriptors: masked pointer loads in loops that only
// feed dots become descriptor loads when the pass proves the box they read.

// Pointers computed from k (Triton's `a_ptr + offs_m[:, None] * K + ks`):
// A (M x K) at (pid * 128, k * 32) and B (K x N) at (k * 32, pid_y * 128),
// their descriptors at the top of the kernel with the masks' bounds as
// extents and the row scales as strides.
// CHECK-LABEL: func.func @computed_from_k
// CHECK: %[[PX:.*]] = tile.program_id x
// CHECK: %[[PY:.*]] = tile.program_id y
// CHECK: %[[SK:.*]] = arith.extsi %arg5 : i32 to i64
// CHECK-NEXT: %[[AD:.*]] = tile.make_tensor_desc %arg0, [%arg3, %arg5], [%[[SK]], %c1_i64] : <f16> -> <tensor<128x32xf16>>
// CHECK-NEXT: %[[SN:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK-NEXT: %[[BD:.*]] = tile.make_tensor_desc %arg1, [%arg5, %arg4], [%[[SN]], %c1_i64] : <f16> -> <tensor<32x128xf16>>
// CHECK-NEXT: scf.for %[[I:[a-z0-9_]+]] =
// CHECK-NEXT: %[[RM:.*]] = arith.muli %[[PX]], %c128_i32
// CHECK-NEXT: %[[KK:.*]] = arith.muli %[[I]], %c32_i32
// CHECK-NEXT: %[[A:.*]] = tile.desc_load %[[AD]][%[[RM]], %[[KK]]] : <tensor<128x32xf16>> -> tensor<128x32xf16>
// CHECK-NEXT: %[[RN:.*]] = arith.muli %[[PY]], %c128_i32
// CHECK-NEXT: %[[B:.*]] = tile.desc_load %[[BD]][%[[KK]], %[[RN]]] : <tensor<32x128xf16>> -> tensor<32x128xf16>
// CHECK-NEXT: tile.dot %[[A]], %[[B]]
func.func @computed_from_k(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c128 = arith.constant 128 : i32
  %zA = arith.constant dense<0.0> : tensor<128x32xf16>
  %zB = arith.constant dense<0.0> : tensor<32x128xf16>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %px = tile.program_id x : i32
  %py = tile.program_id y : i32
  %rm0 = arith.muli %px, %c128 : i32
  %rn0 = arith.muli %py, %c128 : i32
  %r128 = tile.make_range 0 to 128 : tensor<128xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<128xi32>
  %offm = arith.addi %rm0s, %r128 : tensor<128xi32>
  %rn0s = tile.splat %rn0 : i32 -> tensor<128xi32>
  %offn = arith.addi %rn0s, %r128 : tensor<128xi32>
  %offm2 = tile.expand_dims %offm axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ks = tile.splat %k : i32 -> tensor<128x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<128x1xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %arp = tile.addptr %asp, %arow : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %arpb = tile.broadcast %arp : tensor<128x1x!tile.ptr<f16>> -> tensor<128x32x!tile.ptr<f16>>
  %ms = tile.splat %m : i32 -> tensor<128x1xi32>
  %mrow = arith.cmpi slt, %offm2, %ms : tensor<128x1xi32>
  %mrowb = tile.broadcast %mrow : tensor<128x1xi1> -> tensor<128x32xi1>
  %ks1 = tile.splat %k : i32 -> tensor<1x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %bsp = tile.splat %b : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %offn2 = tile.expand_dims %offn axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %offn2b = tile.broadcast %offn2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %ks2 = tile.splat %k : i32 -> tensor<32x1xi32>
  %ns1 = tile.splat %n : i32 -> tensor<1x128xi32>
  %ncol = arith.cmpi slt, %offn2, %ns1 : tensor<1x128xi32>
  %ncolb = tile.broadcast %ncol : tensor<1x128xi1> -> tensor<32x128xi1>
  %steps = arith.divsi %k, %c32 : i32
  %res = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %kks = tile.splat %kk : i32 -> tensor<32xi32>
    %kidx = arith.addi %kks, %r32 : tensor<32xi32>
    %kcol = tile.expand_dims %kidx axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %kcolb = tile.broadcast %kcol : tensor<1x32xi32> -> tensor<128x32xi32>
    %ap = tile.addptr %arpb, %kcolb : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %kmask = arith.cmpi slt, %kcol, %ks1 : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<128x32xi1>
    %amask = arith.andi %mrowb, %kmaskb : tensor<128x32xi1>
    %x = tile.load %ap, %amask, %zA : tensor<128x32x!tile.ptr<f16>>
    %krow = tile.expand_dims %kidx axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %krow, %ns : tensor<32x1xi32>
    %brp = tile.addptr %bsp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %brpb = tile.broadcast %brp : tensor<32x1x!tile.ptr<f16>> -> tensor<32x128x!tile.ptr<f16>>
    %bp = tile.addptr %brpb, %offn2b : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %kmask2 = arith.cmpi slt, %krow, %ks2 : tensor<32x1xi32>
    %kmask2b = tile.broadcast %kmask2 : tensor<32x1xi1> -> tensor<32x128xi1>
    %bmask = arith.andi %kmask2b, %ncolb : tensor<32x128xi1>
    %y = tile.load %bp, %bmask, %zB : tensor<32x128x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<128x32xf16> * tensor<32x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  return %res : tensor<128x128xf32>
}

// -----

// Pointers carried by the loop: A advanced by 32 elements (columns), B by
// 32 rows (32 * its row stride); the masks `offs_k < K - k * 32` cancel with
// the advance to the extent K. The coordinates are the iteration's: k * 32.
// The same loads with rows wrapped by `% M` (Triton's tutorial) must not
// change: no box holds wrapped rows.
// CHECK-LABEL: func.func @carried
// CHECK: %[[RM:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK: %[[AD:.*]] = tile.make_tensor_desc %arg0, [%arg3, %arg5], [%{{.*}}, %c1_i64] : <f16> -> <tensor<64x32xf16>>
// CHECK: %[[BD:.*]] = tile.make_tensor_desc %arg1, [%arg5, %arg4], [%{{.*}}, %c1_i64] : <f16> -> <tensor<32x64xf16>>
// CHECK: scf.for %[[I:[a-z0-9_]+]] =
// CHECK: %[[KK:.*]] = arith.muli %[[I]], %c32_i32 : i32
// CHECK-NEXT: tile.desc_load %[[AD]][%[[RM]], %[[KK]]] : <tensor<64x32xf16>>
// CHECK-NEXT: tile.desc_load %[[BD]][%[[KK]], %c0_i32] : <tensor<32x64xf16>>
// CHECK-LABEL: func.func @wrapped_rows
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @carried(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32>, %m: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zA = arith.constant dense<0.0> : tensor<64x32xf16>
  %zB = arith.constant dense<0.0> : tensor<32x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %px = tile.program_id x : i32
  %rm0 = arith.muli %px, %c64 : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<64xi32>
  %offm = arith.addi %rm0s, %r64 : tensor<64xi32>
  %offm2 = tile.expand_dims %offm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
  %kc = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %kcb = tile.broadcast %kc : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<64x32xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a0 = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %mrow = arith.cmpi slt, %offm2, %ms : tensor<64x1xi32>
  %mrowb = tile.broadcast %mrow : tensor<64x1xi1> -> tensor<64x32xi1>
  %kr = tile.expand_dims %r32 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %brow = arith.muli %kr, %ns : tensor<32x1xi32>
  %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x64xi32>
  %nc = tile.expand_dims %r64 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ncb = tile.broadcast %nc : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %browb, %ncb : tensor<32x64xi32>
  %bsp = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %b0 = tile.addptr %bsp, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %n1 = tile.splat %n : i32 -> tensor<1x64xi32>
  %ncm = arith.cmpi slt, %nc, %n1 : tensor<1x64xi32>
  %ncmb = tile.broadcast %ncm : tensor<1x64xi1> -> tensor<32x64xi1>
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %bstepv = arith.muli %n, %c32 : i32
  %bstep = tile.splat %bstepv : i32 -> tensor<32x64xi32>
  %steps = arith.divsi %k, %c32 : i32
  %res:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0, %pa = %a0, %pb = %b0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %kk : i32
    %lefta = tile.splat %left : i32 -> tensor<1x32xi32>
    %kmask = arith.cmpi slt, %kc, %lefta : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<64x32xi1>
    %amask = arith.andi %mrowb, %kmaskb : tensor<64x32xi1>
    %x = tile.load %pa, %amask, %zA : tensor<64x32x!tile.ptr<f16>>
    %leftb = tile.splat %left : i32 -> tensor<32x1xi32>
    %kmask2 = arith.cmpi slt, %kr, %leftb : tensor<32x1xi32>
    %kmask2b = tile.broadcast %kmask2 : tensor<32x1xi1> -> tensor<32x64xi1>
    %bmask = arith.andi %kmask2b, %ncmb : tensor<32x64xi1>
    %y = tile.load %pb, %bmask, %zB : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pb2 = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}
func.func @wrapped_rows(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: tensor<32x64xf16>, %m: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zA = arith.constant dense<0.0> : tensor<64x32xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %px = tile.program_id x : i32
  %rm0 = arith.muli %px, %c64 : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<64xi32>
  %offm = arith.addi %rm0s, %r64 : tensor<64xi32>
  %msp = tile.splat %m : i32 -> tensor<64xi32>
  %wrapped = arith.remsi %offm, %msp : tensor<64xi32>
  %offm2 = tile.expand_dims %wrapped axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
  %kc = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %kcb = tile.broadcast %kc : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<64x32xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a0 = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %steps = arith.divsi %k, %c32 : i32
  %res:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0, %pa = %a0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %kk : i32
    %lefta = tile.splat %left : i32 -> tensor<1x32xi32>
    %kmask = arith.cmpi slt, %kc, %lefta : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<64x32xi1>
    %x = tile.load %pa, %kmaskb, %zA : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %d, %pa2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}

// -----

// Must not:
// - a mask bound that does not cancel with the advance (`offs_k < K` with
//   pointers advanced each iteration: the extent would change);
// - a load without a mask (no extents);
// - a nonzero `other`;
// - a block that is stored, not only a dot operand;
// - a row stride not known to be a multiple of 16 bytes (TMA cannot).
// CHECK-LABEL: func.func @must_not
// CHECK-NOT: tile.make_tensor_desc
// CHECK-NOT: tile.desc_load
// CHECK-COUNT-5: tile.load
func.func @must_not(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: tensor<32x64xf16>, %m: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %odd: i32, %out: tensor<64x32x!tile.ptr<f16>>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zA = arith.constant dense<0.0> : tensor<64x32xf16>
  %oneA = arith.constant dense<1.0> : tensor<64x32xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %px = tile.program_id x : i32
  %rm0 = arith.muli %px, %c64 : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<64xi32>
  %offm = arith.addi %rm0s, %r64 : tensor<64xi32>
  %offm2 = tile.expand_dims %offm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
  %kc = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %kcb = tile.broadcast %kc : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %arowb, %kcb : tensor<64x32xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a0 = tile.addptr %asp, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %odds = tile.splat %odd : i32 -> tensor<64x1xi32>
  %orow = arith.muli %offm2, %odds : tensor<64x1xi32>
  %orowb = tile.broadcast %orow : tensor<64x1xi32> -> tensor<64x32xi32>
  %ooff = arith.addi %orowb, %kcb : tensor<64x32xi32>
  %o0 = tile.addptr %asp, %ooff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %mrow = arith.cmpi slt, %offm2, %ms : tensor<64x1xi32>
  %mrowb = tile.broadcast %mrow : tensor<64x1xi1> -> tensor<64x32xi1>
  %kall = tile.splat %k : i32 -> tensor<1x32xi32>
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %steps = arith.divsi %k, %c32 : i32
  %res:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0, %pa = %a0, %po = %o0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %kk : i32
    %lefta = tile.splat %left : i32 -> tensor<1x32xi32>
    %kmask = arith.cmpi slt, %kc, %lefta : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<64x32xi1>
    %amask = arith.andi %mrowb, %kmaskb : tensor<64x32xi1>
    %fixed = arith.cmpi slt, %kc, %kall : tensor<1x32xi32>
    %fixedb = tile.broadcast %fixed : tensor<1x32xi1> -> tensor<64x32xi1>
    %fmask = arith.andi %mrowb, %fixedb : tensor<64x32xi1>
    %x1 = tile.load %pa, %fmask, %zA : tensor<64x32x!tile.ptr<f16>>
    %x2 = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
    %x3 = tile.load %pa, %amask, %oneA : tensor<64x32x!tile.ptr<f16>>
    %x4 = tile.load %pa, %amask, %zA : tensor<64x32x!tile.ptr<f16>>
    tile.store %out, %x4 : tensor<64x32x!tile.ptr<f16>>
    %x5 = tile.load %po, %amask, %zA : tensor<64x32x!tile.ptr<f16>>
    %s1 = arith.addf %x1, %x2 : tensor<64x32xf16>
    %d1 = tile.dot %x1, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %d2 = tile.dot %x2, %b, %d1 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %d3 = tile.dot %x3, %b, %d2 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %d4 = tile.dot %x4, %b, %d3 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %d5 = tile.dot %x5, %b, %d4 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %po2 = tile.addptr %po, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %d5, %pa2, %po2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}

// -----

// wgmma reads 8- and 32-bit operands only K-major: an int8 B block whose
// rows run along N keeps its load (it is transposed in registers anyway);
// the same block of float16 becomes a descriptor load.
// CHECK-LABEL: func.func @n_major_b
// CHECK: tile.desc_load %{{.*}} : <tensor<32x64xf16>>
// CHECK: tile.load %{{.*}} : tensor<32x64x!tile.ptr<i8>>
func.func @n_major_b(%b16: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b8: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %a16: tensor<64x32xf16>, %a8: tensor<64x32xi8>, %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) -> (tensor<64x64xf32>, tensor<64x64xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %z16 = arith.constant dense<0.0> : tensor<32x64xf16>
  %z8 = arith.constant dense<0> : tensor<32x64xi8>
  %f0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %i0 = arith.constant dense<0> : tensor<64x64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %ks = tile.splat %k : i32 -> tensor<32x1xi32>
  %nc = tile.expand_dims %r64 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ncb = tile.broadcast %nc : tensor<1x64xi32> -> tensor<32x64xi32>
  %n1 = tile.splat %n : i32 -> tensor<1x64xi32>
  %ncm = arith.cmpi slt, %nc, %n1 : tensor<1x64xi32>
  %ncmb = tile.broadcast %ncm : tensor<1x64xi1> -> tensor<32x64xi1>
  %s16 = tile.splat %b16 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %s8 = tile.splat %b8 : !tile.ptr<i8> -> tensor<32x1x!tile.ptr<i8>>
  %steps = arith.divsi %k, %c32 : i32
  %res:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%f = %f0, %g = %i0) -> (tensor<64x64xf32>, tensor<64x64xi32>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %kks = tile.splat %kk : i32 -> tensor<32xi32>
    %kidx = arith.addi %kks, %r32 : tensor<32xi32>
    %krow = tile.expand_dims %kidx axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %krow, %ns : tensor<32x1xi32>
    %kmask = arith.cmpi slt, %krow, %ks : tensor<32x1xi32>
    %kmaskb = tile.broadcast %kmask : tensor<32x1xi1> -> tensor<32x64xi1>
    %mask = arith.andi %kmaskb, %ncmb : tensor<32x64xi1>
    %p16 = tile.addptr %s16, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %p16b = tile.broadcast %p16 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
    %q16 = tile.addptr %p16b, %ncb : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    %y16 = tile.load %q16, %mask, %z16 : tensor<32x64x!tile.ptr<f16>>
    %d16 = tile.dot %a16, %y16, %f : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %p8 = tile.addptr %s8, %brow : tensor<32x1x!tile.ptr<i8>>, tensor<32x1xi32>
    %p8b = tile.broadcast %p8 : tensor<32x1x!tile.ptr<i8>> -> tensor<32x64x!tile.ptr<i8>>
    %q8 = tile.addptr %p8b, %ncb : tensor<32x64x!tile.ptr<i8>>, tensor<32x64xi32>
    %y8 = tile.load %q8, %mask, %z8 : tensor<32x64x!tile.ptr<i8>>
    %d8 = tile.dot %a8, %y8, %g : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
    scf.yield %d16, %d8 : tensor<64x64xf32>, tensor<64x64xi32>
  }
  return %res#0, %res#1 : tensor<64x64xf32>, tensor<64x64xi32>
}

// -----

// Must not: extents and strides from arguments of unknown sign (no
// tile.nonnegative: the launch did not specialise them): a negative K would
// make TMA read elsewhere than the load.
// CHECK-LABEL: func.func @unknown_sign
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @unknown_sign(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: tensor<32x64xf16>, %m: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zA = arith.constant dense<0.0> : tensor<64x32xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %px = tile.program_id x : i32
  %rm0 = arith.muli %px, %c64 : i32
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<64xi32>
  %offm = arith.addi %rm0s, %r64 : tensor<64xi32>
  %offm2 = tile.expand_dims %offm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<64x1xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %arp = tile.addptr %asp, %arow : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %arpb = tile.broadcast %arp : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %mrow = arith.cmpi slt, %offm2, %ms : tensor<64x1xi32>
  %mrowb = tile.broadcast %mrow : tensor<64x1xi1> -> tensor<64x32xi1>
  %ks1 = tile.splat %k : i32 -> tensor<1x32xi32>
  %steps = arith.divsi %k, %c32 : i32
  %res = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %kks = tile.splat %kk : i32 -> tensor<32xi32>
    %kidx = arith.addi %kks, %r32 : tensor<32xi32>
    %kcol = tile.expand_dims %kidx axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %kcolb = tile.broadcast %kcol : tensor<1x32xi32> -> tensor<64x32xi32>
    %ap = tile.addptr %arpb, %kcolb : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %kmask = arith.cmpi slt, %kcol, %ks1 : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<64x32xi1>
    %amask = arith.andi %mrowb, %kmaskb : tensor<64x32xi1>
    %x = tile.load %ap, %amask, %zA : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %res : tensor<64x64xf32>
}

// -----

// Unmasked, read transposed (attention's K^T: `k + cols[None, :] * stride +
// offs_d[:, None]`, its contiguous dim first): the descriptor is the tensor
// as stored (rows of 64 elements at row stride %s, as many rows as a tensor
// map takes: the load promises every element it reads exists), loaded at
// (row, 0) and transposed back.
// CHECK-LABEL: func.func @unmasked_transposed
// CHECK: %[[S:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK-NEXT: %[[D:.*]] = tile.make_tensor_desc %arg0, [%c2147483647_i32, %c64_i32], [%[[S]], %c1_i64] : <f16> -> <tensor<64x64xf16>>
// CHECK: scf.for %[[I:[a-z0-9_]+]] =
// CHECK-NEXT: %[[K:.*]] = tile.desc_load %[[D]][%[[I]], %c0_i32] : <tensor<64x64xf16>> -> tensor<64x64xf16>
// CHECK-NEXT: %[[KT:.*]] = tile.trans %[[K]] [1, 0]
// CHECK-NEXT: tile.dot %arg1, %[[KT]]
func.func @unmasked_transposed(%k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: tensor<64x64xf16>, %s: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %n: i32 {tile.nonnegative}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %d2 = tile.expand_dims %r64 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %d2b = tile.broadcast %d2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %ss = tile.splat %s : i32 -> tensor<1x64xi32>
  %ksp = tile.splat %k : !tile.ptr<f16> -> tensor<1x64x!tile.ptr<f16>>
  %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %is = tile.splat %i : i32 -> tensor<64xi32>
    %cols = arith.addi %is, %r64 : tensor<64xi32>
    %c2 = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
    %co = arith.muli %c2, %ss : tensor<1x64xi32>
    %kp = tile.addptr %ksp, %co : tensor<1x64x!tile.ptr<f16>>, tensor<1x64xi32>
    %kpb = tile.broadcast %kp : tensor<1x64x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
    %kpp = tile.addptr %kpb, %d2b : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %kt = tile.load %kpp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %q, %kt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %res : tensor<64x64xf32>
}

// -----

// Must not: unmasked, with an innermost coordinate that changes in the loop
// (columns k * 32 of rows of unknown length): no extent covers the box
// without a bound of the pointers' own.
// CHECK-LABEL: func.func @unmasked_moving_columns
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
func.func @unmasked_moving_columns(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: tensor<32x64xf16>, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %offm2 = tile.expand_dims %r64 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<64x1xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %arp = tile.addptr %asp, %arow : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %arpb = tile.broadcast %arp : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %steps = arith.divsi %k, %c32 : i32
  %res = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %kks = tile.splat %kk : i32 -> tensor<32xi32>
    %kidx = arith.addi %kks, %r32 : tensor<32xi32>
    %kcol = tile.expand_dims %kidx axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %kcolb = tile.broadcast %kcol : tensor<1x32xi32> -> tensor<64x32xi32>
    %ap = tile.addptr %arpb, %kcolb : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %x = tile.load %ap : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %x, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %res : tensor<64x64xf32>
}

// -----

// A row coordinate chosen by a select between two values known not to be
// negative (a program id and a maximum with 0: a persistent kernel's
// row block walked from either end) is not negative either: A keeps its
// descriptor load.
// CHECK-LABEL: func.func @coordinate_from_select
// CHECK-COUNT-2: tile.make_tensor_desc
// CHECK-NOT: tile.load
// CHECK: return
func.func @coordinate_from_select(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %flag: i1, %xr: i32) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c128 = arith.constant 128 : i32
  %zA = arith.constant dense<0.0> : tensor<128x32xf16>
  %zB = arith.constant dense<0.0> : tensor<32x128xf16>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %px = tile.program_id x : i32
  %py = tile.program_id y : i32
  %xc = arith.maxsi %xr, %c0 : i32
  %row = arith.select %flag, %px, %xc : i32
  %rm0 = arith.muli %row, %c128 : i32
  %rn0 = arith.muli %py, %c128 : i32
  %r128 = tile.make_range 0 to 128 : tensor<128xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<128xi32>
  %offm = arith.addi %rm0s, %r128 : tensor<128xi32>
  %rn0s = tile.splat %rn0 : i32 -> tensor<128xi32>
  %offn = arith.addi %rn0s, %r128 : tensor<128xi32>
  %offm2 = tile.expand_dims %offm axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ks = tile.splat %k : i32 -> tensor<128x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<128x1xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %arp = tile.addptr %asp, %arow : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %arpb = tile.broadcast %arp : tensor<128x1x!tile.ptr<f16>> -> tensor<128x32x!tile.ptr<f16>>
  %ms = tile.splat %m : i32 -> tensor<128x1xi32>
  %mrow = arith.cmpi slt, %offm2, %ms : tensor<128x1xi32>
  %mrowb = tile.broadcast %mrow : tensor<128x1xi1> -> tensor<128x32xi1>
  %ks1 = tile.splat %k : i32 -> tensor<1x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %bsp = tile.splat %b : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %offn2 = tile.expand_dims %offn axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %offn2b = tile.broadcast %offn2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %ks2 = tile.splat %k : i32 -> tensor<32x1xi32>
  %ns1 = tile.splat %n : i32 -> tensor<1x128xi32>
  %ncol = arith.cmpi slt, %offn2, %ns1 : tensor<1x128xi32>
  %ncolb = tile.broadcast %ncol : tensor<1x128xi1> -> tensor<32x128xi1>
  %steps = arith.divsi %k, %c32 : i32
  %res = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %kks = tile.splat %kk : i32 -> tensor<32xi32>
    %kidx = arith.addi %kks, %r32 : tensor<32xi32>
    %kcol = tile.expand_dims %kidx axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %kcolb = tile.broadcast %kcol : tensor<1x32xi32> -> tensor<128x32xi32>
    %ap = tile.addptr %arpb, %kcolb : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %kmask = arith.cmpi slt, %kcol, %ks1 : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<128x32xi1>
    %amask = arith.andi %mrowb, %kmaskb : tensor<128x32xi1>
    %x = tile.load %ap, %amask, %zA : tensor<128x32x!tile.ptr<f16>>
    %krow = tile.expand_dims %kidx axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %krow, %ns : tensor<32x1xi32>
    %brp = tile.addptr %bsp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %brpb = tile.broadcast %brp : tensor<32x1x!tile.ptr<f16>> -> tensor<32x128x!tile.ptr<f16>>
    %bp = tile.addptr %brpb, %offn2b : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %kmask2 = arith.cmpi slt, %krow, %ks2 : tensor<32x1xi32>
    %kmask2b = tile.broadcast %kmask2 : tensor<32x1xi1> -> tensor<32x128xi1>
    %bmask = arith.andi %kmask2b, %ncolb : tensor<32x128xi1>
    %y = tile.load %bp, %bmask, %zB : tensor<32x128x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<128x32xf16> * tensor<32x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  return %res : tensor<128x128xf32>
}

// -----

// Must not: one of the select's values may be negative (TMA would read
// zeros where the load reads memory): A stays a pointer load, B does not.
// CHECK-LABEL: func.func @coordinate_from_select_maybe_negative
// CHECK-COUNT-1: tile.make_tensor_desc
// CHECK-NOT: tile.make_tensor_desc
// CHECK: tile.load
// CHECK: tile.desc_load
// CHECK: return
func.func @coordinate_from_select_maybe_negative(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %flag: i1, %xr: i32) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c128 = arith.constant 128 : i32
  %zA = arith.constant dense<0.0> : tensor<128x32xf16>
  %zB = arith.constant dense<0.0> : tensor<32x128xf16>
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %px = tile.program_id x : i32
  %py = tile.program_id y : i32
  %row = arith.select %flag, %px, %xr : i32
  %rm0 = arith.muli %row, %c128 : i32
  %rn0 = arith.muli %py, %c128 : i32
  %r128 = tile.make_range 0 to 128 : tensor<128xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %rm0s = tile.splat %rm0 : i32 -> tensor<128xi32>
  %offm = arith.addi %rm0s, %r128 : tensor<128xi32>
  %rn0s = tile.splat %rn0 : i32 -> tensor<128xi32>
  %offn = arith.addi %rn0s, %r128 : tensor<128xi32>
  %offm2 = tile.expand_dims %offm axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %ks = tile.splat %k : i32 -> tensor<128x1xi32>
  %arow = arith.muli %offm2, %ks : tensor<128x1xi32>
  %asp = tile.splat %a : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %arp = tile.addptr %asp, %arow : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %arpb = tile.broadcast %arp : tensor<128x1x!tile.ptr<f16>> -> tensor<128x32x!tile.ptr<f16>>
  %ms = tile.splat %m : i32 -> tensor<128x1xi32>
  %mrow = arith.cmpi slt, %offm2, %ms : tensor<128x1xi32>
  %mrowb = tile.broadcast %mrow : tensor<128x1xi1> -> tensor<128x32xi1>
  %ks1 = tile.splat %k : i32 -> tensor<1x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %bsp = tile.splat %b : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %offn2 = tile.expand_dims %offn axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %offn2b = tile.broadcast %offn2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %ks2 = tile.splat %k : i32 -> tensor<32x1xi32>
  %ns1 = tile.splat %n : i32 -> tensor<1x128xi32>
  %ncol = arith.cmpi slt, %offn2, %ns1 : tensor<1x128xi32>
  %ncolb = tile.broadcast %ncol : tensor<1x128xi1> -> tensor<32x128xi1>
  %steps = arith.divsi %k, %c32 : i32
  %res = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %kk = arith.muli %i, %c32 : i32
    %kks = tile.splat %kk : i32 -> tensor<32xi32>
    %kidx = arith.addi %kks, %r32 : tensor<32xi32>
    %kcol = tile.expand_dims %kidx axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %kcolb = tile.broadcast %kcol : tensor<1x32xi32> -> tensor<128x32xi32>
    %ap = tile.addptr %arpb, %kcolb : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %kmask = arith.cmpi slt, %kcol, %ks1 : tensor<1x32xi32>
    %kmaskb = tile.broadcast %kmask : tensor<1x32xi1> -> tensor<128x32xi1>
    %amask = arith.andi %mrowb, %kmaskb : tensor<128x32xi1>
    %x = tile.load %ap, %amask, %zA : tensor<128x32x!tile.ptr<f16>>
    %krow = tile.expand_dims %kidx axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %brow = arith.muli %krow, %ns : tensor<32x1xi32>
    %brp = tile.addptr %bsp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %brpb = tile.broadcast %brp : tensor<32x1x!tile.ptr<f16>> -> tensor<32x128x!tile.ptr<f16>>
    %bp = tile.addptr %brpb, %offn2b : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %kmask2 = arith.cmpi slt, %krow, %ks2 : tensor<32x1xi32>
    %kmask2b = tile.broadcast %kmask2 : tensor<32x1xi1> -> tensor<32x128xi1>
    %bmask = arith.andi %kmask2b, %ncolb : tensor<32x128xi1>
    %y = tile.load %bp, %bmask, %zB : tensor<32x128x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<128x32xf16> * tensor<32x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  return %res : tensor<128x128xf32>
}
