#include "backends/common/LLVMCodeGen.h"
#include "backends/common/PackNarrowPhis.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <unordered_set>

using namespace mlir;

namespace {

/// Keeps LLVM's errors (an inline assembly the back end cannot parse, ...)
/// for the compile to report, where LLVM would print them and end the
/// process; warnings and remarks go to LLVM's default printing.
class ErrorCollector : public llvm::DiagnosticHandler {
public:
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return false;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    errors.push_back(text);
    return true;
  }

  std::vector<std::string> errors;
};

/// Passes whose cost grows with the square of a function's instructions,
/// skipped in functions of more than kMaxQuadraticInstructions so that
/// compile time stays linear in the elements per thread (bench/
/// compile-time.py; every kernel of the tutorials and the lit inputs is
/// smaller, its code unchanged):
/// - the code generator's straight-line strength reduction ("slsr") compares
///   each candidate (an add, a multiplication, an address) with those
///   before it: a block of 2^18 elements spent 16 of its 16.3 s of code
///   generation there (NVPTX);
/// - the code generator's load/store vectorizer and O3's VectorCombinePass
///   ask for the order of instructions in a block they keep changing, and
///   LLVM renumbers the whole block each time (38% of a 2^18 compile once
///   the former was skipped). Huge kernels' accesses are vectorized by
///   the lowering already.
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

/// packNarrowPhis as a pass of LLVM's pipeline (it changes no block).
struct PackNarrowPhisPass : llvm::PassInfoMixin<PackNarrowPhisPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &) {
    if (!mlir::terrazzo::packNarrowPhis(function))
      return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
  }
};

/// LLVM's O3 pipeline for `machine` (without VectorCombine in large
/// functions, see kMaxQuadraticInstructions), with packNarrowPhis where
/// the vectorizers start: after the loops are in their final form, before
/// the InstCombine that folds its lane reads into the packing they feed.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine) {
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
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
        passes.addPass(PackNarrowPhisPass());
      });
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pipeline.run(module, modules);
}

/// Marks every inline assembly call convergent, as clang does for CUDA and
/// HIP device code. The lowerings write warp- and block-collective
/// instructions as inline assembly (bar.sync and bar.arrive with a thread
/// count, wgmma, setmaxnreg, stmatrix: `.sync.aligned`, which every thread
/// of the warp, or of the barrier, must execute at the same instruction);
/// LLVM treats a call that is not convergent as free to be duplicated into
/// the arms of a branch. Jump threading did that to the consumers'
/// `bar.sync 0, 256` between two regions that only thread 0 runs (an
/// mbarrier's init, then its expect_tx): one copy in thread 0's arm, one in
/// the others', so warp 0 arrived twice at two instructions, the barrier
/// completed a warp early, and the kernel hung (a Q copied by TMA in a
/// warp-specialized kernel at head dimension 128).
void markInlineAsmConvergent(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
            call && call->isInlineAsm())
          call->setConvergent();
}

} // namespace

LogicalResult mlir::terrazzo::linkBitcodeLibrary(ModuleOp op,
                                                 llvm::Module &module,
                                                 const std::string &path,
                                                 StringRef what) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> library =
      llvm::parseIRFile(path, diagnostic, module.getContext());
  if (!library)
    return op.emitError("cannot read ")
           << what << " from " << path << ": "
           << diagnostic.getMessage().str();
  library->setTargetTriple(module.getTargetTriple());
  library->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(library),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return op.emitError("linking ") << what << " from " << path << " failed";
  return success();
}

FailureOr<std::string> mlir::terrazzo::emitCode(
    ModuleOp op, const ::terrazzo::Target &target, bool fpFusion,
    CodeGenOutput output, StringRef backend,
    function_ref<LogicalResult(llvm::Module &)> prepare) {
  std::string error;
  llvm::Triple triple(target.llvmTriple());
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return op.emitError("cannot create the ")
           << backend << " target machine: " << error;
  llvm::TargetOptions options;
  options.AllowFPOpFusion =
      fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(
      llvmTarget->createTargetMachine(
          triple, target.processor, target.features, options,
          llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return op.emitError("cannot create the ")
           << backend << " target machine for " << target.processor;

  llvm::LLVMContext context;
  auto handler = std::make_unique<ErrorCollector>();
  ErrorCollector &collector = *handler;
  context.setDiagnosticHandler(std::move(handler));
  auto reportErrors = [&]() -> LogicalResult {
    if (collector.errors.empty())
      return success();
    InFlightDiagnostic diagnostic = op.emitError("the ")
                                    << backend << " backend failed:";
    for (const std::string &error : collector.errors)
      diagnostic << " " << error;
    return failure();
  };
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(op, context, "terrazzo");
  if (!module)
    return op.emitError("translation to LLVM IR failed");
  module->setTargetTriple(machine->getTargetTriple());
  module->setDataLayout(machine->createDataLayout());
  markInlineAsmConvergent(*module);
  if (failed(prepare(*module)))
    return failure();
  optimizeModule(*module, *machine);
  if (failed(reportErrors()))
    return failure();

  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  if (output == CodeGenOutput::LLVMIR) {
    module->print(os, nullptr);
    return std::string(text.str());
  }
  bool assembly = output == CodeGenOutput::Assembly;
  SkipQuadraticCodegenPasses gate(*module);
  context.setOptPassGate(gate);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   assembly
                                       ? llvm::CodeGenFileType::AssemblyFile
                                       : llvm::CodeGenFileType::ObjectFile))
    return op.emitError("the ")
           << backend << " backend cannot emit "
           << (assembly ? "assembly" : "an object file");
  codegen.run(*module);
  if (failed(reportErrors()))
    return failure();
  return std::string(text.str());
}
