#include "lib/Pipeline.h"

#include "backends/Passes.h"
#include "backends/Target.h"
#include "passes/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdlib>
#include "mlir/Transforms/Passes.h"

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

bool hasTma(const std::string &target) {
  if (!tmaRequested(/*unvalidated=*/false))
    return false;
  std::string error;
  std::optional<terrazzo::Target> parsed =
      terrazzo::Target::parse(target, error);
  return parsed && parsed->isCUDA() && parsed->capability / 10 == 9;
}
} // namespace

void terrazzo::buildTilePipeline(mlir::OpPassManager &pm,
                                 const std::string &target) {
  pm.addPass(mlir::createInlinerPass());
  // Descriptors as pointer arithmetic, before the simplifications that
  // clean that arithmetic up (once inlined, so that each load sees its
  // descriptor's creation); on sm_90 those TMA can serve stay for the
  // tilegpu pipeline.
  mlir::terrazzo::TerrazzoLowerTensorDescriptorsOptions descriptorOptions;
  descriptorOptions.keepTma = hasTma(target);
  descriptorOptions.keepUnvalidated = tmaRequested(/*unvalidated=*/true);
  pm.addPass(
      mlir::terrazzo::createTerrazzoLowerTensorDescriptors(descriptorOptions));
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::terrazzo::createTerrazzoCombine());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Loop-invariant arithmetic leaves the loops: less work per iteration,
  // and the pipeliner needs pointer steps defined outside the loop.
  pm.addPass(mlir::createLoopInvariantCodeMotionPass());
  // Pointer loads whose box can be proven become TMA descriptor loads (on
  // the simplified arithmetic, where the linear parts of masks and
  // pointers cancel).
  if (hasTma(target)) {
    pm.addPass(mlir::terrazzo::createTerrazzoLoadsToDescriptors());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
  }
  pm.addPass(mlir::createSymbolDCEPass());
}

void terrazzo::buildTileGPUPipeline(mlir::OpPassManager &pm,
                                    const std::string &target,
                                    unsigned numWarps, int numStages) {
  mlir::terrazzo::TerrazzoConvertTileToTileGPUOptions options;
  options.target = target;
  options.numWarps = numWarps;
  pm.addPass(mlir::terrazzo::createTerrazzoConvertTileToTileGPU(options));
  pm.addPass(mlir::terrazzo::createTerrazzoCoalesce());
  // Tensor-core layouts go in once the memory accesses have theirs and
  // before conversions move, so that no value settles in the FMA
  // fallback's operand layouts first. tf32x3 dots become tf32 dots just
  // before, where the target's tensor cores will take those.
  pm.addPass(mlir::terrazzo::createTerrazzoDecomposeTf32x3());
  pm.addPass(mlir::terrazzo::createTerrazzoAccelerateDot());
  pm.addPass(mlir::terrazzo::createTerrazzoRemoveLayoutConversions());
  // Values rematerialised in a layout where a loop used them (splats of
  // pointer steps) go back out of the loop.
  pm.addPass(mlir::createLoopInvariantCodeMotionPass());
  // Descriptor loads read shared memory into the layouts their users have
  // settled on.
  if (hasTma(target))
    pm.addPass(mlir::terrazzo::createTerrazzoLowerDescriptorsToTma());
  // cp.async exists from sm_80 on.
  std::string error;
  std::optional<Target> parsed = Target::parse(target, error);
  if (parsed && parsed->isCUDA() && parsed->capability >= 80) {
    mlir::terrazzo::TerrazzoPipelineOptions pipelineOptions;
    pipelineOptions.numStages = numStages;
    pm.addPass(mlir::terrazzo::createTerrazzoPipeline(pipelineOptions));
  }
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void terrazzo::buildLLVMPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::terrazzo::createTerrazzoAllocateSharedMemory());
  pm.addPass(mlir::terrazzo::createTerrazzoInsertBarriers());
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(mlir::terrazzo::createTerrazzoConvertTileGPUToLLVM());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}

namespace {
struct TilePipelineOptions
    : public mlir::PassPipelineOptions<TilePipelineOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target whose features matter already (cuda:90 keeps "
                     "the tensor descriptors TMA can serve)"),
      llvm::cl::init("")};
};

struct TileGPUPipelineOptions
    : public mlir::PassPipelineOptions<TileGPUPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target, e.g. cuda:90"),
                             llvm::cl::init("cuda:80")};
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("Warps per program instance"),
                            llvm::cl::init(4)};
  Option<int> numStages{*this, "num-stages",
                        llvm::cl::desc("Software-pipelining stages (cuda:80+)"),
                        llvm::cl::init(3)};
};
} // namespace

void terrazzo::registerPipelines() {
  mlir::PassPipelineRegistration<TilePipelineOptions>(
      "terrazzo-tile-pipeline",
      "Simplification of tile IR (inline, tensor descriptors, canonicalize, "
      "combine, CSE, symbol DCE)",
      [](mlir::OpPassManager &pm, const TilePipelineOptions &options) {
        buildTilePipeline(pm, options.target);
      });
  mlir::PassPipelineRegistration<TileGPUPipelineOptions>(
      "terrazzo-tilegpu-pipeline",
      "Tile IR to tilegpu IR: layouts, coalescing, conversion cleanup",
      [](mlir::OpPassManager &pm, const TileGPUPipelineOptions &options) {
        buildTileGPUPipeline(pm, options.target, options.numWarps,
                             options.numStages);
      });
  mlir::PassPipelineRegistration<>(
      "terrazzo-llvm-pipeline", "tilegpu IR to the LLVM and NVVM dialects",
      [](mlir::OpPassManager &pm) { buildLLVMPipeline(pm); });
}
