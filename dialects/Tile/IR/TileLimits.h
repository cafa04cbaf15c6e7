// The limits of tile IR that more than the dialect enforces.
#ifndef TERRAZZO_DIALECTS_TILE_IR_TILELIMITS_H
#define TERRAZZO_DIALECTS_TILE_IR_TILELIMITS_H

#include <cstdint>

namespace mlir::tile {

/// Largest number of elements in one block, as in Triton (and the
/// frontend's MAX_BLOCK_NUMEL): make_range checks it, and the conversion to
/// tilegpu checks every tensor against it (a larger one would lower to
/// millions of operations per thread).
constexpr int64_t kMaxBlockElements = int64_t(1) << 20;

/// Largest number of a tensor's elements one thread holds (the block over
/// the program's threads): 2^20 elements over 64 threads. Beyond it the
/// code generator's memory grows past what a compile should take (a
/// loop-carried 2^20-element tensor over one warp, 32768 elements per
/// thread, took more than 6 GiB in LLVM), and no register file holds a
/// hundredth of it.
constexpr int64_t kMaxElementsPerThread = int64_t(1) << 14;

} // namespace mlir::tile

#endif // TERRAZZO_DIALECTS_TILE_IR_TILELIMITS_H
