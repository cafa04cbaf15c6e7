// trans, reshape, join and split: with the result layouts inferred from the
// source's (dialects/TileGPU/Layout/ShapeLayouts.h, assigned by
// terrazzo-convert-tile-to-tilegpu) each is a relabelling of a thread's
// registers, and no data moves. A result in any other layout is an error:
// the op would need a layout conversion, which must be explicit in the IR.
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/Layout/ShapeLayouts.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The inferred result layout of a shape op from its source's layout.
using InferFn =
    llvm::function_ref<std::optional<LinearLayout>(const LinearLayout &)>;

/// The layouts of `op`'s source and result when the result's is exactly the
/// one `infer` gives; otherwise, with `report`, an error on `op` (which says
/// why, `whyNoLayout` when `infer` fails), and failure.
FailureOr<std::pair<LinearLayout, LinearLayout>>
checkLayouts(Operation *op, RankedTensorType srcType,
             RankedTensorType resultType, InferFn infer,
             StringRef whyNoLayout, bool report) {
  std::optional<LinearLayout> src = getLinearLayout(srcType);
  std::optional<LinearLayout> result = getLinearLayout(resultType);
  if (!src || !result) {
    if (report)
      op->emitOpError("needs distributed layouts on its source and result; "
                      "run terrazzo-convert-tile-to-tilegpu first");
    return failure();
  }
  std::optional<LinearLayout> inferred = infer(*src);
  if (!inferred) {
    if (report)
      op->emitOpError("cannot be lowered as a relabelling of the registers "
                      "of its source ")
          << srcType << ": " << whyNoLayout;
    return failure();
  }
  if (*inferred != *result) {
    if (report)
      op->emitOpError("result layout in ")
          << resultType
          << " is not the layout inferred from the source's in " << srcType
          << " (the op would move data between threads); give the result "
             "the inferred layout and convert it afterwards";
    return failure();
  }
  return std::make_pair(std::move(*src), std::move(*result));
}

FailureOr<std::pair<LinearLayout, LinearLayout>> checkOp(Operation *op,
                                                         bool report) {
  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    ArrayRef<int32_t> order = trans.getOrder();
    return checkLayouts(
        op, trans.getSrc().getType(), trans.getType(),
        [&](const LinearLayout &src) {
          return ::terrazzo::transposeLayout(src, order);
        },
        "the order is not a permutation", report);
  }
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    ArrayRef<int64_t> shape = reshape.getType().getShape();
    return checkLayouts(
        op, reshape.getSrc().getType(), reshape.getType(),
        [&](const LinearLayout &src) {
          return ::terrazzo::reshapeLayout(src, shape);
        },
        "a size is not a power of two", report);
  }
  if (auto join = dyn_cast<tile::JoinOp>(op))
    return checkLayouts(
        op, join.getLhs().getType(), join.getType(),
        [](const LinearLayout &src) {
          return std::optional<LinearLayout>(::terrazzo::joinLayout(src));
        },
        "", report);
  if (auto split = dyn_cast<tile::SplitOp>(op))
    return checkLayouts(
        op, split.getSrc().getType(),
        cast<RankedTensorType>(split.getOutLHS().getType()),
        [](const LinearLayout &src) { return ::terrazzo::splitLayout(src); },
        "its layout does not hold both halves of the last dimension in the "
        "registers of one thread; convert the source first",
        report);
  return failure();
}

struct TransOpConversion : public ConvertOpToLLVMPattern<tile::TransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOp(op, /*report=*/false)))
      return rewriter.notifyMatchFailure(op, "result layout is not inferred");
    // Same registers, renamed coordinates: the values are unchanged.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct ReshapeOpConversion : public ConvertOpToLLVMPattern<tile::ReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOp(op, /*report=*/false)))
      return rewriter.notifyMatchFailure(op, "result layout is not inferred");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct JoinOpConversion : public ConvertOpToLLVMPattern<tile::JoinOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkOp(op, /*report=*/false)))
      return rewriter.notifyMatchFailure(op, "result layout is not inferred");
    Location loc = op.getLoc();
    SmallVector<Value> lhs = unpackStruct(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpackStruct(rewriter, loc, adaptor.getRhs());
    // The new dimension is the lowest register bit.
    SmallVector<Value> results;
    for (auto [a, b] : llvm::zip_equal(lhs, rhs)) {
      results.push_back(a);
      results.push_back(b);
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), results));
    return success();
  }
};

struct SplitOpConversion : public ConvertOpToLLVMPattern<tile::SplitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getOutLHS().getType());
    auto layouts = checkOp(op, /*report=*/false);
    if (failed(layouts))
      return rewriter.notifyMatchFailure(op, "result layout is not inferred");
    int bit = *::terrazzo::splitRegisterBit(layouts->first);
    Location loc = op.getLoc();
    SmallVector<Value> src = unpackStruct(rewriter, loc, adaptor.getSrc());
    Type structType = getTypeConverter()->convertType(resultType);
    SmallVector<Value> halves;
    for (int half = 0; half < 2; ++half) {
      SmallVector<Value> values;
      for (int32_t reg = 0, e = layouts->second.getInDimSize(kRegister);
           reg < e; ++reg)
        values.push_back(src[::terrazzo::splitSourceRegister(reg, bit, half)]);
      halves.push_back(packStruct(rewriter, loc, structType, values));
    }
    rewriter.replaceOp(op, halves);
    return success();
  }
};

} // namespace

LogicalResult mlir::terrazzo::checkShapeTransformLowering(Operation *op) {
  if (!isa<tile::TransOp, tile::ReshapeOp, tile::JoinOp, tile::SplitOp>(op))
    return success();
  return failure(failed(checkOp(op, /*report=*/true)));
}

void mlir::terrazzo::populateShapeTransformOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TransOpConversion, ReshapeOpConversion, JoinOpConversion,
               SplitOpConversion>(converter);
}
