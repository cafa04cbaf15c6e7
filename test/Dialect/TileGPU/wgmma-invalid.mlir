// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// Verifier errors of #tilegpu.nvmma_shared, of buffers in it and of
// tilegpu.warp_group_dot.

// expected-error @+1 {{swizzlingByteWidth must be 0, 32, 64 or 128, got 16}}
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @+1 {{elementBitWidth must be 8, 16 or 32, got 64}}
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 64}>

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{nvmma_shared layout for 16-bit elements does not fit 'f32'}}
func.func @width(%b: !tilegpu.memdesc<64x64xf32, #s>)

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{the contiguous dimension (32 elements) of an nvmma_shared buffer must be a multiple of 128 bytes}}
func.func @narrow(%b: !tilegpu.memdesc<64x32xf16, #s>)

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{layout of rank 2 does not fit a buffer of rank 4 (or a stack of rank 3)}}
func.func @rank(%b: !tilegpu.memdesc<2x2x64x64xf16, #s>)

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{each buffer of an nvmma_shared stack must be a multiple of 1024 bytes, got 4x64 elements of 16 bits}}
func.func @small_stack(%b: !tilegpu.memdesc<2x4x64xf16, #s>)

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#t = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
func.func @stack_layout(%b: !tilegpu.memdesc<3x64x64xf16, #s, mutable>, %i: i32) {
  // expected-error @+1 {{result layout #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}> must be the stack's}}
  %x = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<3x64x64xf16, #s, mutable> -> !tilegpu.memdesc<64x64xf16, #t, mutable>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#w = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @not_nvmma(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #w>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{operands must be shared buffers in #tilegpu.nvmma_shared layouts}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #w> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
func.func @v2(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{result must be in a #tilegpu.nvidia_mma layout of version 3}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @shapes(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<128x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{shapes must be M x K, K x N and M x N}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<128x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @types(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xi32, #mma>) {
  // expected-error @+1 {{no wgmma computes 'i32' from 'f16' operands}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xi32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @tf32_n_major(%a: !tilegpu.memdesc<64x32xf32, #s>, %b: !tilegpu.memdesc<32x64xf32, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{operands of 'f32' must be K-major (A not transposed, B transposed)}}
  %d = tilegpu.warp_group_dot %a, %b, %c precision = tf32 : !tilegpu.memdesc<64x32xf32, #s>, !tilegpu.memdesc<32x64xf32, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
func.func @rows(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{M = 64 must be a multiple of 16 rows per warp along M (128)}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>
func.func @columns(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{N = 64 must be a multiple of instrShape N times the warps along N (128)}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

func.func @wait_nothing() {
  // expected-error @+1 {{waits for the results of async warp_group_dots, and has none}}
  "tilegpu.warp_group_dot_wait"() {pendings = 0 : i32} : () -> ()
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @wait_not_wgmma(%c: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{inputs must be wgmma accumulators (a #tilegpu.nvidia_mma layout of version 3), got 'tensor<64x64xf32, #tilegpu.blocked<}}
  %w = tilegpu.warp_group_dot_wait %c {pendings = 0 : i32} : tensor<64x64xf32, #blocked>
  return
}

// -----

#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @wait_negative(%c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{attribute 'pendings' failed to satisfy constraint}}
  %w = tilegpu.warp_group_dot_wait %c {pendings = -1 : i32} : tensor<64x64xf32, #mma>
  return
}

// -----

// A in registers: the dot-operand layout of A whose parent is the result's
// layout, 16-bit elements two to a register.
#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#other = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #other, kWidth = 2}>
func.func @other_parent(%a: tensor<64x64xf16, #a>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{A in registers must be a 16-bit tensor in the #tilegpu.dot_operand layout of A (kWidth = 2) whose parent is the result's layout}}
  %d = tilegpu.warp_group_dot %a, %b, %c : tensor<64x64xf16, #a>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @accumulator_layout(%a: tensor<64x64xf16, #mma>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{A in registers must be a 16-bit tensor in the #tilegpu.dot_operand layout of A}}
  %d = tilegpu.warp_group_dot %a, %b, %c : tensor<64x64xf16, #mma>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#a = #tilegpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
func.func @tf32_registers(%a: tensor<64x32xf32, #a>, %b: !tilegpu.memdesc<32x64xf32, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{A in registers must be a 16-bit tensor}}
  %d = tilegpu.warp_group_dot %a, %b, %c precision = tf32 : tensor<64x32xf32, #a>, !tilegpu.memdesc<32x64xf32, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #tilegpu.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @k_step(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{the accumulator's instrShape K = 8 must be 16 (one wgmma's K for 'f16')}}
  %d = tilegpu.warp_group_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}
