// Unit tests of the shared-memory layouts (dialects/TileGPU/Layout/
// SharedLayouts.h): the swizzled layout checked at every offset against the
// formula of #tilegpu.swizzled_shared, and the offsets and vector widths of
// distributed layouts stored in it.
#include "dialects/TileGPU/Layout/NamedLayouts.h"
#include "dialects/TileGPU/Layout/SharedLayouts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using terrazzo::LinearLayout;

namespace {

/// The coordinates (dim0, dim1) of the element a 2-D swizzled buffer stores
/// at `offset`, straight from the attribute's description.
std::vector<int32_t> referenceSwizzled2D(int64_t offset, int64_t rows,
                                         int64_t columns, unsigned vec,
                                         unsigned perPhase, unsigned maxPhase,
                                         bool rowMajor) {
  int64_t row = offset / columns;
  int64_t stored = offset % columns;
  int64_t phase = (row / perPhase) % maxPhase;
  int64_t column = stored ^ ((vec * phase) % columns);
  (void)rows;
  if (rowMajor)
    return {int32_t(row), int32_t(column)};
  return {int32_t(column), int32_t(row)};
}

void checkAgainstReference(std::vector<int64_t> shape, unsigned vec,
                           unsigned perPhase, unsigned maxPhase,
                           std::vector<unsigned> order) {
  LinearLayout layout =
      terrazzo::swizzledSharedLayout(shape, vec, perPhase, maxPhase, order);
  bool rowMajor = order[0] == 1;
  int64_t columns = shape[order[0]], rows = shape[order[1]];
  ASSERT_EQ(layout.getInDimSize(terrazzo::kOffsetDim), rows * columns);
  EXPECT_TRUE(layout.isInvertible());
  for (int64_t offset = 0; offset < rows * columns; ++offset) {
    auto got = layout.apply({{terrazzo::kOffsetDim, int32_t(offset)}});
    std::vector<int32_t> want = referenceSwizzled2D(
        offset, rows, columns, vec, perPhase, maxPhase, rowMajor);
    ASSERT_EQ(got[0].second, want[0]) << "offset " << offset;
    ASSERT_EQ(got[1].second, want[1]) << "offset " << offset;
  }
}

TEST(SwizzledSharedLayout, NoSwizzleIsRowMajor) {
  EXPECT_EQ(terrazzo::swizzledSharedLayout({16, 32}, 1, 1, 1, {1, 0}),
            terrazzo::identityStandard({16, 32}, terrazzo::kOffsetDim));
}

TEST(SwizzledSharedLayout, ColumnMajorOrder) {
  // order [0, 1]: dim0 is the row direction (fastest).
  LinearLayout layout =
      terrazzo::swizzledSharedLayout({8, 4}, 1, 1, 1, {0, 1});
  auto at = [&](int32_t offset) {
    auto coords = layout.apply({{terrazzo::kOffsetDim, offset}});
    return std::vector<int32_t>{coords[0].second, coords[1].second};
  };
  EXPECT_EQ(at(1), (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(at(8), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(at(31), (std::vector<int32_t>{7, 3}));
}

TEST(SwizzledSharedLayout, HandWorkedBases) {
  // 4 x 8 f16-like rows, vec 2, one phase per row, 4 phases: row bit 0 XORs
  // column 2, row bit 1 column 4.
  LinearLayout layout =
      terrazzo::swizzledSharedLayout({4, 8}, 2, 1, 4, {1, 0});
  EXPECT_EQ(layout.getBasis(terrazzo::kOffsetDim, 0),
            (LinearLayout::Basis{0, 1}));
  EXPECT_EQ(layout.getBasis(terrazzo::kOffsetDim, 2),
            (LinearLayout::Basis{0, 4}));
  EXPECT_EQ(layout.getBasis(terrazzo::kOffsetDim, 3),
            (LinearLayout::Basis{1, 2}));
  EXPECT_EQ(layout.getBasis(terrazzo::kOffsetDim, 4),
            (LinearLayout::Basis{2, 4}));
}

TEST(SwizzledSharedLayout, MatchesFormula) {
  for (unsigned vec : {1u, 2u, 4u, 8u})
    for (unsigned perPhase : {1u, 2u, 4u})
      for (unsigned maxPhase : {1u, 2u, 4u, 8u}) {
        SCOPED_TRACE("vec " + std::to_string(vec) + " perPhase " +
                     std::to_string(perPhase) + " maxPhase " +
                     std::to_string(maxPhase));
        checkAgainstReference({32, 64}, vec, perPhase, maxPhase, {1, 0});
        checkAgainstReference({64, 16}, vec, perPhase, maxPhase, {0, 1});
        // Rows shorter than vec * maxPhase wrap modulo the row length.
        checkAgainstReference({16, 4}, vec, perPhase, maxPhase, {1, 0});
      }
}

TEST(SwizzledSharedLayout, LeadingBufferDimensionIsOutermost) {
  // A 4-buffer stack: buffer b is the 2-D layout at offset b * 512.
  LinearLayout stacked =
      terrazzo::swizzledSharedLayout({4, 16, 32}, 4, 2, 4, {2, 1, 0});
  LinearLayout single =
      terrazzo::swizzledSharedLayout({16, 32}, 4, 2, 4, {1, 0});
  for (int32_t b = 0; b < 4; ++b)
    for (int32_t offset = 0; offset < 512; ++offset) {
      auto got = stacked.apply({{terrazzo::kOffsetDim, b * 512 + offset}});
      auto want = single.apply({{terrazzo::kOffsetDim, offset}});
      ASSERT_EQ(got[0].second, b);
      ASSERT_EQ(got[1].second, want[0].second);
      ASSERT_EQ(got[2].second, want[1].second);
    }
}

TEST(SwizzledSharedLayout, DistributedOffsetsAndVectorWidth) {
  // 8 consecutive f16 per thread along dim1, stored with vec 8: each thread
  // moves one 16-byte vector per register group.
  LinearLayout blocked = terrazzo::blockedLayout({32, 64}, {1, 8}, {4, 8},
                                                 {4, 1}, {1, 0});
  LinearLayout shared =
      terrazzo::swizzledSharedLayout({32, 64}, 8, 1, 8, {1, 0});
  LinearLayout offsets = terrazzo::distributedToSharedOffsets(blocked, shared);
  EXPECT_EQ(terrazzo::contiguousSharedRegisters(offsets, 8), 8);
  EXPECT_EQ(terrazzo::contiguousSharedRegisters(offsets, 4), 4);
  // Every (register, lane, warp) stores its element at the offset where the
  // shared layout keeps it.
  std::set<int32_t> seen;
  for (int32_t reg = 0; reg < blocked.getInDimSize("register"); ++reg)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t warp = 0; warp < 4; ++warp) {
        auto hw = std::vector<std::pair<std::string, int32_t>>{
            {"register", reg}, {"lane", lane}, {"warp", warp}, {"block", 0}};
        int32_t offset = offsets.apply(hw)[0].second;
        auto element = blocked.apply(hw);
        auto stored = shared.apply({{terrazzo::kOffsetDim, offset}});
        ASSERT_EQ(element, stored);
        seen.insert(offset);
      }
  EXPECT_EQ(seen.size(), 32u * 64u);

  // Swizzling by vectors of 4 splits the 8-element runs in two.
  LinearLayout narrow =
      terrazzo::swizzledSharedLayout({32, 64}, 4, 1, 8, {1, 0});
  EXPECT_EQ(terrazzo::contiguousSharedRegisters(
                terrazzo::distributedToSharedOffsets(blocked, narrow), 8),
            4);
  // A column-major buffer holds no two of a thread's row elements together.
  LinearLayout transposed =
      terrazzo::swizzledSharedLayout({32, 64}, 1, 1, 1, {0, 1});
  EXPECT_EQ(terrazzo::contiguousSharedRegisters(
                terrazzo::distributedToSharedOffsets(blocked, transposed), 8),
            1);
}

} // namespace
