// Unit tests of the tensor-core layouts (dialects/TileGPU/Layout/
// MmaLayouts.h) against the fragment tables of the PTX ISA for
// mma.sync.m16n8k{8,16,32}: which element each lane holds in which register,
// and that every thread's operand rows and columns are those of the
// accumulators it owns; AMD's MFMA layouts likewise against the CDNA ISA.
#include "dialects/TileGPU/Layout/LinearLayout.h"
#include "dialects/TileGPU/Layout/MmaLayouts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

using terrazzo::LinearLayout;

namespace {

using Coord = std::pair<int32_t, int32_t>;

Coord at(const LinearLayout &layout, int32_t reg, int32_t lane, int32_t warp) {
  LinearLayout::DimsT out = layout.apply(
      {{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", 0}});
  return {out[0].second, out[1].second};
}

// PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type":
// element e of lane l = 4 g + t.
Coord accumulatorElement(int32_t lane, int32_t e) {
  int32_t g = lane / 4, t = lane % 4;
  return {g + 8 * (e / 2), 2 * t + e % 2};
}
// A: elements come in pairs along k for 16-bit types (kWidth 2), fours for
// 8-bit types (kWidth 4), singles for tf32 (kWidth 1); the register index
// runs over (row g / g + 8) then (k half).
Coord operandAElement(int32_t lane, int32_t e, int32_t kWidth) {
  int32_t g = lane / 4, t = lane % 4;
  int32_t reg = e / kWidth, within = e % kWidth;
  return {g + 8 * (reg % 2), kWidth * t + within + 4 * kWidth * (reg / 2)};
}
Coord operandBElement(int32_t lane, int32_t e, int32_t kWidth) {
  int32_t g = lane / 4, t = lane % 4;
  int32_t reg = e / kWidth, within = e % kWidth;
  return {kWidth * t + within + 4 * kWidth * reg, g};
}

// Each warp's A rows (B columns) are exactly the rows (columns) of the
// accumulators it holds (the instruction moves data between the warp's
// lanes itself), every one with all of K.
void expectOperandsFeedAccumulators(const LinearLayout &acc,
                                    const LinearLayout &a,
                                    const LinearLayout &b, int32_t warps,
                                    int32_t lanes, int64_t k) {
  for (int32_t warp = 0; warp < warps; ++warp) {
    std::set<int32_t> accRows, accCols, aRows, bCols;
    std::set<Coord> aElems, bElems;
    for (int32_t lane = 0; lane < lanes; ++lane) {
      for (int32_t r = 0; r < acc.getInDimSize("register"); ++r) {
        Coord x = at(acc, r, lane, warp);
        accRows.insert(x.first);
        accCols.insert(x.second);
      }
      for (int32_t r = 0; r < a.getInDimSize("register"); ++r) {
        aElems.insert(at(a, r, lane, warp));
        aRows.insert(at(a, r, lane, warp).first);
      }
      for (int32_t r = 0; r < b.getInDimSize("register"); ++r) {
        bElems.insert(at(b, r, lane, warp));
        bCols.insert(at(b, r, lane, warp).second);
      }
    }
    EXPECT_EQ(aRows, accRows) << "warp " << warp;
    EXPECT_EQ(bCols, accCols) << "warp " << warp;
    EXPECT_EQ(aElems.size(), aRows.size() * k) << "warp " << warp;
    EXPECT_EQ(bElems.size(), bCols.size() * k) << "warp " << warp;
  }
}

TEST(MmaLayouts, AccumulatorMatchesThePtxFragment) {
  LinearLayout layout = terrazzo::nvidiaMmaLayout({16, 8}, 2, {1, 1}, 8);
  ASSERT_EQ(layout.getInDimSize("register"), 4);
  for (int32_t lane = 0; lane < 32; ++lane)
    for (int32_t e = 0; e < 4; ++e)
      EXPECT_EQ(at(layout, e, lane, 0), accumulatorElement(lane, e))
          << "lane " << lane << " element " << e;
}

TEST(MmaLayouts, OperandsMatchThePtxFragments) {
  for (int32_t kWidth : {1, 2, 4}) {
    int32_t k = 8 * kWidth;
    LinearLayout a = terrazzo::mmaV2OperandLayout({16, k}, 0, {1, 1}, kWidth);
    LinearLayout b = terrazzo::mmaV2OperandLayout({k, 8}, 1, {1, 1}, kWidth);
    ASSERT_EQ(a.getInDimSize("register"), 4 * kWidth);
    ASSERT_EQ(b.getInDimSize("register"), 2 * kWidth);
    for (int32_t lane = 0; lane < 32; ++lane) {
      for (int32_t e = 0; e < 4 * kWidth; ++e)
        EXPECT_EQ(at(a, e, lane, 0), operandAElement(lane, e, kWidth))
            << "A, kWidth " << kWidth << " lane " << lane << " element " << e;
      for (int32_t e = 0; e < 2 * kWidth; ++e)
        EXPECT_EQ(at(b, e, lane, 0), operandBElement(lane, e, kWidth))
            << "B, kWidth " << kWidth << " lane " << lane << " element " << e;
    }
  }
}

// Over warp tilings and shapes with repeats: each element of the result
// is held once, and the operands feed each warp's accumulators.
TEST(MmaLayouts, OperandsFeedTheWarpsAccumulators) {
  struct Case {
    int64_t m, n, k;
    unsigned wm, wn, kWidth;
  };
  for (Case c : {Case{64, 64, 32, 2, 2, 2}, Case{128, 32, 64, 4, 1, 4},
                 Case{16, 128, 8, 1, 8, 1}, Case{32, 16, 16, 4, 2, 2}}) {
    LinearLayout acc = terrazzo::nvidiaMmaLayout({c.m, c.n}, 2, {c.wm, c.wn}, 8);
    LinearLayout a =
        terrazzo::mmaV2OperandLayout({c.m, c.k}, 0, {c.wm, c.wn}, c.kWidth);
    LinearLayout b =
        terrazzo::mmaV2OperandLayout({c.k, c.n}, 1, {c.wm, c.wn}, c.kWidth);
    EXPECT_TRUE(acc.isSurjective());
    EXPECT_TRUE(a.isSurjective());
    EXPECT_TRUE(b.isSurjective());
    if (c.m >= 16 * c.wm && c.n >= 8 * c.wn) {
      EXPECT_TRUE(acc.isInjective()) << "no element held twice";
    }
    expectOperandsFeedAccumulators(acc, a, b, int32_t(c.wm * c.wn), 32, c.k);
  }
}

TEST(MmaLayouts, WgmmaAccumulatorStacksFourWarps) {
  LinearLayout layout = terrazzo::nvidiaMmaLayout({64, 64}, 3, {4, 1}, 64);
  EXPECT_TRUE(layout.isInjective());
  EXPECT_TRUE(layout.isSurjective());
  for (int32_t warp = 0; warp < 4; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t tile = 0; tile < 8; ++tile)
        for (int32_t e = 0; e < 4; ++e) {
          Coord want = accumulatorElement(lane, e);
          want.first += 16 * warp;
          want.second += 8 * tile;
          EXPECT_EQ(at(layout, 4 * tile + e, lane, warp), want);
        }
}

// wgmma's A in registers (PTX ISA, "Register Fragments" of wgmma for
// .f16/.bf16: per warp, mma.sync's A fragment of its 16 rows of the warp
// group's 64) is the accumulator of a wgmma with the same warps, register
// for register, when every warp group takes whole rows: the conversion
// from one to the other relabels nothing. Not so when warp groups split N
// (each would need the other's columns) or for 8-bit A (four k per
// register, the accumulator has pairs).
TEST(MmaLayouts, WgmmaRegisterAIsTheAccumulatorOfAChain) {
  for (unsigned warps : {4u, 8u})
    for (unsigned instrN : {64u, 128u}) {
      LinearLayout acc =
          terrazzo::nvidiaMmaLayout({128, 64}, 3, {warps, 1}, instrN);
      LinearLayout a = terrazzo::mmaV2OperandLayout({128, 64}, 0, {warps, 1}, 2);
      EXPECT_EQ(acc, a) << warps << " warps, instrN " << instrN;
    }
  LinearLayout a = terrazzo::mmaV2OperandLayout({64, 64}, 0, {4, 1}, 2);
  for (int32_t warp = 0; warp < 4; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t e = 0; e < 8; ++e) {
        Coord want = operandAElement(lane, e, 2);
        want.first += 16 * warp;
        EXPECT_EQ(at(a, e, lane, warp), want);
      }
  EXPECT_NE(terrazzo::nvidiaMmaLayout({64, 64}, 3, {4, 2}, 32),
            terrazzo::mmaV2OperandLayout({64, 64}, 0, {4, 2}, 2));
  EXPECT_NE(terrazzo::nvidiaMmaLayout({128, 64}, 3, {4, 1}, 64),
            terrazzo::mmaV2OperandLayout({128, 64}, 0, {4, 1}, 4));
}

// AMD's MFMA on wavefronts of 64 (CDNA3 ISA, "Matrix fused-multiply-add
// (MFMA)" register layouts): for an s x s result, lane l holds column
// l % s of D in registers r at rows (r % 4) + 8 (r / 4) + 4 (l / s); of A
// (B), row (column) l % s with kWidth consecutive k from kWidth (l / s).
Coord mfmaAccumulatorElement(int32_t size, int32_t lane, int32_t r) {
  return {r % 4 + 8 * (r / 4) + 4 * (lane / size), lane % size};
}

TEST(MfmaLayouts, AccumulatorMatchesTheIsa) {
  for (int32_t size : {32, 16}) {
    LinearLayout layout = terrazzo::amdMfmaLayout({size, size}, {1, 1}, size);
    ASSERT_EQ(layout.getInDimSize("register"), size * size / 64);
    ASSERT_EQ(layout.getInDimSize("lane"), 64);
    EXPECT_TRUE(layout.isInjective());
    EXPECT_TRUE(layout.isSurjective());
    for (int32_t lane = 0; lane < 64; ++lane)
      for (int32_t r = 0; r < size * size / 64; ++r)
        EXPECT_EQ(at(layout, r, lane, 0), mfmaAccumulatorElement(size, lane, r))
            << size << " lane " << lane << " register " << r;
  }
}

TEST(MfmaLayouts, OperandsMatchTheIsa) {
  for (int32_t size : {32, 16})
    for (int32_t kWidth : {1, 2, 4, 8, 16}) {
      int32_t k = kWidth * 64 / size;
      LinearLayout a =
          terrazzo::mfmaOperandLayout({size, k}, 0, {1, 1}, size, kWidth);
      LinearLayout b =
          terrazzo::mfmaOperandLayout({k, size}, 1, {1, 1}, size, kWidth);
      ASSERT_EQ(a.getInDimSize("register"), kWidth);
      ASSERT_EQ(b.getInDimSize("register"), kWidth);
      for (int32_t lane = 0; lane < 64; ++lane)
        for (int32_t e = 0; e < kWidth; ++e) {
          int32_t row = lane % size, kk = kWidth * (lane / size) + e;
          EXPECT_EQ(at(a, e, lane, 0), Coord(row, kk))
              << "A " << size << " kWidth " << kWidth << " lane " << lane;
          EXPECT_EQ(at(b, e, lane, 0), Coord(kk, row))
              << "B " << size << " kWidth " << kWidth << " lane " << lane;
        }
    }
}

// With warps and repeats: every element of the result held once when the
// warps fit, and the operands feed each warp's accumulators.
TEST(MfmaLayouts, OperandsFeedTheWarpsAccumulators) {
  struct Case {
    int64_t m, n, k;
    unsigned wm, wn, size, kWidth;
  };
  for (Case c :
       {Case{64, 64, 32, 2, 2, 32, 4}, Case{128, 32, 64, 4, 1, 16, 8},
        Case{32, 128, 16, 1, 4, 32, 1}, Case{16, 16, 64, 2, 2, 16, 4}}) {
    for (bool transposed : {false, true}) {
      LinearLayout acc = terrazzo::amdMfmaLayout({c.m, c.n}, {c.wm, c.wn},
                                                 c.size, transposed);
      LinearLayout a = terrazzo::mfmaOperandLayout(
          {c.m, c.k}, 0, {c.wm, c.wn}, c.size, c.kWidth);
      LinearLayout b = terrazzo::mfmaOperandLayout(
          {c.k, c.n}, 1, {c.wm, c.wn}, c.size, c.kWidth);
      EXPECT_TRUE(acc.isSurjective());
      EXPECT_TRUE(a.isSurjective());
      EXPECT_TRUE(b.isSurjective());
      if (c.m >= c.size * c.wm && c.n >= c.size * c.wn) {
        EXPECT_TRUE(acc.isInjective()) << "no element held twice";
      }
      expectOperandsFeedAccumulators(acc, a, b, int32_t(c.wm * c.wn), 64,
                                     c.k);
    }
  }
}

// The transposed accumulator (the instructions' B^T A^T): lane l holds row
// l % s of D, its registers r the columns (r % 4) + 8 (r / 4) + 4 (l / s).
TEST(MfmaLayouts, TransposedAccumulatorSwapsRowsAndColumns) {
  for (int32_t size : {32, 16}) {
    LinearLayout layout =
        terrazzo::amdMfmaLayout({size, size}, {1, 1}, size, true);
    for (int32_t lane = 0; lane < 64; ++lane)
      for (int32_t r = 0; r < size * size / 64; ++r) {
        Coord element = mfmaAccumulatorElement(size, lane, r);
        EXPECT_EQ(at(layout, r, lane, 0), Coord(element.second, element.first))
            << size << " lane " << lane << " register " << r;
      }
  }
}

// Attention's P: with kWidth 4, every lane (and warp) holds the same
// elements in the transposed accumulator of an M x N result as in the A
// operand (M x K, K = N) of the next dot, so the conversion between them
// relabels registers. Not so for the accumulator as the instructions give
// it, nor for kWidth 8 (a lane's 8 k are two lanes' 4 columns).
TEST(MfmaLayouts, TransposedAccumulatorIsTheNextAOperand) {
  struct Case {
    int64_t m, n;
    unsigned wm, size, kWidth;
    bool registersOnly;
  };
  for (Case c : {Case{128, 64, 4, 32, 4, true}, Case{64, 128, 2, 32, 4, true},
                 Case{128, 64, 4, 16, 4, true}, Case{128, 64, 4, 32, 8, false}}) {
    LinearLayout acc =
        terrazzo::amdMfmaLayout({c.m, c.n}, {c.wm, 1}, c.size, true);
    LinearLayout plain =
        terrazzo::amdMfmaLayout({c.m, c.n}, {c.wm, 1}, c.size, false);
    LinearLayout a = terrazzo::mfmaOperandLayout({c.m, c.n}, 0, {c.wm, 1},
                                                 c.size, c.kWidth);
    auto sameThreads = [&](const LinearLayout &from) {
      for (int32_t warp = 0; warp < int32_t(c.wm); ++warp)
        for (int32_t lane = 0; lane < 64; ++lane) {
          std::set<Coord> held, wanted;
          for (int32_t r = 0; r < from.getInDimSize("register"); ++r)
            held.insert(at(from, r, lane, warp));
          for (int32_t r = 0; r < a.getInDimSize("register"); ++r)
            wanted.insert(at(a, r, lane, warp));
          if (held != wanted)
            return false;
        }
      return true;
    };
    EXPECT_EQ(sameThreads(acc), c.registersOnly)
        << c.m << " x " << c.n << " size " << c.size << " kWidth " << c.kWidth;
    EXPECT_FALSE(sameThreads(plain));
  }
}

TEST(MfmaLayouts, ChecksSayWhy) {
  EXPECT_NE(terrazzo::checkAmdMfmaLayout({64, 64}, {2, 2}, 8), "");
  EXPECT_NE(terrazzo::checkAmdMfmaLayout({64, 64}, {3, 1}, 32), "");
  EXPECT_NE(terrazzo::checkMfmaOperandLayout({64, 64}, 2, {1, 1}, 32, 4), "");
  EXPECT_NE(terrazzo::checkMfmaOperandLayout({64, 64}, 0, {1, 1}, 32, 3), "");
  EXPECT_EQ(terrazzo::checkMfmaOperandLayout({64, 64}, 1, {2, 2}, 16, 8), "");
}

} // namespace
