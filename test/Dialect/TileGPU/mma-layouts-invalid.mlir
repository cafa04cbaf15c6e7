// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// Verifier errors of #tilegpu.nvidia_mma and #tilegpu.dot_operand.

// expected-error @+1 {{versionMajor must be 2 (mma.sync) or 3 (wgmma), got 1}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
func.func private @f(tensor<32x32xf32, #mma>)

// -----

// expected-error @+1 {{mma.sync accumulators need instrShape = [16, 8]}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 16]}>
func.func private @f(tensor<32x32xf32, #mma>)

// -----

// expected-error @+1 {{warpsPerCTA must have two entries (M, N)}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4], instrShape = [16, 8]}>
func.func private @f(tensor<32x32xf32, #mma>)

// -----

// expected-error @+1 {{warpsPerCTA entries must be powers of two, got 3}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [3, 1], instrShape = [16, 8]}>
func.func private @f(tensor<32x32xf32, #mma>)

// -----

// expected-error @+1 {{wgmma accumulators need instrShape = [16, N, K] with N a power of two from 8 to 256}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 512, 16]}>
func.func private @f(tensor<64x64xf32, #mma>)

// -----

// expected-error @+1 {{wgmma needs warpsPerCTA[0] to be a multiple of 4 (a warp group)}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [2, 2], instrShape = [16, 64, 16]}>
func.func private @f(tensor<64x64xf32, #mma>)

// -----

#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{opIdx must be 0 (A) or 1 (B), got 2}}
#a = #tilegpu.dot_operand<{opIdx = 2, parent = #mma, kWidth = 2}>
func.func private @f(tensor<32x32xf16, #a>)

// -----

#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{kWidth must be 1, 2 or 4 (elements per 32-bit register), got 8}}
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 8}>
func.func private @f(tensor<32x32xf16, #a>)

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{the parent of a dot operand layout must be an mma.sync layout}}
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #blocked, kWidth = 2}>
func.func private @f(tensor<32x32xf16, #a>)

// -----

#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{an MMA layout needs power-of-two sizes, got 48}}
func.func private @f(tensor<48x32xf32, #mma>)

// -----

// Every layout is checked against the tensor it lays out where the type is
// written: a blocked layout's sizes too (the layout library takes powers of
// two only).
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{cannot lay out a tensor of shape [48, 32]: shape entry 48 is not a power of two in [1, 2^30]}}
func.func private @f(tensor<48x32xf32, #blocked>)

// -----

// wgmma reads only A from registers.
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @+1 {{or a wgmma layout (version 3) for operand A}}
#b = #tilegpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
func.func private @f(tensor<64x64xf16, #b>)

// -----

// Warps whose tile the layout library cannot hold.
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [134217728, 1], instrShape = [16, 8]}>
// expected-error @+1 {{the layout's tile spans 2^31 elements along dimension 0; at most 2^30 are supported}}
func.func private @f(tensor<32x32xf32, #mma>)

// -----

#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
// expected-error @+1 {{a thread would hold 2^31 elements; at most 2^30 are supported}}
func.func private @f(tensor<1073741824x128xf16, #a>)

// -----

// A wgmma K of 0 made the lowering emit instructions until memory ran out.
// expected-error @+1 {{wgmma accumulators need instrShape = [16, N, K] with K 8, 16 or 32, got 0}}
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 0]}>
func.func private @f(tensor<64x64xf32, #mma>)
