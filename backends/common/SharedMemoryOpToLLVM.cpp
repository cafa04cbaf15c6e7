// Shared-memory buffers: local_alloc (the module's shared memory at the
// offset the allocation chose, optionally filled from a tensor),
// memdesc_index (one buffer of a stack), local_store and local_load (each
// thread moves the elements it holds, at the offsets the composition of the
// two linear layouts gives, in the widest vectors both layouts allow, at
// most 16 bytes), local_dealloc (nothing: the allocation already reused
// the memory).
#include "backends/SharedMemory.h"
#include "backends/common/MmaOperandLoads.h"
#include "backends/common/Patterns.h"
#include "backends/common/SharedMemoryAccess.h"
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/Layout/SharedLayouts.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::terrazzo;

constexpr unsigned kMaxVectorBytes = 16;

std::optional<LinearLayout>
mlir::terrazzo::getSharedLayout(tilegpu::MemDescType type) {
  // Buffers the library cannot lay out (a stack of 3 pipeline stages, say)
  // have no linear form; their users address them otherwise or fail.
  if (auto swizzled =
          dyn_cast<tilegpu::SwizzledSharedLayoutAttr>(type.getEncoding())) {
    if (!::terrazzo::checkSwizzledSharedLayout(
             type.getShape(), swizzled.getVec(), swizzled.getPerPhase(),
             swizzled.getMaxPhase(), swizzled.getOrder())
             .empty())
      return std::nullopt;
    return ::terrazzo::swizzledSharedLayout(
        type.getShape(), swizzled.getVec(), swizzled.getPerPhase(),
        swizzled.getMaxPhase(), swizzled.getOrder());
  }
  if (auto nvmma = dyn_cast<tilegpu::NvmmaSharedLayoutAttr>(type.getEncoding())) {
    if (!::terrazzo::checkNvmmaSharedLayout(
             type.getShape(), nvmma.getSwizzlingByteWidth(),
             nvmma.getTransposed(), nvmma.getElementBitWidth())
             .empty())
      return std::nullopt;
    return ::terrazzo::nvmmaSharedLayout(
        type.getShape(), nvmma.getSwizzlingByteWidth(), nvmma.getTransposed(),
        nvmma.getElementBitWidth());
  }
  return std::nullopt;
}

FailureOr<SharedAccessPlan>
mlir::terrazzo::planSharedAccess(Operation *op, RankedTensorType tensor,
                                 tilegpu::MemDescType buffer,
                                 unsigned maxBytes) {
  std::optional<LinearLayout> distributed = getLinearLayout(tensor);
  std::optional<LinearLayout> shared = getSharedLayout(buffer);
  if (!distributed)
    return op->emitOpError("needs a distributed layout on ") << tensor;
  if (!shared)
    return op->emitOpError("cannot address the buffer ")
           << buffer << ": its layout has no linear form (sizes must be "
           << "powers of two)";
  SharedAccessPlan plan;
  plan.offsets = ::terrazzo::distributedToSharedOffsets(*distributed, *shared);
  unsigned elementBytes = scratchElementBytes(buffer.getElementType());
  // i1 is stored as bytes one at a time (the registers hold i1 values).
  int32_t maxElements = buffer.getElementType().isInteger(1)
                            ? 1
                            : int32_t(std::max(1u, maxBytes / elementBytes));
  plan.vectorWidth =
      ::terrazzo::contiguousSharedRegisters(plan.offsets, maxElements);
  return plan;
}

Type mlir::terrazzo::sharedElementType(Type element) {
  if (element.isInteger(1))
    return IntegerType::get(element.getContext(), 8);
  return element;
}

void mlir::terrazzo::storeSharedElements(RewriterBase &rewriter, Location loc,
                                         Value ptr, ArrayRef<Value> values,
                                         unsigned elementBytes) {
  Type element = values.front().getType();
  Type memoryType = sharedElementType(element);
  auto widen = [&](Value value) -> Value {
    return memoryType == element
               ? value
               : LLVM::ZExtOp::create(rewriter, loc, memoryType, value)
                     .getResult();
  };
  if (values.size() == 1) {
    LLVM::StoreOp::create(rewriter, loc, widen(values.front()), ptr,
                          elementBytes);
    return;
  }
  auto vectorType = VectorType::get({int64_t(values.size())}, memoryType);
  Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
  for (auto [i, value] : llvm::enumerate(values))
    vector = LLVM::InsertElementOp::create(rewriter, loc, vector, widen(value),
                                           i32Constant(rewriter, loc, i));
  LLVM::StoreOp::create(rewriter, loc, vector, ptr,
                        values.size() * elementBytes);
}

SmallVector<Value> mlir::terrazzo::loadSharedElements(RewriterBase &rewriter,
                                                      Location loc, Value ptr,
                                                      Type element,
                                                      int32_t count,
                                                      unsigned elementBytes) {
  Type memoryType = sharedElementType(element);
  auto narrow = [&](Value value) -> Value {
    return memoryType == element
               ? value
               : LLVM::TruncOp::create(rewriter, loc, element, value)
                     .getResult();
  };
  if (count == 1)
    return {narrow(
        LLVM::LoadOp::create(rewriter, loc, memoryType, ptr, elementBytes))};
  auto vectorType = VectorType::get({count}, memoryType);
  Value vector =
      LLVM::LoadOp::create(rewriter, loc, vectorType, ptr, count * elementBytes);
  SmallVector<Value> values;
  for (int32_t i = 0; i < count; ++i)
    values.push_back(narrow(LLVM::ExtractElementOp::create(
        rewriter, loc, vector, i32Constant(rewriter, loc, i))));
  return values;
}

SmallVector<Value> mlir::terrazzo::emitSharedOffsets(RewriterBase &rewriter,
                                                     Location loc,
                                                     const SharedAccessPlan &plan,
                                                     ThreadPosition thread) {
  SmallVector<Value> offsets;
  for (auto &coords : emitIndices(rewriter, loc, plan.offsets, thread))
    offsets.push_back(coords.front());
  return offsets;
}

Value mlir::terrazzo::sharedElementPointer(RewriterBase &rewriter, Location loc,
                                           Value base, Type element,
                                           Value offset) {
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  return LLVM::GEPOp::create(rewriter, loc, sharedPtr,
                             sharedElementType(element), base,
                             ValueRange{offset});
}

namespace {

/// Stores the elements of `src` (a struct in `tensor`'s layout) into the
/// buffer at `base`. Registers that only repeat an earlier register of the
/// same thread (a broadcast layout) are skipped.
LogicalResult storeToShared(Operation *op, Value src, RankedTensorType tensor,
                            Value base, tilegpu::MemDescType buffer,
                            const TargetInfo &target,
                            ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  FailureOr<SharedAccessPlan> plan =
      planSharedAccess(op, tensor, buffer, kMaxVectorBytes);
  if (failed(plan))
    return failure();
  ThreadPosition thread =
      getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op));
  SmallVector<Value> values = unpackStruct(rewriter, loc, src);
  // A tensor-core result into a buffer that keeps 16-byte row chunks (a
  // TMA store's): whole rows per lane with stmatrix.
  if (std::optional<LinearLayout> tensorLayout = getLinearLayout(tensor))
    if (std::optional<LinearLayout> bufferLayout = getSharedLayout(buffer))
      if (storeMmaResultToBuffer(rewriter, loc, tensor, *tensorLayout, values,
                                 *bufferLayout, base, values.front().getType(),
                                 thread, target))
        return success();
  SmallVector<Value> offsets = emitSharedOffsets(rewriter, loc, *plan, thread);
  Type element = values.front().getType();
  unsigned elementBytes = scratchElementBytes(buffer.getElementType());
  int32_t width = plan->vectorWidth;
  int32_t repeatedRegisters = 0;
  for (auto [name, mask] : plan->offsets.getFreeVariableMasks())
    if (name == kRegister)
      repeatedRegisters = mask;
  for (size_t reg = 0; reg < values.size(); reg += width) {
    if (int32_t(reg) & repeatedRegisters)
      continue;
    Value ptr = sharedElementPointer(rewriter, loc, base, element, offsets[reg]);
    storeSharedElements(rewriter, loc, ptr,
                        ArrayRef<Value>(values).slice(reg, width),
                        elementBytes);
  }
  return success();
}

/// The pointer to the buffer a local_alloc created: the module's shared
/// memory at the allocation's `tilegpu.buffer_offset`.
Value allocationPointer(tilegpu::LocalAllocOp op, RewriterBase &rewriter) {
  auto offset = op->getAttrOfType<IntegerAttr>(
      tilegpu::TileGPUDialect::kBufferOffsetAttrName);
  auto module = op->getParentOfType<ModuleOp>();
  auto global =
      module ? module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryGlobalName)
             : LLVM::GlobalOp();
  if (!offset || !global) {
    op.emitOpError("was not given a place in shared memory; run "
                   "terrazzo-allocate-shared-memory first");
    return Value();
  }
  Location loc = op.getLoc();
  auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
  Value base =
      LLVM::AddressOfOp::create(rewriter, loc, sharedPtr, global.getSymName());
  if (offset.getInt() == 0)
    return base;
  return LLVM::GEPOp::create(rewriter, loc, sharedPtr, rewriter.getI8Type(),
                             base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset.getInt())});
}

struct LocalAllocOpConversion : public TargetPattern<tilegpu::LocalAllocOp> {
  using TargetPattern<tilegpu::LocalAllocOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value ptr = allocationPointer(op, rewriter);
    if (!ptr)
      return failure();
    if (op.getSrc() &&
        failed(storeToShared(op, adaptor.getSrc(), op.getSrc().getType(), ptr,
                             op.getType(), target, rewriter)))
      return failure();
    rewriter.replaceOp(op, ptr);
    return success();
  }
};

struct LocalStoreOpConversion : public TargetPattern<tilegpu::LocalStoreOp> {
  using TargetPattern<tilegpu::LocalStoreOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(storeToShared(op, adaptor.getSrc(), op.getSrc().getType(),
                             adaptor.getBuffer(), op.getBuffer().getType(),
                             target, rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadOpConversion : public TargetPattern<tilegpu::LocalLoadOp> {
  using TargetPattern<tilegpu::LocalLoadOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tilegpu::MemDescType buffer = op.getBuffer().getType();
    // Tensor-core operands: whole 16-byte rows per lane with ldmatrix.
    if (std::optional<LinearLayout> tensorLayout = getLinearLayout(op.getType()))
      if (std::optional<LinearLayout> bufferLayout = getSharedLayout(buffer)) {
        ThreadPosition thread =
            getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op));
        Type element =
            getTypeConverter()->convertType(buffer.getElementType());
        if (std::optional<SmallVector<Value>> loaded =
                loadMmaOperandFromBuffer(rewriter, loc, op.getType(),
                                         *tensorLayout, *bufferLayout,
                                         adaptor.getBuffer(), element, thread,
                                         target)) {
          rewriter.replaceOp(op, packStruct(rewriter, loc,
                                            getTypeConverter()->convertType(
                                                op.getType()),
                                            *loaded));
          return success();
        }
      }
    FailureOr<SharedAccessPlan> plan =
        planSharedAccess(op, op.getType(), buffer, kMaxVectorBytes);
    if (failed(plan))
      return failure();
    Type structType = getTypeConverter()->convertType(op.getType());
    Type element = getTypeConverter()->convertType(buffer.getElementType());
    if (!structType || !element)
      return rewriter.notifyMatchFailure(op, "unconvertible types");
    unsigned elementBytes = scratchElementBytes(buffer.getElementType());
    ThreadPosition thread =
        getThreadPosition(rewriter, loc, target, tilegpu::getThreadsPerWarp(op));
    SmallVector<Value> offsets = emitSharedOffsets(rewriter, loc, *plan, thread);
    int32_t width = plan->vectorWidth;
    SmallVector<Value> results;
    for (size_t reg = 0; reg < offsets.size(); reg += width) {
      Value ptr = sharedElementPointer(rewriter, loc, adaptor.getBuffer(),
                                       element, offsets[reg]);
      llvm::append_range(results, loadSharedElements(rewriter, loc, ptr,
                                                     element, width,
                                                     elementBytes));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, results));
    return success();
  }
};

struct LocalDeallocOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::LocalDeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LocalDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexOpConversion
    : public TargetPattern<tilegpu::MemDescIndexOp> {
  using TargetPattern<tilegpu::MemDescIndexOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The leading dimension is the slowest of the layout (verified), so
    // buffer i starts i buffers in.
    Location loc = op.getLoc();
    tilegpu::MemDescType result = op.getType();
    int64_t elements = 1;
    for (int64_t size : result.getShape())
      elements *= size;
    Type element = getTypeConverter()->convertType(result.getElementType());
    // The index is a scalar, the same in every lane: read from lane 0, so
    // that ptxas knows it warp-uniform. Ring indices carried around a
    // persistent kernel's tile loop were not (its uniform analysis gives
    // up on them), and every wgmma descriptor derived from them was built
    // in per-thread registers and moved to uniform ones (R2UR) before its
    // wgmma: 74 R2UR in tutorial 06's persistent D=128 forward, 14 with
    // the broadcast, 2-5% faster (bench/RESULTS.md, session 23).
    Value index = adaptor.getIndex();
    if (!matchPattern(index, m_Constant()))
      index = target.warpUniform(rewriter, loc, index,
                                 tilegpu::getThreadsPerWarp(op));
    Value offset = LLVM::MulOp::create(rewriter, loc, index,
                                       i32Constant(rewriter, loc, elements));
    rewriter.replaceOp(op, sharedElementPointer(rewriter, loc,
                                                adaptor.getSrc(), element,
                                                offset));
    return success();
  }
};

/// The same memory: the view's layout tells its readers how to index it.
struct MemDescTransOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::MemDescTransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MemDescTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateSharedMemoryOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<LocalDeallocOpConversion, MemDescTransOpConversion>(converter);
  patterns.add<LocalAllocOpConversion, LocalStoreOpConversion,
               LocalLoadOpConversion, MemDescIndexOpConversion>(converter,
                                                                target);
}
