// Asynchronous global-to-shared copies on NVIDIA (sm_80+): each thread
// issues one cp.async per vector of registers it holds, as wide as the
// pointers' contiguity and alignment (AxisInfo), the mask's constancy and the
// buffer's layout allow, of 4, 8 or 16 bytes (.cg for 16, which bypasses L1;
// .ca otherwise, the only form for smaller sizes). A masked-off vector
// copies nothing and fills zeros (source size 0). Groups and waits are
// cp.async.commit_group and cp.async.wait_group; tokens are constants.
#include "backends/common/MemoryAccessPattern.h"
#include "backends/common/Patterns.h"
#include "backends/common/SharedMemoryAccess.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Whether `other` is known to be all zero bits, what cp.async fills with.
bool isZeroFill(Value other) {
  return matchPattern(other, m_Zero()) || matchPattern(other, m_PosZeroFloat());
}

/// Registers per cp.async of `op`: as many as the shared layout (`plan`)
/// and the global pointers and mask (AxisInfo) allow.
int32_t copyWidth(tilegpu::AsyncCopyGlobalToLocalOp op,
                  const SharedAccessPlan &plan,
                  const ModuleAxisInfoAnalysis &axisInfo) {
  return std::min<int32_t>(
      plan.vectorWidth,
      int32_t(getGlobalAccessWidth(axisInfo, op.getSrc(), op.getMask(),
                                   op.getResult().getType().getElementType())));
}

/// Emits the error that makes `op` impossible to lower, if any.
LogicalResult checkCopy(tilegpu::AsyncCopyGlobalToLocalOp op,
                        const ModuleAxisInfoAnalysis &axisInfo) {
  if (op.getOther() && !isZeroFill(op.getOther()))
    return op.emitOpError("fills masked elements with zeros only; `other` "
                          "must be a constant zero (load into registers and "
                          "select instead)");
  tilegpu::MemDescType buffer = op.getResult().getType();
  FailureOr<SharedAccessPlan> plan =
      planSharedAccess(op, op.getSrc().getType(), buffer, /*maxBytes=*/16);
  if (failed(plan))
    return failure();
  unsigned bytes = unsigned(copyWidth(op, *plan, axisInfo)) *
                   scratchElementBytes(buffer.getElementType());
  if (bytes < 4 || buffer.getElementType().isInteger(1))
    return op.emitOpError("would copy ")
           << bytes << " bytes per cp.async, which needs 4, 8 or 16: the "
           << "pointers' contiguity and alignment, the mask and the buffer's "
           << "layout allow no wider vector";
  return success();
}

Value token(RewriterBase &rewriter, Location loc) {
  return i32Constant(rewriter, loc, 0);
}

struct AsyncCopyOpConversion
    : public MemoryAccessPattern<tilegpu::AsyncCopyGlobalToLocalOp> {
  using MemoryAccessPattern::MemoryAccessPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tilegpu::MemDescType buffer = op.getResult().getType();
    Type element = getTypeConverter()->convertType(buffer.getElementType());
    if (!element)
      return rewriter.notifyMatchFailure(op, "unconvertible element type");
    FailureOr<SharedAccessPlan> plan =
        planSharedAccess(op, op.getSrc().getType(), buffer, /*maxBytes=*/16);
    if (failed(plan))
      return failure();
    unsigned elementBytes = scratchElementBytes(buffer.getElementType());
    int32_t width = copyWidth(op, *plan, axisInfo);
    unsigned bytes = unsigned(width) * elementBytes;
    // checkAsyncCopyLowering has reported copies that cannot be lowered.
    if (bytes < 4)
      return rewriter.notifyMatchFailure(op, "no cp.async of this width");

    ThreadPosition thread =
        getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op));
    SmallVector<Value> offsets = emitSharedOffsets(rewriter, loc, *plan, thread);
    SmallVector<Value> ptrs = unpackStruct(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackStruct(rewriter, loc, adaptor.getMask());
    auto globalPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
    auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                : NVVM::LoadCacheModifierKind::CA;
    int32_t repeatedRegisters = 0;
    for (auto [name, mask] : plan->offsets.getFreeVariableMasks())
      if (name == kRegister)
        repeatedRegisters = mask;
    for (size_t reg = 0; reg < ptrs.size(); reg += width) {
      if (int32_t(reg) & repeatedRegisters)
        continue;
      Value dst = sharedElementPointer(rewriter, loc, adaptor.getResult(),
                                       element, offsets[reg]);
      Value src = ptrs[reg];
      if (src.getType() != globalPtr)
        src = LLVM::AddrSpaceCastOp::create(rewriter, loc, globalPtr, src);
      Value sourceSize;
      if (!masks.empty())
        sourceSize = LLVM::SelectOp::create(
            rewriter, loc, masks[reg], i32Constant(rewriter, loc, bytes),
            i32Constant(rewriter, loc, 0));
      NVVM::CpAsyncOp::create(rewriter, loc, dst, src,
                              rewriter.getI32IntegerAttr(bytes),
                              NVVM::LoadCacheModifierKindAttr::get(
                                  rewriter.getContext(), modifier),
                              sourceSize);
    }
    rewriter.replaceOp(op, token(rewriter, loc));
    return success();
  }
};

struct AsyncCommitGroupOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, token(rewriter, op.getLoc()));
    return success();
  }
};

struct AsyncWaitOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Inline PTX rather than nvvm.cp.async.wait.group, whose printed form
    // has a tab before the count: the text reads "cp.async.wait_group N",
    // as in Triton's PTX, which tools and tests search for.
    LLVM::InlineAsmOp::create(
        rewriter, op.getLoc(), TypeRange(), ValueRange(),
        "cp.async.wait_group " + std::to_string(op.getNum()) + ";",
        "~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
    rewriter.replaceOp(op, token(rewriter, op.getLoc()));
    return success();
  }
};

} // namespace

LogicalResult
mlir::terrazzo::checkAsyncCopyLowering(ModuleOp module, unsigned capability,
                                       const ModuleAxisInfoAnalysis &axisInfo) {
  bool failed = false;
  module.walk([&](Operation *op) {
    if (!isa<tilegpu::AsyncCopyGlobalToLocalOp, tilegpu::AsyncCommitGroupOp,
             tilegpu::AsyncWaitOp>(op))
      return;
    if (capability < 80) {
      op->emitOpError("needs cp.async, which sm_")
          << capability << " does not have (sm_80 or newer)";
      failed = true;
      return;
    }
    if (auto copy = dyn_cast<tilegpu::AsyncCopyGlobalToLocalOp>(op))
      failed |= mlir::failed(checkCopy(copy, axisInfo));
  });
  return failure(failed);
}

void mlir::terrazzo::populateAsyncCopyOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfoAnalysis &axisInfo, const TargetInfo &target) {
  patterns.add<AsyncCommitGroupOpConversion, AsyncWaitOpConversion>(converter);
  patterns.add<AsyncCopyOpConversion>(converter, axisInfo, target);
}
