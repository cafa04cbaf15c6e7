// The vendor boundary (DESIGN.md §5): what lib/ asks of the backend of a
// target. Each vendor folder (backends/nvidia/, ...) implements it; lib/
// reaches a vendor only through getBackend and includes no vendor header.
#ifndef TERRAZZO_BACKENDS_BACKEND_H
#define TERRAZZO_BACKENDS_BACKEND_H

#include "passes/Passes.h"
#include "target/Target.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class DialectRegistry;
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace terrazzo {

/// A loadable binary and how it was made.
struct Binary {
  std::string bytes;
  /// What `bytes` holds: "cubin", "ptx" left for the driver, or "hsaco".
  std::string kind;
  /// What produced it: "nvJitLink", "ptxas", "driver", "ld.lld".
  std::string assembler;
};

class Backend {
public:
  virtual ~Backend();

  /// The dialects and translations to LLVM IR that the vendor's lowering
  /// and emission need.
  virtual void registerDialects(mlir::DialectRegistry &registry) const = 0;
  /// Registers the vendor's passes (for terrazzo-opt).
  virtual void registerPasses() const {}

  // Pipeline hooks: passes the vendor adds at fixed points of lib/'s
  // pipeline (lib/Pipeline.cpp).

  /// Tile pipeline, after inlining: which tensor descriptors
  /// terrazzo-lower-tensor-descriptors leaves for the vendor's passes
  /// (none by default).
  virtual void configureDescriptorLowering(
      mlir::terrazzo::TerrazzoLowerTensorDescriptorsOptions &options,
      const Target &target) const {}
  /// Tile pipeline, once the arithmetic is simplified and loop-invariant
  /// code is out of the loops.
  virtual void addTileOptimizations(mlir::OpPassManager &pm,
                                    const Target &target) const {}
  /// Tilegpu pipeline, before terrazzo-accelerate-dot.
  virtual void addBeforeAccelerateDot(mlir::OpPassManager &pm,
                                      const Target &target) const {}
  /// Tilegpu pipeline, once the layouts are settled (after layout-conversion
  /// removal and loop-invariant code motion).
  virtual void addAfterLayouts(mlir::OpPassManager &pm, const Target &target,
                               int numStages) const {}

  /// Lowers a tilegpu module for `target` to the LLVM dialect and the
  /// vendor's (the conversion of terrazzo-convert-tilegpu-to-llvm).
  virtual mlir::LogicalResult convertToLLVM(mlir::ModuleOp module,
                                            const Target &target) const = 0;

  /// The optimized LLVM IR of a lowered module, as text; errors are
  /// reported on the module. `fpFusion`: floating-point multiplies and adds
  /// may contract to fused multiply-adds (CompileOptions::fpFusion).
  virtual mlir::FailureOr<std::string>
  emitLLVMIR(mlir::ModuleOp module, const Target &target,
             bool fpFusion) const = 0;
  /// The vendor's assembly (PTX, AMDGCN) of a lowered module.
  virtual mlir::FailureOr<std::string>
  emitAssembly(mlir::ModuleOp module, const Target &target,
               bool fpFusion) const = 0;
  /// The loadable binary of a lowered module (a cubin, an hsaco), made by
  /// `assembler` ("auto" or a vendor's tool); errors are reported on the
  /// module.
  virtual mlir::LogicalResult emitBinary(mlir::ModuleOp module,
                                         const Target &target, bool fpFusion,
                                         const std::string &assembler,
                                         Binary &result) const = 0;
};

/// The backend of `target`'s vendor; null when this build has none.
const Backend *getBackend(const Target &target);

/// The message for a target without a backend.
std::string noBackendMessage(const Target &target);

/// Registers what every backend needs (Backend::registerDialects).
void registerBackendDialects(mlir::DialectRegistry &registry);
/// Registers every backend's passes (Backend::registerPasses).
void registerBackendPasses();

} // namespace terrazzo

#endif // TERRAZZO_BACKENDS_BACKEND_H
