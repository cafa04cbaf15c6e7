//===- NamedLayouts.h - Named layouts as linear layouts ---------*- C++ -*-===//
//
// The layouts the compiler talks about by name (blocked, slice, ...) are only
// constructors of linear layouts. Distributed layouts built here have the input
// dimensions "register", "lane", "warp", "block" (in that order; "block" has
// size 1 for now) and the output dimensions "dim0" .. "dim{rank-1}" (in that
// order), whose sizes are the tensor shape.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_DIALECTS_TILEGPU_LAYOUT_NAMEDLAYOUTS_H
#define TERRAZZO_DIALECTS_TILEGPU_LAYOUT_NAMEDLAYOUTS_H

#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace terrazzo {

/// "dim0", "dim1", ...: the name of output dimension `dim` of a tensor layout.
std::string tensorDimName(unsigned dim);

/// The blocked layout of a tensor of the given shape (all sizes powers of two).
///
/// Along each dimension d one thread holds sizePerThread[d] consecutive
/// elements; threadsPerWarp[d] lanes then tile d, then warpsPerCTA[d] warps.
/// Within each of register, lane and warp the dimensions are enumerated in
/// `order` (fastest first). The CTA tile along d is therefore
/// sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d] elements. When
/// shape[d] is larger, the tile repeats along d and the repetitions are extra
/// register bases appended after the per-thread ones (again in `order`). When
/// shape[d] is smaller, the coordinates wrap around: lane and warp bases that
/// would go beyond shape[d] map to 0 along d (those threads hold copies), and
/// register bases that would go beyond it are dropped.
///
/// All arguments must have the tensor's rank, and `order` must be a
/// permutation of 0..rank-1; anything checkBlockedLayout rejects is a fatal
/// error.
LinearLayout blockedLayout(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<unsigned> sizePerThread,
                           llvm::ArrayRef<unsigned> threadsPerWarp,
                           llvm::ArrayRef<unsigned> warpsPerCTA,
                           llvm::ArrayRef<unsigned> order);

/// Why blockedLayout cannot lay out a tensor of `shape` with these
/// parameters (a rank that differs, an entry that is not a power of two in
/// [1, 2^30], an order that is no permutation, more elements per thread,
/// lane or warp bits than a linear layout holds), or an empty string when
/// it can. Verifiers call it so that no fatal error is left to user input.
std::string checkBlockedLayout(llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<unsigned> sizePerThread,
                               llvm::ArrayRef<unsigned> threadsPerWarp,
                               llvm::ArrayRef<unsigned> warpsPerCTA,
                               llvm::ArrayRef<unsigned> order);

/// Why a tensor `shape` is none that a distributed layout can describe: a
/// rank of 0, or an entry that is not a power of two in [1, 2^30]; empty
/// when it is one.
std::string checkTensorShape(llvm::ArrayRef<int64_t> shape);

/// Why fitLayoutToShape cannot fit a tile whose out dims span 2^tileBits[d]
/// elements, with `registerBits` register, `laneBits` lane and `warpBits`
/// warp bits, to `shape` (which checkTensorShape accepts; repeats would
/// need more register bits, or more bits in total, than a linear layout
/// holds); empty when it can.
std::string checkFitToShape(llvm::ArrayRef<int> tileBits, int registerBits,
                            int laneBits, int warpBits,
                            llvm::ArrayRef<int64_t> shape);

/// Fits a CTA tile layout (out dims dim0..dim{rank-1}) to a tensor shape:
/// along each dimension whose size in the tile is smaller than the shape, the
/// tile is repeated through extra "register" bases appended in `repeatOrder`
/// (fastest first); along each dimension where the tile is larger than the
/// shape, coordinates wrap modulo the shape, and "register" bases that become
/// zero are dropped (other inputs keep their now-zero bases: broadcast).
LinearLayout fitLayoutToShape(const LinearLayout &tile,
                              llvm::ArrayRef<int64_t> shape,
                              llvm::ArrayRef<unsigned> repeatOrder);

/// The slice of `parent` along dimension `dim` (the layout of the result of
/// reducing `dim` away): output dimension `dim` is removed and the later ones
/// are renamed down so that they stay dim0..dim{rank-2}. "register" bases that
/// are zero afterwards are removed (a thread holds each element once); "lane",
/// "warp" and "block" bases that become zero are kept (those threads hold
/// copies).
LinearLayout sliceLayout(const LinearLayout &parent, unsigned dim);

/// The row-major layout of `shape`: a single input dimension `inDim` of size
/// prod(shape) whose index maps onto dim0..dim{n-1} with the LAST dimension
/// fastest (index = ((c0 * s1) + c1) * s2 + c2 ...). Useful to flatten or
/// unflatten a tensor.
LinearLayout identityStandard(llvm::ArrayRef<int64_t> shape, std::string inDim);

} // namespace terrazzo

#endif // TERRAZZO_DIALECTS_TILEGPU_LAYOUT_NAMEDLAYOUTS_H
