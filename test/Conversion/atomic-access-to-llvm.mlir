// RUN: terrazzo-opt %s -split-input-file --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// tile.atomic_load, tile.atomic_store and tile.atomic_poll: LLVM `load
// atomic` / `store atomic` with the op's ordering and syncscope ("device"
// for gpu, "block" for cta, none for sys), done once per element by its
// owner. A release store waits for the program's threads first and an
// acquire load or poll makes them wait for it (barriers); a false mask
// skips the element, which loads as 0.

// One element per thread (128 elements, 4 warps): no copies.

// CHECK-LABEL: llvm.func @load_acquire
// CHECK: %[[M:.*]] = llvm.extractvalue %arg1[0] : !llvm.struct<(i1)>
// CHECK: %[[Z:.*]] = llvm.mlir.zero : i32
// CHECK: llvm.cond_br %[[M]], ^[[DO:bb[0-9]+]], ^[[JOIN:bb[0-9]+]](%[[Z]] : i32)
// CHECK: ^[[DO]]:
// CHECK: %[[V:.*]] = llvm.load %{{.*}} atomic syncscope("device") acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK: llvm.br ^[[JOIN]](%[[V]] : i32)
// CHECK: ^[[JOIN]](%[[R:.*]]: i32):
// CHECK: nvvm.barrier0
// CHECK: llvm.insertvalue %[[R]]
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @load_acquire(%p: tensor<128x!tile.ptr<i32>, #b4>,
                                  %m: tensor<128xi1, #b4>) -> tensor<128xi32, #b4> {
    %0 = tile.atomic_load acquire, gpu, %p, %m : tensor<128x!tile.ptr<i32>, #b4>
    return %0 : tensor<128xi32, #b4>
  }
}

// -----

// A relaxed load needs no barrier; cta scope is syncscope "block".

// CHECK-LABEL: llvm.func @load_relaxed
// CHECK: llvm.load %{{.*}} atomic syncscope("block") monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> f64
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @load_relaxed(%p: tensor<128x!tile.ptr<f64>, #b4>) -> tensor<128xf64, #b4> {
    %0 = tile.atomic_load relaxed, cta, %p : tensor<128x!tile.ptr<f64>, #b4>
    return %0 : tensor<128xf64, #b4>
  }
}

// -----

// A release store: the barrier comes first, then the masked store.

// CHECK-LABEL: llvm.func @store_release
// CHECK: %[[M:.*]] = llvm.extractvalue %arg2[0] : !llvm.struct<(i1)>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.cond_br %[[M]], ^[[DO:bb[0-9]+]], ^[[JOIN:bb[0-9]+]]
// CHECK: ^[[DO]]:
// CHECK: llvm.store %{{.*}}, %{{.*}} atomic release {alignment = 2 : i64} : f16, !llvm.ptr<1>
// CHECK: ^[[JOIN]]:
// CHECK-NOT: llvm.store
// CHECK: llvm.return

// A relaxed store has no barrier.
// CHECK-LABEL: llvm.func @store_relaxed
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} atomic syncscope("device") monotonic {alignment = 1 : i64} : i8, !llvm.ptr<1>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @store_release(%p: tensor<128x!tile.ptr<f16>, #b4>, %v: tensor<128xf16, #b4>,
                                   %m: tensor<128xi1, #b4>) {
    tile.atomic_store release, sys, %p, %v, %m : tensor<128x!tile.ptr<f16>, #b4>
    return
  }
  func.func private @store_relaxed(%p: tensor<128x!tile.ptr<i8>, #b4>, %v: tensor<128xi8, #b4>) {
    tile.atomic_store relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i8>, #b4>
    return
  }
}

// -----

// A scalar load over 4 warps: thread 0 loads, every thread reads the value
// from shared memory after the barrier, which also orders the acquire.

// CHECK-LABEL: llvm.func @scalar_load
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[OWN:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: llvm.cond_br %[[OWN]]
// CHECK: llvm.load %arg0 atomic syncscope("device") acquire {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @scalar_load(%p: !tile.ptr<i64>) -> i64 {
    %0 = tile.atomic_load acquire, gpu, %p : !tile.ptr<i64>
    return %0 : i64
  }
}

// -----

// A poll with a timeout: the global timer is read once before the loop; an
// element's loop ends with true when the load sees the expected value, or
// with false when the timer has passed the timeout after a failed load.

// CHECK-LABEL: llvm.func @poll_timeout
// CHECK: %[[START:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: llvm.br ^[[LOOP:bb[0-9]+]]
// CHECK: ^[[LOOP]]:
// CHECK: %[[V:.*]] = llvm.load %{{.*}} atomic syncscope("device") acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[V]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[EQ]], ^[[EXIT:bb[0-9]+]](%{{.*}} : i1), ^[[CHECK:bb[0-9]+]]
// CHECK: ^[[CHECK]]:
// CHECK: %[[NOW:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: %[[EL:.*]] = llvm.sub %[[NOW]], %[[START]] : i64
// CHECK: %[[EXP:.*]] = llvm.icmp "uge" %[[EL]], %arg2 : i64
// CHECK: llvm.cond_br %[[EXP]], ^[[EXIT]](%{{.*}} : i1), ^[[LOOP]]
// CHECK: ^[[EXIT]](%{{.*}}: i1):
// CHECK: nvvm.barrier0
// CHECK: llvm.return
#b4 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @poll_timeout(%p: tensor<128x!tile.ptr<i32>, #b4>, %e: tensor<128xi32, #b4>,
                                  %t: i64) -> tensor<128xi1, #b4> {
    %0 = tile.atomic_poll acquire, gpu, %p, %e timeout %t : tensor<128x!tile.ptr<i32>, #b4>
    return %0 : tensor<128xi1, #b4>
  }
}

// -----

// A relaxed poll without a timeout, in one warp: lane 0 loops until it sees
// the value, reads no timer and needs no barrier; the lanes get its result
// by a shuffle.

// CHECK-LABEL: llvm.func @poll_scalar
// CHECK-NOT: globaltimer
// CHECK: ^[[LOOP:bb[0-9]+]]:{{.*}}2 preds
// CHECK-NEXT: %[[V:.*]] = llvm.load %arg0 atomic monotonic {alignment = 2 : i64} : !llvm.ptr<1> -> i16
// CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[V]], %arg1 : i16
// CHECK: llvm.cond_br %[[EQ]], ^{{.*}}(%{{.*}} : i1), ^[[LOOP]]
// CHECK: nvvm.shfl.sync {{ *}}idx
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @poll_scalar(%p: !tile.ptr<i16>, %e: i16) -> i1 {
    %0 = tile.atomic_poll relaxed, sys, %p, %e : !tile.ptr<i16>
    return %0 : i1
  }
}
