//===- NamedLayouts.cpp - Named layouts as linear layouts -----------------===//

#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <vector>

using namespace terrazzo;

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::reportFatalInternalError("named layout: " + message);
}

bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

void checkPowersOfTwo(const char *what, llvm::ArrayRef<int64_t> values) {
  for (int64_t value : values)
    if (!isPowerOfTwo(value) || value > (int64_t(1) << 30))
      fail(llvm::Twine(what) + " entry " + llvm::Twine(value) +
           " is not a power of two in [1, 2^30]");
}

void checkPowersOfTwo(const char *what, llvm::ArrayRef<unsigned> values) {
  std::vector<int64_t> wide(values.begin(), values.end());
  checkPowersOfTwo(what, wide);
}

void checkOrder(llvm::ArrayRef<unsigned> order, size_t rank) {
  if (order.size() != rank)
    fail("order has " + llvm::Twine(order.size()) + " entries for rank " +
         llvm::Twine(rank));
  std::vector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      fail("order is not a permutation of 0.." + llvm::Twine(rank - 1));
    seen[dim] = true;
  }
}

const char *const kRegister = "register";
const char *const kLane = "lane";
const char *const kWarp = "warp";
const char *const kBlock = "block";

} // namespace

std::string terrazzo::tensorDimName(unsigned dim) {
  return "dim" + std::to_string(dim);
}

LinearLayout terrazzo::fitLayoutToShape(const LinearLayout &tile,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<unsigned> repeatOrder) {
  size_t rank = shape.size();
  checkPowersOfTwo("shape", shape);
  checkOrder(repeatOrder, rank);
  if (static_cast<size_t>(tile.getNumOutDims()) != rank)
    fail("the tile has " + llvm::Twine(tile.getNumOutDims()) +
         " output dimensions for a shape of rank " + llvm::Twine(rank));
  for (size_t d = 0; d < rank; ++d)
    if (tile.getOutDims()[d].first != tensorDimName(d))
      fail("the tile's output dimension " + llvm::Twine(d) + " is named '" +
           tile.getOutDims()[d].first + "', expected '" + tensorDimName(d) +
           "'");

  // Repeat the tile along dimensions where it is smaller than the shape. The
  // product appends the new register bases above the existing ones and puts
  // the repetition index in the high bits of the dimension.
  LinearLayout layout = tile;
  for (unsigned d : repeatOrder) {
    int64_t tileSize = tile.getOutDims()[d].second;
    if (shape[d] > tileSize)
      layout *=
          LinearLayout::identity1D(static_cast<int32_t>(shape[d] / tileSize),
                                   kRegister, tensorDimName(d));
  }

  // Wrap dimensions where the tile is larger than the shape: coordinates are
  // taken modulo the shape, which over GF(2) is masking every basis.
  LinearLayout::DimsT outDims = layout.getOutDims();
  std::vector<int32_t> masks;
  for (size_t d = 0; d < rank; ++d) {
    if (outDims[d].second > shape[d])
      outDims[d].second = static_cast<int32_t>(shape[d]);
    masks.push_back(outDims[d].second - 1);
  }
  LinearLayout::BasesT bases;
  for (const auto &[name, dimBases] : layout.getBases()) {
    std::vector<LinearLayout::Basis> wrapped;
    for (const LinearLayout::Basis &basis : dimBases) {
      LinearLayout::Basis masked = basis;
      bool isZero = true;
      for (size_t d = 0; d < rank; ++d) {
        masked[d] &= masks[d];
        isZero &= masked[d] == 0;
      }
      // A register that would only repeat an element already held by a lower
      // register of the same thread is dropped.
      if (isZero && name == kRegister)
        continue;
      wrapped.push_back(std::move(masked));
    }
    bases.emplace_back(name, std::move(wrapped));
  }
  return LinearLayout(std::move(bases), std::move(outDims));
}

LinearLayout terrazzo::blockedLayout(llvm::ArrayRef<int64_t> shape,
                                     llvm::ArrayRef<unsigned> sizePerThread,
                                     llvm::ArrayRef<unsigned> threadsPerWarp,
                                     llvm::ArrayRef<unsigned> warpsPerCTA,
                                     llvm::ArrayRef<unsigned> order) {
  size_t rank = shape.size();
  if (rank == 0)
    fail("blockedLayout needs a tensor of rank >= 1");
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    fail("blockedLayout: sizePerThread, threadsPerWarp and warpsPerCTA must "
         "have one entry per dimension (rank " +
         llvm::Twine(rank) + ")");
  checkPowersOfTwo("shape", shape);
  checkPowersOfTwo("sizePerThread", sizePerThread);
  checkPowersOfTwo("threadsPerWarp", threadsPerWarp);
  checkPowersOfTwo("warpsPerCTA", warpsPerCTA);
  checkOrder(order, rank);

  // The CTA tile: registers, then lanes, then warps, each enumerating the
  // dimensions fastest first. Starting from identity1D(1, ...) for every
  // input dimension fixes the input order register, lane, warp, block even
  // when some of them have size 1.
  LinearLayout tile = LinearLayout::identity1D(1, kRegister, tensorDimName(0)) *
                      LinearLayout::identity1D(1, kLane, tensorDimName(0)) *
                      LinearLayout::identity1D(1, kWarp, tensorDimName(0)) *
                      LinearLayout::identity1D(1, kBlock, tensorDimName(0));
  for (unsigned d : order)
    tile *=
        LinearLayout::identity1D(sizePerThread[d], kRegister, tensorDimName(d));
  for (unsigned d : order)
    tile *=
        LinearLayout::identity1D(threadsPerWarp[d], kLane, tensorDimName(d));
  for (unsigned d : order)
    tile *= LinearLayout::identity1D(warpsPerCTA[d], kWarp, tensorDimName(d));

  std::vector<std::string> names;
  for (size_t d = 0; d < rank; ++d)
    names.push_back(tensorDimName(d));
  return fitLayoutToShape(tile.transposeOuts(names), shape, order);
}

LinearLayout terrazzo::sliceLayout(const LinearLayout &parent, unsigned dim) {
  int rank = parent.getNumOutDims();
  if (static_cast<int>(dim) >= rank)
    fail("sliceLayout: dimension " + llvm::Twine(dim) +
         " out of range for a layout with " + llvm::Twine(rank) +
         " output dimensions");

  LinearLayout::DimsT outDims;
  for (int d = 0, next = 0; d < rank; ++d)
    if (d != static_cast<int>(dim))
      outDims.emplace_back(tensorDimName(next++),
                           parent.getOutDims()[d].second);

  LinearLayout::BasesT bases;
  for (const auto &[name, dimBases] : parent.getBases()) {
    std::vector<LinearLayout::Basis> sliced;
    for (const LinearLayout::Basis &basis : dimBases) {
      LinearLayout::Basis kept;
      bool isZero = true;
      for (int d = 0; d < rank; ++d) {
        if (d == static_cast<int>(dim))
          continue;
        kept.push_back(basis[d]);
        isZero &= basis[d] == 0;
      }
      if (isZero && name == kRegister)
        continue;
      sliced.push_back(std::move(kept));
    }
    bases.emplace_back(name, std::move(sliced));
  }
  return LinearLayout(std::move(bases), std::move(outDims));
}

LinearLayout terrazzo::identityStandard(llvm::ArrayRef<int64_t> shape,
                                        std::string inDim) {
  checkPowersOfTwo("shape", shape);
  if (shape.empty())
    return LinearLayout({{std::move(inDim), {}}}, {});
  // Last dimension fastest: its bits come first.
  LinearLayout layout = LinearLayout::empty();
  for (size_t d = shape.size(); d-- > 0;)
    layout *= LinearLayout::identity1D(static_cast<int32_t>(shape[d]), inDim,
                                       tensorDimName(d));
  std::vector<std::string> names;
  for (size_t d = 0; d < shape.size(); ++d)
    names.push_back(tensorDimName(d));
  return layout.transposeOuts(names);
}
