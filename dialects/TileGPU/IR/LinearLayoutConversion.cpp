#include "dialects/TileGPU/IR/LinearLayoutConversion.h"

#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/Layout/MmaLayouts.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"

using namespace mlir;
using namespace mlir::tilegpu;

std::optional<::terrazzo::LinearLayout>
mlir::tilegpu::toLinearLayout(ArrayRef<int64_t> shape, Attribute layout,
                              std::string *error) {
  auto reject = [&](std::string reason) -> std::optional<::terrazzo::LinearLayout> {
    if (error)
      *error = std::move(reason);
    return std::nullopt;
  };
  if (!layout)
    return reject("the tensor has no layout");
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    std::string reason = ::terrazzo::checkBlockedLayout(
        shape, blocked.getSizePerThread(), blocked.getThreadsPerWarp(),
        blocked.getWarpsPerCTA(), blocked.getOrder());
    if (!reason.empty())
      return reject(std::move(reason));
    return ::terrazzo::blockedLayout(shape, blocked.getSizePerThread(),
                                     blocked.getThreadsPerWarp(),
                                     blocked.getWarpsPerCTA(),
                                     blocked.getOrder());
  }
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    if (slice.getDim() > shape.size())
      return reject("dim " + std::to_string(slice.getDim()) +
                    " is out of range for a slice of rank " +
                    std::to_string(shape.size()));
    // The parent sees the sliced dimension with size 1: its lanes and warps
    // along it hold copies, and it needs no registers.
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + slice.getDim(), 1);
    std::optional<::terrazzo::LinearLayout> parent =
        toLinearLayout(parentShape, slice.getParent(), error);
    if (!parent)
      return std::nullopt;
    return ::terrazzo::sliceLayout(*parent, slice.getDim());
  }
  if (auto linear = dyn_cast<LinearLayoutAttr>(layout))
    return linearAttrToLinearLayout(linear, shape, error);
  if (auto mma = dyn_cast<NvidiaMmaLayoutAttr>(layout)) {
    unsigned instrN =
        mma.getInstrShape().size() >= 2 ? mma.getInstrShape()[1] : 0;
    std::string reason = ::terrazzo::checkNvidiaMmaLayout(
        shape, mma.getVersionMajor(), mma.getWarpsPerCTA(), instrN);
    if (!reason.empty())
      return reject(std::move(reason));
    return ::terrazzo::nvidiaMmaLayout(shape, mma.getVersionMajor(),
                                       mma.getWarpsPerCTA(), instrN);
  }
  if (auto mfma = dyn_cast<AmdMfmaLayoutAttr>(layout)) {
    unsigned size = mfma.getInstrShape().empty() ? 0 : mfma.getInstrShape()[0];
    std::string reason =
        ::terrazzo::checkAmdMfmaLayout(shape, mfma.getWarpsPerCTA(), size);
    if (!reason.empty())
      return reject(std::move(reason));
    return ::terrazzo::amdMfmaLayout(shape, mfma.getWarpsPerCTA(), size,
                                     mfma.getIsTransposed());
  }
  if (auto operand = dyn_cast<DotOperandLayoutAttr>(layout)) {
    if (auto mfma = dyn_cast<AmdMfmaLayoutAttr>(operand.getParent())) {
      unsigned size =
          mfma.getInstrShape().empty() ? 0 : mfma.getInstrShape()[0];
      std::string reason = ::terrazzo::checkMfmaOperandLayout(
          shape, operand.getOpIdx(), mfma.getWarpsPerCTA(), size,
          operand.getKWidth());
      if (!reason.empty())
        return reject(std::move(reason));
      return ::terrazzo::mfmaOperandLayout(shape, operand.getOpIdx(),
                                           mfma.getWarpsPerCTA(), size,
                                           operand.getKWidth());
    }
    auto mma = dyn_cast<NvidiaMmaLayoutAttr>(operand.getParent());
    if (!mma)
      return reject("the parent of a dot operand layout must be an MMA "
                    "layout");
    // wgmma's A in registers is mma.sync's A per warp, warps stacked along
    // M as in the accumulator (warp groups along N hold copies).
    if (mma.getVersionMajor() == 3 && operand.getOpIdx() != 0)
      return reject("a wgmma layout is the parent of operand A only");
    std::string reason = ::terrazzo::checkMmaV2OperandLayout(
        shape, operand.getOpIdx(), mma.getWarpsPerCTA(), operand.getKWidth());
    if (!reason.empty())
      return reject(std::move(reason));
    return ::terrazzo::mmaV2OperandLayout(shape, operand.getOpIdx(),
                                          mma.getWarpsPerCTA(),
                                          operand.getKWidth());
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << layout << " is not a distributed layout";
  return reject(std::move(text));
}
