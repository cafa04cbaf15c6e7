// tilegpu.barrier: the target's barrier across the program instance.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TypeConverter.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct BarrierOpConversion : public ConvertOpToLLVMPattern<tilegpu::BarrierOp> {
  BarrierOpConversion(TileGPUTypeConverter &converter, const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter), target(target) {}

  LogicalResult
  matchAndRewrite(tilegpu::BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mlir::terrazzo::populateBarrierOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<BarrierOpConversion>(converter, target);
}
