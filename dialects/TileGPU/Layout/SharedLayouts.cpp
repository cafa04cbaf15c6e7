#include "dialects/TileGPU/Layout/SharedLayouts.h"

#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <vector>

using namespace terrazzo;

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::reportFatalInternalError("shared layout: " + message);
}

void check(const std::string &error) {
  if (!error.empty())
    fail(error);
}

bool isPowerOfTwo(int64_t value) {
  return value > 0 && llvm::isPowerOf2_64(uint64_t(value));
}

int log2Exact(int64_t value) { return llvm::Log2_64(uint64_t(value)); }

/// The buffer's sizes: powers of two, 2^kMaxDimBits elements at most in all
/// (the one "offset" input of the layout).
std::string checkBufferShape(llvm::ArrayRef<int64_t> shape) {
  int bits = 0;
  for (int64_t size : shape) {
    if (!isPowerOfTwo(size))
      return "buffer dimension " + std::to_string(size) +
             " is not a positive power of two";
    bits += log2Exact(size);
  }
  if (bits > LinearLayout::kMaxDimBits)
    return "a shared buffer of 2^" + std::to_string(bits) +
           " elements; at most 2^" +
           std::to_string(LinearLayout::kMaxDimBits) + " are supported";
  return "";
}

} // namespace

std::string terrazzo::checkSwizzledSharedLayout(
    llvm::ArrayRef<int64_t> shape, unsigned vec, unsigned perPhase,
    unsigned maxPhase, llvm::ArrayRef<unsigned> order) {
  size_t rank = shape.size();
  if (order.size() != rank)
    return "order has " + std::to_string(order.size()) + " entries for rank " +
           std::to_string(rank);
  std::vector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return "order is not a permutation";
    seen[dim] = true;
  }
  for (auto [what, value] : {std::pair<const char *, unsigned>{"vec", vec},
                             {"perPhase", perPhase},
                             {"maxPhase", maxPhase}})
    if (!isPowerOfTwo(value))
      return std::string(what) + " " + std::to_string(value) +
             " is not a positive power of two";
  return checkBufferShape(shape);
}

LinearLayout terrazzo::swizzledSharedLayout(llvm::ArrayRef<int64_t> shape,
                                            unsigned vec, unsigned perPhase,
                                            unsigned maxPhase,
                                            llvm::ArrayRef<unsigned> order) {
  check(checkSwizzledSharedLayout(shape, vec, perPhase, maxPhase, order));
  size_t rank = shape.size();
  int vecBits = log2Exact(vec);
  int perPhaseBits = log2Exact(perPhase);
  int maxPhaseBits = log2Exact(maxPhase);

  LinearLayout::DimsT outDims;
  for (size_t d = 0; d < rank; ++d)
    outDims.emplace_back(tensorDimName(d), int32_t(shape[d]));
  std::vector<LinearLayout::Basis> bases;
  auto unit = [&](unsigned dim, int bit) {
    LinearLayout::Basis basis(rank, 0);
    basis[dim] = int32_t(1) << bit;
    return basis;
  };
  if (rank == 0)
    return LinearLayout({{kOffsetDim, {}}}, outDims);
  // The columns of a row first: offsets within a row are unswizzled.
  unsigned column = order[0];
  int columnBits = log2Exact(shape[column]);
  for (int i = 0; i < columnBits; ++i)
    bases.push_back(unit(column, i));
  // Row bit j moves to the next row 2^j and, when it is one of the phase
  // bits, XORs the column with that bit of the phase times vec (modulo the
  // row length): linear, since perPhase and maxPhase are powers of two.
  if (rank >= 2) {
    unsigned row = order[1];
    for (int j = 0, e = log2Exact(shape[row]); j < e; ++j) {
      LinearLayout::Basis basis = unit(row, j);
      int phaseBit = j - perPhaseBits;
      if (phaseBit >= 0 && phaseBit < maxPhaseBits) {
        int64_t xorColumns = (int64_t(1) << (phaseBit + vecBits)) &
                             ((int64_t(1) << columnBits) - 1);
        basis[column] = int32_t(xorColumns);
      }
      bases.push_back(basis);
    }
  }
  for (size_t k = 2; k < rank; ++k)
    for (int i = 0, e = log2Exact(shape[order[k]]); i < e; ++i)
      bases.push_back(unit(order[k], i));
  return LinearLayout({{kOffsetDim, std::move(bases)}}, std::move(outDims));
}

std::string terrazzo::checkNvmmaSharedLayout(llvm::ArrayRef<int64_t> shape,
                                             unsigned swizzleBytes,
                                             bool transposed,
                                             unsigned elementBits) {
  if (shape.size() != 2 && shape.size() != 3)
    return "nvmma shared layouts are 2-D (or stacks of 2-D buffers)";
  if (swizzleBytes != 0 && swizzleBytes != 32 && swizzleBytes != 64 &&
      swizzleBytes != 128)
    return "swizzle width " + std::to_string(swizzleBytes) +
           " is not 0/32/64/128";
  if (!isPowerOfTwo(elementBits) || elementBits < 8 || elementBits > 128)
    return "element width " + std::to_string(elementBits) +
           " is not a power of two from 8 to 128 bits";
  if (std::string error = checkBufferShape(shape); !error.empty())
    return error;
  unsigned rowBytes = swizzleBytes ? swizzleBytes : 16;
  int64_t contiguous = shape[shape.size() - (transposed ? 2 : 1)];
  if (contiguous * elementBits < int64_t(rowBytes) * 8)
    return "the contiguous dimension (" + std::to_string(contiguous) +
           " elements) is narrower than a " + std::to_string(rowBytes) +
           "-byte row";
  return "";
}

LinearLayout terrazzo::nvmmaSharedLayout(llvm::ArrayRef<int64_t> shape,
                                         unsigned swizzleBytes, bool transposed,
                                         unsigned elementBits) {
  check(checkNvmmaSharedLayout(shape, swizzleBytes, transposed, elementBits));
  // A leading third dimension stacks buffers: buffer i follows buffer i-1,
  // each laid out as the 2-D layout of the other two dimensions.
  const unsigned lead = unsigned(shape.size()) - 2;
  int elementBytesBits = log2Exact(elementBits);
  unsigned column = lead + (transposed ? 0 : 1), row = 2 * lead + 1 - column;
  int columnBits = log2Exact(shape[column]);
  int rowBits = log2Exact(shape[row]);
  unsigned rowBytes = swizzleBytes ? swizzleBytes : 16;
  // Elements per swizzle row (E), per 16-byte chunk (vec), rows per phase
  // and phases, all as log2.
  int rowElementBits = llvm::Log2_32(rowBytes * 8) - elementBytesBits;
  int vecBits = 7 - elementBytesBits;
  int perPhaseBits = 7 - int(llvm::Log2_32(rowBytes));
  int maxPhaseBits = int(llvm::Log2_32(rowBytes)) - 4;
  std::vector<LinearLayout::Basis> bases;
  auto unit = [&](unsigned dim, int bit) {
    LinearLayout::Basis basis(shape.size(), 0);
    basis[dim] = int32_t(1) << bit;
    return basis;
  };
  // Offsets within a row: the columns of the block, unswizzled.
  for (int i = 0; i < rowElementBits; ++i)
    bases.push_back(unit(column, i));
  // Row bit j: the next row, and when it is a phase bit, the XOR of chunk
  // index bit (j - perPhaseBits), i.e. column bit vecBits + that. The XOR
  // is its own inverse, so the image of the offset bit is the same.
  for (int j = 0; j < rowBits; ++j) {
    LinearLayout::Basis basis = unit(row, j);
    int phaseBit = j - perPhaseBits;
    if (phaseBit >= 0 && phaseBit < maxPhaseBits)
      basis[column] = int32_t(1) << (vecBits + phaseBit);
    bases.push_back(basis);
  }
  // Then the blocks of the contiguous dimension.
  for (int k = rowElementBits; k < columnBits; ++k)
    bases.push_back(unit(column, k));
  // Then the buffers of a stack.
  if (lead)
    for (int i = 0, e = log2Exact(shape[0]); i < e; ++i)
      bases.push_back(unit(0, i));
  LinearLayout::DimsT outDims;
  for (size_t d = 0; d < shape.size(); ++d)
    outDims.emplace_back(tensorDimName(d), int32_t(shape[d]));
  return LinearLayout({{kOffsetDim, std::move(bases)}}, std::move(outDims));
}

LinearLayout
terrazzo::distributedToSharedOffsets(const LinearLayout &distributed,
                                     const LinearLayout &shared) {
  return distributed.invertAndCompose(shared);
}

int32_t terrazzo::contiguousSharedRegisters(const LinearLayout &offsets,
                                            int32_t maxElements) {
  if (!offsets.hasInDim("register"))
    return 1;
  int registerBits = offsets.getInDimSizeLog2("register");
  int k = 0;
  while (k < registerBits && (int32_t(1) << (k + 1)) <= maxElements &&
         offsets.getBasis("register", k, kOffsetDim) == (int32_t(1) << k))
    ++k;
  // Every other basis must leave the low k bits alone, so that the first
  // register of a vector sits at a multiple of its width.
  int32_t lowBits = (int32_t(1) << k) - 1;
  for (const std::string &name : offsets.getInDimNames())
    for (int i = name == "register" ? k : 0,
             e = offsets.getInDimSizeLog2(name);
         i < e; ++i)
      while (k > 0 && (offsets.getBasis(name, i, kOffsetDim) & lowBits)) {
        --k;
        lowBits >>= 1;
      }
  return int32_t(1) << k;
}
