#include "backends/nvidia/PTXEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_set>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace mlir;

namespace terrazzo::nvidia {
namespace {

void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared-memory pointers: the shared window is far smaller than
    // 4 GiB, and 64-bit addresses cost a register pair and two-word
    // arithmetic for every shared access and wgmma descriptor. The data
    // layout the target machine creates follows this flag.
    auto &registered = llvm::cl::getRegisteredOptions();
    auto shortPointers = registered.find("nvptx-short-ptr");
    if (shortPointers != registered.end())
      static_cast<llvm::cl::opt<bool> *>(shortPointers->second)->setValue(true);
  });
}

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const Target &target,
                                                         bool fpFusion,
                                                         std::string &error) {
  initializeNVPTX();
  llvm::Triple triple(target.llvmTriple());
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return nullptr;
  llvm::TargetOptions options;
  // With fusion the code generator contracts a multiply and a dependent add
  // into one fma (as Triton's enable_fp_fusion, on by default); without it
  // the PTX spells mul.rn and add.rn, which ptxas does not contract either.
  options.AllowFPOpFusion =
      fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  return std::unique_ptr<llvm::TargetMachine>(llvmTarget->createTargetMachine(
      triple, target.processor, target.features, options, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

bool callsLibdevice(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      return true;
  return false;
}

LogicalResult linkLibdevice(ModuleOp op, llvm::Module &module) {
  std::string path = findLibdevice();
  if (path.empty())
    return op.emitError(
        "the kernel uses math functions from libdevice, which was not found; "
        "set TERRAZZO_LIBDEVICE to libdevice.10.bc or install the CUDA "
        "toolkit");
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> libdevice =
      llvm::parseIRFile(path, diagnostic, module.getContext());
  if (!libdevice)
    return op.emitError("cannot read libdevice from ")
           << path << ": " << diagnostic.getMessage().str();
  libdevice->setTargetTriple(module.getTargetTriple());
  libdevice->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(libdevice),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return op.emitError("linking libdevice from ") << path << " failed";
  // Only the kernels are entry points; the library functions can be
  // inlined and dropped.
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  // libdevice asks __nvvm_reflect whether to flush denormals: it should not.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                       uint32_t(0));
  return success();
}

/// Passes whose cost grows with the square of a function's instructions,
/// skipped in functions of more than kMaxQuadraticInstructions so that
/// compile time stays linear in the elements per thread (bench/
/// compile-time.py; every kernel of the tutorials and the lit inputs is
/// smaller, its PTX unchanged):
/// - the code generator's straight-line strength reduction ("slsr") compares
///   each candidate (an add, a multiplication, an address) with those
///   before it: a block of 2^18 elements spent 16 of its 16.3 s of code
///   generation there;
/// - the code generator's load/store vectorizer and O3's VectorCombinePass
///   ask for the order of instructions in a block they keep changing, and
///   LLVM renumbers the whole block each time (38% of a 2^18 compile once
///   the former was skipped). Huge kernels' accesses are vectorized by
///   the lowering already (ld.global.v4 and friends).
constexpr unsigned kMaxQuadraticInstructions = 8192;

bool isLarge(const llvm::Function &function) {
  return function.getInstructionCount() > kMaxQuadraticInstructions;
}

/// The code generator's (legacy) passes ask the context's gate, by their
/// argument, about "function (<name>)".
class SkipQuadraticCodegenPasses : public llvm::OptPassGate {
public:
  explicit SkipQuadraticCodegenPasses(const llvm::Module &module) {
    for (const llvm::Function &function : module)
      if (isLarge(function))
        large.insert("function (" + function.getName().str() + ")");
  }

  bool isEnabled() const override { return !large.empty(); }

  bool shouldRunPass(llvm::StringRef pass,
                     llvm::StringRef description) const override {
    return (pass != "slsr" && pass != "load-store-vectorizer") ||
           !large.count(description.str());
  }

private:
  std::unordered_set<std::string> large;
};

void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any ir) {
        if (pass != "VectorCombinePass")
          return true;
        const auto *function = llvm::any_cast<const llvm::Function *>(&ir);
        return !function || !*function || !isLarge(**function);
      });
  llvm::PassBuilder builder(&machine, llvm::PipelineTuningOptions(),
                            std::nullopt, &instrumentation);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pipeline.run(module, modules);
}

/// The kernel module as optimized LLVM IR ready for the NVPTX backend.
FailureOr<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp op, llvm::LLVMContext &context,
                     llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(op, context, "terrazzo");
  if (!module)
    return op.emitError("translation to LLVM IR failed");
  module->setTargetTriple(machine.getTargetTriple());
  module->setDataLayout(machine.createDataLayout());
  if (callsLibdevice(*module) && failed(linkLibdevice(op, *module)))
    return failure();
  optimize(*module, machine);
  return module;
}

} // namespace

void registerTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

std::string findLibdevice() {
  auto exists = [](const std::string &path) {
    return !path.empty() && llvm::sys::fs::exists(path);
  };
  if (const char *explicitPath = std::getenv("TERRAZZO_LIBDEVICE"))
    return exists(explicitPath) ? explicitPath : "";
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(variable)) {
      std::string path = std::string(root) + "/nvvm/libdevice/libdevice.10.bc";
      if (exists(path))
        return path;
    }
  std::string fallback = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
  return exists(fallback) ? fallback : "";
}

/// The target machine and the optimized LLVM module that both outputs start
/// from; the module lives in `context`.
struct OptimizedModule {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
};

static FailureOr<OptimizedModule> optimizeForTarget(ModuleOp op,
                                                    const Target &target,
                                                    bool fpFusion,
                                                    llvm::LLVMContext &context) {
  std::string error;
  OptimizedModule result;
  result.machine = createTargetMachine(target, fpFusion, error);
  if (!result.machine)
    return op.emitError("cannot create the NVPTX target machine: ") << error;
  auto module = translateAndOptimize(op, context, *result.machine);
  if (failed(module))
    return failure();
  result.module = std::move(*module);
  return result;
}

FailureOr<std::string> emitLLVMIR(ModuleOp op, const Target &target,
                                  bool fpFusion) {
  llvm::LLVMContext context;
  FailureOr<OptimizedModule> optimized =
      optimizeForTarget(op, target, fpFusion, context);
  if (failed(optimized))
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  optimized->module->print(os, nullptr);
  return text;
}

FailureOr<std::string> emitPTX(ModuleOp op, const Target &target,
                                bool fpFusion) {
  llvm::LLVMContext context;
  FailureOr<OptimizedModule> optimized =
      optimizeForTarget(op, target, fpFusion, context);
  if (failed(optimized))
    return failure();
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  SkipQuadraticCodegenPasses gate(*optimized->module);
  context.setOptPassGate(gate);
  llvm::legacy::PassManager codegen;
  if (optimized->machine->addPassesToEmitFile(
          codegen, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return op.emitError("the NVPTX backend cannot emit assembly");
  codegen.run(*optimized->module);
  return std::string(ptx.str());
}

} // namespace terrazzo::nvidia
