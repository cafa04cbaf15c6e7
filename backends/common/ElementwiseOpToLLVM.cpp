// arith and math ops on tensors: the same op once per element a thread
// holds. The scalar ops this creates are lowered by the upstream arith/math
// patterns in the same conversion.
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct ElementwiseOpConversion : public ConversionPattern {
  // Above the upstream arith/math patterns, which would apply themselves to
  // the struct of a tensor as if it were one scalar.
  ElementwiseOpConversion(TileGPUTypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context) {}

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
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
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

} // namespace

void mlir::terrazzo::populateElementwiseOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ElementwiseOpConversion>(converter, patterns.getContext());
  // Above the upstream arith constant lowering, which knows no layouts.
  patterns.add<ConstantOpConversion>(converter, /*benefit=*/2);
}
