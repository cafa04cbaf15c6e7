// terrazzo-promote-offsets: i32 offset arithmetic that may overflow is
// computed in i64 (issue 18 item 4). See Passes.td for what and why.
#include "passes/Passes.h"

#include "dialects/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "passes/Analysis/PointerRange.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

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
  /// is itself, make_range [start, end), program_id [0, 2^31 - 1], a K
  /// loop's tail (loopTailRange) [1, x]; anything else may be any i32.
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
    } else if (std::optional<Range> tail = loopTailRange(def)) {
      range = *tail;
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

  /// The range of `x - iv * s` (`def`), s a positive constant, in the body
  /// of the scf.for of induction variable iv when that loop runs from a
  /// lower bound that is not negative, by steps of 1, to ceil(x / s)
  /// written `(x + s - 1) / s` (divsi or floordivsi) or `ceildivsi(x, s)`,
  /// x not wrapping: the K tail `K - k * BLOCK_K` of a loop
  /// `for k in range(0, tl.cdiv(K, BLOCK_K))`. The body runs only where
  /// 0 <= iv <= ceil(x / s) - 1, so that x >= 1 and iv * s <= x - 1: the
  /// value is in [1, x] and nothing on its way wraps. Interval arithmetic
  /// alone would lose the tie between x and iv (and count the product and
  /// the difference as wrapping); the comparison of the tail mask then
  /// stays in i32 instead of a clamped i64 bound per iteration.
  std::optional<Range> loopTailRange(Operation *def) {
    auto sub = dyn_cast_or_null<arith::SubIOp>(def);
    if (!sub)
      return std::nullopt;
    Value x = sub.getLhs();
    auto mul = sub.getRhs().getDefiningOp<arith::MulIOp>();
    if (!mul)
      return std::nullopt;
    APInt step;
    Value iv = mul.getLhs();
    if (!matchPattern(mul.getRhs(), m_ConstantInt(&step))) {
      iv = mul.getRhs();
      if (!matchPattern(mul.getLhs(), m_ConstantInt(&step)))
        return std::nullopt;
    }
    int64_t s = step.getSExtValue();
    auto loop = scf::getForInductionVarOwner(iv);
    if (s <= 0 || !loop || !matchPattern(loop.getStep(), m_One()) ||
        rangeOf(loop.getLowerBound()).lo < 0)
      return std::nullopt;
    Range xRange = rangeOf(x);
    if (xRange.mayWrap || !isCeilDiv(loop.getUpperBound(), x, s))
      return std::nullopt;
    return Range{1, std::max<int64_t>(1, xRange.hi), false};
  }

  /// Whether `bound` is ceil(x / s): `(x + s - 1) / s` by divsi or
  /// floordivsi (the same where x + s - 1 >= 0, and a loop to a bound below
  /// 1 does not run), or `ceildivsi(x, s)`.
  static bool isCeilDiv(Value bound, Value x, int64_t s) {
    APInt divisor, addend;
    Operation *div = bound.getDefiningOp();
    if (!isa_and_nonnull<arith::DivSIOp, arith::FloorDivSIOp,
                         arith::CeilDivSIOp>(div) ||
        !matchPattern(div->getOperand(1), m_ConstantInt(&divisor)) ||
        divisor.getSExtValue() != s)
      return false;
    Value numerator = div->getOperand(0);
    if (isa<arith::CeilDivSIOp>(div))
      return numerator == x;
    auto add = numerator.getDefiningOp<arith::AddIOp>();
    if (!add)
      return false;
    Value other = add.getLhs() == x   ? add.getRhs()
                  : add.getRhs() == x ? add.getLhs()
                                      : Value();
    return other && matchPattern(other, m_ConstantInt(&addend)) &&
           addend.getSExtValue() == s - 1;
  }

  /// `value` (i32) computed in i64: the add, sub and mul that may wrap, and
  /// the splat, broadcast, expand_dims and constants it is made of, rebuilt
  /// on i64; anything else sign-extended. Built next to the op it rebuilds.
  Value promote(Value value) {
    bool isTensor = isa<RankedTensorType>(value.getType());
    DenseMap<Value, Value> &memo = isTensor ? tensorTwins : promoted;
    if (auto it = memo.find(value); it != memo.end())
      return it->second;
    Type i64 = IntegerType::get(value.getContext(), 64);
    Type type = i64;
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
      type = tensor.clone(i64);
    OpBuilder b(value.getContext());
    // A scalar's twin goes next to it, shared by every use. A tensor's goes
    // before the use that needs it (`root`), so that an i64 value per
    // element lives only there: an attention's query rows are used before
    // the loops over keys and after them, and their twin defined before
    // the loops would live across them.
    auto place = [&] {
      if (isTensor)
        b.setInsertionPoint(root);
      else if (Operation *def = value.getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
    };
    place();
    Location loc = value.getLoc();
    Operation *def = value.getDefiningOp();
    Value result;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant))) {
      TypedAttr attr = b.getIntegerAttr(i64, constant.sext(64));
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        attr = DenseElementsAttr::get(tensor, cast<Attribute>(attr));
      result = arith::ConstantOp::create(b, loc, type, attr);
    } else if ((isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
                    def) &&
                rangeOf(value).mayWrap) ||
               isa_and_nonnull<tile::SplatOp, tile::BroadcastOp,
                               tile::ExpandDimsOp>(def)) {
      // The same op on i64 operands: an add, sub or mul that may wrap;
      // a splat, broadcast or expand_dims even where nothing wraps (the
      // scalar or the smaller tensor is what gets sign-extended).
      IRMapping operands;
      for (Value operand : def->getOperands())
        operands.map(operand, promote(operand));
      place();
      Operation *twin = b.clone(*def, operands);
      twin->getResult(0).setType(type);
      result = twin->getResult(0);
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
    memo[value] = result;
    if (isTensor)
      allTensorTwins.push_back({value, result});
    return result;
  }

  /// The use the next promotions are for: tensor twins are built before
  /// it.
  void setRoot(Operation *op) {
    root = op;
    tensorTwins.clear();
  }

  /// An i32 tensor expression as `splat(uniform) + varying`, both i32, in
  /// exact (unwrapped) arithmetic: `uniform` a scalar, the same for every
  /// element (program ids, loop counters, strides: what a program's block
  /// starts at), `varying` of the expression's type (what make_range and
  /// the block's own arithmetic add). Null stands for zero.
  struct Split {
    Value uniform;
    Value varying;
  };

  /// `value` split through splat, broadcast, expand_dims, add, sub and mul
  /// by a uniform factor; anything else (and an op carrying hints, which a
  /// rebuilt expression would lose) is varying as a whole. The ops the
  /// split needs are built at `b`'s insertion point and recorded in
  /// `built` (the unused ones are erased with the dead i32 expressions).
  Split split(Value value, OpBuilder &b) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor)
      return {value, Value()};
    Split whole{Value(), value};
    Operation *def = value.getDefiningOp();
    if (!def || !def->getDiscardableAttrDictionary().empty())
      return whole;
    Location loc = value.getLoc();
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant))) {
      if (constant.isZero())
        return {};
      return {record(arith::ConstantOp::create(
                  b, loc, b.getIntegerAttr(tensor.getElementType(), constant))),
              Value()};
    }
    if (auto splat = dyn_cast<tile::SplatOp>(def))
      return {splat.getSrc(), Value()};
    if (isa<tile::BroadcastOp, tile::ExpandDimsOp>(def)) {
      Split source = split(def->getOperand(0), b);
      if (!source.uniform)
        return whole;
      Value varying;
      if (source.varying) {
        Operation *copy = b.clone(*def);
        copy->setOperand(0, source.varying);
        varying = record(copy);
      }
      return {source.uniform, varying};
    }
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
      return whole;
    Split x = split(def->getOperand(0), b);
    Split y = split(def->getOperand(1), b);
    if (!x.uniform && !y.uniform)
      return whole;
    if (isa<arith::MulIOp>(def)) {
      // (ux + vx) * uy = ux * uy + vx * uy; a product of two varying parts
      // is varying as a whole.
      if (x.varying && y.varying)
        return whole;
      if (x.varying)
        std::swap(x, y);
      // Now x is uniform (x.varying is null).
      Value uniform, varying;
      if (x.uniform && y.uniform)
        uniform = record(arith::MulIOp::create(b, loc, x.uniform, y.uniform));
      if (x.uniform && y.varying)
        varying = record(arith::MulIOp::create(
            b, loc, y.varying,
            record(tile::SplatOp::create(b, loc, tensor, x.uniform))));
      return {uniform, varying};
    }
    bool subtract = isa<arith::SubIOp>(def);
    auto combine = [&](Value lhs, Value rhs, Type type) -> Value {
      if (!rhs)
        return lhs;
      if (!lhs && !subtract)
        return rhs;
      if (!lhs)
        lhs = record(arith::ConstantOp::create(b, loc, b.getZeroAttr(type)));
      if (subtract)
        return record(arith::SubIOp::create(b, loc, lhs, rhs));
      return record(arith::AddIOp::create(b, loc, lhs, rhs));
    };
    return {combine(x.uniform, y.uniform, tensor.getElementType()),
            combine(x.varying, y.varying, tensor)};
  }

  /// Erases the i32 expressions (and the given ops) left without users.
  void eraseDead(SmallVector<Operation *> candidates) {
    for (auto &[value, twin] : promoted)
      for (Value v : {value, twin})
        if (Operation *def = v.getDefiningOp())
          candidates.push_back(def);
    for (auto &[value, twin] : allTensorTwins)
      for (Value v : {value, twin})
        if (Operation *def = v.getDefiningOp())
          candidates.push_back(def);
    candidates.append(built.begin(), built.end());
    built.clear();
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
      tensorTwins.erase(op->getResult(0));
      op->erase();
    }
  }

  /// `op` (built by the pass), to be erased at the end if left unused.
  Value record(Operation *op) {
    built.push_back(op);
    return op->getResult(0);
  }
  template <typename OpT> Value record(OpT op) {
    return record(op.getOperation());
  }

private:
  DenseMap<Value, Range> ranges;
  DenseMap<Value, Value> promoted;
  /// Tensor twins for the current root, and all of them.
  DenseMap<Value, Value> tensorTwins;
  SmallVector<std::pair<Value, Value>> allTensorTwins;
  Operation *root = nullptr;
  SmallVector<Operation *> built;
};

/// The pointers of the memory accesses whose mask `value` (i1) becomes,
/// through the ops that combine or reshape masks.
void maskedPointers(Value value, DenseSet<Value> &seen,
                    SmallVectorImpl<Value> &pointers) {
  if (!seen.insert(value).second)
    return;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    Value mask, ptr;
    if (auto op = dyn_cast<tile::LoadOp>(user))
      mask = op.getMask(), ptr = op.getPtr();
    else if (auto op = dyn_cast<tile::StoreOp>(user))
      mask = op.getMask(), ptr = op.getPtr();
    else if (auto op = dyn_cast<tile::AtomicRMWOp>(user))
      mask = op.getMask(), ptr = op.getPtr();
    else if (auto op = dyn_cast<tile::AtomicLoadOp>(user))
      mask = op.getMask(), ptr = op.getPtr();
    else if (auto op = dyn_cast<tile::AtomicStoreOp>(user))
      mask = op.getMask(), ptr = op.getPtr();
    if (mask && mask == value)
      pointers.push_back(ptr);
    else if (isa<arith::AndIOp, arith::OrIOp, tile::SplatOp, tile::BroadcastOp,
                 tile::ExpandDimsOp>(user))
      maskedPointers(user->getResult(0), seen, pointers);
  }
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

/// The i64 scalar an operand splats (through broadcast and expand_dims);
/// null for anything else.
Value uniformI64(Value operand) {
  Operation *def = operand.getDefiningOp();
  while (isa_and_nonnull<tile::BroadcastOp, tile::ExpandDimsOp>(def)) {
    operand = def->getOperand(0);
    def = operand.getDefiningOp();
  }
  if (auto splat = dyn_cast_or_null<tile::SplatOp>(def))
    if (splat.getSrc().getType().isInteger(64))
      return splat.getSrc();
  return Value();
}

/// Whether `value` may change from one iteration of `loop` to the next: it
/// is, or is computed from, an argument of a block in the loop or the
/// result of an op in it that is not pure.
bool variesIn(Value value, LoopLikeOpInterface loop) {
  Region *body = &loop->getRegion(0);
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second || !body->isAncestor(v.getParentRegion()))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !isPure(def))
      return true;
    worklist.append(def->operand_begin(), def->operand_end());
  }
  return false;
}

/// The pointers `ptr` advanced by the scalar `uniform` (i64): where `ptr`
/// is a splat of one pointer (through broadcast, expand_dims and addptr),
/// that pointer advanced and the chain rebuilt on it, else a 64-bit step
/// per element.
Value rebase(OpBuilder &b, Location loc, Value ptr, Value uniform) {
  Operation *def = ptr.getDefiningOp();
  if (auto splat = dyn_cast_or_null<tile::SplatOp>(def)) {
    Value base = tile::AddPtrOp::create(b, loc, splat.getSrc().getType(),
                                        splat.getSrc(), uniform);
    return tile::SplatOp::create(b, loc, ptr.getType(), base);
  }
  if (isa_and_nonnull<tile::BroadcastOp, tile::ExpandDimsOp, tile::AddPtrOp>(
          def) &&
      def->getDiscardableAttrDictionary().empty()) {
    Value source = rebase(b, loc, def->getOperand(0), uniform);
    Operation *copy = b.clone(*def);
    copy->setOperand(0, source);
    return copy->getResult(0);
  }
  auto type = cast<RankedTensorType>(ptr.getType());
  Value steps =
      tile::SplatOp::create(b, loc, type.clone(b.getI64Type()), uniform);
  return tile::AddPtrOp::create(b, loc, ptr.getType(), ptr, steps);
}

/// Rewrites `addptr(p, offsets)` (a tensor whose offsets may wrap) as
/// `addptr(addptr(p, splat(u)), v)` for offsets = splat(u) + v, with `u` in
/// i64 (one scalar per program: with p a splat, one 64-bit base pointer)
/// and `v` in i32 where it cannot wrap. Nothing i64 per element is left
/// to live across loops (the block's row offsets of an attention's query
/// block are used before and after the loops over keys). Fails where the
/// offsets have no uniform part.
bool splitAddPtr(tile::AddPtrOp addptr, OffsetPromoter &promoter) {
  auto type = dyn_cast<RankedTensorType>(addptr.getOffset().getType());
  if (!type)
    return false;
  OpBuilder b(addptr);
  OffsetPromoter::Split parts = promoter.split(addptr.getOffset(), b);
  if (!parts.uniform)
    return false;
  Value varying = parts.varying;
  if (varying && promoter.rangeOf(varying).mayWrap) {
    // i64 per element: in a loop where the offsets change per iteration,
    // computed whole in the loop (what does not change would leave it, i64
    // per element, live across the loop); elsewhere computed where used.
    auto loop = addptr->getParentOfType<LoopLikeOpInterface>();
    if (loop && variesIn(addptr.getOffset(), loop))
      return false;
    varying = promoter.promote(varying);
  }
  Value uniform = promoter.promote(parts.uniform);
  Location loc = addptr.getLoc();
  Value ptr = addptr.getPtr();
  Value based = rebase(b, loc, ptr, uniform);
  Value result = based;
  if (varying)
    result = tile::AddPtrOp::create(b, loc, ptr.getType(), based, varying);
  result.getDefiningOp()->setDiscardableAttrs(
      addptr->getDiscardableAttrDictionary());
  addptr.getResult().replaceAllUsesWith(result);
  return true;
}

/// Rewrites `x <pred> y` (tensors, a signed or equality predicate), for
/// x = splat(ux) + vx and y = splat(uy) + vy, as `vx - vy <pred> uy - ux`
/// in i32: the left side per element, which must not wrap, the right side
/// a scalar computed in i64 and clamped just outside the left side's range
/// (to multiples of 2^16, so that AxisInfo keeps its divisibility), which
/// leaves every comparison's outcome as it was. A mask in a loop (a K tail
/// `offs_k < K - k * BLOCK_K`) stays an i32 comparison per element. An i64
/// side may also be a splat of an i64 scalar (an i64 bound). Fails where
/// a side is neither, or the per-element difference may wrap.
bool splitCompare(arith::CmpIOp cmp, OffsetPromoter &promoter) {
  auto type = dyn_cast<RankedTensorType>(cmp.getLhs().getType());
  if (!type)
    return false;
  OpBuilder b(cmp);
  Location loc = cmp.getLoc();
  auto side = [&](Value operand, Value &uniform, Value &varying) {
    if (Value narrow = comparedI32(operand)) {
      OffsetPromoter::Split parts = promoter.split(narrow, b);
      uniform = parts.uniform ? promoter.promote(parts.uniform) : Value();
      varying = parts.varying;
      return true;
    }
    uniform = uniformI64(operand);
    return bool(uniform);
  };
  Value ux, vx, uy, vy;
  if (!side(cmp.getLhs(), ux, vx) || !side(cmp.getRhs(), uy, vy) ||
      (!vx && !vy))
    return false;
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  RankedTensorType narrowType = type.clone(i32);
  auto zero = [&](Type t) {
    return promoter.record(arith::ConstantOp::create(b, loc, b.getZeroAttr(t)));
  };
  Value difference = vx;
  if (vy)
    difference = promoter.record(
        arith::SubIOp::create(b, loc, vx ? vx : zero(narrowType), vy));
  Range range = promoter.rangeOf(difference);
  constexpr int64_t kAlign = int64_t(1) << 16;
  int64_t lo = llvm::divideFloorSigned(range.lo - 1, kAlign) * kAlign;
  int64_t hi = llvm::divideCeilSigned(range.hi + 1, kAlign) * kAlign;
  if (range.mayWrap || lo < kI32Min || hi > kI32Max)
    return false; // what was built is erased with the dead expressions
  Value bound = uy ? uy : zero(i64);
  if (ux)
    bound = arith::SubIOp::create(b, loc, bound, ux);
  auto constant = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  bound = arith::MaxSIOp::create(b, loc, bound, constant(lo));
  bound = arith::MinSIOp::create(b, loc, bound, constant(hi));
  bound = arith::TruncIOp::create(b, loc, i32, bound);
  bound = tile::SplatOp::create(b, loc, narrowType, bound);
  Value narrow =
      arith::CmpIOp::create(b, loc, cmp.getPredicate(), difference, bound);
  cmp.getResult().replaceAllUsesWith(narrow);
  return true;
}

struct PromoteOffsetsPass
    : public mlir::terrazzo::impl::TerrazzoPromoteOffsetsBase<
          PromoteOffsetsPass> {
  using TerrazzoPromoteOffsetsBase::TerrazzoPromoteOffsetsBase;

  void runOnOperation() override {
    OffsetPromoter promoter;
    // Where an i32 offset expression becomes an address, or is compared to
    // make the mask of an access, it means the exact value: those uses get
    // the exact value where the expression may wrap. Other uses keep
    // Triton's i32 arithmetic (a causal mask in a hot loop stays i32).
    // Unless `all-pointers` says otherwise, only where some pointer may
    // address more than 2^31 bytes from its kernel argument
    // (tile.pointer_range): within that, the offsets of a correct program
    // do not wrap, as Triton assumes.
    auto needed = [&](ArrayRef<Value> pointers) {
      return allPointers ||
             !llvm::all_of(pointers, [](Value ptr) {
               return mlir::terrazzo::isInSmallPointerRange(ptr);
             });
    };
    SmallVector<Operation *> roots, dead;
    getOperation()->walk([&](Operation *op) {
      if (auto addptr = dyn_cast<tile::AddPtrOp>(op)) {
        if (isI32(addptr.getOffset()) && needed(addptr.getPtr()))
          roots.push_back(op);
      } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
        if (!comparedI32(cmp.getLhs()) && !comparedI32(cmp.getRhs()))
          return;
        DenseSet<Value> seen;
        SmallVector<Value> pointers;
        maskedPointers(cmp.getResult(), seen, pointers);
        if (!pointers.empty() && needed(pointers))
          roots.push_back(op);
      }
    });
    auto erase = [&](Operation *root) {
      for (Value operand : root->getOperands())
        if (Operation *def = operand.getDefiningOp())
          dead.push_back(def);
      root->erase();
    };
    for (Operation *op : roots) {
      promoter.setRoot(op);
      if (auto addptr = dyn_cast<tile::AddPtrOp>(op)) {
        if (!promoter.rangeOf(addptr.getOffset()).mayWrap)
          continue;
        // A block of offsets: one i64 base and i32 offsets in the block;
        // else (a scalar, or no uniform part) the offsets in i64.
        if (splitAddPtr(addptr, promoter))
          erase(addptr);
        else
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
      if (splitCompare(cmp, promoter)) {
        erase(cmp);
        continue;
      }
      // Compared in i64.
      Value wideLhs = lhs ? promoter.promote(lhs) : cmp.getLhs();
      Value wideRhs = rhs ? promoter.promote(rhs) : cmp.getRhs();
      OpBuilder b(cmp);
      Value wide =
          arith::CmpIOp::create(b, cmp.getLoc(), predicate, wideLhs, wideRhs);
      cmp.getResult().replaceAllUsesWith(wide);
      erase(cmp);
    }
    promoter.eraseDead(std::move(dead));
  }
};

} // namespace
