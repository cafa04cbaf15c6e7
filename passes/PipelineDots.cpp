// terrazzo-pipeline: overlapping a loop body's warp_group_dots; see
// PipelineDots.h.
#include "passes/PipelineDots.h"

#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

/// Whether the buffer `mem` holds the same data for the whole iteration: it
/// is defined outside the loop, or is a view (memdesc_index, memdesc_trans)
/// of such a buffer.
bool stableBuffer(Value mem, scf::ForOp loop) {
  while (true) {
    if (loop.isDefinedOutsideOfLoop(mem))
      return true;
    Operation *def = mem.getDefiningOp();
    if (auto index = dyn_cast_or_null<tilegpu::MemDescIndexOp>(def))
      mem = index.getSrc();
    else if (auto trans = dyn_cast_or_null<tilegpu::MemDescTransOp>(def))
      mem = trans.getSrc();
    else
      return false;
  }
}

/// Ops a dot may not move above: waits for copies into its buffers, and
/// anything else with effects on memory but reading global memory (a
/// dot's operands are registers and shared memory).
bool pinsDots(Operation &op) {
  return !isPure(&op) &&
         !isa<tile::LoadOp, tilegpu::WarpGroupDotOp,
              tilegpu::WarpGroupDotWaitOp>(op);
}

} // namespace

bool mlir::terrazzo::overlapWarpGroupDots(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<tilegpu::WarpGroupDotOp> dots;
  bool nested = false;
  for (Operation &op : *body) {
    if (auto dot = dyn_cast<tilegpu::WarpGroupDotOp>(&op)) {
      dots.push_back(dot);
      continue;
    }
    if (op.getNumRegions() != 0)
      op.walk([&](tilegpu::WarpGroupDotOp) { nested = true; });
  }
  if (dots.size() < 2 || nested)
    return false;
  for (tilegpu::WarpGroupDotOp dot : dots) {
    if (dot.getIsAsync())
      return false;
    for (Value operand : {Value(dot.getA()), Value(dot.getB())})
      if (isa<tilegpu::MemDescType>(operand.getType()) &&
          !stableBuffer(operand, loop))
        return false;
  }

  // The first user of each dot's result in the body (the yield for a
  // value the loop only carries).
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  auto firstUser = [&](tilegpu::WarpGroupDotOp dot) {
    Operation *first = nullptr;
    for (Operation *user : dot->getUsers()) {
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody && (!first || inBody->isBeforeInBlock(first)))
        first = inBody;
    }
    return first ? first : yield.getOperation();
  };
  // Issue the dots in the order their results are needed (groups complete
  // in order: a result needed early must not wait for a later one), each
  // as early as it can be: after its operands (moving the views it reads
  // along), after the last op before it that pins it, and after the dot
  // issued before it.
  llvm::stable_sort(dots, [&](tilegpu::WarpGroupDotOp x,
                              tilegpu::WarpGroupDotOp y) {
    Operation *fx = firstUser(x), *fy = firstUser(y);
    return fx != fy && fx->isBeforeInBlock(fy);
  });
  // Moves `op` up to just after the latest of `floor` and the definitions
  // of its operands in the body (to the body's start when there is none).
  auto hoist = [&](Operation *op, Operation *floor) {
    Operation *after = floor;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == body &&
          (!after || after->isBeforeInBlock(def)))
        after = def;
    }
    if (!after)
      op->moveBefore(&body->front());
    else if (after->isBeforeInBlock(op))
      op->moveAfter(after);
  };
  Operation *previous = nullptr;
  for (tilegpu::WarpGroupDotOp dot : dots) {
    Operation *floor = nullptr;
    for (Operation *op = dot->getPrevNode(); op; op = op->getPrevNode())
      if (pinsDots(*op)) {
        floor = op;
        break;
      }
    if (previous && (!floor || floor->isBeforeInBlock(previous)))
      floor = previous;
    previous = dot;
    for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
      // The views (pure) the dot reads, innermost first.
      SmallVector<Operation *> views;
      for (Operation *def = operand.getDefiningOp();
           def && def->getBlock() == body &&
           isa<tilegpu::MemDescIndexOp, tilegpu::MemDescTransOp>(def);
           def = def->getOperand(0).getDefiningOp())
        views.push_back(def);
      for (Operation *view : llvm::reverse(views))
        hoist(view, floor);
    }
    hoist(dot, floor);
  }

  // Wait for each result in front of its first user in the body; the dots
  // issued since stay in flight. The results only the loop carries are
  // waited for, all at once, before the yield.
  SmallVector<Value> carriedOnly;
  for (tilegpu::WarpGroupDotOp dot : dots)
    dot.setIsAsync(true);
  for (tilegpu::WarpGroupDotOp dot : dots) {
    Operation *first = firstUser(dot);
    if (first == yield.getOperation()) {
      carriedOnly.push_back(dot.getResult());
      continue;
    }
    int32_t inFlight = 0;
    for (tilegpu::WarpGroupDotOp other : dots)
      if (other != dot && dot->isBeforeInBlock(other) &&
          other->isBeforeInBlock(first))
        ++inFlight;
    OpBuilder b(first);
    auto wait = tilegpu::WarpGroupDotWaitOp::create(
        b, dot.getLoc(), ValueRange{dot.getResult()}, inFlight);
    dot.getResult().replaceAllUsesExcept(wait.getResult(0), wait);
  }
  if (!carriedOnly.empty()) {
    OpBuilder b(yield);
    auto wait = tilegpu::WarpGroupDotWaitOp::create(b, loop.getLoc(),
                                                    carriedOnly, 0);
    for (auto [value, waited] : llvm::zip_equal(carriedOnly, wait.getResults()))
      value.replaceAllUsesExcept(waited, wait);
  }
  return true;
}
