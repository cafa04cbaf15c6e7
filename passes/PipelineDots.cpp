// terrazzo-pipeline: overlapping a loop body's warp_group_dots; see
// PipelineDots.h.
#include "passes/PipelineDots.h"
#include "passes/PipelineSupport.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

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

namespace {

/// A dot chain (see isDotChain): its two dots, the ops of the late stage
/// (the second dot and the ops free of memory effects that only feed it,
/// less those that only make its A operand), and the conversions that end
/// A's path (the truncation to the operand's type, the move to its layout).
struct DotChain {
  tilegpu::WarpGroupDotOp first, second;
  llvm::SmallPtrSet<Operation *, 16> late;
  llvm::SmallPtrSet<Operation *, 4> conversions;
};

std::optional<DotChain> findDotChain(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<tilegpu::WarpGroupDotOp> dots;
  for (Operation &op : *body) {
    if (auto dot = dyn_cast<tilegpu::WarpGroupDotOp>(&op)) {
      dots.push_back(dot);
      continue;
    }
    bool nested = false;
    if (op.getNumRegions() != 0)
      op.walk([&](tilegpu::WarpGroupDotOp) { nested = true; });
    if (nested)
      return std::nullopt;
  }
  if (dots.size() != 2 || dots[0].getIsAsync() || dots[1].getIsAsync())
    return std::nullopt;
  DotChain chain{dots[0], dots[1], {}};
  tilegpu::WarpGroupDotOp second = chain.second;
  // A from registers; the result carried only, into its own accumulator.
  if (!isa<RankedTensorType>(second.getA().getType()) ||
      !second->hasOneUse() || !isa<scf::YieldOp>(*second->user_begin()))
    return std::nullopt;
  unsigned accIndex = second->use_begin()->getOperandNumber();

  // The late stage: the second dot, then (in reverse program order, so that
  // an op's users are classified before it) every op free of memory
  // effects whose users all are late.
  auto lateUser = [&](Operation *user) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    return inBody && chain.late.contains(inBody);
  };
  chain.late.insert(second);
  for (Operation &op : llvm::reverse(body->without_terminator())) {
    if (&op == second.getOperation() || op.use_empty() ||
        !isMemoryEffectFree(&op))
      continue;
    if (llvm::all_of(op.getUsers(), lateUser))
      chain.late.insert(&op);
  }
  // The ops that only make A (P from the scores: the softmax's exp2, the
  // truncation, the move to the operand layout) run early: the carried
  // value is the operand, the smallest form of P. The conversions that end
  // A's path are noted: the rotated loop issues them last (see
  // rotateDotChain).
  for (Operation *def = second.getA().getDefiningOp();
       def && def->getBlock() == body && def->getNumRegions() == 0 &&
       def->getNumOperands() == 1 && def->getNumResults() == 1 &&
       def->hasOneUse() &&
       isa<tilegpu::ConvertLayoutOp, arith::TruncFOp, arith::ExtFOp,
           arith::TruncIOp, arith::ExtSIOp, arith::ExtUIOp,
           arith::BitcastOp>(def);
       def = def->getOperand(0).getDefiningOp())
    chain.conversions.insert(def);
  llvm::SmallPtrSet<Operation *, 16> makesA;
  for (Operation &op : llvm::reverse(body->without_terminator())) {
    if (&op == second.getOperation() || !chain.late.contains(&op))
      continue;
    if (llvm::all_of(op.getUses(), [&](OpOperand &use) {
          Operation *user = body->findAncestorOpInBlock(*use.getOwner());
          return (user == second.getOperation() &&
                  use.get() == second.getA()) ||
                 makesA.contains(user);
        }))
      makesA.insert(&op);
  }
  for (Operation *op : makesA)
    chain.late.erase(op);
  if (chain.late.contains(chain.first))
    return std::nullopt;
  // A chain: the first dot's result reaches A.
  bool reaches = false;
  SmallVector<Value> work{second.getA()};
  llvm::SmallPtrSet<Operation *, 32> seen;
  while (!work.empty() && !reaches) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    reaches = def == chain.first.getOperation();
    llvm::append_range(work, def->getOperands());
  }
  if (!reaches)
    return std::nullopt;
  // The accumulator (and any value the late stage carries) is read by
  // the late stage only; the early stage's carried values are not late.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto [i, value] : llvm::enumerate(yield.getOperands())) {
    Operation *def = value.getDefiningOp();
    bool lateValue = def && def->getBlock() == body && chain.late.contains(def);
    if (lateValue != (i == accIndex))
      return std::nullopt;
  }
  if (!llvm::all_of(loop.getRegionIterArgs()[accIndex].getUsers(), lateUser))
    return std::nullopt;
  return chain;
}

} // namespace

bool mlir::terrazzo::isDotChain(scf::ForOp loop) {
  return findDotChain(loop).has_value();
}

scf::ForOp mlir::terrazzo::rotateDotChain(scf::ForOp loop) {
  std::optional<DotChain> chain = findDotChain(loop);
  if (!chain)
    return {};
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  // The late stage reads buffers that stay: stacks from outside the loop.
  for (Operation *op : chain->late)
    for (Value operand : op->getOperands())
      if (isa<tilegpu::MemDescType>(operand.getType()) &&
          !stableBuffer(operand, loop))
        return {};
  auto isLate = [&](Operation *op) { return chain->late.contains(op); };
  auto lateArg = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0)
      return false;
    Value yielded = yield.getOperand(arg.getArgNumber() - 1);
    Operation *def = yielded.getDefiningOp();
    return def && def->getBlock() == body && isLate(def);
  };
  // The early values the late stage reads (results of early ops, the
  // induction variable, early iter_args), carried from one iteration to
  // the next.
  llvm::SetVector<Value> crossing;
  auto noteUse = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && !lateArg(v))
        crossing.insert(v);
      return;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() == body && !isLate(def))
      crossing.insert(v);
  };
  SmallVector<Operation *> lateOps, earlyOps;
  for (Operation &op : body->without_terminator())
    (isLate(&op) ? lateOps : earlyOps).push_back(&op);
  for (Operation *op : lateOps)
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        noteUse(v);
    });

  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  auto runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  auto guard = scf::IfOp::create(b, loc, loop.getResultTypes(), runs,
                                 /*withElseRegion=*/true);
  OpBuilder eb = OpBuilder::atBlockEnd(guard.elseBlock());
  scf::YieldOp::create(eb, loc, loop.getInitArgs());

  OpBuilder tb = OpBuilder::atBlockEnd(guard.thenBlock());
  // Prologue: the early stage of the first iteration.
  IRMapping prologue;
  prologue.map(loop.getInductionVar(), lb);
  for (auto [arg, init] :
       llvm::zip_equal(loop.getRegionIterArgs(), loop.getInitArgs()))
    prologue.map(arg, init);
  for (Operation *op : earlyOps)
    tb.clone(*op, prologue);
  SmallVector<Value> inits;
  for (auto [i, value] : llvm::enumerate(yield.getOperands()))
    inits.push_back(lateArg(loop.getRegionIterArgs()[i])
                        ? loop.getInitArgs()[i]
                        : prologue.lookupOrDefault(value));
  const unsigned firstCrossing = inits.size();
  for (Value v : crossing)
    inits.push_back(prologue.lookupOrDefault(v));

  // The loop from the second iteration: this iteration's early stage with
  // the previous one's late stage after the first dot.
  Value start = arith::AddIOp::create(tb, loc, lb, step);
  auto rotated = scf::ForOp::create(tb, loc, start, ub, step, inits);
  Block *newBody = rotated.getBody();
  OpBuilder nb = OpBuilder::atBlockBegin(newBody);
  if (!newBody->empty())
    nb.setInsertionPoint(newBody->getTerminator());
  IRMapping early, late;
  early.map(loop.getInductionVar(), rotated.getInductionVar());
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    early.map(arg, rotated.getRegionIterArgs()[i]);
    late.map(arg, rotated.getRegionIterArgs()[i]);
  }
  for (auto [i, v] : llvm::enumerate(crossing))
    late.map(v, rotated.getRegionIterArgs()[firstCrossing + i]);
  SmallVector<Operation *> conversions;
  for (Operation *op : earlyOps) {
    Operation *clone = nb.clone(*op, early);
    if (chain->conversions.contains(op))
      conversions.push_back(clone);
    if (op == chain->first.getOperation())
      for (Operation *lateOp : lateOps)
        nb.clone(*lateOp, late);
  }
  SmallVector<Value> yields;
  for (auto [i, value] : llvm::enumerate(yield.getOperands()))
    yields.push_back(lateArg(loop.getRegionIterArgs()[i])
                         ? late.lookupOrDefault(value)
                         : early.lookupOrDefault(value));
  for (Value v : crossing)
    yields.push_back(early.lookupOrDefault(v));
  if (!newBody->empty() && isa<scf::YieldOp>(newBody->back()))
    newBody->back().erase();
  OpBuilder yb = OpBuilder::atBlockEnd(newBody);
  scf::YieldOp::create(yb, loc, yields);

  // Epilogue: the late stage of the last iteration.
  IRMapping epilogue;
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    epilogue.map(arg, rotated.getResult(i));
  for (auto [i, v] : llvm::enumerate(crossing))
    epilogue.map(v, rotated.getResult(firstCrossing + i));
  for (Operation *op : lateOps)
    tb.clone(*op, epilogue);
  SmallVector<Value> results;
  for (auto [i, value] : llvm::enumerate(yield.getOperands()))
    results.push_back(lateArg(loop.getRegionIterArgs()[i])
                          ? epilogue.lookupOrDefault(value)
                          : rotated.getResult(i));
  scf::YieldOp::create(tb, loc, results);

  loop.replaceAllUsesWith(guard.getResults());
  loop.erase();

  // The dots asynchronous, then P's conversion to the operand last, after
  // the wait for the second dot (FlashAttention-3's order): the registers
  // it writes are the ones the second dot read, free only then. (Converted
  // during the softmax, P's next value would go into registers the dot
  // still reads in flight, and ptxas waits for the dot before the softmax
  // instead, undoing the overlap.)
  overlapWarpGroupDots(rotated);
  Operation *yieldOp = rotated.getBody()->getTerminator();
  for (Operation *conversion : conversions)
    conversion->moveBefore(yieldOp);
  return rotated;
}

namespace {

/// Whether the scalar `value` is the same in every thread of the program,
/// as a branch around a wgmma wait (`.sync.aligned`) or a wgmma's use_c
/// must be: computed from constants, arguments, program ids, loop
/// counters and reductions, not from inline assembly or atomics (whose
/// scalar results may differ between threads) nor from tensor elements.
bool uniformScalar(Value value, DenseMap<Value, bool> &known,
                   unsigned depth = 0) {
  if (isa<ShapedType>(value.getType()) || depth > 64)
    return false;
  if (isa<BlockArgument>(value))
    return true;
  auto found = known.find(value);
  if (found != known.end())
    return found->second;
  Operation *def = value.getDefiningOp();
  bool uniform;
  if (isa<tile::InlineAsmOp, tile::AtomicRMWOp, tile::AtomicCASOp,
          tile::AtomicLoadOp, tile::AtomicPollOp>(def))
    uniform = false;
  else if (isa<tile::ReduceOp>(def))
    uniform = true;
  else
    uniform = def->getNumRegions() == 0 &&
              llvm::all_of(def->getOperands(), [&](Value operand) {
                return uniformScalar(operand, known, depth + 1);
              });
  known[value] = uniform;
  return uniform;
}

} // namespace

std::optional<mlir::terrazzo::InFlightAccumulator>
mlir::terrazzo::matchInFlightAccumulator(tilegpu::WarpGroupDotOp dot,
                                         scf::ForOp loop) {
  Block *body = loop.getBody();
  auto acc = dyn_cast<BlockArgument>(dot.getC());
  if (dot->getBlock() != body || !acc || acc.getOwner() != body ||
      acc.getArgNumber() == 0 || !acc.hasOneUse())
    return std::nullopt;
  mlir::terrazzo::InFlightAccumulator result;
  result.dot = dot;
  result.index = acc.getArgNumber() - 1;
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  // The one value the loop carries: d, or the reset's select of d.
  auto carried = [&](OpOperand &use) {
    return use.getOwner() == yield.getOperation() &&
           use.getOperandNumber() == result.index;
  };
  bool carriedOnce = false;
  llvm::SetVector<Region *> readers;
  DenseMap<Value, bool> uniform;
  for (OpOperand &use : dot->getUses()) {
    Operation *user = use.getOwner();
    if (carried(use) && !carriedOnce) {
      carriedOnce = true;
      continue;
    }
    if (auto select = dyn_cast<arith::SelectOp>(user);
        select && !result.reset && !carriedOnce && select->getBlock() == body &&
        uniformScalar(select.getCondition(), uniform) && select->hasOneUse() &&
        carried(*select->use_begin())) {
      bool zerosWhenTrue = select.getFalseValue() == dot.getResult() &&
                           isZero(select.getTrueValue());
      bool zerosWhenFalse = select.getTrueValue() == dot.getResult() &&
                            isZero(select.getFalseValue());
      if (zerosWhenTrue != zerosWhenFalse) {
        result.reset = select;
        result.resetWhenTrue = zerosWhenTrue;
        result.zeros =
            zerosWhenTrue ? select.getTrueValue() : select.getFalseValue();
        carriedOnce = true;
        continue;
      }
    }
    // Read under an scf.if of the body whose condition is the same in
    // every thread of the program.
    Operation *ancestor = body->findAncestorOpInBlock(*user);
    auto guard = dyn_cast_or_null<scf::IfOp>(ancestor);
    if (!guard || guard == user ||
        !uniformScalar(guard.getCondition(), uniform))
      return std::nullopt;
    Region *region = user->getParentRegion();
    while (region->getParentOp() != guard.getOperation())
      region = region->getParentOp()->getParentRegion();
    readers.insert(region);
  }
  if (!carriedOnce)
    return std::nullopt;
  result.readers = readers.takeVector();
  return result;
}

Value mlir::terrazzo::keepInFlight(mlir::terrazzo::InFlightAccumulator &acc,
                                   Value inFlight, Operation *yield) {
  // Each scf.if that reads the accumulator gets it as one more result: the
  // regions that read it wait for it first and yield what they waited for,
  // the others yield it in flight; the loop carries the last such result.
  // (Carried past the wait instead, the value in flight would stay live
  // beside the waited one, and the registers would be copied before the
  // wait, which ptxas answers with a wait of its own in front of them.)
  llvm::SetVector<Operation *> guards;
  for (Region *region : acc.readers)
    guards.insert(region->getParentOp());
  llvm::SmallVector<Operation *> ordered = guards.takeVector();
  llvm::sort(ordered,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  Value current = inFlight;
  for (Operation *op : ordered) {
    auto guard = cast<scf::IfOp>(op);
    Location loc = guard.getLoc();
    SmallVector<Type> types(guard.getResultTypes());
    types.push_back(current.getType());
    const bool reads[2] = {
        llvm::is_contained(acc.readers, &guard.getThenRegion()),
        llvm::is_contained(acc.readers, &guard.getElseRegion())};
    OpBuilder b(guard);
    auto grown = scf::IfOp::create(b, loc, types, guard.getCondition(),
                                   /*withElseRegion=*/true);
    grown.getThenRegion().takeBody(guard.getThenRegion());
    if (!guard.getElseRegion().empty())
      grown.getElseRegion().takeBody(guard.getElseRegion());
    else {
      OpBuilder eb = OpBuilder::atBlockEnd(grown.elseBlock());
      scf::YieldOp::create(eb, loc);
    }
    for (auto [region, read] : llvm::zip_equal(grown->getRegions(), reads)) {
      Value out = current;
      if (read) {
        Block &entry = region.front();
        OpBuilder wb(&entry, entry.begin());
        auto wait = tilegpu::WarpGroupDotWaitOp::create(
            wb, acc.dot.getLoc(), ValueRange{current}, /*pendings=*/0);
        out = wait.getResult(0);
        current.replaceUsesWithIf(out, [&](OpOperand &use) {
          return use.getOwner() != wait.getOperation() &&
                 region.isAncestor(use.getOwner()->getParentRegion());
        });
      }
      Operation *terminator = region.front().getTerminator();
      terminator->insertOperands(terminator->getNumOperands(), out);
    }
    guard.replaceAllUsesWith(grown.getResults().drop_back());
    guard.erase();
    current = grown.getResults().back();
  }
  yield->setOperand(acc.index, current);
  acc.readers.clear();
  if (!acc.reset)
    return {};
  OpBuilder b(yield);
  Location loc = acc.reset.getLoc();
  Value condition = acc.reset.getCondition();
  acc.reset.erase();
  acc.reset = {};
  if (!acc.resetWhenTrue)
    return condition;
  Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  return arith::XOrIOp::create(b, loc, condition, one);
}
