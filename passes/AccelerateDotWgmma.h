//===- AccelerateDotWgmma.h - tile.dot on Hopper's wgmma ---------*- C++ -*-===//
//
// The sm_90a part of terrazzo-accelerate-dot (see Passes.td): a dot whose
// types and shape wgmma computes reads its operands from shared memory in
// #tilegpu.nvmma_shared layouts and accumulates in #tilegpu.nvidia_mma
// version 3.
//
//===----------------------------------------------------------------------===//

#ifndef TERRAZZO_PASSES_ACCELERATEDOTWGMMA_H
#define TERRAZZO_PASSES_ACCELERATEDOTWGMMA_H

#include "dialects/Tile/IR/Tile.h"

namespace mlir::terrazzo {

/// Replaces `dot` by a tilegpu.warp_group_dot when the target (compute
/// capability times ten; wgmma is sm_90a only), the number of warps (a
/// multiple of 4), the types and the shape (M a multiple of 64 per warp
/// group) allow; returns whether it did. `dot` is erased when it did.
bool accelerateDotWithWgmma(tile::DotOp dot, unsigned capability,
                            unsigned numWarps);

/// Whether accelerateDotWithWgmma would replace `dot` were its input
/// precision `precision` (for passes that change a dot's precision only
/// where the tensor cores then take it).
bool canAccelerateDotWithWgmma(tile::DotOp dot, tile::InputPrecision precision,
                               unsigned capability, unsigned numWarps);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_ACCELERATEDOTWGMMA_H
