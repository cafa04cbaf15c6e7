// terrazzo-flatten-loops: see Passes.td.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOFLATTENLOOPS
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

/// A nest the pass flattens: `outer`'s body is the `prologue` (ops free of
/// memory effects and regions, recomputed in every step), then `inner`,
/// then the epilogue (the ops after it, which the flat loop runs on a
/// tile's last step).
struct Nest {
  scf::ForOp outer, inner;
  SmallVector<Operation *> prologue;
};

/// Why `outer` (marked tile.flatten) is not such a nest, or none.
std::optional<std::string> matchNest(scf::ForOp outer, Nest &nest) {
  nest.outer = outer;
  Block *body = outer.getBody();
  for (Operation &op : body->without_terminator()) {
    if (auto inner = dyn_cast<scf::ForOp>(&op)) {
      nest.inner = inner;
      break;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return std::string("the ops in front of the inner loop do not only "
                         "compute values (memory accesses or regions)");
    nest.prologue.push_back(&op);
  }
  scf::ForOp inner = nest.inner;
  if (!inner)
    return std::string("its body has no inner loop");
  StringRef specialize = tile::TileDialect::kWarpSpecializeAttrName;
  if (outer->hasAttr(specialize) || inner->hasAttr(specialize))
    return std::string("a warp-specialized loop keeps its nest");
  for (Operation &op : body->without_terminator())
    if (&op != inner.getOperation() && inner->isBeforeInBlock(&op))
      if (op.walk([](scf::ForOp) {
              return WalkResult::interrupt();
            }).wasInterrupted())
        return std::string("its body has a second loop");
  if (inner.getInductionVar().getType() != outer.getInductionVar().getType())
    return std::string("the two loops count in different types");
  // The inner loop runs the same iterations for every tile, from the same
  // start values (what the flat loop restores after a tile's last step).
  if (!llvm::all_of(inner.getOperands(), [&](Value value) {
        return outer.isDefinedOutsideOfLoop(value);
      }))
    return std::string("the inner loop's bounds or start values change from "
                       "one iteration of the outer loop to the next");
  return std::nullopt;
}

/// An scf.if with an else region and both regions empty (without the
/// yields the builder adds when there are no results), for the caller to
/// fill.
scf::IfOp emptyIf(OpBuilder &b, Location loc, TypeRange types, Value cond) {
  auto op = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  for (Block *block : {op.thenBlock(), op.elseBlock()})
    if (!block->empty())
      block->getTerminator()->erase();
  return op;
}

Value constantInt(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

/// The trip count of a loop from `lb` to `ub` by `step` (> 0), as an i64:
/// ceil(max(ub - lb, 0) / step), exact for any i32 or i64 bounds below
/// 2^63 apart.
Value tripCount(OpBuilder &b, Location loc, Value lb, Value ub, Value step) {
  Type i64 = b.getI64Type();
  auto widen = [&](Value v) -> Value {
    if (v.getType() == i64)
      return v;
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, i64, v);
    return arith::ExtSIOp::create(b, loc, i64, v);
  };
  Value zero = constantInt(b, loc, i64, 0);
  Value one = constantInt(b, loc, i64, 1);
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, widen(ub), widen(lb)), zero);
  Value s = widen(step);
  Value rounded = arith::AddIOp::create(b, loc, span,
                                        arith::SubIOp::create(b, loc, s, one));
  return arith::DivSIOp::create(b, loc, rounded, s);
}

/// Replaces the nest by a guard: where the flat loop's trip count (tiles x
/// inner iterations) fits the induction variable's type and the inner loop
/// runs at all, the flat loop; else the nest as it was.
void flatten(Nest &nest) {
  scf::ForOp outer = nest.outer, inner = nest.inner;
  Location loc = outer.getLoc();
  Type ivType = outer.getInductionVar().getType();
  OpBuilder b(outer);

  Value tiles = tripCount(b, loc, outer.getLowerBound(), outer.getUpperBound(),
                          outer.getStep());
  Value steps = tripCount(b, loc, inner.getLowerBound(), inner.getUpperBound(),
                          inner.getStep());
  Type i64 = b.getI64Type();
  unsigned width = ivType.isIndex() ? 64 : ivType.getIntOrFloatBitWidth();
  int64_t most = width >= 64 ? std::numeric_limits<int64_t>::max()
                             : (int64_t(1) << (width - 1)) - 1;
  Value zero64 = constantInt(b, loc, i64, 0);
  Value one64 = constantInt(b, loc, i64, 1);
  Value runs =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, steps, zero64);
  // tiles * steps <= most, without overflowing: tiles <= most / steps.
  Value bound =
      arith::DivSIOp::create(b, loc, constantInt(b, loc, i64, most),
                             arith::MaxSIOp::create(b, loc, steps, one64));
  Value fits =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, tiles, bound);
  Value flat = arith::AndIOp::create(b, loc, runs, fits);
  auto guard = emptyIf(b, loc, outer.getResultTypes(), flat);

  // The nest as it was, where the flat loop cannot run.
  OpBuilder eb = OpBuilder::atBlockEnd(guard.elseBlock());
  auto kept = cast<scf::ForOp>(eb.clone(*outer));
  kept->removeAttr(tile::TileDialect::kFlattenAttrName);
  scf::YieldOp::create(eb, loc, kept.getResults());

  // The flat loop: step i is inner iteration i % steps of tile i / steps.
  OpBuilder tb = OpBuilder::atBlockEnd(guard.thenBlock());
  auto narrow = [&](Value v) -> Value {
    if (ivType == i64)
      return v;
    if (ivType.isIndex())
      return arith::IndexCastOp::create(tb, loc, ivType, v);
    return arith::TruncIOp::create(tb, loc, ivType, v);
  };
  Value total = narrow(arith::MulIOp::create(tb, loc, tiles, steps));
  // At least 1 (it is, here): a divisor known not to be negative, so that
  // the tile and inner indices are too where the bounds are (a TMA store
  // at coordinates computed from them needs it).
  Value perTile = arith::MaxSIOp::create(tb, loc, narrow(steps),
                                         constantInt(tb, loc, ivType, 1));
  SmallVector<Value> inits(outer.getInitArgs());
  llvm::append_range(inits, inner.getInitArgs());
  auto loop = scf::ForOp::create(tb, loc, constantInt(tb, loc, ivType, 0),
                                 total, constantInt(tb, loc, ivType, 1), inits);
  // The loop options (tile.num_stages): the inner loop's, else the outer
  // loop's.
  for (scf::ForOp from : {outer, inner})
    for (NamedAttribute attr : from->getDiscardableAttrs())
      loop->setAttr(attr.getName(), attr.getValue());
  scf::YieldOp::create(
      tb, loc, loop.getResults().take_front(outer.getNumRegionIterArgs()));

  Block *body = loop.getBody();
  OpBuilder lb = OpBuilder::atBlockEnd(body);
  Value i = loop.getInductionVar();
  Value tileIndex = arith::DivSIOp::create(lb, loc, i, perTile);
  Value stepIndex = arith::RemSIOp::create(lb, loc, i, perTile);
  IRMapping map;
  map.map(outer.getInductionVar(),
          arith::AddIOp::create(
              lb, loc, outer.getLowerBound(),
              arith::MulIOp::create(lb, loc, tileIndex, outer.getStep())));
  map.map(inner.getInductionVar(),
          arith::AddIOp::create(
              lb, loc, inner.getLowerBound(),
              arith::MulIOp::create(lb, loc, stepIndex, inner.getStep())));
  const unsigned outerArgs = outer.getNumRegionIterArgs();
  for (auto [arg, flatArg] :
       llvm::zip_equal(outer.getRegionIterArgs(),
                       loop.getRegionIterArgs().take_front(outerArgs)))
    map.map(arg, flatArg);
  for (auto [arg, flatArg] :
       llvm::zip_equal(inner.getRegionIterArgs(),
                       loop.getRegionIterArgs().drop_front(outerArgs)))
    map.map(arg, flatArg);
  // The prologue, recomputed every step, then the inner body.
  for (Operation *op : nest.prologue)
    lb.clone(*op, map);
  for (Operation &op : inner.getBody()->without_terminator())
    lb.clone(op, map);
  auto innerYield = cast<scf::YieldOp>(inner.getBody()->getTerminator());
  SmallVector<Value> stepped;
  for (Value v : innerYield.getOperands())
    stepped.push_back(map.lookupOrDefault(v));
  for (auto [result, value] : llvm::zip_equal(inner.getResults(), stepped))
    map.map(result, value);
  // On a tile's last step: the epilogue, and the inner loop's values back
  // to their start.
  Value last = arith::CmpIOp::create(
      lb, loc, arith::CmpIPredicate::eq, stepIndex,
      arith::SubIOp::create(lb, loc, perTile, constantInt(lb, loc, ivType, 1)));
  SmallVector<Value> yields;
  auto epilogue = emptyIf(lb, loc, outer.getResultTypes(), last);
  {
    OpBuilder xb = OpBuilder::atBlockEnd(epilogue.thenBlock());
    Block *outerBody = outer.getBody();
    for (Operation &op :
         llvm::make_range(std::next(Block::iterator(inner)),
                          outerBody->without_terminator().end()))
      xb.clone(op, map);
    SmallVector<Value> outerYields;
    for (Value v : outerBody->getTerminator()->getOperands())
      outerYields.push_back(map.lookupOrDefault(v));
    scf::YieldOp::create(xb, loc, outerYields);
    OpBuilder nb = OpBuilder::atBlockEnd(epilogue.elseBlock());
    scf::YieldOp::create(nb, loc,
                         loop.getRegionIterArgs().take_front(outerArgs));
  }
  llvm::append_range(yields, epilogue.getResults());
  for (auto [value, init] : llvm::zip_equal(stepped, inner.getInitArgs()))
    yields.push_back(arith::SelectOp::create(lb, loc, last, init, value));
  scf::YieldOp::create(lb, loc, yields);

  outer.replaceAllUsesWith(guard.getResults());
  outer.erase();
}

struct FlattenLoopsPass
    : public mlir::terrazzo::impl::TerrazzoFlattenLoopsBase<FlattenLoopsPass> {
  void runOnOperation() override {
    StringRef name = tile::TileDialect::kFlattenAttrName;
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(name))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      loop->removeAttr(name);
      Nest nest;
      if (std::optional<std::string> why = matchNest(loop, nest)) {
        loop.emitRemark("flatten ignored: ") << *why;
        continue;
      }
      flatten(nest);
    }
  }
};

} // namespace
