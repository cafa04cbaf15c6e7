// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm -canonicalize | FileCheck %s

// Asynchronous copies to shared memory become cp.async, one per vector of a
// thread's registers: as wide as the pointers' contiguity and alignment,
// the mask's constancy and the buffer's layout allow (4, 8 or 16 bytes);
// .cg for 16 bytes, .ca below. A masked copy reads nothing and fills zeros
// (source size 0). Groups are cp.async.commit_group; a wait is
// cp.async.wait_group written as inline PTX, so that the PTX reads
// "cp.async.wait_group N" (the intrinsic prints a tab before N).

// 8 contiguous, 16-byte aligned f16 per thread into a buffer swizzled by
// vectors of 8: two 16-byte .cg copies at XOR-swizzled offsets, no source
// size; then one commit and a wait for all groups.

// CHECK-LABEL: llvm.func @copy_f16
// CHECK: llvm.xor
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>{{$}}
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.wait_group 0;", "~{memory}"
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
#row = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#r1 = #tilegpu.slice<{dim = 1, parent = #row}>
#c1 = #tilegpu.slice<{dim = 0, parent = #row}>
#sw = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func @copy_f16(%src: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 32 : tensor<32xi32, #r1>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #c1>
    %r2 = tile.expand_dims %r axis = 1 : tensor<32xi32, #r1> -> tensor<32x1xi32, #row>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #c1> -> tensor<1x64xi32, #row>
    %c64 = arith.constant dense<64> : tensor<32x1xi32, #row>
    %rows = arith.muli %r2, %c64 : tensor<32x1xi32, #row>
    %rb = tile.broadcast %rows : tensor<32x1xi32, #row> -> tensor<32x64xi32, #row>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #row> -> tensor<32x64xi32, #row>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #row>
    %p = tile.addptr %sp, %off : tensor<32x64x!tile.ptr<f16>, #row>, tensor<32x64xi32, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16, #sw, mutable>
    %t = tilegpu.async_copy_global_to_local %p, %b : tensor<32x64x!tile.ptr<f16>, #row> -> !tilegpu.memdesc<32x64xf16, #sw, mutable>
    %g = tilegpu.async_commit_group tokens %t
    %w = tilegpu.async_wait tokens %g {num = 0 : i32}
    %v = tilegpu.local_load %b : !tilegpu.memdesc<32x64xf16, #sw, mutable> -> tensor<32x64xf16, #row>
    tile.store %p, %v : tensor<32x64x!tile.ptr<f16>, #row>
    return
  }
}

// -----

// A mask constant along each thread's 8 elements (rows below m) keeps the
// 16-byte copies; each gets a source size of 16 or 0 (zero fill). A zero
// `other` is what the hardware fills anyway. async_wait {num = 1} lets one
// group stay in flight.

// CHECK-LABEL: llvm.func @copy_masked
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SIZE:.*]] = llvm.select %{{.*}}, %[[C16]], %[[C0]] : i1, i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: %[[SIZE2:.*]] = llvm.select %{{.*}}, %[[C16]], %[[C0]] : i1, i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE2]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.wait_group 1;", "~{memory}"
#row = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#r1 = #tilegpu.slice<{dim = 1, parent = #row}>
#c1 = #tilegpu.slice<{dim = 0, parent = #row}>
#sw = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func @copy_masked(%src: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32) {
    %r = tile.make_range 0 to 32 : tensor<32xi32, #r1>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #c1>
    %r2 = tile.expand_dims %r axis = 1 : tensor<32xi32, #r1> -> tensor<32x1xi32, #row>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #c1> -> tensor<1x64xi32, #row>
    %c64 = arith.constant dense<64> : tensor<32x1xi32, #row>
    %rows = arith.muli %r2, %c64 : tensor<32x1xi32, #row>
    %rb = tile.broadcast %rows : tensor<32x1xi32, #row> -> tensor<32x64xi32, #row>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #row> -> tensor<32x64xi32, #row>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #row>
    %p = tile.addptr %sp, %off : tensor<32x64x!tile.ptr<f16>, #row>, tensor<32x64xi32, #row>
    %ms = tile.splat %m : i32 -> tensor<32x1xi32, #row>
    %ok = arith.cmpi slt, %r2, %ms : tensor<32x1xi32, #row>
    %mask = tile.broadcast %ok : tensor<32x1xi1, #row> -> tensor<32x64xi1, #row>
    %zero = arith.constant dense<0.0> : tensor<32x64xf16, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16, #sw, mutable>
    %t = tilegpu.async_copy_global_to_local %p, %b mask %mask other %zero : tensor<32x64x!tile.ptr<f16>, #row>, tensor<32x64xi1, #row>, tensor<32x64xf16, #row> -> !tilegpu.memdesc<32x64xf16, #sw, mutable>
    %g = tilegpu.async_commit_group tokens %t
    %w = tilegpu.async_wait tokens %g {num = 1 : i32}
    return
  }
}

// -----

// Pointers of unknown alignment to f32: one 4-byte .ca copy per element.

// CHECK-LABEL: llvm.func @copy_f32_unaligned
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>{{$}}
// CHECK-NOT: nvvm.cp.async.shared.global
#row = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func @copy_f32_unaligned(%src: !tile.ptr<f32>) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #row>
    %p = tile.addptr %sp, %r : tensor<128x!tile.ptr<f32>, #row>, tensor<128xi32, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xf32, #s1, mutable>
    %t = tilegpu.async_copy_global_to_local %p, %b : tensor<128x!tile.ptr<f32>, #row> -> !tilegpu.memdesc<128xf32, #s1, mutable>
    return
  }
}

// -----

// 8-byte aligned f32 pairs: 8-byte .ca copies.

// CHECK-LABEL: llvm.func @copy_f32_pairs
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>{{$}}
// CHECK-NOT: nvvm.cp.async.shared.global
#row = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func @copy_f32_pairs(%src: !tile.ptr<f32> {tile.divisibility = 8 : i32}) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #row>
    %p = tile.addptr %sp, %r : tensor<128x!tile.ptr<f32>, #row>, tensor<128xi32, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xf32, #s1, mutable>
    %t = tilegpu.async_copy_global_to_local %p, %b : tensor<128x!tile.ptr<f32>, #row> -> !tilegpu.memdesc<128xf32, #s1, mutable>
    return
  }
}

// -----

// f16 of unknown alignment would need 2-byte copies, which cp.async lacks.

#row = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func @copy_f16_unaligned(%src: !tile.ptr<f16>) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>, #row>
    %p = tile.addptr %sp, %r : tensor<128x!tile.ptr<f16>, #row>, tensor<128xi32, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xf16, #s1, mutable>
    // expected-error @below {{would copy 2 bytes per cp.async, which needs 4, 8 or 16}}
    %t = tilegpu.async_copy_global_to_local %p, %b : tensor<128x!tile.ptr<f16>, #row> -> !tilegpu.memdesc<128xf16, #s1, mutable>
    return
  }
}

// -----

// Masked elements can only be filled with zeros.

#row = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func @copy_other(%src: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
    %r = tile.make_range 0 to 128 : tensor<128xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #row>
    %p = tile.addptr %sp, %r : tensor<128x!tile.ptr<f32>, #row>, tensor<128xi32, #row>
    %ns = tile.splat %n : i32 -> tensor<128xi32, #row>
    %mask = arith.cmpi slt, %r, %ns : tensor<128xi32, #row>
    %one = arith.constant dense<1.0> : tensor<128xf32, #row>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<128xf32, #s1, mutable>
    // expected-error @below {{fills masked elements with zeros only}}
    %t = tilegpu.async_copy_global_to_local %p, %b mask %mask other %one : tensor<128x!tile.ptr<f32>, #row>, tensor<128xi1, #row>, tensor<128xf32, #row> -> !tilegpu.memdesc<128xf32, #s1, mutable>
    return
  }
}

// -----

// cp.async needs sm_80.

module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:75"} {
  func.func private @old_target() {
    // expected-error @below {{needs cp.async, which sm_75 does not have}}
    %w = tilegpu.async_wait {num = 0 : i32}
    return
  }
}

// -----

// A copy into one buffer of a stack of nvmma_shared (wgmma) buffers: the
// shared layout keeps 16-byte chunks contiguous, so 8 f16 per thread move
// as 16-byte .cg copies (XOR-swizzled offsets). The stack takes 2 x 8192
// bytes, aligned to 1024.

// CHECK: tilegpu.shared = 16384 : i32
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: llvm.func @copy_nvmma_stack
// CHECK: llvm.xor
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>{{$}}
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
#row = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#r1 = #tilegpu.slice<{dim = 1, parent = #row}>
#c1 = #tilegpu.slice<{dim = 0, parent = #row}>
#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:90"} {
  func.func @copy_nvmma_stack(%src: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range 0 to 64 : tensor<64xi32, #r1>
    %c = tile.make_range 0 to 64 : tensor<64xi32, #c1>
    %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32, #r1> -> tensor<64x1xi32, #row>
    %c2 = tile.expand_dims %c axis = 0 : tensor<64xi32, #c1> -> tensor<1x64xi32, #row>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #row>
    %rows = arith.muli %r2, %c64 : tensor<64x1xi32, #row>
    %rb = tile.broadcast %rows : tensor<64x1xi32, #row> -> tensor<64x64xi32, #row>
    %cb = tile.broadcast %c2 : tensor<1x64xi32, #row> -> tensor<64x64xi32, #row>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #row>
    %sp = tile.splat %src : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #row>
    %p = tile.addptr %sp, %off : tensor<64x64x!tile.ptr<f16>, #row>, tensor<64x64xi32, #row>
    %s = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16, #nv, mutable>
    %one = arith.constant 1 : i32
    %b = tilegpu.memdesc_index %s[%one] : !tilegpu.memdesc<2x64x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    %t = tilegpu.async_copy_global_to_local %p, %b : tensor<64x64x!tile.ptr<f16>, #row> -> !tilegpu.memdesc<64x64xf16, #nv, mutable>
    %g = tilegpu.async_commit_group tokens %t
    %w = tilegpu.async_wait tokens %g {num = 0 : i32}
    tilegpu.local_dealloc %s : !tilegpu.memdesc<2x64x64xf16, #nv, mutable>
    return
  }
}
