#include "lib/Pipeline.h"

#include "backends/Backend.h"
#include "backends/Passes.h"
#include "target/Target.h"
#include "passes/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace {
/// The backend of `target`, null for none or an unknown target (whose
/// pipeline then has no vendor passes).
std::pair<const terrazzo::Backend *, std::optional<terrazzo::Target>>
findBackend(const std::string &target) {
  std::string error;
  std::optional<terrazzo::Target> parsed =
      terrazzo::Target::parse(target, error);
  return {parsed ? terrazzo::getBackend(*parsed) : nullptr, parsed};
}
} // namespace

namespace {

/// TERRAZZO_PROMOTE_OFFSETS (Python puts it in the kernel cache key):
/// "1" promotes the offsets of every pointer, "0" none; otherwise those of
/// pointers that may address more than 2^31 bytes (no tile.pointer_range).
enum class OffsetPromotion { Ranged, All, None };
OffsetPromotion offsetPromotion() {
  const char *requested = std::getenv("TERRAZZO_PROMOTE_OFFSETS");
  std::string value = requested ? requested : "";
  if (value == "1")
    return OffsetPromotion::All;
  if (value == "0")
    return OffsetPromotion::None;
  return OffsetPromotion::Ranged;
}

/// Narrow barriers unless TERRAZZO_NARROW_BARRIERS=0 (Python puts it in the
/// kernel cache key): rows banded by warp in the multi-group programs of
/// warp-specialized functions (terrazzo-coalesce's band-rows) and barriers
/// of a warp or warp group where they suffice (terrazzo-insert-barriers'
/// narrow, after terrazzo-continuous-turns). The bands are limited to
/// warp-specialized functions because elsewhere they cost tutorial 09's
/// pointer persistent GEMM 7% (bench/RESULTS.md session 37); in the
/// turn-taking D=128 attention forward the narrow barriers gained up to 7%
/// (session 39).
bool narrowBarriers() {
  const char *requested = std::getenv("TERRAZZO_NARROW_BARRIERS");
  return !requested || std::string(requested) != "0";
}

} // namespace

void terrazzo::buildTilePipeline(mlir::OpPassManager &pm,
                                 const std::string &target) {
  auto [backend, parsed] = findBackend(target);
  pm.addPass(mlir::createInlinerPass());
  // Descriptors as pointer arithmetic, before the simplifications that
  // clean that arithmetic up (once inlined, so that each load sees its
  // descriptor's creation); a backend may keep those its hardware serves
  // for the tilegpu pipeline.
  mlir::terrazzo::TerrazzoLowerTensorDescriptorsOptions descriptorOptions;
  if (backend)
    backend->configureDescriptorLowering(descriptorOptions, *parsed);
  pm.addPass(
      mlir::terrazzo::createTerrazzoLowerTensorDescriptors(descriptorOptions));
  // tl.range(..., loop_unroll_factor=N), before the simplifications that
  // then see the unrolled bodies.
  pm.addPass(mlir::terrazzo::createTerrazzoUnrollLoops());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::terrazzo::createTerrazzoCombine());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Offsets past 2^31 elements: after the combine merged the addptr chains
  // into one offset expression each. By default only for pointers without
  // tile.pointer_range (tensors of 2 GiB or more, or of unknown size): the
  // matmul kernels of tutorials 03 and 09 take up to 52 more registers
  // when promoted (bench/offsets_registers.py, bench/RESULTS.md).
  OffsetPromotion promotion = offsetPromotion();
  if (promotion != OffsetPromotion::None) {
    mlir::terrazzo::TerrazzoPromoteOffsetsOptions options;
    options.allPointers = promotion == OffsetPromotion::All;
    pm.addPass(mlir::terrazzo::createTerrazzoPromoteOffsets(options));
  }
  // Loop-invariant arithmetic leaves the loops: less work per iteration,
  // and the pipeliner needs pointer steps defined outside the loop.
  pm.addPass(mlir::createLoopInvariantCodeMotionPass());
  // (terrazzo-flatten-loops, tl.range(..., flatten=True), is not run: the
  // flattened loop measured slower than the nest on the H100; see its
  // description in Passes.td.)
  if (backend)
    backend->addTileOptimizations(pm, *parsed);
  pm.addPass(mlir::createSymbolDCEPass());
}

void terrazzo::buildTileGPUPipeline(mlir::OpPassManager &pm,
                                    const std::string &target,
                                    unsigned numWarps, int numStages) {
  auto [backend, parsed] = findBackend(target);
  mlir::terrazzo::TerrazzoConvertTileToTileGPUOptions options;
  options.target = target;
  options.numWarps = numWarps;
  pm.addPass(mlir::terrazzo::createTerrazzoConvertTileToTileGPU(options));
  mlir::terrazzo::TerrazzoCoalesceOptions coalesceOptions;
  coalesceOptions.bandRows = narrowBarriers()
                                 ? mlir::terrazzo::BandRows::WarpSpecialized
                                 : mlir::terrazzo::BandRows::Never;
  pm.addPass(mlir::terrazzo::createTerrazzoCoalesce(coalesceOptions));
  // Tensor-core layouts go in once the memory accesses have theirs and
  // before conversions move, so that no value settles in the FMA
  // fallback's operand layouts first.
  if (backend)
    backend->addBeforeAccelerateDot(pm, *parsed);
  pm.addPass(mlir::terrazzo::createTerrazzoAccelerateDot());
  pm.addPass(mlir::terrazzo::createTerrazzoRemoveLayoutConversions());
  // Values rematerialised in a layout where a loop used them (splats of
  // pointer steps) go back out of the loop.
  pm.addPass(mlir::createLoopInvariantCodeMotionPass());
  if (backend)
    backend->addAfterLayouts(pm, *parsed, numStages);
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void terrazzo::buildLLVMPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::terrazzo::createTerrazzoAllocateSharedMemory());
  mlir::terrazzo::TerrazzoInsertBarriersOptions barrierOptions;
  barrierOptions.narrow = narrowBarriers();
  // Narrow barriers apply to functions whose warp groups take turns once
  // the turns pair up without the program's barriers.
  if (barrierOptions.narrow)
    pm.addPass(mlir::terrazzo::createTerrazzoContinuousTurns());
  pm.addPass(mlir::terrazzo::createTerrazzoInsertBarriers(barrierOptions));
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
                            llvm::cl::init(terrazzo::kDefaultNumWarps)};
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
      "terrazzo-llvm-pipeline", "tilegpu IR to the LLVM dialect and the target vendor's",
      [](mlir::OpPassManager &pm) { buildLLVMPipeline(pm); });
}
