// tilegpu.warp_group_turn_wait / _pass on named barriers: warp group g
// waits at barrier kFirstTurnBarrier + g, which the warp group before it
// arrives at; each such barrier counts the 128 threads that wait and the
// 128 that arrive.
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "backends/nvidia/NVIDIATargetInfo.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Named barrier 0 is the whole program's (tilegpu.barrier); the turns use
/// the next ones, one per warp group.
constexpr int64_t kFirstTurnBarrier = NVIDIATargetInfo::kConsumerBarrier + 1;
constexpr int64_t kWarpsPerGroup = 4;
constexpr int64_t kThreadsPerWarp = 32;

template <typename Op>
struct WarpGroupTurnConversion : public ConvertOpToLLVMPattern<Op> {
  WarpGroupTurnConversion(TileGPUTypeConverter &converter,
                          const TargetInfo &target)
      : ConvertOpToLLVMPattern<Op>(converter), target(target) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    constexpr bool wait = std::is_same_v<Op, tilegpu::WarpGroupTurnWaitOp>;
    int64_t groups = tilegpu::getNumWarps(op) / kWarpsPerGroup;
    Value group = LLVM::UDivOp::create(
        rewriter, loc,
        uniformWarpIndex(rewriter, loc, target, kThreadsPerWarp),
        i32Constant(rewriter, loc, kWarpsPerGroup));
    // Waits at its own barrier, passes at the next group's; each warp
    // group takes its own branch with the barrier's number a constant (a
    // number in a register makes ptxas reserve all 16 barriers).
    std::optional<uint32_t> only = op.getOnly();
    for (int64_t g = 0; g < groups; ++g) {
      if (only && *only != g)
        continue;
      int64_t id = kFirstTurnBarrier + (wait ? g : (g + 1) % groups);
      Value mine =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, group,
                               i32Constant(rewriter, loc, g));
      emitGuarded(rewriter, loc, mine, Value(), [&] {
        LLVM::InlineAsmOp::create(
            rewriter, loc, TypeRange{},
            ValueRange{i32Constant(rewriter, loc,
                                   2 * kWarpsPerGroup * kThreadsPerWarp)},
            (wait ? "bar.sync " : "bar.arrive ") + std::to_string(id) +
                ", $0;",
            "n", /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
            ArrayAttr());
        return Value();
      });
    }
    rewriter.eraseOp(op);
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mlir::terrazzo::populateWarpGroupTurnPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<WarpGroupTurnConversion<tilegpu::WarpGroupTurnWaitOp>,
               WarpGroupTurnConversion<tilegpu::WarpGroupTurnPassOp>>(
      converter, target);
}
