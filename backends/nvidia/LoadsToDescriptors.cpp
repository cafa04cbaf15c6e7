// terrazzo-loads-to-descriptors: see Passes.td.
//
// The proof, per load: the block's element offsets are
//   sum over dims d of scale_d * (u_d + i_d),   i_d in [0, block_d),
// with the innermost scale 1 (AffineBlock, built from make_range, splat,
// expand_dims, broadcast, addi and muli by uniform values, and from
// loop-carried pointers advanced by a uniform step each iteration); the
// mask is a conjunction of one bound per dimension, (v_d + i_d) < bound_d,
// possibly with (v_d + i_d) >= 0; then the load reads element
// (u_d + i_d)_d of the tensor at the base with row strides scale_d and
// extents bound_d + u_d - v_d, which must be loop-invariant (computed at the
// top of the kernel) and, like the strides, known not to be negative, and
// exactly the elements inside it: a descriptor load at coordinates u_d.
#include "dialects/TileGPU/IR/TileGPU.h"
#include "backends/nvidia/Passes.h"
#include "passes/TmaDescriptors.h"

#include "dialects/Tile/IR/Tile.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

#include <limits>

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOLOADSTODESCRIPTORS
#include "backends/nvidia/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// A scalar integer as a sum of values times constants plus a constant;
/// only additions, subtractions and products by constants are taken apart
/// (any other value is a term of its own), which is what lets the
/// per-iteration parts of a mask's bound and a pointer's offset cancel.
struct Linear {
  llvm::MapVector<Value, int64_t> terms;
  int64_t constant = 0;

  static Linear of(int64_t c) {
    Linear l;
    l.constant = c;
    return l;
  }
  static Linear term(Value v, int64_t c = 1) {
    Linear l;
    l.terms[v] = c;
    return l;
  }
  Linear &add(const Linear &other, int64_t times = 1) {
    constant += times * other.constant;
    for (auto [v, c] : other.terms) {
      int64_t sum = (terms.lookup(v) + times * c);
      if (sum)
        terms[v] = sum;
      else
        terms.erase(v);
    }
    return *this;
  }
  Linear scaled(int64_t c) const {
    Linear l;
    return l.add(*this, c);
  }
  bool isConstant() const { return terms.empty(); }
  bool operator==(const Linear &other) const {
    Linear diff = *this;
    diff.add(other, -1);
    return diff.isConstant() && diff.constant == 0;
  }
};

Linear linearOf(Value v, int depth = 0) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return Linear::of(c.getSExtValue());
  Operation *def = v.getDefiningOp();
  if (def && depth < 32) {
    if (isa<arith::ExtSIOp, arith::IndexCastOp>(def))
      return linearOf(def->getOperand(0), depth + 1);
    if (isa<arith::AddIOp>(def))
      return linearOf(def->getOperand(0), depth + 1)
          .add(linearOf(def->getOperand(1), depth + 1));
    if (isa<arith::SubIOp>(def))
      return linearOf(def->getOperand(0), depth + 1)
          .add(linearOf(def->getOperand(1), depth + 1), -1);
    if (isa<arith::MulIOp>(def)) {
      Linear a = linearOf(def->getOperand(0), depth + 1);
      Linear b = linearOf(def->getOperand(1), depth + 1);
      if (a.isConstant())
        return b.scaled(a.constant);
      if (b.isConstant())
        return a.scaled(b.constant);
    }
  }
  return Linear::term(v);
}

/// Multiplies two linear forms when one is a constant (a product of two
/// values is not kept apart).
std::optional<Linear> product(const Linear &a, const Linear &b) {
  if (a.isConstant())
    return b.scaled(a.constant);
  if (b.isConstant())
    return a.scaled(b.constant);
  return std::nullopt;
}

/// The element offsets (or indices) of a block: sum over dims of
/// scale_d * (u_d + i_d), plus a uniform part.
struct AffineBlock {
  struct Dim {
    Linear u, scale;
  };
  SmallVector<std::optional<Dim>> dims;
  Linear uniform;

  /// Adds `other` (of the same rank); fails where both have a part on one
  /// dim (i_d counted twice).
  LogicalResult add(const AffineBlock &other) {
    uniform.add(other.uniform);
    for (auto [dim, part] : llvm::zip_equal(dims, other.dims)) {
      if (!part)
        continue;
      if (dim)
        return failure();
      dim = part;
    }
    return success();
  }
};

/// The uniform scalar a tensor splats, through broadcasts.
std::optional<Linear> uniformOf(Value v) {
  if (auto b = v.getDefiningOp<tile::BroadcastOp>())
    return uniformOf(b.getSrc());
  if (auto s = v.getDefiningOp<tile::SplatOp>())
    return linearOf(s.getSrc());
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat() &&
      dense.getElementType().isInteger())
    return Linear::of(dense.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

std::optional<AffineBlock> affineOf(Value v, int depth = 0) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || depth > 32)
    return std::nullopt;
  unsigned rank = type.getRank();
  if (std::optional<Linear> u = uniformOf(v)) {
    AffineBlock block;
    block.dims.resize(rank);
    block.uniform = *u;
    return block;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto range = dyn_cast<tile::MakeRangeOp>(def)) {
    AffineBlock block;
    block.dims.push_back(
        AffineBlock::Dim{Linear::of(range.getStart()), Linear::of(1)});
    return block;
  }
  if (isa<arith::ExtSIOp>(def))
    return affineOf(def->getOperand(0), depth + 1);
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(def)) {
    std::optional<AffineBlock> src = affineOf(expand.getSrc(), depth + 1);
    if (!src)
      return std::nullopt;
    src->dims.insert(src->dims.begin() + expand.getAxis(), std::nullopt);
    return src;
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(def)) {
    // Parts stay on the dims of size > 1 (a part on a dim of size 1 is
    // its uniform value: u_d + 0).
    std::optional<AffineBlock> src = affineOf(broadcast.getSrc(), depth + 1);
    if (!src)
      return std::nullopt;
    auto srcType = cast<RankedTensorType>(broadcast.getSrc().getType());
    for (unsigned d = 0; d < rank; ++d)
      if (src->dims[d] && srcType.getShape()[d] == 1 &&
          type.getShape()[d] != 1) {
        std::optional<Linear> offset =
            product(src->dims[d]->scale, src->dims[d]->u);
        if (!offset)
          return std::nullopt;
        src->uniform.add(*offset);
        src->dims[d].reset();
      }
    return src;
  }
  if (isa<arith::AddIOp>(def)) {
    std::optional<AffineBlock> a = affineOf(def->getOperand(0), depth + 1);
    std::optional<AffineBlock> b = affineOf(def->getOperand(1), depth + 1);
    if (!a || !b || failed(a->add(*b)))
      return std::nullopt;
    // An index along one dim (pid * BM + arange): the uniform part is the
    // dim's offset.
    std::optional<AffineBlock::Dim> *only = nullptr;
    for (std::optional<AffineBlock::Dim> &dim : a->dims)
      if (dim) {
        if (only)
          return a;
        only = &dim;
      }
    if (only && (*only)->scale.isConstant() && (*only)->scale.constant == 1) {
      (*only)->u.add(a->uniform);
      a->uniform = Linear::of(0);
    }
    return a;
  }
  if (isa<arith::MulIOp>(def)) {
    std::optional<AffineBlock> a = affineOf(def->getOperand(0), depth + 1);
    std::optional<Linear> s = uniformOf(def->getOperand(1));
    if (!s) {
      a = affineOf(def->getOperand(1), depth + 1);
      s = uniformOf(def->getOperand(0));
    }
    if (!a || !s)
      return std::nullopt;
    std::optional<Linear> uniform = product(a->uniform, *s);
    if (!uniform)
      return std::nullopt;
    a->uniform = *uniform;
    for (std::optional<AffineBlock::Dim> &dim : a->dims)
      if (dim) {
        std::optional<Linear> scale = product(dim->scale, *s);
        if (!scale)
          return std::nullopt;
        dim->scale = *scale;
      }
    return a;
  }
  return std::nullopt;
}

/// A pointer block: a scalar base plus an AffineBlock of element offsets.
struct PointerBlock {
  Value base;
  AffineBlock offsets;
};

std::optional<PointerBlock> pointerOf(Value v, int depth = 0) {
  if (depth > 32)
    return std::nullopt;
  auto type = cast<RankedTensorType>(v.getType());
  unsigned rank = type.getRank();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // Carried by a loop from 0 in steps of 1, advanced by a uniform offset:
    // the offsets of the iteration add iv times the advance, to the dim
    // whose scale it is a multiple of.
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0 ||
        !matchPattern(loop.getLowerBound(), m_Zero()) ||
        !matchPattern(loop.getStep(), m_One()))
      return std::nullopt;
    unsigned index = arg.getArgNumber() - 1;
    auto advance = loop.getBody()
                       ->getTerminator()
                       ->getOperand(index)
                       .getDefiningOp<tile::AddPtrOp>();
    if (!advance || advance.getPtr() != arg)
      return std::nullopt;
    std::optional<PointerBlock> init =
        pointerOf(loop.getInitArgs()[index], depth + 1);
    std::optional<Linear> step = uniformOf(advance.getOffset());
    if (!init || !step || !init->offsets.dims[rank - 1])
      return std::nullopt;
    Value iv = loop.getInductionVar();
    for (unsigned d = 0; d < rank; ++d) {
      std::optional<AffineBlock::Dim> &dim = init->offsets.dims[d];
      if (!dim)
        continue;
      // step = c * scale_d: u_d advances by c.
      if (dim->scale.isConstant() && dim->scale.constant == 1 &&
          step->isConstant()) {
        dim->u.add(Linear::term(iv, step->constant));
        return init;
      }
      if (dim->scale.terms.size() == 1 && dim->scale.constant == 0 &&
          step->terms.size() == 1 && step->constant == 0) {
        auto [sv, sc] = *dim->scale.terms.begin();
        auto [tv, tc] = *step->terms.begin();
        if (sv == tv && tc % sc == 0) {
          dim->u.add(Linear::term(iv, tc / sc));
          return init;
        }
      }
    }
    return std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto splat = dyn_cast<tile::SplatOp>(def)) {
    PointerBlock block{splat.getSrc(), {}};
    block.offsets.dims.resize(rank);
    return block;
  }
  if (auto add = dyn_cast<tile::AddPtrOp>(def)) {
    std::optional<PointerBlock> ptr = pointerOf(add.getPtr(), depth + 1);
    std::optional<AffineBlock> off = affineOf(add.getOffset(), depth + 1);
    if (!ptr || !off || failed(ptr->offsets.add(*off)))
      return std::nullopt;
    return ptr;
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(def)) {
    std::optional<PointerBlock> src = pointerOf(expand.getSrc(), depth + 1);
    if (!src)
      return std::nullopt;
    src->offsets.dims.insert(src->offsets.dims.begin() + expand.getAxis(),
                             std::nullopt);
    return src;
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(def)) {
    std::optional<PointerBlock> src = pointerOf(broadcast.getSrc(), depth + 1);
    auto srcType = cast<RankedTensorType>(broadcast.getSrc().getType());
    if (!src)
      return std::nullopt;
    for (unsigned d = 0; d < rank; ++d)
      if (src->offsets.dims[d] && srcType.getShape()[d] == 1 &&
          type.getShape()[d] != 1)
        return std::nullopt;
    return src;
  }
  return std::nullopt;
}

/// One bound of the mask on one dim: (v + i_d) < bound, or (v + i_d) >= 0
/// when `lower`.
struct Bound {
  unsigned dim;
  Linear v, bound;
  bool lower;
};

/// The conjunction `mask` as bounds, each on one dim, or failure.
LogicalResult boundsOf(Value mask, SmallVectorImpl<Bound> &bounds,
                       int depth = 0) {
  if (depth > 32)
    return failure();
  Operation *def = mask.getDefiningOp();
  if (!def)
    return failure();
  if (isa<tile::BroadcastOp>(def))
    return boundsOf(def->getOperand(0), bounds, depth + 1);
  if (isa<arith::AndIOp>(def))
    return success(
        succeeded(boundsOf(def->getOperand(0), bounds, depth + 1)) &&
        succeeded(boundsOf(def->getOperand(1), bounds, depth + 1)));
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return failure();
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  arith::CmpIPredicate pred = cmp.getPredicate();
  if (pred == arith::CmpIPredicate::sgt || pred == arith::CmpIPredicate::sle) {
    std::swap(lhs, rhs);
    pred = pred == arith::CmpIPredicate::sgt ? arith::CmpIPredicate::slt
                                             : arith::CmpIPredicate::sge;
  }
  if (pred != arith::CmpIPredicate::slt && pred != arith::CmpIPredicate::sge)
    return failure();
  std::optional<AffineBlock> index = affineOf(lhs);
  std::optional<Linear> limit = uniformOf(rhs);
  if (!index || !limit)
    return failure();
  std::optional<unsigned> dim;
  for (unsigned d = 0; d < index->dims.size(); ++d)
    if (index->dims[d]) {
      if (dim)
        return failure();
      dim = d;
    }
  if (!dim)
    return failure();
  const AffineBlock::Dim &part = *index->dims[*dim];
  if (!part.scale.isConstant() || part.scale.constant != 1)
    return failure();
  Linear v = part.u;
  v.add(index->uniform);
  bounds.push_back({*dim, v, *limit, pred == arith::CmpIPredicate::sge});
  return success();
}

/// Whether `value` is usable at the top of the kernel: an argument or a
/// value of the entry block defined before `point`.
bool availableAtTop(Value value, Operation *point) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == point->getBlock();
  Operation *def = value.getDefiningOp();
  return def->getBlock() == point->getBlock() && def->isBeforeInBlock(point);
}

Value materialize(OpBuilder &b, Location loc, const Linear &l, Type type) {
  auto cast = [&](Value v) -> Value {
    unsigned from = v.getType().getIntOrFloatBitWidth();
    unsigned to = type.getIntOrFloatBitWidth();
    if (from < to)
      return arith::ExtSIOp::create(b, loc, type, v);
    if (from > to)
      return arith::TruncIOp::create(b, loc, type, v);
    return v;
  };
  Value sum = arith::ConstantOp::create(b, loc, type,
                                        b.getIntegerAttr(type, l.constant));
  for (auto [v, c] : l.terms) {
    Value term = cast(v);
    if (c != 1)
      term = arith::MulIOp::create(
          b, loc, term,
          arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, c)));
    sum = arith::AddIOp::create(b, loc, sum, term);
  }
  return sum;
}

/// Whether the loaded block only feeds dot operands in its loop (where a
/// pipelined TMA copy pays off), through transpositions, as buffers the
/// pipeliner can stage: wgmma reads 8- and 32-bit operands only with K
/// contiguous (K-major), so a block of those whose rows run along M or N
/// goes through registers to be transposed, and keeps its load. A block
/// `readTransposed` is stored with its first dim contiguous.
bool feedsDotsInLoop(tile::LoadOp load, bool readTransposed) {
  if (!load->getParentOfType<scf::ForOp>())
    return false;
  auto type = cast<RankedTensorType>(load.getType());
  bool anyMajor = tile::getElementBitWidth(type.getElementType()) == 16;
  SmallVector<std::pair<Value, bool>> worklist{
      {load.getResult(), readTransposed}};
  while (!worklist.empty()) {
    auto [v, transposed] = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tile::DotOp>(user) && use.getOperandNumber() < 2) {
        // K is dim 1 of A and dim 0 of B; the block's rows run along its
        // last dim, before any transposition.
        bool kMajor = (use.getOperandNumber() == 0) != transposed;
        if (!anyMajor && !kMajor)
          return false;
        continue;
      }
      if (isa<tile::TransOp>(user) && type.getRank() == 2) {
        worklist.push_back({user->getResult(0), !transposed});
        continue;
      }
      return false;
    }
  }
  return true;
}

struct Conversion {
  tile::LoadOp load;
  tile::MakeTensorDescOp desc;
  tile::DescLoadOp descLoad;
  /// What replaces the load: the descriptor load, maybe transposed.
  Value result;
};

struct LoadsToDescriptorsPass
    : public mlir::terrazzo::impl::TerrazzoLoadsToDescriptorsBase<
          LoadsToDescriptorsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Conversion> conversions;
    module.walk([&](tile::LoadOp load) {
      if (std::optional<Conversion> c = convert(load))
        conversions.push_back(*c);
    });
    if (conversions.empty())
      return;
    // Kept only where TMA will serve them (else the descriptor would be
    // lowered back to pointers, in a form no better than the load's).
    ModuleAxisInfoAnalysis axisInfo(module);
    for (Conversion &c : conversions) {
      if (canLowerToTma(c.desc, axisInfo) && isTmaValidated(c.desc, axisInfo)) {
        c.load.replaceAllUsesWith(c.result);
        c.load.erase();
      } else {
        if (Operation *trans = c.result.getDefiningOp<tile::TransOp>())
          trans->erase();
        c.descLoad.erase();
        c.desc.erase();
      }
    }
  }

  std::optional<Conversion> convert(tile::LoadOp load) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || load.getIsVolatile())
      return std::nullopt;
    if (Value other = load.getOther())
      if (!matchPattern(other, m_Zero()) &&
          !matchPattern(other, m_PosZeroFloat()))
        return std::nullopt;
    unsigned rank = type.getRank();
    std::optional<PointerBlock> ptr = pointerOf(load.getPtr());
    SmallVector<Bound> bounds;
    if (!ptr ||
        (load.getMask() && failed(boundsOf(load.getMask(), bounds))))
      return std::nullopt;
    // The uniform part of the offsets goes to the innermost coordinate
    // (scale 1: the last dim, or for a 2-D block read transposed, the
    // first); every dim has a part.
    AffineBlock &offsets = ptr->offsets;
    for (std::optional<AffineBlock::Dim> &dim : offsets.dims)
      if (!dim)
        return std::nullopt;
    auto unitScale = [&](unsigned d) {
      return offsets.dims[d]->scale.isConstant() &&
             offsets.dims[d]->scale.constant == 1;
    };
    unsigned innerDim = rank - 1;
    if (!unitScale(innerDim)) {
      if (rank != 2 || !unitScale(0))
        return std::nullopt;
      innerDim = 0;
    }
    if (!feedsDotsInLoop(load, /*readTransposed=*/innerDim != rank - 1))
      return std::nullopt;
    AffineBlock::Dim &inner = *offsets.dims[innerDim];
    inner.u.add(offsets.uniform);
    // One upper bound per dim, the same index as the pointer's: the extent
    // is bound + u - v; a lower bound must be at coordinate 0 exactly, or
    // the coordinate known not to be negative (TMA reads zeros before 0).
    SmallVector<std::optional<Linear>> extents(rank);
    SmallVector<bool> lowerBounded(rank, false);
    for (const Bound &bound : bounds) {
      Linear shift = offsets.dims[bound.dim]->u;
      shift.add(bound.v, -1);
      if (bound.lower) {
        Linear at = bound.bound;
        at.add(shift);
        if (!(at == Linear::of(0)))
          return std::nullopt;
        lowerBounded[bound.dim] = true;
        continue;
      }
      if (extents[bound.dim])
        return std::nullopt;
      Linear extent = bound.bound;
      extent.add(shift);
      extents[bound.dim] = extent;
    }
    // Without a mask the load promises that every element it reads exists:
    // an innermost coordinate that is a constant gives the innermost extent
    // (the box reaches no further), and the other extents are unbounded
    // (the largest a tensor map takes), so that TMA reads exactly what the
    // pointers would.
    if (!load.getMask()) {
      if (!inner.u.isConstant() || inner.u.constant < 0)
        return std::nullopt;
      for (unsigned d = 0; d < rank; ++d)
        extents[d] = Linear::of(
            d == innerDim ? inner.u.constant + type.getShape()[d]
                          : int64_t(std::numeric_limits<int32_t>::max()));
    }
    auto func = load->getParentOfType<func::FuncOp>();
    Operation *top = load;
    while (top->getParentOp() != func)
      top = top->getParentOp();
    for (unsigned d = 0; d < rank; ++d) {
      if (!extents[d])
        return std::nullopt;
      for (auto [v, c] : extents[d]->terms)
        if (!availableAtTop(v, top))
          return std::nullopt;
      if (d != innerDim)
        for (auto [v, c] : offsets.dims[d]->scale.terms)
          if (!availableAtTop(v, top))
            return std::nullopt;
    }
    if (!availableAtTop(ptr->base, top))
      return std::nullopt;

    // The descriptor's dims: the block's, with the innermost last (a block
    // read transposed is loaded as stored, then transposed back).
    SmallVector<unsigned> dims;
    for (unsigned d = 0; d < rank; ++d)
      if (d != innerDim)
        dims.push_back(d);
    dims.push_back(innerDim);
    const bool transposed = innerDim != rank - 1;

    OpBuilder b(top);
    Location loc = load.getLoc();
    SmallVector<Value> shape, strides;
    SmallVector<int64_t> boxShape;
    for (unsigned d : dims) {
      boxShape.push_back(type.getShape()[d]);
      shape.push_back(materialize(b, loc, *extents[d], b.getI32Type()));
      strides.push_back(d != innerDim ? materialize(b, loc,
                                                    offsets.dims[d]->scale,
                                                    b.getI64Type())
                                      : arith::ConstantOp::create(
                                            b, loc, b.getI64Type(),
                                            b.getI64IntegerAttr(1)));
    }
    // A tensor map holds unsigned extents and positive strides: a negative
    // one (rows read backwards, an empty K) would make TMA read elsewhere
    // than the load. Kernel arguments are known not to be negative when
    // the launch specialised them so.
    if (!llvm::all_of(llvm::concat<Value>(shape, strides),
                      [](Value v) { return isKnownNonNegative(v); })) {
      // The arithmetic left is dead (canonicalized away).
      return std::nullopt;
    }
    auto boxType = RankedTensorType::get(boxShape, type.getElementType());
    auto descType = tile::TensorDescType::get(load.getContext(), boxType);
    auto desc = tile::MakeTensorDescOp::create(b, loc, descType, ptr->base,
                                               shape, strides);
    OpBuilder lb(load);
    SmallVector<Value> coords;
    for (unsigned d : dims)
      coords.push_back(
          materialize(lb, loc, offsets.dims[d]->u, lb.getI32Type()));
    // TMA reads zeros at negative coordinates, the load real memory: the
    // coordinates must be bounded below at 0 by the mask or known not to be
    // negative.
    for (auto [d, coord] : llvm::zip_equal(dims, coords))
      if (!lowerBounded[d] && !isKnownNonNegative(coord)) {
        desc.erase(); // the arithmetic left is dead (canonicalized away)
        return std::nullopt;
      }
    auto descLoad = tile::DescLoadOp::create(lb, loc, boxType, desc, coords,
                                             load.getCacheAttr(),
                                             load.getEvictAttr());
    Value result = descLoad.getResult();
    if (transposed)
      result = tile::TransOp::create(lb, loc, type, result,
                                     lb.getDenseI32ArrayAttr({1, 0}));
    return Conversion{load, desc, descLoad, result};
  }
};

} // namespace
