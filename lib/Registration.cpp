#include "lib/Registration.h"

#include "lib/CrashRecovery.h"
#include "lib/Pipeline.h"

#include "backends/Backend.h"
#include "backends/Passes.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Transforms/Passes.h"

void terrazzo::registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::tile::TileDialect, mlir::tilegpu::TileGPUDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::ub::UBDialect>();
  mlir::func::registerInlinerExtension(registry);
  terrazzo::registerBackendDialects(registry);
}

void terrazzo::registerPasses() {
  mlir::registerTransformsPasses();
  mlir::terrazzo::registerTerrazzoPasses();
  mlir::terrazzo::registerTerrazzoBackendPasses();
  terrazzo::registerBackendPasses();
  // The two upstream conversions the LLVM pipeline uses, without pulling in
  // every conversion MLIR has.
  mlir::registerPass([] { return mlir::createSCFToControlFlowPass(); });
  mlir::registerPass([] { return mlir::createReconcileUnrealizedCastsPass(); });
  mlir::terrazzo::registerTestAxisInfoPass();
  registerTestCrashPass();
  registerPipelines();
}
