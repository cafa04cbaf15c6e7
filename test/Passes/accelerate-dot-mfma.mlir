// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --terrazzo-convert-tile-to-tilegpu="target=hip:gfx942 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=GFX942
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=hip:gfx90a num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=GFX90A
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=hip:gfx950 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=GFX950
// RUN: terrazzo-opt %s -split-input-file --terrazzo-convert-tile-to-tilegpu="target=hip:gfx1200 num-warps=4" --terrazzo-accelerate-dot | FileCheck %s --check-prefix=RDNA

// On CDNA, dots that one of the chip's MFMA instructions computes get an
// amd_mfma result and dot_operand operands with the instruction's k per
// lane as kWidth (through convert_layout), the result converted back for
// its users; other dots keep the FMA layouts. fp8 operands in a format the
// chip's MFMA does not take (gfx942: FNUZ only, gfx950: OCP only, gfx90a:
// none) are widened to float16 (tile.fp_to_fp, exact) for the f16 MFMA.

// float16 -> float32, 64 x 64 at 4 warps: 2 x 2 warps of 32 x 32 tiles;
// 4 k per lane (32x32x8) on gfx90a and gfx942, 8 (32x32x16) on gfx950.
// GFX942-LABEL: func.func @f16
// GFX942-DAG: %[[A:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>, kWidth = 4}>>
// GFX942-DAG: %[[B:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<32x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>, kWidth = 4}>>
// GFX942-DAG: %[[C:.+]] = tilegpu.convert_layout %{{.+}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX942: %[[D:.+]] = tile.dot %[[A]], %[[B]], %[[C]]
// GFX942: tilegpu.convert_layout %[[D]] : tensor<64x64xf32, #tilegpu.amd_mfma
// GFX90A-LABEL: func.func @f16
// GFX90A: tile.dot {{.*}}kWidth = 4{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX950-LABEL: func.func @f16
// GFX950: tile.dot {{.*}}kWidth = 8{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
func.func @f16(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// M of 16: 16 x 16 tiles, the warps along N; bfloat16 likewise; a float16
// result too (the instructions accumulate in float32).
// GFX942-LABEL: func.func @m16_bf16
// GFX942: tile.dot {{.*}}kWidth = 4{{.*}} -> tensor<16x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [1, 4], instrShape = [16, 16]}>>
// GFX942-LABEL: func.func @f16_result
// GFX942: tile.dot {{.*}} -> tensor<64x64xf16, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX950-LABEL: func.func @m16_bf16
// GFX950: tile.dot {{.*}}kWidth = 8{{.*}} -> tensor<16x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [1, 4], instrShape = [16, 16]}>>
func.func @m16_bf16(%a: tensor<16x32xbf16>, %b: tensor<32x64xbf16>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<16x32xbf16> * tensor<32x64xbf16> -> tensor<16x64xf32>
  return %d : tensor<16x64xf32>
}
func.func @f16_result(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
  return %d : tensor<64x64xf16>
}

// -----

// int8 -> int32: 4 k per lane on gfx90a (32x32x8i8), 8 on gfx942
// (32x32x16_i8), 16 on gfx950 (32x32x32_i8); a tall result puts the warps
// along M.
// GFX90A-LABEL: func.func @tall_int8
// GFX90A: tile.dot {{.*}}kWidth = 4{{.*}} -> tensor<128x32xi32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32]}>>
// GFX942-LABEL: func.func @tall_int8
// GFX942: tile.dot {{.*}}kWidth = 8{{.*}} -> tensor<128x32xi32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32]}>>
// GFX950-LABEL: func.func @tall_int8
// GFX950: tile.dot {{.*}}kWidth = 16{{.*}} -> tensor<128x32xi32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32]}>>
func.func @tall_int8(%a: tensor<128x64xi8>, %b: tensor<64x32xi8>, %c: tensor<128x32xi32>) -> tensor<128x32xi32> {
  %d = tile.dot %a, %b, %c : tensor<128x64xi8> * tensor<64x32xi8> -> tensor<128x32xi32>
  return %d : tensor<128x32xi32>
}

// -----

// float32: MFMA float32 (1 k per lane) in ieee precision everywhere; tf32
// is xf32 (2 k per lane) on gfx942, float32 on the chips without xf32.
// GFX942-LABEL: func.func @f32
// GFX942: tile.dot {{.*}}kWidth = 1{{.*}} -> tensor<32x32xf32, #tilegpu.amd_mfma
// GFX942-LABEL: func.func @tf32
// GFX942: tile.dot {{.*}} precision = tf32 : {{.*}}kWidth = 2{{.*}} -> tensor<32x32xf32, #tilegpu.amd_mfma
// GFX950-LABEL: func.func @tf32
// GFX950: tile.dot {{.*}} precision = tf32 : {{.*}}kWidth = 1{{.*}} -> tensor<32x32xf32, #tilegpu.amd_mfma
func.func @f32(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tile.dot %a, %b, %c : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}
func.func @tf32(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tile.dot %a, %b, %c precision = tf32 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

// What no MFMA instruction takes keeps the FMA layouts: K of 4 for
// float16 (the least is 8), M of 8 (the least tile is 16), float64, a
// batch dimension.
// GFX942-LABEL: func.func @small_k
// GFX942-NOT: amd_mfma
// GFX942-LABEL: func.func @small_m
// GFX942-NOT: amd_mfma
// GFX942-LABEL: func.func @f64
// GFX942-NOT: amd_mfma
// GFX942-LABEL: func.func @batched
// GFX942-NOT: amd_mfma
// GFX942: return
func.func @small_k(%a: tensor<64x4xf16>, %b: tensor<4x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x4xf16> * tensor<4x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func @small_m(%a: tensor<8x32xf16>, %b: tensor<32x64xf16>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<8x32xf16> * tensor<32x64xf16> -> tensor<8x64xf32>
  return %d : tensor<8x64xf32>
}
func.func @f64(%a: tensor<32x16xf64>, %b: tensor<16x32xf64>, %c: tensor<32x32xf64>) -> tensor<32x32xf64> {
  %d = tile.dot %a, %b, %c : tensor<32x16xf64> * tensor<16x32xf64> -> tensor<32x32xf64>
  return %d : tensor<32x32xf64>
}
func.func @batched(%a: tensor<2x32x16xf16>, %b: tensor<2x16x32xf16>, %c: tensor<2x32x32xf32>) -> tensor<2x32x32xf32> {
  %d = tile.dot %a, %b, %c : tensor<2x32x16xf16> * tensor<2x16x32xf16> -> tensor<2x32x32xf32>
  return %d : tensor<2x32x32xf32>
}

// -----

// fp8 in the chip's formats: FNUZ on gfx942 (8 k per lane, 32x32x16),
// mixed e4m3 x e5m2 too. gfx950 and gfx90a widen them to float16 (4 k per
// lane on gfx90a's 32x32x8 f16, 8 on gfx950's 32x32x16 f16); f8E5M2FNUZ's
// conversion carries a rounding mode that nothing uses (LLVM's semantics
// do not call it exact, though every value is a float16 one).
// GFX942-LABEL: func.func @fnuz
// GFX942-NOT: tile.fp_to_fp
// GFX942: tile.dot {{.*}}kWidth = 8{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX90A-LABEL: func.func @fnuz
// GFX90A: tile.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FNUZ, #{{.*}}> -> tensor<64x32xf16,
// GFX90A: tile.fp_to_fp %{{.*}} rounding = rtne : tensor<32x64xf8E5M2FNUZ, #{{.*}}> -> tensor<32x64xf16,
// GFX90A: tile.dot {{.*}} : tensor<64x32xf16, {{.*}}kWidth = 4{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX950-LABEL: func.func @fnuz
// RDNA (no matrix cores) widens them too, for the FMA lowering:
// RDNA-LABEL: func.func @fnuz
// RDNA: tile.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FNUZ, #{{.*}}> -> tensor<64x32xf16,
// RDNA: tile.dot {{.*}} : tensor<64x32xf16, #{{.*}}> * tensor<32x64xf16, #{{.*}}> -> tensor<64x64xf32, #blocked
// GFX950: tile.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FNUZ, #{{.*}}> -> tensor<64x32xf16,
// GFX950: tile.dot {{.*}} : tensor<64x32xf16, {{.*}}kWidth = 8{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
func.func @fnuz(%a: tensor<64x32xf8E4M3FNUZ>, %b: tensor<32x64xf8E5M2FNUZ>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FNUZ> * tensor<32x64xf8E5M2FNUZ> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// OCP fp8 on gfx950's fp8 MFMA; on gfx942, whose fp8 MFMA reads FNUZ bytes
// (other values), and on gfx90a, widened to float16 for the f16 MFMA.
// GFX950-LABEL: func.func @ocp
// GFX950-NOT: tile.fp_to_fp
// GFX950: tile.dot {{.*}}kWidth = 8{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX942-LABEL: func.func @ocp
// GFX942: tile.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FN, #{{.*}}> -> tensor<64x32xf16,
// GFX942: tile.fp_to_fp %{{.*}} : tensor<32x64xf8E4M3FN, #{{.*}}> -> tensor<32x64xf16,
// GFX942: tile.dot {{.*}} : tensor<64x32xf16, {{.*}}kWidth = 4{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>>
// GFX90A-LABEL: func.func @ocp
// GFX90A: tile.fp_to_fp
// GFX90A: tile.dot {{.*}} : tensor<64x32xf16, {{.*}}kWidth = 4{{.*}} -> tensor<64x64xf32, #tilegpu.amd_mfma
func.func @ocp(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf8E4M3FN>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// A chain of dots (attention's P V, P = exp2(Q K^T) in float16): both take
// the transposed result (isTransposed), whose registers are the next dot's
// A operand, the warps along M; a dot alone (@f16 above) does not.
// GFX942-LABEL: func.func @chain
// GFX942: %[[S:.+]] = tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>>
// GFX942: tile.dot {{.*}} -> tensor<128x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>>
func.func @chain(%q: tensor<128x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>) -> tensor<128x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %s = tile.dot %q, %k, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
  %e = math.exp2 %s : tensor<128x64xf32>
  %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xf16>
  %o = tile.dot %p, %v, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
  return %o : tensor<128x64xf32>
}
