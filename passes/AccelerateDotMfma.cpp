// The CDNA part of terrazzo-accelerate-dot: see AccelerateDotMfma.h.
#include "passes/AccelerateDotMfma.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::terrazzo;
using ::terrazzo::MatrixInstruction;
using ::terrazzo::MatrixOperand;
using ::terrazzo::Target;

namespace {

bool hasInstruction(const Target &target, MatrixOperand operand) {
  for (const MatrixInstruction &instruction : target.matrixInstructions())
    if (instruction.a == operand)
      return true;
  return false;
}

} // namespace

std::optional<MatrixOperand>
mlir::terrazzo::matrixOperandOf(Type type, tile::InputPrecision precision,
                                const Target &target) {
  if (type.isF32())
    // tf32 asks for no more than 10 bits of mantissa: xf32 where the chip
    // has it, float32 products (more precise) elsewhere, as for ieee and
    // tf32x3.
    return precision == tile::InputPrecision::TF32 &&
                   hasInstruction(target, MatrixOperand::XF32)
               ? MatrixOperand::XF32
               : MatrixOperand::F32;
  if (type.isF16())
    return MatrixOperand::F16;
  if (type.isBF16())
    return MatrixOperand::BF16;
  if (type.isInteger(8))
    return MatrixOperand::I8;
  // The fp8 instructions take the chip's formats only: FNUZ on CDNA3
  // (gfx942), OCP on CDNA4 (gfx950).
  if (target.fp8 == Target::Fp8::FNUZ) {
    if (isa<Float8E4M3FNUZType>(type))
      return MatrixOperand::F8E4M3;
    if (isa<Float8E5M2FNUZType>(type))
      return MatrixOperand::F8E5M2;
  }
  if (target.fp8 == Target::Fp8::OCP) {
    if (isa<Float8E4M3FNType>(type))
      return MatrixOperand::F8E4M3;
    if (isa<Float8E5M2Type>(type))
      return MatrixOperand::F8E5M2;
  }
  return std::nullopt;
}

std::optional<MatrixInstruction> mlir::terrazzo::chooseMatrixInstruction(
    tile::DotOp dot, tile::InputPrecision precision, const Target &target) {
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  RankedTensorType dType = dot.getType();
  if (aType.getRank() != 2)
    return std::nullopt;
  std::optional<MatrixOperand> a =
      matrixOperandOf(aType.getElementType(), precision, target);
  std::optional<MatrixOperand> b =
      matrixOperandOf(bType.getElementType(), precision, target);
  if (!a || !b)
    return std::nullopt;
  // The instructions accumulate in float32 (int32 for int8); a float16
  // result is converted from it.
  Type d = dType.getElementType();
  if (*a == MatrixOperand::I8 ? !d.isInteger(32) : !(d.isF32() || d.isF16()))
    return std::nullopt;
  int64_t m = aType.getShape()[0], k = aType.getShape()[1];
  int64_t n = bType.getShape()[1];
  for (const MatrixInstruction &instruction : target.matrixInstructions())
    if (instruction.a == *a && instruction.b == *b && m >= instruction.m &&
        n >= instruction.n && k % instruction.k == 0)
      return instruction;
  return std::nullopt;
}
