// gfx942's fp8 dots: the FNUZ formats f8E4M3FNUZ and f8E5M2FNUZ (bias 8
// and 16, no infinities, no negative zero) on v_mfma_f32_32x32x16_fp8_fp8
// and, e5m2 on either side, its bf8 forms. 64 x 64 x 32 at 4 warps: two
// per warp; the A operand is read from LDS 8 bytes at a time (its 8 k per
// lane). gfx950's fp8 MFMA takes OCP fp8 only and gfx90a has none: there
// the FNUZ operands are widened to float16 exactly (the v_mul_f32 by 2^-10
// is f8E4M3FNUZ's subnormals, by 2^-17 f8E5M2FNUZ's) for the f16 MFMA, and
// never reach an fp8 MFMA. Each assembly assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx942 --num-warps=4 --emit=amdgcn -o %t.942.s
// RUN: FileCheck %s < %t.942.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.942.s -o %t.942.o
// RUN: ld.lld -shared %t.942.o -o %t.942.hsaco
// RUN: llvm-nm -D --undefined-only %t.942.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=4 --emit=amdgcn -o %t.950.s
// RUN: FileCheck %s --check-prefixes=WIDE,W950 --implicit-check-not='{{v_mfma_.*_(fp8|bf8)}}' < %t.950.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.950.s -o %t.950.o
// RUN: ld.lld -shared %t.950.o -o %t.950.hsaco
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0
// RUN: terrazzo-compile %s --target=hip:gfx90a --num-warps=4 --emit=amdgcn -o %t.90a.s
// RUN: FileCheck %s --check-prefixes=WIDE,W90A < %t.90a.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.90a.s -o %t.90a.o
// RUN: ld.lld -shared %t.90a.o -o %t.90a.hsaco
// RUN: llvm-nm -D --undefined-only %t.90a.hsaco | count 0

// CHECK-LABEL: dot_e4m3fnuz:
// CHECK: ds_read_b64
// CHECK-COUNT-2: v_mfma_f32_32x32x16_fp8_fp8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// CHECK-LABEL: dot_e4m3fnuz_e5m2fnuz:
// CHECK-COUNT-2: v_mfma_f32_32x32x16_fp8_bf8
// CHECK-NOT: v_mfma
// CHECK: s_endpgm

// WIDE-LABEL: dot_e4m3fnuz:
// WIDE: v_mul_f32_e32 v{{[0-9]+}}, 0x3a800000,
// W950-COUNT-2: v_mfma_f32_32x32x16_f16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// W90A-COUNT-4: v_mfma_f32_32x32x8f16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// WIDE-NOT: v_mfma
// WIDE: s_endpgm
// WIDE-LABEL: dot_e4m3fnuz_e5m2fnuz:
// WIDE-DAG: v_mul_f32_e32 v{{[0-9]+}}, 0x3a800000,
// WIDE-DAG: v_mul_f32_e32 v{{[0-9]+}}, 0x37000000,
// W950-COUNT-2: v_mfma_f32_32x32x16_f16
// W90A-COUNT-4: v_mfma_f32_32x32x8f16
// WIDE-NOT: v_mfma
// WIDE: s_endpgm

func.func @dot_e4m3fnuz(%arg0: !tile.ptr<f8E4M3FNUZ> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E4M3FNUZ> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f8E4M3FNUZ> -> tensor<64x1x!tile.ptr<f8E4M3FNUZ>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f8E4M3FNUZ>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f8E4M3FNUZ>> -> tensor<64x32x!tile.ptr<f8E4M3FNUZ>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<f8E4M3FNUZ>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<f8E4M3FNUZ>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f8E4M3FNUZ> -> tensor<32x1x!tile.ptr<f8E4M3FNUZ>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f8E4M3FNUZ>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f8E4M3FNUZ>> -> tensor<32x64x!tile.ptr<f8E4M3FNUZ>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f8E4M3FNUZ>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f8E4M3FNUZ>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FNUZ> * tensor<32x64xf8E4M3FNUZ> -> tensor<64x64xf32>
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

func.func @dot_e4m3fnuz_e5m2fnuz(%arg0: !tile.ptr<f8E4M3FNUZ> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E5M2FNUZ> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %m = tile.make_range 0 to 64 : tensor<64xi32>
  %n = tile.make_range 0 to 64 : tensor<64xi32>
  %k = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %ak = arith.constant dense<32> : tensor<64x1xi32>
  %arow = arith.muli %am, %ak : tensor<64x1xi32>
  %ap = tile.splat %arg0 : !tile.ptr<f8E4M3FNUZ> -> tensor<64x1x!tile.ptr<f8E4M3FNUZ>>
  %ap1 = tile.addptr %ap, %arow : tensor<64x1x!tile.ptr<f8E4M3FNUZ>>, tensor<64x1xi32>
  %acol = tile.expand_dims %k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ap2 = tile.broadcast %ap1 : tensor<64x1x!tile.ptr<f8E4M3FNUZ>> -> tensor<64x32x!tile.ptr<f8E4M3FNUZ>>
  %acol2 = tile.broadcast %acol : tensor<1x32xi32> -> tensor<64x32xi32>
  %ap3 = tile.addptr %ap2, %acol2 : tensor<64x32x!tile.ptr<f8E4M3FNUZ>>, tensor<64x32xi32>
  %a = tile.load %ap3 : tensor<64x32x!tile.ptr<f8E4M3FNUZ>>
  %bk = tile.expand_dims %k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %bn = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %bk, %bn : tensor<32x1xi32>
  %bp = tile.splat %arg1 : !tile.ptr<f8E5M2FNUZ> -> tensor<32x1x!tile.ptr<f8E5M2FNUZ>>
  %bp1 = tile.addptr %bp, %brow : tensor<32x1x!tile.ptr<f8E5M2FNUZ>>, tensor<32x1xi32>
  %bcol = tile.expand_dims %n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bp2 = tile.broadcast %bp1 : tensor<32x1x!tile.ptr<f8E5M2FNUZ>> -> tensor<32x64x!tile.ptr<f8E5M2FNUZ>>
  %bcol2 = tile.broadcast %bcol : tensor<1x64xi32> -> tensor<32x64xi32>
  %bp3 = tile.addptr %bp2, %bcol2 : tensor<32x64x!tile.ptr<f8E5M2FNUZ>>, tensor<32x64xi32>
  %b = tile.load %bp3 : tensor<32x64x!tile.ptr<f8E5M2FNUZ>>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FNUZ> * tensor<32x64xf8E5M2FNUZ> -> tensor<64x64xf32>
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

