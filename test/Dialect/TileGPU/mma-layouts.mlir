// RUN: terrazzo-opt %s -split-input-file | FileCheck %s
// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic=false -o /dev/null

// The tensor-core layouts print back as written and type tensors of their
// rank.

#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// CHECK-LABEL: func.func @mma_v2
// CHECK-SAME: tensor<64x32xf16, #tilegpu.dot_operand<{opIdx = 0, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK-SAME: tensor<32x64xf16, #tilegpu.dot_operand<{opIdx = 1, parent = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>
// CHECK: tile.dot
func.func @mma_v2(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#wgmma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
// CHECK-LABEL: func.func @mma_v3
// CHECK-SAME: #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
func.func @mma_v3(%c: tensor<128x256xf32, #wgmma>) -> tensor<128x256xf32, #wgmma> {
  return %c : tensor<128x256xf32, #wgmma>
}
