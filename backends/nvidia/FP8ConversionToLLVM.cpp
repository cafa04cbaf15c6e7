// Conversions to and from the fp8 types (f8E4M3FN, f8E5M2), which LLVM has
// no float type for: an fp8 value is its byte (the type converter maps fp8
// to i8), and a conversion is the cvt instruction of sm_89 and newer
// through the NVVM dialect:
//
// * fp8 -> f16 is exact: nvvm.convert.f8x2.to.f16x2, two values at a time
//   (byte i of the pair becomes half i). Wider types continue from f16
//   exactly (every fp8 value is an f16, f32 and bf16 value).
// * f32 -> fp8 rounds to nearest even and saturates to the largest finite
//   value (NaN stays NaN, infinities saturate too): cvt.rn.satfinite, two
//   values at a time (nvvm.convert.f32x2.to.f8x2 puts `a` in the upper byte
//   and `b` in the lower one). bf16 widens to f32 exactly first.
// * f16 -> fp8 is cvt.rn.satfinite from f16x2 with the value in both halves,
//   so that no assumption about which half lands in which byte is needed.
// * fp8 -> fp8 goes through f16 (exact), then f16 -> fp8.
//
// Patterns cover tile.fp_to_fp (what the frontend emits), arith.extf and
// arith.truncf with fp8 on either side; they sit above the generic
// elementwise and arith lowerings. fp8 constants are the common lowering's
// (ElementwiseOpToLLVM.cpp).
#include "backends/nvidia/NVIDIAPatterns.h"

#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

bool isFP8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

Value i32Index(RewriterBase &rewriter, Location loc, int64_t index) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(index));
}

/// fp8 bytes (i8) to f16, exactly.
SmallVector<Value> fp8ToF16(RewriterBase &rewriter, Location loc,
                            FloatType fp8, ArrayRef<Value> bytes) {
  Type i8 = rewriter.getI8Type(), f16 = rewriter.getF16Type();
  auto bytePair = VectorType::get({2}, i8);
  auto halfPair = VectorType::get({2}, f16);
  SmallVector<Value> halves;
  for (size_t i = 0, e = bytes.size(); i < e; i += 2) {
    bool pair = i + 1 < e;
    Value packed = LLVM::PoisonOp::create(rewriter, loc, bytePair);
    packed = LLVM::InsertElementOp::create(rewriter, loc, packed, bytes[i],
                                           i32Index(rewriter, loc, 0));
    packed = LLVM::InsertElementOp::create(rewriter, loc, packed,
                                           bytes[pair ? i + 1 : i],
                                           i32Index(rewriter, loc, 1));
    Value converted = NVVM::ConvertF8x2ToF16x2Op::create(
        rewriter, loc, halfPair, packed, /*relu=*/false, fp8);
    halves.push_back(LLVM::ExtractElementOp::create(
        rewriter, loc, converted, i32Index(rewriter, loc, 0)));
    if (pair)
      halves.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, converted, i32Index(rewriter, loc, 1)));
  }
  return halves;
}

/// f32 values to fp8 bytes: round to nearest even, saturate to finite.
SmallVector<Value> f32ToFP8(RewriterBase &rewriter, Location loc,
                            FloatType fp8, ArrayRef<Value> values) {
  Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type();
  SmallVector<Value> bytes;
  for (size_t i = 0, e = values.size(); i < e; i += 2) {
    bool pair = i + 1 < e;
    // `a` (here the later value) lands in the upper byte, `b` in the lower.
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        rewriter, loc, i16, values[pair ? i + 1 : i], values[i],
        NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
        /*relu=*/false, fp8);
    bytes.push_back(LLVM::TruncOp::create(rewriter, loc, i8, packed));
    if (pair) {
      Value eight = LLVM::ConstantOp::create(rewriter, loc, i16,
                                             rewriter.getI16IntegerAttr(8));
      Value high = LLVM::LShrOp::create(rewriter, loc, packed, eight);
      bytes.push_back(LLVM::TruncOp::create(rewriter, loc, i8, high));
    }
  }
  return bytes;
}

/// f16 values to fp8 bytes, one at a time (the value in both halves).
SmallVector<Value> f16ToFP8(RewriterBase &rewriter, Location loc,
                            FloatType fp8, ArrayRef<Value> values) {
  Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type();
  auto halfPair = VectorType::get({2}, rewriter.getF16Type());
  SmallVector<Value> bytes;
  for (Value value : values) {
    Value packed = LLVM::PoisonOp::create(rewriter, loc, halfPair);
    packed = LLVM::InsertElementOp::create(rewriter, loc, packed, value,
                                           i32Index(rewriter, loc, 0));
    packed = LLVM::InsertElementOp::create(rewriter, loc, packed, value,
                                           i32Index(rewriter, loc, 1));
    Value converted = NVVM::ConvertF16x2ToF8x2Op::create(
        rewriter, loc, i16, packed, /*relu=*/false, fp8);
    bytes.push_back(LLVM::TruncOp::create(rewriter, loc, i8, converted));
  }
  return bytes;
}

/// `values` (as the lowering holds them: bytes for fp8) of type `from`
/// converted to `to`.
SmallVector<Value> convertFP8(RewriterBase &rewriter, Location loc,
                              FloatType from, FloatType to,
                              ArrayRef<Value> values) {
  auto widen = [&](ArrayRef<Value> in, Type type) {
    SmallVector<Value> out;
    for (Value v : in)
      out.push_back(LLVM::FPExtOp::create(rewriter, loc, type, v));
    return out;
  };
  Type f32 = rewriter.getF32Type();
  if (isFP8(from)) {
    SmallVector<Value> halves = fp8ToF16(rewriter, loc, from, values);
    if (isFP8(to))
      return f16ToFP8(rewriter, loc, to, halves);
    if (to.isF16())
      return halves;
    if (to.isBF16()) {
      // Exact: every fp8 value is a bf16 value.
      SmallVector<Value> out;
      for (Value v : widen(halves, f32))
        out.push_back(LLVM::FPTruncOp::create(rewriter, loc, to, v));
      return out;
    }
    return widen(halves, to); // f32, f64
  }
  if (from.isF16())
    return f16ToFP8(rewriter, loc, to, values);
  if (from.isBF16())
    return f32ToFP8(rewriter, loc, to, widen(values, f32));
  return f32ToFP8(rewriter, loc, to, values); // f32 (f64 is rejected)
}

} // namespace

LogicalResult mlir::terrazzo::checkFP8Lowering(Operation *op,
                                               unsigned capability) {
  auto isFnuz = [](Type type) {
    return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(
        getElementTypeOrSelf(type));
  };
  if (llvm::any_of(op->getOperandTypes(), isFnuz) ||
      llvm::any_of(op->getResultTypes(), isFnuz))
    return op->emitOpError("uses the FNUZ fp8 formats, AMD gfx942's, which "
                           "have no lowering for NVIDIA targets");
  auto types = getFP8Conversion(op);
  if (!types)
    return success();
  auto [from, to] = *types;
  if (capability < 89)
    return op->emitOpError("converts ")
           << from << " to " << to
           << ": fp8 conversions need sm_89 or newer, the target is sm_"
           << capability;
  return checkFP8Rounding(op);
}

void mlir::terrazzo::populateFP8ConversionPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  populateFP8ConversionOpPatterns(converter, patterns, convertFP8);
}
