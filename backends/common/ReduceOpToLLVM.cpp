// tile.reduce, generic over linear layouts: each thread first combines the
// registers that differ only along the axis, then lanes combine with
// butterfly shuffles for the lane bits that move along the axis, then, when
// warps hold different parts of the axis, each warp's partials go through
// the module's shared-memory scratch and every thread combines them. The
// combine step is the op's region, cloned with its block arguments mapped
// to the accumulators and the new values; the same conversion lowers the
// cloned scalar ops.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {


/// How the bits of a hardware dimension of the source layout relate to the
/// axis.
enum class BitKind { Broadcast, Axis, Other, Mixed };

BitKind classify(const std::vector<int32_t> &basis, unsigned axis) {
  bool alongAxis = basis[axis] != 0;
  bool elsewhere = false;
  for (unsigned d = 0; d < basis.size(); ++d)
    elsewhere |= d != axis && basis[d] != 0;
  if (alongAxis && elsewhere)
    return BitKind::Mixed;
  return alongAxis   ? BitKind::Axis
         : elsewhere ? BitKind::Other
                     : BitKind::Broadcast;
}

/// The plan of a reduction, computed from the source layout alone.
struct ReducePlan {
  /// Registers grouped by their coordinates with the axis coordinate
  /// zeroed; the key is those coordinates.
  std::map<Coordinates, SmallVector<int32_t>> groups;
  /// Lane bits whose bases move along the axis only: one butterfly each.
  SmallVector<unsigned> laneBits;
  /// Warp bits whose bases move along the axis only.
  SmallVector<unsigned> warpBits;
};

FailureOr<ReducePlan> planReduce(const LinearLayout &layout, unsigned axis) {
  ReducePlan plan;
  for (int32_t reg = 0, e = layout.getInDimSize(kRegister); reg < e; ++reg) {
    Coordinates key = registerCoordinates(layout, reg);
    key[axis] = 0;
    plan.groups[key].push_back(reg);
  }
  for (const char *name : {kLane, kWarp, kBlock}) {
    if (!layout.hasInDim(name))
      continue;
    for (int i = 0, e = layout.getInDimSizeLog2(name); i < e; ++i) {
      BitKind kind = classify(layout.getBasis(name, i), axis);
      if (kind == BitKind::Mixed)
        return failure();
      if (kind != BitKind::Axis)
        continue;
      if (StringRef(name) == kLane)
        plan.laneBits.push_back(i);
      else if (StringRef(name) == kWarp)
        plan.warpBits.push_back(i);
      else
        return failure(); // across program instances
    }
  }
  return plan;
}

/// The source layout and plan of `op`'s reduction, or failure with a reason.
FailureOr<std::pair<LinearLayout, ReducePlan>> analyse(tile::ReduceOp op,
                                                       std::string &reason) {
  std::optional<LinearLayout> layout = getCommonLayout(op.getSrcs(), reason);
  if (!layout)
    return failure();
  FailureOr<ReducePlan> plan = planReduce(*layout, op.getAxis());
  if (failed(plan)) {
    reason = "the layout of the sources spreads the axis over threads in a "
             "way this backend cannot reduce yet";
    return failure();
  }
  return std::make_pair(std::move(*layout), std::move(*plan));
}

/// Bytes of scratch for source `type`'s partials: one per output element
/// and warp along the axis, each source's area aligned to 8 bytes.
int64_t scratchAreaBytes(RankedTensorType type, unsigned axis,
                         int64_t warpsAlongAxis) {
  int64_t outputs = type.getNumElements() / type.getShape()[axis];
  int64_t bytes =
      outputs * warpsAlongAxis * scratchElementBytes(type.getElementType());
  return (bytes + 7) / 8 * 8;
}

/// Whether `op` combines with one operation whose result does not depend on
/// the order its operands are combined in: integer add, mul, and, or, xor,
/// min and max, and floating-point min and max (which may only differ in
/// the sign of a zero result). Floating-point sums are not (their rounding
/// depends on the order), nor are multi-operand reductions (argmax).
bool isOrderFree(tile::ReduceOp op) {
  Block &body = op.getCombineOp().front();
  if (op.getSrcs().size() != 1 || !llvm::hasSingleElement(body.without_terminator()))
    return false;
  Operation &combiner = body.front();
  return combiner.getNumOperands() == 2 &&
         combiner.getOperand(0) == body.getArgument(0) &&
         combiner.getOperand(1) == body.getArgument(1) &&
         body.getTerminator()->getOperand(0) == combiner.getResult(0) &&
         isa<arith::AddIOp, arith::MulIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
             arith::MinUIOp, arith::MaxNumFOp, arith::MinNumFOp,
             arith::MaximumFOp, arith::MinimumFOp>(combiner);
}

struct ReduceOpConversion : public TargetPattern<tile::ReduceOp> {
  using TargetPattern<tile::ReduceOp>::TargetPattern;

  /// The region applied to `acc` and `values`, cloned at the insertion
  /// point.
  SmallVector<Value> combine(tile::ReduceOp op, ValueRange acc,
                             ValueRange values,
                             ConversionPatternRewriter &rewriter) const {
    Block &body = op.getCombineOp().front();
    IRMapping mapping;
    unsigned n = acc.size();
    for (unsigned i = 0; i < n; ++i) {
      mapping.map(body.getArgument(i), acc[i]);
      mapping.map(body.getArgument(n + i), values[i]);
    }
    for (Operation &inner : body.without_terminator())
      rewriter.clone(inner, mapping);
    SmallVector<Value> results;
    for (Value result : body.getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(result));
    return results;
  }

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string reason;
    auto analysis = analyse(op, reason);
    if (failed(analysis))
      return op.emitOpError(reason);
    auto &[layout, plan] = *analysis;
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    unsigned n = op.getSrcs().size();
    unsigned warpSize = tilegpu::getThreadsPerWarp(op);

    SmallVector<SmallVector<Value>> sources;
    for (Value src : adaptor.getSrcs())
      sources.push_back(unpackStruct(rewriter, loc, src));

    // 1. In each thread: one accumulator (N values) per group, combined in
    // register order, or as a balanced tree when the order cannot change
    // the result (a row max over a wgmma fragment: 4 dependent steps for
    // 16 registers instead of 15).
    const bool tree = isOrderFree(op);
    std::map<Coordinates, SmallVector<Value>> acc;
    for (auto &[key, registers] : plan.groups) {
      SmallVector<SmallVector<Value>> values;
      for (int32_t reg : registers) {
        SmallVector<Value> value;
        for (unsigned s = 0; s < n; ++s)
          value.push_back(sources[s][reg]);
        values.push_back(std::move(value));
      }
      if (tree) {
        while (values.size() > 1) {
          SmallVector<SmallVector<Value>> next;
          for (size_t i = 0; i + 1 < values.size(); i += 2)
            next.push_back(combine(op, values[i], values[i + 1], rewriter));
          if (values.size() % 2)
            next.push_back(values.back());
          values = std::move(next);
        }
      } else {
        for (size_t i = 1; i < values.size(); ++i)
          values.front() = combine(op, values.front(), values[i], rewriter);
      }
      acc[key] = values.front();
    }

    // 2. Across lanes: butterflies over the lane bits along the axis.
    for (unsigned bit : plan.laneBits)
      for (auto &[key, value] : acc) {
        SmallVector<Value> other;
        for (Value v : value)
          other.push_back(shuffleScalar(rewriter, loc, v, [&](Value word) {
            return target.shuffleXor(rewriter, loc, word, 1u << bit, warpSize);
          }));
        value = combine(op, value, other, rewriter);
      }

    // 3. Across warps, through shared memory.
    if (!plan.warpBits.empty()) {
      Value scratch = getScratchPointer(rewriter, loc, op);
      if (!scratch)
        return failure();
      int64_t warpsAlongAxis = int64_t(1) << plan.warpBits.size();
      ThreadPosition thread =
          getThreadPosition(rewriter, loc, target, warpSize);
      // This warp's index among the warps along the axis.
      Value warpIndex = i32Constant(rewriter, loc, 0);
      for (auto [j, bit] : llvm::enumerate(plan.warpBits)) {
        Value b = LLVM::AndOp::create(
            rewriter, loc,
            LLVM::LShrOp::create(rewriter, loc, thread.warp,
                                 i32Constant(rewriter, loc, bit)),
            i32Constant(rewriter, loc, 1));
        warpIndex = LLVM::OrOp::create(
            rewriter, loc, warpIndex,
            LLVM::ShlOp::create(rewriter, loc, b,
                                i32Constant(rewriter, loc, j)));
      }
      // Row-major index of each group's output element (the axis dropped).
      auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
      ArrayRef<int64_t> shape = srcType.getShape();
      auto indices = emitIndices(rewriter, loc, layout, thread);
      std::map<Coordinates, Value> outputIndex;
      for (auto &[key, registers] : plan.groups) {
        auto &coords = indices[registers.front()];
        Value index = i32Constant(rewriter, loc, 0);
        for (unsigned d = 0; d < shape.size(); ++d) {
          if (d == axis)
            continue;
          index = LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, index,
                                  i32Constant(rewriter, loc, shape[d])),
              coords[d]);
        }
        outputIndex[key] = LLVM::MulOp::create(
            rewriter, loc, index, i32Constant(rewriter, loc, warpsAlongAxis));
      }
      SmallVector<Type> elementTypes, tileElementTypes;
      SmallVector<int64_t> areaBytes;
      for (Value src : op.getSrcs()) {
        auto type = cast<RankedTensorType>(src.getType());
        tileElementTypes.push_back(type.getElementType());
        elementTypes.push_back(
            getTypeConverter()->convertType(type.getElementType()));
        areaBytes.push_back(scratchAreaBytes(type, axis, warpsAlongAxis));
      }
      ScratchSlots slots(rewriter, loc, scratch, elementTypes,
                         tileElementTypes, areaBytes);
      // No barrier first: terrazzo-insert-barriers puts one in front of
      // the op when an earlier access to this scratch may still be in
      // flight.
      for (auto &[key, value] : acc) {
        Value index =
            LLVM::AddOp::create(rewriter, loc, outputIndex[key], warpIndex);
        slots.store(rewriter, loc, index, value);
      }
      target.barrier(rewriter, loc);
      for (auto &[key, value] : acc) {
        SmallVector<Value> total;
        for (int64_t w = 0; w < warpsAlongAxis; ++w) {
          Value index = LLVM::AddOp::create(rewriter, loc, outputIndex[key],
                                            i32Constant(rewriter, loc, w));
          SmallVector<Value> partial = slots.load(rewriter, loc, index);
          total = w == 0 ? partial : combine(op, total, partial, rewriter);
        }
        value = total;
      }
    }

    // 4. The results: each register of the result layout takes the value of
    // its coordinates.
    SmallVector<Value> results;
    if (shapeRank(op) == 1) {
      if (acc.size() != 1)
        return op.emitOpError("internal error: a 1-D reduction left ")
               << acc.size() << " partial results in a thread";
      // The totals, the same in every lane of every warp.
      for (Value total : acc.begin()->second)
        results.push_back(target.warpUniform(rewriter, loc, total, warpSize));
    } else {
      auto resultType =
          cast<RankedTensorType>(op.getResult().front().getType());
      std::optional<LinearLayout> resultLayout = getLinearLayout(resultType);
      if (!resultLayout)
        return op.emitOpError("results have no layout");
      // The result's threads must hold what the source's threads hold.
      for (const char *name : {kLane, kWarp, kBlock}) {
        if (!layout.hasInDim(name))
          continue;
        for (int i = 0, e = layout.getInDimSizeLog2(name); i < e; ++i) {
          Coordinates basis = layout.getBasis(name, i);
          basis.erase(basis.begin() + axis);
          Coordinates resultBasis =
              resultLayout->hasInDim(name) &&
                      i < resultLayout->getInDimSizeLog2(name)
                  ? resultLayout->getBasis(name, i)
                  : Coordinates(basis.size(), 0);
          if (basis != resultBasis)
            return op.emitOpError("results are not laid out as the slice of "
                                  "the sources' layout along the axis");
        }
      }
      SmallVector<SmallVector<Value>> perSource(n);
      for (int32_t reg = 0, e = resultLayout->getInDimSize(kRegister); reg < e;
           ++reg) {
        Coordinates key = registerCoordinates(*resultLayout, reg);
        key.insert(key.begin() + axis, 0);
        auto it = acc.find(key);
        if (it == acc.end())
          return op.emitOpError("internal error: no partial result for a "
                                "register of the result");
        for (unsigned s = 0; s < n; ++s)
          perSource[s].push_back(it->second[s]);
      }
      for (unsigned s = 0; s < n; ++s)
        results.push_back(packStruct(
            rewriter, loc,
            getTypeConverter()->convertType(op.getResult()[s].getType()),
            perSource[s]));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  static unsigned shapeRank(tile::ReduceOp op) {
    return cast<RankedTensorType>(op.getSrcs().front().getType()).getRank();
  }
};

} // namespace

void mlir::terrazzo::populateReduceOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<ReduceOpConversion>(converter, target);
}

int64_t mlir::terrazzo::getReduceScratchBytes(Operation *op) {
  auto reduce = dyn_cast<tile::ReduceOp>(op);
  if (!reduce)
    return 0;
  std::string reason;
  auto analysis = analyse(reduce, reason);
  if (failed(analysis) || analysis->second.warpBits.empty())
    return 0;
  int64_t warpsAlongAxis = int64_t(1) << analysis->second.warpBits.size();
  int64_t bytes = 0;
  for (Value src : reduce.getSrcs())
    bytes += scratchAreaBytes(cast<RankedTensorType>(src.getType()),
                              reduce.getAxis(), warpsAlongAxis);
  return bytes;
}
