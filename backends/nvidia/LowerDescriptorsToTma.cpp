// terrazzo-lower-descriptors-to-tma: see Passes.td.
#include "backends/nvidia/Passes.h"

#include "passes/LayoutUtils.h"
#include "passes/PipelineSupport.h"
#include "passes/TmaDescriptors.h"

#include "dialects/TileGPU/IR/TmaLayout.h"
#include "passes/Analysis/AxisInfo.h"
#include "terrazzo/TensorMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOLOWERDESCRIPTORSTOTMA
#include "backends/nvidia/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

Value i32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// The program instance's index in the grid, x fastest, as an i64.
Value linearProgramId(OpBuilder &b, Location loc) {
  auto pid = [&](tile::ProgramDim dim) {
    return tile::ProgramIdOp::create(b, loc, b.getI32Type(), dim);
  };
  auto count = [&](tile::ProgramDim dim) {
    return tile::NumProgramsOp::create(b, loc, b.getI32Type(), dim);
  };
  auto wide = [&](Value v) {
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
  };
  Value z = wide(pid(tile::ProgramDim::Z));
  Value y = wide(pid(tile::ProgramDim::Y));
  Value x = wide(pid(tile::ProgramDim::X));
  Value ny = wide(count(tile::ProgramDim::Y));
  Value nx = wide(count(tile::ProgramDim::X));
  Value yz = arith::AddIOp::create(b, loc, y,
                                   arith::MulIOp::create(b, loc, z, ny));
  return arith::AddIOp::create(b, loc, x,
                               arith::MulIOp::create(b, loc, yz, nx));
}

/// The shared buffer TMA fills with (or stores from) a block of `desc`.
tilegpu::MemDescType tmaBufferType(tile::MakeTensorDescOp desc) {
  RankedTensorType block = desc.getType().getBlockType();
  return tilegpu::MemDescType::get(
      desc.getContext(), block.getShape(), block.getElementType(),
      tilegpu::getTmaSharedLayout(desc.getContext(), block.getShape(),
                                  block.getElementType()),
      /*mutableMemory=*/true);
}

/// Rewrites the loads and stores of one descriptor whose tensor map is
/// `map`.
class TmaLowering {
public:
  TmaLowering(tile::MakeTensorDescOp desc, Value map)
      : map(map), context(desc.getContext()), bufferType(tmaBufferType(desc)) {
  }

  /// Global -> shared by TMA, completing on a fresh mbarrier that every
  /// thread waits on; then into registers, in the layout the load's user
  /// wants when that user is a layout conversion.
  void lowerLoad(tile::DescLoadOp load) {
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value buffer = tilegpu::LocalAllocOp::create(b, loc, bufferType, Value());
    Value barrier = tilegpu::LocalAllocOp::create(
        b, loc, tilegpu::getMBarrierType(context), Value());
    tilegpu::MBarrierInitOp::create(b, loc, barrier, 1);
    tilegpu::MBarrierExpectTxOp::create(b, loc, barrier,
                                        int32_t(bufferBytes(bufferType)));
    tilegpu::AsyncTMACopyGlobalToLocalOp::create(b, loc, map,
                                                 load.getIndices(), buffer,
                                                 barrier);
    tilegpu::MBarrierWaitOp::create(b, loc, barrier, i32(b, loc, 0));
    tilegpu::MBarrierInvalOp::create(b, loc, barrier);
    Operation *replaced = load;
    RankedTensorType type = load.getType();
    if (load->hasOneUse())
      if (auto convert =
              dyn_cast<tilegpu::ConvertLayoutOp>(*load->user_begin())) {
        replaced = convert;
        type = convert.getType();
      }
    if (succeeded(readInPlace(b, loc, replaced, buffer))) {
      if (replaced != load)
        replaced->erase();
      load.erase();
      return;
    }
    Value value = tilegpu::LocalLoadOp::create(b, loc, type, buffer);
    replaced->replaceAllUsesWith(ValueRange{value});
    if (replaced != load)
      replaced->erase();
    load.erase();
  }

  /// Registers -> shared, fenced for the async proxy; one thread stores by
  /// TMA. A store outside loops waits at once until the buffer has been
  /// read. A store in loops (a persistent kernel's epilogue) writes a
  /// buffer allocated before the outermost loop and leaves its TMA store
  /// in flight: the next iteration waits for it (and passes a barrier, the
  /// wait being the issuing thread's) only before rewriting the buffer, so
  /// that the store overlaps the next tile's main loop; the last one is
  /// waited for after the loop. Not when the loops stage an operand in
  /// shared memory for an inner loop before the store, at least as large
  /// as its block (attention's Q, per tile): there the store is lowered as
  /// outside loops, its block allocated at the store, so that it can take
  /// that operand's place once the inner loop is done instead of adding
  /// its bytes for the whole loop.
  void lowerStore(tile::DescStoreOp store) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    tilegpu::ConvertLayoutOp convert;
    Value value = storedValue(store, convert);
    Operation *loop = outermostLoopOfStraightNest(store);
    if (loop && stagesOperandBefore(store, loop))
      loop = nullptr;
    if (loop) {
      // The descriptor's stores in the same loop nest (an epilogue stored
      // in parts) share the buffer: each waits for the reads of the store
      // before it, whichever that was, before rewriting it.
      Value &buffer = loopBuffers[loop];
      const bool first = !buffer;
      OpBuilder outside(loop);
      if (first)
        buffer =
            tilegpu::LocalAllocOp::create(outside, loc, bufferType, Value());
      tilegpu::AsyncTMAStoreWaitOp::create(b, loc, uint32_t(0));
      tilegpu::BarrierOp::create(b, loc);
      tilegpu::LocalStoreOp::create(b, loc, value, buffer);
      tilegpu::FenceAsyncSharedOp::create(b, loc);
      tilegpu::AsyncTMACopyLocalToGlobalOp::create(b, loc, map,
                                                   store.getIndices(), buffer);
      if (first) {
        outside.setInsertionPointAfter(loop);
        tilegpu::AsyncTMAStoreWaitOp::create(outside, loc, uint32_t(0));
      }
    } else {
      tilegpu::MemDescType type = tilegpu::MemDescType::get(
          context, bufferType.getShape(), bufferType.getElementType(),
          bufferType.getEncoding(), /*mutableMemory=*/false);
      Value buffer = tilegpu::LocalAllocOp::create(b, loc, type, value);
      tilegpu::FenceAsyncSharedOp::create(b, loc);
      tilegpu::AsyncTMACopyLocalToGlobalOp::create(b, loc, map,
                                                   store.getIndices(), buffer);
      tilegpu::AsyncTMAStoreWaitOp::create(b, loc, uint32_t(0));
    }
    store.erase();
    if (convert && convert->use_empty())
      convert.erase();
  }

private:
  /// The value a store writes into its shared buffer: a tensor-core result
  /// of 16-bit elements (or a part of one) that was converted to another
  /// layout for the store is written from its own layout instead (whole rows
  /// per lane with stmatrix, no trip through conversion scratch); `convert` is
  /// then that conversion.
  static Value storedValue(tile::DescStoreOp store,
                           tilegpu::ConvertLayoutOp &convert) {
    convert = store.getSrc().getDefiningOp<tilegpu::ConvertLayoutOp>();
    if (!convert)
      return store.getSrc();
    auto source = cast<RankedTensorType>(convert.getSrc().getType());
    // (A linear layout: a part of one, split off by shape ops.)
    if (isa_and_nonnull<tilegpu::NvidiaMmaLayoutAttr,
                        tilegpu::LinearLayoutAttr>(source.getEncoding()) &&
        source.getElementType().isIntOrFloat() &&
        source.getElementType().getIntOrFloatBitWidth() == 16)
      return convert.getSrc();
    convert = nullptr;
    return store.getSrc();
  }

  /// The outermost scf.for around `op` when every op between `op` and its
  /// function is an scf.for or an scf.if (their bounds and conditions are
  /// scalars, the same for every thread of the program, so a barrier there
  /// is reached by all: a flattened persistent loop stores under
  /// `if k == last`), else null (no loop, or another kind of region).
  static Operation *outermostLoopOfStraightNest(Operation *op) {
    Operation *outermost = nullptr;
    for (Operation *parent = op->getParentOp();
         parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp()) {
      if (isa<scf::ForOp>(parent))
        outermost = parent;
      else if (!isa<scf::IfOp>(parent))
        return nullptr;
    }
    return outermost;
  }

  /// Whether the loop nest up to `loop` stages an operand in shared memory
  /// for an inner loop that ends before `store` (in a block around the
  /// store, before it, with an scf.for between them): a `local_alloc` (a
  /// buffer per iteration: of a value, or filled by TMA) or a `desc_load`
  /// (whose lowering allocates one) of at least the store's bytes.
  bool stagesOperandBefore(tile::DescStoreOp store, Operation *loop) const {
    const int64_t storeBytes = bufferBytes(bufferType);
    bool pastLoop = false;
    for (Operation *at = store; at != loop; at = at->getParentOp())
      for (Operation *op = at->getPrevNode(); op; op = op->getPrevNode()) {
        pastLoop |= isa<scf::ForOp>(op);
        if (!pastLoop)
          continue;
        int64_t bytes = 0;
        if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op))
          bytes = bufferBytes(alloc.getType());
        else if (auto load = dyn_cast<tile::DescLoadOp>(op))
          bytes = bufferBytes(load.getType());
        if (bytes >= storeBytes)
          return true;
      }
    return false;
  }

  /// A block only stored back into shared memory as it lies in `buffer`
  /// (a wgmma operand), maybe transposed first (B given N x K): the
  /// readers of that copy read `buffer`, or a transposed view of it.
  LogicalResult readInPlace(OpBuilder &b, Location loc, Operation *block,
                            Value buffer) {
    if (!block->hasOneUse())
      return failure();
    Operation *user = *block->user_begin();
    auto trans = dyn_cast<tile::TransOp>(user);
    if (trans) {
      if (!trans->hasOneUse() || bufferType.getShape().size() != 2 ||
          !isa<tilegpu::NvmmaSharedLayoutAttr>(bufferType.getEncoding()))
        return failure();
      user = *trans->user_begin();
    }
    auto alloc = dyn_cast<tilegpu::LocalAllocOp>(user);
    if (!alloc)
      return failure();
    Value view = buffer;
    if (trans) {
      tilegpu::MemDescType type =
          tilegpu::MemDescTransOp::transposedType(bufferType);
      if (alloc.getType().getEncoding() != type.getEncoding() ||
          alloc.getType().getShape() != type.getShape())
        return failure();
      view = tilegpu::MemDescTransOp::create(b, loc, buffer);
    } else if (alloc.getType().getEncoding() != bufferType.getEncoding() ||
               alloc.getType().getShape() != bufferType.getShape()) {
      return failure();
    }
    alloc.replaceAllUsesWith(view);
    // A transposed view the dot took of the block's buffer (tl.trans(b)
    // stored once, read transposed) now views the TMA buffer.
    tilegpu::MemDescTransOp::retypeViewsOf(view);
    alloc.erase();
    if (trans)
      trans.erase();
    return success();
  }

  Value map;
  MLIRContext *context;
  tilegpu::MemDescType bufferType;
  /// The buffer of the stores in each loop nest (by its outermost loop).
  DenseMap<Operation *, Value> loopBuffers;
};

/// Whether the kernel stores through `desc`.
bool storedThrough(tile::MakeTensorDescOp desc) {
  return llvm::any_of(desc->getUsers(), [](Operation *user) {
    return isa<tile::DescStoreOp>(user);
  });
}

/// A kernel argument or a constant, as a host tensor map's extent or stride
/// takes it: (argument index, -1) or (-1, value); nullopt for anything
/// else. Widening casts of an argument are looked through (the launcher
/// reads the argument as the kernel does: it is known not to be negative
/// wherever a tensor map is built from it).
std::optional<std::pair<int64_t, int64_t>> argumentOrConstant(func::FuncOp func,
                                                              Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    if (constant.isStrictlyPositive() && constant.getActiveBits() < 63)
      return std::pair<int64_t, int64_t>(-1, constant.getSExtValue());
    return std::nullopt;
  }
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp>(def))
      return std::nullopt;
    value = def->getOperand(0);
  }
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &func.getBody().front())
    return std::nullopt;
  return std::pair<int64_t, int64_t>(argument.getArgNumber(), -1);
}

/// The host tensor map `desc` is, when its base, extents and strides are
/// the kernel's arguments (or constants): parameter `parameter` of it.
tilegpu::HostTensormapAttr hostTensormap(func::FuncOp func,
                                         tile::MakeTensorDescOp desc,
                                         unsigned parameter,
                                         ArrayRef<int32_t> box,
                                         unsigned swizzleBytes) {
  auto base = dyn_cast<BlockArgument>(desc.getBase());
  if (!base || base.getOwner() != &func.getBody().front())
    return {};
  SmallVector<int64_t> shapeArguments, shapeValues, strideArguments,
      strideValues;
  for (auto [values, arguments, constants] :
       {std::tuple(desc.getShape(), &shapeArguments, &shapeValues),
        std::tuple(desc.getStrides(), &strideArguments, &strideValues)})
    for (Value value : values) {
      std::optional<std::pair<int64_t, int64_t>> operand =
          argumentOrConstant(func, value);
      if (!operand)
        return {};
      arguments->push_back(operand->first);
      constants->push_back(operand->second);
    }
  MLIRContext *context = func.getContext();
  Type element =
      cast<tile::PointerType>(desc.getBase().getType()).getPointeeType();
  return tilegpu::HostTensormapAttr::get(
      context, parameter, base.getArgNumber(), element,
      DenseI64ArrayAttr::get(context, shapeArguments),
      DenseI64ArrayAttr::get(context, shapeValues),
      DenseI64ArrayAttr::get(context, strideArguments),
      DenseI64ArrayAttr::get(context, strideValues),
      DenseI32ArrayAttr::get(context, box), swizzleBytes, storedThrough(desc));
}

struct LowerDescriptorsToTmaPass
    : public mlir::terrazzo::impl::TerrazzoLowerDescriptorsToTmaBase<
          LowerDescriptorsToTmaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyTensorsHaveLayouts(module, getArgument())))
      return signalPassFailure();
    const bool hostMaps =
        module->hasAttr(tilegpu::TileGPUDialect::kHostTensormapsAttrName);
    int64_t scratchBytes = 0;
    bool failedAny = false;
    SmallVector<Attribute> hostTensormaps;
    module.walk([&](func::FuncOp func) {
      SmallVector<tile::MakeTensorDescOp> descs;
      func.walk([&](tile::MakeTensorDescOp desc) { descs.push_back(desc); });
      if (descs.empty())
        return;
      if (!func.isPublic() || func.isExternal()) {
        descs.front().emitOpError(
            "is in a function that is not a kernel; TMA descriptors are "
            "built in the kernel's global scratch (inline the function)");
        failedAny = true;
        return;
      }
      for (tile::MakeTensorDescOp desc : descs)
        if (kernelOfStraightNest(desc) != func) {
          desc.emitOpError("must be created in the kernel's body, or in "
                           "scf.for loops and scf.if branches there, to use "
                           "TMA");
          failedAny = true;
          return;
        }
      failedAny |= failed(
          lowerKernel(func, descs, hostMaps, scratchBytes, hostTensormaps));
    });
    if (failedAny)
      return signalPassFailure();
    if (scratchBytes)
      module->setAttr(
          tilegpu::TileGPUDialect::kGlobalScratchAttrName,
          IntegerAttr::get(IntegerType::get(&getContext(), 32), scratchBytes));
    if (!hostTensormaps.empty())
      module->setAttr(tilegpu::TileGPUDialect::kHostTensormapParamsAttrName,
                      ArrayAttr::get(&getContext(), hostTensormaps));
  }

  /// The map of each descriptor: a parameter of `func` that the launcher
  /// builds (with `hostMaps`, for the descriptors of arguments alone), else
  /// a tensormap_create in this program instance's slot of the global
  /// scratch, which `func` then takes as its last argument.
  LogicalResult lowerKernel(func::FuncOp func,
                            ArrayRef<tile::MakeTensorDescOp> descs,
                            bool hostMaps, int64_t &scratchBytes,
                            SmallVector<Attribute> &hostTensormaps) {
    MLIRContext *context = func.getContext();
    Type mapType = tile::PointerType::get(IntegerType::get(context, 8));
    struct Lowering {
      tile::MakeTensorDescOp desc;
      SmallVector<int32_t> box;
      unsigned swizzleBytes;
      tilegpu::HostTensormapAttr host;
    };
    SmallVector<Lowering> lowerings;
    int64_t slots = 0;
    unsigned hostCount = 0;
    for (tile::MakeTensorDescOp desc : descs) {
      RankedTensorType block = desc.getType().getBlockType();
      SmallVector<int64_t> box;
      SmallVector<tilegpu::TmaCopy> copies;
      if (!tilegpu::getTmaSharedLayout(context, block.getShape(),
                                       block.getElementType()) ||
          failed(tilegpu::getTmaCopies(tmaBufferType(desc), box, copies)))
        return desc.emitOpError("has a block that TMA cannot copy; lower it "
                                "with terrazzo-lower-tensor-descriptors");
      Lowering lowering{
          desc,
          SmallVector<int32_t>(box.begin(), box.end()),
          unsigned(tilegpu::getTmaSwizzleBytes(tmaBufferType(desc))),
          {}};
      if (hostMaps)
        lowering.host =
            hostTensormap(func, desc, func.getNumArguments() + hostCount,
                          lowering.box, lowering.swizzleBytes);
      if (lowering.host) {
        hostTensormaps.push_back(lowering.host);
        ++hostCount;
      } else
        ++slots;
      lowerings.push_back(std::move(lowering));
    }

    // The launcher passes the host maps after the arguments, then the
    // scratch.
    SmallVector<Value> hostParams;
    for (const Lowering &lowering : lowerings)
      if (lowering.host) {
        unsigned index = func.getNumArguments();
        (void)func.insertArgument(index, mapType, {}, func.getLoc());
        hostParams.push_back(func.getArgument(index));
      }
    Value programScratch;
    if (slots) {
      int64_t bytesPerProgram = slots * int64_t(::terrazzo::kTensorMapBytes);
      scratchBytes = std::max(scratchBytes, bytesPerProgram);
      unsigned index = func.getNumArguments();
      // The runtime allocates the scratch aligned to 128 bytes.
      auto hint = DictionaryAttr::get(
          context, {NamedAttribute(
                       StringAttr::get(
                           context, tile::TileDialect::kDivisibilityAttrName),
                       IntegerAttr::get(IntegerType::get(context, 32), 128))});
      (void)func.insertArgument(index, mapType, hint, func.getLoc());
      Value scratch = func.getArgument(index);
      OpBuilder b(context);
      b.setInsertionPointToStart(&func.getBody().front());
      Location loc = func.getLoc();
      Value offset =
          arith::MulIOp::create(b, loc, linearProgramId(b, loc),
                                arith::ConstantIntOp::create(
                                    b, loc, b.getI64Type(), bytesPerProgram));
      programScratch = tile::AddPtrOp::create(b, loc, mapType, scratch, offset);
    }

    int64_t slot = 0;
    auto hostParam = hostParams.begin();
    for (Lowering &lowering : lowerings) {
      tile::MakeTensorDescOp desc = lowering.desc;
      Value map;
      if (lowering.host) {
        map = *hostParam++;
      } else {
        OpBuilder b(desc);
        Location descLoc = desc.getLoc();
        Value slotPointer = tile::AddPtrOp::create(
            b, descLoc, mapType, programScratch,
            arith::ConstantIntOp::create(
                b, descLoc, b.getI64Type(),
                slot++ * int64_t(::terrazzo::kTensorMapBytes)));
        // A map built in a loop is rebuilt in the same slot every
        // iteration: the previous iteration's TMA stores through it, left
        // in flight (lowerStore), must be complete first. (Its loads are:
        // each is waited for in the iteration that issued it, the
        // pipeliner's too, which needs a map from outside the loop it
        // pipelines.)
        if (desc->getParentOfType<scf::ForOp>() && storedThrough(desc))
          tilegpu::AsyncTMAStoreWaitOp::create(b, descLoc, uint32_t(0),
                                               /*complete=*/true);
        map = tilegpu::TensormapCreateOp::create(
            b, descLoc, mapType, slotPointer, desc.getBase(), desc.getShape(),
            desc.getStrides(), b.getDenseI32ArrayAttr(lowering.box),
            b.getI32IntegerAttr(int32_t(lowering.swizzleBytes)));
      }
      TmaLowering withMap(desc, map);
      for (Operation *user : llvm::make_early_inc_range(desc->getUsers())) {
        if (auto load = dyn_cast<tile::DescLoadOp>(user))
          withMap.lowerLoad(load);
        else if (auto store = dyn_cast<tile::DescStoreOp>(user))
          withMap.lowerStore(store);
      }
      if (!desc->use_empty())
        return desc->emitOpError(
            "has uses other than desc_load and desc_store");
      desc.erase();
    }
    return success();
  }
};

} // namespace
