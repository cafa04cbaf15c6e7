// Float arithmetic whose NVIDIA form LLVM does not choose by itself: a
// float32 division marked `afn` (the frontend's `/`, as Triton's) is PTX's
// div.full.f32, accurate to 2 ulp and a few instructions long, where LLVM
// would emit either the IEEE-rounded sequence or the coarser div.approx;
// marked `afn` and `arcp` (tl.fdiv(approx=True)) it is div.approx.f32.
// float32 exp and exp2 are the hardware's ex2.approx (exp as
// ex2.approx.f32 of x * log2 e, exp2 as ex2.approx.ftz.f32, results below
// 2^-126 flushed to zero), as Triton emits them: libdevice's expf spends a
// dozen more instructions on the last ulp, which a bandwidth-bound kernel
// such as softmax pays for in issue slots, and attention's online softmax
// (exp2 of every score) in the issue slots between its wgmma groups.
// A float32 square root is the hardware's sqrt.approx.f32 when marked
// `afn` (tl.sqrt, as Triton's) and the IEEE-rounded sqrt.rn.f32 otherwise
// (tl.sqrt_rn): libdevice's sqrtf is the approximation unless told to be
// precise.
// A float32 tanh marked `afn` (libdevice.fast_tanhf) is the hardware's
// tanh.approx.f32 (sm_75 and later; about 2^-11 relative error): LLVM's
// tanh with the `afn` flag, which NVPTX selects as that instruction.
// Before sm_75, and unmarked, it is libdevice's tanhf.
#include "backends/nvidia/NVIDIAPatterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace {

/// Whether `op` (an arith or math op with fast-math flags) computes a
/// float32 result that may be approximated (`afn`).
template <typename FloatOp> bool isApproximateF32(FloatOp op) {
  return op.getType().isF32() &&
         bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn);
}

struct ApproximateDivideF32 : public ConvertOpToLLVMPattern<arith::DivFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isApproximateF32(op))
      return failure();
    bool fastest =
        bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::arcp);
    auto asmOp = LLVM::InlineAsmOp::create(
        rewriter, op.getLoc(), rewriter.getF32Type(),
        ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        fastest ? "div.approx.f32 $0, $1, $2;" : "div.full.f32 $0, $1, $2;",
        "=f,f,f", /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        /*asm_dialect=*/LLVM::AsmDialectAttr(),
        /*operand_attrs=*/ArrayAttr());
    rewriter.replaceOp(op, asmOp.getResult(0));
    return success();
  }
};

struct SquareRootF32 : public ConvertOpToLLVMPattern<math::SqrtOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(math::SqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    if (isApproximateF32(op)) {
      rewriter.replaceOp(
          op, LLVM::CallIntrinsicOp::create(
                  rewriter, op.getLoc(), rewriter.getF32Type(),
                  rewriter.getStringAttr("llvm.nvvm.sqrt.approx.f"),
                  ValueRange{adaptor.getOperand()})
                  .getResult(0));
      return success();
    }
    // llvm.sqrt without fast-math flags: NVPTX selects sqrt.rn.f32.
    rewriter.replaceOpWithNewOp<LLVM::SqrtOp>(op, adaptor.getOperand());
    return success();
  }
};

// Calls llvm.nvvm.ex2.approx.f32 (or its flush-to-zero form) on
// `operand`, first multiplied by `scale` unless it is 1.
static Value emitApproximateExp2(ConversionPatternRewriter &rewriter,
                                 Location loc, Value operand, double scale,
                                 bool flushToZero) {
  Type f32 = rewriter.getF32Type();
  if (scale != 1.0) {
    Value factor = LLVM::ConstantOp::create(rewriter, loc, f32,
                                            rewriter.getF32FloatAttr(scale));
    operand = LLVM::FMulOp::create(rewriter, loc, operand, factor);
  }
  return LLVM::CallIntrinsicOp::create(
             rewriter, loc, f32,
             rewriter.getStringAttr(flushToZero ? "llvm.nvvm.ex2.approx.ftz.f"
                                                : "llvm.nvvm.ex2.approx.f32"),
             ValueRange{operand})
      .getResult(0);
}

struct ApproximateTanhF32 : public ConvertOpToLLVMPattern<math::TanhOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(math::TanhOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isApproximateF32(op))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::TanhOp>(
        op, adaptor.getOperand(),
        LLVM::FastmathFlagsAttr::get(op.getContext(),
                                     LLVM::FastmathFlags::afn));
    return success();
  }
};

template <typename MathOp>
struct ApproximateExpF32 : public ConvertOpToLLVMPattern<MathOp> {
  ApproximateExpF32(const LLVMTypeConverter &converter, double scale,
                    bool flushToZero, PatternBenefit benefit)
      : ConvertOpToLLVMPattern<MathOp>(converter, benefit), scale(scale),
        flushToZero(flushToZero) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(op,
                       emitApproximateExp2(rewriter, op.getLoc(),
                                           adaptor.getOperand(), scale,
                                           flushToZero));
    return success();
  }

  double scale;
  bool flushToZero;
};

} // namespace

void mlir::terrazzo::populateNVIDIAFastMathPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned capability, PatternBenefit benefit) {
  patterns.add<ApproximateDivideF32>(converter, benefit);
  if (capability >= 75)
    patterns.add<ApproximateTanhF32>(converter, benefit);
  patterns.add<SquareRootF32>(converter, benefit);
  patterns.add<ApproximateExpF32<math::ExpOp>>(converter, M_LOG2E,
                                               /*flushToZero=*/false, benefit);
  patterns.add<ApproximateExpF32<math::Exp2Op>>(converter, 1.0,
                                                /*flushToZero=*/true, benefit);
}
