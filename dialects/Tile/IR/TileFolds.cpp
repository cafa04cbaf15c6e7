// Folders and canonicalizations of the tile ops: constant splats, chains of
// shape ops that collapse into one, and no-op conversions.
#include "dialects/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The scalar of a splat constant, if `attr` is one.
Attribute splatValue(Attribute attr) {
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(attr))
    return splat.getSplatValue<Attribute>();
  return {};
}

/// A constant splat of `scalar` with the type of `result`, for folding shape
/// ops of constants.
OpFoldResult splatOfType(Attribute scalar, Type result) {
  if (!scalar)
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(result), scalar);
}

/// Replaces `op` by a splat of the scalar behind `src` when `src` is a splat:
/// every shape op of a uniform block is the uniform block of the new shape.
LogicalResult replaceSplatSource(Operation *op, Value src,
                                 PatternRewriter &rewriter) {
  auto splat = src.getDefiningOp<SplatOp>();
  if (!splat)
    return failure();
  rewriter.replaceOpWithNewOp<SplatOp>(op, op->getResult(0).getType(),
                                       splat.getSrc());
  return success();
}

bool isZero(Attribute attr) {
  if (auto scalar = splatValue(attr))
    attr = scalar;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr))
    return integer.getValue().isZero();
  return false;
}

} // namespace

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute scalar = adaptor.getSrc();
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(scalar))
    return {};
  return splatOfType(scalar, getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatOfType(splatValue(adaptor.getSrc()), getType());
}

LogicalResult BroadcastOp::canonicalize(BroadcastOp op,
                                        PatternRewriter &rewriter) {
  if (succeeded(replaceSplatSource(op, op.getSrc(), rewriter)))
    return success();
  if (auto inner = op.getSrc().getDefiningOp<BroadcastOp>()) {
    rewriter.modifyOpInPlace(op, [&] { op.getSrcMutable().assign(inner.getSrc()); });
    return success();
  }
  return failure();
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return splatOfType(splatValue(adaptor.getSrc()), getType());
}

LogicalResult ExpandDimsOp::canonicalize(ExpandDimsOp op,
                                         PatternRewriter &rewriter) {
  if (succeeded(replaceSplatSource(op, op.getSrc(), rewriter)))
    return success();
  // Both keep row-major order, so expanding a reshape is one reshape. (Not
  // once tensors have layouts: the reshape's result layout follows its
  // source's.)
  auto reshape = op.getSrc().getDefiningOp<ReshapeOp>();
  if (reshape && !op.getType().getEncoding()) {
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), reshape.getSrc(),
                                           reshape.getAllowReorder());
    return success();
  }
  return failure();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return splatOfType(splatValue(adaptor.getSrc()), getType());
}

LogicalResult ReshapeOp::canonicalize(ReshapeOp op, PatternRewriter &rewriter) {
  if (succeeded(replaceSplatSource(op, op.getSrc(), rewriter)))
    return success();
  // Once tensors have layouts, the result's layout is inferred from the
  // source's: a new source would need another one.
  if (op.getType().getEncoding())
    return failure();
  Value src = op.getSrc();
  bool allowReorder = op.getAllowReorder();
  if (auto inner = src.getDefiningOp<ReshapeOp>()) {
    src = inner.getSrc();
    allowReorder = allowReorder || inner.getAllowReorder();
  } else if (auto expand = src.getDefiningOp<ExpandDimsOp>()) {
    src = expand.getSrc();
  } else {
    return failure();
  }
  rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), src, allowReorder);
  return success();
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = llvm::all_of(llvm::enumerate(order), [](auto pair) {
    return static_cast<int64_t>(pair.index()) == pair.value();
  });
  if (identity && getSrc().getType() == getType())
    return getSrc();
  // trans(trans(x, inner), outer) == trans(x, inner[outer[i]]). (Not once
  // tensors have layouts: the result's layout follows the source's.)
  auto inner = getSrc().getDefiningOp<TransOp>();
  if (inner && !getType().getEncoding()) {
    SmallVector<int32_t> composed;
    for (int32_t dim : order)
      composed.push_back(inner.getOrder()[dim]);
    getSrcMutable().assign(inner.getSrc());
    setOrder(composed);
    return getResult();
  }
  return splatOfType(splatValue(adaptor.getSrc()), getType());
}

LogicalResult TransOp::canonicalize(TransOp op, PatternRewriter &rewriter) {
  return replaceSplatSource(op, op.getSrc(), rewriter);
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (isZero(adaptor.getOffset()))
    return getPtr();
  return {};
}

OpFoldResult FpToFpOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // A constant (scalar or splat) that the result type holds exactly: the
  // same value under every rounding mode. Not NaN or infinity, which the
  // fp8 conversions turn into the canonical NaN and the largest finite
  // value (saturation) where APFloat would keep them; e.g. the `other` of
  // an fp8 load (0.0 as f32), which the pipeliner must see as zero.
  auto scalar = dyn_cast_or_null<FloatAttr>(adaptor.getSrc());
  if (!scalar)
    scalar = dyn_cast_or_null<FloatAttr>(splatValue(adaptor.getSrc()));
  if (!scalar)
    return {};
  APFloat value = scalar.getValue();
  if (!value.isFinite())
    return {};
  auto element = cast<FloatType>(getElementTypeOrSelf(getType()));
  bool losesInfo = false;
  if (value.convert(element.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven,
                    &losesInfo) != APFloat::opOK ||
      losesInfo)
    return {};
  Attribute result = FloatAttr::get(element, value);
  if (isa<ShapedType>(getType()))
    return splatOfType(result, getType());
  return result;
}

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<BitcastOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}
