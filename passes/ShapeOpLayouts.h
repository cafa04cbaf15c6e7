// Layouts for the shape ops trans, reshape, join and split when tensors get
// their layouts (terrazzo-convert-tile-to-tilegpu).
#ifndef TERRAZZO_PASSES_SHAPEOPLAYOUTS_H
#define TERRAZZO_PASSES_SHAPEOPLAYOUTS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::terrazzo {

/// Reports (as errors) shape ops whose results no layout can describe:
/// tile.split of a 1-D block, whose halves are 0-D. Run before layouts are
/// assigned.
LogicalResult checkShapeOpsHaveLayouts(ModuleOp module);

/// For `op`, a tile.trans, tile.reshape, tile.join or tile.split whose
/// operands and results already have layouts (the defaults): gives its
/// results the layouts inferred from its operands' (ShapeLayoutInference.h),
/// so that the op only relabels registers, and converts them back to the
/// layouts they had for their users. A split whose source does not hold
/// both halves in one thread first gets its source converted to the layout
/// that the join of its results' layouts would have. Does nothing to other
/// ops; emits an error and fails when no layout can be inferred.
LogicalResult assignShapeOpLayouts(Operation *op);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_SHAPEOPLAYOUTS_H
