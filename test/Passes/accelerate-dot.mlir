// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:80 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=cuda:75 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=SM75
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=cuda:89 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=SM89

// On sm_80+, dots that mma.sync computes get an nvidia_mma result and
// dot_operand operands (through convert_layout), the result converted back
// for its users; other dots keep the FMA layouts. Before sm_80 nothing
// changes. fp8 dots are computed on float16 operands converted from fp8,
// which needs sm_89's conversions: an error before (the expected-errors
// are the sm_80 and sm_75 runs').

// float16 -> float32, 64 x 64 at 4 warps: 2 x 2 warps, kWidth 2.
// CHECK-LABEL: func.func @f16
// CHECK-DAG: %[[A:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK-DAG: %[[B:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<32x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK-DAG: %[[C:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
// CHECK: %[[D:.+]] = tile.dot %[[A]], %[[B]], %[[C]]
// CHECK: tilegpu.convert_layout %[[D]] : tensor<64x64xf32, #tilegpu.nvidia_mma
// SM75-LABEL: func.func @f16
// SM75-NOT: nvidia_mma
// SM75: tile.dot
func.func @f16(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// A tall result puts the warps along M; int8 -> int32 has kWidth 4; tf32
// has kWidth 1.
// CHECK-LABEL: func.func @tall_int8
// CHECK: tile.dot {{.*}}kWidth = 4{{.*}} -> tensor<128x16xi32, #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
func.func @tall_int8(%a: tensor<128x64xi8>, %b: tensor<64x16xi8>, %c: tensor<128x16xi32>) -> tensor<128x16xi32> {
  %d = tile.dot %a, %b, %c : tensor<128x64xi8> * tensor<64x16xi8> -> tensor<128x16xi32>
  return %d : tensor<128x16xi32>
}
// CHECK-LABEL: func.func @tf32
// CHECK: tile.dot {{.*}} precision = tf32 : {{.*}}kWidth = 1
func.func @tf32(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tile.dot %a, %b, %c precision = tf32 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

// Must not: float32 in ieee precision, float64, int8 with K below the
// instruction's 32, and batched dots keep the FMA layouts.
// CHECK-LABEL: func.func @fallbacks
// CHECK-NOT: nvidia_mma
// CHECK: return
func.func @fallbacks(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>,
                     %a8: tensor<32x16xi8>, %b8: tensor<16x32xi8>, %c8: tensor<32x32xi32>,
                     %a64: tensor<16x16xf64>, %b64: tensor<16x16xf64>, %c64: tensor<16x16xf64>,
                     %ab: tensor<2x16x16xf16>, %bb: tensor<2x16x16xf16>, %cb: tensor<2x16x16xf32>) {
  %d = tile.dot %a, %b, %c : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %d8 = tile.dot %a8, %b8, %c8 : tensor<32x16xi8> * tensor<16x32xi8> -> tensor<32x32xi32>
  %d64 = tile.dot %a64, %b64, %c64 : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
  %db = tile.dot %ab, %bb, %cb : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

// fp8 on sm_89 (no wgmma): both operands are converted to float16 exactly
// (tile.fp_to_fp without rounding mode) in the layouts they arrive in, and
// mma.sync computes the float16 dot, the two fp8 formats mixed too; a
// batched fp8 dot keeps the FMA layouts on float16 operands.
// SM89-LABEL: func.func @fp8
// SM89: tile.fp_to_fp %arg0 : tensor<64x32xf8E4M3FN, #[[$BA:.+]]> -> tensor<64x32xf16, #[[$BA]]>
// SM89: tile.fp_to_fp %arg1 : tensor<32x64xf8E5M2, #[[$BB:.+]]> -> tensor<32x64xf16, #[[$BB]]>
// SM89-DAG: tilegpu.convert_layout {{.*}} -> tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0, {{.*}}kWidth = 2}>>
// SM89-DAG: tilegpu.convert_layout {{.*}} -> tensor<32x64xf16, #tilegpu.dot_operand<{opIdx = 1, {{.*}}kWidth = 2}>>
// SM89: tile.dot {{.*}} -> tensor<64x64xf32, #tilegpu.nvidia_mma<{versionMajor = 2
// SM89: tile.fp_to_fp %arg3 : tensor<2x16x16xf8E5M2
// SM89: tile.fp_to_fp %arg4 : tensor<2x16x16xf8E5M2
// SM89-NOT: nvidia_mma
// SM89: tile.dot {{.*}}tensor<2x16x16xf16, {{.*}} * tensor<2x16x16xf16, {{.*}} -> tensor<2x16x16xf32
// SM89: return
func.func @fp8(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf8E5M2>, %c: tensor<64x64xf32>,
               %ab: tensor<2x16x16xf8E5M2>, %bb: tensor<2x16x16xf8E5M2>, %cb: tensor<2x16x16xf32>) -> (tensor<64x64xf32>, tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op multiplies 'f8E4M3FN' by 'f8E5M2': fp8 dots need sm_89 or newer (mma.sync on float16 converted from fp8 there, wgmma on sm_90a), the target is sm_}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
  // expected-error @+1 {{fp8 dots need sm_89 or newer}}
  %db = tile.dot %ab, %bb, %cb : tensor<2x16x16xf8E5M2> * tensor<2x16x16xf8E5M2> -> tensor<2x16x16xf32>
  return %d, %db : tensor<64x64xf32>, tensor<2x16x16xf32>
}

// -----

// A chain of dots (the second's A computed from the first's result): both
// put their warps along M only, so that each warp's rows of the first
// result are the rows of A it multiplies (the conversion between the two
// layouts relabels registers). Must not: a lone dot of the same shape
// keeps 2 x 2 warps; a chain whose M is too short for the warps (16 rows
// per warp) keeps the usual split (1 x 4 for 32 x 64).
// CHECK-LABEL: func.func @chain
// CHECK: tile.dot {{.*}}-> tensor<64x64xf32, #[[MMA:tilegpu.nvidia_mma<\{versionMajor = 2, warpsPerCTA = \[4, 1\], instrShape = \[16, 8\]\}>]]>
// CHECK: tilegpu.convert_layout {{.*}}-> tensor<64x64xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: tile.dot {{.*}}-> tensor<64x64xf32, #[[MMA]]>
// CHECK-LABEL: func.func @lone
// CHECK: tile.dot {{.*}}warpsPerCTA = [2, 2]
// CHECK-LABEL: func.func @short_chain
// CHECK: tile.dot {{.*}}warpsPerCTA = [1, 4]
// CHECK: tile.dot {{.*}}warpsPerCTA = [1, 4]
func.func @chain(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = tile.dot %q, %k, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %e = math.exp2 %s : tensor<64x64xf32>
  %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
  %o = tile.dot %p, %v, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}
func.func @lone(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func @short_chain(%q: tensor<32x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %s = tile.dot %q, %k, %c : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
  %p = arith.truncf %s : tensor<32x64xf32> to tensor<32x64xf16>
  %o = tile.dot %p, %v, %c : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
  return %o : tensor<32x64xf32>
}
