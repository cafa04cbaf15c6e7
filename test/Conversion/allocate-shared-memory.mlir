// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory | FileCheck %s

// Scratch of consecutive ops is placed apart when the kernel can afford it
// (here 2 KiB + 2 KiB within the 4 KiB budget), so that no barrier is
// needed between them; the module records the total.

// CHECK: module attributes {{{.*}}tilegpu.shared = 4096 : i32
// CHECK-LABEL: func.func private @apart
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 2048 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @apart(%x: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
    %y = tilegpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %z = tilegpu.convert_layout %y : tensor<512xf32, #b> -> tensor<512xf32, #a>
    %w = tilegpu.convert_layout %z : tensor<512xf32, #a> -> tensor<512xf32, #b>
    return %w : tensor<512xf32, #b>
  }
}

// -----

// Must not: spend more than the budget to keep scratch apart. Two 8 KiB
// conversions share offset 0 (16 KiB would double what the kernel needs).

// CHECK: module attributes {{{.*}}tilegpu.shared = 8192 : i32
// CHECK-LABEL: func.func private @together
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @together(%x: tensor<2048xf32, #a>) -> tensor<2048xf32, #a> {
    %y = tilegpu.convert_layout %x : tensor<2048xf32, #a> -> tensor<2048xf32, #b>
    %z = tilegpu.convert_layout %y : tensor<2048xf32, #b> -> tensor<2048xf32, #a>
    return %z : tensor<2048xf32, #a>
  }
}

// -----

// A kernel that needs more than half of the target's shared memory (a 128
// KiB buffer beside two 8 KiB conversions: 136 KiB of cuda:90's 227) runs
// one program per multiprocessor whatever it uses, so its scratch is kept
// apart up to the target's limit (144 KiB), saving the barrier between the
// conversions.

// CHECK: module attributes {{{.*}}tilegpu.shared = 147456 : i32
// CHECK-LABEL: func.func private @apart_when_large
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 131072 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 139264 : i64}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @apart_when_large(%x: tensor<2048xf32, #a>) -> (tensor<2048xf32, #a>, tensor<32768xf32, #a>) {
    %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<32768xf32, #s, mutable>
    %y = tilegpu.convert_layout %x : tensor<2048xf32, #a> -> tensor<2048xf32, #b>
    %z = tilegpu.convert_layout %y : tensor<2048xf32, #b> -> tensor<2048xf32, #a>
    %big = tilegpu.local_load %buf : !tilegpu.memdesc<32768xf32, #s, mutable> -> tensor<32768xf32, #a>
    return %z, %big : tensor<2048xf32, #a>, tensor<32768xf32, #a>
  }
}

// -----

// Must not: go past the target's limit to keep them apart (buffers of
// 128, 64 and 16 KiB beside two 16 KiB conversions: 224 KiB together, 240
// apart, over cuda:90's 227).

// CHECK: module attributes {{{.*}}tilegpu.shared = 229376 : i32
// CHECK-LABEL: func.func private @together_at_the_limit
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 212992 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 212992 : i64}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @together_at_the_limit(%x: tensor<4096xf32, #a>) -> (tensor<4096xf32, #a>, tensor<32768xf32, #a>, tensor<16384xf32, #a>, tensor<4096xf32, #a>) {
    %b1 = tilegpu.local_alloc : () -> !tilegpu.memdesc<32768xf32, #s, mutable>
    %b2 = tilegpu.local_alloc : () -> !tilegpu.memdesc<16384xf32, #s, mutable>
    %b3 = tilegpu.local_alloc : () -> !tilegpu.memdesc<4096xf32, #s, mutable>
    %y = tilegpu.convert_layout %x : tensor<4096xf32, #a> -> tensor<4096xf32, #b>
    %z = tilegpu.convert_layout %y : tensor<4096xf32, #b> -> tensor<4096xf32, #a>
    %l1 = tilegpu.local_load %b1 : !tilegpu.memdesc<32768xf32, #s, mutable> -> tensor<32768xf32, #a>
    %l2 = tilegpu.local_load %b2 : !tilegpu.memdesc<16384xf32, #s, mutable> -> tensor<16384xf32, #a>
    %l3 = tilegpu.local_load %b3 : !tilegpu.memdesc<4096xf32, #s, mutable> -> tensor<4096xf32, #a>
    return %z, %l1, %l2, %l3 : tensor<4096xf32, #a>, tensor<32768xf32, #a>, tensor<16384xf32, #a>, tensor<4096xf32, #a>
  }
}

// -----

// Explicit buffers live from their allocation to their last use; a buffer
// used in a loop it was not allocated in stays live to the end of the
// loop. %buf (4 KiB) and %tmp (2 KiB) are live together, and the
// conversions inside the loop get scratch above both (not apart from each
// other: that would need 10 KiB); %late, allocated after the last uses of
// both, and the conversion after it reuse offset 0.

// CHECK: module attributes {{{.*}}tilegpu.shared = 8192 : i32
// CHECK-LABEL: func.func private @buffers
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64}
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 4096 : i64}
// CHECK: scf.for
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 6144 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 6144 : i64}
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @buffers(%x: tensor<512xf32, #a>, %n: i32) -> tensor<512xf32, #b> {
    %buf = tilegpu.local_alloc : () -> !tilegpu.memdesc<1024xf32, #s, mutable>
    %tmp = tilegpu.local_alloc : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<512xf32, #a>) : i32 {
      tilegpu.local_store %v, %tmp : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
      %w = tilegpu.local_load %tmp : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
      %c = tilegpu.convert_layout %w : tensor<512xf32, #a> -> tensor<512xf32, #b>
      %d = tilegpu.convert_layout %c : tensor<512xf32, #b> -> tensor<512xf32, #a>
      scf.yield %d : tensor<512xf32, #a>
    }
    %big = tilegpu.local_load %buf : !tilegpu.memdesc<1024xf32, #s, mutable> -> tensor<1024xf32, #a>
    %late = tilegpu.local_alloc : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    tilegpu.local_store %r, %late : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %out = tilegpu.convert_layout %r : tensor<512xf32, #a> -> tensor<512xf32, #b>
    return %out : tensor<512xf32, #b>
  }
}

// -----

// A conversion that only reorders a thread's registers needs no scratch:
// no offset, no shared memory.

// CHECK-NOT: tilegpu.shared
// CHECK-LABEL: func.func private @permute
// CHECK-NOT: tilegpu.scratch_offset
#a = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 1 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @permute(%x: tensor<2x64xf32, #a>) -> tensor<2x64xf32, #b> {
    %y = tilegpu.convert_layout %x : tensor<2x64xf32, #a> -> tensor<2x64xf32, #b>
    return %y : tensor<2x64xf32, #b>
  }
}

// -----

// A conversion larger than the target's shared memory (256 KiB on
// cuda:80's 163 KiB) whose halves of dim 0 are told apart by registers
// alone in both layouts goes in two rounds: scratch for one half.
// CHECK: module attributes {{{.*}}tilegpu.shared = 131072 : i32
// CHECK-LABEL: func.func private @huge
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.scratch_offset = 0 : i64}
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @huge(%x: tensor<65536xf32, #a>) -> tensor<65536xf32, #b> {
    %y = tilegpu.convert_layout %x : tensor<65536xf32, #a> -> tensor<65536xf32, #b>
    return %y : tensor<65536xf32, #b>
  }
}

// -----

// The same size where no split exists (512 consecutive elements per
// thread: the warps tell the halves apart, so a round's registers would
// depend on the thread): the whole scratch, a located error.
#a = #tilegpu.blocked<{sizePerThread = [512], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @huge_unsplit(%x: tensor<65536xf32, #a>) -> tensor<65536xf32, #b> {
    // expected-error @below {{'tilegpu.convert_layout' op needs 262144 bytes of shared memory to move its data between threads, more than target 'cuda:80' allows in one program instance}}
    %y = tilegpu.convert_layout %x : tensor<65536xf32, #a> -> tensor<65536xf32, #b>
    return %y : tensor<65536xf32, #b>
  }
}

// -----

// Buffers that fit one by one but not together: a located error on the
// function, with a note at each buffer live at the peak.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @below {{needs 196608 bytes of shared memory for buffers live at the same time, more than target 'cuda:80' allows in one program instance (166912 bytes)}}
  func.func private @together(%x: tensor<16384xf32, #a>) {
    // expected-note @below {{65536 bytes live here: a buffer of 16384xf32}}
    %p = tilegpu.local_alloc %x : (tensor<16384xf32, #a>) -> !tilegpu.memdesc<16384xf32, #s>
    // expected-note @below {{65536 bytes live here: a buffer of 16384xf32}}
    %q = tilegpu.local_alloc %x : (tensor<16384xf32, #a>) -> !tilegpu.memdesc<16384xf32, #s>
    // expected-note @below {{65536 bytes live here: a buffer of 16384xf32}}
    %r = tilegpu.local_alloc %x : (tensor<16384xf32, #a>) -> !tilegpu.memdesc<16384xf32, #s>
    %u = tilegpu.local_load %p : !tilegpu.memdesc<16384xf32, #s> -> tensor<16384xf32, #a>
    %v = tilegpu.local_load %q : !tilegpu.memdesc<16384xf32, #s> -> tensor<16384xf32, #a>
    %w = tilegpu.local_load %r : !tilegpu.memdesc<16384xf32, #s> -> tensor<16384xf32, #a>
    return
  }
}

// -----

// At the peak the notes name the six largest buffers (a scratch among
// them, as its op), then count the rest; buffers dead by then (%early)
// get none.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @below {{needs 204800 bytes of shared memory for buffers live at the same time}}
  // expected-note @below {{and 2 more buffers of 8192 bytes in all}}
  func.func private @many(%x: tensor<8192xf32, #a>, %y: tensor<1024xf32, #a>) {
    %early = tilegpu.local_alloc %x : (tensor<8192xf32, #a>) -> !tilegpu.memdesc<8192xf32, #s>
    %e = tilegpu.local_load %early : !tilegpu.memdesc<8192xf32, #s> -> tensor<8192xf32, #a>
    // expected-note @below {{32768 bytes live here: a buffer of 8192xf32}}
    %b0 = tilegpu.local_alloc %x : (tensor<8192xf32, #a>) -> !tilegpu.memdesc<8192xf32, #s>
    // expected-note @below {{32768 bytes live here: a buffer of 8192xf32}}
    %b1 = tilegpu.local_alloc %x : (tensor<8192xf32, #a>) -> !tilegpu.memdesc<8192xf32, #s>
    // expected-note @below {{32768 bytes live here: a buffer of 8192xf32}}
    %b2 = tilegpu.local_alloc %x : (tensor<8192xf32, #a>) -> !tilegpu.memdesc<8192xf32, #s>
    // expected-note @below {{32768 bytes live here: a buffer of 8192xf32}}
    %b3 = tilegpu.local_alloc %x : (tensor<8192xf32, #a>) -> !tilegpu.memdesc<8192xf32, #s>
    // expected-note @below {{32768 bytes live here: a buffer of 8192xf32}}
    %b4 = tilegpu.local_alloc %x : (tensor<8192xf32, #a>) -> !tilegpu.memdesc<8192xf32, #s>
    %s0 = tilegpu.local_alloc %y : (tensor<1024xf32, #a>) -> !tilegpu.memdesc<1024xf32, #s>
    %s1 = tilegpu.local_alloc %y : (tensor<1024xf32, #a>) -> !tilegpu.memdesc<1024xf32, #s>
    // expected-note @below {{32768 bytes live here: scratch of 'tilegpu.convert_layout'}}
    %c = tilegpu.convert_layout %x : tensor<8192xf32, #a> -> tensor<8192xf32, #b>
    %u0 = tilegpu.local_load %b0 : !tilegpu.memdesc<8192xf32, #s> -> tensor<8192xf32, #a>
    %u1 = tilegpu.local_load %b1 : !tilegpu.memdesc<8192xf32, #s> -> tensor<8192xf32, #a>
    %u2 = tilegpu.local_load %b2 : !tilegpu.memdesc<8192xf32, #s> -> tensor<8192xf32, #a>
    %u3 = tilegpu.local_load %b3 : !tilegpu.memdesc<8192xf32, #s> -> tensor<8192xf32, #a>
    %u4 = tilegpu.local_load %b4 : !tilegpu.memdesc<8192xf32, #s> -> tensor<8192xf32, #a>
    %v0 = tilegpu.local_load %s0 : !tilegpu.memdesc<1024xf32, #s> -> tensor<1024xf32, #a>
    %v1 = tilegpu.local_load %s1 : !tilegpu.memdesc<1024xf32, #s> -> tensor<1024xf32, #a>
    return
  }
}

// -----

// A view of one buffer of a stack (tilegpu.memdesc_index) keeps the whole
// stack live: a buffer allocated after the stack's last direct use but
// while a view is still read goes after it.

// CHECK: module attributes {{.*}}tilegpu.shared = 6144 : i32
// CHECK-LABEL: func.func private @stack_views
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<2x512xf32
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 4096 : i64} : () -> !tilegpu.memdesc<512xf32
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func private @stack_views(%x: tensor<512xf32, #a>, %i: i32) -> tensor<512xf32, #a> {
    %stack = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x512xf32, #s2, mutable>
    %b = tilegpu.memdesc_index %stack[%i] : !tilegpu.memdesc<2x512xf32, #s2, mutable> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %other = tilegpu.local_alloc : () -> !tilegpu.memdesc<512xf32, #s, mutable>
    tilegpu.local_store %x, %other : tensor<512xf32, #a> -> !tilegpu.memdesc<512xf32, #s, mutable>
    %y = tilegpu.local_load %b : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %z = tilegpu.local_load %other : !tilegpu.memdesc<512xf32, #s, mutable> -> tensor<512xf32, #a>
    %s = arith.addf %y, %z : tensor<512xf32, #a>
    return %s : tensor<512xf32, #a>
  }
}

// -----

// The producer of a tilegpu.warp_specialize runs beside the consumers, not
// after them: its scratch (the tensor map built in shared memory) stays
// clear of the consumers' buffer, which program order alone would let it
// reuse.
// CHECK-LABEL: func.func @producer_scratch
// CHECK: tilegpu.local_alloc {tilegpu.buffer_offset = 0 : i64} : () -> !tilegpu.memdesc<256xf32
// CHECK: tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = 1024 : i64}
#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#flat = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @producer_scratch(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64, %x: tensor<256xf32, #blocked>) {
    %c1 = arith.constant 1 : i64
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      %tmp = tilegpu.local_alloc : () -> !tilegpu.memdesc<256xf32, #flat, mutable>
      tilegpu.local_store %x, %tmp : tensor<256xf32, #blocked> -> !tilegpu.memdesc<256xf32, #flat, mutable>
      %y = tilegpu.local_load %tmp : !tilegpu.memdesc<256xf32, #flat, mutable> -> tensor<256xf32, #blocked>
      tilegpu.local_dealloc %tmp : !tilegpu.memdesc<256xf32, #flat, mutable>
      tilegpu.partition_end
    } producer {
      %map = tilegpu.tensormap_create %slot, %base, [%m, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
      tilegpu.partition_end
    }
    return
  }
}

// -----

// Consecutive tensor maps are built at the same time (a group, one warp
// each, at most one per warp): each one's scratch lives to the group's end,
// so the maps of a group have their scratch apart, and each records its
// place in the group. A map whose inputs need a map of the group (the
// tile.addptr of %a), a third map in a program of two warps, or a map after
// an op with memory effects, starts a new group; a group of one records
// none.
// CHECK-LABEL: func.func @tensormap_groups
// CHECK: %[[A:.*]] = tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = 0 : i64, tilegpu.tensormap_group = array<i64: 0, 2>}
// CHECK: arith.addi
// CHECK: tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = 128 : i64, tilegpu.tensormap_group = array<i64: 1, 2>}
// CHECK: tile.addptr %[[A]]
// CHECK: tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = 0 : i64, tilegpu.tensormap_group = array<i64: 0, 2>}
// CHECK: tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = 128 : i64, tilegpu.tensormap_group = array<i64: 1, 2>}
// CHECK: tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = 0 : i64}
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.tensormap_create {{.*}} {tilegpu.scratch_offset = {{[0-9]+}} : i64}
// CHECK-NEXT: return
module attributes {"tilegpu.num-warps" = 2 : i32, tilegpu.target = "cuda:90", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @tensormap_groups(%slot: !tile.ptr<i8>, %base: !tile.ptr<f16>, %m: i32, %s: i64) {
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i32
    %a = tilegpu.tensormap_create %slot, %base, [%m, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
    %m2 = arith.addi %m, %m : i32
    %b = tilegpu.tensormap_create %slot, %base, [%m2, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
    %slot2 = tile.addptr %a, %c128 : !tile.ptr<i8>, i32
    %c = tilegpu.tensormap_create %slot2, %base, [%m, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
    %d = tilegpu.tensormap_create %slot, %base, [%m, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
    %e = tilegpu.tensormap_create %slot, %base, [%m, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
    tilegpu.barrier
    %f = tilegpu.tensormap_create %slot, %base, [%m, %m], [%s, %c1] box = [64, 64] swizzle = 128 : !tile.ptr<i8>, !tile.ptr<f16> -> !tile.ptr<i8>
    return
  }
}
