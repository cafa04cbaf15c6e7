// terrazzo-unroll-loops: see Passes.td.
#include "passes/LoopUnroll.h"
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOUNROLLLOOPS
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

/// The most operations an unrolled body may have: a factor is a hint, and
/// one that would make the body larger is ignored with a remark (a factor
/// of 2^20 on a one-op body ran out of memory).
constexpr int64_t kMaxUnrolledOps = int64_t(1) << 16;

struct UnrollLoopsPass
    : public mlir::terrazzo::impl::TerrazzoUnrollLoopsBase<UnrollLoopsPass> {
  void runOnOperation() override {
    StringRef name = tile::TileDialect::kLoopUnrollFactorAttrName;
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(name))
        loops.push_back(loop);
    });
    // Innermost first (the walk's post-order): an outer loop's unrolling
    // copies inner loops already unrolled.
    for (scf::ForOp loop : loops) {
      auto factor = loop->getAttrOfType<IntegerAttr>(name).getInt();
      loop->removeAttr(name);
      if (factor <= 1)
        continue;
      APInt step;
      if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
          !step.isStrictlyPositive()) {
        loop.emitRemark("loop_unroll_factor ")
            << factor << " ignored: the loop's step is not a positive constant";
        continue;
      }
      int64_t bodyOps = 0;
      loop.getBody()->walk([&](Operation *) { ++bodyOps; });
      if (factor > kMaxUnrolledOps / std::max<int64_t>(bodyOps, 1)) {
        loop.emitRemark("loop_unroll_factor ")
            << factor << " ignored: the unrolled body would have more than "
            << kMaxUnrolledOps << " operations (the body has " << bodyOps
            << ")";
        continue;
      }
      if (failed(mlir::terrazzo::unrollByFactor(loop, uint64_t(factor))))
        loop.emitRemark("loop_unroll_factor ")
            << factor << " ignored: the loop could not be unrolled";
    }
  }
};

} // namespace
