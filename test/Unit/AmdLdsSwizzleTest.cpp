// Unit tests of the LDS swizzle of MFMA operands (backends/amd/
// LdsSwizzle.h): for every operand shape, element size and kWidth, the
// chosen #tilegpu.swizzled_shared layout is a bijection between offsets and
// elements, keeps each lane's kWidth elements one vector, and puts the
// vectors that the lanes served by one line of banks read (consecutive
// rows, same column) on distinct banks.
#include "backends/amd/LdsSwizzle.h"
#include "dialects/TileGPU/Layout/SharedLayouts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>

using terrazzo::LinearLayout;
namespace amd = terrazzo::amd;

namespace {

/// The offset of element (row, column) of a row-major buffer of `layout`.
int64_t offsetOf(const LinearLayout &inverse, int64_t row, int64_t column) {
  return inverse
      .apply({{"dim0", int32_t(row)}, {"dim1", int32_t(column)}})
      .front()
      .second;
}

void checkOperandBuffer(int64_t rows, int64_t rowElements,
                        unsigned elementBytes, unsigned kWidth) {
  SCOPED_TRACE(testing::Message()
               << rows << " x " << rowElements << " of " << elementBytes
               << " bytes, kWidth " << kWidth);
  amd::LdsSwizzle swizzle =
      amd::operandSwizzle(rowElements, elementBytes, kWidth);
  // The reads are as wide as kWidth allows, up to ds_read_b128.
  EXPECT_EQ(int64_t(swizzle.vec) * elementBytes,
            std::min<int64_t>(int64_t(kWidth) * elementBytes,
                              amd::kLdsMaxReadBytes));
  LinearLayout layout = terrazzo::swizzledSharedLayout(
      {rows, rowElements}, swizzle.vec, swizzle.perPhase, swizzle.maxPhase,
      {1, 0});
  // A bijection: every offset holds a distinct element, every element one.
  ASSERT_TRUE(layout.isInvertible());
  std::set<std::pair<int32_t, int32_t>> seen;
  for (int64_t offset = 0; offset < rows * rowElements; ++offset) {
    auto coords = layout.apply({{terrazzo::kOffsetDim, int32_t(offset)}});
    seen.insert({coords[0].second, coords[1].second});
  }
  EXPECT_EQ(int64_t(seen.size()), rows * rowElements);
  LinearLayout inverse = layout.invert();
  int64_t readBytes = int64_t(swizzle.vec) * elementBytes;
  int64_t lanesPerLine = amd::kLdsBankLineBytes / readBytes;
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t column = 0; column < rowElements; column += swizzle.vec) {
      // One lane's vector: consecutive offsets.
      int64_t first = offsetOf(inverse, row, column);
      for (unsigned i = 1; i < swizzle.vec; ++i)
        ASSERT_EQ(offsetOf(inverse, row, column + i), first + i)
            << "row " << row << ", column " << column;
    }
  // The lanes one line of banks serves: lanesPerLine consecutive rows at
  // the same vector of their rows; their 4-byte banks are all distinct.
  for (int64_t group = 0; group + lanesPerLine <= rows; group += lanesPerLine)
    for (int64_t column = 0; column < rowElements; column += swizzle.vec) {
      std::set<int64_t> banks;
      for (int64_t row = group; row < group + lanesPerLine; ++row) {
        int64_t byte = offsetOf(inverse, row, column) * elementBytes;
        for (int64_t b = 0; b < readBytes; b += 4)
          banks.insert(((byte + b) % amd::kLdsBankLineBytes) / 4);
      }
      EXPECT_EQ(int64_t(banks.size()),
                lanesPerLine * std::max<int64_t>(1, readBytes / 4))
          << "rows " << group << ".., column " << column;
    }
}

TEST(AmdLdsSwizzle, OperandReadsHitDistinctBanks) {
  for (unsigned elementBytes : {1u, 2u, 4u})
    for (unsigned kWidth : {1u, 2u, 4u, 8u, 16u})
      for (int64_t rowElements : {8, 16, 32, 64, 128, 256})
        for (int64_t rows : {16, 32, 64, 128}) {
          if (int64_t(kWidth) > rowElements ||
              int64_t(kWidth) * elementBytes > 16 ||
              int64_t(kWidth) * elementBytes < 4)
            continue;
          checkOperandBuffer(rows, rowElements, elementBytes, kWidth);
        }
}

TEST(AmdLdsSwizzle, UnswizzledWithoutARowToSpread) {
  // One vector per row: nothing to XOR.
  amd::LdsSwizzle swizzle = amd::operandSwizzle(8, 2, 8);
  EXPECT_EQ(swizzle.vec, 8u);
  EXPECT_EQ(swizzle.maxPhase, 1u);
  // K of 64 float16 read 4 at a time (gfx942's 32x32x8): rows of 128
  // bytes, one per line, 16 lanes a line, 16 phases.
  swizzle = amd::operandSwizzle(64, 2, 4);
  EXPECT_EQ(swizzle.vec, 4u);
  EXPECT_EQ(swizzle.perPhase, 1u);
  EXPECT_EQ(swizzle.maxPhase, 16u);
}

} // namespace
