// program_id and num_programs, through the target's special registers.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TypeConverter.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

template <typename SourceOp>
struct GridOpConversion : public ConvertOpToLLVMPattern<SourceOp> {
  GridOpConversion(TileGPUTypeConverter &converter, const TargetInfo &target)
      : ConvertOpToLLVMPattern<SourceOp>(converter), target(target) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned dim = static_cast<unsigned>(op.getDim());
    Value value = std::is_same_v<SourceOp, tile::ProgramIdOp>
                      ? target.programId(rewriter, op.getLoc(), dim)
                      : target.numPrograms(rewriter, op.getLoc(), dim);
    rewriter.replaceOp(op, value);
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mlir::terrazzo::populateGridOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<GridOpConversion<tile::ProgramIdOp>,
               GridOpConversion<tile::NumProgramsOp>>(converter, target);
}
