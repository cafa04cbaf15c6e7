// terrazzo-prefetch-next-tile: see Passes.td.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOPREFETCHNEXTTILE
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

/// Whether `loop`'s body holds another loop (at any depth).
bool hasInnerLoop(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        return isa<LoopLikeOpInterface>(op) ? WalkResult::interrupt()
                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The ops of `loop`'s body that `values` are computed by, when every one
/// is free of memory effects and regions and takes only the induction
/// variable, values from outside the loop and other such ops; else
/// failure.
FailureOr<llvm::SetVector<Operation *>> addressSlice(scf::ForOp loop,
                                                     ValueRange values) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(value))
      continue;
    Operation *def = value.getDefiningOp();
    // A block argument here is a value the loop carries.
    if (!def || def->getBlock() != loop.getBody() ||
        def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return failure();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  return slice;
}

/// After `load` (in `loop`'s body), a prefetch of its pointers for the
/// next iteration, if the pass's conditions hold.
void prefetchNext(scf::ForOp loop, tile::LoadOp load) {
  auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
  // The same pointers in every iteration need no prefetch.
  if (!ptrType || loop.isDefinedOutsideOfLoop(load.getPtr()))
    return;
  SmallVector<Value> inputs{load.getPtr()};
  if (load.getMask())
    inputs.push_back(load.getMask());
  FailureOr<llvm::SetVector<Operation *>> slice = addressSlice(loop, inputs);
  if (failed(slice))
    return;
  SmallVector<Operation *> ordered(slice->begin(), slice->end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  OpBuilder b(load->getContext());
  b.setInsertionPointAfter(load);
  Location loc = load.getLoc();
  Value next =
      arith::AddIOp::create(b, loc, loop.getInductionVar(), loop.getStep());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), next);
  for (Operation *op : ordered)
    b.clone(*op, mapping);
  // The next iteration runs while it is below the upper bound, compared as
  // the loop compares.
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  Value exists =
      arith::CmpIOp::create(b, loc, predicate, next, loop.getUpperBound());
  auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                                        ptrType.getEncoding());
  Value mask = tile::SplatOp::create(b, loc, maskType, exists);
  if (Value current = load.getMask())
    mask =
        arith::AndIOp::create(b, loc, mapping.lookupOrDefault(current), mask);
  tilegpu::PrefetchGlobalOp::create(b, loc, mapping.lookup(load.getPtr()),
                                    mask);
}

struct PrefetchNextTilePass
    : public mlir::terrazzo::impl::TerrazzoPrefetchNextTileBase<
          PrefetchNextTilePass> {
  void runOnOperation() override {
    // Each loop asked once whether it holds another; its body's own loads
    // (not those of nested regions) collected before any is prefetched.
    SmallVector<std::pair<scf::ForOp, tile::LoadOp>> loads;
    getOperation()->walk([&](scf::ForOp loop) {
      if (!hasInnerLoop(loop))
        return;
      for (auto load : loop.getBody()->getOps<tile::LoadOp>())
        loads.emplace_back(loop, load);
    });
    for (auto [loop, load] : loads)
      prefetchNext(loop, load);
  }
};

} // namespace
