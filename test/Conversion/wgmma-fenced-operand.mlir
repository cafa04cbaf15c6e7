// RUN: terrazzo-opt %s -split-input-file --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// A wgmma operand stored once before a loop and fenced there
// (tilegpu.fence_async_shared naming its buffer) needs no proxy fence in the
// loop: the fence follows the buffer's stores, and the barrier that
// terrazzo-insert-barriers puts between those stores and the first read
// comes after it: in front of the loop, since the loop's wgmma needs it
// only for those stores (it reads nothing else that needs one), so it
// runs once.
// CHECK-LABEL: llvm.func @fenced_before_loop
// CHECK: llvm.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// CHECK: llvm.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.br
// CHECK-NOT: nvvm.fence.proxy
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: nvvm.fence.proxy
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.fence.proxy
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @fenced_before_loop(%q: tensor<64x64xf16, #blocked>, %k: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %qs = tilegpu.local_alloc %q : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #s>
    tilegpu.fence_async_shared %qs : !tilegpu.memdesc<64x64xf16, #s>
    %ks = tilegpu.local_alloc %k : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #s>
    tilegpu.fence_async_shared %ks : !tilegpu.memdesc<64x64xf16, #s>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = tilegpu.warp_group_dot %qs, %ks, %acc : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Must not: without the fence after the store (or with another reader of
// the buffer before the fence) the wgmma fences for itself, in the loop.
// CHECK-LABEL: llvm.func @unfenced
// CHECK: llvm.store
// CHECK-NOT: nvvm.fence.proxy
// CHECK: llvm.br
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: nvvm.wgmma.fence.aligned
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @unfenced(%q: tensor<64x64xf16, #blocked>, %k: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %qs = tilegpu.local_alloc %q : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #s>
    %ks = tilegpu.local_alloc %k : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #s>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = tilegpu.warp_group_dot %qs, %ks, %acc : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// A buffer that only a TMA copy writes needs no proxy fence and no barrier
// before the wgmma that reads it, also when a tilegpu.fence_async_shared
// names it (a staged operand's fence, left on the TMA buffer that took the
// place of its value: attention's Q loaded through a descriptor); in a
// loop, a barrier there would hold every warp group to the others each
// iteration. The mbarrier wait made the data visible (the fence op itself
// stays, in front of the loop).
// CHECK-LABEL: llvm.func @tma_written_fenced
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// CHECK-NEXT: llvm.br ^bb{{[0-9]+}}(
// CHECK-NOT: nvvm.fence.proxy
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: nvvm.fence.proxy
// CHECK: nvvm.wgmma.commit.group.sync.aligned
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @tma_written_fenced(%map: !tile.ptr<i8>, %row: i32, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %qs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s, mutable>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %b, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_expect_tx %b, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %row] %qs, %b : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #s, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_wait %b, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.fence_async_shared %qs : !tilegpu.memdesc<64x64xf16, #s, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %d = tilegpu.warp_group_dot %qs, %qs, %acc : !tilegpu.memdesc<64x64xf16, #s, mutable>, !tilegpu.memdesc<64x64xf16, #s, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tilegpu.mbarrier_inval %b : !tilegpu.memdesc<1xi64, #bar, mutable>
    return %r : tensor<64x64xf32, #mma>
  }
}
