// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics -cse -canonicalize | FileCheck %s

// Two reads of the global timer are two values (it is not pure), and the
// grid dependency controls stay though nothing uses them; two reads of the
// processor id are one (it is pure), and an unused one goes away.
// CHECK-LABEL: func.func @effects
// CHECK: tilegpu.grid_dependency_wait
// CHECK: %[[START:.*]] = tilegpu.global_timer : i64
// CHECK: %[[END:.*]] = tilegpu.global_timer : i64
// CHECK: arith.subi %[[END]], %[[START]]
// CHECK: %[[P:.*]] = tilegpu.processor_id : i32
// CHECK-NOT: tilegpu.processor_id
// CHECK: arith.addi %[[P]], %[[P]]
// CHECK: tilegpu.grid_dependency_launch
func.func @effects() -> (i64, i32) {
  tilegpu.grid_dependency_wait
  %start = tilegpu.global_timer : i64
  %end = tilegpu.global_timer : i64
  %t = arith.subi %end, %start : i64
  %p = tilegpu.processor_id : i32
  %q = tilegpu.processor_id : i32
  %unused = tilegpu.processor_id : i32
  %s = arith.addi %p, %q : i32
  tilegpu.grid_dependency_launch
  return %t, %s : i64, i32
}

// -----

func.func @timer_is_i64() -> i32 {
  // expected-error @+1 {{'tilegpu.global_timer' op result #0 must be 64-bit signless integer, but got 'i32'}}
  %t = tilegpu.global_timer : i32
  return %t : i32
}

// -----

func.func @processor_id_is_i32() -> i64 {
  // expected-error @+1 {{'tilegpu.processor_id' op result #0 must be 32-bit signless integer, but got 'i64'}}
  %p = tilegpu.processor_id : i64
  return %p : i64
}

// -----

// A prefetch has no result and stays: it is not pure.
// CHECK-LABEL: func.func @prefetch_stays
// CHECK-COUNT-2: tilegpu.prefetch_global
#pf = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @prefetch_stays(%p: tensor<128x!tile.ptr<f32>, #pf>) {
  tilegpu.prefetch_global %p : tensor<128x!tile.ptr<f32>, #pf>
  tilegpu.prefetch_global %p : tensor<128x!tile.ptr<f32>, #pf>
  return
}
