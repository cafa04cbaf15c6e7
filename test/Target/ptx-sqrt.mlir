// A float32 square root marked afn (tl.sqrt, as Triton's) is the hardware's
// sqrt.approx.f32; an unmarked one (tl.sqrt_rn) is IEEE-rounded
// sqrt.rn.f32; float64 is sqrt.rn.f64 either way.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-LABEL: .entry sqrt_fast(
// CHECK: sqrt.approx.f32
// CHECK-NOT: sqrt.rn
// CHECK-LABEL: .entry sqrt_rn(
// CHECK-NOT: sqrt.approx
// CHECK: sqrt.rn.f32
// CHECK-NOT: sqrt.approx
// CHECK-LABEL: .entry sqrt_f64(
// CHECK-NOT: sqrt.approx
// CHECK: sqrt.rn.f64

func.func @sqrt_fast(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %s = math.sqrt %v fastmath<afn> : tensor<32xf32>
  tile.store %ax, %s : tensor<32x!tile.ptr<f32>>
  return
}

func.func @sqrt_rn(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f32>>
  %s = math.sqrt %v : tensor<32xf32>
  tile.store %ax, %s : tensor<32x!tile.ptr<f32>>
  return
}

func.func @sqrt_f64(%x: !tile.ptr<f64> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f64> -> tensor<32x!tile.ptr<f64>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f64>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f64>>
  %s = math.sqrt %v fastmath<afn> : tensor<32xf64>
  tile.store %ax, %s : tensor<32x!tile.ptr<f64>>
  return
}
