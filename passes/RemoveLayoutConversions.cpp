// terrazzo-remove-layout-conversions: see Passes.td.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOREMOVELAYOUTCONVERSIONS
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Ops that compute each element from the same element of their operands
/// (or from nothing), so they can run in any layout as well as another.
bool isElementwise(Operation *op) {
  if (!isPure(op) || op->getNumRegions() != 0 || op->getNumResults() != 1)
    return false;
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return !isa<arith::ConstantOp>(op);
  return isa<tile::AddPtrOp, tile::BitcastOp, tile::IntToPtrOp,
             tile::PtrToIntOp, tile::FpToFpOp>(op);
}

Value convertTo(PatternRewriter &rewriter, Location loc, Value value,
                Attribute layout) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getEncoding() == layout)
    return value;
  return tilegpu::ConvertLayoutOp::create(rewriter, loc,
                                          type.cloneWithEncoding(layout), value);
}

/// convert(f(x, y)) -> f(convert(x), convert(y)) for ops that are as cheap in
/// one layout as in another; the conversions move toward the values that
/// produce data (loads), where chains of them fold away.
struct RematerializeInTargetLayout
    : public OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Operation *producer = convert.getSrc().getDefiningOp();
    if (!producer)
      return failure();
    RankedTensorType target = convert.getType();
    Attribute layout = target.getEncoding();
    Location loc = producer->getLoc();

    if (auto splat = dyn_cast<tile::SplatOp>(producer)) {
      rewriter.replaceOpWithNewOp<tile::SplatOp>(convert, target, splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<tile::MakeRangeOp>(producer)) {
      rewriter.replaceOpWithNewOp<tile::MakeRangeOp>(
          convert, target, range.getStartAttr(), range.getEndAttr());
      return success();
    }
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(producer)) {
      Value src = convertTo(rewriter, loc, broadcast.getSrc(), layout);
      rewriter.replaceOpWithNewOp<tile::BroadcastOp>(convert, target, src);
      return success();
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(producer)) {
      auto parent = dyn_cast<tilegpu::DistributedLayoutAttr>(layout);
      if (!parent)
        return failure();
      Attribute slice = tilegpu::SliceLayoutAttr::get(
          getContext(), expand.getAxis(), parent);
      Value src = convertTo(rewriter, loc, expand.getSrc(), slice);
      rewriter.replaceOpWithNewOp<tile::ExpandDimsOp>(convert, target, src,
                                                      expand.getAxis());
      return success();
    }
    if (!isElementwise(producer))
      return failure();
    IRMapping mapping;
    for (Value operand : producer->getOperands())
      mapping.map(operand, convertTo(rewriter, loc, operand, layout));
    Operation *clone = rewriter.clone(*producer, mapping);
    clone->getResult(0).setType(target.clone(
        cast<RankedTensorType>(clone->getResult(0).getType()).getElementType()));
    rewriter.replaceOp(convert, clone->getResults());
    return success();
  }
};

struct RemoveLayoutConversionsPass
    : public mlir::terrazzo::impl::TerrazzoRemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<RematerializeInTargetLayout>(context);
    tilegpu::ConvertLayoutOp::getCanonicalizationPatterns(patterns, context);
    tile::SplatOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
