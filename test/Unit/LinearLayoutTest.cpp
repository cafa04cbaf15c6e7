// Unit tests of the linear-layout algebra (dialects/TileGPU/Layout).
//
// Three kinds of tests:
//   * small examples whose expected bases were worked out by hand;
//   * named layouts checked element by element against references that compute
//     the coordinates directly from the layout parameters;
//   * properties of random layouts (fixed seeds), checked by evaluating every
//     input with apply().
#include "dialects/TileGPU/Layout/LinearLayout.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using terrazzo::LinearLayout;
using Dims = LinearLayout::DimsT;
using Bases = LinearLayout::BasesT;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int log2Of(int64_t value) {
  int bits = 0;
  while ((int64_t(1) << bits) < value)
    ++bits;
  return bits;
}

/// Every input of `layout`, as named values in in-dim order. The first input
/// dimension varies fastest.
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

/// Splits a flat index over `dims`, first dimension fastest.
Dims split(int64_t flat, const Dims &dims) {
  Dims values;
  for (const auto &[name, size] : dims) {
    values.emplace_back(name, static_cast<int32_t>(flat % size));
    flat /= size;
  }
  return values;
}

/// The flat index of named values over `dims`, first dimension fastest.
int64_t flatten(const Dims &values, const Dims &dims) {
  std::map<std::string, int32_t> byName(values.begin(), values.end());
  int64_t flat = 0, stride = 1;
  for (const auto &[name, size] : dims) {
    flat += byName.at(name) * stride;
    stride *= size;
  }
  return flat;
}

std::map<std::string, int32_t> asMap(const Dims &values) {
  return std::map<std::string, int32_t>(values.begin(), values.end());
}

/// The identity over the given dimensions (each named dimension to itself).
LinearLayout identityOn(const Dims &dims) {
  LinearLayout result = LinearLayout::empty();
  for (const auto &[name, size] : dims)
    result *= LinearLayout::identity1D(size, name, name);
  return result;
}

/// A layout given as a list of flattened columns (input bits in flattened
/// order; each column's bits split over the output dimensions, first lowest).
LinearLayout fromColumns(const Dims &inDims, const Dims &outDims,
                         const std::vector<uint64_t> &columns) {
  Bases bases;
  size_t next = 0;
  for (const auto &[name, size] : inDims) {
    std::vector<LinearLayout::Basis> dimBases;
    for (int bit = 0; bit < log2Of(size); ++bit) {
      uint64_t column = columns.at(next++);
      LinearLayout::Basis basis;
      for (const auto &out : outDims) {
        basis.push_back(static_cast<int32_t>(column % out.second));
        column /= out.second;
      }
      dimBases.push_back(std::move(basis));
    }
    bases.emplace_back(name, std::move(dimBases));
  }
  EXPECT_EQ(next, columns.size());
  return LinearLayout(std::move(bases), outDims);
}

class Random {
public:
  explicit Random(uint32_t seed) : engine(seed) {}
  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine);
  }
  uint64_t bits(int count) {
    if (count == 0)
      return 0;
    return std::uniform_int_distribution<uint64_t>(0, (uint64_t(1) << count) -
                                                          1)(engine);
  }
  bool chance(int percent) { return range(0, 99) < percent; }

  /// Splits `totalBits` over 1..maxDims dimensions named prefix0, prefix1...
  /// (some may have size 1).
  Dims dims(int totalBits, const std::string &prefix, int maxDims = 3) {
    int count = static_cast<int>(range(1, maxDims));
    std::vector<int> widths(count, 0);
    for (int bit = 0; bit < totalBits; ++bit)
      ++widths[range(0, count - 1)];
    Dims result;
    for (int i = 0; i < count; ++i)
      result.emplace_back(prefix + std::to_string(i), int32_t(1) << widths[i]);
    return result;
  }

  /// Random columns for `inBits` inputs over `outBits` outputs, with extra
  /// zero and repeated columns to exercise degenerate cases.
  std::vector<uint64_t> columns(int inBits, int outBits) {
    std::vector<uint64_t> result;
    for (int i = 0; i < inBits; ++i) {
      if (chance(15))
        result.push_back(0);
      else if (!result.empty() && chance(15))
        result.push_back(result[range(0, result.size() - 1)]);
      else
        result.push_back(bits(outBits));
    }
    return result;
  }

  template <typename T> void shuffle(std::vector<T> &values) {
    std::shuffle(values.begin(), values.end(), engine);
  }

private:
  std::mt19937 engine;
};

/// The set of outputs of `layout`, as flat indices.
std::set<int64_t> image(const LinearLayout &layout) {
  std::set<int64_t> result;
  for (const Dims &input : allInputs(layout))
    result.insert(flatten(layout.apply(input), layout.getOutDims()));
  return result;
}

/// A surjective layout with random dimensions, ins named inPrefix*, outs
/// outPrefix*.
LinearLayout randomSurjective(Random &rng, int outBits, int inBits,
                              const std::string &inPrefix,
                              const std::string &outPrefix) {
  Dims outDims = rng.dims(outBits, outPrefix);
  Dims inDims = rng.dims(inBits, inPrefix);
  while (true) {
    LinearLayout layout =
        fromColumns(inDims, outDims, rng.columns(inBits, outBits));
    if (static_cast<int64_t>(image(layout).size()) ==
        layout.getTotalOutDimSize())
      return layout;
  }
}

LinearLayout randomLayout(Random &rng, int inBits, int outBits,
                          const std::string &inPrefix,
                          const std::string &outPrefix) {
  Dims outDims = rng.dims(outBits, outPrefix);
  Dims inDims = rng.dims(inBits, inPrefix);
  return fromColumns(inDims, outDims, rng.columns(inBits, outBits));
}

//===----------------------------------------------------------------------===//
// Construction and queries
//===----------------------------------------------------------------------===//

TEST(LinearLayout, Identity1D) {
  LinearLayout layout = LinearLayout::identity1D(8, "in", "out");
  EXPECT_EQ(layout, LinearLayout({{"in", {{1}, {2}, {4}}}}, {{"out", 8}}));
  EXPECT_EQ(layout.getInDimSize("in"), 8);
  EXPECT_EQ(layout.getInDimSizeLog2("in"), 3);
  EXPECT_EQ(layout.getOutDimSize("out"), 8);
  EXPECT_EQ(layout.getOutDimSizeLog2("out"), 3);
  for (int32_t x = 0; x < 8; ++x)
    EXPECT_EQ(layout.apply({{"in", x}}), (Dims{{"out", x}}));
  EXPECT_TRUE(layout.isInvertible());
  EXPECT_EQ(LinearLayout::identity1D(1, "in", "out"),
            LinearLayout({{"in", {}}}, {{"out", 1}}));
}

TEST(LinearLayout, Zeros1D) {
  LinearLayout layout = LinearLayout::zeros1D(8, "in", "out");
  EXPECT_EQ(layout, LinearLayout({{"in", {{0}, {0}, {0}}}}, {{"out", 1}}));
  for (int32_t x = 0; x < 8; ++x)
    EXPECT_EQ(layout.apply({{"in", x}}), (Dims{{"out", 0}}));
  EXPECT_TRUE(layout.isSurjective());
  EXPECT_FALSE(layout.isInjective());
}

TEST(LinearLayout, Empty) {
  LinearLayout empty = LinearLayout::empty();
  EXPECT_EQ(empty, LinearLayout());
  EXPECT_EQ(empty.getNumInDims(), 0);
  EXPECT_EQ(empty.getNumOutDims(), 0);
  EXPECT_EQ(empty.getTotalInDimSize(), 1);
  EXPECT_EQ(empty.getTotalOutDimSize(), 1);
  EXPECT_EQ(empty.apply({}), Dims{});
  EXPECT_TRUE(empty.isInvertible());
  EXPECT_EQ(empty.invert(), empty);
  LinearLayout layout = LinearLayout::identity1D(4, "in", "out");
  EXPECT_EQ(empty * layout, layout);
  EXPECT_EQ(layout * empty, layout);
}

TEST(LinearLayout, TryCreateRejectsInvalidInput) {
  std::string error;
  auto rejects = [&](Bases bases, Dims outDims, const std::string &word) {
    error.clear();
    std::optional<LinearLayout> layout =
        LinearLayout::tryCreate(std::move(bases), std::move(outDims), &error);
    EXPECT_FALSE(layout.has_value());
    EXPECT_NE(error.find(word), std::string::npos) << error;
  };
  rejects({{"in", {{4}}}}, {{"out", 4}}, "coordinate 4");
  rejects({{"in", {{-1}}}}, {{"out", 4}}, "coordinate -1");
  rejects({{"in", {{1, 0}}}}, {{"out", 4}}, "2 coordinates");
  rejects({{"in", {{1}}}}, {{"out", 6}}, "power of two");
  rejects({{"in", {}}}, {{"out", 0}}, "power of two");
  rejects({{"in", {}}, {"in", {}}}, {}, "appears twice");
  rejects({}, {{"out", 2}, {"out", 2}}, "appears twice");
  rejects({{"in", std::vector<LinearLayout::Basis>(31, {0})}}, {{"out", 1}},
          "31 bases");
  rejects({{"a", std::vector<LinearLayout::Basis>(30, {0})},
           {"b", std::vector<LinearLayout::Basis>(30, {0})},
           {"c", std::vector<LinearLayout::Basis>(3, {0})}},
          {{"out", 1}}, "63 bits");

  // Valid input, including non-surjective and non-injective layouts.
  std::optional<LinearLayout> layout =
      LinearLayout::tryCreate({{"in", {{2}, {2}}}}, {{"out", 8}}, &error);
  ASSERT_TRUE(layout.has_value());
  EXPECT_EQ(layout->getBasis("in", 1), LinearLayout::Basis{2});
}

// A register layout over a 2 x 4 tensor: register bits walk dim1, the lane
// bit walks dim0.
LinearLayout twoByFour() {
  return LinearLayout({{"register", {{0, 1}, {0, 2}}}, {"lane", {{1, 0}}}},
                      {{"dim0", 2}, {"dim1", 4}});
}

TEST(LinearLayout, Queries) {
  LinearLayout layout = twoByFour();
  EXPECT_EQ(layout.getInDimNames(),
            (std::vector<std::string>{"register", "lane"}));
  EXPECT_EQ(layout.getOutDimNames(),
            (std::vector<std::string>{"dim0", "dim1"}));
  EXPECT_EQ(layout.getInDims(), (Dims{{"register", 4}, {"lane", 2}}));
  EXPECT_EQ(layout.getOutDims(), (Dims{{"dim0", 2}, {"dim1", 4}}));
  EXPECT_EQ(layout.getNumInDims(), 2);
  EXPECT_EQ(layout.getNumOutDims(), 2);
  EXPECT_TRUE(layout.hasInDim("lane"));
  EXPECT_FALSE(layout.hasInDim("warp"));
  EXPECT_TRUE(layout.hasOutDim("dim1"));
  EXPECT_FALSE(layout.hasOutDim("dim2"));
  EXPECT_EQ(layout.getInDimIndex("lane"), 1);
  EXPECT_EQ(layout.getOutDimIndex("dim1"), 1);
  EXPECT_EQ(layout.getInDimSize("register"), 4);
  EXPECT_EQ(layout.getInDimSizeLog2("lane"), 1);
  EXPECT_EQ(layout.getOutDimSize("dim1"), 4);
  EXPECT_EQ(layout.getOutDimSizeLog2("dim0"), 1);
  EXPECT_EQ(layout.getTotalInDimSize(), 8);
  EXPECT_EQ(layout.getTotalInDimSizeLog2(), 3);
  EXPECT_EQ(layout.getTotalOutDimSize(), 8);
  EXPECT_EQ(layout.getTotalOutDimSizeLog2(), 3);
  EXPECT_EQ(layout.getBasis("register", 1), (LinearLayout::Basis{0, 2}));
  EXPECT_EQ(layout.getBasis("lane", 0, "dim0"), 1);
  EXPECT_EQ(layout.getNumRegisters(), 4);
  EXPECT_EQ(LinearLayout::identity1D(4, "lane", "dim0").getNumRegisters(), 1);
}

TEST(LinearLayout, ApplyXorsBases) {
  LinearLayout layout = twoByFour();
  EXPECT_EQ(layout.apply({{"register", 3}, {"lane", 1}}),
            (Dims{{"dim0", 1}, {"dim1", 3}}));
  // Inputs may come in any order; outputs are in out-dim order.
  EXPECT_EQ(layout.apply({{"lane", 1}, {"register", 2}}),
            (Dims{{"dim0", 1}, {"dim1", 2}}));

  // A swizzled shared-memory layout of a 4 x 4 tile: offset = 4 * row +
  // (col ^ row).
  LinearLayout swizzle({{"offset", {{0, 1}, {0, 2}, {1, 1}, {2, 2}}}},
                       {{"dim0", 4}, {"dim1", 4}});
  EXPECT_EQ(swizzle.apply({{"offset", 5}}), (Dims{{"dim0", 1}, {"dim1", 0}}));
  EXPECT_EQ(swizzle.apply({{"offset", 14}}), (Dims{{"dim0", 3}, {"dim1", 1}}));
  EXPECT_EQ(swizzle.apply({{"offset", 15}}), (Dims{{"dim0", 3}, {"dim1", 0}}));
  for (int32_t offset = 0; offset < 16; ++offset) {
    int32_t row = offset / 4, col = (offset % 4) ^ row;
    EXPECT_EQ(swizzle.apply({{"offset", offset}}),
              (Dims{{"dim0", row}, {"dim1", col}}));
  }
}

TEST(LinearLayout, ToString) {
  EXPECT_EQ(twoByFour().toString(), "register[4]: (0, 1) (0, 2)\n"
                                    "lane[2]: (1, 0)\n"
                                    "-> dim0[2] dim1[4]");
  EXPECT_EQ(LinearLayout({{"block", {}}}, {}).toString(),
            "block[1]: -\n-> (no output dimensions)");
}

TEST(LinearLayout, Equality) {
  EXPECT_EQ(twoByFour(), twoByFour());
  // Same bases, different output size.
  EXPECT_NE(LinearLayout({{"in", {{1}}}}, {{"out", 2}}),
            LinearLayout({{"in", {{1}}}}, {{"out", 4}}));
  // Same function, different dimension order.
  EXPECT_NE(twoByFour(), twoByFour().transposeIns({"lane", "register"}));
}

//===----------------------------------------------------------------------===//
// Product
//===----------------------------------------------------------------------===//

TEST(LinearLayout, ProductSameDims) {
  EXPECT_EQ(LinearLayout::identity1D(4, "i", "o") *
                LinearLayout::identity1D(2, "i", "o"),
            LinearLayout::identity1D(8, "i", "o"));
  // x -> x % 4.
  LinearLayout modulo = LinearLayout::identity1D(4, "i", "o") *
                        LinearLayout::zeros1D(2, "i", "o");
  EXPECT_EQ(modulo, LinearLayout({{"i", {{1}, {2}, {0}}}}, {{"o", 4}}));
  for (int32_t x = 0; x < 8; ++x)
    EXPECT_EQ(modulo.apply({{"i", x}}), (Dims{{"o", x % 4}}));
  // x -> x / 2.
  LinearLayout divide = LinearLayout::zeros1D(2, "i", "o") *
                        LinearLayout::identity1D(4, "i", "o");
  EXPECT_EQ(divide, LinearLayout({{"i", {{0}, {1}, {2}}}}, {{"o", 4}}));
}

TEST(LinearLayout, ProductDisjointAndMixedDims) {
  EXPECT_EQ(LinearLayout::identity1D(4, "x", "a") *
                LinearLayout::identity1D(2, "y", "b"),
            LinearLayout({{"x", {{1, 0}, {2, 0}}}, {"y", {{0, 1}}}},
                         {{"a", 4}, {"b", 2}}));
  // Same input, different outputs: x -> (x % 4, x / 4).
  EXPECT_EQ(LinearLayout::identity1D(4, "i", "a") *
                LinearLayout::identity1D(8, "i", "b"),
            LinearLayout({{"i", {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}},
                         {{"a", 4}, {"b", 8}}));
  // Different inputs, same output: lanes continue where registers stop.
  EXPECT_EQ(LinearLayout::identity1D(4, "register", "dim0") *
                LinearLayout::identity1D(8, "lane", "dim0"),
            LinearLayout({{"register", {{1}, {2}}}, {"lane", {{4}, {8}, {16}}}},
                         {{"dim0", 32}}));
  // The right operand's shared output dims are shifted, its own are not.
  LinearLayout lhs({{"r", {{1, 0}}}}, {{"d0", 2}, {"d1", 1}});
  LinearLayout rhs({{"r", {{1, 1}}}, {"l", {{0, 1}}}}, {{"d1", 2}, {"d0", 2}});
  EXPECT_EQ(lhs * rhs, LinearLayout({{"r", {{1, 0}, {2, 1}}}, {"l", {{2, 0}}}},
                                    {{"d0", 4}, {"d1", 2}}));
}

//===----------------------------------------------------------------------===//
// Composition and inversion
//===----------------------------------------------------------------------===//

TEST(LinearLayout, Compose) {
  LinearLayout reverse({{"x", {{4}, {2}, {1}}}}, {{"x", 8}});
  EXPECT_EQ(reverse.compose(reverse), LinearLayout::identity1D(8, "x", "x"));

  LinearLayout inner({{"r", {{1}, {6}}}}, {{"m", 8}});
  LinearLayout outer({{"m", {{1}, {2}, {3}}}}, {{"t", 4}});
  // r=1 -> m=1 -> t=1; r=2 -> m=6 -> t=2^3=1.
  EXPECT_EQ(inner.compose(outer),
            LinearLayout({{"r", {{1}, {1}}}}, {{"t", 4}}));

  // The outer input may be larger than the inner output.
  LinearLayout wide({{"y", {{2}, {4}, {1}}}}, {{"z", 8}});
  EXPECT_EQ(LinearLayout::identity1D(4, "x", "y").compose(wide),
            LinearLayout({{"x", {{2}, {4}}}}, {{"z", 8}}));

  // Output dims are matched by name, not position.
  LinearLayout twoD({{"i", {{1, 0}, {0, 1}}}}, {{"a", 2}, {"b", 2}});
  LinearLayout swap({{"b", {{1, 0}}}, {"a", {{0, 1}}}}, {{"p", 2}, {"q", 2}});
  EXPECT_EQ(twoD.compose(swap),
            LinearLayout({{"i", {{0, 1}, {1, 0}}}}, {{"p", 2}, {"q", 2}}));
}

TEST(LinearLayout, Invert) {
  LinearLayout swizzle({{"offset", {{0, 1}, {0, 2}, {1, 1}, {2, 2}}}},
                       {{"dim0", 4}, {"dim1", 4}});
  ASSERT_TRUE(swizzle.isInvertible());
  // (1,0) = L(4) ^ L(1) = L(5); (2,0) = L(8) ^ L(2) = L(10).
  LinearLayout inverse({{"dim0", {{5}, {10}}}, {"dim1", {{1}, {2}}}},
                       {{"offset", 16}});
  EXPECT_EQ(swizzle.invert(), inverse);
  EXPECT_EQ(inverse.invert(), swizzle);
  EXPECT_EQ(swizzle.compose(inverse),
            LinearLayout::identity1D(16, "offset", "offset"));
  EXPECT_EQ(swizzle.pseudoinvert(), inverse);
}

TEST(LinearLayout, Pseudoinvert) {
  // Input bit 1 duplicates input bit 0; the right inverse leaves it 0.
  LinearLayout layout({{"x", {{1}, {1}, {2}}}}, {{"y", 4}});
  EXPECT_EQ(layout.pseudoinvert(),
            LinearLayout({{"y", {{1}, {4}}}}, {{"x", 8}}));

  LinearLayout twoInputs({{"r", {{0}, {1}}}, {"l", {{2}}}}, {{"o", 4}});
  LinearLayout inverse = twoInputs.pseudoinvert();
  EXPECT_EQ(inverse,
            LinearLayout({{"o", {{2, 0}, {0, 1}}}}, {{"r", 4}, {"l", 2}}));
  for (int32_t o = 0; o < 4; ++o) {
    Dims back = inverse.apply({{"o", o}});
    EXPECT_EQ(twoInputs.apply(back), (Dims{{"o", o}}));
  }
}

TEST(LinearLayout, InvertAndCompose) {
  // Registers hold dim0 in order; lanes hold it with the bits swapped.
  LinearLayout registers = LinearLayout::identity1D(4, "register", "dim0");
  LinearLayout lanes({{"lane", {{2}, {1}}}}, {{"dim0", 4}});
  EXPECT_EQ(registers.invertAndCompose(lanes),
            LinearLayout({{"register", {{2}, {1}}}}, {{"lane", 4}}));

  // A broadcasting destination: element e lives in register e & 1 of every
  // lane whose bit 1 equals e >> 1. The conversion picks the register and
  // leaves the broadcast lane bit 0.
  LinearLayout src({{"register", {}}, {"lane", {{1}, {2}}}}, {{"dim0", 4}});
  LinearLayout dst({{"register", {{1}}}, {"lane", {{0}, {2}}}}, {{"dim0", 4}});
  EXPECT_EQ(src.invertAndCompose(dst),
            LinearLayout({{"register", {}}, {"lane", {{1, 0}, {0, 2}}}},
                         {{"register", 2}, {"lane", 4}}));

  // Output dims are matched by name.
  LinearLayout rowsFirst({{"x", {{1, 0}, {0, 1}}}}, {{"dim1", 2}, {"dim0", 2}});
  LinearLayout colsFirst({{"y", {{1, 0}, {0, 1}}}}, {{"dim0", 2}, {"dim1", 2}});
  EXPECT_EQ(rowsFirst.invertAndCompose(colsFirst),
            LinearLayout({{"x", {{2}, {1}}}}, {{"y", 4}}));

  // Not in the image: the outer layout only reaches {0, 1}.
  LinearLayout half({{"lane", {{1}, {0}}}}, {{"dim0", 4}});
  std::string error;
  EXPECT_FALSE(registers.tryInvertAndCompose(half, &error).has_value());
  EXPECT_NE(error.find("not in the image"), std::string::npos) << error;
  // A nonzero coordinate along an output the outer layout does not have.
  LinearLayout other = LinearLayout::identity1D(4, "lane", "dim1");
  EXPECT_FALSE(registers.tryInvertAndCompose(other, &error).has_value());
  EXPECT_NE(error.find("does not have"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Restructuring
//===----------------------------------------------------------------------===//

// register bit -> dim1, lane bits -> dim0 and dim1, warp bit -> dim0.
LinearLayout threeInputs() {
  return LinearLayout(
      {{"register", {{0, 1}}}, {"lane", {{1, 0}, {0, 2}}}, {"warp", {{2, 0}}}},
      {{"dim0", 4}, {"dim1", 4}});
}

TEST(LinearLayout, Sublayout) {
  LinearLayout layout = threeInputs();
  EXPECT_EQ(layout.sublayout({"lane"}, {"dim1"}),
            LinearLayout({{"lane", {{0}, {2}}}}, {{"dim1", 4}}));
  // The layout's order is kept, not the arguments'.
  EXPECT_EQ(layout.sublayout({"warp", "register"}, {"dim1", "dim0"}),
            LinearLayout({{"register", {{0, 1}}}, {"warp", {{2, 0}}}},
                         {{"dim0", 4}, {"dim1", 4}}));
  EXPECT_EQ(layout.sublayout({}, {}), LinearLayout::empty());
  EXPECT_TRUE(layout.sublayoutIsZero({"register"}, {"dim0"}));
  EXPECT_TRUE(layout.sublayoutIsZero({"warp"}, {"dim1"}));
  EXPECT_FALSE(layout.sublayoutIsZero({"lane"}, {"dim1"}));
  EXPECT_FALSE(layout.sublayoutIsZero({"register", "warp"}, {"dim0", "dim1"}));
}

TEST(LinearLayout, Transpose) {
  LinearLayout layout = threeInputs();
  LinearLayout ins = layout.transposeIns({"warp", "register", "lane"});
  EXPECT_EQ(ins, LinearLayout({{"warp", {{2, 0}}},
                               {"register", {{0, 1}}},
                               {"lane", {{1, 0}, {0, 2}}}},
                              {{"dim0", 4}, {"dim1", 4}}));
  LinearLayout outs = layout.transposeOuts({"dim1", "dim0"});
  EXPECT_EQ(outs, LinearLayout({{"register", {{1, 0}}},
                                {"lane", {{0, 1}, {2, 0}}},
                                {"warp", {{0, 2}}}},
                               {{"dim1", 4}, {"dim0", 4}}));
  for (const Dims &input : allInputs(layout)) {
    EXPECT_EQ(asMap(ins.apply(input)), asMap(layout.apply(input)));
    EXPECT_EQ(asMap(outs.apply(input)), asMap(layout.apply(input)));
  }
}

TEST(LinearLayout, ReshapeOuts) {
  // (dim0, dim1) -> dim0 + 4 * dim1: the first dim is fastest.
  LinearLayout twoD = LinearLayout::identity1D(4, "x", "dim0") *
                      LinearLayout::identity1D(2, "x", "dim1");
  EXPECT_EQ(twoD.reshapeOuts({{"flat", 8}}),
            LinearLayout::identity1D(8, "x", "flat"));
  EXPECT_EQ(twoD.flattenOuts(), LinearLayout::identity1D(8, "x", "dim0"));
  // With dim1 first: flat = dim1 + 2 * dim0.
  EXPECT_EQ(twoD.transposeOuts({"dim1", "dim0"}).reshapeOuts({{"flat", 8}}),
            LinearLayout({{"x", {{2}, {4}, {1}}}}, {{"flat", 8}}));
  EXPECT_EQ(
      LinearLayout::identity1D(8, "x", "flat")
          .reshapeOuts({{"a", 2}, {"b", 4}}),
      LinearLayout({{"x", {{1, 0}, {0, 1}, {0, 2}}}}, {{"a", 2}, {"b", 4}}));
}

TEST(LinearLayout, ReshapeIns) {
  LinearLayout layout({{"register", {{1}}}, {"lane", {{2}, {4}}}}, {{"o", 8}});
  EXPECT_EQ(layout.reshapeIns({{"t", 8}}),
            LinearLayout::identity1D(8, "t", "o"));
  EXPECT_EQ(layout.flattenIns(), LinearLayout::identity1D(8, "register", "o"));
  EXPECT_EQ(layout.reshapeIns({{"a", 4}, {"b", 2}}),
            LinearLayout({{"a", {{1}, {2}}}, {"b", {{4}}}}, {{"o", 8}}));
  EXPECT_EQ(layout.reshapeIns({{"a", 1}, {"b", 8}}),
            LinearLayout({{"a", {}}, {"b", {{1}, {2}, {4}}}}, {{"o", 8}}));
}

TEST(LinearLayout, RemoveZeroBasesAlongDim) {
  LinearLayout layout({{"register", {{0}, {1}, {0}}}, {"lane", {{0}, {2}}}},
                      {{"o", 4}});
  EXPECT_EQ(
      layout.removeZeroBasesAlongDim("register"),
      LinearLayout({{"register", {{1}}}, {"lane", {{0}, {2}}}}, {{"o", 4}}));
  EXPECT_EQ(layout.removeZeroBasesAlongDim("lane"),
            LinearLayout({{"register", {{0}, {1}, {0}}}, {"lane", {{2}}}},
                         {{"o", 4}}));
}

//===----------------------------------------------------------------------===//
// Properties of the map
//===----------------------------------------------------------------------===//

TEST(LinearLayout, SurjectiveInjective) {
  LinearLayout identity = LinearLayout::identity1D(8, "i", "o");
  EXPECT_TRUE(identity.isSurjective());
  EXPECT_TRUE(identity.isInjective());
  EXPECT_TRUE(identity.isInvertible());
  EXPECT_EQ(identity.getRank(), 3);

  LinearLayout zeros = LinearLayout::zeros1D(4, "i", "o");
  EXPECT_TRUE(zeros.isSurjective());
  EXPECT_FALSE(zeros.isInjective());
  EXPECT_EQ(zeros.getRank(), 0);

  LinearLayout stride({{"i", {{2}}}}, {{"o", 4}});
  EXPECT_FALSE(stride.isSurjective());
  EXPECT_TRUE(stride.isInjective());
  EXPECT_FALSE(stride.isInvertible());

  LinearLayout duplicate({{"i", {{1}, {1}, {2}}}}, {{"o", 4}});
  EXPECT_TRUE(duplicate.isSurjective());
  EXPECT_FALSE(duplicate.isInjective());
  EXPECT_EQ(duplicate.getRank(), 2);

  // Square and surjective across several dims.
  EXPECT_TRUE(threeInputs().isInvertible());
}

TEST(LinearLayout, FreeVariableMasks) {
  // register bit 1 is zero; lane bit 0 repeats register bit 0.
  LinearLayout layout({{"register", {{1}, {0}}}, {"lane", {{1}, {2}}}},
                      {{"o", 4}});
  EXPECT_EQ(layout.getFreeVariableMasks(),
            (Dims{{"register", 0b10}, {"lane", 0b01}}));
  EXPECT_EQ(threeInputs().getFreeVariableMasks(),
            (Dims{{"register", 0}, {"lane", 0}, {"warp", 0}}));
  // A later bit that is the XOR of two earlier ones is free.
  LinearLayout xorOfTwo({{"x", {{1}, {2}, {3}}}}, {{"o", 4}});
  EXPECT_EQ(xorOfTwo.getFreeVariableMasks(), (Dims{{"x", 0b100}}));
}

TEST(LinearLayout, ContiguousRegisters) {
  LinearLayout layout(
      {{"register", {{0, 1}, {0, 2}, {1, 0}}}, {"lane", {{0, 4}}}},
      {{"dim0", 2}, {"dim1", 8}});
  EXPECT_EQ(layout.getContiguousRegisters(1), 4);
  EXPECT_EQ(layout.getContiguousRegisters(0), 1);
  // A register stride of 4 stops the run.
  LinearLayout strided({{"register", {{1}, {4}}}}, {{"dim0", 8}});
  EXPECT_EQ(strided.getContiguousRegisters(0), 2);
  // A register basis that also moves another dimension stops the run.
  LinearLayout mixed({{"register", {{0, 1}, {1, 2}}}},
                     {{"dim0", 2}, {"dim1", 4}});
  EXPECT_EQ(mixed.getContiguousRegisters(1), 2);
  // All registers contiguous.
  EXPECT_EQ(LinearLayout::identity1D(16, "register", "dim0")
                .getContiguousRegisters(0),
            16);
  // No register dimension.
  EXPECT_EQ(
      LinearLayout::identity1D(16, "lane", "dim0").getContiguousRegisters(0),
      1);
}

//===----------------------------------------------------------------------===//
// Programmer errors
//===----------------------------------------------------------------------===//

TEST(LinearLayoutDeathTest, ProgrammerErrorsAreFatal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(LinearLayout({{"in", {{4}}}}, {{"out", 4}}), "coordinate 4");
  EXPECT_DEATH(LinearLayout::zeros1D(4, "i", "o").invert(), "not invertible");
  EXPECT_DEATH(LinearLayout({{"i", {{2}}}}, {{"o", 4}}).pseudoinvert(),
               "not surjective");
  EXPECT_DEATH(twoByFour().apply({{"register", 1}}), "1 inputs");
  EXPECT_DEATH(twoByFour().apply({{"register", 4}, {"lane", 0}}),
               "out of range");
  EXPECT_DEATH(twoByFour().compose(twoByFour()), "not an input dimension");
  EXPECT_DEATH(twoByFour().reshapeOuts({{"flat", 16}}), "2\\^4");
  EXPECT_DEATH(twoByFour().transposeIns({"lane"}), "not a permutation");
  EXPECT_DEATH(twoByFour().getInDimSize("warp"), "no input dimension 'warp'");
  LinearLayout half({{"lane", {{1}, {0}}}}, {{"dim0", 4}});
  EXPECT_DEATH(LinearLayout::identity1D(4, "r", "dim0").invertAndCompose(half),
               "not in the image");
}

//===----------------------------------------------------------------------===//
// Random layouts
//===----------------------------------------------------------------------===//

TEST(LinearLayoutProperty, RankMatchesBruteForce) {
  Random rng(1);
  for (int iter = 0; iter < 300; ++iter) {
    int inBits = static_cast<int>(rng.range(0, 9));
    int outBits = static_cast<int>(rng.range(0, 9));
    LinearLayout layout = randomLayout(rng, inBits, outBits, "in", "out");
    int64_t reached = static_cast<int64_t>(image(layout).size());
    SCOPED_TRACE(layout.toString());
    EXPECT_EQ(int64_t(1) << layout.getRank(), reached);
    EXPECT_EQ(layout.isSurjective(), reached == layout.getTotalOutDimSize());
    EXPECT_EQ(layout.isInjective(), reached == layout.getTotalInDimSize());
  }
}

TEST(LinearLayoutProperty, ApplyIsLinear) {
  Random rng(2);
  for (int iter = 0; iter < 200; ++iter) {
    LinearLayout layout =
        randomLayout(rng, static_cast<int>(rng.range(0, 8)),
                     static_cast<int>(rng.range(0, 8)), "in", "out");
    std::vector<Dims> inputs = allInputs(layout);
    for (int k = 0; k < 20; ++k) {
      const Dims &a = inputs[rng.range(0, inputs.size() - 1)];
      const Dims &b = inputs[rng.range(0, inputs.size() - 1)];
      Dims both = a;
      for (size_t i = 0; i < both.size(); ++i)
        both[i].second ^= b[i].second;
      Dims expected = layout.apply(a);
      Dims fromB = layout.apply(b);
      for (size_t i = 0; i < expected.size(); ++i)
        expected[i].second ^= fromB[i].second;
      EXPECT_EQ(layout.apply(both), expected);
    }
  }
}

TEST(LinearLayoutProperty, InvertRandomInvertible) {
  Random rng(3);
  for (int iter = 0; iter < 300; ++iter) {
    int bits = static_cast<int>(rng.range(0, 10));
    // Random independent columns.
    std::vector<uint64_t> columns;
    std::set<uint64_t> span = {0};
    while (static_cast<int>(columns.size()) < bits) {
      uint64_t column = rng.bits(bits);
      if (span.count(column))
        continue;
      columns.push_back(column);
      std::set<uint64_t> grown = span;
      for (uint64_t v : span)
        grown.insert(v ^ column);
      span = std::move(grown);
    }
    Dims inDims = rng.dims(bits, "in");
    Dims outDims = rng.dims(bits, "out");
    LinearLayout layout = fromColumns(inDims, outDims, columns);
    SCOPED_TRACE(layout.toString());
    ASSERT_TRUE(layout.isInvertible());
    LinearLayout inverse = layout.invert();
    EXPECT_EQ(layout.compose(inverse), identityOn(layout.getInDims()));
    EXPECT_EQ(inverse.compose(layout), identityOn(layout.getOutDims()));
    EXPECT_EQ(inverse.invert(), layout);
    EXPECT_EQ(layout.pseudoinvert(), inverse);
    for (const Dims &input : allInputs(layout))
      EXPECT_EQ(inverse.apply(layout.apply(input)), input);
  }
}

TEST(LinearLayoutProperty, PseudoinvertIsRightInverse) {
  Random rng(4);
  for (int iter = 0; iter < 300; ++iter) {
    int outBits = static_cast<int>(rng.range(0, 7));
    int inBits = outBits + static_cast<int>(rng.range(0, 4));
    LinearLayout layout = randomSurjective(rng, outBits, inBits, "in", "out");
    SCOPED_TRACE(layout.toString());
    ASSERT_TRUE(layout.isSurjective());
    LinearLayout inverse = layout.pseudoinvert();
    EXPECT_EQ(inverse.getInDims(), layout.getOutDims());
    EXPECT_EQ(inverse.getOutDims(), layout.getInDims());
    std::map<std::string, int32_t> free = asMap(layout.getFreeVariableMasks());
    for (const Dims &output : allInputs(inverse)) {
      Dims preimage = inverse.apply(output);
      EXPECT_EQ(layout.apply(preimage), output);
      // The free directions are mapped to 0.
      for (const auto &[name, value] : preimage)
        EXPECT_EQ(value & free[name], 0) << name;
    }
  }
}

TEST(LinearLayoutProperty, FreeVariablesSelectOnePreimage) {
  Random rng(5);
  for (int iter = 0; iter < 300; ++iter) {
    LinearLayout layout =
        randomLayout(rng, static_cast<int>(rng.range(0, 9)),
                     static_cast<int>(rng.range(0, 6)), "in", "out");
    SCOPED_TRACE(layout.toString());
    std::map<std::string, int32_t> free = asMap(layout.getFreeVariableMasks());
    std::set<int64_t> reached;
    int64_t selected = 0;
    for (const Dims &input : allInputs(layout)) {
      bool pinned = llvm::all_of(input, [&](const auto &entry) {
        return (entry.second & free[entry.first]) == 0;
      });
      if (!pinned)
        continue;
      ++selected;
      reached.insert(flatten(layout.apply(input), layout.getOutDims()));
    }
    // The inputs with no free bit set reach every output exactly once.
    EXPECT_EQ(static_cast<int64_t>(reached.size()), selected);
    EXPECT_EQ(reached, image(layout));
    bool noneFree =
        llvm::all_of(free, [](const auto &e) { return e.second == 0; });
    EXPECT_EQ(noneFree, layout.isInjective());
  }
}

TEST(LinearLayoutProperty, InvertAndComposeSurjectiveOuter) {
  Random rng(6);
  for (int iter = 0; iter < 300; ++iter) {
    int outBits = static_cast<int>(rng.range(0, 6));
    LinearLayout outer = randomSurjective(
        rng, outBits, outBits + static_cast<int>(rng.range(0, 3)), "b", "out");
    // Same output dimensions, possibly in another order.
    std::vector<std::string> outNames = outer.getOutDimNames();
    rng.shuffle(outNames);
    Dims outDims;
    for (const std::string &name : outNames)
      outDims.emplace_back(name, outer.getOutDimSize(name));
    int inBits = static_cast<int>(rng.range(0, 7));
    Dims innerIns = rng.dims(inBits, "a");
    LinearLayout inner =
        fromColumns(innerIns, outDims, rng.columns(inBits, outBits));
    SCOPED_TRACE(inner.toString() + "\nouter:\n" + outer.toString());
    LinearLayout conversion = inner.invertAndCompose(outer);
    EXPECT_EQ(conversion.getInDims(), inner.getInDims());
    EXPECT_EQ(conversion.getOutDims(), outer.getInDims());
    for (const Dims &input : allInputs(inner))
      EXPECT_EQ(asMap(outer.apply(conversion.apply(input))),
                asMap(inner.apply(input)));
  }
}

TEST(LinearLayoutProperty, InvertAndComposeNonSurjectiveOuter) {
  Random rng(7);
  int withImage = 0, withoutImage = 0;
  for (int iter = 0; iter < 300; ++iter) {
    LinearLayout outer =
        randomLayout(rng, static_cast<int>(rng.range(0, 6)),
                     static_cast<int>(rng.range(0, 6)), "b", "out");
    // An inner layout through the outer one always lies in its image.
    int inBits = static_cast<int>(rng.range(0, 6));
    Dims innerIns = rng.dims(inBits, "a");
    LinearLayout toOuterIns =
        fromColumns(innerIns, outer.getInDims(),
                    rng.columns(inBits, outer.getTotalInDimSizeLog2()));
    LinearLayout inner = toOuterIns.compose(outer);
    SCOPED_TRACE(inner.toString() + "\nouter:\n" + outer.toString());
    LinearLayout conversion = inner.invertAndCompose(outer);
    for (const Dims &input : allInputs(inner))
      EXPECT_EQ(outer.apply(conversion.apply(input)), inner.apply(input));

    // A random inner layout: a conversion exists iff its image is inside
    // outer's.
    LinearLayout any =
        fromColumns(innerIns, outer.getOutDims(),
                    rng.columns(inBits, outer.getTotalOutDimSizeLog2()));
    std::set<int64_t> outerImage = image(outer);
    bool contained = llvm::all_of(image(any), [&](int64_t value) {
      return outerImage.count(value) != 0;
    });
    std::optional<LinearLayout> maybe = any.tryInvertAndCompose(outer);
    EXPECT_EQ(maybe.has_value(), contained);
    (contained ? withImage : withoutImage)++;
    if (maybe) {
      for (const Dims &input : allInputs(any))
        EXPECT_EQ(outer.apply(maybe->apply(input)), any.apply(input));
    }
  }
  // Both branches were exercised.
  EXPECT_GT(withImage, 20);
  EXPECT_GT(withoutImage, 20);
}

TEST(LinearLayoutProperty, ProductOfDisjointLayouts) {
  Random rng(8);
  for (int iter = 0; iter < 300; ++iter) {
    LinearLayout lhs =
        randomLayout(rng, static_cast<int>(rng.range(0, 5)),
                     static_cast<int>(rng.range(0, 5)), "a", "x");
    LinearLayout rhs =
        randomLayout(rng, static_cast<int>(rng.range(0, 5)),
                     static_cast<int>(rng.range(0, 5)), "b", "y");
    LinearLayout product = lhs * rhs;
    SCOPED_TRACE(product.toString());
    EXPECT_EQ(product.sublayout(lhs.getInDimNames(), lhs.getOutDimNames()),
              lhs);
    EXPECT_EQ(product.sublayout(rhs.getInDimNames(), rhs.getOutDimNames()),
              rhs);
    EXPECT_TRUE(
        product.sublayoutIsZero(lhs.getInDimNames(), rhs.getOutDimNames()));
    EXPECT_TRUE(
        product.sublayoutIsZero(rhs.getInDimNames(), lhs.getOutDimNames()));
    EXPECT_EQ(product.getRank(), lhs.getRank() + rhs.getRank());
  }
}

TEST(LinearLayoutProperty, ProductOfSharedDims) {
  Random rng(9);
  for (int iter = 0; iter < 300; ++iter) {
    int lhsIn = static_cast<int>(rng.range(0, 5));
    int lhsOut = static_cast<int>(rng.range(0, 5));
    int rhsIn = static_cast<int>(rng.range(0, 5));
    int rhsOut = static_cast<int>(rng.range(0, 5));
    LinearLayout lhs = fromColumns({{"i", 1 << lhsIn}}, {{"o", 1 << lhsOut}},
                                   rng.columns(lhsIn, lhsOut));
    LinearLayout rhs = fromColumns({{"i", 1 << rhsIn}}, {{"o", 1 << rhsOut}},
                                   rng.columns(rhsIn, rhsOut));
    LinearLayout product = lhs * rhs;
    SCOPED_TRACE(product.toString());
    EXPECT_EQ(product.getOutDimSize("o"), 1 << (lhsOut + rhsOut));
    for (int32_t x = 0; x < (1 << (lhsIn + rhsIn)); ++x) {
      int32_t low = lhs.apply({{"i", x & ((1 << lhsIn) - 1)}})[0].second;
      int32_t high = rhs.apply({{"i", x >> lhsIn}})[0].second;
      EXPECT_EQ(product.apply({{"i", x}}),
                (Dims{{"o", low | (high << lhsOut)}}));
    }
  }
}

TEST(LinearLayoutProperty, ProductIsAssociative) {
  Random rng(10);
  auto layoutOverPool = [&]() {
    std::vector<std::string> ins = {"p", "q", "r"}, outs = {"u", "v"};
    rng.shuffle(ins);
    rng.shuffle(outs);
    ins.resize(rng.range(0, 3));
    outs.resize(rng.range(0, 2));
    Dims inDims, outDims;
    int inBits = 0, outBits = 0;
    for (const std::string &name : ins) {
      int bits = static_cast<int>(rng.range(0, 3));
      inBits += bits;
      inDims.emplace_back(name, 1 << bits);
    }
    for (const std::string &name : outs) {
      int bits = static_cast<int>(rng.range(0, 3));
      outBits += bits;
      outDims.emplace_back(name, 1 << bits);
    }
    return fromColumns(inDims, outDims, rng.columns(inBits, outBits));
  };
  int checked = 0;
  for (int iter = 0; iter < 300; ++iter) {
    LinearLayout a = layoutOverPool(), b = layoutOverPool(),
                 c = layoutOverPool();
    // Associativity needs shared dims in the same relative order; keep only
    // triples where all three agree on the order of what they share.
    auto consistent = [](const std::vector<std::string> &x,
                         const std::vector<std::string> &y) {
      std::vector<std::string> xs, ys;
      for (const std::string &n : x)
        if (std::find(y.begin(), y.end(), n) != y.end())
          xs.push_back(n);
      for (const std::string &n : y)
        if (std::find(x.begin(), x.end(), n) != x.end())
          ys.push_back(n);
      return xs == ys;
    };
    if (!consistent(a.getInDimNames(), b.getInDimNames()) ||
        !consistent(a.getInDimNames(), c.getInDimNames()) ||
        !consistent(b.getInDimNames(), c.getInDimNames()) ||
        !consistent(a.getOutDimNames(), b.getOutDimNames()) ||
        !consistent(a.getOutDimNames(), c.getOutDimNames()) ||
        !consistent(b.getOutDimNames(), c.getOutDimNames()))
      continue;
    EXPECT_EQ((a * b) * c, a * (b * c));
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(LinearLayoutProperty, ReshapeRoundTrips) {
  Random rng(11);
  for (int iter = 0; iter < 300; ++iter) {
    int inBits = static_cast<int>(rng.range(0, 8));
    int outBits = static_cast<int>(rng.range(0, 8));
    LinearLayout layout = randomLayout(rng, inBits, outBits, "in", "out");
    Dims newIns = rng.dims(inBits, "n", 4);
    Dims newOuts = rng.dims(outBits, "m", 4);
    SCOPED_TRACE(layout.toString());

    LinearLayout ins = layout.reshapeIns(newIns);
    EXPECT_EQ(ins.getInDims(), newIns);
    EXPECT_EQ(ins.reshapeIns(layout.getInDims()), layout);
    for (int64_t flat = 0; flat < layout.getTotalInDimSize(); ++flat)
      EXPECT_EQ(ins.apply(split(flat, newIns)),
                layout.apply(split(flat, layout.getInDims())));

    LinearLayout outs = layout.reshapeOuts(newOuts);
    EXPECT_EQ(outs.getOutDims(), newOuts);
    EXPECT_EQ(outs.reshapeOuts(layout.getOutDims()), layout);
    for (const Dims &input : allInputs(layout))
      EXPECT_EQ(flatten(outs.apply(input), newOuts),
                flatten(layout.apply(input), layout.getOutDims()));

    EXPECT_EQ(layout.flattenIns().flattenOuts().getTotalInDimSize(),
              layout.getTotalInDimSize());
  }
}

//===----------------------------------------------------------------------===//
// Named layouts
//===----------------------------------------------------------------------===//

struct BlockedParams {
  std::vector<int64_t> shape;
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;

  std::string describe() const {
    auto list = [](const auto &values) {
      std::string text = "[";
      for (size_t i = 0; i < values.size(); ++i)
        text += (i ? "," : "") + std::to_string(values[i]);
      return text + "]";
    };
    return "shape=" + list(shape) + " sizePerThread=" + list(sizePerThread) +
           " threadsPerWarp=" + list(threadsPerWarp) +
           " warpsPerCTA=" + list(warpsPerCTA) + " order=" + list(order);
  }

  LinearLayout build() const {
    return terrazzo::blockedLayout(shape, sizePerThread, threadsPerWarp,
                                   warpsPerCTA, order);
  }
};

/// Computes, without linear algebra, which element each (register, lane,
/// warp) of a blocked layout holds.
class BlockedReference {
public:
  explicit BlockedReference(const BlockedParams &p) : p(p) {
    size_t rank = p.shape.size();
    numRegisters = 1;
    numLanes = 1;
    numWarps = 1;
    for (size_t d = 0; d < rank; ++d) {
      // Registers past the end of a small dimension would only hold copies of
      // the thread's own elements: they do not exist.
      perThread.push_back(std::min<int64_t>(p.sizePerThread[d], p.shape[d]));
      tile.push_back(int64_t(p.sizePerThread[d]) * p.threadsPerWarp[d] *
                     p.warpsPerCTA[d]);
      repeats.push_back(std::max<int64_t>(1, p.shape[d] / tile[d]));
      numRegisters *= perThread[d] * repeats[d];
      numLanes *= p.threadsPerWarp[d];
      numWarps *= p.warpsPerCTA[d];
    }
  }

  std::vector<int64_t> coordinates(int64_t reg, int64_t lane,
                                   int64_t warp) const {
    size_t rank = p.shape.size();
    std::vector<int64_t> inThread(rank), repeat(rank), laneIdx(rank),
        warpIdx(rank);
    for (unsigned d : p.order) {
      inThread[d] = reg % perThread[d];
      reg /= perThread[d];
    }
    for (unsigned d : p.order) {
      repeat[d] = reg % repeats[d];
      reg /= repeats[d];
    }
    for (unsigned d : p.order) {
      laneIdx[d] = lane % p.threadsPerWarp[d];
      lane /= p.threadsPerWarp[d];
    }
    for (unsigned d : p.order) {
      warpIdx[d] = warp % p.warpsPerCTA[d];
      warp /= p.warpsPerCTA[d];
    }
    std::vector<int64_t> coords(rank);
    for (size_t d = 0; d < rank; ++d) {
      int64_t spt = p.sizePerThread[d], tpw = p.threadsPerWarp[d];
      int64_t position = repeat[d] * tile[d] + warpIdx[d] * spt * tpw +
                         laneIdx[d] * spt + inThread[d];
      // A tile larger than the tensor wraps around: threads hold copies.
      coords[d] = position % p.shape[d];
    }
    return coords;
  }

  BlockedParams p;
  std::vector<int64_t> perThread, tile, repeats;
  int64_t numRegisters, numLanes, numWarps;
};

std::vector<int64_t> applyDistributed(const LinearLayout &layout, int64_t reg,
                                      int64_t lane, int64_t warp) {
  Dims out = layout.apply({{"register", static_cast<int32_t>(reg)},
                           {"lane", static_cast<int32_t>(lane)},
                           {"warp", static_cast<int32_t>(warp)},
                           {"block", 0}});
  std::vector<int64_t> coords;
  for (const auto &entry : out)
    coords.push_back(entry.second);
  return coords;
}

void checkBlockedAgainstReference(const BlockedParams &params) {
  SCOPED_TRACE(params.describe());
  LinearLayout layout = params.build();
  BlockedReference ref(params);
  SCOPED_TRACE(layout.toString());
  ASSERT_EQ(layout.getInDimNames(),
            (std::vector<std::string>{"register", "lane", "warp", "block"}));
  ASSERT_EQ(layout.getInDimSize("register"), ref.numRegisters);
  ASSERT_EQ(layout.getInDimSize("lane"), ref.numLanes);
  ASSERT_EQ(layout.getInDimSize("warp"), ref.numWarps);
  ASSERT_EQ(layout.getInDimSize("block"), 1);
  Dims expectedOuts;
  for (size_t d = 0; d < params.shape.size(); ++d)
    expectedOuts.emplace_back("dim" + std::to_string(d),
                              static_cast<int32_t>(params.shape[d]));
  ASSERT_EQ(layout.getOutDims(), expectedOuts);
  for (int64_t warp = 0; warp < ref.numWarps; ++warp)
    for (int64_t lane = 0; lane < ref.numLanes; ++lane)
      for (int64_t reg = 0; reg < ref.numRegisters; ++reg)
        ASSERT_EQ(applyDistributed(layout, reg, lane, warp),
                  ref.coordinates(reg, lane, warp))
            << "register " << reg << " lane " << lane << " warp " << warp;
  // Every element is held somewhere.
  EXPECT_TRUE(layout.isSurjective());

  // Vector width along the fastest dimension, from the reference: the
  // largest power of two V such that registers 0..V-1 of thread 0 hold
  // elements 0..V-1 along it.
  unsigned fastest = params.order[0];
  int64_t width = 1;
  while (width * 2 <= ref.numRegisters) {
    bool contiguous = true;
    for (int64_t reg = 0; reg < width * 2 && contiguous; ++reg) {
      std::vector<int64_t> expected(params.shape.size(), 0);
      expected[fastest] = reg;
      contiguous = ref.coordinates(reg, 0, 0) == expected;
    }
    if (!contiguous)
      break;
    width *= 2;
  }
  EXPECT_EQ(layout.getContiguousRegisters(fastest), width);
  int64_t capped =
      std::min<int64_t>(params.sizePerThread[fastest], params.shape[fastest]);
  EXPECT_GE(layout.getContiguousRegisters(fastest), capped);
  // Unless a single thread owns the whole tile row (then the repetitions
  // continue the run), the width is exactly sizePerThread capped by shape.
  if (params.threadsPerWarp[fastest] * params.warpsPerCTA[fastest] > 1) {
    EXPECT_EQ(layout.getContiguousRegisters(fastest), capped);
  }
}

TEST(NamedLayouts, BlockedHandComputed) {
  // 16 x 64 with a 8 x 64 tile: one repetition along dim0.
  LinearLayout layout =
      terrazzo::blockedLayout({16, 64}, {1, 4}, {4, 8}, {2, 2}, {1, 0});
  EXPECT_EQ(layout,
            LinearLayout({{"register", {{0, 1}, {0, 2}, {8, 0}}},
                          {"lane", {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}},
                          {"warp", {{0, 32}, {4, 0}}},
                          {"block", {}}},
                         {{"dim0", 16}, {"dim1", 64}}));
  EXPECT_EQ(layout.getContiguousRegisters(1), 4);

  // 4 x 32, smaller than the tile: the warps hold copies.
  EXPECT_EQ(terrazzo::blockedLayout({4, 32}, {1, 4}, {4, 8}, {2, 2}, {1, 0}),
            LinearLayout({{"register", {{0, 1}, {0, 2}}},
                          {"lane", {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}},
                          {"warp", {{0, 0}, {0, 0}}},
                          {"block", {}}},
                         {{"dim0", 4}, {"dim1", 32}}));

  // Order [0, 1]: dim0 is fastest.
  // The tile is 4 x 2, so the repetition along dim1 is register bit 1.
  EXPECT_EQ(terrazzo::blockedLayout({4, 4}, {2, 1}, {2, 2}, {1, 1}, {0, 1}),
            LinearLayout({{"register", {{1, 0}, {0, 2}}},
                          {"lane", {{2, 0}, {0, 1}}},
                          {"warp", {}},
                          {"block", {}}},
                         {{"dim0", 4}, {"dim1", 4}}));

  // 1-D, two elements for 32 lanes of 4 registers: one register is dropped,
  // every lane bit broadcasts.
  EXPECT_EQ(terrazzo::blockedLayout({2}, {4}, {32}, {1}, {0}),
            LinearLayout({{"register", {{1}}},
                          {"lane", {{0}, {0}, {0}, {0}, {0}}},
                          {"warp", {}},
                          {"block", {}}},
                         {{"dim0", 2}}));
}

TEST(NamedLayouts, BlockedTypicalVectorWidths) {
  // sizePerThread along the fastest dimension, capped by the shape.
  EXPECT_EQ(terrazzo::blockedLayout({64, 64}, {1, 4}, {4, 8}, {4, 1}, {1, 0})
                .getContiguousRegisters(1),
            4);
  EXPECT_EQ(terrazzo::blockedLayout({1024}, {8}, {32}, {4}, {0})
                .getContiguousRegisters(0),
            8);
  EXPECT_EQ(terrazzo::blockedLayout({4}, {8}, {32}, {4}, {0})
                .getContiguousRegisters(0),
            4);
  EXPECT_EQ(terrazzo::blockedLayout({128, 16}, {4, 2}, {8, 4}, {1, 4}, {0, 1})
                .getContiguousRegisters(0),
            4);
  // Along a dimension that is not the fastest, registers are not contiguous.
  EXPECT_EQ(terrazzo::blockedLayout({128, 16}, {4, 2}, {8, 4}, {1, 4}, {0, 1})
                .getContiguousRegisters(1),
            1);
}

TEST(NamedLayouts, BlockedMatchesReferenceHandPicked) {
  std::vector<BlockedParams> cases = {
      {{1024}, {4}, {32}, {4}, {0}},
      {{128}, {4}, {32}, {4}, {0}}, // exactly the tile
      {{64}, {4}, {32}, {4}, {0}},  // warps broadcast
      {{8}, {4}, {32}, {4}, {0}},   // lanes broadcast
      {{2}, {4}, {32}, {4}, {0}},   // registers dropped
      {{1}, {1}, {32}, {1}, {0}},
      {{64, 64}, {1, 4}, {4, 8}, {4, 1}, {1, 0}},
      {{64, 64}, {1, 4}, {4, 8}, {4, 1}, {0, 1}},
      {{256, 32}, {2, 2}, {8, 4}, {2, 2}, {1, 0}},
      {{2, 128}, {1, 8}, {2, 16}, {8, 1}, {1, 0}},
      {{1, 16}, {4, 4}, {4, 8}, {2, 2}, {0, 1}},
      {{16, 1}, {4, 4}, {4, 8}, {2, 2}, {1, 0}},
      {{32, 64}, {1, 4}, {4, 8}, {2, 2}, {1, 0}},
      {{4, 8, 16}, {1, 1, 4}, {2, 4, 4}, {2, 1, 2}, {2, 1, 0}},
      {{4, 8, 16}, {2, 2, 2}, {2, 4, 4}, {2, 2, 1}, {0, 1, 2}},
      {{2, 2, 256}, {1, 1, 8}, {1, 1, 32}, {1, 1, 4}, {2, 0, 1}},
      {{16, 16, 2}, {1, 2, 2}, {4, 8, 1}, {1, 2, 2}, {1, 2, 0}},
  };
  for (const BlockedParams &params : cases)
    checkBlockedAgainstReference(params);
}

BlockedParams randomBlocked(Random &rng, size_t rank) {
  while (true) {
    BlockedParams p;
    for (size_t d = 0; d < rank; ++d)
      p.order.push_back(static_cast<unsigned>(d));
    rng.shuffle(p.order);
    // 32 lanes and 1..8 warps spread over the dimensions.
    p.threadsPerWarp.assign(rank, 1);
    p.warpsPerCTA.assign(rank, 1);
    for (int bit = 0; bit < 5; ++bit)
      p.threadsPerWarp[rng.range(0, rank - 1)] *= 2;
    int warpBits = static_cast<int>(rng.range(0, 3));
    for (int bit = 0; bit < warpBits; ++bit)
      p.warpsPerCTA[rng.range(0, rank - 1)] *= 2;
    int64_t elements = 1;
    for (size_t d = 0; d < rank; ++d) {
      p.sizePerThread.push_back(1u << rng.range(0, 3));
      p.shape.push_back(int64_t(1) << rng.range(0, 8));
      elements *= p.shape.back();
    }
    if (elements > 4096)
      continue;
    BlockedReference ref(p);
    if (ref.numRegisters * ref.numLanes * ref.numWarps > (1 << 14))
      continue;
    return p;
  }
}

TEST(NamedLayouts, BlockedMatchesReferenceRandom) {
  Random rng(12);
  for (int iter = 0; iter < 300; ++iter) {
    BlockedParams params = randomBlocked(rng, 1 + iter % 3);
    checkBlockedAgainstReference(params);
    if (testing::Test::HasFatalFailure())
      return;
  }
}

TEST(NamedLayouts, SliceHandComputed) {
  LinearLayout parent =
      terrazzo::blockedLayout({32, 64}, {1, 4}, {4, 8}, {2, 2}, {1, 0});
  ASSERT_EQ(parent.getBases()[0].second, (std::vector<LinearLayout::Basis>{
                                             {0, 1}, {0, 2}, {8, 0}, {16, 0}}));
  // Reducing dim0: the repetitions along dim0 disappear from the registers;
  // the lanes and warps along dim0 now hold copies.
  EXPECT_EQ(terrazzo::sliceLayout(parent, 0),
            LinearLayout({{"register", {{1}, {2}}},
                          {"lane", {{4}, {8}, {16}, {0}, {0}}},
                          {"warp", {{32}, {0}}},
                          {"block", {}}},
                         {{"dim0", 64}}));
  // Reducing dim1: only dim0 is left.
  EXPECT_EQ(terrazzo::sliceLayout(parent, 1),
            LinearLayout({{"register", {{8}, {16}}},
                          {"lane", {{0}, {0}, {0}, {1}, {2}}},
                          {"warp", {{0}, {4}}},
                          {"block", {}}},
                         {{"dim0", 32}}));
  // Rank 3: the dimensions after the sliced one are renamed down.
  LinearLayout three = terrazzo::blockedLayout({2, 4, 8}, {1, 1, 2}, {2, 4, 4},
                                               {1, 1, 1}, {2, 1, 0});
  LinearLayout sliced = terrazzo::sliceLayout(three, 1);
  EXPECT_EQ(sliced.getOutDims(), (Dims{{"dim0", 2}, {"dim1", 8}}));
  EXPECT_EQ(sliced.getBasis("register", 0), (LinearLayout::Basis{0, 1}));
  EXPECT_EQ(sliced.getBasis("lane", 0), (LinearLayout::Basis{0, 2}));
  EXPECT_EQ(sliced.getBasis("lane", 2), (LinearLayout::Basis{0, 0}));
}

TEST(NamedLayouts, SliceMatchesProjection) {
  Random rng(13);
  for (int iter = 0; iter < 150; ++iter) {
    BlockedParams params = randomBlocked(rng, 2 + iter % 2);
    LinearLayout parent = params.build();
    for (unsigned dim = 0; dim < params.shape.size(); ++dim) {
      SCOPED_TRACE(params.describe() + " sliced along " + std::to_string(dim));
      LinearLayout slice = terrazzo::sliceLayout(parent, dim);
      ASSERT_EQ(slice.getNumOutDims(), parent.getNumOutDims() - 1);
      EXPECT_EQ(slice.getInDimSize("lane"), parent.getInDimSize("lane"));
      EXPECT_EQ(slice.getInDimSize("warp"), parent.getInDimSize("warp"));
      for (int32_t warp = 0; warp < parent.getInDimSize("warp"); ++warp) {
        for (int32_t lane = 0; lane < parent.getInDimSize("lane"); ++lane) {
          // What the thread holds: the parent's elements without `dim`...
          std::set<std::vector<int64_t>> expected;
          for (int32_t reg = 0; reg < parent.getNumRegisters(); ++reg) {
            std::vector<int64_t> coords =
                applyDistributed(parent, reg, lane, warp);
            coords.erase(coords.begin() + dim);
            expected.insert(coords);
          }
          // ...each held once.
          std::vector<std::vector<int64_t>> held;
          for (int32_t reg = 0; reg < slice.getNumRegisters(); ++reg)
            held.push_back(applyDistributed(slice, reg, lane, warp));
          std::set<std::vector<int64_t>> heldSet(held.begin(), held.end());
          EXPECT_EQ(heldSet.size(), held.size());
          EXPECT_EQ(heldSet, expected);
        }
      }
    }
  }
}

TEST(NamedLayouts, IdentityStandard) {
  LinearLayout layout = terrazzo::identityStandard({4, 8}, "x");
  EXPECT_EQ(layout,
            LinearLayout({{"x", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}}},
                         {{"dim0", 4}, {"dim1", 8}}));
  for (int32_t x = 0; x < 32; ++x)
    EXPECT_EQ(layout.apply({{"x", x}}),
              (Dims{{"dim0", x / 8}, {"dim1", x % 8}}));
  EXPECT_EQ(terrazzo::identityStandard({}, "x"), LinearLayout({{"x", {}}}, {}));

  // Row-major is first-dim-fastest flattening of the reversed dims.
  LinearLayout three = terrazzo::identityStandard({2, 4, 8}, "x");
  EXPECT_EQ(
      three.transposeOuts({"dim2", "dim1", "dim0"}).reshapeOuts({{"flat", 64}}),
      LinearLayout::identity1D(64, "x", "flat"));
  EXPECT_TRUE(three.isInvertible());
  EXPECT_EQ(three.invert().reshapeIns({{"flat", 64}}).getInDimNames(),
            std::vector<std::string>{"flat"});
}

} // namespace
