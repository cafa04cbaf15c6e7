// Tutorial 03's matmul loop on gfx942 (64 x 64 x 32 float16 blocks, the
// strides tile.nonnegative as the Python frontend specialises arguments
// that are not negative): the pointers the loop advances (`a_ptrs +=
// BLOCK_K`, `b_ptrs += BLOCK_K * stride_bk`) become a base and carried i32
// offsets (terrazzo-amd-buffer-addresses, after the pipeliner carries the
// next iteration's pointers), so that the loop's loads are buffer loads:
// no global_load and no branch around a masked load in the loop (masked-off
// vectors read out of range), the prologue's loads and the epilogue's
// stores likewise (their pointer chains folded into one offset each).
// Must not: with a stride that may be negative (a plain i32 argument),
// that operand's loads stay global loads behind a branch (the other's are
// buffer loads); amdgcn-matmul-pipeline.mlir's matmul, none of whose
// arguments is tile.nonnegative, keeps global loads throughout. The
// assembly assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: llvm-nm -D --undefined-only %t.hsaco | count 0

// CHECK-LABEL: matmul:
// CHECK-NOT: global_load
// CHECK-COUNT-2: buffer_load_dwordx4
// CHECK-NOT: global_load
// CHECK: [[LOOP:.LBB0_[0-9]+]]:
// CHECK-NOT: s_cbranch_execz
// CHECK-NOT: global_load
// CHECK: buffer_load_dwordx4 v[{{[0-9]+}}:{{[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-NEXT: buffer_load_dwordx4 v[{{[0-9]+}}:{{[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen
// CHECK-NOT: s_cbranch_execz
// CHECK-NOT: global_load
// CHECK: v_mfma_f32_32x32x8_f16
// CHECK-NOT: s_cbranch_execz
// CHECK-NOT: global_load
// CHECK: s_cbranch_vccnz [[LOOP]]
// CHECK-NOT: global_store
// CHECK-COUNT-4: buffer_store_dwordx4
// CHECK-NOT: global_store
// CHECK: s_endpgm
func.func @matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32, tile.nonnegative}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  // a's pointers and row mask.
  %am = tile.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %amk = arith.muli %am, %ks : tensor<64x1xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %amk : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %ak = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap1 = tile.broadcast %ap0 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %ak1 = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap = tile.addptr %ap1, %ak1 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %arow = arith.cmpi slt, %am, %ms : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi1> -> tensor<64x32xi1>
  // b's pointers and column mask.
  %bk = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %bkn = arith.muli %bk, %ns : tensor<32x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %bkn : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bn = tile.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp1 = tile.broadcast %bp0 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp = tile.addptr %bp1, %bn1 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %nsr = tile.splat %n : i32 -> tensor<1x64xi32>
  %bcol = arith.cmpi slt, %bn, %nsr : tensor<1x64xi32>
  %bcolb = tile.broadcast %bcol : tensor<1x64xi1> -> tensor<32x64xi1>
  // The steps: 32 columns of a, 32 rows of b.
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %n32 = arith.muli %n, %c32 : i32
  %bstep = tile.splat %n32 : i32 -> tensor<32x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero, %pa = %ap, %pb = %bp) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    // k + i < K, along a's columns and b's rows.
    %left = arith.subi %k, %i : i32
    %lefta = tile.splat %left : i32 -> tensor<1x32xi32>
    %ina = arith.cmpi slt, %ak, %lefta : tensor<1x32xi32>
    %inab = tile.broadcast %ina : tensor<1x32xi1> -> tensor<64x32xi1>
    %maska = arith.andi %arowb, %inab : tensor<64x32xi1>
    %leftb = tile.splat %left : i32 -> tensor<32x1xi32>
    %inb = arith.cmpi slt, %bk, %leftb : tensor<32x1xi32>
    %inbb = tile.broadcast %inb : tensor<32x1xi1> -> tensor<32x64xi1>
    %maskb = arith.andi %inbb, %bcolb : tensor<32x64xi1>
    %za = arith.constant dense<0.0> : tensor<64x32xf16>
    %zb = arith.constant dense<0.0> : tensor<32x64xf16>
    %x = tile.load %pa, %maska, %za : tensor<64x32x!tile.ptr<f16>>
    %y = tile.load %pb, %maskb, %zb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pb2 = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  // c under the M and N masks.
  %cns = tile.splat %n : i32 -> tensor<64x1xi32>
  %cmn = arith.muli %am, %cns : tensor<64x1xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp0 = tile.addptr %cs, %cmn : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %cp1 = tile.broadcast %cp0 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %cn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp = tile.addptr %cp1, %cn1 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %crow = tile.broadcast %arow : tensor<64x1xi1> -> tensor<64x64xi1>
  %ccol = tile.broadcast %bcol : tensor<1x64xi1> -> tensor<64x64xi1>
  %cmask = arith.andi %crow, %ccol : tensor<64x64xi1>
  tile.store %cp, %r#0, %cmask : tensor<64x64x!tile.ptr<f32>>
  return
}

// b's rows are n apart, and n may be negative here: b's loads stay global
// loads, a branch around each in the loop; a's are buffer loads.
// CHECK-LABEL: matmul_signed:
// CHECK: v_mfma_f32_32x32x8_f16
// CHECK: buffer_load_dwordx4
// CHECK: s_cbranch_execz
// CHECK-NEXT: global_load_dwordx4
// CHECK: s_endpgm
func.func @matmul_signed(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32, tile.nonnegative}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  // a's pointers and row mask.
  %am = tile.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %amk = arith.muli %am, %ks : tensor<64x1xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %amk : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %ak = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap1 = tile.broadcast %ap0 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %ak1 = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap = tile.addptr %ap1, %ak1 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %ms = tile.splat %m : i32 -> tensor<64x1xi32>
  %arow = arith.cmpi slt, %am, %ms : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi1> -> tensor<64x32xi1>
  // b's pointers and column mask.
  %bk = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ns = tile.splat %n : i32 -> tensor<32x1xi32>
  %bkn = arith.muli %bk, %ns : tensor<32x1xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %bkn : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bn = tile.expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp1 = tile.broadcast %bp0 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp = tile.addptr %bp1, %bn1 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %nsr = tile.splat %n : i32 -> tensor<1x64xi32>
  %bcol = arith.cmpi slt, %bn, %nsr : tensor<1x64xi32>
  %bcolb = tile.broadcast %bcol : tensor<1x64xi1> -> tensor<32x64xi1>
  // The steps: 32 columns of a, 32 rows of b.
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %n32 = arith.muli %n, %c32 : i32
  %bstep = tile.splat %n32 : i32 -> tensor<32x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero, %pa = %ap, %pb = %bp) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    // k + i < K, along a's columns and b's rows.
    %left = arith.subi %k, %i : i32
    %lefta = tile.splat %left : i32 -> tensor<1x32xi32>
    %ina = arith.cmpi slt, %ak, %lefta : tensor<1x32xi32>
    %inab = tile.broadcast %ina : tensor<1x32xi1> -> tensor<64x32xi1>
    %maska = arith.andi %arowb, %inab : tensor<64x32xi1>
    %leftb = tile.splat %left : i32 -> tensor<32x1xi32>
    %inb = arith.cmpi slt, %bk, %leftb : tensor<32x1xi32>
    %inbb = tile.broadcast %inb : tensor<32x1xi1> -> tensor<32x64xi1>
    %maskb = arith.andi %inbb, %bcolb : tensor<32x64xi1>
    %za = arith.constant dense<0.0> : tensor<64x32xf16>
    %zb = arith.constant dense<0.0> : tensor<32x64xf16>
    %x = tile.load %pa, %maska, %za : tensor<64x32x!tile.ptr<f16>>
    %y = tile.load %pb, %maskb, %zb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pb2 = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  // c under the M and N masks.
  %cns = tile.splat %n : i32 -> tensor<64x1xi32>
  %cmn = arith.muli %am, %cns : tensor<64x1xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp0 = tile.addptr %cs, %cmn : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %cp1 = tile.broadcast %cp0 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %cn1 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp = tile.addptr %cp1, %cn1 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %crow = tile.broadcast %arow : tensor<64x1xi1> -> tensor<64x64xi1>
  %ccol = tile.broadcast %bcol : tensor<1x64xi1> -> tensor<64x64xi1>
  %cmask = arith.andi %crow, %ccol : tensor<64x64xi1>
  tile.store %cp, %r#0, %cmask : tensor<64x64x!tile.ptr<f32>>
  return
}
