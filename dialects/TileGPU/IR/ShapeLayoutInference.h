// The layouts that make trans, reshape, join and split relabellings of
// registers (no data movement), as layout attributes: a blocked layout when
// one describes the inferred layout exactly, a #tilegpu.linear otherwise.
// The algebra is in dialects/TileGPU/Layout/ShapeLayouts.h; the lowering
// checks result layouts against it.
//
// The other direction (the source layout that makes an op a relabelling
// when its result must have a given layout, e.g. to move a conversion from
// after the op to before it) is the inference of the inverse op on the
// result's type: trans with the inverse permutation, reshape back to the
// source shape, split for a join's sources (null when the result does not
// hold its last dimension in registers) and join for a split's source.
#ifndef TERRAZZO_DIALECTS_TILEGPU_IR_SHAPELAYOUTINFERENCE_H
#define TERRAZZO_DIALECTS_TILEGPU_IR_SHAPELAYOUTINFERENCE_H

#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/Layout/LinearLayout.h"

namespace mlir::tilegpu {

/// The layout attribute for a tensor of `shape` whose linear layout must be
/// exactly `layout`: the first of `candidates` that gives it (null entries
/// are skipped), else a #tilegpu.linear. Null when `layout` is not a tensor
/// layout of that shape.
DistributedLayoutAttr
getLayoutAttrFor(MLIRContext *context, ArrayRef<int64_t> shape,
                 const ::terrazzo::LinearLayout &layout,
                 ArrayRef<Attribute> candidates = {});

/// The result layout of tile.trans with `order` of a source of `srcType`.
/// `preferred` (e.g. the default layout of the result shape) is taken when
/// it is the inferred layout. Null when the source has no distributed
/// layout.
DistributedLayoutAttr inferTransLayout(RankedTensorType srcType,
                                       ArrayRef<int32_t> order,
                                       Attribute preferred = {});

/// The result layout of tile.reshape of a source of `srcType` to `shape`
/// (elements in row-major order). Null when the source has no distributed
/// layout or a size is not a power of two.
DistributedLayoutAttr inferReshapeLayout(RankedTensorType srcType,
                                         ArrayRef<int64_t> shape,
                                         Attribute preferred = {});

/// The result layout of tile.join of two sources of `srcType`.
DistributedLayoutAttr inferJoinLayout(RankedTensorType srcType,
                                      Attribute preferred = {});

/// The layout of both results of tile.split of a source of `srcType`. Null
/// when the source's layout does not hold both halves of its last dimension
/// in the registers of one thread (convert the source first), or its rank
/// is 1.
DistributedLayoutAttr inferSplitLayout(RankedTensorType srcType,
                                       Attribute preferred = {});

} // namespace mlir::tilegpu

#endif // TERRAZZO_DIALECTS_TILEGPU_IR_SHAPELAYOUTINFERENCE_H
