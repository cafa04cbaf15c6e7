// Types of tilegpu IR in the LLVM dialect: a tensor becomes the struct of the
// values one thread holds under its layout; a pointer an LLVM pointer.
#ifndef TERRAZZO_BACKENDS_COMMON_TYPECONVERTER_H
#define TERRAZZO_BACKENDS_COMMON_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::terrazzo {

class TileGPUTypeConverter : public LLVMTypeConverter {
public:
  TileGPUTypeConverter(MLIRContext *context, const LowerToLLVMOptions &options);

  /// The struct holding one thread's elements of `type`, or null if its
  /// encoding is not a distributed layout.
  Type convertTensorType(RankedTensorType type) const;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_TYPECONVERTER_H
