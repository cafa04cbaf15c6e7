// terrazzo-coalesce: see Passes.td.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"
#include "passes/LayoutUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/bit.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOCOALESCE
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

constexpr int64_t kMaxAccessBytes = 16;

/// With more than one warp group, a layout whose warps tile the slowest
/// dimension in turns (warp w holding rows w, w + W, ... of that dimension,
/// in blocks) gives each thread those repetitions as consecutive elements
/// instead, so that each warp holds one band of whole rows and each warp
/// group the band the tensor cores give it (a wgmma's rows 64 g to 64 g +
/// 63 over the groups): the shared memory such a tensor is stored to for a
/// wgmma, or read back from, is then touched by one warp group per row, and
/// terrazzo-insert-barriers orders it with a barrier of each group or warp
/// instead of the program's. The accesses to global memory are the same
/// (each instruction covers the same rows and columns of a warp).
tilegpu::BlockedLayoutAttr bandByWarps(tilegpu::BlockedLayoutAttr layout,
                                       ArrayRef<int64_t> shape,
                                       unsigned numWarps) {
  ArrayRef<unsigned> order = layout.getOrder();
  if (numWarps <= tilegpu::kWarpsPerGroup || shape.size() < 2)
    return layout;
  unsigned slowest = order.back();
  SmallVector<unsigned> sizePerThread(layout.getSizePerThread());
  int64_t covered = int64_t(sizePerThread[slowest]) *
                    layout.getThreadsPerWarp()[slowest] *
                    layout.getWarpsPerCTA()[slowest];
  if (layout.getWarpsPerCTA()[slowest] == 1 || covered >= shape[slowest] ||
      shape[slowest] % covered)
    return layout;
  sizePerThread[slowest] *= shape[slowest] / covered;
  return tilegpu::BlockedLayoutAttr::get(layout.getContext(), sizePerThread,
                                         layout.getThreadsPerWarp(),
                                         layout.getWarpsPerCTA(), order);
}

/// The layout that makes the accesses through `ptr` coalesced and as wide
/// as the addresses allow, up to `maxAccessBytes` per thread.
tilegpu::BlockedLayoutAttr
chooseLayout(const ModuleAxisInfoAnalysis &axisInfo, Value ptr,
             unsigned numWarps, unsigned threadsPerWarp, bool bandRows,
             int64_t maxAccessBytes = kMaxAccessBytes) {
  auto type = cast<RankedTensorType>(ptr.getType());
  const AxisInfo *info = axisInfo.getAxisInfo(ptr);
  unsigned rank = type.getRank();
  // Most contiguous dimension first; ties keep row-major preference.
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  if (info)
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return info->getContiguity(a) > info->getContiguity(b);
    });
  unsigned fastest = order.front();

  auto pointer = cast<tile::PointerType>(type.getElementType());
  int64_t elementBytes =
      std::max<int64_t>(1, tile::getElementBitWidth(pointer.getPointeeType()) / 8);
  int64_t perThread = 1;
  if (info) {
    int64_t alignedElements =
        std::max<int64_t>(1, info->getDivisibility(fastest) / elementBytes);
    perThread = std::min({info->getContiguity(fastest), alignedElements,
                          std::max<int64_t>(1, maxAccessBytes / elementBytes)});
  }
  // Every thread keeps at least one element.
  int64_t perThreadIfAllBusy = std::max<int64_t>(
      1, type.getNumElements() / int64_t(numWarps * threadsPerWarp));
  perThread = std::min(perThread, perThreadIfAllBusy);
  perThread = std::min<int64_t>(perThread, type.getDimSize(fastest));
  perThread = llvm::bit_floor(uint64_t(std::max<int64_t>(1, perThread)));

  SmallVector<unsigned> sizePerThread(rank, 1);
  sizePerThread[fastest] = perThread;
  tilegpu::BlockedLayoutAttr layout =
      getBlockedLayout(type.getContext(), type.getShape(), sizePerThread, order,
                       numWarps, threadsPerWarp);
  return bandRows ? bandByWarps(layout, type.getShape(), numWarps) : layout;
}

/// Whether `function`'s accesses get bands of rows under `where`.
bool bandsRows(FunctionOpInterface function, BandRows where) {
  if (where != BandRows::WarpSpecialized)
    return where == BandRows::Always;
  return tile::holdsWarpSpecializedLoop(function);
}

/// Puts `op` in `layout`: its tensor operands are converted to it and its
/// tensor results converted back for their users.
void setLayout(Operation *op, Attribute layout) {
  OpBuilder builder(op);
  for (OpOperand &operand : op->getOpOperands())
    operand.set(convertToLayout(builder, op->getLoc(), operand.get(), layout));
  builder.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      continue;
    result.setType(type.cloneWithEncoding(layout));
    auto back = tilegpu::ConvertLayoutOp::create(builder, op->getLoc(), type,
                                                 result);
    result.replaceAllUsesExcept(back, back);
  }
}

struct CoalescePass
    : public mlir::terrazzo::impl::TerrazzoCoalesceBase<CoalescePass> {
  using TerrazzoCoalesceBase::TerrazzoCoalesceBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyTensorsHaveLayouts(module, getArgument())))
      return signalPassFailure();
    ModuleAxisInfoAnalysis axisInfo(module);
    unsigned numWarps = tilegpu::getNumWarps(module);
    unsigned threadsPerWarp = tilegpu::getThreadsPerWarp(module);

    // Decide every layout before changing the IR the analysis describes.
    SmallVector<std::pair<Operation *, Attribute>> decisions;
    module.walk([&](FunctionOpInterface function) {
      bool band = bandsRows(function, bandRows);
      function.walk([&](Operation *op) {
        Value ptr;
        int64_t maxAccessBytes = kMaxAccessBytes;
        if (auto load = dyn_cast<tile::LoadOp>(op)) {
          ptr = load.getPtr();
        } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
          ptr = store.getPtr();
        } else if (auto rmw = dyn_cast<tile::AtomicRMWOp>(op)) {
          // Atomics go one element at a time, except f16/bf16 adds, which
          // go in pairs (f16x2/bf16x2) where two elements are adjacent.
          ptr = rmw.getPtr();
          Type element = getElementTypeOrSelf(rmw.getVal().getType());
          maxAccessBytes = rmw.getRmwOp() == tile::RMWOp::FAdd &&
                                   (element.isF16() || element.isBF16())
                               ? 4
                               : 1;
        } else if (auto cas = dyn_cast<tile::AtomicCASOp>(op)) {
          ptr = cas.getPtr();
          maxAccessBytes = 1;
        }
        if (!ptr || !isa<RankedTensorType>(ptr.getType()))
          return;
        Attribute layout = chooseLayout(axisInfo, ptr, numWarps, threadsPerWarp,
                                        band, maxAccessBytes);
        if (layout != cast<RankedTensorType>(ptr.getType()).getEncoding())
          decisions.emplace_back(op, layout);
      });
    });
    for (auto [op, layout] : decisions)
      setLayout(op, layout);
  }
};

} // namespace
