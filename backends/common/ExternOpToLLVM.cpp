// tile.extern_elementwise: one call of the device-library function per
// element a thread holds. The function is declared in the module by its
// symbol; the binary step links the library that defines it (libdevice for
// `__nv_*` symbols on NVIDIA).
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The scalar type of an LLVM value that stands for a tile value: the
/// field type of a struct (one thread's elements), or the type itself.
Type scalarOf(Type type) {
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return structType.getBody().front();
  return type;
}

struct ExternElementwiseOpConversion
    : public ConvertOpToLLVMPattern<tile::ExternElementwiseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result has no layout");
    SmallVector<Type> argumentTypes;
    for (Value operand : adaptor.getSrcs())
      argumentTypes.push_back(scalarOf(operand.getType()));
    auto functionType =
        LLVM::LLVMFunctionType::get(scalarOf(resultType), argumentTypes);

    auto module = op->getParentOfType<ModuleOp>();
    StringRef symbol = op.getSymbol();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (callee && callee.getFunctionType() != functionType)
      // Rejected with a diagnostic before the conversion.
      return rewriter.notifyMatchFailure(op, "symbol declared with another type");
    if (!callee) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      callee = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), symbol,
                                        functionType);
    }

    Location loc = op.getLoc();
    auto call = [&](ValueRange arguments) -> Value {
      return LLVM::CallOp::create(rewriter, loc, callee, arguments)
          .getResult();
    };
    Value result;
    if (adaptor.getSrcs().empty() &&
        isa<LLVM::LLVMStructType>(resultType)) {
      // No operand to follow: one call per element the thread holds.
      size_t count =
          cast<LLVM::LLVMStructType>(resultType).getBody().size();
      SmallVector<Value> values;
      for (size_t i = 0; i < count; ++i)
        values.push_back(call({}));
      result = packStruct(rewriter, loc, resultType, values);
    } else {
      result = mapElements(rewriter, loc, resultType, adaptor.getSrcs(), call);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

LogicalResult mlir::terrazzo::checkExternLowering(ModuleOp module) {
  // Each symbol becomes one declaration, so all its calls must agree.
  llvm::StringMap<FunctionType> declared;
  bool ok = true;
  module.walk([&](tile::ExternElementwiseOp op) {
    SmallVector<Type> arguments;
    for (Type type : op.getSrcs().getTypes())
      arguments.push_back(getElementTypeOrSelf(type));
    auto type = FunctionType::get(op.getContext(), arguments,
                                  {getElementTypeOrSelf(op.getType())});
    auto [it, inserted] = declared.try_emplace(op.getSymbol(), type);
    if (!inserted && it->second != type) {
      op.emitOpError("calls '")
          << op.getSymbol() << "' as " << type
          << ", but another call in the module calls it as " << it->second;
      ok = false;
    }
  });
  return success(ok);
}

void mlir::terrazzo::populateExternOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseOpConversion>(converter);
}
