// RUN: terrazzo-opt %s -split-input-file --terrazzo-amd-dot-operands-to-lds | FileCheck %s

// terrazzo-amd-dot-operands-to-lds: MFMA operands are read from swizzled
// LDS buffers whose rows run along K.

// gfx942's 32x32x8 float16 (kWidth 4): A (64 x 32, K of 32: 64-byte rows,
// two per 128-byte line) in vectors of 4 (8 bytes), phases of 2 rows, 8
// phases (16 lanes per line of 8-byte reads); B (32 x 64) stored K-major
// (order [0, 1]) the same way. The conversions are gone.
// CHECK: #[[SA:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
// CHECK: #[[SB:.+]] = #tilegpu.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
// CHECK: func.func @f16_operands
// CHECK: %[[BA:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x32xf16, #{{.*}}>) -> !tilegpu.memdesc<64x32xf16, #[[SA]]>
// CHECK: %[[A:.*]] = tilegpu.local_load %[[BA]] : !tilegpu.memdesc<64x32xf16, #[[SA]]> -> tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #{{.*}}, kWidth = 4}>>
// CHECK: %[[BB:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<32x64xf16, #{{.*}}>) -> !tilegpu.memdesc<32x64xf16, #[[SB]]>
// CHECK: %[[B:.*]] = tilegpu.local_load %[[BB]]
// CHECK: tile.dot %[[A]], %[[B]], %{{.*}}
// CHECK-NOT: tilegpu.convert_layout
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 4}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @f16_operands(%x: tensor<64x32xf16, #blocked1>, %y: tensor<32x64xf16, #blocked2>, %acc: tensor<64x64xf32, #mfma>) -> tensor<64x64xf32, #mfma> {
    %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
    %yb = tilegpu.convert_layout %y : tensor<32x64xf16, #blocked2> -> tensor<32x64xf16, #dotB>
    %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #dotA> * tensor<32x64xf16, #dotB> -> tensor<64x64xf32, #mfma>
    return %d : tensor<64x64xf32, #mfma>
  }
}

// -----

// gfx950's 32x32x16 float16 (kWidth 8): 16-byte vectors (ds_read_b128),
// 8 lanes per line: 4 phases of 2 rows for K of 32; K of 128 (256-byte
// rows) takes 8 phases of one row.
// CHECK: #[[SA8:.+]] = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK: #[[SB8:.+]] = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK: func.func @f16_kwidth8
// CHECK: tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<64x32xf16, #[[SA8]]>
// CHECK: tilegpu.local_alloc %{{.*}} -> !tilegpu.memdesc<128x64xf16, #[[SB8]]>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 8}>
#dotB = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 8}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx950", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @f16_kwidth8(%x: tensor<64x32xf16, #blocked1>, %y: tensor<128x64xf16, #blocked2>) -> (tensor<64x32xf16, #dotA>, tensor<128x64xf16, #dotB>) {
    %xa = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
    %yb = tilegpu.convert_layout %y : tensor<128x64xf16, #blocked2> -> tensor<128x64xf16, #dotB>
    return %xa, %yb : tensor<64x32xf16, #dotA>, tensor<128x64xf16, #dotB>
  }
}

// -----

// Must not: conversions to other layouts and between MFMA operand layouts
// stay, as do mma.sync operands (NVIDIA's lowering reads those with
// ldmatrix).
// CHECK: func.func @left_alone
// CHECK-NOT: tilegpu.local_alloc
// CHECK-COUNT-2: tilegpu.convert_layout
// CHECK-NOT: tilegpu.local_alloc
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#mfmaA4 = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#mfmaA8 = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 8}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "hip:gfx942", "tilegpu.threads-per-warp" = 64 : i32} {
  func.func @left_alone(%x: tensor<64x32xf16, #blocked1>, %z: tensor<64x32xf16, #mfmaA4>) -> (tensor<64x32xf16, #blocked2>, tensor<64x32xf16, #mfmaA8>) {
    %t = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #blocked2>
    %w = tilegpu.convert_layout %z : tensor<64x32xf16, #mfmaA4> -> tensor<64x32xf16, #mfmaA8>
    return %t, %w : tensor<64x32xf16, #blocked2>, tensor<64x32xf16, #mfmaA8>
  }
}

// -----

// CHECK: func.func @mma_sync_operand
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tilegpu.convert_layout
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "cuda:80", "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @mma_sync_operand(%x: tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #dotA> {
    %n = tilegpu.convert_layout %x : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #dotA>
    return %n : tensor<64x32xf16, #dotA>
  }
}
