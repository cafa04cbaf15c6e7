// A K loop over tensor descriptors on sm_90a (Triton's descriptor matmul:
// B given N x K and transposed in the kernel), 3 stages. The loads become
// TMA copies into stacks of 128-byte-swizzled buffers, three mbarriers
// (one per stage, both copies of a stage signal it), initialised before the
// loop and followed by a barrier; before the loop thread 0 arms the
// mbarriers of iterations 0 and 1 for both blocks (2 x 8192 bytes) and
// issues their copies. In the loop every thread waits for its stage's
// phase (a try_wait.parity loop on a register parity); the wgmmas read the
// TMA buffers with no proxy fence and no barrier in front of them (B
// through the transposed view: K-major); their group is committed and
// waited for with one left in flight; then thread 0 arms the stage read
// in the previous iteration, a barrier (other warp groups may still read
// that stage), and the copies of iteration i + 2. After the loop the last
// group is waited for, and after a barrier the mbarriers are invalidated.
// The PTX assembles for sm_90a at 4 and 8 warps.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=8 --emit=ptx -o %t.8.ptx
// RUN: FileCheck %s < %t.8.ptx
// RUN: %ptxas -arch=sm_90a %t.8.ptx -o %t.8.cubin
// CHECK-LABEL: .entry tma_matmul(
// CHECK: mbarrier.init.shared.b64 [global_smem+[[BAR0:[0-9]+]]], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.init.shared.b64 [global_smem+[[BAR1:[0-9]+]]], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.init.shared.b64 [global_smem+{{[0-9]+}}], %r{{[0-9]+}};
// One fence after the group makes the inits visible to the TMA copies.
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: mov.b32 %[[TX:r[0-9]+]], 16384;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], %[[TX]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], [global_smem+[[BAR0]]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], [global_smem+[[BAR0]]];
// CHECK-NOT: bar.sync
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], [global_smem+[[BAR1]]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], [global_smem+[[BAR1]]];
// CHECK-NOT: bar.sync
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 complete, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-NOT: bar.sync
// CHECK-NOT: fence.proxy.async
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.f16.f16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%rd{{[0-9]+}}]
// CHECK: bar.sync 0;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], [%r{{[0-9]+}}];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], [%r{{[0-9]+}}];
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: bar.sync 0;
// CHECK: mbarrier.inval.shared.b64 [global_smem+[[BAR0]]];
// CHECK-NOT: mma.sync
module attributes {"tilegpu.num-stages" = 3 : i32} {
  func.func @tma_matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c63 = arith.constant 63 : i32
    %c64 = arith.constant 64 : i32
    %one = arith.constant 1 : i64
    %sk = arith.extsi %k : i32 to i64
    %sn = arith.extsi %n : i32 to i64
    %ad = tile.make_tensor_desc %a, [%m, %k], [%sk, %one] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
    %bd = tile.make_tensor_desc %b, [%n, %k], [%sk, %one] : !tile.ptr<f16> -> !tile.tensordesc<tensor<64x64xf16>>
    %cd = tile.make_tensor_desc %c, [%m, %n], [%sn, %one] : !tile.ptr<f32> -> !tile.tensordesc<tensor<64x64xf32>>
    %pm = tile.program_id x : i32
    %pn = tile.program_id y : i32
    %row = arith.muli %pm, %c64 : i32
    %col = arith.muli %pn, %c64 : i32
    %kup = arith.addi %k, %c63 : i32
    %steps = arith.divsi %kup, %c64 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %res = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
      %kk = arith.muli %i, %c64 : i32
      %x = tile.desc_load %ad[%row, %kk] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
      %y = tile.desc_load %bd[%col, %kk] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
      %yt = tile.trans %y [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
      %d = tile.dot %x, %yt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tile.desc_store %cd[%row, %col], %res : !tile.tensordesc<tensor<64x64xf32>>, tensor<64x64xf32>
    return
  }
}
