#include "backends/common/TypeConverter.h"

#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::terrazzo;

TileGPUTypeConverter::TileGPUTypeConverter(MLIRContext *context,
                                           const LowerToLLVMOptions &options)
    : LLVMTypeConverter(context, options) {
  addConversion([context](tile::PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(context, type.getAddressSpace());
  });
  // LLVM has no fp8 float types: an fp8 value is its byte.
  addConversion([context](Float8E4M3FNType) -> Type {
    return IntegerType::get(context, 8);
  });
  addConversion([context](Float8E5M2Type) -> Type {
    return IntegerType::get(context, 8);
  });
  addConversion([context](Float8E4M3FNUZType) -> Type {
    return IntegerType::get(context, 8);
  });
  addConversion([context](Float8E5M2FNUZType) -> Type {
    return IntegerType::get(context, 8);
  });
  // A shared-memory buffer is the address of its first element; an async
  // token carries nothing (a constant).
  addConversion([context](tilegpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, 3);
  });
  addConversion([context](tilegpu::AsyncTokenType) -> Type {
    return IntegerType::get(context, 32);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    if (Type converted = convertTensorType(type))
      return converted;
    return std::nullopt;
  });
}

namespace {

bool hasFloatLowering(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto pointer = dyn_cast<tile::PointerType>(element))
    return hasFloatLowering(pointer.getPointeeType());
  if (!isa<FloatType>(element))
    return true;
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
             Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType>(element);
}

} // namespace

LogicalResult mlir::terrazzo::checkTypeLowering(Operation *op) {
  auto reject = [&](Location loc, const std::string &what, Type type) {
    return emitError(loc) << what << " of '" << op->getName()
                          << "' has type " << type
                          << ", which has no lowering to the GPU (its floats "
                             "are f16, bf16, f32, f64, f8E4M3FN and f8E5M2)";
  };
  for (Type type : op->getResultTypes())
    if (!hasFloatLowering(type))
      return reject(op->getLoc(), "a result", type);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        if (!hasFloatLowering(argument.getType()))
          return reject(argument.getLoc(),
                        isa<FunctionOpInterface>(op) && block.isEntryBlock()
                            ? "argument " +
                                  std::to_string(argument.getArgNumber())
                            : std::string("a block argument"),
                        argument.getType());
  if (auto function = dyn_cast<FunctionOpInterface>(op)) {
    for (Type type : function.getArgumentTypes())
      if (!hasFloatLowering(type))
        return reject(op->getLoc(), "an argument", type);
    for (Type type : function.getResultTypes())
      if (!hasFloatLowering(type))
        return reject(op->getLoc(), "a result", type);
  }
  return success();
}

Type TileGPUTypeConverter::convertTensorType(RankedTensorType type) const {
  std::optional<LinearLayout> layout = getLinearLayout(type);
  if (!layout)
    return {};
  Type element = convertType(type.getElementType());
  if (!element)
    return {};
  SmallVector<Type> fields(layout->getInDimSize(kRegister), element);
  return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
}
