// Code from outside the language, element by element.
// tile.extern_elementwise: one call of the device-library function per
// element a thread holds. The function is declared in the module by its
// symbol; the binary step links the library that defines it (libdevice for
// `__nv_*` symbols on NVIDIA).
// tile.inline_asm: one llvm.inline_asm per `pack` elements a thread holds,
// elements narrower than 32 bits packed into 32-bit registers (the text is
// the target's; nothing here depends on it).
#include "backends/common/Patterns.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// The scalar type of an LLVM value that stands for a tile value: the
/// field type of a struct (one thread's elements), or the type itself.
Type scalarOf(Type type) {
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return structType.getBody().front();
  return type;
}

struct ExternElementwiseOpConversion
    : public ConvertOpToLLVMPattern<tile::ExternElementwiseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result has no layout");
    SmallVector<Type> argumentTypes;
    for (Value operand : adaptor.getSrcs())
      argumentTypes.push_back(scalarOf(operand.getType()));
    auto functionType =
        LLVM::LLVMFunctionType::get(scalarOf(resultType), argumentTypes);

    auto module = op->getParentOfType<ModuleOp>();
    StringRef symbol = op.getSymbol();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (callee && callee.getFunctionType() != functionType)
      // Rejected with a diagnostic before the conversion.
      return rewriter.notifyMatchFailure(op, "symbol declared with another type");
    if (!callee) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      callee = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), symbol,
                                        functionType);
    }

    Location loc = op.getLoc();
    auto call = [&](ValueRange arguments) -> Value {
      return LLVM::CallOp::create(rewriter, loc, callee, arguments)
          .getResult();
    };
    Value result;
    if (adaptor.getSrcs().empty() &&
        isa<LLVM::LLVMStructType>(resultType)) {
      // No operand to follow: one call per element the thread holds.
      size_t count =
          cast<LLVM::LLVMStructType>(resultType).getBody().size();
      SmallVector<Value> values;
      for (size_t i = 0; i < count; ++i)
        values.push_back(call({}));
      result = packStruct(rewriter, loc, resultType, values);
    } else {
      result = mapElements(rewriter, loc, resultType, adaptor.getSrcs(), call);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};


/// The registers one invocation passes for `values` (`pack` elements of one
/// operand, null where past the thread's last element): elements narrower
/// than 32 bits share 32-bit registers, others have one each.
SmallVector<Value> packRegisters(RewriterBase &rewriter, Location loc,
                                 ArrayRef<Value> values, Type element) {
  unsigned perRegister = tile::InlineAsmOp::getElementsPerRegister(element);
  SmallVector<Value> registers;
  for (size_t first = 0; first < values.size(); first += perRegister) {
    if (perRegister == 1) {
      registers.push_back(values[first] ? values[first]
                                        : LLVM::UndefOp::create(rewriter, loc,
                                                                element));
      continue;
    }
    auto vectorType = VectorType::get({int64_t(perRegister)}, element);
    Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
    for (unsigned j = 0; j < perRegister && first + j < values.size(); ++j)
      if (values[first + j])
        vector = LLVM::InsertElementOp::create(rewriter, loc, vector,
                                               values[first + j],
                                               i32Constant(rewriter, loc, j));
    registers.push_back(
        LLVM::BitcastOp::create(rewriter, loc, rewriter.getI32Type(), vector));
  }
  return registers;
}

struct InlineAsmOpConversion
    : public ConvertOpToLLVMPattern<tile::InlineAsmOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tile::InlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Type> resultTypes;
    for (Type type : op.getResultTypes()) {
      Type converted = getTypeConverter()->convertType(type);
      if (!converted)
        return rewriter.notifyMatchFailure(op, "result has no layout");
      resultTypes.push_back(converted);
    }
    auto countOf = [](Type type) -> size_t {
      if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
        return structType.getBody().size();
      return 1;
    };
    size_t count = countOf(resultTypes.front());
    SmallVector<SmallVector<Value>> operands;
    for (Value operand : adaptor.getArgs())
      operands.push_back(elementsOf(rewriter, loc, operand));

    // The registers of each result, as the assembly returns them.
    SmallVector<Type> resultElements;
    SmallVector<Type> asmResultTypes;
    unsigned pack = op.getPack();
    for (Type type : resultTypes) {
      Type element = scalarOf(type);
      resultElements.push_back(element);
      unsigned perRegister = tile::InlineAsmOp::getElementsPerRegister(element);
      Type registerType = perRegister == 1 ? element : rewriter.getI32Type();
      for (unsigned r = 0; r < tile::InlineAsmOp::getRegisterCount(element, pack);
           ++r)
        asmResultTypes.push_back(registerType);
    }
    Type asmType =
        asmResultTypes.size() == 1
            ? asmResultTypes.front()
            : LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                               asmResultTypes);

    SmallVector<SmallVector<Value>> results(resultTypes.size());
    for (size_t first = 0; first < count; first += pack) {
      SmallVector<Value> registers;
      for (auto [operand, value] : llvm::zip(operands, adaptor.getArgs())) {
        SmallVector<Value> group;
        for (size_t i = first; i < first + pack; ++i)
          group.push_back(i < count ? operand[operand.size() == 1 ? 0 : i]
                                    : Value());
        llvm::append_range(registers,
                           packRegisters(rewriter, loc, group,
                                         scalarOf(value.getType())));
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, asmType, registers, op.getAsmString(),
          op.getConstraints(), /*has_side_effects=*/!op.getPure(),
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr());
      // Unpack each result's registers into its elements of this group.
      unsigned next = 0;
      for (auto [index, element] : llvm::enumerate(resultElements)) {
        unsigned perRegister =
            tile::InlineAsmOp::getElementsPerRegister(element);
        unsigned registersOfResult =
            tile::InlineAsmOp::getRegisterCount(element, pack);
        for (unsigned r = 0; r < registersOfResult; ++r, ++next) {
          Value reg = asmResultTypes.size() == 1
                          ? asmOp.getResult(0)
                          : LLVM::ExtractValueOp::create(
                                rewriter, loc, asmOp.getResult(0), next);
          if (perRegister == 1) {
            if (first + r < count)
              results[index].push_back(reg);
            continue;
          }
          auto vectorType = VectorType::get({int64_t(perRegister)}, element);
          Value vector = LLVM::BitcastOp::create(rewriter, loc, vectorType, reg);
          for (unsigned j = 0; j < perRegister; ++j) {
            size_t position = first + r * perRegister + j;
            if (position < first + pack && position < count)
              results[index].push_back(LLVM::ExtractElementOp::create(
                  rewriter, loc, vector, i32Constant(rewriter, loc, j)));
          }
        }
      }
    }
    SmallVector<Value> replacements;
    for (auto [type, values] : llvm::zip(resultTypes, results))
      replacements.push_back(isa<LLVM::LLVMStructType>(type)
                                 ? packStruct(rewriter, loc, type, values)
                                 : values.front());
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

LogicalResult mlir::terrazzo::checkExternLowering(ModuleOp module) {
  // Each symbol becomes one declaration, so all its calls must agree.
  llvm::StringMap<FunctionType> declared;
  bool ok = true;
  module.walk([&](tile::ExternElementwiseOp op) {
    SmallVector<Type> arguments;
    for (Type type : op.getSrcs().getTypes())
      arguments.push_back(getElementTypeOrSelf(type));
    auto type = FunctionType::get(op.getContext(), arguments,
                                  {getElementTypeOrSelf(op.getType())});
    auto [it, inserted] = declared.try_emplace(op.getSymbol(), type);
    if (!inserted && it->second != type) {
      op.emitOpError("calls '")
          << op.getSymbol() << "' as " << type
          << ", but another call in the module calls it as " << it->second;
      ok = false;
    }
  });
  // Inline assembly pairs the operands' and results' registers one to one.
  module.walk([&](tile::InlineAsmOp op) {
    Attribute layout;
    auto check = [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        return true;
      if (!layout)
        layout = tensor.getEncoding();
      return tensor.getEncoding() == layout;
    };
    if (!llvm::all_of(op->getOperandTypes(), check) ||
        !llvm::all_of(op->getResultTypes(), check)) {
      op.emitOpError("needs its operands and results in one layout");
      ok = false;
    }
  });
  return success(ok);
}

void mlir::terrazzo::populateExternOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseOpConversion, InlineAsmOpConversion>(converter);
}
