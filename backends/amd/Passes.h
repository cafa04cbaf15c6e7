// The passes of the AMD backend (Passes.td).
#ifndef TERRAZZO_BACKENDS_AMD_PASSES_H
#define TERRAZZO_BACKENDS_AMD_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::terrazzo {

#define GEN_PASS_DECL
#include "backends/amd/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "backends/amd/Passes.h.inc"

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_AMD_PASSES_H
