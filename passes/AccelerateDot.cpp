// terrazzo-accelerate-dot: see Passes.td.
#include "passes/Passes.h"
#include "passes/AccelerateDotWgmma.h"

#include "backends/Target.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/LayoutUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOACCELERATEDOT
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// Elements per 32-bit operand register of the mma.sync instruction for
/// this dot, or 0 when no mma.sync computes it (the FMA lowering does).
unsigned mmaV2KWidth(tile::DotOp dot) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  Type a = aType.getElementType(), b = bType.getElementType();
  Type d = dot.getType().getElementType();
  if (a != b || aType.getRank() != 2)
    return 0;
  unsigned kWidth = 0;
  if ((a.isF16() && (d.isF32() || d.isF16())) || (a.isBF16() && d.isF32()))
    kWidth = 2;
  else if (a.isF32() && d.isF32() &&
           dot.getInputPrecision() == tile::InputPrecision::TF32)
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
/// dimension with more 16 x 8 instruction tiles left per warp (M on ties),
/// so that warps neither hold copies nor starve one dimension.
std::pair<unsigned, unsigned> warpsPerTile(int64_t m, int64_t n,
                                           unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    int64_t tilesM = m / (16 * wm), tilesN = n / (8 * wn);
    if (tilesM >= tilesN && tilesM > 1)
      wm *= 2;
    else if (tilesN > 1)
      wn *= 2;
    else
      wm *= 2; // more warps than tiles: the extra ones hold copies
  }
  return {wm, wn};
}

void accelerate(tile::DotOp dot, unsigned kWidth, unsigned numWarps) {
  MLIRContext *context = dot.getContext();
  RankedTensorType dType = dot.getType();
  auto [wm, wn] =
      warpsPerTile(dType.getShape()[0], dType.getShape()[1], numWarps);
  auto mma = tilegpu::NvidiaMmaLayoutAttr::get(context, 2, {wm, wn}, {16, 8});
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
    auto targetName = module->getAttrOfType<StringAttr>(
        tilegpu::TileGPUDialect::kTargetAttrName);
    auto warps = module->getAttrOfType<IntegerAttr>(
        tilegpu::TileGPUDialect::kNumWarpsAttrName);
    if (!targetName || !warps) {
      module.emitError("terrazzo-accelerate-dot needs a module converted by "
                       "terrazzo-convert-tile-to-tilegpu (target and warps)");
      return signalPassFailure();
    }
    std::string error;
    std::optional<::terrazzo::Target> target =
        ::terrazzo::Target::parse(targetName.getValue(), error);
    if (!target) {
      module.emitError(error);
      return signalPassFailure();
    }
    // mma.sync exists from sm_80 on; wgmma (sm_90a) comes later and takes
    // over there.
    if (target->capability < 80)
      return;
    SmallVector<std::pair<tile::DotOp, unsigned>> dots;
    module.walk([&](tile::DotOp dot) {
      if (isa_and_nonnull<tilegpu::NvidiaMmaLayoutAttr>(
              dot.getType().getEncoding()))
        return;
      dots.push_back({dot, mmaV2KWidth(dot)});
    });
    for (auto [dot, kWidth] : dots) {
      // wgmma first where it applies (sm_90a); mma.sync otherwise.
      if (accelerateDotWithWgmma(dot, target->capability, warps.getInt()))
        continue;
      if (kWidth)
        accelerate(dot, kWidth, warps.getInt());
    }
  }
};

} // namespace
