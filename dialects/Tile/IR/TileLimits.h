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

} // namespace mlir::tile

#endif // TERRAZZO_DIALECTS_TILE_IR_TILELIMITS_H
