// Conversions between the fp8 types and other floats on AMD, in integer
// arithmetic that every CDNA chip has: gfx90a has no fp8 conversion
// instruction, and gfx942's (v_cvt_f32_fp8) take the FNUZ formats only, so
// one construction serves the four formats (OCP's f8E4M3FN and
// f8E5M2, the FNUZ f8E4M3FNUZ and f8E5M2FNUZ) on all three chips. What
// it is for: an fp8 dot that the chip's matrix cores do not multiply
// (AccelerateDot.cpp widens its operands to float16; every fp8 value of
// the four formats is a float16 value) and tl's casts from and to fp8.
//
// An fp8 byte with sign s, exponent field e (E bits, bias b) and mantissa
// field m (M bits) becomes the float32 bits:
//   e != 0: ((byte & 0x7f) << (23 - M)) + ((127 - b) << 23), exactly the
//           float32 of 2^(e - b) (1 + m / 2^M);
//   e == 0: the float32 of m times 2^(1 - b - M), by a multiplication of
//           small normal float32 values that is exact (no denormal is
//           read or made, whatever the chip's denormal mode);
// then the format's specials: f8E5M2's exponent 31 is infinity (m == 0) or
// NaN, f8E4M3FN's 0x7f/0xff are NaN, the FNUZ formats' 0x80 is NaN (they
// have no negative zero and no infinity); the sign goes on last. float16,
// bfloat16 and float64 results follow from float32 exactly.
//
// To fp8 (from f32; f16 and bf16 widen to f32 exactly first, fp8 too, so
// that the value is rounded once) as NVIDIA's cvt.rn.satfinite does: to
// nearest, ties to even, magnitudes beyond the largest finite value (the
// infinities included) saturate to it, NaN stays NaN (the format's NaN
// code). For |x| of at least the smallest normal the float32 bits are
// rounded at the format's mantissa width in integer arithmetic (a carry
// moves to the exponent, as it should) and rebiased; below it, |x| scaled
// by 2^(b + M - 1) is rounded to an integer (llvm.roundeven), which is the
// subnormal's code (2^M, the smallest normal's, where it rounds up). The
// FNUZ formats have no negative zero: a result of zero has no sign. f64
// sources and other rounding modes are errors (checkFP8Rounding).
#include "backends/amd/AMDPatterns.h"

#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

bool isFP8(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return floatType && floatType.getWidth() == 8;
}

bool isFnuz(Type type) {
  return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(type);
}

Value i32Value(RewriterBase &rewriter, Location loc, uint32_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(int32_t(value)));
}

/// The float32 value of the fp8 `byte` (an i8) of format `fp8`, exactly.
Value fp8ToF32(RewriterBase &rewriter, Location loc, FloatType fp8,
               Value byte) {
  const llvm::fltSemantics &semantics = fp8.getFloatSemantics();
  unsigned mantissaBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
  int bias = 1 - llvm::APFloat::semanticsMinExponent(semantics);
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  auto constant = [&](uint32_t value) { return i32Value(rewriter, loc, value); };
  auto equals = [&](Value a, Value b) {
    return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, a, b);
  };
  auto select = [&](Value condition, Value a, Value b) {
    return LLVM::SelectOp::create(rewriter, loc, condition, a, b);
  };
  Value bits = LLVM::ZExtOp::create(rewriter, loc, i32, byte);
  Value magnitude = LLVM::AndOp::create(rewriter, loc, bits, constant(0x7f));
  Value exponent = LLVM::LShrOp::create(rewriter, loc, magnitude,
                                        constant(mantissaBits));
  Value mantissa = LLVM::AndOp::create(rewriter, loc, magnitude,
                                       constant((1u << mantissaBits) - 1));
  // e != 0: the fields moved into float32's, the exponent rebiased.
  Value normal = LLVM::AddOp::create(
      rewriter, loc,
      LLVM::ShlOp::create(rewriter, loc, magnitude,
                          constant(23 - mantissaBits)),
      constant(uint32_t(127 - bias) << 23));
  // e == 0: m 2^(1 - b - M), m < 8 and the scale a normal float32.
  Value scale = LLVM::ConstantOp::create(
      rewriter, loc, f32,
      rewriter.getF32FloatAttr(std::ldexp(1.0f, 1 - bias - int(mantissaBits))));
  Value subnormal = LLVM::BitcastOp::create(
      rewriter, loc, i32,
      LLVM::FMulOp::create(rewriter, loc,
                           LLVM::UIToFPOp::create(rewriter, loc, f32, mantissa),
                           scale));
  Value result = select(equals(exponent, constant(0)), subnormal, normal);
  Value nan = constant(0x7fc00000);
  if (isa<Float8E5M2Type>(fp8)) {
    Value special = select(equals(mantissa, constant(0)),
                           constant(0x7f800000), nan);
    result = select(equals(exponent, constant(31)), special, result);
  } else if (isa<Float8E4M3FNType>(fp8)) {
    result = select(equals(magnitude, constant(0x7f)), nan, result);
  } else if (isFnuz(fp8)) {
    result = select(equals(bits, constant(0x80)), nan, result);
  }
  Value sign = LLVM::ShlOp::create(
      rewriter, loc, LLVM::AndOp::create(rewriter, loc, bits, constant(0x80)),
      constant(24));
  result = LLVM::OrOp::create(rewriter, loc, result, sign);
  return LLVM::BitcastOp::create(rewriter, loc, f32, result);
}

/// The fp8 byte (i8) of format `fp8` nearest the float32 `value`.
Value f32ToFP8(RewriterBase &rewriter, Location loc, FloatType fp8,
               Value value) {
  const llvm::fltSemantics &semantics = fp8.getFloatSemantics();
  unsigned mantissaBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
  int bias = 1 - llvm::APFloat::semanticsMinExponent(semantics);
  bool fnuz = isFnuz(fp8);
  // The largest finite value's code and float32 bits; the NaN code.
  llvm::APFloat largest = llvm::APFloat::getLargest(semantics);
  uint32_t maxCode = uint32_t(largest.bitcastToAPInt().getZExtValue());
  bool losesInfo = false;
  largest.convert(llvm::APFloat::IEEEsingle(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  uint32_t maxBits = uint32_t(largest.bitcastToAPInt().getZExtValue());
  uint32_t nanCode = fnuz ? 0x80 : 0x7f; // f8E4M3FN's only NaN, one of f8E5M2's
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  auto constant = [&](uint32_t v) { return i32Value(rewriter, loc, v); };
  auto compare = [&](LLVM::ICmpPredicate predicate, Value a, Value b) {
    return LLVM::ICmpOp::create(rewriter, loc, predicate, a, b);
  };
  auto select = [&](Value condition, Value a, Value b) {
    return LLVM::SelectOp::create(rewriter, loc, condition, a, b);
  };
  Value bits = LLVM::BitcastOp::create(rewriter, loc, i32, value);
  Value magnitude = LLVM::AndOp::create(rewriter, loc, bits,
                                        constant(0x7fffffff));
  Value negative = compare(LLVM::ICmpPredicate::ne,
                           LLVM::AndOp::create(rewriter, loc, bits,
                                               constant(0x80000000)),
                           constant(0));
  // Normal: round the mantissa at M bits (to nearest, ties to even), then
  // rebias the exponent; a carry into the exponent is the right result.
  unsigned shift = 23 - mantissaBits;
  Value odd = LLVM::AndOp::create(
      rewriter, loc,
      LLVM::LShrOp::create(rewriter, loc, magnitude, constant(shift)),
      constant(1));
  Value rounded = LLVM::AddOp::create(
      rewriter, loc,
      LLVM::AddOp::create(rewriter, loc, magnitude,
                          constant((1u << (shift - 1)) - 1)),
      odd);
  Value normal = LLVM::SubOp::create(
      rewriter, loc, LLVM::LShrOp::create(rewriter, loc, rounded, constant(shift)),
      constant(uint32_t(127 - bias) << mantissaBits));
  // Subnormal: |x| 2^(b + M - 1) rounded to an integer.
  Value scale = LLVM::ConstantOp::create(
      rewriter, loc, f32,
      rewriter.getF32FloatAttr(std::ldexp(1.0f, bias + int(mantissaBits) - 1)));
  Value scaled = LLVM::FMulOp::create(
      rewriter, loc, LLVM::BitcastOp::create(rewriter, loc, f32, magnitude),
      scale);
  Value subnormal = LLVM::FPToUIOp::create(
      rewriter, loc, i32, LLVM::RoundEvenOp::create(rewriter, loc, f32, scaled));
  uint32_t minNormalBits = uint32_t(127 + 1 - bias) << 23;
  Value code = select(compare(LLVM::ICmpPredicate::uge, magnitude,
                              constant(minNormalBits)),
                      normal, subnormal);
  // Saturation (rounding past the largest finite value, or beyond it).
  code = select(compare(LLVM::ICmpPredicate::ugt, code, constant(maxCode)),
                constant(maxCode), code);
  code = select(compare(LLVM::ICmpPredicate::uge, magnitude, constant(maxBits)),
                constant(maxCode), code);
  // The sign: none on a FNUZ zero (0x80 is its NaN).
  Value sign = select(negative, constant(0x80), constant(0));
  if (fnuz)
    sign = select(compare(LLVM::ICmpPredicate::eq, code, constant(0)),
                  constant(0), sign);
  code = LLVM::OrOp::create(rewriter, loc, code, sign);
  Value isNan = compare(LLVM::ICmpPredicate::ugt, magnitude,
                        constant(0x7f800000));
  code = select(isNan, constant(nanCode), code);
  return LLVM::TruncOp::create(rewriter, loc, rewriter.getI8Type(), code);
}

/// fp8 `values` to `to`, or f16, bf16 and f32 `values` (and fp8 ones,
/// through f32) to the fp8 `to`.
SmallVector<Value> convertFP8(RewriterBase &rewriter, Location loc,
                              FloatType from, FloatType to,
                              ArrayRef<Value> values) {
  Type f32 = rewriter.getF32Type();
  SmallVector<Value> results;
  for (Value value : values) {
    Value wide = value;
    if (isFP8(from))
      wide = fp8ToF32(rewriter, loc, from, value);
    else if (from.getWidth() < 32)
      wide = LLVM::FPExtOp::create(rewriter, loc, f32, value); // exact
    if (isFP8(to))
      wide = f32ToFP8(rewriter, loc, to, wide);
    else if (to.getWidth() < 32)
      wide = LLVM::FPTruncOp::create(rewriter, loc, to, wide); // exact
    else if (to.getWidth() > 32)
      wide = LLVM::FPExtOp::create(rewriter, loc, to, wide);
    results.push_back(wide);
  }
  return results;
}

} // namespace

void mlir::terrazzo::populateFP8ConversionToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  populateFP8ConversionOpPatterns(converter, patterns, convertFP8);
}
