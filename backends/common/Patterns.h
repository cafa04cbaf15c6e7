// The lowering of tilegpu IR to the LLVM dialect that every GPU target
// shares; target specifics come in through TargetInfo.
#ifndef TERRAZZO_BACKENDS_COMMON_PATTERNS_H
#define TERRAZZO_BACKENDS_COMMON_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;
class TargetInfo;
class TileGPUTypeConverter;

void populateElementwiseOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateShapeOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);
void populatePointerOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns);
void populateMemoryOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const ModuleAxisInfoAnalysis &axisInfo,
                                    const TargetInfo &target);
void populateGridOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const TargetInfo &target);
void populateDebugOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_PATTERNS_H
