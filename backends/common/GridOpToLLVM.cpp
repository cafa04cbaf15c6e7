// program_id and num_programs, the global timer and the processor id
// through the target's special registers, and the grid dependency controls
// of a programmatic dependent launch.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

template <typename SourceOp>
struct GridOpConversion : public TargetPattern<SourceOp> {
  using TargetPattern<SourceOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned dim = static_cast<unsigned>(op.getDim());
    Value value = std::is_same_v<SourceOp, tile::ProgramIdOp>
                      ? this->target.programId(rewriter, op.getLoc(), dim)
                      : this->target.numPrograms(rewriter, op.getLoc(), dim);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// An op without operands that becomes what `lower` emits: its result's
/// value, or nothing for an op without results.
template <typename SourceOp>
struct TargetOpConversion : public TargetPattern<SourceOp> {
  using Lower = std::function<Value(const TargetInfo &, RewriterBase &,
                                    Location)>;
  TargetOpConversion(TileGPUTypeConverter &converter, const TargetInfo &target,
                     Lower lower)
      : TargetPattern<SourceOp>(converter, target), lower(std::move(lower)) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value value = lower(this->target, rewriter, op.getLoc());
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, value);
    return success();
  }

  Lower lower;
};

} // namespace

void mlir::terrazzo::populateGridOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<GridOpConversion<tile::ProgramIdOp>,
               GridOpConversion<tile::NumProgramsOp>>(converter, target);
  patterns.add<TargetOpConversion<tilegpu::GlobalTimerOp>>(
      converter, target,
      [](const TargetInfo &target, RewriterBase &rewriter, Location loc) {
        return target.globalTimer(rewriter, loc);
      });
  patterns.add<TargetOpConversion<tilegpu::ProcessorIdOp>>(
      converter, target,
      [](const TargetInfo &target, RewriterBase &rewriter, Location loc) {
        return target.processorId(rewriter, loc);
      });
  patterns.add<TargetOpConversion<tilegpu::GridDependencyWaitOp>>(
      converter, target,
      [](const TargetInfo &target, RewriterBase &rewriter, Location loc) {
        target.waitForGridDependencies(rewriter, loc);
        return Value();
      });
  patterns.add<TargetOpConversion<tilegpu::GridDependencyLaunchOp>>(
      converter, target,
      [](const TargetInfo &target, RewriterBase &rewriter, Location loc) {
        target.launchGridDependents(rewriter, loc);
        return Value();
      });
}
