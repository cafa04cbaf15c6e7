// RUN: terrazzo-opt %s -split-input-file | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics -o /dev/null

// The MFMA layouts print back as written and type tensors of their rank.

#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 4}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mfma, kWidth = 4}>
// CHECK-LABEL: func.func @mfma_32
// CHECK-SAME: tensor<64x16xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>, kWidth = 4}>>
// CHECK-SAME: tensor<16x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>, kWidth = 4}>>
// CHECK: tile.dot
func.func @mfma_32(%a: tensor<64x16xf16, #a>, %b: tensor<16x64xf16, #b>, %c: tensor<64x64xf32, #mfma>) -> tensor<64x64xf32, #mfma> {
  %d = tile.dot %a, %b, %c : tensor<64x16xf16, #a> * tensor<16x64xf16, #b> -> tensor<64x64xf32, #mfma>
  return %d : tensor<64x64xf32, #mfma>
}

// -----

// The transposed result prints its flag (and only where it is set).
// CHECK-LABEL: func.func @mfma_transposed
// CHECK-SAME: tensor<128x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>>
// CHECK-SAME: tensor<128x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32]}>>
func.func @mfma_transposed(%t: tensor<128x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>>, %f: tensor<128x64xf32, #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = false}>>) {
  return
}

// -----

#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [16, 16]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 8}>
// A slice of it: the row maxima of attention's softmax.
// CHECK: #[[SLICE:.+]] = #tilegpu.slice<{dim = 1, parent = #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [16, 16]}>}>
// CHECK-LABEL: func.func @mfma_16
// CHECK-SAME: #tilegpu.amd_mfma<{warpsPerCTA = [4, 1], instrShape = [16, 16]}>
// CHECK-SAME: tensor<64xf32, #[[SLICE]]>
func.func @mfma_16(%c: tensor<64x64xf32, #mfma>, %r: tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #mfma}>>, %a: tensor<64x64xi8, #a>) -> tensor<64x64xf32, #mfma> {
  return %c : tensor<64x64xf32, #mfma>
}
