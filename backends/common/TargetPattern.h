// The base of the lowering patterns that emit what differs between targets
// through the target's hooks (TargetInfo): thread indices, barriers,
// shuffles, shared-memory addresses, atomics, printing.
#ifndef TERRAZZO_BACKENDS_COMMON_TARGETPATTERN_H
#define TERRAZZO_BACKENDS_COMMON_TARGETPATTERN_H

#include "backends/common/TypeConverter.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

namespace mlir::terrazzo {

class TargetInfo;

/// A conversion of `SourceOp` to the LLVM dialect that emits through
/// `target`.
template <typename SourceOp>
class TargetPattern : public ConvertOpToLLVMPattern<SourceOp> {
public:
  TargetPattern(TileGPUTypeConverter &converter, const TargetInfo &target)
      : ConvertOpToLLVMPattern<SourceOp>(converter), target(target) {}

protected:
  const TargetInfo &target;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_TARGETPATTERN_H
