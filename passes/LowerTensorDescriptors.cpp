// terrazzo-lower-tensor-descriptors: see Passes.td.
#include "passes/Passes.h"
#include "passes/TmaDescriptors.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOLOWERTENSORDESCRIPTORS
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;

namespace {

/// The pointers to the elements of a descriptor's block at some indices,
/// and which of them lie inside the described tensor.
struct BlockAccess {
  Value pointers; // tensor<block x !tile.ptr<T>>
  Value mask;     // tensor<block x i1>
};

/// `value` (a tensor<n x T> holding dimension `dim` of a block of rank
/// `rank`) expanded to rank `rank` with size 1 in every other dimension and
/// broadcast to `blockShape`.
Value spreadAlong(OpBuilder &b, Location loc, Value value, int64_t dim,
                  ArrayRef<int64_t> blockShape) {
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  int64_t rank = blockShape.size();
  SmallVector<int64_t> shape{type.getShape()[0]};
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis == dim)
      continue;
    shape.insert(shape.begin() + axis, 1);
    value = tile::ExpandDimsOp::create(
        b, loc, RankedTensorType::get(shape, element), value, axis);
  }
  if (rank > 1)
    value = tile::BroadcastOp::create(
        b, loc, RankedTensorType::get(blockShape, element), value);
  return value;
}

Value splat(OpBuilder &b, Location loc, Value scalar, ArrayRef<int64_t> shape) {
  return tile::SplatOp::create(
      b, loc, RankedTensorType::get(shape, scalar.getType()), scalar);
}

/// Pointers and mask of the block of `desc` at `indices`:
///
///   start     = base + sum_d index_d * stride_d            (scalar, i64)
///   pointer   = start + sum_d r_d * stride_d, r_d in [0, block_d)
///   in bounds = and_d (-index_d <= r_d < shape_d - index_d)
///
/// The innermost stride is not multiplied when it is the constant 1, so
/// that AxisInfo sees consecutive addresses along the last dimension.
BlockAccess buildAccess(OpBuilder &b, Location loc, tile::MakeTensorDescOp desc,
                        ValueRange indices) {
  RankedTensorType block = desc.getType().getBlockType();
  ArrayRef<int64_t> blockShape = block.getShape();
  int64_t rank = block.getRank();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto strideIsOne = [&](int64_t dim) {
    return matchPattern(desc.getStrides()[dim], m_One());
  };

  Value startOffset;
  Value offsets, mask;
  for (int64_t dim = 0; dim < rank; ++dim) {
    Value index = indices[dim];
    Value stride = desc.getStrides()[dim];
    Value term = arith::ExtSIOp::create(b, loc, i64, index);
    if (!strideIsOne(dim))
      term = arith::MulIOp::create(b, loc, term, stride);
    startOffset =
        startOffset ? arith::AddIOp::create(b, loc, startOffset, term) : term;

    int64_t size = blockShape[dim];
    Value range = tile::MakeRangeOp::create(
        b, loc, RankedTensorType::get({size}, i32), 0, size);
    Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
    Value low = arith::SubIOp::create(b, loc, zero, index);
    Value high =
        arith::SubIOp::create(b, loc, desc.getShape()[dim], index);
    Value aboveLow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                           range, splat(b, loc, low, {size}));
    Value belowHigh = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, range, splat(b, loc, high, {size}));
    Value inBounds = arith::AndIOp::create(b, loc, aboveLow, belowHigh);

    Value step = arith::ExtSIOp::create(
        b, loc, RankedTensorType::get({size}, i64), range);
    if (!strideIsOne(dim))
      step = arith::MulIOp::create(b, loc, step,
                                   splat(b, loc, stride, {size}));

    step = spreadAlong(b, loc, step, dim, blockShape);
    inBounds = spreadAlong(b, loc, inBounds, dim, blockShape);
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, step) : step;
    mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds) : inBounds;
  }
  Value base = desc.getBase();
  Value start =
      tile::AddPtrOp::create(b, loc, base.getType(), base, startOffset);
  Value pointers = tile::AddPtrOp::create(
      b, loc, RankedTensorType::get(blockShape, base.getType()),
      splat(b, loc, start, blockShape), offsets);
  return {pointers, mask};
}

/// The make_tensor_desc a load or store reads its descriptor from, or an
/// error on `user`.
FailureOr<tile::MakeTensorDescOp> getDescriptor(Operation *user, Value desc) {
  if (auto make = desc.getDefiningOp<tile::MakeTensorDescOp>())
    return make;
  return user->emitOpError(
      "reads a tensor descriptor that does not come from a "
      "tile.make_tensor_desc in the same function (descriptors passed as "
      "arguments or through loops and branches cannot be lowered yet)");
}

struct LowerTensorDescriptorsPass
    : public mlir::terrazzo::impl::TerrazzoLowerTensorDescriptorsBase<
          LowerTensorDescriptorsPass> {
  using TerrazzoLowerTensorDescriptorsBase::TerrazzoLowerTensorDescriptorsBase;

  void runOnOperation() override {
    bool failedAny = false;
    // Descriptors left for the TMA lowering, decided before any rewrite
    // changes what AxisInfo sees.
    DenseSet<Operation *> kept;
    if (keepTma) {
      mlir::terrazzo::ModuleAxisInfoAnalysis axisInfo(getOperation());
      SmallVector<mlir::terrazzo::CheckedDescriptor> candidates;
      getOperation()->walk([&](tile::MakeTensorDescOp desc) {
        std::optional<SmallVector<mlir::terrazzo::TmaRuntimeCheck>> checks =
            mlir::terrazzo::getTmaRuntimeChecks(desc, axisInfo);
        if (!checks)
          return;
        if (!keepUnvalidated) {
          if (std::optional<mlir::terrazzo::TmaRuntimeCheck> extent =
                  mlir::terrazzo::getStoreExtentCheck(desc, axisInfo))
            checks->push_back(*extent);
          // A store at a coordinate that is an argument the launcher found
          // negative: pointers, no check that would always fail.
          for (tile::DescStoreOp store :
               mlir::terrazzo::getUnguardedStores(desc))
            for (Value index : store.getIndices())
              if (!mlir::terrazzo::isKnownNonNegative(index) &&
                  mlir::terrazzo::isSpecializedArgument(index))
                return;
        }
        if (checks->empty())
          kept.insert(desc);
        else
          candidates.push_back({desc, std::move(*checks)});
      });
      // Those whose alignment is known only at run time (a base or strides
      // loaded from memory): TMA where it holds, pointers where not.
      mlir::terrazzo::versionForTma(candidates, kept);
      // Stores at coordinates that may be negative: TMA where they are
      // not, pointers where they are.
      if (!keepUnvalidated) {
        SmallVector<tile::DescStoreOp> unguarded;
        getOperation()->walk([&](tile::MakeTensorDescOp desc) {
          if (kept.contains(desc))
            llvm::append_range(unguarded,
                               mlir::terrazzo::getUnguardedStores(desc));
        });
        mlir::terrazzo::guardStoreCoordinates(unguarded);
      }
    }
    SmallVector<Operation *> accesses;
    getOperation()->walk([&](Operation *op) {
      if (!isa<tile::DescLoadOp, tile::DescStoreOp>(op))
        return;
      if (Operation *desc = op->getOperand(0).getDefiningOp())
        if (kept.contains(desc))
          return;
      accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto load = dyn_cast<tile::DescLoadOp>(op)) {
        FailureOr<tile::MakeTensorDescOp> desc =
            getDescriptor(op, load.getDesc());
        if (failed(desc)) {
          failedAny = true;
          continue;
        }
        BlockAccess access = buildAccess(b, loc, *desc, load.getIndices());
        RankedTensorType type = load.getType();
        // Elements outside the tensor read as zero.
        Value zero = arith::ConstantOp::create(
            b, loc, type,
            DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
        Value value = tile::LoadOp::create(
            b, loc, type, access.pointers, access.mask, zero,
            load.getCacheAttr(), load.getEvictAttr(), /*isVolatile=*/false);
        load.replaceAllUsesWith(value);
        load.erase();
        continue;
      }
      auto store = cast<tile::DescStoreOp>(op);
      FailureOr<tile::MakeTensorDescOp> desc =
          getDescriptor(op, store.getDesc());
      if (failed(desc)) {
        failedAny = true;
        continue;
      }
      BlockAccess access = buildAccess(b, loc, *desc, store.getIndices());
      tile::StoreOp::create(b, loc, access.pointers, store.getSrc(),
                            access.mask, tile::CacheModifierAttr(),
                            tile::EvictionPolicyAttr());
      store.erase();
    }
    if (failedAny)
      return signalPassFailure();
    // The descriptors themselves are now unused, unless something else
    // (a loop, a call) carries them.
    getOperation()->walk([&](tile::MakeTensorDescOp make) {
      if (kept.contains(make))
        return;
      if (make->use_empty()) {
        make.erase();
        return;
      }
      Operation *user = *make->user_begin();
      user->emitOpError("uses a tensor descriptor in a way that cannot be "
                        "lowered yet (only tile.desc_load and tile.desc_store "
                        "can use one)");
      failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
