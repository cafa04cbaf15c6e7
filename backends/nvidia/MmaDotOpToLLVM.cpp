// tile.dot on tensor cores with mma.sync (sm_80+): the result is in
// #tilegpu.nvidia_mma (version 2) and the operands in #tilegpu.dot_operand
// layouts (terrazzo-accelerate-dot puts them there), so every thread holds
// exactly the fragments of its warp's instructions. Registers are found
// through the layouts' coordinates rather than a fixed ordering: for each
// 16 x 8 result tile and each instruction-sized step of K, the lane-0
// coordinates of the PTX fragment (MmaLayouts.h) name the registers.
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct MmaOperandTypes {
  NVVM::MMATypes ptxType;
  Type registerType; // what one 32-bit operand register is passed as
};

std::optional<MmaOperandTypes> operandTypes(MLIRContext *context,
                                            Type element) {
  Builder b(context);
  if (element.isF16())
    return MmaOperandTypes{NVVM::MMATypes::f16,
                           VectorType::get({2}, b.getF16Type())};
  if (element.isBF16())
    return MmaOperandTypes{NVVM::MMATypes::bf16, b.getI32Type()};
  if (element.isF32())
    return MmaOperandTypes{NVVM::MMATypes::tf32, b.getI32Type()};
  if (element.isInteger(8))
    return MmaOperandTypes{NVVM::MMATypes::s8, b.getI32Type()};
  return std::nullopt;
}

struct MmaV2DotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma =
        dyn_cast_or_null<tilegpu::NvidiaMmaLayoutAttr>(op.getType().getEncoding());
    if (!mma || mma.getVersionMajor() != 2)
      return failure();
    if (failed(checkDotLowering(op)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    RankedTensorType dType = op.getType();
    auto aLayoutAttr = cast<tilegpu::DotOperandLayoutAttr>(aType.getEncoding());
    int32_t kWidth = aLayoutAttr.getKWidth();
    int32_t kStep = 8 * kWidth;
    LinearLayout aLayout = *getLinearLayout(aType);
    LinearLayout bLayout = *getLinearLayout(bType);
    LinearLayout dLayout = *getLinearLayout(dType);
    std::map<Coordinates, int32_t> aIndex = registerIndex(aLayout);
    std::map<Coordinates, int32_t> bIndex = registerIndex(bLayout);
    std::map<Coordinates, int32_t> dIndex = registerIndex(dLayout);

    std::optional<MmaOperandTypes> types =
        operandTypes(context, aType.getElementType());
    if (!types)
      return op.emitOpError("no mma.sync for operands of type ")
             << aType.getElementType();
    Type accElement = dType.getElementType();
    bool halfAccumulator = accElement.isF16();
    Type f16x2 = VectorType::get({2}, rewriter.getF16Type());

    SmallVector<Value> a = unpackStruct(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackStruct(rewriter, loc, adaptor.getB());
    SmallVector<Value> results = unpackStruct(rewriter, loc, adaptor.getC());

    auto missing = [&] {
      return op.emitOpError("internal error: an mma.sync fragment element is "
                            "missing from the thread's registers");
    };

    SmallVector<int32_t> mOrigins = tileOrigins(dLayout, 0, 16);
    SmallVector<int32_t> nOrigins = tileOrigins(dLayout, 1, 8);
    int64_t k = aType.getShape()[1];
    Type resultStruct;
    if (halfAccumulator)
      resultStruct = LLVM::LLVMStructType::getLiteral(context, {f16x2, f16x2});
    else
      resultStruct = LLVM::LLVMStructType::getLiteral(
          context, SmallVector<Type>(4, accElement));
    // Integer products accumulate with saturation at the int32 bounds
    // (.satfinite), as Triton's int8 dots do.
    std::optional<NVVM::MMAIntOverflow> overflow;
    if (accElement.isInteger(32))
      overflow = NVVM::MMAIntOverflow::satfinite;

    for (int32_t m0 : mOrigins) {
      for (int32_t n0 : nOrigins) {
        // Accumulator element e of lane 0: (m0 + 8 (e / 2), n0 + e % 2).
        int32_t cReg[4];
        for (int32_t e = 0; e < 4; ++e)
          if (!findRegister(dIndex, {m0 + 8 * (e / 2), n0 + e % 2}, cReg[e]))
            return missing();
        SmallVector<Value> acc;
        if (halfAccumulator) {
          acc.push_back(packRegister(rewriter, loc,
                                     {results[cReg[0]], results[cReg[1]]},
                                     f16x2));
          acc.push_back(packRegister(rewriter, loc,
                                     {results[cReg[2]], results[cReg[3]]},
                                     f16x2));
        } else {
          for (int32_t e = 0; e < 4; ++e)
            acc.push_back(results[cReg[e]]);
        }
        for (int32_t k0 = 0; k0 < k; k0 += kStep) {
          SmallVector<Value> aRegs, bRegs;
          for (int32_t r = 0; r < 4; ++r) {
            SmallVector<Value> parts;
            for (int32_t w = 0; w < kWidth; ++w) {
              int32_t reg;
              if (!findRegister(
                      aIndex, {m0 + 8 * (r % 2), k0 + w + 4 * kWidth * (r / 2)},
                      reg))
                return missing();
              parts.push_back(a[reg]);
            }
            aRegs.push_back(packRegister(rewriter, loc, parts,
                                         types->registerType));
          }
          for (int32_t r = 0; r < 2; ++r) {
            SmallVector<Value> parts;
            for (int32_t w = 0; w < kWidth; ++w) {
              int32_t reg;
              if (!findRegister(bIndex, {k0 + w + 4 * kWidth * r, n0}, reg))
                return missing();
              parts.push_back(b[reg]);
            }
            bRegs.push_back(packRegister(rewriter, loc, parts,
                                         types->registerType));
          }
          auto mmaOp = NVVM::MmaOp::create(
              rewriter, loc, resultStruct, aRegs, bRegs, acc,
              ArrayRef<int64_t>{16, 8, kStep}, std::nullopt, overflow,
              std::array<NVVM::MMATypes, 2>{types->ptxType, types->ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          acc = unpackStruct(rewriter, loc, mmaOp.getResult());
        }
        if (halfAccumulator) {
          for (int32_t half = 0; half < 2; ++half)
            for (int32_t w = 0; w < 2; ++w)
              results[cReg[2 * half + w]] = LLVM::ExtractElementOp::create(
                  rewriter, loc, acc[half], i32Constant(rewriter, loc, w));
        } else {
          for (int32_t e = 0; e < 4; ++e)
            results[cReg[e]] = acc[e];
        }
      }
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(dType),
                                      results));
    return success();
  }
};

} // namespace

LogicalResult mlir::terrazzo::checkMmaLowering(Operation *op,
                                               unsigned capability) {
  auto dot = dyn_cast<tile::DotOp>(op);
  if (!dot || capability >= 80)
    return success();
  auto mma = dyn_cast_or_null<tilegpu::NvidiaMmaLayoutAttr>(
      cast<RankedTensorType>(dot.getType()).getEncoding());
  if (!mma || mma.getVersionMajor() != 2)
    return success();
  return op->emitOpError("computes with mma.sync.m16n8k16, which sm_")
         << capability << " does not have (sm_80 or newer)";
}

void mlir::terrazzo::populateMmaDotOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaV2DotOpConversion>(converter, /*benefit=*/2);
}
