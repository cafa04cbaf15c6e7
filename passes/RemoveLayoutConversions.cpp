// terrazzo-remove-layout-conversions: see Passes.td.
#include "passes/LayoutPropagation.h"
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
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

/// The dimension along which accesses in this layout are contiguous: the
/// one in which a thread's second register holds the element next to its
/// first, or else the one in which the second lane holds the element next
/// to the first lane's. Registers that repeat the pattern further away (a
/// thread's rows 16 apart) say nothing about contiguity.
std::optional<unsigned> fastestDimension(RankedTensorType type) {
  std::optional<::terrazzo::LinearLayout> layout =
      tilegpu::toLinearLayout(type.getShape(), type.getEncoding());
  if (!layout)
    return std::nullopt;
  for (StringRef name : {"register", "lane"}) {
    if (!layout->hasInDim(name) || layout->getInDimSizeLog2(name) == 0)
      continue;
    const auto &basis = layout->getBasis(name, 0);
    for (unsigned d = 0; d < basis.size(); ++d)
      if (basis[d] == 1)
        return d;
  }
  return std::nullopt;
}

/// How many consecutive elements along `dim` each thread holds in its
/// registers (1 when the layout cannot say).
int32_t contiguousPerThread(RankedTensorType type, unsigned dim) {
  std::optional<::terrazzo::LinearLayout> layout =
      tilegpu::toLinearLayout(type.getShape(), type.getEncoding());
  return layout ? layout->getContiguousRegisters(int(dim)) : 1;
}

/// log2 of how many threads hold each element of a tensor of `type`: the
/// lane and warp bits that do not change which elements a thread holds.
std::optional<int> duplicatedThreadBits(RankedTensorType type) {
  std::optional<::terrazzo::LinearLayout> layout =
      tilegpu::toLinearLayout(type.getShape(), type.getEncoding());
  if (!layout)
    return std::nullopt;
  int bits = 0;
  for (const auto &[dim, mask] : layout->getFreeVariableMasks())
    if (dim == "lane" || dim == "warp")
      bits += llvm::popcount(uint32_t(mask));
  return bits;
}

/// Whether `convert` only renames the attribute: both layouts are the same
/// linear layout (slices of two wgmma layouts that differ in the
/// instruction's N but not in the rows a thread holds, say), so its
/// lowering moves nothing.
bool isRelabelling(tilegpu::ConvertLayoutOp convert) {
  RankedTensorType from = convert.getSrc().getType();
  RankedTensorType to = convert.getType();
  auto src = tilegpu::toLinearLayout(from.getShape(), from.getEncoding());
  auto dst = tilegpu::toLinearLayout(to.getShape(), to.getEncoding());
  return src && dst && *src == *dst;
}

/// Whether `op`'s result has narrower elements than its first operand.
bool narrows(Operation *op) {
  auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return in && out &&
         tile::getElementBitWidth(out.getElementType()) <
             tile::getElementBitWidth(in.getElementType());
}

/// Whether `value` is a tensor-core accumulator, or a part of one that shape
/// ops took apart (an epilogue stored in sub-tiles: reshape, trans, split),
/// whose conversions nothing above folds away.
bool isAccumulatorOrPart(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return false;
  if (isa_and_nonnull<tilegpu::MatrixAccumulatorLayoutAttr>(type.getEncoding()))
    return true;
  Operation *def = value.getDefiningOp();
  return isa_and_nonnull<tile::ReshapeOp, tile::TransOp, tile::SplitOp>(def) &&
         isAccumulatorOrPart(def->getOperand(0));
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
      Value src = convertToLayout(rewriter, loc, broadcast.getSrc(), layout);
      rewriter.replaceOpWithNewOp<tile::BroadcastOp>(convert, target, src);
      return success();
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(producer)) {
      auto parent = dyn_cast<tilegpu::DistributedLayoutAttr>(layout);
      if (!parent)
        return failure();
      Attribute slice = tilegpu::SliceLayoutAttr::get(
          getContext(), expand.getAxis(), parent);
      Value src = convertToLayout(rewriter, loc, expand.getSrc(), slice);
      rewriter.replaceOpWithNewOp<tile::ExpandDimsOp>(convert, target, src,
                                                      expand.getAxis());
      return success();
    }
    // A load read only through this conversion is read in the target layout
    // instead: same addresses, another assignment of them to threads. It is
    // issued where the load was, never moved past a store.
    if (auto load = dyn_cast<tile::LoadOp>(producer)) {
      // Tensor-core operands are read from global memory in the load's
      // coalesced layout and reach their registers through shared memory:
      // each thread's operand fragments are 4-byte pieces scattered over
      // rows (A) or columns (B).
      if (isa<tilegpu::DotOperandLayoutAttr>(layout))
        return failure();
      // Only where the accesses stay contiguous along the same dimension:
      // a load re-issued across its rows (a transpose) would lose
      // coalescing, which costs more than the conversion.
      auto loaded = dyn_cast<RankedTensorType>(load.getType());
      std::optional<unsigned> from =
          loaded ? fastestDimension(loaded) : std::nullopt;
      if (!load->hasOneUse() || !from || from != fastestDimension(target))
        return failure();
      // Nor where each thread's accesses would shrink below a 32-bit word
      // (an fp8 operand read 16 bytes per thread would be read one byte at
      // a time): sub-word loads cost an instruction per element.
      int64_t bytes = std::max<int64_t>(
          1, tile::getElementBitWidth(loaded.getElementType()) / 8);
      int64_t before = contiguousPerThread(loaded, *from) * bytes;
      int64_t after = contiguousPerThread(target, *from) * bytes;
      if (after < before && after < 4)
        return failure();
      // Nor in a layout where more threads share each element (an FMA dot
      // operand's, where every lane of a row group holds the same row of A):
      // each copy would be another read of global memory, and converting
      // the addresses (kept per iteration when they are carried by a loop)
      // moves 8 bytes per element through shared memory, where converting
      // the loaded values moves at most as many.
      std::optional<int> sharedBefore = duplicatedThreadBits(loaded);
      std::optional<int> sharedAfter = duplicatedThreadBits(target);
      if (!sharedBefore || !sharedAfter || *sharedAfter > *sharedBefore)
        return failure();
      rewriter.setInsertionPoint(load);
      auto convertOperand = [&](Value value) -> Value {
        return value ? convertToLayout(rewriter, loc, value, layout) : Value();
      };
      auto reissued = tile::LoadOp::create(
          rewriter, loc, target, convertOperand(load.getPtr()),
          convertOperand(load.getMask()), convertOperand(load.getOther()),
          load.getCacheAttr(), load.getEvictAttr(), load.getIsVolatile());
      rewriter.replaceOp(convert, reissued.getResult());
      rewriter.eraseOp(load);
      return success();
    }
    if (!isLayoutAgnosticElementwise(producer))
      return failure();
    // A conversion that moves nothing costs less than computing the
    // producer a second time in the other layout.
    if (isRelabelling(convert))
      return failure();
    // A narrowing cast of a tensor-core accumulator (an epilogue's
    // truncation to float16) is converted after the cast: moving the
    // conversion above it would move twice the bytes through shared
    // memory, and nothing above a dot's result folds it away.
    if (producer->getNumOperands() == 1 && narrows(producer) &&
        isAccumulatorOrPart(producer->getOperand(0)))
      return failure();
    IRMapping mapping;
    for (Value operand : producer->getOperands())
      mapping.map(operand, convertToLayout(rewriter, loc, operand, layout));
    Operation *clone = rewriter.clone(*producer, mapping);
    clone->getResult(0).setType(target.clone(
        cast<RankedTensorType>(clone->getResult(0).getType()).getElementType()));
    rewriter.replaceOp(convert, clone->getResults());
    return success();
  }
};

/// f(convert(x)) -> convert(f(x)) for a narrowing cast f of a tensor-core
/// accumulator x or a part of one (the epilogue's truncation to float16,
/// maybe of sub-tiles): the conversion
/// then moves the narrow values (half the bytes through shared memory).
/// RematerializeInTargetLayout leaves such casts alone, so the two do not
/// undo each other.
struct NarrowBeforeConverting
    : public OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    if (!convert->hasOneUse() || !isAccumulatorOrPart(convert.getSrc()))
      return failure();
    Operation *narrowing = *convert->user_begin();
    if (narrowing->getNumOperands() != 1 || narrowing->getNumResults() != 1 ||
        !isLayoutAgnosticElementwise(narrowing) || !narrows(narrowing))
      return failure();
    rewriter.setInsertionPoint(narrowing);
    IRMapping mapping;
    mapping.map(convert.getResult(), convert.getSrc());
    Operation *clone = rewriter.clone(*narrowing, mapping);
    auto resultType =
        cast<RankedTensorType>(narrowing->getResult(0).getType());
    clone->getResult(0).setType(
        convert.getSrc().getType().clone(resultType.getElementType()));
    rewriter.replaceOpWithNewOp<tilegpu::ConvertLayoutOp>(
        narrowing, resultType, clone->getResult(0));
    rewriter.eraseOp(convert);
    return success();
  }
};

/// Regions a conversion has already been moved into, in this run of the
/// pass: moving a loop argument or an if result leaves a conversion back to
/// the old layout for the remaining users, which must not pull it back.
using MovedSet = llvm::DenseSet<std::pair<Operation *, unsigned>>;

/// Carries iter_arg `index` of `loop` in `newType`: its init is converted
/// before the loop and its yielded value at the end of the body; users of
/// the argument and of the result get the old layout back through
/// conversions, except `keep`, which takes the new value directly.
void carryInLayout(scf::ForOp loop, unsigned index, RankedTensorType newType,
                   Operation *keep, PatternRewriter &rewriter) {
  Attribute layout = newType.getEncoding();
  BlockArgument arg = loop.getRegionIterArg(index);
  OpResult result = loop->getResult(index);
  auto oldType = cast<RankedTensorType>(arg.getType());
  Location loc = loop.getLoc();

  rewriter.setInsertionPoint(loop);
  Value init =
      convertToLayout(rewriter, loc, loop.getInitArgs()[index], layout);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  rewriter.setInsertionPoint(yield);
  Value yielded = convertToLayout(rewriter, loc, yield.getOperand(index), layout);
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getInitArgsMutable()[index].set(init);
    arg.setType(newType);
    result.setType(newType);
  });
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(index, yielded); });

  rewriter.setInsertionPointToStart(loop.getBody());
  auto inside = tilegpu::ConvertLayoutOp::create(rewriter, loc, oldType, arg);
  rewriter.replaceUsesWithIf(arg, inside.getResult(), [&](OpOperand &use) {
    return use.getOwner() != inside && use.getOwner() != keep;
  });
  rewriter.setInsertionPointAfter(loop);
  auto outside = tilegpu::ConvertLayoutOp::create(rewriter, loc, oldType, result);
  rewriter.replaceUsesWithIf(result, outside.getResult(), [&](OpOperand &use) {
    return use.getOwner() != outside && use.getOwner() != keep;
  });
}

/// Whether some user of `value` converts it to a layout other than `type`'s:
/// then two users pull in different directions and nothing moves.
bool wantedElsewhere(Value value, RankedTensorType type) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    auto other = dyn_cast<tilegpu::ConvertLayoutOp>(user);
    return other && other.getType() != type;
  });
}

/// Whether the body of `loop` computes its value `index` in `type`'s layout
/// already: it yields a conversion from `type`, or converts the argument
/// to `type` wherever it uses it. Only then does carrying the value in
/// `type` save conversions inside the loop; otherwise a conversion after
/// the loop (once) is cheaper than one on every iteration.
bool bodyComputesIn(scf::ForOp loop, unsigned index, RankedTensorType type) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto yielded =
      yield.getOperand(index).getDefiningOp<tilegpu::ConvertLayoutOp>();
  if (yielded && yielded.getSrc().getType() == type)
    return true;
  BlockArgument arg = loop.getRegionIterArg(index);
  return !arg.use_empty() &&
         llvm::all_of(arg.getUsers(), [&](Operation *user) {
           auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(user);
           return convert && convert.getType() == type;
         });
}

/// convert(iter_arg) or convert(result) of an scf.for -> the loop carries
/// that value in the converted layout (see carryInLayout); the other
/// patterns then push the remaining conversions to where they fold. A
/// result's conversion moves only where the body computes in its layout
/// (bodyComputesIn): an accumulator the body keeps in its dot's layout
/// stays there and is converted once for the store.
struct CarryLoopValueInTargetLayout
    : public OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Value src = convert.getSrc();
    scf::ForOp loop;
    unsigned index = 0;
    if (auto arg = dyn_cast<BlockArgument>(src)) {
      loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() < loop.getNumInductionVars())
        return failure();
      index = arg.getArgNumber() - loop.getNumInductionVars();
    } else if (auto result = dyn_cast<OpResult>(src)) {
      loop = dyn_cast<scf::ForOp>(result.getOwner());
      if (!loop)
        return failure();
      index = result.getResultNumber();
    } else {
      return failure();
    }
    RankedTensorType newType = convert.getType();
    // Loop-carried pointers in an operand layout would drag the loads
    // into it (see the load case above).
    if (isa<tilegpu::DotOperandLayoutAttr>(newType.getEncoding()))
      return failure();
    // A conversion of the argument inside the body runs every iteration,
    // one of the result after the loop once: the body's wish wins over
    // the users after the loop (an accumulator stays in its dot's layout
    // and is converted once for the store).
    bool fromBody = isa<BlockArgument>(src);
    if (wantedElsewhere(loop.getRegionIterArg(index), newType) ||
        (!fromBody && (wantedElsewhere(loop->getResult(index), newType) ||
                       !bodyComputesIn(loop, index, newType))) ||
        !moved.insert({loop.getOperation(), index}).second)
      return failure();
    carryInLayout(loop, index, newType, convert, rewriter);
    rewriter.replaceOp(convert, src);
    return success();
  }

  mutable MovedSet moved;
};

/// convert(result of scf.if) -> both branches yield the converted value.
struct YieldIfResultInTargetLayout
    : public OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    auto result = dyn_cast<OpResult>(convert.getSrc());
    auto ifOp = result ? dyn_cast<scf::IfOp>(result.getOwner()) : scf::IfOp();
    if (!ifOp || ifOp.getElseRegion().empty())
      return failure();
    unsigned index = result.getResultNumber();
    RankedTensorType newType = convert.getType();
    if (wantedElsewhere(result, newType) ||
        !moved.insert({ifOp.getOperation(), index}).second)
      return failure();
    auto oldType = cast<RankedTensorType>(result.getType());
    Location loc = ifOp.getLoc();
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      auto yield = cast<scf::YieldOp>(region->front().getTerminator());
      rewriter.setInsertionPoint(yield);
      Value yielded = convertToLayout(rewriter, loc, yield.getOperand(index),
                                newType.getEncoding());
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(index, yielded); });
    }
    rewriter.modifyOpInPlace(ifOp, [&] { result.setType(newType); });
    rewriter.setInsertionPointAfter(ifOp);
    auto back = tilegpu::ConvertLayoutOp::create(rewriter, loc, oldType, result);
    rewriter.replaceUsesWithIf(result, back.getResult(), [&](OpOperand &use) {
      return use.getOwner() != back && use.getOwner() != convert;
    });
    rewriter.replaceOp(convert, result);
    return success();
  }

  mutable MovedSet moved;
};

/// Forward propagation, then the backward patterns, on `module`.
LogicalResult removeConversions(ModuleOp module, bool throughReshapes) {
  MLIRContext *context = module.getContext();
  propagateLayoutsFromAnchors(module, throughReshapes);
  RewritePatternSet patterns(context);
  patterns.add<RematerializeInTargetLayout, CarryLoopValueInTargetLayout,
               YieldIfResultInTargetLayout, NarrowBeforeConverting>(context);
  tilegpu::ConvertLayoutOp::getCanonicalizationPatterns(patterns, context);
  tile::SplatOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(module, std::move(patterns));
}

/// What the conversions left in `module` move between threads: each
/// element once when lanes exchange data, twice when it crosses warps
/// (through shared memory); nothing for a relabelling of registers.
int64_t movementCost(ModuleOp module) {
  int64_t cost = 0;
  module.walk([&](tilegpu::ConvertLayoutOp convert) {
    RankedTensorType from = convert.getSrc().getType();
    RankedTensorType to = convert.getType();
    auto src = tilegpu::toLinearLayout(from.getShape(), from.getEncoding());
    auto dst = tilegpu::toLinearLayout(to.getShape(), to.getEncoding());
    if (!src || !dst)
      return;
    auto sameBases = [&](StringRef name) {
      if (src->hasInDim(name) != dst->hasInDim(name))
        return false;
      if (!src->hasInDim(name))
        return true;
      if (src->getInDimSizeLog2(name) != dst->getInDimSizeLog2(name))
        return false;
      for (int i = 0, e = src->getInDimSizeLog2(name); i < e; ++i)
        if (src->getBasis(name, i) != dst->getBasis(name, i))
          return false;
      return true;
    };
    if (!sameBases("warp") || !sameBases("block"))
      cost += 2 * to.getNumElements();
    else if (!sameBases("lane"))
      cost += to.getNumElements();
  });
  return cost;
}

struct RemoveLayoutConversionsPass
    : public mlir::terrazzo::impl::TerrazzoRemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyTensorsHaveLayouts(module, getArgument())))
      return signalPassFailure();
    // Through reshapes or not: whichever leaves less data to move (an
    // interleave, join then reshape, gains; a strided tile flattened for
    // a contiguous store loses to issuing its load in the store's layout).
    bool throughReshapes = false;
    if (module.walk([](tile::ReshapeOp) { return WalkResult::interrupt(); })
            .wasInterrupted()) {
      OwningOpRef<ModuleOp> with = module.clone();
      OwningOpRef<ModuleOp> without = module.clone();
      if (succeeded(removeConversions(*with, true)) &&
          succeeded(removeConversions(*without, false)))
        throughReshapes = movementCost(*with) < movementCost(*without);
    }
    if (failed(removeConversions(module, throughReshapes)))
      signalPassFailure();
  }
};

} // namespace
