// The compilation pipelines, assembled in one place (DESIGN.md §4).
#ifndef TERRAZZO_LIB_PIPELINE_H
#define TERRAZZO_LIB_PIPELINE_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace terrazzo {

/// Target-independent simplification of tile IR: inline @jit helpers,
/// canonicalize, combine idioms, CSE, drop functions nothing calls.
void buildTilePipeline(mlir::OpPassManager &pm);

/// Makes the pipelines available to textual pass pipelines
/// (`terrazzo-opt --terrazzo-tile-pipeline`).
void registerPipelines();

} // namespace terrazzo

#endif // TERRAZZO_LIB_PIPELINE_H
