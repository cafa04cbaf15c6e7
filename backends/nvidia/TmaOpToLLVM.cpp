// TMA (sm_90's tensor memory accelerator) and mbarriers on NVIDIA.
//
// A tensor map is built by warp 0 in the op's 128-byte shared scratch
// (zeroed, then every field set with tensormap.replace by lane 0), copied
// to its global slot with tensormap.cp_fenceproxy (which releases it to the
// tensor-map proxy) and acquired for that proxy before a barrier: TMA reads
// tensor maps from global memory only, and through a proxy other than the
// one plain stores go through. PTX numbers a tensor map's dimensions from
// the innermost, the reverse of the block's order.
//
// Thread 0 issues every TMA copy, arrives on the mbarriers (with the bytes
// the copies will write) and commits and waits for the store groups; every
// thread waits on an mbarrier, spinning on mbarrier.try_wait.parity.
// NVVM has intrinsics for the copies, mbarrier init/inval, bulk groups and
// proxy fences; tensormap.replace, tensormap.cp_fenceproxy, the arrive with
// a transaction count and the try_wait loop have no intrinsic-backed op
// here and are inline PTX.
#include "backends/common/TargetInfo.h"
#include "backends/common/TargetPattern.h"
#include "backends/common/TypeConverter.h"
#include "backends/common/Utility.h"
#include "backends/nvidia/NVIDIAPatterns.h"
#include "backends/nvidia/NVIDIATargetInfo.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "dialects/TileGPU/IR/TmaLayout.h"
#include "terrazzo/TensorMap.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <string>

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

Value isThread(RewriterBase &rewriter, Location loc, const TargetInfo &target,
               LLVM::ICmpPredicate predicate, int64_t bound) {
  return LLVM::ICmpOp::create(rewriter, loc, predicate,
                              target.threadId(rewriter, loc),
                              i32Constant(rewriter, loc, bound));
}

/// Runs `body` on thread 0 only.
void onThreadZero(RewriterBase &rewriter, Location loc,
                  const TargetInfo &target, llvm::function_ref<void()> body) {
  emitGuarded(rewriter, loc,
              isThread(rewriter, loc, target, LLVM::ICmpPredicate::eq, 0),
              Value(), [&] {
                body();
                return Value();
              });
}

Value toGeneric(RewriterBase &rewriter, Location loc, Value pointer) {
  auto generic = LLVM::LLVMPointerType::get(rewriter.getContext());
  if (pointer.getType() == generic)
    return pointer;
  return LLVM::AddrSpaceCastOp::create(rewriter, loc, generic, pointer);
}

Value toGlobal(RewriterBase &rewriter, Location loc, Value pointer) {
  auto global = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
  if (pointer.getType() == global)
    return pointer;
  return LLVM::AddrSpaceCastOp::create(rewriter, loc, global, pointer);
}

Value byteOffset(RewriterBase &rewriter, Location loc, Value pointer,
                 int64_t bytes) {
  if (!bytes)
    return pointer;
  return LLVM::GEPOp::create(rewriter, loc, pointer.getType(),
                             rewriter.getI8Type(), pointer,
                             ArrayRef<LLVM::GEPArg>{int32_t(bytes)});
}

/// TMA coordinates of one copy: innermost first, each the block's
/// coordinate plus the copy's offset.
SmallVector<Value> tmaCoordinates(RewriterBase &rewriter, Location loc,
                                  ValueRange coords,
                                  const tilegpu::TmaCopy &copy) {
  SmallVector<Value> result;
  for (int64_t d = int64_t(coords.size()) - 1; d >= 0; --d) {
    Value coord = coords[d];
    if (int64_t offset = copy.coordOffsets[d])
      coord = LLVM::AddOp::create(rewriter, loc, coord,
                                  i32Constant(rewriter, loc, offset));
    result.push_back(coord);
  }
  return result;
}

/// On thread 0, `issue(shared, map, coordinates)` for each TMA copy that
/// moves a block of `buffer` (of `type`) through `tensormap` at block
/// coordinates `coords`: `shared` the copy's part of the buffer, `map` the
/// tensor map's generic address; then `after()` in the same thread.
/// Fails for buffers TMA cannot fill (the verifier rejects them).
LogicalResult issueTmaCopies(
    RewriterBase &rewriter, Location loc, const TargetInfo &target,
    tilegpu::MemDescType type, Value buffer, Value tensormap,
    ValueRange coords,
    function_ref<void(Value shared, Value map, ValueRange coordinates)> issue,
    function_ref<void()> after = {}) {
  SmallVector<int64_t> box;
  SmallVector<tilegpu::TmaCopy> copies;
  if (failed(tilegpu::getTmaCopies(type, box, copies)))
    return failure();
  onThreadZero(rewriter, loc, target, [&] {
    Value map = toGeneric(rewriter, loc, tensormap);
    for (const tilegpu::TmaCopy &copy : copies)
      issue(byteOffset(rewriter, loc, buffer, copy.byteOffset), map,
            tmaCoordinates(rewriter, loc, coords, copy));
    if (after)
      after();
  });
  return success();
}

/// The tensor map's encoding of an element of `bytes` bytes: the unsigned
/// integer of that width (copies move bits; zero fill is 0 in every type).
int64_t elementTypeCode(int64_t bytes) {
  switch (bytes) {
  case 1:
    return 0; // .u8
  case 2:
    return 1; // .u16
  case 4:
    return 2; // .u32
  default:
    return 4; // .u64
  }
}

int64_t swizzleModeCode(int64_t bytes) {
  switch (bytes) {
  case 32:
    return 1;
  case 64:
    return 2;
  case 128:
    return 3;
  default:
    return 0;
  }
}

struct TensormapCreateOpConversion
    : public TargetPattern<tilegpu::TensormapCreateOp> {
  using TargetPattern<tilegpu::TensormapCreateOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::TensormapCreateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (tilegpu::getThreadsPerWarp(op) != 32)
      return op.emitOpError("needs 32-thread warps");
    Value map = getScratchPointer(rewriter, loc, op);
    if (!map)
      return failure();
    Value slot = toGlobal(rewriter, loc, adaptor.getSlot());
    auto i64 = rewriter.getI64Type();
    Type element =
        cast<tile::PointerType>(op.getBase().getType()).getPointeeType();
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    ArrayRef<int32_t> box = op.getBoxShape();
    int64_t rank = box.size();

    // The k-th map of a group (terrazzo-allocate-shared-memory's
    // attribute) is built by warp k, the others at the same time.
    int64_t builder = 0, members = 1;
    if (auto group = op->getAttrOfType<DenseI64ArrayAttr>(
            tilegpu::TileGPUDialect::kTensormapGroupAttrName)) {
      builder = group[0];
      members = group[1];
    }
    if (builder != int64_t(pending.size()))
      return op.emitOpError("is map ")
             << builder << " of its group, after " << pending.size()
             << " maps of that group (internal error)";
    Value lane =
        LLVM::SubOp::create(rewriter, loc, target.threadId(rewriter, loc),
                            i32Constant(rewriter, loc, 32 * builder));
    auto inBuilderWarp = [&] {
      return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, lane,
                                  i32Constant(rewriter, loc, 32));
    };
    auto onBuilderLane = [&](function_ref<void()> body) {
      emitGuarded(rewriter, loc,
                  LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       lane, i32Constant(rewriter, loc, 0)),
                  Value(), [&] {
                    body();
                    return Value();
                  });
    };

    // The building warp zeroes the map (fields tensormap.replace does not
    // set must be zero), one word per lane.
    emitGuarded(rewriter, loc, inBuilderWarp(), Value(), [&] {
      Value word = LLVM::GEPOp::create(rewriter, loc, map.getType(),
                                       rewriter.getI32Type(), map,
                                       ArrayRef<LLVM::GEPArg>{lane});
      LLVM::StoreOp::create(rewriter, loc, i32Constant(rewriter, loc, 0),
                            word);
      return Value();
    });
    NVVM::SyncWarpOp::create(rewriter, loc, i32Constant(rewriter, loc, -1));

    onBuilderLane([&] {
      auto replace = [&](StringRef field, StringRef type, std::string args,
                         StringRef constraints, ValueRange operands) {
        std::string ptx = ("tensormap.replace.tile." + field +
                           ".shared::cta.b1024." + type + " [$0], " + args +
                           ";")
                              .str();
        SmallVector<Value> all{map};
        llvm::append_range(all, operands);
        NVIDIATargetInfo::inlinePTX(rewriter, loc, Type(), all, ptx,
                                    ("l" + constraints).str());
      };
      replace("global_address", "b64", "$1", ",l",
              toGlobal(rewriter, loc, adaptor.getBase()));
      replace("rank", "b32", std::to_string(rank - 1), "", {});
      for (int64_t ord = 0; ord < rank; ++ord) {
        int64_t dim = rank - 1 - ord;
        std::string at = std::to_string(ord) + ", $1";
        replace("box_dim", "b32", at, ",r",
                i32Constant(rewriter, loc, box[dim]));
        replace("global_dim", "b32", at, ",r", adaptor.getShape()[dim]);
        replace("element_stride", "b32", at, ",r",
                i32Constant(rewriter, loc, 1));
        // The innermost stride is the element itself; the others in bytes.
        if (ord > 0) {
          Value stride = LLVM::MulOp::create(
              rewriter, loc, adaptor.getStrides()[dim],
              LLVM::ConstantOp::create(rewriter, loc, i64,
                                       rewriter.getI64IntegerAttr(
                                           elementBytes)));
          replace("global_stride", "b64", std::to_string(ord - 1) + ", $1",
                  ",l", stride);
        }
      }
      replace("elemtype", "b32", std::to_string(elementTypeCode(elementBytes)),
              "", {});
      replace("interleave_layout", "b32", "0", "", {});
      replace("swizzle_mode", "b32",
              std::to_string(swizzleModeCode(op.getSwizzleBytes())), "", {});
      replace("fill_mode", "b32", "0", "", {}); // zeros out of bounds
    });
    NVVM::SyncWarpOp::create(rewriter, loc, i32Constant(rewriter, loc, -1));

    emitGuarded(rewriter, loc, inBuilderWarp(), Value(), [&] {
      NVIDIATargetInfo::inlinePTX(
          rewriter, loc, Type(), ValueRange{slot, map},
          "tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
          "generic.release.gpu.sync.aligned [$0], [$1], 128;",
          "l,l");
      // The copy to global memory is a bulk asynchronous operation: commit
      // it and wait until it has read the shared map, so that it is
      // complete before any TMA reads the global one (without this the
      // H100 faulted with an illegal instruction at the first TMA load).
      NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
      NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, 0,
                                           rewriter.getUnitAttr());
      return Value();
    });
    pending.push_back(slot);
    if (builder + 1 < members) {
      rewriter.replaceOp(op, adaptor.getSlot());
      return success();
    }
    // The group's last map: after a barrier (which also frees the scratch
    // for the next op), thread 0, which issues every copy, acquires each
    // map of the group for the tensor-map proxy.
    target.barrier(rewriter, loc);
    onThreadZero(rewriter, loc, target, [&] {
      for (Value member : pending)
        NVVM::FenceProxyAcquireOp::create(
            rewriter, loc, NVVM::MemScopeKind::GPU,
            toGeneric(rewriter, loc, member),
            i32Constant(rewriter, loc, int64_t(::terrazzo::kTensorMapBytes)));
    });
    pending.clear();
    rewriter.replaceOp(op, adaptor.getSlot());
    return success();
  }
  /// The slots of the maps of the group being lowered (the conversion
  /// visits a group's ops in order, one group at a time).
  mutable SmallVector<Value> pending;
};

struct MBarrierInitOpConversion
    : public TargetPattern<tilegpu::MBarrierInitOp> {
  using TargetPattern<tilegpu::MBarrierInitOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MBarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The init is a write of the generic proxy; the TMA copies that
    // complete transactions on the barrier act through the async proxy,
    // which sees it only after fence.mbarrier_init (CUTLASS's
    // fence_barrier_init), once after a group of inits (side-effect-free
    // ops between them aside). Without it, a barrier initialised again in
    // a loop, in memory that other buffers used in between, may be seen by
    // the copies in its old state.
    Operation *next = op->getNextNode();
    while (next && isPure(next))
      next = next->getNextNode();
    bool lastOfGroup = !isa_and_nonnull<tilegpu::MBarrierInitOp>(next);
    onThreadZero(rewriter, loc, target, [&] {
      NVVM::MBarrierInitOp::create(
          rewriter, loc, adaptor.getBarrier(),
          i32Constant(rewriter, loc, op.getCount()), Value());
      if (lastOfGroup)
        NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierExpectTxOpConversion
    : public TargetPattern<tilegpu::MBarrierExpectTxOp> {
  using TargetPattern<tilegpu::MBarrierExpectTxOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MBarrierExpectTxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    onThreadZero(rewriter, loc, target, [&] {
      NVIDIATargetInfo::inlinePTX(
          rewriter, loc, Type(),
          ValueRange{adaptor.getBarrier(),
                     i32Constant(rewriter, loc, op.getBytes())},
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "l,r");
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::MBarrierWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // try_wait may give up after a time limit: loop until the phase is
    // complete.
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *loop = rewriter.createBlock(after);
    auto i32 = rewriter.getI32Type();
    auto done = LLVM::InlineAsmOp::create(
        rewriter, loc, TypeRange{i32},
        ValueRange{adaptor.getBarrier(), adaptor.getPhase()},
        "{\n\t.reg .pred complete;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 complete, [$1], $2;\n\t"
        "selp.u32 $0, 1, 0, complete;\n\t}",
        "=r,l,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    Value complete =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                             done.getResult(0), i32Constant(rewriter, loc, 0));
    LLVM::CondBrOp::create(rewriter, loc, complete, after, ValueRange{}, loop,
                           ValueRange{});
    rewriter.setInsertionPointToEnd(before);
    LLVM::BrOp::create(rewriter, loc, ValueRange{}, loop);
    rewriter.setInsertionPointToStart(after);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveOpConversion
    : public TargetPattern<tilegpu::MBarrierArriveOp> {
  using TargetPattern<tilegpu::MBarrierArriveOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Every lane of the warp reaches this point, then the first one
    // arrives (release: the warp's earlier accesses come first).
    NVVM::SyncWarpOp::create(rewriter, loc, i32Constant(rewriter, loc, -1));
    Value lane = getThreadPosition(rewriter, loc, target, 32).lane;
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       lane, i32Constant(rewriter, loc, 0));
    emitGuarded(rewriter, loc, first, Value(), [&] {
      NVIDIATargetInfo::inlinePTX(
          rewriter, loc, Type(), ValueRange{adaptor.getBarrier()},
          "mbarrier.arrive.shared::cta.b64 _, [$0];", "l");
      return Value();
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierInvalOpConversion
    : public TargetPattern<tilegpu::MBarrierInvalOp> {
  using TargetPattern<tilegpu::MBarrierInvalOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::MBarrierInvalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    onThreadZero(rewriter, loc, target, [&] {
      NVVM::MBarrierInvalOp::create(rewriter, loc, adaptor.getBarrier());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMALoadOpConversion
    : public TargetPattern<tilegpu::AsyncTMACopyGlobalToLocalOp> {
  using TargetPattern<tilegpu::AsyncTMACopyGlobalToLocalOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The shared::cluster form: a CTA's own shared memory is part of its
    // (trivial) cluster's window.
    auto cluster = LLVM::LLVMPointerType::get(rewriter.getContext(), 7);
    if (failed(issueTmaCopies(
            rewriter, loc, target, op.getResult().getType(),
            adaptor.getResult(), adaptor.getTensormap(), adaptor.getCoords(),
            [&](Value shared, Value map, ValueRange coordinates) {
              NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
                  rewriter, loc,
                  LLVM::AddrSpaceCastOp::create(rewriter, loc, cluster,
                                                shared),
                  map, coordinates, adaptor.getBarrier(), ValueRange{},
                  Value(), Value(), NVVM::TMALoadMode::TILE,
                  /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), Value());
            })))
      return failure(); // the verifier rejects such buffers
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMAStoreOpConversion
    : public TargetPattern<tilegpu::AsyncTMACopyLocalToGlobalOp> {
  using TargetPattern<tilegpu::AsyncTMACopyLocalToGlobalOp>::TargetPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncTMACopyLocalToGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (failed(issueTmaCopies(
            rewriter, loc, target, op.getSrc().getType(), adaptor.getSrc(),
            adaptor.getTensormap(), adaptor.getCoords(),
            [&](Value shared, Value map, ValueRange coordinates) {
              NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
                  rewriter, loc, map, shared, coordinates, Value(),
                  NVVM::TMAStoreMode::TILE, Value());
            },
            [&] { NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc); })))
      return failure(); // the verifier rejects such buffers
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMAStoreWaitOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::AsyncTMAStoreWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncTMAStoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Threads without bulk groups (all but the issuing one) return at once.
    NVVM::CpAsyncBulkWaitGroupOp::create(
        rewriter, op.getLoc(), uint32_t(op.getPendings()),
        op.getComplete() ? UnitAttr() : rewriter.getUnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceAsyncSharedOpConversion
    : public ConvertOpToLLVMPattern<tilegpu::FenceAsyncSharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(tilegpu::FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::FenceProxyOp::create(
        rewriter, op.getLoc(), NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::terrazzo::populateTmaOpToLLVMPatterns(
    TileGPUTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<TensormapCreateOpConversion, MBarrierInitOpConversion,
               MBarrierExpectTxOpConversion, MBarrierArriveOpConversion,
               MBarrierInvalOpConversion, AsyncTMALoadOpConversion, AsyncTMAStoreOpConversion>(converter,
                                                                    target);
  patterns.add<MBarrierWaitOpConversion, AsyncTMAStoreWaitOpConversion,
               FenceAsyncSharedOpConversion>(converter);
}

LogicalResult mlir::terrazzo::checkTmaLowering(Operation *op,
                                               unsigned capability) {
  if (!isa<tilegpu::TensormapCreateOp, tilegpu::MBarrierInitOp,
           tilegpu::MBarrierExpectTxOp, tilegpu::MBarrierWaitOp,
           tilegpu::MBarrierArriveOp, tilegpu::MBarrierInvalOp, tilegpu::AsyncTMACopyGlobalToLocalOp,
           tilegpu::AsyncTMACopyLocalToGlobalOp,
           tilegpu::AsyncTMAStoreWaitOp, tilegpu::FenceAsyncSharedOp>(op))
    return success();
  if (capability < 90)
    return op->emitOpError("needs TMA and mbarriers, which sm_")
           << capability << " does not have (sm_90 or newer)";
  return success();
}
