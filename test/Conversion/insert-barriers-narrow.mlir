// RUN: terrazzo-opt %s -split-input-file --terrazzo-insert-barriers=narrow=true | FileCheck %s


// Barriers of a warp group or a warp where every conflicting access is
// made by its threads. A wgmma's A rows are read by the warp group whose
// accumulator rows they are (8 warps, rows 64 g to 64 g + 63 for group
// g): written from a layout whose warps hold 16 whole rows each (warp w
// rows 16 w to 16 w + 15), the operand needs a barrier of each warp group
// only (B's value, which both groups read, was written before the
// program's barrier in front).
// CHECK-LABEL: func.func @operand_of_each_group
// CHECK: tilegpu.local_alloc %arg0 {tilegpu.buffer_offset
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier scope warp_group
// CHECK-NEXT: tilegpu.warp_group_dot
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#band = #tilegpu.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @operand_of_each_group(%q: tensor<128x128xf16, #band>, %kv: tensor<128x64xf16, #band>, %c: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %k = tilegpu.local_alloc %kv {tilegpu.buffer_offset = 32768 : i64} : (tensor<128x64xf16, #band>) -> !tilegpu.memdesc<128x64xf16, #nv>
    tilegpu.fence_async_shared %k : !tilegpu.memdesc<128x64xf16, #nv>
    tilegpu.barrier
    %a = tilegpu.local_alloc %q {tilegpu.buffer_offset = 0 : i64} : (tensor<128x128xf16, #band>) -> !tilegpu.memdesc<128x128xf16, #nv>
    tilegpu.fence_async_shared %a : !tilegpu.memdesc<128x128xf16, #nv>
    %d = tilegpu.warp_group_dot %a, %k, %c : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x64xf16, #nv> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}

// -----

// Must not: rows written by warps of both groups (a layout whose warps
// take 2 rows in turn) need the program's barrier.
// CHECK-LABEL: func.func @operand_rows_interleaved
// CHECK: tilegpu.local_alloc %arg0 {tilegpu.buffer_offset
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.warp_group_dot
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#turns = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @operand_rows_interleaved(%q: tensor<128x128xf16, #turns>, %kv: tensor<128x64xf16, #turns>, %c: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %k = tilegpu.local_alloc %kv {tilegpu.buffer_offset = 32768 : i64} : (tensor<128x64xf16, #turns>) -> !tilegpu.memdesc<128x64xf16, #nv>
    tilegpu.fence_async_shared %k : !tilegpu.memdesc<128x64xf16, #nv>
    tilegpu.barrier
    %a = tilegpu.local_alloc %q {tilegpu.buffer_offset = 0 : i64} : (tensor<128x128xf16, #turns>) -> !tilegpu.memdesc<128x128xf16, #nv>
    tilegpu.fence_async_shared %a : !tilegpu.memdesc<128x128xf16, #nv>
    %d = tilegpu.warp_group_dot %a, %k, %c : !tilegpu.memdesc<128x128xf16, #nv>, !tilegpu.memdesc<128x64xf16, #nv> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}

// -----

// A barrier of each warp orders each warp's own accesses only: a rewrite
// of the rows a warp read needs one of each warp, a read of other warps'
// rows (a layout that moves rows between warps) the program's; and where
// the rest of the block would need the program's barrier anyway, the first
// barrier is the program's (one barrier, not two).
// CHECK-LABEL: func.func @narrow_then_wide
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier scope warp
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.barrier scope warp
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.local_load
// CHECK-LABEL: func.func @wide_at_once
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.local_load
// CHECK-NOT: tilegpu.barrier
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @narrow_then_wide(%x: tensor<32x16xf32, #rows>, %y: tensor<32x16xf32, #rows>) -> (tensor<32x16xf32, #rows>, tensor<32x16xf32, #cols>) {
    %b = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<32x16xf32, #flat, mutable>
    tilegpu.local_store %x, %b : tensor<32x16xf32, #rows> -> !tilegpu.memdesc<32x16xf32, #flat, mutable>
    %r = tilegpu.local_load %b : !tilegpu.memdesc<32x16xf32, #flat, mutable> -> tensor<32x16xf32, #rows>
    tilegpu.local_store %y, %b : tensor<32x16xf32, #rows> -> !tilegpu.memdesc<32x16xf32, #flat, mutable>
    %c = tilegpu.local_load %b : !tilegpu.memdesc<32x16xf32, #flat, mutable> -> tensor<32x16xf32, #cols>
    return %r, %c : tensor<32x16xf32, #rows>, tensor<32x16xf32, #cols>
  }
  func.func @wide_at_once(%x: tensor<32x16xf32, #rows>) -> (tensor<32x16xf32, #rows>, tensor<32x16xf32, #cols>) {
    %b = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<32x16xf32, #flat, mutable>
    tilegpu.local_store %x, %b : tensor<32x16xf32, #rows> -> !tilegpu.memdesc<32x16xf32, #flat, mutable>
    %r = tilegpu.local_load %b : !tilegpu.memdesc<32x16xf32, #flat, mutable> -> tensor<32x16xf32, #rows>
    %c = tilegpu.local_load %b : !tilegpu.memdesc<32x16xf32, #flat, mutable> -> tensor<32x16xf32, #cols>
    return %r, %c : tensor<32x16xf32, #rows>, tensor<32x16xf32, #cols>
  }
}

// -----

// A conversion whose elements stay in their warp passes a barrier of the
// warp only: what it and earlier ops left in other warps stays pending, so
// a second such conversion over the same scratch needs the program's
// barrier in front (its warps write what other warps read); conversions
// over scratch apart need none (the second function).
// CHECK-LABEL: func.func private @warp_conversions
// CHECK: tilegpu.convert_layout {{.*}}tilegpu.barrier_scope = 2 : i32
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.convert_layout {{.*}}tilegpu.barrier_scope = 2 : i32
// CHECK-LABEL: func.func private @apart
// CHECK: tilegpu.convert_layout
// CHECK-NEXT: tilegpu.convert_layout
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#band = #tilegpu.blocked<{sizePerThread = [8, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#turns = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @warp_conversions(%x: tensor<128x64xf32, #mma>, %y: tensor<128x64xf32, #mma>) -> (tensor<128x64xf32, #band>, tensor<128x64xf32, #band>) {
    %a = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #band>
    %b = tilegpu.convert_layout %y {tilegpu.scratch_offset = 0 : i64} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #band>
    return %a, %b : tensor<128x64xf32, #band>, tensor<128x64xf32, #band>
  }
  func.func private @apart(%x: tensor<128x64xf32, #mma>, %y: tensor<128x64xf32, #band>) -> (tensor<128x64xf32, #turns>, tensor<128x64xf32, #turns>) {
    %a = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #turns>
    %b = tilegpu.convert_layout %y {tilegpu.scratch_offset = 32768 : i64} : tensor<128x64xf32, #band> -> tensor<128x64xf32, #turns>
    return %a, %b : tensor<128x64xf32, #turns>, tensor<128x64xf32, #turns>
  }
}

// -----

// Must not: in a program whose warp groups take turns that pair up only
// at the program's barriers (here turns without one first pass and one
// last wait; tilegpu::turnsNeedProgramBarriers), every barrier stays the
// program's.
// CHECK-LABEL: func.func @with_turns
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.local_load
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @with_turns(%x: tensor<64x16xf32, #rows>) -> tensor<64x16xf32, #rows> {
    tilegpu.warp_group_turn_wait
    %b = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x16xf32, #flat, mutable>
    tilegpu.local_store %x, %b : tensor<64x16xf32, #rows> -> !tilegpu.memdesc<64x16xf32, #flat, mutable>
    %r = tilegpu.local_load %b : !tilegpu.memdesc<64x16xf32, #flat, mutable> -> tensor<64x16xf32, #rows>
    tilegpu.warp_group_turn_pass
    return %r : tensor<64x16xf32, #rows>
  }
}

// -----

// Turns that pair up by themselves (one first pass and one last wait,
// outside loops, as terrazzo-continuous-turns leaves them) keep the narrow
// barriers: each warp reads back the rows it stored.
// CHECK-LABEL: func.func @with_paired_turns
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier scope warp
// CHECK-NEXT: tilegpu.local_load
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @with_paired_turns(%x: tensor<64x16xf32, #rows>, %n: i32) -> tensor<64x16xf32, #rows> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tilegpu.warp_group_turn_pass {only = 1 : i32}
    scf.for %k = %c0 to %n step %c1 : i32 {
      tilegpu.warp_group_turn_wait
      tilegpu.warp_group_turn_pass
    }
    tilegpu.warp_group_turn_wait {only = 0 : i32}
    %b = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x16xf32, #flat, mutable>
    tilegpu.local_store %x, %b : tensor<64x16xf32, #rows> -> !tilegpu.memdesc<64x16xf32, #flat, mutable>
    %r = tilegpu.local_load %b : !tilegpu.memdesc<64x16xf32, #flat, mutable> -> tensor<64x16xf32, #rows>
    return %r : tensor<64x16xf32, #rows>
  }
}

// -----

// Must not: a first pass and a last wait around a loop inside a loop over
// tiles (each tile's pair meets the next at the program's barriers).
// CHECK-LABEL: func.func @with_turns_per_tile
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.local_load
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @with_turns_per_tile(%x: tensor<64x16xf32, #rows>, %n: i32) -> tensor<64x16xf32, #rows> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %t = %c0 to %n step %c1 : i32 {
      tilegpu.warp_group_turn_pass {only = 1 : i32}
      scf.for %k = %c0 to %n step %c1 : i32 {
        tilegpu.warp_group_turn_wait
        tilegpu.warp_group_turn_pass
      }
      tilegpu.warp_group_turn_wait {only = 0 : i32}
    }
    %b = tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<64x16xf32, #flat, mutable>
    tilegpu.local_store %x, %b : tensor<64x16xf32, #rows> -> !tilegpu.memdesc<64x16xf32, #flat, mutable>
    %r = tilegpu.local_load %b : !tilegpu.memdesc<64x16xf32, #flat, mutable> -> tensor<64x16xf32, #rows>
    return %r : tensor<64x16xf32, #rows>
  }
}
