#include "passes/ShapeOpLayouts.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/ShapeLayoutInference.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Gives `op`'s tensor results the layout `layout`; their users get them
/// back in the layouts they had, through conversions after `op`.
void setResultLayouts(Operation *op, Attribute layout) {
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    RankedTensorType type = tensorType(result);
    if (type.getEncoding() == layout)
      continue;
    result.setType(type.cloneWithEncoding(layout));
    auto back =
        tilegpu::ConvertLayoutOp::create(builder, op->getLoc(), type, result);
    result.replaceAllUsesExcept(back, back);
  }
}

LogicalResult noLayout(Operation *op) {
  return op->emitOpError("no layout of the result makes this op a "
                         "relabelling of the layout of its source ")
         << op->getOperand(0).getType();
}

} // namespace

LogicalResult mlir::terrazzo::checkShapeOpsHaveLayouts(ModuleOp module) {
  WalkResult result = module.walk([&](tile::SplitOp split) {
    if (split.getSrc().getType().getRank() > 1)
      return WalkResult::advance();
    split.emitOpError("of a 1-D block gives 0-D blocks, which have no layout "
                      "on the GPU; split a 1 x 2 block instead");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::terrazzo::assignShapeOpLayouts(Operation *op) {
  Attribute layout;
  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    layout = tilegpu::inferTransLayout(tensorType(trans.getSrc()),
                                       trans.getOrder(),
                                       trans.getType().getEncoding());
  } else if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    layout = tilegpu::inferReshapeLayout(tensorType(reshape.getSrc()),
                                         reshape.getType().getShape(),
                                         reshape.getType().getEncoding());
  } else if (auto join = dyn_cast<tile::JoinOp>(op)) {
    layout = tilegpu::inferJoinLayout(tensorType(join.getLhs()),
                                      join.getType().getEncoding());
  } else if (auto split = dyn_cast<tile::SplitOp>(op)) {
    RankedTensorType resultType = tensorType(split.getOutLHS());
    layout = tilegpu::inferSplitLayout(tensorType(split.getSrc()),
                                       resultType.getEncoding());
    if (!layout) {
      // Put both halves of every element in one thread: in the layout whose
      // split is the results' current layout.
      RankedTensorType srcType = tensorType(split.getSrc());
      Attribute joined =
          tilegpu::inferJoinLayout(resultType, srcType.getEncoding());
      if (!joined)
        return noLayout(op);
      OpBuilder builder(op);
      Value converted = tilegpu::ConvertLayoutOp::create(
          builder, op->getLoc(), srcType.cloneWithEncoding(joined),
          split.getSrc());
      split.getSrcMutable().assign(converted);
      layout = tilegpu::inferSplitLayout(tensorType(converted),
                                         resultType.getEncoding());
    }
  } else {
    return success();
  }
  if (!layout)
    return noLayout(op);
  setResultLayouts(op, layout);
  return success();
}
