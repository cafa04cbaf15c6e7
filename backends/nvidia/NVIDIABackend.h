// The NVIDIA backend (cuda:* targets) behind the vendor boundary
// (backends/Backend.h).
#ifndef TERRAZZO_BACKENDS_NVIDIA_NVIDIABACKEND_H
#define TERRAZZO_BACKENDS_NVIDIA_NVIDIABACKEND_H

#include "backends/Backend.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace terrazzo::nvidia {

const Backend &getBackend();

/// The NVIDIA conversion of tilegpu IR to the LLVM and NVVM dialects
/// (ConvertTileGPUToNVVM.cpp).
mlir::LogicalResult convertTileGPUToNVVM(mlir::ModuleOp module,
                                         const Target &target);

} // namespace terrazzo::nvidia

#endif // TERRAZZO_BACKENDS_NVIDIA_NVIDIABACKEND_H
