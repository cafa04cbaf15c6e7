// terrazzo-promote-offsets: i32 offset arithmetic that may overflow is
// computed in i64 (issue 18 item 4). See Passes.td for what and why.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOPROMOTEOFFSETS
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

constexpr int64_t kI32Min = INT32_MIN;
constexpr int64_t kI32Max = INT32_MAX;

/// The values an i32 expression may take, as exact (unwrapped) integers, and
/// whether some add, sub or mul on its way wrapped around in i32.
struct Range {
  int64_t lo = kI32Min;
  int64_t hi = kI32Max;
  bool mayWrap = false;
};

bool isI32(Value value) {
  return getElementTypeOrSelf(value.getType()).isInteger(32);
}

/// Ranges of the i32 offset expressions of one function, and their i64
/// twins where they are needed.
class OffsetPromoter {
public:
  /// The range of `value` (i32). Through add, sub and mul (exact interval
  /// arithmetic: every operand of these is an i32 in its range, so the
  /// products fit in 64 bits), splat, broadcast and expand_dims; a constant
  /// is itself, make_range [start, end), program_id [0, 2^31 - 1]; anything
  /// else may be any i32.
  Range rangeOf(Value value) {
    if (auto it = ranges.find(value); it != ranges.end())
      return it->second;
    Range range;
    APInt constant;
    Operation *def = value.getDefiningOp();
    if (matchPattern(value, m_ConstantInt(&constant))) {
      range.lo = range.hi = constant.getSExtValue();
    } else if (auto make = dyn_cast_or_null<tile::MakeRangeOp>(def)) {
      range.lo = make.getStart();
      range.hi = int64_t(make.getEnd()) - 1;
    } else if (isa_and_nonnull<tile::ProgramIdOp>(def)) {
      range.lo = 0;
    } else if (isa_and_nonnull<tile::SplatOp, tile::BroadcastOp,
                               tile::ExpandDimsOp>(def)) {
      range = rangeOf(def->getOperand(0));
    } else if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
                   def)) {
      Range a = rangeOf(def->getOperand(0));
      Range b = rangeOf(def->getOperand(1));
      int64_t candidates[4];
      if (isa<arith::AddIOp>(def)) {
        candidates[0] = candidates[1] = a.lo + b.lo;
        candidates[2] = candidates[3] = a.hi + b.hi;
      } else if (isa<arith::SubIOp>(def)) {
        candidates[0] = candidates[1] = a.lo - b.hi;
        candidates[2] = candidates[3] = a.hi - b.lo;
      } else {
        candidates[0] = a.lo * b.lo;
        candidates[1] = a.lo * b.hi;
        candidates[2] = a.hi * b.lo;
        candidates[3] = a.hi * b.hi;
      }
      int64_t lo = *std::min_element(candidates, candidates + 4);
      int64_t hi = *std::max_element(candidates, candidates + 4);
      if (lo < kI32Min || hi > kI32Max) {
        // Wraps in i32: the result may be any i32, and the i64 twin holds
        // the exact value (within lo..hi), which is what offsets mean.
        range = Range{kI32Min, kI32Max, true};
      } else {
        range = Range{lo, hi, a.mayWrap || b.mayWrap};
      }
    }
    ranges[value] = range;
    return range;
  }

  /// `value` (i32) computed in i64: the add, sub and mul that may wrap, and
  /// the splat, broadcast, expand_dims and constants it is made of, rebuilt
  /// on i64; anything else sign-extended. Built next to the op it rebuilds.
  Value promote(Value value) {
    if (auto it = promoted.find(value); it != promoted.end())
      return it->second;
    Type i64 = IntegerType::get(value.getContext(), 64);
    Type type = i64;
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
      type = tensor.clone(i64);
    OpBuilder b(value.getContext());
    if (Operation *def = value.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
    Location loc = value.getLoc();
    Operation *def = value.getDefiningOp();
    Value result;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant))) {
      TypedAttr attr = b.getIntegerAttr(i64, constant.sext(64));
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        attr = DenseElementsAttr::get(tensor, cast<Attribute>(attr));
      result = arith::ConstantOp::create(b, loc, type, attr);
    } else if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
                   def) &&
               rangeOf(value).mayWrap) {
      Value lhs = promote(def->getOperand(0));
      Value rhs = promote(def->getOperand(1));
      b.setInsertionPointAfter(def);
      if (isa<arith::AddIOp>(def))
        result = arith::AddIOp::create(b, loc, lhs, rhs);
      else if (isa<arith::SubIOp>(def))
        result = arith::SubIOp::create(b, loc, lhs, rhs);
      else
        result = arith::MulIOp::create(b, loc, lhs, rhs);
    } else if (isa_and_nonnull<tile::SplatOp, tile::BroadcastOp,
                               tile::ExpandDimsOp>(def)) {
      // Rebuilt even where nothing wraps: the scalar or the smaller
      // tensor is what gets sign-extended.
      Value source = promote(def->getOperand(0));
      b.setInsertionPointAfter(def);
      if (isa<tile::SplatOp>(def))
        result = tile::SplatOp::create(b, loc, type, source);
      else if (isa<tile::BroadcastOp>(def))
        result = tile::BroadcastOp::create(b, loc, type, source);
      else
        result = tile::ExpandDimsOp::create(
            b, loc, type, source, cast<tile::ExpandDimsOp>(def).getAxisAttr());
    } else {
      // Computed without wrapping: its i32 value is exact.
      result = arith::ExtSIOp::create(b, loc, type, value);
    }
    // A rebuilt op keeps the hints on the original (tl.multiple_of,
    // tl.max_contiguous: tile.divisibility, tile.contiguity).
    if (def && result.getDefiningOp() != def &&
        !isa<arith::ExtSIOp>(result.getDefiningOp()))
      result.getDefiningOp()->setDiscardableAttrs(
          def->getDiscardableAttrDictionary());
    promoted[value] = result;
    return result;
  }

  /// Erases the i32 expressions (and the given ops) left without users.
  void eraseDead(SmallVector<Operation *> candidates) {
    for (auto &[value, twin] : promoted)
      if (Operation *def = value.getDefiningOp())
        candidates.push_back(def);
    llvm::SetVector<Operation *> worklist(candidates.begin(), candidates.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!isOpTriviallyDead(op))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          worklist.insert(def);
      ranges.erase(op->getResult(0));
      promoted.erase(op->getResult(0));
      op->erase();
    }
  }

private:
  DenseMap<Value, Range> ranges;
  DenseMap<Value, Value> promoted;
};

/// Whether `value` (i1) becomes the mask of a memory access, through the
/// ops that combine or reshape masks.
bool feedsMask(Value value, DenseSet<Value> &seen) {
  if (!seen.insert(value).second)
    return false;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    Value mask;
    if (auto op = dyn_cast<tile::LoadOp>(user))
      mask = op.getMask();
    else if (auto op = dyn_cast<tile::StoreOp>(user))
      mask = op.getMask();
    else if (auto op = dyn_cast<tile::AtomicRMWOp>(user))
      mask = op.getMask();
    else if (auto op = dyn_cast<tile::AtomicLoadOp>(user))
      mask = op.getMask();
    else if (auto op = dyn_cast<tile::AtomicStoreOp>(user))
      mask = op.getMask();
    if (mask && mask == value)
      return true;
    if (isa<arith::AndIOp, arith::OrIOp, tile::SplatOp, tile::BroadcastOp,
            tile::ExpandDimsOp>(user) &&
        feedsMask(user->getResult(0), seen))
      return true;
  }
  return false;
}

/// The i32 expression behind an operand of a comparison: the operand, or
/// what an i64 operand sign-extends; null for anything else.
Value comparedI32(Value operand) {
  if (isI32(operand))
    return operand;
  if (auto ext = operand.getDefiningOp<arith::ExtSIOp>())
    if (isI32(ext.getIn()))
      return ext.getIn();
  return Value();
}

struct PromoteOffsetsPass
    : public mlir::terrazzo::impl::TerrazzoPromoteOffsetsBase<
          PromoteOffsetsPass> {
  void runOnOperation() override {
    OffsetPromoter promoter;
    // Where an i32 offset expression becomes an address, or is compared to
    // make the mask of an access, it means the exact value: those uses take
    // the i64 twin of an expression that may wrap. Other uses keep Triton's
    // i32 arithmetic (a causal mask in a hot loop stays i32).
    SmallVector<Operation *> roots, dead;
    getOperation()->walk([&](Operation *op) {
      if (auto addptr = dyn_cast<tile::AddPtrOp>(op)) {
        if (isI32(addptr.getOffset()))
          roots.push_back(op);
      } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
        DenseSet<Value> seen;
        if ((comparedI32(cmp.getLhs()) || comparedI32(cmp.getRhs())) &&
            feedsMask(cmp.getResult(), seen))
          roots.push_back(op);
      }
    });
    for (Operation *op : roots) {
      if (auto addptr = dyn_cast<tile::AddPtrOp>(op)) {
        if (promoter.rangeOf(addptr.getOffset()).mayWrap)
          addptr.getOffsetMutable().assign(
              promoter.promote(addptr.getOffset()));
        continue;
      }
      auto cmp = cast<arith::CmpIOp>(op);
      // Signed predicates and equality compare the exact values; unsigned
      // ones are about the bits, and stay.
      using P = arith::CmpIPredicate;
      P predicate = cmp.getPredicate();
      if (predicate == P::ult || predicate == P::ule || predicate == P::ugt ||
          predicate == P::uge)
        continue;
      Value lhs = comparedI32(cmp.getLhs());
      Value rhs = comparedI32(cmp.getRhs());
      if (!(lhs && promoter.rangeOf(lhs).mayWrap) &&
          !(rhs && promoter.rangeOf(rhs).mayWrap))
        continue;
      for (Value operand : {cmp.getLhs(), cmp.getRhs()})
        if (Operation *def = operand.getDefiningOp())
          dead.push_back(def);
      Value wideLhs = lhs ? promoter.promote(lhs) : cmp.getLhs();
      Value wideRhs = rhs ? promoter.promote(rhs) : cmp.getRhs();
      OpBuilder b(cmp);
      Value wide =
          arith::CmpIOp::create(b, cmp.getLoc(), predicate, wideLhs, wideRhs);
      cmp.getResult().replaceAllUsesWith(wide);
      cmp.erase();
    }
    promoter.eraseDead(std::move(dead));
  }
};

} // namespace
