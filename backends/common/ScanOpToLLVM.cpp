// tile.scan, generic over linear layouts.
//
// The hardware bits (register, lane, warp) of the source layout that move
// along the axis each move by a distinct power of two; sorted by that step
// they form the binary digits of an element's position along the axis (its
// "order index"; a reverse scan counts from the other end, which flips every
// digit). Consecutive digits held by the same kind of hardware bit form a
// *run*. The scan goes through the runs from the lowest digit up, keeping
// for every element
//
//   S: the combination, in order, of the elements of its aligned block (the
//      elements that agree with it on all higher digits) up to and including
//      itself, and
//   T: the total of that block (the same for all its elements, so kept once
//      per group of registers that differ only in the digits processed),
//
// and each run turns the blocks of its level into blocks of the next: the
// new S of an element is the (exclusive) prefix of the totals of the
// sub-blocks before its own, combined with its S. A run of registers does
// this sequentially in each thread; a run of lanes with a Hillis-Steele scan
// over warp shuffles from computed source lanes; a run of warps through the
// module's shared-memory scratch (each warp's totals stored, a barrier, every
// thread combines the totals of the warps before its own). For the default
// blocked layouts this is the usual order: registers in a thread, then
// lanes, then warps, then the repetitions of the layout over a larger block
// (a run of registers above the warps).
//
// Elements held more than once (broadcast register, lane or warp bits) are
// scanned by each of their holders alike. The combine step is the op's
// region, cloned with its block arguments mapped to the accumulators (the
// earlier part of the axis) and the new values; the same conversion lowers
// the cloned scalar ops.
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <vector>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// select(condition, a, b) for the scan's carries. 16-bit floats are
/// selected as 32-bit words: ptxas (CUDA 13, sm_90a, -O1 and up) turned the
/// selp.b16 of float16/bfloat16 scan carries into wrong values (measured on
/// an H100: a 256x16 float16 cumsum at 4 warps had ~2200 wrong elements
/// with selp.b16, none at -O0 and none with the selects widened to
/// selp.b32; int16 and float32 were right either way). The target's word
/// select keeps LLVM from narrowing it back to 16 bits.
Value selectScanValue(RewriterBase &rewriter, Location loc,
                      const TargetInfo &target, Value condition, Value a,
                      Value b) {
  Type type = a.getType();
  if (!isa<FloatType>(type) || type.getIntOrFloatBitWidth() != 16)
    return LLVM::SelectOp::create(rewriter, loc, condition, a, b);
  Type i16 = rewriter.getI16Type(), i32 = rewriter.getI32Type();
  auto widen = [&](Value v) -> Value {
    Value bits = LLVM::BitcastOp::create(rewriter, loc, i16, v);
    return LLVM::ZExtOp::create(rewriter, loc, i32, bits);
  };
  Value word = target.selectWord(rewriter, loc, condition, widen(a), widen(b));
  return LLVM::BitcastOp::create(
      rewriter, loc, type, LLVM::TruncOp::create(rewriter, loc, i16, word));
}

enum class Level { Register, Lane, Warp };

/// Consecutive digits of the position along the axis that one kind of
/// hardware bit holds.
struct Run {
  Level level;
  /// The bits (indices in the level's input dimension), lowest digit first.
  SmallVector<unsigned> bits;
  /// The highest digit of the run (log2 of its largest step along the axis).
  unsigned top = 0;
};

struct ScanPlan {
  SmallVector<Run> runs;
};

FailureOr<ScanPlan> planScan(const LinearLayout &layout, unsigned axis,
                             int64_t axisSize, std::string &reason) {
  struct Digit {
    Level level;
    unsigned bit;
    unsigned position;
  };
  SmallVector<Digit> digits;
  for (auto [name, level] :
       {std::pair{kRegister, Level::Register}, std::pair{kLane, Level::Lane},
        std::pair{kWarp, Level::Warp}, std::pair{kBlock, Level::Warp}}) {
    if (!layout.hasInDim(name))
      continue;
    for (int i = 0, e = layout.getInDimSizeLog2(name); i < e; ++i) {
      const std::vector<int32_t> &basis = layout.getBasis(name, i);
      int32_t step = basis[axis];
      if (step == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0) {
          reason = "the layout of the sources moves along the axis and "
                   "another dimension with one hardware bit, which this "
                   "backend cannot scan yet";
          return failure();
        }
      if (StringRef(name) == kBlock) {
        reason = "the layout of the sources spreads the axis over program "
                 "instances, which this backend cannot scan yet";
        return failure();
      }
      if (!llvm::isPowerOf2_32(uint32_t(step))) {
        reason = "the layout of the sources moves along the axis by a step "
                 "that is not a power of two, which this backend cannot scan "
                 "yet";
        return failure();
      }
      digits.push_back({level, unsigned(i), llvm::Log2_32(uint32_t(step))});
    }
  }
  llvm::stable_sort(digits, [](const Digit &a, const Digit &b) {
    return a.position < b.position;
  });
  // Every position along the axis must be held: the steps are the distinct
  // powers of two below the axis size.
  bool complete = llvm::isPowerOf2_64(uint64_t(axisSize)) &&
                  digits.size() == llvm::Log2_64(uint64_t(axisSize));
  for (auto [i, digit] : llvm::enumerate(digits))
    complete &= digit.position == i;
  if (!complete) {
    reason = "the layout of the sources does not hold every position along "
             "the axis exactly once per digit, which this backend cannot "
             "scan yet";
    return failure();
  }
  ScanPlan plan;
  for (const Digit &digit : digits) {
    if (plan.runs.empty() || plan.runs.back().level != digit.level)
      plan.runs.push_back(Run{digit.level, {}, 0});
    plan.runs.back().bits.push_back(digit.bit);
    plan.runs.back().top = digit.position;
  }
  return plan;
}

/// The source layout and plan of `op`'s scan, or failure with a reason.
FailureOr<std::pair<LinearLayout, ScanPlan>> analyse(tile::ScanOp op,
                                                     std::string &reason) {
  auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
  std::optional<LinearLayout> layout = getCommonLayout(op.getSrcs(), reason);
  if (!layout)
    return failure();
  for (Value result : op.getResult())
    if (getLinearLayout(cast<RankedTensorType>(result.getType())) != layout) {
      reason = "results must have the layout of the sources";
      return failure();
    }
  FailureOr<ScanPlan> plan =
      planScan(*layout, op.getAxis(), type.getShape()[op.getAxis()], reason);
  if (failed(plan))
    return failure();
  return std::make_pair(std::move(*layout), std::move(*plan));
}

/// Bytes of scratch for a run of warps of source `type`: one total per
/// block of the run's level and warp of the run, aligned to 8 bytes.
int64_t scratchAreaBytes(RankedTensorType type, const Run &run) {
  int64_t blocks = type.getNumElements() >> (run.top + 1);
  int64_t bytes = (blocks << run.bits.size()) *
                  scratchElementBytes(type.getElementType());
  return (bytes + 7) / 8 * 8;
}

/// Bits `bits` of `value`, packed: bit t of the result is bit `bits[t]`.
Value extractBits(RewriterBase &rewriter, Location loc, Value value,
                  ArrayRef<unsigned> bits) {
  bool contiguous = true;
  for (auto [t, bit] : llvm::enumerate(bits))
    contiguous &= bit == bits.front() + t;
  if (contiguous) {
    Value shifted = bits.front() == 0
                        ? value
                        : LLVM::LShrOp::create(rewriter, loc, value,
                                               i32Constant(rewriter, loc,
                                                           bits.front()))
                              .getResult();
    return LLVM::AndOp::create(
        rewriter, loc, shifted,
        i32Constant(rewriter, loc, (int64_t(1) << bits.size()) - 1));
  }
  Value result = i32Constant(rewriter, loc, 0);
  for (auto [t, bit] : llvm::enumerate(bits)) {
    Value b = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, value,
                             i32Constant(rewriter, loc, bit)),
        i32Constant(rewriter, loc, 1));
    result = LLVM::OrOp::create(
        rewriter, loc, result,
        LLVM::ShlOp::create(rewriter, loc, b, i32Constant(rewriter, loc, t)));
  }
  return result;
}

/// The inverse of extractBits: bit t of `value` moved to bit `bits[t]`
/// (higher bits of `value` are dropped).
Value depositBits(RewriterBase &rewriter, Location loc, Value value,
                  ArrayRef<unsigned> bits) {
  bool contiguous = true;
  for (auto [t, bit] : llvm::enumerate(bits))
    contiguous &= bit == bits.front() + t;
  if (contiguous) {
    Value masked = LLVM::AndOp::create(
        rewriter, loc, value,
        i32Constant(rewriter, loc, (int64_t(1) << bits.size()) - 1));
    return bits.front() == 0
               ? masked
               : LLVM::ShlOp::create(rewriter, loc, masked,
                                     i32Constant(rewriter, loc, bits.front()))
                     .getResult();
  }
  Value result = i32Constant(rewriter, loc, 0);
  for (auto [t, bit] : llvm::enumerate(bits)) {
    Value b = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, value,
                             i32Constant(rewriter, loc, t)),
        i32Constant(rewriter, loc, 1));
    result = LLVM::OrOp::create(
        rewriter, loc, result,
        LLVM::ShlOp::create(rewriter, loc, b, i32Constant(rewriter, loc, bit)));
  }
  return result;
}

/// The register index with bit `bits[t]` set to bit t of `value`.
int32_t depositRegisterBits(int32_t value, ArrayRef<unsigned> bits) {
  int32_t result = 0;
  for (auto [t, bit] : llvm::enumerate(bits))
    result |= ((value >> t) & 1) << bit;
  return result;
}

/// The barriers of the scratch, in one place. As for every op with
/// scratch, terrazzo-insert-barriers puts a barrier in front of the op when
/// an earlier access to the scratch may still be in flight, and the op
/// brings its own between its stores and its loads. A later run of warps
/// (layouts with warps at two separate levels of the axis) also needs one
/// before its stores, which overwrite what the loads of the previous run
/// read.
void scratchBarrier(const TargetInfo &target, RewriterBase &rewriter,
                    Location loc) {
  target.barrier(rewriter, loc);
}

using Tuple = SmallVector<Value>;

struct ScanOpConversion : public TargetPattern<tile::ScanOp> {
  using TargetPattern<tile::ScanOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string reason;
    auto analysis = analyse(op, reason);
    if (failed(analysis))
      return op.emitOpError(reason);
    auto &[layout, plan] = *analysis;
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    unsigned n = op.getSrcs().size();
    unsigned warpSize = tilegpu::getThreadsPerWarp(op);
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    ArrayRef<int64_t> shape = srcType.getShape();

    // S and T per register (T is kept for the representatives: registers
    // whose processed register digits are 0).
    SmallVector<SmallVector<Value>> sources;
    for (Value src : adaptor.getSrcs())
      sources.push_back(unpackStruct(rewriter, loc, src));
    int32_t numRegisters = layout.getInDimSize(kRegister);
    SmallVector<Tuple> prefix(numRegisters), total(numRegisters);
    for (int32_t reg = 0; reg < numRegisters; ++reg) {
      for (unsigned s = 0; s < n; ++s)
        prefix[reg].push_back(sources[s][reg]);
      total[reg] = prefix[reg];
    }
    int32_t doneRegisters = 0; // mask of the processed register digits

    // The region applied to (acc, values), cloned at the insertion point;
    // the same operands give the same results once.
    std::map<std::vector<const void *>, Tuple> memo;
    auto combine = [&](ArrayRef<Value> acc, ArrayRef<Value> values) {
      std::vector<const void *> key;
      for (ArrayRef<Value> part : {acc, values})
        for (Value v : part)
          key.push_back(v.getAsOpaquePointer());
      auto it = memo.find(key);
      if (it != memo.end())
        return it->second;
      Block &body = op.getCombineOp().front();
      IRMapping mapping;
      for (unsigned i = 0; i < n; ++i) {
        mapping.map(body.getArgument(i), acc[i]);
        mapping.map(body.getArgument(n + i), values[i]);
      }
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, mapping);
      Tuple results;
      for (Value result : body.getTerminator()->getOperands())
        results.push_back(mapping.lookupOrDefault(result));
      memo[key] = results;
      return results;
    };
    auto select = [&](Value condition, ArrayRef<Value> a, ArrayRef<Value> b) {
      Tuple results;
      for (unsigned i = 0; i < n; ++i)
        results.push_back(
            selectScanValue(rewriter, loc, target, condition, a[i], b[i]));
      return results;
    };
    auto shuffle = [&](ArrayRef<Value> values, Value lane) {
      Tuple results;
      for (Value v : values)
        results.push_back(shuffleScalar(rewriter, loc, v, [&](Value word) {
          return target.shuffleIdx(rewriter, loc, word, lane, warpSize);
        }));
      return results;
    };
    // The registers whose total is `total[rep]`.
    auto members = [&](int32_t rep) {
      SmallVector<int32_t> regs;
      // Every subset of the processed register digits.
      int32_t sub = 0;
      do {
        regs.push_back(rep | sub);
        sub = (sub - doneRegisters) & doneRegisters;
      } while (sub != 0);
      return regs;
    };
    auto representatives = [&]() {
      SmallVector<int32_t> reps;
      for (int32_t reg = 0; reg < numRegisters; ++reg)
        if ((reg & doneRegisters) == 0)
          reps.push_back(reg);
      return reps;
    };
    // Whether every member's S is its group's T (blocks of one element so
    // far, held once or alike): the inclusive prefix of the totals is then
    // the new S, with no exclusive prefix to form.
    auto singleton = [&](int32_t rep) {
      for (int32_t reg : members(rep))
        if (prefix[reg] != total[rep])
          return false;
      return true;
    };
    auto cmp = [&](LLVM::ICmpPredicate predicate, Value a, int64_t b) {
      return LLVM::ICmpOp::create(rewriter, loc, predicate, a,
                                  i32Constant(rewriter, loc, b))
          .getResult();
    };

    std::optional<ThreadPosition> thread;
    auto getThread = [&]() -> ThreadPosition {
      if (!thread)
        thread = getThreadPosition(rewriter, loc, target, warpSize);
      return *thread;
    };
    std::optional<SmallVector<SmallVector<Value>>> indices;
    bool scratchUsed = false;

    for (auto [runIndex, run] : llvm::enumerate(plan.runs)) {
      bool last = runIndex + 1 == plan.runs.size();
      int64_t size = int64_t(1) << run.bits.size();
      int64_t full = size - 1;

      if (run.level == Level::Register) {
        // In each thread, sub-block by sub-block in axis order.
        int32_t runMask = depositRegisterBits(int32_t(full), run.bits);
        for (int32_t rep : representatives()) {
          if (rep & runMask)
            continue;
          Tuple running;
          for (int64_t index = 0; index < size; ++index) {
            int64_t digits = reverse ? full - index : index;
            int32_t sub = rep | depositRegisterBits(int32_t(digits), run.bits);
            if (index == 0) {
              running = total[sub];
              continue;
            }
            for (int32_t reg : members(sub))
              prefix[reg] = combine(running, prefix[reg]);
            if (!last || index + 1 < size)
              running = combine(running, total[sub]);
          }
          total[rep] = running;
        }
        doneRegisters |= runMask;
        continue;
      }

      ThreadPosition position = getThread();
      if (run.level == Level::Lane) {
        // Hillis-Steele over the lanes of the run: the lane `d` places
        // earlier in axis order, for d = 1, 2, 4, ...
        Value lane = position.lane;
        int32_t laneMask = depositRegisterBits(int32_t(full), run.bits);
        Value others = LLVM::AndOp::create(rewriter, loc, lane,
                                           i32Constant(rewriter, loc, ~laneMask));
        Value index = extractBits(rewriter, loc, lane, run.bits);
        if (reverse)
          index = LLVM::XOrOp::create(rewriter, loc, index,
                                      i32Constant(rewriter, loc, full));
        // The lane at order index `target` (a value) of this lane's line.
        auto laneAt = [&](Value orderIndex) -> Value {
          Value digits =
              reverse ? LLVM::XOrOp::create(rewriter, loc, orderIndex,
                                            i32Constant(rewriter, loc, full))
                            .getResult()
                      : orderIndex;
          return LLVM::OrOp::create(
              rewriter, loc, others,
              depositBits(rewriter, loc, digits, run.bits));
        };
        SmallVector<Value> sourceLanes, takes;
        for (int64_t d = 1; d < size; d *= 2) {
          sourceLanes.push_back(laneAt(LLVM::SubOp::create(
              rewriter, loc, index, i32Constant(rewriter, loc, d))));
          takes.push_back(cmp(LLVM::ICmpPredicate::uge, index, d));
        }
        Value lastLane;
        if (!last)
          lastLane = laneAt(i32Constant(rewriter, loc, full));
        for (int32_t rep : representatives()) {
          bool alone = singleton(rep);
          Tuple x = total[rep];
          for (auto [source, take] : llvm::zip(sourceLanes, takes)) {
            Tuple earlier = shuffle(x, source);
            x = select(take, combine(earlier, x), x);
          }
          if (alone) {
            for (int32_t reg : members(rep))
              prefix[reg] = x;
          } else {
            // The inclusive prefix of the lane before: the exclusive one of
            // this lane (none for the first lane).
            Tuple before = shuffle(x, sourceLanes.front());
            for (int32_t reg : members(rep))
              prefix[reg] =
                  select(takes.front(), combine(before, prefix[reg]),
                         prefix[reg]);
          }
          if (!last)
            total[rep] = shuffle(x, lastLane);
        }
        continue;
      }

      // Warps: each warp's totals through shared memory.
      Value scratch = getScratchPointer(rewriter, loc, op);
      if (!scratch)
        return failure();
      if (!indices)
        indices = emitIndices(rewriter, loc, layout, position);
      Value index = extractBits(rewriter, loc, position.warp, run.bits);
      if (reverse)
        index = LLVM::XOrOp::create(rewriter, loc, index,
                                    i32Constant(rewriter, loc, full));
      SmallVector<Type> elementTypes, tileElementTypes;
      SmallVector<int64_t> areaBytes;
      for (Value src : op.getSrcs()) {
        auto type = cast<RankedTensorType>(src.getType());
        tileElementTypes.push_back(type.getElementType());
        elementTypes.push_back(
            getTypeConverter()->convertType(type.getElementType()));
        areaBytes.push_back(scratchAreaBytes(type, run));
      }
      ScratchSlots slots(rewriter, loc, scratch, elementTypes,
                         tileElementTypes, areaBytes);
      // The first slot of each representative's block of the next level:
      // the row-major index of the block (the axis coordinate without the
      // digits up to this run's), times the warps of the run.
      SmallVector<int32_t> reps = representatives();
      std::map<int32_t, Value> firstSlot;
      for (int32_t rep : reps) {
        auto &coords = (*indices)[rep];
        Value linear = i32Constant(rewriter, loc, 0);
        for (unsigned d = 0; d < shape.size(); ++d) {
          int64_t extent = shape[d];
          Value coord = coords[d];
          if (d == axis) {
            extent >>= run.top + 1;
            coord = LLVM::LShrOp::create(rewriter, loc, coord,
                                         i32Constant(rewriter, loc,
                                                     run.top + 1));
          }
          linear = LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, linear,
                                  i32Constant(rewriter, loc, extent)),
              coord);
        }
        firstSlot[rep] = LLVM::MulOp::create(rewriter, loc, linear,
                                             i32Constant(rewriter, loc, size));
      }
      if (scratchUsed)
        scratchBarrier(target, rewriter, loc);
      scratchUsed = true;
      for (int32_t rep : reps) {
        Value slot = LLVM::AddOp::create(rewriter, loc, firstSlot[rep], index);
        slots.store(rewriter, loc, slot, total[rep]);
      }
      scratchBarrier(target, rewriter, loc);
      for (int32_t rep : reps) {
        bool alone = singleton(rep);
        // The inclusive prefixes of the warps' totals, in axis order.
        std::vector<Tuple> prefixes(size);
        for (int64_t w = 0; w < size; ++w) {
          Value slot = LLVM::AddOp::create(rewriter, loc, firstSlot[rep],
                                           i32Constant(rewriter, loc, w));
          Tuple warpTotal = slots.load(rewriter, loc, slot);
          prefixes[w] = w == 0 ? warpTotal : combine(prefixes[w - 1], warpTotal);
        }
        if (alone) {
          // This warp's inclusive prefix is the new S.
          Tuple mine = prefixes[0];
          for (int64_t w = 1; w < size; ++w)
            mine = select(cmp(LLVM::ICmpPredicate::eq, index, w), prefixes[w],
                          mine);
          for (int32_t reg : members(rep))
            prefix[reg] = mine;
        } else {
          // The inclusive prefix of the warp before, combined with S.
          Tuple before = prefixes[0];
          for (int64_t w = 1; w + 1 < size; ++w)
            before = select(cmp(LLVM::ICmpPredicate::eq, index, w + 1),
                            prefixes[w], before);
          Value notFirst = cmp(LLVM::ICmpPredicate::ne, index, 0);
          for (int32_t reg : members(rep))
            prefix[reg] = select(notFirst, combine(before, prefix[reg]),
                                 prefix[reg]);
        }
        if (!last)
          total[rep] = prefixes[size - 1];
      }
    }

    SmallVector<Value> results;
    for (unsigned s = 0; s < n; ++s) {
      SmallVector<Value> values;
      for (int32_t reg = 0; reg < numRegisters; ++reg)
        values.push_back(prefix[reg][s]);
      results.push_back(packStruct(
          rewriter, loc,
          getTypeConverter()->convertType(op.getResult()[s].getType()),
          values));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateScanOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<ScanOpConversion>(converter, target);
}

LogicalResult mlir::terrazzo::checkScanLowering(Operation *op) {
  auto scan = dyn_cast<tile::ScanOp>(op);
  if (!scan)
    return success();
  std::string reason;
  if (failed(analyse(scan, reason)))
    return scan.emitOpError(reason);
  return success();
}

int64_t mlir::terrazzo::getScanScratchBytes(Operation *op) {
  auto scan = dyn_cast<tile::ScanOp>(op);
  if (!scan)
    return 0;
  std::string reason;
  auto analysis = analyse(scan, reason);
  if (failed(analysis))
    return 0;
  int64_t bytes = 0;
  for (const Run &run : analysis->second.runs) {
    if (run.level != Level::Warp)
      continue;
    int64_t need = 0;
    for (Value src : scan.getSrcs())
      need += scratchAreaBytes(cast<RankedTensorType>(src.getType()), run);
    bytes = std::max(bytes, need);
  }
  return bytes;
}
