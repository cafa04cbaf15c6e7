// RUN: terrazzo-opt %s -split-input-file --terrazzo-allocate-shared-memory --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// On NVIDIA (8 warps: two warp groups) a warp group's barrier is named
// barrier 8 + g of 128 threads, in a branch per group with the number a
// constant; a warp's is bar.warp.sync of every lane; the program's stays
// barrier 0 of all threads.
// CHECK-LABEL: llvm.func @scopes
// CHECK: "bar.sync 8, 128;"
// CHECK: "bar.sync 9, 128;"
// CHECK-NOT: bar.sync 10
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.barrier0
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @scopes() {
    tilegpu.barrier scope warp_group
    tilegpu.barrier scope warp
    tilegpu.barrier
    return
  }
}

// -----

// In a warp-specialized program the groups count every warp: the
// consumers' two and the producer's (group 2, barrier 10); in the
// consumers' partition, a branch for each of theirs only (the producer
// has no barriers: the verifier refuses them).
// CHECK-LABEL: llvm.func @specialized
// CHECK: "bar.sync 8, 128;"
// CHECK: "bar.sync 9, 128;"
// CHECK: "bar.sync 10, 128;"
// CHECK-NOT: bar.sync 11
// CHECK: "bar.sync 8, 128;"
// CHECK: "bar.sync 9, 128;"
// CHECK-NOT: bar.sync 1{{[01]}}, 128
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @specialized() {
    tilegpu.barrier scope warp_group
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.barrier scope warp_group
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

// AMD GPUs have no narrower barrier: each scope waits for the whole
// program (s_barrier), which is stronger.
// CHECK-LABEL: llvm.func @amd
// CHECK-COUNT-3: rocdl.s.barrier
// CHECK-NOT: bar.sync
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @amd() {
    tilegpu.barrier scope warp_group
    tilegpu.barrier scope warp
    tilegpu.barrier
    return
  }
}

// -----

// A layout conversion through shared memory waits between its stores and
// its loads at the barrier terrazzo-insert-barriers recorded on it
// (tilegpu.barrier_scope: 2 a warp's), the program's without one.
// CHECK-LABEL: llvm.func @conversion_scopes
// CHECK: llvm.store
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.load
// CHECK: nvvm.barrier0
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#band = #tilegpu.blocked<{sizePerThread = [8, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @conversion_scopes(%x: tensor<128x64xf32, #mma>) -> (tensor<128x64xf32, #band>, tensor<128x64xf32, #band>) {
    %b = tilegpu.convert_layout %x {tilegpu.barrier_scope = 2 : i32} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #band>
    %t = tilegpu.convert_layout %x : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #band>
    return %b, %t : tensor<128x64xf32, #band>, tensor<128x64xf32, #band>
  }
}
