#include "lib/Pipeline.h"

#include "passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void terrazzo::buildTilePipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createInlinerPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::terrazzo::createTerrazzoCombine());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSymbolDCEPass());
}

void terrazzo::registerPipelines() {
  mlir::PassPipelineRegistration<>(
      "terrazzo-tile-pipeline",
      "Target-independent simplification of tile IR (inline, canonicalize, "
      "combine, CSE, symbol DCE)",
      [](mlir::OpPassManager &pm) { buildTilePipeline(pm); });
}
