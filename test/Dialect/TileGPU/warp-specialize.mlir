// RUN: terrazzo-opt %s | terrazzo-opt | FileCheck %s

// tilegpu.warp_specialize round-trips: 8 consumer warps, 4 producer warps
// (the module launches 12), the producer's scalar loop issuing a TMA copy.
// CHECK: "tilegpu.total-num-warps" = 12 : i32
// CHECK-LABEL: func.func @split
// CHECK: tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
// CHECK-NEXT: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.partition_end
// CHECK-NEXT: } producer {
// CHECK-NEXT: tilegpu.mbarrier_expect_tx
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local
// CHECK-NEXT: tilegpu.partition_end
// CHECK-NEXT: }
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @split(%map: !tile.ptr<i8>, %i: i32) {
    %c0 = arith.constant 0 : i32
    %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    %bar = tilegpu.local_alloc : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.partition_end
    } producer {
      tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %map[%i, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.partition_end
    }
    tilegpu.mbarrier_inval %bar : !tilegpu.memdesc<1xi64, #bar, mutable>
    return
  }
}
