// terrazzo-convert-tile-to-tilegpu: see Passes.td.
#include "passes/Passes.h"

#include "target/Target.h"
#include "passes/LayoutUtils.h"
#include "dialects/TileGPU/IR/DotOperandLayouts.h"
#include "passes/ShapeOpLayouts.h"
#include "dialects/Tile/IR/TileLimits.h"
#include "dialects/TileGPU/Layout/NamedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::terrazzo {
#define GEN_PASS_DEF_TERRAZZOCONVERTTILETOTILEGPU
#include "passes/Passes.h.inc"
} // namespace mlir::terrazzo

using namespace mlir;
using namespace mlir::terrazzo;

namespace {

struct ConvertTileToTileGPUPass
    : public mlir::terrazzo::impl::TerrazzoConvertTileToTileGPUBase<
          ConvertTileToTileGPUPass> {
  using TerrazzoConvertTileToTileGPUBase::TerrazzoConvertTileToTileGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::optional<::terrazzo::Target> parsed =
        ::terrazzo::Target::parse(target.getValue(), error);
    if (!parsed) {
      module.emitError(error);
      return signalPassFailure();
    }
    warpSize = threadsPerWarp ? unsigned(threadsPerWarp) : parsed->warpSize;
    if (numWarps < 1 || numWarps > ::terrazzo::kMaxNumWarps ||
        !llvm::isPowerOf2_32(numWarps)) {
      // The option itself would print as a character: stream its value.
      module.emitError("num-warps must be a power of two from 1 to ")
          << ::terrazzo::kMaxNumWarps << ", got "
          << unsigned(numWarps.getValue());
      return signalPassFailure();
    }
    if (warpSize != 32 && warpSize != 64) {
      module.emitError("threads-per-warp must be 32 or 64, got ") << warpSize;
      return signalPassFailure();
    }
    if (numWarps * warpSize > ::terrazzo::kMaxThreadsPerBlock) {
      // 32 warps of 64 (wave64 on hip targets) are more threads than a
      // workgroup may have.
      module.emitError("num-warps ")
          << unsigned(numWarps.getValue()) << " of " << warpSize
          << " threads is more than the "
          << ::terrazzo::kMaxThreadsPerBlock << " threads a program "
          << "instance may have on " << parsed->name;
      return signalPassFailure();
    }

    Builder builder(module.getContext());
    module->setAttr(tilegpu::TileGPUDialect::kNumWarpsAttrName,
                    builder.getI32IntegerAttr(numWarps));
    module->setAttr(tilegpu::TileGPUDialect::kThreadsPerWarpAttrName,
                    builder.getI32IntegerAttr(warpSize));
    module->setAttr(tilegpu::TileGPUDialect::kTargetAttrName,
                    builder.getStringAttr(parsed->name));

    if (failed(checkShapeOpsHaveLayouts(module)) ||
        failed(checkTensorShapes(module, numWarps * warpSize)))
      return signalPassFailure();
    assignDefaultLayouts(module);
    bool shapeOpFailed = false;
    module.walk([&](Operation *op) {
      if (auto reduce = dyn_cast<tile::ReduceOp>(op))
        sliceReduceResults(reduce);
      else if (isa<tile::TransOp, tile::ReshapeOp, tile::JoinOp,
                   tile::SplitOp>(op))
        shapeOpFailed |= failed(assignShapeOpLayouts(op));
      else if (auto expand = dyn_cast<tile::ExpandDimsOp>(op))
        convertOperand(expand, expand.getSrcMutable(),
                       tilegpu::SliceLayoutAttr::get(
                           op->getContext(), expand.getAxis(),
                           layoutOf(expand.getType())));
      else if (auto broadcast = dyn_cast<tile::BroadcastOp>(op))
        convertOperand(broadcast, broadcast.getSrcMutable(),
                       broadcast.getType().getEncoding());
      else if (auto dot = dyn_cast<tile::DotOp>(op))
        shapeOpFailed |= failed(assignFmaDotLayouts(dot));
    });
    if (shapeOpFailed)
      return signalPassFailure();
  }

private:
  unsigned warpSize = 32;

  /// `op`'s location, or where it has none (a constant that an earlier
  /// pass made and canonicalization merged with others), its first user's
  /// that has one: the user's line is where the tensor came from.
  static Location knownLocation(Operation *op) {
    if (!isa<UnknownLoc>(op->getLoc()))
      return op->getLoc();
    for (Operation *user : op->getUsers())
      if (!isa<UnknownLoc>(user->getLoc()))
        return user->getLoc();
    return op->getLoc();
  }

  /// Every tensor of the module can carry a layout: rank 1 or more,
  /// power-of-two sizes, no more elements than a block holds and no more
  /// per thread than a thread can hold over `threads`, which is all the
  /// frontend makes. Reports the first that cannot where it is defined
  /// (before any layout is chosen: the layout library takes nothing else).
  static LogicalResult checkTensorShapes(ModuleOp module, int64_t threads) {
    auto check = [&](Location loc, StringRef what, Type type) -> LogicalResult {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getEncoding())
        return success();
      if (tensor.getRank() == 0)
        return emitError(loc) << what << " has type " << type
                              << ", a tensor of rank 0, which has no layout "
                                 "on the GPU; use a scalar";
      std::string error = ::terrazzo::checkTensorShape(tensor.getShape());
      if (error.empty() && tensor.getNumElements() > tile::kMaxBlockElements)
        error = "it has " + std::to_string(tensor.getNumElements()) +
                " elements, more than the largest block (" +
                std::to_string(tile::kMaxBlockElements) + ")";
      if (error.empty() &&
          tensor.getNumElements() > tile::kMaxElementsPerThread * threads)
        return emitError(loc)
               << what << " has type " << type << ": "
               << tensor.getNumElements() / threads
               << " elements per thread over the program's " << threads
               << " threads, more than a thread can hold ("
               << tile::kMaxElementsPerThread
               << "); use more warps or smaller blocks";
      if (error.empty())
        return success();
      return emitError(loc) << what << " has type " << type
                            << ", which has no layout on the GPU: " << error;
    };
    WalkResult result = module.walk([&](Operation *op) {
      std::string name = "'" + op->getName().getStringRef().str() + "'";
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        name += " @" + symbol.getName().str();
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
          Location loc = func.isExternal() ? func.getLoc()
                                           : func.getArgument(index).getLoc();
          if (failed(check(loc, "argument " + std::to_string(index) + " of " +
                                    name,
                           type)))
            return WalkResult::interrupt();
        }
        for (Type type : func.getResultTypes())
          if (failed(check(func.getLoc(), "a result of " + name, type)))
            return WalkResult::interrupt();
      }
      for (Type type : op->getResultTypes())
        if (failed(check(knownLocation(op), "the result of " + name, type)))
          return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (!isa<func::FuncOp>(op) &&
                failed(check(argument.getLoc(), "a block argument of " + name,
                             argument.getType())))
              return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  Type convertType(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return type;
    return tensor.cloneWithEncoding(getDefaultBlockedLayout(
        type.getContext(), tensor.getShape(), numWarps, warpSize));
  }

  static tilegpu::DistributedLayoutAttr layoutOf(Type type) {
    return cast<tilegpu::DistributedLayoutAttr>(
        cast<RankedTensorType>(type).getEncoding());
  }

  /// Every tensor, wherever it appears (results, block arguments, function
  /// signatures, constants), gets the default layout of its shape; tensors
  /// of one shape therefore agree and elementwise ops need nothing more.
  void assignDefaultLayouts(ModuleOp module) {
    module.walk([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        SmallVector<Type> inputs, results;
        for (Type type : func.getArgumentTypes())
          inputs.push_back(convertType(type));
        for (Type type : func.getResultTypes())
          results.push_back(convertType(type));
        func.setFunctionType(
            FunctionType::get(op->getContext(), inputs, results));
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            argument.setType(convertType(argument.getType()));
      for (OpResult result : op->getResults())
        result.setType(convertType(result.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(
              dense.reshape(cast<ShapedType>(constant.getType())));
    });
  }

  /// Gives `operand` of `op` the layout `encoding`, through a conversion
  /// placed just before `op`.
  void convertOperand(Operation *op, OpOperand &operand, Attribute encoding) {
    auto type = cast<RankedTensorType>(operand.get().getType());
    if (type.getEncoding() == encoding)
      return;
    OpBuilder builder(op);
    Value converted = tilegpu::ConvertLayoutOp::create(
        builder, op->getLoc(), type.cloneWithEncoding(encoding), operand.get());
    operand.set(converted);
  }

  /// Gives `result` the layout `encoding`; its users get it back in the
  /// layout it had, through a conversion `after` creates (placed after the
  /// result's op, in order of calls).
  void convertResult(OpBuilder &after, OpResult result, Attribute encoding) {
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getEncoding() == encoding)
      return;
    result.setType(type.cloneWithEncoding(encoding));
    auto back = tilegpu::ConvertLayoutOp::create(after, result.getLoc(), type,
                                                 result);
    result.replaceAllUsesExcept(back, back);
  }

  /// The layout of a dot's result computed with FMAs: each thread a block
  /// of up to 4 x 4 elements, so that every value of A and B it reads
  /// serves up to four FMAs. (In the default layout, one element per
  /// thread and repetition, a thread of a 64 x 64 dot held 32 rows of one
  /// column and read 32 values of A per value of B.)
  tilegpu::BlockedLayoutAttr fmaDotResultLayout(RankedTensorType type) {
    ArrayRef<int64_t> shape = type.getShape();
    size_t rank = shape.size();
    int64_t perThread = std::max<int64_t>(
        1, type.getNumElements() / (int64_t(numWarps) * warpSize));
    SmallVector<unsigned> sizePerThread(rank, 1), order;
    unsigned columns = unsigned(std::min<int64_t>({4, shape[rank - 1], perThread}));
    unsigned rows = unsigned(
        std::min<int64_t>({4, shape[rank - 2], perThread / columns}));
    sizePerThread[rank - 1] = columns;
    sizePerThread[rank - 2] = rows;
    for (size_t d = rank; d-- > 0;)
      order.push_back(d);
    return getBlockedLayout(type.getContext(), shape, sizePerThread, order,
                            numWarps, warpSize);
  }

  /// A dot (which, without tensor cores, lowers to FMAs) computes in
  /// fmaDotResultLayout, its operands in the layouts where each thread
  /// holds the rows of A and the columns of B its elements of the result
  /// need; its users get the result back in the layout they had.
  LogicalResult assignFmaDotLayouts(tile::DotOp dot) {
    auto resultType = cast<RankedTensorType>(dot.getType());
    Attribute fmaLayout = fmaDotResultLayout(resultType);
    if (resultType.getEncoding() != fmaLayout) {
      convertOperand(dot, dot.getCMutable(), fmaLayout);
      OpBuilder after(dot.getContext());
      after.setInsertionPointAfter(dot);
      convertResult(after, cast<OpResult>(dot.getResult()), fmaLayout);
    }
    OpOperand *operands[] = {&dot.getAMutable(), &dot.getBMutable()};
    for (unsigned index = 0; index < 2; ++index) {
      OpOperand &operand = *operands[index];
      auto type = cast<RankedTensorType>(operand.get().getType());
      Attribute layout = tilegpu::getFmaDotOperandLayout(dot.getType(), index,
                                                         type.getShape());
      if (!layout)
        return dot.emitOpError("has no operand layout for its result's layout");
      convertOperand(dot, operand, layout);
    }
    return success();
  }

  /// A reduction's tensor results live in the slice of its sources' layout;
  /// users get them back in the default layout.
  void sliceReduceResults(tile::ReduceOp reduce) {
    // A reduction of a 1-D tensor has scalar results and no slice (a
    // slice of a rank-1 layout is invalid: the assertions build caught it).
    if (!llvm::any_of(reduce->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return;
    auto parent = layoutOf(reduce.getSrcs().front().getType());
    auto slice = tilegpu::SliceLayoutAttr::get(reduce.getContext(),
                                               reduce.getAxis(), parent);
    OpBuilder after(reduce.getContext());
    after.setInsertionPointAfter(reduce);
    for (OpResult result : reduce->getResults())
      if (isa<RankedTensorType>(result.getType()))
        convertResult(after, result, slice);
  }
};

} // namespace
