// tile.dot on Hopper's wgmma (sm_90a): see AccelerateDotWgmma.h.
//
// The operands are stored into shared memory by tilegpu.local_alloc (from
// whatever layout they have), in the layout the instruction's matrix
// descriptors address; the accumulator and result get the wgmma
// accumulator layout, through convert_layout that
// terrazzo-remove-layout-conversions later moves or removes. An operand
// defined outside the dot's block (a loop-invariant Q) is stored once,
// where it is defined, and made visible to the tensor cores' (async)
// proxy there by a tilegpu.fence_async_shared, not by a fence in every
// iteration of the loop (see getBufferWriters). A 16-bit A computed from
// another dot's result (the probabilities of attention, softmax(Q K^T))
// stays in registers instead, in the dot-operand layout of A: when the
// warp groups tile only M, that layout is the first dot's accumulator
// layout relabelled, and the conversion between them moves nothing.
#include "passes/AccelerateDotWgmma.h"
#include "passes/AccelerateDot.h"

#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mlir;

namespace {

/// K of one wgmma for these operand and result types in `precision`, or 0
/// when no wgmma computes them. Only float32 accumulators for now: the
/// lowering does not pack float16 accumulators into f16x2 registers (those
/// dots keep mma.sync).
int64_t wgmmaK(tile::DotOp dot, tile::InputPrecision precision) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type a = aType.getElementType(), b = bType.getElementType();
  Type d = dot.getType().getElementType();
  if (!d.isF32())
    return 0;
  auto isFp8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(type);
  };
  if (isFp8(a) && isFp8(b) && (d.isF16() || d.isF32()))
    return 32;
  if (a != b)
    return 0;
  if (a.isF16() && (d.isF16() || d.isF32()))
    return 16;
  if (a.isBF16() && d.isF32())
    return 16;
  if (a.isF32() && d.isF32() && precision == tile::InputPrecision::TF32)
    return 8;
  return 0;
}

/// The dimension along which consecutive elements of a tensor's layout sit
/// in a thread's registers (dim 1 unless the layout says otherwise): the
/// one to keep contiguous in shared memory so that stores are vectors.
unsigned fastestDim(RankedTensorType type) {
  if (auto blocked =
          dyn_cast_or_null<tilegpu::BlockedLayoutAttr>(type.getEncoding()))
    return blocked.getOrder().front();
  return 1;
}

/// The 2-D value whose transpose `operand` is (tile.trans, through layout
/// conversions on both sides), or null.
Value transposedFrom(Value operand) {
  auto trans = operand.getDefiningOp<tile::TransOp>();
  if (!trans || trans.getOrder().size() != 2 || trans.getOrder()[0] != 1)
    return Value();
  Value src = trans.getSrc();
  while (auto convert = src.getDefiningOp<tilegpu::ConvertLayoutOp>())
    src = convert.getSrc();
  return src;
}

/// The widest swizzle whose rows (W bytes along the contiguous dimension)
/// fit in `bytes`, W at most `limit`; 0 (16-byte rows, no swizzle) when
/// only that fits, -1 when not even 16 bytes do.
int swizzleFor(int64_t bytes, int64_t limit) {
  for (int width : {128, 64, 32})
    if (width <= bytes && width <= limit)
      return width;
  return bytes >= 16 ? 0 : -1;
}

/// The nvmma_shared layout of operand `opIdx` (A: M x K, B: K x N), or
/// null. 16-bit operands keep the dimension their layout holds
/// contiguously (wgmma transposes 16-bit operands in shared memory); the
/// others must be K-major. MN-major operands need a swizzle (the PTX ISA
/// defines MN-major layouts without swizzle differently) whose rows fit in
/// one instruction's M (64) or N (`instrN`), so that each instruction
/// starts at a swizzle row; if not they are stored K-major.
tilegpu::NvmmaSharedLayoutAttr operandLayout(RankedTensorType type,
                                             unsigned contiguousDim,
                                             unsigned opIdx, unsigned instrN) {
  unsigned bits = type.getElementTypeBitWidth();
  int64_t bytes = bits / 8;
  unsigned kDim = opIdx == 0 ? 1 : 0;
  unsigned mnDim = 1 - kDim;
  bool mnMajor = bits == 16 && contiguousDim == mnDim;
  if (mnMajor) {
    int64_t instrMN = opIdx == 0 ? 64 : instrN;
    int swizzle =
        swizzleFor(type.getShape()[mnDim] * bytes, instrMN * bytes);
    if (swizzle > 0)
      return tilegpu::NvmmaSharedLayoutAttr::get(
          type.getContext(), swizzle, /*transposed=*/mnDim == 0, bits);
  }
  int swizzle = swizzleFor(type.getShape()[kDim] * bytes, 128);
  if (swizzle < 0)
    return {};
  return tilegpu::NvmmaSharedLayoutAttr::get(
      type.getContext(), swizzle, /*transposed=*/kDim == 0, bits);
}

/// How one operand reaches shared memory: `source` stored in `layout`, or,
/// for the transpose of a value (tl.trans(do) in attention's backward),
/// that value stored in the transposed layout and read through
/// memdesc_trans, so that one buffer serves the value and its transpose.
struct OperandPlan {
  Value source;
  tilegpu::NvmmaSharedLayoutAttr layout;
  bool viaTranspose = false;
};

/// The plan for operand `opIdx` (whose value, before its conversions, is
/// `operand`) or nullopt when no nvmma_shared layout holds it.
std::optional<OperandPlan> planOperand(Value operand, unsigned opIdx,
                                       unsigned instrN) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (Value inner = transposedFrom(operand)) {
    // The transpose's contiguous dimension is the other one of the
    // value's; store the value in the transpose of that layout.
    unsigned contiguous =
        1 - fastestDim(cast<RankedTensorType>(inner.getType()));
    if (auto layout = operandLayout(type, contiguous, opIdx, instrN)) {
      auto view = tilegpu::MemDescType::get(
          type.getContext(), type.getShape(), type.getElementType(), layout,
          /*mutableMemory=*/false);
      auto stored = tilegpu::MemDescTransOp::transposedType(view);
      return OperandPlan{
          inner, cast<tilegpu::NvmmaSharedLayoutAttr>(stored.getEncoding()),
          /*viaTranspose=*/true};
    }
  }
  if (auto layout = operandLayout(type, fastestDim(type), opIdx, instrN))
    return OperandPlan{operand, layout};
  return std::nullopt;
}

/// Registers of a consumer thread that a warp-specialized loop's dots may
/// hold with a loop-invariant A kept in registers: the accumulators, the
/// A operands in registers and that A. The rest of the 232 a consumer
/// thread gets (two consumer warp groups) holds the softmax's temporaries,
/// addresses and loop state. Tutorial 06's D=64 chain holds 144 with Q
/// (64 + 32 accumulators, 32 of P, 16 of Q): no spills, and the forward
/// 1-3% faster from 4k keys on an H200 (bench/RESULTS.md, session 32); its
/// D=128 chain would hold 192, and was 1-4% slower so (ptxas spills 16
/// bytes in the persistent kernel).
constexpr int64_t kInvariantARegisterBudget = 160;

/// 32-bit registers per thread that `type` takes spread over `threads`.
int64_t registersPerThread(RankedTensorType type, unsigned threads) {
  int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
  return llvm::divideCeil(bits, 32 * int64_t(threads));
}

/// Whether `dot`'s A, a 16-bit value defined outside the warp-specialized
/// loop the dot is in (attention's Q), is better kept in registers than
/// read from shared memory by every iteration's wgmma: each of those reads
/// costs shared-memory operand traffic (Q is a fifth of what attention's
/// key loop reads at head dimension 64, a loop bound by power rather than
/// by cycles), while registers cost one conversion outside the loop. Only in
/// a warp-specialized loop, whose program runs alone on its multiprocessor
/// whatever its register count: elsewhere the registers can halve the
/// programs that fit (tutorial 06's D=64 causal kernel, 127 -> 152
/// registers, two programs per SM -> one, 14-24% slower); and only within
/// kInvariantARegisterBudget.
bool keepInvariantAInRegisters(tile::DotOp dot, Value a, unsigned numWarps) {
  auto loop = dot->getParentOfType<scf::ForOp>();
  if (!loop || !loop->hasAttr(tile::TileDialect::kWarpSpecializeAttrName) ||
      loop->isAncestor(a.getParentBlock()->getParentOp()))
    return false;
  unsigned threads = numWarps * 32;
  int64_t registers =
      registersPerThread(cast<RankedTensorType>(a.getType()), threads);
  loop->walk([&](Operation *op) {
    if (!isa<tile::DotOp, tilegpu::WarpGroupDotOp>(op))
      return;
    registers += registersPerThread(
        cast<RankedTensorType>(op->getResult(0).getType()), threads);
    // A operands already in registers (attention's P).
    Value opA = op->getOperand(0);
    auto type = dyn_cast<RankedTensorType>(opA.getType());
    if (type && (isa<tilegpu::WarpGroupDotOp>(op) ||
                 mlir::terrazzo::computedFromDot(opA)))
      registers += registersPerThread(type, threads);
  });
  return registers <= kInvariantARegisterBudget;
}

/// Sets `builder` right after `value`'s definition (the start of its block
/// for a block argument): where an operand defined outside the dot's block
/// is staged once.
void setInsertionPointAtDefinition(OpBuilder &builder, Value value) {
  if (Operation *producer = value.getDefiningOp())
    builder.setInsertionPointAfter(producer);
  else
    builder.setInsertionPointToStart(value.getParentBlock());
}

/// What the rewrite of a dot into a warp_group_dot needs: how the operands
/// reach shared memory (A maybe kept in registers) and the accumulator's
/// layout.
struct WgmmaPlan {
  Value aSource;
  OperandPlan a, b;
  tilegpu::NvidiaMmaLayoutAttr mma;
  bool aInRegisters = false;
};

/// The plan for `dot` computed in `precision`, or nullopt when wgmma cannot
/// compute it (see accelerateDotWithWgmma).
std::optional<WgmmaPlan> planWgmma(tile::DotOp dot,
                                   tile::InputPrecision precision,
                                   unsigned capability, unsigned numWarps) {
  // wgmma exists on sm_90a only (sm_100 replaced it with tcgen05.mma).
  if (capability != 90 || numWarps % tilegpu::kWarpsPerGroup != 0)
    return std::nullopt;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  RankedTensorType dType = dot.getType();
  int64_t kStep = wgmmaK(dot, precision);
  if (!kStep || aType.getRank() != 2)
    return std::nullopt;
  int64_t m = dType.getShape()[0], n = dType.getShape()[1];
  int64_t k = aType.getShape()[1];
  for (int64_t size : {m, n, k})
    if (!llvm::isPowerOf2_64(uint64_t(size)))
      return std::nullopt;
  if (m % 64 != 0 || k % kStep != 0)
    return std::nullopt;
  // Warp groups go along M first (each takes 64-row tiles), the rest
  // along N; one instruction covers the warp group's share of N.
  unsigned groups = numWarps / tilegpu::kWarpsPerGroup;
  unsigned groupsM = std::min<int64_t>(groups, m / 64);
  unsigned groupsN = groups / groupsM;
  if (n % groupsN != 0 || n / groupsN < 8)
    return std::nullopt;
  unsigned instrN = std::min<int64_t>(256, n / groupsN);

  // Store the operands from before their layout conversions (to the FMA
  // layouts terrazzo-convert-tile-to-tilegpu gave them, and from the
  // layouts terrazzo-coalesce gave loads back to the default one): the
  // store moves the data anyway, and the first layout tells which dimension
  // is contiguous. Stopping at the default layout would also let
  // terrazzo-remove-layout-conversions recompute a K-contiguous load in it
  // (one byte per access for fp8) to feed the buffer.
  auto source = [](Value operand) -> Value {
    while (auto convert = operand.getDefiningOp<tilegpu::ConvertLayoutOp>())
      operand = convert.getSrc();
    return operand;
  };
  WgmmaPlan plan;
  plan.aSource = source(dot.getA());
  // A in registers: 16-bit, from a dot or loop-invariant (see
  // keepInvariantAInRegisters), and each warp group computing whole rows
  // (with warp groups along N each would need all of A, which the first
  // dot spread over them).
  plan.aInRegisters = aType.getElementTypeBitWidth() == 16 && groupsN == 1 &&
                      (mlir::terrazzo::computedFromDot(plan.aSource) ||
                       keepInvariantAInRegisters(dot, plan.aSource, numWarps));
  if (!plan.aInRegisters) {
    std::optional<OperandPlan> a = planOperand(plan.aSource, 0, instrN);
    if (!a)
      return std::nullopt;
    plan.a = *a;
  }
  std::optional<OperandPlan> b = planOperand(source(dot.getB()), 1, instrN);
  if (!b)
    return std::nullopt;
  plan.b = *b;
  plan.mma = tilegpu::NvidiaMmaLayoutAttr::get(
      dot.getContext(), 3, {4 * groupsM, groupsN},
      {16, instrN, unsigned(kStep)});
  return plan;
}

} // namespace

bool mlir::terrazzo::canAccelerateDotWithWgmma(tile::DotOp dot,
                                               tile::InputPrecision precision,
                                               unsigned capability,
                                               unsigned numWarps) {
  return planWgmma(dot, precision, capability, numWarps).has_value();
}

bool mlir::terrazzo::accelerateDotWithWgmma(tile::DotOp dot,
                                            unsigned capability,
                                            unsigned numWarps) {
  std::optional<WgmmaPlan> plan =
      planWgmma(dot, dot.getInputPrecision(), capability, numWarps);
  if (!plan)
    return false;
  MLIRContext *context = dot.getContext();
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  // The buffer of an operand defined outside the dot's block is written
  // where the operand is defined (once, not on every iteration of the
  // loops around the dot), fenced for the async proxy right there, and
  // shared by the dots that read it. In the dot's block, a buffer an
  // earlier dot stored the same value into, in the same layout, serves
  // this one too (dV's B, dO, and dP^T's, dO^T, in attention's backward).
  auto store = [&](Value operand,
                   tilegpu::NvmmaSharedLayoutAttr layout) -> Value {
    auto type = cast<RankedTensorType>(operand.getType());
    auto memType = tilegpu::MemDescType::get(context, type.getShape(),
                                             type.getElementType(), layout,
                                             /*mutableMemory=*/false);
    OpBuilder::InsertionGuard guard(builder);
    Block *home = operand.getParentBlock();
    if (home == dot->getBlock())
      for (Operation *user : operand.getUsers())
        if (auto existing = dyn_cast<tilegpu::LocalAllocOp>(user))
          if (existing.getType() == memType &&
              existing->getBlock() == home && existing->isBeforeInBlock(dot))
            return existing.getResult();
    if (home != dot->getBlock()) {
      for (Operation *user : operand.getUsers())
        if (auto existing = dyn_cast<tilegpu::LocalAllocOp>(user))
          if (existing.getType() == memType && existing->getBlock() == home)
            return existing.getResult();
      setInsertionPointAtDefinition(builder, operand);
      Value buffer =
          tilegpu::LocalAllocOp::create(builder, loc, memType, operand);
      tilegpu::FenceAsyncSharedOp::create(builder, loc, ValueRange{buffer});
      return buffer;
    }
    return tilegpu::LocalAllocOp::create(builder, loc, memType, operand)
        .getResult();
  };
  auto alloc = [&](const OperandPlan &operand) -> Value {
    Value buffer = store(operand.source, operand.layout);
    if (!operand.viaTranspose)
      return buffer;
    return tilegpu::MemDescTransOp::create(builder, loc, buffer);
  };
  // A kept in registers is converted to the operand layout where it is
  // defined when that is outside the dot's block (a loop-invariant A, once
  // rather than on every iteration), else at the dot.
  auto inRegisters = [&]() -> Value {
    OpBuilder::InsertionGuard guard(builder);
    Value source = plan->aSource;
    if (source.getParentBlock() != dot->getBlock())
      setInsertionPointAtDefinition(builder, source);
    return convertToLayout(builder, dot.getA().getLoc(), source,
                           tilegpu::DotOperandLayoutAttr::get(context, 0,
                                                              plan->mma,
                                                              /*kWidth=*/2));
  };
  Value a = plan->aInRegisters ? inRegisters() : alloc(plan->a);
  Value b = alloc(plan->b);
  // A zero accumulator is not read (use_c = false): no registers to clear
  // before the instructions, which would otherwise have to wait for them.
  Value c, useC;
  Value init = dot.getC();
  while (auto convert = init.getDefiningOp<tilegpu::ConvertLayoutOp>())
    init = convert.getSrc();
  if (matchPattern(init, m_AnyZeroFloat()) || matchPattern(init, m_Zero())) {
    auto type = cast<RankedTensorType>(dot.getC().getType());
    c = ub::PoisonOp::create(builder, loc, type.cloneWithEncoding(plan->mma));
    useC = arith::ConstantOp::create(builder, loc, builder.getBoolAttr(false));
  } else {
    c = convertToLayout(builder, dot.getC().getLoc(), dot.getC(), plan->mma);
  }
  auto wgmma = tilegpu::WarpGroupDotOp::create(
      builder, loc, c.getType(), a, b, c, useC,
      dot.getInputPrecision(),
      dot.getMaxNumImpreciseAcc());
  Value result =
      convertToLayout(builder, wgmma.getResult().getLoc(), wgmma.getResult(),
                      dot.getType().getEncoding());
  dot.getResult().replaceAllUsesWith(result);
  dot.erase();
  return true;
}
