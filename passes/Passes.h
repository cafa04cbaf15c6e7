// Terrazzo's passes (DESIGN.md §4).
#ifndef TERRAZZO_PASSES_PASSES_H
#define TERRAZZO_PASSES_PASSES_H

#include "target/Target.h"

#include "mlir/Pass/Pass.h"

namespace mlir::terrazzo {

/// Where terrazzo-coalesce bands rows by warp (its `band-rows` option).
enum class BandRows {
  /// Nowhere.
  Never,
  /// In functions with a warp-specialized loop (`tile.warp_specialize`).
  WarpSpecialized,
  /// In every function.
  Always,
};

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_PASSES_H
