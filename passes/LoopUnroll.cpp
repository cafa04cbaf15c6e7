// See LoopUnroll.h.
#include "passes/LoopUnroll.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

mlir::LogicalResult mlir::terrazzo::unrollByFactor(scf::ForOp loop,
                                             uint64_t factor) {
  return mlir::success(mlir::succeeded(mlir::loopUnrollByFactor(loop, factor)));
}
