// RUN: terrazzo-opt %s -split-input-file --terrazzo-continuous-turns | FileCheck %s

// A loop over tiles around a loop that takes turns (a persistent kernel):
// the first pass goes in front of the loop over tiles, the last wait
// after it, and the tile's own pair is removed; the turns inside stay.
// CHECK-LABEL: func.func @per_tile
// CHECK: arith.constant 1
// CHECK-NEXT: tilegpu.warp_group_turn_pass {only = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK-NOT: only
// CHECK: scf.for
// CHECK-NEXT: tilegpu.warp_group_turn_wait{{$}}
// CHECK-NEXT: tilegpu.warp_group_turn_pass{{$}}
// CHECK-NOT: only
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.warp_group_turn_wait {only = 0 : i32}
// CHECK-NEXT: return
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @per_tile(%tiles: i32, %blocks: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %t = %c0 to %tiles step %c1 : i32 {
      tilegpu.warp_group_turn_pass {only = 1 : i32}
      scf.for %k = %c0 to %blocks step %c1 : i32 {
        tilegpu.warp_group_turn_wait
        tilegpu.warp_group_turn_pass
      }
      tilegpu.warp_group_turn_wait {only = 0 : i32}
    }
    return
  }
}

// -----

// Two loops in a row (a causal kernel's blocks off and on the diagonal),
// in a warp_specialize's consumers: one pair around both.
// CHECK-LABEL: func.func @two_loops
// CHECK: tilegpu.warp_specialize
// CHECK-NEXT: tilegpu.warp_group_turn_pass {only = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK: scf.for
// CHECK-NOT: only
// CHECK: tilegpu.warp_group_turn_wait {only = 0 : i32}
// CHECK-NEXT: tilegpu.partition_end
// CHECK-NEXT: } producer
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32, "tilegpu.total-num-warps" = 12 : i32} {
  func.func @two_loops(%n: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.warp_group_turn_pass {only = 1 : i32}
      scf.for %k = %c0 to %n step %c1 : i32 {
        tilegpu.warp_group_turn_wait
        tilegpu.warp_group_turn_pass
      }
      tilegpu.warp_group_turn_wait {only = 0 : i32}
      tilegpu.warp_group_turn_pass {only = 1 : i32}
      scf.for %k = %n to %m step %c1 : i32 {
        tilegpu.warp_group_turn_wait
        tilegpu.warp_group_turn_pass
      }
      tilegpu.warp_group_turn_wait {only = 0 : i32}
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

// Must not: one loop's pair, outside loops, is continuous already.
// CHECK-LABEL: func.func @one_loop
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tilegpu.warp_group_turn_pass {only = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK: tilegpu.warp_group_turn_wait {only = 0 : i32}
// CHECK-NEXT: return
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @one_loop(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tilegpu.warp_group_turn_pass {only = 1 : i32}
    scf.for %k = %c0 to %n step %c1 : i32 {
      tilegpu.warp_group_turn_wait
      tilegpu.warp_group_turn_pass
    }
    tilegpu.warp_group_turn_wait {only = 0 : i32}
    return
  }
}

// -----

// Must not: turns without ends of one group (nothing to merge).
// CHECK-LABEL: func.func @no_ends
// CHECK-NEXT: tilegpu.warp_group_turn_wait{{$}}
// CHECK-NEXT: tilegpu.warp_group_turn_pass{{$}}
// CHECK-NEXT: return
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @no_ends() {
    tilegpu.warp_group_turn_wait
    tilegpu.warp_group_turn_pass
    return
  }
}
