// RUN: terrazzo-opt %s -split-input-file --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

// Warp groups taking turns (8 warps: two groups) on named barriers 1 and 2,
// each counting the 128 threads that wait and the 128 that arrive: group g
// waits at barrier 1 + g and passes at barrier 1 + (g + 1) % 2, each in a
// branch of its own with the barrier's number a constant; with `only`,
// that group alone.
// CHECK-LABEL: llvm.func @turns
// CHECK: "bar.sync 1, $0;", "n"
// CHECK: "bar.sync 2, $0;", "n"
// CHECK: "bar.arrive 2, $0;", "n"
// CHECK: "bar.arrive 1, $0;", "n"
// CHECK-NOT: bar.arrive 2
// CHECK: "bar.arrive 1, $0;", "n"
// CHECK-NOT: bar.sync 2
// CHECK: "bar.sync 1, $0;", "n"
// CHECK-NOT: bar.
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @turns() {
    tilegpu.warp_group_turn_wait
    tilegpu.warp_group_turn_pass
    tilegpu.warp_group_turn_pass {only = 1 : i32}
    tilegpu.warp_group_turn_wait {only = 0 : i32}
    return
  }
}
