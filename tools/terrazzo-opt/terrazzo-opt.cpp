// terrazzo-opt: every Terrazzo dialect and pass behind MLIR's opt driver; the
// lit suite's workhorse.
//
// A crash inside a pass (an LLVM fatal error, a signal) is reported as a
// located "internal compiler error" naming the pass, and the tool exits
// with 1 (lib/CrashRecovery.h). Recovery covers the thread that runs the
// passes, so threading is off unless --mlir-disable-threading=false.
#include "lib/CrashRecovery.h"
#include "lib/ParserGuard.h"
#include "lib/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

void disableThreadingByDefault() {
  registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find("mlir-disable-threading");
  if (found != options.end())
    static_cast<llvm::cl::opt<bool> *>(found->second)->setInitialValue(true);
}

void reportCrash(const terrazzo::Crash &crash) {
  llvm::raw_ostream &os = llvm::errs();
  if (crash.location)
    if (auto position = (*crash.location)->findInstanceOf<FileLineColLoc>()) {
      os << position.getFilename().getValue() << ":";
      if (position.getLine())
        os << position.getLine() << ":" << position.getColumn() << ":";
      os << " ";
    }
  os << "error: " << crash.message() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  terrazzo::registerDialects(registry);
  terrazzo::registerPasses();
  disableThreadingByDefault();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Terrazzo IR optimizer and verifier\n", registry);

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }
  // The pipeline from the command line, its passes recorded as crash steps.
  MlirOptMainConfig commandLine = config;
  config.setPassPipelineSetupFn([&commandLine](PassManager &pm) {
    terrazzo::recordCrashSteps(pm);
    return commandLine.setupPassPipeline(pm);
  });

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (std::optional<terrazzo::ParserHazard> hazard =
          terrazzo::findParserHazard(input->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    sourceMgr.PrintMessage(
        llvm::SMLoc::getFromPointer(input->getBufferStart() + hazard->offset),
        llvm::SourceMgr::DK_Error, hazard->message);
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }

  LogicalResult result = failure();
  std::optional<terrazzo::Crash> crash = terrazzo::runRecoveringCrashes([&] {
    result = MlirOptMain(output->os(), std::move(input), registry, config);
  });
  if (crash) {
    output->os().flush();
    reportCrash(*crash);
    return 1;
  }
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}
