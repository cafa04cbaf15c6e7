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

/// Emits an error on a value of `op` (a result, a block argument of one of
/// its regions) whose scalar type, or element type, has no lowering to the
/// GPU: floats other than f16, bf16, f32, f64 and the fp8 types the
/// converter takes as bytes (f80 or f128 would reach the code generator,
/// which has nothing for them); success otherwise.
LogicalResult checkTypeLowering(Operation *op);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_TYPECONVERTER_H
