#include "passes/LayoutUtils.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tilegpu;

BlockedLayoutAttr mlir::terrazzo::getBlockedLayout(
    MLIRContext *context, ArrayRef<int64_t> shape,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> order,
    unsigned numWarps, unsigned threadsPerWarp) {
  size_t rank = shape.size();
  SmallVector<unsigned> threads(rank, 1), warps(rank, 1);
  // What each dimension still has to cover after the elements per thread.
  SmallVector<int64_t> remaining(rank);
  for (size_t d = 0; d < rank; ++d)
    remaining[d] = std::max<int64_t>(1, shape[d] / sizePerThread[d]);

  unsigned lanesLeft = threadsPerWarp;
  for (unsigned d : order) {
    unsigned take = std::min<int64_t>(lanesLeft, remaining[d]);
    threads[d] = take;
    lanesLeft /= take;
    remaining[d] /= take;
  }
  // A tensor smaller than a warp still needs every lane placed somewhere:
  // the surplus repeats along the slowest dimension (threads hold copies).
  threads[order.back()] *= lanesLeft;

  unsigned warpsLeft = numWarps;
  for (unsigned d : order) {
    unsigned take = std::min<int64_t>(warpsLeft, remaining[d]);
    warps[d] = take;
    warpsLeft /= take;
    remaining[d] /= take;
  }
  warps[order.back()] *= warpsLeft;
  return BlockedLayoutAttr::get(context, sizePerThread, threads, warps, order);
}

BlockedLayoutAttr mlir::terrazzo::getDefaultBlockedLayout(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned numWarps,
    unsigned threadsPerWarp) {
  size_t rank = shape.size();
  SmallVector<unsigned> sizePerThread(rank, 1), order;
  for (size_t d = rank; d-- > 0;)
    order.push_back(d);
  return getBlockedLayout(context, shape, sizePerThread, order, numWarps,
                          threadsPerWarp);
}

LogicalResult mlir::terrazzo::verifyTensorsHaveLayouts(ModuleOp module,
                                                      StringRef pass) {
  auto lacksLayout = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor &&
           !isa_and_nonnull<DistributedLayoutAttr>(tensor.getEncoding());
  };
  WalkResult result = module.walk([&](Operation *op) {
    std::optional<Type> bad;
    for (Type type : op->getResultTypes())
      if (!bad && lacksLayout(type))
        bad = type;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (!bad && lacksLayout(type))
            bad = type;
    if (!bad)
      return WalkResult::advance();
    op->emitOpError("has a tensor without a distributed layout, ")
        << *bad << "; " << pass
        << " works on tilegpu IR (run terrazzo-convert-tile-to-tilegpu first)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

Value mlir::terrazzo::convertToLayout(OpBuilder &builder, Location loc,
                                      Value value, Attribute layout) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getEncoding() == layout)
    return value;
  return tilegpu::ConvertLayoutOp::create(builder, loc,
                                          type.cloneWithEncoding(layout), value);
}

Type mlir::terrazzo::withEncoding(Type type, Attribute encoding) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.cloneWithEncoding(encoding);
  return type;
}
