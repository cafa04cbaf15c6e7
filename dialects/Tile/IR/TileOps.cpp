// Verifiers and interface methods of the tile ops.
#include "dialects/Tile/IR/Tile.h"
#include "dialects/Tile/IR/TileLimits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileOps.cpp.inc"

using mlir::tile::kMaxBlockElements;

namespace {

/// The shape of a block, or an empty shape for a scalar; `isTensor` tells
/// the two apart.
struct ShapeInfo {
  ArrayRef<int64_t> shape;
  bool isTensor = false;
};

ShapeInfo shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return {tensor.getShape(), true};
  return {};
}

bool sameShape(Type a, Type b) {
  ShapeInfo sa = shapeOf(a), sb = shapeOf(b);
  return sa.isTensor == sb.isTensor && sa.shape == sb.shape;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::interleave(
      shape, [&](int64_t d) { text += std::to_string(d); },
      [&] { text += ", "; });
  return text + "]";
}

LogicalResult verifySameElementType(Operation *op, Type src, Type result) {
  if (getElementTypeOrSelf(src) != getElementTypeOrSelf(result))
    return op->emitOpError("result element type ")
           << getElementTypeOrSelf(result)
           << " differs from the source element type "
           << getElementTypeOrSelf(src);
  return success();
}

LogicalResult verifyLoadCacheModifier(Operation *op,
                                      std::optional<CacheModifier> cache) {
  if (cache && (*cache == CacheModifier::WB || *cache == CacheModifier::WT))
    return op->emitOpError("cache modifier '")
           << stringifyCacheModifier(*cache) << "' only applies to stores";
  return success();
}

/// Checks the combine region of reduce and scan: 2 * N scalar arguments
/// (accumulators then new values, with the sources' element types) and a
/// terminator yielding N values of those types.
LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                  TypeRange sourceTypes) {
  SmallVector<Type> elementTypes;
  for (Type type : sourceTypes)
    elementTypes.push_back(getElementTypeOrSelf(type));
  Block &block = region.front();
  size_t numSources = elementTypes.size();
  if (block.getNumArguments() != 2 * numSources)
    return op->emitOpError("combine region must take ")
           << 2 * numSources << " arguments (two per source), got "
           << block.getNumArguments();
  for (auto [index, argument] : llvm::enumerate(block.getArguments())) {
    Type expected = elementTypes[index % numSources];
    if (argument.getType() != expected)
      return op->emitOpError("combine region argument #")
             << index << " must have type " << expected << ", got "
             << argument.getType();
  }
  Operation *terminator = block.getTerminator();
  if (terminator->getNumOperands() != numSources)
    return op->emitOpError("combine region must yield ")
           << numSources << " values, got " << terminator->getNumOperands();
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    if (value.getType() != elementTypes[index])
      return op->emitOpError("combine region result #")
             << index << " must have type " << elementTypes[index] << ", got "
             << value.getType();
  return success();
}

/// All sources of a reduce or scan have one shape and `axis` is within it.
LogicalResult verifyReductionSources(Operation *op, OperandRange sources,
                                     int32_t axis) {
  if (sources.empty())
    return op->emitOpError("needs at least one source");
  auto first = cast<RankedTensorType>(sources.front().getType());
  for (Value source : sources.drop_front())
    if (cast<RankedTensorType>(source.getType()).getShape() != first.getShape())
      return op->emitOpError("sources must all have the shape ")
             << shapeString(first.getShape());
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range for sources of rank " << first.getRank();
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Creating and reshaping blocks
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  // I32Attr accessors return uint32_t: read the bounds as signed values.
  int64_t start = static_cast<int32_t>(getStart()),
          end = static_cast<int32_t>(getEnd());
  if (start < 0)
    return emitOpError("start must be non-negative, got ") << start;
  if (end <= start)
    return emitOpError("end (") << end << ") must be greater than start ("
                                << start << ")";
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError("length ") << length << " must be a power of two";
  if (length > kMaxBlockElements)
    return emitOpError("length ")
           << length << " exceeds the largest block of " << kMaxBlockElements
           << " elements";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != length)
    return emitOpError("result must be a 1-D tensor of ")
           << length << " elements, got " << type;
  return success();
}

LogicalResult SplatOp::verify() {
  if (getType().getElementType() != getSrc().getType())
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from the scalar type "
           << getSrc().getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getType();
  if (failed(verifySameElementType(*this, srcType, resultType)))
    return failure();
  if (srcType.getRank() != resultType.getRank())
    return emitOpError("source rank ")
           << srcType.getRank() << " differs from result rank "
           << resultType.getRank();
  for (auto [dim, pair] :
       llvm::enumerate(llvm::zip(srcType.getShape(), resultType.getShape()))) {
    auto [from, to] = pair;
    if (from != to && from != 1)
      return emitOpError("dimension ")
             << dim << " of size " << from << " cannot be broadcast to " << to;
  }
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto srcType = getSrc().getType();
  int32_t axis = getAxis();
  if (failed(verifySameElementType(*this, srcType, getType())))
    return failure();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError("axis ") << axis << " is out of range for a source of rank "
                                << srcType.getRank();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto srcType = getSrc().getType();
  if (failed(verifySameElementType(*this, srcType, getType())))
    return failure();
  if (srcType.getNumElements() != getType().getNumElements())
    return emitOpError("source has ")
           << srcType.getNumElements() << " elements but the result has "
           << getType().getNumElements();
  return success();
}

LogicalResult TransOp::verify() {
  auto srcType = getSrc().getType();
  if (failed(verifySameElementType(*this, srcType, getType())))
    return failure();
  ArrayRef<int32_t> order = getOrder();
  int64_t rank = srcType.getRank();
  if (static_cast<int64_t>(order.size()) != rank)
    return emitOpError("order has ")
           << order.size() << " entries for a source of rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (int32_t dim : order) {
    if (dim < 0 || dim >= rank || seen[dim])
      return emitOpError("order must be a permutation of 0..") << rank - 1;
    seen[dim] = true;
  }
  if (getType().getRank() != rank)
    return emitOpError("result rank must be ") << rank;
  for (int64_t i = 0; i < rank; ++i)
    if (getType().getDimSize(i) != srcType.getDimSize(order[i]))
      return emitOpError("result dimension ")
             << i << " must be source dimension " << order[i] << " of size "
             << srcType.getDimSize(order[i]) << ", got "
             << getType().getDimSize(i);
  return success();
}

LogicalResult JoinOp::verify() {
  auto srcType = getLhs().getType();
  if (failed(verifySameElementType(*this, srcType, getType())))
    return failure();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.push_back(2);
  if (getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcType = getSrc().getType();
  if (failed(verifySameElementType(*this, srcType, getOutLHS().getType())))
    return failure();
  if (srcType.getRank() == 0 || srcType.getShape().back() != 2)
    return emitOpError("source's innermost dimension must have size 2, got ")
           << shapeString(srcType.getShape());
  if (getOutLHS().getType().getShape() != srcType.getShape().drop_back())
    return emitOpError("result shape must be ")
           << shapeString(srcType.getShape().drop_back()) << ", got "
           << shapeString(getOutLHS().getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  if (!sameShape(getPtr().getType(), getOffset().getType()))
    return emitOpError("offset type ")
           << getOffset().getType() << " must have the shape of the pointers "
           << getPtr().getType();
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' requires a 'mask'");
  return verifyLoadCacheModifier(*this, getCache());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult StoreOp::verify() {
  if (auto cache = getCache())
    if (*cache == CacheModifier::CA || *cache == CacheModifier::CV)
      return emitOpError("cache modifier '")
             << stringifyCacheModifier(*cache) << "' only applies to loads";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type element = getElementTypeOrSelf(getVal().getType());
  unsigned width = isa<IntegerType, FloatType>(element)
                       ? element.getIntOrFloatBitWidth()
                       : 0;
  bool isInt = isa<IntegerType>(element) && (width == 32 || width == 64);
  bool isFloat = isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element);
  bool ok = false;
  switch (getRmwOp()) {
  case RMWOp::And:
  case RMWOp::Or:
  case RMWOp::Xor:
  case RMWOp::Add:
  case RMWOp::UMax:
  case RMWOp::UMin:
    ok = isInt;
    break;
  case RMWOp::FAdd:
    ok = isFloat;
    break;
  case RMWOp::Max:
  case RMWOp::Min:
  case RMWOp::Xchg:
    ok = isInt || isFloat;
    break;
  }
  if (!ok)
    return emitOpError("'") << stringifyRMWOp(getRmwOp())
                            << "' does not support elements of type " << element;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type element = getElementTypeOrSelf(getVal().getType());
  unsigned width = getElementBitWidth(element);
  if (width != 16 && width != 32 && width != 64)
    return emitOpError("compare-and-swap needs 16-, 32- or 64-bit elements, got ")
           << element;
  return success();
}

/// Whether an atomic load or store can move `element` in one access: 8- to
/// 64-bit integers and the 16-, 32- and 64-bit floats.
static bool isAtomicAccessElement(Type element) {
  if (auto integer = dyn_cast<IntegerType>(element))
    return llvm::is_contained({8u, 16u, 32u, 64u}, integer.getWidth());
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element);
}

/// Checks that `sem` is one of `allowed` for the op `what`.
static LogicalResult verifyOrdering(Operation *op, MemSemantic sem,
                                    ArrayRef<MemSemantic> allowed,
                                    StringRef what) {
  if (llvm::is_contained(allowed, sem))
    return success();
  InFlightDiagnostic diag = op->emitOpError("an atomic ")
                            << what << " cannot have '"
                            << stringifyMemSemantic(sem) << "' ordering (use ";
  llvm::interleave(
      allowed, diag,
      [&](MemSemantic s) { diag << "'" << stringifyMemSemantic(s) << "'"; },
      " or ");
  return diag << ")";
}

LogicalResult AtomicLoadOp::verify() {
  Type element = getElementTypeOrSelf(getResult().getType());
  if (!isAtomicAccessElement(element))
    return emitOpError("does not support elements of type ") << element;
  return verifyOrdering(*this, getSem(),
                        {MemSemantic::Relaxed, MemSemantic::Acquire}, "load");
}

LogicalResult AtomicStoreOp::verify() {
  Type element = getElementTypeOrSelf(getValue().getType());
  if (!isAtomicAccessElement(element))
    return emitOpError("does not support elements of type ") << element;
  return verifyOrdering(*this, getSem(),
                        {MemSemantic::Relaxed, MemSemantic::Release}, "store");
}

LogicalResult AtomicPollOp::verify() {
  Type element = getElementTypeOrSelf(getExpected().getType());
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer || !llvm::is_contained({16u, 32u, 64u}, integer.getWidth()))
    return emitOpError("polls 16-, 32- or 64-bit integers, got ") << element;
  return verifyOrdering(*this, getSem(),
                        {MemSemantic::Relaxed, MemSemantic::Acquire}, "poll");
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank)
    return emitOpError("needs one shape and one stride per block dimension (")
           << rank << "), got " << getShape().size() << " and "
           << getStrides().size();
  auto base = cast<PointerType>(getBase().getType());
  if (base.getPointeeType() != block.getElementType())
    return emitOpError("base points to ")
           << base.getPointeeType() << " but the block holds "
           << block.getElementType();
  return success();
}

template <typename DescOp>
static LogicalResult verifyDescAccess(DescOp op, RankedTensorType value) {
  RankedTensorType block = op.getDesc().getType().getBlockType();
  if (op.getIndices().size() != static_cast<size_t>(block.getRank()))
    return op.emitOpError("needs ")
           << block.getRank() << " indices, got " << op.getIndices().size();
  if (value.getShape() != block.getShape() ||
      value.getElementType() != block.getElementType())
    return op.emitOpError("block type ")
           << value << " does not match the descriptor's " << block;
  return success();
}

LogicalResult DescLoadOp::verify() {
  if (failed(verifyDescAccess(*this, getType())))
    return failure();
  return verifyLoadCacheModifier(*this, getCache());
}

LogicalResult DescStoreOp::verify() {
  return verifyDescAccess(*this, getSrc().getType());
}

//===----------------------------------------------------------------------===//
// Computation
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aType = getA().getType(), bType = getB().getType(),
       cType = getC().getType();
  int64_t rank = aType.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("operands must be 2-D, or 3-D with a batch dimension");
  if (bType.getRank() != rank || cType.getRank() != rank)
    return emitOpError("operands must all have rank ") << rank;
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape(),
                    c = cType.getShape();
  if (rank == 3 && (a[0] != b[0] || a[0] != c[0]))
    return emitOpError("batch dimensions differ: ")
           << a[0] << ", " << b[0] << " and " << c[0];
  int64_t m = a[rank - 2], k = a[rank - 1], n = b[rank - 1];
  if (b[rank - 2] != k)
    return emitOpError("a is ") << m << "x" << k << " but b has "
                                << b[rank - 2] << " rows";
  if (c[rank - 2] != m || c[rank - 1] != n)
    return emitOpError("accumulator must be ")
           << m << "x" << n << ", got " << c[rank - 2] << "x" << c[rank - 1];

  Type ea = aType.getElementType(), eb = bType.getElementType(),
       ec = cType.getElementType();
  auto isFp8 = [](Type t) {
    return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
               Float8E5M2FNUZType>(t);
  };
  bool ok = false;
  if (isFp8(ea) && isFp8(eb))
    ok = isa<Float16Type, Float32Type>(ec);
  else if (ea != eb)
    ok = false;
  else if (isa<Float16Type>(ea))
    ok = isa<Float16Type, Float32Type>(ec);
  else if (isa<BFloat16Type>(ea) || isa<Float32Type>(ea))
    ok = isa<Float32Type>(ec);
  else if (isa<Float64Type>(ea))
    ok = isa<Float64Type>(ec);
  else if (ea.isInteger(8))
    ok = ec.isInteger(32);
  if (!ok)
    return emitOpError("unsupported element types: ")
           << ea << " x " << eb << " -> " << ec;
  if (getInputPrecision() != InputPrecision::IEEE && !isa<Float32Type>(ea))
    return emitOpError("precision '")
           << stringifyInputPrecision(getInputPrecision())
           << "' only applies to f32 operands";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyReductionSources(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per source (")
           << getSrcs().size() << "), got " << getNumResults();
  int32_t axis = getAxis();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResult()))) {
    auto [src, result] = pair;
    auto srcType = cast<RankedTensorType>(src.getType());
    Type resultType = result.getType();
    if (srcType.getRank() == 1) {
      if (resultType != srcType.getElementType())
        return emitOpError("result #")
               << index << " of a 1-D reduction must be the scalar "
               << srcType.getElementType() << ", got " << resultType;
      continue;
    }
    SmallVector<int64_t> expected(srcType.getShape());
    expected.erase(expected.begin() + axis);
    auto resultTensor = dyn_cast<RankedTensorType>(resultType);
    if (!resultTensor || resultTensor.getShape() != ArrayRef<int64_t>(expected) ||
        resultTensor.getElementType() != srcType.getElementType())
      return emitOpError("result #")
             << index << " must have shape " << shapeString(expected)
             << " and element type " << srcType.getElementType() << ", got "
             << resultType;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs().getTypes());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyReductionSources(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per source (")
           << getSrcs().size() << "), got " << getNumResults();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResult()))) {
    auto [src, result] = pair;
    auto srcType = cast<RankedTensorType>(src.getType());
    auto resultType = cast<RankedTensorType>(result.getType());
    if (srcType.getShape() != resultType.getShape() ||
        srcType.getElementType() != resultType.getElementType())
      return emitOpError("result #")
             << index << " must have the shape and element type of source #"
             << index;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs().getTypes());
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

LogicalResult FpToFpOp::verify() {
  Type src = getSrc().getType(), result = getType();
  if (!sameShape(src, result))
    return emitOpError("source ") << src << " and result " << result
                                  << " must have the same shape";
  auto srcElement = cast<FloatType>(getElementTypeOrSelf(src));
  auto dstElement = cast<FloatType>(getElementTypeOrSelf(result));
  bool exact = llvm::APFloat::isRepresentableBy(srcElement.getFloatSemantics(),
                                                dstElement.getFloatSemantics());
  if (!exact && !getRounding())
    return emitOpError("conversion from ")
           << srcElement << " to " << dstElement
           << " can lose precision and needs a rounding mode";
  if (exact && getRounding())
    return emitOpError("conversion from ")
           << srcElement << " to " << dstElement
           << " is exact and takes no rounding mode";
  return success();
}

LogicalResult BitcastOp::verify() {
  Type src = getSrc().getType(), result = getType();
  if (!sameShape(src, result))
    return emitOpError("source ") << src << " and result " << result
                                  << " must have the same shape";
  unsigned from = getElementBitWidth(getElementTypeOrSelf(src));
  unsigned to = getElementBitWidth(getElementTypeOrSelf(result));
  if (from != to)
    return emitOpError("cannot reinterpret ")
           << from << "-bit elements as " << to << "-bit elements";
  return success();
}

LogicalResult IntToPtrOp::verify() {
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError("source and result must have the same shape");
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError("source and result must have the same shape");
  return success();
}

LogicalResult ExternElementwiseOp::verify() {
  // The symbol becomes a function of the GPU module: a name every target's
  // assembler takes (NVPTX rejects others with a fatal error).
  StringRef symbol = getSymbol();
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (symbol.empty() || llvm::isDigit(symbol.front()) ||
      !llvm::all_of(symbol, isNameChar))
    return emitOpError("symbol \"")
           << symbol
           << "\" is not a function name: letters, digits, '_' and '$', not "
              "starting with a digit";
  Type result = getType();
  for (auto [index, type] : llvm::enumerate(getSrcs().getTypes()))
    if (!sameShape(type, result))
      return emitOpError("operand #")
             << index << " of type " << type
             << " does not have the shape of the result " << result;
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

unsigned InlineAsmOp::getElementsPerRegister(Type element) {
  if (!element.isIntOrFloat())
    return 1;
  unsigned width = std::max(8u, element.getIntOrFloatBitWidth());
  return width < 32 ? 32 / width : 1;
}

unsigned InlineAsmOp::getRegisterCount(Type element, unsigned pack) {
  unsigned perRegister = getElementsPerRegister(element);
  return (pack + perRegister - 1) / perRegister;
}

LogicalResult InlineAsmOp::verify() {
  if (getPack() < 1)
    return emitOpError("pack must be at least 1, got ") << getPack();
  if (getResults().empty())
    return emitOpError("must have at least one result");
  Type shape = getResult(0).getType();
  for (auto [index, type] : llvm::enumerate(getArgs().getTypes()))
    if (!sameShape(type, shape))
      return emitOpError("operand #")
             << index << " of type " << type
             << " does not have the shape of the results " << shape;
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (!sameShape(type, shape))
      return emitOpError("result #")
             << index << " of type " << type
             << " does not have the shape of result #0 " << shape;
  unsigned pack = getPack();
  auto registers = [&](TypeRange types) {
    unsigned count = 0;
    for (Type type : types)
      count += getRegisterCount(getElementTypeOrSelf(type), pack);
    return count;
  };
  unsigned outputs = 0, inputs = 0;
  SmallVector<StringRef> constraints;
  getConstraints().split(constraints, ',');
  for (StringRef constraint : constraints) {
    constraint = constraint.trim();
    if (constraint.empty())
      return emitOpError("has an empty constraint in '")
             << getConstraints() << "'";
    if (constraint.starts_with("~"))
      continue;
    if (constraint.starts_with("=")) {
      if (inputs)
        return emitOpError("constraint '")
               << constraint << "' is an output after an input; outputs come "
               << "first";
      ++outputs;
    } else {
      ++inputs;
    }
  }
  if (unsigned expected = registers(getResultTypes()); outputs != expected)
    return emitOpError("has ")
           << outputs << " output constraints, but its results take "
           << expected << " registers with pack = " << pack;
  if (unsigned expected = registers(getArgs().getTypes()); inputs != expected)
    return emitOpError("has ")
           << inputs << " input constraints, but its operands take "
           << expected << " registers with pack = " << pack;
  // Every `$i` (or `${i:...}`) names a constraint; `$$` is a dollar sign.
  // LLVM ends the process on one that does not.
  StringRef text = getAsmString();
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    size_t at = i + 1;
    if (text[at] == '$') {
      ++i;
      continue;
    }
    if (text[at] == '{')
      ++at;
    if (at < text.size() && text[at] == '-')
      return emitOpError("names operand '")
             << text.substr(i, at + 2 - i) << "' in its assembly; operands are "
             << "numbered from $0";
    size_t end = at;
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
    if (end == at)
      continue;
    // A number too large for `unsigned` names no operand either (LLVM reads
    // it wrapped).
    unsigned index;
    if (text.substr(at, end - at).getAsInteger(10, index))
      return emitOpError("names operand $")
             << text.substr(at, end - at) << " in its assembly, but has "
             << outputs + inputs << " (outputs, then inputs)";
    if (index >= outputs + inputs)
      return emitOpError("names operand $")
             << index << " in its assembly, but has " << outputs + inputs
             << " (outputs, then inputs)";
  }
  return success();
}

void InlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult PrintOp::verify() {
  if (auto isSigned = getIsSigned())
    if (isSigned->size() != getArgs().size())
      return emitOpError("is_signed has ")
             << isSigned->size() << " entries for " << getArgs().size()
             << " arguments";
  return success();
}
