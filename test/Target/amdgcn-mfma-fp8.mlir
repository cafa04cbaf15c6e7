// fp8 dots on the matrix cores take the chip's own formats: gfx950's
// (CDNA4) are OCP's f8E4M3FN and f8E5M2 (v_mfma_f32_32x32x16_fp8_fp8, and
// bf8 for e5m2 on either side). gfx942's (CDNA3) MFMA multiplies the FNUZ
// formats, whose bytes mean other values (bias 8 and 16), and gfx90a has
// no fp8 instruction: there the operands are widened to float16 in
// registers, exactly (FP8ConversionToLLVM.cpp; the v_mul_f32 by 2^-9 is
// f8E4M3FN's subnormals, by 2^-16 f8E5M2's), and the f16 MFMA multiplies
// them. Must not: an OCP dot on gfx942's fp8/bf8 MFMA (it would read OCP
// bytes as FNUZ ones, a silent wrong result). 64 x 64 x 32 at 4 warps:
// two 32x32x16 per warp on gfx950, four 32x32x8 f16 on gfx942 and gfx90a.
// Each assembly assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=4 --emit=amdgcn -o %t.950.s
// RUN: FileCheck %s < %t.950.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.950.s -o %t.950.o
// RUN: ld.lld -shared %t.950.o -o %t.950.hsaco
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.942.s
// RUN: FileCheck %s --check-prefix=WIDE -DMFMA=v_mfma_f32_32x32x8_f16 --implicit-check-not='{{v_mfma_.*_(fp8|bf8)}}' < %t.942.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.942.s -o %t.942.o
// RUN: ld.lld -shared %t.942.o -o %t.942.hsaco
// RUN: llvm-nm -D --undefined-only %t.942.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx90a --num-warps=4 --emit=amdgcn -o %t.90a.s
// RUN: FileCheck %s --check-prefix=WIDE -DMFMA=v_mfma_f32_32x32x8f16 < %t.90a.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.90a.s -o %t.90a.o
// RUN: ld.lld -shared %t.90a.o -o %t.90a.hsaco
// RUN: llvm-nm -D --undefined-only %t.90a.hsaco | count 0

// CHECK-LABEL: dot_e4m3:
// CHECK-COUNT-2: v_mfma_f32_32x32x16_fp8_fp8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// CHECK-LABEL: dot_e5m2_e4m3:
// CHECK-COUNT-2: v_mfma_f32_32x32x16_bf8_fp8
// CHECK-NOT: v_mfma
// CHECK: s_endpgm

// WIDE-LABEL: dot_e4m3:
// WIDE: v_mul_f32_e32 v{{[0-9]+}}, 0x3b000000,
// WIDE-COUNT-4: [[MFMA]] v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// WIDE-NOT: v_mfma
// WIDE: s_endpgm
// WIDE-LABEL: dot_e5m2_e4m3:
// WIDE-DAG: v_mul_f32_e32 v{{[0-9]+}}, 0x37800000,
// WIDE-DAG: v_mul_f32_e32 v{{[0-9]+}}, 0x3b000000,
// WIDE-COUNT-4: [[MFMA]]
// WIDE-NOT: v_mfma
// WIDE: s_endpgm

func.func @dot_e4m3(%arg0: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f8E4M3FN> -> tensor<64x1x!tile.ptr<f8E4M3FN>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f8E4M3FN>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f8E4M3FN>> -> tensor<64x32x!tile.ptr<f8E4M3FN>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<f8E4M3FN>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<f8E4M3FN>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f8E4M3FN> -> tensor<32x1x!tile.ptr<f8E4M3FN>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f8E4M3FN>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f8E4M3FN>> -> tensor<32x64x!tile.ptr<f8E4M3FN>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f8E4M3FN>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f8E4M3FN>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
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

func.func @dot_e5m2_e4m3(%arg0: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f8E5M2> -> tensor<64x1x!tile.ptr<f8E5M2>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f8E5M2>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f8E5M2>> -> tensor<64x32x!tile.ptr<f8E5M2>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<f8E5M2>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<f8E5M2>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f8E4M3FN> -> tensor<32x1x!tile.ptr<f8E4M3FN>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f8E4M3FN>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f8E4M3FN>> -> tensor<32x64x!tile.ptr<f8E4M3FN>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f8E4M3FN>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f8E4M3FN>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E5M2> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
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

