// A K loop of a 64x64x32 f16 dot compiled for sm_80: terrazzo-pipeline
// turns both operand loads into 3-stage cp.async pipelines (16-byte .cg
// copies for two iterations before the loop, a group per operand and
// iteration, a wait that leaves one iteration's two groups in flight,
// "cp.async.wait_group 2" as Triton writes it; the operands come out of the stages with ldmatrix,
// plain for A and transposed for B, never word by word); sm_75 has no
// cp.async and keeps the loads.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:80 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: terrazzo-compile %s --target=cuda:75 --num-warps=4 --emit=ptx -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t.75.ptx
// CHECK-LABEL: .entry matmul(
// CHECK-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 2;
// CHECK-NOT: ld.shared.b32
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: ld.shared.b32
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: cp.async.wait_group 0;
// SM75-NOT: cp.async

func.func @matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %rm = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rm2 = tile.expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rk2 = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %ks = tile.splat %k : i32 -> tensor<64x1xi32>
  %arow = arith.muli %rm2, %ks : tensor<64x1xi32>
  %arowb = tile.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
  %rkb = tile.broadcast %rk2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %arowb, %rkb : tensor<64x32xi32>
  %ap0 = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %ap = tile.addptr %ap0, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %rk1 = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %rn2 = tile.expand_dims %rm axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %c64s = arith.constant dense<64> : tensor<32x1xi32>
  %brow = arith.muli %rk1, %c64s : tensor<32x1xi32>
  %browb = tile.broadcast %brow : tensor<32x1xi32> -> tensor<32x64xi32>
  %rnb = tile.broadcast %rn2 : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %browb, %rnb : tensor<32x64xi32>
  %bp0 = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %bp = tile.addptr %bp0, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %bstep0 = arith.constant dense<2048> : tensor<32x64xi32>
  %r:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %pa = %ap, %pb = %bp) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
    %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pa2 = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pb2 = tile.addptr %pb, %bstep0 : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  %rn64 = arith.constant dense<64> : tensor<64x1xi32>
  %crow = arith.muli %rm2, %rn64 : tensor<64x1xi32>
  %crowb = tile.broadcast %crow : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnb2 = tile.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %crowb, %rnb2 : tensor<64x64xi32>
  %cp0 = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cp0, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp, %r#0 : tensor<64x64x!tile.ptr<f32>>
  return
}
