// terrazzo-pipeline's register-prefetch form, for targets without
// asynchronous copies into shared memory (AMD's CDNA): the global loads of
// the next iteration go to registers before this iteration's dots, and
// into the other of two shared buffers after them (Passes.td).
#ifndef TERRAZZO_PASSES_PIPELINEREGISTERS_H
#define TERRAZZO_PASSES_PIPELINEREGISTERS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Support/LLVM.h"

namespace mlir::terrazzo {

/// Rewrites the loads of `loop` whose only use is a
/// `tilegpu.local_alloc` in a `#tilegpu.swizzled_shared` layout that only
/// `tilegpu.local_load`s of the loop read; fails, changing nothing, when
/// the loop has none.
LogicalResult prefetchThroughRegisters(scf::ForOp loop);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_PIPELINEREGISTERS_H
