// The AMD backend: its pipeline hooks (MFMA operands through swizzled LDS
// buffers, which loops fill an iteration ahead through registers), its
// conversion, AMDGCN emission and the hsaco step; the common
// terrazzo-accelerate-dot puts dots on MFMA from the target's list of
// instructions.
#include "backends/amd/AMDBackend.h"

#include "backends/amd/AMDGCNEmitter.h"
#include "backends/amd/Passes.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

using namespace terrazzo;

namespace {

class AMDBackend : public Backend {
public:
  void registerDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::ROCDL::ROCDLDialect>();
    amd::registerTranslations(registry);
  }

  void registerPasses() const override {
    mlir::terrazzo::registerTerrazzoAMDPasses();
  }

  void addAfterLayouts(mlir::OpPassManager &pm, const Target &target,
                       int numStages) const override {
    // The settled MFMA operand conversions read swizzled LDS buffers, which
    // loops fill one iteration ahead through registers (CDNA has no
    // asynchronous copies into LDS).
    pm.addPass(mlir::terrazzo::createTerrazzoAmdDotOperandsToLds());
    mlir::terrazzo::TerrazzoPipelineOptions options;
    options.numStages = numStages;
    options.registers = true;
    pm.addPass(mlir::terrazzo::createTerrazzoPipeline(options));
    // Loop-carried pointers (the pipelined loops' included) and chains of
    // pointer arithmetic as a base and i32 offsets, which buffer
    // operations take.
    pm.addPass(mlir::terrazzo::createTerrazzoAmdBufferAddresses());
  }

  mlir::LogicalResult convertToLLVM(mlir::ModuleOp module,
                                    const Target &target) const override {
    return amd::convertTileGPUToROCDL(module, target);
  }

  mlir::FailureOr<std::string> emitLLVMIR(mlir::ModuleOp module,
                                          const Target &target,
                                          bool fpFusion) const override {
    return amd::emitLLVMIR(module, target, fpFusion);
  }

  mlir::FailureOr<std::string> emitAssembly(mlir::ModuleOp module,
                                            const Target &target,
                                            bool fpFusion) const override {
    return amd::emitAMDGCN(module, target, fpFusion);
  }

  mlir::LogicalResult emitBinary(mlir::ModuleOp module, const Target &target,
                                 bool fpFusion, const std::string &assembler,
                                 Binary &result) const override {
    if (assembler != "auto" && assembler != "ld.lld")
      return module.emitError("hsaco files are linked by ld.lld; the "
                              "assembler '")
             << assembler << "' is not one of " << target.name
             << "'s (auto, ld.lld)";
    mlir::FailureOr<std::string> hsaco =
        amd::emitHsaco(module, target, fpFusion);
    if (mlir::failed(hsaco))
      return mlir::failure();
    result.bytes = std::move(*hsaco);
    result.kind = "hsaco";
    result.assembler = "ld.lld";
    return mlir::success();
  }
};

} // namespace

const Backend &amd::getBackend() {
  static const AMDBackend backend;
  return backend;
}
