#include "dialects/TileGPU/IR/ShapeLayoutInference.h"

#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/Layout/ShapeLayouts.h"

using namespace mlir;
using namespace mlir::tilegpu;
using ::terrazzo::LinearLayout;

namespace {

std::optional<LinearLayout> layoutOf(RankedTensorType type) {
  if (!isa_and_nonnull<DistributedLayoutAttr>(type.getEncoding()))
    return std::nullopt;
  return toLinearLayout(type.getShape(), type.getEncoding());
}

/// The blocked layout of trans(x, order) when x has `blocked`: the fields
/// follow their dimensions.
Attribute transposedBlocked(BlockedLayoutAttr blocked, ArrayRef<int32_t> order) {
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, newOrder;
  SmallVector<unsigned> position(order.size());
  for (auto [i, dim] : llvm::enumerate(order)) {
    sizePerThread.push_back(blocked.getSizePerThread()[dim]);
    threadsPerWarp.push_back(blocked.getThreadsPerWarp()[dim]);
    warpsPerCTA.push_back(blocked.getWarpsPerCTA()[dim]);
    position[dim] = i;
  }
  for (unsigned dim : blocked.getOrder())
    newOrder.push_back(position[dim]);
  return BlockedLayoutAttr::get(blocked.getContext(), sizePerThread,
                                threadsPerWarp, warpsPerCTA, newOrder);
}

/// The blocked layout of join(a, b) when a and b have `blocked`: the new
/// dimension has 2 elements per thread and is the fastest.
Attribute joinedBlocked(BlockedLayoutAttr blocked) {
  unsigned rank = blocked.getRank();
  SmallVector<unsigned> sizePerThread(blocked.getSizePerThread());
  SmallVector<unsigned> threadsPerWarp(blocked.getThreadsPerWarp());
  SmallVector<unsigned> warpsPerCTA(blocked.getWarpsPerCTA());
  sizePerThread.push_back(2);
  threadsPerWarp.push_back(1);
  warpsPerCTA.push_back(1);
  SmallVector<unsigned> order{rank};
  order.append(blocked.getOrder().begin(), blocked.getOrder().end());
  return BlockedLayoutAttr::get(blocked.getContext(), sizePerThread,
                                threadsPerWarp, warpsPerCTA, order);
}

/// The blocked layout of the halves of split(x) when x has `blocked`: the
/// last dimension dropped.
Attribute splitBlocked(BlockedLayoutAttr blocked) {
  unsigned last = blocked.getRank() - 1;
  if (last == 0)
    return {};
  SmallVector<unsigned> order;
  for (unsigned dim : blocked.getOrder())
    if (dim != last)
      order.push_back(dim);
  return BlockedLayoutAttr::get(blocked.getContext(),
                                blocked.getSizePerThread().drop_back(),
                                blocked.getThreadsPerWarp().drop_back(),
                                blocked.getWarpsPerCTA().drop_back(), order);
}

/// Blocked layouts that may describe `layout` on a tensor of `shape`: the
/// elements per thread read off the leading register bases, the order from
/// where each dimension first appears, and threads and warps spread either
/// as the compiler's default layouts spread them (over what each dimension
/// has left, the rest on the slowest dimension) or as the lane and warp
/// bases say. The caller checks which, if any, gives `layout`.
SmallVector<Attribute> blockedCandidates(MLIRContext *context,
                                         ArrayRef<int64_t> shape,
                                         const LinearLayout &layout) {
  unsigned rank = shape.size();
  if (rank == 0 || layout.getNumOutDims() != int(rank))
    return {};
  auto bases = [&](const char *name) -> std::vector<LinearLayout::Basis> {
    if (!layout.hasInDim(name))
      return {};
    std::vector<LinearLayout::Basis> list;
    for (int i = 0, e = layout.getInDimSizeLog2(name); i < e; ++i)
      list.push_back(layout.getBasis(name, i));
    return list;
  };
  /// The dimension a basis moves along, if it moves along exactly one.
  auto dimOf = [&](const LinearLayout::Basis &basis) -> std::optional<unsigned> {
    std::optional<unsigned> dim;
    for (unsigned d = 0; d < rank; ++d)
      if (basis[d]) {
        if (dim)
          return std::nullopt;
        dim = d;
      }
    return dim;
  };
  std::vector<LinearLayout::Basis> registers = bases("register"),
                                   lanes = bases("lane"), warps = bases("warp");

  // Elements per thread: the leading register bases 1, 2, 4, .. along one
  // dimension after another.
  SmallVector<unsigned> sizePerThread(rank, 1);
  SmallVector<unsigned> order;
  std::optional<unsigned> current;
  for (const LinearLayout::Basis &basis : registers) {
    std::optional<unsigned> dim = dimOf(basis);
    if (!dim || basis[*dim] != int32_t(sizePerThread[*dim]))
      break;
    if (dim != current) {
      if (llvm::is_contained(order, *dim))
        break;
      order.push_back(*dim);
      current = dim;
    }
    sizePerThread[*dim] *= 2;
  }
  auto appear = [&](const std::vector<LinearLayout::Basis> &list) {
    for (const LinearLayout::Basis &basis : list)
      if (std::optional<unsigned> dim = dimOf(basis))
        if (!llvm::is_contained(order, *dim))
          order.push_back(*dim);
  };
  appear(lanes);
  appear(warps);
  appear(registers);
  for (unsigned d = rank; d-- > 0;)
    if (!llvm::is_contained(order, d))
      order.push_back(d);

  SmallVector<Attribute> candidates;
  // As the default layouts spread threads and warps.
  {
    SmallVector<unsigned> threads(rank, 1), warpsPer(rank, 1);
    SmallVector<int64_t> remaining(rank);
    for (unsigned d = 0; d < rank; ++d)
      remaining[d] = std::max<int64_t>(1, shape[d] / sizePerThread[d]);
    auto spread = [&](unsigned count, SmallVector<unsigned> &per) {
      for (unsigned d : order) {
        unsigned take = std::min<int64_t>(count, remaining[d]);
        per[d] = take;
        count /= take;
        remaining[d] /= take;
      }
      per[order.back()] *= count;
    };
    spread(1u << lanes.size(), threads);
    spread(1u << warps.size(), warpsPer);
    candidates.push_back(BlockedLayoutAttr::get(context, sizePerThread, threads,
                                                warpsPer, order));
  }
  // As the bases say; bases that wrap to zero count for the slowest
  // dimension.
  {
    auto count = [&](const std::vector<LinearLayout::Basis> &list) {
      SmallVector<unsigned> per(rank, 1);
      for (const LinearLayout::Basis &basis : list) {
        std::optional<unsigned> dim = dimOf(basis);
        per[dim ? *dim : order.back()] *= 2;
      }
      return per;
    };
    candidates.push_back(BlockedLayoutAttr::get(
        context, sizePerThread, count(lanes), count(warps), order));
  }
  return candidates;
}

} // namespace

DistributedLayoutAttr
mlir::tilegpu::getLayoutAttrFor(MLIRContext *context, ArrayRef<int64_t> shape,
                                const LinearLayout &layout,
                                ArrayRef<Attribute> candidates) {
  for (Attribute candidate : candidates) {
    auto distributed = dyn_cast_or_null<DistributedLayoutAttr>(candidate);
    if (!distributed || distributed.getRank() != shape.size())
      continue;
    std::optional<LinearLayout> candidateLayout =
        toLinearLayout(shape, candidate);
    if (candidateLayout && *candidateLayout == layout)
      return distributed;
  }
  for (Attribute candidate : blockedCandidates(context, shape, layout)) {
    // Valid by construction: powers of two and a permutation.
    std::optional<LinearLayout> candidateLayout =
        toLinearLayout(shape, candidate);
    if (candidateLayout && *candidateLayout == layout)
      return cast<BlockedLayoutAttr>(candidate);
  }
  auto linear =
      dyn_cast_or_null<LinearLayoutAttr>(getLinearLayoutAttr(context, layout));
  if (!linear)
    return {};
  std::optional<LinearLayout> check = toLinearLayout(shape, linear);
  if (!check || *check != layout)
    return {};
  return linear;
}

DistributedLayoutAttr mlir::tilegpu::inferTransLayout(RankedTensorType srcType,
                                                      ArrayRef<int32_t> order,
                                                      Attribute preferred) {
  std::optional<LinearLayout> src = layoutOf(srcType);
  if (!src)
    return {};
  std::optional<LinearLayout> result = ::terrazzo::transposeLayout(*src, order);
  if (!result)
    return {};
  SmallVector<int64_t> shape;
  for (int32_t dim : order)
    shape.push_back(srcType.getDimSize(dim));
  Attribute structural;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(srcType.getEncoding()))
    structural = transposedBlocked(blocked, order);
  return getLayoutAttrFor(srcType.getContext(), shape, *result,
                          {preferred, structural});
}

DistributedLayoutAttr
mlir::tilegpu::inferReshapeLayout(RankedTensorType srcType,
                                  ArrayRef<int64_t> shape,
                                  Attribute preferred) {
  std::optional<LinearLayout> src = layoutOf(srcType);
  if (!src)
    return {};
  std::optional<LinearLayout> result = ::terrazzo::reshapeLayout(*src, shape);
  if (!result)
    return {};
  return getLayoutAttrFor(srcType.getContext(), shape, *result, {preferred});
}

DistributedLayoutAttr mlir::tilegpu::inferJoinLayout(RankedTensorType srcType,
                                                     Attribute preferred) {
  std::optional<LinearLayout> src = layoutOf(srcType);
  if (!src)
    return {};
  LinearLayout result = ::terrazzo::joinLayout(*src);
  SmallVector<int64_t> shape(srcType.getShape());
  shape.push_back(2);
  Attribute structural;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(srcType.getEncoding()))
    structural = joinedBlocked(blocked);
  return getLayoutAttrFor(srcType.getContext(), shape, result,
                          {preferred, structural});
}

DistributedLayoutAttr mlir::tilegpu::inferSplitLayout(RankedTensorType srcType,
                                                      Attribute preferred) {
  std::optional<LinearLayout> src = layoutOf(srcType);
  if (!src)
    return {};
  std::optional<LinearLayout> result = ::terrazzo::splitLayout(*src);
  if (!result)
    return {};
  Attribute structural;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(srcType.getEncoding()))
    structural = splitBlocked(blocked);
  return getLayoutAttrFor(srcType.getContext(), srcType.getShape().drop_back(),
                          *result, {preferred, structural});
}
