// Tutorial 06's forward kernel (Inputs/attention_fwd_tutorial.mlir, 8 warps)
// with its loop marked tile.warp_specialize (tl.range(...,
// warp_specialize=True)), on sm_90a: a producer warp group (12 warps in
// all) builds the two tensor maps (two of its warps at the same time) and
// issues every K and V copy; the 8
// consumer warps keep no copy and synchronise among themselves (barrier 0
// of 256 threads); the chain's dots reduce over the head dimension, 128,
// so the two consumer warp groups take turns issuing them (ping-pong's
// auto rule, named barriers 1 and 2: the first turn passed before the
// loop, each iteration waiting for its turn before Q K^T). The
// register budgets move with setmaxnreg from the 168 per thread the kernel
// starts with; the PTX assembles, with no local memory.
// REQUIRES: ptxas
// RUN: sed 's/^    }$/    } {tile.warp_specialize}/' %S/Inputs/attention_fwd_tutorial.mlir > %t.mlir
// RUN: terrazzo-compile %t.mlir --target=cuda:90 --num-warps=8 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK: .maxntid 384, 1, 1
// CHECK-NEXT: .maxnreg 168
// CHECK: mbarrier.init
// CHECK: bar.sync 0;
// CHECK: setp.gt.u32 %[[P:p[0-9]+]], %r{{[0-9]+}}, 255;
// CHECK: @%[[P]] bra [[PRODUCER:\$L__BB0_[0-9]+]];
// CHECK: [[PRODUCER]]:
// CHECK-NOT: tensormap
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// The two maps are built at the same time, by the producer's warps 0
// and 1, then acquired by its thread 0 after one barrier.
// CHECK: tensormap.cp_fenceproxy
// CHECK-NOT: bar.sync
// CHECK: tensormap.cp_fenceproxy
// CHECK-NOT: fence.proxy.tensormap
// CHECK: bar.sync 15, 128;
// CHECK: @%{{p[0-9]+}} bra
// CHECK-NEXT: fence.proxy.tensormap::generic.acquire.gpu
// CHECK-NEXT: fence.proxy.tensormap::generic.acquire.gpu
// CHECK: mbarrier.try_wait.parity
// CHECK: mbarrier.arrive.expect_tx
// CHECK: cp.async.bulk.tensor.2d
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// Q reaches its first wgmma's register operand through shared memory, its
// rows banded by warp (the loop is warp-specialized), so a barrier of each
// warp orders its store and loads, not the consumers' (barrier 0).
// CHECK-NOT: cp.async.bulk.tensor
// CHECK-NOT: bar.sync 0, 256;
// CHECK: bar.warp.sync
// CHECK-NOT: bar.sync 0, 256;
// CHECK: wgmma.mma_async
// CHECK: bar.arrive {{[12]}}, 256;
// CHECK: bar.sync {{[12]}}, 256;
// CHECK: wgmma.mma_async
// CHECK: bar.arrive {{[12]}}, 256;
// CHECK-NOT: cp.async.bulk.tensor
// CHECK-NOT: .local
