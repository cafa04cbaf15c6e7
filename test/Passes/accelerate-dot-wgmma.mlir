// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=8" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=W8
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:90 num-warps=1" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=W1
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=SM80

// On sm_90a, dots that wgmma computes (float32 results from float16,
// bfloat16, tf32 or fp8 operands; M a multiple of 64; warps a multiple of
// 4) store their operands into shared memory (local_alloc in nvmma_shared
// layouts) and accumulate in nvidia_mma version 3; warp groups go along M
// first. Elsewhere (1 warp, sm_80) mma.sync's layouts stay. fp8 dots that
// wgmma does not take are computed on float16 operands converted from fp8;
// sm_80 cannot convert fp8 (the expected-errors are the sm_80 run's).

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
  // expected-error @+1 {{'tile.dot' op multiplies 'f8E4M3FN' by 'f8E5M2': fp8 dots need sm_89 or newer}}
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

// -----

// fp8 operands are stored K-major whichever dimension their registers hold
// contiguously (wgmma transposes 16-bit types only): B from a transpose of
// an N x K block (K contiguous, the column-major B of torch._scaled_mm) and
// from the default layout (N contiguous) both get transposed = true, A from
// a transpose (M contiguous) transposed = false. The buffers are stored
// from the operands' first layout, not from the FMA layouts in between.
// CHECK-DAG: #[[K0:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[K1:.+]] = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: func.func @fp8_k_major_b
// CHECK: %[[T:.+]] = tile.trans %arg1
// CHECK-DAG: %[[A:.+]] = tilegpu.local_alloc %arg0 {{.*}}-> !tilegpu.memdesc<128x128xf8E4M3FN, #[[K0]]>
// CHECK-DAG: %[[B:.+]] = tilegpu.local_alloc %[[T]] {{.*}}-> !tilegpu.memdesc<128x128xf8E4M3FN, #[[K1]]>
// CHECK: tilegpu.warp_group_dot %[[A]], %[[B]], {{.*}}warpsPerCTA = [4, 1], instrShape = [16, 128, 32]
// CHECK-NOT: tile.fp_to_fp
// CHECK-LABEL: func.func @fp8_mn_major
// CHECK: %[[T:.+]] = tile.trans %arg0
// CHECK-DAG: tilegpu.local_alloc %[[T]] {{.*}}-> !tilegpu.memdesc<128x128xf8E5M2, #[[K0]]>
// CHECK-DAG: tilegpu.local_alloc %arg1 {{.*}}-> !tilegpu.memdesc<128x128xf8E5M2, #[[K1]]>
// CHECK: tilegpu.warp_group_dot
// W1-LABEL: func.func @fp8_k_major_b
// W1-NOT: local_alloc
// W1: tile.fp_to_fp %{{.+}} : tensor<128x128xf8E4M3FN, {{.+}}> -> tensor<128x128xf16,
// W1: tile.dot {{.*}}versionMajor = 2
func.func @fp8_k_major_b(%a: tensor<128x128xf8E4M3FN>, %bt: tensor<128x128xf8E4M3FN>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %b = tile.trans %bt [1, 0] : tensor<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  // expected-error @+1 {{fp8 dots need sm_89 or newer (mma.sync on float16 converted from fp8 there, wgmma on sm_90a), the target is sm_80}}
  %d = tile.dot %a, %b, %c : tensor<128x128xf8E4M3FN> * tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}
func.func @fp8_mn_major(%at: tensor<128x128xf8E5M2>, %b: tensor<128x128xf8E5M2>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %a = tile.trans %at [1, 0] : tensor<128x128xf8E5M2> -> tensor<128x128xf8E5M2>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d = tile.dot %a, %b, %c : tensor<128x128xf8E5M2> * tensor<128x128xf8E5M2> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// -----

// Must not take fp8 to wgmma: a float16 accumulator (the wgmma lowering
// keeps float32 ones only) and M = 32 go to mma.sync on float16 operands,
// converted exactly (no rounding mode); K = 16, below one fp8 wgmma's 32,
// goes to wgmma on float16 (K step 16).
// CHECK-LABEL: func.func @fp8_fallbacks
// CHECK: tile.fp_to_fp %arg0 : tensor<64x64xf8E4M3FN, #{{.+}}> -> tensor<64x64xf16, #{{.+}}>
// CHECK: tile.fp_to_fp %arg1 : tensor<64x64xf8E4M3FN, #{{.+}}> -> tensor<64x64xf16, #{{.+}}>
// CHECK: tile.dot {{.*}} -> tensor<64x64xf16, #tilegpu.nvidia_mma<{versionMajor = 2
// CHECK: tile.fp_to_fp %arg3 : tensor<32x64xf8E5M2, #{{.+}}> -> tensor<32x64xf16, #{{.+}}>
// CHECK: tile.fp_to_fp %arg4
// CHECK: tile.dot {{.*}} -> tensor<32x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2
// CHECK: tile.fp_to_fp %arg6
// CHECK: tile.fp_to_fp %arg7
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<64x16xf16,
// CHECK: tilegpu.local_alloc {{.*}}-> !tilegpu.memdesc<16x64xf16,
// CHECK: tilegpu.warp_group_dot {{.*}}instrShape = [16, 64, 16]
// CHECK-NOT: tile.dot
func.func @fp8_fallbacks(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E4M3FN>, %c16: tensor<64x64xf16>,
                         %a32: tensor<32x64xf8E5M2>, %b32: tensor<64x64xf8E5M2>, %c32: tensor<32x64xf32>,
                         %ak: tensor<64x16xf8E4M3FN>, %bk: tensor<16x64xf8E5M2>, %ck: tensor<64x64xf32>) -> (tensor<64x64xf16>, tensor<32x64xf32>, tensor<64x64xf32>) {
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d16 = tile.dot %a, %b, %c16 : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %d32 = tile.dot %a32, %b32, %c32 : tensor<32x64xf8E5M2> * tensor<64x64xf8E5M2> -> tensor<32x64xf32>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %dk = tile.dot %ak, %bk, %ck : tensor<64x16xf8E4M3FN> * tensor<16x64xf8E5M2> -> tensor<64x64xf32>
  return %d16, %d32, %dk : tensor<64x64xf16>, tensor<32x64xf32>, tensor<64x64xf32>
}
