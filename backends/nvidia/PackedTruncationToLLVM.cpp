// arith.truncf of float32 tensors to float16 or bfloat16 on sm_80+, two
// elements per instruction (cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32, through
// LLVM's nvvm.ff2f16x2.rn and nvvm.ff2bf16x2.rn intrinsics).
//
// LLVM forms the paired conversion itself from two fptruncs whose results
// meet in one vector in the same block, but not otherwise, and InstCombine
// turns a loop-carried pair of fptruncs into one fptrunc after the loop's
// phi: the conversion then runs where the value is used, not where the
// kernel put it. The rotated attention loop (terrazzo-pipeline's dot chain)
// converts P to the second wgmma's register operand at the end of the
// iteration, after the wait for that wgmma, because the conversion writes
// the registers it read; moved to the top of the next iteration, it puts
// the registers back in flight when the softmax runs, and ptxas then waits
// for the wgmma before the softmax. An intrinsic stays where it is put.
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct PackedTruncationPattern : public ConvertOpToLLVMPattern<arith::TruncFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!type || !getElementTypeOrSelf(op.getIn().getType()).isF32() ||
        !(to.isF16() || to.isBF16()))
      return failure();
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return failure();
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType || !isa<LLVM::LLVMStructType>(adaptor.getIn().getType()))
      return rewriter.notifyMatchFailure(op, "not a tensor of registers");
    Location loc = op.getLoc();
    SmallVector<Value> values = unpackStruct(rewriter, loc, adaptor.getIn());
    auto pairType = VectorType::get({2}, to);
    StringRef intrinsic =
        to.isF16() ? "llvm.nvvm.ff2f16x2.rn" : "llvm.nvvm.ff2bf16x2.rn";
    SmallVector<Value> results;
    for (size_t i = 0; i + 1 < values.size(); i += 2) {
      // The first operand goes to the upper half: element 1.
      Value pair = LLVM::CallIntrinsicOp::create(
                       rewriter, loc, pairType,
                       rewriter.getStringAttr(intrinsic),
                       ValueRange{values[i + 1], values[i]})
                       .getResult(0);
      for (int64_t half : {0, 1})
        results.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, pair,
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                     rewriter.getI32IntegerAttr(half))));
    }
    if (values.size() % 2)
      results.push_back(
          LLVM::FPTruncOp::create(rewriter, loc, to, values.back()));
    rewriter.replaceOp(op, packStruct(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

void mlir::terrazzo::populatePackedTruncationPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  // Above the elementwise pattern (2).
  patterns.add<PackedTruncationPattern>(converter, /*benefit=*/3);
}
