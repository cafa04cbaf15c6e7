// terrazzo-pipeline: see Passes.td.
#include "passes/Passes.h"
#include "passes/LayoutUtils.h"
#include "passes/PipelineDots.h"
#include "passes/PipelineRegisters.h"
#include "passes/PipelineSupport.h"
#include "passes/PipelineTma.h"
#include "passes/PipelineWarpSpecialize.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <tuple>

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOPIPELINE
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// A warp-specialized loop's producer: one warp group.
constexpr unsigned kProducerWarps = tilegpu::kWarpsPerGroup;

/// A load to pipeline: it reads through the loop-carried pointers
/// `ptrArg`, advanced by the loop-invariant `step` each iteration, or
/// through pointers computed in the loop from the induction variable and
/// loop invariants (no `ptrArg`: Triton's `a_ptr + (k * BK + offs_k)`, and
/// descriptor loads lowered to pointers); its only use is either
/// `convert`, whose results feed only dot operands (mma.sync) or, when not
/// `feedsDots`, other ops of the loop (a row vector such as attention's
/// saved log-sum-exp, which the conversion takes through shared memory
/// anyway), or `alloc`, an nvmma_shared buffer that only warp_group_dots
/// read (wgmma).
struct Candidate {
  tile::LoadOp load;
  tilegpu::ConvertLayoutOp convert; // mma.sync, or a value (or null)
  tilegpu::LocalAllocOp alloc;      // wgmma (or null)
  bool feedsDots = true;
  /// The conversions, and at most one transposition, between the load and
  /// `alloc`: the copies write the buffer whatever layout the registers
  /// had; a transposed block is copied as loaded into buffers that the
  /// dots read through a memdesc_trans.
  SmallVector<Operation *> toAlloc;
  bool transposed = false;
  BlockArgument ptrArg;             // null: pointers computed in the loop
  Value step;
  /// Ops computing the mask, and the pointers unless they are carried,
  /// inside the loop (from the induction variable and loop invariants
  /// only), in program order; recomputed for the iteration a copy is
  /// issued for.
  SmallVector<Operation *> slice;
  // Filled in by the rewrite.
  Value stack;
  tilegpu::MemDescType bufferType;
  Value aheadPtrArg;
};

/// Elements per cp.async the copy of `load` would get: what the pointers'
/// layout, contiguity and alignment allow along their fastest dimension
/// (the copy's own mask is uniform per vector or the load's).
int64_t copyElements(tile::LoadOp load, const ModuleAxisInfoAnalysis &axisInfo) {
  auto type = cast<RankedTensorType>(load.getPtr().getType());
  std::optional<::terrazzo::LinearLayout> layout =
      tilegpu::toLinearLayout(type.getShape(), type.getEncoding());
  auto blocked = dyn_cast_or_null<tilegpu::BlockedLayoutAttr>(type.getEncoding());
  const AxisInfo *ptrInfo = axisInfo.getAxisInfo(load.getPtr());
  if (!layout || !blocked || !ptrInfo)
    return 1;
  // Along the layout's fastest dimension, whichever it is (a K-major B
  // runs along dim 0).
  unsigned dim = blocked.getOrder().front();
  unsigned bytes =
      tile::getElementBitWidth(getElementTypeOrSelf(load.getType())) / 8;
  int64_t width = std::min<int64_t>(layout->getContiguousRegisters(dim),
                                    ptrInfo->getContiguity(dim));
  // Pointer divisibility is in bytes.
  width = std::min<int64_t>(
      width, std::max<int64_t>(1, ptrInfo->getDivisibility(dim) /
                                      std::max(1u, bytes)));
  if (Value mask = load.getMask()) {
    const AxisInfo *maskInfo = axisInfo.getAxisInfo(mask);
    width = std::min<int64_t>(width, maskInfo ? maskInfo->getConstancy(dim) : 1);
  }
  width = std::min<int64_t>(width, 16 / std::max(1u, bytes));
  return int64_t(llvm::bit_floor(uint64_t(std::max<int64_t>(width, 1))));
}

std::optional<Candidate> matchCandidate(tile::LoadOp load, scf::ForOp loop,
                                        const ModuleAxisInfoAnalysis &axisInfo) {
  // The pointers advance by a loop-invariant step every iteration, or are
  // computed from the induction variable (the slice below). Used once, by
  // a conversion whose results only feed dots as operands, or by an
  // nvmma_shared buffer only warp_group_dots read.
  FailureOr<AheadLoad> ahead = matchAheadLoad(load, loop);
  if (failed(ahead))
    return std::nullopt;
  BlockArgument arg = ahead->arg;
  Value step = ahead->step;
  Operation *user = ahead->user;
  auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(user);
  auto alloc = dyn_cast<tilegpu::LocalAllocOp>(user);
  // Conversions (and a transposition) whose only use is the nvmma_shared
  // buffer.
  SmallVector<Operation *> toAlloc;
  bool transposed = false;
  for (Operation *op = user; !alloc && op->hasOneUse() &&
                             (isa<tilegpu::ConvertLayoutOp>(op) ||
                              (isa<tile::TransOp>(op) && !transposed));) {
    transposed |= isa<tile::TransOp>(op);
    toAlloc.push_back(op);
    op = *op->user_begin();
    if (auto next = dyn_cast<tilegpu::LocalAllocOp>(op)) {
      alloc = next;
      user = next;
      convert = {};
    }
  }
  if (!alloc) {
    if (transposed)
      return std::nullopt;
    toAlloc.clear();
  }
  if ((!convert && !alloc) || user->use_empty() ||
      user->getBlock() != loop.getBody())
    return std::nullopt;
  // The buffer's readers: dots of the loop, directly or (a buffer that
  // serves a value and its transpose) through memdesc_trans.
  auto readByDots = [&](Operation *op, auto &self) -> bool {
    for (OpOperand &use : op->getUses()) {
      Operation *owner = use.getOwner();
      if (owner->getBlock() != loop.getBody())
        return false;
      if (alloc && isa<tilegpu::MemDescTransOp>(owner)) {
        if (owner->use_empty() || !self(owner, self))
          return false;
        continue;
      }
      bool dotOperand = alloc ? isa<tilegpu::WarpGroupDotOp>(owner)
                              : isa<tile::DotOp>(owner);
      if (!dotOperand || use.getOperandNumber() > 1)
        return false;
    }
    return true;
  };
  // A conversion whose results feed other ops of the loop: its value is
  // read from the stack in the conversion's layout all the same.
  bool feedsDots = readByDots(user, readByDots);
  if (!feedsDots &&
      (alloc || llvm::any_of(user->getUsers(), [&](Operation *owner) {
         return !loop.getBody()->findAncestorOpInBlock(*owner);
       })))
    return std::nullopt;
  if (alloc) {
    // A stack of these buffers: each one a multiple of 1024 bytes (where
    // wgmma's swizzle patterns start).
    tilegpu::MemDescType type = alloc.getType();
    if (!isa<tilegpu::NvmmaSharedLayoutAttr>(type.getEncoding()) ||
        type.getShape().size() != 2)
      return std::nullopt;
    if (transposed)
      type = tilegpu::MemDescTransOp::transposedType(type);
    int64_t bits = type.getShape()[0] * type.getShape()[1] *
                   tile::getElementBitWidth(type.getElementType());
    if (bits % (8 * 1024) != 0)
      return std::nullopt;
    // Each copy moves a vector contiguous in global memory into a vector
    // contiguous in the buffer: both must run along the same dimension
    // (an fp8 B whose rows are N in memory must be K-major in the buffer:
    // no such copy exists).
    auto shared = cast<tilegpu::NvmmaSharedLayoutAttr>(type.getEncoding());
    unsigned bufferContiguous = shared.getTransposed() ? 0 : 1;
    auto blocked = dyn_cast_or_null<tilegpu::BlockedLayoutAttr>(
        cast<RankedTensorType>(load.getType()).getEncoding());
    if (!blocked || blocked.getOrder().front() != bufferContiguous)
      return std::nullopt;
  }
  if (load.getOther() && !isZero(load.getOther()))
    return std::nullopt;
  Candidate candidate{load, convert, alloc, feedsDots, toAlloc, transposed,
                      arg,  step,    {},    {},        {},      {}};
  SmallVector<Value> recomputed;
  if (!arg)
    recomputed.push_back(load.getPtr());
  if (Value mask = load.getMask())
    recomputed.push_back(mask);
  FailureOr<SmallVector<Operation *>> slice = cloneableSlice(recomputed, loop);
  if (failed(slice))
    return std::nullopt;
  candidate.slice = std::move(*slice);
  // cp.async moves 4, 8 or 16 bytes.
  auto type = cast<RankedTensorType>(load.getType());
  unsigned bytes = tile::getElementBitWidth(type.getElementType()) / 8;
  if (bytes == 0 || copyElements(load, axisInfo) * bytes < 4)
    return std::nullopt;
  return candidate;
}

/// The swizzled shared layout of a stack of `stages` buffers of `type`:
/// rows along the loads' fastest dimension, vectors as long as one copy.
tilegpu::MemDescType stackType(RankedTensorType type, int64_t stages,
                               int64_t vec) {
  const bool withStack = true;
  auto blocked = cast<tilegpu::BlockedLayoutAttr>(type.getEncoding());
  ArrayRef<unsigned> order = blocked.getOrder();
  unsigned bytes = tile::getElementBitWidth(type.getElementType()) / 8;
  int64_t rowLength = type.getShape()[order.front()];
  unsigned perPhase = 1, maxPhase = 1;
  if (type.getRank() >= 2 && rowLength >= 2 * vec) {
    perPhase = unsigned(std::max<int64_t>(1, 128 / (rowLength * bytes)));
    maxPhase = unsigned(std::min<int64_t>(
        rowLength / vec, std::max<int64_t>(1, 128 / (vec * bytes))));
  }
  SmallVector<unsigned> sharedOrder;
  for (unsigned dim : order)
    sharedOrder.push_back(withStack ? dim + 1 : dim);
  if (withStack)
    sharedOrder.push_back(0);
  auto layout = tilegpu::SwizzledSharedLayoutAttr::get(
      type.getContext(), unsigned(vec), perPhase, maxPhase, sharedOrder);
  SmallVector<int64_t> shape;
  if (withStack)
    shape.push_back(stages);
  llvm::append_range(shape, type.getShape());
  return tilegpu::MemDescType::get(type.getContext(), shape,
                                   type.getElementType(), layout,
                                   /*mutableMemory=*/true);
}

/// The ring of a function's warp-specialized loops: the first one's,
/// which the later ones share when their copies fill the same buffers
/// (causal attention's two loops over the keys), going on from the stage
/// and parities where the loop before left it. Two rings would both live
/// as long as the kernel; one leaves room for deeper or larger stages.
struct SpecializedRing {
  TmaRingStorage storage;
  /// The last loop's producer: its results are the next stage to fill and
  /// the parity of that stage's empty mbarrier to wait for.
  scf::ForOp producer;
  /// What holds the last loop's results `readResult` and `phaseResult`,
  /// the next stage to read and its full parity: the check that the
  /// consumers ran (a rotated chain's guard), whose then block ends with
  /// the last iteration's second dot, after which that stage is released
  /// when a later loop refills the ring; or the loop itself (a dot kept in
  /// flight), which released every stage it read.
  Operation *consumers = nullptr;
  unsigned readResult = 0, phaseResult = 0;
  /// The loop over tiles the loops sit in (tileLoopOf; null at the top of
  /// the function): its iter_args `tileReadArg` and `tileReadArg + 1`
  /// carry the consumers' next stage to read and its full parity from one
  /// tile to the next, and it yields the last loop's.
  scf::ForOp tile;
  unsigned tileReadArg = 0;
};

/// When TMA dot chains take turns (the pass's ping-pong option): `Always`
/// and `Auto` around a rotated chain's dots, `Softmax` around an unrotated
/// warp-specialized chain's exponentials (takeSoftmaxTurns). Measured on
/// the H100 (tutorial 06's forward at head dimension 64, bench/RESULTS.md,
/// session 30), `Softmax` runs at auto's speed (0.99-1.00), and 5-8% slower
/// with the chain left rotated: auto does not take it.
enum class PingPong { Auto, Always, Never, Softmax };

/// With ping-pong=auto, a warp-specialized chain takes turns around its
/// dots when its first dot reduces over at least this many elements
/// (attention's head dimension): there the tensor cores' share of an
/// iteration is large enough that one warp group's dots running while the
/// other computes its softmax pays for the turns. Measured on the H100
/// (tutorial 06's forward, bench/RESULTS.md, session 22): at 128, 0 to
/// +10% (non-causal) and +1 to +4% (causal) from 1k to 16k; at 64, 1 to
/// 6% slower (and 1 to 5% again in session 24, with the softmax's scores
/// scaled in the exponent).
constexpr int64_t kPingPongMinReduction = 128;

/// The ops that tie a warp-specialized chain's turns around its
/// exponentials (cuDNN's schedule): the row vectors the first
/// two-dimensional exp2 subtracts (its broadcast rows, attention's row
/// maximum), which pass through the turn's wait, and the row reductions of
/// that exp2's result (the row sum), which the pass waits for.
struct SoftmaxTurns {
  math::Exp2Op exp;
  SmallVector<Value> rows;
  SmallVector<Value> sums;
};

/// The chain's first dot's reduction size (its A operand is M x K).
int64_t firstDotReduction(scf::ForOp loop) {
  for (Operation &op : *loop.getBody())
    if (auto dot = dyn_cast<tilegpu::WarpGroupDotOp>(&op)) {
      auto shape = cast<ShapedType>(dot.getA().getType()).getShape();
      return shape.size() == 2 ? shape[1] : 0;
    }
  return 0;
}

/// Whether the warp groups of `loop`'s dots hold rows of their own: every
/// dot's warps along M, at least two warp groups.
bool dotsSplitRows(scf::ForOp loop,
                   SmallVectorImpl<tilegpu::WarpGroupDotOp> &dots) {
  unsigned warps = tilegpu::getNumWarps(loop);
  if (warps < 2 * tilegpu::kWarpsPerGroup ||
      warps % tilegpu::kWarpsPerGroup != 0)
    return false;
  for (Operation &op : *loop.getBody())
    if (auto dot = dyn_cast<tilegpu::WarpGroupDotOp>(&op))
      dots.push_back(dot);
  return dots.size() == 2 &&
         llvm::all_of(dots, [&](tilegpu::WarpGroupDotOp dot) {
           auto mma = dyn_cast<tilegpu::NvidiaMmaLayoutAttr>(
               cast<RankedTensorType>(dot.getType()).getEncoding());
           return mma && mma.getWarpsPerCTA().size() == 2 &&
                  mma.getWarpsPerCTA()[0] == warps &&
                  mma.getWarpsPerCTA()[1] == 1;
         });
}

/// The exponentials' turns of `loop`, if it has the softmax's shape: a
/// two-dimensional exp2 of a value computed in the body from row vectors
/// of the body (tile.expand_dims of a one-dimensional value), whose result
/// a tile.reduce reads.
std::optional<SoftmaxTurns> findSoftmaxTurns(scf::ForOp loop) {
  SmallVector<tilegpu::WarpGroupDotOp> dots;
  if (!dotsSplitRows(loop, dots))
    return std::nullopt;
  Block *body = loop.getBody();
  SoftmaxTurns turns;
  for (Operation &op : *body)
    if (auto exp = dyn_cast<math::Exp2Op>(&op))
      if (auto type = dyn_cast<RankedTensorType>(exp.getType());
          type && type.getRank() == 2) {
        turns.exp = exp;
        break;
      }
  if (!turns.exp)
    return std::nullopt;
  SmallVector<Operation *> worklist{turns.exp};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
      Value row = expand.getSrc();
      if (row.getDefiningOp() && row.getDefiningOp()->getBlock() == body &&
          !llvm::is_contained(turns.rows, row))
        turns.rows.push_back(row);
      continue;
    }
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == body && isPure(def))
        worklist.push_back(def);
  }
  for (Operation *user : turns.exp->getUsers())
    if (auto reduce = dyn_cast<tile::ReduceOp>(user);
        reduce && reduce->getBlock() == body)
      llvm::append_range(turns.sums, reduce->getResults());
  if (turns.rows.empty() || turns.sums.empty())
    return std::nullopt;
  return turns;
}

class LoopPipeliner {
public:
  /// `ringsFit`: whether the TMA rings of the loop's function fit in
  /// shared memory together (a warp-specialized loop's ring is allocated
  /// for the whole kernel; see ringsFitTogether).
  LoopPipeliner(scf::ForOp loop, int64_t stages, PingPong pingPong,
                bool rotateOneWarpGroup, const ModuleAxisInfoAnalysis &axisInfo,
                IRMapping &producerValues,
                DenseMap<Operation *, SpecializedRing> &specializedRings,
                bool ringsFit, DenseSet<Operation *> &replacedLoops)
      : loop(loop), stages(stages), pingPong(pingPong),
        rotateOneWarpGroup(rotateOneWarpGroup), ringsFit(ringsFit),
        axisInfo(axisInfo), producerValues(producerValues),
        specializedRings(specializedRings), replacedLoops(replacedLoops) {}

  /// Whether the rewrite left the loop unable to run (reported).
  bool broken = false;

  LogicalResult run() {
    // TMA coordinates that the loop advances itself become derived from the
    // induction variable, so that a copy can be issued for a later
    // iteration.
    SmallVector<Value> coords;
    for (Operation &op : *loop.getBody())
      if (auto copy = dyn_cast<tilegpu::AsyncTMACopyGlobalToLocalOp>(&op))
        llvm::append_range(coords, copy.getCoords());
    if (!coords.empty())
      deriveAdvancedArgs(coords, loop);
    SmallVector<Candidate> values;
    for (Operation &op : *loop.getBody()) {
      if (auto load = dyn_cast<tile::LoadOp>(&op))
        if (std::optional<Candidate> c = matchCandidate(load, loop, axisInfo))
          (c->feedsDots ? candidates : values).push_back(std::move(*c));
      if (auto copy = dyn_cast<tilegpu::AsyncTMACopyGlobalToLocalOp>(&op))
        if (std::optional<TmaCandidate> c = matchTmaCandidate(copy, loop))
          tmaCandidates.push_back(std::move(*c));
    }
    if (candidates.empty() && tmaCandidates.empty() && values.empty())
      return failure();
    // A dot chain (attention) whose copies all go into buffers that only
    // wgmma reads (cp.async or TMA) is rotated after the rewrite: its second
    // dot reads the previous iteration's buffer while this iteration's copies
    // are issued, so the ring gets one buffer more than copies in flight
    // (the copy for iteration i + stages - 1 goes into the buffer of
    // iteration i - 2). Not in a program of one warp group that is not to
    // be specialized: there the other programs on the SM overlap its dots
    // and softmax, and the rotation's buffers and registers only cost
    // programs (bench/RESULTS.md, session 33).
    // Nor, unless turns are asked for (they need the rotation), a chain of
    // several warp groups not to be specialized whose loads are all copies
    // of a two-stage TMA ring: the ring is refilled at the top of each
    // iteration instead (below), and the rotation's second block of scores
    // in registers costs programs per SM (Passes.td).
    const bool specializable =
        loop->hasAttr(tile::TileDialect::kWarpSpecializeAttrName);
    bool oneWarpGroup =
        tilegpu::getNumWarps(loop) <= tilegpu::kWarpsPerGroup && !specializable;
    const bool twoStageRing = stages == 2 && candidates.empty() &&
                              !tmaCandidates.empty() && !specializable &&
                              pingPong != PingPong::Always;
    rotate = llvm::all_of(candidates, [](Candidate &c) { return c.alloc; }) &&
             llvm::all_of(tmaCandidates,
                          [](TmaCandidate &c) { return c.onlyWgmmaReaders; }) &&
             isDotChain(loop) &&
             (rotateOneWarpGroup || (!oneWarpGroup && !twoStageRing));
    buffers = stages + (rotate ? 1 : 0);
    // tl.range(..., warp_specialize=True): a rotated chain, or one dot
    // whose accumulator stays in flight and is never reset in the loop (a
    // GEMM's K loop), on TMA alone, whose copies a producer can issue by
    // itself (scalar code before the loop), in whole warp groups, with room
    // for its ring beside the others.
    inFlight = asyncCandidate();
    bool singleDot = inFlight && !inFlight->reset;
    if (loop->hasAttr(tile::TileDialect::kWarpSpecializeAttrName) &&
        (rotate || singleDot) && candidates.empty() &&
        tilegpu::getNumWarps(loop) % tilegpu::kWarpsPerGroup == 0 && ringsFit)
      if (FailureOr<SmallVector<Operation *>> slice =
              producerSlice(loop, tmaCandidates);
          succeeded(slice))
        producerOps = std::move(*slice);
    specialize = !producerOps.empty();
    // A specialized chain whose warp groups take turns around their
    // exponentials stays unrotated (each dot waited for at once): its
    // ring needs no buffer more than copies in flight.
    softmaxTurns = specialize && rotate && pingPong == PingPong::Softmax &&
                   findSoftmaxTurns(loop).has_value();
    if (softmaxTurns) {
      rotate = false;
      buffers = stages;
    }
    // Loads of values (not dot operands) join the copies unless the loop
    // takes one of the forms above, which keep their dots' operands alone
    // in flight (rotated, an accumulator in flight, a producer warp group):
    // those loads then stay as they are.
    if (!rotate && !inFlight && !specialize)
      llvm::append_range(candidates, std::move(values));
    if (candidates.empty() && tmaCandidates.empty())
      return failure();
    rewrite();
    return success();
  }

private:
  Value constantI32(OpBuilder &b, int64_t v) {
    return arith::ConstantIntOp::create(b, loop.getLoc(), b.getI32Type(), v);
  }
  Value constantLike(OpBuilder &b, Type type, int64_t v) {
    return arith::ConstantOp::create(b, loop.getLoc(), type,
                                     b.getIntegerAttr(type, v));
  }

  /// Closes the cp.async group of the copies issued since the last one.
  static void commitGroup(OpBuilder &b, Location loc) {
    tilegpu::AsyncCommitGroupOp::create(
        b, loc, tilegpu::AsyncTokenType::get(b.getContext()), ValueRange());
  }

  /// The copy of `c` for the iteration whose induction variable is `iv`
  /// (maybe beyond the loop's end: then it copies nothing), from `ptr` (the
  /// carried pointers; null: computed for `iv`) into buffer `index` of its
  /// stack, marked tilegpu.reads_retired if `readsRetired`.
  void issueCopy(OpBuilder &b, Candidate &c, Value iv, Value ptr,
                 Value index, bool readsRetired) {
    Location loc = c.load.getLoc();
    IRMapping mapping;
    Value mask;
    std::tie(ptr, mask) =
        pointersAndMaskFor(b, c.load, c.slice, loop, iv, ptr, mapping);
    Value buffer = tilegpu::MemDescIndexOp::create(b, loc, oneBuffer(c),
                                                   c.stack, index);
    auto copy = tilegpu::AsyncCopyGlobalToLocalOp::create(
        b, loc, tilegpu::AsyncTokenType::get(b.getContext()), ptr, buffer,
        mask, Value());
    if (readsRetired)
      copy->setAttr(tilegpu::kReadsRetiredAttrName, b.getUnitAttr());
  }

  /// One buffer of `c`'s stack: the stack's type without its leading
  /// dimension (what memdesc_index requires).
  tilegpu::MemDescType oneBuffer(Candidate &c) {
    if (c.alloc)
      return tilegpu::MemDescType::get(
          c.bufferType.getContext(), c.bufferType.getShape().drop_front(),
          c.bufferType.getElementType(), c.bufferType.getEncoding(),
          /*mutableMemory=*/true);
    auto layout =
        cast<tilegpu::SwizzledSharedLayoutAttr>(c.bufferType.getEncoding());
    SmallVector<unsigned> order;
    for (unsigned dim : layout.getOrder().drop_back())
      order.push_back(dim - 1);
    return tilegpu::MemDescType::get(
        c.bufferType.getContext(), c.bufferType.getShape().drop_front(),
        c.bufferType.getElementType(),
        tilegpu::SwizzledSharedLayoutAttr::get(
            layout.getContext(), layout.getVec(), layout.getPerPhase(),
            layout.getMaxPhase(), order),
        /*mutableMemory=*/true);
  }

  /// The loop's one warp_group_dot when it can run asynchronously across
  /// iterations: every pipelined load feeds only wgmma, both its operands
  /// are pipelined (a buffer written in the loop by anything else could be
  /// overwritten while the tensor cores still read it), and its result
  /// goes, through the yield, back into its own accumulator, maybe reset
  /// to zeros on a scalar condition and read only under scalar conditions
  /// (matchInFlightAccumulator).
  std::optional<InFlightAccumulator> asyncCandidate() {
    if (llvm::any_of(candidates, [](Candidate &c) { return !c.alloc; }) ||
        llvm::any_of(tmaCandidates,
                     [](TmaCandidate &c) { return !c.onlyWgmmaReaders; }))
      return {};
    tilegpu::WarpGroupDotOp dot;
    for (Operation &op : *loop.getBody())
      if (auto found = dyn_cast<tilegpu::WarpGroupDotOp>(&op)) {
        if (dot)
          return {};
        dot = found;
      }
    if (!dot || dot.getIsAsync())
      return {};
    auto pipelined = [&](Value operand) {
      if (llvm::any_of(candidates, [&](Candidate &c) {
            return c.alloc.getResult() == operand;
          }))
        return true;
      // A TMA buffer, maybe seen transposed.
      if (auto trans = operand.getDefiningOp<tilegpu::MemDescTransOp>())
        operand = trans.getSrc();
      return llvm::any_of(tmaCandidates, [&](TmaCandidate &c) {
        return c.buffer.getResult() == operand;
      });
    };
    if (!pipelined(dot.getA()) || !pipelined(dot.getB()))
      return {};
    return matchInFlightAccumulator(dot, loop);
  }

  void rewrite() {
    Location loc = loop.getLoc();
    // Warp-specialized: the function's body becomes the consumers' first
    // (this loop with it), the ring is allocated in front of the split.
    tilegpu::WarpSpecializeOp ws;
    if (specialize)
      ws = getOrCreateWarpSpecialize(loop, kProducerWarps);
    OpBuilder b(loop);
    Type ivType = loop.getInductionVar().getType();
    const bool cpAsync = !candidates.empty();
    const bool tma = !tmaCandidates.empty();
    TmaRing ring(loop, buffers, tmaCandidates);
    // An asynchronous dot: the copies go after this iteration's
    // warp_group_dot_wait {pendings = 1}, which completes the previous
    // iteration's dot in this warp group, into the buffer that dot read;
    // terrazzo-insert-barriers puts the barrier that waits for the other
    // warp groups' waits in front of them. (One buffer more, with copies
    // into the buffer of two iterations back, needs no such barrier but
    // measured slower on the H100: 8192^3 float16, 128x256x64 at 3 stages,
    // 554 and 565 against 609 and 610 TFLOP/s for this form, Triton's.)
    tilegpu::WarpGroupDotOp asyncDot = inFlight ? inFlight->dot : nullptr;
    // The stacks, outside the loop.
    for (Candidate &c : candidates) {
      auto type = cast<RankedTensorType>(c.load.getType());
      int64_t vec = copyElements(c.load, axisInfo);
      if (c.alloc) {
        // The nvmma_shared layout wgmma reads, stacked (as loaded: the
        // dots read a transposed block through memdesc_trans).
        tilegpu::MemDescType read = c.alloc.getType();
        if (c.transposed)
          read = tilegpu::MemDescTransOp::transposedType(read);
        SmallVector<int64_t> shape{buffers};
        llvm::append_range(shape, type.getShape());
        c.bufferType = tilegpu::MemDescType::get(
            type.getContext(), shape, type.getElementType(),
            read.getEncoding(), /*mutableMemory=*/true);
      } else {
        c.bufferType = stackType(type, buffers, vec);
      }
      c.stack = tilegpu::LocalAllocOp::create(b, loc, c.bufferType, Value());
    }
    // A rotated chain's warp groups run apart: each warp releases a stage
    // through its empty mbarrier once its reads of it are complete, and a
    // refill waits for that, instead of a barrier of the whole program
    // (every warp would wait for the slowest warp group each iteration).
    // So do the consumers of a producer warp group.
    // A two-stage ring of TMA copies alone whose every read of a stage is
    // complete when its iteration ends (no dot left in flight, not
    // rotated, no producer) is refilled right after the wait for this
    // iteration's stage, not after its last read (below). With several warp
    // groups its stages are released as a rotated chain's are (one program
    // of one warp group keeps the barrier: releases measured slower there;
    // Passes.td).
    const bool earlyRefill = tma && stages == 2 && candidates.empty() &&
                             !asyncDot && !specialize && !rotate;
    if (tma &&
        (rotate || specialize ||
         (earlyRefill && tilegpu::getNumWarps(loop) > tilegpu::kWarpsPerGroup)))
      ring.enableReleases(tilegpu::getNumWarps(loop));
    // A later specialized loop of the function (in the same loop over
    // tiles, if any) shares the first one's ring.
    SpecializedRing *shared = nullptr;
    scf::ForOp producer;
    TmaRingStorage ringStorage;
    scf::ForOp tile = specialize ? tileLoopOf(loop) : scf::ForOp();
    unsigned tileReadArg = 0;
    if (specialize) {
      auto found = specializedRings.find(ws->getParentOp());
      if (found != specializedRings.end() && found->second.tile == tile &&
          ring.canAdopt(found->second.storage))
        shared = &found->second;
      if (shared) {
        tileReadArg = shared->tileReadArg;
        ring.adopt(shared->storage);
        // In a loop over tiles, each loop released its own last stage.
        if (auto guard = dyn_cast<scf::IfOp>(shared->consumers); guard && !tile)
          releaseLastStage(ring, guard);
        producer = buildProducer(ws, loop, ring, buffers, producerOps,
                                 producerValues, shared->producer.getResult(0),
                                 shared->producer.getResult(1));
      } else {
        OpBuilder wb(ws);
        ring.allocate(wb, loc, /*publish=*/false);
        producer =
            buildProducer(ws, loop, ring, buffers, producerOps, producerValues);
        // The consumers' stage to read and its full parity, carried by the
        // loop over tiles (from stage 0, parity 0).
        if (tile) {
          OpBuilder tb(tile);
          Value zero = constantI32(tb, 0);
          IRRewriter rewriter(tile.getContext());
          tileReadArg = tile.getNumRegionIterArgs();
          replacedLoops.insert(tile);
          Value producerIv = producerValues.lookup(tile.getInductionVar());
          // (Its induction variable dies with it: no stale key may stay.)
          producerValues.erase(tile.getInductionVar());
          tile = cast<scf::ForOp>(*tile.replaceWithAdditionalYields(
              rewriter, ValueRange{zero, zero},
              /*replaceInitOperandUsesInLoop=*/false,
              [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                return SmallVector<Value>(args.begin(), args.end());
              }));
          // (The new loop's induction variable is a new value, and its
          // body a new block.)
          producerValues.map(tile.getInductionVar(), producerIv);
          b.setInsertionPoint(loop);
        }
      }
      // (Before the rewrite erases the candidates' original buffers.)
      ringStorage = ring.storage();
    } else if (tma) {
      ring.allocate(b, loc);
    }
    // Prologue: iterations 0 .. stages-2, a cp.async group per load and
    // iteration (as Triton commits them: a wait counts loads), TMA copies
    // on the mbarrier of their stage; the pointers for iteration stages-1
    // become loop-carried.
    // (Null for pointers computed in the loop.)
    SmallVector<Value> ptrs;
    for (Candidate &c : candidates)
      ptrs.push_back(c.ptrArg ? loop.getInitArgs()[c.ptrArg.getArgNumber() - 1]
                              : Value());
    for (int64_t k = 0; k + 1 < stages; ++k) {
      Value iv = arith::AddIOp::create(
          b, loc, loop.getLowerBound(),
          arith::MulIOp::create(b, loc, loop.getStep(),
                                constantLike(b, ivType, k)));
      for (auto [c, ptr] : llvm::zip_equal(candidates, ptrs)) {
        // Before the loop the stack's memory may still be pending as read
        // by whatever used it earlier: no reads_retired.
        issueCopy(b, c, iv, ptr, constantI32(b, k), /*readsRetired=*/false);
        commitGroup(b, loc);
        if (ptr)
          ptr = tile::AddPtrOp::create(b, loc, ptr.getType(), ptr, c.step);
      }
      if (tma && !specialize)
        ring.issue(b, loc, iv, constantI32(b, k));
    }
    // The loop gets the pointers of the copy ahead, the buffers to read
    // and to refill, the parity of the mbarrier phase to wait for (TMA),
    // and whether an accumulator from no value has been written (below).
    SmallVector<Value> extraInits;
    for (Value ptr : ptrs)
      if (ptr)
        extraInits.push_back(ptr);
    const unsigned readArg = extraInits.size();
    extraInits.push_back(shared
                             ? shared->consumers->getResult(shared->readResult)
                         : tile ? Value(tile.getRegionIterArgs()[tileReadArg])
                                : constantI32(b, 0));
    // The refilling side (the buffer the copies ahead go to, and the empty
    // phase they wait for) is the loop's own unless a producer issues them.
    const bool refills = !specialize;
    const unsigned writeArg = extraInits.size();
    if (refills)
      extraInits.push_back(constantI32(b, stages - 1));
    const unsigned phaseArg = extraInits.size();
    if (tma)
      extraInits.push_back(
          shared ? shared->consumers->getResult(shared->phaseResult)
          : tile ? Value(tile.getRegionIterArgs()[tileReadArg + 1])
                 : constantI32(b, 0));
    // The parity of the empty-mbarrier phase the refill waits for: 1 (the
    // phase before the first) while the stage was never filled, flipped
    // whenever the stage refilled wraps around.
    const unsigned emptyPhaseArg = extraInits.size();
    if (refills && ring.hasReleases())
      extraInits.push_back(constantI32(b, 1));
    // An async dot whose accumulator starts as zeros starts instead from
    // no value, with use_c false in the first iteration: registers set
    // before the loop would reach the wait after it on the path that skips
    // the loop, and ptxas then serializes every wgmma of the kernel
    // (C7515). The zeros come back after that wait if the loop did not run.
    // An accumulator reset to zeros in the loop (a flattened tile loop) is
    // not set either: the flag, carried, is false after a reset, and the
    // loop carries the dot's result in flight. Warp-specialized consumers
    // (their loop in a loop over tiles, never reset) keep the zeros as the
    // loop's start, which the path that skips the loop takes: from no
    // value, LLVM put the zeros for that path in registers of their own,
    // set while the last group was in flight, and ptxas spilled (in the
    // 128 x 256 GEMM; without it, no C7515 either).
    Value zeroAcc;
    unsigned accIndex = 0;
    const unsigned ranArg = extraInits.size();
    if (asyncDot) {
      accIndex = inFlight->index;
      Value init = loop.getInitArgs()[accIndex];
      bool zeroInit = isZero(init);
      if (zeroInit || inFlight->reset) {
        zeroAcc = zeroInit ? init : inFlight->zeros;
        if (!isLoopInvariant(zeroAcc, loop))
          zeroAcc = b.clone(*zeroAcc.getDefiningOp())->getResult(0);
        extraInits.push_back(arith::ConstantIntOp::create(b, loc, b.getI1Type(),
                                                          zeroInit ? 0 : 1));
      }
      if (zeroInit && !specialize)
        loop.getInitArgsMutable()[accIndex].set(
            ub::PoisonOp::create(b, loc, init.getType()));
    }
    IRRewriter rewriter(loop.getContext());
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, extraInits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> args)
            -> SmallVector<Value> {
          // Filled in below, once the body is rewritten.
          return SmallVector<Value>(args.begin(), args.end());
        }));
    loop = newLoop;
    Block *body = loop.getBody();
    // Block arguments: the induction variable, the original iter_args, the
    // extra ones; yield operands: the same without the induction variable.
    const unsigned firstExtra = loop.getNumRegionIterArgs() - extraInits.size();
    auto extraArg = [&](unsigned i) {
      return loop.getRegionIterArgs()[firstExtra + i];
    };
    Value readIndex = extraArg(readArg);
    unsigned carried = 0;
    for (Candidate &c : candidates)
      if (c.ptrArg)
        c.aheadPtrArg = extraArg(carried++);

    // In the body: wait for this iteration's group or mbarrier phase, read
    // the buffers in the dot operands' layouts (warp_group_dots read this
    // iteration's buffer directly), then, after the last read, issue the
    // copies for iteration i + stages - 1 into the buffers read in the
    // previous iteration.
    Operation *lastRead = nullptr;
    auto readLast = [&](Operation *read) {
      if (!lastRead || lastRead->isBeforeInBlock(read))
        lastRead = read;
    };
    if (cpAsync) {
      // The groups of the stages-2 iterations after this one may stay in
      // flight.
      OpBuilder ib(candidates.front().load);
      tilegpu::AsyncWaitOp::create(
          ib, loc, tilegpu::AsyncTokenType::get(ib.getContext()),
          ValueRange(), int32_t((stages - 2) * int64_t(candidates.size())));
    }
    TmaRing::StageRead stageRead;
    if (tma) {
      stageRead = ring.readStage(loop, readIndex, extraArg(phaseArg));
      readLast(stageRead.lastRead);
    }
    for (Candidate &c : candidates) {
      if (c.alloc) {
        OpBuilder rb(c.alloc);
        Value buffer = tilegpu::MemDescIndexOp::create(
            rb, c.load.getLoc(), oneBuffer(c), c.stack, readIndex);
        if (c.transposed)
          buffer =
              tilegpu::MemDescTransOp::create(rb, c.load.getLoc(), buffer);
        for (Operation *reader : c.alloc->getUsers()) {
          readLast(reader);
          if (isa<tilegpu::MemDescTransOp>(reader))
            for (Operation *dot : reader->getUsers())
              readLast(dot);
        }
        c.alloc.replaceAllUsesWith(buffer);
        // Views of the buffer see it mutable now, as the stack is.
        tilegpu::MemDescTransOp::retypeViewsOf(buffer);
        continue;
      }
      OpBuilder rb(c.convert);
      Value buffer = tilegpu::MemDescIndexOp::create(rb, c.load.getLoc(),
                                                     oneBuffer(c), c.stack,
                                                     readIndex);
      auto read = tilegpu::LocalLoadOp::create(rb, c.convert.getLoc(),
                                               c.convert.getType(), buffer);
      c.convert.replaceAllUsesWith(read.getResult());
      readLast(lastReadOfBuffer(read));
    }
    // Whether the accumulator holds a value after this iteration (false
    // after a reset; null: always).
    Value holdsValue;
    if (asyncDot) {
      // Issue this iteration's wgmma group and go on once the previous
      // iteration's is complete; the accumulator flows on in flight.
      asyncDot.setIsAsync(true);
      if (zeroAcc)
        asyncDot.getUseCMutable().assign(extraArg(ranArg));
      OpBuilder wb(body, std::next(Block::iterator(asyncDot)));
      auto wait = tilegpu::WarpGroupDotWaitOp::create(
          wb, asyncDot.getLoc(), ValueRange{asyncDot.getResult()},
          /*pendings=*/1);
      asyncDot.getResult().replaceAllUsesExcept(wait.getResult(0), wait);
      lastRead = wait;
      holdsValue =
          keepInFlight(*inFlight, wait.getResult(0), body->getTerminator());
      // Warp-specialized, the previous iteration's stage is free for the
      // producer once that wait completed the dot that read it (none in the
      // first iteration).
      if (specialize) {
        OpBuilder rb(body, std::next(Block::iterator(wait)));
        Value later =
            arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::ne,
                                  loop.getInductionVar(), loop.getLowerBound());
        releasePrevious(rb, loc, ring, readIndex, later);
      }
    }
    // The copies ahead go after the iteration's last read of the stages,
    // except in the early-refilled ring (above): the stage they refill was
    // last read in the previous iteration, so they go right after the wait
    // for this iteration's stage and have a whole iteration to land instead
    // of the part after the last read (Passes.td).
    Operation *refillAfter = earlyRefill ? stageRead.wait : lastRead;
    OpBuilder cb(body, std::next(Block::iterator(refillAfter)));
    SmallVector<Value> nextPtrs;
    // The copies for iteration i + stages - 1 (a producer issues them
    // all when warp-specialized).
    if (refills) {
      Value writeIndex = extraArg(writeArg);
      Value aheadIv = arith::AddIOp::create(
          cb, loc, loop.getInductionVar(),
          arith::MulIOp::create(cb, loc, loop.getStep(),
                                constantLike(cb, ivType, stages - 1)));
      for (Candidate &c : candidates) {
        // Without an async dot a copy in the loop goes to a buffer that no
        // access since the iteration's barrier reads, and whose readers of
        // earlier iterations (local_loads, a synchronous dot) completed before
        // that barrier: terrazzo-insert-barriers, which cannot tell the
        // buffers of a stack apart by their dynamic index, needs no barrier
        // of its own in front of it. An async dot of another warp group may
        // still read it. (TMA copies have no such barrier before them.)
        issueCopy(cb, c, aheadIv, c.aheadPtrArg, writeIndex,
                  /*readsRetired=*/!asyncDot && !tma);
        commitGroup(cb, loc);
        if (c.aheadPtrArg)
          nextPtrs.push_back(tile::AddPtrOp::create(
              cb, loc, c.aheadPtrArg.getType(), c.aheadPtrArg, c.step));
      }
      if (tma)
        ring.issue(cb, loc, aheadIv, writeIndex,
                   ring.hasReleases() ? extraArg(emptyPhaseArg) : Value());
    }
    auto advance = [&](Value index) {
      return nextStage(cb, loc, index, buffers);
    };
    Value nextRead = advance(readIndex);
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    auto setYield = [&](unsigned i, Value value) {
      yield->setOperand(firstExtra + i, value);
    };
    for (auto [i, ptr] : llvm::enumerate(nextPtrs))
      setYield(unsigned(i), ptr);
    setYield(readArg, nextRead);
    // The carried parity `arg` flips when the stage index `next` wraps to
    // 0: the next use of each stage's mbarrier waits for the other parity.
    auto flipParity = [&](unsigned arg, Value next) {
      setYield(arg, flipOnWrap(cb, loc, next, extraArg(arg)));
    };
    if (refills) {
      Value nextWrite = advance(extraArg(writeArg));
      setYield(writeArg, nextWrite);
      if (ring.hasReleases())
        flipParity(emptyPhaseArg, nextWrite);
    }
    if (tma)
      flipParity(phaseArg, nextRead);
    if (zeroAcc)
      setYield(ranArg, holdsValue ? holdsValue
                                  : arith::ConstantIntOp::create(
                                        cb, loc, cb.getI1Type(), 1));

    for (Candidate &c : candidates) {
      if (c.alloc)
        c.alloc.erase();
      for (Operation *op : llvm::reverse(c.toAlloc))
        op->erase();
      if (c.convert)
        c.convert.erase();
      c.load.erase();
      for (Operation *op : llvm::reverse(c.slice))
        if (op->use_empty())
          op->erase();
    }
    if (tma)
      ring.eraseOriginals();
    // Tensor maps that only the producer reads now.
    for (Operation *op : producerOps)
      if (isa<tilegpu::TensormapCreateOp>(op) && op->use_empty()) {
        producerValues.erase(op->getResult(0));
        op->erase();
      }
    // After the loop: no copy may still be writing when the buffers'
    // memory is reused (masked copies write their zeros too; TMA copies
    // past the end were not issued, the others were waited for).
    OpBuilder ab(loop->getBlock(), std::next(Block::iterator(loop)));
    if (asyncDot) {
      // The last iteration's group is still in flight.
      Value result = loop.getResult(accIndex);
      // With a zero accumulator, wait only if it holds a value (the loop
      // ran, and did not reset it last), else take the zeros: a branch on the
      // uniform flag, which the wait in it keeps from being folded into a
      // select per element (LLVM pushes such a select below the epilogue's
      // truncation, where each 16-bit select costs a SEL and a PRMT).
      // Warp-specialized without a reset, the zeros are the loop's start,
      // its result when it did not run: the wait needs no branch (with
      // nothing in flight it returns at once), and without one ptxas sees
      // every path from the wgmma to the epilogue's reads pass a wait
      // (given the branch, it injected a wait of its own, warning C7517).
      scf::IfOp ran;
      OpBuilder wb = ab;
      if (zeroAcc && !(specialize && !inFlight->reset)) {
        ran = scf::IfOp::create(ab, loc, TypeRange{result.getType()},
                                loop.getResults().back(),
                                /*withElseRegion=*/true);
        wb = OpBuilder::atBlockEnd(ran.thenBlock());
      }
      auto wait = tilegpu::WarpGroupDotWaitOp::create(
          wb, loc, ValueRange{result}, /*pendings=*/0);
      Value done = wait.getResult(0);
      if (ran) {
        scf::YieldOp::create(wb, loc, done);
        auto elseBuilder = OpBuilder::atBlockEnd(ran.elseBlock());
        Operation *elseYield = scf::YieldOp::create(elseBuilder, loc, zeroAcc);
        done = ran.getResult(0);
        result.replaceUsesWithIf(done, [&](OpOperand &use) {
          return use.getOwner() != wait && use.getOwner() != elseYield;
        });
      } else {
        result.replaceAllUsesExcept(done, wait);
      }
      // Warp-specialized, the last iteration's stage is free now (if the
      // loop ran): the producer refills it for a later loop, or for this
      // one in the next tile. (In a branch of its own: in the one of the
      // wait, ptxas copies the accumulator around the arrival and spills.)
      if (specialize) {
        OpBuilder rb = ab;
        rb.setInsertionPointAfter(ran ? ran.getOperation()
                                      : wait.getOperation());
        releasePrevious(
            rb, loc, ring, loop.getResult(firstExtra + readArg),
            arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::slt,
                                  loop.getLowerBound(), loop.getUpperBound()));
      }
    }
    if (cpAsync)
      tilegpu::AsyncWaitOp::create(
          ab, loc, tilegpu::AsyncTokenType::get(ab.getContext()),
          ValueRange(), 0);
    for (Candidate &c : candidates)
      tilegpu::LocalDeallocOp::create(ab, loc, c.stack);
    if (specialize && !shared) {
      // After the producer is done too (and any later loop sharing it).
      OpBuilder eb(ws->getBlock(), std::next(Block::iterator(ws)));
      ring.release(eb, loc);
    } else if (tma && !specialize) {
      ring.release(ab, loc);
    }
    // Several dots reading the stacks: overlapped within the iteration,
    // a dot chain across two (rotated first).
    scf::ForOp rotated;
    if (!asyncDot) {
      rotated = rotate ? rotateDotChain(loop) : scf::ForOp();
      if (!rotated)
        overlapWarpGroupDots(loop);
    }
    // The next specialized loop of the function goes on in this ring
    // where this one leaves it: the guard of the rotated chain carries the
    // loop's results, or the loop itself (a dot kept in flight).
    if (specialize) {
      auto guard =
          rotated ? dyn_cast<scf::IfOp>(rotated->getParentOp()) : scf::IfOp();
      Operation *results = guard                      ? guard.getOperation()
                           : asyncDot || softmaxTurns ? loop.getOperation()
                                                      : nullptr;
      if (results)
        specializedRings[ws->getParentOp()] = SpecializedRing{
            ringStorage,           producer, results,    firstExtra + readArg,
            firstExtra + phaseArg, tile,     tileReadArg};
      else
        specializedRings.erase(ws->getParentOp());
      if (tile && results) {
        // The next tile's consumers go on from where this loop leaves
        // the ring (the producer's tile loop does the same), and the
        // stage its last iteration read is released for that tile's
        // refills (a loop whose dot stays in flight released every stage
        // it read).
        Operation *yield = tile.getBody()->getTerminator();
        yield->setOperand(tileReadArg,
                          results->getResult(firstExtra + readArg));
        yield->setOperand(tileReadArg + 1,
                          results->getResult(firstExtra + phaseArg));
        if (guard)
          releaseLastStage(ring, guard);
      }
    }
    if (!asyncDot) {
      if (ring.hasReleases())
        releaseStages(ring, rotated ? rotated : loop);
      if (pingPong != PingPong::Never && ring.hasReleases() && rotated &&
          candidates.empty())
        takeTurns(rotated);
      if (softmaxTurns && ring.hasReleases())
        takeSoftmaxTurns(loop);
    }
  }

  /// Releases the stage before `index` (if `condition`, when given).
  void releasePrevious(OpBuilder &b, Location loc, TmaRing &ring, Value index,
                       Value condition) {
    OpBuilder::InsertionGuard guard(b);
    if (condition) {
      auto when = scf::IfOp::create(b, loc, TypeRange(), condition,
                                    /*withElseRegion=*/false);
      b.setInsertionPoint(when.thenBlock()->getTerminator());
    }
    ring.releaseStage(b, loc, previousStage(b, loc, index, buffers));
  }

  /// Releases the stage that the last iteration of a rotated chain read
  /// (in `guard`, after its second dot, synchronous there), which its own
  /// loop left unreleased since no refill followed: a later loop's producer
  /// now refills it.
  void releaseLastStage(TmaRing &ring, scf::IfOp guard) {
    Block *then = guard.thenBlock();
    for (Operation &op : llvm::reverse(then->without_terminator())) {
      auto dot = dyn_cast<tilegpu::WarpGroupDotOp>(&op);
      Value index;
      if (!dot || !ring.isStageOf(dot.getB(), index))
        continue;
      OpBuilder b(then, std::next(Block::iterator(dot)));
      ring.releaseStage(b, dot.getLoc(), index);
      return;
    }
    guard.emitError("terrazzo-pipeline: no dot of the rotated chain's last "
                    "iteration reads the shared ring, whose stage must be "
                    "released");
    broken = true;
  }

  /// With TMA releases (a dot chain), each iteration releases the stage
  /// its second dot read once that dot is complete (the last wait for a
  /// dot reading the ring, at the end of the iteration): the first dot's
  /// reads of it completed before. Rotated, that is the previous
  /// iteration's stage, and the last one's, after the loop, needs no
  /// release (no refill follows); unrotated, this iteration's.
  void releaseStages(TmaRing &ring, scf::ForOp rotated) {
    Block *body = rotated.getBody();
    for (Operation &op : llvm::reverse(*body)) {
      auto wait = dyn_cast<tilegpu::WarpGroupDotWaitOp>(&op);
      if (!wait || wait.getPendings() != 0)
        continue;
      for (Value waited : wait.getInputs()) {
        auto dot = waited.getDefiningOp<tilegpu::WarpGroupDotOp>();
        Value index;
        if (!dot || dot->getBlock() != body || !ring.isStageOf(dot.getB(), index))
          continue;
        OpBuilder b(body, std::next(Block::iterator(wait)));
        ring.releaseStage(b, dot.getLoc(), index);
        return;
      }
    }
    // The refills would wait forever.
    rotated.emitError("terrazzo-pipeline: no wait completes the dot chain's "
                      "second dot, whose TMA stage must be released");
    broken = true;
  }

  /// A rotated chain whose warp groups hold rows of their own (every dot's
  /// warps along M, at least two warp groups) and meet at no barrier of the
  /// whole program in the loop (all its loads on TMA, whose stages are
  /// released through mbarriers) takes turns issuing its dots
  /// (FlashAttention-3's ping-pong): each iteration waits for its turn in front
  /// of the first dot and passes it on after the second, so that one warp
  /// group's dots run while the others compute their softmax. The last warp
  /// group passes the first turn before the loop; warp group 0 takes the last
  /// pass after it. With ping-pong=auto, only a warp-specialized chain
  /// whose first dot reduces over kPingPongMinReduction or more.
  void takeTurns(scf::ForOp rotated) {
    SmallVector<tilegpu::WarpGroupDotOp> dots;
    if (!dotsSplitRows(rotated, dots))
      return;
    if (pingPong == PingPong::Softmax ||
        (pingPong == PingPong::Auto &&
         (!specialize || firstDotReduction(rotated) < kPingPongMinReduction)))
      return;
    OpBuilder b(dots[0]);
    Location loc = rotated.getLoc();
    tilegpu::WarpGroupTurnWaitOp::create(b, loc, ValueRange(), IntegerAttr());
    b.setInsertionPointAfter(dots[1]);
    tilegpu::WarpGroupTurnPassOp::create(b, loc, ValueRange(), IntegerAttr());
    turnsAround(rotated);
  }

  /// The turns' ends around `loop`: the last warp group passes the first
  /// turn before it, warp group 0 takes the last pass after it.
  void turnsAround(scf::ForOp loop) {
    unsigned warps = tilegpu::getNumWarps(loop);
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    tilegpu::WarpGroupTurnPassOp::create(
        b, loc, ValueRange(),
        b.getI32IntegerAttr(int32_t(warps / tilegpu::kWarpsPerGroup - 1)));
    b.setInsertionPointAfter(loop);
    tilegpu::WarpGroupTurnWaitOp::create(b, loc, ValueRange(),
                                         b.getI32IntegerAttr(0));
  }

  /// An unrotated warp-specialized chain's warp groups take turns around
  /// their exponentials (cuDNN's schedule): each iteration waits for its
  /// turn once its row vectors (the maximum) are computed and passes it
  /// once the row sums of the exponentials are, so that one warp group's
  /// exponentials run alone on the special-function units while the
  /// other's dots and row maximum run. The row vectors pass through the
  /// wait and the sums into the pass (see tilegpu.warp_group_turn_wait):
  /// the assembler moves arithmetic across barriers otherwise.
  void takeSoftmaxTurns(scf::ForOp loop) {
    std::optional<SoftmaxTurns> turns = findSoftmaxTurns(loop);
    if (!turns)
      return;
    Block *body = loop.getBody();
    auto latest = [&](ArrayRef<Value> values) {
      Operation *last = nullptr;
      for (Value value : values) {
        Operation *def = value.getDefiningOp();
        if (!last || last->isBeforeInBlock(def))
          last = def;
      }
      return last;
    };
    Location loc = turns->exp.getLoc();
    OpBuilder b(loop.getContext());
    b.setInsertionPointAfter(latest(turns->rows));
    auto wait = tilegpu::WarpGroupTurnWaitOp::create(b, loc, turns->rows,
                                                     IntegerAttr());
    for (auto [row, tied] : llvm::zip_equal(turns->rows, wait.getResults()))
      row.replaceUsesWithIf(tied, [&](OpOperand &use) {
        Operation *user = body->findAncestorOpInBlock(*use.getOwner());
        return user && user != wait && wait->isBeforeInBlock(user);
      });
    b.setInsertionPointAfter(latest(turns->sums));
    tilegpu::WarpGroupTurnPassOp::create(b, loc, turns->sums, IntegerAttr());
    turnsAround(loop);
  }

  scf::ForOp loop;
  int64_t stages;
  /// Whether TMA chains take turns (the pass's ping-pong option).
  PingPong pingPong;
  /// The pass's rotate-one-warp-group option.
  bool rotateOneWarpGroup;
  /// A specialized chain left unrotated, whose warp groups take turns
  /// around their exponentials (takeSoftmaxTurns).
  bool softmaxTurns = false;
  bool ringsFit;
  /// The loop's one dot when it can run asynchronously across iterations
  /// (asyncCandidate, found before the rewrite).
  std::optional<InFlightAccumulator> inFlight;
  /// Buffers per stack: stages, one more for a rotated dot chain.
  int64_t buffers = 0;
  bool rotate = false;
  /// Warp-specialized (tl.range(..., warp_specialize=True)): the ops a
  /// producer clones (producerSlice), non-empty when it applies.
  bool specialize = false;
  SmallVector<Operation *> producerOps;
  const ModuleAxisInfoAnalysis &axisInfo;
  /// The values warp-specialized producers cloned (shared by the loops of
  /// a function: its producer builds each tensor map once).
  IRMapping &producerValues;
  /// Per function, the ring its warp-specialized loops share.
  DenseMap<Operation *, SpecializedRing> &specializedRings;
  /// Loops this pipeliner replaced (a loop over tiles given iter_args):
  /// the pass's list of loops still names them.
  DenseSet<Operation *> &replacedLoops;
  SmallVector<Candidate> candidates;
  SmallVector<TmaCandidate> tmaCandidates;
};

/// Shared memory left, beside the rings, the buffers allocated outside
/// loops and the largest conversion outside them, for the scratch of the
/// other ops there (an epilogue's reductions).
constexpr int64_t kScratchRoom = 1024;

/// Whether `loop`'s own body holds a dot: only such a loop pipelines
/// loads (a loop over tiles around pipelined loops holds none).
bool hasDotInBody(scf::ForOp loop) {
  return llvm::any_of(*loop.getBody(), [](Operation &op) {
    return isa<tile::DotOp, tilegpu::WarpGroupDotOp>(op);
  });
}

/// Whether `alloc` stages a block for TMA stores only: written from a
/// value, read by async_tma_copy_local_to_global ops alone.
bool isTmaStoreStaging(tilegpu::LocalAllocOp alloc) {
  return alloc.getSrc() && !alloc->use_empty() &&
         llvm::all_of(alloc->getUsers(), [](Operation *user) {
           return isa<tilegpu::AsyncTMACopyLocalToGlobalOp>(user);
         });
}

/// Whether the TMA rings and cp.async stacks that `loops` (a function's,
/// with their depths) would get fit in the target's shared memory together
/// with the rest of the kernel: the ring of a warp-specialized loop lives
/// as long as the kernel, so no later buffer can take its place.
bool ringsFitTogether(ArrayRef<std::pair<scf::ForOp, int64_t>> loops) {
  if (loops.empty())
    return false;
  std::optional<::terrazzo::Target> target = tilegpu::getTarget(loops.front().first);
  if (!target)
    return false;
  int64_t bytes = 0;
  // The warp-specialized loops' rings, counted once per shape: a later
  // loop whose copies fill the same buffers shares an earlier one's.
  SmallVector<std::pair<int64_t, SmallVector<Type>>> specializedRings;
  for (auto [loop, stages] : loops) {
    if (stages < 2 || !hasDotInBody(loop))
      continue;
    // A rotated chain's ring has one stage more; the stacks of loads that
    // stay pointer loads (cp.async) count as much, at most.
    const int64_t buffers = stages + (isDotChain(loop) ? 1 : 0);
    int64_t loopBytes = 0;
    SmallVector<Type> ringTypes;
    for (Operation &op : *loop.getBody()) {
      Type type;
      if (auto copy = dyn_cast<tilegpu::AsyncTMACopyGlobalToLocalOp>(&op)) {
        if (std::optional<TmaCandidate> c = matchTmaCandidate(copy, loop)) {
          type = c->buffer.getType();
          ringTypes.push_back(type);
        }
      } else if (auto load = dyn_cast<tile::LoadOp>(&op)) {
        type = load.getType();
      }
      if (auto shaped = dyn_cast_or_null<ShapedType>(type))
        loopBytes += buffers * bufferBytes(shaped);
    }
    if (loop->hasAttr(tile::TileDialect::kWarpSpecializeAttrName) &&
        !ringTypes.empty()) {
      std::pair<int64_t, SmallVector<Type>> ring{stages, ringTypes};
      if (llvm::is_contained(specializedRings, ring))
        continue;
      specializedRings.push_back(std::move(ring));
    }
    bytes += loopBytes;
  }
  // Beside them, the buffers the function allocates outside pipelined
  // loops (a dot's operand staged once, such as attention's Q, maybe in a
  // persistent kernel's loop over tiles) or the largest layout conversion
  // outside them (through shared memory at most its tensor's bytes),
  // whichever is more: the epilogue's conversions come after the loops,
  // when the staged operands are dead; and room for the other ops'
  // scratch (reductions).
  auto func = loops.front().first->getParentOfType<func::FuncOp>();
  int64_t staged = 0, conversion = 0;
  func.walk([&](Operation *op) {
    // Outside pipelined loops: in no loop but an scf.for without a dot of
    // its own (a loop over tiles).
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      if (loop ? hasDotInBody(loop) : isa<LoopLikeOpInterface>(parent))
        return;
    }
    if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op)) {
      // A block staged for a TMA store (an epilogue's, written once and
      // read by the store alone) comes after the loops, like the
      // epilogue's conversions.
      if (isTmaStoreStaging(alloc))
        conversion = std::max(conversion, bufferBytes(alloc.getType()));
      else
        staged += bufferBytes(alloc.getType());
    } else if (auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(op))
      conversion = std::max(conversion, bufferBytes(convert.getType()));
  });
  return bytes + std::max(staged, conversion) + kScratchRoom <=
         int64_t(target->maxSharedMemoryBytes);
}

/// Moves each `tilegpu.local_alloc` of a value (an operand staged in shared
/// memory once, such as attention's Q) that sits outside loops down to its
/// first reader in its block, when a pipelined loop's setup (tensor maps,
/// mbarriers, the TMA or cp.async copies ahead) lies between: the load of
/// the value is issued first and lands while that setup runs, instead of
/// being waited for before it. A new buffer cannot alias anything before
/// it exists, so the move changes no result; the load's registers live a
/// little longer.
void sinkStagedOperands(func::FuncOp func) {
  SmallVector<tilegpu::LocalAllocOp> allocs;
  func.walk([&](tilegpu::LocalAllocOp alloc) {
    if (alloc.getSrc() && !alloc->getParentOfType<LoopLikeOpInterface>())
      allocs.push_back(alloc);
  });
  auto hasLoop = [](Operation *op) {
    return op->walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  for (tilegpu::LocalAllocOp alloc : allocs) {
    Block *block = alloc->getBlock();
    // Its proxy fence goes with it.
    SmallVector<Operation *> fences;
    Operation *first = nullptr;
    for (Operation *user : alloc->getUsers()) {
      if (isa<tilegpu::FenceAsyncSharedOp>(user) &&
          user->getBlock() == block) {
        fences.push_back(user);
        continue;
      }
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (inBlock && (!first || inBlock->isBeforeInBlock(first)))
        first = inBlock;
    }
    if (!first)
      continue;
    // Past a pipelined loop's setup (tensor maps, mbarriers, the copies
    // ahead, TMA or cp.async, in guards), never past a loop: the value's
    // registers would be held through it.
    Operation *to = first;
    bool setup = false;
    for (Operation *op = alloc->getNextNode(); op != first;
         op = op->getNextNode()) {
      if (llvm::is_contained(fences, op))
        continue;
      if (hasLoop(op)) {
        to = op;
        break;
      }
      setup |= isa<tilegpu::TensormapCreateOp, tilegpu::MBarrierInitOp,
                   tilegpu::AsyncTMACopyGlobalToLocalOp,
                   tilegpu::AsyncCopyGlobalToLocalOp>(op) ||
               op->getNumRegions() != 0;
    }
    if (!setup)
      continue;
    alloc->moveBefore(to);
    for (Operation *fence : fences)
      fence->moveBefore(to);
  }
}

struct PipelinePass
    : public mlir::terrazzo::impl::TerrazzoPipelineBase<PipelinePass> {
  using TerrazzoPipelineBase::TerrazzoPipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyTensorsHaveLayouts(module, getArgument())))
      return signalPassFailure();
    std::optional<PingPong> turns =
        llvm::StringSwitch<std::optional<PingPong>>(pingPong)
            .Case("auto", PingPong::Auto)
            .Case("always", PingPong::Always)
            .Case("never", PingPong::Never)
            .Case("softmax", PingPong::Softmax)
            .Default(std::nullopt);
    if (!turns) {
      module.emitError() << getArgument() << ": ping-pong must be auto, "
                         << "always, never or softmax, not '" << pingPong
                         << "'";
      return signalPassFailure();
    }
    int64_t stages = numStages;
    if (auto attr = module->getAttrOfType<IntegerAttr>(
            tilegpu::TileGPUDialect::kNumStagesAttrName))
      stages = attr.getInt();
    // Each loop's depth: its own (tl.range(..., num_stages=N)), else the
    // kernel's; nothing to analyse when none reaches two.
    SmallVector<std::pair<scf::ForOp, int64_t>> loops;
    bool any = false;
    module.walk([&](scf::ForOp loop) {
      int64_t depth = stages;
      if (auto own = loop->getAttrOfType<IntegerAttr>(
              tile::TileDialect::kNumStagesAttrName))
        depth = own.getInt();
      loops.push_back({loop, depth});
      any |= depth >= 2;
    });
    if (!any)
      return;
    ModuleAxisInfoAnalysis axisInfo(module);
    IRMapping producerValues;
    DenseMap<Operation *, SpecializedRing> specializedRings;
    DenseMap<Operation *, SmallVector<std::pair<scf::ForOp, int64_t>>> byFunction;
    for (auto [loop, depth] : loops)
      byFunction[loop->getParentOfType<func::FuncOp>()].push_back({loop, depth});
    DenseMap<Operation *, bool> ringsFit;
    DenseSet<Operation *> replacedLoops;
    for (auto &[func, funcLoops] : byFunction)
      ringsFit[func] = ringsFitTogether(funcLoops);
    for (auto [loop, loopStages] : loops) {
      if (replacedLoops.contains(loop))
        continue;
      // Integer bounds only (the frontend's loops are i32).
      if (!loop.getInductionVar().getType().isInteger() ||
          loop.getUnsignedCmp())
        continue;
      if (loopStages < 2)
        continue;
      if (registers) {
        (void)prefetchThroughRegisters(loop);
        continue;
      }
      LoopPipeliner pipeliner(
          loop, loopStages, *turns, rotateOneWarpGroup, axisInfo,
          producerValues, specializedRings,
          ringsFit.lookup(loop->getParentOfType<func::FuncOp>()),
          replacedLoops);
      (void)pipeliner.run();
      if (pipeliner.broken)
        return signalPassFailure();
    }
    for (auto &entry : byFunction)
      sinkStagedOperands(cast<func::FuncOp>(entry.first));
  }
};

} // namespace
