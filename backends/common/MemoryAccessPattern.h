// The base of the lowering patterns that ask the module's AxisInfo how
// memory is accessed and emit the accesses through the target's hooks:
// global loads, stores and prefetches, atomics, asynchronous copies.
#ifndef TERRAZZO_BACKENDS_COMMON_MEMORYACCESSPATTERN_H
#define TERRAZZO_BACKENDS_COMMON_MEMORYACCESSPATTERN_H

#include "backends/common/TypeConverter.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;
class TargetInfo;

/// A conversion of `SourceOp` to the LLVM dialect that reads `axisInfo`
/// (the contiguity, divisibility and constancy of its pointers and masks)
/// to size its accesses and emits them through `target`.
template <typename SourceOp>
class MemoryAccessPattern : public ConvertOpToLLVMPattern<SourceOp> {
public:
  MemoryAccessPattern(TileGPUTypeConverter &converter,
                      const ModuleAxisInfoAnalysis &axisInfo,
                      const TargetInfo &target)
      : ConvertOpToLLVMPattern<SourceOp>(converter), axisInfo(axisInfo),
        target(target) {}

protected:
  const ModuleAxisInfoAnalysis &axisInfo;
  const TargetInfo &target;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_MEMORYACCESSPATTERN_H
