// tile.dot of float16 with a float32 accumulator on sm_90a is wgmma: 64 x
// 64 x 64 at 4 warps is one warp group, m64n64k16 four times (one per K
// step of 16), A K-major and B N-major (imm-trans-b 1); the operands reach
// shared memory in 16-byte stores, the generic-proxy writes are fenced
// before the barrier, and the buffers are 1024-byte aligned. 128 x 128 x 64
// at 8 warps: each warp group one 64-row tile, m64n128k16. The PTX
// assembles for sm_90a.
// REQUIRES: ptxas
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_dot_64.mlir --target=cuda:90 --num-warps=4 --emit=ptx -o %t.64.ptx
// RUN: FileCheck %s --check-prefix=W64 < %t.64.ptx
// RUN: %ptxas -arch=sm_90a %t.64.ptx -o %t.64.cubin
// RUN: terrazzo-compile %S/../GPU/kernels/wgmma_dot_128.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.128.ptx
// RUN: FileCheck %s --check-prefix=W128 < %t.128.ptx
// RUN: %ptxas -arch=sm_90a %t.128.ptx -o %t.128.cubin
// W64: .extern .shared .align 1024 .b8 global_smem[];
// W64-LABEL: .entry wgmma_dot_64(
// W64: st.shared.v4.b32
// W64: fence.proxy.async.shared::cta;
// W64-NEXT: bar.sync 0;
// W64-NEXT: wgmma.fence.sync.aligned;
// W64-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// W64-NOT: wgmma.mma_async
// W64: wgmma.commit_group.sync.aligned;
// W64: wgmma.wait_group.sync.aligned 0;
// W64-NOT: mma.sync
// W128-LABEL: .entry wgmma_dot_128(
// W128-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// W128-NOT: wgmma.mma_async
// W128: wgmma.wait_group.sync.aligned 0;
