// The inline PTX of the NVIDIA backend, kept in this one file: instructions
// that neither the NVVM dialect nor LLVM IR can express. Today that is global
// loads and stores with cache modifiers (ld.global.cg, st.global.wt, ...)
// and L1 eviction hints (L1::evict_first/last), and atomics (atom/red) with
// their memory ordering and scope: LLVM 22's NVPTX back end emits a plain
// `atom.global.<op>` for every `atomicrmw`, whatever its ordering and
// syncscope (checked with llc: acquire, "block" and system scope all came
// out as relaxed gpu-scope atomics), and has no f16x2 atomic add.
#include "backends/nvidia/NVIDIATargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

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
    // (A vector of one word, such as vector<2xf16>, bitcasts as it is.)
    if (!isa<VectorType>(scalarType) &&
        scalarType.getIntOrFloatBitWidth() < words.bits) // i1
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
  return loadGlobal(rewriter, loc, type, ptr, Value(), Value(), cache, evict);
}

Value NVIDIATargetInfo::loadGlobal(
    RewriterBase &rewriter, Location loc, Type type, Value ptr, Value mask,
    Value other, std::optional<tile::CacheModifier> cache,
    std::optional<tile::EvictionPolicy> evict) const {
  Words words = wordsFor(type);
  // Predicated: the outputs start as `other` (tied operands) and the load
  // overwrites them only where the predicate holds, as one instruction.
  std::string guard = mask ? "@$" + std::to_string(words.count + 1) + " " : "";
  std::string text = guard + "ld.global" + qualifier(cache, evict) +
                     vectorSuffix(words.count) + ".b" +
                     std::to_string(words.bits) + " " +
                     registerList(0, words.count) + ", [$" +
                     std::to_string(words.count) + "];";
  std::string constraints;
  for (unsigned i = 0; i < words.count; ++i)
    constraints += std::string("=") + constraintFor(words.registerBits) + ",";
  constraints += "l";
  SmallVector<Value> operands = {asPointerBits(rewriter, loc, ptr)};
  if (mask) {
    constraints += ",b";
    operands.push_back(mask);
    if (!other)
      other = LLVM::ZeroOp::create(rewriter, loc, type);
    llvm::append_range(operands, toWords(rewriter, loc, other, words));
    for (unsigned i = 0; i < words.count; ++i)
      constraints += "," + std::to_string(i);
  }
  Type registerType = rewriter.getIntegerType(words.registerBits);
  Type resultType =
      words.count == 1
          ? registerType
          : LLVM::LLVMStructType::getLiteral(
                rewriter.getContext(),
                SmallVector<Type>(words.count, registerType));
  Value loaded =
      inlinePTX(rewriter, loc, resultType, operands, text, constraints);
  if (words.count == 1) {
    Type wordType = rewriter.getIntegerType(words.bits);
    if (words.registerBits != words.bits)
      loaded = LLVM::TruncOp::create(rewriter, loc, wordType, loaded);
    if (!isa<VectorType>(type) && type.getIntOrFloatBitWidth() < words.bits) // i1
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
  storeGlobal(rewriter, loc, value, ptr, Value(), cache, evict);
}

bool NVIDIATargetInfo::storeGlobal(
    RewriterBase &rewriter, Location loc, Value value, Value ptr, Value mask,
    std::optional<tile::CacheModifier> cache,
    std::optional<tile::EvictionPolicy> evict) const {
  Words words = wordsFor(value.getType());
  std::string guard = mask ? "@$" + std::to_string(words.count + 1) + " " : "";
  std::string text = guard + "st.global" + qualifier(cache, evict) +
                     vectorSuffix(words.count) + ".b" +
                     std::to_string(words.bits) + " [$0], " +
                     registerList(1, words.count) + ";";
  std::string constraints = "l";
  for (unsigned i = 0; i < words.count; ++i)
    constraints += std::string(",") + constraintFor(words.registerBits);
  SmallVector<Value> operands = {asPointerBits(rewriter, loc, ptr)};
  llvm::append_range(operands, toWords(rewriter, loc, value, words));
  if (mask) {
    constraints += ",b";
    operands.push_back(mask);
  }
  inlinePTX(rewriter, loc, Type(), operands, text, constraints);
  return true;
}

void NVIDIATargetInfo::prefetchGlobal(RewriterBase &rewriter, Location loc,
                                      Value ptr, Value mask) const {
  SmallVector<Value> operands = {asPointerBits(rewriter, loc, ptr)};
  std::string constraints = "l";
  if (mask) {
    operands.push_back(mask);
    constraints += ",b";
  }
  inlinePTX(rewriter, loc, Type(), operands,
            std::string(mask ? "@$1 " : "") + "prefetch.global.L2 [$0];",
            constraints);
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

namespace {

/// ".relaxed.gpu", ".acq_rel.cta", ...: PTX's ordering and scope
/// qualifiers (PTX ISA 6.0+, sm_70+), in the order `atom` takes them.
std::string orderingQualifiers(tile::MemSemantic sem, tile::MemScope scope) {
  std::string text = "." + tile::stringifyMemSemantic(sem).str();
  switch (scope) {
  case tile::MemScope::GPU:
    return text + ".gpu";
  case tile::MemScope::CTA:
    return text + ".cta";
  case tile::MemScope::System:
    return text + ".sys";
  }
  return text;
}

/// The PTX operation and type of an atomic on `type`, e.g. "add.u32",
/// "max.s64", "add.noftz.f16x2"; empty when PTX has none.
std::string atomicOperation(tile::RMWOp op, Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (op != tile::RMWOp::FAdd || vector.getNumElements() != 2)
      return "";
    Type element = vector.getElementType();
    if (element.isF16())
      return "add.noftz.f16x2";
    if (element.isBF16())
      return "add.noftz.bf16x2";
    return "";
  }
  if (!type.isIntOrFloat())
    return "";
  unsigned bits = type.getIntOrFloatBitWidth();
  std::string width = std::to_string(bits);
  if (op == tile::RMWOp::FAdd) {
    if (type.isF16())
      return "add.noftz.f16";
    if (type.isBF16())
      return "add.noftz.bf16";
    if (type.isF32() || type.isF64())
      return "add.f" + width;
    return "";
  }
  if (!type.isInteger() || (bits != 32 && bits != 64))
    return "";
  switch (op) {
  case tile::RMWOp::And:
    return "and.b" + width;
  case tile::RMWOp::Or:
    return "or.b" + width;
  case tile::RMWOp::Xor:
    return "xor.b" + width;
  case tile::RMWOp::Add:
    return "add.u" + width;
  case tile::RMWOp::Max:
    return "max.s" + width;
  case tile::RMWOp::Min:
    return "min.s" + width;
  case tile::RMWOp::UMax:
    return "max.u" + width;
  case tile::RMWOp::UMin:
    return "min.u" + width;
  case tile::RMWOp::Xchg:
    return "exch.b" + width;
  case tile::RMWOp::FAdd:
    break;
  }
  return "";
}

/// The integer type that carries a value of `type` through an asm
/// operand, and its constraint letter.
Type asmCarrier(RewriterBase &rewriter, Type type, char &constraint) {
  unsigned bits = isa<VectorType>(type)
                      ? 32
                      : type.getIntOrFloatBitWidth();
  constraint = bits == 16 ? 'h' : bits == 32 ? 'r' : 'l';
  return rewriter.getIntegerType(bits);
}

Value toCarrier(RewriterBase &rewriter, Location loc, Value value,
                Type carrier) {
  if (value.getType() == carrier)
    return value;
  return LLVM::BitcastOp::create(rewriter, loc, carrier, value);
}

Value fromCarrier(RewriterBase &rewriter, Location loc, Value value,
                  Type type) {
  if (value.getType() == type)
    return value;
  return LLVM::BitcastOp::create(rewriter, loc, type, value);
}

} // namespace

Value NVIDIATargetInfo::inlinePTX(RewriterBase &rewriter, Location loc,
                                  Type resultType, ValueRange operands,
                                  StringRef text, StringRef constraints) {
  auto asmOp = LLVM::InlineAsmOp::create(
      rewriter, loc, resultType ? TypeRange{resultType} : TypeRange{},
      operands, text, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
  return resultType ? asmOp.getResult(0) : Value();
}

bool NVIDIATargetInfo::hasAtomicRMW(tile::RMWOp op, Type type) const {
  if (atomicOperation(op, type).empty())
    return false;
  Type element = getElementTypeOrSelf(type);
  // bf16 and bf16x2 atomic adds are new in sm_90; f16 ones need sm_70.
  if (element.isBF16())
    return capability >= 90;
  if (element.isF16())
    return capability >= 70;
  return true;
}

Value NVIDIATargetInfo::atomicRMW(RewriterBase &rewriter, Location loc,
                                  tile::RMWOp op, Value ptr, Value val,
                                  tile::MemSemantic sem, tile::MemScope scope,
                                  bool needOld) const {
  Type type = val.getType();
  std::string operation = atomicOperation(op, type);
  assert(!operation.empty() && "no atomic instruction for this op and type");
  char constraint;
  Type carrier = asmCarrier(rewriter, type, constraint);
  Value address = asPointerBits(rewriter, loc, ptr);
  Value operand = toCarrier(rewriter, loc, val, carrier);
  // `red` has no result and orders only as relaxed or release; there is no
  // red.exch.
  if (!needOld && op != tile::RMWOp::Xchg &&
      (sem == tile::MemSemantic::Relaxed || sem == tile::MemSemantic::Release)) {
    std::string text =
        "red" + orderingQualifiers(sem, scope) + ".global." + operation +
        " [$0], $1;";
    inlinePTX(rewriter, loc, Type(), ValueRange{address, operand}, text,
              std::string("l,") + constraint);
    return Value();
  }
  std::string text = "atom" + orderingQualifiers(sem, scope) + ".global." +
                     operation + " $0, [$1], $2;";
  Value old = inlinePTX(rewriter, loc, carrier, ValueRange{address, operand},
                        text,
                        std::string("=") + constraint + ",l," + constraint);
  return needOld ? fromCarrier(rewriter, loc, old, type) : Value();
}

Value NVIDIATargetInfo::atomicCAS(RewriterBase &rewriter, Location loc,
                                  Value ptr, Value cmp, Value val,
                                  tile::MemSemantic sem,
                                  tile::MemScope scope) const {
  Type type = val.getType();
  char constraint;
  Type carrier = asmCarrier(rewriter, type, constraint);
  unsigned bits = carrier.getIntOrFloatBitWidth();
  std::string text = "atom" + orderingQualifiers(sem, scope) +
                     ".global.cas.b" + std::to_string(bits) +
                     " $0, [$1], $2, $3;";
  std::string c(1, constraint);
  Value old = inlinePTX(
      rewriter, loc, carrier,
      ValueRange{asPointerBits(rewriter, loc, ptr),
                 toCarrier(rewriter, loc, cmp, carrier),
                 toCarrier(rewriter, loc, val, carrier)},
      text, "=" + c + ",l," + c + "," + c);
  return fromCarrier(rewriter, loc, old, type);
}
