// The K loop of wgmma_matmul_loop_fp8.mlir (128 x 128 f8E4M3FN tile, K
// steps of 128, masked edges, A and B both contiguous along K) on sm_90a:
// A's load becomes a 3-stage cp.async pipeline of 16-byte .cg copies into
// a K-major nvmma_shared stack (copies for two iterations before the loop,
// one group per operand and iteration, drained after it; B's too once terrazzo-pipeline copies
// along dimension 0), and wgmma multiplies e4m3 by e4m3 32
// elements of K at a time, accumulating in float32. Neither operand is
// widened to float16 (no cvt from e4m3, no mma.sync), and no byte reaches
// shared memory on its own (st.shared.b8 would mean a transposing store).
// The PTX assembles for sm_90a at 4 and 8 warps.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_matmul_loop_fp8.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.4.ptx
// RUN: FileCheck %s --implicit-check-not=mma.sync --implicit-check-not=cvt.rn.f16x2.e4m3x2 --implicit-check-not=st.shared.b8 < %t.4.ptx
// RUN: FileCheck %s --check-prefix=WAIT < %t.4.ptx
// RUN: %ptxas -arch=sm_90a %t.4.ptx -o %t.4.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_matmul_loop_fp8.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.8.ptx
// RUN: FileCheck %s --implicit-check-not=mma.sync --implicit-check-not=cvt.rn.f16x2.e4m3x2 --implicit-check-not=st.shared.b8 < %t.8.ptx
// RUN: FileCheck %s --check-prefix=WAIT < %t.8.ptx
// RUN: %ptxas -arch=sm_90a %t.8.ptx -o %t.8.cubin
// CHECK: .extern .shared .align 1024 .b8 global_smem[];
// CHECK-LABEL: .entry wgmma_matmul_loop_fp8(
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-NOT: fence.proxy.async
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{{(%r[0-9]+, ){63}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned {{[01]}};
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;
// In the loop (where LLVM's block order puts it), the wait that leaves one
// iteration's groups (one per operand) in flight.
// WAIT: cp.async.wait_group 2;
