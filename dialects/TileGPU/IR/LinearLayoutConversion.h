// The named layouts of tilegpu as linear layouts (DESIGN.md §3).
#ifndef TERRAZZO_DIALECTS_TILEGPU_IR_LINEARLAYOUTCONVERSION_H
#define TERRAZZO_DIALECTS_TILEGPU_IR_LINEARLAYOUTCONVERSION_H

#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "mlir/IR/Attributes.h"

#include <optional>
#include <string>

namespace mlir::tilegpu {

/// The linear layout that `layout` gives a tensor of `shape` (in dims
/// register, lane, warp, block; out dims dim0..), or nullopt (and the
/// reason in *error) for attributes that are not distributed layouts and
/// for shapes the layout cannot describe. Never a fatal error, whatever
/// the arguments: verifiers and passes ask it about any type.
std::optional<::terrazzo::LinearLayout>
toLinearLayout(ArrayRef<int64_t> shape, Attribute layout,
               std::string *error = nullptr);

class LinearLayoutAttr;

/// The layout a #tilegpu.linear gives a tensor of `shape` (see its
/// description), or nullopt (and the reason in *error) when the shape does
/// not fit it.
std::optional<::terrazzo::LinearLayout>
linearAttrToLinearLayout(LinearLayoutAttr attr, ArrayRef<int64_t> shape,
                         std::string *error = nullptr);

/// The #tilegpu.linear attribute holding `layout` (in dims among register,
/// lane, warp and block; out dims in order), or null for a layout that no
/// #tilegpu.linear describes.
Attribute getLinearLayoutAttr(MLIRContext *context,
                              const ::terrazzo::LinearLayout &layout);

} // namespace mlir::tilegpu

#endif // TERRAZZO_DIALECTS_TILEGPU_IR_LINEARLAYOUTCONVERSION_H
