// terrazzo-continuous-turns: one first pass and one last wait for all of a
// function's warp-group turns (backends/Passes.td).
#include "backends/Passes.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOCONTINUOUSTURNS
#include "backends/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The op of the function's body, or of a warp_specialize's consumers, that
/// holds `op` (or `op` itself).
Operation *topAncestor(Operation *op) {
  while (Operation *parent = op->getParentOp()) {
    if (isa<func::FuncOp, tilegpu::WarpSpecializeOp>(parent))
      return op;
    op = parent;
  }
  return op;
}

void makeContinuous(func::FuncOp func) {
  SmallVector<tilegpu::WarpGroupTurnPassOp> starts;
  SmallVector<tilegpu::WarpGroupTurnWaitOp> ends;
  if (!tilegpu::collectTurnEnds(func, starts, ends) ||
      !tilegpu::turnEndsNeedProgramBarriers(starts, ends) || starts.empty() ||
      ends.empty())
    return;
  Operation *first = topAncestor(starts.front());
  Operation *last = topAncestor(ends.back());
  Block *block = first->getBlock();
  auto inBlock = [&](Operation *op) {
    return topAncestor(op)->getBlock() == block;
  };
  if (last->getBlock() != block || last->isBeforeInBlock(first) ||
      !llvm::all_of(starts, inBlock) || !llvm::all_of(ends, inBlock))
    return;
  OpBuilder b(first);
  tilegpu::WarpGroupTurnPassOp::create(b, starts.front().getLoc(), ValueRange(),
                                       starts.front().getOnlyAttr());
  b.setInsertionPointAfter(last);
  tilegpu::WarpGroupTurnWaitOp::create(b, ends.back().getLoc(), ValueRange(),
                                       ends.back().getOnlyAttr());
  for (tilegpu::WarpGroupTurnPassOp start : starts)
    start.erase();
  for (tilegpu::WarpGroupTurnWaitOp end : ends)
    end.erase();
}

struct TerrazzoContinuousTurns
    : public mlir::terrazzo::impl::TerrazzoContinuousTurnsBase<
          TerrazzoContinuousTurns> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      if (!func.isExternal())
        makeContinuous(func);
    });
  }
};

} // namespace
