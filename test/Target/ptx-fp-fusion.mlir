// By default (Triton's enable_fp_fusion) the code generator contracts a
// float multiply and the add that uses it into one fma.rn; the separately
// rounded form (mul.rn, add.rn) is what it emits with fusion off, which
// python/test/test_triton_core_compat.py checks through the compile option.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-LABEL: .entry mul_add(
// CHECK: fma.rn.f32
// CHECK-NOT: mul.rn.f32
// CHECK: ret;

func.func @mul_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %a = arith.constant dense<1.5> : tensor<32xf32>
  %b = arith.constant dense<1.0> : tensor<32xf32>
  %m = arith.mulf %v, %a : tensor<32xf32>
  %s = arith.addf %m, %b : tensor<32xf32>
  tile.store %ax, %s : tensor<32x!tile.ptr<f32>>
  return
}
