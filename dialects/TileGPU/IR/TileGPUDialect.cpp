#include "dialects/Tile/IR/Inlining.h"
#include "dialects/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "dialects/TileGPU/IR/TileGPUDialect.cpp.inc"
#include "dialects/TileGPU/IR/TileGPUEnums.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/TileGPU/IR/TileGPUTypes.cpp.inc"

namespace {
/// Layouts repeat on every tensor type; printing them as #blocked, #slice,
/// #linear and #shared aliases keeps the IR readable.
struct TileGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr))
      os << "blocked";
    else if (isa<SliceLayoutAttr>(attr))
      os << "slice";
    else if (isa<LinearLayoutAttr>(attr))
      os << "linear";
    else if (isa<SharedLayoutAttr>(attr))
      os << "shared";
    else
      return AliasResult::NoAlias;
    return AliasResult::OverridableAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
  addInterfaces<TileGPUOpAsmInterface, tile::InlineEveryOp>();
}

void TileGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
}

/// Constants that folders produce (e.g. convert_layout of a constant splat)
/// become arith.constant.
Operation *TileGPUDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

namespace {

ModuleOp enclosingModule(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

/// The attribute `name` of the module `op` is (or is in), if it has one.
template <typename AttrT> AttrT getModuleAttr(Operation *op, StringRef name) {
  ModuleOp module = enclosingModule(op);
  return module ? module->getAttrOfType<AttrT>(name) : AttrT();
}

std::optional<::terrazzo::Target> parseTarget(StringAttr name) {
  std::string error;
  return ::terrazzo::Target::parse(name.getValue().str(), error);
}

} // namespace

std::optional<::terrazzo::Target> mlir::tilegpu::getTarget(Operation *op) {
  auto name = getModuleAttr<StringAttr>(op, TileGPUDialect::kTargetAttrName);
  return name ? parseTarget(name) : std::nullopt;
}

unsigned mlir::tilegpu::getNumWarps(Operation *op) {
  auto warps = getModuleAttr<IntegerAttr>(op, TileGPUDialect::kNumWarpsAttrName);
  return warps ? unsigned(warps.getInt()) : ::terrazzo::kDefaultNumWarps;
}

unsigned mlir::tilegpu::getTotalNumWarps(Operation *op) {
  auto warps =
      getModuleAttr<IntegerAttr>(op, TileGPUDialect::kTotalNumWarpsAttrName);
  return warps ? unsigned(warps.getInt()) : getNumWarps(op);
}

std::optional<unsigned> mlir::tilegpu::getMaxRegisters(Operation *op) {
  if (auto registers =
          getModuleAttr<IntegerAttr>(op, TileGPUDialect::kMaxRegistersAttrName))
    return unsigned(registers.getInt());
  return std::nullopt;
}

unsigned mlir::tilegpu::getThreadsPerWarp(Operation *op) {
  if (auto threads = getModuleAttr<IntegerAttr>(
          op, TileGPUDialect::kThreadsPerWarpAttrName))
    return threads.getInt();
  if (std::optional<::terrazzo::Target> target = getTarget(op))
    return target->warpSize;
  return ::terrazzo::Target().warpSize;
}

namespace {

/// Checks that every distributed layout used in `module` agrees with the
/// module's launch configuration, as reported by `property`.
LogicalResult verifyLayoutsAgree(Operation *module, StringRef attrName,
                                 int64_t expected,
                                 unsigned (*property)(DistributedLayoutAttr)) {
  auto check = [&](Type type, Operation *user) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    auto layout = dyn_cast_or_null<DistributedLayoutAttr>(tensor.getEncoding());
    if (!layout || property(layout) == expected)
      return success();
    return user->emitOpError("layout ")
           << layout << " disagrees with the module's " << attrName << " = "
           << expected;
  };
  WalkResult result = module->walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (failed(check(type, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (failed(check(type, op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

} // namespace

LogicalResult TileGPUDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name == kScratchOffsetAttrName || name == kBufferOffsetAttrName) {
    auto offset = dyn_cast<IntegerAttr>(attr.getValue());
    if (!offset || !offset.getType().isSignlessInteger(64) ||
        offset.getInt() < 0)
      return op->emitError("'")
             << name << "' must be a non-negative i64, got " << attr.getValue();
    if (name == kBufferOffsetAttrName && !isa<LocalAllocOp>(op))
      return op->emitError("'") << name << "' must be set on a "
                                << LocalAllocOp::getOperationName();
    return success();
  }
  if (name == kTensormapGroupAttrName) {
    auto group = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!isa<TensormapCreateOp>(op) || !group || group.size() != 2 ||
        group[1] < 2 || group[0] < 0 || group[0] >= group[1])
      return op->emitError("'")
             << name << "' must be array<i64: k, n> (0 <= k < n, n > 1) on a "
             << TensormapCreateOp::getOperationName();
    return success();
  }
  if (name == kReadsRetiredAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        !isa<AsyncCopyGlobalToLocalOp, AsyncTMACopyGlobalToLocalOp,
             LocalStoreOp>(op))
      return op->emitError("'")
             << name << "' must be a unit attribute of a "
             << AsyncCopyGlobalToLocalOp::getOperationName() << ", a "
             << AsyncTMACopyGlobalToLocalOp::getOperationName() << " or a "
             << LocalStoreOp::getOperationName();
    return success();
  }
  if (name == kScratchBarrierScopeAttrName) {
    if (!isa<BarrierScopeAttr>(attr.getValue()) || !isa<ConvertLayoutOp>(op))
      return op->emitError("'")
             << name << "' must be a barrier scope (0, 1 or 2 : i32) of a "
             << ConvertLayoutOp::getOperationName();
    return success();
  }
  bool known =
      name == kNumWarpsAttrName || name == kThreadsPerWarpAttrName ||
      name == kTargetAttrName || name == kSharedMemoryAttrName ||
      name == kTotalNumWarpsAttrName || name == kMaxRegistersAttrName ||
      name == kNumStagesAttrName || // terrazzo-pipeline's depth
      // Per-program global scratch of TMA descriptors' tensor maps.
      name == kGlobalScratchAttrName || name == kHostTensormapsAttrName ||
      name == kHostTensormapParamsAttrName;
  if (!known)
    return op->emitError("unknown tilegpu attribute '") << name << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError("'") << name << "' must be set on a builtin.module";

  if (name == kHostTensormapsAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'") << name << "' must be a unit attribute";
    return success();
  }
  if (name == kHostTensormapParamsAttrName) {
    auto maps = dyn_cast<ArrayAttr>(attr.getValue());
    if (!maps || !llvm::all_of(maps, [](Attribute map) {
          return isa<HostTensormapAttr>(map);
        }))
      return op->emitError("'")
             << name << "' must be an array of #tilegpu.host_tensormap, got "
             << attr.getValue();
    return success();
  }
  if (name == kTargetAttrName) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    if (!target)
      return op->emitError("'") << name << "' must be a string, got "
                                << attr.getValue();
    std::string error;
    if (!::terrazzo::Target::parse(target.getValue().str(), error))
      return op->emitError("'") << name << "': " << error;
    // Code runs in kernels only: an op between the functions of a module
    // compiled for a target has nowhere to run (the code generator would
    // meet an instruction outside any function).
    for (Region &region : op->getRegions())
      for (Operation &child : region.getOps())
        if (!isa<SymbolOpInterface, ModuleOp>(child))
          return child.emitOpError("is outside any function; a module "
                                   "compiled for a target holds functions "
                                   "(and globals) only");
    return success();
  }

  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !value.getType().isSignlessInteger(32))
    return op->emitError("'") << name << "' must be an i32, got "
                              << attr.getValue();
  int64_t number = value.getInt();
  if (name == kSharedMemoryAttrName || name == kNumStagesAttrName ||
      name == kGlobalScratchAttrName) {
    if (number < 0)
      return op->emitError("'") << name << "' must not be negative, got "
                                << number;
    return success();
  }
  if (name == kMaxRegistersAttrName) {
    if (number < ::terrazzo::kMinMaxRegisters ||
        number > ::terrazzo::kMaxMaxRegisters)
      return op->emitError("'")
             << name << "' must be from " << ::terrazzo::kMinMaxRegisters
             << " to " << ::terrazzo::kMaxMaxRegisters
             << " registers per thread, got " << number;
    return success();
  }
  if (name == kTotalNumWarpsAttrName) {
    // The consumers' num-warps plus whole warp groups of producers.
    auto warps = op->getAttrOfType<IntegerAttr>(kNumWarpsAttrName);
    int64_t consumers = warps ? warps.getInt() : ::terrazzo::kDefaultNumWarps;
    if (number <= consumers || number > ::terrazzo::kMaxNumWarps ||
        (number - consumers) % 4 != 0)
      return op->emitError("'")
             << name << "' must exceed '" << kNumWarpsAttrName << "' ("
             << consumers << ") by whole warp groups of four, up to "
             << ::terrazzo::kMaxNumWarps << ", got " << number;
    return success();
  }
  if (name == kNumWarpsAttrName) {
    if (number < 1 || number > ::terrazzo::kMaxNumWarps ||
        !llvm::isPowerOf2_64(number))
      return op->emitError("'")
             << name << "' must be a power of two from 1 to "
             << ::terrazzo::kMaxNumWarps << ", got " << number;
    return verifyLayoutsAgree(op, name, number, [](DistributedLayoutAttr l) {
      return l.getNumWarps();
    });
  }
  if (number != 32 && number != 64)
    return op->emitError("'") << name << "' must be 32 or 64, got " << number;
  if (auto targetName = op->getAttrOfType<StringAttr>(kTargetAttrName)) {
    auto target = parseTarget(targetName);
    if (target && number != target->warpSize)
      return op->emitError("'")
             << name << "' must be " << target->warpSize << " for the target "
             << targetName << ", got " << number;
  }
  return verifyLayoutsAgree(op, name, number, [](DistributedLayoutAttr l) {
    return l.getWarpSize();
  });
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc encodingLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(encoding))
    return {};
  auto layout = dyn_cast<SharedLayoutAttr>(encoding);
  if (!layout) {
    parser.emitError(encodingLoc, "expected a shared-memory layout, got ")
        << encoding;
    return {};
  }
  bool isMutable = succeeded(parser.parseOptionalComma());
  if (isMutable && parser.parseKeyword("mutable"))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType,
                                        layout, isMutable);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getEncoding();
  if (getMutableMemory())
    printer << ", mutable";
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  SharedLayoutAttr encoding, bool) {
  if (shape.empty())
    return emitError() << "shared-memory buffer needs at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "shared-memory buffer dimensions must be positive";
  if (!isa<IntegerType, FloatType>(elementType))
    return emitError() << "shared-memory buffer elements must be integers or "
                          "floats, got "
                       << elementType;
  auto nvmma = dyn_cast<NvmmaSharedLayoutAttr>(encoding);
  // An nvmma_shared buffer may have a leading buffer dimension: a stack of
  // 2-D buffers (tilegpu.memdesc_index picks one).
  bool nvmmaStack = nvmma && shape.size() == 3;
  if (encoding.getRank() != shape.size() && !nvmmaStack)
    return emitError() << "layout of rank " << encoding.getRank()
                       << " does not fit a buffer of rank " << shape.size()
                       << (nvmma ? " (or a stack of rank 3)" : "");
  if (nvmma) {
    // The layout is defined in bytes: it must know the element width, and
    // the contiguous dimension must fill whole swizzle rows.
    if (elementType.getIntOrFloatBitWidth() != nvmma.getElementBitWidth())
      return emitError() << "nvmma_shared layout for " << nvmma.getElementBitWidth()
                         << "-bit elements does not fit " << elementType;
    int64_t rowBytes = nvmma.getSwizzlingByteWidth()
                           ? nvmma.getSwizzlingByteWidth()
                           : 16;
    unsigned lead = nvmmaStack ? 1 : 0;
    int64_t contiguous = shape[lead + (nvmma.getTransposed() ? 0 : 1)];
    if (contiguous * nvmma.getElementBitWidth() % (8 * rowBytes) != 0)
      return emitError() << "the contiguous dimension (" << contiguous
                         << " elements) of an nvmma_shared buffer must be a "
                            "multiple of "
                         << rowBytes << " bytes";
    // Every buffer of a stack starts at a multiple of 1024 bytes, as wgmma's
    // descriptors need (the stack itself is allocated so).
    if (nvmmaStack &&
        shape[1] * shape[2] * nvmma.getElementBitWidth() % (8 * 1024) != 0)
      return emitError() << "each buffer of an nvmma_shared stack must be a "
                            "multiple of 1024 bytes, got "
                         << shape[1] << "x" << shape[2] << " elements of "
                         << nvmma.getElementBitWidth() << " bits";
  }
  return success();
}
