// The inline PTX of the NVIDIA backend, kept in this one file: instructions
// that neither the NVVM dialect nor LLVM IR can express. Today that is global
// loads and stores with cache modifiers (ld.global.cg, st.global.wt, ...)
// and L1 eviction hints (L1::evict_first/last).
#include "backends/nvidia/NVIDIATargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

/// ".cg", ".L1::evict_last", ...: a cache operator when there is one (PTX
/// takes either a cache operator or an eviction priority), else the hint.
std::string qualifier(std::optional<tile::CacheModifier> cache,
                      std::optional<tile::EvictionPolicy> evict) {
  if (cache)
    return "." + tile::stringifyCacheModifier(*cache).str();
  if (evict && *evict != tile::EvictionPolicy::Normal)
    return *evict == tile::EvictionPolicy::First ? ".L1::evict_first"
                                                 : ".L1::evict_last";
  return "";
}

/// How an access of `type` travels through registers: `count` words of
/// `bits` bits each (8-bit data uses 16-bit registers, as PTX requires).
struct Words {
  unsigned count;
  unsigned bits;
  unsigned registerBits;
};

Words wordsFor(Type type) {
  unsigned total = 0;
  if (auto vector = dyn_cast<VectorType>(type))
    total = vector.getNumElements() *
            std::max(8u, vector.getElementType().getIntOrFloatBitWidth());
  else
    total = std::max(8u, type.getIntOrFloatBitWidth());
  if (total <= 16)
    return {1, total, 16};
  if (total == 64 && !isa<VectorType>(type))
    return {1, 64, 64};
  return {total / 32, 32, 32};
}

char constraintFor(unsigned registerBits) {
  return registerBits == 16 ? 'h' : registerBits == 32 ? 'r' : 'l';
}

std::string vectorSuffix(unsigned count) {
  return count == 1 ? "" : ".v" + std::to_string(count);
}

std::string registerList(unsigned first, unsigned count) {
  if (count == 1)
    return "$" + std::to_string(first);
  std::string text = "{";
  for (unsigned i = 0; i < count; ++i)
    text += (i ? ", $" : "$") + std::to_string(first + i);
  return text + "}";
}

Value asPointerBits(RewriterBase &rewriter, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), ptr);
}

/// The words of `value` (a scalar or vector) as integers of `words.bits`.
SmallVector<Value> toWords(RewriterBase &rewriter, Location loc, Value value,
                           Words words) {
  Type wordType = rewriter.getIntegerType(words.bits);
  Type registerType = rewriter.getIntegerType(words.registerBits);
  Value packed;
  if (words.count == 1) {
    Type scalarType = value.getType();
    if (scalarType.getIntOrFloatBitWidth() < words.bits) // i1
      value = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI8Type(), value);
    packed = LLVM::BitcastOp::create(rewriter, loc, wordType, value);
    if (words.registerBits != words.bits)
      packed = LLVM::ZExtOp::create(rewriter, loc, registerType, packed);
    return {packed};
  }
  auto vectorType = VectorType::get({int64_t(words.count)}, wordType);
  packed = LLVM::BitcastOp::create(rewriter, loc, vectorType, value);
  SmallVector<Value> result;
  for (unsigned i = 0; i < words.count; ++i)
    result.push_back(LLVM::ExtractElementOp::create(
        rewriter, loc, packed,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                 rewriter.getI32IntegerAttr(i))));
  return result;
}

} // namespace

Value NVIDIATargetInfo::loadWithHints(
    RewriterBase &rewriter, Location loc, Type type, Value ptr,
    std::optional<tile::CacheModifier> cache,
    std::optional<tile::EvictionPolicy> evict) const {
  Words words = wordsFor(type);
  std::string text = "ld.global" + qualifier(cache, evict) +
                     vectorSuffix(words.count) + ".b" +
                     std::to_string(words.bits) + " " +
                     registerList(0, words.count) + ", [$" +
                     std::to_string(words.count) + "];";
  std::string constraints;
  for (unsigned i = 0; i < words.count; ++i)
    constraints += std::string("=") + constraintFor(words.registerBits) + ",";
  constraints += "l";
  Type registerType = rewriter.getIntegerType(words.registerBits);
  Type resultType =
      words.count == 1
          ? registerType
          : LLVM::LLVMStructType::getLiteral(
                rewriter.getContext(),
                SmallVector<Type>(words.count, registerType));
  Value loaded =
      LLVM::InlineAsmOp::create(rewriter, loc, resultType,
                                ValueRange{asPointerBits(rewriter, loc, ptr)},
                                text, constraints, /*has_side_effects=*/true,
                                /*is_align_stack=*/false,
                                LLVM::tailcallkind::TailCallKind::None,
                                /*asm_dialect=*/LLVM::AsmDialectAttr(),
                                /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  if (words.count == 1) {
    Type wordType = rewriter.getIntegerType(words.bits);
    if (words.registerBits != words.bits)
      loaded = LLVM::TruncOp::create(rewriter, loc, wordType, loaded);
    if (type.getIntOrFloatBitWidth() < words.bits) // i1
      return LLVM::TruncOp::create(rewriter, loc, type, loaded);
    return LLVM::BitcastOp::create(rewriter, loc, type, loaded);
  }
  auto vectorType =
      VectorType::get({int64_t(words.count)}, rewriter.getI32Type());
  Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
  for (unsigned i = 0; i < words.count; ++i)
    vector = LLVM::InsertElementOp::create(
        rewriter, loc, vector,
        LLVM::ExtractValueOp::create(rewriter, loc, loaded, i),
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                 rewriter.getI32IntegerAttr(i)));
  return LLVM::BitcastOp::create(rewriter, loc, type, vector);
}

void NVIDIATargetInfo::storeWithHints(
    RewriterBase &rewriter, Location loc, Value value, Value ptr,
    std::optional<tile::CacheModifier> cache,
    std::optional<tile::EvictionPolicy> evict) const {
  Words words = wordsFor(value.getType());
  std::string text = "st.global" + qualifier(cache, evict) +
                     vectorSuffix(words.count) + ".b" +
                     std::to_string(words.bits) + " [$0], " +
                     registerList(1, words.count) + ";";
  std::string constraints = "l";
  for (unsigned i = 0; i < words.count; ++i)
    constraints += std::string(",") + constraintFor(words.registerBits);
  SmallVector<Value> operands = {asPointerBits(rewriter, loc, ptr)};
  llvm::append_range(operands, toWords(rewriter, loc, value, words));
  LLVM::InlineAsmOp::create(
      rewriter, loc, TypeRange{}, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
}
