// terrazzo-combine: see Passes.td for what it fuses and why.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOCOMBINE
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

bool isZeroConstant(Value value) {
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

/// dot(a, b, 0) + c -> dot(a, b, c), for arith.addf and arith.addi.
template <typename AddOp>
struct FuseAddIntoDot : public OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    for (auto [dotOperand, other] :
         {std::pair{add.getLhs(), add.getRhs()},
          std::pair{add.getRhs(), add.getLhs()}}) {
      auto dot = dotOperand.template getDefiningOp<tile::DotOp>();
      if (!dot || !dot->hasOneUse() || !isZeroConstant(dot.getC()) ||
          other.getType() != dot.getType())
        continue;
      rewriter.replaceOpWithNewOp<tile::DotOp>(
          add, dot.getType(), dot.getA(), dot.getB(), other,
          dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};

/// addptr(addptr(p, x), y) -> addptr(p, x + y).
struct MergeAddPtrs : public OpRewritePattern<tile::AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tile::AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<tile::AddPtrOp>();
    if (!inner || inner.getOffset().getType() != op.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(), inner.getOffset(),
                                      op.getOffset());
    rewriter.replaceOpWithNewOp<tile::AddPtrOp>(op, op.getType(),
                                                inner.getPtr(), sum);
    return success();
  }
};

/// Whether an op strictly between `from` and `to`, which are in one block,
/// may write memory.
bool mayWriteBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op != to; op = op->getNextNode()) {
    auto effects = getEffectsRecursively(op);
    if (!effects || llvm::any_of(*effects, [](const auto &effect) {
          return isa<MemoryEffects::Write>(effect.getEffect());
        }))
      return true;
  }
  return false;
}

/// select(m, load(p, m), o) -> load(p, m, o). The new load is created at the
/// select, so nothing that may write memory can lie between the two.
struct FoldSelectIntoLoad : public OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto load = select.getTrueValue().getDefiningOp<tile::LoadOp>();
    if (!load || !load->hasOneUse() || load.getOther() ||
        load.getMask() != select.getCondition() ||
        load->getBlock() != select->getBlock() || mayWriteBetween(load, select))
      return failure();
    rewriter.replaceOpWithNewOp<tile::LoadOp>(
        select, load.getType(), load.getPtr(), load.getMask(),
        select.getFalseValue(), load.getCacheAttr(), load.getEvictAttr(),
        load.getIsVolatile());
    rewriter.eraseOp(load);
    return success();
  }
};

struct CombinePass
    : public mlir::terrazzo::impl::TerrazzoCombineBase<CombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseAddIntoDot<arith::AddFOp>, FuseAddIntoDot<arith::AddIOp>,
                 MergeAddPtrs, FoldSelectIntoLoad>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
