// tl.dot on AMD's matrix cores (MFMA) in AMDGCN, per chip: float16,
// bfloat16, float16 accumulators, int8, float32 (ieee) and float32 in tf32
// precision, 64 x 64 at 4 warps (2 x 2 warps of 32 x 32 tiles, each the
// warp's K / k instructions), and an M of 16 (16 x 16 tiles). gfx90a
// (CDNA2) takes 4 k of 16-bit and 8-bit types per lane, gfx942 (CDNA3) 8
// of int8 and xf32 for tf32, gfx950 (CDNA4) 8 of 16-bit types and 16 of
// int8 (and no xf32: float32 MFMA). What no instruction takes (K of 4 for
// float16, M of 8, float64) keeps the fused multiply-adds. The operands
// reach their registers through LDS (A with 8-byte reads of its 4 k). The
// assembly assembles again and links, with nothing undefined.

// RUN: terrazzo-compile %s --target=hip:gfx90a --num-warps=4 --emit=amdgcn -o %t.90a.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX90A < %t.90a.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.90a.s -o %t.90a.o
// RUN: ld.lld -shared %t.90a.o -o %t.90a.hsaco
// RUN: llvm-nm -D --undefined-only %t.90a.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.942.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX942 < %t.942.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.942.s -o %t.942.o
// RUN: ld.lld -shared %t.942.o -o %t.942.hsaco
// RUN: llvm-nm -D --undefined-only %t.942.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=4 --emit=amdgcn -o %t.950.s
// RUN: FileCheck %s --check-prefixes=CHECK,GFX950 < %t.950.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.950.s -o %t.950.o
// RUN: ld.lld -shared %t.950.o -o %t.950.hsaco
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0

// CHECK-LABEL: dot_f16:
// CHECK-NOT: v_fma
// GFX942: ds_read_b64
// GFX90A-COUNT-4: v_mfma_f32_32x32x8f16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// GFX942-COUNT-4: v_mfma_f32_32x32x8_f16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// GFX950-COUNT-2: v_mfma_f32_32x32x16_f16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// CHECK-LABEL: dot_bf16:
// GFX90A-COUNT-4: v_mfma_f32_32x32x8bf16_1k
// GFX942-COUNT-4: v_mfma_f32_32x32x8_bf16
// GFX950-COUNT-2: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// A float16 result: the same instructions, rounded after the last.
// CHECK-LABEL: dot_f16_acc:
// GFX90A-COUNT-4: v_mfma_f32_32x32x8f16
// GFX942-COUNT-4: v_mfma_f32_32x32x8_f16
// GFX950-COUNT-2: v_mfma_f32_32x32x16_f16
// CHECK-NOT: v_mfma
// CHECK: v_cvt_f16_f32
// CHECK: s_endpgm
// int8 -> int32, K 64.
// CHECK-LABEL: dot_i8:
// GFX90A-COUNT-8: v_mfma_i32_32x32x8i8
// GFX942-COUNT-4: v_mfma_i32_32x32x16_i8
// GFX950-COUNT-2: v_mfma_i32_32x32x32_i8
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// float32, K 16: 32x32x2 in ieee precision.
// CHECK-LABEL: dot_f32:
// GFX90A-COUNT-8: v_mfma_f32_32x32x2f32
// GFX942-COUNT-8: v_mfma_f32_32x32x2_f32
// GFX950-COUNT-8: v_mfma_f32_32x32x2_f32
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// tf32: xf32 on gfx942 only.
// CHECK-LABEL: dot_f32_tf32:
// GFX90A-COUNT-8: v_mfma_f32_32x32x2f32
// GFX942-COUNT-4: v_mfma_f32_32x32x4_xf32
// GFX950-COUNT-8: v_mfma_f32_32x32x2_f32
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// 16 x 64 x 32: 16 x 16 tiles, one per warp.
// CHECK-LABEL: dot_16x16:
// GFX90A-COUNT-2: v_mfma_f32_16x16x16f16 v[{{[0-9]+}}:{{[0-9]+}}]
// GFX942-COUNT-2: v_mfma_f32_16x16x16_f16 v[{{[0-9]+}}:{{[0-9]+}}]
// GFX950: v_mfma_f32_16x16x32_f16 v[{{[0-9]+}}:{{[0-9]+}}]
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// Must not: K of 4, M of 8, float64.
// CHECK-LABEL: fma_small_k:
// CHECK-NOT: v_mfma
// CHECK: v_fma
// CHECK-NOT: v_mfma
// CHECK-LABEL: fma_small_m:
// CHECK-NOT: v_mfma
// CHECK: v_fma
// CHECK-NOT: v_mfma
// CHECK-LABEL: fma_f64:
// CHECK-NOT: v_mfma
// CHECK: v_fma_f64
// CHECK-NOT: v_mfma

func.func @dot_f16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<f16>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_bf16(%arg0: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<bf16> -> tensor<64x1x!tile.ptr<bf16>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<bf16>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<bf16>> -> tensor<64x32x!tile.ptr<bf16>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<bf16>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<bf16>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<bf16> -> tensor<32x1x!tile.ptr<bf16>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<bf16>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<bf16>> -> tensor<32x64x!tile.ptr<bf16>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<bf16>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<bf16>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_f16_acc(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<f16>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<64x64xf16>
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<f16>>
  return
}

func.func @dot_i8(%arg0: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 64 : tensor<64xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<64> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<i8> -> tensor<64x1x!tile.ptr<i8>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x64x!tile.ptr<i8>>
  %acol2 = tile.broadcast %acol : tensor<1x64xi32> -> tensor<64x64xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
  %a = tile.load %ap3 : tensor<64x64x!tile.ptr<i8>>
  %bk = tile.expand_dims %k axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %bn = arith.constant dense<64> : tensor<64x1xi32>
  %brow = arith.muli %bk, %bn : tensor<64x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<i8> -> tensor<64x1x!tile.ptr<i8>>
  %bp1 = tile.addptr %bp, %brow : tensor<64x1x!tile.ptr<i8>>, tensor<64x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<64x1x!tile.ptr<i8>> -> tensor<64x64x!tile.ptr<i8>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<64x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
  %b = tile.load %bp3 : tensor<64x64x!tile.ptr<i8>>
  %c = arith.constant dense<0> : tensor<64x64xi32>
  %d = tile.dot %a, %b, %c : tensor<64x64xi8> * tensor<64x64xi8> -> tensor<64x64xi32>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<i32> -> tensor<64x1x!tile.ptr<i32>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<i32>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<i32>> -> tensor<64x64x!tile.ptr<i32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<i32>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<i32>>
  return
}

func.func @dot_f32(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 16 : tensor<16xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<16> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x16x!tile.ptr<f32>>
  %acol2 = tile.broadcast %acol : tensor<1x16xi32> -> tensor<64x16xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x16x!tile.ptr<f32>>, tensor<64x16xi32>
  %a = tile.load %ap3 : tensor<64x16x!tile.ptr<f32>>
  %bk = tile.expand_dims %k axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %bn = arith.constant dense<64> : tensor<16x1xi32>
  %brow = arith.muli %bk, %bn : tensor<16x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f32> -> tensor<16x1x!tile.ptr<f32>>
  %bp1 = tile.addptr %bp, %brow : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<16x1x!tile.ptr<f32>> -> tensor<16x64x!tile.ptr<f32>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<16x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %b = tile.load %bp3 : tensor<16x64x!tile.ptr<f32>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x16xf32> * tensor<16x64xf32> -> tensor<64x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_f32_tf32(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 16 : tensor<16xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<16> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x16x!tile.ptr<f32>>
  %acol2 = tile.broadcast %acol : tensor<1x16xi32> -> tensor<64x16xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x16x!tile.ptr<f32>>, tensor<64x16xi32>
  %a = tile.load %ap3 : tensor<64x16x!tile.ptr<f32>>
  %bk = tile.expand_dims %k axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %bn = arith.constant dense<64> : tensor<16x1xi32>
  %brow = arith.muli %bk, %bn : tensor<16x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f32> -> tensor<16x1x!tile.ptr<f32>>
  %bp1 = tile.addptr %bp, %brow : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<16x1x!tile.ptr<f32>> -> tensor<16x64x!tile.ptr<f32>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<16x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %b = tile.load %bp3 : tensor<16x64x!tile.ptr<f32>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c precision = tf32 : tensor<64x16xf32> * tensor<16x64xf32> -> tensor<64x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_16x16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 16 : tensor<16xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %ak = arith.constant dense<32> : tensor<16x1xi32>
  %arow = arith.muli %am, %ak : tensor<16x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f16> -> tensor<16x1x!tile.ptr<f16>>
  %ap1 = tile.addptr %ap, %arow : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x32x!tile.ptr<f16>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<16x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
  %a = tile.load %ap3 : tensor<16x32x!tile.ptr<f16>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  %d = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %cn = arith.constant dense<64> : tensor<16x1xi32>
  %crow = arith.muli %cm, %cn : tensor<16x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<16x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<16x1x!tile.ptr<f32>> -> tensor<16x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<16x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  tile.store %cp3, %d : tensor<16x64x!tile.ptr<f32>>
  return
}

func.func @fma_small_k(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 4 : tensor<4xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<4> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x4x!tile.ptr<f16>>
  %acol2 = tile.broadcast %acol : tensor<1x4xi32> -> tensor<64x4xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x4x!tile.ptr<f16>>, tensor<64x4xi32>
  %a = tile.load %ap3 : tensor<64x4x!tile.ptr<f16>>
  %bk = tile.expand_dims %k axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %bn = arith.constant dense<64> : tensor<4x1xi32>
  %brow = arith.muli %bk, %bn : tensor<4x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f16> -> tensor<4x1x!tile.ptr<f16>>
  %bp1 = tile.addptr %bp, %brow : tensor<4x1x!tile.ptr<f16>>, tensor<4x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<4x1x!tile.ptr<f16>> -> tensor<4x64x!tile.ptr<f16>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<4x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<4x64x!tile.ptr<f16>>, tensor<4x64xi32>
  %b = tile.load %bp3 : tensor<4x64x!tile.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x4xf16> * tensor<4x64xf16> -> tensor<64x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cn = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %cm, %cn : tensor<64x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<64x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp3, %d : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @fma_small_m(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 8 : tensor<8xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %ak = arith.constant dense<32> : tensor<8x1xi32>
  %arow = arith.muli %am, %ak : tensor<8x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f16> -> tensor<8x1x!tile.ptr<f16>>
  %ap1 = tile.addptr %ap, %arow : tensor<8x1x!tile.ptr<f16>>, tensor<8x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<8x1x!tile.ptr<f16>> -> tensor<8x32x!tile.ptr<f16>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<8x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<8x32x!tile.ptr<f16>>, tensor<8x32xi32>
  %a = tile.load %ap3 : tensor<8x32x!tile.ptr<f16>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x64x!tile.ptr<f16>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<8x64xf32>
  %d = tile.dot %a, %b, %c : tensor<8x32xf16> * tensor<32x64xf16> -> tensor<8x64xf32>
  %cm = tile.expand_dims %m axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %cn = arith.constant dense<64> : tensor<8x1xi32>
  %crow = arith.muli %cm, %cn : tensor<8x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f32> -> tensor<8x1x!tile.ptr<f32>>
  %cp1 = tile.addptr %cp, %crow : tensor<8x1x!tile.ptr<f32>>, tensor<8x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cp2 = tile.broadcast %cp1 : tensor<8x1x!tile.ptr<f32>> -> tensor<8x64x!tile.ptr<f32>>
  %ccol2 = tile.broadcast %ccol : tensor<1x64xi32> -> tensor<8x64xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<8x64x!tile.ptr<f32>>, tensor<8x64xi32>
  tile.store %cp3, %d : tensor<8x64x!tile.ptr<f32>>
  return
}

func.func @fma_f64(%arg0: !tile.ptr<f64> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f64> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f64> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 32 : tensor<32xi32>
  %n = tile.make_range 0 to 32 : tensor<32xi32>
  %k = tile.make_range 0 to 8 : tensor<8xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ak = arith.constant dense<8> : tensor<32x1xi32>
  %arow = arith.muli %am, %ak : tensor<32x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f64> -> tensor<32x1x!tile.ptr<f64>>
  %ap1 = tile.addptr %ap, %arow : tensor<32x1x!tile.ptr<f64>>, tensor<32x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %ap2 = tile.broadcast %ap1 : tensor<32x1x!tile.ptr<f64>> -> tensor<32x8x!tile.ptr<f64>>
  %acol2 = tile.broadcast %acol : tensor<1x8xi32> -> tensor<32x8xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<32x8x!tile.ptr<f64>>, tensor<32x8xi32>
  %a = tile.load %ap3 : tensor<32x8x!tile.ptr<f64>>
  %bk = tile.expand_dims %k axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %bn = arith.constant dense<32> : tensor<8x1xi32>
  %brow = arith.muli %bk, %bn : tensor<8x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f64> -> tensor<8x1x!tile.ptr<f64>>
  %bp1 = tile.addptr %bp, %brow : tensor<8x1x!tile.ptr<f64>>, tensor<8x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %bp2 = tile.broadcast %bp1 : tensor<8x1x!tile.ptr<f64>> -> tensor<8x32x!tile.ptr<f64>>
  %bcol2 = tile.broadcast %bcol : tensor<1x32xi32> -> tensor<8x32xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<8x32x!tile.ptr<f64>>, tensor<8x32xi32>
  %b = tile.load %bp3 : tensor<8x32x!tile.ptr<f64>>
  %c = arith.constant dense<0.0> : tensor<32x32xf64>
  %d = tile.dot %a, %b, %c : tensor<32x8xf64> * tensor<8x32xf64> -> tensor<32x32xf64>
  %cm = tile.expand_dims %m axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %cn = arith.constant dense<32> : tensor<32x1xi32>
  %crow = arith.muli %cm, %cn : tensor<32x1xi32>
  %cp = tile.splat %arg2 : !tile.ptr<f64> -> tensor<32x1x!tile.ptr<f64>>
  %cp1 = tile.addptr %cp, %crow : tensor<32x1x!tile.ptr<f64>>, tensor<32x1xi32>
  %ccol = tile.expand_dims %n axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %cp2 = tile.broadcast %cp1 : tensor<32x1x!tile.ptr<f64>> -> tensor<32x32x!tile.ptr<f64>>
  %ccol2 = tile.broadcast %ccol : tensor<1x32xi32> -> tensor<32x32xi32>
  %cp3 = tile.addptr %cp2, %ccol2 : tensor<32x32x!tile.ptr<f64>>, tensor<32x32xi32>
  tile.store %cp3, %d : tensor<32x32x!tile.ptr<f64>>
  return
}

