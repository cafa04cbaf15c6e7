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

/// log2 of an entry that must be a power of two in [1, 2^kMaxDimBits], or
/// -1 (and the reason in *error) when it is not.
int log2Entry(const char *what, int64_t value, std::string &error) {
  if (!isPowerOfTwo(value) ||
      value > (int64_t(1) << LinearLayout::kMaxDimBits)) {
    error = std::string(what) + " entry " + std::to_string(value) +
            " is not a power of two in [1, 2^" +
            std::to_string(LinearLayout::kMaxDimBits) + "]";
    return -1;
  }
  return llvm::Log2_64(uint64_t(value));
}

std::string checkEntries(const char *what, llvm::ArrayRef<int64_t> values) {
  std::string error;
  for (int64_t value : values)
    if (log2Entry(what, value, error) < 0)
      return error;
  return error;
}

std::string checkEntries(const char *what, llvm::ArrayRef<unsigned> values) {
  std::vector<int64_t> wide(values.begin(), values.end());
  return checkEntries(what, wide);
}

std::string checkOrder(llvm::ArrayRef<unsigned> order, size_t rank) {
  if (order.size() != rank)
    return "order has " + std::to_string(order.size()) +
           " entries for rank " + std::to_string(rank);
  std::vector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return "order is not a permutation of 0.." + std::to_string(rank - 1);
    seen[dim] = true;
  }
  return "";
}

void check(const std::string &error) {
  if (!error.empty())
    fail(error);
}

const char *const kRegister = "register";
const char *const kLane = "lane";
const char *const kWarp = "warp";
const char *const kBlock = "block";

} // namespace

std::string terrazzo::tensorDimName(unsigned dim) {
  return "dim" + std::to_string(dim);
}

std::string terrazzo::checkTensorShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "a distributed layout needs a tensor of rank >= 1";
  return checkEntries("shape", shape);
}

std::string terrazzo::checkFitToShape(llvm::ArrayRef<int> tileBits,
                                      int registerBits, int laneBits,
                                      int warpBits,
                                      llvm::ArrayRef<int64_t> shape) {
  const int maxDim = LinearLayout::kMaxDimBits;
  const int maxTotal = LinearLayout::kMaxTotalBits;
  if (tileBits.size() != shape.size())
    return "the layout has rank " + std::to_string(tileBits.size()) +
           " but the tensor " + std::to_string(shape.size());
  int outBits = 0, repeatBits = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (tileBits[d] > maxDim)
      return "the layout's tile spans 2^" + std::to_string(tileBits[d]) +
             " elements along dimension " + std::to_string(d) +
             "; at most 2^" + std::to_string(maxDim) + " are supported";
    int shapeBits = llvm::Log2_64(uint64_t(shape[d]));
    repeatBits += std::max(0, shapeBits - tileBits[d]);
    outBits += std::max(0, std::max(shapeBits, tileBits[d]));
  }
  auto atMost = [](int most) {
    return "; at most 2^" + std::to_string(most) + " are supported";
  };
  int inBits = registerBits + repeatBits + laneBits + warpBits;
  if (registerBits + repeatBits > maxDim)
    return "a thread would hold 2^" + std::to_string(registerBits + repeatBits) +
           " elements" + atMost(maxDim);
  if (laneBits > maxDim)
    return "the layout has 2^" + std::to_string(laneBits) +
           " lanes per warp" + atMost(maxDim);
  if (warpBits > maxDim)
    return "the layout has 2^" + std::to_string(warpBits) + " warps" +
           atMost(maxDim);
  if (inBits > maxTotal)
    return "the layout has 2^" + std::to_string(inBits) +
           " registers, lanes and warps in all" + atMost(maxTotal);
  if (outBits > maxTotal)
    return "the layout spans 2^" + std::to_string(outBits) + " elements" +
           atMost(maxTotal);
  return "";
}

std::string terrazzo::checkBlockedLayout(llvm::ArrayRef<int64_t> shape,
                                         llvm::ArrayRef<unsigned> sizePerThread,
                                         llvm::ArrayRef<unsigned> threadsPerWarp,
                                         llvm::ArrayRef<unsigned> warpsPerCTA,
                                         llvm::ArrayRef<unsigned> order) {
  size_t rank = shape.size();
  if (std::string error = checkTensorShape(shape); !error.empty())
    return error;
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return "sizePerThread, threadsPerWarp and warpsPerCTA must have one "
           "entry per dimension (rank " +
           std::to_string(rank) + ")";
  for (auto [what, values] :
       {std::pair<const char *, llvm::ArrayRef<unsigned>>{"sizePerThread",
                                                          sizePerThread},
        {"threadsPerWarp", threadsPerWarp},
        {"warpsPerCTA", warpsPerCTA}})
    if (std::string error = checkEntries(what, values); !error.empty())
      return error;
  if (std::string error = checkOrder(order, rank); !error.empty())
    return error;
  std::vector<int> tileBits;
  int registerBits = 0, laneBits = 0, warpBits = 0;
  for (size_t d = 0; d < rank; ++d) {
    int s = llvm::Log2_32(sizePerThread[d]), t = llvm::Log2_32(threadsPerWarp[d]),
        w = llvm::Log2_32(warpsPerCTA[d]);
    tileBits.push_back(s + t + w);
    registerBits += s;
    laneBits += t;
    warpBits += w;
  }
  return checkFitToShape(tileBits, registerBits, laneBits, warpBits, shape);
}

LinearLayout terrazzo::fitLayoutToShape(const LinearLayout &tile,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<unsigned> repeatOrder) {
  size_t rank = shape.size();
  check(checkEntries("shape", shape));
  check(checkOrder(repeatOrder, rank));
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
  check(checkBlockedLayout(shape, sizePerThread, threadsPerWarp, warpsPerCTA,
                           order));

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
  check(checkEntries("shape", shape));
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
