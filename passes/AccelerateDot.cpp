// terrazzo-accelerate-dot: see Passes.td.
#include "passes/AccelerateDot.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "passes/AccelerateDotMfma.h"
#include "passes/AccelerateDotWgmma.h"
#include "passes/Passes.h"

#include "target/Target.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/LayoutPropagation.h"
#include "passes/LayoutUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOACCELERATEDOT
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Elements per 32-bit operand register of the mma.sync instruction for
/// this dot in `precision` on a target of compute capability `capability`,
/// or 0 when no mma.sync computes it (the FMA lowering does).
unsigned mmaV2KWidth(tile::DotOp dot, tile::InputPrecision precision,
                     unsigned capability) {
  // mma.sync exists from sm_80 on.
  if (capability < 80)
    return 0;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type a = aType.getElementType(), b = bType.getElementType();
  Type d = dot.getType().getElementType();
  if (a != b || aType.getRank() != 2)
    return 0;
  unsigned kWidth = 0;
  if ((a.isF16() && (d.isF32() || d.isF16())) || (a.isBF16() && d.isF32()))
    kWidth = 2;
  else if (a.isF32() && d.isF32() && precision == tile::InputPrecision::TF32)
    kWidth = 1;
  else if (a.isInteger(8) && d.isInteger(32))
    kWidth = 4;
  if (!kWidth)
    return 0;
  // One instruction takes 16 x (8 kWidth) of A and (8 kWidth) x 8 of B.
  int64_t m = aType.getShape()[0], k = aType.getShape()[1];
  int64_t n = bType.getShape()[1];
  if (m < 16 || n < 8 || k % (8 * kWidth) != 0)
    return 0;
  return kWidth;
}

/// Warps along M and N for an M x N result: each doubling goes to the
/// dimension with more tileM x tileN instruction tiles left per warp (M on
/// ties), so that warps neither hold copies nor starve one dimension.
std::pair<unsigned, unsigned> warpsPerTile(int64_t m, int64_t n,
                                           unsigned numWarps, int64_t tileM,
                                           int64_t tileN) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    int64_t tilesM = m / (tileM * wm), tilesN = n / (tileN * wn);
    if (tilesM >= tilesN && tilesM > 1)
      wm *= 2;
    else if (tilesN > 1)
      wn *= 2;
    else
      wm *= 2; // more warps than tiles: the extra ones hold copies
  }
  return {wm, wn};
}

bool isFp8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

bool hasFp8Operands(tile::DotOp dot) {
  return isFp8(getElementTypeOrSelf(dot.getA().getType())) ||
         isFp8(getElementTypeOrSelf(dot.getB().getType()));
}

bool isFnuz(Type type) {
  return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(type);
}

bool hasFnuzOperands(tile::DotOp dot) {
  return isFnuz(getElementTypeOrSelf(dot.getA().getType())) ||
         isFnuz(getElementTypeOrSelf(dot.getB().getType()));
}

/// `dot` with its fp8 operands converted to float16 (exactly: every value
/// of the OCP formats e4m3fn and e5m2 and of the FNUZ ones is a float16
/// value), as Triton does where no matrix instruction takes the operands'
/// fp8 format: mma.sync on NVIDIA, the f16 MFMA on AMD (and the FMA
/// lowering, which cannot widen fp8 bytes itself) then computes the same
/// products. The conversion runs before the operand's layout conversion, in
/// the layout it was loaded in, and carries the dot's location so that an
/// error names the user's line. Other operands stay as they are.
tile::DotOp widenFp8Operands(tile::DotOp dot) {
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  auto widen = [&](Value operand) -> Value {
    auto type = cast<RankedTensorType>(operand.getType());
    if (!isFp8(type.getElementType()) && !isFnuz(type.getElementType()))
      return operand;
    Value source = operand;
    if (auto convert = operand.getDefiningOp<tilegpu::ConvertLayoutOp>())
      source = convert.getSrc();
    auto sourceType = cast<RankedTensorType>(source.getType());
    // f8E5M2FNUZ's smallest exponent (-15) is below float16's normal ones,
    // so LLVM's semantics do not call the conversion exact (tile.fp_to_fp
    // then wants a rounding mode), but each of its subnormal-in-float16
    // values is a multiple of 2^-17, which float16 represents: nothing
    // rounds.
    tile::RoundingModeAttr rounding;
    if (!llvm::APFloat::isRepresentableBy(
            cast<FloatType>(sourceType.getElementType()).getFloatSemantics(),
            builder.getF16Type().getFloatSemantics()))
      rounding = tile::RoundingModeAttr::get(builder.getContext(),
                                             tile::RoundingMode::RTNE);
    Value wide = tile::FpToFpOp::create(
        builder, loc, sourceType.clone(builder.getF16Type()), source, rounding);
    return convertToLayout(builder, loc, wide, type.getEncoding());
  };
  Value a = widen(dot.getA()), b = widen(dot.getB());
  auto wide = tile::DotOp::create(builder, loc, dot.getType(), a, b, dot.getC(),
                                  dot.getInputPrecision(),
                                  dot.getMaxNumImpreciseAcc());
  dot.getResult().replaceAllUsesWith(wide.getResult());
  dot.erase();
  return wide;
}

/// How many values (ops) the walks along a chain of dots visit at most:
/// the chains they are for are a few ops long, a softmax's branch included.
constexpr unsigned kChainWalkBound = 128;

/// Whether `op` computes tensors from tensors without choosing a layout of
/// its own: the ops a chain of dots passes through.
bool passesChain(Operation *op) {
  return isLayoutAgnosticElementwise(op) ||
         isa<tilegpu::ConvertLayoutOp, tile::BroadcastOp, tile::ExpandDimsOp,
             tile::ReduceOp>(op);
}

/// `dot` with its result in the accumulator layout `makeLayout(warps along
/// M, warps along N)` of instructions computing tileM x tileN, and its
/// operands in that layout's dot-operand layouts of `kWidth`.
void accelerate(
    tile::DotOp dot, unsigned kWidth, unsigned numWarps, int64_t tileM,
    int64_t tileN,
    llvm::function_ref<tilegpu::DistributedLayoutAttr(unsigned, unsigned)>
        makeLayout) {
  MLIRContext *context = dot.getContext();
  RankedTensorType dType = dot.getType();
  auto [wm, wn] = warpsPerTile(dType.getShape()[0], dType.getShape()[1],
                               numWarps, tileM, tileN);
  // In a chain of dots every warp takes whole rows: the A operand of the
  // second dot is then the first dot's accumulator relabelled (no warp
  // needs rows another computed).
  if ((feedsDotOperandA(dot) || computedFromDot(dot.getA())) &&
      dType.getShape()[0] >= tileM * int64_t(numWarps)) {
    wm = numWarps;
    wn = 1;
  }
  tilegpu::DistributedLayoutAttr mma = makeLayout(wm, wn);
  auto aLayout = tilegpu::DotOperandLayoutAttr::get(context, 0, mma, kWidth);
  auto bLayout = tilegpu::DotOperandLayoutAttr::get(context, 1, mma, kWidth);

  OpBuilder builder(dot);
  Value a = convertToLayout(builder, dot.getA().getLoc(), dot.getA(), aLayout);
  Value b = convertToLayout(builder, dot.getB().getLoc(), dot.getB(), bLayout);
  Value c = convertToLayout(builder, dot.getC().getLoc(), dot.getC(), mma);
  auto newDot = tile::DotOp::create(
      builder, dot.getLoc(), c.getType(), a, b, c, dot.getInputPrecision(),
      dot.getMaxNumImpreciseAcc());
  Value result = convertToLayout(builder, newDot.getResult().getLoc(),
                                 newDot.getResult(), dType.getEncoding());
  dot.getResult().replaceAllUsesWith(result);
  dot.erase();
}

struct AccelerateDotPass
    : public mlir::terrazzo::impl::TerrazzoAccelerateDotBase<
          AccelerateDotPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ModuleTarget> moduleTarget =
        getModuleTarget(module, "terrazzo-accelerate-dot");
    if (failed(moduleTarget))
      return signalPassFailure();
    const ::terrazzo::Target &target = moduleTarget->target;
    unsigned numWarps = moduleTarget->numWarps;
    unsigned capability = target.capability;
    SmallVector<tile::DotOp> dots;
    module.walk([&](tile::DotOp dot) {
      if (!isa_and_nonnull<tilegpu::MatrixAccumulatorLayoutAttr>(
              dot.getType().getEncoding()))
        dots.push_back(dot);
    });
    if (target.isHIP()) {
      accelerateOnMatrixCores(dots, target, numWarps);
      return;
    }
    bool failed = false;
    for (tile::DotOp dot : dots) {
      // wgmma first where it applies (sm_90a, fp8 included); mma.sync
      // (sm_80 and newer) otherwise.
      if (hasFnuzOperands(dot)) {
        dot.emitOpError("multiplies ")
            << getElementTypeOrSelf(dot.getA().getType()) << " by "
            << getElementTypeOrSelf(dot.getB().getType())
            << ": the FNUZ fp8 formats are those of AMD's gfx942; "
            << target.name << " has no instruction for them";
        failed = true;
        continue;
      }
      if (accelerateDotWithWgmma(dot, capability, numWarps))
        continue;
      if (hasFp8Operands(dot)) {
        // The widening conversion is sm_89's cvt; say so at the dot rather
        // than at a conversion the user did not write.
        if (target.isCUDA() && capability < 89) {
          dot.emitOpError("multiplies ")
              << getElementTypeOrSelf(dot.getA().getType()) << " by "
              << getElementTypeOrSelf(dot.getB().getType())
              << ": fp8 dots need sm_89 or newer (mma.sync on float16 "
                 "converted from fp8 there, wgmma on sm_90a), the target is "
                 "sm_"
              << capability;
          failed = true;
          continue;
        }
        dot = widenFp8Operands(dot);
        // K a multiple of 16 but not of 32: wgmma takes float16.
        if (accelerateDotWithWgmma(dot, capability, numWarps))
          continue;
      }
      if (unsigned kWidth =
              mmaV2KWidth(dot, dot.getInputPrecision(), capability))
        accelerate(dot, kWidth, numWarps, 16, 8, [&](unsigned wm, unsigned wn) {
          return tilegpu::NvidiaMmaLayoutAttr::get(dot.getContext(), 2,
                                                   {wm, wn}, {16, 8});
        });
    }
    if (failed)
      signalPassFailure();
  }

  /// HIP: the target's matrix-core instruction where one computes the dot
  /// (AccelerateDotMfma.h), the FMA lowering elsewhere; fp8 in a format
  /// the chip does not multiply is widened to float16 first.
  void accelerateOnMatrixCores(ArrayRef<tile::DotOp> dots,
                               const ::terrazzo::Target &target,
                               unsigned numWarps) {
    for (tile::DotOp dot : dots) {
      std::optional<::terrazzo::MatrixInstruction> instruction =
          chooseMatrixInstruction(dot, dot.getInputPrecision(), target);
      if (!instruction && (hasFp8Operands(dot) || hasFnuzOperands(dot))) {
        // An fp8 format the chip's matrix cores do not multiply (OCP fp8
        // on gfx942, whose MFMA takes FNUZ; FNUZ on gfx950, whose MFMA
        // takes OCP; any fp8 on gfx90a) or a shape no fp8 instruction
        // takes: the f16 MFMA on the operands widened exactly.
        dot = widenFp8Operands(dot);
        instruction =
            chooseMatrixInstruction(dot, dot.getInputPrecision(), target);
      }
      if (!instruction)
        continue;
      unsigned size = instruction->m;
      // A chain of dots whose warps take whole rows takes the transposed
      // result where kWidth is 4: the head's registers are then the next
      // dot's A operand (AMDAttrs.td), and the tail's the same layout, so
      // that the row statistics the chain carries (attention's max and
      // sum) need no conversion between them. Elsewhere P goes through LDS
      // either way, and the plain layout is kept.
      bool chain = feedsDotOperandA(dot) || computedFromDot(dot.getA());
      accelerate(dot, instruction->kWidth(), numWarps, instruction->m,
                 instruction->n, [&](unsigned wm, unsigned wn) {
                   bool transposed =
                       chain && wn == 1 && instruction->kWidth() == 4;
                   return tilegpu::AmdMfmaLayoutAttr::get(
                       dot.getContext(), {wm, wn}, {size, size}, transposed);
                 });
    }
  }
};

} // namespace

bool mlir::terrazzo::computedFromDot(Value value) {
  llvm::SetVector<Value> seen;
  seen.insert(value);
  Block *block = value.getParentBlock();
  for (unsigned i = 0; i < seen.size() && i < kChainWalkBound; ++i) {
    Operation *op = seen[i].getDefiningOp();
    if (!op || !block->findAncestorOpInBlock(*op))
      continue;
    if (isa<tile::DotOp, tilegpu::WarpGroupDotOp>(op))
      return true;
    // A value chosen by an scf.if of the block (attention's probabilities
    // recomputed only when a row's maximum moves): what either branch
    // yields for it.
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      unsigned index = cast<OpResult>(seen[i]).getResultNumber();
      for (Region &region : branch->getRegions())
        if (!region.empty())
          seen.insert(region.front().getTerminator()->getOperand(index));
      continue;
    }
    if (!passesChain(op))
      continue;
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        seen.insert(operand);
  }
  return false;
}

bool mlir::terrazzo::feedsDotOperandA(tile::DotOp dot) {
  llvm::SetVector<Operation *> seen;
  seen.insert(dot);
  for (unsigned i = 0; i < seen.size() && i < kChainWalkBound; ++i) {
    for (OpOperand &use : seen[i]->getUses()) {
      Operation *user = use.getOwner();
      if (!dot->getBlock()->findAncestorOpInBlock(*user))
        continue;
      if (isa<tile::DotOp>(user) && use.getOperandNumber() == 0)
        return true;
      // Yielded by a branch of an scf.if: on through the scf.if's results.
      if (isa<scf::YieldOp>(user) && isa<scf::IfOp>(user->getParentOp()))
        seen.insert(user->getParentOp());
      else if (passesChain(user))
        seen.insert(user);
    }
  }
  return false;
}

bool mlir::terrazzo::isTensorCoreDot(tile::DotOp dot,
                                     tile::InputPrecision precision,
                                     unsigned capability, unsigned numWarps) {
  // The order of runOnOperation: wgmma where it applies, else mma.sync.
  return canAccelerateDotWithWgmma(dot, precision, capability, numWarps) ||
         mmaV2KWidth(dot, precision, capability) != 0;
}

FailureOr<ModuleTarget> mlir::terrazzo::getModuleTarget(ModuleOp module,
                                                        StringRef pass) {
  std::optional<::terrazzo::Target> target = tilegpu::getTarget(module);
  if (!target || !module->hasAttr(tilegpu::TileGPUDialect::kNumWarpsAttrName))
    return module.emitError(pass)
           << " needs a module converted by terrazzo-convert-tile-to-tilegpu "
              "(target and warps)";
  return ModuleTarget{*target, tilegpu::getNumWarps(module)};
}
