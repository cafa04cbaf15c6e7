// The implementation behind include/terrazzo/Compiler.h.
#include "terrazzo/Compiler.h"

#include "backends/Backend.h"
#include "dialects/Tile/IR/Tile.h"
#include "dialects/TileGPU/IR/TileGPU.h"
#include "lib/CrashRecovery.h"
#include "lib/ParserGuard.h"
#include "target/Target.h"
#include "lib/Pipeline.h"
#include "lib/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

#ifndef TERRAZZO_VERSION
#define TERRAZZO_VERSION "0.0.0"
#endif

using namespace mlir;

namespace terrazzo {
namespace {

Diagnostic::Severity convertSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return Diagnostic::Severity::Error;
  case DiagnosticSeverity::Warning:
    return Diagnostic::Severity::Warning;
  case DiagnosticSeverity::Note:
    return Diagnostic::Severity::Note;
  case DiagnosticSeverity::Remark:
    return Diagnostic::Severity::Remark;
  }
  return Diagnostic::Severity::Error;
}

void setPosition(Diagnostic &diagnostic, Location location) {
  if (auto position = location->findInstanceOf<FileLineColLoc>()) {
    diagnostic.file = position.getFilename().str();
    diagnostic.line = position.getLine();
    diagnostic.column = position.getColumn();
  }
}

Diagnostic convertDiagnostic(const mlir::Diagnostic &diag) {
  Diagnostic result;
  result.severity = convertSeverity(diag.getSeverity());
  result.message = diag.str();
  setPosition(result, diag.getLocation());
  return result;
}

/// Collects every diagnostic (and its attached notes) instead of printing it.
class DiagnosticCollector {
public:
  DiagnosticCollector(MLIRContext &context, std::vector<Diagnostic> &out)
      : handler(&context, [&out](mlir::Diagnostic &diag) {
          out.push_back(convertDiagnostic(diag));
          for (const mlir::Diagnostic &note : diag.getNotes())
            out.push_back(convertDiagnostic(note));
          return success();
        }) {}

private:
  ScopedDiagnosticHandler handler;
};

} // namespace

const char *severityName(Diagnostic::Severity severity) {
  switch (severity) {
  case Diagnostic::Severity::Error:
    return "error";
  case Diagnostic::Severity::Warning:
    return "warning";
  case Diagnostic::Severity::Note:
    return "note";
  case Diagnostic::Severity::Remark:
    return "remark";
  }
  return "error";
}

std::string Diagnostic::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!file.empty()) {
    os << file;
    if (line)
      os << ":" << line << ":" << column;
    os << ": ";
  }
  os << severityName(severity) << ": " << message;
  return text;
}

std::string CompileResult::formatDiagnostics() const {
  std::string text;
  for (const Diagnostic &diag : diagnostics)
    text += diag.str() + "\n";
  return text;
}

namespace {

constexpr Stage kStages[] = {Stage::Tile,   Stage::TileGPU, Stage::LLVM,
                             Stage::LLVMIR, Stage::PTX,     Stage::Cubin,
                             Stage::AMDGCN, Stage::HSACO};

const char *stageName(Stage stage) {
  switch (stage) {
  case Stage::Tile:
    return "tile";
  case Stage::TileGPU:
    return "tilegpu";
  case Stage::LLVM:
    return "llvm";
  case Stage::LLVMIR:
    return "llvmir";
  case Stage::PTX:
    return "ptx";
  case Stage::Cubin:
    return "cubin";
  case Stage::AMDGCN:
    return "amdgcn";
  case Stage::HSACO:
    return "hsaco";
  }
  return "tile";
}

/// Whether `stage` is a vendor's own (assembly, binary) rather than common
/// to every target.
bool isVendorStage(Stage stage) { return stage > Stage::LLVMIR; }

/// The assembly and binary stages of `target`: PTX and cubins for cuda
/// targets, AMDGCN and hsaco files for hip targets.
std::pair<Stage, Stage> vendorStages(const Target &target) {
  return target.isCUDA() ? std::make_pair(Stage::PTX, Stage::Cubin)
                         : std::make_pair(Stage::AMDGCN, Stage::HSACO);
}

/// Whether `stage` exists for `target`: the common stages and its own.
bool stageFitsTarget(Stage stage, const Target &target) {
  auto [assembly, binary] = vendorStages(target);
  return !isVendorStage(stage) || stage == assembly || stage == binary;
}

} // namespace

bool parseStage(std::string_view name, Stage &stage) {
  for (Stage value : kStages)
    if (name == stageName(value)) {
      stage = value;
      return true;
    }
  return false;
}

const char *stageNames() {
  return "tile, tilegpu, llvm, llvmir, ptx, cubin, amdgcn or hsaco";
}

namespace {

std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The kernel is the module's public function with a body.
func::FuncOp findKernel(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      return func;
  return {};
}

void describeKernel(func::FuncOp kernel, KernelMetadata &metadata) {
  metadata.name = kernel.getName().str();
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    KernelArgument argument;
    argument.type = typeToString(kernel.getArgument(i).getType());
    if (auto hint = kernel.getArgAttrOfType<IntegerAttr>(i, tile::TileDialect::kDivisibilityAttrName))
      argument.divisibility = hint.getInt();
    metadata.arguments.push_back(argument);
  }
}

HostTensorMap describeHostTensorMap(tilegpu::HostTensormapAttr attr) {
  HostTensorMap map;
  map.parameter = int(attr.getParameter());
  map.base = int(attr.getBase());
  map.elementBytes = int(attr.getElementType().getIntOrFloatBitWidth() / 8);
  auto operands = [](DenseI64ArrayAttr arguments, DenseI64ArrayAttr values) {
    std::vector<TensorMapOperand> list;
    for (auto [argument, value] :
         llvm::zip_equal(arguments.asArrayRef(), values.asArrayRef()))
      list.push_back({int(argument), argument >= 0 ? 0 : value});
    return list;
  };
  map.shape = operands(attr.getShapeArguments(), attr.getShapeValues());
  map.strides = operands(attr.getStrideArguments(), attr.getStrideValues());
  map.box.assign(attr.getBox().asArrayRef().begin(),
                 attr.getBox().asArrayRef().end());
  map.swizzleBytes = int(attr.getSwizzleBytes());
  map.stored = attr.getStored();
  return map;
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        snprintf(escaped, sizeof(escaped), "\\u%04x", c);
        out += escaped;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

} // namespace

std::string KernelMetadata::toJSON() const {
  std::string json = "{\n";
  json += "  \"name\": " + jsonString(name) + ",\n";
  json += "  \"target\": " + jsonString(target) + ",\n";
  json += "  \"num_warps\": " + std::to_string(numWarps) + ",\n";
  json += "  \"warp_size\": " + std::to_string(warpSize) + ",\n";
  json += "  \"threads_per_block\": " + std::to_string(threadsPerBlock) + ",\n";
  json += "  \"shared_memory_bytes\": " + std::to_string(sharedMemoryBytes) +
          ",\n";
  json += "  \"global_scratch_bytes\": " + std::to_string(globalScratchBytes) +
          ",\n";
  json += "  \"host_tensormaps\": [";
  for (size_t i = 0; i < hostTensorMaps.size(); ++i) {
    const HostTensorMap &map = hostTensorMaps[i];
    auto operands = [](const std::vector<TensorMapOperand> &list) {
      std::string text = "[";
      for (size_t d = 0; d < list.size(); ++d)
        text +=
            (d ? ", " : "") +
            (list[d].argument >= 0
                 ? "{\"argument\": " + std::to_string(list[d].argument) + "}"
                 : "{\"value\": " + std::to_string(list[d].value) + "}");
      return text + "]";
    };
    std::string box = "[";
    for (size_t d = 0; d < map.box.size(); ++d)
      box += (d ? ", " : "") + std::to_string(map.box[d]);
    json += i ? ",\n    " : "\n    ";
    json += "{\"parameter\": " + std::to_string(map.parameter) +
            ", \"base\": " + std::to_string(map.base) +
            ", \"element_bytes\": " + std::to_string(map.elementBytes) +
            ", \"shape\": " + operands(map.shape) +
            ", \"strides\": " + operands(map.strides) + ", \"box\": " + box +
            "], \"swizzle_bytes\": " + std::to_string(map.swizzleBytes) +
            ", \"stored\": " + (map.stored ? "true" : "false") + "}";
  }
  json += hostTensorMaps.empty() ? "],\n" : "\n  ],\n";
  json += "  \"binary\": " + jsonString(binaryKind) + ",\n";
  json += "  \"assembler\": " + jsonString(assembler) + ",\n";
  json += "  \"arguments\": [";
  for (size_t i = 0; i < arguments.size(); ++i) {
    json += i ? ",\n    " : "\n    ";
    json += "{\"type\": " + jsonString(arguments[i].type) +
            ", \"divisibility\": " + std::to_string(arguments[i].divisibility) +
            "}";
  }
  json += arguments.empty() ? "]\n" : "\n  ]\n";
  return json + "}\n";
}

namespace {

void compile(std::string_view source, std::string_view sourceName,
             const CompileOptions &options, CompileResult &result) {
  DialectRegistry registry;
  registerDialects(registry);
  // Kernels are small: a thread pool per compilation costs more than it
  // saves.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  // Users read these messages next to their own source; a dump of the op in
  // generic form is noise there.
  context.printOpOnDiagnostic(false);
  DiagnosticCollector collector(context, result.diagnostics);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()),
          llvm::StringRef(sourceName.data(), sourceName.size())),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module;
  if (std::optional<ParserHazard> hazard = findParserHazard(source)) {
    auto [line, column] = sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(
        sourceMgr.getMemoryBuffer(1)->getBufferStart() + hazard->offset));
    emitError(FileLineColLoc::get(&context, sourceName, line, column))
        << hazard->message;
    return;
  }
  {
    CrashStep step("parsing",
                   FileLineColLoc::get(&context, sourceName, 0, 0));
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  }
  if (!module)
    return;

  Stage stage = options.stage;
  KernelMetadata &metadata = result.metadata;
  metadata.binaryKind = stageName(stage);
  // tilegpu IR (a module the tilegpu pipeline made, which names its warps:
  // an --emit=tilegpu dump, edited or not) compiles from there on, under
  // the target (if it names one), warps and stages it was made for.
  bool fromTileGPU =
      (*module)->hasAttr(tilegpu::TileGPUDialect::kNumWarpsAttrName);
  if (fromTileGPU && stage == Stage::Tile) {
    emitError(module->getLoc())
        << "the module is already tilegpu IR (it has "
        << tilegpu::TileGPUDialect::kNumWarpsAttrName
        << "): it compiles to the tilegpu stage or later ones";
    return;
  }
  std::optional<Target> target;
  if (stage != Stage::Tile) {
    std::string error;
    target = Target::parse(options.target, error);
    if (!target) {
      emitError(module->getLoc()) << error;
      return;
    }
    if (fromTileGPU) {
      // Written by hand without a target: the one asked for.
      if (!(*module)->hasAttr(tilegpu::TileGPUDialect::kTargetAttrName))
        (*module)->setAttr(tilegpu::TileGPUDialect::kTargetAttrName,
                           StringAttr::get(&context, target->name));
      std::optional<Target> made = tilegpu::getTarget(*module);
      if (!made || made->name != target->name) {
        emitError(module->getLoc())
            << "the module is tilegpu IR for "
            << (made ? made->name : std::string("an unknown target"))
            << ", not for " << target->name;
        return;
      }
    }
    if (!stageFitsTarget(stage, *target)) {
      auto [assembly, binary] = vendorStages(*target);
      emitError(module->getLoc())
          << "stage '" << stageName(stage) << "' does not exist for "
          << target->name << ", which compiles to " << stageName(assembly)
          << " and " << stageName(binary);
      return;
    }
    func::FuncOp kernel = findKernel(*module);
    if (!kernel) {
      emitError(module->getLoc())
          << "the module has no kernel: a public func.func with a body";
      return;
    }
    describeKernel(kernel, metadata);
    metadata.target = target->name;
    metadata.numWarps =
        fromTileGPU ? int(tilegpu::getNumWarps(*module)) : options.numWarps;
    metadata.warpSize = int(target->warpSize);
    if (options.maxnreg != 0) {
      if (options.maxnreg < minMaxnreg() || options.maxnreg > maxMaxnreg()) {
        emitError(module->getLoc())
            << "maxnreg must be from " << minMaxnreg() << " to "
            << maxMaxnreg() << " registers per thread, got "
            << options.maxnreg;
        return;
      }
      (*module)->setAttr(
          tilegpu::TileGPUDialect::kMaxRegistersAttrName,
          IntegerAttr::get(IntegerType::get(&context, 32), options.maxnreg));
    }
  }

  if (options.hostTensorMaps)
    (*module)->setAttr(tilegpu::TileGPUDialect::kHostTensormapsAttrName,
                       UnitAttr::get(&context));

  PassManager pm(&context, ModuleOp::getOperationName());
  if (!fromTileGPU && (options.optimize || stage != Stage::Tile))
    buildTilePipeline(pm, target ? target->name : "");
  if (!fromTileGPU && stage >= Stage::TileGPU)
    buildTileGPUPipeline(pm, target->name, options.numWarps,
                         options.numStages);
  if (stage >= Stage::LLVM)
    buildLLVMPipeline(pm);
  recordCrashSteps(pm);
  if (failed(pm.run(*module)))
    return;
  // The warps the kernel launches with: its num_warps, and the producer
  // warps of a warp-specialized kernel (known once the pipeline has run).
  if (target)
    metadata.threadsPerBlock =
        int(mlir::tilegpu::getTotalNumWarps(*module) * target->warpSize);
  // The lowering records the dynamic shared memory the kernel needs.
  if (auto shared = (*module)->getAttrOfType<IntegerAttr>(
          tilegpu::TileGPUDialect::kSharedMemoryAttrName))
    metadata.sharedMemoryBytes = int(shared.getInt());
  // TMA descriptors need global scratch, a hidden trailing argument.
  if (auto scratch = (*module)->getAttrOfType<IntegerAttr>(
          tilegpu::TileGPUDialect::kGlobalScratchAttrName))
    metadata.globalScratchBytes = int(scratch.getInt());
  // Tensor maps the launcher builds, hidden parameters after the arguments.
  if (auto maps = (*module)->getAttrOfType<ArrayAttr>(
          tilegpu::TileGPUDialect::kHostTensormapParamsAttrName))
    for (auto map : maps.getAsRange<tilegpu::HostTensormapAttr>())
      metadata.hostTensorMaps.push_back(describeHostTensorMap(map));

  if (stage <= Stage::LLVM) {
    llvm::raw_string_ostream os(result.output);
    module->print(os);
    result.success = true;
    return;
  }
  const Backend *backend = getBackend(*target);
  if (!backend) {
    emitError(module->getLoc()) << noBackendMessage(*target);
    return;
  }
  if (stage == vendorStages(*target).second) {
    Binary binary;
    {
      CrashStep step("code generation for " + target->name, module->getLoc());
      if (failed(backend->emitBinary(*module, *target, options.fpFusion,
                                     options.assembler, binary)))
        return;
    }
    metadata.binaryKind = binary.kind;
    metadata.assembler = binary.assembler;
    result.output = std::move(binary.bytes);
    result.success = true;
    return;
  }
  FailureOr<std::string> text = failure();
  {
    CrashStep step("code generation for " + target->name, module->getLoc());
    text = isVendorStage(stage)
               ? backend->emitAssembly(*module, *target, options.fpFusion)
               : backend->emitLLVMIR(*module, *target, options.fpFusion);
  }
  if (failed(text))
    return;
  result.output = std::move(*text);
  result.success = true;
}

} // namespace

CompileResult compileTileIR(std::string_view source, std::string_view sourceName,
                            const CompileOptions &options) {
  CompileResult result;
  std::optional<Crash> crash = runRecoveringCrashes(
      [&] { compile(source, sourceName, options, result); });
  if (crash) {
    // What the crashed compile produced is not to be trusted.
    result.success = false;
    result.output.clear();
    Diagnostic diagnostic;
    diagnostic.message = crash->message();
    if (crash->location)
      setPosition(diagnostic, *crash->location);
    result.diagnostics.push_back(std::move(diagnostic));
  }
  return result;
}

int defaultNumWarps() { return int(kDefaultNumWarps); }

int maxNumWarps() { return int(kMaxNumWarps); }

int minMaxnreg() { return int(kMinMaxRegisters); }

int maxMaxnreg() { return int(kMaxMaxRegisters); }

bool describeTarget(std::string_view name, TargetDescription &description,
                    std::string &error) {
  std::optional<Target> target = Target::parse(name, error);
  if (!target)
    return false;
  description.name = target->name;
  description.vendor = target->isCUDA() ? "cuda" : "hip";
  description.processor = target->processor;
  description.warpSize = int(target->warpSize);
  description.maxSharedMemoryBytes = int(target->maxSharedMemoryBytes);
  auto [assembly, binary] = vendorStages(*target);
  description.assemblyStage = stageName(assembly);
  description.binaryStage = stageName(binary);
  return true;
}

const char *version() {
  return "terrazzo " TERRAZZO_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

} // namespace terrazzo
