// The NVIDIA backend: its pipeline hooks (tf32x3, TMA, cp.async pipelining),
// its conversion, PTX emission and the cubin step.
#include "backends/nvidia/NVIDIABackend.h"

#include "backends/nvidia/CubinAssembler.h"
#include "backends/nvidia/PTXEmitter.h"
#include "backends/nvidia/Passes.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>

using namespace terrazzo;

namespace {

/// TMA on sm_90 (with the tensormap.replace of sm_90a that builds tensor
/// maps on the device) unless TERRAZZO_TMA=0; TERRAZZO_TMA=all also keeps
/// the kinds not yet validated on hardware (scripts/tma-probe.py runs
/// them). The accesses TMA faulted on (innermost coordinates that are not
/// whole 16 bytes, negative ones) take the pointer lowering either way:
/// canLowerToTma.
bool tmaRequested(bool unvalidated) {
  const char *requested = std::getenv("TERRAZZO_TMA");
  std::string value(requested ? requested : "");
  return unvalidated ? value == "all" : value != "0";
}

bool hasTma(const Target &target) {
  return tmaRequested(/*unvalidated=*/false) && target.capability / 10 == 9;
}

class NVIDIABackend : public Backend {
public:
  void registerDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::NVVM::NVVMDialect>();
    nvidia::registerTranslations(registry);
  }

  void registerPasses() const override {
    mlir::terrazzo::registerTerrazzoNVIDIAPasses();
  }

  void configureDescriptorLowering(
      mlir::terrazzo::TerrazzoLowerTensorDescriptorsOptions &options,
      const Target &target) const override {
    // On sm_90 the descriptors TMA can serve stay for the tilegpu pipeline.
    options.keepTma = hasTma(target);
    options.keepUnvalidated = tmaRequested(/*unvalidated=*/true);
  }

  void addTileOptimizations(mlir::OpPassManager &pm,
                            const Target &target) const override {
    // Pointer loads whose box can be proven become TMA descriptor loads (on
    // the simplified arithmetic, where the linear parts of masks and
    // pointers cancel).
    if (!hasTma(target))
      return;
    pm.addPass(mlir::terrazzo::createTerrazzoLoadsToDescriptors());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
  }

  void addBeforeAccelerateDot(mlir::OpPassManager &pm,
                              const Target &target) const override {
    // tf32x3 dots become tf32 dots where the target's tensor cores will
    // take those.
    pm.addPass(mlir::terrazzo::createTerrazzoDecomposeTf32x3());
  }

  void addAfterLayouts(mlir::OpPassManager &pm, const Target &target,
                       int numStages) const override {
    // A loop over tiles prefetches the next tile's blocks into L2 while the
    // inner loop of this one runs (prefetch.global.L2).
    pm.addPass(mlir::terrazzo::createTerrazzoPrefetchNextTile());
    // Descriptor loads read shared memory into the layouts their users have
    // settled on.
    if (hasTma(target))
      pm.addPass(mlir::terrazzo::createTerrazzoLowerDescriptorsToTma());
    // cp.async exists from sm_80 on.
    if (target.capability >= 80) {
      mlir::terrazzo::TerrazzoPipelineOptions options;
      options.numStages = numStages;
      pm.addPass(mlir::terrazzo::createTerrazzoPipeline(options));
    }
  }

  mlir::LogicalResult convertToLLVM(mlir::ModuleOp module,
                                    const Target &target) const override {
    return nvidia::convertTileGPUToNVVM(module, target);
  }

  mlir::FailureOr<std::string> emitLLVMIR(mlir::ModuleOp module,
                                          const Target &target,
                                          bool fpFusion) const override {
    return nvidia::emitLLVMIR(module, target, fpFusion);
  }

  mlir::FailureOr<std::string> emitAssembly(mlir::ModuleOp module,
                                            const Target &target,
                                            bool fpFusion) const override {
    return nvidia::emitPTX(module, target, fpFusion);
  }

  mlir::LogicalResult emitBinary(mlir::ModuleOp module, const Target &target,
                                 bool fpFusion, const std::string &assembler,
                                 Binary &result) const override {
    mlir::FailureOr<std::string> ptx =
        nvidia::emitPTX(module, target, fpFusion);
    if (mlir::failed(ptx))
      return mlir::failure();
    nvidia::AssembledBinary binary;
    std::string error;
    if (!nvidia::assembleCubin(*ptx, target, assembler, binary, error))
      return module.emitError(error);
    result.bytes = std::move(binary.bytes);
    result.kind =
        binary.kind == nvidia::AssembledBinary::Kind::Cubin ? "cubin" : "ptx";
    result.assembler = std::move(binary.assembler);
    return mlir::success();
  }
};

} // namespace

const Backend &nvidia::getBackend() {
  static const NVIDIABackend backend;
  return backend;
}
