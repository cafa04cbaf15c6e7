// The passes of the NVIDIA backend (Passes.td).
#ifndef TERRAZZO_BACKENDS_NVIDIA_PASSES_H
#define TERRAZZO_BACKENDS_NVIDIA_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::terrazzo {

#define GEN_PASS_DECL
#include "backends/nvidia/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "backends/nvidia/Passes.h.inc"

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_NVIDIA_PASSES_H
