// terrazzo-decompose-tf32x3: see Passes.td.
#include "backends/nvidia/Passes.h"
#include "passes/AccelerateDot.h"

#include "target/Target.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZODECOMPOSETF32X3
#include "backends/nvidia/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The sign, exponent and top 10 mantissa bits of a float32: a tf32 value,
/// which the tensor cores read exactly. Truncating takes one `and` where
/// rounding to nearest would take a conversion, and the remainder is exact
/// in float32 either way (it has at most 13 significant bits, of which the
/// tensor cores read the top 10; what that loses, like the small x small
/// product the split leaves out, is of the order of 2^-20 of the product).
constexpr uint32_t kTf32Bits = 0xFFFFE000u;

bool isTf32x3Dot(tile::DotOp dot) {
  auto isF32 = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType().isF32();
  };
  return dot.getInputPrecision() == tile::InputPrecision::TF32x3 &&
         isF32(dot.getA()) && isF32(dot.getB()) && isF32(dot.getResult());
}

/// `operand` as a tf32 part and a float32 remainder that add up to it
/// exactly, both in `operand`'s layout.
std::pair<Value, Value> splitTf32(OpBuilder &builder, Location loc,
                                  Value operand) {
  // Split before the conversion to the dot's operand layout: the parts then
  // reach the new dots through conversions like the one of the original
  // operand, which terrazzo-accelerate-dot replaces by its own (and the wgmma
  // path looks through to find what to store).
  Value source = operand;
  if (auto convert = operand.getDefiningOp<tilegpu::ConvertLayoutOp>())
    source = convert.getSrc();
  auto type = cast<RankedTensorType>(source.getType());
  auto bitsType = type.clone(builder.getI32Type());
  Value bits = arith::BitcastOp::create(builder, loc, bitsType, source);
  Value mask = arith::ConstantOp::create(
      builder, loc, bitsType,
      DenseElementsAttr::get(bitsType, APInt(32, kTf32Bits)));
  Value big = arith::BitcastOp::create(
      builder, loc, type, arith::AndIOp::create(builder, loc, bits, mask));
  // Infinities are deliberately not special-cased (their remainder is
  // inf - inf = NaN, which turns the results they reach from infinite to
  // NaN): Triton's tf32x3 behaves the same, those results are not finite
  // either way and still read as such, and keeping them infinite would
  // cost a select on every operand element of every dot.
  Value small = arith::SubFOp::create(builder, loc, source, big);
  Attribute layout = cast<RankedTensorType>(operand.getType()).getEncoding();
  return {convertToLayout(builder, loc, big, layout),
          convertToLayout(builder, loc, small, layout)};
}

void decompose(tile::DotOp dot) {
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  auto [aBig, aSmall] = splitTf32(builder, loc, dot.getA());
  auto [bBig, bSmall] = splitTf32(builder, loc, dot.getB());
  auto tf32Dot = [&](Value a, Value b, Value c) -> Value {
    return tile::DotOp::create(builder, loc, dot.getType(), a, b, c,
                               tile::InputPrecision::TF32,
                               dot.getMaxNumImpreciseAcc());
  };
  // The two correction terms are each below 2^-10 of the full product:
  // summed first, they round at their own magnitude instead of each being
  // rounded against the large partial sum.
  Value acc = tf32Dot(aSmall, bBig, dot.getC());
  acc = tf32Dot(aBig, bSmall, acc);
  Value d = tf32Dot(aBig, bBig, acc);
  dot.getResult().replaceAllUsesWith(d);
  // The operands' conversions to the FMA layouts are dead now; dropping
  // them here spares the passes before the next canonicalization from
  // working on them.
  SmallVector<Operation *, 2> conversions;
  for (Value operand : {dot.getA(), dot.getB()})
    if (auto convert = operand.getDefiningOp<tilegpu::ConvertLayoutOp>())
      if (!llvm::is_contained(conversions, convert))
        conversions.push_back(convert);
  dot.erase();
  for (Operation *convert : conversions)
    if (convert->use_empty())
      convert->erase();
}

struct DecomposeTf32x3Pass
    : public mlir::terrazzo::impl::TerrazzoDecomposeTf32x3Base<
          DecomposeTf32x3Pass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ModuleTarget> target =
        getModuleTarget(module, "terrazzo-decompose-tf32x3");
    if (failed(target))
      return signalPassFailure();
    // Three tf32 products are only worth it on tensor cores; where a tf32
    // dot would run on FMAs, the tf32x3 dot does too, in full float32.
    SmallVector<tile::DotOp> dots;
    module.walk([&](tile::DotOp dot) {
      if (isTf32x3Dot(dot) &&
          isTensorCoreDot(dot, tile::InputPrecision::TF32,
                          target->target.capability, target->numWarps))
        dots.push_back(dot);
    });
    for (tile::DotOp dot : dots)
      decompose(dot);
  }
};

} // namespace
