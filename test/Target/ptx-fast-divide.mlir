// A float32 division marked afn (the frontend's `/`, as Triton's) is PTX's
// div.full.f32; marked afn and arcp (tl.fdiv(approx=True)) div.approx.f32;
// an unmarked one (tl.div_rn) keeps IEEE rounding, and afn on float64
// changes nothing.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=1 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// CHECK-LABEL: .entry divide(
// CHECK-COUNT-2: div.full.f32
// CHECK-NOT: div.full
// CHECK-NOT: div.approx
// CHECK-LABEL: .entry divide_rn(
// CHECK-NOT: div.full
// CHECK-COUNT-2: div.rn.f32
// CHECK-LABEL: .entry divide_f64(
// CHECK-NOT: div.full
// CHECK: div.rn.f64
// CHECK-LABEL: .entry divide_approx(
// CHECK-NOT: div.full
// CHECK-COUNT-2: div.approx.f32
// CHECK-NOT: div.rn

func.func @divide(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %ax : tensor<64x!tile.ptr<f32>>
  %py = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ay = tile.addptr %py, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %w = tile.load %ay : tensor<64x!tile.ptr<f32>>
  %q = arith.divf %v, %w fastmath<afn> : tensor<64xf32>
  tile.store %ay, %q : tensor<64x!tile.ptr<f32>>
  return
}

func.func @divide_rn(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %ax : tensor<64x!tile.ptr<f32>>
  %py = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ay = tile.addptr %py, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %w = tile.load %ay : tensor<64x!tile.ptr<f32>>
  %q = arith.divf %v, %w : tensor<64xf32>
  tile.store %ay, %q : tensor<64x!tile.ptr<f32>>
  return
}

func.func @divide_f64(%x: !tile.ptr<f64> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %px = tile.splat %x : !tile.ptr<f64> -> tensor<32x!tile.ptr<f64>>
  %ax = tile.addptr %px, %r : tensor<32x!tile.ptr<f64>>, tensor<32xi32>
  %v = tile.load %ax : tensor<32x!tile.ptr<f64>>
  %q = arith.divf %v, %v fastmath<afn> : tensor<32xf64>
  tile.store %ax, %q : tensor<32x!tile.ptr<f64>>
  return
}

func.func @divide_approx(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %ax : tensor<64x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<64xf32>
  %q = arith.divf %v, %w fastmath<arcp,afn> : tensor<64xf32>
  tile.store %ax, %q : tensor<64x!tile.ptr<f32>>
  return
}
