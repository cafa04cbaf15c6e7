// The AMD backend (hip:* targets) behind the vendor boundary
// (backends/Backend.h).
#ifndef TERRAZZO_BACKENDS_AMD_AMDBACKEND_H
#define TERRAZZO_BACKENDS_AMD_AMDBACKEND_H

#include "backends/Backend.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace terrazzo::amd {

const Backend &getBackend();

/// The AMD conversion of tilegpu IR to the LLVM and ROCDL dialects
/// (ConvertTileGPUToROCDL.cpp).
mlir::LogicalResult convertTileGPUToROCDL(mlir::ModuleOp module,
                                          const Target &target);

} // namespace terrazzo::amd

#endif // TERRAZZO_BACKENDS_AMD_AMDBACKEND_H
