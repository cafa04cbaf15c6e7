#include "backends/common/TypeConverter.h"

#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

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
