#include "dialects/TileGPU/IR/LinearLayoutConversion.h"

#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/Layout/MmaLayouts.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"

using namespace mlir;
using namespace mlir::tilegpu;

std::optional<::terrazzo::LinearLayout>
mlir::tilegpu::toLinearLayout(ArrayRef<int64_t> shape, Attribute layout) {
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
    return ::terrazzo::blockedLayout(shape, blocked.getSizePerThread(),
                                     blocked.getThreadsPerWarp(),
                                     blocked.getWarpsPerCTA(),
                                     blocked.getOrder());
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    // The parent sees the sliced dimension with size 1: its lanes and warps
    // along it hold copies, and it needs no registers.
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + slice.getDim(), 1);
    std::optional<::terrazzo::LinearLayout> parent =
        toLinearLayout(parentShape, slice.getParent());
    if (!parent)
      return std::nullopt;
    return ::terrazzo::sliceLayout(*parent, slice.getDim());
  }
  if (auto linear = dyn_cast<LinearLayoutAttr>(layout))
    return linearAttrToLinearLayout(linear, shape);
  if (auto mma = dyn_cast<NvidiaMmaLayoutAttr>(layout)) {
    if (shape.size() != 2)
      return std::nullopt;
    return ::terrazzo::nvidiaMmaLayout(shape, mma.getVersionMajor(),
                                       mma.getWarpsPerCTA(),
                                       mma.getInstrShape()[1]);
  }
  if (auto operand = dyn_cast<DotOperandLayoutAttr>(layout)) {
    auto mma = dyn_cast<NvidiaMmaLayoutAttr>(operand.getParent());
    if (shape.size() != 2 || !mma)
      return std::nullopt;
    // wgmma's A in registers is mma.sync's A per warp, warps stacked along
    // M as in the accumulator (warp groups along N hold copies).
    if (mma.getVersionMajor() == 3 && operand.getOpIdx() != 0)
      return std::nullopt;
    return ::terrazzo::mmaV2OperandLayout(shape, operand.getOpIdx(),
                                          mma.getWarpsPerCTA(),
                                          operand.getKWidth());
  }
  return std::nullopt;
}
