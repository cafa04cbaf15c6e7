// tilegpu.barrier: the target's barrier across the program instance, a warp
// group or a warp.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct BarrierOpConversion : public TargetPattern<tilegpu::BarrierOp> {
  using TargetPattern<tilegpu::BarrierOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target.barrier(rewriter, op.getLoc(), op.getEffectiveScope());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateBarrierOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<BarrierOpConversion>(converter, target);
}
