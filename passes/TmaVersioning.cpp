// The code using tensor descriptors whose alignment is known only at run
// time, versioned on it (TmaDescriptors.h: versionForTma).
#include "passes/TmaDescriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Whether `value` is defined before `first`, once the side-effect-free
/// ops of `first`'s block that compute it from such values (the frontend's
/// extension of a stride to i64, made right before its descriptor) move
/// there.
bool defineBefore(Value value, Operation *first, DominanceInfo &dominance) {
  if (dominance.properlyDominates(value, first))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != first->getBlock() || !isPure(def) ||
      def->getNumRegions())
    return false;
  for (Value operand : def->getOperands())
    if (!defineBefore(operand, first, dominance))
      return false;
  def->moveBefore(first);
  return true;
}

/// True where every check holds: `value` a multiple of `multiple` (a power
/// of two), or equal to 1 where `multiple` is 0.
Value buildCondition(OpBuilder &b, Location loc,
                     ArrayRef<TmaRuntimeCheck> checks) {
  Value all;
  for (const TmaRuntimeCheck &check : checks) {
    Value value = check.value;
    if (isa<tile::PointerType>(value.getType()))
      value = tile::PtrToIntOp::create(b, loc, b.getI64Type(), value);
    Type type = value.getType();
    Value holds;
    if (check.multiple == 0) {
      holds =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, value,
                                arith::ConstantIntOp::create(b, loc, type, 1));
    } else {
      Value low = arith::AndIOp::create(
          b, loc, value,
          arith::ConstantIntOp::create(b, loc, type, check.multiple - 1));
      holds =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low,
                                arith::ConstantIntOp::create(b, loc, type, 0));
    }
    all = all ? arith::AndIOp::create(b, loc, all, holds) : holds;
  }
  return all;
}

/// The ops of `block` from `first` to `last`, inclusive.
auto opsBetween(Operation *first, Operation *last) {
  return llvm::make_range(first->getIterator(), std::next(last->getIterator()));
}

} // namespace

void mlir::terrazzo::versionForTma(ArrayRef<CheckedDescriptor> candidates,
                                   DenseSet<Operation *> &kept) {
  DenseSet<Operation *> done;
  for (const CheckedDescriptor &candidate : candidates) {
    if (done.contains(candidate.desc))
      continue;
    Block *block = candidate.desc->getBlock();
    // The range: the descriptors of this block made from values defined
    // before the first of them, through the last op of the block that
    // holds a use of one.
    SmallVector<const CheckedDescriptor *> group;
    for (const CheckedDescriptor &other : candidates)
      if (!done.contains(other.desc) && other.desc->getBlock() == block)
        group.push_back(&other);
    Operation *first = group.front()->desc, *last = first;
    for (const CheckedDescriptor *member : group) {
      Operation *desc = member->desc;
      if (desc->isBeforeInBlock(first))
        first = desc;
      for (Operation *user : desc->getUsers()) {
        Operation *holder = block->findAncestorOpInBlock(*user);
        if (holder && last->isBeforeInBlock(holder))
          last = holder;
      }
      if (last->isBeforeInBlock(desc))
        last = desc;
    }
    DominanceInfo dominance(first->getParentOfType<func::FuncOp>());
    SmallVector<TmaRuntimeCheck> checks;
    SmallVector<Operation *> versioned;
    for (const CheckedDescriptor *member : group) {
      done.insert(member->desc);
      // A kernel argument not known to be aligned is not (the launcher
      // specialises on it); a value the range computes from its own
      // loads cannot be checked before it. Such descriptors keep the
      // pointer lowering.
      if (llvm::any_of(member->checks, [&](const TmaRuntimeCheck &check) {
            return isSpecializedArgument(check.value) ||
                   !defineBefore(check.value, first, dominance);
          }))
        continue;
      llvm::append_range(checks, member->checks);
      versioned.push_back(member->desc);
    }
    // A warp-specialized loop (its producer made from the function's one
    // loop structure) is not duplicated.
    bool specialized = llvm::any_of(opsBetween(first, last), [](Operation &op) {
      return tile::holdsWarpSpecializedLoop(&op);
    });
    if (versioned.empty() || specialized)
      continue;

    // What the range defines and later ops use: the scf.if's results.
    SmallVector<Value> escaping;
    for (Operation &op : opsBetween(first, last))
      for (Value result : op.getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              Operation *holder = block->findAncestorOpInBlock(*user);
              return !holder || last->isBeforeInBlock(holder);
            }))
          escaping.push_back(result);

    OpBuilder b(first);
    Location loc = first->getLoc();
    Value condition = buildCondition(b, loc, checks);
    auto ifOp = scf::IfOp::create(b, loc, ValueRange(escaping).getTypes(),
                                  condition, /*withElseRegion=*/true);
    Block *thenBlock = &ifOp.getThenRegion().front();
    Block *elseBlock = &ifOp.getElseRegion().front();
    for (Block *branch : {thenBlock, elseBlock})
      if (!branch->empty())
        branch->back().erase(); // the builder's empty scf.yield, if any
    // Aligned: the ops themselves, their descriptors kept for TMA.
    thenBlock->getOperations().splice(thenBlock->end(), block->getOperations(),
                                      first->getIterator(),
                                      std::next(last->getIterator()));
    // Otherwise a copy whose descriptors become pointer accesses, but for
    // those TMA could serve anyway.
    IRMapping mapping;
    b.setInsertionPointToEnd(elseBlock);
    for (Operation &op : *thenBlock)
      b.clone(op, mapping);
    thenBlock->walk([&](Operation *op) {
      if (kept.contains(op))
        kept.insert(mapping.lookup(op));
      if (isa<tile::MakeTensorDescOp>(op))
        done.insert(op), done.insert(mapping.lookup(op));
    });
    kept.insert(versioned.begin(), versioned.end());
    b.setInsertionPointToEnd(thenBlock);
    scf::YieldOp::create(b, loc, escaping);
    b.setInsertionPointToEnd(elseBlock);
    SmallVector<Value> copies = llvm::map_to_vector(
        escaping, [&](Value value) { return mapping.lookup(value); });
    scf::YieldOp::create(b, loc, copies);
    for (auto [value, result] : llvm::zip(escaping, ifOp.getResults()))
      value.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !ifOp->isAncestor(use.getOwner());
      });
  }
}

void mlir::terrazzo::guardStoreCoordinates(ArrayRef<tile::DescStoreOp> stores) {
  for (tile::DescStoreOp store : stores) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value all;
    for (Value index : store.getIndices()) {
      if (isKnownNonNegative(index))
        continue;
      Value zero = arith::ConstantIntOp::create(b, loc, index.getType(), 0);
      Value holds =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
      all = all ? arith::AndIOp::create(b, loc, all, holds) : holds;
    }
    if (!all)
      continue;
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, all,
                                  /*withElseRegion=*/true);
    store->moveBefore(ifOp.thenBlock()->getTerminator());
    // Elsewhere a store through a descriptor of its own, not left for TMA.
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    IRMapping mapping;
    b.clone(*store.getDesc().getDefiningOp(), mapping);
    b.clone(*store, mapping);
  }
}
