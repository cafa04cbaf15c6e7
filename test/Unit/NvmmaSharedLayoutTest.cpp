// Unit tests of nvmmaSharedLayout (dialects/TileGPU/Layout/SharedLayouts.h):
// every element's byte address is checked against the hardware's view of a
// swizzled matrix (PTX ISA, "Shared Memory Matrix Layout"): rows of W bytes
// stored one after another per W-byte block of the contiguous dimension,
// then address bits [4, 4 + log2(W / 16)) XORed with bits [7, ...).
#include "dialects/TileGPU/Layout/NamedLayouts.h"
#include "dialects/TileGPU/Layout/SharedLayouts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using terrazzo::LinearLayout;

namespace {

/// The byte address at which the hardware reads element (row, column) of
/// a matrix whose rows hold `columns` elements along the contiguous
/// dimension, written without the linear-layout machinery.
int64_t hardwareAddress(int64_t row, int64_t column, int64_t rows,
                        unsigned swizzleBytes, unsigned elementBytes) {
  int64_t rowBytes = swizzleBytes ? swizzleBytes : 16;
  int64_t perRow = rowBytes / elementBytes;
  int64_t block = column / perRow;
  int64_t linear = block * rows * rowBytes + row * rowBytes +
                   (column % perRow) * elementBytes;
  if (swizzleBytes == 0)
    return linear;
  int64_t mask = swizzleBytes / 16 - 1; // 7, 3 or 1
  return linear ^ (((linear >> 7) & mask) << 4);
}

void checkAgainstHardware(int64_t rows, int64_t columns, unsigned swizzle,
                          bool transposed, unsigned elementBits) {
  std::vector<int64_t> shape =
      transposed ? std::vector<int64_t>{columns, rows}
                 : std::vector<int64_t>{rows, columns};
  LinearLayout layout =
      terrazzo::nvmmaSharedLayout(shape, swizzle, transposed, elementBits);
  ASSERT_TRUE(layout.isInvertible());
  unsigned elementBytes = elementBits / 8;
  for (int64_t offset = 0; offset < rows * columns; ++offset) {
    auto coords = layout.apply({{terrazzo::kOffsetDim, int32_t(offset)}});
    int64_t row = coords[transposed ? 1 : 0].second;
    int64_t column = coords[transposed ? 0 : 1].second;
    ASSERT_EQ(hardwareAddress(row, column, rows, swizzle, elementBytes),
              offset * elementBytes)
        << "offset " << offset << " swizzle " << swizzle;
  }
}

TEST(NvmmaSharedLayout, Swizzle128Float16) {
  // 64 f16 = 128 bytes per row: one block, chunks XORed with row % 8.
  checkAgainstHardware(64, 64, 128, false, 16);
  // Two blocks of 64 columns.
  checkAgainstHardware(64, 128, 128, false, 16);
  checkAgainstHardware(128, 64, 128, true, 16);
}

TEST(NvmmaSharedLayout, NarrowerSwizzles) {
  checkAgainstHardware(64, 32, 64, false, 16);
  checkAgainstHardware(64, 16, 32, false, 16);
  checkAgainstHardware(32, 64, 64, true, 16);
  checkAgainstHardware(16, 64, 32, false, 32);
  checkAgainstHardware(64, 128, 128, false, 8);
}

TEST(NvmmaSharedLayout, NoSwizzleCoreMatrices) {
  // Without swizzle, 8 rows x 16 bytes (a core matrix) are contiguous.
  checkAgainstHardware(64, 32, 0, false, 16);
  LinearLayout layout = terrazzo::nvmmaSharedLayout({16, 16}, 0, false, 16);
  auto at = [&](int32_t offset) {
    auto coords = layout.apply({{terrazzo::kOffsetDim, offset}});
    return std::pair<int32_t, int32_t>(coords[0].second, coords[1].second);
  };
  EXPECT_EQ(at(8), std::make_pair(1, 0));   // next row of the core matrix
  EXPECT_EQ(at(64), std::make_pair(8, 0));  // next core matrix along M
  EXPECT_EQ(at(128), std::make_pair(0, 8)); // next 16 bytes of K
}

TEST(NvmmaSharedLayout, Swizzle128FirstRows) {
  // Row 1 of a 128-byte swizzle: chunk j sits at chunk j ^ 1, so element
  // (1, 8) (chunk 1) is the first one stored in row 1.
  LinearLayout layout = terrazzo::nvmmaSharedLayout({8, 64}, 128, false, 16);
  auto coords = layout.apply({{terrazzo::kOffsetDim, 64}});
  EXPECT_EQ(coords[0].second, 1);
  EXPECT_EQ(coords[1].second, 8);
  // Row 7 starts with chunk 7.
  coords = layout.apply({{terrazzo::kOffsetDim, 7 * 64}});
  EXPECT_EQ(coords[0].second, 7);
  EXPECT_EQ(coords[1].second, 56);
}

TEST(NvmmaSharedLayout, StackOfBuffers) {
  // A leading dimension of 3 stacks buffers: buffer i at i times one
  // buffer's size, each laid out as the 2-D layout (transposed or not).
  for (bool transposed : {false, true}) {
    std::vector<int64_t> shape2 = {64, 64};
    LinearLayout one =
        terrazzo::nvmmaSharedLayout(shape2, 128, transposed, 16);
    LinearLayout stack =
        terrazzo::nvmmaSharedLayout({4, 64, 64}, 128, transposed, 16);
    ASSERT_TRUE(stack.isInvertible());
    ASSERT_EQ(stack.getTotalInDimSize(), 4 * 64 * 64);
    for (int32_t offset = 0; offset < 4 * 64 * 64; offset += 7) {
      auto coords = stack.apply({{terrazzo::kOffsetDim, offset}});
      auto inner = one.apply({{terrazzo::kOffsetDim, offset % (64 * 64)}});
      ASSERT_EQ(coords[0].second, offset / (64 * 64));
      ASSERT_EQ(coords[1].second, inner[0].second);
      ASSERT_EQ(coords[2].second, inner[1].second);
    }
  }
}

} // namespace
