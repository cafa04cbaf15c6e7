// Pointer arithmetic and reinterpreting casts, element by element.
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct AddPtrOpConversion : public ConvertOpToLLVMPattern<tile::AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    auto pointer = cast<tile::PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = getTypeConverter()->convertType(pointer.getPointeeType());
    Type llvmPointer = getTypeConverter()->convertType(pointer);
    if (!resultType || !pointee || !llvmPointer)
      return rewriter.notifyMatchFailure(op, "unconvertible types");
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, mapElements(rewriter, loc, resultType,
                        {adaptor.getPtr(), adaptor.getOffset()},
                        [&](ValueRange args) -> Value {
                          return LLVM::GEPOp::create(rewriter, loc, llvmPointer,
                                                     pointee, args[0],
                                                     ValueRange{args[1]});
                        }));
    return success();
  }
};

/// Ops that become one LLVM cast per element.
template <typename SourceOp, typename CastOp>
struct ElementCastConversion : public ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unconvertible result");
    Type elementType =
        isa<LLVM::LLVMStructType>(resultType)
            ? cast<LLVM::LLVMStructType>(resultType).getBody().front()
            : resultType;
    Location loc = op.getLoc();
    rewriter.replaceOp(op, mapElements(rewriter, loc, resultType,
                                       adaptor.getOperands(),
                                       [&](ValueRange args) -> Value {
                                         if (args[0].getType() == elementType)
                                           return args[0];
                                         return CastOp::create(rewriter, loc,
                                                               elementType,
                                                               args[0]);
                                       }));
    return success();
  }
};

/// Conversions between the float types LLVM converts natively; fp8 and
/// round-toward-zero narrowing come with the tensor-core work.
struct FpToFpOpConversion : public ConvertOpToLLVMPattern<tile::FpToFpOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = cast<FloatType>(getElementTypeOrSelf(op.getSrc().getType()));
    auto to = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    auto native = [](FloatType t) {
      return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
    };
    if (!native(from) || !native(to))
      return op.emitOpError("conversion from ")
             << from << " to " << to << " cannot be lowered yet";
    bool narrowing = to.getWidth() < from.getWidth() ||
                     (to.getWidth() == from.getWidth() && from != to);
    if (narrowing && op.getRounding() == tile::RoundingMode::RTZ)
      return op.emitOpError("round-toward-zero conversion from ")
             << from << " to " << to << " cannot be lowered yet";
    Type resultType = getTypeConverter()->convertType(op.getType());
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, mapElements(rewriter, loc, resultType, {adaptor.getSrc()},
                        [&](ValueRange args) -> Value {
                          if (to.getWidth() > from.getWidth())
                            return LLVM::FPExtOp::create(rewriter, loc, to,
                                                         args[0]);
                          if (to.getWidth() < from.getWidth())
                            return LLVM::FPTruncOp::create(rewriter, loc, to,
                                                           args[0]);
                          // f16 <-> bf16: through f32, exactly then rounded.
                          Value wide = LLVM::FPExtOp::create(
                              rewriter, loc, rewriter.getF32Type(), args[0]);
                          return LLVM::FPTruncOp::create(rewriter, loc, to,
                                                         wide);
                        }));
    return success();
  }
};

} // namespace

void mlir::terrazzo::populatePointerOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AddPtrOpConversion, FpToFpOpConversion,
               ElementCastConversion<tile::IntToPtrOp, LLVM::IntToPtrOp>,
               ElementCastConversion<tile::PtrToIntOp, LLVM::PtrToIntOp>,
               ElementCastConversion<tile::BitcastOp, LLVM::BitcastOp>>(
      converter);
}
