// tile.load and tile.store: each thread accesses the elements it holds, in
// vectors as wide as the layout (consecutive registers), AxisInfo
// (contiguity, alignment, mask constancy) and 16 bytes allow. A masked
// access outside loops is one predicated instruction where the target has
// one (NVIDIA), else (and in loops) a branch around the vector access; a
// false mask reads `other`. A store writes each element once: copies of an
// element in other registers of a thread are skipped, and only the threads
// that hold no copy of another's element (thread 0 for a scalar) store
// (ElementCopies), so that a program that loads and stores the same
// address does not race with its own copies.
#include "backends/common/MemoryAccessPattern.h"
#include "backends/common/Patterns.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

constexpr unsigned kMaxAccessBits = 128;

unsigned memoryBits(Type element) {
  // i1 lives in memory as a byte.
  return std::max(8u, tile::getElementBitWidth(element));
}

} // namespace

unsigned mlir::terrazzo::getGlobalAccessWidth(
    const ModuleAxisInfoAnalysis &axisInfo, Value ptr, Value mask,
    Type element) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return 1;
  std::optional<LinearLayout> layout = getLinearLayout(type);
  const AxisInfo *ptrInfo = axisInfo.getAxisInfo(ptr);
  if (!layout || !ptrInfo)
    return 1;
  unsigned bits = memoryBits(element);
  unsigned best = 1;
  for (unsigned dim = 0, e = type.getRank(); dim < e; ++dim) {
    int64_t width = std::min<int64_t>(layout->getContiguousRegisters(dim),
                                      ptrInfo->getContiguity(dim));
    // Every vector must start at an address aligned to its size.
    int64_t alignedElements =
        std::max<int64_t>(1, ptrInfo->getDivisibility(dim) * 8 / bits);
    width = std::min(width, alignedElements);
    if (mask) {
      if (const AxisInfo *maskInfo = axisInfo.getAxisInfo(mask))
        width = std::min<int64_t>(width, maskInfo->getConstancy(dim));
      else
        width = 1;
    }
    best = std::max<unsigned>(best, width);
  }
  best = std::min(best, kMaxAccessBits / bits);
  return llvm::bit_floor(best);
}

namespace {

/// How many consecutive registers one access may cover.
unsigned getVectorWidth(const ModuleAxisInfoAnalysis &axisInfo, Value ptr,
                        Value mask, Type element) {
  return getGlobalAccessWidth(axisInfo, ptr, mask, element);
}

Value packVector(RewriterBase &rewriter, Location loc, Type vectorType,
                 ArrayRef<Value> elements) {
  if (elements.size() == 1)
    return elements.front();
  Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(rewriter, loc, vector, element,
                                           i32Constant(rewriter, loc, i));
  return vector;
}

void unpackVector(RewriterBase &rewriter, Location loc, Value vector,
                  unsigned width, SmallVectorImpl<Value> &out) {
  if (width == 1) {
    out.push_back(vector);
    return;
  }
  for (unsigned i = 0; i < width; ++i)
    out.push_back(LLVM::ExtractElementOp::create(rewriter, loc, vector,
                                                 i32Constant(rewriter, loc, i)));
}

/// Elements the targets' predicated accesses move: whole bytes of integer
/// or float data (pointers and i1 take the branch).
bool hasPredicatedForm(Type element) {
  return element.isIntOrFloat() && element.getIntOrFloatBitWidth() >= 8;
}

/// Whether `block` lies on a cycle of the control-flow graph: in a loop.
bool inLoop(Block *block) {
  SmallVector<Block *> worklist(block->getSuccessors());
  llvm::DenseSet<Block *> seen;
  while (!worklist.empty()) {
    Block *next = worklist.pop_back_val();
    if (next == block)
      return true;
    if (seen.insert(next).second)
      llvm::append_range(worklist, next->getSuccessors());
  }
  return false;
}

/// Above this many accesses in one op, a masked access takes the target's
/// predicated form in loops too. A branch around each access makes a block
/// per access, and every value the thread holds is live across all of
/// them: LLVM's register allocation is then quadratic in the accesses (a
/// 2^20-element load and store in a loop, 8192 elements per thread, took
/// 170 s in LLVM's code generator; 64 accesses per op take 0.7 s, 128 take
/// 2.2 s: bench/compile-time.py's loop kernel). No kernel that fits its
/// registers comes near it: tutorial 05's layer norm makes at most 16 per op.
constexpr size_t kMaxGuardedAccessesInLoop = 64;

/// Whether a masked access at `op`, of `accesses` accesses, uses the
/// target's predicated form. Where it is measured (H100,
/// bench/RESULTS.md): outside loops it wins, a 16384-wide softmax row going
/// from 79 registers and 2147 GB/s with branches to 64 registers and
/// 2820 GB/s; inside loops the branches let LLVM keep one base address with
/// immediate offsets and rotate the loop, and the layer norm forward of
/// tutorial 05 ran 2277 GB/s with branches against 2038 predicated. So:
/// predicated outside loops, and in loops above kMaxGuardedAccessesInLoop.
/// Asked once per op, before its elements are emitted: each guarded element
/// splits the block, and walking the growing graph per element was
/// quadratic in the elements per thread.
bool usePredicatedForm(Operation *op, Type element, size_t accesses) {
  return hasPredicatedForm(element) &&
         (accesses > kMaxGuardedAccessesInLoop || !inLoop(op->getBlock()));
}

struct LoadOpConversion : public MemoryAccessPattern<tile::LoadOp> {
  using MemoryAccessPattern::MemoryAccessPattern;

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type sourceElement = getElementTypeOrSelf(op.getType());
    Type element = getTypeConverter()->convertType(sourceElement);
    if (!resultType || !element)
      return rewriter.notifyMatchFailure(op, "unconvertible types");

    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    SmallVector<Value> others = elementsOf(rewriter, loc, adaptor.getOther());
    unsigned width =
        getVectorWidth(axisInfo, op.getPtr(), op.getMask(), sourceElement);
    unsigned alignment = width * memoryBits(sourceElement) / 8;
    Type accessType =
        width == 1 ? element : VectorType::get({int64_t(width)}, element);

    bool predicated = !masks.empty() && !op.getIsVolatile() &&
                      usePredicatedForm(op, element, ptrs.size() / width);
    SmallVector<Value> values;
    for (size_t i = 0; i < ptrs.size(); i += width) {
      auto load = [&]() -> Value {
        if (op.getCache() || op.getEvict())
          return target.loadWithHints(rewriter, loc, accessType, ptrs[i],
                                      op.getCache(), op.getEvict());
        return LLVM::LoadOp::create(rewriter, loc, accessType, ptrs[i],
                                    alignment, op.getIsVolatile());
      };
      Value loaded;
      if (masks.empty()) {
        loaded = load();
      } else {
        Value fallback =
            others.empty()
                ? LLVM::ZeroOp::create(rewriter, loc, accessType).getResult()
                : packVector(rewriter, loc, accessType,
                             ArrayRef<Value>(others).slice(i, width));
        // One predicated instruction where the target has it (no branch,
        // no merge of values), else a branch around the load.
        loaded = !predicated
                     ? Value()
                     : target.loadGlobal(rewriter, loc, accessType, ptrs[i],
                                         masks[i], fallback, op.getCache(),
                                         op.getEvict());
        if (!loaded)
          loaded = emitGuarded(rewriter, loc, masks[i], fallback, load);
      }
      unpackVector(rewriter, loc, loaded, width, values);
    }
    if (isa<LLVM::LLVMStructType>(resultType)) {
      rewriter.replaceOp(op, packStruct(rewriter, loc, resultType, values));
      return success();
    }
    // A scalar: every lane loaded the same address in one instruction.
    rewriter.replaceOp(op, target.warpUniform(rewriter, loc, values.front(),
                                              tilegpu::getThreadsPerWarp(op)));
    return success();
  }
};

struct StoreOpConversion : public MemoryAccessPattern<tile::StoreOp> {
  using MemoryAccessPattern::MemoryAccessPattern;

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type sourceElement = getElementTypeOrSelf(op.getValue().getType());
    Type element = getTypeConverter()->convertType(sourceElement);
    if (!element)
      return rewriter.notifyMatchFailure(op, "unconvertible types");

    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = elementsOf(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    unsigned width =
        getVectorWidth(axisInfo, op.getPtr(), op.getMask(), sourceElement);
    unsigned alignment = width * memoryBits(sourceElement) / 8;
    Type accessType =
        width == 1 ? element : VectorType::get({int64_t(width)}, element);
    std::string reason;
    FailureOr<ElementCopies> copies =
        getElementCopies(op.getPtr().getType(), reason);
    if (failed(copies))
      return op.emitOpError(reason);
    Value owner = emitOwnerPredicate(rewriter, loc, target, *copies, [&] {
      return getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op));
    });

    bool predicated = usePredicatedForm(op, element, ptrs.size() / width);
    TargetInfo::MaskedAddresses addresses =
        target.maskedAddresses(rewriter, *getTypeConverter(), op);
    for (size_t i = 0; i < ptrs.size(); i += width) {
      if (int32_t(i) & copies->registerMask)
        continue;
      Value vector = packVector(rewriter, loc, accessType,
                                ArrayRef<Value>(values).slice(i, width));
      auto store = [&]() -> Value {
        if (op.getCache() || op.getEvict())
          target.storeWithHints(rewriter, loc, vector, ptrs[i], op.getCache(),
                                op.getEvict());
        else
          LLVM::StoreOp::create(rewriter, loc, vector, ptrs[i], alignment);
        return Value();
      };
      Value mask = masks.empty() ? owner : masks[i];
      if (owner && !masks.empty())
        mask = LLVM::AndOp::create(rewriter, loc, mask, owner);
      if (addresses)
        LLVM::StoreOp::create(rewriter, loc, vector, addresses(i, mask),
                              alignment);
      else if (!mask)
        store();
      else if (!predicated ||
               !target.storeGlobal(rewriter, loc, vector, ptrs[i], mask,
                                   op.getCache(), op.getEvict()))
        emitGuarded(rewriter, loc, mask, Value(), store);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tilegpu.prefetch_global: one prefetch per vector a load of the same
/// pointers would read (its first element's address), each under its mask.
struct PrefetchGlobalOpConversion
    : public MemoryAccessPattern<tilegpu::PrefetchGlobalOp> {
  using MemoryAccessPattern::MemoryAccessPattern;

  LogicalResult
  matchAndRewrite(tilegpu::PrefetchGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> ptrs = elementsOf(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks = elementsOf(rewriter, loc, adaptor.getMask());
    Type element =
        cast<tile::PointerType>(op.getPtr().getType().getElementType())
            .getPointeeType();
    unsigned width =
        getVectorWidth(axisInfo, op.getPtr(), op.getMask(), element);
    for (size_t i = 0; i < ptrs.size(); i += width)
      target.prefetchGlobal(rewriter, loc, ptrs[i],
                            masks.empty() ? Value() : masks[i]);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateMemoryOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ModuleAxisInfoAnalysis &axisInfo, const TargetInfo &target) {
  patterns.add<LoadOpConversion, StoreOpConversion, PrefetchGlobalOpConversion>(
      converter, axisInfo, target);
}
