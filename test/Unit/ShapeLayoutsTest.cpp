// Unit tests of the layouts of reshaped tensors
// (dialects/TileGPU/Layout/ShapeLayouts.h): for blocked layouts of many
// shapes, every hardware input of the inferred layout holds exactly the
// element of the result that the op puts where the source's layout held it.
#include "dialects/TileGPU/Layout/LinearLayout.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"
#include "dialects/TileGPU/Layout/ShapeLayouts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using terrazzo::LinearLayout;
using Dims = LinearLayout::DimsT;

namespace {

/// Every input of `layout`, first input dimension fastest.
std::vector<Dims> allInputs(const LinearLayout &layout) {
  Dims dims = layout.getInDims();
  std::vector<Dims> inputs;
  for (int64_t flat = 0; flat < layout.getTotalInDimSize(); ++flat) {
    Dims input;
    int64_t rest = flat;
    for (const auto &[name, size] : dims) {
      input.emplace_back(name, static_cast<int32_t>(rest % size));
      rest /= size;
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<int32_t> coords(const Dims &values) {
  std::vector<int32_t> result;
  for (const auto &[name, value] : values)
    result.push_back(value);
  return result;
}

int32_t value(const Dims &values, const std::string &name) {
  for (const auto &[dim, v] : values)
    if (dim == name)
      return v;
  ADD_FAILURE() << "no input " << name;
  return 0;
}

/// A blocked layout of `shape` with random parameters (fixed seed).
LinearLayout randomBlocked(std::mt19937 &engine, std::vector<int64_t> shape,
                           int numWarps = 4) {
  size_t rank = shape.size();
  auto pick = [&](int max) {
    return 1u << std::uniform_int_distribution<int>(0, max)(engine);
  };
  std::vector<unsigned> sizePerThread(rank), threads(rank, 1), warps(rank, 1),
      order(rank);
  for (size_t d = 0; d < rank; ++d) {
    sizePerThread[d] = pick(2);
    order[d] = d;
  }
  std::shuffle(order.begin(), order.end(), engine);
  // 32 lanes and numWarps warps spread over random dimensions.
  for (int bit = 0; bit < 5; ++bit)
    threads[std::uniform_int_distribution<size_t>(0, rank - 1)(engine)] *= 2;
  for (int w = numWarps; w > 1; w /= 2)
    warps[std::uniform_int_distribution<size_t>(0, rank - 1)(engine)] *= 2;
  return terrazzo::blockedLayout(shape, sizePerThread, threads, warps, order);
}

const std::vector<std::vector<int64_t>> kShapes = {
    {64}, {2048}, {2, 2}, {32, 64}, {64, 32}, {1, 128}, {8, 2},
    {256, 2}, {4, 8, 16}, {2, 1, 64}, {16, 4, 2}};

TEST(ShapeLayouts, TransposeMovesCoordinates) {
  std::mt19937 engine(1);
  for (const auto &shape : kShapes)
    for (int trial = 0; trial < 4; ++trial) {
      LinearLayout layout = randomBlocked(engine, shape);
      std::vector<int32_t> order(shape.size());
      for (size_t d = 0; d < order.size(); ++d)
        order[d] = d;
      std::shuffle(order.begin(), order.end(), engine);
      std::optional<LinearLayout> result =
          terrazzo::transposeLayout(layout, order);
      ASSERT_TRUE(result);
      EXPECT_EQ(result->getInDims(), layout.getInDims());
      for (size_t i = 0; i < order.size(); ++i)
        EXPECT_EQ(result->getOutDimSize(terrazzo::tensorDimName(i)),
                  shape[order[i]]);
      for (const Dims &input : allInputs(layout)) {
        std::vector<int32_t> from = coords(layout.apply(input));
        std::vector<int32_t> to = coords(result->apply(input));
        for (size_t i = 0; i < order.size(); ++i)
          ASSERT_EQ(to[i], from[order[i]]);
      }
    }
}

TEST(ShapeLayouts, TransposeRejectsNonPermutations) {
  LinearLayout layout = terrazzo::blockedLayout({4, 8}, {1, 1}, {4, 8},
                                                {1, 1}, {1, 0});
  EXPECT_FALSE(terrazzo::transposeLayout(layout, {0, 0}));
  EXPECT_FALSE(terrazzo::transposeLayout(layout, {0}));
  EXPECT_FALSE(terrazzo::transposeLayout(layout, {1, 2}));
}

TEST(ShapeLayouts, ReshapeKeepsRowMajorIndex) {
  std::mt19937 engine(2);
  auto rowMajor = [](const std::vector<int32_t> &c,
                     const std::vector<int64_t> &shape) {
    int64_t flat = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      flat = flat * shape[d] + c[d];
    return flat;
  };
  for (const auto &shape : kShapes) {
    int64_t count = 1;
    for (int64_t size : shape)
      count *= size;
    // A few targets of the same size: flat, two and three dimensions.
    std::vector<std::vector<int64_t>> targets = {{count}};
    if (count >= 4)
      targets.push_back({2, count / 2});
    if (count >= 8)
      targets.push_back({count / 4, 2, 2});
    for (const auto &target : targets)
      for (int trial = 0; trial < 3; ++trial) {
        LinearLayout layout = randomBlocked(engine, shape);
        std::optional<LinearLayout> result =
            terrazzo::reshapeLayout(layout, target);
        ASSERT_TRUE(result);
        EXPECT_EQ(result->getInDims(), layout.getInDims());
        for (const Dims &input : allInputs(layout))
          ASSERT_EQ(rowMajor(coords(result->apply(input)), target),
                    rowMajor(coords(layout.apply(input)), shape));
      }
  }
}

TEST(ShapeLayouts, ReshapeRejectsOtherSizes) {
  LinearLayout layout = terrazzo::blockedLayout({4, 8}, {1, 1}, {4, 8},
                                                {1, 1}, {1, 0});
  EXPECT_FALSE(terrazzo::reshapeLayout(layout, {64}));
  EXPECT_FALSE(terrazzo::reshapeLayout(layout, {3, 8}));
  EXPECT_TRUE(terrazzo::reshapeLayout(layout, {32}));
}

TEST(ShapeLayouts, JoinAddsTheLowestRegisterBit) {
  std::mt19937 engine(3);
  for (const auto &shape : kShapes)
    for (int trial = 0; trial < 3; ++trial) {
      LinearLayout layout = randomBlocked(engine, shape);
      LinearLayout joined = terrazzo::joinLayout(layout);
      ASSERT_EQ(joined.getNumOutDims(), int(shape.size()) + 1);
      EXPECT_EQ(joined.getNumRegisters(), 2 * layout.getNumRegisters());
      // Register 2r + k holds element (x, k) where register r of the
      // source held x, in every thread.
      for (const Dims &input : allInputs(joined)) {
        Dims source;
        for (const auto &[name, v] : input)
          source.emplace_back(name, name == "register" ? v / 2 : v);
        std::vector<int32_t> expected = coords(layout.apply(source));
        expected.push_back(value(input, "register") % 2);
        ASSERT_EQ(coords(joined.apply(input)), expected);
      }
      // And split takes it back, from register bit 0.
      EXPECT_EQ(terrazzo::splitRegisterBit(joined), 0);
      if (shape.size() > 0)
        EXPECT_EQ(terrazzo::splitLayout(joined), layout);
    }
}

TEST(ShapeLayouts, SplitFindsTheHalvesInRegisters) {
  // Two elements per thread along the last dimension, after two rows:
  // register bit 1 holds the halves.
  LinearLayout layout = terrazzo::blockedLayout({256, 2}, {2, 2}, {32, 1},
                                                {4, 1}, {0, 1});
  ASSERT_EQ(terrazzo::splitRegisterBit(layout), 1);
  std::optional<LinearLayout> half = terrazzo::splitLayout(layout);
  ASSERT_TRUE(half);
  EXPECT_EQ(half->getNumRegisters(), layout.getNumRegisters() / 2);
  for (const Dims &input : allInputs(*half))
    for (int k = 0; k < 2; ++k) {
      Dims source;
      for (const auto &[name, v] : input)
        source.emplace_back(name, name == "register"
                                      ? terrazzo::splitSourceRegister(v, 1, k)
                                      : v);
      std::vector<int32_t> expected = coords(half->apply(input));
      expected.push_back(k);
      ASSERT_EQ(coords(layout.apply(source)), expected);
    }
}

TEST(ShapeLayouts, SplitNeedsBothHalvesInOneThread) {
  // The default layout of 256 x 2 puts the halves in neighbouring lanes.
  LinearLayout lanes = terrazzo::blockedLayout({256, 2}, {1, 1}, {16, 2},
                                               {4, 1}, {1, 0});
  EXPECT_FALSE(terrazzo::splitRegisterBit(lanes));
  EXPECT_FALSE(terrazzo::splitLayout(lanes));
  // A register basis that also moves along another dimension.
  LinearLayout mixed({{"register", {{1, 1}}}, {"lane", {{2, 0}}}},
                     {{"dim0", 4}, {"dim1", 2}});
  EXPECT_FALSE(terrazzo::splitRegisterBit(mixed));
  // Rank 1: the halves would be 0-D.
  LinearLayout pair({{"register", {{1}}}}, {{"dim0", 2}});
  EXPECT_EQ(terrazzo::splitRegisterBit(pair), 0);
  EXPECT_FALSE(terrazzo::splitLayout(pair));
}

TEST(ShapeLayouts, SplitSourceRegister) {
  EXPECT_EQ(terrazzo::splitSourceRegister(0b101, 0, 0), 0b1010);
  EXPECT_EQ(terrazzo::splitSourceRegister(0b101, 0, 1), 0b1011);
  EXPECT_EQ(terrazzo::splitSourceRegister(0b101, 2, 0), 0b1001);
  EXPECT_EQ(terrazzo::splitSourceRegister(0b101, 2, 1), 0b1101);
  EXPECT_EQ(terrazzo::splitSourceRegister(0b11, 2, 1), 0b111);
}

} // namespace
