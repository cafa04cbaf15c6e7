// The K loop of wgmma_matmul_loop.mlir (128 x 128 float16 tile, K steps of
// 64, masked edges) on sm_90a: terrazzo-pipeline turns both operand loads
// into 3-stage cp.async pipelines through stacks of nvmma_shared buffers
// (16-byte .cg copies for two iterations before the loop, a group per
// operand and iteration) and makes the wgmma asynchronous. In the loop: the
// wait that leaves one iteration's two copy groups in flight
// and a barrier come before the wgmmas (no proxy fence: only cp.async
// writes these buffers, as in Triton's and CUTLASS's cp.async main loops;
// the fence would also wait for the copies still in flight); their group
// is committed and waited for with one group (this one) left in flight,
// then a barrier (other warp groups' previous wgmmas may still read the
// buffer the copies refill) and the next copies. After the loop the last
// group is waited for. The PTX assembles for sm_90a at 4 and 8 warps.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_matmul_loop.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.8.ptx
// RUN: FileCheck %s < %t.8.ptx
// RUN: %ptxas -arch=sm_90a %t.8.ptx -o %t.8.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_matmul_loop.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.4.ptx
// RUN: FileCheck %s < %t.4.ptx
// RUN: %ptxas -arch=sm_90a %t.4.ptx -o %t.4.cubin
// CHECK: .extern .shared .align 1024 .b8 global_smem[];
// CHECK-LABEL: .entry wgmma_matmul_loop(
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 2;
// CHECK-NOT: cp.async.cg
// CHECK-NOT: fence.proxy.async
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NOT: bar.sync
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: bar.sync 0;
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK-NOT: bar.sync
// CHECK: cp.async.commit_group;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: cp.async.wait_group 0;
// CHECK-NOT: mma.sync
