// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-allocate-shared-memory --terrazzo-insert-barriers --convert-scf-to-cf --terrazzo-convert-tilegpu-to-llvm -canonicalize | FileCheck %s

// Shared-memory buffers: each thread moves the elements it holds at the
// offsets the composition of the tensor's layout with the inverse of the
// buffer's gives, in vectors as wide as both layouts allow (16 bytes at
// most).

// Rows of 8 f16 per thread into a buffer swizzled by vectors of 8: two
// 16-byte stores per thread, at offsets XORed with the row's phase. Read
// back column-wise (8 rows per thread), no two elements of a thread are
// adjacent in the buffer: 16 scalar loads, after the barrier that
// terrazzo-insert-barriers put between the write and the read.

// CHECK-LABEL: llvm.func @swizzled_round_trip
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: llvm.xor
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> vector
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#row = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#sw = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @swizzled_round_trip(%x: tensor<32x64xf16, #row>) -> tensor<32x64xf16, #col> {
    %b = tilegpu.local_alloc %x : (tensor<32x64xf16, #row>) -> !tilegpu.memdesc<32x64xf16, #sw>
    %y = tilegpu.local_load %b : !tilegpu.memdesc<32x64xf16, #sw> -> tensor<32x64xf16, #col>
    tilegpu.local_dealloc %b : !tilegpu.memdesc<32x64xf16, #sw>
    return %y : tensor<32x64xf16, #col>
  }
}

// -----

// A swizzle by vectors of 2 f32 limits 4-element rows to 8-byte vectors,
// both ways; the buffer's place comes from tilegpu.buffer_offset (the
// second buffer lives at byte 4096).

// CHECK-LABEL: llvm.func @narrow_swizzle
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[SMEM]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-NOT: llvm.load
#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #tilegpu.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @narrow_swizzle(%x: tensor<64x16xf32, #row>) -> tensor<64x16xf32, #row> {
    %keep = tilegpu.local_alloc %x : (tensor<64x16xf32, #row>) -> !tilegpu.memdesc<64x16xf32, #sw>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x16xf32, #sw, mutable>
    tilegpu.local_store %x, %b : tensor<64x16xf32, #row> -> !tilegpu.memdesc<64x16xf32, #sw, mutable>
    %y = tilegpu.local_load %b : !tilegpu.memdesc<64x16xf32, #sw, mutable> -> tensor<64x16xf32, #row>
    %z = tilegpu.local_load %keep : !tilegpu.memdesc<64x16xf32, #sw> -> tensor<64x16xf32, #row>
    %s = arith.addf %y, %z : tensor<64x16xf32, #row>
    return %s : tensor<64x16xf32, #row>
  }
}

// -----

// Buffer i of a stack starts i buffers (here 16 x 64 f16 = 1024 elements)
// into it; the unswizzled row layout keeps 16-byte vectors. The index, a
// scalar, is read from lane 0, so that ptxas knows it warp-uniform.

// CHECK-LABEL: llvm.func @stacked
// CHECK-SAME: %{{.*}}: !llvm.struct{{.*}}, %[[I:.*]]: i32)
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[U:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[I]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: %[[START:.*]] = llvm.mul %[[U]], %[[N]] : i32
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[SMEM]][%[[START]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
#row = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s3 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @stacked(%x: tensor<16x64xf16, #row>, %i: i32) {
    %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x16x64xf16, #s3, mutable>
    %b = tilegpu.memdesc_index %bs[%i] : !tilegpu.memdesc<4x16x64xf16, #s3, mutable> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
    tilegpu.local_store %x, %b : tensor<16x64xf16, #row> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
    return
  }
}

// -----

// A constant index needs no broadcast (the one shuffle left reads the warp
// index): buffer 2 starts 2 x 1024 elements in.

// CHECK-LABEL: llvm.func @stacked_constant
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NOT: nvvm.shfl.sync {{[^{]*}}: i32 -> i32
// CHECK: llvm.mul %[[TWO]], %[[N]] : i32
// CHECK-NOT: nvvm.shfl.sync {{[^{]*}}: i32 -> i32
// CHECK: llvm.return
#row = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s3 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @stacked_constant(%x: tensor<16x64xf16, #row>) {
    %c2 = arith.constant 2 : i32
    %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x16x64xf16, #s3, mutable>
    %b = tilegpu.memdesc_index %bs[%c2] : !tilegpu.memdesc<4x16x64xf16, #s3, mutable> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
    tilegpu.local_store %x, %b : tensor<16x64xf16, #row> -> !tilegpu.memdesc<16x64xf16, #s2, mutable>
    return
  }
}

// -----

// i1 lives in shared memory as bytes, one at a time.

// CHECK-LABEL: llvm.func @booleans
// CHECK: %[[W:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK: llvm.store %[[W]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[R:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %[[R]] : i8 to i1
#row = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @booleans(%x: tensor<128xi1, #row>) -> tensor<128xi1, #row> {
    %b = tilegpu.local_alloc %x : (tensor<128xi1, #row>) -> !tilegpu.memdesc<128xi1, #s1>
    %y = tilegpu.local_load %b : !tilegpu.memdesc<128xi1, #s1> -> tensor<128xi1, #row>
    return %y : tensor<128xi1, #row>
  }
}

// -----

// A layout that repeats an element in a thread's registers stores it once:
// registers 1 and 3 repeat 0 and 2.

// CHECK-LABEL: llvm.func @broadcast_registers
// CHECK-COUNT-2: llvm.store
// CHECK-NOT: llvm.store
// CHECK: llvm.return
#rep = #tilegpu.linear<{register = [[0], [4]], lane = [[1], [2], [0], [0], [0]], warp = [], block = []}>
#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"tilegpu.num-warps" = 1 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "cuda:80"} {
  func.func private @broadcast_registers(%x: tensor<8xf32, #rep>) {
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<8xf32, #s1, mutable>
    tilegpu.local_store %x, %b : tensor<8xf32, #rep> -> !tilegpu.memdesc<8xf32, #s1, mutable>
    return
  }
}
