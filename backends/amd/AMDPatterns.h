// The AMD backend's own conversion patterns (ConvertTileGPUToROCDL.cpp
// adds them to the common ones).
#ifndef TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H
#define TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H

#include "target/Target.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::terrazzo {

class TileGPUTypeConverter;

/// tile.dot in #tilegpu.amd_mfma layouts on the target's MFMA instructions
/// (MfmaDotOpToLLVM.cpp).
void populateMfmaDotOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const ::terrazzo::Target &target);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_AMD_AMDPATTERNS_H
