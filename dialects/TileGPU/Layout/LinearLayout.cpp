//===- LinearLayout.cpp - Linear layouts over GF(2) -----------------------===//

#include "dialects/TileGPU/Layout/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <array>

using namespace terrazzo;

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::reportFatalInternalError("LinearLayout: " + message);
}

bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

uint64_t lowMask(int bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

/// Gaussian elimination over GF(2), done incrementally.
///
/// Vectors are bit sets in a uint64_t. Columns are inserted one at a time; an
/// inserted column that is not the XOR of earlier ones becomes a *pivot*. The
/// eliminator keeps one reduced vector per leading bit (its most significant
/// set bit), together with the set of pivot columns whose XOR it is, so that
/// any vector in the span can be written back as a combination of pivot
/// columns. Because a column is a pivot iff it is independent of all the
/// columns inserted before it, the pivots are the lexicographically first
/// basis of the column space, whatever the reduction order.
class F2Eliminator {
public:
  /// Inserts column number `index` (< 64). Returns true if it is a pivot.
  bool insert(uint64_t column, int index) {
    uint64_t combination = uint64_t(1) << index;
    reduce(column, combination);
    if (column == 0)
      return false;
    int lead = 63 - llvm::countl_zero(column);
    reduced[lead] = column;
    combinations[lead] = combination;
    present |= uint64_t(1) << lead;
    ++rank;
    return true;
  }

  /// The set of pivot columns whose XOR is `target`, or std::nullopt when
  /// `target` is not in the span of the inserted columns.
  std::optional<uint64_t> solve(uint64_t target) const {
    uint64_t combination = 0;
    reduce(target, combination);
    if (target != 0)
      return std::nullopt;
    return combination;
  }

  int getRank() const { return rank; }

private:
  void reduce(uint64_t &vector, uint64_t &combination) const {
    // Clear leading bits from the top down: XOR-ing reduced[b] clears bit b
    // and only touches lower bits.
    for (int bit = 63; bit >= 0; --bit) {
      if (((vector & present) >> bit) & 1) {
        vector ^= reduced[bit];
        combination ^= combinations[bit];
      }
    }
  }

  std::array<uint64_t, 64> reduced{};
  std::array<uint64_t, 64> combinations{};
  uint64_t present = 0;
  int rank = 0;
};

F2Eliminator eliminate(const std::vector<uint64_t> &columns) {
  F2Eliminator elim;
  for (size_t i = 0; i < columns.size(); ++i)
    elim.insert(columns[i], static_cast<int>(i));
  return elim;
}

template <typename Range> int findDim(const Range &dims, llvm::StringRef name) {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].first == name)
      return static_cast<int>(i);
  return -1;
}

std::string joinNames(llvm::ArrayRef<std::string> names) {
  return "[" + llvm::join(names, ", ") + "]";
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

std::optional<std::string> LinearLayout::verify(const BasesT &bases,
                                                const DimsT &outDims) {
  std::string message;
  llvm::raw_string_ostream os(message);

  llvm::StringSet<> seenOut;
  int totalOutBits = 0;
  for (const auto &[name, size] : outDims) {
    if (!seenOut.insert(name).second) {
      os << "output dimension '" << name << "' appears twice";
      return message;
    }
    if (!isPowerOfTwo(size)) {
      os << "output dimension '" << name << "' has size " << size
         << ", which is not a positive power of two";
      return message;
    }
    totalOutBits += llvm::Log2_64(size);
  }
  if (totalOutBits > kMaxTotalBits) {
    os << "the output dimensions have " << totalOutBits
       << " bits in total; at most " << kMaxTotalBits << " are supported";
    return message;
  }

  llvm::StringSet<> seenIn;
  int totalInBits = 0;
  for (const auto &[name, dimBases] : bases) {
    if (!seenIn.insert(name).second) {
      os << "input dimension '" << name << "' appears twice";
      return message;
    }
    if (dimBases.size() > static_cast<size_t>(kMaxDimBits)) {
      os << "input dimension '" << name << "' has " << dimBases.size()
         << " bases; at most " << kMaxDimBits << " are supported";
      return message;
    }
    totalInBits += static_cast<int>(dimBases.size());
    for (size_t i = 0; i < dimBases.size(); ++i) {
      const Basis &basis = dimBases[i];
      if (basis.size() != outDims.size()) {
        os << "basis " << i << " of input dimension '" << name << "' has "
           << basis.size() << " coordinates but there are " << outDims.size()
           << " output dimensions";
        return message;
      }
      for (size_t d = 0; d < basis.size(); ++d) {
        if (basis[d] < 0 || basis[d] >= outDims[d].second) {
          os << "basis " << i << " of input dimension '" << name
             << "' has coordinate " << basis[d] << " along output dimension '"
             << outDims[d].first << "' of size " << outDims[d].second;
          return message;
        }
      }
    }
  }
  if (totalInBits > kMaxTotalBits) {
    os << "the input dimensions have " << totalInBits
       << " bits in total; at most " << kMaxTotalBits << " are supported";
    return message;
  }
  return std::nullopt;
}

std::optional<LinearLayout> LinearLayout::tryCreate(BasesT bases, DimsT outDims,
                                                    std::string *error) {
  if (std::optional<std::string> message = verify(bases, outDims)) {
    if (error)
      *error = std::move(*message);
    return std::nullopt;
  }
  return LinearLayout(std::move(bases), std::move(outDims), NoCheck{});
}

LinearLayout::LinearLayout(BasesT bases, DimsT outDims) {
  if (std::optional<std::string> message = verify(bases, outDims))
    fail("invalid layout: " + *message);
  this->bases = std::move(bases);
  this->outDims = std::move(outDims);
}

LinearLayout LinearLayout::identity1D(int32_t size, std::string inDim,
                                      std::string outDim) {
  if (!isPowerOfTwo(size))
    fail("identity1D size " + llvm::Twine(size) + " is not a power of two");
  std::vector<Basis> dimBases;
  for (int32_t value = 1; value < size; value *= 2)
    dimBases.push_back({value});
  return LinearLayout({{std::move(inDim), std::move(dimBases)}},
                      {{std::move(outDim), size}});
}

LinearLayout LinearLayout::zeros1D(int32_t size, std::string inDim,
                                   std::string outDim) {
  if (!isPowerOfTwo(size))
    fail("zeros1D size " + llvm::Twine(size) + " is not a power of two");
  std::vector<Basis> dimBases(llvm::Log2_32(size), Basis{0});
  return LinearLayout({{std::move(inDim), std::move(dimBases)}},
                      {{std::move(outDim), 1}});
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

LinearLayout::DimsT LinearLayout::getInDims() const {
  DimsT result;
  for (const auto &[name, dimBases] : bases)
    result.emplace_back(name, int32_t(1) << dimBases.size());
  return result;
}

std::vector<std::string> LinearLayout::getInDimNames() const {
  std::vector<std::string> names;
  for (const auto &entry : bases)
    names.push_back(entry.first);
  return names;
}

std::vector<std::string> LinearLayout::getOutDimNames() const {
  std::vector<std::string> names;
  for (const auto &entry : outDims)
    names.push_back(entry.first);
  return names;
}

bool LinearLayout::hasInDim(llvm::StringRef inDim) const {
  return findDim(bases, inDim) >= 0;
}

bool LinearLayout::hasOutDim(llvm::StringRef outDim) const {
  return findDim(outDims, outDim) >= 0;
}

int LinearLayout::getInDimIndex(llvm::StringRef inDim) const {
  int index = findDim(bases, inDim);
  if (index < 0)
    fail("no input dimension '" + inDim + "' in " + joinNames(getInDimNames()));
  return index;
}

int LinearLayout::getOutDimIndex(llvm::StringRef outDim) const {
  int index = findDim(outDims, outDim);
  if (index < 0)
    fail("no output dimension '" + outDim + "' in " +
         joinNames(getOutDimNames()));
  return index;
}

int32_t LinearLayout::getInDimSizeLog2(llvm::StringRef inDim) const {
  return static_cast<int32_t>(bases[getInDimIndex(inDim)].second.size());
}

int32_t LinearLayout::getOutDimSize(llvm::StringRef outDim) const {
  return outDims[getOutDimIndex(outDim)].second;
}

int32_t LinearLayout::getOutDimSizeLog2(llvm::StringRef outDim) const {
  return llvm::Log2_32(getOutDimSize(outDim));
}

int32_t LinearLayout::getTotalInDimSizeLog2() const {
  int32_t total = 0;
  for (const auto &entry : bases)
    total += static_cast<int32_t>(entry.second.size());
  return total;
}

int32_t LinearLayout::getTotalOutDimSizeLog2() const {
  int32_t total = 0;
  for (const auto &entry : outDims)
    total += llvm::Log2_32(entry.second);
  return total;
}

int64_t LinearLayout::getTotalInDimSize() const {
  return int64_t(1) << getTotalInDimSizeLog2();
}

int64_t LinearLayout::getTotalOutDimSize() const {
  return int64_t(1) << getTotalOutDimSizeLog2();
}

const LinearLayout::Basis &LinearLayout::getBasis(llvm::StringRef inDim,
                                                  int32_t i) const {
  const std::vector<Basis> &dimBases = bases[getInDimIndex(inDim)].second;
  if (i < 0 || static_cast<size_t>(i) >= dimBases.size())
    fail("basis " + llvm::Twine(i) + " out of range for input dimension '" +
         inDim + "' with " + llvm::Twine(dimBases.size()) + " bases");
  return dimBases[i];
}

int32_t LinearLayout::getBasis(llvm::StringRef inDim, int32_t i,
                               llvm::StringRef outDim) const {
  return getBasis(inDim, i)[getOutDimIndex(outDim)];
}

int32_t LinearLayout::getNumRegisters() const {
  return hasInDim("register") ? getInDimSize("register") : 1;
}

int32_t LinearLayout::getContiguousRegisters(int outDim) const {
  if (outDim < 0 || outDim >= getNumOutDims())
    fail("getContiguousRegisters: output dimension " + llvm::Twine(outDim) +
         " out of range [0, " + llvm::Twine(getNumOutDims()) + ")");
  int index = findDim(bases, "register");
  if (index < 0)
    return 1;
  const std::vector<Basis> &registerBases = bases[index].second;
  int32_t contiguous = 1;
  for (size_t i = 0; i < registerBases.size(); ++i) {
    const Basis &basis = registerBases[i];
    for (int d = 0; d < getNumOutDims(); ++d) {
      int32_t expected = d == outDim ? (int32_t(1) << i) : 0;
      if (basis[d] != expected)
        return contiguous;
    }
    contiguous *= 2;
  }
  return contiguous;
}

//===----------------------------------------------------------------------===//
// Flattened views
//===----------------------------------------------------------------------===//

std::vector<int32_t> LinearLayout::getOutBitOffsets() const {
  std::vector<int32_t> offsets;
  int32_t offset = 0;
  for (const auto &entry : outDims) {
    offsets.push_back(offset);
    offset += llvm::Log2_32(entry.second);
  }
  return offsets;
}

uint64_t LinearLayout::flattenBasis(const Basis &basis) const {
  std::vector<int32_t> offsets = getOutBitOffsets();
  uint64_t bits = 0;
  for (size_t d = 0; d < basis.size(); ++d)
    bits |= static_cast<uint64_t>(basis[d]) << offsets[d];
  return bits;
}

LinearLayout::Basis LinearLayout::unflattenOutput(uint64_t bits) const {
  Basis basis;
  for (const auto &entry : outDims) {
    int width = llvm::Log2_32(entry.second);
    basis.push_back(static_cast<int32_t>(bits & lowMask(width)));
    bits >>= width;
  }
  return basis;
}

std::vector<uint64_t> LinearLayout::getColumns() const {
  std::vector<uint64_t> columns;
  for (const auto &entry : bases)
    for (const Basis &basis : entry.second)
      columns.push_back(flattenBasis(basis));
  return columns;
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

LinearLayout::DimsT LinearLayout::apply(
    llvm::ArrayRef<std::pair<std::string, int32_t>> inputs) const {
  if (inputs.size() != bases.size())
    fail("apply: got " + llvm::Twine(inputs.size()) + " inputs for " +
         llvm::Twine(bases.size()) + " input dimensions " +
         joinNames(getInDimNames()));
  Basis result(outDims.size(), 0);
  std::vector<bool> seen(bases.size(), false);
  for (const auto &[name, value] : inputs) {
    int index = getInDimIndex(name);
    if (seen[index])
      fail("apply: input dimension '" + name + "' given twice");
    seen[index] = true;
    const std::vector<Basis> &dimBases = bases[index].second;
    if (value < 0 || (static_cast<int64_t>(value) >> dimBases.size()) != 0)
      fail("apply: value " + llvm::Twine(value) + " out of range for '" + name +
           "' of size " + llvm::Twine(int64_t(1) << dimBases.size()));
    for (size_t bit = 0; bit < dimBases.size(); ++bit)
      if ((value >> bit) & 1)
        for (size_t d = 0; d < result.size(); ++d)
          result[d] ^= dimBases[bit][d];
  }
  DimsT named;
  for (size_t d = 0; d < outDims.size(); ++d)
    named.emplace_back(outDims[d].first, result[d]);
  return named;
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

LinearLayout terrazzo::operator*(const LinearLayout &lhs,
                                 const LinearLayout &rhs) {
  using DimsT = LinearLayout::DimsT;
  using BasesT = LinearLayout::BasesT;
  using Basis = LinearLayout::Basis;

  // Output dimensions: union, sizes of shared ones multiply.
  DimsT outDims = lhs.getOutDims();
  std::vector<int> lhsOutIndex, rhsOutIndex, rhsShift;
  for (size_t d = 0; d < outDims.size(); ++d)
    lhsOutIndex.push_back(static_cast<int>(d));
  for (const auto &[name, size] : rhs.getOutDims()) {
    int index = findDim(outDims, name);
    if (index < 0) {
      rhsOutIndex.push_back(static_cast<int>(outDims.size()));
      rhsShift.push_back(0);
      outDims.emplace_back(name, size);
      continue;
    }
    int32_t lhsSize = outDims[index].second;
    if (llvm::Log2_64(lhsSize) + llvm::Log2_64(size) >
        LinearLayout::kMaxDimBits)
      fail("product: output dimension '" + name + "' would have size " +
           llvm::Twine(int64_t(lhsSize) * size));
    rhsOutIndex.push_back(index);
    rhsShift.push_back(llvm::Log2_32(lhsSize));
    outDims[index].second = lhsSize * size;
  }

  auto embed = [&](const Basis &basis, const std::vector<int> &outIndex,
                   const std::vector<int> *shift) {
    Basis result(outDims.size(), 0);
    for (size_t d = 0; d < basis.size(); ++d)
      result[outIndex[d]] = shift ? basis[d] << (*shift)[d] : basis[d];
    return result;
  };

  // Input dimensions: union; a shared one gets lhs's bases, then rhs's.
  BasesT bases;
  for (const auto &[name, dimBases] : lhs.getBases()) {
    std::vector<Basis> embedded;
    for (const Basis &basis : dimBases)
      embedded.push_back(embed(basis, lhsOutIndex, nullptr));
    bases.emplace_back(name, std::move(embedded));
  }
  for (const auto &[name, dimBases] : rhs.getBases()) {
    int index = findDim(bases, name);
    if (index < 0) {
      index = static_cast<int>(bases.size());
      bases.emplace_back(name, std::vector<Basis>());
    }
    for (const Basis &basis : dimBases)
      bases[index].second.push_back(embed(basis, rhsOutIndex, &rhsShift));
  }

  std::string error;
  std::optional<LinearLayout> result =
      LinearLayout::tryCreate(std::move(bases), std::move(outDims), &error);
  if (!result)
    fail("product: " + error);
  return *result;
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  if (outer.getNumInDims() != getNumOutDims())
    fail("compose: output dimensions " + joinNames(getOutDimNames()) +
         " do not match the outer layout's input dimensions " +
         joinNames(outer.getInDimNames()));
  for (const auto &[name, size] : outDims) {
    int index = findDim(outer.bases, name);
    if (index < 0)
      fail("compose: output dimension '" + name +
           "' is not an input dimension of the outer layout " +
           joinNames(outer.getInDimNames()));
    int64_t outerSize = int64_t(1) << outer.bases[index].second.size();
    if (size > outerSize)
      fail("compose: output dimension '" + name + "' has size " +
           llvm::Twine(size) + " but the outer layout's input has size " +
           llvm::Twine(outerSize));
  }

  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> composed;
    for (const Basis &basis : dimBases) {
      DimsT inputs;
      for (size_t d = 0; d < outDims.size(); ++d)
        inputs.emplace_back(outDims[d].first, basis[d]);
      Basis image;
      for (const auto &entry : outer.apply(inputs))
        image.push_back(entry.second);
      composed.push_back(std::move(image));
    }
    result.emplace_back(name, std::move(composed));
  }
  return LinearLayout(std::move(result), outer.outDims, NoCheck{});
}

std::optional<LinearLayout>
LinearLayout::tryInvertAndCompose(const LinearLayout &outer,
                                  std::string *error) const {
  auto reject = [&](const llvm::Twine &message) -> std::optional<LinearLayout> {
    if (error)
      *error = message.str();
    return std::nullopt;
  };

  F2Eliminator elim = eliminate(outer.getColumns());
  std::vector<int32_t> outerOffsets = outer.getOutBitOffsets();

  // Where each of our output dimensions lives in outer's output.
  std::vector<int> outerIndex;
  for (const auto &entry : outDims)
    outerIndex.push_back(findDim(outer.outDims, entry.first));

  DimsT resultOutDims = outer.getInDims();
  BasesT result;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> solved;
    for (size_t i = 0; i < dimBases.size(); ++i) {
      const Basis &basis = dimBases[i];
      uint64_t target = 0;
      for (size_t d = 0; d < basis.size(); ++d) {
        if (basis[d] == 0)
          continue;
        if (outerIndex[d] < 0)
          return reject("basis " + llvm::Twine(i) + " of '" + name +
                        "' is nonzero along '" + outDims[d].first +
                        "', which the outer layout does not have");
        if (basis[d] >= outer.outDims[outerIndex[d]].second)
          return reject("basis " + llvm::Twine(i) + " of '" + name +
                        "' is outside the outer layout's output along '" +
                        outDims[d].first + "'");
        target |= static_cast<uint64_t>(basis[d])
                  << outerOffsets[outerIndex[d]];
      }
      std::optional<uint64_t> inputBits = elim.solve(target);
      if (!inputBits)
        return reject("the image of basis " + llvm::Twine(i) + " of '" + name +
                      "' is not in the image of the outer layout");
      // Split the flattened input bits over outer's input dimensions.
      Basis image;
      uint64_t bits = *inputBits;
      for (const auto &entry : outer.bases) {
        int width = static_cast<int>(entry.second.size());
        image.push_back(static_cast<int32_t>(bits & lowMask(width)));
        bits >>= width;
      }
      solved.push_back(std::move(image));
    }
    result.emplace_back(name, std::move(solved));
  }
  return LinearLayout(std::move(result), std::move(resultOutDims), NoCheck{});
}

LinearLayout LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  std::string error;
  std::optional<LinearLayout> result = tryInvertAndCompose(outer, &error);
  if (!result)
    fail("invertAndCompose: " + error);
  return *result;
}

LinearLayout LinearLayout::pseudoinvert() const {
  if (!isSurjective())
    fail("pseudoinvert: the layout is not surjective:\n" + toString());
  // The identity on our output space, expressed through ourselves.
  BasesT identityBases;
  for (size_t d = 0; d < outDims.size(); ++d) {
    std::vector<Basis> dimBases;
    for (int32_t value = 1; value < outDims[d].second; value *= 2) {
      Basis basis(outDims.size(), 0);
      basis[d] = value;
      dimBases.push_back(std::move(basis));
    }
    identityBases.emplace_back(outDims[d].first, std::move(dimBases));
  }
  LinearLayout identity(std::move(identityBases), outDims, NoCheck{});
  return identity.invertAndCompose(*this);
}

LinearLayout LinearLayout::invert() const {
  if (!isInvertible())
    fail("invert: the layout is not invertible:\n" + toString());
  return pseudoinvert();
}

LinearLayout
LinearLayout::sublayout(llvm::ArrayRef<std::string> inDims,
                        llvm::ArrayRef<std::string> outDimNames) const {
  std::vector<bool> keepIn(bases.size(), false), keepOut(outDims.size(), false);
  for (const std::string &name : inDims)
    keepIn[getInDimIndex(name)] = true;
  for (const std::string &name : outDimNames)
    keepOut[getOutDimIndex(name)] = true;

  DimsT newOutDims;
  for (size_t d = 0; d < outDims.size(); ++d)
    if (keepOut[d])
      newOutDims.push_back(outDims[d]);
  BasesT newBases;
  for (size_t i = 0; i < bases.size(); ++i) {
    if (!keepIn[i])
      continue;
    std::vector<Basis> dimBases;
    for (const Basis &basis : bases[i].second) {
      Basis kept;
      for (size_t d = 0; d < basis.size(); ++d)
        if (keepOut[d])
          kept.push_back(basis[d]);
      dimBases.push_back(std::move(kept));
    }
    newBases.emplace_back(bases[i].first, std::move(dimBases));
  }
  return LinearLayout(std::move(newBases), std::move(newOutDims), NoCheck{});
}

bool LinearLayout::sublayoutIsZero(
    llvm::ArrayRef<std::string> inDims,
    llvm::ArrayRef<std::string> outDimNames) const {
  LinearLayout sub = sublayout(inDims, outDimNames);
  for (const auto &entry : sub.bases)
    for (const Basis &basis : entry.second)
      if (llvm::any_of(basis, [](int32_t value) { return value != 0; }))
        return false;
  return true;
}

LinearLayout
LinearLayout::transposeIns(llvm::ArrayRef<std::string> order) const {
  if (order.size() != bases.size())
    fail("transposeIns: " + joinNames(order) + " is not a permutation of " +
         joinNames(getInDimNames()));
  BasesT newBases;
  std::vector<bool> used(bases.size(), false);
  for (const std::string &name : order) {
    int index = getInDimIndex(name);
    if (used[index])
      fail("transposeIns: '" + name + "' listed twice");
    used[index] = true;
    newBases.push_back(bases[index]);
  }
  return LinearLayout(std::move(newBases), outDims, NoCheck{});
}

LinearLayout
LinearLayout::transposeOuts(llvm::ArrayRef<std::string> order) const {
  if (order.size() != outDims.size())
    fail("transposeOuts: " + joinNames(order) + " is not a permutation of " +
         joinNames(getOutDimNames()));
  std::vector<int> permutation;
  std::vector<bool> used(outDims.size(), false);
  DimsT newOutDims;
  for (const std::string &name : order) {
    int index = getOutDimIndex(name);
    if (used[index])
      fail("transposeOuts: '" + name + "' listed twice");
    used[index] = true;
    permutation.push_back(index);
    newOutDims.push_back(outDims[index]);
  }
  BasesT newBases;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> permuted;
    for (const Basis &basis : dimBases) {
      Basis reordered;
      for (int index : permutation)
        reordered.push_back(basis[index]);
      permuted.push_back(std::move(reordered));
    }
    newBases.emplace_back(name, std::move(permuted));
  }
  return LinearLayout(std::move(newBases), std::move(newOutDims), NoCheck{});
}

namespace {
/// Checks the new dimensions of a reshape and returns their log2 sizes.
std::vector<int>
reshapeWidths(const char *what,
              llvm::ArrayRef<std::pair<std::string, int32_t>> newDims,
              int32_t expectedTotalLog2) {
  std::vector<int> widths;
  int total = 0;
  for (const auto &[name, size] : newDims) {
    if (!isPowerOfTwo(size))
      fail(llvm::Twine(what) + ": new dimension '" + name + "' has size " +
           llvm::Twine(size) + ", which is not a power of two");
    widths.push_back(llvm::Log2_32(size));
    total += widths.back();
  }
  if (total != expectedTotalLog2)
    fail(llvm::Twine(what) + ": the new dimensions have 2^" +
         llvm::Twine(total) + " elements but the layout has 2^" +
         llvm::Twine(expectedTotalLog2));
  return widths;
}
} // namespace

LinearLayout LinearLayout::reshapeIns(
    llvm::ArrayRef<std::pair<std::string, int32_t>> newInDims) const {
  std::vector<int> widths =
      reshapeWidths("reshapeIns", newInDims, getTotalInDimSizeLog2());
  // The flattened list of bases, first dimension (and low bit) first.
  std::vector<Basis> flat;
  for (const auto &entry : bases)
    flat.insert(flat.end(), entry.second.begin(), entry.second.end());
  BasesT newBases;
  size_t next = 0;
  for (size_t i = 0; i < newInDims.size(); ++i) {
    std::vector<Basis> dimBases(flat.begin() + next,
                                flat.begin() + next + widths[i]);
    next += widths[i];
    newBases.emplace_back(newInDims[i].first, std::move(dimBases));
  }
  return LinearLayout(std::move(newBases), outDims);
}

LinearLayout LinearLayout::reshapeOuts(
    llvm::ArrayRef<std::pair<std::string, int32_t>> newOutDims) const {
  reshapeWidths("reshapeOuts", newOutDims, getTotalOutDimSizeLog2());
  DimsT newDims(newOutDims.begin(), newOutDims.end());
  // An empty layout of the new shape, used only to split flattened values.
  LinearLayout shape(BasesT(), newDims, NoCheck{});
  BasesT newBases;
  for (const auto &[name, dimBases] : bases) {
    std::vector<Basis> reshaped;
    for (const Basis &basis : dimBases)
      reshaped.push_back(shape.unflattenOutput(flattenBasis(basis)));
    newBases.emplace_back(name, std::move(reshaped));
  }
  return LinearLayout(std::move(newBases), std::move(newDims));
}

LinearLayout LinearLayout::flattenIns() const {
  if (bases.empty())
    return *this;
  return reshapeIns(
      {{bases.front().first, static_cast<int32_t>(getTotalInDimSize())}});
}

LinearLayout LinearLayout::flattenOuts() const {
  if (outDims.empty())
    return *this;
  return reshapeOuts(
      {{outDims.front().first, static_cast<int32_t>(getTotalOutDimSize())}});
}

int32_t LinearLayout::getRank() const {
  return eliminate(getColumns()).getRank();
}

bool LinearLayout::isSurjective() const {
  return getRank() == getTotalOutDimSizeLog2();
}

bool LinearLayout::isInjective() const {
  return getRank() == getTotalInDimSizeLog2();
}

bool LinearLayout::isInvertible() const {
  int32_t rank = getRank();
  return rank == getTotalInDimSizeLog2() && rank == getTotalOutDimSizeLog2();
}

LinearLayout::DimsT LinearLayout::getFreeVariableMasks() const {
  F2Eliminator elim;
  DimsT masks;
  int column = 0;
  for (const auto &[name, dimBases] : bases) {
    int32_t mask = 0;
    for (size_t bit = 0; bit < dimBases.size(); ++bit)
      if (!elim.insert(flattenBasis(dimBases[bit]), column++))
        mask |= int32_t(1) << bit;
    masks.emplace_back(name, mask);
  }
  return masks;
}

LinearLayout
LinearLayout::removeZeroBasesAlongDim(llvm::StringRef inDim) const {
  BasesT newBases = bases;
  std::vector<Basis> &dimBases = newBases[getInDimIndex(inDim)].second;
  llvm::erase_if(dimBases, [](const Basis &basis) {
    return llvm::all_of(basis, [](int32_t value) { return value == 0; });
  });
  return LinearLayout(std::move(newBases), outDims, NoCheck{});
}

std::string LinearLayout::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const auto &[name, dimBases] : bases) {
    os << name << "[" << (int64_t(1) << dimBases.size()) << "]:";
    if (dimBases.empty())
      os << " -";
    for (const Basis &basis : dimBases) {
      os << " (";
      llvm::interleaveComma(basis, os);
      os << ")";
    }
    os << "\n";
  }
  os << "->";
  if (outDims.empty())
    os << " (no output dimensions)";
  for (const auto &[name, size] : outDims)
    os << " " << name << "[" << size << "]";
  return text;
}
