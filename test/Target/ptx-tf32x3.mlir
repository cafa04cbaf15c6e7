// A float32 dot in tf32x3 precision is three tf32 dots on tensor cores:
// 64 x 64 x 32 at 4 warps on sm_80 is three times the 32
// mma.sync.m16n8k8 tf32 instructions of one tf32 dot (2 x 2 warps, each
// 2 x 4 tiles, four K steps), and no fused multiply-add of the FMA
// fallback; on sm_90a three wgmma groups of m64n64k8 tf32 (four K steps
// each), each committed and waited for before the next adds to its
// accumulator. The operands' tf32 parts come from clearing their low 13
// mantissa bits (and.b32 with 0xFFFFE000 = -8192). The PTX assembles.
// REQUIRES: ptxas
// RUN: terrazzo-compile %s --target=cuda:80 --num-warps=4 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: terrazzo-compile %s --target=cuda:90 --num-warps=4 --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// RUN: %ptxas -arch=sm_90a %t.90.ptx -o %t.90.cubin
// SM80-LABEL: .entry dot_tf32x3(
// SM80: and.b32 {{.*}}, -8192;
// SM80: sub{{(.rn)?}}.f32
// SM80-COUNT-96: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// SM80-NOT: mma.sync
// SM80-NOT: fma.rn
// SM80: ret;
// SM90-LABEL: .entry dot_tf32x3(
// SM90: and.b32 {{.*}}, -8192;
// SM90: sub{{(.rn)?}}.f32
// SM90: wgmma.fence.sync.aligned;
// SM90-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// SM90-NOT: wgmma.mma_async
// SM90: wgmma.commit_group.sync.aligned;
// SM90: wgmma.wait_group.sync.aligned 0;
// SM90: wgmma.fence.sync.aligned;
// SM90-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// SM90-NOT: wgmma.mma_async
// SM90: wgmma.commit_group.sync.aligned;
// SM90: wgmma.wait_group.sync.aligned 0;
// SM90: wgmma.fence.sync.aligned;
// SM90-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// SM90-NOT: wgmma.mma_async
// SM90: wgmma.commit_group.sync.aligned;
// SM90: wgmma.wait_group.sync.aligned 0;
// SM90-NOT: wgmma.mma_async
// SM90-NOT: mma.sync
// SM90-NOT: fma.rn
// SM90: ret;

func.func @dot_tf32x3(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.make_range 0 to 64 : tensor<64xi32>
  %1 = tile.make_range 0 to 32 : tensor<32xi32>
  %2 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %3 = arith.constant dense<32> : tensor<64x1xi32>
  %4 = arith.muli %2, %3 : tensor<64x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %6 = tile.addptr %5, %4 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %7 = tile.expand_dims %1 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %8 = tile.broadcast %6 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x32x!tile.ptr<f32>>
  %9 = tile.broadcast %7 : tensor<1x32xi32> -> tensor<64x32xi32>
  %10 = tile.addptr %8, %9 : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %11 = tile.load %10 : tensor<64x32x!tile.ptr<f32>>
  %12 = tile.expand_dims %1 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %13 = arith.constant dense<64> : tensor<32x1xi32>
  %14 = arith.muli %12, %13 : tensor<32x1xi32>
  %15 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>>
  %16 = tile.addptr %15, %14 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
  %17 = tile.expand_dims %0 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %18 = tile.broadcast %16 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
  %19 = tile.broadcast %17 : tensor<1x64xi32> -> tensor<32x64xi32>
  %20 = tile.addptr %18, %19 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %21 = tile.load %20 : tensor<32x64x!tile.ptr<f32>>
  %22 = arith.constant dense<0.0> : tensor<64x64xf32>
  %23 = tile.dot %11, %21, %22 precision = tf32x3 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %24 = arith.constant dense<64> : tensor<64x1xi32>
  %25 = arith.muli %2, %24 : tensor<64x1xi32>
  %26 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>>
  %27 = tile.addptr %26, %25 : tensor<64x1x!tile.ptr<f32>>, tensor<64x1xi32>
  %28 = tile.broadcast %27 : tensor<64x1x!tile.ptr<f32>> -> tensor<64x64x!tile.ptr<f32>>
  %29 = tile.broadcast %17 : tensor<1x64xi32> -> tensor<64x64xi32>
  %30 = tile.addptr %28, %29 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %30, %23 : tensor<64x64x!tile.ptr<f32>>
  return
}
