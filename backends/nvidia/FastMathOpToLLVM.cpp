// Float arithmetic whose NVIDIA form LLVM does not choose by itself: a
// float32 division marked `afn` (the frontend's `/`, as Triton's) is PTX's
// div.full.f32, accurate to 2 ulp and a few instructions long, where LLVM
// would emit either the IEEE-rounded sequence or the coarser div.approx.
#include "backends/nvidia/NVIDIAPatterns.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {

struct ApproximateDivideF32 : public ConvertOpToLLVMPattern<arith::DivFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32() ||
        !bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return failure();
    auto asmOp = LLVM::InlineAsmOp::create(
        rewriter, op.getLoc(), rewriter.getF32Type(),
        ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        "div.full.f32 $0, $1, $2;", "=f,f,f", /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        /*asm_dialect=*/LLVM::AsmDialectAttr(),
        /*operand_attrs=*/ArrayAttr());
    rewriter.replaceOp(op, asmOp.getResult(0));
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateNVIDIAFastMathPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns,
    PatternBenefit benefit) {
  patterns.add<ApproximateDivideF32>(converter, benefit);
}
