#include "backends/common/Utility.h"

#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "dialects/TileGPU/IR/LinearLayoutConversion.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::terrazzo;

TargetInfo::~TargetInfo() = default;

std::optional<LinearLayout>
mlir::terrazzo::getLinearLayout(RankedTensorType type) {
  if (!type.getEncoding())
    return std::nullopt;
  return tilegpu::toLinearLayout(type.getShape(), type.getEncoding());
}

SmallVector<Value> mlir::terrazzo::elementsOf(RewriterBase &rewriter, Location loc,
                                              Value value) {
  if (!value)
    return {};
  if (isa<LLVM::LLVMStructType>(value.getType()))
    return unpackStruct(rewriter, loc, value);
  return {value};
}

SmallVector<Value> mlir::terrazzo::unpackStruct(RewriterBase &rewriter,
                                                Location loc, Value aggregate) {
  auto type = cast<LLVM::LLVMStructType>(aggregate.getType());
  int64_t size = type.getBody().size();
  // The elements a chain of insertvalues (packStruct's) put in, read off
  // the chain in one walk (the last insert of a position wins). Extracting
  // them instead left the canonicalizer to fold each extractvalue by
  // walking the chain: quadratic in the elements per thread.
  SmallVector<Value> values(size);
  int64_t found = 0;
  for (Value chain = aggregate; found < size;) {
    auto insert = chain.getDefiningOp<LLVM::InsertValueOp>();
    if (!insert || insert.getPosition().size() != 1)
      break;
    int64_t position = insert.getPosition()[0];
    if (position >= 0 && position < size && !values[position]) {
      values[position] = insert.getValue();
      ++found;
    }
    chain = insert.getContainer();
  }
  for (int64_t i = 0; i < size; ++i)
    if (!values[i])
      values[i] = LLVM::ExtractValueOp::create(rewriter, loc, aggregate, i);
  return values;
}

Value mlir::terrazzo::packStruct(RewriterBase &rewriter, Location loc,
                                 Type structType, ValueRange values) {
  Value aggregate = LLVM::UndefOp::create(rewriter, loc, structType);
  for (auto [i, value] : llvm::enumerate(values))
    aggregate = LLVM::InsertValueOp::create(rewriter, loc, aggregate, value, i);
  return aggregate;
}

Value mlir::terrazzo::mapElements(RewriterBase &rewriter, Location loc,
                                  Type resultType, ValueRange operands,
                                  llvm::function_ref<Value(ValueRange)> fn) {
  if (!isa<LLVM::LLVMStructType>(resultType))
    return fn(operands);
  SmallVector<SmallVector<Value>> elements;
  for (Value operand : operands)
    elements.push_back(unpackStruct(rewriter, loc, operand));
  SmallVector<Value> results;
  size_t count = cast<LLVM::LLVMStructType>(resultType).getBody().size();
  for (size_t i = 0; i < count; ++i) {
    SmallVector<Value> args;
    for (auto &operandElements : elements)
      args.push_back(operandElements[i]);
    results.push_back(fn(args));
  }
  return packStruct(rewriter, loc, resultType, results);
}

Value mlir::terrazzo::emitGuarded(RewriterBase &rewriter, Location loc,
                                  Value condition, Value otherwise,
                                  llvm::function_ref<Value()> body) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  SmallVector<Type> resultTypes;
  SmallVector<Location> resultLocs;
  if (otherwise) {
    resultTypes.push_back(otherwise.getType());
    resultLocs.push_back(loc);
  }
  Block *merge = rewriter.createBlock(after, resultTypes, resultLocs);
  LLVM::BrOp::create(rewriter, loc, ValueRange{}, after);
  Block *guarded = rewriter.createBlock(merge);
  Value result = body();
  LLVM::BrOp::create(rewriter, loc,
                     result ? ValueRange{result} : ValueRange{}, merge);
  rewriter.setInsertionPointToEnd(before);
  LLVM::CondBrOp::create(rewriter, loc, condition, guarded, ValueRange{}, merge,
                         otherwise ? ValueRange{otherwise} : ValueRange{});
  rewriter.setInsertionPointToStart(after);
  return otherwise ? merge->getArgument(0) : Value();
}

Value mlir::terrazzo::i32Constant(RewriterBase &rewriter, Location loc,
                                  int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(value));
}

Value mlir::terrazzo::packRegister(RewriterBase &rewriter, Location loc,
                                   ArrayRef<Value> parts, Type type) {
  Type element = parts.front().getType();
  if (parts.size() == 1)
    return parts.front().getType() == type
               ? parts.front()
               : LLVM::BitcastOp::create(rewriter, loc, type, parts.front());
  auto vectorType = VectorType::get({int64_t(parts.size())}, element);
  Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
  for (auto [i, part] : llvm::enumerate(parts))
    vector = LLVM::InsertElementOp::create(rewriter, loc, vector, part,
                                           i32Constant(rewriter, loc, i));
  if (vectorType == type)
    return vector;
  return LLVM::BitcastOp::create(rewriter, loc, type, vector);
}

ThreadPosition mlir::terrazzo::getThreadPosition(RewriterBase &rewriter,
                                                 Location loc,
                                                 const TargetInfo &target,
                                                 unsigned warpSize) {
  Value tid = target.threadId(rewriter, loc);
  Value lane = LLVM::AndOp::create(rewriter, loc, tid,
                                   i32Constant(rewriter, loc, warpSize - 1));
  return {lane, uniformWarpIndex(rewriter, loc, target, warpSize)};
}

FailureOr<ElementCopies> mlir::terrazzo::getElementCopies(Type type,
                                                          std::string &reason) {
  ElementCopies copies;
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType) {
    copies.scalar = true;
    return copies;
  }
  std::optional<LinearLayout> layout = getLinearLayout(tensorType);
  if (!layout) {
    reason = "needs pointers with a distributed layout; run "
             "terrazzo-convert-tile-to-tilegpu first";
    return failure();
  }
  for (auto &[name, mask] : layout->getFreeVariableMasks()) {
    if (name == kRegister)
      copies.registerMask = mask;
    else if (name == kLane)
      copies.laneMask = mask;
    else if (name == kWarp)
      copies.warpMask = mask;
    else if (mask != 0) {
      reason = "cannot be lowered: its layout repeats elements along the '" +
               name + "' dimension";
      return failure();
    }
  }
  return copies;
}

Value mlir::terrazzo::emitOwnerPredicate(
    RewriterBase &rewriter, Location loc, const TargetInfo &target,
    const ElementCopies &copies,
    llvm::function_ref<ThreadPosition()> position) {
  if (copies.scalar) {
    Value tid = target.threadId(rewriter, loc);
    return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid,
                                i32Constant(rewriter, loc, 0));
  }
  if (copies.laneMask == 0 && copies.warpMask == 0)
    return Value();
  ThreadPosition thread = position();
  Value free = i32Constant(rewriter, loc, 0);
  if (copies.laneMask)
    free = LLVM::AndOp::create(rewriter, loc, thread.lane,
                               i32Constant(rewriter, loc, copies.laneMask));
  if (copies.warpMask)
    free = LLVM::OrOp::create(
        rewriter, loc, free,
        LLVM::AndOp::create(rewriter, loc, thread.warp,
                            i32Constant(rewriter, loc, copies.warpMask)));
  return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, free,
                              i32Constant(rewriter, loc, 0));
}

Value mlir::terrazzo::uniformWarpIndex(RewriterBase &rewriter, Location loc,
                                       const TargetInfo &target,
                                       unsigned warpSize) {
  // Every lane of a warp computes the same index, but the code generator
  // cannot tell from tid / warpSize; read back from lane 0 it is known to be
  // uniform, so what is derived from it (shared addresses, wgmma
  // descriptors) stays in uniform registers instead of being recomputed per
  // lane. The shuffle needs every lane, so it goes at the top of the
  // function, where no lowering-made branch can have split the warp, once
  // per function (LLVM does not merge shuffles).
  static constexpr llvm::StringLiteral kWarpIndexAttr = "terrazzo.warp_index";
  Operation *parent = rewriter.getInsertionBlock()->getParentOp();
  if (tilegpu::getNumWarps(parent) == 1)
    return i32Constant(rewriter, loc, 0);
  OpBuilder::InsertionGuard guard(rewriter);
  auto function = dyn_cast<FunctionOpInterface>(parent);
  if (!function)
    function = parent->getParentOfType<FunctionOpInterface>();
  if (function) {
    Block &entry = function.getFunctionBody().front();
    for (Operation &op : entry)
      if (op.hasAttr(kWarpIndexAttr))
        return op.getResult(0);
    rewriter.setInsertionPointToStart(&entry);
  }
  Value tid = target.threadId(rewriter, loc);
  Value warp = LLVM::LShrOp::create(
      rewriter, loc, tid, i32Constant(rewriter, loc, llvm::Log2_32(warpSize)));
  Value uniform = target.shuffleIdx(rewriter, loc, warp,
                                    i32Constant(rewriter, loc, 0), warpSize);
  if (Operation *shuffle = uniform.getDefiningOp())
    shuffle->setAttr(kWarpIndexAttr, rewriter.getUnitAttr());
  return uniform;
}

Coordinates mlir::terrazzo::registerCoordinates(const LinearLayout &layout, int32_t reg) {
  std::vector<std::pair<std::string, int32_t>> inputs;
  for (const std::string &name : layout.getInDimNames())
    inputs.emplace_back(name, name == kRegister ? reg : 0);
  Coordinates coords;
  for (auto &[name, value] : layout.apply(inputs))
    coords.push_back(value);
  return coords;
}

SmallVector<Value> mlir::terrazzo::applyLinearLayout(
    RewriterBase &rewriter, Location loc, const LinearLayout &layout,
    ArrayRef<std::pair<StringRef, Value>> inputs) {
  unsigned rank = layout.getNumOutDims();
  SmallVector<Value> outputs(rank);
  for (unsigned dim = 0; dim < rank; ++dim) {
    Value acc;
    for (auto [name, input] : inputs) {
      if (!layout.hasInDim(name))
        continue;
      for (int i = 0, e = layout.getInDimSizeLog2(name); i < e; ++i) {
        int32_t basis = layout.getBasis(name, i)[dim];
        if (basis == 0)
          continue;
        Value bit = LLVM::AndOp::create(
            rewriter, loc,
            LLVM::LShrOp::create(rewriter, loc, input,
                                 i32Constant(rewriter, loc, i)),
            i32Constant(rewriter, loc, 1));
        Value term = LLVM::MulOp::create(rewriter, loc, bit,
                                         i32Constant(rewriter, loc, basis));
        acc = acc ? LLVM::XOrOp::create(rewriter, loc, acc, term).getResult()
                  : term;
      }
    }
    outputs[dim] = acc;
  }
  return outputs;
}

SmallVector<SmallVector<Value>>
mlir::terrazzo::emitIndices(RewriterBase &rewriter, Location loc,
                            const LinearLayout &layout, ThreadPosition thread) {
  unsigned rank = layout.getNumOutDims();
  // The lane and warp contribute the same offset to every register: the
  // XOR of the bases of their set bits, computed once per dimension.
  SmallVector<Value> threadPart = applyLinearLayout(
      rewriter, loc, layout, {{kLane, thread.lane}, {kWarp, thread.warp}});
  SmallVector<int64_t> threadBits(rank, 0);
  for (unsigned dim = 0; dim < rank; ++dim)
    for (const char *name : {kLane, kWarp})
      if (layout.hasInDim(name))
        for (int i = 0, e = layout.getInDimSizeLog2(name); i < e; ++i)
          threadBits[dim] |= layout.getBasis(name, i)[dim];

  SmallVector<SmallVector<Value>> indices;
  int32_t numRegisters = layout.getInDimSize(kRegister);
  for (int32_t reg = 0; reg < numRegisters; ++reg) {
    Coordinates registerPart = registerCoordinates(layout, reg);
    SmallVector<Value> coords;
    for (unsigned dim = 0; dim < rank; ++dim) {
      int32_t constant = registerPart[dim];
      Value c = i32Constant(rewriter, loc, constant);
      if (!threadPart[dim]) {
        coords.push_back(c);
      } else if ((constant & threadBits[dim]) == 0) {
        // Disjoint bits: XOR is addition, which later folds into addresses.
        coords.push_back(LLVM::AddOp::create(rewriter, loc, threadPart[dim], c));
      } else {
        // Only the bits the thread's part may have need the XOR; the rest
        // is added (disjoint bits), so registers that differ only there
        // share one XOR (a swizzle's few phases) plus an immediate, rather
        // than each keeping its own value (for an FMA operand's 32 values
        // of K, 32 live registers where 8 phases do).
        int32_t overlapping = constant & int32_t(threadBits[dim]);
        int32_t disjoint = constant & ~int32_t(threadBits[dim]);
        Value mixed = LLVM::XOrOp::create(
            rewriter, loc, threadPart[dim],
            i32Constant(rewriter, loc, overlapping));
        coords.push_back(
            disjoint ? LLVM::AddOp::create(rewriter, loc, mixed,
                                           i32Constant(rewriter, loc, disjoint))
                           .getResult()
                     : mixed);
      }
    }
    indices.push_back(std::move(coords));
  }
  return indices;
}

Value mlir::terrazzo::shuffleScalar(RewriterBase &rewriter, Location loc,
                                   Value value,
                                   llvm::function_ref<Value(Value)> shuffle32) {
  Type type = value.getType();
  Type i32 = rewriter.getI32Type();
  Type i64 = rewriter.getI64Type();
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value asInt = LLVM::PtrToIntOp::create(rewriter, loc, i64, value);
    Value moved = shuffleScalar(rewriter, loc, asInt, shuffle32);
    return LLVM::IntToPtrOp::create(rewriter, loc, type, moved);
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = rewriter.getIntegerType(bits);
  Value asInt = type == intType
                    ? value
                    : LLVM::BitcastOp::create(rewriter, loc, intType, value)
                          .getResult();
  Value moved;
  if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(rewriter, loc, i32, asInt);
    moved = LLVM::TruncOp::create(rewriter, loc, intType, shuffle32(wide));
  } else if (bits == 32) {
    moved = shuffle32(asInt);
  } else {
    Value shift = LLVM::ConstantOp::create(rewriter, loc, i64,
                                           rewriter.getI64IntegerAttr(32));
    Value lo = LLVM::TruncOp::create(rewriter, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        rewriter, loc, i32, LLVM::LShrOp::create(rewriter, loc, asInt, shift));
    lo = shuffle32(lo);
    hi = shuffle32(hi);
    moved = LLVM::OrOp::create(
        rewriter, loc, LLVM::ZExtOp::create(rewriter, loc, i64, lo),
        LLVM::ShlOp::create(rewriter, loc,
                            LLVM::ZExtOp::create(rewriter, loc, i64, hi),
                            shift));
  }
  return type == intType
             ? moved
             : LLVM::BitcastOp::create(rewriter, loc, type, moved).getResult();
}

Value mlir::terrazzo::getScratchPointer(RewriterBase &rewriter, Location loc,
                                        Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto global = module
                    ? module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryGlobalName)
                    : LLVM::GlobalOp();
  if (!global) {
    op->emitOpError("needs shared memory but the module declares no '")
        << kSharedMemoryGlobalName << "'";
    return Value();
  }
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(rewriter, loc, sharedPtr,
                                         global.getSymName());
  auto offset = op->getAttrOfType<IntegerAttr>(
      tilegpu::TileGPUDialect::kScratchOffsetAttrName);
  if (!offset || offset.getInt() == 0)
    return base;
  return LLVM::GEPOp::create(rewriter, loc, sharedPtr, rewriter.getI8Type(),
                             base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset.getInt())});
}

std::optional<LinearLayout>
mlir::terrazzo::getCommonLayout(ValueRange values, std::string &reason) {
  std::optional<LinearLayout> layout =
      getLinearLayout(cast<RankedTensorType>(values.front().getType()));
  if (!layout) {
    reason = "sources have no layout";
    return std::nullopt;
  }
  for (Value value : values.drop_front())
    if (getLinearLayout(cast<RankedTensorType>(value.getType())) != layout) {
      reason = "sources have different layouts";
      return std::nullopt;
    }
  return layout;
}

ScratchSlots::ScratchSlots(RewriterBase &rewriter, Location loc, Value scratch,
                           TypeRange elementTypes, TypeRange tileElementTypes,
                           ArrayRef<int64_t> areaBytes) {
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  int64_t offset = 0;
  for (auto [s, elementType] : llvm::enumerate(elementTypes)) {
    Value base = scratch;
    if (offset)
      base = LLVM::GEPOp::create(rewriter, loc, sharedPtr,
                                 rewriter.getI8Type(), base,
                                 ArrayRef<LLVM::GEPArg>{int32_t(offset)});
    bases.push_back(base);
    this->elementTypes.push_back(elementType);
    memoryTypes.push_back(elementType.isInteger(1) ? rewriter.getI8Type()
                                                   : elementType);
    elementBytes.push_back(scratchElementBytes(tileElementTypes[s]));
    offset += areaBytes[s];
  }
}

Value ScratchSlots::address(RewriterBase &rewriter, Location loc,
                            unsigned source, Value index) const {
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  return LLVM::GEPOp::create(rewriter, loc, sharedPtr, memoryTypes[source],
                             bases[source], ValueRange{index});
}

void ScratchSlots::store(RewriterBase &rewriter, Location loc, Value index,
                         ValueRange values) const {
  for (auto [s, value] : llvm::enumerate(values)) {
    Value v = value;
    if (memoryTypes[s] != elementTypes[s])
      v = LLVM::ZExtOp::create(rewriter, loc, memoryTypes[s], v);
    LLVM::StoreOp::create(rewriter, loc, v, address(rewriter, loc, s, index),
                          elementBytes[s]);
  }
}

SmallVector<Value> ScratchSlots::load(RewriterBase &rewriter, Location loc,
                                      Value index) const {
  SmallVector<Value> values;
  for (unsigned s = 0, e = bases.size(); s < e; ++s) {
    Value v = LLVM::LoadOp::create(rewriter, loc, memoryTypes[s],
                                   address(rewriter, loc, s, index),
                                   elementBytes[s]);
    if (memoryTypes[s] != elementTypes[s])
      v = LLVM::TruncOp::create(rewriter, loc, elementTypes[s], v);
    values.push_back(v);
  }
  return values;
}

std::map<Coordinates, int32_t>
mlir::terrazzo::registerIndex(const LinearLayout &layout) {
  std::map<Coordinates, int32_t> index;
  for (int32_t reg = 0, e = layout.getInDimSize(kRegister); reg < e; ++reg)
    index.emplace(registerCoordinates(layout, reg), reg);
  return index;
}

bool mlir::terrazzo::findRegister(const std::map<Coordinates, int32_t> &index,
                                  const Coordinates &at, int32_t &reg) {
  auto it = index.find(at);
  if (it == index.end())
    return false;
  reg = it->second;
  return true;
}

SmallVector<int32_t> mlir::terrazzo::tileOrigins(const LinearLayout &layout,
                                                 unsigned dim, int32_t tile) {
  std::set<int32_t> origins;
  for (int32_t reg = 0, e = layout.getInDimSize(kRegister); reg < e; ++reg)
    origins.insert(registerCoordinates(layout, reg)[dim] & ~(tile - 1));
  return SmallVector<int32_t>(origins.begin(), origins.end());
}

namespace {
ModuleOp enclosingModule(RewriterBase &rewriter) {
  return rewriter.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
}
} // namespace

Value mlir::terrazzo::stringConstant(RewriterBase &rewriter, Location loc,
                                     StringRef prefix, StringRef text,
                                     unsigned addressSpace) {
  ModuleOp module = enclosingModule(rewriter);
  std::string contents = text.str();
  contents.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), contents.size());
  // Reuse an identical string; otherwise add one with a fresh name.
  LLVM::GlobalOp global;
  unsigned counter = 0;
  std::string name;
  while (true) {
    name = (prefix + "_" + Twine(counter++)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    if (auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull()))
      if (value.getValue() == contents &&
          existing.getAddrSpace() == addressSpace) {
        global = existing;
        break;
      }
  }
  if (!global) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(rewriter, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    rewriter.getStringAttr(contents),
                                    /*alignment=*/0, addressSpace);
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

LLVM::LLVMFuncOp mlir::terrazzo::getOrDeclareFunction(
    RewriterBase &rewriter, Location loc, StringRef name,
    LLVM::LLVMFunctionType type) {
  ModuleOp module = enclosingModule(rewriter);
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(rewriter, loc, name, type);
}

LLVM::AtomicOrdering mlir::terrazzo::getAtomicOrdering(tile::MemSemantic sem) {
  switch (sem) {
  case tile::MemSemantic::Relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case tile::MemSemantic::Acquire:
    return LLVM::AtomicOrdering::acquire;
  case tile::MemSemantic::Release:
    return LLVM::AtomicOrdering::release;
  case tile::MemSemantic::AcqRel:
    return LLVM::AtomicOrdering::acq_rel;
  }
  llvm_unreachable("unknown ordering");
}

SmallVector<int32_t> mlir::terrazzo::elementWarps(const LinearLayout &layout,
                                                  unsigned warpsPerOwner) {
  int64_t elements = 1;
  for (const std::string &out : layout.getOutDimNames())
    elements *= layout.getOutDimSize(out);
  SmallVector<int32_t> owner(elements, std::numeric_limits<int32_t>::min());
  auto size = [&](const char *in) {
    return layout.hasInDim(in) ? layout.getInDimSize(in) : 1;
  };
  std::vector<std::string> outs = layout.getOutDimNames();
  for (int32_t warp = 0; warp < size(kWarp); ++warp)
    for (int32_t lane = 0; lane < size(kLane); ++lane)
      for (int32_t reg = 0; reg < size(kRegister); ++reg) {
        std::vector<std::pair<std::string, int32_t>> inputs;
        for (const std::string &in : layout.getInDimNames())
          inputs.push_back({in, in == kWarp       ? warp
                                : in == kLane     ? lane
                                : in == kRegister ? reg
                                                  : 0});
        int64_t index = 0;
        for (auto [i, coordinate] : llvm::enumerate(layout.apply(inputs)))
          index = index * layout.getOutDimSize(outs[i]) + coordinate.second;
        int32_t holder = warp / int32_t(warpsPerOwner);
        int32_t &slot = owner[index];
        slot = slot == std::numeric_limits<int32_t>::min() || slot == holder
                   ? holder
                   : -1;
      }
  return owner;
}
