// tile.dot without tensor cores: each thread computes its elements of the
// result with fused multiply-adds over K, reading A and B in the layouts of
// dialects/TileGPU/IR/DotOperandLayouts.h (every thread holds the rows of
// A and the columns of B its elements need, K in registers), which
// terrazzo-convert-tile-to-tilegpu gives the operands; K is the outer loop,
// and operands a local_load read from shared memory are read again next
// to the products of their k (SharedOperandReads). float16/bfloat16
// operands are widened to the accumulation type before each product, which
// is float32 also for a float16/bfloat16 result (rounded once, at the end:
// an accumulator rounded to 16 bits at every k drifts far from what the
// tensor cores give, which round once per k16 step); int8 products
// accumulate in int32. This is the fallback for shapes and types without a
// tensor-core instruction (issue 6 adds mma and wgmma).
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/DotOperandLayouts.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

bool inFmaLayouts(tile::DotOp op) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  std::optional<LinearLayout> dLayout = getLinearLayout(op.getType());
  std::optional<LinearLayout> aLayout = getLinearLayout(aType);
  std::optional<LinearLayout> bLayout = getLinearLayout(bType);
  if (!dLayout || !aLayout || !bLayout)
    return false;
  int64_t k = aType.getShape().back();
  auto wantA = tilegpu::getFmaDotOperandLinearLayout(*dLayout, 0, k);
  auto wantB = tilegpu::getFmaDotOperandLinearLayout(*dLayout, 1, k);
  return wantA && wantB && *wantA == *aLayout && *wantB == *bLayout;
}

/// Whether `op` may write memory (unknown ops may), as terrazzo-combine's
/// mayWriteBetween asks it.
bool mayWriteMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return !effects || llvm::any_of(*effects, [](const auto &effect) {
           return isa<MemoryEffects::Write>(effect.getEffect());
         });
}

/// The operand values of a dot, those a shared-memory load in the dot's
/// block produced read again at their first use (the load cloned there,
/// once): a local_load emits every load of the operand before the dot, and
/// a thread holding all its rows of A and columns of B at once (hundreds
/// of values) spilled; read next to the products of their k, they live for
/// a few k. Only loads after which nothing up to the dot may write memory
/// move; the originals are left dead. One per dot, for both operands.
class SharedOperandReads {
public:
  explicit SharedOperandReads(Operation *dot) {
    // The earliest op from which on nothing writes memory up to the dot.
    Operation *first = dot;
    while (Operation *before = first->getPrevNode()) {
      if (mayWriteMemory(before))
        break;
      first = before;
    }
    for (Operation *op = first; op != dot; op = op->getNextNode()) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op))
        if (load.getAddr().getType() ==
                LLVM::LLVMPointerType::get(op->getContext(), 3) &&
            !load.getVolatile_())
          movable.insert(op);
      if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
        pure.insert(op);
    }
  }

  /// `value` (one of unpackStruct's values of an operand), or the value
  /// read again at the insertion point.
  Value get(RewriterBase &rewriter, Value value) {
    // unpackStruct's extractvalue of the struct the operand's lowering
    // built with insertvalues: the value inserted there.
    if (auto extract = value.getDefiningOp<LLVM::ExtractValueOp>())
      if (Value inserted = insertedValue(extract))
        value = inserted;
    Operation *def = value.getDefiningOp();
    if (!def)
      return value;
    if (movable.contains(def))
      return moved(rewriter, def)->getResult(0);
    auto extract = dyn_cast<LLVM::ExtractElementOp>(def);
    if (!extract || !extract.getVector().getDefiningOp() ||
        !movable.contains(extract.getVector().getDefiningOp()))
      return value;
    Operation *vector = moved(rewriter, extract.getVector().getDefiningOp());
    return LLVM::ExtractElementOp::create(rewriter, extract.getLoc(),
                                          vector->getResult(0),
                                          extract.getPosition());
  }

private:
  static Value insertedValue(LLVM::ExtractValueOp extract) {
    Value container = extract.getContainer();
    while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
      if (insert.getPosition() == extract.getPosition())
        return insert.getValue();
      container = insert.getContainer();
    }
    return Value();
  }

  /// `op` (a load, or the arithmetic of its address) cloned at the
  /// insertion point, once, with the pure ops of the span its operands
  /// come from cloned too (each once, where first needed): the address of
  /// each load is then computed next to it, not all of them before the dot
  /// (where they held registers).
  Operation *moved(RewriterBase &rewriter, Operation *op, int depth = 0) {
    auto found = clones.find(op);
    if (found != clones.end())
      return found->second;
    IRMapping mapping;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && depth < 8 && pure.contains(def))
        mapping.map(operand, moved(rewriter, def, depth + 1)->getResult(0));
    }
    Operation *clone = rewriter.clone(*op, mapping);
    clones[op] = clone;
    return clone;
  }

  llvm::SmallPtrSet<Operation *, 32> movable, pure;
  llvm::DenseMap<Operation *, Operation *> clones;
};

struct DotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    RankedTensorType dType = op.getType();
    std::optional<LinearLayout> dLayout = getLinearLayout(dType);
    std::optional<LinearLayout> aLayout = getLinearLayout(aType);
    std::optional<LinearLayout> bLayout = getLinearLayout(bType);
    if (!dLayout || !aLayout || !bLayout)
      return op.emitOpError("operands and result must have layouts");
    if (!inFmaLayouts(op))
      return failure(); // the tensor-core patterns' dot
    int64_t k = aType.getShape().back();

    Type resultElement = getTypeConverter()->convertType(dType.getElementType());
    bool isInteger = isa<IntegerType>(resultElement);
    // 16-bit float results accumulate in float32.
    Type accElement = resultElement;
    if (auto f = dyn_cast<FloatType>(resultElement); f && f.getWidth() < 32)
      accElement = rewriter.getF32Type();
    auto widen = [&](Value v) -> Value {
      if (v.getType() == accElement)
        return v;
      if (isInteger)
        return LLVM::SExtOp::create(rewriter, loc, accElement, v);
      return LLVM::FPExtOp::create(rewriter, loc, accElement, v);
    };
    SharedOperandReads reads(op);
    SmallVector<Value> a = unpackStruct(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackStruct(rewriter, loc, adaptor.getB());
    SmallVector<Value> c = unpackStruct(rewriter, loc, adaptor.getC());
    std::map<Coordinates, int32_t> aIndex = registerIndex(*aLayout);
    std::map<Coordinates, int32_t> bIndex = registerIndex(*bLayout);
    unsigned rank = dType.getRank();
    unsigned m = rank - 2, n = rank - 1;

    // K outermost: the operand values of one k are dead once its products
    // are issued, so a thread keeps its accumulators and one k's values
    // live rather than the whole of its rows of A and columns of B (with
    // each accumulator's chain over K first, ptxas kept every operand
    // value live and spilled).
    int32_t registers = dLayout->getInDimSize(kRegister);
    SmallVector<Value> results;
    for (Value init : ArrayRef<Value>(c).take_front(registers))
      results.push_back(widen(init));
    SmallVector<Coordinates> coordinates;
    for (int32_t reg = 0; reg < registers; ++reg)
      coordinates.push_back(registerCoordinates(*dLayout, reg));
    for (int64_t kk = 0; kk < k; ++kk) {
      for (int32_t reg = 0; reg < registers; ++reg) {
        Coordinates aAt = coordinates[reg], bAt = coordinates[reg];
        aAt[n] = int32_t(kk); // A: (.., m, k)
        bAt[m] = int32_t(kk); // B: (.., k, n)
        auto ai = aIndex.find(aAt), bi = bIndex.find(bAt);
        if (ai == aIndex.end() || bi == bIndex.end())
          return op.emitOpError("internal error: an operand element is "
                                "missing from the thread's registers");
        Value x = widen(reads.get(rewriter, a[ai->second]));
        Value y = widen(reads.get(rewriter, b[bi->second]));
        Value &acc = results[reg];
        if (isInteger)
          acc = LLVM::AddOp::create(rewriter, loc, acc,
                                    LLVM::MulOp::create(rewriter, loc, x, y));
        else
          acc = LLVM::FMAOp::create(rewriter, loc, x, y, acc);
      }
    }
    if (accElement != resultElement)
      for (Value &result : results)
        result = LLVM::FPTruncOp::create(rewriter, loc, resultElement, result);
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(dType),
                                      results));
    return success();
  }
};

/// Operands in the dot-operand layouts of the result's matrix-instruction
/// layout (mma.sync, MFMA).
bool inMatrixLayouts(tile::DotOp op) {
  Attribute mma = op.getType().getEncoding();
  if (!isa_and_nonnull<tilegpu::MatrixAccumulatorLayoutAttr>(mma))
    return false;
  if (auto nvidia = dyn_cast<tilegpu::NvidiaMmaLayoutAttr>(mma);
      nvidia && nvidia.getVersionMajor() != 2)
    return false;
  for (auto [index, operand] : llvm::enumerate(ValueRange{op.getA(), op.getB()})) {
    auto layout = dyn_cast_or_null<tilegpu::DotOperandLayoutAttr>(
        cast<RankedTensorType>(operand.getType()).getEncoding());
    if (!layout || layout.getParent() != mma || layout.getOpIdx() != index)
      return false;
  }
  return true;
}

} // namespace

LogicalResult mlir::terrazzo::checkDotLowering(Operation *op) {
  auto dot = dyn_cast<tile::DotOp>(op);
  if (!dot || inFmaLayouts(dot) || inMatrixLayouts(dot))
    return success();
  return dot.emitOpError("operands must be in the FMA dot layouts of the "
                         "result's layout (terrazzo-convert-tile-to-tilegpu "
                         "assigns them)");
}

void mlir::terrazzo::populateDotOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter);
}
