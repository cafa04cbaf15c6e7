// Helpers of terrazzo-pipeline: see PipelineSupport.h.
#include "passes/PipelineSupport.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::terrazzo;

bool mlir::terrazzo::isLoopInvariant(Value value, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(value.getParentRegion());
}

FailureOr<SmallVector<Operation *>>
mlir::terrazzo::cloneableSlice(ValueRange values, scf::ForOp loop) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (isLoopInvariant(v, loop) || v == loop.getInductionVar())
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() || def->getNumRegions() ||
        !isMemoryEffectFree(def))
      return failure();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

void mlir::terrazzo::cloneSliceFor(OpBuilder &b, ArrayRef<Operation *> slice,
                                   scf::ForOp loop, Value iv,
                                   IRMapping &mapping) {
  mapping.map(loop.getInductionVar(), iv);
  for (Operation *op : slice)
    b.clone(*op, mapping);
}

Operation *mlir::terrazzo::lastReadOfBuffer(Operation *read) {
  Operation *last = read;
  auto type = cast<RankedTensorType>(read->getResult(0).getType());
  if (isa<tilegpu::DotOperandLayoutAttr>(type.getEncoding()))
    return last;
  for (Operation *user : read->getUsers())
    if (isa<tile::DotOp>(user) && user->getBlock() == read->getBlock() &&
        last->isBeforeInBlock(user))
      last = user;
  return last;
}
