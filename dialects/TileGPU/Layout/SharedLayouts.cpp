#include "dialects/TileGPU/Layout/SharedLayouts.h"

#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <vector>

using namespace terrazzo;

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::report_fatal_error("swizzledSharedLayout: " + message);
}

int log2Exact(int64_t value, const char *what) {
  if (value <= 0 || !llvm::isPowerOf2_64(uint64_t(value)))
    fail(llvm::Twine(what) + " " + llvm::Twine(value) +
         " is not a positive power of two");
  return llvm::Log2_64(uint64_t(value));
}

} // namespace

LinearLayout terrazzo::swizzledSharedLayout(llvm::ArrayRef<int64_t> shape,
                                            unsigned vec, unsigned perPhase,
                                            unsigned maxPhase,
                                            llvm::ArrayRef<unsigned> order) {
  size_t rank = shape.size();
  if (order.size() != rank)
    fail("order has " + llvm::Twine(order.size()) + " entries for rank " +
         llvm::Twine(rank));
  std::vector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      fail("order is not a permutation");
    seen[dim] = true;
  }
  for (int64_t size : shape)
    log2Exact(size, "dimension");
  int vecBits = log2Exact(vec, "vec");
  int perPhaseBits = log2Exact(perPhase, "perPhase");
  int maxPhaseBits = log2Exact(maxPhase, "maxPhase");

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
  int columnBits = log2Exact(shape[column], "dimension");
  for (int i = 0; i < columnBits; ++i)
    bases.push_back(unit(column, i));
  // Row bit j moves to the next row 2^j and, when it is one of the phase
  // bits, XORs the column with that bit of the phase times vec (modulo the
  // row length): linear, since perPhase and maxPhase are powers of two.
  if (rank >= 2) {
    unsigned row = order[1];
    for (int j = 0, e = log2Exact(shape[row], "dimension"); j < e; ++j) {
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
    for (int i = 0, e = log2Exact(shape[order[k]], "dimension"); i < e; ++i)
      bases.push_back(unit(order[k], i));
  return LinearLayout({{kOffsetDim, std::move(bases)}}, std::move(outDims));
}

LinearLayout terrazzo::nvmmaSharedLayout(llvm::ArrayRef<int64_t> shape,
                                         unsigned swizzleBytes, bool transposed,
                                         unsigned elementBits) {
  // A leading third dimension stacks buffers: buffer i follows buffer i-1,
  // each laid out as the 2-D layout of the other two dimensions.
  if (shape.size() != 2 && shape.size() != 3)
    fail("nvmma shared layouts are 2-D (or stacks of 2-D buffers)");
  const unsigned lead = unsigned(shape.size()) - 2;
  if (swizzleBytes != 0 && swizzleBytes != 32 && swizzleBytes != 64 &&
      swizzleBytes != 128)
    fail("swizzle width " + llvm::Twine(swizzleBytes) + " is not 0/32/64/128");
  int elementBytesBits = log2Exact(elementBits, "element width");
  if (elementBits < 8 || elementBits > 128)
    fail("element width " + llvm::Twine(elementBits) + " is not 8..128 bits");
  unsigned column = lead + (transposed ? 0 : 1), row = 2 * lead + 1 - column;
  int columnBits = log2Exact(shape[column], "dimension");
  int rowBits = log2Exact(shape[row], "dimension");
  unsigned rowBytes = swizzleBytes ? swizzleBytes : 16;
  // Elements per swizzle row (E), per 16-byte chunk (vec), rows per phase
  // and phases, all as log2.
  int rowElementBits = llvm::Log2_32(rowBytes * 8) - elementBytesBits;
  int vecBits = 7 - elementBytesBits;
  int perPhaseBits = 7 - int(llvm::Log2_32(rowBytes));
  int maxPhaseBits = int(llvm::Log2_32(rowBytes)) - 4;
  if (rowElementBits > columnBits)
    fail("the contiguous dimension (" + llvm::Twine(shape[column]) +
         " elements) is narrower than a " + llvm::Twine(rowBytes) +
         "-byte row");
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
    for (int i = 0, e = log2Exact(shape[0], "dimension"); i < e; ++i)
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
