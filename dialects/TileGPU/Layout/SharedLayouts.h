//===- SharedLayouts.h - Shared-memory layouts as linear layouts -*- C++ -*-===//
//
// A shared-memory layout maps the single input dimension "offset" (the
// element index in the buffer, not the byte address) to the tensor
// dimensions "dim0".."dim{rank-1}". It is invertible: every element lives
// at exactly one offset, so composing a distributed layout with the
// inverse gives, for every register of every thread, the offset of the
// element it holds (DESIGN.md §3).
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_DIALECTS_TILEGPU_LAYOUT_SHAREDLAYOUTS_H
#define TERRAZZO_DIALECTS_TILEGPU_LAYOUT_SHAREDLAYOUTS_H

#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace terrazzo {

/// The name of the input dimension of shared-memory layouts.
inline constexpr const char *kOffsetDim = "offset";

/// The swizzled shared layout of a buffer of `shape` (all sizes powers of
/// two). Rows run along order[0] and are stored one after another along
/// order[1], then the remaining dimensions in `order` (fastest first): the
/// unswizzled offset of element c is row-major in that order. Within a row
/// the element at column `col` of row `row` (the coordinate along order[1])
/// is stored at column
///
///     col ^ ((vec * ((row / perPhase) % maxPhase)) % rowLength)
///
/// so whole vectors of `vec` elements move together. vec, perPhase and
/// maxPhase must be powers of two; vec = perPhase = maxPhase = 1 is the
/// plain row-major layout. Anything checkSwizzledSharedLayout rejects is a
/// fatal error.
LinearLayout swizzledSharedLayout(llvm::ArrayRef<int64_t> shape, unsigned vec,
                                  unsigned perPhase, unsigned maxPhase,
                                  llvm::ArrayRef<unsigned> order);

/// Why swizzledSharedLayout (nvmmaSharedLayout) cannot lay out a buffer of
/// `shape` with these parameters (an order that is no permutation, a size
/// that is not a power of two, more than 2^30 elements in all, ...), or an
/// empty string when it can.
std::string checkSwizzledSharedLayout(llvm::ArrayRef<int64_t> shape,
                                      unsigned vec, unsigned perPhase,
                                      unsigned maxPhase,
                                      llvm::ArrayRef<unsigned> order);
std::string checkNvmmaSharedLayout(llvm::ArrayRef<int64_t> shape,
                                   unsigned swizzleBytes, bool transposed,
                                   unsigned elementBits);

/// The shared layout that wgmma's matrix descriptors address (PTX ISA,
/// "Shared Memory Matrix Layout"), for a 2-D buffer of `shape` (powers of
/// two) with elements of `elementBits` bits. The contiguous dimension (1,
/// or 0 when `transposed`) is cut into blocks of W = swizzleBytes bytes (16
/// for swizzleBytes = 0); block b stores its rows r (the other dimension)
/// one after another, W bytes each, and block b + 1 follows block b. Within
/// row r, 16-byte chunk j is stored at chunk
///
///     j ^ ((r / (128 / W)) % (W / 16))
///
/// which, for a buffer aligned to 8 W bytes, is the hardware's XOR of
/// address bits [4, 4 + log2(W / 16)) with bits [7, 7 + log2(W / 16)).
/// Fatal error on whatever checkNvmmaSharedLayout rejects (a contiguous
/// dimension that holds less than W bytes, among others).
/// A 3-D `shape` is a stack of shape[0] such buffers (the other two
/// dimensions, `transposed` about them), buffer i right after buffer i - 1.
LinearLayout nvmmaSharedLayout(llvm::ArrayRef<int64_t> shape,
                               unsigned swizzleBytes, bool transposed,
                               unsigned elementBits);

/// The layout taking every register, lane, warp and block of `distributed`
/// (out dims dim0..) to the offset at which `shared` (in dim "offset", the
/// same out dims) stores the element it holds: distributed composed with
/// the inverse of shared. `shared` must be invertible and cover every
/// element of `distributed`; otherwise a fatal error.
LinearLayout distributedToSharedOffsets(const LinearLayout &distributed,
                                        const LinearLayout &shared);

/// The largest power of two V (at most `maxElements`) such that registers
/// r..r+V-1 of `offsets` (a layout with the single output "offset", e.g. from
/// distributedToSharedOffsets) are stored at consecutive offsets for every
/// r that is a multiple of V, starting at a multiple of V: the vector width
/// of an access of those registers.
int32_t contiguousSharedRegisters(const LinearLayout &offsets,
                                  int32_t maxElements);

} // namespace terrazzo

#endif // TERRAZZO_DIALECTS_TILEGPU_LAYOUT_SHAREDLAYOUTS_H
