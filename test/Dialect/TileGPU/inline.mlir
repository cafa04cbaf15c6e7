// RUN: terrazzo-opt %s -split-input-file -inline | FileCheck %s

// A helper holding a tilegpu op (tl.debug_barrier's barrier, before layouts
// are assigned) is inlined like any other: no call, no private function
// left once the call is gone.
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: call
// CHECK: tilegpu.barrier
// CHECK: tile.atomic_rmw add, acq_rel, gpu
// CHECK-NOT: func.func private @helper
module {
  func.func private @helper(%p: !tile.ptr<i32>) -> i32 {
    %c1 = arith.constant 1 : i32
    tilegpu.barrier
    %old = tile.atomic_rmw add, acq_rel, gpu, %p, %c1 : !tile.ptr<i32>
    return %old : i32
  }
  func.func @kernel(%p: !tile.ptr<i32>) -> i32 {
    %r = func.call @helper(%p) : (!tile.ptr<i32>) -> i32
    return %r : i32
  }
}

// -----

// Scoped barriers inline too (they are what a helper's conversions use).
// CHECK-LABEL: func.func @scoped
// CHECK-NOT: call
// CHECK: tilegpu.barrier scope warp
module {
  func.func private @warp_helper() {
    tilegpu.barrier scope warp
    return
  }
  func.func @scoped() {
    func.call @warp_helper() : () -> ()
    return
  }
}
