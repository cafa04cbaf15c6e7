// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// Verifier errors of #tilegpu.amd_mfma and of #tilegpu.dot_operand with an
// MFMA parent.

// expected-error @+1 {{warpsPerCTA must have two entries (M, N)}}
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [4], instrShape = [32, 32]}>
func.func private @f(tensor<64x64xf32, #mfma>)

// -----

// expected-error @+1 {{warpsPerCTA entries must be powers of two, got 3}}
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [3, 1], instrShape = [32, 32]}>
func.func private @f(tensor<64x64xf32, #mfma>)

// -----

// expected-error @+1 {{MFMA accumulators need instrShape = [32, 32] or [16, 16]}}
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [4, 4]}>
func.func private @f(tensor<64x64xf32, #mfma>)

// -----

// expected-error @+1 {{MFMA accumulators need instrShape = [32, 32] or [16, 16]}}
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 16]}>
func.func private @f(tensor<64x64xf32, #mfma>)

// -----

// expected-error @+1 {{MFMA accumulators need instrShape = [32, 32] or [16, 16]}}
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = []}>
func.func private @f(tensor<64x64xf32, #mfma>)

// -----

#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
// expected-error @+1 {{kWidth of an MFMA operand must be 1, 2, 4, 8 or 16 (consecutive k per lane), got 3}}
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 3}>
func.func private @f(tensor<64x16xf16, #a>)

// -----

#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
// expected-error @+1 {{kWidth of an MFMA operand must be 1, 2, 4, 8 or 16 (consecutive k per lane), got 32}}
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mfma, kWidth = 32}>
func.func private @f(tensor<64x16xf16, #a>)

// -----

#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32]}>
// expected-error @+1 {{opIdx must be 0 (A) or 1 (B), got 2}}
#a = #tilegpu.dot_operand<{opIdx = 2, parent = #mfma, kWidth = 4}>
func.func private @f(tensor<64x16xf16, #a>)

// -----

#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [16, 16]}>
// expected-error @+1 {{cannot lay out a tensor of shape [48, 32]: shape entry 48 is not a power of two}}
func.func private @f(tensor<48x32xf32, #mfma>)

// -----

// The accumulator layout is 2-D.
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [16, 16]}>
// expected-error @+1 {{layout of rank 2}}
func.func private @f(tensor<2x32x32xf32, #mfma>)

// -----

// Warps whose tile the layout library cannot hold.
#mfma = #tilegpu.amd_mfma<{warpsPerCTA = [67108864, 1], instrShape = [32, 32]}>
// expected-error @+1 {{the layout's tile spans 2^31 elements along dimension 0; at most 2^30 are supported}}
func.func private @f(tensor<32x32xf32, #mfma>)
