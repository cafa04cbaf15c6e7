// float32 exp is ex2.approx.f32 of x * log2(e) and exp2 is
// ex2.approx.ftz.f32 itself, as Triton emits them; float64 exp keeps
// libdevice's accurate sequence.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-LABEL: .entry exp_f32(
// CHECK: mul{{.*}}.f32 {{.*}}0f3FB8AA3B
// CHECK-NEXT: ex2.approx.f32
// CHECK-NOT: ex2.approx
// CHECK: ret;
// CHECK-LABEL: .entry exp2_f32(
// CHECK-NOT: 0f3FB8AA3B
// CHECK: ex2.approx.ftz.f32
// CHECK-NOT: ex2.approx
// CHECK: ret;
// CHECK-LABEL: .entry exp_f64(
// CHECK-NOT: ex2.approx.f32
// CHECK: ret;

func.func @exp_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %e = math.exp %v : tensor<32xf32>
  tile.store %ax, %e : tensor<32x!tile.ptr<f32>>
  return
}

func.func @exp2_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %e = math.exp2 %v : tensor<32xf32>
  tile.store %ax, %e : tensor<32x!tile.ptr<f32>>
  return
}

func.func @exp_f64(%x: !tile.ptr<f64> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f64> -> tensor<32x!tile.ptr<f64>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f64>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f64>>
  %e = math.exp %v : tensor<32xf64>
  tile.store %ax, %e : tensor<32x!tile.ptr<f64>>
  return
}
