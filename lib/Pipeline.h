// The compilation pipelines, assembled in one place (DESIGN.md §4).
#ifndef TERRAZZO_LIB_PIPELINE_H
#define TERRAZZO_LIB_PIPELINE_H

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace terrazzo {

/// Simplification of tile IR: inline @jit helpers, lower tensor
/// descriptors to pointer accesses (except, for a `target` with TMA
/// (cuda:90), those TMA can serve), canonicalize, combine idioms, CSE, drop
/// functions nothing calls.
void buildTilePipeline(mlir::OpPassManager &pm,
                       const std::string &target = "");

/// Tile IR to tilegpu IR for `target` with `numWarps` warps: default
/// layouts, coalescing, removal of the conversions that creates, and on
/// cuda:80 and newer software pipelining of dot operands over `numStages`
/// shared buffers (none below 2).
void buildTileGPUPipeline(mlir::OpPassManager &pm, const std::string &target,
                          unsigned numWarps, int numStages = 3);

/// tilegpu IR to the LLVM dialect (and the target's GPU dialect).
void buildLLVMPipeline(mlir::OpPassManager &pm);

/// Makes the pipelines available to textual pass pipelines
/// (`terrazzo-opt --terrazzo-tile-pipeline`, `--terrazzo-tilegpu-pipeline`,
/// `--terrazzo-llvm-pipeline`).
void registerPipelines();

} // namespace terrazzo

#endif // TERRAZZO_LIB_PIPELINE_H
