// tile.dot on AMD's matrix cores (MFMA): the result is in #tilegpu.amd_mfma
// and the operands in its #tilegpu.dot_operand layouts
// (terrazzo-accelerate-dot puts them there, having chosen one of the
// target's Target::matrixInstructions), so every lane holds exactly the
// fragments of its wavefront's instructions. As for mma.sync, registers are
// found through the layouts' coordinates: for each s x s result tile and
// each instruction's step of K, lane 0's coordinates of the fragment
// (MmaLayouts.h) name the registers. float16 results accumulate in float32
// and are rounded after the dot's last instruction. A transposed result
// (isTransposed) is the instructions' B^T A^T: the operands swap places.
#include "backends/amd/AMDPatterns.h"

#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/AccelerateDotMfma.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;
using ::terrazzo::MatrixInstruction;
using ::terrazzo::MatrixOperand;

namespace {

bool isFp8(MatrixOperand operand) {
  return operand == MatrixOperand::F8E4M3 || operand == MatrixOperand::F8E5M2;
}

/// The ROCDL op of `instruction`: rocdl.mfma.<f32|i32>.<m>x<n>x<k><types>,
/// CDNA2's spellings for the instructions it introduced (no separator,
/// bf16 as "bf16.1k"), "." before the types of the later ones.
std::string mfmaOpName(const MatrixInstruction &instruction) {
  std::string name = instruction.a == MatrixOperand::I8 ? "rocdl.mfma.i32."
                                                        : "rocdl.mfma.f32.";
  name += std::to_string(instruction.m) + "x" + std::to_string(instruction.n) +
          "x" + std::to_string(instruction.k);
  // CDNA2's instructions take 4 elements (one float32) per lane.
  bool cdna2 = instruction.kWidth() == 4 || instruction.a == MatrixOperand::F32;
  auto fp8Name = [](MatrixOperand operand) {
    return operand == MatrixOperand::F8E4M3 ? "fp8" : "bf8";
  };
  switch (instruction.a) {
  case MatrixOperand::F32:
    return name + "f32";
  case MatrixOperand::XF32:
    return name + ".xf32";
  case MatrixOperand::F16:
    return name + (cdna2 ? "f16" : ".f16");
  case MatrixOperand::BF16:
    return name + (cdna2 ? "bf16.1k" : ".bf16");
  case MatrixOperand::I8:
    return name + (cdna2 ? "i8" : ".i8");
  case MatrixOperand::F8E4M3:
  case MatrixOperand::F8E5M2:
    return name + "." + fp8Name(instruction.a) + "." + fp8Name(instruction.b);
  }
  return name;
}

/// The LLVM type one lane passes an operand of `instruction` as (its
/// kWidth elements of `element`, the converted element type): float32
/// scalars, vectors of 16-bit floats (bfloat16 as i16 for CDNA2's), and
/// 8-bit elements packed into i32, i64 or vector<4xi32>.
Type operandType(MLIRContext *context, const MatrixInstruction &instruction,
                 Type element) {
  unsigned kWidth = instruction.kWidth();
  Builder b(context);
  if (instruction.a == MatrixOperand::I8 || isFp8(instruction.a)) {
    unsigned bits = 8 * kWidth;
    if (bits <= 64)
      return b.getIntegerType(bits);
    return VectorType::get({bits / 32}, b.getI32Type());
  }
  if (kWidth == 1)
    return element;
  if (instruction.a == MatrixOperand::BF16 && kWidth == 4)
    return VectorType::get({kWidth}, b.getI16Type());
  return VectorType::get({kWidth}, element);
}

struct MfmaDotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  MfmaDotOpConversion(TileGPUTypeConverter &converter,
                      const ::terrazzo::Target &target)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2), target(target) {}

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mfma = dyn_cast_or_null<tilegpu::AmdMfmaLayoutAttr>(
        op.getType().getEncoding());
    if (!mfma)
      return failure();
    if (failed(checkDotLowering(op)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    RankedTensorType dType = op.getType();
    auto aLayoutAttr = cast<tilegpu::DotOperandLayoutAttr>(aType.getEncoding());
    auto bLayoutAttr = cast<tilegpu::DotOperandLayoutAttr>(bType.getEncoding());
    unsigned size = mfma.getInstrShape()[0];
    unsigned kWidth = aLayoutAttr.getKWidth();

    // The instruction: the target's of these operand types, tile size and
    // k per lane.
    std::optional<MatrixOperand> aOperand =
        matrixOperandOf(aType.getElementType(), op.getInputPrecision(), target);
    std::optional<MatrixOperand> bOperand =
        matrixOperandOf(bType.getElementType(), op.getInputPrecision(), target);
    // A transposed result is computed as B^T A^T: the instruction takes B's
    // fragments as its A and A's as its B.
    bool transposed = mfma.getIsTransposed();
    if (transposed)
      std::swap(aOperand, bOperand);
    std::optional<MatrixInstruction> instruction;
    if (aOperand && bOperand && bLayoutAttr.getKWidth() == kWidth)
      for (const MatrixInstruction &candidate : target.matrixInstructions())
        if (candidate.a == *aOperand && candidate.b == *bOperand &&
            candidate.m == size && candidate.kWidth() == kWidth)
          instruction = candidate;
    if (!instruction)
      return op.emitOpError("has no MFMA instruction on ")
             << target.name << " for " << aType.getElementType() << " x "
             << bType.getElementType() << " in " << size << " x " << size
             << " tiles with " << kWidth << " k per lane";
    OperationName opName(mfmaOpName(*instruction), context);
    if (!opName.isRegistered())
      return op.emitOpError("internal error: no ROCDL op ")
             << opName.getStringRef();

    LinearLayout aLayout = *getLinearLayout(aType);
    LinearLayout bLayout = *getLinearLayout(bType);
    LinearLayout dLayout = *getLinearLayout(dType);
    std::map<Coordinates, int32_t> aIndex = registerIndex(aLayout);
    std::map<Coordinates, int32_t> bIndex = registerIndex(bLayout);
    std::map<Coordinates, int32_t> dIndex = registerIndex(dLayout);
    auto missing = [&] {
      return op.emitOpError("internal error: an MFMA fragment element is "
                            "missing from the lane's registers");
    };

    const TypeConverter *converter = getTypeConverter();
    Type aElement = converter->convertType(aType.getElementType());
    Type bElement = converter->convertType(bType.getElementType());
    Type aRegister = operandType(context, *instruction, aElement);
    Type bRegister = operandType(context, *instruction, bElement);
    Type resultElement = converter->convertType(dType.getElementType());
    bool isInteger = instruction->a == MatrixOperand::I8;
    Type accElement =
        isInteger ? rewriter.getI32Type() : Type(rewriter.getF32Type());
    int32_t accRegisters = int32_t(size * size / 64);
    auto accType = VectorType::get({accRegisters}, accElement);
    Value zero = i32Constant(rewriter, loc, 0);

    SmallVector<Value> a = unpackStruct(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackStruct(rewriter, loc, adaptor.getB());
    SmallVector<Value> results = unpackStruct(rewriter, loc, adaptor.getC());

    SmallVector<int32_t> mOrigins = tileOrigins(dLayout, 0, int32_t(size));
    SmallVector<int32_t> nOrigins = tileOrigins(dLayout, 1, int32_t(size));
    int64_t k = aType.getShape()[1];
    int32_t kStep = int32_t(instruction->k);
    for (int32_t m0 : mOrigins) {
      for (int32_t n0 : nOrigins) {
        // Accumulator register e of lane 0: row (e % 4) + 8 (e / 4) of the
        // tile, its column 0 (transposed: row 0, that column).
        SmallVector<int32_t> cReg(accRegisters);
        Value acc = LLVM::UndefOp::create(rewriter, loc, accType);
        for (int32_t e = 0; e < accRegisters; ++e) {
          int32_t along = e % 4 + 8 * (e / 4);
          Coordinates at = transposed ? Coordinates{m0, n0 + along}
                                      : Coordinates{m0 + along, n0};
          if (!findRegister(dIndex, at, cReg[e]))
            return missing();
          Value value = results[cReg[e]];
          if (value.getType() != accElement)
            value = LLVM::FPExtOp::create(rewriter, loc, accElement, value);
          acc = LLVM::InsertElementOp::create(rewriter, loc, acc, value,
                                              i32Constant(rewriter, loc, e));
        }
        for (int32_t k0 = 0; k0 < k; k0 += kStep) {
          SmallVector<Value> aParts, bParts;
          for (int32_t w = 0; w < int32_t(kWidth); ++w) {
            int32_t aReg, bReg;
            if (!findRegister(aIndex, {m0, k0 + w}, aReg) ||
                !findRegister(bIndex, {k0 + w, n0}, bReg))
              return missing();
            aParts.push_back(a[aReg]);
            bParts.push_back(b[bReg]);
          }
          // cbsz, abid, blgp: no broadcast between blocks, no lane swizzle.
          OperationState state(loc, opName);
          Value aFragment = packRegister(rewriter, loc, aParts, aRegister);
          Value bFragment = packRegister(rewriter, loc, bParts, bRegister);
          if (transposed)
            std::swap(aFragment, bFragment);
          state.addOperands({aFragment, bFragment, acc, zero, zero, zero});
          state.addTypes(accType);
          acc = rewriter.create(state)->getResult(0);
        }
        for (int32_t e = 0; e < accRegisters; ++e) {
          Value value = LLVM::ExtractElementOp::create(
              rewriter, loc, acc, i32Constant(rewriter, loc, e));
          if (resultElement != accElement)
            value =
                LLVM::FPTruncOp::create(rewriter, loc, resultElement, value);
          results[cReg[e]] = value;
        }
      }
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, converter->convertType(dType), results));
    return success();
  }

private:
  const ::terrazzo::Target &target;
};

} // namespace

void mlir::terrazzo::populateMfmaDotOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ::terrazzo::Target &target) {
  patterns.add<MfmaDotOpConversion>(converter, target);
}
