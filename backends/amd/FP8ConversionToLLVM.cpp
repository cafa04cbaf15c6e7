// Conversions from the fp8 types to wider floats on AMD, in integer
// arithmetic that every CDNA chip has: gfx90a has no fp8 conversion
// instruction, and gfx942's (v_cvt_f32_fp8) take the FNUZ formats only, so
// one exact construction serves the four formats (OCP's f8E4M3FN and
// f8E5M2, the FNUZ f8E4M3FNUZ and f8E5M2FNUZ) on all three chips. What
// it is for: an fp8 dot that the chip's matrix cores do not multiply
// (AccelerateDot.cpp widens its operands to float16; every fp8 value of
// the four formats is a float16 value) and tl's fp8 -> wider casts.
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
// Conversions to fp8 (rounding, saturation) have no lowering here yet:
// checkFP8ConversionOnAMD rejects them at the op.
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

/// fp8 `values` to the wider `to`; none for a conversion to fp8, which
/// checkFP8ConversionOnAMD rejects.
SmallVector<Value> convertFP8(RewriterBase &rewriter, Location loc,
                              FloatType from, FloatType to,
                              ArrayRef<Value> values) {
  if (!isFP8(from) || isFP8(to))
    return {};
  SmallVector<Value> results;
  for (Value value : values) {
    Value wide = fp8ToF32(rewriter, loc, from, value);
    if (to.getWidth() < 32)
      wide = LLVM::FPTruncOp::create(rewriter, loc, to, wide); // exact
    else if (to.getWidth() > 32)
      wide = LLVM::FPExtOp::create(rewriter, loc, to, wide);
    results.push_back(wide);
  }
  return results;
}

} // namespace

LogicalResult
mlir::terrazzo::checkFP8ConversionOnAMD(Operation *op,
                                        const ::terrazzo::Target &target) {
  auto types = getFP8Conversion(op);
  if (!types)
    return success();
  auto [from, to] = *types;
  if (isFP8(to))
    return op->emitOpError("converts ")
           << from << " to " << to << ": conversions to fp8 have no lowering "
           << "for " << target.name << " yet";
  return success();
}

void mlir::terrazzo::populateFP8ConversionToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  populateFP8ConversionOpPatterns(converter, patterns, convertFP8);
}
