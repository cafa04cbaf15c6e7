// The NVIDIA-only ops of the tilegpu dialect (NVIDIAOps.td): verifiers of
// wgmma's, TMA's and the mbarriers', and the shared layouts TMA copies
// produce (TmaLayout.h).
#include "dialects/TileGPU/IR/TmaLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Bytes of an element TMA can copy (1, 2, 4 or 8), or 0.
int64_t tmaElementBytes(Type type) {
  if (!type.isIntOrFloat() || type.isInteger(1))
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return 0;
  return bits / 8;
}

LogicalResult fail(std::string *why, const Twine &message) {
  if (why)
    *why = message.str();
  return failure();
}

bool isRowMajor(SwizzledSharedLayoutAttr layout) {
  if (layout.getVec() != 1 || layout.getPerPhase() != 1 ||
      layout.getMaxPhase() != 1)
    return false;
  ArrayRef<unsigned> order = layout.getOrder();
  for (unsigned i = 0; i < order.size(); ++i)
    if (order[i] != order.size() - 1 - i)
      return false;
  return true;
}

} // namespace

LogicalResult mlir::tilegpu::getTmaCopies(MemDescType type,
                                          SmallVectorImpl<int64_t> &box,
                                          SmallVectorImpl<TmaCopy> &copies,
                                          std::string *why) {
  box.clear();
  copies.clear();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  int64_t elementBytes = tmaElementBytes(type.getElementType());
  if (!elementBytes)
    return fail(why, "TMA copies elements of 1, 2, 4 or 8 bytes only");
  if (rank < 1 || rank > kTmaMaxRank)
    return fail(why, "TMA copies blocks of rank 1 to 5");
  if (auto nvmma = dyn_cast<NvmmaSharedLayoutAttr>(type.getEncoding())) {
    int64_t width = nvmma.getSwizzlingByteWidth();
    if (rank != 2 || nvmma.getTransposed() || !width)
      return fail(why, "an nvmma_shared TMA buffer must be 2-D, not "
                       "transposed and swizzled");
    int64_t rows = shape[0], columns = shape[1];
    int64_t boxColumns = width / elementBytes;
    if (columns % boxColumns || rows < 8 || !llvm::isPowerOf2_64(rows))
      return fail(why, "a swizzled TMA buffer needs a power-of-two number "
                       "of rows, at least 8, and whole swizzle rows");
    int64_t boxRows = std::min(rows, kTmaMaxBoxDim);
    box.assign({boxRows, boxColumns});
    for (int64_t c = 0; c < columns / boxColumns; ++c)
      for (int64_t r = 0; r < rows / boxRows; ++r)
        copies.push_back(
            {{r * boxRows, c * boxColumns}, (c * rows + r * boxRows) * width});
    return success();
  }
  auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(type.getEncoding());
  if (!swizzled || !isRowMajor(swizzled))
    return fail(why, "a TMA buffer must be nvmma_shared or a row-major "
                     "swizzled_shared without swizzle");
  if ((shape.back() * elementBytes) % 16)
    return fail(why, "TMA boxes hold a multiple of 16 bytes in their "
                     "innermost dimension");
  for (int64_t size : shape)
    if (size > kTmaMaxBoxDim)
      return fail(why, "an unswizzled TMA buffer is one box, at most 256 "
                       "elements in each dimension");
  box.assign(shape.begin(), shape.end());
  copies.push_back({SmallVector<int64_t>(rank, 0), 0});
  return success();
}

unsigned mlir::tilegpu::getTmaSwizzleBytes(MemDescType type) {
  if (auto nvmma = dyn_cast<NvmmaSharedLayoutAttr>(type.getEncoding()))
    return nvmma.getSwizzlingByteWidth();
  return 0;
}

SharedLayoutAttr mlir::tilegpu::getTmaSharedLayout(MLIRContext *context,
                                                   ArrayRef<int64_t> shape,
                                                   Type elementType) {
  int64_t rank = shape.size();
  int64_t elementBytes = tmaElementBytes(elementType);
  if (!elementBytes || rank < 1 || rank > kTmaMaxRank)
    return {};
  for (int64_t size : shape)
    if (size < 1 || !llvm::isPowerOf2_64(size))
      return {};
  int64_t innerBytes = shape.back() * elementBytes;
  if (innerBytes % 16)
    return {};
  // Swizzled rows spread a column's elements over the banks; the swizzle
  // pattern repeats every 8 rows, so fewer rows cannot use it.
  if (rank == 2 && shape[0] >= 8 && innerBytes >= 32 && elementBytes <= 4)
    return NvmmaSharedLayoutAttr::get(
        context, unsigned(std::min<int64_t>(innerBytes, 128)),
        /*transposed=*/false, unsigned(elementBytes * 8));
  for (int64_t size : shape)
    if (size > kTmaMaxBoxDim)
      return {};
  SmallVector<unsigned> order;
  for (int64_t d = rank - 1; d >= 0; --d)
    order.push_back(unsigned(d));
  return SwizzledSharedLayoutAttr::get(context, 1, 1, 1, order);
}

MemDescType mlir::tilegpu::getMBarrierType(MLIRContext *context) {
  auto layout = SwizzledSharedLayoutAttr::get(context, 1, 1, 1, {0});
  return MemDescType::get(context, {1}, IntegerType::get(context, 64), layout,
                          /*mutableMemory=*/true);
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

namespace {

LogicalResult verifyMBarrier(Operation *op, MemDescType type) {
  if (type.getShape() != ArrayRef<int64_t>{1} ||
      !type.getElementType().isInteger(64) || !type.getMutableMemory())
    return op->emitOpError("needs an mbarrier: a mutable shared buffer of "
                           "one i64, got ")
           << type;
  return success();
}

LogicalResult verifyTmaBuffer(Operation *op, MemDescType type,
                              size_t numCoords) {
  if (numCoords != type.getShape().size())
    return op->emitOpError("needs one coordinate per buffer dimension (")
           << type.getShape().size() << "), got " << numCoords;
  SmallVector<int64_t> box;
  SmallVector<TmaCopy> copies;
  std::string why;
  if (failed(getTmaCopies(type, box, copies, &why)))
    return op->emitOpError("cannot fill ") << type << " by TMA: " << why;
  return success();
}

} // namespace

SmallVector<Operation *, 4> TensormapCreateOp::group() {
  Block *block = getOperation()->getBlock();
  std::optional<WarpSpecializeOp::Partition> partition =
      WarpSpecializeOp::partitionOf(block);
  unsigned warps =
      partition ? partition->numWarps : getNumWarps(getOperation());
  // The run of tensormap_create ops and ops free of memory effects around
  // this op, split into groups from its start: at an op using a map built
  // in the group, and after `warps` maps.
  Operation *first = getOperation();
  for (Operation *op = first->getPrevNode();
       op && (isa<TensormapCreateOp>(op) || isMemoryEffectFree(op));
       op = op->getPrevNode())
    first = op;
  SmallVector<Operation *, 4> group;
  SmallPtrSet<Operation *, 4> built;
  for (Operation *op = first; op; op = op->getNextNode()) {
    auto create = dyn_cast<TensormapCreateOp>(op);
    if (!create && !isMemoryEffectFree(op))
      break;
    bool usesBuilt = llvm::any_of(op->getOperands(), [&](Value operand) {
      return built.contains(operand.getDefiningOp());
    });
    if (usesBuilt || (create && group.size() == warps)) {
      if (llvm::is_contained(group, getOperation()))
        break;
      group.clear();
      built.clear();
    }
    if (create) {
      group.push_back(op);
      built.insert(op);
    }
  }
  return group;
}

LogicalResult TensormapCreateOp::verify() {
  ArrayRef<int32_t> box = getBoxShape();
  int64_t rank = box.size();
  if (rank < 1 || rank > kTmaMaxRank)
    return emitOpError("needs a box of rank 1 to 5, got rank ") << rank;
  if (int64_t(getShape().size()) != rank || int64_t(getStrides().size()) != rank)
    return emitOpError("needs one shape and one stride per box dimension (")
           << rank << "), got " << getShape().size() << " and "
           << getStrides().size();
  for (int32_t size : box)
    if (size < 1 || size > kTmaMaxBoxDim)
      return emitOpError("box dimensions must be 1 to 256, got ") << size;
  Type element = cast<tile::PointerType>(getBase().getType()).getPointeeType();
  int64_t elementBytes = tmaElementBytes(element);
  if (!elementBytes)
    return emitOpError("TMA copies elements of 1, 2, 4 or 8 bytes, not ")
           << element;
  int64_t innerBytes = int64_t(box.back()) * elementBytes;
  if (innerBytes % 16)
    return emitOpError("the innermost box dimension holds ")
           << innerBytes << " bytes; TMA needs a multiple of 16";
  int32_t swizzle = getSwizzleBytes();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError("swizzle must be 0, 32, 64 or 128 bytes, got ")
           << swizzle;
  if (swizzle && innerBytes > swizzle)
    return emitOpError("the innermost box dimension (")
           << innerBytes << " bytes) is wider than the " << swizzle
           << "-byte swizzle";
  return success();
}

LogicalResult MBarrierInitOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierExpectTxOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierWaitOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierArriveOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult MBarrierInvalOp::verify() {
  return verifyMBarrier(*this, getBarrier().getType());
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyMBarrier(*this, getBarrier().getType())))
    return failure();
  MemDescType type = getResult().getType();
  if (!type.getMutableMemory())
    return emitOpError("writes an immutable buffer");
  return verifyTmaBuffer(*this, type, getCoords().size());
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  return verifyTmaBuffer(*this, getSrc().getType(), getCoords().size());
}

//===----------------------------------------------------------------------===//
// WarpGroupDotOp
//===----------------------------------------------------------------------===//

LogicalResult WarpGroupDotOp::verify() {
  auto aType = cast<ShapedType>(getA().getType());
  MemDescType bType = getB().getType();
  auto aBuffer = dyn_cast<MemDescType>(aType);
  auto aLayout = aBuffer
                     ? dyn_cast<NvmmaSharedLayoutAttr>(aBuffer.getEncoding())
                     : NvmmaSharedLayoutAttr();
  auto bLayout = dyn_cast<NvmmaSharedLayoutAttr>(bType.getEncoding());
  if ((aBuffer && !aLayout) || !bLayout)
    return emitOpError("operands must be shared buffers in "
                       "#tilegpu.nvmma_shared layouts (A maybe registers)");
  RankedTensorType cType = getC().getType(), dType = getType();
  if (cType != dType)
    return emitOpError("accumulator ")
           << cType << " and result " << dType << " must have the same type";
  auto mma = dyn_cast_or_null<NvidiaMmaLayoutAttr>(dType.getEncoding());
  if (!mma || mma.getVersionMajor() != 3)
    return emitOpError("result must be in a #tilegpu.nvidia_mma layout of "
                       "version 3 (wgmma), got ")
           << dType;
  if (!aBuffer) {
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(
        cast<RankedTensorType>(aType).getEncoding());
    unsigned bits = aType.getElementTypeBitWidth();
    if (!operand || operand.getOpIdx() != 0 || operand.getParent() != mma ||
        bits != 16 || operand.getKWidth() != 2)
      return emitOpError("A in registers must be a 16-bit tensor in the "
                         "#tilegpu.dot_operand layout of A (kWidth = 2) whose "
                         "parent is the result's layout, got ")
             << aType;
  }
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape(),
                    d = dType.getShape();
  if (a.size() != 2 || b.size() != 2 || d.size() != 2 || a[1] != b[0] ||
      d[0] != a[0] || d[1] != b[1])
    return emitOpError("shapes must be M x K, K x N and M x N, got ")
           << aType << ", " << bType << " and " << dType;

  Type aElement = aType.getElementType(), bElement = bType.getElementType();
  Type dElement = dType.getElementType();
  auto isFp8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(type);
  };
  int64_t kStep = 0;
  if (aElement != bElement && !(isFp8(aElement) && isFp8(bElement)))
    return emitOpError("operand element types ")
           << aElement << " and " << bElement << " must match";
  if (aElement.isF16() && (dElement.isF16() || dElement.isF32()))
    kStep = 16;
  else if (aElement.isBF16() && dElement.isF32())
    kStep = 16;
  else if (aElement.isF32() && dElement.isF32() &&
           getInputPrecision() == tile::InputPrecision::TF32)
    kStep = 8;
  else if (isFp8(aElement) && (dElement.isF16() || dElement.isF32()))
    kStep = 32;
  if (!kStep)
    return emitOpError("no wgmma computes ")
           << dElement << " from " << aElement
           << " operands (f32 operands need precision = tf32)";
  // Only 16-bit operands may be MN-major (wgmma's transpose bits); the
  // others must have K contiguous: dim 1 of A, dim 0 of B.
  if (aElement.getIntOrFloatBitWidth() != 16 &&
      ((aLayout && aLayout.getTransposed()) || !bLayout.getTransposed()))
    return emitOpError("operands of ")
           << aElement << " must be K-major (A not transposed, B transposed)";

  ArrayRef<unsigned> instr = mma.getInstrShape();
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  if (d[0] % (16 * warps[0]) != 0)
    return emitOpError("M = ")
           << d[0] << " must be a multiple of 16 rows per warp along M ("
           << 16 * warps[0] << ")";
  if (d[1] % (int64_t(instr[1]) * warps[1]) != 0)
    return emitOpError("N = ") << d[1] << " must be a multiple of instrShape "
                               << "N times the warps along N ("
                               << instr[1] * warps[1] << ")";
  if (a[1] % kStep != 0)
    return emitOpError("K = ") << a[1] << " must be a multiple of " << kStep
                               << " (one wgmma's K for " << aElement << ")";
  // The lowering steps through K by instrShape's K.
  if (instr[2] != kStep)
    return emitOpError("the accumulator's instrShape K = ")
           << instr[2] << " must be " << kStep << " (one wgmma's K for "
           << aElement << ")";
  return success();
}

/// The results of an op that hands its operands on once something has
/// happened (a wgmma wait, a warp-group turn): their types.
static LogicalResult operandTypes(ValueRange operands,
                                  SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  return operandTypes(operands, inferredReturnTypes);
}

/// The warp groups of the module `op` is in take turns: there are at least
/// two, and `only` names one of them. The values tied to the turn have
/// 32-bit elements (the lowering ties them through their bits).
static LogicalResult verifyWarpGroupTurn(Operation *op,
                                         std::optional<uint32_t> only,
                                         ValueRange values) {
  for (Value value : values)
    if (Type element = getElementTypeOrSelf(value.getType());
        !element.isIntOrFloat() || element.getIntOrFloatBitWidth() != 32)
      return op->emitOpError("ties only values of 32-bit elements to the "
                             "turn, got ")
             << value.getType();
  unsigned warps = getNumWarps(op);
  if (warps % kWarpsPerGroup != 0 || warps < 2 * kWarpsPerGroup)
    return op->emitOpError("needs at least two warp groups (tilegpu.num-warps "
                           "a multiple of ")
           << kWarpsPerGroup << ", at least " << 2 * kWarpsPerGroup << "), got "
           << warps << " warps";
  if (only && *only >= warps / kWarpsPerGroup)
    return op->emitOpError("names warp group ")
           << *only << " of a program of " << warps / kWarpsPerGroup;
  return success();
}

LogicalResult WarpGroupTurnWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  return operandTypes(operands, inferredReturnTypes);
}

LogicalResult WarpGroupTurnWaitOp::verify() {
  return verifyWarpGroupTurn(*this, getOnly(), getValues());
}

LogicalResult WarpGroupTurnPassOp::verify() {
  return verifyWarpGroupTurn(*this, getOnly(), getValues());
}

bool mlir::tilegpu::collectTurnEnds(
    Operation *func, SmallVectorImpl<WarpGroupTurnPassOp> &starts,
    SmallVectorImpl<WarpGroupTurnWaitOp> &ends) {
  bool turns = false;
  func->walk([&](Operation *op) {
    if (auto pass = dyn_cast<WarpGroupTurnPassOp>(op)) {
      turns = true;
      if (pass.getOnly())
        starts.push_back(pass);
    } else if (auto wait = dyn_cast<WarpGroupTurnWaitOp>(op)) {
      turns = true;
      if (wait.getOnly())
        ends.push_back(wait);
    }
  });
  return turns;
}

bool mlir::tilegpu::turnEndsNeedProgramBarriers(
    ArrayRef<WarpGroupTurnPassOp> starts, ArrayRef<WarpGroupTurnWaitOp> ends) {
  auto inLoop = [](Operation *op) {
    return op->getParentOfType<LoopLikeOpInterface>() != nullptr;
  };
  return starts.size() != 1 || ends.size() != 1 || inLoop(starts.front()) ||
         inLoop(ends.front());
}

bool mlir::tilegpu::turnsNeedProgramBarriers(Operation *func) {
  SmallVector<WarpGroupTurnPassOp> starts;
  SmallVector<WarpGroupTurnWaitOp> ends;
  return collectTurnEnds(func, starts, ends) &&
         turnEndsNeedProgramBarriers(starts, ends);
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().empty())
    return emitOpError("waits for the results of async warp_group_dots, "
                       "and has none");
  for (Value input : getInputs()) {
    auto mma = dyn_cast_or_null<NvidiaMmaLayoutAttr>(
        cast<RankedTensorType>(input.getType()).getEncoding());
    if (!mma || mma.getVersionMajor() != 3)
      return emitOpError("inputs must be wgmma accumulators (a "
                         "#tilegpu.nvidia_mma layout of version 3), got ")
             << input.getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

std::optional<WarpSpecializeOp::Partition>
WarpSpecializeOp::partitionOf(Block *block) {
  for (Region *region = block ? block->getParent() : nullptr; region;
       region = region->getParentRegion()) {
    auto op = dyn_cast_or_null<WarpSpecializeOp>(region->getParentOp());
    if (!op)
      continue;
    Partition partition;
    partition.producer = region == &op.getProducer();
    unsigned consumers = getNumWarps(op);
    partition.firstWarp = partition.producer ? consumers : 0;
    partition.numWarps = partition.producer ? op.getProducerWarps() : consumers;
    return partition;
  }
  return std::nullopt;
}

unsigned WarpSpecializeOp::launchRegisters(
    unsigned totalWarps, std::optional<unsigned> maxRegisters) {
  unsigned perThread = 65536 / (std::max(totalWarps, 1u) * 32);
  if (maxRegisters)
    perThread = std::min(perThread, *maxRegisters);
  return std::min(248u, perThread / 8 * 8);
}

LogicalResult WarpSpecializeOp::verify() {
  // setmaxnreg's operand: a multiple of 8 from 24 to 256.
  for (int32_t registers : {getProducerRegisters(), getConsumerRegisters()})
    if (registers < 24 || registers > 256 || registers % 8 != 0)
      return emitOpError("register budgets must be multiples of 8 from 24 "
                         "to 256, got ")
             << registers;
  unsigned consumers = getNumWarps(*this);
  if (consumers % 4 != 0)
    return emitOpError("needs whole warp groups of consumers; the module's "
                       "tilegpu.num-warps is ")
           << consumers;
  unsigned total = getTotalNumWarps(*this);
  if (total != consumers + getProducerWarps())
    return emitOpError("adds ")
           << getProducerWarps()
           << " producer warps to the module's tilegpu.num-warps, so the "
              "module's tilegpu.total-num-warps must be "
           << consumers + getProducerWarps() << ", got " << total;
  // setmaxnreg.inc takes registers that setmaxnreg.dec gave back: the
  // consumers' gain must not exceed what the producer gives up.
  int64_t launch = launchRegisters(total, getMaxRegisters(*this));
  int64_t gain = int64_t(consumers) * (getConsumerRegisters() - launch);
  int64_t given = int64_t(getProducerWarps()) * (launch - getProducerRegisters());
  if (getProducerRegisters() > launch || gain > given)
    return emitOpError("register budgets ")
           << getProducerRegisters() << " and " << getConsumerRegisters()
           << " do not balance: " << total << " warps start with " << launch
           << " registers per thread, and the consumers may take only what "
              "the producer gives up";
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError("cannot be nested in another warp_specialize");
  return success();
}

LogicalResult WarpSpecializeOp::verifyRegions() {
  // Each partition's warps run its region to a partition_end.
  for (auto [region, name] :
       {std::pair<Region *, StringRef>(&getConsumers(), "consumers"),
        {&getProducer(), "producer"}})
    if (region->empty())
      return emitOpError("has an empty ")
             << name << " region; each partition ends in tilegpu.partition_end";
  // The producer's warps are outside every layout, which describe the
  // consumers' warps only.
  WalkResult result = getProducer().walk([&](Operation *op) {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes()))
      if (isa<RankedTensorType>(type)) {
        op->emitOpError("holds a tensor in a warp_specialize's producer, "
                        "whose warps no layout describes");
        return WalkResult::interrupt();
      }
    if (isa<BarrierOp>(op)) {
      op->emitOpError("is a barrier of the program in a warp_specialize's "
                      "producer, which meets the consumers through mbarriers "
                      "only");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
