// tilegpu.warp_group_turn_wait / _pass on named barriers: warp group g
// waits at barrier kFirstTurnBarrier + g, which the warp group before it
// arrives at; each such barrier counts the 128 threads that wait and the
// 128 that arrive. Values tied to a turn depend on a volatile read of
// shared memory after the barrier (a wait's outputs) or feed the arrival's
// thread count (a pass's operands): ptxas orders memory accesses, not
// arithmetic, around a barrier (bench/RESULTS.md, session 28).
#include "backends/common/TargetPattern.h"
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

/// A register that is zero but that ptxas cannot know to be: the
/// population count of a word of shared memory, read volatile (so after
/// the barriers before it), shifted right by 6 (a count is at most 32).
/// A shift or mask of the word itself, or mul.hi by 1, ptxas folds.
/// `word` is the PTX register it goes in, `address` the operand holding
/// the shared address.
std::string unknownZero(StringRef word, StringRef address) {
  return ("ld.volatile.shared.u32 " + word + ", [" + address + "]; popc.b32 " +
          word + ", " + word + "; shr.u32 " + word + ", " + word + ", 6; ")
      .str();
}

/// A 32-bit element's bits (the verifier admits no other width).
Value asI32(RewriterBase &rewriter, Location loc, Value element) {
  Type i32 = rewriter.getI32Type();
  return element.getType() == i32
             ? element
             : LLVM::BitcastOp::create(rewriter, loc, i32, element).getResult();
}

/// Named barrier 0 is the whole program's (tilegpu.barrier); the turns use
/// the next ones, one per warp group.
constexpr int64_t kFirstTurnBarrier = NVIDIATargetInfo::kConsumerBarrier + 1;
constexpr int64_t kThreadsPerWarp = 32;

template <typename Op>
struct WarpGroupTurnConversion : public TargetPattern<Op> {
  using TargetPattern<Op>::TargetPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    constexpr bool wait = std::is_same_v<Op, tilegpu::WarpGroupTurnWaitOp>;
    int64_t groups = tilegpu::getNumWarps(op) / tilegpu::kWarpsPerGroup;
    // Waits at its own barrier, passes at the next group's; each warp
    // group takes its own branch with the barrier's number a constant.
    std::optional<uint32_t> only = op.getOnly();
    // A pass's operands, or-ed into one word that the arrival's thread
    // count depends on (through an unknown zero: the count stays 256).
    Value smem;
    if (!adaptor.getValues().empty()) {
      smem = getScratchPointer(rewriter, loc, op);
      if (!smem)
        return failure();
    }
    Value tied;
    if (!wait)
      for (Value value : adaptor.getValues())
        for (Value element : elementsOf(rewriter, loc, value)) {
          Value bits = asI32(rewriter, loc, element);
          tied = tied
                     ? LLVM::OrOp::create(rewriter, loc, tied, bits).getResult()
                     : bits;
        }
    NVIDIATargetInfo::inEachWarpGroup(
        rewriter, loc, this->target, groups,
        [&](int64_t g) { return !only || *only == g; },
        [&](int64_t g) {
          int64_t id = kFirstTurnBarrier + (wait ? g : (g + 1) % groups);
          Value threads = i32Constant(
              rewriter, loc, 2 * tilegpu::kWarpsPerGroup * kThreadsPerWarp);
          std::string barrier =
              (wait ? "bar.sync " : "bar.arrive ") + std::to_string(id) + ", ";
          if (tied)
            // Arrives with threads | (tied & zero) threads.
            NVIDIATargetInfo::inlinePTX(
                rewriter, loc, Type(), ValueRange{tied, smem, threads},
                "{ .reg .b32 z; " + unknownZero("z", "$1") +
                    "and.b32 z, z, $0; or.b32 z, z, $2; " + barrier + "z; }",
                "r,l,n");
          else
            NVIDIATargetInfo::inlinePTX(rewriter, loc, Type(),
                                        ValueRange{threads}, barrier + "$0;",
                                        "n");
        });
    if constexpr (wait)
      if (!adaptor.getValues().empty())
        return replaceWithTiedValues(op, adaptor, smem, rewriter);
    rewriter.eraseOp(op);
    return success();
  }

  /// A wait's outputs: each element or-ed with a zero read after the
  /// barrier.
  LogicalResult
  replaceWithTiedValues(tilegpu::WarpGroupTurnWaitOp op,
                        tilegpu::WarpGroupTurnWaitOp::Adaptor adaptor,
                        Value smem, ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value zero = NVIDIATargetInfo::inlinePTX(
        rewriter, loc, i32, ValueRange{smem}, unknownZero("$0", "$1"), "=r,l");
    SmallVector<Value> outputs;
    for (auto [value, type] :
         llvm::zip_equal(adaptor.getValues(), op.getResultTypes())) {
      Type converted = this->getTypeConverter()->convertType(type);
      outputs.push_back(mapElements(
          rewriter, loc, converted, ValueRange{value}, [&](ValueRange e) {
            Value bits = LLVM::OrOp::create(rewriter, loc,
                                            asI32(rewriter, loc, e[0]), zero);
            return e[0].getType() == i32
                       ? bits
                       : LLVM::BitcastOp::create(rewriter, loc, e[0].getType(),
                                                 bits)
                             .getResult();
          }));
    }
    rewriter.replaceOp(op, outputs);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateWarpGroupTurnPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<WarpGroupTurnConversion<tilegpu::WarpGroupTurnWaitOp>,
               WarpGroupTurnConversion<tilegpu::WarpGroupTurnPassOp>>(
      converter, target);
}
