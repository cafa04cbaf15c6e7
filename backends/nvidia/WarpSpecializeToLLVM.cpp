// tilegpu.warp_specialize on sm_90. During the conversion to LLVM the op
// stays (its regions' blocks converted like a function's), so that the
// ops inside know their partition when they are lowered
// (NVIDIATargetInfo's thread index and barriers); after it, the op becomes
// a barrier of all warps and a branch: the producer's warps give up
// registers (setmaxnreg.dec), run the producer and return; the consumers
// take registers (setmaxnreg.inc), run the consumers and go on. The kernel
// is compiled with the registers per thread that all its warps start with
// (.maxnreg), which is what the setmaxnregs move between them.
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Converts the blocks of both partitions as a function's body is
/// converted (their arguments get LLVM types); the op itself stays.
struct WarpSpecializeRegionsConversion
    : public ConvertOpToLLVMPattern<tilegpu::WarpSpecializeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::WarpSpecializeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LogicalResult result = success();
    rewriter.modifyOpInPlace(op, [&] {
      for (Region &region : op->getRegions())
        if (failed(rewriter.convertRegionTypes(&region, *getTypeConverter())))
          result = failure();
    });
    return result;
  }
};

} // namespace

void mlir::terrazzo::populateWarpSpecializePatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WarpSpecializeRegionsConversion>(converter);
}

void mlir::terrazzo::addWarpSpecializeLegality(ConversionTarget &target) {
  target.addDynamicallyLegalOp<tilegpu::WarpSpecializeOp>(
      [](tilegpu::WarpSpecializeOp op) {
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (Type type : block.getArgumentTypes())
              if (!LLVM::isCompatibleType(type))
                return false;
        return true;
      });
  target.addLegalOp<tilegpu::PartitionEndOp>();
}

LogicalResult mlir::terrazzo::checkWarpSpecializeLowering(Operation *op,
                                                          unsigned capability) {
  if (isa<tilegpu::WarpSpecializeOp>(op) && capability < 90)
    return op->emitOpError("moves register budgets with setmaxnreg, which sm_")
           << capability << " does not have (sm_90 or newer)";
  return success();
}

LogicalResult mlir::terrazzo::lowerWarpSpecialize(ModuleOp module) {
  SmallVector<tilegpu::WarpSpecializeOp> ops;
  module.walk([&](tilegpu::WarpSpecializeOp op) { ops.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (tilegpu::WarpSpecializeOp op : ops) {
    Location loc = op.getLoc();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!func || !func.getResultTypes().empty() ||
        !isa<LLVM::LLVMVoidType>(func.getFunctionType().getReturnType()))
      return op.emitOpError("must be in a kernel (a function returning "
                            "nothing) when lowered");
    unsigned consumers = tilegpu::getNumWarps(op);
    unsigned total = tilegpu::getTotalNumWarps(op);
    Block *before = op->getBlock();
    Block *after = rewriter.splitBlock(before, std::next(Block::iterator(op)));
    Block *consumerEntry = &op.getConsumers().front();
    Block *producerEntry = &op.getProducer().front();
    for (Region *region : {&op.getConsumers(), &op.getProducer()})
      for (Block &block : *region) {
        auto end = dyn_cast<tilegpu::PartitionEndOp>(block.getTerminator());
        if (!end)
          continue;
        rewriter.setInsertionPoint(end);
        if (region == &op.getConsumers())
          LLVM::BrOp::create(rewriter, loc, ValueRange(), after);
        else
          LLVM::ReturnOp::create(rewriter, loc, ValueRange());
        rewriter.eraseOp(end);
      }
    rewriter.setInsertionPointToStart(consumerEntry);
    NVVM::SetMaxRegisterOp::create(rewriter, loc,
                                   uint32_t(op.getConsumerRegisters()),
                                   NVVM::SetMaxRegisterAction::increase);
    rewriter.setInsertionPointToStart(producerEntry);
    NVVM::SetMaxRegisterOp::create(rewriter, loc,
                                   uint32_t(op.getProducerRegisters()),
                                   NVVM::SetMaxRegisterAction::decrease);
    rewriter.inlineRegionBefore(op.getConsumers(), after);
    rewriter.inlineRegionBefore(op.getProducer(), after);
    // Every warp meets here: what they did before (the rings' mbarriers
    // initialised) is visible to both partitions.
    rewriter.setInsertionPoint(op);
    NVVM::Barrier0Op::create(rewriter, loc);
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value isProducer = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::uge, tid,
        i32Constant(rewriter, loc, int64_t(consumers) * 32));
    LLVM::CondBrOp::create(rewriter, loc, isProducer, producerEntry,
                           consumerEntry);
    rewriter.eraseOp(op);
    func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  rewriter.getI32IntegerAttr(int32_t(
                      tilegpu::WarpSpecializeOp::launchRegisters(
                          total, tilegpu::getMaxRegisters(func)))));
  }
  return success();
}
