// tile.print and tile.assert: every thread prints or checks the elements it
// holds, with the program id and the element's coordinates.
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
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The printf conversion of one value and the value promoted as C varargs
/// promote it (small integers to i32, floats to double).
std::pair<std::string, Value> formatValue(RewriterBase &rewriter, Location loc,
                                          Value value, Type sourceType,
                                          bool isSigned, bool hex) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return {"%p", value};
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (!floatType.isF64())
      value = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF64Type(), value);
    return {hex ? "%a" : "%f", value};
  }
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 64)
    return {hex ? "0x%llx" : (isSigned ? "%lld" : "%llu"), value};
  if (width < 32) {
    if (isSigned && width > 1)
      value = LLVM::SExtOp::create(rewriter, loc, rewriter.getI32Type(), value);
    else
      value = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), value);
  }
  return {hex ? "0x%x" : (isSigned && width > 1 ? "%d" : "%u"), value};
}

struct PrintOpConversion : public TargetPattern<tile::PrintOp> {
  using TargetPattern<tile::PrintOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pid;
    for (unsigned dim = 0; dim < 3; ++dim)
      pid.push_back(target.programId(rewriter, loc, dim));
    std::string pidFormat = "pid (%u, %u, %u) ";

    if (op.getArgs().empty()) {
      if (failed(target.printf(rewriter, loc,
                               pidFormat + op.getPrefix().str() + "\n", pid)))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }

    for (auto [index, pair] :
         llvm::enumerate(llvm::zip(op.getArgs(), adaptor.getArgs()))) {
      auto [arg, converted] = pair;
      bool isSigned = true;
      if (auto signs = op.getIsSigned())
        isSigned = (*signs)[index] != 0;
      auto tensorType = dyn_cast<RankedTensorType>(arg.getType());
      SmallVector<Value> elements = {converted};
      SmallVector<SmallVector<Value>> indices = {{}};
      if (tensorType) {
        std::optional<LinearLayout> layout = getLinearLayout(tensorType);
        if (!layout)
          return rewriter.notifyMatchFailure(op, "argument has no layout");
        elements = unpackStruct(rewriter, loc, converted);
        indices = emitIndices(
            rewriter, loc, *layout,
            getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op)));
      }
      for (auto [element, coords] : llvm::zip(elements, indices)) {
        std::string format = pidFormat;
        SmallVector<Value> values(pid);
        if (!coords.empty()) {
          format += "idx (";
          for (size_t d = 0; d < coords.size(); ++d)
            format += d ? ", %u" : "%u";
          format += ") ";
          values.append(coords.begin(), coords.end());
        }
        auto [conversion, promoted] =
            formatValue(rewriter, loc, element, getElementTypeOrSelf(arg),
                        isSigned, op.getHex());
        format += op.getPrefix().str() + conversion + "\n";
        values.push_back(promoted);
        if (failed(target.printf(rewriter, loc, format, values)))
          return failure();
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpConversion : public TargetPattern<tile::AssertOp> {
  using TargetPattern<tile::AssertOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tile::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> conditions =
        isa<LLVM::LLVMStructType>(adaptor.getCondition().getType())
            ? unpackStruct(rewriter, loc, adaptor.getCondition())
            : SmallVector<Value>{adaptor.getCondition()};
    // One check per thread: the assertion fails if any element is false.
    Value allTrue = conditions.front();
    for (Value condition : ArrayRef<Value>(conditions).drop_front())
      allTrue = LLVM::AndOp::create(rewriter, loc, allTrue, condition);
    Value failedCheck = LLVM::XOrOp::create(
        rewriter, loc, allTrue,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                 rewriter.getBoolAttr(true)));
    std::string file = "<unknown>";
    unsigned line = 0;
    if (auto position = loc->findInstanceOf<FileLineColLoc>()) {
      file = position.getFilename().str();
      line = position.getLine();
    }
    auto function = op->getParentOfType<LLVM::LLVMFuncOp>();
    std::string functionName = function ? function.getName().str() : "kernel";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      functionName = func.getName().str();
    if (failed(target.assertFail(rewriter, loc, failedCheck, op.getMessage(),
                                 file, line, functionName)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateDebugOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<PrintOpConversion, AssertOpConversion>(converter, target);
}
