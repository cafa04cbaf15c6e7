// RUN: terrazzo-opt %s --terrazzo-allocate-shared-memory --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tilegpu.warp_specialize on sm_90: the kernel is compiled for the 12 warps
// it launches (.maxntid 384, .maxnreg 168: the registers the setmaxnregs
// move); every warp passes one barrier (the mbarrier initialised before
// it is then visible), the producer's warps (thread index 256 and up)
// branch to the producer, give up registers and return at its end; the
// consumers take registers and go on after the op. In the consumers and
// after the op, a barrier is the consumers' (barrier 0 counting 256
// threads); in the producer, its first thread is the partition's (the
// thread index less 256) and issues the copies; its blocks' arguments
// (the loop's induction variable) are converted.
// CHECK-LABEL: llvm.func @split
// CHECK-SAME: nvvm.maxnreg = 168 : i32, nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.barrier0
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[P:.*]] = llvm.icmp "uge" %[[TID]], %[[N:.*]] : i32
// CHECK-NEXT: llvm.cond_br %[[P]], ^[[PRODUCER:.*]], ^[[CONSUMERS:[a-z0-9]*]]
// CHECK: ^[[CONSUMERS]]:
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: mbarrier.try_wait
// CHECK: "bar.sync 0, 256;"
// CHECK-NEXT: llvm.br ^[[AFTER:[a-z0-9]*]]
// CHECK: ^[[PRODUCER]]:
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: llvm.br ^[[HEAD:[a-z0-9]*]](
// CHECK: ^[[HEAD]](%{{.*}}: i32):
// CHECK: %[[PTID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[REL:.*]] = llvm.sub %[[PTID]], %{{.*}} : i32
// CHECK-NEXT: llvm.icmp "eq" %[[REL]]
// CHECK: mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: llvm.return
// CHECK: ^[[AFTER]]:
// CHECK-NEXT: "bar.sync 0, 256;"
// CHECK: nvvm.mbarrier.inval
// CHECK: llvm.return
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @split(%map: !tile.ptr<i8>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.barrier
      tilegpu.partition_end
    } producer {
      scf.for %i = %c0 to %n step %c64 : i32 {
        tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
        tilegpu.async_tma_copy_global_to_local %map[%i, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      }
      tilegpu.partition_end
    }
    tilegpu.barrier
    tilegpu.mbarrier_inval %bar : !tilegpu.memdesc<1xi64, #bar, mutable>
    return
  }
}
