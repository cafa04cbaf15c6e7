// terrazzo-convert-tilegpu-to-llvm: see Passes.td. The conversion of the
// module's target's vendor (Backend::convertToLLVM).
#include "backends/Backend.h"
#include "backends/Passes.h"

#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOCONVERTTILEGPUTOLLVM
#include "backends/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

struct ConvertTileGPUToLLVMPass
    : public mlir::terrazzo::impl::TerrazzoConvertTileGPUToLLVMBase<
          ConvertTileGPUToLLVMPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    TerrazzoConvertTileGPUToLLVMBase::getDependentDialects(registry);
    ::terrazzo::registerBackendDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<::terrazzo::Target> target = tilegpu::getTarget(module);
    if (!target) {
      module.emitError("module has no '")
          << tilegpu::TileGPUDialect::kTargetAttrName
          << "'; run terrazzo-convert-tile-to-tilegpu first";
      return signalPassFailure();
    }
    const ::terrazzo::Backend *backend = ::terrazzo::getBackend(*target);
    if (!backend) {
      module.emitError(::terrazzo::noBackendMessage(*target));
      return signalPassFailure();
    }
    if (failed(backend->convertToLLVM(module, *target)))
      signalPassFailure();
  }
};

} // namespace
