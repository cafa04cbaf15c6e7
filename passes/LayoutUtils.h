// Layout choices shared by the passes that assign layouts.
#ifndef TERRAZZO_PASSES_LAYOUTUTILS_H
#define TERRAZZO_PASSES_LAYOUTUTILS_H

#include "dialects/TileGPU/IR/TileGPU.h"

namespace mlir::terrazzo {

/// The layout every tensor starts with: one element per thread per
/// repetition, lanes along the fastest (last) dimension first, then warps,
/// so that a warp covers contiguous memory of a row-major tensor.
tilegpu::BlockedLayoutAttr getDefaultBlockedLayout(MLIRContext *context,
                                                   ArrayRef<int64_t> shape,
                                                   unsigned numWarps,
                                                   unsigned threadsPerWarp);

/// A blocked layout with `sizePerThread` consecutive elements per thread
/// along `order` (fastest first); lanes and warps are spread like the
/// default layout over what remains of the shape.
tilegpu::BlockedLayoutAttr
getBlockedLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                 ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> order,
                 unsigned numWarps, unsigned threadsPerWarp);

/// Checks that `module` is tilegpu IR for `pass`: every tensor (results,
/// block arguments) has a distributed layout. Otherwise reports, at the
/// first op holding one that has none, that `pass` needs
/// terrazzo-convert-tile-to-tilegpu first.
LogicalResult verifyTensorsHaveLayouts(ModuleOp module, StringRef pass);

/// `type` with `encoding`, or `type` itself when it is not a tensor.
Type withEncoding(Type type, Attribute encoding);

/// `value` converted to `layout` with a tilegpu.convert_layout at the
/// builder's insertion point; `value` itself when it already has that
/// layout or is not a tensor.
Value convertToLayout(OpBuilder &builder, Location loc, Value value,
                      Attribute layout);

} // namespace mlir::terrazzo

#endif // TERRAZZO_PASSES_LAYOUTUTILS_H
