// The implementation behind include/terrazzo/Compiler.h.
#include "terrazzo/Compiler.h"

#include "lib/Pipeline.h"
#include "lib/Registration.h"

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

Diagnostic convertDiagnostic(const mlir::Diagnostic &diag) {
  Diagnostic result;
  result.severity = convertSeverity(diag.getSeverity());
  result.message = diag.str();
  if (auto position = diag.getLocation()->findInstanceOf<FileLineColLoc>()) {
    result.file = position.getFilename().str();
    result.line = position.getLine();
    result.column = position.getColumn();
  }
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

} // namespace

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

CompileResult compileTileIR(std::string_view source, std::string_view sourceName,
                            const CompileOptions &options) {
  CompileResult result;
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
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return result;

  if (options.optimize) {
    PassManager pm(&context, ModuleOp::getOperationName());
    buildTilePipeline(pm);
    if (failed(pm.run(*module)))
      return result;
  }

  llvm::raw_string_ostream os(result.output);
  module->print(os);
  result.success = true;
  return result;
}

const char *version() {
  return "terrazzo " TERRAZZO_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

} // namespace terrazzo
