// RUN: terrazzo-opt %s -split-input-file --terrazzo-insert-barriers | FileCheck %s

// The first use of shared memory needs no barrier in front. An op whose
// scratch overlaps the previous op's needs one (it would overwrite what
// other threads may still be reading); one whose scratch is apart does
// not, and neither does the op after that back at offset 0: the barrier
// inside the middle op already waited for the first op's reads.

// CHECK-LABEL: func.func private @sequence
// CHECK-NEXT: tilegpu.convert_layout {{.*}}scratch_offset = 0
// CHECK-NEXT: tilegpu.convert_layout {{.*}}scratch_offset = 2048
// CHECK-NEXT: tilegpu.convert_layout {{.*}}scratch_offset = 0
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}scratch_offset = 0
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}scratch_offset = 0
// CHECK-NEXT: return
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @sequence(%x: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
    %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %z = tilegpu.convert_layout %y {tilegpu.scratch_offset = 2048 : i64} : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %w = tilegpu.convert_layout %z {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %u = tilegpu.convert_layout %w {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %t = tilegpu.convert_layout %u {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #a> -> tensor<512xf32, #b>
    return %t : tensor<512xf32, #b>
  }
}

// -----

// Reductions across warps: a softmax's two reductions. With their scratch
// at the same offset the second needs a barrier in front; apart, none.

// CHECK-LABEL: func.func private @same_offset
// CHECK: tile.reduce
// CHECK: tilegpu.barrier
// CHECK-NEXT: tile.reduce
// CHECK-LABEL: func.func private @apart
// CHECK-NOT: tilegpu.barrier
// CHECK: return
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @same_offset(%x: tensor<512xf32, #b>) -> (f32, f32) {
    %m = tile.reduce(%x) axis = 0 {tilegpu.scratch_offset = 0 : i64} : (tensor<512xf32, #b>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %r = arith.maxnumf %p, %q : f32
      tile.reduce.return %r : f32
    }
    %s = tile.reduce(%x) axis = 0 {tilegpu.scratch_offset = 0 : i64} : (tensor<512xf32, #b>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.reduce.return %r : f32
    }
    return %m, %s : f32, f32
  }
  func.func private @apart(%x: tensor<512xf32, #b>) -> (f32, f32) {
    %m = tile.reduce(%x) axis = 0 {tilegpu.scratch_offset = 0 : i64} : (tensor<512xf32, #b>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %r = arith.maxnumf %p, %q : f32
      tile.reduce.return %r : f32
    }
    %s = tile.reduce(%x) axis = 0 {tilegpu.scratch_offset = 16 : i64} : (tensor<512xf32, #b>) -> f32 {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.reduce.return %r : f32
    }
    return %m, %s : f32, f32
  }
}

// -----

// In a loop, the end of one iteration meets the start of the next: a
// conversion alone in the body at one offset conflicts with itself from
// the previous iteration and gets a barrier at the top of the body; the
// op after the loop conflicts too (the loop may have run).

// CHECK-LABEL: func.func private @loop
// CHECK: scf.for
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout
// CHECK: scf.yield
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @loop(%x: tensor<512xf32, #a>, %n: i32) -> tensor<512xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<512xf32, #a>) : i32 {
      %c = tilegpu.convert_layout %v {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #a> -> tensor<512xf32, #b>
      %d = arith.negf %c : tensor<512xf32, #b>
      %e = tilegpu.convert_layout %d : tensor<512xf32, #b> -> tensor<512xf32, #a>
      scf.yield %e : tensor<512xf32, #a>
    }
    %out = tilegpu.convert_layout %r {tilegpu.scratch_offset = 0 : i64} : tensor<512xf32, #a> -> tensor<512xf32, #b>
    return %out : tensor<512xf32, #b>
  }
}

// -----

// A barrier that a loop's body needs only for a write from before the
// loop (a buffer stored in front of it and read in it) goes in front of
// the loop, where it runs once, not at the read in every iteration.
// Must not: where the body writes the buffer too, its barriers stay (the
// read conflicts with the previous iteration's write as well), and none
// is added in front.

// CHECK-LABEL: func.func private @hoisted
// CHECK: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
// CHECK-LABEL: func.func private @written_in_loop
// CHECK: tilegpu.local_alloc
// CHECK-NEXT: scf.for
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store
// CHECK: scf.yield
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @hoisted(%x: tensor<512xf32, #a>, %n: i32) -> tensor<512xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc %x {tilegpu.buffer_offset = 0 : i64} : (tensor<512xf32, #a>) -> !tilegpu.memdesc<512xf32, #s>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #a>) : i32 {
      %v = tilegpu.local_load %buf : !tilegpu.memdesc<512xf32, #s> -> tensor<512xf32, #a>
      %s = arith.addf %acc, %v : tensor<512xf32, #a>
      scf.yield %s : tensor<512xf32, #a>
    }
    return %r : tensor<512xf32, #a>
  }
  func.func private @written_in_loop(%x: tensor<512xf32, #a>, %n: i32) -> tensor<512xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc %x {tilegpu.buffer_offset = 0 : i64} : (tensor<512xf32, #a>) -> !tilegpu.memdesc<512xf32, #s, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #a>) : i32 {
      %v = tilegpu.local_load %buf : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
      %s = arith.addf %acc, %v : tensor<512xf32, #a>
      tilegpu.local_store %s, %buf : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
      scf.yield %s : tensor<512xf32, #a>
    }
    return %r : tensor<512xf32, #a>
  }
}

// -----

// Must not: a barrier already there is not doubled, and a read after a
// read needs none. Explicit buffers: a store then a load of the same buffer
// needs one (read after write); loads of two different buffers after it
// do not.

// CHECK-LABEL: func.func private @buffers
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: return
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @buffers(%x: tensor<512xf32, #a>) {
    %p = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    %q = tilegpu.local_alloc {tilegpu.buffer_offset = 2048 : i64} : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    tilegpu.local_store %x, %p : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %u = tilegpu.local_load %p : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %v = tilegpu.local_load %q : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %w = tilegpu.local_load %p : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    tilegpu.barrier
    tilegpu.local_store %x, %q : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    return
  }
}

// -----

// An scf.if joins its branches: a write in one branch conflicts with a
// read after the if.

// CHECK-LABEL: func.func private @branches
// CHECK: scf.if
// CHECK-NOT: tilegpu.barrier
// CHECK: }
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @branches(%x: tensor<512xf32, #a>, %c: i1) -> tensor<512xf32, #a> {
    %p = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    scf.if %c {
      tilegpu.local_store %x, %p : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    }
    %u = tilegpu.local_load %p : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    return %u : tensor<512xf32, #a>
  }
}

// -----

// An asynchronous copy is a write that lands at the async_wait completing
// it: the read after the wait needs a barrier (other threads' copies), the
// copy itself none (nothing pending), and a barrier does not complete it.

// CHECK-LABEL: func.func private @async_copy
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.async_copy_global_to_local
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.async_wait
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NOT: tilegpu.barrier
// CHECK: return
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @async_copy(%ptrs: tensor<512x!tile.ptr<f32>, #a>, %x: tensor<512xf32, #a>) -> tensor<512xf32, #a> {
    %p = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    %q = tilegpu.local_alloc {tilegpu.buffer_offset = 2048 : i64} : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    %t = tilegpu.async_copy_global_to_local %ptrs, %p : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %g = tilegpu.async_commit_group tokens %t
    tilegpu.local_store %x, %q : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %u = tilegpu.local_load %q : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %w = tilegpu.async_wait tokens %g {num = 0 : i32}
    %v = tilegpu.local_load %p : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %s = arith.addf %u, %v : tensor<512xf32, #a>
    return %s : tensor<512xf32, #a>
  }
}

// -----

// Buffers of a stack picked by constant indices are told apart: refilling
// buffer 1 while buffer 0 is read needs no barrier, refilling buffer 0
// after reading it does.

// CHECK-LABEL: func.func private @double_buffer
// CHECK: tilegpu.async_wait {num = 1 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load %[[B0:.*]] :
// CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[B1:.*]] :
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[B0]] :
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @double_buffer(%ptrs: tensor<512x!tile.ptr<f32>, #a>) -> tensor<512xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %stack = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<2x512xf32, #s2, mutable>
    %b0 = tilegpu.memdesc_index %stack[%c0] : !tilegpu.memdesc<2x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %b1 = tilegpu.memdesc_index %stack[%c1] : !tilegpu.memdesc<2x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %t0 = tilegpu.async_copy_global_to_local %ptrs, %b0 : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %g0 = tilegpu.async_commit_group
    %w = tilegpu.async_wait {num = 1 : i32}
    %v = tilegpu.local_load %b0 : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %t1 = tilegpu.async_copy_global_to_local %ptrs, %b1 : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %g1 = tilegpu.async_commit_group
    %t2 = tilegpu.async_copy_global_to_local %ptrs, %b0 : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    return %v : tensor<512xf32, #a>
  }
}

// -----

// In a pipelined loop the buffer index changes every iteration, so each
// access may touch any buffer of the stack: a barrier after the wait
// (other threads' copies) and one before the next copy (other threads'
// reads of the buffer it refills). Copies still in flight after a wait
// that leaves groups pending keep counting as writes at the next wait.

// CHECK-LABEL: func.func private @pipelined
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait {num = 1 : i32}
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy_global_to_local
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @pipelined(%ptrs: tensor<512x!tile.ptr<f32>, #a>, %n: i32, %acc0: tensor<512xf32, #a>) -> tensor<512xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %stack = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<2x512xf32, #s2, mutable>
    %b0 = tilegpu.memdesc_index %stack[%c0] : !tilegpu.memdesc<2x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %t0 = tilegpu.async_copy_global_to_local %ptrs, %b0 : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %g0 = tilegpu.async_commit_group
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<512xf32, #a>) : i32 {
      %w = tilegpu.async_wait {num = 1 : i32}
      %cur = arith.remui %i, %c2 : i32
      %next = arith.xori %cur, %c1 : i32
      %b = tilegpu.memdesc_index %stack[%cur] : !tilegpu.memdesc<2x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
      %v = tilegpu.local_load %b : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
      %bn = tilegpu.memdesc_index %stack[%next] : !tilegpu.memdesc<2x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
      %t = tilegpu.async_copy_global_to_local %ptrs, %bn : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
      %g = tilegpu.async_commit_group
      %s = arith.addf %acc, %v : tensor<512xf32, #a>
      scf.yield %s : tensor<512xf32, #a>
    }
    return %r : tensor<512xf32, #a>
  }
}

// -----

// A pipeliner's refill marked tilegpu.reads_retired only waits for pending
// writes: after reading one buffer of a stack (dynamic index), refilling
// another needs no barrier, while the unmarked refill that follows it
// does; a marked refill after a pending write (local_store) still does.

// CHECK-LABEL: func.func private @reads_retired
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.async_copy_global_to_local {{.*}} {tilegpu.reads_retired}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy_global_to_local
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy_global_to_local {{.*}} {tilegpu.reads_retired}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @reads_retired(%ptrs: tensor<512x!tile.ptr<f32>, #a>, %x: tensor<512xf32, #a>, %r: i32, %w: i32) -> tensor<512xf32, #a> {
    %stack = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<3x512xf32, #s2, mutable>
    %read = tilegpu.memdesc_index %stack[%r] : !tilegpu.memdesc<3x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %write = tilegpu.memdesc_index %stack[%w] : !tilegpu.memdesc<3x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %v = tilegpu.local_load %read : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %t0 = tilegpu.async_copy_global_to_local %ptrs, %write {tilegpu.reads_retired} : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %t1 = tilegpu.async_copy_global_to_local %ptrs, %write : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    tilegpu.local_store %x, %read : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %t2 = tilegpu.async_copy_global_to_local %ptrs, %write {tilegpu.reads_retired} : tensor<512x!tile.ptr<f32>, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    return %v : tensor<512xf32, #a>
  }
}

// -----

// A TMA ring (terrazzo-pipeline's TMA form): after the mbarriers'
// initialisation (plain writes) the first arrival needs a barrier; a
// warp_group_dot whose operands only TMA copies write passes no barrier of
// its own, so it is a plain reader: no barrier before it (the mbarrier
// wait made the data visible), but one before the next copy into the
// stack it reads (another warp group may still read it); after the loop
// the invalidation (a write) waits for every thread's waits.
// CHECK-LABEL: func.func private @tma_ring
// CHECK: tilegpu.mbarrier_init
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.mbarrier_expect_tx
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local
// CHECK-NEXT: scf.for
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.warp_group_dot
// CHECK-NEXT: tilegpu.warp_group_dot_wait
// CHECK-NEXT: tilegpu.mbarrier_expect_tx
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local
// CHECK-NEXT: scf.yield
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.mbarrier_inval
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @tma_ring(%map: !tile.ptr<i8>, %k: i32, %acc0: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %stack = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<2x64x64xf16, #nv, mutable>
    %bars = tilegpu.local_alloc {tilegpu.buffer_offset = 16384 : i64} : () -> !tilegpu.memdesc<2x1xi64, #bar2, mutable>
    %b0 = tilegpu.memdesc_index %bars[%c0] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
    %s0 = tilegpu.memdesc_index %stack[%c0] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    tilegpu.mbarrier_init %b0, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_expect_tx %b0, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %s0, %b0 : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %rb = tilegpu.memdesc_index %bars[%i] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      %rs = tilegpu.memdesc_index %stack[%i] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %wb = tilegpu.memdesc_index %bars[%k] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      %ws = tilegpu.memdesc_index %stack[%k] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      tilegpu.mbarrier_wait %rb, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot async %rs, %rs, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %w = tilegpu.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
      tilegpu.mbarrier_expect_tx %wb, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %map[%c0, %i] %ws, %wb : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      scf.yield %w : tensor<64x64xf32, #mma>
    }
    tilegpu.mbarrier_inval %b0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return %res : tensor<64x64xf32, #mma>
  }
}

// -----

// A TMA ring whose stages are released through empty mbarriers (a
// rotated dot chain): the refill, marked reads_retired, follows the dot's
// reads through the wait on the empty mbarrier that every warp arrived on
// after its own wait, so it needs no barrier; the arrivals, like the
// waits, are atomic on the mbarriers and need none either.
// CHECK-LABEL: func.func private @tma_ring_released
// CHECK: scf.for
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.mbarrier_inval
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @tma_ring_released(%map: !tile.ptr<i8>, %k: i32, %acc0: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %stack = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<2x64x64xf16, #nv, mutable>
    %bars = tilegpu.local_alloc {tilegpu.buffer_offset = 16384 : i64} : () -> !tilegpu.memdesc<2x1xi64, #bar2, mutable>
    %empty = tilegpu.local_alloc {tilegpu.buffer_offset = 16400 : i64} : () -> !tilegpu.memdesc<2x1xi64, #bar2, mutable>
    %e0 = tilegpu.memdesc_index %empty[%c0] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %e0, 4 : !tilegpu.memdesc<1xi64, #bar, mutable>
    %b0 = tilegpu.memdesc_index %bars[%c0] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
    %s0 = tilegpu.memdesc_index %stack[%c0] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    tilegpu.mbarrier_init %b0, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_expect_tx %b0, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %s0, %b0 : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %rb = tilegpu.memdesc_index %bars[%i] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      %rs = tilegpu.memdesc_index %stack[%i] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %wb = tilegpu.memdesc_index %bars[%k] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      %ws = tilegpu.memdesc_index %stack[%k] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      tilegpu.mbarrier_wait %rb, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      %d = tilegpu.warp_group_dot async %rs, %rs, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %w = tilegpu.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
      %eb = tilegpu.memdesc_index %empty[%k] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %eb, %c1 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %wb, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %map[%c0, %i] %ws, %wb {tilegpu.reads_retired} : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      %w0 = tilegpu.warp_group_dot_wait %w {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      %er = tilegpu.memdesc_index %empty[%i] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_arrive %er : !tilegpu.memdesc<1xi64, #bar, mutable>
      scf.yield %w0 : tensor<64x64xf32, #mma>
    }
    tilegpu.mbarrier_inval %b0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return %res : tensor<64x64xf32, #mma>
  }
}

// -----

// Two warp_group_dots reading buffers that cp.async copies write (a
// pipelined attention loop: K for the first, V for the second, both landed
// at the iteration's async_wait): a barrier in front of the first (the
// copies' writes are pending), none in front of the second (the first's
// barrier published them); the refills after them are marked
// reads_retired and need none either.
// CHECK-LABEL: func.func private @cp_async_dots
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warp_group_dot
// CHECK-NEXT: tilegpu.warp_group_dot
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @cp_async_dots(%ptrs: tensor<64x64x!tile.ptr<f16>, #blocked>, %k: i32, %acc0: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ks = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<3x64x64xf16, #nv, mutable>
    %vs = tilegpu.local_alloc {tilegpu.buffer_offset = 24576 : i64} : () -> !tilegpu.memdesc<3x64x64xf16, #nv, mutable>
    %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %w = tilegpu.async_wait {num = 1 : i32}
      %kb = tilegpu.memdesc_index %ks[%i] : !tilegpu.memdesc<3x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vb = tilegpu.memdesc_index %vs[%i] : !tilegpu.memdesc<3x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %s = tilegpu.warp_group_dot %kb, %kb, %acc0 : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %o = tilegpu.warp_group_dot %vb, %vb, %acc : !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<64x64xf16, #nv, mutable> -> tensor<64x64xf32, #mma>
      %sum = arith.addf %s, %o : tensor<64x64xf32, #mma>
      %kw = tilegpu.memdesc_index %ks[%k] : !tilegpu.memdesc<3x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %vw = tilegpu.memdesc_index %vs[%k] : !tilegpu.memdesc<3x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %c1k = tilegpu.async_copy_global_to_local %ptrs, %kw {tilegpu.reads_retired} : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %c2k = tilegpu.async_copy_global_to_local %ptrs, %vw {tilegpu.reads_retired} : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      %g = tilegpu.async_commit_group
      scf.yield %sum : tensor<64x64xf32, #mma>
    }
    return %res : tensor<64x64xf32, #mma>
  }
}

// -----

// A tilegpu.warp_specialize opens with a barrier of all warps: the
// mbarrier initialised before it needs none of its own. Its producer meets
// the consumers through mbarriers only and gets no barrier (its expect_tx
// and copy would otherwise conflict with the initialisation); the
// consumers are walked as the code they are (their write of a buffer they
// read back gets a barrier), and what they leave pending reaches the code
// after the op.
// CHECK-LABEL: func.func @warp_specialized
// CHECK: tilegpu.mbarrier_init
// CHECK-NEXT: tilegpu.warp_specialize
// CHECK-NEXT: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.partition_end
// CHECK-NEXT: } producer {
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.partition_end
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.mbarrier_inval
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @warp_specialized(%map: !tile.ptr<i8>, %x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    %bar = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 9216 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
      %y = tilegpu.local_load %tmp : !tilegpu.memdesc<256xf32, #flat, mutable> -> tensor<256xf32, #blocked>
      tilegpu.partition_end
    } producer {
      tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.partition_end
    }
    tilegpu.mbarrier_inval %bar : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    return %x : tensor<256xf32, #blocked>
  }
}

// -----

// A generic-proxy write to memory that a TMA copy writes too (scratch or
// an mbarrier whose memory the copy's buffer reuses): the writing threads
// fence it for the async proxy (fence.proxy.async) right after writing;
// the barrier the copy needs after the write comes from the conflict as
// before. A write beside every TMA buffer gets no fence (the second
// function), nor does one that the next op fences already (the third).
// The fence follows the write, so that a write in front of a loop of
// refills is fenced once, in front of the loop, and the loop gets none
// (the fourth function).
// CHECK-LABEL: func.func private @tma_over_generic_writes
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.mbarrier_expect_tx
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_tma_copy_global_to_local
// CHECK-LABEL: func.func private @tma_beside_generic_writes
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-LABEL: func.func private @already_fenced
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence_async_shared %{{.*}} :
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: tilegpu.async_tma_copy_global_to_local
// CHECK-LABEL: func.func private @refills_after_a_generic_write
// CHECK: tilegpu.mbarrier_inval
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK: scf.for
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.mbarrier_wait
// CHECK-NEXT: }
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#bar2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @tma_over_generic_writes(%map: !tile.ptr<i8>, %x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %bar = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    %y = tilegpu.local_load %tmp : !tilegpu.memdesc<256xf32, #flat, mutable> -> tensor<256xf32, #blocked>
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return %y : tensor<256xf32, #blocked>
  }
  func.func private @tma_beside_generic_writes(%map: !tile.ptr<i8>, %x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %bar = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 9216 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    %y = tilegpu.local_load %tmp : !tilegpu.memdesc<256xf32, #flat, mutable> -> tensor<256xf32, #blocked>
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return %y : tensor<256xf32, #blocked>
  }
  func.func private @already_fenced(%map: !tile.ptr<i8>, %x: tensor<256xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %bar = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.fence_async_shared %tmp : !tilegpu.memdesc<256xf32, #flat, mutable>
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return
  }
  func.func private @refills_after_a_generic_write(%map: !tile.ptr<i8>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %once = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %once, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_inval %once : !tilegpu.memdesc<1xi64, #bar, mutable>
    %stack = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<2x64x64xf16, #nv, mutable>
    %bars = tilegpu.local_alloc {tilegpu.buffer_offset = 16384 : i64} : () -> !tilegpu.memdesc<2x1xi64, #bar2, mutable>
    tilegpu.barrier
    scf.for %i = %c0 to %k step %c1 : i32 {
      %b = tilegpu.memdesc_index %bars[%i] : !tilegpu.memdesc<2x1xi64, #bar2, mutable> -> !tilegpu.memdesc<1xi64, #bar, mutable>
      %s = tilegpu.memdesc_index %stack[%i] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
      tilegpu.mbarrier_expect_tx %b, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %map[%c0, %i] %s, %b {tilegpu.reads_retired} : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %b, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      scf.yield
    }
    return
  }
}

// -----

// A warp_specialize whose consumers write, through the generic proxy,
// memory that the producer's TMA copies write too (an epilogue's scratch
// over the next tile's buffer, say): the consumers fence after the write,
// before they hand the memory over (the mbarrier arrival that the
// producer waits for); the producer gets neither fence nor barrier.
// CHECK-LABEL: func.func @consumer_writes_under_producer_copies
// CHECK: tilegpu.warp_specialize
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK: tilegpu.mbarrier_arrive
// CHECK: } producer {
// CHECK-NOT: tilegpu.barrier
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: tilegpu.partition_end
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @consumer_writes_under_producer_copies(%map: !tile.ptr<i8>, %x: tensor<256xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    %full = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    %empty = tilegpu.local_alloc {tilegpu.buffer_offset = 8200 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.mbarrier_init %full, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %empty, 8 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
      tilegpu.mbarrier_arrive %empty : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_wait %full, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.partition_end
    } producer {
      tilegpu.mbarrier_wait %empty, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.mbarrier_expect_tx %full, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %full : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #nv, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
      tilegpu.partition_end
    }
    return
  }
}

// -----

// The fence after a generic write is left out where a later op of the
// block fences again before anything could let a copy start: a wgmma
// whose operands generic stores wrote fences them in its lowering (the
// first function; its B lies where a later TMA copy writes). A barrier in
// between keeps it (the second function: another thread may issue the copy
// once past the barrier, before this thread's later fence), and so does a
// TMA store in between, which reads through the async proxy what the
// fence ordered (the third).
// CHECK-LABEL: func.func private @dot_fences_its_operands
// CHECK: tilegpu.local_alloc %
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: tilegpu.warp_group_dot
// CHECK-LABEL: func.func private @barrier_before_the_later_fence
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-LABEL: func.func private @tma_store_before_the_later_fence
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.async_tma_copy_local_to_global
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence_async_shared
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @dot_fences_its_operands(%map: !tile.ptr<i8>, %q: tensor<64x64xf16, #blocked>, %k: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %qs = tilegpu.local_alloc %q {tilegpu.buffer_offset = 0 : i64} : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #s>
    %ks = tilegpu.local_alloc %k {tilegpu.buffer_offset = 8192 : i64} : (tensor<64x64xf16, #blocked>) -> !tilegpu.memdesc<64x64xf16, #s>
    %d = tilegpu.warp_group_dot %qs, %ks, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
    %bar = tilegpu.local_alloc {tilegpu.buffer_offset = 16384 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<64x64xf16, #s, mutable>
    tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #s, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return %d : tensor<64x64xf32, #mma>
  }
  func.func private @barrier_before_the_later_fence(%map: !tile.ptr<i8>, %x: tensor<256xf32, #b1>) {
    %c0 = arith.constant 0 : i32
    %bar = tilegpu.local_alloc {tilegpu.buffer_offset = 8192 : i64} : () -> !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_init %bar, 1 : !tilegpu.memdesc<1xi64, #bar, mutable>
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.local_store %x, %tmp : tensor<256xf32, #b1> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.barrier
    %buf = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x64xf16, #s, mutable>
    tilegpu.fence_async_shared
    tilegpu.mbarrier_expect_tx %bar, 8192 : !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.async_tma_copy_global_to_local %map[%c0, %c0] %buf, %bar : !tile.ptr<i8>, !tilegpu.memdesc<64x64xf16, #s, mutable>, !tilegpu.memdesc<1xi64, #bar, mutable>
    tilegpu.mbarrier_wait %bar, %c0 : !tilegpu.memdesc<1xi64, #bar, mutable>
    return
  }
  func.func private @tma_store_before_the_later_fence(%map: !tile.ptr<i8>, %x: tensor<256xf32, #b1>) {
    %c0 = arith.constant 0 : i32
    %out = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.local_store %x, %out : tensor<256xf32, #b1> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.barrier
    %tmp = tilegpu.local_alloc {tilegpu.buffer_offset = 1024 : i64} : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.fence_async_shared
    tilegpu.async_tma_copy_local_to_global %map[%c0] %out : !tile.ptr<i8>, !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.local_store %x, %tmp : tensor<256xf32, #b1> -> !tilegpu.memdesc<256xf32, #flat, mutable>
    tilegpu.fence_async_shared
    tilegpu.barrier
    return
  }
}
