// arith and math ops on tensors: the same op once per element a thread
// holds, or once per run of registers AxisInfo proves equal. The scalar ops
// this creates are lowered by the upstream arith/math patterns in the same
// conversion.
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// For each register of `type`'s layout, the first register that holds the
/// same value in every thread by `info`'s constancy (itself if none).
/// Constancy c along a dimension means equal values within aligned blocks of
/// c; with c a power of two, an element's block is its coordinate shifted
/// right by log2(c), and since a thread's coordinates are its registers'
/// XORed with what its lane and warp add, two registers whose shifted
/// coordinates agree share a block in every thread.
SmallVector<unsigned> equalRegisters(RankedTensorType type,
                                     const AxisInfo *info, size_t count) {
  SmallVector<unsigned> first(count);
  for (size_t i = 0; i < count; ++i)
    first[i] = i;
  std::optional<LinearLayout> layout = getLinearLayout(type);
  if (!info || !layout || info->getRank() != type.getRank())
    return first;
  SmallVector<unsigned> shifts;
  bool any = false;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    int64_t constancy = info->getConstancy(d);
    bool usable = constancy > 1 && llvm::isPowerOf2_64(constancy);
    shifts.push_back(usable ? llvm::Log2_64(constancy) : 0);
    any |= usable;
  }
  if (!any)
    return first;
  std::map<std::vector<int32_t>, unsigned> seen;
  for (size_t i = 0; i < count; ++i) {
    Coordinates block = registerCoordinates(*layout, i);
    for (unsigned d = 0; d < block.size(); ++d)
      block[d] >>= shifts[d];
    first[i] = seen.try_emplace(block, i).first->second;
  }
  return first;
}

struct ElementwiseOpConversion : public ConversionPattern {
  // Above the upstream arith/math patterns, which would apply themselves to
  // the struct of a tensor as if it were one scalar.
  ElementwiseOpConversion(TileGPUTypeConverter &converter, MLIRContext *context,
                          const ModuleAxisInfoAnalysis &axisInfo)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context),
        axisInfo(axisInfo) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumRegions() != 0 ||
        op->getNumResults() != 1)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    Type structType = getTypeConverter()->convertType(resultType);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result has no layout");

    Location loc = op->getLoc();
    // Tensor operands arrive as structs; a scalar operand (the condition of
    // a select on tensors) applies to every element.
    SmallVector<SmallVector<Value>> elements;
    for (Value operand : operands)
      elements.push_back(isa<LLVM::LLVMStructType>(operand.getType())
                             ? unpackStruct(rewriter, loc, operand)
                             : SmallVector<Value>{operand});
    auto fields = cast<LLVM::LLVMStructType>(structType).getBody();
    size_t count = fields.size();
    // The element type as LLVM sees it (pointers become !llvm.ptr), so the
    // scalar op's result can go straight into the struct.
    Type elementType = fields.front();
    // Registers equal to an earlier one reuse its value: a mask compared
    // against a bound that is a multiple of 16, say, is computed once per
    // 16 rows (fewer compares and selects before each cp.async).
    SmallVector<unsigned> first = equalRegisters(
        resultType, axisInfo.getAxisInfo(op->getResult(0)), count);
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
      if (first[i] != i) {
        results.push_back(results[first[i]]);
        continue;
      }
      OperationState state(loc, op->getName());
      for (auto &operandElements : elements)
        state.addOperands(operandElements.size() == 1 ? operandElements[0]
                                                      : operandElements[i]);
      state.addTypes(elementType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, results));
    return success();
  }

private:
  const ModuleAxisInfoAnalysis &axisInfo;
};

/// A constant tensor is the same constant in every element a thread holds;
/// only splats exist in practice (frontends splat scalars).
struct ConstantOpConversion : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat) // Rejected with a diagnostic before the conversion.
      return rewriter.notifyMatchFailure(op, "non-uniform tensor constant");
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result has no layout");
    Location loc = op.getLoc();
    Value scalar = LLVM::ConstantOp::create(
        rewriter, loc, type.getElementType(),
        cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    size_t count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType,
                                      SmallVector<Value>(count, scalar)));
    return success();
  }
};

/// A conversion with fp8 on either side, each value (a byte for fp8) through
/// the vendor's `convert`.
struct FP8ConversionOpConversion : public ConversionPattern {
  FP8ConversionOpConversion(TileGPUTypeConverter &converter,
                            MLIRContext *context, StringRef opName,
                            FP8Converter convert)
      : ConversionPattern(converter, opName, /*benefit=*/3, context),
        convert(std::move(convert)) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto types = getFP8Conversion(op);
    if (!types)
      return failure();
    auto [from, to] = *types;
    Type resultType =
        getTypeConverter()->convertType(op->getResult(0).getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Location loc = op->getLoc();
    Value source = operands[0];
    bool isStruct = isa<LLVM::LLVMStructType>(source.getType());
    SmallVector<Value> values = isStruct ? unpackStruct(rewriter, loc, source)
                                         : SmallVector<Value>{source};
    SmallVector<Value> results = convert(rewriter, loc, from, to, values);
    if (results.size() != values.size())
      return rewriter.notifyMatchFailure(op, "no lowering of this conversion");
    rewriter.replaceOp(op, isStruct
                               ? packStruct(rewriter, loc, resultType, results)
                               : results.front());
    return success();
  }

private:
  FP8Converter convert;
};

/// An fp8 constant (a scalar, or a tensor splat) is its byte: the type
/// converter maps the fp8 types (OCP's and the FNUZ ones) to i8, since LLVM
/// has no fp8 float types. Whether the target converts fp8 values is the
/// vendor's check; a constant needs no instruction.
struct FP8ConstantOpConversion
    : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!element || element.getWidth() != 8)
      return failure();
    APFloat value(0.0);
    if (auto splat = dyn_cast<SplatElementsAttr>(op.getValue()))
      value = splat.getSplatValue<APFloat>();
    else if (auto scalar = dyn_cast<FloatAttr>(op.getValue()))
      value = scalar.getValue();
    else
      return rewriter.notifyMatchFailure(op, "non-uniform fp8 tensor constant");
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type();
    Value byte = LLVM::ConstantOp::create(
        rewriter, loc, i8, rewriter.getIntegerAttr(i8, value.bitcastToAPInt()));
    if (auto structType = dyn_cast<LLVM::LLVMStructType>(resultType)) {
      size_t count = structType.getBody().size();
      rewriter.replaceOp(op, packStruct(rewriter, loc, structType,
                                        SmallVector<Value>(count, byte)));
      return success();
    }
    rewriter.replaceOp(op, byte);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateElementwiseOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfoAnalysis &axisInfo) {
  patterns.add<ElementwiseOpConversion>(converter, patterns.getContext(),
                                        axisInfo);
  // Above the upstream arith constant lowering, which knows no layouts.
  patterns.add<ConstantOpConversion>(converter, /*benefit=*/2);
  patterns.add<FP8ConstantOpConversion>(converter, /*benefit=*/3);
}

std::optional<std::pair<FloatType, FloatType>>
mlir::terrazzo::getFP8Conversion(Operation *op) {
  if (!isa<tile::FpToFpOp, arith::ExtFOp, arith::TruncFOp>(op))
    return std::nullopt;
  auto from = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(0)));
  auto to = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!from || !to || (from.getWidth() != 8 && to.getWidth() != 8))
    return std::nullopt;
  return std::make_pair(from, to);
}

LogicalResult mlir::terrazzo::checkFP8Rounding(Operation *op) {
  auto types = getFP8Conversion(op);
  if (!types || types->second.getWidth() != 8)
    return success();
  auto [from, to] = *types;
  if (from.isF64())
    return op->emitOpError("converts f64 to ")
           << to << ", which has no single-rounding instruction; convert to "
           << "f32 first";
  bool roundsToNearestEven = true;
  if (auto fpToFp = dyn_cast<tile::FpToFpOp>(op))
    roundsToNearestEven = fpToFp.getRounding() != tile::RoundingMode::RTZ;
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    roundsToNearestEven =
        !trunc.getRoundingmode() ||
        *trunc.getRoundingmode() == arith::RoundingMode::to_nearest_even;
  if (!roundsToNearestEven)
    return op->emitOpError("converts ")
           << from << " to " << to
           << " with a rounding mode other than to-nearest-even, which the "
              "fp8 conversions do not have";
  return success();
}

void mlir::terrazzo::populateFP8ConversionOpPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const FP8Converter &convert) {
  // Above the elementwise pattern (2) and tile.fp_to_fp's own (1).
  for (StringRef name : {tile::FpToFpOp::getOperationName(),
                         arith::ExtFOp::getOperationName(),
                         arith::TruncFOp::getOperationName()})
    patterns.add<FP8ConversionOpConversion>(converter, patterns.getContext(),
                                            name, convert);
}
