// fp8 dots on the matrix cores take the chip's own formats: gfx950's
// (CDNA4) are OCP's f8E4M3FN and f8E5M2 (v_mfma_f32_32x32x16_fp8_fp8, and
// bf8 for e5m2 on either side); gfx942's (CDNA3) are the FNUZ formats, so
// an OCP fp8 dot is an error at the dot there (fp8-fnuz's kernels are
// gfx942's), and gfx90a has no fp8 instructions. 64 x 64 x 32 at 4 warps:
// two 32x32x16 per warp. The assembly assembles again and links.

// RUN: terrazzo-compile %s --target=hip:gfx950 --num-warps=4 --emit=amdgcn -o %t.950.s
// RUN: FileCheck %s < %t.950.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.950.s -o %t.950.o
// RUN: ld.lld -shared %t.950.o -o %t.950.hsaco
// RUN: llvm-nm -D --undefined-only %t.950.hsaco | count 0
// RUN: not terrazzo-compile %s --target=hip:gfx942 --emit=amdgcn -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: not terrazzo-compile %s --target=hip:gfx90a --emit=amdgcn -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX90A

// CHECK-LABEL: dot_e4m3:
// CHECK-COUNT-2: v_mfma_f32_32x32x16_fp8_fp8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}],
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// CHECK-LABEL: dot_e5m2_e4m3:
// CHECK-COUNT-2: v_mfma_f32_32x32x16_bf8_fp8
// CHECK-NOT: v_mfma
// CHECK: s_endpgm
// GFX942: :[[@LINE+28]]:8: error: 'tile.dot' op multiplies 'f8E4M3FN' by 'f8E4M3FN': hip:gfx942 multiplies the FNUZ fp8 formats (f8E4M3FNUZ, f8E5M2FNUZ)
// GFX90A: error: 'tile.dot' op multiplies 'f8E4M3FN' by 'f8E4M3FN': hip:gfx90a has no fp8 matrix instructions

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

