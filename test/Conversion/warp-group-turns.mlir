// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm | FileCheck %s

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

// -----

// Values tied to the turns: a wait's values come out or-ed, element by
// element, with a zero that ptxas cannot fold (the population count of a
// word of shared memory read volatile after the barrier, shifted right by
// 6), and a pass's values, or-ed together, feed its arrival's thread count
// through the same zero (256 threads, in a register).
// CHECK-LABEL: llvm.func @tied
// CHECK: "bar.sync 1, $0;", "n"
// CHECK: "bar.sync 2, $0;", "n"
// CHECK: %[[Z:.*]] = llvm.inline_asm has_side_effects "ld.volatile.shared.u32 $0, [$1]; popc.b32 $0, $0; shr.u32 $0, $0, 6; ", "=r,l"
// CHECK: %[[B0:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: %[[O0:.*]] = llvm.or %[[B0]], %[[Z]] : i32
// CHECK-NEXT: llvm.bitcast %[[O0]] : i32 to f32
// CHECK: %[[B1:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: %[[O1:.*]] = llvm.or %[[B1]], %[[Z]] : i32
// CHECK: %[[S0:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: %[[S1:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: %[[T:.*]] = llvm.or %[[S0]], %[[S1]] : i32
// CHECK: llvm.inline_asm has_side_effects "{ .reg .b32 z; ld.volatile.shared.u32 z, [$1]; popc.b32 z, z; shr.u32 z, z, 6; and.b32 z, z, $0; or.b32 z, z, $2; bar.arrive 2, z; }", "r,l,n" %[[T]]
// CHECK: bar.arrive 1, z; }", "r,l,n" %[[T]]
// CHECK: llvm.return
#row = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.shared" = 16 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tied(%m: tensor<512xf32, #row>, %out: tensor<512x!tile.ptr<f32>, #row>) {
    %t = tilegpu.warp_group_turn_wait(%m : tensor<512xf32, #row>)
    tile.store %out, %t : tensor<512x!tile.ptr<f32>, #row>
    %s = arith.addf %t, %t : tensor<512xf32, #row>
    tilegpu.warp_group_turn_pass(%s : tensor<512xf32, #row>)
    return
  }
}

// -----

// Values are tied to a turn through a read of shared memory: a module
// without any gets a located error, not a crash.
#row = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tied_without_shared_memory(%m: tensor<512xf32, #row>) {
    // expected-error @+2 {{needs shared memory but the module declares no 'global_smem'}}
    // expected-error @+1 {{failed to legalize operation 'tilegpu.warp_group_turn_wait'}}
    %t = tilegpu.warp_group_turn_wait(%m : tensor<512xf32, #row>)
    return
  }
}
