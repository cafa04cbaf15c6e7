// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-unroll-loops | FileCheck %s

// tl.range(0, 8, loop_unroll_factor=2): the body twice per iteration of a
// loop of step 2, the carried sum threaded through both copies; the
// attribute goes.
// CHECK-LABEL: func.func @static_trip_count
// CHECK: scf.for %{{.*}} = %c0_i32 to %c8_i32 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32)
// CHECK: %[[A:.*]] = arith.addi %[[ACC]], %{{.*}} : i32
// CHECK: arith.addi %[[A]], %{{.*}} : i32
// CHECK-NOT: tile.loop_unroll_factor
func.func @static_trip_count() -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %s = arith.addi %acc, %i : i32
    scf.yield %s : i32
  } {tile.loop_unroll_factor = 2 : i32}
  return %r : i32
}

// -----

// A trip count known only at run time: the unrolled loop runs the whole
// groups of 4, a second loop the iterations left.
// CHECK-LABEL: func.func @dynamic_trip_count
// CHECK: %[[MAIN:.*]] = scf.for
// CHECK-COUNT-4: arith.addi
// CHECK: scf.yield
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[MAIN]])
// CHECK-NOT: tile.loop_unroll_factor
func.func @dynamic_trip_count(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %s = arith.addi %acc, %i : i32
    scf.yield %s : i32
  } {tile.loop_unroll_factor = 4 : i32}
  return %r : i32
}

// -----

// Must not: a factor of 1 leaves the loop (without the attribute); the
// loop options that are not unrolling stay.
// CHECK-LABEL: func.func @factor_one
// CHECK: scf.for
// CHECK-COUNT-1: arith.addi
// CHECK: } {tile.num_stages = 2 : i32}
func.func @factor_one(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %s = arith.addi %acc, %i : i32
    scf.yield %s : i32
  } {tile.loop_unroll_factor = 1 : i32, tile.num_stages = 2 : i32}
  return %r : i32
}

// -----

// Must not: a step known only at run time is not unrolled, with a remark.
func.func @dynamic_step(%n: i32, %s: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{loop_unroll_factor 2 ignored: the loop's step is not a positive constant}}
  %r = scf.for %i = %c0 to %n step %s iter_args(%acc = %c0) -> (i32) : i32 {
    %x = arith.addi %acc, %i : i32
    scf.yield %x : i32
  } {tile.loop_unroll_factor = 2 : i32}
  return %r : i32
}

// -----

// Must not: a factor that would make the body larger than 2^16 operations
// is ignored, with a remark (the fuzzer's 2^20 on this body ran out of
// memory); the loop keeps its one-op body.
// CHECK-LABEL: func.func @huge_factor
// CHECK: scf.for
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.yield
// CHECK-NOT: scf.for
func.func @huge_factor(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{loop_unroll_factor 1048576 ignored: the unrolled body would have more than 65536 operations (the body has 2)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %x = arith.addi %acc, %i : i32
    scf.yield %x : i32
  } {tile.loop_unroll_factor = 1048576 : i32}
  return %r : i32
}

// -----

func.func @bad_factor(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'tile.loop_unroll_factor' must be an i32 of at least 1, got 0 : i32}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.loop_unroll_factor = 0 : i32}
  return
}

// -----

func.func @option_on_another_op(%x: i32) -> i32 {
  // expected-error @+1 {{'tile.num_stages' is a loop option, for scf.for only}}
  %y = arith.addi %x, %x {tile.num_stages = 2 : i32} : i32
  return %y : i32
}
