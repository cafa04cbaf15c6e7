// The passes of the backends (DESIGN.md §5).
#ifndef TERRAZZO_BACKENDS_PASSES_H
#define TERRAZZO_BACKENDS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::terrazzo {

#define GEN_PASS_DECL
#include "backends/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "backends/Passes.h.inc"

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_PASSES_H
