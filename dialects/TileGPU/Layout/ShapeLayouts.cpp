//===- ShapeLayouts.cpp - Layouts of reshaped tensors ---------------------===//

#include "dialects/TileGPU/Layout/ShapeLayouts.h"

#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include <vector>

using namespace terrazzo;

namespace {

const char *const kRegister = "register";

bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

/// The out dims dim0.. with the given sizes.
LinearLayout::DimsT tensorDims(llvm::ArrayRef<int64_t> shape) {
  LinearLayout::DimsT dims;
  for (size_t d = 0; d < shape.size(); ++d)
    dims.emplace_back(tensorDimName(d), static_cast<int32_t>(shape[d]));
  return dims;
}

/// `layout`'s bases with `fn` applied to every basis.
template <typename Fn>
LinearLayout::BasesT mapBases(const LinearLayout &layout, Fn fn) {
  LinearLayout::BasesT bases;
  for (const auto &[name, list] : layout.getBases()) {
    std::vector<LinearLayout::Basis> mapped;
    for (const LinearLayout::Basis &basis : list)
      mapped.push_back(fn(basis));
    bases.emplace_back(name, std::move(mapped));
  }
  return bases;
}

} // namespace

std::optional<LinearLayout>
terrazzo::transposeLayout(const LinearLayout &layout,
                          llvm::ArrayRef<int32_t> order) {
  size_t rank = layout.getNumOutDims();
  if (order.size() != rank)
    return std::nullopt;
  std::vector<bool> seen(rank, false);
  for (int32_t dim : order) {
    if (dim < 0 || size_t(dim) >= rank || seen[dim])
      return std::nullopt;
    seen[dim] = true;
  }
  std::vector<int64_t> shape;
  for (int32_t dim : order)
    shape.push_back(layout.getOutDims()[dim].second);
  auto bases = mapBases(layout, [&](const LinearLayout::Basis &basis) {
    LinearLayout::Basis permuted;
    for (int32_t dim : order)
      permuted.push_back(basis[dim]);
    return permuted;
  });
  return LinearLayout::tryCreate(std::move(bases), tensorDims(shape));
}

std::optional<LinearLayout>
terrazzo::reshapeLayout(const LinearLayout &layout,
                        llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> from;
  for (const auto &[name, size] : layout.getOutDims())
    from.push_back(size);
  int64_t fromCount = 1, toCount = 1;
  for (int64_t size : from)
    fromCount *= size;
  for (int64_t size : shape) {
    if (!isPowerOfTwo(size))
      return std::nullopt;
    toCount *= size;
  }
  if (fromCount != toCount)
    return std::nullopt;
  // With power-of-two sizes the row-major index is the concatenation of the
  // coordinates' bits, so it is linear (XOR of indices = index of XORs).
  auto bases = mapBases(layout, [&](const LinearLayout::Basis &basis) {
    int64_t flat = 0;
    for (size_t d = 0; d < from.size(); ++d)
      flat = flat * from[d] + basis[d];
    LinearLayout::Basis result(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      result[d] = static_cast<int32_t>(flat % shape[d]);
      flat /= shape[d];
    }
    return result;
  });
  return LinearLayout::tryCreate(std::move(bases), tensorDims(shape));
}

LinearLayout terrazzo::joinLayout(const LinearLayout &layout) {
  std::vector<int64_t> shape;
  for (const auto &[name, size] : layout.getOutDims())
    shape.push_back(size);
  shape.push_back(2);
  auto bases = mapBases(layout, [](const LinearLayout::Basis &basis) {
    LinearLayout::Basis extended = basis;
    extended.push_back(0);
    return extended;
  });
  LinearLayout::Basis newBit(shape.size(), 0);
  newBit.back() = 1;
  bool found = false;
  for (auto &[name, list] : bases)
    if (name == kRegister) {
      list.insert(list.begin(), newBit);
      found = true;
    }
  if (!found)
    bases.insert(bases.begin(), {kRegister, {newBit}});
  return LinearLayout(std::move(bases), tensorDims(shape));
}

std::optional<int> terrazzo::splitRegisterBit(const LinearLayout &layout) {
  int rank = layout.getNumOutDims();
  if (rank == 0 || layout.getOutDims().back().second != 2)
    return std::nullopt;
  std::optional<int> bit;
  for (const auto &[name, list] : layout.getBases())
    for (size_t i = 0; i < list.size(); ++i) {
      const LinearLayout::Basis &basis = list[i];
      if (basis.back() == 0)
        continue;
      bool unit = name == kRegister && !bit;
      for (int d = 0; d + 1 < rank; ++d)
        unit &= basis[d] == 0;
      if (!unit)
        return std::nullopt;
      bit = static_cast<int>(i);
    }
  return bit;
}

std::optional<LinearLayout> terrazzo::splitLayout(const LinearLayout &layout) {
  std::optional<int> bit = splitRegisterBit(layout);
  if (!bit || layout.getNumOutDims() < 2)
    return std::nullopt;
  std::vector<int64_t> shape;
  for (const auto &[name, size] : layout.getOutDims())
    shape.push_back(size);
  shape.pop_back();
  LinearLayout::BasesT bases;
  for (const auto &[name, list] : layout.getBases()) {
    std::vector<LinearLayout::Basis> kept;
    for (size_t i = 0; i < list.size(); ++i) {
      if (name == kRegister && int(i) == *bit)
        continue;
      LinearLayout::Basis basis = list[i];
      basis.pop_back();
      kept.push_back(std::move(basis));
    }
    bases.emplace_back(name, std::move(kept));
  }
  return LinearLayout::tryCreate(std::move(bases), tensorDims(shape));
}

int32_t terrazzo::splitSourceRegister(int32_t reg, int bit, int half) {
  int32_t low = reg & ((int32_t(1) << bit) - 1);
  int32_t high = (reg >> bit) << (bit + 1);
  return high | (int32_t(half) << bit) | low;
}
