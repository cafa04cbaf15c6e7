// The conversion of a tilegpu module to the LLVM dialect that every vendor
// shares: the checks, the shared-memory declaration, the common patterns
// and the conversion itself. A vendor's conversion (backends/<vendor>/)
// calls it with its VendorLowering.
#ifndef TERRAZZO_BACKENDS_COMMON_CONVERTTOLLVM_H
#define TERRAZZO_BACKENDS_COMMON_CONVERTTOLLVM_H

#include "target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace mlir {
class ConversionTarget;
} // namespace mlir

namespace mlir::terrazzo {

class ModuleAxisInfoAnalysis;
class TargetInfo;
class TileGPUTypeConverter;

/// What a vendor adds to the common lowering.
class VendorLowering {
public:
  virtual ~VendorLowering();

  virtual const TargetInfo &getTargetInfo() const = 0;
  /// An error on `op` if the vendor cannot lower it (checked with the
  /// common checks, before anything changes).
  virtual LogicalResult checkOp(Operation *op) const { return success(); }
  /// Checks that need AxisInfo (after the shared memory is declared).
  virtual LogicalResult checkModule(ModuleOp module,
                                    ModuleAxisInfoAnalysis &axisInfo) const {
    return success();
  }
  /// The alignment of the module's dynamic shared memory.
  virtual int64_t getSharedMemoryAlignment(ModuleOp module) const {
    return 16;
  }
  /// The vendor's patterns, added after the common ones and before the
  /// upstream arith, math, ub, cf and func lowerings.
  virtual void populatePatterns(TileGPUTypeConverter &converter,
                                RewritePatternSet &patterns,
                                ModuleAxisInfoAnalysis &axisInfo) const = 0;
  /// The vendor's dialects, legal in the result (and its ops that stay
  /// until finishModule).
  virtual void addLegalDialects(ConversionTarget &target) const = 0;
  /// After the conversion: lowers what the vendor kept for the end.
  virtual LogicalResult finishModule(ModuleOp module) const {
    return success();
  }
};

/// Lowers `module` (tilegpu IR for `target`) to the LLVM dialect and the
/// vendor's; errors are reported on the ops.
LogicalResult convertTileGPUToLLVM(ModuleOp module,
                                   const ::terrazzo::Target &target,
                                   const VendorLowering &vendor);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_CONVERTTOLLVM_H
