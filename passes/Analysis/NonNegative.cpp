// Integers known not to be negative: see NonNegative.h.
#include "passes/Analysis/NonNegative.h"

#include "dialects/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace {

/// Whether `value` is tl.num_programs(dim) plus a constant, which goes to
/// `offset` (`dim` set from the op): `num_programs(0) - 1` and the like.
bool programCountPlus(Value value, tile::ProgramDim &dim, int64_t &offset,
                      int depth = 0) {
  if (depth > 8)
    return false;
  Operation *def = value.getDefiningOp();
  if (auto count = dyn_cast_or_null<tile::NumProgramsOp>(def)) {
    dim = count.getDim();
    offset = 0;
    return true;
  }
  if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def))
    return false;
  APInt constant;
  bool sub = isa<arith::SubIOp>(def);
  for (unsigned side = 0; side < 2; ++side) {
    if (sub && side == 0)
      continue; // a constant minus the count is not of this form
    if (!matchPattern(def->getOperand(side), m_ConstantInt(&constant)) ||
        constant.getSignificantBits() > 32 ||
        !programCountPlus(def->getOperand(1 - side), dim, offset, depth + 1))
      continue;
    offset += sub ? -constant.getSExtValue() : constant.getSExtValue();
    return true;
  }
  return false;
}

/// Whether `def` is `num_programs(d) + k - program_id(d)` with k >= -1
/// (a program's index counted from the last one, which is at least 0 as a
/// program id is below the count): heavy-first orders, reversed tiles.
bool programsFromTheLast(Operation *def) {
  auto sub = dyn_cast<arith::SubIOp>(def);
  if (!sub)
    return false;
  auto id = sub.getRhs().getDefiningOp<tile::ProgramIdOp>();
  tile::ProgramDim dim;
  int64_t offset = 0;
  return id && programCountPlus(sub.getLhs(), dim, offset) &&
         dim == id.getDim() && offset >= -1;
}

/// Block arguments taken as not negative while the values they receive are
/// checked: the induction hypothesis of a loop-carried value.
using Assumed = llvm::SmallPtrSetImpl<Value>;

bool nonNegative(Value value, int depth, Assumed &assumed);

/// Whether loop-carried `arg` is not negative: every value it receives
/// is, given that it is itself (by induction over the iterations: the
/// first negative value it received would have been computed from values
/// that were not negative).
bool receivesNonNegative(BlockArgument arg, ValueRange incoming, int depth,
                         Assumed &assumed) {
  if (incoming.empty())
    return false;
  assumed.insert(arg);
  bool all = llvm::all_of(incoming, [&](Value value) {
    return nonNegative(value, depth + 1, assumed);
  });
  assumed.erase(arg);
  return all;
}

/// The values that branches pass to `arg` of a block other than a
/// region's entry (a loop header once scf is lowered to cf); empty when
/// some predecessor's are unknown.
SmallVector<Value> incomingValues(BlockArgument arg) {
  SmallVector<Value> incoming;
  Block *block = arg.getOwner();
  for (auto it = block->pred_begin(), e = block->pred_end(); it != e; ++it) {
    auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
    if (!branch)
      return {};
    SuccessorOperands operands =
        branch.getSuccessorOperands(it.getSuccessorIndex());
    Value value = operands[arg.getArgNumber()];
    if (!value)
      return {};
    incoming.push_back(value);
  }
  return incoming;
}

bool nonNegative(Value value, int depth, Assumed &assumed) {
  if (depth > 16)
    return false;
  if (assumed.contains(value))
    return true;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isNegative();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A kernel argument specialised as not negative (the launch key says).
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner()->isEntryBlock())
      return bool(func.getArgAttr(arg.getArgNumber(),
                                  tile::TileDialect::kNonNegativeAttrName));
    // An induction variable counts up from its lower bound by a step that
    // is not negative: a constant, or one such as tl.num_programs(0) (the
    // persistent loop over tiles, `range(pid, tiles, num_programs)`).
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (loop && arg == loop.getInductionVar())
      return nonNegative(loop.getStep(), depth + 1, assumed) &&
             nonNegative(loop.getLowerBound(), depth + 1, assumed);
    // A loop-carried value: its initial value and what each iteration
    // yields (offsets advanced by a stride: terrazzo-amd-buffer-addresses).
    if (loop)
      return receivesNonNegative(
          arg,
          {loop.getTiedLoopInit(arg)->get(),
           loop.getTiedLoopYieldedValue(arg)->get()},
          depth, assumed);
    if (!arg.getOwner()->isEntryBlock())
      return receivesNonNegative(arg, incomingValues(arg), depth, assumed);
    return false;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<tile::ProgramIdOp, tile::NumProgramsOp>(def) ||
      programsFromTheLast(def))
    return true;
  // Tensors: a range from a start that is not negative, and splats,
  // broadcasts and reshapes of such values.
  if (auto range = dyn_cast<tile::MakeRangeOp>(def))
    return int32_t(range.getStart()) >= 0;
  if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp>(def))
    return nonNegative(def->getOperand(0), depth + 1, assumed);
  auto operandsNonNegative = [&] {
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return nonNegative(operand, depth + 1, assumed);
    });
  };
  // A signed remainder has the dividend's sign.
  if (isa<arith::RemSIOp>(def))
    return nonNegative(def->getOperand(0), depth + 1, assumed);
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::DivUIOp,
          arith::RemUIOp, arith::MinSIOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::IndexCastOp>(def))
    return operandsNonNegative();
  if (isa<arith::MaxSIOp>(def))
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return nonNegative(operand, depth + 1, assumed);
    });
  // Either of two values that are not negative.
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return nonNegative(select.getTrueValue(), depth + 1, assumed) &&
           nonNegative(select.getFalseValue(), depth + 1, assumed);
  return false;
}


} // namespace

bool mlir::terrazzo::isKnownNonNegative(Value value) {
  llvm::SmallPtrSet<Value, 4> assumed;
  return nonNegative(value, 0, assumed);
}
