// The base of the lowering patterns that ask the module's AxisInfo how
// memory is accessed and emit the accesses through the target's hooks:
// global loads, stores and prefetches, atomics, asynchronous copies.
#ifndef TERRAZZO_BACKENDS_COMMON_MEMORYACCESSPATTERN_H
#define TERRAZZO_BACKENDS_COMMON_MEMORYACCESSPATTERN_H

#include "backends/common/TargetPattern.h"

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;

/// A conversion of `SourceOp` to the LLVM dialect that reads `axisInfo`
/// (the contiguity, divisibility and constancy of its pointers and masks)
/// to size its accesses and emits them through `target`.
template <typename SourceOp>
class MemoryAccessPattern : public TargetPattern<SourceOp> {
public:
  MemoryAccessPattern(TileGPUTypeConverter &converter,
                      const ModuleAxisInfoAnalysis &axisInfo,
                      const TargetInfo &target)
      : TargetPattern<SourceOp>(converter, target), axisInfo(axisInfo) {}

protected:
  const ModuleAxisInfoAnalysis &axisInfo;
};

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_MEMORYACCESSPATTERN_H
