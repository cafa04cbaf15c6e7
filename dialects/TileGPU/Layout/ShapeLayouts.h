//===- ShapeLayouts.h - Layouts of reshaped tensors -------------*- C++ -*-===//
//
// The shape ops trans, reshape, join and split move no data when the result
// is laid out by the layout these functions infer from the source's: every
// thread keeps the elements it holds, only their coordinates are renamed
// (DESIGN.md §3). The functions take and return tensor layouts as built by
// NamedLayouts.h (in dims "register", "lane", "warp", "block"; out dims
// "dim0".."dim{rank-1}" whose sizes are the tensor shape). Which register of
// the source each register of the result is, is stated with each function;
// the lowering relies on it.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_DIALECTS_TILEGPU_LAYOUT_SHAPELAYOUTS_H
#define TERRAZZO_DIALECTS_TILEGPU_LAYOUT_SHAPELAYOUTS_H

#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace terrazzo {

/// The layout of trans(x, order), where result dimension i is dimension
/// order[i] of x: the same bases with their coordinates permuted. Registers
/// are unchanged (result register r is source register r). `order` must be
/// a permutation of the out dims (std::nullopt otherwise).
std::optional<LinearLayout> transposeLayout(const LinearLayout &layout,
                                            llvm::ArrayRef<int32_t> order);

/// The layout of reshape(x, shape), elements kept in row-major order: the
/// row-major index of every basis is split again over `shape`. Registers are
/// unchanged. std::nullopt when `shape` has another number of elements or a
/// size that is not a power of two (then the row-major reshape is no
/// relabelling of bits).
std::optional<LinearLayout> reshapeLayout(const LinearLayout &layout,
                                          llvm::ArrayRef<int64_t> shape);

/// The layout of join(a, b) when a and b both have `layout`: a new last
/// dimension of size 2 held in registers, as the new lowest register bit.
/// Result register 2 * r is register r of a, 2 * r + 1 register r of b.
LinearLayout joinLayout(const LinearLayout &layout);

/// Which register bit of `layout` selects the two halves of the last
/// dimension (of size 2), when a thread holds both halves of every element it
/// holds: that register basis is exactly (0, .., 0, 1) and no other basis of
/// any input dimension moves along the last dimension. std::nullopt when the
/// last dimension is not of size 2 or not held that way (a split then needs
/// its source converted first).
std::optional<int> splitRegisterBit(const LinearLayout &layout);

/// The layout of both results of split(x) when x has `layout` (which must
/// satisfy splitRegisterBit, and have rank 2 or more): the last dimension and
/// that register bit removed. Result register r of the first (second) half
/// is the source register whose bits are those of r with a 0 (1) inserted at
/// the split bit. std::nullopt when splitRegisterBit fails or the rank is 1.
std::optional<LinearLayout> splitLayout(const LinearLayout &layout);

/// Register `reg` of one half of a split, as a register of the source:
/// `reg`'s bits with `half` (0 or 1) inserted at bit `bit`.
int32_t splitSourceRegister(int32_t reg, int bit, int half);

} // namespace terrazzo

#endif // TERRAZZO_DIALECTS_TILEGPU_LAYOUT_SHAPELAYOUTS_H
