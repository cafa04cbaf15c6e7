// scf.for unrolling through MLIR's SCF utilities, behind a header of its
// own: theirs declares a function mlir::tile, which clashes with the tile
// dialect's namespace mlir::tile wherever both are included.
#ifndef TERRAZZO_PASSES_LOOPUNROLL_H
#define TERRAZZO_PASSES_LOOPUNROLL_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::terrazzo {

/// Unrolls `loop` by `factor` (MLIR's loopUnrollByFactor: a loop over whole
/// groups of `factor` iterations, then one over the rest); failure when it
/// cannot.
LogicalResult unrollByFactor(scf::ForOp loop, uint64_t factor);

} // namespace mlir::terrazzo

#endif
