// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=8" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=W8
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=1" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=W1
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=SM80

// On sm_90a, dots that wgmma computes (float32 results from float16,
// bfloat16, tf32 or fp8 operands; M a multiple of 64; warps a multiple of
// 4) store their operands into shared memory (local_alloc in nvmma_shared
// layouts) and accumulate in nvidia_mma version 3; warp groups go along M
// first. Elsewhere (1 warp, sm_80) mma.sync's layouts stay.

// float16, 64 x 64 x 64: one 128-byte swizzle row per row of A (K = 64
// float16) and of B (N = 64 float16, N-major: the loads hold N
// contiguously); 4 warps: one warp group, N = 64 in one instruction. At 8
// warps the second warp group goes along N (M has one 64-row tile): two
// instructions of N = 32, B's rows narrowed to 64 bytes so that each
// starts at a swizzle row.
// CHECK: #[[S:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: func.func @f16
// CHECK: %[[A:.+]] = tilegpu.local_alloc %arg0 {{.*}}-> !tilegpu.memdesc<64x64xf16, #[[S]]>
// CHECK: %[[B:.+]] = tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<64x64xf16, #[[S]]>
// CHECK: %[[C:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>
// CHECK: %[[D:.+]] = tilegpu.warp_group_dot %[[A]], %[[B]], %[[C]]
// CHECK: tilegpu.convert_layout %[[D]]
// CHECK-NOT: tile.dot
// W8-DAG: #[[S128:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// W8-DAG: #[[S64:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// W8-LABEL: func.func @f16
// W8: tilegpu.local_alloc %arg0 {{.*}}#[[S128]]>
// W8: tilegpu.local_alloc %arg1 {{.*}}#[[S64]]>
// W8: tilegpu.warp_group_dot {{.*}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>>
// W1-LABEL: func.func @f16
// W1-NOT: local_alloc
// W1: tile.dot {{.*}}versionMajor = 2
// SM80-LABEL: func.func @f16
// SM80-NOT: local_alloc
// SM80: tile.dot {{.*}}versionMajor = 2
func.func @f16(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// 128 x 64 x 32: K = 32 float16 fills 64-byte rows; at 8 warps the two
// warp groups take one 64-row tile each.
// CHECK: #[[S:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: func.func @tall
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<128x32xf16, #[[S]]>
// CHECK: tilegpu.warp_group_dot {{.*}}warpsPerCTA = [4, 1], instrShape = [16, 64, 16]
// W8-LABEL: func.func @tall
// W8: tilegpu.warp_group_dot {{.*}}warpsPerCTA = [8, 1], instrShape = [16, 64, 16]
func.func @tall(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
  return %d : tensor<128x64xf32>
}

// -----

// tf32 and fp8: B must be K-major (transposed = true, K contiguous).
// CHECK-DAG: #[[T0:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[T1:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-DAG: #[[E0:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[E1:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: func.func @tf32
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x32xf32, #[[T0]]>
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<32x64xf32, #[[T1]]>
// CHECK: tilegpu.warp_group_dot {{.*}} precision = tf32 {{.*}}instrShape = [16, 64, 8]
// CHECK-LABEL: func.func @fp8
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x64xf8E4M3FN, #[[E0]]>
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x64xf8E5M2, #[[E1]]>
// CHECK: tilegpu.warp_group_dot {{.*}}instrShape = [16, 64, 32]
func.func @tf32(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c precision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func @fp8(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E5M2>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E5M2> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// Must not: M below 64, a float16 accumulator and float32 in ieee
// precision keep mma.sync (or FMA) layouts and no shared buffer.
// CHECK-LABEL: func.func @fallbacks
// CHECK-NOT: local_alloc
// CHECK-NOT: warp_group_dot
// CHECK: return
func.func @fallbacks(%a: tensor<32x64xf16>, %b: tensor<64x64xf16>, %c: tensor<32x64xf32>,
                     %c16: tensor<64x64xf16>, %a64: tensor<64x64xf16>,
                     %a32: tensor<64x32xf32>, %b32: tensor<32x64xf32>, %c32: tensor<64x64xf32>) {
  %d = tile.dot %a, %b, %c : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
  %d16 = tile.dot %a64, %b, %c16 : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf16>
  %d32 = tile.dot %a32, %b32, %c32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return
}
