// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// Verifier errors of tilegpu.memdesc_index and
// tilegpu.async_copy_global_to_local.

#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @index_rank1(%b: !tilegpu.memdesc<4xf16, #s1, mutable>, %i: i32) {
  // expected-error @+1 {{needs a buffer with a leading buffer dimension}}
  %x = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<4xf16, #s1, mutable> -> !tilegpu.memdesc<4xf16, #s1, mutable>
  return
}

// -----

#s3 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @index_shape(%b: !tilegpu.memdesc<2x8x16xf16, #s3, mutable>, %i: i32) {
  // expected-error @+1 {{must be one buffer of}}
  %x = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<2x8x16xf16, #s3, mutable> -> !tilegpu.memdesc<8x8xf16, #s2, mutable>
  return
}

// -----

#s3 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @index_mutability(%b: !tilegpu.memdesc<2x8x16xf16, #s3, mutable>, %i: i32) {
  // expected-error @+1 {{must be one buffer of}}
  %x = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<2x8x16xf16, #s3, mutable> -> !tilegpu.memdesc<8x16xf16, #s2>
  return
}

// -----

#s3 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 0, 1]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @index_not_outermost(%b: !tilegpu.memdesc<2x8x16xf16, #s3, mutable>, %i: i32) {
  // expected-error @+1 {{the leading (buffer) dimension must be the slowest of the layout}}
  %x = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<2x8x16xf16, #s3, mutable> -> !tilegpu.memdesc<8x16xf16, #s2, mutable>
  return
}

// -----

#s3 = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [2, 1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [0, 1]}>
func.func @index_layout(%b: !tilegpu.memdesc<2x8x16xf16, #s3, mutable>, %i: i32) {
  // expected-error @+1 {{must be the source's without its leading dimension}}
  %x = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<2x8x16xf16, #s3, mutable> -> !tilegpu.memdesc<8x16xf16, #s2, mutable>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_immutable(%p: tensor<8x16x!tile.ptr<f16>, #blocked>, %b: !tilegpu.memdesc<8x16xf16, #s2>) {
  // expected-error @+1 {{cannot write an immutable buffer}}
  %t = tilegpu.async_copy_global_to_local %p, %b : tensor<8x16x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<8x16xf16, #s2>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_element(%p: tensor<8x16x!tile.ptr<f32>, #blocked>, %b: !tilegpu.memdesc<8x16xf16, #s2, mutable>) {
  // expected-error @+1 {{do not match the buffer}}
  %t = tilegpu.async_copy_global_to_local %p, %b : tensor<8x16x!tile.ptr<f32>, #blocked> -> !tilegpu.memdesc<8x16xf16, #s2, mutable>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_shape(%p: tensor<8x16x!tile.ptr<f16>, #blocked>, %b: !tilegpu.memdesc<16x16xf16, #s2, mutable>) {
  // expected-error @+1 {{do not match the buffer}}
  %t = tilegpu.async_copy_global_to_local %p, %b : tensor<8x16x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<16x16xf16, #s2, mutable>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_mask_shape(%p: tensor<8x16x!tile.ptr<f16>, #blocked>, %m: tensor<8x8xi1, #blocked>, %b: !tilegpu.memdesc<8x16xf16, #s2, mutable>) {
  // expected-error @+1 {{mask must have the shape of the pointers}}
  %t = tilegpu.async_copy_global_to_local %p, %b mask %m : tensor<8x16x!tile.ptr<f16>, #blocked>, tensor<8x8xi1, #blocked> -> !tilegpu.memdesc<8x16xf16, #s2, mutable>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_other_type(%p: tensor<8x16x!tile.ptr<f16>, #blocked>, %m: tensor<8x16xi1, #blocked>, %o: tensor<8x16xf32, #blocked>, %b: !tilegpu.memdesc<8x16xf16, #s2, mutable>) {
  // expected-error @+1 {{other must be a tensor of 'f16' with the shape of the pointers}}
  %t = tilegpu.async_copy_global_to_local %p, %b mask %m other %o : tensor<8x16x!tile.ptr<f16>, #blocked>, tensor<8x16xi1, #blocked>, tensor<8x16xf32, #blocked> -> !tilegpu.memdesc<8x16xf16, #s2, mutable>
  return
}

// -----

#s1 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @wait_negative() {
  // expected-error @+1 {{attribute 'num' failed to satisfy constraint}}
  %w = tilegpu.async_wait {num = -1 : i32}
  return
}

// -----

#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @reads_retired_elsewhere(%b: !tilegpu.memdesc<16xf16, #s, mutable>) {
  // expected-error @+1 {{'tilegpu.reads_retired' must be a unit attribute of a tilegpu.async_copy_global_to_local, a tilegpu.async_tma_copy_global_to_local or a tilegpu.local_store}}
  tilegpu.local_dealloc %b {tilegpu.reads_retired} : !tilegpu.memdesc<16xf16, #s, mutable>
  return
}

// -----

// A conversion's barrier scope: a scope, on a conversion only.
#r = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#r4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @barrier_scope_not_a_scope(%x: tensor<512xf32, #r>) -> tensor<512xf32, #r4> {
  // expected-error @+1 {{'tilegpu.barrier_scope' must be a barrier scope (0, 1 or 2 : i32) of a tilegpu.convert_layout}}
  %y = tilegpu.convert_layout %x {tilegpu.barrier_scope = 7 : i32} : tensor<512xf32, #r> -> tensor<512xf32, #r4>
  return %y : tensor<512xf32, #r4>
}

// -----

#s = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @barrier_scope_elsewhere(%b: !tilegpu.memdesc<16xf16, #s, mutable>) {
  // expected-error @+1 {{'tilegpu.barrier_scope' must be a barrier scope (0, 1 or 2 : i32) of a tilegpu.convert_layout}}
  tilegpu.local_dealloc %b {tilegpu.barrier_scope = 2 : i32} : !tilegpu.memdesc<16xf16, #s, mutable>
  return
}

// -----

// tilegpu.memdesc_trans: the source must be a 2-D nvmma_shared buffer, the
// result its transpose.
#s2 = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @trans_swizzled(%b: !tilegpu.memdesc<8x16xf16, #s2, mutable>) {
  // expected-error @+1 {{needs a 2-D #tilegpu.nvmma_shared buffer}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<8x16xf16, #s2, mutable> -> !tilegpu.memdesc<16x8xf16, #s2, mutable>
  return
}

// -----

#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
func.func @trans_layout(%b: !tilegpu.memdesc<128x64xf16, #nv, mutable>) {
  // expected-error @+1 {{with its shape reversed and layout #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<128x64xf16, #nv, mutable> -> !tilegpu.memdesc<64x128xf16, #nv, mutable>
  return
}

// -----

#nv = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #tilegpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
func.func @trans_shape(%b: !tilegpu.memdesc<128x64xf16, #nv, mutable>) {
  // expected-error @+1 {{with its shape reversed}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<128x64xf16, #nv, mutable> -> !tilegpu.memdesc<128x64xf16, #nvt, mutable>
  return
}
