// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #tilegpu.blocked
//===----------------------------------------------------------------------===//

// expected-error @+1 {{blocked layout needs at least one dimension}}
#b = #tilegpu.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>
func.func @f(%a: tensor<f32, #b>)

// -----

// expected-error @+1 {{sizePerThread, threadsPerWarp and warpsPerCTA must have one entry per dimension}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{sizePerThread, threadsPerWarp and warpsPerCTA must have one entry per dimension}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{sizePerThread entries must be powers of two, got 3}}
#b = #tilegpu.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{sizePerThread entries must be powers of two, got 0}}
#b = #tilegpu.blocked<{sizePerThread = [0, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{threadsPerWarp entries must be powers of two, got 6}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [6, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{warpsPerCTA entries must be powers of two, got 5}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 5], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{order has 1 entries for rank 2}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [2, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// The lists are bracketed; the unbracketed form is not accepted.
// expected-error @+2 {{expected '['}}
// expected-error @+1 {{failed to parse TileGPU_BlockedLayout parameter 'sizePerThread'}}
#b = #tilegpu.blocked<{sizePerThread = 1, threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%a: tensor<4xf32, #b>)

// -----

// A negative entry is not read as a large unsigned one.
// expected-error @+2 {{expected an unsigned 32-bit integer, got -1}}
// expected-error @+1 {{failed to parse TileGPU_BlockedLayout parameter 'sizePerThread'}}
#b = #tilegpu.blocked<{sizePerThread = [-1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<4x4xf32, #b>)

// -----

// expected-error @+2 {{expected an unsigned 32-bit integer, got 4294967296}}
// expected-error @+1 {{failed to parse TileGPU_SwizzledSharedLayout parameter 'order'}}
#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [4294967296]}>
func.func @f(%m: !tilegpu.memdesc<4xf16, #shared>)

//===----------------------------------------------------------------------===//
// #tilegpu.slice
//===----------------------------------------------------------------------===//

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{only a layout of rank 2 or more can be sliced}}
#s = #tilegpu.slice<{dim = 0, parent = #b1}>
func.func @f(%a: tensor<4xf32, #s>)

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{dim 2 is out of range for a parent of rank 2}}
#s = #tilegpu.slice<{dim = 2, parent = #b}>
func.func @f(%a: tensor<4xf32, #s>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+2 {{invalid kind of attribute specified}}
// expected-error @+1 {{failed to parse TileGPU_SliceLayout parameter 'parent'}}
#s = #tilegpu.slice<{dim = 0, parent = #shared}>
func.func @f(%a: tensor<4xf32, #s>)

//===----------------------------------------------------------------------===//
// #tilegpu.swizzled_shared
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{vec/perPhase/maxPhase entries must be powers of two, got 3}}
#shared = #tilegpu.swizzled_shared<{vec = 3, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<4x4xf16, #shared>)

// -----

// expected-error @+1 {{vec/perPhase/maxPhase entries must be powers of two, got 0}}
#shared = #tilegpu.swizzled_shared<{vec = 8, perPhase = 0, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<4x4xf16, #shared>)

// -----

// expected-error @+1 {{vec/perPhase/maxPhase entries must be powers of two, got 6}}
#shared = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 6, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<4x4xf16, #shared>)

// -----

// expected-error @+1 {{shared layout needs at least one dimension}}
#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = []}>
func.func @f(%m: !tilegpu.memdesc<4x4xf16, #shared>)

// -----

// expected-error @+1 {{order must be a permutation of 0..2}}
#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 2, 3]}>
func.func @f(%m: !tilegpu.memdesc<4x4x4xf16, #shared>)

//===----------------------------------------------------------------------===//
// !tilegpu.memdesc
//===----------------------------------------------------------------------===//

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{expected a shared-memory layout, got #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}}
func.func @f(%m: !tilegpu.memdesc<4x4xf16, #b>)

// -----

// expected-error @+1 {{expected a shared-memory layout, got 1 : i32}}
func.func @f(%m: !tilegpu.memdesc<4x4xf16, 1 : i32>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{expected 'mutable'}}
func.func @f(%m: !tilegpu.memdesc<4xf16, #shared, readonly>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{shared-memory buffer needs at least one dimension}}
func.func @f(%m: !tilegpu.memdesc<f16, #shared>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{shared-memory buffer dimensions must be positive}}
func.func @f(%m: !tilegpu.memdesc<0x16xf16, #shared, mutable>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{expected static shape}}
func.func @f(%m: !tilegpu.memdesc<?xf16, #shared>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{shared-memory buffer elements must be integers or floats, got '!tile.ptr<f32>'}}
func.func @f(%m: !tilegpu.memdesc<16x!tile.ptr<f32>, #shared>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{layout of rank 2 does not fit a buffer of rank 1}}
func.func @f(%m: !tilegpu.memdesc<16xf16, #shared>)

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{layout of rank 1 does not fit a buffer of rank 3}}
func.func @f(%m: !tilegpu.memdesc<2x4x8xf16, #shared, mutable>)

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{unknown tilegpu attribute 'tilegpu.num-ctas'}}
module attributes {"tilegpu.num-ctas" = 1 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be set on a builtin.module}}
func.func @f() attributes {"tilegpu.num-warps" = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.target' must be set on a builtin.module}}
func.func @f() attributes {tilegpu.target = "cuda:80"} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be an i32, got 4 : i64}}
module attributes {"tilegpu.num-warps" = 4 : i64} {}

// -----

// The shared memory the lowering records: a non-negative i32.
// expected-error @+1 {{'tilegpu.shared' must not be negative, got -16}}
module attributes {tilegpu.shared = -16 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.shared' must be an i32, got 16 : i64}}
module attributes {tilegpu.shared = 16 : i64} {}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be an i32, got "4"}}
module attributes {"tilegpu.num-warps" = "4"} {}

// -----

// A signed or unsigned i32 is not the i32 of the dialect's description.
// expected-error @+1 {{'tilegpu.num-warps' must be an i32, got 4 : si32}}
module attributes {"tilegpu.num-warps" = 4 : si32} {}

// -----

// expected-error @+1 {{'tilegpu.threads-per-warp' must be an i32, got 4294967264 : ui32}}
module attributes {"tilegpu.threads-per-warp" = 4294967264 : ui32} {}

// -----

// expected-error @+1 {{'tilegpu.threads-per-warp' must be an i32, got 3.200000e+01 : f32}}
module attributes {"tilegpu.threads-per-warp" = 32.0 : f32} {}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be a power of two from 1 to 32, got 3}}
module attributes {"tilegpu.num-warps" = 3 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be a power of two from 1 to 32, got 0}}
module attributes {"tilegpu.num-warps" = 0 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be a power of two from 1 to 32, got -4}}
module attributes {"tilegpu.num-warps" = -4 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.num-warps' must be a power of two from 1 to 32, got 64}}
module attributes {"tilegpu.num-warps" = 64 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.threads-per-warp' must be 32 or 64, got 16}}
module attributes {"tilegpu.threads-per-warp" = 16 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.threads-per-warp' must be 32 or 64, got 128}}
module attributes {"tilegpu.threads-per-warp" = 128 : i32} {}

// -----

// NVIDIA warps have 32 threads.
// expected-error @+1 {{'tilegpu.threads-per-warp' must be 32 for the target "cuda:90", got 64}}
module attributes {"tilegpu.threads-per-warp" = 64 : i32, tilegpu.target = "cuda:90"} {}

// -----

// expected-error @+1 {{'tilegpu.target' must be a string, got 90 : i32}}
module attributes {tilegpu.target = 90 : i32} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target 'cuda'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201}}
module attributes {tilegpu.target = "cuda"} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target 'cuda:sm_90'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201}}
module attributes {tilegpu.target = "cuda:sm_90"} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target 'cuda:90b'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201}}
module attributes {tilegpu.target = "cuda:90b"} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target 'hip:942'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201}}
module attributes {tilegpu.target = "hip:942"} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target 'rocm:gfx942'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201}}
module attributes {tilegpu.target = "rocm:gfx942"} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target ' cuda:90'; expected one of cuda:70, cuda:75, cuda:80, cuda:86, cuda:87, cuda:89, cuda:90, cuda:100, cuda:103, cuda:120, hip:gfx90a, hip:gfx942, hip:gfx950, hip:gfx1100, hip:gfx1200, hip:gfx1201}}
module attributes {tilegpu.target = " cuda:90"} {}

// -----

// expected-error @+1 {{'tilegpu.target': unknown target 'cuda:90}}
module attributes {tilegpu.target = "cuda:90\n"} {}

// -----

// A function argument with 8 warps in a module of 4.
#b8 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 2], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
  // expected-error @+1 {{'func.func' op layout #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 2], order = [1, 0]}> disagrees with the module's tilegpu.num-warps = 4}}
  func.func @f(%a: tensor<32x32xf32, #b8>) {
    return
  }
}

// -----

// An op result with 2 warps in a module of 4, nested in a region.
#b4 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32} {
  func.func @f(%a: tensor<32x32xf32, #b4>, %c: i1) {
    scf.if %c {
      // expected-error @+1 {{'tilegpu.convert_layout' op layout #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}> disagrees with the module's tilegpu.num-warps = 4}}
      %0 = tilegpu.convert_layout %a : tensor<32x32xf32, #b4> -> tensor<32x32xf32, #b2>
    }
    return
  }
}

// -----

// A slice inherits its parent's warps.
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
  func.func @f() {
    // expected-error @+1 {{'arith.constant' op layout #tilegpu.slice<{dim = 0, parent = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>}> disagrees with the module's tilegpu.num-warps = 4}}
    %0 = arith.constant dense<0.0> : tensor<32xf32, #tilegpu.slice<{dim = 0, parent = #b2}>>
    return
  }
}

// -----

// A wavefront of 64 in a module of warps of 32.
#b64 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{'func.func' op layout #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}> disagrees with the module's tilegpu.threads-per-warp = 32}}
  func.func @f(%a: tensor<32x32xf32, #b64>) {
    return
  }
}

// -----

// Warps of 32 threads in a module of wavefronts of 64, through a slice.
#b32 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 64 : i32} {
  func.func @f(%a: tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b32}>>) {
    // expected-error @+1 {{'tilegpu.convert_layout' op layout #tilegpu.slice<{dim = 0, parent = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}> disagrees with the module's tilegpu.threads-per-warp = 64}}
    %0 = tilegpu.convert_layout %a : tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b32}>> -> tensor<32xf32, #tilegpu.slice<{dim = 0, parent = #b32}>>
    return
  }
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b_t = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @f(%a: tensor<32x32xf32, #b>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op may change only the layout, not 'tensor<32x32xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' into 'tensor<32x16xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>'}}
  %0 = tilegpu.convert_layout %a : tensor<32x32xf32, #b> -> tensor<32x16xf32, #b_t>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<32x32xf32, #b>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op may change only the layout, not}}
  %0 = tilegpu.convert_layout %a : tensor<32x32xf32, #b> -> tensor<32x32xf16, #b>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A tensor type whose layout has another rank is rejected where it is
// written.
// expected-error @+1 {{layout of rank 2 does not fit a tensor of rank 1}}
func.func @f(%a: tensor<32xf32, #b>) {
  %0 = tilegpu.convert_layout %a : tensor<32xf32, #b> -> tensor<32xf32, #b1>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%a: tensor<32x4xf32, #b>) {
  // expected-error @+1 {{layout of rank 1 does not fit a tensor of rank 2}}
  %0 = tilegpu.convert_layout %a : tensor<32x4xf32, #b> -> tensor<32x4xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f() {
  // expected-error @+1 {{'tilegpu.local_alloc' op an uninitialised buffer must be mutable}}
  %0 = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x16xf16, #shared>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%a: tensor<16x8xf16>) {
  // expected-error @+1 {{'tilegpu.local_alloc' op tensor 'tensor<16x8xf16>' does not match the buffer '!tilegpu.memdesc<16x16xf16, #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>'}}
  %0 = tilegpu.local_alloc %a : (tensor<16x8xf16>) -> !tilegpu.memdesc<16x16xf16, #shared>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%a: tensor<16x16xf32>) {
  // expected-error @+1 {{'tilegpu.local_alloc' op tensor 'tensor<16x16xf32>' does not match the buffer}}
  %0 = tilegpu.local_alloc %a : (tensor<16x16xf32>) -> !tilegpu.memdesc<16x16xf16, #shared, mutable>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<16x16xf16, #shared>) {
  // expected-error @+1 {{'tilegpu.local_load' op tensor 'tensor<16x16xf32>' does not match the buffer '!tilegpu.memdesc<16x16xf16, #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>'}}
  %0 = tilegpu.local_load %m : !tilegpu.memdesc<16x16xf16, #shared> -> tensor<16x16xf32>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<16x16xf16, #shared, mutable>) {
  // expected-error @+1 {{'tilegpu.local_load' op tensor 'tensor<16x32xf16>' does not match the buffer}}
  %0 = tilegpu.local_load %m : !tilegpu.memdesc<16x16xf16, #shared, mutable> -> tensor<16x32xf16>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<16x16xf16, #shared>, %a: tensor<16x16xf16>) {
  // expected-error @+1 {{'tilegpu.local_store' op cannot write an immutable buffer}}
  tilegpu.local_store %a, %m : tensor<16x16xf16> -> !tilegpu.memdesc<16x16xf16, #shared>
  return
}

// -----

#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<16x16xf16, #shared, mutable>, %a: tensor<16x16xi16>) {
  // expected-error @+1 {{'tilegpu.local_store' op tensor 'tensor<16x16xi16>' does not match the buffer '!tilegpu.memdesc<16x16xf16, #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, mutable>'}}
  tilegpu.local_store %a, %m : tensor<16x16xi16> -> !tilegpu.memdesc<16x16xf16, #shared, mutable>
  return
}

// -----

// The layout of the tensor an op exchanges with shared memory must fit it.
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{layout of rank 1 does not fit a tensor of rank 2}}
func.func @f(%a: tensor<16x16xf16, #b1>) {
  %0 = tilegpu.local_alloc %a : (tensor<16x16xf16, #b1>) -> !tilegpu.memdesc<16x16xf16, #shared>
  return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @f(%m: !tilegpu.memdesc<16x16xf16, #shared>) {
  // expected-error @+1 {{layout of rank 1 does not fit a tensor of rank 2}}
  %0 = tilegpu.local_load %m : !tilegpu.memdesc<16x16xf16, #shared> -> tensor<16x16xf16, #b1>
  return
}

// -----

#b3 = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [2, 2, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#shared = #tilegpu.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{layout of rank 3 does not fit a tensor of rank 2}}
func.func @f(%m: !tilegpu.memdesc<16x16xf16, #shared, mutable>, %a: tensor<16x16xf16, #b3>) {
  tilegpu.local_store %a, %m : tensor<16x16xf16, #b3> -> !tilegpu.memdesc<16x16xf16, #shared, mutable>
  return
}

// -----

#ia = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#ib = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @negative_scratch_offset(%x: tensor<512xf32, #ia>) -> tensor<512xf32, #ib> {
  // expected-error @+1 {{'tilegpu.scratch_offset' must be a non-negative i64, got -16 : i64}}
  %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = -16 : i64} : tensor<512xf32, #ia> -> tensor<512xf32, #ib>
  return %y : tensor<512xf32, #ib>
}

// -----

#ia = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#ib = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @string_scratch_offset(%x: tensor<512xf32, #ia>) -> tensor<512xf32, #ib> {
  // expected-error @+1 {{'tilegpu.scratch_offset' must be a non-negative i64, got "zero"}}
  %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = "zero"} : tensor<512xf32, #ia> -> tensor<512xf32, #ib>
  return %y : tensor<512xf32, #ib>
}

// -----

#ia = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @buffer_offset_elsewhere(%x: tensor<512xf32, #ia>) -> tensor<512xf32, #ia> {
  // expected-error @+1 {{'tilegpu.buffer_offset' must be set on a tilegpu.local_alloc}}
  %y = arith.negf %x {tilegpu.buffer_offset = 0 : i64} : tensor<512xf32, #ia>
  return %y : tensor<512xf32, #ia>
}

//===----------------------------------------------------------------------===//
// Layouts the layout library cannot build for the tensor are rejected where
// the tensor type is written, never a fatal error later
//===----------------------------------------------------------------------===//

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{cannot lay out a tensor of shape [6]: shape entry 6 is not a power of two in [1, 2^30]}}
func.func private @not_a_power_of_two(tensor<6xf32, #b1>)

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{shape entry 2147483648 is not a power of two in [1, 2^30]}}
func.func private @output_dimension_too_large(tensor<2147483648xf32, #b1>)

// -----

#huge = #tilegpu.blocked<{sizePerThread = [1073741824], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{the layout's tile spans 2^37 elements along dimension 0; at most 2^30 are supported}}
func.func private @tile_too_large(tensor<64xf32, #huge>)

// -----

#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{a thread would hold 2^53 elements; at most 2^30 are supported}}
func.func private @too_many_registers(tensor<1073741824x1073741824xf32, #b2>)

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{layout of rank 1 does not fit a tensor of rank 0}}
func.func private @rank_zero(tensor<f32, #b1>)

// -----

// The parent of a slice is checked with the sliced dimension of size 1.
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{shape entry 12 is not a power of two in [1, 2^30]}}
func.func private @slice_of_bad_shape(tensor<12xf32, #tilegpu.slice<{dim = 0, parent = #b2}>>)

// -----

// Tensors with a layout in the operands of any op, not only tilegpu's.
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @in_an_arith_op(%x: tensor<16xf32, #b1>) {
  // expected-error @+1 {{shape entry 48 is not a power of two in [1, 2^30]}}
  %y = "arith.negf"(%x) : (tensor<16xf32, #b1>) -> tensor<48xf32, #b1>
  return
}

// -----

// More elements than the largest block (2^20, as in the tile dialect and the
// frontend): the fuzzer's 2 x 2^26 layout conversion, handed to the
// lowering directly, ran for minutes.
#a = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// expected-error @+1 {{a tensor of shape [2, 67108864] has more elements than the largest block (1048576)}}
func.func private @too_many_elements(tensor<2x67108864xf32, #a>)

// -----

#l = #tilegpu.linear<{register = [[1], [2], [4], [8], [16], [32], [64], [128], [256], [512], [1024], [2048], [4096], [8192], [16384], [32768]], lane = [[65536], [131072], [262144], [524288], [1048576]], warp = []}>
// expected-error @+1 {{a tensor of shape [2097152] has more elements than the largest block (1048576)}}
func.func private @too_many_elements_linear(tensor<2097152xf32, #l>)

// -----

// A prefetch's mask has its pointers' shape and layout.
#pa = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#pb = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @prefetch_mask_layout(%p: tensor<128x!tile.ptr<f32>, #pa>, %m: tensor<128xi1, #pb>) {
  // expected-error @+1 {{mask must have the shape and layout of the pointers}}
  tilegpu.prefetch_global %p mask %m : tensor<128x!tile.ptr<f32>, #pa>, tensor<128xi1, #pb>
  return
}

// -----

#pa = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @prefetch_mask_shape(%p: tensor<128x!tile.ptr<f32>, #pa>, %m: tensor<64xi1, #pa>) {
  // expected-error @+1 {{mask must have the shape and layout of the pointers}}
  tilegpu.prefetch_global %p mask %m : tensor<128x!tile.ptr<f32>, #pa>, tensor<64xi1, #pa>
  return
}
